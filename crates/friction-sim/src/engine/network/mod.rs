//! The prepared system: state offsets, members, constraint rows, the
//! discrete state (modes, memory) and the preallocated work space.

//!
//! The `Engine`'s methods are spread over the files of this folder, one job
//! each:
//! - `rhs.rs`: one evaluation of the equations;
//! - `jacobian.rs`: the exact Jacobian-vector product and its sparsity;
//! - `constraints.rs`: clusters of stuck bodies, the plan of their
//!   constraint forces (tree walk, bundles of parallel rows, loops);
//! - `constraint_forces.rs`: the constraint forces under a plan;
//! - `events.rs`: root functions and what each root means;
//! - `turns.rs`: the turning points of the models' own functions (`leuven`'s
//!   state, `gms`'s elements) as events;
//! - `gap.rs`: compliant one-sided contacts (`[[gap]]`): forces, partials,
//!   roots, energy;
//! - `modes.rs`: the joint stick/slip decision at an event (the LCP);
//! - `resolve.rs`: every mode made consistent at an event (impacts on stops,
//!   projections, jolted contacts, the loop around the decision);
//! - `lcp/`: the box-constrained LCP solver;
//! - `loops.rs`: the feasible split of a loop of stuck rows;
//! - `energy.rs`: energy bookkeeping;
//! - `normal.rs`: a contact's normal load (its schedule, a gap's force);
//! - `heat.rs`: thermal nodes: temperatures as states, their rates and
//!   Jacobian, heat in the energy balance;
//! - `rows.rs`: output columns and rows;
//! - `start.rs`: the initial state and modes;
//! - `structures.rs`: structures from finite-element matrices as blocks of
//!   bodies under their mass matrix;
//! - `scaled_rows.rs`: the Jacobian's rows of a structure's velocities in
//!   force form, for a sparse Newton matrix;
//! - `coupled.rs`: stuck contacts on a structure of consistent mass (the
//!   constraint operator `G M⁻¹ Gᵀ`);
//! - `planes.rs`: contacts that rub in a plane (between bodies of dim 3):
//!   their forces, bristle rates, partials, powers and columns;
//! - `plane_stick.rs`: a set-valued contact in a plane held exactly on its
//!   friction disk (stuck forces, break-away and arrival, their events);
//! - `messages.rs`: the state and what makes the steps small, as text for
//!   the messages of a failed run;
//! - `scratch.rs`: the work space of one evaluation and the run's counters.

mod bundles;
mod constraint_forces;
mod constraints;
mod coupled;
mod energy;
mod events;
mod gap;
mod grouping;
pub(crate) mod heat;
pub(crate) mod heat_model;
mod held;
mod interior_roots;
mod jacobian;
pub(crate) mod lcp;
mod loops;
mod messages;
mod modes;
mod normal;
mod plane_stick;
pub(crate) mod planes;
mod resolve;
mod rhs;
pub(crate) mod rows;
pub(crate) mod scaled_rows;
mod scratch;
mod start;
pub(crate) mod structures;
mod turns;

use std::cell::{Cell, RefCell};

use friction_models::{FrictionModel, Input};

pub(crate) use scratch::{Counters, Scratch};

use crate::engine::network::constraints::Plan;
use crate::engine::network::rows::Pick;
use crate::engine::outcome::Mode;
use crate::system::schedule::Schedule;
use crate::system::{Member, System};

/// The work arrays of `interior_arrival`: the sliding contacts with their
/// modes, and each one's root at four points of the step.
pub(crate) type ArrivalWork = (Vec<(usize, Mode)>, Vec<[f64; 4]>);

/// State of an end stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopMode {
    Free,
    AtMin,
    AtMax,
}

impl StopMode {
    pub(crate) fn name(self) -> &'static str {
        match self {
            StopMode::Free => "free",
            StopMode::AtMin => "at_min",
            StopMode::AtMax => "at_max",
        }
    }
}

/// An active constraint row: relative motion (first - second) held at zero.
/// `ia`/`ib` are the bodies, `da`/`db` the drivers of the first and second
/// member (ground is neither).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Row {
    pub kind: RowKind,
    pub ia: Option<usize>,
    pub ib: Option<usize>,
    pub da: Option<usize>,
    pub db: Option<usize>,
}

