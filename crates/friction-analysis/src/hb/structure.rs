//! The structure as harmonic balance sees it: the linear part (mass,
//! stiffness and damping matrices and constant loads) of a
//! [`friction_sim::System`], the harmonic force whose frequency is swept,
//! and the contacts between degrees of freedom.
//!
//! ```text
//! M ẍ + C ẋ + K x + Σ_c B_c N_c F_c(x_rel, ẋ_rel) = f0 + e_j F sin(ω t + φ)
//! x_rel = x_first - x_second of contact c, B_c = (+1 on first, -1 on second)
//! ```

use friction_sim::{AnyModel, Member, Schedule, System};
use nalgebra::{DMatrix, DVector};

use crate::AnalysisError;

/// One contact between two degrees of freedom (`None`: the ground).
#[derive(Debug, Clone)]
pub struct HbContact {
    /// The contact's name.
    pub name: String,
    /// First member's degree of freedom.
    pub first: Option<usize>,
    /// Second member's degree of freedom.
    pub second: Option<usize>,
    /// The friction model.
    pub model: AnyModel,
    /// The constant normal-load scale N.
    pub normal: f64,
}

/// The linear structure, its harmonic excitation and its contacts.
#[derive(Debug, Clone)]
pub struct Structure {
    /// Body names, one per degree of freedom.
    pub names: Vec<String>,
    /// Mass matrix.
    pub m: DMatrix<f64>,
    /// Stiffness matrix.
    pub k: DMatrix<f64>,
    /// Viscous damping matrix.
    pub c: DMatrix<f64>,
    /// Constant loads (constant forces, spring pre-lengths) \[N\].
    pub f0: DVector<f64>,
    /// The degree of freedom the harmonic force acts on.
    pub force_dof: usize,
    /// Amplitude F of the harmonic force \[N\].
    pub force_amplitude: f64,
    /// Phase φ of the harmonic force \[rad\].
    pub force_phase: f64,
    /// The contacts.
    pub contacts: Vec<HbContact>,
}

fn refuse(msg: String) -> AnalysisError {
    AnalysisError::Model(msg)
}

impl Structure {
    /// The structure of `sys`, excited by its force named `force` (a `sine`
    /// schedule; its frequency is replaced by the swept one). Refused, with
    /// the reason: drivers, gaps, stops, non-constant normal loads, other
    /// forces that are not constant, and contacts whose model harmonic
    /// balance cannot treat (see [`super::aft::check_model`]).
    pub fn from_system(sys: &System, force: &str) -> Result<Self, AnalysisError> {
        Self::build(sys, Some(force))
    }

    /// The unforced structure of `sys`, for its nonlinear modes: `sine`
    /// forces are left out (their offsets kept as constant loads) and the
    /// harmonic force is zero (`force_amplitude = 0`). Refused as
    /// [`Structure::from_system`] refuses, and for forces that vary in time
    /// otherwise than as a sine.
    pub fn unforced(sys: &System) -> Result<Self, AnalysisError> {
        Self::build(sys, None)
    }

