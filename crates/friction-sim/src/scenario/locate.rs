//! Where a scenario came from, and the line of a key in its text: every
//! error of the parser names the file, the line and the key path.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::error::SimError;

/// The top-level keys of a scenario that are arrays of tables (`[[body]]`).
const ARRAYS_OF_TABLES: [&str; 10] =
    ["driver", "body", "spring", "damper", "force", "contact", "stop", "gap", "thermal", "conduction"];

/// Where a scenario came from, for error messages and relative paths.
pub(super) struct Src<'a> {
    pub(super) file: String,
    pub(super) text: &'a str,
    pub(super) dir: PathBuf,
    /// The values overrides set: (override index, span of the element
    /// set, key path inside it). An error at one of those keys blames the
    /// override, not the line of the file (which holds the old value).
    pub(super) edits: Vec<(usize, std::ops::Range<usize>, Vec<String>)>,
    /// The override the last error blamed.
    pub(super) blamed: std::cell::Cell<Option<usize>>,
}

/// Where an error is: a line of the file, or the value an override set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Loc {
    /// A 1-based line of the scenario text.
    Line(usize),
    /// The index of the override that set the value.
    Override(usize),
}

impl From<usize> for Loc {
    fn from(line: usize) -> Loc {
        Loc::Line(line)
    }
}

