//! Nonlinear modes of a condensed structure: the extended periodic motion
//! concept's fictitious damping `-ξ M ẋ` (Krack 2015, "Nonlinear modal
//! analysis of nonconservative systems: extension of the periodic motion
//! concept", Computers & Structures 154) in the modal receptance of
//! [`super::condensed`].
//!
//! `-ξ M` is diagonal in the modes of `(K, M)` as `M` is: with the
//! stiffness-normalised modes (`Ψᵀ K Ψ = I`, `Ψᵀ M Ψ = diag(μ_j)`,
//! `Ψᵀ C Ψ = diag(d_j)`) harmonic `k` of the periodic motion is, exactly,
//!
//! ```text
//! z_j(Ω, ξ) = 1 - μ_j Ω² + iΩ (d_j - ξ μ_j),        Ω = kω
//! H_rr(Ω, ξ) = Σ_j ψ_r,j ψ_r,jᵀ / z_j,               D_k(ω, ξ) = H_rr(kω, ξ)⁻¹
//! ∂z_j/∂ω = k (-2 μ_j Ω + i (d_j - ξ μ_j)),          ∂z_j/∂ξ = -iΩ μ_j
//! ```
//!
//! with `D_0` the static condensation (the fictitious damping has no
//! mean). Unlike a frequency response's, the periodic motion of a mode sits
//! *on* a pole of `H_rr`: for a linear structure `z_j = 0` exactly at the
//! solution (and the first Newton iterate), and near it with joints that
//! slip little or grossly. `H_rr` is then not invertible in floating point,
//! so the near-resonant modes `S = {j : |z_j| < 0.1}` are taken out of the
//! sum and put back by the Woodbury identity, which has no pole:
//!
//! ```text
//! A = Σ_{j∉S} ψψᵀ / z_j,   P = A⁻¹,   V = Ψ_r,S,   U = P V,   W = diag(z_S) + Vᵀ U
//! D = P - U W⁻¹ Uᵀ
//! dD = dP - dU W⁻¹ Uᵀ - U W⁻¹ dUᵀ + U W⁻¹ dW W⁻¹ Uᵀ,
//!      dP = -P dA P,   dU = dP V,   dW = diag(dz_S) + Vᵀ dU,   dA = Σ_{j∉S} ψψᵀ (-dz_j / z_j²)
//! ```
//!
//! (`A` and `P` are complex symmetric, so `Vᵀ P = Uᵀ`). Every matrix is
//! r × r or r × |S|, from two real products `Ψ_r diag(·) Ψ_rᵀ` per modal sum.
//!
//! The energy per cycle, `ξ ∮ ẋᵀ M ẋ dt = ξ π ω Σ_k k² X_kᴴ M X_k` over *all*
//! DOFs (`X_k = a_k - i b_k`), comes from the modal amplitudes rather than
//! from the full harmonics: `X_k = Σ_j ψ_j q_j,k` and `Ψᵀ M Ψ = diag(μ)`, so
//! `X_kᴴ M X_k = Σ_j μ_j |q_j,k|²`, with `q_j = ψ_r,jᵀ F_k / z_j` for `j ∉ S`
//! (`F_k = D_k X_r,k`, the forces on the retained DOFs) and
//! `q_S = W⁻¹ Uᵀ X_r,k` (no division by a vanishing `z`).

use std::sync::Arc;

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef};
use nalgebra::{Complex, DMatrix};

use super::condensed::{Modal, Receptance};

type C64 = Complex<f64>;
type CMat = DMatrix<C64>;

/// Modes with `|z_j|` below this (dimensionless: 1 for a mode far above
/// the frequency) are taken out of the modal sum and put back by the
/// Woodbury identity (see the module documentation).
const SPLIT: f64 = 0.1;

/// The condensed linear part of a problem: the frequency response's
/// ([`Receptance`]) or a nonlinear mode's, with the fictitious damping
/// ([`FreeReceptance`]).
#[derive(Debug, Clone)]
pub(super) enum Linear {
    /// Forced response: `D_k(ω)`.
    Forced(Box<Receptance>),
    /// Extended periodic motion: `D_k(ω, ξ)`.
    Free(Box<FreeReceptance>),
}

