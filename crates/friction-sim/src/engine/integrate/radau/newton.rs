//! Radau5's simplified Newton iteration of a step's three stages (one real
//! and one complex linear system per iteration, Hairer and Wanner 1996,
//! section IV.8) and its embedded error estimate.

use nalgebra::Complex;

use super::*;

impl Radau5<'_, '_> {
    /// Simplified Newton iteration for the stages of a step of length `h`.
    /// `Ok(iterations)`, or `Err(factor)` to shrink the step by.
    pub(super) fn newton(&mut self, h: f64) -> Result<usize, f64> {
        let n = self.n;
        if self.accepted_since_start == 0 {
            for k in 0..3 {
                self.z[k].fill(0.0);
                self.f[k].fill(0.0);
            }
        } else {
            // extrapolate the last step's collocation polynomial
            let c3q = h / self.last.h_prev;
            let c1q = C1 * c3q;
            let c2q = C2 * c3q;
            // every vector sliced to n: the loops run without bounds checks
            let [_, ak1, ak2, ak3] = &self.cont;
            let (ak1, ak2, ak3) = (&ak1[..n], &ak2[..n], &ak3[..n]);
            let [z0, z1, z2] = &mut self.z;
            let (z0, z1, z2) = (&mut z0[..n], &mut z1[..n], &mut z2[..n]);
            let [f0, f1, f2] = &mut self.f;
            let (f0, f1, f2) = (&mut f0[..n], &mut f1[..n], &mut f2[..n]);
            for i in 0..n {
                let (ak1, ak2, ak3) = (ak1[i], ak2[i], ak3[i]);
                let a1 = c1q * (ak1 + (c1q - C2M1) * (ak2 + (c1q - C1M1) * ak3));
                let a2 = c2q * (ak1 + (c2q - C2M1) * (ak2 + (c2q - C1M1) * ak3));
                let a3 = c3q * (ak1 + (c3q - C2M1) * (ak2 + (c3q - C1M1) * ak3));
                z0[i] = a1;
                z1[i] = a2;
                z2[i] = a3;
                f0[i] = TI11 * a1 + TI12 * a2 + TI13 * a3;
                f1[i] = TI21 * a1 + TI22 * a2 + TI23 * a3;
                f2[i] = TI31 * a1 + TI32 * a2 + TI33 * a3;
            }
        }
        self.faccon = self.faccon.max(f64::EPSILON).powf(0.8);
        self.theta = THET;
        let fac1 = self.u1 / h;
        let alphn = self.alph / h;
        let betan = self.beta / h;
        let mut dynold = 0.0;
        let mut thqold = 0.0;
        let mut newt = 0;
        loop {
            if newt >= NIT {
                return Err(0.5);
            }
            // the stage derivatives, kept in z (the stage values of the
            // states the equations read: the quadratures feed none)
            let m = self.m;
            for (k, c) in [C1, C2, 1.0].into_iter().enumerate() {
                for ((t, &y), &z) in self.tmp[..m].iter_mut().zip(&self.last.y[..m]).zip(&self.z[k][..m]) {
                    *t = y + z;
                }
                self.eng.rhs(self.last.t + c * h, &self.tmp, &mut self.z[k]);
            }
            {
                let [z0, z1, z2] = &mut self.z;
                let (z0, z1, z2) = (&mut z0[..n], &z1[..n], &z2[..n]);
                let [f0, f1, f2] = &self.f;
                let (f0, f1, f2) = (&f0[..n], &f1[..n], &f2[..n]);
                let w2 = &mut self.w2[..n];
                for i in 0..n {
                    let (a1, a2, a3) = (z0[i], z1[i], z2[i]);
                    let (f1, f2, f3) = (f0[i], f1[i], f2[i]);
                    z0[i] = TI11 * a1 + TI12 * a2 + TI13 * a3 - f1 * fac1;
                    let r2 = TI21 * a1 + TI22 * a2 + TI23 * a3 - f2 * alphn + f3 * betan;
                    let r3 = TI31 * a1 + TI32 * a2 + TI33 * a3 - f3 * alphn - f2 * betan;
                    w2[i] = Complex::new(r2, r3);
                }
            }
            let mut z0 = std::mem::take(&mut self.z[0]);
            self.solve1(&mut z0);
            self.z[0] = z0;
            let mut w2 = std::mem::take(&mut self.w2);
            self.solve2(&mut w2);
            self.w2 = w2;
            newt += 1;
            self.stats.newton_iterations += 1;
            let mut dyno = 0.0;
            {
                let [z0, z1, z2] = &mut self.z;
                let (z0, z1, z2) = (&z0[..n], &mut z1[..n], &mut z2[..n]);
                let (w2, scal) = (&self.w2[..n], &self.scal[..n]);
                for i in 0..n {
                    z1[i] = w2[i].re;
                    z2[i] = w2[i].im;
                    let s = scal[i];
                    let (d1, d2, d3) = (z0[i] / s, z1[i] / s, z2[i] / s);
                    dyno += d1 * d1 + d2 * d2 + d3 * d3;
                }
            }
            let dyno = (dyno / (3 * n) as f64).sqrt();
            if !dyno.is_finite() {
                return Err(0.5);
            }
            // rate of convergence
            if newt > 1 && newt < NIT {
                let thq = dyno / dynold;
                self.theta = if newt == 2 { thq } else { (thq * thqold).sqrt() };
                thqold = thq;
                if self.theta < 0.99 {
                    self.faccon = self.theta / (1.0 - self.theta);
                    let left = (NIT - 1 - newt) as f64;
                    let dyth = self.faccon * dyno * self.theta.powi(left as i32) / self.fnewt;
                    if dyth >= 1.0 {
                        // would not converge in time
                        let qnewt = dyth.clamp(1e-4, 20.0);
                        return Err(0.8 * qnewt.powf(-1.0 / (4.0 + left)));
                    }
                } else {
                    return Err(0.5);
                }
            }
            dynold = dyno.max(f64::EPSILON);
            {
                let [z0, z1, z2] = &mut self.z;
                let (z0, z1, z2) = (&mut z0[..n], &mut z1[..n], &mut z2[..n]);
                let [f0, f1, f2] = &mut self.f;
                let (f0, f1, f2) = (&mut f0[..n], &mut f1[..n], &mut f2[..n]);
                for i in 0..n {
                    let a1 = f0[i] + z0[i];
                    let a2 = f1[i] + z1[i];
                    let a3 = f2[i] + z2[i];
                    f0[i] = a1;
                    f1[i] = a2;
                    f2[i] = a3;
                    z0[i] = T11 * a1 + T12 * a2 + T13 * a3;
                    z1[i] = T21 * a1 + T22 * a2 + T23 * a3;
                    z2[i] = T31 * a1 + a2;
                }
            }
            if self.faccon * dyno <= self.fnewt {
                return Ok(newt);
            }
        }
    }

