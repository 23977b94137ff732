//! Small self-contained SVG charts (no fonts or network needed), and the
//! calibration plot of `evallab calibrate --plot`.

use std::fmt::Write as _;
use std::path::Path;

use super::escape;
use crate::Error;
use crate::metrics::calibrate::{Calibration, GameObs};
use crate::metrics::wdl::Fitted;

/// One line or point series of a chart.
#[derive(Debug, Clone)]
pub struct Series {
    pub label: String,
    pub color: &'static str,
    /// Dashed line.
    pub dashed: bool,
    /// The points' shape (series of points only).
    pub marker: Marker,
    /// (x, y, point radius): a radius > 0 draws points, 0 draws a line.
    pub points: Vec<(f64, f64, f64)>,
}

/// The shape of a point series' points: two series of one colour (wins and
/// draws of one material band) told apart by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    Dot,
    Square,
}

impl Marker {
    /// The SVG element of a point at (x, y) of radius `r` (a square of the
    /// same area as the dot would have less ink: its side is 1.6 r).
    fn svg(self, x: f64, y: f64, r: f64) -> String {
        match self {
            Marker::Dot => format!(r#"<circle cx="{x:.0}" cy="{y:.0}" r="{r:.1}"/>"#),
            Marker::Square => format!(
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"/>"#,
                x - 0.8 * r,
                y - 0.8 * r,
                1.6 * r,
                1.6 * r
            ),
        }
    }
}

/// A chart panel: axes with ranges and labels, and its series.
#[derive(Debug, Clone)]
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    pub series: Vec<Series>,
}

/// Colours that stay distinct for colour-blind readers (Okabe-Ito).
pub const PALETTE: [&str; 7] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
];

