//! The frequency response: the periodic steady state under the harmonic
//! force, traced in frequency by pseudo-arclength continuation, with the
//! number of harmonics checked (or chosen) by doubling it.

use std::f64::consts::PI;

use friction_sim::System;
use serde::Serialize;

use super::budget::{check, largest, Estimate, Limits, Phase};
use super::continuation::{trace, ContinuationOptions};
use super::floquet::{passive, unassessed, Monodromy};
use super::harmonics::{amplitude, phase, Grid};
use super::problem::Problem;
use super::scaled::Scaled;
pub use super::scaled::{solve_at, solve_problem};
use super::stability::is_stable;
use super::structure::Structure;
use friction_analysis::AnalysisError;

mod grazing;

/// Largest relative change of the coefficients from one point of the branch
/// to the next (predicted; accepted up to twice this): the resolution of a
/// resonance whatever its sharpness. 0.1 puts the top of a resonance of
/// quality factor 1000 within 0.5 % of the traced maximum, in about 100 points.
const MAX_RELATIVE_CHANGE: f64 = 0.1;

/// Settings of [`frf`].
#[derive(Debug, Clone)]
pub struct FrfOptions {
    /// Lowest frequency \[Hz\].
    pub f_min: f64,
    /// Highest frequency \[Hz\].
    pub f_max: f64,
    /// Number of harmonics H; `None`: start at 3 and double until the
    /// peak amplitude changes by less than `h_tol` from H to 2H (at most 32).
    pub harmonics: Option<usize>,
    /// Time samples per period; `None`: `max(256, 8 (2H + 1))`.
    pub samples: Option<usize>,
    /// Relative change of the peak amplitude from H to 2H accepted as converged.
    pub h_tol: f64,
    /// Most points on the branch.
    pub max_points: usize,
    /// The penalty ε \[N/m\] of true Coulomb stick's dynamic Lagrangian
    /// method ([`Problem::epsilon`]); `None`: its default. It changes the
    /// truncation error only: a larger penalty shortens the stick its time
    /// samples put at each reversal, and needs more samples to resolve it
    /// (see `super::dlft`).
    pub dlft_penalty: Option<f64>,
    /// Whether to condense the linear part onto the contacts' DOFs
    /// ([`super::condensed`]): `None` (default) above
    /// [`super::condensed::CONDENSE_ABOVE`] DOFs when it can be, `Some(true)`
    /// whenever it can be, `Some(false)` never.
    pub condense: Option<bool>,
}

impl Default for FrfOptions {
    fn default() -> Self {
        FrfOptions {
            f_min: 1.0,
            f_max: 100.0,
            harmonics: None,
            samples: None,
            h_tol: 1e-3,
            max_points: 4000,
            dlft_penalty: None,
            condense: None,
        }
    }
}

/// One point of a frequency response.
#[derive(Debug, Clone, Serialize)]
pub struct FrfPoint {
    /// Frequency \[Hz\].
    pub f: f64,
    /// Fourier coefficients of every body (2H + 1 each, body after body;
    /// with structures, of every coordinate of [`Structure::names`]) \[m\].
    pub coefficients: Vec<f64>,
    /// Per body: amplitude of the fundamental harmonic \[m\].
    pub amplitude: Vec<f64>,
    /// Per body: phase of the fundamental, `x ≈ A cos(ωt - phase)` \[rad\].
    pub phase: Vec<f64>,
    /// Per body: largest |x| over the period \[m\].
    pub peak: Vec<f64>,
    /// Stable by its Floquet multipliers ([`super::floquet`]) or by
    /// incremental passivity ([`super::floquet::passive`]); kept `true`
    /// when not assessed ([`Frf::stability`] says which).
    pub stable: bool,
}

/// A frequency response and how it was computed.
#[derive(Debug, Clone, Serialize)]
pub struct Frf {
    /// Body names.
    pub bodies: Vec<String>,
    /// Harmonics H used.
    pub harmonics: usize,
    /// Samples per period.
    pub samples: usize,
    /// Relative change of the largest peak amplitude from H to 2H, at the
    /// frequency of that peak.
    pub h_change: f64,
    /// The points, in the order of the branch.
    pub points: Vec<FrfPoint>,
    /// Whether the points' stability was assessed (by the Floquet
    /// multipliers or by incremental passivity, [`Frf::stability`]): false
    /// with a set-valued contact (dynamic Lagrangian AFT) or a hysteresis
    /// model that is not a Masing operator, whose points are then all
    /// written stable, unassessed. The same as `!matches!(stability,
    /// StabilityVerdict::Unassessed(_))`, kept for the API it was part of.
    pub stability_assessed: bool,
    /// How the `stable` column was decided, or why it was not.
    pub stability: StabilityVerdict,
    /// What the response cannot vouch for ([`cautions`]), written in
    /// `summary.json` under `warnings`.
    pub warnings: Vec<String>,
}

