//! Writing results: the CSV time series and `summary.json`. The plot is
//! drawn above this crate (`friction-plot`, which hands [`crate::run::run_to_dir`]
//! its picture), so the simulation draws nothing.
//!
//! # A result is whole or absent
//!
//! [`write_atomic`] writes a run into a fresh temporary directory beside the
//! target (`.NAME.tmp-PID-N`) and renames it into place only when every file
//! is written, so a reader never sees a half-written result and the previous
//! result stays whole until the new one replaces it (the old directory is
//! renamed aside, the new one renamed in, then the old one removed). A run
//! that stopped early still lands, with `"partial": true` in `summary.json`.
//!
//! [`OutputLock`] (`NAME.lock` beside the target, created exclusively and
//! holding the PID) refuses a second run into the same directory while the
//! first is running; a lock whose process is gone is taken over.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{json, Value};

use crate::engine::{Energy, Event, FlatOutcome, Outcome, Stats};
use crate::error::SimError;
use crate::system::System;

fn io(path: &Path, e: std::io::Error) -> SimError {
    SimError::Io { path: path.display().to_string(), source: e }
}

/// The directory that holds `target` (`.` for a bare name), and the target's
/// last component; refuses targets without one (`.`, `..`, `/`).
fn split_target(target: &Path) -> Result<(PathBuf, std::ffi::OsString), SimError> {
    let name = match target.components().next_back() {
        Some(std::path::Component::Normal(n)) => n.to_os_string(),
        _ => return Err(SimError::Io {
            path: target.display().to_string(),
            source: std::io::Error::other(
                "an output directory must end in a name (not `.`, `..` or a root); give e.g. --out results",
            ),
        }),
    };
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name))
}

