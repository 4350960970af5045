//! SVG to PNG: resvg draws, then the picture is written with a palette of
//! at most 256 colours. A map is flat colours plus their anti-aliased
//! edges, so a palette loses little to the eye and makes the file about a
//! third of a true-colour one, which matters when it goes to every player
//! with every result.

use super::PictureError;
use resvg::tiny_skia::Pixmap;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The font the pictures are drawn with (DejaVu Sans Condensed; see
/// assets/README.md for its licence).
const FONT: &[u8] = include_bytes!("../../../assets/DejaVuSansCondensed.ttf");

/// The font database, read once: parsing the font for every picture
/// costs more than drawing a phase's units.
fn fonts() -> std::sync::Arc<resvg::usvg::fontdb::Database> {
    static FONTS: OnceLock<std::sync::Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = resvg::usvg::fontdb::Database::new();
            db.load_font_data(FONT.to_vec());
            std::sync::Arc::new(db)
        })
        .clone()
}

pub(super) fn tree(svg: &str) -> Result<resvg::usvg::Tree, PictureError> {
    let opt = resvg::usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".to_string(),
        ..Default::default()
    };
    Ok(resvg::usvg::Tree::from_str(svg, &opt)?)
}

/// Rasterise `svg`, on white when `opaque` (so every pixel is a plain
/// colour), else on a transparent canvas.
pub(super) fn pixmap(svg: &str, opaque: bool) -> Result<Pixmap, PictureError> {
    let tree = tree(svg)?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    let mut pixmap = Pixmap::new(w, h).ok_or(PictureError::Canvas(w, h))?;
    if opaque {
        pixmap.fill(resvg::tiny_skia::Color::WHITE);
    }
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// Draw `svg` over what `pixmap` holds.
pub(super) fn render_onto(svg: &str, pixmap: &mut Pixmap) -> Result<(), PictureError> {
    let tree = tree(svg)?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    Ok(())
}

/// Rasterise `svg` to PNG bytes.
pub fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    encode(&pixmap(svg, true)?)
}

/// An opaque picture as a palette PNG, its palette chosen for it alone.
pub(super) fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, PictureError> {
    let keys = keys(pixmap);
    let colours = count(keys.iter().copied());
    let mut palette = Vec::with_capacity(256);
    choose(&colours, &mut palette, 256);
    let nearest = nearest_of(&colours, &palette, &exact_of(&palette));
    let index = keys
        .iter()
        .map(|k| nearest.get(k).copied().unwrap_or(0))
        .collect::<Vec<u8>>();
    write(pixmap.width(), pixmap.height(), &palette, &index)
}

/// How many palette entries the fixed layers of a map may take; the rest
/// are left for what a phase draws over them (the owners' hatches, the
/// units, the orders).
const FIXED: usize = 160;

/// The palette of a map's fixed layers, chosen once, and each of their
/// pixels' index in it. A phase's picture is mostly these layers
/// unchanged: such a pixel takes the index it had, and only the pixels a
/// phase changed are looked up, against the fixed palette and a few
/// colours of the phase's own.
pub(super) struct Fixed {
    /// The fixed layers' pixels, as the pixmap holds them.
    rgba: Vec<u8>,
    /// Their indices in `palette`.
    index: Vec<u8>,
    palette: Vec<[u8; 3]>,
    /// Each entry of `palette` by its colour.
    exact: KeyMap<u8>,
}

impl Fixed {
    /// The palette of `reference`, the fixed layers as a phase leaves
    /// them where it draws nothing.
    pub(super) fn new(reference: &Pixmap) -> Fixed {
        let keys = keys(reference);
        let colours = count(keys.iter().copied());
        let mut palette = Vec::with_capacity(256);
        choose(&colours, &mut palette, FIXED);
        let rgba = reference.data().to_vec();
        let exact = exact_of(&palette);
        let nearest = nearest_of(&colours, &palette, &exact);
        let index = keys
            .iter()
            .map(|k| nearest.get(k).copied().unwrap_or(0))
            .collect();
        Fixed {
            rgba,
            index,
            palette,
            exact,
        }
    }

