//! How stiff a network's linear parts are, for `auto`'s choice of method
//! and for the message of a run that hits `max_steps`: springs, dampers and
//! gaps (a gap counted as in contact, its spring linearised), summed on each
//! body.
//!
//! Each body `i` of mass `m` gets the Gershgorin bound of its row of
//! `M⁻¹K` and `M⁻¹D`: `a = Σ k / m` and `b = Σ d / m` over the elements on it
//! (twice an element's constant when its other member is a body too). Its
//! fastest mode `λ² + b λ + a = 0` decays at
//! `r = b/2 + sqrt(b²/4 - a)` when overdamped (`b² >= 4a`), at `b/2` while
//! oscillating. An explicit method's step is bound by stability to about
//! `6 / r` (DOP853 on the negative real axis), so a well damped mode
//! (damping ratio `b / (2 sqrt a) >= 0.5`) with `r t_end` above
//! [`STIFF_DECAYS`] makes the network stiff: at least 10⁴ explicit steps
//! spent on a part that has decayed. Hard stops are events, not stiffness;
//! stiff contacts are the models' own `is_stiff`.
//!
//! The four preloaded gaps of the issue (c = 1e8 N/m and d = 2.5e4 N s/m
//! each on 1 kg, 60 s): `a` = 4e8 s⁻², `b` = 1e5 s⁻¹, `r` = 9.6e4 s⁻¹,
//! `r t_end` = 5.7e6: stiff (DOP853 needed 552,372 steps and 159,098
//! rejected ones on it; BDF 12,157).

use crate::engine::network::Engine;
use crate::system::{Gap, Member};

/// A network whose fastest well damped mode decays this many times over the
/// run (`r t_end`) is stiff: an explicit method would take at least
/// `STIFF_DECAYS / 6` = 10⁴ steps for stability alone.
pub(crate) const STIFF_DECAYS: f64 = 6e4;

/// The smallest damping ratio of a mode that counts as stiff (below it the
/// mode oscillates and an explicit method must resolve it anyway).
const WELL_DAMPED: f64 = 0.5;

/// The fastest mode of one body.
#[derive(Debug, Clone)]
pub(crate) struct BodyRate {
    /// Its decay rate `r` \[1/s\].
    pub decay: f64,
    /// Its damping ratio `b / (2 sqrt a)` (infinite without stiffness).
    pub zeta: f64,
    /// What the figures are: the body and its elements, named.
    pub what: String,
}

/// A gap's spring as a linear one: `c` for n = 1, else its slope
/// `n c p^(n-1)` at the larger of its penetration at the start and 1 mm.
fn gap_stiffness(g: &Gap, p0: f64) -> f64 {
    if g.exponent == 1.0 {
        g.stiffness
    } else {
        g.exponent * g.stiffness * p0.max(1e-3).powf(g.exponent - 1.0)
    }
}

