//! Writes the example data sets of `examples/data/` (see
//! `friction_analysis::synth::example_sets`): synthetic measurements from
//! known parameters with seeded Gaussian noise, for `friction fit`.
//!
//! ```sh
//! cargo run -p friction-analysis --example make_fit_data
//! ```

use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/data");
    std::fs::create_dir_all(&dir).expect("create examples/data");
    let dir = dir.canonicalize().unwrap_or(dir);
    for set in friction_analysis::synth::example_sets() {
        let s = set.series().unwrap_or_else(|e| panic!("{}: {e}", set.name));
        let comment = format!(
            "{}\nmodel {} with {}; noise sd {} N, seed {}\nwritten by: cargo run -p friction-analysis --example make_fit_data",
            set.comment, set.model, set.params, set.noise, set.seed
        );
        let path = dir.join(format!("{}.csv", set.name));
        friction_analysis::synth::write_csv(&s, &path, &comment).expect("write");
        println!("wrote {} ({} samples)", path.display(), s.len());
    }
}
