//! The FMI 2.0 Co-Simulation C functions (`fmi2Functions.h`), exported
//! unmangled from the shared library.
//!
//! Types as in `fmi2TypesPlatform.h` ("default" platform): `fmi2Component`
//! is `void *`, `fmi2ValueReference` `unsigned int`, `fmi2Real` `double`,
//! `fmi2Integer` and `fmi2Boolean` `int`, `fmi2String` `const char *`,
//! `fmi2Status` an `int` enum. Every function catches panics (none crosses
//! the boundary), refuses null pointers, and reports failure as `fmi2Error`
//! with a message through the master's `fmi2CallbackLogger`. FMU states
//! are got, set, freed and serialised ([`crate::state`]). The
//! directional-derivative, input-derivative and asynchronous functions
//! return `fmi2Error`: the capability flags in `modelDescription.xml` say
//! they are not supported.
//!
//! # Safety
//!
//! Every `unsafe` function here expects what the FMI standard guarantees:
//! `c` is a component returned by [`fmi2Instantiate`] and not yet freed,
//! used from one thread at a time; every array argument holds at least the
//! number of elements its count argument says; strings are NUL-terminated.

#![allow(non_snake_case, non_camel_case_types, non_upper_case_globals)]

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use crate::instance::{FmiError, Instance, State, LOG_CATEGORIES};
use crate::state::Snapshot;

/// `fmi2Component`.
pub type fmi2Component = *mut c_void;
/// `fmi2ComponentEnvironment`.
pub type fmi2ComponentEnvironment = *mut c_void;
/// `fmi2FMUstate`.
pub type fmi2FMUstate = *mut c_void;
/// `fmi2ValueReference`.
pub type fmi2ValueReference = c_uint;
/// `fmi2Real`.
pub type fmi2Real = f64;
/// `fmi2Integer`.
pub type fmi2Integer = c_int;
/// `fmi2Boolean` (`fmi2True` = 1, `fmi2False` = 0).
pub type fmi2Boolean = c_int;
/// `fmi2String`.
pub type fmi2String = *const c_char;
/// `fmi2Byte`.
pub type fmi2Byte = c_char;
/// `fmi2Status`: `fmi2OK` .. `fmi2Pending`.
pub type fmi2Status = c_int;
/// `fmi2OK`.
pub const fmi2OK: fmi2Status = 0;
/// `fmi2Warning`.
pub const fmi2Warning: fmi2Status = 1;
/// `fmi2Discard`.
pub const fmi2Discard: fmi2Status = 2;
/// `fmi2Error`.
pub const fmi2Error: fmi2Status = 3;
/// `fmi2Fatal`.
pub const fmi2Fatal: fmi2Status = 4;
/// `fmi2Type`: `fmi2ModelExchange` = 0, `fmi2CoSimulation` = 1.
pub type fmi2Type = c_int;
/// `fmi2CoSimulation`.
pub const fmi2CoSimulation: fmi2Type = 1;
/// `fmi2StatusKind`: `fmi2DoStepStatus` = 0, `fmi2PendingStatus`,
/// `fmi2LastSuccessfulTime`, `fmi2Terminated`.
pub type fmi2StatusKind = c_int;

/// `fmi2CallbackLogger` (C-variadic: the message is a printf format).
pub type fmi2CallbackLogger = Option<
    unsafe extern "C" fn(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String, fmi2String, ...),
>;

/// `fmi2CallbackFunctions`.
#[repr(C)]
pub struct fmi2CallbackFunctions {
    /// `logger`.
    pub logger: fmi2CallbackLogger,
    /// `allocateMemory` (not used: `canNotUseMemoryManagementFunctions`).
    pub allocateMemory: Option<unsafe extern "C" fn(usize, usize) -> *mut c_void>,
    /// `freeMemory` (not used).
    pub freeMemory: Option<unsafe extern "C" fn(*mut c_void)>,
    /// `stepFinished` (not used: no asynchronous steps).
    pub stepFinished: Option<unsafe extern "C" fn(fmi2ComponentEnvironment, fmi2Status)>,
    /// `componentEnvironment`, handed back to the logger.
    pub componentEnvironment: fmi2ComponentEnvironment,
}

