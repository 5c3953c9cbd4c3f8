//! Pictures of the analyses, as PNG or SVG.
//!
//! - [`plot_loops`]: the loops `F(x)`, closed cycles coloured in time order
//!   (blue first, red last) over the open ones in grey, with the virgin
//!   curve and the tips of the closed loops, beside `E_d` and `ζ_eq` against
//!   amplitude (closed cycles, or all when none closes);
//! - [`plot_stribeck`]: `|F|` against `|v|` (logarithmic), both directions;
//! - [`plot_transient`]: `x(t)` with its turning points, frequency and damping
//!   ratio against amplitude.
//!
//! Axes are logarithmic where the values are positive and span more than a
//! decade.

use std::path::Path;

use friction_plot::plotters::coord::ranged1d::ValueFormatter;
use friction_plot::plotters::coord::types::RangedCoordf64;
use friction_plot::plotters::prelude::*;
use friction_plot::Shift;

use super::loops::LoopAnalysis;
use super::stribeck::StribeckPoint;
use super::transient::TransientAnalysis;
use crate::error::AnalysisError;
use crate::figure::{plot_as, DrawError, Figure};

/// Picture format (the same type as the run plot's).
pub use friction_plot::PlotFormat;

/// One line or set of markers in a panel.
struct Curve {
    label: Option<String>,
    pts: Vec<(f64, f64)>,
    color: RGBColor,
    line: bool,
    marker: bool,
}

impl Curve {
    fn line(label: Option<&str>, pts: Vec<(f64, f64)>, color: RGBColor) -> Self {
        Curve { label: label.map(str::to_string), pts, color, line: true, marker: false }
    }
    fn dots(label: Option<&str>, pts: Vec<(f64, f64)>, color: RGBColor, line: bool) -> Self {
        Curve { label: label.map(str::to_string), pts, color, line, marker: true }
    }
}

/// One axis: linear or logarithmic between two values.
#[derive(Clone, Copy)]
enum Axis {
    Lin(f64, f64),
    Log(f64, f64),
}

/// The axis covering `values`, logarithmic when `allow_log`, every value is
/// positive and they span more than a decade.
fn axis(values: impl Iterator<Item = f64> + Clone, allow_log: bool) -> Axis {
    let finite = values.filter(|v| v.is_finite());
    let lo = finite.clone().fold(f64::INFINITY, f64::min);
    let hi = finite.fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        return Axis::Lin(-1.0, 1.0);
    }
    if allow_log && lo > 0.0 && hi / lo > 10.0 {
        return Axis::Log(lo / 1.3, hi * 1.3);
    }
    // a single value (or a flat line) gets a band of ±5 % around it
    let pad = ((hi - lo) * 0.06).max(0.05 * lo.abs().max(hi.abs())).max(1e-300);
    Axis::Lin(lo - pad, hi + pad)
}

/// Tick labels for an axis: fixed decimals resolving a tenth of the range
/// when the values are of moderate size, else scientific notation; on a log
/// axis the shortest form of each (1-2-5) tick.
fn ticks(a: Axis) -> Box<dyn Fn(&f64) -> String> {
    let short = |v: f64| -> String {
        let r: f64 = format!("{v:.5e}").parse().unwrap_or(v);
        if (1e-3..1e5).contains(&r.abs()) {
            format!("{r}")
        } else {
            format!("{r:e}")
        }
    };
    match a {
        Axis::Log(..) => Box::new(move |v| short(*v)),
        Axis::Lin(lo, hi) => {
            let step = (hi - lo) / 10.0;
            let m = lo.abs().max(hi.abs());
            Box::new(move |v| {
                if v.abs() < step * 1e-6 {
                    "0".into()
                } else if (1e-3..1e5).contains(&m) {
                    let d = (-step.log10()).ceil().clamp(0.0, 12.0) as usize;
                    format!("{v:.d$}")
                } else {
                    let d = (m / step).log10().ceil().clamp(0.0, 10.0) as usize;
                    format!("{v:.d$e}")
                }
            })
        }
    }
}

