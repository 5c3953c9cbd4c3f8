//! The tangent of every model's update against differences of the update
//! itself, at seeded random states in stick, in slip and across the
//! transition; and the states and forces of the update with its tangent
//! against those of the plain update, bit for bit.

use super::*;
use crate::params::{ParamMap, ParamValue};
use crate::registry::build;
use crate::update::{init, state_len, update};
use rand::{RngExt, SeedableRng};

/// Parameters that make every registry model buildable (element tables).
fn params_for(id: &str) -> ParamMap {
    let rows = |r: &[[f64; 2]], key: &str| {
        let list = r.iter().map(|row| ParamValue::List(row.iter().map(|&x| ParamValue::Num(x)).collect()));
        ParamMap::from([(key.to_string(), ParamValue::List(list.collect()))])
    };
    match id {
        "gms" => rows(&[[4e4, 0.2], [2e4, 0.3], [1e4, 0.5]], "elements"),
        "leuven" | "maxwell_slip" => rows(&[[4e4, 0.2], [2e4, 0.3], [1e4, 0.4], [5e3, 0.6]], "elements"),
        "table" => rows(&[[0.0, 1.5], [0.01, 1.0], [1.0, 1.0]], "points"),
        "freewheel" => ParamMap::from([("fl".to_string(), ParamValue::Num(2.0))]),
        _ => ParamMap::new(),
    }
}

/// A slip increment: zero now and then, else of either sign with a
/// magnitude log-uniform over [1e-9, 1e-3] m (micro-slip of stiff
/// bristles to gross slip).
fn random_du(rng: &mut rand_chacha::ChaCha8Rng) -> f64 {
    if rng.random_range(0..12) == 0 {
        0.0
    } else {
        let mag = 10f64.powf(rng.random_range(-9.0..-3.0));
        if rng.random_bool(0.5) {
            mag
        } else {
            -mag
        }
    }
}

/// The model's force after one step from `st` (unit normal load).
fn force_after(m: &AnyModel, dt: f64, du: f64, st: &[f64]) -> f64 {
    let mut s = st.to_vec();
    let mut f = [0.0];
    update(m, dt, &[du], &[1.0], &mut s, &mut f).unwrap();
    f[0]
}

/// What the differences say about `dF/dΔu` at `du`.
enum Diff {
    /// Smooth within the difference step: the central difference
    /// (Richardson-extrapolated).
    Smooth(f64),
    /// A kink within the step: the two one-sided differences.
    Kink(f64, f64),
}

fn differences(m: &AnyModel, dt: f64, du: f64, st: &[f64]) -> Diff {
    let f = |u: f64| force_after(m, dt, u, st);
    let h = 1e-4 * du.abs().max(1e-8);
    let c = |h: f64| (f(du + h) - f(du - h)) / (2.0 * h);
    let (c1, c2) = (c(h), c(0.5 * h));
    let f0 = f(du);
    let fwd = (f(du + h) - f0) / h;
    let bwd = (f0 - f(du - h)) / h;
    let scale = fwd.abs().max(bwd.abs()).max(1e-300);
    // a kink shows as one-sided differences that disagree far beyond their
    // first-order error (which the two central ones bound)
    if du == 0.0 || (fwd - bwd).abs() > 1e-2 * scale + 100.0 * (c1 - c2).abs() {
        let fwd2 = (f(du + 0.01 * h) - f0) / (0.01 * h);
        let bwd2 = (f0 - f(du - 0.01 * h)) / (0.01 * h);
        Diff::Kink(fwd2, bwd2)
    } else {
        Diff::Smooth((4.0 * c2 - c1) / 3.0)
    }
}

fn tangent_of(m: &AnyModel, dt: f64, du: f64, nf: f64, st: &[f64]) -> (f64, f64, f64, Vec<f64>) {
    let mut s = st.to_vec();
    let (mut f, mut k, mut dn) = ([0.0], [0.0], [0.0]);
    update_tangent(m, dt, &[du], &[nf], &mut s, &mut f, Some(&mut k), Some(&mut dn)).unwrap();
    (f[0], k[0], dn[0], s)
}

/// Relative error of `got` against `want`, on the scale `scale`.
fn rel(got: f64, want: f64, scale: f64) -> f64 {
    (got - want).abs() / want.abs().max(scale).max(1e-300)
}

