//! Linear structures from finite-element matrices (`[[structure]]`): a
//! mass matrix M, a stiffness matrix K and a damping matrix C read from
//! files, whose degrees of freedom the contacts, springs, dampers and
//! forces of a scenario join as they join bodies:
//!
//! ```text
//! M ẍ + C ẋ + K x = f(t) + Σ (forces of the connections on its DOFs)
//! ```
//!
//! A DOF is named `"NAME:INDEX"` (0-based, the index of the file's matrix
//! after the FE code's boundary conditions) wherever a member is named.
//!
//! ```toml
//! [[structure]]
//! name = "beam"
//! mass = "beam.mas"          # MatrixMarket (.mtx) or CalculiX (.mas/.sti); relative to the scenario
//! stiffness = "beam.sti"
//! rayleigh = [0.0, 1e-5]     # C = alpha M + beta K; or damping = "C.mtx"; or modal_damping = 0.01
//! watch = [12]               # DOFs whose columns are written besides those something names
//! reduce = { keep = [3, 12], modes = 4, write = "reduced" }   # Craig-Bampton, optional
//! ```
//!
//! - `sparse.rs`: the symmetric sparse matrix and the checks of a file's values;
//! - `matrix_market.rs`, `calculix.rs`: the two readers;
//! - `modal.rs`: dense modes and modal damping;
//! - `reduce.rs`: Craig-Bampton reduction, sparse;
//! - `parse.rs`: the `[[structure]]` table into a [`Structure`] (with the
//!   checks the builder shares).
//!
//! `friction frf` and `friction nnm` take structures (harmonic balance, on
//! dense matrices: reduce large models); the time-domain engine integrates
//! them with their mass matrix as it is (the engine's
//! `network/structures.rs`: a consistent mass is solved with, never lumped),
//! and holds a stuck contact at a DOF with the constraint operator
//! `G M⁻¹ Gᵀ` (`network/coupled.rs`); a stop on a DOF is refused.

pub mod calculix;
pub mod matrix_market;
pub mod modal;
pub(crate) mod parse;
pub mod reduce;
pub mod sparse;

use std::path::Path;

use nalgebra::DMatrix;

pub use sparse::{MatrixError, SymMatrix};

use crate::system::force::Force;

/// The damping of a structure.
#[derive(Debug, Clone, PartialEq)]
pub enum Damping {
    /// None (`C = 0`), the default.
    None,
    /// A damping matrix from a file (`damping = "C.mtx"`).
    Matrix(SymMatrix),
    /// Rayleigh's proportional damping (`rayleigh = [alpha, beta]`):
    /// `C = α M + β K` (Rayleigh 1877, "The theory of sound", §97), the
    /// modal damping ratio of mode r being `ζ_r = α / (2 ω_r) + β ω_r / 2`.
    Rayleigh {
        /// α \[1/s\].
        alpha: f64,
        /// β \[s\].
        beta: f64,
    },
    /// Modal damping ratios (`modal_damping = ζ` or `[ζ1, ζ2, ..]`): with
    /// the mass-normalised modes `φ_r` (`φ_rᵀ M φ_r = 1`) of the undamped
    /// structure, `C = Σ_r 2 ζ_r ω_r (M φ_r)(M φ_r)ᵀ`, so that mode r has
    /// the ratio `ζ_r` (Craig and Kurdila 2006, "Fundamentals of structural
    /// dynamics", §10.3). One number damps every mode; a list damps the
    /// first modes in order and leaves the higher ones undamped.
    Modal(Vec<f64>),
}

/// Craig-Bampton reduction settings (`reduce = { keep, modes, write }`).
#[derive(Debug, Clone, PartialEq)]
pub struct Reduce {
    /// The interface DOFs kept as physical DOFs (indices of the full model).
    pub keep: Vec<usize>,
    /// The number of fixed-interface modes kept.
    pub modes: usize,
    /// A directory to write the reduced `mass.mtx`, `stiffness.mtx` into.
    pub write: Option<std::path::PathBuf>,
}

