//! The engine's equations as diffsol's [`OdeEquations`]: the right-hand
//! side with its exact Jacobian-vector product and the Jacobian's sparsity
//! pattern from the network's structure (`Engine::jacobian_pattern`), the
//! root functions of the events, and the initial state. diffsol's closure
//! builder would find the pattern by probing every column at the start: n
//! products and about 24 n² bytes (measured 0.15 s at 3,000 states, 7.6 GB
//! and 16 s at 18,000).

use diffsol::matrix::sparsity::MatrixSparsity;
use diffsol::{
    ConstantOp, Matrix, NonLinearOp, NonLinearOpJacobian, OdeEquations, OdeEquationsRef, Op, ParameterisedOp,
    UnitCallable,
};

use crate::engine::integrate::coloring::Coloring;

use crate::engine::linalg::host::Host;
use crate::engine::network::Engine;

/// The equations of one run.
pub(crate) struct EngineEquations<'x, 'e, M: Matrix> {
    engine: &'x Engine<'e>,
    y0: Vec<f64>,
    sparsity: Option<M::Sparsity>,
    coloring: Option<Coloring<M>>,
    /// The Jacobian assembled with the rows of structure velocities in
    /// force form (`network/scaled_rows.rs`; the solver adds the mass).
    scaled: bool,
    ctx: M::C,
}

impl<'x, 'e, M: Matrix<T = f64>> EngineEquations<'x, 'e, M> {
    /// The run from `y0`. With `jacobian` (implicit methods), the Jacobian
    /// is assembled from a few products: columns that share no row are
    /// taken together (graph colouring of the structural pattern).
    ///
    /// With `scaled`, the rows of the velocities of structures of
    /// consistent mass are assembled in force form (the solver must then be
    /// given the mass rows: `linalg::band_lu::with_mass_rows`).
    pub(crate) fn new(
        engine: &'x Engine<'e>,
        y0: &[f64],
        jacobian: bool,
        scaled: bool,
    ) -> Result<Self, String> {
        let ctx = M::C::default();
        let (sparsity, coloring) = if jacobian {
            let n = engine.n;
            let nz = if scaled { engine.jacobian_pattern_scaled() } else { engine.jacobian_pattern() };
            let sp = M::Sparsity::try_from_indices(n, n, nz.clone())
                .map_err(|e| format!("the Jacobian's sparsity pattern: {e}"))?;
            let col = Coloring::new(&sp, &nz, ctx.clone());
            (Some(sp), Some(col))
        } else {
            (None, None)
        };
        Ok(EngineEquations { engine, y0: y0.to_vec(), sparsity, coloring, scaled, ctx })
    }
}

/// The `Op` of every part: `n` states in, `nout` values out, no parameters;
/// with `$call`, the `NonLinearOp` that is the engine's function `$call`.
macro_rules! op_for {
    ($ty:ident, $nout:expr $(, $call:ident)?) => {
        impl<M: Matrix<T = f64>> Op for $ty<'_, '_, '_, M> {
            type T = f64;
            type V = M::V;
            type M = M;
            type C = M::C;
            fn context(&self) -> &Self::C {
                &self.0.ctx
            }
            fn nstates(&self) -> usize {
                self.0.engine.n
            }
            fn nout(&self) -> usize {
                #[allow(clippy::redundant_closure_call)]
                ($nout)(self.0.engine)
            }
            fn nparams(&self) -> usize {
                0
            }
        }
        $(
            impl<M: Matrix<T = f64>> NonLinearOp for $ty<'_, '_, '_, M>
            where
                M::V: Host,
            {
                fn call_inplace(&self, x: &M::V, t: f64, y: &mut M::V) {
                    self.0.engine.$call(t, x.host(), y.host_mut());
                }
            }
        )?
    };
}

