//! Contract checks over every registered model: documentation matches the
//! parameter tables, defaults build, symmetry, and bad input is refused.

mod common;

use common::{defaults, wrapped};
use friction_models::{all, build, Family, FrictionModel, Input, ParamKind, ParamMap, ParamValue, Quantity};

fn doc_lines(id: &str) -> Vec<String> {
    let path = format!("{}/src/models/{id}.rs", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    src.lines()
        .filter_map(|l| l.trim_start().strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l).to_string())
        .collect()
}

/// The doc comment of every model file carries the same equations block and
/// parameter rows as its `INFO`, so the two cannot drift apart.
#[test]
fn doc_comments_match_info() {
    for info in all() {
        let doc = doc_lines(info.id);
        let eq: Vec<&str> = info.equations.lines().collect();
        let found = doc.windows(eq.len()).any(|w| w.iter().zip(&eq).all(|(a, b)| a == b));
        assert!(found, "{}: equations block of INFO not found verbatim in the module doc", info.id);
        for p in info.params {
            let row = p.doc_row();
            assert!(doc.contains(&row), "{}: doc row missing or different:\n{row}", info.id);
        }
        for section in ["# Equations", "# Parameters", "# States", "# Sources"] {
            assert!(doc.iter().any(|l| l == section), "{}: missing section {section}", info.id);
        }
        assert!(!info.summary.is_empty() && !info.sources.is_empty());
    }
}

/// Every model builds from its defaults (plus rows where required) and gives
/// finite forces and rates around rest and in sliding.
#[test]
fn every_model_builds_with_defaults_and_is_finite() {
    for info in all() {
        let m = build(info.id, &defaults(info.id)).unwrap_or_else(|e| panic!("{}: {e}", info.id));
        let mut z = vec![0.0; m.n_states()];
        let mut mem = vec![0.0; m.n_memory()];
        m.init(&Input::new(0.0, 0.0, 0.0), &mut z, &mut mem);
        let mut dz = vec![0.0; z.len()];
        for v in [-1.0, -1e-3, 0.0, 1e-3, 1.0] {
            let inp = Input::new(0.0, 1e-6, v);
            assert!(m.force(&inp, &z, &mem).is_finite(), "{} at v = {v}", info.id);
            m.rates(&inp, &z, &mem, &mut dz);
            assert!(dz.iter().all(|d| d.is_finite()), "{} rates at v = {v}", info.id);
        }
        if info.family == Family::SetValued {
            assert!(m.max_static(&z, &mem).is_some(), "{}: set-valued without Fs", info.id);
        }
    }
}

/// Unknown parameter names and out-of-range values are refused with the name
/// and the valid range in the message.
#[test]
fn bad_parameters_are_refused_with_name_and_range() {
    for info in all() {
        let mut p = defaults(info.id);
        p.insert("no_such_param".into(), ParamValue::Num(1.0));
        let e = build(info.id, &p).unwrap_err().to_string();
        assert!(e.contains("no_such_param"), "{}: {e}", info.id);
        for s in info.params {
            if let ParamKind::Real { range, .. } = s.kind {
                let bad = if range.lo.is_finite() { range.lo - 1.0 } else { f64::NAN };
                let mut p = defaults(info.id);
                p.insert(s.name.into(), ParamValue::Num(bad));
                let e = build(info.id, &p).unwrap_err().to_string();
                assert!(e.contains(s.name), "{}.{}: {e}", info.id, s.name);
                assert!(e.contains(&range.to_string()), "{}.{}: {e}", info.id, s.name);
            }
        }
    }
}

/// Ids are unique and the files are named after them.
#[test]
fn ids_are_unique() {
    let ids: Vec<_> = all().iter().map(|m| m.id).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len());
}

/// Every internal state and memory value has a declared quantity (the unit
/// of its `z.NAME.k` output column), for every model and for the wrappers
/// around stateful inner models; indices past the end are `Unknown`.
#[test]
fn every_state_column_has_a_unit() {
    let mut cases: Vec<(String, ParamMap)> =
        all().iter().map(|i| (i.id.to_string(), defaults(i.id))).collect();
    cases.push(("meta_coulomb".into(), wrapped("")));
    cases.push(("stochastic".into(), wrapped("speed_ref")));
    for (id, p) in cases {
        let m = build(&id, &p).unwrap_or_else(|e| panic!("{id}: {e}"));
        let n = m.n_states() + m.n_memory();
        for k in 0..n {
            assert_ne!(m.state_quantity(k), Quantity::Unknown, "{id}: value {k} of {n} has no unit");
        }
        assert_eq!(m.state_quantity(n), Quantity::Unknown, "{id}: index past the end");
    }
}

/// `force_and_rates` gives exactly what `rates` and `force` give apart (the
/// engine calls it for sliding contacts with states).
#[test]
fn force_and_rates_equal_rates_then_force() {
    for info in all() {
        let m = build(info.id, &defaults(info.id)).unwrap();
        let mut z = vec![0.0; m.n_states()];
        let mut mem = vec![0.0; m.n_memory()];
        m.init(&Input::new(0.0, 0.0, 0.0), &mut z, &mut mem);
        for (k, zi) in z.iter_mut().enumerate() {
            *zi += 1e-6 * (k as f64 + 1.0);
        }
        for v in [-0.3, -2e-4, 1e-3, 0.05] {
            let inp = Input::new(0.1, 3e-6, v);
            let (mut a, mut b) = (vec![0.0; z.len()], vec![0.0; z.len()]);
            m.rates(&inp, &z, &mem, &mut a);
            let f = m.force(&inp, &z, &mem);
            let g = m.force_and_rates(&inp, &z, &mem, &mut b);
            assert_eq!(f.to_bits(), g.to_bits(), "{} at v = {v}", info.id);
            assert_eq!(a, b, "{} at v = {v}", info.id);
        }
    }
}
