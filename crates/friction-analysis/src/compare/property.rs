//! The properties of the table, the verdicts, and the measured figure behind
//! each cell.

use std::fmt;

/// A friction phenomenon a model may show (a column of the table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Property {
    /// The steady sliding force falls with speed somewhere (Stribeck effect).
    Stribeck,
    /// The break-away force depends on the rate at which the load is applied.
    VaryingBreakaway,
    /// The force rises over a finite displacement before gross sliding
    /// (a finite initial stiffness, not a time lag).
    Presliding,
    /// The force lags the velocity under a velocity oscillation in sliding
    /// (an F-v loop of finite width).
    Lag,
    /// Inner hysteresis loops close onto the outer curve (Masing's
    /// wiping-out, return-point memory).
    NonlocalMemory,
    /// The F-x loop is the same at two speeds.
    RateIndependent,
    /// A body under a constant load below break-away stays put: no creep.
    Stiction,
}

impl Property {
    /// Every property, in table order.
    pub const ALL: [Property; 7] = [
        Property::Stribeck,
        Property::VaryingBreakaway,
        Property::Presliding,
        Property::Lag,
        Property::NonlocalMemory,
        Property::RateIndependent,
        Property::Stiction,
    ];

    /// The column name in `properties.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Property::Stribeck => "stribeck",
            Property::VaryingBreakaway => "varying_breakaway",
            Property::Presliding => "presliding",
            Property::Lag => "lag",
            Property::NonlocalMemory => "nonlocal_memory",
            Property::RateIndependent => "rate_independent",
            Property::Stiction => "stiction",
        }
    }

    /// What the measured figure is, for axis labels.
    pub fn figure_name(self) -> &'static str {
        match self {
            Property::Stribeck => "fall of the steady force / F_ref",
            Property::VaryingBreakaway => "relative change of the break-away force",
            Property::Presliding => "x½, displacement to half the sliding force [m]",
            Property::Lag => "F-v loop width / F_ref",
            Property::NonlocalMemory => "gap to the outer branch / range",
            Property::RateIndependent => "largest force difference / range",
            Property::Stiction => "creep over the hold [m]",
        }
    }

    /// A short human title.
    pub fn title(self) -> &'static str {
        match self {
            Property::Stribeck => "Stribeck steady state",
            Property::VaryingBreakaway => "varying break-away force",
            Property::Presliding => "pre-sliding displacement",
            Property::Lag => "frictional lag",
            Property::NonlocalMemory => "non-local memory",
            Property::RateIndependent => "rate independence",
            Property::Stiction => "true stiction",
        }
    }
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The content of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The model shows the phenomenon.
    Yes,
    /// Between the two thresholds: weakly, or only part of it.
    Partial,
    /// The model does not show the phenomenon.
    No,
    /// The experiment failed (the simulation did not finish).
    Error,
    /// The experiment was not run: it cannot be simulated with this model
    /// (see the figure's detail).
    NotRun,
}

impl Verdict {
    /// `yes`, `partial`, `no`, `error` or `n/a`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Yes => "yes",
            Verdict::Partial => "partial",
            Verdict::No => "no",
            Verdict::Error => "error",
            Verdict::NotRun => "n/a",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Two thresholds on a measured figure: `yes` beyond the first, `partial`
/// between the two, `no` otherwise.
///
/// ```
/// use friction_analysis::compare::{Band, Verdict};
/// let b = Band::above(0.05, 0.01); // yes > 5 %, partial > 1 %
/// assert_eq!(b.verdict(0.2), Verdict::Yes);
/// assert_eq!(b.verdict(0.02), Verdict::Partial);
/// assert_eq!(b.verdict(0.0), Verdict::No);
/// let c = Band::below(1e-9, 1e-7); // yes < 1e-9, partial < 1e-7
/// assert_eq!(c.verdict(1e-12), Verdict::Yes);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band {
    /// Threshold for `yes`.
    pub yes: f64,
    /// Threshold for `partial`.
    pub partial: f64,
    /// Whether larger figures mean `yes` (else smaller ones do).
    pub larger_is_yes: bool,
}

impl Band {
    /// `yes` when the figure is above `yes`, `partial` above `partial`.
    pub const fn above(yes: f64, partial: f64) -> Self {
        Band { yes, partial, larger_is_yes: true }
    }

    /// `yes` when the figure is below `yes`, `partial` below `partial`.
    pub const fn below(yes: f64, partial: f64) -> Self {
        Band { yes, partial, larger_is_yes: false }
    }