/// Nice tick step for a range.
fn step(span: f64) -> f64 {
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

/// Margins of a chart panel: left, right, top, bottom.
const MARGINS: (f64, f64, f64, f64) = (56.0, 12.0, 28.0, 44.0);

/// Data to pixel coordinates of a chart drawn at (ox, oy) with size (w, h).
fn scale(c: &Chart, ox: f64, oy: f64, w: f64, h: f64) -> impl Fn(f64, f64) -> (f64, f64) {
    let (l, r, t, b) = MARGINS;
    let (pw, ph) = (w - l - r, h - t - b);
    let (xr, yr) = (c.x_range, c.y_range);
    move |x, y| {
        (
            ox + l + (x - xr.0) / (xr.1 - xr.0) * pw,
            oy + t + ph - (y - yr.0) / (yr.1 - yr.0) * ph,
        )
    }
}

/// Draws one chart into `svg` at (ox, oy) with size (w, h).
pub fn draw(svg: &mut String, c: &Chart, ox: f64, oy: f64, w: f64, h: f64) {
    let (l, r, t, b) = MARGINS;
    let (pw, ph) = (w - l - r, h - t - b);
    let px = scale(c, ox, oy, w, h);
    let sx = |x: f64| px(x, c.y_range.0).0;
    let sy = |y: f64| px(c.x_range.0, y).1;
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="14" font-weight="bold">{}</text>"#,
        ox + l,
        oy + 18.0,
        escape(&c.title)
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{:.1}" y="{:.1}" width="{pw:.1}" height="{ph:.1}" fill="none" stroke="#444"/>"##,
        ox + l,
        oy + t
    );
    for (axis, (lo, hi)) in [(0, c.x_range), (1, c.y_range)] {
        let st = step(hi - lo);
        let mut v = (lo / st).ceil() * st;
        while v <= hi + 1e-9 {
            let label = if st < 1.0 {
                format!("{v:.2}")
            } else {
                format!("{v:.0}")
            };
            if axis == 0 {
                let x = sx(v);
                let _ = writeln!(
                    svg,
                    r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#ddd"/><text x="{x:.1}" y="{:.1}" font-size="11" text-anchor="middle">{label}</text>"##,
                    oy + t,
                    oy + t + ph,
                    oy + t + ph + 15.0
                );
            } else {
                let y = sy(v);
                let _ = writeln!(
                    svg,
                    r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end">{label}</text>"##,
                    ox + l,
                    ox + l + pw,
                    ox + l - 5.0,
                    y + 4.0
                );
            }
            v += st;
        }
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}</text>"#,
        ox + l + pw / 2.0,
        oy + h - 8.0,
        escape(&c.x_label)
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate({:.1},{:.1}) rotate(-90)" font-size="12" text-anchor="middle">{}</text>"#,
        ox + 14.0,
        oy + t + ph / 2.0,
        escape(&c.y_label)
    );
    let inside = |x: f64, y: f64| {
        (c.x_range.0..=c.x_range.1).contains(&x) && (c.y_range.0..=c.y_range.1).contains(&y)
    };
    for s in &c.series {
        // Whole pixels, the colour once per series, a line's points that
        // fall on the pixel before left out, the rest as moves: a report of
        // 13 events draws thousands of points, and a tenth of a pixel shows
        // nowhere.
        if s.points.iter().any(|p| p.2 > 0.0) {
            let _ = write!(svg, r#"<g fill="{}" fill-opacity="0.55">"#, s.color);
            for &(x, y, rad) in s.points.iter().filter(|p| inside(p.0, p.1)) {
                svg.push_str(&s.marker.svg(sx(x).round(), sy(y).round(), rad));
            }
            svg.push_str("</g>\n");
        } else {
            let mut path: Vec<(i64, i64)> = s
                .points
                .iter()
                .filter(|p| inside(p.0, p.1))
                .map(|&(x, y, _)| (sx(x).round() as i64, sy(y).round() as i64))
                .collect();
            path.dedup();
            let Some(&(x0, y0)) = path.first() else {
                continue;
            };
            // Moves from point to point: shorter than absolute coordinates.
            let steps: Vec<String> = path
                .windows(2)
                .map(|w| format!("{},{}", w[1].0 - w[0].0, w[1].1 - w[0].1))
                .collect();
            let dash = if s.dashed {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            };
            let _ = writeln!(
                svg,
                r#"<path d="M{x0},{y0}l{}" fill="none" stroke="{}" stroke-width="2"{dash}/>"#,
                steps.join(" "),
                s.color
            );
        }
    }
    // Legend in the corner of the plot area that covers the fewest of the
    // series' points (bottom right, then bottom left, top left, top right on
    // a tie: curves rising from the origin leave the bottom right free), on
    // a translucent box; unlabelled series stay out of it.
    let legend: Vec<&Series> = c.series.iter().filter(|s| !s.label.is_empty()).collect();
    let n = legend.len() as f64;
    let lw = 8.0
        + 6.5
            * legend
                .iter()
                .map(|s| s.label.chars().count())
                .max()
                .unwrap_or(0) as f64
        + 30.0;
    let lh = 15.0 * n + 6.0;
    let corners = [
        (ox + l + pw - lw - 6.0, oy + t + ph - lh - 6.0),
        (ox + l + 6.0, oy + t + ph - lh - 6.0),
        (ox + l + 6.0, oy + t + 6.0),
        (ox + l + pw - lw - 6.0, oy + t + 6.0),
    ];
    let covered = |&(cx, cy): &(f64, f64)| {
        c.series
            .iter()
            .flat_map(|s| &s.points)
            .filter(|p| inside(p.0, p.1))
            .filter(|p| {
                let (x, y) = (sx(p.0), sy(p.1));
                (cx - 4.0..=cx + lw + 4.0).contains(&x) && (cy - 4.0..=cy + lh + 4.0).contains(&y)
            })
            .count()
    };
    let (lx, ly) = corners
        .iter()
        .min_by_key(|c| covered(c))
        .copied()
        .unwrap_or(corners[0]);
    let _ = writeln!(
        svg,
        r##"<rect x="{lx:.1}" y="{ly:.1}" width="{lw:.1}" height="{lh:.1}" fill="white" fill-opacity="0.85" stroke="#bbb"/>"##,
    );
    for (i, s) in legend.iter().enumerate() {
        let y = ly + 15.0 + 15.0 * i as f64;
        let x = lx + 6.0;
        let mark = if s.points.iter().any(|p| p.2 > 0.0) {
            format!(
                r#"<g fill="{}">{}</g>"#,
                s.color,
                s.marker.svg(x + 8.0, y - 4.0, 4.0)
            )
        } else {
            let dash = if s.dashed {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            };
            format!(
                r#"<line x1="{x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="2"{dash}/>"#,
                y - 4.0,
                x + 16.0,
                y - 4.0,
                s.color
            )
        };
        let _ = writeln!(
            svg,
            r#"{mark}<text x="{:.1}" y="{y:.1}" font-size="11">{}</text>"#,
            x + 22.0,
            escape(&s.label)
        );
    }
}

