//! The generic L-stable update for models with continuous states.
//!
//! Over a step of length `dt` at constant slip velocity `v = Δu/dt`, the
//! states follow `dz/dt = g(t, x0 + v (t - t0), z, mem)` with `mem` frozen.
//! The step is cut into sub-steps `h`; each sub-step takes one backward-Euler
//! step of `h` (`z1`) and two of `h/2` (`z2`), and keeps the Richardson
//! extrapolation `2 z2 - z1`, which is second order and L-stable (its
//! stability function `2/(1 - λh/2)² - 1/(1 - λh)` has modulus at most 1 on
//! the imaginary axis and tends to 0 as `λh → -∞`). Every backward-Euler
//! step is solved by Newton's method on a finite-difference Jacobian of
//! [`FrictionModel::rates`]. The difference `|z2 - z1|` (the error of `z1`,
//! an upper bound for the extrapolated value's) must stay below
//! `RTOL · max(|z|, |z'|, |z' - z|) + ATOL` in every component, or the
//! sub-step is rejected and shortened; [`FrictionModel::accept`] is called
//! once per accepted sub-step (for a model with an `Event`, `armstrong`,
//! the event's accept instead, which puts a change of the memory at its
//! instant within the sub-step). A sub-step whose Newton iteration does not
//! converge is shortened fourfold; below a thousandth of the step it is
//! retried with two forward-Euler half steps, kept without extrapolation,
//! under the same error test (for kinks of non-smooth state equations, where
//! the backward-Euler equation may have no solution and an extrapolation
//! could throw the state back across the kink, as at the slip limit of a
//! `gms` element). After [`MAX_SUBSTEPS`] sub-steps the update
//! gives up with [`UpdateError::NoConvergence`](super::UpdateError).

use super::layout::{Layout, T, X};
use super::{StepFailure, Stepper};
use crate::model::partials::Partials;
use crate::model::{FrictionModel, Input};

/// Relative tolerance on the local error of one sub-step.
pub const RTOL: f64 = 1e-6;
/// Absolute tolerance on the local error of one sub-step (in the state's unit).
pub const ATOL: f64 = 1e-15;
/// The most sub-steps one contact may take in one step.
pub const MAX_SUBSTEPS: usize = 100_000;
/// Sub-steps shorter than this fraction of the step fall back to forward
/// Euler (with the same error test) when Newton's method fails.
const EXPLICIT_BELOW: f64 = 1e-3;
/// Newton iterations before a sub-step counts as failed.
const MAX_NEWTON: usize = 12;

/// The generic implicit update of a model with continuous states.
pub(crate) struct Implicit<'a, M> {
    pub m: &'a M,
    pub l: Layout,
    /// The model's switches within a sub-step, if it has any.
    pub switch: Option<Switch<'a>>,
}

/// Work space of [`Implicit`], allocated once per call, never per contact.
pub(crate) struct Work {
    buf: Vec<f64>,
}

/// Scratch slices of one backward-Euler solve.
struct Be<'b> {
    f: &'b mut [f64],
    fp: &'b mut [f64],
    r: &'b mut [f64],
    jac: &'b mut [f64],
}