/// How the stability of a frequency response's points was decided.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum StabilityVerdict {
    /// Each point by its Floquet multipliers ([`Monodromy`]).
    Floquet,
    /// Every point stable by incremental passivity ([`passive`]).
    Passive,
    /// Not assessed, and why (naming the contact): every point is written
    /// stable ([`unassessed`]).
    Unassessed(String),
}

impl StabilityVerdict {
    /// The verdict's method in words, as `summary.json` writes it.
    pub fn describe(&self) -> String {
        match self {
            StabilityVerdict::Floquet => "Floquet multipliers: the monodromy matrix of the structure linearised \
                about the periodic motion, each contact's tangent along its periodic path (Nayfeh and Balachandran \
                1995)"
                .to_string(),
            StabilityVerdict::Passive => "every point stable by incremental passivity: every contact an \
                elastic-perfectly plastic Masing operator, the mass positive definite, stiffness and damping \
                positive semi-definite, so the energy of the difference of two motions never grows (Brokate and \
                Sprekels 1996); no linearisation needed"
                .to_string(),
            StabilityVerdict::Unassessed(why) => {
                format!("not assessed: {why}; every point is written stable = 1 unassessed")
            }
        }
    }
}

fn check_range(opts: &FrfOptions) -> Result<(), AnalysisError> {
    super::budget::check_frequencies(opts.f_min, opts.f_max)?;
    if let Some(e) = opts.dlft_penalty {
        if !(e.is_finite() && e > 0.0) {
            return Err(AnalysisError::Model(format!(
                "--dlft-penalty = {e} is out of range; valid range (0, inf) N/m"
            )));
        }
    }
    if let Some(h) = opts.harmonics {
        if !(1..=256).contains(&h) {
            return Err(AnalysisError::Model(format!(
                "--harmonics = {h} is out of range; valid range [1, 256]"
            )));
        }
    }
    Ok(())
}

fn samples_for(opts: &FrfOptions, h: usize) -> usize {
    opts.samples.unwrap_or(256).max(8 * (2 * h + 1))
}

/// The problem of `s` at `h` harmonics with the samples and penalty of `opts`.
fn problem_for(s: &Structure, opts: &FrfOptions, h: usize) -> Problem {
    let mut p = Problem::new(s.clone(), h, samples_for(opts, h));
    if let Some(e) = opts.dlft_penalty {
        p.epsilon = e;
    }
    p
}

/// [`solve_at`] with the settings of `opts`.
fn solve_with(
    s: &Structure,
    opts: &FrfOptions,
    f: f64,
    h: usize,
    guess: Option<&[f64]>,
) -> Result<Vec<f64>, AnalysisError> {
    solve_problem(&mut problem_for(s, opts, h), f, guess)
}

/// [`solve_with`] from `guess` (a solution at fewer harmonics), and with
/// gaps from the rest on them when that fails: a guess whose samples just
/// open a gap can lead Newton's method astray (near grazing), the rest on
/// the floor does not.
fn solve_refined(
    s: &Structure,
    opts: &FrfOptions,
    f: f64,
    h: usize,
    guess: &[f64],
) -> Result<Vec<f64>, AnalysisError> {
    match solve_with(s, opts, f, h, Some(guess)) {
        Err(_) if !s.gaps.is_empty() => solve_with(s, opts, f, h, None),
        r => r,
    }
}

/// What a failed branch with gaps says: where it most likely stopped.
const GRAZING: &str = " (with gaps or contacts whose load is a gap's force, Newton's method may fail near \
                       grazing, where a gap's least penetration over the period reaches 0)";

