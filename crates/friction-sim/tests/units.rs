//! Units of the output columns and rotational parts (`kind = "rotational"`).

use std::path::Path;

use friction_sim::scenario::parse;

/// A flywheel J = 0.1 kg m² spinning at 10 rad/s, braked by a Coulomb
/// torque of 0.5 N m, stops after J ω0 / T = 2 s having turned
/// J ω0² / (2 T) = 10 rad; its columns are an angle, an angular velocity and
/// a torque, and the slip columns follow the wheel against the ground.
#[test]
fn braked_flywheel_stops_at_the_closed_form_angle_in_radians() {
    let text = r#"
[[body]]
name = "wheel"
kind = "rotational"
mass = 0.1
v0 = 10.0
[[contact]]
name = "brake"
between = ["wheel", "ground"]
model = "coulomb"
params = { fc = 0.5 }
[solver]
t_end = 3.0
output_dt = 0.01
"#;
    let sys = parse(text, "flywheel.toml", Path::new(".")).unwrap();
    let out = friction_sim::simulate(&sys).unwrap();
    assert!((out.last("x.wheel") - 10.0).abs() < 1e-6, "{}", out.last("x.wheel"));
    assert_eq!(out.last("v.wheel"), 0.0);
    let unit = |c: &str| out.units[out.col(c).unwrap()].as_str();
    assert_eq!(unit("t"), "s");
    assert_eq!(unit("x.wheel"), "rad");
    assert_eq!(unit("v.wheel"), "rad/s");
    assert_eq!(unit("F.brake"), "N m");
    assert_eq!(unit("s.brake"), "rad");
    assert_eq!(unit("sv.brake"), "rad/s");
    assert_eq!(out.units.len(), out.columns.len());
    // slip of the wheel against the ground is its angle; the torque on it
    // opposes the spin
    let i = out.col("s.brake").unwrap();
    let j = out.col("x.wheel").unwrap();
    assert!(out.rows.iter().all(|r| r[i] == r[j]));
    let mid = &out.rows[100];
    assert_eq!(mid[out.col("F.brake").unwrap()], -0.5);
    let s = friction_sim::output::summary(&sys, &out);
    assert_eq!(s["units"]["F.brake"], "N m");
}

/// A spring between a rotating and a sliding part mixes units: refused,
/// naming both members, their kinds and the line.
#[test]
fn a_spring_between_a_rotational_and_a_translational_body_is_refused() {
    let text = r#"
[[body]]
name = "wheel"
kind = "rotational"
mass = 0.1
[[body]]
name = "cart"
mass = 1.0
[[spring]]
between = ["wheel", "cart"]
stiffness = 10.0
[solver]
t_end = 1.0
"#;
    let e = parse(text, "mixed.toml", Path::new(".")).unwrap_err().to_string();
    assert!(
        e.contains("mixed.toml:10:")
            && e.contains("\"wheel\" (rotational)")
            && e.contains("\"cart\" (translational)"),
        "{e}"
    );
    let bad = text.replace("kind = \"rotational\"", "kind = \"rotating\"");
    let e = parse(&bad, "mixed.toml", Path::new(".")).unwrap_err().to_string();
    assert!(e.contains("rotating") && e.contains("translational") && e.contains("rotational"), "{e}");
}

/// The CSV never holds `-0e0`, and starts with a units line that matches
/// the header column for column.
#[test]
fn csv_starts_with_units_and_has_no_negative_zero() {
    let text = r#"
[[body]]
name = "m"
mass = 1.0
v0 = -1.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 2.0 }
[solver]
t_end = 1.0
output_dt = 0.1
"#;
    let sys = parse(text, "neg.toml", Path::new(".")).unwrap();
    let out = friction_sim::simulate(&sys).unwrap();
    let dir = std::env::temp_dir().join(format!("friction-units-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("t.csv");
    friction_sim::output::write_csv(&out, &p).unwrap();
    let text = std::fs::read_to_string(&p).unwrap();
    let mut lines = text.lines();
    let units: Vec<&str> = lines.next().unwrap().strip_prefix("# units: ").unwrap().split(", ").collect();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(units.len(), header.len());
    assert_eq!(header[..3], ["t", "x.m", "v.m"]);
    assert_eq!(units[..3], ["s", "m", "m/s"]);
    // the mass stops at t = 0.5 s; its velocity afterwards is zero, written as 0e0
    assert!(!text.contains("-0e0"), "{text}");
    assert!(text.lines().last().unwrap().contains(",0e0,"));
    let _ = std::fs::remove_dir_all(&dir);
}
