//! The engine against an independent event-driven reference simulator, on a
//! chain with Coulomb stiction and end stops.
//!
//! The network: a driver `drive` moving as a sine, and three bodies `a`, `b`,
//! `c` in a line, `drive - a - b - c`, joined by linear springs; each body sits
//! on the ground through its own Coulomb contact with stiction (`ca`, `cb`,
//! `cc`, Fs > Fc); `a` and `b` move between plastic stops (restitution 0) and
//! `c` between bouncing ones (restitution 0.5).
//!
//! The reference shares no code with the engine. Each contact holds only its
//! own body, and the springs give forces of the positions only, so stick and
//! slip decide body by body from the net spring force `f` on the body:
//! - stuck (v = 0): the contact carries `-f` while |f| <= Fs; the body breaks
//!   away in the direction of `f` when |f| exceeds Fs;
//! - sliding in direction s: m a = f - Fc s; when v reaches 0 the body sticks
//!   if |f| <= Fs, else it slides on in the direction of `f`;
//! - reaching a limit of its stops with restitution e > 0: v -> -e v (an
//!   impulse; the contact's slip reverses with it);
//! - reaching a limit with e = 0: v -> 0 and the body rests on the stop. While
//!   `f` pushes it into the stop the stop takes all of `f` (friction 0); while
//!   `f` pulls it away the stop cannot pull, and the stuck contact holds the
//!   body with `-f` up to Fs; beyond that the body leaves the stop, sliding.
//!   (If `f` already pulls away harder than Fs at the impact, it leaves at
//!   once.)
//!
//! Between events the modes are fixed and the equations are integrated by the
//! classic RK4 at a fixed step of 1e-4 s. Every mode has event functions `g`
//! (an event is `g` going from <= 0 to > 0): the velocity of a sliding body
//! crossing zero, a sliding body reaching a limit, |f| reaching Fs for a stuck
//! body or one resting on a stop, and the stop's reaction `f` changing sign
//! for a resting body. When a step crosses one, the event is located by
//! bisection on the length of a single RK4 step from the step's start, to
//! 1e-13 s; the mode change is applied there, and integration continues.

use std::f64::consts::PI;
use std::path::Path;

use friction_sim::{scenario, simulate};

// ---- the network (the scenario text and the reference both use these) ----

const N: usize = 3;
const NAMES: [&str; N] = ["a", "b", "c"];
const MASS: [f64; N] = [1.0, 1.0, 1.0];
/// `K[i]`: the spring between body i and the member before it (the driver for
/// i = 0); all springs are relaxed at zero length.
const K: [f64; N] = [100.0, 60.0, 20.0];
const FC: [f64; N] = [1.0, 0.6, 0.15];
const FS: [f64; N] = [1.5, 0.9, 0.4];
/// Driver: x_d(t) = AMP sin(2π FREQ t).
const AMP: f64 = 0.05;
const FREQ: f64 = 0.5;

#[derive(Clone, Copy)]
struct Stop {
    min: f64,
    max: f64,
    restitution: f64,
}

const STOPS: [Option<Stop>; N] = [
    Some(Stop { min: -0.03, max: 0.03, restitution: 0.0 }),
    Some(Stop { min: -0.022, max: 0.022, restitution: 0.0 }),
    // pressed into these by at most K[2] (0.022 - 0.01) = 0.24 N < FS[2]: a
    // rebound always ends stuck, never in an endless (Zeno) train of bounces
    Some(Stop { min: -0.01, max: 0.01, restitution: 0.5 }),
];

const T_END: f64 = 5.0;
const DT_OUT: f64 = 0.01;
/// Reference step, and output rows every `STEPS_PER_OUT` steps.
const H: f64 = 1e-4;
const STEPS_PER_OUT: usize = 100;

