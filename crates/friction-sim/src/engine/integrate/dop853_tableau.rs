//! The coefficients of DOP853 with the digits of Hairer's `dop853.f`
//! (E. Hairer, S. P. Nørsett, G. Wanner, *Solving Ordinary Differential
//! Equations I: Nonstiff Problems*, 2nd ed., Springer 1993, sections II.5
//! and II.6): the embedded 8(5,3) pair of Dormand and Prince (twelve
//! stages), and the three further stages and the coefficients of its dense
//! output of order 7.
//!
//! Stages are numbered from 0: stage 0 is f at the step's start, stages 1
//! to 11 the pair's (dop853.f keeps stages 10 and 11 in its `K2` and `K3`),
//! stage 12 f at the step's end (the next step's stage 0), stages 13 to 15
//! the dense output's. Each row lists (earlier stage, coefficient).

// dop853.f's coefficients, kept with its digits.
#![allow(clippy::excessive_precision)]

/// Nodes: stage s is evaluated at t + C[s] h.
pub(super) const C: [f64; 16] = [
    0.0,
    0.526001519587677318785587544488e-01,
    0.789002279381515978178381316732e-01,
    0.118350341907227396726757197510e00,
    0.281649658092772603273242802490e00,
    0.333333333333333333333333333333e00,
    0.25e00,
    0.307692307692307692307692307692e00,
    0.651282051282051282051282051282e00,
    0.6e00,
    0.857142857142857142857142857142e00,
    1.0,
    1.0,
    0.1e00,
    0.2e00,
    0.777777777777777777777777777778e00,
];

/// The stages' coefficients on the earlier stages (rows 1 to 11; row 0 and
/// row 12, f at the step's ends, are empty).
pub(super) const A: [&[(usize, f64)]; 12] = [
    &[],
    &[(0, 5.26001519587677318785587544488e-2)],
    &[(0, 1.97250569845378994544595329183e-2), (1, 5.91751709536136983633785987549e-2)],
    &[(0, 2.95875854768068491816892993775e-2), (2, 8.87627564304205475450678981324e-2)],
    &[
        (0, 2.41365134159266685502369798665e-1),
        (2, -8.84549479328286085344864962717e-1),
        (3, 9.24834003261792003115737966543e-1),
    ],
    &[
        (0, 3.7037037037037037037037037037e-2),
        (3, 1.70828608729473871279604482173e-1),
        (4, 1.25467687566822425016691814123e-1),
    ],
    &[
        (0, 3.7109375e-2),
        (3, 1.70252211019544039314978060272e-1),
        (4, 6.02165389804559606850219397283e-2),
        (5, -1.7578125e-2),
    ],
    &[
        (0, 3.70920001185047927108779319836e-2),
        (3, 1.70383925712239993810214054705e-1),
        (4, 1.07262030446373284651809199168e-1),
        (5, -1.53194377486244017527936158236e-2),
        (6, 8.27378916381402288758473766002e-3),
    ],
    &[
        (0, 6.24110958716075717114429577812e-1),
        (3, -3.36089262944694129406857109825e0),
        (4, -8.68219346841726006818189891453e-1),
        (5, 2.75920996994467083049415600797e1),
        (6, 2.01540675504778934086186788979e1),
        (7, -4.34898841810699588477366255144e1),
    ],
    &[
        (0, 4.77662536438264365890433908527e-1),
        (3, -2.48811461997166764192642586468e0),
        (4, -5.90290826836842996371446475743e-1),
        (5, 2.12300514481811942347288949897e1),
        (6, 1.52792336328824235832596922938e1),
        (7, -3.32882109689848629194453265587e1),
        (8, -2.03312017085086261358222928593e-2),
    ],
    &[
        (0, -9.3714243008598732571704021658e-1),
        (3, 5.18637242884406370830023853209e0),
        (4, 1.09143734899672957818500254654e0),
        (5, -8.14978701074692612513997267357e0),
        (6, -1.85200656599969598641566180701e1),
        (7, 2.27394870993505042818970056734e1),
        (8, 2.49360555267965238987089396762e0),
        (9, -3.0467644718982195003823669022e0),
    ],
    &[
        (0, 2.27331014751653820792359768449e0),
        (3, -1.05344954667372501984066689879e1),
        (4, -2.00087205822486249909675718444e0),
        (5, -1.79589318631187989172765950534e1),
        (6, 2.79488845294199600508499808837e1),
        (7, -2.85899827713502369474065508674e0),
        (8, -8.87285693353062954433549289258e0),
        (9, 1.23605671757943030647266201528e1),
        (10, 6.43392746015763530355970484046e-1),
    ],
];

