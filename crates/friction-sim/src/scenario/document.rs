//! A scenario read in two steps: its text to a TOML table ([`Document::read`]:
//! syntax errors, with file and line), then the table validated into a
//! [`System`] ([`Document::validate`], or [`Document::validate_with`] after
//! overrides by dotted paths edited the table).
//!
//! # Why a `toml::Table` and spans on the side
//!
//! Overrides (`--set`, a sweep's grid point, an FMU's parameters, a JSON
//! body of `friction serve`) edit the table in place
//! ([`super::overrides::apply`]); a spanned document (`toml::de::DeTable`)
//! cannot take a number without writing it as TOML text. So the tables of
//! the scenario are read from the `toml::Table`, and the span of each
//! element in the text (a `[[contact]]`, the `[solver]`) is kept on the side
//! from the one parse of the text: an error names the line of its key in the
//! file. An error at a key an override set names that override instead
//! (the line would show the file's old value); this is how the override to
//! blame is found, by its path, validating once. A type error of the
//! file itself (`fc = "x"`) is located, on that error's path only, by
//! reading the text's spanned document, so its message names the key path
//! and the line as before.

use std::ops::Range;
use std::path::Path;

use serde::Deserialize;

use super::locate::Src;
use super::overrides;
use super::raw::RawFile;
use crate::error::SimError;
use crate::system::System;

/// A scenario read as TOML, not yet validated: its table (which overrides
/// may edit) and where its elements are in the text, for error lines.
///
/// ```
/// use friction_sim::scenario::Document;
/// let text = "[[body]]\nname = \"m\"\nmass = 1.0\n[solver]\nt_end = 1.0\n";
/// let doc = Document::read(text, "s.toml").unwrap();
/// assert_eq!(doc.table()["body"][0]["mass"].as_float(), Some(1.0));
/// let sys = doc.validate_with(std::path::Path::new("."), &[("body.m.mass".into(), 3.0)]).unwrap();
/// assert_eq!(sys.bodies[0].mass, 3.0);
/// // a syntax error names the file and the line
/// let e = Document::read("[solver]\nt_end = = 1\n", "s.toml").unwrap_err().to_string();
/// assert!(e.contains("s.toml") && e.contains('2'), "{e}");
/// ```
#[derive(Debug, Clone)]
pub struct Document {
    file: String,
    text: String,
    table: toml::Table,
    /// The spans of the elements of every array of tables, by section.
    arrays: Vec<(String, Vec<Range<usize>>)>,
    /// The span of `[solver]`.
    solver: Option<Range<usize>>,
}

impl Document {
    /// Read scenario `text` as TOML (`file` names it in errors): a syntax
    /// error, or a duplicated key, names the file and the line.
    pub fn read(text: &str, file: &str) -> Result<Document, SimError> {
        let src = Src::new(file, text, Path::new(""));
        let tree = toml::de::DeTable::parse(text).map_err(|e| src.toml_error(&e))?;
        let mut arrays = Vec::new();
        let mut solver = None;
        for (k, v) in tree.get_ref() {
            match (k.get_ref().as_ref(), v.get_ref()) {
                (key, toml::de::DeValue::Array(a)) => {
                    arrays.push((key.to_string(), a.iter().map(|i| i.span()).collect()))
                }
                ("solver", _) => solver = Some(v.span()),
                _ => {}
            }
        }
        let table =
            toml::Table::deserialize(toml::de::Deserializer::from(tree)).map_err(|e| src.toml_error(&e))?;
        Ok(Document { file: file.to_string(), text: text.to_string(), table, arrays, solver })
    }

    /// A scenario given as a table (a JSON body, a table a program built):
    /// it has no text, so its errors name `file` and the key, without a line.
    ///
    /// ```
    /// use friction_sim::scenario::Document;
    /// let t: toml::Table = "[[body]]\nname = \"m\"\nmass = -1.0\n[solver]\nt_end = 1.0\n".parse().unwrap();
    /// let e = Document::from_table(t, "body").validate(".".as_ref()).unwrap_err().to_string();
    /// assert!(e.starts_with("body: ") && e.contains("mass"), "{e}");
    /// ```
    pub fn from_table(table: toml::Table, file: &str) -> Document {
        Document { file: file.to_string(), text: String::new(), table, arrays: Vec::new(), solver: None }
    }

    /// The scenario with a `[solver]` table of `t_end =`
    /// [`FREQUENCY_DOMAIN_T_END`](super::FREQUENCY_DOMAIN_T_END) where it
    /// has none ([`set_default_solver`](super::set_default_solver)):
    /// `friction frf`, `friction nnm` and Python's `frf` and `nnm`
    /// integrate nothing and need no solver settings. Only the table
    /// changes: every line an error names stays the file's.
    ///
    /// ```
    /// use friction_sim::scenario::Document;
    /// let doc = Document::read("[[body]]\nname = \"m\"\nmass = 1.0\n", "s.toml").unwrap();
    /// assert_eq!(doc.with_default_solver().validate(".".as_ref()).unwrap().solver.t_end, 1.0);
    /// ```
    pub fn with_default_solver(mut self) -> Document {
        super::set_default_solver(&mut self.table);
        self
    }