type DrawResult = Result<(), DrawError>;

/// Draw `curves` into `area` with the given coordinate types.
fn panel_with<DB, X, Y>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (X, Y),
    ax: (Axis, Axis),
    labels: (&str, &str, &str),
    curves: &[Curve],
) -> DrawResult
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let (title, xdesc, ydesc) = labels;
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 16))
        .margin(8)
        .x_label_area_size(36)
        .y_label_area_size(62)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .x_desc(xdesc)
        .y_desc(ydesc)
        .light_line_style(WHITE.mix(0.0))
        .x_labels(8)
        .y_labels(8)
        .x_label_formatter(&ticks(ax.0))
        .y_label_formatter(&ticks(ax.1))
        .label_style(("sans-serif", 12))
        .draw()?;
    let mut legend = false;
    for c in curves {
        let color = c.color;
        if c.line {
            let ann = chart.draw_series(LineSeries::new(c.pts.iter().copied(), color.stroke_width(2)))?;
            if let Some(l) = &c.label {
                legend = true;
                ann.label(l.clone())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
            }
        }
        if c.marker {
            let ann = chart.draw_series(c.pts.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
            if let (Some(l), false) = (&c.label, c.line) {
                legend = true;
                ann.label(l.clone()).legend(move |(x, y)| Circle::new((x + 9, y), 3, color.filled()));
            }
        }
    }
    if legend {
        chart
            .configure_series_labels()
            .position(legend_corner(ax, curves))
            .label_font(("sans-serif", 12))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
    }
    Ok(())
}

/// Where along an axis a value sits, 0 at the low end, 1 at the high end.
fn frac(a: Axis, v: f64) -> f64 {
    match a {
        Axis::Lin(lo, hi) => (v - lo) / (hi - lo),
        Axis::Log(lo, hi) => (v / lo).ln() / (hi / lo).ln(),
    }
}

/// The upper corner whose legend box would cover fewer data points.
fn legend_corner(ax: (Axis, Axis), curves: &[Curve]) -> SeriesLabelPosition {
    let (mut left, mut right) = (0usize, 0usize);
    for p in curves.iter().flat_map(|c| c.pts.iter()) {
        let (fx, fy) = (frac(ax.0, p.0), frac(ax.1, p.1));
        if fy > 0.7 {
            left += usize::from(fx < 0.4);
            right += usize::from(fx > 0.6);
        }
    }
    if right < left {
        SeriesLabelPosition::UpperRight
    } else {
        SeriesLabelPosition::UpperLeft
    }
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    ax: (Axis, Axis),
    labels: (&str, &str, &str),
    curves: &[Curve],
) -> DrawResult {
    let lin = |a, b| RangedCoordf64::from(a..b);
    let log = |a: f64, b: f64| (a..b).log_scale().with_key_points(log_ticks(a, b));
    match ax {
        (Axis::Lin(a, b), Axis::Lin(c, d)) => panel_with(area, (lin(a, b), lin(c, d)), ax, labels, curves),
        (Axis::Lin(a, b), Axis::Log(c, d)) => panel_with(area, (lin(a, b), log(c, d)), ax, labels, curves),
        (Axis::Log(a, b), Axis::Lin(c, d)) => panel_with(area, (log(a, b), lin(c, d)), ax, labels, curves),
        (Axis::Log(a, b), Axis::Log(c, d)) => panel_with(area, (log(a, b), log(c, d)), ax, labels, curves),
    }
}

/// Tick positions on a log axis: 1, 2, 5 times powers of ten in \[a, b\], or
/// every digit when that gives fewer than three.
fn log_ticks(a: f64, b: f64) -> Vec<f64> {
    let pick = |mantissas: &[f64]| -> Vec<f64> {
        let (k0, k1) = (a.log10().floor() as i32, b.log10().ceil() as i32);
        (k0..=k1)
            .flat_map(|k| mantissas.iter().map(move |m| m * 10f64.powi(k)))
            .filter(|v| *v >= a && *v <= b)
            .collect()
    };
    let t = pick(&[1.0, 2.0, 5.0]);
    if t.len() >= 3 {
        t
    } else {
        pick(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
    }
}

fn axes(curves: &[Curve], log_x: bool, log_y: bool) -> (Axis, Axis) {
    let pts = || curves.iter().flat_map(|c| c.pts.iter());
    (axis(pts().map(|p| p.0), log_x), axis(pts().map(|p| p.1), log_y))
}

/// A titled picture of panels, laid out as one of the analyses needs.
struct Picture<'a> {
    title: &'a str,
    layout: Layout,
}

