//! The FMI 3.0 Co-Simulation C functions (`fmi3Functions.h`), exported
//! unmangled from the same shared library as the FMI 2.0 ones (the names
//! differ): an FMU exported with `friction fmu --fmi 3` packs this library
//! as `binaries/x86_64-linux/friction_fmu.so`.
//!
//! Both versions drive the same [`Instance`]; this layer converts the
//! arguments and renames the FMI 2.0 calls in the instance's messages
//! (`fmi2GetReal` becomes `fmi3GetFloat64`, `fmi2SetupExperiment`
//! `fmi3EnterInitializationMode`). Differences from FMI 2.0: the
//! experiment (tolerance, start and stop time) comes with
//! `fmi3EnterInitializationMode`; the resource location is a directory path;
//! the variables are `Float64` scalars (`nValues` equals `nValueReferences`)
//! and one more, `time` (the independent variable, value reference = the
//! number of other variables), is read-only; `fmi3DoStep` never returns
//! early nor asks for event handling. Event mode, clocks, derivatives,
//! Model Exchange and Scheduled Execution are not supported: those functions
//! return `fmi3Error` with a logged message (the capability flags of
//! `modelDescription.xml` say so), and their instantiation returns NULL.
//!
//! # Safety
//!
//! Every `unsafe` function here expects what the FMI standard guarantees:
//! `instance` is an instance returned by [`fmi3InstantiateCoSimulation`]
//! and not yet freed, used from one thread at a time; every array argument
//! holds at least the number of elements its count argument says; strings
//! are NUL-terminated; an FMU state is one of this library's.

#![allow(non_snake_case, non_camel_case_types, non_upper_case_globals)]
// the C signatures of the standard
#![allow(clippy::too_many_arguments)]

