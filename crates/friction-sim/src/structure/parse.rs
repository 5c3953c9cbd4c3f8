//! The `[[structure]]` table as a file gives it, and its checks: the matrix
//! files read relative to the scenario, the damping (one of `damping`,
//! `rayleigh`, `modal_damping`), the watched DOFs. The builder
//! ([`crate::SystemBuilder::structure`]) shares [`check_matrices`].

use std::path::Path;

use serde::Deserialize;

use super::{read_matrix, Damping, MatrixError, Reduce, Structure, SymMatrix};
use crate::system::Invalid;

/// `modal_damping`: one ratio for every mode, or one per mode.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum OneOrMany {
    One(f64),
    Many(Vec<f64>),
}

/// `[[structure]]` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStructure {
    pub name: String,
    pub mass: String,
    pub stiffness: String,
    pub damping: Option<String>,
    pub rayleigh: Option<Vec<f64>>,
    pub modal_damping: Option<OneOrMany>,
    #[serde(default)]
    pub watch: Vec<usize>,
    pub reduce: Option<RawReduce>,
}

/// `reduce = { keep, modes, write }` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawReduce {
    pub keep: Vec<usize>,
    pub modes: usize,
    pub write: Option<String>,
}

/// Why a `[[structure]]` is refused: a key of the table, or a matrix file
/// (its own file and line).
#[derive(Debug)]
pub(crate) enum Refused {
    Key(Invalid),
    File(MatrixError),
}

impl From<Invalid> for Refused {
    fn from(e: Invalid) -> Self {
        Refused::Key(e)
    }
}

impl From<MatrixError> for Refused {
    fn from(e: MatrixError) -> Self {
        Refused::File(e)
    }
}

/// Read and check a `[[structure]]`; paths are relative to `dir`.
pub(crate) fn from_raw(raw: &RawStructure, dir: &Path) -> Result<Structure, Refused> {
    let what = format!("structure \"{}\"", raw.name);
    crate::system::check_name(&raw.name).map_err(|m| Invalid::at("name", format!("{what}: `name`: {m}")))?;
    let read = |key: &str, file: &str| read_matrix(&dir.join(file), &format!("{what} `{key}`"));
    let (mass, labels) = read("mass", &raw.mass)?;
    let (stiffness, _) = read("stiffness", &raw.stiffness)?;
    let given = [raw.damping.is_some(), raw.rayleigh.is_some(), raw.modal_damping.is_some()];
    if given.iter().filter(|g| **g).count() > 1 {
        let key = if raw.rayleigh.is_some() { "rayleigh" } else { "modal_damping" };
        return Err(Invalid::at(
            key,
            format!(
                "{what}: give one of `damping` (a matrix file), `rayleigh` and `modal_damping`, not several"
            ),
        )
        .into());
    }
    let damping = if let Some(file) = &raw.damping {
        let path = dir.join(file);
        let (c, _) = read_matrix(&path, &format!("{what} `damping`"))?;
        if c.n() != mass.n() {
            return Err(MatrixError {
                file: path.display().to_string(),
                line: None,
                message: format!(
                    "{what} `damping`: the matrix is {0} x {0}, the mass {1} x {1}",
                    c.n(),
                    mass.n()
                ),
            }
            .into());
        }
        Damping::Matrix(c)
    } else if let Some(r) = &raw.rayleigh {
        match r.as_slice() {
            [alpha, beta] => Damping::Rayleigh { alpha: *alpha, beta: *beta },
            _ => {
                return Err(Invalid::at(
                    "rayleigh",
                    format!("{what}: `rayleigh` = [alpha, beta] needs 2 numbers, found {}", r.len()),
                )
                .into())
            }
        }
    } else {
        match &raw.modal_damping {
            None => Damping::None,
            Some(OneOrMany::One(z)) => Damping::Modal(vec![*z]),
            Some(OneOrMany::Many(z)) => Damping::Modal(z.clone()),
        }
    };
    let file =
        |key: &str| dir.join(if key == "mass" { &raw.mass } else { &raw.stiffness }).display().to_string();
    let reduce = raw.reduce.as_ref().map(|r| Reduce {
        keep: r.keep.clone(),
        modes: r.modes,
        write: r.write.as_ref().map(|w| dir.join(w)),
    });
    let mut s = check_matrices(&raw.name, mass, stiffness, damping, &raw.watch, reduce.as_ref()).map_err(
        |e| match e.key {
            Some(k @ ("mass" | "stiffness")) => {
                Refused::File(MatrixError { file: file(k), line: None, message: e.message })
            }
            _ => Refused::Key(e),
        },
    )?;
    s.labels = labels;
    Ok(s)
}