impl Engine<'_> {
    /// The fastest mode of every body (see the module), fastest first.
    pub(crate) fn body_rates(&self) -> Vec<BodyRate> {
        let sys = &*self.sys;
        let nb = sys.bodies.len();
        let mut k = vec![0.0; nb];
        let mut d = vec![0.0; nb];
        // per body: the element with the largest part of `a` and of `b`
        let mut top_k: Vec<Option<(f64, String)>> = vec![None; nb];
        let mut top_d: Vec<Option<(f64, String)>> = vec![None; nb];
        let mut add = |between: [Member; 2], kv: f64, dv: f64, name: String| {
            let bodies: Vec<usize> = between
                .iter()
                .filter_map(|m| if let Member::Body(i) = m { Some(*i) } else { None })
                .collect();
            let w = bodies.len() as f64;
            for &i in &bodies {
                k[i] += w * kv;
                d[i] += w * dv;
                if kv > 0.0 && top_k[i].as_ref().is_none_or(|t| kv > t.0) {
                    top_k[i] = Some((kv, name.clone()));
                }
                if dv > 0.0 && top_d[i].as_ref().is_none_or(|t| dv > t.0) {
                    top_d[i] = Some((dv, name.clone()));
                }
            }
        };
        for sp in &sys.springs {
            add(sp.between, sp.stiffness, 0.0, format!("spring `{}`", sp.name));
        }
        for sp in &sys.inclined_springs {
            // a row of its stiffness matrix: k |w_l| Σ|w|
            let sum: f64 = sp.legs.iter().map(|l| l.1.abs()).sum();
            for &(m, w) in &sp.legs {
                add([m, Member::Ground], sp.stiffness * w.abs() * sum, 0.0, format!("spring `{}`", sp.name));
            }
        }
        for dm in &sys.dampers {
            add(dm.between, 0.0, dm.coefficient, format!("damper `{}`", dm.name));
        }
        // a structure's coordinates: its diagonal K_ii and C_ii (the
        // Rayleigh quotients of unit displacements, lower bounds of its
        // fastest mode)
        for b in &self.blocks {
            let (kd, cd) = b.diagonals();
            for p in 0..b.n {
                add(
                    [Member::Body(b.base + p), Member::Ground],
                    kd[p],
                    cd[p],
                    format!("structure `{}`", b.name),
                );
            }
        }
        // a member's position at the start
        let x0 = |m: Member| match m {
            Member::Ground | Member::Dof { .. } => 0.0,
            Member::Body(i) => sys.bodies[i].x0,
            Member::Driver(j) => sys.drivers[j].motion.eval(0.0).0,
        };
        for g in &sys.gaps {
            let p0 = g.length - (x0(g.between[1]) - x0(g.between[0]));
            add(g.between, gap_stiffness(g, p0), g.damping, format!("gap `{}`", g.name));
        }
        let mut out: Vec<BodyRate> = (0..nb)
            .filter(|&i| k[i] > 0.0 || d[i] > 0.0)
            .map(|i| {
                let m = sys.bodies[i].mass;
                let (a, b) = (k[i] / m, d[i] / m);
                let disc = 0.25 * b * b - a;
                let decay = if disc >= 0.0 { 0.5 * b + disc.sqrt() } else { 0.5 * b };
                let zeta = if a > 0.0 { b / (2.0 * a.sqrt()) } else { f64::INFINITY };
                let mut parts = Vec::new();
                if let Some((_, n)) = &top_k[i] {
                    parts.push(format!("stiffest {n}"));
                }
                if let Some((_, n)) = &top_d[i] {
                    parts.push(format!("most damping {n}"));
                }
                let what = format!(
                    "body `{}`: {} (Σk/m = {a:.3e} s^-2, Σd/m = {b:.3e} s^-1, fastest decay rate {decay:.3e} \
                     s^-1, damping ratio {zeta:.3})",
                    sys.bodies[i].name,
                    parts.join(", ")
                );
                BodyRate { decay, zeta, what }
            })
            .collect();
        out.sort_by(|x, y| y.decay.total_cmp(&x.decay));
        out
    }

    /// Whether `auto` should integrate implicitly: a stiff contact model,
    /// or a well damped mode of the springs, dampers and gaps that decays
    /// more than [`STIFF_DECAYS`] times over the run.
    pub(crate) fn network_is_stiff(&self) -> bool {
        self.sys.is_stiff() || self.stiff_body().is_some()
    }

    /// The body whose well damped mode makes the network stiff, if any.
    pub(crate) fn stiff_body(&self) -> Option<BodyRate> {
        let t_end = self.sys.solver.t_end;
        self.body_rates().into_iter().find(|r| r.zeta >= WELL_DAMPED && r.decay * t_end > STIFF_DECAYS)
    }

    /// The parts that make the steps small, for the message of a run that
    /// hit `max_steps`: the fastest body's elements (springs, dampers and
    /// gaps alike), then what [`Engine::stiffness_hint`] lists.
    pub(crate) fn fastest_parts(&self) -> String {
        match self.body_rates().first() {
            Some(r) => format!("{}; {}", r.what, self.stiffness_hint()),
            None => self.stiffness_hint(),
        }
    }
}
