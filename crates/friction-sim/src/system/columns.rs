//! A system's output columns: their names in order, which of them
//! `[solver] columns` and `states` keep, and the refusal of an output too
//! large for `max_output_bytes`.

use std::collections::HashSet;

use friction_models::FrictionModel;

use super::{human_bytes, Contact, Member, StateColumns, System, AUTO_STATE_COLUMNS};

/// The values of a contact's `state.NAME` column (contacts whose normal
/// load is a gap's force, `normal_gap` or `normal_stiffness`): `0` open (no
/// load, no force), `1` stuck (its relative velocity held at zero by the
/// engine: set-valued models such as `coulomb`), `2` closed and not held
/// (sliding, or a model with its own presliding state, whose `z.NAME.k`
/// columns tell its elements' stick and slip).
pub const CONTACT_STATES: [(f64, &str); 3] = [(0.0, "open"), (1.0, "stuck"), (2.0, "sliding")];

impl System {
    /// Per contact, whether its internal state and memory columns
    /// (`z.NAME.k`) are written, resolving [`StateColumns::Auto`].
    pub fn state_columns(&self) -> Vec<bool> {
        let n = |c: &Contact| c.model.n_states() + c.model.n_memory();
        match &self.solver.states {
            StateColumns::All => vec![true; self.contacts.len()],
            StateColumns::None => vec![false; self.contacts.len()],
            StateColumns::Names(list) => self.contacts.iter().map(|c| list.contains(&c.name)).collect(),
            StateColumns::Auto => {
                let total: usize = self.contacts.iter().map(n).sum();
                vec![total <= AUTO_STATE_COLUMNS; self.contacts.len()]
            }
        }
    }

    /// Number of output columns: `t`, x and v of every body and driver, the
    /// force, slip and slip velocity of every contact, the state columns chosen by
    /// [`SolverSettings::states`](super::SolverSettings::states), and the force of every gap; of those, the ones [`SolverSettings::columns`](super::SolverSettings::columns) keeps.
    pub fn output_columns(&self) -> usize {
        match self.column_keep() {
            Some(k) => k.len(),
            None => self.all_columns(),
        }
    }

    /// Number of columns before [`SolverSettings::columns`](super::SolverSettings::columns) selects.
    pub(crate) fn all_columns(&self) -> usize {
        let on = self.state_columns();
        let line: Vec<usize> = self.line_contacts().collect();
        let states: usize = line
            .iter()
            .filter(|&&c| on[c])
            .map(|&c| self.contacts[c].model.n_states() + self.contacts[c].model.n_memory())
            .sum();
        let planes: usize =
            self.planes.iter().map(|p| 8 + if on[p.contact] { p.law.n_states() } else { 0 }).sum();
        1 + 2 * (self.bodies.len() + self.drivers.len() + self.structure_columns().len())
            + 3 * line.len()
            + states
            + self.gaps.len()
            + 2 * line.iter().filter(|&&c| self.contacts[c].normal_gap.is_some()).count()
            + self.thermal.n_columns()
            + planes
    }

