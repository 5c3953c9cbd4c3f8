//! Thermal nodes (`[[thermal]]`, `[[conduction]]`, `heat = "NODE"`):
//! closed-form temperatures, the energy balance with heat, and bad thermal
//! input refused with the key named.

use std::path::Path;

use friction_sim::{scenario, simulate, Outcome, System};

fn parse(text: &str) -> System {
    scenario::parse(text, "heat.toml", Path::new(".")).unwrap_or_else(|e| panic!("{e}"))
}

fn run(sys: &System) -> Outcome {
    let out = simulate(sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// A Coulomb contact slipping at a constant speed `v` under a load `N`,
/// driven, so that its loss power is `P = fc N v` for all time; it heats one
/// capacity `C` joined to an ambient `Ta` by a conductance `G`:
///
/// ```text
/// C dT/dt = P - G (T - Ta),  T(0) = Ta   =>   T(t) = Ta + (P/G) (1 - exp(-G t / C))
/// ```
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

#[test]
fn driven_coulomb_contact_heats_a_capacity_as_the_first_order_closed_form() {
    let out = run(&parse(DRIVEN));
    let (fc, n, v, c, g, ta) = (0.3, 250.0, 0.4, 120.0, 2.5, 293.15);
    let p = fc * n * v;
    let t = out.series("t");
    let temp = out.series("T.pad");
    let flow = out.series("Q.pad-air");
    let air = out.series("T.air");
    let mut worst = 0.0f64;
    for i in 0..t.len() {
        let rise = (p / g) * (1.0 - (-g * t[i] / c).exp());
        // relative to the rise (stricter than to the absolute temperature)
        if t[i] > 0.0 {
            worst = worst.max(((temp[i] - ta) - rise).abs() / rise);
        }
        assert!((flow[i] - g * (temp[i] - ta)).abs() <= 1e-12 * p, "Q at t = {}", t[i]);
        assert_eq!(air[i], ta);
    }
    assert!(worst < 1e-9, "temperature rise off by {worst:.3e} relative");
    assert_eq!(out.units[out.columns.iter().position(|c| c == "T.pad").unwrap()], "K");
    assert_eq!(out.units[out.columns.iter().position(|c| c == "Q.pad-air").unwrap()], "W");
    // the heat: stored C (T - Ta) in the pad, the rest absorbed by the air;
    // together the contact's dissipation P t_end
    let e = &out.energy;
    let stored = e.thermal.iter().find(|h| h.0 == "pad").unwrap().1;
    let absorbed = e.thermal.iter().find(|h| h.0 == "air").unwrap().1;
    let t_end = 200.0;
    let rise = (p / g) * (1.0 - (-g * t_end / c).exp());
    assert!((stored - c * rise).abs() < 1e-8 * c * rise, "stored {stored} vs {}", c * rise);
    assert!((stored + absorbed - p * t_end).abs() < 1e-8 * p * t_end, "{stored} + {absorbed}");
    assert!(e.residual.abs() < 1e-8 * p * t_end, "residual {}", e.residual);
}

/// A mass sliding to rest on a Coulomb contact and a damper, both heating
/// one insulated capacity: all its kinetic energy ends as heat, `C ΔT =
/// m v0² / 2`, and the energy balance with heat closes.
#[test]
fn a_mass_sliding_to_rest_heats_an_insulated_capacity_by_its_kinetic_energy() {
    let text = r#"
[[body]]
name = "m"
mass = 2.0
v0 = 3.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 4.0 }
heat = "block"
[[damper]]
between = ["m", "ground"]
coefficient = 1.5
heat = "block"
[[thermal]]
name = "block"
capacity = 0.5
T0 = 300.0
[solver]
t_end = 3.0
rtol = 1e-10
"#;
    let out = run(&parse(text));
    let ke0 = 0.5 * 2.0 * 9.0;
    let rise = out.last("T.block") - 300.0;
    assert!((0.5 * rise - ke0).abs() < 1e-7 * ke0, "C ΔT = {} vs {ke0}", 0.5 * rise);
    assert_eq!(out.last("v.m"), 0.0);
    let e = &out.energy;
    assert!(e.residual.abs() < 1e-7 * ke0, "residual {}", e.residual);
}

fn refused(text: &str) -> String {
    match scenario::parse(text, "bad.toml", Path::new(".")) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

const BASE: &str = r#"
[[body]]
name = "m"
mass = 1.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
HEAT
[solver]
t_end = 1.0
"#;

#[test]
fn bad_thermal_input_is_refused_with_the_key_named() {
    let with = |heat: &str, rest: &str| format!("{}{rest}", BASE.replace("HEAT", heat));
    let node = "[[thermal]]\nname = \"pad\"\ncapacity = 10.0\nT0 = 293.15\n";
    for (text, want) in [
        (with("", "[[thermal]]\nname = \"pad\"\ncapacity = -1.0\nT0 = 293.15\n"), "`capacity` = -1"),
        (with("", "[[thermal]]\nname = \"pad\"\ncapacity = 1.0\nT0 = 0.0\n"), "`T0` = 0"),
        (with("", "[[thermal]]\nname = \"pad\"\ncapacity = 1.0\n"), "missing key `T0`"),
        (with("", "[[thermal]]\nname = \"air\"\nfixed = 293.15\ncapacity = 1.0\n"), "`fixed`"),
        (with("heat = \"pda\"", node), "`heat` = \"pda\" is not a thermal node (did you mean \"pad\"?)"),
        (with("heat = \"pad\"", ""), "there is no [[thermal]] node"),
        (with("", &format!("{node}[[conduction]]\nbetween = [\"pad\", \"air\"]\nconductance = 1.0\n")), "`between` = \"air\""),
        (with("", &format!("{node}[[conduction]]\nbetween = [\"pad\", \"pad\"]\nconductance = 1.0\n")), "the same node twice"),
        (with("", &format!("{node}[[thermal]]\nname = \"air\"\nfixed = 290.0\n[[conduction]]\nbetween = [\"pad\", \"air\"]\nconductance = -2.0\n")), "`conductance` = -2"),
        (with("", &format!("{node}{node}")), "used twice among the thermal nodes"),
    ] {
        let msg = refused(&text);
        assert!(msg.contains(want), "expected {want:?} in: {msg}");
        assert!(msg.contains("bad.toml:"), "no line in: {msg}");
    }
}

/// A scenario without thermal keys runs exactly as before they existed:
/// `examples/fmu_contact_lugre.toml`'s `timeseries.csv` is byte for byte
/// the one written at commit 263ac3d, before the thermal network (all 23
/// examples were compared so when it was added). Regenerate the file only
/// for a deliberate change of the engine's numerics.
#[test]
fn a_scenario_without_thermal_keys_writes_the_csv_it_wrote_before_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sys = scenario::load(&root.join("../../examples/fmu_contact_lugre.toml")).unwrap();
    assert!(sys.thermal.is_empty());
    let dir = std::env::temp_dir().join(format!("friction-heat-bits-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    friction_sim::run::run_to_dir(&sys, &dir, None, None).unwrap();
    let got = std::fs::read(dir.join("timeseries.csv")).unwrap();
    let want = std::fs::read(root.join("tests/data/fmu_contact_lugre_263ac3d.csv")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(got == want, "the CSV changed ({} bytes, {} before)", got.len(), want.len());
}

/// Every method integrates the temperatures with the mechanics (the
/// implicit ones through the exact Jacobian's temperature rows): the
/// closed form of the driven contact to 1e-7 of the rise at rtol 1e-10.
#[test]
fn every_method_follows_the_closed_form_temperature() {
    let (p, c, g, ta) = (0.3 * 250.0 * 0.4, 120.0, 2.5, 293.15);
    for method in ["bdf", "tr_bdf2", "esdirk34", "tsit45", "radau5", "dop853", "rodas5p"] {
        let text = DRIVEN.replace("rtol = 1e-12", &format!("rtol = 1e-10\nmethod = \"{method}\""));
        let out = run(&parse(&text));
        let t = out.series("t");
        let temp = out.series("T.pad");
        for i in 1..t.len() {
            let rise = (p / g) * (1.0 - (-g * t[i] / c).exp());
            let err = ((temp[i] - ta) - rise).abs() / rise;
            assert!(err < 1e-7, "{method}: {err:.2e} relative at t = {}", t[i]);
        }
    }
}

/// The builder's thermal methods give the system the scenario file gives
/// (equal `Debug` forms, every field), and its messages for bad input.
#[test]
fn builder_and_scenario_file_give_the_same_thermal_system() {
    use friction_sim::{CoulombParams, Ground, Schedule, SolverSettings};
    let mut s = SolverSettings::with_t_end(200.0);
    s.output_dt = Some(1.0);
    s.rtol = 1e-12;
    let build = |g: f64, heat: &str| {
        System::builder("scenario")
            .driver("w", Schedule::Ramp { rate: 0.4, offset: 0.0, start: 0.0 })
            .contact_with_normal("c", ("w", Ground), CoulombParams { fc: 0.3, fs: None }, 250.0)
            .thermal("pad", 120.0, 293.15)
            .ambient("air", 293.15)
            .conduction("pad-air", "pad", "air", g)
            .heat("c", heat)
            .solver(s.clone())
            .build()
    };
    let from_file = parse(DRIVEN);
    assert_eq!(format!("{:?}", build(2.5, "pad").unwrap()), format!("{from_file:?}"));
    let msg = build(-2.0, "pad").unwrap_err().to_string();
    assert!(msg.contains("`conductance` = -2 is out of range"), "{msg}");
    let msg = build(2.5, "pda").unwrap_err().to_string();
    assert!(msg.contains("`heat` = \"pda\" is not a thermal node (did you mean \"pad\"?)"), "{msg}");
}

/// The driven contact of [`DRIVEN`] with a friction coefficient falling
/// linearly with its temperature, `fc(T) = a + b (T - Tr)` (fade): the
/// temperature obeys the linear ODE
///
/// ```text
/// C dT/dt = N v (a + b (T - Tr)) - G (T - Ta) = C (β T + α)
/// T(t) = T* + (T0 - T*) exp(β t),  T* = -α / β
/// ```
///
/// given as a linear law and as a two-point table spanning the run's
/// temperatures (the same line); the force column follows `-N fc(T)`.
#[test]
fn a_friction_coefficient_linear_in_temperature_gives_the_linear_odes_closed_form() {
    let (n, v, c, g, ta) = (250.0, 0.4, 120.0, 2.5, 293.15);
    let (a, b, tr) = (0.4, -1e-3, 293.15);
    let beta = (n * v * b - g) / c;
    let alpha = (n * v * (a - b * tr) + g * ta) / c;
    let t_star = -alpha / beta;
    let fc = |temp: f64| a + b * (temp - tr);
    for law in [
        format!("{{ ref = {tr}, value = {a}, slope = {b} }}"),
        format!("{{ at = [[250.0, {}], [400.0, {}]] }}", fc(250.0), fc(400.0)),
    ] {
        let text = DRIVEN.replace("params = { fc = 0.3 }", &format!("params = {{ fc = {law} }}"));
        let out = run(&parse(&text));
        let t = out.series("t");
        let temp = out.series("T.pad");
        let force = out.series("F.c");
        let mut worst = 0.0f64;
        for i in 1..t.len() {
            let exact = t_star + (ta - t_star) * (beta * t[i]).exp();
            worst = worst.max(((temp[i] - ta) - (exact - ta)).abs() / (exact - ta));
            assert!((force[i] + n * fc(temp[i])).abs() < 1e-9 * n * a, "{law}: F at t = {}", t[i]);
        }
        assert!(worst < 1e-9, "{law}: temperature rise off by {worst:.3e} relative");
        assert!(out.energy.residual.abs() < 1e-8 * out.energy.work_drivers, "{law}: {}", out.energy.residual);
        // the coefficient fades: the rise ends below the constant coefficient's P / G
        assert!(out.last("T.pad") - ta < n * v * a / g);
    }
}

#[test]
fn bad_temperature_laws_are_refused_with_the_parameter_named() {
    let with = |params: &str, heat: &str| {
        format!(
            "{}[[thermal]]\nname = \"pad\"\ncapacity = 10.0\nT0 = 293.15\n",
            BASE.replace("model = \"coulomb\"", &format!("model = \"coulomb\"\nparams = {params}"))
                .replace("HEAT", heat)
        )
    };
    let h = "heat = \"pad\"";
    for (text, want) in [
        (
            with("{ fc = { at = [[300.0, 0.4], [300.0, 0.3]] } }", h),
            "`fc`: `at`: the temperatures must increase strictly",
        ),
        (with("{ fc = { at = [[300.0, 0.4], [290.0, 0.3]] } }", h), "290 K follows 300 K"),
        (with("{ fc = { at = [[300.0, 0.4]] } }", h), "at least 2"),
        (with("{ fc = { at = [[300.0, 0.4], [400.0, -0.1]] } }", h), "`fc` at a temperature of its law"),
        (with("{ fc = { ref = 300.0, value = 0.4 } }", h), "missing key `slope`"),
        (with("{ fc = { ref = 300.0, value = 0.4, slope = -1e-3, max = 2 } }", h), "unknown key `max`"),
        // with `fs`, fc rises above it towards 0 K
        (
            with("{ fc = { ref = 300.0, value = 0.4, slope = -1e-3 }, fs = 0.5 }", h),
            "`fc` = 0.7 at T = 0 K (its temperature law): model `coulomb`: parameter `fs` = 0.5: must be >= fc",
        ),
        (with("{ fc = { ref = 300.0, value = 0.4, slope = -1e-3 } }", ""), "needs `heat = \"NODE\"`"),
    ] {
        let msg = refused(&text);
        assert!(msg.contains(want), "expected {want:?} in: {msg}");
        assert!(msg.contains("bad.toml:"), "no line in: {msg}");
    }
    let msg = refused(
        &BASE
            .replace(
                "model = \"coulomb\"",
                "model = \"lugre\"\nparams = { fc = { ref = 300.0, value = 0.4, slope = 0.0 } }",
            )
            .replace("HEAT", ""),
    );
    assert!(msg.contains("needs `heat = \"NODE\"`"), "{msg}");
}

fn example(name: &str) -> Outcome {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name);
    run(&scenario::load(&path).unwrap_or_else(|e| panic!("{e}")))
}

/// The balance's residual relative to the larger of the work in and the
/// dissipation (`summary.json`'s `residual_relative`).
fn relative_residual(out: &Outcome) -> f64 {
    let e = &out.energy;
    e.residual.abs() / e.dissipated_total().abs().max(e.work_forces.abs() + e.work_drivers.abs())
}

/// `examples/clutch_fade.toml`: twenty engagements, each locking, each
/// slipping longer than the one before as the plates heat and the
/// coefficient fades; the energy balance with heat closes to 1e-6.
#[test]
fn clutch_fade_slips_longer_shift_after_shift() {
    let out = example("clutch_fade.toml");
    let mut slips = Vec::new();
    let mut start = None;
    for e in out.events.iter().filter(|e| e.contact == "clutch") {
        if e.from == "free" {
            start = Some(e.t);
        } else if e.to == "stuck" {
            slips.push(e.t - start.take().expect("a lock without an engagement"));
        }
    }
    assert_eq!(slips.len(), 20, "{slips:?}");
    assert!(slips.windows(2).all(|w| w[1] > w[0]), "{slips:?}");
    assert!(slips[19] > 1.3 * slips[0], "{slips:?}");
    assert!(relative_residual(&out) < 1e-6, "{}", relative_residual(&out));
    // the plates' heat: stored plus given to the air is what the clutch dissipated
    let q: f64 = out.energy.thermal.iter().map(|h| h.1).sum();
    let clutch = out.energy.contacts[0].1;
    assert!((q - clutch).abs() < 1e-6 * clutch, "{q} vs {clutch}");
}

/// `examples/downhill_brake.toml`: the discs heat, the brake fades and the
/// vehicle speeds up from 8 m/s; the brake force is always `N fc(T)` of
/// the table; the energy balance with heat closes to 1e-6.
#[test]
fn downhill_brake_fades_and_the_vehicle_speeds_up() {
    let out = example("downhill_brake.toml");
    let v = out.series("v.car");
    let temp = out.series("T.discs");
    let force = out.series("F.brake");
    assert!(v.windows(2).all(|w| w[1] >= w[0]) && temp.windows(2).all(|w| w[1] >= w[0]));
    assert!(v[v.len() - 1] > 16.0 && temp[temp.len() - 1] > 550.0);
    for (f, t) in force.iter().zip(&temp) {
        let fc = 0.45 + (0.30 - 0.45) * (t.min(700.0) - 293.15) / (700.0 - 293.15);
        assert!((f + 1600.0 * fc).abs() < 1e-9 * 1600.0, "F = {f} at T = {t}");
    }
    assert!(relative_residual(&out) < 1e-6, "{}", relative_residual(&out));
}

/// The builder's temperature law gives the system of the scenario file's
/// `fc = { ref, value, slope }`, and the parser's message for a law on a
/// contact without a heat node.
#[test]
fn builder_temperature_law_gives_the_scenario_files_system() {
    use friction_sim::system::thermal::TempLaw;
    use friction_sim::{CoulombParams, Ground, Schedule, SolverSettings};
    let mut s = SolverSettings::with_t_end(200.0);
    s.output_dt = Some(1.0);
    s.rtol = 1e-12;
    let law = TempLaw::Linear { reference: 293.15, value: 0.4, slope: -1e-3 };
    let build = |heat: bool| {
        let b = System::builder("scenario")
            .driver("w", Schedule::Ramp { rate: 0.4, offset: 0.0, start: 0.0 })
            .contact_with_normal("c", ("w", Ground), CoulombParams { fc: 0.3, fs: None }, 250.0)
            .thermal("pad", 120.0, 293.15)
            .ambient("air", 293.15)
            .conduction("pad-air", "pad", "air", 2.5)
            .temperature_law("c", "fc", law.clone())
            .solver(s.clone());
        if heat { b.heat("c", "pad") } else { b }.build()
    };
    let text = DRIVEN
        .replace("params = { fc = 0.3 }", "params = { fc = { ref = 293.15, value = 0.4, slope = -1e-3 } }");
    assert_eq!(format!("{:?}", build(true).unwrap()), format!("{:?}", parse(&text)));
    let msg = build(false).unwrap_err().to_string();
    assert!(msg.contains("needs `heat = \"NODE\"`"), "{msg}");
}
