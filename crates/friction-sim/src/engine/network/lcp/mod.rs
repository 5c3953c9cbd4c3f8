//! Exact pivoting solver for the box-constrained (mixed) linear
//! complementarity problem, used to decide stick or slip of frictional
//! contacts at an event.
//!
//! # Problem
//!
//! Given a symmetric positive semi-definite matrix `A` (`n x n`), a vector
//! `q` and bounds `lo[i] <= 0 <= hi[i]` (either may be infinite), find `λ`
//! with `w = A λ + q` such that for every index `i` one of
//!
//! * `lo[i] < λ[i] < hi[i]` and `w[i] = 0` (*clamped*: a stuck contact),
//! * `λ[i] = lo[i]` and `w[i] >= 0` (*at the lower bound*),
//! * `λ[i] = hi[i]` and `w[i] <= 0` (*at the upper bound*)
//!
//! holds. A zero-width box `lo[i] = hi[i] = 0` is allowed: then `λ[i] = 0`
//! and `w[i]` is free. Unilateral end stops are `lo = 0, hi = +inf`,
//! bilateral constraints `lo = -inf, hi = +inf`, Coulomb friction with a
//! known normal force `N` is `lo = -μN, hi = μN`. For symmetric `A` this is
//! the optimality condition of the convex quadratic programme
//! `min ½ λᵀAλ + qᵀλ` over the box.
//!
//! # Algorithm
//!
//! Dantzig-style principal pivoting extended to boxes, as in D. Baraff,
//! *Fast contact force computation for nonpenetrating rigid bodies*
//! (SIGGRAPH 1994), and R. Smith's `dLCP` in the Open Dynamics Engine
//! (`lcp.cpp`). Start from `λ = 0`, which is feasible because
//! `lo <= 0 <= hi`, so `w = q`. Indices are processed one at a time in
//! **ascending order**. For the current index `d`, `λ[d]` is driven in the
//! direction that reduces `|w[d]|` while every clamped index `i ∈ C` keeps
//! `w[i] = 0` (the direction solves `A_CC Δλ_C = -A_Cd`). The step is the
//! largest one before the first of these events (one event = one *pivot*):
//!
//! 1. `λ[d]` reaches its bound (`d` is done, at that bound),
//! 2. `w[d]` reaches 0 (`d` is done and joins `C`),
//! 3. a clamped `λ[i]` reaches a bound (`i` leaves `C` for that bound),
//! 4. `w[i]` of an index at a bound reaches 0 (`i` joins `C`).
//!
//! Ties are broken in that order and then by the lowest index. Afterwards the
//! next step for `d` is taken from the new index sets, until `d` is done.
//! `|w[d]|` never grows along a step (the Schur complement of `A_CC` in
//! `A` is non-negative for positive semi-definite `A`), so every index that
//! has been processed keeps satisfying its condition.
//!
//! `A_CC` is held as a dense Cholesky factor that is updated in `O(|C|²)`
//! when an index joins (a new row) or leaves `C` (row deletion followed by
//! Givens rotations), so a pivot costs `O(n |C|)` for the update of `w`.
//! After each index is finished the clamped multipliers are re-solved from
//! the factor and `w = Aλ + q` is recomputed, so rounding does not build up
//! across pivots. All work arrays live in [`LcpWork`], which is resized only
//! when a larger problem arrives; repeated calls of the same size do not
//! allocate except for the two vectors of the returned [`LcpSolution`].
//!
//! # Singular (positive semi-definite) matrices
//!
//! Redundant contacts (duplicate or linearly dependent rows) make `A`
//! singular. A clamped index whose column of `A` depends on the other
//! clamped columns (Cholesky pivot below the pivot tolerance) is kept out of
//! the factor as a *dependent* clamped index: its `λ` stays fixed and its
//! `w` stays 0 automatically, because its row is a combination of rows whose
//! `w` is held at 0. It is moved back into the factor whenever an index
//! leaves the factor. When the driven index `d` itself is dependent (its
//! `w[d]` cannot be changed by moving `λ[d]`), `λ[d]` is moved along the
//! null direction towards its bound. If that bound is infinite and nothing
//! else blocks the move, `w[d]` can never reach a valid value and the solver
//! reports [`LcpError::NoSolution`] for `d`.
//!
//! For singular `A` the solution `λ` need not be unique, but `w` is (all
//! minimisers of the convex programme share `Aλ`). The ascending processing
//! order is then the deterministic rule that picks one `λ`: an earlier index
//! takes as much of the load as its box allows before a later one is
//! considered. The result depends only on the input, bit for bit.
//!
//! # Exactness and tolerances
//!
//! The method is finite and exact: there is no iteration tolerance, and the
//! returned `λ` is exact up to rounding in the dense linear algebra. The
//! tolerances below only decide when a computed quantity is treated as zero;
//! each is relative to the problem's scale, `a_max = max |A_ij|` and
//! `q_max = max |q_i|`:
//!
//! * [`EPS_PIVOT`]: a Cholesky pivot (Schur complement) `<= EPS_PIVOT·a_max`
//!   marks a clamped index as linearly dependent (redundant constraint).
//! * [`EPS_W`]: `|w[d]| <= EPS_W·(q_max + a_max·max|λ|)` counts as `w[d] = 0`
//!   when deciding whether `d` is already satisfied.
//! * [`EPS_NOISE`]: along a direction `Δλ`, a change `|Δw_i| <=
//!   EPS_NOISE·a_max·‖Δλ‖₁` or `|Δλ_i| <= EPS_NOISE·‖Δλ‖∞` is rounding noise
//!   and cannot block the step.
//! * [`EPS_SYMMETRY`]: `|A_ij - A_ji| > EPS_SYMMETRY·a_max` is rejected as
//!   not symmetric.
//! * [`EPS_NOT_PSD`]: a Schur complement below `-EPS_NOT_PSD·a_max·‖Δλ‖₁`
//!   (or a negative diagonal entry beyond `-EPS_NOT_PSD·a_max`) proves that
//!   `A` is not positive semi-definite, reported as bad input. Indefinite
//!   matrices are not searched for otherwise.
//!
//! # Errors
//!
//! * [`LcpError::BadInput`]: mismatched dimensions, a non-finite entry in
//!   `A` or `q`, a NaN bound, `lo > 0`, `hi < 0`, a non-symmetric `A`, or an
//!   `A` shown not to be positive semi-definite. Nothing was solved.
//! * [`LcpError::NoSolution`]: the index `d` could not be brought into
//!   complementarity: `w[d]` cannot be reduced and `λ[d]` would have to go
//!   to an infinite bound (e.g. `A = [[0]], q = [-1], lo = 0, hi = +inf`,
//!   or contradictory redundant bilateral constraints).
//! * [`LcpError::Cycling`]: the pivot limit (`10 n + 100` by default, see
//!   [`LcpWork::set_pivot_limit`]) was reached, which for positive
//!   semi-definite input only happens on badly degenerate problems.
//!
//! The solver never panics on any input.
#![allow(clippy::needless_range_loop)]

