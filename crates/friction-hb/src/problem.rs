//! The harmonic balance equations of a [`Structure`]: residual and
//! Jacobian in the Fourier coefficients of every degree of freedom and the
//! angular frequency.
//!
//! ```text
//! unknowns X = [x_0 coefficients, x_1 coefficients, ...], 2H + 1 per body
//! harmonic k of body d:  (K - k²ω² M) a_k + kω C b_k + F_nl,a_k - F_ext,a_k = 0
//!                        (K - k²ω² M) b_k - kω C a_k + F_nl,b_k - F_ext,b_k = 0
//! mean:                  K a_0 + F_nl,0 - f0 = 0
//! F sin(ωt + φ) = F sin φ cos ωt + F cos φ sin ωt
//! ```
//!
//! The contact forces come from `super::aft`; their derivatives by
//! forward differences in each contact's own relative coefficients only
//! (2H + 1 evaluations per contact, whatever the number of bodies).
//!
//! A `coulomb` contact (true stick) is evaluated by the dynamic Lagrangian
//! AFT (`super::dlft`) after the rest of the balance, from the force that
//! balance asks of it; with such a contact the whole Jacobian is taken by
//! forward differences of the residual (n + 1 evaluations), as it is with
//! contacts in a plane (`super::planes`) and with gaps (`super::gaps`: a gap's force and the normal load it gives a
//! contact couple the contact's force to the gap's members).

use friction_models::{Family, FrictionModel};
use nalgebra::DMatrix;

use super::aft::{is_masing, ContactAft, Tangent};
use super::condensed::Receptance;
use super::condensed_nnm::Linear;
use super::dlft::{is_dlft, limits, ContactDlft};
use super::gaps::GapSamples;
use super::harmonics::Grid;
use super::planes::{add_plane, PlaneAft};
use super::structure::Structure;

/// The equations of one structure at H harmonics, with their work arrays.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The structure.
    pub s: Structure,
    /// The sampling grid.
    pub grid: Grid,
    aft: Vec<ContactAft>,
    /// The evaluations of the contacts that rub in a plane (`super::planes`).
    planes: Vec<Option<PlaneAft>>,
    dlft: Vec<Option<ContactDlft>>,
    gaps: GapSamples,
    /// Force samples of a contact under a gap's normal load.
    fs: Vec<f64>,
    /// The dynamic Lagrangian contacts' relative coefficients, multipliers
    /// and forces, axis by axis (`2 × (2H + 1)`).
    dl_rel: Vec<f64>,
    dl_lu: Vec<f64>,
    dl_out: Vec<f64>,
    pub(super) r0: Vec<f64>,
    pub(super) r1: Vec<f64>,
    rel: Vec<f64>,
    fc: Vec<f64>,
    fc2: Vec<f64>,
    xp: Vec<f64>,
    /// Tangents of the contacts whose Jacobian block is analytic (Masing
    /// hysteresis elements), `None` for the others.
    tan: Vec<Option<Tangent>>,
    /// Samples of each Fourier basis function, `basis[i * (2H + 1) + j]`.
    basis: Vec<f64>,
    /// The force perturbation's samples of each basis function, `N × (2H + 1)`
    /// row-major.
    dfs: Vec<f64>,
    /// The Masing recursion's `g` of each basis function.
    gs: Vec<f64>,
    /// The Masing walk over the samples: (sample, previous sample, `r_n`, share kept).
    walk: Vec<(usize, usize, f64, f64)>,
    /// The coefficients of `dfs`'s columns, `(2H + 1) × (2H + 1)`.
    dcoef: DMatrix<f64>,
    /// [`Grid::analysis_matrix`].
    ana: DMatrix<f64>,
    /// A displacement scale for difference steps \[m\].
    pub xscale: f64,
    /// The penalty ε of the dynamic Lagrangian contacts \[N/m\]: by default
    /// 100 times the largest diagonal stiffness of the structure (or its
    /// largest mass times (2π 1 Hz)² if it has no spring), which measured
    /// a smaller truncation error and fewer Newton iterations than ε = k on
    /// the Den Hartog oscillator. It shapes Newton's path and, at finite
    /// H, the truncation error, not the exact solution (`super::dlft`).
    pub epsilon: f64,
    /// The fictitious damping ξ \[1/s\] of the extended periodic motion
    /// concept: the damping is `C - ξ M` (0 but in [`super::nnm`]; a
    /// condensed problem takes it after [`Problem::free_motion`]).
    pub xi: f64,
    /// The condensed linear part ([`Structure::condensed`]).
    pub(super) lin: Option<Linear>,
}

