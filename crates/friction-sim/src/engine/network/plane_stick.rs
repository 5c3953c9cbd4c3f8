//! A set-valued contact in a plane (`coulomb`, `coulomb_viscous`,
//! `stribeck`, `stribeck_exp` between bodies of dim 3) held exactly on its
//! friction disk: the isotropic Coulomb law of the plane (M. Jean 1999,
//! "The non-smooth contact dynamics method", Comput. Methods Appl. Mech.
//! Engrg. 177, sec. 3; Ch. Glocker 2001, *Set-Valued Force Laws*, ch. 7),
//!
//! ```text
//! held    (v = 0):  F = λ, the force that keeps the slip at rest,  |λ| <= Fs N
//! sliding (v ≠ 0):  F = F₁(|v|) v/|v|  (the model's sliding force along the slip)
//! ```
//!
//! with `Fs` the model's static force per unit load, `N` the contact's load
//! and `F` the force on its second member (the first feels `-F`).
//!
//! **Held.** The members' x and y are held to one acceleration each, as the
//! stuck contacts along one direction are (`constraint_forces.rs`): a body
//! on the ground or a driver takes the anchor's, two bodies their common
//! `Σf / Σm`. `λ` is what that takes, found after every other force
//! ([`Engine::disk_stick_forces`]); the slip velocity therefore stays at
//! the zero it was set to under any integration formula. No other
//! constraint may act on those coordinates (`system::planar::disk_conflict`
//! refuses it), so the force is found from theirs alone. Its root is the
//! room left on the disk, `Fs N (1 + 1e-9) - |λ|`: where it reaches zero the
//! contact breaks away and slides along `λ`'s direction, the direction in
//! which its members' free relative acceleration points.
//!
//! **Sliding.** The force's direction is the slip's, but the slip passes
//! through zero at an arrival and its direction would jump there. So the
//! direction `e` at the last accepted step is kept ([`Discrete::plane_dir`],
//! updated on every accepted step) and the force is `F₁(|v|) sgn(v·e)
//! v/|v|`: the slip's own direction while `v·e > 0`, held through the
//! arrival after it, as a sliding contact along one direction keeps its
//! sign. Its root is `v·e`. At a root with `|v|` within the velocity
//! tolerance the slip arrived: its members' velocities are made equal (the
//! momentum of two bodies kept) and the contact is held if `|λ| <= Fs N`,
//! else it slides on from rest along `λ`. A root with `|v|` larger is a
//! slip that turned through a right angle within one step: `e` is taken
//! anew and nothing else changes. A slip that has moved and ends a step at
//! rest to the velocity tolerance without its root (the steps shrink with
//! the speed as it arrives) arrives there too.
//!
//! **Methods.** A slip that starts from rest turns towards the free force
//! at a rate `F₁ N / (m |v|)`, without bound: only the engine's one-step
//! methods (`radau5`, `auto`'s choice, `rodas5p`, `dop853`) are taken
//! (`integrate/method.rs`, where the measurements are).
//!
//! [`Discrete::plane_dir`]: crate::engine::network::Discrete

use friction_models::plane::PlaneLaw;
use friction_models::{AnyModel, FrictionModel, Input};

use crate::engine::network::{Discrete, Engine, Scratch};
use crate::engine::outcome::Event;
use crate::system::Member;

/// Relative margin of the break-away root above the rim, so that a contact
/// settled exactly at its limit starts on the positive side.
const RIM: f64 = 1e-9;

/// The sliding force per unit load at slip velocity `v` with the reference
/// direction `e` (see the module), and `sgn(v·e)` (1 at rest, where the
/// force is `F₁(0+) e`).
#[inline]
pub(crate) fn slide_force(m: &AnyModel, t: f64, v: [f64; 2], e: [f64; 2]) -> ([f64; 2], f64) {
    if v[0] != 0.0 || v[1] != 0.0 {
        // the radial map `F₁(|v|) v/|v|`, held through an arrival
        let sgn = if v[0] * e[0] + v[1] * e[1] < 0.0 { -1.0 } else { 1.0 };
        let f = PlaneLaw::Radial.eval_in(m, t, v, &[], None, true);
        ([sgn * f[0], sgn * f[1]], sgn)
    } else {
        let f1 = m.force(&Input::new(t, 0.0, f64::MIN_POSITIVE), &[], &[]);
        ([f1 * e[0], f1 * e[1]], 1.0)
    }
}

