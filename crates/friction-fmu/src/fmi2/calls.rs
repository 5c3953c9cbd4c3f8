//! Instantiation, the life cycle, getting and setting variables, and the
//! step; the derivative functions this FMU does not support.
//!
//! The safety contract of every `unsafe` function here is the parent
//! module's ([`super`]).

use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::instance::{FmiError, Instance, State, LOG_CATEGORIES};

use super::component::*;
use super::types::*;

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
