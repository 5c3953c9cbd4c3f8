//! # friction-hb
//!
//! Harmonic balance: the periodic steady state of a jointed structure under
//! harmonic forcing, traced in frequency (the frequency response), its
//! nonlinear modes and the stability of its solutions. It stands above
//! `friction-analysis` (its errors, its steady friction-velocity curve, its
//! drawing entry point) and `friction-sim` (scenarios, models); the command
//! line's `frf` and `nnm`, the Python package and `friction serve` call it.
//!
//! The displacement of every body is a truncated Fourier series of H
//! harmonics; the linear part (masses, springs, dampers) is balanced
//! harmonic by harmonic in closed form, and the contacts by the alternating
//! frequency-time method (Cameron and Griffin 1989): the series is sampled
//! over a period, each contact's own time-domain law gives its force at the
//! samples (hysteresis memory and internal states run to their periodic
//! steady state), and the force's coefficients come back by the discrete
//! Fourier transform. Pseudo-arclength continuation follows the branch in
//! frequency, through turning points.
//!
//! - [`harmonics`]: the sampling grid, Fourier synthesis and analysis;
//! - `aft.rs`: one contact's force coefficients, per model family;
//! - `dlft.rs`: true Coulomb stick by the dynamic Lagrangian AFT (Nacivet et al. 2003);
//! - [`structure`]: the linear structure and its contacts, from a scenario;
//! - [`condensed`]: a large structure's linear part condensed onto its contacts' DOFs (modal receptance);
//! - `condensed_nnm.rs`: the same for nonlinear modes (the fictitious damping in the receptance);
//! - `gaps.rs`: gaps and the normal loads they give contacts, sample by sample;
//! - `planes.rs`: contacts that rub in a plane (x and y, bodies of dim 3), their vector law per sample;
//! - [`problem`]: residual and Jacobian of the balance;
//! - [`floquet`]: stability of a solution by its Floquet multipliers (monodromy in time), used by [`frf`];
//! - [`stability`]: stability of a solution by Hill's method (its cross-check);
//! - `continuation.rs`: Newton, and pseudo-arclength continuation;
//! - `dense_lu.rs`: the dense LU their solves use, in work arrays kept between calls;
//! - `linalg.rs`: the parallelism of every faer call here (sequential, passed explicitly: the
//!   same for every caller; why, measured, in its documentation) and the eigenproblems under it;
//! - `scaled.rs`: the balance scaled for Newton's method, and the steady state at one frequency
//!   (`frf::solve_at`);
//! - [`frf`]: the frequency-response driver;
//! - [`nnm`]: nonlinear modes (backbones) by the extended periodic motion concept;
//! - [`plot`]: the plots;
//! - [`overlay`]: plots of several results together (force levels, joint models);
//! - [`table`]: the results' columns and summaries, as written and returned;
//! - [`budget`]: the work and memory of a solve, estimated and refused past a limit before it starts.
//!
//! The modules linked above are the crate's face (the command line, the
//! Python package and the tests call them); the others are its inside.
//!
//! True Coulomb stick (model `coulomb`) is kept exact by the dynamic
//! Lagrangian AFT (`dlft.rs`), along one direction or on the friction disk
//! of a contact in a plane, under a constant load or a gap's load sample by
//! sample; other set-valued models and wrappers are refused with the reason
//! (`aft::check_model`).

#![warn(missing_docs)]
// Index loops over parallel sample arrays read best as such.
#![allow(clippy::needless_range_loop)]

mod aft;
pub mod budget;
pub mod condensed;
mod condensed_nnm;
mod continuation;
mod dense_lu;
mod dlft;
mod epmc;
pub mod floquet;
mod free_motion;
pub mod frf;
mod gaps;
pub mod harmonics;
mod linalg;
mod modal;
pub mod nnm;
pub mod overlay;
mod planes;
pub mod plot;
pub mod problem;
mod scaled;
pub mod stability;
pub mod structure;
mod stuck_mode;
pub mod table;
