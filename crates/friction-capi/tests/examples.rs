//! Builds and runs the C and Fortran examples against the static library and
//! checks their results against the same computation through the Rust
//! update API (relative agreement 1e-12).
//!
//! The library is built by a nested `cargo build -p friction-capi` into
//! `<target>/capi-examples` (its own target directory, so it never waits for
//! the lock of the running build; cached between runs), and the examples are
//! compiled there with `cc` and `gfortran`. gfortran is installed with
//! apt-get when missing; if that is impossible the test fails with a message.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use friction_models::update::planar::{init_2d, state_len_2d, update_2d};
use friction_models::update::{init, state_len, update};
use friction_models::{build, ParamMap};

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `<target>/capi-examples`, where `<target>` is CARGO_TARGET_DIR or the
/// workspace's `target`.
fn work_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate_dir().join("../../target"));
    let dir = target.join("capi-examples");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("could not start {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The static library, built once per test run.
fn static_lib() -> &'static Path {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| {
        let dir = work_dir();
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        run(Command::new(cargo)
            .args(["build", "-p", "friction-capi", "--lib"])
            .env("CARGO_TARGET_DIR", dir.join("build"))
            .current_dir(crate_dir()));
        let lib = dir.join("build/debug/libfriction_capi.a");
        assert!(lib.exists(), "{} was not built", lib.display());
        lib
    })
}

/// Libraries a Rust static library needs on Linux.
const SYSTEM_LIBS: [&str; 4] = ["-lpthread", "-ldl", "-lm", "-lgcc_s"];

/// `key = value` lines of an example's output.
fn value(out: &str, key: &str) -> f64 {
    out.lines()
        .find_map(|l| {
            l.split_once('=').filter(|(k, _)| k.trim() == key).map(|(_, v)| v.trim().parse().unwrap())
        })
        .unwrap_or_else(|| panic!("no `{key}` in output:\n{out}"))
}

fn assert_close(what: &str, got: f64, want: f64) {
    let err = (got - want).abs() / want.abs().max(1e-300);
    println!("{what}: example {got:e}, Rust {want:e}, relative difference {err:e}");
    assert!(err <= 1e-12, "{what}: example {got} vs Rust {want}");
}

/// The bar of `examples/c/explicit_fe.c`, through the Rust update API:
/// (tip displacement, dissipated energy).
fn explicit_fe_in_rust() -> (f64, f64) {
    const NODES: usize = 10_000;
    const STEPS: usize = 2000;
    const DT: f64 = 1e-5;
    const M: f64 = 1e-3;
    const K: f64 = 1e6;
    const G: f64 = 9.81;
    const F_MAX: f64 = 30.0;
    const T_RAMP: f64 = 0.01;
    let params: ParamMap = friction_capi::parse_params(
        "sigma0 = 1e5\nsigma1 = 316.0\nsigma2 = 0.4\nfc = 0.3\nfs = 0.4\nvs = 1e-3",
    )
    .unwrap();
    let m = build("lugre", &params).unwrap();
    let mut state = vec![0.0; NODES * state_len(&m)];
    init(&m, &mut state).unwrap();
    let (mut u, mut v, mut du) = (vec![0.0; NODES], vec![0.0; NODES], vec![0.0; NODES]);
    let normal = vec![M * G; NODES];
    let (mut f, mut f_new) = (vec![0.0; NODES], vec![0.0; NODES]);
    let mut energy = 0.0;
    for n in 0..STEPS {
        let t = n as f64 * DT;
        let tip = F_MAX * if t < T_RAMP { t / T_RAMP } else { 1.0 };
        for i in 0..NODES {
            let mut fint = 0.0;
            if i > 0 {
                fint += K * (u[i - 1] - u[i]);
            }
            if i + 1 < NODES {
                fint += K * (u[i + 1] - u[i]);
            }
            let fext = if i + 1 == NODES { tip } else { 0.0 };
            v[i] += DT * (fint + fext - f[i]) / M;
            du[i] = DT * v[i];
        }
        for i in 0..NODES {
            u[i] += du[i];
        }
        update(&m, DT, &du, &normal, &mut state, &mut f_new).unwrap();
        for i in 0..NODES {
            energy += 0.5 * (f[i] + f_new[i]) * du[i];
            f[i] = f_new[i];
        }
    }
    (u[NODES - 1], energy)
}

