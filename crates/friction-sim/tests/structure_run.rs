//! `[[structure]]` in the time domain: a bar of consistent mass with
//! Rayleigh damping under a step force against its modal closed form, a
//! jointed chain written as bodies and as matrices giving the same run, and
//! the columns and energy balance of a structure.

use std::path::Path;

use friction_sim::structure::SymMatrix;
use friction_sim::{scenario, Outcome, System};
use nalgebra::{DMatrix, DVector};

#[path = "support/structure_scenario.rs"]
mod structure_scenario;

/// A scenario with structure `bar` (see `support/structure_scenario.rs`).
fn with_structure(name: &str, m: &SymMatrix, k: &SymMatrix, extra: &str, rest: &str) -> System {
    structure_scenario::with_structure(&format!("structure_run_{name}"), name, "bar", m, k, extra, rest)
}

use structure_scenario::run;

/// Three linear bar elements fixed at one end with their consistent mass
/// `(m/6) [2 1; 1 2]` per element (not diagonal: the engine must solve with
/// M, not divide by its diagonal), Rayleigh damping `C = α M + β K`, and a
/// step force P on the free end from rest. Mode by mode (mass-normalised
/// modes φ_r of `K φ = ω² M φ`, `ζ_r = α/(2ω_r) + β ω_r/2`, `ω_d = ω √(1-ζ²)`):
///
/// ```text
/// x(t) = Σ φ_r (φ_rᵀ P / ω_r²) (1 - e^{-ζωt} (cos ω_d t + ζω/ω_d sin ω_d t))
/// v(t) = Σ φ_r (φ_rᵀ P / ω_d) e^{-ζωt} sin ω_d t
/// ```
///
/// Every row of x and v of the three DOFs to 1e-8 of their ranges, and the
/// energy balance (work of P = kinetic + elastic + the damping's
/// dissipation, booked under the structure's name) to 1e-9 of the work.
#[test]
fn a_consistent_mass_bar_under_a_step_force_follows_its_modal_closed_form() {
    bar_against_closed_form("bar_step", "rtol = 1e-11\natol = 1e-14\nmethod = \"dop853\"", 1e-8, 1e-9);
}

/// The same bar through the implicit path with a sparse Newton matrix
/// (esdirk34; its structure's velocity rows in force form, the solver
/// adding the mass: `engine/network/scaled_rows.rs`), against the same
/// closed form to 1e-6 of the ranges at rtol 1e-10 (esdirk34 is of order
/// 3: measured 2.4e-7, the same with the dense Newton matrix of `M⁻¹ K`),
/// the energy balance to 1e-6 (measured 2.4e-7); and against that dense run, whose Newton
/// matrix is the same up to rounding: every row to 1e-7 of the ranges
/// (measured 1.1e-8: the two Newton iterations stop at their tolerance at
/// different iterates).
#[test]
fn a_consistent_mass_bar_through_the_sparse_newton_matrix_follows_its_closed_form() {
    let solver = "rtol = 1e-10\natol = 1e-13\nmethod = \"esdirk34\"\nlinear_algebra";
    let sparse = bar_against_closed_form("bar_step_sparse", &format!("{solver} = \"sparse\""), 1e-6, 1e-6);
    let dense = bar_against_closed_form("bar_step_dense", &format!("{solver} = \"dense\""), 1e-6, 1e-6);
    assert_eq!(sparse.stats.linear_algebra, "sparse");
    for c in ["x.bar:0", "v.bar:0", "x.bar:2", "v.bar:2"] {
        let (a, b) = (sparse.series(c), dense.series(c));
        let range = b.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        let worst = a.iter().zip(&b).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max);
        assert!(worst < 1e-7 * range, "{c}: sparse against dense {worst:.3e} of {range:.3e}");
    }
}

