"""The per-step update of many contacts: :class:`Model`."""

from typing import Any, Optional, Tuple, Union

import numpy as np

from . import _friction
from ._arrays import as_f64, as_float


class Model:
    """A friction model with its parameters, updated step by step for many contacts.

    ``Model(id, **params)`` builds model ``id`` (see :func:`friction.models`)
    with parameters by name, for example ``Model("lugre", sigma0=1e5, fc=1.0)``;
    parameters not given take their defaults (:func:`friction.describe`).
    Unknown ids or parameters and out-of-range values raise ``ValueError``
    naming the parameter, the value and the valid range.

    Each contact owns ``state_len`` doubles of state, laid out as
    ``[t, x, z..., memory...]``: the contact's time, its slip, its continuous
    states and its discrete memory (hysteresis reversal points). The caller
    keeps the state array; nothing is remembered inside the model, so one
    model serves any number of independent contact sets.

    The update over a step of length ``dt`` in which contact ``i`` slips by
    ``slip_increment[i]`` at the constant velocity ``slip_increment[i] / dt``
    under the normal load ``normal[i]`` is exact for static maps, set-valued
    models while sliding, hysteresis operators, LuGre, Dahl (exponent 1) and
    Dankowicz, and an L-stable second-order implicit update for the other
    models with states (:attr:`method` tells which). The force returned is
    ``normal[i] * F`` at the end of the step, ``F`` opposing positive slip.
    A set-valued model (Coulomb, Stribeck) gives 0 for a slip increment of
    exactly 0: the caller owns sticking.

    Contacts sliding in a plane (two tangential directions, a node of a 3-D
    finite-element contact): ``init(n, dim=2)`` gives states of shape
    (n, state_len_2d), and ``update`` with a ``slip_increment`` of shape
    (n, 2) returns forces of shape (n, 2), the isotropic vector form of the
    model (Coulomb's friction disk, radial return of Jenkins and Iwan
    elements, the vector LuGre law). Models without an isotropic vector form
    raise ``ValueError`` naming the model and why (:attr:`state_len_2d`).
    """

    def __init__(self, id: str, **params: Any):
        if not isinstance(id, str):
            raise TypeError(f"model id must be a str, found {type(id).__name__}")
        self._m = _friction.Model(id, params)

    @property
    def id(self) -> str:
        """The model id."""
        return self._m.id

    @property
    def state_len(self) -> int:
        """Doubles of state per contact: 2 + states + memory."""
        return self._m.state_len

    @property
    def state_len_2d(self) -> int:
        """Doubles of 2-D state per contact, ``[t, x, y, model values...]``.

        Raises ``ValueError`` naming the model and why when it has no 2-D form.
        """
        return self._m.state_len_2d

    @property
    def method(self) -> str:
        """The update used: ``"direct"``, ``"exact"`` or ``"implicit"``."""
        return self._m.method

    def init(self, n: int, dim: int = 1) -> np.ndarray:
        """Relaxed states at rest for ``n`` contacts: a float64 array of shape
        (n, state_len), or (n, state_len_2d) with ``dim=2`` (contacts sliding
        in a plane)."""
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError(f"`n` must be an int, found {type(n).__name__}")
        if n < 0:
            raise ValueError(f"`n` = {n} is out of range; valid range n >= 0")
        if isinstance(dim, bool) or dim not in (1, 2):
            raise ValueError(f"`dim` = {dim!r} is out of range; valid values 1, 2")
        if dim == 2:
            return self._m.init_2d(int(n))
        return self._m.init(int(n))

    def update(self, dt: float, slip_increment: Any, normal: Union[float, Any],
               state: np.ndarray, out: Optional[np.ndarray] = None,
               tangent: bool = False) -> Union[np.ndarray, Tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Advance every contact by one step of length ``dt`` [s].

        Parameters
        ----------
        dt : float
            Step length, finite and > 0.
        slip_increment : array_like, shape (n,) or (n, 2)
            Slip of each contact over the step [m]; shape (n, 2) for contacts
            sliding in a plane (x, y per contact, states from
            ``init(n, dim=2)``).
        normal : float or array_like, shape (n,)
            Normal load of each contact (>= 0); 1 gives the force in the
            model's own units, the actual load makes force parameters act as
            friction coefficients.
        state : numpy.ndarray, shape (n, state_len), float64, C-contiguous
            The contacts' states, updated in place (from :meth:`init`).
        out : numpy.ndarray, shape (n,), float64, C-contiguous, optional
            Where to write the forces (as NumPy's ``out=``): a time loop that
            passes the same array every step allocates nothing. Not with
            ``tangent=True``.
        tangent : bool, default False
            Also return the consistent tangent for implicit codes (Abaqus'
            FRIC ``DDTDDG``, ``DDTDDP``; a Newton loop): the derivative of
            each force with respect to its slip increment and its normal
            load, the state at the start of the step held fixed. The states
            and forces are those of the plain update, bit for bit.

        Returns
        -------
        numpy.ndarray, shape (n,) or (n, 2)
            The forces at the end of the step (``out`` itself when given),
            shaped like ``slip_increment``.
        (force, dforce_dslip, dforce_dnormal) with ``tangent=True``
            In 1-D three arrays of shape (n,); in 2-D ``force`` (n, 2),
            ``dforce_dslip`` (n, 2, 2) with ``dforce_dslip[i, a, b] =
            dF_a/ds_b`` and ``dforce_dnormal`` (n, 2). What the tangent is
            for each model (return mapping of sliders, derivative of the
            exact LuGre/Dahl/Dankowicz update, the sliding slope of
            set-valued laws, 0 for them at a zero increment) is documented in
            ``friction_models::update::tangent`` (Bouc-Wen's 2-D tangent:
            the forward sensitivity of its update in the frame of the slip,
            ``friction_models::update::planar::tangent``).

        The contacts are spread over all cores with the GIL released.
        """
        dt = as_float("dt", dt)
        # non-finite slips and loads are refused by the Rust core (naming the
        # contact, before anything changes) in the same pass that checks the
        # signs: a NumPy isfinite pass here would cost a fifth of the update
        ndim = np.ndim(slip_increment)
        du = as_f64("slip_increment", slip_increment, ndim=2 if ndim == 2 else 1, allow_nan=True)
        planar = du.ndim == 2
        if planar and du.shape[1] != 2:
            raise ValueError(f"`slip_increment` has shape {du.shape}: expected (n,) or (n, 2)")
        n = du.shape[0]
        state_len = self.state_len_2d if planar else self.state_len
        shape = (n, 2) if planar else (n,)
        if np.ndim(normal) == 0:
            nn = np.full(n, as_float("normal", normal))
        else:
            nn = as_f64("normal", normal, allow_nan=True)
            if nn.shape != (n,):
                raise ValueError(
                    f"`normal` has shape {nn.shape}, `slip_increment` has {du.shape}: "
                    f"the shapes must match (one load per contact, ({n},))")
        if not isinstance(state, np.ndarray):
            raise TypeError(f"`state` must be a numpy.ndarray from Model.init, found {type(state).__name__}")
        if state.dtype != np.float64:
            raise TypeError(f"`state` must have dtype float64, found {state.dtype} (it is updated in place)")
        if state.shape != (n, state_len):
            which = "state_len_2d, from init(n, dim=2)" if planar else "state_len"
            raise ValueError(
                f"`state` has shape {state.shape}, expected ({n}, {state_len}) "
                f"({n} contacts × {which} {state_len})")
        if not (state.flags.c_contiguous and state.flags.writeable):
            raise ValueError("`state` must be C-contiguous and writeable (it is updated in place)")
        if not isinstance(tangent, (bool, np.bool_)):
            raise TypeError(f"`tangent` must be a bool, found {type(tangent).__name__}")
        if tangent:
            if out is not None:
                raise ValueError("`out` is not supported with `tangent=True` (the three arrays are returned)")
            if planar:
                f, k, dn = self._m.update_2d_tangent(dt, du, nn, state)
                return f.reshape(n, 2), k.reshape(n, 2, 2), dn.reshape(n, 2)
            return self._m.update_tangent(dt, du, nn, state)
        update = self._m.update_2d if planar else self._m.update
        if out is None:
            return update(dt, du, nn, state)
        if not isinstance(out, np.ndarray):
            raise TypeError(f"`out` must be a numpy.ndarray, found {type(out).__name__}")
        if out.dtype != np.float64:
            raise TypeError(f"`out` must have dtype float64, found {out.dtype}")
        if out.shape != shape:
            raise ValueError(f"`out` has shape {out.shape}, expected {shape} (one force per contact)")
        if not (out.flags.c_contiguous and out.flags.writeable):
            raise ValueError("`out` must be C-contiguous and writeable")
        if np.may_share_memory(out, state) or np.may_share_memory(out, du) or np.may_share_memory(out, nn):
            raise ValueError("`out` must not share memory with `slip_increment`, `normal` or `state`")
        return update(dt, du, nn, state, out)

    def __repr__(self) -> str:
        return f"Model({self.id!r}, state_len={self.state_len}, method={self.method!r})"
