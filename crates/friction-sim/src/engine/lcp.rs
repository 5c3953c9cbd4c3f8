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

    /// A workspace already sized for problems of dimension up to `n`.
    pub fn with_capacity(n: usize) -> Self {
        let mut work = Self::new();
        work.prepare(n);
        work
    }

    /// Overrides the pivot limit (`None` restores the default `10 n + 100`).
    /// Reaching it makes [`solve_box_lcp`] return [`LcpError::Cycling`].
    pub fn set_pivot_limit(&mut self, limit: Option<usize>) {
        self.pivot_limit = limit;
    }

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

/// Checks dimensions, finiteness, signs of the bounds and symmetry.
/// Returns `max |A_ij|`.
fn validate(a: &DMatrix<f64>, q: &[f64], lo: &[f64], hi: &[f64]) -> Result<f64, LcpError> {
    let bad = |m: String| Err(LcpError::BadInput(m));
    let n = a.nrows();
    if a.ncols() != n {
        return bad(format!("matrix A is {}x{}, not square", n, a.ncols()));
    }
    if q.len() != n {
        return bad(format!("q has length {}, but A is {n}x{n}", q.len()));
    }
    if lo.len() != n {
        return bad(format!("lo has length {}, but A is {n}x{n}", lo.len()));
    }
    if hi.len() != n {
        return bad(format!("hi has length {}, but A is {n}x{n}", hi.len()));
    }
    let s = a.as_slice();
    let mut a_max = 0.0_f64;
    for j in 0..n {
        for i in 0..n {
            let v = s[j * n + i];
            if !v.is_finite() {
                return bad(format!("A[({i}, {j})] is {v}, not a finite number"));
            }
            a_max = a_max.max(v.abs());
        }
    }
    for i in 0..n {
        if !q[i].is_finite() {
            return bad(format!("q[{i}] is {}, not a finite number", q[i]));
        }
        if lo[i].is_nan() || lo[i] > 0.0 {
            return bad(format!("lo[{i}] is {}, it must lie in [-inf, 0]", lo[i]));
        }
        if hi[i].is_nan() || hi[i] < 0.0 {
            return bad(format!("hi[{i}] is {}, it must lie in [0, +inf]", hi[i]));
        }
    }
    let sym_tol = EPS_SYMMETRY * a_max;
    for j in 0..n {
        if s[j * n + j] < -EPS_NOT_PSD * a_max {
            return bad(format!(
                "A is not positive semi-definite: diagonal entry A[({j}, {j})] = {} is negative",
                s[j * n + j]
            ));
        }
        for i in (j + 1)..n {
            let (x, y) = (s[j * n + i], s[i * n + j]);
            if (x - y).abs() > sym_tol {
                return bad(format!("A is not symmetric: A[({i}, {j})] = {x} but A[({j}, {i})] = {y}"));
            }
        }
    }
    Ok(a_max)
}

/// Solves `L Lᵀ x = b` in place (`x` holds `b` on entry) with the first `m`
/// rows of the row-major factor `fac` (stride `n`).
fn fac_solve(fac: &[f64], n: usize, m: usize, x: &mut [f64]) {
    for k in 0..m {
        let row = &fac[k * n..k * n + k];
        let mut v = x[k];
        for j in 0..k {
            v -= row[j] * x[j];
        }
        x[k] = v / fac[k * n + k];
    }
    for k in (0..m).rev() {
        x[k] /= fac[k * n + k];
        let xk = x[k];
        let row = &fac[k * n..k * n + k];
        for j in 0..k {
            x[j] -= row[j] * xk;
        }
    }
}

/// Tries to append index `i` to the factor. Returns `Ok(true)` if it was
/// added (state `Clamped`), `Ok(false)` if its column is dependent on the
/// factor's (caller decides), or an error if `A` is shown to be indefinite.
fn try_factor_add(ctx: &Ctx, work: &mut LcpWork, i: usize) -> Result<bool, LcpError> {
    let n = ctx.n;
    let m = work.cf.len();
    let (done, rest) = work.fac.split_at_mut(m * n);
    let row = &mut rest[..n];
    let mut yy = 0.0;
    for k in 0..m {
        let mut v = ctx.a[i * n + work.cf[k]];
        let lk = &done[k * n..k * n + k];
        for j in 0..k {
            v -= lk[j] * row[j];
        }
        v /= done[k * n + k];
        row[k] = v;
        yy += v * v;
    }
    let piv = ctx.a[i * n + i] - yy;
    if piv > ctx.tol_piv {
        row[m] = piv.sqrt();
        work.cf.push(i);
        work.state[i] = State::Clamped;
        Ok(true)
    } else if piv < -EPS_NOT_PSD * (ctx.a_max + yy) {
        Err(LcpError::BadInput(format!(
            "A is not positive semi-definite (negative pivot {piv:e} when clamping index {i})"
        )))
    } else {
        Ok(false)
    }
}

