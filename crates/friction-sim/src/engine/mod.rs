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
//! jointly by a linear complementarity problem ([`modes`], [`lcp`]).
//!
//! # Where each job lives
//! - [`network`]: the prepared system (offsets, members, constraint rows);
//! - [`rhs`]: one evaluation of the equations;
//! - [`jacobian`]: the exact Jacobian-vector product and its sparsity;
//! - [`equations`]: the equations as diffsol operators;
//! - [`band_lu`]: the linear solver of large implicit runs (band LU or
//!   faer's sparse LU), after the ordering of [`ordering`] and, where the
//!   pattern allows, the elimination of positions and single bristle states
//!   of [`reduce`];
//! - [`constraints`]: clusters of stuck bodies and their constraint forces;
//! - [`events`]: root functions and what each root means;
//! - [`gap`]: compliant one-sided contacts (`[[gap]]`): forces, partials,
//!   roots, energy;
//! - [`modes`]: the joint stick/slip decision at an event (the LCP);
//! - [`lcp`]: the box-constrained LCP solver;
//! - [`energy`]: energy bookkeeping;
//! - [`rows`]: output columns and rows;
//! - [`start`]: the initial state and modes;
//! - [`method`]: which method integrates a system (`auto`), and its set-up;
//! - [`integrate`]: the integration loop;
//! - [`stepper`]: what the loop asks of a method, and diffsol's solvers
//!   behind it;
//! - [`radau`]: the engine's own Radau IIA (order 5) for small stiff
//!   networks, on the small dense LU of [`small_lu`];
//! - [`dop853`]: the engine's own DOP853 (order 8, dense output of order
//!   7) for non-stiff networks, on the coefficients of [`dop853_tableau`];
//! - [`root_search`]: the first event root within a step of either, on its
//!   dense output;
//! - [`turns`]: the turning points of the models' own functions
//!   (`leuven`'s state, `gms`'s elements) as events;
//! - [`cosim`]: the loop as the slave of a co-simulation (communication
//!   points, inputs, outputs);
//! - [`outcome`]: the result types;
//! - [`short`]: fill and copy of short vectors without a libc call.

// Index loops over parallel arrays (bodies, rows, contacts) read best as such.
#![allow(clippy::needless_range_loop)]

pub mod band_lu;
pub mod constraints;
pub mod cosim;
pub mod dop853;
pub mod dop853_tableau;
pub mod energy;
pub mod equations;
pub mod events;
pub mod gap;
pub mod integrate;
pub mod jacobian;
pub mod lcp;
pub mod method;
pub mod modes;
pub mod network;
pub mod ordering;
pub mod outcome;
pub mod radau;
pub mod reduce;
pub mod rhs;
pub mod root_search;
pub mod rows;
pub mod short;
pub mod small_lu;
pub mod start;
pub mod stepper;
pub mod turns;

pub use cosim::{Coupling, Link};
pub use network::Engine;
pub use outcome::{Energy, Event, FlatOutcome, Mode, Outcome, Stats};
pub use rows::{Progress, RowSink, KEPT_ROWS};

use crate::error::SimError;
use crate::scenario::System;

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