impl<M: FrictionModel + Sync> Implicit<'_, M> {
    /// One backward-Euler step from `z_in` at `(t, x)` over `h`, into `w`.
    /// Returns false when Newton's method fails.
    #[allow(clippy::too_many_arguments)]
    fn be(
        &self,
        s: &mut Be<'_>,
        t: f64,
        x: f64,
        v: f64,
        h: f64,
        mem: &[f64],
        z_in: &[f64],
        w: &mut [f64],
    ) -> bool {
        let n = z_in.len();
        let inp = Input::new(t + h, x + v * h, v);
        w.copy_from_slice(z_in);
        for _ in 0..MAX_NEWTON {
            self.m.rates(&inp, w, mem, s.f);
            if s.f.iter().any(|f| !f.is_finite()) {
                return false;
            }
            // Jacobian of the residual w - z_in - h g(w): I - h ∂g/∂w
            for j in 0..n {
                let wj = w[j];
                let mut eps = 1e-8 * wj.abs().max(z_in[j].abs()).max((h * s.f[j]).abs());
                if eps == 0.0 || !eps.is_finite() {
                    eps = 1e-12;
                }
                w[j] = wj + eps;
                self.m.rates(&inp, w, mem, s.fp);
                w[j] = wj;
                for i in 0..n {
                    s.jac[i * n + j] = -h * (s.fp[i] - s.f[i]) / eps + if i == j { 1.0 } else { 0.0 };
                }
            }
            // a residual already below the tolerance ends the iteration: this
            // also settles kinks of non-smooth state equations (reset
            // integrator), where Newton's method may not converge
            let mut res: f64 = 0.0;
            for i in 0..n {
                s.r[i] = -(w[i] - z_in[i] - h * s.f[i]);
                res = res.max(s.r[i].abs() / (ATOL + RTOL * w[i].abs().max((w[i] - z_in[i]).abs())));
            }
            if res <= 1e-3 {
                return true;
            }
            if !solve(s.jac, s.r, n) {
                return false;
            }
            let mut conv: f64 = 0.0;
            for i in 0..n {
                w[i] += s.r[i];
                if !w[i].is_finite() {
                    return false;
                }
                let scale = ATOL + RTOL * w[i].abs().max((w[i] - z_in[i]).abs());
                conv = conv.max(s.r[i].abs() / scale);
            }
            if conv <= 1e-3 {
                return true;
            }
        }
        false
    }
}

impl<M: FrictionModel + Sync> Implicit<'_, M> {
    /// One forward-Euler step from `z_in` at `(t, x)` over `h`, into `w`.
    #[allow(clippy::too_many_arguments)]
    fn fe(
        &self,
        s: &mut Be<'_>,
        t: f64,
        x: f64,
        v: f64,
        h: f64,
        mem: &[f64],
        z_in: &[f64],
        w: &mut [f64],
    ) -> bool {
        self.m.rates(&Input::new(t, x, v), z_in, mem, s.f);
        for i in 0..w.len() {
            w[i] = z_in[i] + h * s.f[i];
        }
        w.iter().all(|y| y.is_finite())
    }
}

/// Solve `a y = b` in place (`b` becomes `y`) by Gaussian elimination with
/// partial pivoting; `a` is `n × n`, row-major, and is overwritten. False if
/// singular or not finite.
fn solve(a: &mut [f64], b: &mut [f64], n: usize) -> bool {
    for k in 0..n {
        let mut p = k;
        for i in k + 1..n {
            if a[i * n + k].abs() > a[p * n + k].abs() {
                p = i;
            }
        }
        let piv = a[p * n + k];
        if piv == 0.0 || !piv.is_finite() {
            return false;
        }
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
            b.swap(k, p);
        }
        for i in k + 1..n {
            let f = a[i * n + k] / piv;
            if f != 0.0 {
                for j in k..n {
                    a[i * n + j] -= f * a[k * n + j];
                }
                b[i] -= f * b[k];
            }
        }
    }
    for k in (0..n).rev() {
        let mut s = b[k];
        for j in k + 1..n {
            s -= a[k * n + j] * b[j];
        }
        b[k] = s / a[k * n + k];
    }
    b.iter().all(|y| y.is_finite())
}

impl<M: FrictionModel + Sync> Stepper for Implicit<'_, M> {
    type Scratch = Work;

    fn scratch(&self) -> Work {
        let n = self.l.n_states;
        Work { buf: vec![0.0; 8 * n + n * n + self.l.n_memory] }
    }

    fn step(&self, work: &mut Work, dt: f64, du: f64, st: &mut [f64]) -> Result<f64, StepFailure> {
        self.advance(work, dt, du, st, None).map(|(f, _)| f)
    }
}