    /// `pixmap`, drawn over the fixed layers, as a palette PNG.
    pub(super) fn encode(&self, pixmap: &Pixmap) -> Result<Vec<u8>, PictureError> {
        let data = pixmap.data();
        if data.len() != self.rgba.len() || pixmap.width() == 0 {
            return encode(pixmap);
        }
        // The runs of pixels the phase changed, by rows: a row the phase
        // left alone is skipped with one comparison.
        let row = pixmap.width() as usize * 4;
        let mut runs: Vec<(usize, usize, u32)> = Vec::new();
        for (y, (now, was)) in data
            .chunks_exact(row)
            .zip(self.rgba.chunks_exact(row))
            .enumerate()
        {
            if now == was {
                continue;
            }
            let first = y * row / 4;
            for (x, (p, q)) in now.chunks_exact(4).zip(was.chunks_exact(4)).enumerate() {
                if p == q {
                    continue;
                }
                let k = key([p[0], p[1], p[2]]);
                let i = first + x;
                match runs.last_mut() {
                    Some((start, n, c)) if *c == k && *start + *n == i => *n += 1,
                    _ => runs.push((i, 1, k)),
                }
            }
        }
        let mut count: KeyMap<u32> = KeyMap::default();
        for &(_, n, k) in &runs {
            *count.entry(k).or_default() += n as u32;
        }
        let colours = sorted(count);
        let mut palette = self.palette.clone();
        let mut exact = self.exact.clone();
        let fixed = palette.len();
        choose(&colours, &mut palette, 256);
        for (i, &c) in palette.iter().enumerate().skip(fixed) {
            exact.insert(key(c), i as u8);
        }
        let nearest = nearest_of(&colours, &palette, &exact);
        let mut index = self.index.clone();
        for &(start, n, k) in &runs {
            let x = nearest.get(&k).copied().unwrap_or(0);
            index[start..start + n].fill(x);
        }
        write(pixmap.width(), pixmap.height(), &palette, &index)
    }
}

/// How many shades an anti-aliased edge of the fixed layers keeps between
/// its two colours, the two included. Three make the standard opening's
/// PNG 11% smaller than exact edges, four 8%; two (no anti-aliasing)
/// 19%, with stepped coasts.
const LEVELS: u32 = 3;

/// Snap the anti-aliased edges of the opaque `pixmap`, in the rows
/// `rows`, to a few shades. A pixel on an edge is a mix of the two
/// colours either side of it (sea and coast, land and border); drawn
/// exactly, a wavy coastline gives almost every pixel along it a shade of
/// its own, which deflate cannot shorten: the standard map's coasts and
/// borders were four fifths of its PNG. Each such pixel takes instead the
/// nearest of [`LEVELS`] steps between the two colours of `named` it lies
/// between (either colour, or half of each), which the eye hardly tells
/// from the exact mix at this size; the phase's picture is a ninth
/// smaller. Only the map's fixed areas are snapped, once per map: the
/// names and the phase's drawing keep their exact shades.
/// A pixel that is not such a mix (where three colours meet) is left.
pub(super) fn snap_edges(pixmap: &mut Pixmap, named: &[[u8; 3]], rows: std::ops::Range<u32>) {
    let w = pixmap.width() as usize * 4;
    let (start, end) = (
        (rows.start as usize * w).min(pixmap.data().len()),
        (rows.end as usize * w).min(pixmap.data().len()),
    );
    let mut snapped: KeyMap<u32> = KeyMap::default();
    for c in named {
        snapped.insert(key(*c), key(*c));
    }
    let mut last: Option<(u32, u32)> = None;
    for p in pixmap.data_mut()[start..end].chunks_exact_mut(4) {
        let k = key([p[0], p[1], p[2]]);
        let to = match last {
            Some((from, to)) if from == k => to,
            _ => *snapped.entry(k).or_insert_with(|| key(snap(rgb(k), named))),
        };
        last = Some((k, to));
        if to != k {
            let c = rgb(to);
            p[..3].copy_from_slice(&c);
        }
    }
}

/// `c` as the nearest step between the two colours of `named` it is a mix
/// of, or `c` itself if it is no such mix.
fn snap(c: [u8; 3], named: &[[u8; 3]]) -> [u8; 3] {
    let f = |x: [u8; 3]| x.map(f32::from);
    let c = f(c);
    let mut best: Option<(f32, [f32; 3], [f32; 3], f32)> = None;
    for (i, &a) in named.iter().enumerate() {
        for &b in &named[i + 1..] {
            let (a, b) = (f(a), f(b));
            let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let len = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if len == 0.0 {
                continue;
            }
            let t = (((c[0] - a[0]) * d[0] + (c[1] - a[1]) * d[1] + (c[2] - a[2]) * d[2]) / len)
                .clamp(0.0, 1.0);
            let off: f32 = (0..3).map(|j| (a[j] + t * d[j] - c[j]).powi(2)).sum();
            if best.is_none_or(|(o, ..)| off < o) {
                best = Some((off, a, d, t));
            }
        }
    }
    // Further than a few units off the line between them: not their mix.
    match best {
        Some((off, a, d, t)) if off <= 48.0 => {
            let steps = (LEVELS - 1) as f32;
            let t = (t * steps).round() / steps;
            [0, 1, 2].map(|j| (a[j] + t * d[j]).round().clamp(0.0, 255.0) as u8)
        }
        _ => c.map(|x| x as u8),
    }
}

