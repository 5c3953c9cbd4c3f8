//! Which method integrates a system and how it is set up: `auto`'s choice
//! (DOP853 or Tsitouras 5(4) without stiff contacts or a stiff mode of the
//! springs, dampers and gaps (`stiffness.rs`), the engine's Radau5 for
//! small stiff networks without events, BDF otherwise), dense or sparse
//! linear algebra, diffsol's problem, and the runs' entry points.

use std::time::Instant;

use diffsol::{FaerSparseMat, NalgebraLU, NalgebraMat, OdeBuilder};

use crate::engine::integrate::bdf5::Bdf5;
use crate::engine::integrate::bdf5_matrix::NewtonMatrix;
use crate::engine::integrate::cosim::Coupling;
use crate::engine::integrate::dop853::Dop853;
use crate::engine::integrate::equations::EngineEquations;
use crate::engine::integrate::main_loop::Hooks;
use crate::engine::integrate::radau::Radau5;
use crate::engine::integrate::rosenbrock::Rodas5P;
use crate::engine::integrate::stepper::Diffsol;
use crate::engine::linalg::band_lu::BandOrSparseLu;
use crate::engine::network::rows::{Kept, Progress, RowOut, RowSink};
use crate::engine::network::Engine;
use crate::engine::outcome::{Event, FlatOutcome, Outcome};
use crate::error::SimError;
use crate::system::{LinearAlgebra, Method};

/// Systems with at least this many states use sparse linear algebra (a
/// band LU after a bandwidth-reducing ordering, or faer's sparse LU when
/// the band would be wide, see `band_lu`); smaller ones dense (nalgebra).
/// Measured on chains of LuGre contacts (BDF, 2 s): 2 masses (10 states)
/// dense 0.57 against 0.61 ms, 3 masses (14 states) 1.10 against 1.04 ms,
/// 4 masses 1.53 against 1.31 ms, 8 masses 4.6 against 3.1 ms.
pub(crate) const SPARSE_FROM: usize = 12;

