//! Tests of the box LCP solver: closed forms, brute force on random
//! problems, singular and degenerate cases, bad input, work space reuse.

use super::*;
use std::time::Instant;

const INF: f64 = f64::INFINITY;

/// xorshift64* generator: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [0, 1).
    fn unif(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unif()
    }
    fn below(&mut self, k: u64) -> u64 {
        self.next_u64() % k
    }
}

/// Random SPD `B Bᵀ + δ I`, scaled.
fn random_spd(rng: &mut Rng, n: usize, scale: f64) -> DMatrix<f64> {
    let b = DMatrix::from_fn(n, n, |_, _| rng.range(-1.0, 1.0));
    let mut a = &b * b.transpose();
    let delta = rng.range(0.05, 0.5);
    for i in 0..n {
        a[(i, i)] += delta;
    }
    symmetrize(&mut a);
    a * scale
}

fn symmetrize(a: &mut DMatrix<f64>) {
    let n = a.nrows();
    for i in 0..n {
        for j in 0..i {
            let v = 0.5 * (a[(i, j)] + a[(j, i)]);
            a[(i, j)] = v;
            a[(j, i)] = v;
        }
    }
}

/// Random bounds of every kind, with λ scale `ls`.
fn random_bounds(rng: &mut Rng, n: usize, ls: f64, allow_zero_width: bool) -> (Vec<f64>, Vec<f64>) {
    let mut lo = vec![0.0; n];
    let mut hi = vec![0.0; n];
    for i in 0..n {
        let kinds = if allow_zero_width { 7 } else { 6 };
        let (l, h) = match rng.below(kinds) {
            0 => (-INF, INF),
            1 => (0.0, INF),
            2 => {
                let c = rng.range(0.05, 1.0) * ls;
                (-c, c)
            }
            3 => (-rng.range(0.0, 1.0) * ls, rng.range(0.0, 1.0) * ls),
            4 => (-INF, rng.range(0.0, 1.0) * ls),
            5 => (0.0, rng.range(0.05, 1.0) * ls),
            _ => (0.0, 0.0),
        };
        lo[i] = l;
        hi[i] = h;
    }
    (lo, hi)
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0_f64, |m, x| m.max(x.abs()))
}

/// All solutions found by enumerating the 3^n index assignments
/// (clamped / at lo / at hi) and solving the clamped subsystem.
fn brute_force(a: &DMatrix<f64>, q: &[f64], lo: &[f64], hi: &[f64]) -> Vec<Vec<f64>> {
    let n = q.len();
    let total = 3usize.pow(n as u32);
    let mut found = Vec::new();
    let mut lam = vec![0.0; n];
    let mut kind = vec![0u8; n];
    'outer: for code in 0..total {
        let mut c = code;
        let mut clamped = Vec::new();
        for i in 0..n {
            kind[i] = (c % 3) as u8;
            c /= 3;
            match kind[i] {
                0 => {
                    if lo[i] == hi[i] {
                        continue 'outer;
                    }
                    clamped.push(i);
                }
                1 => {
                    if !lo[i].is_finite() {
                        continue 'outer;
                    }
                    lam[i] = lo[i];
                }
                _ => {
                    if !hi[i].is_finite() || lo[i] == hi[i] {
                        continue 'outer;
                    }
                    lam[i] = hi[i];
                }
            }
        }
        let m = clamped.len();
        if m > 0 {
            let sub = DMatrix::from_fn(m, m, |r, s| a[(clamped[r], clamped[s])]);
            let rhs = nalgebra::DVector::from_fn(m, |r, _| {
                let i = clamped[r];
                let mut v = -q[i];
                for j in 0..n {
                    if kind[j] != 0 {
                        v -= a[(i, j)] * lam[j];
                    }
                }
                v
            });
            let Some(x) = sub.lu().solve(&rhs) else { continue };
            for r in 0..m {
                lam[clamped[r]] = x[r];
            }
        }
        if check_solution(a, q, lo, hi, &lam, 1e-10).is_ok() {
            found.push(lam.clone());
        }
    }
    found
}

fn solve(a: &DMatrix<f64>, q: &[f64], lo: &[f64], hi: &[f64]) -> LcpSolution {
    let mut work = LcpWork::new();
    let sol = solve_box_lcp(a, q, lo, hi, &mut work).expect("solver failed");
    check_solution(a, q, lo, hi, &sol.lambda, 1e-9).expect("solution check failed");
    sol
}

