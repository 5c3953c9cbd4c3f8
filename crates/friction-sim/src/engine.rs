//! The simulation engine: 1-D mechanical networks with any number of
//! frictional contacts, true stick and slip, events, and diffsol's solvers.
//!
//! # Formulation
//! ```text
//! state y = [x_b (bodies), v_b (bodies), z (contact states), quadratures]
//! M dv/dt = f(t, x, v, z) - E λ          f: springs, dampers, forces, sliding contacts
//! E^T dv/dt + k(t) = 0                   for the active constraints (stuck contacts, resting stops)
//! (E^T M^-1 E) λ = E^T M^-1 f + k(t)     solved with the pseudo-inverse (minimum-norm λ when
//!                                        constraints are redundant), fixed between events
//! ```
//! Set-valued contacts (a model with a maximum static force) have modes
//! stuck / forward / backward. While stuck, the relative acceleration is zero
//! and the contact force λ is whatever the system needs. Transitions are events
//! located by diffsol's root finder: a sliding contact's relative velocity
//! reaching zero (Karnopp: entering its band), a stuck contact's |λ| reaching
//! the maximum static force N Fs, a resting stop's reaction changing sign, a
//! free body reaching a stop. At every event the stuck/sliding combination of
//! all contacts at rest is chosen jointly: the combinations are tried in order
//! of fewest sliding contacts, and the first that is consistent (stuck: |λ| <= N Fs,
//! sliding: the relative acceleration has the assumed sign, with the sliding force
//! taken at v = 0±) is taken. So coupled contacts never get inconsistent forces,
//! and contacts stick whenever sticking is consistent. Velocities are projected
//! onto the new constraints (a plastic impulse; its energy is booked).
//! Hysteresis memory is updated only on accepted steps.

// Index loops over parallel arrays (bodies, rows, contacts) read best as such.
#![allow(clippy::needless_range_loop)]

use std::cell::{Cell, RefCell};
use std::time::Instant;

use diffsol::{
    NalgebraLU, NalgebraMat, NalgebraVec, OdeBuilder, OdeEquations, OdeSolverMethod, OdeSolverStopReason,
};
use friction_models::{FrictionModel, Input};
use nalgebra::DMatrix;

use crate::error::SimError;
use crate::scenario::{Member, Method, System};

type M = NalgebraMat<f64>;
type LS = NalgebraLU<f64>;
type V = NalgebraVec<f64>;

/// Stick/slip mode of a contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Not set-valued (smooth, state or hysteresis model), or no body involved.
    Smooth,
    /// At rest, relative acceleration held at zero.
    Stuck,
    /// Sliding with positive relative velocity.
    Forward,
    /// Sliding with negative relative velocity.
    Backward,
}

impl Mode {
    /// Name used in the event log.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Smooth => "smooth",
            Mode::Stuck => "stuck",
            Mode::Forward => "forward",
            Mode::Backward => "backward",
        }
    }
}

/// State of an end stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StopMode {
    Free,
    AtMin,
    AtMax,
}

/// One logged transition.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Time [s].
    pub t: f64,
    /// Contact (or `stop:BODY`) name.
    pub contact: String,
    /// Mode before.
    pub from: String,
    /// Mode after.
    pub to: String,
}

/// Solver statistics.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps (error test failures).
    pub rejected: usize,
    /// Right-hand-side evaluations (including those for Jacobians).
    pub rhs_evals: usize,
    /// Wall time [s].
    pub wall_time: f64,
    /// The method actually used.
    pub method: String,
}

/// Energy bookkeeping over the run.
#[derive(Debug, Clone, Default)]
pub struct Energy {
    /// Work done by the external forces [J].
    pub work_forces: f64,
    /// Work done by the drivers [J].
    pub work_drivers: f64,
    /// Kinetic energy at start and end [J].
    pub kinetic: (f64, f64),
    /// Spring energy at start and end [J].
    pub spring: (f64, f64),
    /// ∫ F v_rel dt per contact: dissipated (plus, for elastic contact models, stored) [J].
    pub contacts: Vec<(String, f64)>,
    /// Dissipated per damper [J].
    pub dampers: Vec<(String, f64)>,
    /// Kinetic energy lost in impulses (sticking projections, impacts) [J].
    pub impacts: f64,
    /// work in - (change of stored energy + dissipation) [J].
    pub residual: f64,
}

/// The result of a run: a time series, the event log, statistics, energy.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Column names: `t`, `x.NAME`, `v.NAME`, `F.NAME`, `z.NAME.k`.
    ///
    /// `F.NAME` is the force the contact exerts on its *first* member: it
    /// opposes that member's slip, so it is `-F` of the model convention
    /// (negative while the first member slides forward).
    pub columns: Vec<String>,
    /// Rows of values, one per output time.
    pub rows: Vec<Vec<f64>>,
    /// Mode transitions.
    pub events: Vec<Event>,
    /// Statistics.
    pub stats: Stats,
    /// Energy balance.
    pub energy: Energy,
    /// If the run failed, why; the rows then hold what was computed until then.
    pub failure: Option<String>,
}

impl Outcome {
    /// Index of a column by name.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The whole column `name`.
    pub fn series(&self, name: &str) -> Vec<f64> {
        let i = self.col(name).unwrap_or_else(|| panic!("no column {name}"));
        self.rows.iter().map(|r| r[i]).collect()
    }

    /// Last value of column `name`.
    pub fn last(&self, name: &str) -> f64 {
        let i = self.col(name).unwrap_or_else(|| panic!("no column {name}"));
        self.rows.last().map(|r| r[i]).unwrap_or(f64::NAN)
    }
}

/// An active constraint row: relative motion (first - second) held at zero.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Row {
    kind: RowKind,
    ia: Option<usize>,
    ib: Option<usize>,
    da: Option<usize>,
    db: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum RowKind {
    Contact(usize),
    Stop(usize),
}

/// Everything discrete: modes, active rows and their pseudo-inverse, memory.
#[derive(Debug, Clone)]
struct Discrete {
    modes: Vec<Mode>,
    stops: Vec<StopMode>,
    rows: Vec<Row>,
    pinv: DMatrix<f64>,
    clusters: Vec<Cluster>,
    mem: Vec<Vec<f64>>,
    impacts: f64,
}

/// Bodies held together by active constraints, moving as one; `anchor` is
/// what the group is held to, if anything.
#[derive(Debug, Clone, PartialEq)]
struct Cluster {
    bodies: Vec<usize>,
    anchor: Anchor,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Anchor {
    Free,
    Ground,
    Driver(usize),
}

/// Preallocated work space of one evaluation.
#[derive(Debug, Clone)]
struct Scratch {
    f: Vec<f64>,
    f_free: Vec<f64>,
    fd: Vec<f64>,
    drv: Vec<(f64, f64, f64)>,
    fc: Vec<f64>,
    vrel: Vec<f64>,
    normal: Vec<f64>,
    b: Vec<f64>,
    lam: Vec<f64>,
    a: Vec<f64>,
    fy: Vec<f64>,
    yp: Vec<f64>,
    fyp: Vec<f64>,
}

/// A prepared simulation of a [`System`].
pub struct Engine<'s> {
    sys: &'s System,
    nb: usize,
    z_off: Vec<usize>,
    nz: usize,
    q_off: usize,
    n: usize,
    nroots: usize,
    stuckable: Vec<bool>,
    disc: RefCell<Discrete>,
    scr: RefCell<Scratch>,
    rhs_count: Cell<usize>,
}

fn slice(v: &V) -> &[f64] {
    v.batch_as_slice(0)
}

