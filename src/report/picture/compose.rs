//! The PNG of a phase, composed: what is the same in every phase of a map
//! (land, sea, coasts, the names, the legend's key) is rasterised once per
//! map and kept ([`Layers`]); a phase draws only what changes over it (the
//! owners' tints, the orders, the centres' marks, the units, the counts)
//! and is encoded. The layers are painted in the order the SVG paints
//! them, so the PNG shows what the SVG does, at a tenth of the cost.
//!
//! What a phase draws is kept too, piece by piece (a unit on its spot, an
//! order's mark, a centre's mark, a legend line, an owned centre's tint),
//! rasterised the first time it is drawn: from one phase to the next most
//! of them recur, and drawing a kept piece costs a blend, not a parse and
//! a text layout.
//!
//! The kept layers live in a process-wide table keyed by a fingerprint of
//! everything they are drawn from (the variant's provinces and powers and
//! the placed map), so a picture made from a fresh [`Picture`] finds them
//! too. Nothing here reads a clock or a file.

use super::raster;
use super::{Part, Picture, PictureError, TOP, WIDTH, esc, legend_height};
use crate::game::Position;
use crate::variant::features::Viewer;
use resvg::tiny_skia::{
    FillRule, FilterQuality, Paint, Path, PathBuilder, Pattern, Pixmap, PixmapPaint, SpreadMode,
    Transform,
};
use std::collections::HashMap;
use std::fmt::Write;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

/// A map's layers that never change, rasterised.
pub(super) struct Layers {
    /// Background, seas, coasts, land and the legend's swatches and key.
    base: Pixmap,
    /// The province names, each cut out with its halo, and where it goes:
    /// drawn over the orders and under the units, as in the SVG.
    names: Vec<(i32, i32, Pixmap)>,
    /// The walls between areas that do not border, cut out with where
    /// they go (`None` on a map without walls): drawn over the owners'
    /// tints, as in the SVG, without drawing the SVG again.
    walls: Option<(i32, i32, Pixmap)>,
    /// Each province's area as a path, by province index (`None`: no
    /// area, or not a supply centre), for the owners' tints.
    areas: Vec<Option<Path>>,
    /// Each power's hatch tile, by power index: its colour, washed, and a
    /// line of it, as the SVG's pattern `h<i>`.
    hatches: Vec<Pixmap>,
    /// The palette of the base with its names, and their pixels' indices:
    /// most of a phase's picture, encoded without a palette search.
    fixed: raster::Fixed,
    /// Each owned centre's tint as drawn, by province and owner index,
    /// made when first needed: painting a hatch through an area costs a
    /// pattern lookup per pixel, drawing it made costs a blend.
    tints: Mutex<HashMap<(usize, usize), Kept>>,
}

/// Every map's layers drawn so far, by fingerprint. A judge plays a
/// handful of maps, so the table stays small.
fn table() -> &'static Mutex<HashMap<u64, Arc<Layers>>> {
    static TABLE: OnceLock<Mutex<HashMap<u64, Arc<Layers>>>> = OnceLock::new();
    TABLE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A fingerprint of what the fixed layers are drawn from: the variant's
/// name, provinces and powers, and every placed area, label, box and
/// wall. Two pictures with the same fingerprint draw the same base.
fn fingerprint(p: &Picture<'_>) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let v = p.variant;
    v.name.hash(&mut h);
    for prov in v.map.provinces() {
        prov.abbr.hash(&mut h);
        (prov.terrain as u8).hash(&mut h);
        prov.supply_centre.hash(&mut h);
    }
    for pw in v.map.powers() {
        pw.name.hash(&mut h);
    }
    let g = &p.geometry;
    let mut f = |x: f32| x.to_bits().hash(&mut h);
    f(g.width);
    f(g.height);
    for a in &g.areas {
        for r in &a.rings {
            for pt in r {
                f(pt.0);
                f(pt.1);
            }
            f(f32::NAN);
        }
        let l = a.label;
        for x in [l.x, l.y, l.w, l.h, l.size] {
            f(x);
        }
    }
    for b in &g.boxes {
        for x in b.rect {
            f(x);
        }
    }
    for r in g.neutral_land.iter().chain(&g.neutral_water) {
        for pt in r {
            f(pt.0);
            f(pt.1);
        }
        f(f32::NAN);
    }
    h.finish()
}

