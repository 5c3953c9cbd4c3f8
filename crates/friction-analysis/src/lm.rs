//! Bounded nonlinear least squares: Levenberg-Marquardt with a box, a
//! finite-difference Jacobian, and the linearised statistics of the optimum
//! (covariance, Student-t quantiles).
//!
//! # Method
//! ```text
//! minimise  S(θ) = Σ r_i(θ)²        subject to lo <= θ <= hi
//! step      (JᵀJ + λ D) δ = -Jᵀr,    D = diag(JᵀJ)  (Marquardt's scaling)
//! trial     θ' = clamp(θ + δ, lo, hi)   (projection onto the box)
//! accept    if S(θ') < S(θ): θ = θ', λ = λ / 3;   else λ = 4 λ and re-solve
//! stop      relative decrease of S below `ftol`, step below `xtol`, or gradient below `gtol`
//! J_ij      = (r_i(θ + h_j e_j) - r_i(θ)) / h_j    (forward differences, backward at the upper bound)
//! ```
//! A residual function that cannot be evaluated at a trial point (a model
//! that refuses the parameters, a failed simulation) returns `None`; the
//! trial counts as a failed step and λ grows. Jacobian columns are computed
//! in parallel (rayon).
//!
//! References: K. Levenberg, Q. Appl. Math. 2, 1944; D.W. Marquardt,
//! J. SIAM 11, 1963; J.J. Moré, "The Levenberg-Marquardt algorithm:
//! implementation and theory", LNM 630, 1978 (the scaling D).

use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;

/// Options of [`minimize`]. The defaults suit residuals computed by an ODE
/// solver at a relative tolerance of about 1e-7.
#[derive(Debug, Clone)]
pub struct LmOptions {
    /// Largest number of iterations (Jacobian evaluations). Default 100.
    pub max_iter: usize,
    /// Stop when an accepted step lowers S by less than `ftol` S. Default
    /// 1e-7: for a fit of n samples this leaves the parameters within about
    /// `sqrt(1e-7 n)` standard errors of the optimum (0.005 for n = 200).
    pub ftol: f64,
    /// Stop when every component of the accepted step is below
    /// `xtol (1 + |θ|)`. Default 1e-7.
    pub xtol: f64,
    /// Stop when the scaled gradient `max_j |J_jᵀ r| / (|J_j| |r|)` is below `gtol`. Default 1e-10.
    pub gtol: f64,
    /// Finite-difference step `h_j = fd_step · scale_j`. Default 1e-5.
    pub fd_step: f64,
    /// The scales of the steps, one per parameter; `None`: `1 + |θ_j|`.
    pub fd_scale: Option<Vec<f64>>,
    /// Initial damping λ. Default 1e-3.
    pub lambda0: f64,
}

impl Default for LmOptions {
    fn default() -> Self {
        LmOptions {
            max_iter: 100,
            ftol: 1e-9,
            xtol: 1e-9,
            gtol: 1e-10,
            fd_step: 1e-5,
            fd_scale: None,
            lambda0: 1e-3,
        }
    }
}

/// Why [`minimize`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LmStop {
    /// The relative decrease of the cost fell below `ftol`.
    CostConverged,
    /// The step fell below `xtol`.
    StepConverged,
    /// The gradient fell below `gtol` (or was exactly zero).
    GradientConverged,
    /// No step lowering the cost could be found (λ grew past 1e16): a
    /// (possibly constrained) minimum to the precision of the residuals.
    NoProgress,
    /// `max_iter` iterations without convergence.
    MaxIterations,
}

impl LmStop {
    /// Whether this counts as converged.
    pub fn converged(self) -> bool {
        self != LmStop::MaxIterations
    }
}

/// The result of [`minimize`].
#[derive(Debug, Clone)]
pub struct LmResult {
    /// The optimum θ.
    pub theta: Vec<f64>,
    /// Residuals at the optimum.
    pub residuals: Vec<f64>,
    /// Sum of squared residuals at the optimum.
    pub ssr: f64,
    /// Jacobian dr/dθ at the optimum (rows: residuals, columns: parameters).
    pub jacobian: DMatrix<f64>,
    /// Iterations done.
    pub iterations: usize,
    /// Residual evaluations done (including the Jacobian's).
    pub evaluations: usize,
    /// Why it stopped.
    pub stop: LmStop,
}

