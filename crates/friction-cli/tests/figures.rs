//! `scripts/figures.sh --quick` makes every image of docs/ that the command
//! line makes, with the binary under test: each recipe's command runs and
//! writes its image, every image of docs/ has a recipe, and each image made
//! is the same figure as the one in docs/ (a PNG of the same width and, but
//! for the comparison's table of fewer models, the same height).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

/// Width and height of a PNG file (its IHDR chunk), or `None` when the
/// file is not a PNG.
fn png_size(path: &Path) -> Option<(u32, u32)> {
    let b = std::fs::read(path).ok()?;
    if b.len() < 24 || &b[..8] != b"\x89PNG\r\n\x1a\n" || &b[12..16] != b"IHDR" {
        return None;
    }
    let be = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    Some((be(16), be(20)))
}

#[test]
fn figures_script_makes_every_docs_image_of_the_command_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    let out = common::tmp("figures", "quick");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_friction"));
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let run = Command::new("bash")
        .arg(root.join("scripts/figures.sh"))
        .arg("--quick")
        .arg(&out)
        .env("PATH", path)
        .output()
        .unwrap();
    let log = format!("{}{}", String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "scripts/figures.sh --quick failed:\n{log}");
    // the two the Python tests make are named as such
    assert!(log.contains("not made in quick mode: python_stick_slip_map.png serve.png"), "{log}");
    let mut made = 0;
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let docs = entry.unwrap().path();
        let name = docs.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".png") || name == "python_stick_slip_map.png" || name == "serve.png" {
            continue;
        }
        let quick = out.join(&name);
        let (w, h) = png_size(&quick).unwrap_or_else(|| panic!("{name}: not made as a PNG\n{log}"));
        let (dw, dh) = png_size(&docs).unwrap_or_else(|| panic!("docs/{name} is not a PNG"));
        assert_eq!(w, dw, "{name}: width {w} against docs/ {dw}");
        if name != "compare_stiction.png" {
            assert_eq!(h, dh, "{name}: height {h} against docs/ {dh}");
        }
        made += 1;
    }
    assert_eq!(made, 11, "images of the command line in docs/");
    let _ = std::fs::remove_dir_all(&out);
}