/// The C example: a 10,000-node bar on LuGre friction under explicit
/// central differences. Its tip displacement and dissipated energy equal
/// the Rust computation's; the energy is positive and the tip has moved.
#[test]
fn c_explicit_fe_example_agrees_with_the_rust_api() {
    let dir = work_dir();
    let exe = dir.join("explicit_fe");
    run(Command::new("cc")
        .args(["-std=c99", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir().join("include"))
        .arg(crate_dir().join("examples/c/explicit_fe.c"))
        .arg(static_lib())
        .args(SYSTEM_LIBS)
        .arg("-o")
        .arg(&exe));
    let csv = dir.join("explicit_fe.csv");
    let out = run(Command::new(&exe).arg(&csv));
    let (tip, energy) = explicit_fe_in_rust();
    assert_close("tip displacement", value(&out, "tip_displacement"), tip);
    assert_close("dissipated energy", value(&out, "dissipated_energy"), energy);
    assert!(tip > 0.0 && energy > 0.0, "tip {tip}, energy {energy}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(rows.lines().next(), Some("node,u,v,friction"));
    assert_eq!(rows.lines().count(), 1 + 20 + 1);
}

/// The plate of `examples/c/plate_2d.c` through the Rust 2-D update API:
/// (dissipated energy in the last cycle, steady orbit radius, smallest slip
/// speed of the last cycle).
fn plate_2d_in_rust() -> (f64, f64, f64) {
    const SIDE: usize = 50;
    const NODES: usize = SIDE * SIDE;
    const MU: f64 = 0.3;
    const M: f64 = 1e-3;
    const N: f64 = 1.0;
    const KP: f64 = 1e5;
    const KD: f64 = 1e4;
    const R: f64 = 1e-3;
    const PI: f64 = std::f64::consts::PI;
    const W: f64 = 2.0 * PI * 5.0;
    const PER: usize = 20_000;
    const CYCLES: usize = 3;
    let m = build("coulomb", &friction_capi::parse_params("fc = 0.3").unwrap()).unwrap();
    let dt = 1.0 / (5.0 * PER as f64);
    let (a, c) = (MU * N / KD, 1.0 - M * W * W / KD);
    let r = (R * R - a * a).sqrt() / c;
    let lag = a.atan2(r * c);
    let mut state = vec![0.0; NODES * state_len_2d(&m).unwrap()];
    init_2d(&m, &mut state).unwrap();
    let normal = vec![N; NODES];
    let (mut u, mut v, mut du, mut f) =
        (vec![0.0; 2 * NODES], vec![0.0; 2 * NODES], vec![0.0; 2 * NODES], vec![0.0; 2 * NODES]);
    for i in 0..NODES {
        let (p, q) = (-lag, -lag - 0.5 * W * dt);
        u[2 * i] = r * p.cos();
        u[2 * i + 1] = r * p.sin();
        v[2 * i] = -W * r * q.sin();
        v[2 * i + 1] = W * r * q.cos();
        f[2 * i] = MU * N * -(-lag).sin();
        f[2 * i + 1] = MU * N * (-lag).cos();
    }
    let (mut energy, mut min_speed) = (0.0, f64::INFINITY);
    for n in 0..CYCLES * PER {
        let t = n as f64 * dt;
        let tool = [R * (W * t).cos(), R * (W * t).sin()];
        for i in 0..NODES {
            let (row, col) = (i / SIDE, i % SIDE);
            for d in 0..2 {
                let ui = u[2 * i + d];
                let mut fint = KD * (tool[d] - ui);
                if col > 0 {
                    fint += KP * (u[2 * (i - 1) + d] - ui);
                }
                if col + 1 < SIDE {
                    fint += KP * (u[2 * (i + 1) + d] - ui);
                }
                if row > 0 {
                    fint += KP * (u[2 * (i - SIDE) + d] - ui);
                }
                if row + 1 < SIDE {
                    fint += KP * (u[2 * (i + SIDE) + d] - ui);
                }
                v[2 * i + d] += dt * (fint - f[2 * i + d]) / M;
                du[2 * i + d] = dt * v[2 * i + d];
            }
        }
        for (ui, dui) in u.iter_mut().zip(&du) {
            *ui += dui;
        }
        update_2d(&m, dt, &du, &normal, &mut state, &mut f).unwrap();
        if n >= (CYCLES - 1) * PER {
            for i in 0..NODES {
                energy += f[2 * i] * du[2 * i] + f[2 * i + 1] * du[2 * i + 1];
                min_speed = min_speed.min(du[2 * i].hypot(du[2 * i + 1]) / dt);
            }
        }
    }
    (energy, r, min_speed)
}

/// The C plate example: 2,500 nodes, each a 2-D Coulomb contact, dragged
/// around a circle in gross slip. Its dissipated energy per cycle equals
/// the Rust computation's (1e-12) and the closed form nodes × μN × 2πr
/// (1e-4: the steps' chords and the half-step lag of the friction
/// direction), and every node slides throughout the cycle.
#[test]
fn c_plate_2d_example_dissipates_mu_n_times_path_length_per_cycle() {
    let dir = work_dir();
    let exe = dir.join("plate_2d");
    run(Command::new("cc")
        .args(["-std=c99", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir().join("include"))
        .arg(crate_dir().join("examples/c/plate_2d.c"))
        .arg(static_lib())
        .args(SYSTEM_LIBS)
        .arg("-o")
        .arg(&exe));
    let out = run(&mut Command::new(&exe));
    println!("{out}");
    let (energy, r, min_speed) = plate_2d_in_rust();
    assert_close("dissipated energy per cycle", value(&out, "dissipated_energy_per_cycle"), energy);
    assert_close("orbit radius", value(&out, "orbit_radius"), r);
    let closed = 2500.0 * 0.3 * 2.0 * std::f64::consts::PI * r; // nodes × μ N (N = 1) × 2πr
    let rel = (energy - closed).abs() / closed;
    println!("plate: energy per cycle {energy:e}, closed form {closed:e}, relative difference {rel:e}");
    assert!(rel < 1e-4, "energy per cycle {energy} vs closed form {closed}");
    // gross slip: every node slides at close to W r all cycle long
    let speed = 2.0 * std::f64::consts::PI * 5.0 * r;
    assert!(min_speed > 0.9 * speed, "min slip speed {min_speed} of {speed}");
}

/// gfortran, installed with apt-get when missing.
fn gfortran() -> &'static str {
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        let present = || Command::new("gfortran").arg("--version").output().is_ok_and(|o| o.status.success());
        if present() {
            return;
        }
        let apt = |args: &[&str]| {
            Command::new("apt-get")
                .args(args)
                .env("DEBIAN_FRONTEND", "noninteractive")
                .status()
                .is_ok_and(|s| s.success())
        };
        if !apt(&["install", "-y", "gfortran"]) {
            apt(&["update"]);
            apt(&["install", "-y", "gfortran"]);
        }
        assert!(
            present(),
            "gfortran is missing and `apt-get install -y gfortran` did not install it; \
             install a Fortran compiler (gfortran) to run the Fortran example"
        );
    });
    "gfortran"
}

