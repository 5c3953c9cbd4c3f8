//! The compliant one-sided contact `[[gap]]` (Modelica's ElastoGap) against
//! closed forms and an independent integration: the undamped linear bounce
//! (half a period in contact, out at -v0, deepest at v0 / ω), the damped
//! bounce's restitution with the damping force limited by the spring force
//! (a fine RK4 of the contact phase written here), rest under a constant
//! force at (F / c)^(1/n), the energy balance, and the refused inputs.

use std::f64::consts::PI;
use std::path::Path;

use friction_sim::scenario::{self, Method};
use friction_sim::{simulate, GapSpec, Ground, Outcome, SolverSettings, System};

fn parse(text: &str) -> System {
    scenario::parse(text, "gap.toml", Path::new(".")).unwrap_or_else(|e| panic!("{e}"))
}

fn run(sys: &System) -> Outcome {
    let out = simulate(sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

fn col(out: &Outcome, name: &str, t: f64) -> f64 {
    let i = out.col(name).unwrap();
    let r = out
        .rows
        .iter()
        .find(|r| (r[0] - t).abs() <= 1e-12 * (1.0 + t))
        .unwrap_or_else(|| panic!("no row at {t}"));
    r[i]
}

/// A mass `m` at x0 = `x0` moving at `v0` (< 0) toward a floor at x = 0
/// (`between = ["ground", "m"]`).
fn bounce(m: f64, c: f64, d: f64, n: f64, x0: f64, v0: f64, solver: &str) -> String {
    format!(
        "[[body]]\nname = \"m\"\nmass = {m}\nx0 = {x0}\nv0 = {v0}\n\
         [[gap]]\nname = \"floor\"\nbetween = [\"ground\", \"m\"]\nstiffness = {c}\ndamping = {d}\nexponent = {n}\n\
         [solver]\n{solver}"
    )
}

/// Linear and undamped: in contact for exactly half a period π sqrt(m/c),
/// deepest at a quarter period with penetration v0 sqrt(m/c), out at -v0
/// (and at an eighth, sin(π/4) of that deep);
/// read at those instants (`output_times`) and after the flight that
/// follows, to 1e-8, with every method that integrates it.
#[test]
fn undamped_linear_bounce_lasts_half_a_period_and_returns_the_speed() {
    let (m, c, v0, x0): (f64, f64, f64, f64) = (2.0, 800.0, -1.0, 0.5);
    let w = (c / m).sqrt();
    let t1 = x0 / -v0;
    let half = PI / w;
    let t_end = t1 + half + 0.3;
    for method in ["dop853", "radau5", "bdf", "tsit45"] {
        let text = bounce(
            m,
            c,
            0.0,
            1.0,
            x0,
            v0,
            &format!("t_end = {t_end}\nmethod = \"{method}\"\nrtol = 1e-12\natol = 1e-14\nmax_step = 0.01\n"),
        );
        let mut sys = parse(&text);
        sys.solver.output_times = Some(vec![t1, t1 + 0.25 * half, t1 + 0.5 * half, t1 + half, t_end]);
        let out = run(&sys);
        let tol = 1e-8;
        let err = [
            (col(&out, "x.m", t1) - 0.0).abs(),
            (col(&out, "x.m", t1 + 0.25 * half) - v0 / w * (PI / 4.0).sin()).abs(),
            (col(&out, "v.m", t1 + 0.5 * half) - 0.0).abs(),
            (col(&out, "x.m", t1 + 0.5 * half) - v0 / w).abs(),
            (col(&out, "x.m", t1 + half) - 0.0).abs(),
            (col(&out, "v.m", t1 + half) + v0).abs(),
            (col(&out, "x.m", t_end) - 0.3 * -v0).abs(),
            (col(&out, "v.m", t_end) + v0).abs(),
            (col(&out, "F.floor", t1 + 0.5 * half) - c * -v0 / w).abs() / (c * -v0 / w),
        ];
        let worst = err.iter().fold(0.0f64, |a, &b| a.max(b));
        println!("{method}: worst error {worst:.2e}, {} steps", out.stats.steps);
        assert!(worst < tol, "{method}: errors {err:?}");
        // nothing dissipated, nothing stored at the end: the balance closes
        assert!(out.energy.gaps[0].1.abs() < 1e-12, "{method}: {:?}", out.energy.gaps);
        assert!(out.energy.residual.abs() < 1e-9, "{method}: residual {}", out.energy.residual);
    }
}

/// The contact phase of a damped linear gap, integrated here by RK4 with a
/// tiny step: MSL's law F = c p + clamp(d ṗ, -c p, c p), p = -x. Returns
/// the speed when the mass leaves (x = 0 again) and the time in contact.
fn reference_bounce(m: f64, c: f64, d: f64, v0: f64) -> (f64, f64) {
    let acc = |x: f64, v: f64| {
        let p = -x;
        if p <= 0.0 {
            return 0.0;
        }
        let fc = c * p;
        (fc + (-d * v).clamp(-fc, fc)) / m
    };
    let h = 1e-7;
    let (mut x, mut v, mut t) = (0.0f64, v0, 0.0);
    loop {
        let (k1x, k1v) = (v, acc(x, v));
        let (k2x, k2v) = (v + 0.5 * h * k1v, acc(x + 0.5 * h * k1x, v + 0.5 * h * k1v));
        let (k3x, k3v) = (v + 0.5 * h * k2v, acc(x + 0.5 * h * k2x, v + 0.5 * h * k2v));
        let (k4x, k4v) = (v + h * k3v, acc(x + h * k3x, v + h * k3v));
        let xn = x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
        let vn = v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
        if t > 0.0 && xn >= 0.0 {
            // the last step is a free flight once the force is 0 (the
            // limiter ends the contact force before x = 0): linear in t
            let frac = -x / (xn - x);
            return (vn, t + frac * h);
        }
        (x, v, t) = (xn, vn, t + h);
    }
}

/// Damped linear gap: the force is never negative at any row (it never
/// pulls) and is 0 wherever the mass is off the floor; the restitution is
/// the fine RK4's of the limited law; the energy the damping took is the
/// kinetic energy lost, and the balance closes at rounding level.
#[test]
fn damped_bounce_never_pulls_and_has_the_restitution_of_the_limited_law() {
    let (m, c, d, v0, x0) = (1.0, 1e4, 20.0, -1.0, 0.01);
    let (v_out, t_contact) = reference_bounce(m, c, d, v0);
    let e_ref = v_out / -v0;
    // the unlimited spring-damper's restitution exp(-ζπ/sqrt(1-ζ²)) is lower:
    // the limiter lets the spring act alone at the start and at the end
    let zeta = d / (2.0 * (c * m).sqrt());
    let e_free = (-zeta * PI / (1.0 - zeta * zeta).sqrt()).exp();
    println!("restitution: limited law {e_ref:.9} (contact {t_contact:.6} s), unlimited {e_free:.9}");
    assert!(e_ref > e_free && e_ref < 1.0);
    let t1 = x0 / -v0;
    let t_end = t1 + t_contact + 0.05;
    for method in ["dop853", "radau5"] {
        let text = bounce(
            m,
            c,
            d,
            1.0,
            x0,
            v0,
            &format!(
                "t_end = {t_end}\nmethod = \"{method}\"\noutput_dt = 1e-5\nrtol = 1e-11\natol = 1e-13\n"
            ),
        );
        let out = run(&parse(&text));
        let (x, f) = (out.series("x.m"), out.series("F.floor"));
        assert!(f.iter().all(|&f| f >= 0.0), "{method}: a negative force");
        assert!(x.iter().zip(&f).all(|(&x, &f)| x < 0.0 || f == 0.0), "{method}: a force off the floor");
        assert!(f.iter().any(|&f| f > 50.0));
        // the force reaches 0 while the mass is still below the floor (the limiter)
        let early_release = x.iter().zip(&f).any(|(&x, &f)| x < -1e-6 && f == 0.0);
        assert!(early_release, "{method}: no row below the floor with the force released");
        let e = out.last("v.m") / -v0;
        println!("{method}: restitution {e:.9}, {} steps", out.stats.steps);
        assert!((e - e_ref).abs() < 1e-7, "{method}: restitution {e} against {e_ref}");
        let lost = 0.5 * m * (v0 * v0 - out.last("v.m").powi(2));
        let diss = out.energy.gaps[0].1;
        assert!((diss - lost).abs() < 1e-8 * lost, "{method}: dissipated {diss} against {lost}");
        assert!(out.energy.residual.abs() < 1e-9 * lost, "{method}: residual {}", out.energy.residual);
        let summary = friction_sim::output::summary(&parse(&text), &out);
        assert_eq!(summary["energy"]["gaps"]["floor"].as_f64(), Some(diss));
        assert!((summary["energy"]["dissipated_total"].as_f64().unwrap() - diss).abs() < 1e-15);
    }
}

/// Resting under a constant force F on a gap of exponent n, the penetration
/// is (F / c)^(1/n); the elastic energy counts with the springs' and the
/// balance closes.
#[test]
fn rest_under_a_constant_force_at_the_static_penetration() {
    for (n, c) in [(1.0, 1e4), (1.5, 1e5), (2.0, 1e7)] {
        let f: f64 = 9.81;
        let text = format!(
            "[[body]]\nname = \"m\"\nmass = 1.0\n[[force]]\non = \"m\"\nvalue = -{f}\n\
             [[gap]]\nbetween = [\"ground\", \"m\"]\nstiffness = {c}\ndamping = 40.0\nexponent = {n}\n\
             [solver]\nt_end = 5.0\nrtol = 1e-10\natol = 1e-14\n"
        );
        let out = run(&parse(&text));
        let delta = (f / c).powf(1.0 / n);
        let x = out.last("x.m");
        println!("n = {n}: penetration {:.12e} against {delta:.12e}", -x);
        assert!((x + delta).abs() < 1e-9 * delta.max(1e-3), "n = {n}: x = {x}, want {}", -delta);
        assert!(out.last("v.m").abs() < 1e-9);
        assert!((out.last("F.g0") - f).abs() < 1e-8 * f);
        let stored = c * delta.powf(n + 1.0) / (n + 1.0);
        assert!((out.energy.spring.1 - stored).abs() < 1e-8 * stored, "{:?} vs {stored}", out.energy.spring);
        let e = &out.energy;
        assert!(
            e.residual.abs() < 1e-9 * e.work_forces.abs(),
            "residual {} of {}",
            e.residual,
            e.work_forces
        );
    }
}

/// A gap between two bodies and one with a driver: the force acts on both
/// members, -F on the first and +F on the second (momentum kept), and the
/// driver's work enters the balance.
#[test]
fn gap_between_bodies_and_a_driver_keeps_momentum_and_balances() {
    let text = "[[driver]]\nname = \"wall\"\nmotion = { type = \"ramp\", rate = -0.2, offset = 0.3 }\n\
                [[body]]\nname = \"a\"\nmass = 1.0\nv0 = 1.0\n[[body]]\nname = \"b\"\nmass = 3.0\nx0 = 0.1\n\
                [[gap]]\nname = \"ab\"\nbetween = [\"a\", \"b\"]\nlength = 0.05\nstiffness = 1e4\ndamping = 5.0\n\
                [[gap]]\nname = \"bw\"\nbetween = [\"b\", \"wall\"]\nlength = 0.02\nstiffness = 2e4\ndamping = 1.0\nexponent = 1.5\n\
                [solver]\nt_end = 1.0\nrtol = 1e-10\natol = 1e-13\n";
    let sys = parse(text);
    for method in [Method::Dop853, Method::Radau5, Method::Bdf] {
        let mut sys = sys.clone();
        sys.solver.method = method;
        let out = run(&sys);
        // until b meets the wall, momentum is kept
        let (ta, tb) = (out.series("t"), out.series("F.bw"));
        let first_wall = ta.iter().zip(&tb).find(|(_, &f)| f > 0.0).map(|(t, _)| *t).unwrap();
        assert!(out.series("F.ab").iter().any(|&f| f > 0.0), "{method:?}: a never reaches b");
        for (i, &t) in ta.iter().enumerate() {
            if t < first_wall - 1e-3 {
                let p = out.rows[i][out.col("v.a").unwrap()] + 3.0 * out.rows[i][out.col("v.b").unwrap()];
                assert!((p - 1.0).abs() < 1e-8, "{method:?}: momentum {p} at {t}");
            }
        }
        let e = &out.energy;
        let diss: f64 = e.gaps.iter().map(|g| g.1).sum();
        assert!(diss > 0.0);
        let tol = if method == Method::Bdf { 1e-5 } else { 1e-8 };
        assert!(e.residual.abs() < tol * e.kinetic.0, "{method:?}: residual {} ({e:?})", e.residual);
    }
}

/// Bad input is refused with the file, the line, the key, the value and
/// the valid range; the builder gives the same message.
#[test]
fn bad_gaps_are_refused_with_file_line_key_value_and_range() {
    let base = "[[body]]\nname = \"m\"\nmass = 1.0\n[[contact]]\nname = \"c\"\nbetween = [\"m\", \"ground\"]\nmodel = \"coulomb\"\n";
    let cases = [
        ("stiffness = -5.0\n", 10, "gap \"g0\": `stiffness` = -5 is out of range; valid range (0, inf)"),
        ("stiffness = 0.0\n", 10, "`stiffness` = 0 is out of range; valid range (0, inf)"),
        (
            "stiffness = 1.0\nexponent = 0.5\n",
            11,
            "gap \"g0\": `exponent` = 0.5 is out of range; valid range [1, inf)",
        ),
        ("stiffness = 1.0\ndamping = -1.0\n", 11, "`damping` = -1 is out of range; valid range [0, inf)"),
        ("stiffness = 1.0\nlength = nan\n", 11, "`length` = NaN is not finite"),
        ("", 8, "gap \"g0\": missing key `stiffness`"),
    ];
    for (keys, line, want) in cases {
        let text = format!("{base}[[gap]]\nbetween = [\"ground\", \"m\"]\n{keys}[solver]\nt_end = 1.0\n");
        let err = scenario::parse(&text, "bad.toml", Path::new(".")).unwrap_err().to_string();
        assert!(err.contains("bad.toml") && err.contains(&format!("bad.toml:{line}:")), "line {line}: {err}");
        assert!(err.contains(want), "`{want}` not in: {err}");
    }
    let unknown =
        format!("{base}[[gap]]\nbetween = [\"ground\", \"mm\"]\nstiffness = 1.0\n[solver]\nt_end = 1.0\n");
    let err = scenario::parse(&unknown, "bad.toml", Path::new(".")).unwrap_err().to_string();
    assert!(
        err.contains("unknown member \"mm\"") && err.contains("did you mean") && err.contains(":9"),
        "{err}"
    );
    let twice = format!("{base}[[gap]]\nname = \"c\"\nbetween = [\"ground\", \"m\"]\nstiffness = 1.0\n[solver]\nt_end = 1.0\n");
    let err = scenario::parse(&twice, "bad.toml", Path::new(".")).unwrap_err().to_string();
    assert!(err.contains("gap name \"c\" is used twice"), "{err}");
    let key =
        format!("{base}[[gap]]\nbetween = [\"ground\", \"m\"]\nstifness = 1.0\n[solver]\nt_end = 1.0\n");
    let err = scenario::parse(&key, "bad.toml", Path::new(".")).unwrap_err().to_string();
    assert!(err.contains("unknown field `stifness`") && err.contains("stiffness"), "{err}");
    // the builder: the same messages
    let build = |spec: GapSpec, end: &str| {
        System::builder("b")
            .body("m", 1.0)
            .gap("g", (Ground, end), spec)
            .solver(SolverSettings::with_t_end(1.0))
            .build()
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    let e = build(GapSpec::new(-5.0), "m").unwrap_err();
    assert!(e.contains("gap \"g\": `stiffness` = -5 is out of range; valid range (0, inf)"), "{e}");
    let e = build(GapSpec::new(1.0).exponent(0.9), "m").unwrap_err();
    assert!(e.contains("`exponent` = 0.9 is out of range; valid range [1, inf)"), "{e}");
    let e = build(GapSpec::new(1.0), "n").unwrap_err();
    assert!(e.contains("unknown member \"n\""), "{e}");
    assert!(build(GapSpec::new(1.0).damping(2.0).length(0.1), "m").is_ok());
}

/// The builder's gap is the file's: same system, same run.
#[test]
fn builder_gap_equals_the_file_gap() {
    let text = bounce(1.0, 1e4, 20.0, 1.5, 0.01, -1.0, "t_end = 0.1\n");
    let file = parse(&format!("name = \"b\"\n{text}"));
    let mut s = SolverSettings::with_t_end(0.1);
    s.rtol = file.solver.rtol;
    let built = System::builder("b")
        .body_at("m", 1.0, 0.01, -1.0)
        .gap("floor", (Ground, "m"), GapSpec::new(1e4).damping(20.0).exponent(1.5))
        .solver(s)
        .build()
        .unwrap();
    let (a, b) = (run(&file), run(&built));
    assert_eq!(a.columns, b.columns);
    assert_eq!(a.units, b.units);
    assert_eq!(a.rows, b.rows);
    assert_eq!(a.columns.last().map(String::as_str), Some("F.floor"));
    assert_eq!(a.units.last().map(String::as_str), Some("N"));
}

/// A gap between rotational parts (a backlash side) has a torque column;
/// one joining a rotational and a translational part is refused.
#[test]
fn rotational_gaps_have_torque_columns_and_kinds_must_match() {
    let text = "[[body]]\nname = \"w\"\nkind = \"rotational\"\nmass = 0.01\nv0 = 1.0\n\
                [[gap]]\nname = \"tooth\"\nbetween = [\"w\", \"ground\"]\nlength = -0.1\nstiffness = 100.0\n\
                [solver]\nt_end = 0.5\n";
    let sys = parse(text);
    let units = friction_sim::units::column_units(&sys);
    let cols = friction_sim::engine::columns(&sys);
    assert_eq!(cols.last().map(String::as_str), Some("F.tooth"));
    assert_eq!(units.last().map(String::as_str), Some("N m"));
    let out = run(&sys);
    // the wheel turns to 0.1 rad, is pushed back, and turns away at -1 rad/s
    assert!((out.last("v.w") + 1.0).abs() < 1e-6, "{}", out.last("v.w"));
    let mixed =
        "[[body]]\nname = \"w\"\nkind = \"rotational\"\nmass = 0.01\n[[body]]\nname = \"m\"\nmass = 1.0\n\
                 [[gap]]\nbetween = [\"w\", \"m\"]\nstiffness = 100.0\n[solver]\nt_end = 0.5\n";
    let err = scenario::parse(mixed, "mixed.toml", Path::new(".")).unwrap_err().to_string();
    assert!(err.contains("mixed.toml:9") && err.contains("gap \"g0\": `between` joins"), "{err}");
}
