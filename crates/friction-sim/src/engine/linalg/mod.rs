//! The linear algebra floor, below the network and the integration:
//! - `host.rs`: diffsol's vectors as slices;
//! - `band_lu.rs`: the linear solver of large implicit runs (band LU or
//!   faer's sparse LU, chosen from the pattern);
//! - `band.rs`: the band matrix and its LU;
//! - `reduce.rs`: the elimination of positions and single bristle states;
//! - `ordering.rs`: reverse Cuthill-McKee;
//! - `small_lu.rs`: the small dense LU of Radau's stage systems;
//! - `short.rs`: fill and copy of short vectors without a libc call.

pub(crate) mod band;
pub(crate) mod band_lu;
pub(crate) mod host;
mod ordering;
pub(crate) mod reduce;
pub(crate) mod short;
pub(crate) mod small_lu;