/// An instance with the master's logger.
struct Component {
    inst: Instance,
    logger: fmi2CallbackLogger,
    env: fmi2ComponentEnvironment,
    logging_on: bool,
}

fn log_to(
    logger: fmi2CallbackLogger,
    env: fmi2ComponentEnvironment,
    name: &str,
    status: fmi2Status,
    cat: &str,
    msg: &str,
) {
    let Some(logger) = logger else { return };
    // the message is a printf format: escape '%'
    let clean = |s: &str| CString::new(s.replace('\0', " ")).unwrap_or_default();
    let (n, c, m) = (clean(name), clean(cat), clean(&msg.replace('%', "%%")));
    // SAFETY: the master's logger, called with NUL-terminated strings and no
    // variadic arguments (the message has no conversions left)
    unsafe { logger(env, n.as_ptr(), status, c.as_ptr(), m.as_ptr()) };
}

impl Component {
    fn log(&self, status: fmi2Status, cat: &str, msg: &str) {
        if status >= fmi2Error || self.logging_on {
            log_to(self.logger, self.env, &self.inst.name, status, cat, msg);
        }
    }
}

/// Run `f` on the component behind `c`: errors and panics become a logged
/// `fmi2Error`.
unsafe fn call(c: fmi2Component, f: impl FnOnce(&mut Component) -> Result<(), FmiError>) -> fmi2Status {
    if c.is_null() {
        return fmi2Error;
    }
    // SAFETY: a component from fmi2Instantiate (module doc)
    let comp = unsafe { &mut *(c as *mut Component) };
    match catch_unwind(AssertUnwindSafe(|| f(comp))) {
        Ok(Ok(())) => fmi2OK,
        Ok(Err(e)) => {
            comp.inst.set_error();
            comp.log(fmi2Error, "logStatusError", &e.0);
            fmi2Error
        }
        Err(p) => {
            comp.inst.set_error();
            comp.log(
                fmi2Error,
                "logStatusError",
                &format!("internal error (please report): {}", friction_models::error::panic_message(&*p)),
            );
            fmi2Error
        }
    }
}

/// A slice from a C array; `n == 0` gives an empty slice whatever the pointer.
pub(crate) unsafe fn slice<'a, T>(p: *const T, n: usize, what: &str) -> Result<&'a [T], FmiError> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(FmiError(format!("{what} is NULL with {n} elements")));
    }
    // SAFETY: the caller passes n elements (module doc)
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