/// The dense output's stages 13 to 15.
pub(super) const A_DENSE: [&[(usize, f64)]; 3] = [
    &[
        (0, 5.61675022830479523392909219681e-2),
        (6, 2.53500210216624811088794765333e-1),
        (7, -2.46239037470802489917441475441e-1),
        (8, -1.24191423263816360469010140626e-1),
        (9, 1.5329179827876569731206322685e-1),
        (10, 8.20105229563468988491666602057e-3),
        (11, 7.56789766054569976138603589584e-3),
        (12, -8.298e-3),
    ],
    &[
        (0, 3.18346481635021405060768473261e-2),
        (5, 2.83009096723667755288322961402e-2),
        (6, 5.35419883074385676223797384372e-2),
        (7, -5.49237485713909884646569340306e-2),
        (10, -1.08347328697249322858509316994e-4),
        (11, 3.82571090835658412954920192323e-4),
        (12, -3.40465008687404560802977114492e-4),
        (13, 1.41312443674632500278074618366e-1),
    ],
    &[
        (0, -4.28896301583791923408573538692e-1),
        (5, -4.69762141536116384314449447206e0),
        (6, 7.68342119606259904184240953878e0),
        (7, 4.06898981839711007970213554331e0),
        (8, 3.56727187455281109270669543021e-1),
        (12, -1.39902416515901462129418009734e-3),
        (13, 2.9475147891527723389556272149e0),
        (14, -9.15095847217987001081870187138e0),
    ],
];

/// The solution of order 8.
pub(super) const B: [(usize, f64); 8] = [
    (0, 5.42937341165687622380535766363e-2),
    (5, 4.45031289275240888144113950566e0),
    (6, 1.89151789931450038304281599044e0),
    (7, -5.8012039600105847814672114227e0),
    (8, 3.1116436695781989440891606237e-1),
    (9, -1.52160949662516078556178806805e-1),
    (10, 2.01365400804030348374776537501e-1),
    (11, 4.47106157277725905176885569043e-2),
];

/// The order-3 solution's weights (`BHH`): its difference to the order-8
/// solution is the third-order error estimate.
pub(super) const BHH: [(usize, f64); 3] = [
    (0, 0.244094488188976377952755905512e00),
    (8, 0.733846688281611857341361741547e00),
    (11, 0.220588235294117647058823529412e-01),
];

/// The fifth-order error estimate's weights (`ER`).
pub(super) const ER: [(usize, f64); 8] = [
    (0, 0.1312004499419488073250102996e-01),
    (5, -0.1225156446376204440720569753e01),
    (6, -0.4957589496572501915214079952e00),
    (7, 0.1664377182454986536961530415e01),
    (8, -0.3503288487499736816886487290e00),
    (9, 0.3341791187130174790297318841e00),
    (10, 0.8192320648511571246570742613e-01),
    (11, -0.2235530786388629525884427845e-01),
];

