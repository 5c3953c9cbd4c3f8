//! The table as CSV and Markdown, and the plots behind it.

use std::fs;
use std::path::{Path, PathBuf};

use super::plots::{plot_model, plot_property};
use super::property::{Property, Verdict};
use super::setup::Settings;
use super::ModelRow;
use crate::error::AnalysisError;

/// Table 2.1 of Olsson 1996: for each reviewed model (by its id here)
/// the entries for arbitrary steady-state characteristic, stiction, varying
/// break-away force, pre-sliding displacement, frictional lag and simulation
/// efficiency ("+": can be added).
pub const OLSSON: [(&str, [&str; 6]); 7] = [
    ("classical", ["yes", "yes", "-", "-", "+", "-"]),
    ("karnopp", ["yes", "yes", "-", "-", "-", "yes"]),
    ("armstrong", ["yes", "yes", "yes", "yes", "yes", "-"]),
    ("dahl", ["-", "yes", "-", "yes", "-", "yes"]),
    ("bristle", ["yes", "yes", "-", "yes", "-", "-"]),
    ("reset_integrator", ["yes", "yes", "-", "yes", "-", "yes"]),
    ("bliman_sorine", ["-", "yes", "-", "yes", "-", "yes"]),
];

const OLSSON_ROWS: [&str; 6] = [
    "arbitrary steady state",
    "stiction",
    "varying break-away",
    "pre-sliding",
    "frictional lag",
    "efficiency",
];

fn io(path: &Path, e: impl std::fmt::Display) -> AnalysisError {
    AnalysisError::Io { path: path.display().to_string(), message: e.to_string() }
}

fn num(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else {
        format!("{x:.6e}")
    }
}