/// Models whose tangent is documented not to be the derivative of the
/// whole step where a discrete event falls within it, and why.
const KNOWN: [(&str, &str); 1] = [(
    "bristle",
    "its bristles break and re-attach, jumps of the force; the tangent is the stiffness between jumps, n σ0",
)];

/// Every model's tangent against differences of its update: 40 random
/// histories each, then a step of random size (zero, micro-slip within
/// the stick range of stiff bristles and sliders, gross slip). Where the
/// update is smooth within the difference step the tangent equals the
/// central difference; where a kink lies within it (an element reaching
/// its slip force, a zero increment) the tangent equals one of the
/// one-sided derivatives, or their mean at a zero increment of the
/// exponential models. Tolerances: 1e-6 relative for the direct and exact
/// updates; the generic implicit update is itself exact only to its
/// Newton and sub-step tolerances (1e-6 of the state per sub-step), which
/// its differences see: 1e-3 there, relative to the larger of the
/// tangent and the stick stiffness.
#[test]
fn every_tangent_equals_differences_of_the_update() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(46);
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for info in crate::registry::all() {
        let m = build(info.id, &params_for(info.id)).unwrap();
        let implicit = super::super::method(&m) == super::super::Method::Implicit;
        let tol = if implicit { 1e-3 } else { 1e-6 };
        let (mut worst, mut kinks, mut smooth) = (0.0f64, 0, 0);
        for case in 0..40 {
            let dt = [1e-4, 1e-3, 1e-2][case % 3];
            let mut st = vec![0.0; state_len(&m)];
            init(&m, &mut st).unwrap();
            let mut f = [0.0];
            for _ in 0..rng.random_range(0..20) {
                let du = random_du(&mut rng);
                update(&m, dt, &[du], &[1.0], &mut st, &mut f).unwrap();
            }
            let du = random_du(&mut rng);
            let nf = rng.random_range(0.5..3.0);
            let (force, k, dn, _) = tangent_of(&m, dt, du, nf, &st);
            let fu = force_after(&m, dt, du, &st);
            assert!((dn - fu).abs() <= 1e-12 * fu.abs().max(1.0), "{}: dF/dN {dn} vs F {fu}", info.id);
            assert!((force - nf * fu).abs() <= 1e-12 * force.abs().max(1.0));
            let k = k / nf;
            // the rounding error of the differences (forces of size |F|
            // differenced over 1e-4 |Δu|), as a floor for tangents near 0:
            // an absolute error of 1e-12 |F| / h is read as 1e-6 relative
            let h = 1e-4 * du.abs().max(1e-8);
            let mut floor = 1e-6 * fu.abs().max(force_after(&m, dt, 0.0, &st).abs()).max(1e-3) / h;
            if implicit {
                // the implicit update is exact to 1e-6 of the state per
                // sub-step: its differences carry that error times the
                // stick stiffness (the tangent at a zero increment)
                floor = floor.max(tangent_of(&m, dt, 0.0, 1.0, &st).1.abs());
            }
            match differences(&m, dt, du, &st) {
                Diff::Smooth(d) => {
                    smooth += 1;
                    let e = rel(k, d, floor);
                    worst = worst.max(e);
                    if e > tol && !KNOWN.iter().any(|(id, _)| *id == info.id) {
                        failures.push(format!(
                            "{} case {case}: du {du:e} dt {dt}: tangent {k:e}, differences {d:e} ({e:.1e})",
                            info.id
                        ));
                    }
                }
                Diff::Kink(fwd, bwd) => {
                    kinks += 1;
                    let one_sided = |a: f64| rel(k, a, floor.max(1e-6 * (fwd.abs() + bwd.abs())));
                    // a force that jumps at rest (set-valued friction, the
                    // delayed sign of hess_soom): 0 is returned, documented
                    let jump = du == 0.0 && fwd.abs().min(bwd.abs()) * 0.01 * h > 1e-3 * fu.abs().max(1e-3);
                    let set_valued_rest = du == 0.0 && k == 0.0 && (info.family == Family::SetValued || jump);
                    // at a zero increment the implicit models' tangent is
                    // their partials at v = 0 as each model defines them
                    // (documented); no one-sided difference need match it
                    // the hysteresis operators at rest: between the loading
                    // (continued slip) and the unloading (elastic) slopes
                    let between = du == 0.0
                        && info.family == Family::Hysteresis
                        && k >= fwd.min(bwd) * (1.0 - 1e-6) - floor * 1e-6
                        && k <= fwd.max(bwd) * (1.0 + 1e-6) + floor * 1e-6;
                    if between {
                        continue;
                    }
                    if implicit && du == 0.0 {
                        assert!(k.is_finite(), "{} case {case}: tangent {k} at rest", info.id);
                        continue;
                    }
                    let e = one_sided(fwd).min(one_sided(bwd)).min(one_sided(0.5 * (fwd + bwd)));
                    assert!(
                        set_valued_rest || e <= 1e-3,
                        "{} case {case}: du {du:e} dt {dt}: tangent {k:e}, one-sided {fwd:e} / {bwd:e}",
                        info.id
                    );
                }
            }
        }
        report.push(format!("{:20} smooth {smooth:2} kinks {kinks:2} worst {worst:.1e}", info.id));
    }
    eprintln!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The update with its tangent writes the plain update's states and
