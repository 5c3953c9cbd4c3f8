//! The instance behind an `fmi3Instance`: an [`Instance`] with the
//! master's logger, its messages in FMI 3.0's names, and the call wrapper
//! that turns errors and panics into a logged `fmi3Error`.
//!
//! The safety contract of every `unsafe` function here is the parent
//! module's ([`super`]).

use std::ffi::CString;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::instance::{FmiError, Instance};

use super::types::*;

/// An instance with the master's logger.
pub(super) struct Component {
    pub(super) inst: Instance,
    pub(super) logger: fmi3LogMessageCallback,
    pub(super) env: fmi3InstanceEnvironment,
    pub(super) logging_on: bool,
}

/// The FMI 2.0 names in the instance's messages, as FMI 3.0 calls them.
pub(super) fn fmi3_names(msg: &str) -> String {
    msg.replace("fmi2GetReal", "fmi3GetFloat64")
        .replace("fmi2SetReal", "fmi3SetFloat64")
        .replace("fmi2SetupExperiment", "fmi3EnterInitializationMode")
        .replace("fmi2Instantiate", "fmi3InstantiateCoSimulation")
        .replace("fmi2SetFMUstate", "fmi3SetFMUState")
        .replace("fmi2", "fmi3")
}

pub(super) fn log_to(
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
    pub(super) fn log(&self, status: fmi3Status, cat: &str, msg: &str) {
        if status >= fmi3Error || self.logging_on {
            log_to(self.logger, self.env, status, cat, &format!("{}: {msg}", self.inst.name));
        }
    }
}

/// Run `f` on the instance: errors and panics become a logged `fmi3Error`.
pub(super) unsafe fn call(
    c: fmi3Instance,
    f: impl FnOnce(&mut Component) -> Result<(), FmiError>,
) -> fmi3Status {
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