impl<'s> Engine<'s> {
    /// Prepare the engine for `sys`.
    pub fn new(sys: &'s System) -> Self {
        let nb = sys.bodies.len();
        let mut z_off = Vec::with_capacity(sys.contacts.len());
        let mut nz = 0;
        for c in &sys.contacts {
            z_off.push(2 * nb + nz);
            nz += c.model.n_states();
        }
        let nc = sys.contacts.len();
        let q_off = 2 * nb + nz;
        // quadratures: contact works (nc), damper dissipations (nd), force work, driver work
        let n = q_off + nc + sys.dampers.len() + 2;
        let nroots = (nc + 2 * sys.stops.len()).max(1);
        let stuckable = sys
            .contacts
            .iter()
            .map(|c| {
                c.model.max_static(&vec![0.0; c.model.n_states()], &vec![0.0; c.model.n_memory()]).is_some()
                    && c.between.iter().any(|m| matches!(m, Member::Body(_)))
                    && c.model.n_states() == 0
            })
            .collect();
        let mem = sys.contacts.iter().map(|c| vec![0.0; c.model.n_memory()]).collect();
        let nd = sys.drivers.len();
        Engine {
            sys,
            nb,
            z_off,
            nz,
            q_off,
            n,
            nroots,
            stuckable,
            disc: RefCell::new(Discrete {
                modes: vec![Mode::Smooth; nc],
                stops: vec![StopMode::Free; sys.stops.len()],
                rows: vec![],
                pinv: DMatrix::zeros(0, 0),
                clusters: vec![],
                mem,
                impacts: 0.0,
            }),
            scr: RefCell::new(Scratch {
                f: vec![0.0; nb],
                f_free: vec![0.0; nb],
                fd: vec![0.0; nd],
                drv: vec![(0.0, 0.0, 0.0); nd],
                fc: vec![0.0; nc],
                vrel: vec![0.0; nc],
                normal: vec![0.0; nc],
                b: vec![],
                lam: vec![],
                a: vec![0.0; nb],
                fy: vec![0.0; n],
                yp: vec![0.0; n],
                fyp: vec![0.0; n],
            }),
            rhs_count: Cell::new(0),
        }
    }

    /// Number of states of the ODE (including energy quadratures).
    pub fn n_states(&self) -> usize {
        self.n
    }

    fn pos(&self, y: &[f64], s: &Scratch, m: Member) -> (f64, f64) {
        match m {
            Member::Ground => (0.0, 0.0),
            Member::Body(i) => (y[i], y[self.nb + i]),
            Member::Driver(d) => (s.drv[d].0, s.drv[d].1),
        }
    }

    fn add_force(s: &mut Scratch, m: Member, f: f64) {
        match m {
            Member::Ground => {}
            Member::Body(i) => s.f[i] += f,
            Member::Driver(d) => s.fd[d] += f,
        }
    }

    /// One evaluation of the equations at (t, y) under discrete state `d`:
    /// fills the scratch (forces, λ, accelerations) and, if given, dy.
    fn eval(&self, t: f64, y: &[f64], d: &Discrete, s: &mut Scratch, dy: Option<&mut [f64]>) {
        let sys = self.sys;
        let nb = self.nb;
        for (k, dr) in sys.drivers.iter().enumerate() {
            s.drv[k] = dr.motion.eval(t);
        }
        s.f.fill(0.0);
        s.fd.fill(0.0);
        for f in &sys.forces {
            s.f[f.on] += f.value.value(t);
        }
        for sp in &sys.springs {
            let (xa, _) = self.pos(y, s, sp.between[0]);
            let (xb, _) = self.pos(y, s, sp.between[1]);
            let fs = sp.stiffness * (xb - xa - sp.length);
            Self::add_force(s, sp.between[0], fs);
            Self::add_force(s, sp.between[1], -fs);
        }
        for dp in &sys.dampers {
            let (_, va) = self.pos(y, s, dp.between[0]);
            let (_, vb) = self.pos(y, s, dp.between[1]);
            let fdmp = dp.coefficient * (vb - va);
            Self::add_force(s, dp.between[0], fdmp);
            Self::add_force(s, dp.between[1], -fdmp);
        }
        let mut dy = dy;
        for (c, ct) in sys.contacts.iter().enumerate() {
            let (xa, va) = self.pos(y, s, ct.between[0]);
            let (xb, vb) = self.pos(y, s, ct.between[1]);
            let v = va - vb;
            s.vrel[c] = v;
            let n = ct.normal.value(t).max(0.0);
            s.normal[c] = n;
            let mode = d.modes[c];
            let veff = match mode {
                Mode::Forward => v.max(f64::MIN_POSITIVE),
                Mode::Backward => v.min(-f64::MIN_POSITIVE),
                _ => v,
            };
            let inp = Input::new(t, xa - xb, veff);
            let nzc = ct.model.n_states();
            let z = &y[self.z_off[c]..self.z_off[c] + nzc];
            if mode == Mode::Stuck {
                s.fc[c] = 0.0;
            } else {
                let fc = n * ct.model.force(&inp, z, &d.mem[c]);
                s.fc[c] = fc;
                Self::add_force(s, ct.between[0], -fc);
                Self::add_force(s, ct.between[1], fc);
            }
            if let Some(dy) = dy.as_deref_mut() {
                if nzc > 0 {
                    let off = self.z_off[c];
                    ct.model.rates(&inp, z, &d.mem[c], &mut dy[off..off + nzc]);
                }
            }
        }
        // constraint forces
        let ns = d.rows.len();
        s.b.resize(ns, 0.0);
        s.lam.resize(ns, 0.0);
        for (j, r) in d.rows.iter().enumerate() {
            let mut b = 0.0;
            if let Some(i) = r.ia {
                b += s.f[i] / sys.bodies[i].mass;
            }
            if let Some(i) = r.ib {
                b -= s.f[i] / sys.bodies[i].mass;
            }
            if let Some(k) = r.da {
                b += s.drv[k].2;
            }
            if let Some(k) = r.db {
                b -= s.drv[k].2;
            }
            s.b[j] = b;
        }
        for j in 0..ns {
            let mut l = 0.0;
            for k in 0..ns {
                l += d.pinv[(j, k)] * s.b[k];
            }
            s.lam[j] = l;
        }
        s.f_free.copy_from_slice(&s.f);
        for (j, r) in d.rows.iter().enumerate() {
            let l = s.lam[j];
            if let Some(i) = r.ia {
                s.f[i] -= l;
            }
            if let Some(i) = r.ib {
                s.f[i] += l;
            }
            if let Some(k) = r.da {
                s.fd[k] -= l;
            }
            if let Some(k) = r.db {
                s.fd[k] += l;
            }
            if let RowKind::Contact(c) = r.kind {
                s.fc[c] = l;
            }
        }
        for i in 0..nb {
            s.a[i] = s.f[i] / sys.bodies[i].mass;
        }
        // bodies held together move with exactly one acceleration, so their
        // relative velocity stays exactly zero under any integration formula
        for cl in &d.clusters {
            let a = match cl.anchor {
                Anchor::Ground => 0.0,
                Anchor::Driver(k) => s.drv[k].2,
                Anchor::Free => {
                    let fsum: f64 = cl.bodies.iter().map(|&i| s.f_free[i]).sum();
                    let msum: f64 = cl.bodies.iter().map(|&i| sys.bodies[i].mass).sum();
                    fsum / msum
                }
            };
            for &i in &cl.bodies {
                s.a[i] = a;
            }
        }
        if let Some(dy) = dy {
            dy[..nb].copy_from_slice(&y[nb..2 * nb]);
            dy[nb..2 * nb].copy_from_slice(&s.a);
            let q = self.q_off;
            let nc = sys.contacts.len();
            for c in 0..nc {
                dy[q + c] = s.fc[c] * s.vrel[c];
            }
            for (k, dp) in sys.dampers.iter().enumerate() {
                let (_, va) = self.pos(y, s, dp.between[0]);
                let (_, vb) = self.pos(y, s, dp.between[1]);
                dy[q + nc + k] = dp.coefficient * (vb - va).powi(2);
            }
            let mut pf = 0.0;
            for f in &sys.forces {
                pf += f.value.value(t) * y[nb + f.on];
            }
            let mut pd = 0.0;
            for (k, dr) in s.drv.iter().enumerate() {
                pd -= s.fd[k] * dr.1;
            }
            dy[q + nc + sys.dampers.len()] = pf;
            dy[q + nc + sys.dampers.len() + 1] = pd;
        }
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.rhs_count.set(self.rhs_count.get() + 1);
        let d = self.disc.borrow();
        let mut s = self.scr.borrow_mut();
        self.eval(t, y, &d, &mut s, Some(dy));
    }

