//! FMU states (`fmi2GetFMUstate` / `fmi3GetFMUState` and their set, free
//! and serialisation functions): a [`Snapshot`] of an instance, and its
//! bytes.
//!
//! The simulation of an instance runs on its own thread inside the engine's
//! integration loop ([`crate::worker`]), which cannot be copied. A snapshot
//! therefore records what made the simulation what it is: the variable
//! values, the experiment (stop time, tolerance), and the *replay*, every
//! command the simulation received since it started (the inputs at t = 0,
//! then each output read and each step, with the inputs of the moment).
//! The engine is deterministic, so restoring a snapshot starts the
//! simulation again and replays these commands: the restored instance is
//! bit for bit the one that was saved. Restoring costs a simulation from
//! t = 0 to the snapshot's time (nothing when the instance is still at the
//! saved state, the rollback of a step that was not taken).
//!
//! Serialised form (little-endian): the magic `FRFMUST1`, the FMU's GUID
//! (instantiation token) as a length-prefixed string, then the fields of
//! [`Snapshot`] in declaration order; a vector is a `u64` length then its
//! `f64`s. A state is refused by an FMU of another scenario (another GUID)
//! and when it is truncated or malformed, with a message naming the field.

use crate::lifecycle::{FmiError, State};

/// The magic number of a serialised state (format version 1).
const MAGIC: &[u8; 8] = b"FRFMUST1";

/// One command the simulation received, with the input values of the moment.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// The outputs were read at the current communication point.
    Outputs(Vec<f64>),
    /// A step to the given time.
    Step(f64, Vec<f64>),
}

/// The history of a running simulation: enough to start it again and bring
/// it to the same point.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Replay {
    /// The input values at t = 0, when the simulation started.
    pub start_inputs: Vec<f64>,
    /// Every command since, in order.
    pub commands: Vec<Command>,
}

/// The saved state of an instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The FMI state of the instance.
    pub state: State,
    /// The value of every variable, by value reference (outputs unused).
    pub values: Vec<f64>,
    /// The stop time \[s\].
    pub stop_time: f64,
    /// The relative tolerance set by the master, if any.
    pub rtol: Option<f64>,
    /// The time of the communication point \[s\].
    pub time: f64,
    /// The outputs read at this communication point, if any.
    pub cached: Option<Vec<f64>>,
    /// The simulation's history, when one was running.
    pub replay: Option<Replay>,
}

fn state_code(s: State) -> u8 {
    match s {
        State::Instantiated => 0,
        State::Initialization => 1,
        State::Stepping => 2,
        State::Terminated => 3,
        State::Error => 4,
    }
}

struct Writer(Vec<u8>);

impl Writer {
    fn f(&mut self, x: f64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    fn n(&mut self, n: usize) {
        self.0.extend_from_slice(&(n as u64).to_le_bytes());
    }
    fn v(&mut self, v: &[f64]) {
        self.n(v.len());
        v.iter().for_each(|&x| self.f(x));
    }
    fn flag(&mut self, b: bool) {
        self.0.push(b as u8);
    }
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], FmiError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len()).ok_or_else(|| {
            FmiError(format!(
                "the serialised FMU state is truncated: {what} at byte {} needs {n} bytes, {} left",
                self.at,
                self.b.len() - self.at
            ))
        })?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self, what: &str) -> Result<u8, FmiError> {
        Ok(self.take(1, what)?[0])
    }
    fn flag(&mut self, what: &str) -> Result<bool, FmiError> {
        match self.u8(what)? {
            0 => Ok(false),
            1 => Ok(true),
            x => Err(FmiError(format!("the serialised FMU state is malformed: {what} = {x}, valid: 0 or 1"))),
        }
    }
    fn f(&mut self, what: &str) -> Result<f64, FmiError> {
        let s = self.take(8, what)?;
        Ok(f64::from_le_bytes(s.try_into().expect("8 bytes")))
    }
    fn n(&mut self, what: &str) -> Result<usize, FmiError> {
        let s = self.take(8, what)?;
        let n = u64::from_le_bytes(s.try_into().expect("8 bytes"));
        // every element takes at least one byte: a larger count is corrupt
        usize::try_from(n).ok().filter(|&n| n <= self.b.len() - self.at).ok_or_else(|| {
            FmiError(format!(
                "the serialised FMU state is malformed: {what} = {n} elements, more than the {} bytes left",
                self.b.len() - self.at
            ))
        })
    }
    fn v(&mut self, what: &str) -> Result<Vec<f64>, FmiError> {
        let n = self.n(what)?;
        (0..n).map(|_| self.f(what)).collect()
    }
}

