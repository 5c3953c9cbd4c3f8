//! Physics checks of the 2-D update: closed forms, the 1-D update on an
//! axis, isotropy and passivity.

use super::*;
use crate::models::iwan4::{Iwan4, Iwan4Params};
use crate::models::maxwell_slip::{Element, MaxwellSlip, MaxwellSlipParams};
use crate::params::{ParamMap, ParamValue};
use crate::registry::build;
use crate::update::{init, state_len, update};
use rand::{RngExt, SeedableRng};

pub(super) fn params(kv: &[(&str, ParamValue)]) -> ParamMap {
    kv.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

pub(super) fn num(v: f64) -> ParamValue {
    ParamValue::Num(v)
}

/// Every model with a 2-D form, with parameters that exercise it.
pub(super) fn planar_models() -> Vec<(String, AnyModel)> {
    let specs: Vec<(&str, ParamMap)> = vec![
        ("viscous", ParamMap::new()),
        ("power_viscous", ParamMap::new()),
        ("coulomb", ParamMap::new()),
        ("coulomb_viscous", ParamMap::new()),
        ("coulomb_sat", ParamMap::new()),
        ("coulomb_tanh", ParamMap::new()),
        ("stribeck", ParamMap::new()),
        ("stribeck_sat", ParamMap::new()),
        ("stribeck_tanh", ParamMap::new()),
        ("stribeck_exp", ParamMap::new()),
        ("jenkins", ParamMap::new()),
        ("iwan4", params(&[("n", num(20.0))])),
        ("lugre", ParamMap::new()),
        ("lugre", params(&[("exponent", num(1.0))])),
        ("lugre", params(&[("shape", ParamValue::Str("lorentzian".into()))])),
        ("dahl", ParamMap::new()),
        ("dahl", params(&[("sigma0", num(3e4)), ("fc", num(0.7))])),
        ("dankowicz", ParamMap::new()),
        ("iwan5", params(&[("n", num(20.0))])),
        ("iwan5", params(&[("n", num(7.0)), ("beta", num(0.0)), ("chi", num(-0.2))])),
        ("bouc_wen", ParamMap::new()),
        ("bouc_wen", params(&[("n", num(2.0)), ("beta", num(7e9)), ("gamma", num(3e9))])),
        ("bouc_wen", params(&[("n", num(1.5)), ("beta", num(2e7)), ("gamma", num(-1e7)), ("a", num(0.8))])),
    ];
    let mut models: Vec<(String, AnyModel)> = specs
        .into_iter()
        .map(|(id, p)| {
            let m = build(id, &p).unwrap_or_else(|e| panic!("{id}: {e}"));
            (format!("{id} {p:?}"), m)
        })
        .collect();
    let elements = [(1e4, 0.2), (3e4, 0.3), (5e5, 0.5), (2e3, 0.1), (7e4, 0.25)];
    let p = MaxwellSlipParams { elements: elements.iter().map(|&(k, fmax)| Element { k, fmax }).collect() };
    models.push(("maxwell_slip".into(), AnyModel::MaxwellSlip(MaxwellSlip::new(p).unwrap())));
    models
}

pub(super) fn fresh_2d(m: &AnyModel, n: usize) -> Vec<f64> {
    let mut s = vec![0.0; n * state_len_2d(m).unwrap()];
    init_2d(m, &mut s).unwrap();
    s
}

/// One contact driven through 2-D increments; the forces at step ends.
pub(super) fn run_2d(m: &AnyModel, dt: f64, du: &[[f64; 2]], normal: f64) -> Vec<[f64; 2]> {
    let mut s = fresh_2d(m, 1);
    let mut f = [0.0; 2];
    du.iter()
        .map(|u| {
            update_2d(m, dt, u, &[normal], &mut s, &mut f).unwrap();
            f
        })
        .collect()
}

/// Seeded random increments of a few micrometres, some exactly zero.
fn random_increments(seed: u64, steps: usize, scale: f64) -> Vec<f64> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..steps).map(|k| if k % 11 == 5 { 0.0 } else { scale * rng.random_range(-1.0..1.0) }).collect()
}