/// The colours an SVG names (`#rrggbb`), once each.
pub(super) fn named_colours(svg: &str) -> Vec<[u8; 3]> {
    let mut out: Vec<[u8; 3]> = Vec::new();
    for (i, _) in svg.match_indices('#') {
        let Some(hex) = svg.get(i + 1..i + 7) else {
            continue;
        };
        let Ok(k) = u32::from_str_radix(hex, 16) else {
            continue;
        };
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        let c = rgb(k);
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Write a palette PNG.
fn write(w: u32, h: u32, palette: &[[u8; 3]], index: &[u8]) -> Result<Vec<u8>, PictureError> {
    let mut out = Vec::with_capacity(128 * 1024);
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(palette.iter().flatten().copied().collect::<Vec<u8>>());
        // Indexed pixels compress best unfiltered. Deflate's level 4 makes
        // a file 5% larger than its level 9 in a third of the time (the
        // PNG's own fast mode, tuned for filtered true colour, makes one
        // five times larger). Deflate is flate2's zlib-rs backend
        // (Cargo.toml): its default, miniz_oxide, took a fifth of a phase.
        enc.set_deflate_compression(png::DeflateCompression::Level(4));
        enc.set_filter(png::Filter::NoFilter);
        let mut writer = enc
            .write_header()
            .map_err(|e| PictureError::Png(e.to_string()))?;
        writer
            .write_image_data(index)
            .map_err(|e| PictureError::Png(e.to_string()))?;
    }
    Ok(out)
}

/// An opaque pixmap's pixels as colour keys.
fn keys(pixmap: &Pixmap) -> Vec<u32> {
    pixmap
        .data()
        .chunks_exact(4)
        .map(|p| key([p[0], p[1], p[2]]))
        .collect()
}

fn key(c: [u8; 3]) -> u32 {
    (u32::from(c[0]) << 16) | (u32::from(c[1]) << 8) | u32::from(c[2])
}

fn rgb(k: u32) -> [u8; 3] {
    [(k >> 16) as u8, (k >> 8) as u8, k as u8]
}

fn dist(a: [u8; 3], b: [u8; 3]) -> u32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).unsigned_abs();
    // Weighted for the eye: green counts most, blue least.
    3 * d(a[0], b[0]).pow(2) + 4 * d(a[1], b[1]).pow(2) + 2 * d(a[2], b[2]).pow(2)
}

/// A hasher for colour keys: one multiplication. The keys are 24-bit
/// colours, not chosen by anyone, so no protection against crafted keys
/// is needed, and the default hasher is several times slower here.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u32(&mut self, k: u32) {
        self.0 = u64::from(k).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type KeyMap<V> = HashMap<u32, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// How many of the commonest colours may claim a palette entry: the rest
/// are edge shades seen a few times each, which take the nearest entry.
const CANDIDATES: usize = 2048;

/// Each colour of `keys` and how often it comes, commonest first.
/// Neighbouring pixels are mostly the same colour: runs are counted, not
/// pixels, to spare the hashing.
fn count(keys: impl Iterator<Item = u32>) -> Vec<(u32, u32)> {
    let mut count: KeyMap<u32> = KeyMap::default();
    let mut run: Option<(u32, u32)> = None;
    for k in keys {
        match &mut run {
            Some((c, n)) if *c == k => *n += 1,
            _ => {
                if let Some((c, n)) = run {
                    *count.entry(c).or_default() += n;
                }
                run = Some((k, 1));
            }
        }
    }
    if let Some((c, n)) = run {
        *count.entry(c).or_default() += n;
    }
    sorted(count)
}

fn sorted(count: KeyMap<u32>) -> Vec<(u32, u32)> {
    let mut colours: Vec<(u32, u32)> = count.into_iter().collect();
    colours.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    colours
}