impl Problem {
    /// The equations of `s` with `h` harmonics and `n` samples per period.
    pub fn new(s: Structure, h: usize, n: usize) -> Self {
        let grid = Grid::new(h, n);
        let s_lin = s
            .condensed
            .as_ref()
            .map(|m| Linear::Forced(Box::new(Receptance::new(std::sync::Arc::clone(m), h))));
        let aft = s.contacts.iter().map(|c| ContactAft::new(&c.model, &grid)).collect();
        let l = grid.len();
        let (kmax, mmax) = match &s.condensed {
            Some(m) => m.scales,
            None => {
                let k = s.stuck_stiffness();
                let kmax = (0..s.dofs()).map(|i| k[(i, i)]).fold(0.0f64, f64::max);
                (kmax, (0..s.dofs()).map(|i| s.m[(i, i)]).fold(0.0f64, f64::max))
            }
        };
        let kmax = kmax.max(1e-300);
        let xscale = (s.force_amplitude.abs() / kmax).max(1e-300);
        let xp = vec![0.0; s.dofs() * l];
        let dlft = s
            .contacts
            .iter()
            .map(|c| {
                is_dlft(&c.model).then(|| ContactDlft::new(&grid, if c.plane.is_some() { 2 } else { 1 }))
            })
            .collect();
        let epsilon =
            if kmax > 1e-300 { 100.0 * kmax } else { (mmax * (2.0 * std::f64::consts::PI).powi(2)).max(1.0) };
        let n = xp.len();
        let tan =
            s.contacts.iter().map(|c| is_masing(&c.model).then(|| Tangent::new(&c.model, grid.n))).collect();
        // basis[i * l + j]: sample i of basis function j (row-major, so that
        // the Masing walk steps every column at once)
        let mut basis = vec![0.0; l * grid.n];
        let (mut unit, mut col) = (vec![0.0; l], vec![0.0; grid.n]);
        for j in 0..l {
            unit[j] = 1.0;
            grid.synth(&unit, &mut col);
            unit[j] = 0.0;
            for (i, v) in col.iter().enumerate() {
                basis[i * l + j] = *v;
            }
        }
        // a `coulomb` contact in a plane is the dynamic Lagrangian method's
        let planes = s
            .contacts
            .iter()
            .map(|c| c.plane.as_ref().filter(|_| !is_dlft(&c.model)).map(|p| PlaneAft::new(&p.law, &grid)))
            .collect();
        Problem {
            planes,
            gaps: GapSamples::new(&s.gaps, &grid),
            fs: vec![0.0; grid.n],
            tan,
            basis,
            dfs: vec![0.0; grid.n * l],
            gs: vec![0.0; l],
            dcoef: DMatrix::zeros(l, l),
            walk: vec![(0, 0, 0.0, 0.0); grid.n],
            ana: grid.analysis_matrix(),
            s,
            grid,
            aft,
            dlft,
            dl_rel: vec![0.0; 2 * l],
            dl_lu: vec![0.0; 2 * l],
            dl_out: vec![0.0; 2 * l],
            r0: vec![0.0; n],
            r1: vec![0.0; n],
            rel: vec![0.0; l],
            fc: vec![0.0; l],
            fc2: vec![0.0; l],
            xp,
            xscale,
            epsilon,
            xi: 0.0,
            lin: s_lin,
        }
    }

    /// Number of unknowns (coefficients of all bodies).
    pub fn n(&self) -> usize {
        self.s.dofs() * self.grid.len()
    }

    /// Whether every contact's last evaluation reached its periodic steady state.
    pub fn settled(&self) -> bool {
        self.aft.iter().all(|a| a.settled)
            && self.planes.iter().flatten().all(|a| a.settled)
            && self.dlft.iter().flatten().all(|d| d.settled)
    }

    /// Whether a contact is evaluated by the dynamic Lagrangian AFT.
    pub fn has_dlft(&self) -> bool {
        self.dlft.iter().any(Option::is_some)
    }

