//! Tuning to a dissipation per cycle: closed-form loop energies, the
//! equivalence of Bouc and Dahl, recovery of a model from its own
//! dissipation or loop, and refused requests.

use friction_analysis::fit::parse_params;
use friction_analysis::tune::{cycle, tune, CycleSettings, Objective, TuneOptions, TuneTarget};
use friction_models::build;

const U0: f64 = 1e-7;

fn sandia_tuning(model: &str, param: &str, params: &str) -> TuneOptions {
    TuneOptions {
        model: model.into(),
        params: parse_params(model, params).unwrap(),
        tune: param.split(',').map(str::to_string).collect(),
        target: TuneTarget::Model { id: "coulomb".into(), params: parse_params("coulomb", "fc=1").unwrap() },
        amplitudes: vec![U0],
        objective: Objective::Energy,
        cycle: CycleSettings::default(),
        lm: Default::default(),
    }
}

/// Bisection for the root of a monotone function on [a, b].
fn root(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    let fa = f(a);
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if (f(m) > 0.0) == (fa > 0.0) {
            a = m;
        } else {
            b = m;
        }
    }
    0.5 * (a + b)
}

/// The Sandia friction-model study reference: Coulomb with μc = 1 under u0 sin(ωt) slides all
/// the time at force ±1, a rectangle of area 4 μc u0 = 4e-7 J.
#[test]
fn coulomb_reference_dissipates_four_mu_u0_per_cycle() {
    let m = build("coulomb", &parse_params("coulomb", "fc=1").unwrap()).unwrap();
    for f in [1.0, 331.0] {
        let c = cycle(&m, U0, &CycleSettings { frequency: f, ..Default::default() }).unwrap();
        assert!((c.dissipation / (4.0 * U0) - 1.0).abs() < 2e-6, "{}", c.dissipation);
        assert_eq!(c.t.len(), 2001);
    }
}

/// Dahl with i = 1 has the steady loop F = Fc - (Fc + Fr) exp(-σ0 (x + a)/Fc)
/// with Fr = Fc tanh(σ0 a / Fc), whose area is
/// D = 4 a Fc - 4 (Fc²/σ0) tanh(σ0 a / Fc). Tuning Fc at σ0 = 1e8 N/m to
/// D = 4e-7 J must give the root of that closed form; and the measured loop
/// at the start value agrees with it too.
#[test]
fn dahl_tuned_to_coulomb_matches_the_closed_form_loop_area() {
    let s0 = 1e8;
    let area = |fc: f64| 4.0 * U0 * fc - 4.0 * fc * fc / s0 * (s0 * U0 / fc).tanh();
    let r = tune(&sandia_tuning("dahl", "fc", "sigma0=1e8,exponent=1")).unwrap();
    let fc_exact = root(|fc| area(fc) - 4.0 * U0, 1.0, 3.0);
    assert!((r.tuned[0].1 / fc_exact - 1.0).abs() < 1e-5, "{} vs {fc_exact}", r.tuned[0].1);
    assert!((r.points[0].initial / area(1.0) - 1.0).abs() < 1e-4, "{} vs {}", r.points[0].initial, area(1.0));
    assert!(r.converged && (r.points[0].achieved / r.points[0].target - 1.0).abs() < 1e-7);
}

/// Bouc's model (Bouc-Wen with γ = 0, n = 1) is Dahl's i = 1 model with
/// σ0 = kj A and Fc = kj A / β (the Sandia friction-model study, section 1.6): tuned to the same
/// dissipation, β must equal kj A / Fc_dahl.
#[test]
fn bouc_tunes_to_the_same_loop_as_dahl() {
    let dahl = tune(&sandia_tuning("dahl", "fc", "sigma0=1e8,exponent=1")).unwrap();
    let bouc = tune(&sandia_tuning("bouc_wen", "beta", "k=1e8,a=1,gamma=0,n=1,beta=1e8")).unwrap();
    let fc_equiv = 1e8 / bouc.tuned[0].1;
    assert!((fc_equiv / dahl.tuned[0].1 - 1.0).abs() < 1e-5, "{fc_equiv} vs {}", dahl.tuned[0].1);
}

