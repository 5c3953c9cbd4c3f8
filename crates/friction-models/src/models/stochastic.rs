//! `stochastic`: adds seeded, band-limited friction noise of given standard
//! deviation and typical frequency to any inner model (Andersson, Söderberg, Björklund 2007, eq. 21).
//!
//! # Equations
//! ```text
//! F = F_inner(x, v, z_inner) + P(τ)
//! P(τ) = A sqrt(2/M) Σ_{j=0}^{M-1} cos(2π f_j τ + φ_j)
//! f_j = f (1 - b/2 + b (j + u_j)/M),  φ_j = 2π u'_j,  u_j, u'_j ~ U[0, 1) drawn from ChaCha8(seed)
//! τ = t                        without speed_ref
//! dτ/dt = |v| / v_ref          with speed_ref: the noise frequency is f |v| / v_ref
//! std(P) = A, mean(P) = 0; one-sided spectrum ≈ flat, A²/(b f), on [f (1 - b/2), f (1 + b/2)]
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | F_inner | `inner` | - | a model table | "dahl" | the smooth friction model the noise is added to |
//! | A | `std` | N | [0, inf) | 0.05 | standard deviation of the friction noise |
//! | f | `frequency` | Hz | (0, inf) | 100 | typical (centre) frequency of the noise |
//! | v_ref | `speed_ref` | m/s | (0, inf) | none | if given, the noise frequency is f |v|/v_ref (asperity passing), else f |
//! | b | `bandwidth` | - | (0, 2) | 1 | relative width of the noise band around f |
//! | M | `components` | - | integer in [1, 10000] | 32 | number of sinusoids in the noise |
//! | seed | `seed` | - | integer >= 0 | 0 | seed of the random frequencies and phases |
//!
//! # States
//! `z = [z_inner..., τ]`: the inner model's states, followed, only when
//! `speed_ref` is given, by the noise phase `τ` \[s\] (sliding distance over
//! v_ref), starting at 0. `mem` is the inner model's memory. The random
//! frequencies and phases are fixed when the model is built, so the force
//! is a pure function of (t or τ, seed) and the inner model's arguments.
//!
//! # Choices
//! Andersson, Söderberg, Björklund 2007 asks for noise with controllable amplitude (a standard
//! deviation) and frequency, not white noise, and notes that the frequency
//! may follow the sliding speed. This model realises it as a random-phase
//! sum of M sinusoids (Shinozuka's spectral representation) with jittered,
//! evenly spread frequencies in the band: over a long window its standard
//! deviation is A and its spectrum is flat over the band and zero outside,
//! and for large M it is close to Gaussian. Without `speed_ref` the noise
//! runs in time, also while the contact is stuck; with `speed_ref` it runs
//! with the sliding distance and freezes at rest. The noise is added to the
//! sliding force and to the force of the inner model's states; the maximum
//! static force, stick band and stiffness are the inner model's.
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007, section 4, eq. 21; M. Shinozuka and
//! C.-M. Jan, "Digital simulation of random processes and its applications",
//! J. Sound Vib. 25(1), 1972.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, Range};
use crate::registry::AnyModel;