/// Amplitude, phase and peak of every body from the coefficients `x`.
fn point(p: &Problem, f: f64, x: &[f64], buf: &mut [f64]) -> FrfPoint {
    let l = p.grid.len();
    let d = p.s.dofs();
    let mut out = FrfPoint {
        f,
        coefficients: x.to_vec(),
        amplitude: Vec::with_capacity(d),
        phase: Vec::with_capacity(d),
        peak: Vec::with_capacity(d),
        stable: true,
    };
    for i in 0..d {
        let c = &x[i * l..(i + 1) * l];
        out.amplitude.push(amplitude(c, 1));
        out.phase.push(phase(c, 1));
        p.grid.synth(c, buf);
        out.peak.push(peak(buf));
    }
    out
}

/// The largest |x| of periodic samples `x`, refined between samples by the
/// parabola through the largest sample and its two neighbours (exact to
/// O((π/N)⁴) for a smooth signal, instead of O((π/N)²) for the sample).
pub fn peak(x: &[f64]) -> f64 {
    let n = x.len();
    let Some((i, _)) = x.iter().enumerate().max_by(|a, b| a.1.abs().total_cmp(&b.1.abs())) else {
        return 0.0;
    };
    let s = x[i].signum();
    let (a, b, c) = (s * x[(i + n - 1) % n], s * x[i], s * x[(i + 1) % n]);
    let curv = a - 2.0 * b + c;
    if curv < 0.0 {
        let d = 0.5 * (a - c) / curv;
        (b - 0.25 * (a - c) * d).max(b)
    } else {
        b
    }
}

/// The frequency response of `s` from `f_min` to `f_max` at `h` harmonics.
fn branch(s: &Structure, opts: &FrfOptions, h: usize) -> Result<(Vec<FrfPoint>, usize), AnalysisError> {
    let n = samples_for(opts, h);
    let x0 = grazing::start(s, opts, h)?;
    let mut p = problem_for(s, opts, h);
    let nn = p.n();
    let ws = 2.0 * PI * opts.f_min;
    let span = opts.f_max / opts.f_min - 1.0;
    // a step moves at most 1/25 of the range in frequency and changes the
    // coefficients by at most MAX_RELATIVE_CHANGE: a sharp resonance gets as
    // many points as a blunt one, and no step jumps over it (an arclength
    // cap in these scaled units let a 4 Hz step skip a peak of quality
    // factor 1000, or land on its mirror image at a negative frequency)
    let copts = ContinuationOptions {
        ds: span / 200.0,
        ds_max: f64::INFINITY,
        ds_min: span * 1e-9,
        max_points: opts.max_points,
        max_parameter_step: Some(span / 25.0),
        max_relative_change: Some(MAX_RELATIVE_CHANGE),
        ..Default::default()
    };
    let mut sc = Scaled::new(&mut p, ws);
    // arclength scale: ten times the response at f_min (quasi-static), so
    // that a resonance's amplification is a few units, like the frequency span
    sc.xs = 10.0 * x0.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(sc.xs * 1e-6);
    let xs = sc.xs;
    let mut y0: Vec<f64> = x0.iter().map(|v| v / xs).collect();
    y0.push(1.0);
    let mut dir = vec![0.0; nn + 1];
    dir[nn] = 1.0;
    // The points inside [f_min, f_max] in the order of the branch, as
    // (f [Hz], scaled y). Where a step crosses an end of the range (f_max,
    // or f_min on a branch that turned back below it and came in again), the
    // point exactly at that end is solved from the interpolation between
    // the two points either side; the branch is traced on while it lies
    // below f_min, and ends at f_max.
    let f_max_scaled = opts.f_max / opts.f_min;
    let ends = [(1.0, opts.f_min), (f_max_scaled, opts.f_max)];
    let mut ys: Vec<(f64, Vec<f64>)> = Vec::new();
    let mut crossings: Vec<usize> = Vec::new();
    let mut last: Option<Vec<f64>> = None;
    let mut traced = 0usize;
    trace(&mut sc, &y0, &dir, &copts, |y| {
        traced += 1;
        let f = y[nn];
        if let Some(p) = &last {
            for (b, f_hz) in ends {
                if (p[nn] - b) * (f - b) < 0.0 {
                    let u = (b - p[nn]) / (f - p[nn]);
                    crossings.push(ys.len());
                    ys.push((f_hz, p.iter().zip(y).map(|(a, c)| a + u * (c - a)).collect()));
                }
            }
        }
        if (1.0..=f_max_scaled).contains(&f) {
            let f_hz = ends.iter().find(|e| e.0 == f).map_or(f * opts.f_min, |e| e.1);
            ys.push((f_hz, y.to_vec()));
        }
        last = Some(y.to_vec());
        f < f_max_scaled
    })
    .map_err(|e| match (&e, &last) {
        // where the branch stopped: the last point it reached
        (AnalysisError::Model(m), Some(y)) => {
            let (f, near) = (y[nn] * opts.f_min, if s.gaps.is_empty() { "" } else { GRAZING });
            AnalysisError::Model(format!("{m}; the last point of the branch is at f = {f:.6} Hz{near}"))
        }
        _ => e,
    })?;
    for &i in &crossings {
        let (f_hz, ref g) = ys[i];
        let g: Vec<f64> = g[..nn].iter().map(|v| v * xs).collect();
        let x = solve_with(s, opts, f_hz, h, Some(&g))?;
        let mut y: Vec<f64> = x.iter().map(|v| v / xs).collect();
        y.push(f_hz / opts.f_min);
        ys[i].1 = y;
    }
    if ys.last().is_none_or(|y| y.0 != opts.f_max) {
        let f = last.map_or(opts.f_min, |y| y[nn] * opts.f_min);
        return Err(AnalysisError::Model(format!(
            "harmonic balance: the branch stopped at f = {f:.6} Hz after {traced} points (max_points = {}), \
             before --f-max = {}; narrow the range or raise max_points",
            opts.max_points, opts.f_max
        )));
    }
    let mut buf = vec![0.0; p.grid.n];
    let pts = ys
        .iter()
        .map(|(f, y)| {
            let x: Vec<f64> = y[..nn].iter().map(|v| v * xs).collect();
            point(&p, *f, &x, &mut buf)
        })
        .collect();
    Ok((pts, n))
}

