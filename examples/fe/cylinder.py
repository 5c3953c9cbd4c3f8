"""A plane-strain elastic cylinder pressed onto a rigid flat, then sheared:
Cattaneo-Mindlin partial slip from this library's per-step update and its
consistent tangent inside a scikit-fem Newton loop.

What it shows: an implicit finite-element code with frictional contact,
whose tangential contact forces come from ``friction.Model.update`` (a
Jenkins element per contact node: a stiff spring of stiffness ``kt`` per
unit normal load in series with a slider of strength ``mu`` per unit normal
load, i.e. Coulomb friction regularised over a slip distance ``mu/kt`` far
below the mesh spacing) and whose Newton Jacobian takes the update's
consistent tangent (``tangent=True``: ``dT/ds = N kt`` while a node sticks,
0 while it slips, and ``dT/dN = T/N``). The normal contact is a node-to-flat
penalty.

The checks (Johnson 1985, Contact Mechanics, sec. 4.3 and 7.1):

* Hertz, line contact of a cylinder of radius R on a rigid flat, load P per
  unit length: the contact half-width ``a = sqrt(4 P R / (pi E*))``,
  ``E* = E / (1 - nu^2)``;
* Cattaneo-Mindlin, a tangential load Q < mu P applied afterwards: the
  central stick zone of half-width ``c = a sqrt(1 - Q / (mu P))``,
  micro-slip outside it.

Both are compared with the finite-element result within the mesh spacing at
the contact. Newton's iterations per load step are counted with the
consistent tangent and with the friction tangent left out (the normal
penalty's kept): the first converges in a few iterations, the second needs
many or does not converge.

Run: ``python examples/fe/cylinder.py`` (needs ``scikit-fem``, ``scipy``
and this package); ``python/tests/test_fe_cylinder.py`` runs it.
"""

import math

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
import skfem as fem
from skfem.models.elasticity import lame_parameters, linear_elasticity

import friction

R = 0.01  # cylinder radius [m]
E, NU = 70e9, 0.3  # aluminium [Pa], [-]
E_STAR = E / (1 - NU**2)  # against a rigid flat, plane strain
MU = 0.3  # friction coefficient


def graded(h0, uniform, total, growth=1.15):
    """Positions from 0 to `total`: steps of `h0` up to `uniform`, then
    steps growing geometrically by `growth` (the last one cut to end at
    `total`)."""
    x = [0.0]
    step = h0
    while x[-1] < total:
        if x[-1] >= uniform:
            step *= growth
        x.append(min(x[-1] + step, total))
    if total - x[-2] < 0.3 * (x[-1] - x[-2]) and len(x) > 2:
        x.pop(-2)
    return np.array(x)


def half_disc(h0, zone):
    """Nodes and triangles of the half-disc y <= 0 of radius R on a polar
    grid: spacing `h0` along the surface for |arc| <= `zone` around the
    bottom point (0, -R), where the cylinder touches the flat, and to the
    depth `zone` below it, growing by 15 % per element beyond. Returns the
    points (2, n), the triangles (3, m), the surface nodes (from the left
    end of the diameter round the bottom to the right end) and their arc
    coordinates measured from the bottom point."""
    half = graded(h0, zone, 0.5 * math.pi * R)
    arc = np.concatenate([-half[:0:-1], half])
    theta = -0.5 * math.pi + arc / R
    n_theta = len(theta)
    r = R - graded(h0, zone, R)[::-1]
    r[0] = 0.0
    pts = [(0.0, 0.0)]
    for rk in r[1:]:
        for th in theta:
            pts.append((rk * math.cos(th), rk * math.sin(th)))
    p = np.array(pts).T
    # exact y = 0 on the flat side (cos/sin rounding)
    p[1, np.abs(p[1]) < 1e-12 * R] = 0.0

    def node(k, j):  # ring k >= 1, angle j
        return 1 + (k - 1) * n_theta + j

    tri = []
    for j in range(n_theta - 1):
        tri.append((0, node(1, j), node(1, j + 1)))
    for k in range(1, len(r) - 1):
        for j in range(n_theta - 1):
            a, b = node(k, j), node(k, j + 1)
            c, d = node(k + 1, j), node(k + 1, j + 1)
            tri.append((a, c, d))
            tri.append((a, d, b))
    surface = np.array([node(len(r) - 1, j) for j in range(n_theta)])
    return p, np.array(tri).T, surface, arc


