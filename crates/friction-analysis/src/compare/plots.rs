//! The pictures behind the table: one per model (every experiment), one per
//! property (every model's figure against the thresholds).

use std::path::Path;

use friction_plot::plotters::prelude::*;
use friction_plot::Shift;

use super::property::{Band, Property, Verdict};
use super::ModelRow;
use crate::error::AnalysisError;
use crate::figure::{plot_to, DrawError, Figure};

/// A named curve.
struct Curve {
    label: String,
    points: Vec<(f64, f64)>,
}

fn curve(label: impl Into<String>, points: Vec<(f64, f64)>) -> Curve {
    Curve { label: label.into(), points }
}

fn bounds(curves: &[Curve]) -> Option<(f64, f64, f64, f64)> {
    let mut b = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
    for c in curves {
        for &(x, y) in &c.points {
            if x.is_finite() && y.is_finite() {
                b = (b.0.min(x), b.1.max(x), b.2.min(y), b.3.max(y));
            }
        }
    }
    if !b.0.is_finite() {
        return None;
    }
    let px = ((b.1 - b.0) * 0.03).max(1e-12 * (1.0 + b.1.abs()));
    let py = ((b.3 - b.2) * 0.05).max(1e-12 * (1.0 + b.3.abs()));
    Some((b.0 - px, b.1 + px, b.2 - py, b.3 + py))
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    xl: &str,
    yl: &str,
    curves: &[Curve],
) -> Result<(), DrawError> {
    let Some((x0, x1, y0, y1)) = bounds(curves) else {
        area.draw(&Text::new(format!("{title}: no data"), (20, 20), ("sans-serif", 16)))?;
        return Ok(());
    };
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 16))
        .margin(6)
        .x_label_area_size(34)
        .y_label_area_size(64)
        .build_cartesian_2d(x0..x1, y0..y1)?;
    chart
        .configure_mesh()
        .x_desc(xl)
        .y_desc(yl)
        .x_labels(5)
        .y_labels(5)
        .x_label_formatter(&|v| format!("{v:.2e}"))
        .y_label_formatter(&|v| {
            let scale = y0.abs().max(y1.abs());
            if !(1e-2..1e4).contains(&scale) {
                format!("{v:.2e}")
            } else {
                format!("{v:.3}")
            }
        })
        .label_style(("sans-serif", 11))
        .draw()?;
    for (k, c) in curves.iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        chart
            .draw_series(LineSeries::new(
                c.points.iter().copied().filter(|p| p.0.is_finite() && p.1.is_finite()),
                color.stroke_width(2),
            ))?
            .label(c.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    if curves.len() > 1 {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .label_font(("sans-serif", 11))
            .position(SeriesLabelPosition::LowerRight)
            .draw()?;
    }
    Ok(())
}

/// One picture of every experiment of a model (3 x 3 panels; `.svg`: SVG,
/// anything else: PNG).
pub fn plot_model(row: &ModelRow, path: &Path) -> Result<(), AnalysisError> {
    plot_to(&ModelFigure(row), path, (1500, 1200))
}

/// The picture of one model's experiments.
struct ModelFigure<'a>(&'a ModelRow);

impl Figure for ModelFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        draw_model(self.0, root)
    }
}

fn draw_model<DB: DrawingBackend>(row: &ModelRow, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
    let root = root.titled(&format!("friction compare: {}", row.id), ("sans-serif", 22))?;
    let p = root.split_evenly((3, 3));
    let c = &row.curves;
    let lg = |v: f64| v.log10();
    if let Some(st) = &c.steady {
        let pts = st.v.iter().zip(&st.f).map(|(v, f)| (lg(*v), *f)).collect();
        panel(&p[0], "steady state", "log10 v [m/s]", "F [N]", &[curve("steady", pts)])?;
    }
    if let Some(v) = &c.virgin {
        let cs: Vec<Curve> = (0..2)
            .map(|i| {
                curve(
                    format!("{:.0e} m/s", v.speeds[i]),
                    v.curves[i].iter().filter(|p| p.0 > 0.0).map(|p| (lg(p.0), p.1)).collect(),
                )
            })
            .collect();
        panel(&p[1], "virgin curve (pre-sliding)", "log10 x [m]", "F [N]", &cs)?;
    }
    if let Some(r) = &c.rate {
        let cs: Vec<Curve> =
            r.speeds.iter().zip(&r.curves).map(|(v, c)| curve(format!("{v:.0e} m/s"), c.clone())).collect();
        panel(&p[2], "loops at several speeds (rate independence)", "x [m]", "F [N]", &cs)?;
    }
    if let Some(m) = &c.memory {
        let outer: Vec<(f64, f64)> = m.legs.iter().take(4).flatten().copied().collect();
        let inner: Vec<(f64, f64)> = m.legs.iter().skip(4).flatten().copied().collect();
        panel(
            &p[3],
            "outer and inner loop (memory)",
            "x [m]",
            "F [N]",
            &[curve("outer", outer), curve("inner, then on to A", inner)],
        )?;
    }
    if let Some(l) = &c.lag {
        panel(
            &p[4],
            "F-v under velocity oscillation (lag)",
            "v [m/s]",
            "F [N]",
            &[curve("last cycle", l.loop_vf.clone())],
        )?;
    }
    if let Some(b) = &c.breakaway {
        let cs: Vec<Curve> =
            (0..2).map(|i| curve(format!("{:.2e} N/s", b.rates[i]), b.curves[i].clone())).collect();
        panel(&p[5], "break-away at two force rates", "applied force P [N]", "friction F [N]", &cs)?;
    }
    if let Some(h) = &c.hold {
        panel(
            &p[6],
            &format!("held at {:.3} N (stiction)", h.load),
            "t [s]",
            "x [m]",
            &[curve("with dashpot", h.curve.clone()), curve("without", h.curve_undamped.clone())],
        )?;
    }
    // verdicts as text
    let area = &p[7];
    let mut y = 20;
    for f in &row.figures {
        let color = verdict_color(f.verdict);
        let fig = if f.value.is_nan() { "-".to_string() } else { format!("{:.3e} {}", f.value, f.unit) };
        area.draw(&Text::new(
            format!("{:<18} {:<8} {}", f.property.name(), f.verdict.name(), fig),
            (10, y),
            ("sans-serif", 15).into_font().color(&color),
        ))?;
        y += 24;
    }
    let cost = match &row.cost_error {
        Some(_) => "cost: error".to_string(),
        None => format!(
            "cost: {:.1} ms, {} steps ({})",
            row.time_ms,
            row.steps,
            row.cost_note.split(',').next().unwrap_or("")
        ),
    };
    area.draw(&Text::new(cost, (10, y + 10), ("sans-serif", 15)))?;
    Ok(())
}