    /// The verdict for figure `x` (a NaN figure is `no`).
    pub fn verdict(&self, x: f64) -> Verdict {
        if x.is_nan() {
            return Verdict::No;
        }
        let (y, p) = if self.larger_is_yes {
            (x > self.yes, x > self.partial)
        } else {
            (x < self.yes, x < self.partial)
        };
        if y {
            Verdict::Yes
        } else if p {
            Verdict::Partial
        } else {
            Verdict::No
        }
    }

    /// The thresholds as text, e.g. `yes > 0.05, partial > 0.01` (`1e-9`
    /// for small numbers).
    pub fn text(&self) -> String {
        let op = if self.larger_is_yes { ">" } else { "<" };
        let n = |x: f64| if x != 0.0 && x.abs() < 1e-3 { format!("{x:e}") } else { format!("{x}") };
        format!("yes {op} {}, partial {op} {}", n(self.yes), n(self.partial))
    }
}

/// The measured figure behind one cell (a row of `figures.csv`).
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// The property.
    pub property: Property,
    /// The measured figure.
    pub value: f64,
    /// Its unit (`-` for ratios).
    pub unit: &'static str,
    /// The thresholds that decided the verdict, as text.
    pub threshold: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Secondary figures and remarks.
    pub detail: String,
}

impl Figure {
    /// A figure decided by `band`.
    pub fn banded(property: Property, value: f64, unit: &'static str, band: Band, detail: String) -> Self {
        Figure { property, value, unit, threshold: band.text(), verdict: band.verdict(value), detail }
    }

    /// The cell of an experiment that was not run, and why.
    pub fn not_run(property: Property, why: String) -> Self {
        Figure { verdict: Verdict::NotRun, ..Figure::failed(property, why) }
    }

    /// The cell of an experiment that failed with `message`.
    pub fn failed(property: Property, message: String) -> Self {
        Figure {
            property,
            value: f64::NAN,
            unit: "-",
            threshold: String::new(),
            verdict: Verdict::Error,
            detail: message,
        }
    }
}

/// The thresholds of every verdict; [`Default`] gives the documented values.
#[derive(Debug, Clone, PartialEq)]
pub struct Thresholds {
    /// Stribeck: the largest fall of the steady force with rising speed,
    /// relative to the largest steady force. Default yes > 5 %, partial > 1 %.
    pub stribeck: Band,
    /// Varying break-away: |F_ba(fast) - F_ba(slow)| / F_ba(slow).
    /// Default yes > 5 %, partial > 2 %.
    pub breakaway: Band,
    /// Pre-sliding: the displacement x½ at which the force reaches half its
    /// sliding value \[m\]. Default yes > 1e-7 m, partial > 1e-8 m (the first
    /// sample of the virgin curve is at 1e-9 m).
    pub presliding: Band,
    /// Pre-sliding: the largest ratio x½(fast) / x½(slow) (speeds 10 apart)
    /// for the rise to count as a displacement, not a time lag. Default 3.
    pub presliding_max_ratio: f64,
    /// Lag: width of the F-v loop (twice the out-of-phase first harmonic)
    /// relative to the largest steady force. Default yes > 2 %, partial > 0.5 %.
    pub lag: Band,
    /// Non-local memory: the largest gap between the branch after an inner
    /// loop and the outer branch, relative to the outer loop's force range.
    /// Default yes < 1 %, partial < 5 %.
    pub memory: Band,
    /// Non-local memory: the least distance of the inner loop from the outer
    /// loop (relative to the range) for it to count as a loop. Default 5 %.
    pub memory_min_inner: f64,
    /// Rate independence: the largest force difference between the loops
    /// at the two speeds, relative to the loop's force range.
    /// Default yes < 2 %, partial < 10 %.
    pub rate: Band,
    /// Stiction: creep of the held body \[m\] over the hold. Default
    /// yes < 1e-9 m, partial < 1e-7 m.
    pub stiction: Band,
}

impl Thresholds {
    /// The band that decides property `p`.
    pub fn band(&self, p: Property) -> Band {
        match p {
            Property::Stribeck => self.stribeck,
            Property::VaryingBreakaway => self.breakaway,
            Property::Presliding => self.presliding,
            Property::Lag => self.lag,
            Property::NonlocalMemory => self.memory,
            Property::RateIndependent => self.rate,
            Property::Stiction => self.stiction,
        }
    }
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            stribeck: Band::above(0.05, 0.01),
            breakaway: Band::above(0.05, 0.02),
            presliding: Band::above(1e-7, 1e-8),
            presliding_max_ratio: 3.0,
            lag: Band::above(0.02, 0.005),
            memory: Band::below(0.01, 0.05),
            memory_min_inner: 0.05,
            rate: Band::below(0.02, 0.10),
            stiction: Band::below(1e-9, 1e-7),
        }
    }
}
