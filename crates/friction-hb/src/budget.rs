//! The work and memory of a harmonic-balance solve, estimated from its
//! sizes before anything is allocated, and refused past a limit with the
//! figures and the option that raises it.
//!
//! ```text
//! L  = 2H + 1               coefficients per body
//! n  = bodies × L           unknowns
//! N  = samples per period   (at least L)
//! memory ≈ 8 bytes × ( 2 (H + 1) N + 3 L N + 4 N        the grid's tables, basis, perturbations,
//!                                                        analysis matrix, Masing walk
//!                    + contacts × N (8 + 3 + 3 s + s²)  each contact's AFT and tangent (s states)
//!                    + 4 (n + 1)²                        Jacobian, bordered matrix and its LU
//!                    + points × n )                      the branch's points kept
//! work per Newton iteration ≈ 2/3 (n + 1)³              the LU
//!                    + contacts × L × 2 L N              each contact's columns of the Jacobian
//!                    (+ (n + 1) × contacts × 2 L N       the forward differences of a `coulomb` contact)
//! ```
//!
//! The largest phase counts: a frequency response traces its branch at H
//! and checks it at 2H (with `--harmonics` unset, H doubles up to 32, so the
//! check reaches 64), and keeps two problems at once where the branch
//! crosses an end of the range; its stability needs the Floquet work arrays.
//! The figures are estimates of the arrays' sizes (within a small factor of
//! the process's peak), meant to refuse the impossible before it starts,
//! not to bound the process to the byte.
//!
//! Limits (defaults [`DEFAULT_MAX_MEMORY`] and [`DEFAULT_MAX_WORK`]):
//! `friction frf` and `friction nnm` raise them with `--max-memory BYTES`
//! and `--max-work OPERATIONS`. The frequency range of a response is
//! refused outside [`MIN_FREQUENCY`, `MAX_FREQUENCY`] Hz or wider than
//! [`MAX_FREQUENCY_RATIO`].

use friction_models::{Family, FrictionModel};

use super::aft::is_masing;
use super::dlft::is_dlft;
use super::structure::Structure;
use friction_analysis::AnalysisError;

/// The default limit of a solve's work arrays: 4 GiB (the default of a
/// run's `max_output_bytes` too).
pub const DEFAULT_MAX_MEMORY: f64 = 4.0 * 1024.0 * 1024.0 * 1024.0;

/// The default limit of the operations of one Newton iteration: 1e11
/// (about a minute at 2 × 10^9 operations per second; a branch takes
/// hundreds of points of a few iterations each).
pub const DEFAULT_MAX_WORK: f64 = 1e11;

/// The lowest frequency a response may start at \[Hz\].
pub const MIN_FREQUENCY: f64 = 1e-6;

/// The highest frequency a response may reach \[Hz\].
pub const MAX_FREQUENCY: f64 = 1e9;

/// The widest range of a response, `f_max / f_min` (six decades: the
/// continuation's steps are fractions of the range).
pub const MAX_FREQUENCY_RATIO: f64 = 1e6;

/// The limits of one solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Most bytes of work arrays (`--max-memory`).
    pub max_memory: f64,
    /// Most operations of one Newton iteration (`--max-work`).
    pub max_work: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_memory: DEFAULT_MAX_MEMORY, max_work: DEFAULT_MAX_WORK }
    }
}

impl Limits {
    /// Refuse limits that are not numbers > 0, naming the option.
    pub fn check(&self) -> Result<(), AnalysisError> {
        for (name, v) in [("--max-memory", self.max_memory), ("--max-work", self.max_work)] {
            if v.is_nan() || v <= 0.0 {
                return Err(AnalysisError::Model(format!(
                    "{name} = {v} is out of range; valid range (0, inf]"
                )));
            }
        }
        Ok(())
    }
}

/// The sizes of one phase of a solve and what it needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Which phase of the solve this is (`"the branch"`, `"the H -> 2H check"`, ...).
    pub phase: &'static str,
    /// Harmonics H of the largest phase.
    pub harmonics: usize,
    /// Samples per period N of that phase.
    pub samples: usize,
    /// Unknowns n = bodies × (2H + 1).
    pub unknowns: usize,
    /// Bytes of work arrays.
    pub bytes: f64,
    /// Operations of one Newton iteration.
    pub work: f64,
}

/// What a solve keeps besides its problem.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Phase {
    /// What it is, for the message.
    pub label: &'static str,
    /// Harmonics.
    pub h: usize,
    /// Samples per period (before raising to 2H + 1).
    pub n: usize,
    /// Problems held at once (2 where a branch's end is solved again).
    pub problems: usize,
    /// Points of the result kept (each with its n coefficients).
    pub points: usize,
    /// Whether the Floquet work arrays are allocated.
    pub floquet: bool,
}

