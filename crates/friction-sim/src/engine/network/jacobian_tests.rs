//! Tests of the Jacobian: its products against differences of the
//! equations over the examples and every branch, and its pattern against
//! the arithmetic probe.

use std::path::Path;

use crate::engine::network::Engine;
use crate::scenario;

/// xorshift64*: a seeded generator without a dependency.
fn next(s: &mut u64) -> f64 {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64 - 0.5
}

/// `J v` against central differences of the right-hand side, over the
/// motion and contact-state rows, at `y`, in the modes `initial_modes`
/// picks there.
fn check(name: &str, e: &Engine<'_>, y: &mut [f64], seed: u64) {
    check_products(name, e, y, seed, false);
}

/// [`check`], or with `scaled` the force-form product
/// ([`Engine::jvp_scaled`]) against the mass rows `P` times the
/// differences (`crate::engine::network::scaled_rows`).
pub(crate) fn check_products(name: &str, e: &Engine<'_>, y: &mut [f64], seed: u64, scaled: bool) {
    e.initial_modes(y).unwrap();
    let mass = e.mass_rows();
    let n = e.n;
    let q = e.q_off;
    let mut s = seed;
    for _ in 0..5 {
        let v: Vec<f64> = (0..n).map(|_| next(&mut s)).collect();
        let mut jv = vec![0.0; n];
        if scaled {
            e.jvp_scaled(0.0, y, &v, &mut jv);
        } else {
            e.jvp(0.0, y, &v, &mut jv);
        }
        let h = 1e-7;
        let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
        let yp: Vec<f64> = y.iter().zip(&v).map(|(a, b)| a + h * b).collect();
        let ym: Vec<f64> = y.iter().zip(&v).map(|(a, b)| a - h * b).collect();
        e.rhs(0.0, &yp, &mut fp);
        e.rhs(0.0, &ym, &mut fm);
        let mut fd: Vec<f64> = (0..n).map(|i| (fp[i] - fm[i]) / (2.0 * h)).collect();
        if scaled {
            fd[q..].fill(0.0);
            mass.apply(&mut fd, &mut Vec::new());
        }
        let scale = jv[..q].iter().fold(1.0f64, |m, x| m.max(x.abs()));
        for (i, &fd) in fd.iter().enumerate().take(q) {
            assert!(
                (jv[i] - fd).abs() <= 1e-6 * scale,
                "{name}: row {i} of {q}: J v = {} but differences give {fd}",
                jv[i]
            );
        }
        assert!(jv[q..].iter().all(|&x| x == 0.0), "{name}: quadrature rows must be zero");
    }
}

#[test]
fn jacobian_products_match_differences_of_the_equations() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    for (file, seed) in [
        ("lugre_stick_slip.toml", 3),
        ("three_mass_chain.toml", 5),
        ("olsson_two_interfaces.toml", 7),
        ("andersson_sine.toml", 11),
        ("frictional_lag.toml", 13),
        ("ball_on_compliant_floor.toml", 19),
    ] {
        let sys = scenario::load(&root.join(file)).unwrap();
        let e = Engine::new(&sys);
        let mut y = e.initial_state();
        let mut s = seed;
        // a state away from rest: every sliding branch in play
        for (i, yi) in y.iter_mut().enumerate().take(e.q_off) {
            *yi += if i < 2 * e.nb { 0.3 * next(&mut s) } else { 1e-6 * next(&mut s) };
        }
        check(file, &e, &mut y, seed);
    }
}

