//! Parameters shared by the model test files.

use friction_models::{ParamKind, ParamMap, ParamValue};

/// The default parameters of `id`, plus the rows a model requires (two
/// Maxwell-slip elements, a two-point friction table).
pub fn defaults(id: &str) -> ParamMap {
    let info = friction_models::info(id).unwrap();
    let mut p = ParamMap::new();
    for s in info.params {
        if id == "table" && s.name == "points" {
            // speeds from 0, strictly increasing
            p.insert(
                s.name.into(),
                ParamValue::List(vec![
                    ParamValue::List(vec![ParamValue::Num(0.0), ParamValue::Num(1.5)]),
                    ParamValue::List(vec![ParamValue::Num(0.01), ParamValue::Num(1.0)]),
                ]),
            );
        } else if let ParamKind::Rows { .. } = s.kind {
            p.insert(
                s.name.into(),
                ParamValue::List(vec![
                    ParamValue::List(vec![ParamValue::Num(1e4), ParamValue::Num(0.5)]),
                    ParamValue::List(vec![ParamValue::Num(2e4), ParamValue::Num(0.5)]),
                ]),
            );
        }
    }
    p
}

/// The parameters of a wrapper (`meta_coulomb`, `stochastic`) around LuGre,
/// with `extra` set to 0.1 when given.
pub fn wrapped(extra: &str) -> ParamMap {
    let mut p = ParamMap::new();
    let mut inner = ParamMap::new();
    inner.insert("model".into(), ParamValue::Str("lugre".into()));
    p.insert("inner".into(), ParamValue::Table(inner));
    if !extra.is_empty() {
        p.insert(extra.into(), ParamValue::Num(0.1));
    }
    p
}
