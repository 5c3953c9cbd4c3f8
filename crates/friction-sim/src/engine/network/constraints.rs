//! Clusters of bodies held together by active constraints (stuck contacts,
//! resting stops) and the plan of the constraint forces that hold them
//! (computed under the plan in `constraint_forces.rs`).
//!
//! Bodies linked by active rows move as one: a cluster held to the ground
//! or a driver takes its acceleration, a free cluster the mean acceleration
//! `Σ f / Σ m`. Every body then needs a known net constraint force
//! `m_i a - f_i`, and the row forces follow from statics:
//! - a cluster whose rows form a tree (the usual case: a chain, a clutch
//!   pack, a body stuck to the ground) is solved by one walk from the leaves
//!   to the root, O(rows) per evaluation and exact;
//! - rows joining the same two members (two contacts holding one body to
//!   the ground, a contact and a resting stop on one body, the plates of a
//!   clutch pack between two shafts) are a *bundle*: statically
//!   indeterminate, they carry one total force, found like a single row,
//!   which is then split among them within their limits (`bundles::split_bundle`:
//!   the stops take what they can push, the contacts share the rest by the
//!   minimum-norm forces within their capacities N Fs);
//! - a cluster whose bundles still form a loop (a body held by the ground
//!   and a driver, a ring of stuck contacts) is statically indeterminate
//!   otherwise: its forces are the split of least norm within every row's
//!   limits (`loops::split_loop`), from the minimum-norm solution
//!   `λ0 = W⁺ b`, `W = E^T M^-1 E`, and the null space of its own block,
//!   both formed once per event.

use nalgebra::DMatrix;

use crate::engine::network::grouping::{bucket, find};
use crate::engine::network::{Engine, Row};

/// What a cluster is held to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Anchor {
    Free,
    Ground,
    Driver(usize),
}

/// Bodies moving as one: `Plan::bodies[bodies]` ([`Plan::bodies_of`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cluster {
    pub bodies: std::ops::Range<usize>,
    pub anchor: Anchor,
}

/// One edge of a tree cluster, processed leaf to root: row `row` carries
/// whatever body `child` still needs; `parent` (a body, or the anchor when
/// `None`) takes the reaction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TreeStep {
    pub row: usize,
    pub child: usize,
    pub parent: Option<usize>,
    pub child_is_first: bool,
}

/// A cluster with redundant rows: its rows, the pseudo-inverse of its
/// block of `W` and an orthonormal basis of that block's null space (the
/// loops: the force patterns that balance every body by themselves).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DenseBlock {
    pub rows: Vec<usize>,
    pub pinv: DMatrix<f64>,
    pub null: DMatrix<f64>,
}

/// The stuck rows touching a structure with a consistent mass (and every
/// row linked to them), solved together by Lagrange multipliers
/// ([`crate::engine::network::coupled`]): the rows (bundles' representatives),
/// the pseudo-inverse of their `W = G M⁻¹ Gᵀ`, its null space, and the
/// bodies they hold (`Plan::bodies[bodies]`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CoupledBlock {
    pub rows: Vec<usize>,
    pub pinv: DMatrix<f64>,
    pub null: DMatrix<f64>,
    pub bodies: std::ops::Range<usize>,
}

/// Rows that join the same two members (at least two): `rep` carries the
/// bundle's total force in the cluster's statics; `Plan::bundle_rows[rows]`
/// are its members with their orientation relative to `rep` (+1 or -1).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bundle {
    pub rep: usize,
    pub rows: std::ops::Range<usize>,
}

/// How to find the forces of the active rows.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Plan {
    pub clusters: Vec<Cluster>,
    /// The clusters' bodies, cluster after cluster, ascending within each
    /// (one vector for all: a plan, and every copy of the discrete state
    /// holding it, allocated one per cluster before, 256 for a chain of
    /// 256 masses stuck one by one)
    pub bodies: Vec<usize>,
    pub steps: Vec<TreeStep>,
    pub dense: Vec<DenseBlock>,
    /// rows on structures of consistent mass ([`CoupledBlock`])
    pub coupled: Vec<CoupledBlock>,
    /// parallel rows, split after the statics ([`split_bundle`])
    pub bundles: Vec<Bundle>,
    /// the bundles' members (row, orientation), bundle after bundle
    pub bundle_rows: Vec<(usize, f64)>,
}

// Cloned field by field so that `clone_from` reuses the vectors (see
// `Discrete`'s `Clone`).
impl Clone for Plan {
    fn clone(&self) -> Self {
        let mut c = Plan::default();
        c.clone_from(self);
        c
    }