fn scenario_text() -> String {
    let mut s = format!(
        "name = \"event_reference\"\n\
         [[driver]]\nname = \"drive\"\n\
         motion = {{ type = \"sine\", amplitude = {AMP:?}, frequency = {FREQ:?} }}\n"
    );
    for i in 0..N {
        let (name, prev) = (NAMES[i], if i == 0 { "drive" } else { NAMES[i - 1] });
        s += &format!("[[body]]\nname = \"{name}\"\nmass = {:?}\n", MASS[i]);
        s += &format!("[[spring]]\nbetween = [\"{name}\", \"{prev}\"]\nstiffness = {:?}\n", K[i]);
        s += &format!(
            "[[contact]]\nname = \"c{name}\"\nbetween = [\"{name}\", \"ground\"]\nmodel = \"coulomb\"\n\
             params = {{ fc = {:?}, fs = {:?} }}\n",
            FC[i], FS[i]
        );
        if let Some(st) = STOPS[i] {
            s += &format!(
                "[[stop]]\nbody = \"{name}\"\nmin = {:?}\nmax = {:?}\nrestitution = {:?}\n",
                st.min, st.max, st.restitution
            );
        }
    }
    s + &format!(
        "[solver]\nt_end = {T_END:?}\noutput_dt = {DT_OUT:?}\nrtol = 1e-10\n\
         atol = {{ position = 1e-12, velocity = 1e-12 }}\n"
    )
}

// ---- the reference ----

/// The mode of a body (and so of its contact and stop).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// Sliding in direction +1 or -1.
    Slide(f64),
    /// At rest on the ground, held by friction.
    Stick,
    /// At rest on the stop at side +1 (max) or -1 (min); `pressed`: f pushes
    /// into the stop (which takes it), else friction holds the body.
    Rest { side: f64, pressed: bool },
}

/// What an event function stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Trigger {
    /// A sliding body's velocity reaches zero.
    AtRest,
    /// A sliding body reaches the limit at side +1 (max) or -1 (min).
    Limit(f64),
    /// |f| exceeds Fs: break away in direction +1 or -1.
    Break(f64),
    /// The reaction of the stop reaches zero: friction takes the load.
    Release,
    /// f pushes into the stop again.
    Press,
}

#[derive(Clone, Copy)]
struct State {
    x: [f64; N],
    v: [f64; N],
}

/// A transition, named as the engine names them.
#[derive(Clone, Debug)]
struct Ev {
    t: f64,
    item: String,
    from: &'static str,
    to: &'static str,
}

fn driver(t: f64) -> f64 {
    AMP * (2.0 * PI * FREQ * t).sin()
}

/// Net spring force on body i.
fn spring_force(t: f64, x: &[f64; N], i: usize) -> f64 {
    let prev = if i == 0 { driver(t) } else { x[i - 1] };
    let next = if i + 1 < N { K[i + 1] * (x[i + 1] - x[i]) } else { 0.0 };
    K[i] * (prev - x[i]) + next
}

/// The friction force on body i (the engine's `F.NAME`).
fn friction(t: f64, s: &State, mode: Mode, i: usize) -> f64 {
    match mode {
        Mode::Slide(d) => -FC[i] * d,
        Mode::Stick | Mode::Rest { pressed: false, .. } => -spring_force(t, &s.x, i),
        Mode::Rest { pressed: true, .. } => 0.0,
    }
}

fn deriv(t: f64, s: &State, modes: &[Mode; N]) -> State {
    let mut d = State { x: [0.0; N], v: [0.0; N] };
    for i in 0..N {
        if let Mode::Slide(dir) = modes[i] {
            d.x[i] = s.v[i];
            d.v[i] = (spring_force(t, &s.x, i) - FC[i] * dir) / MASS[i];
        }
    }
    d
}

fn axpy(s: &State, h: f64, d: &State) -> State {
    let mut r = *s;
    for i in 0..N {
        r.x[i] += h * d.x[i];
        r.v[i] += h * d.v[i];
    }
    r
}

