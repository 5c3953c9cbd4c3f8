//! A chain of N masses on Coulomb contacts (stiction 1.2 N, sliding 1 N),
//! joined by springs and pulled at one end through a spring by a driver at
//! constant speed: stick-slip waves run along the chain (the spring-block
//! chain of Burridge and Knopoff 1967, "Model and theoretical seismicity",
//! Bull. Seismol. Soc. Am. 57). Prints the events and the time per event.
//!
//! ```text
//! cargo run --release -p friction-sim --example chain -- 1000 [T_END]
//! ```

use std::fmt::Write;
use std::time::Instant;

use friction_sim::scenario::parse;
use friction_sim::simulate;

/// The scenario text of the chain.
fn chain(n: usize, t_end: f64) -> String {
    let mut s = String::from("name = \"chain\"\n");
    writeln!(s, "[[driver]]\nname = \"pull\"\nmotion = {{ type = \"ramp\", rate = 0.1 }}").unwrap();
    for i in 0..n {
        writeln!(s, "[[body]]\nname = \"m{i}\"\nmass = 1.0").unwrap();
        writeln!(
            s,
            "[[contact]]\nname = \"c{i}\"\nbetween = [\"m{i}\", \"ground\"]\nmodel = \"coulomb\"\nparams = {{ fc = 1.0, fs = 1.2 }}"
        )
        .unwrap();
        let prev = if i == 0 { "pull".to_string() } else { format!("m{}", i - 1) };
        writeln!(s, "[[spring]]\nname = \"k{i}\"\nbetween = [\"{prev}\", \"m{i}\"]\nstiffness = 100.0")
            .unwrap();
    }
    writeln!(s, "[solver]\nt_end = {t_end:?}\noutput_dt = {:?}", t_end / 100.0).unwrap();
    s
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let t_end: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2.0);
    let sys = match parse(&chain(n, t_end), "chain.toml", std::path::Path::new(".")) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let out = match simulate(&sys) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let wall = start.elapsed().as_secs_f64();
    let ne = out.events.len().max(1);
    println!(
        "chain of {n} masses, {t_end} s: {} events, {} steps, {} LCP solves ({} pivots, largest {}), {:.3} s, {:.1} µs per event{}",
        out.events.len(),
        out.stats.steps,
        out.stats.lcp_solves,
        out.stats.lcp_pivots,
        out.stats.lcp_max_size,
        wall,
        1e6 * wall / ne as f64,
        out.failure.map(|f| format!(", FAILED: {f}")).unwrap_or_default()
    );
}