    fn clone_from(&mut self, o: &Self) {
        // destructured: a field added to `Plan` must be added here
        let Plan { clusters, bodies, steps, dense, coupled, bundles, bundle_rows } = o;
        self.clusters.clone_from(clusters);
        self.bodies.clone_from(bodies);
        self.steps.clone_from(steps);
        self.dense.clone_from(dense);
        self.coupled.clone_from(coupled);
        self.bundles.clone_from(bundles);
        self.bundle_rows.clone_from(bundle_rows);
    }
}

impl Plan {
    /// The bodies of cluster `cl` of this plan.
    pub(crate) fn bodies_of(&self, cl: &Cluster) -> &[usize] {
        &self.bodies[cl.bodies.clone()]
    }

    /// The members of bundle `b` (row, orientation relative to its `rep`).
    pub(crate) fn members_of(&self, b: &Bundle) -> &[(usize, f64)] {
        &self.bundle_rows[b.rows.clone()]
    }
}

/// Buffers of [`Engine::tree_steps`], shared by the clusters of one plan.
#[derive(Debug, Default)]
pub(crate) struct TreeWalk {
    pairs: Vec<(usize, usize)>,
    seen: Vec<bool>,
    queue: std::collections::VecDeque<usize>,
}

/// The work space of [`Engine::plan_into`], kept by the engine across
/// events: a plan is made at every change of modes, and its dozen vectors
/// were a quarter of the allocations of a stick/slip event.
#[derive(Debug, Default)]
pub(crate) struct PlanWork {
    parent: Vec<usize>,
    ends: Vec<(usize, usize)>,
    comp_of_root: Vec<usize>,
    body_comp: Vec<usize>,
    bstart: Vec<usize>,
    row_comp: Vec<usize>,
    start: Vec<usize>,
    comp_rows: Vec<usize>,
    anchors: Vec<usize>,
    /// a component's rows keyed by the members they join, and the first
    /// row of each such group (the representatives of bundles)
    keyed: Vec<(usize, usize, usize)>,
    reps: Vec<usize>,
    walk: TreeWalk,
    /// a plan for the caller's temporary use ([`Engine::project`])
    pub(crate) spare: Plan,
}

