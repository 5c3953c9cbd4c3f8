//! Shared by the comparison binary (src/main.rs) and the criterion benches
//! (benches/cases.rs): the scenarios of the suite.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The repository's `examples/` directory.
pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// Chain of `n` unit masses, neighbours joined by springs k = 100 N/m, the
/// first pulled through such a spring by a driver moving at 0.1 m/s; every
/// mass on its own contact to ground (`model`: LuGre with the parameters of
/// case 1, `coulomb_tanh` with Fc = 1 N, ktanh = 1000 s/m, or `coulomb` with
/// true stick, Fc = 1 N, Fs = 1.5 N). Simulated for `t_end` seconds, rows
/// every 10 ms of the states the peer returns (`[solver] columns`: x and v
/// of every mass, and the bristle state z of every LuGre contact), as the
/// LuGre and free-decay cases ask for theirs.
pub fn chain_text(n: usize, model: &str, t_end: f64, max_wall: Option<f64>) -> String {
    let params = match model {
        "lugre" => "{ sigma0 = 1e5, sigma1 = 316.22776601683796, sigma2 = 0.4, fc = 1.0, fs = 1.5, vs = 0.001, shape = \"gaussian\" }",
        "coulomb_tanh" => "{ fc = 1.0, ktanh = 1000.0 }",
        "coulomb" => "{ fc = 1.0, fs = 1.5 }",
        _ => panic!("no chain for {model}"),
    };
    let mut s = String::from("name = \"chain\"\n")
        + &friction_sim::scenario::chain::chain_text(n, &format!("model = \"{model}\"\nparams = {params}"));
    writeln!(
        s,
        "[solver]\nt_end = {t_end:?}\noutput_dt = 0.01\nrtol = 1e-6\natol = {{ position = 1e-9, velocity = 1e-8, state = 1e-11 }}"
    )
    .unwrap();
    let mut cols: Vec<String> = (0..n).flat_map(|i| [format!("\"x.m{i}\""), format!("\"v.m{i}\"")]).collect();
    if model == "lugre" {
        cols.extend((0..n).map(|i| format!("\"z.c{i}.0\"")));
        writeln!(s, "states = \"all\"").unwrap();
    }
    writeln!(s, "columns = [{}]", cols.join(", ")).unwrap();
    if let Some(w) = max_wall {
        writeln!(s, "max_wall = {w:?}").unwrap();
    }
    s
}