/// A Jenkins element (spring kt, slider φ) dissipates 4 φ (a - φ/kt) per
/// cycle once it slips; equal to 4 a at kt = 1e8 N/m, a = 1e-7 m:
/// φ² - 10 φ + 10 = 0, the smaller root (10 - √60)/2 from the start φ = 1.
#[test]
fn jenkins_tuned_to_coulomb_is_the_smaller_root() {
    let r = tune(&sandia_tuning("jenkins", "fs", "kt=1e8")).unwrap();
    assert!((r.tuned[0].1 - (10.0 - 60f64.sqrt()) / 2.0).abs() < 1e-5, "{:?}", r.tuned);
}

/// Dissipation at two amplitudes, one in micro-slip and one in macro-slip,
/// determines both FS and KT of a 4-parameter Iwan model: tuned to a target
/// Iwan model from a start 30 % and 100 % off, the target is recovered.
#[test]
fn two_amplitudes_recover_iwan_force_and_stiffness() {
    let target = parse_params("iwan4", "fs=1,kt=1e5,chi=-0.5,beta=0.1,n=50").unwrap();
    // φmax = FS (1 + β) / (KT (β + (χ+1)/(χ+2))) = 1.43e-5 m: 2e-6 m is micro-slip, 3e-5 m macro-slip
    let opts = TuneOptions {
        model: "iwan4".into(),
        params: parse_params("iwan4", "fs=0.7,kt=2e5,chi=-0.5,beta=0.1,n=50").unwrap(),
        tune: vec!["fs".into(), "kt".into()],
        target: TuneTarget::Model { id: "iwan4".into(), params: target },
        amplitudes: vec![2e-6, 3e-5],
        objective: Objective::Energy,
        cycle: CycleSettings { frequency: 1.0, cycles: 2, samples_per_cycle: 400, ..Default::default() },
        lm: Default::default(),
    };
    let r = tune(&opts).unwrap();
    let get = |k: &str| r.tuned.iter().find(|p| p.0 == k).unwrap().1;
    assert!((get("fs") - 1.0).abs() < 1e-6 && (get("kt") / 1e5 - 1.0).abs() < 1e-6, "{:?}", r.tuned);
}

/// The loop objective matches the whole force-displacement loop: a Dahl
/// model tuned to the loop of another Dahl model recovers σ0 and Fc.
#[test]
fn loop_objective_recovers_the_target_loop() {
    let opts = TuneOptions {
        model: "dahl".into(),
        params: parse_params("dahl", "sigma0=3e5,fc=0.6,exponent=1").unwrap(),
        tune: vec!["sigma0".into(), "fc".into()],
        target: TuneTarget::Model {
            id: "dahl".into(),
            params: parse_params("dahl", "sigma0=1e5,fc=1").unwrap(),
        },
        amplitudes: vec![2e-5],
        objective: Objective::Loop,
        cycle: CycleSettings { frequency: 10.0, cycles: 2, samples_per_cycle: 200, ..Default::default() },
        lm: Default::default(),
    };
    let r = tune(&opts).unwrap();
    let get = |k: &str| r.tuned.iter().find(|p| p.0 == k).unwrap().1;
    assert!((get("sigma0") / 1e5 - 1.0).abs() < 1e-4 && (get("fc") - 1.0).abs() < 1e-4, "{:?}", r.tuned);
}

/// Requests that cannot be met are refused with a reason.
#[test]
fn impossible_tunes_are_refused() {
    let mut o = sandia_tuning("dahl", "fc,sigma0", "sigma0=1e8");
    let e = tune(&o).unwrap_err().to_string();
    assert!(e.contains("at least as many amplitudes"), "{e}");
    o.tune = vec!["nope".into()];
    let e = tune(&o).unwrap_err().to_string();
    assert!(e.contains("`nope`") && e.contains("fc"), "{e}");
    o.tune = vec!["fc".into()];
    o.target = TuneTarget::Energy(vec![-1.0]);
    let e = tune(&o).unwrap_err().to_string();
    assert!(e.contains("must be > 0"), "{e}");
    o.objective = Objective::Loop;
    let e = tune(&o).unwrap_err().to_string();
    assert!(e.contains("target model"), "{e}");
    o.objective = Objective::Energy;
    o.target = TuneTarget::Energy(vec![4e-7, 5e-7]);
    let e = tune(&o).unwrap_err().to_string();
    assert!(e.contains("2 target energies for 1 amplitude"), "{e}");
    o.amplitudes = vec![0.0];
    assert!(tune(&o).unwrap_err().to_string().contains("amplitude 0"));
}
