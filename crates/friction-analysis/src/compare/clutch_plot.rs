//! The clutch comparison's picture (`clutch.png`): the slip speed and the
//! speed error of the driven body against time, one line per variant.

use std::path::Path;

use friction_plot::plotters::prelude::*;
use friction_plot::Shift;
use friction_sim::Outcome;

use super::clutch::{ClutchRow, ClutchSetup};
use crate::error::AnalysisError;
use crate::figure::{plot_to, DrawError, Figure};

/// `clutch.png`: slip speed and speed error of J2 against time, every
/// variant (`.svg`: SVG, anything else: PNG).
pub fn plot_clutch(
    setup: &ClutchSetup,
    runs: &[(ClutchRow, Outcome)],
    path: &Path,
) -> Result<(), AnalysisError> {
    plot_to(&ClutchFigure { setup, runs }, path, (1100, 900))
}

/// The clutch comparison's picture.
struct ClutchFigure<'a> {
    setup: &'a ClutchSetup,
    runs: &'a [(ClutchRow, Outcome)],
}

impl Figure for ClutchFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        draw_clutch(self.setup, self.runs, root)
    }
}

fn draw_clutch<DB: DrawingBackend>(
    setup: &ClutchSetup,
    runs: &[(ClutchRow, Outcome)],
    root: &DrawingArea<DB, Shift>,
) -> Result<(), DrawError> {
    let panels = root.split_evenly((2, 1));
    let floor = 1e-12f64;
    let t0 = setup.t_on - 0.05;
    for (pi, panel) in panels.iter().enumerate() {
        let (title, yl) = if pi == 0 {
            ("clutch slip speed |w1 - w2| (exact: 0 while locked)", "log10 |w1 - w2| [rad/s]")
        } else {
            ("speed error of J2 against the closed form", "log10 |w2 - w2_exact| [rad/s]")
        };
        let mut chart = ChartBuilder::on(panel)
            .caption(title, ("sans-serif", 18))
            .margin(8)
            .x_label_area_size(34)
            .y_label_area_size(60)
            .build_cartesian_2d(t0..setup.t_end, floor.log10()..2.0)?;
        chart.configure_mesh().x_desc("t [s]").y_desc(yl).draw()?;
        for (k, (row, out)) in runs.iter().enumerate() {
            let t = out.series("t");
            let w1 = out.series(&format!("v.{}", setup.body1));
            let w2 = out.series(&format!("v.{}", setup.body2));
            let color = Palette99::pick(k).to_rgba();
            let pts = (0..t.len()).filter(|&i| t[i] >= t0).map(|i| {
                let y = if pi == 0 { (w1[i] - w2[i]).abs() } else { (w2[i] - setup.speeds(t[i]).1).abs() };
                (t[i], y.max(floor).log10())
            });
            chart
                .draw_series(LineSeries::new(pts, color.stroke_width(2)))?
                .label(row.label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
        }
        if let Some(tl) = setup.lock_time() {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(tl, floor.log10()), (tl, 2.0)],
                BLACK,
            )))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .label_font(("sans-serif", 12))
            .draw()?;
    }
    Ok(())
}