/// `properties.csv`: a row per model, a column per property, then `time_ms`, `steps`.
pub fn properties_csv(rows: &[ModelRow]) -> String {
    let mut w = csv::Writer::from_writer(vec![]);
    let mut head = vec!["model"];
    head.extend(Property::ALL.iter().map(|p| p.name()));
    head.extend(["time_ms", "steps"]);
    let _ = w.write_record(&head);
    for r in rows {
        let mut rec = vec![r.id.clone()];
        rec.extend(Property::ALL.iter().map(|&p| r.verdict(p).name().to_string()));
        let (time, steps) = if r.cost_error.is_some() {
            ("error".to_string(), "error".to_string())
        } else if r.time_ms.is_nan() {
            ("n/a".into(), "n/a".into())
        } else {
            (format!("{:.1}", r.time_ms), r.steps.to_string())
        };
        rec.push(time);
        rec.push(steps);
        let _ = w.write_record(&rec);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// `figures.csv`: model, property, figure, unit, threshold, verdict, detail.
pub fn figures_csv(rows: &[ModelRow]) -> String {
    let mut w = csv::Writer::from_writer(vec![]);
    let _ = w.write_record(["model", "property", "figure", "unit", "threshold", "verdict", "detail"]);
    for r in rows {
        for f in &r.figures {
            let _ = w.write_record([
                r.id.as_str(),
                f.property.name(),
                &num(f.value),
                f.unit,
                &f.threshold,
                f.verdict.name(),
                &f.detail,
            ]);
        }
        let (fig, verdict, detail) = match &r.cost_error {
            Some(e) => (String::new(), "error", e.clone()),
            None if r.time_ms.is_nan() => (String::new(), "n/a", r.cost_note.clone()),
            None => (
                num(r.time_ms),
                "-",
                format!("wall time of the common stick-slip set-up; method {}", r.cost_note),
            ),
        };
        let _ = w.write_record([r.id.as_str(), "time_ms", &fig, "ms", "", verdict, &detail]);
        let steps = if r.cost_error.is_some() { String::new() } else { r.steps.to_string() };
        let _ =
            w.write_record([r.id.as_str(), "steps", &steps, "-", "", "-", "accepted steps of the same run"]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

fn cell(v: Verdict) -> &'static str {
    match v {
        Verdict::Yes => "yes",
        Verdict::Partial => "partial",
        Verdict::No => "–",
        Verdict::Error => "error",
        Verdict::NotRun => "n/a",
    }
}

/// `properties.md`: the table, how each cell was decided, and Olsson's
/// Table 2.1 next to the measured verdicts.
pub fn markdown(rows: &[ModelRow], s: &Settings) -> String {
    let mut m = String::new();
    m.push_str("# Friction phenomena by measurement\n\n");
    m.push_str(
        "Every model (registry defaults, plus the parameters listed below) went through the same virtual \
         experiments; each cell is decided by a measured figure against a threshold (`figures.csv` has \
         every figure; `plots/` the curves: one picture per model, one per property with all models).\n\n",
    );
    m.push_str("| model |");
    for p in Property::ALL {
        m.push_str(&format!(" {} |", p.name()));
    }
    m.push_str(" time_ms | steps |\n|---|");
    for _ in Property::ALL {
        m.push_str("---|");
    }
    m.push_str("---:|---:|\n");
    for r in rows {
        m.push_str(&format!("| `{}` |", r.id));
        for p in Property::ALL {
            m.push_str(&format!(" {} |", cell(r.verdict(p))));
        }
        let mark = if r.cost_note.contains("failed") { " (¹)" } else { "" };
        if r.cost_error.is_some() {
            m.push_str(" error | error |\n");
        } else if r.time_ms.is_nan() {
            m.push_str(" n/a | n/a |\n");
        } else {
            m.push_str(&format!(" {:.1}{mark} | {} |\n", r.time_ms, r.steps));
        }
    }
    for r in rows.iter().filter(|r| r.cost_note.contains("failed")) {
        m.push_str(&format!("\n(¹) `{}`: {}\n", r.id, r.cost_note));
    }
    let na: Vec<_> = rows
        .iter()
        .filter(|r| r.figures.iter().any(|f| f.verdict == Verdict::NotRun) || r.time_ms.is_nan())
        .collect();
    if !na.is_empty() {
        m.push_str("\nn/a: the experiment cannot be simulated with this model:\n\n");
        for r in na {
            let why = r
                .figures
                .iter()
                .find(|f| f.verdict == Verdict::NotRun)
                .map(|f| f.detail.clone())
                .unwrap_or_else(|| r.cost_note.clone());
            m.push_str(&format!("- `{}`: {why}\n", r.id));
        }
    }
    let th = &s.thresholds;
    m.push_str("\n## How each cell is decided\n\n");
    m.push_str("F_ref is the model's largest steady sliding force (first experiment); x½ the displacement at which the virgin curve reaches half its sliding force.\n\n");
    m.push_str("| property | experiment | figure | thresholds |\n|---|---|---|---|\n");
    let v = &s.steady_velocities;
    let lines = [
        (
            Property::Stribeck,
            format!(
                "driven at {} speeds from {:.0e} to {:.0e} m/s, ≥ {:.0e} m or {} s each; mean force over the last 30 %",
                v.len(),
                v.first().unwrap_or(&0.0),
                v.last().unwrap_or(&0.0),
                s.steady_distance,
                s.steady_min_time
            ),
            "largest fall of the steady force with rising speed, less the scatter (one standard deviation) within each of the two windows, / F_ref".to_string(),
            th.stribeck.text(),
        ),
        (
            Property::VaryingBreakaway,
            format!(
                "body of {} kg (dashpot {:.1} N s/m unless set-valued) slides at {} m/s for {} s, held there by its steady friction; the force is removed and it stops; from {} s a force ramp at {} and {} F_ref/s; F_ba = largest friction force before the body exceeds {:.0e} m/s again",
                s.breakaway_mass, s.breakaway_damper, s.launch_velocity, s.launch_time, s.breakaway_start, s.force_rates[0], s.force_rates[1], s.breakaway_velocity
            ),
            "(abs(F_ba(fast) - F_ba(slow)) - 2 x scatter of the steady force) / F_ba(slow)".into(),
            th.breakaway.text(),
        ),
        (
            Property::Presliding,
            format!(
                "driven from rest over {:.0e} m at {:.0e} and {:.0e} m/s, sampled from 1e-9 m",
                s.presliding_distance, s.presliding_speeds[0], s.presliding_speeds[1]
            ),
            "x½ at the slow speed [m]".into(),
            format!("{}; x½(fast)/x½(slow) ≤ {} (else a time lag)", th.presliding.text(), th.presliding_max_ratio),
        ),
        (
            Property::Lag,
            format!(
                "v = v* (2 + 1.5 sin 2πft), f = {:?} Hz, v* = steepest fall of the steady curve (1e-3 m/s without one)",
                s.lag_frequencies
            ),
            "F-v loop width 2 (abs(b1) - noise) / F_ref: b1 the out-of-phase first harmonic, noise the largest projection on the non-harmonic 1.5 f and 2.5 f".into(),
            th.lag.text(),
        ),
        (
            Property::NonlocalMemory,
            format!(
                "driven at {:.0e} m/s along 0, A, -A, A, -A, 0.4A, -0.4A, A with A = {} x½ (1e-5 m without pre-sliding)",
                s.memory_speed, s.memory_amplitude
            ),
            "largest gap between the last branch and the outer ascending branch on [0.4A, A] / range".into(),
            format!("{}; inner loop ≥ {} of the range from the outer", th.memory.text(), th.memory_min_inner),
        ),
        (
            Property::RateIndependent,
            format!(
                "loop 0, A, -A, A with A = {} x½ (5e-5 m without pre-sliding) at {} m/s",
                s.loop_amplitude,
                s.loop_speeds.iter().map(|v| format!("{v:.0e}")).collect::<Vec<_>>().join(", ")
            ),
            "largest force difference from the slowest loop at the same point of the path / its range".into(),
            th.rate.text(),
        ),
        (
            Property::Stiction,
            format!(
                "body of {} kg with a {:.0} N s/m dashpot to the ground, load rising smoothly over {} s to {} F_ba(slow), held {} s",
                s.mass, s.hold_damper, s.hold_rise, s.hold_fraction, s.hold_time
            ),
            "creep: mean position over the last second − over the second after the rise [m]".into(),
            th.stiction.text(),
        ),
    ];
    for (p, exp, fig, thr) in lines {
        m.push_str(&format!("| `{}` | {exp} | {fig} | {thr} |\n", p.name()));
    }
    m.push_str(
        "| `time_ms`, `steps` | the LuGre stick-slip set-up (1 kg, 2 N/m spring pulled at 0.1 m/s, 20 s, rtol 1e-6, method auto; esdirk34, tr_bdf2, then tsit45 if it fails; tsit45 first for a model too steep at rest) with this contact, run alone | wall time (depends on the machine and its load), accepted steps | — |\n",
    );
    m.push_str(
        "\nModels built with more than their defaults: `maxwell_slip` and `leuven` with the elements \
         [[4e4, 0.25], [3e4, 0.25], [2e4, 0.25], [1e4, 0.25]] (N/m, N), `gms` with the same stiffnesses and \
         α = 0.25 each; `stochastic` wraps `coulomb_tanh` (with a stateful inner model it panics in the engine, see the report) and `meta_coulomb` its default inner model (`dahl`). The \
         contact is driven kinematically in the driven experiments: set-valued models there have no stick \
         machinery (their force at v = 0 is 0), and `karnopp` gives 0 inside its band |v| < DV.\n",
    );

    let olsson: Vec<_> = OLSSON.iter().filter(|(id, _)| rows.iter().any(|r| r.id == *id)).collect();
    if !olsson.is_empty() {
        m.push_str("\n## Against Table 2.1 of Olsson 1996\n\n");
        m.push_str(
            "Olsson's entry / the measured verdict. Olsson's \"arbitrary steady state\" says a model *can* \
             take any steady curve; the measurement (`stribeck`) says whether it *does* with its default \
             parameters. \"+\" means \"can be added\". Olsson's second row lost its label in the seed's \
             extraction; it is stiction.\n\n",
        );
        m.push_str("| model |");
        for r in OLSSON_ROWS {
            m.push_str(&format!(" {r} |"));
        }
        m.push_str("\n|---|---|---|---|---|---|---|\n");
        for (id, entries) in olsson {
            let row = rows.iter().find(|r| r.id == *id).expect("filtered");
            let measured = [
                cell(row.verdict(Property::Stribeck)).to_string(),
                cell(row.verdict(Property::Stiction)).to_string(),
                cell(row.verdict(Property::VaryingBreakaway)).to_string(),
                cell(row.verdict(Property::Presliding)).to_string(),
                cell(row.verdict(Property::Lag)).to_string(),
                if row.cost_error.is_some() { "error".into() } else { format!("{} steps", row.steps) },
            ];
            m.push_str(&format!("| `{id}` |"));
            for (o, me) in entries.iter().zip(measured) {
                m.push_str(&format!(" {o} / {me} |"));
            }
            m.push('\n');
        }
    }
    m
}

/// Write `properties.csv`, `figures.csv`, `properties.md` and, if `plots`,
/// `plots/MODEL.png` for every model and `plots/PROPERTY.png` for every
/// property into `dir`. Returns the files written.
pub fn write_report(
    rows: &[ModelRow],
    s: &Settings,
    dir: &Path,
    plots: bool,
) -> Result<Vec<PathBuf>, AnalysisError> {
    fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let mut written = vec![];
    for (name, text) in [
        ("properties.csv", properties_csv(rows)),
        ("figures.csv", figures_csv(rows)),
        ("properties.md", markdown(rows, s)),
    ] {
        let p = dir.join(name);
        fs::write(&p, text).map_err(|e| io(&p, e))?;
        written.push(p);
    }
    if plots {
        let pd = dir.join("plots");
        fs::create_dir_all(&pd).map_err(|e| io(&pd, e))?;
        for r in rows {
            let p = pd.join(format!("{}.png", r.id));
            plot_model(r, &p)?;
            written.push(p);
        }
        for prop in Property::ALL {
            let p = pd.join(format!("{}.png", prop.name()));
            plot_property(rows, prop, s.thresholds.band(prop), &p)?;
            written.push(p);
        }
    }
    Ok(written)
}
