//! Structures from finite-element matrices in the time domain: each
//! coordinate of a `[[structure]]` becomes one of the engine's bodies, and
//! the structure's matrices act on the block of them:
//!
//! ```text
//! M a_S = f_S - K x_S - C v_S          f_S: the forces of the connections on its DOFs
//! ```
//!
//! [`lower`] writes a [`System`] with structures as one whose DOFs are
//! bodies named `NAME:INDEX` (the connections, loads and outputs see plain
//! bodies), and returns each structure's [`Block`]: where its bodies start,
//! the Cholesky factor of its mass matrix (a consistent mass is solved with,
//! never lumped), its stiffness and its damping. A diagonal mass is divided
//! by, so a structure written with a lumped mass runs the arithmetic of the
//! same bodies and springs.
//!
//! The equations stay linear in the body forces, so the Jacobian-vector
//! product is `M⁻¹ (δf_S - K δx - C δv)` and the block's accelerations
//! depend on every force on any of its DOFs (one component of the pattern).
//! A set-valued contact (`coulomb`, `stribeck`, ...) stuck at a DOF is a
//! constraint row: on a diagonal mass its bodies move as a rigid cluster
//! like plain bodies, on a consistent mass the rows are solved with the
//! constraint operator `G M⁻¹ Gᵀ` ([`super::coupled`]). A stop on a DOF is
//! refused ([`Engine::refuse_stops_on_structures`]).

use diffsol::{FaerContext, FaerSparseMat, Matrix, MatrixCommon};
use nalgebra::{DMatrix, DVectorViewMut};

use crate::engine::linalg::band::Band;

use crate::engine::network::Engine;
use crate::error::SimError;
use crate::structure::{Damping, SymMatrix};
use crate::system::force::Force;
use crate::system::{Axis, Body, Kind, Member, System};

/// The damping of a block, as applied to a velocity.
#[derive(Debug, Clone)]
pub(crate) enum BlockDamping {
    None,
    /// A damping matrix (from a file, or `α M + β K` formed once: one
    /// product and one quadratic form per evaluation instead of two each,
    /// 10 % of `bench/structure`'s run of its 1,000-DOF bar).
    Sparse(SymMatrix),
    /// Modal damping, dense.
    Dense(DMatrix<f64>),
}

/// One structure's coordinates among the engine's bodies and its matrices.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    /// Its name (`[[structure]] name`).
    pub name: String,
    /// The body index of its first coordinate.
    pub base: usize,
    /// Its number of coordinates.
    pub n: usize,
    pub mass: SymMatrix,
    /// `Some(m_ii)` when the mass matrix is diagonal (divided by), else
    /// `None` and `band` or `chol` solves with it.
    pub diag: Option<Vec<f64>>,
    /// The band LU of a sparse mass whose reverse Cuthill-McKee ordering
    /// makes it narrow (a bar, a beam, a shell strip): O(n) per solve. On
    /// the 1,000-DOF bar of `bench/structure` a solve took 2n² = 2e6
    /// operations with the dense Cholesky, about 0.5 ms, and it comes in
    /// every evaluation of the equations.
    pub band: Option<Box<Band>>,
    /// The dense Cholesky factor of any other mass (a reduced model's).
    pub chol: Option<nalgebra::Cholesky<f64, nalgebra::Dyn>>,
    pub stiffness: SymMatrix,
    pub damping: BlockDamping,
    /// The coordinates (local, ascending) that a contact or a stop touches,
    /// and the columns of `M⁻¹` there (n × joints): the entries of the
    /// constraint operator `G M⁻¹ Gᵀ`, and `G M⁻¹ δf` of a Jacobian product
    /// without a solve ([`super::coupled`]); empty for a diagonal mass.
    pub joints: Vec<usize>,
    pub minv_cols: DMatrix<f64>,
}

impl Block {
    /// `out += -K x - C v` (the structure's own forces on its coordinates).
    pub(crate) fn add_forces(&self, x: &[f64], v: &[f64], out: &mut [f64]) {
        self.stiffness.add_mul_to(-1.0, x, out);
        self.add_damping(-1.0, v, out);
    }

