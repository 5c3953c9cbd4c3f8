//! Nonlinear modes by the extended periodic motion concept (Krack 2015,
//! "Nonlinear modal analysis of nonconservative systems: extension of the
//! periodic motion concept", Computers & Structures 154, eq. 5 to 9).
//!
//! A mass-proportional negative damping term makes the damped free motion
//! periodic; the harmonic balance of that motion, at a prescribed amplitude
//! and phase of one body, gives the mode's frequency and the damping the
//! term had to cancel:
//!
//! ```text
//! M ẍ + (C - ξ M) ẋ + K x + Σ_c B_c N_c F_c(x_rel, ẋ_rel) = f0        (periodic, period 2π/ω)
//! unknowns: harmonics of every body, ω, ξ
//! amplitude and phase: fundamental of body b = A cos ωt  (a_1,b = A, b_1,b = 0)
//! modal damping ratio   ζ = ξ / (2 ω)
//! energy per cycle      E = ξ ∮ ẋᵀ M ẋ dt = ξ π ω Σ_k k² (a_kᵀ M a_k + b_kᵀ M b_k)
//! ```
//!
//! For a linear structure with proportional damping `C = αM + βK` the
//! mode is the linear one and `ξ = α + β ω²` exactly. The backbone starts
//! from the linearised mode with every contact stuck (its initial
//! stiffness, [`Structure::stuck_stiffness`]) and follows the amplitudes in
//! the given order, each solved by Newton's method from the previous one
//! (the step in amplitude halved where that fails, `advance`).
//!
//! A `coulomb` contact (true stick) has no initial stiffness: loaded at
//! rest, it holds its members together, and the stuck mode is the
//! constrained one (`super::stuck_mode`). Its force is kept exact by
//! the dynamic Lagrangian method (`super::dlft`), which takes the force the
//! rest of the balance asks of it, `-ξ M ẋ` included: the column `∂r/∂ξ` is
//! then taken by differences, and each amplitude is predicted by a secant
//! through the last two solutions.
//!
//! A structure of more than [`super::condensed::CONDENSE_ABOVE`] DOFs is
//! balanced condensed onto its contacts' DOFs and the prescribed body, as
//! the frequency response is (`NnmOptions::condense`;
//! `super::condensed_nnm`): where the damping is diagonal in the modes
//! (Rayleigh, modal, none) the fictitious damping is too, so the
//! condensation is exact, and the energy per cycle still counts every DOF;
//! elsewhere the full balance is kept.
//!
//! A harmonic of the motion that meets another mode (`k ω ≈ ω_j`, an
//! internal resonance) makes the backbone turn or branch; Newton's method
//! at prescribed amplitudes stops there, and its error names the last point
//! and its largest higher harmonic.

use std::f64::consts::PI;

use friction_sim::System;
use nalgebra::{DMatrix, DVector};
use serde::Serialize;

use super::budget::{self, largest, Estimate, Limits, Phase};
use super::epmc::{advance, polish, Epmc};
use super::problem::Problem;
use super::structure::Structure;
use super::stuck_mode::{stuck_mode, StuckConstraints};
use friction_analysis::AnalysisError;

/// The linear modes of `(K, M)` (in `super::stuck_mode`, where the stuck mode is found).
pub use super::stuck_mode::linear_modes;

/// Settings of [`nnm`].
#[derive(Debug, Clone)]
pub struct NnmOptions {
    /// The body whose fundamental amplitude is prescribed; `None`: the body
    /// that moves most in the linearised mode.
    pub body: Option<String>,
    /// The mode, 1-based in ascending linear frequency (default 1).
    pub mode: usize,
    /// Fundamental amplitudes of the body \[m\], in the order followed
    /// (each > 0); empty: [`default_amplitudes`] from the stuck linear mode.
    pub amplitudes: Vec<f64>,
    /// Number of harmonics H (default 5).
    pub harmonics: usize,
    /// Time samples per period; `None`: `max(256, 8 (2H + 1))`.
    pub samples: Option<usize>,
    /// Whether to condense the linear part onto the contacts' DOFs and the
    /// prescribed body (`super::condensed_nnm`): `None` (default) above
    /// [`super::condensed::CONDENSE_ABOVE`] DOFs when it can be,
    /// `Some(true)` whenever it can be, `Some(false)` never (as
    /// `FrfOptions::condense`).
    pub condense: Option<bool>,
}

