//! The coefficients of RADAU5 with the digits of Hairer's `radau5.f`
//! (routine RADCOR; E. Hairer, G. Wanner, *Solving Ordinary Differential
//! Equations II*, 2nd ed., Springer 1996, section IV.8): the nodes of Radau
//! IIA of order 5, the transformation to one real and one complex system
//! and its inverse, the eigenvalues of the inverse of its matrix A, and the
//! collocation polynomial that is the method's dense output.

// RADAU5's coefficients are kept with the digits radau5.f prints.
#![allow(clippy::excessive_precision)]

// Nodes and the coefficients of RADAU5 (radau5.f, routine RADCOR).
const SQ6: f64 = 2.449_489_742_783_178;
pub(super) const C1: f64 = (4.0 - SQ6) / 10.0;
pub(super) const C2: f64 = (4.0 + SQ6) / 10.0;
pub(super) const C1M1: f64 = C1 - 1.0;
pub(super) const C2M1: f64 = C2 - 1.0;
pub(super) const C1MC2: f64 = C1 - C2;
pub(super) const DD1: f64 = -(13.0 + 7.0 * SQ6) / 3.0;
pub(super) const DD2: f64 = (-13.0 + 7.0 * SQ6) / 3.0;
pub(super) const DD3: f64 = -1.0 / 3.0;
// T and T^-1: the transformation that decouples the stage equations
pub(super) const T11: f64 = 9.123_239_487_089_294_279e-2;
pub(super) const T12: f64 = -0.141_255_295_020_954_208_43;
pub(super) const T13: f64 = -3.002_919_410_514_742_449_2e-2;
pub(super) const T21: f64 = 0.241_717_932_707_107_018_96;
pub(super) const T22: f64 = 0.204_129_352_293_799_931_99;
pub(super) const T23: f64 = 0.382_942_112_757_261_937_79;
pub(super) const T31: f64 = 0.966_048_182_615_092_936_19;
pub(super) const TI11: f64 = 4.325_579_890_063_155_351;
pub(super) const TI12: f64 = 0.339_199_251_815_809_869_54;
pub(super) const TI13: f64 = 0.541_770_539_935_874_871_19;
pub(super) const TI21: f64 = -4.178_718_591_551_904_727_3;
pub(super) const TI22: f64 = -0.327_682_820_761_062_387_08;
pub(super) const TI23: f64 = 0.476_623_554_500_550_451_96;
pub(super) const TI31: f64 = -0.502_872_634_945_786_875_95;
pub(super) const TI32: f64 = 2.571_926_949_855_605_429_2;
pub(super) const TI33: f64 = -0.596_039_204_828_224_924_97;

/// The eigenvalues of the inverse of RADAU IIA's matrix A: one real
/// (`u1`) and a complex pair (`alph ± i beta`).
pub(super) fn eigen() -> (f64, f64, f64) {
    let c81 = 81f64.cbrt();
    let c9 = 9f64.cbrt();
    let u1 = (6.0 + c81 - c9) / 30.0;
    let alph = (12.0 - c81 + c9) / 60.0;
    let beta = (c81 + c9) * 3f64.sqrt() / 60.0;
    let cno = alph * alph + beta * beta;
    (1.0 / u1, alph / cno, beta / cno)
}

/// One state of the collocation polynomial of a step, from its value at
/// the end and three divided differences `c`, at the point `(s, s - (c2 -
/// 1), s - (c1 - 1))` of `Radau5`'s `DenseOutput::point` (Hairer's CONTR5).
#[inline(always)]
pub(super) fn collocation((s, a, b): (f64, f64, f64), [c0, c1, c2, c3]: [f64; 4]) -> f64 {
    c0 + s * (c1 + a * (c2 + b * c3))
}
