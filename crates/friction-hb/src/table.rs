//! The results as tables: the columns and the summary of a frequency
//! response (`frf.csv`, `summary.json` of `friction frf`) and of a backbone
//! (`backbone.csv`, `summary.json` of `friction nnm`), shared by the command
//! line and the Python package so that both give the same numbers.

use serde_json::{json, Value};

use super::frf::{Frf, FrfOptions};
use super::nnm::Nnm;

/// Named columns of equal length.
pub type Columns = Vec<(String, Vec<f64>)>;

/// The columns of `frf.csv`: `f` \[Hz\]; per body `a.NAME` \[m\], then
/// `phase.NAME` \[rad\], then `peak.NAME` \[m\]; `stable` (1 or 0).
pub fn frf_columns(r: &Frf) -> Columns {
    let mut cols: Columns = vec![("f".into(), r.points.iter().map(|p| p.f).collect())];
    for (pre, k) in [("a", 0), ("phase", 1), ("peak", 2)] {
        for (b, name) in r.bodies.iter().enumerate() {
            let v = r.points.iter().map(|p| [&p.amplitude, &p.phase, &p.peak][k][b]).collect();
            cols.push((format!("{pre}.{name}"), v));
        }
    }
    cols.push(("stable".into(), r.points.iter().map(|p| if p.stable { 1.0 } else { 0.0 }).collect()));
    cols
}

/// `summary.json` of a frequency response of scenario `scenario` under
/// the force `force` with the range of `opts`.
pub fn frf_summary(r: &Frf, scenario: &str, force: &str, opts: &FrfOptions) -> Value {
    let peaks: Vec<Value> = r
        .bodies
        .iter()
        .enumerate()
        .map(|(b, name)| {
            let top = r.points.iter().max_by(|x, y| x.amplitude[b].total_cmp(&y.amplitude[b]));
            json!({
                "body": name,
                "max_amplitude": top.map(|p| p.amplitude[b]),
                "at_f": top.map(|p| p.f),
            })
        })
        .collect();
    json!({
        "scenario": scenario,
        "force": force,
        "f_min": opts.f_min,
        "f_max": opts.f_max,
        "harmonics": r.harmonics,
        "samples": r.samples,
        "h_to_2h_relative_change": r.h_change,
        "points": r.points.len(),
        "unstable_points": r.points.iter().filter(|p| !p.stable).count(),
        "stability": r.stability.describe(),
        "warnings": r.warnings,
        "bodies": peaks,
        "method": "harmonic balance, alternating frequency-time contacts, pseudo-arclength continuation",
    })
}

/// The columns of `backbone.csv`: `a.BODY` \[m\], `f` \[Hz\], `zeta`,
/// `energy_per_cycle` \[J\].
pub fn nnm_columns(r: &Nnm) -> Columns {
    vec![
        (format!("a.{}", r.body), r.points.iter().map(|p| p.amplitude).collect()),
        ("f".into(), r.points.iter().map(|p| p.f).collect()),
        ("zeta".into(), r.points.iter().map(|p| p.zeta).collect()),
        ("energy_per_cycle".into(), r.points.iter().map(|p| p.energy_per_cycle).collect()),
    ]
}

/// `summary.json` of a backbone of scenario `scenario`.
pub fn nnm_summary(r: &Nnm, scenario: &str) -> Value {
    json!({
        "scenario": scenario,
        "body": r.body,
        "mode": r.mode,
        "harmonics": r.harmonics,
        "samples": r.samples,
        "linear_stuck": { "f": r.linear_f, "zeta": r.linear_zeta, "shape": r.linear_shape },
        "points": r.points.len(),
        "f_range": [
            r.points.iter().map(|p| p.f).fold(f64::INFINITY, f64::min),
            r.points.iter().map(|p| p.f).fold(f64::NEG_INFINITY, f64::max),
        ],
        "zeta_max": r.points.iter().map(|p| p.zeta).fold(f64::NEG_INFINITY, f64::max),
        "method": "extended periodic motion concept (Krack 2015), harmonic balance, alternating frequency-time contacts",
    })
}

/// The CSV text of `cols`: a header, then every value as `{:.10e}` except
/// in the `stable` column, written `1` or `0`.
///
/// ```
/// use friction_hb::table::csv;
/// let t = csv(&vec![("f".into(), vec![10.0, 20.0]), ("stable".into(), vec![1.0, 0.0])]);
/// assert_eq!(t, "f,stable\n1.0000000000e1,1\n2.0000000000e1,0\n");
/// ```
pub fn csv(cols: &Columns) -> String {
    let mut out: String = cols.iter().map(|c| c.0.as_str()).collect::<Vec<_>>().join(",");
    out.push('\n');
    let rows = cols.first().map_or(0, |c| c.1.len());
    for i in 0..rows {
        for (j, (name, v)) in cols.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            if name == "stable" {
                out.push_str(if v[i] != 0.0 { "1" } else { "0" });
            } else {
                out.push_str(&format!("{:.10e}", v[i]));
            }
        }
        out.push('\n');
    }
    out
}
