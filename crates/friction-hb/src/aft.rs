//! Alternating frequency-time evaluation of one contact: from the Fourier
//! coefficients of its relative displacement to those of its force, through
//! the model's own time-domain law over the period.
//!
//! ```text
//! x(τ_n), ẋ(τ_n)  ←  coefficients of x_rel            (synthesis)
//! F_n = F(t_n, x_n, ẋ_n; state, memory)                 (the model, in time)
//! coefficients of F  ←  F_n                            (analysis)
//! ```
//!
//! How each family of model is evaluated:
//! - static maps `F(v)`: directly at every sample;
//! - hysteresis operators (Jenkins, Iwan, Maxwell slip, ...): the memory
//!   starts relaxed at the mean displacement (a structure that came to its
//!   steady state from rest: an element that never slips keeps that
//!   origin, as in a time integration started at rest) and is
//!   updated sample by sample (`force`, then `accept`, as the engine does
//!   after an accepted step) over as many periods as it takes the force to
//!   repeat itself: the periodic path's memory, exact for a rate-independent
//!   operator whose turning points fall on samples;
//! - continuous-state models (LuGre, Dahl, Bouc-Wen, ...): `dz/dt` integrated
//!   by the classical Runge-Kutta method between samples, in as many
//!   sub-steps as the state's own rate asks, over periods until `z` repeats;
//! - set-valued stick: `coulomb` is evaluated by the dynamic Lagrangian
//!   method of [`super::dlft`], which needs the balance of the contact's
//!   bodies and so lives in [`super::problem`]; the other set-valued models
//!   (Karnopp, ...) and wrappers are refused ([`check_model`]).

use friction_models::{Family, FrictionModel, Input};
use friction_sim::AnyModel;

use super::harmonics::{motion_at, repeats, Grid, MAX_PERIODS};
use friction_analysis::AnalysisError;

/// Continuous-state models whose state does not forget its start while the
/// contact sticks (dz/dt = v exactly in presliding): refused.
const NO_UNIQUE_PERIODIC_STATE: [&str; 2] = ["elasto_plastic", "reset_integrator"];

/// Refuse a model harmonic balance cannot treat, saying which and why.
pub fn check_model(contact: &str, model: &AnyModel) -> Result<(), AnalysisError> {
    let info = model.info();
    if NO_UNIQUE_PERIODIC_STATE.contains(&info.id) {
        return Err(AnalysisError::Model(format!(
            "contact \"{contact}\": model `{}` has an elastic presliding state that follows the slip exactly \
             (dz/dx = 1, no decay), so while it sticks its periodic state keeps whatever offset it started with; \
             the alternating frequency-time evaluation cannot pick the one a structure reaches from rest, and \
             Newton's method fails where slip sets in. Use a hysteresis element (`jenkins`, `iwan4`) or a \
             bristle model whose state decays (`lugre`, `dahl`)",
            info.id
        )));
    }
    match info.family {
        Family::StaticMap | Family::Hysteresis | Family::ContinuousState => Ok(()),
        Family::SetValued if super::dlft::is_dlft(model) => Ok(()),
        Family::SetValued => Err(AnalysisError::Model(format!(
            "contact \"{contact}\": model `{}` has set-valued stick (a force anywhere in [-Fs, Fs] at rest); \
             harmonic balance keeps such stick exact by the dynamic Lagrangian AFT for model `coulomb` only, \
             and a silent regularisation would give a plausible-looking wrong answer. Use `coulomb`, a \
             hysteresis element (`jenkins`, `iwan4`) or a regularised law (`coulomb_tanh`) explicitly",
            info.id
        ))),
        Family::Wrapper => Err(AnalysisError::Model(format!(
            "contact \"{contact}\": model `{}` is a wrapper of another model; harmonic balance does not \
             treat wrappers (their time-varying or random modification has no periodic steady state)",
            info.id
        ))),
    }
}

