//! The flat result (`simulate_flat`: all rows in one row-major block) holds
//! exactly what `simulate` returns, and its summary is the same.

use std::path::Path;

use friction_sim::{output, scenario, simulate, simulate_flat};

fn example(name: &str) -> friction_sim::System {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name);
    scenario::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Smooth (LuGre on Radau5), stick/slip with events (Coulomb), and a contact
/// with hysteresis memory in its columns: the same rows to the bit, the same
/// events, statistics and summary (but the wall time).
#[test]
fn flat_rows_are_the_rows_of_simulate() {
    for name in ["lugre_stick_slip.toml", "coulomb_free_decay.toml", "iwan_loops.toml"] {
        let mut sys = example(name);
        sys.solver.states = friction_sim::StateColumns::All;
        let out = simulate(&sys).unwrap();
        let flat = simulate_flat(&sys).unwrap();
        assert!(out.rows.len() > 10, "{name}: {} rows", out.rows.len());
        assert_eq!(flat.columns, out.columns, "{name}");
        assert_eq!(flat.units, out.units, "{name}");
        assert_eq!(flat.n_rows(), out.rows.len(), "{name}");
        assert_eq!(flat.data.len(), out.rows.len() * out.columns.len(), "{name}");
        for (k, (a, b)) in flat.rows().zip(&out.rows).enumerate() {
            assert_eq!(a, b.as_slice(), "{name}: row {k}");
        }
        assert_eq!(flat.events.len(), out.events.len(), "{name}");
        for (a, b) in flat.events.iter().zip(&out.events) {
            assert_eq!((a.t, &a.contact, &a.from, &a.to), (b.t, &b.contact, &b.from, &b.to), "{name}");
        }
        assert_eq!((flat.stats.steps, flat.stats.rows), (out.stats.steps, out.stats.rows), "{name}");
        assert_eq!(flat.energy.residual, out.energy.residual, "{name}");
        let strip = |mut v: serde_json::Value| {
            v["stats"]["wall_time_s"] = serde_json::Value::Null;
            v
        };
        assert_eq!(strip(output::summary_flat(&sys, &flat)), strip(output::summary(&sys, &out)), "{name}");
        for col in ["t", &out.columns[1]] {
            assert_eq!(flat.series(col), out.series(col), "{name}: {col}");
            assert_eq!(flat.last(col), out.last(col), "{name}: {col}");
        }
        let back: friction_sim::Outcome = flat.into();
        assert_eq!(back.rows, out.rows, "{name}");
    }
}

/// Rows of states only kept in one block are written by the method at once
/// (`Stepper::dense_rows`), the rows kept as vectors one by one through the
/// step's dense output: every example, with its columns cut to the bodies'
/// positions and velocities and the contacts' states, gives the same rows
/// to the bit both ways (Radau5, DOP853, bdf5 and diffsol's methods among
/// them: the examples `auto` sends to bdf5 run once more with diffsol's bdf).
#[test]
fn rows_of_states_written_at_once_are_the_rows_interpolated_one_by_one() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut methods = std::collections::BTreeSet::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let name = path.display().to_string();
        let sys = scenario::load(&path).unwrap();
        let diffsol = (simulate_flat(&sys).unwrap().stats.method == "bdf5").then(|| {
            let mut s = sys.clone();
            s.solver.method = scenario::Method::Bdf;
            s
        });
        for mut sys in std::iter::once(sys).chain(diffsol) {
            sys.solver.states = friction_sim::StateColumns::All;
            let bodies: Vec<String> = sys.bodies.iter().map(|b| b.name.clone()).collect();
            let all = simulate_flat(&sys).unwrap().columns;
            let states: Vec<String> = all
                .into_iter()
                .filter(|c| {
                    c.starts_with("z.")
                        || ["x.", "v."]
                            .iter()
                            .any(|p| c.strip_prefix(p).is_some_and(|b| bodies.iter().any(|n| n == b)))
                })
                .collect();
            sys.solver.columns = Some(states);
            let out = simulate(&sys).unwrap();
            let flat = simulate_flat(&sys).unwrap();
            assert!(out.rows.len() > 10, "{name}: {} rows", out.rows.len());
            assert_eq!(flat.n_rows(), out.rows.len(), "{name}");
            for (k, (a, b)) in flat.rows().zip(&out.rows).enumerate() {
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(a), bits(b), "{name}: row {k}");
            }
            methods.insert(out.stats.method.clone());
            checked += 1;
        }
    }
    assert!(checked >= 15, "{checked} examples");
    for m in ["radau5", "dop853", "bdf5", "bdf", "tsit45"] {
        assert!(methods.contains(m), "no example integrated by {m}: {methods:?}");
    }
}
