//! Instantiation, the life cycle, getting and setting Float64 variables,
//! and the step.
//!
//! The safety contract of every `unsafe` function here is the parent
//! module's ([`super`]).

use std::ffi::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use crate::fmi2::{slice, slice_mut, string};
use crate::instance::{FmiError, Instance, State, LOG_CATEGORIES};

use super::component::*;
use super::types::*;

/// `const char* fmi3GetVersion(void)`: `"3.0"`.
#[no_mangle]
pub extern "C" fn fmi3GetVersion() -> *const c_char {
    c"3.0".as_ptr()
}

/// `fmi3InstantiateCoSimulation`: reads `scenario.toml` from the
/// `resourcePath` directory and checks the instantiation token; NULL (with
/// a logged message) on any error, or when event mode, early return or
/// intermediate variables are asked for.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3InstantiateCoSimulation(
    instanceName: fmi3String,
    instantiationToken: fmi3String,
    resourcePath: fmi3String,
    _visible: fmi3Boolean,
    loggingOn: fmi3Boolean,
    eventModeUsed: fmi3Boolean,
    earlyReturnAllowed: fmi3Boolean,
    _requiredIntermediateVariables: *const fmi3ValueReference,
    nRequiredIntermediateVariables: usize,
    instanceEnvironment: fmi3InstanceEnvironment,
    logMessage: fmi3LogMessageCallback,
    _intermediateUpdate: fmi3IntermediateUpdateCallback,
) -> fmi3Instance {
    let r = catch_unwind(AssertUnwindSafe(|| {
        let name = unsafe { string(instanceName) }.unwrap_or_default();
        let fail = |m: String| {
            let msg = format!("{name}: fmi3InstantiateCoSimulation: {m}");
            log_to(logMessage, instanceEnvironment, fmi3Error, "logStatusError", &msg);
            std::ptr::null_mut()
        };
        if eventModeUsed {
            return fail("eventModeUsed = true is not supported (hasEventMode = false)".into());
        }
        if earlyReturnAllowed {
            // allowed: the FMU simply never returns early
        }
        if nRequiredIntermediateVariables != 0 {
            return fail(format!(
                "nRequiredIntermediateVariables = {nRequiredIntermediateVariables}: intermediate updates are \
                 not supported (providesIntermediateUpdate = false), valid: 0"
            ));
        }
        let Some(token) = (unsafe { string(instantiationToken) }) else {
            return fail("instantiationToken is NULL".into());
        };
        let Some(dir) = (unsafe { string(resourcePath) }) else {
            return fail("resourcePath is NULL".into());
        };
        match Instance::new(&name, &token, PathBuf::from(dir)) {
            Ok(inst) => {
                let comp =
                    Component { inst, logger: logMessage, env: instanceEnvironment, logging_on: loggingOn };
                Box::into_raw(Box::new(comp)) as fmi3Instance
            }
            Err(e) => fail(fmi3_names(&e.0).replace("GUID", "instantiation token")),
        }
    }));
    r.unwrap_or(std::ptr::null_mut())
}

/// Instantiation of an interface type this FMU does not have: NULL, with a
/// logged message.
fn refuse_instantiation(
    call: &str,
    env: fmi3InstanceEnvironment,
    logger: fmi3LogMessageCallback,
) -> fmi3Instance {
    let msg = format!("{call}: this FMU is Co-Simulation only; use fmi3InstantiateCoSimulation");
    let _ = catch_unwind(AssertUnwindSafe(|| log_to(logger, env, fmi3Error, "logStatusError", &msg)));
    std::ptr::null_mut()
}

/// `fmi3InstantiateModelExchange`: NULL (Co-Simulation only).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3InstantiateModelExchange(
    _instanceName: fmi3String,
    _instantiationToken: fmi3String,
    _resourcePath: fmi3String,
    _visible: fmi3Boolean,
    _loggingOn: fmi3Boolean,
    instanceEnvironment: fmi3InstanceEnvironment,
    logMessage: fmi3LogMessageCallback,
) -> fmi3Instance {
    refuse_instantiation("fmi3InstantiateModelExchange", instanceEnvironment, logMessage)
}

/// `fmi3InstantiateScheduledExecution`: NULL (Co-Simulation only). The
/// clock callbacks are declared as plain pointers (never called).
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3InstantiateScheduledExecution(
    _instanceName: fmi3String,
    _instantiationToken: fmi3String,
    _resourcePath: fmi3String,
    _visible: fmi3Boolean,
    _loggingOn: fmi3Boolean,
    instanceEnvironment: fmi3InstanceEnvironment,
    logMessage: fmi3LogMessageCallback,
    _clockUpdate: *const c_void,
    _lockPreemption: *const c_void,
    _unlockPreemption: *const c_void,
) -> fmi3Instance {
    refuse_instantiation("fmi3InstantiateScheduledExecution", instanceEnvironment, logMessage)
}

/// `fmi3FreeInstance`: ends the simulation and frees the instance.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3FreeInstance(instance: fmi3Instance) {
    if instance.is_null() {
        return;
    }
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: from fmi3InstantiateCoSimulation, freed once (module doc)
        drop(unsafe { Box::from_raw(instance as *mut Component) });
    }));
}