    /// The relative coefficients of contact `c` at `x` into `self.rel`.
    fn relative(&mut self, c: usize, x: &[f64]) {
        let l = self.grid.len();
        let ct = &self.s.contacts[c];
        for j in 0..l {
            let a = ct.first.map_or(0.0, |i| x[i * l + j]);
            let b = ct.second.map_or(0.0, |i| x[i * l + j]);
            self.rel[j] = a - b;
        }
    }

    /// Add the forces of the dynamic Lagrangian contacts to `r`, which
    /// holds the rest of the balance: each contact's multiplier is the
    /// force that balance asks of it (the first member's row with its sign
    /// reversed; with two members, half the difference of their rows), in
    /// x alone or, for a contact in a plane, in x and y. Its load is
    /// `|normal|`, or `max(normal, 0) P` sample by sample under a gap's
    /// force `P` (from the gaps' samples of the same `x`).
    fn add_dlft(&mut self, x: &[f64], r: &mut [f64]) {
        let l = self.grid.len();
        for c in 0..self.s.contacts.len() {
            let Some(mut d) = self.dlft[c].take() else { continue };
            let ct = &self.s.contacts[c];
            let mut rows = [(ct.first, ct.second); 2];
            if let Some(p) = &ct.plane {
                rows[1] = (p.first_y, p.second_y);
            }
            let rows = &rows[..d.axes()];
            for (a, (first, second)) in rows.iter().enumerate() {
                let members = first.is_some() as usize + second.is_some() as usize;
                for j in 0..l {
                    let xa = first.map_or(0.0, |i| x[i * l + j]);
                    let xb = second.map_or(0.0, |i| x[i * l + j]);
                    self.dl_rel[a * l + j] = xa - xb;
                    let ra = first.map_or(0.0, |i| -r[i * l + j]);
                    let rb = second.map_or(0.0, |i| r[i * l + j]);
                    self.dl_lu[a * l + j] = (ra + rb) / members.max(1) as f64;
                }
            }
            match ct.normal_gap {
                None => self.fs.fill(ct.normal.abs()),
                Some(g) => {
                    for (f, p) in self.fs.iter_mut().zip(&self.gaps.p[g]) {
                        *f = ct.normal.max(0.0) * p;
                    }
                }
            }
            let k = d.axes() * l;
            let (rel, lu, out) = (&self.dl_rel[..k], &self.dl_lu[..k], &mut self.dl_out[..k]);
            d.eval(&self.grid, rel, lu, limits(&ct.model), &self.fs, self.epsilon, out);
            for (a, (first, second)) in rows.iter().enumerate() {
                for j in 0..l {
                    if let Some(i) = first {
                        r[i * l + j] += self.dl_out[a * l + j];
                    }
                    if let Some(i) = second {
                        r[i * l + j] -= self.dl_out[a * l + j];
                    }
                }
            }
            self.dlft[c] = Some(d);
        }
    }

    /// The contact force coefficients of contact `c` into `self.fc`; under
    /// a gap's normal load, from the gaps' samples of the last
    /// [`GapSamples::eval`] (at the same `x` and `omega`).
    fn contact(&mut self, c: usize, x: &[f64], omega: f64) {
        self.relative(c, x);
        let ct = &self.s.contacts[c];
        self.aft[c].eval(&ct.model, &self.grid, omega, &self.rel, &mut self.fc);
        match ct.normal_gap {
            None => {
                for v in &mut self.fc {
                    *v *= ct.normal;
                }
            }
            Some(g) => {
                let (f, p) = (self.aft[c].force_samples(), &self.gaps.p[g]);
                for n in 0..self.grid.n {
                    self.fs[n] = ct.normal * p[n] * f[n];
                }
                self.grid.analyse(&self.fs, &mut self.fc);
            }
        }
    }

    /// Add every gap's force coefficients to `r` (`+P` in the first
    /// member's row, `-P` in the second's: the balance's left side), from
    /// a fresh [`GapSamples::eval`] at `x` and `omega`.
    fn add_gaps(&mut self, x: &[f64], omega: f64, r: &mut [f64]) {
        let l = self.grid.len();
        self.gaps.eval(&self.s.gaps, &self.grid, x, omega);
        for (g, p) in self.s.gaps.iter().zip(&self.gaps.p) {
            self.grid.analyse(p, &mut self.fc);
            for j in 0..l {
                if let Some(i) = g.first {
                    r[i * l + j] += self.fc[j];
                }
                if let Some(i) = g.second {
                    r[i * l + j] -= self.fc[j];
                }
            }
        }
    }