/// The slip velocity at which the sliding law's partial derivatives are
/// taken for the Jacobian, `w = sgn(v·e) v` (the direction held past an
/// arrival), or `delta e` at rest, and `sgn(v·e)` (1 at rest). At rest the
/// law's derivative across the slip, `F₁ / |v|`, is not defined, and the
/// model's slope `F₁'(0) I` (0 for `coulomb`) has none of it: where a slip
/// started from rest with the free force barely above the rim (Fs = Fc
/// under a load that falls), Radau5's Newton iterations failed on it until
/// its steps fell below 1e-13 s. Taken at `delta e` the slip's first
/// iterations see a stiffness `F₁ / delta` across it. Measured for `delta`
/// (a multiple of the velocity tolerance, 1e-9 m/s by default): 1e3 takes
/// that case through and leaves `examples/plane_stick_slip.toml`'s
/// dissipation by Radau5 and Rodas5P at 1.428608-9 J (as before, to 1e-6);
/// 1 also takes it through but moves that dissipation by 1.7e-5 (Radau5)
/// and 2.4e-5 (Rodas5P) of it at rtol 1e-8 (the Jacobian enters the
/// Rosenbrock formula, and Radau5's Newton stops at its own tolerance); 1e6
/// stalls again. The force itself is the law's at `v` ([`slide_force`]).
#[inline]
pub(crate) fn slide_velocity(v: [f64; 2], e: [f64; 2], delta: f64) -> ([f64; 2], f64) {
    let sgn = if v[0] * e[0] + v[1] * e[1] < 0.0 { -1.0 } else { 1.0 };
    let d = if v[0] == 0.0 && v[1] == 0.0 { delta } else { 0.0 };
    ([sgn * v[0] + d * e[0], sgn * v[1] + d * e[1]], sgn)
}