    /// `out += alpha C v`.
    pub(crate) fn add_damping(&self, alpha: f64, v: &[f64], out: &mut [f64]) {
        match &self.damping {
            BlockDamping::None => {}
            BlockDamping::Sparse(c) => c.add_mul_to(alpha, v, out),
            BlockDamping::Dense(c) => {
                for j in 0..self.n {
                    let vj = alpha * v[j];
                    if vj != 0.0 {
                        for i in 0..self.n {
                            out[i] += c[(i, j)] * vj;
                        }
                    }
                }
            }
        }
    }

    /// The diagonals `K_pp` and `C_pp`, in one pass over the entries.
    pub(crate) fn diagonals(&self) -> (Vec<f64>, Vec<f64>) {
        let diag = |a: &SymMatrix| {
            let mut d = vec![0.0; self.n];
            for &(i, j, v) in a.upper() {
                if i == j {
                    d[i] += v;
                }
            }
            d
        };
        let k = diag(&self.stiffness);
        let c = match &self.damping {
            BlockDamping::None => vec![0.0; self.n],
            BlockDamping::Sparse(c) => diag(c),
            BlockDamping::Dense(c) => (0..self.n).map(|p| c[(p, p)]).collect(),
        };
        (k, c)
    }

    /// Whether it has damping.
    pub(crate) fn damped(&self) -> bool {
        match &self.damping {
            BlockDamping::None => false,
            BlockDamping::Sparse(c) => c.upper().iter().any(|e| e.2 != 0.0),
            _ => true,
        }
    }

    /// `f ← M⁻¹ f` in place (no allocation).
    pub(crate) fn solve_mass(&self, f: &mut [f64]) {
        if let Some(b) = &self.band {
            // a positive definite matrix has no zero pivot (checked in `lower`)
            let _ = b.solve(f, false);
            return;
        }
        match (&self.diag, &self.chol) {
            (Some(d), _) => {
                for (fi, m) in f.iter_mut().zip(d) {
                    *fi /= m;
                }
            }
            (None, Some(ch)) => {
                let n = f.len();
                ch.solve_mut(&mut DVectorViewMut::from_slice(f, n));
            }
            (None, None) => unreachable!("a block without a mass factor is refused in `lower`"),
        }
    }

    /// The fastest undamped angular frequency `√λ_max(M⁻¹ K)` \[rad/s\], by
    /// 30 power iterations from a seeded start (a lower bound, within a few
    /// per cent of it: enough to choose a method).
    pub(crate) fn omega_max(&self) -> f64 {
        let n = self.n;
        // a fixed start with every component (a structure's modes are
        // not orthogonal to it)
        let mut x: Vec<f64> = (0..n).map(|i| 1.0 + ((i * 7919) % 101) as f64 / 101.0).collect();
        let mut y = vec![0.0; n];
        let mut lam = 0.0;
        for _ in 0..30 {
            y.fill(0.0);
            self.stiffness.add_mul_to(1.0, &x, &mut y);
            self.solve_mass(&mut y);
            let norm = y.iter().map(|v| v * v).sum::<f64>().sqrt();
            let xn = x.iter().map(|v| v * v).sum::<f64>().sqrt();
            if norm == 0.0 || !norm.is_finite() {
                return 0.0;
            }
            lam = norm / xn;
            for (a, b) in x.iter_mut().zip(&y) {
                *a = b / norm;
            }
        }
        lam.sqrt()
    }

    /// Kinetic and elastic energy `½ vᵀ M v`, `½ xᵀ K x`.
    pub(crate) fn energy(&self, x: &[f64], v: &[f64]) -> (f64, f64) {
        (0.5 * self.mass.quadratic(v), 0.5 * self.stiffness.quadratic(x))
    }

    /// The damping's power `vᵀ C v` (>= 0).
    pub(crate) fn damping_power(&self, v: &[f64]) -> f64 {
        match &self.damping {
            BlockDamping::None => 0.0,
            BlockDamping::Sparse(c) => c.quadratic(v),
            BlockDamping::Dense(c) => {
                let mut p = 0.0;
                for j in 0..self.n {
                    for i in 0..self.n {
                        p += v[i] * c[(i, j)] * v[j];
                    }
                }
                p
            }
        }
    }
}

