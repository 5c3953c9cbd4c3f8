//! The structure as harmonic balance sees it: the linear part (mass,
//! stiffness and damping matrices and constant loads) of a
//! [`friction_sim::System`], the harmonic force whose frequency is swept,
//! and the contacts between degrees of freedom.
//!
//! ```text
//! M ẍ + C ẋ + K x + Σ_c B_c N_c F_c(x_rel, ẋ_rel) + Σ_g B_g P_g(s_g, ṡ_g) = f0 + e_j F sin(ω t + φ)
//! x_rel = x_first - x_second of contact c, B_c = (+1 on first, -1 on second)
//! ```
//!
//! A gap's force `P_g` (`[[gap]]`: `c p^n + d ṗ`, limited, never pulling;
//! `s_g = x_second - x_first`) pushes its members apart. A contact with a
//! `normal_gap` (or `normal_stiffness`: its own gap) carries the load
//! `N_c(t) = normal × P_g(t)`, evaluated at every sample of the period: it
//! rises, falls and vanishes (the contact opens) with the motion. A
//! contact between bodies of dim 3 rubs in a plane: on its members' x and
//! y coordinates, with its model's vector law (`super::planes`).
//!
//! The coordinates are the bodies (diagonal masses) followed by every
//! coordinate of every `[[structure]]` (its mass, stiffness and damping
//! matrices as blocks of M, K and C); connections and forces on a
//! structure's DOF `NAME:INDEX` stamp into its rows as into a body's.

use friction_models::plane::PlaneLaw;
use friction_sim::system::Axis;
use friction_sim::{AnyModel, Member, Schedule, System};
use nalgebra::{DMatrix, DVector};

use friction_analysis::AnalysisError;

/// The lateral (y) side of a contact that rubs in a plane: its members'
/// y coordinates (`None`: the ground) and its model's law in the plane.
/// Its x side and its normal load are the contact's own
/// ([`HbContact`]).
#[derive(Debug, Clone)]
pub struct HbPlane {
    /// The first member's y degree of freedom.
    pub first_y: Option<usize>,
    /// The second member's y degree of freedom.
    pub second_y: Option<usize>,
    /// The model's law in the plane.
    pub law: PlaneLaw,
}

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
    /// The gap (index into [`Structure::gaps`]) whose force, times
    /// `normal`, is the normal load, sample by sample (`normal_gap`).
    pub normal_gap: Option<usize>,
    /// Set for a contact that rubs in a plane (between bodies of dim 3):
    /// `first` and `second` are then its members' x coordinates, this its
    /// y side and its vector law (`super::planes`).
    pub plane: Option<HbPlane>,
}

/// A compliant one-sided contact (`[[gap]]`) between two degrees of
/// freedom (`None`: the ground): `-P` on the first, `+P` on the second.
#[derive(Debug, Clone)]
pub struct HbGap {
    /// First member's degree of freedom.
    pub first: Option<usize>,
    /// Second member's degree of freedom.
    pub second: Option<usize>,
    /// Its law ([`friction_sim::system::Gap::law`]).
    pub gap: friction_sim::system::Gap,
}

/// The linear structure, its harmonic excitation and its contacts.
#[derive(Debug, Clone)]
pub struct Structure {
    /// Body names, one per degree of freedom (`NAME.x`, `NAME.y`, `NAME.z`
    /// for the coordinates of a body of dim 2 or 3, `NAME:INDEX` for a
    /// structure's DOF, `NAME:mode.K` for its K-th modal coordinate).
    pub names: Vec<String>,
    /// The degrees of freedom whose results are written: every body, and of
    /// the structures the DOFs a connection, a force or `watch` names.
    pub shown: Vec<usize>,
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
    /// The gaps (their own and the normal loads of contacts).
    pub gaps: Vec<HbGap>,
    /// Set when the structure is condensed onto its retained DOFs
    /// ([`super::condensed::condense`]): the modal data its balance uses in
    /// place of `m`, `k` and `c`.
    pub condensed: Option<std::sync::Arc<super::modal::Modal>>,
}