/// What a constraint row stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowKind {
    Contact(usize),
    Stop(usize),
}

/// Everything discrete: modes, active rows and how to solve for their
/// forces, hysteresis memory, reversal directions.
#[derive(Debug, Default)]
pub(crate) struct Discrete {
    pub modes: Vec<Mode>,
    pub stops: Vec<StopMode>,
    pub rows: Vec<Row>,
    pub plan: Plan,
    pub mem: Vec<Vec<f64>>,
    /// Direction of the last motion of each contact whose memory turns at
    /// reversals (+1, -1, or 0 before it has moved).
    pub dir: Vec<f64>,
    /// Sign of each turning-point function (`FrictionModel::turns`) at the
    /// last accepted instant (0 before it has one), in the order of
    /// `Engine::root_turn`.
    pub turn: Vec<f64>,
    pub impacts: f64,
    /// Per contact in a plane: whether its slider slides (Jenkins' element;
    /// a set-valued model: false while held on its friction disk; false for
    /// the laws without a mode).
    pub plane_slide: Vec<bool>,
    /// Per contact in a plane with a friction disk: the slip's direction at
    /// the last accepted step (while it slides; `plane_stick.rs`).
    pub plane_dir: Vec<[f64; 2]>,
    /// Per contact in a plane with a friction disk: whether its slip has
    /// exceeded the velocity tolerance since it last started from rest.
    pub plane_moved: Vec<bool>,
}

// Cloned field by field so that `clone_from` reuses the vectors (and every
// contact's memory) of the copy it overwrites: the stick/slip decision
// works on such a copy at every event.
impl Clone for Discrete {
    fn clone(&self) -> Self {
        let mut c = Discrete::default();
        c.clone_from(self);
        c
    }

    fn clone_from(&mut self, o: &Self) {
        // destructured: a field added to `Discrete` must be added here
        let Discrete {
            modes,
            stops,
            rows,
            plan,
            mem,
            dir,
            turn,
            impacts,
            plane_slide,
            plane_dir,
            plane_moved,
        } = o;
        self.modes.clone_from(modes);
        self.stops.clone_from(stops);
        self.rows.clone_from(rows);
        self.plan.clone_from(plan);
        self.mem.clone_from(mem);
        self.dir.clone_from(dir);
        self.turn.clone_from(turn);
        self.impacts = *impacts;
        self.plane_slide.clone_from(plane_slide);
        self.plane_dir.clone_from(plane_dir);
        self.plane_moved.clone_from(plane_moved);
    }
}

/// The system an engine runs: the caller's, or its lowered copy when it
/// has structures ([`structures::lower`]).
pub(crate) enum SysRef<'s> {
    Borrowed(&'s System),
    Owned(Box<System>),
}

impl std::ops::Deref for SysRef<'_> {
    type Target = System;
    fn deref(&self) -> &System {
        match self {
            SysRef::Borrowed(s) => s,
            SysRef::Owned(s) => s,
        }
    }
}

