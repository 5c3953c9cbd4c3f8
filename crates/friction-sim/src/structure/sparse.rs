//! A real symmetric sparse matrix, as a finite-element code writes one: its
//! upper triangle (diagonal included) as `(row, column, value)` triplets,
//! 0-based, sorted by column then row, each position once.
//!
//! The readers ([`super::matrix_market`], [`super::calculix`]) produce
//! [`Entries`] with the line of every value; [`Entries::into_symmetric`]
//! folds them into a [`SymMatrix`], refusing a matrix that is not square,
//! not symmetric, or that gives a position twice, with the file, the line
//! and the values.

use faer::sparse::{SparseColMat, Triplet};
use faer::Side;
use nalgebra::DMatrix;

/// A matrix file that cannot be used: the file, the line (when the fault
/// is on one), and what is wrong with the value found.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixError {
    /// The matrix file.
    pub file: String,
    /// 1-based line of the fault, when it is on one line.
    pub line: Option<usize>,
    /// What is wrong, with the value.
    pub message: String,
}

impl std::fmt::Display for MatrixError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// One value of a matrix file, 0-based, with its 1-based line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    /// Row (0-based).
    pub row: usize,
    /// Column (0-based).
    pub col: usize,
    /// Value.
    pub value: f64,
    /// The line of the file it was read from (1-based).
    pub line: usize,
}

/// The values of a matrix file as read, before they are checked.
#[derive(Debug, Clone)]
pub struct Entries {
    /// The file (for messages).
    pub file: String,
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// Whether the file stores one triangle of a symmetric matrix (each
    /// off-diagonal value stands for itself and its mirror).
    pub one_triangle: bool,
    /// The line of the size (or header), for a fault of the whole matrix.
    pub size_line: usize,
    /// The values.
    pub entries: Vec<Entry>,
}

/// A real symmetric sparse matrix: its upper triangle.
#[derive(Debug, Clone, PartialEq)]
pub struct SymMatrix {
    n: usize,
    upper: Vec<(usize, usize, f64)>,
}

/// Relative tolerance of symmetry for a file of both triangles
/// (`general`): `|a_ij - a_ji| <= 1e-10 max(|a_ij|, |a_ji|)`, what an FE
/// code's round-off in assembly leaves; the mean of the two is kept.
pub const SYMMETRY_RTOL: f64 = 1e-10;

impl Entries {
    fn err(&self, line: Option<usize>, message: String) -> MatrixError {
        MatrixError { file: self.file.clone(), line, message }
    }

    /// Fold into a symmetric matrix: square, every value finite (the readers
    /// check that), each position once, and for a file of both triangles
    /// `a_ij = a_ji` to [`SYMMETRY_RTOL`]. `what` names the matrix in
    /// messages (`structure "beam" mass`).
    pub fn into_symmetric(self, what: &str) -> Result<SymMatrix, MatrixError> {
        if self.rows != self.cols {
            return Err(self.err(
                Some(self.size_line),
                format!("{what}: the matrix is {} x {}, not square", self.rows, self.cols),
            ));
        }
        let n = self.rows;
        // sort by (upper position, line): duplicates and mirror pairs adjacent
        let mut e: Vec<(usize, usize, Entry)> =
            self.entries.iter().map(|x| (x.row.min(x.col), x.row.max(x.col), *x)).collect();
        e.sort_by_key(|a| (a.1, a.0, a.2.line));
        let mut upper: Vec<(usize, usize, f64)> = Vec::with_capacity(e.len());
        let mut k = 0;
        while k < e.len() {
            let (i, j, a) = e[k];
            let same = e[k + 1..].iter().take_while(|x| x.0 == i && x.1 == j).count();
            let group = &e[k..k + 1 + same];
            k += 1 + same;
            let twice = |x: &Entry, y: &Entry| {
                self.err(
                    Some(y.line),
                    format!(
                        "{what}: the value at row {}, column {} is given twice (lines {} and {})",
                        y.row + 1,
                        y.col + 1,
                        x.line,
                        y.line
                    ),
                )
            };
            if i == j || self.one_triangle {
                if let Some(b) = group.get(1) {
                    return Err(twice(&a, &b.2));
                }
                upper.push((i, j, a.value));
                continue;
            }
            // both triangles: one value above and one below
            let above: Vec<&Entry> = group.iter().map(|x| &x.2).filter(|x| x.row < x.col).collect();
            let below: Vec<&Entry> = group.iter().map(|x| &x.2).filter(|x| x.row > x.col).collect();
            for side in [&above, &below] {
                if side.len() > 1 {
                    return Err(twice(side[0], side[1]));
                }
            }
            let (u, l) = (above.first().map(|x| x.value), below.first().map(|x| x.value));
            let (uv, lv) = (u.unwrap_or(0.0), l.unwrap_or(0.0));
            if (uv - lv).abs() > SYMMETRY_RTOL * uv.abs().max(lv.abs()) {
                let at = above.first().or(below.first()).map(|x| x.line);
                return Err(self.err(
                    at,
                    format!(
                        "{what}: not symmetric: row {}, column {} holds {uv:e} but row {}, column {} holds {lv:e} \
                         (line {}); a mass, stiffness or damping matrix must be symmetric (relative tolerance {:e})",
                        i + 1,
                        j + 1,
                        j + 1,
                        i + 1,
                        below.first().map_or("none".to_string(), |x| x.line.to_string()),
                        SYMMETRY_RTOL
                    ),
                ));
            }
            upper.push((i, j, 0.5 * (uv + lv)));
        }
        Ok(SymMatrix { n, upper })
    }
}

