//! The board as a picture, attached to the results: a clean schematic
//! drawing from the province points kept in each variant file (the maps
//! in the rule texts were hand-drawn). Provinces are discs joined by their
//! borders, supply centres ringed and filled in their owner's colour,
//! units drawn where they stand, dislodged units beside their province
//! with a red outline.
//!
//! [`svg`] is pure; [`png`] rasterises it with resvg, using a font compiled
//! into the binary so the labels read the same on every machine.

use crate::game::Position;
use crate::map::{Map, PowerId, RegionId, Terrain, Unit};
use crate::variant::Variant;
use crate::variant::features::Viewer;
use std::fmt::Write;

/// Colours of the powers, in the order of the variant file.
const COLOURS: &[&str] = &[
    "#c62828", "#1f3b9c", "#42a5f5", "#616161", "#2e7d32", "#8e24aa", "#f9a825", "#6d4c41",
    "#ec407a", "#00897b",
];

/// A power's colour.
pub fn colour(p: PowerId) -> &'static str {
    COLOURS[p.index() % COLOURS.len()]
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// How the file's points are fitted to the canvas: the board's bounding
/// box, scaled (keeping its shape) to fill 40..960.
#[derive(Clone, Copy)]
struct Fit {
    min_x: f32,
    min_y: f32,
    scale: f32,
    off_x: f32,
    off_y: f32,
}

impl Fit {
    fn of(map: &Map) -> Fit {
        let pts: Vec<[f32; 2]> = map.provinces().iter().filter_map(|p| p.xy).collect();
        let (mut min_x, mut min_y, mut max_x, mut max_y) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for [x, y] in &pts {
            min_x = min_x.min(*x);
            min_y = min_y.min(*y);
            max_x = max_x.max(*x);
            max_y = max_y.max(*y);
        }
        if pts.is_empty() {
            return Fit {
                min_x: 0.0,
                min_y: 0.0,
                scale: 1.0,
                off_x: 0.0,
                off_y: 0.0,
            };
        }
        let w = (max_x - min_x).max(1.0);
        let h = (max_y - min_y).max(1.0);
        let scale = (920.0 / w).min(920.0 / h);
        Fit {
            min_x,
            min_y,
            scale,
            off_x: 40.0 + (920.0 - w * scale) / 2.0,
            off_y: 40.0 + (920.0 - h * scale) / 2.0,
        }
    }
}

/// A map and how its points fit the canvas.
struct Canvas<'a> {
    map: &'a Map,
    fit: Fit,
}

impl Canvas<'_> {
    /// Where a province is drawn (the centre of the canvas when the file
    /// gives no point).
    fn point(&self, p: crate::map::ProvinceId) -> (f32, f32) {
        let f = self.fit;
        self.map.province(p).xy.map_or((500.0, 500.0), |[x, y]| {
            (
                f.off_x + (x - f.min_x) * f.scale,
                f.off_y + (y - f.min_y) * f.scale,
            )
        })
    }
}

fn unit_mark(s: &mut String, cv: &Canvas<'_>, u: &Unit, dx: f32, dy: f32, dislodged: bool) {
    let map = cv.map;
    let (x, y) = cv.point(map.province_of(u.region));
    let (x, y) = (x + dx, y + dy);
    let stroke = if dislodged { "#d50000" } else { "#ffffff" };
    let fill = colour(u.power);
    let label = u.kind.letter();
    let w = 9.0 + 6.0 * label.len() as f32;
    let _ = writeln!(
        s,
        r#"<rect class="unit" x="{:.1}" y="{:.1}" width="{w:.1}" height="16" rx="4" fill="{fill}" stroke="{stroke}" stroke-width="{}"/>"#,
        x - w / 2.0,
        y - 8.0,
        if dislodged { 2.5 } else { 1.2 }
    );
    let _ = writeln!(
        s,
        r##"<text x="{x:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#ffffff" font-weight="bold">{}</text>"##,
        y + 4.0,
        esc(label)
    );
    if let Some(c) = map.region(u.region).coast {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="8" fill="#000000">{}</text>"##,
            x + w / 2.0 + 1.0,
            y - 4.0,
            esc(&map.coast(c).abbr)
        );
    }
}

/// The board after a phase, as SVG: `title` on top, `dislodged` units (with
/// their retreat options) beside their provinces.
pub fn svg(
    v: &Variant,
    pos: &Position,
    dislodged: &[(Unit, Vec<RegionId>)],
    title: &str,
) -> String {
    svg_for(v, pos, dislodged, title, Viewer::Gm)
}