/// The panels of each analysis' picture.
enum Layout {
    /// Loops (left) beside energy (top right) and damping (bottom right).
    Loops { head: String, loops: Vec<Curve>, energy: Vec<Curve>, zeta: Vec<Curve> },
    /// One panel of the Stribeck curve.
    Stribeck { curves: Vec<Curve> },
    /// The decay (top), frequency and damping (bottom, side by side).
    Transient { hist: Vec<Curve>, freq: Vec<Curve>, zeta: Vec<Curve> },
}

impl Figure for Picture<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let area = &root.titled(self.title, ("sans-serif", 20))?;
        match &self.layout {
            Layout::Loops { head, loops, energy, zeta } => {
                let (left, right) = area.split_horizontally(area.dim_in_pixel().0 * 11 / 20);
                panel(&left, axes(loops, false, false), (head, "x [m]", "F [N]"), loops)?;
                let (top, bottom) = right.split_vertically(right.dim_in_pixel().1 / 2);
                panel(
                    &top,
                    axes(energy, true, true),
                    ("dissipated energy per cycle", "amplitude x_a [m]", "E_d [J]"),
                    energy,
                )?;
                panel(
                    &bottom,
                    axes(zeta, true, false),
                    ("equivalent damping ratio", "amplitude x_a [m]", "ζ_eq"),
                    zeta,
                )
            }
            Layout::Stribeck { curves } => panel(
                area,
                axes(curves, true, false),
                ("steady-state friction", "|v| [m/s]", "|F| [N]"),
                curves,
            ),
            Layout::Transient { hist, freq, zeta } => {
                let (top, bottom) = area.split_vertically(area.dim_in_pixel().1 * 2 / 5);
                panel(&top, axes(hist, false, false), ("free decay", "t [s]", "x [m]"), hist)?;
                let (l, r) = bottom.split_horizontally(bottom.dim_in_pixel().0 / 2);
                panel(&l, axes(freq, true, false), ("frequency", "amplitude [m]", "f [Hz]"), freq)?;
                panel(&r, axes(zeta, true, false), ("damping ratio", "amplitude [m]", "ζ"), zeta)
            }
        }
    }
}

fn gradient(k: usize, n: usize) -> RGBColor {
    // hue from blue (first) through green and yellow to red (last)
    let s = if n > 1 { k as f64 / (n - 1) as f64 } else { 0.0 };
    let (r, g, b) = HSLColor((1.0 - s) * 240.0 / 360.0, 0.85, 0.42).rgb();
    RGBColor(r, g, b)
}

const GREY: RGBColor = RGBColor(120, 120, 120);
const LIGHT: RGBColor = RGBColor(200, 200, 200);
const DARK: RGBColor = RGBColor(20, 20, 20);
const ORANGE: RGBColor = RGBColor(230, 120, 0);

