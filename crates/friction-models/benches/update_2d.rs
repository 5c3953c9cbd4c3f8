//! Contact updates per second of the 2-D update `update::planar::update_2d`
//! (one thread) and `update_2d_par` (rayon) for coulomb, jenkins, lugre at
//! n = 1e5 contacts and iwan4 (100 elements) at n = 1e4 contacts, on slips
//! turning in the plane (every contact's slip direction differs, and each
//! call reverses it, so that the elements keep switching between stick and
//! slip).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use friction_models::update::planar::{init_2d, state_len_2d, update_2d, update_2d_par};
use friction_models::{build, ParamMap, ParamValue};

const N: usize = 100_000;

fn bench(c: &mut Criterion) {
    let mut iwan = ParamMap::new();
    iwan.insert("n".into(), ParamValue::Num(100.0));
    let models = [
        ("coulomb", ParamMap::new(), N),
        ("jenkins", ParamMap::new(), N),
        ("lugre", ParamMap::new(), N),
        ("iwan4", iwan, N / 10),
    ];
    let mut g = c.benchmark_group("update_2d");
    g.sample_size(20);
    for &(model, ref p, n) in &models {
        g.throughput(Throughput::Elements(n as u64));
        let id = if n == N { model.to_string() } else { format!("{model}/n={n}") };
        let m = build(model, p).unwrap();
        let mut state = vec![0.0; n * state_len_2d(&m).unwrap()];
        init_2d(&m, &mut state).unwrap();
        let du: Vec<f64> = (0..n)
            .flat_map(|i| {
                let (a, r) = (i as f64 * 2.4, 2e-6 * ((i as f64) * 0.618).sin());
                [r * a.cos(), r * a.sin()]
            })
            .collect();
        let back: Vec<f64> = du.iter().map(|u| -u).collect();
        let normal = vec![1.0; n];
        let mut force = vec![0.0; 2 * n];
        let mut flip = false;
        g.bench_function(format!("{id}/serial"), |b| {
            b.iter(|| {
                flip = !flip;
                let d = if flip { &du } else { &back };
                update_2d(&m, 1e-4, d, &normal, &mut state, &mut force).unwrap()
            })
        });
        g.bench_function(format!("{id}/parallel"), |b| {
            b.iter(|| {
                flip = !flip;
                let d = if flip { &du } else { &back };
                update_2d_par(&m, 1e-4, d, &normal, &mut state, &mut force).unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