#[test]
fn friction_1d_closed_form_13_masses() {
    let n = 13;
    let a = DMatrix::<f64>::identity(n, n);
    let q = vec![-1.0; n];
    let lo = vec![-0.5; n];
    let hi = vec![0.5; n];
    let sol = solve(&a, &q, &lo, &hi);
    for i in 0..n {
        assert_eq!(sol.lambda[i], 0.5);
        assert_eq!(sol.w[i], -0.5);
    }
    assert_eq!(sol.pivots, n);
    let mut work = LcpWork::new();
    solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
    assert!(work.states().iter().all(|s| *s == LcpIndexState::AtUpper));
    // Below capacity: every mass sticks, λ = 1, w = 0.
    let hi2 = vec![2.0; n];
    let lo2 = vec![-2.0; n];
    let sol = solve(&a, &q, &lo2, &hi2);
    assert!(sol.lambda.iter().all(|&l| (l - 1.0).abs() < 1e-15));
    assert!(sol.w.iter().all(|&w| w.abs() < 1e-15));
}

#[test]
fn single_index_cases() {
    let a = DMatrix::from_row_slice(1, 1, &[2.0]);
    let s = solve(&a, &[-1.0], &[-INF], &[INF]);
    assert!((s.lambda[0] - 0.5).abs() < 1e-15 && s.w[0].abs() < 1e-15);
    let s = solve(&a, &[1.0], &[0.0], &[INF]);
    assert_eq!((s.lambda[0], s.w[0]), (0.0, 1.0));
    let s = solve(&a, &[1.0], &[-0.1], &[INF]);
    assert_eq!(s.lambda[0], -0.1);
    assert!((s.w[0] - 0.8).abs() < 1e-15);
    let s = solve(&a, &[-4.0], &[0.0], &[1.0]);
    assert_eq!((s.lambda[0], s.w[0]), (1.0, -2.0));
    // Zero-width box: λ = 0, w free.
    let s = solve(&a, &[-4.0], &[0.0], &[0.0]);
    assert_eq!((s.lambda[0], s.w[0], s.pivots), (0.0, -4.0, 0));
}

#[test]
fn empty_problem() {
    let a = DMatrix::<f64>::zeros(0, 0);
    let s = solve_box_lcp(&a, &[], &[], &[], &mut LcpWork::new()).unwrap();
    assert!(s.lambda.is_empty() && s.w.is_empty());
    assert_eq!(s.pivots, 0);
}

#[test]
fn random_spd_matches_brute_force() {
    let mut count = 0;
    let mut total_pivots = 0;
    for n in 1..=10usize {
        let seeds: u64 = match n {
            1..=4 => 400,
            5..=6 => 150,
            7 => 60,
            8 => 20,
            _ => 6,
        };
        for seed in 0..seeds {
            let mut rng = Rng::new(1000 * n as u64 + seed);
            let a_scale = 10f64.powi(rng.below(7) as i32 - 3);
            let q_scale = 10f64.powi(rng.below(7) as i32 - 3);
            let a = random_spd(&mut rng, n, a_scale);
            let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0) * q_scale).collect();
            let (lo, hi) = random_bounds(&mut rng, n, q_scale / a_scale, true);
            let mut work = LcpWork::new();
            let sol = solve_box_lcp(&a, &q, &lo, &hi, &mut work)
                .unwrap_or_else(|e| panic!("n={n} seed={seed}: {e}"));
            check_solution(&a, &q, &lo, &hi, &sol.lambda, 1e-10)
                .unwrap_or_else(|e| panic!("n={n} seed={seed}: {e}"));
            let bf = brute_force(&a, &q, &lo, &hi);
            assert!(!bf.is_empty(), "n={n} seed={seed}: brute force found nothing");
            let scale = max_abs(&bf[0]).max(q_scale / a_scale);
            for other in &bf {
                for i in 0..n {
                    assert!(
                        (sol.lambda[i] - other[i]).abs() <= 1e-9 * scale,
                        "n={n} seed={seed} i={i}: solver {} brute force {}",
                        sol.lambda[i],
                        other[i]
                    );
                }
            }
            count += 1;
            total_pivots += sol.pivots;
        }
    }
    eprintln!("random SPD vs brute force: {count} problems, {total_pivots} pivots");
}