/// Lays charts out in a grid and returns the SVG document.
pub fn grid(charts: &[Chart], columns: usize, w: f64, h: f64) -> String {
    let cols = columns.max(1).min(charts.len().max(1));
    let rows = charts.len().div_ceil(cols).max(1);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" font-family="DejaVu Sans, Arial, sans-serif">"#,
        w * cols as f64,
        h * rows as f64
    );
    svg.push_str("\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    for (i, c) in charts.iter().enumerate() {
        draw(
            &mut svg,
            c,
            (i % cols) as f64 * w,
            (i / cols) as f64 * h,
            w,
            h,
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// One engine's data for the calibration plot.
#[derive(Debug)]
pub struct CalibrationPanel<'a> {
    pub title: String,
    pub games: &'a [GameObs],
    pub calibration: &'a Calibration,
}

/// Win probability at own eval x ≥ 0 when x05 is where it reaches 50 %: the
/// win part of §2.3's P(x) (for x > 0, P = W + D/2 with no losses, W = 2P − 1).
fn win_curve(x05: f64) -> impl Fn(f64) -> f64 {
    move |x| 1.0 - 2f64.powf(-x / x05)
}

/// TCEC's published win% = 200·e^(0.575517x)/(e^(0.575517x)+1) − 100, as a fraction.
fn tcec_curve(x: f64) -> f64 {
    let e = (0.575517 * x).exp();
    2.0 * e / (e + 1.0) - 1.0
}

fn sample(f: impl Fn(f64) -> f64) -> Vec<(f64, f64, f64)> {
    (0..=80)
        .map(|i| f64::from(i) * 0.05)
        .map(|x| (x, f(x), 0.0))
        .collect()
}

/// Builds the calibration chart of one engine: empirical win rate of positions
/// by own eval (0.2-pawn bins, point area ∝ positions), the curves of each
/// estimate, TCEC's formula and the Stockfish convention.
pub fn calibration_chart(p: &CalibrationPanel) -> Chart {
    let mut bins = [(0u32, 0u32); 20];
    for g in p.games {
        for &cp in &g.evals {
            if (0..400).contains(&cp) {
                let b = &mut bins[(cp / 20) as usize];
                b.0 += 1;
                b.1 += u32::from(g.won);
            }
        }
    }
    let max_n = bins.iter().map(|b| b.0).max().unwrap_or(1).max(1) as f64;
    let empirical = bins
        .iter()
        .enumerate()
        .filter(|(_, b)| b.0 > 0)
        .map(|(i, b)| {
            let r = 2.0 + 6.0 * (f64::from(b.0) / max_n).sqrt();
            (0.1 + 0.2 * i as f64, f64::from(b.1) / f64::from(b.0), r)
        })
        .collect();
    let mut series = vec![Series {
        label: "positions: win rate by own eval (dot area ∝ positions)".into(),
        color: PALETTE[6],
        dashed: false,
        marker: Marker::Dot,
        points: empirical,
    }];
    let c = p.calibration;
    for (i, (name, v)) in [
        ("rank", c.rank.value),
        ("threshold", c.threshold.value),
        ("ml fit", c.ml.value),
    ]
    .into_iter()
    .enumerate()
    {
        if let Some(x05) = v.filter(|v| *v > 0.0 && *v < 100.0) {
            series.push(Series {
                label: format!("{name}: x05 = {x05:.2}"),
                color: PALETTE[i],
                dashed: false,
                marker: Marker::Dot,
                points: sample(win_curve(x05)),
            });
        }
    }
    series.push(Series {
        label: "TCEC formula (50% at 1.91)".into(),
        color: PALETTE[3],
        dashed: true,
        marker: Marker::Dot,
        points: sample(tcec_curve),
    });
    series.push(Series {
        label: "Stockfish convention (+1.00 = 50%)".into(),
        color: PALETTE[4],
        dashed: true,
        marker: Marker::Dot,
        points: sample(win_curve(1.0)),
    });
    Chart {
        title: format!("{} ({} games)", p.title, p.games.len()),
        x_label: "own eval (pawns)".into(),
        y_label: "P(win)".into(),
        x_range: (0.0, 4.0),
        y_range: (0.0, 1.0),
        series,
    }
}

/// Writes the calibration plot: SVG, or PNG rendered from the SVG.
pub fn calibration(panels: &[CalibrationPanel], path: &Path) -> Result<(), Error> {
    let charts: Vec<Chart> = panels.iter().map(calibration_chart).collect();
    let svg = grid(&charts, 2, 560.0, 380.0);
    save(&svg, path)
}

/// The WDL model plot (`wdl --plot`), WDL_model's summary in two panels per
/// group (the first four): the observed win and draw rates by eval at three
/// material bands with the model's curves at each band's middle, and a, b by
/// material with the local fits they were smoothed from.
pub fn wdl(fitted: &Fitted, path: &Path) -> Result<(), Error> {
    let charts = wdl_charts(fitted);
    if charts.is_empty() {
        return Err(Error::InputData(
            "wdl --plot: no group has a fit to draw".into(),
        ));
    }
    save(&grid(&charts, 2, 620.0, 420.0), path)
}

/// The panels of [`wdl`]: two per group with a fit (the first four groups).
pub fn wdl_charts(fitted: &Fitted) -> Vec<Chart> {
    let s = &fitted.settings;
    let emax = f64::from(s.eval_max);
    let bands = [(17, 29), (30, 49), (50, 78)];
    let mut charts = Vec::new();
    for g in fitted.groups.iter().take(4) {
        let name = if g.key.is_empty() {
            "all".to_string()
        } else {
            g.key.join(" · ")
        };
        let Ok(fit) = &g.fit else {
            continue;
        };
        let mut rates = Vec::new();
        for (i, &(lo, hi)) in bands.iter().enumerate() {
            let color = PALETTE[i];
            let obs = g.rates(s, lo, hi);
            let big: Vec<_> = obs.into_iter().filter(|o| o.1 >= 20.0).collect();
            let mid = f64::from(lo + hi) / 2.0;
            let curve = |f: &dyn Fn(f64) -> f64| -> Vec<(f64, f64, f64)> {
                (0..=160)
                    .map(|k| -emax + f64::from(k) * emax / 80.0)
                    .map(|x| (x, f(x), 0.0))
                    .collect()
            };
            rates.push(Series {
                label: format!("wins, material {lo}–{hi}"),
                color,
                dashed: false,
                marker: Marker::Dot,
                points: big.iter().map(|o| (o.0, o.2, 1.6)).collect(),
            });
            rates.push(Series {
                label: format!("draws, material {lo}–{hi}"),
                color,
                dashed: false,
                marker: Marker::Square,
                points: big.iter().map(|o| (o.0, o.3, 1.0)).collect(),
            });
            rates.push(Series {
                label: format!("model at {mid}"),
                color,
                dashed: false,
                marker: Marker::Dot,
                points: curve(&|x| fit.model.wdl(x, mid).0),
            });
            rates.push(Series {
                label: String::new(),
                color,
                dashed: true,
                marker: Marker::Dot,
                points: curve(&|x| fit.model.wdl(x, mid).1),
            });
        }
        charts.push(Chart {
            title: format!("{name}: win (solid) and draw (dashed) rate by eval"),
            x_label: "eval of the side to move (cp)".into(),
            y_label: "rate".into(),
            x_range: (-emax, emax),
            y_range: (0.0, 1.0),
            series: rates,
        });
        let ms: Vec<f64> = (s.material_min..=s.material_max).map(f64::from).collect();
        let top = ms
            .iter()
            .map(|&m| fit.model.a(m))
            .chain(fit.local.iter().map(|l| l.1))
            .fold(0.0f64, f64::max)
            * 1.1;
        charts.push(Chart {
            title: format!("{name}: a and b by material (a/100 = x05 in pawns)"),
            x_label: "material (1,3,3,5,9)".into(),
            y_label: "cp".into(),
            x_range: (f64::from(s.material_min), f64::from(s.material_max)),
            y_range: (0.0, top.max(1.0)),
            series: vec![
                Series {
                    label: "a, local fits".into(),
                    color: PALETTE[0],
                    dashed: false,
                    marker: Marker::Dot,
                    points: fit
                        .local
                        .iter()
                        .map(|l| (f64::from(l.0), l.1, 2.0))
                        .collect(),
                },
                Series {
                    label: "a(m)".into(),
                    color: PALETTE[0],
                    dashed: false,
                    marker: Marker::Dot,
                    points: ms.iter().map(|&m| (m, fit.model.a(m), 0.0)).collect(),
                },
                Series {
                    label: "b, local fits".into(),
                    color: PALETTE[1],
                    dashed: false,
                    marker: Marker::Dot,
                    points: fit
                        .local
                        .iter()
                        .map(|l| (f64::from(l.0), l.2, 2.0))
                        .collect(),
                },
                Series {
                    label: "b(m)".into(),
                    color: PALETTE[1],
                    dashed: false,
                    marker: Marker::Dot,
                    points: ms.iter().map(|&m| (m, fit.model.b(m), 0.0)).collect(),
                },
            ],
        });
    }
    charts
}

/// The trade-off of a rule sweep: one point per parameter point, x = wrong
/// results, y = plies saved (%), each point labelled with its parameters.
pub fn tradeoff(title: &str, points: &[(String, f64, f64)], path: &Path) -> Result<(), Error> {
    let hi =
        |f: fn(&(String, f64, f64)) -> f64| points.iter().map(f).fold(0.0f64, f64::max) * 1.1 + 1.0;
    let chart = Chart {
        title: title.to_string(),
        x_label: "wrong results (games)".into(),
        y_label: "plies saved (%)".into(),
        x_range: (0.0, hi(|p| p.1)),
        y_range: (0.0, hi(|p| p.2)),
        series: vec![Series {
            label: format!("{} rule settings", points.len()),
            color: PALETTE[0],
            dashed: false,
            marker: Marker::Dot,
            points: points.iter().map(|p| (p.1, p.2, 4.0)).collect(),
        }],
    };
    let (w, h) = (900.0, 640.0);
    let mut svg = grid(std::slice::from_ref(&chart), 1, w, h);
    let px = scale(&chart, 0.0, 0.0, w, h);
    let labels: String = points
        .iter()
        .map(|(label, x, y)| {
            let (x, y) = px(*x, *y);
            format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\">{}</text>\n",
                x + 5.0,
                y - 3.0,
                escape(label)
            )
        })
        .collect();
    svg.insert_str(svg.len() - "</svg>\n".len(), &labels);
    save(&svg, path)
}

