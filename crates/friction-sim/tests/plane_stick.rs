//! Set-valued contacts in a plane held exactly on their friction disk
//! (`coulomb`, `stribeck` between bodies of dim 3), against closed forms: a
//! puck sliding to rest along a skew direction and staying there, a puck
//! held under a growing skew force that breaks away at `Fs N / k` and then
//! follows the cubic of a constant net force, two bodies held together
//! that share the force by their masses until the upper one slips; and the
//! refusals (its bounce while it slides and the circle of a rotating force
//! are `plane_contact.rs`'s, with the regularised map).

use std::f64::consts::PI;
use std::path::Path;

use friction_sim::{scenario, simulate, Outcome, SimError, System};

const G: f64 = 9.81;

fn parse(text: &str) -> Result<System, SimError> {
    scenario::parse(text, "disk.toml", Path::new("."))
}

fn run(text: &str) -> Outcome {
    let out = simulate(&parse(text).unwrap()).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// A puck of mass `m` of dim 3 resting on a penalty floor under its weight
/// (z at equilibrium, so `N = m g`), velocity `v0`, `extra` elements;
/// contact `c` with `model`.
fn puck(m: f64, v0: [f64; 2], model: &str, extra: &str, solver: &str) -> String {
    let (w, kn) = (G * m, 1e6);
    format!(
        "[[body]]\nname = \"m\"\nmass = {m}\ndim = 3\nx0 = [0.0, 0.0, {z0:e}]\nv0 = [{}, {}, 0.0]\n\
         [[force]]\nname = \"weight\"\non = \"m\"\ndirection = \"z\"\nvalue = {:e}\n{extra}\n\
         [[contact]]\nname = \"c\"\nbetween = [\"m\", \"ground\"]\n{model}\nnormal_stiffness = {kn:e}\ngap = 0.0\n\
         [solver]\n{solver}\n",
        v0[0],
        v0[1],
        -w,
        z0 = -w / kn,
    )
}

/// A force on `on` along `dir` with schedule `value`.
fn force(name: &str, on: &str, dir: &str, value: &str) -> String {
    format!("[[force]]\nname = \"{name}\"\non = \"{on}\"\ndirection = \"{dir}\"\nvalue = {value}\n")
}

fn event_times(out: &Outcome, from: &str, to: &str) -> Vec<f64> {
    out.events.iter().filter(|e| e.contact == "c" && e.from == from && e.to == to).map(|e| e.t).collect()
}

/// Sliding along (3, 4)/5 with `coulomb`: it slows at `μ g` along its
/// velocity, `s(t) = v0 t - μ g t²/2`, arrives at rest at `t* = v0/(μ g)`
/// (one event), and then stays exactly where it stopped with no force: no
/// creep, no chatter.
#[test]
fn a_coulomb_puck_sliding_in_the_plane_stops_at_v0_over_mu_g_and_stays_exactly_at_rest() {
    let (m, mu, v0) = (2.0, 0.5, 0.5);
    let e = [0.6, 0.8];
    let text = puck(
        m,
        [e[0] * v0, e[1] * v0],
        "model = \"coulomb\"\nparams = { fc = 0.5 }",
        "",
        "t_end = 0.3\noutput_dt = 0.002\nrtol = 1e-9",
    );
    let out = run(&text);
    let a = mu * G;
    let ts = v0 / a;
    let arrivals = event_times(&out, "sliding", "stuck");
    assert_eq!(arrivals.len(), 1, "{:?}", out.events);
    assert!((arrivals[0] - ts).abs() < 1e-9 * ts, "arrival at {} s, closed form {ts} s", arrivals[0]);
    assert!(event_times(&out, "stuck", "sliding").is_empty(), "{:?}", out.events);
    let (t, x, y) = (out.series("t"), out.series("x.m"), out.series("y.m"));
    let (vx, vy) = (out.series("vx.m"), out.series("vy.m"));
    let (fx, fy, n, st) = (out.series("Fx.c"), out.series("Fy.c"), out.series("N.c"), out.series("state.c"));
    let s_end = v0 * v0 / (2.0 * a);
    let mut rows_at_rest = 0;
    for i in 0..t.len() {
        assert!((n[i] - m * G).abs() < 1e-9 * m * G, "N {} at {} s", n[i], t[i]);
        if t[i] < ts * (1.0 - 1e-9) {
            let s = v0 * t[i] - a * t[i] * t[i] / 2.0;
            assert!(
                (x[i] - e[0] * s).abs() < 1e-9 && (y[i] - e[1] * s).abs() < 1e-9,
                "x {} y {} at {}",
                x[i],
                y[i],
                t[i]
            );
            // μN on the puck against its velocity
            assert!((fx[i] + mu * n[i] * e[0]).abs() < 1e-9 && (fy[i] + mu * n[i] * e[1]).abs() < 1e-9);
            assert_eq!(st[i], 2.0, "sliding at {} s", t[i]);
        } else if t[i] > ts * (1.0 + 1e-9) {
            rows_at_rest += 1;
            assert!((x[i] - e[0] * s_end).abs() < 1e-9 && (y[i] - e[1] * s_end).abs() < 1e-9);
            assert!(
                vx[i].abs() < 1e-14 && vy[i].abs() < 1e-14,
                "creep {} {} m/s at {} s",
                vx[i],
                vy[i],
                t[i]
            );
            assert!(fx[i].abs() < 1e-12 && fy[i].abs() < 1e-12, "force {} {} N at rest", fx[i], fy[i]);
            assert_eq!(st[i], 1.0, "stuck at {} s", t[i]);
        }
    }
    assert!(rows_at_rest > 50, "{rows_at_rest}");
    // the rest is exact: the last row where the puck stopped
    let last = t.len() - 1;
    assert!(
        (x[last] - e[0] * s_end).abs() < 1e-9 && (y[last] - e[1] * s_end).abs() < 1e-9,
        "rest at ({}, {}), closed form {s_end} along (0.6, 0.8)",
        x[last],
        y[last]
    );
    // its work is the kinetic energy lost
    let work = out.energy.contacts.iter().find(|c| c.0 == "c").unwrap().1;
    let ke = 0.5 * m * v0 * v0;
    assert!((work.abs() - ke).abs() < 1e-7 * ke, "work {work} J, kinetic energy {ke} J");
}

/// Held under a force growing at `k` along a skew direction φ, the puck
/// does not move while `k t <= Fs N` (its force is exactly the load's
/// opposite), breaks away at `t_b = Fs N / k` (with `coulomb`, Fs = Fc) and
/// then, under the net force `k (t - t_b)` along φ, follows
/// `s = k (t - t_b)³ / (6 m)`.
#[test]
fn a_puck_held_under_a_growing_skew_force_breaks_away_at_fs_n_over_k_and_follows_the_cubic() {
    let (m, mu, k, phi) = (1.5, 0.4, 20.0, 2.2_f64);
    let (c, s) = (phi.cos(), phi.sin());
    let extra = force("px", "m", "x", &format!("{{ type = \"ramp\", rate = {:e} }}", k * c))
        + &force("py", "m", "y", &format!("{{ type = \"ramp\", rate = {:e} }}", k * s));
    let text = puck(
        m,
        [0.0, 0.0],
        "model = \"coulomb\"\nparams = { fc = 0.4 }",
        &extra,
        "t_end = 0.6\noutput_dt = 0.005\nrtol = 1e-10\natol = 1e-12",
    );
    let out = run(&text);
    let n = m * G;
    let tb = mu * n / k;
    let br = event_times(&out, "stuck", "sliding");
    assert_eq!(br.len(), 1, "{:?}", out.events);
    assert!((br[0] - tb).abs() < 3e-9 * tb, "break-away at {} s, closed form {tb} s", br[0]);
    let (t, x, y) = (out.series("t"), out.series("x.m"), out.series("y.m"));
    let (fx, fy) = (out.series("Fx.c"), out.series("Fy.c"));
    let mut worst: f64 = 0.0;
    let mut held = 0;
    for i in 0..t.len() {
        if t[i] < tb * (1.0 - 1e-9) {
            held += 1;
            assert!(x[i] == 0.0 && y[i] == 0.0, "moved to ({}, {}) at {} s while held", x[i], y[i], t[i]);
            let p = k * t[i];
            assert!(
                (fx[i] + p * c).abs() < 1e-12 * (1.0 + p) && (fy[i] + p * s).abs() < 1e-12 * (1.0 + p),
                "{} {} {} {} at {}",
                fx[i],
                -p * c,
                fy[i],
                -p * s,
                t[i]
            );
        } else if t[i] > tb * (1.0 + 1e-9) {
            let d = k * (t[i] - tb).powi(3) / (6.0 * m);
            worst = worst.max((x[i] - d * c).abs().max((y[i] - d * s).abs()) / (1.0 + d));
            // μN against the slip at every row; the slip along the pull (its
            // error across the pull is the velocity tolerance's)
            let (vx, vy) = (out.series("vx.m")[i], out.series("vy.m")[i]);
            let v = vx.hypot(vy);
            assert!((fx[i] + mu * n * vx / v).abs() < 1e-9 && (fy[i] + mu * n * vy / v).abs() < 1e-9);
            assert!(
                (vx * s - vy * c).abs() < 1e-8,
                "slip across the pull {} m/s at {} s",
                vx * s - vy * c,
                t[i]
            );
        }
    }
    assert!(held > 20, "{held}");
    assert!(worst < 1e-8, "off the cubic by {worst}");
}

/// Block A (mass `ma`) pressed by `W` onto block B (mass `mb`), no other
/// friction, pulled by `k t` along φ: held together they move as one,
/// `s = k t³ / (6 (ma + mb))`, the contact carrying `k t mb / (ma + mb)`
/// (on A, against the pull); A slips where that reaches `μ W`, at
/// `t_b = μ W (ma + mb) / (k mb)`, and B's momentum then grows by `μ W`
/// per second along φ.
#[test]
fn two_blocks_held_on_the_disk_move_as_one_and_share_the_pull_by_their_masses() {
    let (ma, mb, mu, w, k, phi) = (1.0, 3.0, 0.3, 20.0, 30.0, 0.7_f64);
    let kn = 1e6;
    let (c, s) = (phi.cos(), phi.sin());
    let text = format!(
        "[[body]]\nname = \"a\"\nmass = {ma}\ndim = 3\nx0 = [0.0, 0.0, {za:e}]\n\
         [[body]]\nname = \"b\"\nmass = {mb}\ndim = 3\n\
         {press}{react}{px}{py}\
         [[contact]]\nname = \"c\"\nbetween = [\"a\", \"b\"]\nmodel = \"coulomb\"\nparams = {{ fc = {mu} }}\n\
         normal_stiffness = {kn:e}\ngap = 0.0\n\
         [solver]\nt_end = 0.5\noutput_dt = 0.005\nrtol = 1e-10\natol = 1e-12\n",
        za = -w / kn,
        press = force("w", "a", "z", &format!("{:e}", -w)),
        react = force("r", "b", "z", &format!("{w:e}")),
        px = force("px", "a", "x", &format!("{{ type = \"ramp\", rate = {:e} }}", k * c)),
        py = force("py", "a", "y", &format!("{{ type = \"ramp\", rate = {:e} }}", k * s)),
    );
    let out = run(&text);
    let mt = ma + mb;
    let tb = mu * w * mt / (k * mb);
    let br = event_times(&out, "stuck", "sliding");
    assert_eq!(br.len(), 1, "{:?}", out.events);
    assert!((br[0] - tb).abs() < 3e-9 * tb, "slip at {} s, closed form {tb} s", br[0]);
    let (t, xa, ya, xb) = (out.series("t"), out.series("x.a"), out.series("y.a"), out.series("x.b"));
    let (vxb, vyb) = (out.series("vx.b"), out.series("vy.b"));
    let (fx, fy) = (out.series("Fx.c"), out.series("Fy.c"));
    let mut checked = [0, 0];
    for i in 0..t.len() {
        if t[i] < tb * (1.0 - 1e-9) {
            checked[0] += 1;
            let d = k * t[i].powi(3) / (6.0 * mt);
            assert!((xa[i] - d * c).abs() < 1e-10 * (1.0 + d) && (ya[i] - d * s).abs() < 1e-10 * (1.0 + d));
            assert_eq!(xa[i], xb[i], "apart while held at {} s", t[i]);
            let l = k * t[i] * mb / mt;
            assert!((fx[i] + l * c).abs() < 1e-10 * (1.0 + l) && (fy[i] + l * s).abs() < 1e-10 * (1.0 + l));
        } else if t[i] > tb * (1.0 + 1e-9) {
            checked[1] += 1;
            // B: held momentum at t_b, then μ W per second along φ
            let vb = k * tb * tb / (2.0 * mt) + mu * w * (t[i] - tb) / mb;
            assert!((vxb[i] - vb * c).abs() < 1e-8 && (vyb[i] - vb * s).abs() < 1e-8, "B at {} s", t[i]);
            let (vx, vy) = (out.series("vx.a")[i] - vxb[i], out.series("vy.a")[i] - vyb[i]);
            let v = vx.hypot(vy);
            assert!((fx[i] + mu * w * vx / v).abs() < 1e-9 && (fy[i] + mu * w * vy / v).abs() < 1e-9);
            assert!(
                (vx * s - vy * c).abs() < 1e-8,
                "slip across the pull {} m/s at {} s",
                vx * s - vy * c,
                t[i]
            );
        }
    }
    assert!(checked[0] > 20 && checked[1] > 20, "{checked:?}");
}

/// With `stribeck` (Fs > Fc) the puck under a constant skew force between
/// `Fc N` and `Fs N` stays held for good; one above `Fs N` breaks away at
/// once and slides along it.
#[test]
fn a_stribeck_puck_holds_a_force_between_fc_n_and_fs_n_and_slides_under_a_larger_one() {
    let m = 1.0;
    let n = G * m;
    let model = "model = \"stribeck\"\nparams = { fc = 0.3, fs = 0.5, vs = 0.01 }";
    let (c, s) = (0.28_f64, 0.96_f64);
    let pull = |p: f64| {
        force("px", "m", "x", &format!("{:e}", p * c)) + &force("py", "m", "y", &format!("{:e}", p * s))
    };
    let out = run(&puck(m, [0.0, 0.0], model, &pull(0.45 * n), "t_end = 1.0\noutput_dt = 0.01"));
    let (x, y, fx, fy) = (out.series("x.m"), out.series("y.m"), out.series("Fx.c"), out.series("Fy.c"));
    assert!(x.iter().chain(&y).all(|&v| v == 0.0), "moved under 0.45 N g < Fs N");
    assert!(fx
        .iter()
        .zip(&fy)
        .all(|(a, b)| (a + 0.45 * n * c).abs() < 1e-12 && (b + 0.45 * n * s).abs() < 1e-12));
    assert!(out.events.iter().all(|e| e.contact != "c"), "{:?}", out.events);
    let out =
        run(&puck(m, [0.0, 0.0], model, &pull(0.55 * n), "t_end = 0.2\noutput_dt = 0.01\natol = 1e-12"));
    let (x, y) = (out.series("x.m"), out.series("y.m"));
    let last = x.len() - 1;
    assert!(
        x[last] > 0.0 && ((x[last] * s - y[last] * c).abs() < 1e-9 * x[last].hypot(y[last])),
        "off the pull"
    );
}

/// A set-valued contact in a plane is held from the forces on its members'
/// x and y alone: one whose members another such contact or a stop also
/// holds is refused with the reason, as is `karnopp` (a velocity band),
/// both from a scenario and from a system built in code.
#[test]
fn set_valued_plane_contacts_sharing_a_member_or_with_a_stick_band_are_refused_with_the_reason() {
    let two = "[solver]\nt_end = 0.1\n[[body]]\nname = \"a\"\nmass = 1.0\ndim = 3\n[[body]]\nname = \"b\"\nmass = 1.0\ndim = 3\n\
               [[contact]]\nname = \"top\"\nbetween = [\"a\", \"b\"]\nmodel = \"coulomb\"\nnormal_stiffness = 1e5\n\
               [[contact]]\nname = \"floor\"\nbetween = [\"b\", \"ground\"]\nmodel = \"coulomb\"\nnormal_stiffness = 1e5\n";
    let e = parse(two).unwrap_err().to_string();
    assert!(
        e.contains("disk.toml") && e.contains("also held by contact") && e.contains("coulomb_tanh"),
        "{e}"
    );
    let stop = puck(
        1.0,
        [0.0, 0.0],
        "model = \"coulomb\"",
        "[[stop]]\nbody = \"m\"\ndirection = \"y\"\nmin = -1.0\nmax = 1.0\n",
        "t_end = 0.1",
    );
    match parse(&stop) {
        Err(e) => assert!(e.to_string().contains("end stop"), "{e}"),
        Ok(_) => panic!("a stop on a held coordinate was taken"),
    }
    let karnopp = puck(1.0, [0.0, 0.0], "model = \"karnopp\"", "", "t_end = 0.1");
    let e = parse(&karnopp).unwrap_err().to_string();
    assert!(e.contains("karnopp") && e.contains("stick band"), "{e}");
    // the floor contact made regularised: taken
    let tanh = two.replace(
        "between = [\"b\", \"ground\"]\nmodel = \"coulomb\"",
        "between = [\"b\", \"ground\"]\nmodel = \"coulomb_tanh\"",
    );
    assert!(parse(&tanh).is_ok());
}

/// A puck held under a skew pull `P < μ m g` loses its weight at `t1`: the
/// floor unloads as `N = m g cos ω(t - t1)`, `ω = √(kn/m)`, so the puck
/// breaks away where `μ N` falls to `P`, at `cos ω τb = P / (μ m g)`, then
/// speeds up along the pull as `m v = P τ - μ m g sin(ω τ)/ω` (from τb),
/// and flies off the floor at `τ = π / (2ω)` with no force from then on.
#[test]
fn a_held_puck_whose_load_is_released_breaks_away_where_mu_n_falls_to_the_pull() {
    let (m, mu, kn, t1) = (0.8_f64, 0.5, 1e4_f64, 0.01);
    let (c, s) = (-0.8_f64, 0.6_f64);
    let w = G * m;
    let p = 0.3 * mu * w;
    let weight = format!("{{ type = \"step\", offset = {:e}, amplitude = {w:e}, at = {t1} }}", -w);
    let text = format!(
        "[[body]]\nname = \"m\"\nmass = {m}\ndim = 3\nx0 = [0.0, 0.0, {z0:e}]\n{wt}{px}{py}\
         [[contact]]\nname = \"c\"\nbetween = [\"m\", \"ground\"]\nmodel = \"coulomb\"\nparams = {{ fc = {mu} }}\n\
         normal_stiffness = {kn:e}\ngap = 0.0\n\
         [solver]\nt_end = 0.05\noutput_dt = 2e-4\nrtol = 1e-10\natol = 1e-12\n",
        z0 = -w / kn,
        wt = force("weight", "m", "z", &weight),
        px = force("px", "m", "x", &format!("{:e}", p * c)),
        py = force("py", "m", "y", &format!("{:e}", p * s)),
    );
    let out = run(&text);
    let om = (kn / m).sqrt();
    let tb = t1 + (p / (mu * w)).acos() / om;
    let topen = t1 + PI / (2.0 * om);
    let br = event_times(&out, "stuck", "sliding");
    assert_eq!(br.len(), 1, "{:?}", out.events);
    assert!((br[0] - tb).abs() < 1e-8, "break-away at {} s, closed form {tb} s", br[0]);
    let open: Vec<_> = out.events.iter().filter(|e| e.contact == "gap:c.normal").collect();
    assert!(!open.is_empty() && (open[0].t - topen).abs() < 1e-9, "{:?}", out.events);
    let (t, vx, vy) = (out.series("t"), out.series("vx.m"), out.series("vy.m"));
    let (fx, fy, n) = (out.series("Fx.c"), out.series("Fy.c"), out.series("N.c"));
    let speed = |tt: f64| {
        let tau = tt - t1;
        let taub = tb - t1;
        let ff = |x: f64| p * x - mu * w * (om * x).sin() / om;
        (ff(tau.min(PI / (2.0 * om))) - ff(taub) + p * (tau - PI / (2.0 * om)).max(0.0)) / m
    };
    let mut seen = [0; 3];
    for i in 0..t.len() {
        if t[i] < tb * (1.0 - 1e-9) {
            seen[0] += 1;
            assert!(vx[i] == 0.0 && vy[i] == 0.0, "moved while held at {} s", t[i]);
            assert!(
                (fx[i] + p * c).abs() < 1e-12 && (fy[i] + p * s).abs() < 1e-12,
                "held force at {} s",
                t[i]
            );
        } else if t[i] > tb * (1.0 + 1e-9) {
            seen[if t[i] < topen { 1 } else { 2 }] += 1;
            let v = speed(t[i]);
            assert!(
                (vx[i] - v * c).abs() < 1e-8 && (vy[i] - v * s).abs() < 1e-8,
                "at {} s: {} {} against {v}",
                t[i],
                vx[i],
                vy[i]
            );
            assert!((fx[i].hypot(fy[i]) - mu * n[i]).abs() < 1e-9, "μN at {} s", t[i]);
        }
    }
    assert!(seen.iter().all(|&k| k > 5), "{seen:?}");
}

/// Every method taken with a friction disk (the engine's one-step
/// methods) brings the sliding puck to rest at the same instant and place
/// (the closed form's, to its tolerance) and holds it there; the others
/// are refused naming the key, the value and the valid ones.
#[test]
fn every_method_stops_the_coulomb_puck_at_the_closed_form() {
    let (mu, v0) = (0.5, 0.5);
    let ts = v0 / (mu * G);
    let s_end = v0 * v0 / (2.0 * mu * G);
    for method in ["bdf", "bdf5", "tsit45", "tr_bdf2", "esdirk34"] {
        let text =
            puck(2.0, [0.3, 0.4], "model = \"coulomb\"", "", &format!("t_end = 0.3\nmethod = \"{method}\""));
        let e = simulate(&parse(&text).unwrap()).unwrap_err().to_string();
        assert!(
            e.contains(&format!("`method` = \"{method}\""))
                && e.contains("\"radau5\", \"rodas5p\", \"dop853\""),
            "{e}"
        );
    }
    for method in ["auto", "radau5", "rodas5p", "dop853"] {
        let text = puck(
            2.0,
            [0.6 * v0, 0.8 * v0],
            "model = \"coulomb\"\nparams = { fc = 0.5 }",
            "",
            &format!("t_end = 0.3\noutput_dt = 0.01\nrtol = 1e-9\nmethod = \"{method}\""),
        );
        let out = run(&text);
        let arr = event_times(&out, "sliding", "stuck");
        assert_eq!(arr.len(), 1, "{method}: {:?}", out.events);
        assert!((arr[0] - ts).abs() < 1e-8 * ts, "{method}: arrival at {} s, closed form {ts} s", arr[0]);
        let (x, y) = (out.series("x.m"), out.series("y.m"));
        let last = x.len() - 1;
        assert!(
            (x[last] - 0.6 * s_end).abs() < 1e-8 && (y[last] - 0.8 * s_end).abs() < 1e-8,
            "{method}: rest"
        );
    }
}

/// In stick-slip in the plane (a mass on springs along x and y, shaken by
/// two sines of different frequencies), `coulomb` held exactly on its disk
/// is the limit of Jenkins' element as its spring stiffens: an independent
/// law integrated by another path (the radial return's flow rule), whose
/// only difference is its elastic slip within the disk. The distance
/// between the two shrinks as `1/√kt`, the duration of the elastic
/// transients `√(m / (kt N))` at each stick and break-away (measured:
/// 1.5e-5, 4.3e-6 and 1.1e-6 m of a 1e-2 m motion at kt = 1e6, 1e7, 1e8).
/// The contact sticks and slips several times, and its force never
/// leaves the disk.
#[test]
fn coulomb_in_stick_slip_in_the_plane_is_the_limit_of_a_stiffening_jenkins_element() {
    let body = "[[body]]\nname = \"m\"\nmass = 1.0\ndim = 3\nx0 = [0.0, 0.0, -9.81e-6]\n\
                [[force]]\nname = \"weight\"\non = \"m\"\ndirection = \"z\"\nvalue = -9.81\n\
                [[spring]]\nname = \"kx\"\nbetween = [\"m\", \"ground\"]\nstiffness = 400.0\n\
                [[spring]]\nname = \"ky\"\nbetween = [\"m\", \"ground\"]\nstiffness = 900.0\ndirection = \"y\"\n\
                [[force]]\nname = \"px\"\non = \"m\"\nvalue = { type = \"sine\", amplitude = 6.0, frequency = 2.0 }\n\
                [[force]]\nname = \"py\"\non = \"m\"\ndirection = \"y\"\n\
                value = { type = \"sine\", amplitude = 5.0, frequency = 3.1, phase = 0.7 }\n";
    let contact = |model: &str, method: &str| {
        format!(
            "{body}[[contact]]\nname = \"c\"\nbetween = [\"m\", \"ground\"]\n{model}\nnormal_stiffness = 1e6\ngap = 0.0\n\
             [solver]\nt_end = 1.5\noutput_dt = 0.005\nrtol = 1e-9\natol = 1e-12\nmethod = \"{method}\"\n"
        )
    };
    let mu = 0.6;
    let exact = run(&contact(&format!("model = \"coulomb\"\nparams = {{ fc = {mu} }}"), "auto"));
    let held = event_times(&exact, "sliding", "stuck").len();
    let broke = event_times(&exact, "stuck", "sliding").len();
    assert!(held >= 3 && broke >= 3, "{:?}", exact.events);
    let (x, y) = (exact.series("x.m"), exact.series("y.m"));
    let amp = x.iter().chain(&y).fold(0.0f64, |a, v| a.max(v.abs()));
    let apart = |kt: f64| {
        // stiff: an implicit method (`auto` takes an explicit one for Jenkins' reversals)
        let j =
            run(&contact(&format!("model = \"jenkins\"\nparams = {{ kt = {kt:e}, fs = {mu} }}"), "radau5"));
        let (xj, yj) = (j.series("x.m"), j.series("y.m"));
        (0..x.len()).fold(0.0f64, |a, i| a.max((x[i] - xj[i]).abs()).max((y[i] - yj[i]).abs()))
    };
    let (soft, stiff) = (apart(1e6), apart(1e8));
    assert!(stiff < 2e-4 * amp, "coulomb and jenkins (kt 1e8) apart by {stiff} m of {amp} m");
    assert!(soft > 5.0 * stiff, "not converging as kt grows: {soft} m at 1e6, {stiff} m at 1e8");
    let (fx, fy, n) = (exact.series("Fx.c"), exact.series("Fy.c"), exact.series("N.c"));
    for i in 0..fx.len() {
        let f = fx[i].hypot(fy[i]);
        assert!(f <= mu * n[i] * (1.0 + 1e-8), "|F| {f} above μN {}", mu * n[i]);
    }
}

/// `examples/plane_stick_slip.toml` (16 stick and slip events in 3 s): the
/// methods taken with a friction disk find the same events and dissipate
/// the same energy (1.428608 J), each with its energy balanced, at rtol
/// 1e-8 and 1e-10.
#[test]
fn the_plane_stick_slip_example_is_the_same_by_every_method_taken() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plane_stick_slip.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut first: Option<(f64, Vec<f64>)> = None;
    for rtol in ["1e-8", "1e-10"] {
        for method in ["radau5", "rodas5p", "dop853"] {
            let t = text.replace("rtol = 1e-8", &format!("rtol = {rtol}\nmethod = \"{method}\""));
            assert_ne!(t, text);
            let out = run(&t);
            let diss = out.energy.contacts.iter().find(|c| c.0 == "c").unwrap().1;
            let times: Vec<f64> = out.events.iter().filter(|e| e.contact == "c").map(|e| e.t).collect();
            assert_eq!(times.len(), 16, "{method} at {rtol}: {:?}", out.events);
            assert!(
                out.energy.residual.abs() < 1e-7 * diss,
                "{method} at {rtol}: residual {} J",
                out.energy.residual
            );
            match &first {
                None => first = Some((diss, times)),
                Some((d0, t0)) => {
                    assert!((diss - d0).abs() < 1e-6 * d0, "{method} at {rtol}: {diss} J against {d0} J");
                    let dt = t0.iter().zip(&times).fold(0.0f64, |a, (x, y)| a.max((x - y).abs()));
                    assert!(dt < 1e-5, "{method} at {rtol}: events {dt} s apart");
                }
            }
        }
    }
}

