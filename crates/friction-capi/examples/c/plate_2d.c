/*
 * plate_2d.c: an elastic plate of 50 x 50 nodes pressed on a frictional
 * base and moved along a circle in its plane, integrated by explicit
 * central differences; every node is a 2-D Coulomb contact updated by
 * friction_model_update_2d once per step (the shape of a user contact model
 * for 3-D contact, two tangential slip components per node).
 *
 * Each node has mass M and normal load N (uniform pressure), is tied to its
 * four neighbours by springs KP in x and y (the plate's in-plane
 * stiffness) and to the rigid pressing tool above it by a shear spring KD.
 * The tool moves on a circle of radius R at angular speed W. In steady
 * gross slip every node circles at the radius
 *
 *     r = sqrt(R^2 - (mu N / KD)^2) / (1 - M W^2 / KD)
 *
 * (the shear spring carries mu N along the velocity and the centripetal
 * force M W^2 r), the plate translates rigidly (its springs carry nothing)
 * and friction dissipates, per cycle and node, mu N times the path length:
 *
 *     D = nodes x mu N x 2 pi r.
 *
 * The nodes start on that steady orbit (position and velocity), so no
 * transient is left to decay; the program runs three cycles and compares
 * the energy dissipated in the last one, sum of F . du over the steps,
 * with D. Leapfrog: v(n+1/2) = v(n-1/2) + dt a(n), du = dt v(n+1/2),
 * u(n+1) = u(n) + du, then the friction at t(n+1) from du.
 *
 * Prints the dissipated energy per cycle, its closed form, their relative
 * difference and the smallest slip speed of the last cycle (gross slip: all
 * nodes slide). tests/examples.rs repeats the computation with the Rust
 * update API (agreement 1e-12) and checks the closed form.
 *
 * Build (from crates/friction-capi, after `cargo build -p friction-capi`):
 *   cc -O2 -I include examples/c/plate_2d.c ../../target/debug/libfriction_capi.a \
 *      -lpthread -ldl -lm -o plate_2d
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "friction.h"

#define PI 3.14159265358979323846
#define SIDE 50                  /* nodes per side */
#define NODES (SIDE * SIDE)
#define MU 0.3                   /* friction coefficient */
#define M 1e-3                   /* kg per node */
#define N 1.0                    /* N normal load per node */
#define KP 1e5                   /* N/m between neighbours */
#define KD 1e4                   /* N/m shear tie to the tool */
#define R 1e-3                   /* m, radius of the tool's circle */
#define W (2.0 * PI * 5.0)     /* rad/s: 5 cycles per second */
#define STEPS_PER_CYCLE 20000    /* dt = 1e-5 s, below 2 sqrt(M / (KD + 8 KP)) = 7e-5 s */
#define CYCLES 3

static void check(int code, const char *what) {
    if (code != FRICTION_OK) {
        fprintf(stderr, "%s failed (%d): %s\n", what, code, friction_last_error());
        exit(1);
    }
}

int main(void) {
    FrictionModel *model = friction_model_new("coulomb", "fc = 0.3");
    if (!model) {
        fprintf(stderr, "friction_model_new: %s\n", friction_last_error());
        return 1;
    }
    const double dt = 1.0 / (5.0 * STEPS_PER_CYCLE);
    /* steady orbit: radius r, the node lags the tool by the angle lag */
    const double a = MU * N / KD, c = 1.0 - M * W * W / KD;
    const double r = sqrt(R * R - a * a) / c;
    const double lag = atan2(a, r * c);

    size_t len = friction_model_state_len_2d(model);
    if (len == 0) {
        fprintf(stderr, "friction_model_state_len_2d: %s\n", friction_last_error());
        return 1;
    }
    double *state = malloc(NODES * len * sizeof(double));
    double *u = malloc(2 * NODES * sizeof(double)), *v = malloc(2 * NODES * sizeof(double));
    double *du = malloc(2 * NODES * sizeof(double)), *normal = malloc(NODES * sizeof(double));
    double *f = calloc(2 * NODES, sizeof(double));
    if (!state || !u || !v || !du || !normal || !f) return 1;
    check(friction_model_init_2d(model, NODES, state), "friction_model_init_2d");
    for (size_t i = 0; i < NODES; i++) {
        normal[i] = N;
        /* on the orbit at t = 0 (angle -lag), velocity at t = -dt/2 */
        double p = -lag, q = -lag - 0.5 * W * dt;
        u[2 * i] = r * cos(p);
        u[2 * i + 1] = r * sin(p);
        v[2 * i] = -W * r * sin(q);
        v[2 * i + 1] = W * r * cos(q);
    }
    /* the friction force at t = 0: mu N along the velocity */
    for (size_t i = 0; i < NODES; i++) {
        f[2 * i] = MU * N * -sin(-lag);
        f[2 * i + 1] = MU * N * cos(-lag);
    }

    double energy = 0.0, min_speed = INFINITY;
    for (int n = 0; n < CYCLES * STEPS_PER_CYCLE; n++) {
        double t = n * dt;
        double tool[2] = {R * cos(W * t), R * sin(W * t)};
        for (size_t i = 0; i < NODES; i++) {
            size_t row = i / SIDE, col = i % SIDE;
            for (int d = 0; d < 2; d++) {
                double ui = u[2 * i + d];
                double fint = KD * (tool[d] - ui);
                if (col > 0) fint += KP * (u[2 * (i - 1) + d] - ui);
                if (col + 1 < SIDE) fint += KP * (u[2 * (i + 1) + d] - ui);
                if (row > 0) fint += KP * (u[2 * (i - SIDE) + d] - ui);
                if (row + 1 < SIDE) fint += KP * (u[2 * (i + SIDE) + d] - ui);
                v[2 * i + d] += dt * (fint - f[2 * i + d]) / M;
                du[2 * i + d] = dt * v[2 * i + d];
            }
        }
        for (size_t i = 0; i < 2 * NODES; i++) u[i] += du[i];
        check(friction_model_update_2d(model, NODES, dt, du, normal, state, f), "friction_model_update_2d");
        if (n >= (CYCLES - 1) * STEPS_PER_CYCLE) {
            for (size_t i = 0; i < NODES; i++) {
                energy += f[2 * i] * du[2 * i] + f[2 * i + 1] * du[2 * i + 1];
                double s = hypot(du[2 * i], du[2 * i + 1]) / dt;
                if (s < min_speed) min_speed = s;
            }
        }
    }
    double closed = NODES * MU * N * 2.0 * PI * r;
    printf("nodes = %d\n", NODES);
    printf("orbit_radius = %.17g\n", r);
    printf("dissipated_energy_per_cycle = %.17g\n", energy);
    printf("closed_form = %.17g\n", closed);
    printf("relative_difference = %.3e\n", fabs(energy - closed) / closed);
    printf("min_slip_speed = %.17g\n", min_speed);
    free(state); free(u); free(v); free(du); free(normal); free(f);
    friction_model_free(model);
    return 0;
}
