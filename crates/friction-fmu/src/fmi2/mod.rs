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
mod calls;
mod component;
mod fmu_state;
mod status;
mod types;

pub use calls::*;
pub use component::uri_to_path;
pub(crate) use component::{slice, slice_mut, string};
pub use fmu_state::*;
pub use status::*;
pub use types::*;
