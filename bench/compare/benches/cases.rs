//! Criterion benches of the suite's engine cases (the public API only):
//! the LuGre stick-slip and Coulomb free-decay examples, and the chains of
//! `chain_text` at the sizes that run in seconds on the current engine.
//! The peers and the ratio table are in `run.sh`; this is for tracking the
//! engine alone:
//!
//! ```text
//! cd bench/compare && cargo bench
//! ```

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use friction_bench::{chain_text, examples};
use friction_sim::{scenario, simulate};

fn cases(c: &mut Criterion) {
    let mut g = c.benchmark_group("compare");
    g.sample_size(10);
    for name in ["lugre_stick_slip", "coulomb_free_decay"] {
        let sys = scenario::load(&examples().join(format!("{name}.toml"))).unwrap();
        g.bench_function(name, |b| b.iter(|| simulate(&sys).unwrap()));
    }
    for model in ["lugre", "coulomb_tanh", "coulomb"] {
        for n in [16, 64] {
            let sys =
                scenario::parse(&chain_text(n, model, 2.0, None), "chain.toml", Path::new(".")).unwrap();
            g.bench_function(format!("chain_{model}_{n}"), |b| b.iter(|| simulate(&sys).unwrap()));
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    // no HTML plots: criterion's plotting would need system fonts
    config = Criterion::default().without_plots();
    targets = cases
}
criterion_main!(benches);