/// On a path along either axis the 2-D update gives the 1-D update's
/// forces bit for bit, and zero across. `bouc_wen` is integrated in the frame
/// of the slip, where the slip is always positive: its steps of negative
/// slip differ from the 1-D update (which integrates with a negative
/// velocity, its one-sided difference Jacobian stepping the other way) by
/// the implicit update's tolerance; they are held to 1e-6 of the sliding
/// force, the positive steps of a path that never reverses to bit for bit.
#[test]
fn axis_path_gives_the_1d_forces_bit_for_bit_and_zero_across() {
    let dt = 1e-4;
    for (name, m) in planar_models() {
        if let AnyModel::BoucWen(b) = &m {
            let fu = b.params().sliding_force();
            axis_path_within(&m, &random_increments(3, 400, 4e-6), 1e-6 * fu, &name);
            // never reversing: the frame is the identity along +x
            let du: Vec<f64> = random_increments(4, 400, 4e-6).iter().map(|u| u.abs()).collect();
            axis_path_within(&m, &du, 0.0, &name);
            continue;
        }
        let du = random_increments(3, 400, 4e-6);
        let mut s1 = vec![0.0; state_len(&m)];
        init(&m, &mut s1).unwrap();
        let mut f1 = [0.0];
        for axis in 0..2 {
            let mut s2 = fresh_2d(&m, 1);
            init(&m, &mut s1).unwrap();
            for (k, &u) in du.iter().enumerate() {
                update(&m, dt, &[u], &[2.5], &mut s1, &mut f1).unwrap();
                let mut u2 = [0.0; 2];
                u2[axis] = u;
                let mut f2 = [0.0; 2];
                update_2d(&m, dt, &u2, &[2.5], &mut s2, &mut f2).unwrap();
                assert_eq!(
                    f2[axis].to_bits(),
                    f1[0].to_bits(),
                    "{name} axis {axis} step {k}: {} vs {}",
                    f2[axis],
                    f1[0]
                );
                assert_eq!(f2[1 - axis], 0.0, "{name} axis {axis} step {k}");
            }
        }
    }
}

/// The 2-D update along x and along y against the 1-D update on the same
/// increments: within `tol` on the axis (bit for bit for `tol = 0`) and
/// exactly 0 across.
fn axis_path_within(m: &AnyModel, du: &[f64], tol: f64, name: &str) {
    let dt = 1e-4;
    let mut worst: f64 = 0.0;
    for axis in 0..2 {
        let mut s1 = vec![0.0; state_len(m)];
        init(m, &mut s1).unwrap();
        let mut s2 = fresh_2d(m, 1);
        let mut f1 = [0.0];
        for (k, &u) in du.iter().enumerate() {
            update(m, dt, &[u], &[2.5], &mut s1, &mut f1).unwrap();
            let mut u2 = [0.0; 2];
            u2[axis] = u;
            let mut f2 = [0.0; 2];
            update_2d(m, dt, &u2, &[2.5], &mut s2, &mut f2).unwrap();
            if tol == 0.0 {
                assert_eq!(
                    f2[axis].to_bits(),
                    f1[0].to_bits(),
                    "{name} axis {axis} step {k}: {} vs {}",
                    f2[axis],
                    f1[0]
                );
            }
            worst = worst.max((f2[axis] - f1[0]).abs());
            assert_eq!(f2[1 - axis], 0.0, "{name} axis {axis} step {k}");
        }
    }
    println!("{name}: largest difference from the 1-D update on an axis {worst:.1e} (bound {tol:.0e})");
    assert!(worst <= tol, "{name}: {worst:e} > {tol:e}");
}

/// A path rotated by any angle gives the rotated forces (1e-12 of the
/// largest force). `bouc_wen` is held to 1e-8: its implicit update stops
/// Newton's iteration at 1e-3 of its tolerance 1e-6, on residuals computed
/// from the rotated values, which differ by rounding; one iteration more or
/// less on one side moves the state by up to 1e-9 of its size.
#[test]
fn rotated_path_gives_rotated_forces() {
    let dt = 1e-4;
    for (name, m) in planar_models() {
        let tol = if matches!(m, AnyModel::BoucWen(_)) { 1e-8 } else { 1e-12 };
        let mut worst_all: f64 = 0.0;
        let a = random_increments(5, 600, 4e-6);
        let b = random_increments(6, 600, 4e-6);
        let du: Vec<[f64; 2]> = a.iter().zip(&b).map(|(&x, &y)| [x, y]).collect();
        let f0 = run_2d(&m, dt, &du, 1.5);
        let scale = f0.iter().map(|f| f[0].hypot(f[1])).fold(0.0, f64::max);
        assert!(scale > 0.0, "{name}");
        for theta in [0.3, 2.0, -1.1, std::f64::consts::FRAC_PI_4] {
            let (c, s) = (f64::cos(theta), f64::sin(theta));
            let rot = |v: [f64; 2]| [c * v[0] - s * v[1], s * v[0] + c * v[1]];
            let dur: Vec<[f64; 2]> = du.iter().map(|&u| rot(u)).collect();
            let fr = run_2d(&m, dt, &dur, 1.5);
            let worst = f0
                .iter()
                .zip(&fr)
                .map(|(&f, g)| {
                    let r = rot(f);
                    (r[0] - g[0]).hypot(r[1] - g[1])
                })
                .fold(0.0, f64::max);
            assert!(worst <= tol * scale, "{name} θ {theta}: worst {worst:e} of {scale:e}");
            worst_all = worst_all.max(worst / scale);
        }
        println!("{name}: rotated forces within {worst_all:.1e} of the largest force");
    }
}

