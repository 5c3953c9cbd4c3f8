//! The Newton matrix of an implicit run with a structure of consistent
//! mass, sparse: the rows of its velocities multiplied by `M`.
//!
//! The equations the integrators see are `v' = M⁻¹ f(x, v, z)` on a
//! structure's DOFs, so their Jacobian `M⁻¹ ∂f/∂y` is dense over the whole
//! structure although `∂f/∂y` (stiffness, damping, the joints' slopes) is
//! as sparse as the mesh. diffsol hands the linear solver `I - hγ J`;
//! multiplied on the left by `P = diag(I, M, I)` (M on the structure's
//! velocity rows) it is
//!
//! ```text
//! P (I - hγ J) = P - hγ P J,      P J = ∂f/∂y on those rows (force form)
//! ```
//!
//! the matrix `M - hγ C - (hγ)² K` (after the positions are eliminated)
//! that implicit structural codes solve (Newmark, HHT; Hughes 2000, "The
//! Finite Element Method", §9.1). So the Jacobian is assembled with those
//! rows in force form ([`Engine::jvp_scaled`], pattern
//! [`Engine::jacobian_pattern_scaled`]: the mesh's, not the block's square),
//! the solver adds `P - I` to the matrix diffsol gives it and multiplies the
//! right-hand side by `P` before the solve
//! ([`crate::engine::linalg::band_lu::MassRows`]): the same Newton step,
//! exactly, with a band or sparse LU instead of a dense one. Where stuck
//! joints hold DOFs ([`super::coupled`]) their rows carry `-Gᵀ δλ`, which
//! depends on every force of the structure: those rows (and the plain
//! bodies held with them) stay dense.
//!
//! Measured on the 1,000-DOF bar of `bench/structure` (consistent mass, 50
//! Jenkins joints, esdirk34, 0.01 s): see `run.sh`'s results file.

use crate::engine::linalg::band_lu::MassRows;
use crate::engine::network::Engine;
use crate::structure::SymMatrix;

/// Per body, what the Jacobian's pattern needs from the structures: the
/// neighbours of each DOF in its structure's stiffness, damping and mass
/// (global body indices), and per component the rows a force in it reaches
/// in force form.
#[derive(Debug, Clone, Default)]
pub(crate) struct ScaledPattern {
    /// Per body: a DOF of a structure of consistent mass.
    pub coupled: Vec<bool>,
    /// Per component (its root body): its plain bodies and its coupled DOFs
    /// that a contact able to stick touches (those a constraint force
    /// reaches).
    spread: Vec<Vec<usize>>,
    stiffness: Vec<Vec<usize>>,
    damping: Vec<Vec<usize>>,
    mass: Vec<Vec<usize>>,
}

/// The neighbours (with itself) of each coordinate in `a`, offset by `base`.
fn neighbours(a: &SymMatrix, base: usize, out: &mut [Vec<usize>]) {
    for p in 0..a.n() {
        out[base + p].push(base + p);
    }
    for &(i, j, _) in a.upper() {
        if i != j {
            out[base + i].push(base + j);
            out[base + j].push(base + i);
        }
    }
}

