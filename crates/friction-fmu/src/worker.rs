//! The simulation of one FMU instance on its own thread.
//!
//! The engine's integration loop borrows the system and owns the solver, so
//! it runs to completion on a dedicated thread ([`Worker::start`]) as the
//! slave of a [`Coupling`] that waits, at every communication point, for
//! commands from the FMI functions over a channel: read the outputs, or
//! step to the next communication point, each with the current input
//! values. The FMI functions block until the thread answers, so the FMU is
//! as synchronous as the standard requires. Dropping the [`Worker`] closes
//! the channel, which ends the run, and joins the thread (a library must not
//! be unloaded with a thread of its own still running).

use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

use friction_sim::engine::{Coupling, Engine, Link};
use friction_sim::scenario::System;
use friction_sim::schedule::InputSignal;

enum Cmd {
    Outputs(Vec<f64>),
    Step(f64, Vec<f64>),
}

enum Reply {
    Outputs(Result<Vec<f64>, String>),
    Reached,
    Failed(String),
}

struct ChannelCoupling {
    rx: Receiver<Cmd>,
    tx: Sender<Reply>,
    inputs: Vec<InputSignal>,
    stepping: bool,
}

impl ChannelCoupling {
    fn set(&self, link: &mut Link<'_, '_>, u: &[f64]) {
        for (sig, &v) in self.inputs.iter().zip(u) {
            link.set_input(sig, v);
        }
    }
}

impl Coupling for ChannelCoupling {
    fn communicate(&mut self, link: &mut Link<'_, '_>) -> Option<f64> {
        if self.stepping && self.tx.send(Reply::Reached).is_err() {
            return None;
        }
        self.stepping = false;
        loop {
            match self.rx.recv() {
                Ok(Cmd::Outputs(u)) => {
                    self.set(link, &u);
                    let r = link.outputs().map_err(|e| e.to_string());
                    let failed = r.is_err();
                    if self.tx.send(Reply::Outputs(r)).is_err() || failed {
                        return None;
                    }
                }
                Ok(Cmd::Step(to, u)) => {
                    self.set(link, &u);
                    self.stepping = true;
                    return Some(to);
                }
                Err(_) => return None,
            }
        }
    }
}

/// A running simulation, waiting at a communication point.
pub struct Worker {
    tx: Option<Sender<Cmd>>,
    rx: Receiver<Reply>,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    /// Start simulating `sys` (its inputs already hold their values at
    /// t = 0); the thread stops at t = 0 and waits.
    pub fn start(sys: System) -> Result<Worker, String> {
        let (tx_cmd, rx_cmd) = channel();
        let (tx_rep, rx_rep) = channel();
        let handle = std::thread::Builder::new()
            .name(format!("friction-fmu {}", sys.name))
            .spawn(move || {
                let tx = tx_rep.clone();
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
                    let inputs = sys.inputs();
                    let mut c = ChannelCoupling { rx: rx_cmd, tx: tx_rep, inputs, stepping: false };
                    let engine = Engine::new(&sys);
                    engine.run_coupled(&mut c).failure
                }));
                let failure = match run {
                    Ok(f) => f,
                    Err(p) => Some(format!(
                        "internal error (please report): the simulation panicked: {}",
                        friction_models::error::panic_message(p.as_ref())
                    )),
                };
                if let Some(f) = failure {
                    let _ = tx.send(Reply::Failed(f));
                }
            })
            .map_err(|e| format!("cannot start the simulation thread: {e}"))?;
        Ok(Worker { tx: Some(tx_cmd), rx: rx_rep, handle: Some(handle) })
    }

    fn send(&self, c: Cmd) -> Result<(), String> {
        match &self.tx {
            Some(tx) if tx.send(c).is_ok() => Ok(()),
            _ => Err(self.ended()),
        }
    }

    fn ended(&self) -> String {
        match self.rx.try_recv() {
            Ok(Reply::Failed(f)) => f,
            _ => "the simulation has ended".to_string(),
        }
    }

    /// The output row (`t` first) at the current communication point with
    /// the inputs `u`.
    pub fn outputs(&self, u: &[f64]) -> Result<Vec<f64>, String> {
        self.send(Cmd::Outputs(u.to_vec()))?;
        match self.rx.recv() {
            Ok(Reply::Outputs(r)) => r,
            Ok(Reply::Failed(f)) => Err(f),
            Ok(Reply::Reached) => Err("internal error: unexpected reply from the simulation".into()),
            Err(_) => Err("the simulation thread ended unexpectedly".into()),
        }
    }

    /// Integrate to `to` with the inputs `u` held.
    pub fn step(&self, to: f64, u: &[f64]) -> Result<(), String> {
        self.send(Cmd::Step(to, u.to_vec()))?;
        match self.rx.recv() {
            Ok(Reply::Reached) => Ok(()),
            Ok(Reply::Failed(f)) => Err(f),
            Ok(Reply::Outputs(_)) => Err("internal error: unexpected reply from the simulation".into()),
            Err(_) => Err("the simulation thread ended unexpectedly".into()),
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.tx = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}
