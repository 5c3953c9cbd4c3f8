//! Thermal nodes (`[[thermal]]`), conductions between them
//! (`[[conduction]]`) and where the dissipative elements send their loss
//! power (`heat = "NODE"` on a contact, damper or gap): the validated types
//! and their checks, shared by the scenario parser and the builder.
//!
//! A node with a heat capacity `C` [J/K] has a temperature `T` \[K\] that is a
//! state of the simulation, integrated with the mechanics; a fixed node (an
//! ambient) keeps its temperature and absorbs whatever reaches it. A
//! conduction of conductance `G` [W/K] between nodes `a` and `b` carries
//! `Q = G (T_a - T_b)` from `a` to `b`. With `P_e` the loss power of an
//! element `e` whose `heat` is the node:
//!
//! ```text
//! C dT/dt = Σ_e P_e - Σ_(conductions from the node) Q + Σ_(conductions into it) Q
//! ```
//!
//! This is the lumped network of the Modelica Standard Library's
//! `Thermal.HeatTransfer` (`HeatCapacitor`, `ThermalConductor`,
//! `FixedTemperature`), whose dissipative mechanical components send their
//! loss power to an optional heat port (`useHeatPort`, Modelica Association
//! 2020, Modelica Standard Library 4.0, `Mechanics.Translational.Interfaces.
//! PartialElementaryConditionalHeatPortWithoutT`).
//!
//! A contact's loss power is `F v_rel`, what the energy balance books under
//! the contact: for a model with elastic internal states (LuGre's bristles,
//! Dahl) it includes the rate of the energy they store, which is small and
//! returns to zero over a cycle; a damper's is `c Δv²`, a gap's its damping
//! force times the penetration rate.

use std::collections::HashMap;

use super::{check_name, Invalid};

#[doc(inline)]
pub use super::thermal_law::{check_laws, check_temperatures, temperature_params, TempLaw, LAW_CHECK_MAX};
pub(crate) use super::thermal_law::{model_at, take_laws, TakenLaws, LAW_NEEDS_HEAT};

/// A thermal node: a heat capacity with its own temperature, or a fixed
/// temperature (an ambient).
#[derive(Debug, Clone, PartialEq)]
pub struct ThermalNode {
    /// Name (the column `T.NAME`).
    pub name: String,
    /// A capacity or a fixed temperature.
    pub kind: NodeKind,
}

/// What a thermal node is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NodeKind {
    /// A heat capacity: `C dT/dt` = the heat flowing in.
    Capacity {
        /// Heat capacity `C` [J/K], > 0.
        capacity: f64,
        /// Initial temperature `T0` \[K\], > 0.
        t0: f64,
    },
    /// A fixed temperature \[K\], > 0: an ambient that absorbs any heat.
    Fixed {
        /// The temperature \[K\].
        temperature: f64,
    },
}

/// A linear thermal conductor between two nodes (Modelica's
/// `ThermalConductor`): `Q = G (T_a - T_b)` flows from the first to the second.
#[derive(Debug, Clone, PartialEq)]
pub struct Conduction {
    /// Name (the column `Q.NAME`).
    pub name: String,
    /// The two nodes (indices into [`Thermal::nodes`]).
    pub between: [usize; 2],
    /// Conductance `G` [W/K], >= 0.
    pub conductance: f64,
}

/// A dissipative element that can send its loss power to a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dissipator {
    /// A contact (index into [`crate::System::contacts`]): power `F v_rel`.
    Contact(usize),
    /// A damper (index into [`crate::System::dampers`]): power `c Δv²`.
    Damper(usize),
    /// A gap (index into [`crate::System::gaps`]): its damping's power.
    Gap(usize),
}

/// The thermal network of a system; empty (the default) when the scenario
/// has no thermal keys, and then the run is exactly the one without it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Thermal {
    /// The nodes, in file order.
    pub nodes: Vec<ThermalNode>,
    /// The conductions, in file order.
    pub conductions: Vec<Conduction>,
    /// Which element heats which node (index into `nodes`).
    pub heat: Vec<(Dissipator, usize)>,
    /// Contacts whose friction coefficient depends on the temperature of
    /// their heat node (index into [`crate::System::contacts`]), with the
    /// law: `fc` of `coulomb` without `fs`, followed through the load
    /// ([`TempLaw`]).
    pub laws: Vec<(usize, TempLaw)>,
    /// Contacts with parameters of their model that depend on the
    /// temperature of their heat node, one entry per contact, with its laws
    /// (parameter, law), checked by [`check_laws`].
    pub model_laws: Vec<(usize, Vec<(String, TempLaw)>)>,
}