/// forces, bit for bit, serial and parallel, with or without each tangent.
#[test]
fn update_with_tangent_writes_the_plain_update_bit_for_bit() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(461);
    for info in crate::registry::all() {
        let m = build(info.id, &params_for(info.id)).unwrap();
        let n = 300;
        let len = state_len(&m);
        let mut s0 = vec![0.0; n * len];
        init(&m, &mut s0).unwrap();
        let normal: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..3.0)).collect();
        let mut f = vec![0.0; n];
        for _ in 0..3 {
            let du: Vec<f64> = (0..n).map(|_| random_du(&mut rng)).collect();
            update(&m, 1e-3, &du, &normal, &mut s0, &mut f).unwrap();
        }
        let du: Vec<f64> = (0..n).map(|_| random_du(&mut rng)).collect();
        let (mut s_plain, mut f_plain) = (s0.clone(), vec![0.0; n]);
        update(&m, 1e-3, &du, &normal, &mut s_plain, &mut f_plain).unwrap();
        let mut k_ref = None;
        for (par, want_k, want_n) in
            [(false, true, true), (true, true, true), (false, false, true), (true, true, false)]
        {
            let (mut s, mut fo, mut k, mut dn) = (s0.clone(), vec![0.0; n], vec![0.0; n], vec![0.0; n]);
            let kk = want_k.then_some(&mut k[..]);
            let nn = want_n.then_some(&mut dn[..]);
            if par {
                update_tangent_par(&m, 1e-3, &du, &normal, &mut s, &mut fo, kk, nn).unwrap();
            } else {
                update_tangent(&m, 1e-3, &du, &normal, &mut s, &mut fo, kk, nn).unwrap();
            }
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&s), bits(&s_plain), "{} par {par}: states", info.id);
            assert_eq!(bits(&fo), bits(&f_plain), "{} par {par}: forces", info.id);
            if want_k {
                match &k_ref {
                    None => k_ref = Some(bits(&k)),
                    Some(r) => assert_eq!(&bits(&k), r, "{} par {par}: tangents", info.id),
                }
            }
        }
    }
}

/// Tangent outputs of the wrong length are refused, naming the argument,
/// and nothing is changed.
#[test]
fn tangent_of_the_wrong_length_is_refused_naming_it() {
    let m = build("jenkins", &ParamMap::new()).unwrap();
    let mut s = vec![0.0; 2 * state_len(&m)];
    let (mut f, mut k) = ([0.0; 2], [0.0; 3]);
    let before = s.clone();
    let e =
        update_tangent(&m, 1e-3, &[1e-6, 1e-6], &[1.0, 1.0], &mut s, &mut f, Some(&mut k), None).unwrap_err();
    assert!(e.to_string().contains("dforce_dslip") && e.to_string().contains('3'), "{e}");
    assert_eq!(s, before);
    let mut dn = [0.0; 1];
    let e = update_tangent(&m, 1e-3, &[1e-6, 1e-6], &[1.0, 1.0], &mut s, &mut f, None, Some(&mut dn))
        .unwrap_err();
    assert!(e.to_string().contains("dforce_dnormal"), "{e}");
}

