//! `friction fmu [FILE.toml] -o OUT.fmu [--fmi 2|3] [--lib PATH]`: export a
//! scenario as an FMI 2.0 (default) or 3.0 Co-Simulation FMU.
//!
//! This command only reads its arguments, the scenario and the library;
//! `friction_fmu::archive::write` builds the archive (the generic library of
//! the `friction-fmu` crate, the same for every export and both versions).
//!
//! The library is, in this order: `--lib PATH`; the file the environment
//! variable `FRICTION_FMU_LIB` names; the one embedded in this executable
//! when it was built (`build.rs`), so that an installed `friction` exports
//! FMUs with nothing else built or installed.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use friction_fmu::archive::{self, FmiVersion};

/// The environment variable naming the library.
const LIB_ENV: &str = "FRICTION_FMU_LIB";

/// Arguments of `friction fmu`.
#[derive(clap::Args)]
pub struct FmuArgs {
    /// Scenario TOML file (without FILE: the embedded LuGre stick-slip scenario).
    file: Option<PathBuf>,
    /// The FMU to write (a file name ending in .fmu; missing directories are created).
    #[arg(short, long, value_name = "OUT.fmu")]
    out: PathBuf,
    /// FMI version of the export: 2 (FMI 2.0 Co-Simulation) or 3 (FMI 3.0 Co-Simulation).
    #[arg(long, value_name = "2|3", default_value = "2")]
    fmi: String,
    /// The FMU shared library (libfriction_fmu.so) to pack, instead of the one built into this executable.
    #[arg(long, value_name = "PATH")]
    lib: Option<PathBuf>,
}

/// Run `friction fmu`; exit status 2 on bad input.
pub fn main(a: &FmuArgs, default_scenario: &str) -> ExitCode {
    match export(a, default_scenario) {
        Ok(msg) => {
            println!("{msg}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn export(a: &FmuArgs, default_scenario: &str) -> Result<String, String> {
    let version = FmiVersion::parse(&a.fmi)?;
    if a.out.extension().and_then(|e| e.to_str()) != Some("fmu") {
        return Err(format!("-o {}: the file name must end in .fmu", a.out.display()));
    }
    let parent = match a.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| {
        format!("-o {}: cannot create the directory {}: {e}", a.out.display(), parent.display())
    })?;
    if a.out.is_dir() {
        return Err(format!("-o {}: is a directory; give a file name ending in .fmu", a.out.display()));
    }
    let (text, file, dir) = match &a.file {
        Some(f) => {
            let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
            let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
            (text, f.display().to_string(), dir)
        }
        None => {
            (default_scenario.to_string(), "<embedded lugre_stick_slip.toml>".to_string(), PathBuf::from("."))
        }
    };
    // a scenario error first, then the library
    friction_sim::scenario::parse(&text, &file, &dir).map_err(|e| e.to_string())?;
    let (so, lib) = library(a.lib.as_deref())?;
    archive::check_library(&so, version).map_err(|e| format!("{lib}: {e}"))?;
    let s = archive::write(&text, &file, &dir, version, &so, &a.out)?;
    Ok(format!(
        "wrote {} (FMI {} Co-Simulation, {}): {} outputs, {} inputs, {} parameters, stop time {} s; library {}",
        a.out.display(),
        version.text(),
        version.platform(),
        s.outputs,
        s.inputs,
        s.parameters,
        s.stop_time,
        lib
    ))
}

/// The library built with this executable (see `build.rs`).
static EMBEDDED: &[u8] = include_bytes!(env!("FRICTION_FMU_EMBEDDED"));

/// The FMU library's bytes and where they come from: `--lib`,
/// `$FRICTION_FMU_LIB`, or the copy embedded in this executable.
fn library(opt: Option<&Path>) -> Result<(Cow<'static, [u8]>, String), String> {
    let path = if let Some(p) = opt {
        if !p.is_file() {
            return Err(format!("--lib {}: no such file", p.display()));
        }
        p.to_path_buf()
    } else if let Some(p) = std::env::var_os(LIB_ENV) {
        let p = PathBuf::from(p);
        if !p.is_file() {
            return Err(format!("{LIB_ENV}={}: no such file", p.display()));
        }
        p
    } else {
        return Ok((
            Cow::Borrowed(EMBEDDED),
            format!("embedded in this executable ({} bytes)", EMBEDDED.len()),
        ));
    };
    let so = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((Cow::Owned(so), path.display().to_string()))
}
