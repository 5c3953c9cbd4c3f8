use super::*;

/// The derivative returned with each signal matches a central difference of its value.
#[test]
fn derivatives_match_finite_differences() {
    let scheds = [
        Schedule::Sine { amplitude: 2.0, frequency: 3.0, phase: 0.4, offset: 1.0 },
        Schedule::Chirp { amplitude: 1.0, f0: 1.0, f1: 5.0, duration: 2.0, offset: 0.0 },
        Schedule::VelocitySine { bias: 0.1, amplitude: 0.5, frequency: 2.0, offset: 0.0 },
        Schedule::Haversine { amplitude: 3.0, duration: 0.5, start: 0.1 },
        Schedule::Points { points: vec![0.0, 1.0, -1.0], speed: 2.0 },
        Schedule::Sawtooth { amplitude: 2.0, period: 0.5, offset: 1.0, start: 0.0 },
        Schedule::Sum {
            terms: vec![
                Schedule::Sine { amplitude: 2.0, frequency: 3.0, phase: 0.4, offset: 1.0 },
                Schedule::Haversine { amplitude: 3.0, duration: 5.0, start: 0.1 },
            ],
        },
        Schedule::Product {
            factors: vec![
                Schedule::Sine { amplitude: 2.0, frequency: 3.0, phase: 0.4, offset: 1.0 },
                Schedule::VelocitySine { bias: 0.1, amplitude: 0.5, frequency: 2.0, offset: 0.3 },
                Schedule::Ramp { rate: 0.5, offset: 1.0, start: 0.0 },
            ],
        },
        Schedule::Window {
            start: 0.1,
            end: 3.0,
            inner: Box::new(Schedule::Product {
                factors: vec![
                    Schedule::Chirp { amplitude: 1.0, f0: 1.0, f1: 5.0, duration: 2.0, offset: 0.0 },
                    Schedule::Sum {
                        terms: vec![
                            Schedule::Constant { value: 2.0 },
                            Schedule::Ramp { rate: 1.0, offset: 0.0, start: 0.0 },
                        ],
                    },
                ],
            }),
        },
    ];
    for s in &scheds {
        for t in [0.13, 0.37, 0.71, 1.33, 2.9] {
            let h = 1e-6;
            let fd = (s.value(t + h) - s.value(t - h)) / (2.0 * h);
            let fd2 = (s.eval(t + h).1 - s.eval(t - h).1) / (2.0 * h);
            let (_, d, dd) = s.eval(t);
            assert!((fd - d).abs() < 1e-5 * (1.0 + d.abs()), "{s:?} at {t}: {fd} vs {d}");
            assert!((fd2 - dd).abs() < 1e-4 * (1.0 + dd.abs()), "{s:?} at {t}: {fd2} vs {dd}");
        }
    }
}

/// The bounds of a composed signal enclose its values, and its rate
/// bounds its rates, at many times.
#[test]
fn composed_bounds_enclose_the_signal() {
    let s = Schedule::Sum {
        terms: vec![
            Schedule::Product {
                factors: vec![
                    Schedule::Sine { amplitude: 2.0, frequency: 3.0, phase: 0.4, offset: -1.0 },
                    Schedule::Ramp { rate: -0.5, offset: 1.0, start: 0.2 },
                ],
            },
            Schedule::Window { start: 0.5, end: 1.5, inner: Box::new(Schedule::Constant { value: -4.0 }) },
            Schedule::Square { amplitude: 1.0, period: 0.3, duty: 0.2, offset: 0.5, start: 0.1 },
        ],
    };
    let (lo, hi) = s.bounds(3.0);
    let (d1, d2) = s.rate_bounds(3.0);
    for i in 0..=3000 {
        let (x, v, a) = s.eval(i as f64 * 1e-3);
        assert!(lo <= x && x <= hi, "{x} outside [{lo}, {hi}]");
        assert!(v.abs() <= d1 && a.abs() <= d2, "rates {v}, {a} above {d1}, {d2}");
    }
    assert!(hi - lo < 20.0, "[{lo}, {hi}]");
}