/// Duplicates index 0 as a new last index (two contacts holding the same
/// body): `A` becomes singular PSD.
fn duplicate_first(
    a: &DMatrix<f64>,
    q: &[f64],
    lo: &[f64],
    hi: &[f64],
) -> (DMatrix<f64>, Vec<f64>, Vec<f64>, Vec<f64>) {
    let n = q.len();
    let map = |i: usize| if i == n { 0 } else { i };
    let a2 = DMatrix::from_fn(n + 1, n + 1, |i, j| a[(map(i), map(j))]);
    let mut q2 = q.to_vec();
    q2.push(q[0]);
    let mut lo2 = lo.to_vec();
    lo2.push(lo[0]);
    let mut hi2 = hi.to_vec();
    hi2.push(hi[0]);
    (a2, q2, lo2, hi2)
}

#[test]
fn duplicated_contacts_match_merged_contact() {
    // Splitting one contact into two identical ones with the same boxes
    // is the merged contact with doubled box: w must agree, λ0 + λn must
    // equal the merged λ0.
    let mut checked = 0;
    for seed in 0..300u64 {
        let mut rng = Rng::new(77_000 + seed);
        let n = 1 + rng.below(6) as usize;
        let a = random_spd(&mut rng, n, 1.0);
        let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
        let (lo, hi) = random_bounds(&mut rng, n, 1.0, false);
        let (a2, q2, lo2, hi2) = duplicate_first(&a, &q, &lo, &hi);
        let mut lo_m = lo.clone();
        let mut hi_m = hi.clone();
        lo_m[0] *= 2.0;
        hi_m[0] *= 2.0;
        let merged = solve(&a, &q, &lo_m, &hi_m);
        let mut work = LcpWork::new();
        let dup =
            solve_box_lcp(&a2, &q2, &lo2, &hi2, &mut work).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        check_solution(&a2, &q2, &lo2, &hi2, &dup.lambda, 1e-9)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let scale = 1.0 + max_abs(&merged.lambda);
        for i in 0..n {
            assert!((dup.w[i] - merged.w[i]).abs() <= 1e-9 * scale, "seed {seed} w[{i}]");
        }
        assert!((dup.w[n] - merged.w[0]).abs() <= 1e-9 * scale);
        assert!((dup.lambda[0] + dup.lambda[n] - merged.lambda[0]).abs() <= 1e-9 * scale);
        for i in 1..n {
            assert!((dup.lambda[i] - merged.lambda[i]).abs() <= 1e-9 * scale);
        }
        checked += 1;
    }
    assert_eq!(checked, 300);
}

#[test]
fn ascending_order_rule_for_redundant_contacts() {
    // Two friction contacts on one body (capacity 0.5 each) pushed by 0.7:
    // index 0 takes its full capacity first, index 1 the rest.
    let a = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0]);
    let q = [-0.7, -0.7];
    let s = solve(&a, &q, &[-0.5, -0.5], &[0.5, 0.5]);
    assert_eq!(s.lambda[0], 0.5);
    assert!((s.lambda[1] - 0.2).abs() < 1e-15);
    assert!(s.w.iter().all(|w| w.abs() < 1e-15));
    // Bilateral duplicates: the first takes everything.
    let s = solve(&a, &q, &[-INF, -INF], &[INF, INF]);
    assert!((s.lambda[0] - 0.7).abs() < 1e-15 && s.lambda[1] == 0.0);
    // Unilateral duplicates.
    let s = solve(&a, &q, &[0.0, 0.0], &[INF, INF]);
    assert!((s.lambda[0] - 0.7).abs() < 1e-15 && s.lambda[1] == 0.0);
    // Bit-identical on repetition.
    let mut work = LcpWork::new();
    let s1 = solve_box_lcp(&a, &q, &[-0.5, -0.5], &[0.5, 0.5], &mut work).unwrap();
    let s2 = solve_box_lcp(&a, &q, &[-0.5, -0.5], &[0.5, 0.5], &mut work).unwrap();
    assert_eq!(s1, s2);
}