impl Default for NnmOptions {
    fn default() -> Self {
        NnmOptions {
            body: None,
            mode: 1,
            amplitudes: vec![1e-6],
            harmonics: 5,
            samples: None,
            condense: None,
        }
    }
}

/// One point of a backbone.
#[derive(Debug, Clone, Serialize)]
pub struct NnmPoint {
    /// Fundamental amplitude of the prescribed body \[m\].
    pub amplitude: f64,
    /// Frequency \[Hz\].
    pub f: f64,
    /// Modal damping ratio ζ = ξ/(2ω).
    pub zeta: f64,
    /// The mass-proportional damping ξ \[1/s\].
    pub xi: f64,
    /// Energy dissipated per cycle \[J\].
    pub energy_per_cycle: f64,
    /// Fourier coefficients of every body (2H + 1 each, body after body;
    /// condensed, of the retained DOFs, [`Nnm::bodies`]) \[m\].
    pub coefficients: Vec<f64>,
}

/// A backbone (nonlinear mode against amplitude) and how it was computed.
#[derive(Debug, Clone, Serialize)]
pub struct Nnm {
    /// Body names (condensed: the retained DOFs').
    pub bodies: Vec<String>,
    /// The DOFs of the structure when its linear part was condensed onto
    /// `bodies` (`super::condensed_nnm`), `None` when it was not.
    pub condensed_from: Option<usize>,
    /// The body whose amplitude is prescribed.
    pub body: String,
    /// The mode (1-based).
    pub mode: usize,
    /// Harmonics H.
    pub harmonics: usize,
    /// Samples per period.
    pub samples: usize,
    /// Linear frequency of the mode with every contact stuck \[Hz\].
    pub linear_f: f64,
    /// Linear modal damping ratio with every contact stuck, `φᵀCφ / (2 ω φᵀMφ)`.
    pub linear_zeta: f64,
    /// The mode shape with every contact stuck, 1 at the prescribed body
    /// (of `bodies`).
    pub linear_shape: Vec<f64>,
    /// The points, one per amplitude.
    pub points: Vec<NnmPoint>,
}

/// What a failed backbone says of its last point: its amplitude and
/// frequency, and its largest higher harmonic of body `b` against the
/// fundamental. A harmonic k near another mode (k ω ≈ ω_j: the benchmark's
/// fixed-free bar has its free modes at 1:3:5, so its third harmonic meets
/// the second mode as the joints slip) grows steeply before the failure:
/// the backbone turns or branches there (an internal resonance), which
/// Newton's method at prescribed amplitudes cannot follow.
fn last_point(p: &NnmPoint, b: usize, l: usize, h: usize) -> String {
    let c = &p.coefficients[b * l..(b + 1) * l];
    let amp = |k: usize| c[2 * k - 1].hypot(c[2 * k]);
    let top = (2..=h).max_by(|&i, &j| amp(i).total_cmp(&amp(j)));
    let share = top.map_or(String::new(), |k| {
        format!(
            ", its harmonic {k} {:.1} % of the fundamental; a harmonic that grows steeply toward the failure \
             meets another mode (an internal resonance, where the backbone turns or branches): give fewer \
             --harmonics or stop the amplitudes below it",
            100.0 * amp(k) / amp(1)
        )
    });
    format!("; the last point converged at {:e} m, {:.4} Hz{share}", p.amplitude, p.f)
}

fn samples_for(opts: &NnmOptions) -> usize {
    opts.samples.unwrap_or(256).max(8 * (2 * opts.harmonics + 1))
}

fn check(opts: &NnmOptions, s: &Structure) -> Result<(), AnalysisError> {
    let bad = |m: String| Err(AnalysisError::Model(m));
    if !(1..=s.dofs()).contains(&opts.mode) {
        return bad(format!(
            "--mode = {} is out of range; valid range [1, {}] (the bodies)",
            opts.mode,
            s.dofs()
        ));
    }
    if !(1..=256).contains(&opts.harmonics) {
        return bad(format!("--harmonics = {} is out of range; valid range [1, 256]", opts.harmonics));
    }
    if let Some(a) = opts.amplitudes.iter().find(|a| !(a.is_finite() && **a > 0.0)) {
        return bad(format!("--amplitudes: amplitude {a} is out of range; valid range (0, inf) m"));
    }
    if let Some(b) = &opts.body {
        if !s.names.iter().any(|n| n == b) {
            return bad(format!("--body {b}: no body of that name; the bodies: {}", s.names.join(", ")));
        }
    }
    Ok(())
}

