//! Contacts that rub in a plane (bodies of dim 3 with `normal_stiffness`):
//! a puck sliding straight and one driven round a circle by a rotating
//! force against their closed forms, a puck bouncing off the floor while it
//! slides, the contact rubbing along one direction against the dim-2
//! contact, every integration method on the example, and the refusals.

use std::f64::consts::PI;
use std::path::Path;

use friction_sim::{scenario, simulate, Outcome, SimError, System};

fn parse(text: &str) -> Result<System, SimError> {
    scenario::parse(text, "plane.toml", Path::new("."))
}

fn run(text: &str) -> Outcome {
    let out = simulate(&parse(text).unwrap()).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// A puck of mass `m` of dim 3 resting on a penalty floor under its weight
/// (z at equilibrium), with velocity `v0` and `extra` forces; contact `c`.
fn puck(m: f64, kn: f64, v0: [f64; 3], contact: &str, extra: &str, solver: &str) -> String {
    let w = 9.81 * m;
    format!(
        "[[body]]\nname = \"m\"\nmass = {m}\ndim = 3\nx0 = [0.0, 0.0, {z0:e}]\nv0 = [{}, {}, {}]\n\
         [[force]]\nname = \"weight\"\non = \"m\"\ndirection = \"z\"\nvalue = {:e}\n{extra}\n\
         [[contact]]\nname = \"c\"\nbetween = [\"m\", \"ground\"]\n{contact}\nnormal_stiffness = {kn:e}\ngap = 0.0\n\
         [solver]\n{solver}\n",
        v0[0],
        v0[1],
        v0[2],
        -w,
        z0 = -w / kn,
    )
}

/// Sliding straight along (3, 4)/5 with regularised Coulomb friction
/// (`tanh` saturated at these speeds): it slows at `Fc N / m` along its
/// velocity, `s(t) = v0 t - Fc g t²/2`, with the force `Fc N` against the
/// velocity and nothing across it; the contact's work is the kinetic
/// energy lost.
#[test]
fn a_puck_sliding_in_the_plane_slows_at_fc_g_along_its_velocity() {
    let (m, kn, fc, v0) = (2.0, 1e5, 0.5, 0.5);
    let text = puck(
        m,
        kn,
        [0.6 * v0, 0.8 * v0, 0.0],
        "model = \"coulomb_tanh\"\nparams = { fc = 0.5, ktanh = 1e6 }",
        "",
        "t_end = 0.08\noutput_dt = 0.004\nrtol = 1e-10",
    );
    let out = run(&text);
    let a = fc * 9.81;
    let (t, x, y) = (out.series("t"), out.series("x.m"), out.series("y.m"));
    let (fx, fy, n) = (out.series("Fx.c"), out.series("Fy.c"), out.series("N.c"));
    let (svx, svy) = (out.series("svx.c"), out.series("svy.c"));
    for i in 0..t.len() {
        let s = v0 * t[i] - 0.5 * a * t[i] * t[i];
        assert!(
            (x[i] - 0.6 * s).abs() < 1e-12 && (y[i] - 0.8 * s).abs() < 1e-12,
            "t = {}: x {} y {}",
            t[i],
            x[i],
            y[i]
        );
        assert!((n[i] - m * 9.81).abs() < 1e-9, "t = {}: N = {}", t[i], n[i]);
        assert!((fx[i] + 0.6 * fc * n[i]).abs() < 1e-9 && (fy[i] + 0.8 * fc * n[i]).abs() < 1e-9);
        let v = v0 - a * t[i];
        assert!((svx[i] - 0.6 * v).abs() < 1e-11 && (svy[i] - 0.8 * v).abs() < 1e-11);
    }
    let te = *t.last().unwrap();
    let lost = 0.5 * m * (v0 * v0 - (v0 - a * te).powi(2));
    let work = out.energy.contacts.iter().find(|c| c.0 == "c").unwrap().1;
    assert!((work - lost).abs() < 1e-9 * lost, "work {work} J, kinetic energy lost {lost} J");
}

/// A rotating force of constant magnitude P drives the puck round a
/// circle: in the steady motion the force balances the centripetal
/// inertia and a friction μN along the tangent, `P² = (m ω² r)² + (μN)²`.
/// Started on that orbit the puck stays on it (x = r cos ωt, y = r sin ωt),
/// and the friction force is μN against the velocity at every row, in a
/// direction that turns with it; its work is `μN ω r t`.
/// The same with `coulomb` held on its friction disk: it never comes to
/// rest, so no event.
#[test]
fn a_rotating_force_drives_the_puck_round_its_circle_with_friction_mu_n_against_the_velocity() {
    let (m, kn, mu, r, f) = (1.0, 1e5, 0.3, 0.01, 5.0);
    let w = 2.0 * PI * f;
    let n = 9.81 * m;
    let (c, t) = (m * w * w * r, mu * n);
    let p = c.hypot(t);
    let (ax, ay) = ((-c).atan2(-t), t.atan2(-c));
    let sine = |name: &str, dir: &str, phase: f64| {
        format!(
            "[[force]]\nname = \"{name}\"\non = \"m\"\ndirection = \"{dir}\"\n\
             value = {{ type = \"sine\", amplitude = {p:e}, frequency = {f}, phase = {phase:e} }}\n"
        )
    };
    for model in [
        "model = \"coulomb_tanh\"\nparams = { fc = 0.3, ktanh = 1e4 }",
        "model = \"coulomb\"\nparams = { fc = 0.3 }",
    ] {
        let text = puck(
            m,
            kn,
            [0.0, w * r, 0.0],
            model,
            &(sine("px", "x", ax) + &sine("py", "y", ay)),
            "t_end = 0.5\noutput_dt = 0.005\nrtol = 1e-10",
        );
        let text = text.replace("x0 = [0.0, 0.0,", &format!("x0 = [{r:e}, 0.0,"));
        let out = run(&text);
        assert!(out.events.iter().all(|e| e.contact != "c"), "{model}: {:?}", out.events);
        let (tt, x, y) = (out.series("t"), out.series("x.m"), out.series("y.m"));
        let (fx, fy, vx, vy) =
            (out.series("Fx.c"), out.series("Fy.c"), out.series("vx.m"), out.series("vy.m"));
        let mut worst: f64 = 0.0;
        for i in 0..tt.len() {
            let ph = w * tt[i];
            worst = worst.max((x[i] - r * ph.cos()).abs().max((y[i] - r * ph.sin()).abs()));
            let v = vx[i].hypot(vy[i]);
            // μN against the velocity
            assert!((fx[i] + t * vx[i] / v).abs() < 1e-9 * t && (fy[i] + t * vy[i] / v).abs() < 1e-9 * t);
        }
        assert!(worst < 1e-7 * r, "{model}: off the circle by {worst} m (r = {r} m)");
        let te = *tt.last().unwrap();
        let work = out.energy.contacts.iter().find(|c| c.0 == "c").unwrap().1;
        assert!(
            (work - t * w * r * te).abs() < 1e-6 * work,
            "{model}: work {work} J, closed form {} J",
            t * w * r * te
        );
    }
}

/// A puck thrown onto the floor while it slides along (1, 1)/√2 (no
/// weight): in contact z is half a period of `m z'' = -kn z`, `π √(m/kn)`,
/// the friction μN slows the tangential speed by `2 μ |vz0|` along its
/// direction, and while it flies there is no load and no friction; with
/// regularised Coulomb friction and with `coulomb` held on its friction
/// disk (which never holds here, `vt > 2 μ |vz0|`: the full μN against the
/// slip at every row in contact).
#[test]
fn a_puck_bouncing_while_it_slides_stays_pi_sqrt_m_over_kn_and_loses_two_mu_vz_along_its_path() {
    let (m, kn, mu, vt, vz0, z0) = (0.5_f64, 2e4_f64, 0.3, 1.0, -1.0_f64, 0.01);
    for model in [
        "model = \"coulomb_tanh\"\nparams = { fc = 0.3, ktanh = 1e5 }",
        "model = \"coulomb\"\nparams = { fc = 0.3 }",
    ] {
        let text = format!(
            "[[body]]\nname = \"m\"\nmass = {m}\ndim = 3\nx0 = [0.0, 0.0, {z0}]\nv0 = [{e}, {e}, {vz0}]\n\
             [[contact]]\nname = \"c\"\nbetween = [\"m\", \"ground\"]\n{model}\n\
             normal_stiffness = {kn:e}\ngap = 0.0\n\
             [solver]\nt_end = 0.04\noutput_dt = 1e-4\nrtol = 1e-10\n",
            e = vt / 2f64.sqrt()
        );
        let exact = model.contains("\"coulomb\"");
        let out = run(&text);
        let ev: Vec<_> = out.events.iter().filter(|e| e.contact == "gap:c.normal").collect();
        assert_eq!(ev.len(), 2, "{model}: {:?}", out.events);
        assert!(out.events.iter().all(|e| e.contact != "c"), "{:?}", out.events);
        let contact = PI * (m / kn).sqrt();
        assert!((ev[0].t - z0 / vz0.abs()).abs() < 1e-12);
        assert!(
            (ev[1].t - ev[0].t - contact).abs() < 1e-10,
            "{model}: contact lasted {} s, closed form {contact} s",
            ev[1].t - ev[0].t
        );
        let (t, vx, vy) = (out.series("t"), out.series("vx.m"), out.series("vy.m"));
        let (fx, fy, n, state) =
            (out.series("Fx.c"), out.series("Fy.c"), out.series("N.c"), out.series("state.c"));
        for i in 0..t.len() {
            let open = t[i] < ev[0].t || t[i] > ev[1].t;
            if open {
                assert!(
                    n[i] == 0.0 && fx[i] == 0.0 && fy[i] == 0.0 && state[i] == 0.0,
                    "t = {}: flying",
                    t[i]
                );
            } else {
                assert!(n[i] >= 0.0, "the floor pulls at t = {}", t[i]);
                if exact {
                    assert!((fx[i].hypot(fy[i]) - mu * n[i]).abs() < 1e-9 * (1.0 + n[i]), "t = {}", t[i]);
                }
            }
            // the direction of the slip never turns
            assert!((vx[i] - vy[i]).abs() < 1e-12, "t = {}: vx {} vy {}", t[i], vx[i], vy[i]);
        }
        let after = vt - 2.0 * mu * vz0.abs();
        let last = vx.last().unwrap().hypot(*vy.last().unwrap());
        assert!((last - after).abs() < 1e-8, "{model}: leaves at {last} m/s, closed form {after} m/s");
    }
}

/// Rubbing along x only (nothing moves it along y), a LuGre contact in the
/// plane is the dim-2 contact of the same model: the same positions,
/// velocities, forces and loads (1.5e-10 of the amplitude at rtol 1e-12;
/// the difference shrinks with the tolerance: 2e-7 at 1e-8).
#[test]
fn rubbing_along_one_direction_the_plane_contact_is_the_line_contact() {
    let lugre = "model = \"lugre\"\nparams = { sigma0 = 2e4, sigma1 = 1.0, sigma2 = 0.1, fc = 0.3, fs = 0.4, vs = 1e-3 }";
    // the tolerances of the two runs' difference: their step sequences differ
    let solver = "t_end = 0.5\noutput_dt = 1e-3\nrtol = 1e-12\natol = { position = 1e-15, velocity = 1e-13, state = 1e-15 }";
    let shake = "[[force]]\nname = \"p\"\non = \"m\"\nvalue = { type = \"sine\", amplitude = 5.0, frequency = 8.0 }\n\
                 [[spring]]\nname = \"k\"\nbetween = [\"m\", \"ground\"]\nstiffness = 2e3\n";
    let plane = puck(1.0, 1e5, [0.0; 3], lugre, shake, solver);
    let line = plane
        .replace("dim = 3", "dim = 2")
        .replace("x0 = [0.0, 0.0,", "x0 = [0.0,")
        .replace("v0 = [0, 0, 0]", "v0 = [0, 0]")
        .replace("direction = \"z\"", "direction = \"y\"");
    assert_ne!(line, plane);
    let (a, b) = (run(&plane), run(&line));
    // the rows between steps are the method's dense output, whose error in
    // the stiff bristle (and so in the velocity and force) does not shrink
    // with the tolerance as the steps' does: 4e-9 of vx and 3e-6 of F at
    // rtol 1e-10 and 1e-12 alike, where x agrees to 1.4e-9 and 1.5e-10
    for (pa, pb, tol) in [
        ("x.m", "x.m", 1e-9),
        ("z.m", "y.m", 1e-9),
        ("N.c", "N.c", 1e-9),
        ("vx.m", "vx.m", 1e-7),
        ("Fx.c", "F.c", 2e-5),
    ] {
        let (u, v) = (a.series(pa), b.series(pb));
        let scale = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let diff = u.iter().zip(&v).fold(0.0f64, |m, (p, q)| m.max((p - q).abs()));
        assert!(diff <= tol * scale, "{pa} vs {pb}: {diff} of {scale}");
    }
    let ymax = a.series("y.m").iter().fold(0.0f64, |m, y| m.max(y.abs()));
    // the lifted law rounds across the slip: (σ1 + σ2) s against σ1 s + σ2 s
    assert!(ymax < 1e-9 * 4.7e-3, "nothing moves it along y, but y reaches {ymax} m");
    let fy = a.series("Fy.c").iter().fold(0.0f64, |m, f| m.max(f.abs()));
    // at the reversals (|v| -> 0) the slip's direction follows the rounding-
    // level vy: 5e-6 of the force there
    assert!(fy < 1e-4 * 3.18, "no force across, but Fy reaches {fy} N");
}

/// examples/spatial_joint.toml by every method: the same motion and forces
/// within the tolerance (the implicit methods through the Jacobian of the
/// plane's law, its load and its bristles).
#[test]
fn every_method_runs_the_spatial_joint_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let text = std::fs::read_to_string(root.join("spatial_joint.toml")).unwrap();
    let short = text.replace("t_end = 1.0", "t_end = 0.3").replace("rtol = 1e-8", "rtol = 1e-9");
    let reference = run(&short.replace("[solver]", "[solver]\nmethod = \"dop853\""));
    for method in ["radau5", "bdf", "esdirk34", "rodas5p", "auto"] {
        let out = run(&short.replace("[solver]", &format!("[solver]\nmethod = \"{method}\"")));
        for c in ["x.m", "y.m", "z.m", "Fx.c", "Fy.c", "N.c"].map(|c| c.replace(".c", ".j")) {
            let (u, v) = (out.series(&c), reference.series(&c));
            let scale = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            let diff = u.iter().zip(&v).fold(0.0f64, |m, (p, q)| m.max((p - q).abs()));
            assert!(diff <= 2e-4 * scale, "{method}: {c} differs from dop853's by {diff} of {scale}");
        }
    }
}