#[test]
fn random_singular_psd_with_q_in_range() {
    // A = B Bᵀ with rank r < n, q = A r0 (so min ½λᵀAλ + qᵀλ is bounded
    // below and a solution exists for every box). λ need not be unique, w
    // is: the reversed problem must give the same w.
    let mut total_pivots = 0;
    for seed in 0..400u64 {
        let mut rng = Rng::new(5_000 + seed);
        let n = 2 + rng.below(9) as usize;
        let r = 1 + rng.below(n as u64 - 1) as usize;
        let b = DMatrix::from_fn(n, r, |_, _| rng.range(-1.0, 1.0));
        let mut a = &b * b.transpose();
        symmetrize(&mut a);
        let r0 = nalgebra::DVector::from_fn(n, |_, _| rng.range(-1.0, 1.0));
        let qv = &a * r0;
        let q: Vec<f64> = qv.iter().copied().collect();
        let (lo, hi) = random_bounds(&mut rng, n, 1.0, true);
        let mut work = LcpWork::new();
        let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work)
            .unwrap_or_else(|e| panic!("seed {seed} n {n} r {r}: {e}"));
        check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9)
            .unwrap_or_else(|e| panic!("seed {seed} n {n} r {r}: {e}"));
        total_pivots += s.pivots;
        // Reverse the index order.
        let p = |i: usize| n - 1 - i;
        let ar = DMatrix::from_fn(n, n, |i, j| a[(p(i), p(j))]);
        let qr: Vec<f64> = (0..n).map(|i| q[p(i)]).collect();
        let lor: Vec<f64> = (0..n).map(|i| lo[p(i)]).collect();
        let hir: Vec<f64> = (0..n).map(|i| hi[p(i)]).collect();
        let sr = solve_box_lcp(&ar, &qr, &lor, &hir, &mut work)
            .unwrap_or_else(|e| panic!("seed {seed} reversed: {e}"));
        check_solution(&ar, &qr, &lor, &hir, &sr.lambda, 1e-9).unwrap();
        let scale = 1.0 + max_abs(&q) + max_abs(&s.lambda) + max_abs(&sr.lambda);
        for i in 0..n {
            assert!(
                (s.w[i] - sr.w[p(i)]).abs() <= 1e-8 * scale,
                "seed {seed}: w[{i}] {} vs {}",
                s.w[i],
                sr.w[p(i)]
            );
        }
    }
    eprintln!("singular PSD: 400 problems, {total_pivots} pivots");
}

#[test]
fn zero_rows_with_zero_width_boxes() {
    // Inactive contacts: zero rows/columns of A with zero-width boxes.
    let mut rng = Rng::new(42);
    let inner = random_spd(&mut rng, 4, 1.0);
    let keep = [0usize, 2, 3, 5];
    let mut a = DMatrix::zeros(6, 6);
    for (r, &i) in keep.iter().enumerate() {
        for (c, &j) in keep.iter().enumerate() {
            a[(i, j)] = inner[(r, c)];
        }
    }
    let q = [-0.3, 0.7, 0.2, -0.9, -0.4, 0.5];
    let lo = [-0.2, 0.0, 0.0, -INF, 0.0, -1.0];
    let hi = [0.2, 0.0, INF, INF, 0.0, 1.0];
    let s = solve(&a, &q, &lo, &hi);
    assert_eq!((s.lambda[1], s.w[1]), (0.0, 0.7));
    assert_eq!((s.lambda[4], s.w[4]), (0.0, -0.4));
    // Zero row with q = 0 and a real box: λ = 0 stays, w = 0 (dependent clamp).
    let a = DMatrix::from_row_slice(2, 2, &[0.0, 0.0, 0.0, 1.0]);
    let s = solve(&a, &[0.0, -1.0], &[-1.0, -1.0], &[1.0, 1.0]);
    assert_eq!(s.lambda, vec![0.0, 1.0]);
    assert_eq!(s.w, vec![0.0, 0.0]);
    // Zero row, q > 0, unilateral: stays at lo.
    let s = solve(&a, &[0.5, -1.0], &[0.0, -1.0], &[INF, 1.0]);
    assert_eq!(s.lambda, vec![0.0, 1.0]);
    // Zero row, q < 0 but finite box: goes to hi.
    let s = solve(&a, &[-0.5, -1.0], &[-3.0, -1.0], &[3.0, 1.0]);
    assert_eq!(s.lambda, vec![3.0, 1.0]);
}

