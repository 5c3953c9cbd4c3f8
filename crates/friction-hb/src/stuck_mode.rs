//! The stuck linear mode a backbone starts from (`super::nnm`): the linear
//! modes of `(K_s, M)` with every contact at its initial stiffness
//! ([`linear_modes`], or the flexibility's eigenproblem for a large
//! structure), and with `coulomb` contacts (true stick) the constrained
//! modes. A loaded `coulomb` contact has no initial stiffness, it holds its
//! members together, so the stuck mode is the constrained eigenproblem
//!
//! ```text
//! (K_s - ω² M) φ + Bᵀ λ = 0,   B φ = 0
//! x = T q with T a basis of B's null space:  (Tᵀ K_s T - ω² Tᵀ M T) q = 0,  φ = T q
//! contact forces of the mode (per unit of φ):  λ = -(B Bᵀ)⁻¹ B (K_s - ω² M) φ
//! ```
//!
//! with `K_s` the stuck stiffness of the other contacts
//! ([`Structure::stuck_stiffness`]) and one row of `B` per held direction:
//! the relative motion `x_first - x_second` of a `coulomb` contact loaded at
//! rest ([`Structure::rest_loads`] > 0), and its y too in a plane. A contact
//! with no load at rest is open and holds nothing. The forces `λ` tell where
//! the mode starts to slip (`super::nnm::default_amplitudes`). The
//! harmonic balance itself keeps the stick by the dynamic Lagrangian method
//! (`super::dlft`); this only gives its starting point.

use nalgebra::{DMatrix, DVector, SymmetricEigen};

use friction_analysis::AnalysisError;

use super::dlft::is_dlft;
use super::structure::Structure;

/// The held directions of a structure's `coulomb` contacts at rest.
#[derive(Debug, Clone)]
pub(super) struct StuckConstraints {
    /// One row per held direction (`r × n`).
    b: DMatrix<f64>,
    /// Per row: the contact it belongs to.
    contact: Vec<usize>,
    /// A basis of B's null space, orthonormal (`n × (n - rank B)`).
    t: DMatrix<f64>,
}

impl StuckConstraints {
    /// The held directions of `s`, `None` when no `coulomb` contact is
    /// loaded at rest.
    pub(super) fn of(s: &Structure) -> Option<Self> {
        let n = s.dofs();
        let loads = s.rest_loads();
        let mut rows: Vec<(usize, Option<usize>, Option<usize>)> = Vec::new();
        for (c, (ct, load)) in s.contacts.iter().zip(&loads).enumerate() {
            if !is_dlft(&ct.model) || *load <= 0.0 {
                continue;
            }
            rows.push((c, ct.first, ct.second));
            if let Some(p) = &ct.plane {
                rows.push((c, p.first_y, p.second_y));
            }
        }
        if rows.is_empty() {
            return None;
        }
        let mut b = DMatrix::zeros(rows.len(), n);
        for (r, &(_, first, second)) in rows.iter().enumerate() {
            if let Some(i) = first {
                b[(r, i)] += 1.0;
            }
            if let Some(j) = second {
                b[(r, j)] -= 1.0;
            }
        }
        // the null space of B: eigenvectors of BᵀB at eigenvalue 0 (its
        // entries are 0 and ±1, so the others are of order 1)
        let e: SymmetricEigen<f64, nalgebra::Dyn> = SymmetricEigen::new(b.transpose() * &b);
        let top = e.eigenvalues.iter().fold(0.0f64, |a, v: &f64| a.max(v.abs()));
        let free: Vec<usize> = (0..n).filter(|&i| e.eigenvalues[i].abs() <= 1e-9 * top).collect();
        let t = DMatrix::from_fn(n, free.len(), |i, j| e.eigenvectors[(i, free[j])]);
        Some(StuckConstraints { b, contact: rows.iter().map(|r| r.0).collect(), t })
    }

    /// The number of free directions (the structure's DOFs less the held ones).
    pub(super) fn free(&self) -> usize {
        self.t.ncols()
    }

    /// The constrained linear modes of `(ks, m)`: angular frequencies
    /// ascending and mass-normalised shapes `T q` as columns.
    pub(super) fn modes(&self, ks: &DMatrix<f64>, m: &DMatrix<f64>) -> (Vec<f64>, DMatrix<f64>) {
        let tt = self.t.transpose();
        let (w, q) = linear_modes(&(&tt * ks * &self.t), &(&tt * m * &self.t));
        (w, &self.t * q)
    }

    /// The force each held contact carries in the stuck mode `shape` at
    /// angular frequency `w0` (per unit of `shape`): `|λ|` of its rows
    /// (`None` for a contact that is not held).
    pub(super) fn forces(
        &self,
        ks: &DMatrix<f64>,
        m: &DMatrix<f64>,
        w0: f64,
        shape: &[f64],
    ) -> Vec<Option<f64>> {
        let phi = DVector::from_column_slice(shape);
        let r = (ks - m * (w0 * w0)) * phi;
        let bbt = &self.b * self.b.transpose();
        let rhs = &self.b * r;
        let lam = bbt.lu().solve(&rhs).unwrap_or_else(|| DVector::zeros(self.b.nrows()));
        let n = self.contact.iter().max().map_or(0, |c| c + 1);
        let mut out = vec![None; n];
        for (row, &c) in self.contact.iter().enumerate() {
            let f: &mut f64 = out[c].get_or_insert(0.0);
            *f = f.hypot(lam[row]);
        }
        out
    }
}

