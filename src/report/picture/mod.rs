//! The board as a picture, attached to the results: a map of areas, not a
//! graph of points. Every province is an area (land and sea in different
//! colours, impassable ones shaded), drawn from the variant's outline file
//! where it has one ([`outline`]) and otherwise computed from its province
//! points and borders ([`geometry`]), so every variant gets a map without
//! hand drawing. Owned supply centres are tinted with the owner's colour
//! and hatched with the owner's pattern, so a black-and-white print still
//! tells the powers apart; units stand on their areas with the owner's
//! initial; each order is drawn ([`scene`]): moves as arrows (bounced ones
//! end in a bar), supports as dashed lines to the move they support,
//! convoys along the fleets' route, holds as rings, dislodged units beside
//! their province with their retreat options, builds ringed and removals
//! crossed out. Names are placed once per map so that none overlaps
//! another or a place where a unit may stand ([`labels`]).
//!
//! Everything here is pure: the SVG is made from the variant and the
//! phase; [`png`] rasterises it with resvg, using a font compiled into the
//! binary so the labels read the same on every machine.

mod compose;
pub(crate) mod geometry;
mod grid;
pub(crate) mod labels;
pub(crate) mod layout;
pub(crate) mod outline;
mod points;
mod raster;
pub(crate) mod scene;

use crate::game::Position;
use crate::map::{PowerId, RegionId, Terrain, Unit};
use crate::report::PhaseReport;
use crate::variant::Variant;
use crate::variant::features::Viewer;
use geometry::{Geometry, Pt};
use scene::{Mark, Scene, Token, TokenStyle};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Which pictures go with the results: a judge setting (`[report]
/// picture`) and a player's (`SET PICTURE`), since a PNG and an SVG to
/// every reader make each mail several times the size of its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PictureFormat {
    /// The PNG only: what every mail reader shows.
    Png,
    /// The SVG only: small, and sharp at any size.
    Svg,
    /// Both.
    #[default]
    Both,
    /// No picture.
    None,
}

impl PictureFormat {
    /// Whether a PNG is wanted.
    pub fn png(self) -> bool {
        matches!(self, PictureFormat::Png | PictureFormat::Both)
    }
    /// Whether an SVG is wanted.
    pub fn svg(self) -> bool {
        matches!(self, PictureFormat::Svg | PictureFormat::Both)
    }
    /// The setting's word, as written in the config and `SET PICTURE`.
    pub fn as_str(self) -> &'static str {
        match self {
            PictureFormat::Png => "png",
            PictureFormat::Svg => "svg",
            PictureFormat::Both => "both",
            PictureFormat::None => "none",
        }
    }
    /// Read the setting's word (any case).
    pub fn parse(s: &str) -> Option<PictureFormat> {
        match s.trim().to_ascii_lowercase().as_str() {
            "png" => Some(PictureFormat::Png),
            "svg" => Some(PictureFormat::Svg),
            "both" => Some(PictureFormat::Both),
            "none" | "off" => Some(PictureFormat::None),
            _ => None,
        }
    }
}

/// Colours of the powers, in the order of the variant file: distinct in
/// hue, and in lightness where possible.
const COLOURS: &[&str] = &[
    "#c62828", "#1f3b9c", "#42a5f5", "#616161", "#2e7d32", "#8e24aa", "#f9a825", "#6d4c41",
    "#ec407a", "#00897b",
];

/// A hatch: a tile and the lines drawn across it.
struct Hatch {
    w: u32,
    h: u32,
    /// Path data of the lines: one line from edge to edge, and the ends
    /// of its neighbours' lines that cross the tile's corners.
    lines: &'static str,
}

/// The powers' hatches, so a black-and-white print tells owners apart
/// where colours do not: `/`, `\`, `|`, `-`, then `/` and `\` steep and
/// shallow. Each tile is whole pixels wide and high and its lines leave
/// it where the next tile's go on, so the hatch repeats on whole pixels
/// and every tile of it is drawn alike: a PNG of it compresses as well as
/// a flat colour does, where the rotated tiles that were here before
/// fell differently on the pixels row after row and made the owners half
/// of a picture's bytes.
const HATCH: &[Hatch] = &[
    Hatch {
        w: 8,
        h: 8,
        lines: "M0 8L8 0M-1 1L1 -1M7 9L9 7",
    },
    Hatch {
        w: 8,
        h: 8,
        lines: "M0 0L8 8M7 -1L9 1M-1 7L1 9",
    },
    Hatch {
        w: 6,
        h: 6,
        lines: "M0.5 0V6",
    },
    Hatch {
        w: 6,
        h: 6,
        lines: "M0 0.5H6",
    },
    Hatch {
        w: 6,
        h: 12,
        lines: "M0 12L6 0M-1 2L1 -2M5 14L7 10",
    },
    Hatch {
        w: 6,
        h: 12,
        lines: "M0 0L6 12M5 -2L7 2M-1 10L1 14",
    },
    Hatch {
        w: 12,
        h: 6,
        lines: "M0 6L12 0M-2 1L2 -1M10 7L14 5",
    },
    Hatch {
        w: 12,
        h: 6,
        lines: "M0 0L12 6M10 -1L14 1M-2 5L2 7",
    },
];

/// Power `p`'s hatch tile, drawn as an SVG pattern's content: its
/// colour washed over the tile, and its lines.
fn hatch_tile(p: PowerId) -> (u32, u32, String) {
    let h = &HATCH[p.index() % HATCH.len()];
    let c = colour(p);
    (
        h.w,
        h.h,
        format!(
            r#"<rect width="{}" height="{}" fill="{c}" fill-opacity="0.42"/><path d="{}" stroke="{c}" stroke-width="1" stroke-opacity="0.75" fill="none"/>"#,
            h.w, h.h, h.lines
        ),
    )
}

/// A power's colour.
pub fn colour(p: PowerId) -> &'static str {
    COLOURS[p.index() % COLOURS.len()]
}

