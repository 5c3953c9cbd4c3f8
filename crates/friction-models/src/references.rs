//! The bibliography: every paper, report, thesis and post the models and
//! their documentation cite, as data.
//!
//! Text in this project cites a work by its short form [`Reference::cite`]
//! (authors and year, for example "Andersson, Söderberg, Björklund 2007"),
//! followed by the equation or section (`eq. 19`). [`ALL`] holds the full
//! entries; `docs/references.md` is generated from it by [`markdown`] (a test
//! fails when that file is stale), and [`cited_in`] finds the entries a text
//! cites, which is how `friction models ID` prints the full references of a
//! model.
//!
//! ```
//! use friction_models::references;
//! let lugre = friction_models::info("lugre").unwrap();
//! let cited = references::cited_in(lugre.sources);
//! assert!(cited.iter().any(|r| r.key == "canudas1995"));
//! assert!(references::get("andersson2007").unwrap().venue.contains("Tribology International 40"));
//! ```

/// One entry of the bibliography.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    /// Short stable key (`andersson2007`), used in `docs/references.md`.
    pub key: &'static str,
    /// The in-text citation as the documentation writes it (authors and year).
    pub cite: &'static str,
    /// Authors, as printed on the work.
    pub authors: &'static str,
    /// Year of publication, when the work states it.
    pub year: Option<u16>,
    /// Title.
    pub title: &'static str,
    /// Journal (volume, issue, pages), report, thesis, book or web site.
    pub venue: &'static str,
}

impl Reference {
    /// The full entry on one line: authors, year, title, venue.
    ///
    /// ```
    /// let r = friction_models::references::get("dahl1968").unwrap();
    /// assert!(r.full().starts_with("P.R. Dahl (1968). A solid friction model."));
    /// ```
    pub fn full(&self) -> String {
        let year = self.year.map(|y| format!(" ({y})")).unwrap_or_default();
        format!("{}{year}. {}. {}.", self.authors, self.title, self.venue)
    }
}

macro_rules! refs {
    ($({$key:literal, $cite:literal, $authors:literal, $year:expr, $title:literal, $venue:literal},)*) => {
        /// Every entry, the five documents the project was built from first,
        /// then the original papers in alphabetical order of their key.
        pub const ALL: &[Reference] = &[$(Reference {
            key: $key, cite: $cite, authors: $authors, year: $year, title: $title, venue: $venue,
        },)*];
    };
}

