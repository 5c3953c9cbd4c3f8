//! The linear part condensed onto the degrees of freedom the nonlinear
//! forces touch: harmonic balance in (2H + 1) r unknowns instead of
//! (2H + 1) n, exactly.
//!
//! The linear part of the balance is block-diagonal by harmonic. With every
//! nonlinear force (contacts, gaps) and the excitation acting on the
//! retained DOFs `r` (the contacts' and gaps' members, the forced DOF and
//! the DOFs whose results are written), harmonic `k` of every DOF is
//!
//! ```text
//! x_k = H(kω) (f_ext,k - f_nl,k),       H(Ω) = (K - Ω² M + iΩ C)⁻¹
//! x_r,k = H_rr(kω) (f_ext,r,k - f_nl,r,k)   (the forces have no other rows)
//! D_k(ω) x_r,k + f_nl,r,k - f_ext,r,k = 0,  D_k = H_rr(kω)⁻¹ (the exact dynamic Schur complement)
//! ```
//!
//! the receptance method of harmonic balance for jointed structures
//! (Petrov and Ewins 2003, J. Turbomach. 125, "Analytical formulation of
//! friction interface elements for analysis of nonlinear multi-harmonic
//! vibrations of bladed disks"; Krack and Gross 2019, "Harmonic Balance for
//! Nonlinear Vibration Problems", §3). `H_rr` is the modal sum over *all*
//! modes of `(K, M)`, here stiffness-normalised (`Ψᵀ K Ψ = I`,
//! `Ψᵀ M Ψ = diag(μ_j)`, `μ_j = 1/ω_j²`; `ψ_j = φ_j/ω_j` of the mass-normalised
//! `φ_j`), exact where the damping is diagonal in them (`Ψᵀ C Ψ = diag(d_j)`:
//! Rayleigh, modal, none):
//!
//! ```text
//! H_rr(Ω) = Σ_j ψ_r,j ψ_r,jᵀ / (1 - μ_j Ω² + iΩ d_j)      (= Σ_j φφᵀ/(ω_j² - Ω² + iΩ c_j))
//! dH_rr/dΩ = Σ_j ψ_r,j ψ_r,jᵀ (2μ_j Ω - i d_j) / (1 - μ_j Ω² + iΩ d_j)²,   dD/dΩ = -D (dH/dΩ) D
//! ```
//!
//! The mean (k = 0) takes `D_0 = (Ψ_r Ψ_rᵀ)⁻¹ = ((K⁻¹)_rr)⁻¹` (the static
//! condensation) and the constant loads `f0` of every DOF become
//! `D_0 (K⁻¹ f0)_r` on the retained ones. The modes come once per structure
//! from a dense Cholesky of `K` and the symmetric eigenproblem of the
//! flexibility `L⁻¹ M L⁻ᵀ` (faer; why the flexibility's, in `modes`); each
//! new ω costs, per harmonic, two products `Ψ_r diag(g) Ψ_rᵀ` (r × n × r;
//! four with the derivative) and an LU of `[[Re H, -Im H], [Im H, Re H]]` (2r).
//!
//! Not condensed (the full path is kept, with its limit): a damping matrix
//! that the modes do not diagonalise (off-diagonal above 1e-6 of its largest
//! modal entry: a local damper; rounding left 1.3e-7 on the CalculiX beam of `examples/fe_beam` and 1.1e-9 on a 1,000-DOF beam), a stiffness with a rigid-body mode (the
//! mean has no static receptance), a mass that is not positive definite,
//! and a structure whose retained DOFs are more than half of its DOFs.

use std::sync::Arc;

use dyn_stack::{MemBuffer, MemStack};
use faer::diag::Diag;
use faer::linalg::cholesky::llt::factor::{cholesky_in_place, cholesky_in_place_scratch, LltRegularization};
use faer::linalg::evd::{self, ComputeEigenvectors};
use faer::linalg::matmul::matmul;
use faer::linalg::triangular_solve::{solve_lower_triangular_in_place, solve_upper_triangular_in_place};
use faer::{Accum, Mat, MatMut, MatRef};
use nalgebra::{DMatrix, DVector};

