//! Output columns and rows: time, positions and velocities of bodies and
//! drivers, contact forces, slips and slip velocities, the contacts'
//! internal states (those chosen
//! by `[solver] states`), the gaps' forces, the thermal nodes' temperatures
//! and the conductions' heat flows, and where the rows go: kept in memory, or streamed
//! to a sink with a bounded, thinned copy kept for plots.

use friction_models::FrictionModel;

use crate::engine::network::{Discrete, Engine, Scratch};
use crate::engine::outcome::Mode;
use crate::error::SimError;
use crate::system::CONTACT_STATES;

/// A consumer of output rows as they are computed (for example a CSV
/// writer), with the column names given by [`crate::engine::Outcome::columns`].
pub type RowSink<'a> = &'a mut dyn FnMut(&[f64]) -> Result<(), SimError>;

/// A progress report: simulated time \[s\] and events so far.
pub type Progress<'a> = &'a mut dyn FnMut(f64, usize);

/// Rows kept in memory when streaming (for plots and the final values).
pub const KEPT_ROWS: usize = 20_000;

/// The rows a run kept: one vector per row (for [`crate::engine::Outcome`]),
/// or one row-major block (for [`crate::engine::FlatOutcome`], and the
/// thinned copy of a streamed run).
pub(crate) enum Kept {
    Rows(Vec<Vec<f64>>),
    Flat(Vec<f64>),
}

impl Kept {
    /// The rows as vectors (rows of `width` values).
    pub(crate) fn into_rows(self, width: usize) -> Vec<Vec<f64>> {
        match self {
            Kept::Rows(r) => r,
            Kept::Flat(d) => d.chunks_exact(width.max(1)).map(<[f64]>::to_vec).collect(),
        }
    }

    /// The rows as one block.
    pub(crate) fn into_flat(self) -> Vec<f64> {
        match self {
            Kept::Rows(r) => r.concat(),
            Kept::Flat(d) => d,
        }
    }
}

/// Where the rows of a run go: kept as vectors or in one block (no
/// allocation per row), and to the sink if there is one.
pub(crate) struct RowOut<'a> {
    sink: Option<RowSink<'a>>,
    width: usize,
    /// Rows kept as vectors (no sink, vectors asked for).
    rows: Option<Vec<Vec<f64>>>,
    /// The kept rows, row after row (otherwise).
    data: Vec<f64>,
    /// The row being built when streaming.
    buf: Vec<f64>,
    stride: usize,
    seen: usize,
    /// The last row streamed but not kept (`last` holds it).
    has_last: bool,
    last: Vec<f64>,
    pub error: Option<SimError>,
}

impl<'a> RowOut<'a> {
    /// Rows of `width` values, kept in one block if `flat` or streamed.
    pub(crate) fn new(sink: Option<RowSink<'a>>, width: usize, flat: bool) -> Self {
        let rows = (sink.is_none() && !flat).then(Vec::new);
        RowOut {
            sink,
            width,
            rows,
            data: Vec::new(),
            buf: Vec::with_capacity(width),
            stride: 1,
            seen: 0,
            has_last: false,
            last: Vec::new(),
            error: None,
        }
    }

    /// Room for the `n` rows a run expects (its output times), up to a
    /// million: the block is not regrown and copied as rows arrive.
    pub(crate) fn reserve(&mut self, n: usize) {
        let n = if self.sink.is_some() { n.min(2 * KEPT_ROWS) } else { n.min(1 << 20) };
        match self.rows.as_mut() {
            Some(r) => r.reserve(n),
            None => self.data.reserve(n.saturating_mul(self.width)),
        }
    }

