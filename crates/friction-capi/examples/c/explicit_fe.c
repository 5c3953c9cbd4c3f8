/*
 * explicit_fe.c: a bar of 10,000 nodes on a frictional base, integrated by
 * explicit central differences, with LuGre friction at every node updated by
 * friction_model_update once per step: the shape of a user contact model in
 * an explicit finite-element code.
 *
 * Each node has mass M and is tied to its neighbours by springs K; the base
 * carries it with the normal load N = M g. The tip (last node) is pulled by
 * a force that ramps up to F_MAX (below the base's total static capacity
 * Fs N x nodes), so a slip zone grows from the tip while the far end sticks.
 * Leapfrog:  v(n+1/2) = v(n-1/2) + dt a(n),  du = dt v(n+1/2),  u(n+1) = u(n) + du,
 * then the friction at t(n+1) from the slip increment du of every node.
 *
 * Prints the final tip displacement and the energy dissipated by friction
 * (sum of F du, trapezoidal in time), and writes every 500th node's final
 * displacement, velocity and friction force to a CSV file (argv[1], default
 * explicit_fe.csv). The test tests/examples.rs repeats the computation with
 * the Rust update API and requires agreement to 1e-12.
 *
 * Build (from crates/friction-capi, after `cargo build -p friction-capi`):
 *   cc -O2 -I include examples/c/explicit_fe.c ../../target/debug/libfriction_capi.a \
 *      -lpthread -ldl -lm -o explicit_fe
 */
#include <stdio.h>
#include <stdlib.h>

#include "friction.h"

#define NODES 10000
#define STEPS 2000
#define DT 1e-5      /* s; stable below 2 sqrt(M / (4 K + sigma0 N)) = 3.2e-5 s */
#define M 1e-3       /* kg per node */
#define K 1e6        /* N/m between neighbours */
#define G 9.81       /* m/s^2 */
#define F_MAX 30.0   /* N at the tip; the base holds up to 0.4 x 9.81e-3 x 10,000 = 39 N */
#define T_RAMP 0.01  /* s */

static void check(int code, const char *what) {
    if (code != FRICTION_OK) {
        fprintf(stderr, "%s failed (%d): %s\n", what, code, friction_last_error());
        exit(1);
    }
}

int main(int argc, char **argv) {
    const char *csv = argc > 1 ? argv[1] : "explicit_fe.csv";
    /* friction coefficients: the force is normal x F */
    FrictionModel *model = friction_model_new(
        "lugre", "sigma0 = 1e5\nsigma1 = 316.0\nsigma2 = 0.4\nfc = 0.3\nfs = 0.4\nvs = 1e-3");
    if (!model) {
        fprintf(stderr, "friction_model_new: %s\n", friction_last_error());
        return 1;
    }
    size_t len = friction_model_state_len(model);
    double *state = malloc(NODES * len * sizeof(double));
    double *u = calloc(NODES, sizeof(double)), *v = calloc(NODES, sizeof(double));
    double *du = calloc(NODES, sizeof(double)), *normal = malloc(NODES * sizeof(double));
    double *f = calloc(NODES, sizeof(double)), *f_new = calloc(NODES, sizeof(double));
    if (!state || !u || !v || !du || !normal || !f || !f_new) return 1;
    for (size_t i = 0; i < NODES; i++) normal[i] = M * G;
    check(friction_model_init(model, NODES, state), "friction_model_init");

    double energy = 0.0;
    for (int n = 0; n < STEPS; n++) {
        double t = n * DT;
        double tip = F_MAX * (t < T_RAMP ? t / T_RAMP : 1.0);
        for (size_t i = 0; i < NODES; i++) {
            double fint = 0.0;
            if (i > 0) fint += K * (u[i - 1] - u[i]);
            if (i + 1 < NODES) fint += K * (u[i + 1] - u[i]);
            double fext = i + 1 == NODES ? tip : 0.0;
            v[i] += DT * (fint + fext - f[i]) / M;
            du[i] = DT * v[i];
        }
        for (size_t i = 0; i < NODES; i++) u[i] += du[i];
        check(friction_model_update(model, NODES, DT, du, normal, state, f_new), "friction_model_update");
        for (size_t i = 0; i < NODES; i++) {
            energy += 0.5 * (f[i] + f_new[i]) * du[i];
            f[i] = f_new[i];
        }
    }

    printf("tip_displacement = %.17g\n", u[NODES - 1]);
    printf("dissipated_energy = %.17g\n", energy);
    FILE *out = fopen(csv, "w");
    if (!out) return 1;
    fprintf(out, "node,u,v,friction\n");
    for (size_t i = 0; i < NODES; i += 500) fprintf(out, "%zu,%.17g,%.17g,%.17g\n", i, u[i], v[i], f[i]);
    fprintf(out, "%d,%.17g,%.17g,%.17g\n", NODES - 1, u[NODES - 1], v[NODES - 1], f[NODES - 1]);
    fclose(out);

    friction_model_free(model);
    free(state); free(u); free(v); free(du); free(normal); free(f); free(f_new);
    return 0;
}