/// The estimate of one phase of a solve of `s`.
pub(crate) fn estimate(s: &Structure, ph: Phase) -> Estimate {
    let h = ph.h as f64;
    let l = 2.0 * h + 1.0;
    let n = (ph.n as f64).max(l);
    let d = s.dofs() as f64;
    let nn = d * l;
    let mut per_problem = 2.0 * (h + 1.0) * n + 3.0 * l * n + 4.0 * n + l * l + 3.0 * nn;
    let mut jac_cols = 0.0;
    let mut dlft = false;
    let mut tangents = 0.0;
    for c in &s.contacts {
        let ns =
            if c.model.info().family == Family::ContinuousState { c.model.n_states() as f64 } else { 0.0 };
        let tangent = n * (3.0 + 3.0 * ns + ns * ns) + n / 8.0;
        per_problem += 4.0 * n + if is_masing(&c.model) { tangent } else { 0.0 };
        if is_dlft(&c.model) {
            per_problem += 4.0 * n;
            dlft = true;
        }
        tangents += tangent;
        jac_cols += l * 2.0 * l * n;
    }
    let eval = s.contacts.len() as f64 * 2.0 * l * n + d * d * l;
    let mut floats = ph.problems as f64 * per_problem + 4.0 * (nn + 1.0) * (nn + 1.0) + ph.points as f64 * nn;
    if ph.floquet {
        let m = 2.0 * d + s.contacts.len() as f64 * 2.0;
        floats += tangents + 7.0 * m * m;
    }
    let lu = 2.0 / 3.0 * (nn + 1.0).powi(3);
    let work = lu + if dlft { (nn + 1.0) * eval } else { jac_cols + eval };
    Estimate {
        phase: ph.label,
        harmonics: ph.h,
        samples: n as usize,
        unknowns: nn as usize,
        bytes: 8.0 * floats,
        work,
    }
}

/// The largest of the phases' estimates (by the share of its limit).
pub(crate) fn largest(s: &Structure, phases: &[Phase], limits: &Limits) -> Estimate {
    phases
        .iter()
        .map(|&p| estimate(s, p))
        .max_by(|a, b| {
            let share = |e: &Estimate| (e.bytes / limits.max_memory).max(e.work / limits.max_work);
            share(a).total_cmp(&share(b))
        })
        .unwrap_or(Estimate {
            phase: "nothing",
            harmonics: 0,
            samples: 0,
            unknowns: 0,
            bytes: 0.0,
            work: 0.0,
        })
}

/// Refuse a solve whose estimate exceeds `limits`, with the figures: what
/// (`friction frf`), the harmonics, samples, bodies and unknowns, the bytes
/// or operations, the limit and the options to lower or raise.
pub(crate) fn check(what: &str, s: &Structure, e: &Estimate, limits: &Limits) -> Result<(), AnalysisError> {
    limits.check()?;
    let sizes = format!(
        "{}: H = {} harmonics × N = {} samples per period, {} bodies × (2H + 1) = {} unknowns",
        e.phase,
        e.harmonics,
        e.samples,
        s.dofs(),
        e.unknowns
    );
    if e.bytes > limits.max_memory {
        return Err(AnalysisError::Model(format!(
            "{what}: harmonic balance ({sizes}) would need about {} of work arrays ({:.3e} bytes), more than \
             the limit --max-memory = {:.0} bytes ({}); lower --harmonics or --samples, or raise --max-memory",
            friction_sim::scenario::human_bytes(e.bytes),
            e.bytes,
            limits.max_memory,
            friction_sim::scenario::human_bytes(limits.max_memory),
        )));
    }
    if e.work > limits.max_work {
        return Err(AnalysisError::Model(format!(
            "{what}: harmonic balance ({sizes}) would need about {:.2e} operations per Newton iteration \
             (every point takes a few), more than the limit --max-work = {:.2e}; lower --harmonics or \
             --samples, or raise --max-work",
            e.work, limits.max_work
        )));
    }
    Ok(())
}

/// Refuse a frequency range outside [`MIN_FREQUENCY`, `MAX_FREQUENCY`] or
/// wider than [`MAX_FREQUENCY_RATIO`], naming the option and the value.
pub(crate) fn check_frequencies(f_min: f64, f_max: f64) -> Result<(), AnalysisError> {
    let bad = |m: String| Err(AnalysisError::Model(m));
    if !(MIN_FREQUENCY..=MAX_FREQUENCY).contains(&f_min) {
        return bad(format!(
            "--f-min = {f_min:e} is out of range; valid range [{MIN_FREQUENCY:e}, {MAX_FREQUENCY:e}] Hz"
        ));
    }
    if !(f_max.is_finite() && f_max > f_min) || f_max > MAX_FREQUENCY {
        return bad(format!(
            "--f-max = {f_max:e} is out of range; valid range ({f_min:e} (--f-min), {MAX_FREQUENCY:e}] Hz"
        ));
    }
    if f_max / f_min > MAX_FREQUENCY_RATIO {
        return bad(format!(
            "--f-max / --f-min = {f_max:e} / {f_min:e} = {:.3e} is out of range; valid: at most {MAX_FREQUENCY_RATIO:e} \
             (six decades: trace wider ranges in parts)",
            f_max / f_min
        ));
    }
    Ok(())
}
