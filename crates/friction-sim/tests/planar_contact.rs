//! Bodies of dim 2 and contacts with a normal stiffness (`dim = 2`,
//! `direction`, `normal_stiffness`, `gap`): a puck bouncing on a penalty
//! floor against its closed form, a block pressed onto the floor against
//! the same system written with one-coordinate bodies, a spring along y,
//! the builder against the scenario, and the refusals of bad keys.

use std::path::Path;

use friction_sim::{scenario, simulate, Outcome, SimError, SolverSettings, System};

fn parse(text: &str) -> Result<System, SimError> {
    scenario::parse(text, "planar.toml", Path::new("."))
}

fn run(text: &str) -> Outcome {
    let out = simulate(&parse(text).unwrap()).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

fn col(out: &Outcome, name: &str) -> Vec<f64> {
    out.series(name)
}

/// examples/sliding_puck.toml
fn puck() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sliding_puck.toml"))
        .unwrap()
}

/// A puck of mass m thrown at a penalty floor (no gravity) with velocity
/// (vx0, vy0): in contact y is half a period of `m y'' = -kn y`, so it
/// stays `π √(m/kn)` and leaves with `-vy0`; the normal load is
/// `N = kn A sin(ω τ)`, `A = |vy0|/ω`, and Coulomb friction `μ N` against
/// the sliding slows it to `vx = vx0 - μ |vy0| (1 - cos ω τ)`, leaving
/// with `vx0 - 2 μ |vy0|`. Every row against these closed forms; the
/// floor never pulls, the friction is zero while the puck flies.
#[test]
fn a_puck_bouncing_on_a_penalty_floor_stays_pi_sqrt_m_over_kn_and_rubs_off_two_mu_vy() {
    let (m, kn, mu, vx0, vy0, y0) = (0.5_f64, 2e4_f64, 0.3, 1.0, -1.0_f64, 0.01);
    let out = run(&puck());
    let w = (kn / m).sqrt();
    let tc = y0 / vy0.abs(); // closes at y = 0
    let contact = std::f64::consts::PI / w;
    let ev: Vec<_> = out.events.iter().filter(|e| e.contact == "gap:c.normal").collect();
    assert_eq!(ev.len(), 2, "{:?}", out.events);
    assert!((ev[0].t - tc).abs() < 1e-12 && ev[0].to == "closed", "{:?}", ev[0]);
    assert!(
        (ev[1].t - ev[0].t - contact).abs() < 1e-10,
        "contact lasted {} s, closed form {contact} s",
        ev[1].t - ev[0].t
    );
    let (t, x, vx, y, vy) =
        (col(&out, "t"), col(&out, "x.m"), col(&out, "vx.m"), col(&out, "y.m"), col(&out, "vy.m"));
    let (n, f) = (col(&out, "N.c"), col(&out, "F.c"));
    let a = vy0.abs() / w;
    let mut worst = [0.0_f64; 5];
    for i in 0..t.len() {
        let tau = t[i] - tc;
        let (ye, vye, ne, vxe, xe) = if tau <= 0.0 {
            (y0 + vy0 * t[i], vy0, 0.0, vx0, vx0 * t[i])
        } else if tau < contact {
            let s = mu * vy0.abs();
            // x: the integral of vx
            let xe = vx0 * tc + (vx0 - s) * tau + s * (w * tau).sin() / w;
            (
                -a * (w * tau).sin(),
                -a * w * (w * tau).cos(),
                kn * a * (w * tau).sin(),
                vx0 - s * (1.0 - (w * tau).cos()),
                xe,
            )
        } else {
            let s = mu * vy0.abs();
            let (xl, vxl) = (vx0 * tc + (vx0 - s) * contact, vx0 - 2.0 * s);
            (vy0.abs() * (tau - contact), vy0.abs(), 0.0, vxl, xl + vxl * (tau - contact))
        };
        assert!(n[i] >= 0.0, "the floor pulled: N = {} at t = {}", n[i], t[i]);
        // Coulomb against the sliding (vx > 0 throughout): F = -μ N
        assert!(
            (f[i] + mu * n[i]).abs() <= 1e-12 * (1.0 + n[i]),
            "F = {} at N = {} (t = {})",
            f[i],
            n[i],
            t[i]
        );
        for (k, (got, want, scale)) in
            [(y[i], ye, a), (vy[i], vye, vy0.abs()), (n[i], ne, kn * a), (vx[i], vxe, vx0), (x[i], xe, 0.05)]
                .into_iter()
                .enumerate()
        {
            worst[k] = worst[k].max((got - want).abs() / scale);
        }
    }
    eprintln!("worst relative errors (y, vy, N, vx, x): {worst:?}");
    assert!(worst.iter().all(|&e| e < 1e-8), "{worst:?}");
    let last = t.len() - 1;
    assert!((vx[last] - (vx0 - 2.0 * mu * vy0.abs())).abs() < 1e-8, "vx after = {}", vx[last]);
    assert!((vy[last] + vy0).abs() < 1e-8, "vy after = {}", vy[last]);
}