/// Static description of `stochastic`.
pub static INFO: ModelInfo = ModelInfo {
    id: "stochastic",
    summary: "adds seeded band-limited noise P(A, f) to an inner model, optionally speed-proportional",
    family: Family::Wrapper,
    equations: "F = F_inner(x, v, z_inner) + P(τ)
P(τ) = A sqrt(2/M) Σ_{j=0}^{M-1} cos(2π f_j τ + φ_j)
f_j = f (1 - b/2 + b (j + u_j)/M),  φ_j = 2π u'_j,  u_j, u'_j ~ U[0, 1) drawn from ChaCha8(seed)
τ = t                        without speed_ref
dτ/dt = |v| / v_ref          with speed_ref: the noise frequency is f |v| / v_ref
std(P) = A, mean(P) = 0; one-sided spectrum ≈ flat, A²/(b f), on [f (1 - b/2), f (1 + b/2)]",
    params: &[
        ParamSpec {
            name: "inner",
            symbol: "F_inner",
            unit: "-",
            kind: ParamKind::Model { default: "dahl" },
            doc: "the smooth friction model the noise is added to",
        },
        ParamSpec::real(
            "std",
            "A",
            "N",
            0.05,
            Range::NON_NEGATIVE,
            "standard deviation of the friction noise",
        ),
        ParamSpec::real(
            "frequency",
            "f",
            "Hz",
            100.0,
            Range::POSITIVE,
            "typical (centre) frequency of the noise",
        ),
        ParamSpec {
            name: "speed_ref",
            symbol: "v_ref",
            unit: "m/s",
            kind: ParamKind::OptionalReal { range: Range::POSITIVE },
            doc: "if given, the noise frequency is f |v|/v_ref (asperity passing), else f",
        },
        ParamSpec::real(
            "bandwidth",
            "b",
            "-",
            1.0,
            Range::open(0.0, 2.0),
            "relative width of the noise band around f",
        ),
        ParamSpec {
            name: "components",
            symbol: "M",
            unit: "-",
            kind: ParamKind::Integer { default: 32, min: 1, max: 10000 },
            doc: "number of sinusoids in the noise",
        },
        ParamSpec {
            name: "seed",
            symbol: "seed",
            unit: "-",
            kind: ParamKind::Integer { default: 0, min: 0, max: u64::MAX },
            doc: "seed of the random frequencies and phases",
        },
    ],
    states: "z = [inner states..., τ (only with speed_ref)]; mem = inner memory",
    sources: "Andersson, Söderberg, Björklund 2007 sec. 4 eq. 21; Shinozuka and Jan 1972",
};

/// The id of the default inner model (from the `inner` entry of [`INFO`]).
fn default_inner_id() -> &'static str {
    match INFO.params[0].kind {
        ParamKind::Model { default } => default,
        _ => unreachable!("the first parameter of `stochastic` is the inner model"),
    }
}

/// Parameters of [`Stochastic`].
#[derive(Debug, Clone)]
pub struct StochasticParams {
    /// The inner (smooth) friction model.
    pub inner: Box<AnyModel>,
    /// Noise standard deviation `A` \[N\].
    pub std: f64,
    /// Typical noise frequency `f` \[Hz\].
    pub frequency: f64,
    /// Reference speed `v_ref` [m/s]; `None`: the noise runs in time.
    pub speed_ref: Option<f64>,
    /// Relative bandwidth `b` [-].
    pub bandwidth: f64,
    /// Number of sinusoids `M`.
    pub components: u64,
    /// Random seed.
    pub seed: u64,
}

impl Default for StochasticParams {
    /// The table's defaults, with the default inner model and its defaults.
    fn default() -> Self {
        StochasticParams {
            inner: Box::new(
                crate::registry::build(default_inner_id(), &ParamMap::new())
                    .expect("the default inner model builds from its defaults"),
            ),
            std: 0.05,
            frequency: 100.0,
            speed_ref: None,
            bandwidth: 1.0,
            components: 32,
            seed: 0,
        }
    }
}

impl StochasticParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "std", self.std)?;
        check(&INFO, "frequency", self.frequency)?;
        check(&INFO, "bandwidth", self.bandwidth)?;
        if let Some(v) = self.speed_ref {
            check(&INFO, "speed_ref", v)?;
        }
        if !(1..=10000).contains(&self.components) {
            return Err(ModelError::OutOfRange {
                model: INFO.id,
                name: "components".into(),
                value: self.components as f64,
                range: "integer in [1, 10000]".into(),
                unit: "-",
            });
        }
        Ok(())
    }
}

