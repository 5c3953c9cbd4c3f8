//! The common set-up of the virtual experiments: the settings every model
//! shares, and the few parameters some models need to be built at all.

use friction_models::{build, AnyModel, ParamMap, ParamValue};

use super::property::Thresholds;
use crate::error::AnalysisError;

/// The experiment parameters shared by every model. [`Default`] gives the
/// documented values; they suit the registry's default parameters (forces
/// of order 1 N, pre-sliding lengths of order 1e-5 m, Stribeck velocities
/// of 1e-3 to 1e-2 m/s, lag times of 5-15 ms).
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Steady state: the sliding speeds of the staircase [m/s].
    /// Default 1e-4 to 1 m/s in half decades (9 speeds).
    pub steady_velocities: Vec<f64>,
    /// Steady state: sliding distance at each speed \[m\]. Default 1e-3 m
    /// (a hundred pre-sliding lengths: long enough to average the random
    /// bond forces of `bristle`).
    pub steady_distance: f64,
    /// Steady state: least time at each speed \[s\]. Default 0.2 s (more
    /// than ten lag times). The force is averaged over the last 30 %.
    pub steady_min_time: f64,
    /// Pre-sliding: the two drive speeds of the virgin curve [m/s].
    /// Default 1e-4 and 1e-3 m/s.
    pub presliding_speeds: [f64; 2],
    /// Pre-sliding: length of the virgin curve \[m\]. Default 2e-4 m.
    pub presliding_distance: f64,
    /// Rate independence: the drive speeds of the loop [m/s]; each is
    /// compared with the first. Default 1e-4, 1e-3, 1e-2 and 1e-1 m/s (more
    /// than two, so that a Stribeck fall and a viscous rise cannot cancel).
    pub loop_speeds: Vec<f64>,
    /// Rate independence: loop amplitude in units of x½, the measured
    /// half-force displacement (default 5); 5e-5 m when the model has none.
    pub loop_amplitude: f64,
    /// Non-local memory: drive speed [m/s]. Default 1e-4 m/s.
    pub memory_speed: f64,
    /// Non-local memory: outer amplitude in units of x½ (default 2); 1e-5 m
    /// when the model has no pre-sliding.
    pub memory_amplitude: f64,
    /// Lag: frequencies of the velocity oscillation \[Hz\]. Default 1 and 10 Hz.
    pub lag_frequencies: Vec<f64>,
    /// Lag: cycles simulated at each frequency; the last two are measured,
    /// the ones before are the transient. Default 4.
    pub lag_cycles: usize,
    /// Stiction: mass of the body \[kg\]. Default 1 kg.
    pub mass: f64,
    /// Break-away: mass of the body \[kg\]. Default 0.01 kg: when the force
    /// that keeps it sliding is removed it stops within about 1 ms, faster
    /// than the lags of the models, as in a stick-slip cycle.
    pub breakaway_mass: f64,
    /// Break-away: the body first slides at this speed [m/s], kept there by
    /// a force equal to the steady friction at this speed. Default 0.1 m/s.
    pub launch_velocity: f64,
    /// Break-away: how long it slides before the force is removed \[s\]. Default 0.1 s.
    pub launch_time: f64,
    /// Break-away: a dashpot from the body to the ground [N s/m]. Default
    /// 12.6 N s/m, a fifth of critical damping of the 10 g body on a 1e5 N/m
    /// contact spring: the body, stopped on an elastic contact, would
    /// otherwise ring for ever and the ramp would meet it at a random phase.
    pub breakaway_damper: f64,
    /// Break-away: the two force rates, in units of F_ref per second
    /// (F_ref: the largest steady force). Default 0.1 and 10 /s.
    pub force_rates: [f64; 2],
    /// Break-away: the force ramp starts at this time \[s\]; the body has come
    /// to rest by then. Default 0.2 s.
    pub breakaway_start: f64,
    /// Break-away: gross sliding starts when the body's speed first exceeds
    /// this [m/s]. Default 1e-2 m/s (ten times the speed a 1e4 N/m pre-sliding
    /// spring reaches under the fast ramp).
    pub breakaway_velocity: f64,
    /// Stiction: the held load as a fraction of the slow break-away force.
    /// Default 0.5.
    pub hold_fraction: f64,
    /// Stiction: the load rises smoothly over this time \[s\] (default 1 s),
    /// then holds for [`Settings::hold_time`].
    pub hold_rise: f64,
    /// Stiction: duration of the hold \[s\]. Default 10 s.
    pub hold_time: f64,
    /// Stiction: a dashpot from the body to the ground [N s/m]. Default
    /// 632 N s/m, critical damping of the 1 kg body on a 1e5 N/m contact
    /// spring: it damps the body's oscillation on a pre-sliding spring and
    /// holds no load itself.
    pub hold_damper: f64,
    /// Relative tolerance of every simulation. Default 1e-7.
    pub rtol: f64,
    /// The thresholds of the verdicts.
    pub thresholds: Thresholds,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            steady_velocities: (0..=8).map(|i| 10f64.powf(-4.0 + 0.5 * i as f64)).collect(),
            steady_distance: 1e-3,
            steady_min_time: 0.2,
            presliding_speeds: [1e-4, 1e-3],
            presliding_distance: 2e-4,
            loop_speeds: vec![1e-4, 1e-3, 1e-2, 1e-1],
            loop_amplitude: 5.0,
            memory_speed: 1e-4,
            memory_amplitude: 2.0,
            lag_frequencies: vec![1.0, 10.0],
            lag_cycles: 4,
            mass: 1.0,
            breakaway_mass: 0.01,
            launch_velocity: 0.1,
            launch_time: 0.1,
            breakaway_damper: 0.4 * (1e5f64 * 0.01).sqrt(),
            force_rates: [0.1, 10.0],
            breakaway_velocity: 1e-2,
            breakaway_start: 0.2,
            hold_fraction: 0.5,
            hold_rise: 1.0,
            hold_time: 10.0,
            hold_damper: 2.0 * (1e5f64).sqrt(),
            rtol: 1e-7,
            thresholds: Thresholds::default(),
        }
    }
}