/// How many amplitudes [`default_amplitudes`] chooses.
pub const DEFAULT_POINTS: usize = 30;

/// The amplitudes of a backbone when none are given: [`DEFAULT_POINTS`]
/// spaced logarithmically from a tenth to a hundred times the amplitude
/// `A_s` at which the first contact would start to slip in the stuck linear
/// mode `shape` (normalised to 1 at the prescribed body): for contact c,
/// `A_c = N F_c / (k_c |φ_first - φ_second|)` with `F_c` its steady sliding
/// force at 1 mm/s ([`friction_analysis::analysis::steady::steady_force`]) and `k_c`
/// its stuck stiffness (the mode's stiffness `modal_k` for a contact
/// without one: a static map), `A_s` the least. A `coulomb` contact held
/// at rest does not move in the mode: for it `A_c = N_0 F_c / (|λ_c| + F_c
/// n k_n |Δφ_g|)`, with `N_0` its load at rest, `λ_c` the force it carries
/// in the mode (`super::stuck_mode`, the mode's angular frequency from
/// `modal_k` and the mode's mass) and, under a gap's load (`n` its
/// `normal`), the fall of that load with the gap's closure `Δφ_g` in the
/// mode (0 under a constant load). From well inside the stuck
/// range through micro-slip to gross slip. Refused, asking for amplitudes,
/// when no contact moves in the mode or none has a sliding force.
pub fn default_amplitudes(s: &Structure, shape: &[f64], modal_k: f64) -> Result<Vec<f64>, AnalysisError> {
    let mut least = f64::INFINITY;
    let held = StuckConstraints::of(s).map(|h| {
        let sv = DVector::from_column_slice(shape);
        let mass = (sv.transpose() * &s.m * &sv)[(0, 0)];
        let ks = s.stuck_stiffness();
        (h.forces(&ks, &s.m, (modal_k / mass).sqrt(), shape), s.rest_loads())
    });
    for (i, c) in s.contacts.iter().enumerate() {
        if let Some((Some(lam), load)) = held.as_ref().map(|(f, n)| (f.get(i).copied().flatten(), n[i])) {
            let f = friction_analysis::analysis::steady::steady_force(&c.model, 1e-3, &|| false);
            // under a gap's load, the load falls by `normal kn Δφ` per unit amplitude as the force grows
            let fall = c.normal_gap.map_or(0.0, |g| {
                let g = &s.gaps[g];
                let at = |d: Option<usize>| d.map_or(0.0, |i| shape[i]);
                c.normal.abs() * g.gap.stiffness * (at(g.second) - at(g.first)).abs()
            });
            let a = load * f.force.abs() / (lam + f.force.abs() * fall);
            if f.settled && a.is_finite() && a > 0.0 {
                least = least.min(a);
            }
            continue;
        }
        let at = |d: Option<usize>| d.map_or(0.0, |i| shape[i]);
        let d = (at(c.first) - at(c.second)).abs();
        let f = friction_analysis::analysis::steady::steady_force(&c.model, 1e-3, &|| false);
        let k = c.normal.abs() * super::aft::initial_stiffness(&c.model);
        let k = if k > 0.0 { k } else { modal_k };
        let a = c.normal.abs() * f.force.abs() / (k * d);
        if f.settled && a.is_finite() && a > 0.0 {
            least = least.min(a);
        }
    }
    if !least.is_finite() {
        return Err(AnalysisError::Model(
            "--amplitudes: no contact slips in this mode (none moves in it, or none has a sliding force) to \
             choose amplitudes from; give A1:A2:N"
                .into(),
        ));
    }
    let (lo, hi) = (0.1 * least, 100.0 * least);
    Ok((0..DEFAULT_POINTS).map(|i| lo * (hi / lo).powf(i as f64 / (DEFAULT_POINTS - 1) as f64)).collect())
}

