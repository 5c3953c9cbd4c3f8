//! CalculiX's matrix storage (Dhondt, "CalculiX CrunchiX user's manual",
//! `*FREQUENCY, SOLVER=MATRIXSTORAGE`): the stiffness in `jobname.sti`, the
//! mass in `jobname.mas`, each line `ROW COLUMN VALUE`, 1-based, the upper
//! triangle (row <= column) of the matrix after the boundary conditions are
//! applied, and `jobname.dof` naming each index `NODE.DIRECTION` (1, 2, 3:
//! x, y, z). Written by ccx 2.20 for `examples/fe_beam/beam.inp`:
//!
//! ```text
//! 1 1  2.2974358974359e+09
//! 1 2  1.1920928955078e-07
//! 2 2  4.1820512820513e+09
//! ```
//!
//! The size is the number of lines of the `.dof` file beside the matrix
//! when there is one (a last index with only zeros writes no line), else
//! the largest index.

use std::path::Path;

use super::sparse::{Entries, Entry, MatrixError};

/// Read a `.sti` or `.mas` file's values; `size` is the number of DOFs
/// (from the `.dof` file), or `None` to take the largest index.
pub fn parse(text: &str, file: &str, size: Option<usize>) -> Result<Entries, MatrixError> {
    let err = |line: usize, message: String| MatrixError { file: file.into(), line: Some(line), message };
    let mut entries = Vec::new();
    let mut n = 0usize;
    for (k, l) in text.lines().enumerate() {
        let line = k + 1;
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.is_empty() {
            continue;
        }
        if t.len() != 3 {
            return Err(err(line, format!("expected `ROW COLUMN VALUE`, found {l:?}")));
        }
        let idx = |s: &str, what: &str| {
            s.parse::<usize>().ok().filter(|&i| i >= 1).ok_or_else(|| {
                err(line, format!("{what} {s:?} is not a positive integer (indices are 1-based)"))
            })
        };
        let (i, j) = (idx(t[0], "row")?, idx(t[1], "column")?);
        if let Some(s) = size {
            if i > s || j > s {
                return Err(err(
                    line,
                    format!("index ({i}, {j}) is past the {s} degrees of freedom of the .dof file"),
                ));
            }
        }
        let value =
            t[2].parse::<f64>().map_err(|_| err(line, format!("value {:?} is not a number", t[2])))?;
        if !value.is_finite() {
            return Err(err(line, format!("value {} is not finite", t[2])));
        }
        n = n.max(i).max(j);
        entries.push(Entry { row: i - 1, col: j - 1, value, line });
    }
    let n = size.unwrap_or(n);
    Ok(Entries { file: file.into(), rows: n, cols: n, one_triangle: true, size_line: 1, entries })
}

/// The `.dof` file beside `matrix` (`jobname.sti` -> `jobname.dof`): its
/// labels `NODE.DIRECTION`, one per index, or `None` when there is none.
pub fn dof_labels(matrix: &Path) -> Result<Option<Vec<String>>, MatrixError> {
    let dof = matrix.with_extension("dof");
    if !dof.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&dof).map_err(|e| MatrixError {
        file: dof.display().to_string(),
        line: None,
        message: format!("cannot read: {e}"),
    })?;
    Ok(Some(text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ccx_upper_triangle_reads_as_a_symmetric_matrix() {
        let text = "1 1  2.0e+00\n1 2  -1.0e+00\n2 2  2.0e+00\n";
        let a = parse(text, "beam.sti", Some(3)).unwrap().into_symmetric("stiffness").unwrap();
        assert_eq!(a.n(), 3);
        assert_eq!(a.mul_vec(&[1.0, 1.0, 1.0]), vec![1.0, 1.0, 0.0]);
    }

    #[test]
    fn an_index_past_the_dof_file_is_refused_with_its_line() {
        let e = parse("1 1 1.0\n1 4 2.0\n", "beam.mas", Some(3)).unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.message.contains("(1, 4)"), "{e}");
    }
}
