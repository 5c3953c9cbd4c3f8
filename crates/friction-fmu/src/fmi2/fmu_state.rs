//! FMU states: got, set, freed, serialised and deserialised (see
//! [`crate::state`]).
//!
//! The safety contract of every `unsafe` function here is the parent
//! module's ([`super`]).

use std::ffi::c_void;

use crate::instance::FmiError;
use crate::state::Snapshot;

use super::component::*;
use super::types::*;

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