/// A contact in the plane whose model has no continuous law there, or that
/// would heat a thermal node, is refused naming the model and the reason.
#[test]
fn plane_contacts_without_a_law_or_with_heat_are_refused_with_the_reason() {
    let solver = "t_end = 0.1";
    for (contact, want) in [
        ("model = \"iwan4\"", &["model `iwan4` cannot", "per-step update", "jenkins"][..]),
        ("model = \"jenkins\"\nparams = { theta = 0.5 }", &["model `jenkins` cannot", "theta"][..]),
        ("model = \"karnopp\"", &["model `karnopp` cannot", "stick band"][..]),
        ("model = \"elasto_plastic\"", &["model `elasto_plastic` cannot", "isotropic"][..]),
        ("model = \"magic_formula\"", &["model `magic_formula` cannot", "anisotropic"][..]),
        ("model = \"dahl\"\nparams = { exponent = 2.0 }", &["model `dahl` cannot", "exponent"][..]),
    ] {
        let e = parse(&puck(1.0, 1e5, [0.0; 3], contact, "", solver)).unwrap_err().to_string();
        for w in want {
            assert!(e.contains(w), "{contact}: {e}");
        }
        assert!(e.contains("plane.toml") && e.contains("two tangential directions"), "{e}");
    }
    let heated = puck(1.0, 1e5, [0.0; 3], "model = \"lugre\"\nheat = \"pad\"", "", solver)
        + "[[thermal]]\nname = \"pad\"\ncapacity = 100.0\nT0 = 300.0\n";
    let e = parse(&heated).unwrap_err().to_string();
    assert!(e.contains("does not heat a thermal node") && e.contains("\"c\""), "{e}");
}

