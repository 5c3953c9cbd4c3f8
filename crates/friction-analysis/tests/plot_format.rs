//! Every picture is PNG or SVG by its path's extension: the fit, the
//! compare model and property pictures and the clutch picture written to
//! `.svg` are SVG and to `.png` are PNG of the same pixel size as before.

use std::path::{Path, PathBuf};

use friction_analysis::compare::clutch::{compare_clutch, plot_clutch, ClutchVariant};
use friction_analysis::compare::{measure_model, plot_model, plot_property, Property, Settings};
use friction_analysis::fit::{fit, parse_params, FitOptions};
use friction_analysis::synth::{measure, velocity_sweep};
use friction_models::ParamMap;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("friction-plot-format-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `f` writes the picture to the given path; `.svg` must give SVG text,
/// `.png` a PNG of `size` pixels.
fn check(d: &Path, size: (u32, u32), f: impl Fn(&Path)) {
    let svg = d.join("p.svg");
    f(&svg);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.starts_with("<svg") || text.starts_with("<?xml"),
        "not SVG: {}",
        &text[..40.min(text.len())]
    );
    let png = d.join("p.png");
    f(&png);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not PNG");
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    assert_eq!((be(16), be(20)), size, "PNG size");
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn a_fit_picture_is_svg_or_png_by_extension() {
    let id = "coulomb_tanh";
    let p = parse_params(id, "fc=0.3,kv=0.05,ktanh=1e4").unwrap();
    let data = measure(id, &p, &velocity_sweep(1e-2, 1.0, 40), 0.01, 3, &Default::default()).unwrap();
    let o = FitOptions {
        model: id.into(),
        init: parse_params(id, "fc=0.5,kv=0.1,ktanh=1e4").unwrap(),
        free: Some(vec!["fc".into(), "kv".into()]),
        guess: false,
        ..Default::default()
    };
    let r = fit(&data, &o, None).unwrap();
    check(&dir("fit"), (900, 720), |path| r.plot(path).unwrap());
}

#[test]
fn compare_pictures_are_svg_or_png_by_extension() {
    let s = Settings::default();
    let row = measure_model("coulomb", &s).unwrap();
    check(&dir("model"), (1500, 1200), |path| plot_model(&row, path).unwrap());
    let rows = [row];
    let prop = Property::ALL[0];
    check(&dir("property"), (900, 300), |path| {
        plot_property(&rows, prop, s.thresholds.band(prop), path).unwrap()
    });
}

#[test]
fn the_clutch_picture_is_svg_or_png_by_extension() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/clutch.toml");
    let sys = friction_sim::scenario::load(&path).unwrap();
    let variants = [ClutchVariant { label: "coulomb".into(), model: None, params: ParamMap::new() }];
    let (setup, runs) = compare_clutch(&sys, &variants).unwrap();
    check(&dir("clutch"), (1100, 900), |path| plot_clutch(&setup, &runs, path).unwrap());
}