pub(crate) unsafe fn slice_mut<'a, T>(p: *mut T, n: usize, what: &str) -> Result<&'a mut [T], FmiError> {
    if n == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(FmiError(format!("{what} is NULL with {n} elements")));
    }
    // SAFETY: the caller passes n elements (module doc)
    Ok(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

pub(crate) unsafe fn string(p: fmi2String) -> Option<String> {
    // SAFETY: NUL-terminated (module doc)
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// The directory of a `file:` URI (`file:///a/b`, `file://localhost/a/b`,
/// `file:/a/b`), percent-decoded.
pub fn uri_to_path(uri: &str) -> Result<PathBuf, String> {
    let rest = uri
        .strip_prefix("file://localhost/")
        .map(|r| format!("/{r}"))
        .or_else(|| uri.strip_prefix("file:///").map(|r| format!("/{r}")))
        .or_else(|| uri.strip_prefix("file:/").filter(|r| !r.starts_with('/')).map(|r| format!("/{r}")))
        .ok_or_else(|| {
            format!("fmuResourceLocation \"{uri}\" is not a local file URI (file:///path/to/resources)")
        })?;
    let decoded = percent_encoding::percent_decode_str(&rest)
        .decode_utf8()
        .map_err(|e| format!("fmuResourceLocation \"{uri}\": {e}"))?;
    Ok(PathBuf::from(decoded.as_ref()))
}

/// `const char* fmi2GetTypesPlatform(void)`: `"default"`.
#[no_mangle]
pub extern "C" fn fmi2GetTypesPlatform() -> *const c_char {
    c"default".as_ptr()
}

/// `const char* fmi2GetVersion(void)`: `"2.0"`.
#[no_mangle]
pub extern "C" fn fmi2GetVersion() -> *const c_char {
    c"2.0".as_ptr()
}

/// `fmi2Instantiate`: reads `resources/scenario.toml` from
/// `fmuResourceLocation` and checks the GUID; NULL (with a logged message)
/// on any error.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2Instantiate(
    instanceName: fmi2String,
    fmuType: fmi2Type,
    fmuGUID: fmi2String,
    fmuResourceLocation: fmi2String,
    functions: *const fmi2CallbackFunctions,
    _visible: fmi2Boolean,
    loggingOn: fmi2Boolean,
) -> fmi2Component {
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: module doc
        let (logger, env) = match unsafe { functions.as_ref() } {
            Some(f) => (f.logger, f.componentEnvironment),
            None => (None, std::ptr::null_mut()),
        };
        let name = unsafe { string(instanceName) }.unwrap_or_default();
        let fail = |m: String| {
            log_to(logger, env, &name, fmi2Error, "logStatusError", &format!("fmi2Instantiate: {m}"));
            std::ptr::null_mut()
        };
        if fmuType != fmi2CoSimulation {
            return fail(format!(
                "fmuType = {fmuType} is not supported; this FMU is Co-Simulation only (fmi2CoSimulation = 1)"
            ));
        }
        let Some(guid) = (unsafe { string(fmuGUID) }) else { return fail("fmuGUID is NULL".into()) };
        let Some(loc) = (unsafe { string(fmuResourceLocation) }) else {
            return fail("fmuResourceLocation is NULL".into());
        };
        let dir = match uri_to_path(&loc) {
            Ok(d) => d,
            Err(e) => return fail(e),
        };
        match Instance::new(&name, &guid, dir) {
            Ok(inst) => {
                let comp = Component { inst, logger, env, logging_on: loggingOn != 0 };
                Box::into_raw(Box::new(comp)) as fmi2Component
            }
            Err(e) => fail(e.0),
        }
    }));
    r.unwrap_or(std::ptr::null_mut())
}

/// `fmi2FreeInstance`: ends the simulation and frees the instance.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2FreeInstance(c: fmi2Component) {
    if c.is_null() {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: from fmi2Instantiate, freed once (module doc)
        drop(unsafe { Box::from_raw(c as *mut Component) });
    }));
}

/// `fmi2SetDebugLogging`: switches the informational messages; the
/// categories must be among those of `modelDescription.xml`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2SetDebugLogging(
    c: fmi2Component,
    loggingOn: fmi2Boolean,
    nCategories: usize,
    categories: *const fmi2String,
) -> fmi2Status {
    unsafe {
        call(c, |comp| {
            let cats = slice(categories, nCategories, "categories")?;
            for &p in cats {
                let s = string(p).unwrap_or_default();
                if !LOG_CATEGORIES.iter().any(|(n, _)| *n == s) {
                    let known: Vec<&str> = LOG_CATEGORIES.iter().map(|(n, _)| *n).collect();
                    return Err(FmiError(format!(
                        "fmi2SetDebugLogging: unknown category \"{s}\"; valid: {}",
                        known.join(", ")
                    )));
                }
            }
            comp.logging_on = loggingOn != 0;
            Ok(())
        })
    }
}