/// The forward sensitivity of the generic implicit update, run on LuGre
/// and Dahl (exponent 1), gives the derivative of their exact updates: the
/// sensitivity machinery against a closed form, to the implicit update's
/// own accuracy.
#[test]
fn implicit_sensitivity_of_lugre_and_dahl_equals_their_exact_tangent() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(462);
    for id in ["lugre", "dahl"] {
        let m = build(id, &ParamMap::new()).unwrap();
        let mut worst = 0.0f64;
        for case in 0..30 {
            let dt = [1e-4, 1e-3, 1e-2][case % 3];
            let mut st = vec![0.0; state_len(&m)];
            init(&m, &mut st).unwrap();
            let mut f = [0.0];
            for _ in 0..rng.random_range(0..10) {
                update(&m, dt, &[random_du(&mut rng)], &[1.0], &mut st, &mut f).unwrap();
            }
            let du = random_du(&mut rng);
            if du == 0.0 {
                continue;
            }
            let (_, exact, _, _) = tangent_of(&m, dt, du, 1.0, &st);
            let l = Layout::of(&m);
            let got = match &m {
                AnyModel::LuGre(x) => ImplicitT(Implicit { m: x, l, switch: None }).tangent(
                    &mut ImplicitT(Implicit { m: x, l, switch: None }).scratch(),
                    dt,
                    du,
                    &st,
                ),
                AnyModel::Dahl(x) => ImplicitT(Implicit { m: x, l, switch: None }).tangent(
                    &mut ImplicitT(Implicit { m: x, l, switch: None }).scratch(),
                    dt,
                    du,
                    &st,
                ),
                _ => unreachable!(),
            }
            .unwrap()
            .1;
            // relative to the larger of the tangent and the stick stiffness
            let (_, k0, _, _) = tangent_of(&m, dt, 0.0, 1.0, &st);
            let e = (got - exact).abs() / exact.abs().max(k0.abs());
            worst = worst.max(e);
        }
        eprintln!("{id}: implicit sensitivity against the exact tangent, worst {worst:.1e}");
        assert!(worst < 1e-4, "{id}: worst {worst:e}");
    }
}

/// GMS elements that reach their slip force within the step: the update
/// returns them to the slip surface `k_i z_i = α_i g(v) sign(v)` (where the
/// exact motion stays) and the tangent carries the saltation of the
/// sensitivity there, so in steps with a stick-to-slip switch the tangent
/// equals the central differences of the whole update (they move the
/// switch with the increment).
#[test]
fn gms_tangent_in_steps_with_a_switch_equals_differences_of_the_update() {
    let m = build("gms", &params_for("gms")).unwrap();
    let l = Layout::of(&m);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4606);
    let (mut switched, mut worst, mut worst_own) = (0, 0.0f64, 0.0f64);
    for case in 0..3000 {
        let dt = [1e-4, 1e-3, 1e-2][case % 3];
        let mut st = vec![0.0; state_len(&m)];
        init(&m, &mut st).unwrap();
        let mut f = [0.0];
        for _ in 0..rng.random_range(0..20) {
            update(&m, dt, &[random_du(&mut rng)], &[1.0], &mut st, &mut f).unwrap();
        }
        let du = random_du(&mut rng);
        let (_, k, _, end) = tangent_of(&m, dt, du, 1.0, &st);
        // an element went from sticking to slipping within the step
        let stick_to_slip = st[l.mem()].iter().zip(&end[l.mem()]).any(|(&a, &b)| a == 0.0 && b != 0.0);
        if du == 0.0 || !stick_to_slip {
            continue;
        }
        switched += 1;
        let Diff::Smooth(d) = differences(&m, dt, du, &st) else {
            continue;
        };
        // relative to the larger of the differences and the stick stiffness
        // Σ k_i, as for every implicit update (exact to 1e-6 of the state
        // per sub-step, which its differences see)
        let e = (k - d).abs() / d.abs().max(7e4);
        worst = worst.max(e);
        worst_own = worst_own.max((k - d).abs() / d.abs());
        assert!(e < 1e-4, "case {case}: du {du:e} dt {dt}: tangent {k:e}, differences {d:e} ({e:.1e})");
        if switched == 60 {
            break;
        }
    }
    eprintln!("gms: {switched} steps with a stick-to-slip switch, worst {worst:.1e} of the stick stiffness, {worst_own:.1e} of the differences");
    assert!(switched >= 40, "only {switched} steps with a switch");
}