#[test]
fn q_zero_gives_zero() {
    let mut rng = Rng::new(3);
    let a = random_spd(&mut rng, 7, 1.0);
    let (lo, hi) = random_bounds(&mut rng, 7, 1.0, true);
    let s = solve(&a, &[0.0; 7], &lo, &hi);
    assert!(s.lambda.iter().all(|&l| l == 0.0));
    assert!(s.w.iter().all(|&w| w == 0.0));
    assert_eq!(s.pivots, 0);
}

#[test]
fn exactly_at_a_bound() {
    // λ* = (hi0, interior) with w = 0 exactly: λ = hi and w = 0.
    let a = DMatrix::from_row_slice(2, 2, &[2.0, 0.5, 0.5, 1.0]);
    let lam = [0.5, -0.25];
    let q = [-(2.0 * lam[0] + 0.5 * lam[1]), -(0.5 * lam[0] + lam[1])];
    let lo = [-0.5, -1.0];
    let hi = [0.5, 1.0];
    let s = solve(&a, &q, &lo, &hi);
    assert!((s.lambda[0] - 0.5).abs() < 1e-15 && (s.lambda[1] + 0.25).abs() < 1e-15);
    assert!(s.w.iter().all(|w| w.abs() < 1e-15));
    // 1-D: exactly at capacity.
    let a = DMatrix::from_row_slice(1, 1, &[1.0]);
    let s = solve(&a, &[-0.5], &[-0.5], &[0.5]);
    assert_eq!((s.lambda[0], s.w[0]), (0.5, 0.0));
    // A clamped index driven exactly onto its bound by a later one.
    let a = DMatrix::from_row_slice(2, 2, &[1.0, -1.0, -1.0, 2.0]);
    // d=0 clamps λ0 = 0.2; d=1 pushes λ0 exactly to 1.0 where w1 = 0.
    let l1 = 0.8;
    let q = [-0.2, 1.0 - 2.0 * l1];
    let s = solve(&a, &q, &[-1.0, -INF], &[1.0, INF]);
    assert!((s.lambda[0] - 1.0).abs() < 1e-12 && (s.lambda[1] - l1).abs() < 1e-12);
}

#[test]
fn infeasible_problems() {
    let a = DMatrix::from_row_slice(1, 1, &[0.0]);
    let e = solve_box_lcp(&a, &[-1.0], &[0.0], &[INF], &mut LcpWork::new()).unwrap_err();
    assert_eq!(e, LcpError::NoSolution { index: 0 });
    assert!(e.to_string().contains("no solution"));
    // Contradictory redundant bilateral constraints.
    let a = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 1.0, 1.0]);
    let e = solve_box_lcp(&a, &[-1.0, -2.0], &[-INF, -INF], &[INF, INF], &mut LcpWork::new()).unwrap_err();
    assert_eq!(e, LcpError::NoSolution { index: 1 });
    // Same with unilateral bounds is solvable: λ = (0, 2).
    let s = solve(&a, &[-1.0, -2.0], &[0.0, 0.0], &[INF, INF]);
    assert!(s.lambda[0].abs() < 1e-15 && (s.lambda[1] - 2.0).abs() < 1e-15);
}

#[test]
fn indefinite_matrix_is_reported() {
    let a = DMatrix::from_row_slice(1, 1, &[-1.0]);
    let e = solve_box_lcp(&a, &[-1.0], &[0.0], &[INF], &mut LcpWork::new()).unwrap_err();
    assert!(matches!(e, LcpError::BadInput(_)), "{e:?}");
    let a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]);
    let e = solve_box_lcp(&a, &[-1.0, -1.0], &[-INF, -INF], &[INF, INF], &mut LcpWork::new()).unwrap_err();
    assert!(matches!(e, LcpError::BadInput(ref m) if m.contains("semi-definite")), "{e:?}");
}

/// Tridiagonal SPD (a chain of masses and springs): diag 2 + shift, off -1.
fn tridiagonal(n: usize, shift: f64) -> DMatrix<f64> {
    DMatrix::from_fn(n, n, |i, j| {
        if i == j {
            2.0 + shift
        } else if i.abs_diff(j) == 1 {
            -1.0
        } else {
            0.0
        }
    })
}

