//! A run written to disk with its plot: [`run_to_dir`] is
//! `friction_sim::run::run_to_dir` handed the run plot ([`crate::plot`]) as
//! its picture, `plot.png` or `plot.svg` beside `timeseries.csv` and
//! `summary.json`.
//!
//! ```
//! let sys = friction_sim::scenario::parse(
//!     "[[body]]\nname = \"m\"\nmass = 1.0\nv0 = 1.0\n[solver]\nt_end = 1.0\noutput_dt = 0.5\n",
//!     "doc.toml",
//!     std::path::Path::new("."),
//! )
//! .unwrap();
//! let dir = std::env::temp_dir().join(format!("friction-plot-run-doc-{}", std::process::id()));
//! let out = friction_plot::run_to_dir(&sys, &dir, friction_plot::PlotFormat::Svg, None).unwrap();
//! assert!((out.last("x.m") - 1.0).abs() < 1e-12);
//! assert!(dir.join("summary.json").exists() && dir.join("plot.svg").exists());
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::path::Path;

use friction_sim::engine::Progress;
use friction_sim::{output, Outcome, SimError, System};

use crate::draw::PlotFormat;
use crate::run_plot::plot_as;

/// Simulate `sys` into the directory `dir` (`timeseries.csv` with a units
/// row, `summary.json`, `plot.png` or `plot.svg` as `format` says),
/// reporting `progress`; see `friction_sim::run::run_to_dir`.
pub fn run_to_dir(
    sys: &System,
    dir: &Path,
    format: PlotFormat,
    progress: Option<Progress<'_>>,
) -> Result<Outcome, SimError> {
    let picture = |sys: &System, out: &Outcome, tmp: &Path| write_plot(sys, out, tmp, format);
    friction_sim::run::run_to_dir(sys, dir, Some(&picture), progress)
}

/// Write `timeseries.csv`, `summary.json` and the plot (`plot.png` or
/// `plot.svg`) into `dir`.
pub fn write_all(sys: &System, out: &Outcome, dir: &Path, format: PlotFormat) -> Result<(), SimError> {
    output::write_all(sys, out, dir)?;
    write_plot(sys, out, dir, format)
}

/// Write the run plot `plot.png` or `plot.svg` into `dir`.
fn write_plot(sys: &System, out: &Outcome, dir: &Path, format: PlotFormat) -> Result<(), SimError> {
    plot_as(out, &dir.join(format!("plot.{}", format.extension())), &sys.name, format)
}