/// The Fortran example through the Rust update API: the final forces of the
/// 8 nodes and the dissipated energy.
fn vfric_in_rust() -> (Vec<f64>, f64) {
    const N: usize = 8;
    let params = friction_capi::parse_params("fs = 1.0\nkt = 1e5\nchi = -0.5\nbeta = 0.1\nn = 50").unwrap();
    let m = build("iwan4", &params).unwrap();
    let mut state = vec![0.0; N * state_len(&m)];
    init(&m, &mut state).unwrap();
    let dt = 1e-4;
    let w = 2.0 * std::f64::consts::PI * 10.0;
    let amp: Vec<f64> = (1..=N).map(|i| 2.5e-6 * i as f64).collect();
    let normal: Vec<f64> = (1..=N).map(|i| 1.0 + 0.1 * i as f64).collect();
    let (mut f, mut f_old) = (vec![0.0; N], vec![0.0; N]);
    let mut du = vec![0.0; N];
    let mut energy = 0.0;
    for k in 1..=2000 {
        let (t0, t1) = ((k - 1) as f64 * dt, k as f64 * dt);
        for i in 0..N {
            du[i] = amp[i] * ((w * t1).sin() - (w * t0).sin());
        }
        update(&m, dt, &du, &normal, &mut state, &mut f).unwrap();
        for i in 0..N {
            energy += 0.5 * (f_old[i] + f[i]) * du[i];
        }
        f_old.copy_from_slice(&f);
    }
    (f, energy)
}