/// Passivity: on seeded random closed paths (a random walk and its way
/// back) the work of the slip against the friction force is non-negative,
/// for every model.
#[test]
fn random_closed_paths_dissipate_non_negative_energy() {
    let dt = 1e-4;
    for (name, m) in planar_models() {
        for seed in 0..5 {
            let a = random_increments(100 + seed, 300, 5e-6);
            let b = random_increments(200 + seed, 300, 5e-6);
            let mut du: Vec<[f64; 2]> = a.iter().zip(&b).map(|(&x, &y)| [x, y]).collect();
            let back: Vec<[f64; 2]> = du.iter().rev().map(|u| [-u[0], -u[1]]).collect();
            du.extend(back);
            let f = run_2d(&m, dt, &du, 1.0);
            let w: f64 = f.iter().zip(&du).map(|(f, u)| f[0] * u[0] + f[1] * u[1]).sum();
            let scale: f64 = f.iter().zip(&du).map(|(f, u)| (f[0] * u[0]).abs() + (f[1] * u[1]).abs()).sum();
            assert!(w >= -1e-12 * scale, "{name} seed {seed}: work {w:e}");
        }
    }
}

/// Jenkins on a circular orbit of radius R > d = fs/kt: at steady state
/// |F| = fs, and the force makes the angle acos(d/R) with the position (the
/// slider circles at radius sqrt(R² - d²) with the spring tangent to its
/// circle). 20,000 steps per turn: the discrete lag is O(1/20000).
#[test]
fn jenkins_on_a_circle_lags_by_acos_d_over_r() {
    let (kt, fs) = (1e5, 1.0);
    let m = build("jenkins", &params(&[("kt", num(kt)), ("fs", num(fs))])).unwrap();
    let d = fs / kt;
    for r in [1.5 * d, 4.0 * d] {
        let per = 20_000;
        let pos = |k: usize| {
            let a = 2.0 * std::f64::consts::PI * k as f64 / per as f64;
            [r * a.cos(), r * a.sin()]
        };
        // out along x to the orbit, then three turns
        let mut du = vec![[r / 100.0, 0.0]; 100];
        for k in 1..=3 * per {
            let (p, q) = (pos(k), pos(k - 1));
            du.push([p[0] - q[0], p[1] - q[1]]);
        }
        let f = run_2d(&m, 1e-5, &du, 1.0);
        let fl = f[f.len() - 1];
        let p = pos(3 * per);
        let mag = fl[0].hypot(fl[1]);
        let angle = ((fl[0] * p[0] + fl[1] * p[1]) / (mag * r)).acos();
        let exact = (d / r).acos();
        println!("jenkins R = {} d: |F| {mag}, angle {angle} rad, closed form {exact}", r / d);
        assert!((mag - fs).abs() < 1e-12, "|F| {mag}");
        assert!((angle - exact).abs() < 1e-3, "angle {angle} vs {exact}");
        // the force leads the position in the direction of motion (counter-clockwise)
        assert!(p[0] * fl[1] - p[1] * fl[0] > 0.0);
    }
}

/// Jenkins (the penalty-regularised Coulomb contact): a node pushed inside
/// the friction disk stays stuck (F = kt u, slider unmoved), in any
/// direction and back.
#[test]
fn jenkins_node_pushed_inside_the_disk_stays_stuck() {
    let m = build("jenkins", &ParamMap::new()).unwrap();
    let (kt, fs) = (1e5, 1.0);
    let mut s = fresh_2d(&m, 1);
    let mut f = [0.0; 2];
    let mut u = [0.0, 0.0];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for _ in 0..200 {
        // stay within 0.9 fs/kt of the origin
        let a: f64 = rng.random_range(0.0..std::f64::consts::TAU);
        let rr = 0.9 * fs / kt * rng.random_range(0.0..1.0f64).sqrt();
        let target = [rr * a.cos(), rr * a.sin()];
        let du = [target[0] - u[0], target[1] - u[1]];
        update_2d(&m, 1e-3, &du, &[1.0], &mut s, &mut f).unwrap();
        u = [s[X], s[Y]];
        assert_eq!([s[M], s[M + 1]], [0.0, 0.0], "the slider moved");
        assert!((f[0] - kt * u[0]).abs() < 1e-12 && (f[1] - kt * u[1]).abs() < 1e-12);
    }
}