/// `auto` picks Radau5 for stiff networks of at most this many states
/// before the energy quadratures (positions, velocities, contact states),
/// without events of stick, stops or reversals. Measured (radau5 against
/// bdf): the LuGre stick-slip example (3 states) 0.75 / 1.19 ms at a
/// hundredth of the error, the LuGre FMU contact 0.11 / 0.17 ms, frictional
/// lag 1.18 / 1.64 ms, the LuGre sweep 1.25 / 1.38 ms, one mass on tanh
/// Coulomb (2 states) 0.18 / 0.17 ms; but two masses on LuGre (6 states)
/// 0.56 / 0.45 ms and on tanh Coulomb (4 states) 0.37 / 0.24 ms: Radau5 halves
/// the steps, and each costs three evaluations per Newton iteration and a
/// Jacobian of as many products as states. With events or slider kinks bdf
/// stays ahead (Iwan-4 loops 2.4 / 2.6 ms, coupled clutches 2.5 / 4.3 ms,
/// stick-slip with stops 7.3 / 8.7 ms).
///
/// The Rosenbrock method Rodas5P (`rodas5p`, one factorisation and no
/// Newton iteration per step) was measured on the same small stiff
/// networks and is picked by no rule: it takes about as many steps as
/// Radau5, but each costs seven stage evaluations, the next derivative, a
/// Jacobian of as many products as states, ∂f/∂t and the quadratures' rows
/// differenced (one and as many evaluations as states), where Radau5's
/// simplified Newton iteration converges in one or two iterations on a
/// reused Jacobian. Criterion's estimates (`benches/engine.rs`,
/// 2026-11-28, on a shared machine at a load of about 5 on 2 cores: two
/// runs each, the spread given), rodas5p / radau5 / bdf: the LuGre
/// stick-slip example 1.58-1.64 / 1.05-1.36 / 2.06-2.42 ms (561 / 636 /
/// 1,485 steps; 11,011 / 7,944 / 6,784 evaluations and 1,683 / 915 / 174
/// products with the 4,001 output rows; 600 / 372 / 571 factorisations) at
/// 3.4e-6 / 2.2e-7 / 4.5e-5 m from a Radau5 reference at rtol 1e-12;
/// frictional lag 2.97-3.06 / 2.10-2.12 / 2.84-3.23 ms (1,037 / 1,093 /
/// 2,243 steps); the LuGre FMU contact 0.25-0.26 / 0.20-0.22 / 0.29-0.32
/// ms (118 / 140 / 333 steps).
///
/// The engine's own BDF with CVODE's Newton strategy (`bdf5`) is picked by
/// no rule either. `benches/engine.rs` (`matched`, 2026-11-30, a shared
/// machine) gives every method the loosest rtol at which its positions and
/// forces are within radau5's own error of a tight reference, relative to
/// each column's range. bdf5 / radau5 / bdf, the range of two runs:
/// - frictional lag: 1.44-1.74 / 1.49-1.55 / 2.70-2.99 ms (1,031 / 1,007 /
///   2,509 steps; 1,042 / 1,111 / 3,447 Newton iterations);
/// - the LuGre FMU contact: 0.150-0.168 / 0.138-0.145 / 0.255-0.262 ms;
/// - the LuGre stick-slip example: neither BDF reaches radau5's 4.4e-5 of
///   the friction force's range at any rtol down to 1e-9 (their dense
///   output at the force's steep turns).
///
/// On chains (`chain_bdf5`, bench/compare's chains over 2 s at rtol 1e-6,
/// both with a band LU after eliminating positions and bristle states),
/// bdf5 / bdf: LuGre, 256 masses 50.8 / 61.4 ms, 1,024 masses 180 / 217 ms
/// (1,592 / 2,234 and 1,379 / 2,020 Newton iterations, 6 to 9 % more
/// steps); tanh-regularised Coulomb 13.2 / 18.8 ms and 55.8 / 63.7 ms (615
/// / 1,016 and 575 / 817 iterations). CVODE's iteration saves a third of
/// the evaluations; by `perf` on the 1,024 LuGre chain the band solves
/// (latency bound) take 21 %, bdf5's own vector work on the differences 19
/// % and copies 5 %, so the time falls by a sixth, not a third.
///
/// So `auto` picks bdf5 for stiff networks above this size without events
/// of stick, stops or reversals, except those with a `[[structure]]`
/// (diffsol's sparse Newton matrix keeps a consistent mass in force form;
/// bdf5 was not measured there) and those whose Jacobian is too wide for
/// its band (a hub joined to many bodies: diffsol's sparse LU keeps the
/// pattern where bdf5's matrix would be dense). bench/compare's
/// `friction-bench --cases chains --method bdf5 | auto` (2026-11-30, 2 s,
/// rtol 1e-6, a shared machine), bdf5 / bdf: LuGre chains of 256 and 1,024
/// masses 47.1 / 63.3 and 172 / 229 ms, tanh chains 11.7 / 16.8 and 43.9 /
/// 56.6 ms. With events bdf stays: bdf5 restarts at order 1 after each,
/// and on the GMS loops of `tests/turning_points.rs` (a turning point of
/// an element per event) its dissipation per cycle at the default
/// tolerances was 1.2e-4 off its converged value where bdf's was 4.1e-5
/// (gross sliding; 1.8e-3 against 4.5e-5 at rtol 1e-4), though faster on
/// `presliding_inner_loop.toml`, which `auto` sends to bdf for its reversal
/// events (release CLI, best wall time of three, bdf5 / bdf: 40.6 / 56.1 ms,
/// 1,753 / 3,247 steps). `breakaway_rate.toml`, smooth, is now bdf5's (182
/// / 221 ms, 3,202 / 4,499 steps, final values 3.3e-7 apart).
pub(crate) const RADAU_UP_TO: usize = 3;

/// Above this `ω_max t_end` (ω_max the fastest undamped mode of a
/// `[[structure]]`, by power iteration on `M⁻¹ K`), `auto` integrates with
/// ESDIRK34 (L-stable: the structure's fast modes, which an explicit method
/// must resolve, do not limit its step) instead of an explicit method; BDF
/// of order 3 to 5 is not stable on such lightly damped oscillations.
/// Measured on the README's CalculiX cantilever with its Jenkins damper,
/// rtol 1e-6: unreduced (360 DOFs, ω_max t_end = 2.8e4 over 0.01 s) tsit45
/// took 16,726 steps and 30.1 s, esdirk34 848 steps and 2.4 s (the tip's
/// motion 2.3e-6 apart; 3.4 s before its Newton matrix was kept sparse:
/// `network/scaled_rows.rs`), BDF 172 s; reduced to the tip and 6 modes
/// (ω_max t_end = 1.05e3 over 0.1 s) tsit45 0.008 s, esdirk34 0.025 s.
/// The rule counts only the explicit method's stability: on
/// `bench/structure`'s bar of 200 elements with 10 Jenkins dampers driven at
/// 300 Hz (0.1 s), the dampers' kinks limit every method's steps (esdirk34
/// 15,632 steps and 0.81 s, tsit45 20,888 and 0.79 s, BDF 28,518 and 0.54
/// s; before the sparse Newton matrix and the band mass, 9.7, 2.2 and 14.7
/// s); `[solver] method` chooses where it matters.
pub(crate) const STRUCTURE_EXPLICIT_UP_TO: f64 = 1e4;