/// Loops `F(x)` by cycle with the virgin curve and loop tips, beside the
/// dissipated energy and equivalent damping ratio against amplitude.
pub fn plot_loops(
    x: &[f64],
    f: &[f64],
    a: &LoopAnalysis,
    path: &Path,
    format: PlotFormat,
    title: &str,
) -> Result<(), AnalysisError> {
    let n = a.cycles.len();
    let n_closed = a.cycles.iter().filter(|c| c.closed).count();
    let trace = |c: &super::Cycle| (c.start..=c.end).map(|i| (x[i], f[i])).collect::<Vec<_>>();
    // open (transition) cycles in grey underneath, closed ones coloured in time order
    let mut loops: Vec<Curve> =
        a.cycles.iter().filter(|c| !c.closed).map(|c| Curve::line(None, trace(c), LIGHT)).collect();
    loops.extend(
        a.cycles
            .iter()
            .filter(|c| c.closed)
            .enumerate()
            .map(|(k, c)| Curve::line(None, trace(c), gradient(k, n_closed))),
    );
    if !a.virgin.is_empty() {
        loops.push(Curve::line(Some("virgin curve"), a.virgin.iter().map(|p| (p[0], p[1])).collect(), GREY));
    }
    let tips: Vec<(f64, f64)> = a
        .cycles
        .iter()
        .filter(|c| c.closed)
        .flat_map(|c| [(c.x_max, c.f_at_max), (c.x_min, c.f_at_min)])
        .collect();
    loops.push(Curve::dots(Some("loop tips"), tips, DARK, false));
    let closed: Vec<_> = a.cycles.iter().filter(|c| c.closed).collect();
    let cyc = if closed.is_empty() { a.cycles.iter().collect() } else { closed };
    let energy = vec![Curve::dots(None, cyc.iter().map(|c| (c.amplitude, c.energy)).collect(), ORANGE, true)];
    let zeta = vec![Curve::dots(
        None,
        cyc.iter().filter_map(|c| c.zeta_eq.map(|z| (c.amplitude, z))).collect(),
        RGBColor(30, 110, 200),
        true,
    )];
    let head = format!("{n} cycle{}, {n_closed} closed", if n == 1 { "" } else { "s" });
    let layout = Layout::Loops { head, loops, energy, zeta };
    plot_as(&Picture { title, layout }, path, (1100, 500), format)
}

/// The Stribeck curve: `|F|` against `|v|`, forward and backward.
pub fn plot_stribeck(
    points: &[StribeckPoint],
    path: &Path,
    format: PlotFormat,
    title: &str,
) -> Result<(), AnalysisError> {
    let branch = |d: i8| -> Vec<(f64, f64)> {
        let mut p: Vec<_> =
            points.iter().filter(|p| p.direction == d).map(|p| (p.v.abs(), p.f.abs())).collect();
        p.sort_by(|a, b| a.0.total_cmp(&b.0));
        p
    };
    let curves = vec![
        Curve::dots(Some("forward (v > 0)"), branch(1), RGBColor(30, 110, 200), true),
        Curve::dots(Some("backward (v < 0)"), branch(-1), ORANGE, true),
    ];
    let curves: Vec<Curve> = curves.into_iter().filter(|c| !c.pts.is_empty()).collect();
    plot_as(&Picture { title, layout: Layout::Stribeck { curves } }, path, (800, 500), format)
}

/// A decay `x(t)` with its turning points, and frequency and damping ratio against amplitude.
pub fn plot_transient(
    t: &[f64],
    x: &[f64],
    a: &TransientAnalysis,
    path: &Path,
    format: PlotFormat,
    title: &str,
) -> Result<(), AnalysisError> {
    // thin the time history to at most ~4000 points for the picture
    let step = (t.len() / 4000).max(1);
    let hist = vec![
        Curve::line(None, (0..t.len()).step_by(step).map(|i| (t[i], x[i])).collect(), RGBColor(30, 110, 200)),
        Curve::dots(Some("turning points"), a.extrema.iter().map(|e| (e.t, e.x)).collect(), DARK, false),
    ];
    let freq =
        vec![Curve::dots(None, a.points.iter().map(|p| (p.amplitude, p.frequency)).collect(), ORANGE, true)];
    let zeta = vec![
        Curve::line(
            Some("ζ (log decrement)"),
            a.points.iter().map(|p| (p.amplitude, p.zeta)).collect(),
            RGBColor(30, 110, 200),
        ),
        Curve::dots(
            Some("ζ_E (energy)"),
            a.points.iter().map(|p| (p.amplitude, p.zeta_energy)).collect(),
            GREY,
            false,
        ),
    ];
    plot_as(&Picture { title, layout: Layout::Transient { hist, freq, zeta } }, path, (1000, 750), format)
}
