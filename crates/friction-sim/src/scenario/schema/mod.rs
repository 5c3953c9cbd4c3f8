//! The scenario format as data: every table and key with its type, unit,
//! default, valid range, whether it is required and what it means; every
//! schedule type; every model's `params` from the model registry.
//!
//! Two documents are generated from these tables: a JSON Schema (draft-07,
//! the draft taplo and the Even Better TOML editor extension read) by
//! [`json_schema`], printed by `friction schema` and checked in as
//! `docs/scenario.schema.json`, and the reference page `docs/scenario.md` by
//! [`markdown`]. Tests keep the tables equal to the keys the parser accepts
//! (its unknown-key messages list them), keep both files up to date, and
//! validate every example scenario against the schema.
//!
//! ```
//! let schema = friction_sim::scenario_schema::json_schema();
//! assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
//! let contact = &schema["properties"]["contact"]["items"];
//! assert!(contact["required"].as_array().unwrap().iter().any(|k| k == "model"));
//! ```

use crate::system::MAX_NAME_LEN;

mod json;
mod markdown;

pub use json::{json_schema, param_schema};
pub use markdown::{markdown, EXAMPLE};

/// What values a key takes.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A name: ASCII letters, digits, `_`, `-`, `.`; not starting with `.`.
    Name,
    /// Free text.
    Text,
    /// A real number in a range: `(bound, inclusive)` for each side, `None` for unbounded.
    Number {
        /// Lower bound and whether it is allowed.
        lo: Option<(f64, bool)>,
        /// Upper bound and whether it is allowed.
        hi: Option<(f64, bool)>,
    },
    /// An integer `>= min`.
    Integer {
        /// Smallest valid value.
        min: i64,
    },
    /// The name of a body, a driver or `"ground"`.
    Member,
    /// The name of a body.
    Body,
    /// Two members: `["first", "second"]`.
    Pair,
    /// Two thermal nodes: `["first", "second"]`.
    NodePair,
    /// A number (a constant) or a schedule table.
    Signal,
    /// A schedule table only.
    ScheduleTable,
    /// One of a fixed set of strings.
    Choice(&'static [&'static str]),
    /// A model id of the registry.
    Model,
    /// The parameters of the contact's model.
    Params,
    /// A number, or a table `{ position, velocity, state }`.
    Atol,
    /// `"auto"`, `"all"`, `"none"` or a list of contact names.
    States,
    /// A list of output column names.
    Columns,
    /// A file path, relative to the scenario file.
    File,
    /// Two non-negative numbers `[a, b]`.
    NumberPair,
    /// A non-negative number, or a list of them.
    Ratios,
    /// A list of 0-based indices.
    Indices,
    /// A Craig-Bampton reduction table `{ keep, modes, write }`.
    Reduce,
    /// A number, or a list of 2 or 3 numbers (one per coordinate of a body
    /// of `dim` 2 or 3).
    Coordinates,
    /// A spring's direction: `"x" | "y" | "z"` or a vector of 2 or 3
    /// numbers (an inclined spring).
    Direction,
}

impl Kind {
    /// The type column of the reference page.
    pub fn type_text(self) -> &'static str {
        match self {
            Kind::Name => "name",
            Kind::Text => "string",
            Kind::Number { .. } => "number",
            Kind::Integer { .. } => "integer",
            Kind::Member | Kind::Body => "string (a name)",
            Kind::Pair | Kind::NodePair => "array of 2 names",
            Kind::Signal => "number or schedule",
            Kind::ScheduleTable => "schedule",
            Kind::Choice(_) => "string",
            Kind::Model => "string (model id)",
            Kind::Params => "table",
            Kind::Atol => "number or table",
            Kind::States => "string or array of names",
            Kind::Columns => "array of column names",
            Kind::File => "string (a path)",
            Kind::NumberPair => "array of 2 numbers",
            Kind::Ratios => "number or array of numbers",
            Kind::Indices => "array of integers",
            Kind::Reduce => "table",
            Kind::Coordinates => "number or array of numbers",
            Kind::Direction => "string or array of numbers",
        }
    }

    /// The range column of the reference page.
    pub fn range_text(self) -> String {
        let num = |x: f64| {
            if x.is_infinite() {
                "inf".to_string()
            } else if x != 0.0 && (x.abs() < 1e-3 || x.abs() >= 1e6) {
                format!("{x:e}")
            } else {
                format!("{x}")
            }
        };
        match self {
            Kind::Number { lo, hi } => {
                let l = match lo {
                    Some((x, true)) => format!("[{}", num(x)),
                    Some((x, false)) => format!("({}", num(x)),
                    None => "(-inf".to_string(),
                };
                let h = match hi {
                    Some((x, true)) => format!("{}]", num(x)),
                    Some((x, false)) => format!("{})", num(x)),
                    None => "inf)".to_string(),
                };
                format!("{l}, {h}")
            }
            Kind::Integer { min } => format!(">= {min}"),
            Kind::Name => format!("1 to {MAX_NAME_LEN} of `A-Z a-z 0-9 _ - .`, not starting with `.`"),
            Kind::Member => "a body, a driver, \"ground\" or a structure's DOF \"NAME:INDEX\"".to_string(),
            Kind::Body => "a body (`on` of a force: or a structure's DOF \"NAME:INDEX\")".to_string(),
            Kind::Pair => {
                "two different members (bodies, drivers, \"ground\", structures' DOFs \"NAME:INDEX\")"
                    .to_string()
            }
            Kind::NodePair => "two different [[thermal]] nodes".to_string(),
            Kind::Choice(c) => c.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(" | "),
            Kind::Model => "see [Models](#models)".to_string(),
            Kind::Params => "see [Models](#models)".to_string(),
            Kind::Signal | Kind::ScheduleTable => "finite over [0, t_end]".to_string(),
            Kind::Atol => "each in (0, inf)".to_string(),
            Kind::States => "\"auto\" | \"all\" | \"none\" | [contact names]".to_string(),
            Kind::Columns => {
                "names of output columns (`x.NAME`, `v.NAME`, `F.NAME`, `s.NAME`, `sv.NAME`, `z.NAME.k`)"
                    .to_string()
            }
            Kind::Text => String::new(),
            Kind::File => "MatrixMarket (.mtx) or CalculiX matrix storage (.sti, .mas)".to_string(),
            Kind::NumberPair => "each in [0, inf)".to_string(),
            Kind::Ratios => "each in [0, inf)".to_string(),
            Kind::Indices => "each in [0, DOFs)".to_string(),
            Kind::Reduce => "`keep`: DOF indices; `modes`: >= 0; `write`: a directory (optional)".to_string(),
            Kind::Coordinates => "a number (dim 1) or `dim` numbers, each finite".to_string(),
            Kind::Direction => "\"x\" | \"y\" | \"z\", or `dim` finite numbers, not all zero".to_string(),
        }
    }
}

