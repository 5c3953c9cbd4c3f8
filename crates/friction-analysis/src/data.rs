//! Measured or simulated time series read from CSV, validated.
//!
//! A data file has a header row; `t` is required, and any of `x`
//! (displacement), `v` (velocity), `F` (friction force), `N` (normal force)
//! may be present. Columns can also be picked by other names (for example
//! `x.slider` and `F.c` from a `friction run` output).

use std::path::Path;

use crate::error::AnalysisError;

/// A validated time series.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Where it came from (for messages).
    pub source: String,
    /// Strictly increasing times \[s\].
    pub t: Vec<f64>,
    /// Displacement \[m\], if present.
    pub x: Option<Vec<f64>>,
    /// Velocity [m/s], if present.
    pub v: Option<Vec<f64>>,
    /// Friction force \[N\], if present.
    pub f: Option<Vec<f64>>,
    /// Normal force \[N\], if present.
    pub n: Option<Vec<f64>>,
}

/// Which columns to read for each signal (`None`: the default name, if present).
#[derive(Debug, Clone, Default)]
pub struct Columns {
    /// Time column (default `t`).
    pub t: Option<String>,
    /// Displacement column (default `x`).
    pub x: Option<String>,
    /// Velocity column (default `v`).
    pub v: Option<String>,
    /// Force column (default `F`).
    pub f: Option<String>,
    /// Normal force column (default `N`).
    pub n: Option<String>,
}

/// Smallest number of samples accepted.
pub const MIN_SAMPLES: usize = 10;

impl Series {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    /// Displacement, or the trapezoidal integral of the velocity from 0.
    pub fn displacement(&self) -> Option<Vec<f64>> {
        if let Some(x) = &self.x {
            return Some(x.clone());
        }
        let v = self.v.as_ref()?;
        let mut x = vec![0.0; v.len()];
        for i in 1..v.len() {
            x[i] = x[i - 1] + 0.5 * (v[i] + v[i - 1]) * (self.t[i] - self.t[i - 1]);
        }
        Some(x)
    }

    /// Velocity, or the central difference of the displacement.
    pub fn velocity(&self) -> Option<Vec<f64>> {
        if let Some(v) = &self.v {
            return Some(v.clone());
        }
        let x = self.x.as_ref()?;
        let n = x.len();
        let t = &self.t;
        let mut v = vec![0.0; n];
        for i in 0..n {
            let (a, b) = (i.saturating_sub(1), (i + 1).min(n - 1));
            v[i] = (x[b] - x[a]) / (t[b] - t[a]);
        }
        Some(v)
    }

    /// Build from vectors, validating lengths, finiteness and time order.
    pub fn new(
        source: &str,
        t: Vec<f64>,
        x: Option<Vec<f64>>,
        v: Option<Vec<f64>>,
        f: Option<Vec<f64>>,
        n: Option<Vec<f64>>,
    ) -> Result<Series, AnalysisError> {
        let err = |line: Option<usize>, message: String| AnalysisError::Data {
            file: source.to_string(),
            line,
            message,
        };
        if t.len() < MIN_SAMPLES {
            return Err(err(None, format!("{} samples; at least {MIN_SAMPLES} are needed", t.len())));
        }
        for (name, col) in [("x", &x), ("v", &v), ("F", &f), ("N", &n)] {
            if let Some(c) = col {
                if c.len() != t.len() {
                    return Err(err(
                        None,
                        format!("column `{name}` has {} values, `t` has {}", c.len(), t.len()),
                    ));
                }
            }
        }
        for i in 1..t.len() {
            if t[i] <= t[i - 1] || t[i].is_nan() {
                return Err(err(
                    Some(i + 2),
                    format!(
                        "time {} is not greater than the previous {}; times must increase strictly",
                        t[i],
                        t[i - 1]
                    ),
                ));
            }
        }
        Ok(Series { source: source.to_string(), t, x, v, f, n })
    }
}

/// Read a CSV time series, validating every value.
///
/// Memory: the file streams through a small buffer; only the columns read
/// are kept, as one `Vec<f64>` each (8 bytes per value, up to twice that
/// while a vector grows): 16 to 32 bytes per row for `t, F` and 40 to 80
/// for `t, x, v, F, N`, whatever the other columns of the file.
pub fn read_csv(path: &Path, cols: &Columns) -> Result<Series, AnalysisError> {
    read_csv_with_progress(path, cols, &mut |_, _| {})
}

/// How often (in rows) [`read_csv_with_progress`] reports.
pub const PROGRESS_ROWS: usize = 1 << 16;

