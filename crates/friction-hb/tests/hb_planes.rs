//! Harmonic balance with a contact that rubs in a plane (issue 45: bodies
//! of dim 3, friction along x and y, the load from the gap on z): a LuGre
//! joint like examples/spatial_joint.toml, whose slip turns in the plane,
//! against our engine started on the harmonic-balance solution, mostly
//! presliding, sliding and lifting off the floor; and a contact in a plane
//! whose motion stays along x against the same contact on a body of dim 2;
//! the Floquet exponents of such joints against the rate at which the
//! engine's motions converge.

#[path = "support/common.rs"]
mod common;
#[path = "support/decay.rs"]
mod decay;

use std::f64::consts::PI;

use common::{last_period, parse, synth};
use friction_hb::floquet::Monodromy;
use friction_hb::frf::solve_at;
use friction_hb::problem::Problem;
use friction_hb::structure::Structure;
use friction_sim::simulate;

/// examples/spatial_joint.toml with a spring skewed in the x-y plane (so
/// that a force along x alone makes the slip turn in the plane), forced
/// along x by `amp` at `f`, started at `x0`, `v0`, run `periods` periods.
fn spatial(amp: f64, f: f64, x0: [f64; 3], v0: [f64; 3], periods: f64) -> String {
    format!(
        r#"name = "spatial"
[[body]]
name = "m"
mass = 1.0
dim = 3
x0 = [{:e}, {:e}, {:e}]
v0 = [{:e}, {:e}, {:e}]
[[spring]]
between = ["m", "ground"]
stiffness = 1e4
[[spring]]
between = ["m", "ground"]
stiffness = 1.5e4
direction = "y"
[[spring]]
between = ["m", "ground"]
stiffness = 1e4
direction = "z"
[[spring]]
between = ["m", "ground"]
stiffness = 5e3
direction = [1.0, 0.0, 1.0]
[[spring]]
between = ["m", "ground"]
stiffness = 4e3
direction = [1.0, 1.0, 0.0]
[[damper]]
between = ["m", "ground"]
coefficient = 5.0
[[damper]]
between = ["m", "ground"]
coefficient = 5.0
direction = "y"
[[damper]]
between = ["m", "ground"]
coefficient = 10.0
direction = "z"
[[force]]
name = "press"
on = "m"
direction = "z"
value = -20.0
[[force]]
name = "px"
on = "m"
value = {{ type = "sine", amplitude = {amp:e}, frequency = {f} }}
[[contact]]
name = "j"
between = ["m", "ground"]
model = "lugre"
params = {{ sigma0 = 2e4, sigma1 = 1.0, sigma2 = 0.0, fc = 0.3, fs = 0.4, vs = 1e-3 }}
normal_stiffness = 1e5
gap = 0.0
[solver]
t_end = {t_end}
output_dt = {dt:e}
rtol = 1e-10
atol = 1e-13
"#,
        x0[0],
        x0[1],
        x0[2],
        v0[0],
        v0[1],
        v0[2],
        t_end = periods / f,
        dt = 1.0 / f / 200.0
    )
}

/// The scenario `text` of `spatial` with Jenkins' element in the plane
/// (kt = 2e4 /m, Fs = 0.3 per unit load: the stuck stiffness of its LuGre
/// joint) in place of LuGre; refused if the LuGre contact is not there.
fn as_jenkins(text: &str) -> String {
    as_model(text, "model = \"jenkins\"\nparams = { kt = 2e4, fs = 0.3 }")
}

/// The scenario `text` of `spatial` with the model and parameters `with`
/// in place of its LuGre contact (refused if that is not there).
fn as_model(text: &str, with: &str) -> String {
    let lugre = "model = \"lugre\"\nparams = { sigma0 = 2e4, sigma1 = 1.0, sigma2 = 0.0, fc = 0.3, fs = 0.4, vs = 1e-3 }";
    assert!(text.contains(lugre), "no LuGre contact to replace");
    text.replace(lugre, with)
}