/// DOP853 controls its local error at this fraction of the scenario's
/// tolerances (as Hairer's RADAU5 integrates at an internal tolerance of its
/// own), so that its global error is no larger than that of the method
/// `auto` picked before it at the same setting. Coulomb free decay, rtol
/// 1e-9, largest error of the rows against the piecewise closed form: tsit45
/// 4.0e-11 m (276 steps); DOP853 at the tolerance itself 4.7e-10 m (44
/// steps, 0.050 ms with two rows), at a tenth of it 1.9e-11 m (59 steps,
/// 0.064 ms; see [`crate::engine::integrate::dop853`]).
pub(crate) const DOP853_TOL_SCALE: f64 = 0.1;

/// Set up diffsol's problem on matrix type `$m` with linear solver `$ls`
/// and integrate with `$method` (a macro: diffsol's solver constructors
/// carry bounds that a generic function would have to restate).
macro_rules! solve_with {
    ($e:expr, $m:ty, $ls:ty, $method:expr, $y0:expr, $atol:expr, $ev0:expr, $hooks:expr, $start:expr, $scaled:expr) => {{
        let (this, method, y0, atol, ev0, hooks, start): (&Engine<'_>, Method, &[f64], Vec<f64>, Vec<Event>, Hooks<'_, '_, '_>, Instant) =
            ($e, $method, $y0, $atol, $ev0, $hooks, $start);
        let st = &this.sys.solver;
        let h0 = (st.max_step.min(st.t_end) * 1e-3).max(1e-12);
        let setup = |e: String| SimError::Solver {
            t: 0.0,
            cause: format!("cannot set up the problem: {e}"),
            state: String::new(),
        };
        // explicit methods need no Jacobian
        let eqn = EngineEquations::<$m>::new(this, y0, method.is_implicit(), $scaled).map_err(setup)?;
        let mut problem = OdeBuilder::<$m>::new()
            .t0(0.0)
            .h0(h0)
            .rtol(st.rtol)
            .atol(atol)
            .build_from_eqn(eqn)
            .map_err(|e| setup(e.to_string()))?;
        // diffsol counts Newton failures over the whole run; every mode change
        // costs a few, so only the step-size floor (min_timestep) ends a run
        problem.ode_options.max_nonlinear_solver_failures = usize::MAX / 4;
        match method {
            Method::Bdf => this.integrate(Diffsol::new(problem.bdf::<$ls>().map_err(setup_err)?), y0, ev0, hooks, start),
            Method::TrBdf2 => this.integrate(Diffsol::new(problem.tr_bdf2::<$ls>().map_err(setup_err)?), y0, ev0, hooks, start),
            Method::Esdirk34 => {
                this.integrate(Diffsol::new(problem.esdirk34::<$ls>().map_err(setup_err)?), y0, ev0, hooks, start)
            }
            _ => this.integrate(Diffsol::new(problem.tsit45().map_err(setup_err)?), y0, ev0, hooks, start),
        }
    }};
}

