//! Random mechanical networks for the property test of the engine (issue 50):
//! a seeded generator of small networks as scenario text, the invariants
//! every run must keep at every output row and in its energy balance, and a
//! shrinker that turns a failing network into a small one.
//!
//! Used by `tests/random_networks.rs` (the property test and the 10,000-seed
//! run of `scripts/random-networks.sh`) and by
//! `tests/random_network_regressions.rs` (the invariants on the shrunk
//! scenarios).
#![allow(dead_code)]

use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use friction_sim::{scenario, simulate, FrictionModel, Input, Member, Outcome, System};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Relative tolerance of a stuck force against its capacity and of a
/// sliding force against its curve.
pub const FORCE_RTOL: f64 = 1e-6;
/// Absolute tolerance of the same [N].
pub const FORCE_ATOL: f64 = 1e-9;
/// A slip velocity at most this is rest [m/s]: the engine's stick band,
/// ten times the default velocity tolerance (`vtol`: a contact arrives at
/// rest within it, and a stuck contact's slip velocity, held at zero by its
/// acceleration, drifts within it by the integration's error; a body stuck
/// to a sine driver for 0.1 s drifted 1.03e-9 m/s).
pub const SLIP_ZERO: f64 = 1e-8;
/// Relative tolerance of the balance of a body at rest [-] (of the sum of the
/// magnitudes of the forces on it).
pub const BALANCE_RTOL: f64 = 1e-6;
/// Largest relative residual of the energy balance: |residual| over the
/// largest of the work in, the energy dissipated, the stored energies at
/// start and end and the largest kinetic energy at any row.
pub const ENERGY_RTOL: f64 = 1e-4;
/// Most events per simulated second (more is chatter).
pub const EVENTS_PER_SECOND: f64 = 200.0;

// ---------------------------------------------------------------- networks

/// A signal: a driver's motion, a force, a normal load.
#[derive(Debug, Clone, PartialEq)]
pub enum Sig {
    /// A constant.
    Const(f64),
    /// offset + rate max(t - start, 0).
    Ramp { rate: f64, start: f64, offset: f64 },
    /// offset + amplitude sin(2π frequency t + phase).
    Sine { amplitude: f64, frequency: f64, phase: f64, offset: f64 },
    /// offset + amplitude H(t - at).
    Step { amplitude: f64, at: f64, offset: f64 },
}

impl Sig {
    fn toml(&self) -> String {
        match *self {
            Sig::Const(v) => format!("{{ type = \"constant\", value = {} }}", num(v)),
            Sig::Ramp { rate, start, offset } => format!(
                "{{ type = \"ramp\", rate = {}, start = {}, offset = {} }}",
                num(rate),
                num(start),
                num(offset)
            ),
            Sig::Sine { amplitude, frequency, phase, offset } => format!(
                "{{ type = \"sine\", amplitude = {}, frequency = {}, phase = {}, offset = {} }}",
                num(amplitude),
                num(frequency),
                num(phase),
                num(offset)
            ),
            Sig::Step { amplitude, at, offset } => format!(
                "{{ type = \"step\", amplitude = {}, at = {}, offset = {} }}",
                num(amplitude),
                num(at),
                num(offset)
            ),
        }
    }

    /// Simpler signals with roughly the same level, for the shrinker.
    fn simpler(&self) -> Vec<Sig> {
        match *self {
            Sig::Const(v) => {
                if v == round1(v) {
                    vec![]
                } else {
                    vec![Sig::Const(round1(v))]
                }
            }
            Sig::Ramp { rate, start, offset } => {
                let mut v = vec![Sig::Const(offset)];
                if start != 0.0 {
                    v.push(Sig::Ramp { rate, start: 0.0, offset });
                }
                if offset != 0.0 {
                    v.push(Sig::Ramp { rate, start, offset: 0.0 });
                }
                v
            }
            Sig::Sine { amplitude, frequency, phase, offset } => {
                let mut v = vec![Sig::Const(offset), Sig::Const(offset + amplitude * phase.sin())];
                if phase != 0.0 {
                    v.push(Sig::Sine { amplitude, frequency, phase: 0.0, offset });
                }
                v
            }
            Sig::Step { amplitude, offset, .. } => vec![Sig::Const(offset), Sig::Const(offset + amplitude)],
        }
    }

    fn round(&mut self) {
        match self {
            Sig::Const(v) => *v = round1(*v),
            Sig::Ramp { rate, start, offset } => {
                *rate = round1(*rate);
                *start = round1(*start);
                *offset = round1(*offset);
            }
            Sig::Sine { amplitude, frequency, phase, offset } => {
                *amplitude = round1(*amplitude);
                *frequency = round1(*frequency);
                *phase = round1(*phase);
                *offset = round1(*offset);
            }
            Sig::Step { amplitude, at, offset } => {
                *amplitude = round1(*amplitude);
                *at = round1(*at);
                *offset = round1(*offset);
            }
        }
    }
}

