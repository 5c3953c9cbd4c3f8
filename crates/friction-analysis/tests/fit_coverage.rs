//! Statistical check of identification: on synthetic data from known
//! parameters with Gaussian noise of 0.5-2 % of the peak force, the true
//! parameters must fall inside the reported 95 % confidence intervals about
//! 95 % of the time, over many noise seeds, for the seven models the issue
//! names (`stribeck`, `lugre`, `dahl`, `gms`, `maxwell_slip`, `iwan4`,
//! `bouc_wen`).
//!
//! If the standard errors were wrong by a factor of two either way the
//! coverage would be about 68 % or 99.99 %; both fail the bounds below. The
//! bounds are binomial: with n (parameter, seed) trials and true coverage
//! 0.95, the count of covered trials has mean 0.95 n and standard deviation
//! sqrt(0.05 · 0.95 n); the pooled count must lie within 4 standard
//! deviations (the parameters of one fit are correlated, which widens the
//! spread a little; 4 sd keeps a false alarm far below 1e-4). Each model on
//! its own must cover at least 80 %.
//!
//! Each fit starts from the truth perturbed by up to ±10 % (seeded), so the
//! estimate is the least-squares optimum reached by the solver, not the
//! starting point.
//!
//! Measured (this file, fixed seeds): pooled 528/570 = 0.926; stribeck
//! 0.942, dahl 0.867, bouc_wen 0.867, maxwell_slip 0.922, iwan4 0.950, lugre
//! 0.975, gms 0.880. With 200 seeds maxwell_slip covers 0.937 and the
//! standardised errors (estimate - truth)/stderr have standard deviations
//! 0.93-1.07; with 50 seeds Dahl's σ0 on 120 samples shows a small-sample
//! bias of +0.35 standard errors (+0.09 on 400 samples), the cost of
//! linearised intervals for a parameter seen on a few pre-sliding samples.

use friction_analysis::data::Series;
use friction_analysis::fit::{fit, model_force, parse_params, state_tolerance, FitOptions, Motion};
use friction_analysis::synth::{gaussian, growing_sine, velocity_sweep};
use friction_models::{build, ParamMap, ParamValue};
use friction_sim::drive::DriveSettings;
use rayon::prelude::*;

struct Case {
    id: &'static str,
    truth: &'static str,
    fix: &'static [&'static str],
    motion: Motion,
    noise: f64,
}

fn cases() -> Vec<Case> {
    // loops from 2e-6 to 5e-5 m around a pre-sliding length of ~1e-5 m: 200
    // samples for the stepped operators, 120 for the models the engine
    // integrates (every sample is a corner of the motion, where the solver restarts)
    let loops = || growing_sine(1e-5, 6.0, 1.0, 200);
    let loops_ode = || growing_sine(1e-5, 4.0, 1.0, 120);
    // rate-dependent models: the same loops in 0.25 s, speeds up to ~5 vs = 5e-3 m/s
    let fast = || growing_sine(1e-5, 4.0, 0.25, 120);
    vec![
        Case {
            id: "stribeck",
            truth: "fc=1,fs=1.5,vs=0.01,kv=0.4",
            fix: &["exponent"],
            motion: velocity_sweep(1e-4, 0.3, 150),
            noise: 0.02,
        },
        Case {
            id: "dahl",
            truth: "sigma0=1e5,fc=1,exponent=1.5",
            fix: &[],
            motion: loops_ode(),
            noise: 0.005,
        },
        Case {
            id: "bouc_wen",
            truth: "a=1,beta=6e4,gamma=4e4,n=1,k=1e5",
            fix: &["a", "n"],
            motion: loops_ode(),
            noise: 0.005,
        },
        Case {
            id: "maxwell_slip",
            truth: "elements[0].k=5e4,elements[0].fmax=0.2,elements[1].k=3e4,elements[1].fmax=0.4,\
                    elements[2].k=2e4,elements[2].fmax=0.5",
            fix: &[],
            motion: loops(),
            noise: 0.01,
        },
        Case { id: "iwan4", truth: "fs=1,kt=1e5,chi=-0.5,beta=0.2", fix: &[], motion: loops(), noise: 0.01 },
        Case {
            id: "lugre",
            truth: "sigma0=1e5,fc=1,fs=1.5,vs=1e-3",
            fix: &["sigma1", "sigma2", "exponent"],
            motion: fast(),
            noise: 0.0075,
        },
        Case {
            id: "gms",
            truth: "elements[0].k=4e4,elements[0].alpha=0.5,elements[1].k=6e4,elements[1].alpha=0.5,\
                    fc=1,fs=1.5,vs=1e-3",
            fix: &["c", "sigma2", "exponent"],
            motion: fast(),
            noise: 0.0075,
        },
    ]
}

/// The value of `name` (`fc`, `elements[1].k`) in a parameter map.
fn value(map: &ParamMap, name: &str) -> f64 {
    if let Some((p, rest)) = name.split_once('[') {
        let (i, col) = rest.split_once("].").unwrap();
        let i: usize = i.parse().unwrap();
        let j = if col == "k" { 0 } else { 1 };
        let ParamValue::List(rows) = &map[p] else { panic!() };
        let ParamValue::List(c) = &rows[i] else { panic!() };
        let ParamValue::Num(x) = c[j] else { panic!() };
        return x;
    }
    match &map[name] {
        ParamValue::Num(x) => *x,
        v => panic!("{name}: {v:?}"),
    }
}