#[test]
fn large_tridiagonal_500() {
    let n = 500;
    let mut rng = Rng::new(500);
    let a = tridiagonal(n, 0.01);
    let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
    let (lo, hi) = random_bounds(&mut rng, n, 2.0, true);
    let mut work = LcpWork::new();
    let t0 = Instant::now();
    let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
    let dt = t0.elapsed();
    check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
    let clamped = work.states().iter().filter(|s| **s == LcpIndexState::Clamped).count();
    eprintln!("tridiagonal n=500: {} pivots, {clamped} clamped, {dt:?}", s.pivots);
    assert!(s.pivots <= 10 * n + 100);
}

#[test]
fn large_sparse_random_200() {
    let n = 200;
    let mut rng = Rng::new(200);
    // Sparse B with 3 nonzeros per column: A = B Bᵀ + 0.01 I.
    let mut b = DMatrix::<f64>::zeros(n, n);
    for j in 0..n {
        for _ in 0..3 {
            let i = rng.below(n as u64) as usize;
            b[(i, j)] = rng.range(-1.0, 1.0);
        }
    }
    let mut a = &b * b.transpose();
    for i in 0..n {
        a[(i, i)] += 0.01;
    }
    symmetrize(&mut a);
    let nnz = a.iter().filter(|v| **v != 0.0).count();
    let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
    let (lo, hi) = random_bounds(&mut rng, n, 1.0, true);
    let mut work = LcpWork::new();
    let t0 = Instant::now();
    let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
    let dt = t0.elapsed();
    check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
    eprintln!("sparse random n=200 ({nnz} nonzeros): {} pivots, {dt:?}", s.pivots);
}

#[test]
fn timings_report() {
    let mut work = LcpWork::new();
    for &n in &[10usize, 100] {
        let mut rng = Rng::new(n as u64);
        let a = random_spd(&mut rng, n, 1.0);
        let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
        let (lo, hi) = random_bounds(&mut rng, n, 0.1, false);
        let t0 = Instant::now();
        let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
        let dt = t0.elapsed();
        check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
        eprintln!("dense random SPD n={n}: {} pivots, {dt:?}", s.pivots);
    }
    let n = 500;
    let a = tridiagonal(n, 0.01);
    let mut rng = Rng::new(9);
    let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
    let lo = vec![-0.3; n];
    let hi = vec![0.3; n];
    let t0 = Instant::now();
    let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
    let dt = t0.elapsed();
    check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
    eprintln!("tridiagonal n=500, friction boxes ±0.3: {} pivots, {dt:?}", s.pivots);
    let lo = vec![-INF; n];
    let hi = vec![INF; n];
    let t0 = Instant::now();
    let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
    let dt = t0.elapsed();
    check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
    eprintln!("tridiagonal n=500, all bilateral: {} pivots, {dt:?}", s.pivots);
}

#[test]
fn pivot_limit_reports_cycling() {
    let n = 13;
    let a = DMatrix::<f64>::identity(n, n);
    let mut work = LcpWork::new();
    work.set_pivot_limit(Some(5));
    let e = solve_box_lcp(&a, &vec![-1.0; n], &vec![-0.5; n], &vec![0.5; n], &mut work).unwrap_err();
    assert_eq!(e, LcpError::Cycling { pivots: 5 });
    assert!(e.to_string().contains("5 pivots"));
    work.set_pivot_limit(None);
    assert!(solve_box_lcp(&a, &vec![-1.0; n], &vec![-0.5; n], &vec![0.5; n], &mut work).is_ok());
}