/// A friction model with its parameters (force parameters at N = 1).
#[derive(Debug, Clone, PartialEq)]
pub enum Model {
    Coulomb { fc: f64, fs: Option<f64> },
    CoulombViscous { fc: f64, kv: f64, fs: Option<f64> },
    Stribeck { fc: f64, fs: f64, vs: f64, kv: f64 },
    StribeckExp { mu_c: f64, gamma: f64, beta: f64, alpha: f64 },
    Table { mu0: f64, mu1: f64, mu2: f64, peak: f64 },
    Classical { fc: f64, kv: f64, fs: f64 },
    Freewheel { forward: bool, fd: f64, fl: f64 },
}

impl Model {
    fn toml(&self) -> String {
        match self {
            Model::Coulomb { fc, fs: None } => format!("model = \"coulomb\"\nparams = {{ fc = {} }}", num(*fc)),
            Model::Coulomb { fc, fs: Some(fs) } => {
                format!("model = \"coulomb\"\nparams = {{ fc = {}, fs = {} }}", num(*fc), num(*fs))
            }
            Model::CoulombViscous { fc, kv, fs } => format!(
                "model = \"coulomb_viscous\"\nparams = {{ fc = {}, kv = {}{} }}",
                num(*fc),
                num(*kv),
                fs.map(|f| format!(", fs = {}", num(f))).unwrap_or_default()
            ),
            Model::Stribeck { fc, fs, vs, kv } => format!(
                "model = \"stribeck\"\nparams = {{ fc = {}, fs = {}, vs = {}, kv = {} }}",
                num(*fc),
                num(*fs),
                num(*vs),
                num(*kv)
            ),
            Model::StribeckExp { mu_c, gamma, beta, alpha } => format!(
                "model = \"stribeck_exp\"\nparams = {{ mu_c = {}, gamma = {}, beta = {}, alpha = {} }}",
                num(*mu_c),
                num(*gamma),
                num(*beta),
                num(*alpha)
            ),
            Model::Table { mu0, mu1, mu2, peak } => format!(
                "model = \"table\"\nparams = {{ points = [[0.0, {}], [0.05, {}], [1.0, {}]], peak = {} }}",
                num(*mu0),
                num(*mu1),
                num(*mu2),
                num(*peak)
            ),
            Model::Classical { fc, kv, fs } => format!(
                "model = \"classical\"\nparams = {{ sliding = {{ model = \"coulomb_viscous\", params = {{ fc = {}, kv = {} }} }}, fs = {} }}",
                num(*fc),
                num(*kv),
                num(*fs)
            ),
            Model::Freewheel { forward, fd, fl } => format!(
                "model = \"freewheel\"\nparams = {{ free = \"{}\", fd = {}, fl = {} }}",
                if *forward { "forward" } else { "backward" },
                num(*fd),
                num(*fl)
            ),
        }
    }

    /// The plain Coulomb contact of the same capacity, for the shrinker.
    fn simpler(&self) -> Option<Model> {
        let fc = match *self {
            Model::Coulomb { fc, fs: None } => {
                return (fc != round1(fc)).then(|| Model::Coulomb { fc: round1(fc), fs: None });
            }
            Model::Coulomb { fs: Some(fs), .. } => fs,
            Model::CoulombViscous { fc, fs, .. } => fs.unwrap_or(fc),
            Model::Stribeck { fs, .. } => fs,
            Model::StribeckExp { mu_c, .. } => mu_c,
            Model::Table { mu0, peak, .. } => mu0 * peak,
            Model::Classical { fs, .. } => fs,
            Model::Freewheel { fl, .. } => fl,
        };
        Some(Model::Coulomb { fc: round1(fc), fs: None })
    }
}

/// A body (a translational mass, or a rotational inertia when the whole
/// network is rotational).
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    pub name: String,
    pub mass: f64,
    pub x0: f64,
    pub v0: f64,
}

/// A spring (`k`, `len`), damper (`k` the coefficient) between two members.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub a: String,
    pub b: String,
    pub k: f64,
    pub len: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    pub name: String,
    pub a: String,
    pub b: String,
    pub model: Model,
    pub normal: Option<Sig>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    pub name: String,
    pub a: String,
    pub b: String,
    pub len: f64,
    pub stiffness: f64,
    pub damping: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stop {
    pub body: String,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub restitution: f64,
}

/// A network, rendered to scenario text by [`Net::toml`].
#[derive(Debug, Clone, PartialEq)]
pub struct Net {
    pub name: String,
    pub rotational: bool,
    pub bodies: Vec<Body>,
    pub drivers: Vec<(String, Sig)>,
    pub springs: Vec<Link>,
    pub dampers: Vec<Link>,
    pub forces: Vec<(String, Sig)>,
    pub contacts: Vec<Contact>,
    pub gaps: Vec<Gap>,
    pub stops: Vec<Stop>,
    pub t_end: f64,
}

/// A number as TOML text (always with a `.` or an exponent: a float).
fn num(v: f64) -> String {
    format!("{v:?}")
}

/// `v` to 1 significant digit (for the shrinker's simpler numbers).
fn round1(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    format!("{v:.0e}").parse().unwrap()
}

/// `v` to 3 significant digits (generated numbers stay readable).
fn r3(v: f64) -> f64 {
    if v == 0.0 {
        return v;
    }
    format!("{v:.2e}").parse().unwrap()
}

