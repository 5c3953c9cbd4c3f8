//! Plots that lay several harmonic-balance results over each other: the
//! frequency responses of one structure at several force levels (the
//! receptance |X|/F of one body, which is one curve for a linear structure
//! and parts with the load for a jointed one), and the backbones of several
//! joint models (frequency and damping ratio against amplitude).

use std::path::Path;

use friction_plot::plotters::prelude::*;
use friction_plot::Shift;

use super::frf::Frf;
use super::nnm::{Nnm, NnmPoint};
use friction_analysis::figure::{plot_to, DrawError, Figure};
use friction_analysis::AnalysisError;

/// Frequency responses at several force levels, drawn as the receptance
/// of one body.
#[derive(Debug, Clone, Copy)]
pub struct FrfLevels<'a> {
    /// `(force amplitude [N], response)` per level.
    pub levels: &'a [(f64, Frf)],
    /// Index of the body drawn (in `Frf::bodies`).
    pub body: usize,
}

/// Draw `levels` into `path` (`.svg`: SVG, anything else: PNG).
pub fn plot_frf_levels(levels: FrfLevels<'_>, path: &Path) -> Result<(), AnalysisError> {
    plot_to(&levels, path, (1000, 600))
}

impl Figure for FrfLevels<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let b = self.body;
        let pts = || {
            self.levels.iter().flat_map(|(fa, r)| r.points.iter().map(move |p| (p.f, p.amplitude[b] / fa)))
        };
        let (flo, fhi, hi) = pts().fold((f64::INFINITY, f64::NEG_INFINITY, 0.0f64), |(a, c, h), (f, x)| {
            (a.min(f), c.max(f), h.max(x))
        });
        let name = self.levels.first().map_or("", |(_, r)| r.bodies[b].as_str());
        let mut chart = ChartBuilder::on(root)
            .margin(15)
            .caption(
                format!("receptance of {name} at {} force levels", self.levels.len()),
                ("sans-serif", 20),
            )
            .x_label_area_size(40)
            .y_label_area_size(90)
            .build_cartesian_2d(flo..fhi, 0.0..1.05 * hi.max(1e-300))?;
        chart
            .configure_mesh()
            .x_desc("f [Hz]")
            .y_desc(format!("|X| / F of {name} [m/N]"))
            .y_label_formatter(&|v| format!("{v:.2e}"))
            .draw()?;
        for (k, (fa, r)) in self.levels.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            let line = r.points.iter().map(|p| (p.f, p.amplitude[b] / fa));
            chart
                .draw_series(LineSeries::new(line, color.stroke_width(2)))?
                .label(format!("F = {fa} N"))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
        }
        chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
        Ok(())
    }
}

/// Backbones of several models of one structure, each with its label.
#[derive(Debug, Clone, Copy)]
pub struct Backbones<'a> {
    /// `(label, backbone)` per model.
    pub entries: &'a [(String, Nnm)],
}

/// Draw `b` into `path`: frequency (top) and damping ratio (bottom)
/// against a log amplitude axis (`.svg`: SVG, anything else: PNG).
pub fn plot_backbones(b: Backbones<'_>, path: &Path) -> Result<(), AnalysisError> {
    plot_to(&b, path, (1000, 800))
}

impl Figure for Backbones<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let all = || self.entries.iter().flat_map(|(_, r)| r.points.iter());
        let (alo, ahi) = all()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.amplitude), b.max(p.amplitude)));
        let (alo, ahi) = if alo < ahi { (alo, ahi) } else { (alo / 2.0, alo * 2.0) };
        let body = self.entries.first().map_or("", |(_, r)| r.body.as_str());
        type Get = fn(&NnmPoint) -> f64;
        let series: [(&str, Get); 2] = [("f [Hz]", |p| p.f), ("damping ratio ζ", |p| p.zeta)];
        for (i, (area, (label, get))) in root.split_evenly((2, 1)).iter().zip(series).enumerate() {
            let (lo, hi) =
                all().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(get(p)), b.max(get(p))));
            let pad = 0.05 * (hi - lo).abs().max(1e-6 * hi.abs()).max(1e-300);
            let caption =
                if i == 0 { format!("backbones of the joint models, body {body}") } else { String::new() };
            let mut chart = ChartBuilder::on(area)
                .margin(15)
                .caption(caption, ("sans-serif", 20))
                .x_label_area_size(40)
                .y_label_area_size(90)
                .build_cartesian_2d((alo..ahi).log_scale(), (lo - pad)..(hi + pad))?;
            chart
                .configure_mesh()
                .x_desc(format!("fundamental amplitude of {body} [m]"))
                .y_desc(label)
                .x_label_formatter(&|v| format!("{v:.0e}"))
                .y_label_formatter(&|v| if i == 0 { format!("{v:.1}") } else { format!("{v:.3}") })
                .draw()?;
            for (k, (name, r)) in self.entries.iter().enumerate() {
                let color = Palette99::pick(k).to_rgba();
                let line = r.points.iter().map(|p| (p.amplitude, get(p)));
                let s = chart.draw_series(LineSeries::new(line, color.stroke_width(2)))?;
                if i == 0 {
                    s.label(name.clone()).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                    });
                }
            }
            if i == 0 {
                chart
                    .configure_series_labels()
                    .position(SeriesLabelPosition::LowerLeft)
                    .background_style(WHITE.mix(0.8))
                    .border_style(BLACK)
                    .draw()?;
            }
        }
        Ok(())
    }
}