impl Thermal {
    /// Whether there is anything thermal at all.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node an element heats, if any.
    pub fn node_of(&self, e: Dissipator) -> Option<usize> {
        self.heat.iter().find(|(d, _)| *d == e).map(|&(_, k)| k)
    }

    /// Output column names: `T.NODE` of every node, then `Q.NAME` of every conduction.
    pub fn column_names(&self) -> impl Iterator<Item = String> + '_ {
        let t = self.nodes.iter().map(|n| format!("T.{}", n.name));
        t.chain(self.conductions.iter().map(|c| format!("Q.{}", c.name)))
    }

    /// Their units: K, then W.
    pub fn column_units(&self) -> impl Iterator<Item = String> + '_ {
        let t = self.nodes.iter().map(|_| "K".to_string());
        t.chain(self.conductions.iter().map(|_| "W".to_string()))
    }

    /// Number of output columns.
    pub fn n_columns(&self) -> usize {
        self.nodes.len() + self.conductions.len()
    }
}

/// A required positive finite number (temperatures, capacities).
fn positive(x: Option<f64>, key: &'static str, what: &str) -> Result<f64, Invalid> {
    let x = x.ok_or_else(|| Invalid::at(key, format!("{what}: missing key `{key}`")))?;
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(Invalid::at(key, format!("{what}: `{key}` = {x} is out of range; valid range (0, inf)")))
    }
}

/// A thermal node from its keys: `capacity` [J/K] and `T0` \[K\], or
/// `fixed` \[K\] alone. `names` collects the node names (unique).
pub(crate) fn check_node(
    names: &mut HashMap<String, usize>,
    name: &str,
    capacity: Option<f64>,
    t0: Option<f64>,
    fixed: Option<f64>,
) -> Result<ThermalNode, Invalid> {
    check_name(name).map_err(|m| Invalid::at("name", format!("thermal node: `name`: {m}")))?;
    let what = format!("thermal node \"{name}\"");
    if names.insert(name.to_string(), names.len()).is_some() {
        return Err(Invalid::at("name", format!("{what}: the name is used twice among the thermal nodes")));
    }
    let kind = match fixed {
        Some(_) if capacity.is_some() || t0.is_some() => {
            return Err(Invalid::at(
                "fixed",
                format!("{what}: `fixed` (an ambient temperature) goes without `capacity` and `T0`"),
            ))
        }
        Some(t) => NodeKind::Fixed { temperature: positive(Some(t), "fixed", &what)? },
        None => NodeKind::Capacity {
            capacity: positive(capacity, "capacity", &what)?,
            t0: positive(t0, "T0", &what)?,
        },
    };
    Ok(ThermalNode { name: name.to_string(), kind })
}

/// Resolve a node name for `key` of `what`.
pub(crate) fn node(
    names: &HashMap<String, usize>,
    name: &str,
    key: &'static str,
    what: &str,
) -> Result<usize, Invalid> {
    names.get(name).copied().ok_or_else(|| {
        let mut known: Vec<&str> = names.keys().map(String::as_str).collect();
        known.sort_unstable();
        let hint = friction_models::suggest::did_you_mean(name, known.iter().copied());
        let known =
            if known.is_empty() { "there is no [[thermal]] node".to_string() } else { known.join(", ") };
        Invalid::at(key, format!("{what}: `{key}` = \"{name}\" is not a thermal node{hint}; known: {known}"))
    })
}

/// A conduction between two different nodes with a conductance >= 0.
pub(crate) fn check_conduction<S: AsRef<str>>(
    names: &HashMap<String, usize>,
    name: &str,
    between: &[S],
    conductance: Option<f64>,
) -> Result<Conduction, Invalid> {
    check_name(name).map_err(|m| Invalid::at("name", format!("conduction: `name`: {m}")))?;
    let what = format!("conduction \"{name}\"");
    if between.len() != 2 {
        return Err(Invalid::at(
            "between",
            format!("{what}: `between` needs exactly 2 thermal nodes, found {}", between.len()),
        ));
    }
    let a = node(names, between[0].as_ref(), "between", &what)?;
    let b = node(names, between[1].as_ref(), "between", &what)?;
    if a == b {
        return Err(Invalid::at("between", format!("{what}: `between` names the same node twice")));
    }
    let g = conductance
        .ok_or_else(|| Invalid::at("conductance", format!("{what}: missing key `conductance`")))?;
    if !(g.is_finite() && g >= 0.0) {
        return Err(Invalid::at(
            "conductance",
            format!("{what}: `conductance` = {g} is out of range; valid range [0, inf)"),
        ));
    }
    Ok(Conduction { name: name.to_string(), between: [a, b], conductance: g })
}