/// A linear structure from matrices.
#[derive(Debug, Clone)]
pub struct Structure {
    /// Name; its DOFs are `NAME:INDEX`.
    pub name: String,
    /// Mass matrix \[kg\], symmetric positive definite.
    pub mass: SymMatrix,
    /// Stiffness matrix \[N/m\], symmetric.
    pub stiffness: SymMatrix,
    /// Damping.
    pub damping: Damping,
    /// The index in the file's matrices of each physical DOF of `mass` and
    /// `stiffness`, in order; after a Craig-Bampton reduction the kept DOFs,
    /// followed by `mass.n() - dofs.len()` modal coordinates that no name
    /// addresses. Without reduction `0, 1, .., n-1`.
    pub dofs: Vec<usize>,
    /// DOFs (positions in the matrices) whose columns are written besides
    /// those something names (`watch`).
    pub watch: Vec<usize>,
    /// External forces on its DOFs (`[[force]] on = "NAME:INDEX"`); `on` is
    /// the position in the matrices.
    pub loads: Vec<Force>,
    /// Labels of the file's DOFs (CalculiX's `.dof`: `NODE.DIRECTION`), when known.
    pub labels: Option<Vec<String>>,
}

impl Structure {
    /// Number of coordinates (rows of the matrices).
    pub fn n(&self) -> usize {
        self.mass.n()
    }

    /// The position in the matrices of the file's DOF `index`, or `None`
    /// when the structure does not expose it (past its size, or left out by
    /// a reduction).
    pub fn position(&self, index: usize) -> Option<usize> {
        if self.dofs.len() == self.n() && self.dofs.get(index) == Some(&index) {
            return Some(index);
        }
        self.dofs.iter().position(|&d| d == index)
    }

    /// The name `NAME:INDEX` of the coordinate at `pos` (`NAME:mode.K` for
    /// the K-th modal coordinate of a reduced structure, 0-based).
    pub fn coordinate_name(&self, pos: usize) -> String {
        match self.dofs.get(pos) {
            Some(i) => format!("{}:{i}", self.name),
            None => format!("{}:mode.{}", self.name, pos - self.dofs.len()),
        }
    }

    /// The damping matrix, dense.
    pub fn damping_dense(&self) -> DMatrix<f64> {
        match &self.damping {
            Damping::None => DMatrix::zeros(self.n(), self.n()),
            Damping::Matrix(c) => c.to_dense(),
            Damping::Rayleigh { alpha, beta } => {
                self.mass.to_dense() * *alpha + self.stiffness.to_dense() * *beta
            }
            Damping::Modal(z) => modal::modal_damping(&self.stiffness.to_dense(), &self.mass.to_dense(), z),
        }
    }
}

/// Read a matrix file by its extension: `.mtx` (and `.mm`) MatrixMarket,
/// `.sti`/`.mas` CalculiX (its `.dof` beside it gives the size). `what`
/// names the matrix in messages. Returns the matrix and the CalculiX DOF
/// labels when there are some.
pub fn read_matrix(path: &Path, what: &str) -> Result<(SymMatrix, Option<Vec<String>>), MatrixError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| MatrixError {
        file: file.clone(),
        line: None,
        message: format!("{what}: cannot read the file: {e}"),
    })?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "sti" | "mas" => {
            let labels = calculix::dof_labels(path)?;
            let m = calculix::parse(&text, &file, labels.as_ref().map(Vec::len))?.into_symmetric(what)?;
            Ok((m, labels))
        }
        _ if text.trim_start().starts_with("%%MatrixMarket") => {
            Ok((matrix_market::parse(&text, &file)?.into_symmetric(what)?, None))
        }
        _ => Err(MatrixError {
            file,
            line: Some(1),
            message: format!(
                "{what}: neither a MatrixMarket file (first line `%%MatrixMarket ...`) nor CalculiX matrix \
                 storage (extension .sti or .mas)"
            ),
        }),
    }
}