/// Whether a plot can be written to `path` (`.svg` or `.png`): commands
/// check this before they write anything.
pub fn check_path(path: &Path) -> Result<(), Error> {
    match png_or_svg(path) {
        Some(_) => Ok(()),
        None => Err(Error::Usage(format!(
            "{}: plots are written as .svg or .png",
            path.display()
        ))),
    }
}

/// `Some(true)` for `.png`, `Some(false)` for `.svg`.
fn png_or_svg(path: &Path) -> Option<bool> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("png") => Some(true),
        Some("svg") => Some(false),
        _ => None,
    }
}

/// Saves an SVG document as `.svg`, or as `.png` via resvg.
pub fn save(svg: &str, path: &Path) -> Result<(), Error> {
    check_path(path)?;
    if png_or_svg(path) == Some(true) {
        crate::dataset::commit::write_bytes(path, &render_png(svg)?)
    } else {
        crate::render::format::write_text(path, svg)
    }
}

fn render_png(svg: &str) -> Result<Vec<u8>, Error> {
    let mut opt = resvg::usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    let tree =
        resvg::usvg::Tree::from_str(svg, &opt).map_err(|e| Error::Render(format!("svg: {e}")))?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| Error::Render("empty plot".into()))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| Error::Render(format!("png: {e}")))
}