    /// Each contact's linearisation along the periodic motion of
    /// coefficients `x` at angular frequency `omega`, into `out` (one per
    /// contact, from `Tangent::new` on this problem's grid); a dynamic
    /// Lagrangian contact's entry, and that of a contact in a plane (which
    /// has no such 1-D linearisation), is left as it is.
    pub fn tangents(&mut self, x: &[f64], omega: f64, out: &mut [Tangent]) {
        for (c, tan) in out.iter_mut().enumerate().take(self.s.contacts.len()) {
            if self.dlft[c].is_some() || self.planes[c].is_some() {
                continue;
            }
            self.relative(c, x);
            let model = &self.s.contacts[c].model;
            self.aft[c].tangent(model, &self.grid, omega, &self.rel, &mut self.fc, tan);
        }
    }

    /// Every contact in a plane's linearisation along the motion of
    /// coefficients `x` at angular frequency `omega` into `out` (one per
    /// contact; the others' entries are left as they are).
    pub fn plane_tangents(&mut self, x: &[f64], omega: f64, out: &mut [super::planes::PlaneTangent]) {
        for (c, tan) in out.iter_mut().enumerate().take(self.s.contacts.len()) {
            let (Some(aft), Some(plane)) = (&mut self.planes[c], &self.s.contacts[c].plane) else { continue };
            let ct = &self.s.contacts[c];
            aft.tangent(&ct.model, plane, &self.grid, omega, x, (ct.first, ct.second), tan);
        }
    }

    /// Every gap's linearisation along the motion of coefficients `x` at
    /// angular frequency `omega` into `out` (one per gap).
    pub fn gap_tangents(&mut self, x: &[f64], omega: f64, out: &mut [super::gaps::GapTangent]) {
        self.gaps.tangents(&self.s.gaps, &self.grid, x, omega, out);
    }

    /// Contact `c`'s force samples over the period at unit load, from its
    /// last evaluation (the model's sign, as in the residual).
    pub fn contact_force_samples(&self, c: usize) -> &[f64] {
        self.aft[c].force_samples()
    }

    /// The residual `r` at coefficients `x` and angular frequency `omega`.
    pub fn residual(&mut self, x: &[f64], omega: f64, r: &mut [f64]) {
        let (nd, l, h) = (self.s.dofs(), self.grid.len(), self.grid.h);
        r.fill(0.0);
        if let Some(lin) = &mut self.lin {
            lin.add_residual(x, omega, self.xi, r);
            for d in 0..nd {
                r[d * l] -= self.s.f0[d];
            }
        }
        for d in (0..nd).filter(|_| self.lin.is_none()) {
            for e in 0..nd {
                let (m, k) = (self.s.m[(d, e)], self.s.k[(d, e)]);
                let c = self.s.c[(d, e)] - self.xi * m;
                if m == 0.0 && k == 0.0 && c == 0.0 {
                    continue;
                }
                r[d * l] += k * x[e * l];
                for kk in 1..=h {
                    let w = kk as f64 * omega;
                    let (a, b) = (x[e * l + 2 * kk - 1], x[e * l + 2 * kk]);
                    let dyn_ = k - w * w * m;
                    r[d * l + 2 * kk - 1] += dyn_ * a + w * c * b;
                    r[d * l + 2 * kk] += dyn_ * b - w * c * a;
                }
            }
            r[d * l] -= self.s.f0[d];
        }
        let fd = self.s.force_dof;
        r[fd * l + 1] -= self.s.force_amplitude * self.s.force_phase.sin();
        r[fd * l + 2] -= self.s.force_amplitude * self.s.force_phase.cos();
        if !self.s.gaps.is_empty() {
            self.add_gaps(x, omega, r);
        }
        for c in 0..self.s.contacts.len() {
            if let Some(pl) = &mut self.planes[c] {
                let (ct, work) = (&self.s.contacts[c], (&mut self.fs[..], &mut self.fc[..]));
                add_plane(pl, ct, &self.grid, &self.gaps, x, omega, work, r);
                continue;
            }
            if self.dlft[c].is_some() {
                continue;
            }
            self.contact(c, x, omega);
            let ct = &self.s.contacts[c];
            for j in 0..l {
                if let Some(i) = ct.first {
                    r[i * l + j] += self.fc[j];
                }
                if let Some(i) = ct.second {
                    r[i * l + j] -= self.fc[j];
                }
            }
        }
        self.add_dlft(x, r);
    }

