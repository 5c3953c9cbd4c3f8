//! Parallel spring-slider elements, the building block of Iwan's model
//! (Iwan 1966, "A distributed-element model for hysteresis and its
//! steady-state dynamic response") and of Maxwell-slip (Lampaert, Al-Bender,
//! Swevers 2003): element `j` is a spring of stiffness `k_j` in series with
//! a slider at position `s_j` that slips when the spring deflection
//! `|x - s_j|` reaches `φ_j`:
//!
//! ```text
//! memory update   s_j ← x - φ_j  if x - s_j >  φ_j
//!                 s_j ← x + φ_j  if x - s_j < -φ_j      (else s_j kept)
//! force           F = Σ_j k_j clamp(x - s_j, -φ_j, φ_j)
//! stiffness       ∂F/∂x = Σ_j k_j over the elements with |x - s_j| <= φ_j
//! ```
//!
//! One definition of each, shared by the models' `accept`, `force` and
//! `partials` and
//! by the batch update (which fuses them into one pass), so all three give
//! the same bits. The elements are kept as two arrays and the sum is taken
//! in [`LANES`] interleaved partial sums, branch-free, so that the compiler
//! vectorises the pass: with 100 elements per contact the batch update of
//! Iwan-4 became twice as fast as with the sequential sum and a branch per
//! element (figures in the update's slider kernel, `update/slider_batch.rs`).

/// Partial sums of the force: element `j` goes to sum `j % LANES`, and the
/// sums are added as `(s0 + s1) + (s2 + s3)`.
const LANES: usize = 4;

/// Spring-slider elements as two arrays.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sliders {
    /// Stiffnesses `k_j` [N/m].
    k: Vec<f64>,
    /// Slip deflections `φ_j` \[m\] (`>= 0`).
    phi: Vec<f64>,
}

/// The slider position after the element has seen slip `x`.
#[inline(always)]
fn slide(x: f64, s: f64, phi: f64) -> f64 {
    let d = x - s;
    if d > phi {
        x - phi
    } else if d < -phi {
        x + phi
    } else {
        s
    }
}

/// The force of one element.
#[inline(always)]
fn element_force(k: f64, phi: f64, x: f64, s: f64) -> f64 {
    k * (x - s).max(-phi).min(phi)
}

/// Elements per block: each block is one elementwise pass (which the
/// compiler vectorises, selects instead of branches) into a buffer of
/// element forces, then added to the partial sums.
const BLOCK: usize = 64;

/// Add the element forces `e` (element `j0 + j` for `e[j]`, `j0` a multiple
/// of [`LANES`]) to the partial sums.
#[inline(always)]
fn add_to(acc: &mut [f64; LANES], e: &[f64]) {
    let full = e.len() - e.len() % LANES;
    for c in e[..full].chunks_exact(LANES) {
        for j in 0..LANES {
            acc[j] += c[j];
        }
    }
    for (a, &x) in acc.iter_mut().zip(&e[full..]) {
        *a += x;
    }
}

/// The partial sums added up.
#[inline(always)]
fn total(acc: [f64; LANES]) -> f64 {
    (acc[0] + acc[1]) + (acc[2] + acc[3])
}

impl Sliders {
    /// Elements from `(k_j, φ_j)` pairs.
    pub(crate) fn new(elements: impl Iterator<Item = (f64, f64)>) -> Self {
        let (k, phi) = elements.unzip();
        Sliders { k, phi }
    }

    /// The stiffnesses `k_j` and slip deflections `φ_j`.
    pub(crate) fn arrays(&self) -> (&[f64], &[f64]) {
        (&self.k, &self.phi)
    }

    /// Number of elements.
    pub(crate) fn len(&self) -> usize {
        self.k.len()
    }

    /// `F = Σ k_j clamp(x - s_j, -φ_j, φ_j)` with the sliders `s` held.
    #[inline(always)]
    pub(crate) fn force(&self, x: f64, s: &[f64]) -> f64 {
        let mut acc = [0.0; LANES];
        let mut e = [0.0; BLOCK];
        for ((k, phi), s) in self.k.chunks(BLOCK).zip(self.phi.chunks(BLOCK)).zip(s.chunks(BLOCK)) {
            let m = k.len();
            let (phi, s, e) = (&phi[..m], &s[..m], &mut e[..m]);
            for j in 0..m {
                e[j] = element_force(k[j], phi[j], x, s[j]);
            }
            add_to(&mut acc, e);
        }
        total(acc)
    }

