//! The scenario shared by the tests of harmonic balance with gaps
//! (`hb_gaps.rs`, `hb_grazing.rs`).

/// The coupled joint of examples/coupled_joint.toml forced by `amp` N at
/// `f` Hz, started at `x0`, `v0`, run for `periods` periods with
/// `per_period` rows each, at rtol 1e-10.
pub fn coupled_at(amp: f64, f: f64, x0: [f64; 2], v0: [f64; 2], periods: f64, per_period: usize) -> String {
    format!(
        r#"name = "coupled"
[[body]]
name = "m"
mass = 1.0
dim = 2
x0 = [{:e}, {:e}]
v0 = [{:e}, {:e}]
[[spring]]
name = "kx"
between = ["m", "ground"]
stiffness = 1e4
[[spring]]
name = "ky"
between = ["m", "ground"]
stiffness = 1e4
direction = "y"
[[spring]]
name = "tilted"
between = ["m", "ground"]
stiffness = 5e3
direction = [1.0, 1.0]
[[damper]]
between = ["m", "ground"]
coefficient = 10.0
[[damper]]
between = ["m", "ground"]
coefficient = 10.0
direction = "y"
[[force]]
name = "press"
on = "m"
direction = "y"
value = -20.0
[[force]]
name = "p"
on = "m"
value = {{ type = "sine", amplitude = {amp:e}, frequency = {f} }}
[[contact]]
name = "j"
between = ["m", "ground"]
model = "jenkins"
params = {{ kt = 2e4, fs = 0.3 }}
normal_stiffness = 1e5
gap = 0.0
[solver]
t_end = {t_end}
output_dt = {dt:e}
rtol = 1e-10
atol = 1e-12
"#,
        x0[0],
        x0[1],
        v0[0],
        v0[1],
        t_end = periods / f,
        dt = 1.0 / f / per_period as f64
    )
}