/// Coulomb: on a circle it slides with |F| = μN along the velocity (the
/// force opposes the slip), and a contact that does not slip gets the rest
/// value 0 (the caller owns stick, as in 1-D).
#[test]
fn coulomb_slides_on_a_circle_with_mu_n_against_the_velocity() {
    let m = build("coulomb", &params(&[("fc", num(0.3))])).unwrap();
    let per = 360;
    let r = 1e-3;
    let pos = |k: usize| {
        let a = std::f64::consts::TAU * k as f64 / per as f64;
        [r * a.cos(), r * a.sin()]
    };
    let du: Vec<[f64; 2]> = (1..=per)
        .map(|k| {
            let (p, q) = (pos(k), pos(k - 1));
            [p[0] - q[0], p[1] - q[1]]
        })
        .collect();
    let f = run_2d(&m, 1e-3, &du, 20.0);
    for (f, u) in f.iter().zip(&du) {
        let mag = f[0].hypot(f[1]);
        assert!((mag - 6.0).abs() < 1e-12, "|F| {mag}");
        assert!((f[0] * u[0] + f[1] * u[1] - mag * u[0].hypot(u[1])).abs() < 1e-12 * mag * r);
    }
    assert_eq!(run_2d(&m, 1e-3, &[[0.0, 0.0]], 20.0)[0], [0.0, 0.0]);
}

/// LuGre at constant velocity in any direction settles on
/// |F| = g(|v|) + σ2 |v| along v.
#[test]
fn lugre_at_constant_velocity_settles_on_its_stribeck_curve_along_v() {
    let m = build("lugre", &ParamMap::new()).unwrap();
    let AnyModel::LuGre(lg) = &m else { unreachable!() };
    let p = *lg.params();
    for (speed, angle) in [(2e-4, 0.4), (1e-3, 2.5), (5e-2, -1.0)] {
        // 1 µm per step: 2 mm in all, over a hundred times g/σ0
        let dt = 1e-6 / speed;
        let (c, s) = (f64::cos(angle), f64::sin(angle));
        let du = vec![[speed * dt * c, speed * dt * s]; 2000];
        let f = run_2d(&m, dt, &du, 1.0);
        let fl = f[f.len() - 1];
        let exact = lg.g(speed) + p.sigma2 * speed;
        assert!((fl[0] - exact * c).abs() < 1e-12 * exact, "{speed} {angle}: {fl:?}");
        assert!((fl[1] - exact * s).abs() < 1e-12 * exact, "{speed} {angle}: {fl:?}");
    }
}

/// Iwan-4 in 2-D under a unidirectional path (a straight line at 30°):
/// Segalman's closed-form micro-slip dissipation per cycle, as in 1-D.
#[test]
fn iwan4_along_a_line_dissipates_segalmans_closed_form() {
    let p = Iwan4Params { fs: 1.0, kt: 1e4, chi: -0.5, beta: 0.1, n: 200 };
    let m = AnyModel::Iwan4(Iwan4::new(p).unwrap());
    let (r, _) = p.density();
    let (c, s) = (f64::cos(0.5), f64::sin(0.5));
    for rel in [1e-2, 1e-1] {
        let a = rel * p.phi_max();
        let per = 1000;
        let step = a / per as f64;
        let mut du = vec![[step * c, step * s]; per];
        du.extend(vec![[-step * c, -step * s]; 2 * per]);
        du.extend(vec![[step * c, step * s]; 2 * per]);
        let f = run_2d(&m, 1e-3, &du, 1.0);
        let w: f64 = (per..du.len())
            .map(|k| 0.5 * ((f[k][0] + f[k - 1][0]) * du[k][0] + (f[k][1] + f[k - 1][1]) * du[k][1]))
            .sum();
        let exact = 4.0 * r * a.powf(p.chi + 3.0) / ((p.chi + 2.0) * (p.chi + 3.0));
        println!("iwan4 2-D a = {rel} φmax: dissipation {w:.6e}, Segalman {exact:.6e}");
        assert!((w - exact).abs() < 5e-3 * exact, "a {a}: {w} vs {exact}");
    }
}

