//! Stability of a periodic solution by its Floquet multipliers: the
//! monodromy matrix of the structure linearised about the periodic motion,
//! in the time domain (Nayfeh and Balachandran 1995, "Applied Nonlinear
//! Dynamics", ch. 7; compared with Hill's method in Peletan, Baguet,
//! Torkhani and Jacquet-Richardet 2013, "A comparison of stability
//! computational methods for periodic solution of nonlinear problems with
//! application to rotordynamics", Nonlinear Dyn. 72).
//!
//! ```text
//! M δẍ + (C + Σ_c N_c kv_c(t) b_c b_cᵀ) δẋ + (K + Σ_c N_c kx_c(t) b_c b_cᵀ) δx + Σ_c N_c b_c fz_c(t)·δz_c = 0
//! δż_c = gz_c(t) δz_c + gx_c(t) b_cᵀ δx + gv_c(t) b_cᵀ δẋ        (continuous-state contacts)
//! hysteresis contacts: k0_c b_cᵀ δx + (kx_c - k0_c) (b_cᵀ δx - δa_c) in place of kx_c b_cᵀ δx,
//!   δȧ_c = 0, δa_c := b_cᵀ δx where the motion reverses (Masing: every element that slipped
//!   sticks again there; k0_c, the least kx_c over the period, never slips; see [`Tangent`])
//! ẏ = A(t) y,   y = [δx, δẋ, δz]
//! Φ_{n+1} = (I - h/2 A_{n+1})⁻¹ (I + h/2 A_n) Φ_n   over the N samples of the period, h = T/N
//!   (the step matrix formed once over a stretch of samples where A does not change)
//! multipliers μ = eig Φ(T);  exponents λ = ln μ / T  (imaginary part modulo ω)
//! ```
//!
//! The contact tangents `kx, kv, fz, gz, gx, gv` are each contact's own
//! time-domain law differentiated along its periodic path
//! (`super::aft::ContactAft::tangent`). The trapezoidal (Cayley) step maps
//! the left half-plane into the unit disk: for a constant `A` its verdict is
//! exact whatever the step, and the structure's stiff modes, far faster than
//! the forcing, cannot make a stable response look unstable.
//!
//! Why not Hill's method ([`super::stability`]) in the frequency response:
//! its eigenproblem has `2n(2H + 1)` unknowns for `n` bodies, `O((nH)³)` per
//! point: 17.8 ms for the 220 unknowns of a 10-body chain at H = 5 (faer,
//! one thread, this machine), most of a point's cost. The monodromy costs
//! `O(N m³)` for `m = 2n + Σ ns` states (plus one per hysteresis contact), whatever H: a 20 × 20 system
//! stepped over the period's samples and one 20 × 20 eigenproblem (0.07 ms).

use faer::Mat;
use nalgebra::{DMatrix, DVector};

use friction_models::{Family, FrictionModel};

use super::aft::{is_perfectly_plastic, Tangent, MASING};
use super::dense_lu::DenseLu;
use super::dlft::is_dlft;
use super::gaps::GapTangent;
use super::planes::PlaneTangent;
use super::problem::Problem;
use super::structure::{HbGap, Structure};
use friction_analysis::AnalysisError;

/// Why the points of a condensed structure ([`super::condensed`]) are not
/// assessed unless passive: the monodromy needs the state of every DOF.
pub const CONDENSED: &str =
    "the structure's linear part is condensed onto its contacts' DOFs (modal receptance, \
    `hb::condensed`), and the monodromy needs the full state of every DOF";

