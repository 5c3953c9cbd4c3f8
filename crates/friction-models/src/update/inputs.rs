//! The check every batch update makes of its motion inputs, in one and two
//! tangential directions: a positive finite step, finite slip increments
//! whose slip speed |Δu|/dt does not overflow, finite non-negative normal
//! loads.
//!
//! One branch-free pass per array (over rayon's pool when `par`); the
//! culprit is looked up only on failure, so the check costs a small fraction
//! of the update itself.

use super::UpdateError;

/// Check `dt`, the slip increments `du` (`D` components per contact,
/// interleaved) and the normal loads of `normal.len()` contacts; the
/// lengths are the caller's to check first.
pub(super) fn check_motion<const D: usize>(
    dt: f64,
    du: &[f64],
    normal: &[f64],
    par: bool,
) -> Result<(), UpdateError> {
    debug_assert_eq!(du.len(), D * normal.len());
    if !(dt.is_finite() && dt > 0.0) {
        return Err(UpdateError::Step { dt });
    }
    let max_du = f64::MAX * dt;
    // in the plane |u| <= sqrt(2) max(|ux|, |uy|): below `bound` in every
    // component the slip speed cannot overflow (the exact test, with hypot,
    // is the look-up's); NaN fails every comparison
    let bound = if D == 1 { max_du } else { 0.7 * max_du };
    let du_ok =
        |du: &[f64]| du.iter().fold(true, |ok, &u| ok & (u.abs() <= bound) & (u.abs() < f64::INFINITY));
    let normal_ok =
        |normal: &[f64]| normal.iter().fold(true, |ok, &nf| ok & (0.0..f64::INFINITY).contains(&nf));
    #[cfg(feature = "rayon")]
    let ok = if par {
        use rayon::prelude::*;
        du.par_chunks(CHUNK).all(du_ok) && normal.par_chunks(CHUNK).all(normal_ok)
    } else {
        du_ok(du) && normal_ok(normal)
    };
    #[cfg(not(feature = "rayon"))]
    let ok = {
        let _ = par;
        du_ok(du) && normal_ok(normal)
    };
    if ok {
        return Ok(());
    }
    for (i, (u, &nf)) in du.chunks_exact(D).zip(normal).enumerate() {
        for &c in u {
            if !c.is_finite() {
                return Err(UpdateError::NonFinite { contact: i, argument: "slip_increment", value: c });
            }
        }
        let speed = if D == 1 { u[0].abs() } else { u.iter().fold(0.0, |s: f64, &c| s.hypot(c)) };
        if speed > max_du {
            let argument = if D == 1 {
                "slip velocity slip_increment / dt"
            } else {
                "slip velocity |slip_increment| / dt"
            };
            return Err(UpdateError::NonFinite {
                contact: i,
                argument,
                value: if D == 1 { u[0] / dt } else { speed / dt },
            });
        }
        if !nf.is_finite() {
            return Err(UpdateError::NonFinite { contact: i, argument: "normal", value: nf });
        }
        if nf < 0.0 {
            return Err(UpdateError::NegativeNormal { contact: i, value: nf });
        }
    }
    Ok(())
}

/// Values per parallel chunk of the check.
#[cfg(feature = "rayon")]
const CHUNK: usize = 8192;
