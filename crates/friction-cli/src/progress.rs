//! Progress of long commands with an estimate of the time remaining: a bar
//! on a terminal, or a plain line every few seconds when stderr is not a
//! terminal (logs of batch runs then say how long).

use std::io::IsTerminal;
use std::time::Instant;

pub(crate) use friction_sim::system::duration_text;

/// The time remaining to reach `total` from `done`, at the rate since the
/// origin (`w0` s of wall time at `d0` done) to now (`w` s at `done`).
pub(crate) fn remaining(w0: f64, d0: f64, w: f64, done: f64, total: f64) -> Option<f64> {
    let rate = (done - d0) / (w - w0);
    (rate.is_finite() && rate > 0.0).then(|| ((total - done) / rate).max(0.0))
}

/// Progress of a quantity from 0 to `total` (simulated seconds, bytes).
pub(crate) struct Reporter {
    what: &'static str,
    unit: &'static str,
    total: f64,
    started: Instant,
    /// The first report (wall s, done): the rate is measured from here, so
    /// set-up before it does not count.
    origin: Option<(f64, f64)>,
    terminal: bool,
    /// A plain line every this many seconds when not on a terminal.
    every: f64,
    last_line: f64,
    bar: Option<indicatif::ProgressBar>,
}

impl Reporter {
    /// A reporter of `what` (`"t"`, `"read"`) in `unit` up to `total`,
    /// printing a plain line every `every` seconds when stderr is not a
    /// terminal.
    pub(crate) fn new(what: &'static str, unit: &'static str, total: f64, every: f64) -> Self {
        Reporter {
            what,
            unit,
            total,
            started: Instant::now(),
            origin: None,
            terminal: std::io::stderr().is_terminal(),
            every,
            last_line: 0.0,
            bar: None,
        }
    }

    fn amount(&self, x: f64) -> String {
        if self.unit == "MB" {
            format!("{:.1}", x / 1e6)
        } else {
            format!("{x:.4e}")
        }
    }

    /// The text of a report at `done` (with `extra`, such as the events).
    pub(crate) fn text(&mut self, done: f64, extra: &str) -> String {
        let w = self.started.elapsed().as_secs_f64();
        let (w0, d0) = *self.origin.get_or_insert((w, done));
        let pct = 100.0 * done / self.total;
        let eta = remaining(w0, d0, w, done, self.total)
            .map_or("estimating".to_string(), |r| format!("about {} remaining", duration_text(r)));
        format!(
            "{} = {} {} of {} {} ({pct:.1} %){extra}, {} elapsed, {eta}",
            self.what,
            self.amount(done),
            self.unit,
            self.amount(self.total),
            self.unit,
            duration_text(w)
        )
    }

    /// Report `done` of the total: on a terminal, a bar after the first
    /// second; otherwise a line `progress: ...` every `every` seconds.
    pub(crate) fn report(&mut self, done: f64, extra: &str) {
        let w = self.started.elapsed().as_secs_f64();
        let msg = self.text(done, extra);
        if self.terminal {
            if self.bar.is_none() && w > 1.0 {
                let b = indicatif::ProgressBar::new(1000);
                b.set_style(
                    indicatif::ProgressStyle::with_template("{bar:40} {msg}")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                );
                self.bar = Some(b);
            }
            if let Some(b) = &self.bar {
                b.set_position((1000.0 * done / self.total).clamp(0.0, 1000.0) as u64);
                b.set_message(msg);
            }
        } else if w - self.last_line >= self.every {
            eprintln!("progress: {msg}");
            self.last_line = w;
        }
    }

    /// Clear the bar.
    pub(crate) fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remaining_time_follows_the_rate_since_the_origin() {
        // 2 units in 4 s since the origin: 0.5 per s, 6 to go: 12 s
        assert_eq!(remaining(1.0, 2.0, 5.0, 4.0, 10.0), Some(12.0));
        // nothing done yet: no estimate
        assert_eq!(remaining(1.0, 2.0, 5.0, 2.0, 10.0), None);
    }
}