/// Why the stability of the periodic motions of `s` cannot be assessed by
/// [`Monodromy`], naming the first contact that prevents it, or `None`:
/// a contact with true Coulomb stick (dynamic Lagrangian AFT) has no
/// tangent while it sticks, and a hysteresis model that is not a Masing
/// operator of elastic-perfectly plastic elements
/// (`super::aft::is_perfectly_plastic`) has no tangent of the anchored
/// form the monodromy steps.
///
/// ```
/// use friction_hb::{floquet::unassessed, structure::Structure};
/// use friction_sim::{CoulombParams, Ground, Schedule, SolverSettings, System};
/// let sys = System::builder("sdof")
///     .body("m", 1.0)
///     .spring("k", ("m", Ground), 1e4)
///     .contact("dry", ("m", Ground), CoulombParams { fc: 0.2, fs: None })
///     .force("p", "m", Schedule::Sine { amplitude: 1.0, frequency: 10.0, phase: 0.0, offset: 0.0 })
///     .solver(SolverSettings::with_t_end(1.0))
///     .build()?;
/// let why = unassessed(&Structure::from_system(&sys, "p")?).unwrap();
/// assert!(why.contains("\"dry\"") && why.contains("coulomb"), "{why}");
/// # Ok::<(), friction_analysis::AnalysisError>(())
/// ```
pub fn unassessed(s: &Structure) -> Option<String> {
    s.contacts.iter().find_map(|c| {
        let id = c.model.info().id;
        if is_dlft(&c.model) {
            Some(format!(
                "contact \"{}\" ({id}) has set-valued stick (dynamic Lagrangian AFT), whose force has no \
                 tangent while it sticks",
                c.name
            ))
        } else if c.model.info().family == Family::Hysteresis && !is_perfectly_plastic(&c.model) {
            Some(format!(
                "contact \"{}\" ({id}) is a hysteresis model that is not a Masing operator of elastic-perfectly \
                 plastic elements (one of {}, with θ = 1), whose linearisation the monodromy does not have",
                c.name,
                MASING.join(", ")
            ))
        } else {
            None
        }
    })
}

/// Whether every periodic motion of `s` is stable by incremental
/// passivity, which needs no linearisation: every contact a Masing
/// operator of elastic-perfectly plastic elements (`jenkins` and `iwan5`
/// with θ = 1, `iwan4`, `maxwell_slip`) under a non-negative normal load,
/// the mass matrix positive definite, the stiffness and damping matrices
/// symmetric positive semi-definite (no contacts at all: a linear
/// structure with those matrices).
///
/// ```text
/// one element (spring k, slider φ), two motions:  d/dt ½ (F₁ - F₂)²/k <= (F₁ - F₂)(ẋ₁ - ẋ₂)
///   (Ḟᵢ = k (ẋᵢ - ṡᵢ), ṡᵢ ≠ 0 only where Fᵢ = φ sign ṡᵢ, and |F_j| <= φ: (F₁ - F₂) ṡ₁ >= 0 >= (F₁ - F₂) ṡ₂)
/// V = ½ δẋᵀ M δẋ + ½ δxᵀ K δx + Σ_c N_c Σ_elements ½ δF²/k,   dV/dt <= -δẋᵀ C δẋ <= 0
/// ```
///
/// The energy `V` of the difference of any two motions never grows, so no
/// perturbation of a periodic motion grows: its Floquet exponents are at
/// most 0, stable as [`super::stability::is_stable`] counts it. (The
/// monotonicity of the stop operator: Brokate and Sprekels 1996,
/// "Hysteresis and Phase Transitions", ch. 2; Visintin 1994, "Differential
/// Models of Hysteresis", ch. III.) A Mignolet slider (θ < 1) is weaker
/// once it slips and is not passive in this sense.
///
/// Why the verdict is not left to [`Monodromy`] there: near the resonance
/// of a lightly damped structure the perturbations ring at nearly the
/// forcing frequency, two multipliers meet near 1, and an error ε in the
/// monodromy moves them by about √ε (the sampled reversals and slip
/// onsets make ε of order 1/N). On a Jenkins oscillator (1 kg, 1e4 N/m,
/// 0.05 N s/m, kt = 3e4 N/m, slip force 1 N, 20 N) at 15.926 to 16.04 Hz
/// the slowest exponent is -0.025 to -0.048 1/s, but the monodromy gave
/// +0.12 to +1.05 1/s at some of 256 to 8192 samples and not at others
/// (tests/hb_stability.rs).
pub fn passive(s: &Structure) -> bool {
    // a contact's load that follows the motion can feed energy in
    if !s.gaps.is_empty() {
        return false;
    }
    let stops = s.contacts.iter().all(|c| c.normal >= 0.0 && is_perfectly_plastic(&c.model));
    if let Some(m) = &s.condensed {
        return stops && m.passive();
    }
    stops && semi_definite(&s.m, true) && semi_definite(&s.k, false) && semi_definite(&s.c, false)
}