impl<'a> Src<'a> {
    pub(super) fn new(file: &str, text: &'a str, dir: &std::path::Path) -> Src<'a> {
        Src {
            file: file.to_string(),
            text,
            dir: dir.to_path_buf(),
            edits: Vec::new(),
            blamed: std::cell::Cell::new(None),
        }
    }

    /// Where `key` of the element spanned by `span` is: the override that
    /// set it, else its line in the text ([`Src::key_line`]).
    pub(super) fn key_at(&self, span: std::ops::Range<usize>, key: &str) -> Loc {
        let set = self.edits.iter().find(|(_, s, keys)| {
            *s == span
                && (keys[0] == key
                    || (keys[0] == "params" && keys.get(1).is_some_and(|k| k == key))
                    || (key == "params" && keys[0] == "params"))
        });
        match set {
            Some((k, _, _)) => Loc::Override(*k),
            None => Loc::Line(self.key_line(span, key)),
        }
    }

    pub(super) fn line_of(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())].matches('\n').count() + 1
    }

    /// Line of `key` inside the text span `span` (first occurrence as `key =`), else the span's first line.
    pub(super) fn key_line(&self, span: std::ops::Range<usize>, key: &str) -> usize {
        // a table of an array of tables may be spanned by its header only:
        // search on to the next header line
        let from_line_end = self.text[span.start.min(self.text.len())..].find('\n').map(|i| span.start + i);
        let next_header = from_line_end.and_then(|e| {
            let mut off = e;
            for line in self.text[e..].split_inclusive('\n') {
                if line.trim_start().starts_with('[') && off > e {
                    return Some(off);
                }
                off += line.len();
            }
            None
        });
        let end = span.end.max(next_header.unwrap_or(self.text.len())).min(self.text.len());
        let chunk = &self.text[span.start..end];
        let mut pos = 0;
        while let Some(i) = chunk[pos..].find(key) {
            let at = pos + i;
            let before_ok = at == 0
                || !chunk.as_bytes()[at - 1].is_ascii_alphanumeric() && chunk.as_bytes()[at - 1] != b'_';
            let rest = chunk[at + key.len()..].trim_start();
            if before_ok && rest.starts_with('=') {
                return self.line_of(span.start + at);
            }
            pos = at + key.len();
        }
        self.line_of(span.start)
    }

    /// Line of a top-level `key =` (before the first table header).
    pub(super) fn top_key_line(&self, key: &str) -> usize {
        let end = self
            .text
            .lines()
            .scan(0usize, |off, l| {
                let start = *off;
                *off += l.len() + 1;
                Some((start, l))
            })
            .find(|(_, l)| l.trim_start().starts_with('['))
            .map(|(start, _)| start)
            .unwrap_or(self.text.len());
        self.key_line(0..end, key)
    }

    /// The dotted key path (`contact[2].params.fc`) of the value at byte `offset`.
    pub(super) fn key_path_at(&self, offset: usize) -> String {
        let offset = offset.min(self.text.len());
        let mut header = String::new();
        let mut counts: HashMap<String, usize> = HashMap::new();
        let mut section_start = 0;
        let mut pos = 0;
        for line in self.text.split_inclusive('\n') {
            if pos + line.len() > offset {
                break;
            }
            let t = line.trim();
            if let Some(inner) = t.strip_prefix("[[").and_then(|r| r.split("]]").next()) {
                let k = inner.trim().to_string();
                let n = counts.entry(k.clone()).or_insert(0);
                header = format!("{k}[{n}]");
                *n += 1;
                section_start = pos + line.len();
            } else if let Some(inner) = t.strip_prefix('[').and_then(|r| r.split(']').next()) {
                header = inner.trim().to_string();
                section_start = pos + line.len();
            }
            pos += line.len();
        }
        // walk the section up to the offset, tracking inline tables and arrays
        enum Open {
            Table(String),
            Array(String, usize),
        }
        let mut stack: Vec<Open> = vec![];
        let mut word = String::new();
        let mut key: Option<String> = None;
        let chunk = &self.text[section_start..offset];
        let mut chars = chunk.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '"' | '\'' => {
                    let mut w = String::new();
                    let mut esc = false;
                    for d in chars.by_ref() {
                        if c == '"' && d == '\\' && !esc {
                            esc = true;
                            continue;
                        }
                        if d == c && !esc {
                            break;
                        }
                        esc = false;
                        w.push(d);
                    }
                    word = w;
                }
                '#' => {
                    for d in chars.by_ref() {
                        if d == '\n' {
                            break;
                        }
                    }
                    if stack.is_empty() {
                        key = None;
                    }
                }
                '=' => key = Some(std::mem::take(&mut word)),
                '{' => stack.push(Open::Table(key.take().unwrap_or_default())),
                '[' => stack.push(Open::Array(key.take().unwrap_or_default(), 0)),
                '}' | ']' => {
                    stack.pop();
                    key = None;
                }
                ',' => {
                    if let Some(Open::Array(_, i)) = stack.last_mut() {
                        *i += 1;
                    } else {
                        key = None;
                    }
                }
                '\n' if stack.is_empty() => key = None,
                c if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') => {
                    word.clear();
                    word.push(c);
                    while let Some(&d) = chars.peek() {
                        if d.is_ascii_alphanumeric() || matches!(d, '_' | '-' | '.') {
                            word.push(d);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        let mut parts: Vec<String> = if header.is_empty() { vec![] } else { vec![header] };
        for o in &stack {
            match o {
                Open::Table(k) => parts.push(k.clone()),
                Open::Array(k, i) => parts.push(format!("{k}[{i}]")),
            }
        }
        if let Some(k) = key {
            parts.push(k);
        }
        parts.retain(|p| !p.is_empty());
        parts.join(".").replace(".[", "[")
    }

    /// A TOML or type error, with the key path, the expected and found types,
    /// and for a duplicated key both lines.
    pub(super) fn toml_error(&self, e: &toml::de::Error) -> SimError {
        let msg = e.message().trim();
        if msg.contains("expected a sequence") {
            if let Some(err) = self.single_table_header() {
                return err;
            }
        }
        let Some(span) = e.span() else {
            return SimError::Input { file: self.file.clone(), line: None, message: msg.to_string() };
        };
        let line = self.line_of(span.start);
        let path = self.key_path_at(span.start);
        let message = if let Some(rest) =
            msg.strip_prefix("invalid type: ").or_else(|| msg.strip_prefix("invalid value: "))
        {
            let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, "?"));
            let expected = match expected.trim() {
                "f64" | "f32" => "a number".to_string(),
                "i64" | "u64" | "usize" | "i32" | "u32" => "an integer".to_string(),
                "a sequence" => "an array".to_string(),
                "a boolean" => "true or false".to_string(),
                e if e.starts_with("struct ") || e == "a map" => "a table".to_string(),
                e => e.to_string(),
            };
            let found = found.replace('`', "");
            if path.is_empty() {
                format!("expected {expected}, found {found}")
            } else {
                format!("{path}: expected {expected}, found {found}")
            }
        } else if msg.starts_with("duplicate key") {
            let key = self.text[span.clone()].trim().trim_matches('"').to_string();
            let first = self.first_definition(&key, span.start);
            match first {
                Some(l) if l != line => {
                    format!("duplicate key `{key}`: first defined on line {l}, again on line {line}")
                }
                _ => format!("duplicate key `{key}` (defined twice on line {line})"),
            }
        } else if let Some(rest) = msg.strip_prefix("unknown field `") {
            // serde's "unknown field `x`, expected one of `a`, `b`": add the nearest key
            let (word, expected) = rest.split_once('`').unwrap_or((rest, ""));
            let keys = expected.split('`').skip(1).step_by(2);
            let hint = friction_models::suggest::did_you_mean(word, keys);
            let msg = format!("{msg}{hint}");
            if path.is_empty() {
                msg
            } else {
                format!("{path}: {msg}")
            }
        } else if path.is_empty() || msg.contains('`') {
            msg.to_string()
        } else {
            format!("{path}: {msg}")
        };
        SimError::Input { file: self.file.clone(), line: Some(line), message }
    }

    /// A `[body]` header (a single table) where the scenario needs an array
    /// of tables `[[body]]`: serde reports it as a sequence expected at
    /// whatever key path its span falls on (`driver[0]: expected an
    /// array`), so it is named here with its file, line and the fix.
    fn single_table_header(&self) -> Option<SimError> {
        for (i, line) in self.text.lines().enumerate() {
            let t = line.trim();
            let Some(inner) = t.strip_prefix('[').filter(|r| !r.starts_with('[')) else { continue };
            let Some(key) = inner.split(']').next().map(str::trim) else { continue };
            if ARRAYS_OF_TABLES.contains(&key) {
                return Some(self.err(
                    i + 1,
                    format!(
                        "`[{key}]` is a single table, but `{key}` must be an array of tables: write \
                         `[[{key}]]` (one such table per {key})"
                    ),
                ));
            }
        }
        None
    }

    /// The line of the first `key =` in the table section that holds `offset`.
    pub(super) fn first_definition(&self, key: &str, offset: usize) -> Option<usize> {
        let before = &self.text[..offset];
        let section = before
            .rmatch_indices('\n')
            .map(|(i, _)| i + 1)
            .find(|&i| self.text[i..].trim_start().starts_with('[') && i < offset)
            .unwrap_or(0);
        let chunk = &self.text[section..offset];
        let mut at = 0;
        while let Some(i) = chunk[at..].find(key) {
            let k = at + i;
            let prev = chunk[..k].chars().next_back();
            let ok_before = prev.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'));
            if ok_before && chunk[k + key.len()..].trim_start().starts_with('=') {
                return Some(self.line_of(section + k));
            }
            at = k + key.len();
        }
        None
    }

    /// An error at `loc`: with its line, or without one when an override
    /// set the value (that override is then [`Src::blamed`]).
    pub(super) fn err(&self, loc: impl Into<Loc>, message: String) -> SimError {
        let (line, blamed) = match loc.into() {
            // a scenario given as a table has no lines
            Loc::Line(_) if self.text.is_empty() => (None, None),
            Loc::Line(l) => (Some(l), None),
            Loc::Override(k) => (None, Some(k)),
        };
        self.blamed.set(blamed);
        SimError::Input { file: self.file.clone(), line, message }
    }
}
