//! LU factorisation with partial pivoting of small dense matrices, real or
//! complex, in place and without allocation: the two Newton matrices of
//! [`crate::engine::integrate::radau`]. nalgebra's `LU` takes its matrix by value (a fresh
//! allocation per factorisation) and diffsol's dense LU is real only.

use nalgebra::ComplexField;

/// Factor the `n`×`n` row-major matrix `a` in place into `P A = L U` (L
/// unit lower, below the diagonal; U above it, and on the diagonal the
/// reciprocals of U's diagonal, so that [`solve`] multiplies where it would
/// divide: the back substitution's divisions, complex ones for Radau5's
/// second matrix, were on its critical path; LuGre stick-slip example, rtol
/// 1e-4, without rows: 502 -> 487 µs; the unrolled sizes then 441 -> 401
/// µs); `piv[k]` is the row swapped with row `k` at step `k`. Fails with the
/// column whose pivot is zero, not finite, or so small that its reciprocal
/// overflows. Sizes up to 4 are unrolled, as in [`solve`].
pub(crate) fn factor<T: ComplexField<RealField = f64> + Copy>(
    a: &mut [T],
    n: usize,
    piv: &mut [usize],
) -> Result<(), usize> {
    debug_assert!(a.len() >= n * n && piv.len() >= n);
    match n {
        1 => factor_loops(&mut a[..1], 1, &mut piv[..1]),
        2 => factor_loops(&mut a[..4], 2, &mut piv[..2]),
        3 => factor_loops(&mut a[..9], 3, &mut piv[..3]),
        4 => factor_loops(&mut a[..16], 4, &mut piv[..4]),
        _ => factor_any(a, n, piv),
    }
}

/// The general size, out of line (the unrolled sizes inline the loops).
fn factor_any<T: ComplexField<RealField = f64> + Copy>(
    a: &mut [T],
    n: usize,
    piv: &mut [usize],
) -> Result<(), usize> {
    factor_loops(a, n, piv)
}

#[inline(always)]
fn factor_loops<T: ComplexField<RealField = f64> + Copy>(
    a: &mut [T],
    n: usize,
    piv: &mut [usize],
) -> Result<(), usize> {
    for k in 0..n {
        let mut p = k;
        let mut best = a[k * n + k].norm1();
        for i in k + 1..n {
            let v = a[i * n + k].norm1();
            if v > best {
                best = v;
                p = i;
            }
        }
        piv[k] = p;
        if best == 0.0 || !best.is_finite() {
            return Err(k);
        }
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
        }
        let inv = T::one() / a[k * n + k];
        if !inv.norm1().is_finite() {
            // a pivot so small (subnormal) that its reciprocal overflows
            return Err(k);
        }
        a[k * n + k] = inv;
        for i in k + 1..n {
            let m = a[i * n + k] * inv;
            a[i * n + k] = m;
            if m != T::zero() {
                for j in k + 1..n {
                    let u = a[k * n + j];
                    a[i * n + j] -= m * u;
                }
            }
        }
    }
    Ok(())
}

/// Solve `A x = b` in place with the factors of [`factor`]. Sizes up to 4
/// (Radau5's systems, see `RADAU_UP_TO`) run through loops of a size known
/// at compile time, unrolled and without bounds checks.
pub(crate) fn solve<T: ComplexField<RealField = f64> + Copy>(a: &[T], n: usize, piv: &[usize], b: &mut [T]) {
    match n {
        1 => solve_n::<T, 1>(a, piv, b),
        2 => solve_n::<T, 2>(a, piv, b),
        3 => solve_n::<T, 3>(a, piv, b),
        4 => solve_n::<T, 4>(a, piv, b),
        _ => solve_any(a, n, piv, b),
    }
}

#[inline(always)]
fn solve_n<T: ComplexField<RealField = f64> + Copy, const N: usize>(a: &[T], piv: &[usize], b: &mut [T]) {
    solve_loops(&a[..N * N], N, &piv[..N], &mut b[..N]);
}