def solve(load_steps_normal=4, shear_fraction=0.6, load_steps_shear=5, use_tangent=True, max_newton=40,
          verbose=False):
    """Press the cylinder down by a prescribed displacement of its flat
    side, then move that side sideways until Q is about ``shear_fraction``
    mu P. Returns a dict with the mesh spacing at the contact, P, Q, the
    contact and stick half-widths, and Newton's iterations per load step
    while pressing and while shearing (None for a step that did not
    converge in ``max_newton``; the run stops there)."""
    # spacing h0 over 1.6 times the expected contact half-width (about
    # 2.3e-4 m at the press below): 16 elements across the half-width
    a_expected = 2.3e-4
    h = a_expected / 16
    p, t, surface, arc = half_disc(h, 1.6 * a_expected)
    mesh = fem.MeshTri(np.ascontiguousarray(p), np.ascontiguousarray(t))
    basis = fem.Basis(mesh, fem.ElementVector(fem.ElementTriP1()))
    K = fem.asm(linear_elasticity(*lame_parameters(E, NU)), basis).tocsr()
    dofs = basis.nodal_dofs  # (2, nodes)
    top = np.flatnonzero(p[1] == 0.0)
    # contact candidates: the finely meshed surface nodes
    near = np.abs(arc) <= 1.6 * a_expected
    cand = surface[near]
    x_c = p[0, cand]
    w = np.gradient(arc[near])  # tributary length of each node
    kn = 50.0 * E_STAR / h * w  # penalty [N/m per m], per node
    model = friction.Model("jenkins", kt=MU / (1e-3 * h), fs=MU)
    state = model.init(len(cand))
    ndof = K.shape[0]
    u = np.zeros(ndof)
    fixed = np.concatenate([dofs[0, top], dofs[1, top]])
    free = np.setdiff1d(np.arange(ndof), fixed)
    ix, iy = dofs[0, cand], dofs[1, cand]

    def contact(u, du_slip, state0, want_tangent):
        """Nodal normal and tangential forces from the penetration and the
        slip increments of this load step, from the states at its start."""
        pen = -(p[1, cand] + u[iy] + R)  # penetration of the flat y = -R
        active = pen > 0
        N = np.where(active, kn * pen, 0.0)
        st = state0.copy()
        T, dT, dTdN = model.update(1.0, du_slip, N, st, tangent=True)
        if not sliding_friction[0]:
            # the normal load is applied without friction (see below)
            T, dT, dTdN = np.zeros_like(T), np.zeros_like(T), np.zeros_like(T)
        if not want_tangent:
            dT = np.zeros_like(dT)
        return N, T, dT, dTdN, active, st

    def residual(u, u_start, state0, want_tangent):
        N, T, dT, dTdN, active, st = contact(u, u[ix] - u_start, state0, want_tangent)
        f = np.zeros(ndof)
        f[iy] += N  # the flat pushes the cylinder up
        f[ix] -= T  # friction opposes the node's slip
        r = K @ u - f
        return r, np.linalg.norm(r[free]), np.linalg.norm(f), (N, T, dT, dTdN, active, st)

    def newton(u, delta, xi, state0, tangent=use_tangent):
        """One load step by Newton's method with a backtracking line search
        on the residual (the stick/slip switches of the nodes make the
        residual piecewise smooth; a full step may cycle between two
        switch patterns). Returns the solution, the iterations (None if not
        converged in max_newton), the normal and tangential nodal forces
        and the states at the end of the step."""
        u = u.copy()
        u[dofs[1, top]] = -delta
        u[dofs[0, top]] = xi
        u_start = u[ix].copy()
        r, rn, fn, (N, T, dT, dTdN, active, st) = residual(u, u_start, state0, tangent)
        for it in range(max_newton + 1):
            if verbose:
                print(f"    newton {it}: |r| = {rn:.3e}")
            if rn <= 1e-8 * max(fn, 1e-30):
                return u, it, N, T, st
            if it == max_newton:
                break
            # d f / d u: dN/du_y = -kn (active); dT/du_x = tangent; dT/du_y = dT/dN dN/du_y
            dNdy = np.where(active, -kn, 0.0)
            rows = np.concatenate([iy, ix, ix])
            cols = np.concatenate([iy, ix, iy])
            vals = np.concatenate([dNdy, -dT, -dTdN * dNdy])
            J = (K - sp.csr_matrix((vals, (rows, cols)), shape=K.shape)).tocsr()
            du = np.zeros(ndof)
            du[free] = spla.spsolve(J[free][:, free].tocsc(), -r[free])
            alpha = 1.0
            for _ in range(12):
                trial = residual(u + alpha * du, u_start, state0, tangent)
                if trial[1] < (1 - 1e-4 * alpha) * rn:
                    break
                alpha *= 0.5
            u = u + alpha * du
            r, rn, fn, (N, T, dT, dTdN, active, st) = trial
        return u, None, N, T, st

    out = {"h": h, "iterations_press": [], "iterations_shear": []}
    # Cattaneo-Mindlin assume that the normal load leaves no tangential
    # tractions (elastically similar bodies); against a rigid flat it would
    # (Spence's problem), so the cylinder is pressed without friction and
    # the contact nodes' sliders start where the normal load left them
    sliding_friction = [False]
    # 1. press: a displacement giving a contact half-width of about 2.5 % of the radius
    delta_end = 1.2e-3 * R
    for k in range(1, load_steps_normal + 1):
        u, its, N, T, state = newton(u, delta_end * k / load_steps_normal, 0.0, state)
        out["iterations_press"].append(its)
        if its is None:
            return out
    P = float(N.sum())
    sliding_friction[0] = True
    state = model.init(len(cand))
    T = np.zeros(len(cand))
    # 2. shear: estimate the tangential compliance from a small step, then
    # move the flat side to about shear_fraction * mu P
    xi_probe = 1e-2 * h
    u_probe, its, _, T_probe, _ = newton(u, delta_end, xi_probe, state, tangent=True)
    if its is None:
        return out
    stiffness = (float(T_probe.sum()) - float(T.sum())) / xi_probe
    xi_end = shear_fraction * MU * P / stiffness
    for k in range(1, load_steps_shear + 1):
        u, its, N, T, state = newton(u, delta_end, xi_end * k / load_steps_shear, state)
        out["iterations_shear"].append(its)
        if its is None:
            return out
    Q = float(T.sum())
    P = float(N.sum())
    on = N > 0
    stick = on & (np.abs(T) < MU * N * (1 - 1e-6))
    out.update(P=P, Q=Q, a_fe=float(np.max(np.abs(x_c[on]))), c_fe=float(np.max(np.abs(x_c[stick]), initial=0.0)))
    out["a_hertz"] = math.sqrt(4 * P * R / (math.pi * E_STAR))
    out["c_mindlin"] = out["a_hertz"] * math.sqrt(max(0.0, 1 - Q / (MU * P)))
    return out


