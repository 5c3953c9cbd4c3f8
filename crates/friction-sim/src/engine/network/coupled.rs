//! Stuck contacts on the DOFs of a structure with a consistent (not
//! diagonal) mass: the constraint operator `W = G M⁻¹ Gᵀ`.
//!
//! A stuck contact holds its two members' relative velocity at zero. On
//! plain bodies, and on the DOFs of a structure with a diagonal mass, the
//! bodies it holds move as one rigid cluster (`constraints.rs`). With a
//! consistent mass a force on one DOF accelerates every DOF of its
//! structure, so the stuck rows that touch a structure are solved together
//! with Lagrange multipliers λ (Pfeiffer and Glocker 1996, "Multibody
//! Dynamics with Unilateral Contacts", §5.2; the same `W` as the rigid
//! clusters' loops, here with the off-diagonal entries of `M⁻¹`):
//!
//! ```text
//! M a = f - Gᵀ λ,   G a + ä_drv = 0        (a row pushes its first member by -λ)
//! W λ = G M⁻¹ f + ä_drv,   W = G M⁻¹ Gᵀ    (least norm W⁺ b, then split within
//!                                           every row's limits as for loops)
//! a = M⁻¹ (f - Gᵀ λ)
//! ```
//!
//! `W` needs `M⁻¹` only at the DOFs a contact touches: those entries are
//! formed once per structure ([`Block::set_joints`]), so a plan costs no
//! solve with the mass. Each evaluation costs one more solve with the
//! structure's Cholesky factor (the accelerations after λ), each Jacobian
//! product likewise. A DOF held to the ground or a driver takes that
//! acceleration exactly (not `M⁻¹` to rounding), so its velocity stays
//! exactly what the event left. At an event the velocities are projected
//! by the plastic impulse `p = W⁺ (G v + v_drv)`, `v ← v - M⁻¹ Gᵀ p`, the
//! momentum-consistent projection with this mass (`resolve.rs` does the
//! same for rigid clusters by momentum-weighted means).

use nalgebra::{DMatrix, DVector};

use crate::engine::network::constraints::CoupledBlock;
use crate::engine::network::structures::Block;
use crate::engine::network::{Discrete, Engine, Row, Scratch};

impl Block {
    /// Keep the columns of `M⁻¹` at the local coordinates `at` (ascending):
    /// one solve with the mass factor per coordinate, once per structure. A
    /// diagonal mass needs none (its stuck DOFs move as rigid clusters).
    pub(crate) fn set_joints(&mut self, at: Vec<usize>) {
        if self.diag.is_some() || at.is_empty() {
            return;
        }
        let mut cols = DMatrix::zeros(self.n, at.len());
        for (c, &p) in at.iter().enumerate() {
            cols[(p, c)] = 1.0;
            self.solve_mass(cols.column_mut(c).as_mut_slice());
        }
        self.joints = at;
        self.minv_cols = cols;
    }

    /// Whether its mass couples its coordinates (not diagonal).
    pub(crate) fn coupled(&self) -> bool {
        self.diag.is_none()
    }

    /// Column `p` (local) of `M⁻¹`: stored at a joint; solved for at any
    /// other coordinate (no row is made there today: every stuck row is a
    /// contact's, and its members are joints).
    fn minv_column(&self, p: usize) -> std::borrow::Cow<'_, [f64]> {
        match self.joints.binary_search(&p) {
            Ok(c) => std::borrow::Cow::Borrowed(&self.minv_cols.as_slice()[c * self.n..(c + 1) * self.n]),
            Err(_) => {
                let mut col = vec![0.0; self.n];
                col[p] = 1.0;
                self.solve_mass(&mut col);
                std::borrow::Cow::Owned(col)
            }
        }
    }
}

