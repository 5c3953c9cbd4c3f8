//! Nonlinear modes with `coulomb` contacts (true stick, the dynamic
//! Lagrangian method): the stuck mode as a constrained eigenproblem in
//! closed form, the backbone against a Jenkins element (which a slider of
//! vanishing mass behind a spring is), and a joint pressed by a floor that
//! slips and lifts off against our engine driven by the backbone's
//! fictitious damping force.

#[path = "support/common.rs"]
mod common;

use std::f64::consts::PI;

use common::{eig2, log_space};

use friction_hb::nnm::{nnm, NnmOptions};
use friction_sim::{CoulombParams, Ground, JenkinsParams, SolverSettings, System};

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
/// the slider's mass 1e-6 of the base's, its own mode lies near 225 kHz,
/// far above the harmonics, and its inertia changes the joint's force by
/// about `m ω² / kt` (2e-7). Stuck, the slider is held: the linear mode is
/// the constrained one (the 2x2 eigenfrequency with k1 + kt, 263 Hz, to
/// 1e-10), and so are the backbone's stuck points (1e-8). Through micro-slip
/// to gross slip the two backbones agree within the slider's truncation
/// error, which falls as 1/H (its velocity jumps at every stick): measured
/// over the 25 amplitudes, the largest differences in frequency and damping
/// ratio were 6.0e-3 and 5.2e-2 at H = 7, 1.2e-3 and 1.5e-2 at H = 15,
/// 4.2e-4 and 3.3e-3 at H = 31 (the Jenkins element's own backbone moved by
/// less than 2e-5 from H = 7 to 31). Held at H = 31: 1e-3 and 1e-2.
#[test]
fn a_coulomb_slider_behind_a_spring_has_the_jenkins_element_s_backbone() {
    let stuck = eig2(0.05, 0.02, 1e5 + 1e5 + 4e5, -4e5, 4e5)[0] / (2.0 * PI);
    let opts = NnmOptions {
        body: Some("tip".into()),
        amplitudes: log_space(1e-7, 3e-2, 25),
        harmonics: 31,
        ..Default::default()
    };
    let jenkins = nnm(&jointed(None), &opts).unwrap();
    let coulomb = nnm(&jointed(Some(0.05e-6)), &opts).unwrap();
    assert!((coulomb.linear_f / stuck - 1.0).abs() < 1e-10, "{} vs {stuck}", coulomb.linear_f);
    assert!((coulomb.linear_zeta * 4.0 * PI * stuck / 2.0 - 1.0).abs() < 1e-10, "ζ = α/(2ω)");
    assert!(coulomb.linear_shape[2].abs() < 1e-12, "the slider is held: {:?}", coulomb.linear_shape);
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
    assert!(df < 1e-3 && dz < 1e-2, "frequency {df:.3e}, damping ratio {dz:.3e}");
    // from the stuck mode to gross slip
    assert!(coulomb.points[9].f > 0.9999 * stuck && coulomb.points.last().unwrap().f < 0.72 * stuck);
}

/// `examples/coupled_joint.toml` with its joint `coulomb` (Fc = Fs = 0.3)
/// and without its harmonic force, the forces `extra` added (TOML), started
/// at `x0`, `v0` and run to `t_end` with rows every `dt`.
fn coupled_coulomb(extra: &str, x0: [f64; 2], v0: [f64; 2], t_end: f64, dt: f64) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/coupled_joint.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let body = text[..text.find("[solver]").unwrap()]
        .replace(
            "[[force]]\nname = \"p\"\non = \"m\"\nvalue = { type = \"sine\", amplitude = 60.0, frequency = 10.0 }\n",
            "",
        )
        .replace("model = \"jenkins\"\nparams = { kt = 2e4, fs = 0.3 }", "model = \"coulomb\"\nparams = { fc = 0.3 }")
        .replace(
            "dim = 2\n",
            &format!("dim = 2\nx0 = [{:e}, {:e}]\nv0 = [{:e}, {:e}]\n", x0[0], x0[1], v0[0], v0[1]),
        );
    assert!(body.contains("coulomb") && !body.contains("\"p\""));
    format!("{body}{extra}[solver]\nt_end = {t_end:e}\noutput_dt = {dt:e}\nrtol = 1e-10\natol = 1e-13\n")
}