    /// Emit one row, written by `fill` (which appends exactly one row's
    /// values). Without a sink every row is kept; with one, every row goes
    /// to the sink and every `stride`-th is kept, the stride doubling
    /// whenever the kept rows reach twice [`KEPT_ROWS`] (memory stays
    /// bounded).
    pub(crate) fn push_with(&mut self, fill: impl FnOnce(&mut Vec<f64>)) {
        if let Some(rows) = self.rows.as_mut() {
            let mut r = Vec::with_capacity(self.width);
            fill(&mut r);
            rows.push(r);
            return;
        }
        let Some(sink) = self.sink.as_mut() else {
            fill(&mut self.data);
            return;
        };
        self.buf.clear();
        fill(&mut self.buf);
        if self.error.is_none() {
            if let Err(e) = sink(&self.buf) {
                self.error = Some(e);
            }
        }
        if self.seen.is_multiple_of(self.stride) {
            self.data.extend_from_slice(&self.buf);
            self.has_last = false;
            let w = self.width.max(1);
            if self.data.len() >= 2 * KEPT_ROWS * w {
                // keep rows 0, 2, 4, ... in place
                let n = self.data.len() / w;
                for (k, i) in (0..n).step_by(2).enumerate() {
                    self.data.copy_within(i * w..(i + 1) * w, k * w);
                }
                self.data.truncate(n.div_ceil(2) * w);
                self.stride *= 2;
            }
        } else {
            self.last.clone_from(&self.buf);
            self.has_last = true;
        }
        self.seen += 1;
    }

    /// Rows kept in one block without a sink: `fill` may append whole rows
    /// to the block directly ([`RowOut::block`]).
    pub(crate) fn is_block(&self) -> bool {
        self.sink.is_none() && self.rows.is_none()
    }

    /// The block of kept rows, to append whole rows to (only when
    /// [`RowOut::is_block`]).
    pub(crate) fn block(&mut self) -> &mut Vec<f64> {
        debug_assert!(self.is_block());
        &mut self.data
    }

    /// Rows emitted so far.
    pub(crate) fn count(&self) -> usize {
        match (&self.sink, &self.rows) {
            (Some(_), _) => self.seen,
            (None, Some(r)) => r.len(),
            (None, None) => self.data.len() / self.width.max(1),
        }
    }

    /// The kept rows, with the last row always among them; the rows
    /// emitted; a sink's error.
    pub(crate) fn finish(mut self) -> (Kept, usize, Option<SimError>) {
        let n = self.count();
        if self.has_last {
            self.data.extend_from_slice(&self.last);
        }
        let kept = match self.rows.take() {
            Some(r) => Kept::Rows(r),
            None => Kept::Flat(self.data),
        };
        (kept, n, self.error)
    }
}

/// Where a kept output column is read from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Pick {
    /// The time.
    T,
    /// A state component (positions, velocities, contact states).
    Y(usize),
    /// A driver's position and velocity.
    DrvX(usize),
    DrvV(usize),
    /// A contact's force on its first member, slip, slip velocity.
    Force(usize),
    Slip(usize),
    SlipVel(usize),
    /// A contact's memory value.
    Mem(usize, usize),
    /// A gap's contact force (>= 0).
    GapForce(usize),
    /// A contact's normal load (`normal_gap`: its gap's force times `normal`).
    Normal(usize),
    /// A contact's state ([`crate::system::CONTACT_STATES`]: open, stuck, sliding).
    State(usize),
    /// A thermal node's temperature, a conduction's heat flow.
    Temp(usize),
    HeatFlow(usize),
    /// A contact in a plane's column `q` of [`Engine::plane_row`].
    Plane(usize, usize),
}