impl Snapshot {
    /// The serialised state of an FMU whose GUID (FMI 3.0: instantiation
    /// token) is `guid`.
    ///
    /// ```
    /// use friction_fmu::instance::State;
    /// use friction_fmu::state::Snapshot;
    /// let s = Snapshot {
    ///     state: State::Instantiated,
    ///     values: vec![1.0, 2.5],
    ///     stop_time: 5.0,
    ///     rtol: None,
    ///     time: 0.0,
    ///     cached: None,
    ///     replay: None,
    /// };
    /// let b = s.to_bytes("{g}");
    /// assert_eq!(Snapshot::from_bytes(&b, "{g}", 2).unwrap(), s);
    /// assert!(Snapshot::from_bytes(&b, "{other}", 2).unwrap_err().0.contains("{other}"));
    /// ```
    pub fn to_bytes(&self, guid: &str) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(64 + 8 * self.values.len()));
        w.0.extend_from_slice(MAGIC);
        w.n(guid.len());
        w.0.extend_from_slice(guid.as_bytes());
        w.0.push(state_code(self.state));
        w.v(&self.values);
        w.f(self.stop_time);
        w.flag(self.rtol.is_some());
        w.f(self.rtol.unwrap_or(0.0));
        w.f(self.time);
        w.flag(self.cached.is_some());
        w.v(self.cached.as_deref().unwrap_or(&[]));
        w.flag(self.replay.is_some());
        if let Some(r) = &self.replay {
            w.v(&r.start_inputs);
            w.n(r.commands.len());
            for c in &r.commands {
                match c {
                    Command::Outputs(u) => {
                        w.0.push(0);
                        w.v(u);
                    }
                    Command::Step(to, u) => {
                        w.0.push(1);
                        w.f(*to);
                        w.v(u);
                    }
                }
            }
        }
        w.0
    }

    /// The state serialised by [`Snapshot::to_bytes`] for the FMU whose GUID
    /// is `guid` and which has `n_vars` variables; an error names what does
    /// not match.
    pub fn from_bytes(bytes: &[u8], guid: &str, n_vars: usize) -> Result<Snapshot, FmiError> {
        let mut r = Reader { b: bytes, at: 0 };
        if r.take(8, "the magic number")? != MAGIC {
            return Err(FmiError(
                "the bytes are not a serialised state of a friction FMU (no FRFMUST1 magic number)".into(),
            ));
        }
        let n = r.n("the GUID length")?;
        let g = String::from_utf8_lossy(r.take(n, "the GUID")?).into_owned();
        if g != guid {
            return Err(FmiError(format!(
                "the serialised FMU state belongs to the FMU with GUID {g}, not to this one ({guid})"
            )));
        }
        let state = match r.u8("the instance state")? {
            0 => State::Instantiated,
            1 => State::Initialization,
            2 => State::Stepping,
            3 => State::Terminated,
            4 => State::Error,
            x => {
                return Err(FmiError(format!(
                    "the serialised FMU state is malformed: instance state = {x}, valid: 0 to 4"
                )))
            }
        };
        let values = r.v("the variable values")?;
        if values.len() != n_vars {
            return Err(FmiError(format!(
                "the serialised FMU state has {} variable values; this FMU has {n_vars}",
                values.len()
            )));
        }
        let stop_time = r.f("the stop time")?;
        let has_rtol = r.flag("the tolerance flag")?;
        let rtol = r.f("the tolerance")?;
        let time = r.f("the time")?;
        let has_cached = r.flag("the outputs flag")?;
        let cached = r.v("the outputs")?;
        let replay = if r.flag("the simulation flag")? {
            let start_inputs = r.v("the start inputs")?;
            let n = r.n("the number of commands")?;
            let mut commands = Vec::with_capacity(n);
            for _ in 0..n {
                commands.push(match r.u8("a command")? {
                    0 => Command::Outputs(r.v("the inputs of an output read")?),
                    1 => {
                        let to = r.f("a step's end")?;
                        Command::Step(to, r.v("the inputs of a step")?)
                    }
                    x => {
                        return Err(FmiError(format!(
                            "the serialised FMU state is malformed: command = {x}, valid: 0 or 1"
                        )))
                    }
                });
            }
            Some(Replay { start_inputs, commands })
        } else {
            None
        };
        if r.at != bytes.len() {
            return Err(FmiError(format!(
                "the serialised FMU state has {} bytes after its end (at byte {})",
                bytes.len() - r.at,
                r.at
            )));
        }
        Ok(Snapshot {
            state,
            values,
            stop_time,
            rtol: has_rtol.then_some(rtol),
            time,
            cached: has_cached.then_some(cached),
            replay,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Snapshot {
        Snapshot {
            state: State::Stepping,
            values: vec![f64::NAN, 0.01, -3.5e-300],
            stop_time: 5.0,
            rtol: Some(1e-8),
            time: 0.3,
            cached: Some(vec![0.3, 1.0, -2.0]),
            replay: Some(Replay {
                start_inputs: vec![0.01],
                commands: vec![Command::Outputs(vec![0.01]), Command::Step(0.3, vec![0.02])],
            }),
        }
    }

    #[test]
    fn a_state_reads_back_bit_for_bit() {
        let s = sample();
        let b = s.to_bytes("{g}");
        let r = Snapshot::from_bytes(&b, "{g}", 3).unwrap();
        // NaN != NaN: compare the bits
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&r.values), bits(&s.values));
        assert_eq!(r.replay, s.replay);
        assert_eq!(
            (r.cached, r.rtol, r.time, r.stop_time, r.state),
            (s.cached, s.rtol, s.time, 5.0, s.state)
        );
    }

    #[test]
    fn truncated_or_foreign_states_are_refused_with_the_field() {
        let b = sample().to_bytes("{g}");
        for cut in [0, 5, 20, b.len() - 1] {
            let e = Snapshot::from_bytes(&b[..cut], "{g}", 3).unwrap_err();
            assert!(e.0.contains("truncated") || e.0.contains("magic"), "{cut}: {e}");
        }
        let e = Snapshot::from_bytes(&b, "{g}", 4).unwrap_err();
        assert!(e.0.contains("3 variable values") && e.0.contains("has 4"), "{e}");
        let mut longer = b.clone();
        longer.push(0);
        assert!(Snapshot::from_bytes(&longer, "{g}", 3).unwrap_err().0.contains("1 bytes after"));
    }
}