/// A block of dim 2 pressed onto the floor by its weight and pushed along
/// x by a rising force is the same system as two one-coordinate bodies,
/// a gap between the ground and the second and a contact whose
/// `normal_gap` is that gap (tests/normal_gap.rs): every column equal,
/// bit for bit, and the break-away at `Fs m g / r`.
#[test]
fn a_body_of_dim_2_on_a_floor_is_the_one_coordinate_bodies_with_a_normal_gap_bit_for_bit() {
    let (m, g, c, r) = (2.0, 9.81, 1e5, 2.0);
    let tail = r#"
[[contact]]
name = "c"
between = ["block", "ground"]
model = "coulomb"
params = { fc = 0.3, fs = 0.4 }
NORMAL
[solver]
t_end = 5.0
output_dt = 0.01
"#;
    let planar = format!(
        r#"
[[body]]
name = "block"
mass = {m}
dim = 2
x0 = [0.0, {y0:e}]
[[force]]
name = "weight"
on = "block"
direction = "y"
value = {w}
[[force]]
name = "push"
on = "block"
value = {{ type = "ramp", rate = {r} }}
{t}"#,
        y0 = -m * g / c,
        w = -m * g,
        t = tail.replace("NORMAL", &format!("normal_stiffness = {c:e}\ngap = 0.0"))
    );
    let split = format!(
        r#"
[[body]]
name = "block"
mass = {m}
[[body]]
name = "block_y"
mass = {m}
x0 = {y0:e}
[[force]]
name = "weight"
on = "block_y"
value = {w}
[[force]]
name = "push"
on = "block"
value = {{ type = "ramp", rate = {r} }}
[[gap]]
name = "floor"
between = ["ground", "block_y"]
stiffness = {c:e}
{t}"#,
        y0 = -m * g / c,
        w = -m * g,
        t = tail.replace("NORMAL", "normal_gap = \"floor\"")
    );
    let (a, b) = (run(&planar), run(&split));
    for (ca, cb) in [
        ("x.block", "x.block"),
        ("vx.block", "v.block"),
        ("y.block", "x.block_y"),
        ("vy.block", "v.block_y"),
        ("F.c", "F.c"),
        ("N.c", "N.c"),
        ("F.c.normal", "F.floor"),
    ] {
        assert_eq!(col(&a, ca), col(&b, cb), "{ca} against {cb}");
    }
    let t_star = 0.4 * m * g / r;
    let slide = a.events.iter().find(|e| e.contact == "c" && e.from == "stuck").expect("a break-away");
    assert!((slide.t - t_star).abs() < 1e-8 * t_star, "break-away at {} s, Fs m g / r = {t_star} s", slide.t);
}