#[test]
fn workspace_reuse_does_not_grow() {
    let mut rng = Rng::new(11);
    let n = 30;
    let mut work = LcpWork::with_capacity(n);
    let caps = |w: &LcpWork| {
        (
            w.state.capacity(),
            w.lambda.capacity(),
            w.fac.capacity(),
            w.cf.capacity(),
            w.cz.capacity(),
            w.rhs.capacity(),
            w.dl.capacity(),
            w.dw.capacity(),
        )
    };
    let before = caps(&work);
    let mut first = None;
    for k in 0..5 {
        let mut r2 = Rng::new(11);
        let a = random_spd(&mut r2, n, 1.0);
        let q: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
        let (lo, hi) = random_bounds(&mut r2, n, 0.5, true);
        let s = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
        check_solution(&a, &q, &lo, &hi, &s.lambda, 1e-9).unwrap();
        assert_eq!(caps(&work), before, "workspace grew on call {k}");
        if k == 0 {
            first = Some((a, q, lo, hi, s));
        }
    }
    // Same input, reused workspace: bit-identical result.
    let (a, q, lo, hi, s0) = first.unwrap();
    let s1 = solve_box_lcp(&a, &q, &lo, &hi, &mut work).unwrap();
    assert_eq!(s0, s1);
    // A smaller problem in the same workspace still works.
    let small = DMatrix::from_row_slice(1, 1, &[1.0]);
    let s = solve_box_lcp(&small, &[-2.0], &[-1.0], &[1.0], &mut work).unwrap();
    assert_eq!(s.lambda, vec![1.0]);
}

#[test]
fn bad_input_is_rejected() {
    let mut work = LcpWork::new();
    let a2 = DMatrix::<f64>::identity(2, 2);
    let ok = [0.0, 0.0];
    let bad = |a: &DMatrix<f64>, q: &[f64], lo: &[f64], hi: &[f64], work: &mut LcpWork, what: &str| {
        match solve_box_lcp(a, q, lo, hi, work) {
            Err(LcpError::BadInput(m)) => {
                assert!(m.contains(what), "message {m:?} should mention {what:?}");
                let e = LcpError::BadInput(m);
                assert!(e.to_string().starts_with("invalid contact problem"));
            }
            other => panic!("expected BadInput for {what}, got {other:?}"),
        }
    };
    bad(&DMatrix::zeros(2, 3), &ok, &ok, &ok, &mut work, "not square");
    bad(&a2, &[0.0], &ok, &ok, &mut work, "q has length 1");
    bad(&a2, &ok, &[0.0; 3], &ok, &mut work, "lo has length 3");
    bad(&a2, &ok, &ok, &[0.0], &mut work, "hi has length 1");
    let mut an = a2.clone();
    an[(0, 1)] = f64::NAN;
    bad(&an, &ok, &ok, &ok, &mut work, "A[(0, 1)]");
    let mut ai = a2.clone();
    ai[(1, 1)] = INF;
    bad(&ai, &ok, &ok, &ok, &mut work, "not a finite");
    bad(&a2, &[0.0, f64::NAN], &ok, &ok, &mut work, "q[1]");
    bad(&a2, &ok, &[0.0, 0.1], &ok, &mut work, "lo[1]");
    bad(&a2, &ok, &[INF, 0.0], &ok, &mut work, "lo[0]");
    bad(&a2, &ok, &[f64::NAN, 0.0], &ok, &mut work, "lo[0]");
    bad(&a2, &ok, &ok, &[-0.1, 0.0], &mut work, "hi[0]");
    bad(&a2, &ok, &ok, &[0.0, -INF], &mut work, "hi[1]");
    bad(&a2, &ok, &ok, &[0.0, f64::NAN], &mut work, "hi[1]");
    let asym = DMatrix::from_row_slice(2, 2, &[1.0, 0.5, 0.4, 1.0]);
    bad(&asym, &ok, &ok, &ok, &mut work, "not symmetric");
    let negd = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, -1.0]);
    bad(&negd, &ok, &ok, &ok, &mut work, "semi-definite");
    // check_solution rejects mismatched and wrong answers too.
    assert!(check_solution(&a2, &ok, &ok, &ok, &[0.0], 1e-9).is_err());
    let q = [-1.0, 1.0];
    let lo = [-INF, 0.0];
    let hi = [INF, INF];
    assert!(check_solution(&a2, &q, &lo, &hi, &[1.0, 0.0], 1e-9).is_ok());
    assert!(check_solution(&a2, &q, &lo, &hi, &[0.9, 0.0], 1e-9).is_err());
    assert!(check_solution(&a2, &q, &lo, &hi, &[1.0, -0.1], 1e-9).is_err());
    assert!(check_solution(&a2, &q, &lo, &hi, &[1.0, 0.1], 1e-9).is_err());
}
