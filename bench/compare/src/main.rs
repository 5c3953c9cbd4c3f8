//! The Rust side of the comparison suite (bench/compare/README.md).
//!
//! Runs each case on the engine's public API only (`scenario::parse`,
//! `simulate_flat`, the `FlatOutcome`'s rows, columns and stats: the
//! engine's output without one allocation per row; LuGre and the free decay
//! write only the states the peers return, `[solver] columns`), so that it measures
//! whatever engine the workspace holds, and the Radau5 method of the
//! `differential-equations` crate on the same LuGre equations. Prints one
//! JSON document on stdout:
//!
//! ```text
//! {"side": "rust", "rounds": R, "results": [{"case", "solver", "cpu_s", "steps", "error", ...}]}
//! ```
//!
//! `cpu_s` is the median over the rounds of the process CPU time of one run
//! (`CLOCK_PROCESS_CPUTIME_ID`, like Python's `time.process_time`). Errors
//! are measured against references computed in the same run (never stored):
//! LuGre and the chains against Radau5 at rtol 1e-12, the free decay against
//! its closed form.
//!
//! ```text
//! friction-bench [--rounds 3] [--quick] [--sizes 16,64,256,1024] [--budget 60] [--cases lugre,decay,chains,sweep] [--models lugre,coulomb_tanh,coulomb] [--method auto]
//! ```
//! `--models lugre,coulomb_tanh,coulomb`: the chains' contacts (all three
//! by default).
//! `--method M`: the engine's `[solver] method` for the LuGre and chain
//! cases (`auto` by default, as the examples and a user leave it; `bdf5`,
//! `radau5`, `rodas5p`, `bdf`: a method's own rows, named in `solver`).
//! `--quick`: one round, the smallest chain only (a smoke test).
//! `--budget S`: an engine chain run longer than S seconds is stopped
//! (`max_wall`) and the larger sizes of that model are skipped.

use std::path::Path;

use differential_equations::prelude::*;
use friction_bench::{chain_text, examples};
use friction_sim::{scenario, simulate_flat, FlatOutcome, Method, System};
use nalgebra::SVector;
use serde_json::{json, Value};

/// Process CPU time \[s\] (all threads of the process).
fn cpu_time() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec we own.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime failed");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// Runs `f` `rounds` times (once only if a run takes longer than 5 s) and
/// returns the median CPU time and the last result.
fn timed<T>(rounds: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut times = Vec::new();
    let mut last;
    loop {
        let t0 = cpu_time();
        last = f();
        times.push(cpu_time() - t0);
        if times.len() >= rounds || times[0] > 5.0 {
            break;
        }
    }
    (median(times), last)
}

