//! Contacts that rub in a plane (between bodies of dim 3,
//! [`friction_sim::system::Plane`]) in the alternating frequency-time
//! evaluation: the slip velocity along x and y from the harmonics of the
//! members' x and y coordinates, the model's vector law
//! ([`friction_models::plane`]) per sample, and its force times the normal
//! load of its gap on z, sample by sample.
//!
//! ```text
//! vx_n, vy_n  ←  coefficients of x_first - x_second, y_first - y_second   (synthesis, v = ω d/dτ)
//! F_n = F(v_n; zx, zy)     (the plane law; bristles by RK4 between samples, periods until periodic)
//! force on the first member:  -N_n F_n,   N_n = normal P_n   (P_n the gap's force, 0 open)
//! coefficients of N_n Fx_n, N_n Fy_n  ←  (analysis), into the x and y rows
//! ```
//!
//! The bristle deflections `(zx, zy)` of LuGre, Dahl and Dankowicz start
//! relaxed (then from the last evaluation's periodic state) and are integrated by the classical Runge-Kutta method between
//! samples, in as many sub-steps as their own rate asks (`|∂ż/∂z| dt <=
//! 0.5`), over periods until the force repeats itself: the scheme of the
//! 1-D continuous-state models ([`super::aft`]). While the contact is open
//! the bristles keep following the slip, as in the engine. Jenkins' element
//! (θ = 1) carries its deflection `d` the same way, starting relaxed at the
//! mean displacement (as the 1-D hysteresis operators: an element that never
//! slips keeps that origin) and advanced between samples by the radial
//! return of the slip's increments onto its disk `|d| <= Fs/kt` (16
//! straight segments a sample interval). A regularised map
//! (`coulomb_tanh`, ...) has no state: its force is evaluated at every
//! sample.
//!
//! A contact in a plane always carries its gap's load, so the problem's
//! Jacobian is taken by forward differences of the residual, as with gaps
//! ([`super::gaps`]). The stability of its solutions is assessed by the
//! monodromy ([`super::floquet::Monodromy`]) with the law's linearisation
//! along the periodic path ([`PlaneAft::tangent`]).

use friction_models::plane::{PlaneLaw, PlanePartials, PlaneWork};
use friction_sim::AnyModel;

use super::gaps::GapSamples;
use super::harmonics::{motion_at, repeats, Grid, MAX_PERIODS};
use super::structure::{HbContact, HbPlane};

/// Work arrays of one contact in a plane (allocated once).
#[derive(Debug, Clone)]
pub struct PlaneAft {
    rel: [Vec<f64>; 2],
    vx: Vec<f64>,
    vy: Vec<f64>,
    /// The force per unit load at the samples: x at `[0, N)`, y at `[N, 2N)`.
    f: Vec<f64>,
    prev: Vec<f64>,
    z: [f64; 2],
    /// The bristles at the start of the last settled evaluation's period.
    z_periodic: [f64; 2],
    /// Whether the last evaluation settled (its periodic state the next one's start).
    settled_before: bool,
    work: PlaneWork,
    part: PlanePartials,
    /// Periods run by the last evaluation.
    pub periods: usize,
    /// Whether the last evaluation reached the periodic steady state.
    pub settled: bool,
}

/// The relative coefficients `x_first - x_second` of two members at `x`
/// (`l` coefficients per degree of freedom) into `out`.
fn relative(x: &[f64], l: usize, first: Option<usize>, second: Option<usize>, out: &mut [f64]) {
    for (j, o) in out.iter_mut().enumerate() {
        let a = first.map_or(0.0, |i| x[i * l + j]);
        let b = second.map_or(0.0, |i| x[i * l + j]);
        *o = a - b;
    }
}

/// Sub-steps of a sample interval in Jenkins' radial return (the slip's
/// path between samples as straight segments).
const RETURN_STEPS: usize = 16;

