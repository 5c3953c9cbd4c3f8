//! `[solver] columns`: a run writes only the chosen columns, with the values
//! of the full run, and names that are not columns are refused at load time.

use std::path::Path;

use friction_sim::{scenario, simulate, simulate_flat};

fn example_text(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name)).unwrap()
}

/// The example with `columns = ...` added to its `[solver]` table.
fn with_columns(name: &str, columns: &str) -> friction_sim::System {
    let text = example_text(name).replace("[solver]\n", &format!("[solver]\ncolumns = {columns}\n"));
    scenario::parse(&text, name, Path::new(".")).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Selected columns carry the full run's values to the bit: LuGre on Radau5
/// (rows without the model when no force is asked for) and Coulomb with
/// stick (stuck rows carry the holding force from the constraint).
#[test]
fn selected_columns_carry_the_full_runs_values() {
    for (name, cols, want) in [
        ("lugre_stick_slip.toml", r#"["x.m", "v.m", "z.c.0"]"#, vec!["t", "x.m", "v.m", "z.c.0"]),
        ("lugre_stick_slip.toml", r#"["sv.c", "x.m"]"#, vec!["t", "x.m", "sv.c"]),
        ("coulomb_free_decay.toml", r#"["F.c", "x.m", "t"]"#, vec!["t", "x.m", "F.c"]),
    ] {
        let full_sys = scenario::parse(&example_text(name), name, Path::new(".")).unwrap();
        let full = simulate(&full_sys).unwrap();
        let sys = with_columns(name, cols);
        let out = simulate(&sys).unwrap();
        assert_eq!(out.columns, want, "{name} {cols}");
        assert_eq!(out.rows.len(), full.rows.len(), "{name} {cols}");
        assert_eq!(sys.output_columns(), want.len(), "{name} {cols}");
        for (k, c) in want.iter().enumerate() {
            let j = full.col(c).unwrap();
            assert_eq!(out.units[k], full.units[j], "{name} {cols}: unit of {c}");
            assert_eq!(out.series(c), full.series(c), "{name} {cols}: column {c}");
        }
        let flat = simulate_flat(&sys).unwrap();
        assert_eq!(flat.columns, out.columns);
        assert_eq!(flat.data.len(), out.rows.len() * want.len(), "{name} {cols}");
    }
    // driver columns, slips, and (with every state column) an internal state
    // and the last memory value of an Iwan joint
    let full_sys = scenario::parse(&example_text("lugre_stick_slip.toml"), "l.toml", Path::new(".")).unwrap();
    let full = simulate(&full_sys).unwrap();
    let out = simulate(&with_columns("lugre_stick_slip.toml", r#"["v.puller", "s.c", "x.puller"]"#)).unwrap();
    assert_eq!(out.columns, ["t", "x.puller", "v.puller", "s.c"]);
    for c in &out.columns {
        assert_eq!(out.series(c), full.series(c), "lugre: column {c}");
    }
    let text = example_text("iwan_loops.toml").replace("[solver]\n", "[solver]\nstates = \"all\"\n");
    let full = simulate(&scenario::parse(&text, "i.toml", Path::new(".")).unwrap()).unwrap();
    let last = full.columns.last().unwrap().clone();
    assert!(full.columns.len() > 8 && last.starts_with("z.joint."), "{:?}", full.columns);
    let pick = format!("[\"{last}\", \"z.joint.0\", \"sv.joint\"]");
    let text = text.replace("[solver]\n", &format!("[solver]\ncolumns = {pick}\n"));
    let out = simulate(&scenario::parse(&text, "i.toml", Path::new(".")).unwrap()).unwrap();
    assert_eq!(out.columns, ["t", "sv.joint", "z.joint.0", last.as_str()]);
    for c in &out.columns {
        assert_eq!(out.series(c), full.series(c), "iwan: column {c}");
    }
    // the Coulomb run holds: its stuck rows carry a non-zero holding force
    let out = simulate(&with_columns("coulomb_free_decay.toml", r#"["F.c"]"#)).unwrap();
    assert!(out.series("F.c").iter().any(|f| *f != 0.0 && f.is_finite()));
}

/// A name that is no column is refused with the file, the key, the name, a
/// suggestion and the columns there are; a value that is no list too.
#[test]
fn unknown_column_is_refused_with_the_columns_there_are() {
    let text = example_text("lugre_stick_slip.toml").replace("[solver]\n", "[solver]\ncolumns = [\"x.n\"]\n");
    let e = scenario::parse(&text, "lugre.toml", Path::new(".")).unwrap_err().to_string();
    for part in ["lugre.toml", "columns", "\"x.n\"", "x.m", "F.c", "sv.c", "z.c.0"] {
        assert!(e.contains(part), "{part} missing from: {e}");
    }
    let text = example_text("lugre_stick_slip.toml").replace("[solver]\n", "[solver]\ncolumns = \"x.m\"\n");
    let e = scenario::parse(&text, "lugre.toml", Path::new(".")).unwrap_err().to_string();
    assert!(e.contains("columns") && e.contains("list of column names"), "{e}");
    let text = example_text("lugre_stick_slip.toml").replace("[solver]\n", "[solver]\ncolumns = [1.0]\n");
    let e = scenario::parse(&text, "lugre.toml", Path::new(".")).unwrap_err().to_string();
    assert!(e.contains("columns") && e.contains("column names (strings)"), "{e}");
}
