//! The fitted parameters: which entries of a parameter map are free
//! (slots), and the transforms that keep each inside its valid range.

use friction_models::{ParamKind, ParamMap, ParamValue};

/// A map from a parameter transform to the search coordinate θ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Transform {
    /// `p = θ`.
    Identity,
    /// `p = lo + e^θ`.
    Log {
        /// Lower bound.
        lo: f64,
    },
    /// `p = hi - e^θ`.
    NegLog {
        /// Upper bound.
        hi: f64,
    },
    /// `p = lo + (hi - lo) / (1 + e^-θ)`.
    Logistic {
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
    },
}

impl Transform {
    /// The transform keeping a parameter inside `[lo, hi]`.
    pub fn for_range(lo: f64, hi: f64) -> Transform {
        match (lo.is_finite(), hi.is_finite()) {
            (true, true) => Transform::Logistic { lo, hi },
            (true, false) => Transform::Log { lo },
            (false, true) => Transform::NegLog { hi },
            (false, false) => Transform::Identity,
        }
    }
    /// p(θ).
    pub fn to_param(self, th: f64) -> f64 {
        match self {
            Transform::Identity => th,
            Transform::Log { lo } => lo + th.exp(),
            Transform::NegLog { hi } => hi - th.exp(),
            Transform::Logistic { lo, hi } => lo + (hi - lo) / (1.0 + (-th).exp()),
        }
    }
    /// θ(p); p must lie strictly inside the range.
    pub fn to_theta(self, p: f64) -> f64 {
        match self {
            Transform::Identity => p,
            Transform::Log { lo } => (p - lo).ln(),
            Transform::NegLog { hi } => (hi - p).ln(),
            Transform::Logistic { lo, hi } => ((p - lo) / (hi - p)).ln(),
        }
    }
    /// dp/dθ at θ.
    pub fn dp_dtheta(self, th: f64) -> f64 {
        match self {
            Transform::Identity => 1.0,
            Transform::Log { .. } => th.exp(),
            Transform::NegLog { .. } => -th.exp(),
            Transform::Logistic { lo, hi } => {
                let s = 1.0 / (1.0 + (-th).exp());
                (hi - lo) * s * (1.0 - s)
            }
        }
    }
}

/// Where a fitted parameter lives in the [`ParamMap`].
#[derive(Debug, Clone, PartialEq)]
enum Target {
    Scalar(String),
    Row { param: String, row: usize, col: usize },
}

/// One adjustable parameter.
#[derive(Debug, Clone)]
pub(crate) struct Slot {
    pub(crate) name: String,
    pub(crate) unit: &'static str,
    target: Target,
    pub(crate) tr: Transform,
    /// valid range (natural units)
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    /// search box in θ
    pub(crate) th_lo: f64,
    pub(crate) th_hi: f64,
}

impl Slot {
    /// Restrict the search to `[blo, bhi]` (natural units) inside the valid range.
    pub(crate) fn set_box(&mut self, blo: f64, bhi: f64) {
        let (a, b) = match self.tr {
            Transform::Log { lo } => ((blo - lo).max(0.0).ln().max(-700.0), (bhi - lo).ln().min(700.0)),
            Transform::NegLog { hi } => ((hi - bhi).max(0.0).ln().max(-700.0), (hi - blo).ln().min(700.0)),
            Transform::Logistic { .. } => (self.tr.to_theta(blo).max(-40.0), self.tr.to_theta(bhi).min(40.0)),
            Transform::Identity => (blo, bhi),
        };
        let (a, b) = (a.min(b), a.max(b));
        self.th_lo = if a.is_nan() { -700.0 } else { a };
        self.th_hi = if b.is_nan() { 700.0 } else { b };
    }
    /// θ of a starting value `x`, moved strictly inside the range and into the box.
    pub(crate) fn theta_start(&self, x: f64) -> f64 {
        let inside = if x <= self.lo {
            self.lo + 1e-6 * (1.0 + self.lo.abs())
        } else if x >= self.hi {
            self.hi - 1e-6 * (1.0 + self.hi.abs())
        } else {
            x
        };
        self.tr.to_theta(inside).clamp(self.th_lo, self.th_hi)
    }
    pub(crate) fn get(&self, map: &ParamMap) -> Option<f64> {
        match &self.target {
            Target::Scalar(k) => match map.get(k) {
                Some(ParamValue::Num(x)) => Some(*x),
                _ => None,
            },
            Target::Row { param, row, col } => match map.get(param) {
                Some(ParamValue::List(rows)) => match rows.get(*row) {
                    Some(ParamValue::List(c)) => match c.get(*col) {
                        Some(ParamValue::Num(x)) => Some(*x),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            },
        }
    }
    pub(crate) fn set(&self, map: &mut ParamMap, x: f64) {
        match &self.target {
            Target::Scalar(k) => {
                map.insert(k.clone(), ParamValue::Num(x));
            }
            Target::Row { param, row, col } => {
                if let Some(ParamValue::List(rows)) = map.get_mut(param) {
                    if let Some(ParamValue::List(c)) = rows.get_mut(*row) {
                        c[*col] = ParamValue::Num(x);
                    }
                }
            }
        }
    }
}

/// The real-valued, adjustable parameters of model `mi` given the complete
/// starting map `map` (scalars by name, rows as `NAME[i].COLUMN`), with
/// their default-held flag (a value on a closed bound).
pub(crate) fn candidate_slots(mi: &'static friction_models::ModelInfo, map: &ParamMap) -> Vec<(Slot, bool)> {
    let mut out = vec![];
    let mk = |name: String, unit, target, range: friction_models::Range| Slot {
        name,
        unit,
        target,
        tr: Transform::for_range(range.lo, range.hi),
        lo: range.lo,
        hi: range.hi,
        th_lo: f64::NEG_INFINITY,
        th_hi: f64::INFINITY,
    };
    for spec in mi.params {
        match spec.kind {
            ParamKind::Real { range, .. } | ParamKind::OptionalReal { range } => {
                if matches!(spec.kind, ParamKind::OptionalReal { .. }) && !map.contains_key(spec.name) {
                    continue;
                }
                let s = mk(spec.name.to_string(), spec.unit, Target::Scalar(spec.name.to_string()), range);
                let at_bound = s.get(map).is_some_and(|x| {
                    (range.lo_closed && x == range.lo) || (range.hi_closed && x == range.hi)
                });
                out.push((s, at_bound));
            }
            ParamKind::Rows { columns, range } => {
                if let Some(ParamValue::List(rows)) = map.get(spec.name) {
                    for i in 0..rows.len() {
                        for (j, c) in columns.iter().enumerate() {
                            let name = format!("{}[{i}].{c}", spec.name);
                            let unit: &'static str = spec.unit.split(", ").nth(j).unwrap_or(spec.unit);
                            let s = mk(
                                name,
                                unit,
                                Target::Row { param: spec.name.to_string(), row: i, col: j },
                                range,
                            );
                            // GMS fractions must sum to 1: never free
                            out.push((s, *c == "alpha"));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}
