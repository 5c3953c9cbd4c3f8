//! The analyses' pictures go through the one drawing entry point of
//! `friction-plot` (PNG or SVG by the file's extension, the font registered
//! there); this adapter only names the file in the error.

use std::path::Path;

use friction_plot::PlotFormat;
pub use friction_plot::{DrawError, Figure};

use crate::AnalysisError;

fn io(path: &Path) -> impl Fn(DrawError) -> AnalysisError + '_ {
    move |e| AnalysisError::Io { path: path.display().to_string(), message: e.to_string() }
}

/// Draw `fig` into `path` at `size` pixels, as SVG when the extension is
/// `svg` and as PNG otherwise.
pub fn plot_to(fig: &impl Figure, path: &Path, size: (u32, u32)) -> Result<(), AnalysisError> {
    friction_plot::draw(fig, path, size).map_err(io(path))
}

/// [`plot_to`] in the given format whatever the extension.
pub fn plot_as(
    fig: &impl Figure,
    path: &Path,
    size: (u32, u32),
    format: PlotFormat,
) -> Result<(), AnalysisError> {
    friction_plot::draw_as(fig, path, size, format).map_err(io(path))
}