/// The linear modes of `(K, M)` (M symmetric positive definite): angular
/// frequencies ascending and the mass-normalised shapes as columns. A
/// diagonal M (bodies only) scales K by `M^-1/2` on both sides; a full one
/// (a structure's consistent mass) goes through its Cholesky factor
/// ([`friction_sim::structure::modal::modes`]).
pub fn linear_modes(k: &DMatrix<f64>, m: &DMatrix<f64>) -> (Vec<f64>, DMatrix<f64>) {
    let n = k.nrows();
    let diagonal = (0..n).all(|i| (0..n).all(|j| i == j || m[(i, j)] == 0.0));
    if !diagonal {
        if let Some((lam, phi)) = friction_sim::structure::modal::modes(k, m) {
            return (lam.iter().map(|l| l.max(0.0).sqrt()).collect(), phi);
        }
    }
    let s: Vec<f64> = (0..n).map(|i| 1.0 / m[(i, i)].sqrt()).collect();
    let a = DMatrix::from_fn(n, n, |i, j| s[i] * k[(i, j)] * s[j]);
    let e = SymmetricEigen::new(a);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| e.eigenvalues[i].total_cmp(&e.eigenvalues[j]));
    let w = order.iter().map(|&i| e.eigenvalues[i].max(0.0).sqrt()).collect();
    let phi = DMatrix::from_fn(n, n, |i, j| s[i] * e.eigenvectors[(i, order[j])]);
    (w, phi)
}

/// The stuck linear mode `mode` (1-based) of `s`: its angular frequency
/// and mass-normalised shape. With `coulomb` contacts loaded at rest, the
/// constrained mode ([`StuckConstraints`]; refused when `mode` exceeds the
/// free directions). Otherwise, `fast`: by the flexibility's eigenproblem in
/// faer ([`super::condensed::flexibility_modes`], about ten times faster at
/// 1,000 DOFs), falling back to [`linear_modes`] where the stuck stiffness
/// is not positive definite.
pub(super) fn stuck_mode(
    s: &Structure,
    ks: &DMatrix<f64>,
    mode: usize,
    fast: bool,
) -> Result<(f64, Vec<f64>), AnalysisError> {
    let n = s.dofs();
    if let Some(c) = StuckConstraints::of(s) {
        if c.free() == 0 {
            return Err(AnalysisError::Model(format!(
                "the `coulomb` contacts stuck at rest hold all {n} degrees of freedom: there is no stuck linear \
                 mode to start a backbone from"
            )));
        }
        if mode > c.free() {
            return Err(AnalysisError::Model(format!(
                "--mode = {mode} is out of range; valid range [1, {}]: the `coulomb` contacts stuck at rest hold \
                 {} of the {n} degrees of freedom",
                c.free(),
                n - c.free()
            )));
        }
        let (wl, phi) = c.modes(ks, &s.m);
        return Ok((wl[mode - 1], phi.column(mode - 1).iter().copied().collect()));
    }
    if fast {
        if let Ok((psi, mu)) = super::condensed::flexibility_modes(&s.m, ks) {
            // μ ascending: the lowest frequency last; ψ/sqrt(μ) is mass-normalised
            let j = n - mode;
            let scale = 1.0 / mu[j].sqrt();
            return Ok((scale, (0..n).map(|i| psi[(i, j)] * scale).collect()));
        }
    }
    let (wl, phi) = linear_modes(ks, &s.m);
    Ok((wl[mode - 1], phi.column(mode - 1).iter().copied().collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_sim::{Ground, SolverSettings, System};

    /// A body held by a `coulomb` contact behind a spring `kt`: stuck, the
    /// other body oscillates on `k0 + kt` alone, and the contact carries
    /// `kt` times that body's motion.
    #[test]
    fn a_held_slider_is_a_constraint_and_carries_the_spring_s_force() {
        let sys = System::builder("held")
            .body("m", 2.0)
            .body("s", 1e-3)
            .spring("k0", ("m", Ground), 3e4)
            .spring("kt", ("m", "s"), 1e4)
            .contact("dry", ("s", Ground), friction_sim::CoulombParams { fc: 0.5, fs: None })
            .solver(SolverSettings::with_t_end(1.0))
            .build()
            .unwrap();
        let s = Structure::unforced(&sys).unwrap();
        let c = StuckConstraints::of(&s).unwrap();
        assert_eq!(c.free(), 1);
        let ks = s.stuck_stiffness();
        let (w, phi) = c.modes(&ks, &s.m);
        assert!((w[0] / (4e4f64 / 2.0).sqrt() - 1.0).abs() < 1e-12, "{}", w[0]);
        let shape: Vec<f64> = phi.column(0).iter().map(|v| v / phi[(0, 0)]).collect();
        assert!(shape[1].abs() < 1e-12);
        let f = c.forces(&ks, &s.m, w[0], &shape);
        assert!((f[0].unwrap() / 1e4 - 1.0).abs() < 1e-10, "{:?}", f);
    }
}