/// At the slip increment `u*` with which the first GMS element reaches its
/// slip force exactly at the end of a step from rest, the update has a kink:
/// below it every element sticks (tangent `Σ k_i`), above it the first
/// slips (its `k_1` replaced by the derivative of its slip force). The
/// tangent on either side equals the one-sided differences of the update,
/// and at `u*` itself one of them.
#[test]
fn gms_tangent_at_the_switch_itself_is_one_sided() {
    let m = build("gms", &params_for("gms")).unwrap();
    let AnyModel::Gms(g) = &m else { unreachable!() };
    let dt = 1e-2;
    let mut st = vec![0.0; state_len(&m)];
    init(&m, &mut st).unwrap();
    // u* = α_1 g(u*/dt) / k_1 (element [4e4, 0.2]), by fixed-point iteration
    let mut u = 1e-5;
    for _ in 0..200 {
        u = 0.2 * g.g(u / dt) / 4e4;
    }
    let h = 1e-7 * u;
    let fwd = |u: f64| (force_after(&m, dt, u + h, &st) - force_after(&m, dt, u, &st)) / h;
    let bwd = |u: f64| (force_after(&m, dt, u, &st) - force_after(&m, dt, u - h, &st)) / h;
    let below = u * (1.0 - 1e-4);
    let above = u * (1.0 + 1e-4);
    let (kb, ka) = (tangent_of(&m, dt, below, 1.0, &st).1, tangent_of(&m, dt, above, 1.0, &st).1);
    // Σ k_i and the viscous σ2 / dt
    assert!((kb - (7e4 + 0.4 / dt)).abs() < 1e-6 * 7e4, "all stick below u*: {kb}");
    assert!((kb - bwd(below)).abs() < 1e-4 * 7e4, "below: tangent {kb}, differences {}", bwd(below));
    assert!((ka - fwd(above)).abs() < 1e-4 * 7e4, "above: tangent {ka}, differences {}", fwd(above));
    // the first element's stiffness is gone above u*
    assert!((kb - ka) > 0.9 * 4e4, "below {kb}, above {ka}");
    let k = tangent_of(&m, dt, u, 1.0, &st).1;
    let (f, b) = (fwd(u), bwd(u));
    assert!((f - b).abs() > 0.9 * 4e4, "a kink at u*: one-sided {f} / {b}");
    let e = (k - f).abs().min((k - b).abs());
    assert!(e < 1e-4 * 7e4, "at u*: tangent {k}, one-sided {f} / {b}");
}

/// Bristle: between the snaps of its bonds (jumps of the force) the force
/// is `Σ σ0 (x - b_i)`, so its tangent `N σ0` is the derivative of the
/// update wherever no bond snaps or re-forms within the difference step,
/// including steps in which bonds snapped: the central differences equal it
/// to 1e-6 there. Where a snap lies within the difference step the update
/// jumps, and no derivative exists (documented).
#[test]
fn bristle_tangent_is_n_sigma0_between_jumps() {
    let m = build("bristle", &ParamMap::new()).unwrap();
    let AnyModel::Bristle(b) = &m else { unreachable!() };
    let k0 = b.params().n as f64 * b.params().sigma0;
    let l = Layout::of(&m);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4607);
    let after = |dt: f64, du: f64, st: &[f64]| {
        let mut s = st.to_vec();
        let mut f = [0.0];
        update(&m, dt, &[du], &[1.0], &mut s, &mut f).unwrap();
        (f[0], s)
    };
    let (mut between, mut with_snaps, mut jumps, mut worst) = (0, 0, 0, 0.0f64);
    for case in 0..400 {
        let dt = [1e-4, 1e-3, 1e-2][case % 3];
        let mut st = vec![0.0; state_len(&m)];
        init(&m, &mut st).unwrap();
        let mut f = [0.0];
        for _ in 0..rng.random_range(0..20) {
            update(&m, dt, &[random_du(&mut rng)], &[1.0], &mut st, &mut f).unwrap();
        }
        let du = random_du(&mut rng);
        if du == 0.0 {
            continue;
        }
        let (_, k, _, end) = tangent_of(&m, dt, du, 1.0, &st);
        assert_eq!(k, k0, "case {case}: the tangent is N σ0");
        let h = 1e-6 * du.abs();
        let ((fp, sp), (fm, sm)) = (after(dt, du + h, &st), after(dt, du - h, &st));
        if sp[l.mem()] != end[l.mem()] || sm[l.mem()] != end[l.mem()] {
            // a bond snaps within the difference step: a jump
            jumps += 1;
            continue;
        }
        between += 1;
        if st[l.mem()] != end[l.mem()] {
            with_snaps += 1;
        }
        let d = (fp - fm) / (2.0 * h);
        let e = (d - k).abs() / k;
        worst = worst.max(e);
        // the rounding of forces of size N σ0 δs over 2 h
        let floor = 1e-15 * k0 * b.params().delta_s / h;
        assert!(e < 1e-6 + floor, "case {case}: du {du:e}: tangent {k:e}, differences {d:e}");
    }
    eprintln!("bristle: {between} steps between jumps ({with_snaps} with snaps in the step), worst {worst:.1e}; {jumps} with a jump within the difference step");
    assert!(between >= 200 && with_snaps >= 20, "{between} between jumps, {with_snaps} with snaps");
}

