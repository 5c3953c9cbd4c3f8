//! The picture of a fit: measured force (dots) against the fitted model
//! (line), over time and over displacement or velocity; and of a tuning:
//! the tuned loops against the target's. The `plot` methods of
//! [`FitResult`] and [`TuneResult`] live here, so that the fit and the
//! tuning do not import their pictures (no import loop).

use std::path::Path;

use plotters::prelude::*;

use crate::error::AnalysisError;
use crate::fit::{Evaluator, FitResult};
use crate::tune::TuneResult;

impl FitResult {
    /// Plot data against fit into a PNG: the force against time (top) and
    /// against displacement, or against velocity for models without memory
    /// (bottom); a validation split is marked.
    pub fn plot(&self, path: &Path) -> Result<(), AnalysisError> {
        plot(self, path)
    }
}

impl TuneResult {
    /// Plot the tuned loops against the target loops (one panel per
    /// amplitude, at most 4) into a PNG.
    pub fn plot(&self, path: &std::path::Path) -> Result<(), AnalysisError> {
        plot_tune(self, path)
    }
}

fn range(a: &[f64], b: &[f64]) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for x in a.iter().chain(b) {
        if x.is_finite() {
            lo = lo.min(*x);
            hi = hi.max(*x);
        }
    }
    if !lo.is_finite() {
        return (-1.0, 1.0);
    }
    let pad = ((hi - lo) * 0.05).max(1e-12 * (1.0 + hi.abs()));
    (lo - pad, hi + pad)
}