/// The joint of `examples/coupled_joint.toml` with `coulomb` (μ = 0.3): its
/// x held at rest, the stuck mode is its motion normal to the floor alone,
/// `sqrt((ky + kc/2 + kn)/m)` (53.38 Hz, to 1e-12), with no second mode
/// (refused with the reason). The inclined spring pulls the held joint by
/// `kc/2` per unit of y while the floor's load falls by `kn`, so it starts
/// to slip at `A_s = μ N0 / (kc/2 + μ kn)` (1.64e-4 m, just before the body
/// would leave the floor at its rest 1.78e-4 m): the default amplitudes
/// start at a tenth of it (1e-12).
#[test]
fn a_coulomb_joint_on_a_floor_is_held_in_its_stuck_mode_and_slips_where_the_floor_s_load_allows() {
    let sys = common::parse(&coupled_coulomb("", [0.0; 2], [0.0; 2], 1.0, 1e-3));
    let (kx, ky, kc, kn, press, mu) = (1e4_f64, 1e4_f64, 5e3_f64, 1e5_f64, 20.0_f64, 0.3_f64);
    let (a, b, d) = (kx + kc / 2.0, kc / 2.0, ky + kc / 2.0 + kn);
    let n0 = kn * press * a / (a * d - b * b);
    let f = d.sqrt() / (2.0 * PI);
    let a_s = mu * n0 / (b + mu * kn);
    let r = nnm(&sys, &NnmOptions { body: Some("m.y".into()), amplitudes: vec![], ..Default::default() })
        .unwrap();
    eprintln!(
        "linear {} Hz (closed form {f}), first amplitude {:e} m (A_s {a_s:e} m)",
        r.linear_f, r.points[0].amplitude
    );
    assert!((r.linear_f / f - 1.0).abs() < 1e-12);
    assert!(r.linear_shape[0].abs() < 1e-12, "x is held: {:?}", r.linear_shape);
    assert!((r.points[0].amplitude / (0.1 * a_s) - 1.0).abs() < 1e-12);
    assert!((r.points[0].f / f - 1.0).abs() < 1e-8, "stuck at a tenth of A_s: {} Hz", r.points[0].f);
    let e = nnm(&sys, &NnmOptions { mode: 2, amplitudes: vec![1e-5], ..Default::default() })
        .unwrap_err()
        .to_string();
    assert!(e.contains("--mode = 2") && e.contains("valid range [1, 1]") && e.contains("coulomb"), "{e}");
}

/// The extended periodic motion is the free motion under `-ξ M ẋ`. Our
/// engine cannot take a negative damper, but it can take that force as the
/// balance's motion gives it, `ξ M ẋ_HB(t)`, harmonic by harmonic: the
/// backbone's motion is then a periodic solution of a forced, damped
/// system, and the engine started on it (rtol 1e-10) must stay on it. At
/// H = 31, from held (1.6e-4 m) through slip and lift-off (the body off the
/// floor for 16 % to 44 % of the period): y and the floor's load N over the
/// 20th period against the balance, within 0.3 % of their range (measured
/// at most 7.4e-4 for y and 1.1e-3 for N, at 4e-4 m). The tangential motion
/// x is a hundredth of y or less; where the body is off the floor and lands
/// again it sticks where it lands, so its mean is neutral (a run drifts from
/// the balance's), and its velocity jumps, which the truncation rings at
/// (9 % of its range): x within 0.2 % of y's range (measured 1.2e-3).
#[test]
fn a_coulomb_joint_s_backbone_slipping_and_lifting_off_is_the_engine_s_periodic_motion() {
    let h = 31;
    let l = 2 * h + 1;
    let sys = common::parse(&coupled_coulomb("", [0.0; 2], [0.0; 2], 1.0, 1e-3));
    let amplitudes = vec![1e-4, 1.6e-4, 2.0e-4, 2.5e-4, 3e-4, 4e-4];
    let opts = NnmOptions { body: Some("m.y".into()), amplitudes, harmonics: h, ..Default::default() };
    let r = nnm(&sys, &opts).unwrap();
    let mut opened = 0;
    for p in r.points.iter().skip(1) {
        let w = 2.0 * PI * p.f;
        let c = &p.coefficients;
        let mut extra = String::new();
        for (d, dir) in ["x", "y"].iter().enumerate() {
            for k in 1..=h {
                // ξ m kω (b cos kωt - a sin kωt) = R sin(kωt + φ)
                let (a, b) = (c[d * l + 2 * k - 1], c[d * l + 2 * k]);
                let amp = p.xi * k as f64 * w * a.hypot(b);
                extra += &format!(
                    "[[force]]\nname = \"xi_{dir}{k}\"\non = \"m\"\ndirection = \"{dir}\"\nvalue = {{ type = \"sine\", \
                     amplitude = {amp:e}, frequency = {:e}, phase = {:e} }}\n",
                    k as f64 * p.f,
                    b.atan2(-a)
                );
            }
        }
        let (x0, vx0) = common::synth(&c[..l], w, 0.0);
        let (y0, vy0) = common::synth(&c[l..2 * l], w, 0.0);
        let text = coupled_coulomb(&extra, [x0, y0], [vx0, vy0], 20.0 / p.f, 1.0 / (200.0 * p.f));
        let out = friction_sim::simulate(&common::parse(&text)).unwrap();
        assert!(out.failure.is_none(), "{:?}", out.failure);
        let hx = |t: f64| common::synth(&c[..l], w, t).0;
        let hy = |t: f64| common::synth(&c[l..2 * l], w, t).0;
        let hn = |t: f64| 1e5 * (-hy(t)).max(0.0);
        let rep = common::last_period(&out, &[("x.m", &hx), ("y.m", &hy), ("N.j", &hn)]);
        let st = out.series("state.j");
        let open = st[st.len() - 201..].iter().filter(|s| **s == 0.0).count();
        opened += (open > 0) as usize;
        eprintln!(
            "A = {:.3e} m, {:.4} Hz, ζ {:.4e}: off the floor {open} of 201 rows, {rep:?}",
            p.amplitude, p.f, p.zeta
        );
        let (x, y, n) = (&rep[0], &rep[1], &rep[2]);
        assert!(y.1 < 3e-3 * y.2 && n.1 < 3e-3 * n.2, "A = {:e}: {rep:?}", p.amplitude);
        assert!(x.1 < 2e-3 * y.2, "A = {:e}: {rep:?}", p.amplitude);
    }
    assert_eq!(opened, 4, "lift-off at every amplitude past 1.6e-4 m");
    assert!(r.points[1].f > 0.9999 * r.linear_f && r.points[5].f < 0.86 * r.linear_f);
}