/// `fmi2SetupExperiment`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2SetupExperiment(
    c: fmi2Component,
    toleranceDefined: fmi2Boolean,
    tolerance: fmi2Real,
    startTime: fmi2Real,
    stopTimeDefined: fmi2Boolean,
    stopTime: fmi2Real,
) -> fmi2Status {
    unsafe {
        call(c, |comp| {
            comp.inst.setup_experiment(
                (toleranceDefined != 0).then_some(tolerance),
                startTime,
                (stopTimeDefined != 0).then_some(stopTime),
            )
        })
    }
}

/// `fmi2EnterInitializationMode`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2EnterInitializationMode(c: fmi2Component) -> fmi2Status {
    unsafe { call(c, |comp| comp.inst.enter_initialization()) }
}

/// `fmi2ExitInitializationMode`: the simulation starts.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2ExitInitializationMode(c: fmi2Component) -> fmi2Status {
    unsafe { call(c, |comp| comp.inst.exit_initialization()) }
}

/// `fmi2Terminate`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2Terminate(c: fmi2Component) -> fmi2Status {
    unsafe { call(c, |comp| comp.inst.terminate()) }
}

/// `fmi2Reset`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2Reset(c: fmi2Component) -> fmi2Status {
    unsafe {
        call(c, |comp| {
            comp.inst.reset();
            Ok(())
        })
    }
}

/// `fmi2GetReal`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetReal(
    c: fmi2Component,
    vr: *const fmi2ValueReference,
    nvr: usize,
    value: *mut fmi2Real,
) -> fmi2Status {
    unsafe {
        call(c, |comp| {
            let vr = slice(vr, nvr, "fmi2GetReal: vr")?;
            let out = slice_mut(value, nvr, "fmi2GetReal: value")?;
            comp.inst.get_real(vr, out)
        })
    }
}

/// `fmi2SetReal`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2SetReal(
    c: fmi2Component,
    vr: *const fmi2ValueReference,
    nvr: usize,
    value: *const fmi2Real,
) -> fmi2Status {
    unsafe {
        call(c, |comp| {
            let vr = slice(vr, nvr, "fmi2SetReal: vr")?;
            let vals = slice(value, nvr, "fmi2SetReal: value")?;
            comp.inst.set_real(vr, vals)
        })
    }
}

/// The FMU has only Real variables: any value reference of another type is unknown.
unsafe fn no_such(
    c: fmi2Component,
    call_name: &str,
    vr: *const fmi2ValueReference,
    nvr: usize,
) -> fmi2Status {
    unsafe {
        call(c, |comp| {
            let vr = slice(vr, nvr, call_name)?;
            if comp.inst.state == State::Error {
                return Err(FmiError(format!("{call_name}: the instance is in the error state")));
            }
            match vr.first() {
                None => Ok(()),
                Some(v) => Err(FmiError(format!(
                    "{call_name}: unknown value reference {v}; this FMU has Real variables only"
                ))),
            }
        })
    }
}

/// `fmi2GetInteger` (no Integer variables: only `nvr = 0` succeeds).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetInteger(
    c: fmi2Component,
    vr: *const fmi2ValueReference,
    nvr: usize,
    _value: *mut fmi2Integer,
) -> fmi2Status {
    unsafe { no_such(c, "fmi2GetInteger", vr, nvr) }
}

/// `fmi2GetBoolean` (no Boolean variables).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetBoolean(
    c: fmi2Component,
    vr: *const fmi2ValueReference,
    nvr: usize,
    _value: *mut fmi2Boolean,
) -> fmi2Status {
    unsafe { no_such(c, "fmi2GetBoolean", vr, nvr) }
}

/// `fmi2GetString` (no String variables).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetString(
    c: fmi2Component,
    vr: *const fmi2ValueReference,
    nvr: usize,
    _value: *mut fmi2String,
) -> fmi2Status {
    unsafe { no_such(c, "fmi2GetString", vr, nvr) }
}

/// `fmi2SetInteger` (no Integer variables).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2SetInteger(
    c: fmi2Component,
    vr: *const fmi2ValueReference,
    nvr: usize,
    _value: *const fmi2Integer,
) -> fmi2Status {
    unsafe { no_such(c, "fmi2SetInteger", vr, nvr) }
}

