//! The run plot (`friction run`'s `plot.png`): panels by quantity, a
//! temperature panel with thermal nodes, and the format by the extension.

use std::path::Path;

use friction_plot::{plot, plot_as, PlotFormat};
use friction_sim::{scenario, simulate, Outcome, System};

fn parse(text: &str) -> System {
    scenario::parse(text, "heat.toml", Path::new(".")).unwrap_or_else(|e| panic!("{e}"))
}

fn run(sys: &System) -> Outcome {
    let out = simulate(sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// A driven Coulomb contact heating a capacity joined to an ambient node
/// (as in friction-sim's `tests/heat.rs`).
const DRIVEN: &str = r#"
[[driver]]
name = "w"
motion = { type = "ramp", rate = 0.4 }
[[contact]]
name = "c"
between = ["w", "ground"]
model = "coulomb"
params = { fc = 0.3 }
normal = 250.0
heat = "pad"
[[thermal]]
name = "pad"
capacity = 120.0
T0 = 293.15
[[thermal]]
name = "air"
fixed = 293.15
[[conduction]]
name = "pad-air"
between = ["pad", "air"]
conductance = 2.5
[solver]
t_end = 200.0
output_dt = 1.0
rtol = 1e-12
"#;

/// The run plot has a fourth panel, the thermal nodes' temperatures in
/// kelvin with a legend entry per node, when the run has thermal nodes, and
/// three panels without.
#[test]
fn the_run_plot_gets_a_temperature_panel_with_thermal_nodes() {
    let dir = std::env::temp_dir().join(format!("friction-heat-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = |text: &str, name: &str| {
        let path = dir.join(name);
        plot_as(&run(&parse(text)), &path, "heat", PlotFormat::Svg).unwrap();
        std::fs::read_to_string(path).unwrap()
    };
    let with = svg(DRIVEN, "with.svg");
    assert!(with.contains("temperature T [K]"), "no temperature axis");
    assert!(with.contains("T.pad") && with.contains("T.air"), "no legend entry per node");
    let plain_text = DRIVEN.split("heat = \"pad\"").collect::<String>();
    let plain_text = plain_text.split("[[thermal]]").next().unwrap().to_string() + "[solver]\nt_end = 5.0\n";
    let without = svg(&plain_text, "without.svg");
    assert!(!without.contains("temperature T"), "a temperature axis without thermal nodes");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `plot` chooses the format by the extension: `.svg` is SVG, `.png` PNG.
#[test]
fn the_run_plot_format_follows_the_extension() {
    let dir = std::env::temp_dir().join(format!("friction-run-plot-ext-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = run(&parse(DRIVEN));
    plot(&out, &dir.join("a.svg"), "heat").unwrap();
    plot(&out, &dir.join("a.png"), "heat").unwrap();
    let svg = std::fs::read_to_string(dir.join("a.svg")).unwrap();
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{}", &svg[..40.min(svg.len())]);
    let png = std::fs::read(dir.join("a.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let _ = std::fs::remove_dir_all(&dir);
}