/// A contact in a plane (bodies of dim 3) pressed into its floor, with
/// a bristle law and with a regularised map, sliding in an arbitrary
/// direction: its forces through x and y, its load through z and its
/// bristles' rates.
#[test]
fn jacobian_products_follow_a_contact_in_a_plane() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let text = std::fs::read_to_string(root.join("spatial_joint.toml")).unwrap();
    let tanh = text.replace(
        "model = \"lugre\"\nparams = { sigma0 = 2e4, sigma1 = 1.0, sigma2 = 0.0, fc = 0.3, fs = 0.4, vs = 1e-3 }",
        "model = \"coulomb_tanh\"\nparams = { fc = 0.3, ktanh = 300.0 }",
    );
    assert_ne!(tanh, text);
    let jenkins = text.replace(
        "model = \"lugre\"\nparams = { sigma0 = 2e4, sigma1 = 1.0, sigma2 = 0.0, fc = 0.3, fs = 0.4, vs = 1e-3 }",
        "model = \"jenkins\"\nparams = { kt = 2e4, fs = 0.3 }",
    );
    assert_ne!(jenkins, text);
    // Jenkins' element stuck inside its disk and sliding on its rim
    for (sliding, seed) in [(false, 37), (true, 41)] {
        let sys = scenario::parse(&jenkins, "spatial_joint.toml", &root).unwrap();
        let e = Engine::new(&sys);
        let mut y = e.initial_state();
        let mut s = seed;
        y[2] = -2e-4;
        for v in &mut y[3..6] {
            *v = 0.02 * next(&mut s);
        }
        let r = 0.3 / 2e4;
        let (dx, dy) = if sliding { (0.6 * r, 0.8 * r) } else { (0.2 * r, -0.3 * r) };
        y[6] = dx;
        y[7] = dy;
        e.disc.borrow_mut().plane_slide[0] = sliding;
        check(if sliding { "jenkins sliding" } else { "jenkins stuck" }, &e, &mut y, seed);
    }
    for (name, text, seed) in [("lugre", &text, 29), ("coulomb_tanh", &tanh, 31)] {
        let sys = scenario::parse(text, "spatial_joint.toml", &root).unwrap();
        let e = Engine::new(&sys);
        assert_eq!(e.planes.len(), 1);
        let mut y = e.initial_state();
        let mut s = seed;
        // x, y, z of the body; z into the floor; velocities of 0.01 m/s
        y[0] = 1e-3 * next(&mut s);
        y[1] = 1e-3 * next(&mut s);
        y[2] = -2e-4;
        for v in &mut y[3..6] {
            *v = 0.02 * next(&mut s);
        }
        for z in &mut y[6..e.q_off] {
            *z = 1e-5 * next(&mut s);
        }
        check(name, &e, &mut y, seed);
    }
}

/// A `coulomb` contact in a plane between two bodies of dim 3 on springs:
/// held on its friction disk (the members' x and y move with their common
/// acceleration, `Σf / Σm`, whatever the springs and the load do), and
/// sliding in an arbitrary direction (its radial map through x and y, its
/// load through z).
#[test]
fn jacobian_products_follow_a_contact_on_its_friction_disk() {
    let text = "[[body]]\nname = \"a\"\nmass = 1.0\ndim = 3\n[[body]]\nname = \"b\"\nmass = 3.0\ndim = 3\n\
                [[spring]]\nname = \"ka\"\nbetween = [\"a\", \"ground\"]\nstiffness = 500.0\ndirection = [0.6, 0.8, 0.0]\n\
                [[spring]]\nname = \"kb\"\nbetween = [\"b\", \"ground\"]\nstiffness = 300.0\ndirection = \"y\"\n\
                [[spring]]\nname = \"kbx\"\nbetween = [\"b\", \"ground\"]\nstiffness = 700.0\n\
                [[spring]]\nname = \"kz\"\nbetween = [\"b\", \"ground\"]\nstiffness = 1e4\ndirection = \"z\"\n\
                [[damper]]\nname = \"da\"\nbetween = [\"a\", \"ground\"]\ncoefficient = 2.0\ndirection = \"y\"\n\
                [[contact]]\nname = \"c\"\nbetween = [\"a\", \"b\"]\nmodel = \"coulomb\"\nparams = { fc = 0.4 }\n\
                normal_stiffness = 1e5\n[solver]\nt_end = 1.0\n";
    let sys = scenario::parse(text, "disk.toml", Path::new(".")).unwrap();
    for (held, seed) in [(true, 43), (false, 47)] {
        let e = Engine::new(&sys);
        assert_eq!(e.planes.len(), 1);
        let mut y = e.initial_state();
        let mut s = seed;
        // positions anywhere, a pressed into b; b's velocity anything, a's
        // the same when held
        for i in 0..e.nb {
            y[i] = 1e-2 * next(&mut s);
            y[e.nb + i] = 0.1 * next(&mut s);
        }
        let (a, b) = (|k: usize| k, |k: usize| 3 + k);
        y[a(2)] = y[b(2)] - 1e-4;
        if held {
            for k in 0..2 {
                y[e.nb + a(k)] = y[e.nb + b(k)];
            }
        }
        check(if held { "coulomb held" } else { "coulomb sliding" }, &e, &mut y, seed);
        assert_eq!(e.disc.borrow().plane_slide[0], !held, "the mode the check ran in");
    }
}

