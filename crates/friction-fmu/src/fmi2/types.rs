//! The C types and status constants of `fmi2TypesPlatform.h` and
//! `fmi2FunctionTypes.h`.

use std::ffi::{c_char, c_int, c_uint, c_void};

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