/// `fmi3SetDebugLogging`: switches the informational messages; the
/// categories must be among those of `modelDescription.xml`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3SetDebugLogging(
    instance: fmi3Instance,
    loggingOn: fmi3Boolean,
    nCategories: usize,
    categories: *const fmi3String,
) -> fmi3Status {
    unsafe {
        call(instance, |comp| {
            for &p in slice(categories, nCategories, "fmi3SetDebugLogging: categories")? {
                let s = string(p).unwrap_or_default();
                if !LOG_CATEGORIES.iter().any(|(n, _)| *n == s) {
                    let known: Vec<&str> = LOG_CATEGORIES.iter().map(|(n, _)| *n).collect();
                    return Err(FmiError(format!(
                        "fmi3SetDebugLogging: unknown category \"{s}\"; valid: {}",
                        known.join(", ")
                    )));
                }
            }
            comp.logging_on = loggingOn;
            Ok(())
        })
    }
}

/// `fmi3EnterInitializationMode`: the experiment (start time 0; a stop time
/// replaces the scenario's `t_end`, a tolerance its `rtol`), then
/// initialization mode.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3EnterInitializationMode(
    instance: fmi3Instance,
    toleranceDefined: fmi3Boolean,
    tolerance: fmi3Float64,
    startTime: fmi3Float64,
    stopTimeDefined: fmi3Boolean,
    stopTime: fmi3Float64,
) -> fmi3Status {
    unsafe {
        call(instance, |comp| {
            comp.inst.setup_experiment(
                toleranceDefined.then_some(tolerance),
                startTime,
                stopTimeDefined.then_some(stopTime),
            )?;
            comp.inst.enter_initialization()
        })
    }
}

/// `fmi3ExitInitializationMode`: the simulation starts; the instance is in
/// step mode.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3ExitInitializationMode(instance: fmi3Instance) -> fmi3Status {
    unsafe { call(instance, |comp| comp.inst.exit_initialization()) }
}

/// `fmi3Terminate`: the outputs of the last communication point stay readable.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3Terminate(instance: fmi3Instance) -> fmi3Status {
    unsafe { call(instance, |comp| comp.inst.terminate()) }
}

/// `fmi3Reset`: back to the state after instantiation, start values restored.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3Reset(instance: fmi3Instance) -> fmi3Status {
    unsafe {
        call(instance, |comp| {
            comp.inst.reset();
            Ok(())
        })
    }
}

fn scalars(call: &str, nvr: usize, n_values: usize) -> Result<(), FmiError> {
    if nvr != n_values {
        return Err(FmiError(format!(
            "{call}: nValues = {n_values} differs from nValueReferences = {nvr}; every variable is a scalar"
        )));
    }
    Ok(())
}

/// `fmi3GetFloat64`: outputs, inputs, parameters, and `time`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3GetFloat64(
    instance: fmi3Instance,
    valueReferences: *const fmi3ValueReference,
    nValueReferences: usize,
    values: *mut fmi3Float64,
    nValues: usize,
) -> fmi3Status {
    unsafe {
        call(instance, |comp| {
            scalars("fmi3GetFloat64", nValueReferences, nValues)?;
            let vrs = slice(valueReferences, nValueReferences, "fmi3GetFloat64: valueReferences")?;
            let out = slice_mut(values, nValues, "fmi3GetFloat64: values")?;
            let time_vr = comp.inst.variables().len() as u32;
            for (k, &vr) in vrs.iter().enumerate() {
                if vr == time_vr {
                    if comp.inst.state == State::Instantiated {
                        return Err(FmiError(
                            "fmi3GetFloat64 is not allowed in state Instantiated; it is allowed from \
                             initialization mode on"
                                .into(),
                        ));
                    }
                    out[k] = comp.inst.time();
                } else {
                    comp.inst.get_real(&[vr], &mut out[k..k + 1])?;
                }
            }
            Ok(())
        })
    }
}

/// `fmi3SetFloat64`: inputs at any time before termination, parameters
/// before the end of initialization.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3SetFloat64(
    instance: fmi3Instance,
    valueReferences: *const fmi3ValueReference,
    nValueReferences: usize,
    values: *const fmi3Float64,
    nValues: usize,
) -> fmi3Status {
    unsafe {
        call(instance, |comp| {
            scalars("fmi3SetFloat64", nValueReferences, nValues)?;
            let vrs = slice(valueReferences, nValueReferences, "fmi3SetFloat64: valueReferences")?;
            let vals = slice(values, nValues, "fmi3SetFloat64: values")?;
            let time_vr = comp.inst.variables().len() as u32;
            if vrs.contains(&time_vr) {
                return Err(FmiError(format!(
                    "fmi3SetFloat64: \"time\" (value reference {time_vr}) is the independent variable; \
                     only inputs and parameters can be set"
                )));
            }
            comp.inst.set_real(vrs, vals)
        })
    }
}

/// `fmi3DoStep`: integrates from `currentCommunicationPoint` (the FMU's
/// time) over `communicationStepSize` with the inputs held. Never asks for
/// event handling or termination, never returns early.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3DoStep(
    instance: fmi3Instance,
    currentCommunicationPoint: fmi3Float64,
    communicationStepSize: fmi3Float64,
    _noSetFMUStatePriorToCurrentPoint: fmi3Boolean,
    eventHandlingNeeded: *mut fmi3Boolean,
    terminateSimulation: *mut fmi3Boolean,
    earlyReturn: *mut fmi3Boolean,
    lastSuccessfulTime: *mut fmi3Float64,
) -> fmi3Status {
    unsafe {
        call(instance, |comp| {
            let r = comp.inst.do_step(currentCommunicationPoint, communicationStepSize);
            for p in [eventHandlingNeeded, terminateSimulation, earlyReturn] {
                if let Some(b) = p.as_mut() {
                    *b = false;
                }
            }
            if let Some(t) = lastSuccessfulTime.as_mut() {
                *t = comp.inst.time();
            }
            r
        })
    }
}
