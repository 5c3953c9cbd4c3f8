//! Harmonic balance: the periodic steady state of a jointed structure under
//! harmonic forcing, traced in frequency (the frequency response).
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
//! - [`aft`]: one contact's force coefficients, per model family;
//! - [`dlft`]: true Coulomb stick by the dynamic Lagrangian AFT (Nacivet et al. 2003);
//! - [`structure`]: the linear structure and its contacts, from a scenario;
//! - [`condensed`]: a large structure's linear part condensed onto its contacts' DOFs (modal receptance);
//! - [`condensed_nnm`]: the same for nonlinear modes (the fictitious damping in the receptance);
//! - [`gaps`]: gaps and the normal loads they give contacts, sample by sample;
//! - [`planes`]: contacts that rub in a plane (x and y, bodies of dim 3), their vector law per sample;
//! - [`problem`]: residual and Jacobian of the balance;
//! - [`floquet`]: stability of a solution by its Floquet multipliers (monodromy in time), used by [`frf`];
//! - [`stability`]: stability of a solution by Hill's method (its cross-check);
//! - [`continuation`]: Newton, and pseudo-arclength continuation;
//! - [`dense_lu`]: the dense LU their solves use, in work arrays kept between calls;
//! - [`linalg`]: the parallelism of every faer call here (sequential, passed explicitly: the
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
//! True Coulomb stick (model `coulomb`) is kept exact by the dynamic
//! Lagrangian AFT ([`dlft`]); other set-valued models and wrappers are
//! refused with the reason ([`aft::check_model`]).

pub mod aft;
pub mod budget;
pub mod condensed;
pub mod condensed_nnm;
pub mod continuation;
pub mod dense_lu;
pub mod dlft;
pub mod floquet;
mod free_motion;
pub mod frf;
pub mod gaps;
pub mod harmonics;
pub mod linalg;
mod modal;
pub mod nnm;
pub mod overlay;
pub mod planes;
pub mod plot;
pub mod problem;
mod scaled;
pub mod stability;
pub mod structure;
pub mod table;