/// The backbone of the nonlinear mode `opts.mode` of `sys` (see the module
/// documentation).
///
/// ```
/// use friction_hb::nnm::{nnm, NnmOptions};
/// use friction_sim::{Ground, SolverSettings, System};
/// // 1 kg on 1e4 N/m with 2 N s/m: 15.92 Hz, ζ = c / (2 sqrt(k m)) = 0.01 at any amplitude
/// let sys = System::builder("sdof")
///     .body("m", 1.0)
///     .spring("k", ("m", Ground), 1e4)
///     .damper("c", ("m", Ground), 2.0)
///     .solver(SolverSettings::with_t_end(1.0))
///     .build()?;
/// let r = nnm(&sys, &NnmOptions { amplitudes: vec![1e-6, 1e-3], harmonics: 1, ..Default::default() })?;
/// for p in &r.points {
///     assert!((p.f * 2.0 * std::f64::consts::PI / 100.0 - 1.0).abs() < 1e-10);
///     assert!((p.zeta / 0.01 - 1.0).abs() < 1e-10);
/// }
/// # Ok::<(), friction_analysis::AnalysisError>(())
/// ```
pub fn nnm(sys: &System, opts: &NnmOptions) -> Result<Nnm, AnalysisError> {
    nnm_within(sys, opts, &Limits::default())
}

/// The sizes of a backbone's solve: one problem at `opts.harmonics`, a
/// point per amplitude.
fn phase(opts: &NnmOptions) -> Phase {
    Phase {
        label: "the backbone",
        h: opts.harmonics,
        n: samples_for(opts),
        problems: 1,
        points: if opts.amplitudes.is_empty() { DEFAULT_POINTS } else { opts.amplitudes.len() },
        floquet: false,
    }
}

/// The work and memory estimate of [`nnm`] for `sys` with `opts` (see
/// [`super::budget`]).
/// A structure condensed as `opts.condense` asks is estimated condensed
/// (onto its contacts' DOFs: the prescribed body, retained as well by
/// [`nnm`], adds at most one).
pub fn estimate(sys: &System, opts: &NnmOptions) -> Result<Estimate, AnalysisError> {
    let s = Structure::unforced(sys)?;
    let s = if opts.condense.unwrap_or(s.dofs() > super::condensed::CONDENSE_ABOVE) {
        super::condensed::condense(&s).unwrap_or(s)
    } else {
        s
    };
    Ok(largest(&s, &[phase(opts)], &Limits::default()))
}

