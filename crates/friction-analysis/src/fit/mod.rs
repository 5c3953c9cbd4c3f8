//! Parameter identification: fit any model of the registry to measured
//! friction forces under a measured motion, with standard errors and 95 %
//! confidence intervals.
//!
//! # Problem
//! ```text
//! data       t_i, x_i and/or v_i, F_i (optionally N_i),  i = 1..n
//! model      F̂_i(p) = N_i · F_model(p; motion up to t_i)     (N_i = 1 without an N column)
//! estimate   p̂ = argmin Σ (F̂_i(p) - F_i)²  over the free parameters, inside their valid ranges
//! errors     Cov(p̂) = s² (JᵀJ)⁻¹,  s² = Σ r_i² / (n - m),  J = ∂F̂/∂p at p̂   (m free parameters)
//! CI 95 %    p̂_j ± t(0.975, n - m) · se_j,  se_j = sqrt(Cov_jj)    (clipped to the valid range)
//! ```
//! The force convention is the models' ([`friction_models::Input`]): `F`
//! opposes the motion, positive while sliding forward (`v > 0`). A force
//! measured on the moving body is `-F`; negate it before fitting. With an
//! `N` column the model force is multiplied by the normal load, so the fitted
//! force parameters are per unit normal load (friction coefficients).
//!
//! # How the model force is computed
//! - models without state or memory (static maps, the sliding curve of
//!   set-valued models, wrappers of them): `F_i = N_i F(t_i, x_i, v_i)`
//!   directly, with the measured velocity (or the central difference of `x`);
//!   no ODE is solved. A set-valued model at exactly `v = 0` gives 0, as a
//!   driven contact without a body does in the engine.
//! - rate-independent hysteresis operators (`maxwell_slip`, `jenkins`,
//!   `iwan4`, `iwan5`): the operator is stepped from sample to sample
//!   ([`FrictionModel::force`](friction_models::FrictionModel::force), then [`FrictionModel::accept`](friction_models::FrictionModel::accept)). Between
//!   samples the motion is taken linear, so this is exact.
//! - every other model: [`friction_sim::drive::drive`], the engine driving
//!   the contact along `x(t)` linear between samples (times shifted to start
//!   at 0), with [`DriveSettings`](friction_sim::drive::DriveSettings). If the engine fails with
//!   `method = auto` (the implicit solvers fail on the switching element
//!   rates of `gms`), the run is repeated with the explicit `tsit45`.
//!
//! # Parameters, bounds and transforms
//! Fitted parameters are the real parameters of the model (by name, e.g.
//! `fc`) and, for models with element rows (`maxwell_slip`, `gms`), the row
//! entries named `elements[i].k`, `elements[i].fmax` (the number of elements
//! is fixed: set it with initial values or [`FitOptions::elements`]). The GMS
//! fractions `elements[i].alpha` must sum to 1 and are never fitted.
//! Integer, choice, boolean and inner-model parameters are held.
//!
//! Free by default: every such real parameter not in [`FitOptions::fix`]
//! whose starting value is not on a closed bound of its range (so `kv = 0`
//! of `stribeck` is held at 0 unless freed or given a positive start) and
//! that changes the force at the start (a parameter of an unused Stribeck
//! shape is held, with a note). A parameter named in [`FitOptions::free`]
//! that does not affect the force is an error naming it.
//!
//! The search runs in transformed coordinates θ that keep every parameter
//! inside its valid range ([`friction_models::Range`]):
//! `p = lo + e^θ` for ranges `(lo, inf)` (a log scale for positive scale
//! parameters), `p = hi - e^θ` for `(-inf, hi)`, the logistic
//! `p = lo + (hi - lo)/(1 + e^-θ)` for finite ranges, `p = θ` for unbounded
//! ones. Force parameters (unit `N`) are also boxed to
//! `[1e-6, 100] · max|F/N|` of the data (projected LM in θ). Standard errors
//! and intervals are given for the parameters themselves (delta method:
//! `J_p = J_θ / (dp/dθ)`), not for θ.
//!
//! The Jacobian is by forward finite differences ([`crate::lm`]); the
//! engine's adjoint/forward sensitivities are not used (they are not exposed
//! by `friction_sim::drive`, and the hysteresis operators' discrete memory
//! would need event sensitivities).

