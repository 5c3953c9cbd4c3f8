//! The sweep's metrics and its two ways of running a grid: metrics against
//! closed forms on a driver's ramp, the same values whether a run's rows are
//! kept as vectors or in one block, and a grid run from its prepared systems
//! equal, bit for bit, to the grid parsed point by point.

use std::path::Path;

use friction_sim::sweep::{grid_rows, Metric, Sweep};
use friction_sim::{scenario, simulate, simulate_flat};

const LUGRE: &str = include_str!("../../../examples/lugre_stick_slip.toml");

fn short_lugre() -> String {
    LUGRE.replace("t_end = 20.0", "t_end = 4.0")
}

#[test]
fn column_metrics_of_a_ramp_equal_their_closed_forms() {
    // the puller moves as x = 0.1 t: on [1, 3] its mean is 0.2, its
    // extremes 0.1 and 0.3 (the trapezoidal rule is exact on a line)
    let sys = scenario::parse(&short_lugre(), "lugre.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    let m = |s: &str| Metric::parse(s, &sys).unwrap().eval(&sys, &out);
    assert!((m("mean.x.puller[1:3]") - 0.2).abs() < 1e-12, "{}", m("mean.x.puller[1:3]"));
    assert!((m("max.x.puller[1:3]") - 0.3).abs() < 1e-12);
    assert!((m("min.x.puller[1:3]") - 0.1).abs() < 1e-12);
    assert!((m("ptp.x.puller[25%:75%]") - 0.2).abs() < 1e-12);
    assert!((m("final.x.puller") - 0.4).abs() < 1e-12);
    // a window that holds one row gives that row's value, one with none NaN
    assert!((m("mean.x.puller[2:2]") - 0.2).abs() < 1e-12);
    assert!(m("mean.x.puller[2.0001:2.0002]").is_nan());
}

#[test]
fn metrics_of_a_run_kept_in_one_block_equal_those_of_its_rows() {
    let sys = scenario::parse(&short_lugre(), "lugre.toml", Path::new(".")).unwrap();
    let rows = simulate(&sys).unwrap();
    let flat = simulate_flat(&sys).unwrap();
    let names = [
        "final.x.m",
        "max.v.m",
        "min.F.c[1:]",
        "mean.z.c.0[10%:90%]",
        "ptp.v.m[50%:]",
        "energy.dissipated",
        "energy.dissipated.c",
        "energy.residual",
        "events.count",
        "stats.steps",
    ];
    for name in names {
        let metric = Metric::parse(name, &sys).unwrap();
        let (a, b) = (metric.eval(&sys, &rows), metric.eval_flat(&sys, &flat));
        assert_eq!(a.to_bits(), b.to_bits(), "{name}: {a} (rows) against {b} (block)");
        assert!(a.is_finite(), "{name} = {a}");
    }
    // the total dissipated is the sum of its parts (here one contact)
    let total = Metric::parse("energy.dissipated", &sys).unwrap().eval(&sys, &rows);
    assert!(total > 0.0 && total == rows.energy.contacts[0].1 + rows.energy.impacts);
}

#[test]
fn a_prepared_grid_runs_to_the_values_of_the_grid_parsed_point_by_point() {
    let text = short_lugre();
    let paths = vec!["contact.c.fc".to_string(), "spring.spring0.stiffness".to_string()];
    let metrics: Vec<String> = ["final.x.m", "ptp.v.m[50%:]", "energy.dissipated", "events.count"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let sweep = Sweep::new(&text, "lugre.toml", Path::new("."), paths.clone(), &metrics).unwrap();
    let rows =
        grid_rows(&[(paths[0].clone(), vec![0.8, 1.0, 1.2]), (paths[1].clone(), vec![1.0, 2.0])], false)
            .unwrap();
    let systems = sweep.prepare(&rows).unwrap();
    assert_eq!(systems.len(), 6);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let a = sweep.run_systems(&systems, &|| {
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    assert_eq!(done.into_inner(), 6);
    let b = sweep.run(&rows, &|| ());
    for (i, ((va, ea), (vb, eb))) in a.iter().zip(&b).enumerate() {
        assert!(ea.is_empty() && eb.is_empty(), "point {i}: {ea} / {eb}");
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(va), bits(vb), "point {i}: {va:?} against {vb:?}");
    }
    // a sweep keeps only the columns its metrics read: the values equal
    // those of the full run of each point, bit for bit
    assert_eq!(systems[0].solver.columns.as_deref(), Some(&["x.m".to_string(), "v.m".to_string()][..]));
    for (i, row) in rows.iter().enumerate() {
        let full = sweep.system(i, row).unwrap();
        assert!(full.solver.columns.is_none());
        let out = simulate(&full).unwrap();
        assert!(out.columns.len() > 3);
        for (k, name) in metrics.iter().enumerate() {
            let v = Metric::parse(name, &full).unwrap().eval(&full, &out);
            assert_eq!(
                v.to_bits(),
                a[i].0[k].to_bits(),
                "point {i}, {name}: {v} (full run) against {}",
                a[i].0[k]
            );
        }
    }
    // the grid changes the results: a stiffer spring and a larger fc move the end position
    assert!(a[0].0[0] != a[5].0[0]);
    // a bad point is refused before anything runs, naming it
    let bad = vec![vec![1.0, 2.0], vec![-1.0, 2.0]];
    let e = sweep.prepare(&bad).unwrap_err().to_string();
    assert!(e.contains("grid point 1") && e.contains("contact.c.fc = -1"), "{e}");
}

#[test]
fn metric_on_a_column_a_grid_point_lacks_names_the_column_instead_of_giving_nan() {
    // an Iwan joint's slider states are columns: fewer elements at a grid
    // point leave a metric on the last slider without its column
    let text = "[[driver]]\nname = \"d\"\nmotion = { type = \"sine\", amplitude = 1e-4, frequency = 1.0 }\n\
                [[contact]]\nname = \"c\"\nbetween = [\"d\", \"ground\"]\nmodel = \"iwan4\"\n\
                params = { n = 4 }\n[solver]\nt_end = 0.5\noutput_dt = 0.05\nstates = \"all\"\n";
    let sys = friction_sim::scenario::parse(text, "iwan.toml", Path::new(".")).unwrap();
    let cols = friction_sim::engine::columns(&sys);
    let last = cols.iter().rfind(|c| c.starts_with("mem.c.") || c.starts_with("z.c.")).unwrap().clone();
    let metrics = vec![format!("max.{last}")];
    let path = "contact.c.n".to_string();
    let sweep = Sweep::new(text, "iwan.toml", Path::new("."), vec![path.clone()], &metrics).unwrap();
    // four elements: the column exists and the run gives a number
    let ok = sweep.run(&[vec![4.0]], &|| ());
    assert!(ok[0].1.is_empty() && ok[0].0[0].is_finite(), "{ok:?}");
    // two elements: refused before running, naming the point, metric and column
    let e = sweep.prepare(&[vec![4.0], vec![2.0]]).unwrap_err().to_string();
    assert!(e.contains("grid point 1") && e.contains(&metrics[0]) && e.contains(&format!("`{last}`")), "{e}");
    // and a run of the point reports it rather than a NaN without error
    let r = sweep.run(&[vec![2.0]], &|| ());
    assert!(r[0].1.contains(&last), "{r:?}");
}
