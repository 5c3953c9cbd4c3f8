//! The bad-input corpus: scenario files and command lines a user can type
//! that must be refused with a message naming the file and line, the key,
//! the value and the valid range, with exit status 2, no panic and nothing
//! written; and a few near misses that must be accepted. Each case is one
//! row of a table, so a regression names the case that broke.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{friction, BASE};

fn tmp(name: &str) -> PathBuf {
    common::tmp("bad-input", name)
}

/// A mass on a spring, pushed by a force, rubbing on the ground.
const BODY: &str = r#"name = "body"
[[body]]
name = "m"
mass = 1.0
[[spring]]
name = "k"
between = ["m", "ground"]
stiffness = 100.0
[[force]]
name = "push"
on = "m"
value = 1.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 0.1 }
[solver]
t_end = 0.2
output_dt = 1e-3
"#;

/// `BASE` with the contact's model and parameters replaced (and `normal` set when given).
fn with_model(model: &str, params: &str, normal: Option<&str>) -> String {
    let n = normal.map(|n| format!("normal = {n}\n")).unwrap_or_default();
    BASE.replace(
        "model = \"dahl\"\nparams = { sigma0 = 1e5, fc = 1.0, exponent = 1.0 }\n",
        &format!("model = \"{model}\"\nparams = {params}\n{n}"),
    )
}

/// `BASE` with `normal = value` on line 9 (params move to line 10).
fn with_normal(value: &str) -> String {
    BASE.replace("model = \"dahl\"\n", &format!("model = \"dahl\"\nnormal = {value}\n"))
}

enum Input {
    /// A scenario text, run with `friction run FILE --out DIR`.
    Scenario(String),
    /// Arguments after `friction`.
    Args(Vec<String>),
    /// A scenario text written to `s.toml` and arguments after `friction`,
    /// in which `FILE` stands for that file and `OUT` for the output directory.
    WithFile(String, Vec<String>),
    /// A file of the given name and text, and arguments after `friction`,
    /// in which `FILE` stands for that file and `OUT` for the output directory.
    Named(&'static str, String, Vec<String>),
}

struct Case {
    name: &'static str,
    input: Input,
    code: i32,
    needles: Vec<&'static str>,
}

fn scen(name: &'static str, text: String, code: i32, needles: &[&'static str]) -> Case {
    Case { name, input: Input::Scenario(text), code, needles: needles.to_vec() }
}

fn args(name: &'static str, a: &[&str], code: i32, needles: &[&'static str]) -> Case {
    Case {
        name,
        input: Input::Args(a.iter().map(|s| s.to_string()).collect()),
        code,
        needles: needles.to_vec(),
    }
}

fn with_file(name: &'static str, text: &str, a: &[&str], code: i32, needles: &[&'static str]) -> Case {
    Case {
        name,
        input: Input::WithFile(text.to_string(), a.iter().map(|s| s.to_string()).collect()),
        code,
        needles: needles.to_vec(),
    }
}

fn named(name: &'static str, file: &'static str, text: &str, a: &[&str], needles: &[&'static str]) -> Case {
    Case {
        name,
        input: Input::Named(file, text.to_string(), a.iter().map(|s| s.to_string()).collect()),
        code: 2,
        needles: needles.to_vec(),
    }
}

/// A mass on a spring and a Jenkins joint, shaken by the `sine` force `p`
/// (and pushed by the constant force `q`): a frequency response's scenario.
const FRF: &str = r#"name = "shaken"
[[body]]
name = "m"
mass = 1.0
[[spring]]
between = ["m", "ground"]
stiffness = 1e4
[[damper]]
between = ["m", "ground"]
coefficient = 2.0
[[force]]
name = "p"
on = "m"
value = { type = "sine", amplitude = 1.0, frequency = 10.0 }
[[force]]
name = "q"
on = "m"
value = 0.1
[[contact]]
name = "j"
between = ["m", "ground"]
model = "jenkins"
params = { kt = 4e4, fs = 0.5 }
[solver]
t_end = 1.0
"#;

/// `friction frf FILE --force p --out OUT` with `rest` after it.
fn frf(name: &'static str, rest: &[&str], needles: &[&'static str]) -> Case {
    let mut a = vec!["frf", "FILE", "--out", "OUT"];
    a.extend(rest);
    with_file(name, FRF, &a, 2, needles)
}

