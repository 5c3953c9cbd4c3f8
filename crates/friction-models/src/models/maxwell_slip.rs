//! `maxwell_slip`: N elastoplastic (spring + slider) elements in parallel:
//! rate-independent pre-sliding hysteresis with non-local memory.
//!
//! # Equations
//! ```text
//! element i: spring k_i in series with a slider that slips at force fmax_i
//!   d_i = x - s_i                     (spring deflection, s_i = slider position)
//!   |k_i d_i| <= fmax_i               (the slider moves only to keep this)
//!   F_i = k_i clamp(x - s_i, -fmax_i/k_i, fmax_i/k_i)
//! F = Σ F_i
//! Virgin curve: F(x) = Σ min(k_i x, fmax_i); every reversal branch is the virgin
//! curve scaled by two (Masing), and inner loops are wiped out when closed.
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | [k_i, fmax_i] | `elements` | N/m, N | (0, inf) | required | element stiffnesses and slip forces, one row per element |
//!
//! # States
//! Discrete memory `mem[i] = s_i`, the slider positions \[m\], updated on accepted
//! steps only; within a step the force is the exact piecewise-linear function
//! of x given the sliders at the step's start. Starts relaxed (s_i = x0).
//!
//! # Sources
//! Al-Bender (Fundamentals of friction modeling), Al-Bender, Maxwell-slip model and Masing rules;
//! Iwan, "A distributed-element model for hysteresis", J. Appl. Mech. 33, 1966;
//! Lampaert, Al-Bender, Swevers, "A generalized Maxwell-slip friction model
//! appropriate for control purposes", PhysCon 2003.

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{ParamKind, ParamMap, ParamReader, ParamSpec, Range};
use crate::sliders::Sliders;

/// Static description of `maxwell_slip`.
pub static INFO: ModelInfo = ModelInfo {
    id: "maxwell_slip",
    summary:
        "Maxwell-slip: N spring-slider elements in parallel, pre-sliding hysteresis with non-local memory",
    family: Family::Hysteresis,
    equations: "element i: spring k_i in series with a slider that slips at force fmax_i
  d_i = x - s_i                     (spring deflection, s_i = slider position)
  |k_i d_i| <= fmax_i               (the slider moves only to keep this)
  F_i = k_i clamp(x - s_i, -fmax_i/k_i, fmax_i/k_i)
F = Σ F_i
Virgin curve: F(x) = Σ min(k_i x, fmax_i); every reversal branch is the virgin
curve scaled by two (Masing), and inner loops are wiped out when closed.",
    params: &[ParamSpec {
        name: "elements",
        symbol: "[k_i, fmax_i]",
        unit: "N/m, N",
        kind: ParamKind::Rows { columns: &["k", "fmax"], range: Range::POSITIVE },
        doc: "element stiffnesses and slip forces, one row per element",
    }],
    states: "mem[i] = s_i, slider positions [m] (discrete, updated on accepted steps)",
    sources: "Al-Bender (Fundamentals of friction modeling), Maxwell-slip, Masing rules; Iwan 1966; Lampaert, Al-Bender, Swevers 2003",
};

/// One elastoplastic element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Element {
    /// Stiffness `k_i` [N/m].
    pub k: f64,
    /// Slip force `fmax_i` \[N\].
    pub fmax: f64,
}

/// Parameters of [`MaxwellSlip`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MaxwellSlipParams {
    /// The elements (at least one).
    pub elements: Vec<Element>,
}

impl MaxwellSlipParams {
    /// Check that there is at least one element and every entry is positive and finite.
    pub fn validate(&self) -> Result<(), ModelError> {
        check_elements(&INFO, self.elements.iter().map(|e| [e.k, e.fmax]), "")
    }
}

/// Check the rows of the `elements` table of a model with elements of two
/// columns (`maxwell_slip`, `leuven`, `gms`): at least one row, and every
/// entry in the table's range, an error naming the entry
/// (`elements[i].COLUMN`) with its column's unit. `also` ends the range
/// text of the error for no rows (a condition the model adds, as gms's
/// " and Σ alpha = 1").
pub(crate) fn check_elements(
    info: &'static ModelInfo,
    rows: impl IntoIterator<Item = [f64; 2]>,
    also: &str,
) -> Result<(), ModelError> {
    let spec = info.params.iter().find(|s| s.name == "elements").expect("a model with an `elements` table");
    let ParamKind::Rows { columns, range } = &spec.kind else {
        panic!("model `{}`: `elements` is not a table of rows", info.id)
    };
    let mut units = spec.unit.split(", ");
    let units = [units.next().unwrap_or(""), units.next().unwrap_or("")];
    let mut any = false;
    for (i, row) in rows.into_iter().enumerate() {
        any = true;
        for ((name, x), unit) in columns.iter().zip(row).zip(units) {
            if !range.contains(x) {
                return Err(ModelError::OutOfRange {
                    model: info.id,
                    name: format!("elements[{i}].{name}"),
                    value: x,
                    range: range.to_string(),
                    unit,
                });
            }
        }
    }
    if !any {
        let columns = columns.join(", ");
        return Err(ModelError::MissingParam {
            model: info.id,
            name: "elements",
            unit: spec.unit,
            range: format!("at least one row [{columns}] with {columns} in {range}{also}"),
        });
    }
    Ok(())
}

/// The Maxwell-slip model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::maxwell_slip::{Element, MaxwellSlip, MaxwellSlipParams};
/// let m = MaxwellSlip::new(MaxwellSlipParams { elements: vec![
///     Element { k: 100.0, fmax: 1.0 }, Element { k: 100.0, fmax: 2.0 }] }).unwrap();
/// let mem = [0.0, 0.0];
/// // at x = 0.015 the first element has slipped (1 N), the second carries 1.5 N
/// assert!((m.force(&Input::new(0.0, 0.015, 1.0), &[], &mem) - 2.5).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MaxwellSlip {
    p: MaxwellSlipParams,
    /// The elements as stiffnesses and slip deflections `fmax / k`.
    sliders: Sliders,
}