/// The right-hand side `dy/dt = f(t, y)` ([`Engine::rhs`]) and its exact
/// Jacobian ([`Engine::jvp`]).
pub(crate) struct Rhs<'a, 'x, 'e, M: Matrix>(&'a EngineEquations<'x, 'e, M>);
/// The root functions ([`Engine::roots`]).
pub(crate) struct Roots<'a, 'x, 'e, M: Matrix>(&'a EngineEquations<'x, 'e, M>);
/// The initial state.
pub(crate) struct Init<'a, 'x, 'e, M: Matrix>(&'a EngineEquations<'x, 'e, M>);

op_for!(Rhs, |e: &Engine<'_>| e.n, rhs);
op_for!(Roots, |e: &Engine<'_>| e.nroots, roots);
op_for!(Init, |e: &Engine<'_>| e.n);

impl<M: Matrix<T = f64>> NonLinearOpJacobian for Rhs<'_, '_, '_, M>
where
    M::V: Host,
{
    fn jac_mul_inplace(&self, x: &M::V, t: f64, v: &M::V, y: &mut M::V) {
        self.0.engine.jvp(t, x.host(), v.host(), y.host_mut());
    }
    fn jacobian_inplace(&self, x: &M::V, t: f64, y: &mut M) {
        let e = self.0.engine;
        match self.0.coloring.as_ref() {
            Some(coloring) if self.0.scaled => {
                coloring.jacobian_inplace(|v, p| e.jvp_scaled(t, x.host(), v.host(), p.host_mut()), y)
            }
            Some(coloring) => coloring.jacobian_inplace(|v, p| e.jvp(t, x.host(), v.host(), p.host_mut()), y),
            None => self._default_jacobian_inplace(x, t, y),
        }
    }
    fn jacobian_sparsity(&self) -> Option<M::Sparsity> {
        self.0.sparsity.clone()
    }
}

impl<M: Matrix<T = f64>> ConstantOp for Init<'_, '_, '_, M>
where
    M::V: Host,
{
    fn call_inplace(&self, _t: f64, y: &mut M::V) {
        y.host_mut().copy_from_slice(&self.0.y0);
    }
}

impl<M: Matrix<T = f64>> Op for EngineEquations<'_, '_, M> {
    type T = f64;
    type V = M::V;
    type M = M;
    type C = M::C;
    fn context(&self) -> &Self::C {
        &self.ctx
    }
    fn nstates(&self) -> usize {
        self.engine.n
    }
    fn nout(&self) -> usize {
        self.engine.n
    }
    fn nparams(&self) -> usize {
        0
    }
}

impl<'a, 'x, 'e, M: Matrix<T = f64>> OdeEquationsRef<'a> for EngineEquations<'x, 'e, M>
where
    M::V: Host,
{
    type Rhs = Rhs<'a, 'x, 'e, M>;
    type Mass = ParameterisedOp<'a, UnitCallable<M>>;
    type Root = Roots<'a, 'x, 'e, M>;
    type Init = Init<'a, 'x, 'e, M>;
    type Out = ParameterisedOp<'a, UnitCallable<M>>;
    type Reset = ParameterisedOp<'a, UnitCallable<M>>;
}

impl<'x, 'e, M: Matrix<T = f64>> OdeEquations for EngineEquations<'x, 'e, M>
where
    M::V: Host,
{
    fn rhs(&self) -> Rhs<'_, 'x, 'e, M> {
        Rhs(self)
    }
    fn mass(&self) -> Option<ParameterisedOp<'_, UnitCallable<M>>> {
        None
    }
    fn root(&self) -> Option<Roots<'_, 'x, 'e, M>> {
        // no root functions: diffsol then looks for none
        (self.engine.nroots > 0).then_some(Roots(self))
    }
    fn out(&self) -> Option<ParameterisedOp<'_, UnitCallable<M>>> {
        None
    }
    fn init(&self) -> Init<'_, 'x, 'e, M> {
        Init(self)
    }
    fn set_params(&mut self, _p: &M::V) {}
    fn get_params(&self, _p: &mut M::V) {}
}