    /// `∂F/∂x` with the sliders `s` held: the stiffness of the elements on
    /// their elastic range `|x - s_j| <= φ_j` (the branch `clamp` takes at
    /// its ends); a slipping element carries a constant `±k_j φ_j`.
    pub(crate) fn stiffness(&self, x: f64, s: &[f64]) -> f64 {
        self.k
            .iter()
            .zip(&self.phi)
            .zip(s)
            .map(|((&k, &phi), &s)| if (x - s).abs() <= phi { k } else { 0.0 })
            .sum()
    }

    /// Move the sliders `s` to slip `x`.
    #[inline(always)]
    pub(crate) fn accept(&self, x: f64, s: &mut [f64]) {
        for (s, &phi) in s.iter_mut().zip(&self.phi) {
            *s = slide(x, *s, phi);
        }
    }

    /// [`Sliders::accept`] then [`Sliders::force`] in one pass, the same bits.
    #[inline(always)]
    pub(crate) fn accept_and_force(&self, x: f64, s: &mut [f64]) -> f64 {
        let mut acc = [0.0; LANES];
        let mut e = [0.0; BLOCK];
        for ((k, phi), s) in self.k.chunks(BLOCK).zip(self.phi.chunks(BLOCK)).zip(s.chunks_mut(BLOCK)) {
            let m = k.len();
            let (phi, s, e) = (&phi[..m], &mut s[..m], &mut e[..m]);
            for j in 0..m {
                let sn = slide(x, s[j], phi[j]);
                s[j] = sn;
                e[j] = element_force(k[j], phi[j], x, sn);
            }
            add_to(&mut acc, e);
        }
        total(acc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sliders against the element rules written out one by one (the
    /// force summed in plain order, so equal to rounding; the stiffness
    /// exactly), for element counts around multiples of the lanes; the fused
    /// pass equals accept then force.
    #[test]
    fn sliders_follow_the_element_rules_and_the_fused_pass_equals_its_parts() {
        for n in [1, 3, 4, 5, 8, 13] {
            let el: Vec<(f64, f64)> =
                (0..n).map(|j| (1e3 * (1.0 + j as f64), 1e-4 * (j as f64 + 0.5))).collect();
            let sl = Sliders::new(el.iter().copied());
            assert_eq!(sl.len(), n);
            let mut s = vec![0.0; n];
            let mut s_ref = s.clone();
            let mut s_fused = s.clone();
            let k_all: f64 = el.iter().map(|e| e.0).sum();
            // steps with some elements elastic and others slipping
            let mut mixed = 0;
            for step in 0..60 {
                let x = 8e-4 * (step as f64 * 0.37).sin();
                let (mut f_ref, mut k_ref) = (0.0, 0.0);
                for (j, &(k, phi)) in el.iter().enumerate() {
                    if (x - s_ref[j]).abs() <= phi {
                        k_ref += k;
                    }
                    if x - s_ref[j] > phi {
                        s_ref[j] = x - phi;
                    } else if x - s_ref[j] < -phi {
                        s_ref[j] = x + phi;
                    }
                    assert!((x - s_ref[j]).abs() <= phi * (1.0 + 1e-12));
                    f_ref += k * (x - s_ref[j]).clamp(-phi, phi);
                }
                // the stiffness with the sliders held at the step's start
                assert_eq!(sl.stiffness(x, &s), k_ref, "n = {n}");
                mixed += usize::from(k_ref > 0.0 && k_ref < k_all);
                sl.accept(x, &mut s);
                assert_eq!(s, s_ref, "n = {n}");
                let f = sl.force(x, &s);
                assert!((f - f_ref).abs() <= 1e-12 * (1.0 + f_ref.abs()), "n = {n}: {f} vs {f_ref}");
                assert_eq!(sl.accept_and_force(x, &mut s_fused), f, "n = {n}");
                assert_eq!(s_fused, s);
            }
            assert!(n == 1 || mixed > 5, "n = {n}: {mixed} steps with elastic and slipping elements");
        }
    }
}
