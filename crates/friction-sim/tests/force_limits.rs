//! Stuck forces within their limits: redundant contacts (parallel contacts,
//! a contact beside a resting stop, clutch packs) carry a feasible split of
//! the load, stops never pull, a body resting against a stop does not
//! chatter, and every impact is an event. Each test is a closed form of the
//! statics or of the motion; the split rule is docs/scenario.md's
//! "Redundant contacts" (stops push first, then the minimum-norm forces
//! within each contact's capacity).

use std::path::Path;

use friction_sim::{output, scenario, simulate, Outcome};

fn run(text: &str) -> (scenario::System, Outcome) {
    let sys = scenario::parse(text, "force_limits.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    (sys, out)
}

/// The minimum-norm split of `total` (>= 0) over capacities `caps`, computed
/// independently of the engine: sort the capacities, fill the smallest first.
fn water_fill(total: f64, caps: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..caps.len()).collect();
    order.sort_by(|&a, &b| caps[a].total_cmp(&caps[b]));
    let mut out = vec![0.0; caps.len()];
    let mut left = total;
    for (k, &i) in order.iter().enumerate() {
        let share = left / (caps.len() - k) as f64;
        out[i] = share.min(caps[i]);
        left -= out[i];
    }
    out
}

/// xorshift64*: seeded numbers in [0, 1).
fn next(s: &mut u64) -> f64 {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
}

/// Issue case 1: one body on two Coulomb contacts (1.0 N and 0.2 N) pushed
/// by 0.7 N stays put; the weaker contact carries its capacity 0.2 N (not
/// 0.35 N, 175 % of it), the other the rest; the run warns that the split
/// is a rule, and decides stick/slip once (no decision per step).
#[test]
fn redundant_contacts_never_carry_more_than_their_capacity() {
    let (sys, out) = run(r#"
[[body]]
name = "m"
mass = 1.0
[[force]]
on = "m"
value = { type = "constant", value = 0.7 }
[[contact]]
name = "a"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 1.0 }
[[contact]]
name = "b"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 0.2 }
[solver]
t_end = 1.0
output_dt = 0.1
"#);
    for (a, b) in out.series("F.a").iter().zip(out.series("F.b")) {
        assert!((a + 0.5).abs() < 1e-12 && (b + 0.2).abs() < 1e-12, "F.a = {a}, F.b = {b}");
    }
    assert_eq!(out.last("x.m"), 0.0);
    assert!(out.stats.lcp_solves <= 2, "{} LCP solves", out.stats.lcp_solves);
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(out.warnings[0].contains("a, b"), "{}", out.warnings[0]);
    let summary = output::summary(&sys, &out);
    assert_eq!(summary["warnings"].as_array().unwrap().len(), 1);
}

/// 2 to 10 parallel contacts of seeded random capacities, in seeded random
/// order, under a force ramping through their summed capacity: at every
/// output row each force is the minimum-norm split within the capacities
/// (computed here by sorting), and the body breaks away exactly when the
/// ramp reaches the sum, then accelerates as (F(t) - Σ cap) / m.
#[test]
fn parallel_contacts_share_by_minimum_norm_and_break_away_at_their_summed_capacity() {
    let mut seed = 0x5eed_1234_u64;
    for n in 2..=10usize {
        let caps: Vec<f64> = (0..n).map(|_| 0.05 + next(&mut seed)).collect();
        let total: f64 = caps.iter().sum();
        let rate = 1.0;
        let mut text = String::from(
            "[[body]]\nname = \"m\"\nmass = 2.0\n[[force]]\non = \"m\"\nvalue = { type = \"ramp\", rate = 1.0 }\n",
        );
        for (i, c) in caps.iter().enumerate() {
            // half of them with the members the other way round
            let between = if i.is_multiple_of(2) { "[\"m\", \"ground\"]" } else { "[\"ground\", \"m\"]" };
            text += &format!(
                "[[contact]]\nname = \"c{i}\"\nbetween = {between}\nmodel = \"coulomb\"\nparams = {{ fc = {c} }}\n"
            );
        }
        let t_break = total / rate;
        let t_end = t_break + 1.0;
        text += &format!("[solver]\nt_end = {t_end}\noutput_dt = 0.01\nrtol = 1e-10\n");
        let (_, out) = run(&text);
        let t = out.series("t");
        let f: Vec<Vec<f64>> = (0..n).map(|i| out.series(&format!("F.c{i}"))).collect();
        for (r, &tr) in t.iter().enumerate() {
            if tr < t_break - 1e-6 {
                let want = water_fill(rate * tr, &caps);
                for i in 0..n {
                    // the force on the body opposes the push; on the ground
                    // side of a reversed contact it has the other sign
                    let sign = if i.is_multiple_of(2) { -1.0 } else { 1.0 };
                    assert!(
                        (f[i][r] - sign * want[i]).abs() < 1e-9,
                        "n = {n}, t = {tr}: F.c{i} = {}, want {}",
                        f[i][r],
                        sign * want[i]
                    );
                }
            }
            for i in 0..n {
                assert!(f[i][r].abs() <= caps[i] * (1.0 + 1e-8), "n = {n}, t = {tr}: F.c{i} = {}", f[i][r]);
            }
        }
        // every contact breaks away at once, the reversed ones backward
        let brk: Vec<_> = out.events.iter().filter(|e| e.from == "stuck").collect();
        assert_eq!(brk.len(), n, "n = {n}: {:?}", out.events);
        for e in &brk {
            let i: usize = e.contact[1..].parse().unwrap();
            assert_eq!(e.to, if i.is_multiple_of(2) { "forward" } else { "backward" }, "n = {n}: {e:?}");
        }
        assert!(brk.iter().all(|e| (e.t - t_break).abs() < 1e-8), "n = {n}: {:?}", brk);
        // after the break-away: m x'' = t - Σ cap, so x(t) = (t - t_b)³ / (6 m)
        let (x, tl) = (out.last("x.m"), out.last("t"));
        let want = (tl - t_break).powi(3) / 12.0;
        assert!((x - want).abs() < 1e-7, "n = {n}: x({tl}) = {x}, want {want}");
    }
}