/// The stochastic friction wrapper (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::stochastic::{Stochastic, StochasticParams};
/// let m = Stochastic::new(StochasticParams { std: 0.1, seed: 7, ..Default::default() }).unwrap();
/// let again = Stochastic::new(StochasticParams { std: 0.1, seed: 7, ..Default::default() }).unwrap();
/// // the default inner model (dahl) has one state, and the noise runs in time
/// assert_eq!(m.n_states(), 1);
/// let inp = Input::new(0.0123, 0.0, 0.1);
/// let f = m.force(&inp, &[0.5], &[]);
/// assert_eq!(f, again.force(&inp, &[0.5], &[]));
/// assert!((f - 0.5 - m.noise(0.0123)).abs() < 1e-15);
/// ```
#[derive(Debug, Clone)]
pub struct Stochastic {
    p: StochasticParams,
    /// Angular frequencies `2π f_j` [rad/s].
    omegas: Vec<f64>,
    /// Phases `φ_j` [rad].
    phases: Vec<f64>,
    /// Amplitude of each sinusoid, `A sqrt(2/M)` [N].
    amp: f64,
}

impl Stochastic {
    /// A validated model; draws the noise's frequencies and phases from `seed`.
    pub fn new(p: StochasticParams) -> Result<Self, ModelError> {
        p.validate()?;
        let m = p.components as usize;
        let mut rng = ChaCha8Rng::seed_from_u64(p.seed);
        let two_pi = 2.0 * std::f64::consts::PI;
        let lo = p.frequency * (1.0 - 0.5 * p.bandwidth);
        let width = p.frequency * p.bandwidth;
        let (mut omegas, mut phases) = (Vec::with_capacity(m), Vec::with_capacity(m));
        for j in 0..m {
            let u: f64 = rng.random();
            let w: f64 = rng.random();
            omegas.push(two_pi * (lo + width * (j as f64 + u) / m as f64));
            phases.push(two_pi * w);
        }
        let amp = p.std * (2.0 / m as f64).sqrt();
        Ok(Stochastic { p, omegas, phases, amp })
    }