impl Engine<'_> {
    /// Node of a row's member side: a body, the ground (`nb`) or a driver (`nb + 1 + k`).
    fn node(&self, body: Option<usize>, driver: Option<usize>) -> usize {
        match (body, driver) {
            (Some(i), _) => i,
            (None, Some(k)) => self.nb + 1 + k,
            (None, None) => self.nb,
        }
    }

    /// Group the bodies linked by `rows`, find what each group is held to,
    /// and prepare the force solution of each group, into `plan` (its
    /// vectors reused) with the engine's work space: nothing allocated once
    /// the buffers have grown (but the rare blocks of redundant rows).
    pub(crate) fn plan_into(&self, rows: &[Row], plan: &mut Plan) {
        let mut guard = self.plan_work.borrow_mut();
        let PlanWork {
            parent,
            ends,
            comp_of_root,
            body_comp,
            bstart,
            row_comp,
            start,
            comp_rows,
            anchors,
            keyed,
            reps,
            walk,
            ..
        } = &mut *guard;
        let nb = self.nb;
        let nn = nb + 1 + self.sys.drivers.len();
        parent.clear();
        parent.extend(0..nn);
        ends.clear();
        ends.extend(rows.iter().map(|r| (self.node(r.ia, r.da), self.node(r.ib, r.db))));
        // bodies are grouped through body-body rows only: the ground or a
        // driver holding two groups does not make them one
        for &(a, b) in ends.iter() {
            if a < nb && b < nb {
                let (ra, rb) = (find(parent, a), find(parent, b));
                if ra != rb {
                    parent[ra] = rb;
                }
            }
        }
        // a structure of consistent mass couples every row on its DOFs
        // (`coupled.rs`): they are one group with its first coordinate
        if !self.blocks.is_empty() {
            for &(a, b) in ends.iter() {
                for i in [a, b] {
                    if let Some(k) = (i < nb).then(|| self.coupled_block(i)).flatten() {
                        let (ri, rb) = (find(parent, i), find(parent, self.blocks[k].base));
                        if ri != rb {
                            parent[ri] = rb;
                        }
                    }
                }
            }
        }
        // components that hold a body, in order of their lowest body; their
        // bodies, ascending, in one block (`bstart[c]..bstart[c + 1]` of
        // `plan.bodies`)
        comp_of_root.clear();
        comp_of_root.resize(nn, usize::MAX);
        body_comp.clear();
        body_comp.resize(nb, usize::MAX);
        for r in rows {
            for i in [r.ia, r.ib].into_iter().flatten() {
                body_comp[i] = 0;
            }
        }
        let mut ncomp = 0;
        for i in 0..nb {
            if body_comp[i] != usize::MAX {
                let root = find(parent, i);
                if comp_of_root[root] == usize::MAX {
                    comp_of_root[root] = ncomp;
                    ncomp += 1;
                }
                body_comp[i] = comp_of_root[root];
            }
        }
        plan.clusters.clear();
        plan.steps.clear();
        plan.dense.clear();
        plan.coupled.clear();
        plan.bundles.clear();
        plan.bundle_rows.clear();
        bucket(body_comp, ncomp, bstart, &mut plan.bodies);
        // each component's rows, ascending, in one block (`start[c]..start[c
        // + 1]`): a vector per component was half of the allocations of a
        // plan of many one-body clusters
        row_comp.clear();
        for &(a, b) in ends.iter() {
            row_comp.push(comp_of_root[find(parent, if a < nb { a } else { b })]);
        }
        bucket(row_comp, ncomp, start, comp_rows);
        walk.seen.clear();
        walk.seen.resize(nn, false);
        for c in 0..ncomp {
            let crow = &comp_rows[start[c]..start[c + 1]];
            let bodies = &plan.bodies[bstart[c]..bstart[c + 1]];
            // anchor: the first row (in row order) that holds a body to something else
            let mut anchor = Anchor::Free;
            anchors.clear();
            for &j in crow {
                let r = &rows[j];
                for (b, d, other_b) in [(r.ia, r.da, r.ib), (r.ib, r.db, r.ia)] {
                    if b.is_none() && other_b.is_some() {
                        let nd = self.node(None, d);
                        if !anchors.contains(&nd) {
                            anchors.push(nd);
                        }
                        if anchor == Anchor::Free {
                            anchor = match d {
                                Some(k) => Anchor::Driver(k),
                                None => Anchor::Ground,
                            };
                        }
                    }
                }
            }
            // parallel rows (joining the same two nodes) carry one total
            // force in the statics: the first of them stands for all
            keyed.clear();
            keyed.extend(crow.iter().map(|&j| {
                let (a, b) = ends[j];
                (a.min(b), a.max(b), j)
            }));
            keyed.sort_unstable();
            reps.clear();
            let mut k = 0;
            while k < keyed.len() {
                let (a, b, rep) = keyed[k];
                let mut e = k + 1;
                while e < keyed.len() && keyed[e].0 == a && keyed[e].1 == b {
                    e += 1;
                }
                reps.push(rep);
                if e - k > 1 {
                    let first = plan.bundle_rows.len();
                    for &(_, _, j) in &keyed[k..e] {
                        let orient = if ends[j] == ends[rep] { 1.0 } else { -1.0 };
                        plan.bundle_rows.push((j, orient));
                    }
                    plan.bundles.push(Bundle { rep, rows: first..plan.bundle_rows.len() });
                }
                k = e;
            }
            // rows ascending, as before the bundles (the same plan, bit for
            // bit, where there are none)
            reps.sort_unstable();
            // the ground and every driver are kinematically fixed: as far as
            // the statics go they are one node, so a cluster held by two of
            // them (a body stuck to the ground and to a driver) closes a loop
            // through them (counted as two nodes, the walk took the second
            // anchor for a body: issue 50's panic)
            let nodes = bodies.len() + anchors.len().min(1);
            if !self.blocks.is_empty() && bodies.iter().any(|&i| self.coupled_block(i).is_some()) {
                let (pinv, null) = self.pinv_and_loops(rows, reps);
                plan.coupled.push(CoupledBlock {
                    pinv,
                    null,
                    rows: reps.to_vec(),
                    bodies: bstart[c]..bstart[c + 1],
                });
                continue;
            }
            if reps.len() + 1 == nodes {
                let root = anchors.first().copied();
                self.tree_steps(rows, ends, bodies, reps, root, &mut plan.steps, walk);
            } else {
                let (pinv, null) = self.pinv_and_loops(rows, reps);
                plan.dense.push(DenseBlock { pinv, null, rows: reps.to_vec() });
            }
            plan.clusters.push(Cluster { bodies: bstart[c]..bstart[c + 1], anchor });
        }
    }

    /// Leaf-to-root steps of a tree cluster rooted at `root` (the anchor
    /// node) or, for a free cluster, at its first body: a breadth-first walk
    /// through the cluster's rows, each node's rows in row order. The
    /// buffers in `walk` serve every cluster of a plan: a chain of 256
    /// masses stuck to the ground one by one is 256 clusters, and a hash map,
    /// a hash set and a queue allocated for each of them were 15 % of that
    /// chain's run (perf; `plan` runs at every change of modes).
    #[allow(clippy::too_many_arguments)]
    fn tree_steps(
        &self,
        rows: &[Row],
        ends: &[(usize, usize)],
        bodies: &[usize],
        crow: &[usize],
        root: Option<usize>,
        steps: &mut Vec<TreeStep>,
        walk: &mut TreeWalk,
    ) {
        let nb = self.nb;
        let root = root.unwrap_or(bodies[0]);
        // the cluster's (node, row) incidences, sorted: a node's rows are
        // the run of its pairs, in row order (`crow` is ascending)
        let pairs = &mut walk.pairs;
        pairs.clear();
        for &j in crow {
            pairs.push((ends[j].0, j));
            pairs.push((ends[j].1, j));
        }
        pairs.sort_unstable();
        let seen = &mut walk.seen;
        seen[root] = true;
        let first = steps.len();
        let queue = &mut walk.queue;
        queue.clear();
        queue.push_back(root);
        while let Some(nd) = queue.pop_front() {
            let from = pairs.partition_point(|&(n, _)| n < nd);
            for &(n, j) in &pairs[from..] {
                if n != nd {
                    break;
                }
                let (a, b) = ends[j];
                let other = if a == nd { b } else { a };
                if !seen[other] {
                    seen[other] = true;
                    // in a tree cluster every node but the root is a body
                    debug_assert!(other < nb);
                    steps.push(TreeStep {
                        row: j,
                        child: other,
                        parent: (nd < nb).then_some(nd),
                        child_is_first: rows[j].ia == Some(other),
                    });
                    queue.push_back(other);
                }
            }
        }
        // an anchor (the ground, a driver) may root other clusters too; the
        // bodies belong to this one only
        seen[root] = false;
        steps[first..].reverse();
    }

    /// Pseudo-inverse of the block of `W = E^T M^-1 E` over rows `crow`, and
    /// an orthonormal basis of its null space (the eigenvectors of the
    /// symmetric block whose eigenvalues vanish to rounding).
    fn pinv_and_loops(&self, rows: &[Row], crow: &[usize]) -> (DMatrix<f64>, DMatrix<f64>) {
        let ns = crow.len();
        let a = self.w_block(rows, crow, Vec::new());
        let scale = a.amax().max(f64::MIN_POSITIVE);
        let eig = a.clone().symmetric_eigen();
        let loops: Vec<usize> = (0..ns).filter(|&i| eig.eigenvalues[i].abs() <= 1e-10 * scale).collect();
        let null = DMatrix::from_fn(ns, loops.len(), |r, c| eig.eigenvectors[(r, loops[c])]);
        let pinv = a.pseudo_inverse(1e-12 * scale).unwrap_or_else(|_| DMatrix::zeros(ns, ns));
        (pinv, null)
    }

    /// The block of `W = E^T M^-1 E` over rows `sel` (indices into `rows`):
    /// how the relative acceleration of one row answers a unit force in another.
    /// Built in the storage `store` (its allocation reused).
    pub(crate) fn w_block(&self, rows: &[Row], sel: &[usize], mut store: Vec<f64>) -> DMatrix<f64> {
        let ns = sel.len();
        let plain = self.blocks.is_empty();
        store.clear();
        store.resize(ns * ns, 0.0);
        let mut a = DMatrix::from_vec(ns, ns, store);
        for (j, &rj) in sel.iter().enumerate() {
            let rj = &rows[rj];
            for (l, &rl) in sel.iter().enumerate() {
                let rl = &rows[rl];
                let mut s = 0.0;
                for (bj, sj) in [(rj.ia, 1.0), (rj.ib, -1.0)] {
                    for (bl, sl) in [(rl.ia, 1.0), (rl.ib, -1.0)] {
                        if let (Some(x), Some(y)) = (bj, bl) {
                            if x == y && plain {
                                s += sj * sl / self.sys.bodies[x].mass;
                            } else if !plain {
                                // `M⁻¹` of a structure's mass couples DOFs
                                s += sj * sl * self.inv_mass(x, y);
                            }
                        }
                    }
                }
                a[(j, l)] = s;
            }
        }
        a
    }
}
