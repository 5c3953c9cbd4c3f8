//! Memory proportional to the problem (issue 31): the peak heap of building
//! and running a chain grows linearly with its number of bodies, within the
//! bytes per body the README states, and streaming rows to a sink keeps the
//! memory of a run independent of its number of rows.
//!
//! A counting global allocator measures the peak of live heap bytes; this
//! file holds one test so no other test allocates at the same time.

use std::path::Path;

use friction_sim::engine::simulate_streaming;
use friction_sim::scenario::{self, chain::chain_text};
use friction_sim::System;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::peak_of;

/// The engine's working set of bytes per body of a LuGre chain (a body, a
/// spring, a contact), as stated in README.md ("Known limits").
const BYTES_PER_BODY: f64 = 4_500.0;
/// Bytes per output row a streamed run may keep (the thinned copy is
/// bounded, so this is far below one row of 3 columns, 24 bytes; measured
/// 0.33 between 10^5 and 10^6 rows, the thinned copy's phase).
const BYTES_PER_STREAMED_ROW: f64 = 1.0;

/// A chain of `n` masses pulled through springs over LuGre contacts.
fn chain(n: usize) -> String {
    chain_text(n, "model = \"lugre\"\nparams = { fc = 1.0, fs = 1.5, vs = 0.001 }")
        + "[solver]\nt_end = 0.05\noutput_dt = 0.01\nstates = \"none\"\n"
}

/// Runs `sys` streaming its rows to a counter: the number of rows and the
/// peak heap of the run.
fn streamed_peak(sys: &System) -> (usize, f64) {
    let mut rows = 0usize;
    let (peak, out) = peak_of(|| {
        simulate_streaming(
            sys,
            &mut |_r| {
                rows += 1;
                Ok(())
            },
            None,
        )
        .unwrap()
    });
    assert!(out.failure.is_none(), "{:?}", out.failure);
    (rows, peak)
}

#[test]
fn memory_grows_linearly_with_bodies_and_not_with_streamed_rows() {
    // building and running chains: the engine's working set per body
    let mut per_body = Vec::new();
    for n in [1_000usize, 10_000] {
        let sys = scenario::parse(&chain(n), "chain.toml", Path::new(".")).unwrap();
        let (rows, peak) = streamed_peak(&sys);
        assert_eq!(rows, 6);
        eprintln!("chain of {n}: peak {peak:.0} bytes, {:.0} bytes per body", peak / n as f64);
        per_body.push(peak / n as f64);
    }
    for b in &per_body {
        assert!(*b < BYTES_PER_BODY, "{b:.0} bytes per body, more than the stated {BYTES_PER_BODY}");
    }
    // linear: ten times the bodies, about ten times the bytes (not a
    // dense N x N matrix, which would be 100 times)
    let ratio = per_body[1] / per_body[0];
    assert!(ratio < 1.5, "bytes per body grew {ratio:.2}x from 1,000 to 10,000 bodies");

    // streamed rows: 10^5 and 10^6 rows of one body, the same memory (the
    // thinned copy holds 20,000 to 40,000 rows in either)
    let one = |t_end: f64| {
        format!(
            "[[body]]\nname = \"m\"\nmass = 1.0\nv0 = 1.0\n[solver]\nt_end = {t_end}\noutput_dt = 0.001\n"
        )
    };
    let mut peaks = Vec::new();
    for t_end in [100.0, 1000.0] {
        let sys = scenario::parse(&one(t_end), "rows.toml", Path::new(".")).unwrap();
        let (rows, peak) = streamed_peak(&sys);
        eprintln!("{rows} streamed rows: peak {peak:.0} bytes");
        peaks.push((rows as f64, peak));
    }
    let per_row = (peaks[1].1 - peaks[0].1) / (peaks[1].0 - peaks[0].0);
    assert!(per_row < BYTES_PER_STREAMED_ROW, "{per_row:.2} bytes per streamed row");
}
