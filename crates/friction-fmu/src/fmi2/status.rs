//! The status queries (`fmi2GetStatus` and its typed variants).
//!
//! The safety contract of every `unsafe` function here is the parent
//! module's ([`super`]).

use crate::instance::FmiError;

use super::component::*;
use super::types::*;

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