refs! {
    {"otter1999", "Otter, Elmqvist, Mattsson 1999", "M. Otter, H. Elmqvist, S.E. Mattsson", Some(1999),
     "Hybrid modeling in Modelica based on the synchronous data flow principle",
     "Proceedings of the IEEE International Symposium on Computer Aided Control System Design (CACSD'99), Hawaii"},
    {"msl", "the Modelica Standard Library", "Modelica Association", None,
     "Modelica Standard Library, Modelica.Mechanics.Rotational (Components.Clutch, Components.Brake: friction table mu_pos and static factor peak)",
     "https://github.com/modelica/ModelicaStandardLibrary"},
    {"andersson2007", "Andersson, Söderberg, Björklund 2007", "S. Andersson, A. Söderberg, S. Björklund", Some(2007),
     "Friction models for sliding dry, boundary and mixed lubricated contacts",
     "Tribology International 40(4), 580-587"},
    {"albender", "Al-Bender (Fundamentals of friction modeling)", "F. Al-Bender", None,
     "Fundamentals of friction modeling",
     "overview paper (conference communication); the copy used states neither year nor venue"},
    {"olsson1996", "Olsson 1996", "H. Olsson", Some(1996),
     "Control Systems with Friction, chapter 2: Friction Modeling",
     "PhD thesis, Department of Automatic Control, Lund Institute of Technology, Lund, Sweden"},
    {"sandia", "the Sandia friction-model study", "Sandia National Laboratories (the copy used does not list the authors)", None,
     "[Advanced friction models implemented as user-defined contact models (VFRIC) in Abaqus/Explicit and compared on a bolted C-beam]",
     "Sandia National Laboratories study of friction models for jointed structures; title in brackets describes the untitled copy used"},
    {"daniel2014", "Daniel 2014", "Daniel", Some(2014),
     "Modelling friction in 1d dynamics",
     "blog post, \"fun with friction\" (hmbd.wordpress.com), 9 May 2014"},
    {"albender2005", "Al-Bender, Lampaert, Swevers 2005", "F. Al-Bender, V. Lampaert, J. Swevers", Some(2005),
     "The generalized Maxwell-slip model: a novel model for friction simulation and compensation",
     "IEEE Transactions on Automatic Control 50(11), 1883-1887"},
    {"andersson1993", "Andersson 1993", "Andersson", Some(1993),
     "(cited by Olsson 1996, section 2.3, for the Stribeck exponent; title not given here)",
     "see the reference list of Olsson 1996"},
    {"armstrong1991", "Armstrong-Hélouvry 1991", "B. Armstrong-Hélouvry", Some(1991),
     "Control of Machines with Friction", "Kluwer Academic Publishers, Boston"},
    {"armstrong1994", "Armstrong-Hélouvry, Dupont, Canudas de Wit 1994", "B. Armstrong-Hélouvry, P. Dupont, C. Canudas de Wit", Some(1994),
     "A survey of models, analysis tools and compensation methods for the control of machines with friction",
     "Automatica 30(7), 1083-1138"},
    {"bakker1987", "Bakker, Nyborg, Pacejka 1987", "E. Bakker, L. Nyborg, H.B. Pacejka", Some(1987),
     "Tyre modelling for use in vehicle dynamics studies", "SAE Technical Paper 870421"},
    {"bliman1995", "Bliman, Bonald, Sorine 1995", "P.-A. Bliman, T. Bonald, M. Sorine", Some(1995),
     "Hysteresis operators and tyre friction models. Application to vehicle dynamic simulation",
     "ICIAM 95, Hamburg"},
    {"blimansorine1995", "Bliman and Sorine 1995", "P.-A. Bliman, M. Sorine", Some(1995),
     "Easy-to-use realistic dry friction models for automatic control",
     "Proc. 3rd European Control Conference, Rome, 3788-3794"},
    {"bo1982", "Bo and Pavelescu 1982", "L.C. Bo, D. Pavelescu", Some(1982),
     "The friction-speed relation and its influence on the critical velocity of stick-slip motion",
     "Wear 82(3), 277-289"},
    {"bouc1967", "Bouc 1967", "R. Bouc", Some(1967),
     "Forced vibrations of mechanical systems with hysteresis",
     "Proc. 4th Conference on Nonlinear Oscillations, Prague"},
    {"burridge1967", "Burridge and Knopoff 1967", "R. Burridge, L. Knopoff", Some(1967),
     "Model and theoretical seismicity", "Bulletin of the Seismological Society of America 57(3), 341-371"},
    {"canudas1995", "Canudas de Wit, Olsson, Åström, Lischinsky 1995", "C. Canudas de Wit, H. Olsson, K.J. Åström, P. Lischinsky", Some(1995),
     "A new model for control of systems with friction", "IEEE Transactions on Automatic Control 40(3), 419-425"},
    {"coulomb1785", "Coulomb 1785", "C.A. Coulomb", Some(1785),
     "Théorie des machines simples", "Mémoires de mathématique et de physique de l'Académie royale des sciences 10, 161-331"},
    {"dahl1968", "Dahl 1968", "P.R. Dahl", Some(1968),
     "A solid friction model", "Technical report TOR-0158(3107-18)-1, The Aerospace Corporation, El Segundo"},
    {"dankowicz1999", "Dankowicz 1999", "H. Dankowicz", Some(1999),
     "On the modeling of dynamic friction phenomena", "ZAMM 79(6), 399-409"},
    {"dieterich1979", "Dieterich 1979", "J.H. Dieterich", Some(1979),
     "Modeling of rock friction: 1. Experimental results and constitutive equations",
     "Journal of Geophysical Research 84(B5), 2161-2168"},
    {"dupont2002", "Dupont, Hayward, Armstrong, Altpeter 2002", "P. Dupont, V. Hayward, B. Armstrong, F. Altpeter", Some(2002),
     "Single state elastoplastic friction models", "IEEE Transactions on Automatic Control 47(5), 787-792"},
    {"haessig1991", "Haessig and Friedland 1991", "D.A. Haessig, B. Friedland", Some(1991),
     "On the modeling and simulation of friction",
     "Journal of Dynamic Systems, Measurement, and Control 113(3), 354-362"},
    {"hess1990", "Hess and Soom 1990", "D.P. Hess, A. Soom", Some(1990),
     "Friction at a lubricated line contact operating at oscillating sliding velocities",
     "Journal of Tribology 112(1), 147-152"},
    {"iwan1966", "Iwan 1966", "W.D. Iwan", Some(1966),
     "A distributed-element model for hysteresis and its steady-state dynamic response",
     "Journal of Applied Mechanics 33(4), 893-900"},
    {"karnopp1985", "Karnopp 1985", "D. Karnopp", Some(1985),
     "Computer simulation of stick-slip friction in mechanical dynamic systems",
     "Journal of Dynamic Systems, Measurement, and Control 107(1), 100-103"},
    {"lampaert2002", "Lampaert, Swevers, Al-Bender 2002", "V. Lampaert, J. Swevers, F. Al-Bender", Some(2002),
     "Modification of the Leuven integrated friction model structure",
     "IEEE Transactions on Automatic Control 47(4), 683-687"},
    {"lampaert2003", "Lampaert, Al-Bender, Swevers 2003", "V. Lampaert, F. Al-Bender, J. Swevers", Some(2003),
     "A generalized Maxwell-slip friction model appropriate for control purposes",
     "Proc. IEEE International Conference on Physics and Control (PhysCon 2003), St. Petersburg"},
    {"lapusta2000", "Lapusta, Rice, Ben-Zion, Zheng 2000", "N. Lapusta, J.R. Rice, Y. Ben-Zion, G. Zheng", Some(2000),
     "Elastodynamic analysis for slow tectonic loading with spontaneous rupture episodes on faults with rate- and state-dependent friction",
     "Journal of Geophysical Research 105(B10), 23765-23789"},
    {"mignolet2015", "Mignolet, Song, Wang 2015", "M.P. Mignolet, P. Song, X.Q. Wang", Some(2015),
     "A stochastic Iwan-type model for joint behavior variability modeling",
     "Journal of Sound and Vibration 349, 289-298"},
    {"morin1833", "Morin 1833", "A.J. Morin", Some(1833),
     "Nouvelles expériences sur le frottement", "Mémoires présentés par divers savants à l'Académie royale des sciences 4, 1-128"},
    {"pacejka2002", "Pacejka 2002", "H.B. Pacejka", Some(2002),
     "Tyre and Vehicle Dynamics", "Butterworth-Heinemann, Oxford"},
    {"pfeiffer1996", "Pfeiffer and Glocker 1996", "F. Pfeiffer, C. Glocker", Some(1996),
     "Multibody Dynamics with Unilateral Contacts", "Wiley, New York"},
    {"reynolds1886", "Reynolds 1886", "O. Reynolds", Some(1886),
     "On the theory of lubrication and its application to Mr. Beauchamp Tower's experiments",
     "Philosophical Transactions of the Royal Society of London 177, 157-234"},
    {"rice1996", "Rice and Ben-Zion 1996", "J.R. Rice, Y. Ben-Zion", Some(1996),
     "Slip complexity in earthquake fault models", "Proceedings of the National Academy of Sciences 93(9), 3811-3818"},
    {"ruina1983", "Ruina 1983", "A. Ruina", Some(1983),
     "Slip instability and state variable friction laws", "Journal of Geophysical Research 88(B12), 10359-10370"},
    {"segalman2005", "Segalman 2005", "D.J. Segalman", Some(2005),
     "A four-parameter Iwan model for lap-type joints", "Journal of Applied Mechanics 72(5), 752-760"},
    {"shinozuka1972", "Shinozuka and Jan 1972", "M. Shinozuka, C.-M. Jan", Some(1972),
     "Digital simulation of random processes and its applications", "Journal of Sound and Vibration 25(1), 111-128"},
    {"skf1970", "SKF 1970", "SKF", Some(1970),
     "(cited by Olsson 1996, section 2.3, for the Stribeck exponent; title not given here)",
     "see the reference list of Olsson 1996"},
    {"stribeck1902", "Stribeck 1902", "R. Stribeck", Some(1902),
     "Die wesentlichen Eigenschaften der Gleit- und Rollenlager", "Zeitschrift des Vereins Deutscher Ingenieure 46"},
    {"swevers2000", "Swevers, Al-Bender, Ganseman, Prajogo 2000", "J. Swevers, F. Al-Bender, C.G. Ganseman, T. Prajogo", Some(2000),
     "An integrated friction model structure with improved presliding behavior for accurate friction compensation",
     "IEEE Transactions on Automatic Control 45(4), 675-686"},
    {"tustin1947", "Tustin 1947", "A. Tustin", Some(1947),
     "The effects of backlash and of speed-dependent friction on the stability of closed-cycle control systems",
     "Journal of the Institution of Electrical Engineers, Part IIA, 94, 143-151"},
    {"wen1976", "Wen 1976", "Y.-K. Wen", Some(1976),
     "Method for random vibration of hysteretic systems",
     "Journal of the Engineering Mechanics Division (ASCE) 102(2), 249-263"},
}

