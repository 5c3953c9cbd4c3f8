//! The scenario file's tables as read (before any check): one struct per
//! table kind, each refusing keys it does not know, so that an unknown
//! key lists the keys of its own kind.

use serde::Deserialize;
use toml::Spanned;

use crate::system::Kind;

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