#[inline(always)]
fn solve_loops<T: ComplexField<RealField = f64> + Copy>(a: &[T], n: usize, piv: &[usize], b: &mut [T]) {
    for k in 0..n {
        let p = piv[k];
        if p != k {
            b.swap(k, p);
        }
    }
    for i in 0..n {
        let mut s = b[i];
        for j in 0..i {
            s -= a[i * n + j] * b[j];
        }
        b[i] = s;
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for j in i + 1..n {
            s -= a[i * n + j] * b[j];
        }
        b[i] = s * a[i * n + i];
    }
}

/// The general size, out of line (the unrolled sizes inline the loops).
fn solve_any<T: ComplexField<RealField = f64> + Copy>(a: &[T], n: usize, piv: &[usize], b: &mut [T]) {
    solve_loops(a, n, piv, b);
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Complex;

    /// A matrix that needs row swaps (zero leading pivot), real and complex:
    /// the solution of A x = b multiplied back gives b.
    #[test]
    fn solves_with_row_swaps_real_and_complex() {
        let n = 4;
        let a: Vec<f64> =
            vec![0.0, 2.0, 1.0, 3.0, 4.0, 1.0, 0.5, 0.0, 1.0, 1.0, 5.0, 2.0, 2.0, 0.0, 1.0, 7.0];
        let b = [1.0, -2.0, 0.5, 3.0];
        let mut f = a.clone();
        let mut piv = [0; 4];
        factor(&mut f, n, &mut piv).unwrap();
        assert_ne!(piv[0], 0, "the zero pivot must be swapped away");
        let mut x = b;
        solve(&f, n, &piv, &mut x);
        for i in 0..n {
            let r: f64 = (0..n).map(|j| a[i * n + j] * x[j]).sum();
            assert!((r - b[i]).abs() < 1e-13, "row {i}: {r} vs {}", b[i]);
        }
        // complex: A + i I
        let ac: Vec<Complex<f64>> =
            (0..n * n).map(|k| Complex::new(a[k], if k / n == k % n { 1.0 } else { 0.0 })).collect();
        let bc: Vec<Complex<f64>> = b.iter().map(|&v| Complex::new(v, -v)).collect();
        let mut fc = ac.clone();
        factor(&mut fc, n, &mut piv).unwrap();
        let mut xc = bc.clone();
        solve(&fc, n, &piv, &mut xc);
        for i in 0..n {
            let r: Complex<f64> = (0..n).map(|j| ac[i * n + j] * xc[j]).sum();
            assert!((r - bc[i]).norm() < 1e-13, "row {i}: {r} vs {}", bc[i]);
        }
    }

    /// A pivot whose reciprocal overflows (subnormal) is refused like a
    /// zero one, not stored as infinity.
    #[test]
    fn subnormal_pivot_is_refused() {
        let mut a = vec![1.0, 0.0, 0.0, 1e-310];
        let mut piv = [0; 2];
        assert_eq!(factor(&mut a, 2, &mut piv), Err(1));
    }

    /// Every unrolled size (1 to 4) and the general loop (5, 6) solve alike.
    #[test]
    fn unrolled_and_general_sizes_solve_alike() {
        for n in 1..=6 {
            let a: Vec<f64> = (0..n * n)
                .map(|k| {
                    let (i, j) = (k / n, k % n);
                    if i == j {
                        0.5
                    } else {
                        1.0 / (1.0 + (i + 2 * j) as f64)
                    }
                })
                .collect();
            let b: Vec<f64> = (0..n).map(|i| 1.0 - 0.3 * i as f64).collect();
            let mut f = a.clone();
            let mut piv = vec![0; n];
            factor(&mut f, n, &mut piv).unwrap();
            let mut x = b.clone();
            solve(&f, n, &piv, &mut x);
            for i in 0..n {
                let r: f64 = (0..n).map(|j| a[i * n + j] * x[j]).sum();
                assert!((r - b[i]).abs() < 1e-12, "n = {n}, row {i}: {r} vs {}", b[i]);
            }
        }
    }

    #[test]
    fn singular_matrix_names_its_column() {
        let mut a = vec![1.0, 2.0, 2.0, 4.0];
        let mut piv = [0; 2];
        assert_eq!(factor(&mut a, 2, &mut piv), Err(1));
    }
}
