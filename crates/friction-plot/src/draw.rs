//! The one drawing entry point: the format by the path's extension, the
//! font registered once, the background filled white, the figure drawn,
//! the file written.

use std::path::Path;

use plotters::prelude::*;

/// The coordinate type of a whole drawing area (plotters' `Shift`).
pub use plotters::coord::Shift;

/// The bundled font, DejaVu Sans Mono (licence in `assets/DejaVu-LICENSE.txt`).
static FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");

/// Register the bundled font with plotters as `sans-serif`, once per process.
fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // the font is compiled in; failure would be a build defect
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// Image format of a picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PlotFormat {
    /// PNG bitmap (the default).
    #[default]
    Png,
    /// SVG vector graphics.
    Svg,
}

impl PlotFormat {
    /// `png` or `svg`.
    pub fn extension(self) -> &'static str {
        match self {
            PlotFormat::Png => "png",
            PlotFormat::Svg => "svg",
        }
    }

    /// The format a path asks for: SVG when its extension is `svg` (in any
    /// case), PNG otherwise.
    ///
    /// ```
    /// use friction_plot::PlotFormat;
    /// use std::path::Path;
    /// assert_eq!(PlotFormat::of(Path::new("out/plot.svg")), PlotFormat::Svg);
    /// assert_eq!(PlotFormat::of(Path::new("out/plot.png")), PlotFormat::Png);
    /// assert_eq!(PlotFormat::of(Path::new("out/plot")), PlotFormat::Png);
    /// ```
    pub fn of(path: &Path) -> Self {
        match path.extension() {
            Some(e) if e.eq_ignore_ascii_case("svg") => PlotFormat::Svg,
            _ => PlotFormat::Png,
        }
    }
}

/// What went wrong while drawing (a backend's or a figure's message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawError(String);

impl DrawError {
    /// A figure's own error.
    pub fn new(message: impl Into<String>) -> Self {
        DrawError(message.into())
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DrawError {}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for DrawError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        DrawError(e.to_string())
    }
}

impl From<String> for DrawError {
    fn from(e: String) -> Self {
        DrawError(e)
    }
}

/// Something that draws itself onto a drawing area of any backend (the
/// area comes filled white; [`draw`] writes it out afterwards).
pub trait Figure {
    /// Draw onto `root`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError>;
}

/// Draw `fig` into `path` at `size` pixels: SVG when the path's extension
/// is `svg`, PNG otherwise ([`PlotFormat::of`]).
pub fn draw(fig: &impl Figure, path: &Path, size: (u32, u32)) -> Result<(), DrawError> {
    draw_as(fig, path, size, PlotFormat::of(path))
}

/// [`draw`] in the given format whatever the path's extension.
pub fn draw_as(
    fig: &impl Figure,
    path: &Path,
    size: (u32, u32),
    format: PlotFormat,
) -> Result<(), DrawError> {
    register_font();
    match format {
        PlotFormat::Png => render(BitMapBackend::new(path, size).into_drawing_area(), fig),
        PlotFormat::Svg => render(SVGBackend::new(path, size).into_drawing_area(), fig),
    }
}

fn render<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, fig: &impl Figure) -> Result<(), DrawError> {
    root.fill(&WHITE)?;
    fig.draw(&root)?;
    root.present()?;
    Ok(())
}
