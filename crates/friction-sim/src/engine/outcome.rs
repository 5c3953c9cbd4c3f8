//! The result of a run: modes and events, statistics, the energy balance and
//! the time series.

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
    /// Disengaged: the normal load is zero or negative, the contact carries
    /// no force and cannot stick.
    Free,
}

impl Mode {
    /// Name used in the event log.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Smooth => "smooth",
            Mode::Stuck => "stuck",
            Mode::Forward => "forward",
            Mode::Backward => "backward",
            Mode::Free => "free",
        }
    }
}

/// One logged transition.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Time \[s\].
    pub t: f64,
    /// Contact (or `stop:BODY`, or `gap:NAME`) name.
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
    /// Right-hand-side evaluations: every evaluation of the equations,
    /// including those for Jacobians, root functions, events and output.
    pub rhs_evals: usize,
    /// Jacobian-vector products (the exact products that assemble the
    /// Jacobian, a few per assembly).
    pub jacobian_products: usize,
    /// Newton iterations of the implicit method (each one evaluation of the
    /// equations and one linear solve; 0 for explicit methods).
    pub newton_iterations: usize,
    /// Newton iterations that failed to converge (the step was retried
    /// shorter or with a fresh Jacobian).
    pub newton_failures: usize,
    /// Factorisations of the Newton matrix (after a step-size change, a
    /// failed iteration or a rejected step).
    pub factorisations: usize,
    /// Linear algebra of the implicit solve: `dense`, `sparse` (above a few
    /// dozen states) or `none` (explicit method).
    pub linear_algebra: String,
    /// Wall time of the whole run, from the initial mode selection to the
    /// last output row \[s\].
    pub wall_time: f64,
    /// The method actually used.
    pub method: String,
    /// Events: stick/slip mode changes of contacts.
    pub events_stick_slip: usize,
    /// Events: end-stop impacts, rests and releases.
    pub events_stops: usize,
    /// Events: gaps' contacts starting and ending (`gap:NAME`, `open` /
    /// `closed`).
    pub events_gaps: usize,
    /// Events: engagements and disengagements (normal load crossing zero).
    pub events_engagement: usize,
    /// Events: velocity reversals of hysteresis contacts (memory updates).
    pub events_reversals: usize,
    /// Linear complementarity problems solved (one per coupled group of
    /// contacts at rest, per event).
    pub lcp_solves: usize,
    /// Pivots over all LCP solves.
    pub lcp_pivots: usize,
    /// Largest LCP (contacts and stops at rest in one coupled group).
    pub lcp_max_size: usize,
    /// Output rows written (when streaming, [`Outcome::rows`] keeps a
    /// thinned copy, at most about 40,000 rows, with the last row).
    pub rows: usize,
}

/// Energy bookkeeping over the run.
#[derive(Debug, Clone, Default)]
pub struct Energy {
    /// Work done by the external forces \[J\].
    pub work_forces: f64,
    /// Work done by the drivers \[J\].
    pub work_drivers: f64,
    /// Kinetic energy at start and end \[J\].
    pub kinetic: (f64, f64),
    /// Spring energy at start and end, the gaps' elastic energy included \[J\].
    pub spring: (f64, f64),
    /// ∫ F v_rel dt per contact: dissipated (plus, for elastic contact models, stored) \[J\].
    pub contacts: Vec<(String, f64)>,
    /// Dissipated per damper \[J\].
    pub dampers: Vec<(String, f64)>,
    /// Dissipated per gap by its (limited) damping \[J\]; its elastic
    /// energy counts in `spring`.
    pub gaps: Vec<(String, f64)>,
    /// Kinetic energy lost in impulses (sticking projections, impacts) \[J\].
    pub impacts: f64,
    /// Heat per thermal node: stored `C (T_end - T0)` in a node with a
    /// capacity, absorbed by a fixed node \[J\]. The heated elements'
    /// dissipation (still listed under theirs) counts here in the balance.
    pub thermal: Vec<(String, f64)>,
    /// work in - (change of stored energy + dissipation) \[J\]; with
    /// thermal nodes, work in - (change of stored energy + dissipation of
    /// the elements without `heat` + heat stored + heat to fixed nodes).
    pub residual: f64,
}

impl Energy {
    /// All the energy dissipated: the contacts, dampers, impacts and gaps
    /// (`summary.json`'s `energy.dissipated_total`) \[J\].
    pub fn dissipated_total(&self) -> f64 {
        let d: f64 = self.contacts.iter().map(|c| c.1).sum::<f64>()
            + self.dampers.iter().map(|d| d.1).sum::<f64>()
            + self.impacts;
        if self.gaps.is_empty() {
            d
        } else {
            d + self.gaps.iter().map(|g| g.1).sum::<f64>()
        }
    }
}

