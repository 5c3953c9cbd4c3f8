//! The FMI 2.0 functions called directly (the rlib's extern fns), as a
//! master would: the contact FMU of `examples/fmu_contact_lugre.toml`
//! driven through a slip-velocity input, parameters set before
//! initialisation, and every misuse refused with fmi2Error.

use std::ffi::{c_char, CStr, CString};
use std::path::{Path, PathBuf};

use friction_fmu::description::guid;
use friction_fmu::fmi2::*;
use friction_fmu::instance::Instance;

const CONTACT: &str = include_str!("../../../examples/fmu_contact_lugre.toml");

/// An unpacked FMU: `DIR/resources/scenario.toml`; returns the resource URI.
fn unpacked(tag: &str, text: &str) -> (PathBuf, CString) {
    let d = std::env::temp_dir().join(format!("friction-fmu-api-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("resources")).unwrap();
    std::fs::write(d.join("resources/scenario.toml"), text).unwrap();
    let uri = format!("file://{}", d.join("resources").display());
    (d, CString::new(uri).unwrap())
}

fn callbacks() -> fmi2CallbackFunctions {
    fmi2CallbackFunctions {
        logger: None,
        allocateMemory: None,
        freeMemory: None,
        stepFinished: None,
        componentEnvironment: std::ptr::null_mut(),
    }
}

struct Fmu {
    c: fmi2Component,
    _cb: Box<fmi2CallbackFunctions>,
    dir: PathBuf,
}

impl Drop for Fmu {
    fn drop(&mut self) {
        unsafe { fmi2FreeInstance(self.c) };
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn instantiate(tag: &str, text: &str) -> Fmu {
    let (dir, uri) = unpacked(tag, text);
    let cb = Box::new(callbacks());
    let name = CString::new(tag).unwrap();
    let g = CString::new(guid(text)).unwrap();
    let c = unsafe { fmi2Instantiate(name.as_ptr(), fmi2CoSimulation, g.as_ptr(), uri.as_ptr(), &*cb, 0, 0) };
    assert!(!c.is_null());
    Fmu { c, _cb: cb, dir }
}

fn vr_of(name: &str) -> u32 {
    let inst = Instance::from_text("t", CONTACT, "contact.toml", PathBuf::from(".")).unwrap();
    inst.variables().iter().find(|v| v.name == name).unwrap().vr
}

fn get(f: &Fmu, vr: u32) -> f64 {
    let mut x = f64::NAN;
    assert_eq!(unsafe { fmi2GetReal(f.c, &vr, 1, &mut x) }, fmi2OK);
    x
}

fn set(f: &Fmu, vr: u32, x: f64) -> fmi2Status {
    unsafe { fmi2SetReal(f.c, &vr, 1, &x) }
}

fn start(f: &Fmu) {
    unsafe {
        assert_eq!(fmi2SetupExperiment(f.c, 0, 0.0, 0.0, 0, 0.0), fmi2OK);
        assert_eq!(fmi2EnterInitializationMode(f.c), fmi2OK);
        assert_eq!(fmi2ExitInitializationMode(f.c), fmi2OK);
    }
}

fn step(f: &Fmu, t: f64, h: f64) -> fmi2Status {
    unsafe { fmi2DoStep(f.c, t, h, 1) }
}

#[test]
fn version_and_platform_strings() {
    unsafe {
        assert_eq!(CStr::from_ptr(fmi2GetVersion()).to_str().unwrap(), "2.0");
        assert_eq!(CStr::from_ptr(fmi2GetTypesPlatform()).to_str().unwrap(), "default");
    }
}

/// Sliding forward at 1 cm/s the force settles at -(Fc + σ2 v) = -1.004 N;
/// after the master reverses the slip velocity, at +1.004 N; the position is
/// the integral of the input.
#[test]
fn slip_velocity_input_gives_the_lugre_sliding_force_both_ways() {
    let f = instantiate("slide", CONTACT);
    start(&f);
    let (u, x, force) = (vr_of("v_slip"), vr_of("x.slider"), vr_of("F.c"));
    let mut t = 0.0;
    for _ in 0..100 {
        assert_eq!(step(&f, t, 0.01), fmi2OK);
        t += 0.01;
    }
    assert!((get(&f, force) + 1.004).abs() < 1e-6, "{}", get(&f, force));
    assert!((get(&f, x) - 0.01).abs() < 1e-12);
    assert_eq!(set(&f, u, -0.01), fmi2OK);
    for _ in 0..100 {
        assert_eq!(step(&f, t, 0.01), fmi2OK);
        t += 0.01;
    }
    assert!((get(&f, force) - 1.004).abs() < 1e-6, "{}", get(&f, force));
    assert!(get(&f, x).abs() < 1e-12);
    // one step to the stop time, then terminate: outputs stay readable
    assert_eq!(step(&f, t, 5.0 - t), fmi2OK);
    assert_eq!(unsafe { fmi2Terminate(f.c) }, fmi2OK);
    assert!((get(&f, x) + 0.03).abs() < 1e-9);
    let mut last = 0.0;
    assert_eq!(unsafe { fmi2GetRealStatus(f.c, 2, &mut last) }, fmi2OK);
    assert!((last - 5.0).abs() < 1e-12, "{last}");
}

/// A parameter set before initialisation rebuilds the model: Fc = 1.2 N
/// slides at -(1.2 + 0.004) N. Out of range it is refused and the old value kept.
#[test]
fn parameters_set_before_initialisation_rebuild_the_model() {
    let f = instantiate("param", CONTACT);
    let fc = vr_of("c.fc");
    assert_eq!(set(&f, vr_of("c.sigma0"), -1.0), fmi2Error);
    unsafe { fmi2Reset(f.c) };
    assert_eq!(set(&f, fc, 1.2), fmi2OK);
    start(&f);
    assert_eq!(get(&f, fc), 1.2);
    assert_eq!(step(&f, 0.0, 1.0), fmi2OK);
    assert!((get(&f, vr_of("F.c")) + 1.204).abs() < 1e-6);
    // fixed: not after initialisation
    assert_eq!(set(&f, fc, 1.0), fmi2Error);
}

#[test]
fn parameter_out_of_range_names_the_parameter_value_and_range() {
    let mut inst = Instance::from_text("t", CONTACT, "contact.toml", PathBuf::from(".")).unwrap();
    let e = inst.set_real(&[vr_of("c.sigma0")], &[-1.0]).unwrap_err();
    assert!(e.0.contains("c.sigma0") && e.0.contains("-1") && e.0.contains("(0, inf)"), "{e}");
}

#[test]
fn misuse_returns_fmi2error() {
    let f = instantiate("misuse", CONTACT);
    // before initialisation: no step, no outputs
    assert_eq!(step(&f, 0.0, 0.1), fmi2Error);
    unsafe { fmi2Reset(f.c) };
    let mut x = 0.0;
    assert_eq!(unsafe { fmi2GetReal(f.c, &0, 1, &mut x) }, fmi2Error);
    unsafe { fmi2Reset(f.c) };
    start(&f);
    // unknown value reference, an output set, NULL arrays
    assert_eq!(unsafe { fmi2GetReal(f.c, &9999, 1, &mut x) }, fmi2Error);
    unsafe { fmi2Reset(f.c) };
    start(&f);
    assert_eq!(set(&f, vr_of("F.c"), 1.0), fmi2Error);
    unsafe { fmi2Reset(f.c) };
    start(&f);
    assert_eq!(unsafe { fmi2GetReal(f.c, std::ptr::null(), 2, &mut x) }, fmi2Error);
    unsafe { fmi2Reset(f.c) };
    start(&f);
    // no Integer variables; a non-finite input
    let mut i = 0;
    assert_eq!(unsafe { fmi2GetInteger(f.c, &0, 1, &mut i) }, fmi2Error);
    assert_eq!(unsafe { fmi2GetInteger(f.c, std::ptr::null(), 0, &mut i) }, fmi2Error, "error state");
    unsafe { fmi2Reset(f.c) };
    start(&f);
    assert_eq!(set(&f, vr_of("v_slip"), f64::NAN), fmi2Error);
    unsafe { fmi2Reset(f.c) };
    start(&f);
    // a step not from the FMU's time, a step past the stop time, h <= 0
    assert_eq!(step(&f, 1.0, 0.1), fmi2Error);
    unsafe { fmi2Reset(f.c) };
    start(&f);
    assert_eq!(step(&f, 0.0, 5.5), fmi2Error);
    unsafe { fmi2Reset(f.c) };
    start(&f);
    assert_eq!(step(&f, 0.0, 0.0), fmi2Error);
    // unsupported capabilities
    unsafe { fmi2Reset(f.c) };
    assert_eq!(unsafe { fmi2CancelStep(f.c) }, fmi2Error);
    unsafe { fmi2Reset(f.c) };
    // a NULL state
    assert_eq!(unsafe { fmi2SetFMUstate(f.c, std::ptr::null_mut()) }, fmi2Error);
    // a null component
    assert_eq!(unsafe { fmi2DoStep(std::ptr::null_mut(), 0.0, 0.1, 0) }, fmi2Error);
    // after all that, the instance still runs
    unsafe { fmi2Reset(f.c) };
    start(&f);
    assert_eq!(step(&f, 0.0, 5.0), fmi2OK);
    assert!((get(&f, vr_of("x.slider")) - 0.05).abs() < 1e-12);
}

#[test]
fn stop_time_from_setup_experiment_bounds_the_steps() {
    let f = instantiate("stop", CONTACT);
    unsafe {
        assert_eq!(fmi2SetupExperiment(f.c, 1, 1e-8, 0.0, 1, 0.5), fmi2OK);
        assert_eq!(fmi2EnterInitializationMode(f.c), fmi2OK);
        assert_eq!(fmi2ExitInitializationMode(f.c), fmi2OK);
    }
    assert_eq!(step(&f, 0.0, 0.5), fmi2OK);
    assert_eq!(step(&f, 0.5, 0.1), fmi2Error);
    let f = instantiate("start", CONTACT);
    assert_eq!(unsafe { fmi2SetupExperiment(f.c, 0, 0.0, 1.0, 0, 0.0) }, fmi2Error);
}

#[test]
fn instantiation_refuses_a_wrong_guid_type_or_resource_location() {
    let (dir, uri) = unpacked("guid", CONTACT);
    let cb = callbacks();
    let name = CString::new("x").unwrap();
    let good = CString::new(guid(CONTACT)).unwrap();
    let bad = CString::new("{00000000-0000-0000-0000-000000000000}").unwrap();
    let http = CString::new("http://example.com/resources").unwrap();
    let missing = CString::new(format!("file://{}", Path::new(&dir).join("nowhere").display())).unwrap();
    let p = |g: &CString, ty, u: &CString| unsafe {
        fmi2Instantiate(name.as_ptr(), ty, g.as_ptr(), u.as_ptr(), &cb, 0, 0)
    };
    assert!(p(&bad, fmi2CoSimulation, &uri).is_null());
    assert!(p(&good, 0, &uri).is_null(), "Model Exchange is not supported");
    assert!(p(&good, fmi2CoSimulation, &http).is_null());
    assert!(p(&good, fmi2CoSimulation, &missing).is_null());
    let null: *const c_char = std::ptr::null();
    assert!(
        unsafe { fmi2Instantiate(name.as_ptr(), fmi2CoSimulation, null, uri.as_ptr(), &cb, 0, 0) }.is_null()
    );
    let c = p(&good, fmi2CoSimulation, &uri);
    assert!(!c.is_null());
    unsafe { fmi2FreeInstance(c) };
    let _ = std::fs::remove_dir_all(dir);
}

/// Messages of refused calls name what was wrong.
#[test]
fn error_messages_name_the_variable_and_the_limit() {
    let mut inst = Instance::from_text("t", CONTACT, "contact.toml", PathBuf::from(".")).unwrap();
    inst.setup_experiment(None, 0.0, None).unwrap();
    inst.enter_initialization().unwrap();
    inst.exit_initialization().unwrap();
    let e = inst.do_step(0.0, 6.0).unwrap_err();
    assert!(e.0.contains("past the stop time 5"), "{e}");
    inst.reset();
    inst.enter_initialization().unwrap();
    inst.exit_initialization().unwrap();
    let e = inst.set_real(&[vr_of("F.c")], &[0.0]).unwrap_err();
    assert!(e.0.contains("\"F.c\"") && e.0.contains("is an output"), "{e}");
    inst.reset();
    inst.enter_initialization().unwrap();
    let mut x = [0.0];
    let e = inst.get_real(&[4242], &mut x).unwrap_err();
    assert!(e.0.contains("4242"), "{e}");
}

/// The outputs after a fixed sequence of steps with the slip velocity
/// changing at each, all read: `(time, every output)` per step.
fn continue_run(f: &Fmu, t0: f64) -> Vec<(f64, Vec<u64>)> {
    let u = vr_of("v_slip");
    let inst = Instance::from_text("t", CONTACT, "contact.toml", PathBuf::from(".")).unwrap();
    let outs: Vec<u32> = inst
        .variables()
        .iter()
        .filter(|v| matches!(v.kind, friction_fmu::variables::Kind::Output(_)))
        .map(|v| v.vr)
        .collect();
    assert!(outs.len() >= 3);
    let mut t = t0;
    let mut rows = Vec::new();
    for k in 0..12 {
        assert_eq!(set(f, u, 0.01 * (0.7 * k as f64).sin()), fmi2OK);
        assert_eq!(step(f, t, 0.05), fmi2OK);
        t += 0.05;
        let mut time = 0.0;
        assert_eq!(unsafe { fmi2GetRealStatus(f.c, 2, &mut time) }, fmi2OK);
        rows.push((time, outs.iter().map(|&vr| get(f, vr).to_bits()).collect()));
    }
    rows
}

/// A master that rolls a step back: the state saved at t = 0.4 (after
/// reversals of the slip velocity, the bristle deflection away from its
/// steady value), restored after the run went on, continues bit for bit as
/// the first continuation did; so does a fresh instance given the state
/// serialised and read back. A state of another scenario is refused.
#[test]
fn restored_fmu_state_continues_bit_for_bit() {
    let f = instantiate("state", CONTACT);
    start(&f);
    let u = vr_of("v_slip");
    let mut t = 0.0;
    for k in 0..8 {
        assert_eq!(set(&f, u, if k % 3 == 0 { -0.02 } else { 0.015 }), fmi2OK);
        assert_eq!(step(&f, t, 0.05), fmi2OK);
        t += 0.05;
    }
    let x_saved = get(&f, vr_of("x.slider"));
    let mut s: fmi2FMUstate = std::ptr::null_mut();
    assert_eq!(unsafe { fmi2GetFMUstate(f.c, &mut s) }, fmi2OK);
    assert!(!s.is_null());
    let first = continue_run(&f, t);
    // the run moved on: a restore that did nothing would be caught
    assert_ne!(get(&f, vr_of("x.slider")), x_saved);
    assert_eq!(unsafe { fmi2SetFMUstate(f.c, s) }, fmi2OK);
    assert_eq!(get(&f, vr_of("x.slider")).to_bits(), x_saved.to_bits());
    let second = continue_run(&f, t);
    assert_eq!(first, second);
    // again, overwriting the state in place with the same point
    assert_eq!(unsafe { fmi2SetFMUstate(f.c, s) }, fmi2OK);
    assert_eq!(unsafe { fmi2GetFMUstate(f.c, &mut s) }, fmi2OK);
    assert_eq!(continue_run(&f, t), first);

    // serialised, read back by a fresh instance
    let mut size = 0usize;
    assert_eq!(unsafe { fmi2SerializedFMUstateSize(f.c, s, &mut size) }, fmi2OK);
    let mut bytes = vec![0 as fmi2Byte; size];
    assert_eq!(unsafe { fmi2SerializeFMUstate(f.c, s, bytes.as_mut_ptr(), size) }, fmi2OK);
    assert_eq!(unsafe { fmi2SerializeFMUstate(f.c, s, bytes.as_mut_ptr(), size - 1) }, fmi2Error);
    let g = instantiate("state-fresh", CONTACT);
    let mut s2: fmi2FMUstate = std::ptr::null_mut();
    assert_eq!(unsafe { fmi2DeSerializeFMUstate(g.c, bytes.as_ptr(), size, &mut s2) }, fmi2OK);
    assert_eq!(unsafe { fmi2SetFMUstate(g.c, s2) }, fmi2OK);
    assert_eq!(continue_run(&g, t), first);
    assert_eq!(unsafe { fmi2FreeFMUstate(g.c, &mut s2) }, fmi2OK);
    assert!(s2.is_null());

    // a state of another scenario (another GUID) is refused
    let other_text = CONTACT.replacen("t_end = 5.0", "t_end = 6.0", 1);
    assert_ne!(other_text, CONTACT);
    let h = instantiate("state-other", &other_text);
    let mut s3: fmi2FMUstate = std::ptr::null_mut();
    assert_eq!(unsafe { fmi2DeSerializeFMUstate(h.c, bytes.as_ptr(), size, &mut s3) }, fmi2Error);
    assert!(s3.is_null());
    assert_eq!(unsafe { fmi2FreeFMUstate(f.c, &mut s) }, fmi2OK);
}

/// A state saved before initialisation brings back the start values and
/// the instantiated state: initialisation and the run can be done again.
#[test]
fn state_saved_before_initialisation_restarts_the_run() {
    let f = instantiate("state-init", CONTACT);
    let mut s: fmi2FMUstate = std::ptr::null_mut();
    assert_eq!(unsafe { fmi2GetFMUstate(f.c, &mut s) }, fmi2OK);
    start(&f);
    let first = continue_run(&f, 0.0);
    assert_eq!(unsafe { fmi2SetFMUstate(f.c, s) }, fmi2OK);
    assert_eq!(step(&f, 0.0, 0.05), fmi2Error, "instantiated: no step before initialisation");
    assert_eq!(unsafe { fmi2SetFMUstate(f.c, s) }, fmi2OK);
    start(&f);
    assert_eq!(continue_run(&f, 0.0), first);
    assert_eq!(unsafe { fmi2FreeFMUstate(f.c, &mut s) }, fmi2OK);
}

/// A scenario with heat: the temperatures and heat flows are outputs, and
/// a friction coefficient given as a temperature law is not a parameter
/// (the master setting it would replace the law by a constant).
#[test]
fn temperatures_are_outputs_and_a_temperature_law_is_no_parameter() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let text = std::fs::read_to_string(root.join("downhill_brake.toml")).unwrap();
    let inst = Instance::from_text("t", &text, "downhill_brake.toml", root).unwrap();
    let vars = inst.variables();
    let kind = |n: &str| vars.iter().find(|v| v.name == n).map(|v| v.kind.clone());
    assert!(matches!(kind("T.discs"), Some(friction_fmu::variables::Kind::Output(_))));
    assert!(matches!(kind("Q.discs-air"), Some(friction_fmu::variables::Kind::Output(_))));
    assert_eq!(kind("brake.fc"), None);
}

/// A Coulomb contact driven at constant speed heating a capacity `C`
/// conducting to an ambient `Ta` through `G`: `T(t) = Ta + (P/G) (1 -
/// exp(-G t / C))`, `P = fc N v`.
const HEATED: &str = r#"
[[driver]]
name = "w"
motion = { type = "ramp", rate = 0.4 }
[[contact]]
name = "c"
between = ["w", "ground"]
model = "coulomb"
params = { fc = 0.3 }
normal = 250.0
heat = "pad"
[[thermal]]
name = "pad"
capacity = 120.0
T0 = 293.15
[[thermal]]
name = "air"
fixed = 293.15
[[conduction]]
name = "pad-air"
between = ["pad", "air"]
conductance = 2.5
[solver]
t_end = 100.0
rtol = 1e-12
"#;

/// The thermal parameters are FMU parameters (capacity, initial and fixed
/// temperatures, conductance, with their units); set before
/// initialisation, they give the temperature of the closed form with the
/// new values; a negative conductance is refused naming the key and range.
#[test]
fn thermal_parameters_set_before_initialisation_give_the_closed_form_temperature() {
    let inst = Instance::from_text("t", HEATED, "heated.toml", PathBuf::from(".")).unwrap();
    let vars = inst.variables();
    let var = |n: &str| vars.iter().find(|v| v.name == n).unwrap_or_else(|| panic!("no variable {n}"));
    for (n, unit, start) in [
        ("pad.capacity", "J/K", 120.0),
        ("pad.T0", "K", 293.15),
        ("air.fixed", "K", 293.15),
        ("pad-air.conductance", "W/K", 2.5),
    ] {
        assert!(var(n).kind.is_parameter(), "{n}");
        assert_eq!(var(n).unit.as_deref(), Some(unit), "{n}");
        assert_eq!(var(n).start, Some(start), "{n}");
    }
    let (p, cases) = (0.3 * 250.0 * 0.4, [(2.5, 120.0, 293.15, 293.15), (7.5, 60.0, 300.0, 280.0)]);
    for (g, c, t0, ta) in cases {
        let f = instantiate("thermal", HEATED);
        for (n, x) in [("pad-air.conductance", g), ("pad.capacity", c), ("pad.T0", t0), ("air.fixed", ta)] {
            assert_eq!(set(&f, var(n).vr, x), fmi2OK, "{n}");
        }
        start(&f);
        let mut worst = 0.0f64;
        for k in 0..10 {
            assert_eq!(step(&f, k as f64 * 10.0, 10.0), fmi2OK);
            let t = (k + 1) as f64 * 10.0;
            // T(t) = Ta + (T0 - Ta) e^(-G t / C) + (P/G) (1 - e^(-G t / C))
            let e = (-g * t / c).exp();
            let exact = ta + (t0 - ta) * e + (p / g) * (1.0 - e);
            worst = worst.max((get(&f, var("T.pad").vr) - exact).abs() / (exact - ta).abs());
        }
        assert!(worst < 1e-9, "G = {g}: temperature off by {worst:.3e} relative");
    }
    let mut inst = Instance::from_text("t", HEATED, "heated.toml", PathBuf::from(".")).unwrap();
    let e = inst.set_real(&[var("pad-air.conductance").vr], &[-1.0]).unwrap_err();
    assert!(e.0.contains("conductance") && e.0.contains("-1") && e.0.contains("[0, inf)"), "{e}");
}
