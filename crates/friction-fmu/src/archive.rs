//! The FMU archive of a scenario: a zip of `modelDescription.xml`, the
//! shared library and the scenario with its tables (what `friction fmu`
//! writes; the command line only reads its arguments and calls [`write()`]).
//!
//! Layout:
//! - `modelDescription.xml` ([`crate::description`]);
//! - `binaries/linux64/friction_fmu.so` (FMI 2.0) or
//!   `binaries/x86_64-linux/friction_fmu.so` (FMI 3.0): the generic library
//!   of this crate, the same for every export and both versions;
//! - `resources/scenario.toml`, the scenario, with the CSV files of its
//!   `table` schedules copied to `resources/tables/`.

use std::io::Write;
use std::path::{Path, PathBuf};

use friction_sim::scenario;

use crate::description::{model_description, model_description_v3, MODEL_IDENTIFIER};
use crate::variables::{variables, Kind};

/// The FMI version of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FmiVersion {
    /// FMI 2.0 Co-Simulation.
    V2,
    /// FMI 3.0 Co-Simulation.
    V3,
}

impl FmiVersion {
    /// From the command line's `--fmi 2|3`; an error names the valid values.
    ///
    /// ```
    /// use friction_fmu::archive::FmiVersion;
    /// assert_eq!(FmiVersion::parse("3").unwrap(), FmiVersion::V3);
    /// assert!(FmiVersion::parse("1").unwrap_err().contains("valid: 2, 3"));
    /// ```
    pub fn parse(s: &str) -> Result<FmiVersion, String> {
        match s {
            "2" | "2.0" => Ok(FmiVersion::V2),
            "3" | "3.0" => Ok(FmiVersion::V3),
            _ => Err(format!("--fmi {s}: unknown FMI version; valid: 2, 3")),
        }
    }

    /// `"2.0"` or `"3.0"`.
    pub fn text(self) -> &'static str {
        match self {
            FmiVersion::V2 => "2.0",
            FmiVersion::V3 => "3.0",
        }
    }

    /// The platform folder of the library in the archive.
    pub fn platform(self) -> &'static str {
        match self {
            FmiVersion::V2 => "linux64",
            FmiVersion::V3 => "x86_64-linux",
        }
    }
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Number of output variables.
    pub outputs: usize,
    /// Number of input variables.
    pub inputs: usize,
    /// Number of parameter variables.
    pub parameters: usize,
    /// The stop time of the default experiment \[s\].
    pub stop_time: f64,
}

/// Check that `library` looks like this crate's shared library for
/// `version`: an ELF file exporting `fmi2DoStep` (or `fmi3DoStep`).
///
/// ```
/// use friction_fmu::archive::{check_library, FmiVersion};
/// let e = check_library(b"MZ...", FmiVersion::V3).unwrap_err();
/// assert!(e.contains("not an FMI 3.0 shared library"));
/// ```
pub fn check_library(library: &[u8], version: FmiVersion) -> Result<(), String> {
    let fn_name = match version {
        FmiVersion::V2 => b"fmi2DoStep".as_slice(),
        FmiVersion::V3 => b"fmi3DoStep".as_slice(),
    };
    if !library.starts_with(b"\x7fELF") || !library.windows(fn_name.len()).any(|w| w == fn_name) {
        return Err(format!(
            "not an FMI {} shared library (no ELF header or no {})",
            version.text(),
            String::from_utf8_lossy(fn_name)
        ));
    }
    Ok(())
}

/// Write the FMU of the scenario `text` to `out` (through `out.fmu.part`
/// renamed at the end: a failed export leaves no file). `file` names the
/// scenario in messages, `dir` resolves its table files, `library` is the
/// bytes of this crate's shared library.
pub fn write(
    text: &str,
    file: &str,
    dir: &Path,
    version: FmiVersion,
    library: &[u8],
    out: &Path,
) -> Result<Summary, String> {
    let sys = scenario::parse(text, file, dir).map_err(|e| e.to_string())?;
    if let Some(s) = sys.structures.first() {
        return Err(format!(
            "{file}: [[structure]] \"{}\": an FMU does not yet pack a structure's matrix files; `friction run`, \
             `frf` and `nnm` take it",
            s.name
        ));
    }
    check_library(library, version)?;
    let (packed, tables) = pack_tables(text, file, dir)?;
    // the packed scenario is what the library reads: its variables are the FMU's
    let staged = std::env::temp_dir().join(format!("friction-fmu-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staged);
    std::fs::create_dir_all(staged.join("tables")).map_err(|e| format!("{}: {e}", staged.display()))?;
    for (name, from) in &tables {
        std::fs::copy(from, staged.join(name)).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    let sys = scenario::parse(&packed, file, &staged).map_err(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&staged);
    let sys = sys?;
    let raw: toml::Table = toml::from_str(&packed).map_err(|e| format!("{file}: {e}"))?;
    let vars = variables(&sys, &raw).map_err(|e| format!("{file}: {e}"))?;
    let description = raw.get("description").and_then(|d| d.as_str());
    let md = match version {
        FmiVersion::V2 => model_description(&sys, &packed, &vars, description),
        FmiVersion::V3 => model_description_v3(&sys, &packed, &vars, description),
    };

    let tmp = out.with_extension("fmu.part");
    let zip_all = || -> Result<(), String> {
        let f = std::fs::File::create(&tmp).map_err(|e| format!("-o {}: {e}", out.display()))?;
        let mut z = zip::ZipWriter::new(f);
        let opt =
            zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        let mut add = |name: &str, bytes: &[u8]| -> Result<(), String> {
            z.start_file(name, opt).map_err(|e| format!("{}: {name}: {e}", out.display()))?;
            z.write_all(bytes).map_err(|e| format!("{}: {name}: {e}", out.display()))
        };
        add("modelDescription.xml", md.as_bytes())?;
        add(&format!("binaries/{}/{MODEL_IDENTIFIER}.so", version.platform()), library)?;
        add("resources/scenario.toml", packed.as_bytes())?;
        for (name, from) in &tables {
            let bytes = std::fs::read(from).map_err(|e| format!("{}: {e}", from.display()))?;
            add(&format!("resources/{name}"), &bytes)?;
        }
        z.finish().map_err(|e| format!("{}: {e}", out.display()))?;
        std::fs::rename(&tmp, out).map_err(|e| format!("-o {}: {e}", out.display()))
    };
    if let Err(e) = zip_all() {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    let count = |f: fn(&Kind) -> bool| vars.iter().filter(|v| f(&v.kind)).count();
    Ok(Summary {
        outputs: count(|k| matches!(k, Kind::Output(_))),
        inputs: count(|k| matches!(k, Kind::Input(_))),
        parameters: count(Kind::is_parameter),
        stop_time: sys.solver.t_end,
    })
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
