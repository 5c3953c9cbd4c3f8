//! Why the backbone's damping ratio and the free decay's per-cycle damping
//! ratio of `examples/jointed_decay.toml` differ, by an independent
//! calculation (issue 44).
//!
//! The example is one mass `m` on a spring `k` in parallel with an Iwan joint
//! of `N` elastic-perfectly-plastic elements (stiffness `k_j`, slip
//! displacement `φ_j`), released from rest. The joint is rate independent
//! and nothing else dissipates, so between two turning points (v = 0) the
//! kinetic energy is minus the work of a piecewise-linear force: each
//! turning point follows from the last in closed form (a quadratic per
//! segment between the elements' slip points). That is the exact free
//! decay, computed here without the engine.
//!
//! The backbone (extended periodic motion concept, `friction nnm`) reports
//! at fundamental amplitude `A` the energy `D(A)` dissipated per cycle and
//! `ζ = D / (2π m ω² A²)`: the viscous damping that would dissipate `D` on
//! a harmonic orbit of the backbone's frequency `ω`. A free decay loses `D`
//! per cycle from the energy held at a turning point,
//! `E(A) = ½ k A² + Σ ½ k_j min(A, φ_j)²` (the Masing cycle's state), so
//! per cycle `ΔA ≈ D / E'(A)` with `E'(A) = A k_r(A)`, `k_r = k + Σ_{φ_j > A} k_j`
//! the stiffness of what still sticks at the reversal, and
//!
//! ```text
//! δ = ΔA / A = 2π ζ · m ω² / k_r(A)
//! ```
//!
//! For a linear system `m ω² = k_r` and the two ratios agree; a joint that
//! softens has `m ω²` (its secant stiffness) above `k_r` (its tangent at
//! the reversal), and the decay's per-cycle ratio is larger than the
//! backbone's by that factor: 3-17 % on this example. Neither side is
//! wrong; they are different measures, and the decay follows from the
//! backbone's dissipation through the energy at the turning points.

use std::f64::consts::PI;

use friction_hb::nnm::{nnm, NnmOptions};
use friction_models::AnyModel;
use friction_sim::{scenario, simulate, Outcome};

/// The example's mass, spring, joint elements and release point.
struct Oscillator {
    m: f64,
    k: f64,
    /// (k_j, φ_j) of every joint element
    el: Vec<(f64, f64)>,
    x0: f64,
}

fn example() -> (friction_sim::System, Oscillator) {
    let sys = scenario::load(std::path::Path::new("../../examples/jointed_decay.toml")).unwrap();
    let AnyModel::Iwan4(iwan) = &sys.contacts[0].model else { panic!("the example's joint is iwan4") };
    let el = iwan.elements().iter().map(|e| (e.k, e.phi)).collect();
    let osc = Oscillator { m: sys.bodies[0].mass, k: sys.springs[0].stiffness, el, x0: sys.bodies[0].x0 };
    (sys, osc)
}

