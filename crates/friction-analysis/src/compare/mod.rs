//! Which model shows which friction phenomenon, decided by measurement.
//!
//! Table 2.1 of Olsson 1996 lists which friction phenomena each model
//! shows. [`compare`] reproduces it by running every model through the same
//! battery of virtual experiments and deciding each property from a measured
//! figure against documented thresholds ([`Thresholds`]):
//!
//! | property | experiment | figure |
//! |---|---|---|
//! | `stribeck` | driven at a staircase of speeds 1e-4 .. 1 m/s ([`steady`]) | largest fall of the steady force with speed (beyond its scatter) / F_ref |
//! | `varying_breakaway` | body stopped after a slide, then a force ramp at 0.1 and 10 F_ref/s ([`hold`]) | relative change of the break-away force |
//! | `presliding` | virgin curve from rest at two speeds ([`virgin`]) | x½, the displacement at half the sliding force |
//! | `lag` | velocity oscillation in sliding at 1 and 10 Hz ([`lag`]) | F-v loop width / F_ref |
//! | `nonlocal_memory` | outer loop with an inner loop ([`loops`]) | gap to the outer branch after the inner loop closes |
//! | `rate_independent` | the same loop at 1e-4 .. 1e-1 m/s ([`loops`]) | largest force difference / range |
//! | `stiction` | body under a held load of 0.5 F_ba ([`hold`]) | creep over 10 s |
//! | `time_ms`, `steps` | the LuGre stick-slip set-up with this contact ([`cost`]) | wall time, accepted steps |
//!
//! F_ref is the largest steady sliding force of the model. Every model is
//! built with the registry's defaults plus [`experiment_params`]. Each
//! simulation runs with `method = "auto"` and falls back to the other
//! methods when it fails (the note is kept in the figure's detail); the body
//! experiments are not run (`n/a`) on a model that cannot hold a body at
//! rest in any solver ([`at_rest`]: a jump at v = 0 without stick machinery,
//! or a slope at rest steeper than [`MAX_REST_SLOPE`]). The
//! experiments of each model run in parallel with those of the others
//! (rayon); the cost runs afterwards, one at a time, so that their wall
//! times are comparable.
//!
//! [`clutch`] adds the comparison of Daniel 2014: the clutch with true
//! stick/slip against smooth models without locking.

pub mod clutch;
mod clutch_plot;
pub mod cost;
pub mod hold;
pub mod lag;
pub mod loops;
mod plots;
mod property;
mod report;
mod setup;
mod sim;
pub mod steady;
pub mod virgin;

use rayon::prelude::*;

pub use cost::cost_system;
pub use plots::{plot_model, plot_property};
pub use property::{Band, Figure, Property, Thresholds, Verdict};
pub use report::{figures_csv, markdown, properties_csv, write_report, OLSSON};
pub use setup::{build_model, experiment_params, Settings, ELEMENTS};
use sim::Notes;
pub use sim::{at_rest, AtRest, BODY_MAX_STEPS, MAX_REST_SLOPE};

use crate::error::AnalysisError;

/// The curves behind the figures of one model (for plots).
#[derive(Debug, Clone, Default)]
pub struct Curves {
    /// Steady-state curve.
    pub steady: Option<steady::Steady>,
    /// Virgin curves.
    pub virgin: Option<virgin::Virgin>,
    /// Loops at two speeds.
    pub rate: Option<loops::RateLoops>,
    /// Outer and inner loops.
    pub memory: Option<loops::Memory>,
    /// F-v loop under velocity oscillation.
    pub lag: Option<lag::Lag>,
    /// Break-away at two force rates.
    pub breakaway: Option<hold::Breakaway>,
    /// Held body.
    pub hold: Option<hold::Hold>,
}

/// One row of the table: a model's verdicts with their figures.
#[derive(Debug, Clone)]
pub struct ModelRow {
    /// Model id.
    pub id: String,
    /// One figure per property, in [`Property::ALL`] order.
    pub figures: Vec<Figure>,
    /// Wall time of the common set-up \[ms\] (NaN if it failed).
    pub time_ms: f64,
    /// Accepted steps of the common set-up (0 if it failed).
    pub steps: usize,
    /// Why the cost run failed, if it did.
    pub cost_error: Option<String>,
    /// The method of the cost run, and the methods that failed before it.
    pub cost_note: String,
    /// The measured curves.
    pub curves: Curves,
}

impl ModelRow {
    /// The figure of `p`.
    pub fn figure(&self, p: Property) -> &Figure {
        self.figures.iter().find(|f| f.property == p).expect("every property has a figure")
    }

    /// The verdict of `p`.
    pub fn verdict(&self, p: Property) -> Verdict {
        self.figure(p).verdict
    }

    /// Whether any experiment failed.
    pub fn failed(&self) -> bool {
        self.cost_error.is_some() || self.figures.iter().any(|f| f.verdict == Verdict::Error)
    }
}

/// Check that every id names a model (before anything runs).
pub fn check_ids(ids: &[String]) -> Result<(), AnalysisError> {
    let known: Vec<&str> = friction_models::all().iter().map(|m| m.id).collect();
    for id in ids {
        if !known.contains(&id.as_str()) {
            return Err(AnalysisError::Model(format!(
                "unknown model `{id}`; known models: {}",
                known.join(", ")
            )));
        }
    }
    if ids.is_empty() {
        return Err(AnalysisError::Model("no model to compare".into()));
    }
    Ok(())
}