use super::dense_lu::DenseLu;
use super::linalg::PAR;
pub use super::modal::Modal;
use super::structure::Structure;

/// Structures of more DOFs than this are condensed onto their retained DOFs
/// by [`condense`] when they can be (and when the caller does not say
/// otherwise: `FrfOptions::condense`); smaller ones keep the full path, so
/// their results stay the same bit for bit. Measured (bench/structure, a bar
/// with a joint every 10 DOFs, H = 3): condensed / full 0.05 / 0.08 s at 20
/// DOFs, 0.10 / 1.5 s at 100, 0.12 / 9.6 s at 200: the condensed path wins
/// from the smallest size; the threshold only keeps the existing examples'
/// outputs.
pub const CONDENSE_ABOVE: usize = 100;

fn mat(a: &DMatrix<f64>) -> MatRef<'_, f64> {
    MatRef::from_column_major_slice(a.as_slice(), a.nrows(), a.ncols())
}

fn mat_mut(a: &mut DMatrix<f64>) -> MatMut<'_, f64> {
    let (r, c) = a.shape();
    MatMut::from_column_major_slice_mut(a.as_mut_slice(), r, c)
}

/// Work memory of a Cholesky of size `n`.
fn mem_k(n: usize) -> MemBuffer {
    MemBuffer::new(cholesky_in_place_scratch::<f64>(n, PAR, Default::default()))
}

/// `(Ψ, μ, d)` of [`modes`].
type Modes = (Mat<f64>, Vec<f64>, Vec<f64>);

/// `(Ψ, μ)`: the stiffness-normalised modes of `(k, m)` as columns and their
/// `μ_j = 1/ω_j²`, ascending (so the lowest frequency last), by the
/// flexibility's eigenproblem (see [`modes`]), or why not: a DOF without
/// stiffness, `k` not positive definite, `m` not positive definite.
pub(super) fn flexibility_modes(m: &DMatrix<f64>, k: &DMatrix<f64>) -> Result<(Mat<f64>, Vec<f64>), String> {
    let n = m.nrows();
    if (0..n).any(|i| k[(i, i)].partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)) {
        return Err("its stiffness has a DOF without stiffness of its own (a rigid-body mode)".into());
    }
    let sc: Vec<f64> = (0..n).map(|i| 1.0 / k[(i, i)].sqrt()).collect();
    let mut l = Mat::<f64>::from_fn(n, n, |i, j| sc[i] * k[(i, j)] * sc[j]);
    cholesky_in_place(
        l.as_mut(),
        LltRegularization::default(),
        PAR,
        MemStack::new(&mut mem_k(n)),
        Default::default(),
    )
    .map_err(|_| {
        "its stiffness is not positive definite (a rigid-body mode): the mean has no static receptance"
            .to_string()
    })?;
    // B = L⁻¹ M̃ L⁻ᵀ: first L⁻¹ M̃, then L⁻¹ of its transpose (M̃ symmetric)
    let mut b = Mat::<f64>::from_fn(n, n, |i, j| sc[i] * m[(i, j)] * sc[j]);
    solve_lower_triangular_in_place(l.as_ref(), b.as_mut(), PAR);
    let mut a = b.transpose().to_owned();
    solve_lower_triangular_in_place(l.as_ref(), a.as_mut(), PAR);
    let a = Mat::<f64>::from_fn(n, n, |i, j| 0.5 * (a[(i, j)] + a[(j, i)]));
    let mut s = Diag::<f64>::zeros(n);
    let mut q = Mat::<f64>::zeros(n, n);
    let mut mem = MemBuffer::new(evd::self_adjoint_evd_scratch::<f64>(
        n,
        ComputeEigenvectors::Yes,
        PAR,
        Default::default(),
    ));
    evd::self_adjoint_evd(
        a.as_ref(),
        s.as_mut(),
        Some(q.as_mut()),
        PAR,
        MemStack::new(&mut mem),
        Default::default(),
    )
    .map_err(|e| format!("the eigenproblem of its mass and stiffness failed ({e:?})"))?;
    // Ψ = S L⁻ᵀ Q
    solve_upper_triangular_in_place(l.as_ref().transpose(), q.as_mut(), PAR);
    for j in 0..n {
        for i in 0..n {
            q[(i, j)] *= sc[i];
        }
    }
    let mu: Vec<f64> = (0..n).map(|i| s[i]).collect();
    if let Some(least) = mu.iter().copied().reduce(f64::min) {
        if least <= 0.0 {
            return Err(format!("its mass matrix is not positive definite (modal mass {least:.3e})"));
        }
    }
    Ok((q, mu))
}

