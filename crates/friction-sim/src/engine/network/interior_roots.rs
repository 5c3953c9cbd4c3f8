//! Crossings inside an accepted step that its ends do not show: the root
//! functions of stuck contacts and stops sampled on the step's dense output,
//! dips between samples found by a parabola screen and by the slopes at an
//! interval's ends, and a crossing bisected to rounding (issue 50: the root
//! finders of diffsol and of the engine's own methods compare a step's ends
//! only).

use crate::engine::network::Engine;
use crate::engine::outcome::Mode;

impl Engine<'_> {
    /// A crossing that the ends of an accepted step from `t0` to `t1` do not
    /// show: a root of a contact or a stop (a stuck contact's capacity margin
    /// dipping below zero while its normal load falls, a stop's force
    /// turning to a pull, a body passing a stop's limit and back) that is
    /// negative inside the step though positive at both ends.
    /// The root functions are sampled at `INTERIOR` points of the step's
    /// dense output (`interp` fills the states at a time, false when it
    /// cannot) and a crossing is located by bisection to rounding; returns
    /// its time and root index, the step to be cut there like a root that the
    /// solver found. The root finder of diffsol (and of the engine's own
    /// methods) compares the ends of a step only.
    pub(crate) fn interior_crossing(
        &self,
        t0: f64,
        t1: f64,
        interp: &mut dyn FnMut(f64, &mut [f64]) -> bool,
    ) -> Option<(f64, usize)> {
        const INTERIOR: usize = 4;
        let watch = self.interior_watch();
        if watch == 0 || self.nroots == 0 || t1.partial_cmp(&t0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        {
            let d = self.disc.borrow();
            if d.rows.is_empty() && self.sys.stops.is_empty() && !self.disk_held(&d) {
                return None;
            }
        }
        // stuck contacts, stops and contacts held on a friction disk: a
        // sliding contact's arrival inside a step is `interior_arrival`'s
        // (integrate/interior.rs)
        let nc = self.sys.contacts.len();
        let nstop2 = 2 * self.sys.stops.len();
        let watched = |j: usize| self.interior_watched(j);
        // the engine's work arrays (no allocation per step once grown):
        // the states, the roots at a time, and the watched roots at the
        // step's start, its interior samples and its end
        let mut work = self.cross_work.borrow_mut();
        let [y, g, hist] = &mut *work;
        y.resize(self.n, 0.0);
        g.resize(self.nroots, 0.0);
        hist.resize((INTERIOR + 1) * watch, 0.0);
        let (y, g, hist) = (&mut y[..], &mut g[..], &mut hist[..]);
        let mut ts = [0.0; INTERIOR + 1];
        // root j at sample i
        let at = |i: usize, j: usize| i * watch + j;
        // the start, then the samples; the step's end too: a root that
        // starts the step at exactly zero (a stop just bounced on) shows the
        // solver's root finder no sign change when it ends the step negative
        for i in 0..=INTERIOR {
            let ti = match i {
                0 => t0,
                _ if i == INTERIOR => t1,
                _ => t0 + (t1 - t0) * i as f64 / INTERIOR as f64,
            };
            ts[i] = ti;
            if !self.sample_roots(ti, y, g, interp) {
                return None;
            }
            hist[at(i, 0)..at(i, 0) + watch].copy_from_slice(&g[..watch]);
            if i == 0 {
                continue;
            }
            let prev = ts[i - 1];
            let crosses = |j: usize| hist[at(i - 1, j)] > 0.0 && hist[at(i, j)] < 0.0 && watched(j);
            if (0..watch).any(crosses) {
                // a dip between earlier samples comes first (the sample after
                // it positive again, this one negative); from the second
                // sample on, as the slopes' screen needs no third sample
                // (issue 50, seed 5224: a stuck contact's margin started a
                // 0.44 s step at 1.2e-10, dipped to -0.23 and was back at
                // +0.2 at the first sample: its break-away was taken 0.17 s
                // late, at the crossing before the second)
                if i >= 2 {
                    if let Some(d) = self.dip(&ts, hist, i - 1, watch, y, g, interp) {
                        return Some(d);
                    }
                }
                // the earliest of the roots that cross between these samples,
                // not the first by index (issue 50, seed 2947: a freewheel's
                // capacity crossed 0.066 s before a contact of lower index
                // broke away in the same interval, and slid through it)
                let mut first: Option<(f64, usize)> = None;
                for j in (0..watch).filter(|&j| crosses(j)) {
                    let (lo, hi) = self.first_negative(prev, ti, j, y, g, interp);
                    let tj = self.bisect_root(lo, hi, j, y, g, interp);
                    if first.is_none_or(|(t, _)| tj < t) {
                        first = Some((tj, j));
                    }
                }
                return first;
            }
            {
                // a body that bounced off a stop at t0 (its root exactly 0
                // there) and is back beyond the limit at this sample, every
                // earlier sample within rounding of the limit: its flight is
                // shorter than the sample; look for it at t0 + (ti - t0) 2^-k
                // (the flights of a body coming to rest on a stop shrink
                // geometrically). Rounding is no flight: a group let go as
                // the force holding it on its stop turned through zero
                // starts away with zero acceleration, and its position 4e-8 s
                // on was 5.5e-23 m past the limit (issue 50, seed 8241: the
                // stop was taken back at once and pulled for 0.12 s)
                let rounding = |j: usize| {
                    let st = &self.sys.stops[(j - nc) / 2];
                    let limit = if (j - nc).is_multiple_of(2) { st.min } else { st.max };
                    4.0 * f64::EPSILON * (1.0 + limit.abs())
                };
                let back = (nc..nc + nstop2).find(|&j| {
                    hist[at(0, j)] == 0.0
                        && g[j] < -rounding(j)
                        && (1..i).all(|k| hist[at(k, j)].abs() <= rounding(j))
                });
                if let Some(j) = back {
                    let floor = 4e-12 * (1.0 + t0.abs());
                    let mut h = 0.5 * (ti - t0);
                    let mut hi = ti;
                    while h > floor {
                        let tk = t0 + h;
                        if !self.sample_roots(tk, y, g, interp) {
                            return None;
                        }
                        if g[j] > 0.0 {
                            return Some((self.bisect_root(tk, hi, j, y, g, interp), j));
                        }
                        hi = tk;
                        h *= 0.5;
                    }
                    // no flight longer than the floor: the body is back at
                    // the limit at once (the impact there bounces it again
                    // or puts it to rest)
                    return Some((t0 + h.max(floor), j));
                }
            }
        }
        self.dip(&ts, hist, INTERIOR, watch, y, g, interp)
    }

    /// How many roots, from the first, the interior screen samples: the
    /// contacts' and the stops', and with contacts on a friction disk every
    /// root (theirs are the last).
    fn interior_watch(&self) -> usize {
        if self.planes.iter().any(|p| p.disk.is_some()) {
            self.nroots
        } else {
            self.sys.contacts.len() + 2 * self.sys.stops.len()
        }
    }

    /// Whether root `j` is watched inside a step: a stuck contact's
    /// capacity margin, a stop's, or that of a contact held on its
    /// friction disk (its force may leave the disk under a force that
    /// varies in time while every body rests, the steps long).
    fn interior_watched(&self, j: usize) -> bool {
        let nc = self.sys.contacts.len();
        let d = self.disc.borrow();
        if j < nc {
            return d.modes[j] == Mode::Stuck;
        }
        if j < nc + 2 * self.sys.stops.len() {
            return true;
        }
        match j.checked_sub(self.root_plane).and_then(|k| self.plane_roots.get(k)) {
            Some(&p) => self.planes[p].disk.is_some() && !d.plane_slide[p],
            None => false,
        }
    }

    /// A dip of a watched root below zero between the samples `0..=upto`
    /// of a step (times `ts`, roots `hist`, `watch` of them per sample),
    /// none of them negative: its first crossing, or `None`.
    #[allow(clippy::too_many_arguments)]
    fn dip(
        &self,
        ts: &[f64],
        hist: &[f64],
        upto: usize,
        watch: usize,
        y: &mut [f64],
        g: &mut [f64],
        interp: &mut dyn FnMut(f64, &mut [f64]) -> bool,
    ) -> Option<(f64, usize)> {
        let watched = |j: usize| self.interior_watched(j);
        let at = |i: usize, j: usize| i * watch + j;
        // a dip between samples: a stuck contact's margin (its capacity
        // less its force) or a stop's force that falls below zero and rises
        // again between two samples, under a force or normal load that
        // varies in time while every body rests (the state is constant, so
        // the solver's steps grow to max_step). Two screens: the parabola
        // through three consecutive samples, and the slopes at the ends of
        // an interval whose samples are within twice the step's largest
        // change between samples of zero (a dip of a stop's force lasting
        // 0.019 s inside a DOP853 step of 0.2 s, which the parabola put
        // above zero). A dip either predicts is minimised by golden section
        // and, when truly negative, its crossing is bisected.
        let mut sample = |t: f64, j: usize, y: &mut [f64], g: &mut [f64]| -> Option<f64> {
            self.sample_roots(t, y, g, interp).then_some(g[j])
        };
        for i in 1..=upto {
            let (ta, tb) = (ts[i - 1], ts[i]);
            for j in (0..watch).filter(|&j| watched(j)) {
                let (ga, gb) = (hist[at(i - 1, j)], hist[at(i, j)]);
                if !(ga > 0.0 && gb > 0.0) {
                    continue;
                }
                // the parabola through this sample and the next two
                let mut span = None;
                if i < upto {
                    let (tc, gc) = (ts[i + 1], hist[at(i + 1, j)]);
                    // Newton's divided differences: g ≈ ga + d1 (t - ta) + d2 (t - ta)(t - tb)
                    let d1 = (gb - ga) / (tb - ta);
                    let d2 = ((gc - gb) / (tc - tb) - d1) / (tc - ta);
                    if gc > 0.0 && d2 > 0.0 {
                        let tv = 0.5 * (ta + tb) - d1 / (2.0 * d2);
                        if tv > ta && tv < tc && ga + d1 * (tv - ta) + d2 * (tv - ta) * (tv - tb) < 0.0 {
                            span = Some((ta, tc));
                        }
                    }
                }
                // the slopes at this interval's ends, when its samples are
                // near zero for this step
                if span.is_none() {
                    let change =
                        (1..=upto).map(|k| (hist[at(k, j)] - hist[at(k - 1, j)]).abs()).fold(0.0, f64::max);
                    if ga.min(gb) <= 2.0 * change {
                        let dt = 1e-6 * (tb - ta);
                        let sa = sample(ta + dt, j, y, g)? - ga;
                        let sb = gb - sample(tb - dt, j, y, g)?;
                        if sa < 0.0 && sb > 0.0 {
                            span = Some((ta, tb));
                        }
                    }
                }
                let Some((lo, hi)) = span else { continue };
                // golden section for the least value on [lo, hi]
                let r = 0.5 * (5f64.sqrt() - 1.0);
                let (mut lo, mut hi) = (lo, hi);
                let t_from = lo;
                let mut x1 = hi - r * (hi - lo);
                let mut x2 = lo + r * (hi - lo);
                let mut f1 = sample(x1, j, y, g)?;
                let mut f2 = sample(x2, j, y, g)?;
                for _ in 0..60 {
                    if f1.min(f2) < 0.0 || hi - lo <= 1e-12 * (1.0 + hi.abs()) {
                        break;
                    }
                    if f1 < f2 {
                        hi = x2;
                        x2 = x1;
                        f2 = f1;
                        x1 = hi - r * (hi - lo);
                        f1 = sample(x1, j, y, g)?;
                    } else {
                        lo = x1;
                        x1 = x2;
                        f1 = f2;
                        x2 = lo + r * (hi - lo);
                        f2 = sample(x2, j, y, g)?;
                    }
                }
                let tneg = if f1 < 0.0 {
                    x1
                } else if f2 < 0.0 {
                    x2
                } else {
                    continue;
                };
                return Some((self.bisect_root(t_from, tneg, j, y, g, interp), j));
            }
        }
        None
    }

    /// Of a root `j` positive at `lo` and negative at `hi`, the interval of
    /// its first crossing as far as a finer screen shows it: the root just
    /// after `lo` (a margin leaving `lo` downwards crosses at once), then at
    /// `SUB` equally spaced points, the first negative one and the point
    /// before it. Bisection from the ends alone finds *a* crossing, not the
    /// first (issue 50, seed 5224's network run to 4 s: a contact stuck at
    /// 3.489 s with its margin at +4.4e-10 and falling dipped to -0.012 and
    /// rose again before it crossed for good 0.07 s later; bisection took
    /// the later crossing and the contact carried 0.442 N against a
    /// capacity of 0.437 N at 3.492 s).
    fn first_negative(
        &self,
        lo: f64,
        hi: f64,
        j: usize,
        y: &mut [f64],
        g: &mut [f64],
        interp: &mut dyn FnMut(f64, &mut [f64]) -> bool,
    ) -> (f64, f64) {
        const SUB: usize = 8;
        let just_after = lo + 1e-6 * (hi - lo);
        if just_after > lo && self.sample_roots(just_after, y, g, interp) && g[j] < 0.0 {
            return (lo, just_after);
        }
        let mut prev = lo;
        for k in 1..SUB {
            let t = lo + (hi - lo) * k as f64 / SUB as f64;
            if !self.sample_roots(t, y, g, interp) {
                break;
            }
            if g[j] < 0.0 {
                return (prev, t);
            }
            prev = t;
        }
        (prev, hi)
    }

    /// The crossing of root `j` between `lo` (positive there) and `hi`
    /// (negative), by bisection to rounding: the first time known negative.
    fn bisect_root(
        &self,
        mut lo: f64,
        mut hi: f64,
        j: usize,
        y: &mut [f64],
        g: &mut [f64],
        interp: &mut dyn FnMut(f64, &mut [f64]) -> bool,
    ) -> f64 {
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi || !self.sample_roots(mid, y, g, interp) {
                break;
            }
            if g[j] < 0.0 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    }

    /// The roots at `t` on the step's dense output (false when `interp`
    /// cannot give the states there).
    fn sample_roots(
        &self,
        t: f64,
        y: &mut [f64],
        g: &mut [f64],
        interp: &mut dyn FnMut(f64, &mut [f64]) -> bool,
    ) -> bool {
        if !interp(t, y) {
            return false;
        }
        self.roots(t, y, g);
        true
    }
}