impl Net {
    /// The scenario text.
    pub fn toml(&self) -> String {
        let mut s = format!("name = \"{}\"\n", self.name);
        let kind = if self.rotational { "kind = \"rotational\"\n" } else { "" };
        for (name, m) in &self.drivers {
            let _ = write!(s, "[[driver]]\nname = \"{name}\"\n{kind}motion = {}\n", m.toml());
        }
        for b in &self.bodies {
            let _ = write!(s, "[[body]]\nname = \"{}\"\n{kind}mass = {}\n", b.name, num(b.mass));
            if b.x0 != 0.0 {
                let _ = writeln!(s, "x0 = {}", num(b.x0));
            }
            if b.v0 != 0.0 {
                let _ = writeln!(s, "v0 = {}", num(b.v0));
            }
        }
        for l in &self.springs {
            let _ = write!(
                s,
                "[[spring]]\nbetween = [\"{}\", \"{}\"]\nstiffness = {}\nlength = {}\n",
                l.a,
                l.b,
                num(l.k),
                num(l.len)
            );
        }
        for l in &self.dampers {
            let _ =
                write!(s, "[[damper]]\nbetween = [\"{}\", \"{}\"]\ncoefficient = {}\n", l.a, l.b, num(l.k));
        }
        for (on, v) in &self.forces {
            let _ = write!(s, "[[force]]\non = \"{on}\"\nvalue = {}\n", v.toml());
        }
        for c in &self.contacts {
            let _ = write!(
                s,
                "[[contact]]\nname = \"{}\"\nbetween = [\"{}\", \"{}\"]\n{}\n",
                c.name,
                c.a,
                c.b,
                c.model.toml()
            );
            if let Some(n) = &c.normal {
                let _ = writeln!(s, "normal = {}", n.toml());
            }
        }
        for g in &self.gaps {
            let _ = write!(
                s,
                "[[gap]]\nname = \"{}\"\nbetween = [\"{}\", \"{}\"]\nlength = {}\nstiffness = {}\ndamping = {}\n",
                g.name,
                g.a,
                g.b,
                num(g.len),
                num(g.stiffness),
                num(g.damping)
            );
        }
        for st in &self.stops {
            let _ = write!(s, "[[stop]]\nbody = \"{}\"\n", st.body);
            if let Some(m) = st.min {
                let _ = writeln!(s, "min = {}", num(m));
            }
            if let Some(m) = st.max {
                let _ = writeln!(s, "max = {}", num(m));
            }
            if st.restitution != 0.0 {
                let _ = writeln!(s, "restitution = {}", num(st.restitution));
            }
        }
        let _ = write!(s, "[solver]\nt_end = {}\n", num(self.t_end));
        s
    }

    fn remove_member(&mut self, name: &str) {
        self.bodies.retain(|b| b.name != name);
        self.drivers.retain(|d| d.0 != name);
        self.springs.retain(|l| l.a != name && l.b != name);
        self.dampers.retain(|l| l.a != name && l.b != name);
        self.forces.retain(|f| f.0 != name);
        self.contacts.retain(|c| c.a != name && c.b != name);
        self.gaps.retain(|g| g.a != name && g.b != name);
        self.stops.retain(|s| s.body != name);
    }

    fn size(&self) -> usize {
        self.bodies.len()
            + self.drivers.len()
            + self.springs.len()
            + self.dampers.len()
            + self.forces.len()
            + self.contacts.len()
            + self.gaps.len()
            + self.stops.len()
    }
}

// --------------------------------------------------------------- generator

fn uni(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    r3(lo + (hi - lo) * rng.random::<f64>())
}

fn pick<'a>(rng: &mut ChaCha8Rng, v: &'a [String]) -> &'a String {
    &v[rng.random_range(0..v.len())]
}

/// Two different members, at least one of them a body.
fn pair(rng: &mut ChaCha8Rng, bodies: &[String], members: &[String]) -> (String, String) {
    let a = pick(rng, bodies).clone();
    loop {
        let b = pick(rng, members).clone();
        if b != a {
            return if rng.random_bool(0.5) { (a, b) } else { (b, a) };
        }
    }
}

fn sig_force(rng: &mut ChaCha8Rng) -> Sig {
    if rng.random_bool(0.6) {
        Sig::Const(uni(rng, -1.0, 1.0))
    } else {
        Sig::Sine {
            amplitude: uni(rng, 0.1, 1.5),
            frequency: uni(rng, 0.2, 2.0),
            phase: if rng.random_bool(0.5) { 0.0 } else { uni(rng, 0.0, 3.0) },
            offset: if rng.random_bool(0.5) { 0.0 } else { uni(rng, -0.5, 0.5) },
        }
    }
}

