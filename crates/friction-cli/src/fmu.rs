//! `friction fmu [FILE.toml] -o OUT.fmu [--lib PATH]`: export a scenario as
//! an FMI 2.0 Co-Simulation FMU.
//!
//! The FMU is a zip archive of `modelDescription.xml` (from
//! `friction_fmu::description`), `binaries/linux64/friction_fmu.so` (the
//! generic library of the `friction-fmu` crate, the same for every export)
//! and `resources/scenario.toml` (the scenario, with the CSV files of its
//! `table` schedules copied to `resources/tables/`).
//!
//! The library is found, in this order: `--lib PATH`; the environment
//! variable `FRICTION_FMU_LIB`; next to this executable
//! (`libfriction_fmu.so`, which `cargo build` of the workspace or of
//! `friction-fmu` puts there, or `deps/libfriction_fmu.so`, which cargo
//! builds as a dependency of this binary: the newest of these); `../lib/`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use friction_fmu::description::{model_description, MODEL_IDENTIFIER};
use friction_fmu::variables::variables;
use friction_sim::scenario;

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
    scenario::parse(&text, &file, &dir).map_err(|e| e.to_string())?;
    let (packed, tables) = pack_tables(&text, &file, &dir)?;
    // the packed scenario is what the library reads: its variables are the FMU's
    let staged = std::env::temp_dir().join(format!("friction-fmu-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staged);
    std::fs::create_dir_all(staged.join("tables")).map_err(|e| format!("{}: {e}", staged.display()))?;
    for (name, from) in &tables {
        std::fs::copy(from, staged.join(name)).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    let sys = scenario::parse(&packed, &file, &staged).map_err(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&staged);
    let sys = sys?;
    let raw: toml::Table = toml::from_str(&packed).map_err(|e| format!("{file}: {e}"))?;
    let vars = variables(&sys, &raw).map_err(|e| format!("{file}: {e}"))?;
    let description = raw.get("description").and_then(|d| d.as_str());
    let md = model_description(&sys, &packed, &vars, description);
    let lib = find_lib(a.lib.as_deref())?;
    let so = std::fs::read(&lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    if !so.starts_with(b"\x7fELF") || !so.windows(10).any(|w| w == b"fmi2DoStep") {
        return Err(format!(
            "{}: not an FMI 2.0 shared library (no ELF header or no fmi2DoStep)",
            lib.display()
        ));
    }

    // write next to the target, then rename: a failed export leaves no half file
    let tmp = a.out.with_extension("fmu.part");
    let write = || -> Result<(), String> {
        let f = std::fs::File::create(&tmp).map_err(|e| format!("-o {}: {e}", a.out.display()))?;
        let mut z = zip::ZipWriter::new(f);
        let opt =
            zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        let mut add = |name: &str, bytes: &[u8]| -> Result<(), String> {
            z.start_file(name, opt).map_err(|e| format!("{}: {name}: {e}", a.out.display()))?;
            z.write_all(bytes).map_err(|e| format!("{}: {name}: {e}", a.out.display()))
        };
        add("modelDescription.xml", md.as_bytes())?;
        add(&format!("binaries/linux64/{MODEL_IDENTIFIER}.so"), &so)?;
        add("resources/scenario.toml", packed.as_bytes())?;
        for (name, from) in &tables {
            let bytes = std::fs::read(from).map_err(|e| format!("{}: {e}", from.display()))?;
            add(&format!("resources/{name}"), &bytes)?;
        }
        z.finish().map_err(|e| format!("{}: {e}", a.out.display()))?;
        std::fs::rename(&tmp, &a.out).map_err(|e| format!("-o {}: {e}", a.out.display()))
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    let count = |f: fn(&friction_fmu::variables::Kind) -> bool| vars.iter().filter(|v| f(&v.kind)).count();
    use friction_fmu::variables::Kind;
    Ok(format!(
        "wrote {} (FMI 2.0 Co-Simulation, linux64): {} outputs, {} inputs, {} parameters, stop time {} s; library {}",
        a.out.display(),
        count(|k| matches!(k, Kind::Output(_))),
        count(|k| matches!(k, Kind::Input(_))),
        count(|k| matches!(k, Kind::Parameter { .. })),
        sys.solver.t_end,
        lib.display()
    ))
}

/// The scenario text to pack, with every `table` schedule's `file` pointing
/// to a copy under `tables/`; and the copies to make: `(tables/NAME, source)`.
/// Without tables the text is packed as written (comments kept).
fn pack_tables(text: &str, file: &str, dir: &Path) -> Result<(String, Vec<(String, PathBuf)>), String> {
    let mut raw: toml::Table = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let mut tables = Vec::new();
    let slots: [(&str, &str); 3] = [("driver", "motion"), ("force", "value"), ("contact", "normal")];
    for (array, key) in slots {
        let Some(items) = raw.get_mut(array).and_then(|a| a.as_array_mut()) else { continue };
        for item in items.iter_mut() {
            let Some(sched) = item.get_mut(key).and_then(|s| s.as_table_mut()) else { continue };
            if sched.get("type").and_then(|t| t.as_str()) != Some("table") {
                continue;
            }
            let Some(f) = sched.get("file").and_then(|f| f.as_str()) else { continue };
            let src = dir.join(f);
            let base = Path::new(f).file_name().and_then(|n| n.to_str()).unwrap_or("table.csv");
            let name = format!("tables/{}-{base}", tables.len());
            sched.insert("file".into(), toml::Value::String(name.clone()));
            tables.push((name, src));
        }
    }
    if tables.is_empty() {
        return Ok((text.to_string(), tables));
    }
    let packed = toml::to_string(&raw).map_err(|e| format!("{file}: {e}"))?;
    Ok((packed, tables))
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