//!
//! # Files
//! - `evaluate.rs`: the model force along the data (evaluators, motion);
//! - `slots.rs`: free parameters and their transforms;
//! - `guess.rs`: the data-informed starting point;
//! - `result.rs`: options, progress, results and their JSON;
//! - this file: the fit itself (starts, Levenberg-Marquardt, statistics,
//!   identifiability).

use friction_models::{build, Family, ParamKind, ParamMap, ParamValue};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::data::{Series, MIN_SAMPLES};
use crate::error::AnalysisError;
use crate::lm::{self, LmProgress};

mod evaluate;
mod guess;
mod result;
mod slots;

pub(crate) use evaluate::model_info;
pub use evaluate::{model_force, parse_params, state_tolerance, Evaluator, Motion, SEQUENTIAL_MODELS};
pub use guess::initial_guess;
use result::percentile;
pub use result::{param_map_json, FitOptions, FitParam, FitProgress, FitResult, Validation};
pub use slots::Transform;
pub(crate) use slots::{candidate_slots, Slot};

/// The smallest singular value of the unit-column Jacobian at the optimum
/// below which the parameters are declared not identifiable (a variance
/// inflation above 1000: two parameters whose effects on the force have a
/// cosine above 0.999).
pub const MIN_SINGULAR_VALUE: f64 = 0.0316;