/// Issue case 2: a body resting on a stop at min = 0, pulled off it by
/// +0.5 N with Coulomb fc = 1 N: the stop can only push, so the contact holds
/// it all (F.c = -0.5 N); with a spring pulling 5 N instead (fc = 10 N) the
/// contact carries -5 N. Pressed into the stop instead, the stop takes it
/// all and the contact carries nothing.
#[test]
fn a_stop_never_pulls_and_the_contact_beside_it_carries_the_pull() {
    for (load, want) in [
        ("[[force]]\non = \"m\"\nvalue = { type = \"constant\", value = 0.5 }\n", -0.5),
        ("[[force]]\non = \"m\"\nvalue = { type = \"constant\", value = -0.5 }\n", 0.0),
        ("[[spring]]\nbetween = [\"m\", \"ground\"]\nstiffness = 100.0\nlength = -0.05\n", -5.0),
    ] {
        let fc = if want == -5.0 { 10.0 } else { 1.0 };
        let (_, out) = run(&format!(
            r#"
[[body]]
name = "m"
mass = 1.0
{load}
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
params = {{ fc = {fc} }}
[[stop]]
body = "m"
min = 0.0
max = 1.0
[solver]
t_end = 1.0
output_dt = 0.1
"#
        ));
        for f in out.series("F.c") {
            assert!((f - want).abs() < 1e-12, "{load}: F.c = {f}, want {want}");
        }
        assert_eq!(out.last("x.m"), 0.0, "{load}");
        assert!(out.events.iter().all(|e| e.t == 0.0), "{load}: {:?}", out.events);
    }
}

/// A body resting on a stop, pulled off it by a ramp through the contact's
/// capacity: the contact holds (carrying the whole pull) until the pull
/// reaches fc, then the body leaves the stop and slides: x = (t - fc)³ / 6.
#[test]
fn a_body_held_beside_a_stop_leaves_it_when_the_pull_exceeds_the_contact() {
    let (_, out) = run(r#"
[[body]]
name = "m"
mass = 1.0
[[force]]
on = "m"
value = { type = "ramp", rate = 1.0 }
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 0.5 }
[[stop]]
body = "m"
min = 0.0
max = 1.0
[solver]
t_end = 1.5
output_dt = 0.05
rtol = 1e-10
"#);
    for (t, f) in out.series("t").iter().zip(out.series("F.c")) {
        let want = if *t < 0.5 { -t } else { -0.5 };
        assert!((f - want).abs() < 1e-9, "t = {t}: F.c = {f}");
    }
    let ev: Vec<_> = out.events.iter().filter(|e| e.t > 0.0).collect();
    assert!(ev.iter().all(|e| (e.t - 0.5).abs() < 1e-8), "{:?}", out.events);
    assert!(ev.iter().any(|e| e.contact == "c" && e.to == "forward"), "{:?}", ev);
    assert!(ev.iter().any(|e| e.contact == "stop:m" && e.to == "free"), "{:?}", ev);
    assert!((out.last("x.m") - 1.0 / 6.0).abs() < 1e-8, "x = {}", out.last("x.m"));
}

