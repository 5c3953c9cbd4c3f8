//! Output columns and rows: time, positions and velocities of bodies and
//! drivers, contact forces, slips and slip velocities, and the contacts'
//! internal states (those chosen
//! by `[solver] states`), and where the rows go: kept in memory, or streamed
//! to a sink with a bounded, thinned copy kept for plots.

use friction_models::FrictionModel;

use super::network::{Discrete, Engine, Scratch};
use crate::error::SimError;

/// A consumer of output rows as they are computed (for example a CSV
/// writer), with the column names given by [`crate::engine::Outcome::columns`].
pub type RowSink<'a> = &'a mut dyn FnMut(&[f64]) -> Result<(), SimError>;

/// A progress report: simulated time \[s\] and events so far.
pub type Progress<'a> = &'a mut dyn FnMut(f64, usize);

/// Rows kept in memory when streaming (for plots and the final values).
pub const KEPT_ROWS: usize = 20_000;

/// Where the rows of a run go.
pub(crate) struct RowOut<'a> {
    sink: Option<RowSink<'a>>,
    pub rows: Vec<Vec<f64>>,
    stride: usize,
    seen: usize,
    last: Option<Vec<f64>>,
    pub error: Option<SimError>,
}

impl<'a> RowOut<'a> {
    pub(crate) fn new(sink: Option<RowSink<'a>>) -> Self {
        RowOut { sink, rows: Vec::new(), stride: 1, seen: 0, last: None, error: None }
    }

    /// Room for the `n` rows a run expects (its output times), up to a
    /// million: the list of rows is not regrown and copied as they arrive.
    pub(crate) fn reserve(&mut self, n: usize) {
        let n = if self.sink.is_some() { n.min(2 * KEPT_ROWS) } else { n.min(1 << 20) };
        self.rows.reserve(n);
    }

    /// Emit one row. Without a sink every row is kept; with one, every row
    /// goes to the sink and every `stride`-th is kept, the stride doubling
    /// whenever the kept rows reach twice [`KEPT_ROWS`] (memory stays bounded).
    pub(crate) fn push(&mut self, r: Vec<f64>) {
        let Some(sink) = self.sink.as_mut() else {
            self.rows.push(r);
            return;
        };
        if self.error.is_none() {
            if let Err(e) = sink(&r) {
                self.error = Some(e);
            }
        }
        if self.seen.is_multiple_of(self.stride) {
            self.rows.push(r);
            self.last = None;
            if self.rows.len() >= 2 * KEPT_ROWS {
                let mut i: usize = 0;
                self.rows.retain(|_| {
                    i += 1;
                    (i - 1).is_multiple_of(2)
                });
                self.stride *= 2;
            }
        } else {
            self.last = Some(r);
        }
        self.seen += 1;
    }

    /// Rows emitted so far.
    pub(crate) fn count(&self) -> usize {
        if self.sink.is_some() {
            self.seen
        } else {
            self.rows.len()
        }
    }

    /// The kept rows, with the last row always among them.
    pub(crate) fn finish(mut self) -> (Vec<Vec<f64>>, usize, Option<SimError>) {
        let n = self.count();
        if let Some(l) = self.last.take() {
            self.rows.push(l);
        }
        (self.rows, n, self.error)
    }
}

impl Engine<'_> {
    /// Column names of the time series.
    pub(crate) fn columns(&self) -> Vec<String> {
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
            cols.push(format!("s.{}", c.name));
            cols.push(format!("sv.{}", c.name));
        }
        for (c, on) in sys.contacts.iter().zip(&self.state_cols) {
            if *on {
                for k in 0..c.model.n_states() + c.model.n_memory() {
                    cols.push(format!("z.{}.{k}", c.name));
                }
            }
        }
        cols
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
        let sys = self.sys;
        let d = self.disc.borrow();
        let mut s = self.scr.borrow_mut();
        if d.rows.is_empty() {
            self.contact_forces(t, y, &d, &mut s);
        } else {
            self.eval(t, y, &d, &mut s, None);
        }
        let nb = self.nb;
        let mut r = Vec::with_capacity(1 + 2 * (nb + sys.drivers.len()) + 3 * sys.contacts.len() + self.nz);
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
        // s.NAME, sv.NAME: the slip and slip velocity the model sees (first
        // member minus second)
        for (c, ct) in sys.contacts.iter().enumerate() {
            let (xa, _) = self.pos(y, &s, ct.between[0]);
            let (xb, _) = self.pos(y, &s, ct.between[1]);
            r.push(xa - xb);
            r.push(s.vrel[c]);
        }
        for (c, ct) in sys.contacts.iter().enumerate() {
            if !self.state_cols[c] {
                continue;
            }
            let off = self.z_off[c];
            r.extend_from_slice(&y[off..off + ct.model.n_states()]);
            r.extend_from_slice(&d.mem[c]);
        }
        r
    }
}
