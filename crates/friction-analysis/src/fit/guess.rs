//! A data-informed starting point for a fit.

use std::collections::BTreeSet;

use friction_models::{info, Family, ParamMap, ParamValue};

use crate::data::Series;

use super::result::*;

/// A data-informed starting point for model `id`: every entry it can
/// estimate from the force levels and the motion.
///
/// - sliding samples: the force along the motion and, when a pre-sliding
///   stiffness is seen, more than three pre-sliding lengths `fs/k` from the
///   last reversal;
/// - `fc`, `kv`/`sigma2`: intercept and slope of `|F|` against `|v|` on the
///   fastest 30 % of the sliding samples (the slope only for memoryless
///   models, whose data are a static curve);
/// - `fs`: the 98th percentile of `|F|` (for `iwan4`/`iwan5`: the macro-slip force);
/// - `vs` (memoryless models only): the slowest sliding speed at which
///   `|F| - kv |v|` has fallen below `fc + (fs - fc)/e`;
/// - `sigma0`, `kt`, `k` (`bouc_wen`, with `beta = gamma` from the sliding
///   force), element stiffnesses: the pre-sliding slope `dF/dx` from the
///   start of the record (relaxed) up to a third of the peak force;
/// - `elements` of `maxwell_slip`: `n` elements of equal stiffness with slip
///   displacements spread geometrically over the pre-sliding range; of
///   `gms`: equal fractions `1/n` and stiffnesses in the ratio `1 : 2 : ... : n`
///   (elements that start alike would stay alike).
///
/// ```
/// use friction_analysis::data::Series;
/// // a Coulomb level of 2 N plus 0.5 N s/m, sampled at speeds 0.1..1 m/s
/// let v: Vec<f64> = (0..40).map(|i| 0.1 + i as f64 * 0.025).collect();
/// let f: Vec<f64> = v.iter().map(|v| 2.0 + 0.5 * v).collect();
/// let t: Vec<f64> = (0..40).map(|i| i as f64).collect();
/// let s = Series::new("demo", t, None, Some(v), Some(f), None).unwrap();
/// let g = friction_analysis::fit::initial_guess("coulomb_viscous", &s, 3);
/// let friction_models::ParamValue::Num(fc) = g["fc"] else { panic!() };
/// assert!((fc - 2.0).abs() < 1e-9);
/// ```
pub fn initial_guess(id: &str, s: &Series, elements: usize) -> ParamMap {
    let mut g = ParamMap::new();
    let (Some(f), Some(v), Some(x)) = (&s.f, s.velocity(), s.displacement()) else { return g };
    let f: Vec<f64> = match &s.n {
        Some(n) => f.iter().zip(n).map(|(f, n)| if *n > 0.0 { f / n } else { 0.0 }).collect(),
        None => f.clone(),
    };
    let fmax = percentile(f.iter().map(|f| f.abs()).collect(), 0.98);
    if fmax.is_nan() || fmax <= 0.0 {
        return g;
    }
    // pre-sliding slope from the relaxed start
    let (x0, f0) = (x[0], f[0]);
    let mut sxx = 0.0;
    let mut sxy = 0.0;
    for i in 1..x.len() {
        if (f[i] - f0).abs() > fmax / 3.0 {
            if sxx == 0.0 {
                let dx = x[i] - x0;
                sxx = dx * dx;
                sxy = dx * (f[i] - f0);
            }
            break;
        }
        let dx = x[i] - x0;
        sxx += dx * dx;
        sxy += dx * (f[i] - f0);
    }
    let k0 = if sxx > 0.0 && sxy > 0.0 { sxy / sxx } else { f64::NAN };
    // sliding samples: force along the motion, and (when a pre-sliding
    // stiffness is seen) more than three pre-sliding lengths from the last reversal
    // memoryless models are fitted to static curves, where the speed
    // dependence can be read off; for dynamic records only the force levels
    // and the stiffness are guessed (the viscous slope and Stribeck velocity
    // keep their defaults)
    let static_curve = info(id).is_some_and(|m| matches!(m.family, Family::StaticMap | Family::SetValued));
    let d0 = if k0.is_finite() && !static_curve { 3.0 * fmax / k0 } else { 0.0 };
    let mut x_rev = x[0];
    let mut sliding = vec![false; x.len()];
    for i in 0..x.len() {
        if i > 0 && v[i] * v[i - 1] < 0.0 {
            x_rev = x[i - 1];
        }
        sliding[i] = v[i] != 0.0 && f[i] * v[i] > 0.0 && (x[i] - x_rev).abs() > d0;
    }
    let sl: Vec<(f64, f64)> =
        (0..x.len()).filter(|&i| sliding[i]).map(|i| (v[i].abs(), f[i].abs())).collect();
    // Coulomb level and viscous slope: regression of |F| on |v| over the fastest 30 % of the sliding samples
    let vcut = percentile(sl.iter().map(|p| p.0).collect(), 0.7);
    let pts: Vec<(f64, f64)> = sl.iter().copied().filter(|p| p.0 >= vcut).collect();
    let (mut fc, mut kv) = (percentile(f.iter().map(|f| f.abs()).collect(), 0.5), 0.0);
    if pts.len() >= 3 {
        let n = pts.len() as f64;
        let (sx, sy) = (pts.iter().map(|p| p.0).sum::<f64>(), pts.iter().map(|p| p.1).sum::<f64>());
        let sxx: f64 = pts.iter().map(|p| p.0 * p.0).sum();
        let sxy: f64 = pts.iter().map(|p| p.0 * p.1).sum();
        let det = n * sxx - sx * sx;
        let vmax = pts.iter().map(|p| p.0).fold(0.0, f64::max);
        let vmin = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        // a slope only when the speeds differ by 20 % or more
        if static_curve && det > 1e-12 * n * sxx && vmax > 1.2 * vmin {
            kv = ((n * sxy - sx * sy) / det).max(0.0);
            if kv * vmax > 0.5 * fmax {
                kv = 0.0;
            }
        }
        fc = (sy - kv * sx) / n;
        if fc.is_nan() || fc <= 0.0 {
            fc = sy / n;
            kv = 0.0;
        }
    }
    let fs = fmax.max(fc);
    // vs: the slowest sliding speed at which |F| - kv|v| has fallen below fc + (fs - fc)/e
    let level = fc + (fs - fc) / std::f64::consts::E;
    let mut sl: Vec<(f64, f64)> = sl.iter().map(|p| (p.0, p.1 - kv * p.0)).collect();
    sl.sort_by(|a, b| a.0.total_cmp(&b.0));
    let vmin = sl.first().map_or(1e-3, |p| p.0);
    let vmax = sl.last().map_or(1.0, |p| p.0);
    let vs = sl.iter().find(|p| p.1 < level).map_or(vmin, |p| p.0).clamp(1e-3 * vmax, vmax);
    let vs = if static_curve { vs } else { f64::NAN };
    let xamp = percentile(x.iter().map(|x| (x - x0).abs()).collect(), 1.0);
    let num = |x: f64| ParamValue::Num(x);
    let fs_key = matches!(id, "iwan4" | "iwan5");
    let spec_names: BTreeSet<&str> =
        info(id).map(|m| m.params.iter().map(|p| p.name).collect()).unwrap_or_default();
    let put = |g: &mut ParamMap, k: &str, x: f64| {
        if spec_names.contains(k) && x.is_finite() && x > 0.0 {
            g.insert(k.to_string(), num(x));
        }
    };
    match id {
        "bouc_wen" => {
            if k0.is_finite() {
                put(&mut g, "k", k0);
                put(&mut g, "a", 1.0);
                put(&mut g, "beta", 0.5 * k0 / fmax);
                put(&mut g, "gamma", 0.5 * k0 / fmax);
                put(&mut g, "n", 1.0);
            }
        }
        "maxwell_slip" | "gms" => {
            let k = if k0.is_finite() { k0 } else { 2.0 * fmax / xamp.max(1e-300) };
            let n = elements.max(1);
            let d0 = fmax / k; // displacement at which a single spring would reach fmax
            let mut rows = vec![];
            for i in 0..n {
                // slip displacements from d0/4 to 2 d0, geometric
                let r = if n > 1 { i as f64 / (n - 1) as f64 } else { 0.5 };
                let d = 0.25 * d0 * 8f64.powf(r);
                let ki = k / n as f64;
                rows.push((ki, ki * d));
            }
            let fsum: f64 = rows.iter().map(|r| r.1).sum();
            let val = |a: f64, b: f64| ParamValue::List(vec![num(a), num(b)]);
            let list = if id == "gms" {
                // equal fractions; stiffnesses 1 : 2 : ... : n so that the elements differ
                let w = |i: usize| 2.0 * (i + 1) as f64 / (n * (n + 1)) as f64;
                (0..n).map(|i| val(k * w(i), 1.0 / n as f64)).collect()
            } else {
                rows.iter().map(|r| val(r.0, r.1 * fmax / fsum)).collect()
            };
            g.insert("elements".into(), ParamValue::List(list));
            put(&mut g, "fc", fc);
            put(&mut g, "fs", fs);
            put(&mut g, "vs", vs);
            put(&mut g, "sigma2", kv);
        }
        _ => {
            put(&mut g, "fc", if id == "dahl" { fmax } else { fc });
            put(&mut g, "fs", fs);
            if fs_key {
                put(&mut g, "fs", fmax);
            }
            put(&mut g, "vs", vs);
            put(&mut g, "kv", kv);
            put(&mut g, "sigma2", kv);
            put(&mut g, "sigma0", k0);
            put(&mut g, "kt", k0);
        }
    }
    g
}