use std::ffi::{c_char, c_int, c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use crate::fmi2::{slice, slice_mut, string};
use crate::instance::{FmiError, Instance, State, LOG_CATEGORIES};
use crate::state::Snapshot;

/// `fmi3Instance`.
pub type fmi3Instance = *mut c_void;
/// `fmi3InstanceEnvironment`.
pub type fmi3InstanceEnvironment = *mut c_void;
/// `fmi3FMUState`.
pub type fmi3FMUState = *mut c_void;
/// `fmi3ValueReference`.
pub type fmi3ValueReference = u32;
/// `fmi3Float64`.
pub type fmi3Float64 = f64;
/// `fmi3Boolean` (C `bool`).
pub type fmi3Boolean = bool;
/// `fmi3String`.
pub type fmi3String = *const c_char;
/// `fmi3Byte`.
pub type fmi3Byte = u8;
/// `fmi3Status`: `fmi3OK` .. `fmi3Fatal`.
pub type fmi3Status = c_int;
/// `fmi3OK`.
pub const fmi3OK: fmi3Status = 0;
/// `fmi3Warning`.
pub const fmi3Warning: fmi3Status = 1;
/// `fmi3Discard`.
pub const fmi3Discard: fmi3Status = 2;
/// `fmi3Error`.
pub const fmi3Error: fmi3Status = 3;
/// `fmi3Fatal`.
pub const fmi3Fatal: fmi3Status = 4;

/// `fmi3LogMessageCallback`.
pub type fmi3LogMessageCallback =
    Option<unsafe extern "C" fn(fmi3InstanceEnvironment, fmi3Status, fmi3String, fmi3String)>;
/// `fmi3IntermediateUpdateCallback` (never called: no intermediate updates).
pub type fmi3IntermediateUpdateCallback = Option<
    unsafe extern "C" fn(
        fmi3InstanceEnvironment,
        fmi3Float64,
        fmi3Boolean,
        fmi3Boolean,
        fmi3Boolean,
        fmi3Boolean,
        *mut fmi3Boolean,
        *mut fmi3Float64,
    ),
>;

/// An instance with the master's logger.
struct Component {
    inst: Instance,
    logger: fmi3LogMessageCallback,
    env: fmi3InstanceEnvironment,
    logging_on: bool,
}

/// The FMI 2.0 names in the instance's messages, as FMI 3.0 calls them.
fn fmi3_names(msg: &str) -> String {
    msg.replace("fmi2GetReal", "fmi3GetFloat64")
        .replace("fmi2SetReal", "fmi3SetFloat64")
        .replace("fmi2SetupExperiment", "fmi3EnterInitializationMode")
        .replace("fmi2Instantiate", "fmi3InstantiateCoSimulation")
        .replace("fmi2SetFMUstate", "fmi3SetFMUState")
        .replace("fmi2", "fmi3")
}

fn log_to(
    logger: fmi3LogMessageCallback,
    env: fmi3InstanceEnvironment,
    status: fmi3Status,
    cat: &str,
    msg: &str,
) {
    let Some(logger) = logger else { return };
    let clean = |s: &str| CString::new(s.replace('\0', " ")).unwrap_or_default();
    let (c, m) = (clean(cat), clean(msg));
    // SAFETY: the master's callback, with NUL-terminated strings
    unsafe { logger(env, status, c.as_ptr(), m.as_ptr()) };
}

impl Component {
    fn log(&self, status: fmi3Status, cat: &str, msg: &str) {
        if status >= fmi3Error || self.logging_on {
            log_to(self.logger, self.env, status, cat, &format!("{}: {msg}", self.inst.name));
        }
    }
}

/// Run `f` on the instance: errors and panics become a logged `fmi3Error`.
unsafe fn call(c: fmi3Instance, f: impl FnOnce(&mut Component) -> Result<(), FmiError>) -> fmi3Status {
    if c.is_null() {
        return fmi3Error;
    }
    // SAFETY: an instance from fmi3InstantiateCoSimulation (module doc)
    let comp = unsafe { &mut *(c as *mut Component) };
    let msg = match catch_unwind(AssertUnwindSafe(|| f(comp))) {
        Ok(Ok(())) => return fmi3OK,
        Ok(Err(e)) => fmi3_names(&e.0),
        Err(p) => format!("internal error (please report): {}", friction_models::error::panic_message(&*p)),
    };
    comp.inst.set_error();
    comp.log(fmi3Error, "logStatusError", &msg);
    fmi3Error
}

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

/// `fmi3GetFMUState`: a snapshot of the instance (see [`crate::state`]); a
/// non-NULL `*FMUState` from an earlier call is overwritten.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3GetFMUState(instance: fmi3Instance, FMUState: *mut fmi3FMUState) -> fmi3Status {
    unsafe {
        call(instance, |comp| {
            let p = slice_mut(FMUState, 1, "fmi3GetFMUState: FMUState")?;
            let snap = comp.inst.get_state();
            if p[0].is_null() {
                p[0] = Box::into_raw(Box::new(snap)) as fmi3FMUState;
            } else {
                // SAFETY: a state of this library (module doc)
                *(p[0] as *mut Snapshot) = snap;
            }
            Ok(())
        })
    }
}

unsafe fn snapshot<'a>(state: fmi3FMUState, call: &str) -> Result<&'a Snapshot, FmiError> {
    if state.is_null() {
        return Err(FmiError(format!("{call}: FMUState is NULL")));
    }
    // SAFETY: a state of this library (module doc)
    Ok(unsafe { &*(state as *const Snapshot) })
}

/// `fmi3SetFMUState`: the instance goes back (or forward) to `FMUState`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3SetFMUState(instance: fmi3Instance, FMUState: fmi3FMUState) -> fmi3Status {
    unsafe { call(instance, |comp| comp.inst.set_state(snapshot(FMUState, "fmi3SetFMUState")?)) }
}

/// `fmi3FreeFMUState`: frees `*FMUState` and sets it to NULL.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3FreeFMUState(instance: fmi3Instance, FMUState: *mut fmi3FMUState) -> fmi3Status {
    unsafe {
        call(instance, |_| {
            let p = slice_mut(FMUState, 1, "fmi3FreeFMUState: FMUState")?;
            if !p[0].is_null() {
                // SAFETY: a state of this library, freed once (module doc)
                drop(Box::from_raw(p[0] as *mut Snapshot));
                p[0] = std::ptr::null_mut();
            }
            Ok(())
        })
    }
}