/// The most degrees of freedom harmonic balance takes: its matrices are
/// dense (three of 2000 x 2000 take 96 MB, and each Newton step factorises
/// one of (2H + 1) times that size); a larger structure is refused with the
/// advice to reduce it.
pub const MAX_DOFS: usize = 2000;

/// The names of every force of `sys`: on bodies, then on structures' DOFs.
pub fn force_names(sys: &System) -> Vec<&str> {
    let loads = sys.structures.iter().flat_map(|s| s.loads.iter());
    sys.forces.iter().chain(loads).map(|f| f.name.as_str()).collect()
}

fn refuse(msg: String) -> AnalysisError {
    AnalysisError::Model(msg)
}

impl Structure {
    /// The structure of `sys`, excited by its force named `force` (a `sine`
    /// schedule; its frequency is replaced by the swept one). Refused, with
    /// the reason: drivers, stops, non-constant `normal` schedules, other
    /// forces that are not constant, and contacts whose model harmonic
    /// balance cannot treat (see `super::aft::check_model`).
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
        let nb = sys.bodies.len();
        // each structure's first coordinate
        let mut off = Vec::with_capacity(sys.structures.len());
        let mut n = nb;
        for st in &sys.structures {
            off.push(n);
            n += st.n();
        }
        if n == 0 {
            return Err(refuse(format!("scenario \"{}\": no body to excite", sys.name)));
        }
        if n > MAX_DOFS {
            let big = sys.structures.iter().max_by_key(|s| s.n()).map_or("", |s| s.name.as_str());
            return Err(refuse(format!(
                "structure \"{big}\": {n} degrees of freedom in all; harmonic balance works on dense matrices of at \
                 most {MAX_DOFS}: reduce the structure to its joints' DOFs and a few modes with \
                 `reduce = {{ keep = [..], modes = K }}` (Craig-Bampton)"
            )));
        }
        if let Some(d) = sys.drivers.first() {
            return Err(refuse(format!(
                "driver \"{}\": harmonic balance treats forced structures only (bodies, springs, dampers, \
                 forces, contacts); a prescribed motion is not supported",
                d.name
            )));
        }
        if !sys.stops.is_empty() {
            return Err(refuse("stops (end stops) are not supported by harmonic balance".into()));
        }
        let dof = |m: Member| match m {
            Member::Body(i) => Some(i),
            Member::Dof { structure, index } => Some(off[structure] + index),
            Member::Ground | Member::Driver(_) => None,
        };
        let mut kk = DMatrix::zeros(n, n);
        let mut cc = DMatrix::zeros(n, n);
        let mut f0 = DVector::zeros(n);
        let mut mm = DMatrix::zeros(n, n);
        for (i, b) in sys.bodies.iter().enumerate() {
            mm[(i, i)] = b.mass;
        }
        // a body of dim 2 or 3 is one coordinate per axis: `NAME.x`, `NAME.y`, `NAME.z`
        let mut names: Vec<String> = sys
            .bodies
            .iter()
            .map(|b| match b.axis {
                Axis::Line => b.name.clone(),
                a => format!("{}.{}", b.name, ["x", "y", "z"][a.index()]),
            })
            .collect();
        let mut shown: Vec<usize> = (0..nb).collect();
        for (st, &o) in sys.structures.iter().zip(&off) {
            let r = st.n();
            mm.view_mut((o, o), (r, r)).copy_from(&st.mass.to_dense());
            kk.view_mut((o, o), (r, r)).copy_from(&st.stiffness.to_dense());
            cc.view_mut((o, o), (r, r)).copy_from(&st.damping_dense());
            names.extend((0..r).map(|i| st.coordinate_name(i)));
            shown.extend(st.watch.iter().map(|w| o + w));
            shown.extend(st.loads.iter().map(|f| o + f.on));
        }
        let links = sys.springs.iter().map(|s| s.between);
        let links = links.chain(sys.dampers.iter().map(|d| d.between));
        for m in links.chain(sys.contacts.iter().map(|c| c.between)).flatten() {
            if let (Member::Dof { .. }, Some(i)) = (m, dof(m)) {
                shown.push(i);
            }
        }
        shown.sort_unstable();
        shown.dedup();
        // forces on bodies, then the loads of every structure, at their coordinate
        let loads = sys.forces.iter().map(|f| (f, f.on));
        let loads = loads.chain(
            sys.structures.iter().zip(&off).flat_map(|(st, &o)| st.loads.iter().map(move |f| (f, o + f.on))),
        );
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
        // an inclined spring: k w wᵀ over its legs, and +k L w
        for s in &sys.inclined_springs {
            for &(ml, wl) in &s.legs {
                let Some(l) = dof(ml) else { continue };
                f0[l] += s.stiffness * s.length * wl;
                for &(mm, wm) in &s.legs {
                    if let Some(m) = dof(mm) {
                        kk[(l, m)] += s.stiffness * wl * wm;
                    }
                }
            }
        }
        for d in &sys.dampers {
            stamp(&mut cc, dof(d.between[0]), dof(d.between[1]), d.coefficient);
        }
        let mut swept = None;
        for (f, on) in loads {
            let is_swept = force.is_some_and(|name| f.name == name);
            match (&f.value, is_swept) {
                (Schedule::Sine { amplitude, phase, offset, .. }, true) => {
                    swept = Some((on, *amplitude, *phase));
                    f0[on] += offset;
                }
                (_, true) => {
                    let force = force.unwrap_or_default();
                    return Err(refuse(format!(
                        "--force {force}: the force \"{force}\" must be a `sine` schedule (its frequency is swept)"
                    )));
                }
                (Schedule::Constant { value }, false) => f0[on] += value,
                (Schedule::Sine { offset, .. }, false) if force.is_none() => f0[on] += offset,
                // a sine of amplitude 0 is the constant of its offset
                (Schedule::Sine { amplitude, offset, .. }, false) if *amplitude == 0.0 => f0[on] += offset,
                (_, false) => {
                    return Err(refuse(match force {
                        Some(force) => format!(
                            "force \"{}\": only the swept force (--force {force}) may vary in time; other forces \
                             must be constant for a periodic steady state at the swept frequency (a `sine` of \
                             amplitude 0 is: `--set force.{}.value.amplitude=0` keeps its offset)",
                            f.name, f.name
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
                let known: Vec<&str> = force_names(sys);
                return Err(refuse(format!(
                    "--force {force}: no force of that name; the forces of this scenario: {}",
                    if known.is_empty() { "(none)".to_string() } else { known.join(", ") }
                )));
            }
        };
        let mut contacts = Vec::new();
        for (ci, c) in sys.contacts.iter().enumerate() {
            let Schedule::Constant { value: normal } = c.normal else {
                return Err(refuse(format!(
                    "contact \"{}\": its `normal` load varies in time; harmonic balance needs a constant one",
                    c.name
                )));
            };
            super::aft::check_model(&c.name, &c.model)?;
            let plane = sys.planes.iter().find(|p| p.contact == ci).map(|p| HbPlane {
                first_y: dof(p.lateral[0]),
                second_y: dof(p.lateral[1]),
                law: p.law,
            });
            contacts.push(HbContact {
                name: c.name.clone(),
                first: dof(c.between[0]),
                second: dof(c.between[1]),
                model: c.model.clone(),
                normal,
                normal_gap: c.normal_gap,
                plane,
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
            names,
            shown,
            m: mm,
            k: kk,
            c: cc,
            f0,
            force_dof,
            force_amplitude,
            force_phase,
            contacts,
            gaps: sys
                .gaps
                .iter()
                .map(|g| HbGap { first: dof(g.between[0]), second: dof(g.between[1]), gap: g.clone() })
                .collect(),
            condensed: None,
        })
    }

    /// Number of degrees of freedom.
    pub fn dofs(&self) -> usize {
        self.names.len()
    }

    /// The stiffness with every contact replaced by its initial (stuck)
    /// tangent stiffness `N dF/dx` at rest, and every gap taken closed with
    /// its spring constant `c` (a floor a preload holds the structure on),
    /// for scales and linear limits. A contact under a gap's load takes
    /// the gap's force at the rest of the structure with every gap closed
    /// (and such contacts unloaded): a Jenkins joint pressed by 20 N onto
    /// a floor is stuck with 20 times its stiffness at N = 1.
    pub fn stuck_stiffness(&self) -> DMatrix<f64> {
        self.stiffness_with(&self.rest_loads())
    }

    /// Each contact's normal load at rest, as [`Structure::stuck_stiffness`]
    /// takes it: its `normal`, or under a gap's load `normal` times the
    /// gap's force at the rest of the structure with every gap closed and
    /// such contacts unloaded (0 where that structure is singular).
    pub fn rest_loads(&self) -> Vec<f64> {
        let plain: Vec<f64> =
            self.contacts.iter().map(|c| if c.normal_gap.is_some() { 0.0 } else { c.normal }).collect();
        if self.contacts.iter().all(|c| c.normal_gap.is_none()) {
            return plain;
        }
        let Some(rest) = self.rest_with(&self.stiffness_with(&plain)) else { return plain };
        let at = |i: Option<usize>| i.map_or(0.0, |i| rest[i]);
        self.contacts
            .iter()
            .map(|c| match c.normal_gap {
                None => c.normal,
                Some(g) => {
                    let g = &self.gaps[g];
                    c.normal * g.gap.law(at(g.second) - at(g.first), 0.0).force
                }
            })
            .collect()
    }

    /// The structure's rest under its constant loads `f0` with stiffness
    /// `k` and every gap closed (its spring `c (length - (x2 - x1))`, whose
    /// part `c length` moves to the loads); `None` where `k` is singular.
    pub fn rest_with(&self, k: &DMatrix<f64>) -> Option<Vec<f64>> {
        let mut f = self.f0.clone();
        for g in &self.gaps {
            let cl = g.gap.stiffness * g.gap.length;
            if let Some(i) = g.first {
                f[i] -= cl;
            }
            if let Some(j) = g.second {
                f[j] += cl;
            }
        }
        k.clone().lu().solve(&f).map(|x| x.iter().copied().collect())
    }

    /// [`Structure::stuck_stiffness`] with every contact's load its
    /// `normal` alone (a contact under a gap's load as under 1 N).
    pub fn stiffness_at_normal(&self) -> DMatrix<f64> {
        self.stiffness_with(&self.contacts.iter().map(|c| c.normal).collect::<Vec<_>>())
    }

    /// `K` with every gap closed and every contact's initial stiffness
    /// times its load `loads[contact]`.
    fn stiffness_with(&self, loads: &[f64]) -> DMatrix<f64> {
        let mut k = self.k.clone();
        let gaps = self.gaps.iter().map(|g| (g.first, g.second, g.gap.stiffness));
        // a contact in a plane is as stiff along y as along x (an isotropic law)
        let contacts = self.contacts.iter().zip(loads).flat_map(|(c, load)| {
            let kc = load * super::aft::initial_stiffness(&c.model);
            let y = c.plane.as_ref().map(|p| (p.first_y, p.second_y, kc));
            std::iter::once((c.first, c.second, kc)).chain(y)
        });
        for (first, second, kc) in contacts.chain(gaps) {
            if let Some(i) = first {
                k[(i, i)] += kc;
            }
            if let Some(j) = second {
                k[(j, j)] += kc;
            }
            if let (Some(i), Some(j)) = (first, second) {
                k[(i, j)] -= kc;
                k[(j, i)] -= kc;
            }
        }
        k
    }
}
