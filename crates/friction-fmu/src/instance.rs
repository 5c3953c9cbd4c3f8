//! One FMU instance: the FMI 2.0 Co-Simulation state machine, the
//! variables' values, and the simulation it drives (in safe Rust; the C
//! functions in [`crate::fmi2`] only convert arguments).
//!
//! States and what each allows (FMI 2.0, section 4.2.4):
//! - `Instantiated`: set parameters and inputs, `fmi2SetupExperiment`,
//!   `fmi2EnterInitializationMode`;
//! - `Initialization`: set parameters and inputs, get every variable (the
//!   outputs at the start time), `fmi2ExitInitializationMode`;
//! - `Stepping`: set inputs, get every variable, `fmi2DoStep`, `fmi2Terminate`;
//! - `Terminated`: get every variable;
//! - `Error`: after a failed call; get, `fmi2Reset`, `fmi2FreeInstance`.
//!
//! Every misuse returns an [`FmiError`] with a message that the C layer logs
//! through the master's logger.

use std::path::PathBuf;

use friction_sim::scenario::System;

pub use crate::description::LOG_CATEGORIES;
pub use crate::lifecycle::{FmiError, State};
use crate::state::{Command, Replay, Snapshot};
use crate::variables::{variables, with_overrides, Kind, Variable};
use crate::worker::Worker;

/// One instance of the FMU.
pub struct Instance {
    /// The instance name given to `fmi2Instantiate`.
    pub name: String,
    /// Current state.
    pub state: State,
    /// The scenario as read (its table, edited by each change of parameters).
    doc: friction_sim::scenario::Document,
    dir: PathBuf,
    base: System,
    vars: Vec<Variable>,
    /// Current value of every parameter and input variable (by vr; outputs unused).
    values: Vec<f64>,
    stop_time: f64,
    rtol: Option<f64>,
    time: f64,
    worker: Option<Worker>,
    /// What the running simulation received, for FMU states (empty without one).
    replay: Replay,
    /// The GUID of the scenario text.
    guid: String,
    /// Outputs at the current communication point, if read since the last change.
    cached: Option<Vec<f64>>,
}