/// `fmi3SerializedFMUStateSize`.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3SerializedFMUStateSize(
    instance: fmi3Instance,
    FMUState: fmi3FMUState,
    size: *mut usize,
) -> fmi3Status {
    unsafe {
        call(instance, |comp| {
            let out = slice_mut(size, 1, "fmi3SerializedFMUStateSize: size")?;
            out[0] = snapshot(FMUState, "fmi3SerializedFMUStateSize")?.to_bytes(comp.inst.guid()).len();
            Ok(())
        })
    }
}

/// `fmi3SerializeFMUState`: `size` must be the size from
/// [`fmi3SerializedFMUStateSize`].
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3SerializeFMUState(
    instance: fmi3Instance,
    FMUState: fmi3FMUState,
    serializedState: *mut fmi3Byte,
    size: usize,
) -> fmi3Status {
    unsafe {
        call(instance, |comp| {
            let b = snapshot(FMUState, "fmi3SerializeFMUState")?.to_bytes(comp.inst.guid());
            if b.len() != size {
                return Err(FmiError(format!(
                    "fmi3SerializeFMUState: size = {size}; the state takes {} bytes (fmi3SerializedFMUStateSize)",
                    b.len()
                )));
            }
            slice_mut(serializedState, size, "fmi3SerializeFMUState: serializedState")?.copy_from_slice(&b);
            Ok(())
        })
    }
}

/// `fmi3DeserializeFMUState`: a new state from bytes written by
/// [`fmi3SerializeFMUState`] (or `fmi2SerializeFMUstate`) of an FMU of the
/// same scenario.
///
/// # Safety
/// See the module doc.
#[no_mangle]
pub unsafe extern "C" fn fmi3DeserializeFMUState(
    instance: fmi3Instance,
    serializedState: *const fmi3Byte,
    size: usize,
    FMUState: *mut fmi3FMUState,
) -> fmi3Status {
    unsafe {
        call(instance, |comp| {
            let b = slice(serializedState, size, "fmi3DeserializeFMUState: serializedState")?;
            let out = slice_mut(FMUState, 1, "fmi3DeserializeFMUState: FMUState")?;
            let snap = Snapshot::from_bytes(b, comp.inst.guid(), comp.inst.variables().len())
                .map_err(|e| FmiError(format!("fmi3DeserializeFMUState: {e}")))?;
            out[0] = Box::into_raw(Box::new(snap)) as fmi3FMUState;
            Ok(())
        })
    }
}

/// Unsupported functions: `fmi3Error` with a message naming the function
/// and why. The parameters after `instance` are declared with their C
/// types (only the instance is read).
macro_rules! unsupported {
    ($($name:ident ( $($arg:ident : $ty:ty),* ) => $why:literal;)*) => {$(
        #[doc = concat!("`", stringify!($name), "`: not supported (", $why, "); returns `fmi3Error`.")]
        ///
        /// # Safety
        /// See the module doc.
        #[no_mangle]
        pub unsafe extern "C" fn $name(instance: fmi3Instance $(, $arg: $ty)*) -> fmi3Status {
            $(let _ = $arg;)*
            unsafe {
                call(instance, |_| {
                    Err(FmiError(format!("{} is not supported by this FMU ({})", stringify!($name), $why)))
                })
            }
        }
    )*};
}

