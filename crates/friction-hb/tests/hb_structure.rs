//! Harmonic balance on structures read from matrix files (`[[structure]]`):
//! the imported matrices' modes against the closed form of a finite-element
//! bar, a linear structure's response against the complex receptance, and
//! one jointed chain written as bodies and springs and as matrices.

#[path = "../../friction-sim/tests/support/fe_bar.rs"]
mod fe_bar;

use std::f64::consts::PI;
use std::path::PathBuf;

use fe_bar::{bar, bar_eigenvalue};
use friction_hb::frf::{frf, FrfOptions};
use friction_hb::nnm::{linear_modes, nnm, NnmOptions};
use friction_hb::structure::Structure;
use friction_sim::structure::matrix_market;
use friction_sim::structure::SymMatrix;
use friction_sim::System;
use nalgebra::{Complex, DMatrix, DVector};

/// A scratch directory of its own for each test.
fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("hb_structure_{name}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Write `m`, `k` as MatrixMarket files and a scenario whose structure
/// reads them, with `extra` appended; load it.
fn scenario(
    dir: &std::path::Path,
    m: &SymMatrix,
    k: &SymMatrix,
    structure_keys: &str,
    extra: &str,
) -> System {
    std::fs::write(dir.join("M.mtx"), matrix_market::write(m, "mass")).unwrap();
    std::fs::write(dir.join("K.mtx"), matrix_market::write(k, "stiffness")).unwrap();
    let text = format!(
        "name = \"s\"\n[[structure]]\nname = \"bar\"\nmass = \"M.mtx\"\nstiffness = \"K.mtx\"\n{structure_keys}\n\
         {extra}\n[solver]\nt_end = 1.0\n"
    );
    let path = dir.join("s.toml");
    std::fs::write(&path, text).unwrap();
    friction_sim::scenario::load(&path).unwrap()
}

/// The discrete eigenvalues of a fixed-fixed bar of linear elements with
/// consistent mass are known in closed form (the dispersion relation of the
/// element, e.g. Hughes 1987, "The finite element method", §9.2):
/// ω_k² = (12 EA / (ρA h²)) sin²(θ/2) / (3 - 2 sin²(θ/2)), θ = kπ/ne. The
/// matrices written to MatrixMarket, read back through a scenario and
/// solved by the Cholesky-reduced eigenproblem give them to 1e-9.
#[test]
fn imported_bar_matrices_have_the_closed_form_eigenfrequencies_to_1e_9() {
    let ne = 40;
    let (m, k) = bar(ne);
    let sys = scenario(&scratch("eig"), &m, &k, "", "");
    let s = Structure::unforced(&sys).unwrap();
    let (w, phi) = linear_modes(&s.k, &s.m);
    let h = 1.0 / ne as f64;
    let mut worst: f64 = 0.0;
    for (i, wi) in w.iter().enumerate() {
        let exact = bar_eigenvalue(ne, h, i + 1).sqrt();
        worst = worst.max((wi - exact).abs() / exact);
    }
    assert!(worst < 1e-9, "worst relative error of the eigenfrequencies {worst:.2e}");
    // and the shapes are mass-normalised
    let g = phi.transpose() * &s.m * &phi;
    assert!((g - DMatrix::identity(ne - 1, ne - 1)).norm() < 1e-9);
}

/// A linear structure from files, Rayleigh-damped (C = αM + βK), forced by
/// F sin ωt on one DOF: harmonic balance with one harmonic gives at every
/// point of its branch the complex receptance X = (K - ω²M + iωC)⁻¹ F of
/// the forced DOF and of a watched one to 1e-8, and writes only those two.
#[test]
fn linear_structure_frf_equals_the_complex_receptance_to_1e_8() {
    let (m, k) = bar(8);
    let (alpha, beta) = (3.0, 2e-5);
    let sys = scenario(
        &scratch("frf"),
        &m,
        &k,
        &format!("rayleigh = [{alpha}, {beta}]\nwatch = [5]"),
        "[[force]]\nname = \"p\"\non = \"bar:2\"\nvalue = { type = \"sine\", amplitude = 2.0, frequency = 1.0 }",
    );
    let r =
        frf(&sys, "p", &FrfOptions { f_min: 100.0, f_max: 1200.0, harmonics: Some(1), ..Default::default() })
            .unwrap();
    assert_eq!(r.bodies, vec!["bar:2", "bar:5"]);
    assert!(r.points.len() > 50, "{} points", r.points.len());
    let (md, kd) = (m.to_dense(), k.to_dense());
    let cd = &md * alpha + &kd * beta;
    let mut worst: f64 = 0.0;
    for p in &r.points {
        let w = 2.0 * PI * p.f;
        let z = DMatrix::from_fn(7, 7, |i, j| Complex::new(kd[(i, j)] - w * w * md[(i, j)], w * cd[(i, j)]));
        let mut f = DVector::from_element(7, Complex::new(0.0, 0.0));
        f[2] = Complex::new(2.0, 0.0);
        let x = z.lu().solve(&f).unwrap();
        for (col, dof) in [2usize, 5].iter().enumerate() {
            let scale = x[*dof].norm();
            worst = worst.max((p.amplitude[col] - scale).abs() / scale);
        }
    }
    assert!(worst < 1e-8, "worst relative error {worst:.3e}");
}

/// Three masses in a chain (ground - k - m1 - k - m2 - k - m3), a Jenkins
/// joint between the middle mass and the ground, forced on the last: typed
/// as bodies and springs, and as a structure whose diagonal mass and
/// tridiagonal stiffness matrices are read from files, the frequency
/// response is the same (the same equations in the same order: to 1e-10),
/// and so is the backbone of the first nonlinear mode.
#[test]
fn jointed_chain_as_bodies_and_as_matrices_gives_the_same_frf_and_backbone() {
    let (mass, kk) = (0.5, 2e4);
    let bodies = friction_sim::scenario::parse(
        &format!(
            "name = \"chain\"\n\
             [[body]]\nname = \"a\"\nmass = {mass}\n[[body]]\nname = \"b\"\nmass = {mass}\n[[body]]\nname = \"c\"\nmass = {mass}\n\
             [[spring]]\nbetween = [\"a\", \"ground\"]\nstiffness = {kk}\n\
             [[spring]]\nbetween = [\"b\", \"a\"]\nstiffness = {kk}\n\
             [[spring]]\nbetween = [\"c\", \"b\"]\nstiffness = {kk}\n\
             [[damper]]\nbetween = [\"c\", \"ground\"]\ncoefficient = 2.0\n\
             [[contact]]\nname = \"j\"\nbetween = [\"b\", \"ground\"]\nmodel = \"jenkins\"\nparams = {{ kt = 1e4, fs = 0.5 }}\n\
             [[force]]\nname = \"p\"\non = \"c\"\nvalue = {{ type = \"sine\", amplitude = 1.0, frequency = 1.0 }}\n\
             [solver]\nt_end = 1.0\n"
        ),
        "chain.toml",
        std::path::Path::new("."),
    )
    .unwrap();
    let m = SymMatrix::diagonal(&[mass; 3]);
    let k = SymMatrix::from_upper(
        3,
        vec![(0, 0, 2.0 * kk), (0, 1, -kk), (1, 1, 2.0 * kk), (1, 2, -kk), (2, 2, kk)],
    );
    let matrices = scenario(
        &scratch("chain"),
        &m,
        &k,
        "",
        "[[damper]]\nbetween = [\"bar:2\", \"ground\"]\ncoefficient = 2.0\n\
         [[contact]]\nname = \"j\"\nbetween = [\"bar:1\", \"ground\"]\nmodel = \"jenkins\"\nparams = { kt = 1e4, fs = 0.5 }\n\
         [[force]]\nname = \"p\"\non = \"bar:2\"\nvalue = { type = \"sine\", amplitude = 1.0, frequency = 1.0 }",
    );
    let opts = FrfOptions { f_min: 10.0, f_max: 60.0, harmonics: Some(5), ..Default::default() };
    let a = frf(&bodies, "p", &opts).unwrap();
    let b = frf(&matrices, "p", &opts).unwrap();
    assert_eq!(b.bodies, vec!["bar:1", "bar:2"]);
    assert_eq!(a.points.len(), b.points.len());
    let mut worst: f64 = 0.0;
    for (p, q) in a.points.iter().zip(&b.points) {
        worst = worst.max((p.f - q.f).abs() / p.f);
        // bodies b, c are the structure's DOFs 1, 2
        for (i, j) in [(1, 0), (2, 1)] {
            worst = worst.max((p.amplitude[i] - q.amplitude[j]).abs() / p.amplitude[i]);
        }
    }
    assert!(worst < 1e-10, "worst relative difference {worst:.2e}");

    let nopts = NnmOptions { amplitudes: vec![1e-5, 1e-4, 1e-3], ..Default::default() };
    let na = nnm(&bodies, &NnmOptions { body: Some("c".into()), ..nopts.clone() }).unwrap();
    let nb = nnm(&matrices, &NnmOptions { body: Some("bar:2".into()), ..nopts }).unwrap();
    for (p, q) in na.points.iter().zip(&nb.points) {
        assert!((p.f - q.f).abs() < 1e-10 * p.f && (p.zeta - q.zeta).abs() < 1e-10 + 1e-8 * p.zeta.abs());
    }
}

/// Harmonic balance's matrices are dense: a structure past
/// `MAX_DOFS` is refused before any is allocated, with the advice to reduce it.
#[test]
fn a_structure_too_large_for_dense_harmonic_balance_is_refused_with_the_advice_to_reduce() {
    let (m, k) = bar(friction_hb::structure::MAX_DOFS + 2);
    let sys = scenario(
        &scratch("large"),
        &m,
        &k,
        "",
        "[[force]]\nname = \"p\"\non = \"bar:2\"\nvalue = { type = \"sine\", amplitude = 1.0, frequency = 1.0 }",
    );
    let e =
        frf(&sys, "p", &FrfOptions { f_min: 1.0, f_max: 2.0, ..Default::default() }).unwrap_err().to_string();
    assert!(e.contains("structure \"bar\": 2001 degrees of freedom") && e.contains("reduce = {"), "{e}");
}

/// The README's jointed cantilever (`examples/fe_beam/beam.toml`: CalculiX's
/// matrices reduced to the tip and 6 modes, a Jenkins damper at the tip,
/// modal damping 0.5 %): at the peak of its frequency response, `friction
/// run` driven at that frequency settles on the same periodic motion. The
/// engine's largest |x| and fundamental amplitude of the tip over the last
/// 10 of 400 periods against harmonic balance's: within 0.5 % (measured
/// 1.5e-4 and 4.0e-4 at 82.1 Hz, where the damper slips).
#[test]
fn a_jointed_beam_s_frf_peak_is_the_engine_s_steady_state() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/fe_beam");
    let text = std::fs::read_to_string(dir.join("beam.toml")).unwrap();
    let sys = friction_sim::scenario::parse(&text, "beam.toml", &dir).unwrap();
    let opts = FrfOptions { f_min: 60.0, f_max: 110.0, ..Default::default() };
    let r = frf(&sys, "shaker", &opts).unwrap();
    let tip = r.bodies.iter().position(|b| b == "beam:337").unwrap();
    let top = r.points.iter().max_by(|a, b| a.amplitude[tip].total_cmp(&b.amplitude[tip])).unwrap();
    let f = top.f;
    let periods = 400.0;
    let per = 64.0;
    let text = text.replace("frequency = 80.0", &format!("frequency = {f}")).replace(
        "t_end = 0.1",
        &format!("t_end = {}\noutput_dt = {}\nrtol = 1e-9", periods / f, 1.0 / (f * per)),
    );
    let sys = friction_sim::scenario::parse(&text, "beam.toml", &dir).unwrap();
    let out = friction_sim::simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    let (t, x) = (out.series("t"), out.series("x.beam:337"));
    let last: Vec<usize> = (0..t.len()).filter(|&i| t[i] >= (periods - 10.0) / f - 1e-12).collect();
    let peak = last.iter().map(|&i| x[i].abs()).fold(0.0, f64::max);
    // the fundamental over the last 10 periods (whole periods of samples)
    let n = (10.0 * per) as usize;
    let w = 2.0 * PI * f;
    let idx = &last[last.len() - n..];
    let (c, s) =
        idx.iter().fold((0.0, 0.0), |(c, s), &i| (c + x[i] * (w * t[i]).cos(), s + x[i] * (w * t[i]).sin()));
    let fund = 2.0 * (c * c + s * s).sqrt() / n as f64;
    let dp = (peak - top.peak[tip]).abs() / top.peak[tip];
    let da = (fund - top.amplitude[tip]).abs() / top.amplitude[tip];
    assert!(
        dp < 5e-3 && da < 5e-3,
        "at {f:.3} Hz: engine peak {peak:.5e} against {:.5e} ({dp:.2e}), fundamental {fund:.5e} against {:.5e} ({da:.2e})",
        top.peak[tip],
        top.amplitude[tip]
    );
    eprintln!("at {f:.3} Hz: peak {dp:.2e}, fundamental {da:.2e} apart");
}

