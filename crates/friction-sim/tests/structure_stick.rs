//! Stick and slip of a Coulomb joint on a DOF of a structure with a
//! consistent mass (the constraint operator `G M⁻¹ Gᵀ`), against closed
//! forms phase by phase, and the energy balance of a stick-slip run.

use friction_sim::structure::SymMatrix;
use friction_sim::{Outcome, System};
use nalgebra::{DMatrix, DVector};

#[path = "support/structure_scenario.rs"]
mod structure_scenario;

/// A scenario with structure `s` (see `support/structure_scenario.rs`).
fn with_structure(name: &str, m: &SymMatrix, k: &SymMatrix, extra: &str, rest: &str) -> System {
    structure_scenario::with_structure(&format!("structure_stick_{name}"), name, "s", m, k, extra, rest)
}

use structure_scenario::run;

/// The undamped motion of `M ẍ + K x = F` (constant F) from `(x0, v0)`
/// after a time τ: mode by mode, `q = q_F + (q0 - q_F) cos ωτ + q̇0/ω sin ωτ`
/// (`M = L Lᵀ`, `L⁻¹ K L⁻ᵀ = Q Λ Qᵀ`, `x = L⁻ᵀ Q q`).
fn free_motion(
    m: &DMatrix<f64>,
    k: &DMatrix<f64>,
    f: &DVector<f64>,
    x0: &DVector<f64>,
    v0: &DVector<f64>,
    tau: f64,
) -> (DVector<f64>, DVector<f64>) {
    let l = m.clone().cholesky().unwrap().l();
    let li = l.clone().try_inverse().unwrap();
    let eig = (&li * k * li.transpose()).symmetric_eigen();
    let phi = li.transpose() * &eig.eigenvectors; // Φᵀ M Φ = I
    let (q0, qd0, p) = (phi.transpose() * m * x0, phi.transpose() * m * v0, phi.transpose() * f);
    let n = x0.len();
    let (mut q, mut qd) = (DVector::zeros(n), DVector::zeros(n));
    for r in 0..n {
        let w = eig.eigenvalues[r].sqrt();
        let qf = p[r] / (w * w);
        q[r] = qf + (q0[r] - qf) * (w * tau).cos() + qd0[r] / w * (w * tau).sin();
        qd[r] = -(q0[r] - qf) * w * (w * tau).sin() + qd0[r] * (w * tau).cos();
    }
    (&phi * q, &phi * qd)
}

/// The largest |got - want| over the rows of `t` in `[from, to)`, relative
/// to `scale`.
fn worst_in(t: &[f64], got: &[f64], want: impl Fn(f64) -> f64, from: f64, to: f64, scale: f64) -> f64 {
    t.iter()
        .zip(got)
        .filter(|(&ti, _)| ti >= from && ti < to)
        .map(|(&ti, &g)| (g - want(ti)).abs() / scale)
        .fold(0.0, f64::max)
}