/// The joint of `spatial` forced along x at 12 Hz by 2 N (mostly
/// presliding: the bristles' deflection, a little slip at the reversals),
/// 15 N (sliding, the slip turning in the plane) and 40 N (the body
/// leaving the floor for a tenth of the period, at 15 Hz). The harmonic
/// balance (H = 15, 512 samples; at 40 N continued from 15 N in steps)
/// against the engine started on its solution and run 20
/// periods: over the last period x and y within 1 % of the larger of
/// their ranges (the slip's amplitude in the plane), z and the normal load
/// within 1 % of theirs. Measured: 2 N 5.8e-4 (x), 15 N 7.0e-4, 40 N
/// 4.0e-4 (N; open 21 of 201 rows); y against its own range 4 % at 2 N
/// (a range of 61 nm, 0.5 % of x's), 0.2 % at 15 N.
#[test]
fn a_joint_rubbing_in_a_plane_matches_the_engine_s_steady_state() {
    for (amp, f, open) in [(40.0, 15.0, true), (2.0, 12.0, false), (15.0, 12.0, false)] {
        against_the_engine(&|a, f, x0, v0, p| spatial(a, f, x0, v0, p), amp, f, open);
    }
}

/// The same joint with Jenkins' element in the plane (kt = 2e4 /m, Fs =
/// 0.3 per unit load: the stuck stiffness of the LuGre joint above), its
/// deflection advanced by the radial return between samples, against the
/// engine, whose slider switches between stuck and sliding at events:
/// mostly stuck at 2 N, sliding at 15 N, within 1 % as above.
#[test]
fn a_jenkins_joint_rubbing_in_a_plane_matches_the_engine_s_steady_state() {
    let jenkins = |a: f64, f: f64, x0: [f64; 3], v0: [f64; 3], p: f64| as_jenkins(&spatial(a, f, x0, v0, p));
    for (amp, f) in [(2.0, 12.0), (15.0, 12.0)] {
        against_the_engine(&jenkins, amp, f, false);
    }
}

/// The same joint with exact Coulomb stick in the plane (`coulomb`, Fc =
/// Fs = 0.3 per unit load: held on its friction disk by the engine, by the
/// dynamic Lagrangian method in x and y by harmonic balance, H = 31 and
/// 2048 samples, from rest at H = 1, 3, 7, 15), against the engine as
/// above: held on the disk for 9 of the last period's 201 rows at 10 N,
/// sliding all period at 15 N, lifting off the floor at 40 N (15 Hz).
/// Measured, against the slip's amplitude for x and y and their own ranges
/// for z and N: 10 N 0.34 % (x), 0.40 % (z, N); 15 N 0.31 %, 0.43 %; 40 N
/// 0.03 %, 0.07 % (held at 1 %). The error is the truncation's: at 10 N
/// and Fs = 0.4 it was 1.73 % at H = 31 and 1.62 % at H = 63, but there the
/// balance starts the slip early (see the note in `friction_hb`'s `dlft`
/// module on Fs > Fc).
#[test]
fn a_coulomb_joint_rubbing_in_a_plane_matches_the_engine_s_steady_state() {
    let coulomb = |a: f64, f: f64, x0: [f64; 3], v0: [f64; 3], p: f64| {
        as_model(&spatial(a, f, x0, v0, p), "model = \"coulomb\"\nparams = { fc = 0.3 }")
    };
    for (amp, f, open, held) in
        [(10.0, 12.0, false, true), (15.0, 12.0, false, false), (40.0, 15.0, true, false)]
    {
        let rows = against_the_engine_at(&coulomb, amp, f, open, (31, 2048));
        assert_eq!(rows > 0, held, "F = {amp} N: held {rows} of 201 rows");
    }
}

/// The scenario of a joint forced along x by `amp` at `f`, started at `x0`,
/// `v0` and run `periods` periods.
type Scenario<'a> = &'a dyn Fn(f64, f64, [f64; 3], [f64; 3], f64) -> String;

/// The solution at `h` harmonics from those at 1, 3, 7, ... (each from
/// the last, the first from rest), or `None` if one of them fails: the
/// frequency response's start where Newton's method from rest fails.
fn ladder(st: &Structure, f: f64, h: usize, n: usize) -> Option<Vec<f64>> {
    let mut c: Option<Vec<f64>> = None;
    let mut k = 1;
    loop {
        c = Some(solve_at(st, f, k.min(h), n, c.as_deref()).ok()?);
        if k >= h {
            return c;
        }
        k = 2 * k + 1;
    }
}

/// Solve the joint of `scenario` by harmonic balance (H = 15, 512 samples;
/// above 15 N continued from 15 N in steps), run the engine from the
/// solution for 20 periods, and hold its last period to the balance: x
/// and y within 1 % of the slip's amplitude in the plane, z and N within 1 %
/// of their ranges; `open`: whether the body leaves the floor.
fn against_the_engine(scenario: Scenario<'_>, amp: f64, f: f64, open: bool) {
    against_the_engine_at(scenario, amp, f, open, (15, 512));
}