impl Picture<'_> {
    /// The picture's height in pixels.
    fn height(&self) -> f32 {
        (TOP + self.geometry.height + legend_height(self.variant)).ceil()
    }

    /// The start of every layer's SVG: the canvas and the patterns.
    fn head(&self, o: &mut String) {
        let height = self.height();
        let _ = writeln!(
            o,
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{WIDTH:.0}" height="{height:.0}" viewBox="0 0 {WIDTH:.0} {height:.0}" font-family="DejaVu Sans">"#
        );
        self.defs(o);
    }

    /// This map's fixed layers, drawn on first use.
    fn layers(&self) -> Result<Arc<Layers>, PictureError> {
        let key = fingerprint(self);
        let table = table();
        if let Some(l) = table.lock().ok().and_then(|t| t.get(&key).cloned()) {
            return Ok(l);
        }
        // Drawn outside the lock: two threads may both draw a new map
        // once, which costs less than making every map wait for it.
        let l = Arc::new(self.draw_layers()?);
        if let Ok(mut t) = table.lock() {
            t.entry(key).or_insert_with(|| Arc::clone(&l));
        }
        Ok(l)
    }

    fn draw_layers(&self) -> Result<Layers, PictureError> {
        let g = &self.geometry;
        let height = self.height();
        // Any position will do: the fixed parts do not read it.
        let pos = Position::initial(self.variant);
        let mut o = String::with_capacity(96 * 1024);
        self.head(&mut o);
        let a = self.area_parts(&pos, Part::Fixed);
        let _ = writeln!(
            o,
            r##"<rect width="{WIDTH:.0}" height="{height:.0}" fill="#fbfaf6"/><g transform="translate(0 {TOP:.0})"><rect class="board" width="{:.0}" height="{:.1}" fill="{}"/>"##,
            g.width,
            g.height,
            super::SEA
        );
        let _ = write!(
            o,
            "<defs>\n{}</defs>\n<g class=\"seas\">\n{}</g>\n<g class=\"coastline\">\n{}</g>\n<g class=\"lands\">\n{}</g>\n</g>",
            a.defs, a.sea, a.halo, a.land
        );
        self.legend_of(&mut o, &pos, TOP + g.height, Viewer::Gm, Part::Fixed);
        let _ = writeln!(o, "</svg>");
        let mut base = raster::pixmap(&o, true)?;
        // The board's coasts and borders to a few shades (the legend's
        // text keeps its own): most of the PNG's bytes are their edges.
        let top = TOP as u32;
        raster::snap_edges(
            &mut base,
            &raster::named_colours(&o),
            top..top + g.height.ceil() as u32,
        );

        let mut o = String::with_capacity(16 * 1024);
        self.head(&mut o);
        let _ = writeln!(o, r#"<g transform="translate(0 {TOP:.0})">"#);
        self.labels_of(&mut o, &pos, Part::Fixed);
        let _ = writeln!(o, "</g></svg>");
        let all = raster::pixmap(&o, false)?;
        // Each name with room for its halo.
        let mut names = Vec::new();
        for a in &g.areas {
            let l = a.label;
            if l.w <= 0.0 {
                continue;
            }
            let x = (l.x - 3.0).floor().max(0.0) as i32;
            let y = (l.y + TOP - 3.0).floor().max(0.0) as i32;
            let w = ((l.x + l.w + 4.0).ceil() as i32).min(all.width() as i32) - x;
            let h = ((l.y + TOP + l.h + 4.0).ceil() as i32).min(all.height() as i32) - y;
            let Some(r) =
                resvg::tiny_skia::IntRect::from_xywh(x, y, w.max(1) as u32, h.max(1) as u32)
            else {
                continue;
            };
            if let Some(px) = all.clone_rect(r) {
                names.push((x, y, px));
            }
        }
        let walls = self.walls();
        let walls = if walls.is_empty() {
            None
        } else {
            let mut o = String::with_capacity(walls.len() + 1024);
            self.head(&mut o);
            let _ = writeln!(
                o,
                r#"<g transform="translate(0 {TOP:.0})">{walls}</g></svg>"#
            );
            cut(&raster::pixmap(&o, false)?)
        };
        let map = &self.variant.map;
        let areas = map
            .province_ids()
            .map(|p| {
                let prov = map.province(p);
                let rings = &g.areas[p.index()].rings;
                if !prov.supply_centre || rings.is_empty() {
                    return None;
                }
                let mut b = PathBuilder::new();
                for r in rings {
                    for (k, pt) in r.iter().enumerate() {
                        // As the SVG's path data: to a tenth of a pixel.
                        let (x, y) = ((pt.0 * 10.0).round() / 10.0, (pt.1 * 10.0).round() / 10.0);
                        if k == 0 {
                            b.move_to(x, y);
                        } else {
                            b.line_to(x, y);
                        }
                    }
                    b.close();
                }
                b.finish()
            })
            .collect();
        let mut hatches = Vec::new();
        for pw in map.power_ids() {
            let (w, h, tile) = super::hatch_tile(pw);
            let tile = format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">{tile}</svg>"#
            );
            hatches.push(raster::pixmap(&tile, false)?);
        }
        let mut reference = base.clone();
        draw_names(&mut reference, &names);
        let fixed = raster::Fixed::new(&reference);
        Ok(Layers {
            base,
            names,
            walls,
            areas,
            hatches,
            fixed,
            tints: Mutex::default(),
        })
    }

    /// Compose the PNG of `s` over the fixed layers. Each unit, order's
    /// mark, centre's mark and legend line is a piece kept rasterised by
    /// its SVG ([`draw_piece`]): a unit stands on the same spot from phase
    /// to phase, so most of a phase is drawn without laying out text.
    pub(super) fn compose(
        &self,
        pos: &Position,
        s: &super::Scene,
        title: &str,
        viewer: Viewer,
    ) -> Result<Vec<u8>, PictureError> {
        let layers = self.layers()?;
        let g = &self.geometry;
        let mut px = layers.base.clone();
        // Under the names: the owners, walls, the title, boxes, orders.
        // The owners' tints, painted straight: a hatch pattern costs
        // resvg a canvas of its own for each area.
        self.tint(&layers, pos, &mut px);
        if let Some(w) = &layers.walls {
            draw_names(&mut px, std::slice::from_ref(w));
        }
        // The title changes with every phase: drawn, not kept.
        let mut o = String::with_capacity(4 * 1024);
        let _ = writeln!(
            o,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH:.0}" height="{:.0}" font-family="DejaVu Sans"><text x="10" y="24" font-size="19" font-weight="bold" fill="#222222">{}</text></svg>"##,
            self.height(),
            esc(title)
        );
        raster::render_onto(&o, &mut px)?;
        let on_map = |o: &mut String, draw: &dyn Fn(&mut String)| {
            o.clear();
            let _ = write!(o, r#"<g transform="translate(0 {TOP:.0})">"#);
            draw(o);
            o.push_str("</g>");
        };
        on_map(&mut o, &|o| self.boxes(o));
        draw_piece(&mut px, &o)?;
        for m in super::marks_in_order(s) {
            on_map(&mut o, &|o| super::mark(o, m));
            draw_piece(&mut px, &o)?;
        }
        draw_names(&mut px, &layers.names);
        // Over the names: the centres' marks, the units, the frame, the
        // counts.
        let map = &self.variant.map;
        for p in map.province_ids() {
            let l = g.areas[p.index()].label;
            if l.w > 0.0 && l.centre {
                let owner = pos.owners.get(p.index()).copied().flatten();
                on_map(&mut o, &|o| super::centre_mark(o, &l, owner));
                draw_piece(&mut px, &o)?;
            }
        }
        for (t, at) in self.placed(s) {
            on_map(&mut o, &|o| self.token(o, t.unit, at, t.style));
            draw_piece(&mut px, &o)?;
        }
        frame(&mut px, g.width, g.height);
        let top = TOP + g.height + 8.0;
        for line in self.count_lines(pos, viewer, true) {
            o.clear();
            let _ = write!(o, r#"<g transform="translate(0 {top:.0})">{line}</g>"#);
            draw_piece(&mut px, &o)?;
        }
        layers.fixed.encode(&px)
    }

    /// Tint each owned centre with its owner's hatch, as the SVG's
    /// `<g class="owners">` does.
    fn tint(&self, layers: &Layers, pos: &Position, px: &mut Pixmap) {
        for (i, area) in layers.areas.iter().enumerate() {
            let (Some(path), Some(owner)) = (area, pos.owners.get(i).copied().flatten()) else {
                continue;
            };
            let key = (i, owner.index());
            let kept = layers.tints.lock().ok().and_then(|t| t.get(&key).cloned());
            let piece = match kept {
                Some(p) => p,
                None => {
                    let Some(tile) = layers.hatches.get(owner.index()) else {
                        continue;
                    };
                    let p = Arc::new(tint_piece(path, tile));
                    if let Ok(mut t) = layers.tints.lock() {
                        t.insert(key, Arc::clone(&p));
                    }
                    p
                }
            };
            if let Some(p) = &*piece {
                paste(px, p.x, p.y, &p.pixmap);
            }
        }
    }
}

