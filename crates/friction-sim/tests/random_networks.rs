//! The property test of issue 50: seeded random networks (2-5 bodies, the
//! ground and 0-2 drivers with ramp or sine motions, springs, dampers,
//! 2-6 set-valued contacts between random pairs with parallel ones and
//! loops, stops with bodies starting on them, constant and sine forces and
//! normal loads; every other seed also rotational networks, gaps, every
//! set-valued model and step normal loads) run through the engine, every
//! output row checked against the invariants of `support/random_net.rs`:
//! no panic; a stuck contact's force within N times its static range, a
//! sliding one's on N times its sliding curve; a body at rest in balance, a
//! stop only pushing; the energy balance closed to a relative 1e-4; fewer
//! than 200 events per simulated second; and a run that breaks one of them
//! does not report success. A failing network is shrunk to a small one and
//! printed.
//!
//! `scripts/random-networks.sh N` runs N seeds (default 10,000) through the ignored test `random_networks_from_the_environment`.

#[path = "support/random_net.rs"]
mod random_net;

use random_net::{generate, run_seed, shrink, CaseResult, Violation};
use rayon::prelude::*;

/// Seeds in the test command (about 0.05 s each in the dev profile).
const CASES: u64 = 300;

/// Even seeds: issue 50's class; odd seeds: the wider one.
fn wide(seed: u64) -> bool {
    seed % 2 == 1
}

/// The key of a distinct defect: the symptom, and for a panic where it is.
fn key(v: &Violation) -> String {
    if v.kind == "panic" {
        let at = v.detail.rsplit(" at ").next().unwrap_or("");
        format!("panic at {at}")
    } else {
        v.kind.to_string()
    }
}

/// Run `seeds`; print `N passed, M failed` and, for each distinct defect,
/// its seeds and the first one's network shrunk; the failures.
fn run(seeds: impl IntoParallelIterator<Item = u64>, shrink_budget: usize) -> Vec<(u64, Violation)> {
    let results: Vec<CaseResult> = seeds.into_par_iter().map(|s| run_seed(s, wide(s))).collect();
    let n = results.len();
    let mut failed: Vec<(u64, Violation)> =
        results.into_iter().filter_map(|r| r.violation.map(|v| (r.seed, v))).collect();
    failed.sort_by_key(|f| f.0);
    println!("random networks: {} kept every invariant, {} broke one", n - failed.len(), failed.len());
    let mut keys: Vec<String> = failed.iter().map(|f| key(&f.1)).collect();
    keys.sort();
    keys.dedup();
    for k in &keys {
        let of: Vec<&(u64, Violation)> = failed.iter().filter(|f| key(&f.1) == *k).collect();
        let seeds: Vec<String> = of.iter().take(40).map(|f| f.0.to_string()).collect();
        println!(
            "\n=== {k}: {} seeds: {}{}",
            of.len(),
            seeds.join(" "),
            if of.len() > 40 { " ..." } else { "" }
        );
        // the smallest of the first few, shrunk
        let (seed, v) = of.iter().take(8).min_by_key(|f| generate(f.0, wide(f.0)).toml().len()).unwrap();
        println!("seed {seed}: {v}");
        let (small, sv) = shrink(&generate(*seed, wide(*seed)), v, shrink_budget);
        println!("shrunk: {sv}\n--- scenario ---\n{}---", small.toml());
    }
    failed
}

/// The seeds of `0..CASES` whose networks still break an invariant, each
/// with its symptom (issue 50, open): the in-suite test skips them and holds
/// every other seed; `scripts/random-networks.sh` runs them all. None now:
/// 160 and 192 keep every invariant since a row shows the velocities of what
/// is held at rest exactly.
const KNOWN: &[(u64, &str)] = &[];

/// A few hundred random networks keep every invariant (but the known
/// defects of [`KNOWN`]).
#[test]
fn random_networks_keep_every_invariant() {
    let seeds: Vec<u64> = (0..CASES).filter(|s| !KNOWN.iter().any(|k| k.0 == *s)).collect();
    let failed = run(seeds, 200);
    assert!(
        failed.is_empty(),
        "{} of {CASES} random networks break an invariant (seeds {:?})",
        failed.len(),
        failed.iter().map(|f| f.0).collect::<Vec<_>>()
    );
}

/// `RANDOM_NETWORKS=N` seeds from `RANDOM_NETWORKS_FROM` (default 0):
/// `scripts/random-networks.sh`.
#[test]
#[ignore = "long: scripts/random-networks.sh runs it"]
fn random_networks_from_the_environment() {
    let n: u64 = std::env::var("RANDOM_NETWORKS").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let from: u64 = std::env::var("RANDOM_NETWORKS_FROM").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    let failed = run(from..from + n, 400);
    assert!(failed.is_empty(), "{} of {n} random networks break an invariant", failed.len());
}

/// One seed, to look at it: `RANDOM_NETWORK_SEED=S`.
#[test]
#[ignore = "a tool: prints the scenario of RANDOM_NETWORK_SEED and what it breaks"]
fn random_network_of_one_seed() {
    let Some(seed) = std::env::var("RANDOM_NETWORK_SEED").ok().and_then(|s| s.parse::<u64>().ok()) else {
        return;
    };
    let net = generate(seed, wide(seed));
    println!("{}", net.toml());
    let r = run_seed(seed, wide(seed));
    match r.violation {
        None => println!("seed {seed}: every invariant holds"),
        Some(v) => {
            println!("seed {seed}: {v}");
            let (small, sv) = shrink(&net, &v, 400);
            println!("shrunk: {sv}\n{}", small.toml());
        }
    }
}