/// Mark each point of the branch traced at `h` harmonics and `n` samples
/// stable or not by its Floquet multipliers (only for the branch kept: the
/// branches at fewer harmonics that the H -> 2H check discards are not
/// assessed).
fn assess_stability(s: &Structure, h: usize, n: usize, points: &mut [FrfPoint]) -> Result<(), AnalysisError> {
    let mut p = Problem::new(s.clone(), h, n);
    let mut mono = Monodromy::new(&p)?;
    for pt in points {
        let w = 2.0 * PI * pt.f;
        pt.stable = is_stable(&mono.exponents(&mut p, &pt.coefficients, w)?, w);
    }
    Ok(())
}

/// The frequency response of `sys` under its `sine` force named `force`.
///
/// ```
/// use friction_hb::frf::{frf, FrfOptions};
/// use friction_sim::{Ground, Schedule, SolverSettings, System};
/// // 1 kg on 1e4 N/m with 2 N s/m: resonance at 15.9 Hz, peak F/(c ω) = 0.005 m
/// let sys = System::builder("sdof")
///     .body("m", 1.0)
///     .spring("k", ("m", Ground), 1e4)
///     .damper("c", ("m", Ground), 2.0)
///     .force("p", "m", Schedule::Sine { amplitude: 1.0, frequency: 10.0, phase: 0.0, offset: 0.0 })
///     .solver(SolverSettings::with_t_end(1.0))
///     .build()?;
/// let r = frf(&sys, "p", &FrfOptions { f_min: 10.0, f_max: 20.0, ..Default::default() })?;
/// let top = r.points.iter().map(|p| p.amplitude[0]).fold(0.0, f64::max);
/// assert!((top / 0.005 - 1.0).abs() < 1e-3, "{top}");
/// # Ok::<(), friction_analysis::AnalysisError>(())
/// ```
pub fn frf(sys: &System, force: &str, opts: &FrfOptions) -> Result<Frf, AnalysisError> {
    frf_within(sys, force, opts, &Limits::default())
}