def main():
    res = solve()
    # the same loop without the friction tangent, over the first shear step
    # (pressing is frictionless, the same either way)
    alt = solve(use_tangent=False, load_steps_shear=1, max_newton=25)
    h = res["h"]
    print(f"mesh spacing at the contact h = {h:.3e} m")
    print(f"P = {res['P']:.4e} N/m, Q = {res['Q']:.4e} N/m, Q/(mu P) = {res['Q'] / (MU * res['P']):.3f}")
    print(f"contact half-width: FE {res['a_fe']:.4e} m, Hertz {res['a_hertz']:.4e} m "
          f"(difference {abs(res['a_fe'] - res['a_hertz']) / h:.2f} h)")
    print(f"stick half-width:   FE {res['c_fe']:.4e} m, Cattaneo-Mindlin {res['c_mindlin']:.4e} m "
          f"(difference {abs(res['c_fe'] - res['c_mindlin']) / h:.2f} h)")
    print(f"Newton iterations per load step, pressing (frictionless): {res['iterations_press']}")
    print(f"Newton iterations per shear step with the consistent tangent: {res['iterations_shear']}")
    print(f"Newton iterations in the first shear step without the friction tangent: "
          f"{alt['iterations_shear']} (None: not converged in 25)")
    return res, alt


if __name__ == "__main__":
    main()