/// The result of a run: a time series, the event log, statistics, energy.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Column names: `t`, `x.NAME`, `v.NAME`, `F.NAME`, `s.NAME`,
    /// `sv.NAME`, `z.NAME.k`.
    ///
    /// `F.NAME` is the force the contact exerts on its *first* member: it
    /// opposes that member's slip, so it is `-F` of the model convention
    /// (negative while the first member slides forward). `s.NAME` and
    /// `sv.NAME` are the slip and slip velocity the model sees: first member
    /// minus second. The power the contact dissipates is `-F.NAME · sv.NAME`.
    /// A gap's `F.NAME` (after every other column) is its contact force,
    /// `>= 0`: it pushes its second member along +x and its first along -x.
    pub columns: Vec<String>,
    /// The unit of each column (see [`crate::units`]): `s`, `m`, `m/s`, `N`,
    /// or `rad`, `rad/s`, `N m` for rotational parts.
    pub units: Vec<String>,
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
    /// What the user should know of a run that did not fail: sets of stuck
    /// contacts and stops whose forces are statically indeterminate (two
    /// contacts holding one body, a contact beside a resting stop), and the
    /// rule by which their forces were split.
    pub warnings: Vec<String>,
}

impl Outcome {
    /// Index of a column by name.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The whole column `name`.
    ///
    /// # Panics
    /// If there is no such column (a programming error in the caller).
    pub fn series(&self, name: &str) -> Vec<f64> {
        let i = self.col(name).unwrap_or_else(|| panic!("no column {name}"));
        self.rows.iter().map(|r| r[i]).collect()
    }

    /// Last value of column `name`.
    ///
    /// # Panics
    /// If there is no such column (a programming error in the caller).
    pub fn last(&self, name: &str) -> f64 {
        let i = self.col(name).unwrap_or_else(|| panic!("no column {name}"));
        self.rows.last().map(|r| r[i]).unwrap_or(f64::NAN)
    }
}

/// The result of a run with its rows in one row-major block: the content of
/// [`Outcome`], without one allocation per output row (about a quarter of
/// the cost of a row of the LuGre stick-slip example). Row `i` is
/// `data[i * columns.len()..(i + 1) * columns.len()]`; see [`FlatOutcome::rows`].
/// [`Outcome::from`] splits it into rows.
///
/// ```
/// let sys = friction_sim::scenario::parse(
///     "[[body]]\nname = \"m\"\nmass = 1.0\nv0 = 1.0\n[solver]\nt_end = 1.0\noutput_dt = 0.25\n",
///     "doc.toml",
///     std::path::Path::new("."),
/// )
/// .unwrap();
/// let flat = friction_sim::simulate_flat(&sys).unwrap();
/// assert_eq!(flat.n_rows(), 5);
/// // a free mass at 1 m/s: x = t
/// for r in flat.rows() {
///     assert!((r[1] - r[0]).abs() < 1e-9);
/// }
/// assert_eq!(flat.series("x.m"), friction_sim::simulate(&sys).unwrap().series("x.m"));
/// ```
#[derive(Debug, Clone)]
pub struct FlatOutcome {
    /// Column names, as [`Outcome::columns`].
    pub columns: Vec<String>,
    /// The unit of each column, as [`Outcome::units`].
    pub units: Vec<String>,
    /// The values, row after row (`columns.len()` values per row).
    pub data: Vec<f64>,
    /// Mode transitions.
    pub events: Vec<Event>,
    /// Statistics.
    pub stats: Stats,
    /// Energy balance.
    pub energy: Energy,
    /// If the run failed, why; the rows then hold what was computed until then.
    pub failure: Option<String>,
    /// What the user should know of a run that did not fail: sets of stuck
    /// contacts and stops whose forces are statically indeterminate (two
    /// contacts holding one body, a contact beside a resting stop), and the
    /// rule by which their forces were split.
    pub warnings: Vec<String>,
}

impl FlatOutcome {
    /// Number of rows.
    pub fn n_rows(&self) -> usize {
        self.data.len().checked_div(self.columns.len()).unwrap_or(0)
    }

    /// The rows, one slice of `columns.len()` values each.
    pub fn rows(&self) -> std::slice::ChunksExact<'_, f64> {
        self.data.chunks_exact(self.columns.len().max(1))
    }

    /// Index of a column by name.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The whole column `name`.
    ///
    /// # Panics
    /// If there is no such column (a programming error in the caller).
    pub fn series(&self, name: &str) -> Vec<f64> {
        let i = self.col(name).unwrap_or_else(|| panic!("no column {name}"));
        self.rows().map(|r| r[i]).collect()
    }

    /// Last value of column `name`.
    ///
    /// # Panics
    /// If there is no such column (a programming error in the caller).
    pub fn last(&self, name: &str) -> f64 {
        let i = self.col(name).unwrap_or_else(|| panic!("no column {name}"));
        self.rows().last().map(|r| r[i]).unwrap_or(f64::NAN)
    }
}

impl From<FlatOutcome> for Outcome {
    fn from(t: FlatOutcome) -> Outcome {
        let rows = t.rows().map(<[f64]>::to_vec).collect();
        Outcome {
            columns: t.columns,
            units: t.units,
            rows,
            events: t.events,
            stats: t.stats,
            energy: t.energy,
            failure: t.failure,
            warnings: t.warnings,
        }
    }
}