impl PlaneAft {
    /// Work arrays for `law` on `grid`.
    pub fn new(law: &PlaneLaw, grid: &Grid) -> Self {
        let (l, n) = (grid.len(), grid.n);
        PlaneAft {
            rel: [vec![0.0; l], vec![0.0; l]],
            vx: vec![0.0; n],
            vy: vec![0.0; n],
            f: vec![0.0; 2 * n],
            prev: vec![0.0; 2 * n],
            z: [0.0; 2],
            z_periodic: [0.0; 2],
            settled_before: false,
            work: PlaneWork::new(law),
            part: PlanePartials::default(),
            periods: 0,
            settled: true,
        }
    }

    /// The force per unit load along x (`axis` 0) or y (1) at the samples
    /// of the last evaluation (the 1-D sign: the force on the first member
    /// is `-N F`).
    pub fn force_samples(&self, axis: usize) -> &[f64] {
        let n = self.vx.len();
        &self.f[axis * n..(axis + 1) * n]
    }

    /// Evaluate the law over the period for the motion of coefficients `x`
    /// at angular frequency `omega`: the members' x coordinates `xs`
    /// (first, second) and y coordinates `ys`.
    pub fn eval(
        &mut self,
        model: &AnyModel,
        plane: &HbPlane,
        grid: &Grid,
        omega: f64,
        x: &[f64],
        xs: (Option<usize>, Option<usize>),
    ) {
        let (l, n) = (grid.len(), grid.n);
        relative(x, l, xs.0, xs.1, &mut self.rel[0]);
        relative(x, l, plane.first_y, plane.second_y, &mut self.rel[1]);
        grid.synth_derivative(&self.rel[0], &mut self.vx);
        grid.synth_derivative(&self.rel[1], &mut self.vy);
        for v in self.vx.iter_mut().chain(self.vy.iter_mut()) {
            *v *= omega;
        }
        let law = &plane.law;
        let dt = 2.0 * std::f64::consts::PI / omega / n as f64;
        (self.periods, self.settled) = (1, true);
        if law.n_states() == 0 {
            for i in 0..n {
                let f = law.eval(model, i as f64 * dt, [self.vx[i], self.vy[i]], &[], None);
                (self.f[i], self.f[n + i]) = (f[0], f[1]);
            }
            return;
        }
        // from the last periodic state (the evaluations of a Newton step and
        // of its Jacobian's differences are close to each other: two or three
        // periods, where a start relaxed took up to hundreds while the joint
        // presslides), relaxed the first time
        self.z = if let Some(r) = law.radius() {
            // Jenkins: relaxed at the mean displacement at every evaluation
            // (as the 1-D hysteresis operators of `aft`: an element that never
            // slips keeps that origin), so the force is a function of `x` alone
            let d = [
                motion_at(&self.rel[0], grid.h, omega, 0.0).0 - self.rel[0][0],
                motion_at(&self.rel[1], grid.h, omega, 0.0).0 - self.rel[1][0],
            ];
            let len = d[0].hypot(d[1]);
            let scale = if len > r { r / len } else { 1.0 };
            [d[0] * scale, d[1] * scale]
        } else if self.settled_before {
            self.z_periodic
        } else {
            [0.0; 2]
        };
        self.settled = false;
        for p in 0..MAX_PERIODS {
            let start = self.z;
            for i in 0..n {
                let t0 = (p * n + i) as f64 * dt;
                let f = law.eval(model, t0, [self.vx[i], self.vy[i]], &self.z, None);
                (self.f[i], self.f[n + i]) = (f[0], f[1]);
                self.advance(model, law, grid.h, omega, t0, [self.vx[i], self.vy[i]], dt);
            }
            self.periods = p + 1;
            if p > 0 && repeats(&self.f, &self.prev) {
                self.settled = true;
                self.z_periodic = start;
                break;
            }
            self.prev.copy_from_slice(&self.f);
        }
        self.settled_before = self.settled;
    }