/// `[solver] columns` picks the plane's columns by name like any other,
/// and every column has its unit (in the run's outcome as in the scenario's
/// list of columns).
#[test]
fn the_plane_columns_are_kept_by_name_with_their_units() {
    let text = puck(
        1.0,
        1e5,
        [0.1, 0.0, 0.0],
        "model = \"lugre\"",
        "",
        "t_end = 0.01\noutput_dt = 0.005\ncolumns = [\"x.m\", \"Fy.c\", \"N.c\", \"svx.c\", \"z.c.1\"]\nstates = \"all\"",
    );
    let sys = parse(&text).unwrap();
    let out = run(&text);
    assert_eq!(out.columns, ["t", "x.m", "Fy.c", "svx.c", "N.c", "z.c.1"]);
    assert_eq!(out.units, ["s", "m", "N", "m/s", "N", "m"]);
    assert_eq!(friction_sim::units::column_units(&sys), out.units);
    let text = text.replace("columns = [\"x.m\", \"Fy.c\", \"N.c\", \"svx.c\", \"z.c.1\"]\n", "");
    let all = run(&text);
    assert_eq!(all.units, friction_sim::units::column_units(&parse(&text).unwrap()));
    assert_eq!(all.columns.len(), all.units.len());
    assert_eq!(
        &all.columns[all.columns.len() - 10..],
        ["Fx.c", "Fy.c", "sx.c", "sy.c", "svx.c", "svy.c", "N.c", "state.c", "z.c.0", "z.c.1"]
    );
}

