//! Embeds the generic FMU library in the `friction` executable.
//!
//! `friction fmu` packs the shared library of the `friction-fmu` crate
//! (`libfriction_fmu.so`) into every FMU. `cargo install` installs
//! executables only, so an installed `friction` would have no library to
//! pack: this script builds the library with a cargo of its own (the same
//! profile, a target directory of its own so as not to wait on the lock of
//! the one building us) and the executable carries it
//! (`include_bytes!` of `FRICTION_FMU_EMBEDDED` in `src/fmu.rs`).
//!
//! Cargo's artifact dependencies, which would do this directly, are not
//! stable; a cdylib that cargo builds as a dependency cannot be read here,
//! because this script may run before it is linked (and `cargo check`,
//! `clippy` and `doc` do not link it at all). The cost: a fresh
//! `cargo install` on an idle 2-core machine took 6 min 25 s, of which this
//! second compile ran 2 min 50 s alongside the main build (2026-11-30,
//! `scripts/time-install.sh`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    for p in
        ["crates/friction-fmu", "crates/friction-sim", "crates/friction-models", "Cargo.toml", "Cargo.lock"]
    {
        println!("cargo:rerun-if-changed={}", root.join(p).display());
    }
    let release = std::env::var("PROFILE").as_deref() == Ok("release");
    let target_dir = embed_target_dir(&out);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--locked", "-p", "friction-fmu", "--lib", "--manifest-path"])
        .arg(root.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir);
    if release {
        cmd.arg("--release");
    }
    // the library without debug information (a debug build's is 225 MB with it)
    cmd.env("CARGO_PROFILE_DEV_DEBUG", "0");
    // under `cargo clippy` the compiler is wrapped: build the library plainly
    for v in ["RUSTC_WORKSPACE_WRAPPER", "CLIPPY_ARGS", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR"] {
        cmd.env_remove(v);
    }
    let status = cmd.status().unwrap_or_else(|e| panic!("cannot run cargo to build the FMU library: {e}"));
    assert!(status.success(), "building the FMU library (cargo build -p friction-fmu) failed: {status}");
    let lib = target_dir.join(if release { "release" } else { "debug" }).join("libfriction_fmu.so");
    let embedded = out.join("libfriction_fmu.so");
    std::fs::copy(&lib, &embedded).unwrap_or_else(|e| panic!("{}: {e}", lib.display()));
    println!("cargo:rustc-env=FRICTION_FMU_EMBEDDED={}", embedded.display());
}

/// `TARGET/fmu-embed`, `TARGET` being the target directory of the build
/// (`OUT_DIR` is `TARGET/PROFILE/build/friction-cli-HASH/out`), shared by
/// `cargo build`, `test`, `clippy` and `doc` so the library is built once;
/// `OUT_DIR/fmu-embed` where the layout differs.
fn embed_target_dir(out: &Path) -> PathBuf {
    let build = out.parent().and_then(Path::parent);
    match build.and_then(|b| Some((b.file_name()?, b.parent()?.parent()?))) {
        Some((name, target)) if name == "build" => target.join("fmu-embed"),
        _ => out.join("fmu-embed"),
    }
}