/// `(Ψ, μ, d)`: the stiffness-normalised modes of `(k, m)` (`Ψᵀ K Ψ = I`,
/// `Ψᵀ M Ψ = diag(μ)`, `μ_j = 1/λ_j`) and the modal damping `d = diag(Ψᵀ C Ψ)`,
/// or why the structure cannot be condensed.
///
/// The eigenproblem is the flexibility's, `L⁻¹ M L⁻ᵀ` with `K = L Lᵀ`
/// (after scaling both by `diag(K)^-1/2`): its error is about ε μ_max, so
/// the low modes, which carry the dynamics, come to full precision and the
/// high ones' error sits in their quasi-static share `ψψᵀ μ`, already
/// negligible. The stiffness's eigenproblem (`L_M⁻¹ K L_M⁻ᵀ`) of a
/// 1,000-DOF beam with rotations gave its first eigenvalue a *negative*
/// sign: its error is ε λ_max, and λ_max/λ_1 was 1e13 there.
fn modes(m: &DMatrix<f64>, k: &DMatrix<f64>, c: &DMatrix<f64>) -> Result<Modes, String> {
    let n = m.nrows();
    let (q, mu) = flexibility_modes(m, k)?;
    // Ψᵀ C Ψ, diagonal or not condensed
    let cm = Mat::<f64>::from_fn(n, n, |i, j| c[(i, j)]);
    let mut cq = Mat::<f64>::zeros(n, n);
    matmul(cq.as_mut(), Accum::Replace, cm.as_ref(), q.as_ref(), 1.0, PAR);
    let mut modal = Mat::<f64>::zeros(n, n);
    matmul(modal.as_mut(), Accum::Replace, q.as_ref().transpose(), cq.as_ref(), 1.0, PAR);
    let mut cmax = 0.0f64;
    for j in 0..n {
        for i in 0..n {
            cmax = cmax.max(modal[(i, j)].abs());
        }
    }
    for j in 0..n {
        for i in 0..n {
            if i != j && modal[(i, j)].abs() > 1e-6 * cmax {
                return Err(format!(
                    "its damping is not diagonal in its modes (modes {i} and {j} coupled by {:.3e} of {cmax:.3e}: \
                     a local damper); the modal receptance would not be exact",
                    modal[(i, j)]
                ));
            }
        }
    }
    let damp = (0..n).map(|j| modal[(j, j)]).collect();
    Ok((q, mu, damp))
}