/// Errors of [`minimize`].
#[derive(Debug, Clone, PartialEq)]
pub enum LmError {
    /// The residuals cannot be evaluated at the initial point.
    InitialPoint,
    /// A Jacobian column cannot be computed (neither side of θ_j evaluates).
    Jacobian {
        /// Index of the parameter.
        index: usize,
    },
}

/// What [`minimize`] reports after every iteration.
#[derive(Debug, Clone, Copy)]
pub struct LmProgress {
    /// Iteration number (1-based).
    pub iteration: usize,
    /// Sum of squared residuals at the current point.
    pub ssr: f64,
    /// Current damping.
    pub lambda: f64,
}

fn ssr(r: &[f64]) -> f64 {
    r.iter().map(|x| x * x).sum()
}

/// The forward-difference Jacobian of `f` at `theta` (with residuals `r0`)
/// with steps `h_j = opts.fd_step · scale_j` ([`LmOptions::fd_scale`]),
/// stepping backwards where `theta_j + h_j` would leave the box or cannot be
/// evaluated. Columns are computed in parallel.
pub fn jacobian<F>(
    f: &F,
    theta: &[f64],
    r0: &[f64],
    hi: &[f64],
    opts: &LmOptions,
) -> Result<DMatrix<f64>, LmError>
where
    F: Fn(&[f64]) -> Option<Vec<f64>> + Sync,
{
    let n = r0.len();
    let cols: Vec<Result<Vec<f64>, LmError>> = (0..theta.len())
        .into_par_iter()
        .map(|j| {
            let scale =
                opts.fd_scale.as_ref().and_then(|s| s.get(j).copied()).unwrap_or(1.0 + theta[j].abs());
            let h = opts.fd_step * scale;
            let eval = |h: f64| {
                let mut th = theta.to_vec();
                th[j] += h;
                f(&th).filter(|r| r.len() == n && r.iter().all(|x| x.is_finite())).map(|r| {
                    let dh = th[j] - theta[j];
                    r.iter().zip(r0).map(|(a, b)| (a - b) / dh).collect::<Vec<f64>>()
                })
            };
            let first = if theta[j] + h <= hi[j] { eval(h) } else { None };
            first.or_else(|| eval(-h)).ok_or(LmError::Jacobian { index: j })
        })
        .collect();
    let mut jac = DMatrix::zeros(n, theta.len());
    for (j, c) in cols.into_iter().enumerate() {
        jac.set_column(j, &DVector::from_vec(c?));
    }
    Ok(jac)
}

/// Minimise `Σ f(θ)_i²` over the box `lo <= θ <= hi` from `theta0`
/// (clamped into the box) by Levenberg-Marquardt; see the module docs.
///
/// ```
/// use friction_analysis::lm::{minimize, LmOptions};
/// // fit y = a exp(-b t) to exact data from a = 2, b = 0.5
/// let t: Vec<f64> = (0..20).map(|i| i as f64 * 0.5).collect();
/// let y: Vec<f64> = t.iter().map(|t| 2.0 * (-0.5 * t).exp()).collect();
/// let f = |p: &[f64]| Some(t.iter().zip(&y).map(|(t, y)| p[0] * (-p[1] * t).exp() - y).collect());
/// let r = minimize(&f, &[1.0, 1.0], &[0.0, 0.0], &[10.0, 10.0], &LmOptions::default(), None).unwrap();
/// assert!((r.theta[0] - 2.0).abs() < 1e-6 && (r.theta[1] - 0.5).abs() < 1e-6);
/// ```
pub fn minimize<F>(
    f: &F,
    theta0: &[f64],
    lo: &[f64],
    hi: &[f64],
    opts: &LmOptions,
    progress: Option<&(dyn Fn(&LmProgress) + Sync)>,
) -> Result<LmResult, LmError>
where
    F: Fn(&[f64]) -> Option<Vec<f64>> + Sync,
{
    minimize_from(f, theta0, None, lo, hi, opts, progress)
}