/// Getters and setters of variable types this FMU does not have: only
/// `nValueReferences = 0` succeeds.
macro_rules! no_variables_of_type {
    ($($name:ident ( $($arg:ident : $ty:ty),* );)*) => {$(
        #[doc = concat!("`", stringify!($name), "`: this FMU has only Float64 variables; only an empty call succeeds.")]
        ///
        /// # Safety
        /// See the module doc.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            instance: fmi3Instance,
            valueReferences: *const fmi3ValueReference,
            nValueReferences: usize
            $(, $arg: $ty)*
        ) -> fmi3Status {
            $(let _ = $arg;)*
            unsafe {
                call(instance, |comp| {
                    let vr = slice(valueReferences, nValueReferences, stringify!($name))?;
                    if comp.inst.state == State::Error {
                        return Err(FmiError(format!("{}: the instance is in the error state", stringify!($name))));
                    }
                    match vr.first() {
                        None => Ok(()),
                        Some(v) => Err(FmiError(format!(
                            "{}: unknown value reference {v}; this FMU has Float64 variables only",
                            stringify!($name)
                        ))),
                    }
                })
            }
        }
    )*};
}

no_variables_of_type! {
    fmi3GetFloat32(values: *mut f32, nValues: usize);
    fmi3GetInt8(values: *mut i8, nValues: usize);
    fmi3GetUInt8(values: *mut u8, nValues: usize);
    fmi3GetInt16(values: *mut i16, nValues: usize);
    fmi3GetUInt16(values: *mut u16, nValues: usize);
    fmi3GetInt32(values: *mut i32, nValues: usize);
    fmi3GetUInt32(values: *mut u32, nValues: usize);
    fmi3GetInt64(values: *mut i64, nValues: usize);
    fmi3GetUInt64(values: *mut u64, nValues: usize);
    fmi3GetBoolean(values: *mut fmi3Boolean, nValues: usize);
    fmi3GetString(values: *mut fmi3String, nValues: usize);
    fmi3GetBinary(valueSizes: *mut usize, values: *mut *const u8, nValues: usize);
    fmi3GetClock(values: *mut fmi3Boolean);
    fmi3SetFloat32(values: *const f32, nValues: usize);
    fmi3SetInt8(values: *const i8, nValues: usize);
    fmi3SetUInt8(values: *const u8, nValues: usize);
    fmi3SetInt16(values: *const i16, nValues: usize);
    fmi3SetUInt16(values: *const u16, nValues: usize);
    fmi3SetInt32(values: *const i32, nValues: usize);
    fmi3SetUInt32(values: *const u32, nValues: usize);
    fmi3SetInt64(values: *const i64, nValues: usize);
    fmi3SetUInt64(values: *const u64, nValues: usize);
    fmi3SetBoolean(values: *const fmi3Boolean, nValues: usize);
    fmi3SetString(values: *const fmi3String, nValues: usize);
    fmi3SetBinary(valueSizes: *const usize, values: *const *const u8, nValues: usize);
    fmi3SetClock(values: *const fmi3Boolean);
}

