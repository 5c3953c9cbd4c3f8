//! The typed builder against the scenario parser: the same examples built
//! both ways give equal systems and equal simulation results, and the same
//! mistakes give the same messages (the file adds its name and line).

use std::path::Path;

use friction_sim::schedule::Schedule;
use friction_sim::StribeckShape;
use friction_sim::{
    simulate, CoulombParams, Ground, LuGreParams, SimError, SolverSettings, StribeckParams, System,
};

fn load(name: &str) -> System {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name);
    friction_sim::scenario::load(&p).unwrap()
}

fn parse(text: &str) -> Result<System, SimError> {
    friction_sim::scenario::parse(text, "t.toml", Path::new("."))
}

/// The message of an input error, without the file and line.
fn message(e: SimError) -> String {
    match e {
        SimError::Input { message, .. } => message,
        other => panic!("expected an input error, found {other}"),
    }
}

fn solver(t_end: f64, output_dt: f64, rtol: f64, atol: [f64; 3], max_step: f64) -> SolverSettings {
    SolverSettings {
        output_dt: Some(output_dt),
        rtol,
        atol_position: atol[0],
        atol_velocity: atol[1],
        atol_state: atol[2],
        max_step,
        ..SolverSettings::with_t_end(t_end)
    }
}

fn lugre_stick_slip() -> System {
    System::builder("lugre_stick_slip")
        .driver("puller", Schedule::Ramp { rate: 0.1, offset: 0.0, start: 0.0 })
        .body("m", 1.0)
        .spring("spring0", ("m", "puller"), 2.0)
        .contact(
            "c",
            ("m", Ground),
            LuGreParams { shape: StribeckShape::Exponential { exponent: 2.0 }, ..Default::default() },
        )
        .solver(solver(20.0, 0.005, 1e-6, [1e-9, 1e-8, 1e-11], 0.05))
        .build()
        .unwrap()
}

fn clutch() -> System {
    System::builder("clutch")
        .body("j1", 1.0)
        .body("j2", 1.0)
        .force("T1", "j1", 20.0)
        .damper("drag", ("j2", Ground), 10.0)
        .contact_with_normal(
            "clutch",
            ("j1", "j2"),
            CoulombParams { fc: 50.0, fs: None },
            Schedule::Pulse { value: 1.0, from: 1.0, to: 2.0, base: 0.0 },
        )
        .solver(solver(3.0, 0.001, 1e-9, [1e-10, 1e-10, 1e-10], 0.3))
        .build()
        .unwrap()
}

fn stick_slip_stops() -> System {
    let stribeck = StribeckParams {
        fc: 1.0,
        fs: 1.5,
        vs: 1e-3,
        kv: 0.0,
        shape: StribeckShape::Exponential { exponent: 2.0 },
    };
    System::builder("stick_slip_stops")
        .driver("drive", Schedule::Sine { amplitude: 0.05, frequency: 0.25, phase: 0.0, offset: 0.0 })
        .body("plastic", 1.0)
        .body("bouncy", 1.0)
        .spring("k_plastic", ("plastic", "drive"), 100.0)
        .spring("k_bouncy", ("bouncy", "drive"), 100.0)
        .contact("plastic", ("plastic", Ground), stribeck)
        .contact("bouncy", ("bouncy", Ground), stribeck)
        .stop("plastic", -0.03, 0.03, 0.0)
        .stop("bouncy", -0.025, 0.025, 0.5)
        .solver(solver(7.0, 0.001, 1e-9, [1e-12, 1e-12, 1e-10], 0.01))
        .build()
        .unwrap()
}

fn ball_on_compliant_floor() -> System {
    System::builder("ball_on_compliant_floor")
        .body_at("ball", 0.1, 0.05, 0.0)
        .force("gravity", "ball", -0.981)
        .gap("floor", (Ground, "ball"), friction_sim::GapSpec::new(1e6).damping(20.0).exponent(1.5))
        .solver(solver(1.0, 1e-4, 1e-9, [1e-12, 1e-10, 1e-10], 0.1))
        .build()
        .unwrap()
}

#[test]
fn builder_and_scenario_file_give_equal_systems() {
    for (file, built) in [
        ("ball_on_compliant_floor.toml", ball_on_compliant_floor()),
        ("lugre_stick_slip.toml", lugre_stick_slip()),
        ("clutch.toml", clutch()),
        ("stick_slip_stops.toml", stick_slip_stops()),
    ] {
        // System holds models without PartialEq; their Debug form lists every field
        assert_eq!(format!("{:?}", load(file)), format!("{built:?}"), "{file}");
    }
}

