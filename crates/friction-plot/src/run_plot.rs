//! The run plot: positions, velocities and friction forces against time in
//! three panels, each axis labelled with its quantity and unit (`position x
//! [m]`, `angle [rad]`, `friction torque [N m]`), tick labels written as
//! plain numbers (no `2.000e0`, no `-2.2e-16` at zero), and the legend beside
//! the curves rather than over them. PNG or SVG (by the path's extension, or
//! as asked with [`plot_as`]).

use std::path::Path;

use friction_sim::{Outcome, SimError};
use plotters::prelude::*;

use crate::draw::{draw_as, DrawError, Figure, PlotFormat, Shift};

/// Size of the run plot in pixels.
const SIZE: (u32, u32) = (1100, 900);
/// Width of the legend column right of each panel, in pixels.
const LEGEND_WIDTH: u32 = 190;

/// Positions, velocities and friction forces against time, and the thermal
/// nodes' temperatures when there are any, into `path` (`.svg`: SVG,
/// anything else: PNG).
pub fn plot(out: &Outcome, path: &Path, title: &str) -> Result<(), SimError> {
    plot_as(out, path, title, PlotFormat::of(path))
}

/// [`plot`] in the given format whatever the path's extension.
pub fn plot_as(out: &Outcome, path: &Path, title: &str, format: PlotFormat) -> Result<(), SimError> {
    draw_as(&RunPlot { out, title }, path, SIZE, format).map_err(|e| SimError::Io {
        path: path.display().to_string(),
        source: std::io::Error::other(e.to_string()),
    })
}

/// The run plot of an outcome, titled.
struct RunPlot<'a> {
    out: &'a Outcome,
    title: &'a str,
}

impl Figure for RunPlot<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        draw_run(root, self.out, self.title)
    }
}

/// A tick label for `v` on an axis spanning `span`: values within 1e-9 of
/// the span of zero are `0`; in [1e-3, 1e5) fixed point with as many
/// decimals as the tick spacing (about span / 5) needs, trailing zeros
/// dropped; otherwise three significant digits in exponent form (`1.5e-5`).
///
/// ```
/// use friction_plot::tick_label;
/// assert_eq!(tick_label(2.0, 4.0), "2");
/// assert_eq!(tick_label(-2.220446049250313e-16, 1.0), "0");
/// assert_eq!(tick_label(0.25, 1.0), "0.25");
/// assert_eq!(tick_label(1.5e-5, 4e-5), "1.5e-5");
/// assert_eq!(tick_label(-0.0, 1.0), "0");
/// ```
pub fn tick_label(v: f64, span: f64) -> String {
    let span = if span.is_finite() && span > 0.0 { span } else { v.abs().max(1.0) };
    if v.abs() <= 1e-9 * span {
        return "0".into();
    }
    let big = v.abs().max(span);
    if (1e-3..1e5).contains(&big) {
        let step = span / 5.0;
        let decimals = (-step.log10().floor()).max(0.0) as usize + 1;
        let s = format!("{v:.decimals$}");
        let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
        if s == "-0" {
            "0".into()
        } else {
            s
        }
    } else {
        let s = format!("{v:.2e}");
        // 1.50e-5 -> 1.5e-5, 2.00e3 -> 2e3
        match s.split_once('e') {
            Some((m, e)) => {
                let m = if m.contains('.') { m.trim_end_matches('0').trim_end_matches('.') } else { m };
                format!("{m}e{e}")
            }
            None => s,
        }
    }
}

/// The columns of a panel: those starting with one of `prefixes`. A
/// contact's internal states `z.NAME.k` share the prefix `z.` with the z
/// coordinate `z.NAME` of a body of dim 3, which is always followed by its
/// velocity `vz.NAME`: only such a column is a position.
fn panel_columns(columns: &[String], prefixes: &[&str]) -> Vec<usize> {
    let body_z = |i: usize, c: &str| columns.get(i + 1).is_some_and(|n| n.strip_prefix('v') == Some(c));
    (0..columns.len())
        .filter(|&i| {
            let c = columns[i].as_str();
            prefixes.iter().any(|p| c.starts_with(p)) && (!c.starts_with("z.") || body_z(i, c))
        })
        .collect()
}

/// The axis label of a panel from the units of its columns.
fn axis_label(words: (&str, &str), units: &[&str]) -> String {
    let mut u: Vec<&str> = units.to_vec();
    u.sort_unstable();
    u.dedup();
    let rotational = |x: &&str| x.contains("rad") || x.ends_with(" m") && *x != "m";
    match (u.iter().all(rotational), u.iter().any(rotational)) {
        (true, _) if !u.is_empty() => format!("{} [{}]", words.1, u.join(", ")),
        (false, true) => format!("{} / {} [{}]", words.0, words.1, u.join(", ")),
        _ => format!("{} [{}]", words.0, if u.is_empty() { "-".to_string() } else { u.join(", ") }),
    }
}