impl Engine<'_> {
    /// Column names of the time series (those `[solver] columns` keeps).
    pub(crate) fn columns(&self) -> Vec<String> {
        let mut all = self.sys.all_column_names();
        all.extend(self.plane_names.iter().cloned());
        match &self.keep {
            None => all,
            // each column once (`keep` ascends)
            Some(k) => k.iter().map(|&i| std::mem::take(&mut all[i])).collect(),
        }
    }

    /// The contact forces, slip velocities and driver motions at (t, y)
    /// into the scratch, as [`Engine::eval`] leaves them when no contact or
    /// stop is held (no constraint rows): a row needs no accelerations. The
    /// rows took about half of the LuGre stick-slip example's run (4,001
    /// rows); without the full evaluation the run went from 0.95 to about
    /// 0.89 ms (rtol 1e-4).
    fn contact_forces(&self, t: f64, y: &[f64], d: &Discrete, s: &mut Scratch) {
        self.count.rhs.set(self.count.rhs.get() + 1);
        s.drivers_at(&self.sys.drivers, t);
        for c in 0..self.sys.contacts.len() {
            self.contact(t, y, d, s, c, None);
        }
    }

    /// One output row at (t, y) under the current modes and memory.
    pub(crate) fn row(&self, t: f64, y: &[f64]) -> Vec<f64> {
        let mut r = Vec::with_capacity(self.picks.len());
        self.row_into(t, y, &mut r);
        r
    }

    /// Where every column of the full row is read from, in the order of
    /// [`crate::System::all_column_names`].
    pub(crate) fn all_picks(&self) -> Vec<Pick> {
        let sys = &*self.sys;
        let nb = self.nb;
        let mut p = vec![Pick::T];
        for b in 0..nb {
            p.extend([Pick::Y(b), Pick::Y(nb + b)]);
        }
        for k in 0..sys.drivers.len() {
            p.extend([Pick::DrvX(k), Pick::DrvV(k)]);
        }
        p.extend((0..sys.contacts.len()).map(Pick::Force));
        for c in 0..sys.contacts.len() {
            p.extend([Pick::Slip(c), Pick::SlipVel(c)]);
        }
        for (c, ct) in sys.contacts.iter().enumerate() {
            if self.state_cols[c] {
                p.extend((0..ct.model.n_states()).map(|k| Pick::Y(self.z_off[c] + k)));
                p.extend((0..ct.model.n_memory()).map(|k| Pick::Mem(c, k)));
            }
        }
        p.extend((0..sys.gaps.len()).map(Pick::GapForce));
        p.extend((0..sys.contacts.len()).filter(|&c| sys.contacts[c].normal_gap.is_some()).map(Pick::Normal));
        p.extend((0..sys.contacts.len()).filter(|&c| sys.contacts[c].normal_gap.is_some()).map(Pick::State));
        // a capacity's temperature is a state (read on the fast path)
        p.extend((0..sys.thermal.nodes.len()).map(|k| self.heat.state[k].map_or(Pick::Temp(k), Pick::Y)));
        p.extend((0..sys.thermal.conductions.len()).map(Pick::HeatFlow));
        for (k, pl) in self.planes.iter().enumerate() {
            p.extend((0..8).map(|q| Pick::Plane(k, q)));
            if pl.cols {
                p.extend((0..pl.law.n_states()).map(|i| Pick::Y(pl.z_off + i)));
            }
        }
        p
    }

    /// The row at (t, y) appended to `r`: its columns ([`Engine::picks`]),
    /// each read where it lives. The models are called only when a force or
    /// slip-velocity column is kept: LuGre example, rtol 1e-4, columns x, v,
    /// z: a full row built and the columns picked from it took about 20 ns
    /// of a row's 40 (perf); read directly, the run went from 0.63 to 0.61 ms.
    pub(crate) fn row_into(&self, t: f64, y: &[f64], r: &mut Vec<f64>) {
        self.row_into_at(t, t, y, r)
    }

    /// [`Engine::row_into`] with the schedules (drivers, forces, normal
    /// loads) read at `ts` instead of `t`: a row at a schedule's jump that
    /// is not yet handled is the left limit there, `ts` just before the
    /// jump, as the row of an event shows the state before its mode change
    /// (see `Engine::schedule_time_of_row`).
    pub(crate) fn row_into_at(&self, t: f64, ts: f64, y: &[f64], r: &mut Vec<f64>) {
        if self.row_cols.is_some() {
            // time and states only: LuGre example as above, 515 -> 476 µs
            // (alternating runs, min of 4)
            r.extend(self.picks.iter().map(|p| match *p {
                Pick::Y(i) => y[i],
                _ => t,
            }));
            return;
        }
        let sys = &*self.sys;
        let d = self.disc.borrow();
        let mut s = self.scr.borrow_mut();
        // a contact held on its friction disk: its force is the evaluation's
        let held = self.disk_held(&d);
        if !self.row_contacts && !held {
            s.drivers_at(&sys.drivers, ts);
        } else if d.rows.is_empty() && !held {
            self.contact_forces(ts, y, &d, &mut s);
        } else {
            self.eval(ts, y, &d, &mut s, None);
        }
        // F.NAME: the force the contact exerts on its first member (-F of the
        // model); s.NAME, sv.NAME: the slip and slip velocity the model sees
        // (first member minus second)
        r.extend(self.picks.iter().map(|p| match *p {
            Pick::T => t,
            Pick::Y(i) => y[i],
            Pick::DrvX(k) => s.drv[k].0,
            Pick::DrvV(k) => s.drv[k].1,
            Pick::Force(c) => -s.fc[c],
            Pick::Slip(c) => {
                let [a, b] = sys.contacts[c].between;
                self.pos(y, &s, a).0 - self.pos(y, &s, b).0
            }
            Pick::SlipVel(c) => s.vrel[c],
            Pick::Mem(c, k) => d.mem[c][k],
            Pick::GapForce(k) => self.gap_force(y, &s, k).force,
            Pick::Normal(c) => self.load(ts, y, &s, c),
            // open where the load is 0 (a smooth model's contact keeps its
            // mode while open: its force is the load times the model's)
            Pick::State(c) => {
                let k = match d.modes[c] {
                    _ if self.load(ts, y, &s, c) <= 0.0 => 0,
                    Mode::Stuck => 1,
                    Mode::Free | Mode::Smooth | Mode::Forward | Mode::Backward => 2,
                };
                CONTACT_STATES[k].0
            }
            Pick::Temp(k) => self.temperature(y, k),
            Pick::HeatFlow(k) => self.heat_flow(y, k),
            Pick::Plane(k, q) => self.plane_row(ts, y, &d, &s, k)[q],
        }));
    }
}