    /// The bristles from the sample at `t0` (slip velocity `v0`) to the
    /// next, `dt` later: RK4 in sub-steps from their own rate
    /// (`max |∂ż/∂z| dt` per sub-step at most 0.5), the slip velocity from
    /// the coefficients at every stage.
    #[allow(clippy::too_many_arguments)]
    fn advance(
        &mut self,
        model: &AnyModel,
        law: &PlaneLaw,
        h: usize,
        omega: f64,
        t0: f64,
        v0: [f64; 2],
        dt: f64,
    ) {
        if let Some(r) = law.radius() {
            return self.radial_return(r, h, omega, t0, dt);
        }
        law.partials(model, t0, v0, &self.z, &mut self.work, &mut self.part);
        let lam = self.part.dg_dz.iter().flatten().fold(0.0f64, |m, d| m.max(d.abs()));
        let m = ((lam * dt / 0.5).ceil() as usize).clamp(1, 100_000);
        let hs = dt / m as f64;
        let (rx, ry) = (&self.rel[0], &self.rel[1]);
        let v = |t: f64| [motion_at(rx, h, omega, t).1, motion_at(ry, h, omega, t).1];
        let rate = |v: [f64; 2], z: [f64; 2]| {
            let mut g = [0.0; 2];
            law.eval(model, 0.0, v, &z, Some(&mut g));
            g
        };
        let add = |z: [f64; 2], k: [f64; 2], s: f64| [z[0] + s * k[0], z[1] + s * k[1]];
        for s in 0..m {
            let ta = t0 + s as f64 * hs;
            let (va, vm, vb) = (v(ta), v(ta + 0.5 * hs), v(ta + hs));
            let z = self.z;
            let k1 = rate(va, z);
            let k2 = rate(vm, add(z, k1, 0.5 * hs));
            let k3 = rate(vm, add(z, k2, 0.5 * hs));
            let k4 = rate(vb, add(z, k3, hs));
            for j in 0..2 {
                self.z[j] += hs / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
            }
        }
    }

    /// Jenkins' deflection from the sample at `t0` to the next, `dt` later:
    /// the radial return of each slip increment onto the disk `|d| <= r`
    /// (Simo and Hughes 1998, the per-step update of
    /// `friction_models::update::planar`), exact on straight segments, so
    /// the force's magnitude never exceeds Fs.
    fn radial_return(&mut self, r: f64, h: usize, omega: f64, t0: f64, dt: f64) {
        let (rx, ry) = (&self.rel[0], &self.rel[1]);
        let hs = dt / RETURN_STEPS as f64;
        let mut u = [motion_at(rx, h, omega, t0).0, motion_at(ry, h, omega, t0).0];
        for s in 1..=RETURN_STEPS {
            let t = t0 + s as f64 * hs;
            let un = [motion_at(rx, h, omega, t).0, motion_at(ry, h, omega, t).0];
            let d = [self.z[0] + un[0] - u[0], self.z[1] + un[1] - u[1]];
            let len = d[0].hypot(d[1]);
            let scale = if len > r { r / len } else { 1.0 };
            self.z = [d[0] * scale, d[1] * scale];
            u = un;
        }
    }
}

/// The linearisation of a contact in a plane along its periodic path, per
/// sample ([`PlaneAft::tangent`]), for the monodromy
/// ([`super::floquet::Monodromy`]): the force per unit load, the law's
/// partial derivatives at the sample's slip velocity and states, and where
/// Jenkins' element starts sliding.
#[derive(Debug, Clone, Default)]
pub struct PlaneTangent {
    /// The number of states `(zx, zy)` the law carries (0 or 2).
    pub ns: usize,
    /// The force per unit load `(Fx, Fy)` at each sample (the 1-D sign).
    pub f: Vec<[f64; 2]>,
    /// The law's partial derivatives at each sample.
    pub part: Vec<PlanePartials>,
    /// Whether Jenkins' element slides at each sample.
    pub sliding: Vec<bool>,
    /// The direction of Jenkins' deflection at each sample (zero for other laws).
    pub dir: Vec<[f64; 2]>,
}