    /// The contacts along one direction (all but those of [`System::planes`]).
    pub(crate) fn line_contacts(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.contacts.len()).filter(|&c| !self.planes.iter().any(|p| p.contact == c))
    }

    /// The columns of the contacts that rub in a plane, after all others:
    /// per contact `Fx.NAME`, `Fy.NAME` (its force on its first member),
    /// `sx.NAME`, `sy.NAME` (slip), `svx.NAME`, `svy.NAME` (slip velocity),
    /// `N.NAME` (normal load), `state.NAME` (open, stuck or sliding) and, as
    /// `states` chooses, its bristles `z.NAME.0`, `z.NAME.1` (x, y).
    pub(crate) fn plane_column_names(&self) -> Vec<String> {
        let on = self.state_columns();
        let mut cols = Vec::new();
        for p in &self.planes {
            let name = &self.contacts[p.contact].name;
            for q in ["Fx", "Fy", "sx", "sy", "svx", "svy", "N", "state"] {
                cols.push(format!("{q}.{name}"));
            }
            if on[p.contact] {
                cols.extend((0..p.law.n_states()).map(|k| format!("z.{name}.{k}")));
            }
        }
        cols
    }

    /// The DOFs of structures that have columns (`x.NAME:INDEX`,
    /// `v.NAME:INDEX`, after the bodies'): those a contact, spring, damper,
    /// gap or force names and those `watch` lists, as (structure, position
    /// in its matrices), each structure's in the order of its matrices.
    pub fn structure_columns(&self) -> Vec<(usize, usize)> {
        if self.structures.is_empty() {
            return Vec::new();
        }
        let mut shown: Vec<Vec<bool>> = self.structures.iter().map(|s| vec![false; s.n()]).collect();
        let mut mark = |m: &Member| {
            if let Member::Dof { structure, index } = *m {
                shown[structure][index] = true;
            }
        };
        self.contacts.iter().flat_map(|c| &c.between).for_each(&mut mark);
        self.springs.iter().flat_map(|c| &c.between).for_each(&mut mark);
        self.dampers.iter().flat_map(|c| &c.between).for_each(&mut mark);
        self.gaps.iter().flat_map(|c| &c.between).for_each(&mut mark);
        self.inclined_springs.iter().flat_map(|c| c.legs.iter().map(|l| &l.0)).for_each(&mut mark);
        for (k, s) in self.structures.iter().enumerate() {
            for p in s.loads.iter().map(|f| f.on).chain(s.watch.iter().copied()) {
                shown[k][p] = true;
            }
        }
        shown
            .iter()
            .enumerate()
            .flat_map(|(k, v)| v.iter().enumerate().filter(|e| *e.1).map(move |(p, _)| (k, p)))
            .collect()
    }

    /// The names of the columns before [`SolverSettings::columns`](super::SolverSettings::columns) selects:
    /// `t`, `x.NAME`/`v.NAME` of bodies then drivers, `F.NAME` of contacts,
    /// `s.NAME`/`sv.NAME` of contacts, `z.NAME.k` as `states` chooses,
    /// `F.NAME` of gaps (their contact force, >= 0), `N.NAME` of contacts
    /// whose normal load is a gap's force (`normal_gap`: that load), then
    /// their `state.NAME` ([`CONTACT_STATES`]), `T.NODE`
    /// of thermal nodes and `Q.NAME` of conductions, then the columns of
    /// the contacts that rub in a plane ([`System::plane_column_names`]).
    pub(crate) fn all_column_names(&self) -> Vec<String> {
        let mut cols = Vec::with_capacity(self.all_columns());
        cols.push("t".to_string());
        for b in &self.bodies {
            let (x, v) = b.columns();
            cols.push(x);
            cols.push(v);
        }
        for (s, p) in self.structure_columns() {
            let name = self.structures[s].coordinate_name(p);
            cols.push(format!("x.{name}"));
            cols.push(format!("v.{name}"));
        }
        for dr in &self.drivers {
            cols.push(format!("x.{}", dr.name));
            cols.push(format!("v.{}", dr.name));
        }
        let line: Vec<&Contact> = self.line_contacts().map(|c| &self.contacts[c]).collect();
        for c in &line {
            cols.push(format!("F.{}", c.name));
        }
        for c in &line {
            cols.push(format!("s.{}", c.name));
            cols.push(format!("sv.{}", c.name));
        }
        let on = self.state_columns();
        for c in self.line_contacts().filter(|&c| on[c]).map(|c| &self.contacts[c]) {
            for k in 0..c.model.n_states() + c.model.n_memory() {
                cols.push(format!("z.{}.{k}", c.name));
            }
        }
        for g in &self.gaps {
            cols.push(format!("F.{}", g.name));
        }
        for c in line.iter().filter(|c| c.normal_gap.is_some()) {
            cols.push(format!("N.{}", c.name));
        }
        for c in line.iter().filter(|c| c.normal_gap.is_some()) {
            cols.push(format!("state.{}", c.name));
        }
        cols.extend(self.thermal.column_names());
        cols.extend(self.plane_column_names());
        cols
    }

    /// The positions (in [`System::all_column_names`]) of the columns
    /// [`SolverSettings::columns`](super::SolverSettings::columns) keeps, `t` first; `None` for all. Names
    /// that are not columns are skipped here (refused at load time).
    pub(crate) fn column_keep(&self) -> Option<Vec<usize>> {
        keep_of(&self.all_column_names(), self.solver.columns.as_deref())
    }

    /// Refuse a run whose output (rows × columns × 8 bytes) would exceed
    /// `max_output_bytes`, with the estimate and what to change.
    pub fn check_output_size(&self) -> Result<(), String> {
        let Some(rows) = self.solver.output_rows() else { return Ok(()) };
        let cols = self.output_columns() as f64;
        let bytes = rows * cols * 8.0;
        let limit = self.solver.max_output_bytes;
        if bytes > limit as f64 {
            return Err(format!(
                "[solver] the output would take about {} ({rows:.0} rows × {cols:.0} columns × 8 bytes), \
                 more than `max_output_bytes` = {}; raise `output_dt`, shorten `t_end`, set \
                 `states = \"none\"`, or raise `[solver] max_output_bytes`",
                human_bytes(bytes),
                human_bytes(limit as f64)
            ));
        }
        Ok(())
    }
}

/// The positions in `all` of the columns `want` names, `t` (the first)
/// always; `None` for all.
pub(crate) fn keep_of(all: &[String], want: Option<&[String]>) -> Option<Vec<usize>> {
    // a set: a chain of 256 masses asking for its 512 positions and
    // velocities spent 1.6 ms of a 17 ms run comparing names
    let want: HashSet<&str> = want?.iter().map(String::as_str).collect();
    Some(
        all.iter()
            .enumerate()
            .filter(|(i, c)| *i == 0 || want.contains(c.as_str()))
            .map(|(i, _)| i)
            .collect(),
    )
}