/// The first `k >= k0` whose output time `(k + 1) dt` is beyond `lim`:
/// the rows `k0..k` of a uniform output grid are due. The rounded product
/// grows with `k`, so the guess `lim / dt` is moved up or down to the exact
/// boundary (what a loop testing every row's time finds, in a few tests).
pub(crate) fn grid_end(k0: usize, dt: f64, lim: f64) -> usize {
    let at = |k: usize| (k + 1) as f64 * dt;
    // no run has 1e15 rows; the cap keeps `k + 1` from overflowing
    let mut k = ((lim / dt).clamp(0.0, 1e15) as usize).max(k0);
    while k > k0 && at(k - 1) > lim {
        k -= 1;
    }
    while at(k) <= lim {
        k += 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::grid_end;
    use rand::{RngExt, SeedableRng};

    /// The rows due found at once are those a loop over every row's time
    /// finds, for steps ending on, just before and just after grid times
    /// (seeded random steps and grids).
    #[test]
    fn grid_rows_counted_at_once_are_the_rows_tested_one_by_one() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        for _ in 0..20_000 {
            let dt = 10f64.powf(rng.random_range(-5.0..0.0));
            let k0 = rng.random_range(0..1000usize);
            let base = (k0 + rng.random_range(0..50usize)) as f64 * dt;
            let lim = match rng.random_range(0..3) {
                0 => base,
                1 => base * (1.0 + 1e-13),
                _ => base + rng.random_range(-1.0..1.0) * dt,
            };
            let mut k = k0;
            while (k + 1) as f64 * dt <= lim {
                k += 1;
            }
            assert_eq!(grid_end(k0, dt, lim), k, "dt {dt}, k0 {k0}, lim {lim}");
        }
    }
}