/// Four Maxwell-slip elements `[k_i, f_i]` (total stiffness 1e5 N/m, total
/// slip force 1 N, the same scale as the other defaults): the elements of
/// `maxwell_slip` and `leuven` in the comparison.
pub const ELEMENTS: [[f64; 2]; 4] = [[4e4, 0.25], [3e4, 0.25], [2e4, 0.25], [1e4, 0.25]];

/// The parameters a model is built with in the comparison: the registry's
/// defaults, plus the parameters it has no default for.
///
/// | model | given |
/// |---|---|
/// | `maxwell_slip` | `elements` = [`ELEMENTS`] |
/// | `leuven` | `elements` = [`ELEMENTS`] (Σ f_i = 1 N = `fs`) |
/// | `gms` | `elements` = the stiffnesses of [`ELEMENTS`], α_i = 0.25 |
/// | `table` | `points` = [[0, 1.5], [0.01, 1], [1, 1]] (a Stribeck-like curve) |
///
/// | `stochastic` | `inner` = `coulomb_tanh` |
///
/// `meta_coulomb` wraps its default inner model (`dahl`). `stochastic` wraps
/// the stateless `coulomb_tanh` instead of its default `dahl`: with an inner
/// model that has states, `Stochastic::max_static` slices the state vector
/// the engine passes empty when it classifies contacts (`Engine::new`), and
/// panics; a stateless inner model avoids it.
pub fn experiment_params(id: &str) -> ParamMap {
    let rows = |second: &dyn Fn(usize) -> f64| {
        ParamValue::List(
            ELEMENTS
                .iter()
                .enumerate()
                .map(|(i, e)| ParamValue::List(vec![ParamValue::Num(e[0]), ParamValue::Num(second(i))]))
                .collect(),
        )
    };
    let mut p = ParamMap::new();
    match id {
        "maxwell_slip" | "leuven" => {
            p.insert("elements".into(), rows(&|i| ELEMENTS[i][1]));
        }
        "gms" => {
            p.insert("elements".into(), rows(&|_| 0.25));
        }
        "table" => {
            // a Stribeck-like curve: 1.5 at the onset of sliding, 1 from 10 mm/s
            let pt = |v: f64, mu: f64| ParamValue::List(vec![ParamValue::Num(v), ParamValue::Num(mu)]);
            p.insert("points".into(), ParamValue::List(vec![pt(0.0, 1.5), pt(0.01, 1.0), pt(1.0, 1.0)]));
        }
        "stochastic" => {
            let mut inner = ParamMap::new();
            inner.insert("model".into(), ParamValue::Str("coulomb_tanh".into()));
            p.insert("inner".into(), ParamValue::Table(inner));
        }
        _ => {}
    }
    p
}

/// Build model `id` with [`experiment_params`].
///
/// ```
/// use friction_models::FrictionModel;
/// let m = friction_analysis::compare::build_model("maxwell_slip").unwrap();
/// assert_eq!(m.info().id, "maxwell_slip");
/// ```
pub fn build_model(id: &str) -> Result<AnyModel, AnalysisError> {
    Ok(build(id, &experiment_params(id))?)
}