/// A prepared simulation of a [`System`].
pub struct Engine<'s> {
    pub(crate) sys: SysRef<'s>,
    /// The structures' blocks of coordinates and matrices ([`structures`]).
    pub(crate) blocks: Vec<structures::Block>,
    /// Why the system cannot run, found while preparing it (a structure
    /// whose mass has no Cholesky factor: always a [`SimError::Input`](crate::error::SimError::Input)); reported by `run`.
    pub(crate) unfit: Option<crate::error::SimError>,
    pub(crate) nb: usize,
    pub(crate) z_off: Vec<usize>,
    /// Offset of the energy quadratures in the state.
    pub(crate) q_off: usize,
    pub(crate) n: usize,
    /// Root layout: `[contacts | 2 per stop | normal crossings | reversals |
    /// turning points | 2 per gap | 1 per contact in a plane with a mode]`;
    /// none at all when no event can happen.
    pub(crate) nroots: usize,
    /// Where the gaps' roots start ([`crate::engine::network::gap`]).
    pub(crate) root_gap: usize,
    /// Whether some contact's normal load is a gap's force (`normal_gap`):
    /// the normal roots then read the state, and the drivers' motions.
    pub(crate) normal_gaps: bool,
    pub(crate) root_normal: Vec<usize>,
    pub(crate) root_rev: Vec<usize>,
    /// The contacts with turning-point functions (`FrictionModel::n_turns`)
    /// and the index of their first one among all of them.
    pub(crate) root_turn: Vec<(usize, usize)>,
    /// The number of turning-point functions of all contacts.
    pub(crate) n_turn: usize,
    pub(crate) stuckable: Vec<bool>,
    /// Per contact, whether its states are output columns (`[solver] states`).
    pub(crate) state_cols: Vec<bool>,
    /// The output columns kept (`[solver] columns`; positions in the full row).
    pub(crate) keep: Option<Vec<usize>>,
    /// Where each output column is read from (the kept ones).
    pub(crate) picks: Vec<Pick>,
    /// Whether the columns include forces or slip velocities (else a row
    /// needs no contact evaluation).
    pub(crate) row_contacts: bool,
    /// When the columns are the time and states only (a row is read from
    /// the state vector alone: no drivers, no memory, no borrow), the rows'
    /// columns as the methods write them
    /// ([`crate::engine::integrate::stepper::Stepper::dense_rows`]): `None` the time, `Some(i)`
    /// state `i`.
    pub(crate) row_cols: Option<Vec<Option<usize>>>,
    pub(crate) disc: RefCell<Discrete>,
    pub(crate) scr: RefCell<Scratch>,
    pub(crate) count: Counters,
    /// The contacts' partial derivatives for the Jacobian ([`crate::engine::network::jacobian`]).
    pub(crate) jac: RefCell<crate::engine::network::jacobian::JacCache>,
    /// The work arrays of the joint stick/slip decision, kept across events.
    pub(crate) settle_work: RefCell<crate::engine::network::modes::SettleWork>,
    /// The work space of the force plans (`Engine::plan_into`).
    pub(crate) plan_work: RefCell<crate::engine::network::constraints::PlanWork>,
    /// The copy of the discrete state the stick/slip decision works on
    /// (`Engine::resolve`), kept for its allocations.
    pub(crate) disc_spare: RefCell<Discrete>,
    /// The kinetic and spring energy of the initial state as given, before
    /// the impulses at t = 0 (a body starting into a stop), set by
    /// `initial_modes`: the energy balance starts from it.
    pub(crate) start_energy: Cell<Option<(f64, f64)>>,
    /// The work arrays of `interior_crossing` (a state, the root functions
    /// at the step's start and at a sample).
    pub(crate) cross_work: RefCell<[Vec<f64>; 3]>,
    /// Per body, the anchor of the cluster holding it at rest, for output
    /// rows written at once (`held.rs`; no allocation once grown).
    pub(crate) held_work: RefCell<Vec<Option<constraints::Anchor>>>,
    /// The work arrays of `interior_arrival` (the sliding contacts with
    /// their modes, and their roots at four points of the step).
    pub(crate) arrival_work: RefCell<ArrivalWork>,
    /// statically indeterminate sets of rows met during the run (warnings)
    pub(crate) indeterminate: RefCell<Vec<(Indeterminate, Vec<RowKind>)>>,
    /// Where the thermal network lives in the state ([`heat`]).
    pub(crate) heat: heat::HeatLayout,
    /// The contacts that rub in a plane ([`planes`]), their bristles after
    /// the line contacts' states, their work quadratures after the
    /// structures' (from `plane_q` on in the quadratures).
    pub(crate) planes: Vec<planes::PlaneEl>,
    pub(crate) plane_q: usize,
    /// Their column names and units (after all others).
    pub(crate) plane_names: Vec<String>,
    pub(crate) plane_units: Vec<String>,
    /// Where the roots of the contacts in a plane with a mode start (after
    /// the gaps'), and those contacts.
    pub(crate) root_plane: usize,
    pub(crate) plane_roots: Vec<usize>,
}

/// Why the forces of a set of active rows are not unique.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Indeterminate {
    /// rows joining the same two members (split by a rule)
    Parallel,
    /// rows closing a loop through several bodies (the least-norm split
    /// within the rows' limits)
    Loop,
}