/// The system with every structure's coordinates as bodies (`NAME:INDEX`,
/// `NAME:mode.K` for the modal coordinates of a reduced one), the
/// connections and loads on its DOFs moved to those bodies, and without
/// structures; with the blocks of matrices that act on them. Without
/// `[solver] columns`, the columns kept are those of the system with
/// structures ([`System::structure_columns`]): the DOFs something names.
pub(crate) fn lower(sys: &System) -> Result<(System, Vec<Block>), SimError> {
    let mut low = sys.clone();
    low.structures.clear();
    let mut bases = Vec::with_capacity(sys.structures.len());
    let mut blocks = Vec::with_capacity(sys.structures.len());
    for st in &sys.structures {
        let base = low.bodies.len();
        bases.push(base);
        let n = st.n();
        let mut mdiag = vec![0.0; n];
        for &(i, j, v) in st.mass.upper() {
            if i == j {
                mdiag[i] += v;
            }
        }
        for p in 0..n {
            low.bodies.push(Body {
                name: st.coordinate_name(p),
                mass: mdiag[p],
                x0: 0.0,
                v0: 0.0,
                kind: Kind::Translational,
                axis: Axis::Line,
            });
        }
        let is_diag = st.mass.upper().iter().all(|&(i, j, v)| i == j || v == 0.0);
        let band = if is_diag { None } else { band_factor(&st.mass) };
        let (diag, chol) = if is_diag {
            (Some(mdiag), None)
        } else if band.is_some() {
            (None, None)
        } else {
            match nalgebra::Cholesky::new(st.mass.to_dense()) {
                Some(c) => (None, Some(c)),
                None => {
                    return Err(SimError::Input {
                        file: format!("scenario \"{}\"", sys.name),
                        line: None,
                        message: format!(
                        "[[structure]] \"{}\": its mass matrix is not positive definite (no Cholesky factor)",
                        st.name
                    ),
                    })
                }
            }
        };
        let damping = match &st.damping {
            Damping::None => BlockDamping::None,
            Damping::Matrix(c) => BlockDamping::Sparse(c.clone()),
            Damping::Rayleigh { alpha, beta } => {
                BlockDamping::Sparse(SymMatrix::combine(*alpha, &st.mass, *beta, &st.stiffness))
            }
            Damping::Modal(_) => BlockDamping::Dense(st.damping_dense()),
        };
        blocks.push(Block {
            name: st.name.clone(),
            base,
            n,
            mass: st.mass.clone(),
            diag,
            band,
            chol,
            stiffness: st.stiffness.clone(),
            damping,
            joints: Vec::new(),
            minv_cols: DMatrix::zeros(0, 0),
        });
    }
    let map = |m: &mut Member| {
        if let Member::Dof { structure, index } = *m {
            *m = Member::Body(bases[structure] + index);
        }
    };
    for c in &mut low.contacts {
        c.between.iter_mut().for_each(map);
    }
    for sp in &mut low.springs {
        sp.between.iter_mut().for_each(map);
    }
    for dp in &mut low.dampers {
        dp.between.iter_mut().for_each(map);
    }
    for g in &mut low.gaps {
        g.between.iter_mut().for_each(map);
    }
    for sp in &mut low.inclined_springs {
        sp.legs.iter_mut().for_each(|(m, _)| map(m));
    }
    for b in &mut blocks {
        let mut at: Vec<usize> = low
            .contacts
            .iter()
            .flat_map(|c| c.between)
            .filter_map(|m| match m {
                Member::Body(i) if (b.base..b.base + b.n).contains(&i) => Some(i - b.base),
                _ => None,
            })
            .chain(
                low.stops
                    .iter()
                    .map(|s| s.body)
                    .filter(|&i| (b.base..b.base + b.n).contains(&i))
                    .map(|i| i - b.base),
            )
            .collect();
        at.sort_unstable();
        at.dedup();
        b.set_joints(at);
    }
    for (s, st) in sys.structures.iter().enumerate() {
        for f in &st.loads {
            low.forces.push(Force { name: f.name.clone(), on: bases[s] + f.on, value: f.value.clone() });
        }
    }
    if low.solver.columns.is_none() {
        let shown: std::collections::HashSet<String> = sys.all_column_names().into_iter().collect();
        low.solver.columns = Some(low.all_column_names().into_iter().filter(|c| shown.contains(c)).collect());
    }
    Ok((low, blocks))
}