fn draw_run<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    out: &Outcome,
    title: &str,
) -> Result<(), DrawError> {
    let root = root.titled(title, ("sans-serif", 22))?;
    // a fourth panel for the thermal nodes' temperatures, when there are any
    let thermal = out.columns.iter().any(|c| c.starts_with("T."));
    let panels = root.split_evenly((if thermal { 4 } else { 3 }, 1));
    let t: Vec<f64> = out.rows.iter().map(|r| r[0]).collect();
    let (t0, t1) = (t.first().copied().unwrap_or(0.0), t.last().copied().unwrap_or(1.0));
    let t1 = if t1 > t0 { t1 } else { t0 + 1.0 };
    let unit_of = |c: usize| out.units.get(c).map(String::as_str).unwrap_or("");
    // positions and velocities of every coordinate (y, z, vx, ... of bodies of dim 2 or 3)
    let specs: [(&[&str], _); 4] = [
        (&["x.", "y.", "z."], ("position x", "angle")),
        (&["v.", "vx.", "vy.", "vz."], ("velocity v", "angular velocity")),
        (&["F."], ("friction force F", "friction torque")),
        (&["T."], ("temperature T", "temperature T")),
    ];
    for (panel, (prefixes, words)) in panels.iter().zip(specs) {
        let cols = panel_columns(&out.columns, prefixes);
        let (w, _) = panel.dim_in_pixel();
        let (area, legend) = panel.split_horizontally(w.saturating_sub(LEGEND_WIDTH));
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
        let (ylo, yhi) = (lo - pad, hi + pad);
        let units: Vec<&str> = cols.iter().map(|&c| unit_of(c)).collect();
        let mut chart = ChartBuilder::on(&area)
            .margin(8)
            .margin_right(24)
            .x_label_area_size(40)
            .y_label_area_size(90)
            .build_cartesian_2d(t0..t1, ylo..yhi)?;
        let (tspan, yspan) = (t1 - t0, yhi - ylo);
        chart
            .configure_mesh()
            .x_desc("time t [s]")
            .y_desc(axis_label(words, &units))
            .x_label_formatter(&|v| tick_label(*v, tspan))
            .y_label_formatter(&|v| tick_label(*v, yspan))
            .draw()?;
        for (k, &c) in cols.iter().enumerate() {
            let color = Palette99::pick(k).to_rgba();
            chart
                .draw_series(LineSeries::new(out.rows.iter().map(|r| (r[0], r[c])), color.stroke_width(2)))?;
            // the legend: a sample of the line and the column name, beside the chart
            let y = 30 + 22 * k as i32;
            if y > legend.dim_in_pixel().1 as i32 - 10 {
                let more = format!("... {} more", cols.len() - k);
                legend.draw(&Text::new(more, (8, y), ("sans-serif", 14)))?;
                break;
            }
            legend.draw(&PathElement::new(vec![(4, y + 7), (28, y + 7)], color.stroke_width(3)))?;
            let name = format!("{} [{}]", out.columns[c], unit_of(c));
            legend.draw(&Text::new(name, (34, y), ("sans-serif", 14)))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue: ticks read `2.000e0` and a `-2.220e-16` tick sat at zero.
    #[test]
    fn tick_labels_are_plain_numbers() {
        assert_eq!(tick_label(2.0, 4.0), "2");
        assert_eq!(tick_label(0.5, 4.0), "0.5");
        assert_eq!(tick_label(-2.220446049250313e-16, 0.2), "0");
        assert_eq!(tick_label(0.02, 0.1), "0.02");
        assert_eq!(tick_label(-0.015, 0.1), "-0.015");
        assert_eq!(tick_label(1.0e-5, 4e-5), "1e-5");
        assert_eq!(tick_label(2.5e-5, 4e-5), "2.5e-5");
        assert_eq!(tick_label(150000.0, 4e5), "1.5e5");
        assert_eq!(tick_label(12.0, 30.0), "12");
        for v in [0.1, 0.2, 0.3, 0.7] {
            assert!(tick_label(v, 1.0).len() <= 4, "{v}: {}", tick_label(v, 1.0));
        }
    }

    /// Regression: LuGre's bristle state `z.c.0` was drawn among the
    /// positions (the prefix of a body's z coordinate) since bodies had dim 3.
    #[test]
    fn a_contact_s_state_is_not_drawn_as_a_body_s_z_coordinate() {
        let cols = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let pos: &[&str] = &["x.", "y.", "z."];
        let lugre = cols(&["t", "x.m", "v.m", "x.puller", "v.puller", "F.c", "s.c", "sv.c", "z.c.0"]);
        assert_eq!(panel_columns(&lugre, pos), [1, 3]);
        let cube = cols(&["t", "x.b", "vx.b", "y.b", "vy.b", "z.b", "vz.b", "F.c", "z.c.0"]);
        assert_eq!(panel_columns(&cube, pos), [1, 3, 5]);
        assert_eq!(panel_columns(&cube, &["v.", "vx.", "vy.", "vz."]), [2, 4, 6]);
    }

    #[test]
    fn axis_labels_name_quantity_and_unit() {
        let w = ("position x", "angle");
        assert_eq!(axis_label(w, &["m", "m"]), "position x [m]");
        assert_eq!(axis_label(w, &["rad"]), "angle [rad]");
        assert_eq!(axis_label(w, &["m", "rad"]), "position x / angle [m, rad]");
        assert_eq!(axis_label(("friction force F", "friction torque"), &["N m"]), "friction torque [N m]");
        assert_eq!(axis_label(("friction force F", "friction torque"), &["N"]), "friction force F [N]");
    }
}