/// Draw `r` into the PNG `path` (900 x 720).
fn plot(r: &FitResult, path: &Path) -> Result<(), AnalysisError> {
    friction_sim::output::register_font();
    let perr = |e: String| AnalysisError::Io { path: path.display().to_string(), message: e };
    let root = BitMapBackend::new(path, (900, 720)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
    let mut title = format!("fit of {}: rms {:.3e} N", r.model, r.rms);
    if let Some(v) = &r.validation {
        title += &format!(", validation rms {:.3e} N (t >= {})", v.rms, v.from);
    }
    let root = root.titled(&title, ("sans-serif", 20)).map_err(|e| perr(e.to_string()))?;
    let panels = root.split_evenly((2, 1));
    let data_style = RGBColor(30, 90, 200).mix(0.6);
    let fit_style = RGBColor(220, 40, 30);
    let (ylo, yhi) = range(&r.f_data, &r.f_fit);

    // top: F(t)
    let (t0, t1) = (r.t[0], r.t[r.t.len() - 1]);
    let mut chart = ChartBuilder::on(&panels[0])
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(80)
        .build_cartesian_2d(t0..t1, ylo..yhi)
        .map_err(|e| perr(e.to_string()))?;
    chart
        .configure_mesh()
        .max_light_lines(2)
        .x_desc("t [s]")
        .y_desc("F [N]")
        .y_label_formatter(&|v| format!("{v:.3}"))
        .draw()
        .map_err(|e| perr(e.to_string()))?;
    chart
        .draw_series(r.t.iter().zip(&r.f_data).map(|(t, f)| Circle::new((*t, *f), 2, data_style.filled())))
        .map_err(|e| perr(e.to_string()))?
        .label("data")
        .legend(move |(x, y)| Circle::new((x + 10, y), 3, data_style.filled()));
    chart
        .draw_series(LineSeries::new(
            r.t.iter().copied().zip(r.f_fit.iter().copied()),
            fit_style.stroke_width(2),
        ))
        .map_err(|e| perr(e.to_string()))?
        .label("fit")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], fit_style.stroke_width(2)));
    if let Some(v) = &r.validation {
        chart
            .draw_series(LineSeries::new(vec![(v.from, ylo), (v.from, yhi)], BLACK.stroke_width(1)))
            .map_err(|e| perr(e.to_string()))?
            .label("fit | validation")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(|e| perr(e.to_string()))?;

    // bottom: F(x) loop, or F(v) for memoryless models
    let (xs, xlabel) = if r.evaluator == Evaluator::Direct { (&r.v, "v [m/s]") } else { (&r.x, "x [m]") };
    let (xlo, xhi) = range(xs, &[]);
    let mut chart = ChartBuilder::on(&panels[1])
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(80)
        .build_cartesian_2d(xlo..xhi, ylo..yhi)
        .map_err(|e| perr(e.to_string()))?;
    chart
        .configure_mesh()
        .max_light_lines(2)
        .x_desc(xlabel)
        .y_desc("F [N]")
        .x_label_formatter(&|v| {
            if v.abs() < 1e-9 * (xhi - xlo) {
                "0".to_string()
            } else {
                format!("{v:.2e}")
            }
        })
        .y_label_formatter(&|v| format!("{v:.3}"))
        .draw()
        .map_err(|e| perr(e.to_string()))?;
    chart
        .draw_series(xs.iter().zip(&r.f_data).map(|(x, f)| Circle::new((*x, *f), 2, data_style.filled())))
        .map_err(|e| perr(e.to_string()))?;
    let mut line: Vec<(f64, f64)> = xs.iter().copied().zip(r.f_fit.iter().copied()).collect();
    if r.evaluator == Evaluator::Direct {
        line.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    chart.draw_series(LineSeries::new(line, fit_style.stroke_width(2))).map_err(|e| perr(e.to_string()))?;
    root.present().map_err(|e| perr(e.to_string()))?;
    Ok(())
}

/// Draw the tuned loops (red) against the target loops (blue), one panel
/// per amplitude (at most 4), into the PNG `path`.
fn plot_tune(r: &TuneResult, path: &Path) -> Result<(), AnalysisError> {
    friction_sim::output::register_font();
    let perr = |e: String| AnalysisError::Io { path: path.display().to_string(), message: e };
    let k = r.cycles.len().clamp(1, 4);
    let root = BitMapBackend::new(path, (1000, 300 + 300 * k as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| perr(e.to_string()))?;
    let root = root
        .titled(&format!("{}: tuned loops (red) on the target loops (blue)", r.model), ("sans-serif", 20))
        .map_err(|e| perr(e.to_string()))?;
    let panels = root.split_evenly((k, 1));
    let target_style = RGBColor(30, 90, 200);
    let tuned_style = RGBColor(220, 40, 30);
    for (i, panel) in panels.iter().enumerate().take(k) {
        let c = &r.cycles[i];
        let tc = r.target_cycles.get(i);
        let p = &r.points[i];
        let (ylo, yhi) = range(&c.f, tc.map_or(&[][..], |t| &t.f[..]));
        let (xlo, xhi) = range(&c.x, &[]);
        let mut chart = ChartBuilder::on(panel)
            .margin(10)
            .caption(
                format!("u0 = {:.3e} m: target {:.4e} J, tuned {:.4e} J", p.amplitude, p.target, p.achieved),
                ("sans-serif", 16),
            )
            .x_label_area_size(35)
            .y_label_area_size(80)
            .build_cartesian_2d(xlo..xhi, ylo..yhi)
            .map_err(|e| perr(e.to_string()))?;
        chart
            .configure_mesh()
            .max_light_lines(2)
            .x_desc("x [m]")
            .y_desc("F [N]")
            .x_label_formatter(&|v| format!("{v:.2e}"))
            .y_label_formatter(&|v| format!("{v:.3}"))
            .draw()
            .map_err(|e| perr(e.to_string()))?;
        if let Some(tc) = tc {
            chart
                .draw_series(LineSeries::new(
                    tc.x.iter().copied().zip(tc.f.iter().copied()),
                    target_style.stroke_width(5),
                ))
                .map_err(|e| perr(e.to_string()))?
                .label("target")
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], target_style.stroke_width(2))
                });
        }
        chart
            .draw_series(LineSeries::new(
                c.x.iter().copied().zip(c.f.iter().copied()),
                tuned_style.stroke_width(2),
            ))
            .map_err(|e| perr(e.to_string()))?
            .label("tuned")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], tuned_style.stroke_width(2)));
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| perr(e.to_string()))?;
    }
    root.present().map_err(|e| perr(e.to_string()))?;
    Ok(())
}