/// [`nnm`] refused before any work array is allocated when its estimate
/// ([`estimate`]) exceeds `limits`, with the figures and the options.
pub fn nnm_within(sys: &System, opts: &NnmOptions, limits: &Limits) -> Result<Nnm, AnalysisError> {
    let s = Structure::unforced(sys)?;
    check(opts, &s)?;
    let wanted = opts.condense.unwrap_or(s.dofs() > super::condensed::CONDENSE_ABOVE);
    if !wanted {
        budget::check("friction nnm", &s, &largest(&s, &[phase(opts)], limits), limits)?;
    }
    let ks = s.stuck_stiffness();
    let (w0, shape) = stuck_mode(&s, &ks, opts.mode, wanted)?;
    if w0 <= 0.0 {
        return Err(AnalysisError::Model(format!(
            "--mode {}: the linearised mode has zero frequency (a rigid-body mode); nonlinear modes need a \
             structure held by springs or stuck contacts",
            opts.mode
        )));
    }
    let top = shape.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let b = match &opts.body {
        Some(name) => s.names.iter().position(|n| n == name).unwrap_or(0),
        None => (0..s.dofs()).max_by(|&i, &j| shape[i].abs().total_cmp(&shape[j].abs())).unwrap_or(0),
    };
    if shape[b].abs() < 1e-6 * top {
        return Err(AnalysisError::Model(format!(
            "--body {}: this body does not move in mode {}; choose another body",
            s.names[b], opts.mode
        )));
    }
    let shape: Vec<f64> = shape.iter().map(|v| v / shape[b]).collect();
    let sv = DVector::from_column_slice(&shape);
    let mass = (sv.transpose() * &s.m * &sv)[(0, 0)];
    let chosen;
    let opts = if opts.amplitudes.is_empty() {
        chosen = NnmOptions { amplitudes: default_amplitudes(&s, &shape, w0 * w0 * mass)?, ..opts.clone() };
        &chosen
    } else {
        opts
    };
    let xi0 = (sv.transpose() * &s.c * &sv)[(0, 0)] / mass;
    let kmax = (0..s.dofs()).map(|i| ks[(i, i)]).fold(0.0f64, f64::max).max(1e-300);
    let mean = ks.clone().lu().solve(&s.f0);
    // condensed onto the contacts' DOFs and the prescribed body (the
    // structure's force DOF, unused unforced, put on it)
    let cs = if wanted {
        let mut t = s.clone();
        t.shown.push(b);
        t.shown.sort_unstable();
        t.shown.dedup();
        t.force_dof = b;
        super::condensed::condense(&t).ok()
    } else {
        None
    };
    let keep: Vec<usize> = cs
        .as_ref()
        .and_then(|c| c.condensed.as_ref())
        .map_or_else(|| (0..s.dofs()).collect(), |m| m.keep.clone());
    let ps = match cs {
        Some(c) => {
            budget::check("friction nnm", &c, &largest(&c, &[phase(opts)], limits), limits)?;
            c
        }
        None => {
            if wanted {
                budget::check("friction nnm", &s, &largest(&s, &[phase(opts)], limits), limits)?;
            }
            s.clone()
        }
    };
    let condensed_from = ps.condensed.as_ref().map(|m| m.full);
    let b = keep.iter().position(|&i| i == b).unwrap_or(0);
    let shape: Vec<f64> = keep.iter().map(|&i| shape[i]).collect();
    let (h, n) = (opts.harmonics, samples_for(opts));
    let mut p = Problem::new(ps, h, n);
    p.free_motion();
    let l = p.grid.len();
    let nn = p.n();
    let nd = p.s.dofs();
    // y at amplitude A: coefficients over A, the fundamental of b replaced by ω/ω0, ξ/ω0
    let mut y = vec![0.0; nn + 1];
    for d in 0..nd {
        y[d * l + 1] = shape[d];
    }
    y[b * l + 1] = 1.0;
    y[b * l + 2] = xi0 / w0;
    y[nn] = 1.0;
    // static offset from constant loads, over the first amplitude
    if let Some(mean) = mean {
        for (d, &i) in keep.iter().enumerate() {
            y[d * l] = mean[i] / opts.amplitudes[0];
        }
    }
    let mut points = Vec::with_capacity(opts.amplitudes.len());
    let mut eq = Epmc {
        b,
        a: opts.amplitudes[0],
        w0,
        rs: 1.0,
        x: vec![0.0; nn],
        full: DMatrix::zeros(nn, nn + 1),
        col: vec![0.0; nn],
        p: &mut p,
    };
    let mut prev_a = opts.amplitudes[0];
    let mut last = None;
    let dlft = if eq.p.has_dlft() {
        "; with a `coulomb` contact Newton's method may also stall where the contact starts to slip or to \
         open (its force turns at every stick; measured: a slider that converged at H = 31 failed at H = 63): \
         fewer --harmonics converge more readily"
    } else {
        ""
    };
    for &a in &opts.amplitudes {
        advance(&mut eq, &mut y, &mut last, prev_a, a, kmax).map_err(|e| {
            AnalysisError::Model(format!(
                "nonlinear mode {} at amplitude {a:e} m: {e}{}{dlft}",
                opts.mode,
                points.last().map_or_else(String::new, |p| last_point(p, b, l, h))
            ))
        })?;
        polish(&mut eq, &mut y, 2);
        prev_a = a;
        let (w, xi) = eq.unscale(&y);
        points.push(NnmPoint {
            amplitude: a,
            f: w / (2.0 * PI),
            zeta: xi / (2.0 * w),
            xi,
            energy_per_cycle: eq.p.fictitious_energy(&eq.x, w),
            coefficients: eq.x.clone(),
        });
    }
    Ok(Nnm {
        bodies: p.s.names.clone(),
        condensed_from,
        body: p.s.names[b].clone(),
        mode: opts.mode,
        harmonics: h,
        samples: n,
        linear_f: w0 / (2.0 * PI),
        linear_zeta: xi0 / (2.0 * w0),
        linear_shape: shape,
        points,
    })
}