    /// The Jacobian by forward differences of the whole residual (with a
    /// dynamic Lagrangian contact, whose multiplier depends on every body
    /// of its balance and on ω, or with gaps, whose loads couple contacts
    /// to the gaps' members).
    fn jacobian_by_differences(&mut self, x: &[f64], omega: f64, jac: &mut DMatrix<f64>) {
        let n = self.n();
        let (mut xp, mut r0, mut r1) =
            (std::mem::take(&mut self.xp), std::mem::take(&mut self.r0), std::mem::take(&mut self.r1));
        self.residual(x, omega, &mut r0);
        xp.copy_from_slice(x);
        let amp = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let step = 1e-7 * amp.max(self.xscale);
        for j in 0..n {
            xp[j] = x[j] + step;
            self.residual(&xp, omega, &mut r1);
            xp[j] = x[j];
            for q in 0..n {
                jac[(q, j)] = (r1[q] - r0[q]) / step;
            }
        }
        let dw = 1e-7 * omega;
        self.residual(x, omega + dw, &mut r1);
        for q in 0..n {
            jac[(q, n)] = (r1[q] - r0[q]) / dw;
        }
        (self.xp, self.r0, self.r1) = (xp, r0, r1);
    }

    /// The Jacobian `jac` (n × (n + 1)): `∂r/∂x` and, in the last column,
    /// `∂r/∂ω`. Allocates nothing: the perturbed coefficients live in a
    /// work buffer of the problem.
    pub fn jacobian(&mut self, x: &[f64], omega: f64, jac: &mut DMatrix<f64>) {
        if self.has_dlft() || !self.s.gaps.is_empty() || self.planes.iter().any(Option::is_some) {
            return self.jacobian_by_differences(x, omega, jac);
        }
        let (nd, l, h) = (self.s.dofs(), self.grid.len(), self.grid.h);
        let n = self.n();
        jac.fill(0.0);
        if let Some(lin) = &mut self.lin {
            lin.add_jacobian(x, omega, self.xi, jac);
        }
        for d in (0..nd).filter(|_| self.lin.is_none()) {
            for e in 0..nd {
                let (m, k) = (self.s.m[(d, e)], self.s.k[(d, e)]);
                let c = self.s.c[(d, e)] - self.xi * m;
                jac[(d * l, e * l)] += k;
                for kk in 1..=h {
                    let w = kk as f64 * omega;
                    let (ra, rb) = (d * l + 2 * kk - 1, d * l + 2 * kk);
                    let (ca, cb) = (e * l + 2 * kk - 1, e * l + 2 * kk);
                    jac[(ra, ca)] += k - w * w * m;
                    jac[(ra, cb)] += w * c;
                    jac[(rb, cb)] += k - w * w * m;
                    jac[(rb, ca)] -= w * c;
                    // ∂/∂ω
                    let (a, b) = (x[ca], x[cb]);
                    let kf = kk as f64;
                    jac[(ra, n)] += -2.0 * kf * w * m * a + kf * c * b;
                    jac[(rb, n)] += -2.0 * kf * w * m * b - kf * c * a;
                }
            }
        }
        // the work buffer, taken out of `self` while `self.contact` borrows it
        let mut xp = std::mem::take(&mut self.xp);
        xp.copy_from_slice(x);
        for c in 0..self.s.contacts.len() {
            if self.tan[c].is_some() {
                self.masing_block(c, x, omega, jac);
                continue;
            }
            self.contact(c, x, omega);
            self.fc2.copy_from_slice(&self.fc);
            let (first, second) = (self.s.contacts[c].first, self.s.contacts[c].second);
            let amp = self.rel.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let step = 1e-7 * amp.max(self.xscale);
            for j in 0..l {
                // perturb the relative coefficient j through the first member
                // (or the second, with the opposite sign, against the ground)
                let (idx, sgn) = match (first, second) {
                    (Some(i), _) => (i * l + j, 1.0),
                    (None, Some(i)) => (i * l + j, -1.0),
                    (None, None) => continue,
                };
                xp[idx] = x[idx] + sgn * step;
                self.contact(c, &xp, omega);
                xp[idx] = x[idx];
                for q in 0..l {
                    scatter(jac, (first, second), l, (q, j), (self.fc[q] - self.fc2[q]) / step);
                }
            }
            let model = &self.s.contacts[c].model;
            let rate_dependent = model.info().family != Family::Hysteresis || model.info().id == "hess_soom";
            if rate_dependent {
                let dw = 1e-7 * omega;
                self.contact(c, x, omega + dw);
                for q in 0..l {
                    let dfq = (self.fc[q] - self.fc2[q]) / dw;
                    if let Some(i) = first {
                        jac[(i * l + q, n)] += dfq;
                    }
                    if let Some(i) = second {
                        jac[(i * l + q, n)] -= dfq;
                    }
                }
            }
        }
        self.xp = xp;
    }