/// `s` condensed onto its retained DOFs (its contacts' and gaps' members,
/// the forced DOF and [`Structure::shown`]), or why it cannot be (see the
/// module documentation). The condensed structure's `m` and `c` are the
/// retained rows and columns of the full ones (for scales only), `k` is
/// the static condensation `D_0`, `f0` the constant loads' equivalent, and
/// [`Structure::condensed`] carries the modal data its
/// [`super::problem::Problem`] balances with.
pub fn condense(s: &Structure) -> Result<Structure, String> {
    if s.condensed.is_some() {
        return Ok(s.clone());
    }
    let n = s.dofs();
    let mut keep: Vec<usize> = s.shown.clone();
    keep.push(s.force_dof);
    keep.extend(s.contacts.iter().flat_map(|c| [c.first, c.second]).flatten());
    let lateral = s.contacts.iter().filter_map(|c| c.plane.as_ref());
    keep.extend(lateral.flat_map(|p| [p.first_y, p.second_y]).flatten());
    keep.extend(s.gaps.iter().flat_map(|g| [g.first, g.second]).flatten());
    keep.sort_unstable();
    keep.dedup();
    if keep.iter().any(|&i| i >= n) {
        return Err("a retained DOF is past the structure's size".into());
    }
    if 2 * keep.len() > n {
        return Err(format!("{} of its {n} DOFs are retained: no gain", keep.len()));
    }
    let (phi, lam, damp) = modes(&s.m, &s.k, &s.c)?;
    let r = keep.len();
    let phi_r = DMatrix::from_fn(r, n, |i, j| phi[(keep[i], j)]);
    // static receptance and the loads' static response
    let flex = &phi_r * phi_r.transpose();
    let d0 =
        flex.try_inverse().ok_or_else(|| "its retained DOFs' static receptance is singular".to_string())?;
    let d0 = (&d0 + d0.transpose()) * 0.5;
    let modal_f0: Vec<f64> = (0..n).map(|m| (0..n).map(|i| phi[(i, m)] * s.f0[i]).sum::<f64>()).collect();
    let x0 = DVector::from_fn(r, |i, _| (0..n).map(|m| phi_r[(i, m)] * modal_f0[m]).sum::<f64>());
    let ks = s.stuck_stiffness();
    let kmax = (0..n).map(|i| ks[(i, i)]).fold(0.0f64, f64::max);
    let mmax = (0..n).map(|i| s.m[(i, i)]).fold(0.0f64, f64::max);
    let pos = |i: usize| keep.binary_search(&i).ok();
    let mut c = s.clone();
    c.names = keep.iter().map(|&i| s.names[i].clone()).collect();
    c.shown = s.shown.iter().filter_map(|&i| pos(i)).collect();
    c.m = DMatrix::from_fn(r, r, |i, j| s.m[(keep[i], keep[j])]);
    c.c = DMatrix::from_fn(r, r, |i, j| s.c[(keep[i], keep[j])]);
    c.f0 = &d0 * x0;
    c.k = d0.clone();
    c.force_dof = pos(s.force_dof).unwrap_or(0);
    for ct in &mut c.contacts {
        ct.first = ct.first.and_then(pos);
        ct.second = ct.second.and_then(pos);
        if let Some(p) = &mut ct.plane {
            p.first_y = p.first_y.and_then(pos);
            p.second_y = p.second_y.and_then(pos);
        }
    }
    for g in &mut c.gaps {
        g.first = g.first.and_then(pos);
        g.second = g.second.and_then(pos);
    }
    c.condensed = Some(Arc::new(Modal { full: n, keep, phi: phi_r, lam, damp, d0, scales: (kmax, mmax) }));
    Ok(c)
}

/// The condensed linear part at H harmonics and one ω: `D_k(ω)` and
/// `dD_k/dΩ` at `Ω = kω`, in real and imaginary parts, with the work arrays
/// of their update (allocated once, here).
#[derive(Debug, Clone)]
pub struct Receptance {
    modal: Arc<Modal>,
    h: usize,
    /// ω of the last update of `dr`, `di` and of `ddr`, `ddi` (NaN: none).
    at: f64,
    deriv_at: f64,
    dr: Vec<DMatrix<f64>>,
    di: Vec<DMatrix<f64>>,
    ddr: Vec<DMatrix<f64>>,
    ddi: Vec<DMatrix<f64>>,
    w: DMatrix<f64>,
    hr: DMatrix<f64>,
    hi: DMatrix<f64>,
    tr: DMatrix<f64>,
    ti: DMatrix<f64>,
    big: DMatrix<f64>,
    rhs: DMatrix<f64>,
    lu: DenseLu,
}

