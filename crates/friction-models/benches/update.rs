//! Contact updates per second of `update::update` (one thread) and
//! `update::update_par` (rayon) for coulomb, lugre, jenkins and iwan4
//! (100 elements) at n = 1e5 contacts, and iwan4 also at 1e4 contacts (the
//! comparison suite's size: 8 MB of sliders; 1e5 contacts are 82 MB, and
//! their update is bound by the memory bandwidth).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use friction_models::update::{init, state_len, update, update_par};
use friction_models::{build, ParamMap, ParamValue};

const N: usize = 100_000;

fn bench(c: &mut Criterion) {
    let mut iwan = ParamMap::new();
    iwan.insert("n".into(), ParamValue::Num(100.0));
    let models = [
        ("coulomb", ParamMap::new(), N),
        ("lugre", ParamMap::new(), N),
        ("jenkins", ParamMap::new(), N),
        ("iwan4", iwan.clone(), N),
        ("iwan4", iwan, N / 10),
    ];
    let mut g = c.benchmark_group("update");
    g.sample_size(20);
    for &(model, ref p, n) in &models {
        g.throughput(Throughput::Elements(n as u64));
        let id = if n == N { model.to_string() } else { format!("{model}/n={n}") };
        let m = build(model, p).unwrap();
        let mut state = vec![0.0; n * state_len(&m)];
        init(&m, &mut state).unwrap();
        // a spread of slip increments (micro-slip and sliding), reversed on
        // every call so that hysteresis models keep switching branches
        let du: Vec<f64> = (0..n).map(|i| 2e-6 * ((i as f64) * 0.618).sin()).collect();
        let back: Vec<f64> = du.iter().map(|u| -u).collect();
        let normal = vec![1.0; n];
        let mut force = vec![0.0; n];
        let mut flip = false;
        g.bench_function(format!("{id}/serial"), |b| {
            b.iter(|| {
                flip = !flip;
                let d = if flip { &du } else { &back };
                update(&m, 1e-4, d, &normal, &mut state, &mut force).unwrap()
            })
        });
        g.bench_function(format!("{id}/parallel"), |b| {
            b.iter(|| {
                flip = !flip;
                let d = if flip { &du } else { &back };
                update_par(&m, 1e-4, d, &normal, &mut state, &mut force).unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