/// Two DOFs with a consistent mass `M = [[0.2, 0.05], [0.05, 0.1]]`, `K =
/// [[2e4, -1e4], [-1e4, 1e4]]`, a Coulomb joint (Fc = Fs = 2P) holding DOF
/// 0 to the ground, a step force P on DOF 1 from rest.
///
/// Stuck (x0 = 0): DOF 1 is a one-DOF oscillator, `x1 = P/k11 (1 - cos ωt)`,
/// `ω = √(k11/m11)`, and the joint's force on DOF 0 (the column `F.j`) is
/// what holds it, `F = m01 ẍ1 + k01 x1 = -P (1 - 1.5 cos ωt)`: already P/2
/// at t = 0 (a lumped mass would give 0: the off-diagonal mass pulls on the
/// held DOF). It reaches -2P at `cos ωt = -2/3`: the joint breaks away
/// there. Sliding forward, the joint's force is -Fc and the two DOFs move freely under `(-Fc,
/// P)` from the state at break-away, until DOF 0's velocity returns to zero
/// (where the joint sticks again, or slides back). Positions, velocities and
/// the joint's force, phase by phase, to 1e-8 of their ranges; the
/// break-away and the return to rest at the closed form's times to 1e-9 s.
#[test]
fn a_coulomb_joint_on_a_consistent_mass_sticks_and_breaks_away_as_the_closed_form() {
    let p = 3.0;
    let (m00, m01, m11) = (0.2, 0.05, 0.1);
    let (k00, k01, k11) = (2e4, -1e4, 1e4);
    let m = SymMatrix::from_upper(2, vec![(0, 0, m00), (0, 1, m01), (1, 1, m11)]);
    let k = SymMatrix::from_upper(2, vec![(0, 0, k00), (0, 1, k01), (1, 1, k11)]);
    let fc = 2.0 * p;
    let sys = with_structure(
        "breakaway",
        &m,
        &k,
        "",
        &format!(
            "[[contact]]\nname = \"j\"\nbetween = [\"s:0\", \"ground\"]\nmodel = \"coulomb\"\nparams = {{ fc = {fc} }}\n\
             [[force]]\nname = \"p\"\non = \"s:1\"\nvalue = {p}\n\
             [solver]\nt_end = 0.06\noutput_dt = 2e-5\nrtol = 1e-12\natol = 1e-15\nmethod = \"dop853\""
        ),
    );
    let out = run(&sys);
    let w = (k11 / m11).sqrt();
    let tb = (-2.0_f64 / 3.0).acos() / w;
    // the events: stuck from the start, forward at tb
    let first = &out.events[0];
    assert_eq!((first.from.as_str(), first.to.as_str()), ("stuck", "forward"), "{:?}", out.events);
    assert!((first.t - tb).abs() < 1e-9, "break-away at {} against {tb}", first.t);
    // stuck phase
    let t = out.series("t");
    let (x0, v0, x1, v1, f) = (
        out.series("x.s:0"),
        out.series("v.s:0"),
        out.series("x.s:1"),
        out.series("v.s:1"),
        out.series("F.j"),
    );
    let xs = 2.0 * p / k11;
    assert!(worst_in(&t, &x0, |_| 0.0, 0.0, tb, xs) == 0.0, "the held DOF moved while stuck");
    assert!(worst_in(&t, &v0, |_| 0.0, 0.0, tb, xs * w) == 0.0, "the held DOF's velocity left zero");
    let e = worst_in(&t, &x1, |t| p / k11 * (1.0 - (w * t).cos()), 0.0, tb, xs);
    assert!(e < 1e-8, "stuck x1: {e:.3e}");
    let e = worst_in(&t, &v1, |t| p / k11 * w * (w * t).sin(), 0.0, tb, xs * w);
    assert!(e < 1e-8, "stuck v1: {e:.3e}");
    let e = worst_in(&t, &f, |t| -p * (1.0 - 1.5 * (w * t).cos()), 0.0, tb, fc);
    assert!(e < 1e-8, "stuck joint force: {e:.3e}");
    assert!((f[0] - 0.5 * p).abs() < 1e-9 * p, "the joint's force at t = 0: {} (want P/2)", f[0]);
    // sliding forward from the state at break-away
    let (md, kd) = (m.to_dense(), k.to_dense());
    let start = (
        DVector::from_vec(vec![0.0, p / k11 * (1.0 - (w * tb).cos())]),
        DVector::from_vec(vec![0.0, p / k11 * w * (w * tb).sin()]),
    );
    let load = DVector::from_vec(vec![-fc, p]);
    let at = |t: f64| free_motion(&md, &kd, &load, &start.0, &start.1, t - tb);
    // where DOF 0's velocity returns to zero (bisection on the closed form)
    let (mut lo, mut hi) = (tb + 1e-6, tb + 1e-6);
    while at(hi).1[0] > 0.0 {
        lo = hi;
        hi += 1e-4;
    }
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if at(mid).1[0] > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let tr = 0.5 * (lo + hi);
    let second = &out.events[1];
    assert_eq!(second.from, "forward", "{:?}", out.events);
    assert!((second.t - tr).abs() < 1e-9, "back at rest at {} against {tr}", second.t);
    for (col, dof, vel) in [(&x0, 0, false), (&v0, 0, true), (&x1, 1, false), (&v1, 1, true)] {
        let scale = if vel { xs * w } else { xs };
        let e = worst_in(&t, col, |t| if vel { at(t).1[dof] } else { at(t).0[dof] }, tb + 1e-6, tr, scale);
        assert!(e < 1e-8, "sliding dof {dof} ({}): {e:.3e}", if vel { "v" } else { "x" });
    }
    let e = worst_in(&t, &f, |_| -fc, tb + 1e-6, tr, fc);
    assert!(e < 1e-12, "sliding joint force: {e:.3e}");
}

