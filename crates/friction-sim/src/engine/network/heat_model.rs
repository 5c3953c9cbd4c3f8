//! Model parameters that follow a temperature in the engine
//! ([`crate::system::thermal::TempLaw`], `Thermal::model_laws`): the
//! contact's model at the temperature of its heat node, and the
//! temperature column of the Jacobian it brings.
//!
//! In every evaluation of the equations the contact's model is set to its
//! laws' values at the current temperature (`AnyModel::with_reals`: a copy
//! of the parameter struct and the model's own check, no allocation); the
//! evaluation keeps it in the scratch, where the stick/slip logic that
//! follows the evaluation (static ranges, stick bands) finds it
//! ([`Engine::cmodel`]).
//!
//! The Jacobian's temperature column: `∂F/∂T = Σ_p (∂F/∂p) (dp/dT)` and the
//! same for the state rates, with `dp/dT` the law's slope and `∂/∂p` a
//! central difference in `p` of step `1e-7 max(|p|, 1e-6)` (one-sided where
//! a side leaves the parameter's valid range): the models have no
//! parameter derivatives of their own, and the force of most is linear in
//! the parameter that follows a temperature (`fc`, `fs`), where the
//! difference is exact to rounding.

use friction_models::{AnyModel, FrictionModel, Input};

use crate::engine::network::{Engine, Scratch};
use crate::system::thermal::model_at;

/// The temperature partials of the contacts whose model follows a
/// temperature, at one (t, y), kept with the contacts' partials.
#[derive(Debug, Clone, Default)]
pub(crate) struct ModelTempJac {
    /// Per contact: `∂F/∂T` of its model's force at unit load and the
    /// temperature state (`None`: no model law, or a fixed node).
    pub df_dt: Vec<Option<(f64, usize)>>,
    /// Per contact: `∂(dz/dt)/∂T` of its states (empty without a law).
    pub dg_dt: Vec<Vec<f64>>,
    /// Work space: the state rates at the two sides of a difference.
    work: Vec<f64>,
}

impl ModelTempJac {
    pub(crate) fn new(e: &Engine<'_>) -> Self {
        let sys = &*e.sys;
        let nc = sys.contacts.len();
        let has = |c: usize| e.heat.model_law.get(c).copied().flatten().is_some();
        let dg_dt =
            (0..nc).map(|c| vec![0.0; if has(c) { sys.contacts[c].model.n_states() } else { 0 }]).collect();
        let nz = sys.contacts.iter().map(|c| c.model.n_states()).max().unwrap_or(0);
        ModelTempJac { df_dt: vec![None; nc], dg_dt, work: vec![0.0; 2 * nz] }
    }
}

impl Engine<'_> {
    /// Contact `c`'s model at the temperature of its heat node in `y`
    /// (`None`: its model follows no temperature). The laws were checked at
    /// every temperature when the system was built; were the model's check
    /// to refuse a value anyway, the model as built is used.
    #[inline]
    pub(crate) fn model_at_temp(&self, y: &[f64], c: usize) -> Option<AnyModel> {
        let (li, k) = self.heat.model_law.get(c).copied().flatten()?;
        let laws = &self.sys.thermal.model_laws[li].1;
        match model_at(&self.sys.contacts[c].model, laws, self.temperature(y, k)) {
            Some(Ok(m)) => Some(m),
            _ => None,
        }
    }

    /// Contact `c`'s model as the last evaluation of the equations saw it
    /// (at its temperature then), for the stick/slip logic after it.
    #[inline]
    pub(crate) fn cmodel<'a>(&'a self, s: &'a Scratch, c: usize) -> &'a AnyModel {
        match s.tmodel.get(c) {
            Some(Some(m)) => m,
            _ => &self.sys.contacts[c].model,
        }
    }

    /// The temperature partials of contact `c` (model `tm`, the model at
    /// the temperature of `y`) at input `inp` into `mj`.
    pub(crate) fn model_temp_partials(
        &self,
        y: &[f64],
        c: usize,
        tm: &AnyModel,
        inp: &Input,
        mem: &[f64],
        mj: &mut ModelTempJac,
    ) {
        mj.df_dt[c] = None;
        let Some((li, k)) = self.heat.model_law.get(c).copied().flatten() else { return };
        let Some(i) = self.heat.state[k] else { return };
        let laws = &self.sys.thermal.model_laws[li].1;
        // constant laws: no entries in the temperature's column (the layout's pattern)
        if laws.iter().all(|(_, l)| l.is_constant()) {
            return;
        }
        let nzc = tm.n_states();
        let off = self.z_off[c];
        let z = &y[off..off + nzc];
        let temp = y[i];
        let half = mj.work.len() / 2;
        let (wp, wm) = mj.work.split_at_mut(half);
        let (wp, wm) = (&mut wp[..nzc], &mut wm[..nzc]);
        let dg = &mut mj.dg_dt[c];
        dg.fill(0.0);
        let mut df = 0.0;
        for (p, law) in laws {
            let (val, slope) = law.eval(temp);
            if slope == 0.0 {
                continue;
            }
            let h = 1e-7 * val.abs().max(1e-6);
            let side = |x: f64| match tm.with_real(p, x) {
                Some(Ok(m)) => Some(m),
                _ => None,
            };
            let (plus, minus) = (side(val + h), side(val - h));
            let (den, fp, fm) = match (&plus, &minus) {
                (Some(a), Some(b)) => {
                    (2.0 * h, a.force_and_rates(inp, z, mem, wp), b.force_and_rates(inp, z, mem, wm))
                }
                (Some(a), None) => {
                    (h, a.force_and_rates(inp, z, mem, wp), tm.force_and_rates(inp, z, mem, wm))
                }
                (None, Some(b)) => {
                    (h, tm.force_and_rates(inp, z, mem, wp), b.force_and_rates(inp, z, mem, wm))
                }
                (None, None) => continue,
            };
            let s = slope / den;
            df += s * (fp - fm);
            for ((g, a), b) in dg.iter_mut().zip(wp.iter()).zip(wm.iter()) {
                *g += s * (a - b);
            }
        }
        mj.df_dt[c] = Some((df, i));
    }
}