/// [`against_the_engine`] at `h` harmonics and `n` samples per period
/// (where Newton's method from rest fails, from the solutions at 1, 3, 7,
/// ... harmonics, each from the last); returns the rows of the last
/// period where the engine held the contact on its friction disk (0 for a
/// contact without that state).
fn against_the_engine_at(
    scenario: Scenario<'_>,
    amp: f64,
    f: f64,
    open: bool,
    (h, n): (usize, usize),
) -> usize {
    let l = 2 * h + 1;
    let w = 2.0 * PI * f;
    // Newton's method from rest fails once the body lifts off the floor
    // (residual stalled at 1.6e-2 at 40 N and 45 N): from the solution at 15 N, in steps
    let mut c: Option<Vec<f64>> = None;
    for a in [15.0, 30.0, amp].into_iter().filter(|a| *a <= amp && (*a == amp || amp > 15.0)) {
        let st = Structure::from_system(&parse(&scenario(a, f, [0.0; 3], [0.0; 3], 1.0)), "px").unwrap();
        c = Some(
            solve_at(&st, f, h, n, c.as_deref())
                .or_else(|e| ladder(&st, f, h, n).ok_or(e))
                .unwrap_or_else(|e| panic!("F = {a} N: {e}")),
        );
    }
    let c = c.unwrap();
    let at = |k: usize, t: f64| synth(&c[k * l..(k + 1) * l], w, t);
    let x0 = [at(0, 0.0).0, at(1, 0.0).0, at(2, 0.0).0];
    let v0 = [at(0, 0.0).1, at(1, 0.0).1, at(2, 0.0).1];
    let out = simulate(&parse(&scenario(amp, f, x0, v0, 20.0))).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    let t = out.series("t");
    let last = t.len() - 201;
    let hb_n = |t: f64| 1e5 * (-at(2, t).0).max(0.0);
    let cols: [(&str, &dyn Fn(f64) -> f64); 4] =
        [("x.m", &|t| at(0, t).0), ("y.m", &|t| at(1, t).0), ("z.m", &|t| at(2, t).0), ("N.j", &hb_n)];
    let report = last_period(&out, &cols);
    let opened = out.series("N.j")[last..].iter().filter(|&&v| v == 0.0).count();
    // rows held on the friction disk (state 1), for a set-valued contact
    let held =
        out.col("state.j").map_or(0, |_| out.series("state.j")[last..].iter().filter(|&&s| s == 1.0).count());
    eprintln!("F = {amp} N: {report:?}; open {opened}, held {held} of 201 rows");
    assert_eq!(opened > 0, open, "F = {amp} N: {opened} rows open");
    // x and y against the slip's amplitude in the plane (y alone is 0.5 %
    // of x while the joint presslides), z and N against their own range
    let plane = report[0].2.max(report[1].2);
    for (k, (col, worst, range)) in report.into_iter().enumerate() {
        let range = if k < 2 { plane } else { range };
        assert!(worst < 1e-2 * range, "F = {amp} N: {col} differs by {worst:e} of the range {range:e}");
    }
    held
}