/// Three bar elements of consistent mass with Rayleigh damping, a Coulomb
/// joint (Fs = 1.2, Fc = 1) from the middle DOF to the ground and a sine
/// force on the tip: the joint sticks and slips several times. Whatever the
/// phase, the joint's force stays within its capacity, the held DOF's
/// velocity is exactly zero while stuck, and the energy balance (work of
/// the force = kinetic + elastic + damping + the joint's dissipation +
/// the impulses' losses) closes to 1e-9 of the work.
#[test]
fn a_stick_slip_joint_on_a_consistent_mass_keeps_its_capacity_and_the_energy_balance() {
    stick_slip_bar("stick_slip", "rtol = 1e-10\natol = 1e-13", 1e-9);
}

/// The same run through the implicit path with a sparse Newton matrix
/// (esdirk34, the structure's velocity rows in force form and the stuck
/// joint's row through `W⁺`: `engine/network/scaled_rows.rs`): the same
/// checks (the energy balance to 1e-7, measured 2.3e-8: esdirk34 is of
/// order 3), and the same stick and slip instants as the explicit run to
/// 1e-7 s.
#[test]
fn a_stick_slip_joint_through_the_sparse_newton_matrix_sticks_and_slips_at_the_same_instants() {
    let a = stick_slip_bar("stick_slip_dop", "rtol = 1e-10\natol = 1e-13", 1e-9);
    let b = stick_slip_bar(
        "stick_slip_sparse",
        "rtol = 1e-10\natol = 1e-13\nmethod = \"esdirk34\"\nlinear_algebra = \"sparse\"",
        1e-7,
    );
    assert_eq!(b.stats.linear_algebra, "sparse");
    assert_eq!(a.events.len(), b.events.len(), "{:?}\n{:?}", a.events, b.events);
    for (p, q) in a.events.iter().zip(&b.events) {
        assert!(p.to == q.to && (p.t - q.t).abs() < 1e-7, "{p:?} against {q:?}");
    }
}

fn stick_slip_bar(name: &str, solver: &str, etol: f64) -> Outcome {
    let me = 0.3;
    let ke = 1e4;
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
        "rayleigh = [2.0, 1e-5]",
        &format!(
            "[[contact]]\nname = \"j\"\nbetween = [\"s:1\", \"ground\"]\nmodel = \"coulomb\"\nparams = {{ fc = 1.0, fs = 1.2 }}\n\
             [[force]]\nname = \"p\"\non = \"s:2\"\nvalue = {{ type = \"sine\", amplitude = 3.0, frequency = 12.0 }}\n\
             [solver]\nt_end = 0.5\noutput_dt = 1e-4\n{solver}"
        ),
    );
    let out = run(&sys);
    let sticks = out.events.iter().filter(|e| e.to == "stuck").count();
    let slips = out.events.iter().filter(|e| e.from == "stuck").count();
    assert!(sticks >= 4 && slips >= 4, "not a stick-slip run: {:?}", out.events);
    let (f, v) = (out.series("F.j"), out.series("v.s:1"));
    let worst = f.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    assert!(worst <= 1.2 * (1.0 + 1e-9), "the joint's force {worst} beyond Fs = 1.2");
    assert!(worst > 1.0, "the joint never carried more than Fc: {worst}");
    // rows strictly inside a stuck phase (between a stick and the next slip)
    let t = out.series("t");
    let mut held = 0;
    for w in out.events.windows(2) {
        if w[0].to == "stuck" {
            for (i, &ti) in t.iter().enumerate() {
                if ti > w[0].t && ti < w[1].t {
                    assert!(v[i] == 0.0, "v.s:1 = {} at t = {ti} while stuck", v[i]);
                    held += 1;
                }
            }
        }
    }
    assert!(held > 100, "too few rows while stuck: {held}");
    let e = &out.energy;
    let scale = e.work_forces.abs();
    assert!(e.residual.abs() < etol * scale, "energy residual {} of work {scale}", e.residual);
    assert!(e.contacts[0].1 > 0.01 * scale, "the joint dissipated little: {:?}", e.contacts);
    out
}