/// One key of a table.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// The key as written in the file.
    pub name: &'static str,
    /// What values it takes.
    pub kind: Kind,
    /// SI unit (`-` for none, empty where it does not apply).
    pub unit: &'static str,
    /// Default as text; empty when the key is required or has no default.
    pub default: &'static str,
    /// Whether the key must be given.
    pub required: bool,
    /// Meaning.
    pub doc: &'static str,
}

/// The `direction` key of springs, dampers, forces and gaps.
const DIRECTION: Key = key(
    "direction",
    Kind::Choice(&["x", "y", "z"]),
    "",
    "\"x\"",
    false,
    "the coordinate it acts along, of bodies with `dim = 2 | 3` (every other member moves along x)",
);

const fn key(
    name: &'static str,
    kind: Kind,
    unit: &'static str,
    default: &'static str,
    required: bool,
    doc: &'static str,
) -> Key {
    Key { name, kind, unit, default, required, doc }
}

const ANY: Kind = Kind::Number { lo: None, hi: None };
const POSITIVE: Kind = Kind::Number { lo: Some((0.0, false)), hi: None };
const NON_NEGATIVE: Kind = Kind::Number { lo: Some((0.0, true)), hi: None };

/// A table of the file: top-level keys (`name = ""`), `[solver]`, or an
/// array of tables (`[[body]]`).
#[derive(Debug, Clone, Copy)]
pub struct Table {
    /// The table's name (`""` for the top level).
    pub name: &'static str,
    /// Whether it is an array of tables (`[[body]]`, any number of them).
    pub array: bool,
    /// Whether the table must be present.
    pub required: bool,
    /// What it is.
    pub doc: &'static str,
    /// Its keys.
    pub keys: &'static [Key],
}