/// Whether `a` is symmetric and positive semi-definite (`strict`: definite)
/// to 1e-12 of its largest entry.
fn semi_definite(a: &DMatrix<f64>, strict: bool) -> bool {
    let scale = a.amax();
    if a.nrows() == 0 {
        return true;
    }
    if (a - a.transpose()).amax() > 1e-12 * scale {
        return false;
    }
    let least = a.clone().symmetric_eigen().eigenvalues.min();
    if strict {
        least > 1e-12 * scale
    } else {
        least >= -1e-12 * scale
    }
}

/// Work arrays of the monodromy of one problem (allocated once per branch).
#[derive(Debug, Clone)]
pub struct Monodromy {
    tans: Vec<Tangent>,
    /// `-M⁻¹ K` and `-M⁻¹ C`.
    mk: DMatrix<f64>,
    mc: DMatrix<f64>,
    /// `M⁻¹ b_c` per contact.
    w: Vec<DVector<f64>>,
    /// First row of each contact's states in `y`.
    offsets: Vec<usize>,
    /// Per gap, its linearisation along the motion, and `M⁻¹ b_g`
    /// (`b_g = e_first - e_second`).
    gt: Vec<GapTangent>,
    wg: Vec<DVector<f64>>,
    /// Per contact in a plane, its law's linearisation along the motion
    /// (empty for the others), and `M⁻¹ b_y` (zero for the others).
    pt: Vec<PlaneTangent>,
    wy: Vec<DVector<f64>>,
    a0: DMatrix<f64>,
    a1: DMatrix<f64>,
    phi: DMatrix<f64>,
    step: DMatrix<f64>,
    rhs: DMatrix<f64>,
    lhs: DMatrix<f64>,
    lu: DenseLu,
}

impl Monodromy {
    /// The work arrays for `p`; refused when the mass matrix is singular or
    /// a contact's stability cannot be assessed ([`unassessed`]).
    pub fn new(p: &Problem) -> Result<Self, AnalysisError> {
        if let Some(why) = unassessed(&p.s) {
            return Err(AnalysisError::Model(format!("Floquet multipliers: {why}")));
        }
        let s = &p.s;
        if s.condensed.is_some() {
            return Err(AnalysisError::Model(format!("Floquet multipliers: {CONDENSED}")));
        }
        let nd = s.dofs();
        let minv = s.m.clone().try_inverse().ok_or_else(|| {
            AnalysisError::Model(
                "Floquet multipliers: the mass matrix is singular (a body of zero mass?)".into(),
            )
        })?;
        let n = p.grid.n;
        // a contact in a plane: its 1-D tangent inert, its law's in `pt`
        let tans: Vec<Tangent> = s
            .contacts
            .iter()
            .map(|c| if c.plane.is_some() { Tangent::inert(n) } else { Tangent::new(&c.model, n) })
            .collect();
        let pt: Vec<PlaneTangent> = s
            .contacts
            .iter()
            .map(|c| c.plane.as_ref().map_or_else(PlaneTangent::default, |pl| PlaneTangent::new(&pl.law, n)))
            .collect();
        let mut offsets = Vec::with_capacity(tans.len());
        let mut m = 2 * nd;
        for (t, q) in tans.iter().zip(&pt) {
            offsets.push(m);
            m += t.ns + t.anchored as usize + q.ns;
        }
        let w = s
            .contacts
            .iter()
            .map(|c| {
                let mut b = DVector::zeros(nd);
                if let Some(i) = c.first {
                    b[i] += 1.0;
                }
                if let Some(i) = c.second {
                    b[i] -= 1.0;
                }
                &minv * b
            })
            .collect();
        let wy = s
            .contacts
            .iter()
            .map(|c| {
                let mut b = DVector::zeros(nd);
                if let Some(pl) = &c.plane {
                    if let Some(i) = pl.first_y {
                        b[i] += 1.0;
                    }
                    if let Some(i) = pl.second_y {
                        b[i] -= 1.0;
                    }
                }
                &minv * b
            })
            .collect();
        let wg = s
            .gaps
            .iter()
            .map(|g| {
                let mut b = DVector::zeros(nd);
                if let Some(i) = g.first {
                    b[i] += 1.0;
                }
                if let Some(i) = g.second {
                    b[i] -= 1.0;
                }
                &minv * b
            })
            .collect();
        let z = || DMatrix::zeros(m, m);
        Ok(Monodromy {
            gt: vec![GapTangent::default(); s.gaps.len()],
            wg,
            pt,
            wy,
            tans,
            mk: -(&minv * &s.k),
            mc: -(&minv * &s.c),
            w,
            offsets,
            a0: z(),
            a1: z(),
            phi: z(),
            step: z(),
            rhs: z(),
            lhs: z(),
            lu: DenseLu::with_columns(m, m),
        })
    }

