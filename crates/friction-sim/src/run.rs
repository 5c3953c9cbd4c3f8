//! One run of a system into an output directory, as `friction run` does
//! it: the time series streams to `timeseries.csv` while it is computed
//! (memory stays bounded however long the run), then `summary.json` and
//! the picture are written; all of it goes to a temporary directory that
//! replaces the target only when complete, and a second run into the same
//! directory is refused while the first runs. The command line and any other
//! face that writes a run to disk call this one function (the plot is drawn
//! by the [`Picture`] it is handed: `friction_plot::run_to_dir` hands it the
//! run plot).
//!
//! ```
//! let sys = friction_sim::scenario::parse(
//!     "[[body]]\nname = \"m\"\nmass = 1.0\nv0 = 1.0\n[solver]\nt_end = 1.0\noutput_dt = 0.5\n",
//!     "doc.toml",
//!     std::path::Path::new("."),
//! )
//! .unwrap();
//! let dir = std::env::temp_dir().join(format!("friction-run-doc-{}", std::process::id()));
//! let out = friction_sim::run::run_to_dir(&sys, &dir, None, None).unwrap();
//! assert!((out.last("x.m") - 1.0).abs() < 1e-12);
//! let csv = std::fs::read_to_string(dir.join("timeseries.csv")).unwrap();
//! assert_eq!(csv.lines().count(), 2 + 3); // the names, the units, 3 rows
//! assert!(dir.join("summary.json").exists());
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::path::Path;

use crate::engine::{Engine, Outcome, Progress};
use crate::error::SimError;
use crate::output;
use crate::system::{units, System};

/// What writes a run's picture into the directory being written: called
/// with the system, the outcome and that (temporary) directory.
pub type Picture<'a> = &'a dyn Fn(&System, &Outcome, &Path) -> Result<(), SimError>;

/// Simulate `sys` into the directory `dir` (`timeseries.csv` with a units
/// row, `summary.json`, what `picture` draws), reporting `progress` (the
/// time reached and the events so far) as it goes. The engine is prepared
/// once, for the column names and the run. A run that fails part-way
/// returns its partial outcome with [`Outcome::failure`] set, after writing
/// what it computed (marked `"partial": true` in the summary).
pub fn run_to_dir(
    sys: &System,
    dir: &Path,
    picture: Option<Picture<'_>>,
    progress: Option<Progress<'_>>,
) -> Result<Outcome, SimError> {
    let _lock = output::OutputLock::acquire(dir)?;
    let mut result = None;
    output::write_atomic_with(dir, |tmp| {
        let engine = Engine::new(sys);
        let columns = engine.columns();
        let units = units::column_units(sys);
        let mut csv =
            output::CsvStream::create_with_units(&tmp.join("timeseries.csv"), &columns, Some(&units))?;
        let res = engine.run_with(Some(&mut |r| csv.write(r)), progress)?;
        csv.finish()?;
        output::write_summary(sys, &res, tmp)?;
        if let Some(picture) = picture {
            picture(sys, &res, tmp)?;
        }
        result = Some(res);
        Ok(())
    })?;
    result.ok_or_else(|| SimError::Io {
        path: dir.display().to_string(),
        source: std::io::Error::other("no result"),
    })
}