use nalgebra::DMatrix;
use std::fmt;

mod check;
mod factor;
#[cfg(test)]
mod tests;

#[cfg(test)]
use check::check_solution;
use check::validate;
use factor::{clamp_index, fac_solve, factor_remove, polish};

/// Relative Cholesky pivot tolerance: a Schur complement
/// `<= EPS_PIVOT · max|A_ij|` marks an index as linearly dependent on the
/// clamped set.
pub const EPS_PIVOT: f64 = 1e-10;

/// Relative tolerance for `w[d] = 0` when deciding whether index `d` is
/// already satisfied: `|w[d]| <= EPS_W · (max|q| + max|A| · max|λ|)`.
pub const EPS_W: f64 = 1e-11;

/// Relative rounding-noise level of a search direction: changes below it
/// (see the module docs) never block a step.
pub const EPS_NOISE: f64 = 1e-12;

/// Relative tolerance of the symmetry check `|A_ij - A_ji| <= EPS_SYMMETRY · max|A|`.
pub const EPS_SYMMETRY: f64 = 1e-9;

/// Relative margin beyond rounding by which a negative Schur complement or
/// diagonal entry is taken as proof that `A` is not positive semi-definite.
pub const EPS_NOT_PSD: f64 = 1e-8;

/// Where an index ended up in the solution of a box LCP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LcpIndexState {
    /// Strictly inside the box (or at a bound reached with `w = 0`) with
    /// `w = 0`: a stuck contact.
    Clamped,
    /// `λ = lo` and `w >= 0` (also a zero-width box with `w >= 0`).
    AtLower,
    /// `λ = hi` and `w <= 0` (also a zero-width box with `w < 0`).
    AtUpper,
}