    fn build(sys: &System, force: Option<&str>) -> Result<Self, AnalysisError> {
        let n = sys.bodies.len();
        if n == 0 {
            return Err(refuse(format!("scenario \"{}\": no body to excite", sys.name)));
        }
        if let Some(d) = sys.drivers.first() {
            return Err(refuse(format!(
                "driver \"{}\": harmonic balance treats forced structures only (bodies, springs, dampers, \
                 forces, contacts); a prescribed motion is not supported",
                d.name
            )));
        }
        if let Some(g) = sys.gaps.first() {
            return Err(refuse(format!("gap \"{}\": gaps are not supported by harmonic balance", g.name)));
        }
        if !sys.stops.is_empty() {
            return Err(refuse("stops (end stops) are not supported by harmonic balance".into()));
        }
        let dof = |m: Member| match m {
            Member::Body(i) => Some(i),
            _ => None,
        };
        let mut kk = DMatrix::zeros(n, n);
        let mut cc = DMatrix::zeros(n, n);
        let mut f0 = DVector::zeros(n);
        let mm = DMatrix::from_diagonal(&DVector::from_iterator(n, sys.bodies.iter().map(|b| b.mass)));
        let stamp = |mat: &mut DMatrix<f64>, a: Option<usize>, b: Option<usize>, v: f64| {
            if let Some(i) = a {
                mat[(i, i)] += v;
            }
            if let Some(j) = b {
                mat[(j, j)] += v;
            }
            if let (Some(i), Some(j)) = (a, b) {
                mat[(i, j)] -= v;
                mat[(j, i)] -= v;
            }
        };
        for s in &sys.springs {
            let (a, b) = (dof(s.between[0]), dof(s.between[1]));
            stamp(&mut kk, a, b, s.stiffness);
            // force on the first member -k (x1 - x2 - L): +k L constant
            if let Some(i) = a {
                f0[i] += s.stiffness * s.length;
            }
            if let Some(j) = b {
                f0[j] -= s.stiffness * s.length;
            }
        }
        for d in &sys.dampers {
            stamp(&mut cc, dof(d.between[0]), dof(d.between[1]), d.coefficient);
        }
        let mut swept = None;
        for f in &sys.forces {
            let is_swept = force.is_some_and(|name| f.name == name);
            match (&f.value, is_swept) {
                (Schedule::Sine { amplitude, phase, offset, .. }, true) => {
                    swept = Some((f.on, *amplitude, *phase));
                    f0[f.on] += offset;
                }
                (_, true) => {
                    let force = force.unwrap_or_default();
                    return Err(refuse(format!(
                        "--force {force}: the force \"{force}\" must be a `sine` schedule (its frequency is swept)"
                    )));
                }
                (Schedule::Constant { value }, false) => f0[f.on] += value,
                (Schedule::Sine { offset, .. }, false) if force.is_none() => f0[f.on] += offset,
                (_, false) => {
                    return Err(refuse(match force {
                        Some(force) => format!(
                            "force \"{}\": only the swept force (--force {force}) may vary in time; other forces \
                             must be constant for a periodic steady state at the swept frequency",
                            f.name
                        ),
                        None => format!(
                            "force \"{}\": a nonlinear mode is of the unforced structure; forces must be constant \
                             or `sine` (left out, offset kept)",
                            f.name
                        ),
                    }))
                }
            }
        }
        let (force_dof, force_amplitude, force_phase) = match (swept, force) {
            (Some(s), _) => s,
            (None, None) => (0, 0.0, 0.0),
            (None, Some(force)) => {
                let known: Vec<&str> = sys.forces.iter().map(|f| f.name.as_str()).collect();
                return Err(refuse(format!(
                    "--force {force}: no force of that name; the forces of this scenario: {}",
                    if known.is_empty() { "(none)".to_string() } else { known.join(", ") }
                )));
            }
        };
        let mut contacts = Vec::new();
        for c in &sys.contacts {
            let Schedule::Constant { value: normal } = c.normal else {
                return Err(refuse(format!(
                    "contact \"{}\": its `normal` load varies in time; harmonic balance needs a constant one",
                    c.name
                )));
            };
            super::aft::check_model(&c.name, &c.model)?;
            contacts.push(HbContact {
                name: c.name.clone(),
                first: dof(c.between[0]),
                second: dof(c.between[1]),
                model: c.model.clone(),
                normal,
            });
        }
        // two dynamic Lagrangian contacts on one body: each one's multiplier
        // would contain the other's force
        let dl: Vec<&HbContact> = contacts.iter().filter(|c| super::dlft::is_dlft(&c.model)).collect();
        for (i, a) in dl.iter().enumerate() {
            for b in &dl[i + 1..] {
                let shared =
                    [a.first, a.second].iter().flatten().any(|d| [b.first, b.second].contains(&Some(*d)));
                if shared {
                    return Err(refuse(format!(
                        "contacts \"{}\" and \"{}\": two `coulomb` contacts on the same body; harmonic balance's \
                         dynamic Lagrangian AFT treats one `coulomb` contact per body (use `jenkins` with a large \
                         `kt` for one of them)",
                        a.name, b.name
                    )));
                }
            }
        }
        Ok(Structure {
            names: sys.bodies.iter().map(|b| b.name.clone()).collect(),
            m: mm,
            k: kk,
            c: cc,
            f0,
            force_dof,
            force_amplitude,
            force_phase,
            contacts,
        })
    }

    /// Number of degrees of freedom.
    pub fn dofs(&self) -> usize {
        self.names.len()
    }

    /// The stiffness with every contact replaced by its initial (stuck)
    /// tangent stiffness `N dF/dx` at rest, for scales and linear limits.
    pub fn stuck_stiffness(&self) -> DMatrix<f64> {
        let mut k = self.k.clone();
        for c in &self.contacts {
            let kc = c.normal * super::aft::initial_stiffness(&c.model);
            if let Some(i) = c.first {
                k[(i, i)] += kc;
            }
            if let Some(j) = c.second {
                k[(j, j)] += kc;
            }
            if let (Some(i), Some(j)) = (c.first, c.second) {
                k[(i, j)] -= kc;
                k[(j, i)] -= kc;
            }
        }
        k
    }
}