/// The tangent stiffness `dF/dx` of a model at rest from its initial state:
/// a hysteresis element's stuck stiffness; a continuous-state model's rest
/// stiffness, `∂F/∂z · dz/dx` with `dz/dx` from its rates at a small
/// velocity (σ0 for Dahl and LuGre, kj A for Bouc-Wen); 0 for a static map.
/// Before, a continuous-state model gave 0, and the nonlinear mode started
/// from (and `friction nnm` reported as "linear, stuck") the structure
/// without the joint.
pub fn initial_stiffness(model: &AnyModel) -> f64 {
    let (mut z, mut mem) = (vec![0.0; model.n_states()], vec![0.0; model.n_memory()]);
    let rest = Input::new(0.0, 0.0, 0.0);
    model.init(&rest, &mut z, &mut mem);
    let h = 1e-12;
    let f0 = model.force(&rest, &z, &mem);
    let direct = (model.force(&Input::new(0.0, h, 0.0), &z, &mem) - f0) / h;
    if z.is_empty() {
        return direct;
    }
    // dz/dx at rest, from the rates at a velocity small enough to be linear
    let v = 1e-9;
    let mut dz = vec![0.0; z.len()];
    model.rates(&Input::new(0.0, 0.0, v), &z, &mem, &mut dz);
    let moved: Vec<f64> = z.iter().zip(&dz).map(|(z, d)| z + h * d / v).collect();
    let k = (model.force(&Input::new(0.0, h, 0.0), &moved, &mem) - f0) / h;
    if k.is_finite() {
        k
    } else {
        direct
    }
}

/// Work arrays of one contact's evaluation (allocated once).
#[derive(Debug, Clone)]
pub struct ContactAft {
    x: Vec<f64>,
    v: Vec<f64>,
    f: Vec<f64>,
    prev: Vec<f64>,
    z: Vec<f64>,
    mem: Vec<f64>,
    k: [Vec<f64>; 5],
    /// Periods run by the last evaluation.
    pub periods: usize,
    /// Whether the last evaluation reached the periodic steady state.
    pub settled: bool,
}

impl ContactAft {
    /// Work arrays for `model` on `grid`.
    pub fn new(model: &AnyModel, grid: &Grid) -> Self {
        let (ns, nm) = (model.n_states(), model.n_memory());
        let v = || vec![0.0; ns];
        ContactAft {
            x: vec![0.0; grid.n],
            v: vec![0.0; grid.n],
            f: vec![0.0; grid.n],
            prev: vec![0.0; grid.n],
            z: vec![0.0; ns],
            mem: vec![0.0; nm],
            k: [v(), v(), v(), v(), v()],
            periods: 0,
            settled: true,
        }
    }

    /// The force samples of the last evaluation (one period).
    pub fn force_samples(&self) -> &[f64] {
        &self.f
    }

    /// The coefficients `out` of the force `F` (the model's sign: against
    /// the relative motion) for a relative displacement of coefficients
    /// `rel` at angular frequency `omega` [rad/s].
    pub fn eval(&mut self, model: &AnyModel, grid: &Grid, omega: f64, rel: &[f64], out: &mut [f64]) {
        let n = grid.n;
        grid.synth(rel, &mut self.x);
        grid.synth_derivative(rel, &mut self.v);
        for v in &mut self.v {
            *v *= omega;
        }
        let period = 2.0 * std::f64::consts::PI / omega;
        let dt = period / n as f64;
        let t = |i: usize| i as f64 * dt;
        self.periods = 1;
        self.settled = true;
        match model.info().family {
            Family::StaticMap => {
                for i in 0..n {
                    self.f[i] = model.force(&Input::new(t(i), self.x[i], self.v[i]), &[], &[]);
                }
            }
            Family::ContinuousState => self.state_periods(model, grid, omega, rel, dt),
            _ => {
                model.init(&Input::new(0.0, rel[0], 0.0), &mut self.z, &mut self.mem);
                self.settled = false;
                for p in 0..MAX_PERIODS {
                    for i in 0..n {
                        let inp = Input::new(p as f64 * period + t(i), self.x[i], self.v[i]);
                        self.f[i] = model.force(&inp, &self.z, &self.mem);
                        model.accept(&inp, &mut self.z, &mut self.mem);
                    }
                    self.periods = p + 1;
                    if p > 0 && repeats(&self.f, &self.prev) {
                        self.settled = true;
                        break;
                    }
                    self.prev.copy_from_slice(&self.f);
                }
            }
        }
        grid.analyse(&self.f, out);
    }

