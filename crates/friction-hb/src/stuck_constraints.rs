//! The stuck linear mode of a structure with `coulomb` contacts (true
//! stick): a loaded `coulomb` contact has no initial stiffness, it holds its
//! members together, so the stuck mode is the constrained eigenproblem
//!
//! ```text
//! (K_s - ω² M) φ + Bᵀ λ = 0,   B φ = 0
//! x = T q with T a basis of B's null space:  (Tᵀ K_s T - ω² Tᵀ M T) q = 0,  φ = T q
//! contact forces of the mode (per unit of φ):  λ = -(B Bᵀ)⁻¹ B (K_s - ω² M) φ
//! ```
//!
//! with `K_s` the stuck stiffness of the other contacts
//! ([`Structure::stuck_stiffness`]) and one row of `B` per held direction:
//! the relative motion `x_first - x_second` of a `coulomb` contact loaded at
//! rest ([`Structure::rest_loads`] > 0), and its y too in a plane. A contact
//! with no load at rest is open and holds nothing. The forces `λ` tell where
//! the mode starts to slip (`super::nnm::default_amplitudes`). The
//! harmonic balance itself keeps the stick by the dynamic Lagrangian method
//! (`super::dlft`); this only gives its starting point.

use nalgebra::{DMatrix, DVector, SymmetricEigen};

use super::dlft::is_dlft;
use super::structure::Structure;

/// The held directions of a structure's `coulomb` contacts at rest.
#[derive(Debug, Clone)]
pub(super) struct StuckConstraints {
    /// One row per held direction (`r × n`).
    b: DMatrix<f64>,
    /// Per row: the contact it belongs to.
    contact: Vec<usize>,
    /// A basis of B's null space, orthonormal (`n × (n - rank B)`).
    t: DMatrix<f64>,
}

impl StuckConstraints {
    /// The held directions of `s`, `None` when no `coulomb` contact is
    /// loaded at rest.
    pub(super) fn of(s: &Structure) -> Option<Self> {
        let n = s.dofs();
        let loads = s.rest_loads();
        let mut rows: Vec<(usize, Option<usize>, Option<usize>)> = Vec::new();
        for (c, (ct, load)) in s.contacts.iter().zip(&loads).enumerate() {
            if !is_dlft(&ct.model) || *load <= 0.0 {
                continue;
            }
            rows.push((c, ct.first, ct.second));
            if let Some(p) = &ct.plane {
                rows.push((c, p.first_y, p.second_y));
            }
        }
        if rows.is_empty() {
            return None;
        }
        let mut b = DMatrix::zeros(rows.len(), n);
        for (r, &(_, first, second)) in rows.iter().enumerate() {
            if let Some(i) = first {
                b[(r, i)] += 1.0;
            }
            if let Some(j) = second {
                b[(r, j)] -= 1.0;
            }
        }
        // the null space of B: eigenvectors of BᵀB at eigenvalue 0 (its
        // entries are 0 and ±1, so the others are of order 1)
        let e: SymmetricEigen<f64, nalgebra::Dyn> = SymmetricEigen::new(b.transpose() * &b);
        let top = e.eigenvalues.iter().fold(0.0f64, |a, v: &f64| a.max(v.abs()));
        let free: Vec<usize> = (0..n).filter(|&i| e.eigenvalues[i].abs() <= 1e-9 * top).collect();
        let t = DMatrix::from_fn(n, free.len(), |i, j| e.eigenvectors[(i, free[j])]);
        Some(StuckConstraints { b, contact: rows.iter().map(|r| r.0).collect(), t })
    }

    /// The number of free directions (the structure's DOFs less the held ones).
    pub(super) fn free(&self) -> usize {
        self.t.ncols()
    }

    /// The constrained linear modes of `(ks, m)`: angular frequencies
    /// ascending and mass-normalised shapes `T q` as columns.
    pub(super) fn modes(&self, ks: &DMatrix<f64>, m: &DMatrix<f64>) -> (Vec<f64>, DMatrix<f64>) {
        let tt = self.t.transpose();
        let (w, q) = super::nnm::linear_modes(&(&tt * ks * &self.t), &(&tt * m * &self.t));
        (w, &self.t * q)
    }

    /// The force each held contact carries in the stuck mode `shape` at
    /// angular frequency `w0` (per unit of `shape`): `|λ|` of its rows
    /// (`None` for a contact that is not held).
    pub(super) fn forces(
        &self,
        ks: &DMatrix<f64>,
        m: &DMatrix<f64>,
        w0: f64,
        shape: &[f64],
    ) -> Vec<Option<f64>> {
        let phi = DVector::from_column_slice(shape);
        let r = (ks - m * (w0 * w0)) * phi;
        let bbt = &self.b * self.b.transpose();
        let rhs = &self.b * r;
        let lam = bbt.lu().solve(&rhs).unwrap_or_else(|| DVector::zeros(self.b.nrows()));
        let n = self.contact.iter().max().map_or(0, |c| c + 1);
        let mut out = vec![None; n];
        for (row, &c) in self.contact.iter().enumerate() {
            let f: &mut f64 = out[c].get_or_insert(0.0);
            *f = f.hypot(lam[row]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_sim::{Ground, SolverSettings, System};

    /// A body held by a `coulomb` contact behind a spring `kt`: stuck, the
    /// other body oscillates on `k0 + kt` alone, and the contact carries
    /// `kt` times that body's motion.
    #[test]
    fn a_held_slider_is_a_constraint_and_carries_the_spring_s_force() {
        let sys = System::builder("held")
            .body("m", 2.0)
            .body("s", 1e-3)
            .spring("k0", ("m", Ground), 3e4)
            .spring("kt", ("m", "s"), 1e4)
            .contact("dry", ("s", Ground), friction_sim::CoulombParams { fc: 0.5, fs: None })
            .solver(SolverSettings::with_t_end(1.0))
            .build()
            .unwrap();
        let s = Structure::unforced(&sys).unwrap();
        let c = StuckConstraints::of(&s).unwrap();
        assert_eq!(c.free(), 1);
        let ks = s.stuck_stiffness();
        let (w, phi) = c.modes(&ks, &s.m);
        assert!((w[0] / (4e4f64 / 2.0).sqrt() - 1.0).abs() < 1e-12, "{}", w[0]);
        let shape: Vec<f64> = phi.column(0).iter().map(|v| v / phi[(0, 0)]).collect();
        assert!(shape[1].abs() < 1e-12);
        let f = c.forces(&ks, &s.m, w[0], &shape);
        assert!((f[0].unwrap() / 1e4 - 1.0).abs() < 1e-10, "{:?}", f);
    }
}