/// Internal state of an index during pivoting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Not processed yet; `λ = 0` and `w` is not constrained.
    Unprocessed,
    /// Clamped, part of the Cholesky factor.
    Clamped,
    /// Clamped, but its column depends on the factor's columns; `λ` is frozen.
    Dependent,
    /// `λ = lo`, `w >= 0`.
    Lower,
    /// `λ = hi`, `w <= 0`.
    Upper,
    /// Zero-width box: `λ = 0`, `w` free.
    Fixed,
}

/// The event that ends one pivoting step.
#[derive(Debug, Clone, Copy)]
enum Event {
    /// The driven index reaches its bound.
    DriveBound,
    /// `w` of the driven index reaches 0.
    DriveZero,
    /// A clamped index reaches its upper (`true`) or lower (`false`) bound.
    Leave(usize, bool),
    /// An index at a bound gets `w = 0` and joins the clamped set.
    Join(usize),
}

/// Reusable workspace for [`solve_box_lcp`].
///
/// Holds every work array (state, multipliers, residuals, search direction,
/// the dense Cholesky factor of the clamped block). Arrays grow to the
/// largest problem seen and are reused afterwards, so repeated calls of at
/// most that size do not allocate inside the solver.
#[derive(Debug, Clone)]
pub struct LcpWork {
    /// Dimension of the current problem (row stride of `fac`).
    n: usize,
    state: Vec<State>,
    lambda: Vec<f64>,
    w: Vec<f64>,
    /// Search direction in λ (full length).
    dl: Vec<f64>,
    /// Search direction in w (full length).
    dw: Vec<f64>,
    /// Lower-triangular Cholesky factor of `A_CC`, row-major, stride `n`.
    fac: Vec<f64>,
    /// Clamped indices in factor order.
    cf: Vec<usize>,
    /// Dependent clamped indices (not in the factor).
    cz: Vec<usize>,
    /// Right-hand side / solution of factor solves (length `n`).
    rhs: Vec<f64>,
    /// Final index states of the last successful solve.
    out_states: Vec<LcpIndexState>,
    /// Pivot limit override.
    pivot_limit: Option<usize>,
}

impl Default for LcpWork {
    fn default() -> Self {
        Self::new()
    }
}

impl LcpWork {
    /// An empty workspace; it sizes itself on the first solve.
    pub fn new() -> Self {
        LcpWork {
            n: 0,
            state: Vec::new(),
            lambda: Vec::new(),
            w: Vec::new(),
            dl: Vec::new(),
            dw: Vec::new(),
            fac: Vec::new(),
            cf: Vec::new(),
            cz: Vec::new(),
            rhs: Vec::new(),
            out_states: Vec::new(),
            pivot_limit: None,
        }
    }

    #[cfg(test)] // used by the tests and the one-shot solver only
    /// A workspace already sized for problems of dimension up to `n`.
    pub fn with_capacity(n: usize) -> Self {
        let mut work = Self::new();
        work.prepare(n);
        work
    }