    /// Continuous states: RK4 between samples until one period's force
    /// repeats the previous one.
    fn state_periods(&mut self, model: &AnyModel, grid: &Grid, omega: f64, rel: &[f64], dt: f64) {
        let n = grid.n;
        let period = dt * n as f64;
        model.init(&Input::new(0.0, rel[0], 0.0), &mut self.z, &mut self.mem);
        self.settled = false;
        for p in 0..MAX_PERIODS {
            for i in 0..n {
                let t0 = p as f64 * period + i as f64 * dt;
                let inp = Input::new(t0, self.x[i], self.v[i]);
                self.f[i] = model.force(&inp, &self.z, &self.mem);
                self.advance_state(model, grid, omega, rel, &inp, dt);
            }
            self.periods = p + 1;
            if p > 0 && repeats(&self.f, &self.prev) {
                self.settled = true;
                break;
            }
            self.prev.copy_from_slice(&self.f);
        }
    }

    /// A continuous state from the sample `inp` to the next, `dt` later:
    /// RK4 in sub-steps from the state's own rate (|∂g/∂z| dt per sub-step
    /// below 0.5), the relative motion taken from its coefficients at
    /// every stage.
    fn advance_state(
        &mut self,
        model: &AnyModel,
        grid: &Grid,
        omega: f64,
        rel: &[f64],
        inp: &Input,
        dt: f64,
    ) {
        let (ns, t0) = (self.z.len(), inp.t);
        let at = |t: f64| -> Input {
            let (x, v) = motion_at(rel, grid.h, omega, t);
            Input::new(t, x, v)
        };
        let [k1, k2, k3, k4, zt] = &mut self.k;
        model.rates(inp, &self.z, &self.mem, k1);
        let mut lam: f64 = 0.0;
        for j in 0..ns {
            zt.copy_from_slice(&self.z);
            let dz = 1e-7 * self.z[j].abs().max(1e-9);
            zt[j] += dz;
            model.rates(inp, zt, &self.mem, k2);
            lam = lam.max(((k2[j] - k1[j]) / dz).abs());
        }
        let m = ((lam * dt / 0.5).ceil() as usize).clamp(1, 100_000);
        let h = dt / m as f64;
        for s in 0..m {
            let ta = t0 + s as f64 * h;
            let (ia, im, ib) = (at(ta), at(ta + 0.5 * h), at(ta + h));
            model.rates(&ia, &self.z, &self.mem, k1);
            for j in 0..ns {
                zt[j] = self.z[j] + 0.5 * h * k1[j];
            }
            model.rates(&im, zt, &self.mem, k2);
            for j in 0..ns {
                zt[j] = self.z[j] + 0.5 * h * k2[j];
            }
            model.rates(&im, zt, &self.mem, k3);
            for j in 0..ns {
                zt[j] = self.z[j] + h * k3[j];
            }
            model.rates(&ib, zt, &self.mem, k4);
            for j in 0..ns {
                self.z[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
            }
            model.accept(&ib, &mut self.z, &mut self.mem);
        }
    }

    /// The contact's linearisation along its periodic path, sample by
    /// sample, into `tan`: after [`ContactAft::eval`] has brought the
    /// memory or state to its periodic steady state, one more period is
    /// walked and, at each sample, the force's and (for a continuous-state
    /// model) the state rates' derivatives are taken by forward differences
    /// before the sample is accepted. The displacement is perturbed in the
    /// direction of the motion (a hysteresis element slipping backwards
    /// would stick again under a forward step): the tangent along the path.
    pub fn tangent(
        &mut self,
        model: &AnyModel,
        grid: &Grid,
        omega: f64,
        rel: &[f64],
        coef: &mut [f64],
        tan: &mut Tangent,
    ) {
        self.eval(model, grid, omega, rel, coef);
        let (n, ns) = (grid.n, self.z.len());
        let family = model.info().family;
        let period = 2.0 * std::f64::consts::PI / omega;
        let dt = period / n as f64;
        let p0 = self.periods as f64 * period;
        let xamp = self.x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let vamp = self.v.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let (hx, hv) = (1e-7 * xamp.max(1e-12), 1e-7 * vamp.max(1e-12));
        for i in 0..n {
            let [r0, r1, _, _, zt] = &mut self.k;
            let t0 = p0 + i as f64 * dt;
            let (x, v) = (self.x[i], self.v[i]);
            // the direction of the sampled path (the law steps from sample to
            // sample), the velocity's where the path does not move
            let step = x - self.x[(i + n - 1) % n];
            let sx = if step < 0.0 || (step == 0.0 && v < 0.0) { -hx } else { hx };
            let before = self.v[(i + n - 1) % n];
            tan.reversal[i] = (before > 0.0 && v <= 0.0) || (before < 0.0 && v >= 0.0);
            let inp = Input::new(t0, x, v);
            let f0 = model.force(&inp, &self.z, &self.mem);
            tan.kx[i] = (model.force(&Input::new(t0, x + sx, v), &self.z, &self.mem) - f0) / sx;
            tan.kv[i] = (model.force(&Input::new(t0, x, v + hv), &self.z, &self.mem) - f0) / hv;
            if family == Family::ContinuousState {
                model.rates(&inp, &self.z, &self.mem, r0);
                model.rates(&Input::new(t0, x + sx, v), &self.z, &self.mem, r1);
                for a in 0..ns {
                    tan.gx[i * ns + a] = (r1[a] - r0[a]) / sx;
                }
                model.rates(&Input::new(t0, x, v + hv), &self.z, &self.mem, r1);
                for a in 0..ns {
                    tan.gv[i * ns + a] = (r1[a] - r0[a]) / hv;
                }
                for b in 0..ns {
                    zt.copy_from_slice(&self.z);
                    let hz = 1e-7 * self.z[b].abs().max(1e-9);
                    zt[b] += hz;
                    tan.fz[i * ns + b] = (model.force(&inp, zt, &self.mem) - f0) / hz;
                    model.rates(&inp, zt, &self.mem, r1);
                    for a in 0..ns {
                        tan.gz[(i * ns + a) * ns + b] = (r1[a] - r0[a]) / hz;
                    }
                }
            }
            match family {
                Family::StaticMap => {}
                Family::ContinuousState => self.advance_state(model, grid, omega, rel, &inp, dt),
                _ => model.accept(&inp, &mut self.z, &mut self.mem),
            }
        }
        tan.k0 = 0.0;
        if tan.anchored {
            // the differences give a stuck stiffness to about 1e-9: snap
            // those within 1e-6 of the largest to the never-slipping k0, so
            // that a joint that never slips has kx - k0 = 0, not noise
            tan.k0 = tan.kx.iter().fold(f64::INFINITY, |m, k| m.min(*k));
            let tol = 1e-6 * tan.kx.iter().fold(0.0f64, |m, k| m.max(k.abs()));
            for k in &mut tan.kx {
                if (*k - tan.k0).abs() <= tol {
                    *k = tan.k0;
                }
            }
        }
    }
}

/// A contact's linearisation along its periodic path, one entry per sample
/// (from [`ContactAft::tangent`]):
///
/// ```text
/// static map:        δF = kx δx + kv δẋ
/// continuous state:  δF = kx δx + kv δẋ + fz·δz,   δż = gz δz + gx δx + gv δẋ
/// hysteresis:        δF = k0 δx + (kx - k0) (δx - δa) + kv δẋ,    δa = δx at the last reversal
/// ```
///
/// The last line is the linearisation of a Masing operator (Jenkins, Iwan,
/// Maxwell slip: elements in parallel, all stuck from each reversal until
/// each slips): between reversals the perturbed force follows the
/// elements still stuck, `kx` the sum of their stiffnesses, from the
/// displacement at the reversal, where every element that slipped sticks
/// again; `k0`, the least of `kx` over the period, is the elements that
/// never slip, plain springs whose anchor the perturbation leaves where it
/// was (the offset of a joint that never slips is not a motion that can
/// grow or decay, and harmonic balance fixes it at the mean displacement).
/// Exact for a Jenkins element and for a symmetric motion of Masing
/// elements.
#[derive(Debug, Clone)]
pub struct Tangent {
    /// Number of continuous states `ns` (0 for static maps and hysteresis).
    pub ns: usize,
    /// Whether the force is measured from the displacement at the last
    /// reversal (a hysteresis operator).
    pub anchored: bool,
    /// Whether the motion reverses between the previous sample and this one.
    pub reversal: Vec<bool>,
    /// `k0`: the least `kx` over the period (hysteresis) \[N/m\].
    pub k0: f64,
    /// `∂F/∂x` per sample \[N/m\].
    pub kx: Vec<f64>,
    /// `∂F/∂ẋ` per sample \[N s/m\].
    pub kv: Vec<f64>,
    /// `∂F/∂z` per sample, `ns` each.
    pub fz: Vec<f64>,
    /// `∂ż/∂z` per sample, `ns × ns` each, row-major.
    pub gz: Vec<f64>,
    /// `∂ż/∂x` per sample, `ns` each.
    pub gx: Vec<f64>,
    /// `∂ż/∂ẋ` per sample, `ns` each.
    pub gv: Vec<f64>,
}

impl Tangent {
    /// Whether the tangents at samples `i` and `j` are equal to 1e-6
    /// relative, entry by entry (the force stiffness `kx - k0` above the
    /// never-slipping part for a Masing operator). They are forward
    /// differences, so a joint that stays stuck gives its stiffness to
    /// about 1e-9, never the same bits from sample to sample; a relative
    /// change of 1e-6 in a tangent moves no verdict of the monodromy (its
    /// threshold on the exponents is 1e-6 ω).
    pub fn alike(&self, i: usize, j: usize) -> bool {
        let near = |a: f64, b: f64| (a - b).abs() <= 1e-6 * a.abs().max(b.abs());
        let ns = self.ns;
        let block = |v: &[f64], w: usize| {
            v[i * w..(i + 1) * w].iter().zip(&v[j * w..(j + 1) * w]).all(|(a, b)| near(*a, *b))
        };
        near(self.kx[i], self.kx[j])
            && near(self.kv[i], self.kv[j])
            && (!self.anchored || near(self.kx[i] - self.k0, self.kx[j] - self.k0))
            && block(&self.fz, ns)
            && block(&self.gx, ns)
            && block(&self.gv, ns)
            && block(&self.gz, ns * ns)
    }