#[test]
fn builder_and_scenario_file_give_equal_results() {
    // short runs of two of them: every row of every column identical
    for (file, built) in [("clutch.toml", clutch()), ("stick_slip_stops.toml", stick_slip_stops())] {
        let mut a = load(file);
        let mut b = built;
        a.solver.t_end = 2.5;
        b.solver.t_end = 2.5;
        let (ra, rb) = (simulate(&a).unwrap(), simulate(&b).unwrap());
        assert_eq!(ra.columns, rb.columns, "{file}");
        assert!(ra.rows.len() > 100, "{file}");
        assert_eq!(ra.rows, rb.rows, "{file}");
        assert_eq!(ra.events.len(), rb.events.len(), "{file}");
    }
}

const BASE: &str = "[[body]]\nname = \"m\"\nmass = 1.0\n";

#[test]
fn builder_and_scenario_file_give_the_same_messages() {
    let s = || SolverSettings::with_t_end(1.0);
    let cases: Vec<(String, Result<System, SimError>)> = vec![
        (
            "[[body]]\nname = \"m\"\nmass = -1.0\n[solver]\nt_end = 1.0\n".into(),
            System::builder("scenario").body("m", -1.0).solver(s()).build(),
        ),
        (
            format!("{BASE}[[spring]]\nname = \"k\"\nbetween = [\"m\", \"q\"]\nstiffness = 1.0\n[solver]\nt_end = 1.0\n"),
            System::builder("scenario").body("m", 1.0).spring("k", ("m", "q"), 1.0).solver(s()).build(),
        ),
        (
            format!("{BASE}[[damper]]\nname = \"d\"\nbetween = [\"m\", \"m\"]\ncoefficient = 1.0\n[solver]\nt_end = 1.0\n"),
            System::builder("scenario").body("m", 1.0).damper("d", ("m", "m"), 1.0).solver(s()).build(),
        ),
        (
            format!(
                "{BASE}[[contact]]\nname = \"c\"\nbetween = [\"m\", \"ground\"]\nmodel = \"lugre\"\n\
                 params = {{ fc = -1.0 }}\n[solver]\nt_end = 1.0\n"
            ),
            System::builder("scenario")
                .body("m", 1.0)
                .contact("c", ("m", Ground), LuGreParams { fc: -1.0, ..Default::default() })
                .solver(s())
                .build(),
        ),
        (
            format!("{BASE}[[stop]]\nbody = \"m\"\nmin = 0.5\nmax = 1.0\n[solver]\nt_end = 1.0\n"),
            System::builder("scenario").body("m", 1.0).stop("m", 0.5, 1.0, 0.0).solver(s()).build(),
        ),
        (
            format!("{BASE}[[force]]\nname = \"f\"\non = \"ground\"\nvalue = 1.0\n[solver]\nt_end = 1.0\n"),
            System::builder("scenario").body("m", 1.0).force("f", "ground", 1.0).solver(s()).build(),
        ),
        (
            format!("{BASE}[solver]\nt_end = 1.0\nrtol = 2.0\n"),
            System::builder("scenario")
                .body("m", 1.0)
                .solver(SolverSettings { rtol: 2.0, ..s() })
                .build(),
        ),
        (
            format!("{BASE}[solver]\nt_end = 1.0\nstates = [\"cc\"]\n"),
            System::builder("scenario")
                .body("m", 1.0)
                .solver(s())
                .states(friction_sim::StateColumns::Names(vec!["cc".into()]))
                .build(),
        ),
    ];
    for (text, built) in cases {
        let from_file = message(parse(&text).unwrap_err());
        let from_builder = message(built.unwrap_err());
        assert_eq!(from_file, from_builder, "{text}");
    }
}

#[test]
fn builder_without_solver_settings_is_refused() {
    let e = System::builder("x").body("m", 1.0).build().unwrap_err();
    assert!(message(e).contains("missing solver settings"));
}

#[test]
fn stribeck_peak_below_coulomb_level_warns_and_still_builds() {
    let sys = System::builder("w")
        .body("m", 1.0)
        .contact("c", ("m", Ground), LuGreParams { fc: 1.0, fs: 0.5, ..Default::default() })
        .solver(SolverSettings::with_t_end(1.0))
        .build()
        .unwrap();
    let w = sys.warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("contact \"c\"") && w[0].contains("`fs` = 0.5") && w[0].contains("`fc` = 1"),
        "{w:?}"
    );
    assert!(lugre_stick_slip().warnings().is_empty());
}
