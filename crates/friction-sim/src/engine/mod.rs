//! The simulation engine: 1-D mechanical networks with any number of
//! frictional contacts, true stick and slip, events, diffsol's solvers and
//! two methods of its own (Radau IIA, DOP853).
//!
//! # Formulation
//! ```text
//! state y = [x_b (bodies), v_b (bodies), z (contact states), quadratures]
//! M dv/dt = f(t, x, v, z) - E λ          f: springs, dampers, forces, sliding contacts
//! E^T dv/dt + k(t) = 0                   for the active constraints (stuck contacts, resting stops)
//! ```
//! Set-valued contacts (a model with a maximum static force) have modes
//! stuck / forward / backward, and free while their normal load is zero or
//! negative (a disengaged clutch). While stuck, the relative acceleration is
//! zero and the contact force λ is whatever the system needs: bodies held
//! together move as one cluster with one acceleration, and λ follows from
//! the cluster's statics (a tree walk; redundant constraints share the load
//! by the minimum-norm solution).
//!
//! Transitions are events located by the method's root finder (diffsol's, or
//! the same algorithm on the dense output of Radau or DOP853): a sliding
//! contact's relative velocity reaching zero (Karnopp: entering its band), a
//! stuck contact's |λ| reaching the maximum static force N Fs, a normal load
//! crossing zero, a resting stop's reaction changing sign, a free body
//! reaching a stop, the reversals of every hysteresis contact (so its
//! memory is updated at the turning point, not at the end of a step), and
//! the changes of sign of the models' turning-point functions. At
//! every event the stuck/sliding choice of all contacts at rest is made
//! jointly by a linear complementarity problem (`network/modes.rs`, `network/lcp/`).
//!
//! # Where each job lives: three floors
//! Each floor uses only the floors below it.
//! - `integrate/` (top): which method integrates a system (`auto`), the
//!   integration loop, what the loop asks of a method (the stepper trait),
//!   diffsol's solvers behind it, the engine's own Radau IIA (order 5) and
//!   DOP853 (order 8), the root search on their dense output, and the loop
//!   as the slave of a co-simulation; it drives the network below;
//! - `network/` (middle): the prepared system as one `Engine` (offsets,
//!   members, constraint rows, the discrete state and its work spaces) and
//!   everything it computes: one evaluation of the equations, the exact
//!   Jacobian, clusters of stuck bodies and their forces, the roots and what
//!   each means, the joint stick/slip decision and its LCP, compliant
//!   gaps and the normal loads they give contacts, turning points, energy,
//!   output rows, the initial state;
//! - `linalg/` (bottom): diffsol's vectors as slices, the band LU and the
//!   sparse choice of large implicit runs, the elimination of positions and
//!   single bristle states, the ordering, the small dense LU of Radau and
//!   short vector fills;
//! - `outcome.rs`: the result types every floor returns.

// Index loops over parallel arrays (bodies, rows, contacts) read best as such.
#![allow(clippy::needless_range_loop)]

mod integrate;
mod linalg;
mod network;
mod outcome;

pub use integrate::cosim::{Coupling, Link};
pub use network::rows::{Progress, RowSink, KEPT_ROWS};
pub use network::Engine;
pub use outcome::{Energy, Event, FlatOutcome, Mode, Outcome, Stats};

use crate::error::SimError;
use crate::system::System;

/// Simulate `sys`.
///
/// ```
/// let text = r#"
/// [[body]]
/// name = "m"
/// mass = 1.0
/// x0 = 0.1
/// [[spring]]
/// between = ["m", "ground"]
/// stiffness = 100.0
/// [[contact]]
/// name = "c"
/// between = ["m", "ground"]
/// model = "coulomb"
/// params = { fc = 0.981 }
/// [solver]
/// t_end = 2.0
/// "#;
/// let sys = friction_sim::scenario::parse(text, "doc.toml", std::path::Path::new(".")).unwrap();
/// let out = friction_sim::simulate(&sys).unwrap();
/// // Coulomb free decay: the mass stops for good at x = -0.0019 after half a period
/// assert!((out.last("x.m") + 0.0019).abs() < 1e-6);
/// ```
pub fn simulate(sys: &System) -> Result<Outcome, SimError> {
    Engine::new(sys).run()
}

/// Simulate `sys`, keeping the rows in one row-major block ([`FlatOutcome`]):
/// what [`simulate`] returns, without one allocation per output row (for
/// long outputs, array libraries and foreign interfaces).
pub fn simulate_flat(sys: &System) -> Result<FlatOutcome, SimError> {
    Engine::new(sys).run_flat()
}

/// The output column names of `sys` (as [`Outcome::columns`]).
pub fn columns(sys: &System) -> Vec<String> {
    Engine::new(sys).columns()
}

/// Simulate `sys`, handing every output row to `sink` as it is computed
/// (memory stays bounded however long the run), and reporting progress.
/// The returned [`Outcome::rows`] hold a thinned copy (every k-th row, at
/// most about 2 × [`KEPT_ROWS`], and the last row) for plots and final
/// values; [`Stats::rows`] counts the rows the sink received. A sink error
/// stops the run with a partial result.
///
/// ```
/// let sys = friction_sim::scenario::parse(
///     "[[body]]\nname = \"m\"\nmass = 1.0\nv0 = 1.0\n[solver]\nt_end = 1.0\noutput_dt = 0.001\n",
///     "doc.toml",
///     std::path::Path::new("."),
/// )
/// .unwrap();
/// let mut n = 0;
/// let out = friction_sim::engine::simulate_streaming(&sys, &mut |_row| { n += 1; Ok(()) }, None).unwrap();
/// assert_eq!(n, 1001);
/// assert_eq!(out.stats.rows, 1001);
/// assert!((out.last("x.m") - 1.0).abs() < 1e-9);
/// ```
pub fn simulate_streaming(
    sys: &System,
    sink: RowSink<'_>,
    progress: Option<Progress<'_>>,
) -> Result<Outcome, SimError> {
    Engine::new(sys).run_with(Some(sink), progress)
}