/// What a frequency response of `sys` cannot vouch for, one sentence per
/// contact: a `coulomb` contact with `Fs > Fc`, whose slip the dynamic
/// Lagrangian method may start before its force reaches `Fs N`
/// (`super::dlft`). A response keeps them ([`Frf::warnings`]); `friction
/// frf` prints each as a warning.
///
/// ```
/// use friction_hb::frf::cautions;
/// use friction_sim::{CoulombParams, Ground, Schedule, SolverSettings, System};
/// let with = |fs: Option<f64>| {
///     System::builder("sdof")
///         .body("m", 1.0)
///         .spring("k", ("m", Ground), 1e4)
///         .contact("dry", ("m", Ground), CoulombParams { fc: 0.2, fs })
///         .force("p", "m", Schedule::Sine { amplitude: 1.0, frequency: 10.0, phase: 0.0, offset: 0.0 })
///         .solver(SolverSettings::with_t_end(1.0))
///         .build()
/// };
/// assert!(cautions(&with(None)?).is_empty());
/// let w = cautions(&with(Some(0.3))?);
/// assert!(w.len() == 1 && w[0].contains("\"dry\"") && w[0].contains("friction run"), "{w:?}");
/// # Ok::<(), friction_sim::SimError>(())
/// ```
pub fn cautions(sys: &System) -> Vec<String> {
    sys.contacts
        .iter()
        .filter(|c| super::dlft::is_dlft(&c.model))
        .filter_map(|c| {
            let (fc, fs) = super::dlft::limits(&c.model);
            (fs > fc * (1.0 + 1e-12)).then(|| {
                format!(
                    "contact \"{}\" (coulomb): Fs = {fs} > Fc = {fc} per unit load; harmonic balance's dynamic \
                     Lagrangian method may start its slip before the force reaches Fs N (a slip that starts once the \
                     force has passed Fc N goes on, and the ripple of the truncated motion can start it), a steady \
                     state `friction run` need not reach: measured on a joint in a plane, 1.7 % of the slip's \
                     amplitude from the engine's at H = 31 (0.34 % with Fs = Fc). Check a point with `friction run` \
                     started on it, or use Fs = Fc",
                    c.name
                )
            })
        })
        .collect()
}

/// The sizes of a frequency response's phases at `h` harmonics (the
/// estimate is made again before each doubling of H): the branch at `h` (two
/// problems where an end is solved again, up to `max_points` points), its
/// H -> 2H check (while the branch's points are kept) and its stability.
fn phases(s: &Structure, opts: &FrfOptions, h: usize) -> Vec<Phase> {
    let points = opts.max_points;
    let branch =
        Phase { label: "the branch", h, n: samples_for(opts, h), problems: 2, points, floquet: false };
    let check = Phase {
        label: "the check of the branch's H against 2H",
        h: 2 * h,
        n: samples_for(opts, 2 * h),
        problems: 1,
        points,
        floquet: false,
    };
    let floquet = unassessed(s).is_none() && !passive(s) && s.condensed.is_none();
    let stability = Phase {
        label: "the stability of the branch (Floquet)",
        h,
        n: samples_for(opts, h),
        problems: 1,
        points,
        floquet,
    };
    vec![branch, check, stability]
}

/// The work and memory estimate of [`frf`] for `sys` under `force` with
/// `opts` at its first H (`opts.harmonics`, or 3): the largest of its
/// phases (the branch, its H -> 2H check, its stability; see
/// [`super::budget`]).
pub fn estimate(sys: &System, force: &str, opts: &FrfOptions) -> Result<Estimate, AnalysisError> {
    check_force(sys, force)?;
    let s = condensed_for(Structure::from_system(sys, force)?, opts);
    let h = opts.harmonics.unwrap_or(3);
    Ok(largest(&s, &phases(&s, opts, h), &Limits::default()))
}

/// `s` condensed onto its contacts' DOFs ([`super::condensed::condense`])
/// as `opts.condense` asks, or `s` itself where it cannot be.
fn condensed_for(s: Structure, opts: &FrfOptions) -> Structure {
    let wanted = opts.condense.unwrap_or(s.dofs() > super::condensed::CONDENSE_ABOVE);
    if !wanted {
        return s;
    }
    super::condensed::condense(&s).unwrap_or(s)
}

/// Refuse a force name the scenario does not have, listing its forces
/// (before the structure is built, whose checks of the other forces would
/// otherwise blame one of them).
fn check_force(sys: &System, force: &str) -> Result<(), AnalysisError> {
    let known = super::structure::force_names(sys);
    if known.contains(&force) {
        return Ok(());
    }
    Err(AnalysisError::Model(format!(
        "--force {force}: there is no force `{force}` in scenario \"{}\"; its forces: {}",
        sys.name,
        if known.is_empty() { "(none)".to_string() } else { known.join(", ") }
    )))
}