/// The picture as `viewer` may see it: units the variant hides from them
/// are not drawn.
pub fn svg_for(
    v: &Variant,
    pos: &Position,
    dislodged: &[(Unit, Vec<RegionId>)],
    title: &str,
    viewer: Viewer,
) -> String {
    let map = &v.map;
    let cv = Canvas {
        map,
        fit: Fit::of(map),
    };
    let mut s = String::with_capacity(64 * 1024);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="1100" height="1100" viewBox="-50 -60 1100 1100" font-family="DejaVu Sans">"#
    );
    let _ = writeln!(
        s,
        r##"<rect x="-50" y="-60" width="1100" height="1100" fill="#fbfaf6"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="-40" y="-35" font-size="22" font-weight="bold" fill="#222222">{}</text>"##,
        esc(title)
    );
    // Borders, each once.
    let _ = writeln!(s, r#"<g class="borders">"#);
    for a in map.province_ids() {
        let mut seen = Vec::new();
        for &r in &map.province(a).regions {
            for &(n, _) in map.borders(r) {
                let b = map.province_of(n);
                if b <= a || seen.contains(&b) {
                    continue;
                }
                seen.push(b);
                let (x1, y1) = cv.point(a);
                let (x2, y2) = cv.point(b);
                let sea = map.province(a).terrain == Terrain::Sea
                    || map.province(b).terrain == Terrain::Sea;
                let _ = writeln!(
                    s,
                    r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{}" stroke-width="1.4"/>"#,
                    if sea { "#9ec5e8" } else { "#c9b98f" }
                );
            }
        }
    }
    let _ = writeln!(s, "</g>");
    // Provinces.
    let _ = writeln!(s, r#"<g class="provinces">"#);
    for p in map.province_ids() {
        let prov = map.province(p);
        let (x, y) = cv.point(p);
        let (fill, dash) = match prov.terrain {
            Terrain::Sea => ("#d6e9f8", ""),
            Terrain::Impassable => ("#bdbdbd", ""),
            Terrain::OffBoard => ("#eeeeee", r#" stroke-dasharray="4 3""#),
            Terrain::Land | Terrain::Coast => ("#f3ead2", ""),
        };
        let owner = pos.owners.get(p.index()).copied().flatten();
        let (fill, stroke, width) = if prov.supply_centre {
            (owner.map_or("#ffffff", colour), "#222222", 3.0)
        } else {
            (fill, "#8d8d8d", 1.0)
        };
        let _ = writeln!(
            s,
            r#"<circle class="province" id="p-{}" cx="{x:.1}" cy="{y:.1}" r="14" fill="{fill}" fill-opacity="{}" stroke="{stroke}" stroke-width="{width}"{dash}/>"#,
            esc(&prov.abbr),
            if prov.supply_centre && owner.is_some() {
                "0.55"
            } else {
                "1"
            },
        );
        let _ = writeln!(
            s,
            r##"<text class="label" x="{x:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#333333">{}</text>"##,
            y + 26.0,
            esc(&prov.abbr)
        );
    }
    let _ = writeln!(s, "</g>");
    // Units.
    let _ = writeln!(s, r#"<g class="units">"#);
    let mut stacked: Vec<(crate::map::ProvinceId, usize)> = Vec::new();
    for u in &pos.units {
        if v.features.hidden_from(map, pos.phase, u, viewer) {
            continue;
        }
        let p = map.province_of(u.region);
        let k = match stacked.iter_mut().find(|(q, _)| *q == p) {
            Some(e) => {
                e.1 += 1;
                e.1
            }
            None => {
                stacked.push((p, 0));
                0
            }
        };
        unit_mark(&mut s, &cv, u, k as f32 * 7.0, k as f32 * 7.0, false);
    }
    for (u, _) in dislodged {
        unit_mark(&mut s, &cv, u, 18.0, -16.0, true);
    }
    let _ = writeln!(s, "</g>");
    // Legend.
    let counts = pos.centre_counts(map);
    let _ = writeln!(s, r#"<g class="legend">"#);
    for (i, pw) in map.power_ids().enumerate() {
        let y = 1010.0 - (map.powers().len() - i) as f32 * 18.0;
        let units = pos.units.iter().filter(|u| u.power == pw).count();
        let _ = writeln!(
            s,
            r##"<rect x="-40" y="{:.1}" width="14" height="14" fill="{}"/><text x="-20" y="{:.1}" font-size="13" fill="#222222">{}: {} centres, {} units</text>"##,
            y,
            colour(pw),
            y + 12.0,
            esc(&map.power(pw).name),
            counts[pw.index()],
            units
        );
    }
    let _ = writeln!(s, "</g>\n</svg>");
    s
}

/// A picture problem.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The SVG did not parse (a bug: we made it).
    #[error("cannot read the map drawing")]
    Svg(#[from] resvg::usvg::Error),
    /// No canvas could be made.
    #[error("cannot make a canvas of {0}x{1}")]
    Canvas(u32, u32),
    /// PNG encoding failed.
    #[error("cannot encode the picture as PNG: {0}")]
    Png(String),
}

/// The font the pictures are drawn with (DejaVu Sans Condensed; see
/// assets/README.md for its licence).
const FONT: &[u8] = include_bytes!("../../assets/DejaVuSansCondensed.ttf");

/// Rasterise an SVG of [`svg`] to PNG bytes.
pub fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    let mut opt = resvg::usvg::Options::default();
    opt.fontdb_mut().load_font_data(FONT.to_vec());
    opt.font_family = "DejaVu Sans".to_string();
    let tree = resvg::usvg::Tree::from_str(svg, &opt)?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or(PictureError::Canvas(size.width(), size.height()))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PictureError::Png(e.to_string()))
}
