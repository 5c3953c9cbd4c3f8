//! Errors of scenario reading and simulation.

use thiserror::Error;

/// Everything that can go wrong reading a scenario or running it.
#[derive(Debug, Error)]
pub enum SimError {
    /// Bad input: names the file, the line (when known), the key and what is wrong.
    #[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    Input {
        /// The scenario (or data) file.
        file: String,
        /// 1-based line number, when known.
        line: Option<usize>,
        /// What is wrong, naming the key, the value and the valid range.
        message: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Another run holds the lock of the output directory.
    #[error(
        "{dir}: another run is writing into this directory (lock file {lock}{}); wait for it to finish, \
         choose another --out, or remove the lock file if no such run exists",
        if *pid > 0 { format!(", held by process {pid}") } else { String::new() }
    )]
    Locked {
        /// The output directory.
        dir: String,
        /// The lock file.
        lock: String,
        /// The process holding it (0 when unreadable).
        pid: u32,
    },
    /// The integration failed; the run stopped at `t`.
    #[error("simulation failed at t = {t}: {cause}; state: {state}")]
    Solver {
        /// Time of the failure \[s\].
        t: f64,
        /// What happened (step size underflow, non-finite state, ...).
        cause: String,
        /// The state at failure, as `name = value` pairs.
        state: String,
    },
}
