//! `table`: a tabulated friction curve μ(|v|) from measured points, with a
//! static factor, set-valued at rest: the friction characteristic of the
//! Modelica Standard Library's clutches and brakes (`mu_pos` and `peak`),
//! so that users of Modelica or Simscape can bring their data as it is.
//!
//! # Equations
//! ```text
//! F = μ(|v|) sign(v)             for v != 0, μ linear between the points (v_i, μ_i), held beyond the last
//! F in [-peak μ(0), peak μ(0)]   for v == 0 (set by the rest of the system)
//! with the contact's normal load N: F N, stuck up to peak μ(0) N
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | (v_i, μ_i) | `points` | m/s, - | [0, inf) | required | rows [v, mu]: sliding speeds from 0, strictly increasing, and the friction coefficient there |
//! | peak | `peak` | - | [1, inf) | 1 | static factor: the contact sticks up to peak μ(0) |
//!
//! The first speed must be 0 (μ(0) is the coefficient at the onset of
//! sliding) and the speeds strictly increasing; the curve is the same for
//! both directions (μ of |v|), as Modelica's `mu_pos`. Between the points μ
//! is linear; beyond the last point it is held (Modelica's tables extrapolate
//! linearly by default, which lets μ grow or turn negative at speeds outside
//! the data: holding is the safe choice; add a point to extend the curve).
//! μ multiplies the contact's `normal` load, so with `normal` in newtons the
//! force is in newtons (for a clutch give the normal force times the
//! effective radius and the number of friction surfaces, as Modelica's `cgeo`).
//!
//! # States
//! None. While stuck the force is not a function of the model's inputs: a
//! simulator finds it from the rest of the system, up to peak μ(0)
//! (see [`crate::model::Family::SetValued`]).
//!
//! # Sources
//! The Modelica Standard Library, `Modelica.Mechanics.Rotational.Components.Clutch`
//! and `Brake` (parameters `mu_pos[:, 2]` and `peak`), after M. Otter,
//! H. Elmqvist, S.E. Mattsson, "Hybrid modeling in Modelica based on the
//! synchronous data flow principle", IEEE CACSD 1999; the set-valued
//! stick/slip law as in Andersson, Söderberg, Björklund 2007, "Friction models
//! for sliding dry, boundary and mixed lubricated contacts", Tribology
//! International 40, eqs. 9-10 (a Stribeck curve given by points).

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `table`.
pub static INFO: ModelInfo = ModelInfo {
    id: "table",
    summary: "tabulated friction curve μ(|v|) sign(v) from points [v, mu], set-valued at rest up to peak μ(0) (Modelica's mu_pos, peak)",
    family: Family::SetValued,
    equations: "F = μ(|v|) sign(v)             for v != 0, μ linear between the points (v_i, μ_i), held beyond the last
F in [-peak μ(0), peak μ(0)]   for v == 0 (set by the rest of the system)
with the contact's normal load N: F N, stuck up to peak μ(0) N",
    params: &[
        ParamSpec {
            name: "points",
            symbol: "(v_i, μ_i)",
            unit: "m/s, -",
            kind: ParamKind::Rows { columns: &["v", "mu"], range: Range::NON_NEGATIVE },
            doc: "rows [v, mu]: sliding speeds from 0, strictly increasing, and the friction coefficient there",
        },
        ParamSpec::real(
            "peak",
            "peak",
            "-",
            1.0,
            Range { lo: 1.0, hi: f64::INFINITY, lo_closed: true, hi_closed: false },
            "static factor: the contact sticks up to peak μ(0)",
        ),
    ],
    states: "none",
    sources: "the Modelica Standard Library (Rotational Clutch and Brake: mu_pos, peak); Otter, Elmqvist, Mattsson 1999; Andersson, Söderberg, Björklund 2007 eqs. 9-10",
};

/// Parameters of [`Table`].
#[derive(Debug, Clone, PartialEq)]
pub struct TableParams {
    /// Points `(v, μ)`: speeds from 0, strictly increasing \[m/s\]; coefficients \[-\].
    pub points: Vec<(f64, f64)>,
    /// Static factor (>= 1).
    pub peak: f64,
}

impl TableParams {
    /// Check the ranges, that the first speed is 0 and that the speeds increase.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "peak", self.peak)?;
        let bad = |i: usize, what: &str, value: f64, message: String| ModelError::OutOfRange {
            model: INFO.id,
            name: format!("points[{i}].{what}"),
            value,
            range: message,
            unit: "",
        };
        if self.points.is_empty() {
            return Err(ModelError::MissingParam {
                model: INFO.id,
                name: "points",
                unit: "m/s, -",
                range: "rows [v, mu] from v = 0, e.g. points = [[0.0, 0.5], [1.0, 0.3]]".into(),
            });
        }
        for (i, &(v, mu)) in self.points.iter().enumerate() {
            if !(v.is_finite() && v >= 0.0) {
                return Err(bad(i, "v", v, "[0, inf)".into()));
            }
            if !(mu.is_finite() && mu >= 0.0) {
                return Err(bad(i, "mu", mu, "[0, inf)".into()));
            }
        }
        if self.points[0].0 != 0.0 {
            return Err(bad(0, "v", self.points[0].0, "0 (the table starts at the onset of sliding)".into()));
        }
        for i in 1..self.points.len() {
            let prev = self.points[i - 1].0;
            if self.points[i].0 <= prev {
                return Err(bad(
                    i,
                    "v",
                    self.points[i].0,
                    format!("(> {prev}) (speeds strictly increasing)"),
                ));
            }
        }
        Ok(())
    }

    /// μ at speed `s >= 0`: linear between the points, held beyond the last.
    pub fn mu(&self, s: f64) -> f64 {
        self.mu_slope(s).0
    }

    /// μ at speed `s >= 0` and its slope dμ/ds (0 where μ is held; at a
    /// point, the slope of the segment above it).
    pub fn mu_slope(&self, s: f64) -> (f64, f64) {
        let p = &self.points;
        // the first point with v > s
        let i = p.partition_point(|&(v, _)| v <= s);
        if i == 0 {
            return (p[0].1, 0.0);
        }
        if i == p.len() {
            return (p[p.len() - 1].1, 0.0);
        }
        let ((v0, m0), (v1, m1)) = (p[i - 1], p[i]);
        (m0 + (m1 - m0) * (s - v0) / (v1 - v0), (m1 - m0) / (v1 - v0))
    }
}