impl ScaledPattern {
    pub(crate) fn new(e: &Engine<'_>, comp: &[usize]) -> Self {
        use crate::engine::network::structures::BlockDamping;
        let nb = e.nb;
        let mut coupled = vec![false; nb];
        let (mut stiffness, mut damping, mut mass) =
            (vec![Vec::new(); nb], vec![Vec::new(); nb], vec![Vec::new(); nb]);
        for b in &e.blocks {
            if b.coupled() {
                coupled[b.base..b.base + b.n].fill(true);
                neighbours(&b.mass, b.base, &mut mass);
            }
            neighbours(&b.stiffness, b.base, &mut stiffness);
            match &b.damping {
                BlockDamping::None => {}
                BlockDamping::Sparse(c) => neighbours(c, b.base, &mut damping),
                BlockDamping::Dense(_) => {
                    for p in b.base..b.base + b.n {
                        damping[p].extend(b.base..b.base + b.n);
                    }
                }
            }
        }
        for l in stiffness.iter_mut().chain(damping.iter_mut()).chain(mass.iter_mut()) {
            l.sort_unstable();
            l.dedup();
        }
        let mut joint = vec![false; nb];
        for (c, ct) in e.sys.contacts.iter().enumerate() {
            if e.stuckable[c] {
                for m in ct.between {
                    if let crate::system::Member::Body(i) = m {
                        joint[i] = true;
                    }
                }
            }
        }
        let mut spread = vec![Vec::new(); nb];
        for i in 0..nb {
            if !coupled[i] || joint[i] {
                spread[comp[i]].push(i);
            }
        }
        ScaledPattern { coupled, spread, stiffness, damping, mass }
    }

    /// The rows a force in the component of root `root` reaches (besides
    /// the force row of the coupled DOF it acts on).
    pub(crate) fn rows_of(&self, root: usize) -> &[usize] {
        &self.spread[root]
    }

    /// The DOFs joined to body `j` by its structure's stiffness (empty for
    /// a plain body).
    pub(crate) fn stiffness_of(&self, j: usize) -> &[usize] {
        &self.stiffness[j]
    }

    /// The DOFs joined to body `j` by its structure's damping.
    pub(crate) fn damping_of(&self, j: usize) -> &[usize] {
        &self.damping[j]
    }

    /// The DOFs joined to body `j` by its structure's consistent mass.
    pub(crate) fn mass_of(&self, j: usize) -> &[usize] {
        &self.mass[j]
    }

    /// Probing the pattern in force form: a NaN force reaches its own row
    /// (set by [`Engine::force_rows`]) and the rows of its component that a
    /// constraint spreads it to.
    pub(crate) fn spread(&self, df: &[f64], comp: &[usize], acc: &mut [f64]) {
        for i in 0..df.len() {
            if df[i].is_nan() {
                for &k in &self.spread[comp[i]] {
                    acc[k] = f64::NAN;
                }
            }
        }
    }
}

