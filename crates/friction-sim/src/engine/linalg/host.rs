//! diffsol's vectors (one batch) as plain slices, for the engine's own
//! linear algebra and equations.

use diffsol::{FaerVec, NalgebraVec, Vector, VectorCommon};

/// Host access to diffsol's vectors (one batch) as slices.
pub(crate) trait Host {
    fn host(&self) -> &[f64];
    fn host_mut(&mut self) -> &mut [f64];
}

impl Host for NalgebraVec<f64> {
    fn host(&self) -> &[f64] {
        self.batch_as_slice(0)
    }
    fn host_mut(&mut self) -> &mut [f64] {
        self.batch_as_mut_slice(0)
    }
}

impl Host for FaerVec<f64> {
    fn host(&self) -> &[f64] {
        self.inner().col_as_slice(0)
    }
    fn host_mut(&mut self) -> &mut [f64] {
        self.inner_mut().col_as_slice_mut(0)
    }
}