/// [`frf`] refused before any work array is allocated when its estimate
/// ([`estimate`]) exceeds `limits`, with the figures and the options.
pub fn frf_within(
    sys: &System,
    force: &str,
    opts: &FrfOptions,
    limits: &Limits,
) -> Result<Frf, AnalysisError> {
    check_range(opts)?;
    check_force(sys, force)?;
    let s = condensed_for(Structure::from_system(sys, force)?, opts);
    let mut h = opts.harmonics.unwrap_or(3);
    // the samples, raised where a branch with gaps stops ([`grazing::resolved_branch`])
    let mut opts = opts.clone();
    let opts = &mut opts;
    loop {
        // before every branch: its own estimate at this H
        check("friction frf", &s, &largest(&s, &phases(&s, opts, h), limits), limits)?;
        let (mut points, n) = grazing::resolved_branch(&s, opts, h, limits)?;
        // the H -> 2H check at the largest response
        let (mut best, mut at) = (0.0, 0);
        for (i, p) in points.iter().enumerate() {
            let a = p.peak.iter().fold(0.0f64, |m, v| m.max(*v));
            if a > best {
                best = a;
                at = i;
            }
        }
        let top = &points[at];
        let x2 = solve_refined(&s, opts, top.f, 2 * h, &top.coefficients)?;
        let best2 = largest_peak(opts, 2 * h, &x2);
        let change = relative_change(best, best2);
        if opts.harmonics.is_some() || change <= opts.h_tol || h >= 32 {
            let stability = if let Some(why) = unassessed(&s) {
                StabilityVerdict::Unassessed(why)
            } else if passive(&s) {
                StabilityVerdict::Passive
            } else if s.condensed.is_some() {
                StabilityVerdict::Unassessed(super::floquet::CONDENSED.to_string())
            } else {
                assess_stability(&s, h, n, &mut points)?;
                StabilityVerdict::Floquet
            };
            return Ok(shown(
                &s,
                Frf {
                    bodies: s.names.clone(),
                    harmonics: h,
                    samples: n,
                    h_change: change,
                    points,
                    stability_assessed: !matches!(stability, StabilityVerdict::Unassessed(_)),
                    stability,
                    warnings: cautions(sys),
                },
            ));
        }
        // not converged: double H by single solves at this frequency until
        // the peak converges there, and trace the branch again only at that
        // H (its own peak is checked again above); on a 10-body chain whose
        // default H is 12 this skips the whole branch at H = 6
        let (mut hh, mut x, mut peak) = (2 * h, x2, best2);
        while hh < 32 {
            let single = Phase {
                label: "the check of H against 2H",
                h: 2 * hh,
                n: samples_for(opts, 2 * hh),
                problems: 1,
                points: 1,
                floquet: false,
            };
            check("friction frf", &s, &largest(&s, &[single], limits), limits)?;
            let x4 = solve_refined(&s, opts, top.f, 2 * hh, &x)?;
            let peak4 = largest_peak(opts, 2 * hh, &x4);
            if relative_change(peak, peak4) <= opts.h_tol {
                break;
            }
            (hh, x, peak) = (2 * hh, x4, peak4);
        }
        h = hh;
    }
}

/// `r` with the per-body results (names, amplitude, phase, peak) kept for
/// the DOFs that are written ([`Structure::shown`]: every body, and a
/// structure's DOFs that something names); the Fourier coefficients stay
/// those of every coordinate.
fn shown(s: &Structure, mut r: Frf) -> Frf {
    if s.shown.len() == s.names.len() {
        return r;
    }
    let pick = |v: &[f64]| s.shown.iter().map(|&i| v[i]).collect::<Vec<f64>>();
    r.bodies = s.shown.iter().map(|&i| s.names[i].clone()).collect();
    for p in &mut r.points {
        (p.amplitude, p.phase, p.peak) = (pick(&p.amplitude), pick(&p.phase), pick(&p.peak));
    }
    r
}

/// The largest peak |x| over the bodies of the solution `x` at H = `h`,
/// sampled on the grid the branch at `h` would use.
fn largest_peak(opts: &FrfOptions, h: usize, x: &[f64]) -> f64 {
    let grid = Grid::new(h, samples_for(opts, h));
    let mut buf = vec![0.0; grid.n];
    x.chunks(grid.len()).fold(0.0f64, |m, c| {
        grid.synth(c, &mut buf);
        m.max(peak(&buf))
    })
}

/// `|b - a| / b` (0 when `b` is 0).
fn relative_change(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        (b - a).abs() / b
    } else {
        0.0
    }
}