impl Engine<'_> {
    /// Whether some structure has a consistent mass (the runs whose sparse
    /// implicit solves take the force form).
    pub(crate) fn has_coupled_mass(&self) -> bool {
        self.blocks.iter().any(|b| b.coupled())
    }

    /// The velocity rows of every structure of consistent mass in force
    /// form: `acc` there becomes the forces `df` (after the constraint
    /// forces, `M δa`).
    pub(crate) fn force_rows(&self, df: &[f64], acc: &mut [f64]) {
        for b in self.blocks.iter().filter(|b| b.coupled()) {
            acc[b.base..b.base + b.n].copy_from_slice(&df[b.base..b.base + b.n]);
        }
    }

    /// The mass entries the solver of a force-form run needs (state
    /// indices: the velocity rows of the structures of consistent mass).
    pub(crate) fn mass_rows(&self) -> MassRows {
        let nb = self.nb;
        let mut entries = Vec::new();
        for b in self.blocks.iter().filter(|b| b.coupled()) {
            for &(i, j, v) in b.mass.upper() {
                let (r, c) = (nb + b.base + i, nb + b.base + j);
                entries.push((r, c, v));
                if i != j {
                    entries.push((c, r, v));
                }
            }
        }
        MassRows::new(entries)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::network::Engine;
    use crate::scenario;
    use crate::structure::{matrix_market, SymMatrix};

    /// A structure of consistent mass (4 DOFs, Rayleigh damping) with a
    /// Coulomb joint stuck to the ground, a Jenkins joint to a plain body
    /// held by a stuck Coulomb contact, and a free DOF: written to a
    /// scratch folder.
    fn engine_text(dir: &std::path::Path) -> crate::System {
        std::fs::create_dir_all(dir).unwrap();
        let m = SymMatrix::from_upper(
            4,
            vec![(0, 0, 0.4), (0, 1, 0.1), (1, 1, 0.4), (1, 2, 0.1), (2, 2, 0.4), (2, 3, 0.1), (3, 3, 0.2)],
        );
        let k = SymMatrix::from_upper(
            4,
            vec![
                (0, 0, 200.0),
                (0, 1, -100.0),
                (1, 1, 200.0),
                (1, 2, -100.0),
                (2, 2, 200.0),
                (2, 3, -100.0),
                (3, 3, 100.0),
            ],
        );
        std::fs::write(dir.join("M.mtx"), matrix_market::write(&m, "mass")).unwrap();
        std::fs::write(dir.join("K.mtx"), matrix_market::write(&k, "stiffness")).unwrap();
        let text = r#"
[[structure]]
name = "s"
mass = "M.mtx"
stiffness = "K.mtx"
rayleigh = [0.5, 1e-3]
[[body]]
name = "p"
mass = 0.7
[[body]]
name = "q"
mass = 0.3
[[spring]]
between = ["p", "ground"]
stiffness = 30.0
[[contact]]
name = "g"
between = ["s:0", "ground"]
model = "coulomb"
params = { fc = 100.0 }
[[contact]]
name = "j"
between = ["s:3", "p"]
model = "jenkins"
params = { kt = 50.0, fs = 100.0 }
[[contact]]
name = "h"
between = ["p", "q"]
model = "coulomb"
params = { fc = 100.0 }
[[force]]
name = "f"
on = "s:1"
value = 2.0
[solver]
t_end = 1.0
"#;
        std::fs::write(dir.join("s.toml"), text).unwrap();
        scenario::load(&dir.join("s.toml")).unwrap()
    }

    /// In force form the Jacobian product is `M J` on the structure's
    /// velocity rows (`M` times central differences of the equations) and
    /// `J` elsewhere; its pattern equals the arithmetic probe's plus the
    /// mass entries, and is not the structure's full square.
    #[test]
    fn force_form_products_are_the_mass_times_the_jacobian_on_the_structures_rows() {
        let dir = std::env::temp_dir().join(format!("friction_scaled_rows_{}", std::process::id()));
        let sys = engine_text(&dir);
        let e = Engine::new(&sys);
        let nb = e.nb;
        let mut y = e.initial_state();
        // bodies: p, q, then s:0..s:3; s:0 at rest, q moving with p
        y[2] = 0.0;
        y[3] = 0.02;
        y[4] = -0.01;
        y[5] = 0.004;
        y[0] = 0.003;
        y[nb + 3] = 0.3;
        y[nb + 5] = -0.2;
        y[nb] = -0.1;
        y[nb + 1] = -0.1;
        crate::engine::network::jacobian::tests::check_products("force form", &e, &mut y, 11, true);
        let n = e.n;
        let mass = e.mass_rows();
        // the pattern: the probe's entries and the mass's, sparse
        let pattern = e.jacobian_pattern_scaled();
        let mut want = std::collections::BTreeSet::new();
        for j in 0..n {
            let mut v = vec![0.0; n];
            v[j] = f64::NAN;
            let mut b = vec![0.0; n];
            e.jvp_arith(0.0, &y, &v, &mut b, true, true);
            want.extend((0..n).filter(|&r| b[r].is_nan()).map(|r| (r, j)));
        }
        for &(r, c) in &mass.at {
            if r != c {
                want.insert((r, c));
            }
        }
        let got: std::collections::BTreeSet<(usize, usize)> = pattern.iter().copied().collect();
        assert_eq!(got, want);
        // the free DOF s:2's velocity row is not joined to s:0's position (the
        // structure's square would be)
        assert!(!got.contains(&(nb + 4, 2)), "the free DOF's row reaches a DOF two away");
        std::fs::remove_dir_all(&dir).ok();
    }
}