unsupported! {
    fmi3ActivateModelPartition(clockReference: fmi3ValueReference, activationTime: fmi3Float64)
        => "Co-Simulation only: no Scheduled Execution";
    fmi3EnterContinuousTimeMode() => "Co-Simulation only: no Model Exchange";
    fmi3CompletedIntegratorStep(
        noSetFMUStatePriorToCurrentPoint: fmi3Boolean,
        enterEventMode: *mut fmi3Boolean,
        terminateSimulation: *mut fmi3Boolean
    ) => "Co-Simulation only: no Model Exchange";
    fmi3SetTime(time: fmi3Float64) => "Co-Simulation only: no Model Exchange";
    fmi3SetContinuousStates(continuousStates: *const fmi3Float64, nContinuousStates: usize)
        => "Co-Simulation only: no Model Exchange";
    fmi3GetContinuousStateDerivatives(derivatives: *mut fmi3Float64, nContinuousStates: usize)
        => "Co-Simulation only: no Model Exchange";
    fmi3GetEventIndicators(eventIndicators: *mut fmi3Float64, nEventIndicators: usize)
        => "Co-Simulation only: no Model Exchange";
    fmi3GetContinuousStates(continuousStates: *mut fmi3Float64, nContinuousStates: usize)
        => "Co-Simulation only: no Model Exchange";
    fmi3GetNominalsOfContinuousStates(nominals: *mut fmi3Float64, nContinuousStates: usize)
        => "Co-Simulation only: no Model Exchange";
    fmi3GetNumberOfEventIndicators(nEventIndicators: *mut usize) => "Co-Simulation only: no Model Exchange";
    fmi3GetNumberOfContinuousStates(nContinuousStates: *mut usize) => "Co-Simulation only: no Model Exchange";
    fmi3EnterEventMode() => "hasEventMode = false";
    fmi3EnterStepMode() => "no event mode: the instance is in step mode after fmi3ExitInitializationMode";
    fmi3EnterConfigurationMode() => "no structural parameters";
    fmi3ExitConfigurationMode() => "no structural parameters";
    fmi3EvaluateDiscreteStates() => "providesEvaluateDiscreteStates = false";
    fmi3UpdateDiscreteStates(
        discreteStatesNeedUpdate: *mut fmi3Boolean,
        terminateSimulation: *mut fmi3Boolean,
        nominalsOfContinuousStatesChanged: *mut fmi3Boolean,
        valuesOfContinuousStatesChanged: *mut fmi3Boolean,
        nextEventTimeDefined: *mut fmi3Boolean,
        nextEventTime: *mut fmi3Float64
    ) => "hasEventMode = false";
    fmi3GetNumberOfVariableDependencies(valueReference: fmi3ValueReference, nDependencies: *mut usize)
        => "no dependency information";
    fmi3GetVariableDependencies(
        dependent: fmi3ValueReference,
        elementIndicesOfDependent: *mut usize,
        independents: *mut fmi3ValueReference,
        elementIndicesOfIndependents: *mut usize,
        dependencyKinds: *mut c_int,
        nDependencies: usize
    ) => "no dependency information";
    fmi3GetDirectionalDerivative(
        unknowns: *const fmi3ValueReference,
        nUnknowns: usize,
        knowns: *const fmi3ValueReference,
        nKnowns: usize,
        seed: *const fmi3Float64,
        nSeed: usize,
        sensitivity: *mut fmi3Float64,
        nSensitivity: usize
    ) => "providesDirectionalDerivatives = false";
    fmi3GetAdjointDerivative(
        unknowns: *const fmi3ValueReference,
        nUnknowns: usize,
        knowns: *const fmi3ValueReference,
        nKnowns: usize,
        seed: *const fmi3Float64,
        nSeed: usize,
        sensitivity: *mut fmi3Float64,
        nSensitivity: usize
    ) => "providesAdjointDerivatives = false";
    fmi3GetOutputDerivatives(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        orders: *const i32,
        values: *mut fmi3Float64,
        nValues: usize
    ) => "maxOutputDerivativeOrder = 0";
    fmi3GetIntervalDecimal(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        intervals: *mut fmi3Float64,
        qualifiers: *mut c_int
    ) => "no clocks";
    fmi3GetIntervalFraction(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        counters: *mut u64,
        resolutions: *mut u64,
        qualifiers: *mut c_int
    ) => "no clocks";
    fmi3GetShiftDecimal(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        shifts: *mut fmi3Float64
    ) => "no clocks";
    fmi3GetShiftFraction(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        counters: *mut u64,
        resolutions: *mut u64
    ) => "no clocks";
    fmi3SetIntervalDecimal(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        intervals: *const fmi3Float64
    ) => "no clocks";
    fmi3SetIntervalFraction(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        counters: *const u64,
        resolutions: *const u64
    ) => "no clocks";
    fmi3SetShiftDecimal(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        shifts: *const fmi3Float64
    ) => "no clocks";
    fmi3SetShiftFraction(
        valueReferences: *const fmi3ValueReference,
        nValueReferences: usize,
        counters: *const u64,
        resolutions: *const u64
    ) => "no clocks";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_use_the_fmi3_names() {
        assert_eq!(
            fmi3_names("fmi2GetReal: unknown; fmi2SetupExperiment: x; fmi2DoStep"),
            "fmi3GetFloat64: unknown; fmi3EnterInitializationMode: x; fmi3DoStep"
        );
    }
}