/// Every table of a scenario file, in the order of the reference page.
pub const TABLES: &[Table] = &[
    Table {
        name: "",
        array: false,
        required: true,
        doc: "Top-level keys.",
        keys: &[
            key("name", Kind::Name, "", "\"scenario\"", false, "scenario name: the output directory out/NAME"),
            key("description", Kind::Text, "", "", false, "free text, ignored by the simulator"),
        ],
    },
    Table {
        name: "body",
        array: true,
        required: false,
        doc: "A body with free motion: a mass on a line (positions in m). A rotating part (a shaft, a \
              clutch plate) is a body with `kind = \"rotational\"`: `mass` is then its moment of inertia \
              [kg m²], positions are angles [rad], velocities [rad/s], forces torques [N m] and spring \
              stiffnesses [N m/rad] (examples/coupled_clutches.toml); the output units follow.",
        keys: &[
            key("name", Kind::Name, "", "", true, "unique among bodies and drivers; \"ground\" is reserved"),
            key(
                "kind",
                Kind::Choice(&["translational", "rotational"]),
                "",
                "\"translational\"",
                false,
                "rotational: mass is an inertia [kg m²], x0 an angle [rad], v0 [rad/s]; a spring, damper, contact or gap joins members of one kind",
            ),
            key("mass", POSITIVE, "kg", "", true, "mass (inertia [kg m²] if rotational)"),
            key(
                "dim",
                Kind::Integer { min: 1 },
                "",
                "1",
                false,
                "coordinates: 1 (a line), 2 (x, y) or 3 (x, y, z); columns `x.NAME`, `y.NAME`, `vx.NAME`, \
                 `vy.NAME` (and `z`, `vz`) for dim 2 and 3, each coordinate on its own line (small \
                 displacements); translational only",
            ),
            key("x0", Kind::Coordinates, "m", "0", false, "initial position: `[x, y]` or `[x, y, z]` with `dim`"),
            key("v0", Kind::Coordinates, "m/s", "0", false, "initial velocity: `[vx, vy]` or `[vx, vy, vz]` with `dim`"),
        ],
    },
    Table {
        name: "driver",
        array: true,
        required: false,
        doc: "A point whose position is prescribed by a schedule (a slider, a shaker, a wall).",
        keys: &[
            key("name", Kind::Name, "", "", true, "unique among bodies and drivers; \"ground\" is reserved"),
            key(
                "kind",
                Kind::Choice(&["translational", "rotational"]),
                "",
                "\"translational\"",
                false,
                "rotational: the motion is an angle [rad]",
            ),
            key("motion", Kind::ScheduleTable, "m", "", true, "position x(t) (see [Schedules](#schedules))"),
        ],
    },
    Table {
        name: "spring",
        array: true,
        required: false,
        doc: "A linear spring; the force on the first member is k (x2 - x1 - length).",
        keys: &[
            key("name", Kind::Name, "", "\"springI\"", false, "name (I: the spring's index)"),
            key("between", Kind::Pair, "", "", true, "first and second member"),
            key("stiffness", NON_NEGATIVE, "N/m", "", true, "stiffness k"),
            key(
                "length",
                ANY,
                "m",
                "0",
                false,
                "unstretched length: the spring is relaxed when x2 - x1 = length",
            ),
            key(
                "direction",
                Kind::Direction,
                "",
                "\"x\"",
                false,
                "the coordinate it acts along, of bodies with `dim = 2 | 3`; or a vector `[ex, ey]` \
                 (`[ex, ey, ez]`): an inclined spring between bodies of that dim (or one and the ground), \
                 stretch e·(x2 - x1) - length along the unit vector e, which couples their coordinates",
            ),
        ],
    },
    Table {
        name: "damper",
        array: true,
        required: false,
        doc: "A linear damper; the force on the first member is c (v2 - v1).",
        keys: &[
            key("name", Kind::Name, "", "\"damperI\"", false, "name (I: the damper's index)"),
            key("between", Kind::Pair, "", "", true, "first and second member"),
            key("coefficient", NON_NEGATIVE, "N s/m", "", true, "damping coefficient c"),
            key("heat", Kind::Name, "", "", false, "the [[thermal]] node that receives its loss power c (v2 - v1)²"),
            DIRECTION,
        ],
    },
    Table {
        name: "force",
        array: true,
        required: false,
        doc: "An external force on a body.",
        keys: &[
            key("name", Kind::Name, "", "\"forceI\"", false, "name (I: the force's index)"),
            key("on", Kind::Body, "", "", true, "the body it acts on, or a structure's DOF \"NAME:INDEX\""),
            key(
                "value",
                Kind::Signal,
                "N",
                "",
                true,
                "force F(t), positive along x: a number or a schedule",
            ),
            DIRECTION,
        ],
    },
    Table {
        name: "contact",
        array: true,
        required: false,
        doc: "A frictional contact between two members. The model sees the displacement and velocity \
              of the first member relative to the second; its force acts against that motion on the \
              first member and with it on the second.",
        keys: &[
            key("name", Kind::Name, "", "\"cI\"", false, "unique contact name (I: the contact's index)"),
            key("between", Kind::Pair, "", "", true, "first and second member"),
            key("model", Kind::Model, "", "", true, "friction model id (`friction models` lists them)"),
            key(
                "params",
                Kind::Params,
                "",
                "{}",
                false,
                "the model's parameters; omitted ones take their defaults. Any plain real parameter (the \
                 JSON schema's `temperature_law` lists them per model; not a Stribeck shape's, an integer, a \
                 choice, rows or an inner model) may follow the temperature of the contact's `heat` node, \
                 several at once: `{ at = [[T1, v1], [T2, v2], ...] }` (piecewise linear, T strictly \
                 increasing, held beyond the ends) or `{ ref = T0, value = v0, slope = dv/dT }` (held at 0 \
                 from below); every value a law takes from 0 to 1e6 K must be valid for the model, else the \
                 file is refused naming the parameter, its value and the temperature",
            ),
            key(
                "normal",
                Kind::Signal,
                "-",
                "1",
                false,
                "normal-load factor N(t): multiplies the friction force and the maximum static force; \
                 N <= 0 disengages the contact",
            ),
            key(
                "normal_gap",
                Kind::Name,
                "",
                "",
                false,
                "a [[gap]] whose contact force (N) is the normal load, times `normal`: the load follows the \
                 motion (a body pressed onto a compliant floor, a second body standing for its normal \
                 coordinate); the contact is disengaged (no force, no stick) where that force is zero, \
                 engaging again where the gap's law c p^n + d p' turns positive. The load is the output \
                 column `N.NAME` [N], the contact's state `state.NAME` (0 open, 1 stuck, 2 sliding)",
            ),
            key(
                "normal_stiffness",
                POSITIVE,
                "N/m",
                "",
                false,
                "between members of dim 2 (bodies with `dim = 2`, or one and \"ground\"): the normal load is \
                 the unilateral penalty N = max(0, KN (gap - y)), y the first member's y relative to the \
                 second's; the contact rubs along x with the model's force and capacity times N (its \
                 parameters are those at N = 1), and is open (no force, no stick; the model's state \
                 follows the slip) where N = 0. Its penalty is the gap `NAME.normal` (column \
                 `F.NAME.normal`, events open/closed); the load is the column `N.NAME` [N], the state `state.NAME` (0 open, 1 stuck, 2 sliding). Between \
                 members of dim 3 the normal is z and the contact rubs along x and y at once with its model's vector \
                 law (regularised maps along the slip velocity, LuGre, Dahl and Dankowicz bristles, Jenkins' element in the plane): \
                 columns `Fx.NAME`, `Fy.NAME`, `sx.NAME`, `sy.NAME`, `svx.NAME`, `svy.NAME`, `N.NAME`, \
                 `state.NAME` (0 open, 1 stuck, 2 sliding). Set-valued models there (`coulomb`, `coulomb_viscous`, \
                 `stribeck`, `stribeck_exp`) stick exactly on the friction disk |F| <= Fs N, x and y held, where no \
                 other set-valued contact, stop or structure holds their members; `karnopp` and the parallel sliders \
                 are refused there with the reason",
            ),
            key(
                "gap",
                ANY,
                "m",
                "0",
                false,
                "with `normal_stiffness`: the clearance G0; in contact while y < G0 (z < G0 between members of dim 3)",
            ),
            key(
                "heat",
                Kind::Name,
                "",
                "",
                false,
                "the [[thermal]] node that receives its loss power F v_rel (what `energy.contacts.NAME` \
                 integrates)",
            ),
        ],
    },
    Table {
        name: "gap",
        array: true,
        required: false,
        doc: "A compliant one-sided contact between two members (Modelica's ElastoGap; with two of them, \
              a backlash). With the penetration p = length - (x2 - x1), while p > 0 it pushes the members \
              apart (the first along -x, the second along +x) with F = c p^n + clamp(d (v1 - v2), -c p^n, \
              c p^n): the damping force is limited by the spring force, so the contact never pulls and \
              its force starts from 0. The output column `F.NAME` is F (>= 0); its elastic energy counts \
              with the springs' and its damping's dissipation is the summary's `energy.gaps.NAME`. The \
              instants contact starts or ends and the damping limit switches are events (no step \
              straddles a kink).",
        keys: &[
            key("name", Kind::Name, "", "\"gI\"", false, "name, unique among contacts and gaps (I: the gap's index)"),
            key("between", Kind::Pair, "", "", true, "first and second member"),
            key(
                "length",
                ANY,
                "m",
                "0",
                false,
                "the members are in contact while x2 - x1 < length (MSL's s_rel0); e.g. [\"ground\", \"m\"] \
                 with length 0: a floor under m at x = 0",
            ),
            key("stiffness", POSITIVE, "N/m^n", "", true, "spring constant c: the force at a penetration of 1 m"),
            key("damping", NON_NEGATIVE, "N s/m", "0", false, "damping constant d, its force limited to the spring force"),
            key(
                "exponent",
                Kind::Number { lo: Some((1.0, true)), hi: None },
                "-",
                "1",
                false,
                "exponent n of the spring force c p^n (1.5: Hertzian contact of spheres)",
            ),
            key("heat", Kind::Name, "", "", false, "the [[thermal]] node that receives its damping's loss power"),
            DIRECTION,
        ],
    },
    Table {
        name: "thermal",
        array: true,
        required: false,
        doc: "A thermal node (Modelica's HeatCapacitor or FixedTemperature): a heat capacity C whose \
              temperature T is a state integrated with the mechanics, C dT/dt = the loss power of the \
              elements whose `heat` names it plus the heat conducted in; or, with `fixed`, an ambient \
              that keeps its temperature and absorbs any heat. Output column `T.NAME` [K]; the summary's \
              `energy.thermal.NAME` is the heat stored C (T_end - T0), or absorbed by a fixed node, and \
              the energy balance counts it in place of the heated elements' dissipation.",
        keys: &[
            key("name", Kind::Name, "", "", true, "unique node name"),
            key("capacity", POSITIVE, "J/K", "", false, "heat capacity C (required unless `fixed`)"),
            key("T0", POSITIVE, "K", "", false, "initial temperature (required unless `fixed`)"),
            key("fixed", POSITIVE, "K", "", false, "a fixed temperature: an ambient (without `capacity` and `T0`)"),
        ],
    },
    Table {
        name: "conduction",
        array: true,
        required: false,
        doc: "A linear thermal conductor between two thermal nodes (Modelica's ThermalConductor): the \
              heat flow Q = G (T1 - T2) from the first node to the second, output column `Q.NAME` [W].",
        keys: &[
            key("name", Kind::Name, "", "\"conductionI\"", false, "unique conduction name (I: its index)"),
            key("between", Kind::NodePair, "", "", true, "first and second thermal node"),
            key("conductance", NON_NEGATIVE, "W/K", "", true, "thermal conductance G"),
        ],
    },
    Table {
        name: "stop",
        array: true,
        required: false,
        doc: "Hard end stops of a body (impacts with a coefficient of restitution). An impact acts on the \
              struck body alone: a contact carries a bounded force, so no impulse crosses it, and the \
              stuck contacts of the struck body slide from that instant. A bounce whose rebound would \
              lift the body from its stop by less than 10 x `atol_position` (v^2 / 2a, a its \
              acceleration towards the stop) ends the sequence of ever shorter bounces: the body rests \
              on the stop, and the kinetic energy left is booked under `impacts`.",
        keys: &[
            key("body", Kind::Body, "", "", true, "the body"),
            key("min", ANY, "m", "-inf", false, "lower limit (the body's x0 must lie inside)"),
            key("max", ANY, "m", "inf", false, "upper limit, greater than `min`"),
            key(
                "restitution",
                Kind::Number { lo: Some((0.0, true)), hi: Some((1.0, true)) },
                "-",
                "0",
                false,
                "coefficient of restitution of an impact",
            ),
            key(
                "direction",
                Kind::Choice(&["x", "y", "z"]),
                "",
                "\"x\"",
                false,
                "the coordinate it limits, of bodies with `dim = 2 | 3` (every other member moves along x)",
            ),
        ],
    },
    Table {
        name: "structure",
        array: true,
        required: false,
        doc: "A linear structure from finite-element matrices: M ẍ + C ẋ + K x = f, with M symmetric \
              positive definite (a consistent mass is fine) and K, C symmetric. Its degrees of freedom are \
              the members \"NAME:INDEX\" (0-based indices of the file's matrices, after the FE code's \
              boundary conditions): contacts, springs, dampers and forces join them as they join bodies. \
              Files: MatrixMarket (`coordinate` or `array`, `real`, `general` or `symmetric`, as \
              scipy.io.mmwrite writes) or CalculiX's `*FREQUENCY, SOLVER=MATRIXSTORAGE` output \
              (`jobname.sti`, `jobname.mas`, their size from `jobname.dof` beside them). A file that is \
              not square, not symmetric, holds a value that is not finite or an index past its size, or a \
              mass that is not positive definite is refused with its file, line and value. Taken by \
              `friction run`, `friction frf` and `friction nnm`, whose outputs name a DOF `NAME:INDEX` \
              (columns `x.NAME:INDEX`, `v.NAME:INDEX`, written for the DOFs a connection, a force or \
              `watch` names; the coordinates start at rest at 0). `friction run` solves with the mass \
              matrix as it is (a consistent mass is not lumped) and refuses a set-valued contact \
              (`coulomb`, `stribeck`, ...) at a DOF: holding a DOF stuck needs the constraint operator \
              G M^-1 G^T, not yet in the engine; presliding models (`jenkins`, `iwan4`, `maxwell_slip`, \
              `lugre`, ...) run.",
        keys: &[
            key("name", Kind::Name, "", "", true, "name; its DOFs are the members \"NAME:INDEX\""),
            key("mass", Kind::File, "kg", "", true, "mass matrix file, relative to the scenario file"),
            key("stiffness", Kind::File, "N/m", "", true, "stiffness matrix file, relative to the scenario file"),
            key("damping", Kind::File, "N s/m", "", false, "damping matrix file (give one of damping, rayleigh, modal_damping)"),
            key(
                "rayleigh",
                Kind::NumberPair,
                "1/s, s",
                "",
                false,
                "[alpha, beta]: C = alpha M + beta K (Rayleigh 1877), mode r damped by alpha / (2 w_r) + beta w_r / 2",
            ),
            key(
                "modal_damping",
                Kind::Ratios,
                "-",
                "",
                false,
                "modal damping ratios: one for every mode, or a list for the first modes (higher modes \
                 undamped); C = sum 2 zeta_r w_r (M phi_r)(M phi_r)^T over mass-normalised modes phi_r",
            ),
            key("watch", Kind::Indices, "", "[]", false, "DOFs whose results are written besides those something names"),
            key(
                "reduce",
                Kind::Reduce,
                "",
                "",
                false,
                "Craig-Bampton reduction (Craig and Bampton 1968): `keep` = [interface DOFs] stay physical (and \
                 keep their names NAME:INDEX; the others can no longer be named), `modes` = K fixed-interface \
                 modes are added (NAME:mode.k in outputs); `write` = a directory (relative to the scenario) \
                 receives the reduced mass.mtx and stiffness.mtx. Sparse: K_ii by sparse Cholesky, the modes \
                 by subspace iteration past 400 interior DOFs. A damping matrix is projected; Rayleigh and \
                 modal damping apply to the reduced matrices",
            ),
        ],
    },
    Table {
        name: "solver",
        array: false,
        required: true,
        doc: "Solver and output settings.",
        keys: &[
            key("t_end", POSITIVE, "s", "", true, "end time"),
            key(
                "output_dt",
                POSITIVE,
                "s",
                "t_end / 1000",
                false,
                "output interval, at most t_end and at most 5e6 rows; not with `output`. A row at an event or at a jump of a schedule (a ramp's or sine's start, a step, a pulse's edge, a table's sample) shows the left limit there, the state and the schedules' values just before the jump; the jump shows from the next row on",
            ),
            key("output", Kind::Choice(&["steps"]), "", "", false, "\"steps\": a row at every accepted step instead of `output_dt`"),
            key(
                "method",
                Kind::Choice(&["auto", "bdf", "tr_bdf2", "esdirk34", "tsit45", "radau5", "dop853", "rodas5p", "bdf5"]),
                "",
                "\"auto\"",
                false,
                "integrator; auto: radau5 where a contact in a plane is held on its friction disk (`coulomb`, `stribeck`, ... between bodies of dim 3; there only radau5, rodas5p and dop853 are taken: the others were measured 1e-4 to 1 off in the dissipated energy on examples/plane_stick_slip.toml); else if no contact is stiff dop853 (Hairer's DOP853, order 8), or tsit45 when a contact's hysteresis turns at reversals (Iwan, Jenkins, Maxwell slip, GMS); radau5 for a stiff network of at most 3 states besides the energy quadratures (one body, or driven contacts) without stick, stop or reversal events; bdf5 for a larger one without such events (25-30 % faster than bdf on bench/compare's chains; bdf with a `[[structure]]` or a Jacobian too wide for bdf5's band); bdf otherwise; but esdirk34 (L-stable) for a `[[structure]]` whose fastest mode has ω_max t_end > 1e4, whose step an explicit method would have to resolve (the unreduced CalculiX cantilever: 3.4 s against tsit45's 30 s). dop853 controls its error at a tenth of rtol and atol (its error estimate is of order 5 and 3 while the solution is of order 8; at the tolerance itself the Coulomb free decay at rtol 1e-9 ends 4.7e-10 m off, at a tenth 1.9e-11 m), so a run asks for the accuracy it states. rodas5p: the Rosenbrock-Wanner method Rodas5P (Steinebach 2023, order 5, dense output of order 4), one factorisation of the exact Jacobian and no Newton iteration per step; chosen by no `auto` rule (on the LuGre stick-slip example it was measured no faster than radau5). bdf5: the engine's own variable-order BDF (orders 1 to 5) with CVODE's Newton strategy (the convergence rate carried across steps, the factorisation and the exact Jacobian reused by age and by the change of h γ: about 1.3 to 1.5 evaluations per step where bdf needs 2 or more); its Newton matrix dense below 12 states and above a band (positions and single bristle states eliminated first), as `linear_algebra` says; `auto`'s choice for stiff networks of more than 3 states without stick, stop or reversal events (on the small stiff examples it was measured no faster than radau5; with events it restarts at order 1 after each and was less accurate than bdf at equal tolerances)",
            ),
            key(
                "linear_algebra",
                Kind::Choice(&["auto", "dense", "sparse"]),
                "",
                "\"auto\"",
                false,
                "linear algebra of the implicit methods; auto: dense below 12 states, sparse from there (band LU after a bandwidth-reducing ordering, or faer sparse LU when the band is wide); radau5 and rodas5p: dense only",
            ),
            key(
                "rtol",
                Kind::Number { lo: Some((1e-14, false)), hi: Some((1.0, false)) },
                "-",
                "1e-6",
                false,
                "relative tolerance",
            ),
            key(
                "atol",
                Kind::Atol,
                "m, m/s, state units",
                "{ position = 1e-9, velocity = 1e-9, state = 1e-10 }",
                false,
                "absolute tolerances: one number for all, or per kind of state",
            ),
            key("max_step", POSITIVE, "s", "t_end / 10", false, "largest step"),
            key(
                "max_steps",
                Kind::Integer { min: 1 },
                "-",
                "1000000",
                false,
                "a run that needs more accepted steps stops with a partial result saying which parts made the steps small",
            ),
            key("max_wall", POSITIVE, "s", "", false, "wall-clock limit after which a run stops with a partial result; a run whose estimate after a short pilot (2 % of max_wall or 0.5 s) exceeds twice max_wall is refused then, with the estimate"),
            key(
                "states",
                Kind::States,
                "",
                "\"auto\"",
                false,
                "internal-state columns z.NAME.k: auto writes them when there are at most 64",
            ),
            key(
                "columns",
                Kind::Columns,
                "",
                "",
                false,
                "only these output columns, in the standard order with t first (default: all); without force (F.NAME) and slip-velocity (sv.NAME) columns the rows skip the contact models",
            ),
            key(
                "max_output_bytes",
                Kind::Number { lo: Some((1.0, true)), hi: None },
                "bytes",
                "4294967296",
                false,
                "refuse a run whose estimated output is larger",
            ),
        ],
    },
];

