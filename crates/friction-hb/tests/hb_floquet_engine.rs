//! The Floquet exponents of a frequency-response point against our own
//! engine: two time integrations started on the periodic solution and a
//! little off it approach each other at the rate of the slowest exponent.

#[path = "support/decay.rs"]
mod decay;

use std::f64::consts::PI;

use friction_hb::floquet::Monodromy;
use friction_hb::frf::solve_at;
use friction_hb::problem::Problem;
use friction_hb::structure::Structure;
use friction_sim::{
    simulate, AnyModel, Ground, JenkinsParams, LuGreParams, Schedule, SolverSettings, System,
};

const H: usize = 9;
const SAMPLES: usize = 512;
const OUT_PER_PERIOD: usize = 200;

/// 1 kg on 1e4 N/m and 1 N s/m with a joint to the ground, forced by 2 N at
/// `f` Hz, started at `x0`, `v0`.
fn sdof(joint: &AnyModel, f: f64, x0: f64, v0: f64, t_end: f64) -> System {
    let mut s = System::builder("sdof")
        .body("m", 1.0)
        .spring("k", ("m", Ground), 1e4)
        .damper("c", ("m", Ground), 1.0)
        .contact("j", ("m", Ground), joint.clone())
        .force("p", "m", Schedule::Sine { amplitude: 2.0, frequency: f, phase: 0.0, offset: 0.0 })
        .solver(SolverSettings {
            output_dt: Some(1.0 / f / OUT_PER_PERIOD as f64),
            rtol: 1e-10,
            ..SolverSettings::with_t_end(t_end)
        })
        .build()
        .unwrap();
    s.bodies[0].x0 = x0;
    s.bodies[0].v0 = v0;
    s
}

/// The slowest exponent's real part by the monodromy, and the engine's
/// rate: the least-squares slope of ln max|x_b - x_a| per period, over the
/// periods where that distance is between 2e-8 and 2e-6 m (after the faster
/// exponents have died out, before the integrations' own error floor of
/// about 1e-9 m), for a run started on the periodic solution and one
/// started 20 µm off it.
fn rates(joint: &AnyModel, f: f64) -> (f64, f64, usize) {
    let st = Structure::from_system(&sdof(joint, f, 0.0, 0.0, 1.0), "p").unwrap();
    let x = solve_at(&st, f, H, SAMPLES, None).unwrap();
    let mut p = Problem::new(st, H, SAMPLES);
    let w = 2.0 * PI * f;
    let e = Monodromy::new(&p).unwrap().exponents(&mut p, &x, w).unwrap();
    let x0: f64 = x[0] + (1..=H).map(|k| x[2 * k - 1]).sum::<f64>();
    let v0: f64 = (1..=H).map(|k| k as f64 * w * x[2 * k]).sum::<f64>();
    let a = simulate(&sdof(joint, f, x0, v0, 10.0)).unwrap();
    let b = simulate(&sdof(joint, f, x0 + 2e-5, v0, 10.0)).unwrap();
    let (ia, ib) = (a.col("x.m").unwrap(), b.col("x.m").unwrap());
    let d: Vec<f64> = a.rows.iter().zip(&b.rows).map(|(r, q)| (r[ia] - q[ib]).abs()).collect();
    let (slope, fitted) = decay::decay_rate(&d, OUT_PER_PERIOD, f, (2e-8, 2e-6));
    (e[0].0, slope, fitted)
}

/// A Jenkins joint (kt = 1e4 N/m, slip force 1 N) below, at and above
/// resonance: the slowest exponent of the monodromy is the engine's rate to
/// 5 % (measured: 0.01 to 2.9 %), from -0.42 1/s (slower than the dashpot
/// alone, -c/2m = -0.5 1/s: the joint, stuck most of the period, takes
/// damping away as it switches) to -14 1/s; and LuGre (Canudas de Wit et
/// al. 1995, default parameters) likewise (0.2 to 2.8 %). Hill's method
/// ([`friction_hb::stability`]) gave -0.5 1/s, the dashpot's
/// rate, at every one of the Jenkins points.
#[test]
fn slowest_floquet_exponent_is_the_rate_at_which_the_engines_motions_converge() {
    let jenkins = AnyModel::try_from(JenkinsParams { kt: 1e4, fs: 1.0, theta: 1.0 }).unwrap();
    let lugre = AnyModel::try_from(LuGreParams::default()).unwrap();
    for (name, joint, freqs) in [
        ("jenkins", &jenkins, &[10.15, 10.3, 15.0, 17.0, 20.0, 25.0][..]),
        ("lugre", &lugre, &[15.86, 17.64, 20.36][..]),
    ] {
        for &f in freqs {
            let (mono, engine, periods) = rates(joint, f);
            println!("{name} {f} Hz: monodromy {mono:.4}, engine {engine:.4} 1/s over {periods} periods");
            assert!(periods >= 5, "{name} at {f} Hz: {periods} periods to fit");
            assert!(
                (engine / mono - 1.0).abs() < 0.05,
                "{name} at {f} Hz: monodromy {mono}, engine {engine}"
            );
        }
    }
}