/// The joint stick/slip decision sees the mass coupling: two Coulomb
/// joints (Fc = Fs = 1 N) hold the two DOFs of one structure of consistent
/// mass `M = [[1, 0.4], [0.4, 1]]` kg (no stiffness to speak of: 1e-12 N/m)
/// at rest, under forces 1.1 N on DOF 0 and 1.5 N on DOF 1. Joint b cannot
/// hold 1.5 N and slides forward with Fc; then DOF 1 accelerates at
/// `a1 = (1.5 - 1)/m11 = 0.5` m/s², and holding DOF 0 takes only
/// `λ0 = 1.1 - m01 a1 = 0.9` N < Fs: joint a stays stuck (with a lumped
/// mass it would need 1.1 N and slide; both sliding, or a sliding, gives
/// accelerations against the slip: the decision is unique). Closed form:
/// `x0 = 0`, `x1 = t²/4`, and the joints' forces on their DOFs `F.a = -0.9`,
/// `F.b = -1`; no event after the start.
#[test]
fn two_joints_on_one_consistent_mass_are_decided_together() {
    let m = SymMatrix::from_upper(2, vec![(0, 0, 1.0), (0, 1, 0.4), (1, 1, 1.0)]);
    let k = SymMatrix::from_upper(2, vec![(0, 0, 1e-12), (1, 1, 1e-12)]);
    let sys = with_structure(
        "two_joints",
        &m,
        &k,
        "",
        "[[contact]]\nname = \"a\"\nbetween = [\"s:0\", \"ground\"]\nmodel = \"coulomb\"\nparams = { fc = 1.0 }\n\
         [[contact]]\nname = \"b\"\nbetween = [\"s:1\", \"ground\"]\nmodel = \"coulomb\"\nparams = { fc = 1.0 }\n\
         [[force]]\nname = \"p0\"\non = \"s:0\"\nvalue = 1.1\n\
         [[force]]\nname = \"p1\"\non = \"s:1\"\nvalue = 1.5\n\
         [solver]\nt_end = 2.0\noutput_dt = 1e-2\nrtol = 1e-11\natol = 1e-14",
    );
    let out = run(&sys);
    assert!(out.events.iter().all(|e| e.t == 0.0), "events after the start: {:?}", out.events);
    let t = out.series("t");
    let (x0, x1) = (out.series("x.s:0"), out.series("x.s:1"));
    let (fa, fb) = (out.series("F.a"), out.series("F.b"));
    for i in 1..t.len() {
        assert!(x0[i] == 0.0, "the held DOF moved: x0 = {} at t = {}", x0[i], t[i]);
        assert!((x1[i] - t[i] * t[i] / 4.0).abs() < 1e-9, "x1 = {} at t = {}", x1[i], t[i]);
        assert!((fa[i] + 0.9).abs() < 1e-9, "F.a = {} at t = {} (want -0.9)", fa[i], t[i]);
        assert!((fb[i] + 1.0).abs() < 1e-12, "F.b = {} at t = {}", fb[i], t[i]);
    }
}
