//! Nonlinear modes (extended periodic motion concept) against closed forms,
//! linear limits and our own engine's free decay.

#[path = "support/common.rs"]
mod common;

use std::f64::consts::PI;

use common::{eig2, log_space};

use friction_analysis::analysis::{transient_decay, TransientOptions};
use friction_hb::nnm::{nnm, NnmOptions};
use friction_sim::{simulate, Ground, JenkinsParams, SolverSettings, System};

/// A linear chain (ground - k1 - m1 - k2 - m2) with Rayleigh damping
/// C = αM + βK built from dampers: each mode is the linear one at every
/// amplitude, its frequency the 2x2 eigenvalue and its damping ratio
/// ζ = (α + β ω²)/(2ω), to 1e-8; the energy per cycle is the damper's
/// π ω A² φᵀCφ.
#[test]
fn linear_two_body_backbone_is_flat_at_the_eigenfrequency_with_rayleigh_damping() {
    let (m1, m2, k1, k2, alpha, beta) = (1.0, 0.5, 2e4, 1e4, 0.8, 2e-5);
    let sys = System::builder("chain")
        .body("a", m1)
        .body("b", m2)
        .spring("k1", ("a", Ground), k1)
        .spring("k2", ("b", "a"), k2)
        .damper("ca", ("a", Ground), alpha * m1 + beta * k1)
        .damper("cb", ("b", Ground), alpha * m2)
        .damper("c2", ("b", "a"), beta * k2)
        .solver(SolverSettings::with_t_end(1.0))
        .build()
        .unwrap();
    let w = eig2(m1, m2, k1 + k2, -k2, k2);
    for mode in [1, 2] {
        let opts = NnmOptions {
            body: Some("b".into()),
            mode,
            amplitudes: log_space(1e-6, 1e-2, 5),
            harmonics: 3,
            ..Default::default()
        };
        let r = nnm(&sys, &opts).unwrap();
        let wm = w[mode - 1];
        let zeta = (alpha + beta * wm * wm) / (2.0 * wm);
        // mode shape at b = 1: a = (k2) / (k1 + k2 - ω² m1)
        let phi_a = k2 / (k1 + k2 - wm * wm * m1);
        for p in &r.points {
            assert!(
                (p.f * 2.0 * PI / wm - 1.0).abs() < 1e-8,
                "mode {mode}: {} Hz vs {}",
                p.f,
                wm / (2.0 * PI)
            );
            assert!((p.zeta / zeta - 1.0).abs() < 1e-8, "mode {mode}: ζ {} vs {zeta}", p.zeta);
            let a = p.amplitude;
            let ctc = (alpha * m1 + beta * k1) * (a * phi_a).powi(2)
                + alpha * m2 * a * a
                + beta * k2 * (a - a * phi_a).powi(2);
            let e = PI * wm * ctc;
            assert!((p.energy_per_cycle / e - 1.0).abs() < 1e-8, "{} vs {e}", p.energy_per_cycle);
            assert!((p.coefficients[1] / (a * phi_a) - 1.0).abs() < 1e-8);
        }
    }
}

/// The structure of examples/jointed_frf.toml with its Iwan joint replaced
/// by a Jenkins element (kt = 1e5 N/m, slip force 1 N), and its dampers by
/// mass-proportional ones (C = αM, α = 2 /s), so that the stuck and the
/// gross-slip modes are exactly periodic under `-ξ M ẋ` with ξ = α (a
/// non-proportional damper shifts the periodic motion's frequency by O(ζ²)).
fn jenkins_jointed() -> System {
    System::builder("jointed_jenkins")
        .body("base", 0.05)
        .body("tip", 0.02)
        .spring("k1", ("base", Ground), 1e5)
        .spring("k2", ("tip", "base"), 4e5)
        .damper("c1", ("base", Ground), 2.0 * 0.05)
        .damper("c2", ("tip", Ground), 2.0 * 0.02)
        .contact("joint", ("base", Ground), JenkinsParams { kt: 1e5, fs: 1.0, theta: 1.0 })
        .solver(SolverSettings::with_t_end(1.0))
        .build()
        .unwrap()
}