    /// Number of states `m = 2n + Σ ns` of the linearised motion.
    pub fn states(&self) -> usize {
        self.phi.nrows()
    }

    /// The Floquet exponents `(re, im)` \[1/s\] of the solution `x` at
    /// angular frequency `omega`, real part descending (`im` in `(-ω/2, ω/2]`;
    /// a multiplier zero to rounding, below 1e-14 of the largest, is
    /// `(-∞, 0)`).
    pub fn exponents(
        &mut self,
        p: &mut Problem,
        x: &[f64],
        omega: f64,
    ) -> Result<Vec<(f64, f64)>, AnalysisError> {
        p.tangents(x, omega, &mut self.tans);
        p.gap_tangents(x, omega, &mut self.gt);
        p.plane_tangents(x, omega, &mut self.pt);
        // a gap's force and slopes change from sample to sample, as do the
        // laws of the contacts in a plane
        let gaps = !self.gt.is_empty() || self.pt.iter().any(|q| !q.f.is_empty());
        let n = p.grid.n;
        let period = 2.0 * std::f64::consts::PI / omega;
        let h = period / n as f64;
        let m = self.states();
        self.phi.fill_with_identity();
        self.fill(p, 0, true);
        // whether `step` is the step of a constant A equal to the one in `a0`:
        // over a stretch where no tangent changes (a Jenkins joint stuck or
        // slipping) the step is formed and factorised once
        let mut constant = false;
        // the sample whose A is in `a0`
        let mut at = 0;
        for i in 0..n {
            // A changes only where a tangent does: compared tangent by
            // tangent with those of the A in `a0`, A_{i+1} is formed only then
            let same = !gaps && self.tans.iter().all(|t| t.alike(at, (i + 1) % n));
            if !same {
                self.fill(p, (i + 1) % n, false);
            }
            if !(same && constant) {
                // step = (I - h/2 A_{i+1})⁻¹ (I + h/2 A_i)
                self.step.copy_from(&self.a0);
                self.step *= 0.5 * h;
                self.lhs.copy_from(if same { &self.a0 } else { &self.a1 });
                self.lhs *= -0.5 * h;
                for d in 0..m {
                    self.step[(d, d)] += 1.0;
                    self.lhs[(d, d)] += 1.0;
                }
                if !(self.lu.factor(&self.lhs) && self.lu.solve_columns(self.step.as_mut_slice(), m)) {
                    return Err(AnalysisError::Model(format!(
                        "Floquet multipliers: the trapezoidal step is singular at sample {i} of {n} (ω = {omega})"
                    )));
                }
            }
            constant = same;
            // faer's product: nalgebra's allocates its packing buffers per call
            faer::linalg::matmul::matmul(
                faer::MatMut::from_column_major_slice_mut(self.rhs.as_mut_slice(), m, m),
                faer::Accum::Replace,
                faer::MatRef::from_column_major_slice(self.step.as_slice(), m, m),
                faer::MatRef::from_column_major_slice(self.phi.as_slice(), m, m),
                1.0,
                super::linalg::PAR,
            );
            std::mem::swap(&mut self.phi, &mut self.rhs);
            if !same {
                std::mem::swap(&mut self.a0, &mut self.a1);
                at = (i + 1) % n;
            }
            // a hysteresis contact's anchor jumps to the relative
            // displacement where the motion reverses (a saltation map)
            let next = (i + 1) % n;
            // Jenkins' element in a plane starting to slide: its deflection's
            // perturbation loses its radial part (PlaneAft::tangent)
            for (c, q) in self.pt.iter().enumerate() {
                if q.ns == 0 || !q.onset(next) {
                    continue;
                }
                let (off, e) = (self.offsets[c], q.dir[next]);
                for col in 0..m {
                    let (a, b) = (self.phi[(off, col)], self.phi[(off + 1, col)]);
                    let r = e[0] * a + e[1] * b;
                    self.phi[(off, col)] = a - e[0] * r;
                    self.phi[(off + 1, col)] = b - e[1] * r;
                }
            }
            for (c, ct) in p.s.contacts.iter().enumerate() {
                if !(self.tans[c].anchored && self.tans[c].reversal[next]) {
                    continue;
                }
                let off = self.offsets[c];
                for col in 0..m {
                    let a = ct.first.map_or(0.0, |j| self.phi[(j, col)]);
                    let b = ct.second.map_or(0.0, |j| self.phi[(j, col)]);
                    self.phi[(off, col)] = a - b;
                }
            }
        }
        let phi = Mat::<f64>::from_fn(m, m, |i, j| self.phi[(i, j)]);
        let mu = super::linalg::eigenvalues(phi.as_ref()).map_err(|e| {
            AnalysisError::Model(format!(
                "Floquet multipliers: the eigenvalue problem failed ({e:?}) at ω = {omega}"
            ))
        })?;
        // a multiplier zero to rounding (a hysteresis anchor whose stiffness
        // never acts is overwritten at each reversal: a zero column of Φ)
        // decays at once and has no phase: -∞, not ln of the rounding
        let largest = mu.iter().fold(0.0f64, |m, z| m.max(z.re.hypot(z.im)));
        let mut out: Vec<(f64, f64)> = mu
            .iter()
            .map(|z| {
                let r = z.re.hypot(z.im);
                if r <= 1e-14 * largest {
                    (f64::NEG_INFINITY, 0.0)
                } else {
                    (r.ln() / period, z.im.atan2(z.re) / period)
                }
            })
            .collect();
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        Ok(out)
    }