/// Makes `i` clamped: in the factor if independent, else dependent.
fn clamp_index(ctx: &Ctx, work: &mut LcpWork, i: usize) -> Result<(), LcpError> {
    if !try_factor_add(ctx, work, i)? {
        work.state[i] = State::Dependent;
        work.cz.push(i);
    }
    Ok(())
}

/// Removes the factor entry at position `pos` (row deletion plus Givens
/// rotations restoring the triangle), then moves dependent indices that have
/// become independent back into the factor.
fn factor_remove(ctx: &Ctx, work: &mut LcpWork, pos: usize) -> Result<(), LcpError> {
    let n = ctx.n;
    let m = work.cf.len();
    let fac = &mut work.fac;
    for r in (pos + 1)..m {
        for c in 0..=r {
            fac[(r - 1) * n + c] = fac[r * n + c];
        }
    }
    for j in pos..(m - 1) {
        let a = fac[j * n + j];
        let b = fac[j * n + j + 1];
        let r = a.hypot(b);
        if r > 0.0 {
            let (c, s) = (a / r, b / r);
            for p in j..(m - 1) {
                let x = fac[p * n + j];
                let y = fac[p * n + j + 1];
                fac[p * n + j] = c * x + s * y;
                fac[p * n + j + 1] = -s * x + c * y;
            }
        }
        fac[j * n + j] = r;
        fac[j * n + j + 1] = 0.0;
    }
    work.cf.remove(pos);
    let mut k = 0;
    while k < work.cz.len() {
        let z = work.cz[k];
        if try_factor_add(ctx, work, z)? {
            work.cz.remove(k);
        } else {
            k += 1;
        }
    }
    Ok(())
}

/// Re-solves the clamped multipliers from the factor so that `w_C = 0`
/// holds to rounding, keeps them in their boxes, and recomputes `w = Aλ + q`.
fn polish(ctx: &Ctx, work: &mut LcpWork) {
    let n = ctx.n;
    let m = work.cf.len();
    if m > 0 {
        // dl := λ with the factor's entries zeroed.
        work.dl.copy_from_slice(&work.lambda);
        for &c in &work.cf {
            work.dl[c] = 0.0;
        }
        for k in 0..m {
            let i = work.cf[k];
            let col = &ctx.a[i * n..(i + 1) * n];
            let mut s = ctx.q[i];
            for j in 0..n {
                s += col[j] * work.dl[j];
            }
            work.rhs[k] = -s;
        }
        fac_solve(&work.fac, n, m, &mut work.rhs);
        for k in 0..m {
            let i = work.cf[k];
            work.lambda[i] = work.rhs[k].clamp(ctx.lo[i], ctx.hi[i]);
        }
    }
    work.w.copy_from_slice(ctx.q);
    for j in 0..n {
        let l = work.lambda[j];
        if l != 0.0 {
            let col = &ctx.a[j * n..(j + 1) * n];
            for i in 0..n {
                work.w[i] += col[i] * l;
            }
        }
    }
}

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