impl Receptance {
    /// The work arrays of `modal` at `h` harmonics.
    pub fn new(modal: Arc<Modal>, h: usize) -> Self {
        let (r, n) = modal.phi.shape();
        let z = || DMatrix::zeros(r, r);
        Receptance {
            h,
            at: f64::NAN,
            deriv_at: f64::NAN,
            dr: vec![z(); h],
            di: vec![z(); h],
            ddr: vec![z(); h],
            ddi: vec![z(); h],
            w: DMatrix::zeros(r, n),
            hr: z(),
            hi: z(),
            tr: z(),
            ti: z(),
            big: DMatrix::zeros(2 * r, 2 * r),
            rhs: DMatrix::zeros(2 * r, r),
            lu: DenseLu::with_columns(2 * r, r),
            modal,
        }
    }

    /// `Φ_r diag(g(λ_j, c_j)) Φ_rᵀ` into `out`.
    fn modal_sum(w: &mut DMatrix<f64>, m: &Modal, out: &mut DMatrix<f64>, g: impl Fn(f64, f64) -> f64) {
        let n = m.lam.len();
        for j in 0..n {
            let gj = g(m.lam[j], m.damp[j]);
            for (o, p) in w.column_mut(j).iter_mut().zip(m.phi.column(j).iter()) {
                *o = gj * p;
            }
        }
        matmul(mat_mut(out), Accum::Replace, mat(w), mat(&m.phi).transpose(), 1.0, PAR);
    }

    /// `D_k` at `ω` for every harmonic (and `dD_k/dΩ` when `deriv`), unless
    /// already there.
    fn update(&mut self, omega: f64, deriv: bool) {
        let fresh = self.at == omega;
        if fresh && (!deriv || self.deriv_at == omega) {
            return;
        }
        let m = Arc::clone(&self.modal);
        let r = m.keep.len();
        for k in 1..=self.h {
            let om = k as f64 * omega;
            // 1/(1 - μΩ² + iΩd) = (1 - μΩ² - iΩd)/q
            let den = move |l: f64, c: f64| {
                let (a, b) = (1.0 - l * om * om, om * c);
                (a, b, a * a + b * b)
            };
            if !fresh {
                Self::modal_sum(&mut self.w, &m, &mut self.hr, |l, c| {
                    let (a, _, q) = den(l, c);
                    a / q
                });
                Self::modal_sum(&mut self.w, &m, &mut self.hi, |l, c| {
                    let (_, b, q) = den(l, c);
                    -b / q
                });
                // [[Hr, -Hi], [Hi, Hr]] [Dr; Di] = [I; 0]
                for j in 0..r {
                    for i in 0..r {
                        let (a, b) = (self.hr[(i, j)], self.hi[(i, j)]);
                        self.big[(i, j)] = a;
                        self.big[(i + r, j + r)] = a;
                        self.big[(i, j + r)] = -b;
                        self.big[(i + r, j)] = b;
                    }
                }
                self.rhs.fill(0.0);
                for i in 0..r {
                    self.rhs[(i, i)] = 1.0;
                }
                let ok = self.lu.factor(&self.big) && self.lu.solve_columns(self.rhs.as_mut_slice(), r);
                for j in 0..r {
                    for i in 0..r {
                        let (a, b) =
                            if ok { (self.rhs[(i, j)], self.rhs[(i + r, j)]) } else { (f64::NAN, f64::NAN) };
                        self.dr[k - 1][(i, j)] = a;
                        self.di[k - 1][(i, j)] = b;
                    }
                }
            }
            if deriv {
                // g' = (2μΩ - id) g², g = (a - ib)/q
                let dg = move |l: f64, c: f64| {
                    let (a, b, q) = den(l, c);
                    let (gr, gi) = (a / q, -b / q);
                    let (sr, si) = (gr * gr - gi * gi, 2.0 * gr * gi);
                    (2.0 * l * om * sr + c * si, 2.0 * l * om * si - c * sr)
                };
                Self::modal_sum(&mut self.w, &m, &mut self.hr, |l, c| dg(l, c).0);
                Self::modal_sum(&mut self.w, &m, &mut self.hi, |l, c| dg(l, c).1);
                // T = D H', dD = -T D
                let (dr, di) = (&self.dr[k - 1], &self.di[k - 1]);
                let p =
                    |out: &mut DMatrix<f64>, a: &DMatrix<f64>, b: &DMatrix<f64>, alpha: f64, acc: Accum| {
                        matmul(mat_mut(out), acc, mat(a), mat(b), alpha, PAR)
                    };
                p(&mut self.tr, dr, &self.hr, 1.0, Accum::Replace);
                p(&mut self.tr, di, &self.hi, -1.0, Accum::Add);
                p(&mut self.ti, dr, &self.hi, 1.0, Accum::Replace);
                p(&mut self.ti, di, &self.hr, 1.0, Accum::Add);
                p(&mut self.ddr[k - 1], &self.tr, dr, -1.0, Accum::Replace);
                p(&mut self.ddr[k - 1], &self.ti, di, 1.0, Accum::Add);
                p(&mut self.ddi[k - 1], &self.tr, di, -1.0, Accum::Replace);
                p(&mut self.ddi[k - 1], &self.ti, dr, -1.0, Accum::Add);
            }
        }
        self.at = omega;
        if deriv {
            self.deriv_at = omega;
        }
    }