/// README's backbone of `examples/plane_coulomb_joint.toml` (defaults, H =
/// 5): held in x and y at rest, its stuck mode is z alone,
/// `sqrt((kz + kxz/2 + kn)/m)` (53.38 Hz, to 1e-12); it slips from
/// `A_s = μ N0 / (kxz/2 + μ kn)` (0.165 mm, N0 from the rest under the
/// press, just below the rest's penetration 0.178 mm), the default
/// amplitudes from a tenth of it to a hundred times (1e-12), and its
/// frequency falls from 53.38 Hz to 27.2 Hz at 16 mm.
#[test]
fn the_plane_coulomb_joint_s_backbone_is_held_to_its_slip_onset_and_falls_to_27_hz() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plane_coulomb_joint.toml");
    let sys = friction_sim::scenario::load(&path).unwrap();
    let r = nnm(&sys, &NnmOptions { amplitudes: vec![], ..Default::default() }).unwrap();
    let (kxz, kn, mu) = (5e3_f64, 1e5_f64, 0.3_f64);
    let (kxx, kxy, kyy, kzz) = (1e4 + kxz / 2.0 + 2e3, 2e3, 1.5e4 + 2e3, 1e4 + kxz / 2.0 + kn);
    // the rest under the press: z by the Schur complement of x and y
    let kz_eff = kzz - (kxz / 2.0).powi(2) * kyy / (kxx * kyy - kxy * kxy);
    let z0 = -20.0 / kz_eff;
    let a_s = mu * kn * -z0 / (kxz / 2.0 + mu * kn);
    let f = kzz.sqrt() / (2.0 * PI);
    let (first, last) = (&r.points[0], r.points.last().unwrap());
    eprintln!(
        "{}: linear {} Hz ({f}), rest z {z0:e}, A_s {a_s:e}, {} points, last {} Hz at {:e} m",
        r.body,
        r.linear_f,
        r.points.len(),
        last.f,
        last.amplitude
    );
    assert_eq!(r.body, "m.z");
    assert!((r.linear_f / f - 1.0).abs() < 1e-12);
    assert!(
        (first.amplitude / (0.1 * a_s) - 1.0).abs() < 1e-12
            && (last.amplitude / (100.0 * a_s) - 1.0).abs() < 1e-12
    );
    assert!((1.64e-4..1.66e-4).contains(&a_s) && (1.77e-4..1.79e-4).contains(&-z0));
    assert!((first.f / f - 1.0).abs() < 1e-8);
    assert!((27.1..27.3).contains(&last.f), "{} Hz", last.f);
    for w in r.points.windows(2) {
        assert!(w[1].f <= w[0].f * (1.0 + 1e-9), "the frequency falls: {} then {} Hz", w[0].f, w[1].f);
    }
}

/// A body held to the ground by `coulomb` alone has no stuck mode to start
/// from: refused with the reason, not solved from a zero shape.
#[test]
fn a_body_held_by_coulomb_alone_has_no_stuck_mode_and_is_refused() {
    let sys = System::builder("held")
        .body("m", 1.0)
        .spring("k", ("m", Ground), 1e4)
        .contact("dry", ("m", Ground), CoulombParams { fc: 1.0, fs: None })
        .solver(SolverSettings::with_t_end(1.0))
        .build()
        .unwrap();
    let e = nnm(&sys, &NnmOptions::default()).unwrap_err().to_string();
    assert!(e.contains("hold all 1 degrees of freedom") && e.contains("no stuck linear mode"), "{e}");
}