/// Ratings as a figure: per engine, top to bottom, its rating as a dot and
/// its interval at `level` % as a bar (Ordo's summaries in a picture). Rows
/// are (engine, rating, error, connectivity group), by group; an engine
/// without a rating is left out. Every group is drawn on the one axis, but
/// each group's ratings are relative to its own average: a heading row names
/// each group (when there are several) and the caption says so. The axis'
/// ticks are labelled above and below the rows (a long chart keeps its scale
/// in view at both ends); the names' column is as wide as the longest name
/// (up to 48 characters, a longer one cut with "…", whole on hover).
pub fn ratings_chart(rows: &[(String, f64, f64, u32)], level: f64) -> String {
    const MAX_NAME: usize = 48;
    let longest = rows
        .iter()
        .map(|r| r.0.chars().count().min(MAX_NAME))
        .max()
        .unwrap_or(0);
    // About 6.5 px a character at font size 11.
    let name_w = (longest as f64 * 6.5 + 16.0).clamp(80.0, 340.0);
    let (plot_w, row_h, top, bottom) = (560.0, 20.0, 24.0, 44.0);
    let w = name_w + plot_w + 20.0;
    let lo = rows.iter().map(|r| r.1 - r.2).fold(f64::INFINITY, f64::min);
    let hi = rows
        .iter()
        .map(|r| r.1 + r.2)
        .fold(f64::NEG_INFINITY, f64::max);
    // Round hundreds around every interval.
    let (lo, hi) = ((lo / 100.0).floor() * 100.0, (hi / 100.0).ceil() * 100.0);
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (0.0, 100.0)
    };
    let x = |v: f64| name_w + (v - lo) / (hi - lo) * plot_w;
    let groups = rows.windows(2).filter(|w| w[0].3 != w[1].3).count() + 1;
    // A heading row per group when there are several.
    let heading = |i: usize| groups > 1 && (i == 0 || rows[i - 1].3 != rows[i].3);
    let mut y = top;
    let mut layout = Vec::with_capacity(rows.len());
    for i in 0..rows.len() {
        if heading(i) {
            y += row_h;
        }
        layout.push(y + row_h / 2.0);
        y += row_h;
    }
    let axis_y = y;
    // Several groups: a second caption line says what the shared axis means.
    let h = axis_y + bottom + if groups > 1 { 14.0 } else { 0.0 };
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" font-family="DejaVu Sans, Arial, sans-serif" font-size="11">"#
    );
    let st = step(hi - lo);
    let mut v = (lo / st).ceil() * st;
    while v <= hi + 1e-9 {
        let _ = write!(
            svg,
            r##"<line x1="{0:.1}" y1="{top:.1}" x2="{0:.1}" y2="{axis_y:.1}" stroke="#ddd"/><text x="{0:.1}" y="{1:.1}" text-anchor="middle">{v:.0}</text><text x="{0:.1}" y="{2:.1}" text-anchor="middle">{v:.0}</text>"##,
            x(v),
            axis_y + 14.0,
            top - 8.0,
        );
        v += st;
    }
    let _ = write!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="12">Elo, with its {} % interval</text>"#,
        name_w + plot_w / 2.0,
        axis_y + 32.0,
        level,
    );
    if groups > 1 {
        // Centred on the whole width: on the plot's centre, with short
        // names, it ran past the right edge.
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">one axis, but each group is rated against its own average: compare within a group only</text>"#,
            w / 2.0,
            axis_y + 47.0,
        );
    }
    for (i, ((name, rating, err, group), &y)) in rows.iter().zip(&layout).enumerate() {
        if heading(i) {
            let hy = y - row_h;
            let _ = write!(
                svg,
                r##"<line x1="0" y1="{0:.0}" x2="{w:.0}" y2="{0:.0}" stroke="#999" stroke-dasharray="3 3"/><text x="4" y="{1:.0}" fill="#555" font-weight="bold">group {group}</text>"##,
                hy - row_h / 2.0,
                hy + 4.0
            );
        }
        let shown: String = if name.chars().count() > MAX_NAME {
            name.chars().take(MAX_NAME - 1).chain(['…']).collect()
        } else {
            name.clone()
        };
        let _ = write!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end"><title>{}</title>{}</text><line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}" stroke-width="2"/><circle cx="{:.1}" cy="{y:.1}" r="4" fill="{}"/>"##,
            name_w - 8.0,
            y + 4.0,
            escape(name),
            escape(&shown),
            x(rating - err),
            x(rating + err),
            PALETTE[0],
            x(*rating),
            PALETTE[0]
        );
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dot and a bar per engine on round hundreds, the ticks labelled
    /// above and below; groups parted by a heading row of their own (no
    /// engine's row under it), with the caption saying they share the axis
    /// but not the reference; a long name cut, whole on hover.
    #[test]
    fn ratings_chart_draws_intervals_and_parts_groups() {
        let one = ratings_chart(
            &[
                ("A".into(), 2350.0, 40.0, 1),
                ("B<".into(), 2250.0, 40.0, 1),
            ],
            95.0,
        );
        assert_eq!(one.matches("<circle").count(), 2);
        assert!(one.contains(">B&lt;</text>"));
        assert_eq!(one.matches(">2200</text>").count(), 2, "above and below");
        assert!(one.contains("with its 95 % interval</text>"));
        assert!(!one.contains("group 1") && !one.contains("own average"));
        let long = "x".repeat(60);
        let two = ratings_chart(
            &[
                ("A".into(), 2350.0, 40.0, 1),
                (long.clone(), 2300.0, 10.0, 2),
            ],
            90.0,
        );
        assert!(two.contains(">group 1</text>") && two.contains(">group 2</text>"));
        assert!(two.contains("with its 90 % interval</text>"));
        // The second caption line, centred on the whole chart, fits in the
        // narrowest one (short names: 80 px of them) at 6.5 px a character.
        let short = ratings_chart(
            &[("A".into(), 2350.0, 40.0, 1), ("B".into(), 2300.0, 10.0, 2)],
            95.0,
        );
        let attr = |svg: &str, name: &str| -> f64 {
            let at = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            svg[at..at + svg[at..].find('"').unwrap()].parse().unwrap()
        };
        let caption = "one axis, but each group is rated against its own average: compare within a group only";
        let (w, h) = (attr(&short, "width"), attr(&short, "height"));
        let element = &short[short[..short.find(caption).unwrap()]
            .rfind("<text")
            .unwrap()..];
        let text = &element[element.find('>').unwrap() + 1..element.find("</text>").unwrap()];
        let (x, y) = (attr(element, "x"), attr(element, "y"));
        let half = text.chars().count() as f64 * 6.5 / 2.0;
        assert!(
            x - half >= 0.0 && x + half <= w,
            "{text:?} at {x} ± {half} in {w}"
        );
        assert!(y < h, "{y} below {h}");
        // Rows: heading 1 at 24–44, A at 44–64 (centre 54), heading 2, then C.
        assert!(
            two.contains(r##"y="38" fill="#555" font-weight="bold">group 1</text>"##),
            "{two}"
        );
        assert!(
            two.contains(r#"cy="54.0""#) && two.contains(r#"cy="94.0""#),
            "{two}"
        );
        assert!(two.contains(&format!("<title>{long}</title>{}…</text>", "x".repeat(47))));
    }

    #[test]
    fn curves_cross_half_where_they_should() {
        assert!((win_curve(0.62)(0.62) - 0.5).abs() < 1e-12);
        assert!((tcec_curve(1.91) - 0.5).abs() < 0.001);
        assert_eq!(step(4.0), 1.0);
        assert_eq!(step(1.0), 0.2);
    }

    #[test]
    fn svg_has_every_series() {
        let c = Chart {
            title: "t <&>".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_range: (0.0, 1.0),
            y_range: (0.0, 1.0),
            series: vec![Series {
                label: "a".into(),
                color: PALETTE[0],
                dashed: true,
                marker: Marker::Dot,
                points: vec![(0.0, 0.0, 0.0), (1.0, 1.0, 0.0)],
            }],
        };
        let svg = grid(&[c], 2, 400.0, 300.0);
        assert!(svg.contains("t &lt;&amp;&gt;"));
        assert!(svg.contains("stroke-dasharray"));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(!render_png(&svg).unwrap().is_empty());
    }
}