impl Engine<'_> {
    /// The index of the structure block with a consistent mass that holds
    /// body `i`, if any.
    pub(crate) fn coupled_block(&self, i: usize) -> Option<usize> {
        self.blocks.iter().position(|b| b.coupled() && (b.base..b.base + b.n).contains(&i))
    }

    /// `(M⁻¹)_xy` of the network's mass (block-diagonal: plain bodies'
    /// `1/m`, each structure's own inverse).
    pub(crate) fn inv_mass(&self, x: usize, y: usize) -> f64 {
        match self.coupled_block(x) {
            None => {
                if x == y {
                    1.0 / self.sys.bodies[x].mass
                } else {
                    0.0
                }
            }
            Some(k) => {
                let b = &self.blocks[k];
                if !(b.base..b.base + b.n).contains(&y) {
                    return 0.0;
                }
                b.minv_column(x - b.base)[y - b.base]
            }
        }
    }

    /// The forces `λ` of the stuck rows of a coupled block, from the free
    /// accelerations in `s.a` (every body of the block unclustered): the
    /// least-norm solution then the split within the rows' limits, into
    /// `s.lam`.
    pub(crate) fn coupled_forces(&self, d: &Discrete, s: &mut Scratch, blk: &CoupledBlock) {
        let rows = &d.rows[..];
        s.lam0.clear();
        for jj in 0..blk.rows.len() {
            let mut l = 0.0;
            for (kk, &k) in blk.rows.iter().enumerate() {
                l += blk.pinv[(jj, kk)] * self.rel_acc(s, &rows[k]);
            }
            s.lam0.push(l);
        }
        self.split_within_limits(d, s, &blk.rows, &blk.null);
    }

    /// After the rows' forces are applied to `s.f`: the accelerations of a
    /// coupled block's bodies, `M⁻¹ (f - Gᵀ λ)`, the DOFs held to the
    /// ground or a driver exactly at its acceleration.
    pub(crate) fn coupled_accelerations(&self, d: &Discrete, s: &mut Scratch, blk: &CoupledBlock) {
        let nb = self.nb;
        self.reaccelerate(&d.plan.bodies[blk.bodies.clone()], &s.f, &mut s.a[..nb]);
        for (i, k) in held(&d.rows, blk) {
            s.a[i] = k.map_or(0.0, |k| s.drv[k].2);
        }
    }

    /// `a = M⁻¹ f` again for `bodies` (plain ones) and every coupled block
    /// one of them belongs to.
    fn reaccelerate(&self, bodies: &[usize], f: &[f64], a: &mut [f64]) {
        for &i in bodies {
            if self.coupled_block(i).is_none() {
                a[i] = f[i] / self.sys.bodies[i].mass;
            }
        }
        for b in &self.blocks {
            let r = b.base..b.base + b.n;
            if b.coupled() && bodies.iter().any(|i| r.contains(i)) {
                a[r.clone()].copy_from_slice(&f[r.clone()]);
                b.solve_mass(&mut a[r]);
            }
        }
    }

    /// The Jacobian product through a coupled block: `δλ = W⁺ G M⁻¹ δf`
    /// (`G M⁻¹ δf` from the stored columns of `M⁻¹` at the joints: no
    /// solve with the mass), `δf ← δf - Gᵀ δλ`, and `δa = M⁻¹ δf` of the
    /// block's bodies; with `scaled` (the force-form rows of
    /// [`super::scaled_rows`]) only the plain bodies', the structures' rows
    /// being the forces themselves. A held body's is exactly zero (a
    /// driver's acceleration does not depend on the state).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn coupled_jvp(
        &self,
        rows: &[Row],
        bodies: &[usize],
        blk: &CoupledBlock,
        db: &mut Vec<f64>,
        df: &mut [f64],
        da: &mut [f64],
        scaled: bool,
    ) {
        db.clear();
        for &k in &blk.rows {
            let r = &rows[k];
            let at = |i: usize| self.minv_at_joint(i, df);
            db.push(r.ia.map_or(0.0, at) - r.ib.map_or(0.0, at));
        }
        push_rows(rows, blk, |jj| (0..db.len()).map(|kk| blk.pinv[(jj, kk)] * db[kk]).sum(), df);
        if scaled {
            for &i in bodies {
                if self.coupled_block(i).is_none() {
                    da[i] = df[i] / self.sys.bodies[i].mass;
                }
            }
        } else {
            self.reaccelerate(bodies, df, da);
        }
        for (i, _) in held(rows, blk) {
            da[i] = 0.0;
        }
    }

    /// `(M⁻¹ f)_i` for a body `i` that a stuck row holds: `f_i / m_i` for a
    /// plain body, the stored column of `M⁻¹` at a structure's joint
    /// otherwise (a solve only for a DOF no contact names, which the engine
    /// does not make rows at).
    fn minv_at_joint(&self, i: usize, f: &[f64]) -> f64 {
        let Some(k) = self.coupled_block(i) else {
            return f[i] / self.sys.bodies[i].mass;
        };
        let b = &self.blocks[k];
        b.minv_column(i - b.base).iter().zip(&f[b.base..b.base + b.n]).map(|(m, v)| m * v).sum()
    }

    /// The plastic impulse that brings a coupled block's rows to zero
    /// relative velocity, `v ← v - M⁻¹ Gᵀ W⁺ (G v + v_drv)`, on the
    /// velocities `v` (all bodies); returns the kinetic energy it took.
    pub(crate) fn project_coupled(
        &self,
        t: f64,
        rows: &[Row],
        bodies: &[usize],
        blk: &CoupledBlock,
        v: &mut [f64],
    ) -> f64 {
        let drv = |k: usize| self.sys.drivers[k].motion.eval(t).1;
        let b: Vec<f64> = blk
            .rows
            .iter()
            .map(|&k| {
                let r = &rows[k];
                r.ia.map_or(0.0, |i| v[i]) - r.ib.map_or(0.0, |i| v[i]) + r.da.map_or(0.0, drv)
                    - r.db.map_or(0.0, drv)
            })
            .collect();
        let p = &blk.pinv * DVector::from_vec(b);
        let mut imp = vec![0.0; v.len()];
        push_rows(rows, blk, |jj| p[jj], &mut imp);
        let before = self.kinetic_of(bodies, v);
        let mut dv = vec![0.0; v.len()];
        self.reaccelerate(bodies, &imp, &mut dv);
        for i in 0..v.len() {
            v[i] += dv[i];
        }
        for (i, k) in held(rows, blk) {
            v[i] = k.map_or(0.0, drv);
        }
        before - self.kinetic_of(bodies, v)
    }

    /// `½ vᵀ M v` of `bodies` (plain ones) and of every coupled block one of
    /// them belongs to.
    fn kinetic_of(&self, bodies: &[usize], v: &[f64]) -> f64 {
        let mut e = 0.0;
        for &i in bodies {
            if self.coupled_block(i).is_none() {
                e += 0.5 * self.sys.bodies[i].mass * v[i] * v[i];
            }
        }
        for b in &self.blocks {
            let r = b.base..b.base + b.n;
            if b.coupled() && bodies.iter().any(|i| r.contains(i)) {
                e += 0.5 * b.mass.quadratic(&v[r]);
            }
        }
        e
    }
}