/// A joint on a penalty floor, pressed by 20 N and pulled along x by 10 N
/// at 12 Hz through springs that couple x to y and z (the spatial joint of
/// the harmonic-balance tests), `coulomb` with Fs = Fc = 0.3: it sticks
/// while the floor's load settles, and breaks away where the pull reaches
/// `Fc N` while that load falls, so the slip starts from rest with a net
/// force growing from zero. At rtol 1e-10 and atol 1e-13 Radau5's steps
/// fell below 1e-13 s there (t = 0.012 s): the slip's direction turned at
/// `Fc N / (m |v|)`, without bound. Now it runs one second: the force never
/// leaves the disk, a held contact does not move, and the energy balances
/// to 1e-9 of the work done.
#[test]
fn a_slip_from_rest_with_fs_equal_to_fc_under_a_falling_load_does_not_stall_radau5() {
    let text = "[[body]]\nname = \"m\"\nmass = 1.0\ndim = 3\n\
        [[spring]]\nbetween = [\"m\", \"ground\"]\nstiffness = 1e4\n\
        [[spring]]\nbetween = [\"m\", \"ground\"]\nstiffness = 1.5e4\ndirection = \"y\"\n\
        [[spring]]\nbetween = [\"m\", \"ground\"]\nstiffness = 1e4\ndirection = \"z\"\n\
        [[spring]]\nbetween = [\"m\", \"ground\"]\nstiffness = 5e3\ndirection = [1.0, 0.0, 1.0]\n\
        [[spring]]\nbetween = [\"m\", \"ground\"]\nstiffness = 4e3\ndirection = [1.0, 1.0, 0.0]\n\
        [[damper]]\nbetween = [\"m\", \"ground\"]\ncoefficient = 5.0\n\
        [[damper]]\nbetween = [\"m\", \"ground\"]\ncoefficient = 5.0\ndirection = \"y\"\n\
        [[damper]]\nbetween = [\"m\", \"ground\"]\ncoefficient = 10.0\ndirection = \"z\"\n\
        [[force]]\nname = \"press\"\non = \"m\"\ndirection = \"z\"\nvalue = -20.0\n\
        [[force]]\nname = \"px\"\non = \"m\"\nvalue = { type = \"sine\", amplitude = 10.0, frequency = 12.0 }\n\
        [[contact]]\nname = \"c\"\nbetween = [\"m\", \"ground\"]\nmodel = \"coulomb\"\nparams = { fc = 0.3 }\n\
        normal_stiffness = 1e5\ngap = 0.0\n\
        [solver]\nt_end = 1.0\noutput_dt = 1e-3\nrtol = 1e-10\natol = 1e-13\n";
    let out = run(text);
    let (fx, fy, n) = (out.series("Fx.c"), out.series("Fy.c"), out.series("N.c"));
    let (vx, vy, state) = (out.series("vx.m"), out.series("vy.m"), out.series("state.c"));
    let mut held = 0;
    for i in 0..n.len() {
        assert!(fx[i].hypot(fy[i]) <= 0.3 * n[i] * (1.0 + 1e-9) + 1e-12, "row {i}: off the disk");
        if state[i] == 1.0 {
            held += 1;
            assert!(vx[i] == 0.0 && vy[i] == 0.0, "row {i}: moved while held");
        }
    }
    let breaks = out.events.iter().filter(|e| e.contact == "c" && e.from == "stuck").count();
    assert!(held > 10 && breaks > 10, "{held} rows held, {breaks} break-aways");
    let e = &out.energy;
    assert!(
        e.residual.abs() < 1e-9 * e.work_forces.abs(),
        "energy residual {} of {}",
        e.residual,
        e.work_forces
    );
}

