//! The run plot (`friction run`'s `plot.png`): panels by quantity, a
//! temperature panel with thermal nodes (the examples' brake against the
//! default run), and the format by the extension.

use std::path::Path;

use friction_plot::{plot, plot_as, PlotFormat};
use friction_sim::{scenario, simulate, Outcome, System};

/// An example scenario of the repository.
fn example(name: &str) -> System {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name);
    scenario::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn run(sys: &System) -> Outcome {
    let out = simulate(sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// The run plot has a fourth panel, the thermal nodes' temperatures in
/// kelvin with a legend entry per node, when the run has thermal nodes, and
/// three panels without.
#[test]
fn the_run_plot_gets_a_temperature_panel_with_thermal_nodes() {
    let dir = std::env::temp_dir().join(format!("friction-heat-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = |example_name: &str, name: &str| {
        let path = dir.join(name);
        plot_as(&run(&example(example_name)), &path, "heat", PlotFormat::Svg).unwrap();
        std::fs::read_to_string(path).unwrap()
    };
    // a brake's discs heated and cooled by the air; the default LuGre run has no node
    let with = svg("downhill_brake.toml", "with.svg");
    assert!(with.contains("temperature T [K]"), "no temperature axis");
    assert!(with.contains("T.discs") && with.contains("T.air"), "no legend entry per node");
    let without = svg("lugre_stick_slip.toml", "without.svg");
    assert!(!without.contains("temperature T"), "a temperature axis without thermal nodes");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `plot` chooses the format by the extension: `.svg` is SVG, `.png` PNG.
#[test]
fn the_run_plot_format_follows_the_extension() {
    let dir = std::env::temp_dir().join(format!("friction-run-plot-ext-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = run(&example("downhill_brake.toml"));
    plot(&out, &dir.join("a.svg"), "heat").unwrap();
    plot(&out, &dir.join("a.png"), "heat").unwrap();
    let svg = std::fs::read_to_string(dir.join("a.svg")).unwrap();
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{}", &svg[..40.min(svg.len())]);
    let png = std::fs::read(dir.join("a.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let _ = std::fs::remove_dir_all(&dir);
}
