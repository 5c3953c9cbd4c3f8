//! An external force: on a body, or (held by its structure) on a DOF of a
//! `[[structure]]`, so the structure's loads use it without the rest of
//! the system.

use super::schedule::Schedule;

/// An external force on a body.
#[derive(Debug, Clone)]
pub struct Force {
    /// Name.
    pub name: String,
    /// Body index (a structure's load: the DOF's position in its matrices).
    pub on: usize,
    /// Force schedule \[N\].
    pub value: Schedule,
}
