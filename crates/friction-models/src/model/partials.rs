//! Partial derivatives of a model's force and state rates: the blocks of the
//! Jacobian a stiff solver needs, and a central-difference reference that the
//! contract tests check every analytic implementation against.

use super::{FrictionModel, Input};

/// The partial derivatives of a model at one instant: of its force `F` and of
/// its state rates `g = dz/dt` with respect to its continuous states `z`, the
/// relative displacement `x` and the relative velocity `v` (memory `mem` is
/// held fixed: it changes only between steps).
///
/// Allocate one per contact with [`Partials::new`] and reuse it: filling it
/// allocates nothing.
///
/// ```
/// use friction_models::{FrictionModel, Input, Partials};
/// use friction_models::models::lugre::{LuGre, LuGreParams};
/// let m = LuGre::new(LuGreParams::default()).unwrap();
/// let mut p = Partials::new(m.n_states());
/// m.partials(&Input::new(0.0, 0.0, 1e-4), &[1e-5], &[], &mut p);
/// // dF/dz = σ0 + σ1 ∂g/∂z = σ0 (1 - σ1 |v| / g(v))
/// let g = m.g(1e-4);
/// assert!((p.df_dz[0] - 1e5 * (1.0 - 1e5f64.sqrt() * 1e-4 / g)).abs() < 1e-6);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Partials {
    /// ∂F/∂x \[N/m\].
    pub df_dx: f64,
    /// ∂F/∂v \[N s/m\].
    pub df_dv: f64,
    /// ∂F/∂z_j, one per state.
    pub df_dz: Vec<f64>,
    /// ∂g_i/∂z_j, row-major (`dg_dz[i * n + j]`).
    pub dg_dz: Vec<f64>,
    /// ∂g_i/∂x, one per state.
    pub dg_dx: Vec<f64>,
    /// ∂g_i/∂v, one per state.
    pub dg_dv: Vec<f64>,
    work: Vec<f64>,
}

impl Partials {
    /// Zeroed partials for a model with `n` continuous states.
    pub fn new(n: usize) -> Self {
        Partials {
            df_dx: 0.0,
            df_dv: 0.0,
            df_dz: vec![0.0; n],
            dg_dz: vec![0.0; n * n],
            dg_dx: vec![0.0; n],
            dg_dv: vec![0.0; n],
            work: vec![0.0; 3 * n],
        }
    }

    /// The number of continuous states these partials are sized for.
    pub fn n(&self) -> usize {
        self.df_dz.len()
    }
}

/// Step of a central difference about `q`: relative above `floor`, absolute
/// below it (cube root of the machine epsilon balances truncation and
/// rounding for a second-order difference).
fn step(q: f64, floor: f64) -> f64 {
    6e-6 * q.abs().max(floor)
}

/// Fill `p` by central differences of [`FrictionModel::force`] and
/// [`FrictionModel::rates`] (2 (n + 2) evaluations of each). `floor` is the
/// magnitude below which the steps stop shrinking with their variable (the
/// scale of `x`, `v` and `z` the model resolves, e.g. `1e-6`). This is the
/// default of [`FrictionModel::partials`] and the reference the contract
/// tests hold analytic partials to.
pub fn partials_by_differences<M: FrictionModel + ?Sized>(
    model: &M,
    inp: &Input,
    z: &[f64],
    mem: &[f64],
    floor: f64,
    p: &mut Partials,
) {
    let n = z.len();
    debug_assert_eq!(p.n(), n, "Partials sized for {} states, model has {n}", p.n());
    let mut work = std::mem::take(&mut p.work);
    work.resize(3 * n, 0.0);
    let (zp, rest) = work.split_at_mut(n);
    let (gp, gm) = rest.split_at_mut(n);
    zp.copy_from_slice(z);
    // x and v
    for which in 0..2 {
        let q = if which == 0 { inp.x } else { inp.v };
        let h = step(q, floor);
        let (mut ip, mut im) = (*inp, *inp);
        if which == 0 {
            ip.x = q + h;
            im.x = q - h;
        } else {
            ip.v = q + h;
            im.v = q - h;
        }
        let d = (model.force(&ip, z, mem) - model.force(&im, z, mem)) / (2.0 * h);
        if n > 0 {
            model.rates(&ip, z, mem, gp);
            model.rates(&im, z, mem, gm);
        }
        let dg = if which == 0 { &mut p.dg_dx } else { &mut p.dg_dv };
        for i in 0..n {
            dg[i] = (gp[i] - gm[i]) / (2.0 * h);
        }
        if which == 0 {
            p.df_dx = d;
        } else {
            p.df_dv = d;
        }
    }
    // z
    for j in 0..n {
        let h = step(z[j], floor);
        zp[j] = z[j] + h;
        let fp = model.force(inp, zp, mem);
        model.rates(inp, zp, mem, gp);
        zp[j] = z[j] - h;
        let fm = model.force(inp, zp, mem);
        model.rates(inp, zp, mem, gm);
        zp[j] = z[j];
        p.df_dz[j] = (fp - fm) / (2.0 * h);
        for i in 0..n {
            p.dg_dz[i * n + j] = (gp[i] - gm[i]) / (2.0 * h);
        }
    }
    p.work = work;
}