    /// `A` at sample `i` into `a0` (`first`) or `a1`.
    fn fill(&mut self, p: &Problem, i: usize, first: bool) {
        let a = if first { &mut self.a0 } else { &mut self.a1 };
        let nd = p.s.dofs();
        a.fill(0.0);
        for d in 0..nd {
            a[(d, nd + d)] = 1.0;
            for e in 0..nd {
                a[(nd + d, e)] = self.mk[(d, e)];
                a[(nd + d, nd + e)] = self.mc[(d, e)];
            }
        }
        // a gap pushes its first member by -P and its second by +P:
        // δẍ = -M⁻¹ b_g δP, δP = ds δ(x2 - x1) + dv δ(v2 - v1)
        for (g, gp) in p.s.gaps.iter().enumerate() {
            let (t, w) = (&self.gt[g], &self.wg[g]);
            for r in 0..nd {
                let wr = w[r];
                if wr != 0.0 {
                    sub_load_change(a, nd, r, wr, gp, t, i);
                }
            }
        }
        for (c, ct) in p.s.contacts.iter().enumerate() {
            if ct.plane.is_some() {
                self.fill_plane(p, c, i, first);
                continue;
            }
            let a = if first { &mut self.a0 } else { &mut self.a1 };
            let (t, w, off) = (&self.tans[c], &self.w[c], self.offsets[c]);
            // the load at this sample: a gap's force times `normal`, whose
            // change moves the force at unit load F1 with it (δF = N δF1 + F1 δN)
            let load = match ct.normal_gap {
                Some(g) => {
                    let (gt, gp, f1) = (&self.gt[g], &p.s.gaps[g], p.contact_force_samples(c)[i]);
                    for r in 0..nd {
                        let wr = w[r];
                        if wr != 0.0 {
                            sub_load_change(a, nd, r, wr * ct.normal * f1, gp, gt, i);
                        }
                    }
                    ct.normal * gt.p[i]
                }
                None => ct.normal,
            };
            let (kx, kv, ns) = (load * t.kx[i], load * t.kv[i], t.ns);
            for r in 0..nd {
                let wr = w[r];
                if wr == 0.0 {
                    continue;
                }
                for (member, sign) in [(ct.first, 1.0), (ct.second, -1.0)] {
                    if let Some(j) = member {
                        a[(nd + r, j)] -= sign * wr * kx;
                        a[(nd + r, nd + j)] -= sign * wr * kv;
                    }
                }
                if t.anchored {
                    a[(nd + r, off)] += wr * (kx - load * t.k0);
                }
                for b in 0..ns {
                    a[(nd + r, off + b)] -= wr * load * t.fz[i * ns + b];
                }
            }
            for q in 0..ns {
                for b in 0..ns {
                    a[(off + q, off + b)] = t.gz[(i * ns + q) * ns + b];
                }
                for (member, sign) in [(ct.first, 1.0), (ct.second, -1.0)] {
                    if let Some(j) = member {
                        a[(off + q, j)] += sign * t.gx[i * ns + q];
                        a[(off + q, nd + j)] += sign * t.gv[i * ns + q];
                    }
                }
            }
        }
    }