fn load_example(name: &str) -> System {
    scenario::load(&examples().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Rows of `out` whose time lies on the output grid `k dt`, as (k, row).
fn on_grid(out: &FlatOutcome, dt: f64) -> Vec<(usize, &[f64])> {
    out.rows()
        .filter_map(|r| {
            let k = (r[0] / dt).round();
            ((r[0] - k * dt).abs() < 1e-9).then_some((k as usize, r))
        })
        .collect()
}

fn engine_json(case: &str, cpu: f64, out: &FlatOutcome, error: Option<f64>, extra: Value) -> Value {
    let mut v = json!({
        "case": case,
        "solver": format!("friction ({})", out.stats.method),
        "cpu_s": cpu,
        "steps": out.stats.steps,
        "rejected": out.stats.rejected,
        "rhs_evals": out.stats.rhs_evals,
        "error": error,
        "failure": out.failure,
    });
    if let Value::Object(m) = extra {
        v.as_object_mut().unwrap().extend(m);
    }
    v
}

// ---------------------------------------------------------------- case 1

/// The equations of `examples/lugre_stick_slip.toml` for Radau5: a unit mass
/// pulled through a spring k = 2 whose far end moves at 0.1 m/s, on a LuGre
/// contact (Canudas de Wit et al. 1995 parameters, Gaussian Stribeck curve).
/// State `[x, v, z]`; the contact force on the mass is `-F`.
struct LugreMass {
    k: f64,
    rate: f64,
    s0: f64,
    s1: f64,
    s2: f64,
    fc: f64,
    fs: f64,
    vs: f64,
}

const LUGRE: LugreMass = LugreMass {
    k: 2.0,
    rate: 0.1,
    s0: 1e5,
    s1: 316.227_766_016_837_96,
    s2: 0.4,
    fc: 1.0,
    fs: 1.5,
    vs: 0.001,
};

impl LugreMass {
    fn g(&self, v: f64) -> f64 {
        self.fc + (self.fs - self.fc) * (-(v / self.vs).powi(2)).exp()
    }
}

impl ODE<f64, SVector<f64, 3>> for LugreMass {
    fn diff(&self, t: f64, y: &SVector<f64, 3>, dydt: &mut SVector<f64, 3>) {
        let (x, v, z) = (y[0], y[1], y[2]);
        let g = self.g(v);
        let dz = v - self.s0 * v.abs() * z / g;
        let f = self.s0 * z + self.s1 * dz + self.s2 * v;
        dydt[0] = v;
        dydt[1] = self.k * (self.rate * t - x) - f;
        dydt[2] = dz;
    }

    /// The exact Jacobian (the engine has LuGre's exact partials too).
    fn jacobian(&self, _t: f64, y: &SVector<f64, 3>, j: &mut Matrix<f64>) {
        let (v, z) = (y[1], y[2]);
        let g = self.g(v);
        let dg = (self.fs - self.fc) * (-(v / self.vs).powi(2)).exp() * (-2.0 * v / (self.vs * self.vs));
        // dz = v - s0 |v| z / g
        let ddz_dv = 1.0 - self.s0 * z * (v.signum() * g - v.abs() * dg) / (g * g);
        let ddz_dz = -self.s0 * v.abs() / g;
        j[(0, 0)] = 0.0;
        j[(0, 1)] = 1.0;
        j[(0, 2)] = 0.0;
        j[(1, 0)] = -self.k;
        j[(1, 1)] = -(self.s1 * ddz_dv + self.s2);
        j[(1, 2)] = -(self.s0 + self.s1 * ddz_dz);
        j[(2, 0)] = 0.0;
        j[(2, 1)] = ddz_dv;
        j[(2, 2)] = ddz_dz;
    }
}

/// Radau5 on [`LUGRE`] over the example's output grid; returns x on the
/// grid and the accepted steps.
fn radau_lugre(grid: &[f64], rtol: f64, atol: [f64; 3], h_max: f64) -> (Vec<f64>, usize) {
    let problem = ODEProblem::new(&LUGRE, 0.0, *grid.last().unwrap(), SVector::<f64, 3>::zeros());
    let mut method = ImplicitRungeKutta::radau5().rtol(rtol).atol(atol).h_max(h_max).max_steps(10_000_000);
    let sol = problem.t_eval(grid).solve(&mut method).expect("Radau5 failed");
    assert_eq!(sol.t.len(), grid.len(), "Radau5 output grid");
    (sol.y.iter().map(|y| y[0]).collect(), sol.steps.accepted)
}

fn samples(grid: &[f64], x: &[f64], every: f64) -> Vec<[f64; 2]> {
    grid.iter()
        .zip(x)
        .filter(|(t, _)| ((*t / every).round() * every - *t).abs() < 1e-9)
        .map(|(t, x)| [*t, *x])
        .collect()
}

/// `sys` writing only the columns `names` (and `t`): the states the peers
/// return at the output times, as a user after them would ask
/// (`[solver] columns`).
fn only(mut sys: System, names: &[&str]) -> System {
    sys.solver.columns = Some(names.iter().map(|n| n.to_string()).collect());
    sys
}

fn case_lugre(rounds: usize, method: Method, res: &mut Vec<Value>) {
    // x, v, z: the state Radau5 interpolates at every output time
    let mut sys = only(load_example("lugre_stick_slip.toml"), &["x.m", "v.m", "z.c.0"]);
    sys.solver.method = method;
    let s = &sys.solver;
    let dt = s.output_dt.unwrap();
    let n = (s.t_end / dt).round() as usize;
    let grid: Vec<f64> = (0..=n).map(|k| k as f64 * dt).collect();
    let atol = [s.atol_position, s.atol_velocity, s.atol_state];
    // reference: Radau5 at rtol 1e-12 with the absolute tolerances scaled alike
    let (x_ref, ref_steps) = radau_lugre(&grid, 1e-12, atol.map(|a| a * 1e-6), s.max_step);
    let err = |xs: &[(usize, f64)]| xs.iter().map(|(k, x)| (x - x_ref[*k]).abs()).fold(0.0, f64::max);

    let (cpu, out) = timed(rounds, || simulate_flat(&sys).expect("engine"));
    let xi = out.col("x.m").unwrap();
    let xs: Vec<(usize, f64)> = on_grid(&out, dt).into_iter().map(|(k, r)| (k, r[xi])).collect();
    res.push(engine_json("lugre_stick_slip", cpu, &out, Some(err(&xs)), json!({"rtol": s.rtol})));

    let (cpu, (x, steps)) = timed(rounds, || radau_lugre(&grid, s.rtol, atol, s.max_step));
    let xs: Vec<(usize, f64)> = x.into_iter().enumerate().collect();
    res.push(json!({
        "case": "lugre_stick_slip", "solver": "Radau5 (differential-equations, exact Jacobian)",
        "cpu_s": cpu, "steps": steps, "error": err(&xs), "rtol": s.rtol,
    }));
    res.push(json!({
        "case": "lugre_stick_slip", "solver": "reference Radau5 rtol 1e-12", "steps": ref_steps,
        "samples": samples(&grid, &x_ref, 1.0),
    }));

    // At the goal's accuracy (`fastest_at_error`), the absolute tolerances
    // scaled with rtol from the example's.
    let scaled = |rtol: f64| atol.map(|a| a * rtol / s.rtol);
    let engine_at = |rtol: f64, h_max: f64| {
        let mut sys = sys.clone();
        sys.solver.rtol = rtol;
        sys.solver.max_step = h_max;
        let a = scaled(rtol);
        (sys.solver.atol_position, sys.solver.atol_velocity, sys.solver.atol_state) = (a[0], a[1], a[2]);
        sys
    };
    let engine_err = |out: &FlatOutcome| {
        let xs: Vec<(usize, f64)> = on_grid(out, dt).into_iter().map(|(k, r)| (k, r[xi])).collect();
        err(&xs)
    };
    let max_step = |h: Option<f64>| h.unwrap_or(s.t_end);
    res.extend(fastest_at_error(
        s.max_step,
        |r, h| engine_err(&simulate_flat(&engine_at(r, max_step(h))).expect("engine")),
        |rtol, h| {
            let sys = engine_at(rtol, max_step(h));
            let (cpu, out) = timed(rounds, || simulate_flat(&sys).expect("engine"));
            engine_json(
                "lugre_at_error",
                cpu,
                &out,
                Some(engine_err(&out)),
                json!({"rtol": rtol, "max_step": h, "error_goal": LUGRE_ERROR}),
            )
        },
    ));
    let radau_err = |x: Vec<f64>| err(&x.into_iter().enumerate().collect::<Vec<_>>());
    res.extend(fastest_at_error(
        s.max_step,
        |r, h| radau_err(radau_lugre(&grid, r, scaled(r), max_step(h)).0),
        |rtol, h| {
            let (cpu, (x, steps)) = timed(rounds, || radau_lugre(&grid, rtol, scaled(rtol), max_step(h)));
            json!({
                "case": "lugre_at_error", "solver": "Radau5 (differential-equations, exact Jacobian)",
                "cpu_s": cpu, "steps": steps, "error": radau_err(x), "rtol": rtol, "max_step": h,
                "error_goal": LUGRE_ERROR,
            })
        },
    ));
}

/// At the goal's accuracy, the work a user after that accuracy would do:
/// with the example's largest step `example_h` and without one (numbalsoda's
/// LSODA has none), the loosest relative tolerance of the ladder whose
/// `error(rtol, h)` is at most [`LUGRE_ERROR`], timed there by `time(rtol,
/// h)` (a row with `cpu_s`); the faster of the two rows. `h` is the largest
/// step, `None` for none (the rows' `max_step`: null).
fn fastest_at_error(
    example_h: f64,
    mut error: impl FnMut(f64, Option<f64>) -> f64,
    mut time: impl FnMut(f64, Option<f64>) -> Value,
) -> Option<Value> {
    let mut best: Option<Value> = None;
    for h in [Some(example_h), None] {
        if let Some(rtol) = RTOL_LADDER.iter().copied().find(|&r| error(r, h) <= LUGRE_ERROR) {
            let row = time(rtol, h);
            if best.as_ref().is_none_or(|b| row["cpu_s"].as_f64() < b["cpu_s"].as_f64()) {
                best = Some(row);
            }
        }
    }
    best
}

/// The accuracy at which the issue sets the LuGre goal \[m\].
const LUGRE_ERROR: f64 = 1e-5;
/// Relative tolerances tried, loosest first (peers.py has the same ladder).
const RTOL_LADDER: [f64; 9] = [1e-4, 3e-5, 1e-5, 3e-6, 1e-6, 3e-7, 1e-7, 3e-8, 1e-8];

// ---------------------------------------------------------------- case 2

/// Closed form of `examples/coulomb_free_decay.toml`: half periods of the
/// harmonic motion about `±Fc/k`, each ending at rest; the mass stays put at
/// the first rest where `|k x| <= Fs`.
fn decay_exact(t: f64, m: f64, k: f64, fc: f64, fs: f64, x0: f64) -> f64 {
    let w = (k / m).sqrt();
    let half = std::f64::consts::PI / w;
    let (mut x, mut t0) = (x0, 0.0);
    loop {
        if (k * x).abs() <= fs {
            return x;
        }
        // sliding towards -sign(x): friction pushes with +sign(x) fc
        let c = x.signum() * fc / k;
        if t <= t0 + half {
            return c + (x - c) * (w * (t - t0)).cos();
        }
        x = 2.0 * c - x;
        t0 += half;
    }
}

fn case_decay(rounds: usize, res: &mut Vec<Value>) {
    // x, v: the state DOP853's dense output gives at every output time
    let sys = only(load_example("coulomb_free_decay.toml"), &["x.m", "v.m"]);
    let (m, k, fc, fs, x0) = (1.0, 100.0, 0.981, 0.981, 0.1); // as in the example file
    let (cpu, out) = timed(rounds.max(5), || simulate_flat(&sys).expect("engine"));
    let xi = out.col("x.m").unwrap();
    let err = out.rows().map(|r| (r[xi] - decay_exact(r[0], m, k, fc, fs, x0)).abs()).fold(0.0, f64::max);
    let t_end = sys.solver.t_end;
    res.push(engine_json(
        "coulomb_free_decay",
        cpu,
        &out,
        Some(err),
        json!({
            "rtol": sys.solver.rtol,
            "final_error": (out.last("x.m") - decay_exact(t_end, m, k, fc, fs, x0)).abs(),
            "x_final_exact": decay_exact(t_end, m, k, fc, fs, x0),
        }),
    ));
}

// ---------------------------------------------------------------- sweep

/// The sweep of peers.py/compiled.py on the engine's Rust API alone
/// (`friction_sim::sweep`, the core of `friction sweep` and of the Python
/// package's `friction.sweep`): `examples/lugre_stick_slip.toml` over 1,000
/// values of fc from 0.5 to 1.5, rows at 0 and 20 s only, at `rtol` (the
/// absolute tolerances scaled alike) without a largest step; the wall clock
/// of preparing and running every point on rayon's threads, and the CPU
/// time. For profiles: the Python side adds its conversions.
fn case_sweep(rounds: usize, method: Method, rtol: f64, res: &mut Vec<Value>) {
    let path = examples().join("lugre_stick_slip.toml");
    let text = std::fs::read_to_string(&path).expect("example");
    let n = 1000;
    let fcs: Vec<Vec<f64>> = (0..n).map(|i| vec![0.5 + i as f64 / (n - 1) as f64]).collect();
    // the example's absolute tolerances, scaled with rtol as case_lugre's
    let st = load_example("lugre_stick_slip.toml").solver;
    let s = rtol / st.rtol;
    let sets = [
        ("solver.rtol", rtol),
        ("solver.max_step", 20.0),
        ("solver.output_dt", 20.0),
        ("solver.atol.position", st.atol_position * s),
        ("solver.atol.velocity", st.atol_velocity * s),
        ("solver.atol.state", st.atol_state * s),
    ];
    let auto = "method = \"auto\"";
    assert!(text.contains(auto), "lugre_stick_slip.toml: no `{auto}` line for --method to replace");
    let text = text.replace(auto, &format!("method = \"{}\"", method.name()));
    let mut table =
        scenario::Document::read(&text, "lugre_stick_slip.toml").expect("example").table().clone();
    for (k, v) in sets {
        friction_sim::sweep::apply(&mut table, k, v).expect("set");
    }
    let doc = scenario::Document::from_table(table, "lugre_stick_slip.toml");
    let sweep = friction_sim::sweep::Sweep::from_document(
        doc,
        &examples(),
        vec!["contact.c.fc".into()],
        &["final.x.m".into(), "stats.steps".into()],
    )
    .expect("sweep");
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    let mut last = Vec::new();
    for _ in 0..rounds.max(3) {
        let (w0, c0) = (std::time::Instant::now(), cpu_time());
        let systems = sweep.prepare(&fcs).expect("points");
        last = sweep.run_systems(&systems, &|| {});
        walls.push(w0.elapsed().as_secs_f64());
        cpus.push(cpu_time() - c0);
    }
    let steps: f64 = last.iter().map(|(v, _)| v[1]).sum();
    res.push(json!({
        "case": "sweep_lugre_fc_rust", "solver": format!("friction_sim::sweep ({})", method.name()),
        "wall_s": median(walls), "cpu_s": median(cpus), "steps": steps, "rtol": rtol, "n": n,
        "failures": last.iter().filter(|(_, e)| !e.is_empty()).count(),
    }));
}

// ---------------------------------------------------------------- case 3

/// The LuGre or tanh chain of [`chain_text`] for Radau5 (the reference of
/// the smallest chain): per mass `[x, v]` and for LuGre `z`.
struct Chain<const N: usize> {
    lugre: bool,
}

fn chain_rhs(lugre: bool, t: f64, y: &[f64], dy: &mut [f64]) {
    let per = if lugre { 3 } else { 2 };
    let n = y.len() / per;
    let k = 100.0;
    for i in 0..n {
        let x = y[per * i];
        let v = y[per * i + 1];
        let left = if i == 0 { 0.1 * t } else { y[per * (i - 1)] };
        let mut f = k * (left - x);
        if i + 1 < n {
            f += k * (y[per * (i + 1)] - x);
        }
        let fr = if lugre {
            let z = y[per * i + 2];
            let g = LUGRE.g(v);
            let dz = v - LUGRE.s0 * v.abs() * z / g;
            dy[per * i + 2] = dz;
            LUGRE.s0 * z + LUGRE.s1 * dz + LUGRE.s2 * v
        } else {
            (1000.0 * v).tanh()
        };
        dy[per * i] = v;
        dy[per * i + 1] = f - fr;
    }
}

impl<const N: usize> ODE<f64, SVector<f64, N>> for Chain<N> {
    fn diff(&self, t: f64, y: &SVector<f64, N>, dydt: &mut SVector<f64, N>) {
        chain_rhs(self.lugre, t, y.as_slice(), dydt.as_mut_slice());
    }
}

/// Radau5 at rtol 1e-12 on a chain of `N / per` masses: every mass's x
/// on the output grid, one row per output time.
fn chain_reference<const N: usize>(lugre: bool, grid: &[f64]) -> Vec<Vec<f64>> {
    let per = if lugre { 3 } else { 2 };
    let chain = Chain::<N> { lugre };
    let problem = ODEProblem::new(&chain, 0.0, *grid.last().unwrap(), SVector::<f64, N>::zeros());
    let atol: Vec<f64> = (0..N).map(|i| [1e-15, 1e-14, 1e-17][i % per]).collect();
    let mut method = ImplicitRungeKutta::radau5().rtol(1e-12).atol(atol).max_steps(10_000_000);
    let sol = problem.t_eval(grid).solve(&mut method).expect("Radau5 chain reference");
    sol.y.iter().map(|y| (0..N / per).map(|i| y[per * i]).collect()).collect()
}

fn case_chains(
    rounds: usize,
    sizes: &[usize],
    budget: f64,
    method: Method,
    models: &[String],
    res: &mut Vec<Value>,
) {
    let t_end = 2.0;
    let grid: Vec<f64> = (0..=200).map(|k| k as f64 * 0.01).collect();
    for model in ["lugre", "coulomb_tanh", "coulomb"].into_iter().filter(|m| models.iter().any(|x| x == m)) {
        let mut skip = false;
        for &n in sizes {
            let case = format!("chain_{model}_{n}");
            if skip {
                res.push(json!({"case": case, "solver": "friction", "skipped": format!("a smaller chain took longer than {budget} s")}));
                continue;
            }
            let mut sys =
                scenario::parse(&chain_text(n, model, t_end, Some(budget)), "chain.toml", Path::new("."))
                    .unwrap_or_else(|e| panic!("{case}: {e}"));
            sys.solver.method = method;
            let (cpu, out) = timed(rounds, || simulate_flat(&sys).expect("engine"));
            // error of every mass's x against Radau5 at rtol 1e-12, smallest chain only
            let error = match (model, n) {
                ("lugre", 16) => Some(chain_reference::<48>(true, &grid)),
                ("coulomb_tanh", 16) => Some(chain_reference::<32>(false, &grid)),
                _ => None,
            }
            .map(|xr| {
                let cols: Vec<usize> = (0..n).map(|i| out.col(&format!("x.m{i}")).unwrap()).collect();
                let mut e: f64 = 0.0;
                for (k, r) in on_grid(&out, 0.01) {
                    for (i, &c) in cols.iter().enumerate() {
                        e = e.max((r[c] - xr[k][i]).abs());
                    }
                }
                e
            });
            let t_reached = out.rows().last().map(|r| r[0]).unwrap_or(0.0);
            res.push(engine_json(
                &case,
                cpu,
                &out,
                error,
                json!({"n": n, "model": model, "t_end": t_end, "t_reached": t_reached,
                       "cpu_per_sim_s": cpu / t_reached.max(1e-300), "events": out.events.len()}),
            ));
            if out.failure.is_some() || cpu > budget {
                skip = true;
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 3;
    let mut sizes = vec![16, 64, 256, 1024];
    let mut budget = 60.0;
    let mut cases = vec!["lugre".to_string(), "decay".into(), "chains".into()];
    let mut method = Method::Auto;
    let mut models = vec!["lugre".to_string(), "coulomb_tanh".into(), "coulomb".into()];
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--rounds" => {
                rounds = args[i + 1].parse().expect("--rounds N");
                i += 1;
            }
            "--sizes" => {
                sizes = args[i + 1].split(',').map(|s| s.parse().expect("--sizes 16,64")).collect();
                i += 1;
            }
            "--budget" => {
                budget = args[i + 1].parse().expect("--budget SECONDS");
                i += 1;
            }
            "--cases" => {
                cases = args[i + 1].split(',').map(String::from).collect();
                i += 1;
            }
            "--models" => {
                models = args[i + 1].split(',').map(String::from).collect();
                i += 1;
            }
            "--method" => {
                let all = [Method::Auto, Method::Bdf, Method::Bdf5, Method::Radau5, Method::Rodas5p];
                method = *all
                    .iter()
                    .find(|m| m.name() == args[i + 1])
                    .unwrap_or_else(|| panic!("--method: one of auto, bdf, bdf5, radau5, rodas5p"));
                i += 1;
            }
            "--quick" => {
                rounds = 1;
                sizes = vec![16];
            }
            other => panic!("unknown argument {other}"),
        }
        i += 1;
    }
    let mut res = Vec::new();
    for case in &cases {
        match case.as_str() {
            "lugre" => case_lugre(rounds, method, &mut res),
            "decay" => case_decay(rounds, &mut res),
            "chains" => case_chains(rounds, &sizes, budget, method, &models, &mut res),
            "sweep" => case_sweep(rounds, method, 3e-6, &mut res),
            other => panic!("unknown case {other} (lugre, decay, chains, sweep)"),
        }
    }
    let doc = json!({"side": "rust", "rounds": rounds, "results": res});
    println!("{}", serde_json::to_string_pretty(&doc).unwrap());
}
