//! Fill and copy of short slices without a call into libc: the evaluation
//! of a small network zeroes and copies vectors of one or two entries
//! several times, and each `fill`/`copy_from_slice` became a call to
//! `memset`/`memcpy` whose overhead exceeded the copy (and whose wide
//! stores the next scalar loads could not always be forwarded from).

/// `s.fill(v)`, with explicit stores up to four entries.
#[inline(always)]
pub(crate) fn fill(s: &mut [f64], v: f64) {
    match s {
        [] => {}
        [a] => *a = v,
        [a, b] => (*a, *b) = (v, v),
        [a, b, c] => (*a, *b, *c) = (v, v, v),
        [a, b, c, d] => (*a, *b, *c, *d) = (v, v, v, v),
        _ => s.fill(v),
    }
}

/// `dst.copy_from_slice(src)` (equal lengths), with explicit loads and
/// stores up to four entries.
#[inline(always)]
pub(crate) fn copy(dst: &mut [f64], src: &[f64]) {
    match (dst, src) {
        ([], []) => {}
        ([a], [x]) => *a = *x,
        ([a, b], [x, y]) => (*a, *b) = (*x, *y),
        ([a, b, c], [x, y, z]) => (*a, *b, *c) = (*x, *y, *z),
        ([a, b, c, d], [x, y, z, w]) => (*a, *b, *c, *d) = (*x, *y, *z, *w),
        (dst, src) => dst.copy_from_slice(src),
    }
}

#[cfg(test)]
mod tests {
    use super::{copy, fill};

    /// Every length from 0 to 9 (the explicit cases and the fallback):
    /// the same result as the standard library's.
    #[test]
    fn short_fill_and_copy_match_the_standard_library() {
        for n in 0..10 {
            let src: Vec<f64> = (0..n).map(|i| i as f64 + 0.5).collect();
            let mut dst = vec![-1.0; n];
            copy(&mut dst, &src);
            assert_eq!(dst, src);
            fill(&mut dst, 7.0);
            assert_eq!(dst, vec![7.0; n]);
        }
    }
}