/// A spring along y (`direction = "y"`) moves only the y of a body of
/// dim 2: `y = y0 cos(√(k/m) t)`, x and vx untouched.
#[test]
fn a_spring_along_y_moves_only_the_y_of_a_body_of_dim_2() {
    let out = run(r#"
[[body]]
name = "m"
mass = 2.0
dim = 2
x0 = [0.5, 0.1]
v0 = [0.2, 0.0]
[[spring]]
between = ["m", "ground"]
stiffness = 50.0
direction = "y"
[solver]
t_end = 1.0
output_dt = 0.01
rtol = 1e-10
atol = 1e-12
"#);
    let (t, x, y) = (col(&out, "t"), col(&out, "x.m"), col(&out, "y.m"));
    let w = (50.0_f64 / 2.0).sqrt();
    for i in 0..t.len() {
        assert!((y[i] - 0.1 * (w * t[i]).cos()).abs() < 1e-8, "y = {} at t = {}", y[i], t[i]);
        assert!((x[i] - 0.5 - 0.2 * t[i]).abs() < 1e-12, "x = {} at t = {}", x[i], t[i]);
    }
    let units = friction_sim::units::column_units(&parse(&puck()).unwrap());
    let cols = friction_sim::engine::columns(&parse(&puck()).unwrap());
    let unit = |c: &str| units[cols.iter().position(|x| x == c).unwrap()].clone();
    assert_eq!((unit("y.m"), unit("vy.m"), unit("N.c")), ("m".into(), "m/s".into(), "N".into()));
}

/// The builder's `body_dim` and `normal_stiffness` make the scenario's
/// system: the same puck, the same rows.
#[test]
fn the_builder_s_body_dim_and_normal_stiffness_run_the_scenario_s_puck() {
    let model = friction_models::build(
        "coulomb",
        &[("fc".to_string(), friction_models::ParamValue::Num(0.3))].into_iter().collect(),
    )
    .unwrap();
    let mut s = SolverSettings::with_t_end(0.05);
    s.output_dt = Some(1e-4);
    s.rtol = 1e-9;
    let sys = System::builder("puck")
        .body_dim("m", 0.5, &[0.0, 0.01], &[1.0, -1.0])
        .contact("c", ("m", "ground"), model)
        .normal_stiffness("c", 2e4, 0.0)
        .solver(s)
        .build()
        .unwrap();
    let (a, b) = (simulate(&sys).unwrap(), run(&puck()));
    assert_eq!(a.columns, b.columns);
    assert_eq!(a.rows, b.rows);
}

fn refused(text: &str) -> String {
    match parse(text) {
        Err(SimError::Input { message, line, .. }) => format!("line {line:?}: {message}"),
        Err(e) => panic!("refused with another error: {e}"),
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

/// Bad keys are refused with the key, the value, the valid range and the
/// line: `dim = 4`, `x0` of the wrong length, an unknown `direction`, `y`
/// of a body without `dim`, a negative `normal_stiffness`, `gap` alone,
/// `normal_stiffness` between one-coordinate members, a contact between
/// bodies of dim 3 with `karnopp` (its stick band has no form on the
/// friction disk), an
/// inclined spring's zero or non-numeric direction and one whose vector
/// does not match its body's dim, a rotational body of dim 2, and
/// `normal_stiffness` beside `normal_gap`.
#[test]
fn bad_dim_direction_and_normal_keys_are_refused_naming_key_value_and_range() {
    let body = |extra: &str| format!("[[body]]\nname = \"m\"\nmass = 1.0\n{extra}\n");
    let solver = "[solver]\nt_end = 1.0\n";
    let contact = |extra: &str| {
        format!("[[contact]]\nname = \"c\"\nbetween = [\"m\", \"ground\"]\nmodel = \"coulomb\"\n{extra}\n")
    };
    let spring = |dir: &str| {
        format!(
            "[[spring]]\nname = \"k\"\nbetween = [\"m\", \"ground\"]\nstiffness = 1.0\ndirection = {dir}\n"
        )
    };
    let cases: Vec<(String, &[&str])> = vec![
        (format!("{}{solver}", body("dim = 4")), &["`dim` = 4", "valid values 1, 2, 3", "line Some(4)"]),
        (format!("{}{solver}", body("dim = 2\nx0 = [1.0]")), &["`x0`", "a list of 2 numbers"]),
        (format!("{}{solver}", body("dim = 2\nv0 = 1.0")), &["`v0` = 1.0", "a list of 2 numbers"]),
        (
            format!("{}[[force]]\non = \"m\"\nvalue = 1.0\ndirection = \"w\"\n{solver}", body("dim = 2")),
            &["`direction` = \"w\"", "valid values \"x\", \"y\" or \"z\"", "line Some("],
        ),
        (
            format!("{}[[force]]\non = \"m\"\nvalue = 1.0\ndirection = \"y\"\n{solver}", body("")),
            &["`direction` = \"y\"", "moves along x only", "dim = 2"],
        ),
        (
            format!("{}[[force]]\non = \"m\"\nvalue = 1.0\ndirection = \"z\"\n{solver}", body("dim = 2")),
            &["`direction` = \"z\"", "has dim = 2", "valid values \"x\" or \"y\""],
        ),
        (
            format!("{}{}{solver}", body("dim = 2"), contact("normal_stiffness = -1e4")),
            &["`normal_stiffness` = -10000", "valid range (0, inf)"],
        ),
        (format!("{}{}{solver}", body("dim = 2"), contact("gap = 0.1")), &["`gap`", "give both"]),
        (format!("{}{}{solver}", body(""), contact("normal_stiffness = 1e4")), &["normal coordinate", "dim = 2"]),
        (
            format!("{}{}{solver}", body("dim = 3"), contact("normal_stiffness = 1e4"))
                .replace("\"coulomb\"", "\"karnopp\""),
            &["two tangential directions", "model `karnopp` cannot", "stick band", "coulomb"],
        ),
        (
            format!("{}{}{solver}", body("dim = 2"), spring("[0.0, 0.0]")),
            &["`direction` = [0.0, 0.0] is not valid", "not all zero", "line Some("],
        ),
        (format!("{}{}{solver}", body("dim = 2"), spring("true")), &["`direction` = true", "a vector of 2 or 3"]),
        (format!("{}{}{solver}", body(""), spring("[1.0, 1.0]")), &["has 2 components", "has dim = 1"]),
        (format!("{}{}{solver}", body("dim = 2"), spring("[1, 1, 1]")), &["has 3 components", "has dim = 2"]),
        (
            format!("{}{solver}", body("dim = 2\nkind = \"rotational\"")),
            &["rotational body has one coordinate"],
        ),
        (
            format!(
                "{}[[gap]]\nname = \"g\"\nbetween = [\"ground\", \"m\"]\nstiffness = 1.0\ndirection = \"y\"\n{}{solver}",
                body("dim = 2"),
                contact("normal_stiffness = 1e4\nnormal_gap = \"g\"")
            ),
            &["either by `normal_stiffness`", "not both"],
        ),
    ];
    for (text, wants) in cases {
        let msg = refused(&text);
        for w in wants {
            assert!(msg.contains(w), "message {msg:?} lacks {w:?} for\n{text}");
        }
    }
}

/// A Jenkins element (`kt`, slip force `fs` at N = 1) between the ground and
/// a point moved as `u = X sin(ω t)`, under the load `N(t) = N0 + N1
/// sin(ω t + φ)`: the element law integrated directly in this test (the
/// slider `w` a play operator of half-width `fs/kt` on u, sampled 10^6
/// times a period) gives `N kt (u - w)`, which every row of the engine's
/// force equals to 1e-6 of `N0 fs`, through slips while the load falls and
/// while it rises.
#[test]
fn a_jenkins_joint_under_a_varying_normal_load_follows_its_element_law_integrated_directly() {
    let (x, f, kt, fs, n0, n1, phi) = (2e-4_f64, 5.0_f64, 1e4_f64, 1.0_f64, 10.0_f64, 4.0_f64, 0.7_f64);
    let text = format!(
        r#"
[[driver]]
name = "u"
motion = {{ type = "sine", amplitude = {x:e}, frequency = {f} }}
[[contact]]
name = "c"
between = ["u", "ground"]
model = "jenkins"
params = {{ kt = {kt:e}, fs = {fs} }}
normal = {{ type = "sine", amplitude = {n1}, frequency = {f}, phase = {phi}, offset = {n0} }}
[solver]
t_end = 0.6
output_dt = 1e-3
rtol = 1e-10
"#
    );
    let out = run(&text);
    let (t, force) = (col(&out, "t"), col(&out, "F.c"));
    let w_ = 2.0 * std::f64::consts::PI * f;
    let r = fs / kt;
    let per_row = 2000; // 10^6 samples per period of 0.2 s at rows of 1 ms
    let (mut w, mut worst) = (0.0_f64, 0.0_f64);
    for i in 0..t.len() {
        if i > 0 {
            for k in 1..=per_row {
                let tk = t[i - 1] + (t[i] - t[i - 1]) * k as f64 / per_row as f64;
                let u = x * (w_ * tk).sin();
                w = w.clamp(u - r, u + r);
            }
        }
        let u = x * (w_ * t[i]).sin();
        let n = n0 + n1 * (w_ * t[i] + phi).sin();
        let want = -n * kt * (u - w);
        worst = worst.max((force[i] - want).abs());
    }
    eprintln!("worst |F - N kt (u - w)| = {worst:e} N");
    assert!(worst < 1e-6 * n0 * fs, "worst {worst:e} N");
    // it slipped: u's amplitude is twice the element's stick range
    assert!(x > 1.5 * r);
}

/// A body of dim 2 (m = 2 kg) held to the ground by one inclined spring
/// (k = 800 N/m along [3, 4], length L = 0.02 m) and thrown: along the
/// unit vector e = (0.6, 0.8) it oscillates about e·x = -L at √(k/m),
/// `e·x + L = p0 cos ωt + (e·v0)/ω sin ωt`; across it (e⊥ = (-0.8, 0.6)) it
/// drifts at its initial speed. Every row of x, y, vx and vy against that
/// closed form to 1e-9 m (m/s).
#[test]
fn an_inclined_spring_oscillates_its_body_along_its_direction_and_lets_it_drift_across() {
    let (m, k, l) = (2.0_f64, 800.0_f64, 0.02_f64);
    let (x0, v0) = ([0.1_f64, 0.05_f64], [0.2_f64, -0.1_f64]);
    let out = run(&format!(
        r#"name = "tilted"
[[body]]
name = "m"
mass = {m}
dim = 2
x0 = [{}, {}]
v0 = [{}, {}]
[[spring]]
name = "k"
between = ["ground", "m"]
stiffness = {k}
length = {l}
direction = [3, 4]
[solver]
t_end = 1.0
output_dt = 0.01
rtol = 1e-11
atol = 1e-13
"#,
        x0[0], x0[1], v0[0], v0[1]
    ));
    let (e, n) = ([0.6, 0.8], [-0.8, 0.6]);
    let dot = |a: [f64; 2], b: [f64; 2]| a[0] * b[0] + a[1] * b[1];
    let w = (k / m).sqrt();
    let (p0, pv, q0, qv) = (dot(e, x0) - l, dot(e, v0), dot(n, x0), dot(n, v0));
    let (t, x, y, vx, vy) =
        (col(&out, "t"), col(&out, "x.m"), col(&out, "y.m"), col(&out, "vx.m"), col(&out, "vy.m"));
    let mut worst = 0.0_f64;
    for i in 0..t.len() {
        let (p, dp) = (
            p0 * (w * t[i]).cos() + pv / w * (w * t[i]).sin(),
            -p0 * w * (w * t[i]).sin() + pv * (w * t[i]).cos(),
        );
        let (q, dq) = (q0 + qv * t[i], qv);
        let want = [
            (p + l) * e[0] + q * n[0],
            (p + l) * e[1] + q * n[1],
            dp * e[0] + dq * n[0],
            dp * e[1] + dq * n[1],
        ];
        for (got, want) in [x[i], y[i], vx[i], vy[i]].into_iter().zip(want) {
            worst = worst.max((got - want).abs());
        }
    }
    eprintln!("inclined spring: worst {worst:e} over {} rows", t.len());
    assert!(t.len() > 100 && worst < 1e-9, "worst {worst:e}");
}

/// An inclined spring along [1, 0] is the spring along x: the same run,
/// every column bit for bit (a body of dim 2 on a floor with friction,
/// pulled by the spring and forced along x and y).
#[test]
fn an_inclined_spring_along_x_is_the_spring_along_x_bit_for_bit() {
    let text = |dir: &str| {
        format!(
            r#"name = "along"
[[body]]
name = "m"
mass = 1.0
dim = 2
x0 = [0.01, 0.0]
[[spring]]
name = "k"
between = ["m", "ground"]
stiffness = 2e3
length = 0.005
direction = {dir}
[[spring]]
between = ["m", "ground"]
stiffness = 1e3
direction = "y"
[[force]]
on = "m"
value = {{ type = "sine", amplitude = 8.0, frequency = 5.0 }}
[[force]]
on = "m"
direction = "y"
value = {{ type = "sine", amplitude = 3.0, frequency = 3.0, offset = -5.0 }}
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
params = {{ fc = 0.3, fs = 0.4 }}
normal_stiffness = 1e4
gap = 0.0
[solver]
t_end = 1.0
"#
        )
    };
    let (a, b) = (run(&text("\"x\"")), run(&text("[1.0, 0.0]")));
    assert_eq!(a.columns, b.columns);
    assert!(a.events.len() > 2, "{:?}", a.events);
    assert_eq!(a.events.len(), b.events.len());
    for c in &a.columns {
        let (ca, cb) = (col(&a, c), col(&b, c));
        assert!(ca.iter().zip(&cb).all(|(p, q)| p.to_bits() == q.to_bits()), "column {c} differs");
    }
}