/// Set `name` in a parameter map.
fn set_value(map: &mut ParamMap, name: &str, x: f64) {
    if let Some((p, rest)) = name.split_once('[') {
        let (i, col) = rest.split_once("].").unwrap();
        let i: usize = i.parse().unwrap();
        let j = if col == "k" { 0 } else { 1 };
        let Some(ParamValue::List(rows)) = map.get_mut(p) else { panic!() };
        let ParamValue::List(c) = &mut rows[i] else { panic!() };
        c[j] = ParamValue::Num(x);
    } else {
        map.insert(name.to_string(), ParamValue::Num(x));
    }
}

/// The truth with every free parameter scaled by a seeded factor in [0.9, 1.1].
fn perturbed(truth: &ParamMap, free: &[String], seed: u64) -> ParamMap {
    let e = gaussian(1_000 + seed, free.len());
    let mut p = truth.clone();
    for (k, name) in free.iter().enumerate() {
        let f = 1.0 + 0.1 * (e[k] / 3.0).clamp(-1.0, 1.0);
        set_value(&mut p, name, value(truth, name) * f);
    }
    p
}

fn free_names(case: &Case, truth: &ParamMap) -> Vec<String> {
    let mut names = vec![];
    for (k, v) in truth {
        if case.fix.contains(&k.as_str()) {
            continue;
        }
        match v {
            ParamValue::Num(_) if !(case.id == "bouc_wen" && (k == "a" || k == "n")) => names.push(k.clone()),
            ParamValue::List(rows) => {
                for i in 0..rows.len() {
                    names.push(format!("{k}[{i}].k"));
                    if case.id == "maxwell_slip" {
                        names.push(format!("{k}[{i}].fmax"));
                    }
                }
            }
            _ => {}
        }
    }
    names
}

#[test]
fn true_parameters_fall_in_their_95_percent_intervals_95_percent_of_the_time() {
    let cases = cases();
    // many seeds where a fit costs milliseconds, fewer where the engine integrates
    let seeds = |c: &Case| if matches!(c.id, "stribeck" | "maxwell_slip" | "iwan4") { 30 } else { 10 };
    let jobs: Vec<(usize, u64)> =
        cases.iter().enumerate().flat_map(|(c, case)| (0..seeds(case)).map(move |s| (c, s))).collect();
    // per job: (case, covered, total, the misses, smallest singular value)
    // the noise-free force of each case, computed once with tight tolerances
    let clean: Vec<Vec<f64>> = cases
        .par_iter()
        .map(|case| {
            let m = build(case.id, &parse_params(case.id, case.truth).unwrap()).unwrap();
            let ds = DriveSettings {
                rtol: 1e-8,
                atol_state: state_tolerance(&m, &case.motion, &DriveSettings::default(), 1e-10),
                ..Default::default()
            };
            model_force(&m, &case.motion, &ds).unwrap()
        })
        .collect();
    let results: Vec<(usize, usize, usize, Vec<String>, f64)> = jobs
        .par_iter()
        .map(|&(c, seed)| {
            let case = &cases[c];
            let truth = parse_params(case.id, case.truth).unwrap();
            let e = gaussian(seed, clean[c].len());
            let f = clean[c].iter().zip(&e).map(|(f, e)| f + case.noise * e).collect();
            let m = &case.motion;
            let data = Series::new(case.id, m.t.clone(), Some(m.x.clone()), Some(m.v.clone()), Some(f), None)
                .unwrap();
            let free = free_names(case, &truth);
            let opts = FitOptions {
                model: case.id.into(),
                init: perturbed(&truth, &free, seed),
                free: Some(free.clone()),
                guess: false,
                ..Default::default()
            };
            let r = fit(&data, &opts, None).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", case.id));
            assert!(r.converged, "{} seed {seed}: {}", case.id, r.stop);
            // the residual RMS estimates the noise
            assert!((r.rms / case.noise - 1.0).abs() < 0.25, "{} seed {seed}: rms {}", case.id, r.rms);
            let mut covered = 0;
            let mut misses = vec![];
            for p in &r.params {
                let t = value(&truth, &p.name);
                if p.ci95[0] <= t && t <= p.ci95[1] {
                    covered += 1;
                } else {
                    misses.push(format!("{}={} not in [{}, {}]", p.name, t, p.ci95[0], p.ci95[1]));
                }
            }
            assert_eq!(r.params.len(), free.len(), "{}: {:?}", case.id, r.notes);
            (c, covered, r.params.len(), misses, r.min_singular_value)
        })
        .collect();
    let (mut cov, mut tot) = (0, 0);
    for (c, case) in cases.iter().enumerate() {
        let (k, n) = results.iter().filter(|r| r.0 == c).fold((0, 0), |a, r| (a.0 + r.1, a.1 + r.2));
        let misses: Vec<&String> = results.iter().filter(|r| r.0 == c).flat_map(|r| &r.3).collect();
        let sv = results.iter().filter(|r| r.0 == c).map(|r| r.4).fold(f64::INFINITY, f64::min);
        println!(
            "{:<13} coverage {k}/{n} = {:.3}, smallest singular value {sv:.3}",
            case.id,
            k as f64 / n as f64
        );
        assert!(k as f64 >= 0.8 * n as f64, "{}: coverage {k}/{n}; misses {misses:?}", case.id);
        cov += k;
        tot += n;
    }
    let n = tot as f64;
    let (mean, sd) = (0.95 * n, (0.05 * 0.95 * n).sqrt());
    println!(
        "pooled coverage {cov}/{tot} = {:.3} (bounds {:.0}..{:.0})",
        cov as f64 / n,
        mean - 4.0 * sd,
        mean + 4.0 * sd
    );
    assert!((cov as f64 - mean).abs() <= 4.0 * sd, "pooled coverage {cov}/{tot}");
}