/// `fmi2SetBoolean` (no Boolean variables).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2SetBoolean(
    c: fmi2Component,
    vr: *const fmi2ValueReference,
    nvr: usize,
    _value: *const fmi2Boolean,
) -> fmi2Status {
    unsafe { no_such(c, "fmi2SetBoolean", vr, nvr) }
}

/// `fmi2SetString` (no String variables).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2SetString(
    c: fmi2Component,
    vr: *const fmi2ValueReference,
    nvr: usize,
    _value: *const fmi2String,
) -> fmi2Status {
    unsafe { no_such(c, "fmi2SetString", vr, nvr) }
}

/// `fmi2DoStep`: integrates from `currentCommunicationPoint` (the FMU's
/// time) over `communicationStepSize` with the inputs held; the stick/slip
/// modes are decided again where the inputs changed.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2DoStep(
    c: fmi2Component,
    currentCommunicationPoint: fmi2Real,
    communicationStepSize: fmi2Real,
    _noSetFMUStatePriorToCurrentPoint: fmi2Boolean,
) -> fmi2Status {
    unsafe { call(c, |comp| comp.inst.do_step(currentCommunicationPoint, communicationStepSize)) }
}

unsafe fn unsupported(c: fmi2Component, what: &str) -> fmi2Status {
    unsafe { call(c, |_| Err(FmiError(format!("{what} is not supported by this FMU")))) }
}

/// `fmi2CancelStep`: not supported (`canRunAsynchronuously = false`).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2CancelStep(c: fmi2Component) -> fmi2Status {
    unsafe { unsupported(c, "fmi2CancelStep (canRunAsynchronuously = false)") }
}

/// `fmi2SetRealInputDerivatives`: not supported (`canInterpolateInputs = false`).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2SetRealInputDerivatives(
    c: fmi2Component,
    _vr: *const fmi2ValueReference,
    _nvr: usize,
    _order: *const fmi2Integer,
    _value: *const fmi2Real,
) -> fmi2Status {
    unsafe { unsupported(c, "fmi2SetRealInputDerivatives (canInterpolateInputs = false)") }
}

/// `fmi2GetRealOutputDerivatives`: not supported (`maxOutputDerivativeOrder = 0`).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetRealOutputDerivatives(
    c: fmi2Component,
    _vr: *const fmi2ValueReference,
    _nvr: usize,
    _order: *const fmi2Integer,
    _value: *mut fmi2Real,
) -> fmi2Status {
    unsafe { unsupported(c, "fmi2GetRealOutputDerivatives (maxOutputDerivativeOrder = 0)") }
}

/// `fmi2GetFMUstate`: a snapshot of the instance (see [`crate::state`]);
/// a non-NULL `*state` from an earlier call is overwritten.
///
/// # Safety
/// See the module doc; `*state` is NULL or a state of this library.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetFMUstate(c: fmi2Component, state: *mut fmi2FMUstate) -> fmi2Status {
    unsafe {
        call(c, |comp| {
            let p = slice_mut(state, 1, "fmi2GetFMUstate: FMUstate")?;
            let snap = comp.inst.get_state();
            if p[0].is_null() {
                p[0] = Box::into_raw(Box::new(snap)) as fmi2FMUstate;
            } else {
                // SAFETY: a state from fmi2GetFMUstate or fmi2DeSerializeFMUstate
                *(p[0] as *mut Snapshot) = snap;
            }
            Ok(())
        })
    }
}

/// The snapshot behind an FMU state pointer.
unsafe fn snapshot<'a>(state: *mut c_void, call: &str) -> Result<&'a Snapshot, FmiError> {
    if state.is_null() {
        return Err(FmiError(format!("{call}: the FMU state is NULL")));
    }
    // SAFETY: a state from this library (module doc)
    Ok(unsafe { &*(state as *const Snapshot) })
}

