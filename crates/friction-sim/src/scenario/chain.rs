//! Generated scenarios of any size: a chain of `n` unit masses joined by
//! springs, each on its own contact to the ground, the first pulled through
//! a spring by a driver at constant speed. The case the engine's scaling is
//! measured on (benchmarks, the memory and large-input tests).

use std::fmt::Write as _;

/// The tables of a chain of `n` unit masses: a driver `pull` moving at
/// 0.1 m/s, bodies `m0 .. m{n-1}` of 1 kg, springs of 100 N/m from `pull`
/// to `m0` and from each mass to the next, and contacts `c0 .. c{n-1}`
/// from each mass to the ground whose remaining keys are `contact` (for
/// example `model = "lugre"` and a `params` line). Append a `[solver]`
/// table (and put top-level keys such as `name` before the text).
///
/// ```
/// use friction_sim::scenario::{self, chain::chain_text};
/// let text = chain_text(3, "model = \"coulomb\"\nparams = { fc = 1.0 }") + "[solver]\nt_end = 1.0\n";
/// let sys = scenario::parse(&text, "chain.toml", std::path::Path::new(".")).unwrap();
/// assert_eq!((sys.bodies.len(), sys.springs.len(), sys.contacts.len()), (3, 3, 3));
/// ```
pub fn chain_text(n: usize, contact: &str) -> String {
    let mut s = String::from("[[driver]]\nname = \"pull\"\nmotion = { type = \"ramp\", rate = 0.1 }\n");
    for i in 0..n {
        let prev = if i == 0 { "pull".to_string() } else { format!("m{}", i - 1) };
        // writing to a String cannot fail
        let _ = writeln!(
            s,
            "[[body]]\nname = \"m{i}\"\nmass = 1.0\n[[spring]]\nbetween = [\"{prev}\", \"m{i}\"]\nstiffness = 100.0\n\
             [[contact]]\nname = \"c{i}\"\nbetween = [\"m{i}\", \"ground\"]\n{contact}"
        );
    }
    s
}