impl SymMatrix {
    /// The matrix of size `n` whose upper triangle holds `entries`
    /// (`row <= col`, each position once; any order).
    pub fn from_upper(n: usize, mut entries: Vec<(usize, usize, f64)>) -> Self {
        entries.sort_by_key(|a| (a.1, a.0));
        SymMatrix { n, upper: entries }
    }

    /// The symmetric matrix `a` (its upper triangle is taken; the lower must
    /// equal it to [`SYMMETRY_RTOL`]). `what` names it in the error.
    pub fn from_dense(a: &DMatrix<f64>, what: &str) -> Result<Self, String> {
        if a.nrows() != a.ncols() {
            return Err(format!("{what}: the matrix is {} x {}, not square", a.nrows(), a.ncols()));
        }
        let n = a.nrows();
        let mut upper = Vec::new();
        for j in 0..n {
            for i in 0..=j {
                let (u, l) = (a[(i, j)], a[(j, i)]);
                if !u.is_finite() {
                    return Err(format!("{what}: row {i}, column {j} holds {u}, not a finite number"));
                }
                if (u - l).abs() > SYMMETRY_RTOL * u.abs().max(l.abs()) {
                    return Err(format!(
                        "{what}: not symmetric: row {i}, column {j} holds {u:e} but row {j}, column {i} holds {l:e}"
                    ));
                }
                if u != 0.0 {
                    upper.push((i, j, u));
                }
            }
        }
        Ok(SymMatrix { n, upper })
    }

    /// The diagonal matrix `diag(d)`.
    pub fn diagonal(d: &[f64]) -> Self {
        SymMatrix { n: d.len(), upper: d.iter().enumerate().map(|(i, &v)| (i, i, v)).collect() }
    }

    /// Its size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The stored upper triangle: `(row, col, value)` with `row <= col`,
    /// sorted by column then row.
    pub fn upper(&self) -> &[(usize, usize, f64)] {
        &self.upper
    }

    /// The dense matrix.
    pub fn to_dense(&self) -> DMatrix<f64> {
        let mut a = DMatrix::zeros(self.n, self.n);
        for &(i, j, v) in &self.upper {
            a[(i, j)] = v;
            a[(j, i)] = v;
        }
        a
    }

    /// Both triangles as a faer sparse matrix (column-compressed).
    pub fn to_faer(&self) -> SparseColMat<usize, f64> {
        let mut t: Vec<Triplet<usize, usize, f64>> = Vec::with_capacity(2 * self.upper.len());
        for &(i, j, v) in &self.upper {
            t.push(Triplet::new(i, j, v));
            if i != j {
                t.push(Triplet::new(j, i, v));
            }
        }
        // positions are unique, so the construction cannot fail but on memory
        SparseColMat::try_new_from_triplets(self.n, self.n, &t)
            .unwrap_or_else(|_| SparseColMat::try_new_from_triplets(0, 0, &[]).expect("empty matrix"))
    }

    /// `y = A x`.
    pub fn mul_vec(&self, x: &[f64]) -> Vec<f64> {
        let mut y = vec![0.0; self.n];
        self.add_mul_to(1.0, x, &mut y);
        y
    }

    /// `out += alpha A x`, without allocating.
    pub fn add_mul_to(&self, alpha: f64, x: &[f64], out: &mut [f64]) {
        for &(i, j, v) in &self.upper {
            out[i] += alpha * v * x[j];
            if i != j {
                out[j] += alpha * v * x[i];
            }
        }
    }