    /// A tangent that is zero at every sample and carries no state: the
    /// 1-D part of a contact whose force is linearised elsewhere (a contact
    /// in a plane, [`super::planes::PlaneTangent`]).
    pub fn inert(n: usize) -> Self {
        Tangent {
            ns: 0,
            anchored: false,
            reversal: vec![false; n],
            k0: 0.0,
            kx: vec![0.0; n],
            kv: vec![0.0; n],
            fz: Vec::new(),
            gz: Vec::new(),
            gx: Vec::new(),
            gv: Vec::new(),
        }
    }

    /// Work arrays for `model` on a grid of `n` samples.
    pub fn new(model: &AnyModel, n: usize) -> Self {
        let ns = if model.info().family == Family::ContinuousState { model.n_states() } else { 0 };
        Tangent {
            ns,
            anchored: is_masing(model),
            reversal: vec![false; n],
            k0: 0.0,
            kx: vec![0.0; n],
            kv: vec![0.0; n],
            fz: vec![0.0; n * ns],
            gz: vec![0.0; n * ns * ns],
            gx: vec![0.0; n * ns],
            gv: vec![0.0; n * ns],
        }
    }
}

/// The hysteresis models that are Masing operators (elements in parallel,
/// each an elastic spring and a slider, every slipped element sticking
/// again where the motion reverses): their tangent along the path is
/// [`Tangent`]'s anchored form, which the monodromy
/// ([`super::floquet`]) steps and from which [`super::problem::Problem`]
/// takes their Jacobian block. The other hysteresis models (`bristle`,
/// whose bristles snap and re-attach; `hess_soom`, whose force lags the
/// velocity) are not: their Jacobian comes from differences and their
/// stability is not assessed.
pub const MASING: [&str; 4] = ["jenkins", "iwan4", "iwan5", "maxwell_slip"];

/// Whether `model` is one of the Masing operators [`MASING`] (their
/// Jacobian block in closed form, checked against differences also for a
/// Mignolet slider, θ < 1).
pub fn is_masing(model: &AnyModel) -> bool {
    MASING.contains(&model.info().id)
}

/// Whether `model` is a Masing operator of elastic-perfectly plastic
/// elements: `jenkins` and `iwan5` only with θ = 1. A Mignolet slider
/// (θ < 1) drops to θ times its strength when it breaks away: a jump of
/// the force along the path that the anchored tangent does not describe
/// (its stability is not assessed), and it is not passive
/// ([`super::floquet::passive`]).
pub fn is_perfectly_plastic(model: &AnyModel) -> bool {
    is_masing(model)
        && match model {
            AnyModel::Jenkins(m) => m.params().theta == 1.0,
            AnyModel::Iwan5(m) => m.params().theta == 1.0,
            _ => true,
        }
}

#[cfg(test)]
mod masing_tests {
    use super::*;
    use friction_sim::{build_model, ParamMap, ParamValue};