/// The stages the dense output's coefficients `D` apply to.
pub(super) const D_STAGES: [usize; 12] = [0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// The dense output's coefficients (`D4*` to `D7*`) on [`D_STAGES`].
pub(super) const D: [[f64; 12]; 4] = [
    [
        -0.84289382761090128651353491142e01,
        0.56671495351937776962531783590e00,
        -0.30689499459498916912797304727e01,
        0.23846676565120698287728149680e01,
        0.21170345824450282767155149946e01,
        -0.87139158377797299206789907490e00,
        0.22404374302607882758541771650e01,
        0.63157877876946881815570249290e00,
        -0.88990336451333310820698117400e-01,
        0.18148505520854727256656404962e02,
        -0.91946323924783554000451984436e01,
        -0.44360363875948939664310572000e01,
    ],
    [
        0.10427508642579134603413151009e02,
        0.24228349177525818288430175319e03,
        0.16520045171727028198505394887e03,
        -0.37454675472269020279518312152e03,
        -0.22113666853125306036270938578e02,
        0.77334326684722638389603898808e01,
        -0.30674084731089398182061213626e02,
        -0.93321305264302278729567221706e01,
        0.15697238121770843886131091075e02,
        -0.31139403219565177677282850411e02,
        -0.93529243588444783865713862664e01,
        0.35816841486394083752465898540e02,
    ],
    [
        0.19985053242002433820987653617e02,
        -0.38703730874935176555105901742e03,
        -0.18917813819516756882830838328e03,
        0.52780815920542364900561016686e03,
        -0.11573902539959630126141871134e02,
        0.68812326946963000169666922661e01,
        -0.10006050966910838403183860980e01,
        0.77771377980534432092869265740e00,
        -0.27782057523535084065932004339e01,
        -0.60196695231264120758267380846e02,
        0.84320405506677161018159903784e02,
        0.11992291136182789328035130030e02,
    ],
    [
        -0.25693933462703749003312586129e02,
        -0.15418974869023643374053993627e03,
        -0.23152937917604549567536039109e03,
        0.35763911791061412378285349910e03,
        0.93405324183624310003907691704e02,
        -0.37458323136451633156875139351e02,
        0.10409964950896230045147246184e03,
        0.29840293426660503123344363579e02,
        -0.43533456590011143754432175058e02,
        0.96324553959188282948394950600e02,
        -0.39177261675615439165231486172e02,
        -0.14972683625798562581422125276e03,
    ],
];

#[cfg(test)]
mod tests {
    use super::{A, B, C};

    /// Every rooted tree of order 1 to `max`, each as the list of its
    /// subtrees' indices (non-decreasing, so each tree appears once), with
    /// its order.
    fn rooted_trees(max: usize) -> Vec<(Vec<usize>, usize)> {
        let mut trees: Vec<(Vec<usize>, usize)> = vec![(vec![], 1)];
        for n in 2..=max {
            // the children of a tree of order n: a multiset of earlier trees
            // whose orders sum to n - 1
            let mut found = Vec::new();
            let mut stack: Vec<(Vec<usize>, usize)> = vec![(vec![], 0)];
            while let Some((kids, sum)) = stack.pop() {
                if sum == n - 1 {
                    found.push((kids, n));
                    continue;
                }
                let from = kids.last().copied().unwrap_or(0);
                for (j, t) in trees.iter().enumerate().skip(from) {
                    if sum + t.1 < n {
                        let mut k = kids.clone();
                        k.push(j);
                        stack.push((k, sum + t.1));
                    }
                }
            }
            trees.extend(found);
        }
        trees
    }

    /// The Butcher order conditions `b · Φ(t) = 1 / γ(t)` of every tree of
    /// order up to `max`, for weights `b` over stages 0 to 11 with the
    /// coefficients `a` (Hairer, Nørsett and Wanner, section II.2): the
    /// largest defect relative to the sum of the magnitudes of its terms.
    fn worst_defect(a: &[Vec<(usize, f64)>], b: &[(usize, f64)], max: usize) -> (f64, usize) {
        let s = a.len();
        let trees = rooted_trees(max);
        // g[t][i]: the stage-i factor of tree t (product over its subtrees
        // of (A g[sub])_i), with its magnitude bound; gamma[t]: the density
        let mut g: Vec<Vec<f64>> = Vec::with_capacity(trees.len());
        let mut gabs: Vec<Vec<f64>> = Vec::with_capacity(trees.len());
        let mut gamma: Vec<f64> = Vec::with_capacity(trees.len());
        let (mut worst, mut at) = (0.0_f64, 0);
        for (t, (kids, order)) in trees.iter().enumerate() {
            let mut gi = vec![1.0; s];
            let mut ga = vec![1.0; s];
            let mut dens = *order as f64;
            for &k in kids {
                for i in 0..s {
                    let (mut v, mut w) = (0.0, 0.0);
                    for &(j, aij) in &a[i] {
                        v += aij * g[k][j];
                        w += (aij * gabs[k][j]).abs();
                    }
                    gi[i] *= v;
                    ga[i] *= w;
                }
                dens *= gamma[k];
            }
            let phi: f64 = b.iter().map(|&(i, bi)| bi * gi[i]).sum();
            let scale: f64 = b.iter().map(|&(i, bi)| (bi * ga[i]).abs()).sum::<f64>().max(1.0);
            let d = (phi - 1.0 / dens).abs() / scale;
            if d > worst {
                (worst, at) = (d, t);
            }
            g.push(gi);
            gabs.push(ga);
            gamma.push(dens);
        }
        (worst, at)
    }

    fn rows() -> Vec<Vec<(usize, f64)>> {
        A.iter().map(|r| r.to_vec()).collect()
    }

    #[test]
    fn there_are_200_rooted_trees_up_to_order_8() {
        // 1, 1, 2, 4, 9, 20, 48, 115 trees of orders 1 to 8 (OEIS A000081)
        let t = rooted_trees(8);
        let count = |n: usize| t.iter().filter(|x| x.1 == n).count();
        assert_eq!((1..=8).map(count).collect::<Vec<_>>(), [1, 1, 2, 4, 9, 20, 48, 115]);
    }

    #[test]
    fn the_order_8_solution_meets_every_order_condition_up_to_8() {
        assert_eq!(rows().len(), 12);
        for (i, r) in A.iter().enumerate() {
            let c: f64 = r.iter().map(|x| x.1).sum();
            assert!((c - C[i]).abs() < 1e-14, "row {i}");
        }
        let (d, t) = worst_defect(&rows(), &B, 8);
        assert!(d < 1e-13, "tree {t}: relative defect {d:e}");
    }

    #[test]
    fn a_wrong_digit_breaks_an_order_condition() {
        // the check can fail: one weight perturbed by 1e-9 relative, or one
        // coefficient of a late stage, violates some condition of order <= 8
        let mut b = B;
        b[3].1 *= 1.0 + 1e-9;
        assert!(worst_defect(&rows(), &b, 8).0 > 1e-11);
        let mut a = rows();
        a[9][2].1 *= 1.0 + 1e-9;
        let (d, _) = worst_defect(&a, &B, 8);
        assert!(d > 1e-12, "{d:e}");
    }
}
