//! Contact updates per second of `update::update` (one thread) and
//! `update::update_par` (rayon) for coulomb, lugre, jenkins and iwan4
//! (100 elements) at n = 1e5 contacts.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use friction_models::update::{init, state_len, update, update_par};
use friction_models::{build, ParamMap, ParamValue};

const N: usize = 100_000;

fn bench(c: &mut Criterion) {
    let mut iwan = ParamMap::new();
    iwan.insert("n".into(), ParamValue::Num(100.0));
    let models = [
        ("coulomb", ParamMap::new()),
        ("lugre", ParamMap::new()),
        ("jenkins", ParamMap::new()),
        ("iwan4", iwan),
    ];
    let mut g = c.benchmark_group("update");
    g.throughput(Throughput::Elements(N as u64));
    g.sample_size(20);
    for (id, p) in &models {
        let m = build(id, p).unwrap();
        let mut state = vec![0.0; N * state_len(&m)];
        init(&m, &mut state).unwrap();
        // a spread of slip increments (micro-slip and sliding), reversed on
        // every call so that hysteresis models keep switching branches
        let du: Vec<f64> = (0..N).map(|i| 2e-6 * ((i as f64) * 0.618).sin()).collect();
        let back: Vec<f64> = du.iter().map(|u| -u).collect();
        let normal = vec![1.0; N];
        let mut force = vec![0.0; N];
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