/// The font size of a fleet's coast beside its unit (`sc`).
const COAST_SIZE: f32 = 8.0;

const LAND: &str = "#efe6cb";
const SEA: &str = "#bcd5ec";
const IMPASSABLE: &str = "#5f584e";
const ROCK_LINE: &str = "#8c8475";
const NEUTRAL_LAND: &str = "#dcd6c8";
const NEUTRAL_WATER: &str = "#cbd9e4";
const COAST_LINE: &str = "#4d6f8f";
const BORDER: &str = "#9a8a66";
/// The title band above the map.
const TOP: f32 = 34.0;
/// The picture's width.
const WIDTH: f32 = layout::MAP_WIDTH;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A variant's map, laid out once and drawn for as many phases and readers
/// as needed.
#[derive(Debug, Clone)]
pub struct Picture<'v> {
    variant: &'v Variant,
    geometry: std::sync::Arc<Geometry>,
    initials: Vec<String>,
}

impl<'v> Picture<'v> {
    /// Lay out `v`'s map: its shipped outline if it has one, else computed
    /// areas.
    pub fn new(v: &'v Variant) -> Picture<'v> {
        let o = outline::builtin(&v.name);
        Picture::with_outline(v, o.as_ref())
    }

    /// Lay out `v`'s map from `outline` (computed areas when `None`).
    pub fn with_outline(v: &'v Variant, outline: Option<&outline::Outline>) -> Picture<'v> {
        Picture::with_geometry(v, std::sync::Arc::new(Geometry::new(&v.map, outline)))
    }

    /// The layout of `v`'s map alone (the costly part: computed areas take
    /// tens of milliseconds), to be kept and shared by every picture of
    /// the variant.
    pub fn layout(v: &Variant) -> Geometry {
        Geometry::new(&v.map, outline::builtin(&v.name).as_ref())
    }

    /// A picture of `v` on a layout made by [`Picture::layout`].
    pub fn with_geometry(v: &'v Variant, geometry: std::sync::Arc<Geometry>) -> Picture<'v> {
        Picture {
            variant: v,
            geometry,
            initials: initials(v),
        }
    }

    /// Where everything is.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The board alone, as `viewer` may see it.
    pub fn board_svg(
        &self,
        pos: &Position,
        dislodged: &[(Unit, Vec<RegionId>)],
        title: &str,
        viewer: Viewer,
    ) -> String {
        let s = scene::board(self.variant, &self.geometry, pos, dislodged, viewer);
        self.draw(pos, &s, title, viewer)
    }

    /// The board after a played phase with its orders and what became of
    /// them, as `viewer` may see it.
    pub fn phase_svg(&self, r: &PhaseReport<'_>, title: &str, viewer: Viewer) -> String {
        let s = scene::phase(r, &self.geometry, viewer);
        self.draw(r.after, &s, title, viewer)
    }

    /// [`Picture::board_svg`] as a PNG, drawn over the map's fixed layers
    /// (rasterised once per map).
    pub fn board_png(
        &self,
        pos: &Position,
        dislodged: &[(Unit, Vec<RegionId>)],
        title: &str,
        viewer: Viewer,
    ) -> Result<Vec<u8>, PictureError> {
        let s = scene::board(self.variant, &self.geometry, pos, dislodged, viewer);
        self.compose(pos, &s, title, viewer)
    }

    /// [`Picture::phase_svg`] as a PNG, drawn over the map's fixed layers
    /// (rasterised once per map).
    pub fn phase_png(
        &self,
        r: &PhaseReport<'_>,
        title: &str,
        viewer: Viewer,
    ) -> Result<Vec<u8>, PictureError> {
        let s = scene::phase(r, &self.geometry, viewer);
        self.compose(r.after, &s, title, viewer)
    }

    fn draw(&self, pos: &Position, s: &Scene, title: &str, viewer: Viewer) -> String {
        let v = self.variant;
        let g = &self.geometry;
        let legend_h = legend_height(v);
        let height = (TOP + g.height + legend_h).ceil();
        let mut o = String::with_capacity(96 * 1024);
        let _ = writeln!(
            o,
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{WIDTH:.0}" height="{height:.0}" viewBox="0 0 {WIDTH:.0} {height:.0}" font-family="DejaVu Sans">"#
        );
        self.defs(&mut o);
        let _ = writeln!(
            o,
            r##"<rect width="{WIDTH:.0}" height="{height:.0}" fill="#fbfaf6"/><text x="10" y="24" font-size="19" font-weight="bold" fill="#222222">{}</text>"##,
            esc(title)
        );
        let _ = writeln!(o, r#"<g transform="translate(0 {TOP:.0})">"#);
        let _ = writeln!(
            o,
            r#"<rect class="board" width="{:.0}" height="{:.1}" fill="{SEA}"/>"#,
            g.width, g.height
        );
        self.areas(&mut o, pos);
        self.boxes(&mut o);
        // Orders under the names (which have a halo to read over lines),
        // the units on top of all.
        self.marks(&mut o, s);
        self.labels(&mut o, pos);
        self.tokens(&mut o, s);
        let _ = writeln!(
            o,
            r##"<rect width="{:.0}" height="{:.1}" fill="none" stroke="#555555" stroke-width="1.2"/>"##,
            g.width, g.height
        );
        let _ = writeln!(o, "</g>");
        self.legend(&mut o, pos, TOP + g.height, viewer);
        let _ = writeln!(o, "</svg>");
        o
    }

    fn defs(&self, o: &mut String) {
        let _ = writeln!(o, "<defs>");
        for pw in self.variant.map.power_ids() {
            let i = pw.index();
            let (w, h, tile) = hatch_tile(pw);
            let _ = writeln!(
                o,
                r#"<pattern id="h{i}" width="{w}" height="{h}" patternUnits="userSpaceOnUse">{tile}</pattern>"#
            );
        }
        // Rock: dark, crossed both ways on whole pixels. No power's
        // hatch is crossed, and none of their washed colours is as dark:
        // a light grey `/` hatch here looked like Germany's centres. Only
        // on a map that has some: the PNG's edges are snapped between the
        // colours the SVG names, and more colours snap them less well.
        let map = &self.variant.map;
        let rock = map
            .province_ids()
            .any(|p| map.province(p).terrain == Terrain::Impassable);
        if rock {
            let _ = writeln!(
                o,
                r##"<pattern id="rock" width="7" height="7" patternUnits="userSpaceOnUse"><rect width="7" height="7" fill="{IMPASSABLE}"/><path d="M0 7L7 0M-1 1L1 -1M6 8L8 6M0 0L7 7M6 -1L8 1M-1 6L1 8" stroke="{ROCK_LINE}" stroke-width="0.8" fill="none"/></pattern>"##
            );
        }
        let _ = writeln!(o, "</defs>");
    }

    /// The areas: each outline once, in `<defs>`, then used for each layer
    /// (seas; a dark halo round the land that shows only along the coast,
    /// for the fills of neighbouring land cover it; the land; the owners'
    /// tints).
    fn areas(&self, o: &mut String, pos: &Position) {
        let a = self.area_parts(pos, Part::All);
        let _ = write!(
            o,
            "<defs>\n{}</defs>\n<g class=\"seas\">\n{}</g>\n<g class=\"coastline\">\n{}</g>\n<g class=\"lands\">\n{}</g>\n<g class=\"owners\">\n{}</g>\n{}",
            a.defs, a.sea, a.halo, a.land, a.tint, a.walls
        );
    }

    /// The layers of [`Picture::areas`], apart, so the PNG can draw the
    /// ones that never change once ([`raster`]).
    /// With `Part::Changing`, only the owners' tints (and the outlines
    /// they use) and the walls over them.
    fn area_parts(&self, pos: &Position, part: Part) -> AreaParts {
        let map = &self.variant.map;
        let g = &self.geometry;
        let mut defs = String::new();
        let mut sea = String::new();
        let mut halo = String::new();
        let mut land = String::new();
        let mut tint = String::new();
        let fixed = part != Part::Changing;
        for ring in g.neutral_water.iter().filter(|_| fixed) {
            let _ = writeln!(
                sea,
                r#"<path class="neutral" d="{}" fill="{NEUTRAL_WATER}"/>"#,
                path(std::slice::from_ref(ring))
            );
        }
        if fixed && !g.neutral_land.is_empty() {
            let _ = writeln!(
                defs,
                r#"<path id="neutral-land" d="{}"/>"#,
                path(&g.neutral_land)
            );
            let _ = writeln!(
                halo,
                r##"<use xlink:href="#neutral-land" fill="none" stroke="{COAST_LINE}" stroke-width="2"/>"##
            );
            let _ = writeln!(
                land,
                r##"<use class="neutral" xlink:href="#neutral-land" fill="{NEUTRAL_LAND}" stroke="{NEUTRAL_LAND}" stroke-width="0.6"/>"##
            );
        }
        for p in map.province_ids() {
            let prov = map.province(p);
            let area = &g.areas[p.index()];
            if area.rings.is_empty() || prov.terrain == Terrain::OffBoard {
                continue;
            }
            let id = esc(&prov.abbr);
            let owner = pos
                .owners
                .get(p.index())
                .copied()
                .flatten()
                .filter(|_| prov.supply_centre);
            if part != Part::Changing || owner.is_some() {
                let _ = writeln!(defs, r#"<path id="p-{id}" d="{}"/>"#, path(&area.rings));
            }
            if let Some(owner) = owner.filter(|_| part != Part::Fixed) {
                let _ = writeln!(
                    tint,
                    r##"<use class="owned" xlink:href="#p-{id}" fill="url(#h{})" stroke="none"/>"##,
                    owner.index()
                );
            }
            if part == Part::Changing {
                continue;
            }
            match prov.terrain {
                Terrain::Sea => {
                    let _ = writeln!(
                        sea,
                        r##"<use class="area sea" xlink:href="#p-{id}" fill="{SEA}" stroke="#97b8d8" stroke-width="0.8"/>"##
                    );
                }
                t => {
                    let (fill, class) = match t {
                        Terrain::Impassable => ("url(#rock)", "impassable"),
                        Terrain::Coast => (LAND, "coast"),
                        _ => (LAND, "land"),
                    };
                    let _ = writeln!(
                        halo,
                        r##"<use xlink:href="#p-{id}" fill="none" stroke="{COAST_LINE}" stroke-width="2.4"/>"##
                    );
                    // Drawn areas are stroked along their borders only
                    // (below): a coast is the coast line alone.
                    let stroke = if g.borders.is_empty() {
                        format!(r#"stroke="{BORDER}" stroke-width="0.7""#)
                    } else {
                        r#"stroke="none""#.to_string()
                    };
                    let _ = writeln!(
                        land,
                        r##"<use class="area {class}" xlink:href="#p-{id}" fill="{fill}" {stroke}/>"##
                    );
                }
            }
        }
        if fixed && !g.borders.is_empty() {
            let _ = writeln!(
                land,
                r#"<path class="borders" d="{}" fill="none" stroke="{BORDER}" stroke-width="0.7" stroke-linejoin="round"/>"#,
                path_data(&g.borders, false)
            );
        }
        let walls = self.walls();
        AreaParts {
            defs,
            sea,
            halo,
            land,
            tint,
            walls,
        }
    }

    fn boxes(&self, o: &mut String) {
        let map = &self.variant.map;
        for b in &self.geometry.boxes {
            let [x, y, w, h] = b.rect;
            let _ = writeln!(
                o,
                r##"<rect class="box" id="p-{}" x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="6" fill="#f6f1e2" stroke="#6b6356" stroke-width="1.4" stroke-dasharray="5 3"/>"##,
                esc(&map.province(b.province).abbr)
            );
        }
    }

    fn labels(&self, o: &mut String, pos: &Position) {
        self.labels_of(o, pos, Part::All);
    }

    /// The names and the centres' marks (`Part::All`), or only the names
    /// (which never change) or only the marks (coloured by their owners).
    fn labels_of(&self, o: &mut String, pos: &Position, part: Part) {
        let map = &self.variant.map;
        let _ = writeln!(o, r#"<g class="labels">"#);
        for p in map.province_ids() {
            let prov = map.province(p);
            let l = self.geometry.areas[p.index()].label;
            if l.w <= 0.0 {
                continue;
            }
            let mut tx = l.x + 2.0;
            if l.centre && part != Part::Fixed {
                centre_mark(o, &l, pos.owners.get(p.index()).copied().flatten());
            }
            if l.centre {
                tx += 8.5;
            }
            if part == Part::Changing {
                continue;
            }
            let colour = if prov.terrain == Terrain::Sea {
                "#27496b"
            } else {
                "#3b3325"
            };
            let _ = writeln!(
                o,
                r##"<text class="label" data-box="{:.1} {:.1} {:.1} {:.1}" x="{tx:.1}" y="{:.1}" font-size="{:.0}" fill="{colour}" stroke="#fbfaf6" stroke-width="2.4" stroke-opacity="0.85" paint-order="stroke"{}>{}</text>"##,
                l.x,
                l.y,
                l.w,
                l.h,
                l.y + l.h - 3.0,
                l.size,
                if prov.terrain == Terrain::Sea {
                    r#" font-style="italic""#
                } else {
                    ""
                },
                esc(&prov.abbr)
            );
        }
        let _ = writeln!(o, "</g>");
    }

    fn marks(&self, o: &mut String, s: &Scene) {
        let _ = writeln!(o, r#"<g class="orders">"#);
        for m in marks_in_order(s) {
            mark(o, m);
        }
        let _ = writeln!(o, "</g>");
    }

    fn tokens(&self, o: &mut String, s: &Scene) {
        let _ = writeln!(o, r#"<g class="units">"#);
        for (t, at) in self.placed(s) {
            self.token(o, t.unit, at, t.style);
        }
        let _ = writeln!(o, "</g>");
    }

    /// Each unit with where it is drawn: units sharing a place (boxes,
    /// 1700 AD II stacks) stand side by side.
    fn placed<'s>(&self, s: &'s Scene) -> Vec<(&'s Token, Pt)> {
        let map = &self.variant.map;
        let mut seen: Vec<(Pt, usize)> = Vec::new();
        let mut placed = Vec::with_capacity(s.tokens.len());
        for t in &s.tokens {
            let k = match seen.iter_mut().find(|(p, _)| *p == t.at) {
                Some(e) => {
                    e.1 += 1;
                    e.1
                }
                None => {
                    seen.push((t.at, 0));
                    0
                }
            };
            let in_box = self
                .geometry
                .boxes
                .iter()
                .any(|b| b.province == map.province_of(t.unit.region));
            let (dx, dy) = if in_box {
                (((k % 3) as f32 - 1.0) * 33.0, (k / 3) as f32 * 19.0 - 6.0)
            } else {
                (k as f32 * 8.0, k as f32 * 5.0)
            };
            placed.push((t, (t.at.0 + dx, t.at.1 + dy)));
        }
        placed
    }

    fn token(&self, o: &mut String, u: Unit, at: Pt, style: TokenStyle) {
        let letter = u.kind.letter();
        let big = if letter.chars().count() > 1 {
            9.0
        } else {
            11.0
        };
        let initial = self
            .initials
            .get(u.power.index())
            .map_or("", String::as_str);
        let (stroke, sw) = match style {
            TokenStyle::Dislodged => ("#d50000", 2.4),
            _ => ("#111111", 1.1),
        };
        // The box with its stroke, and a fleet's coast written beside it,
        // fit the room the names keep free for a unit (layout::TOKEN_W by
        // TOKEN_H), so no name is under either: the two are centred
        // together on the unit's point.
        let map = &self.variant.map;
        let coast = map
            .region(u.region)
            .coast
            .map(|c| map.coast(c).abbr.as_str());
        let coast_w = coast.map_or(0.0, |c| 1.0 + c.chars().count() as f32 * COAST_SIZE * 0.62);
        let w = (8.0
            + letter.chars().count() as f32 * big * 0.62
            + initial.chars().count() as f32 * 4.6)
            .min(layout::TOKEN_W - sw - coast_w);
        let h = 15.0f32.min(layout::TOKEN_H - sw);
        let (x, y) = (at.0 - (w + coast_w) / 2.0, at.1 - h / 2.0);
        let opacity = if style == TokenStyle::Gone {
            r#" opacity="0.55""#
        } else {
            ""
        };
        let class = match style {
            TokenStyle::Normal => "unit",
            TokenStyle::Dislodged => "unit dislodged",
            TokenStyle::Built => "unit built",
            TokenStyle::Gone => "unit gone",
        };
        let _ = write!(
            o,
            r##"<g class="{class}" data-box="{x:.1} {y:.1} {:.1} {h:.1}"{opacity}><rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="3.5" fill="{}" stroke="{stroke}" stroke-width="{sw}"/><text x="{:.1}" y="{:.1}" font-size="{big:.0}" font-weight="bold" fill="#ffffff">{}<tspan font-size="7.5" font-weight="normal">{}</tspan></text>"##,
            // The marker's whole room, its coast included: centred on
            // the unit's point.
            w + coast_w,
            colour(u.power),
            x + 3.5,
            at.1 + big * 0.36,
            esc(letter),
            esc(initial),
        );
        // A built unit's ring and a gone unit's cross stay within the room
        // the names keep free for a unit (`TOKEN_W` by `TOKEN_H`, strokes
        // included), so that neither covers a name: a round ring as wide
        // as the unit was as high as it is wide, and hid the name of the
        // centre just built in.
        let (room_w, room_h) = (layout::TOKEN_W, layout::TOKEN_H);
        match style {
            TokenStyle::Built => {
                let (rw, rh) = (room_w - 1.6, room_h - 1.6);
                let _ = write!(
                    o,
                    r##"<rect class="ring" x="{:.1}" y="{:.1}" width="{rw:.1}" height="{rh:.1}" rx="{:.1}" fill="none" stroke="#111111" stroke-width="1.6" stroke-dasharray="3 2"/>"##,
                    at.0 - rw / 2.0,
                    at.1 - rh / 2.0,
                    rh / 2.0
                );
            }
            TokenStyle::Gone => cross(o, at, room_h / 2.0 - 1.4, "gone"),
            _ => {}
        }
        if let Some(c) = coast {
            let _ = write!(
                o,
                r##"<text x="{:.1}" y="{:.1}" font-size="{COAST_SIZE:.0}" fill="#111111">{}</text>"##,
                x + w + 1.0,
                y + 6.0,
                esc(c)
            );
        }
        let _ = writeln!(o, "</g>");
    }

    /// The legend: each power's centres and units. A unit hidden from the
    /// reader counts where it stands, dislodged or not: its place is
    /// secret, not that the power has it (1066 rules 2 and 5), and the
    /// results' chart counts it alike.
    fn legend(&self, o: &mut String, pos: &Position, top: f32, viewer: Viewer) {
        self.legend_of(o, pos, top, viewer, Part::All);
    }

    /// The legend (`Part::All`), or its swatches of the powers always in
    /// the game and its key (`Part::Fixed`, the same in every phase).
    fn legend_of(&self, o: &mut String, pos: &Position, top: f32, viewer: Viewer, part: Part) {
        let _ = writeln!(
            o,
            r#"<g class="legend" transform="translate(0 {:.0})">"#,
            top + 8.0
        );
        if part == Part::Fixed {
            let map = &self.variant.map;
            for (k, pw) in map
                .power_ids()
                .filter(|p| !map.power(*p).optional)
                .enumerate()
            {
                o.push_str(&self.swatch(pw, k));
            }
        } else {
            for line in self.count_lines(pos, viewer, false) {
                o.push_str(&line);
            }
        }
        // The key to the marks.
        let kx = 615.0;
        let key: [(&str, &str); 9] = [
            (
                "move",
                r##"<path d="M0 7H22" stroke="#333333" stroke-width="2.4"/><path d="M28 7L20 3L20 11Z" fill="#333333"/>"##,
            ),
            (
                "bounced",
                r##"<path d="M0 7H18" stroke="#333333" stroke-width="2.4"/><path d="M19 1V13" stroke="#111111" stroke-width="3"/>"##,
            ),
            (
                "support",
                r##"<path d="M0 7H26" stroke="#333333" stroke-width="2" stroke-dasharray="5 3"/><circle cx="26" cy="7" r="3" fill="#333333"/>"##,
            ),
            (
                "hold",
                r##"<circle cx="14" cy="7" r="6.5" fill="none" stroke="#333333" stroke-width="2.2"/>"##,
            ),
            (
                "convoy",
                r##"<circle cx="14" cy="7" r="6.5" fill="none" stroke="#333333" stroke-width="2" stroke-dasharray="2 2.5"/>"##,
            ),
            (
                "retreat",
                r##"<path d="M0 7H22" stroke="#333333" stroke-width="2.2" stroke-dasharray="5 3"/><path d="M28 7L20 3L20 11Z" fill="#333333"/>"##,
            ),
            (
                "dislodged",
                r##"<rect x="4" y="0" width="20" height="14" rx="3" fill="#888888" stroke="#d50000" stroke-width="2.4"/>"##,
            ),
            (
                "built / gone",
                r##"<rect x="0.8" y="0.8" width="19" height="12.4" rx="6.2" fill="none" stroke="#111111" stroke-width="1.6" stroke-dasharray="3 2"/><path d="M23 2L33 12M33 2L23 12" stroke="#111111" stroke-width="2.2"/>"##,
            ),
            (
                "no border",
                r##"<path d="M2 7H30" stroke="#3b3325" stroke-width="3" stroke-linecap="round"/>"##,
            ),
        ];
        for (i, (word, sample)) in key.iter().enumerate() {
            let (col, row) = (i / 3, i % 3);
            let (x, y) = (kx + col as f32 * 128.0, row as f32 * 19.0);
            let _ = writeln!(
                o,
                r##"<g transform="translate({x:.0} {y:.0})">{sample}<text x="38" y="11" font-size="12" fill="#222222">{word}</text></g>"##
            );
        }
        let _ = writeln!(o, "</g>");
    }
}

impl Picture<'_> {
    /// Where a power's line of the legend is (`k`: its place in the
    /// legend's order), in the legend's coordinates.
    fn legend_at(&self, k: usize) -> Pt {
        let (_, rows, col_w) = legend_columns(self.variant);
        let (col, row) = (k / rows, k % rows);
        (10.0 + col as f32 * col_w, row as f32 * 19.0)
    }

    /// The swatch of power `pw`'s hatch on the `k`th line of the legend.
    fn swatch(&self, pw: PowerId, k: usize) -> String {
        let (x, y) = self.legend_at(k);
        format!(
            r##"<rect x="{x:.0}" y="{y:.0}" width="22" height="14" fill="url(#h{})" stroke="#333333"/>"##,
            pw.index()
        )
    }

    /// Each line of the legend, with each power's counts: the powers
    /// always in the game, then the optional powers in this one (Ard-Ri's
    /// Vikings have no line in a game left without them: a power that
    /// can be left out is in the game while it has anything on or off
    /// the board). The swatches of the powers always in the game are part
    /// of the fixed layers; `alone` leaves them out, and gives an optional
    /// power's swatch its hatch's pattern, for the lines drawn apart from
    /// the picture's `<defs>`.
    fn count_lines(&self, pos: &Position, viewer: Viewer, alone: bool) -> Vec<String> {
        let view = crate::rules::view::View::of(self.variant, pos, viewer);
        let v = self.variant;
        let map = &v.map;
        let counts = pos.centre_counts(map);
        // Counted as the chart counts them (a 1000 AD 3D as the two
        // units its centres keep), so centres less units is what is due.
        let units_of = |pw: PowerId| -> i64 {
            pos.units
                .iter()
                .filter(|u| u.power == pw)
                .chain(
                    pos.dislodged
                        .iter()
                        .map(|(u, _)| u)
                        .filter(|u| u.power == pw && view.hides_unit(u)),
                )
                .map(|u| crate::rules::army_fleet::units_in(v, u))
                .sum()
        };
        let in_game = |pw: PowerId| {
            !map.power(pw).optional
                || counts[pw.index()] > 0
                || pos.units.iter().any(|u| u.power == pw)
                || pos.dislodged.iter().any(|(u, _)| u.power == pw)
                || pos.state.reserve.get(pw).copied().unwrap_or(0) > 0
                || pos.state.pending.iter().any(|u| u.power == pw)
        };
        let always = map.power_ids().filter(|p| !map.power(*p).optional);
        let optional = map.power_ids().filter(|p| map.power(*p).optional);
        let mut lines = Vec::new();
        for (k, pw) in always.chain(optional).filter(|p| in_game(*p)).enumerate() {
            let i = pw.index();
            let optional = map.power(pw).optional;
            let swatch = match (alone, optional) {
                (false, _) => self.swatch(pw, k),
                (true, false) => String::new(),
                (true, true) => {
                    let (w, h, tile) = hatch_tile(pw);
                    format!(
                        r#"<defs><pattern id="h{i}" width="{w}" height="{h}" patternUnits="userSpaceOnUse">{tile}</pattern></defs>{}"#,
                        self.swatch(pw, k)
                    )
                }
            };
            let (x, y) = self.legend_at(k);
            let initial = self.initials.get(i).map_or("", String::as_str);
            lines.push(format!(
                "{swatch}<text x=\"{:.0}\" y=\"{:.0}\" font-size=\"12\" fill=\"#222222\">{}</text>\n",
                x + 27.0,
                y + 11.0,
                esc(&power_line(&map.power(pw).name, initial, counts[i], units_of(pw)))
            ));
        }
        lines
    }

    /// Walls between areas that do not border in the rules.
    fn walls(&self) -> String {
        let g = &self.geometry;
        let mut walls = String::new();
        if !g.walls.is_empty() {
            let d: String = g
                .walls
                .iter()
                .map(|(a, b)| format!("M{:.1} {:.1}L{:.1} {:.1}", a.0, a.1, b.0, b.1))
                .collect();
            let _ = writeln!(
                walls,
                r##"<path class="wall" d="{d}" stroke="#3b3325" stroke-width="3" stroke-linecap="round" fill="none"/>"##
            );
        }
        walls
    }
}

/// The layers of the areas, as [`Picture::areas`] writes them in order.
struct AreaParts {
    /// Each area's outline, by id.
    defs: String,
    /// The seas.
    sea: String,
    /// The coast line (a halo round the land).
    halo: String,
    /// The land.
    land: String,
    /// The owned centres' tints.
    tint: String,
    /// Walls between areas that do not border in the rules.
    walls: String,
}

/// Which part of a layer to draw: all of it (the SVG), the part that is
/// the same in every phase of the map, or the part that changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    All,
    Fixed,
    Changing,
}

fn legend_height(v: &Variant) -> f32 {
    let (_, rows, _) = legend_columns(v);
    16.0 + rows.max(3) as f32 * 19.0
}

/// A power's line in the legend.
fn power_line(name: &str, initial: &str, centres: u32, units: i64) -> String {
    format!("{name} ({initial}): {centres} centres, {units} units")
}

/// The legend's power columns: three in the 600 pixels left of the key,
/// fewer when the names are long. Returns columns, rows and column width.
fn legend_columns(v: &Variant) -> (usize, usize, f32) {
    let n = v.map.powers().len().max(1);
    // The widest line, at 12 pixels a character of 6.4 at most, with
    // the swatch before it.
    let widest = v
        .map
        .powers()
        .iter()
        .map(|p| power_line(&p.name, "Xx", 99, 99).chars().count() as f32 * 6.4 + 32.0)
        .fold(0.0f32, f32::max);
    let cols = if widest <= 200.0 {
        3
    } else if widest <= 300.0 {
        2
    } else {
        1
    };
    let rows = n.div_ceil(cols);
    (cols, rows, 600.0 / cols as f32)
}

/// A short tag for each power, unique in the variant, for its units: the
/// first letter, or where first letters clash the first and the first
/// later letter that tells them apart (Spain Sp, Sweden Sw).
fn initials(v: &Variant) -> Vec<String> {
    let names: Vec<Vec<char>> = v
        .map
        .powers()
        .iter()
        .map(|p| p.name.chars().filter(|c| c.is_alphanumeric()).collect())
        .collect();
    let tag = |n: &[char], k: usize| -> String {
        let first: String = n
            .first()
            .map(|c| c.to_uppercase().collect())
            .unwrap_or_default();
        match k {
            0 => first,
            _ => format!(
                "{first}{}",
                n.get(k)
                    .map(|c| c.to_lowercase().collect::<String>())
                    .unwrap_or_default()
            ),
        }
    };
    let first: Vec<String> = names.iter().map(|n| tag(n, 0)).collect();
    let mut out = first.clone();
    for i in 0..names.len() {
        if first.iter().filter(|t| **t == first[i]).count() == 1 {
            continue;
        }
        let pick = (1..names[i].len().max(2))
            .map(|k| tag(&names[i], k))
            .find(|t| !out.contains(t) && !first.contains(t));
        out[i] = pick.unwrap_or_else(|| format!("{}{}", first[i], i + 1));
    }
    out
}

/// SVG path data for closed rings.
fn path(rings: &[Vec<Pt>]) -> String {
    path_data(rings, true)
}

/// SVG path data for `lines`, each closed (`Z`) when `closed`.
fn path_data(lines: &[Vec<Pt>], closed: bool) -> String {
    let mut d = String::new();
    for r in lines {
        for (k, p) in r.iter().enumerate() {
            let _ = write!(d, "{}{:.1} {:.1}", if k == 0 { 'M' } else { 'L' }, p.0, p.1);
        }
        if closed {
            d.push('Z');
        }
    }
    d
}

/// The order marks in the order they are painted: the retreat options'
/// lines first, under every arrow, so an arrow's head is never hidden.
fn marks_in_order(s: &Scene) -> impl Iterator<Item = &Mark> {
    let option = |m: &&Mark| matches!(m, Mark::Option { .. });
    s.marks
        .iter()
        .filter(option)
        .chain(s.marks.iter().filter(move |m| !option(m)))
}

/// One order's mark.
fn mark(o: &mut String, m: &Mark) {
    match m {
        Mark::Hold { power, at } => {
            let _ = writeln!(
                o,
                r#"<circle class="hold" cx="{:.1}" cy="{:.1}" r="14" fill="none" stroke="{}" stroke-width="2.4"/>"#,
                at.0,
                at.1,
                colour(*power)
            );
        }
        Mark::Convoy { power, at } => {
            let _ = writeln!(
                o,
                r#"<circle class="convoy" cx="{:.1}" cy="{:.1}" r="14" fill="none" stroke="{}" stroke-width="2" stroke-dasharray="2 2.5"/>"#,
                at.0,
                at.1,
                colour(*power)
            );
        }
        Mark::Support {
            power,
            from,
            to,
            hold,
            failed,
            tag,
        } => {
            let end = if *hold { 14.0 } else { 2.0 };
            let (a, b) = shorten(*from, *to, 9.0, end);
            let c = colour(*power);
            let _ = writeln!(
                o,
                r##"<path class="support" d="M{:.1} {:.1}L{:.1} {:.1}" stroke="#ffffff" stroke-width="4" fill="none" stroke-opacity="0.8"/><path d="M{:.1} {:.1}L{:.1} {:.1}" stroke="{c}" stroke-width="2" stroke-dasharray="5 3" fill="none"/>"##,
                a.0, a.1, b.0, b.1, a.0, a.1, b.0, b.1
            );
            if *hold {
                let _ = writeln!(
                    o,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="14" fill="none" stroke="{c}" stroke-width="2" stroke-dasharray="5 3"/>"#,
                    to.0, to.1
                );
            } else {
                let _ = writeln!(
                    o,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{c}"/>"#,
                    b.0, b.1
                );
            }
            if *failed {
                cross(o, mid(a, b), 5.0, "cut");
            }
            if let Some(t) = tag {
                tag_box(o, mid(a, b), t);
            }
        }
        Mark::Arrow {
            power,
            from,
            via,
            to,
            ok,
            retreat,
            tag,
        } => arrow(o, *power, *from, via, *to, *ok, *retreat, tag.as_deref()),
        Mark::Option { from, to } => {
            let (a, b) = shorten(*from, *to, 8.0, 6.0);
            let _ = writeln!(
                o,
                r##"<path class="option" d="M{:.1} {:.1}L{:.1} {:.1}" stroke="#d50000" stroke-width="1.3" stroke-dasharray="1.5 3" fill="none"/><circle cx="{:.1}" cy="{:.1}" r="3" fill="none" stroke="#d50000" stroke-width="1.2"/>"##,
                a.0, a.1, b.0, b.1, b.0, b.1
            );
        }
    }
}

/// A centre's mark by its name, white or in its owner's colour.
fn centre_mark(o: &mut String, l: &layout::Label, owner: Option<PowerId>) {
    let (fill, stroke) = owner.map_or(("#ffffff", "#222222"), |w| (colour(w), "#111111"));
    let _ = write!(
        o,
        r#"<circle class="centre" cx="{:.1}" cy="{:.1}" r="3.6" fill="{fill}" stroke="{stroke}" stroke-width="1.3"/>"#,
        l.x + 4.5,
        l.y + l.h / 2.0
    );
}

fn mid(a: Pt, b: Pt) -> Pt {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// The segment from `a` to `b` with `s` cut from its start and `e` from
/// its end (less if it is short).
fn shorten(a: Pt, b: Pt, s: f32, e: f32) -> (Pt, Pt) {
    let d = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
    if d < 1e-3 {
        return (a, b);
    }
    let k = (d - 4.0).max(0.0) / (s + e).max(1e-3);
    let (s, e) = if k < 1.0 { (s * k, e * k) } else { (s, e) };
    let (ux, uy) = ((b.0 - a.0) / d, (b.1 - a.1) / d);
    ((a.0 + ux * s, a.1 + uy * s), (b.0 - ux * e, b.1 - uy * e))
}

fn cross(o: &mut String, at: Pt, r: f32, class: &str) {
    let _ = write!(
        o,
        r##"<path class="{class}" d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="#111111" stroke-width="2.4" stroke-linecap="round"/>"##,
        at.0 - r,
        at.1 - r,
        at.0 + r,
        at.1 + r,
        at.0 + r,
        at.1 - r,
        at.0 - r,
        at.1 + r
    );
}

fn tag_box(o: &mut String, at: Pt, t: &str) {
    let w = 5.0 + t.chars().count() as f32 * 5.6;
    let _ = write!(
        o,
        r##"<g class="tag"><rect x="{:.1}" y="{:.1}" width="{w:.1}" height="12" rx="3" fill="#ffffff" stroke="#333333" stroke-width="0.8"/><text x="{:.1}" y="{:.1}" font-size="9" text-anchor="middle" fill="#111111">{}</text></g>"##,
        at.0 - w / 2.0,
        at.1 - 6.0,
        at.0,
        at.1 + 3.2,
        esc(t)
    );
}

/// A move's arrow: a white halo under a line in the power's colour, an
/// arrowhead when it got there, a bar across its end when it did not.
#[allow(clippy::too_many_arguments)]
fn arrow(
    o: &mut String,
    power: PowerId,
    from: Pt,
    via: &[Pt],
    to: Pt,
    ok: bool,
    retreat: bool,
    tag: Option<&str>,
) {
    let mut pts: Vec<Pt> = vec![from];
    pts.extend_from_slice(via);
    pts.push(to);
    let n = pts.len();
    let (a, _) = shorten(pts[0], pts[1], 9.0, 0.0);
    pts[0] = a;
    let last = pts[n - 2];
    // A bounced move stops short of its goal, at a bar.
    let end_cut = if ok { 17.0 } else { 0.0 };
    let (_, mut b) = shorten(last, to, 0.0, end_cut);
    if !ok {
        b = (
            last.0 + (to.0 - last.0) * 0.62,
            last.1 + (to.1 - last.1) * 0.62,
        );
    }
    pts[n - 1] = b;
    let d: String = pts
        .iter()
        .enumerate()
        .map(|(k, p)| format!("{}{:.1} {:.1}", if k == 0 { 'M' } else { 'L' }, p.0, p.1))
        .collect();
    let c = colour(power);
    let dash = if retreat {
        r#" stroke-dasharray="6 3""#
    } else {
        ""
    };
    let class = match (retreat, ok) {
        (true, _) => "retreat",
        (false, true) => "move",
        (false, false) => "move bounced",
    };
    let _ = write!(
        o,
        r##"<g class="{class}"><path d="{d}" stroke="#ffffff" stroke-opacity="0.85" stroke-width="5" fill="none" stroke-linejoin="round"/><path d="{d}" stroke="{c}" stroke-width="2.6" fill="none" stroke-linejoin="round"{dash}/>"##
    );
    let (ux, uy) = {
        let (dx, dy) = (b.0 - last.0, b.1 - last.1);
        let l = (dx * dx + dy * dy).sqrt().max(1e-3);
        (dx / l, dy / l)
    };
    if ok {
        let tip = (b.0 + ux * 6.0, b.1 + uy * 6.0);
        let l = (b.0 - uy * 5.0, b.1 + ux * 5.0);
        let r = (b.0 + uy * 5.0, b.1 - ux * 5.0);
        let _ = write!(
            o,
            r##"<path d="M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z" fill="{c}" stroke="#ffffff" stroke-width="0.8"/>"##,
            tip.0, tip.1, l.0, l.1, r.0, r.1
        );
    } else {
        let _ = write!(
            o,
            r##"<path d="M{:.1} {:.1}L{:.1} {:.1}" stroke="#111111" stroke-width="3.2"/>"##,
            b.0 - uy * 7.0,
            b.1 + ux * 7.0,
            b.0 + uy * 7.0,
            b.1 - ux * 7.0
        );
    }
    if let Some(t) = tag {
        // On the longest leg, a little before its middle.
        let k = (0..n - 1)
            .max_by(|&i, &j| {
                let li = (pts[i + 1].0 - pts[i].0).hypot(pts[i + 1].1 - pts[i].1);
                let lj = (pts[j + 1].0 - pts[j].0).hypot(pts[j + 1].1 - pts[j].1);
                li.total_cmp(&lj)
            })
            .unwrap_or(0);
        tag_box(o, mid(pts[k], pts[k + 1]), t);
    }
    let _ = writeln!(o, "</g>");
}

/// The board after a phase, as SVG: `title` on top, `dislodged` units (with
/// their retreat options) beside their provinces. No orders: see
/// [`Picture::phase_svg`] for those.
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
pub(crate) fn svg_for(
    v: &Variant,
    pos: &Position,
    dislodged: &[(Unit, Vec<RegionId>)],
    title: &str,
    viewer: Viewer,
) -> String {
    Picture::new(v).board_svg(pos, dislodged, title, viewer)
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

pub use raster::png;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_power_of_every_shipped_variant_has_its_own_initials() {
        for (name, _) in crate::variant::BUILTIN {
            let Some(Ok(v)) = crate::variant::builtin(name) else {
                panic!("{name} loads");
            };
            let tags = initials(&v);
            for (i, t) in tags.iter().enumerate() {
                assert!(!t.is_empty() && t.chars().count() <= 2, "{name}: {t}");
                assert_eq!(
                    tags.iter().filter(|x| *x == t).count(),
                    1,
                    "{name}: {i} {t}"
                );
            }
        }
    }

    #[test]
    fn spain_and_sweden_are_told_apart_by_their_second_letters() {
        let Some(Ok(v)) = crate::variant::builtin("1700ad") else {
            panic!("1700ad loads");
        };
        let tags = initials(&v);
        let of = |name: &str| {
            v.map
                .lookup_power(name)
                .map(|p| tags[p.index()].clone())
                .unwrap_or_default()
        };
        assert_eq!((of("Spain"), of("Sweden")), ("Sp".into(), "Sw".into()));
    }

    #[test]
    fn the_picture_setting_reads_as_written_in_the_config() {
        #[derive(Deserialize)]
        struct Report {
            picture: PictureFormat,
        }
        for (word, f) in [
            ("png", PictureFormat::Png),
            ("svg", PictureFormat::Svg),
            ("both", PictureFormat::Both),
            ("none", PictureFormat::None),
        ] {
            let r: Report = toml::from_str(&format!("picture = \"{word}\"")).expect(word);
            assert_eq!(r.picture, f);
            assert_eq!(PictureFormat::parse(&word.to_uppercase()), Some(f));
            assert_eq!(f.as_str(), word);
        }
        assert!(toml::from_str::<Report>("picture = \"jpeg\"").is_err());
        assert_eq!(PictureFormat::parse("jpeg"), None);
        assert!(PictureFormat::Both.png() && PictureFormat::Both.svg());
        assert!(!PictureFormat::None.png() && !PictureFormat::None.svg());
    }
}