/// Issue case 3: a body driven into its stop by a spring (100 N/m towards
/// x = -0.5, stop at -0.1) with Coulomb friction comes to rest on the stop
/// and stays: no event after it arrives (it chattered stuck/backward once per
/// step), the stop carries the spring's 40 N, the contact nothing.
#[test]
fn a_body_pressed_against_its_stop_does_not_chatter() {
    let (_, out) = run(r#"
[[body]]
name = "m"
mass = 1.0
v0 = -1.0
[[spring]]
between = ["m", "ground"]
stiffness = 100.0
length = 0.5
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 1.0 }
[[stop]]
body = "m"
min = -0.1
max = 1.0
[solver]
t_end = 1.0
output_dt = 0.01
"#);
    let arrive = out.events.iter().find(|e| e.contact == "stop:m").expect("the stop is reached").t;
    let later: Vec<_> = out.events.iter().filter(|e| e.t > arrive).collect();
    assert!(later.is_empty(), "{later:?}");
    assert!(out.events.len() <= 3, "{:?}", out.events);
    assert_eq!(out.last("x.m"), -0.1);
    assert_eq!(out.last("v.m"), 0.0);
    assert_eq!(out.last("F.c"), 0.0);
}

/// Issue case 4: a plastic impact (restitution 0) on a stop that a spring
/// pulls the body off at once is an event, and `energy.impacts` books its
/// kinetic energy ½ m v², v² = 25 - 500 (0.15² - 0.25²) = 45 m²/s² (22.5 J).
#[test]
fn a_plastic_impact_is_an_event_even_when_the_body_leaves_at_once() {
    let (_, out) = run(r#"
[[body]]
name = "m"
mass = 1.0
v0 = -5.0
[[spring]]
between = ["m", "ground"]
stiffness = 500.0
length = 0.25
[[stop]]
body = "m"
min = -0.4
max = 1.0
restitution = 0.0
[solver]
t_end = 0.2
output_dt = 0.01
rtol = 1e-10
"#);
    let hits: Vec<_> = out.events.iter().filter(|e| e.contact == "stop:m").collect();
    assert!(!hits.is_empty(), "{:?}", out.events);
    assert_eq!(hits[0].to, "impact");
    assert!(out.stats.events_stops >= 1);
    assert!((out.energy.impacts - 22.5).abs() < 1e-6, "impacts {}", out.energy.impacts);
}

/// A clutch pack of three plates with different normal loads (capacities
/// 0.3, 0.6 and 0.9 N m with μ = 0.3) between two shafts, the input driven by
/// a torque ramp: the pack turns as one, each plate carrying the
/// minimum-norm share of the transmitted torque J_out τ / (J_in + J_out)
/// within its capacity, until that torque reaches 1.8 N m.
#[test]
fn a_clutch_pack_shares_the_torque_within_each_plates_capacity() {
    let mut text = String::from(
        r#"
[[body]]
name = "input"
kind = "rotational"
mass = 1.0
[[body]]
name = "output"
kind = "rotational"
mass = 3.0
[[force]]
on = "input"
value = { type = "ramp", rate = 1.0 }
"#,
    );
    let normals = [1.0, 2.0, 3.0];
    for (i, n) in normals.iter().enumerate() {
        text += &format!(
            "[[contact]]\nname = \"p{i}\"\nbetween = [\"input\", \"output\"]\nmodel = \"coulomb\"\nparams = {{ fc = 0.3 }}\nnormal = {{ type = \"constant\", value = {n} }}\n"
        );
    }
    text += "[solver]\nt_end = 3.0\noutput_dt = 0.05\nrtol = 1e-10\n";
    let (_, out) = run(&text);
    let caps = [0.3, 0.6, 0.9];
    // transmitted torque τ J_out / (J_in + J_out) = 0.75 t reaches 1.8 at t = 2.4
    for (r, t) in out.series("t").iter().enumerate() {
        let want = water_fill((0.75 * t).min(1.8), &caps);
        for i in 0..3 {
            let f = out.series(&format!("F.p{i}"))[r];
            if *t < 2.4 - 1e-6 {
                assert!((f + want[i]).abs() < 1e-9, "t = {t}: F.p{i} = {f}, want {}", -want[i]);
            }
            assert!(f.abs() <= caps[i] * (1.0 + 1e-8), "t = {t}: F.p{i} = {f}");
        }
    }
    let slips: Vec<_> = out.events.iter().filter(|e| e.to == "forward").collect();
    assert_eq!(slips.len(), 3, "{:?}", out.events);
    assert!(slips.iter().all(|e| (e.t - 2.4).abs() < 1e-8), "{slips:?}");
}

/// A chain of masses, each held to the ground by two contacts of different
/// capacities and joined by springs, pulled at its end by a driver: at every
/// output row, no contact carries more than its capacity, every stuck pair
/// splits by the minimum-norm rule, and slipping contacts carry their
/// sliding force.
#[test]
fn a_chain_with_a_redundant_contact_per_body_keeps_every_force_within_capacity() {
    let n = 5;
    let mut text = String::from("[[driver]]\nname = \"pull\"\nmotion = { type = \"ramp\", rate = 0.05 }\n");
    let mut caps = Vec::new();
    for i in 0..n {
        let (ca, cb) = (0.4 + 0.1 * i as f64, 0.15);
        caps.push((ca, cb));
        text += &format!("[[body]]\nname = \"m{i}\"\nmass = 1.0\n");
        text += &format!(
            "[[contact]]\nname = \"a{i}\"\nbetween = [\"m{i}\", \"ground\"]\nmodel = \"coulomb\"\nparams = {{ fc = {ca} }}\n"
        );
        text += &format!(
            "[[contact]]\nname = \"b{i}\"\nbetween = [\"ground\", \"m{i}\"]\nmodel = \"coulomb\"\nparams = {{ fc = {cb} }}\n"
        );
        let prev = if i == 0 { "pull".to_string() } else { format!("m{}", i - 1) };
        text += &format!("[[spring]]\nbetween = [\"{prev}\", \"m{i}\"]\nstiffness = 20.0\n");
    }
    text += "[solver]\nt_end = 4.0\noutput_dt = 0.01\nrtol = 1e-9\n";
    let (_, out) = run(&text);
    for (i, &(ca, cb)) in caps.iter().enumerate() {
        let fa = out.series(&format!("F.a{i}"));
        let fb = out.series(&format!("F.b{i}"));
        let v = out.series(&format!("v.m{i}"));
        for r in 0..fa.len() {
            assert!(fa[r].abs() <= ca * (1.0 + 1e-8), "a{i} row {r}: {}", fa[r]);
            assert!(fb[r].abs() <= cb * (1.0 + 1e-8), "b{i} row {r}: {}", fb[r]);
            if v[r] == 0.0 {
                // stuck: the pair carries F = fa - fb (b is reversed), split by the rule
                let total = fa[r] - fb[r];
                let want = water_fill(total.abs(), &[ca, cb]);
                assert!((fa[r].abs() - want[0]).abs() < 1e-9, "a{i} row {r}: {} want {}", fa[r], want[0]);
                assert!((fb[r].abs() - want[1]).abs() < 1e-9, "b{i} row {r}: {} want {}", fb[r], want[1]);
            }
        }
    }
    assert!(out.events.iter().any(|e| e.to == "forward"), "the chain must slip: {:?}", out.events);
}

/// Over every example: at every output row where a set-valued contact is
/// at rest (slip velocity exactly 0, which the engine keeps while stuck),
/// its force lies within N(t) times its static range: no example shows a
/// force above its capacity.
#[test]
fn no_stuck_contact_of_any_example_carries_more_than_its_capacity() {
    use friction_models::FrictionModel;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let sys = scenario::load(&path).unwrap();
        let out = simulate(&sys).unwrap();
        let t = out.series("t");
        for ct in &sys.contacts {
            let Some((lo, hi)) = ct.model.static_range(&[], &[]) else { continue };
            if ct.model.n_states() > 0 || ct.model.n_memory() > 0 {
                continue;
            }
            let (Some(fi), Some(vi)) =
                (out.col(&format!("F.{}", ct.name)), out.col(&format!("sv.{}", ct.name)))
            else {
                continue;
            };
            for (r, row) in out.rows.iter().enumerate() {
                if row[vi] != 0.0 {
                    continue;
                }
                // a row at a jump of the normal load shows the state just
                // before it: the larger of the two sides bounds it
                let n = ct.normal.value(t[r]).max(ct.normal.value(t[r] - 1e-9)).max(0.0);
                // F.NAME is -F of the model's convention
                let f = -row[fi];
                let tol = 1e-8 * (1.0 + hi.abs().max(lo.abs()) * n);
                assert!(
                    f <= hi * n + tol && f >= lo * n - tol,
                    "{}: {} at t = {}: F = {f} outside [{}, {}]",
                    path.display(),
                    ct.name,
                    t[r],
                    lo * n,
                    hi * n
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} stuck rows checked");
}
