//! The integration floor: which method integrates a system and the loop
//! that drives it, on the network's equations (`super::network`).
//! - `method.rs`: the choice of method (`auto`) and its set-up;
//! - `main_loop.rs`: the integration loop (steps, events, output rows);
//! - `budget.rs`: the wall-clock budget (`max_wall`) and its estimate after a pilot;
//! - `stepper.rs`: what the loop asks of a method, and diffsol's solvers
//!   behind it;
//! - `dense_output.rs`: the engine's own methods' dense output over their
//!   last step, and the parts of `stepper.rs`'s trait that follow from it,
//!   written once for them;
//! - `equations.rs`: the network's equations as diffsol operators;
//! - `coloring.rs`: the Jacobian from one exact product per colour of
//!   columns (a greedy colouring linear in the network's size);
//! - `radau.rs`: the engine's own Radau IIA (order 5) for small stiff
//!   networks;
//! - `dop853.rs`, `dop853_tableau.rs`: the engine's own DOP853 (order 8,
//!   dense output of order 7) for non-stiff networks;
//! - `rosenbrock.rs`, `rosenbrock_tableau.rs`: the engine's own Rodas5P
//!   (Rosenbrock-Wanner, order 5, one factorisation and no Newton
//!   iteration per step) for small stiff networks;
//! - `bdf5.rs`: the engine's own variable-order BDF (orders 1 to 5) with
//!   CVODE's Newton strategy; `bdf5_matrix.rs`: its Newton matrix, dense
//!   or a band;
//! - `interior.rs`: a stick shorter than a step (a relative speed dipping
//!   through zero and back inside it), found on the step's dense output;
//! - `root_search.rs`: the first event root within a step of either, on its
//!   dense output;
//! - `stiffness.rs`: how stiff the springs, dampers and gaps make a
//!   network (`auto`'s choice, the message at `max_steps`);
//! - `cosim.rs`: the loop as the slave of a co-simulation (communication
//!   points, inputs, outputs).

mod bdf5;
mod bdf5_matrix;
mod budget;
mod coloring;
pub(crate) mod cosim;
mod dense_output;
mod dop853;
mod dop853_tableau;
mod equations;
mod interior;
mod main_loop;
pub(crate) mod method;
mod radau;
mod radau_tableau;
mod root_search;
mod rosenbrock;
mod rosenbrock_tableau;
mod stepper;
mod stiffness;