fn verdict_color(v: Verdict) -> RGBColor {
    match v {
        Verdict::Yes => RGBColor(0, 130, 60),
        Verdict::Partial => RGBColor(220, 140, 0),
        Verdict::No => RGBColor(120, 120, 120),
        Verdict::Error => RGBColor(200, 0, 0),
        Verdict::NotRun => RGBColor(90, 90, 200),
    }
}

/// Smallest value shown on the log axis of a property's figure.
fn floor(p: Property) -> f64 {
    match p {
        Property::Presliding => 1e-10,
        Property::Stiction => 1e-15,
        _ => 1e-6,
    }
}

/// One picture of a property: every model's figure (log scale) as a bar,
/// coloured by its verdict, with the two thresholds of `band` (black: yes,
/// grey: partial; `.svg`: SVG, anything else: PNG).
pub fn plot_property(
    rows: &[ModelRow],
    prop: Property,
    band: Band,
    path: &Path,
) -> Result<(), AnalysisError> {
    let height = (120 + 26 * rows.len().max(1)).max(300) as u32;
    plot_to(&PropertyFigure { rows, prop, band }, path, (900, height))
}

/// The picture of one property over every model.
struct PropertyFigure<'a> {
    rows: &'a [ModelRow],
    prop: Property,
    band: Band,
}

impl Figure for PropertyFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        draw_property(self.rows, self.prop, self.band, root)
    }
}

fn draw_property<DB: DrawingBackend>(
    rows: &[ModelRow],
    prop: Property,
    band: Band,
    root: &DrawingArea<DB, Shift>,
) -> Result<(), DrawError> {
    let n = rows.len().max(1);
    let lo = floor(prop);
    let figs: Vec<_> = rows.iter().map(|r| r.figure(prop)).collect();
    let vals: Vec<f64> =
        figs.iter().map(|f| if f.value.is_finite() { f.value.max(lo) } else { lo }).collect();
    let th = figs.first().map(|f| f.threshold.clone()).unwrap_or_default();
    let mut hi = vals.iter().fold(lo * 10.0, |m, v| m.max(*v)).log10().ceil();
    let lo_l = lo.log10();
    if hi <= lo_l {
        hi = lo_l + 1.0;
    }
    let mut chart = ChartBuilder::on(root)
        .caption(format!("{}: measured figure per model", prop.title()), ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(10)
        .build_cartesian_2d(lo_l..hi, 0.0..n as f64)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_desc(format!("log10 {}   ({th})", prop.figure_name()))
        .label_style(("sans-serif", 12))
        .draw()?;
    for (i, (f, v)) in figs.iter().zip(&vals).enumerate() {
        let y = (n - 1 - i) as f64;
        let color = verdict_color(f.verdict);
        chart.draw_series(std::iter::once(Rectangle::new(
            [(lo_l, y + 0.15), (v.log10(), y + 0.85)],
            color.mix(0.6).filled(),
        )))?;
        let label = format!("{} ({})", rows[i].id, f.verdict.name());
        chart.draw_series(std::iter::once(Text::new(
            label,
            (lo_l + 0.02 * (hi - lo_l), y + 0.75),
            ("sans-serif", 13),
        )))?;
    }
    for (t, dash) in [(band.yes, BLACK), (band.partial, RGBColor(150, 150, 150))] {
        if t > 0.0 && t.log10() > lo_l && t.log10() < hi {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(t.log10(), 0.0), (t.log10(), n as f64)],
                dash.stroke_width(2),
            )))?;
        }
    }
    Ok(())
}
