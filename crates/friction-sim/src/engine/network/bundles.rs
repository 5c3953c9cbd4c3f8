//! A bundle's total force split among its members: rows joining the same
//! two members (two contacts holding one body to the ground, a contact and
//! a resting stop on one body, the plates of a clutch pack) are statically
//! indeterminate; the statics of [`super::constraints`] give their total,
//! and this rule shares it within each member's limits.

/// What one member of a bundle can carry, in the orientation of the
/// bundle's representative row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Limit {
    /// a stuck contact: any force in `[lo, hi]`, `lo <= 0 <= hi` (N times
    /// its static range: `[-N Fs, N Fs]`, or a one-way clutch's)
    Contact(f64, f64),
    /// a resting stop: any force of this sign (+1 or -1), none of the other
    Stop(f64),
}

impl Limit {
    /// What a contact can carry towards the sign of `total`.
    fn cap(&self, total: f64) -> f64 {
        match *self {
            Limit::Contact(lo, hi) => {
                if total >= 0.0 {
                    hi
                } else {
                    -lo
                }
            }
            Limit::Stop(_) => 0.0,
        }
    }
}

/// Split a bundle's total force `total` among its members, whose limits
/// are `limits`, into `out` (same order); returns `(capacity, load)`: the
/// contacts' summed capacity towards the total and the part of the total
/// they must carry (`|total|`, or `-σ total` beside stops pushing in
/// direction σ), so that the bundle holds while `load <= capacity`.
///
/// The rule (one of many splits that balance the members; documented in
/// docs/scenario.md and named by a warning in the run's summary):
/// - stops push first: a total the stops can push is shared equally by
///   them, the contacts carry nothing;
/// - otherwise the contacts carry it all, by the minimum-norm forces within
///   their ranges (`min Σ λ² subject to Σ λ = total, lo_j <= λ_j <= hi_j`):
///   equal shares `μ`, each clamped to its range (`λ_j = clamp(μ, lo_j,
///   hi_j)`, water filling); a total beyond the summed capacity (only
///   within the root finder's tolerance of the break-away event) is shared
///   in proportion to the capacities.
///
/// O(n²) in the members without allocation (bundles are a handful of
/// plates or contacts).
pub(crate) fn split_bundle(total: f64, limits: &[Limit], out: &mut [f64]) -> (f64, f64) {
    let mut n_contacts = 0usize;
    let mut stop_side = 0.0;
    let mut n_push = 0usize;
    for l in limits {
        match *l {
            Limit::Contact(..) => n_contacts += 1,
            Limit::Stop(side) => {
                stop_side = side;
                if side * total > 0.0 {
                    n_push += 1;
                }
            }
        }
    }
    // the side the contacts carry: beside stops always the one the stops
    // cannot push (a continuous margin through total = 0)
    let towards = if stop_side != 0.0 { -stop_side } else { total };
    let cap: f64 = limits.iter().map(|l| l.cap(towards)).sum();
    let load = if stop_side != 0.0 { -stop_side * total } else { total.abs() };
    out.iter_mut().for_each(|o| *o = 0.0);
    if n_push > 0 {
        let share = total / n_push as f64;
        for (o, l) in out.iter_mut().zip(limits) {
            if let Limit::Stop(side) = *l {
                if side * total > 0.0 {
                    *o = share;
                }
            }
        }
        return (cap, load);
    }
    if total == 0.0 || n_contacts == 0 {
        return (cap, load);
    }
    let sign = total.signum();
    let t = total.abs();
    // capacities towards the total (a stop here pushes nothing: cap 0)
    let caps = || limits.iter().filter(|l| matches!(l, Limit::Contact(..))).map(|l| l.cap(total));
    let reach: f64 = caps().sum();
    if t >= reach {
        for (o, l) in out.iter_mut().zip(limits) {
            if let Limit::Contact(..) = *l {
                let c = l.cap(total);
                *o = if reach > 0.0 { total * (c / reach) } else { total / n_contacts as f64 };
            }
        }
        return (cap, load);
    }
    // the largest capacity c_k whose level clamps no more than t: the
    // contacts at or below it carry their capacity, the others share the rest
    let mut best = -1.0f64;
    for ck in caps() {
        if ck > best && caps().map(|c| c.min(ck)).sum::<f64>() <= t {
            best = ck;
        }
    }
    let level = if best >= 0.0 {
        let clamped: f64 = caps().filter(|&c| c <= best).sum();
        // some capacity lies above `best`, else they would sum to at most t
        let n_free = caps().filter(|&c| c > best).count().max(1);
        (t - clamped) / n_free as f64
    } else {
        t / n_contacts as f64
    };
    for (o, l) in out.iter_mut().zip(limits) {
        if let Limit::Contact(..) = *l {
            *o = sign * level.min(l.cap(total));
        }
    }
    (cap, load)
}