#[test]
fn points_visit_turning_points_at_the_right_times() {
    let s = Schedule::Points { points: vec![0.0, 2e-5, -1e-5], speed: 1e-4 };
    assert_eq!(s.breakpoints(10.0), vec![0.2, 0.5]);
    assert!((s.value(0.2) - 2e-5).abs() < 1e-18);
    assert!((s.value(0.5) + 1e-5).abs() < 1e-18);
    assert_eq!(s.value(0.7), -1e-5);
}

#[test]
fn bad_inputs_name_key_and_value() {
    let parse = |s: &str| {
        let t: toml::Table = toml::from_str(s).unwrap();
        Schedule::from_toml(&t, "force \"f\" value", Path::new(".")).unwrap_err()
    };
    let e = parse("type = \"input\"\nname = \"u\"\nstart = 0\nquantity = \"position\"");
    assert!(e.contains("quantity") && e.contains("position") && e.contains("\"velocity\""), "{e}");
    let e = parse("type = \"input\"\nname = \"a/b\"\nstart = 0");
    assert!(e.contains("`name`") && e.contains("a/b"), "{e}");
    let e = parse("type = \"input\"\nname = \"u\"");
    assert!(e.contains("missing key `start`"), "{e}");
    let e = parse("type = \"input\"\nname = \"u\"\nstart = 1\noffset = 2");
    assert!(e.contains("offset") && e.contains("velocity"), "{e}");
}

/// Two inputs of one name would be one FMU variable: refused with the
/// line and the name.
#[test]
fn input_names_are_unique_per_scenario() {
    let text = "[[body]]\nname = \"m\"\nmass = 1.0\n\
                [[force]]\non = \"m\"\nvalue = { type = \"input\", name = \"u\", start = 0 }\n\
                [[contact]]\nbetween = [\"m\", \"ground\"]\nmodel = \"coulomb\"\n\
                normal = { type = \"input\", name = \"u\", start = 1 }\n[solver]\nt_end = 1.0\n";
    let e = crate::scenario::parse(text, "s.toml", Path::new(".")).unwrap_err().to_string();
    assert!(e.contains("s.toml:10") && e.contains("\"u\" is used twice"), "{e}");
}

/// A velocity input integrates: continuous position, the rate jumping
/// where it is set; in `friction run` (never set) it is a ramp.
#[test]
fn velocity_input_integrates_what_it_holds() {
    let u = InputSignal::new("v", 2.0, InputQuantity::Velocity, 1.0);
    let s = Schedule::Input(u.clone());
    assert_eq!(s.bounds(3.0), (1.0, 7.0));
    u.set(1.0, -1.0);
    u.set(2.0, 0.5);
    assert_eq!(s.eval(4.0), (3.0 - 1.0 + 1.0, 0.5, 0.0));
    u.reset();
    assert_eq!(s.eval(1.0), (3.0, 2.0, 0.0));
}

#[test]
fn bad_schedules_name_key_value_and_range() {
    let t: toml::Table = toml::from_str("type = \"points\"\npoints = [0.0, 1.0]\nspeed = -1.0").unwrap();
    let e = Schedule::from_toml(&t, "driver `d` motion", Path::new(".")).unwrap_err();
    assert!(e.contains("speed") && e.contains("-1") && e.contains("(0, inf)"), "{e}");
    let t: toml::Table = toml::from_str("type = \"wobble\"").unwrap();
    let e = Schedule::from_toml(&t, "x", Path::new(".")).unwrap_err();
    assert!(e.contains("wobble") && e.contains("sine"), "{e}");
    let t: toml::Table = toml::from_str("type = \"sine\"\namplitude = 1\nfrequency = 2\nfreq = 3").unwrap();
    let e = Schedule::from_toml(&t, "x", Path::new(".")).unwrap_err();
    assert!(e.contains("freq"), "{e}");
}