    /// The Jacobian block of Masing hysteresis contact `c`, from its tangent
    /// along the periodic path rather than 2H + 1 evaluations: a
    /// perturbation `δx` of the relative motion changes the force at sample
    /// `n` by
    ///
    /// ```text
    /// δF_n = k0 (δx_n - δa0) + g_n
    /// g_n  = min(r_n, r_{n-1})/r_{n-1} g_{n-1} + r_n (δx_n - δx_{n-1}),   r_n = kx_n - k0
    /// ```
    ///
    /// `k0` the elements that never slip (anchored at the mean `a0`, where
    /// the evaluation starts them), `r_n` the stiffness of the others stuck
    /// at sample `n` (each element's law steps `F_n = clip(F_{n-1} + k Δx)`:
    /// a stuck element adds `k δΔx` to its perturbation, one that slips loses
    /// it; those that slip at `n` are taken to carry their share of
    /// `g_{n-1}`, exact for one element and after a reversal, where every
    /// element sticks again from the same sample), started where `r = 0`.
    /// The force does not depend on ω (rate-independent). Checked against
    /// the differences in the tests below.
    fn masing_block(&mut self, c: usize, x: &[f64], omega: f64, jac: &mut DMatrix<f64>) {
        let (l, n) = (self.grid.len(), self.grid.n);
        let Some(mut t) = self.tan[c].take() else { return };
        self.relative(c, x);
        let ct = &self.s.contacts[c];
        self.aft[c].tangent(&ct.model, &self.grid, omega, &self.rel, &mut self.fc, &mut t);
        let (first, second, normal) = (ct.first, ct.second, ct.normal);
        // start where kx is least (kx - k0 = 0: every element that slips is slipping)
        let start = (0..n).min_by(|&a, &b| t.kx[a].total_cmp(&t.kx[b])).unwrap_or(0);
        // r_n and the share kept, in the order of the walk (the same for every column)
        for step in 0..n {
            let i = (start + 1 + step) % n;
            let ip = (i + n - 1) % n;
            let (ri, rp) = (t.kx[i] - t.k0, t.kx[ip] - t.k0);
            self.walk[step] = (i, ip, ri, if rp > 0.0 { ri.min(rp) / rp } else { 0.0 });
        }
        // every column at once, in rows of dfs (row-major N × l): the
        // recursion of one column is a chain of dependent multiply-adds,
        // the columns side by side are independent and vectorise
        let (gs, dfs, basis, k0) = (&mut self.gs, &mut self.dfs, &self.basis, t.k0);
        gs.fill(0.0);
        for &(i, ip, ri, kept) in &self.walk {
            let (bi, bp) = (&basis[i * l..(i + 1) * l], &basis[ip * l..(ip + 1) * l]);
            let row = &mut dfs[i * l..(i + 1) * l];
            for ((g, out), (b, p)) in gs.iter_mut().zip(row.iter_mut()).zip(bi.iter().zip(bp)) {
                *g = kept * *g + ri * (b - p);
                *out = k0 * b + *g;
            }
            // the never-slipping part is anchored at the mean
            row[0] -= k0;
        }
        // every column's coefficients in one product (a transform per
        // column was a quarter of the 10-body chain's frequency response)
        // (faer's product: nalgebra's allocates its packing buffers per call)
        let (rows, inner) = self.ana.shape();
        faer::linalg::matmul::matmul(
            faer::MatMut::from_column_major_slice_mut(self.dcoef.as_mut_slice(), rows, l),
            faer::Accum::Replace,
            faer::MatRef::from_column_major_slice(self.ana.as_slice(), rows, inner),
            faer::MatRef::from_row_major_slice(&self.dfs, inner, l),
            1.0,
            super::linalg::PAR,
        );
        for j in 0..l {
            for q in 0..l {
                scatter(jac, (first, second), l, (q, j), normal * self.dcoef[(q, j)]);
            }
        }
        self.tan[c] = Some(t);
    }
}