/// `fmi2SetFMUstate`: the instance goes back (or forward) to `state`.
///
/// # Safety
/// See the module doc; `state` is a state of this library.
#[no_mangle]
pub unsafe extern "C" fn fmi2SetFMUstate(c: fmi2Component, state: fmi2FMUstate) -> fmi2Status {
    unsafe { call(c, |comp| comp.inst.set_state(snapshot(state, "fmi2SetFMUstate")?)) }
}

/// `fmi2FreeFMUstate`: frees `*state` and sets it to NULL (a NULL `*state`
/// is a no-op).
///
/// # Safety
/// See the module doc; `*state` is NULL or a state of this library, freed once.
#[no_mangle]
pub unsafe extern "C" fn fmi2FreeFMUstate(c: fmi2Component, state: *mut fmi2FMUstate) -> fmi2Status {
    unsafe {
        call(c, |_| {
            let p = slice_mut(state, 1, "fmi2FreeFMUstate: FMUstate")?;
            if !p[0].is_null() {
                // SAFETY: from fmi2GetFMUstate or fmi2DeSerializeFMUstate
                drop(Box::from_raw(p[0] as *mut Snapshot));
                p[0] = std::ptr::null_mut();
            }
            Ok(())
        })
    }
}

/// `fmi2SerializedFMUstateSize`: the number of bytes of the serialised `state`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2SerializedFMUstateSize(
    c: fmi2Component,
    state: fmi2FMUstate,
    size: *mut usize,
) -> fmi2Status {
    unsafe {
        call(c, |comp| {
            let out = slice_mut(size, 1, "fmi2SerializedFMUstateSize: size")?;
            out[0] = snapshot(state, "fmi2SerializedFMUstateSize")?.to_bytes(comp.inst.guid()).len();
            Ok(())
        })
    }
}

/// `fmi2SerializeFMUstate`: writes the serialised `state` into `bytes`,
/// which holds `size` bytes (exactly the size from
/// [`fmi2SerializedFMUstateSize`]).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2SerializeFMUstate(
    c: fmi2Component,
    state: fmi2FMUstate,
    bytes: *mut fmi2Byte,
    size: usize,
) -> fmi2Status {
    unsafe {
        call(c, |comp| {
            let b = snapshot(state, "fmi2SerializeFMUstate")?.to_bytes(comp.inst.guid());
            if b.len() != size {
                return Err(FmiError(format!(
                    "fmi2SerializeFMUstate: size = {size}; the state takes {} bytes \
                     (fmi2SerializedFMUstateSize)",
                    b.len()
                )));
            }
            let out = slice_mut(bytes as *mut u8, size, "fmi2SerializeFMUstate: serializedState")?;
            out.copy_from_slice(&b);
            Ok(())
        })
    }
}

/// `fmi2DeSerializeFMUstate`: a new state (in `*state`) from bytes written
/// by [`fmi2SerializeFMUstate`] of an FMU of the same scenario.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2DeSerializeFMUstate(
    c: fmi2Component,
    bytes: *const fmi2Byte,
    size: usize,
    state: *mut fmi2FMUstate,
) -> fmi2Status {
    unsafe {
        call(c, |comp| {
            let b = slice(bytes as *const u8, size, "fmi2DeSerializeFMUstate: serializedState")?;
            let out = slice_mut(state, 1, "fmi2DeSerializeFMUstate: FMUstate")?;
            let snap = Snapshot::from_bytes(b, comp.inst.guid(), comp.inst.variables().len())
                .map_err(|e| FmiError(format!("fmi2DeSerializeFMUstate: {e}")))?;
            out[0] = Box::into_raw(Box::new(snap)) as fmi2FMUstate;
            Ok(())
        })
    }
}

