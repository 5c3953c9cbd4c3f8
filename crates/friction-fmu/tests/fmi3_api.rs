//! The FMI 3.0 functions called directly, as a master would: the contact
//! FMU of `examples/fmu_contact_lugre.toml` gives the same outputs through
//! FMI 3.0 as through FMI 2.0, bit for bit; FMU states round trip; misuse
//! is refused with fmi3Error.

use std::ffi::CString;
use std::path::PathBuf;

use friction_fmu::description::guid;
use friction_fmu::fmi2::*;
use friction_fmu::fmi3::*;
use friction_fmu::instance::Instance;
use friction_fmu::variables::Kind;

const CONTACT: &str = include_str!("../../../examples/fmu_contact_lugre.toml");

fn unpacked(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("friction-fmu3-api-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("resources")).unwrap();
    std::fs::write(d.join("resources/scenario.toml"), CONTACT).unwrap();
    d
}

struct Fmu3 {
    c: fmi3Instance,
    dir: PathBuf,
}

impl Drop for Fmu3 {
    fn drop(&mut self) {
        unsafe { fmi3FreeInstance(self.c) };
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn instantiate3(tag: &str, token: &str) -> Fmu3 {
    let dir = unpacked(tag);
    let res = CString::new(format!("{}/", dir.join("resources").display())).unwrap();
    let name = CString::new(tag).unwrap();
    let tok = CString::new(token).unwrap();
    let c = unsafe {
        fmi3InstantiateCoSimulation(
            name.as_ptr(),
            tok.as_ptr(),
            res.as_ptr(),
            false,
            false,
            false,
            false,
            std::ptr::null(),
            0,
            std::ptr::null_mut(),
            None,
            None,
        )
    };
    Fmu3 { c, dir }
}

fn vars() -> Vec<(u32, Kind, String)> {
    let inst = Instance::from_text("t", CONTACT, "contact.toml", PathBuf::from(".")).unwrap();
    inst.variables().iter().map(|v| (v.vr, v.kind.clone(), v.name.clone())).collect()
}

fn vr_of(name: &str) -> u32 {
    vars().into_iter().find(|v| v.2 == name).unwrap().0
}

fn outputs() -> Vec<u32> {
    vars().into_iter().filter(|v| matches!(v.1, Kind::Output(_))).map(|v| v.0).collect()
}

fn get3(f: &Fmu3, vrs: &[u32]) -> Vec<u64> {
    let mut x = vec![f64::NAN; vrs.len()];
    assert_eq!(unsafe { fmi3GetFloat64(f.c, vrs.as_ptr(), vrs.len(), x.as_mut_ptr(), x.len()) }, fmi3OK);
    x.iter().map(|v| v.to_bits()).collect()
}

fn set3(f: &Fmu3, vr: u32, x: f64) -> fmi3Status {
    unsafe { fmi3SetFloat64(f.c, &vr, 1, &x, 1) }
}

fn step3(f: &Fmu3, t: f64, h: f64) -> (fmi3Status, f64) {
    let (mut ev, mut term, mut early, mut last) = (true, true, true, f64::NAN);
    let s = unsafe { fmi3DoStep(f.c, t, h, false, &mut ev, &mut term, &mut early, &mut last) };
    if s == fmi3OK {
        assert!(!ev && !term && !early);
    }
    (s, last)
}

fn start3(f: &Fmu3) {
    unsafe {
        assert_eq!(fmi3EnterInitializationMode(f.c, false, 0.0, 0.0, false, 0.0), fmi3OK);
        assert_eq!(fmi3ExitInitializationMode(f.c), fmi3OK);
    }
}

/// The slip velocity of step `k` (reversing): a path with stick and slip.
fn slip(k: usize) -> f64 {
    0.012 * (0.45 * k as f64).sin()
}

fn run3(f: &Fmu3, t0: f64, k0: usize, n: usize) -> Vec<Vec<u64>> {
    let (outs, u) = (outputs(), vr_of("v_slip"));
    let mut t = t0;
    (k0..k0 + n)
        .map(|k| {
            assert_eq!(set3(f, u, slip(k)), fmi3OK);
            let (s, last) = step3(f, t, 0.05);
            assert_eq!(s, fmi3OK);
            t += 0.05;
            assert!((last - t).abs() < 1e-12, "{last} {t}");
            get3(f, &outs)
        })
        .collect()
}

/// The same path through the FMI 2.0 functions of the same library.
fn run2(n: usize) -> Vec<Vec<u64>> {
    let dir = unpacked("fmi2-ref");
    let uri = CString::new(format!("file://{}", dir.join("resources").display())).unwrap();
    let name = CString::new("ref").unwrap();
    let g = CString::new(guid(CONTACT)).unwrap();
    let cb = fmi2CallbackFunctions {
        logger: None,
        allocateMemory: None,
        freeMemory: None,
        stepFinished: None,
        componentEnvironment: std::ptr::null_mut(),
    };
    let (outs, u) = (outputs(), vr_of("v_slip"));
    let mut rows = Vec::new();
    unsafe {
        let c = fmi2Instantiate(name.as_ptr(), fmi2CoSimulation, g.as_ptr(), uri.as_ptr(), &cb, 0, 0);
        assert!(!c.is_null());
        assert_eq!(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), fmi2OK);
        assert_eq!(fmi2EnterInitializationMode(c), fmi2OK);
        assert_eq!(fmi2ExitInitializationMode(c), fmi2OK);
        let mut t = 0.0;
        for k in 0..n {
            assert_eq!(fmi2SetReal(c, &u, 1, &slip(k)), fmi2OK);
            assert_eq!(fmi2DoStep(c, t, 0.05, 1), fmi2OK);
            t += 0.05;
            let mut x = vec![f64::NAN; outs.len()];
            assert_eq!(fmi2GetReal(c, outs.as_ptr(), outs.len(), x.as_mut_ptr()), fmi2OK);
            rows.push(x.iter().map(|v| v.to_bits()).collect());
        }
        fmi2FreeInstance(c);
    }
    let _ = std::fs::remove_dir_all(dir);
    rows
}

#[test]
fn fmi3_gives_the_fmi2_outputs_bit_for_bit() {
    let f = instantiate3("same", &guid(CONTACT));
    assert!(!f.c.is_null());
    start3(&f);
    let three = run3(&f, 0.0, 0, 40);
    assert_eq!(three, run2(40));
    // the slider moved back and forth: the comparison is not of constants
    let x = outputs().iter().position(|&vr| vr == vr_of("x.slider")).unwrap();
    let xs: Vec<f64> = three.iter().map(|r| f64::from_bits(r[x])).collect();
    assert!(xs.iter().cloned().fold(f64::MIN, f64::max) > 1e-3 && xs.iter().any(|&v| v < 1e-3));
    // `time`, the independent variable, is the FMU's time
    let time_vr = vars().len() as u32;
    assert!((f64::from_bits(get3(&f, &[time_vr])[0]) - 2.0).abs() < 1e-12);
    assert_eq!(set3(&f, time_vr, 1.0), fmi3Error);
}

/// The rollback of FMI 3.0 masters: a state saved at t = 0.5, restored after
/// the run went on, and serialised into a fresh instance, continues bit for
/// bit as the first continuation.
#[test]
fn fmi3_state_round_trips_bit_for_bit() {
    let f = instantiate3("state", &guid(CONTACT));
    start3(&f);
    run3(&f, 0.0, 0, 10);
    let mut s: fmi3FMUState = std::ptr::null_mut();
    assert_eq!(unsafe { fmi3GetFMUState(f.c, &mut s) }, fmi3OK);
    let first = run3(&f, 0.5, 10, 15);
    assert_eq!(unsafe { fmi3SetFMUState(f.c, s) }, fmi3OK);
    assert_eq!(run3(&f, 0.5, 10, 15), first);

    let mut size = 0;
    assert_eq!(unsafe { fmi3SerializedFMUStateSize(f.c, s, &mut size) }, fmi3OK);
    let mut bytes = vec![0u8; size];
    assert_eq!(unsafe { fmi3SerializeFMUState(f.c, s, bytes.as_mut_ptr(), size) }, fmi3OK);
    let g = instantiate3("state-fresh", &guid(CONTACT));
    let mut s2: fmi3FMUState = std::ptr::null_mut();
    assert_eq!(unsafe { fmi3DeserializeFMUState(g.c, bytes.as_ptr(), size, &mut s2) }, fmi3OK);
    assert_eq!(unsafe { fmi3SetFMUState(g.c, s2) }, fmi3OK);
    assert_eq!(run3(&g, 0.5, 10, 15), first);
    // a corrupted state is refused
    let mut s3: fmi3FMUState = std::ptr::null_mut();
    assert_eq!(unsafe { fmi3DeserializeFMUState(g.c, bytes.as_ptr(), size - 3, &mut s3) }, fmi3Error);
    assert!(s3.is_null());
    unsafe {
        assert_eq!(fmi3FreeFMUState(g.c, &mut s2), fmi3OK);
        assert_eq!(fmi3FreeFMUState(f.c, &mut s), fmi3OK);
    }
    assert!(s.is_null() && s2.is_null());
}

#[test]
fn fmi3_misuse_returns_fmi3error() {
    assert!(instantiate3("token", "{00000000-0000-0000-0000-000000000000}").c.is_null());
    let f = instantiate3("misuse", &guid(CONTACT));
    let mut x = [0.0; 2];
    let vr = [vr_of("F.c"); 2];
    // no outputs before initialisation; nValues must equal nValueReferences
    assert_eq!(unsafe { fmi3GetFloat64(f.c, vr.as_ptr(), 1, x.as_mut_ptr(), 1) }, fmi3Error);
    assert_eq!(unsafe { fmi3Reset(f.c) }, fmi3OK);
    start3(&f);
    assert_eq!(unsafe { fmi3GetFloat64(f.c, vr.as_ptr(), 1, x.as_mut_ptr(), 2) }, fmi3Error);
    assert_eq!(unsafe { fmi3Reset(f.c) }, fmi3OK);
    // a start time other than 0, event mode, no Int32 variables
    assert_eq!(unsafe { fmi3EnterInitializationMode(f.c, false, 0.0, 1.0, false, 0.0) }, fmi3Error);
    assert_eq!(unsafe { fmi3Reset(f.c) }, fmi3OK);
    start3(&f);
    assert_eq!(unsafe { fmi3EnterEventMode(f.c) }, fmi3Error);
    assert_eq!(unsafe { fmi3Reset(f.c) }, fmi3OK);
    start3(&f);
    let mut i = 0i32;
    assert_eq!(unsafe { fmi3GetInt32(f.c, &0, 1, &mut i, 1) }, fmi3Error);
    assert_eq!(unsafe { fmi3Reset(f.c) }, fmi3OK);
    start3(&f);
    // a step past the stop time; then the instance still runs after a reset
    assert_eq!(step3(&f, 0.0, 5.5).0, fmi3Error);
    assert_eq!(unsafe { fmi3Reset(f.c) }, fmi3OK);
    start3(&f);
    assert_eq!(step3(&f, 0.0, 5.0).0, fmi3OK);
    let cat = CString::new("logAll").unwrap();
    assert_eq!(unsafe { fmi3SetDebugLogging(f.c, true, 1, &cat.as_ptr()) }, fmi3OK);
    let bad = CString::new("logNothing").unwrap();
    assert_eq!(unsafe { fmi3SetDebugLogging(f.c, true, 1, &bad.as_ptr()) }, fmi3Error);
    let v = unsafe { std::ffi::CStr::from_ptr(fmi3GetVersion()) };
    assert_eq!(v.to_str().unwrap(), "3.0");
}
