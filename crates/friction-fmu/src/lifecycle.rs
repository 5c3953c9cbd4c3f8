//! The lifecycle of an FMU instance (the states of FMI 2.0, section 4.2.4,
//! and their FMI 3.0 counterparts) and the error of a refused or failed
//! call, shared by the instance, its saved states and the C layers.

/// The state of an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// After `fmi2Instantiate` or `fmi2Reset`.
    Instantiated,
    /// Between `fmi2EnterInitializationMode` and `fmi2ExitInitializationMode`.
    Initialization,
    /// Ready for `fmi2DoStep`.
    Stepping,
    /// After `fmi2Terminate`.
    Terminated,
    /// After a call that failed.
    Error,
}

/// A refused or failed call: the message to log.
#[derive(Debug, Clone, PartialEq)]
pub struct FmiError(pub String);

impl std::fmt::Display for FmiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