    /// The quadratic form `xᵀ A x`.
    pub fn quadratic(&self, x: &[f64]) -> f64 {
        self.upper.iter().map(|&(i, j, v)| if i == j { v * x[i] * x[i] } else { 2.0 * v * x[i] * x[j] }).sum()
    }

    /// `alpha A + beta B` (same size).
    pub fn combine(alpha: f64, a: &SymMatrix, beta: f64, b: &SymMatrix) -> SymMatrix {
        let mut e: Vec<(usize, usize, f64)> = a.upper.iter().map(|&(i, j, v)| (i, j, alpha * v)).collect();
        e.extend(b.upper.iter().map(|&(i, j, v)| (i, j, beta * v)));
        e.sort_by_key(|x| (x.1, x.0));
        let mut out: Vec<(usize, usize, f64)> = Vec::with_capacity(e.len());
        for (i, j, v) in e {
            match out.last_mut() {
                Some(l) if l.0 == i && l.1 == j => l.2 += v,
                _ => out.push((i, j, v)),
            }
        }
        SymMatrix { n: a.n.max(b.n), upper: out }
    }

    /// Whether the matrix is positive definite, by a sparse Cholesky
    /// factorisation (faer, fill-reducing ordering): `Err` with the reason
    /// when a pivot is not positive.
    pub fn check_positive_definite(&self) -> Result<(), String> {
        if self.n == 0 {
            return Err("the matrix is empty".into());
        }
        let mut t: Vec<Triplet<usize, usize, f64>> =
            self.upper.iter().map(|&(i, j, v)| Triplet::new(i, j, v)).collect();
        // a position without a value is a zero pivot at worst: keep the diagonal
        // in the pattern so that the factorisation reports it as such
        t.extend((0..self.n).map(|i| Triplet::new(i, i, 0.0)));
        let a = SparseColMat::<usize, f64>::try_new_from_triplets(self.n, self.n, &t)
            .map_err(|e| format!("cannot assemble the matrix: {e:?}"))?;
        a.sp_cholesky(Side::Upper).map(|_| ()).map_err(|_| "a Cholesky pivot is not positive".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(one_triangle: bool, v: &[(usize, usize, f64)]) -> Entries {
        Entries {
            file: "m.mtx".into(),
            rows: 2,
            cols: 2,
            one_triangle,
            size_line: 2,
            entries: v
                .iter()
                .enumerate()
                .map(|(k, &(row, col, value))| Entry { row, col, value, line: k + 3 })
                .collect(),
        }
    }

    #[test]
    fn a_general_file_of_an_asymmetric_matrix_is_refused_at_the_upper_value() {
        let e = entries(false, &[(0, 0, 2.0), (0, 1, -1.0), (1, 0, -1.5), (1, 1, 2.0)]);
        let err = e.into_symmetric("stiffness").unwrap_err();
        assert_eq!(err.line, Some(4), "{err}");
        assert!(err.message.contains("not symmetric"), "{err}");
    }

    #[test]
    fn one_triangle_and_its_mirror_fold_to_the_same_matrix() {
        let a = entries(true, &[(0, 0, 2.0), (1, 0, -1.0), (1, 1, 3.0)]).into_symmetric("k").unwrap();
        let b = entries(false, &[(0, 0, 2.0), (0, 1, -1.0), (1, 0, -1.0), (1, 1, 3.0)])
            .into_symmetric("k")
            .unwrap();
        assert_eq!(a, b);
        assert_eq!(a.mul_vec(&[1.0, 1.0]), vec![1.0, 2.0]);
    }

    #[test]
    fn a_position_given_twice_is_refused_with_both_lines() {
        let err = entries(true, &[(0, 0, 2.0), (0, 0, 1.0)]).into_symmetric("m").unwrap_err();
        assert!(err.message.contains("lines 3 and 4"), "{err}");
    }

    #[test]
    fn cholesky_tells_definite_from_indefinite() {
        assert!(SymMatrix::from_upper(2, vec![(0, 0, 2.0), (0, 1, -1.0), (1, 1, 2.0)])
            .check_positive_definite()
            .is_ok());
        assert!(SymMatrix::from_upper(2, vec![(0, 0, 1.0), (0, 1, 2.0), (1, 1, 1.0)])
            .check_positive_definite()
            .is_err());
        assert!(SymMatrix::from_upper(2, vec![(0, 0, 1.0)]).check_positive_definite().is_err());
    }
}
