//! FMU states: got, set, freed, serialised and deserialised (see
//! [`crate::state`]).
//!
//! The safety contract of every `unsafe` function here is the parent
//! module's ([`super`]).

use crate::fmi2::{slice, slice_mut};
use crate::instance::FmiError;
use crate::state::Snapshot;

use super::component::*;
use super::types::*;

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