impl Instance {
    /// An instance of the scenario in `resources` (the directory of
    /// `fmuResourceLocation`), checking the GUID.
    pub fn new(name: &str, guid: &str, resources: PathBuf) -> Result<Instance, FmiError> {
        let path = resources.join("scenario.toml");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| FmiError(format!("cannot read the packed scenario {}: {e}", path.display())))?;
        let expected = crate::description::guid(&text);
        if guid != expected {
            return Err(FmiError(format!(
                "GUID {guid} does not match the packed scenario {} (GUID {expected}); \
                 the modelDescription.xml and the resources come from different exports",
                path.display()
            )));
        }
        Instance::from_text(name, &text, &path.display().to_string(), resources)
    }

    /// An instance of the scenario `text` (no GUID check); `file` names it in
    /// messages and `dir` resolves its table files.
    pub fn from_text(name: &str, text: &str, file: &str, dir: PathBuf) -> Result<Instance, FmiError> {
        // read once: every change of parameters edits a copy of its table
        let doc = friction_sim::scenario::Document::read(text, file).map_err(|e| FmiError(e.to_string()))?;
        let base = doc.validate(&dir).map_err(|e| FmiError(e.to_string()))?;
        let vars = variables(&base, doc.table()).map_err(|e| FmiError(format!("{file}: {e}")))?;
        let values = vars.iter().map(|v| v.start.unwrap_or(f64::NAN)).collect();
        let stop_time = base.solver.t_end;
        Ok(Instance {
            name: name.to_string(),
            state: State::Instantiated,
            doc,
            dir,
            base,
            vars,
            values,
            stop_time,
            rtol: None,
            time: 0.0,
            worker: None,
            replay: Replay::default(),
            guid: crate::description::guid(text),
            cached: None,
        })
    }

    /// The variables.
    pub fn variables(&self) -> &[Variable] {
        &self.vars
    }

    /// The time of the current communication point \[s\].
    pub fn time(&self) -> f64 {
        self.time
    }

    fn refuse(&self, call: &str, allowed: &str) -> FmiError {
        FmiError(format!("{call} is not allowed in state {:?}; it is allowed {allowed}", self.state))
    }

    /// Move to the error state (after any call that returned fmi2Error),
    /// ending the simulation.
    pub fn set_error(&mut self) {
        self.state = State::Error;
        self.worker = None;
    }

    /// Run `f`; on error move to the error state.
    fn guard<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, FmiError>) -> Result<T, FmiError> {
        let r = f(self);
        if r.is_err() {
            self.set_error();
        }
        r
    }

    /// `fmi2SetupExperiment`: the start time must be 0 (schedules start
    /// there); a stop time replaces the scenario's `t_end`; a tolerance
    /// replaces its `rtol`.
    pub fn setup_experiment(
        &mut self,
        tol: Option<f64>,
        start: f64,
        stop: Option<f64>,
    ) -> Result<(), FmiError> {
        self.guard(|s| {
            if s.state != State::Instantiated {
                return Err(s.refuse("fmi2SetupExperiment", "after fmi2Instantiate or fmi2Reset"));
            }
            if start != 0.0 {
                return Err(FmiError(format!(
                    "fmi2SetupExperiment: startTime = {start} is not supported; the scenario's schedules \
                     start at t = 0, valid: 0"
                )));
            }
            if let Some(t) = stop {
                if !(t.is_finite() && t > 0.0) {
                    return Err(FmiError(format!(
                        "fmi2SetupExperiment: stopTime = {t} is out of range; valid range (0, inf)"
                    )));
                }
            }
            if let Some(r) = tol {
                if !(r > 1e-14 && r < 1.0) {
                    return Err(FmiError(format!(
                        "fmi2SetupExperiment: tolerance = {r} is out of range; valid range (1e-14, 1)"
                    )));
                }
            }
            s.stop_time = stop.unwrap_or(s.base.solver.t_end);
            s.rtol = tol;
            Ok(())
        })
    }

    /// `fmi2EnterInitializationMode`.
    pub fn enter_initialization(&mut self) -> Result<(), FmiError> {
        self.guard(|s| {
            if s.state != State::Instantiated {
                return Err(s.refuse("fmi2EnterInitializationMode", "after fmi2Instantiate or fmi2Reset"));
            }
            s.state = State::Initialization;
            Ok(())
        })
    }

    /// `fmi2ExitInitializationMode`: the simulation starts (at t = 0, with
    /// the parameters and inputs set so far).
    pub fn exit_initialization(&mut self) -> Result<(), FmiError> {
        self.guard(|s| {
            if s.state != State::Initialization {
                return Err(s.refuse("fmi2ExitInitializationMode", "in initialization mode"));
            }
            s.ensure_worker()?;
            s.state = State::Stepping;
            Ok(())
        })
    }

    /// The system with the current parameter values and solver settings.
    fn system(&self) -> Result<System, FmiError> {
        // the parameters the master changed, at their override paths
        let overrides: Vec<(String, f64)> = self
            .vars
            .iter()
            .filter(|v| Some(self.values[v.vr as usize]) != v.start)
            .filter_map(|v| {
                let path = match &v.kind {
                    Kind::Parameter { contact, param } => {
                        format!("contact.{}.params.{param}", self.base.contacts[*contact].name)
                    }
                    Kind::Thermal { path } => path.clone(),
                    _ => return None,
                };
                Some((path, self.values[v.vr as usize]))
            })
            .collect();
        let mut sys = if overrides.is_empty() {
            self.base.clone()
        } else {
            with_overrides(&self.doc, &self.dir, &overrides).map_err(FmiError)?
        };
        sys.solver.t_end = self.stop_time;
        if let Some(r) = self.rtol {
            sys.solver.rtol = r;
        }
        // the master reads the outputs: no rows but the initial one
        sys.solver.output_times = Some(Vec::new());
        // the wall clock runs while the master works between steps too
        sys.solver.max_wall = None;
        Ok(sys)
    }

    fn inputs(&self) -> Vec<f64> {
        self.vars
            .iter()
            .filter(|v| matches!(v.kind, Kind::Input(_)))
            .map(|v| self.values[v.vr as usize])
            .collect()
    }

    /// Start the simulation with the inputs `u0` at t = 0.
    fn start_worker(&mut self, u0: Vec<f64>) -> Result<(), FmiError> {
        let sys = self.system()?;
        // a clone of the scenario shares its inputs' held values with every
        // earlier run (a reset, a restored state): back to t = 0 first
        for (sig, &v) in sys.inputs().iter().zip(&u0) {
            sig.reset();
            sig.set(0.0, v);
        }
        self.worker = Some(Worker::start(sys).map_err(FmiError)?);
        self.replay = Replay { start_inputs: u0, commands: Vec::new() };
        Ok(())
    }

    fn ensure_worker(&mut self) -> Result<&Worker, FmiError> {
        if self.worker.is_none() {
            self.start_worker(self.inputs())?;
            self.cached = None;
        }
        Ok(self.worker.as_ref().expect("started above"))
    }

    fn var(&self, vr: u32, call: &str) -> Result<&Variable, FmiError> {
        self.vars.get(vr as usize).ok_or_else(|| {
            FmiError(format!(
                "{call}: unknown value reference {vr}; this FMU has Real variables 0 to {}",
                self.vars.len().saturating_sub(1)
            ))
        })
    }

    /// `fmi2GetReal`.
    pub fn get_real(&mut self, vrs: &[u32], out: &mut [f64]) -> Result<(), FmiError> {
        self.guard(|s| {
            if s.state == State::Instantiated {
                return Err(s.refuse("fmi2GetReal", "from initialization mode on"));
            }
            for (k, &vr) in vrs.iter().enumerate() {
                let v = s.var(vr, "fmi2GetReal")?;
                out[k] = match v.kind {
                    Kind::Output(col) => {
                        if s.cached.is_none() {
                            if s.state == State::Error || s.state == State::Terminated && s.worker.is_none() {
                                return Err(FmiError(format!(
                                    "fmi2GetReal: output \"{}\" is not available after the simulation ended",
                                    v.name
                                )));
                            }
                            let u = s.inputs();
                            let row = s.ensure_worker()?.outputs(&u).map_err(FmiError)?;
                            s.replay.commands.push(Command::Outputs(u));
                            s.cached = Some(row);
                        }
                        s.cached.as_ref().expect("set above")[col]
                    }
                    _ => s.values[vr as usize],
                };
            }
            Ok(())
        })
    }

    /// `fmi2SetReal`: parameters before the end of initialization (each value
    /// validated as the scenario's would be), inputs at any time before
    /// termination.
    pub fn set_real(&mut self, vrs: &[u32], vals: &[f64]) -> Result<(), FmiError> {
        self.guard(|s| {
            if matches!(s.state, State::Terminated | State::Error) {
                return Err(s.refuse("fmi2SetReal", "before fmi2Terminate"));
            }
            for (&vr, &x) in vrs.iter().zip(vals) {
                let v = s.var(vr, "fmi2SetReal")?.clone();
                match &v.kind {
                    Kind::Output(_) => {
                        return Err(FmiError(format!(
                            "fmi2SetReal: \"{}\" (value reference {vr}) is an output; only inputs and \
                             parameters can be set",
                            v.name
                        )))
                    }
                    Kind::Input(_) => {
                        if !x.is_finite() {
                            return Err(FmiError(format!(
                                "fmi2SetReal: input \"{}\" = {x} is not finite; valid range (-inf, inf)",
                                v.name
                            )));
                        }
                        if s.values[vr as usize] != x {
                            s.values[vr as usize] = x;
                            s.cached = None;
                        }
                    }
                    Kind::Parameter { .. } | Kind::Thermal { .. } => {
                        if !matches!(s.state, State::Instantiated | State::Initialization) {
                            return Err(FmiError(format!(
                                "fmi2SetReal: parameter \"{}\" is fixed; it can be set only before \
                                 fmi2ExitInitializationMode",
                                v.name
                            )));
                        }
                        let old = s.values[vr as usize];
                        s.values[vr as usize] = x;
                        // validated now, as the scenario file would be
                        if let Err(e) = s.system() {
                            s.values[vr as usize] = old;
                            return Err(FmiError(format!(
                                "fmi2SetReal: parameter \"{}\" = {x}: {e}",
                                v.name
                            )));
                        }
                        // a simulation started for outputs read in initialization mode is stale
                        s.worker = None;
                        s.cached = None;
                    }
                }
            }
            Ok(())
        })
    }

    /// `fmi2DoStep` from `t` over `h`.
    pub fn do_step(&mut self, t: f64, h: f64) -> Result<(), FmiError> {
        self.guard(|s| {
            if s.state != State::Stepping {
                return Err(s.refuse("fmi2DoStep", "after fmi2ExitInitializationMode and before fmi2Terminate"));
            }
            let tol = 1e-9 * (1.0 + s.time.abs());
            if (t - s.time).abs() > tol || t.is_nan() {
                return Err(FmiError(format!(
                    "fmi2DoStep: currentCommunicationPoint = {t} is not the FMU's time {}",
                    s.time
                )));
            }
            if !(h.is_finite() && h > 0.0) {
                return Err(FmiError(format!(
                    "fmi2DoStep: communicationStepSize = {h} is out of range; valid range (0, stop time - t = {}]",
                    s.stop_time - s.time
                )));
            }
            let to = s.time + h;
            if to > s.stop_time * (1.0 + 1e-12) + 1e-12 {
                return Err(FmiError(format!(
                    "fmi2DoStep: t + h = {to} is past the stop time {} (the scenario's t_end, or the \
                     stopTime of fmi2SetupExperiment)",
                    s.stop_time
                )));
            }
            let to = to.min(s.stop_time);
            let u = s.inputs();
            let w = s.worker.as_ref().ok_or_else(|| FmiError("internal error: no simulation".into()))?;
            w.step(to, &u).map_err(|e| FmiError(format!("fmi2DoStep from t = {t} to {to}: {e}")))?;
            s.replay.commands.push(Command::Step(to, u));
            s.time = to;
            s.cached = None;
            Ok(())
        })
    }

    /// `fmi2Terminate`: the outputs of the last communication point stay
    /// readable.
    pub fn terminate(&mut self) -> Result<(), FmiError> {
        self.guard(|s| {
            if !matches!(s.state, State::Stepping | State::Error) {
                return Err(s.refuse("fmi2Terminate", "after fmi2ExitInitializationMode"));
            }
            if s.state == State::Stepping && s.cached.is_none() {
                if let Some(w) = &s.worker {
                    let u = s.inputs();
                    s.cached = w.outputs(&u).ok();
                    s.replay.commands.push(Command::Outputs(u));
                }
            }
            s.worker = None;
            s.state = State::Terminated;
            Ok(())
        })
    }

    /// `fmi2Reset`: back to the state after instantiation, start values restored.
    pub fn reset(&mut self) {
        self.worker = None;
        self.cached = None;
        self.values = self.vars.iter().map(|v| v.start.unwrap_or(f64::NAN)).collect();
        self.stop_time = self.base.solver.t_end;
        self.rtol = None;
        self.time = 0.0;
        self.state = State::Instantiated;
    }

    /// The GUID of this FMU (FMI 3.0: its instantiation token).
    pub fn guid(&self) -> &str {
        &self.guid
    }

    /// `fmi2GetFMUstate`: a snapshot of the instance, in any state.
    pub fn get_state(&self) -> Snapshot {
        Snapshot {
            state: self.state,
            values: self.values.clone(),
            stop_time: self.stop_time,
            rtol: self.rtol,
            time: self.time,
            cached: self.cached.clone(),
            replay: self.worker.as_ref().map(|_| self.replay.clone()),
        }
    }

    /// `fmi2SetFMUstate`: back (or forward) to `snap`; its simulation is run
    /// again from t = 0 through the same commands (see [`crate::state`]),
    /// unless this instance is still exactly there.
    pub fn set_state(&mut self, snap: &Snapshot) -> Result<(), FmiError> {
        self.guard(|s| {
            if snap.values.len() != s.vars.len() {
                return Err(FmiError(format!(
                    "fmi2SetFMUstate: the state has {} variable values; this FMU has {}",
                    snap.values.len(),
                    s.vars.len()
                )));
            }
            let same_run = s.worker.is_some()
                && snap.replay.as_ref() == Some(&s.replay)
                && s.stop_time.to_bits() == snap.stop_time.to_bits()
                && s.rtol.map(f64::to_bits) == snap.rtol.map(f64::to_bits)
                && s.values.iter().zip(&snap.values).all(|(a, b)| a.to_bits() == b.to_bits());
            s.values.clone_from(&snap.values);
            s.stop_time = snap.stop_time;
            s.rtol = snap.rtol;
            s.time = snap.time;
            if !same_run {
                s.worker = None;
                s.replay = Replay::default();
                if let Some(r) = &snap.replay {
                    s.start_worker(r.start_inputs.clone())?;
                    let w = s.worker.as_ref().expect("started above");
                    for c in &r.commands {
                        let done = match c {
                            Command::Outputs(u) => w.outputs(u).map(|_| ()),
                            Command::Step(to, u) => w.step(*to, u),
                        };
                        done.map_err(|e| {
                            FmiError(format!("fmi2SetFMUstate: the simulation could not be replayed: {e}"))
                        })?;
                    }
                    s.replay.commands.clone_from(&r.commands);
                }
            }
            s.cached.clone_from(&snap.cached);
            s.state = snap.state;
            Ok(())
        })
    }
}