/// Gaps in each branch of their force law: in contact with the damping
/// force free, held at the spring force (compressing fast), released
/// (separating fast), and out of contact; between bodies, the ground
/// and a driver.
#[test]
fn jacobian_products_cover_every_branch_of_the_gaps() {
    let text = r#"
[[driver]]
name = "w"
motion = { type = "ramp", rate = 0.5, offset = 0.3 }
[[body]]
name = "a"
mass = 1.0
x0 = -0.01
v0 = 0.05
[[body]]
name = "b"
mass = 2.0
x0 = 0.09
v0 = -3.0
[[gap]]
name = "free"
between = ["ground", "a"]
stiffness = 1e3
damping = 10.0
exponent = 1.5
[[gap]]
name = "held"
between = ["a", "b"]
length = 0.2
stiffness = 500.0
damping = 30.0
[[gap]]
name = "released"
between = ["b", "ground"]
length = 0.05
stiffness = 100.0
damping = 10.0
[[gap]]
name = "open"
between = ["a", "ground"]
length = -1.0
stiffness = 100.0
damping = 10.0
[[gap]]
name = "driven"
between = ["b", "w"]
length = 0.25
stiffness = 300.0
damping = 0.1
exponent = 2.0
[solver]
t_end = 1.0
"#;
    let sys = scenario::parse(text, "t.toml", Path::new(".")).unwrap();
    let e = Engine::new(&sys);
    let mut y = e.initial_state();
    // the branches: the forces' parts tell which is in force
    let mut s = e.scr.borrow().clone();
    s.drivers_at(&sys.drivers, 0.0);
    let f: Vec<_> = (0..sys.gaps.len()).map(|k| e.gap_force(&y, &s, k)).collect();
    assert!(f[0].force > 0.0 && f[0].d_vrel != 0.0, "free: {:?}", f[0]);
    assert!(f[1].force == 2.0 * f[1].elastic && f[1].elastic > 0.0, "held: {:?}", f[1]);
    assert!(f[2].force == 0.0 && f[2].elastic > 0.0, "released: {:?}", f[2]);
    assert!(f[3].force == 0.0 && f[3].elastic == 0.0, "open: {:?}", f[3]);
    assert!(f[4].force > 0.0, "driven: {:?}", f[4]);
    check("gaps", &e, &mut y, 23);
}

/// Contacts whose normal load is a gap's force (`normal_gap`): a sliding
/// Stribeck contact and a smooth LuGre one on a floor in contact, with
/// a driver among the gap's members and a heat node on one of them.
#[test]
fn jacobian_products_follow_a_load_from_a_gap() {
    let text = r#"
[[driver]]
name = "press"
motion = { type = "ramp", rate = -0.2, offset = 0.01 }
[[body]]
name = "x"
mass = 1.0
v0 = 0.7
[[body]]
name = "y"
mass = 2.0
x0 = -2e-4
v0 = -0.05
[[body]]
name = "x2"
mass = 0.5
v0 = -0.3
[[thermal]]
name = "pad"
capacity = 10.0
T0 = 300.0
[[gap]]
name = "floor"
between = ["ground", "y"]
stiffness = 1e5
damping = 3.0
exponent = 1.5
[[gap]]
name = "top"
between = ["y", "press"]
length = 0.0105
stiffness = 2e4
damping = 5.0
[[contact]]
name = "c"
between = ["x", "ground"]
model = "stribeck"
params = { fc = 0.3, fs = 0.4, vs = 0.1, kv = 0.2 }
normal_gap = "floor"
heat = "pad"
[[contact]]
name = "l"
between = ["x2", "y"]
model = "lugre"
normal_gap = "top"
normal = 0.5
[solver]
t_end = 1.0
"#;
    let sys = scenario::parse(text, "t.toml", Path::new(".")).unwrap();
    let e = Engine::new(&sys);
    let mut y = e.initial_state();
    let mut s = e.scr.borrow().clone();
    s.drivers_at(&sys.drivers, 0.0);
    assert!(e.gap_force(&y, &s, 0).force > 0.0 && e.gap_force(&y, &s, 1).force > 0.0);
    check("normal gaps", &e, &mut y, 29);
}

/// Two bodies held by a stuck Coulomb contact move as one free cluster:
/// its acceleration is the mean of their forces, which the product
/// must follow (and a body stuck to the ground has no acceleration).
#[test]
fn jacobian_products_follow_stuck_clusters() {
    let text = r#"
[[body]]
name = "a"
mass = 1.0
[[body]]
name = "b"
mass = 3.0
[[body]]
name = "c"
mass = 2.0
[[spring]]
between = ["a", "ground"]
stiffness = 50.0
[[spring]]
between = ["b", "c"]
stiffness = 20.0
[[damper]]
between = ["b", "ground"]
coefficient = 2.0
[[contact]]
name = "ab"
between = ["a", "b"]
model = "coulomb"
params = { fc = 100.0 }
[[contact]]
name = "cg"
between = ["c", "ground"]
model = "coulomb"
params = { fc = 100.0 }
[solver]
t_end = 1.0
"#;
    let sys = scenario::parse(text, "t.toml", Path::new(".")).unwrap();
    let e = Engine::new(&sys);
    let mut y = e.initial_state();
    // a and b at rest relative to each other, c at rest on the ground
    y[0] = 0.01;
    y[1] = -0.02;
    y[2] = 0.005;
    y[e.nb] = 0.4;
    y[e.nb + 1] = 0.4;
    check("stuck clusters", &e, &mut y, 17);
    use crate::engine::outcome::Mode;
    assert_eq!(e.disc.borrow().modes, vec![Mode::Stuck, Mode::Stuck]);
}

