//! # friction-fmu
//!
//! One generic FMI 2.0 and 3.0 Co-Simulation shared library for every
//! scenario that `friction fmu SCENARIO.toml -o OUT.fmu [--fmi 3]` exports:
//! the FMU packs this library as `binaries/linux64/friction_fmu.so`
//! (FMI 3.0: `binaries/x86_64-linux/`) and the scenario as
//! `resources/scenario.toml`, which the library reads at instantiation.
//!
//! - [`variables`]: the FMU's outputs (every column of `friction run`'s
//!   CSV), inputs (`type = "input"` schedules) and parameters (every real
//!   parameter of every contact, `CONTACT.PARAM`);
//! - [`description`]: `modelDescription.xml` and the GUID;
//! - [`archive`]: the FMU's zip archive;
//! - [`instance`]: the FMI state machine of one instance, in safe Rust;
//! - [`lifecycle`]: an instance's states and the error of a refused call;
//! - [`worker`]: the simulation of one instance on its own thread, stopping
//!   at every communication point;
//! - [`state`]: FMU states (get, set, serialise);
//! - [`fmi2`], [`fmi3`]: the exported C functions of each version.
//!
//! Between communication points the engine integrates with exact stick and
//! slip, the inputs held; a changed input is a breakpoint where stick and
//! slip are decided again. Linux (x86-64) only: the FMU's `binaries/linux64`.
#![warn(missing_docs)]

pub mod archive;
pub mod description;
pub mod fmi2;
pub mod fmi3;
pub mod instance;
pub mod lifecycle;
pub mod state;
pub mod variables;
pub mod worker;