impl Linear {
    /// Add `D_k x_k` of every harmonic to `r`.
    pub(super) fn add_residual(&mut self, x: &[f64], omega: f64, xi: f64, r: &mut [f64]) {
        match self {
            Linear::Forced(f) => f.add_residual(x, omega, r),
            Linear::Free(f) => f.add_residual(x, omega, xi, r),
        }
    }

    /// Add the linear part's Jacobian (and `∂/∂ω` in the last column).
    pub(super) fn add_jacobian(&mut self, x: &[f64], omega: f64, xi: f64, jac: &mut DMatrix<f64>) {
        match self {
            Linear::Forced(f) => f.add_jacobian(x, omega, jac),
            Linear::Free(f) => f.add_jacobian(x, omega, xi, jac),
        }
    }
}

/// `D_k`, its derivatives and the Woodbury split of one harmonic.
#[derive(Debug, Clone)]
struct Harmonic {
    d: CMat,
    d_omega: CMat,
    d_xi: CMat,
    /// The modes taken out of the sum (`S`).
    split: Vec<usize>,
    /// `P = A⁻¹`, r × r.
    p: CMat,
    /// `U = P V`, r × |S|.
    u: CMat,
    /// `W⁻¹`, |S| × |S|.
    wi: CMat,
}

/// The condensed linear part of the extended periodic motion at H
/// harmonics: `D_k(ω, ξ)` and its derivatives by ω and ξ (see the module
/// documentation), kept for the last (ω, ξ).
#[derive(Debug, Clone)]
pub struct FreeReceptance {
    modal: Arc<Modal>,
    /// (ω, ξ) of the last update of `D_k` and of its derivatives (NaN: none).
    at: (f64, f64),
    deriv_at: (f64, f64),
    harm: Vec<Harmonic>,
    /// Work arrays of the modal sums: r × n, and r × r twice.
    w: DMatrix<f64>,
    re: DMatrix<f64>,
    im: DMatrix<f64>,
}

fn mat(a: &DMatrix<f64>) -> MatRef<'_, f64> {
    MatRef::from_column_major_slice(a.as_slice(), a.nrows(), a.ncols())
}

fn mat_mut(a: &mut DMatrix<f64>) -> MatMut<'_, f64> {
    let (r, c) = a.shape();
    MatMut::from_column_major_slice_mut(a.as_mut_slice(), r, c)
}

fn nan(r: usize, c: usize) -> CMat {
    CMat::from_element(r, c, C64::new(f64::NAN, f64::NAN))
}

impl FreeReceptance {
    /// The work arrays of `modal` at `h` harmonics.
    pub fn new(modal: Arc<Modal>, h: usize) -> Self {
        let (r, n) = modal.phi.shape();
        let empty = Harmonic {
            d: CMat::zeros(r, r),
            d_omega: CMat::zeros(r, r),
            d_xi: CMat::zeros(r, r),
            split: Vec::new(),
            p: CMat::zeros(r, r),
            u: CMat::zeros(r, 0),
            wi: CMat::zeros(0, 0),
        };
        FreeReceptance {
            at: (f64::NAN, f64::NAN),
            deriv_at: (f64::NAN, f64::NAN),
            harm: vec![empty; h],
            w: DMatrix::zeros(r, n),
            re: DMatrix::zeros(r, r),
            im: DMatrix::zeros(r, r),
            modal,
        }
    }

    /// `Ψ_r diag(g) Ψ_rᵀ` (complex `g`, one per mode).
    fn modal_sum(&mut self, g: &[C64]) -> CMat {
        let m = &self.modal;
        for (part, out) in [(0, &mut self.re), (1, &mut self.im)] {
            for (j, gj) in g.iter().enumerate() {
                let v = if part == 0 { gj.re } else { gj.im };
                for (o, p) in self.w.column_mut(j).iter_mut().zip(m.phi.column(j).iter()) {
                    *o = v * p;
                }
            }
            matmul(
                mat_mut(out),
                Accum::Replace,
                mat(&self.w),
                mat(&m.phi).transpose(),
                1.0,
                super::linalg::PAR,
            );
        }
        CMat::from_fn(self.re.nrows(), self.re.ncols(), |i, j| C64::new(self.re[(i, j)], self.im[(i, j)]))
    }

