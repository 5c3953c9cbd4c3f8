//! Nonlinear modes with `coulomb` contacts (true stick, the dynamic
//! Lagrangian method): the stuck mode as a constrained eigenproblem, and
//! the backbone against a Jenkins element, which a slider of vanishing mass
//! behind a spring is.

use std::f64::consts::PI;

use friction_hb::nnm::{nnm, NnmOptions};
use friction_sim::{CoulombParams, Ground, JenkinsParams, SolverSettings, System};

/// The two angular frequencies of `det(K - ω² M) = 0` for a diagonal M, in
/// closed form.
fn eig2(m1: f64, m2: f64, k11: f64, k12: f64, k22: f64) -> [f64; 2] {
    let (a, b, c) = (m1 * m2, -(m1 * k22 + m2 * k11), k11 * k22 - k12 * k12);
    let d = (b * b - 4.0 * a * c).sqrt();
    [((-b - d) / (2.0 * a)).sqrt(), ((-b + d) / (2.0 * a)).sqrt()]
}

fn log_space(a1: f64, a2: f64, n: usize) -> Vec<f64> {
    (0..n).map(|i| a1 * (a2 / a1).powf(i as f64 / (n - 1) as f64)).collect()
}

/// `tests/hb_nnm.rs`'s jointed structure (base 0.05 kg on 1e5 N/m, tip
/// 0.02 kg on 4e5 N/m, mass-proportional damping α = 2 /s), its joint on
/// the base either a Jenkins element (kt = 1e5 N/m, slip force 1 N) or,
/// with `slider = Some(mass)`, a spring kt to a slider of that mass held to
/// the ground by `coulomb` (Fc = 1 N).
fn jointed(slider: Option<f64>) -> System {
    let b = System::builder("jointed")
        .body("base", 0.05)
        .body("tip", 0.02)
        .spring("k1", ("base", Ground), 1e5)
        .spring("k2", ("tip", "base"), 4e5)
        .damper("c1", ("base", Ground), 2.0 * 0.05)
        .damper("c2", ("tip", Ground), 2.0 * 0.02);
    let b = match slider {
        None => b.contact("joint", ("base", Ground), JenkinsParams { kt: 1e5, fs: 1.0, theta: 1.0 }),
        Some(m) => b
            .body("slider", m)
            .spring("kt", ("base", "slider"), 1e5)
            .damper("cs", ("slider", Ground), 2.0 * m)
            .contact("joint", ("slider", Ground), CoulombParams { fc: 1.0, fs: None }),
    };
    b.solver(SolverSettings::with_t_end(1.0)).build().unwrap()
}

/// A Jenkins element is a spring in series with a slider of no mass. With
/// the slider's mass 1e-6 of the base's, its own mode lies near 200 kHz,
/// far above the harmonics, and its inertia changes the joint's force by
/// about `m ω² / kt` (2e-7). Stuck, the slider is held: the linear mode is
/// the constrained one (the 2x2 eigenfrequency with k1 + kt, 263 Hz, to
/// 1e-10), and so are the backbone's stuck points (1e-8). Through micro-slip
/// to gross slip the two backbones agree within the truncation at H = 7.
#[test]
fn a_coulomb_slider_behind_a_spring_has_the_jenkins_element_s_backbone() {
    let stuck = eig2(0.05, 0.02, 1e5 + 1e5 + 4e5, -4e5, 4e5)[0] / (2.0 * PI);
    let opts = NnmOptions {
        body: Some("tip".into()),
        amplitudes: log_space(1e-7, 3e-2, 25),
        harmonics: 7,
        ..Default::default()
    };
    let jenkins = nnm(&jointed(None), &opts).unwrap();
    let coulomb = nnm(&jointed(Some(0.05e-6)), &opts).unwrap();
    assert!((coulomb.linear_f / stuck - 1.0).abs() < 1e-10, "{} vs {stuck}", coulomb.linear_f);
    assert!((coulomb.linear_zeta * 4.0 * PI * stuck / 2.0 - 1.0).abs() < 1e-10, "ζ = α/(2ω)");
    let (mut df, mut dz): (f64, f64) = (0.0, 0.0);
    for (j, c) in jenkins.points.iter().zip(&coulomb.points) {
        eprintln!(
            "A = {:.3e} m: Jenkins {:.6} Hz ζ {:.5e}, coulomb slider {:.6} Hz ζ {:.5e}",
            j.amplitude, j.f, j.zeta, c.f, c.zeta
        );
        df = df.max((c.f / j.f - 1.0).abs());
        dz = dz.max((c.zeta - j.zeta).abs() / j.zeta);
    }
    eprintln!("largest differences: frequency {df:.3e}, damping ratio {dz:.3e}");
    let first = &coulomb.points[0];
    assert!((first.f / stuck - 1.0).abs() < 1e-8, "stuck: {} Hz vs {stuck} Hz", first.f);
}

#[test]
fn scratch_convergence() {
    for h in [7, 15, 31, 63] {
        let opts = NnmOptions {
            body: Some("tip".into()),
            amplitudes: log_space(1e-7, 3e-2, 25),
            harmonics: h,
            ..Default::default()
        };
        let jenkins = nnm(&jointed(None), &opts).unwrap();
        let coulomb = match nnm(&jointed(Some(std::env::var("SM").map_or(0.05e-6, |v| v.parse().unwrap()))), &opts) { Ok(c) => c, Err(e) => { eprintln!("H {h}: {e}"); continue } };
        for (j, c) in jenkins.points.iter().zip(&coulomb.points) {
            eprintln!("H {h} A = {:.3e}: J {:.6} {:.6e} C {:.6} {:.6e}", j.amplitude, j.f, j.zeta, c.f, c.zeta);
        }
    }
}

#[test]
fn scratch_frf() {
    use friction_sim::Schedule;
    let m = 0.01;
    let amp: f64 = std::env::var("FA").map_or(0.05, |v| v.parse().unwrap());
    let sys = System::builder("jointed")
        .body("base", 0.05)
        .body("tip", 0.02)
        .spring("k1", ("base", Ground), 1e5)
        .spring("k2", ("tip", "base"), 4e5)
        .damper("c1", ("base", Ground), 2.0 * 0.05)
        .damper("c2", ("tip", Ground), 2.0 * 0.02)
        .body("slider", m)
        .spring("kt", ("base", "slider"), 1e5)
        .damper("cs", ("slider", Ground), 2.0 * m)
        .contact("joint", ("slider", Ground), CoulombParams { fc: 1.0, fs: None })
        .force("p", "tip", Schedule::Sine { amplitude: amp, frequency: 200.0, phase: 0.0, offset: 0.0 })
        .solver(SolverSettings::with_t_end(1.0))
        .build()
        .unwrap();
    let opts = friction_hb::frf::FrfOptions { f_min: 150.0, f_max: 300.0, harmonics: Some(15), ..Default::default() };
    match friction_hb::frf::frf(&sys, "p", &opts) {
        Ok(r) => {
            let top = r.points.iter().map(|p| (p.f, p.coefficients[31 + 1].hypot(p.coefficients[31 + 2]))).fold((0.0, 0.0), |a, b| if b.1 > a.1 { b } else { a });
            eprintln!("frf ok: {} points, peak {:?}", r.points.len(), top);
        }
        Err(e) => eprintln!("frf failed: {e}"),
    }
}