    /// The embedded error estimate of the step just iterated (weighted RMS).
    pub(super) fn error(&mut self, h: f64) -> f64 {
        let n = self.n;
        let (hee1, hee2, hee3) = (DD1 / h, DD2 / h, DD3 / h);
        {
            let [z0, z1, z2] = &self.z;
            let (z0, z1, z2) = (&z0[..n], &z1[..n], &z2[..n]);
            let (tmp, tmp2, fx) = (&mut self.tmp[..n], &mut self.tmp2[..n], &self.fx[..n]);
            for i in 0..n {
                let f2 = hee1 * z0[i] + hee2 * z1[i] + hee3 * z2[i];
                tmp2[i] = f2;
                tmp[i] = f2 + fx[i];
            }
        }
        let mut e = std::mem::take(&mut self.tmp);
        self.solve1(&mut e);
        self.tmp = e;
        let mut err = self.rms(&self.tmp);
        if err >= 1.0 && (self.accepted_since_start == 0 || self.reject) {
            // Hairer and Wanner's second estimate, filtered once more
            for i in 0..self.m {
                self.last.ymid[i] = self.last.y[i] + self.tmp[i];
            }
            self.eng.rhs(self.last.t, &self.last.ymid, &mut self.tmp);
            for i in 0..n {
                self.tmp[i] += self.tmp2[i];
            }
            let mut e = std::mem::take(&mut self.tmp);
            self.solve1(&mut e);
            self.tmp = e;
            err = self.rms(&self.tmp);
        }
        err
    }
}