/// An area (a path in the map's coordinates) filled with a hatch `tile`
/// on a canvas of its own, on whole pixels where it lies on the picture,
/// the pattern lined up as on the picture.
fn tint_piece(path: &Path, tile: &Pixmap) -> Option<Piece> {
    let b = path.bounds();
    let (x0, y0) = (
        b.left().floor() as i32 - 1,
        (b.top() + TOP).floor() as i32 - 1,
    );
    let (x1, y1) = (
        b.right().ceil() as i32 + 1,
        (b.bottom() + TOP).ceil() as i32 + 1,
    );
    let mut pixmap = Pixmap::new((x1 - x0).max(1) as u32, (y1 - y0).max(1) as u32)?;
    let to = Transform::from_translate(-x0 as f32, TOP - y0 as f32);
    let paint = Paint {
        shader: Pattern::new(
            tile.as_ref(),
            SpreadMode::Repeat,
            FilterQuality::Nearest,
            1.0,
            // As on the picture: the path's move applies to it too.
            Transform::from_translate(0.0, TOP),
        ),
        anti_alias: true,
        ..Paint::default()
    };
    pixmap.fill_path(path, &paint, FillRule::EvenOdd, to, None);
    Some(Piece {
        x: x0,
        y: y0,
        pixmap,
    })
}

