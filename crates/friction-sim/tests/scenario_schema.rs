//! The scenario reference cannot drift from the parser: its tables list
//! exactly the keys the parser accepts, `docs/scenario.md` and
//! `docs/scenario.schema.json` are the generated text, every example
//! scenario is valid under the schema, and invalid scenarios that the parser
//! refuses are refused by the schema too.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use friction_sim::scenario::parse;
use friction_sim::scenario_schema::{self, json_schema, SCHEDULES, TABLES};
use friction_sim::schedule::{Schedule, TYPES};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const REGEN: &str = "FRICTION_BLESS=1 cargo test -p friction-sim --test scenario_schema";

fn check_generated(rel: &str, want: &str) {
    let path = root().join(rel);
    if std::env::var_os("FRICTION_BLESS").is_some() {
        std::fs::write(&path, want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(have == want, "{rel} is stale; regenerate it with\n  {REGEN}");
}

#[test]
fn scenario_md_is_up_to_date() {
    check_generated("docs/scenario.md", &scenario_schema::markdown());
}

#[test]
fn scenario_schema_json_is_up_to_date() {
    let text = serde_json::to_string_pretty(&json_schema()).unwrap() + "\n";
    check_generated("docs/scenario.schema.json", &text);
}

/// The backticked names after "expected one of" in serde's unknown-field message.
fn expected_fields(msg: &str) -> BTreeSet<String> {
    let list = msg.split("expected one of").nth(1).or_else(|| msg.split("expected").nth(1)).unwrap_or("");
    list.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

fn keys_of(table: &str) -> BTreeSet<String> {
    TABLES
        .iter()
        .filter(|t| t.name == table)
        .flat_map(|t| t.keys.iter().map(|k| k.name.to_string()))
        .collect()
}

/// For every table, the documented keys are the keys the parser accepts:
/// the parser's message for an unknown key lists them.
#[test]
fn documented_keys_are_the_parsers_keys() {
    let accepted = |text: &str| -> BTreeSet<String> {
        let e = parse(text, "t.toml", Path::new(".")).unwrap_err().to_string();
        let set = expected_fields(&e);
        assert!(!set.is_empty(), "no key list in: {e}");
        set
    };
    let mut top = accepted("zzz_unknown = 1\n[solver]\nt_end = 1.0\n");
    for t in TABLES.iter().filter(|t| !t.name.is_empty()) {
        assert!(top.remove(t.name), "table {} is not in the parser's top-level keys", t.name);
    }
    assert_eq!(top, keys_of(""), "top-level keys");
    for table in ["body", "driver", "spring", "damper", "force", "contact", "gap", "stop", "structure"] {
        let got = accepted(&format!("[[{table}]]\nzzz_unknown = 1\n[solver]\nt_end = 1.0\n"));
        assert_eq!(got, keys_of(table), "[[{table}]]");
    }
    let got = accepted("[solver]\nt_end = 1.0\nzzz_unknown = 1\n");
    assert_eq!(got, keys_of("solver"), "[solver]");
    // the documented defaults are the parser's constants
    let solver = TABLES.iter().find(|t| t.name == "solver").unwrap();
    let default = |k: &str| solver.keys.iter().find(|x| x.name == k).unwrap().default;
    assert_eq!(default("max_steps"), friction_sim::scenario::DEFAULT_MAX_STEPS.to_string());
    assert_eq!(default("max_output_bytes"), friction_sim::scenario::DEFAULT_MAX_OUTPUT_BYTES.to_string());
    let s = friction_sim::scenario::SolverSettings::with_t_end(1.0);
    assert_eq!(default("rtol").parse::<f64>().unwrap(), s.rtol);
    assert_eq!(default("max_step"), "t_end / 10");
    assert_eq!(s.max_step, 0.1);
}

/// The documented schedule types are the parser's, each with the parser's
/// keys; a table with every documented key at a valid value parses.
#[test]
fn documented_schedules_are_the_parsers() {
    let names: Vec<&str> = SCHEDULES.iter().map(|s| s.name).collect();
    assert_eq!(names, TYPES);
    let dir = std::env::temp_dir().join(format!("friction-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("f.csv"), "t,value\n0,1\n1,2\n").unwrap();
    for s in SCHEDULES {
        let mut t = toml::Table::new();
        t.insert("type".into(), s.name.into());
        t.insert("zzz_unknown".into(), 1.0.into());
        let e = Schedule::from_toml(&t, "s", &dir).unwrap_err();
        let listed: BTreeSet<&str> =
            e.split("valid keys: ").nth(1).unwrap_or_else(|| panic!("{e}")).split(", ").collect();
        let mut documented: BTreeSet<&str> = s.keys.iter().map(|k| k.name).collect();
        documented.insert("type");
        assert_eq!(listed, documented, "schedule type {}", s.name);
        t.remove("zzz_unknown");
        for k in s.keys {
            let v: toml::Value = match k.name {
                "points" => toml::Value::Array(vec![0.0.into(), 1.0.into()]),
                "file" => "f.csv".into(),
                "to" | "end" => 2.0.into(),
                "duty" => 0.5.into(),
                "terms" | "factors" => {
                    let mut sine = toml::Table::new();
                    sine.insert("type".into(), "sine".into());
                    sine.insert("amplitude".into(), 1.0.into());
                    sine.insert("frequency".into(), 2.0.into());
                    toml::Value::Array(vec![sine.into(), 3.0.into()])
                }
                "inner" => {
                    let mut c = toml::Table::new();
                    c.insert("type".into(), "constant".into());
                    c.insert("value".into(), 1.0.into());
                    c.into()
                }
                "name" => "u".into(),
                // `offset` belongs to a velocity input
                "quantity" => "velocity".into(),
                _ => 1.0.into(),
            };
            t.insert(k.name.into(), v);
        }
        Schedule::from_toml(&t, "s", &dir).unwrap_or_else(|e| panic!("{}: {e}", s.name));
    }
}

fn validator() -> jsonschema::Validator {
    jsonschema::validator_for(&json_schema()).expect("the schema is a valid draft-07 schema")
}

fn to_json(text: &str) -> serde_json::Value {
    let v: toml::Value = toml::from_str(text).unwrap();
    serde_json::to_value(v).unwrap()
}

/// Every scenario in examples/ and the reference page's example are valid
/// under the schema (and load).
#[test]
fn every_example_is_valid_under_the_schema() {
    let v = validator();
    let mut n = 0;
    let mut texts = vec![("EXAMPLE".to_string(), scenario_schema::EXAMPLE.to_string())];
    for e in std::fs::read_dir(root().join("examples")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml") {
            texts.push((p.display().to_string(), std::fs::read_to_string(&p).unwrap()));
        }
    }
    for (name, text) in &texts {
        parse(text, name, &root().join("examples")).unwrap_or_else(|e| panic!("{name}: {e}"));
        let errors: Vec<String> =
            v.iter_errors(&to_json(text)).map(|e| format!("{e} at {}", e.instance_path())).collect();
        assert!(errors.is_empty(), "{name}:\n{}", errors.join("\n"));
        n += 1;
    }
    assert!(n >= 15, "{n} scenarios");
}

/// Scenarios the parser refuses, which the schema refuses too: the schema
/// is not too loose.
#[test]
fn invalid_scenarios_are_refused_by_the_schema_and_the_parser() {
    let v = validator();
    let base = "[[body]]\nname = \"m\"\nmass = 1.0\n";
    let solver = "[solver]\nt_end = 1.0\n";
    let cases = [
        ("unknown body key", format!("{base}colour = 1\n{solver}")),
        ("negative mass", format!("[[body]]\nname = \"m\"\nmass = -1.0\n{solver}")),
        ("missing [solver]", base.to_string()),
        ("missing t_end", format!("{base}[solver]\noutput_dt = 0.1\n")),
        ("unknown method", format!("{base}{solver}method = \"rk4\"\n")),
        ("rtol above 1", format!("{base}{solver}rtol = 2.0\n")),
        (
            "unknown LuGre parameter",
            format!("{base}[[contact]]\nbetween = [\"m\", \"ground\"]\nmodel = \"lugre\"\nparams = {{ sigma9 = 1.0 }}\n{solver}"),
        ),
        (
            "LuGre fc out of range",
            format!("{base}[[contact]]\nbetween = [\"m\", \"ground\"]\nmodel = \"lugre\"\nparams = {{ fc = -1.0 }}\n{solver}"),
        ),
        ("unknown model", format!("{base}[[contact]]\nbetween = [\"m\", \"ground\"]\nmodel = \"lugra\"\n{solver}")),
        ("three members", format!("{base}[[spring]]\nbetween = [\"m\", \"ground\", \"m\"]\nstiffness = 1.0\n{solver}")),
        (
            "unknown schedule type",
            format!("{base}[[force]]\non = \"m\"\nvalue = {{ type = \"sin\", amplitude = 1.0 }}\n{solver}"),
        ),
        (
            "sine without frequency",
            format!("{base}[[force]]\non = \"m\"\nvalue = {{ type = \"sine\", amplitude = 1.0 }}\n{solver}"),
        ),
        (
            "schedule key of another type",
            format!("{base}[[force]]\non = \"m\"\nvalue = {{ type = \"step\", amplitude = 1.0, frequency = 2.0 }}\n{solver}"),
        ),
        ("bad name", format!("[[body]]\nname = \"a,b\"\nmass = 1.0\n{solver}")),
        (
            "empty sum",
            format!("{base}[[force]]\non = \"m\"\nvalue = {{ type = \"sum\", terms = [] }}\n{solver}"),
        ),
        (
            "window without inner",
            format!("{base}[[force]]\non = \"m\"\nvalue = {{ type = \"window\", end = 1.0 }}\n{solver}"),
        ),
        (
            "duty of 1",
            format!("{base}[[force]]\non = \"m\"\nvalue = {{ type = \"square\", amplitude = 1.0, period = 0.1, duty = 1.0 }}\n{solver}"),
        ),
        (
            "negative period",
            format!("{base}[[force]]\non = \"m\"\nvalue = {{ type = \"sawtooth\", amplitude = 1.0, period = -0.1 }}\n{solver}"),
        ),
        (
            "unknown type inside a sum",
            format!("{base}[[force]]\non = \"m\"\nvalue = {{ type = \"sum\", terms = [{{ type = \"sin\", amplitude = 1.0 }}] }}\n{solver}"),
        ),
        (
            "a string inside a window",
            format!("{base}[[force]]\non = \"m\"\nvalue = {{ type = \"window\", end = 1.0, inner = \"x\" }}\n{solver}"),
        ),
        ("restitution above 1", format!("{base}[[stop]]\nbody = \"m\"\nmax = 1.0\nrestitution = 1.5\n{solver}")),
        (
            "gap stiffness negative",
            format!("{base}[[gap]]\nbetween = [\"ground\", \"m\"]\nstiffness = -1.0\n{solver}"),
        ),
        (
            "gap exponent below 1",
            format!("{base}[[gap]]\nbetween = [\"ground\", \"m\"]\nstiffness = 1.0\nexponent = 0.5\n{solver}"),
        ),
        (
            "gap damping negative",
            format!("{base}[[gap]]\nbetween = [\"ground\", \"m\"]\nstiffness = 1.0\ndamping = -1.0\n{solver}"),
        ),
        ("gap without stiffness", format!("{base}[[gap]]\nbetween = [\"ground\", \"m\"]\n{solver}")),
    ];
    for (what, text) in &cases {
        assert!(parse(text, "t.toml", Path::new(".")).is_err(), "the parser accepts {what}");
        assert!(!v.is_valid(&to_json(text)), "the schema accepts {what}:\n{text}");
    }
    // and the plain-number shorthand of a schedule is valid
    let ok = format!("{base}[[force]]\non = \"m\"\nvalue = 2.5\n{solver}");
    assert!(parse(&ok, "t.toml", Path::new(".")).is_ok());
    assert!(v.is_valid(&to_json(&ok)));
}
