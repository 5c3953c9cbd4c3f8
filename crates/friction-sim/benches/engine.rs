//! Benchmarks of whole runs: the LuGre stick-slip scenario with every solver
//! (Radau5 and Rodas5P the engine's own),
//! and the Coulomb free decay with true stick against the tanh-regularised
//! Coulomb model a user would otherwise pick. Steps and rejected steps are
//! printed once per case next to criterion's timings.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use friction_sim::scenario::{self, Method};
use friction_sim::simulate;

fn load(name: &str) -> friction_sim::System {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name);
    scenario::load(&p).unwrap()
}

fn lugre(c: &mut Criterion) {
    let mut g = c.benchmark_group("lugre_stick_slip");
    g.sample_size(10);
    for m in [
        Method::Bdf,
        Method::TrBdf2,
        Method::Esdirk34,
        Method::Tsit45,
        Method::Radau5,
        Method::Rodas5p,
        Method::Bdf5,
    ] {
        let mut sys = load("lugre_stick_slip.toml");
        sys.solver.method = m;
        let out = simulate(&sys).unwrap();
        println!(
            "lugre_stick_slip/{}: {} steps, {} rejected, {} rhs evaluations, {} Jacobian products, {} \
             factorisations, failure: {:?}",
            m.name(),
            out.stats.steps,
            out.stats.rejected,
            out.stats.rhs_evals,
            out.stats.jacobian_products,
            out.stats.factorisations,
            out.failure
        );
        g.bench_function(m.name(), |b| b.iter(|| simulate(&sys).unwrap()));
    }
    g.finish();
}

/// Largest difference of the position and force columns of two runs on
/// the same output times, each relative to the column's largest magnitude
/// in `b` (the examples driven without bodies have forces only).
fn max_dx(a: &friction_sim::Outcome, b: &friction_sim::Outcome) -> f64 {
    (1..a.columns.len())
        .filter(|&i| a.columns[i].starts_with("x.") || a.columns[i].starts_with("F."))
        .map(|i| {
            let scale = b.rows.iter().map(|r| r[i].abs()).fold(0.0, f64::max).max(1e-300);
            a.rows.iter().zip(&b.rows).map(|(r, s)| (r[i] - s[i]).abs()).fold(0.0, f64::max) / scale
        })
        .fold(0.0, f64::max)
}

/// The small stiff examples at one accuracy: for each method the loosest
/// rtol of a ladder (absolute tolerances scaled alike) whose columns stay
/// within a target of a reference (radau5 at rtol 1e-12, absolute
/// tolerances a millionth), positions and forces relative to each column's
/// range: radau5's own
/// error at the example's tolerances; the rtol, error and counters printed
/// once.
fn matched(c: &mut Criterion) {
    let mut g = c.benchmark_group("matched");
    g.sample_size(20);
    for name in ["lugre_stick_slip", "frictional_lag", "fmu_contact_lugre"] {
        let base = load(&format!("{name}.toml"));
        let mut fine = base.clone();
        fine.solver.method = Method::Radau5;
        fine.solver.rtol = 1e-12;
        fine.solver.atol_position *= 1e-6;
        fine.solver.atol_velocity *= 1e-6;
        fine.solver.atol_state *= 1e-6;
        let reference = simulate(&fine).unwrap();
        let mut own = base.clone();
        own.solver.method = Method::Radau5;
        let target = max_dx(&simulate(&own).unwrap(), &reference);
        for m in [Method::Radau5, Method::Bdf5, Method::Rodas5p, Method::Bdf] {
            let mut chosen = None;
            for scale in [100.0, 30.0, 10.0, 3.0, 1.0, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001] {
                let mut sys = base.clone();
                sys.solver.method = m;
                sys.solver.rtol *= scale;
                sys.solver.atol_position *= scale;
                sys.solver.atol_velocity *= scale;
                sys.solver.atol_state *= scale;
                let out = simulate(&sys).unwrap();
                let err = max_dx(&out, &reference);
                if out.failure.is_none() && err <= target {
                    println!(
                        "matched/{name}/{}: target {target:.1e}, rtol {:.1e}, error {err:.2e}, {} steps, {} \
                         rejected, {} rhs evaluations, {} Jacobian products, {} factorisations, {} Newton \
                         iterations",
                        m.name(),
                        sys.solver.rtol,
                        out.stats.steps,
                        out.stats.rejected,
                        out.stats.rhs_evals,
                        out.stats.jacobian_products,
                        out.stats.factorisations,
                        out.stats.newton_iterations
                    );
                    chosen = Some(sys);
                    break;
                }
            }
            let Some(sys) = chosen else {
                println!("matched/{name}/{}: no rtol of the ladder reaches {target:.1e}", m.name());
                continue;
            };
            g.bench_function(format!("{name}/{}", m.name()), |b| b.iter(|| simulate(&sys).unwrap()));
        }
    }
    g.finish();
}