/// `friction nnm FILE --out OUT` with `rest` after it.
fn nnm(name: &'static str, rest: &[&str], needles: &[&'static str]) -> Case {
    let mut a = vec!["nnm", "FILE", "--out", "OUT"];
    a.extend(rest);
    with_file(name, FRF, &a, 2, needles)
}

/// `friction run FILE --out OUT --set ...`.
fn run_set(name: &'static str, set: &[&str], code: i32, needles: &[&'static str]) -> Case {
    let mut a = vec!["run", "FILE", "--out", "OUT"];
    for s in set {
        a.extend(["--set", s]);
    }
    with_file(name, BODY, &a, code, needles)
}

/// `friction sweep FILE` with `args` after it.
fn sweep(name: &'static str, rest: &[&str], needles: &[&'static str]) -> Case {
    let mut a = vec!["sweep", "FILE"];
    a.extend(rest);
    with_file(name, BODY, &a, 2, needles)
}

fn corpus() -> Vec<Case> {
    let long = "n".repeat(65);
    vec![
        // ---- loads and signals (finite over the whole run)
        scen(
            "normal_nan",
            with_normal("nan"),
            2,
            &["s.toml:9", "normal", "NaN", "not finite", "(-inf, inf)"],
        ),
        scen("normal_inf", with_normal("inf"), 2, &["s.toml:9", "normal", "inf", "not finite"]),
        scen("normal_minus_inf", with_normal("-inf"), 2, &["s.toml:9", "normal", "-inf"]),
        scen(
            "normal_sine_overflows",
            with_normal("{ type = \"sine\", amplitude = 1e308, frequency = 1.0, offset = 1e308 }"),
            2,
            &["s.toml:9", "normal", "not finite", "t_end = 0.5"],
        ),
        scen(
            "normal_ramp_overflows_before_t_end",
            with_normal("{ type = \"ramp\", rate = 1e308, offset = 1.5e308 }"),
            2,
            &["s.toml:9", "normal", "not finite"],
        ),
        scen(
            "normal_pulse_value_nan",
            with_normal("{ type = \"pulse\", value = nan, from = 0.1, to = 0.2 }"),
            2,
            &["s.toml:9", "`value` = NaN", "out of range"],
        ),
        scen(
            "normal_string",
            with_normal("\"high\""),
            2,
            &["s.toml:9", "normal", "expected a number or a schedule table"],
        ),
        scen("force_value_nan", BODY.replace("value = 1.0", "value = nan"), 2, &["s.toml:12", "push", "NaN"]),
        scen(
            "force_sine_rate_overflows",
            BODY.replace("value = 1.0", "value = { type = \"sine\", amplitude = 1e300, frequency = 1e200 }"),
            2,
            &["s.toml:12", "push", "rate", "overflows"],
        ),
        scen(
            "motion_speed_string",
            BASE.replace("speed = 1e-4", "speed = \"x\""),
            2,
            &["s.toml:4", "speed", "must be a number", "\"x\""],
        ),
        // ---- names
        scen(
            "contact_name_with_comma_breaks_the_csv_header",
            BASE.replace("name = \"c\"", "name = \"c,d\""),
            2,
            &["s.toml:6", "name", "c,d", "','", "ASCII letters"],
        ),
        scen(
            "contact_name_with_newline_breaks_the_csv_header",
            BASE.replace("name = \"c\"", "name = \"c\\nd\""),
            2,
            &["s.toml:6", "name", "'\\n'"],
        ),
        scen(
            "scenario_name_with_dots_cannot_escape_out_dir",
            BASE.replace("name = \"bad\"", "name = \"../../x\""),
            2,
            &["s.toml:1", "name", "'/'"],
        ),
        scen(
            "absolute_scenario_name_cannot_escape_out_dir",
            BASE.replace("name = \"bad\"", "name = \"/abs/x\""),
            2,
            &["s.toml:1", "'/'"],
        ),
        scen("empty_scenario_name", BASE.replace("name = \"bad\"", "name = \"\""), 2, &["s.toml:1", "empty"]),
        scen(
            "hidden_scenario_name",
            BASE.replace("name = \"bad\"", "name = \".hidden\""),
            2,
            &["s.toml:1", "starts with '.'"],
        ),
        scen(
            "name_longer_than_64",
            BASE.replace("name = \"bad\"", &format!("name = \"{long}\"")),
            2,
            &["s.toml:1", "65 characters", "1 to 64"],
        ),
        scen("body_name_with_space", BODY.replace("name = \"m\"", "name = \"m 1\""), 2, &["s.toml:3", "' '"]),
        scen(
            "spring_name_with_slash",
            BODY.replace("name = \"k\"", "name = \"k/1\""),
            2,
            &["s.toml:6", "spring", "'/'"],
        ),
        scen(
            "force_name_with_backslash",
            BODY.replace("name = \"push\"", "name = \"p\\\\q\""),
            2,
            &["s.toml:10", "force", "'\\\\'"],
        ),
        // ---- type errors and duplicate keys name the key
        scen(
            "param_string_instead_of_number",
            BASE.replace("fc = 1.0", "fc = \"1.0\""),
            2,
            &["s.toml:9", "contact[0].params.fc", "a number", "\"1.0\""],
        ),
        scen(
            "t_end_string",
            BASE.replace("t_end = 0.5", "t_end = \"0.5\""),
            2,
            &["s.toml:11", "solver.t_end", "expected a number", "found string \"0.5\""],
        ),
        scen(
            "body_mass_string",
            BODY.replace("mass = 1.0", "mass = \"1\""),
            2,
            &["s.toml:4", "body[0].mass", "expected a number"],
        ),
        scen(
            "max_steps_float",
            BASE.replace("[solver]", "[solver]\nmax_steps = 1e7"),
            2,
            &["s.toml:11", "solver.max_steps", "an integer"],
        ),
        scen(
            "between_entry_number",
            BASE.replace("between = [\"slider\", \"ground\"]", "between = [\"slider\", 3]"),
            2,
            &["s.toml:7", "contact[0].between[1]", "a string"],
        ),
        scen(
            "duplicate_key_names_both_lines",
            BASE.replace("t_end = 0.5", "t_end = 0.5\nt_end = 0.6"),
            2,
            &["s.toml:12", "duplicate key `t_end`", "line 11", "line 12"],
        ),
        scen(
            "duplicate_contact_name_key",
            BASE.replace("name = \"c\"", "name = \"c\"\nname = \"d\""),
            2,
            &["duplicate key `name`", "line 6", "line 7"],
        ),
        scen("unknown_solver_key", BASE.replace("[solver]", "[solver]\nfoo = 1"), 2, &["s.toml:11", "foo"]),
        scen(
            "t_end_nan",
            BASE.replace("t_end = 0.5", "t_end = nan"),
            2,
            &["s.toml:11", "t_end", "NaN", "(0, inf)"],
        ),
        // ---- solver settings
        scen(
            "max_wall_negative",
            BASE.replace("[solver]", "[solver]\nmax_wall = -1.0"),
            2,
            &["s.toml:11", "max_wall", "-1", "(0, inf)"],
        ),
        scen(
            "max_wall_zero",
            BASE.replace("[solver]", "[solver]\nmax_wall = 0.0"),
            2,
            &["max_wall", "(0, inf)"],
        ),
        scen(
            "states_unknown_word",
            BASE.replace("[solver]", "[solver]\nstates = \"some\""),
            2,
            &["s.toml:11", "states", "\"some\"", "\"all\"", "\"none\""],
        ),
        scen(
            "states_unknown_contact",
            BASE.replace("[solver]", "[solver]\nstates = [\"nope\"]"),
            2,
            &["s.toml:11", "unknown contact \"nope\"", "known contacts: c"],
        ),
        scen(
            "states_entry_not_a_name",
            BASE.replace("[solver]", "[solver]\nstates = [1]"),
            2,
            &["states", "contact names"],
        ),
        scen(
            "max_output_bytes_zero",
            BASE.replace("[solver]", "[solver]\nmax_output_bytes = 0"),
            2,
            &["max_output_bytes", "= 0", "[1, "],
        ),
        scen(
            "output_larger_than_max_output_bytes",
            BASE.replace("[solver]", "[solver]\nmax_output_bytes = 10000"),
            2,
            &["output would take about", "501 rows × 7 columns × 8 bytes", "max_output_bytes", "output_dt"],
        ),
        scen(
            "a_million_bodies_refused_before_allocating",
            {
                let mut s = String::from("name = \"many\"\n");
                for i in 0..3000 {
                    s.push_str(&format!("[[body]]\nname = \"b{i}\"\nmass = 1.0\n"));
                }
                s.push_str("[solver]\nt_end = 1.0\noutput_dt = 1e-6\n");
                s
            },
            2,
            &["output would take about", "GiB", "1000001 rows × 6001 columns"],
        ),
        // ---- model parameter traps
        scen(
            "contact_normal_and_stribeck_exp_normal_square_the_load",
            with_model("stribeck_exp", "{ normal = 10.0 }", Some("2.0")),
            2,
            &["s.toml:9", "params.normal", "squared", "Keep one"],
        ),
        scen(
            "contact_normal_schedule_and_rate_state_fn_load_square_the_load",
            with_model(
                "rate_state",
                "{ fn_load = 5.0 }",
                Some("{ type = \"step\", amplitude = 1.0, at = 0.1 }"),
            ),
            2,
            &["params.fn_load", "squared"],
        ),
        scen(
            "elasto_plastic_zba_ratio_in_metres",
            with_model("elasto_plastic", "{ zba_ratio = 5e-6 }", None),
            2,
            &["s.toml:9", "zba_ratio", "metres", "ratio", "0.5000"],
        ),
        scen(
            "elasto_plastic_zba_alias_in_metres",
            with_model("elasto_plastic", "{ zba = 5e-6 }", None),
            2,
            &["zba_ratio", "metres"],
        ),
        scen(
            "bliman_sorine_order_three",
            with_model("bliman_sorine", "{ order = 3 }", None),
            2,
            &["s.toml:9", "order", "1 or 2", "3"],
        ),
        // ---- near misses that are valid
        scen(
            "bliman_sorine_order_one_as_integer",
            with_model("bliman_sorine", "{ order = 1 }", None),
            0,
            &[],
        ),
        scen(
            "elasto_plastic_zba_alias_accepted",
            with_model("elasto_plastic", "{ zba = 0.4 }", None),
            0,
            &[],
        ),
        scen(
            "negative_normal_means_disengaged",
            with_normal("{ type = \"sine\", amplitude = 2.0, frequency = 2.0, offset = -0.5 }"),
            0,
            &[],
        ),
        scen(
            "stribeck_exp_load_in_the_model_only",
            with_model("stribeck_exp", "{ normal = 10.0 }", None),
            0,
            &[],
        ),
        // ---- command-line options
        args("run_max_wall_negative", &["run", "--max-wall", "-1"], 2, &["--max-wall", "-1", "(0, inf)"]),
        args("run_max_wall_zero", &["run", "--max-wall", "0"], 2, &["--max-wall", "(0, inf)"]),
        args("run_out_dot", &["run", "--out", "."], 2, &["must end in a name"]),
        args(
            "analyze_settle_negative",
            &["analyze", "nofile.csv", "--settle", "-1"],
            2,
            &["--settle", "-1", "[0, inf)"],
        ),
        args(
            "analyze_bins_negative",
            &["analyze", "nofile.csv", "--bins", "-5"],
            2,
            &["--bins", "-5", "[1, 100000]"],
        ),
        args(
            "analyze_reversal_tol_negative",
            &["analyze", "nofile.csv", "--reversal-tol", "-0.1"],
            2,
            &["--reversal-tol", "-0.1", "(0, 0.5)"],
        ),
        args(
            "analyze_v_min_negative",
            &["analyze", "nofile.csv", "--v-min", "-1"],
            2,
            &["--v-min", "[0, inf)"],
        ),
        args(
            "tune_target_energy_negative",
            &[
                "tune",
                "--model",
                "coulomb",
                "--param",
                "fc",
                "--target-energy",
                "-1",
                "--amplitude",
                "1e-3",
                "--frequency",
                "1",
            ],
            2,
            &["--target-energy", "-1", "(0, inf)"],
        ),
        args(
            "tune_amplitude_negative",
            &[
                "tune",
                "--model",
                "coulomb",
                "--param",
                "fc",
                "--target-energy",
                "1",
                "--amplitude",
                "-1e-3",
                "--frequency",
                "1",
            ],
            2,
            &["--amplitude", "-0.001", "(0, inf)"],
        ),
        args(
            "tune_frequency_negative",
            &[
                "tune",
                "--model",
                "coulomb",
                "--param",
                "fc",
                "--target-energy",
                "1",
                "--amplitude",
                "1e-3",
                "--frequency",
                "-2",
            ],
            2,
            &["--frequency", "-2", "(0, inf)"],
        ),
        args(
            "tune_work_arrays_refused_with_the_estimate",
            &[
                "tune",
                "--model",
                "coulomb",
                "--param",
                "fc",
                "--target-energy",
                "1",
                "--amplitude",
                "1e-3",
                "--frequency",
                "1",
                "--cycles",
                "1000",
                "--samples",
                "1000000",
            ],
            2,
            &["--cycles 1000", "--samples 1000000", "GiB", "4 GiB", "lower --samples or --cycles"],
        ),
        args(
            "tune_cycles_negative",
            &[
                "tune",
                "--model",
                "coulomb",
                "--param",
                "fc",
                "--target-energy",
                "1",
                "--amplitude",
                "1e-3",
                "--frequency",
                "1",
                "--cycles",
                "-1",
            ],
            2,
            &["--cycles", "-1", "[1, 1000]"],
        ),
        args(
            "fit_starts_negative",
            &["fit", "--model", "coulomb", "--data", "x.csv", "--starts", "-1"],
            2,
            &["--starts", "-1", "[1, 1000]"],
        ),
        // ---- did you mean
        scen(
            "spring_key_typo_lists_the_spring_keys",
            BODY.replace("stiffness = 100.0", "stifness = 100.0"),
            2,
            &[
                "s.toml:8",
                "spring[0]",
                "unknown field `stifness`",
                // the spring's own keys (a shared struct listed the damper's `coefficient`)
                "`between`, `stiffness`, `length`, `direction` (did you mean \"stiffness\"?)",
            ],
        ),
        scen(
            "unknown_model_suggests_the_lowercase_id",
            with_model("LuGre", "{}", None),
            2,
            &["s.toml:8", "unknown model `LuGre` (did you mean \"lugre\"?)"],
        ),
        scen(
            "unknown_parameter_suggests_the_nearest",
            BODY.replace("params = { fc = 0.1 }", "params = { fcc = 0.1 }"),
            2,
            &["s.toml:17", "`fcc` (did you mean \"fc\"?)", "valid parameters: fc, fs"],
        ),
        scen(
            "unknown_member_suggests_the_nearest",
            BODY.replace("between = [\"m\", \"ground\"]\nmodel", "between = [\"mm\", \"ground\"]\nmodel"),
            2,
            &["s.toml:15", "unknown member \"mm\" (did you mean \"m\"?)", "known: ground, m"],
        ),
        scen(
            "unknown_solver_method_suggests_the_nearest",
            BODY.replace("t_end = 0.2", "t_end = 0.2\nmethod = \"bdf2\""),
            2,
            &["s.toml:20", "`method` = \"bdf2\"", "did you mean \"bdf\"", "valid: auto, bdf"],
        ),
        scen(
            "schedule_type_typo_suggests_the_nearest",
            with_normal("{ type = \"rmp\", rate = 1.0 }"),
            2,
            &["s.toml:9", "unknown type \"rmp\" (did you mean \"ramp\"?)", "valid types: constant"],
        ),
        args(
            "models_id_in_other_case_suggests_it",
            &["models", "LuGre"],
            2,
            &["unknown model `LuGre`", "did you mean `lugre`"],
        ),
        // ---- friction run --set
        run_set(
            "set_unknown_parameter_names_the_override",
            &["contact.c.fcc=0.8"],
            2,
            &[
                "--set contact.c.fcc=0.8",
                "no parameter `fcc` (did you mean \"fc\"?)",
                "valid parameters: fc, fs",
            ],
        ),
        run_set(
            "set_mass_out_of_range",
            &["solver.t_end=0.1", "body.m.mass=-2"],
            2,
            &["--set body.m.mass=-2", "`mass` = -2", "(0, inf)"],
        ),
        run_set(
            "set_t_end_zero",
            &["solver.t_end=0"],
            2,
            &["--set solver.t_end=0", "`t_end` = 0", "(0, inf)"],
        ),
        run_set(
            "set_not_a_number",
            &["body.m.mass=heavy"],
            2,
            &["--set body.m.mass=heavy", "`heavy` is not a finite number"],
        ),
        run_set("set_without_value", &["body.m.mass"], 2, &["--set body.m.mass", "PATH=VALUE"]),
        run_set(
            "set_unknown_body",
            &["body.q.mass=2"],
            2,
            &["--set body.q.mass=2", "no body named \"q\"", "known: m"],
        ),
        run_set(
            "set_body_key_typo",
            &["body.m.mas=2"],
            2,
            &["--set body.m.mas=2", "unknown field `mas`", "did you mean \"mass\""],
        ),
        run_set(
            "set_valid_overrides_run",
            &["solver.t_end=0.1", "contact.c.fc=0.2", "body.m.mass=2"],
            0,
            &[],
        ),
        // ---- friction sweep
        sweep(
            "sweep_grid_count_zero",
            &["--grid", "contact.c.fc=1:2:0", "--metric", "final.x.m"],
            &["--grid contact.c.fc=1:2:0", "integer >= 1"],
        ),
        sweep(
            "sweep_grid_not_a_number",
            &["--grid", "contact.c.fc=1,x", "--metric", "final.x.m"],
            &["--grid contact.c.fc=1,x", "`x` is not a finite number"],
        ),
        sweep(
            "sweep_grid_without_values",
            &["--grid", "contact.c.fc", "--metric", "final.x.m"],
            &["--grid contact.c.fc", "PATH=A:B:N"],
        ),
        sweep(
            "sweep_unknown_column",
            &["--grid", "contact.c.fc=1,2", "--metric", "final.y.m"],
            &["metric `final.y.m`", "no column `y.m`", "x.m"],
        ),
        sweep(
            "sweep_unknown_metric",
            &["--grid", "contact.c.fc=1,2", "--metric", "median.x.m"],
            &["metric `median.x.m`", "valid: final|max|min|mean|ptp"],
        ),
        sweep(
            "sweep_invalid_grid_point_named",
            &["--grid", "contact.c.fc=0.1,-1", "--metric", "final.x.m"],
            &["grid point 1", "contact.c.fc = -1", "`fc` = -1 is out of range"],
        ),
        sweep(
            "sweep_unknown_element",
            &["--grid", "contact.q.fc=1", "--metric", "final.x.m"],
            &["no contact named \"q\"", "known: c"],
        ),
        sweep(
            "sweep_zip_unequal_lengths",
            &[
                "--grid",
                "contact.c.fc=0.1,0.2",
                "--grid",
                "body.m.mass=1,2,3",
                "--zip",
                "--metric",
                "final.x.m",
            ],
            &["zip needs lists of equal length", "contact.c.fc: 2", "body.m.mass: 3"],
        ),
        args(
            "fit_seed_negative",
            &["fit", "--model", "coulomb", "--data", "x.csv", "--seed", "-3"],
            2,
            &["--seed", "-3", ">= 0"],
        ),
        // ---- issue 43: harmonic balance estimated before it starts
        frf(
            "frf_harmonics_256_samples_1e6_refused_with_the_estimate_before_allocating",
            &["--force", "p", "--f-min", "5", "--f-max", "20", "--harmonics", "256", "--samples", "1000000"],
            &[
                "friction frf",
                "H = 512 harmonics",
                "N = 1000000 samples per period",
                "1 bodies × (2H + 1) = 1025 unknowns",
                "GiB of work arrays",
                "--max-memory = 4294967296 bytes (4.0 GiB)",
                "lower --harmonics or --samples, or raise --max-memory",
            ],
        ),
        frf(
            "frf_work_past_max_work_refused_with_the_estimate",
            &["--force", "p", "--f-min", "5", "--f-max", "20", "--harmonics", "64", "--max-work", "1e6"],
            &["operations per Newton iteration", "--max-work = 1.00e6", "raise --max-work"],
        ),
        frf(
            "frf_f_min_1e_minus_300_refused_with_the_valid_range",
            &["--force", "p", "--f-min", "1e-300", "--f-max", "1e300"],
            &["--f-min = 1e-300 is out of range", "valid range [1e-6, 1e9] Hz"],
        ),
        frf(
            "frf_f_max_1e300_refused_with_the_valid_range",
            &["--force", "p", "--f-min", "1", "--f-max", "1e300"],
            &["--f-max = 1e300 is out of range", "(1e0 (--f-min), 1e9] Hz"],
        ),
        frf(
            "frf_range_of_nine_decades_refused",
            &["--force", "p", "--f-min", "1e-3", "--f-max", "1e6"],
            &["--f-max / --f-min", "1.000e9", "at most 1e6"],
        ),
        frf(
            "frf_max_memory_negative",
            &["--force", "p", "--f-min", "5", "--f-max", "20", "--max-memory", "-1"],
            &["--max-memory", "-1", "valid range (0, inf] bytes"],
        ),
        frf(
            "frf_unknown_force_is_named_not_blamed_on_another",
            &["--force", "nosuch", "--f-min", "5", "--f-max", "20"],
            &["--force nosuch", "there is no force `nosuch`", "its forces: p, q"],
        ),
        nnm(
            "nnm_negative_amplitude_is_read_and_refused_with_its_range",
            &["--amplitudes", "-1e-6:1e-3:10"],
            &["--amplitudes", "-1e-6:1e-3:10", "A1 = -0.000001 is out of range", "(0, inf) m"],
        ),
        nnm(
            "nnm_harmonics_256_samples_1e6_refused_with_the_estimate",
            &["--amplitudes", "1e-6:1e-3:3", "--harmonics", "256", "--samples", "1000000"],
            &["friction nnm", "H = 256 harmonics", "N = 1000000", "GiB", "raise --max-memory"],
        ),
        scen(
            "body_as_a_single_table_names_the_array_of_tables",
            BODY.replace("[[body]]", "[body]"),
            2,
            &["s.toml:2", "`[body]` is a single table", "`body` must be an array of tables", "`[[body]]`"],
        ),
        scen(
            "contact_as_a_single_table_names_the_array_of_tables",
            BODY.replace("[[contact]]", "[contact]"),
            2,
            &["s.toml:13", "`[contact]` is a single table", "`[[contact]]`"],
        ),
        named(
            "fit_on_constant_data_names_the_file",
            "flat.csv",
            &(0..50).fold(String::from("t,x,F\n"), |s, i| s + &format!("{},1,2\n", i as f64 * 0.01)),
            &["fit", "--model", "lugre", "--data", "FILE"],
            &["--data ", "flat.csv: lugre: no parameter affects the force"],
        ),
        with_file(
            "stuck_cluster_past_max_stuck_rows_refused_with_the_estimate",
            &BODY.replace(
                "[solver]",
                "[[contact]]\nname = \"c2\"\nbetween = [\"m\", \"ground\"]\nmodel = \"coulomb\"\n\
                 params = { fc = 0.1 }\n[[contact]]\nname = \"c3\"\nbetween = [\"m\", \"ground\"]\n\
                 model = \"coulomb\"\nparams = { fc = 0.1 }\n[solver]",
            ),
            &["run", "FILE", "--out", "OUT", "--max-stuck-rows", "2"],
            2,
            &[
                "s.toml",
                "3 contacts and stops that can stick",
                "one cluster of 1 bodies",
                "--max-stuck-rows = 2",
            ],
        ),
        args(
            "tune_param_given_twice",
            &[
                "tune",
                "--model",
                "lugre",
                "--param",
                "fs,fs",
                "--target-energy",
                "1",
                "--amplitude",
                "1e-3",
                "--frequency",
                "1",
            ],
            2,
            &["--param fs,fs", "`fs` is given twice"],
        ),
    ]
}

