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

/// Symptom: a sawtooth with `start = -1e20` made `friction run` and
/// `friction serve` allocate gigabytes and abort: the breakpoints were
/// listed by `k += 1.0` from the first period, and above 2^53 `k` stopped
/// changing. Now the first edge comes by division from the start reduced
/// modulo the period: the edges of [0, 3] are 1 and 2, and the value rises
/// and falls back on them.
#[test]
fn sawtooth_starting_at_minus_1e20_runs_in_bounded_memory() {
    let s = Schedule::Sawtooth { amplitude: 1.0, period: 1.0, offset: 0.0, start: -1e20 };
    assert_eq!(s.breakpoints(3.0), vec![1.0, 2.0]);
    for (t, want) in [(0.0, 0.0), (0.5, 0.5), (0.999, 0.999), (1.0, 0.0), (1.5, 0.5), (2.25, 0.25)] {
        let (x, v, _) = s.eval(t);
        assert!((x - want).abs() < 1e-12 && v == 1.0, "at {t}: {x} (want {want}), rate {v}");
    }
    // a period that does not divide the start: 1e20 = 0.25 mod 0.75 exactly
    // (4e20 = 1 mod 3), so the edges fall at -0.25 = 0.5 mod 0.75: 0.5 and
    // 1.25 before t_end = 2 (the edge at 2.0 is the end itself, not listed)
    let s = Schedule::Sawtooth { amplitude: 3.0, period: 0.75, offset: 1.0, start: -1e20 };
    let r = (-1e20f64).rem_euclid(0.75);
    assert_eq!(r, 0.5);
    let b = s.breakpoints(2.0);
    assert_eq!(b.len(), 2, "{b:?}");
    assert!(b.iter().zip([r, r + 0.75]).all(|(x, y)| (x - y).abs() < 1e-15), "{b:?} from {r}");
}

/// Symptom: a square wave with `start = -1e16` aborted a run the same way
/// (2^53 < 1e16). Its edges are found by division: a rise at every whole
/// second, a fall at every half, and nothing else.
#[test]
fn square_starting_at_minus_1e16_has_its_edges_in_closed_form() {
    let s = Schedule::Square { amplitude: 1.0, period: 1.0, duty: 0.5, offset: 0.0, start: -1e16 };
    assert_eq!(s.breakpoints(3.0), vec![0.5, 1.0, 1.5, 2.0, 2.5]);
    for (t, want) in [(0.0, 1.0), (0.25, 1.0), (0.5, -1.0), (0.75, -1.0), (1.0, 1.0), (2.6, -1.0)] {
        assert_eq!(s.value(t), want, "at {t}");
    }
    let p = Schedule::PulseTrain { amplitude: 2.0, period: 0.5, duty: 0.25, offset: 0.0, start: -1e300 };
    let b = p.breakpoints(1.0);
    assert!(b.len() <= 4 && b.iter().all(|x| *x > 0.0 && *x < 1.0), "{b:?}");
}

/// Whatever `start`, `period` and `t_end`, the breakpoints are listed
/// without counting periods from `start`: at most MAX_EDGES + 2 periods,
/// each edge in (0, t_end), ascending, and at each of them the value of a
/// square wave is the value after its jump.
#[test]
fn periodic_breakpoints_are_bounded_whatever_start_period_and_t_end() {
    for start in [-1e300, -1e20, -9.007199254740993e15, -1e16 - 0.3, -3.7, 0.0, 2.5, 1e20] {
        for period in [1e-9, 1e-3, 0.3, 1.0, 7.0, 1e30] {
            for t_end in [1.0, 1e3, 1e12] {
                let s = Schedule::Square { amplitude: 1.0, period, duty: 0.3, offset: 0.0, start };
                let b = s.breakpoints(t_end);
                assert!(b.len() as f64 <= 2.0 * (MAX_EDGES + 2.0), "{start} {period} {t_end}: {}", b.len());
                assert!(b.iter().all(|x| *x > 0.0 && *x < t_end), "{start} {period} {t_end}");
                assert!(b.windows(2).all(|w| w[0] <= w[1]), "{start} {period} {t_end}: not ascending");
                if b.len() < 1000 && period >= 1e-3 {
                    for &t in &b {
                        let (at, after) = (s.value(t), s.value(t + 1e-9 * period));
                        assert_eq!(at, after, "{start} {period} {t_end}: at {t} {at}, just after {after}");
                    }
                }
            }
        }
    }
}