/// Whether the process `pid` is alive (`/proc/PID` on Linux; elsewhere a
/// lock is always taken as held).
fn pid_alive(pid: u32) -> bool {
    if Path::new("/proc/self").exists() {
        Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}

/// An exclusive lock on an output directory: `NAME.lock` beside it, holding
/// the PID of the run; removed when dropped.
#[derive(Debug)]
pub struct OutputLock {
    path: PathBuf,
}

impl OutputLock {
    /// Take the lock of `target`. A lock held by a live process refuses with
    /// [`SimError::Locked`]; a lock left by a process that is gone is taken
    /// over (and the temporary directories that process left are removed).
    pub fn acquire(target: &Path) -> Result<OutputLock, SimError> {
        let (parent, name) = split_target(target)?;
        fs::create_dir_all(&parent).map_err(|e| io(&parent, e))?;
        let mut lock_name = name.clone();
        lock_name.push(".lock");
        let path = parent.join(lock_name);
        for _ in 0..2 {
            match fs::OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut f) => {
                    use std::io::Write as _;
                    write!(f, "{}", std::process::id()).map_err(|e| io(&path, e))?;
                    remove_stale_temporaries(&parent, &name);
                    return Ok(OutputLock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let text = fs::read_to_string(&path).unwrap_or_default();
                    match text.trim().parse::<u32>() {
                        Ok(pid) if pid_alive(pid) => {
                            return Err(SimError::Locked {
                                dir: target.display().to_string(),
                                lock: path.display().to_string(),
                                pid,
                            })
                        }
                        // a stale lock (its process is gone) or a lock being
                        // written this instant (empty): take over a stale one only
                        Ok(_) => {
                            let _ = fs::remove_file(&path);
                        }
                        Err(_) => {
                            return Err(SimError::Locked {
                                dir: target.display().to_string(),
                                lock: path.display().to_string(),
                                pid: 0,
                            })
                        }
                    }
                }
                Err(e) => return Err(io(&path, e)),
            }
        }
        Err(SimError::Locked { dir: target.display().to_string(), lock: path.display().to_string(), pid: 0 })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Remove `.NAME.tmp-PID-N` and `.NAME.old-PID-N` directories whose process is gone.
fn remove_stale_temporaries(parent: &Path, name: &std::ffi::OsStr) {
    let name = name.to_string_lossy();
    let Ok(entries) = fs::read_dir(parent) else { return };
    for e in entries.flatten() {
        let f = e.file_name().to_string_lossy().to_string();
        for kind in [".tmp-", ".old-"] {
            let prefix = format!(".{name}{kind}");
            if let Some(rest) = f.strip_prefix(&prefix) {
                let pid = rest.split('-').next().and_then(|p| p.parse::<u32>().ok());
                if pid.is_some_and(|p| p != std::process::id() && !pid_alive(p)) {
                    let _ = fs::remove_dir_all(e.path());
                }
            }
        }
    }
}

static SERIAL: AtomicUsize = AtomicUsize::new(0);

/// A fresh path `.NAME.KIND-PID-N` beside the target.
fn sibling(parent: &Path, name: &std::ffi::OsStr, kind: &str) -> PathBuf {
    let n = SERIAL.fetch_add(1, Ordering::Relaxed);
    parent.join(format!(".{}.{kind}-{}-{n}", name.to_string_lossy(), std::process::id()))
}

/// Write a result atomically: `write` fills a fresh temporary directory
/// beside `target`, which then replaces `target` by renames. If `write`
/// fails, the temporary directory is removed and `target` is untouched.
pub fn write_atomic_with(
    target: &Path,
    write: impl FnOnce(&Path) -> Result<(), SimError>,
) -> Result<(), SimError> {
    let (parent, name) = split_target(target)?;
    fs::create_dir_all(&parent).map_err(|e| io(&parent, e))?;
    let tmp = sibling(&parent, &name, "tmp");
    fs::create_dir(&tmp).map_err(|e| io(&tmp, e))?;
    if let Err(e) = write(&tmp) {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let old = sibling(&parent, &name, "old");
    let had_old = match fs::symlink_metadata(target) {
        Ok(m) if m.is_dir() => {
            fs::rename(target, &old).map_err(|e| io(target, e))?;
            true
        }
        Ok(_) => {
            let _ = fs::remove_dir_all(&tmp);
            return Err(io(target, std::io::Error::other("exists and is not a directory; not replaced")));
        }
        Err(_) => false,
    };
    if let Err(e) = fs::rename(&tmp, target) {
        if had_old {
            let _ = fs::rename(&old, target);
        }
        let _ = fs::remove_dir_all(&tmp);
        return Err(io(target, e));
    }
    if had_old {
        let _ = fs::remove_dir_all(&old);
    }
    Ok(())
}

/// [`write_all`] through [`write_atomic_with`]: the files appear in `target`
/// all at once, replacing a previous result only when complete.
pub fn write_atomic(sys: &System, out: &Outcome, target: &Path) -> Result<(), SimError> {
    write_atomic_with(target, |dir| write_all(sys, out, dir))
}

/// Write `timeseries.csv` and `summary.json` into `dir` (the plot is
/// `friction-plot`'s).
pub fn write_all(sys: &System, out: &Outcome, dir: &Path) -> Result<(), SimError> {
    fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    write_csv(out, &dir.join("timeseries.csv"))?;
    write_summary(sys, out, dir)
}

/// A CSV time series written row by row as a run goes (the `friction run`
/// output: memory stays bounded however long the run).
pub struct CsvStream {
    w: csv::Writer<std::io::BufWriter<fs::File>>,
    path: std::path::PathBuf,
    buf: Vec<String>,
}

impl CsvStream {
    /// Create `path` and write the header.
    pub fn create(path: &Path, columns: &[String]) -> Result<Self, SimError> {
        Self::create_with_units(path, columns, None)
    }

    /// Create `path` and write a `# units: s, m, ...` comment line (when
    /// `units` is given) and the header.
    pub fn create_with_units(
        path: &Path,
        columns: &[String],
        units: Option<&[String]>,
    ) -> Result<Self, SimError> {
        let mut f = std::io::BufWriter::new(fs::File::create(path).map_err(|e| io(path, e))?);
        if let Some(u) = units {
            writeln!(f, "{}", units_line(u)).map_err(|e| io(path, e))?;
        }
        let mut w = csv::Writer::from_writer(f);
        let p = path.to_path_buf();
        w.write_record(columns).map_err(|e| io(&p, std::io::Error::other(e.to_string())))?;
        Ok(CsvStream { w, path: p, buf: Vec::new() })
    }

    /// Append one row.
    pub fn write(&mut self, row: &[f64]) -> Result<(), SimError> {
        self.buf.clear();
        self.buf.extend(row.iter().map(|&x| number(x)));
        self.w.write_record(&self.buf).map_err(|e| io(&self.path, std::io::Error::other(e.to_string())))
    }

    /// Flush everything to disk.
    pub fn finish(mut self) -> Result<(), SimError> {
        self.w.flush().map_err(|e| io(&self.path, e))
    }
}

/// Write `summary.json` into `dir` (the time series having been streamed
/// there by a [`CsvStream`]).
pub fn write_summary(sys: &System, out: &Outcome, dir: &Path) -> Result<(), SimError> {
    let summary = summary(sys, out);
    let p = dir.join("summary.json");
    fs::write(&p, serde_json::to_string_pretty(&summary).unwrap_or_default()).map_err(|e| io(&p, e))
}

/// A CSV value: shortest round-trip exponent form, `-0` written as `0e0`.
fn number(x: f64) -> String {
    format!("{:e}", x + 0.0)
}

/// `# units: s, m, m/s, ...`: the comment line above the CSV header (CSV
/// readers skip it with a `#` comment setting, as `friction analyze` does).
pub fn units_line(units: &[String]) -> String {
    format!("# units: {}", units.join(", "))
}

/// Write the time series as CSV: a `# units: ...` comment line, the header,
/// the rows.
pub fn write_csv(out: &Outcome, path: &Path) -> Result<(), SimError> {
    let mut f = std::io::BufWriter::new(fs::File::create(path).map_err(|e| io(path, e))?);
    if !out.units.is_empty() {
        writeln!(f, "{}", units_line(&out.units)).map_err(|e| io(path, e))?;
    }
    let mut w = csv::Writer::from_writer(f);
    let err = |e: csv::Error| SimError::Io {
        path: path.display().to_string(),
        source: std::io::Error::other(e.to_string()),
    };
    w.write_record(&out.columns).map_err(err)?;
    for r in &out.rows {
        w.write_record(r.iter().map(|&x| number(x))).map_err(err)?;
    }
    w.flush().map_err(|e| io(path, e))?;
    Ok(())
}

/// The summary: final values, events, statistics, energy balance.
pub fn summary(sys: &System, out: &Outcome) -> Value {
    summary_of(
        sys,
        Results {
            columns: &out.columns,
            units: &out.units,
            last: out.rows.last().map(|r| r.as_slice()),
            n_rows: out.rows.len(),
            events: &out.events,
            stats: &out.stats,
            energy: &out.energy,
            failure: &out.failure,
            warnings: &out.warnings,
        },
    )
}

/// [`summary`] of a run whose rows are in one block.
///
/// ```
/// let sys = friction_sim::scenario::parse(
///     "[[body]]\nname = \"m\"\nmass = 1.0\nv0 = 1.0\n[solver]\nt_end = 1.0\noutput_dt = 0.5\n",
///     "doc.toml",
///     std::path::Path::new("."),
/// )
/// .unwrap();
/// let flat = friction_sim::simulate_flat(&sys).unwrap();
/// let s = friction_sim::output::summary_flat(&sys, &flat);
/// assert!((s["final"]["x.m"].as_f64().unwrap() - 1.0).abs() < 1e-9);
/// assert_eq!(s["stats"]["rows"], 3);
/// ```
pub fn summary_flat(sys: &System, out: &FlatOutcome) -> Value {
    summary_of(
        sys,
        Results {
            columns: &out.columns,
            units: &out.units,
            last: out.rows().last(),
            n_rows: out.n_rows(),
            events: &out.events,
            stats: &out.stats,
            energy: &out.energy,
            failure: &out.failure,
            warnings: &out.warnings,
        },
    )
}

/// What a summary reads of a run's result.
struct Results<'a> {
    columns: &'a [String],
    units: &'a [String],
    last: Option<&'a [f64]>,
    n_rows: usize,
    events: &'a [Event],
    stats: &'a Stats,
    energy: &'a Energy,
    failure: &'a Option<String>,
    warnings: &'a [String],
}

fn summary_of(sys: &System, out: Results<'_>) -> Value {
    let finals: serde_json::Map<String, Value> = match out.last {
        Some(r) => out.columns.iter().zip(r).map(|(c, v)| (c.clone(), json!(v))).collect(),
        None => Default::default(),
    };
    let e = &out.energy;
    let dissipated = e.dissipated_total();
    let mut v = json!({
        "name": sys.name,
        "status": if out.failure.is_some() { "failed" } else { "ok" },
        "partial": out.failure.is_some(),
        "error": out.failure,
        "warnings": out.warnings,
        "final": finals,
        "units": out.columns.iter().zip(out.units).map(|(c, u)| (c.clone(), json!(u))).collect::<serde_json::Map<_, _>>(),
        "events": out.events.iter().map(|ev| json!({"t": ev.t, "contact": ev.contact, "from": ev.from, "to": ev.to})).collect::<Vec<_>>(),
        "stats": {
            "method": out.stats.method,
            "steps": out.stats.steps,
            "rejected_steps": out.stats.rejected,
            "rhs_evaluations": out.stats.rhs_evals,
            "jacobian_products": out.stats.jacobian_products,
            "newton_iterations": out.stats.newton_iterations,
            "newton_failures": out.stats.newton_failures,
            "factorisations": out.stats.factorisations,
            "linear_algebra": out.stats.linear_algebra,
            "wall_time_s": out.stats.wall_time,
            "rows": out.stats.rows.max(out.n_rows),
            "events": {
                "stick_slip": out.stats.events_stick_slip,
                "stops": out.stats.events_stops,
                "gaps": out.stats.events_gaps,
                "engagement": out.stats.events_engagement,
                "reversals": out.stats.events_reversals,
            },
            "lcp": {
                "solves": out.stats.lcp_solves,
                "pivots": out.stats.lcp_pivots,
                "largest": out.stats.lcp_max_size,
            },
        },
        "energy": {
            "work_forces": e.work_forces,
            "work_drivers": e.work_drivers,
            "kinetic_start": e.kinetic.0,
            "kinetic_end": e.kinetic.1,
            "spring_start": e.spring.0,
            "spring_end": e.spring.1,
            "contacts": e.contacts.iter().map(|(n, w)| (n.clone(), json!(w))).collect::<serde_json::Map<_, _>>(),
            "dampers": e.dampers.iter().map(|(n, w)| (n.clone(), json!(w))).collect::<serde_json::Map<_, _>>(),
            "gaps": e.gaps.iter().map(|(n, w)| (n.clone(), json!(w))).collect::<serde_json::Map<_, _>>(),
            "impacts": e.impacts,
            "dissipated_total": dissipated,
            "residual": e.residual,
            "residual_relative": e.residual.abs() / dissipated.abs().max(e.work_forces.abs() + e.work_drivers.abs()).max(1e-300),
        },
    });
    if !e.thermal.is_empty() {
        // heat per thermal node (stored in a capacity, absorbed by a fixed node)
        v["energy"]["thermal"] =
            e.thermal.iter().map(|(n, q)| (n.clone(), json!(q))).collect::<serde_json::Map<_, _>>().into();
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("friction-output-test-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    /// A run that fails while writing (here after half a CSV, as a full disk
    /// or a kill would leave it) must not touch the previous result: the
    /// reader still finds the old, complete files and no half-written ones,
    /// and no temporary directory is left behind.
    #[test]
    fn the_previous_result_stays_whole_when_the_new_run_fails_to_write() {
        let d = tmp("whole");
        let target = d.join("run");
        write_atomic_with(&target, |dir| {
            fs::write(dir.join("timeseries.csv"), "t,x\n0,1\n1,2\n").map_err(|e| io(dir, e))?;
            fs::write(dir.join("summary.json"), "{\"status\": \"ok\"}").map_err(|e| io(dir, e))
        })
        .unwrap();
        let err = write_atomic_with(&target, |dir| {
            fs::write(dir.join("timeseries.csv"), "t,x\n0,1\n0.5,1.").map_err(|e| io(dir, e))?;
            Err(io(dir, std::io::Error::other("disk full")))
        })
        .unwrap_err();
        assert!(err.to_string().contains("disk full"), "{err}");
        assert_eq!(fs::read_to_string(target.join("timeseries.csv")).unwrap(), "t,x\n0,1\n1,2\n");
        assert_eq!(fs::read_to_string(target.join("summary.json")).unwrap(), "{\"status\": \"ok\"}");
        let left: Vec<_> = fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("run")], "temporaries left behind");
        // a successful run replaces the whole directory, stale files included
        fs::write(target.join("stale.txt"), "old").unwrap();
        write_atomic_with(&target, |dir| fs::write(dir.join("summary.json"), "new").map_err(|e| io(dir, e)))
            .unwrap();
        assert_eq!(fs::read_to_string(target.join("summary.json")).unwrap(), "new");
        assert!(!target.join("stale.txt").exists() && !target.join("timeseries.csv").exists());
    }

    /// While one run holds the lock a second is refused, naming the lock and
    /// the process; after the first ends the lock is gone and free again. A
    /// lock left by a process that died is taken over.
    #[test]
    fn a_second_run_into_one_dir_is_refused_while_the_first_holds_the_lock() {
        let d = tmp("lock");
        let target = d.join("run");
        let first = OutputLock::acquire(&target).unwrap();
        let text = fs::read_to_string(first.path()).unwrap();
        assert_eq!(text, std::process::id().to_string());
        let e = OutputLock::acquire(&target).unwrap_err().to_string();
        assert!(e.contains("another run") && e.contains("run.lock"), "{e}");
        assert!(e.contains(&std::process::id().to_string()), "{e}");
        drop(first);
        assert!(!d.join("run.lock").exists());
        // a dead process: a child that has exited
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        fs::write(d.join("run.lock"), dead.to_string()).unwrap();
        fs::create_dir(d.join(format!(".run.tmp-{dead}-0"))).unwrap();
        let taken = OutputLock::acquire(&target).unwrap();
        assert_eq!(fs::read_to_string(taken.path()).unwrap(), std::process::id().to_string());
        assert!(!d.join(format!(".run.tmp-{dead}-0")).exists(), "stale temporary not removed");
    }

    /// Issue: the CSV held `-0e0`. Zero is written `0e0` whatever its sign.
    #[test]
    fn negative_zero_is_written_as_zero() {
        assert_eq!(number(-0.0), "0e0");
        assert_eq!(number(0.0), "0e0");
        assert_eq!(number(-1.5e-3), "-1.5e-3");
    }

    /// `.` and `..` cannot be replaced atomically: refused with a message.
    #[test]
    fn an_output_dir_without_a_name_is_refused() {
        for t in [".", "..", "a/.."] {
            let e = write_atomic_with(Path::new(t), |_| Ok(())).unwrap_err().to_string();
            assert!(e.contains("must end in a name"), "{t}: {e}");
        }
    }
}