/// [`read_csv`], reporting `progress(bytes read, file size)` every
/// [`PROGRESS_ROWS`] rows and at the end.
///
/// ```
/// let p = std::env::temp_dir().join(format!("friction-read-doc-{}.csv", std::process::id()));
/// let rows: String = (0..20).map(|i| format!("{i},{}\n", 0.5 * i as f64)).collect();
/// std::fs::write(&p, format!("t,F\n{rows}")).unwrap();
/// let mut last = (0, 0);
/// let s = friction_analysis::data::read_csv_with_progress(&p, &Default::default(), &mut |r, n| last = (r, n))
///     .unwrap();
/// assert_eq!(s.len(), 20);
/// assert_eq!(last.0, last.1); // all of it read
/// std::fs::remove_file(&p).unwrap();
/// ```
pub fn read_csv_with_progress(
    path: &Path,
    cols: &Columns,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Series, AnalysisError> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let file = path.display().to_string();
    let err =
        |line: Option<usize>, message: String| AnalysisError::Data { file: file.clone(), line, message };
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_path(path)
        .map_err(|e| err(None, format!("cannot read: {e}")))?;
    let header: Vec<String> = rdr
        .headers()
        .map_err(|e| err(Some(1), format!("bad header: {e}")))?
        .iter()
        .map(str::to_string)
        .collect();
    let find =
        |want: &Option<String>, default: &str, required: bool| -> Result<Option<usize>, AnalysisError> {
            let name = want.clone().unwrap_or_else(|| default.to_string());
            match header.iter().position(|h| *h == name) {
                Some(i) => Ok(Some(i)),
                None if required || want.is_some() => Err(err(
                    Some(1),
                    format!("no column `{name}` in the header; columns are: {}", header.join(", ")),
                )),
                None => Ok(None),
            }
        };
    let it = find(&cols.t, "t", true)?.unwrap_or(0);
    let ix = find(&cols.x, "x", false)?;
    let iv = find(&cols.v, "v", false)?;
    let i_f = find(&cols.f, "F", false)?;
    let i_n = find(&cols.n, "N", false)?;
    let mut t = Vec::new();
    let mut x = ix.map(|_| Vec::new());
    let mut v = iv.map(|_| Vec::new());
    let mut f = i_f.map(|_| Vec::new());
    let mut n = i_n.map(|_| Vec::new());
    for (k, rec) in rdr.records().enumerate() {
        let rec = rec.map_err(|e| {
            let line = e.position().map(|p| p.line() as usize);
            err(line, format!("{e}"))
        })?;
        let line = rec.position().map(|p| p.line() as usize).unwrap_or(k + 2);
        let get = |i: usize| -> Result<f64, AnalysisError> {
            let s = rec.get(i).ok_or_else(|| err(Some(line), format!("missing column `{}`", header[i])))?;
            let val: f64 = s
                .parse()
                .map_err(|_| err(Some(line), format!("column `{}`: `{s}` is not a number", header[i])))?;
            if !val.is_finite() {
                return Err(err(Some(line), format!("column `{}`: {val} is not finite", header[i])));
            }
            Ok(val)
        };
        if k % PROGRESS_ROWS == PROGRESS_ROWS - 1 {
            progress(rec.position().map_or(0, |p| p.byte()), size);
        }
        t.push(get(it)?);
        for (col, idx) in [(&mut x, ix), (&mut v, iv), (&mut f, i_f), (&mut n, i_n)] {
            if let (Some(c), Some(i)) = (col.as_mut(), idx) {
                c.push(get(i)?);
            }
        }
    }
    progress(size, size);
    Series::new(&file, t, x, v, f, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("friction-data-{}-{name}.csv", std::process::id()));
        std::fs::write(&p, text).unwrap();
        p
    }

    fn rows(n: usize, f: impl Fn(usize) -> String) -> String {
        (0..n).map(f).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn reads_named_columns_and_derives_the_missing_signal() {
        let text = format!(
            "t,x,F\n{}",
            rows(20, |i| format!("{},{},{}", i as f64 * 0.1, 2.0 * i as f64 * 0.1, 1.0))
        );
        let s = read_csv(&write("ok", &text), &Columns::default()).unwrap();
        assert_eq!(s.len(), 20);
        let v = s.velocity().unwrap();
        assert!(v.iter().all(|v| (v - 2.0).abs() < 1e-12));
        assert!(s.v.is_none() && s.n.is_none());
    }

    #[test]
    fn bad_data_names_file_line_and_column() {
        let good = rows(12, |i| format!("{},{}", i, i));
        let cases = [
            ("nan", format!("t,x\n{good}\n12,NaN"), vec![":14", "`x`", "not finite"]),
            ("order", format!("t,x\n{good}\n5,1"), vec![":14", "increase strictly"]),
            ("few", "t,x\n0,0\n1,1".to_string(), vec!["2 samples", "10"]),
            ("text", format!("t,x\n{good}\n13,abc"), vec![":14", "`abc` is not a number"]),
            ("nocol", format!("t,y\n{good}"), vec![":1", "`F`"]),
        ];
        for (name, text, needles) in cases {
            let cols = if name == "nocol" {
                Columns { f: Some("F".into()), ..Default::default() }
            } else {
                Columns::default()
            };
            let e = read_csv(&write(name, &text), &cols).unwrap_err().to_string();
            for n in needles {
                assert!(e.contains(n), "{name}: `{n}` not in `{e}`");
            }
        }
    }
}
