//! The bibliography's contracts: `docs/references.md` is generated from
//! [`friction_models::references`], every model's sources resolve to full
//! entries, and no file a user sees cites the project's internal source
//! documents by their number in the internal folder instead of by author
//! and year.

use std::path::{Path, PathBuf};

use friction_models::references::{self, ALL};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `docs/references.md` is the output of `references::markdown()`;
/// `FRICTION_BLESS=1` rewrites it.
#[test]
fn references_md_is_generated_from_the_module() {
    let path = root().join("docs/references.md");
    let want = references::markdown();
    if std::env::var_os("FRICTION_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/references.md is stale; regenerate it with\n  \
         FRICTION_BLESS=1 cargo test -p friction-models --test references"
    );
}

#[test]
fn keys_and_citations_are_unique_and_complete() {
    for (i, a) in ALL.iter().enumerate() {
        assert!(!a.authors.is_empty() && !a.title.is_empty() && !a.venue.is_empty(), "{a:?}");
        for b in &ALL[i + 1..] {
            assert_ne!(a.key, b.key);
            assert_ne!(a.cite, b.cite);
        }
    }
}

/// Every `;`-separated part of every model's sources names a bibliography
/// entry, so `friction models ID` can print the full reference of each.
#[test]
fn every_model_source_resolves_to_an_entry() {
    for m in friction_models::all() {
        for part in m.sources.split(';') {
            assert!(
                ALL.iter().any(|r| part.contains(r.cite)),
                "model {}: source \"{}\" cites no entry of friction_models::references",
                m.id,
                part.trim()
            );
        }
    }
}

/// The position of a reference to the internal source documents by number:
/// the word, an optional space, `_` or `-`, and a three-digit number starting
/// with 0, or the name of the internal folder (examples in the test below).
/// Random-number seeds (`seed = 42`, "seeded ChaCha") do not match.
fn seed_reference(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    if let Some(i) = lower.find(concat!("shared/", "seeds")) {
        return Some(i);
    }
    let b = lower.as_bytes();
    let mut from = 0;
    while let Some(i) = lower[from..].find("seed") {
        let at = from + i;
        let mut j = at + 4;
        if j < b.len() && matches!(b[j], b' ' | b'_' | b'-') {
            j += 1;
        }
        let digits = b[j.min(b.len())..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 3 && b[j] == b'0' {
            return Some(at);
        }
        from = at + 4;
    }
    None
}

#[test]
fn the_seed_pattern_matches_document_numbers_only() {
    // built from parts so that this file does not itself cite by number
    let w = "seed";
    let bad = [
        format!("{w} 000 eq. 19"),
        format!("S{} 003 (Sandia)", &w[1..]),
        format!("tune_{w}003.sh"),
        format!("the {w}-004 clutch"),
        format!("../shared/{w}s"),
    ];
    for bad in &bad {
        assert!(seed_reference(bad).is_some(), "{bad}");
    }
    for good in ["seed = 42", "seeded ChaCha8", "--seed 7", "seed 12345", "noise seeds"] {
        assert!(seed_reference(good).is_none(), "{good}");
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with('.') || name == "target" || name == "__pycache__" || name == "out" {
            continue;
        }
        if p.is_dir() {
            walk(&p, out);
        } else if matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("rs" | "md" | "toml" | "sh" | "py" | "pyi" | "h" | "c" | "f90" | "json" | "txt")
        ) {
            out.push(p);
        }
    }
}

/// Users do not have the project's source documents: README, docs/,
/// examples/, the crates' sources and the Python package cite papers by
/// author and year (docs/references.md), never "seed NNN".
#[test]
fn no_user_visible_file_cites_a_source_document_by_number() {
    let root = root();
    let mut files = vec![root.join("README.md")];
    for d in ["docs", "examples", "python", "crates"] {
        walk(&root.join(d), &mut files);
    }
    // the crates' tests are not shipped to users, but keep them clean too
    let mut hits = vec![];
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        for (n, line) in text.lines().enumerate() {
            // this file spells the pattern out to test it
            if f.ends_with("friction-models/tests/references.rs") {
                continue;
            }
            if seed_reference(line).is_some() {
                hits.push(format!(
                    "{}:{}: {}",
                    f.strip_prefix(&root).unwrap_or(f).display(),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "cite the paper by author and year (see docs/references.md) instead of the document number:\n{}",
        hits.join("\n")
    );
}
