//! Large inputs (issue 31): a run that would clearly exceed its `max_wall`
//! is refused after a short pilot with its estimate, one that fits is not,
//! and an output of millions of rows over `max_output_bytes` is refused
//! before the first step, with its size.

use std::path::Path;

use friction_sim::scenario::chain::chain_text;
use friction_sim::{scenario, simulate};

/// A chain of `n` masses pulled through springs over LuGre contacts: every
/// mass sticks and slips, so the steps stay short.
fn chain(n: usize, t_end: f64, extra: &str) -> String {
    chain_text(n, "model = \"lugre\"\nparams = { fc = 1.0, fs = 1.5, vs = 0.001 }")
        + &format!("[solver]\nt_end = {t_end}\noutput_dt = 0.1\nstates = \"none\"\n{extra}")
}

/// Symptom: a run of a large chain over a long `t_end` with `max_wall = 2`
/// burned its whole 2 s and returned a partial result at a small fraction
/// of `t_end`, without saying that the whole run needed hours. With the
/// pilot, it is refused after a fraction of the budget, and the message
/// gives the estimate and the `max_wall` to raise.
#[test]
fn run_far_longer_than_max_wall_is_refused_after_the_pilot_with_its_estimate() {
    // 100 LuGre masses over 10^5 s of slow pulling: far more than 4 s of
    // wall time on any machine (each mass sticks and slips thousands of times)
    let text = chain(100, 1e5, "max_wall = 2.0\n");
    let sys = scenario::parse(&text, "long.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    let f = out.failure.expect("the run cannot finish within its max_wall");
    assert!(f.contains("refused after a pilot"), "{f}");
    assert!(f.contains("max_wall = 2 s") && f.contains("would take about"), "{f}");
    // the partial result reaches only a small part of t_end
    let t_last = *out.rows.last().map(|r| &r[0]).unwrap();
    assert!(t_last < 1e4, "t = {t_last}");
}

/// A run that fits its budget comfortably is not refused: the README's
/// example, and a chain of 100 LuGre masses that runs for about 2 s (longer
/// than its pilot of 0.5 s, so the estimate is made) with a budget of 100 s.
#[test]
fn runs_within_their_max_wall_are_not_refused() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let text = std::fs::read_to_string(dir.join("lugre_stick_slip.toml")).unwrap();
    let mut sys = scenario::parse(&text, "lugre_stick_slip.toml", &dir).unwrap();
    sys.solver.max_wall = Some(60.0);
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);

    let sys = scenario::parse(&chain(100, 30.0, "max_wall = 100.0\n"), "chain.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    // the whole run: the driver pulled 3 m in 30 s, and the first mass
    // followed it, behind by the stretch of its spring (the friction of the
    // masses it drags, at most 100 x 1.5 N over 100 N/m)
    let x0 = out.last("x.m0");
    assert!(out.rows.last().unwrap()[0] == 30.0 && x0 > 1.0 && x0 < 3.0, "x.m0 = {x0}");
}

/// Symptom: a scenario of 5 x 10^6 output rows ran for minutes before
/// anything said it was large. Over `max_output_bytes` it is refused when
/// parsed, before any step, with the estimate (rows, columns, bytes).
#[test]
fn five_million_rows_over_max_output_bytes_are_refused_before_any_step() {
    let text = "[[body]]\nname = \"m\"\nmass = 1.0\nv0 = 1.0\n\
                [solver]\nt_end = 5000.0\noutput_dt = 0.001\nmax_output_bytes = 100000000\n";
    let e = scenario::parse(text, "rows.toml", Path::new(".")).unwrap_err().to_string();
    // 5,000,001 rows x 3 columns (t, x.m, v.m) x 8 bytes = 114.4 MiB
    assert!(e.contains("5000001 rows") && e.contains("3 columns"), "{e}");
    assert!(e.contains("114.4 MiB") && e.contains("max_output_bytes"), "{e}");
    // under the default limit (4 GiB) the same output is accepted
    let ok = text.replace("max_output_bytes = 100000000\n", "");
    assert!(scenario::parse(&ok, "rows.toml", Path::new(".")).is_ok());
}