fn sig_normal(rng: &mut ChaCha8Rng, t_end: f64) -> Option<Sig> {
    match rng.random_range(0..10) {
        0..=4 => None,
        5 => Some(Sig::Const(uni(rng, 0.3, 2.0))),
        6 | 7 => Some(Sig::Sine {
            amplitude: uni(rng, 0.1, 1.3),
            frequency: uni(rng, 0.2, 1.5),
            phase: 0.0,
            offset: 1.0,
        }),
        // a load falling under a stuck contact (possibly to zero and below)
        8 => Some(Sig::Ramp { rate: -uni(rng, 0.05, 0.4), start: uni(rng, 0.0, t_end / 2.0), offset: 1.0 }),
        _ => Some(Sig::Step { amplitude: uni(rng, -1.0, 1.0), at: uni(rng, 0.1, t_end), offset: 1.0 }),
    }
}

fn model(rng: &mut ChaCha8Rng, wide: bool) -> Model {
    let fc = uni(rng, 0.1, 1.5);
    let k = if wide { rng.random_range(0..10) } else { rng.random_range(0..4) };
    match k {
        0 | 1 => Model::Coulomb { fc, fs: rng.random_bool(0.3).then(|| r3(fc * uni(rng, 1.0, 1.5))) },
        2 => Model::Stribeck { fc, fs: r3(fc * uni(rng, 1.0, 1.6)), vs: uni(rng, 0.005, 0.2), kv: 0.0 },
        3 => Model::Stribeck {
            fc,
            fs: r3(fc * uni(rng, 1.0, 1.6)),
            vs: uni(rng, 0.005, 0.2),
            kv: uni(rng, 0.05, 2.0),
        },
        4 => Model::CoulombViscous {
            fc,
            kv: uni(rng, 0.05, 2.0),
            fs: rng.random_bool(0.5).then(|| r3(fc * uni(rng, 1.0, 1.5))),
        },
        5 => {
            let mu_c = fc;
            Model::StribeckExp {
                mu_c,
                gamma: r3(mu_c * uni(rng, 0.0, 0.5)),
                beta: -uni(rng, 5.0, 100.0),
                alpha: if rng.random_bool(0.5) { 0.0 } else { uni(rng, 0.0, 1.0) },
            }
        }
        6 => Model::Table {
            mu0: fc,
            mu1: r3(fc * uni(rng, 0.6, 1.0)),
            mu2: r3(fc * uni(rng, 0.6, 1.4)),
            peak: uni(rng, 1.0, 1.5),
        },
        7 => Model::Classical { fc, kv: uni(rng, 0.0, 1.0), fs: r3(fc * uni(rng, 1.0, 1.5)) },
        _ => {
            Model::Freewheel { forward: rng.random_bool(0.5), fd: uni(rng, 0.0, 0.3), fl: uni(rng, 0.3, 3.0) }
        }
    }
}