#[test]
fn every_bad_input_is_refused_with_key_value_range_and_line() {
    let cases = corpus();
    assert!(cases.iter().filter(|c| c.code == 2).count() >= 40, "the corpus shrank");
    let mut failures = vec![];
    for c in &cases {
        let d = tmp(c.name);
        let out = d.join("out");
        let o = match &c.input {
            Input::Scenario(text) => {
                let f = d.join("s.toml");
                std::fs::write(&f, text).unwrap();
                friction().arg("run").arg(&f).arg("--out").arg(&out).current_dir(&d).output().unwrap()
            }
            Input::Args(a) => friction().args(a).current_dir(&d).output().unwrap(),
            Input::WithFile(text, a) | Input::Named(_, text, a) => {
                let f = d.join(match &c.input {
                    Input::Named(name, ..) => *name,
                    _ => "s.toml",
                });
                std::fs::write(&f, text).unwrap();
                let a: Vec<PathBuf> = a
                    .iter()
                    .map(|x| match x.as_str() {
                        "FILE" => f.clone(),
                        "OUT" => out.clone(),
                        x => PathBuf::from(x),
                    })
                    .collect();
                friction().args(a).current_dir(&d).output().unwrap()
            }
        };
        let code = o.status.code().unwrap_or(-1);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        let mut why = vec![];
        if code != c.code {
            why.push(format!("exit {code}, expected {}", c.code));
        }
        for n in &c.needles {
            if !err.contains(n) {
                why.push(format!("`{n}` missing"));
            }
        }
        if err.contains("panicked") {
            why.push("panicked".into());
        }
        if c.code == 2 && out.exists() {
            why.push("output written for bad input".into());
        }
        if c.code == 0 && !out.join("summary.json").is_file() {
            why.push("no result written".into());
        }
        if !why.is_empty() {
            failures.push(format!("{}: {}\n  stderr: {}", c.name, why.join("; "), err.trim()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Two runs into one directory used to interleave (the CSV of one, the
/// summary of the other). While a run holds `DIR.lock` (here: this test
/// process, which is alive) a second run is refused with exit 2, naming the
/// lock and the process, and the directory is not touched; once the lock is
/// released (or its process is gone) the run goes ahead.
#[test]
fn two_runs_into_one_dir_the_second_is_refused_while_the_first_holds_the_lock() {
    let d = tmp("lock");
    let f = d.join("s.toml");
    std::fs::write(&f, BASE).unwrap();
    let out = d.join("res");
    let lock = d.join("res.lock");
    std::fs::write(&lock, std::process::id().to_string()).unwrap();
    let o = friction().arg("run").arg(&f).arg("--out").arg(&out).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("another run") && err.contains("res.lock"), "{err}");
    assert!(err.contains(&std::process::id().to_string()), "{err}");
    assert!(!out.exists());
    // a lock left by a process that is gone is taken over
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    std::fs::write(&lock, dead.to_string()).unwrap();
    let o = friction().arg("run").arg(&f).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.join("summary.json").is_file() && !lock.exists());
}

/// A rerun replaces the previous result as a whole: no file of the old run
/// survives beside the new one, and no temporary directory is left.
#[test]
fn a_rerun_replaces_the_whole_result_and_leaves_no_temporaries() {
    let d = tmp("rerun");
    let f = d.join("s.toml");
    std::fs::write(&f, BASE).unwrap();
    let out = d.join("res");
    for _ in 0..2 {
        let o = friction().arg("run").arg(&f).arg("--out").arg(&out).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::write(out.join("stale.txt"), "from the previous run").unwrap();
    }
    let o = friction().arg("run").arg(&f).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success());
    assert!(!out.join("stale.txt").exists());
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "temporaries left: {names:?}");
}

/// Without `--out` the result goes to `out/NAME`, and a valid name with dots
/// stays a single directory inside `out/`.
#[test]
fn default_output_stays_inside_out() {
    let d = tmp("default-out");
    let f = d.join("s.toml");
    std::fs::write(&f, BASE.replace("name = \"bad\"", "name = \"run..v1\"")).unwrap();
    let o = friction().arg("run").arg(&f).current_dir(&d).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(Path::new(&d).join("out/run..v1/summary.json").is_file());
}