    /// Every model the list names is a Masing operator of elastic-perfectly
    /// plastic elements with its default parameters, and a Mignolet slider
    /// (θ < 1) is not.
    #[test]
    fn the_listed_models_are_masing_and_a_mignolet_slider_is_not_perfectly_plastic() {
        for id in MASING {
            let mut p = ParamMap::new();
            if id == "maxwell_slip" {
                let row = ParamValue::List(vec![ParamValue::Num(1e4), ParamValue::Num(1.0)]);
                p.insert("elements".into(), ParamValue::List(vec![row]));
            }
            let m = build_model(id, &p).unwrap();
            assert!(is_masing(&m) && is_perfectly_plastic(&m), "{id}");
        }
        let mut p = ParamMap::new();
        p.insert("theta".into(), ParamValue::Num(0.5));
        for id in ["jenkins", "iwan5"] {
            let m = build_model(id, &p).unwrap();
            assert!(is_masing(&m) && !is_perfectly_plastic(&m), "{id}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_sim::{build_model, ParamMap, ParamValue};
    use std::f64::consts::PI;

    fn model(id: &str, p: &[(&str, f64)]) -> AnyModel {
        let mut m = ParamMap::new();
        for (k, v) in p {
            m.insert(k.to_string(), ParamValue::Num(*v));
        }
        build_model(id, &m).unwrap()
    }

    /// `friction nnm` with an elasto-plastic joint failed with "Newton's
    /// method did not converge" at 1 µm, inside its elastic presliding: its
    /// state keeps the offset it starts with, so the evaluation over a
    /// period has no unique answer. Such models are refused with the reason.
    #[test]
    fn models_whose_presliding_state_keeps_its_offset_are_refused() {
        for id in ["elasto_plastic", "reset_integrator"] {
            let e = check_model("joint", &model(id, &[])).unwrap_err().to_string();
            assert!(e.contains("joint") && e.contains(id) && e.contains("dz/dx = 1"), "{e}");
        }
        for id in ["lugre", "dahl", "bouc_wen"] {
            assert!(check_model("joint", &model(id, &[])).is_ok(), "{id}");
        }
    }

    /// `friction nnm` reported a Dahl, LuGre or Bouc-Wen joint's structure
    /// "stuck" at the frequency it has without the joint: the rest stiffness
    /// of a continuous-state model was taken as 0. It is σ0 (Dahl, LuGre),
    /// kj A (Bouc-Wen), kt (Jenkins), and 0 for a static map.
    #[test]
    fn continuous_state_models_are_stiff_at_rest() {
        for (id, p, k) in [
            ("dahl", vec![("sigma0", 3e5), ("fc", 1.0)], 3e5),
            ("lugre", vec![("sigma0", 2e5), ("sigma1", 50.0), ("fc", 1.0), ("fs", 1.2)], 2e5),
            ("bouc_wen", vec![("k", 1e5), ("a", 2.0), ("beta", 1e4), ("gamma", 1e4), ("n", 1.0)], 2e5),
            ("jenkins", vec![("kt", 4e4), ("fs", 1.0)], 4e4),
            ("coulomb_tanh", vec![], 0.0),
        ] {
            let got = initial_stiffness(&model(id, &p));
            assert!((got - k).abs() <= 1e-3 * k.max(1.0), "{id}: {got} vs {k}");
        }
    }

    /// The first harmonic of a Jenkins element (elastic-perfectly-plastic,
    /// θ = 1) under x = A cos τ, against Caughey's closed form (1960, the
    /// bilinear hysteretic describing function): with cos β = 1 - 2 xs/A,
    /// xs = φ/kt, the in-phase part is (kt A/π)(β - sin(2β)/2) and the
    /// quadrature part is minus the dissipation per cycle 4 φ (A - xs) over
    /// π A (the models' force opposes the motion, so ∫ F dx = -π A b1 > 0).
    #[test]
    fn jenkins_first_harmonic_is_the_bilinear_describing_function() {
        let (kt, fs) = (1e5, 1.0);
        let m = model("jenkins", &[("kt", kt), ("fs", fs)]);
        let grid = Grid::new(1, 4096);
        let mut aft = ContactAft::new(&m, &grid);
        for a in [0.5e-5, 1.2e-5, 3e-5, 1e-4, 1e-3] {
            let mut out = [0.0; 3];
            aft.eval(&m, &grid, 2.0 * PI * 10.0, &[0.0, a, 0.0], &mut out);
            let xs = fs / kt;
            let (inphase, quad) = if a <= xs {
                (kt * a, 0.0)
            } else {
                let beta = (1.0 - 2.0 * xs / a).acos();
                (kt * a / PI * (beta - (2.0 * beta).sin() / 2.0), -4.0 * fs * (a - xs) / (PI * a))
            };
            // x = A cos τ, ẋ ∝ -sin τ: F (along the motion) dissipates
            // ∫ F dx = -π A b1 > 0, so the sin τ part is negative
            assert!((out[1] - inphase).abs() <= 2e-4 * kt * a, "A = {a}: {} vs {inphase}", out[1]);
            assert!((out[2] - quad).abs() <= 2e-4 * fs, "A = {a}: {} vs {quad}", out[2]);
            assert!(aft.settled && aft.periods <= 3, "{}", aft.periods);
        }
    }

    /// A Dahl model's state settles to a periodic loop, and the loop
    /// dissipates energy: under x = A cos τ the dissipated work per cycle
    /// ∫ F dx is -π A b1 (F is the models' force, along the motion), which
    /// must be positive.
    #[test]
    fn dahl_settles_to_a_dissipating_periodic_loop() {
        let m = model("dahl", &[]);
        let grid = Grid::new(3, 512);
        let mut aft = ContactAft::new(&m, &grid);
        let mut out = [0.0; 7];
        aft.eval(&m, &grid, 2.0 * PI * 5.0, &[0.0, 1e-4, 0.0, 0.0, 0.0, 0.0, 0.0], &mut out);
        assert!(aft.settled, "periods {}", aft.periods);
        // dissipated energy per cycle = -π A b1 > 0 for x = A cos τ
        assert!(out[2] < 0.0, "{out:?}");
    }

    /// A set-valued model other than `coulomb` (here Karnopp) is refused
    /// by name, with the reason; `coulomb` is accepted (dynamic Lagrangian AFT).
    #[test]
    fn karnopp_with_true_stick_is_refused_with_the_reason() {
        let e = check_model("joint", &model("karnopp", &[])).unwrap_err().to_string();
        assert!(e.contains("joint") && e.contains("karnopp") && e.contains("set-valued"), "{e}");
        assert!(check_model("joint", &model("coulomb", &[])).is_ok());
    }
}
