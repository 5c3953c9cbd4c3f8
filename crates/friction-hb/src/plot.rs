//! The plots of harmonic balance (PNG or SVG by the file's extension): the
//! frequency response (fundamental amplitude of every body against
//! frequency, unstable stretches dashed) and the backbone of a nonlinear mode (frequency and damping
//! against amplitude).

use std::path::Path;

use friction_plot::plotters::prelude::*;
use friction_plot::Shift;

use super::frf::Frf;
use super::nnm::{Nnm, NnmPoint};
use friction_analysis::figure::{plot_to, DrawError, Figure};
use friction_analysis::AnalysisError;

/// Draw `r` into `path` (`.svg`: SVG, anything else: PNG).
pub fn plot_frf(r: &Frf, path: &Path) -> Result<(), AnalysisError> {
    plot_to(r, path, (1000, 600))
}

impl Figure for Frf {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        draw(self, root)
    }
}

fn draw<DB: DrawingBackend>(r: &Frf, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
    let (flo, fhi) =
        r.points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.f), b.max(p.f)));
    let ahi = r.points.iter().flat_map(|p| p.amplitude.iter().copied()).fold(0.0f64, f64::max).max(1e-300);
    let mut chart = ChartBuilder::on(root)
        .margin(15)
        .caption(format!("frequency response by harmonic balance (H = {})", r.harmonics), ("sans-serif", 20))
        .x_label_area_size(40)
        .y_label_area_size(90)
        .build_cartesian_2d(flo..fhi, 0.0..1.05 * ahi)?;
    chart
        .configure_mesh()
        .x_desc("f [Hz]")
        .y_desc("fundamental amplitude [m]")
        .y_label_formatter(&|v| format!("{v:.2e}"))
        .draw()?;
    for (b, name) in r.bodies.iter().enumerate() {
        let color = Palette99::pick(b).to_rgba();
        chart
            .draw_series(LineSeries::new(std::iter::empty::<(f64, f64)>(), color.stroke_width(2)))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
        // runs of equal stability, sharing their end points: solid stable, dashed unstable
        let mut start = 0;
        while start + 1 < r.points.len() {
            let stable = r.points[start].stable && r.points[start + 1].stable;
            let mut end = start + 1;
            while end + 1 < r.points.len() && (r.points[end].stable && r.points[end + 1].stable) == stable {
                end += 1;
            }
            let run = r.points[start..=end].iter().map(|p| (p.f, p.amplitude[b]));
            if stable {
                chart.draw_series(LineSeries::new(run, color.stroke_width(2)))
            } else {
                chart.draw_series(DashedLineSeries::new(run, 8, 6, color.stroke_width(2)))
            }?;
            start = end;
        }
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    Ok(())
}

/// Draw the backbone `r` into `path`: frequency (top) and damping ratio
/// (bottom) against the amplitude on a log axis (`.svg`: SVG, else PNG).
pub fn plot_nnm(r: &Nnm, path: &Path) -> Result<(), AnalysisError> {
    plot_to(r, path, (1000, 800))
}

impl Figure for Nnm {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        draw_nnm(self, root)
    }
}

fn draw_nnm<DB: DrawingBackend>(r: &Nnm, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
    let (alo, ahi) = r
        .points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.amplitude), b.max(p.amplitude)));
    let (alo, ahi) = if alo < ahi { (alo, ahi) } else { (alo / 2.0, alo * 2.0) };
    let areas = root.split_evenly((2, 1));
    type Get = fn(&NnmPoint) -> f64;
    let series: [(&str, Get); 2] = [("f [Hz]", |p| p.f), ("damping ratio ζ", |p| p.zeta)];
    for (area, (label, get)) in areas.iter().zip(series) {
        let (lo, hi) = r
            .points
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(get(p)), b.max(get(p))));
        let pad = 0.05 * (hi - lo).abs().max(1e-6 * hi.abs()).max(1e-300);
        let caption = if label.starts_with('f') {
            format!("nonlinear mode {} of body {} (H = {})", r.mode, r.body, r.harmonics)
        } else {
            String::new()
        };
        let mut chart = ChartBuilder::on(area)
            .margin(15)
            .caption(caption, ("sans-serif", 20))
            .x_label_area_size(40)
            .y_label_area_size(90)
            .build_cartesian_2d((alo..ahi).log_scale(), (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .x_desc(format!("fundamental amplitude of {} [m]", r.body))
            .y_desc(label)
            .x_label_formatter(&|v| format!("{v:.1e}"))
            .y_label_formatter(&|v| format!("{v:.4}"))
            .draw()?;
        chart.draw_series(LineSeries::new(
            r.points.iter().map(|p| (p.amplitude, get(p))),
            BLUE.stroke_width(2),
        ))?;
        chart.draw_series(r.points.iter().map(|p| Circle::new((p.amplitude, get(p)), 3, BLUE.filled())))?;
    }
    Ok(())
}