/// Small stiff networks `auto` gives Radau5 (one LuGre contact, no stick
/// events) with radau5, rodas5p and bdf; the counters printed once.
fn small_stiff(c: &mut Criterion) {
    let mut g = c.benchmark_group("small_stiff");
    g.sample_size(20);
    for name in ["frictional_lag", "fmu_contact_lugre"] {
        for m in [Method::Radau5, Method::Bdf5, Method::Rodas5p, Method::Bdf] {
            let mut sys = load(&format!("{name}.toml"));
            sys.solver.method = m;
            let out = simulate(&sys).unwrap();
            println!(
                "{name}/{}: {} steps, {} rejected, {} rhs evaluations, {} Jacobian products, {} factorisations, \
                 failure: {:?}",
                m.name(),
                out.stats.steps,
                out.stats.rejected,
                out.stats.rhs_evals,
                out.stats.jacobian_products,
                out.stats.factorisations,
                out.failure
            );
            g.bench_function(format!("{name}/{}", m.name()), |b| b.iter(|| simulate(&sys).unwrap()));
        }
    }
    g.finish();
}

fn free_decay(c: &mut Criterion) {
    let mut g = c.benchmark_group("coulomb_free_decay");
    g.sample_size(20);
    let exact = load("coulomb_free_decay.toml");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/coulomb_free_decay.toml"),
    )
    .unwrap()
    .replace("model = \"coulomb\"", "model = \"coulomb_tanh\"")
    .replace("params = { fc = 0.981, fs = 0.981 }", "params = { fc = 0.981, ktanh = 1000.0 }");
    let tanh = scenario::parse(&text, "tanh.toml", Path::new(".")).unwrap();
    for (name, sys) in [("true_stick", &exact), ("coulomb_tanh_1000", &tanh)] {
        let out = simulate(sys).unwrap();
        println!(
            "coulomb_free_decay/{name}: {} steps, {} rejected, {} rhs evaluations, x(t_end) = {:.6e} [{}]",
            out.stats.steps,
            out.stats.rejected,
            out.stats.rhs_evals,
            out.last("x.m"),
            out.stats.method
        );
        g.bench_function(name, |b| b.iter(|| simulate(sys).unwrap()));
    }
    g.finish();
}

/// `n` unit masses in a chain of springs, each on its own Coulomb contact,
/// all overloaded at t = 0 (every contact changes mode at the same event),
/// or pulled at one end through a spring (stick-slip waves).
fn chain_text(n: usize, overloaded: bool) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    if !overloaded {
        writeln!(s, "[[driver]]\nname = \"pull\"\nmotion = {{ type = \"ramp\", rate = 0.1 }}").unwrap();
    }
    for i in 0..n {
        writeln!(s, "[[body]]\nname = \"m{i}\"\nmass = 1.0").unwrap();
        let (fc, fs) = if overloaded { (0.5, 0.5) } else { (1.0, 1.2) };
        writeln!(s, "[[contact]]\nname = \"c{i}\"\nbetween = [\"m{i}\", \"ground\"]\nmodel = \"coulomb\"\nparams = {{ fc = {fc:?}, fs = {fs:?} }}").unwrap();
        if overloaded {
            writeln!(s, "[[force]]\nname = \"p{i}\"\non = \"m{i}\"\nvalue = 1.0").unwrap();
        }
        if i > 0 || !overloaded {
            let prev = if i == 0 { "pull".to_string() } else { format!("m{}", i - 1) };
            writeln!(s, "[[spring]]\nname = \"k{i}\"\nbetween = [\"{prev}\", \"m{i}\"]\nstiffness = 100.0")
                .unwrap();
        }
    }
    let t_end = if overloaded { 1.0 } else { 10.0 };
    writeln!(s, "[solver]\nt_end = {t_end:?}\noutput_dt = 0.1").unwrap();
    s
}

