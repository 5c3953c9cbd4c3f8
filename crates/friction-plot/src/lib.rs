//! # friction-plot
//!
//! Every picture of the `friction` toolkit is drawn here, one way: a
//! [`Figure`] draws itself onto a plotters drawing area of any backend, and
//! [`draw`] writes it to a file as SVG when the path ends in `.svg` and as
//! PNG otherwise ([`draw_as`] takes the format explicitly, as `--svg` flags
//! do). The bundled font (DejaVu Sans Mono, `assets/`) is registered once,
//! inside the drawing entry point, so no caller registers anything.
//!
//! The plot of `friction run` ([`plot`], positions, velocities and forces
//! against time) and [`run_to_dir`] (a run written with its plot) live here
//! too, so that the simulation crate `friction-sim` draws nothing.
//!
//! ```
//! use friction_plot::plotters::prelude::*;
//! use friction_plot::{draw, DrawError, Figure, Shift};
//!
//! /// A diagonal line.
//! struct Diagonal;
//!
//! impl Figure for Diagonal {
//!     fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
//!         let mut chart = ChartBuilder::on(root).caption("diagonal", ("sans-serif", 20)).build_cartesian_2d(0.0..1.0, 0.0..1.0)?;
//!         chart.draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], &BLUE))?;
//!         Ok(())
//!     }
//! }
//!
//! let dir = std::env::temp_dir().join(format!("friction-plot-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! draw(&Diagonal, &dir.join("d.svg"), (320, 240)).unwrap();
//! draw(&Diagonal, &dir.join("d.png"), (320, 240)).unwrap();
//! assert!(std::fs::read_to_string(dir.join("d.svg")).unwrap().starts_with("<svg"));
//! assert_eq!(&std::fs::read(dir.join("d.png")).unwrap()[1..4], b"PNG");
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```
#![warn(missing_docs)]

mod draw;
pub mod run;
pub mod run_plot;

/// The plotting library, re-exported so that every figure is drawn with the
/// same version and features.
pub use plotters;

pub use draw::{draw, draw_as, DrawError, Figure, PlotFormat, Shift};
pub use run::run_to_dir;
pub use run_plot::{plot, plot_as, tick_label};