/// The network of seed `seed`. `wide = false` keeps to issue 50's class
/// (translational, `coulomb` and `stribeck` contacts, no gaps); `wide`
/// adds rotational networks, gaps, every set-valued model (coulomb,
/// coulomb_viscous, stribeck, stribeck_exp, table, classical, freewheel)
/// and step normal loads.
pub fn generate(seed: u64, wide: bool) -> Net {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let t_end = uni(&mut rng, 2.0, 5.0);
    let rotational = wide && rng.random_bool(0.2);
    let nb = rng.random_range(2..=5usize);
    let nd = rng.random_range(0..=2usize);
    let bodies: Vec<Body> = (0..nb)
        .map(|i| Body {
            name: format!("m{i}"),
            mass: uni(&mut rng, 0.2, 3.0),
            x0: if rng.random_bool(0.7) { 0.0 } else { uni(&mut rng, -0.5, 0.5) },
            v0: if rng.random_bool(0.6) { 0.0 } else { uni(&mut rng, -0.5, 0.5) },
        })
        .collect();
    let drivers: Vec<(String, Sig)> = (0..nd)
        .map(|i| {
            let m = if rng.random_bool(0.6) {
                Sig::Ramp {
                    rate: uni(&mut rng, 0.05, 0.5) * if rng.random_bool(0.5) { 1.0 } else { -1.0 },
                    start: if rng.random_bool(0.5) { 0.0 } else { uni(&mut rng, 0.2, 2.0) },
                    offset: 0.0,
                }
            } else {
                Sig::Sine {
                    amplitude: uni(&mut rng, 0.01, 0.3),
                    frequency: uni(&mut rng, 0.2, 2.0),
                    phase: 0.0,
                    offset: 0.0,
                }
            };
            (format!("d{i}"), m)
        })
        .collect();
    let bnames: Vec<String> = bodies.iter().map(|b| b.name.clone()).collect();
    let mut members = vec!["ground".to_string()];
    members.extend(bnames.iter().cloned());
    members.extend(drivers.iter().map(|d| d.0.clone()));

    let mut springs = Vec::new();
    for _ in 0..rng.random_range(0..=3) {
        let (a, b) = pair(&mut rng, &bnames, &members);
        let len = if rng.random_bool(0.5) { 0.0 } else { uni(&mut rng, -0.3, 0.3) };
        springs.push(Link { a, b, k: uni(&mut rng, 0.5, 20.0), len });
    }
    let mut dampers = Vec::new();
    for _ in 0..rng.random_range(0..=2) {
        let (a, b) = pair(&mut rng, &bnames, &members);
        dampers.push(Link { a, b, k: uni(&mut rng, 0.05, 2.0), len: 0.0 });
    }
    let forces: Vec<(String, Sig)> = (0..rng.random_range(0..=3))
        .map(|_| (pick(&mut rng, &bnames).clone(), sig_force(&mut rng)))
        .collect();

    let mut contacts: Vec<Contact> = Vec::new();
    let nc = rng.random_range(2..=6usize);
    for i in 0..nc {
        // parallel contacts: the pair of an earlier one, either way round
        let (a, b) = if i > 0 && rng.random_bool(0.3) {
            let c = &contacts[rng.random_range(0..contacts.len())];
            if rng.random_bool(0.5) {
                (c.a.clone(), c.b.clone())
            } else {
                (c.b.clone(), c.a.clone())
            }
        } else {
            pair(&mut rng, &bnames, &members)
        };
        let mut normal = sig_normal(&mut rng, t_end);
        if !wide && matches!(normal, Some(Sig::Step { .. })) {
            normal = None;
        }
        contacts.push(Contact { name: format!("c{i}"), a, b, model: model(&mut rng, wide), normal });
    }
    let mut gaps = Vec::new();
    if wide {
        for i in 0..rng.random_range(0..=1) {
            let (a, b) = pair(&mut rng, &bnames, &members);
            gaps.push(Gap {
                name: format!("g{i}"),
                a,
                b,
                len: uni(&mut rng, -0.3, 0.1),
                stiffness: uni(&mut rng, 10.0, 1000.0),
                damping: if rng.random_bool(0.5) { 0.0 } else { uni(&mut rng, 0.1, 5.0) },
            });
        }
    }
    let mut stops = Vec::new();
    let mut stopped = Vec::new();
    for _ in 0..rng.random_range(0..=2) {
        let bi = rng.random_range(0..nb);
        if stopped.contains(&bi) {
            continue;
        }
        stopped.push(bi);
        let x0 = bodies[bi].x0;
        // on the stop at the start, or a little way from it
        let lo = if rng.random_bool(0.4) { 0.0 } else { uni(&mut rng, 0.02, 0.4) };
        let hi = if rng.random_bool(0.4) { 0.0 } else { uni(&mut rng, 0.02, 0.6) };
        let (min, max) = match rng.random_range(0..3) {
            0 => (Some(r3(x0 - lo)), None),
            1 => (None, Some(r3(x0 + hi))),
            _ => (Some(r3(x0 - lo)), Some(r3(x0 + hi.max(0.02)))),
        };
        let restitution = if rng.random_bool(0.7) { 0.0 } else { uni(&mut rng, 0.1, 0.8) };
        stops.push(Stop { body: bodies[bi].name.clone(), min, max, restitution });
    }
    Net {
        name: format!("random_{seed}"),
        rotational,
        bodies,
        drivers,
        springs,
        dampers,
        forces,
        contacts,
        gaps,
        stops,
        t_end,
    }
}

// -------------------------------------------------------------- invariants

/// A broken invariant: its kind (the symptom, kept while shrinking), the
/// first time it was seen and what was seen.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    pub kind: &'static str,
    pub t: f64,
    pub detail: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (t = {}): {}", self.kind, self.t, self.detail)
    }
}

thread_local! {
    static CATCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static PANIC_MSG: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Run `f`, turning a panic into `Err(message with its location)` without
/// printing it (other panics print as usual).
fn quiet_catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !CATCHING.with(|c| c.get()) {
                return prev(info);
            }
            let msg = info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let loc = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
            PANIC_MSG.with(|m| *m.borrow_mut() = Some(format!("{msg}{loc}")));
        }));
    });
    CATCHING.with(|c| c.set(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(false));
    r.map_err(|_| PANIC_MSG.with(|m| m.borrow_mut().take()).unwrap_or_default())
}

/// Parse and run a scenario and check every invariant; the first broken
/// one, if any. `Err` of the outer result: the text is not a valid
/// scenario (a generator or shrinker error, not the engine's).
pub fn check_text(text: &str) -> Result<Option<Violation>, String> {
    let sys = scenario::parse(text, "random.toml", Path::new(".")).map_err(|e| e.to_string())?;
    let out = match quiet_catch(|| simulate(&sys)) {
        Err(msg) => return Ok(Some(Violation { kind: "panic", t: f64::NAN, detail: msg })),
        Ok(Err(e)) => {
            return Ok(Some(Violation { kind: "simulate error", t: f64::NAN, detail: e.to_string() }))
        }
        Ok(Ok(out)) => out,
    };
    Ok(check_outcome(&sys, &out))
}

/// The time at which the engine reads the schedules for the row at `t`:
/// just before a breakpoint of any schedule (driver motions, forces, normal
/// loads) that the row sits on, whose jump the row does not show yet (its
/// left limit, as a row at an event shows the state before the event).
fn schedule_time(sys: &System, t: f64) -> f64 {
    let t_end = sys.solver.t_end;
    let at = |s: &friction_sim::Schedule| {
        s.breakpoints(t_end).into_iter().find(|&b| (t - b).abs() <= 1e-12 * (1.0 + b.abs()))
    };
    let hit = sys
        .drivers
        .iter()
        .map(|d| &d.motion)
        .chain(sys.forces.iter().map(|f| &f.value))
        .chain(sys.contacts.iter().map(|c| &c.normal))
        .find_map(at);
    hit.map_or(t, f64::next_down)
}