/// One key of a schedule type.
#[derive(Debug, Clone, Copy)]
pub struct SchedKey {
    /// Key.
    pub name: &'static str,
    /// Default; `None`: required.
    pub default: Option<f64>,
    /// Lower bound and whether it is allowed (`None`: unbounded).
    pub lo: Option<(f64, bool)>,
    /// Upper bound and whether it is allowed (`None`: unbounded).
    pub hi: Option<(f64, bool)>,
    /// Unit, with `u` the unit of the signal (m for a motion, N for a force).
    pub unit: &'static str,
    /// Meaning.
    pub doc: &'static str,
}

/// A schedule type: a prescribed signal s(t).
#[derive(Debug, Clone, Copy)]
pub struct ScheduleType {
    /// The value of `type`.
    pub name: &'static str,
    /// The formula.
    pub formula: &'static str,
    /// Keys besides `type` (`points` and `file` are not numbers; see their docs).
    pub keys: &'static [SchedKey],
    /// An example table.
    pub example: &'static str,
}

const fn sk(
    name: &'static str,
    default: Option<f64>,
    lo: Option<(f64, bool)>,
    unit: &'static str,
    doc: &'static str,
) -> SchedKey {
    SchedKey { name, default, lo, hi: None, unit, doc }
}

/// A key with an upper bound as well.
const fn sk_in(
    name: &'static str,
    default: Option<f64>,
    lo: Option<(f64, bool)>,
    hi: Option<(f64, bool)>,
    unit: &'static str,
    doc: &'static str,
) -> SchedKey {
    SchedKey { name, default, lo, hi, unit, doc }
}

