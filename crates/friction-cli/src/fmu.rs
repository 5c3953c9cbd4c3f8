//! `friction fmu [FILE.toml] -o OUT.fmu [--fmi 2|3] [--lib PATH]`: export a
//! scenario as an FMI 2.0 (default) or 3.0 Co-Simulation FMU.
//!
//! This command only reads its arguments, the scenario and the library;
//! `friction_fmu::archive::write` builds the archive (the generic library of
//! the `friction-fmu` crate, the same for every export and both versions).
//!
//! The library is found, in this order: `--lib PATH`; the environment
//! variable `FRICTION_FMU_LIB`; next to this executable
//! (`libfriction_fmu.so`, which `cargo build` of the workspace or of
//! `friction-fmu` puts there, or `deps/libfriction_fmu.so`, which cargo
//! builds as a dependency of this binary: the newest of these); `../lib/`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use friction_fmu::archive::{self, FmiVersion};

/// The environment variable naming the library.
const LIB_ENV: &str = "FRICTION_FMU_LIB";
/// The library's file name.
const LIB_NAME: &str = "libfriction_fmu.so";

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
    /// The FMU shared library (libfriction_fmu.so) to pack, instead of searching for it.
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
    let lib = find_lib(a.lib.as_deref())?;
    let so = std::fs::read(&lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    archive::check_library(&so, version).map_err(|e| format!("{}: {e}", lib.display()))?;
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
        lib.display()
    ))
}

/// The FMU library: `--lib`, `$FRICTION_FMU_LIB`, or next to the executable.
fn find_lib(opt: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = opt {
        return if p.is_file() {
            Ok(p.to_path_buf())
        } else {
            Err(format!("--lib {}: no such file", p.display()))
        };
    }
    if let Some(p) = std::env::var_os(LIB_ENV) {
        let p = PathBuf::from(p);
        return if p.is_file() { Ok(p) } else { Err(format!("{LIB_ENV}={}: no such file", p.display())) };
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate this executable: {e}"))?;
    let dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut searched = Vec::new();
    let beside = dir.join(LIB_NAME);
    searched.push(beside.display().to_string());
    let deps = dir.join("deps");
    searched.push(format!("{}/libfriction_fmu{{,-*}}.so", deps.display()));
    let lib_dir = dir.join("../lib").join(LIB_NAME);
    searched.push(lib_dir.display().to_string());
    // the newest of the candidates next to the executable (cargo leaves older
    // builds in deps/)
    let mut found: Vec<PathBuf> = vec![beside];
    if let Ok(rd) = std::fs::read_dir(&deps) {
        for e in rd.flatten() {
            let n = e.file_name();
            let n = n.to_string_lossy();
            if n == LIB_NAME || n.starts_with("libfriction_fmu-") && n.ends_with(".so") {
                found.push(e.path());
            }
        }
    }
    let newest = found
        .into_iter()
        .filter_map(|p| std::fs::metadata(&p).and_then(|m| m.modified()).ok().map(|t| (t, p)))
        .max_by_key(|(t, _)| *t)
        .map(|(_, p)| p);
    if let Some(p) = newest {
        return Ok(p);
    }
    if lib_dir.is_file() {
        return Ok(lib_dir);
    }
    Err(format!(
        "cannot find the FMU library {LIB_NAME}; searched {}. Build it with `cargo build -p friction-fmu`, \
         or give its path with --lib PATH or the environment variable {LIB_ENV}",
        searched.join(", ")
    ))
}