/// Verifies that `lambda` solves the box LCP `(A, q, lo, hi)`.
///
/// `tol` is relative: `w = Aλ + q` is compared with
/// `tol · (max|q| + max|A| · max|λ|)` and `λ` with `tol · max|λ|` (distance
/// to a bound, or outside the box). Each index must be at `lo` with
/// `w >= 0`, at `hi` with `w <= 0`, or have `w = 0` inside the box. Returns
/// a message naming the first offending index.
pub fn check_solution(
    a: &DMatrix<f64>,
    q: &[f64],
    lo: &[f64],
    hi: &[f64],
    lambda: &[f64],
    tol: f64,
) -> Result<(), String> {
    let n = a.nrows();
    if a.ncols() != n || q.len() != n || lo.len() != n || hi.len() != n || lambda.len() != n {
        return Err(format!(
            "dimension mismatch: A {}x{}, q {}, lo {}, hi {}, lambda {}",
            n,
            a.ncols(),
            q.len(),
            lo.len(),
            hi.len(),
            lambda.len()
        ));
    }
    if let Some(i) = lambda.iter().position(|v| !v.is_finite()) {
        return Err(format!("lambda[{i}] = {} is not finite", lambda[i]));
    }
    let w = a * nalgebra::DVector::from_column_slice(lambda) + nalgebra::DVector::from_column_slice(q);
    let a_max = a.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let q_max = q.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let l_max = lambda.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let w_tol = tol * (q_max + a_max * l_max);
    let l_tol = tol * l_max;
    for i in 0..n {
        let (l, wi) = (lambda[i], w[i]);
        if !wi.is_finite() {
            return Err(format!("w[{i}] = {wi} is not finite"));
        }
        if l < lo[i] - l_tol || l > hi[i] + l_tol {
            return Err(format!("index {i}: lambda = {l} is outside its box [{}, {}]", lo[i], hi[i]));
        }
        let at_lo = (l - lo[i]).abs() <= l_tol;
        let at_hi = (l - hi[i]).abs() <= l_tol;
        let ok = (at_lo && wi >= -w_tol) || (at_hi && wi <= w_tol) || wi.abs() <= w_tol;
        if !ok {
            return Err(format!(
                "index {i}: lambda = {l} in [{}, {}] but w = {wi} (tolerance {w_tol:e})",
                lo[i], hi[i]
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    const INF: f64 = f64::INFINITY;

    /// xorshift64* generator: deterministic, no dependency.
    struct Rng(u64);

    impl Rng {
        fn new(seed: u64) -> Self {
            Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
        }
        fn next_u64(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            self.0 = x;
            x.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        /// Uniform in [0, 1).
        fn unif(&mut self) -> f64 {
            (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
        }
        fn range(&mut self, a: f64, b: f64) -> f64 {
            a + (b - a) * self.unif()
        }
        fn below(&mut self, k: u64) -> u64 {
            self.next_u64() % k
        }
    }

    /// Random SPD `B Bᵀ + δ I`, scaled.
    fn random_spd(rng: &mut Rng, n: usize, scale: f64) -> DMatrix<f64> {
        let b = DMatrix::from_fn(n, n, |_, _| rng.range(-1.0, 1.0));
        let mut a = &b * b.transpose();
        let delta = rng.range(0.05, 0.5);
        for i in 0..n {
            a[(i, i)] += delta;
        }
        symmetrize(&mut a);
        a * scale
    }

    fn symmetrize(a: &mut DMatrix<f64>) {
        let n = a.nrows();
        for i in 0..n {
            for j in 0..i {
                let v = 0.5 * (a[(i, j)] + a[(j, i)]);
                a[(i, j)] = v;
                a[(j, i)] = v;
            }
        }
    }

    /// Random bounds of every kind, with λ scale `ls`.
    fn random_bounds(rng: &mut Rng, n: usize, ls: f64, allow_zero_width: bool) -> (Vec<f64>, Vec<f64>) {
        let mut lo = vec![0.0; n];
        let mut hi = vec![0.0; n];
        for i in 0..n {
            let kinds = if allow_zero_width { 7 } else { 6 };
            let (l, h) = match rng.below(kinds) {
                0 => (-INF, INF),
                1 => (0.0, INF),
                2 => {
                    let c = rng.range(0.05, 1.0) * ls;
                    (-c, c)
                }
                3 => (-rng.range(0.0, 1.0) * ls, rng.range(0.0, 1.0) * ls),
                4 => (-INF, rng.range(0.0, 1.0) * ls),
                5 => (0.0, rng.range(0.05, 1.0) * ls),
                _ => (0.0, 0.0),
            };
            lo[i] = l;
            hi[i] = h;
        }
        (lo, hi)
    }

    fn max_abs(v: &[f64]) -> f64 {
        v.iter().fold(0.0_f64, |m, x| m.max(x.abs()))
    }

    /// All solutions found by enumerating the 3^n index assignments
    /// (clamped / at lo / at hi) and solving the clamped subsystem.
    fn brute_force(a: &DMatrix<f64>, q: &[f64], lo: &[f64], hi: &[f64]) -> Vec<Vec<f64>> {
        let n = q.len();
        let total = 3usize.pow(n as u32);
        let mut found = Vec::new();
        let mut lam = vec![0.0; n];
        let mut kind = vec![0u8; n];
        'outer: for code in 0..total {
            let mut c = code;
            let mut clamped = Vec::new();
            for i in 0..n {
                kind[i] = (c % 3) as u8;
                c /= 3;
                match kind[i] {
                    0 => {
                        if lo[i] == hi[i] {
                            continue 'outer;
                        }
                        clamped.push(i);
                    }
                    1 => {
                        if !lo[i].is_finite() {
                            continue 'outer;
                        }
                        lam[i] = lo[i];
                    }
                    _ => {
                        if !hi[i].is_finite() || lo[i] == hi[i] {
                            continue 'outer;
                        }
                        lam[i] = hi[i];
                    }
                }
            }
            let m = clamped.len();
            if m > 0 {
                let sub = DMatrix::from_fn(m, m, |r, s| a[(clamped[r], clamped[s])]);
                let rhs = nalgebra::DVector::from_fn(m, |r, _| {
                    let i = clamped[r];
                    let mut v = -q[i];
                    for j in 0..n {
                        if kind[j] != 0 {
                            v -= a[(i, j)] * lam[j];
                        }
                    }
                    v
                });
                let Some(x) = sub.lu().solve(&rhs) else { continue };
                for r in 0..m {
                    lam[clamped[r]] = x[r];
                }
            }
            if check_solution(a, q, lo, hi, &lam, 1e-10).is_ok() {
                found.push(lam.clone());
            }
        }
        found
    }

    fn solve(a: &DMatrix<f64>, q: &[f64], lo: &[f64], hi: &[f64]) -> LcpSolution {
        let mut work = LcpWork::new();
        let sol = solve_box_lcp(a, q, lo, hi, &mut work).expect("solver failed");
        check_solution(a, q, lo, hi, &sol.lambda, 1e-9).expect("solution check failed");
        sol
    }

    #[test]
    fn friction_1d_closed_form_13_masses() {
        let n = 13;
        let a = DMatrix::<f64>::identity(n, n);
        let q = vec![-1.0; n];
        let lo = vec![-0.5; n];
        let hi = vec![0.5; n];
        let sol = solve(&a, &q, &lo, &hi);
        for i in 0..n {
            assert_eq!(sol.lambda[i], 0.5);
            assert_eq!(sol.w[i], -0.5);
        }
        assert_eq!(sol.pivots, n);
        let mut work = LcpWork::new();
        solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
        assert!(work.states().iter().all(|s| *s == LcpIndexState::AtUpper));
        // Below capacity: every mass sticks, λ = 1, w = 0.
        let hi2 = vec![2.0; n];
        let lo2 = vec![-2.0; n];
        let sol = solve(&a, &q, &lo2, &hi2);
        assert!(sol.lambda.iter().all(|&l| (l - 1.0).abs() < 1e-15));
        assert!(sol.w.iter().all(|&w| w.abs() < 1e-15));
    }

    #[test]
    fn single_index_cases() {
        let a = DMatrix::from_row_slice(1, 1, &[2.0]);
        let s = solve(&a, &[-1.0], &[-INF], &[INF]);
        assert!((s.lambda[0] - 0.5).abs() < 1e-15 && s.w[0].abs() < 1e-15);
        let s = solve(&a, &[1.0], &[0.0], &[INF]);
        assert_eq!((s.lambda[0], s.w[0]), (0.0, 1.0));
        let s = solve(&a, &[1.0], &[-0.1], &[INF]);
        assert_eq!(s.lambda[0], -0.1);
        assert!((s.w[0] - 0.8).abs() < 1e-15);
        let s = solve(&a, &[-4.0], &[0.0], &[1.0]);
        assert_eq!((s.lambda[0], s.w[0]), (1.0, -2.0));
        // Zero-width box: λ = 0, w free.
        let s = solve(&a, &[-4.0], &[0.0], &[0.0]);
        assert_eq!((s.lambda[0], s.w[0], s.pivots), (0.0, -4.0, 0));
    }

    #[test]
    fn empty_problem() {
        let a = DMatrix::<f64>::zeros(0, 0);
        let s = solve_box_lcp(&a, &[], &[], &[], &mut LcpWork::new()).unwrap();
        assert!(s.lambda.is_empty() && s.w.is_empty());
        assert_eq!(s.pivots, 0);
    }

    #[test]
    fn random_spd_matches_brute_force() {
        let mut count = 0;
        let mut total_pivots = 0;
        for n in 1..=10usize {
            let seeds: u64 = match n {
                1..=4 => 400,
                5..=6 => 150,
                7 => 60,
                8 => 20,
                _ => 6,
            };
            for seed in 0..seeds {
                let mut rng = Rng::new(1000 * n as u64 + seed);
                let a_scale = 10f64.powi(rng.below(7) as i32 - 3);
                let q_scale = 10f64.powi(rng.below(7) as i32 - 3);
                let a = random_spd(&mut rng, n, a_scale);
                let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0) * q_scale).collect();
                let (lo, hi) = random_bounds(&mut rng, n, q_scale / a_scale, true);
                let mut work = LcpWork::new();
                let sol = solve_box_lcp(&a, &q, &lo, &hi, &mut work)
                    .unwrap_or_else(|e| panic!("n={n} seed={seed}: {e}"));
                check_solution(&a, &q, &lo, &hi, &sol.lambda, 1e-10)
                    .unwrap_or_else(|e| panic!("n={n} seed={seed}: {e}"));
                let bf = brute_force(&a, &q, &lo, &hi);
                assert!(!bf.is_empty(), "n={n} seed={seed}: brute force found nothing");
                let scale = max_abs(&bf[0]).max(q_scale / a_scale);
                for other in &bf {
                    for i in 0..n {
                        assert!(
                            (sol.lambda[i] - other[i]).abs() <= 1e-9 * scale,
                            "n={n} seed={seed} i={i}: solver {} brute force {}",
                            sol.lambda[i],
                            other[i]
                        );
                    }
                }
                count += 1;
                total_pivots += sol.pivots;
            }
        }
        eprintln!("random SPD vs brute force: {count} problems, {total_pivots} pivots");
    }

    /// Duplicates index 0 as a new last index (two contacts holding the same
    /// body): `A` becomes singular PSD.
    fn duplicate_first(
        a: &DMatrix<f64>,
        q: &[f64],
        lo: &[f64],
        hi: &[f64],
    ) -> (DMatrix<f64>, Vec<f64>, Vec<f64>, Vec<f64>) {
        let n = q.len();
        let map = |i: usize| if i == n { 0 } else { i };
        let a2 = DMatrix::from_fn(n + 1, n + 1, |i, j| a[(map(i), map(j))]);
        let mut q2 = q.to_vec();
        q2.push(q[0]);
        let mut lo2 = lo.to_vec();
        lo2.push(lo[0]);
        let mut hi2 = hi.to_vec();
        hi2.push(hi[0]);
        (a2, q2, lo2, hi2)
    }

    #[test]
    fn duplicated_contacts_match_merged_contact() {
        // Splitting one contact into two identical ones with the same boxes
        // is the merged contact with doubled box: w must agree, λ0 + λn must
        // equal the merged λ0.
        let mut checked = 0;
        for seed in 0..300u64 {
            let mut rng = Rng::new(77_000 + seed);
            let n = 1 + rng.below(6) as usize;
            let a = random_spd(&mut rng, n, 1.0);
            let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
            let (lo, hi) = random_bounds(&mut rng, n, 1.0, false);
            let (a2, q2, lo2, hi2) = duplicate_first(&a, &q, &lo, &hi);
            let mut lo_m = lo.clone();
            let mut hi_m = hi.clone();
            lo_m[0] *= 2.0;
            hi_m[0] *= 2.0;
            let merged = solve(&a, &q, &lo_m, &hi_m);
            let mut work = LcpWork::new();
            let dup =
                solve_box_lcp(&a2, &q2, &lo2, &hi2, &mut work).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            check_solution(&a2, &q2, &lo2, &hi2, &dup.lambda, 1e-9)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let scale = 1.0 + max_abs(&merged.lambda);
            for i in 0..n {
                assert!((dup.w[i] - merged.w[i]).abs() <= 1e-9 * scale, "seed {seed} w[{i}]");
            }
            assert!((dup.w[n] - merged.w[0]).abs() <= 1e-9 * scale);
            assert!((dup.lambda[0] + dup.lambda[n] - merged.lambda[0]).abs() <= 1e-9 * scale);
            for i in 1..n {
                assert!((dup.lambda[i] - merged.lambda[i]).abs() <= 1e-9 * scale);
            }
            checked += 1;
        }
        assert_eq!(checked, 300);
    }

    #[test]
    fn ascending_order_rule_for_redundant_contacts() {
        // Two friction contacts on one body (capacity 0.5 each) pushed by 0.7:
        // index 0 takes its full capacity first, index 1 the rest.
        let a = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0]);
        let q = [-0.7, -0.7];
        let s = solve(&a, &q, &[-0.5, -0.5], &[0.5, 0.5]);
        assert_eq!(s.lambda[0], 0.5);
        assert!((s.lambda[1] - 0.2).abs() < 1e-15);
        assert!(s.w.iter().all(|w| w.abs() < 1e-15));
        // Bilateral duplicates: the first takes everything.
        let s = solve(&a, &q, &[-INF, -INF], &[INF, INF]);
        assert!((s.lambda[0] - 0.7).abs() < 1e-15 && s.lambda[1] == 0.0);
        // Unilateral duplicates.
        let s = solve(&a, &q, &[0.0, 0.0], &[INF, INF]);
        assert!((s.lambda[0] - 0.7).abs() < 1e-15 && s.lambda[1] == 0.0);
        // Bit-identical on repetition.
        let mut work = LcpWork::new();
        let s1 = solve_box_lcp(&a, &q, &[-0.5, -0.5], &[0.5, 0.5], &mut work).unwrap();
        let s2 = solve_box_lcp(&a, &q, &[-0.5, -0.5], &[0.5, 0.5], &mut work).unwrap();
        assert_eq!(s1, s2);
    }

    #[test]
    fn random_singular_psd_with_q_in_range() {
        // A = B Bᵀ with rank r < n, q = A r0 (so min ½λᵀAλ + qᵀλ is bounded
        // below and a solution exists for every box). λ need not be unique, w
        // is: the reversed problem must give the same w.
        let mut total_pivots = 0;
        for seed in 0..400u64 {
            let mut rng = Rng::new(5_000 + seed);
            let n = 2 + rng.below(9) as usize;
            let r = 1 + rng.below(n as u64 - 1) as usize;
            let b = DMatrix::from_fn(n, r, |_, _| rng.range(-1.0, 1.0));
            let mut a = &b * b.transpose();
            symmetrize(&mut a);
            let r0 = nalgebra::DVector::from_fn(n, |_, _| rng.range(-1.0, 1.0));
            let qv = &a * r0;
            let q: Vec<f64> = qv.iter().copied().collect();
            let (lo, hi) = random_bounds(&mut rng, n, 1.0, true);
            let mut work = LcpWork::new();
            let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work)
                .unwrap_or_else(|e| panic!("seed {seed} n {n} r {r}: {e}"));
            check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9)
                .unwrap_or_else(|e| panic!("seed {seed} n {n} r {r}: {e}"));
            total_pivots += s.pivots;
            // Reverse the index order.
            let p = |i: usize| n - 1 - i;
            let ar = DMatrix::from_fn(n, n, |i, j| a[(p(i), p(j))]);
            let qr: Vec<f64> = (0..n).map(|i| q[p(i)]).collect();
            let lor: Vec<f64> = (0..n).map(|i| lo[p(i)]).collect();
            let hir: Vec<f64> = (0..n).map(|i| hi[p(i)]).collect();
            let sr = solve_box_lcp(&ar, &qr, &lor, &hir, &mut work)
                .unwrap_or_else(|e| panic!("seed {seed} reversed: {e}"));
            check_solution(&ar, &qr, &lor, &hir, &sr.lambda, 1e-9).unwrap();
            let scale = 1.0 + max_abs(&q) + max_abs(&s.lambda) + max_abs(&sr.lambda);
            for i in 0..n {
                assert!(
                    (s.w[i] - sr.w[p(i)]).abs() <= 1e-8 * scale,
                    "seed {seed}: w[{i}] {} vs {}",
                    s.w[i],
                    sr.w[p(i)]
                );
            }
        }
        eprintln!("singular PSD: 400 problems, {total_pivots} pivots");
    }

    #[test]
    fn zero_rows_with_zero_width_boxes() {
        // Inactive contacts: zero rows/columns of A with zero-width boxes.
        let mut rng = Rng::new(42);
        let inner = random_spd(&mut rng, 4, 1.0);
        let keep = [0usize, 2, 3, 5];
        let mut a = DMatrix::zeros(6, 6);
        for (r, &i) in keep.iter().enumerate() {
            for (c, &j) in keep.iter().enumerate() {
                a[(i, j)] = inner[(r, c)];
            }
        }
        let q = [-0.3, 0.7, 0.2, -0.9, -0.4, 0.5];
        let lo = [-0.2, 0.0, 0.0, -INF, 0.0, -1.0];
        let hi = [0.2, 0.0, INF, INF, 0.0, 1.0];
        let s = solve(&a, &q, &lo, &hi);
        assert_eq!((s.lambda[1], s.w[1]), (0.0, 0.7));
        assert_eq!((s.lambda[4], s.w[4]), (0.0, -0.4));
        // Zero row with q = 0 and a real box: λ = 0 stays, w = 0 (dependent clamp).
        let a = DMatrix::from_row_slice(2, 2, &[0.0, 0.0, 0.0, 1.0]);
        let s = solve(&a, &[0.0, -1.0], &[-1.0, -1.0], &[1.0, 1.0]);
        assert_eq!(s.lambda, vec![0.0, 1.0]);
        assert_eq!(s.w, vec![0.0, 0.0]);
        // Zero row, q > 0, unilateral: stays at lo.
        let s = solve(&a, &[0.5, -1.0], &[0.0, -1.0], &[INF, 1.0]);
        assert_eq!(s.lambda, vec![0.0, 1.0]);
        // Zero row, q < 0 but finite box: goes to hi.
        let s = solve(&a, &[-0.5, -1.0], &[-3.0, -1.0], &[3.0, 1.0]);
        assert_eq!(s.lambda, vec![3.0, 1.0]);
    }

    #[test]
    fn q_zero_gives_zero() {
        let mut rng = Rng::new(3);
        let a = random_spd(&mut rng, 7, 1.0);
        let (lo, hi) = random_bounds(&mut rng, 7, 1.0, true);
        let s = solve(&a, &[0.0; 7], &lo, &hi);
        assert!(s.lambda.iter().all(|&l| l == 0.0));
        assert!(s.w.iter().all(|&w| w == 0.0));
        assert_eq!(s.pivots, 0);
    }

    #[test]
    fn exactly_at_a_bound() {
        // λ* = (hi0, interior) with w = 0 exactly: λ = hi and w = 0.
        let a = DMatrix::from_row_slice(2, 2, &[2.0, 0.5, 0.5, 1.0]);
        let lam = [0.5, -0.25];
        let q = [-(2.0 * lam[0] + 0.5 * lam[1]), -(0.5 * lam[0] + lam[1])];
        let lo = [-0.5, -1.0];
        let hi = [0.5, 1.0];
        let s = solve(&a, &q, &lo, &hi);
        assert!((s.lambda[0] - 0.5).abs() < 1e-15 && (s.lambda[1] + 0.25).abs() < 1e-15);
        assert!(s.w.iter().all(|w| w.abs() < 1e-15));
        // 1-D: exactly at capacity.
        let a = DMatrix::from_row_slice(1, 1, &[1.0]);
        let s = solve(&a, &[-0.5], &[-0.5], &[0.5]);
        assert_eq!((s.lambda[0], s.w[0]), (0.5, 0.0));
        // A clamped index driven exactly onto its bound by a later one.
        let a = DMatrix::from_row_slice(2, 2, &[1.0, -1.0, -1.0, 2.0]);
        // d=0 clamps λ0 = 0.2; d=1 pushes λ0 exactly to 1.0 where w1 = 0.
        let l1 = 0.8;
        let q = [-0.2, 1.0 - 2.0 * l1];
        let s = solve(&a, &q, &[-1.0, -INF], &[1.0, INF]);
        assert!((s.lambda[0] - 1.0).abs() < 1e-12 && (s.lambda[1] - l1).abs() < 1e-12);
    }

    #[test]
    fn infeasible_problems() {
        let a = DMatrix::from_row_slice(1, 1, &[0.0]);
        let e = solve_box_lcp(&a, &[-1.0], &[0.0], &[INF], &mut LcpWork::new()).unwrap_err();
        assert_eq!(e, LcpError::NoSolution { index: 0 });
        assert!(e.to_string().contains("no solution"));
        // Contradictory redundant bilateral constraints.
        let a = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0]);
        let e =
            solve_box_lcp(&a, &[-1.0, -2.0], &[-INF, -INF], &[INF, INF], &mut LcpWork::new()).unwrap_err();
        assert_eq!(e, LcpError::NoSolution { index: 1 });
        // Same with unilateral bounds is solvable: λ = (0, 2).
        let s = solve(&a, &[-1.0, -2.0], &[0.0, 0.0], &[INF, INF]);
        assert!(s.lambda[0].abs() < 1e-15 && (s.lambda[1] - 2.0).abs() < 1e-15);
    }

    #[test]
    fn indefinite_matrix_is_reported() {
        let a = DMatrix::from_row_slice(1, 1, &[-1.0]);
        let e = solve_box_lcp(&a, &[-1.0], &[0.0], &[INF], &mut LcpWork::new()).unwrap_err();
        assert!(matches!(e, LcpError::BadInput(_)), "{e:?}");
        let a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]);
        let e =
            solve_box_lcp(&a, &[-1.0, -1.0], &[-INF, -INF], &[INF, INF], &mut LcpWork::new()).unwrap_err();
        assert!(matches!(e, LcpError::BadInput(ref m) if m.contains("semi-definite")), "{e:?}");
    }

    /// Tridiagonal SPD (a chain of masses and springs): diag 2 + shift, off -1.
    fn tridiagonal(n: usize, shift: f64) -> DMatrix<f64> {
        DMatrix::from_fn(n, n, |i, j| {
            if i == j {
                2.0 + shift
            } else if i.abs_diff(j) == 1 {
                -1.0
            } else {
                0.0
            }
        })
    }

    #[test]
    fn large_tridiagonal_500() {
        let n = 500;
        let mut rng = Rng::new(500);
        let a = tridiagonal(n, 0.01);
        let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
        let (lo, hi) = random_bounds(&mut rng, n, 2.0, true);
        let mut work = LcpWork::new();
        let t0 = Instant::now();
        let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
        let dt = t0.elapsed();
        check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
        let clamped = work.states().iter().filter(|s| **s == LcpIndexState::Clamped).count();
        eprintln!("tridiagonal n=500: {} pivots, {clamped} clamped, {dt:?}", s.pivots);
        assert!(s.pivots <= 10 * n + 100);
    }

    #[test]
    fn large_sparse_random_200() {
        let n = 200;
        let mut rng = Rng::new(200);
        // Sparse B with 3 nonzeros per column: A = B Bᵀ + 0.01 I.
        let mut b = DMatrix::<f64>::zeros(n, n);
        for j in 0..n {
            for _ in 0..3 {
                let i = rng.below(n as u64) as usize;
                b[(i, j)] = rng.range(-1.0, 1.0);
            }
        }
        let mut a = &b * b.transpose();
        for i in 0..n {
            a[(i, i)] += 0.01;
        }
        symmetrize(&mut a);
        let nnz = a.iter().filter(|v| **v != 0.0).count();
        let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
        let (lo, hi) = random_bounds(&mut rng, n, 1.0, true);
        let mut work = LcpWork::new();
        let t0 = Instant::now();
        let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
        let dt = t0.elapsed();
        check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
        eprintln!("sparse random n=200 ({nnz} nonzeros): {} pivots, {dt:?}", s.pivots);
    }

    #[test]
    fn timings_report() {
        let mut work = LcpWork::new();
        for &n in &[10usize, 100] {
            let mut rng = Rng::new(n as u64);
            let a = random_spd(&mut rng, n, 1.0);
            let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
            let (lo, hi) = random_bounds(&mut rng, n, 0.1, false);
            let t0 = Instant::now();
            let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
            let dt = t0.elapsed();
            check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
            eprintln!("dense random SPD n={n}: {} pivots, {dt:?}", s.pivots);
        }
        let n = 500;
        let a = tridiagonal(n, 0.01);
        let mut rng = Rng::new(9);
        let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
        let lo = vec![-0.3; n];
        let hi = vec![0.3; n];
        let t0 = Instant::now();
        let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
        let dt = t0.elapsed();
        check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
        eprintln!("tridiagonal n=500, friction boxes ±0.3: {} pivots, {dt:?}", s.pivots);
        let lo = vec![-INF; n];
        let hi = vec![INF; n];
        let t0 = Instant::now();
        let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
        let dt = t0.elapsed();
        check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
        eprintln!("tridiagonal n=500, all bilateral: {} pivots, {dt:?}", s.pivots);
    }

    #[test]
    fn pivot_limit_reports_cycling() {
        let n = 13;
        let a = DMatrix::<f64>::identity(n, n);
        let mut work = LcpWork::new();
        work.set_pivot_limit(Some(5));
        let e = solve_box_lcp(&a, &vec![-1.0; n], &vec![-0.5; n], &vec![0.5; n], &mut work).unwrap_err();
        assert_eq!(e, LcpError::Cycling { pivots: 5 });
        assert!(e.to_string().contains("5 pivots"));
        work.set_pivot_limit(None);
        assert!(solve_box_lcp(&a, &vec![-1.0; n], &vec![-0.5; n], &vec![0.5; n], &mut work).is_ok());
    }

    #[test]
    fn workspace_reuse_does_not_grow() {
        let mut rng = Rng::new(11);
        let n = 30;
        let mut work = LcpWork::with_capacity(n);
        let caps = |w: &LcpWork| {
            (
                w.state.capacity(),
                w.lambda.capacity(),
                w.fac.capacity(),
                w.cf.capacity(),
                w.cz.capacity(),
                w.rhs.capacity(),
                w.dl.capacity(),
                w.dw.capacity(),
            )
        };
        let before = caps(&work);
        let mut first = None;
        for k in 0..5 {
            let mut r2 = Rng::new(11);
            let a = random_spd(&mut r2, n, 1.0);
            let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
            let (lo, hi) = random_bounds(&mut r2, n, 0.5, true);
            let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
            check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
            assert_eq!(caps(&work), before, "workspace grew on call {k}");
            if k == 0 {
                first = Some((a, q, lo, hi, s));
            }
        }
        // Same input, reused workspace: bit-identical result.
        let (a, q, lo, hi, s0) = first.unwrap();
        let s1 = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
        assert_eq!(s0, s1);
        // A smaller problem in the same workspace still works.
        let small = DMatrix::from_row_slice(1, 1, &[1.0]);
        let s = solve_box_lcp(&small, &[-2.0], &[-1.0], &[1.0], &mut work).unwrap();
        assert_eq!(s.lambda, vec![1.0]);
    }

    #[test]
    fn bad_input_is_rejected() {
        let mut work = LcpWork::new();
        let a2 = DMatrix::<f64>::identity(2, 2);
        let ok = [0.0, 0.0];
        let bad = |a: &DMatrix<f64>, q: &[f64], lo: &[f64], hi: &[f64], work: &mut LcpWork, what: &str| {
            match solve_box_lcp(a, q, lo, hi, work) {
                Err(LcpError::BadInput(m)) => {
                    assert!(m.contains(what), "message {m:?} should mention {what:?}");
                    let e = LcpError::BadInput(m);
                    assert!(e.to_string().starts_with("invalid contact problem"));
                }
                other => panic!("expected BadInput for {what}, got {other:?}"),
            }
        };
        bad(&DMatrix::zeros(2, 3), &ok, &ok, &ok, &mut work, "not square");
        bad(&a2, &[0.0], &ok, &ok, &mut work, "q has length 1");
        bad(&a2, &ok, &[0.0; 3], &ok, &mut work, "lo has length 3");
        bad(&a2, &ok, &ok, &[0.0], &mut work, "hi has length 1");
        let mut an = a2.clone();
        an[(0, 1)] = f64::NAN;
        bad(&an, &ok, &ok, &ok, &mut work, "A[(0, 1)]");
        let mut ai = a2.clone();
        ai[(1, 1)] = INF;
        bad(&ai, &ok, &ok, &ok, &mut work, "not a finite");
        bad(&a2, &[0.0, f64::NAN], &ok, &ok, &mut work, "q[1]");
        bad(&a2, &ok, &[0.0, 0.1], &ok, &mut work, "lo[1]");
        bad(&a2, &ok, &[INF, 0.0], &ok, &mut work, "lo[0]");
        bad(&a2, &ok, &[f64::NAN, 0.0], &ok, &mut work, "lo[0]");
        bad(&a2, &ok, &ok, &[-0.1, 0.0], &mut work, "hi[0]");
        bad(&a2, &ok, &ok, &[0.0, -INF], &mut work, "hi[1]");
        bad(&a2, &ok, &ok, &[0.0, f64::NAN], &mut work, "hi[1]");
        let asym = DMatrix::from_row_slice(2, 2, &[1.0, 0.5, 0.4, 1.0]);
        bad(&asym, &ok, &ok, &ok, &mut work, "not symmetric");
        let negd = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, -1.0]);
        bad(&negd, &ok, &ok, &ok, &mut work, "semi-definite");
        // check_solution rejects mismatched and wrong answers too.
        assert!(check_solution(&a2, &ok, &ok, &ok, &[0.0], 1e-9).is_err());
        let q = [-1.0, 1.0];
        let lo = [-INF, 0.0];
        let hi = [INF, INF];
        assert!(check_solution(&a2, &q, &lo, &hi, &[1.0, 0.0], 1e-9).is_ok());
        assert!(check_solution(&a2, &q, &lo, &hi, &[0.9, 0.0], 1e-9).is_err());
        assert!(check_solution(&a2, &q, &lo, &hi, &[1.0, -0.1], 1e-9).is_err());
        assert!(check_solution(&a2, &q, &lo, &hi, &[1.0, 0.1], 1e-9).is_err());
    }
}
