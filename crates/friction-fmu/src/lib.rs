//! # friction-fmu
//!
//! One generic FMI 2.0 Co-Simulation shared library for every scenario that
//! `friction fmu SCENARIO.toml -o OUT.fmu` exports: the FMU packs this
//! library as `binaries/linux64/friction_fmu.so` and the scenario as
//! `resources/scenario.toml`, which the library reads at `fmi2Instantiate`.
//!
//! - [`variables`]: the FMU's outputs (every column of `friction run`'s
//!   CSV), inputs (`type = "input"` schedules) and parameters (every real
//!   parameter of every contact, `CONTACT.PARAM`);
//! - [`description`]: `modelDescription.xml` and the GUID;
//! - [`instance`]: the FMI state machine of one instance, in safe Rust;
//! - [`worker`]: the simulation of one instance on its own thread, stopping
//!   at every communication point;
//! - [`fmi2`]: the exported C functions.
//!
//! Between communication points the engine integrates with exact stick and
//! slip, the inputs held; a changed input is a breakpoint where stick and
//! slip are decided again. Linux (x86-64) only: the FMU's `binaries/linux64`.
#![warn(missing_docs)]

pub mod description;
pub mod fmi2;
pub mod instance;
pub mod variables;
pub mod worker;
