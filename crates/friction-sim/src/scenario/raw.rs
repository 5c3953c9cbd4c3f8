//! The scenario file's tables as read (before any check): one struct per
//! table kind, each refusing keys it does not know, so that an unknown
//! key lists the keys of its own kind.

use serde::Deserialize;

use crate::system::Kind;

use super::spanned::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFile {
    pub(super) name: Option<String>,
    pub(super) description: Option<String>,
    #[serde(default)]
    pub(super) driver: Vec<Spanned<RawDriver>>,
    #[serde(default)]
    pub(super) body: Vec<Spanned<RawBody>>,
    #[serde(default)]
    pub(super) spring: Vec<Spanned<RawSpring>>,
    #[serde(default)]
    pub(super) damper: Vec<Spanned<RawDamper>>,
    #[serde(default)]
    pub(super) force: Vec<Spanned<RawForce>>,
    #[serde(default)]
    pub(super) contact: Vec<Spanned<RawContact>>,
    #[serde(default)]
    pub(super) stop: Vec<Spanned<RawStop>>,
    #[serde(default)]
    pub(super) gap: Vec<Spanned<RawGap>>,
    #[serde(default)]
    pub(super) thermal: Vec<Spanned<super::thermal::RawThermal>>,
    #[serde(default)]
    pub(super) conduction: Vec<Spanned<super::thermal::RawConduction>>,
    #[serde(default)]
    pub(super) structure: Vec<Spanned<crate::structure::parse::RawStructure>>,
    pub(super) solver: Option<Spanned<super::solver::RawSolver>>,
}

impl RawFile {
    /// Give every element its span in the text: `span_of(SECTION, INDEX)`,
    /// and `solver` that of `[solver]` (`0..0` when unknown).
    pub(super) fn locate(
        &mut self,
        span_of: impl Fn(&str, usize) -> std::ops::Range<usize>,
        solver: Option<std::ops::Range<usize>>,
    ) {
        fn each<T>(
            v: &mut [Spanned<T>],
            section: &str,
            span_of: &impl Fn(&str, usize) -> std::ops::Range<usize>,
        ) {
            for (i, e) in v.iter_mut().enumerate() {
                e.set_span(span_of(section, i));
            }
        }
        each(&mut self.driver, "driver", &span_of);
        each(&mut self.body, "body", &span_of);
        each(&mut self.spring, "spring", &span_of);
        each(&mut self.damper, "damper", &span_of);
        each(&mut self.force, "force", &span_of);
        each(&mut self.contact, "contact", &span_of);
        each(&mut self.stop, "stop", &span_of);
        each(&mut self.gap, "gap", &span_of);
        each(&mut self.thermal, "thermal", &span_of);
        each(&mut self.conduction, "conduction", &span_of);
        each(&mut self.structure, "structure", &span_of);
        if let Some(s) = &mut self.solver {
            s.set_span(solver.unwrap_or(0..0));
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDriver {
    pub(super) name: String,
    #[serde(default)]
    pub(super) kind: Kind,
    pub(super) motion: toml::Table,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBody {
    pub(super) name: String,
    #[serde(default)]
    pub(super) kind: Kind,
    pub(super) mass: f64,
    pub(super) dim: Option<i64>,
    pub(super) x0: Option<toml::Value>,
    pub(super) v0: Option<toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSpring {
    pub(super) name: Option<String>,
    pub(super) between: Vec<String>,
    pub(super) stiffness: Option<f64>,
    pub(super) length: Option<f64>,
    pub(super) direction: Option<toml::Value>,
}

// springs and dampers have separate structs, so that an unknown key lists
// the keys of its own kind (a shared one listed `coefficient` for a spring)
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDamper {
    pub(super) name: Option<String>,
    pub(super) between: Vec<String>,
    pub(super) coefficient: Option<f64>,
    pub(super) heat: Option<String>,
    pub(super) direction: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawForce {
    pub(super) name: Option<String>,
    pub(super) on: String,
    pub(super) value: toml::Value,
    pub(super) direction: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawContact {
    pub(super) name: Option<String>,
    pub(super) between: Vec<String>,
    pub(super) model: String,
    #[serde(default)]
    pub(super) params: toml::Table,
    pub(super) normal: Option<toml::Value>,
    pub(super) normal_gap: Option<String>,
    pub(super) normal_stiffness: Option<f64>,
    pub(super) gap: Option<f64>,
    pub(super) heat: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGap {
    pub(super) name: Option<String>,
    pub(super) between: Vec<String>,
    pub(super) length: Option<f64>,
    pub(super) stiffness: Option<f64>,
    pub(super) damping: Option<f64>,
    pub(super) exponent: Option<f64>,
    pub(super) heat: Option<String>,
    pub(super) direction: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStop {
    pub(super) body: String,
    pub(super) min: Option<f64>,
    pub(super) max: Option<f64>,
    #[serde(default)]
    pub(super) restitution: f64,
    pub(super) direction: Option<String>,
}
