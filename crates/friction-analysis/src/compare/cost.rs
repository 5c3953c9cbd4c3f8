//! Simulation cost on a common set-up: the stick-slip system of
//! `examples/lugre_stick_slip.toml` (a 1 kg body pulled through a 2 N/m
//! spring whose far end moves at 0.1 m/s, 20 s, rtol 1e-6, `method = "auto"`)
//! with its contact replaced by the model under test. The figures are the
//! wall time and the accepted steps of that run; the wall time depends on
//! the machine and its load, the steps do not.

use friction_models::AnyModel;
use friction_sim::scenario::{Body, Contact, Driver, Member, Method, SolverSettings, Spring, System};
use friction_sim::schedule::Schedule;
use friction_sim::{simulate, SimError};

use super::sim::{at_rest, short, AtRest, METHODS};
use crate::error::AnalysisError;

/// Step budget of the cost run.
pub const COST_MAX_STEPS: usize = 5_000_000;

/// The common stick-slip system with `model` on its contact.
///
/// ```
/// let m = friction_analysis::compare::build_model("lugre").unwrap();
/// let sys = friction_analysis::compare::cost_system(m);
/// assert_eq!(sys.solver.t_end, 20.0);
/// ```
pub fn cost_system(model: AnyModel) -> System {
    System {
        name: "cost".into(),
        bodies: vec![Body {
            name: "m".into(),
            mass: 1.0,
            x0: 0.0,
            v0: 0.0,
            kind: Default::default(),
            axis: Default::default(),
        }],
        drivers: vec![Driver {
            name: "puller".into(),
            motion: Schedule::Ramp { rate: 0.1, offset: 0.0, start: 0.0 },
            kind: Default::default(),
        }],
        springs: vec![Spring {
            name: "spring".into(),
            between: [Member::Body(0), Member::Driver(0)],
            stiffness: 2.0,
            length: 0.0,
        }],
        dampers: vec![],
        forces: vec![],
        contacts: vec![Contact {
            name: "c".into(),
            between: [Member::Body(0), Member::Ground],
            model,
            normal: Schedule::Constant { value: 1.0 },
            normal_gap: None,
        }],
        gaps: vec![],
        stops: vec![],
        inclined_springs: vec![],
        planes: vec![],
        thermal: Default::default(),
        structures: vec![],
        solver: SolverSettings {
            method: Method::Auto,
            linear_algebra: friction_sim::scenario::LinearAlgebra::Auto,
            t_end: 20.0,
            output_dt: Some(0.005),
            output_times: None,
            rtol: 1e-6,
            atol_position: 1e-9,
            atol_velocity: 1e-8,
            atol_state: 1e-11,
            max_step: 0.05,
            max_steps: COST_MAX_STEPS,
            max_wall: None,
            states: friction_sim::scenario::StateColumns::Auto,
            columns: None,
            max_output_bytes: friction_sim::scenario::DEFAULT_MAX_OUTPUT_BYTES,
        },
    }
}

/// The cost of one model.
#[derive(Debug, Clone, PartialEq)]
pub struct Cost {
    /// Wall time \[ms\].
    pub time_ms: f64,
    /// Accepted steps.
    pub steps: usize,
    /// The method that finished the run, and the failures of those tried before.
    pub note: String,
}

/// Wall time [ms] and accepted steps of the common set-up with `model`,
/// with `method = "auto"`; if that fails, `esdirk34`, `tr_bdf2`, then
/// `tsit45` (the failures are kept in [`Cost::note`]). A model too steep at
/// rest for the implicit methods ([`AtRest::Steep`]) starts with `tsit45`.
pub(crate) fn measure(model: &AnyModel) -> Result<Cost, AnalysisError> {
    let mut sys = cost_system(model.clone());
    let mut failures = vec![];
    let methods: Vec<Method> = match at_rest(model) {
        Some(AtRest::Steep(_)) => vec![Method::Tsit45, Method::Auto],
        _ => METHODS.to_vec(),
    };
    for method in methods {
        sys.solver.method = method;
        let out = simulate(&sys)?;
        match &out.failure {
            None => {
                let mut note = out.stats.method.clone();
                if !failures.is_empty() {
                    note = format!("{note}, after: {}", failures.join("; "));
                }
                return Ok(Cost { time_ms: out.stats.wall_time * 1e3, steps: out.stats.steps, note });
            }
            Some(f) => {
                failures.push(format!("{} failed at t = {:.4}: {}", method.name(), out.last("t"), short(f)))
            }
        }
    }
    Err(AnalysisError::Sim(SimError::Solver {
        t: f64::NAN,
        cause: failures.join("; "),
        state: String::new(),
    }))
}