/// The positions and velocities of a member at a row.
fn member(sys: &System, out: &Outcome, row: &[f64], m: Member) -> (f64, f64) {
    match m {
        // random networks have no structures
        Member::Ground | Member::Dof { .. } => (0.0, 0.0),
        Member::Body(i) => {
            let n = &sys.bodies[i].name;
            (row[out.col(&format!("x.{n}")).unwrap()], row[out.col(&format!("v.{n}")).unwrap()])
        }
        Member::Driver(i) => {
            let (x, v, _) = sys.drivers[i].motion.eval(schedule_time(sys, row[0]));
            (x, v)
        }
    }
}

/// Whether a contact's model is set-valued and memoryless: its stuck force
/// lies in N times `static_range`, its sliding force is N times `force`.
fn set_valued(ct: &friction_sim::system::Contact) -> Option<(f64, f64)> {
    if ct.model.n_states() > 0 || ct.model.n_memory() > 0 {
        return None;
    }
    ct.model.static_range(&[], &[])
}

/// Every invariant of a finished run (see the module's constants).
pub fn check_outcome(sys: &System, out: &Outcome) -> Option<Violation> {
    let v = |kind, t, detail| Some(Violation { kind, t, detail });
    let t_end = sys.solver.t_end;
    let mut found: Option<Violation> = None;
    let mut note = |x: Option<Violation>| {
        if let Some(x) = x {
            if found.as_ref().is_none_or(|f| x.t < f.t) {
                found = Some(x);
            }
        }
    };
    if out.rows.is_empty() {
        return v("no rows", 0.0, String::new());
    }
    for (r, row) in out.rows.iter().enumerate() {
        if let Some(c) = row.iter().position(|x| !x.is_finite()) {
            note(v("non-finite output", row[0], format!("{} = {} at row {r}", out.columns[c], row[c])));
            break;
        }
    }
    // contact forces: within N times the static range when stuck (slip
    // velocity 0 to rounding), on N times the sliding curve when sliding
    'contacts: for ct in &sys.contacts {
        let Some((lo, hi)) = set_valued(ct) else { continue };
        let (Some(fi), Some(si), Some(vi)) = (
            out.col(&format!("F.{}", ct.name)),
            out.col(&format!("s.{}", ct.name)),
            out.col(&format!("sv.{}", ct.name)),
        ) else {
            continue;
        };
        for row in &out.rows {
            let t = row[0];
            // either side of a jump of the normal load
            let n1 = ct.normal.value(t).max(0.0);
            let n0 = if t > 0.0 { ct.normal.value(t - 1e-9).max(0.0) } else { n1 };
            let f = -row[fi];
            let sv = row[vi];
            // stuck: a slip velocity inside the stick band (a sliding force
            // there is within the capacity as well)
            if sv.abs() <= SLIP_ZERO {
                let n = n0.max(n1);
                let tol = FORCE_RTOL * hi.abs().max(lo.abs()) * n + FORCE_ATOL;
                if f > hi * n + tol || f < lo * n - tol {
                    note(v(
                        "stuck force beyond capacity",
                        t,
                        format!("{}: F = {f:e} outside [{:e}, {:e}]", ct.name, lo * n, hi * n),
                    ));
                    continue 'contacts;
                }
            } else {
                let m = ct.model.force(&Input::new(t, row[si], sv), &[], &[]);
                let ok = [n0, n1].iter().any(|n| {
                    let want = m * n;
                    (f - want).abs() <= FORCE_RTOL * (want.abs() + hi.abs().max(lo.abs()) * n) + FORCE_ATOL
                });
                if !ok {
                    note(v(
                        "sliding force off its curve",
                        t,
                        format!("{}: F = {f:e} at sv = {sv:e}, the curve gives {:e}", ct.name, m * n1),
                    ));
                    continue 'contacts;
                }
            }
        }
    }
    // bodies at rest (v = 0 and the same x at three rows in a row): the
    // forces on them balance, a stop only pushing
    for (bi, b) in sys.bodies.iter().enumerate() {
        let (Some(xi), Some(vi)) = (out.col(&format!("x.{}", b.name)), out.col(&format!("v.{}", b.name)))
        else {
            continue;
        };
        for r in 1..out.rows.len().saturating_sub(1) {
            let rows = &out.rows[r - 1..=r + 1];
            if rows.iter().any(|row| row[vi] != 0.0 || row[xi] != out.rows[r][xi]) {
                continue;
            }
            let row = &out.rows[r];
            let t = row[0];
            let (net, scale) = forces_on(sys, out, row, bi);
            let x = row[xi];
            let tol = BALANCE_RTOL * scale + FORCE_ATOL;
            let at_min = sys.stops.iter().any(|s| s.body == bi && s.min == x);
            let at_max = sys.stops.iter().any(|s| s.body == bi && s.max == x);
            let bad = if at_min && at_max {
                false
            } else if at_min {
                net > tol
            } else if at_max {
                net < -tol
            } else {
                net.abs() > tol
            };
            if bad {
                let kind = if at_min || at_max { "stop pulls" } else { "body at rest out of balance" };
                note(v(
                    kind,
                    t,
                    format!(
                        "{} at rest at x = {x}{}: the other forces sum to {net:e}",
                        b.name,
                        if at_min {
                            " (on its lower stop)"
                        } else if at_max {
                            " (on its upper stop)"
                        } else {
                            ""
                        }
                    ),
                ));
                break;
            }
        }
    }
    // energy: the balance closes, and the kinetic energy at the start is
    // that of the initial velocities
    let e = &out.energy;
    let ke0: f64 = sys.bodies.iter().map(|b| 0.5 * b.mass * b.v0 * b.v0).sum();
    if (e.kinetic.0 - ke0).abs() > 1e-9 * ke0 + 1e-12 {
        note(v(
            "initial kinetic energy misbooked",
            0.0,
            format!("kinetic_start = {:e}, ½ Σ m v0² = {ke0:e}", e.kinetic.0),
        ));
    }
    let dissipated = e.dissipated_total();
    // the largest kinetic energy at any row: the work quadratures carry it
    // and their error is relative to it, not to what is left at the end (a
    // free body under a sine force ends its run near rest: 5.6e-8 J left of
    // 3.9e-3 J carried, with a quadrature error of 1.5e-11 J, seed 5078)
    let v_cols: Vec<(f64, usize)> =
        sys.bodies.iter().filter_map(|b| Some((b.mass, out.col(&format!("v.{}", b.name))?))).collect();
    let peak_kinetic = out
        .rows
        .iter()
        .map(|row| v_cols.iter().map(|&(m, i)| 0.5 * m * row[i] * row[i]).sum::<f64>())
        .fold(0.0, f64::max);
    let scale = dissipated
        .abs()
        .max(e.work_forces.abs() + e.work_drivers.abs())
        .max(e.kinetic.0.abs().max(e.kinetic.1.abs()))
        .max(e.spring.0.abs().max(e.spring.1.abs()))
        .max(peak_kinetic);
    let residual =
        e.work_forces + e.work_drivers - (e.kinetic.1 - e.kinetic.0 + e.spring.1 - e.spring.0 + dissipated);
    if (residual - e.residual).abs() > 1e-9 * scale + 1e-12 {
        note(v(
            "energy residual misreported",
            t_end,
            format!("residual {:e}, its terms give {residual:e}", e.residual),
        ));
    }
    if residual.abs() > ENERGY_RTOL * scale + 1e-12 {
        note(v(
            "energy balance off",
            t_end,
            format!(
                "residual {residual:e}, relative {:e} (bound {ENERGY_RTOL:e})",
                residual.abs() / scale.max(1e-300)
            ),
        ));
    }
    // events bounded
    let limit = EVENTS_PER_SECOND * t_end;
    if out.events.len() as f64 > limit {
        let ev = &out.events[limit as usize];
        let mut names: Vec<&str> = out.events.iter().map(|e| e.contact.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        note(v(
            "chatter",
            ev.t,
            format!(
                "{} events in {t_end} s ({}), the last by {}",
                out.events.len(),
                names.join(", "),
                ev.contact
            ),
        ));
    }
    if let Some(f) = &out.failure {
        note(v("run failed", out.rows.last().map_or(0.0, |r| r[0]), f.clone()));
    }
    found
}