const DUTY: SchedKey = sk_in(
    "duty",
    Some(0.5),
    POS,
    Some((1.0, false)),
    "-",
    "fraction of the period at the high value (Modelica's `width` / 100)",
);

const T0: Option<(f64, bool)> = Some((0.0, true));
const POS: Option<(f64, bool)> = Some((0.0, false));

/// Every schedule type of [`crate::system::schedule::Schedule`], in the order of
/// [`crate::system::schedule::TYPES`].
pub const SCHEDULES: &[ScheduleType] = &[
    ScheduleType {
        name: "constant",
        formula: "s = value",
        keys: &[sk("value", None, None, "u", "the value")],
        example: "{ type = \"constant\", value = 1.0 }",
    },
    ScheduleType {
        name: "step",
        formula: "s = offset + amplitude H(t - at)",
        keys: &[
            sk("amplitude", None, None, "u", "height of the step"),
            sk("at", Some(0.0), T0, "s", "time of the step"),
            sk("offset", Some(0.0), None, "u", "value before the step"),
        ],
        example: "{ type = \"step\", amplitude = 2.0, at = 0.5 }",
    },
    ScheduleType {
        name: "ramp",
        formula: "s = offset + rate max(t - start, 0)",
        keys: &[
            sk("rate", None, None, "u/s", "slope"),
            sk("offset", Some(0.0), None, "u", "value before `start`"),
            sk("start", Some(0.0), T0, "s", "start time"),
        ],
        example: "{ type = \"ramp\", rate = 0.1 }",
    },
    ScheduleType {
        name: "sine",
        formula: "s = offset + amplitude sin(2π frequency t + phase)",
        keys: &[
            sk("amplitude", None, None, "u", "amplitude"),
            sk("frequency", None, POS, "Hz", "frequency"),
            sk("phase", Some(0.0), None, "rad", "phase"),
            sk("offset", Some(0.0), None, "u", "mean value"),
        ],
        example: "{ type = \"sine\", amplitude = 0.01, frequency = 2.0 }",
    },
    ScheduleType {
        name: "chirp",
        formula: "s = offset + A sin(2π (f0 t + (f1 - f0) t² / (2 T))) for t <= T = duration, then at f1",
        keys: &[
            sk("amplitude", None, None, "u", "amplitude A"),
            sk("f0", None, T0, "Hz", "start frequency"),
            sk("f1", None, T0, "Hz", "end frequency"),
            sk("duration", None, POS, "s", "sweep duration T"),
            sk("offset", Some(0.0), None, "u", "mean value"),
        ],
        example: "{ type = \"chirp\", amplitude = 0.01, f0 = 0.1, f1 = 5.0, duration = 10.0 }",
    },
    ScheduleType {
        name: "points",
        formula: "piecewise linear through the turning points at constant speed, then held",
        keys: &[
            sk("points", None, None, "u", "array of at least 2 turning points (finite numbers), starting at t = 0"),
            sk("speed", None, POS, "u/s", "speed between the points"),
        ],
        example: "{ type = \"points\", points = [0.0, 2e-5, -1e-5], speed = 1e-4 }",
    },
    ScheduleType {
        name: "velocity_sine",
        formula: "ds/dt = bias + amplitude sin(2π frequency t), s(0) = offset",
        keys: &[
            sk("bias", Some(0.0), None, "u/s", "mean rate"),
            sk("amplitude", None, None, "u/s", "rate amplitude"),
            sk("frequency", None, POS, "Hz", "frequency"),
            sk("offset", Some(0.0), None, "u", "value at t = 0"),
        ],
        example: "{ type = \"velocity_sine\", bias = 0.01, amplitude = 0.005, frequency = 1.0 }",
    },
    ScheduleType {
        name: "pulse",
        formula: "s = value on [from, to), base elsewhere",
        keys: &[
            sk("value", None, None, "u", "value inside the pulse"),
            sk("from", None, T0, "s", "start"),
            sk("to", None, T0, "s", "end, greater than `from`"),
            sk("base", Some(0.0), None, "u", "value outside the pulse"),
        ],
        example: "{ type = \"pulse\", value = 5.0, from = 1.0, to = 2.0 }",
    },
    ScheduleType {
        name: "haversine",
        formula: "s = amplitude sin²(π (t - start) / duration) on [start, start + duration], 0 elsewhere",
        keys: &[
            sk("amplitude", None, None, "u", "peak value"),
            sk("duration", None, POS, "s", "pulse duration"),
            sk("start", Some(0.0), T0, "s", "start"),
        ],
        example: "{ type = \"haversine\", amplitude = 100.0, duration = 0.01 }",
    },
    ScheduleType {
        name: "table",
        formula: "linear interpolation in a CSV file with a header row and columns t, value; held after the last row",
        keys: &[sk("file", None, None, "", "CSV file, relative to the scenario file")],
        example: "{ type = \"table\", file = \"data/force.csv\" }",
    },
    ScheduleType {
        name: "input",
        formula: "a signal set from outside: an FMU input (see `friction fmu`), held between communication points; s = start in `friction run`. With quantity = \"velocity\" the input is ds/dt and s = offset + ∫ input dt",
        keys: &[
            sk("name", None, None, "", "input name, unique among the scenario's inputs"),
            sk("start", None, None, "u", "value before the master sets it (the rate with quantity = \"velocity\")"),
            // a string: "value" (default) or "velocity"; the number is only a marker for "optional"
            sk("quantity", Some(0.0), None, "", "\"value\" (the signal itself) or \"velocity\" (its rate)"),
            sk("offset", Some(0.0), None, "u", "initial signal of a quantity = \"velocity\" input"),
        ],
        example: "{ type = \"input\", name = \"v_slip\", start = 0.01, quantity = \"velocity\" }",
    },
    ScheduleType {
        name: "pulse_train",
        formula: "periodic pulses (Modelica.Blocks.Sources.Pulse with width = 100 duty): s = offset + amplitude for start + k period <= t < start + (k + duty) period (k = 0, 1, ...), offset elsewhere and before start. Each period is closed at its start; every edge is a breakpoint",
        keys: &[
            sk("amplitude", None, None, "u", "height of the pulses above `offset`"),
            sk("period", None, POS, "s", "period"),
            DUTY,
            sk("offset", Some(0.0), None, "u", "value between the pulses and before `start`"),
            sk("start", Some(0.0), None, "s", "start of the first period (negative: a phase shift)"),
        ],
        example: "{ type = \"pulse_train\", amplitude = 5.0, period = 0.1, duty = 0.2 }",
    },
    ScheduleType {
        name: "square",
        formula: "square wave: s = offset + amplitude for start + k period <= t < start + (k + duty) period (k = 0, 1, ...), offset - amplitude on the rest of each period, offset before start; every edge is a breakpoint",
        keys: &[
            sk("amplitude", None, None, "u", "half the peak-to-peak height"),
            sk("period", None, POS, "s", "period"),
            DUTY,
            sk("offset", Some(0.0), None, "u", "mean value (with duty = 0.5) and value before `start`"),
            sk("start", Some(0.0), None, "s", "start of the first period (negative: a phase shift)"),
        ],
        example: "{ type = \"square\", amplitude = 1.0, period = 0.5 }",
    },
    ScheduleType {
        name: "sawtooth",
        formula: "sawtooth (Modelica.Blocks.Sources.SawTooth): s = offset + amplitude (t - start - k period) / period for start + k period <= t < start + (k + 1) period, offset before start; the jumps back are breakpoints",
        keys: &[
            sk("amplitude", None, None, "u", "rise over one period"),
            sk("period", None, POS, "s", "period"),
            sk("offset", Some(0.0), None, "u", "value at the start of each period and before `start`"),
            sk("start", Some(0.0), None, "s", "start of the first period (negative: a phase shift)"),
        ],
        example: "{ type = \"sawtooth\", amplitude = 2.0, period = 1.0 }",
    },
    ScheduleType {
        name: "sum",
        formula: "s = the sum of the terms (schedules, or numbers as constants; nested up to 16 levels); its rates are the sums of the rates, its breakpoints the union of the terms'",
        keys: &[sk("terms", None, None, "u", "array of schedules or numbers")],
        example: "{ type = \"sum\", terms = [{ type = \"sine\", amplitude = 1.0, frequency = 2.0 }, 0.5] }",
    },
    ScheduleType {
        name: "product",
        formula: "s = the product of the factors (schedules, or numbers as constants; nested up to 16 levels); its rates follow the product rule, its breakpoints are the union of the factors'",
        keys: &[sk("factors", None, None, "", "array of schedules or numbers (the units multiply)")],
        example: "{ type = \"product\", factors = [{ type = \"ramp\", rate = 1.0 }, { type = \"sine\", amplitude = 1.0, frequency = 2.0 }] }",
    },
    ScheduleType {
        name: "window",
        formula: "s = inner(t) for start <= t < end (closed at start, open at end), 0 elsewhere; inner is evaluated at the simulation time t (not restarted at start); start, end and the inner signal's breakpoints in between are breakpoints",
        keys: &[
            sk("start", Some(0.0), T0, "s", "start of the window (inside)"),
            sk("end", None, POS, "s", "end of the window (outside), greater than `start`"),
            sk("inner", None, None, "u", "the signal inside the window: a schedule or a number"),
        ],
        example: "{ type = \"window\", end = 0.5, inner = { type = \"sine\", amplitude = 200.0, frequency = 15.915494309189533 } }",
    },
];