    /// The scenario's table, as read.
    pub fn table(&self) -> &toml::Table {
        &self.table
    }

    /// The name of the file in messages.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Validate the scenario into a [`System`]; `dir` resolves its relative
    /// table files. Every error names the file, the line and the key.
    pub fn validate(&self, dir: &Path) -> Result<System, SimError> {
        self.checked(&self.table, Src::new(&self.file, &self.text, dir)).map_err(|(_, e)| e)
    }

    /// Validate the scenario with `overrides` (dotted paths and values, as
    /// `friction run --set PATH=VALUE`) set in its table, once. On error,
    /// the index of the override to blame, found by the key the error is
    /// at (its message then has no line: the file holds the old value), or
    /// `None` when the error is the file's own (with its line).
    pub fn validate_with(
        &self,
        dir: &Path,
        overrides: &[(String, f64)],
    ) -> Result<System, (Option<usize>, SimError)> {
        if overrides.is_empty() {
            return self.validate(dir).map_err(|e| (None, e));
        }
        let mut table = self.table.clone();
        let mut src = Src::new(&self.file, &self.text, dir);
        for (k, (path, value)) in overrides.iter().enumerate() {
            let at = overrides::place(&mut table, path, *value).map_err(|m| {
                let message = m.replace("grid key `", "key `");
                (Some(k), SimError::Input { file: self.file.clone(), line: None, message })
            })?;
            let span = match &at.element {
                Some((section, i)) => self.span_of(section, *i),
                None => self.solver.clone().unwrap_or(0..0),
            };
            src.edits.push((k, span, at.keys));
        }
        self.checked(&table, src)
    }

    /// The tables of `table` (with the spans of the text's elements)
    /// validated into a [`System`]; on error, the override it blames.
    fn checked(&self, table: &toml::Table, src: Src<'_>) -> Result<System, (Option<usize>, SimError)> {
        let mut raw = match RawFile::deserialize(toml::Value::Table(table.clone())) {
            Ok(raw) => raw,
            Err(e) => return Err(self.type_error(&e, &src)),
        };
        raw.locate(|section, i| self.span_of(section, i), self.solver.clone());
        super::system(&raw, &src).map_err(|e| (src.blamed.get(), e))
    }

    /// A table or value of the wrong type (or an unknown key). The file's
    /// own is located in its text's spanned document (this error's path
    /// alone reads the text again), with the key path and line; else an
    /// override set a value of the wrong type (a fraction where an integer
    /// is read): the one whose path ends with the key the error is at.
    fn type_error(&self, e: &toml::de::Error, src: &Src<'_>) -> (Option<usize>, SimError) {
        if let Err(e) = toml::from_str::<RawFile>(&self.text) {
            return (None, src.toml_error(&e));
        }
        let shown = e.to_string();
        let path = shown.split("in `").nth(1).and_then(|r| r.split('`').next()).unwrap_or("");
        let msg = e.message().trim();
        // the key at fault: the last of the path, or the unknown field
        let unknown = msg.strip_prefix("unknown field `").and_then(|r| r.split('`').next());
        let key = unknown.unwrap_or_else(|| path.rsplit('.').next().unwrap_or(""));
        let edit = src.edits.iter().find(|(_, _, keys)| keys.last().is_some_and(|k| k == key));
        let blamed = edit.map(|e| e.0);
        // the table's path has no index of the element: that of the override's
        let (section, rest) = path.split_once('.').unwrap_or((path, ""));
        let index = edit.and_then(|(_, span, _)| {
            let (_, spans) = self.arrays.iter().find(|(s, _)| s == section)?;
            spans.iter().position(|s| s == span)
        });
        let path = match index {
            Some(i) if rest.is_empty() => format!("{section}[{i}]"),
            Some(i) => format!("{section}[{i}].{rest}"),
            None => path.to_string(),
        };
        let hint = match unknown {
            // serde's "unknown field `x`, expected one of `a`, `b`": add the nearest key
            Some(word) => {
                let expected = msg.split_once("expected").map_or("", |(_, x)| x);
                friction_models::suggest::did_you_mean(word, expected.split('`').skip(1).step_by(2))
            }
            None => String::new(),
        };
        let message = match path.as_str() {
            "" => format!("{msg}{hint}"),
            p => format!("{p}: {msg}{hint}"),
        };
        (blamed, SimError::Input { file: self.file.clone(), line: None, message })
    }

    fn span_of(&self, section: &str, i: usize) -> Range<usize> {
        self.arrays.iter().find(|(s, _)| s == section).and_then(|(_, v)| v.get(i).cloned()).unwrap_or(0..0)
    }
}