/// The sum of the forces on body `bi` at `row` except its stops' and the
/// sum of their magnitudes.
fn forces_on(sys: &System, out: &Outcome, row: &[f64], bi: usize) -> (f64, f64) {
    let t = row[0];
    let me = Member::Body(bi);
    let (mut net, mut scale) = (0.0, 0.0);
    let mut add = |f: f64| {
        net += f;
        scale += f.abs();
    };
    for s in &sys.springs {
        let (x1, _) = member(sys, out, row, s.between[0]);
        let (x2, _) = member(sys, out, row, s.between[1]);
        let f = s.stiffness * (x2 - x1 - s.length);
        if s.between[0] == me {
            add(f);
        }
        if s.between[1] == me {
            add(-f);
        }
    }
    for d in &sys.dampers {
        let (_, v1) = member(sys, out, row, d.between[0]);
        let (_, v2) = member(sys, out, row, d.between[1]);
        let f = d.coefficient * (v2 - v1);
        if d.between[0] == me {
            add(f);
        }
        if d.between[1] == me {
            add(-f);
        }
    }
    for f in &sys.forces {
        if f.on == bi {
            add(f.value.value(schedule_time(sys, t)));
        }
    }
    for c in &sys.contacts {
        let Some(fi) = out.col(&format!("F.{}", c.name)) else { continue };
        if c.between[0] == me {
            add(row[fi]);
        }
        if c.between[1] == me {
            add(-row[fi]);
        }
    }
    for g in &sys.gaps {
        // F.NAME of a gap is after every other column
        let Some(fi) = out.columns.iter().rposition(|c| *c == format!("F.{}", g.name)) else { continue };
        if g.between[0] == me {
            add(-row[fi]);
        }
        if g.between[1] == me {
            add(row[fi]);
        }
    }
    (net, scale)
}