    /// Build from user parameters (the inner model through the registry).
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let (id, inner_params) = r.model_table("inner")?;
        let p = StochasticParams {
            inner: Box::new(crate::registry::build(&id, &inner_params)?),
            std: r.real("std")?,
            frequency: r.real("frequency")?,
            speed_ref: r.optional_real("speed_ref")?,
            bandwidth: r.real("bandwidth")?,
            components: r.integer("components")?,
            seed: r.integer("seed")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &StochasticParams {
        &self.p
    }

    /// The inner model.
    pub fn inner(&self) -> &AnyModel {
        &self.p.inner
    }

    /// The rate of the noise, `dP/dτ = -A sqrt(2/M) Σ 2π f_j sin(2π f_j τ + φ_j)` [N/s].
    pub fn noise_rate(&self, tau: f64) -> f64 {
        -self.amp * self.omegas.iter().zip(&self.phases).map(|(w, ph)| w * (w * tau + ph).sin()).sum::<f64>()
    }

    /// The noise `P(τ)` \[N\] at noise time `τ` (`t`, or the phase state with `speed_ref`).
    pub fn noise(&self, tau: f64) -> f64 {
        self.amp * self.omegas.iter().zip(&self.phases).map(|(w, ph)| (w * tau + ph).cos()).sum::<f64>()
    }

    fn n_inner(&self) -> usize {
        self.p.inner.n_states()
    }
}

impl FrictionModel for Stochastic {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        let ni = self.n_inner();
        let ns = self.n_states();
        if k < ni {
            self.p.inner.state_quantity(k)
        } else if k < ns {
            Q::Time
        } else {
            self.p.inner.state_quantity(k - ns + ni)
        }
    }
    fn n_states(&self) -> usize {
        self.n_inner() + usize::from(self.p.speed_ref.is_some())
    }
    fn n_memory(&self) -> usize {
        self.p.inner.n_memory()
    }
    fn init(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
        let ni = self.n_inner();
        self.p.inner.init(inp, &mut z[..ni], mem);
        if self.p.speed_ref.is_some() {
            z[ni] = 0.0;
        }
    }
    fn force(&self, inp: &Input, z: &[f64], mem: &[f64]) -> f64 {
        let ni = self.n_inner();
        let tau = if self.p.speed_ref.is_some() { z[ni] } else { inp.t };
        self.p.inner.force(inp, &z[..ni], mem) + self.noise(tau)
    }
    fn rates(&self, inp: &Input, z: &[f64], mem: &[f64], dz: &mut [f64]) {
        let ni = self.n_inner();
        self.p.inner.rates(inp, &z[..ni], mem, &mut dz[..ni]);
        if let Some(v_ref) = self.p.speed_ref {
            dz[ni] = inp.v.abs() / v_ref;
        }
    }
    /// F = F_inner + P(τ), g = [g_inner, |v|/v_ref]: the inner model's
    /// partials, plus with `speed_ref` the noise phase τ = z\[ni\]: ∂F/∂τ = P'(τ),
    /// ∂g_τ/∂v = sign(v)/v_ref (at v = 0 the right-hand side), and no coupling
    /// between τ and the inner states. Without `speed_ref` P depends on t only
    /// and the partials are the inner model's.
    ///
    /// No allocation: with `speed_ref`, `p` (sized for ni + 1 states) is
    /// shrunk in place to ni states (`Vec::truncate` keeps the capacity), the
    /// inner model fills it, and it is grown back within its capacity, the
    /// inner ni × ni block of ∂g/∂z moved from row stride ni to ni + 1 from
    /// the last entry back (each entry moves to a later or the same index).
    fn partials(&self, inp: &Input, z: &[f64], mem: &[f64], p: &mut crate::model::partials::Partials) {
        let ni = self.n_inner();
        let Some(v_ref) = self.p.speed_ref else {
            self.p.inner.partials(inp, z, mem, p);
            return;
        };
        let n = ni + 1;
        p.df_dz.truncate(ni);
        p.dg_dz.truncate(ni * ni);
        p.dg_dx.truncate(ni);
        p.dg_dv.truncate(ni);
        self.p.inner.partials(inp, &z[..ni], mem, p);
        p.df_dz.push(self.noise_rate(z[ni]));
        p.dg_dx.push(0.0);
        p.dg_dv.push(if inp.v < 0.0 { -1.0 } else { 1.0 } / v_ref);
        p.dg_dz.resize(n * n, 0.0);
        for i in (0..ni).rev() {
            for j in (0..ni).rev() {
                p.dg_dz[i * n + j] = p.dg_dz[i * ni + j];
            }
            p.dg_dz[i * n + ni] = 0.0;
        }
        p.dg_dz[ni * n..].fill(0.0);
    }
    fn accept(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
        let ni = self.n_inner();
        self.p.inner.accept(inp, &mut z[..ni], mem);
    }
    fn max_static(&self, z: &[f64], mem: &[f64]) -> Option<f64> {
        self.p.inner.max_static(&z[..self.n_inner()], mem)
    }
    fn static_range(&self, z: &[f64], mem: &[f64]) -> Option<(f64, f64)> {
        self.p.inner.static_range(&z[..self.n_inner()], mem)
    }
    fn stick_band(&self) -> f64 {
        self.p.inner.stick_band()
    }
    fn turns_at_reversals(&self) -> bool {
        self.p.inner.turns_at_reversals()
    }
    fn n_turns(&self) -> usize {
        self.p.inner.n_turns()
    }
    fn turns(&self, inp: &Input, z: &[f64], mem: &[f64], g: &mut [f64]) {
        self.p.inner.turns(inp, &z[..self.n_inner()], mem, g);
    }
    fn is_stiff(&self) -> bool {
        self.p.inner.is_stiff()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::coulomb::{Coulomb, CoulombParams};
    use crate::models::dahl::{Dahl, DahlParams};
    use crate::testing::{drive, Path};

    fn coulomb_inner() -> Box<AnyModel> {
        Box::new(AnyModel::Coulomb(Coulomb::new(CoulombParams { fc: 1.0, fs: Some(1.3) }).unwrap()))
    }

    fn noise_model(std: f64, frequency: f64, bandwidth: f64, seed: u64) -> Stochastic {
        Stochastic::new(StochasticParams {
            inner: coulomb_inner(),
            std,
            frequency,
            speed_ref: None,
            bandwidth,
            components: 32,
            seed,
        })
        .unwrap()
    }

    /// Samples of the added noise F - F_inner in sliding at v = 1, every
    /// `dt` over `n` samples.
    fn samples(m: &Stochastic, dt: f64, n: usize) -> Vec<f64> {
        (0..n).map(|k| m.force(&Input::new(k as f64 * dt, 0.0, 1.0), &[], &[]) - 1.0).collect()
    }

    /// Over a long window (2000 typical periods) the sample standard
    /// deviation of the noise is A within 3 %, for several seeds, and its
    /// mean is zero, so that the mean force is the inner model's.
    #[test]
    fn sample_std_is_the_requested_amplitude() {
        for seed in 0..6 {
            let (a, f) = (0.2, 50.0);
            let m = noise_model(a, f, 1.0, seed);
            let p = samples(&m, 1.0 / (16.0 * f), 32000);
            let mean = p.iter().sum::<f64>() / p.len() as f64;
            let std = (p.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / p.len() as f64).sqrt();
            assert!((std - a).abs() < 0.03 * a, "seed {seed}: std {std} vs {a}");
            assert!(mean.abs() < 0.02 * a, "seed {seed}: mean {mean}");
        }
    }

    /// The dominant frequency is f: the zero-crossing rate is Rice's
    /// 2 f sqrt(1 + b²/12) for a flat band of relative width b, and a
    /// periodogram puts nearly all the power inside the band.
    #[test]
    fn noise_frequency_is_near_the_typical_frequency() {
        let f = 40.0;
        for b in [1.0, 0.2] {
            let m = noise_model(0.1, f, b, 3);
            let (dt, n) = (1.0 / (12.0 * f), 6000);
            let p = samples(&m, dt, n);
            let t = dt * n as f64;
            let crossings = p.windows(2).filter(|w| (w[0] < 0.0) != (w[1] < 0.0)).count() as f64;
            let rice = f * (1.0 + b * b / 12.0).sqrt();
            let est = crossings / (2.0 * t);
            assert!((est - rice).abs() < 0.04 * rice, "b = {b}: {est} Hz vs {rice} Hz");
            // Hann-windowed periodogram at the DFT frequencies k/T up to 3 f
            let hann: Vec<f64> = (0..n).map(|i| x_hann(i, n) * p[i]).collect();
            let (mut inside, mut total) = (0.0, 0.0);
            for k in 1..(3.0 * f * t) as usize {
                let g = k as f64 / t;
                let step = 2.0 * std::f64::consts::PI * g * dt;
                let (sc, ss) = (step.cos(), step.sin());
                let (mut c, mut s, mut pc, mut ps) = (0.0, 0.0, 1.0, 0.0);
                for x in &hann {
                    c += x * pc;
                    s += x * ps;
                    (pc, ps) = (pc * sc - ps * ss, ps * sc + pc * ss);
                }
                let power = c * c + s * s;
                total += power;
                if (g - f).abs() <= 0.5 * b * f + 3.0 / t {
                    inside += power;
                }
            }
            assert!(inside > 0.97 * total, "b = {b}: in-band fraction {}", inside / total);
        }
    }

    fn x_hann(i: usize, n: usize) -> f64 {
        0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / n as f64).cos()
    }

