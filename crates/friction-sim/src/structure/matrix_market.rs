//! The MatrixMarket exchange format (Boisvert, Pozo and Remington 1996,
//! "The Matrix Market exchange formats: initial design", NIST IR 5935), as
//! `scipy.io.mmwrite` and most finite-element codes' exports write it:
//!
//! ```text
//! %%MatrixMarket matrix coordinate real symmetric     <- or general; integer also read
//! % comments
//! ROWS COLS NONZEROS
//! I J VALUE                                            <- 1-based; symmetric: one triangle
//! ```
//!
//! and the dense `array` form (`%%MatrixMarket matrix array real general`,
//! then `ROWS COLS` and the values column by column; `symmetric`: the lower
//! triangle column by column), which `mmwrite` writes for a dense array.
//! Complex, pattern and skew-symmetric matrices are refused.

use std::fmt::Write as _;

use super::sparse::{Entries, Entry, MatrixError, SymMatrix};

/// Read a MatrixMarket file's values (`file` names it in messages).
pub fn parse(text: &str, file: &str) -> Result<Entries, MatrixError> {
    let err = |line: usize, message: String| MatrixError { file: file.into(), line: Some(line), message };
    let mut lines = text.lines().enumerate().map(|(k, l)| (k + 1, l));
    let (_, header) =
        lines.next().ok_or_else(|| err(1, "the file is empty; expected a `%%MatrixMarket` header".into()))?;
    let h: Vec<String> = header.split_whitespace().map(str::to_ascii_lowercase).collect();
    if h.len() != 5 || h[0] != "%%matrixmarket" || h[1] != "matrix" {
        return Err(err(
            1,
            format!("expected `%%MatrixMarket matrix coordinate|array real|integer general|symmetric`, found {header:?}"),
        ));
    }
    let array = match h[2].as_str() {
        "coordinate" => false,
        "array" => true,
        other => return Err(err(1, format!("format \"{other}\" is not read; valid: coordinate, array"))),
    };
    if !matches!(h[3].as_str(), "real" | "integer" | "double") {
        return Err(err(1, format!("field \"{}\" is not read; valid: real, integer", h[3])));
    }
    let one_triangle = match h[4].as_str() {
        "general" => false,
        "symmetric" => true,
        other => return Err(err(1, format!("symmetry \"{other}\" is not read; valid: general, symmetric"))),
    };
    let mut data = lines.filter(|(_, l)| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('%')
    });
    let (size_line, size) = data.next().ok_or_else(|| err(1, "no size line after the header".into()))?;
    let num = |line: usize, s: &str, what: &str| -> Result<usize, MatrixError> {
        s.parse::<usize>().map_err(|_| err(line, format!("{what} {s:?} is not a non-negative integer")))
    };
    let sz: Vec<&str> = size.split_whitespace().collect();
    let want = if array { 2 } else { 3 };
    if sz.len() != want {
        return Err(err(
            size_line,
            format!(
                "expected the size line `{}`, found {size:?}",
                if array { "ROWS COLS" } else { "ROWS COLS NONZEROS" }
            ),
        ));
    }
    let rows = num(size_line, sz[0], "rows")?;
    let cols = num(size_line, sz[1], "columns")?;
    if one_triangle && rows != cols {
        return Err(err(size_line, format!("a symmetric matrix must be square, found {rows} x {cols}")));
    }
    let value = |line: usize, s: &str| -> Result<f64, MatrixError> {
        let v = s.parse::<f64>().map_err(|_| err(line, format!("value {s:?} is not a number")))?;
        if v.is_finite() {
            Ok(v)
        } else {
            Err(err(line, format!("value {s} is not finite")))
        }
    };
    let mut entries = Vec::new();
    if array {
        // column by column; symmetric: the lower triangle of each column
        let mut pos = (0..cols).flat_map(|j| (if one_triangle { j } else { 0 }..rows).map(move |i| (i, j)));
        for (line, l) in data {
            for tok in l.split_whitespace() {
                let Some((row, col)) = pos.next() else {
                    return Err(err(
                        line,
                        format!("more values than the {rows} x {cols} the size line gives"),
                    ));
                };
                let v = value(line, tok)?;
                if v != 0.0 || row == col {
                    entries.push(Entry { row, col, value: v, line });
                }
            }
        }
        if pos.next().is_some() {
            return Err(err(size_line, format!("fewer values than the {rows} x {cols} the size line gives")));
        }
    } else {
        let nnz = num(size_line, sz[2], "nonzeros")?;
        for (line, l) in data {
            let t: Vec<&str> = l.split_whitespace().collect();
            if t.len() != 3 {
                return Err(err(line, format!("expected `ROW COLUMN VALUE`, found {l:?}")));
            }
            let (i, j) = (num(line, t[0], "row")?, num(line, t[1], "column")?);
            if i == 0 || i > rows || j == 0 || j > cols {
                return Err(err(
                    line,
                    format!("index ({i}, {j}) is outside the {rows} x {cols} matrix (indices are 1-based)"),
                ));
            }
            entries.push(Entry { row: i - 1, col: j - 1, value: value(line, t[2])?, line });
        }
        if entries.len() != nnz {
            return Err(err(
                size_line,
                format!("the size line announces {nnz} values but the file holds {}", entries.len()),
            ));
        }
    }
    Ok(Entries { file: file.into(), rows, cols, one_triangle, size_line, entries })
}