/// Fill `palette` up to `budget` entries from `colours` (commonest
/// first): a rarer colour (an anti-aliased edge) gets a place only if no
/// colour near it has one yet, so the edges keep their shades.
fn choose(colours: &[(u32, u32)], palette: &mut Vec<[u8; 3]>, budget: usize) {
    let budget = budget.min(256);
    for near in [300u32, 120, 40, 0] {
        for &(k, _) in colours.iter().take(CANDIDATES) {
            if palette.len() >= budget {
                return;
            }
            let c = rgb(k);
            if palette.iter().all(|&p| dist(p, c) > near) {
                palette.push(c);
            }
        }
    }
}

/// The palette's entries by colour.
fn exact_of(palette: &[[u8; 3]]) -> KeyMap<u8> {
    let mut exact = KeyMap::default();
    for (i, &p) in palette.iter().enumerate().rev() {
        exact.insert(key(p), i as u8);
    }
    exact
}

/// Each colour's nearest palette entry: exact for the palette's own
/// colours and the common ones; the rare shades of anti-aliased edges
/// take the entry nearest their 4-bit bucket, which is as good to the eye
/// and spares a search of the whole palette for each.
fn nearest_of(colours: &[(u32, u32)], palette: &[[u8; 3]], exact: &KeyMap<u8>) -> KeyMap<u8> {
    let closest = |c: [u8; 3]| -> u8 {
        (0..palette.len())
            .min_by_key(|&i| dist(palette[i], c))
            .unwrap_or(0) as u8
    };
    let mut nearest: KeyMap<u8> = KeyMap::default();
    nearest.reserve(colours.len());
    let mut buckets: Vec<Option<u8>> = vec![None; 4096];
    for &(k, n) in colours {
        if let Some(&i) = exact.get(&k) {
            nearest.insert(k, i);
            continue;
        }
        let c = rgb(k);
        let i = if n >= 32 {
            closest(c)
        } else {
            let b = (usize::from(c[0] >> 4) << 8)
                | (usize::from(c[1] >> 4) << 4)
                | usize::from(c[2] >> 4);
            *buckets[b].get_or_insert_with(|| closest([c[0] | 8, c[1] | 8, c[2] | 8]))
        };
        nearest.insert(k, i);
    }
    nearest
}

/// A palette for `pixels` and each pixel's index in it.
#[cfg(test)]
fn quantise(pixels: &[[u8; 3]]) -> (Vec<[u8; 3]>, Vec<u8>) {
    let colours = count(pixels.iter().map(|&p| key(p)));
    let mut palette = Vec::new();
    choose(&colours, &mut palette, 256);
    let exact = exact_of(&palette);
    let nearest = nearest_of(&colours, &palette, &exact);
    let index = pixels
        .iter()
        .map(|&p| nearest.get(&key(p)).copied().unwrap_or(0))
        .collect();
    (palette, index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_colours_are_kept_exactly() {
        let px = [[255, 0, 0], [0, 0, 255], [255, 0, 0], [1, 2, 3]];
        let (pal, idx) = quantise(&px);
        for (p, i) in px.iter().zip(&idx) {
            assert_eq!(pal[usize::from(*i)], *p);
        }
    }

    #[test]
    fn an_edge_between_two_colours_keeps_three_shades_and_a_third_colour_is_left() {
        let (sea, coast) = ([0xbc, 0xd5, 0xec], [0x4d, 0x6f, 0x8f]);
        let mix = |t: f32| -> [u8; 3] {
            [0, 1, 2].map(|j| {
                (f32::from(sea[j]) + t * (f32::from(coast[j]) - f32::from(sea[j]))).round() as u8
            })
        };
        let named = [sea, coast];
        assert_eq!(snap(mix(0.2), &named), sea);
        assert_eq!(snap(mix(0.4), &named), mix(0.5));
        assert_eq!(snap(mix(0.6), &named), mix(0.5));
        assert_eq!(snap(mix(0.9), &named), coast);
        // Red is no mix of the two: it stays red.
        assert_eq!(snap([200, 30, 30], &named), [200, 30, 30]);
        let mut px = Pixmap::new(3, 2).expect("a pixmap");
        let c = mix(0.4);
        px.fill(resvg::tiny_skia::Color::from_rgba8(c[0], c[1], c[2], 255));
        snap_edges(&mut px, &named, 1..2);
        let d = px.data();
        assert_eq!(&d[..3], &c, "a row outside the range is left");
        assert_eq!(&d[12..15], &mix(0.5), "a row inside is snapped");
    }
}