impl<'s> Engine<'s> {
    /// Prepare the engine for `sys`.
    pub fn new(given: &'s System) -> Self {
        let (sysref, blocks, unfit) = if given.structures.is_empty() {
            (SysRef::Borrowed(given), Vec::new(), None)
        } else {
            match structures::lower(given) {
                Ok((low, blocks)) => (SysRef::Owned(Box::new(low)), blocks, None),
                Err(e) => (SysRef::Borrowed(given), Vec::new(), Some(e)),
            }
        };
        // a system built in code: a set-valued contact in a plane whose
        // members another constraint holds (a scenario refuses it on reading)
        let unfit = unfit.or_else(|| {
            crate::system::planar::disk_conflict(given).map(|(_, message)| crate::error::SimError::Input {
                file: format!("scenario \"{}\"", given.name),
                line: None,
                message,
            })
        });
        // the contacts in a plane out of the line contacts
        let (sysref, mut planes, plane_cols) = if sysref.planes.is_empty() {
            (sysref, Vec::new(), None)
        } else {
            let l = planes::lower(&sysref);
            (SysRef::Owned(Box::new(l.sys)), l.planes, Some((l.state_cols, l.keep, l.names, l.units)))
        };
        let sys: &System = &sysref;
        let nb = sys.bodies.len();
        let mut z_off = Vec::with_capacity(sys.contacts.len());
        let mut nz = 0;
        for c in &sys.contacts {
            z_off.push(2 * nb + nz);
            nz += c.model.n_states();
        }
        for p in &mut planes {
            p.z_off = 2 * nb + nz;
            nz += p.law.n_states();
        }
        let nc = sys.contacts.len();
        // temperatures of the thermal nodes with a capacity, then the quadratures
        // then one per structure: its damping's dissipation
        // then one per contact in a plane: its work
        let plane_q = nc + sys.dampers.len() + 2 + sys.gaps.len() + blocks.len();
        let nq = plane_q + planes.len();
        let heat =
            heat::HeatLayout::new(&sys.thermal, 2 * nb + nz, nq, [nc, sys.dampers.len(), sys.gaps.len()]);
        let q_off = 2 * nb + nz + heat.n_states;
        // quadratures: contact works (nc), damper dissipations (nd), force work, driver work
        // then the gaps' damping dissipations (ng), then the heat into each fixed node
        let n = q_off + nq + heat.n_fixed;
        let stuckable: Vec<bool> = sys
            .contacts
            .iter()
            .map(|c| {
                c.model.max_static(&vec![0.0; c.model.n_states()], &vec![0.0; c.model.n_memory()]).is_some()
                    && c.between.iter().any(|m| matches!(m, Member::Body(_)))
                    && c.model.n_states() == 0
            })
            .collect();
        let root_normal: Vec<usize> = (0..nc)
            .filter(|&c| {
                stuckable[c]
                    && (!matches!(sys.contacts[c].normal, Schedule::Constant { .. })
                        || sys.contacts[c].normal_gap.is_some())
            })
            .collect();
        let root_rev: Vec<usize> = (0..nc).filter(|&c| sys.contacts[c].model.turns_at_reversals()).collect();
        // a contact that cannot stick keeps its smooth mode (its root would
        // be a constant): without stuckable contacts, stops or reversals
        // there are no events, and no root is evaluated at all (a chain of
        // 256 tanh contacts evaluated 256 constant roots at every step)
        let mut root_turn = Vec::new();
        let mut n_turn = 0;
        for (c, ct) in sys.contacts.iter().enumerate() {
            if ct.model.n_turns() > 0 {
                root_turn.push((c, n_turn));
                n_turn += ct.model.n_turns();
            }
        }
        // the contacts in a plane whose law has a mode, or held on a
        // friction disk: one root each
        let plane_roots: Vec<usize> =
            (0..planes.len()).filter(|&p| planes[p].law.has_mode() || planes[p].disk.is_some()).collect();
        let events = stuckable.iter().any(|&s| s)
            || !sys.stops.is_empty()
            || !root_rev.is_empty()
            || n_turn > 0
            || !sys.gaps.is_empty()
            || !plane_roots.is_empty();
        let root_gap =
            if events { nc + 2 * sys.stops.len() + root_normal.len() + root_rev.len() + n_turn } else { 0 };
        let root_plane = root_gap + 2 * sys.gaps.len();
        let nroots = if events { root_plane + plane_roots.len() } else { 0 };
        let mem = sys.contacts.iter().map(|c| vec![0.0; c.model.n_memory()]).collect();
        let nd = sys.drivers.len();
        let normal_gaps = sys.contacts.iter().any(|c| c.normal_gap.is_some());
        let (state_cols, keep, plane_names, plane_units) = match plane_cols {
            Some((s, k, n, u)) => (s, k, n, u),
            None => (sys.state_columns(), sys.column_keep(), Vec::new(), Vec::new()),
        };
        let nstops = sys.stops.len();
        let zcap = sys.contacts.iter().map(|c| c.model.n_states()).max().unwrap_or(0);
        let tcap = sys.contacts.iter().map(|c| c.model.n_turns()).max().unwrap_or(0);
        let tmodel = if sys.thermal.model_laws.is_empty() { Vec::new() } else { vec![None; nc] };
        let mut e = Engine {
            sys: sysref,
            blocks,
            unfit,
            nb,
            z_off,
            q_off,
            n,
            nroots,
            root_gap,
            root_normal,
            normal_gaps,
            root_rev,
            root_turn,
            n_turn,
            stuckable,
            state_cols,
            keep,
            picks: Vec::new(),
            row_contacts: true,
            row_cols: None,
            disc: RefCell::new(Discrete {
                modes: vec![Mode::Smooth; nc],
                stops: vec![StopMode::Free; nstops],
                rows: vec![],
                plan: Plan::default(),
                mem,
                dir: vec![0.0; nc],
                turn: vec![0.0; n_turn],
                impacts: 0.0,
                plane_slide: vec![false; planes.len()],
                plane_dir: vec![[1.0, 0.0]; planes.len()],
                plane_moved: vec![false; planes.len()],
            }),
            scr: RefCell::new(Scratch {
                f: vec![0.0; nb],
                f_free: vec![0.0; nb],
                fd: vec![0.0; nd],
                drv: vec![(0.0, 0.0, 0.0); nd],
                fc: vec![0.0; nc],
                vrel: vec![0.0; nc],
                normal: vec![0.0; nc],
                lam: vec![],
                need: vec![0.0; nb],
                a: vec![0.0; nb],
                zbuf: Vec::with_capacity(zcap),
                bundle_load: Vec::new(),
                lim: Vec::new(),
                split: Vec::new(),
                tbuf: vec![0.0; tcap],
                lam0: Vec::new(),
                ranges: Vec::new(),
                lsplit: Vec::new(),
                lw: Default::default(),
                tmodel,
                plane: vec![([0.0; 2], [0.0; 2], 0.0); planes.len()],
            }),
            count: Counters::default(),
            jac: RefCell::new(Default::default()),
            settle_work: RefCell::new(Default::default()),
            plan_work: RefCell::new(Default::default()),
            disc_spare: RefCell::new(Default::default()),
            start_energy: Cell::new(None),
            cross_work: RefCell::new(Default::default()),
            held_work: RefCell::new(Vec::new()),
            arrival_work: RefCell::new(Default::default()),
            indeterminate: RefCell::new(Vec::new()),
            heat,
            planes,
            plane_q,
            plane_names,
            plane_units,
            root_plane,
            plane_roots,
        };
        *e.jac.borrow_mut() = crate::engine::network::jacobian::JacCache::new(&e);
        let all = e.all_picks();
        e.picks = match &e.keep {
            None => all,
            Some(k) => k.iter().map(|&i| all[i]).collect(),
        };
        e.row_contacts = e.picks.iter().any(|p| matches!(p, Pick::Force(_) | Pick::SlipVel(_)));
        if e.picks.iter().all(|p| matches!(p, Pick::T | Pick::Y(_))) {
            e.row_cols =
                Some(e.picks.iter().map(|p| if let Pick::Y(i) = *p { Some(i) } else { None }).collect());
        }
        e
    }