/// `examples/plane_coulomb_joint.toml` (a joint on a floor pulled along x
/// through skew springs, `coulomb` in the plane): Radau5 and DOP853 (an
/// explicit method, no Jacobian) find the same stick and slip events (to
/// 1e-6 s) and dissipation (to 1e-6 of it); at every row the force is on
/// the disk, `μ N` while it slides, and a held joint does not move; it is
/// held at some rows and slides at others.
#[test]
fn the_plane_coulomb_joint_example_is_the_same_by_radau5_and_dop853_and_stays_on_the_disk() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/plane_coulomb_joint.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut first: Option<(f64, Vec<f64>)> = None;
    for method in ["radau5", "dop853"] {
        let out = run(&text.replace("rtol = 1e-8", &format!("rtol = 1e-8\nmethod = \"{method}\"")));
        let (fx, fy, n) = (out.series("Fx.j"), out.series("Fy.j"), out.series("N.j"));
        let (vx, vy, state) = (out.series("vx.m"), out.series("vy.m"), out.series("state.j"));
        let mut seen = [0; 2];
        for i in 0..n.len() {
            let f = fx[i].hypot(fy[i]);
            assert!(f <= 0.3 * n[i] * (1.0 + 1e-9) + 1e-12, "{method} row {i}: off the disk");
            if state[i] == 1.0 {
                seen[0] += 1;
                assert!(vx[i] == 0.0 && vy[i] == 0.0, "{method} row {i}: moved while held");
            } else if state[i] == 2.0 {
                seen[1] += 1;
                assert!((f - 0.3 * n[i]).abs() <= 1e-9 * n[i], "{method} row {i}: |F| {f} against μN");
            }
        }
        assert!(seen[0] > 10 && seen[1] > 10, "{method}: held and sliding rows {seen:?}");
        let diss = out.energy.contacts.iter().find(|c| c.0 == "j").unwrap().1;
        let times: Vec<f64> = out.events.iter().filter(|e| e.contact == "j").map(|e| e.t).collect();
        match &first {
            None => first = Some((diss, times)),
            Some((d0, t0)) => {
                assert!((diss - d0).abs() < 1e-6 * d0, "{method}: {diss} J against {d0} J");
                assert_eq!(times.len(), t0.len(), "{method}: events");
                let dt = t0.iter().zip(&times).fold(0.0f64, |a, (x, y)| a.max((x - y).abs()));
                assert!(dt < 1e-6, "{method}: events {dt} s apart");
            }
        }
    }
}