    /// Reproducible: the same seed gives the same signal bit for bit, another
    /// seed a different one.
    #[test]
    fn same_seed_same_signal_other_seed_different() {
        let a = samples(&noise_model(0.1, 20.0, 1.0, 42), 1e-3, 2000);
        let b = samples(&noise_model(0.1, 20.0, 1.0, 42), 1e-3, 2000);
        let c = samples(&noise_model(0.1, 20.0, 1.0, 43), 1e-3, 2000);
        assert_eq!(a, b);
        let diff = a.iter().zip(&c).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        assert!(diff > 0.1, "seeds 42 and 43 give nearly the same noise: {diff}");
    }

    /// Wrapped around a state model (Dahl) and driven along a sliding path,
    /// the inner states evolve exactly as without the wrapper, the force
    /// differs from the inner model's by the noise alone, and its mean over
    /// the path is the inner model's mean force.
    #[test]
    fn mean_force_is_the_inner_models() {
        let dahl = Dahl::new(DahlParams { sigma0: 1e4, fc: 1.0, exponent: 1.0 }).unwrap();
        let m = Stochastic::new(StochasticParams {
            inner: Box::new(AnyModel::Dahl(dahl)),
            std: 0.1,
            frequency: 200.0,
            ..Default::default()
        })
        .unwrap();
        let path = Path::points(&[0.0, 0.02, -0.02], 0.01);
        let (w, d) = (drive(&m, &path, 2.5e-4), drive(&dahl, &path, 2.5e-4));
        for (rw, rd) in w.iter().zip(&d) {
            assert_eq!(rw.z, rd.z);
            assert!((rw.f - rd.f - m.noise(rw.t)).abs() < 1e-12);
        }
        let mean = |r: &[crate::testing::Sample]| r.iter().map(|s| s.f).sum::<f64>() / r.len() as f64;
        assert!((mean(&w) - mean(&d)).abs() < 0.005, "{} vs {}", mean(&w), mean(&d));
    }