/// Fit the parameters of a model to a data series; see the module docs.
///
/// ```
/// use friction_analysis::{data::Series, fit::{fit, FitOptions}};
/// // exact Coulomb-viscous data F = 1.5 sign(v) + 0.3 v, plus a small deterministic ripple
/// let t: Vec<f64> = (0..50).map(|i| i as f64 * 0.1).collect();
/// let v: Vec<f64> = t.iter().map(|t| (1.3 * t).sin()).collect();
/// let f: Vec<f64> = v.iter().enumerate()
///     .map(|(i, v)| 1.5 * v.signum() + 0.3 * v + 0.01 * (i as f64 * 2.1).sin()).collect();
/// let s = Series::new("demo", t, None, Some(v), Some(f), None).unwrap();
/// let opts = FitOptions {
///     model: "coulomb_tanh".into(),
///     init: friction_analysis::fit::parse_params("coulomb_tanh", "kv=0.1").unwrap(), // kv = 0 would be held
///     fix: vec!["ktanh".into()],
///     ..Default::default()
/// };
/// let r = fit(&s, &opts, None).unwrap();
/// let fc = r.param("fc").unwrap();
/// assert!((fc.value - 1.5).abs() < 0.02 && fc.ci95[0] < fc.value && fc.value < fc.ci95[1]);
/// ```
pub fn fit(
    series: &Series,
    opts: &FitOptions,
    progress: Option<&(dyn Fn(&FitProgress) + Sync)>,
) -> Result<FitResult, AnalysisError> {
    let mi = model_info(&opts.model)?;
    let id = mi.id;
    if mi.family == Family::Wrapper && (opts.init.keys().any(|k| k.starts_with("inner."))) {
        return Err(AnalysisError::Model(format!(
            "{id}: fitting the inner model's parameters is not supported"
        )));
    }
    let Some(f_all) = series.f.clone() else {
        return Err(AnalysisError::Data {
            file: series.source.clone(),
            line: Some(1),
            message: "no force column `F`: there is nothing to fit".into(),
        });
    };
    let motion_all = Motion::from_series(series)?;
    // the fitted part
    let n_fit = match opts.validate_from {
        Some(tv) => {
            let k = series.t.iter().take_while(|t| **t < tv).count();
            if series.len() - k < 2 {
                return Err(AnalysisError::Data {
                    file: series.source.clone(),
                    line: None,
                    message: format!(
                        "--validate-from {tv}: {} samples at t >= {tv}; at least 2 are needed (data end at t = {})",
                        series.len() - k,
                        series.t[series.len() - 1]
                    ),
                });
            }
            k
        }
        None => series.len(),
    };
    if n_fit < MIN_SAMPLES {
        return Err(AnalysisError::Data {
            file: series.source.clone(),
            line: None,
            message: format!("{n_fit} samples to fit; at least {MIN_SAMPLES} are needed"),
        });
    }
    let motion = motion_all.head(n_fit);
    let f_data = f_all[..n_fit].to_vec();

    // starting map: user values, then guesses, then defaults
    let mut start = ParamMap::new();
    if opts.guess {
        // guesses only for parameters that will be fitted
        start = initial_guess(id, series, opts.elements);
        start.retain(|k, _| {
            let named = |list: &[String]| list.iter().any(|f| f == k || f.starts_with(&format!("{k}[")));
            !named(&opts.fix) && opts.free.as_ref().is_none_or(|free| named(free) || k == "elements")
        });
    }
    if opts.init.contains_key("elements") {
        start.remove("elements");
    }
    for (k, v) in &opts.init {
        start.insert(k.clone(), v.clone());
    }
    // a guess may violate a cross-parameter constraint (e.g. fs >= fc): fall back per key
    if build(id, &start).is_err() {
        let mut repaired = opts.init.clone();
        for (k, v) in &start {
            if repaired.contains_key(k) {
                continue;
            }
            let mut trial = repaired.clone();
            trial.insert(k.clone(), v.clone());
            if build(id, &trial).is_ok() {
                repaired = trial;
            }
        }
        start = repaired;
    }
    // fill defaults of every real parameter so that slots can read them
    for spec in mi.params {
        if let ParamKind::Real { default: Some(d), .. } = spec.kind {
            start.entry(spec.name.to_string()).or_insert(ParamValue::Num(d));
        }
    }
    let model0 = build(id, &start)?;
    let evaluator = Evaluator::for_model(&model0);
    let mut lm_opts = opts.lm.clone();
    lm_opts.fd_step = opts.fd_step.unwrap_or(if evaluator == Evaluator::Engine { 1e-3 } else { 1e-6 });
    let mut drive_settings = opts.drive.clone();
    if evaluator == Evaluator::Engine && opts.auto_tolerance {
        drive_settings.rtol = 1e-8;
        drive_settings.atol_state = state_tolerance(&model0, &motion, &opts.drive, 1e-10);
    }
    let drive_settings = &drive_settings;

    // choose the free parameters
    let cands = candidate_slots(mi, &start);
    let all_names: Vec<String> = cands.iter().map(|c| c.0.name.clone()).collect();
    let matches = |pattern: &str, name: &str| {
        name == pattern || name.strip_prefix(pattern).is_some_and(|rest| rest.starts_with('['))
    };
    let check_names = |list: &[String], what: &str| -> Result<(), AnalysisError> {
        for k in list {
            if !all_names.iter().any(|n| matches(k, n)) {
                return Err(AnalysisError::Model(format!(
                    "{id}: {what} `{k}` is not an adjustable parameter; adjustable: {}",
                    all_names.join(", ")
                )));
            }
        }
        Ok(())
    };
    check_names(&opts.fix, "--fix")?;
    let explicit = opts.free.is_some();
    if let Some(free) = &opts.free {
        check_names(free, "--free")?;
        for k in free {
            if k.ends_with(".alpha") {
                return Err(AnalysisError::Model(format!(
                    "gms: `{k}`: the element fractions alpha must sum to 1 and cannot be fitted; free the stiffnesses elements[i].k"
                )));
            }
        }
    }
    let mut slots = vec![];
    let mut held = vec![];
    for (s, at_bound) in cands {
        let fixed = opts.fix.iter().any(|k| matches(k, &s.name));
        let free = match &opts.free {
            Some(list) => list.iter().any(|k| matches(k, &s.name)) && !fixed,
            None => !fixed && !at_bound,
        };
        if free && !s.name.ends_with(".alpha") {
            slots.push(s);
        } else if let Some(x) = s.get(&start) {
            held.push((s.name.clone(), x));
        }
    }
    if slots.is_empty() {
        return Err(AnalysisError::Model(format!("{id}: no parameter left to fit")));
    }

    // data box for force parameters, θ box
    let fscale = percentile(
        f_data
            .iter()
            .enumerate()
            .map(|(i, f)| (f / motion.n.as_ref().map_or(1.0, |n| n[i].max(1e-300))).abs())
            .collect(),
        1.0,
    );
    for s in &mut slots {
        let (mut blo, mut bhi) = (s.lo, s.hi);
        if s.unit == "N" && fscale > 0.0 {
            blo = blo.max(1e-6 * fscale);
            bhi = bhi.min(100.0 * fscale);
        }
        s.set_box(blo, bhi);
    }
    let mut theta0: Vec<f64> = slots.iter().map(|s| s.theta_start(s.get(&start).unwrap_or(1.0))).collect();

    let map_of = |th: &[f64]| -> ParamMap {
        let mut m = start.clone();
        for (s, t) in slots.iter().zip(th) {
            s.set(&mut m, s.tr.to_param(*t));
        }
        m
    };
    let residuals = |th: &[f64]| -> Option<Vec<f64>> {
        let model = build(id, &map_of(th)).ok()?;
        let fm = model_force(&model, &motion, drive_settings).ok()?;
        Some(fm.iter().zip(&f_data).map(|(a, b)| a - b).collect())
    };
    let r0 = match residuals(&theta0) {
        Some(r) => r,
        None => {
            // report why
            let model = build(id, &map_of(&theta0))?;
            model_force(&model, &motion, drive_settings)?;
            return Err(AnalysisError::Model(format!("{id}: the model cannot be evaluated at the start")));
        }
    };
    // parameters without any effect at the start
    let hi: Vec<f64> = slots.iter().map(|s| s.th_hi).collect();
    lm_opts.fd_scale = Some(
        slots
            .iter()
            .zip(&theta0)
            .map(|(s, t)| if s.tr == Transform::Identity && *t != 0.0 { t.abs() } else { 1.0 })
            .collect(),
    );
    let mut j0 =
        lm::jacobian(&residuals, &theta0, &r0, &hi, &lm_opts).map_err(|e| lm_error(id, &slots, e))?;
    let fnorm = f_data.iter().map(|f| f * f).sum::<f64>().sqrt().max(1e-300);
    let mut notes = vec![];
    let mut keep = vec![];
    for (j, s) in slots.iter().enumerate() {
        let effect = j0.column(j).norm() * lm_opts.fd_step;
        if effect <= 1e-13 * fnorm {
            if explicit {
                return Err(AnalysisError::Model(format!(
                    "{id}: parameter `{}` does not affect the force with these data ({}); it cannot be identified: fix it (--fix {})",
                    s.name,
                    why_no_effect(mi.family, series),
                    s.name
                )));
            }
            notes.push(format!("`{}` held: it does not affect the force with these data", s.name));
        } else {
            keep.push(j);
        }
    }
    if keep.len() < slots.len() {
        for (j, s) in slots.iter().enumerate() {
            if !keep.contains(&j) {
                held.push((s.name.clone(), s.get(&start).unwrap_or(f64::NAN)));
            }
        }
        slots = keep.iter().map(|&j| slots[j].clone()).collect();
        theta0 = keep.iter().map(|&j| theta0[j]).collect();
        j0 = j0.select_columns(&keep);
        let scale = lm_opts.fd_scale.take().unwrap_or_default();
        lm_opts.fd_scale = Some(keep.iter().map(|&j| scale[j]).collect());
        if slots.is_empty() {
            return Err(AnalysisError::Model(format!(
                "{id}: no parameter affects the force with these data ({})",
                why_no_effect(mi.family, series)
            )));
        }
    }
    let m = slots.len();
    if n_fit <= m {
        return Err(AnalysisError::Data {
            file: series.source.clone(),
            line: None,
            message: format!(
                "{n_fit} samples for {m} free parameters; more samples than parameters are needed"
            ),
        });
    }
    let lo: Vec<f64> = slots.iter().map(|s| s.th_lo).collect();
    let hi: Vec<f64> = slots.iter().map(|s| s.th_hi).collect();
    let map_of = |th: &[f64]| -> ParamMap {
        let mut m = start.clone();
        for (s, t) in slots.iter().zip(th) {
            s.set(&mut m, s.tr.to_param(*t));
        }
        m
    };
    let residuals = |th: &[f64]| -> Option<Vec<f64>> {
        let model = build(id, &map_of(th)).ok()?;
        let fm = model_force(&model, &motion, drive_settings).ok()?;
        Some(fm.iter().zip(&f_data).map(|(a, b)| a - b).collect())
    };

    // starts
    let starts = opts.starts.max(1);
    let mut thetas = vec![theta0.clone()];
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    for _ in 1..starts {
        let th: Vec<f64> = slots
            .iter()
            .zip(&theta0)
            .map(|(s, t)| {
                let u: f64 = rng.random_range(-1.0..1.0);
                let d = match s.tr {
                    Transform::Log { .. } | Transform::NegLog { .. } => u * 3f64.ln(),
                    Transform::Logistic { .. } => u,
                    Transform::Identity => 0.5 * u * t.abs().max(1e-12),
                };
                (t + d).clamp(s.th_lo, s.th_hi)
            })
            .collect();
        thetas.push(th);
    }
    let results: Vec<Result<lm::LmResult, lm::LmError>> = thetas
        .par_iter()
        .enumerate()
        .map(|(k, th)| {
            let cb = |p: &LmProgress| {
                if let Some(pr) = progress {
                    pr(&FitProgress {
                        start: k,
                        starts,
                        iteration: p.iteration,
                        rms: (p.ssr / n_fit as f64).sqrt(),
                    });
                }
            };
            // the first start begins where the residuals and Jacobian are known
            let known = (k == 0).then(|| (r0.clone(), j0.clone()));
            lm::minimize_from(&residuals, th, known, &lo, &hi, &lm_opts, Some(&cb))
        })
        .collect();
    let evaluations: usize = results.iter().filter_map(|r| r.as_ref().ok()).map(|r| r.evaluations).sum();
    let mut best: Option<(usize, lm::LmResult)> = None;
    let mut first_err = None;
    for (k, r) in results.into_iter().enumerate() {
        match r {
            Ok(r) => {
                if best.as_ref().is_none_or(|b| r.ssr < b.1.ssr) {
                    best = Some((k, r));
                }
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    let Some((best_start, res)) = best else {
        return Err(lm_error(id, &slots, first_err.unwrap_or(lm::LmError::InitialPoint)));
    };

    // statistics in the natural parameters: J_p = J_θ / (dp/dθ)
    let dpdth: Vec<f64> = slots.iter().zip(&res.theta).map(|(s, t)| s.tr.dp_dtheta(*t)).collect();
    let mut jp = res.jacobian.clone();
    for j in 0..m {
        let c = jp.column(j) / dpdth[j];
        jp.set_column(j, &c);
    }
    let at = || -> String {
        let at: Vec<String> = slots
            .iter()
            .zip(&res.theta)
            .map(|(s, t)| format!("{}={:.4e}", s.name, s.tr.to_param(*t)))
            .collect();
        format!(
            " (at the end point of the search: {}, rms {:.4e} N; if these values are implausible, \
             give starting values with --params-init or try --starts N)",
            at.join(", "),
            (res.ssr / n_fit as f64).sqrt()
        )
    };
    let (cov, min_sv) = lm::covariance(&jp, res.ssr, MIN_SINGULAR_VALUE).map_err(|(v, _)| {
        AnalysisError::Model(format!("{}{}", not_identifiable(id, &slots, &v, series, mi.family), at()))
    })?;
    let dof = n_fit - m;
    let tq = lm::t_quantile(0.975, dof as f64);
    // a positive scale parameter whose 95 % interval reaches its bound is not determined
    for (j, s) in slots.iter().enumerate() {
        let se = cov[(j, j)].max(0.0).sqrt();
        let p = s.tr.to_param(res.theta[j]);
        if let Transform::Log { lo } = s.tr {
            if tq * se >= p - lo {
                return Err(AnalysisError::Model(format!(
                    "{id}: parameter `{}` is not determined by these data: {} = {p:.4e} ± {se:.3e} {}, its 95 % \
                     interval reaches the bound {lo} ({}); fix it at a known value (--fix {} with --params-init){}",
                    s.name,
                    s.name,
                    s.unit,
                    why_no_effect(mi.family, series),
                    s.name,
                    at()
                )));
            }
        }
    }
    let values: Vec<f64> = slots.iter().zip(&res.theta).map(|(s, t)| s.tr.to_param(*t)).collect();
    let params: Vec<FitParam> = slots
        .iter()
        .enumerate()
        .map(|(j, s)| {
            let se = cov[(j, j)].max(0.0).sqrt();
            let (a, b) = (values[j] - tq * se, values[j] + tq * se);
            FitParam {
                name: s.name.clone(),
                unit: s.unit.to_string(),
                value: values[j],
                stderr: se,
                ci95: [a.max(s.lo), b.min(s.hi)],
            }
        })
        .collect();
    let correlation: Vec<Vec<f64>> =
        (0..m).map(|a| (0..m).map(|b| cov[(a, b)] / (cov[(a, a)] * cov[(b, b)]).sqrt()).collect()).collect();
    let param_map = map_of(&res.theta);
    let model = build(id, &param_map)?;
    let f_fit = if n_fit < series.len() {
        model_force(&model, &motion_all, drive_settings)?
    } else {
        res.residuals.iter().zip(&f_data).map(|(r, f)| r + f).collect()
    };
    let validation = opts.validate_from.map(|from| {
        let nv = series.len() - n_fit;
        let ss: f64 = (n_fit..series.len()).map(|i| (f_fit[i] - f_all[i]).powi(2)).sum();
        Validation { from, n: nv, rms: (ss / nv as f64).sqrt() }
    });
    held.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(FitResult {
        model: id.to_string(),
        params,
        held,
        notes,
        param_map,
        rms: (res.ssr / n_fit as f64).sqrt(),
        n: n_fit,
        dof,
        correlation,
        min_singular_value: min_sv,
        iterations: res.iterations,
        evaluations,
        converged: res.stop.converged(),
        stop: format!("{:?}", res.stop),
        best_start,
        starts,
        validation,
        evaluator,
        t: series.t.clone(),
        x: motion_all.x.clone(),
        v: motion_all.v.clone(),
        f_data: f_all,
        f_fit,
    })
}

fn why_no_effect(family: Family, s: &Series) -> String {
    let motion = if s.x.is_some() { "displacement" } else { "velocity (integrated to a displacement)" };
    match family {
        Family::StaticMap | Family::SetValued => "the speeds in the data do not exercise it".to_string(),
        _ => format!("the {motion} in the data does not exercise it"),
    }
}

fn lm_error(id: &str, slots: &[Slot], e: lm::LmError) -> AnalysisError {
    match e {
        lm::LmError::InitialPoint => {
            AnalysisError::Model(format!("{id}: the model cannot be evaluated at the start"))
        }
        lm::LmError::Jacobian { index } => AnalysisError::Model(format!(
            "{id}: the model cannot be evaluated near `{}`; its sensitivity is undefined there",
            slots[index].name
        )),
    }
}

/// The error for a rank-deficient Jacobian with null direction `v`.
fn not_identifiable(id: &str, slots: &[Slot], v: &[f64], s: &Series, family: Family) -> AnalysisError {
    let big: Vec<usize> = (0..v.len()).filter(|&j| v[j].abs() > 0.2).collect();
    if big.len() == 1 {
        let name = &slots[big[0]].name;
        AnalysisError::Model(format!(
            "{id}: parameter `{name}` cannot be identified: it has (almost) no effect on the force with these data ({}); fix it (--fix {name})",
            why_no_effect(family, s)
        ))
    } else {
        let names: Vec<String> = big.iter().map(|&j| format!("`{}`", slots[j].name)).collect();
        AnalysisError::Model(format!(
            "{id}: parameters {} cannot be identified separately: only a combination of them affects the force with these data; fix all but one of them (--fix)",
            names.join(", ")
        ))
    }
}
