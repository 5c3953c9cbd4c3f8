//! The checked-in header `include/friction.h` is the one cbindgen generates
//! from the source today. Run `FRICTION_BLESS=1 cargo test -p friction-capi
//! --test header` to rewrite it after changing the interface.

use std::path::Path;

#[test]
fn checked_in_header_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not generate the header");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).unwrap();
    let path = dir.join("include/friction.h");
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if generated != current {
        if std::env::var_os("FRICTION_BLESS").is_some() {
            std::fs::write(&path, &generated).unwrap();
            return;
        }
        let first = generated.lines().zip(current.lines()).position(|(a, b)| a != b);
        panic!(
            "include/friction.h is stale (first difference at line {}); regenerate it with\n\
             FRICTION_BLESS=1 cargo test -p friction-capi --test header",
            first.map_or_else(|| "end".to_string(), |l| (l + 1).to_string())
        );
    }
}
