//! Writing results: the CSV time series, `summary.json` and a PNG plot.

use std::fs;
use std::path::Path;

use plotters::prelude::*;
use serde_json::{json, Value};

use crate::engine::Outcome;
use crate::error::SimError;
use crate::scenario::System;

static FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");

/// Register the bundled font with plotters (idempotent).
pub fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // the font is compiled in; failure would be a build defect
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

fn io(path: &Path, e: std::io::Error) -> SimError {
    SimError::Io { path: path.display().to_string(), source: e }
}

/// Write `timeseries.csv`, `summary.json` and `plot.png` into `dir`.
pub fn write_all(sys: &System, out: &Outcome, dir: &Path) -> Result<(), SimError> {
    fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    write_csv(out, &dir.join("timeseries.csv"))?;
    let summary = summary(sys, out);
    let p = dir.join("summary.json");
    fs::write(&p, serde_json::to_string_pretty(&summary).unwrap_or_default()).map_err(|e| io(&p, e))?;
    plot(out, &dir.join("plot.png"), &sys.name)?;
    Ok(())
}

/// Write the time series as CSV.
pub fn write_csv(out: &Outcome, path: &Path) -> Result<(), SimError> {
    let mut w = csv::Writer::from_path(path).map_err(|e| SimError::Io {
        path: path.display().to_string(),
        source: std::io::Error::other(e.to_string()),
    })?;
    let err = |e: csv::Error| SimError::Io {
        path: path.display().to_string(),
        source: std::io::Error::other(e.to_string()),
    };
    w.write_record(&out.columns).map_err(err)?;
    for r in &out.rows {
        w.write_record(r.iter().map(|x| format!("{x:e}"))).map_err(err)?;
    }
    w.flush().map_err(|e| io(path, e))?;
    Ok(())
}

/// The summary: final values, events, statistics, energy balance.
pub fn summary(sys: &System, out: &Outcome) -> Value {
    let finals: serde_json::Map<String, Value> = match out.rows.last() {
        Some(r) => out.columns.iter().zip(r).map(|(c, v)| (c.clone(), json!(v))).collect(),
        None => Default::default(),
    };
    let e = &out.energy;
    let dissipated: f64 =
        e.contacts.iter().map(|c| c.1).sum::<f64>() + e.dampers.iter().map(|d| d.1).sum::<f64>() + e.impacts;
    json!({
        "name": sys.name,
        "status": if out.failure.is_some() { "failed" } else { "ok" },
        "partial": out.failure.is_some(),
        "error": out.failure,
        "final": finals,
        "events": out.events.iter().map(|ev| json!({"t": ev.t, "contact": ev.contact, "from": ev.from, "to": ev.to})).collect::<Vec<_>>(),
        "stats": {
            "method": out.stats.method,
            "steps": out.stats.steps,
            "rejected_steps": out.stats.rejected,
            "rhs_evaluations": out.stats.rhs_evals,
            "wall_time_s": out.stats.wall_time,
            "events": {
                "stick_slip": out.stats.events_stick_slip,
                "stops": out.stats.events_stops,
                "engagement": out.stats.events_engagement,
                "reversals": out.stats.events_reversals,
            },
            "lcp": {
                "solves": out.stats.lcp_solves,
                "pivots": out.stats.lcp_pivots,
                "largest": out.stats.lcp_max_size,
            },
        },
        "energy": {
            "work_forces": e.work_forces,
            "work_drivers": e.work_drivers,
            "kinetic_start": e.kinetic.0,
            "kinetic_end": e.kinetic.1,
            "spring_start": e.spring.0,
            "spring_end": e.spring.1,
            "contacts": e.contacts.iter().map(|(n, w)| (n.clone(), json!(w))).collect::<serde_json::Map<_, _>>(),
            "dampers": e.dampers.iter().map(|(n, w)| (n.clone(), json!(w))).collect::<serde_json::Map<_, _>>(),
            "impacts": e.impacts,
            "dissipated_total": dissipated,
            "residual": e.residual,
            "residual_relative": e.residual.abs() / dissipated.abs().max(e.work_forces.abs() + e.work_drivers.abs()).max(1e-300),
        },
    })
}

/// A PNG with positions, velocities and friction forces against time.
pub fn plot(out: &Outcome, path: &Path, title: &str) -> Result<(), SimError> {
    register_font();
    let perr =
        |e: String| SimError::Io { path: path.display().to_string(), source: std::io::Error::other(e) };
    let root = BitMapBackend::new(path, (1000, 900)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
    let root = root.titled(title, ("sans-serif", 22)).map_err(|e| perr(e.to_string()))?;
    let panels = root.split_evenly((3, 1));
    let t: Vec<f64> = out.rows.iter().map(|r| r[0]).collect();
    let (t0, t1) = (t.first().copied().unwrap_or(0.0), t.last().copied().unwrap_or(1.0).max(1e-300));
    for (panel, (prefix, label)) in
        panels.iter().zip([("x.", "position"), ("v.", "velocity"), ("F.", "friction force")])
    {
        let cols: Vec<usize> =
            out.columns.iter().enumerate().filter(|(_, c)| c.starts_with(prefix)).map(|(i, _)| i).collect();
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for &c in &cols {
            for r in &out.rows {
                if r[c].is_finite() {
                    lo = lo.min(r[c]);
                    hi = hi.max(r[c]);
                }
            }
        }
        if !lo.is_finite() {
            (lo, hi) = (-1.0, 1.0);
        }
        let pad = ((hi - lo) * 0.05).max(1e-12 * (1.0 + hi.abs()));
        let mut chart = ChartBuilder::on(panel)
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(80)
            .build_cartesian_2d(t0..t1, (lo - pad)..(hi + pad))
            .map_err(|e| perr(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc("t [s]")
            .y_desc(label)
            .y_label_formatter(&|v| format!("{v:.3e}"))
            .draw()
            .map_err(|e| perr(e.to_string()))?;
        for (k, &c) in cols.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            let name = out.columns[c].clone();
            chart
                .draw_series(LineSeries::new(out.rows.iter().map(|r| (r[0], r[c])), color.stroke_width(2)))
                .map_err(|e| perr(e.to_string()))?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        if !cols.is_empty() {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(|e| perr(e.to_string()))?;
        }
    }
    root.present().map_err(|e| perr(e.to_string()))?;
    Ok(())
}