/// Refuse two conductions of one name (their columns `Q.NAME` would clash).
pub(crate) fn check_conduction_names(conductions: &[Conduction]) -> Result<(), Invalid> {
    let mut seen = std::collections::HashSet::new();
    for c in conductions {
        if !seen.insert(c.name.as_str()) {
            return Err(Invalid::at(
                "name",
                format!("conduction \"{}\": the name is used twice among the conductions", c.name),
            ));
        }
    }
    Ok(())
}

/// A node as given to the builder: name, capacity, T0, fixed temperature.
type PendingNode = (String, Option<f64>, Option<f64>, Option<f64>);

/// The thermal part as given to the builder ([`crate::SystemBuilder::thermal`]
/// and the methods after it), checked when the system is built.
#[derive(Debug, Clone, Default)]
pub(crate) struct PendingThermal {
    pub nodes: Vec<PendingNode>,
    /// name, first node, second node, conductance
    pub conductions: Vec<(String, String, String, f64)>,
    /// element name, node name
    pub heat: Vec<(String, String)>,
    /// contact name, parameter, law
    pub laws: Vec<(String, String, TempLaw)>,
}

impl PendingThermal {
    /// Check and resolve against the system's elements: the same checks
    /// and messages as the scenario parser's.
    pub(crate) fn build(&self, sys: &mut super::System) -> Result<Thermal, Invalid> {
        let mut names = HashMap::new();
        let mut th = Thermal::default();
        for (name, cap, t0, fixed) in &self.nodes {
            th.nodes.push(check_node(&mut names, name, *cap, *t0, *fixed)?);
        }
        for (name, a, b, g) in &self.conductions {
            th.conductions.push(check_conduction(&names, name, &[a, b], Some(*g))?);
        }
        check_conduction_names(&th.conductions)?;
        for (element, n) in &self.heat {
            let e = if let Some(i) = sys.contacts.iter().position(|c| &c.name == element) {
                Dissipator::Contact(i)
            } else if let Some(i) = sys.gaps.iter().position(|g| &g.name == element) {
                Dissipator::Gap(i)
            } else if let Some(i) = sys.dampers.iter().position(|d| &d.name == element) {
                Dissipator::Damper(i)
            } else {
                return Err(Invalid::at(
                    "heat",
                    format!("heat: no contact, gap or damper is named \"{element}\""),
                ));
            };
            if th.heat.iter().any(|h| h.0 == e) {
                return Err(Invalid::at("heat", format!("heat: \"{element}\" heats a node already")));
            }
            let what = format!("\"{element}\"");
            th.heat.push((e, node(&names, n, "heat", &what)?));
        }
        // the laws of each contact together (`fs >= fc` may need both)
        let mut per_contact: Vec<(usize, Vec<(String, TempLaw)>)> = Vec::new();
        for (contact, param, law) in &self.laws {
            let Some(c) = sys.contacts.iter().position(|c| &c.name == contact) else {
                return Err(Invalid::at(
                    "params",
                    format!("temperature law: no contact is named \"{contact}\""),
                ));
            };
            match per_contact.iter_mut().find(|e| e.0 == c) {
                Some(e) => e.1.push((param.clone(), law.clone())),
                None => per_contact.push((c, vec![(param.clone(), law.clone())])),
            }
        }
        for (c, laws) in per_contact {
            let ct = &mut sys.contacts[c];
            let what = format!("contact \"{}\"", ct.name);
            if let Some(dup) = laws.iter().enumerate().find(|(i, l)| laws[..*i].iter().any(|m| m.0 == l.0)) {
                return Err(Invalid::at(
                    "params",
                    format!("{what}: `{}` has two temperature laws", dup.1 .0),
                ));
            }
            check_laws(&ct.model, &laws).map_err(|(_, m)| Invalid::at("params", format!("{what}: {m}")))?;
            if th.node_of(Dissipator::Contact(c)).is_none() {
                return Err(Invalid::at("heat", format!("{what}: {LAW_NEEDS_HEAT}")));
            }
            let load_law = matches!(&ct.model, friction_models::AnyModel::Coulomb(m) if m.params().fs.is_none())
                && laws.len() == 1
                && laws[0].0 == "fc";
            if load_law {
                // the contact built with fc = 1, its load times fc(T)
                if let Some(Ok(m)) = ct.model.with_real("fc", 1.0) {
                    ct.model = m;
                }
                th.laws.extend(laws.into_iter().map(|(_, l)| (c, l)));
            } else {
                // the model as the scenario parser builds it: at the first
                // temperature the laws are checked at
                let t0 = check_temperatures(&laws)[0];
                if let Some(Ok(m)) = model_at(&ct.model, &laws, t0) {
                    ct.model = m;
                }
                th.model_laws.push((c, laws));
            }
        }
        Ok(th)
    }
}