/// Add `d`, the derivative of a contact's force coefficient `q` by its
/// relative coefficient `j`, to the rows and columns of the contact's
/// members (`+` for the first, `-` for the second; the ground has none).
fn scatter(
    jac: &mut DMatrix<f64>,
    members: (Option<usize>, Option<usize>),
    l: usize,
    (q, j): (usize, usize),
    d: f64,
) {
    for (row, rs) in [(members.0, 1.0), (members.1, -1.0)] {
        let Some(ri) = row else { continue };
        for (col, cs) in [(members.0, 1.0), (members.1, -1.0)] {
            let Some(ci) = col else { continue };
            jac[(ri * l + q, ci * l + j)] += rs * cs * d;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structure::Structure;

    fn structure(model: &str, params: &str) -> Structure {
        let text = format!(
            r#"name = "sdof"
[[body]]
name = "m"
mass = 1.0
[[spring]]
between = ["m", "ground"]
stiffness = 1e4
[[damper]]
between = ["m", "ground"]
coefficient = 1.0
[[contact]]
name = "j"
between = ["m", "ground"]
model = "{model}"
params = {params}
[[force]]
name = "p"
on = "m"
value = {{ type = "sine", amplitude = 1.0, frequency = 10.0 }}
[solver]
t_end = 1.0
"#
        );
        let sys = friction_sim::scenario::parse(&text, "test", std::path::Path::new(".")).unwrap();
        Structure::from_system(&sys, "p").unwrap()
    }

    /// The analytic block of every Masing element equals the forward
    /// differences of its evaluation, on motions that never slip, that slip
    /// in part of the elements and that slip grossly, with harmonics of
    /// every order, to 1e-8 of the largest entry (measured: 1.2e-9 at worst,
    /// the differences' own error); an element that keeps its perturbation
    /// when it slips is off by 0.16 of it.
    #[test]
    fn masing_jacobian_blocks_equal_the_differences() {
        let models = [
            ("jenkins", "{ kt = 1e4, fs = 1.0 }"),
            ("jenkins", "{ kt = 1e4, fs = 1.0, theta = 0.7 }"),
            ("iwan4", "{ fs = 1.0, kt = 1e4, chi = -0.5, beta = 0.1, n = 40 }"),
            ("iwan5", "{ fs = 1.0, kt = 1e4, chi = -0.5, beta = 0.1, n = 40 }"),
            ("maxwell_slip", "{ elements = [[5e3, 0.3], [3e3, 0.5], [2e3, 1.0]] }"),
        ];
        for (model, params) in models {
            for amp in [2e-5, 1.5e-4, 1e-3] {
                let s = structure(model, params);
                let mut p = Problem::new(s, 5, 256);
                let nn = p.n();
                assert!(p.tan[0].is_some(), "{model}");
                let mut x = vec![0.0; nn];
                // a fundamental, a mean offset and some higher harmonics
                x[0] = 0.3 * amp;
                x[1] = amp;
                x[2] = 0.4 * amp;
                x[5] = 0.08 * amp;
                x[8] = -0.05 * amp;
                let (mut a, mut d) = (DMatrix::zeros(nn, nn + 1), DMatrix::zeros(nn, nn + 1));
                p.jacobian(&x, 62.0, &mut a);
                p.jacobian_by_differences(&x, 62.0, &mut d);
                let scale = d.columns(0, nn).abs().max();
                let err = (a.columns(0, nn) - d.columns(0, nn)).abs().max();
                assert!(err <= 1e-8 * scale, "{model} {params} at {amp}: {err:.3e} of {scale:.3e}");
            }
        }
    }
}