/// The frame round the map, as the SVG's `<rect>` over the units draws
/// it: a stroke straight on the canvas, which touches only its pixels.
fn frame(px: &mut Pixmap, width: f32, height: f32) {
    // As the SVG writes them.
    let (w, h) = (width.round(), (height * 10.0).round() / 10.0);
    let Some(rect) = resvg::tiny_skia::Rect::from_xywh(0.0, 0.0, w, h) else {
        return;
    };
    let mut paint = Paint::default();
    paint.set_color_rgba8(0x55, 0x55, 0x55, 0xff);
    paint.anti_alias = true;
    let stroke = resvg::tiny_skia::Stroke {
        width: 1.2,
        ..Default::default()
    };
    px.stroke_path(
        &PathBuilder::from_rect(rect),
        &paint,
        &stroke,
        Transform::from_translate(0.0, TOP),
        None,
    );
}

/// A piece of a phase's picture rasterised alone, and where it goes.
struct Piece {
    x: i32,
    y: i32,
    pixmap: Pixmap,
}

/// A piece kept (`None`: nothing to see).
type Kept = Arc<Option<Piece>>;

/// The pieces drawn so far, by their SVG (`None`: nothing to see), and
/// the bytes their pixels take.
#[derive(Default)]
struct Pieces {
    by_svg: HashMap<String, Kept>,
    bytes: usize,
}