/// The builder's `body_dim` with 3 coordinates and `normal_stiffness` make
/// the scenario's contact in a plane: the same rows, bit for bit.
#[test]
fn the_builder_makes_the_scenario_s_plane_contact() {
    let model = friction_models::build(
        "coulomb_tanh",
        &[
            ("fc".to_string(), friction_models::ParamValue::Num(0.5)),
            ("ktanh".to_string(), friction_models::ParamValue::Num(1e6)),
        ]
        .into_iter()
        .collect(),
    )
    .unwrap();
    let mut s = friction_sim::SolverSettings::with_t_end(0.08);
    s.output_dt = Some(0.004);
    s.rtol = 1e-10;
    let (m, kn) = (2.0, 1e5);
    let sys = System::builder("puck")
        .body_dim("m", m, &[0.0, 0.0, -m * 9.81 / kn], &[0.3, 0.4, 0.0])
        .force("weight", "m", -m * 9.81)
        .direction("weight", "z")
        .contact("c", ("m", "ground"), model)
        .normal_stiffness("c", kn, 0.0)
        .solver(s)
        .build()
        .unwrap();
    assert_eq!(sys.planes.len(), 1);
    let text = puck(
        m,
        kn,
        [0.3, 0.4, 0.0],
        "model = \"coulomb_tanh\"\nparams = { fc = 0.5, ktanh = 1e6 }",
        "",
        "t_end = 0.08\noutput_dt = 0.004\nrtol = 1e-10",
    );
    let (a, b) = (simulate(&sys).unwrap(), run(&text));
    assert_eq!(a.columns, b.columns);
    assert_eq!(a.rows, b.rows);
}