fn rk4(t: f64, s: &State, h: f64, modes: &[Mode; N]) -> State {
    let k1 = deriv(t, s, modes);
    let k2 = deriv(t + 0.5 * h, &axpy(s, 0.5 * h, &k1), modes);
    let k3 = deriv(t + 0.5 * h, &axpy(s, 0.5 * h, &k2), modes);
    let k4 = deriv(t + h, &axpy(s, h, &k3), modes);
    let mut r = *s;
    for i in 0..N {
        r.x[i] += h / 6.0 * (k1.x[i] + 2.0 * k2.x[i] + 2.0 * k3.x[i] + k4.x[i]);
        r.v[i] += h / 6.0 * (k1.v[i] + 2.0 * k2.v[i] + 2.0 * k3.v[i] + k4.v[i]);
    }
    r
}

/// The event functions of every body under its mode: (body, trigger, g).
fn triggers(t: f64, s: &State, modes: &[Mode; N]) -> Vec<(usize, Trigger, f64)> {
    let mut g = Vec::new();
    for i in 0..N {
        let f = spring_force(t, &s.x, i);
        match modes[i] {
            Mode::Slide(d) => {
                g.push((i, Trigger::AtRest, -d * s.v[i]));
                if let Some(st) = STOPS[i] {
                    g.push((i, Trigger::Limit(1.0), s.x[i] - st.max));
                    g.push((i, Trigger::Limit(-1.0), st.min - s.x[i]));
                }
            }
            Mode::Stick => {
                g.push((i, Trigger::Break(1.0), f - FS[i]));
                g.push((i, Trigger::Break(-1.0), -f - FS[i]));
            }
            Mode::Rest { side, pressed: true } => g.push((i, Trigger::Release, -side * f)),
            Mode::Rest { side, pressed: false } => {
                g.push((i, Trigger::Press, side * f));
                g.push((i, Trigger::Break(-side), -side * f - FS[i]));
            }
        }
    }
    g
}

fn dir_name(d: f64) -> &'static str {
    if d > 0.0 {
        "forward"
    } else {
        "backward"
    }
}

fn side_name(side: f64) -> &'static str {
    if side > 0.0 {
        "at_max"
    } else {
        "at_min"
    }
}

/// The reference's run: output rows (t, x, v, F) and the transitions.
struct Reference {
    rows: Vec<(f64, State, [f64; N])>,
    /// Transitions the engine reports too.
    events: Vec<Ev>,
    /// Times of every mode change, including the stop reaction changing sign.
    changes: Vec<f64>,
    /// How often a stop's reaction fell to zero and friction took the load.
    releases: usize,
}

