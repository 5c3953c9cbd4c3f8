//! `friction fmu`: an export of the default scenario, and bad input refused
//! with a message naming the file or path and exit status 2, nothing written.

mod common;

use common::{friction, tmp};

#[test]
fn default_scenario_exports_a_zip_with_the_three_parts() {
    let d = tmp("fmu", "default");
    let out = d.join("default.fmu");
    let r = friction().args(["fmu", "-o"]).arg(&out).output().unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"PK\x03\x04"));
    // zip entry names are stored as written
    for name in ["modelDescription.xml", "binaries/linux64/friction_fmu.so", "resources/scenario.toml"] {
        assert!(bytes.windows(name.len()).any(|w| w == name.as_bytes()), "{name} missing");
    }
    let stdout = String::from_utf8_lossy(&r.stdout);
    // x, v of the mass and the puller, F, s, sv of the contact, its state
    assert!(stdout.contains("8 outputs, 0 inputs, 9 parameters"), "{stdout}");
    assert!(!d.join("default.fmu.part").exists());
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn fmi3_export_packs_the_library_under_x86_64_linux() {
    let d = tmp("fmu", "fmi3");
    let out = d.join("c3.fmu");
    let sc = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/fmu_contact_lugre.toml");
    let r = friction().args(["fmu", sc, "--fmi", "3", "-o"]).arg(&out).output().unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let bytes = std::fs::read(&out).unwrap();
    for name in ["modelDescription.xml", "binaries/x86_64-linux/friction_fmu.so", "resources/scenario.toml"] {
        assert!(bytes.windows(name.len()).any(|w| w == name.as_bytes()), "{name} missing");
    }
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(stdout.contains("FMI 3.0 Co-Simulation, x86_64-linux"), "{stdout}");
    refused(&["fmu", "--fmi", "4", "-o", out.to_str().unwrap()], &["--fmi 4", "valid: 2, 3"]);
    let _ = std::fs::remove_dir_all(d);
}

fn refused(args: &[&str], expect: &[&str]) {
    let r = friction().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
    for e in expect {
        assert!(err.contains(e), "{args:?}: expected {e:?} in {err}");
    }
}

#[test]
fn bad_input_names_the_file_or_path() {
    let d = tmp("fmu", "bad");
    let out = d.join("x.fmu");
    let out_s = out.to_str().unwrap();
    refused(&["fmu", "no/such/scenario.toml", "-o", out_s], &["no/such/scenario.toml"]);
    refused(&["fmu", "-o", d.join("x.zip").to_str().unwrap()], &["x.zip", "must end in .fmu"]);
    // a directory where the FMU should go, and a directory below a file
    std::fs::create_dir_all(d.join("dir.fmu")).unwrap();
    refused(&["fmu", "-o", d.join("dir.fmu").to_str().unwrap()], &["dir.fmu", "is a directory"]);
    std::fs::write(d.join("file"), "x").unwrap();
    refused(
        &["fmu", "-o", d.join("file/x.fmu").to_str().unwrap()],
        &["file/x.fmu", "cannot create the directory"],
    );
    // a library that is missing or not an FMU library
    refused(&["fmu", "-o", out_s, "--lib", "/no/such/lib.so"], &["--lib /no/such/lib.so", "no such file"]);
    refused(
        &["fmu", "-o", out_s, "--lib", d.join("file").to_str().unwrap()],
        &["not an FMI 2.0 shared library"],
    );
    // a scenario error, with file and line
    let sc = d.join("bad.toml");
    std::fs::write(&sc, common::BASE.replace("fc = 1.0", "fc = -1.0")).unwrap();
    refused(&["fmu", sc.to_str().unwrap(), "-o", out_s], &["bad.toml:9", "fc", "-1"]);
    // two variables of the same name: an input named like an output column
    let sc = d.join("clash.toml");
    std::fs::write(
        &sc,
        common::BASE.replace(
            r#"motion = { type = "points", points = [0.0, 2e-5, -1e-5], speed = 1e-4 }"#,
            r#"motion = { type = "input", name = "F.c", start = 0.0 }"#,
        ),
    )
    .unwrap();
    refused(&["fmu", sc.to_str().unwrap(), "-o", out_s], &["\"F.c\"", "two FMU variables"]);
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn library_from_the_environment_variable() {
    let d = tmp("fmu", "env");
    let r = friction()
        .args(["fmu", "-o"])
        .arg(d.join("x.fmu"))
        .env("FRICTION_FMU_LIB", d.join("missing.so"))
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("FRICTION_FMU_LIB") && err.contains("missing.so"), "{err}");
    let _ = std::fs::remove_dir_all(d);
}

/// `cargo install` installs the executable only, and an installed `friction
/// fmu` failed with "cannot find the FMU library libfriction_fmu.so". The
/// library is now embedded in the executable: a copy of it alone in an
/// empty directory, run from there, exports FMUs of both versions, each
/// packing the same library.
#[test]
fn an_installed_copy_with_nothing_beside_it_exports_fmus() {
    let d = tmp("fmu", "installed");
    let bin = d.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let exe = bin.join("friction");
    std::fs::copy(env!("CARGO_BIN_EXE_friction"), &exe).unwrap();
    let mut packed = vec![];
    for fmi in ["2", "3"] {
        let out = d.join(format!("fmi{fmi}.fmu"));
        let r = std::process::Command::new(&exe)
            .args(["fmu", "--fmi", fmi, "-o"])
            .arg(&out)
            .current_dir(&d)
            .env_remove("FRICTION_FMU_LIB")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&r.stdout);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        assert!(stdout.contains("library embedded in this executable"), "{stdout}");
        packed.push(std::fs::read(&out).unwrap().len());
    }
    // nothing was needed beside the executable, and nothing was left there
    let beside: Vec<_> = std::fs::read_dir(&bin).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(beside, ["friction"]);
    // the library (megabytes) is in both archives
    assert!(packed.iter().all(|&n| n > 1_000_000), "{packed:?}");
    let _ = std::fs::remove_dir_all(d);
}