impl MaxwellSlip {
    /// A validated model.
    pub fn new(p: MaxwellSlipParams) -> Result<Self, ModelError> {
        p.validate()?;
        let sliders = Sliders::new(p.elements.iter().map(|e| (e.k, e.fmax / e.k)));
        Ok(MaxwellSlip { p, sliders })
    }

    /// The elements as the shared slider arithmetic (batch update).
    pub(crate) fn sliders(&self) -> &Sliders {
        &self.sliders
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let rows = r.rows("elements")?.unwrap_or_default();
        r.finish()?;
        Self::new(MaxwellSlipParams {
            elements: rows.iter().map(|row| Element { k: row[0], fmax: row[1] }).collect(),
        })
    }

    /// The parameters.
    pub fn params(&self) -> &MaxwellSlipParams {
        &self.p
    }
}

impl FrictionModel for MaxwellSlip {
    fn turns_at_reversals(&self) -> bool {
        true
    }
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        if k < self.n_memory() {
            Q::Displacement
        } else {
            Q::Unknown
        }
    }
    fn n_memory(&self) -> usize {
        self.p.elements.len()
    }
    fn init(&self, inp: &Input, _z: &mut [f64], mem: &mut [f64]) {
        mem.fill(inp.x);
    }
    fn force(&self, inp: &Input, _z: &[f64], mem: &[f64]) -> f64 {
        self.sliders.force(inp.x, mem)
    }
    /// Memory held fixed: ∂F/∂x = Σ k_i over the elements with |x - s_i| <= fmax_i / k_i
    /// (elastic; a slipping one carries ±fmax_i); ∂F/∂v = 0.
    fn partials(&self, inp: &Input, _z: &[f64], mem: &[f64], p: &mut crate::model::partials::Partials) {
        p.df_dx = self.sliders.stiffness(inp.x, mem);
        p.df_dv = 0.0;
    }
    fn accept(&self, inp: &Input, _z: &mut [f64], mem: &mut [f64]) {
        self.sliders.accept(inp.x, mem);
    }
    fn is_stiff(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{drive, work, Path};

    fn model() -> MaxwellSlip {
        let elements = (1..=5).map(|i| Element { k: 1e4, fmax: 0.2 * i as f64 }).collect();
        MaxwellSlip::new(MaxwellSlipParams { elements }).unwrap()
    }

    fn virgin(m: &MaxwellSlip, x: f64) -> f64 {
        m.params().elements.iter().map(|e| (e.k * x.abs()).min(e.fmax)).sum::<f64>() * x.signum()
    }

    /// Masing: after a reversal at (x_r, F_r), F = F_r - 2 virgin((x_r - x)/2).
    #[test]
    fn reversal_branch_is_twice_scaled_virgin_curve() {
        let m = model();
        let rec = drive(&m, &Path::points(&[0.0, 3e-4, -3e-4], 1e-3), 1e-6);
        let rev = rec.iter().position(|r| r.x >= 3e-4 - 1e-15).unwrap();
        for r in &rec[..=rev] {
            assert!((r.f - virgin(&m, r.x)).abs() < 1e-9, "virgin at x = {}", r.x);
        }
        let (xr, fr) = (rec[rev].x, rec[rev].f);
        for r in &rec[rev..] {
            let exact = fr - 2.0 * virgin(&m, (xr - r.x) / 2.0);
            assert!((r.f - exact).abs() < 1e-9, "x {} F {} Masing {exact}", r.x, r.f);
        }
    }

    /// Wiping-out: an inner loop closed at its starting point leaves no trace;
    /// the force then continues on the outer branch as if the loop never happened.
    #[test]
    fn inner_loop_is_wiped_out_when_closed() {
        let m = model();
        let with_loop = drive(&m, &Path::points(&[0.0, 3e-4, -1e-4, 1e-4, -3e-4], 1e-3), 1e-6);
        let without = drive(&m, &Path::points(&[0.0, 3e-4, -3e-4], 1e-3), 1e-6);
        let at = |rec: &[crate::testing::Sample], x: f64| {
            rec.iter().rev().find(|r| (r.x - x).abs() < 1e-12).map(|r| r.f).unwrap()
        };
        for x in [-1.5e-4, -2e-4, -2.9e-4] {
            assert!((at(&with_loop, x) - at(&without, x)).abs() < 1e-9, "x = {x}");
        }
        // the inner loop itself dissipates (loop integral of F dx > 0)
        let a = with_loop.iter().position(|r| (r.x + 1e-4).abs() < 1e-12).unwrap();
        let b = a + with_loop[a..].iter().skip(1).position(|r| (r.x + 1e-4).abs() < 1e-12).unwrap() + 1;
        assert!(work(&with_loop[a..=b]) > 0.0);
    }

    /// Rate independence: the same loop at speeds 1e-5 and 1 m/s.
    #[test]
    fn same_loop_at_two_speeds() {
        let m = model();
        let slow = drive(&m, &Path::points(&[0.0, 2e-4, -1e-4], 1e-5), 1.0);
        let fast = drive(&m, &Path::points(&[0.0, 2e-4, -1e-4], 1.0), 1e-5);
        assert!((work(&slow) - work(&fast)).abs() < 1e-12);
        assert!((slow.last().unwrap().f - fast.last().unwrap().f).abs() < 1e-12);
    }
}
