//! What the command-line test files share: the binary, scratch directories
//! and the base scenario the bad-input cases mutate.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The `friction` binary under test.
pub fn friction() -> Command {
    Command::new(env!("CARGO_BIN_EXE_friction"))
}

/// A fresh scratch directory `friction-TAG-PID-NAME` (test files use
/// different tags, so their directories never collide).
pub fn tmp(tag: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("friction-{tag}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A driven Dahl contact; line 8 is `model`, line 9 `params`, line 10 `[solver]`.
pub const BASE: &str = r#"name = "bad"
[[driver]]
name = "slider"
motion = { type = "points", points = [0.0, 2e-5, -1e-5], speed = 1e-4 }
[[contact]]
name = "c"
between = ["slider", "ground"]
model = "dahl"
params = { sigma0 = 1e5, fc = 1.0, exponent = 1.0 }
[solver]
t_end = 0.5
output_dt = 1e-3
"#;