    /// With `speed_ref`, the noise runs with the sliding distance: at a
    /// constant speed 2.5 v_ref it is the time noise at 2.5 t (frequency
    /// 2.5 f), and it freezes at rest. The phase is the last state.
    #[test]
    fn speed_proportional_noise_follows_the_sliding_distance() {
        let mk = |speed_ref| {
            Stochastic::new(StochasticParams {
                inner: coulomb_inner(),
                std: 0.1,
                frequency: 30.0,
                speed_ref,
                ..Default::default()
            })
            .unwrap()
        };
        let (m, timed) = (mk(Some(0.02)), mk(None));
        assert_eq!(m.n_states(), 1);
        let path = Path::VelocitySine { bias: 0.05, amplitude: 0.0, frequency: 1.0, duration: 0.5 };
        for r in drive(&m, &path, 1e-3) {
            assert!((r.z[0] - 2.5 * r.t).abs() < 1e-9);
            let expected = 1.0 + timed.noise(2.5 * r.t);
            assert!((r.f - expected).abs() < 1e-9, "t {}: {} vs {expected}", r.t, r.f);
        }
        let mut dz = [1.0];
        m.rates(&Input::new(0.3, 0.0, 0.0), &[0.7], &[], &mut dz);
        assert_eq!(dz[0], 0.0);
    }

    /// The maximum static force, stick band and stiffness are the inner
    /// model's; a wrapper can be built from a parameter table.
    #[test]
    fn delegates_to_the_inner_model() {
        let m = noise_model(0.1, 10.0, 1.0, 0);
        assert_eq!(m.max_static(&[], &[]), Some(1.3));
        assert_eq!(m.stick_band(), 0.0);
        assert!(!m.is_stiff());
        let mut inner = ParamMap::new();
        inner.insert("model".into(), crate::params::ParamValue::Str("coulomb".into()));
        let mut p = ParamMap::new();
        p.insert("inner".into(), crate::params::ParamValue::Table(inner));
        p.insert("seed".into(), crate::params::ParamValue::Num(5.0));
        let m = Stochastic::from_params(&p).unwrap();
        assert_eq!(m.inner().info().id, "coulomb");
        assert_eq!(m.n_states(), 0);
        p.insert("seed".into(), crate::params::ParamValue::Num(-1.0));
        assert!(Stochastic::from_params(&p).is_err());
    }
}
