//! Co-simulation: a run that stops at communication points chosen by a
//! master (an FMU's `fmi2DoStep`), where inputs are set and outputs read.
//!
//! [`Engine::run_coupled`] runs the ordinary integration loop with one more
//! kind of breakpoint: at t = 0 and at every communication point it calls
//! [`Coupling::communicate`] with a [`Link`] to the settled state. The
//! coupling reads the outputs ([`Link::outputs`]), sets inputs
//! ([`Link::set_input`]) and returns the next communication point (or `None`
//! to end the run). Changed inputs are a breakpoint: stick and slip are
//! decided again jointly, exactly as at a jump of a schedule, and the solver
//! restarts. Between communication points the inputs are held.
//!
//! The loop owns the solver and borrows the engine, so a coupling that must
//! answer calls from elsewhere (the FMI functions) runs the whole loop on its
//! own thread and talks to it through channels (see the `friction-fmu` crate).
//!
//! ```
//! use friction_sim::engine::{Coupling, Engine, Link};
//! let text = r#"
//! [[body]]
//! name = "m"
//! mass = 1.0
//! [[force]]
//! on = "m"
//! value = { type = "input", name = "push", start = 0.0 }
//! [[contact]]
//! name = "c"
//! between = ["m", "ground"]
//! model = "coulomb"
//! params = { fc = 1.0 }
//! [solver]
//! t_end = 2.0
//! "#;
//! let sys = friction_sim::scenario::parse(text, "doc.toml", std::path::Path::new(".")).unwrap();
//! // push with 0.5 N (below Fc: stuck) until t = 1, then with 3 N (slides at 2 m/s²)
//! struct Master(Vec<(f64, f64)>, friction_sim::schedule::InputSignal);
//! impl Coupling for Master {
//!     fn communicate(&mut self, link: &mut Link<'_, '_>) -> Option<f64> {
//!         let push = if link.t() < 1.0 { 0.5 } else { 3.0 };
//!         link.set_input(&self.1, push);
//!         let row = link.outputs().ok()?; // t, x.m, v.m, F.c
//!         self.0.push((row[0], row[2]));
//!         (link.t() < 2.0).then(|| link.t() + 0.5)
//!     }
//! }
//! let mut m = Master(vec![], sys.inputs()[0].clone());
//! let out = Engine::new(&sys).run_coupled(&mut m);
//! assert!(out.failure.is_none());
//! let v: Vec<f64> = m.0.iter().map(|r| r.1).collect();
//! assert_eq!(&v[..3], &[0.0, 0.0, 0.0]);
//! assert!((v[4] - 2.0).abs() < 1e-9); // 1 s of sliding at 2 m/s²
//! ```

use crate::engine::network::Engine;
use crate::engine::outcome::{Event, Outcome};
use crate::error::SimError;
use crate::system::schedule::InputSignal;

/// The master of a co-simulation, called by [`Engine::run_coupled`] at every
/// communication point.
pub trait Coupling {
    /// Read outputs and set inputs at the communication point `link.t()`;
    /// return the next communication point (later than `link.t()`, at most
    /// `t_end`), or `None` to end the run here.
    fn communicate(&mut self, link: &mut Link<'_, '_>) -> Option<f64>;
}

/// The state at a communication point, as a coupling sees it.
pub struct Link<'a, 's> {
    engine: &'a Engine<'s>,
    t: f64,
    y: &'a mut [f64],
    events: &'a mut Vec<Event>,
    /// Inputs changed since the last settling.
    dirty: bool,
    /// The state or the modes changed: the solver must restart.
    restart: bool,
    error: Option<String>,
}

impl<'a, 's> Link<'a, 's> {
    pub(crate) fn new(engine: &'a Engine<'s>, t: f64, y: &'a mut [f64], events: &'a mut Vec<Event>) -> Self {
        Link { engine, t, y, events, dirty: false, restart: false, error: None }
    }

    /// The communication point \[s\].
    pub fn t(&self) -> f64 {
        self.t
    }

    /// Set `input` (one of [`System::inputs`](crate::system::System::inputs))
    /// to `value` from now until it is set again.
    pub fn set_input(&mut self, input: &InputSignal, value: f64) {
        if input.get() != value {
            input.set(self.t, value);
            self.dirty = true;
        }
    }

    /// The output row at this communication point under the inputs set so
    /// far (the columns of [`Outcome::columns`], `t` first). Changed inputs
    /// are settled first (stick/slip decided again); an error means no
    /// consistent stick/slip choice exists and the run ends.
    pub fn outputs(&mut self) -> Result<Vec<f64>, SimError> {
        self.settle()?;
        Ok(self.engine.row(self.t, self.y))
    }

    fn settle(&mut self) -> Result<(), SimError> {
        if let Some(e) = &self.error {
            return Err(SimError::Solver { t: self.t, cause: e.clone(), state: String::new() });
        }
        if self.dirty {
            self.dirty = false;
            self.restart = true;
            match self.engine.handle_breakpoint(self.t, self.y) {
                Ok(ev) => self.events.extend(ev),
                Err(e) => {
                    self.error = Some(e.to_string());
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Settle what is left; `(restart the solver, error)`.
    pub(crate) fn finish(mut self) -> (bool, Option<String>) {
        let _ = self.settle();
        (self.restart, self.error)
    }
}

impl Engine<'_> {
    /// Run as the slave of a co-simulation: stop at t = 0 and at every
    /// communication point `coupling` asks for, hold the inputs in between.
    /// The outcome is that of [`Engine::run`] up to the last communication
    /// point (rows as `[solver]` asks: set `output_times` to `Some(vec![])`
    /// for the initial row only).
    pub fn run_coupled(&self, coupling: &mut dyn Coupling) -> Outcome {
        match self.run_full(None, None, Some(coupling), false) {
            Ok((mut o, kept)) => {
                o.rows = kept.into_rows(o.columns.len());
                o
            }
            Err(e) => Outcome {
                columns: self.columns(),
                units: crate::system::units::kept_units_with(
                    &self.sys,
                    &self.plane_units,
                    self.keep.as_deref(),
                ),
                rows: Vec::new(),
                events: Vec::new(),
                stats: Default::default(),
                energy: Default::default(),
                failure: Some(e.to_string()),
                warnings: Vec::new(),
            },
        }
    }
}
