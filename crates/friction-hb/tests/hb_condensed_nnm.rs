//! Nonlinear modes with the linear part condensed onto the joints' DOFs
//! (`hb::condensed_nnm`: the fictitious damping `-ξ M` in the modal
//! receptance) against the full balance of every DOF and against the
//! closed form of a linear bar.

#[path = "../../friction-sim/tests/support/fe_bar.rs"]
#[allow(dead_code)]
mod fe_bar;

use std::f64::consts::PI;
use std::path::PathBuf;

use fe_bar::{bar, bar_eigenvalue};
use friction_hb::condensed::condense;
use friction_hb::nnm::{nnm, NnmOptions};
use friction_hb::problem::Problem;
use friction_hb::structure::Structure;
use friction_sim::structure::matrix_market;
use friction_sim::System;
use nalgebra::DMatrix;

fn log_space(a1: f64, a2: f64, n: usize) -> Vec<f64> {
    (0..n).map(|i| a1 * (a2 / a1).powf(i as f64 / (n - 1) as f64)).collect()
}

/// A fixed-fixed bar of `ne` consistent-mass elements (first mode 500 Hz)
/// with `keys` in its `[[structure]]` table, DOF 5 watched, and a contact
/// of `model` to the ground at each of `joints`.
fn bar_system(name: &str, ne: usize, keys: &str, joints: &[usize], model: &str) -> System {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("hb_condensed_nnm_{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let (m, k) = bar(ne);
    std::fs::write(dir.join("M.mtx"), matrix_market::write(&m, "mass")).unwrap();
    std::fs::write(dir.join("K.mtx"), matrix_market::write(&k, "stiffness")).unwrap();
    let mut text = format!(
        "name = \"bar\"\n[[structure]]\nname = \"bar\"\nmass = \"M.mtx\"\nstiffness = \"K.mtx\"\nwatch = [5]\n{keys}\n"
    );
    for d in joints {
        text += &format!(
            "[[contact]]\nname = \"j{d}\"\nbetween = [\"bar:{d}\", \"ground\"]\nmodel = \"{model}\"\n\
             params = {{ kt = 2e5, fs = 2.0 }}\n"
        );
    }
    text += "[solver]\nt_end = 1.0\n";
    let path = dir.join("s.toml");
    std::fs::write(&path, text).unwrap();
    friction_sim::scenario::load(&path).unwrap()
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// A bar of 149 DOFs with Rayleigh damping and three Jenkins joints
/// (kt = 2e5 N/m, 2 N) at DOFs 20, 45 and 70, its first mode's backbone at
/// H = 3 from a tenth of the joints' slip amplitude to a hundred times it
/// (stuck, micro-slip, gross slip; the frequency falls and ζ rises then
/// falls): condensed onto 5 DOFs (35 unknowns) and balanced in full (1,043),
/// the same frequency, ζ and energy per cycle at every amplitude to 1e-8, and
/// the same coefficients of the retained DOFs to 1e-8 of the largest
/// (measured: 2.9e-13, 2.3e-12, 2.2e-12 and 7.8e-12).
#[test]
fn condensed_backbone_equals_the_full_one() {
    let sys = bar_system("jenkins", 150, "rayleigh = [20.0, 1e-6]", &[20, 45, 70], "jenkins");
    let opts = NnmOptions { amplitudes: log_space(2e-6, 2e-3, 10), harmonics: 3, ..Default::default() };
    let full = nnm(&sys, &NnmOptions { condense: Some(false), ..opts.clone() }).unwrap();
    let cond = nnm(&sys, &opts).unwrap();
    assert_eq!(full.condensed_from, None);
    assert_eq!(cond.condensed_from, Some(149));
    assert_eq!(cond.bodies, vec!["bar:5", "bar:20", "bar:45", "bar:70", "bar:77"]);
    assert_eq!(cond.body, "bar:77");
    assert_eq!(full.body, cond.body);
    assert!(rel(cond.linear_f, full.linear_f) < 1e-10, "{} {}", cond.linear_f, full.linear_f);
    let l = 2 * 3 + 1;
    let scale = full.points.iter().flat_map(|p| p.coefficients.iter()).fold(0.0f64, |m, v| m.max(v.abs()));
    let (mut wf, mut wz, mut we, mut wx) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for (c, f) in cond.points.iter().zip(&full.points) {
        wf = wf.max(rel(c.f, f.f));
        wz = wz.max(rel(c.zeta, f.zeta));
        we = we.max(rel(c.energy_per_cycle, f.energy_per_cycle));
        for (i, name) in cond.bodies.iter().enumerate() {
            let k = full.bodies.iter().position(|n| n == name).unwrap();
            for j in 0..l {
                wx = wx.max((c.coefficients[i * l + j] - f.coefficients[k * l + j]).abs() / scale);
            }
        }
    }
    eprintln!("condensed against full: f {wf:.2e}, ζ {wz:.2e}, energy {we:.2e}, coefficients {wx:.2e}");
    assert!(wf < 1e-8 && wz < 1e-8 && we < 1e-8 && wx < 1e-8, "{wf:.2e} {wz:.2e} {we:.2e} {wx:.2e}");
    // the joints slip: the frequency falls by more than 1 %, ζ triples
    let (first, last) = (&full.points[0], &full.points[full.points.len() - 1]);
    assert!(last.f < 0.99 * first.f, "{} {}", first.f, last.f);
    let top = full.points.iter().map(|p| p.zeta).fold(0.0, f64::max);
    assert!(top > 3.0 * first.zeta, "{top} {}", first.zeta);
}

/// A linear bar of 119 DOFs with Rayleigh damping C = αM + βK, condensed
/// onto its watched DOF and the prescribed body (the pole of the modal
/// receptance sits exactly on the solution): modes 1 and 2 are the bar's
/// closed-form eigenfrequencies (`fe_bar::bar_eigenvalue`) at every
/// amplitude, ξ = α + β ω² and the energy per cycle ξ π ω A² φᵀMφ, with
/// φᵀMφ of every DOF of the exact mode shape sin(kπx) of the discrete bar.
#[test]
fn condensed_linear_backbone_has_the_rayleigh_damping_in_closed_form() {
    let (alpha, beta, ne) = (20.0, 1e-6, 120);
    let sys = bar_system("linear", ne, "rayleigh = [20.0, 1e-6]", &[], "jenkins");
    for mode in [1, 2] {
        let body = if mode == 1 { "bar:59" } else { "bar:29" };
        let opts = NnmOptions {
            body: Some(body.into()),
            mode,
            amplitudes: vec![1e-6, 1e-3],
            harmonics: 3,
            condense: Some(true),
            ..Default::default()
        };
        let r = nnm(&sys, &opts).unwrap();
        assert_eq!(r.condensed_from, Some(119));
        let w = bar_eigenvalue(ne, 1.0 / ne as f64, mode).sqrt();
        let xi = alpha + beta * w * w;
        // the discrete mode: sin(kπ(i+1)/ne) at DOF i, 1 at the body
        let at = if mode == 1 { 59 } else { 29 };
        let shape = |i: usize| (mode as f64 * PI * (i + 1) as f64 / ne as f64).sin();
        let phi: Vec<f64> = (0..ne - 1).map(|i| shape(i) / shape(at)).collect();
        let h = 1.0 / ne as f64;
        let mut ptmp = 0.0;
        for i in 0..ne - 1 {
            ptmp += 4.0 * h / 6.0 * phi[i] * phi[i];
            if i + 1 < ne - 1 {
                ptmp += 2.0 * h / 6.0 * phi[i] * phi[i + 1];
            }
        }
        for p in &r.points {
            assert!(rel(p.f * 2.0 * PI, w) < 1e-9, "mode {mode}: {} Hz against {}", p.f, w / (2.0 * PI));
            assert!(rel(p.xi, xi) < 1e-9, "mode {mode}: ξ {} against {xi}", p.xi);
            assert!(rel(p.zeta, xi / (2.0 * w)) < 1e-9);
            let e = xi * PI * w * p.amplitude * p.amplitude * ptmp;
            assert!(rel(p.energy_per_cycle, e) < 1e-8, "mode {mode}: {} against {e}", p.energy_per_cycle);
        }
    }
}

/// A condensation asked for where it cannot be (a local damper, not
/// diagonal in the modes) falls back to the full balance, as the frequency
/// response's does, with the same backbone as asked in full.
#[test]
fn a_structure_that_cannot_be_condensed_keeps_the_full_balance() {
    // the matrices and scenario the damped variant is read from
    bar_system("damper", 40, "rayleigh = [20.0, 1e-6]", &[10], "jenkins");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hb_condensed_nnm_damper");
    let text = std::fs::read_to_string(dir.join("s.toml")).unwrap()
        + "[[damper]]\nbetween = [\"bar:12\", \"ground\"]\ncoefficient = 3.0\n";
    let damped = friction_sim::scenario::parse(&text, "s.toml", &dir).unwrap();
    let opts = NnmOptions { amplitudes: vec![1e-6, 1e-4], harmonics: 2, ..Default::default() };
    let asked = nnm(&damped, &NnmOptions { condense: Some(true), ..opts.clone() }).unwrap();
    let full = nnm(&damped, &NnmOptions { condense: Some(false), ..opts }).unwrap();
    assert_eq!(asked.condensed_from, None);
    for (a, b) in asked.points.iter().zip(&full.points) {
        assert!(rel(a.f, b.f) < 1e-10 && rel(a.zeta, b.zeta) < 1e-8, "{a:?} {b:?}");
    }
}

/// The condensed linear part of the periodic motion, ∂/∂x, ∂/∂ω and ∂/∂ξ,
/// equals forward differences of its residual to 1e-6, at a generic (ω, ξ)
/// and exactly on the pole of the first mode (a linear bar's backbone
/// point, where the Woodbury split carries the mode).
#[test]
fn condensed_free_motion_jacobian_equals_its_differences() {
    let sys = bar_system("jac", 60, "rayleigh = [20.0, 1e-6]", &[], "jenkins");
    let opts =
        NnmOptions { amplitudes: vec![1e-5], harmonics: 3, condense: Some(true), ..Default::default() };
    let pole = &nnm(&sys, &opts).unwrap().points[0];
    let s = Structure::unforced(&sys).unwrap();
    let mut t = s.clone();
    t.shown.extend([12, 29, 40]);
    let cs = condense(&t).unwrap();
    for (w, xi) in [(2.0 * PI * 700.0, 150.0), (2.0 * PI * pole.f, pole.xi)] {
        let mut p = Problem::new(cs.clone(), 3, 64);
        p.free_motion();
        p.xi = xi;
        let n = p.n();
        let x: Vec<f64> = (0..n).map(|i| 1e-5 * ((i as f64 * 0.7).sin() + 0.3)).collect();
        let mut jac = DMatrix::zeros(n, n + 1);
        p.jacobian(&x, w, &mut jac);
        let mut col = vec![0.0; n];
        p.add_xi_column(&x, w, &mut col);
        let (mut r0, mut r1) = (vec![0.0; n], vec![0.0; n]);
        p.residual(&x, w, &mut r0);
        let scale = jac.columns(0, n).amax();
        let mut worst = 0.0f64;
        let mut xp = x.clone();
        for j in 0..n {
            xp[j] += 1e-11;
            p.residual(&xp, w, &mut r1);
            xp[j] = x[j];
            for i in 0..n {
                worst = worst.max(((r1[i] - r0[i]) / 1e-11 - jac[(i, j)]).abs() / scale);
            }
        }
        let dw = 1e-7 * w;
        p.residual(&x, w + dw, &mut r1);
        let ws = (0..n).map(|i| jac[(i, n)].abs()).fold(0.0, f64::max);
        let ww = (0..n).map(|i| ((r1[i] - r0[i]) / dw - jac[(i, n)]).abs() / ws).fold(0.0, f64::max);
        let dxi = 1e-7 * xi;
        p.xi = xi + dxi;
        p.residual(&x, w, &mut r1);
        let xs = col.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let wx = (0..n).map(|i| ((r1[i] - r0[i]) / dxi - col[i]).abs() / xs).fold(0.0, f64::max);
        eprintln!("ω {w:.1}, ξ {xi:.2}: ∂x {worst:.2e}, ∂ω {ww:.2e}, ∂ξ {wx:.2e}");
        assert!(worst < 1e-6 && ww < 1e-5 && wx < 1e-5, "{worst:.2e} {ww:.2e} {wx:.2e}");
    }
}