/// The tabulated model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::table::{Table, TableParams};
/// let m = Table::new(TableParams { points: vec![(0.0, 0.5), (1.0, 0.3)], peak: 1.1 }).unwrap();
/// // halfway between the points, and held beyond the last one
/// assert!((m.force(&Input::new(0.0, 0.0, -0.5), &[], &[]) + 0.4).abs() < 1e-15);
/// assert_eq!(m.force(&Input::new(0.0, 0.0, 7.0), &[], &[]), 0.3);
/// assert_eq!(m.max_static(&[], &[]), Some(0.55));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    p: TableParams,
}

impl Table {
    /// A validated model.
    pub fn new(p: TableParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(Table { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let rows = r.rows("points")?.unwrap_or_default();
        let p = TableParams { points: rows.iter().map(|r| (r[0], r[1])).collect(), peak: r.real("peak")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &TableParams {
        &self.p
    }
}

impl FrictionModel for Table {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }

    fn force(&self, inp: &Input, _z: &[f64], _mem: &[f64]) -> f64 {
        if inp.v == 0.0 {
            return 0.0;
        }
        self.p.mu(inp.v.abs()) * sign(inp.v)
    }

    /// F = μ(|v|) sign(v): ∂F/∂v = μ'(|v|), the slope of the segment, for v ≠ 0,
    /// 0 at v = 0 (the set-valued stick); ∂F/∂x = 0.
    fn partials(&self, inp: &Input, _z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        p.df_dx = 0.0;
        p.df_dv = if inp.v == 0.0 { 0.0 } else { self.p.mu_slope(inp.v.abs()).1 };
    }

    fn max_static(&self, _z: &[f64], _mem: &[f64]) -> Option<f64> {
        Some(self.p.peak * self.p.points[0].1)
    }

    fn is_stiff(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamValue;

    fn rows(points: &[[f64; 2]]) -> ParamValue {
        ParamValue::List(
            points
                .iter()
                .map(|r| ParamValue::List(vec![ParamValue::Num(r[0]), ParamValue::Num(r[1])]))
                .collect(),
        )
    }

    fn build(points: &[[f64; 2]], peak: f64) -> Result<Table, ModelError> {
        let mut p = ParamMap::new();
        p.insert("points".into(), rows(points));
        p.insert("peak".into(), ParamValue::Num(peak));
        Table::from_params(&p)
    }

    /// The curve passes through every point, is linear between them, odd in
    /// v, held beyond the last point; stuck up to peak μ(0).
    #[test]
    fn interpolates_the_points_and_sticks_up_to_peak_times_mu0() {
        let pts = [[0.0, 0.5], [0.1, 0.4], [1.0, 0.35], [10.0, 0.3]];
        let m = build(&pts, 1.1).unwrap();
        let f = |v: f64| m.force(&Input::new(0.0, 0.0, v), &[], &[]);
        for p in &pts[1..] {
            assert_eq!(f(p[0]), p[1]);
            assert_eq!(f(-p[0]), -p[1]);
        }
        assert!((f(0.05) - 0.45).abs() < 1e-15);
        assert!((f(5.5) - 0.325).abs() < 1e-15);
        assert_eq!(f(100.0), 0.3);
        assert!((f(1e-12) - 0.5).abs() < 1e-10);
        assert_eq!(f(0.0), 0.0);
        assert!((m.max_static(&[], &[]).unwrap() - 0.55).abs() < 1e-15);
    }

    /// Tables that do not start at 0, speeds that do not increase, negative
    /// coefficients, peak < 1 and a missing table are refused with the entry.
    #[test]
    fn bad_tables_are_refused_naming_the_entry() {
        let e = build(&[[0.1, 0.5], [1.0, 0.3]], 1.0).unwrap_err().to_string();
        assert!(e.contains("points[0].v") && e.contains("0.1"), "{e}");
        let e = build(&[[0.0, 0.5], [1.0, 0.3], [1.0, 0.2]], 1.0).unwrap_err().to_string();
        assert!(e.contains("points[2].v") && e.contains("strictly increasing"), "{e}");
        let e = build(&[[0.0, 0.5], [1.0, -0.3]], 1.0).unwrap_err().to_string();
        assert!(e.contains("points[1].mu") && e.contains("-0.3"), "{e}");
        let e = build(&[[0.0, 0.5]], 0.9).unwrap_err().to_string();
        assert!(e.contains("peak") && e.contains("0.9"), "{e}");
        let e = Table::from_params(&ParamMap::new()).unwrap_err().to_string();
        assert!(e.contains("points"), "{e}");
        // one point: a constant coefficient
        let m = build(&[[0.0, 0.4]], 1.0).unwrap();
        assert_eq!(m.force(&Input::new(0.0, 0.0, 3.0), &[], &[]), 0.4);
    }
}