/// A LuGre contact between bodies of dim 3 whose motion stays along x (no
/// force along y, nothing coupling y) is the same contact on a body of
/// dim 2 (its normal y there, z here): the residual of the one at the
/// other's solution (y = 0) is the other's, and both solve to the same
/// coefficients.
#[test]
fn a_contact_in_a_plane_moving_along_x_is_the_contact_of_dim_2() {
    let (f, h, n) = (12.0, 7, 256);
    let l = 2 * h + 1;
    let body = |dim: usize, normal: &str, tilt: &str| {
        format!(
            r#"name = "reduce"
[[body]]
name = "m"
mass = 1.0
dim = {dim}
[[spring]]
between = ["m", "ground"]
stiffness = 1e4
[[spring]]
between = ["m", "ground"]
stiffness = 1e4
direction = "{normal}"
[[spring]]
between = ["m", "ground"]
stiffness = 5e3
direction = {tilt}
[[damper]]
between = ["m", "ground"]
coefficient = 5.0
[[damper]]
between = ["m", "ground"]
coefficient = 10.0
direction = "{normal}"
[[force]]
name = "press"
on = "m"
direction = "{normal}"
value = -20.0
[[force]]
name = "px"
on = "m"
value = {{ type = "sine", amplitude = 15.0, frequency = 12.0 }}
[[contact]]
name = "j"
between = ["m", "ground"]
model = "lugre"
params = {{ sigma0 = 2e4, sigma1 = 1.0, sigma2 = 0.0, fc = 0.3, fs = 0.4, vs = 1e-3 }}
normal_stiffness = 1e5
gap = 0.0
[solver]
t_end = 1.0
"#
        )
    };
    let two = Structure::from_system(&parse(&body(2, "y", "[1.0, 1.0]")), "px").unwrap();
    let three = body(3, "z", "[1.0, 0.0, 1.0]")
        + "[[spring]]\nbetween = [\"m\", \"ground\"]\nstiffness = 1.5e4\ndirection = \"y\"\n";
    let three = Structure::from_system(&parse(&three), "px").unwrap();
    assert!(three.contacts[0].plane.is_some() && two.contacts[0].plane.is_none());
    let a = solve_at(&two, f, h, n, None).unwrap();
    // the dim-2 solution in the dim-3 coordinates: x, y = 0, z = its y
    let mut x3 = vec![0.0; 3 * l];
    x3[..l].copy_from_slice(&a[..l]);
    x3[2 * l..].copy_from_slice(&a[l..2 * l]);
    let w = 2.0 * PI * f;
    let (mut p2, mut p3) = (Problem::new(two, h, n), Problem::new(three.clone(), h, n));
    let (mut r2, mut r3) = (vec![0.0; 2 * l], vec![0.0; 3 * l]);
    p2.residual(&a, w, &mut r2);
    p3.residual(&x3, w, &mut r3);
    let scale = 15.0;
    let worst = (0..l)
        .map(|j| (r3[j] - r2[j]).abs().max((r3[2 * l + j] - r2[l + j]).abs()).max(r3[l + j].abs()))
        .fold(0.0, f64::max);
    eprintln!("residuals differ by {worst:e} N (force 15 N)");
    assert!(worst < 1e-9 * scale, "residuals differ by {worst:e}");
    let b = solve_at(&three, f, h, n, None).unwrap();
    let amp = a.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let d = (0..l)
        .map(|j| (b[j] - a[j]).abs().max((b[2 * l + j] - a[l + j]).abs()).max(b[l + j].abs()))
        .fold(0.0, f64::max);
    eprintln!("solutions differ by {d:e} of {amp:e}");
    assert!(d < 1e-9 * amp, "solutions differ by {d:e} of {amp:e}");
    // the Floquet exponents of the motion along x and z are the dim-2
    // contact's (δy enters neither: at zero lateral slip the law's cross
    // partials vanish), and the dim-3 problem has those of y besides; to
    // 1e-5 relative, as the 1-D law's tangents are forward differences where
    // the plane's are exact (measured 1.1e-6 at most)
    let e2 = Monodromy::new(&p2).unwrap().exponents(&mut p2, &a, w).unwrap();
    let e3 = Monodromy::new(&p3).unwrap().exponents(&mut p3, &x3, w).unwrap();
    assert_eq!((e2.len(), e3.len()), (5, 8));
    for (re, im) in e2.iter().filter(|e| e.0.is_finite()) {
        let near = e3.iter().map(|(r, i)| (r - re).abs().max((i - im).abs())).fold(f64::INFINITY, f64::min);
        eprintln!("exponent ({re:.6}, {im:.6}): nearest of dim 3 {near:e} away");
        assert!(near < 1e-5 * re.abs().max(1.0), "exponent ({re}, {im}) of dim 2 not among {e3:?}");
    }
}