/// [`minimize`] with the residuals and Jacobian at `theta0` already known
/// (`theta0` must lie inside the box), which saves their evaluation.
pub fn minimize_from<F>(
    f: &F,
    theta0: &[f64],
    start: Option<(Vec<f64>, DMatrix<f64>)>,
    lo: &[f64],
    hi: &[f64],
    opts: &LmOptions,
    progress: Option<&(dyn Fn(&LmProgress) + Sync)>,
) -> Result<LmResult, LmError>
where
    F: Fn(&[f64]) -> Option<Vec<f64>> + Sync,
{
    let p = theta0.len();
    let clamp = |th: &mut Vec<f64>| {
        for j in 0..p {
            th[j] = th[j].clamp(lo[j], hi[j]);
        }
    };
    let valid = |r: &Option<Vec<f64>>, n: usize| {
        r.as_ref().is_some_and(|r| r.len() == n && r.iter().all(|x| x.is_finite()))
    };
    let mut theta = theta0.to_vec();
    clamp(&mut theta);
    let mut evals = 0usize;
    let (mut r, mut jac) = match start {
        Some((r, j)) if theta == theta0 && j.shape() == (r.len(), p) => (r, j),
        _ => {
            let r = f(&theta).ok_or(LmError::InitialPoint)?;
            evals += 1;
            let j = jacobian(f, &theta, &r, hi, opts)?;
            evals += p;
            (r, j)
        }
    };
    let n = r.len();
    if !valid(&Some(r.clone()), n) || n == 0 {
        return Err(LmError::InitialPoint);
    }
    let mut s = ssr(&r);
    let mut lambda = opts.lambda0;
    let mut jac_current = true;
    let mut stop = LmStop::MaxIterations;
    let mut iterations = 0;
    for it in 1..=opts.max_iter {
        iterations = it;
        if !jac_current {
            jac = jacobian(f, &theta, &r, hi, opts)?;
            evals += p;
            jac_current = true;
        }
        let rv = DVector::from_column_slice(&r);
        let g = jac.transpose() * &rv;
        let jtj = jac.transpose() * &jac;
        // scaled gradient: cosine between each column and the residual
        let rn = rv.norm();
        let gscaled = (0..p)
            .map(|j| {
                let cn = jac.column(j).norm();
                if cn > 0.0 && rn > 0.0 {
                    (g[j] / (cn * rn)).abs()
                } else {
                    0.0
                }
            })
            .fold(0.0, f64::max);
        if gscaled <= opts.gtol || s == 0.0 {
            stop = LmStop::GradientConverged;
            break;
        }
        let diag: Vec<f64> = (0..p).map(|j| jtj[(j, j)].max(1e-300)).collect();
        let mut accepted = false;
        while lambda < 1e16 {
            let mut a = jtj.clone();
            for j in 0..p {
                a[(j, j)] += lambda * diag[j];
            }
            let delta = match a.clone().cholesky() {
                Some(c) => c.solve(&(-&g)),
                None => match a.svd(true, true).solve(&(-&g), 1e-14) {
                    Ok(d) => d,
                    Err(_) => {
                        lambda *= 4.0;
                        continue;
                    }
                },
            };
            let mut trial: Vec<f64> = theta.iter().zip(delta.iter()).map(|(t, d)| t + d).collect();
            clamp(&mut trial);
            let rt = f(&trial);
            evals += 1;
            if valid(&rt, n) {
                let rt = rt.unwrap_or_default();
                let st = ssr(&rt);
                if st < s {
                    let small_step =
                        trial.iter().zip(&theta).all(|(a, b)| (a - b).abs() <= opts.xtol * (1.0 + b.abs()));
                    let small_decrease = s - st <= opts.ftol * s;
                    theta = trial;
                    r = rt;
                    s = st;
                    jac_current = false;
                    lambda = (lambda / 3.0).max(1e-12);
                    accepted = true;
                    if small_decrease {
                        stop = LmStop::CostConverged;
                    } else if small_step {
                        stop = LmStop::StepConverged;
                    }
                    break;
                }
            }
            lambda *= 4.0;
        }
        if let Some(cb) = progress {
            cb(&LmProgress { iteration: it, ssr: s, lambda });
        }
        if !accepted {
            stop = LmStop::NoProgress;
            break;
        }
        if stop != LmStop::MaxIterations {
            break;
        }
    }
    if !jac_current {
        jac = jacobian(f, &theta, &r, hi, opts)?;
        evals += p;
    }
    Ok(LmResult { theta, residuals: r, ssr: s, jacobian: jac, iterations, evaluations: evals, stop })
}

