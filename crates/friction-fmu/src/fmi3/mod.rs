//! The FMI 3.0 Co-Simulation C functions (`fmi3Functions.h`), exported
//! unmangled from the same shared library as the FMI 2.0 ones (the names
//! differ): an FMU exported with `friction fmu --fmi 3` packs this library
//! as `binaries/x86_64-linux/friction_fmu.so`.
//!
//! Both versions drive the same [`Instance`](crate::instance::Instance); this layer converts the
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
mod calls;
mod component;
mod fmu_state;
mod types;
mod unsupported;

pub use calls::*;
pub use fmu_state::*;
pub use types::*;
pub use unsupported::*;
