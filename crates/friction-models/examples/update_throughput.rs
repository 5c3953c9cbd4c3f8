//! Contact updates per second of `update::update` for coulomb, lugre,
//! jenkins and iwan4 (100 elements) at n = 1e5, per second of wall time and
//! per second of this process's CPU time (read from /proc/self/stat, so the
//! second figure holds on a loaded machine). Serial only; the criterion
//! bench `update` also measures `update_par`.
//!
//! `cargo run --release -p friction-models --example update_throughput`

use std::time::Instant;

use friction_models::update::{init, state_len, update};
use friction_models::{build, ParamMap, ParamValue};

/// User + system CPU time of this process [s] (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // after the command name (in parentheses): state, ppid, ..., utime (field
    // 14 of the line) and stime (15), in clock ticks of 1/100 s
    let f: Vec<&str> = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("").split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

fn main() {
    const N: usize = 100_000;
    let mut iwan = ParamMap::new();
    iwan.insert("n".into(), ParamValue::Num(100.0));
    for (id, p, calls) in [
        ("coulomb", ParamMap::new(), 4000),
        ("lugre", ParamMap::new(), 1000),
        ("jenkins", ParamMap::new(), 4000),
        ("iwan4", iwan, 100),
    ] {
        let m = build(id, &p).unwrap();
        let mut state = vec![0.0; N * state_len(&m)];
        init(&m, &mut state).unwrap();
        let du: Vec<f64> = (0..N).map(|i| 2e-6 * ((i as f64) * 0.618).sin()).collect();
        let back: Vec<f64> = du.iter().map(|u| -u).collect();
        let normal = vec![1.0; N];
        let mut force = vec![0.0; N];
        let (t0, c0) = (Instant::now(), cpu_seconds());
        for k in 0..calls {
            let d = if k % 2 == 0 { &du } else { &back };
            update(&m, 1e-4, d, &normal, &mut state, &mut force).unwrap();
        }
        let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
        let total = (N * calls) as f64;
        println!("{id:8} {:10.3e} updates/s wall, {:10.3e} updates/s CPU", total / wall, total / cpu);
    }
}
