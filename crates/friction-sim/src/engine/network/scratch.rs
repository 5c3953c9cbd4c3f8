//! The preallocated work space of one evaluation of the equations
//! ([`Scratch`]) and the counters kept while running ([`Counters`]).

use std::cell::Cell;

use crate::system::Driver;

/// Preallocated work space of one evaluation.
#[derive(Debug, Clone)]
pub(crate) struct Scratch {
    pub f: Vec<f64>,
    pub f_free: Vec<f64>,
    pub fd: Vec<f64>,
    pub drv: Vec<(f64, f64, f64)>,
    pub fc: Vec<f64>,
    pub vrel: Vec<f64>,
    pub normal: Vec<f64>,
    pub lam: Vec<f64>,
    pub need: Vec<f64>,
    pub a: Vec<f64>,
    /// A contact's states before `accept`, to see whether it projected them.
    pub zbuf: Vec<f64>,
    /// per bundle of the plan: the contacts' summed capacity and the load
    /// they carry towards it ([`crate::engine::network::bundles::split_bundle`])
    pub bundle_load: Vec<(f64, f64)>,
    /// one bundle's limits and split (work space)
    pub lim: Vec<crate::engine::network::bundles::Limit>,
    pub split: Vec<f64>,
    /// A contact's turning-point functions (`FrictionModel::turns`).
    pub tbuf: Vec<f64>,
    /// one loop's minimum-norm forces, its rows' ranges, its split and
    /// the split's work arrays ([`crate::engine::network::loops`])
    pub lam0: Vec<f64>,
    pub ranges: Vec<crate::engine::network::loops::RowRange>,
    pub lsplit: Vec<f64>,
    pub lw: crate::engine::network::loops::LoopWork,
    /// Per contact whose model follows a temperature: the model at the
    /// temperature of the last evaluation ([`heat_model`]); empty without.
    pub tmodel: Vec<Option<friction_models::AnyModel>>,
    /// Per contact in a plane: its slip velocity, force on its second
    /// member and load at the last evaluation ([`planes`]).
    pub plane: Vec<([f64; 2], [f64; 2], f64)>,
}

impl Scratch {
    /// The drivers' positions, velocities and accelerations at `t`, written
    /// field by field: stored as one triple, the value came back through
    /// the stack with a store the next load could not forward from (a fifth
    /// of the samples perf took in the output row's function).
    #[inline]
    pub(crate) fn drivers_at(&mut self, drivers: &[Driver], t: f64) {
        for (d, dr) in self.drv.iter_mut().zip(drivers) {
            let (x, v, a) = dr.motion.eval(t);
            d.0 = x;
            d.1 = v;
            d.2 = a;
        }
    }
}

/// Counters kept while running.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub rhs: Cell<usize>,
    pub lcp_solves: Cell<usize>,
    pub lcp_pivots: Cell<usize>,
    pub lcp_max: Cell<usize>,
    pub reversals: Cell<usize>,
    pub engagements: Cell<usize>,
    pub jvp: Cell<usize>,
}