/// The linearised covariance `s² (JᵀJ)⁻¹` of a least-squares optimum with
/// Jacobian `jac` and residual sum of squares `ssr`, `s² = ssr / (n - p)`,
/// and the smallest singular value `σ_min` of the Jacobian with its columns
/// scaled to unit norm.
///
/// `σ_min²` is the smallest eigenvalue of the matrix of cosines between
/// the columns: for two parameters whose columns have cosine `c` it is
/// `1 - |c|`, and `1 / σ_min²` bounds the variance inflation of the worst
/// determined parameter combination. The inverse is taken through the SVD
/// of the scaled Jacobian; returns `Err((v, σ_min))` when `σ_min < min_sv`
/// (or a column is zero), with `v` the right singular vector of `σ_min`
/// (in scaled coordinates): the parameter combination the data do not
/// determine.
pub fn covariance(jac: &DMatrix<f64>, ssr: f64, min_sv: f64) -> Result<(DMatrix<f64>, f64), (Vec<f64>, f64)> {
    let (n, p) = jac.shape();
    let scale: Vec<f64> = (0..p).map(|j| jac.column(j).norm()).collect();
    if let Some(j) = scale.iter().position(|s| *s == 0.0 || !s.is_finite()) {
        let mut v = vec![0.0; p];
        v[j] = 1.0;
        return Err((v, 0.0));
    }
    let mut js = jac.clone();
    for j in 0..p {
        js.column_mut(j).scale_mut(1.0 / scale[j]);
    }
    let svd = js.svd(false, true);
    let vt = svd.v_t.as_ref().expect("requested V");
    let mut imin = 0;
    for i in 0..svd.singular_values.len() {
        if svd.singular_values[i] < svd.singular_values[imin] {
            imin = i;
        }
    }
    let smin = svd.singular_values[imin];
    if smin.is_nan() || smin < min_sv || svd.singular_values.len() < p {
        return Err((vt.row(imin).iter().copied().collect(), smin));
    }
    // (JsᵀJs)⁻¹ = V Σ⁻² Vᵀ
    let mut inv = DMatrix::<f64>::zeros(p, p);
    for k in 0..svd.singular_values.len() {
        let w = 1.0 / (svd.singular_values[k] * svd.singular_values[k]);
        for a in 0..p {
            for b in 0..p {
                inv[(a, b)] += w * vt[(k, a)] * vt[(k, b)];
            }
        }
    }
    let s2 = if n > p { ssr / (n - p) as f64 } else { f64::NAN };
    Ok((DMatrix::from_fn(p, p, |a, b| s2 * inv[(a, b)] / (scale[a] * scale[b])), smin))
}

/// ln Γ(x) for x > 0 (Lanczos approximation, g = 7, 9 terms; relative error below 1e-14).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Continued fraction of the incomplete beta function (modified Lentz).
fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
    let tiny = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < tiny {
        d = tiny;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=300 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = 1.0 + aa / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// The regularised incomplete beta function I_x(a, b).
fn inc_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_cf(a, b, x) / a
    } else {
        1.0 - ln_front.exp() * beta_cf(b, a, 1.0 - x) / b
    }
}

/// The two-sided tail probability P(|T| > t) of Student's t with `dof` degrees of freedom.
pub fn t_two_sided_tail(t: f64, dof: f64) -> f64 {
    inc_beta(0.5 * dof, 0.5, dof / (dof + t * t))
}