/// `fmi2GetDirectionalDerivative`: not supported (`providesDirectionalDerivative = false`).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetDirectionalDerivative(
    c: fmi2Component,
    _unknown: *const fmi2ValueReference,
    _n_unknown: usize,
    _known: *const fmi2ValueReference,
    _n_known: usize,
    _dv_known: *const fmi2Real,
    _dv_unknown: *mut fmi2Real,
) -> fmi2Status {
    unsafe { unsupported(c, "fmi2GetDirectionalDerivative (providesDirectionalDerivative = false)") }
}

const DO_STEP_STATUS: fmi2StatusKind = 0;
const LAST_SUCCESSFUL_TIME: fmi2StatusKind = 2;
const TERMINATED: fmi2StatusKind = 3;

/// `fmi2GetStatus`: `fmi2DoStepStatus` is `fmi2OK` (steps are synchronous);
/// other kinds are not available.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetStatus(
    c: fmi2Component,
    s: fmi2StatusKind,
    value: *mut fmi2Status,
) -> fmi2Status {
    unsafe {
        call(c, |_| {
            if s != DO_STEP_STATUS {
                return Err(FmiError(format!(
                    "fmi2GetStatus: status kind {s} is not available; valid: 0 (fmi2DoStepStatus)"
                )));
            }
            let v = slice_mut(value, 1, "fmi2GetStatus: value")?;
            v[0] = fmi2OK;
            Ok(())
        })
    }
}

/// `fmi2GetRealStatus`: `fmi2LastSuccessfulTime` is the FMU's time.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetRealStatus(
    c: fmi2Component,
    s: fmi2StatusKind,
    value: *mut fmi2Real,
) -> fmi2Status {
    unsafe {
        call(c, |comp| {
            if s != LAST_SUCCESSFUL_TIME {
                return Err(FmiError(format!(
                    "fmi2GetRealStatus: status kind {s} is not available; valid: 2 (fmi2LastSuccessfulTime)"
                )));
            }
            let v = slice_mut(value, 1, "fmi2GetRealStatus: value")?;
            v[0] = comp.inst.time();
            Ok(())
        })
    }
}

/// `fmi2GetIntegerStatus`: no integer status is defined.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetIntegerStatus(
    c: fmi2Component,
    s: fmi2StatusKind,
    _value: *mut fmi2Integer,
) -> fmi2Status {
    unsafe { call(c, |_| Err(FmiError(format!("fmi2GetIntegerStatus: status kind {s} is not available")))) }
}

/// `fmi2GetBooleanStatus`: `fmi2Terminated` is false (the FMU never asks
/// to end a simulation early).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetBooleanStatus(
    c: fmi2Component,
    s: fmi2StatusKind,
    value: *mut fmi2Boolean,
) -> fmi2Status {
    unsafe {
        call(c, |_| {
            if s != TERMINATED {
                return Err(FmiError(format!(
                    "fmi2GetBooleanStatus: status kind {s} is not available; valid: 3 (fmi2Terminated)"
                )));
            }
            let v = slice_mut(value, 1, "fmi2GetBooleanStatus: value")?;
            v[0] = 0;
            Ok(())
        })
    }
}

/// `fmi2GetStringStatus`: no string status is available (no asynchronous steps).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetStringStatus(
    c: fmi2Component,
    s: fmi2StatusKind,
    _value: *mut fmi2String,
) -> fmi2Status {
    unsafe { call(c, |_| Err(FmiError(format!("fmi2GetStringStatus: status kind {s} is not available")))) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_uris_become_paths() {
        assert_eq!(uri_to_path("file:///tmp/a%20b/resources").unwrap(), PathBuf::from("/tmp/a b/resources"));
        assert_eq!(uri_to_path("file://localhost/x/r").unwrap(), PathBuf::from("/x/r"));
        assert_eq!(uri_to_path("file:/x/r").unwrap(), PathBuf::from("/x/r"));
        let e = uri_to_path("http://example.com/r").unwrap_err();
        assert!(e.contains("http://example.com/r") && e.contains("file:///"), "{e}");
    }
}