/// Reduce `s` by Craig-Bampton ([`super::reduce`]): its matrices become the
/// reduced ones, its physical DOFs `keep`, a damping matrix is projected
/// (Rayleigh and modal damping apply to the reduced matrices as they are),
/// its watched DOFs must be kept; the reduced mass and stiffness are
/// written as MatrixMarket files into `write` when given.
fn reduced(mut s: Structure, r: &Reduce) -> Result<Structure, Invalid> {
    let what = format!("structure \"{}\" `reduce`", s.name);
    let red = super::reduce::craig_bampton(&s.mass, &s.stiffness, &r.keep, r.modes)
        .map_err(|m| Invalid::at("reduce", format!("{what}: {m}")))?;
    if let Damping::Matrix(c) = &s.damping {
        s.damping = Damping::Matrix(super::reduce::project(c, &red.t));
    }
    let mut watch = Vec::new();
    for w in &s.watch {
        let p = r.keep.iter().position(|k| k == w).ok_or_else(|| {
            Invalid::at(
                "watch",
                format!("structure \"{}\": `watch` DOF {w} is not among `reduce.keep`", s.name),
            )
        })?;
        watch.push(p);
    }
    s.watch = watch;
    s.mass = red.mass;
    s.stiffness = red.stiffness;
    s.dofs = r.keep.clone();
    if let Some(dir) = &r.write {
        let io = |e: std::io::Error| {
            Invalid::at("reduce", format!("{what}: cannot write into {}: {e}", dir.display()))
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let note = format!(
            "Craig-Bampton reduction of structure \"{}\": rows 1 to {} are the kept DOFs {:?} of the full model, \
             then {} fixed-interface modal coordinates",
            s.name,
            r.keep.len(),
            r.keep,
            r.modes
        );
        std::fs::write(dir.join("mass.mtx"), super::matrix_market::write(&s.mass, &note)).map_err(io)?;
        std::fs::write(dir.join("stiffness.mtx"), super::matrix_market::write(&s.stiffness, &note))
            .map_err(io)?;
    }
    Ok(s)
}

/// Check a structure's matrices (same size; the mass positive definite by
/// a sparse Cholesky factorisation), damping (finite, non-negative) and
/// watched DOFs (within the size).
pub(crate) fn check_matrices(
    name: &str,
    mass: SymMatrix,
    stiffness: SymMatrix,
    damping: Damping,
    watch: &[usize],
    reduce: Option<&Reduce>,
) -> Result<Structure, Invalid> {
    let what = format!("structure \"{name}\"");
    let n = mass.n();
    if stiffness.n() != n {
        return Err(Invalid::at(
            "stiffness",
            format!(
                "{what} `stiffness`: the matrix is {0} x {0}, the mass {n} x {n}; both must be of one size",
                stiffness.n()
            ),
        ));
    }
    mass.check_positive_definite().map_err(|why| {
        Invalid::at(
            "mass",
            format!("{what} `mass`: the {n} x {n} matrix is not positive definite ({why}); a mass matrix must be symmetric positive definite"),
        )
    })?;
    match &damping {
        Damping::Rayleigh { alpha, beta } => {
            for (k, v) in [("alpha", alpha), ("beta", beta)] {
                if !(v.is_finite() && *v >= 0.0) {
                    return Err(Invalid::at(
                        "rayleigh",
                        format!("{what}: `rayleigh` {k} = {v} is out of range; valid range [0, inf)"),
                    ));
                }
            }
        }
        Damping::Modal(z) => {
            if z.is_empty() {
                return Err(Invalid::at(
                    "modal_damping",
                    format!("{what}: `modal_damping` is an empty list"),
                ));
            }
            if let Some((r, v)) = z.iter().enumerate().find(|(_, v)| !(v.is_finite() && **v >= 0.0)) {
                return Err(Invalid::at(
                    "modal_damping",
                    format!(
                        "{what}: `modal_damping` ratio {} = {v} is out of range; valid range [0, inf)",
                        r + 1
                    ),
                ));
            }
        }
        Damping::Matrix(c) if c.n() != n => {
            return Err(Invalid::at(
                "damping",
                format!("{what} `damping`: the matrix is {0} x {0}, the mass {n} x {n}", c.n()),
            ))
        }
        _ => {}
    }
    if let Some(w) = watch.iter().find(|&&w| w >= n) {
        return Err(Invalid::at(
            "watch",
            format!(
                "{what}: `watch` index {w} is past its {n} DOFs; valid range 0 to {}",
                n.saturating_sub(1)
            ),
        ));
    }
    let s = Structure {
        name: name.to_string(),
        mass,
        stiffness,
        damping,
        dofs: (0..n).collect(),
        watch: watch.to_vec(),
        loads: Vec::new(),
        labels: None,
    };
    match reduce {
        Some(r) => reduced(s, r),
        None => Ok(s),
    }
}