/// The rows' forces `λ_j` (of `lam(j)`, j the row's place in the block)
/// added to `f` as the rows push: the first member by `-λ`, the second by
/// `+λ` (`f -= Gᵀ λ`).
fn push_rows(rows: &[Row], blk: &CoupledBlock, lam: impl Fn(usize) -> f64, f: &mut [f64]) {
    for (jj, &j) in blk.rows.iter().enumerate() {
        let l = lam(jj);
        let r = &rows[j];
        if let Some(i) = r.ia {
            f[i] -= l;
        }
        if let Some(i) = r.ib {
            f[i] += l;
        }
    }
}

/// The block's bodies held to the ground (`None`) or to a driver: the
/// rows with one body, and the driver on the other side.
fn held<'a>(rows: &'a [Row], blk: &'a CoupledBlock) -> impl Iterator<Item = (usize, Option<usize>)> + 'a {
    blk.rows.iter().filter_map(|&j| {
        let r = &rows[j];
        match (r.ia, r.ib) {
            (Some(i), None) => Some((i, r.db)),
            (None, Some(i)) => Some((i, r.da)),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::engine::network::Engine;
    use crate::engine::outcome::Mode;
    use crate::scenario;
    use crate::structure::{matrix_market, SymMatrix};

    /// A structure of consistent mass (3 DOFs) with one DOF stuck to the
    /// ground and another stuck to a plain body: the Jacobian product
    /// through `W⁺` equals central differences of the equations, and the
    /// held DOF's acceleration is exactly zero.
    #[test]
    fn jacobian_products_follow_stuck_rows_on_a_consistent_mass() {
        let dir = std::env::temp_dir().join(format!("friction_coupled_jvp_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let m =
            SymMatrix::from_upper(3, vec![(0, 0, 0.4), (0, 1, 0.1), (1, 1, 0.4), (1, 2, 0.1), (2, 2, 0.2)]);
        let k = SymMatrix::from_upper(
            3,
            vec![(0, 0, 200.0), (0, 1, -100.0), (1, 1, 200.0), (1, 2, -100.0), (2, 2, 100.0)],
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
[[spring]]
between = ["p", "ground"]
stiffness = 30.0
[[contact]]
name = "g"
between = ["s:0", "ground"]
model = "coulomb"
params = { fc = 100.0 }
[[contact]]
name = "q"
between = ["s:2", "p"]
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
        let sys = scenario::load(&dir.join("s.toml")).unwrap();
        let e = Engine::new(&sys);
        let mut y = e.initial_state();
        // p is body 0, the structure's DOFs 1..4; s:0 at rest, s:2 moving with p
        let nb = e.nb;
        y[1] = 0.01;
        y[2] = -0.02;
        y[3] = 0.005;
        y[0] = 0.003;
        y[nb + 2] = 0.3;
        y[nb + 3] = -0.2;
        y[nb] = -0.2;
        crate::engine::network::jacobian::tests::check_products(
            "stuck on a consistent mass",
            &e,
            &mut y,
            5,
            false,
        );
        assert_eq!(e.disc.borrow().modes, vec![Mode::Stuck, Mode::Stuck]);
        let mut f0 = vec![0.0; e.n];
        e.rhs(0.0, &y, &mut f0);
        assert_eq!(f0[nb + 1], 0.0, "the held DOF accelerates");
        assert!((f0[nb + 3] - f0[nb]).abs() < 1e-12 * f0[nb].abs().max(1.0), "s:2 and p part");
        std::fs::remove_dir_all(&dir).ok();
    }
}