/// Run one experiment: its figure, with the notes it gathered; a failure or
/// a panic inside a model becomes an `error` cell.
fn run_one<T>(
    p: Property,
    exp: impl FnOnce(&Notes) -> Result<T, AnalysisError>,
    fig: impl FnOnce(&T) -> Figure,
) -> (Figure, Option<T>) {
    let notes = Notes::default();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| exp(&notes)));
    let (mut f, t) = match r {
        Ok(Ok(t)) => (fig(&t), Some(t)),
        Ok(Err(e)) => (Figure::failed(p, e.to_string()), None),
        Err(panic) => {
            let msg = friction_models::error::panic_message(panic.as_ref());
            (Figure::failed(p, format!("the model panicked: {msg}")), None)
        }
    };
    let n = notes.take();
    if !n.is_empty() {
        f.detail = format!("{}; method {}", f.detail, n.join("; "));
    }
    (f, t)
}

/// Run the battery on one model (no cost run).
///
/// ```
/// use friction_analysis::compare::{measure_model, Property, Settings, Verdict};
/// let row = measure_model("coulomb", &Settings::default()).unwrap();
/// assert_eq!(row.verdict(Property::Stiction), Verdict::Yes);
/// assert_eq!(row.verdict(Property::Presliding), Verdict::No);
/// ```
pub fn measure_model(id: &str, s: &Settings) -> Result<ModelRow, AnalysisError> {
    let model = build_model(id)?;
    let rest = at_rest(&model);
    let mut curves = Curves::default();

    let (f_st, st) =
        run_one(Property::Stribeck, |n| steady::measure(&model, s, n), |st| steady::figure(st, s));
    let (f_ref, v_star, scatter) = match &st {
        Some(st) if st.f_ref > 0.0 => (st.f_ref, st.v_star, st.scatter),
        _ => (1.0, 1e-3, 0.0),
    };
    // the steady force at the launch speed of the break-away experiment
    let f_launch = match &st {
        Some(st) if st.f_ref > 0.0 => {
            let lv: Vec<f64> = st.v.iter().map(|v| v.ln()).collect();
            sim::interp(&lv, &st.f, s.launch_velocity.ln())
        }
        _ => f_ref,
    };
    curves.steady = st;

    let mut load = 0.5 * f_ref;
    let f_ba = match &rest {
        Some(r) => Figure::not_run(Property::VaryingBreakaway, r.text().to_string()),
        None => {
            let (f, b) = run_one(
                Property::VaryingBreakaway,
                |n| hold::breakaway(&model, f_ref, f_launch, s, n),
                |b| hold::breakaway_figure(b, scatter, s),
            );
            if let Some(b) = &b {
                if b.force[0].is_finite() && b.force[0] > 0.0 {
                    load = s.hold_fraction * b.force[0];
                }
            }
            curves.breakaway = b;
            f
        }
    };

    let (f_ps, v) =
        run_one(Property::Presliding, |n| virgin::measure(&model, s, n), |v| virgin::figure(v, s));
    let x_half = v.as_ref().and_then(|v| virgin::scale(v, &virgin::figure(v, s)));
    curves.virgin = v;

    let (f_lag, l) =
        run_one(Property::Lag, |n| lag::measure(&model, v_star, f_ref, s, n), |l| lag::figure(l, s));
    curves.lag = l;

    let (f_mem, m) = run_one(
        Property::NonlocalMemory,
        |n| loops::memory(&model, x_half, s, n),
        |m| loops::memory_figure(m, s),
    );
    curves.memory = m;

    let (f_rate, r) = run_one(
        Property::RateIndependent,
        |n| loops::rate_loops(&model, x_half, s, n),
        |r| loops::rate_figure(r, s),
    );
    curves.rate = r;

    let f_hold = match &rest {
        Some(r) => Figure::not_run(Property::Stiction, r.text().to_string()),
        None => {
            let (f, h) =
                run_one(Property::Stiction, |n| hold::hold(&model, load, s, n), |h| hold::hold_figure(h, s));
            curves.hold = h;
            f
        }
    };

    let figures = vec![f_st, f_ba, f_ps, f_lag, f_mem, f_rate, f_hold];
    Ok(ModelRow {
        id: id.to_string(),
        figures,
        time_ms: f64::NAN,
        steps: 0,
        cost_error: None,
        cost_note: String::new(),
        curves,
    })
}

/// Measure the simulation cost of the row's model on the common set-up
/// (not run, with the reason in [`ModelRow::cost_note`], when the model
/// jumps at rest without stick machinery, see [`at_rest`]).
pub fn measure_cost(row: &mut ModelRow) -> Result<(), AnalysisError> {
    let model = build_model(&row.id)?;
    if let Some(AtRest::Jump(why)) = at_rest(&model) {
        row.cost_note = format!("not run: {why}");
        return Ok(());
    }
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| cost::measure(&model)));
    match r {
        Ok(Ok(c)) => {
            row.time_ms = c.time_ms;
            row.steps = c.steps;
            row.cost_note = c.note;
        }
        Ok(Err(e)) => row.cost_error = Some(e.to_string()),
        Err(p) => {
            row.cost_error =
                Some(format!("the model panicked: {}", friction_models::error::panic_message(p.as_ref())))
        }
    }
    Ok(())
}

/// Run the whole battery on the models `ids`, in parallel, then their cost
/// runs one at a time. `progress` is called with a short message after each
/// model's battery and each cost run (2 calls per model).
pub fn compare(
    ids: &[String],
    s: &Settings,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<ModelRow>, AnalysisError> {
    check_ids(ids)?;
    let rows: Result<Vec<ModelRow>, AnalysisError> = ids
        .par_iter()
        .map(|id| {
            let r = measure_model(id, s);
            progress(id);
            r
        })
        .collect();
    let mut rows = rows?;
    for row in &mut rows {
        measure_cost(row)?;
        progress(&format!("{} (cost)", row.id));
    }
    Ok(rows)
}
