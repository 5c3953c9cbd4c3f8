//! The rate at which two time integrations approach each other: the
//! least-squares slope of ln (the largest distance in each period) against
//! time, over the periods whose distance lies inside a window (after the
//! faster modes have died out, before the integrations' own error floor).

/// `d`: the distance at every output row, `per_period` rows a period of
/// `1/f` s; `(lo, hi)`: the window of distances fitted. Returns the slope
/// \[1/s\] and the number of periods fitted.
pub fn decay_rate(d: &[f64], per_period: usize, f: f64, (lo, hi): (f64, f64)) -> (f64, usize) {
    let pts: Vec<(f64, f64)> = d
        .chunks(per_period)
        .map(|c| c.iter().cloned().fold(0.0, f64::max))
        .enumerate()
        .filter(|(_, v)| *v < hi && *v > lo)
        .map(|(i, v)| (i as f64 / f, v.ln()))
        .collect();
    let m = pts.len() as f64;
    let (mt, my) = (pts.iter().map(|p| p.0).sum::<f64>() / m, pts.iter().map(|p| p.1).sum::<f64>() / m);
    let slope = pts.iter().map(|p| (p.0 - mt) * (p.1 - my)).sum::<f64>()
        / pts.iter().map(|p| (p.0 - mt).powi(2)).sum::<f64>();
    (slope, pts.len())
}