impl PlaneTangent {
    /// Storage for `law` over `n` samples.
    pub fn new(law: &PlaneLaw, n: usize) -> Self {
        PlaneTangent {
            ns: law.n_states(),
            f: vec![[0.0; 2]; n],
            part: vec![PlanePartials::default(); n],
            sliding: vec![false; n],
            dir: vec![[0.0; 2]; n],
        }
    }

    /// Whether Jenkins' element starts sliding between the previous sample
    /// and sample `i` (stuck there, sliding here; sample 0 follows the
    /// period's last): a perturbation of its deflection then loses its
    /// radial part (the saltation of the switch onto the rim, see
    /// [`PlaneAft::tangent`]).
    pub fn onset(&self, i: usize) -> bool {
        let n = self.sliding.len();
        self.sliding[i] && !self.sliding[(i + n - 1) % n]
    }
}

impl PlaneAft {
    /// The linearisation of the law along the periodic path of the motion
    /// `x` (as [`PlaneAft::eval`] takes it) into `out`: the law is evaluated,
    /// then its last period is run again from its periodic start, and at
    /// each sample the states, the force and the partial derivatives
    /// ([`PlaneLaw::partials`]) are stored.
    ///
    /// ```text
    /// δF = ∂F/∂v δv + ∂F/∂z δz,   δż = ∂ż/∂v δv + ∂ż/∂z δz        (per unit load)
    /// Jenkins, stuck -> sliding (|d| reaches r, switching surface |d| = r, its normal e = d/|d|):
    ///   the jump of the rate is f⁺ - f⁻ = -e (e·v), and eᵀ f⁻ = e·v, so the saltation matrix
    ///   S = I + (f⁺ - f⁻) eᵀ / (eᵀ f⁻) = I - e eᵀ on the deflection: δd loses its radial part
    /// sliding -> stuck (e·v falls through 0): the rate is continuous there, S = I
    /// ```
    ///
    /// (The saltation matrix of a switching surface: Aizerman and Gantmakher
    /// 1958; Leine and Nijmeijer 2004, "Dynamics and Bifurcations of
    /// Non-Smooth Mechanical Systems", ch. 7.) The switch is placed at the
    /// first sample where the element slides, so a sliding onset is located
    /// to within a sample interval, as the reversals of the 1-D hysteresis
    /// operators are.
    #[allow(clippy::too_many_arguments)]
    pub fn tangent(
        &mut self,
        model: &AnyModel,
        plane: &HbPlane,
        grid: &Grid,
        omega: f64,
        x: &[f64],
        xs: (Option<usize>, Option<usize>),
        out: &mut PlaneTangent,
    ) {
        self.eval(model, plane, grid, omega, x, xs);
        let (n, law) = (grid.n, &plane.law);
        let dt = 2.0 * std::f64::consts::PI / omega / n as f64;
        // the periodic start (the last period's end when it did not settle)
        if law.n_states() > 0 && self.settled {
            self.z = self.z_periodic;
        }
        for i in 0..n {
            let v = [self.vx[i], self.vy[i]];
            let t0 = i as f64 * dt;
            out.f[i] = law.eval(model, t0, v, &self.z, None);
            law.partials(model, t0, v, &self.z, &mut self.work, &mut out.part[i]);
            out.sliding[i] = law.sliding_at(v, &self.z);
            let len = self.z[0].hypot(self.z[1]);
            out.dir[i] = if law.radius().is_some() && len > 0.0 {
                [self.z[0] / len, self.z[1] / len]
            } else {
                [0.0; 2]
            };
            if law.n_states() > 0 {
                self.advance(model, law, grid.h, omega, t0, v, dt);
            }
        }
    }
}