/// The most the kept pieces may take: beyond it they are forgotten and
/// drawn anew. A map's units on every spot in every colour take a few
/// megabytes; the rest is orders' marks, which come and go.
const PIECES_BYTES: usize = 24 << 20;

fn pieces() -> &'static Mutex<Pieces> {
    static PIECES: OnceLock<Mutex<Pieces>> = OnceLock::new();
    PIECES.get_or_init(|| Mutex::new(Pieces::default()))
}

/// Draw `svg` (elements in the picture's coordinates) over `px`, from
/// the piece kept for it, rasterised now if there is none. The piece is
/// drawn on whole pixels where it lies, so it shows what drawing `svg`
/// straight on the picture would, bar the rounding of blending it in.
fn draw_piece(px: &mut Pixmap, svg: &str) -> Result<(), PictureError> {
    let kept = pieces()
        .lock()
        .ok()
        .and_then(|t| t.by_svg.get(svg).cloned());
    let piece = match kept {
        Some(p) => p,
        None => {
            let p = Arc::new(piece(svg)?);
            if let Ok(mut t) = pieces().lock() {
                let bytes = svg.len() + p.as_ref().as_ref().map_or(0, |p| p.pixmap.data().len());
                if t.bytes + bytes > PIECES_BYTES {
                    *t = Pieces::default();
                }
                t.bytes += bytes;
                t.by_svg.insert(svg.to_string(), Arc::clone(&p));
            }
            p
        }
    };
    if let Some(p) = &*piece {
        paste(px, p.x, p.y, &p.pixmap);
    }
    Ok(())
}

/// Rasterise `svg` on a canvas just big enough for it, placed on whole
/// pixels.
fn piece(svg: &str) -> Result<Option<Piece>, PictureError> {
    let doc = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH:.0}" height="{WIDTH:.0}" font-family="DejaVu Sans">{svg}</svg>"#
    );
    let tree = raster::tree(&doc)?;
    if !tree.root().has_children() {
        return Ok(None);
    }
    let b = tree.root().abs_layer_bounding_box();
    // A pixel more all round for the anti-aliased edges.
    let (x0, y0) = (b.left().floor() as i32 - 1, b.top().floor() as i32 - 1);
    let (x1, y1) = (b.right().ceil() as i32 + 1, b.bottom().ceil() as i32 + 1);
    let (w, h) = ((x1 - x0).max(1) as u32, (y1 - y0).max(1) as u32);
    let mut pixmap = Pixmap::new(w, h).ok_or(PictureError::Canvas(w, h))?;
    resvg::render(
        &tree,
        Transform::from_translate(-x0 as f32, -y0 as f32),
        &mut pixmap.as_mut(),
    );
    Ok(Some(Piece {
        x: x0,
        y: y0,
        pixmap,
    }))
}

/// The smallest part of a transparent `pixmap` that holds everything
/// drawn on it, and where it goes; `None` if nothing is.
fn cut(pixmap: &Pixmap) -> Option<(i32, i32, Pixmap)> {
    let w = pixmap.width() as usize;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (i, p) in pixmap.pixels().iter().enumerate() {
        if p.alpha() > 0 {
            let (x, y) = (i % w, i / w);
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
    }
    if x0 > x1 {
        return None;
    }
    let r =
        resvg::tiny_skia::IntRect::from_ltrb(x0 as i32, y0 as i32, x1 as i32 + 1, y1 as i32 + 1)?;
    Some((r.x(), r.y(), pixmap.clone_rect(r)?))
}

/// Draw the pieces cut out of the fixed layers (the names, the walls)
/// back where they go.
fn draw_names(px: &mut Pixmap, names: &[(i32, i32, Pixmap)]) {
    for (x, y, name) in names {
        paste(px, *x, *y, name);
    }
}

/// Blend `piece`, drawn on whole pixels, over `px` with its top left
/// corner at (`x`, `y`): how every kept piece goes back on the picture.
fn paste(px: &mut Pixmap, x: i32, y: i32, piece: &Pixmap) {
    px.draw_pixmap(
        x,
        y,
        piece.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
}