impl Reference {
    /// Apply the mode change of body i at (t, s).
    fn apply(&mut self, t: f64, s: &mut State, mode: &mut Mode, i: usize, trig: Trigger) {
        let contact = format!("c{}", NAMES[i]);
        let stop = format!("stop:{}", NAMES[i]);
        let mut ev = |item: &str, from: &'static str, to: &'static str| {
            self.events.push(Ev { t, item: item.to_string(), from, to });
        };
        let f = spring_force(t, &s.x, i);
        *mode = match (*mode, trig) {
            (Mode::Slide(d), Trigger::AtRest) => {
                s.v[i] = 0.0;
                if f.abs() > FS[i] {
                    // no stick: slides on in the direction of the force
                    ev(&contact, dir_name(d), dir_name(f.signum()));
                    Mode::Slide(f.signum())
                } else {
                    ev(&contact, dir_name(d), "stuck");
                    Mode::Stick
                }
            }
            (Mode::Slide(d), Trigger::Limit(side)) => {
                let st = STOPS[i].unwrap();
                s.x[i] = if side > 0.0 { st.max } else { st.min };
                if st.restitution > 0.0 && s.v[i].abs() > 1e-11 {
                    // a bounce: the slip reverses with the velocity
                    s.v[i] *= -st.restitution;
                    ev(&stop, "free", "bounce");
                    ev(&contact, dir_name(d), dir_name(-d));
                    Mode::Slide(-d)
                } else if side * f > 0.0 || f.abs() <= FS[i] {
                    // plastic: at rest on the stop, pressed or held by friction
                    s.v[i] = 0.0;
                    ev(&contact, dir_name(d), "stuck");
                    ev(&stop, "free", side_name(side));
                    Mode::Rest { side, pressed: side * f > 0.0 }
                } else {
                    // plastic, but pulled away harder than Fs: leaves at once
                    s.v[i] = 0.0;
                    ev(&contact, dir_name(d), dir_name(-side));
                    ev(&stop, "free", "impact");
                    Mode::Slide(-side)
                }
            }
            (Mode::Stick, Trigger::Break(d)) => {
                ev(&contact, "stuck", dir_name(d));
                Mode::Slide(d)
            }
            (Mode::Rest { side, .. }, Trigger::Break(d)) => {
                ev(&contact, "stuck", dir_name(d));
                ev(&stop, side_name(side), "free");
                Mode::Slide(d)
            }
            (Mode::Rest { side, .. }, Trigger::Release) => {
                self.releases += 1;
                Mode::Rest { side, pressed: false }
            }
            (Mode::Rest { side, .. }, Trigger::Press) => Mode::Rest { side, pressed: true },
            (m, trig) => panic!("no rule for {trig:?} in mode {m:?}"),
        };
        self.changes.push(t);
    }

    fn record(&mut self, t: f64, s: &State, modes: &[Mode; N]) {
        let f = std::array::from_fn(|i| friction(t, s, modes[i], i));
        self.rows.push((t, *s, f));
    }