    /// Jacobian-vector product by a forward difference (two evaluations).
    fn jvp(&self, t: f64, y: &[f64], v: &[f64], jv: &mut [f64]) {
        let vn = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if vn == 0.0 {
            jv.fill(0.0);
            return;
        }
        let yn = y.iter().map(|x| x * x).sum::<f64>().sqrt();
        let h = f64::EPSILON.sqrt() * (1.0 + yn) / vn;
        let (mut fy, mut yp, mut fyp) = {
            let mut s = self.scr.borrow_mut();
            (std::mem::take(&mut s.fy), std::mem::take(&mut s.yp), std::mem::take(&mut s.fyp))
        };
        self.rhs(t, y, &mut fy);
        for i in 0..y.len() {
            yp[i] = y[i] + h * v[i];
        }
        self.rhs(t, &yp, &mut fyp);
        for i in 0..y.len() {
            jv[i] = (fyp[i] - fy[i]) / h;
        }
        let mut s = self.scr.borrow_mut();
        s.fy = fy;
        s.yp = yp;
        s.fyp = fyp;
    }

    fn roots(&self, t: f64, y: &[f64], g: &mut [f64]) {
        let d = self.disc.borrow();
        let mut s = self.scr.borrow_mut();
        self.eval(t, y, &d, &mut s, None);
        g.fill(1.0);
        for (c, ct) in self.sys.contacts.iter().enumerate() {
            g[c] = match d.modes[c] {
                Mode::Smooth => 1.0,
                Mode::Forward => s.vrel[c] - ct.model.stick_band(),
                Mode::Backward => -s.vrel[c] - ct.model.stick_band(),
                Mode::Stuck => {
                    let fs = ct.model.max_static(&[], &d.mem[c]).unwrap_or(0.0) * s.normal[c];
                    // a margin above the settle test's 1e-10, so that a contact
                    // stuck exactly at its limit starts on the positive side
                    fs * (1.0 + 1e-9) - s.fc[c].abs()
                }
            };
        }
        let nc = self.sys.contacts.len();
        for (k, st) in self.sys.stops.iter().enumerate() {
            let x = y[st.body];
            let (g0, g1) = match d.stops[k] {
                StopMode::Free => (x - st.min, st.max - x),
                StopMode::AtMax => {
                    let l = self.stop_lambda(&d, &s, k);
                    (l + 1e-12 * (1.0 + l.abs()), 1.0)
                }
                StopMode::AtMin => {
                    let l = -self.stop_lambda(&d, &s, k);
                    (1.0, l + 1e-12 * (1.0 + l.abs()))
                }
            };
            g[nc + 2 * k] = if g0.is_finite() { g0 } else { 1.0 };
            g[nc + 2 * k + 1] = if g1.is_finite() { g1 } else { 1.0 };
        }
    }

    fn stop_lambda(&self, d: &Discrete, s: &Scratch, k: usize) -> f64 {
        d.rows.iter().position(|r| r.kind == RowKind::Stop(k)).map(|j| s.lam[j]).unwrap_or(0.0)
    }

    fn contact_row(&self, c: usize) -> Row {
        let [a, b] = self.sys.contacts[c].between;
        let mut r = Row { kind: RowKind::Contact(c), ia: None, ib: None, da: None, db: None };
        match a {
            Member::Body(i) => r.ia = Some(i),
            Member::Driver(k) => r.da = Some(k),
            Member::Ground => {}
        }
        match b {
            Member::Body(i) => r.ib = Some(i),
            Member::Driver(k) => r.db = Some(k),
            Member::Ground => {}
        }
        r
    }

    fn stop_row(&self, k: usize) -> Row {
        Row { kind: RowKind::Stop(k), ia: Some(self.sys.stops[k].body), ib: None, da: None, db: None }
    }

    /// Group the bodies linked by `rows` and find what each group is held to.
    fn clusters(&self, rows: &[Row]) -> Vec<Cluster> {
        let nb = self.nb;
        let mut parent: Vec<usize> = (0..nb).collect();
        fn find(p: &mut [usize], i: usize) -> usize {
            let mut r = i;
            while p[r] != r {
                r = p[r];
            }
            let mut j = i;
            while p[j] != r {
                let nx = p[j];
                p[j] = r;
                j = nx;
            }
            r
        }
        let mut anchor_of: Vec<Anchor> = vec![Anchor::Free; nb];
        let mut involved = vec![false; nb];
        for r in rows {
            if let (Some(a), Some(b)) = (r.ia, r.ib) {
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                parent[ra] = rb;
            }
            for i in [r.ia, r.ib].into_iter().flatten() {
                involved[i] = true;
            }
        }
        for r in rows {
            let body = r.ia.or(r.ib);
            let other = if r.ia.is_some() && r.ib.is_some() {
                None
            } else if let Some(k) = r.da.or(r.db) {
                Some(Anchor::Driver(k))
            } else {
                Some(Anchor::Ground)
            };
            if let (Some(b), Some(anc)) = (body, other) {
                let root = find(&mut parent, b);
                if anchor_of[root] == Anchor::Free {
                    anchor_of[root] = anc;
                }
            }
        }
        let mut out: Vec<Cluster> = Vec::new();
        let mut index_of_root = vec![usize::MAX; nb];
        for i in 0..nb {
            if !involved[i] {
                continue;
            }
            let root = find(&mut parent, i);
            if index_of_root[root] == usize::MAX {
                index_of_root[root] = out.len();
                out.push(Cluster { bodies: vec![], anchor: anchor_of[root] });
            }
            out[index_of_root[root]].bodies.push(i);
        }
        out
    }

    /// Pseudo-inverse of E^T M^-1 E for the given rows.
    fn pinv(&self, rows: &[Row]) -> DMatrix<f64> {
        let ns = rows.len();
        if ns == 0 {
            return DMatrix::zeros(0, 0);
        }
        let inv_m = |i: usize| 1.0 / self.sys.bodies[i].mass;
        let mut a = DMatrix::zeros(ns, ns);
        for (j, rj) in rows.iter().enumerate() {
            for (l, rl) in rows.iter().enumerate() {
                let mut s = 0.0;
                for (bj, sj) in [(rj.ia, 1.0), (rj.ib, -1.0)] {
                    for (bl, sl) in [(rl.ia, 1.0), (rl.ib, -1.0)] {
                        if let (Some(x), Some(y)) = (bj, bl) {
                            if x == y {
                                s += sj * sl * inv_m(x);
                            }
                        }
                    }
                }
                a[(j, l)] = s;
            }
        }
        let scale = a.amax().max(f64::MIN_POSITIVE);
        a.pseudo_inverse(1e-12 * scale).unwrap_or_else(|_| DMatrix::zeros(ns, ns))
    }