fn chains(c: &mut Criterion) {
    for (group, overloaded, sizes) in [
        ("chain_overloaded", true, &[16usize, 64, 256, 1024][..]),
        ("chain_stick_slip_waves", false, &[16, 128, 1024][..]),
    ] {
        let mut g = c.benchmark_group(group);
        g.sample_size(10);
        for &n in sizes {
            let sys = scenario::parse(&chain_text(n, overloaded), "chain.toml", Path::new(".")).unwrap();
            let out = simulate(&sys).unwrap();
            println!(
                "{group}/{n}: {} events, {} steps, {} LCP solves, {} pivots, failure: {:?}",
                out.events.len(),
                out.stats.steps,
                out.stats.lcp_solves,
                out.stats.lcp_pivots,
                out.failure
            );
            g.bench_function(format!("{n}"), |b| b.iter(|| simulate(&sys).unwrap()));
        }
        g.finish();
    }
}

/// Chains of LuGre and tanh-Coulomb masses (bench/compare's `chain_text`:
/// unit masses, springs of 100 N/m, the first pulled at 0.1 m/s, every mass
/// on its own contact, 2 s, rtol 1e-6) with diffsol's bdf (band LU after
/// eliminating positions and bristle states) and bdf5 (CVODE's iteration,
/// band LU of the whole state); the counters printed once.
fn chains_bdf5(c: &mut Criterion) {
    let mut g = c.benchmark_group("chain_bdf5");
    g.sample_size(10);
    for (model, params) in [
        (
            "lugre",
            "{ sigma0 = 1e5, sigma1 = 316.22776601683796, sigma2 = 0.4, fc = 1.0, fs = 1.5, vs = 0.001, shape = \"gaussian\" }",
        ),
        ("coulomb_tanh", "{ fc = 1.0, ktanh = 1000.0 }"),
    ] {
        for n in [256usize, 1024] {
            let text = format!(
                "name = \"chain\"\n{}[solver]\nt_end = 2.0\noutput_dt = 0.01\nrtol = 1e-6\natol = {{ position = 1e-9, \
                 velocity = 1e-8, state = 1e-11 }}\n",
                scenario::chain::chain_text(n, &format!("model = \"{model}\"\nparams = {params}"))
            );
            for m in [Method::Bdf, Method::Bdf5] {
                let mut sys = scenario::parse(&text, "chain.toml", Path::new(".")).unwrap();
                sys.solver.method = m;
                let out = simulate(&sys).unwrap();
                println!(
                    "chain_bdf5/{model}/{n}/{}: {} steps, {} rejected, {} rhs evaluations, {} Jacobian products, {} \
                     factorisations, {} Newton iterations, failure: {:?}",
                    m.name(),
                    out.stats.steps,
                    out.stats.rejected,
                    out.stats.rhs_evals,
                    out.stats.jacobian_products,
                    out.stats.factorisations,
                    out.stats.newton_iterations,
                    out.failure
                );
                g.bench_function(format!("{model}/{n}/{}", m.name()), |b| b.iter(|| simulate(&sys).unwrap()));
            }
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    // no HTML plots: criterion's plotting would need system fonts
    config = Criterion::default().without_plots();
    targets = lugre, matched, small_stiff, free_decay, chains, chains_bdf5
}
criterion_main!(benches);