fn bar_against_closed_form(name: &str, solver: &str, tol: f64, etol: f64) -> Outcome {
    let (me, ke, p, alpha, beta) = (0.3, 1e4, 5.0, 2.0, 1e-5);
    let m = SymMatrix::from_upper(
        3,
        vec![
            (0, 0, 4.0 * me / 6.0),
            (0, 1, me / 6.0),
            (1, 1, 4.0 * me / 6.0),
            (1, 2, me / 6.0),
            (2, 2, 2.0 * me / 6.0),
        ],
    );
    let k = SymMatrix::from_upper(
        3,
        vec![(0, 0, 2.0 * ke), (0, 1, -ke), (1, 1, 2.0 * ke), (1, 2, -ke), (2, 2, ke)],
    );
    let sys = with_structure(
        name,
        &m,
        &k,
        &format!("rayleigh = [{alpha}, {beta}]\nwatch = [0, 1]"),
        &format!("[[force]]\nname = \"p\"\non = \"bar:2\"\nvalue = {p}\n[solver]\nt_end = 0.2\noutput_dt = 1e-3\n{solver}"),
    );
    let out = run(&sys);
    // the closed form: M = L Lᵀ, A = L⁻¹ K L⁻ᵀ = Q Λ Qᵀ, Φ = L⁻ᵀ Q
    let (md, kd) = (m.to_dense(), k.to_dense());
    let l = md.clone().cholesky().unwrap().l();
    let li = l.clone().try_inverse().unwrap();
    let eig = (&li * &kd * li.transpose()).symmetric_eigen();
    let phi: DMatrix<f64> = li.transpose() * &eig.eigenvectors;
    let load = DVector::from_vec(vec![0.0, 0.0, p]);
    let t = out.series("t");
    for dof in 0..3 {
        let (x, v) = (out.series(&format!("x.bar:{dof}")), out.series(&format!("v.bar:{dof}")));
        let mut want = (vec![0.0; t.len()], vec![0.0; t.len()]);
        for r in 0..3 {
            let w = eig.eigenvalues[r].sqrt();
            let z = alpha / (2.0 * w) + beta * w / 2.0;
            let wd = w * (1.0 - z * z).sqrt();
            let pr = phi.column(r).dot(&load);
            for (i, &ti) in t.iter().enumerate() {
                let e = (-z * w * ti).exp();
                want.0[i] += phi[(dof, r)] * pr / (w * w)
                    * (1.0 - e * ((wd * ti).cos() + z * w / wd * (wd * ti).sin()));
                want.1[i] += phi[(dof, r)] * pr / wd * e * (wd * ti).sin();
            }
        }
        for (got, want, what) in [(&x, &want.0, "x"), (&v, &want.1, "v")] {
            let range = want.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
            let worst = got.iter().zip(want).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            assert!(worst < tol * range, "{what}.bar:{dof}: worst {worst:.3e} of range {range:.3e}");
        }
    }
    let e = &out.energy;
    let damping = e.dampers.iter().find(|d| d.0 == "bar").expect("the structure's damping booked").1;
    assert!(damping > 0.0);
    let stored = e.kinetic.1 + e.spring.1;
    assert!(
        (e.work_forces - stored - damping).abs() < etol * e.work_forces
            && e.residual.abs() < etol * e.work_forces,
        "work {} stored {stored} damping {damping} residual {}",
        e.work_forces,
        e.residual
    );
    out
}

