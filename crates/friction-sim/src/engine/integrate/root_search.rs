//! The first event root within a step, located on the step's dense output
//! by diffsol's method (`RootFinder::check_root`: the modified secant
//! method of SUNDIALS' CVODE), for the engine's own one-step methods
//! ([`crate::engine::integrate::radau`], [`crate::engine::integrate::dop853`]).

use crate::engine::network::Engine;

/// The root functions at the last step's start and end and the search's
/// buffers, allocated once.
#[derive(Default)]
pub(crate) struct RootSearch {
    /// the roots at the start of the next step (after [`RootSearch::check`]:
    /// at the end of the last one)
    pub g0: Vec<f64>,
    g1: Vec<f64>,
    gmid: Vec<f64>,
    ymid: Vec<f64>,
}

impl RootSearch {
    /// Buffers for `nroots` root functions of a state of `n` values.
    pub(crate) fn new(nroots: usize, n: usize) -> Self {
        RootSearch {
            g0: vec![0.0; nroots],
            g1: vec![0.0; nroots],
            gmid: vec![0.0; nroots],
            ymid: vec![0.0; n],
        }
    }

    /// The first root of the events in the step from `t_prev` to `t` (state
    /// `y` at its end, `dense` its dense output), as `(time, index)`; `g0`
    /// becomes the roots at the step's end.
    pub(crate) fn check(
        &mut self,
        eng: &Engine<'_>,
        t_prev: f64,
        t: f64,
        y: &[f64],
        dense: impl Fn(f64, &mut [f64]),
    ) -> Option<(f64, usize)> {
        if self.g0.is_empty() {
            return None;
        }
        eng.roots(t, y, &mut self.g1);
        let (found, imax) = sign_change(&self.g0, &self.g1);
        let Some(mut imax) = imax else {
            std::mem::swap(&mut self.g0, &mut self.g1);
            return if found {
                let idx = (0..self.g0.len()).min_by(|&a, &b| self.g0[a].abs().total_cmp(&self.g0[b].abs()));
                idx.map(|i| (t, i))
            } else {
                None
            };
        };
        let mut alpha = 1.0;
        let mut sign_change_hist = [false, true];
        let mut i = 0;
        let mut t1 = t;
        let mut t0 = t_prev;
        let tol = 100.0 * f64::EPSILON * (t1.abs() + (t1 - t0).abs());
        let mut g1 = std::mem::take(&mut self.g1);
        let mut g0 = std::mem::take(&mut self.g0);
        let mut gmid = std::mem::take(&mut self.gmid);
        let mut ymid = std::mem::take(&mut self.ymid);
        let mut result = None;
        while (t1 - t0).abs() > tol {
            let (g1v, g0v) = (g1[imax], g0[imax]);
            let mut t_mid = t1 - (t1 - t0) * g1v / (g1v - alpha * g0v);
            if (t_mid - t0).abs() < 0.5 * tol {
                let fracint = (t1 - t0).abs() / tol;
                let fracsub = if fracint > 5.0 { 0.1 } else { 0.5 / fracint };
                t_mid = t0 + fracsub * (t1 - t0);
            }
            if (t1 - t_mid).abs() < 0.5 * tol {
                let fracint = (t1 - t0).abs() / tol;
                let fracsub = if fracint > 5.0 { 0.1 } else { 0.5 / fracint };
                t_mid = t1 - fracsub * (t1 - t0);
            }
            dense(t_mid, &mut ymid);
            eng.roots(t_mid, &ymid, &mut gmid);
            let (found_mid, imax_mid) = sign_change(&g0, &gmid);
            let lower = imax_mid.is_some();
            if let Some(k) = imax_mid {
                t1 = t_mid;
                imax = k;
                std::mem::swap(&mut g1, &mut gmid);
            } else if found_mid {
                result = Some((t_mid, imax));
                break;
            } else {
                t0 = t_mid;
                std::mem::swap(&mut g0, &mut gmid);
            }
            sign_change_hist[i % 2] = lower;
            if i >= 2 {
                alpha = if sign_change_hist[0] != sign_change_hist[1] {
                    1.0
                } else if sign_change_hist[0] {
                    0.5 * alpha
                } else {
                    2.0 * alpha
                };
            }
            i += 1;
        }
        // the roots at the step's end, for the next step
        eng.roots(t, y, &mut g0);
        self.g0 = g0;
        self.g1 = g1;
        self.gmid = gmid;
        self.ymid = ymid;
        Some(result.unwrap_or((t1, imax)))
    }
}

/// diffsol's `Vector::root_finding`: whether some `g1` is exactly zero, and
/// the index of the sign change whose zero lies closest to the end.
///
/// A function exactly zero at both ends is no root (diffsol counts any zero
/// at the end): a body resting exactly at its free stop's limit in a stuck
/// group has the stop's root at 0.0 all along, and every trial point of the
/// search then ended it there, 2.2 ms before the crossing it was locating
/// (issue 50, seed 4588: a contact was turned to slide forward while it
/// still slid backward at 2.6e-4 m/s).
fn sign_change(g0: &[f64], g1: &[f64]) -> (bool, Option<usize>) {
    let mut found = false;
    let mut frac = 0.0;
    let mut idx = None;
    for (i, (&a, &b)) in g0.iter().zip(g1).enumerate() {
        if b == 0.0 && a != 0.0 {
            found = true;
        }
        if a * b < 0.0 {
            let q = (b / (b - a)).abs();
            if q > frac {
                frac = q;
                idx = Some(i);
            }
        }
    }
    (found, idx)
}
