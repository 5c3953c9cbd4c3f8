//! One figure drawn into a PNG or an SVG file, the backend chosen by the
//! file's extension (`.svg`: SVG, anything else: PNG), so that each plot is
//! written once, generic over the backend.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::AnalysisError;

/// Something that draws itself onto a drawing area of any backend.
pub(crate) trait Figure {
    /// Draw onto `root`; `path` names the file in error messages.
    fn draw<DB: DrawingBackend>(
        &self,
        root: DrawingArea<DB, Shift>,
        path: &Path,
    ) -> Result<(), AnalysisError>;
}

/// Draw `fig` into `path` at `size` pixels, as SVG when the extension is
/// `svg` and as PNG otherwise.
pub(crate) fn plot_to(fig: &impl Figure, path: &Path, size: (u32, u32)) -> Result<(), AnalysisError> {
    if path.extension().is_some_and(|e| e == "svg") {
        fig.draw(SVGBackend::new(path, size).into_drawing_area(), path)
    } else {
        fig.draw(BitMapBackend::new(path, size).into_drawing_area(), path)
    }
}