/// Add the force coefficients of contact `ct`, which rubs in a plane, to
/// the residual `r` at coefficients `x` and angular frequency `omega`:
/// `+N F` in its first member's x and y rows, `-N F` in its second's (the
/// balance's left side), its load `N = max(normal, 0) P` sample by sample
/// from the gaps' samples `gaps` of the same `x` and `omega` (`P = 1`
/// without a gap). `fs` (N samples) and `fc` (2H + 1 coefficients) are
/// work arrays.
#[allow(clippy::too_many_arguments)]
pub fn add_plane(
    aft: &mut PlaneAft,
    ct: &HbContact,
    grid: &Grid,
    gaps: &GapSamples,
    x: &[f64],
    omega: f64,
    (fs, fc): (&mut [f64], &mut [f64]),
    r: &mut [f64],
) {
    let Some(plane) = &ct.plane else { return };
    let l = grid.len();
    aft.eval(&ct.model, plane, grid, omega, x, (ct.first, ct.second));
    let factor = ct.normal.max(0.0);
    let rows = [(ct.first, ct.second), (plane.first_y, plane.second_y)];
    for (axis, (first, second)) in rows.into_iter().enumerate() {
        let f = aft.force_samples(axis);
        for n in 0..grid.n {
            fs[n] = factor * ct.normal_gap.map_or(1.0, |g| gaps.p[g][n]) * f[n];
        }
        grid.analyse(fs, fc);
        for (j, v) in fc.iter().enumerate() {
            if let Some(i) = first {
                r[i * l + j] += v;
            }
            if let Some(i) = second {
                r[i * l + j] -= v;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_sim::{build_model, ParamMap, ParamValue};
    use std::f64::consts::PI;

    fn lugre() -> AnyModel {
        let mut p = ParamMap::new();
        for (k, v) in
            [("sigma0", 2e4), ("sigma1", 1.0), ("sigma2", 0.0), ("fc", 0.3), ("fs", 0.4), ("vs", 1e-3)]
        {
            p.insert(k.into(), ParamValue::Num(v));
        }
        build_model("lugre", &p).unwrap()
    }

    /// A circular slip `(A cos τ, A sin τ)` at a speed well into sliding:
    /// the bristles settle to a periodic state, and the force per unit load
    /// (the 1-D sign: along the slip) has the steady sliding level of the
    /// 1-D law, along the slip velocity at every sample (within the small
    /// lag of the bristles), its magnitude the same at every sample (the
    /// motion is the same up to a rotation).
    #[test]
    fn circular_slip_gives_a_force_of_constant_magnitude_along_the_slip() {
        let m = lugre();
        let law = friction_models::plane::plane_law(&m).unwrap();
        let plane = HbPlane { first_y: Some(1), second_y: None, law };
        let grid = Grid::new(3, 256);
        let l = grid.len();
        let (a, omega) = (2e-3, 2.0 * PI * 10.0);
        let mut x = vec![0.0; 2 * l];
        x[1] = a; // x = A cos τ
        x[l + 2] = a; // y = A sin τ
        let mut aft = PlaneAft::new(&law, &grid);
        aft.eval(&m, &plane, &grid, omega, &x, (Some(0), None));
        assert!(aft.settled, "{} periods", aft.periods);
        let (fx, fy) = (aft.force_samples(0), aft.force_samples(1));
        let mags: Vec<f64> = fx.iter().zip(fy).map(|(a, b)| a.hypot(*b)).collect();
        let (lo, hi) = mags.iter().fold((f64::INFINITY, 0.0f64), |(l, h), m| (l.min(*m), h.max(*m)));
        assert!(hi - lo < 1e-6 * hi, "magnitude from {lo} to {hi}");
        // speed A ω = 0.126 m/s >> vs: the Coulomb level 0.3 (+ σ2 v = 0)
        assert!((hi - 0.3).abs() < 1e-3, "{hi}");
        for i in 0..grid.n {
            let (vx, vy) = (aft.vx[i], aft.vy[i]);
            let cos = (fx[i] * vx + fy[i] * vy) / (mags[i] * vx.hypot(vy));
            assert!(cos > 0.999, "sample {i}: cos {cos}");
        }
    }
}