/// Armstrong's break-away (stick to slide) within a step: the update finds
/// the instant at which the spring's force reaches the break-away level
/// (which rises with the dwell time) and freezes the stiction of that
/// instant for the slide, and the tangent carries the derivative of that
/// instant, so in steps with a break-away (from rest, or after a stop at
/// the step's start that reverses the contact) the tangent equals the
/// central differences of the whole update, which move the break-away with
/// the increment.
#[test]
fn armstrong_tangent_in_a_step_with_a_break_away_equals_differences_of_the_update() {
    let num = |k: &str, v: f64| (k.to_string(), ParamValue::Num(v));
    // the defaults, and no lag (w = v, so a stop's Fs,a = Fs L(v) moves with
    // the increment) with viscous friction and fast healing
    let sets = [
        (ParamMap::new(), 4608),
        (ParamMap::from([num("tau_l", 0.0), num("kv", 20.0), num("gamma", 0.02)]), 4609),
    ];
    for (params, seed) in sets {
        let m = build("armstrong", &params).unwrap();
        let l = Layout::of(&m);
        let mode = l.mem().start;
        let sigma0 = 1e5;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut from_rest, mut reversed, mut kinks, mut worst, mut worst_own) = (0, 0, 0, 0.0f64, 0.0f64);
        for case in 0..20_000 {
            let dt = [1e-4, 1e-3, 1e-2][case % 3];
            let mut st = vec![0.0; state_len(&m)];
            init(&m, &mut st).unwrap();
            let mut f = [0.0];
            for _ in 0..rng.random_range(0..20) {
                update(&m, dt, &[random_du(&mut rng)], &[1.0], &mut st, &mut f).unwrap();
            }
            let du = random_du(&mut rng);
            let (_, k, _, end) = tangent_of(&m, dt, du, 1.0, &st);
            let (before, after) = (st[mode], end[mode]);
            // stick to slide, or slide, stop at the step's start and slide back
            let break_away = after != 0.0 && before != after;
            if du == 0.0 || !break_away {
                continue;
            }
            let Diff::Smooth(d) = differences(&m, dt, du, &st) else {
                // the break-away at the step's end lies within the
                // difference step: the force jumps there
                kinks += 1;
                continue;
            };
            if before == 0.0 {
                from_rest += 1;
            } else {
                reversed += 1;
            }
            // relative to the differences, and to 1e-6 σ0 for the small
            // sliding tangents (down to 1e-3 N/m at the start of a slide):
            // the implicit update of the lagged velocity is exact to 1e-6 of
            // it per sub-step, which its differences see
            let e = (k - d).abs() / d.abs().max(1e-6 * sigma0);
            worst = worst.max(e);
            worst_own = worst_own.max((k - d).abs() / d.abs());
            assert!(
                e < 1e-4,
                "{params:?} case {case}: du {du:e} dt {dt}: tangent {k:e}, differences {d:e} ({e:.1e})"
            );
            if from_rest >= 60 && reversed >= 30 {
                break;
            }
        }
        eprintln!("armstrong {params:?}: {from_rest} break-aways from rest, {reversed} after a reversal ({kinks} with a kink within the difference step), worst {worst:.1e} (of max(|d|, 1e-6 σ0)), {worst_own:.1e} of the differences");
        assert!(from_rest >= 60 && reversed >= 30, "{from_rest} from rest, {reversed} reversed");
    }
}