    /// `z_j` of every mode at harmonic `k`.
    fn z(&self, k: usize, omega: f64, xi: f64) -> Vec<C64> {
        let om = k as f64 * omega;
        let m = &self.modal;
        m.lam.iter().zip(&m.damp).map(|(&mu, &d)| C64::new(1.0 - mu * om * om, om * (d - xi * mu))).collect()
    }

    /// `D_k` at `(ω, ξ)` for every harmonic (and its derivatives when
    /// `deriv`), unless already there.
    fn update(&mut self, omega: f64, xi: f64, deriv: bool) {
        let fresh = self.at == (omega, xi);
        if fresh && (!deriv || self.deriv_at == (omega, xi)) {
            return;
        }
        let r = self.modal.keep.len();
        for k in 1..=self.harm.len() {
            let z = self.z(k, omega, xi);
            if !fresh {
                let split: Vec<usize> = (0..z.len()).filter(|&j| z[j].norm() < SPLIT).collect();
                let g: Vec<C64> = z
                    .iter()
                    .enumerate()
                    .map(|(j, z)| if split.contains(&j) { C64::new(0.0, 0.0) } else { z.inv() })
                    .collect();
                let a = self.modal_sum(&g);
                let p = a.try_inverse().unwrap_or_else(|| nan(r, r));
                let v = CMat::from_fn(r, split.len(), |i, q| C64::new(self.modal.phi[(i, split[q])], 0.0));
                let u = &p * &v;
                let mut w = v.transpose() * &u;
                for (q, &j) in split.iter().enumerate() {
                    w[(q, q)] += z[j];
                }
                let s = split.len();
                let wi = w.try_inverse().unwrap_or_else(|| nan(s, s));
                let d = &p - &u * &wi * u.transpose();
                let hm = &mut self.harm[k - 1];
                (hm.d, hm.split, hm.p, hm.u, hm.wi) = (d, split, p, u, wi);
            }
            if deriv {
                let om = k as f64 * omega;
                let kf = k as f64;
                let (lam, damp) = (self.modal.lam.clone(), self.modal.damp.clone());
                let dz_omega: Vec<C64> = lam
                    .iter()
                    .zip(&damp)
                    .map(|(&mu, &d)| C64::new(-2.0 * kf * mu * om, kf * (d - xi * mu)))
                    .collect();
                let dz_xi: Vec<C64> = lam.iter().map(|&mu| C64::new(0.0, -om * mu)).collect();
                let dd_omega = self.derivative(k, &z, &dz_omega);
                let dd_xi = self.derivative(k, &z, &dz_xi);
                self.harm[k - 1].d_omega = dd_omega;
                self.harm[k - 1].d_xi = dd_xi;
            }
        }
        self.at = (omega, xi);
        if deriv {
            self.deriv_at = (omega, xi);
        }
    }

    /// `dD_k` for the change `dz` of every `z_j` (module documentation).
    fn derivative(&mut self, k: usize, z: &[C64], dz: &[C64]) -> CMat {
        let split = self.harm[k - 1].split.clone();
        let g: Vec<C64> = z
            .iter()
            .zip(dz)
            .enumerate()
            .map(|(j, (z, dz))| if split.contains(&j) { C64::new(0.0, 0.0) } else { -dz / (z * z) })
            .collect();
        let da = self.modal_sum(&g);
        let hm = &self.harm[k - 1];
        let r = hm.p.nrows();
        let v = CMat::from_fn(r, split.len(), |i, q| C64::new(self.modal.phi[(i, split[q])], 0.0));
        let dp = -(&hm.p * &da * &hm.p);
        let du = &dp * &v;
        let mut dw = v.transpose() * &du;
        for (q, &j) in split.iter().enumerate() {
            dw[(q, q)] += dz[j];
        }
        let uw = &hm.u * &hm.wi;
        &dp - &du * uw.transpose() - &uw * du.transpose() + &uw * dw * uw.transpose()
    }