/// Three masses in a chain (ground - k - a - k - b - k - c), a Jenkins
/// joint from b to the ground, a damper on c and a sine force on c: typed as
/// bodies and springs, and as a structure of diagonal mass and tridiagonal
/// stiffness read from files, the runs agree in every position, velocity
/// and joint force to 1e-9 of their ranges (measured 1.0e-10 at rtol
/// 1e-12: `K x` rounds otherwise than the springs' sums, and the joint's
/// reversals are events located to the root finder's tolerance, so the two
/// runs are not the same bits), with as many events and the same energy
/// balance to 1e-8.
#[test]
fn a_jointed_chain_as_bodies_and_as_a_structure_runs_the_same() {
    let (mass, kk) = (0.5, 2e4);
    let tail = "[solver]\nt_end = 0.5\noutput_dt = 1e-3\nrtol = 1e-12\natol = 1e-15\n";
    let bodies = scenario::parse(
        &format!(
            "name = \"chain\"\n\
             [[body]]\nname = \"a\"\nmass = {mass}\n[[body]]\nname = \"b\"\nmass = {mass}\n[[body]]\nname = \"c\"\nmass = {mass}\n\
             [[spring]]\nbetween = [\"a\", \"ground\"]\nstiffness = {kk}\n\
             [[spring]]\nbetween = [\"b\", \"a\"]\nstiffness = {kk}\n\
             [[spring]]\nbetween = [\"c\", \"b\"]\nstiffness = {kk}\n\
             [[damper]]\nbetween = [\"c\", \"ground\"]\ncoefficient = 2.0\n\
             [[contact]]\nname = \"j\"\nbetween = [\"b\", \"ground\"]\nmodel = \"jenkins\"\nparams = {{ kt = 1e4, fs = 0.5 }}\n\
             [[force]]\nname = \"p\"\non = \"c\"\nvalue = {{ type = \"sine\", amplitude = 3.0, frequency = 25.0 }}\n{tail}"
        ),
        "chain.toml",
        Path::new("."),
    )
    .unwrap();
    let m = SymMatrix::diagonal(&[mass; 3]);
    let k = SymMatrix::from_upper(
        3,
        vec![(0, 0, 2.0 * kk), (0, 1, -kk), (1, 1, 2.0 * kk), (1, 2, -kk), (2, 2, kk)],
    );
    let matrices = with_structure(
        "chain",
        &m,
        &k,
        "watch = [0]",
        &format!(
            "[[damper]]\nbetween = [\"bar:2\", \"ground\"]\ncoefficient = 2.0\n\
             [[contact]]\nname = \"j\"\nbetween = [\"bar:1\", \"ground\"]\nmodel = \"jenkins\"\nparams = {{ kt = 1e4, fs = 0.5 }}\n\
             [[force]]\nname = \"p\"\non = \"bar:2\"\nvalue = {{ type = \"sine\", amplitude = 3.0, frequency = 25.0 }}\n{tail}"
        ),
    );
    let (a, b) = (run(&bodies), run(&matrices));

    assert_eq!(
        b.columns,
        [
            "t", "x.bar:0", "v.bar:0", "x.bar:1", "v.bar:1", "x.bar:2", "v.bar:2", "F.j", "s.j", "sv.j",
            "z.j.0", "z.j.1"
        ]
        .map(String::from)
    );
    // the joint slips (its force reaches fs) and sticks again
    let f = a.series("F.j");
    assert!(f.iter().fold(0.0_f64, |m, v| m.max(v.abs())) > 0.499, "the joint never slipped");
    assert_eq!(a.series("t"), b.series("t"));
    for (x, y) in [("x.a", "x.bar:0"), ("v.a", "v.bar:0"), ("x.b", "x.bar:1"), ("v.b", "v.bar:1")]
        .into_iter()
        .chain([("x.c", "x.bar:2"), ("v.c", "v.bar:2"), ("F.j", "F.j")])
    {
        let (p, q) = (a.series(x), b.series(y));
        let range = p.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        let worst = p.iter().zip(&q).map(|(u, v)| (u - v).abs()).fold(0.0, f64::max);
        assert!(worst <= 1e-9 * range, "{x} against {y}: {worst:.3e} of {range:.3e}");
    }
    assert_eq!(a.events.len(), b.events.len());
    let (ea, eb) = (&a.energy, &b.energy);
    let scale = ea.work_forces.abs() + ea.dissipated_total();
    for (p, q, what) in [
        (ea.work_forces, eb.work_forces, "work of the force"),
        (ea.kinetic.1, eb.kinetic.1, "kinetic energy"),
        (ea.spring.1, eb.spring.1, "elastic energy"),
        (ea.contacts[0].1, eb.contacts[0].1, "joint's work"),
        (ea.dampers[0].1, eb.dampers[0].1, "damper's dissipation"),
    ] {
        assert!((p - q).abs() < 1e-8 * scale, "{what}: {p} against {q}");
    }
    assert!(eb.residual.abs() < 1e-8 * scale, "residual {}", eb.residual);
}

/// A structure with a fast mode (ω_max = 1e5 rad/s over a 1 s run) is
/// integrated by `auto` with ESDIRK34, whose step the fast mode does not
/// limit (an explicit method would need some 10^5 steps): the slow DOF of a
/// two-DOF structure with a coupled (consistent) mass under a step force
/// against its modal closed form to 1e-5 of its range.
#[test]
fn auto_integrates_a_structure_with_a_fast_mode_by_esdirk34_to_the_closed_form() {
    let m = SymMatrix::from_upper(2, vec![(0, 0, 1.0), (0, 1, 0.2), (1, 1, 1.0)]);
    let k = SymMatrix::from_upper(2, vec![(0, 0, 100.0), (1, 1, 1e10)]);
    let p = 2.0;
    let sys = with_structure(
        "fast_mode",
        &m,
        &k,
        "",
        &format!("[[force]]\nname = \"p\"\non = \"bar:0\"\nvalue = {p}\n[solver]\nt_end = 1.0\noutput_dt = 1e-2\nrtol = 1e-8"),
    );
    let out = run(&sys);
    assert_eq!(out.stats.method, "esdirk34");
    let (md, kd) = (m.to_dense(), k.to_dense());
    let li = md.clone().cholesky().unwrap().l().try_inverse().unwrap();
    let eig = (&li * &kd * li.transpose()).symmetric_eigen();
    let phi: DMatrix<f64> = li.transpose() * &eig.eigenvectors;
    let (t, x) = (out.series("t"), out.series("x.bar:0"));
    let want: Vec<f64> = t
        .iter()
        .map(|&ti| {
            (0..2)
                .map(|r| {
                    let w = eig.eigenvalues[r].sqrt();
                    phi[(0, r)] * phi[(0, r)] * p / (w * w) * (1.0 - (w * ti).cos())
                })
                .sum()
        })
        .collect();
    let range = want.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    let worst = x.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(worst < 1e-5 * range, "worst {worst:.3e} of {range:.3e}");
}
