//! The 2-D tangent of every planar form against differences of the 2-D
//! update, at seeded random states in stick, slip and across the
//! transition; the states and forces against the plain 2-D update, bit for
//! bit.

use super::super::tests::planar_models;
use super::super::{init_2d, state_len_2d, update_2d};
use super::*;
use rand::{RngExt, SeedableRng};

/// A 2-D slip increment: zero, along an axis, or in a random direction,
/// with a magnitude log-uniform over [1e-9, 1e-3] m.
fn random_du(rng: &mut rand_chacha::ChaCha8Rng) -> [f64; 2] {
    let mag = 10f64.powf(rng.random_range(-9.0..-3.0));
    match rng.random_range(0..10) {
        0 => [0.0, 0.0],
        1 => [mag, 0.0],
        2 => [0.0, -mag],
        _ => {
            let a: f64 = rng.random_range(0.0..std::f64::consts::TAU);
            [mag * a.cos(), mag * a.sin()]
        }
    }
}

fn force_after(m: &AnyModel, dt: f64, du: [f64; 2], st: &[f64]) -> [f64; 2] {
    let mut s = st.to_vec();
    let mut f = [0.0; 2];
    update_2d(m, dt, &du, &[1.0], &mut s, &mut f).unwrap();
    f
}

/// Every 2-D tangent against differences: column `j` of the tangent
/// against the central difference in `Δu_j` (Richardson-extrapolated) to
/// 1e-6 relative where the update is smooth within the step, against one
/// of the one-sided differences (or their mean at a zero increment) where
/// a kink lies within it (an element reaching its slip disk); at a zero
/// increment the set-valued laws give 0 and the spring-slider elements a
/// value between the loading and unloading slopes.
#[test]
fn every_2d_tangent_equals_differences_of_the_2d_update() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4602);
    let mut report = Vec::new();
    for (name, m) in planar_models() {
        let len = state_len_2d(&m).unwrap();
        // the implicit update (bouc_wen) is exact only to its Newton and
        // sub-step tolerances, which its differences see
        let implicit = matches!(m, AnyModel::BoucWen(_));
        let tol = if implicit { 1e-3 } else { 1e-6 };
        let family = m.info().family;
        let (mut worst, mut worst_rest, mut kinks) = (0.0f64, 0.0f64, 0);
        for case in 0..30 {
            let dt = [1e-4, 1e-3, 1e-2][case % 3];
            let mut st = vec![0.0; len];
            init_2d(&m, &mut st).unwrap();
            let mut f = [0.0; 2];
            for _ in 0..rng.random_range(0..15) {
                update_2d(&m, dt, &random_du(&mut rng), &[1.0], &mut st, &mut f).unwrap();
            }
            let du = random_du(&mut rng);
            let nf = rng.random_range(0.5..3.0);
            let (mut s, mut fo, mut k, mut dn) = (st.clone(), [0.0; 2], [0.0; 4], [0.0; 2]);
            update_2d_tangent(&m, dt, &du, &[nf], &mut s, &mut fo, Some(&mut k), Some(&mut dn)).unwrap();
            let fu = force_after(&m, dt, du, &st);
            for c in 0..2 {
                assert!(
                    (dn[c] - fu[c]).abs() <= 1e-12 * fu[c].abs().max(1.0),
                    "{name}: dF/dN {dn:?} F {fu:?}"
                );
            }
            let size = du[0].hypot(du[1]);
            let h = 1e-4 * size.max(1e-8);
            let fscale = fu[0].hypot(fu[1]).max(1e-3);
            let floor = 1e-6 * fscale / h;
            for j in 0..2 {
                let at = |d: f64| {
                    let mut u = du;
                    u[j] += d;
                    force_after(&m, dt, u, &st)
                };
                let col = [k[j] / nf, k[2 + j] / nf];
                let cen = |h: f64| {
                    let (p, q) = (at(h), at(-h));
                    [(p[0] - q[0]) / (2.0 * h), (p[1] - q[1]) / (2.0 * h)]
                };
                let (c1, c2) = (cen(h), cen(0.5 * h));
                let f0 = at(0.0);
                let one = |d: f64| {
                    let p = at(d);
                    [(p[0] - f0[0]) / d, (p[1] - f0[1]) / d]
                };
                let (fwd, bwd) = (one(h), one(-h));
                let dist = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
                let scale = |a: [f64; 2]| a[0].hypot(a[1]).max(floor);
                if let (AnyModel::BoucWen(b), 0.0) = (&m, size) {
                    // at rest the mean of the one-sided derivatives along
                    // ±Δu_j: the central difference, over a step well above
                    // the update's Newton tolerance (1e-9 of the state) and
                    // well below the ultimate deflection z_u
                    let p = b.params();
                    let d = cen(1e-4 * (p.a / (p.beta + p.gamma)).powf(1.0 / p.n));
                    let e = dist(col, d) / scale(d);
                    worst_rest = worst_rest.max(e);
                    assert!(
                        e <= tol,
                        "{name} case {case}: at rest, column {j}: tangent {col:?}, differences {d:?} ({e:e})"
                    );
                    continue;
                }
                let smooth =
                    size != 0.0 && dist(fwd, bwd) <= 1e-2 * scale(fwd).max(scale(bwd)) + 100.0 * dist(c1, c2);
                if smooth {
                    let d = [(4.0 * c2[0] - c1[0]) / 3.0, (4.0 * c2[1] - c1[1]) / 3.0];
                    let e = dist(col, d) / scale(d);
                    worst = worst.max(e);
                    assert!(e <= tol, "{name} case {case}: du {du:?} dt {dt} column {j}: tangent {col:?}, differences {d:?} ({e:e})");
                } else {
                    kinks += 1;
                    let (fwd, bwd) = (one(0.01 * h), one(-0.01 * h));
                    let mean = [0.5 * (fwd[0] + bwd[0]), 0.5 * (fwd[1] + bwd[1])];
                    let e = [fwd, bwd, mean]
                        .iter()
                        .map(|a| dist(col, *a) / scale(*a))
                        .fold(f64::INFINITY, f64::min);
                    let at_rest = size == 0.0;
                    let set_valued_rest = at_rest && family == Family::SetValued && col == [0.0, 0.0];
                    let lo = |i: usize| fwd[i].min(bwd[i]) - 1e-6 * scale(fwd).max(scale(bwd));
                    let hi = |i: usize| fwd[i].max(bwd[i]) + 1e-6 * scale(fwd).max(scale(bwd));
                    let between = at_rest && (0..2).all(|i| col[i] >= lo(i) && col[i] <= hi(i));
                    assert!(
                        set_valued_rest || between || e <= 1e-3,
                        "{name} case {case}: du {du:?} dt {dt} column {j}: tangent {col:?}, one-sided {fwd:?} / {bwd:?}"
                    );
                }
            }
        }
        report.push(format!("{name:60} kinks {kinks:2} worst {worst:.1e} at rest {worst_rest:.1e}"));
    }
    eprintln!("{}", report.join("\n"));
}

