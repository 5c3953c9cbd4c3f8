//! The component behind an `fmi2Component`: an [`Instance`] with the
//! master's logger; the call wrapper that turns errors and panics into a
//! logged `fmi2Error`; C arrays and strings as Rust slices; resource URIs.
//!
//! The safety contract of every `unsafe` function here is the parent
//! module's ([`super`]).

use std::ffi::{CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use crate::instance::{FmiError, Instance};

use super::types::*;

/// An instance with the master's logger.
pub(super) struct Component {
    pub(super) inst: Instance,
    pub(super) logger: fmi2CallbackLogger,
    pub(super) env: fmi2ComponentEnvironment,
    pub(super) logging_on: bool,
}

pub(super) fn log_to(
    logger: fmi2CallbackLogger,
    env: fmi2ComponentEnvironment,
    name: &str,
    status: fmi2Status,
    cat: &str,
    msg: &str,
) {
    let Some(logger) = logger else { return };
    // the message is a printf format: escape '%'
    let clean = |s: &str| CString::new(s.replace('\0', " ")).unwrap_or_default();
    let (n, c, m) = (clean(name), clean(cat), clean(&msg.replace('%', "%%")));
    // SAFETY: the master's logger, called with NUL-terminated strings and no
    // variadic arguments (the message has no conversions left)
    unsafe { logger(env, n.as_ptr(), status, c.as_ptr(), m.as_ptr()) };
}

impl Component {
    pub(super) fn log(&self, status: fmi2Status, cat: &str, msg: &str) {
        if status >= fmi2Error || self.logging_on {
            log_to(self.logger, self.env, &self.inst.name, status, cat, msg);
        }
    }
}

/// Run `f` on the component behind `c`: errors and panics become a logged
/// `fmi2Error`.
pub(super) unsafe fn call(
    c: fmi2Component,
    f: impl FnOnce(&mut Component) -> Result<(), FmiError>,
) -> fmi2Status {
    if c.is_null() {
        return fmi2Error;
    }
    // SAFETY: a component from fmi2Instantiate (module doc)
    let comp = unsafe { &mut *(c as *mut Component) };
    match catch_unwind(AssertUnwindSafe(|| f(comp))) {
        Ok(Ok(())) => fmi2OK,
        Ok(Err(e)) => {
            comp.inst.set_error();
            comp.log(fmi2Error, "logStatusError", &e.0);
            fmi2Error
        }
        Err(p) => {
            comp.inst.set_error();
            comp.log(
                fmi2Error,
                "logStatusError",
                &format!("internal error (please report): {}", friction_models::error::panic_message(&*p)),
            );
            fmi2Error
        }
    }
}

/// A slice from a C array; `n == 0` gives an empty slice whatever the pointer.
pub(crate) unsafe fn slice<'a, T>(p: *const T, n: usize, what: &str) -> Result<&'a [T], FmiError> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(FmiError(format!("{what} is NULL with {n} elements")));
    }
    // SAFETY: the caller passes n elements (module doc)
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

pub(crate) unsafe fn slice_mut<'a, T>(p: *mut T, n: usize, what: &str) -> Result<&'a mut [T], FmiError> {
    if n == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(FmiError(format!("{what} is NULL with {n} elements")));
    }
    // SAFETY: the caller passes n elements (module doc)
    Ok(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

pub(crate) unsafe fn string(p: fmi2String) -> Option<String> {
    // SAFETY: NUL-terminated (module doc)
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// The directory of a `file:` URI (`file:///a/b`, `file://localhost/a/b`,
/// `file:/a/b`), percent-decoded.
pub fn uri_to_path(uri: &str) -> Result<PathBuf, String> {
    let rest = uri
        .strip_prefix("file://localhost/")
        .map(|r| format!("/{r}"))
        .or_else(|| uri.strip_prefix("file:///").map(|r| format!("/{r}")))
        .or_else(|| uri.strip_prefix("file:/").filter(|r| !r.starts_with('/')).map(|r| format!("/{r}")))
        .ok_or_else(|| {
            format!("fmuResourceLocation \"{uri}\" is not a local file URI (file:///path/to/resources)")
        })?;
    let decoded = percent_encoding::percent_decode_str(&rest)
        .decode_utf8()
        .map_err(|e| format!("fmuResourceLocation \"{uri}\": {e}"))?;
    Ok(PathBuf::from(decoded.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_uris_become_paths() {
        assert_eq!(uri_to_path("file:///tmp/a%20b/resources").unwrap(), PathBuf::from("/tmp/a b/resources"));
        assert_eq!(uri_to_path("file://localhost/x/r").unwrap(), PathBuf::from("/x/r"));
        assert_eq!(uri_to_path("file:/x/r").unwrap(), PathBuf::from("/x/r"));
        let e = uri_to_path("http://example.com/r").unwrap_err();
        assert!(e.contains("http://example.com/r") && e.contains("file:///"), "{e}");
    }
}