    /// The rows of contact `c`, which rubs in a plane, in `A` at sample `i`
    /// (into `a0` with `first`, else `a1`): its force `-N F` on the x and y
    /// rows of its first member (`+N F` on its second's), with
    ///
    /// ```text
    /// δ(N F) = N (∂F/∂v δv + ∂F/∂z δz) + F δN,   δN = normal (∂P/∂s δs + ∂P/∂ṡ δṡ)   (P its gap's force)
    /// δż = ∂ż/∂v δv + ∂ż/∂z δz,   δv = (δẋ_first - δẋ_second, δẏ_first - δẏ_second)
    /// ```
    fn fill_plane(&mut self, p: &Problem, c: usize, i: usize, first: bool) {
        let a = if first { &mut self.a0 } else { &mut self.a1 };
        let nd = p.s.dofs();
        let ct = &p.s.contacts[c];
        let Some(pl) = &ct.plane else { return };
        let (q, off) = (&self.pt[c], self.offsets[c]);
        let factor = ct.normal.max(0.0);
        let (load, gap) = match ct.normal_gap {
            Some(g) => (factor * self.gt[g].p[i], Some(g)),
            None => (factor, None),
        };
        let (f, d) = (q.f[i], &q.part[i]);
        // the slip velocity's members per axis: (DOF, sign)
        let axes = [[(ct.first, 1.0), (ct.second, -1.0)], [(pl.first_y, 1.0), (pl.second_y, -1.0)]];
        let ws = [&self.w[c], &self.wy[c]];
        for r in 0..nd {
            for (ax, w) in ws.iter().enumerate() {
                let wr = w[r];
                if wr == 0.0 {
                    continue;
                }
                // δẍ_r -= wr δ(N F_ax)
                for (bx, members) in axes.iter().enumerate() {
                    for &(member, sign) in members {
                        if let Some(j) = member {
                            a[(nd + r, nd + j)] -= wr * load * d.df_dv[ax][bx] * sign;
                        }
                    }
                }
                for b in 0..q.ns {
                    a[(nd + r, off + b)] -= wr * load * d.df_dz[ax][b];
                }
                if let Some(g) = gap {
                    let (gt, gp) = (&self.gt[g], &p.s.gaps[g]);
                    sub_load_change(a, nd, r, wr * factor * f[ax], gp, gt, i);
                }
            }
        }
        for s in 0..q.ns {
            for b in 0..q.ns {
                a[(off + s, off + b)] = d.dg_dz[s][b];
            }
            for (bx, members) in axes.iter().enumerate() {
                for &(member, sign) in members {
                    if let Some(j) = member {
                        a[(off + s, nd + j)] += sign * d.dg_dv[s][bx];
                    }
                }
            }
        }
    }
}

/// Row `r` of `A`'s velocity part takes `-s δP`, the change of gap `gp`'s
/// force `P` at sample `i` by its tangent `gt`:
/// `δP = ds δ(x2 - x1) + dv δ(v2 - v1)` (`s`: the row's weight `M⁻¹ b` times
/// whatever scales the load there: 1 for the gap's own force, `normal F₁`
/// for a contact it loads).
fn sub_load_change(a: &mut DMatrix<f64>, nd: usize, r: usize, s: f64, gp: &HbGap, gt: &GapTangent, i: usize) {
    for (member, sign) in [(gp.first, -1.0), (gp.second, 1.0)] {
        if let Some(j) = member {
            a[(nd + r, j)] -= s * sign * gt.ds[i];
            a[(nd + r, nd + j)] -= s * sign * gt.dv[i];
        }
    }
}