/// The quantile `t` with P(T <= t) = `p` (0.5 <= p < 1) of Student's t
/// distribution with `dof` degrees of freedom (bisection on the exact CDF,
/// through the regularised incomplete beta function).
///
/// ```
/// use friction_analysis::lm::t_quantile;
/// assert!((t_quantile(0.975, 10.0) - 2.228139).abs() < 1e-5);
/// assert!((t_quantile(0.975, 1e9) - 1.959964).abs() < 1e-5);
/// ```
pub fn t_quantile(p: f64, dof: f64) -> f64 {
    let tail = 2.0 * (1.0 - p);
    let (mut a, mut b) = (0.0, 1.0);
    while t_two_sided_tail(b, dof) > tail && b < 1e12 {
        b *= 2.0;
    }
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if t_two_sided_tail(m, dof) > tail {
            a = m;
        } else {
            b = m;
        }
        if b - a < 1e-12 * b {
            break;
        }
    }
    0.5 * (a + b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Student-t quantiles against tabulated values (Abramowitz & Stegun, table 26.10).
    #[test]
    fn t_quantiles_match_the_tables() {
        for (dof, q) in [(1.0, 12.7062), (2.0, 4.3027), (5.0, 2.5706), (30.0, 2.0423), (120.0, 1.9799)] {
            assert!((t_quantile(0.975, dof) - q).abs() < 1e-4, "dof {dof}");
        }
        assert!((t_quantile(0.995, 4.0) - 4.6041).abs() < 1e-4);
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
    }

    /// A linear model y = a + b t: LM reaches the normal-equation solution and
    /// the covariance equals the textbook s² (XᵀX)⁻¹ computed by hand.
    #[test]
    fn linear_fit_matches_the_closed_form() {
        let t: Vec<f64> = (0..11).map(|i| i as f64).collect();
        let noise = [0.1, -0.2, 0.05, 0.0, 0.15, -0.1, -0.05, 0.2, -0.15, 0.1, -0.1];
        let y: Vec<f64> = t.iter().zip(noise).map(|(t, e)| 1.0 + 0.5 * t + e).collect();
        let f = |p: &[f64]| Some(t.iter().zip(&y).map(|(t, y)| p[0] + p[1] * t - y).collect());
        let r = minimize(&f, &[0.0, 0.0], &[-10.0; 2], &[10.0; 2], &LmOptions::default(), None).unwrap();
        // closed form
        let n = t.len() as f64;
        let (st, sy) = (t.iter().sum::<f64>(), y.iter().sum::<f64>());
        let stt: f64 = t.iter().map(|t| t * t).sum();
        let sty: f64 = t.iter().zip(&y).map(|(t, y)| t * y).sum();
        let det = n * stt - st * st;
        let b = (n * sty - st * sy) / det;
        let a = (sy - b * st) / n;
        assert!((r.theta[0] - a).abs() < 1e-6 && (r.theta[1] - b).abs() < 1e-7, "{:?}", r.theta);
        let s2 = t.iter().zip(&y).map(|(t, y)| (y - a - b * t).powi(2)).sum::<f64>() / (n - 2.0);
        let cov = covariance(&r.jacobian, r.ssr, 1e-6).unwrap().0;
        assert!((cov[(0, 0)] / (s2 * stt / det) - 1.0).abs() < 1e-5);
        assert!((cov[(1, 1)] / (s2 * n / det) - 1.0).abs() < 1e-5);
        assert!((cov[(0, 1)] / (-s2 * st / det) - 1.0).abs() < 1e-5);
    }

    /// Two parameters that enter only as a product are reported as the
    /// undetermined direction (1, -1)/√2 in scaled coordinates.
    #[test]
    fn a_product_of_parameters_is_rank_deficient() {
        let t: Vec<f64> = (0..10).map(|i| i as f64).collect();
        let f = |p: &[f64]| Some(t.iter().map(|t| p[0] * p[1] * t - 2.0 * t).collect());
        let opts = LmOptions { fd_step: 1e-6, ..Default::default() };
        let jac = jacobian(&f, &[1.0, 1.0], &f(&[1.0, 1.0]).unwrap(), &[10.0; 2], &opts).unwrap();
        let (v, smin) = covariance(&jac, 1.0, 1e-3).unwrap_err();
        assert!(smin < 1e-6);
        assert!((v[0].abs() - 0.5f64.sqrt()).abs() < 1e-3 && (v[0] + v[1]).abs() < 1e-3, "{v:?}");
    }

    /// The box is respected: the unconstrained optimum a = 3 lies outside [0, 2].
    #[test]
    fn bounds_hold() {
        let f = |p: &[f64]| Some(vec![p[0] - 3.0, 0.1 * (p[0] - 3.0)]);
        let r = minimize(&f, &[1.0], &[0.0], &[2.0], &LmOptions::default(), None).unwrap();
        assert_eq!(r.theta[0], 2.0);
    }
}