    /// Project velocities so every row has zero relative velocity: a group
    /// of bodies held together takes its common momentum-weighted velocity, a
    /// group held to the ground or a driver takes its velocity (a plastic
    /// impulse). Returns the kinetic energy lost.
    fn project(&self, t: f64, y: &mut [f64], rows: &[Row]) -> f64 {
        let nb = self.nb;
        let mut lost = 0.0;
        for cl in self.clusters(rows) {
            let m = |i: usize| self.sys.bodies[i].mass;
            let v = match cl.anchor {
                Anchor::Ground => 0.0,
                Anchor::Driver(k) => self.sys.drivers[k].motion.eval(t).1,
                Anchor::Free => {
                    cl.bodies.iter().map(|&i| m(i) * y[nb + i]).sum::<f64>()
                        / cl.bodies.iter().map(|&i| m(i)).sum::<f64>()
                }
            };
            for &i in &cl.bodies {
                lost += 0.5 * m(i) * (y[nb + i].powi(2) - v * v);
                y[nb + i] = v;
            }
        }
        lost
    }

    /// Choose the modes of every contact and stop that is at rest at (t, y),
    /// jointly. `arrived` lists contacts/stops (as rows) that just reached rest.
    /// Updates `d` and projects `y`; returns the transitions.
    fn settle(
        &self,
        t: f64,
        y: &mut [f64],
        d: &mut Discrete,
        arrived: &[RowKind],
        must_slide: &[usize],
    ) -> Vec<Event> {
        let nc = self.sys.contacts.len();
        // rest set: stuck contacts, resting stops, and what just arrived
        let mut rest: Vec<RowKind> = Vec::new();
        for c in 0..nc {
            if d.modes[c] == Mode::Stuck || arrived.contains(&RowKind::Contact(c)) {
                rest.push(RowKind::Contact(c));
            }
        }
        for (k, sm) in d.stops.iter().enumerate() {
            if *sm != StopMode::Free || arrived.contains(&RowKind::Stop(k)) {
                rest.push(RowKind::Stop(k));
            }
        }
        // side of each resting stop: +1 at max, -1 at min
        let stop_side = |k: usize, y: &[f64]| -> f64 {
            let st = &self.sys.stops[k];
            let x = y[st.body];
            if (x - st.max).abs() <= (x - st.min).abs() {
                1.0
            } else {
                -1.0
            }
        };
        let rows_all: Vec<Row> = rest
            .iter()
            .map(|k| match *k {
                RowKind::Contact(c) => self.contact_row(c),
                RowKind::Stop(s) => self.stop_row(s),
            })
            .collect();
        d.impacts += self.project(t, y, &rows_all);
        let old_modes = d.modes.clone();
        let old_stops = d.stops.clone();
        let nr = rest.len();
        // options per rest item: 0 = stuck/resting, 1 = forward/release, 2 = backward
        let n_opts = |k: &RowKind| if matches!(k, RowKind::Contact(_)) { 3usize } else { 2 };
        let mut best: Option<(f64, Vec<usize>)> = None;
        let mut chosen: Option<Vec<usize>> = None;
        let limit = nr.min(12);
        'outer: for n_slide in 0..=limit {
            // all subsets of size n_slide, each sliding item with its directions
            let mut idx: Vec<usize> = (0..n_slide).collect();
            loop {
                let dirs = idx.iter().map(|&i| n_opts(&rest[i]) - 1).product::<usize>();
                for code in 0..dirs.max(1) {
                    let mut opt = vec![0usize; nr];
                    let mut cc = code;
                    for &i in &idx {
                        let m = n_opts(&rest[i]) - 1;
                        opt[i] = 1 + cc % m;
                        cc /= m;
                    }
                    let forced = rest
                        .iter()
                        .zip(&opt)
                        .any(|(k, o)| *o == 0 && matches!(k, RowKind::Contact(c) if must_slide.contains(c)));
                    let viol = if forced { 1e300 } else { self.violation(t, y, d, &rest, &opt, &stop_side) };
                    if viol <= 0.0 {
                        chosen = Some(opt);
                        break 'outer;
                    }
                    if best.as_ref().is_none_or(|b| viol < b.0) {
                        best = Some((viol, opt));
                    }
                }
                // next subset
                if n_slide == 0 {
                    break;
                }
                let mut i = n_slide;
                loop {
                    if i == 0 {
                        break;
                    }
                    i -= 1;
                    if idx[i] < nr - n_slide + i {
                        idx[i] += 1;
                        for j in i + 1..n_slide {
                            idx[j] = idx[j - 1] + 1;
                        }
                        break;
                    }
                    if i == 0 {
                        idx.clear();
                        break;
                    }
                }
                if idx.is_empty() {
                    break;
                }
            }
        }
        let opt = chosen.or(best.map(|b| b.1)).unwrap_or_else(|| vec![0; nr]);
        self.apply_options(y, d, &rest, &opt, &stop_side);
        let mut ev = Vec::new();
        for c in 0..nc {
            if d.modes[c] != old_modes[c] {
                ev.push(Event {
                    t,
                    contact: self.sys.contacts[c].name.clone(),
                    from: old_modes[c].name().into(),
                    to: d.modes[c].name().into(),
                });
            }
        }
        for k in 0..d.stops.len() {
            if d.stops[k] != old_stops[k] {
                let nm = |s: StopMode| match s {
                    StopMode::Free => "free",
                    StopMode::AtMin => "at_min",
                    StopMode::AtMax => "at_max",
                };
                ev.push(Event {
                    t,
                    contact: format!("stop:{}", self.sys.bodies[self.sys.stops[k].body].name),
                    from: nm(old_stops[k]).into(),
                    to: nm(d.stops[k]).into(),
                });
            }
        }
        ev
    }

    fn apply_options(
        &self,
        y: &[f64],
        d: &mut Discrete,
        rest: &[RowKind],
        opt: &[usize],
        stop_side: &dyn Fn(usize, &[f64]) -> f64,
    ) {
        for (i, k) in rest.iter().enumerate() {
            match *k {
                RowKind::Contact(c) => {
                    d.modes[c] = [Mode::Stuck, Mode::Forward, Mode::Backward][opt[i]];
                }
                RowKind::Stop(s) => {
                    d.stops[s] = if opt[i] == 0 {
                        if stop_side(s, y) > 0.0 {
                            StopMode::AtMax
                        } else {
                            StopMode::AtMin
                        }
                    } else {
                        StopMode::Free
                    };
                }
            }
        }
        let mut rows = Vec::new();
        for (c, m) in d.modes.iter().enumerate() {
            if *m == Mode::Stuck {
                rows.push(self.contact_row(c));
            }
        }
        for (s, m) in d.stops.iter().enumerate() {
            if *m != StopMode::Free {
                rows.push(self.stop_row(s));
            }
        }
        d.pinv = self.pinv(&rows);
        d.clusters = self.clusters(&rows);
        d.rows = rows;
    }

    /// How far the option set `opt` is from consistent (<= 0: consistent).
    fn violation(
        &self,
        t: f64,
        y: &[f64],
        d: &Discrete,
        rest: &[RowKind],
        opt: &[usize],
        stop_side: &dyn Fn(usize, &[f64]) -> f64,
    ) -> f64 {
        let mut trial = d.clone();
        self.apply_options(y, &mut trial, rest, opt, stop_side);
        let mut s = self.scr.borrow().clone();
        self.eval(t, y, &trial, &mut s, None);
        let mut viol: f64 = 0.0;
        for (i, k) in rest.iter().enumerate() {
            match *k {
                RowKind::Contact(c) => {
                    let ct = &self.sys.contacts[c];
                    let row = self.contact_row(c);
                    let arel = self.rel_acc(&s, &row);
                    let scale = 1.0 + arel.abs();
                    match opt[i] {
                        0 => {
                            let fs = ct.model.max_static(&[], &trial.mem[c]).unwrap_or(0.0) * s.normal[c];
                            let over = s.fc[c].abs() - fs * (1.0 + 1e-10) - 1e-300;
                            viol = viol.max(over / (1.0 + fs));
                        }
                        1 => viol = viol.max(if arel > 0.0 { -1.0 } else { (-arel + 1e-300) / scale }),
                        _ => viol = viol.max(if arel < 0.0 { -1.0 } else { (arel + 1e-300) / scale }),
                    }
                }
                RowKind::Stop(st) => {
                    let side = stop_side(st, y);
                    let row = self.stop_row(st);
                    if opt[i] == 0 {
                        let j = trial.rows.iter().position(|r| r.kind == RowKind::Stop(st)).unwrap();
                        let lam = s.lam[j] * side;
                        viol = viol.max(if lam >= 0.0 { -1.0 } else { -lam / (1.0 + lam.abs()) });
                    } else {
                        // released: must accelerate away from the wall
                        let away = -side * self.rel_acc(&s, &row);
                        viol =
                            viol.max(if away > 0.0 { -1.0 } else { (-away + 1e-300) / (1.0 + away.abs()) });
                    }
                }
            }
        }
        viol
    }

    fn rel_acc(&self, s: &Scratch, r: &Row) -> f64 {
        let mut a = 0.0;
        if let Some(i) = r.ia {
            a += s.a[i];
        }
        if let Some(i) = r.ib {
            a -= s.a[i];
        }
        if let Some(k) = r.da {
            a += s.drv[k].2;
        }
        if let Some(k) = r.db {
            a -= s.drv[k].2;
        }
        a
    }

    fn initial_state(&self) -> Vec<f64> {
        let sys = self.sys;
        let nb = self.nb;
        let mut y = vec![0.0; self.n];
        for (i, b) in sys.bodies.iter().enumerate() {
            y[i] = b.x0;
            y[nb + i] = b.v0;
        }
        let s0 = self.scr.borrow().clone();
        let mut s = s0;
        for (k, dr) in sys.drivers.iter().enumerate() {
            s.drv[k] = dr.motion.eval(0.0);
        }
        let mut d = self.disc.borrow_mut();
        for (c, ct) in sys.contacts.iter().enumerate() {
            let (xa, va) = self.pos(&y, &s, ct.between[0]);
            let (xb, vb) = self.pos(&y, &s, ct.between[1]);
            let nzc = ct.model.n_states();
            let off = self.z_off[c];
            let inp = Input::new(0.0, xa - xb, va - vb);
            let mut z = vec![0.0; nzc];
            ct.model.init(&inp, &mut z, &mut d.mem[c]);
            y[off..off + nzc].copy_from_slice(&z);
        }
        y
    }

    /// Modes from the sign of each stuckable contact's relative velocity;
    /// contacts exactly at rest are settled jointly.
    fn initial_modes(&self, y: &mut [f64]) -> Vec<Event> {
        let mut d = self.disc.borrow().clone();
        let mut s = self.scr.borrow().clone();
        self.eval(0.0, y, &d, &mut s, None);
        let mut arrived = Vec::new();
        for c in 0..self.sys.contacts.len() {
            if self.stuckable[c] {
                let v = s.vrel[c];
                d.modes[c] = if v > 0.0 {
                    Mode::Forward
                } else if v < 0.0 {
                    Mode::Backward
                } else {
                    arrived.push(RowKind::Contact(c));
                    Mode::Stuck
                };
            }
        }
        for (k, st) in self.sys.stops.iter().enumerate() {
            let x = y[st.body];
            if x == st.max || x == st.min {
                arrived.push(RowKind::Stop(k));
            }
        }
        let ev = self.settle(0.0, y, &mut d, &arrived, &[]);
        *self.disc.borrow_mut() = d;
        ev
    }

    fn columns(&self) -> Vec<String> {
        let sys = self.sys;
        let mut cols = vec!["t".to_string()];
        for b in &sys.bodies {
            cols.push(format!("x.{}", b.name));
            cols.push(format!("v.{}", b.name));
        }
        for dr in &sys.drivers {
            cols.push(format!("x.{}", dr.name));
            cols.push(format!("v.{}", dr.name));
        }
        for c in &sys.contacts {
            cols.push(format!("F.{}", c.name));
        }
        for c in &sys.contacts {
            for k in 0..c.model.n_states() + c.model.n_memory() {
                cols.push(format!("z.{}.{k}", c.name));
            }
        }
        cols
    }

    fn row(&self, t: f64, y: &[f64]) -> Vec<f64> {
        let sys = self.sys;
        let d = self.disc.borrow();
        let mut s = self.scr.borrow_mut();
        self.eval(t, y, &d, &mut s, None);
        let nb = self.nb;
        let mut r = Vec::with_capacity(1 + 2 * (nb + sys.drivers.len()) + sys.contacts.len() + self.nz);
        r.push(t);
        for i in 0..nb {
            r.push(y[i]);
            r.push(y[nb + i]);
        }
        for k in 0..sys.drivers.len() {
            r.push(s.drv[k].0);
            r.push(s.drv[k].1);
        }
        // F.NAME: the force the contact exerts on its first member (-F of the model)
        r.extend(s.fc.iter().map(|f| -f));
        for (c, ct) in sys.contacts.iter().enumerate() {
            let off = self.z_off[c];
            r.extend_from_slice(&y[off..off + ct.model.n_states()]);
            r.extend_from_slice(&d.mem[c]);
        }
        r
    }

    fn mechanical_energy(&self, t: f64, y: &[f64]) -> (f64, f64) {
        let sys = self.sys;
        let nb = self.nb;
        let ke = (0..nb).map(|i| 0.5 * sys.bodies[i].mass * y[nb + i].powi(2)).sum();
        let mut s = self.scr.borrow().clone();
        for (k, dr) in sys.drivers.iter().enumerate() {
            s.drv[k] = dr.motion.eval(t);
        }
        let pe = sys
            .springs
            .iter()
            .map(|sp| {
                let (xa, _) = self.pos(y, &s, sp.between[0]);
                let (xb, _) = self.pos(y, &s, sp.between[1]);
                0.5 * sp.stiffness * (xb - xa - sp.length).powi(2)
            })
            .sum();
        (ke, pe)
    }

    /// Update hysteresis memory (and any state projection) after an accepted
    /// step ending at (t, y). Returns true if the state or the force jumped,
    /// so the integrator must restart.
    fn accept(&self, t: f64, y: &mut [f64]) -> bool {
        let sys = self.sys;
        let mut jumped = false;
        let mut d = self.disc.borrow_mut();
        let mut s = self.scr.borrow().clone();
        for (k, dr) in sys.drivers.iter().enumerate() {
            s.drv[k] = dr.motion.eval(t);
        }
        for (c, ct) in sys.contacts.iter().enumerate() {
            let nzc = ct.model.n_states();
            if ct.model.n_memory() == 0 && nzc == 0 {
                continue;
            }
            let (xa, va) = self.pos(y, &s, ct.between[0]);
            let (xb, vb) = self.pos(y, &s, ct.between[1]);
            let inp = Input::new(t, xa - xb, va - vb);
            let off = self.z_off[c];
            let f0 = ct.model.force(&inp, &y[off..off + nzc], &d.mem[c]);
            let z_before: Vec<f64> = y[off..off + nzc].to_vec();
            let mem = &mut d.mem[c];
            ct.model.accept(&inp, &mut y[off..off + nzc], mem);
            let f1 = ct.model.force(&inp, &y[off..off + nzc], &d.mem[c]);
            if y[off..off + nzc] != z_before[..] || (f1 - f0).abs() > 1e-9 * (1.0 + f0.abs()) {
                jumped = true;
            }
        }
        jumped
    }

    /// Run the simulation to the end (or to a failure, with a partial result).
    pub fn run(&self) -> Result<Outcome, SimError> {
        let sys = self.sys;
        let st = &sys.solver;
        let method = match st.method {
            Method::Auto => {
                if sys.is_stiff() {
                    Method::Bdf
                } else {
                    Method::Tsit45
                }
            }
            m => m,
        };
        let mut y0 = self.initial_state();
        let ev0 = self.initial_modes(&mut y0);
        let nb = self.nb;
        let mut atol = vec![st.atol_state; self.n];
        atol[..nb].fill(st.atol_position);
        atol[nb..2 * nb].fill(st.atol_velocity);
        // energy quadratures: loose absolute tolerance, they only book-keep
        for a in atol.iter_mut().skip(self.q_off) {
            *a = 1e-8;
        }
        let y_init = y0.clone();
        let h0 = (st.max_step.min(st.t_end) * 1e-3).max(1e-12);
        let mut problem = OdeBuilder::<M>::new()
            .t0(0.0)
            .h0(h0)
            .rtol(st.rtol)
            .atol(atol)
            .rhs_implicit(
                |y: &[f64], _p: &[f64], t: f64, dy: &mut [f64]| self.rhs(t, y, dy),
                |y: &[f64], _p: &[f64], t: f64, v: &[f64], jv: &mut [f64]| self.jvp(t, y, v, jv),
            )
            .init(move |_p: &[f64], _t: f64, y: &mut [f64]| y.copy_from_slice(&y_init), self.n)
            .root(|y: &[f64], _p: &[f64], t: f64, g: &mut [f64]| self.roots(t, y, g), self.nroots)
            .build()
            .map_err(|e| SimError::Solver {
                t: 0.0,
                cause: format!("cannot set up the problem: {e}"),
                state: String::new(),
            })?;
        // diffsol counts Newton failures over the whole run; every mode change
        // costs a few, so only the step-size floor (min_timestep) ends a run
        problem.ode_options.max_nonlinear_solver_failures = usize::MAX / 4;
        let start = Instant::now();
        let mut out = match method {
            Method::Bdf => {
                let s = problem.bdf::<LS>().map_err(|e| self.setup_err(e))?;
                self.integrate(s, &y0, ev0)
            }
            Method::TrBdf2 => {
                let s = problem.tr_bdf2::<LS>().map_err(|e| self.setup_err(e))?;
                self.integrate(s, &y0, ev0)
            }
            Method::Esdirk34 => {
                let s = problem.esdirk34::<LS>().map_err(|e| self.setup_err(e))?;
                self.integrate(s, &y0, ev0)
            }
            _ => {
                let s = problem.tsit45().map_err(|e| self.setup_err(e))?;
                self.integrate(s, &y0, ev0)
            }
        };
        out.stats.wall_time = start.elapsed().as_secs_f64();
        out.stats.method = method.name().into();
        out.stats.rhs_evals = self.rhs_count.get();
        Ok(out)
    }

    fn setup_err(&self, e: diffsol::DiffsolError) -> SimError {
        SimError::Solver { t: 0.0, cause: format!("cannot start the solver: {e}"), state: String::new() }
    }

    fn state_text(&self, y: &[f64]) -> String {
        let mut parts = Vec::new();
        for (i, b) in self.sys.bodies.iter().enumerate() {
            parts.push(format!("x.{} = {:e}", b.name, y[i]));
            parts.push(format!("v.{} = {:e}", b.name, y[self.nb + i]));
        }
        for (c, ct) in self.sys.contacts.iter().enumerate() {
            for k in 0..ct.model.n_states() {
                parts.push(format!("z.{}.{k} = {:e}", ct.name, y[self.z_off[c] + k]));
            }
        }
        let d = self.disc.borrow();
        for (c, ct) in self.sys.contacts.iter().enumerate() {
            if d.modes[c] != Mode::Smooth {
                parts.push(format!("mode.{} = {}", ct.name, d.modes[c].name()));
            }
        }
        parts.join(", ")
    }

    fn integrate<'a, Eqn, S>(&self, mut solver: S, y0: &[f64], ev0: Vec<Event>) -> Outcome
    where
        Eqn: OdeEquations<T = f64, V = V> + 'a,
        S: OdeSolverMethod<'a, Eqn>,
    {
        let sys = self.sys;
        let st = &sys.solver;
        let t_end = st.t_end;
        let mut bps: Vec<f64> = Vec::new();
        for d in &sys.drivers {
            bps.extend(d.motion.breakpoints(t_end));
        }
        for f in &sys.forces {
            bps.extend(f.value.breakpoints(t_end));
        }
        for c in &sys.contacts {
            bps.extend(c.normal.breakpoints(t_end));
        }
        bps.push(t_end);
        bps.sort_by(|a, b| a.partial_cmp(b).unwrap());
        bps.dedup_by(|a, b| (*a - *b).abs() <= 1e-14 * (1.0 + b.abs()));
        let mut bp_i = 0;

        let mut rows: Vec<Vec<f64>> = Vec::new();
        let mut events = ev0;
        let out_dt = st.output_dt;
        let times: Vec<f64> = st.output_times.iter().flatten().copied().filter(|&t| t > 0.0).collect();
        // k-th output time after t = 0 (None: past the last or every step)
        let out_at = |k: usize| -> Option<f64> {
            if st.output_times.is_some() {
                times.get(k).copied()
            } else {
                out_dt.map(|dt| (k + 1) as f64 * dt)
            }
        };
        let every_step = st.output_times.is_none() && out_dt.is_none();
        let mut next_out_k: usize = 0;
        rows.push(self.row(0.0, y0));
        let (ke0, pe0) = self.mechanical_energy(0.0, y0);
        let mut failure: Option<String> = None;
        let mut last_event_t = f64::NEG_INFINITY;
        let mut same_instant = 0usize;
        let mut tstop_set = f64::NAN;

        loop {
            let t_now = solver.state().t;
            if t_now >= t_end * (1.0 - 1e-14) {
                break;
            }
            while bp_i < bps.len() && bps[bp_i] <= t_now * (1.0 + 1e-14) + 1e-300 {
                bp_i += 1;
            }
            let next_bp = if bp_i < bps.len() { bps[bp_i] } else { t_end };
            let tstop = next_bp.min(t_now + st.max_step);
            if tstop != tstop_set || solver.state().t >= tstop_set {
                if let Err(e) = solver.set_stop_time(tstop) {
                    failure = Some(format!("t = {t_now}: cannot set stop time {tstop}: {e}"));
                    break;
                }
                tstop_set = tstop;
            }
            if solver.get_statistics().number_of_steps >= st.max_steps {
                let y = slice(solver.state().y).to_vec();
                failure = Some(
                    SimError::Solver {
                        t: t_now,
                        cause: format!("more than max_steps = {} accepted steps", st.max_steps),
                        state: self.state_text(&y),
                    }
                    .to_string(),
                );
                break;
            }
            let res = solver.step();
            let reason = match res {
                Ok(r) => r,
                Err(e) => {
                    let y = slice(solver.state().y).to_vec();
                    failure = Some(
                        SimError::Solver {
                            t: solver.state().t,
                            cause: e.to_string(),
                            state: self.state_text(&y),
                        }
                        .to_string(),
                    );
                    break;
                }
            };
            let t_step = solver.state().t;
            let t_acc = match reason {
                OdeSolverStopReason::RootFound(tr, _) => tr,
                _ => t_step,
            };
            // outputs up to t_acc with the memory of the step's start
            if every_step {
                let y = match reason {
                    OdeSolverStopReason::RootFound(tr, _) => solver
                        .interpolate(tr)
                        .map(|v| slice(&v).to_vec())
                        .unwrap_or_else(|_| slice(solver.state().y).to_vec()),
                    _ => slice(solver.state().y).to_vec(),
                };
                rows.push(self.row(t_acc, &y));
            } else {
                while let Some(to) = out_at(next_out_k) {
                    if to > t_acc * (1.0 + 1e-13) || to > t_end * (1.0 + 1e-12) {
                        break;
                    }
                    let to = to.min(t_end);
                    let y = if (to - t_step).abs() <= 1e-15 * (1.0 + t_step.abs()) {
                        slice(solver.state().y).to_vec()
                    } else {
                        match solver.interpolate(to) {
                            Ok(v) => slice(&v).to_vec(),
                            Err(_) => slice(solver.state().y).to_vec(),
                        }
                    };
                    rows.push(self.row(to, &y));
                    next_out_k += 1;
                }
            }

            if let OdeSolverStopReason::RootFound(tr, idx) = reason {
                if let Err(e) = solver.state_mut_back(tr) {
                    failure = Some(format!("t = {tr}: cannot move to the event: {e}"));
                    break;
                }
                let mut y = slice(solver.state().y).to_vec();
                self.accept(tr, &mut y);
                let evs = self.handle_root(tr, &mut y, idx);
                if (tr - last_event_t).abs() <= 1e-12 * (1.0 + tr.abs()) {
                    same_instant += 1;
                } else {
                    same_instant = 0;
                }
                last_event_t = tr;
                events.extend(evs);
                if same_instant > 50 {
                    failure = Some(
                        SimError::Solver {
                            t: tr,
                            cause: "chattering: more than 50 events at the same instant".into(),
                            state: self.state_text(&y),
                        }
                        .to_string(),
                    );
                    break;
                }
                self.restart(&mut solver, tr, &y);
                continue;
            }

            // accepted step (internal or at a stop time)
            let mut y = slice(solver.state().y).to_vec();
            if let Some(bad) = y.iter().position(|v| !v.is_finite()) {
                failure = Some(
                    SimError::Solver {
                        t: t_step,
                        cause: format!("non-finite state component {bad}"),
                        state: self.state_text(&y),
                    }
                    .to_string(),
                );
                break;
            }
            let mut restart = self.accept(t_step, &mut y);
            let over = self.at_limit(t_step, &y, &self.disc.borrow(), -1e-9);
            if !over.is_empty() || self.missed_event(t_step, &y) {
                // a crossing the root finder could not see (it started on the
                // wrong side of zero): handle it now
                events.extend(self.resolve(t_step, &mut y, vec![], &over, &[]));
                restart = true;
            }
            let at_bp = bp_i < bps.len() && (t_step - bps[bp_i]).abs() <= 1e-12 * (1.0 + t_step.abs());
            if matches!(reason, OdeSolverStopReason::TstopReached) && at_bp && t_step < t_end {
                let evs = self.handle_breakpoint(t_step, &mut y);
                events.extend(evs);
                restart = true;
            }
            if restart {
                self.restart(&mut solver, t_step, &y);
            }
        }

        // energy
        let y_end = slice(solver.state().y).to_vec();
        let t_last = solver.state().t;
        let (ke1, pe1) = self.mechanical_energy(t_last, &y_end);
        let q = self.q_off;
        let nc = sys.contacts.len();
        let nd = sys.dampers.len();
        let contacts: Vec<(String, f64)> =
            sys.contacts.iter().enumerate().map(|(c, ct)| (ct.name.clone(), y_end[q + c])).collect();
        let dampers: Vec<(String, f64)> =
            sys.dampers.iter().enumerate().map(|(k, dp)| (dp.name.clone(), y_end[q + nc + k])).collect();
        let work_forces = y_end[q + nc + nd];
        let work_drivers = y_end[q + nc + nd + 1];
        let impacts = self.disc.borrow().impacts;
        let stored = (ke1 - ke0) + (pe1 - pe0);
        let dissipated: f64 =
            contacts.iter().map(|c| c.1).sum::<f64>() + dampers.iter().map(|d| d.1).sum::<f64>();
        let residual = work_forces + work_drivers - stored - dissipated - impacts;
        let stats_d = solver.get_statistics();
        Outcome {
            columns: self.columns(),
            rows,
            events,
            stats: Stats {
                steps: stats_d.number_of_steps,
                rejected: stats_d.number_of_error_test_failures,
                rhs_evals: 0,
                wall_time: 0.0,
                method: String::new(),
            },
            energy: Energy {
                work_forces,
                work_drivers,
                kinetic: (ke0, ke1),
                spring: (pe0, pe1),
                contacts,
                dampers,
                impacts,
                residual,
            },
            failure,
        }
    }

    /// Write `y` into the solver at time `t` with a fresh derivative, which
    /// restarts multistep history and re-arms the root finder.
    fn restart<'a, Eqn, S>(&self, solver: &mut S, t: f64, y: &[f64])
    where
        Eqn: OdeEquations<T = f64, V = V> + 'a,
        S: OdeSolverMethod<'a, Eqn>,
    {
        let mut dy = vec![0.0; self.n];
        self.rhs(t, y, &mut dy);
        let st = solver.state_mut();
        st.y.batch_as_mut_slice(0).copy_from_slice(y);
        st.dy.batch_as_mut_slice(0).copy_from_slice(&dy);
    }

    /// Handle a root found at `t` (root index `idx`).
    fn handle_root(&self, t: f64, y: &mut [f64], idx: usize) -> Vec<Event> {
        let nc = self.sys.contacts.len();
        let d = self.disc.borrow().clone();
        let mut arrived = Vec::new();
        let mut must_slide = Vec::new();
        let mut impacts = Vec::new();
        if idx < nc {
            match d.modes[idx] {
                Mode::Forward | Mode::Backward => {
                    // with a stick band (Karnopp) the root also fires when the
                    // contact speeds up out of the band after a break-away:
                    // only entering the band is an arrival
                    let dir = if d.modes[idx] == Mode::Forward { 1.0 } else { -1.0 };
                    let mut s = self.scr.borrow().clone();
                    self.eval(t, y, &d, &mut s, None);
                    let leaving = self.sys.contacts[idx].model.stick_band() > 0.0
                        && dir * self.rel_acc(&s, &self.contact_row(idx)) > 0.0;
                    if !leaving {
                        arrived.push(RowKind::Contact(idx));
                    }
                }
                // |λ| reached N Fs: the contact cannot stay stuck, nor can any
                // other stuck contact that reached its limit at the same instant
                Mode::Stuck => {
                    must_slide.push(idx);
                    must_slide.extend(self.at_limit(t, y, &d, 1e-9).into_iter().filter(|&c| c != idx));
                }
                Mode::Smooth => {}
            }
        } else if idx < nc + 2 * self.sys.stops.len() {
            let k = (idx - nc) / 2;
            if d.stops[k] == StopMode::Free {
                impacts.push(k);
            }
        }
        self.resolve(t, y, arrived, &must_slide, &impacts)
    }

    /// Re-establish consistent modes at `t` after a jump in the forces or
    /// prescribed velocities (a breakpoint of a schedule).
    fn handle_breakpoint(&self, t: f64, y: &mut [f64]) -> Vec<Event> {
        let mut d = self.disc.borrow().clone();
        let mut s = self.scr.borrow().clone();
        self.eval(t, y, &d, &mut s, None);
        let mut ev = Vec::new();
        // stuck contacts whose relative velocity jumped (a driver's corner) slide
        for c in 0..self.sys.contacts.len() {
            if d.modes[c] == Mode::Stuck && s.vrel[c] != 0.0 {
                let v = s.vrel[c];
                if v.abs() > self.vtol(c) {
                    let new = if v > 0.0 { Mode::Forward } else { Mode::Backward };
                    ev.push(Event {
                        t,
                        contact: self.sys.contacts[c].name.clone(),
                        from: "stuck".into(),
                        to: new.name().into(),
                    });
                    d.modes[c] = new;
                }
            }
        }
        *self.disc.borrow_mut() = d;
        ev.extend(self.resolve(t, y, vec![], &[], &[]));
        ev
    }

    /// Stuck contacts whose force is within `rel` (relative) of, or beyond, N Fs.
    fn at_limit(&self, t: f64, y: &[f64], d: &Discrete, rel: f64) -> Vec<usize> {
        let mut s = self.scr.borrow().clone();
        self.eval(t, y, d, &mut s, None);
        (0..self.sys.contacts.len())
            .filter(|&c| {
                d.modes[c] == Mode::Stuck && {
                    let fs =
                        self.sys.contacts[c].model.max_static(&[], &d.mem[c]).unwrap_or(0.0) * s.normal[c];
                    s.fc[c].abs() >= fs * (1.0 - rel) - 1e-300
                }
            })
            .collect()
    }

    /// Velocity below which a sliding contact counts as arrived at rest.
    fn vtol(&self, c: usize) -> f64 {
        self.sys.contacts[c].model.stick_band().max(10.0 * self.sys.solver.atol_velocity)
    }

    /// Safety net after an accepted step: a crossing the root finder missed
    /// (a body beyond a stop, a sliding contact moving against its mode).
    fn missed_event(&self, t: f64, y: &[f64]) -> bool {
        let d = self.disc.borrow();
        for (k, st) in self.sys.stops.iter().enumerate() {
            if d.stops[k] == StopMode::Free {
                let tol = 10.0 * self.sys.solver.atol_position;
                let x = y[st.body];
                if x > st.max + tol || x < st.min - tol {
                    return true;
                }
            }
        }
        let mut s = self.scr.borrow().clone();
        self.eval(t, y, &d, &mut s, None);
        (0..self.sys.contacts.len()).any(|c| match d.modes[c] {
            Mode::Forward => s.vrel[c] < -self.vtol(c),
            Mode::Backward => s.vrel[c] > self.vtol(c),
            _ => false,
        })
    }

    /// Make every mode consistent at (t, y): impacts on stops (bounce or
    /// rest), sliding contacts brought to rest or reversed by impulses, and a
    /// joint stick/slip decision over everything at rest. Iterates until no
    /// contact newly arrives at rest.
    fn resolve(
        &self,
        t: f64,
        y: &mut [f64],
        mut arrived: Vec<RowKind>,
        must_slide: &[usize],
        impacts: &[usize],
    ) -> Vec<Event> {
        let nb = self.nb;
        let nc = self.sys.contacts.len();
        let mut d = self.disc.borrow().clone();
        let mut events = Vec::new();
        // stops: the one that fired, and any other free stop at its limit moving outwards
        let ptol = 10.0 * self.sys.solver.atol_position;
        let vtol_stop = 10.0 * self.sys.solver.atol_velocity;
        for (k, st) in self.sys.stops.iter().enumerate() {
            if d.stops[k] != StopMode::Free {
                continue;
            }
            let (x, v) = (y[st.body], y[nb + st.body]);
            let at_max = x >= st.max - ptol && (v >= 0.0 || x > st.max);
            let at_min = x <= st.min + ptol && (v <= 0.0 || x < st.min);
            if !(impacts.contains(&k) || at_max || at_min) {
                continue;
            }
            let hit_max = (x - st.max).abs() < (x - st.min).abs();
            y[st.body] = if hit_max { st.max } else { st.min };
            let name = format!("stop:{}", self.sys.bodies[st.body].name);
            if st.restitution > 0.0 && v.abs() > vtol_stop {
                let v1 = -st.restitution * v;
                d.impacts += 0.5 * self.sys.bodies[st.body].mass * (v * v - v1 * v1);
                y[nb + st.body] = v1;
                events.push(Event { t, contact: name, from: "free".into(), to: "bounce".into() });
            } else {
                arrived.push(RowKind::Stop(k));
            }
        }
        for _round in 0..=nc {
            // sliding contacts: at rest, or reversed by an impulse
            let mut s = self.scr.borrow().clone();
            self.eval(t, y, &d, &mut s, None);
            for c in 0..nc {
                if !self.stuckable[c] || !matches!(d.modes[c], Mode::Forward | Mode::Backward) {
                    continue;
                }
                let v = s.vrel[c];
                if v.abs() <= self.vtol(c) {
                    if !arrived.contains(&RowKind::Contact(c)) {
                        arrived.push(RowKind::Contact(c));
                    }
                } else {
                    let want = if v > 0.0 { Mode::Forward } else { Mode::Backward };
                    if want != d.modes[c] && !arrived.contains(&RowKind::Contact(c)) {
                        events.push(Event {
                            t,
                            contact: self.sys.contacts[c].name.clone(),
                            from: d.modes[c].name().into(),
                            to: want.name().into(),
                        });
                        d.modes[c] = want;
                    }
                }
            }
            events.extend(self.settle(t, y, &mut d, &arrived, must_slide));
            // the projection may have brought further sliding contacts to rest
            let mut s = self.scr.borrow().clone();
            self.eval(t, y, &d, &mut s, None);
            let new: Vec<RowKind> = (0..nc)
                .filter(|&c| {
                    self.stuckable[c]
                        && matches!(d.modes[c], Mode::Forward | Mode::Backward)
                        && s.vrel[c].abs() <= self.vtol(c)
                        && !arrived.contains(&RowKind::Contact(c))
                })
                .map(RowKind::Contact)
                .collect();
            if new.is_empty() {
                break;
            }
            arrived.extend(new);
        }
        *self.disc.borrow_mut() = d;
        events
    }
}

/// Simulate `sys`.
///
/// ```
/// let text = r#"
/// [[body]]
/// name = "m"
/// mass = 1.0
/// x0 = 0.1
/// [[spring]]
/// between = ["m", "ground"]
/// stiffness = 100.0
/// [[contact]]
/// name = "c"
/// between = ["m", "ground"]
/// model = "coulomb"
/// params = { fc = 0.981 }
/// [solver]
/// t_end = 2.0
/// "#;
/// let sys = friction_sim::scenario::parse(text, "doc.toml", std::path::Path::new(".")).unwrap();
/// let out = friction_sim::simulate(&sys).unwrap();
/// // Coulomb free decay: the mass stops for good at x = -0.0019 after half a period
/// assert!((out.last("x.m") + 0.0019).abs() < 1e-6);
/// ```
pub fn simulate(sys: &System) -> Result<Outcome, SimError> {
    Engine::new(sys).run()
}
