//! Overrides by dotted paths (`--set`, sweep grids, FMU parameters) find an
//! element whose name holds dots: `contact.joint.left.fc` is the `fc` of
//! the contact named `joint.left`, even beside one named `joint`.

use friction_sim::scenario::overrides::apply;

fn scenario() -> toml::Table {
    r#"
[[body]]
name = "m"
mass = 1.0
[[contact]]
name = "joint"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 1.0 }
[[contact]]
name = "joint.left"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 1.0 }
[[spring]]
name = "k.1"
between = ["m", "ground"]
stiffness = 100.0
[solver]
t_end = 1.0
"#
    .parse()
    .unwrap()
}

fn contact_fc(t: &toml::Table, i: usize) -> f64 {
    t["contact"][i]["params"]["fc"].as_float().unwrap()
}

#[test]
fn override_of_a_contact_with_a_dotted_name_reaches_that_contact() {
    let mut t = scenario();
    apply(&mut t, "contact.joint.left.fc", 2.0).unwrap();
    assert_eq!((contact_fc(&t, 0), contact_fc(&t, 1)), (1.0, 2.0));
    // the shorter name is still found, and `params` may be written out
    apply(&mut t, "contact.joint.fc", 3.0).unwrap();
    apply(&mut t, "contact.joint.left.params.fc", 4.0).unwrap();
    assert_eq!((contact_fc(&t, 0), contact_fc(&t, 1)), (3.0, 4.0));
    assert!(t["contact"][0]["params"].get("left").is_none(), "{t:?}");
    apply(&mut t, "spring.k.1.stiffness", 50.0).unwrap();
    assert_eq!(t["spring"][0]["stiffness"].as_float(), Some(50.0));
    // the whole scenario still reads, with the values set
    let text = toml::to_string(&t).unwrap();
    friction_sim::scenario::parse(&text, "dotted.toml", std::path::Path::new(".")).unwrap();
    // `joint.right` is not a name: the path reaches `joint`, whose
    // parameter `right` the scenario's checks refuse
    let mut u = t.clone();
    apply(&mut u, "contact.joint.right.fc", 1.0).unwrap();
    let e = friction_sim::scenario::parse(
        &toml::to_string(&u).unwrap(),
        "dotted.toml",
        std::path::Path::new("."),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("right"), "{e}");
    // an unknown name is refused with the known ones
    let e = apply(&mut t, "contact.hinge.fc", 1.0).unwrap_err();
    assert!(e.contains("no contact named \"hinge\"") && e.contains("known: joint, joint.left"), "{e}");
}
