//! [`SystemBuilder::build`]: the elements given to the builder checked as a
//! scenario file's are (the system's `checks.rs`), into a [`System`].

use super::*;

impl SystemBuilder {
    /// Check everything and build the system. The error is
    /// [`SimError::Input`] with `file` = `"<builder NAME>"`, no line, and the
    /// scenario parser's message for the same mistake.
    pub fn build(self) -> Result<System, SimError> {
        let file = format!("<builder {}>", self.name);
        let err = |message: String| SimError::Input { file: file.clone(), line: None, message };
        let inv = |e: Invalid| err(e.message);
        let solver = self.solver.ok_or_else(|| {
            err("missing solver settings (SystemBuilder::solver, e.g. SolverSettings::with_t_end)".into())
        })?;
        check_solver(&solver).map_err(inv)?;
        let t_end = solver.t_end;
        check_name(&self.name).map_err(|m| err(format!("`name`: {m}")))?;

        let mut names = Names::new();
        let mut drivers = Vec::new();
        for (i, (name, motion)) in self.drivers.into_iter().enumerate() {
            names.add(&name, Member::Driver(i)).map_err(inv)?;
            let what = format!("driver \"{name}\" motion");
            motion.check_finite(&what, t_end).map_err(err)?;
            drivers.push(Driver { name, motion, kind: Default::default() });
        }
        let mut bodies = Vec::new();
        for (name, mass, x0, v0) in self.bodies {
            let parts = planar::check_body_dim(&name, mass, x0.len() as i64, &x0, &v0).map_err(inv)?;
            names.add_body(&name, (bodies.len()..bodies.len() + parts.len()).collect()).map_err(inv)?;
            bodies.extend(parts);
        }
        let dirs = &self.directions;
        for (e, _) in dirs {
            let known = self.springs.iter().any(|s| &s.0 == e)
                || self.dampers.iter().any(|s| &s.0 == e)
                || self.gaps.iter().any(|s| &s.0 == e)
                || self.forces.iter().any(|s| &s.0 == e);
            if !known {
                return Err(err(format!("direction: no spring, damper, gap or force is named \"{e}\"")));
            }
        }
        let axis = |element: &str, what: &str| {
            let d = dirs.iter().rev().find(|(e, _)| e == element).map(|(_, d)| d.as_str());
            planar::direction(d, what).map_err(inv)
        };
        let mut structures = Vec::new();
        for (i, sp) in self.structures.into_iter().enumerate() {
            let s = crate::structure::parse::check_matrices(
                &sp.name,
                sp.mass,
                sp.stiffness,
                sp.damping,
                &sp.watch,
                sp.reduce.as_ref(),
            )
            .map_err(inv)?;
            names.add_structure(&s.name, i, s.dofs.clone()).map_err(inv)?;
            structures.push(s);
        }
        let ends = |b: &Between| [b.0.name().to_string(), b.1.name().to_string()];
        let mut springs = Vec::new();
        for (name, between, k, l) in &self.springs {
            let a = axis(name, &format!("spring \"{name}\""))?;
            springs.push(check_spring(&names, name, &ends(between), Some(*k), Some(*l), a).map_err(inv)?);
        }
        let mut inclined_springs = Vec::new();
        for (name, between, k, l, e) in &self.inclined {
            let sp =
                crate::system::inclined::check_inclined(&names, name, &ends(between), Some(*k), Some(*l), e);
            inclined_springs.push(sp.map_err(inv)?);
        }
        let mut dampers = Vec::new();
        for (name, between, c) in &self.dampers {
            let a = axis(name, &format!("damper \"{name}\""))?;
            dampers.push(check_damper(&names, name, &ends(between), Some(*c), a).map_err(inv)?);
        }
        let mut forces = Vec::new();
        for (name, on, value) in self.forces {
            let a = axis(&name, &format!("force \"{name}\""))?;
            let on = check_force_target(&names, &name, &on, a).map_err(inv)?;
            check_signal(&value, &format!("force \"{name}\" value"), t_end).map_err(err)?;
            match on {
                Ok(on) => forces.push(Force { name, on, value }),
                Err((s, on)) => structures[s].loads.push(Force { name, on, value }),
            }
        }
        let mut contacts = Vec::new();
        let mut contact_ends = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (i, c) in self.contacts.into_iter().enumerate() {
            check_contact_name(&mut seen, &c.name).map_err(inv)?;
            let what = format!("contact \"{}\"", c.name);
            let between = names.pair(&ends(&c.between), &what).map_err(inv)?;
            contact_ends.push(ends(&c.between));
            let model = c.model.map_err(|e| err(model_invalid(i, &what, &e).1))?;
            check_signal(&c.normal, &format!("{what} `normal`"), t_end).map_err(err)?;
            check_load(&model, &c.normal, &what).map_err(inv)?;
            contacts.push(Contact { name: c.name, between, model, normal: c.normal, normal_gap: None });
        }
        let mut gaps = Vec::new();
        for (name, between, g) in &self.gaps {
            let a = axis(name, &format!("gap \"{name}\""))?;
            let raw = RawGap {
                name,
                between: &ends(between),
                length: Some(g.length),
                stiffness: Some(g.stiffness),
                damping: Some(g.damping),
                exponent: Some(g.exponent),
                axis: a,
            };
            gaps.push(check_gap(&names, &mut seen, raw).map_err(inv)?);
        }
        let mut planes = Vec::new();
        for (contact, kn, g0) in &self.normal_stiffness {
            let c = contacts
                .iter()
                .position(|c| &c.name == contact)
                .ok_or_else(|| err(format!("normal_stiffness: no contact named \"{contact}\"")))?;
            let between = &contact_ends[c];
            let has_gap = self.normal_gaps.iter().any(|(n, _)| n == contact);
            let g =
                planar::contact_normal(&names, &mut seen, contact, between, Some(*kn), Some(*g0), has_gap)
                    .map_err(inv)?;
            if let Some((g, lateral)) = g {
                contacts[c].normal_gap = Some(gaps.len());
                gaps.push(g);
                if let Some(lateral) = lateral {
                    planes.push(planar::plane(&contacts[c], c, lateral).map_err(inv)?);
                }
            }
        }
        for (contact, gap) in &self.normal_gaps {
            let c = contacts
                .iter()
                .position(|c| &c.name == contact)
                .ok_or_else(|| err(format!("normal_gap: no contact named \"{contact}\"")))?;
            contacts[c].normal_gap = Some(check_normal_gap(&contacts[c], &gaps, gap).map_err(err)?);
        }
        let mut stops = Vec::new();
        for (body, min, max, e) in &self.stops {
            stops.push(check_stop(&names, &bodies, body, *min, *max, *e, 0).map_err(inv)?);
        }
        for r in &self.rotational {
            match names.member(r, "kind", "rotational").map_err(inv)? {
                Member::Body(i) => bodies[i].kind = crate::system::units::Kind::Rotational,
                Member::Driver(i) => drivers[i].kind = crate::system::units::Kind::Rotational,
                Member::Ground => return Err(err("rotational: the ground has no kind".into())),
                Member::Dof { .. } => {
                    return Err(err(format!(
                        "rotational: \"{r}\" is a structure's DOF, whose units are its matrices'"
                    )))
                }
            }
        }
        let sys = System {
            name: self.name,
            bodies,
            drivers,
            springs,
            inclined_springs,
            dampers,
            forces,
            contacts,
            gaps,
            stops,
            solver,
            thermal: Default::default(),
            structures,
            planes,
        };
        let mut sys = sys;
        sys.thermal = self.thermal.build(&mut sys).map_err(inv)?;
        crate::system::units::check_kinds(&sys).map_err(|(_, _, e)| inv(e))?;
        planar::check_planes(&sys).map_err(|(_, e)| inv(e))?;
        check_states(&sys).map_err(inv)?;
        check_columns(&sys).map_err(inv)?;
        sys.check_output_size().map_err(err)?;
        Ok(sys)
    }
}