    /// Add the linear part `D_k x_k` of every harmonic to `r` (coefficients
    /// `l = 2H + 1` per retained DOF, as the full balance lays them out).
    pub fn add_residual(&mut self, x: &[f64], omega: f64, r: &mut [f64]) {
        self.update(omega, false);
        let (nr, l) = (self.modal.keep.len(), 2 * self.h + 1);
        for e in 0..nr {
            for d in 0..nr {
                r[d * l] += self.modal.d0[(d, e)] * x[e * l];
            }
            for k in 1..=self.h {
                let (a, b) = (x[e * l + 2 * k - 1], x[e * l + 2 * k]);
                let (dr, di) = (self.dr[k - 1].column(e), self.di[k - 1].column(e));
                for d in 0..nr {
                    r[d * l + 2 * k - 1] += dr[d] * a + di[d] * b;
                    r[d * l + 2 * k] += dr[d] * b - di[d] * a;
                }
            }
        }
    }

    /// Add the linear part's Jacobian to `jac` (n × (n + 1), the last column
    /// `∂/∂ω`: `k dD/dΩ (kω) x_k`).
    pub fn add_jacobian(&mut self, x: &[f64], omega: f64, jac: &mut DMatrix<f64>) {
        self.update(omega, true);
        let (nr, l) = (self.modal.keep.len(), 2 * self.h + 1);
        let n = nr * l;
        for e in 0..nr {
            for d in 0..nr {
                jac[(d * l, e * l)] += self.modal.d0[(d, e)];
                for k in 1..=self.h {
                    let (ra, rb, ca, cb) =
                        (d * l + 2 * k - 1, d * l + 2 * k, e * l + 2 * k - 1, e * l + 2 * k);
                    let (dr, di) = (self.dr[k - 1][(d, e)], self.di[k - 1][(d, e)]);
                    jac[(ra, ca)] += dr;
                    jac[(ra, cb)] += di;
                    jac[(rb, cb)] += dr;
                    jac[(rb, ca)] -= di;
                    let (ddr, ddi, kf) = (self.ddr[k - 1][(d, e)], self.ddi[k - 1][(d, e)], k as f64);
                    let (a, b) = (x[ca], x[cb]);
                    jac[(ra, n)] += kf * (ddr * a + ddi * b);
                    jac[(rb, n)] += kf * (ddr * b - ddi * a);
                }
            }
        }
    }
}