impl Engine<'_> {
    /// The explicit method `auto` picks for a network without stiff
    /// contacts: DOP853, or Tsitouras 5(4) when a contact has hysteresis
    /// that turns at reversals (Iwan, Jenkins, Maxwell slip, GMS: their slip
    /// elements kink the equations between events, and DOP853's steps of
    /// order 8 are then rejected as often as accepted). Measured (dop853
    /// against tsit45, best of 50, two rows, at the examples' rtol): Coulomb
    /// free decay (1e-9) 44 / 276 steps, 0.050 / 0.160 ms (2501 rows 0.17 /
    /// 0.37 ms, columns x, v only 0.12 / 0.33 ms), clutch (1e-9) 0.055 /
    /// 0.130 ms, three-mass chain (1e-9) 0.059 / 0.099 ms, Olsson's two
    /// interfaces (1e-9) 0.073 / 0.082 ms, coupled clutches (1e-8) 0.46 /
    /// 0.64 ms, stick-slip with stops (1e-9) 3.25 / 3.50 ms (7001 rows 4.78 /
    /// 4.65 ms); at rtol 1e-6 too (free decay 0.040 / 0.087 ms, clutch 0.039
    /// / 0.067, coupled clutches 0.28 / 0.37). But the Iwan-4 joint's decay
    /// (1e-8) 7.2 / 3.0 ms (2,128 rejected steps for 1,754 accepted) and the
    /// Iwan-4 loops (1e-6) 2.0 / 1.8 ms. These figures are DOP853 at the
    /// scenario's tolerance itself; it now runs at a tenth of it
    /// (`DOP853_TOL_SCALE`): the free decay then takes 59 steps and 0.064 ms
    /// with two rows (0.12 ms with x and v at 2,501 rows); the other
    /// examples were not measured again.
    fn explicit_method(&self) -> Method {
        if self.root_rev.is_empty() {
            Method::Dop853
        } else {
            Method::Tsit45
        }
    }

    /// Whether bdf5's Newton matrix suits this network under
    /// `linear_algebra`: dense below [`SPARSE_FROM`] states (or when asked),
    /// else a band (a chain, a tree: after reverse Cuthill-McKee a few
    /// diagonals). A pattern too wide for the band (a hub joined to many
    /// bodies) would leave it a dense matrix of `m²` numbers, where diffsol's
    /// sparse LU keeps the pattern.
    fn bdf5_matrix_fits(&self, la: LinearAlgebra) -> bool {
        match la {
            LinearAlgebra::Dense => true,
            LinearAlgebra::Auto if self.q_off < SPARSE_FROM => true,
            _ => NewtonMatrix::fits_band(self.q_off, self.jacobian_pattern()),
        }
    }

    /// Run the simulation to the end (or to a failure, with a partial result).
    pub fn run(&self) -> Result<Outcome, SimError> {
        self.run_with(None, None)
    }

    /// [`Engine::run`] with the rows in one block (see [`FlatOutcome`]).
    pub fn run_flat(&self) -> Result<FlatOutcome, SimError> {
        let (o, kept) = self.run_full(None, None, None, true)?;
        Ok(FlatOutcome {
            columns: o.columns,
            units: o.units,
            data: kept.into_flat(),
            events: o.events,
            stats: o.stats,
            energy: o.energy,
            failure: o.failure,
            warnings: o.warnings,
        })
    }

    /// Run, streaming rows to `sink` (see [`crate::engine::simulate_streaming`]) and
    /// reporting progress (simulated time, events) at most every 0.1 s.
    pub fn run_with(
        &self,
        sink: Option<RowSink<'_>>,
        progress: Option<Progress<'_>>,
    ) -> Result<Outcome, SimError> {
        let (mut o, kept) = self.run_full(sink, progress, None, false)?;
        o.rows = kept.into_rows(o.columns.len());
        Ok(o)
    }

    /// [`Engine::run_with`], optionally as the slave of a co-simulation
    /// (see [`crate::engine::integrate::cosim`]); the outcome's rows are in [`Kept`] (in one
    /// block if `flat` or streamed).
    /// Contacts held on a friction disk (`network/plane_stick.rs`) are run
    /// by the one-step methods of the engine only. A slip that starts from
    /// rest turns towards the free force at a rate `F₁ N / (m |v|)` without
    /// bound, and the other methods missed it: on
    /// `examples/plane_stick_slip.toml` at rtol 1e-8 the dissipated energy
    /// was 1.428608 J by `radau5`, `rodas5p` and `dop853` alike (to 1e-7,
    /// at rtol 1e-10 too), but 1.444 J by `bdf5`, 1.76-2.93 J by `bdf` (its
    /// energy balance off by up to 0.69 J), 1.42897 J by `tsit45` at rtol
    /// 1e-8 and 1e-10 alike, and `esdirk34` failed. Those are refused.
    /// For `tsit45` the cause was traced: after a break-away from rest its
    /// accepted steps swing the slip's direction by up to ±0.4 rad while
    /// `|v|` is 2e-8 to 3e-8 m/s (DOP853's by ±0.05 rad): its step sits at
    /// its stability limit on that direction's relaxation, and the mean of
    /// a swinging unit force is shorter than `F₁ N` (less friction).
    fn refuse_multistep_on_disks(&self, method: Method) -> Result<(), SimError> {
        if !self.planes.iter().any(|p| p.disk.is_some())
            || matches!(method, Method::Radau5 | Method::Rodas5p | Method::Dop853)
        {
            return Ok(());
        }
        let p = self.planes.iter().find(|p| p.disk.is_some()).map_or("", |p| p.name.as_str());
        Err(SimError::Input {
            file: format!("scenario \"{}\"", self.sys.name),
            line: None,
            message: format!(
                "[solver] `method` = \"{}\": contact \"{p}\" is held on its friction disk in a plane, \
                 which only the one-step methods integrate to their tolerance; valid values \"auto\" \
                 (radau5), \"radau5\", \"rodas5p\", \"dop853\" (the others lost the slip's turn as it \
                 starts from rest: 1 % to 100 % off in the dissipated energy)",
                method.name()
            ),
        })
    }

    pub(crate) fn run_full(
        &self,
        sink: Option<RowSink<'_>>,
        progress: Option<Progress<'_>>,
        mut coupling: Option<&mut dyn Coupling>,
        flat: bool,
    ) -> Result<(Outcome, Kept), SimError> {
        if let Some(crate::error::SimError::Input { file, line, message }) = &self.unfit {
            return Err(crate::error::SimError::Input {
                file: file.clone(),
                line: *line,
                message: message.clone(),
            });
        }
        self.refuse_stops_on_structures()?;
        let start = Instant::now();
        let sys = &*self.sys;
        let st = &sys.solver;
        let method = match st.method {
            Method::Auto => {
                if self.structure_omega_max() * st.t_end > STRUCTURE_EXPLICIT_UP_TO {
                    // a finite-element structure's fastest mode would set
                    // an explicit method's step (see the constant)
                    Method::Esdirk34
                } else if self.planes.iter().any(|p| p.disk.is_some()) {
                    // a contact on a friction disk: Radau IIA (see
                    // `refuse_multistep_on_disks`)
                    Method::Radau5
                } else if !self.network_is_stiff() {
                    self.explicit_method()
                } else {
                    let smooth = self.root_rev.is_empty()
                        && !self.stuckable.iter().any(|&s| s)
                        && sys.stops.is_empty();
                    if smooth && self.q_off <= RADAU_UP_TO {
                        // one body or a driven contact, smooth, without
                        // events of stick, stops or reversals (see
                        // `RADAU_UP_TO`)
                        Method::Radau5
                    } else if smooth && self.blocks.is_empty() && self.bdf5_matrix_fits(st.linear_algebra) {
                        // larger and smooth: the BDF with CVODE's Newton
                        // strategy (see `RADAU_UP_TO`)
                        Method::Bdf5
                    } else {
                        // with events; a `[[structure]]` (diffsol's sparse
                        // Newton matrix keeps a consistent mass in force
                        // form: `network/scaled_rows.rs`); or a pattern too
                        // wide for bdf5's band: diffsol's BDF
                        Method::Bdf
                    }
                }
            }
            m => m,
        };
        self.refuse_multistep_on_disks(method)?;
        let mut y0 = self.initial_state();
        let ev0 = self.initial_modes(&mut y0)?;
        let nb = self.nb;
        let mut atol = vec![st.atol_state; self.n];
        atol[..nb].fill(st.atol_position);
        atol[nb..2 * nb].fill(st.atol_velocity);
        // energy quadratures: they do not feed back into the motion (their
        // Jacobian rows are zero, see `jacobian`), but the energy per cycle
        // of a micro-slip loop is micro-joules, so their absolute tolerance is
        // a picojoule (1e-8 J gave 1 % on such loops). Integrating them as
        // diffsol outputs instead (outside the Newton iteration) made the
        // step sequence jumpy enough to upset the identifiability checks of
        // `friction fit` (finite-difference sensitivities), so they stay states.
        for a in atol.iter_mut().skip(self.q_off) {
            *a = 1e-12;
        }
        let hooks = Hooks {
            rows: RowOut::new(sink, self.keep.as_ref().map_or_else(|| sys.all_columns(), Vec::len), flat),
            progress,
            coupling: coupling.take(),
        };
        let sparse = method.is_implicit()
            && !matches!(method, Method::Radau5 | Method::Rodas5p | Method::Bdf5)
            && match st.linear_algebra {
                LinearAlgebra::Auto => self.n >= SPARSE_FROM,
                LinearAlgebra::Dense => false,
                LinearAlgebra::Sparse => true,
            };
        let (mut out, kept) = if method == Method::Radau5 {
            let h0 = (st.max_step.min(st.t_end) * 1e-3).max(1e-12);
            self.integrate(Radau5::new(self, 0.0, &y0, h0, st.rtol, atol), &y0, ev0, hooks, start)
        } else if method == Method::Rodas5p {
            let h0 = (st.max_step.min(st.t_end) * 1e-3).max(1e-12);
            let h_max = st.max_step.min(st.t_end);
            self.integrate(Rodas5P::new(self, 0.0, &y0, h0, h_max, st.rtol, atol), &y0, ev0, hooks, start)
        } else if method == Method::Bdf5 {
            let h0 = (st.max_step.min(st.t_end) * 1e-3).max(1e-12);
            let h_max = st.max_step.min(st.t_end);
            // its Newton matrix a band where diffsol's methods would be sparse
            let band = match st.linear_algebra {
                LinearAlgebra::Auto => self.q_off >= SPARSE_FROM,
                LinearAlgebra::Dense => false,
                LinearAlgebra::Sparse => true,
            };
            let pattern = band.then(|| self.jacobian_pattern());
            self.integrate(
                Bdf5::new(self, 0.0, &y0, h0, h_max, st.rtol, atol, pattern),
                &y0,
                ev0,
                hooks,
                start,
            )
        } else if method == Method::Dop853 {
            let h_max = st.max_step.min(st.t_end);
            let atol = atol.into_iter().map(|a| a * DOP853_TOL_SCALE).collect();
            let rtol = st.rtol * DOP853_TOL_SCALE;
            self.integrate(Dop853::new(self, 0.0, &y0, h_max, rtol, atol), &y0, ev0, hooks, start)
        } else if sparse {
            // a structure of consistent mass: its velocity rows in force
            // form, the solver adding the mass (`network/scaled_rows.rs`)
            let scaled = method.is_implicit() && self.has_coupled_mass();
            let rows = scaled.then(|| self.mass_rows());
            crate::engine::linalg::band_lu::with_mass_rows(rows, || {
                Ok::<_, SimError>(solve_with!(
                    self,
                    FaerSparseMat<f64>,
                    BandOrSparseLu,
                    method,
                    &y0,
                    atol,
                    ev0,
                    hooks,
                    start,
                    scaled
                ))
            })?
        } else {
            solve_with!(self, NalgebraMat<f64>, NalgebraLU<f64>, method, &y0, atol, ev0, hooks, start, false)
        };
        out.stats.linear_algebra = if !method.is_implicit() {
            "none"
        } else if sparse || out.stats.linear_algebra == "sparse" {
            "sparse"
        } else {
            "dense"
        }
        .into();
        out.stats.wall_time = start.elapsed().as_secs_f64();
        out.stats.method = method.name().into();
        out.stats.rhs_evals = self.count.rhs.get();
        out.stats.jacobian_products = self.count.jvp.get();
        out.stats.lcp_solves = self.count.lcp_solves.get();
        out.stats.lcp_pivots = self.count.lcp_pivots.get();
        out.stats.lcp_max_size = self.count.lcp_max.get();
        out.stats.events_reversals = self.count.reversals.get();
        out.stats.events_engagement = self.count.engagements.get();
        out.stats.events_stops = out.events.iter().filter(|e| e.contact.starts_with("stop:")).count();
        out.stats.events_gaps = out.events.iter().filter(|e| e.contact.starts_with("gap:")).count();
        out.stats.events_stick_slip = out
            .events
            .iter()
            .filter(|e| {
                !e.contact.starts_with("stop:")
                    && !e.contact.starts_with("gap:")
                    && e.from != "free"
                    && e.to != "free"
            })
            .count();
        Ok((out, kept))
    }
}

fn setup_err(e: diffsol::DiffsolError) -> SimError {
    SimError::Solver { t: 0.0, cause: format!("cannot start the solver: {e}"), state: String::new() }
}