/// The entry with key `key`.
pub fn get(key: &str) -> Option<&'static Reference> {
    ALL.iter().find(|r| r.key == key)
}

/// The entries whose in-text citation ([`Reference::cite`]) occurs in
/// `text`, in the order of [`ALL`].
pub fn cited_in(text: &str) -> Vec<&'static Reference> {
    ALL.iter().filter(|r| text.contains(r.cite)).collect()
}

/// `text` with every in-text citation replaced by the full entry in
/// parentheses after it: "Dahl 1968 (P.R. Dahl (1968). A solid friction
/// model. ...)". Used where a text stands alone (the C library's and the
/// Python package's `describe`).
pub fn expand(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut rest = text;
    'outer: while !rest.is_empty() {
        for r in ALL {
            if rest.starts_with(r.cite) {
                out.push_str(r.cite);
                out.push_str(" [");
                out.push_str(&r.full());
                out.push(']');
                rest = &rest[r.cite.len()..];
                continue 'outer;
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The text of `docs/references.md`: every entry as a Markdown list item
/// under its key.
pub fn markdown() -> String {
    let mut m = String::from(
        "# References\n\n\
         <!-- Generated from crates/friction-models/src/references.rs by \
         `FRICTION_BLESS=1 cargo test -p friction-models --test references`; do not edit by hand. -->\n\n\
         The documentation, the model descriptions (`friction models ID`) and the code comments cite these \
         works by the short form in the second column, followed by an equation, section or figure number \
         of that work.\n\n\
         The first five are the documents the project was built from; the others are the original papers \
         the models come from.\n\n\
         | key | cited as | reference |\n| --- | --- | --- |\n",
    );
    for r in ALL {
        m.push_str(&format!("| `{}` | {} | {} |\n", r.key, r.cite, r.full().replace('|', "\\|")));
    }
    m
}