impl Engine<'_> {
    /// Whether any contact in a plane is held on its friction disk.
    pub(crate) fn disk_held(&self, d: &Discrete) -> bool {
        self.planes.iter().enumerate().any(|(p, pl)| pl.disk.is_some() && !d.plane_slide[p])
    }

    /// The slip velocity within which a sliding contact on a disk has
    /// arrived at rest (as along one direction without a stick band).
    fn disk_vtol(&self) -> f64 {
        10.0 * self.sys.solver.atol_velocity
    }

    /// The slip velocity at which a sliding disk contact's Jacobian is taken
    /// at rest ([`slide_velocity`]): 1e3 velocity tolerances.
    pub(crate) fn disk_delta(&self) -> f64 {
        1e3 * self.sys.solver.atol_velocity
    }

    /// Hold members `a`, `b` along one axis to one acceleration: sets their
    /// accelerations and forces in `s`, returns the force on `a`.
    fn hold_axis(&self, s: &mut Scratch, a: Member, b: Member) -> f64 {
        let m = |i: usize| self.sys.bodies[i].mass;
        let anchor = |s: &Scratch, x: Member| if let Member::Driver(k) = x { s.drv[k].2 } else { 0.0 };
        match (a, b) {
            (Member::Body(i), Member::Body(j)) => {
                let acc = (s.f[i] + s.f[j]) / (m(i) + m(j));
                let l = m(i) * acc - s.f[i];
                s.f[i] += l;
                s.f[j] -= l;
                s.a[i] = acc;
                s.a[j] = acc;
                l
            }
            (Member::Body(i), other) => {
                let acc = anchor(s, other);
                let l = m(i) * acc - s.f[i];
                s.f[i] += l;
                s.a[i] = acc;
                Self::add_force(s, other, -l);
                l
            }
            (other, Member::Body(j)) => {
                let acc = anchor(s, other);
                let l = m(j) * acc - s.f[j];
                s.f[j] += l;
                s.a[j] = acc;
                Self::add_force(s, other, -l);
                -l
            }
            _ => 0.0,
        }
    }

    /// The forces of the contacts held on their disks, after every other
    /// force (`s.f`, `s.a` hold the rest): each one's members move with one
    /// acceleration along x and along y; its force on the second member is
    /// kept in `s.plane` (the power and the columns read it there).
    pub(crate) fn disk_stick_forces(&self, d: &Discrete, s: &mut Scratch) {
        for (p, pl) in self.planes.iter().enumerate() {
            if pl.disk.is_none() || d.plane_slide[p] {
                continue;
            }
            let lx = self.hold_axis(s, pl.x[0], pl.x[1]);
            let ly = self.hold_axis(s, pl.y[0], pl.y[1]);
            s.plane[p].1 = [-lx, -ly];
        }
    }

    /// The held contacts' part of `J v`: their members' accelerations are
    /// those the holding gives from the changes of the forces `df`.
    pub(crate) fn disk_jvp(&self, d: &Discrete, df: &[f64], acc: &mut [f64]) {
        let m = |i: usize| self.sys.bodies[i].mass;
        for (p, pl) in self.planes.iter().enumerate() {
            if pl.disk.is_none() || d.plane_slide[p] {
                continue;
            }
            for [a, b] in [pl.x, pl.y] {
                match (a, b) {
                    (Member::Body(i), Member::Body(j)) => {
                        let da = (df[i] + df[j]) / (m(i) + m(j));
                        acc[i] = da;
                        acc[j] = da;
                    }
                    // an anchor's acceleration does not depend on the state
                    (Member::Body(i), _) | (_, Member::Body(i)) => acc[i] = 0.0,
                    _ => {}
                }
            }
        }
    }

    /// The root of contact `p` on a disk (see the module): held, the room
    /// left on the disk; sliding, `v·e` (the least positive margin: a
    /// contact that broke away starts at `v = 0`). `s` holds an evaluation
    /// at the same instant.
    pub(crate) fn disk_root(fs: f64, v: [f64; 2], d: &Discrete, s: &Scratch, p: usize) -> f64 {
        if d.plane_slide[p] {
            let e = d.plane_dir[p];
            v[0] * e[0] + v[1] * e[1] + f64::MIN_POSITIVE
        } else {
            let (_, f, n) = s.plane[p];
            fs * n * (1.0 + RIM) - f[0].hypot(f[1]) + f64::MIN_POSITIVE
        }
    }

    /// The event of contact `p`'s root at (t, y): a held contact breaks
    /// away; a sliding one arrives (held, or sliding on from rest along its
    /// force) or, with its slip not at rest, takes a new reference
    /// direction (no event).
    pub(crate) fn disk_event(&self, t: f64, y: &mut [f64], p: usize) -> Option<Event> {
        if !self.disc.borrow().plane_slide[p] {
            return self.disk_break(t, y, p);
        }
        let v = {
            let mut s = self.scr.borrow_mut();
            s.drivers_at(&self.sys.drivers, t);
            self.plane_slip(y, &s, &self.planes[p]).1
        };
        let speed = v[0].hypot(v[1]);
        if speed > self.disk_vtol() {
            self.disc.borrow_mut().plane_dir[p] = [v[0] / speed, v[1] / speed];
            return None;
        }
        self.disk_settle(t, y, p)
    }

    /// Held contact `p` slides, along its force (the direction its
    /// members' free relative acceleration points).
    fn disk_break(&self, t: f64, y: &[f64], p: usize) -> Option<Event> {
        let mut d = self.disc.borrow_mut();
        let f = {
            let mut s = self.scr.borrow_mut();
            self.eval(t, y, &d, &mut s, None);
            s.plane[p].1
        };
        let len = f[0].hypot(f[1]);
        if len > 0.0 {
            d.plane_dir[p] = [f[0] / len, f[1] / len];
        }
        d.plane_slide[p] = true;
        d.plane_moved[p] = false;
        self.jac.borrow_mut().invalidate();
        Some(Event { t, contact: self.planes[p].name.clone(), from: "stuck".into(), to: "sliding".into() })
    }

    /// Sliding contact `p` at rest: its members' velocities made equal
    /// along x and y (two bodies' momentum kept), then held if its force
    /// stays on the disk (`|λ| <= Fs N`: without load, if it is zero), else
    /// sliding on from rest along it.
    fn disk_settle(&self, t: f64, y: &mut [f64], p: usize) -> Option<Event> {
        let pl = &self.planes[p];
        let mut d = self.disc.borrow_mut();
        let mut s = self.scr.borrow_mut();
        s.drivers_at(&self.sys.drivers, t);
        self.disk_join(y, &s, p);
        d.plane_slide[p] = false;
        self.eval(t, y, &d, &mut s, None);
        let (_, f, n) = s.plane[p];
        let len = f[0].hypot(f[1]);
        self.jac.borrow_mut().invalidate();
        // without load it holds only where nothing pulls (a puck landing
        // at rest in the plane)
        if len <= pl.disk.unwrap_or(0.0) * n.max(0.0) {
            return Some(Event { t, contact: pl.name.clone(), from: "sliding".into(), to: "stuck".into() });
        }
        d.plane_slide[p] = true;
        d.plane_moved[p] = false;
        if len > 0.0 {
            d.plane_dir[p] = [f[0] / len, f[1] / len];
        }
        None
    }

    /// Contact `p`'s members' velocities made equal along x and y (two
    /// bodies' momentum kept; a body on an anchor takes its velocity). The
    /// drivers' motions must be in `s`.
    fn disk_join(&self, y: &mut [f64], s: &Scratch, p: usize) {
        let pl = &self.planes[p];
        let nb = self.nb;
        let m = |i: usize| self.sys.bodies[i].mass;
        for [a, b] in [pl.x, pl.y] {
            match (a, b) {
                (Member::Body(i), Member::Body(j)) => {
                    let v = (m(i) * y[nb + i] + m(j) * y[nb + j]) / (m(i) + m(j));
                    y[nb + i] = v;
                    y[nb + j] = v;
                }
                (Member::Body(i), o) | (o, Member::Body(i)) => y[nb + i] = self.pos(y, s, o).1,
                _ => {}
            }
        }
    }

    /// Contacts on disks made consistent at `t` after a jump (a breakpoint
    /// of a schedule, the start, a gap opening or closing, a crossing the
    /// root finder missed): a held one with its force off the disk slides
    /// (without load it stays held only while nothing pulls it); a sliding
    /// one at rest, or past its arrival, settles.
    pub(crate) fn disk_recheck(&self, t: f64, y: &mut [f64]) -> Vec<Event> {
        let mut ev = Vec::new();
        for p in 0..self.planes.len() {
            let Some(fs) = self.planes[p].disk else { continue };
            let (held, e) = {
                let d = self.disc.borrow();
                (!d.plane_slide[p], d.plane_dir[p])
            };
            let (v, f, n) = {
                let d = self.disc.borrow();
                let mut s = self.scr.borrow_mut();
                self.eval(t, y, &d, &mut s, None);
                s.plane[p]
            };
            if held {
                if f[0].hypot(f[1]) > fs * n.max(0.0) * (1.0 + RIM) {
                    ev.extend(self.disk_break(t, y, p));
                }
            } else if v[0].hypot(v[1]) <= self.disk_vtol() || v[0] * e[0] + v[1] * e[1] < 0.0 {
                ev.extend(self.disk_settle(t, y, p));
            }
        }
        ev
    }

    /// Whether a contact on a disk went past an event the root finder did
    /// not see (a held force beyond the disk, a slip past its arrival).
    pub(crate) fn disk_missed(&self, t: f64, y: &[f64], d: &Discrete) -> bool {
        if !self.planes.iter().any(|p| p.disk.is_some()) {
            return false;
        }
        let mut s = self.scr.borrow_mut();
        self.eval(t, y, d, &mut s, None);
        let vtol = self.disk_vtol();
        self.planes.iter().enumerate().any(|(p, pl)| {
            let Some(fs) = pl.disk else { return false };
            let (v, f, n) = s.plane[p];
            if d.plane_slide[p] {
                // past its arrival, or at rest to the tolerance after it
                // moved: the steps towards an arrival shrink with the speed
                // (at atol 1e-12 Radau5's fell below 1e-13 s at 1e-13 m/s)
                let e = d.plane_dir[p];
                v[0] * e[0] + v[1] * e[1] < -vtol || (d.plane_moved[p] && v[0].hypot(v[1]) <= vtol)
            } else {
                f[0].hypot(f[1]) > fs * n.max(0.0) * (1.0 + 1e-6) + 1e-12 * (1.0 + fs * n.abs())
            }
        })
    }

    /// After an accepted step ending at (t, y): every sliding contact's
    /// reference direction becomes its slip's (not past an arrival, which
    /// its root is for). The drivers' motions must be in `s`.
    pub(crate) fn disk_accept(&self, y: &[f64], d: &mut Discrete, s: &Scratch) {
        for (p, pl) in self.planes.iter().enumerate() {
            if pl.disk.is_none() || !d.plane_slide[p] {
                continue;
            }
            let (_, v) = self.plane_slip(y, s, pl);
            let e = d.plane_dir[p];
            let speed = v[0].hypot(v[1]);
            if speed > 0.0 && v[0] * e[0] + v[1] * e[1] > 0.0 {
                d.plane_dir[p] = [v[0] / speed, v[1] / speed];
            }
            if speed > self.disk_vtol() {
                d.plane_moved[p] = true;
            }
        }
    }

    /// The start: a contact on a disk at rest (within the velocity
    /// tolerance) held, its members' velocities made equal; one in motion
    /// sliding along its slip. Whether the held ones can stay so is
    /// [`Engine::disk_recheck`]'s decision after the others are settled.
    pub(crate) fn disk_start(&self, y: &mut [f64]) {
        let mut d = self.disc.borrow_mut();
        let mut s = self.scr.borrow_mut();
        s.drivers_at(&self.sys.drivers, 0.0);
        for (p, pl) in self.planes.iter().enumerate() {
            if pl.disk.is_none() {
                continue;
            }
            let (_, v) = self.plane_slip(y, &s, pl);
            let speed = v[0].hypot(v[1]);
            d.plane_slide[p] = speed > self.disk_vtol();
            d.plane_moved[p] = d.plane_slide[p];
            if d.plane_slide[p] {
                d.plane_dir[p] = [v[0] / speed, v[1] / speed];
            } else {
                self.disk_join(y, &s, p);
            }
        }
    }
}