    /// Number of states of the ODE (positions, velocities, contact states,
    /// temperatures and the energy quadratures).
    pub fn n_states(&self) -> usize {
        self.n
    }

    /// Position and velocity of a member.
    #[inline]
    pub(crate) fn pos(&self, y: &[f64], s: &Scratch, m: Member) -> (f64, f64) {
        match m {
            Member::Ground => (0.0, 0.0),
            Member::Body(i) => (y[i], y[self.nb + i]),
            Member::Driver(d) => (s.drv[d].0, s.drv[d].1),
            // never met: `Engine::new` lowers a structure's DOFs to bodies (`structures::lower`)
            Member::Dof { .. } => (0.0, 0.0),
        }
    }

    /// What contact `c`'s model sees at (t, y) under `mode`: the slip and
    /// the effective slip velocity (a sliding contact's sign held by its
    /// mode), and the relative velocity itself. The drivers' motions must
    /// be in the scratch.
    // Inlined: returned through memory, the input was written as 8-byte
    // stores and read back as 16-byte loads that could not be forwarded,
    // a stall perf put at 45 % of `contact` on a chain of 256 tanh contacts.
    #[inline(always)]
    pub(crate) fn contact_input(&self, t: f64, y: &[f64], s: &Scratch, c: usize, mode: Mode) -> (Input, f64) {
        let ct = &self.sys.contacts[c];
        let (xa, va) = self.pos(y, s, ct.between[0]);
        let (xb, vb) = self.pos(y, s, ct.between[1]);
        let v = va - vb;
        let veff = match mode {
            Mode::Forward => v.max(f64::MIN_POSITIVE),
            Mode::Backward => v.min(-f64::MIN_POSITIVE),
            _ => v,
        };
        (Input::new(t, xa - xb, veff), v)
    }