/// A Jenkins joint below its slip displacement (1 N / 1e5 N/m = 10 µm) is a
/// linear spring: the backbone is the stuck 2x2 eigenfrequency (k1 + kt,
/// 263 Hz) to 1e-8. Far beyond it the joint's force is bounded by 1 N while
/// the spring's grows, and the frequency falls to the 2x2 eigenfrequency
/// without the joint (188 Hz), within the describing-function estimate
/// of the remaining joint stiffness (4 fs/(π A) ≤ 0.13 % of k1 at A = 1 cm).
#[test]
fn jenkins_joint_backbone_runs_from_the_stuck_to_the_gross_slip_eigenfrequency() {
    let sys = jenkins_jointed();
    let stuck = eig2(0.05, 0.02, 1e5 + 1e5 + 4e5, -4e5, 4e5)[0] / (2.0 * PI);
    let slip = eig2(0.05, 0.02, 1e5 + 4e5, -4e5, 4e5)[0] / (2.0 * PI);
    // the base moves ~0.3 of the tip in mode 1: tip amplitude 1e-6 keeps the joint stuck
    let opts = NnmOptions {
        body: Some("tip".into()),
        amplitudes: log_space(1e-7, 3e-2, 25),
        harmonics: 7,
        ..Default::default()
    };
    let r = nnm(&sys, &opts).unwrap();
    assert!((r.linear_f / stuck - 1.0).abs() < 1e-10, "{} vs {stuck}", r.linear_f);
    let first = &r.points[0];
    assert!((first.f / stuck - 1.0).abs() < 1e-8, "stuck: {} Hz vs {stuck} Hz", first.f);
    assert!((first.zeta / r.linear_zeta - 1.0).abs() < 1e-8);
    assert!((r.linear_zeta * 4.0 * PI * stuck / 2.0 - 1.0).abs() < 1e-10, "ζ = α/(2ω): {}", r.linear_zeta);
    for p in &r.points {
        eprintln!("A = {:.3e} m: {:.5} Hz, ζ = {:.4e}", p.amplitude, p.f, p.zeta);
    }
    let last = r.points.last().unwrap();
    assert!(last.f > slip && (last.f / slip - 1.0).abs() < 2e-3, "gross slip: {} Hz vs {slip} Hz", last.f);
    // falls, or stays while the joint sticks: the stuck points differ by
    // where Newton's method stops (1.0e-10 measured with the analytic
    // Jacobian of the joint, below 1e-10 with differences)
    for w in r.points.windows(2) {
        assert!(
            w[1].f <= w[0].f * (1.0 + 1e-9),
            "the frequency falls with amplitude: {:?}",
            (w[0].f, w[1].f)
        );
    }
    // friction damping peaks in between, well above the viscous damping
    let zmax = r.points.iter().map(|p| p.zeta).fold(0.0, f64::max);
    assert!(zmax > 3.0 * r.linear_zeta, "{zmax} vs {}", r.linear_zeta);
}

/// examples/jointed_decay.toml integrated by the engine and analysed per
/// cycle (`friction analyze --kind transient`): the backbone's frequency at
/// each cycle's amplitude is the free decay's frequency of that cycle to
/// 0.2 % (0.06 % measured, the README's figure; the damping ratios differ by
/// up to 17 % at the largest amplitude and 3 % at 0.9 µm, as they should:
/// tests/jointed_decay_damping.rs derives and checks the factor).
#[test]
fn jointed_decay_backbone_frequency_matches_the_free_decay_per_cycle() {
    let sys =
        friction_sim::scenario::load(std::path::Path::new("../../examples/jointed_decay.toml")).unwrap();
    let out = simulate(&sys).unwrap();
    let (ti, xi) = (out.col("t").unwrap(), out.col("x.m").unwrap());
    let t: Vec<f64> = out.rows.iter().map(|r| r[ti]).collect();
    let x: Vec<f64> = out.rows.iter().map(|r| r[xi]).collect();
    let d = transient_decay(&t, &x, &TransientOptions::default()).unwrap();
    let cycles: Vec<_> = d.points.iter().step_by(4).collect();
    assert!(cycles.len() >= 8, "{} cycles", cycles.len());
    let opts = NnmOptions {
        amplitudes: cycles.iter().map(|p| p.amplitude).collect(),
        harmonics: 5,
        ..Default::default()
    };
    let r = nnm(&sys, &opts).unwrap();
    let mut worst: f64 = 0.0;
    for (c, p) in cycles.iter().zip(&r.points) {
        let e = (p.f / c.frequency - 1.0).abs();
        eprintln!(
            "A = {:.3e} m: decay {:.3} Hz ζ {:.4}, backbone {:.3} Hz ζ {:.4}",
            c.amplitude, c.frequency, c.zeta, p.f, p.zeta
        );
        worst = worst.max(e);
    }
    assert!(worst < 2e-3, "worst relative frequency difference {worst:.3e}");
}