// ---------------------------------------------------------------- shrinker

/// The outcome of the network: `None` when it passes or is not a valid
/// scenario.
pub fn check_net(net: &Net) -> Option<Violation> {
    check_text(&net.toml()).ok().flatten()
}

/// Simpler variants of `net`, most reducing first.
fn candidates(net: &Net, fail_t: f64) -> Vec<Net> {
    let mut out = Vec::new();
    let mut push = |n: Net| out.push(n);
    // a shorter run
    if fail_t.is_finite() {
        let mut n = net.clone();
        n.t_end = ((fail_t + 0.1) * 10.0).ceil() / 10.0;
        if n.t_end < net.t_end {
            push(n);
        }
    }
    // whole members
    for b in &net.bodies {
        let mut n = net.clone();
        n.remove_member(&b.name);
        push(n);
    }
    for d in &net.drivers {
        let mut n = net.clone();
        n.remove_member(&d.0);
        push(n);
    }
    macro_rules! drop_each {
        ($field:ident) => {
            for i in 0..net.$field.len() {
                let mut n = net.clone();
                n.$field.remove(i);
                push(n);
            }
        };
    }
    drop_each!(contacts);
    drop_each!(springs);
    drop_each!(dampers);
    drop_each!(forces);
    drop_each!(gaps);
    drop_each!(stops);
    // simpler parts
    for (i, c) in net.contacts.iter().enumerate() {
        if let Some(normal) = &c.normal {
            let mut n = net.clone();
            n.contacts[i].normal = None;
            push(n);
            for s in normal.simpler() {
                let mut n = net.clone();
                n.contacts[i].normal = Some(s);
                push(n);
            }
        }
        if let Some(m) = c.model.simpler() {
            let mut n = net.clone();
            n.contacts[i].model = m;
            push(n);
        }
    }
    for (i, d) in net.drivers.iter().enumerate() {
        for s in d.1.simpler() {
            if matches!(s, Sig::Ramp { .. } | Sig::Sine { .. }) {
                let mut n = net.clone();
                n.drivers[i].1 = s;
                push(n);
            }
        }
    }
    for (i, f) in net.forces.iter().enumerate() {
        for s in f.1.simpler() {
            let mut n = net.clone();
            n.forces[i].1 = s;
            push(n);
        }
    }
    for (i, b) in net.bodies.iter().enumerate() {
        if b.v0 != 0.0 {
            let mut n = net.clone();
            n.bodies[i].v0 = 0.0;
            push(n);
        }
        if b.mass != 1.0 {
            let mut n = net.clone();
            n.bodies[i].mass = 1.0;
            push(n);
        }
    }
    for (i, s) in net.stops.iter().enumerate() {
        if s.restitution != 0.0 {
            let mut n = net.clone();
            n.stops[i].restitution = 0.0;
            push(n);
        }
        if s.min.is_some() && s.max.is_some() {
            let mut n = net.clone();
            n.stops[i].min = None;
            push(n);
            let mut n = net.clone();
            n.stops[i].max = None;
            push(n);
        }
    }
    // rounder numbers, all at once
    let mut n = net.clone();
    round_all(&mut n);
    if n != *net {
        push(n);
    }
    out
}

fn round_all(n: &mut Net) {
    for b in &mut n.bodies {
        b.mass = round1(b.mass);
        b.v0 = round1(b.v0);
    }
    for d in &mut n.drivers {
        d.1.round();
    }
    for l in n.springs.iter_mut().chain(n.dampers.iter_mut()) {
        l.k = round1(l.k);
        l.len = round1(l.len);
    }
    for f in &mut n.forces {
        f.1.round();
    }
    for c in &mut n.contacts {
        if let Some(s) = &mut c.normal {
            s.round();
        }
    }
}

/// Shrink a failing network while it keeps failing with the same kind of
/// violation; at most `budget` runs. The small network and its violation.
pub fn shrink(net: &Net, first: &Violation, budget: usize) -> (Net, Violation) {
    let (mut best, mut viol) = (net.clone(), first.clone());
    best.name = "shrunk".to_string();
    let mut runs = 0;
    'outer: loop {
        for cand in candidates(&best, viol.t) {
            if runs >= budget {
                break 'outer;
            }
            runs += 1;
            if let Some(v) = check_net(&cand) {
                if v.kind == viol.kind {
                    best = cand;
                    viol = v;
                    continue 'outer;
                }
            }
        }
        break;
    }
    (best, viol)
}

/// The result of one seed.
pub struct CaseResult {
    pub seed: u64,
    pub violation: Option<Violation>,
}

/// Run seed `seed`; panics if the generator made an invalid scenario.
pub fn run_seed(seed: u64, wide: bool) -> CaseResult {
    let net = generate(seed, wide);
    let text = net.toml();
    match check_text(&text) {
        Err(e) => panic!("seed {seed}: the generator made an invalid scenario: {e}\n{text}"),
        Ok(violation) => CaseResult { seed, violation },
    }
}