    fn run() -> Reference {
        let mut r = Reference { rows: Vec::new(), events: Vec::new(), changes: Vec::new(), releases: 0 };
        let mut s = State { x: [0.0; N], v: [0.0; N] };
        let mut modes = [Mode::Stick; N];
        let mut t = 0.0;
        r.record(t, &s, &modes);
        let n_steps = (T_END / H).round() as usize;
        for n in 1..=n_steps {
            let target = n as f64 * H;
            // from t to the grid point `target`, event after event
            while t < target {
                let g0 = triggers(t, &s, &modes);
                let fired = |h: f64| -> Vec<(usize, Trigger)> {
                    let s1 = rk4(t, &s, h, &modes);
                    let g1 = triggers(t + h, &s1, &modes);
                    g0.iter()
                        .zip(&g1)
                        .filter(|(a, b)| a.2 <= 0.0 && b.2 > 0.0)
                        .map(|(a, _)| (a.0, a.1))
                        .collect()
                };
                let dt = target - t;
                let now = fired(dt);
                if now.is_empty() {
                    s = rk4(t, &s, dt, &modes);
                    t = target;
                    break;
                }
                // bisection on the step length: the first crossing
                let (mut lo, mut hi) = (0.0, dt);
                while hi - lo > 1e-13 {
                    let mid = 0.5 * (lo + hi);
                    if fired(mid).is_empty() {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                let mut at = fired(hi);
                s = rk4(t, &s, hi, &modes);
                t += hi;
                // one change per body; a limit before arriving at rest
                at.sort_by_key(|&(i, trig)| (i, !matches!(trig, Trigger::Limit(_))));
                at.dedup_by_key(|e| e.0);
                for (i, trig) in at {
                    r.apply(t, &mut s, &mut modes[i], i, trig);
                }
                assert!(r.events.len() < 5000, "too many events: {:?}", &r.events[4990..]);
            }
            if n % STEPS_PER_OUT == 0 {
                r.record(t, &s, &modes);
            }
        }
        r
    }
}

#[test]
fn stops_and_friction_match_an_independent_event_driven_reference() {
    let r = Reference::run();
    // the run shows what it is meant to
    let count = |p: &dyn Fn(&Ev) -> bool| r.events.iter().filter(|e| p(e)).count();
    assert!(count(&|e| e.from == "stuck" && e.item.starts_with('c')) > 0, "no break-away");
    assert!(count(&|e| e.to == "stuck" && e.item.starts_with('c')) > 0, "no stick");
    assert!(count(&|e| e.to == "bounce") > 0, "no bounce");
    assert!(count(&|e| e.to.starts_with("at_")) > 0, "no rest on a stop");
    assert!(count(&|e| e.from.starts_with("at_")) > 0, "no departure from a stop");
    assert!(r.releases > 0, "no rest on a stop that friction takes over");

    let sys = scenario::parse(&scenario_text(), "event_reference.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    let eng: Vec<_> = out.events.iter().filter(|e| e.t > 0.0).collect();

    // output rows: x everywhere; v and F more than 1e-6 s from a mode change
    // of the reference (v jumps at a bounce, F at every transition)
    assert_eq!(out.rows.len(), r.rows.len());
    let col = |q: &str, i: usize| out.col(&format!("{q}.{}", NAMES[i])).unwrap();
    let fcol = |i: usize| out.col(&format!("F.c{}", NAMES[i])).unwrap();
    let near = |t: f64| r.changes.iter().any(|&te| (te - t).abs() <= 1e-6);
    // largest differences (value, t, body) of x, v, F
    let mut worst = [(0.0f64, 0.0f64, 0usize); 3];
    let mut note = |k: usize, d: f64, t: f64, i: usize| {
        if d > worst[k].0 {
            worst[k] = (d, t, i);
        }
    };
    for (row, (t, s, f)) in out.rows.iter().zip(&r.rows) {
        assert!((row[0] - t).abs() < 1e-9, "output time {} vs {t}", row[0]);
        for i in 0..N {
            note(0, (row[col("x", i)] - s.x[i]).abs(), *t, i);
            if !near(*t) {
                note(1, (row[col("v", i)] - s.v[i]).abs(), *t, i);
                note(2, (row[fcol(i)] - f[i]).abs(), *t, i);
            }
        }
    }
    eprintln!("largest differences (value, t, body): x {:?}, v {:?}, F {:?}", worst[0], worst[1], worst[2]);

    // events: each of the reference's matched by the nearest unused engine
    // event of the same item and transition, and no engine event left over
    let mut used = vec![false; eng.len()];
    let mut worst_t: (f64, f64) = (0.0, 0.0);
    let mut unmatched = Vec::new();
    for e in &r.events {
        let best = (0..eng.len())
            .filter(|&k| !used[k] && eng[k].contact == e.item && eng[k].from == e.from && eng[k].to == e.to)
            .min_by(|&a, &b| (eng[a].t - e.t).abs().total_cmp(&(eng[b].t - e.t).abs()));
        match best {
            Some(k) if (eng[k].t - e.t).abs() < 1e-3 => {
                used[k] = true;
                if (eng[k].t - e.t).abs() > worst_t.0 {
                    worst_t = ((eng[k].t - e.t).abs(), e.t);
                }
            }
            _ => unmatched.push(e),
        }
    }
    let extra: Vec<_> = (0..eng.len()).filter(|&k| !used[k]).map(|k| eng[k]).collect();
    eprintln!(
        "{} events, largest event time difference (value, t): {worst_t:?}; {} releases",
        r.events.len(),
        r.releases
    );
    assert!(unmatched.is_empty(), "reference events the engine lacks: {unmatched:?}");
    assert!(extra.is_empty(), "engine events the reference lacks: {extra:?}");
    assert!(worst_t.0 < 1e-7, "event times differ by {} s at t = {}", worst_t.0, worst_t.1);
    let what = ["x [m]", "v [m/s]", "F [N]"];
    for k in 0..3 {
        let (d, t, i) = worst[k];
        assert!(d < 1e-6, "{} of {} differs by {d:e} at t = {t}", what[k], NAMES[i]);
    }
}
