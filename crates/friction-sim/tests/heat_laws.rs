//! Temperature laws on any model parameter (`fs = { ref, value, slope }`,
//! `fc = { at = [[T, v], ...] }` on `stribeck`, `lugre`, ...): driven
//! contacts against the closed form of the linear ODE and against an
//! independent integration, a constant law against no law bit for bit,
//! laws that leave a parameter's valid range refused with the parameter
//! named, and the builder's law against the scenario file's.

use std::path::Path;

use friction_sim::{scenario, simulate, Outcome, System};

fn parse(text: &str) -> System {
    scenario::parse(text, "laws.toml", Path::new(".")).unwrap_or_else(|e| panic!("{e}"))
}

fn run(sys: &System) -> Outcome {
    let out = simulate(sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// A contact driven at constant speed `V` under load `N`, heating one
/// capacity `C` joined to an ambient `Ta` by a conductance `G`.
fn driven(model: &str, params: &str, v: f64, n: f64, c: f64, g: f64, t_end: f64) -> String {
    format!(
        r#"
[[driver]]
name = "w"
motion = {{ type = "ramp", rate = {v} }}
[[contact]]
name = "c"
between = ["w", "ground"]
model = "{model}"
params = {params}
normal = {n}
heat = "pad"
[[thermal]]
name = "pad"
capacity = {c}
T0 = 293.15
[[thermal]]
name = "air"
fixed = 293.15
[[conduction]]
name = "pad-air"
between = ["pad", "air"]
conductance = {g}
[solver]
t_end = {t_end}
output_dt = 1.0
rtol = 1e-12
"#
    )
}

/// `stribeck` with `fc` and `fs` both linear in T (two laws on one
/// contact), driven at `V` near its Stribeck velocity: its force
/// `F = fc(T) + (fs(T) - fc(T)) φ(V)`, `φ = exp(-(V/vs)²)`, is `A + B (T -
/// Tr)`, so `C dT/dt = N V (A + B (T - Tr)) - G (T - Ta)` is linear:
///
/// ```text
/// T(t) = T* + (Ta - T*) e^(β t),  β = (N V B - G) / C,  T* = -α / β,
/// α = (N V (A - B Tr) + G Ta) / C
/// ```
#[test]
fn stribeck_with_fc_and_fs_linear_in_temperature_follows_the_linear_odes_closed_form() {
    let (v, n, c, g, ta, tr) = (0.012, 5000.0, 20.0, 0.2, 293.15, 293.15);
    let (ac, bc, as_, bs, vs) = (0.3, -2e-4, 0.5, -3e-4, 0.01);
    let params = format!(
        "{{ fc = {{ ref = {tr}, value = {ac}, slope = {bc} }}, fs = {{ ref = {tr}, value = {as_}, slope = {bs} }}, vs = {vs} }}"
    );
    let out = run(&parse(&driven("stribeck", &params, v, n, c, g, 200.0)));
    let phi = (-(v / vs).powi(2)).exp();
    let (a, b) = (ac + (as_ - ac) * phi, bc + (bs - bc) * phi);
    let beta = (n * v * b - g) / c;
    let alpha = (n * v * (a - b * tr) + g * ta) / c;
    let t_star = -alpha / beta;
    let (t, temp, force) = (out.series("t"), out.series("T.pad"), out.series("F.c"));
    let mut worst = 0.0f64;
    for i in 1..t.len() {
        let exact = t_star + (ta - t_star) * (beta * t[i]).exp();
        worst = worst.max((temp[i] - exact).abs() / (exact - ta));
        let f = n * (a + b * (temp[i] - tr));
        assert!((force[i] + f).abs() < 1e-9 * f, "F at t = {}: {} vs {}", t[i], force[i], -f);
    }
    // measured 2.2e-13
    assert!(worst < 1e-11, "temperature rise off by {worst:.3e} relative");
    // the fade is visible: the end rise is below the cold coefficient's
    let rise = out.last("T.pad") - ta;
    assert!(rise > 50.0 && rise < n * v * a / g * (1.0 - (-g * 200.0 / c).exp()), "{rise}");
    assert!(out.energy.residual.abs() < 1e-8 * out.energy.work_drivers, "{}", out.energy.residual);
}

/// `lugre` with `fs` linear in T (a table, held beyond its ends: `fs` must
/// stay positive), driven at `V` = its Stribeck velocity:
/// the temperature and the force against a fixed-step RK4 integration of
/// `dz/dt = V - σ0 V z / g(V, T)`, `C dT/dt = N F V - G (T - Ta)`, `F = σ0
/// z + σ1 dz/dt + σ2 V`, written here.
#[test]
fn lugre_with_fs_linear_in_temperature_matches_an_independent_integration() {
    let (v, n, c, g, ta) = (1e-3, 3000.0, 2.0, 0.01, 293.15);
    let (s0, s1, s2, fc, vs) = (1e5, 1e5f64.sqrt(), 0.4, 1.0, 1e-3);
    let (fs0, bs, tr, t_hi) = (1.5, -2e-3, 293.15, 493.15);
    let params = format!("{{ fs = {{ at = [[{tr}, {fs0}], [{t_hi}, {}]] }} }}", fs0 + bs * (t_hi - tr));
    let out = run(&parse(&driven("lugre", &params, v, n, c, g, 100.0)));
    // the reference: RK4 on (z, T) with a step well inside its stability
    let rhs = |z: f64, temp: f64| {
        let fs = fs0 + bs * (temp.clamp(tr, t_hi) - tr);
        let gv = fc + (fs - fc) * (-(v / vs).powi(2)).exp();
        let dz = v - s0 * v.abs() * z / gv;
        let f = s0 * z + s1 * dz + s2 * v;
        (dz, (n * f * v - g * (temp - ta)) / c, f)
    };
    let dt = 2e-5;
    let (mut z, mut temp) = (0.0, ta);
    let (t, col, force) = (out.series("t"), out.series("T.pad"), out.series("F.c"));
    let mut k = 0usize;
    let mut worst = (0.0f64, 0.0f64);
    for (i, &ti) in t.iter().enumerate() {
        while (k as f64) * dt < ti - 1e-12 {
            let (z1, t1, _) = rhs(z, temp);
            let (z2, t2, _) = rhs(z + 0.5 * dt * z1, temp + 0.5 * dt * t1);
            let (z3, t3, _) = rhs(z + 0.5 * dt * z2, temp + 0.5 * dt * t2);
            let (z4, t4, _) = rhs(z + dt * z3, temp + dt * t3);
            z += dt / 6.0 * (z1 + 2.0 * z2 + 2.0 * z3 + z4);
            temp += dt / 6.0 * (t1 + 2.0 * t2 + 2.0 * t3 + t4);
            k += 1;
        }
        if i > 0 {
            worst.0 = worst.0.max((col[i] - temp).abs() / (temp - ta));
            worst.1 = worst.1.max((force[i] + n * rhs(z, temp).2).abs() / n);
        }
    }
    // measured 2.9e-12 and 7.9e-13
    assert!(worst.0 < 1e-10, "temperature rise off by {:.3e} relative", worst.0);
    assert!(worst.1 < 1e-10, "force off by {:.3e} N per N of load", worst.1);
    // fs fell by tens of per cent of its cold value: the law mattered
    let hot = fs0 + bs * (out.last("T.pad") - tr);
    assert!(hot < 0.85 * fs0, "fs at the end {hot}");
}

/// A mass sliding to rest on a `stribeck` contact with a spring: a law
/// whose value is the same at every temperature gives the motion of the
/// constant parameter bit for bit, every column.
#[test]
fn a_constant_law_gives_the_motion_without_a_law_bit_for_bit() {
    let text = |fc: &str| {
        format!(
            r#"
[[body]]
name = "m"
mass = 1.5
v0 = 0.8
[[spring]]
between = ["m", "ground"]
stiffness = 40.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "stribeck"
params = {{ fc = {fc}, fs = 0.6, vs = 0.02 }}
normal = 9.81
heat = "pad"
[[thermal]]
name = "pad"
capacity = 3.0
T0 = 293.15
[solver]
t_end = 4.0
"#
        )
    };
    let plain = run(&parse(&text("0.4")));
    for law in ["{ at = [[250.0, 0.4], [450.0, 0.4]] }", "{ ref = 300.0, value = 0.4, slope = 0.0 }"] {
        let with = run(&parse(&text(law)));
        assert_eq!(plain.columns, with.columns);
        for name in &plain.columns {
            let (a, b) = (plain.series(name), with.series(name));
            assert_eq!(a.len(), b.len(), "{law}: {name}");
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(x.to_bits(), y.to_bits(), "{law}: {name}");
            }
        }
        assert_eq!(format!("{:?}", plain.events), format!("{:?}", with.events), "{law}");
    }
    // it stuck and heated the pad
    assert!(plain.events.iter().any(|e| e.to == "stuck"));
    assert!(plain.last("T.pad") > 293.15);
}

/// A law that takes a parameter out of its model's valid range at some
/// temperature, or one on a parameter that may not follow a temperature,
/// is refused: the message names the file, the line, the parameter, its
/// value, the temperature and the valid range.
#[test]
fn a_law_outside_the_valid_range_is_refused_naming_the_parameter() {
    let text = |model: &str, params: &str| driven(model, params, 0.01, 10.0, 5.0, 1.0, 1.0);
    for (model, params, want) in [
        (
            "lugre",
            "{ vs = { ref = 300.0, value = 1e-3, slope = -1e-5 } }",
            "`vs` = 0 at T = 400 K (its temperature law): model `lugre`: parameter `vs` = 0 is out of range; valid range (0, inf)",
        ),
        (
            "stribeck",
            "{ fc = { at = [[300.0, 0.4], [500.0, 0.7]] }, fs = 0.6 }",
            "`fc` = 0.7 at T = 500 K (its temperature law): model `stribeck`: parameter `fs` = 0.6: must be >= fc = 0.7",
        ),
        (
            "lugre",
            "{ sigma0 = { at = [[300.0, 1e5], [500.0, -1.0]] } }",
            "`sigma0` = -1 at T = 500 K (its temperature law): model `lugre`: parameter `sigma0` = -1 is out of range",
        ),
        (
            "stribeck",
            "{ exponent = { at = [[300.0, 2.0], [500.0, 1.0]] } }",
            "`exponent` of `stribeck` may not depend on temperature; the parameters of `stribeck` that may: fc, fs, vs, kv",
        ),
    ] {
        let e = scenario::parse(&text(model, params), "bad.toml", Path::new(".")).unwrap_err().to_string();
        assert!(e.contains(want), "expected {want:?} in: {e}");
        assert!(e.contains("bad.toml:9"), "no line of the params in: {e}");
    }
}

/// The builder's `temperature_law` on `lugre`'s `fs` gives the system of
/// the scenario file's law, and its message for a law out of range.
#[test]
fn builder_temperature_law_on_any_parameter_gives_the_scenario_files_system() {
    use friction_sim::system::thermal::TempLaw;
    use friction_sim::{Ground, LuGreParams, Schedule, SolverSettings};
    let mut s = SolverSettings::with_t_end(100.0);
    s.output_dt = Some(1.0);
    s.rtol = 1e-12;
    let build = |law: TempLaw| {
        System::builder("scenario")
            .driver("w", Schedule::Ramp { rate: 1e-3, offset: 0.0, start: 0.0 })
            .contact_with_normal("c", ("w", Ground), LuGreParams::default(), 1000.0)
            .heat("c", "pad")
            .thermal("pad", 2.0, 293.15)
            .ambient("air", 293.15)
            .conduction("pad-air", "pad", "air", 0.01)
            .temperature_law("c", "fs", law)
            .solver(s.clone())
            .build()
    };
    let law = TempLaw::Table(vec![(293.15, 1.5), (493.15, 1.1)]);
    let text =
        driven("lugre", "{ fs = { at = [[293.15, 1.5], [493.15, 1.1]] } }", 1e-3, 1000.0, 2.0, 0.01, 100.0);
    assert_eq!(format!("{:?}", build(law).unwrap()), format!("{:?}", parse(&text)));
    let bad = TempLaw::Table(vec![(300.0, 1.5), (500.0, -0.5)]);
    let msg = build(bad).unwrap_err().to_string();
    assert!(msg.contains("`fs` = -0.5 at T = 500 K"), "{msg}");
}
