//! The coefficients of Rodas5P (G. Steinebach, "Construction of
//! Rosenbrock-Wanner method Rodas5P and numerical benchmarks within the
//! Julia Differential Equations package", BIT Numerical Mathematics 63:27,
//! 2023): eight stages, order 5 with an embedded solution of order 4 (the
//! last stage is the difference of the two), stiffly accurate, and a
//! continuous extension of order 4.
//!
//! The digits are those of SciML's OrdinaryDiffEq.jl
//! (`lib/OrdinaryDiffEqRosenbrock/src/rosenbrock_tableaus.jl`, function
//! `Rodas5PTableau`), in the transformed form of Hairer and Wanner (*Solving
//! Ordinary Differential Equations II*, 2nd ed., Springer 1996, section
//! IV.7, (7.25)): with `W = I / (h γ) - J`, stage `i` solves
//! `W k_i = f(t + c_i h, y + Σ_j A_ij k_j) + h d_i ∂f/∂t + Σ_j (C_ij / h) k_j`
//! and the step ends at `y + Σ_j A_8j k_j + k_8` (the last row of `A` and
//! the stage itself), `k_8` being the error estimate. The dense output at
//! `θ` in the step is `(1 - θ) y0 + θ (y1 + (1 - θ) (d_1 + θ (d_2 + θ d_3)))`
//! with `d_r = Σ_i H_ri k_i`. The order conditions are checked numerically by
//! the tests of [`crate::engine::integrate::rosenbrock`] (observed orders on
//! linear, nonlinear and non-autonomous problems).

// The coefficients are kept with the digits the source prints.
#![allow(clippy::excessive_precision, clippy::unreadable_literal)]

/// The number of stages.
pub(super) const S: usize = 8;

/// γ, the diagonal of the method.
pub(super) const GAMMA: f64 = 0.21193756319429014;

/// `A[i][j]` (j < i): the stage points.
pub(super) const A: [[f64; S]; S] = [
    [0.0; S],
    [3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [2.849394379747939, 0.45842242204463923, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [-6.954028509809101, 2.489845061869568, -10.358996098473584, 0.0, 0.0, 0.0, 0.0, 0.0],
    [2.8029986275628964, 0.5072464736228206, -0.3988312541770524, -0.04721187230404641, 0.0, 0.0, 0.0, 0.0],
    [
        -7.502846399306121,
        2.561846144803919,
        -11.627539656261098,
        -0.18268767659942256,
        0.030198172008377946,
        0.0,
        0.0,
        0.0,
    ],
    [
        -7.502846399306121,
        2.561846144803919,
        -11.627539656261098,
        -0.18268767659942256,
        0.030198172008377946,
        1.0,
        0.0,
        0.0,
    ],
    [
        -7.502846399306121,
        2.561846144803919,
        -11.627539656261098,
        -0.18268767659942256,
        0.030198172008377946,
        1.0,
        1.0,
        0.0,
    ],
];

/// `C[i][j]` (j < i): the stages' coupling through the Jacobian.
pub(super) const C: [[f64; S]; S] = [
    [0.0; S],
    [-14.155112264123755, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [-17.97296035885952, -2.859693295451294, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [147.12150275711716, -1.41221402718213, 71.68940251302358, 0.0, 0.0, 0.0, 0.0, 0.0],
    [165.43517024871676, -0.4592823456491126, 42.90938336958603, -5.961986721573306, 0.0, 0.0, 0.0, 0.0],
    [
        24.854864614690072,
        -3.0009227002832186,
        47.4931110020768,
        5.5814197821558125,
        -0.6610691825249471,
        0.0,
        0.0,
        0.0,
    ],
    [
        30.91273214028599,
        -3.1208243349937974,
        77.79954646070892,
        34.28646028294783,
        -19.097331116725623,
        -28.087943162872662,
        0.0,
        0.0,
    ],
    [
        37.80277123390563,
        -3.2571969029072276,
        112.26918849496327,
        66.9347231244047,
        -40.06618937091002,
        -54.66780262877968,
        -9.48861652309627,
        0.0,
    ],
];

/// The nodes: stage `i` evaluates `f` at `t + c_i h`.
pub(super) const NODES: [f64; S] =
    [0.0, 0.6358126895828704, 0.4095798393397535, 0.9769306725060716, 0.4288403609558664, 1.0, 1.0, 1.0];

/// `d_i = Σ_j γ_ij`: the weights of `h ∂f/∂t` in the stages.
pub(super) const D: [f64; S] = [
    0.21193756319429014,
    -0.42387512638858027,
    -0.3384627126235924,
    1.8046452872882734,
    2.325825639765069,
    0.0,
    0.0,
    0.0,
];

/// The continuous extension: `H[r][i]`, the weight of stage `i` in the
/// dense output's coefficient `d_(r+1)`.
pub(super) const H: [[f64; S]; 3] = [
    [
        25.948786856663858,
        -2.5579724845846235,
        10.433815404888879,
        -2.3679251022685204,
        0.524948541321073,
        1.1241088310450404,
        0.4272876194431874,
        -0.17202221070155493,
    ],
    [
        -9.91568850695171,
        -0.9689944594115154,
        3.0438037242978453,
        -24.495224566215796,
        20.176138334709044,
        15.98066361424651,
        -6.789040303419874,
        -6.710236069923372,
    ],
    [
        11.419903575922262,
        2.8879645146136994,
        72.92137995996029,
        80.12511834622643,
        -52.072871366152654,
        -59.78993625266729,
        -0.15582684282751913,
        4.883087185713722,
    ],
];
