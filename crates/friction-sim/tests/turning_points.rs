//! Turning points that are not reversals of the slip velocity, as events
//! (`FrictionModel::turns`): `leuven`, whose hysteresis memory turns with its
//! state z (Lampaert, Swevers, Al-Bender 2002), and `gms`, whose elements
//! start to slip at their slip force (Al-Bender, Lampaert, Swevers 2005).
//! Hysteresis under a sine must not depend on the step: the memory changes
//! at the turning instant, not at the end of the step that holds it.

use std::path::Path;

use friction_sim::{scenario, simulate, Outcome};

fn run(text: &str) -> Outcome {
    let sys = scenario::parse(text, "turning_points.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// ∫ F v_rel dt of contact `name` over the run.
fn work(out: &Outcome, name: &str) -> f64 {
    out.energy.contacts.iter().find(|c| c.0 == name).unwrap().1
}

/// A contact `c` driven through a sine of amplitude `amp` \[m\] at `freq`
/// \[Hz\] for `cycles` cycles, `solver` the extra `[solver]` lines.
fn sine_scenario(model: &str, params: &str, amp: f64, freq: f64, cycles: f64, solver: &str) -> String {
    format!(
        r#"
[[driver]]
name = "u"
motion = {{ type = "sine", amplitude = {amp:e}, frequency = {freq:e} }}
[[contact]]
name = "c"
between = ["u", "ground"]
model = "{model}"
params = {params}
[solver]
t_end = {t_end:e}
{solver}
"#,
        t_end = cycles / freq
    )
}

/// The energy dissipated by contact `c` over the fourth cycle of a sine
/// (from the third on the loop is steady), as the difference of the work
/// over four and over three cycles.
fn cycle_dissipation(model: &str, params: &str, amp: f64, freq: f64, solver: &str) -> f64 {
    let o4 = run(&sine_scenario(model, params, amp, freq, 4.0, solver));
    println!(
        "  {model} {amp:e} [{solver}]: {} steps, {} rejected, {} turning points",
        o4.stats.steps, o4.stats.rejected, o4.stats.events_reversals
    );
    let w4 = work(&o4, "c");
    let w3 = work(&run(&sine_scenario(model, params, amp, freq, 3.0, solver)), "c");
    w4 - w3
}

/// The absolute tolerances at a hundredth of the defaults.
const ATOL_100: &str = "atol = { position = 1e-11, velocity = 1e-11, state = 1e-12 }";

/// The dissipation per cycle at rtol 1e-3, 1e-4 and the default 1e-6,
/// relative to that at a hundredth of the default tolerances (rtol 1e-8,
/// atol / 100): the three relative differences (printed with the figures).
fn step_dependence(what: &str, model: &str, params: &str, amp: f64, freq: f64) -> [f64; 3] {
    let reference = cycle_dissipation(model, params, amp, freq, &format!("rtol = 1e-8\n{ATOL_100}"));
    assert!(reference > 0.0, "{what}: loops dissipate");
    let rel = ["rtol = 1e-3", "rtol = 1e-4", ""].map(|s| {
        let e = cycle_dissipation(model, params, amp, freq, s);
        println!("{what} [{s}]: dissipation per cycle {e:.9e} J");
        (e - reference).abs() / reference
    });
    println!("{what}: reference {reference:.9e} J; relative differences at rtol 1e-3, 1e-4, 1e-6: {rel:?}");
    rel
}

const LEUVEN: &str =
    "{ elements = [[4e4, 0.2], [2e4, 0.3], [1e4, 0.4], [5e3, 0.6]], fc = 1.0, fs = 1.4, vs = 1e-3 }";

const GMS: &str =
    "{ elements = [[3e4, 0.1], [2e4, 0.15], [1.5e4, 0.2], [1e4, 0.25], [8e3, 0.3]], sigma2 = 0.0 }";

/// Leuven under a sine, in pre-sliding (amplitude 3e-5 m: two of the four
/// elements slip at each turning point of z) and through gross sliding
/// (1e-3 m at 1 Hz: z also turns where the Stribeck curve falls below Fh).
/// The bug: the sliders moved at the ends of steps, so a turning point of z
/// inside a step left them where the step began, and the loop's area
/// depended on the step: at rtol 1e-3 (a few tens of steps per cycle) the
/// dissipation per cycle was 3.9e-3 (pre-sliding) and 1.2e-3 (gross
/// sliding) off the converged value, now 3.4e-4 and 7.6e-4; at the
/// default tolerances it is within 1e-4 of it.
#[test]
fn leuven_loop_dissipation_does_not_depend_on_the_step() {
    for (amp, what) in [(3e-5, "leuven pre-sliding"), (1e-3, "leuven gross sliding")] {
        let rel = step_dependence(what, "leuven", LEUVEN, amp, 1.0);
        assert!(rel[0] < 1e-3 && rel[2] < 1e-4, "{what}: relative differences {rel:?}");
    }
}

/// GMS under a sine, in pre-sliding (4e-5 m: the four stiffest of five
/// elements slip) and through gross sliding (1e-3 m at 1 Hz). The bug: an
/// element that reached its slip force inside a step was recorded slipping
/// only at the step's end, and in between fell back to sticking whenever
/// s(v) rose above its force: at rtol 1e-3 the dissipation per cycle was
/// 2.5e-3 (pre-sliding) and 2.5e-2 (gross sliding) off the converged value,
/// now 1.6e-3 and 3.9e-3; at the default tolerances it is within 1e-4.
#[test]
fn gms_loop_dissipation_does_not_depend_on_the_step() {
    for (amp, what, coarse) in [(4e-5, "gms pre-sliding", 2e-3), (1e-3, "gms gross sliding", 1e-2)] {
        let rel = step_dependence(what, "gms", GMS, amp, 1.0);
        assert!(rel[0] < coarse && rel[2] < 1e-4, "{what}: relative differences {rel:?}");
    }
}

/// The column `name` of `out`.
fn col(out: &Outcome, name: &str) -> Vec<f64> {
    out.series(name)
}

/// The index of the largest (`sign` 1) or smallest (-1) of `v` over the
/// rows whose time lies in `[a, b]`.
fn extremum(t: &[f64], v: &[f64], a: f64, b: f64, sign: f64) -> usize {
    (0..t.len())
        .filter(|&i| t[i] >= a && t[i] <= b)
        .max_by(|&i, &j| (sign * v[i]).total_cmp(&(sign * v[j])))
        .unwrap()
}

/// Leuven's pre-sliding loop with an inner loop, against Masing's rules in
/// the state z, where they are exact (`Fh` is a Maxwell-slip operator on z,
/// and σ1 = σ2 = 0 so F = Fh(z)). The contact is driven by a sine (3e-5 m,
/// 1 Hz) less a haversine bump during the first descent, so z turns at the
/// top, at an inner low, at an inner high, and at the bottom; every row
/// (one per step, and one at each turning point, an event) lies on its
/// branch: from a turning point (z_r, F_r), F = F_r ∓ 2 φ(|z - z_r|/2) with
/// the virgin curve φ(z) = Σ min(k_i z, fmax_i); the inner loop closes at its
/// turning point (F back to F_lo at z_lo) and the outer branch from the top
/// is resumed beyond it (wiping out).
#[test]
fn leuven_inner_loop_closes_at_its_turning_point_in_the_state() {
    let out = inner_loop_run("");
    let elements = [[4e4, 0.2], [2e4, 0.3], [1e4, 0.4], [5e3, 0.6]];
    let virgin = |z: f64| elements.iter().map(|e| (e[0] * z).min(e[1])).sum::<f64>();
    let t = col(&out, "t");
    let z = col(&out, "z.c.0");
    // the model's force: the column is the force on the first member
    let f: Vec<f64> = col(&out, "F.c").iter().map(|x| -x).collect();
    let top = extremum(&t, &z, 0.0, 0.35, 1.0);
    let lo = extremum(&t, &z, 0.35, 0.45, -1.0);
    let hi = extremum(&t, &z, t[lo], 0.5, 1.0);
    let bottom = extremum(&t, &z, 0.5, 1.0, -1.0);
    let (zt, ft, zl, fl, zh, fh) = (z[top], f[top], z[lo], f[lo], z[hi], f[hi]);
    assert!(zh - zl > 1.2e-5, "the inner loop makes the stiffest element slip: {zl:e} .. {zh:e}");
    assert!(zl > z[bottom] + 1e-6 && zh < zt - 1e-6, "an inner loop");
    let mut worst: f64 = 0.0;
    let mut n = 0;
    for i in top..=bottom {
        let masing = if i <= lo {
            ft - 2.0 * virgin((zt - z[i]) / 2.0)
        } else if i <= hi {
            fl + 2.0 * virgin((z[i] - zl) / 2.0)
        } else if z[i] >= zl {
            fh - 2.0 * virgin((zh - z[i]) / 2.0)
        } else {
            ft - 2.0 * virgin((zt - z[i]) / 2.0)
        };
        worst = worst.max((f[i] - masing).abs());
        n += 1;
    }
    assert!(n > 20, "{n} rows");
    assert!(worst < 1e-9, "largest deviation from Masing's branches {worst:e} over {n} rows");
}

/// Leuven driven by a sine (3e-5 m, 1 Hz) less a haversine bump during the
/// first descent, one row per step and per event; `solver` extra lines.
fn inner_loop_run(solver: &str) -> Outcome {
    run(&format!(
        r#"
[[driver]]
name = "u"
motion = {{ type = "sine", amplitude = 3e-5, frequency = 1.0 }}
[[driver]]
name = "bump"
motion = {{ type = "haversine", amplitude = 3e-5, duration = 0.1, start = 0.35 }}
[[contact]]
name = "c"
between = ["u", "bump"]
model = "leuven"
params = {LEUVEN}
[solver]
t_end = 1.0
states = "all"
output = "steps"
{solver}
"#
    ))
}

/// Leuven and GMS in pre-sliding under a sine of small amplitude: the loop
/// is closed (the force at the top is the same every cycle) and symmetric
/// (the force at the bottom is minus that at the top). GMS's elements load
/// with x itself, so its loop closes from the second cycle on, and at low
/// speed (v ≪ vs, so s(v) ≈ Fs) it is Masing's loop of the Maxwell-slip
/// elements fmax_i = α_i Fs: F_top = Σ min(k_i A, α_i Fs). Leuven's state z
/// lags x by |Fh/S|^n, more on loading than on unloading, so its loop in x
/// drifts from the virgin start towards the symmetric one (the top force
/// changes by a factor of about 0.4 per cycle, 7.7e-3 N after the first):
/// after 25 cycles it is closed and symmetric to 1e-5 N.
#[test]
fn presliding_loops_under_a_sine_are_closed_and_symmetric() {
    for (model, params, amp, freq, cycles) in [("leuven", LEUVEN, 3e-5, 1.0, 25), ("gms", GMS, 4e-5, 0.1, 5)]
    {
        // the force at the same phases of the last three cycles: the tops
        // (kT + T/4) and the bottoms (kT + 3T/4) of the sine
        let period = 1.0 / freq;
        let times: Vec<f64> =
            (cycles - 3..cycles).flat_map(|k| [0.25, 0.75].map(|p| (k as f64 + p) * period)).collect();
        let text =
            sine_scenario(model, params, amp, freq, cycles as f64, &format!("rtol = 1e-9\n{ATOL_100}"));
        let mut sys = scenario::parse(&text, "turning_points.toml", Path::new(".")).unwrap();
        sys.solver.output_times = Some(times);
        let out = simulate(&sys).unwrap();
        assert!(out.failure.is_none(), "{:?}", out.failure);
        let f: Vec<f64> = col(&out, "F.c").iter().map(|x| -x).collect();
        // rows: t = 0, then the output times
        let tops: Vec<f64> = (0..3).map(|k| f[1 + 2 * k]).collect();
        let bottoms: Vec<f64> = (0..3).map(|k| f[2 + 2 * k]).collect();
        println!("{model}: tops {tops:?}, bottoms {bottoms:?}");
        for k in 0..3 {
            assert!((tops[k] - tops[2]).abs() < 1e-5, "{model}: the loop closes: {tops:?}");
            assert!((bottoms[k] + tops[k]).abs() < 1e-5, "{model}: symmetric: {tops:?} {bottoms:?}");
        }
        if model == "gms" {
            let masing = [[3e4, 0.1], [2e4, 0.15], [1.5e4, 0.2], [1e4, 0.25], [8e3, 0.3]]
                .iter()
                .map(|e: &[f64; 2]| (e[0] * amp).min(e[1] * 1.5))
                .sum::<f64>();
            assert!((tops[2] - masing).abs() < 1e-3, "gms: F_top {} vs Masing {masing}", tops[2]);
        }
    }
}