/// The 2-D update with its tangent writes the plain 2-D update's states
/// and forces bit for bit, serial and parallel, and the same tangents.
#[test]
fn update_2d_with_tangent_writes_the_plain_update_bit_for_bit() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4603);
    for (name, m) in planar_models() {
        let n = 200;
        let len = state_len_2d(&m).unwrap();
        let mut s0 = vec![0.0; n * len];
        init_2d(&m, &mut s0).unwrap();
        let normal: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..3.0)).collect();
        let mut f = vec![0.0; 2 * n];
        for _ in 0..3 {
            let du: Vec<f64> = (0..n).flat_map(|_| random_du(&mut rng)).collect();
            update_2d(&m, 1e-3, &du, &normal, &mut s0, &mut f).unwrap();
        }
        let du: Vec<f64> = (0..n).flat_map(|_| random_du(&mut rng)).collect();
        let (mut s_plain, mut f_plain) = (s0.clone(), vec![0.0; 2 * n]);
        update_2d(&m, 1e-3, &du, &normal, &mut s_plain, &mut f_plain).unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let mut k_ref = None;
        for par in [false, true] {
            let (mut s, mut fo, mut k) = (s0.clone(), vec![0.0; 2 * n], vec![0.0; 4 * n]);
            if par {
                update_2d_tangent_par(&m, 1e-3, &du, &normal, &mut s, &mut fo, Some(&mut k), None).unwrap();
            } else {
                update_2d_tangent(&m, 1e-3, &du, &normal, &mut s, &mut fo, Some(&mut k), None).unwrap();
            }
            assert_eq!(bits(&s), bits(&s_plain), "{name} par {par}: states");
            assert_eq!(bits(&fo), bits(&f_plain), "{name} par {par}: forces");
            match &k_ref {
                None => k_ref = Some(bits(&k)),
                Some(r) => assert_eq!(&bits(&k), r, "{name}: parallel tangents"),
            }
        }
        let mut wrong = vec![0.0; 2 * n];
        let e =
            update_2d_tangent(&m, 1e-3, &du, &normal, &mut s0, &mut f, Some(&mut wrong), None).unwrap_err();
        assert!(e.to_string().contains("dforce_dslip"), "{e}");
    }
}