/// A Jenkins joint in the plane (θ = 1) under a force tracing a figure
/// of eight (x at f, y at 2f), pressed by its weight: the engine's run (the slider stuck inside
/// its disk, sliding on its rim, switching at events) against the same
/// body integrated in the test with small steps of the radial return of
/// `friction_models::update::planar` (Simo and Hughes' return mapping, the
/// per-step update of the C and Python faces); and |F| never exceeds Fs N
/// beyond the integration's tolerance.
#[test]
fn a_jenkins_joint_in_the_plane_follows_the_radial_return_integrated_step_by_step() {
    let (m, kn, kx, ky, kt, fs, f) = (1.0, 1e5, 1e4, 1.5e4, 2e4, 0.3, 10.0);
    let w = 2.0 * PI * f;
    let forces = format!(
        "[[force]]\nname = \"px\"\non = \"m\"\nvalue = {{ type = \"sine\", amplitude = 4.0, frequency = {f} }}\n\
         [[force]]\nname = \"py\"\non = \"m\"\ndirection = \"y\"\n\
         value = {{ type = \"sine\", amplitude = 3.0, frequency = {f2} }}\n\
         [[spring]]\nname = \"kx\"\nbetween = [\"m\", \"ground\"]\nstiffness = {kx}\n\
         [[spring]]\nname = \"ky\"\nbetween = [\"m\", \"ground\"]\nstiffness = {ky}\ndirection = \"y\"\n",
        f2 = 2.0 * f
    );
    let text = puck(
        m,
        kn,
        [0.0; 3],
        &format!("model = \"jenkins\"\nparams = {{ kt = {kt}, fs = {fs} }}"),
        &forces,
        // the deflection is 1.5e-5 m: its absolute tolerance well below
        "t_end = 0.3\noutput_dt = 1e-3\nrtol = 1e-10\natol = { position = 1e-12, velocity = 1e-10, state = 1e-16 }",
    );
    let out = run(&text);
    let slides = out.events.iter().filter(|e| e.contact == "c" && e.to == "sliding").count();
    let sticks = out.events.iter().filter(|e| e.contact == "c" && e.to == "stuck").count();
    assert!(slides >= 2 && sticks >= 1, "{slides} slides, {sticks} sticks: {:?}", out.events);
    let n = 9.81 * m;
    let (fx, fy) = (out.series("Fx.c"), out.series("Fy.c"));
    // sliding, |d| = r holds to the integration's tolerance
    let over = fx.iter().zip(&fy).fold(0.0f64, |m, (a, b)| m.max(a.hypot(*b) / (fs * n) - 1.0));
    assert!(over <= 1e-8, "|F| above Fs N by a relative {over:e}");
    // the reference: semi-implicit Euler with the exact radial return per step
    let model = friction_models::build(
        "jenkins",
        &[
            ("kt".to_string(), friction_models::ParamValue::Num(kt)),
            ("fs".to_string(), friction_models::ParamValue::Num(fs)),
        ]
        .into_iter()
        .collect(),
    )
    .unwrap();
    use friction_models::update::planar::{init_2d, state_len_2d, update_2d};
    let mut st = vec![0.0; state_len_2d(&model).unwrap()];
    init_2d(&model, &mut st).unwrap();
    let dt = 2e-7_f64;
    let (mut x, mut v, mut fr) = ([0.0f64; 2], [0.0f64; 2], [0.0f64; 2]);
    let t_out = out.series("t");
    let (ex, ey) = (out.series("x.m"), out.series("y.m"));
    let mut k = 0;
    let mut worst: f64 = 0.0;
    let steps = (0.3 / dt).round() as usize;
    for i in 0..=steps {
        let t = i as f64 * dt;
        while k < t_out.len() && (t_out[k] - t).abs() < 0.5 * dt {
            worst = worst.max((ex[k] - x[0]).abs()).max((ey[k] - x[1]).abs());
            k += 1;
        }
        let p = [4.0 * (w * t).sin(), 3.0 * (2.0 * w * t).sin()];
        let a = [(p[0] - kx * x[0] - fr[0]) / m, (p[1] - ky * x[1] - fr[1]) / m];
        v = [v[0] + dt * a[0], v[1] + dt * a[1]];
        x = [x[0] + dt * v[0], x[1] + dt * v[1]];
        update_2d(&model, dt, &[dt * v[0], dt * v[1]], &[n], &mut st, &mut fr).unwrap();
    }
    assert_eq!(k, t_out.len());
    let amp = ex.iter().chain(&ey).fold(0.0f64, |a, b| a.max(b.abs()));
    assert!(worst < 5e-5 * amp, "off the step-by-step reference by {worst} m of {amp} m");
    eprintln!("jenkins in the plane: {worst:e} m of {amp:e} m; {slides} slides; |F| over Fs N by {over:e}");
}