/// Models without a 2-D form answer with their id and a reason, from every
/// entry point; bad arguments name the argument.
#[test]
fn models_without_a_vector_form_say_so_and_bad_arguments_are_named() {
    for id in
        ["magic_formula", "table", "rate_state", "gms", "leuven", "freewheel", "stochastic", "elasto_plastic"]
    {
        let Ok(m) = build(id, &ParamMap::new()) else { continue };
        let e = state_len_2d(&m).unwrap_err();
        assert!(matches!(e, UpdateError::NoPlanarForm { model, .. } if model == id), "{id}: {e}");
        assert!(update_2d(&m, 1e-3, &[0.0, 0.0], &[1.0], &mut [0.0; 8], &mut [0.0; 2]).is_err());
    }
    let m = build("jenkins", &params(&[("theta", num(0.5))])).unwrap();
    assert!(state_len_2d(&m).unwrap_err().to_string().contains("theta"));
    let m = build("iwan5", &params(&[("theta", num(0.8))])).unwrap();
    assert!(state_len_2d(&m).unwrap_err().to_string().contains("theta"), "iwan5");
    let m = build("dahl", &params(&[("exponent", num(2.0))])).unwrap();
    let e = state_len_2d(&m).unwrap_err().to_string();
    assert!(e.contains("dahl") && e.contains("exponent"), "{e}");
    let m = build("lugre", &ParamMap::new()).unwrap();
    let mut s = fresh_2d(&m, 2);
    let mut f = [0.0; 4];
    let e = update_2d(&m, 1e-3, &[0.0; 3], &[1.0, 1.0], &mut s, &mut f).unwrap_err();
    assert!(matches!(e, UpdateError::Length { argument: "slip_increment", len: 3, expected: 4, .. }), "{e}");
    let e = update_2d(&m, 1e-3, &[0.0, 0.0, f64::NAN, 0.0], &[1.0, 1.0], &mut s, &mut f).unwrap_err();
    assert!(matches!(e, UpdateError::NonFinite { contact: 1, argument: "slip_increment", .. }), "{e}");
    let e = update_2d(&m, 1e-3, &[0.0; 4], &[1.0, -1.0], &mut s, &mut f).unwrap_err();
    assert_eq!(e, UpdateError::NegativeNormal { contact: 1, value: -1.0 });
    // a slip speed |du|/dt that overflows, in the serial and the parallel check
    let e = update_2d(&m, 1e-300, &[0.0, 0.0, 1e10, 1e10], &[1.0, 1.0], &mut s, &mut f).unwrap_err();
    assert!(
        matches!(
            e,
            UpdateError::NonFinite { contact: 1, argument: "slip velocity |slip_increment| / dt", .. }
        ),
        "{e}"
    );
    #[cfg(feature = "rayon")]
    {
        let e = update_2d_par(&m, 1e-300, &[0.0, 0.0, 1e10, 1e10], &[1.0, 1.0], &mut s, &mut f).unwrap_err();
        assert!(matches!(e, UpdateError::NonFinite { contact: 1, .. }), "{e}");
        let e =
            update_2d_par(&m, 2.0, &[0.0, f64::INFINITY, 0.0, 0.0], &[1.0, 1.0], &mut s, &mut f).unwrap_err();
        assert!(matches!(e, UpdateError::NonFinite { contact: 0, argument: "slip_increment", .. }), "{e}");
    }
    // a large step makes f64::MAX · dt infinite: an infinite slip is still refused
    let e = update_2d(&m, 2.0, &[0.0, 0.0, f64::INFINITY, 0.0], &[1.0, 1.0], &mut s, &mut f).unwrap_err();
    assert!(matches!(e, UpdateError::NonFinite { contact: 1, argument: "slip_increment", .. }), "{e}");
    assert_eq!(s, fresh_2d(&m, 2), "refused arguments changed the state");
}

/// The rayon variant gives the serial results bit for bit.
#[cfg(feature = "rayon")]
#[test]
fn parallel_update_equals_serial_bit_for_bit() {
    for (name, m) in planar_models() {
        let n = 5000;
        let du = random_increments(9, 2 * n, 3e-6);
        let normal: Vec<f64> = random_increments(10, n, 1.0).iter().map(|x| x.abs()).collect();
        let (mut s1, mut s2) = (fresh_2d(&m, n), fresh_2d(&m, n));
        let (mut f1, mut f2) = (vec![0.0; 2 * n], vec![0.0; 2 * n]);
        for _ in 0..3 {
            update_2d(&m, 1e-4, &du, &normal, &mut s1, &mut f1).unwrap();
            update_2d_par(&m, 1e-4, &du, &normal, &mut s2, &mut f2).unwrap();
        }
        assert!(f1.iter().zip(&f2).all(|(a, b)| a.to_bits() == b.to_bits()), "{name}");
        assert!(s1.iter().zip(&s2).all(|(a, b)| a.to_bits() == b.to_bits()), "{name}");
    }
}
