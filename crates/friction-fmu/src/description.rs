//! `modelDescription.xml` of an exported scenario (FMI 2.0 or 3.0
//! Co-Simulation) and its GUID (FMI 3.0: instantiation token).

use std::collections::BTreeSet;

use friction_sim::scenario::System;
use sha2::{Digest, Sha256};

use crate::variables::{Kind, Variable};

/// Log categories declared in `modelDescription.xml`: `(name, meaning)`.
pub const LOG_CATEGORIES: &[(&str, &str)] = &[
    ("logStatusError", "calls that return fmi2Error, with the reason"),
    ("logAll", "every message (errors are logged whether logging is on or not)"),
];

/// The model identifier: the shared library is
/// `binaries/linux64/friction_fmu.so` (FMI 2.0) or
/// `binaries/x86_64-linux/friction_fmu.so` (FMI 3.0) in every exported FMU.
pub const MODEL_IDENTIFIER: &str = "friction_fmu";

/// The GUID of the FMU of a packed scenario text: the first 128 bits of the
/// SHA-256 of this crate's version and the text, as `{8-4-4-4-12}` hex.
/// The library computes it again from `resources/scenario.toml` and
/// refuses an instantiation with another GUID.
///
/// ```
/// let g = friction_fmu::description::guid("t_end = 1");
/// assert_eq!(g.len(), 38);
/// assert_eq!(g, friction_fmu::description::guid("t_end = 1"));
/// assert_ne!(g, friction_fmu::description::guid("t_end = 2"));
/// ```
pub fn guid(text: &str) -> String {
    let mut h = Sha256::new();
    h.update(concat!("friction-fmu ", env!("CARGO_PKG_VERSION"), "\n").as_bytes());
    h.update(text.as_bytes());
    let d = h.finalize();
    let hex: String = d[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("{{{}-{}-{}-{}-{}}}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..32])
}

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

/// A real number as XML text (`xs:double`) that reads back to the same `f64`.
fn num(x: f64) -> String {
    format!("{x:?}")
}

/// The `modelDescription.xml` of the FMU of `sys`, whose packed scenario
/// text is `text` and whose variables are `vars` (from
/// [`crate::variables::variables`]). `description` is the scenario's
/// `description` key, if any.
pub fn model_description(sys: &System, text: &str, vars: &[Variable], description: Option<&str>) -> String {
    let mut x = String::new();
    x.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.push_str(&format!(
        "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"{}\" guid=\"{}\" description=\"{}\" \
         generationTool=\"friction {}\" variableNamingConvention=\"flat\" numberOfEventIndicators=\"0\">\n",
        esc(&sys.name),
        guid(text),
        esc(description.unwrap_or("A friction scenario exported by `friction fmu`")),
        env!("CARGO_PKG_VERSION"),
    ));
    x.push_str(&format!(
        "  <CoSimulation modelIdentifier=\"{MODEL_IDENTIFIER}\" canHandleVariableCommunicationStepSize=\"true\" \
         canInterpolateInputs=\"false\" maxOutputDerivativeOrder=\"0\" canRunAsynchronuously=\"false\" \
         canBeInstantiatedOnlyOncePerProcess=\"false\" canNotUseMemoryManagementFunctions=\"true\" \
         canGetAndSetFMUstate=\"true\" canSerializeFMUstate=\"true\" providesDirectionalDerivative=\"false\"/>\n"
    ));
    let units: BTreeSet<&str> = vars.iter().filter_map(|v| v.unit.as_deref()).collect();
    if !units.is_empty() {
        x.push_str("  <UnitDefinitions>\n");
        for u in &units {
            x.push_str(&format!("    <Unit name=\"{}\"/>\n", esc(u)));
        }
        x.push_str("  </UnitDefinitions>\n");
    }
    x.push_str("  <LogCategories>\n");
    for (name, what) in LOG_CATEGORIES {
        x.push_str(&format!("    <Category name=\"{name}\" description=\"{}\"/>\n", esc(what)));
    }
    x.push_str("  </LogCategories>\n");
    x.push_str(&format!(
        "  <DefaultExperiment startTime=\"0\" stopTime=\"{}\" tolerance=\"{}\"/>\n",
        num(sys.solver.t_end),
        num(sys.solver.rtol)
    ));
    x.push_str("  <ModelVariables>\n");
    for v in vars {
        let (causality, variability, initial) = match v.kind {
            Kind::Output(_) => ("output", "continuous", None),
            Kind::Input(_) => ("input", "continuous", None),
            Kind::Parameter { .. } | Kind::Thermal { .. } => ("parameter", "fixed", Some("exact")),
        };
        x.push_str(&format!(
            "    <!-- {} -->\n    <ScalarVariable name=\"{}\" valueReference=\"{}\" description=\"{}\" causality=\"{causality}\" variability=\"{variability}\"{}>\n",
            v.vr + 1,
            esc(&v.name),
            v.vr,
            esc(&v.description),
            initial.map(|i| format!(" initial=\"{i}\"")).unwrap_or_default(),
        ));
        let unit = v.unit.as_deref().map(|u| format!(" unit=\"{}\"", esc(u))).unwrap_or_default();
        let start = v.start.map(|s| format!(" start=\"{}\"", num(s))).unwrap_or_default();
        x.push_str(&format!("      <Real{unit}{start}/>\n    </ScalarVariable>\n"));
    }
    x.push_str("  </ModelVariables>\n  <ModelStructure>\n");
    let outputs: Vec<&Variable> = vars.iter().filter(|v| matches!(v.kind, Kind::Output(_))).collect();
    if !outputs.is_empty() {
        x.push_str("    <Outputs>\n");
        for v in &outputs {
            x.push_str(&format!("      <Unknown index=\"{}\"/>\n", v.vr + 1));
        }
        x.push_str("    </Outputs>\n    <InitialUnknowns>\n");
        for v in &outputs {
            x.push_str(&format!("      <Unknown index=\"{}\"/>\n", v.vr + 1));
        }
        x.push_str("    </InitialUnknowns>\n");
    }
    x.push_str("  </ModelStructure>\n</fmiModelDescription>\n");
    x
}

/// The `modelDescription.xml` of the FMI 3.0 Co-Simulation FMU of `sys`
/// (arguments as for [`model_description`]): the same variables as `Float64`
/// with the same value references, and `time`, the independent variable,
/// with the next value reference.
///
/// ```
/// use std::path::Path;
/// let text = std::fs::read_to_string("../../examples/fmu_contact_lugre.toml").unwrap();
/// let sys = friction_sim::scenario::parse(&text, "c.toml", Path::new("../../examples")).unwrap();
/// let raw: toml::Table = toml::from_str(&text).unwrap();
/// let vars = friction_fmu::variables::variables(&sys, &raw).unwrap();
/// let md = friction_fmu::description::model_description_v3(&sys, &text, &vars, None);
/// assert!(md.contains("fmiVersion=\"3.0\""));
/// assert!(md.contains(&format!("<Float64 name=\"time\" valueReference=\"{}\"", vars.len())));
/// ```
pub fn model_description_v3(
    sys: &System,
    text: &str,
    vars: &[Variable],
    description: Option<&str>,
) -> String {
    let mut x = String::new();
    x.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.push_str(&format!(
        "<fmiModelDescription fmiVersion=\"3.0\" modelName=\"{}\" instantiationToken=\"{}\" description=\"{}\" \
         generationTool=\"friction {}\" variableNamingConvention=\"flat\">\n",
        esc(&sys.name),
        guid(text),
        esc(description.unwrap_or("A friction scenario exported by `friction fmu`")),
        env!("CARGO_PKG_VERSION"),
    ));
    x.push_str(&format!(
        "  <CoSimulation modelIdentifier=\"{MODEL_IDENTIFIER}\" canHandleVariableCommunicationStepSize=\"true\" \
         canGetAndSetFMUState=\"true\" canSerializeFMUState=\"true\" providesDirectionalDerivatives=\"false\" \
         providesAdjointDerivatives=\"false\" maxOutputDerivativeOrder=\"0\" providesIntermediateUpdate=\"false\" \
         canReturnEarlyAfterIntermediateUpdate=\"false\" hasEventMode=\"false\" \
         providesEvaluateDiscreteStates=\"false\" canBeInstantiatedOnlyOncePerProcess=\"false\"/>\n"
    ));
    // "s": the unit of `time`
    let units: BTreeSet<&str> = vars.iter().filter_map(|v| v.unit.as_deref()).chain(["s"]).collect();
    x.push_str("  <UnitDefinitions>\n");
    for u in &units {
        x.push_str(&format!("    <Unit name=\"{}\"/>\n", esc(u)));
    }
    x.push_str("  </UnitDefinitions>\n");
    x.push_str("  <LogCategories>\n");
    for (name, what) in LOG_CATEGORIES {
        x.push_str(&format!("    <Category name=\"{name}\" description=\"{}\"/>\n", esc(what)));
    }
    x.push_str("  </LogCategories>\n");
    x.push_str(&format!(
        "  <DefaultExperiment startTime=\"0\" stopTime=\"{}\" tolerance=\"{}\"/>\n",
        num(sys.solver.t_end),
        num(sys.solver.rtol)
    ));
    x.push_str("  <ModelVariables>\n");
    for v in vars {
        let (causality, variability) = match v.kind {
            Kind::Output(_) => ("output", "continuous"),
            Kind::Input(_) => ("input", "continuous"),
            Kind::Parameter { .. } | Kind::Thermal { .. } => ("parameter", "fixed"),
        };
        let unit = v.unit.as_deref().map(|u| format!(" unit=\"{}\"", esc(u))).unwrap_or_default();
        let start = v.start.map(|s| format!(" start=\"{}\"", num(s))).unwrap_or_default();
        x.push_str(&format!(
            "    <Float64 name=\"{}\" valueReference=\"{}\" description=\"{}\" causality=\"{causality}\" \
             variability=\"{variability}\"{unit}{start}/>\n",
            esc(&v.name),
            v.vr,
            esc(&v.description),
        ));
    }
    x.push_str(&format!(
        "    <Float64 name=\"time\" valueReference=\"{}\" description=\"simulation time\" \
         causality=\"independent\" variability=\"continuous\" unit=\"s\"/>\n",
        vars.len()
    ));
    x.push_str("  </ModelVariables>\n  <ModelStructure>\n");
    let outputs: Vec<&Variable> = vars.iter().filter(|v| matches!(v.kind, Kind::Output(_))).collect();
    for v in &outputs {
        x.push_str(&format!("    <Output valueReference=\"{}\"/>\n", v.vr));
    }
    for v in &outputs {
        x.push_str(&format!("    <InitialUnknown valueReference=\"{}\"/>\n", v.vr));
    }
    x.push_str("  </ModelStructure>\n</fmiModelDescription>\n");
    x
}
