//! A table of the scenario as read, with the span of its text: the tables
//! are read from a `toml::Table` (which keeps no spans, and which overrides
//! edit), and [`super::document`] gives each its span in the text after.

use serde::Deserialize;

/// A table as read, with the span of its text in the scenario file: the
/// tables are read from a `toml::Table` (which keeps no spans, and which
/// overrides edit), and [`super::document`] gives each its span in the text.
pub(crate) struct Spanned<T> {
    span: std::ops::Range<usize>,
    value: T,
}

impl<T> Spanned<T> {
    /// The byte range of the table in the scenario text (`0..0` when unknown).
    pub(crate) fn span(&self) -> std::ops::Range<usize> {
        self.span.clone()
    }

    /// The table.
    pub(crate) fn get_ref(&self) -> &T {
        &self.value
    }

    pub(super) fn set_span(&mut self, span: std::ops::Range<usize>) {
        self.span = span;
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Spanned { span: 0..0, value: T::deserialize(d)? })
    }
}