/// The README's jointed cantilever driven at its peak for 0.4 s, then
/// released: its free decay (the tip's upward zero crossings and per-cycle
/// peaks, `friction run`) against the backbone of its y-bending mode
/// (`friction nnm --mode 2`) at the same amplitude: frequency within 1 %
/// (the bound; measured 0.38 %). Where the joint holds, the decay's
/// ζ (a line fitted to the log-peaks of those cycles) is the backbone's
/// (the stuck mode's modal damping) within 3 %; where it slips (the first cycles, above 3e-5
/// m) it is printed, not held: the onset of slip changes ζ from 0.0038 to
/// 0.009 within a few cycles, and the per-cycle ratio of a softening joint
/// is not the backbone's ζ (`jointed_decay_damping.rs` shows by how much).
#[test]
fn a_jointed_beam_s_free_decay_follows_its_backbone_frequency() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/fe_beam");
    let text = std::fs::read_to_string(dir.join("beam.toml")).unwrap();
    let sys = friction_sim::scenario::parse(&text, "beam.toml", &dir).unwrap();
    let amps: Vec<f64> = (0..25).map(|i| 1e-6 * 10f64.powf(3.0 * i as f64 / 24.0)).collect();
    let bb = nnm(
        &sys,
        &NnmOptions { body: Some("beam:337".into()), mode: 2, amplitudes: amps, ..Default::default() },
    )
    .unwrap();
    let f_drive: f64 = 82.1;
    let t_off = (0.4 * f_drive).round() / f_drive;
    let t_end = t_off + 0.6;
    let text = text
        .replace(
            "value = { type = \"sine\", amplitude = 1.0, frequency = 80.0 }",
            &format!(
                "value = {{ type = \"window\", start = 0.0, end = {t_off}, inner = {{ type = \"sine\", \
                 amplitude = 4.0, frequency = {f_drive} }} }}"
            ),
        )
        .replace(
            "t_end = 0.1",
            &format!("t_end = {t_end}\noutput_dt = {}\nrtol = 1e-9", 1.0 / (f_drive * 400.0)),
        );
    let sys = friction_sim::scenario::parse(&text, "beam.toml", &dir).unwrap();
    let out = friction_sim::simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    let (t, x) = (out.series("t"), out.series("x.beam:337"));
    // upward zero crossings after the release (and a few periods of settling)
    let up: Vec<f64> = (1..t.len())
        .filter(|&i| t[i - 1] > t_off + 5.0 / f_drive && x[i - 1] < 0.0 && x[i] >= 0.0)
        .map(|i| t[i - 1] + (t[i] - t[i - 1]) * (-x[i - 1]) / (x[i] - x[i - 1]))
        .collect();
    let interp = |a: f64, get: &dyn Fn(&friction_hb::nnm::NnmPoint) -> f64| {
        let p = &bb.points;
        let k = p.windows(2).position(|w| w[0].amplitude <= a && a <= w[1].amplitude)?;
        let s = (a.ln() - p[k].amplitude.ln()) / (p[k + 1].amplitude.ln() - p[k].amplitude.ln());
        Some(get(&p[k]) + s * (get(&p[k + 1]) - get(&p[k])))
    };
    let mut worst: f64 = 0.0;
    let mut cycles = 0;
    let mut peaks = Vec::new();
    for w in up.windows(2) {
        let cyc: Vec<usize> = (0..t.len()).filter(|&i| t[i] >= w[0] && t[i] < w[1]).collect();
        let a = cyc.iter().map(|&i| x[i].abs()).fold(0.0, f64::max);
        peaks.push(a);
        let Some(fb) = interp(a, &|p| p.f) else { continue };
        let f = 1.0 / (w[1] - w[0]);
        worst = worst.max((f - fb).abs() / fb);
        cycles += 1;
    }
    assert!(cycles >= 20, "{cycles} cycles within the backbone's amplitudes; peaks {peaks:?}");
    // where the joint holds (the backbone's ζ at its least, the stuck
    // mode's modal damping), the decay's ratio over 4 cycles is the
    // backbone's ζ: the structure's modal damping in the engine and in
    // harmonic balance
    let zmin = bb.points.iter().map(|p| p.zeta).fold(f64::INFINITY, f64::min);
    // the stuck cycles' log-peaks fitted by a line (least squares: the
    // beating of the other modes averages out): ζ = -slope / 2π
    let held: Vec<(f64, f64)> = peaks
        .iter()
        .enumerate()
        .filter(|(_, &a)| interp(a, &|p| p.zeta).is_some_and(|z| z <= 1.001 * zmin))
        .map(|(k, &a)| (k as f64, a.ln()))
        .collect();
    assert!(held.len() >= 10, "{} stuck cycles", held.len());
    let n = held.len() as f64;
    let (mk, ml) = (held.iter().map(|h| h.0).sum::<f64>() / n, held.iter().map(|h| h.1).sum::<f64>() / n);
    let slope = held.iter().map(|h| (h.0 - mk) * (h.1 - ml)).sum::<f64>()
        / held.iter().map(|h| (h.0 - mk).powi(2)).sum::<f64>();
    let zd = -slope / (2.0 * PI);
    eprintln!("stuck: {} cycles, decay's ζ {zd:.5} against the backbone's {zmin:.5}", held.len());
    assert!((zd - zmin).abs() < 0.03 * zmin, "stuck: decay's ζ {zd:.5} against the backbone's {zmin:.5}");
    for k in 0..peaks.len().saturating_sub(1) {
        if interp(peaks[k], &|p| p.zeta).is_some_and(|z| z > 1.001 * zmin) {
            let d = (peaks[k] / peaks[k + 1]).ln() / (2.0 * PI);
            eprintln!("at {:.3e} m (slipping): decay's ratio {d:.4}", peaks[k]);
        }
    }
    eprintln!("{cycles} cycles, worst frequency difference {worst:.2e}");
    assert!(worst < 0.01, "free decay's frequency {worst:.2e} from the backbone's");
}
