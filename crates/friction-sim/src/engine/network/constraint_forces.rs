//! The constraint forces of the active rows under a [`Plan`](super::constraints::Plan): each
//! cluster's net force per body, the tree walk from the leaves to the root,
//! the split of bundles and loops within their rows' limits, the forces on
//! the bodies, drivers and contacts, and every clustered body's
//! acceleration (the plan itself is made in `constraints.rs`).

use nalgebra::DMatrix;

use friction_models::FrictionModel;

use crate::engine::network::bundles::{split_bundle, Limit};
use crate::engine::network::constraints::Anchor;
use crate::engine::network::loops::{split_loop, RowRange};
use crate::engine::network::{Discrete, Engine, Row, RowKind, Scratch, StopMode};

impl Engine<'_> {
    /// What row `r` (a stuck contact or a resting stop) can carry, in the
    /// orientation `orient` (+1, or -1 for a member of a bundle the other
    /// way round from its representative).
    fn row_range(&self, d: &Discrete, s: &Scratch, r: &Row, orient: f64) -> RowRange {
        match r.kind {
            RowKind::Contact(c) => {
                let (lo, hi) = self.cmodel(s, c).static_range(&[], &d.mem[c]).unwrap_or((0.0, 0.0));
                let n = s.normal[c];
                if orient > 0.0 {
                    RowRange { lo: lo * n, hi: hi * n, stop: 0.0 }
                } else {
                    RowRange { lo: -hi * n, hi: -lo * n, stop: 0.0 }
                }
            }
            RowKind::Stop(k) => {
                // at the upper limit the stop pushes its body back (λ >= 0)
                let side = if d.stops[k] == StopMode::AtMax { 1.0 } else { -1.0 };
                RowRange { lo: 0.0, hi: 0.0, stop: orient * side }
            }
        }
    }

    /// The forces of a block of redundant rows `blk_rows` within their
    /// limits, from the least-norm forces in `s.lam0` and the null space
    /// `null` of their `W` (`loops::split_loop`), into `s.lam`.
    pub(crate) fn split_within_limits(
        &self,
        d: &Discrete,
        s: &mut Scratch,
        blk_rows: &[usize],
        null: &DMatrix<f64>,
    ) {
        let (rows, plan) = (&d.rows[..], &d.plan);
        s.ranges.clear();
        let mut fref = 0.0;
        for &j in blk_rows {
            let range = match plan.bundles.iter().find(|b| b.rep == j) {
                Some(b) => {
                    let mut sum = RowRange { lo: 0.0, hi: 0.0, stop: 0.0 };
                    for &(k, orient) in plan.members_of(b) {
                        let r = self.row_range(d, s, &rows[k], orient);
                        sum.lo += r.lo;
                        sum.hi += r.hi;
                        if r.stop != 0.0 {
                            sum.stop = r.stop;
                        }
                    }
                    sum
                }
                None => self.row_range(d, s, &rows[j], 1.0),
            };
            fref += range.hi - range.lo;
            s.ranges.push(range);
        }
        fref += s.lam0.iter().map(|l| l.abs()).sum::<f64>();
        s.lsplit.clear();
        s.lsplit.resize(blk_rows.len(), 0.0);
        split_loop(&s.lam0, null, &s.ranges, fref, &mut s.lw, &mut s.lsplit);
        for (&j, &l) in blk_rows.iter().zip(&s.lsplit) {
            s.lam[j] = l;
        }
    }

    /// Constraint forces of the active rows: fills `s.lam`, applies them to
    /// the bodies, drivers and contact forces, and sets every clustered
    /// body's acceleration. `s.f` holds the free forces on entry.
    pub(crate) fn constraint_forces(&self, d: &Discrete, s: &mut Scratch) {
        let (rows, plan) = (&d.rows[..], &d.plan);
        let sys = &*self.sys;
        let nb = self.nb;
        let ns = rows.len();
        s.lam.resize(ns, 0.0);
        crate::engine::linalg::short::copy(&mut s.f_free, &s.f);
        for i in 0..nb {
            s.a[i] = s.f[i] / sys.bodies[i].mass;
        }
        // a structure's coordinates: M⁻¹ f (the free accelerations; rows on
        // a consistent mass correct them below: `coupled.rs`)
        if !self.blocks.is_empty() {
            self.block_accelerations(&s.f, &mut s.a);
        }
        if ns == 0 {
            return;
        }
        // bodies held together move with exactly one acceleration, so their
        // relative velocity stays exactly zero under any integration formula
        for cl in &plan.clusters {
            let a = match cl.anchor {
                Anchor::Ground => 0.0,
                Anchor::Driver(k) => s.drv[k].2,
                Anchor::Free => {
                    let fsum: f64 = plan.bodies_of(cl).iter().map(|&i| s.f_free[i]).sum();
                    let msum: f64 = plan.bodies_of(cl).iter().map(|&i| sys.bodies[i].mass).sum();
                    fsum / msum
                }
            };
            for &i in plan.bodies_of(cl) {
                s.a[i] = a;
                s.need[i] = sys.bodies[i].mass * a - s.f_free[i];
            }
        }
        // trees: each row supplies what its child still needs
        for st in &plan.steps {
            let need = s.need[st.child];
            // the row pushes its first member by -λ and its second by +λ
            let l = if st.child_is_first { -need } else { need };
            s.lam[st.row] = l;
            if let Some(p) = st.parent {
                s.need[p] -= if st.child_is_first { l } else { -l };
            }
        }
        // redundant clusters: the minimum-norm forces from the free
        // accelerations, then the split of least norm within every row's
        // limits (`loops`)
        for blk in &plan.dense {
            s.lam0.clear();
            for (jj, _) in blk.rows.iter().enumerate() {
                let mut l = 0.0;
                for (kk, &k) in blk.rows.iter().enumerate() {
                    let r = &rows[k];
                    let mut b = 0.0;
                    if let Some(i) = r.ia {
                        b += s.f_free[i] / sys.bodies[i].mass;
                    }
                    if let Some(i) = r.ib {
                        b -= s.f_free[i] / sys.bodies[i].mass;
                    }
                    if let Some(d) = r.da {
                        b += s.drv[d].2;
                    }
                    if let Some(d) = r.db {
                        b -= s.drv[d].2;
                    }
                    l += blk.pinv[(jj, kk)] * b;
                }
                s.lam0.push(l);
            }
            self.split_within_limits(d, s, &blk.rows, &blk.null);
        }
        // rows on structures of consistent mass (`coupled.rs`)
        for blk in &plan.coupled {
            self.coupled_forces(d, s, blk);
        }
        // bundles: the representative's force is the bundle's total
        s.bundle_load.clear();
        for b in &plan.bundles {
            let total = s.lam[b.rep];
            s.lim.clear();
            for &(j, orient) in plan.members_of(b) {
                s.lim.push(match rows[j].kind {
                    RowKind::Contact(c) => {
                        let (lo, hi) = match s.tmodel.get(c) {
                            Some(Some(m)) => m,
                            _ => &sys.contacts[c].model,
                        }
                        .static_range(&[], &d.mem[c])
                        .unwrap_or((0.0, 0.0));
                        let n = s.normal[c];
                        // a member the other way round sees the range mirrored
                        if orient > 0.0 {
                            Limit::Contact(lo * n, hi * n)
                        } else {
                            Limit::Contact(-hi * n, -lo * n)
                        }
                    }
                    RowKind::Stop(k) => {
                        // at the upper limit the stop pushes its body back (λ >= 0)
                        let side = if d.stops[k] == StopMode::AtMax { 1.0 } else { -1.0 };
                        Limit::Stop(orient * side)
                    }
                });
            }
            s.split.clear();
            s.split.resize(s.lim.len(), 0.0);
            let load = split_bundle(total, &s.lim, &mut s.split);
            s.bundle_load.push(load);
            for (&(j, orient), &l) in plan.members_of(b).iter().zip(&s.split) {
                s.lam[j] = orient * l;
            }
        }
        for (j, r) in rows.iter().enumerate() {
            let l = s.lam[j];
            if let Some(i) = r.ia {
                s.f[i] -= l;
            }
            if let Some(i) = r.ib {
                s.f[i] += l;
            }
            if let Some(k) = r.da {
                s.fd[k] -= l;
            }
            if let Some(k) = r.db {
                s.fd[k] += l;
            }
            if let RowKind::Contact(c) = r.kind {
                s.fc[c] = l;
            }
        }
        for blk in &plan.coupled {
            self.coupled_accelerations(d, s, blk);
        }
    }
}