/// Write a symmetric matrix as `coordinate real symmetric` (its lower
/// triangle, 1-based, 17 significant digits: read back bit for bit).
pub fn write(a: &SymMatrix, comment: &str) -> String {
    let mut s = String::from("%%MatrixMarket matrix coordinate real symmetric\n");
    for l in comment.lines() {
        let _ = writeln!(s, "% {l}");
    }
    let _ = writeln!(s, "{} {} {}", a.n(), a.n(), a.upper().len());
    for &(i, j, v) in a.upper() {
        // the lower triangle: (j, i) of the upper entry
        let _ = writeln!(s, "{} {} {v:.16e}", j + 1, i + 1);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scipy_style_symmetric_coordinate_file_reads_back_what_was_written() {
        let a = SymMatrix::from_upper(
            3,
            vec![(0, 0, 2.0), (0, 1, -1.0), (1, 1, 2.0), (1, 2, -1.0), (2, 2, 1.0 / 3.0)],
        );
        let text = write(&a, "test");
        let b = parse(&text, "k.mtx").unwrap().into_symmetric("k").unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn dense_array_form_is_read_column_by_column() {
        let text = "%%MatrixMarket matrix array real general\n2 2\n2\n-1\n-1\n3\n";
        let a = parse(text, "k.mtx").unwrap().into_symmetric("k").unwrap();
        assert_eq!(a.upper(), &[(0, 0, 2.0), (0, 1, -1.0), (1, 1, 3.0)]);
    }

    #[test]
    fn bad_files_are_refused_with_line_and_value() {
        let nan = "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 NaN\n2 2 1\n";
        let e = parse(nan, "m.mtx").unwrap_err();
        assert_eq!((e.line, e.message.contains("NaN")), (Some(3), true), "{e}");
        let past = "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n";
        let e = parse(past, "m.mtx").unwrap_err();
        assert!(e.line == Some(3) && e.message.contains("(3, 1)"), "{e}");
        let rect = "%%MatrixMarket matrix coordinate real general\n2 3 1\n1 1 1.0\n";
        let e = parse(rect, "m.mtx").unwrap().into_symmetric("mass").unwrap_err();
        assert!(e.line == Some(2) && e.message.contains("2 x 3"), "{e}");
        let complex = "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n";
        assert!(parse(complex, "m.mtx").unwrap_err().message.contains("complex"));
    }
}