    #[cfg(test)] // used by the tests and the one-shot solver only
    /// Overrides the pivot limit (`None` restores the default `10 n + 100`).
    /// Reaching it makes [`solve_box_lcp`] return [`LcpError::Cycling`].
    pub fn set_pivot_limit(&mut self, limit: Option<usize>) {
        self.pivot_limit = limit;
    }

    #[cfg(test)] // used by the tests and the one-shot solver only
    /// The final state of each index after the last successful
    /// [`solve_box_lcp`] (empty before the first one, unspecified after an
    /// error). `Clamped` marks a stuck contact.
    pub fn states(&self) -> &[LcpIndexState] {
        &self.out_states
    }

    /// The multipliers λ of the last successful solve ([`solve_box_lcp_in`]).
    pub fn lambda(&self) -> &[f64] {
        &self.lambda[..self.n]
    }

    /// `w = A λ + q` of the last successful solve ([`solve_box_lcp_in`]).
    pub fn w(&self) -> &[f64] {
        &self.w[..self.n]
    }

    /// Sizes and resets the arrays for a problem of dimension `n`.
    fn prepare(&mut self, n: usize) {
        self.n = n;
        self.state.clear();
        self.state.resize(n, State::Unprocessed);
        self.lambda.clear();
        self.lambda.resize(n, 0.0);
        self.w.clear();
        self.w.resize(n, 0.0);
        self.dl.clear();
        self.dl.resize(n, 0.0);
        self.dw.clear();
        self.dw.resize(n, 0.0);
        self.rhs.clear();
        self.rhs.resize(n, 0.0);
        self.fac.clear();
        self.fac.resize(n * n, 0.0);
        self.cf.clear();
        self.cf.reserve(n);
        self.cz.clear();
        self.cz.reserve(n);
        self.out_states.clear();
        self.out_states.reserve(n);
    }
}

#[cfg(test)] // used by the tests and the one-shot solver only
/// A solution of the box LCP.
#[derive(Debug, Clone, PartialEq)]
pub struct LcpSolution {
    /// The multipliers λ (contact forces), each within `[lo, hi]`.
    pub lambda: Vec<f64>,
    /// `w = A λ + q` (contact velocities or accelerations).
    pub w: Vec<f64>,
    /// Number of pivots (pivoting steps) taken.
    pub pivots: usize,
}

/// Why [`solve_box_lcp`] failed.
#[derive(Debug, Clone, PartialEq)]
pub enum LcpError {
    /// Index `index` cannot satisfy its complementarity condition: `w` cannot
    /// be reduced by its multiplier and the multiplier would have to grow
    /// without bound (the problem is infeasible).
    NoSolution {
        /// The index being processed when the unbounded direction was found.
        index: usize,
    },
    /// The pivot limit was reached after `pivots` pivots (degenerate
    /// problem cycling).
    Cycling {
        /// Number of pivots taken.
        pivots: usize,
    },
    /// The input is malformed; the message says how.
    BadInput(String),
}

impl fmt::Display for LcpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LcpError::NoSolution { index } => write!(
                f,
                "the contact problem has no solution: the force of constraint {index} \
                 would have to grow without bound to satisfy it"
            ),
            LcpError::Cycling { pivots } => write!(
                f,
                "the contact solver gave up after {pivots} pivots without finishing \
                 (degenerate problem, probably cycling)"
            ),
            LcpError::BadInput(msg) => write!(f, "invalid contact problem: {msg}"),
        }
    }
}

impl std::error::Error for LcpError {}

/// Problem data shared by the helpers.
struct Ctx<'a> {
    /// `A` column-major (`a[j * n + i] = A_ij`); symmetric, so column `j` is row `j`.
    a: &'a [f64],
    n: usize,
    q: &'a [f64],
    lo: &'a [f64],
    hi: &'a [f64],
    a_max: f64,
    q_max: f64,
    tol_piv: f64,
}