    /// Add `Re`/`-Im` of `m X_k` (`X_k = a_k - i b_k` of every retained
    /// DOF, coefficients laid out as the balance's) to `out`'s rows of
    /// harmonic `k`.
    fn add_product(m: &CMat, x: &[f64], l: usize, k: usize, out: &mut [f64]) {
        let r = m.nrows();
        for e in 0..r {
            let (a, b) = (x[e * l + 2 * k - 1], x[e * l + 2 * k]);
            for d in 0..r {
                let v = m[(d, e)];
                out[d * l + 2 * k - 1] += v.re * a + v.im * b;
                out[d * l + 2 * k] += v.re * b - v.im * a;
            }
        }
    }

    /// Add the linear part `D_k x_k` of every harmonic to `r`.
    pub fn add_residual(&mut self, x: &[f64], omega: f64, xi: f64, r: &mut [f64]) {
        self.update(omega, xi, false);
        let (nr, h) = (self.modal.keep.len(), self.harm.len());
        let l = 2 * h + 1;
        for e in 0..nr {
            for d in 0..nr {
                r[d * l] += self.modal.d0[(d, e)] * x[e * l];
            }
        }
        for k in 1..=h {
            Self::add_product(&self.harm[k - 1].d, x, l, k, r);
        }
    }

    /// Add the linear part's Jacobian to `jac` (n × (n + 1), the last column
    /// `∂/∂ω`).
    pub fn add_jacobian(&mut self, x: &[f64], omega: f64, xi: f64, jac: &mut DMatrix<f64>) {
        self.update(omega, xi, true);
        let (nr, h) = (self.modal.keep.len(), self.harm.len());
        let l = 2 * h + 1;
        let n = nr * l;
        for e in 0..nr {
            for d in 0..nr {
                jac[(d * l, e * l)] += self.modal.d0[(d, e)];
                for k in 1..=h {
                    let (ra, rb, ca, cb) =
                        (d * l + 2 * k - 1, d * l + 2 * k, e * l + 2 * k - 1, e * l + 2 * k);
                    let v = self.harm[k - 1].d[(d, e)];
                    jac[(ra, ca)] += v.re;
                    jac[(ra, cb)] += v.im;
                    jac[(rb, cb)] += v.re;
                    jac[(rb, ca)] -= v.im;
                }
            }
        }
        let mut col = vec![0.0; n];
        for k in 1..=h {
            Self::add_product(&self.harm[k - 1].d_omega, x, l, k, &mut col);
        }
        for (i, v) in col.iter().enumerate() {
            jac[(i, n)] += v;
        }
    }

    /// Add `∂(D_k x_k)/∂ξ` of every harmonic to `col`.
    pub fn add_xi_column(&mut self, x: &[f64], omega: f64, xi: f64, col: &mut [f64]) {
        self.update(omega, xi, true);
        let l = 2 * self.harm.len() + 1;
        for k in 1..=self.harm.len() {
            Self::add_product(&self.harm[k - 1].d_xi, x, l, k, col);
        }
    }

    /// The energy per cycle `ξ π ω Σ_k k² X_kᴴ M X_k` of every DOF from the
    /// modal amplitudes (module documentation).
    pub fn energy(&mut self, x: &[f64], omega: f64, xi: f64) -> f64 {
        self.update(omega, xi, false);
        let (nr, h) = (self.modal.keep.len(), self.harm.len());
        let l = 2 * h + 1;
        let mut sum = 0.0;
        for k in 1..=h {
            let z = self.z(k, omega, xi);
            let hm = &self.harm[k - 1];
            let xk = nalgebra::DVector::from_fn(nr, |e, _| C64::new(x[e * l + 2 * k - 1], -x[e * l + 2 * k]));
            let f = &hm.d * &xk;
            let qs = &hm.wi * (hm.u.transpose() * &xk);
            let phi = &self.modal.phi;
            let mut s = 0.0;
            for (j, (&mu, zj)) in self.modal.lam.iter().zip(&z).enumerate() {
                let q = match hm.split.iter().position(|&i| i == j) {
                    Some(q) => qs[q],
                    None => (0..nr).map(|i| f[i] * phi[(i, j)]).sum::<C64>() / zj,
                };
                s += mu * q.norm_sqr();
            }
            sum += (k * k) as f64 * s;
        }
        xi * std::f64::consts::PI * omega * sum
    }
}
