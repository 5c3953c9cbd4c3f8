//! The tabulated friction curve (`model = "table"`, Modelica's `mu_pos` and
//! `peak`) inside the engine: exact stick up to peak μ(0) N, and sliding
//! along the interpolated curve.

use std::path::Path;

use friction_sim::scenario::parse;

const BLOCK: &str = r#"
[[body]]
name = "m"
mass = 1.0
v0 = V0
[[force]]
on = "m"
value = FORCE
[[contact]]
name = "c"
between = ["m", "ground"]
model = "table"
params = { points = [[0.0, 0.5], [0.1, 0.3], [10.0, 0.3]], peak = 1.2 }
normal = 10.0
[solver]
t_end = T_END
output_dt = 0.01
"#;

fn block(v0: f64, force: &str, t_end: f64) -> friction_sim::Outcome {
    let text =
        BLOCK.replace("V0", &v0.to_string()).replace("FORCE", force).replace("T_END", &t_end.to_string());
    let sys = parse(&text, "table.toml", Path::new(".")).unwrap();
    friction_sim::simulate(&sys).unwrap()
}

/// A block at rest under a force ramp 2t N sticks until the force reaches
/// peak μ(0) N = 1.2 · 0.5 · 10 = 6 N, at t = 3 s exactly.
#[test]
fn block_breaks_away_when_the_force_reaches_peak_times_mu0_times_normal() {
    let out = block(0.0, "{ type = \"ramp\", rate = 2.0 }", 4.0);
    let ev = out.events.iter().find(|e| e.from == "stuck").expect("a break-away");
    assert!((ev.t - 3.0).abs() < 1e-8, "break-away at {}", ev.t);
    let x = out.col("x.m").unwrap();
    assert!(out.rows.iter().filter(|r| r[0] < 3.0).all(|r| r[x] == 0.0));
    // sliding starts at μ(0) N = 5 N of friction against a 6 N push
    assert!(out.last("v.m") > 0.0);
}

/// Sliding from 5 m/s with no force: 3 m/s² while v >= 0.1 m/s (μ = 0.3),
/// then dv/dt = -10 (0.5 - 2 v) on the first segment of the table, to rest at
/// t = 4.9/3 + ln(5/3)/20 = 1.658876 s; it stays there.
#[test]
fn sliding_block_stops_at_the_closed_form_time_of_the_interpolated_curve() {
    let out = block(5.0, "0.0", 2.0);
    let t_stop = 4.9 / 3.0 + (5.0f64 / 3.0).ln() / 20.0;
    let ev = out.events.iter().find(|e| e.to == "stuck").expect("a stop");
    assert!((ev.t - t_stop).abs() < 1e-5, "stopped at {}, closed form {t_stop}", ev.t);
    assert_eq!(out.last("v.m"), 0.0);
    assert_eq!(out.events.len(), 1, "{:?}", out.events);
    // on the constant part the friction force is exactly μ N = 3 N
    let r = out.rows.iter().find(|r| (r[0] - 1.0).abs() < 1e-12).unwrap();
    assert!((r[out.col("F.c").unwrap()] + 3.0).abs() < 1e-9);
}