#[cfg(test)] // used by the tests and the one-shot solver only
/// Solves the box-constrained LCP `w = A λ + q`, `lo <= λ <= hi`, with
/// `w_i = 0` strictly inside the box, `w_i >= 0` at `lo`, `w_i <= 0` at `hi`.
///
/// `A` must be symmetric positive semi-definite, `lo[i] ∈ [-inf, 0]`,
/// `hi[i] ∈ [0, +inf]`. Indices are processed in ascending order (see the
/// module docs for the algorithm, tolerances and the rule that picks a
/// solution when several exist). `work` is reused across calls.
///
/// # Errors
///
/// [`LcpError::BadInput`] for malformed input, [`LcpError::NoSolution`] when
/// the problem is infeasible, [`LcpError::Cycling`] when the pivot limit is
/// reached.
pub fn solve_box_lcp(
    a: &DMatrix<f64>,
    q: &[f64],
    lo: &[f64],
    hi: &[f64],
    work: &mut LcpWork,
) -> Result<LcpSolution, LcpError> {
    let pivots = solve_box_lcp_in(a, q, lo, hi, work)?;
    Ok(LcpSolution { lambda: work.lambda.clone(), w: work.w.clone(), pivots })
}

/// [`solve_box_lcp`] without copying the solution out of `work`: λ and `w`
/// are then [`LcpWork::lambda`] and [`LcpWork::w`]; returns the number of
/// pivots. Nothing is allocated once `work` has seen a problem this large.
///
/// # Errors
///
/// As [`solve_box_lcp`].
pub fn solve_box_lcp_in(
    a: &DMatrix<f64>,
    q: &[f64],
    lo: &[f64],
    hi: &[f64],
    work: &mut LcpWork,
) -> Result<usize, LcpError> {
    let a_max = validate(a, q, lo, hi)?;
    let n = a.nrows();
    work.prepare(n);
    let ctx = Ctx {
        a: a.as_slice(),
        n,
        q,
        lo,
        hi,
        a_max,
        q_max: q.iter().fold(0.0_f64, |m, v| m.max(v.abs())),
        tol_piv: EPS_PIVOT * a_max,
    };
    let limit = work.pivot_limit.unwrap_or(10 * n + 100);
    let mut pivots = 0usize;
    work.w.copy_from_slice(q);

    for d in 0..n {
        if lo[d] == hi[d] {
            work.state[d] = State::Fixed;
            continue;
        }
        loop {
            let lam_max = work.lambda.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
            let tol_w = EPS_W * (ctx.q_max + a_max * lam_max);
            let wd = work.w[d];
            let ld = work.lambda[d];
            // Is d already satisfied?
            if wd.abs() <= tol_w {
                if ld == lo[d] {
                    work.state[d] = State::Lower;
                } else if ld == hi[d] {
                    work.state[d] = State::Upper;
                } else {
                    clamp_index(&ctx, work, d)?;
                }
                break;
            }
            if wd > 0.0 && ld == lo[d] {
                work.state[d] = State::Lower;
                break;
            }
            if wd < 0.0 && ld == hi[d] {
                work.state[d] = State::Upper;
                break;
            }
            if pivots >= limit {
                return Err(LcpError::Cycling { pivots });
            }
            let s = if wd > 0.0 { -1.0 } else { 1.0 };

            // Direction: Δλ_d = s, A_CC Δλ_C = -s A_Cd, Δw = A Δλ.
            let m = work.cf.len();
            for k in 0..m {
                work.rhs[k] = -s * ctx.a[d * n + work.cf[k]];
            }
            fac_solve(&work.fac, n, m, &mut work.rhs);
            work.dl.fill(0.0);
            for k in 0..m {
                work.dl[work.cf[k]] = work.rhs[k];
            }
            work.dl[d] = s;
            work.dw.fill(0.0);
            let mut norm1 = 0.0;
            let mut norm_inf = 0.0_f64;
            for j in 0..n {
                let x = work.dl[j];
                if x != 0.0 {
                    norm1 += x.abs();
                    norm_inf = norm_inf.max(x.abs());
                    let col = &ctx.a[j * n..(j + 1) * n];
                    for i in 0..n {
                        work.dw[i] += col[i] * x;
                    }
                }
            }
            let noise_w = EPS_NOISE * a_max * norm1;
            let noise_l = EPS_NOISE * norm_inf;
            let schur = s * work.dw[d];
            if schur < -EPS_NOT_PSD * a_max * norm1 {
                return Err(LcpError::BadInput(format!(
                    "A is not positive semi-definite (negative Schur complement {schur:e} \
                     while driving index {d})"
                )));
            }

            // Largest step: first blocking event.
            let mut best = f64::INFINITY;
            let mut event = Event::DriveBound;
            let bound = if s > 0.0 { hi[d] } else { lo[d] };
            if bound.is_finite() {
                best = (bound - ld).abs();
            }
            if schur > noise_w {
                let t = wd.abs() / schur;
                if t < best {
                    best = t;
                    event = Event::DriveZero;
                }
            }
            for i in 0..n {
                let t;
                let ev;
                match work.state[i] {
                    State::Clamped => {
                        let di = work.dl[i];
                        if di > noise_l && hi[i].is_finite() {
                            t = ((hi[i] - work.lambda[i]) / di).max(0.0);
                            ev = Event::Leave(i, true);
                        } else if di < -noise_l && lo[i].is_finite() {
                            t = ((lo[i] - work.lambda[i]) / di).max(0.0);
                            ev = Event::Leave(i, false);
                        } else {
                            continue;
                        }
                    }
                    State::Lower if work.dw[i] < -noise_w => {
                        t = (work.w[i] / -work.dw[i]).max(0.0);
                        ev = Event::Join(i);
                    }
                    State::Upper if work.dw[i] > noise_w => {
                        t = (-work.w[i] / work.dw[i]).max(0.0);
                        ev = Event::Join(i);
                    }
                    _ => continue,
                }
                if t < best {
                    best = t;
                    event = ev;
                }
            }
            if !best.is_finite() {
                return Err(LcpError::NoSolution { index: d });
            }

            // Take the step.
            pivots += 1;
            for i in 0..n {
                work.lambda[i] += best * work.dl[i];
                work.w[i] += best * work.dw[i];
            }
            match event {
                Event::DriveBound => {
                    work.lambda[d] = bound;
                    work.state[d] = if s > 0.0 { State::Upper } else { State::Lower };
                    break;
                }
                Event::DriveZero => {
                    work.w[d] = 0.0;
                    clamp_index(&ctx, work, d)?;
                    break;
                }
                Event::Leave(i, upper) => {
                    work.lambda[i] = if upper { hi[i] } else { lo[i] };
                    work.state[i] = if upper { State::Upper } else { State::Lower };
                    // `i` is clamped, hence in the factor.
                    if let Some(pos) = work.cf.iter().position(|&c| c == i) {
                        factor_remove(&ctx, work, pos)?;
                    }
                }
                Event::Join(i) => {
                    work.w[i] = 0.0;
                    clamp_index(&ctx, work, i)?;
                }
            }
        }
        polish(&ctx, work);
    }
    if n > 0 {
        polish(&ctx, work);
    }

    work.out_states.clear();
    for i in 0..n {
        work.out_states.push(match work.state[i] {
            State::Clamped | State::Dependent | State::Unprocessed => LcpIndexState::Clamped,
            State::Lower => LcpIndexState::AtLower,
            State::Upper => LcpIndexState::AtUpper,
            State::Fixed => {
                if work.w[i] >= 0.0 {
                    LcpIndexState::AtLower
                } else {
                    LcpIndexState::AtUpper
                }
            }
        });
    }
    Ok(pivots)
}