/// The Fortran example: a VFRIC-shaped subroutine driving Iwan-4 contacts
/// through iso_c_binding. Its forces and dissipated energy equal the Rust
/// computation's, and the hysteresis loops dissipate.
#[test]
fn fortran_vfric_example_agrees_with_the_rust_api() {
    let fc = gfortran();
    let dir = work_dir();
    let exe = dir.join("vfric");
    let modules = dir.join("fortran-modules");
    std::fs::create_dir_all(&modules).unwrap();
    run(Command::new(fc)
        .args(["-O2", "-ffp-contract=off", "-Wall", "-J"])
        .arg(&modules)
        .arg(crate_dir().join("examples/fortran/vfric.f90"))
        .arg(static_lib())
        .args(SYSTEM_LIBS)
        .arg("-o")
        .arg(&exe));
    let out = run(&mut Command::new(&exe));
    let (f, energy) = vfric_in_rust();
    for (i, fi) in f.iter().enumerate() {
        assert_close(&format!("force {}", i + 1), value(&out, &format!("force_{}", i + 1)), *fi);
    }
    assert_close("dissipated energy", value(&out, "dissipated_energy"), energy);
    assert!(energy > 0.0);
    // against the physics, not the library: each node's second period is
    // one closed micro-slip loop, whose dissipation per unit normal load
    // is Segalman's closed form (D. J. Segalman, "A four-parameter Iwan
    // model for lap-type joints", J. Appl. Mech. 72, 2005, eq. 20) for the
    // example's FS = 1 N, KT = 1e5 N/m, χ = -0.5, β = 0.1
    let (fs, kt, chi, beta) = (1.0f64, 1e5f64, -0.5f64, 0.1f64);
    let b = beta + (chi + 1.0) / (chi + 2.0);
    let phi_max = fs * (1.0 + beta) / (kt * b);
    let r = fs * (chi + 1.0) / (phi_max.powf(chi + 2.0) * b);
    for i in 1..=8 {
        let a = 2.5e-6 * i as f64;
        assert!(a < phi_max, "node {i} is not in micro-slip");
        let exact = 4.0 * r * a.powf(chi + 3.0) / ((chi + 2.0) * (chi + 3.0));
        let got = value(&out, &format!("loop_dissipation_{i}"));
        let err = (got - exact).abs() / exact;
        println!("node {i}: A = {a:e} m, loop dissipation {got:e} J/N, Segalman {exact:e}, relative {err:e}");
        assert!(err < SEGALMAN_TOL, "node {i}: {got} vs Segalman's {exact} (relative {err:e})");
    }
}

/// The Fortran Iwan example's loops against Segalman's continuous closed
/// form: 50 elements discretise the continuous density of slip strengths,
/// which leaves 0.09 % to 0.85 % over the eight amplitudes (measured).
const SEGALMAN_TOL: f64 = 0.015;

