//! Where a frequency response with gaps stops near grazing: the branch
//! traced again with more samples per period, and the first point of a
//! branch found from fewer harmonics. Both are taken only where the plain
//! path fails, so a response that succeeded before is the same bit for bit.

use super::super::budget::{check, largest, Limits};
use super::{branch, phases, samples_for, solve_with, FrfOptions, FrfPoint};
use crate::structure::Structure;
use friction_analysis::AnalysisError;

/// The periodic motion at `f_min` and `h` harmonics from the rest, and with
/// gaps, where that fails, from the motion at `h / 2` harmonics (itself
/// found so): measured on a stop of zero clearance lightly damped
/// (`bench/hb/sdof_gap.toml` with 2 N s/m and length 0), Newton's method
/// from the rest on the stop failed at 10 Hz for H = 6 and 1024 samples
/// (residual 0.45 of the force) and converged from the motion at H = 3.
pub(super) fn start(s: &Structure, opts: &FrfOptions, h: usize) -> Result<Vec<f64>, AnalysisError> {
    match solve_with(s, opts, opts.f_min, h, None) {
        Err(e) if !s.gaps.is_empty() && h > 1 => match start(s, opts, h / 2) {
            Ok(guess) => solve_with(s, opts, opts.f_min, h, Some(&guess)).map_err(|_| e),
            Err(_) => Err(e),
        },
        r => r,
    }
}

/// Most samples per period that [`resolved_branch`] doubles to.
const MOST_GRAZING_SAMPLES: usize = 4096;

/// [`branch`], and where a branch with gaps (or contacts loaded by them)
/// stops, the same branch again with the samples per period doubled (each
/// estimate checked against `limits`) until it reaches `f_max` or
/// [`MOST_GRAZING_SAMPLES`]; `opts.samples` keeps the count that reached it,
/// for the rest of the response (its H -> 2H check, its stability). A
/// branch that reaches `f_max` the first time is the same as before.
///
/// Why more samples, not a smoothed law or a damped Newton (measured):
/// the sampled residual switches a gap's whole penalty share at one time
/// sample on or off as that sample enters or leaves contact, a jump of its
/// Jacobian of `k_gap / N` that near grazing, and near a resonance, is as
/// large as what is left of the dynamic stiffness. The branch of the
/// sampled problem then turns by a finite angle at each such switch: on
/// `examples/coupled_joint.toml` at 20 N and 256 samples its points piled
/// up at 16.3535 Hz with the step halved to 1e-8 of the range, the
/// corrector either cycling with period 2 to 4 (its residual alternating
/// 6e-9, 4.6e-5, 4.1e-6, 6e-9, ...: Newton jumps between the linearisations
/// of two sets of samples in contact and neither's root lies in its own
/// set) or converging 21 to 23 steps away from its predictor (a turn of
/// 87°; refused, as a point off the branch would be). Turning such corners
/// exactly (the next piece's tangent oriented by the sign of the bordered
/// Jacobian's determinant; tried, not kept) went round a loop of folds
/// between 14.97 and 16.35 Hz, which the branch at 512 samples, held to
/// the engine there (`tests/hb_grazing.rs`), does not have. Halving `k_gap / N`
/// shrinks the corners: at 512 samples the same branch reaches 120 Hz; on
/// `bench/hb/sdof_gap.toml` at zero clearance and 2 N s/m (one sample's
/// share 390 N/m against c ω = 308 N/m at the peak, 24.46 Hz) the branch
/// stopped at 24.49 Hz at 256 samples, 24.42 Hz at 512, and reached 35 Hz
/// at 1024.
pub(super) fn resolved_branch(
    s: &Structure,
    opts: &mut FrfOptions,
    h: usize,
    limits: &Limits,
) -> Result<(Vec<FrfPoint>, usize), AnalysisError> {
    loop {
        match branch(s, opts, h) {
            Err(_) if !s.gaps.is_empty() && samples_for(opts, h) < MOST_GRAZING_SAMPLES => {
                opts.samples = Some(2 * samples_for(opts, h));
                check("friction frf", s, &largest(s, &phases(s, opts, h), limits), limits)?;
            }
            Err(AnalysisError::Model(m)) if !s.gaps.is_empty() => {
                return Err(AnalysisError::Model(format!(
                    "{m}; with the samples per period doubled up to {}",
                    samples_for(opts, h)
                )))
            }
            r => return r,
        }
    }
}
