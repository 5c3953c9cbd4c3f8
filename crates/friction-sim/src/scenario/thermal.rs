//! The thermal keys of a scenario: `[[thermal]]` nodes, `[[conduction]]`
//! between them, and `heat = "NODE"` on contacts, dampers and gaps, read
//! into a [`Thermal`] through the checks the builder shares
//! (`crate::system::thermal`).
//!
//! ```toml
//! [[thermal]]            # a heat capacity with its temperature as a state
//! name = "disc"
//! capacity = 500.0       # J/K
//! T0 = 293.15            # K
//! [[thermal]]            # a fixed temperature (an ambient)
//! name = "air"
//! fixed = 293.15         # K
//! [[conduction]]         # Q = G (T_a - T_b) from the first node to the second
//! name = "disc-air"      # optional (default conduction0, conduction1, ...)
//! between = ["disc", "air"]
//! conductance = 10.0     # W/K
//! [[contact]]
//! heat = "disc"          # the contact's loss power F v_rel heats the node
//! ```

use std::collections::HashMap;
use std::ops::Range;

use super::spanned::Spanned;
use serde::Deserialize;

use crate::error::SimError;
use crate::system::thermal::{
    check_conduction, check_conduction_names, check_node, node, Dissipator, TakenLaws, Thermal,
    LAW_NEEDS_HEAT,
};
use crate::system::Invalid;

use super::locate::Src;

/// A `[[thermal]]` table as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawThermal {
    name: String,
    capacity: Option<f64>,
    #[serde(rename = "T0")]
    t0: Option<f64>,
    fixed: Option<f64>,
}

/// A `[[conduction]]` table as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawConduction {
    name: Option<String>,
    between: Vec<String>,
    conductance: Option<f64>,
}

/// An element's `heat` key: the element, the span of its table, the node named.
pub(super) type HeatRef<'a> = (Dissipator, Range<usize>, &'a str);

/// The thermal network from the raw tables and the elements' `heat` keys;
/// errors name the file, the line and the key.
pub(super) fn thermal(
    nodes: &[Spanned<RawThermal>],
    conductions: &[Spanned<RawConduction>],
    heat: &[HeatRef<'_>],
    laws: Vec<(usize, Range<usize>, TakenLaws)>,
    src: &Src<'_>,
) -> Result<Thermal, SimError> {
    let at = |span: &Range<usize>, e: Invalid| match e.key {
        Some(k) => src.err(src.key_at(span.clone(), k), e.message),
        None => src.err(src.line_of(span.start), e.message),
    };
    let mut names = HashMap::new();
    let mut th = Thermal::default();
    for n in nodes {
        let span = n.span();
        let n = n.get_ref();
        th.nodes.push(check_node(&mut names, &n.name, n.capacity, n.t0, n.fixed).map_err(|e| at(&span, e))?);
    }
    for (i, c) in conductions.iter().enumerate() {
        let span = c.span();
        let c = c.get_ref();
        let name = c.name.clone().unwrap_or_else(|| format!("conduction{i}"));
        th.conductions
            .push(check_conduction(&names, &name, &c.between, c.conductance).map_err(|e| at(&span, e))?);
    }
    if let Some(last) = conductions.last() {
        check_conduction_names(&th.conductions).map_err(|e| at(&last.span(), e))?;
    }
    for (e, span, name) in heat {
        let what = match e {
            Dissipator::Contact(_) => "contact",
            Dissipator::Damper(_) => "damper",
            Dissipator::Gap(_) => "gap",
        };
        let k = node(&names, name, "heat", what).map_err(|err| at(span, err))?;
        th.heat.push((*e, k));
    }
    for (c, span, law) in laws {
        if th.node_of(Dissipator::Contact(c)).is_none() {
            return Err(at(&span, Invalid::at("heat", LAW_NEEDS_HEAT.into())));
        }
        if let Some(l) = law.load {
            th.laws.push((c, l));
        }
        if !law.model.is_empty() {
            th.model_laws.push((c, law.model));
        }
    }
    Ok(th)
}