/// What a model does where its state equation or its memory switches
/// within a sub-step.
pub(crate) enum Switch<'s> {
    /// A return to a switching surface of the state equation (`gms`).
    Surface(Surface<'s>),
    /// A change of the memory located at its instant within the sub-step
    /// (`armstrong`'s break-away).
    Event(&'s dyn Event),
}

/// A model's return to a switching surface of its state equation, called at
/// the end of every accepted sub-step (before [`FrictionModel::accept`])
/// with `(end, dt, z at the sub-step's start, z at its end, memory, S)`: a
/// state that crossed a surface on which the exact motion stays (a `gms`
/// element reaching its slip force: its rate falls from `v` to 0 there) is
/// put back on it, and its sensitivity `S = dz/dΔu` (when carried) jumps
/// as the forward sensitivity does at a discontinuity of the state equation,
/// `S⁺ = S⁻ + (g⁻ - g⁺) dτ*/dΔu` at the crossing time `τ*` (Hiskens & Pai
/// 2000, "Trajectory sensitivity analysis of hybrid systems", IEEE Trans.
/// Circuits Syst. I 47(2)). Without it the discrete step would carry the
/// state past the surface by up to `v h` of the crossing sub-step, an
/// overshoot that depends on where the sub-steps fall, not on `Δu` alone.
pub(crate) type Surface<'s> =
    &'s (dyn Fn(&Input, f64, &[f64], &mut [f64], &[f64], Option<&mut [f64]>) + Sync);

/// A model whose memory changes at an instant within a sub-step that the
/// model can locate (`armstrong`'s break-away, where the spring's force
/// reaches the break-away level), rather than at the sub-step's end where
/// [`FrictionModel::accept`] would record it: an end that moves with the
/// step-size control, not with `Δu` alone. The memory's sensitivity
/// `dmem/dΔu` is carried beside the states' (the saltation of the memory at
/// the event: its new value's derivative through the event's instant
/// `τ*(Δu)`, Hiskens & Pai 2000); the states themselves are continuous
/// there.
pub(crate) trait Event: Sync {
    /// In place of [`FrictionModel::accept`] at the end of an accepted
    /// sub-step from `start` to `end` (states `za` at its start, `z` at its
    /// end) of a step that began at time `t0` and lasts `dt`, with the slip
    /// `x0 + Δu (t - t0)/dt`; with `dmem`, also carry `dmem/dΔu` (of
    /// `mem`'s length) across it.
    #[allow(clippy::too_many_arguments)]
    fn accept_within(
        &self,
        t0: f64,
        dt: f64,
        start: &Input,
        end: &Input,
        za: &[f64],
        z: &mut [f64],
        mem: &mut [f64],
        dmem: Option<&mut [f64]>,
    );
    /// The part of `dF/dΔu` at the step's end through the memory,
    /// `Σ_j ∂F/∂mem_j dmem_j`.
    fn dforce_dmem(&self, end: &Input, z: &[f64], mem: &[f64], dmem: &[f64]) -> f64;
}

/// Work space of the forward sensitivity carried through the sub-steps by
/// [`Implicit::advance`] (allocated once per call): `S = dz/dΔu`, and with
/// [`Sens::with_start`] also `Φ = dz/dz₀`, the sensitivity to the states at
/// the start of the step (one column per state).
pub(crate) struct Sens {
    /// Columns of the sensitivity (1, or `1 + n` with the start states).
    cols: usize,
    /// `S` (its `cols` columns of `n`) at the current sub-step, then those
    /// of `S1`, `Sh`, `S2` of the three backward-Euler solves, `I - h ∂g/∂z`,
    /// and the states before [`FrictionModel::accept`].
    buf: Vec<f64>,
    /// The memory before the last [`FrictionModel::accept`].
    mem: Vec<f64>,
    /// `dmem/dΔu`, carried for a model with an [`Event`] (the column of
    /// `Δu` only: no event's instant depends on the start states).
    dmem: Vec<f64>,
    p: Partials,
}

impl Sens {
    /// The sensitivity to the slip increment only.
    pub(crate) fn new(l: Layout) -> Self {
        Self::columns(l, 1)
    }

    /// The sensitivity to the slip increment and to the states at the start
    /// of the step: after [`Implicit::advance`], [`Sens::column`] `0` is
    /// `dz/dΔu` and column `1 + j` is `dz/dz₀_j`.
    pub(crate) fn with_start(l: Layout) -> Self {
        Self::columns(l, 1 + l.n_states)
    }

    fn columns(l: Layout, cols: usize) -> Self {
        let n = l.n_states;
        Sens {
            cols,
            buf: vec![0.0; 4 * n * cols + n * n + n],
            mem: vec![0.0; l.n_memory],
            dmem: vec![0.0; l.n_memory],
            p: Partials::new(n),
        }
    }

    /// Column `k` of the sensitivity at the end of the last
    /// [`Implicit::advance`].
    pub(crate) fn column(&self, k: usize) -> &[f64] {
        let n = self.p.n();
        &self.buf[k * n..(k + 1) * n]
    }
}

impl<M: FrictionModel + Sync> Implicit<'_, M> {
    /// The sensitivity of one backward-Euler solution `w` of
    /// `w = z + h g(t + h, x + v h, w, v)`, from the sensitivity `s_in` of `z`
    /// (`cols` columns of `n`): `(I - h ∂g/∂w) S_w = S_z + h (∂g/∂x ·
    /// dx_end/dΔu + ∂g/∂v / dt)` for the column of `Δu` (the first), and
    /// `(I - h ∂g/∂w) S_w = S_z` for those of the start states, with the
    /// model's analytic partial derivatives at the solution `w`. False if the
    /// matrix is singular.
    #[allow(clippy::too_many_arguments)]
    fn be_sens(
        &self,
        p: &mut Partials,
        a: &mut [f64],
        end: Input,
        dx_end: f64,
        dt: f64,
        h: f64,
        mem: &[f64],
        w: &[f64],
        s_in: &[f64],
        s_out: &mut [f64],
    ) -> bool {
        let n = w.len();
        self.m.partials(&end, w, mem, p);
        for (c, (si, so)) in s_in.chunks_exact(n).zip(s_out.chunks_exact_mut(n)).enumerate() {
            for i in 0..n {
                so[i] = if c == 0 { si[i] + h * (p.dg_dx[i] * dx_end + p.dg_dv[i] / dt) } else { si[i] };
                for j in 0..n {
                    a[i * n + j] = -h * p.dg_dz[i * n + j] + if i == j { 1.0 } else { 0.0 };
                }
            }
            if !solve(a, so, n) {
                return false;
            }
        }
        true
    }

    /// The sensitivity of one forward-Euler step from `z` (sensitivity
    /// `s_in`, `cols` columns of `n`) at `inp`: `S_w = S_z + h (∂g/∂z S_z +
    /// ∂g/∂x dx/dΔu + ∂g/∂v / dt)` for the column of `Δu`, without the last
    /// two terms for those of the start states.
    #[allow(clippy::too_many_arguments)]
    fn fe_sens(
        &self,
        p: &mut Partials,
        inp: Input,
        dx: f64,
        dt: f64,
        h: f64,
        mem: &[f64],
        z: &[f64],
        s_in: &[f64],
        s_out: &mut [f64],
    ) {
        let n = z.len();
        self.m.partials(&inp, z, mem, p);
        for (c, (si, so)) in s_in.chunks_exact(n).zip(s_out.chunks_exact_mut(n)).enumerate() {
            for i in 0..n {
                let gz: f64 = (0..n).map(|j| p.dg_dz[i * n + j] * si[j]).sum();
                let forcing = if c == 0 { p.dg_dx[i] * dx + p.dg_dv[i] / dt } else { 0.0 };
                so[i] = si[i] + h * (gz + forcing);
            }
        }
    }

    /// Advance one contact as [`Stepper::step`] does; with `sens`, also carry
    /// the sensitivity of the states to the slip increment through every
    /// accepted sub-step (forward sensitivity of the algorithm: the same
    /// sub-steps, each backward-Euler solve differentiated at its solution)
    /// and return `dF/dΔu` beside `F` (0 without `sens`). The states and the
    /// force are computed by the same operations either way.
    pub(crate) fn advance(
        &self,
        work: &mut Work,
        dt: f64,
        du: f64,
        st: &mut [f64],
        mut sens: Option<&mut Sens>,
    ) -> Result<(f64, f64), StepFailure> {
        let n = self.l.n_states;
        let (z, rest) = work.buf.split_at_mut(n);
        let (z1, rest) = rest.split_at_mut(n);
        let (zh, rest) = rest.split_at_mut(n);
        let (z2, rest) = rest.split_at_mut(n);
        let (f, rest) = rest.split_at_mut(n);
        let (fp, rest) = rest.split_at_mut(n);
        let (r, rest) = rest.split_at_mut(n);
        let (za, rest) = rest.split_at_mut(n);
        let (jac, mem) = rest.split_at_mut(n * n);
        let mut s = Be { f, fp, r, jac };
        z.copy_from_slice(&st[self.l.z()]);
        mem.copy_from_slice(&st[self.l.mem()]);
        if let Some(se) = sens.as_deref_mut() {
            // dz/dΔu = 0 and dz/dz₀ = I at the start of the step
            let cols = se.cols;
            se.buf[..n * cols].fill(0.0);
            for j in 1..cols {
                se.buf[j * n + j - 1] = 1.0;
            }
            se.dmem.fill(0.0);
        }
        let (t0, x0, v) = (st[T], st[X], du / dt);
        let (mut tau, mut h) = (0.0, dt);
        let mut count = 0;
        while tau < dt {
            count += 1;
            if count > MAX_SUBSTEPS || h <= 1e-14 * dt {
                return Err(StepFailure { t: t0 + tau });
            }
            let last = tau + h >= dt * (1.0 - 1e-12);
            if last {
                h = dt - tau;
            }
            let (ta, xa) = (t0 + tau, x0 + v * tau);
            let ok = self.be(&mut s, ta, xa, v, h, mem, z, z1)
                && self.be(&mut s, ta, xa, v, 0.5 * h, mem, z, zh)
                && self.be(&mut s, ta + 0.5 * h, xa + 0.5 * v * h, v, 0.5 * h, mem, zh, z2);
            // where Newton's method fails on a small sub-step (a kink of a
            // non-smooth state equation, like the reset integrator's stop at
            // ±z0, where the backward-Euler equation has no solution) the same
            // pair of steps is taken with forward Euler; the error test below
            // still decides, so this trades speed, never accuracy
            let explicit = !ok;
            let ok = ok
                || (h <= EXPLICIT_BELOW * dt
                    && self.fe(&mut s, ta, xa, v, h, mem, z, z1)
                    && self.fe(&mut s, ta, xa, v, 0.5 * h, mem, z, zh)
                    && self.fe(&mut s, ta + 0.5 * h, xa + 0.5 * v * h, v, 0.5 * h, mem, zh, z2));
            if !ok {
                h *= 0.25;
                continue;
            }
            let mut err: f64 = 0.0;
            for i in 0..n {
                let scale = ATOL + RTOL * z[i].abs().max(z2[i].abs()).max((z2[i] - z[i]).abs());
                err = err.max((z2[i] - z1[i]).abs() / scale);
            }
            let grow = if err == 0.0 { 4.0 } else { (0.9 / err.sqrt()).clamp(0.2, 4.0) };
            if err <= 1.0 {
                // extrapolate implicit steps; an explicit pair is across a
                // kink, where extrapolation could throw the state back over it
                if let Some(se) = sens.as_deref_mut() {
                    // the sensitivities of z1, zh, z2 (at their solutions),
                    // before z moves on
                    let m = n * se.cols;
                    let (sz, rest) = se.buf.split_at_mut(m);
                    let (s1, rest) = rest.split_at_mut(m);
                    let (sh, rest) = rest.split_at_mut(m);
                    let (s2, a) = rest.split_at_mut(m);
                    let a = &mut a[..n * n];
                    let p = &mut se.p;
                    let (dxa, dxh, dxe) = (tau / dt, (tau + 0.5 * h) / dt, (tau + h) / dt);
                    let (inh, ine) =
                        (Input::new(ta + 0.5 * h, xa + 0.5 * v * h, v), Input::new(ta + h, xa + v * h, v));
                    let ok = if explicit {
                        self.fe_sens(p, Input::new(ta, xa, v), dxa, dt, 0.5 * h, mem, z, sz, sh);
                        self.fe_sens(p, inh, dxh, dt, 0.5 * h, mem, zh, sh, s2);
                        true
                    } else {
                        self.be_sens(p, a, ine, dxe, dt, h, mem, z1, sz, s1)
                            && self.be_sens(p, a, inh, dxh, dt, 0.5 * h, mem, zh, sz, sh)
                            && self.be_sens(p, a, ine, dxe, dt, 0.5 * h, mem, z2, sh, s2)
                    };
                    if !ok {
                        return Err(StepFailure { t: t0 + tau });
                    }
                    for i in 0..m {
                        sz[i] = if explicit { s2[i] } else { 2.0 * s2[i] - s1[i] };
                    }
                }
                if self.switch.is_some() {
                    za.copy_from_slice(z);
                }
                for i in 0..n {
                    z[i] = if explicit { z2[i] } else { 2.0 * z2[i] - z1[i] };
                }
                tau = if last { dt } else { tau + h };
                let end = if last {
                    Input::new(t0 + dt, x0 + du, v)
                } else {
                    Input::new(t0 + tau, x0 + v * tau, v)
                };
                if let Some(Switch::Surface(sw)) = self.switch {
                    sw(&end, dt, za, z, mem, sens.as_deref_mut().map(|se| &mut se.buf[..n]));
                }
                if let Some(se) = sens.as_deref_mut() {
                    se.mem.copy_from_slice(mem);
                    // z before accept, to see which states it sets
                    let at = se.buf.len() - n;
                    se.buf[at..].copy_from_slice(z);
                }
                if let Some(Switch::Event(ev)) = self.switch {
                    let start = Input::new(ta, xa, v);
                    ev.accept_within(
                        t0,
                        dt,
                        &start,
                        &end,
                        za,
                        z,
                        mem,
                        sens.as_deref_mut().map(|se| &mut se.dmem[..]),
                    );
                } else {
                    self.m.accept(&end, z, mem);
                }
                if let Some(se) = sens.as_deref_mut() {
                    // a state that accept sets (the reset integrator's stop
                    // at ±z0) is a constant there: its sensitivity is 0
                    let (sz, rest) = se.buf.split_at_mut(n * se.cols);
                    let before = &rest[rest.len() - n..];
                    for col in sz.chunks_exact_mut(n) {
                        for ((s, &zi), &zb) in col.iter_mut().zip(z.iter()).zip(before) {
                            if zi != zb {
                                *s = 0.0;
                            }
                        }
                    }
                }
            }
            h *= grow;
        }
        let inp = Input::new(t0 + dt, x0 + du, v);
        let f = self.m.force(&inp, z, mem);
        if !f.is_finite() {
            return Err(StepFailure { t: t0 + dt });
        }
        let mut df = 0.0;
        if let Some(se) = sens {
            // with the memory of before the last accept, as the direct
            // update's tangent: a hysteresis element that slipped over the
            // last sub-step is at its slip limit after `accept`, where the
            // partials (memory held) would count it as sticking; a model
            // with an event takes the memory the event left (the branch it
            // recorded, with the values of the event's instant), and the
            // memory's part of the derivative
            let (pm, dm) = match self.switch {
                Some(Switch::Event(ev)) => (&mem[..], ev.dforce_dmem(&inp, z, mem, &se.dmem)),
                _ => (&se.mem[..], 0.0),
            };
            self.m.partials(&inp, z, pm, &mut se.p);
            let p = &se.p;
            df = p.df_dx + p.df_dv / dt + (0..n).map(|j| p.df_dz[j] * se.buf[j]).sum::<f64>() + dm;
            if !df.is_finite() {
                return Err(StepFailure { t: t0 + dt });
            }
        }
        st[T] = inp.t;
        st[X] = inp.x;
        st[self.l.z()].copy_from_slice(z);
        st[self.l.mem()].copy_from_slice(mem);
        Ok((f, df))
    }
}