/// The Floquet exponents of a joint in the plane against our engine: two
/// runs started on the balance's solution and 20 µm off it along y approach
/// each other at the rate of the slowest exponent of the monodromy, whose
/// linearisation of the vector law (`PlaneAft::tangent`; Jenkins' element
/// with the saltation of its sliding onsets) is what is checked: the
/// least-squares slope of ln max|Δx, Δy, Δz| per period over the periods
/// where it lies between 1e-11 and 2e-7 m (after the faster exponents, before
/// the integrations' error floor of about 1e-13 m), within 5 %. The joint of
/// `spatial` with its normal mode damped hard (200 N s/m), so that the
/// slowest exponent is one of the plane's (a perturbation along y reaches
/// the normal mode only through the skewed spring). H = 9 and 256 samples
/// (the Jenkins balance takes a minute in the tests' build). Measured:
/// LuGre at 15 N (sliding) -13.65 1/s against the monodromy's -13.95
/// (-13.74 with H = 15 and 512 samples); Jenkins at 6 N (stick-slip) -8.81
/// against -8.73 (-8.66); Jenkins at 15 N (sliding, left out for time)
/// -13.46 against -13.66.
#[test]
fn floquet_exponents_of_a_joint_in_a_plane_are_the_rate_at_which_the_engine_s_motions_converge() {
    let (h, n) = (9, 256);
    let l = 2 * h + 1;
    let stiff = |a: f64, f: f64, x0: [f64; 3], v0: [f64; 3], p: f64| {
        spatial(a, f, x0, v0, p)
            .replace("coefficient = 10.0\ndirection = \"z\"", "coefficient = 200.0\ndirection = \"z\"")
    };
    assert!(stiff(1.0, 1.0, [0.0; 3], [0.0; 3], 1.0).contains("coefficient = 200.0"));
    let jenkins = |a: f64, f: f64, x0: [f64; 3], v0: [f64; 3], p: f64| as_jenkins(&stiff(a, f, x0, v0, p));
    let cases: [(&str, Scenario<'_>, f64, f64); 2] =
        [("lugre", &stiff, 15.0, 12.0), ("jenkins", &jenkins, 6.0, 12.0)];
    for (name, scenario, amp, f) in cases {
        let w = 2.0 * PI * f;
        let st = Structure::from_system(&parse(&scenario(amp, f, [0.0; 3], [0.0; 3], 1.0)), "px").unwrap();
        let c = solve_at(&st, f, h, n, None).unwrap();
        let mut p = Problem::new(st, h, n);
        let e = Monodromy::new(&p).unwrap().exponents(&mut p, &c, w).unwrap();
        let at = |k: usize, t: f64| synth(&c[k * l..(k + 1) * l], w, t);
        let x0 = [at(0, 0.0).0, at(1, 0.0).0, at(2, 0.0).0];
        let v0 = [at(0, 0.0).1, at(1, 0.0).1, at(2, 0.0).1];
        let periods = 13.0;
        let a = simulate(&parse(&scenario(amp, f, x0, v0, periods))).unwrap();
        let b = simulate(&parse(&scenario(amp, f, [x0[0], x0[1] + 2e-5, x0[2]], v0, periods))).unwrap();
        assert!(a.failure.is_none() && b.failure.is_none());
        let d: Vec<f64> = (0..a.rows.len())
            .map(|i| {
                ["x.m", "y.m", "z.m"]
                    .iter()
                    .map(|col| (a.series(col)[i] - b.series(col)[i]).abs())
                    .fold(0.0, f64::max)
            })
            .collect();
        let (engine, fitted) = decay::decay_rate(&d, 200, f, (1e-11, 2e-7));
        eprintln!("{name} at {amp} N: monodromy {:.4}, engine {engine:.4} 1/s over {fitted} periods", e[0].0);
        assert!(fitted >= 5, "{name} at {amp} N: {fitted} periods to fit");
        assert!(
            (engine / e[0].0 - 1.0).abs() < 0.05,
            "{name} at {amp} N: monodromy {}, engine {engine}",
            e[0].0
        );
    }
}

/// A set-valued contact in a plane other than `coulomb` (`stribeck`
/// between bodies of dim 3), which `friction run` holds exactly on its
/// friction disk, is refused by harmonic balance with the reason and what
/// to use, not regularised: its dynamic Lagrangian method treats `coulomb`.
#[test]
fn a_set_valued_contact_in_a_plane_other_than_coulomb_is_refused_with_the_reason() {
    let sys = parse(
        "[[body]]\nname = \"m\"\nmass = 1.0\ndim = 3\nx0 = [0.0, 0.0, -9.81e-6]\n\
         [[force]]\nname = \"weight\"\non = \"m\"\ndirection = \"z\"\nvalue = -9.81\n\
         [[spring]]\nname = \"kx\"\nbetween = [\"m\", \"ground\"]\nstiffness = 400.0\n\
         [[spring]]\nname = \"ky\"\nbetween = [\"m\", \"ground\"]\nstiffness = 900.0\ndirection = \"y\"\n\
         [[force]]\nname = \"px\"\non = \"m\"\nvalue = { type = \"sine\", amplitude = 6.0, frequency = 2.0 }\n\
         [[contact]]\nname = \"c\"\nbetween = [\"m\", \"ground\"]\nmodel = \"stribeck\"\n\
         params = { fc = 0.6, fs = 0.8, vs = 0.01 }\nnormal_stiffness = 1e6\ngap = 0.0\n[solver]\nt_end = 1.0\n",
    );
    for e in [Structure::from_system(&sys, "px").err(), Structure::unforced(&sys).err()] {
        let e = e.expect("refused").to_string();
        assert!(e.contains("\"c\"") && e.contains("stribeck") && e.contains("set-valued"), "{e}");
        assert!(e.contains("jenkins") && e.contains("coulomb_tanh") && e.contains("`coulomb`"), "{e}");
    }
}