/// A sliding Armstrong contact reversed by a step stops at the step's start
/// and, pushed far enough back, breaks away backwards within the step. At
/// the increment `u*` with which it reaches its break-away level exactly at
/// the step's end the force jumps, from the spring's `-(Fc + Fs)` to the
/// sliding level `-(Fc + Fs L(w))` (the lagged velocity `w` still near the
/// last slide's). On the stuck side (`|Δu| < |u*|`) the tangent is the
/// spring's `σ0`, on the sliding side the derivative of the slide (its
/// break-away instant moving with the increment), each equal to the
/// differences on its side; at `u*` itself the tangent is the one-sided
/// derivative of the branch the update takes.
#[test]
fn armstrong_tangent_at_the_break_away_itself_is_one_sided() {
    let m = build("armstrong", &ParamMap::new()).unwrap();
    let AnyModel::Armstrong(a) = &m else { unreachable!() };
    let p = *a.params();
    let mem = Layout::of(&m).mem().start;
    let mut st = vec![0.0; state_len(&m)];
    init(&m, &mut st).unwrap();
    let mut f = [0.0];
    // slide forward at 1 cm/s for 30 ms
    for du in [2e-4, 1e-4] {
        update(&m, 1e-2, &[du], &[1.0], &mut st, &mut f).unwrap();
    }
    assert_eq!(st[mem], 1.0, "sliding forward");
    // then a short step back: the stop at its start (t_stick = t, Fs,a =
    // Fs,slide L(w)) and u*: σ0 (x + u* - xa) = -(Fc + Fs(γ, dt))
    let dt = 1e-4;
    let lorentz = |w: f64| 1.0 / (1.0 + (w / p.vs).powi(2));
    let fs_a = st[mem + 4] * lorentz(st[Z]);
    let u = st[mem + 1] - st[X] - (p.fc + p.stiction(fs_a, dt)) / p.sigma0;
    let force = |u: f64| force_after(&m, dt, u, &st);
    // Richardson-extrapolated central differences (the implicit update's
    // own error, 1e-6 of its state per sub-step, needs steps of 1e-5 |u|)
    let c = |u: f64, h: f64| (force(u + h) - force(u - h)) / (2.0 * h);
    let central = |u: f64, h: f64| (4.0 * c(u, 0.5 * h) - c(u, h)) / 3.0;
    let (stuck, sliding) = (u * (1.0 - 1e-4), u * (1.0 + 1e-4));
    let h = -2e-5 * u;
    let (kb, ka) = (tangent_of(&m, dt, stuck, 1.0, &st).1, tangent_of(&m, dt, sliding, 1.0, &st).1);
    let (db, da) = (central(stuck, h), central(sliding, h));
    assert_eq!(kb, p.sigma0, "stuck short of u*");
    assert!((kb - db).abs() < 1e-6 * p.sigma0, "stuck: tangent {kb}, differences {db}");
    assert!(
        (ka - da).abs() < 1e-4 * da.abs().max(1e-6 * p.sigma0),
        "sliding: tangent {ka}, differences {da}"
    );
    // the jump, from the spring's force at the threshold to the slide's
    let jump = force(sliding) - force(stuck);
    let spring = p.sigma0 * (stuck - sliding);
    assert!(jump > 20.0 * spring, "a jump at u*: {jump:e}, the spring over the interval {spring:e}");
    let mut end = st.clone();
    let k = tangent_of(&m, dt, u, 1.0, &st).1;
    update(&m, dt, &[u], &[1.0], &mut end, &mut f).unwrap();
    // first-order one-sided differences, Richardson-extrapolated
    let h = -1e-4 * u;
    let from = |h: f64| (force(u + h) - force(u)) / h;
    let (one_sided, side) = if end[mem] == 0.0 {
        (2.0 * from(0.5 * h) - from(h), "stuck")
    } else {
        (2.0 * from(-0.5 * h) - from(-h), "sliding")
    };
    eprintln!("armstrong at u* = {u:e}: stuck {kb:e}, sliding {ka:e} (differences {da:e}), jump {jump:e}; at u* {side}: tangent {k:e}, one-sided {one_sided:e}");
    assert!(
        (k - one_sided).abs() < 1e-4 * one_sided.abs().max(1e-6 * p.sigma0),
        "at u* ({side}): tangent {k}, one-sided {one_sided}"
    );
}