/// The 3-D VFRIC example through the Rust 2-D update API: the global
/// friction forces on the slave nodes (opposing the slip, as VFRIC's) and
/// the dissipated energy.
fn vfric3d_in_rust() -> (Vec<[f64; 2]>, f64) {
    const N: usize = 8;
    let params = friction_capi::parse_params(
        "sigma0 = 1e5\nsigma1 = 316.0\nsigma2 = 0.4\nfc = 0.3\nfs = 0.4\nvs = 1e-3",
    )
    .unwrap();
    let m = build("lugre", &params).unwrap();
    let mut state = vec![0.0; N * state_len_2d(&m).unwrap()];
    init_2d(&m, &mut state).unwrap();
    let dt = 1e-4;
    let w = 2.0 * std::f64::consts::PI * 5.0;
    let ax: Vec<f64> = (1..=N).map(|i| 2.0e-4 * i as f64).collect();
    let ay: Vec<f64> = (1..=N).map(|i| 1.0e-4 * (9 - i) as f64).collect();
    let normal: Vec<f64> = (1..=N).map(|i| 1.0 + 0.1 * i as f64).collect();
    let (mut f, mut du) = (vec![0.0; 2 * N], vec![0.0; 2 * N]);
    let mut f_old = [0.0; 2 * N];
    let mut energy = 0.0;
    for k in 1..=2000 {
        let (t0, t1) = ((k - 1) as f64 * dt, k as f64 * dt);
        for i in 0..N {
            du[2 * i] = ax[i] * ((w * t1).cos() - (w * t0).cos());
            du[2 * i + 1] = ay[i] * ((w * t1).sin() - (w * t0).sin());
        }
        update_2d(&m, dt, &du, &normal, &mut state, &mut f).unwrap();
        for i in 0..2 * N {
            energy += 0.5 * (f_old[i] + f[i]) * du[i];
        }
        f_old.copy_from_slice(&f);
    }
    (f.chunks(2).map(|c| [-c[0], -c[1]]).collect(), energy)
}

/// The Fortran example with VFRIC's argument list for 3-D contact: the
/// slip arrives in VFRIC's turning local frame, is mapped to a fixed
/// tangent basis for the library's 2-D update, and the force goes back in
/// the local frame. Its global forces and dissipated energy equal the Rust
/// computation's (1e-12), and the force's first local component never
/// points along the slip (VFRIC's sign convention).
#[test]
fn fortran_vfric3d_example_agrees_with_the_rust_api() {
    let fc = gfortran();
    let dir = work_dir();
    let exe = dir.join("vfric3d");
    let modules = dir.join("fortran-modules-3d");
    std::fs::create_dir_all(&modules).unwrap();
    run(Command::new(fc)
        .args(["-O2", "-ffp-contract=off", "-Wall", "-Wno-unused-dummy-argument", "-J"])
        .arg(&modules)
        .arg(crate_dir().join("examples/fortran/vfric3d.f90"))
        .arg(static_lib())
        .args(SYSTEM_LIBS)
        .arg("-o")
        .arg(&exe));
    let out = run(&mut Command::new(&exe));
    let (f, energy) = vfric3d_in_rust();
    let scale = f.iter().map(|c| c[0].hypot(c[1])).fold(0.0, f64::max);
    for (i, fi) in f.iter().enumerate() {
        for (axis, want) in ["x", "y"].iter().zip(fi) {
            let got = value(&out, &format!("force_{axis}_{}", i + 1));
            println!("node {} {axis}: example {got:e}, Rust {want:e}", i + 1);
            assert!((got - want).abs() <= 1e-12 * scale, "node {} {axis}: {got} vs {want}", i + 1);
        }
    }
    assert_close("dissipated energy", value(&out, "dissipated_energy"), energy);
    assert!(energy > 0.0);
    assert!(value(&out, "max_first_component") <= 0.0, "{out}");
}