    /// Add a force to a member (bodies and drivers; the ground takes anything).
    pub(crate) fn add_force(s: &mut Scratch, m: Member, f: f64) {
        match m {
            Member::Ground => {}
            Member::Body(i) => s.f[i] += f,
            Member::Driver(d) => s.fd[d] += f,
            Member::Dof { .. } => {}
        }
    }

    /// The constraint row of contact `c` (its members' relative motion).
    pub(crate) fn contact_row(&self, c: usize) -> Row {
        let [a, b] = self.sys.contacts[c].between;
        let mut r = Row { kind: RowKind::Contact(c), ia: None, ib: None, da: None, db: None };
        match a {
            Member::Body(i) => r.ia = Some(i),
            Member::Driver(k) => r.da = Some(k),
            Member::Ground | Member::Dof { .. } => {}
        }
        match b {
            Member::Body(i) => r.ib = Some(i),
            Member::Driver(k) => r.db = Some(k),
            Member::Ground | Member::Dof { .. } => {}
        }
        r
    }

    /// The constraint row of stop `k` (its body against the ground).
    pub(crate) fn stop_row(&self, k: usize) -> Row {
        Row { kind: RowKind::Stop(k), ia: Some(self.sys.stops[k].body), ib: None, da: None, db: None }
    }

    /// The row of a rest item.
    pub(crate) fn row_of(&self, k: RowKind) -> Row {
        match k {
            RowKind::Contact(c) => self.contact_row(c),
            RowKind::Stop(s) => self.stop_row(s),
        }
    }

    /// Name of a rest item for messages and the event log.
    pub(crate) fn item_name(&self, k: RowKind) -> String {
        match k {
            RowKind::Contact(c) => self.sys.contacts[c].name.clone(),
            RowKind::Stop(s) => format!("stop:{}", self.sys.bodies[self.sys.stops[s].body].name),
        }
    }

    /// Velocity below which a sliding contact counts as arrived at rest.
    pub(crate) fn vtol(&self, c: usize) -> f64 {
        self.sys.contacts[c].model.stick_band().max(10.0 * self.sys.solver.atol_velocity)
    }

    /// Relative acceleration of a row from the accelerations in `s`.
    pub(crate) fn rel_acc(&self, s: &Scratch, r: &Row) -> f64 {
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
}