impl Oscillator {
    /// The turning points of the free decay from rest at `x0` with every
    /// element relaxed there (`iwan4` starts relaxed), `count` of them after
    /// the start, exactly: on each monotone leg the force is piecewise
    /// linear in x, and the kinetic energy `T = -∫ F dx` is a quadratic per
    /// segment whose root is the next turning point.
    fn exact_turning_points(&self, count: usize) -> Vec<f64> {
        let mut x = self.x0;
        let mut s: Vec<f64> = vec![x; self.el.len()];
        let mut out = Vec::with_capacity(count);
        let force = |x: f64, s: &[f64]| {
            self.k * x + self.el.iter().zip(s).map(|(&(k, p), &sj)| k * (x - sj).clamp(-p, p)).sum::<f64>()
        };
        for _ in 0..count {
            let f0 = force(x, &s);
            let d = -f0.signum();
            // the elements that slip on this leg, where: distance from x
            let mut slips: Vec<(f64, usize)> =
                self.el.iter().zip(&s).enumerate().map(|(j, (&(_, p), &sj))| (p - d * (x - sj), j)).collect();
            slips.sort_by(|a, b| a.0.total_cmp(&b.0));
            // stiffness of the leg's first segment: the spring and every
            // element not at its slip limit
            let mut kseg =
                self.k + slips.iter().filter(|(u, _)| *u > 0.0).map(|&(_, j)| self.el[j].0).sum::<f64>();
            // T(u) = t0 + p u - ½ kseg u², u the distance travelled
            let (mut t0, mut p, mut u0) = (0.0, -d * f0, 0.0);
            let mut next = slips.iter().filter(|(u, _)| *u > 0.0).peekable();
            let u = loop {
                let disc = p * p + 2.0 * kseg * t0;
                let root = if p >= 0.0 { (p + disc.sqrt()) / kseg } else { 2.0 * t0 / (disc.sqrt() - p) };
                match next.peek() {
                    Some(&&(us, j)) if u0 + root > us => {
                        let l = us - u0;
                        t0 += p * l - 0.5 * kseg * l * l;
                        p -= kseg * l;
                        u0 = us;
                        kseg -= self.el[j].0;
                        next.next();
                    }
                    _ => break u0 + root,
                }
            };
            x += d * u;
            for (sj, &(_, p)) in s.iter_mut().zip(&self.el) {
                if d * (x - *sj) > p {
                    *sj = x - d * p;
                }
            }
            out.push(x);
        }
        out
    }

    /// The energy at a turning point of a symmetric (Masing) cycle of
    /// amplitude `a`, and its stiffness at the reversal `k_r(a)`.
    fn turning_energy(&self, a: f64) -> (f64, f64) {
        let e = 0.5 * self.k * a * a + self.el.iter().map(|&(k, p)| 0.5 * k * a.min(p).powi(2)).sum::<f64>();
        let kr = self.k + self.el.iter().filter(|&&(_, p)| p > a).map(|&(k, _)| k).sum::<f64>();
        (e, kr)
    }
}