/// The temperature rows: a sliding contact, a damper and a gap (in each
/// branch of its damping: free, held, released) heating capacities,
/// conductions among capacities and to an ambient, one element heating
/// the ambient directly, a friction coefficient following a
/// temperature; the product against differences, and the
/// structural pattern against the arithmetic probe.
#[test]
fn jacobian_products_cover_the_thermal_rows() {
    let text = r#"
[[driver]]
name = "w"
motion = { type = "ramp", rate = 0.5, offset = 0.3 }
[[body]]
name = "a"
mass = 1.0
x0 = -0.01
v0 = 0.05
[[body]]
name = "b"
mass = 2.0
x0 = 0.09
v0 = -3.0
[[body]]
name = "c"
mass = 0.5
v0 = 0.7
[[spring]]
between = ["a", "b"]
stiffness = 40.0
[[damper]]
between = ["a", "c"]
coefficient = 3.0
heat = "h2"
[[contact]]
name = "lug"
between = ["c", "ground"]
model = "lugre"
params = { sigma0 = 1e4, sigma1 = 100.0, sigma2 = 0.4, fc = 1.0, fs = { at = [[250.0, 1.8], [350.0, 1.2]] }, vs = { ref = 300.0, value = 0.01, slope = 1e-5 } }
normal = 2.0
heat = "h1"
[[contact]]
name = "cw"
between = ["a", "w"]
model = "coulomb"
params = { fc = { ref = 300.0, value = 0.7, slope = -2e-3 } }
heat = "h1"
[[contact]]
name = "cb"
between = ["b", "ground"]
model = "coulomb"
params = { fc = 0.2 }
heat = "air"
[[gap]]
name = "held"
between = ["a", "b"]
length = 0.2
stiffness = 500.0
damping = 30.0
heat = "h2"
[[gap]]
name = "free"
between = ["ground", "a"]
stiffness = 1e3
damping = 10.0
exponent = 1.5
heat = "h3"
[[gap]]
name = "released"
between = ["b", "ground"]
length = 0.05
stiffness = 100.0
damping = 10.0
heat = "h3"
[[thermal]]
name = "h1"
capacity = 2.0
T0 = 300.0
[[thermal]]
name = "h2"
capacity = 0.5
T0 = 310.0
[[thermal]]
name = "h3"
capacity = 4.0
T0 = 290.0
[[thermal]]
name = "air"
fixed = 293.15
[[conduction]]
between = ["h1", "h2"]
conductance = 0.3
[[conduction]]
between = ["air", "h2"]
conductance = 1.5
[solver]
t_end = 1.0
"#;
    let sys = scenario::parse(text, "t.toml", Path::new(".")).unwrap();
    let e = Engine::new(&sys);
    assert_eq!(e.heat.n_states, 3);
    let mut y = e.initial_state();
    let mut s = 29;
    for (i, yi) in y.iter_mut().enumerate().take(e.q_off) {
        *yi += if i < 2 * e.nb { 0.0 } else { 1e-6 * next(&mut s) };
    }
    check("thermal", &e, &mut y, 31);
    let n = e.n;
    let pattern = e.jacobian_pattern();
    for j in 0..n {
        let mut v = vec![0.0; n];
        v[j] = f64::NAN;
        let mut b = vec![0.0; n];
        e.jvp_arith(0.0, &y, &v, &mut b, true, false);
        let pa: Vec<usize> = pattern.iter().filter(|(_, c)| *c == j).map(|(r, _)| *r).collect();
        let pb: Vec<usize> = (0..n).filter(|&r| b[r].is_nan()).collect();
        assert_eq!(pa, pb, "column {j}");
    }
}

/// The structural pattern (what diffsol is given instead of probing)
/// has exactly the entries that the arithmetic product makes NaN when
/// one column is probed with NaN (the union over every mode), on every
/// example with bodies.
#[test]
fn structural_pattern_equals_the_arithmetic_probe() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let sys = scenario::load(&path).unwrap();
        let e = Engine::new(&sys);
        let mut y = e.initial_state();
        e.initial_modes(&mut y).unwrap();
        let n = e.n;
        let pattern = e.jacobian_pattern();
        for j in 0..n {
            let mut v = vec![0.0; n];
            v[j] = f64::NAN;
            let mut b = vec![0.0; n];
            e.jvp_arith(0.0, &y, &v, &mut b, true, false);
            let pa: Vec<usize> = pattern.iter().filter(|(_, c)| *c == j).map(|(r, _)| *r).collect();
            let pb: Vec<usize> = (0..n).filter(|&r| b[r].is_nan()).collect();
            assert_eq!(pa, pb, "{}: column {j}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 10, "{checked} examples");
}
