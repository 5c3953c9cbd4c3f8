//! The C types and status constants of `fmi3PlatformTypes.h` and
//! `fmi3FunctionTypes.h`.

use std::ffi::{c_char, c_int, c_void};

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