/// The engine's turning points of a free decay: where the velocity column
/// changes sign between rows, located on the cubic Hermite interpolant of
/// x and v between them (error about A (ω h)⁴ / 384, 3e-10 A here).
fn engine_turning_points(out: &Outcome) -> Vec<f64> {
    let (ti, xi, vi) = (out.col("t").unwrap(), out.col("x.m").unwrap(), out.col("v.m").unwrap());
    let mut tp = Vec::new();
    for w in out.rows.windows(2) {
        let (t0, x0, v0) = (w[0][ti], w[0][xi], w[0][vi]);
        let (t1, x1, v1) = (w[1][ti], w[1][xi], w[1][vi]);
        if !(v0 * v1 < 0.0 || (v1 == 0.0 && v0 != 0.0)) {
            continue;
        }
        let h = t1 - t0;
        // Hermite cubic in s in [0, 1]: x(s) = a + b s + c s² + e s³
        let (a, b) = (x0, v0 * h);
        let c = 3.0 * (x1 - x0) - 2.0 * v0 * h - v1 * h;
        let e = 2.0 * (x0 - x1) + v0 * h + v1 * h;
        // x'(s) = b + 2c s + 3e s² = 0 in [0, 1]: bisection (one sign change)
        let dx = |s: f64| b + 2.0 * c * s + 3.0 * e * s * s;
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..80 {
            let mid = 0.5 * (lo + hi);
            if dx(mid) * dx(lo) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let s = 0.5 * (lo + hi);
        tp.push(a + b * s + c * s * s + e * s * s * s);
    }
    tp
}

/// The engine's free decay of the example equals the exact turning-point
/// map, and converges to it with the tolerance: as shipped (tsit45 at rtol
/// 1e-8) every turning point within 5e-6 of the release amplitude (3.5e-6
/// measured: the joint's 101 kinks in the force cost the global error two
/// orders over rtol), at rtol 1e-10 within 5e-7 (3.5e-7 measured).
#[test]
fn jointed_decay_turning_points_equal_the_exact_energy_map() {
    let (sys, osc) = example();
    for (rtol, bound) in [(None, 5e-6), (Some(1e-10), 5e-7)] {
        let mut sys = sys.clone();
        if let Some(r) = rtol {
            sys.solver.rtol = r;
            sys.solver.atol_position *= 1e-2;
            sys.solver.atol_velocity *= 1e-2;
        }
        let out = simulate(&sys).unwrap();
        let engine = engine_turning_points(&out);
        assert!(engine.len() > 40, "{} turning points", engine.len());
        let exact = osc.exact_turning_points(engine.len());
        let worst = engine.iter().zip(&exact).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        eprintln!(
            "rtol {:e} ({}): {} turning points, worst difference {worst:.3e} m of x0 = {:e} m",
            sys.solver.rtol,
            out.stats.method,
            engine.len(),
            osc.x0
        );
        assert!(worst < bound * osc.x0, "rtol {:e}: worst {worst:e} m", sys.solver.rtol);
    }
}

/// The backbone's dissipation per cycle predicts the exact free decay's
/// per-cycle loss of amplitude through the energy at a turning point, and
/// the backbone's ζ differs from the decay's by the factor m ω² / k_r(A)
/// (the module's derivation).
#[test]
fn jointed_decay_backbone_damping_explains_the_free_decay_per_cycle() {
    let (sys, osc) = example();
    let x = osc.exact_turning_points(60);
    // the cycles as transient_decay forms them: half amplitudes h of
    // successive half-swings, one cycle per two of them
    let h: Vec<f64> = x.windows(2).map(|w| 0.5 * (w[1] - w[0]).abs()).collect();
    let cycles: Vec<(f64, f64, f64)> = (0..h.len() - 1)
        .step_by(4)
        .map(|k| {
            let delta = 2.0 * (h[k] / h[k + 1]).ln();
            let zeta = delta / (4.0 * PI * PI + delta * delta).sqrt();
            (0.5 * (h[k] + h[k + 1]), zeta, h[k] - h[k + 1])
        })
        .collect();
    let opts =
        NnmOptions { amplitudes: cycles.iter().map(|c| c.0).collect(), harmonics: 5, ..Default::default() };
    let r = nnm(&sys, &opts).unwrap();
    let (mut worst_pred, mut worst_factor, mut widest) = (0.0f64, 0.0f64, 0.0f64);
    for (&(a, zeta_decay, dh), p) in cycles.iter().zip(&r.points) {
        let w = 2.0 * PI * p.f;
        // half a cycle's loss of amplitude from the energy at the turning
        // points: E(a + dh/2) - E(a - dh/2) = D/2
        let (_, kr) = osc.turning_energy(a);
        let dh_pred = 0.5 * p.energy_per_cycle / (a * kr);
        let pred = (dh_pred / dh - 1.0).abs();
        // the backbone's ζ against the decay's, and the factor between them
        let ratio = zeta_decay / p.zeta;
        let factor = osc.m * w * w / kr;
        eprintln!(
            "A = {a:.3e} m: decay ζ {zeta_decay:.5}, backbone ζ {:.5} (ratio {ratio:.4}, m ω²/k_r {factor:.4}); \
             half-cycle loss {dh:.4e} m, from D and E'(A) {dh_pred:.4e} m",
            p.zeta
        );
        worst_pred = worst_pred.max(pred);
        worst_factor = worst_factor.max((ratio / factor - 1.0).abs());
        widest = widest.max(ratio - 1.0);
    }
    // the two ratios do differ (17 % at the largest amplitude, 3 % at the
    // smallest: measured 1.30 % and 1.37 % at worst above)
    eprintln!("worst: loss of amplitude {worst_pred:.3e}, factor {worst_factor:.3e}, widest {widest:.3}");
    assert!(widest > 0.1, "the largest difference of the damping ratios is {widest:.3}");
    assert!(worst_pred < 0.015, "loss of amplitude from the backbone's D off by {worst_pred:.3e}");
    assert!(worst_factor < 0.015, "ζ_decay / ζ_backbone off the factor m ω²/k_r by {worst_factor:.3e}");
}
