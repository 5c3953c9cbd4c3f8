//! The picture of a fit: measured force (dots) against the fitted model
//! (line), over time and over displacement or velocity; and of a tuning:
//! the tuned loops against the target's. The `plot` methods of
//! [`FitResult`] and [`TuneResult`] live here, so that the fit and the
//! tuning do not import their pictures (no import loop).

use std::path::Path;

use friction_plot::plotters::prelude::*;
use friction_plot::Shift;

use crate::error::AnalysisError;
use crate::figure::{plot_to, DrawError, Figure};
use crate::fit::{Evaluator, FitResult};
use crate::tune::TuneResult;

impl FitResult {
    /// Plot data against fit into `path` (`.svg`: SVG, anything else: PNG;
    /// 900 x 720): the force against time (top) and against displacement, or
    /// against velocity for models without memory (bottom); a validation
    /// split is marked.
    pub fn plot(&self, path: &Path) -> Result<(), AnalysisError> {
        plot_to(self, path, (900, 720))
    }
}

impl TuneResult {
    /// Plot the tuned loops against the target loops (one panel per
    /// amplitude, at most 4) into `path` (`.svg`: SVG, anything else: PNG).
    pub fn plot(&self, path: &Path) -> Result<(), AnalysisError> {
        let k = self.cycles.len().clamp(1, 4);
        plot_to(self, path, (1000, 300 + 300 * k as u32))
    }
}

impl Figure for FitResult {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        draw_fit(self, root)
    }
}

impl Figure for TuneResult {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        draw_tune(self, root)
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

/// Draw the fit `r` onto `root`.
fn draw_fit<DB: DrawingBackend>(r: &FitResult, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
    let mut title = format!("fit of {}: rms {:.3e} N", r.model, r.rms);
    if let Some(v) = &r.validation {
        title += &format!(", validation rms {:.3e} N (t >= {})", v.rms, v.from);
    }
    let root = root.titled(&title, ("sans-serif", 20))?;
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
        .build_cartesian_2d(t0..t1, ylo..yhi)?;
    chart
        .configure_mesh()
        .max_light_lines(2)
        .x_desc("t [s]")
        .y_desc("F [N]")
        .y_label_formatter(&|v| format!("{v:.3}"))
        .draw()?;
    chart
        .draw_series(r.t.iter().zip(&r.f_data).map(|(t, f)| Circle::new((*t, *f), 2, data_style.filled())))?
        .label("data")
        .legend(move |(x, y)| Circle::new((x + 10, y), 3, data_style.filled()));
    chart
        .draw_series(LineSeries::new(
            r.t.iter().copied().zip(r.f_fit.iter().copied()),
            fit_style.stroke_width(2),
        ))?
        .label("fit")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], fit_style.stroke_width(2)));
    if let Some(v) = &r.validation {
        chart
            .draw_series(LineSeries::new(vec![(v.from, ylo), (v.from, yhi)], BLACK.stroke_width(1)))?
            .label("fit | validation")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;

    // bottom: F(x) loop, or F(v) for memoryless models
    let (xs, xlabel) = if r.evaluator == Evaluator::Direct { (&r.v, "v [m/s]") } else { (&r.x, "x [m]") };
    let (xlo, xhi) = range(xs, &[]);
    let mut chart = ChartBuilder::on(&panels[1])
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(80)
        .build_cartesian_2d(xlo..xhi, ylo..yhi)?;
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
        .draw()?;
    chart
        .draw_series(xs.iter().zip(&r.f_data).map(|(x, f)| Circle::new((*x, *f), 2, data_style.filled())))?;
    let mut line: Vec<(f64, f64)> = xs.iter().copied().zip(r.f_fit.iter().copied()).collect();
    if r.evaluator == Evaluator::Direct {
        line.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    chart.draw_series(LineSeries::new(line, fit_style.stroke_width(2)))?;
    Ok(())
}

/// Draw the tuned loops (red) against the target loops (blue), one panel
/// per amplitude (at most 4), onto `root`.
fn draw_tune<DB: DrawingBackend>(r: &TuneResult, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
    let k = r.cycles.len().clamp(1, 4);
    let root = root
        .titled(&format!("{}: tuned loops (red) on the target loops (blue)", r.model), ("sans-serif", 20))?;
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
            .build_cartesian_2d(xlo..xhi, ylo..yhi)?;
        chart
            .configure_mesh()
            .max_light_lines(2)
            .x_desc("x [m]")
            .y_desc("F [N]")
            .x_label_formatter(&|v| format!("{v:.2e}"))
            .y_label_formatter(&|v| format!("{v:.3}"))
            .draw()?;
        if let Some(tc) = tc {
            chart
                .draw_series(LineSeries::new(
                    tc.x.iter().copied().zip(tc.f.iter().copied()),
                    target_style.stroke_width(5),
                ))?
                .label("target")
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], target_style.stroke_width(2))
                });
        }
        chart
            .draw_series(LineSeries::new(
                c.x.iter().copied().zip(c.f.iter().copied()),
                tuned_style.stroke_width(2),
            ))?
            .label("tuned")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], tuned_style.stroke_width(2)));
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()?;
    }
    Ok(())
}
