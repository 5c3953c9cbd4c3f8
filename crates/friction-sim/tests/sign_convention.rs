//! One sign convention: a friction force `F` is the model's, opposing the
//! slip of the first member relative to the second (positive while it
//! slides forward); the time-series column `F.NAME` is the force the
//! contact exerts on its first member, `-F`. These tests fail if `drive`
//! and a simulated contact column disagree in sign.

use friction_sim::drive::drive;
use friction_sim::{
    simulate, CoulombTanhParams, FrictionModel, Ground, LuGreParams, Schedule, SolverSettings, System,
};

#[test]
fn drive_force_is_minus_the_simulated_contact_column() {
    // a driver moving as a sine against the ground, through the builder and through drive()
    let t: Vec<f64> = (0..=400).map(|i| i as f64 * 0.005).collect();
    let x: Vec<f64> = t.iter().map(|t| 1e-3 * (std::f64::consts::PI * t).sin()).collect();
    for model in [
        friction_sim::AnyModel::try_from(LuGreParams::default()).unwrap(),
        friction_sim::AnyModel::try_from(CoulombTanhParams::default()).unwrap(),
    ] {
        let f = drive(model.clone(), &t, &x, None, &Default::default()).unwrap();
        let sys = System::builder("sign")
            .driver("u", Schedule::Table { t: t.clone(), v: x.clone() })
            .contact("c", ("u", Ground), model.clone())
            .solver(SolverSettings {
                output_dt: None,
                output_times: Some(t.clone()),
                rtol: 1e-7,
                atol_position: 1e-12,
                atol_velocity: 1e-12,
                atol_state: 1e-12,
                max_step: 2.0,
                max_steps: 10_000_000,
                // the method drive() uses, so that both give the same bits
                method: friction_sim::drive::DriveSettings::default().method,
                ..SolverSettings::with_t_end(2.0)
            })
            .build()
            .unwrap();
        let out = simulate(&sys).unwrap();
        let (iv, ifc) = (out.col("v.u").unwrap(), out.col("F.c").unwrap());
        let mut forward = 0;
        for (k, r) in out.rows.iter().enumerate() {
            assert_eq!(f[k], -r[ifc], "{} at t = {}", model.info().id, r[0]);
            // sliding forward well past the pre-sliding range: F > 0, the column < 0
            if r[iv] > 2e-3 && r[0] > 0.1 && r[0] < 0.4 {
                assert!(f[k] > 0.0 && r[ifc] < 0.0, "{} at t = {}", model.info().id, r[0]);
                forward += 1;
            }
        }
        assert!(forward > 10, "{forward}");
    }
}

#[test]
fn contact_column_decelerates_a_body_sliding_forward() {
    // a body launched at 1 m/s against Coulomb friction 2 N: F.c = -2 N while
    // it slides forward, and it stops at t = m v0 / Fc = 0.5 s
    let sys = System::builder("launch")
        .body_at("m", 1.0, 0.0, 1.0)
        .contact("c", ("m", Ground), friction_sim::CoulombParams { fc: 2.0, fs: None })
        .solver(SolverSettings { output_dt: Some(0.01), ..SolverSettings::with_t_end(1.0) })
        .build()
        .unwrap();
    let out = simulate(&sys).unwrap();
    let (iv, ifc) = (out.col("v.m").unwrap(), out.col("F.c").unwrap());
    let r = out.rows.iter().find(|r| (r[0] - 0.25).abs() < 1e-9).unwrap();
    assert!((r[ifc] + 2.0).abs() < 1e-9 && r[iv] > 0.0, "{r:?}");
    assert!((out.last("v.m")).abs() < 1e-9);
    assert!((out.last("x.m") - 0.25).abs() < 1e-6, "{}", out.last("x.m"));
}