/// The band LU of a mass matrix (its full symmetric pattern), when its
/// ordering makes it narrow ([`Band::new`]) and it is positive definite
/// (every pivot of the factor positive: the LU of a symmetric positive
/// definite matrix needs no interchange, and its pivots are those of
/// the Cholesky factor squared); `None` otherwise (the dense Cholesky then
/// factors it, or says it is not positive definite).
fn band_factor(m: &SymMatrix) -> Option<Box<Band>> {
    let n = m.n();
    let mut idx = Vec::with_capacity(2 * m.upper().len());
    let mut val = Vec::with_capacity(2 * m.upper().len());
    for &(i, j, v) in m.upper() {
        idx.push((i, j));
        val.push(v);
        if i != j {
            idx.push((j, i));
            val.push(v);
        }
    }
    for i in 0..n {
        // the diagonal always in the pattern
        idx.push((i, i));
        val.push(0.0);
    }
    let a = FaerSparseMat::try_from_triplets(n, n, idx, val, FaerContext::default()).ok()?;
    let mut b = Box::new(Band::new(&a)?);
    b.factor(a.inner()[0].val());
    // positive definite: x = M⁻¹ e has xᵀ M x = x_i > 0 for every unit e_i
    // would cost n solves; the pivots' signs are the cheap test
    if !b.pivots_positive() {
        return None;
    }
    Some(b)
}

impl Engine<'_> {
    /// The block whose coordinates include body `i`.
    pub(crate) fn block_of(&self, i: usize) -> Option<&Block> {
        self.blocks.iter().find(|b| (b.base..b.base + b.n).contains(&i))
    }

    /// A stop on a structure's DOF is refused with the reason (its impacts
    /// and rest are not yet written for a consistent mass); stuck contacts
    /// on DOFs run ([`super::coupled`]).
    pub(crate) fn refuse_stops_on_structures(&self) -> Result<(), SimError> {
        for st in &self.sys.stops {
            if let Some(b) = self.block_of(st.body) {
                return Err(SimError::Input {
                    file: format!("scenario \"{}\"", self.sys.name),
                    line: None,
                    message: format!(
                        "a stop on a DOF of structure \"{}\" is not supported by `friction run`",
                        b.name
                    ),
                });
            }
        }
        Ok(())
    }

    /// The fastest undamped angular frequency of any structure (0 without).
    pub(crate) fn structure_omega_max(&self) -> f64 {
        self.blocks.iter().map(Block::omega_max).fold(0.0, f64::max)
    }

    /// Add every block's `-K x - C v` to the body forces `f`.
    pub(crate) fn block_forces(&self, y: &[f64], f: &mut [f64]) {
        let nb = self.nb;
        for b in &self.blocks {
            let r = b.base..b.base + b.n;
            b.add_forces(&y[r.clone()], &y[nb + b.base..nb + b.base + b.n], &mut f[r]);
        }
    }

    /// Every block's accelerations `M⁻¹ f_S` into `a` (the forces on its
    /// coordinates in `f`).
    pub(crate) fn block_accelerations(&self, f: &[f64], a: &mut [f64]) {
        self.block_accelerations_of(f, a, true);
    }

    /// [`Engine::block_accelerations`] of the diagonal blocks, and of the
    /// consistent ones with `coupled`.
    pub(crate) fn block_accelerations_of(&self, f: &[f64], a: &mut [f64], coupled: bool) {
        for b in self.blocks.iter().filter(|b| coupled || !b.coupled()) {
            let r = b.base..b.base + b.n;
            a[r.clone()].copy_from_slice(&f[r.clone()]);
            b.solve_mass(&mut a[r]);
        }
    }
}
