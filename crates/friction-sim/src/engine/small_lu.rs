//! LU factorisation with partial pivoting of small dense matrices, real or
//! complex, in place and without allocation: the two Newton matrices of
//! [`super::radau`]. nalgebra's `LU` takes its matrix by value (a fresh
//! allocation per factorisation) and diffsol's dense LU is real only.

use nalgebra::ComplexField;

/// Factor the `n`×`n` row-major matrix `a` in place into `P A = L U` (L
/// unit lower, below the diagonal; U on and above it); `piv[k]` is the row
/// swapped with row `k` at step `k`. Fails with the column whose pivot is
/// zero or not finite.
pub(crate) fn factor<T: ComplexField<RealField = f64> + Copy>(
    a: &mut [T],
    n: usize,
    piv: &mut [usize],
) -> Result<(), usize> {
    debug_assert!(a.len() >= n * n && piv.len() >= n);
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

/// Solve `A x = b` in place with the factors of [`factor`].
pub(crate) fn solve<T: ComplexField<RealField = f64> + Copy>(a: &[T], n: usize, piv: &[usize], b: &mut [T]) {
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
        b[i] = s / a[i * n + i];
    }
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

    #[test]
    fn singular_matrix_names_its_column() {
        let mut a = vec![1.0, 2.0, 2.0, 4.0];
        let mut piv = [0; 2];
        assert_eq!(factor(&mut a, 2, &mut piv), Err(1));
    }
}
