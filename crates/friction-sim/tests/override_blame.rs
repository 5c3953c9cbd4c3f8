//! Overrides (`--set`, grid points, FMU parameters) edit the scenario's
//! table, which is validated once: the override to blame is the one that
//! set the key the error is at, and its message names that key and value
//! rather than a line of the file (which holds the old value).

use friction_sim::scenario::Document;
use friction_sim::sweep::parse_with_overrides;
use friction_sim::SimError;

const TEXT: &str = r#"[[body]]
name = "m"
mass = 1.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 1.0, fs = 1.0 }
[solver]
t_end = 1.0
"#;

fn dir() -> &'static std::path::Path {
    std::path::Path::new(".")
}

fn set(pairs: &[(&str, f64)]) -> Vec<(String, f64)> {
    pairs.iter().map(|(p, v)| (p.to_string(), *v)).collect()
}

#[test]
fn an_override_is_blamed_by_its_path_without_reparsing() {
    // the second of three overrides is out of range: it is blamed, with its
    // key and value, and no line (line 8 holds the file's fc = 1.0)
    let over = set(&[("body.m.mass", 2.0), ("contact.c.fc", -1.0), ("solver.t_end", 2.0)]);
    let (blame, e) = parse_with_overrides(TEXT, "s.toml", dir(), &over).unwrap_err();
    assert_eq!(blame, Some(1));
    let SimError::Input { file, line, message } = e else { panic!("not an input error") };
    assert_eq!((file.as_str(), line), ("s.toml", None));
    assert!(message.contains("`fc` = -1") && message.contains("range"), "{message}");
    // a solver key set out of range is blamed the same way
    let (blame, e) =
        parse_with_overrides(TEXT, "s.toml", dir(), &set(&[("contact.c.fc", 0.5), ("solver.t_end", -1.0)]))
            .unwrap_err();
    assert_eq!(blame, Some(1), "{e}");
    assert!(e.to_string().contains("t_end"), "{e}");
    // a path that reaches nothing is blamed at once
    let (blame, e) = parse_with_overrides(TEXT, "s.toml", dir(), &set(&[("contact.q.fc", 1.0)])).unwrap_err();
    assert_eq!(blame, Some(0));
    assert!(e.to_string().contains("no contact named \"q\""), "{e}");
    // a key the scenario does not know is blamed on its override, with the nearest key
    let (blame, e) =
        parse_with_overrides(TEXT, "s.toml", dir(), &set(&[("contact.c.fc", 0.5), ("body.m.mas", 2.0)]))
            .unwrap_err();
    assert_eq!(blame, Some(1), "{e}");
    assert!(
        e.to_string().contains("body[0]: unknown field `mas`")
            && e.to_string().contains("did you mean \"mass\""),
        "{e}"
    );
    // the file's own error, at a key no override set, keeps its line
    let bad = TEXT.replace("mass = 1.0", "mass = -1.0");
    let (blame, e) = parse_with_overrides(&bad, "s.toml", dir(), &set(&[("contact.c.fc", 0.5)])).unwrap_err();
    assert_eq!(blame, None);
    assert!(e.to_string().starts_with("s.toml:3:"), "{e}");
    // ... and an override that mends it is applied
    let sys = parse_with_overrides(&bad, "s.toml", dir(), &set(&[("body.m.mass", 3.0)])).unwrap();
    assert_eq!(sys.bodies[0].mass, 3.0);
}

#[test]
fn a_document_is_read_once_and_validated_with_each_set_of_overrides() {
    let doc = Document::read(TEXT, "s.toml").unwrap();
    for fc in [0.25, 0.5, 2.0] {
        let sys = doc.validate_with(dir(), &set(&[("contact.c.fc", fc), ("contact.c.fs", fc)])).unwrap();
        let plain = friction_sim::scenario::parse(
            &TEXT.replace("fc = 1.0, fs = 1.0", &format!("fc = {fc:?}, fs = {fc:?}")),
            "s.toml",
            dir(),
        )
        .unwrap();
        assert_eq!(format!("{:?}", sys.contacts[0].model), format!("{:?}", plain.contacts[0].model));
    }
    // the table is untouched by the overrides
    assert_eq!(doc.table()["contact"][0]["params"]["fc"].as_float(), Some(1.0));
    // an override of an integer key with a fraction is blamed by its key
    let (blame, e) = doc.validate_with(dir(), &set(&[("solver.max_steps", 10.5)])).unwrap_err();
    assert_eq!(blame, Some(0), "{e}");
}
