//! Sizes and durations for people, in the messages of every face (the
//! engine's refusals, the CLI's progress).

/// `1.5 GiB`, `12.0 MiB`, `800 bytes`.
pub fn human_bytes(b: f64) -> String {
    const UNITS: [(&str, f64); 4] = [
        ("TiB", 1024.0 * 1024.0 * 1024.0 * 1024.0),
        ("GiB", 1024.0 * 1024.0 * 1024.0),
        ("MiB", 1024.0 * 1024.0),
        ("KiB", 1024.0),
    ];
    for (u, f) in UNITS {
        if b >= f {
            return format!("{:.1} {u}", b / f);
        }
    }
    format!("{b:.0} bytes")
}

/// A duration for people: `4.2 s` below 10 s, `90 s` below two minutes,
/// then minutes, hours or days with one decimal; `unknown` when not finite.
///
/// ```
/// use friction_sim::system::duration_text;
/// assert_eq!(duration_text(4.25), "4.2 s");
/// assert_eq!(duration_text(90.0), "90 s");
/// assert_eq!(duration_text(900.0), "15.0 min");
/// assert_eq!(duration_text(3.0 * 86400.0), "3.0 days");
/// assert_eq!(duration_text(f64::INFINITY), "unknown");
/// ```
pub fn duration_text(s: f64) -> String {
    if !s.is_finite() {
        "unknown".into()
    } else if s < 10.0 {
        format!("{s:.1} s")
    } else if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.1} min", s / 60.0)
    } else if s < 2.0 * 86400.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86400.0)
    }
}