/// The FRIC example's implicit analysis through the Rust API: per point
/// the final stress and slip, the largest stress, and the most Newton
/// iterations of an increment (the tangent in the Jacobian).
fn fric_in_rust() -> (Vec<(f64, f64, f64)>, usize) {
    use friction_models::update::update_tangent;
    const NP: usize = 4;
    const NINC: usize = 120;
    const K: f64 = 2e5;
    const D: f64 = 4e-5;
    const DT: f64 = 1e-2;
    let m = build("jenkins", &friction_capi::parse_params("kt = 1e5\nfs = 0.3").unwrap()).unwrap();
    let len = state_len(&m);
    let drive_at = |inc: usize| {
        let s = inc as f64 / NINC as f64;
        if s <= 0.25 {
            4.0 * s
        } else if s <= 0.75 {
            1.0 - 4.0 * (s - 0.25)
        } else {
            -1.0 + 4.0 * (s - 0.75)
        }
    };
    let mut out = Vec::new();
    let mut most = 0;
    for i in 0..NP {
        let p = 1.0 + 0.5 * i as f64;
        let mut st = vec![0.0; len];
        init(&m, &mut st).unwrap();
        let (mut g, mut tau_end, mut tau_max) = (0.0, 0.0, 0.0f64);
        for inc in 1..=NINC {
            let drive = D * drive_at(inc);
            let mut dgi = 0.0;
            let mut it = 0;
            loop {
                it += 1;
                assert!(it <= 200, "increment {inc} point {i}: no convergence");
                let mut trial = st.clone();
                let (mut tau, mut k) = ([0.0], [0.0]);
                update_tangent(&m, DT, &[dgi], &[p], &mut trial, &mut tau, Some(&mut k), None).unwrap();
                let r = K * (drive - g - dgi) - tau[0];
                if r.abs() <= 1e-9 * K * D {
                    st = trial;
                    tau_end = tau[0];
                    break;
                }
                dgi += r / (K + k[0]);
            }
            most = most.max(it - 1);
            g += dgi;
            tau_max = tau_max.max(tau_end.abs());
        }
        out.push((tau_end, g, tau_max));
    }
    (out, most)
}

/// The Fortran FRIC example: an Abaqus/Standard-shaped FRIC subroutine
/// returning TAU, DDTDDG and DDTDDP from the library's update with its
/// tangent, inside an implicit Newton analysis of Jenkins contacts on
/// springs driven 0 -> D -> -D -> 0. Its stresses and slips equal the
/// Rust computation's; every point reaches its slip limit μ p (μ = 0.3)
/// and no more; with the consistent tangent Newton's method needs at most
/// two iterations per increment (the law is piecewise linear), against
/// dozens, or none converging, with a zero friction tangent.
#[test]
fn fortran_fric_example_converges_with_the_consistent_tangent() {
    let fc = gfortran();
    let dir = work_dir();
    let exe = dir.join("fric");
    let modules = dir.join("fortran-modules-fric");
    std::fs::create_dir_all(&modules).unwrap();
    run(Command::new(fc)
        .args(["-O2", "-ffp-contract=off", "-Wall", "-J"])
        .arg(&modules)
        .arg(crate_dir().join("examples/fortran/fric.f90"))
        .arg(static_lib())
        .args(SYSTEM_LIBS)
        .arg("-o")
        .arg(&exe));
    let out = run(&mut Command::new(&exe));
    println!("{out}");
    let (points, most) = fric_in_rust();
    for (i, (tau, g, tau_max)) in points.iter().enumerate() {
        let n = i + 1;
        assert_close(&format!("stress {n}"), value(&out, &format!("stress_{n}")), *tau);
        assert_close(&format!("slip {n}"), value(&out, &format!("slip_{n}")), *g);
        let limit = 0.3 * (1.0 + 0.5 * i as f64);
        let got = value(&out, &format!("max_stress_{n}"));
        assert!((got - limit).abs() <= 1e-12 * limit, "point {n}: largest stress {got}, slip limit {limit}");
        assert_eq!(*tau_max, got);
    }
    let with = value(&out, "newton_iterations_with_tangent");
    let without = value(&out, "newton_iterations_without_tangent");
    let failed = value(&out, "solves_not_converged_in_200_without_tangent");
    println!("Newton iterations per increment: at most {with} with the tangent, {without} without ({failed} solves not converged)");
    assert_eq!(with, most as f64);
    assert!(with <= 2.0, "{with} iterations with the consistent tangent");
    assert!(
        without >= 10.0 * with && failed > 0.0,
        "without the tangent: {without} iterations, {failed} failures"
    );
}
