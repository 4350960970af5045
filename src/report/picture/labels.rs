//! Province names placed so that no two overlap and none covers a place
//! where a unit may stand: the boxes are reserved once per map, for every
//! region (a fleet on each coast too) and for the dislodged unit beside
//! it, so a name is never hidden under a unit whatever the position. Each
//! name tries spots around its province's unit, nearest first, inside its
//! own area if it can; the most crowded provinces choose first.

use super::layout::{DISLODGED_OFFSET, Geometry, Label, Pt, TOKEN_H, TOKEN_W, inside};
use crate::map::{Map, Terrain};

/// A box: left, top, width, height.
pub(crate) type Rect = [f32; 4];

/// The font's width per character for the labels (DejaVu Sans Condensed,
/// bold capitals and small letters): a little over the real advance, so
/// boxes are never smaller than the text drawn.
const EM_PER_CHAR: f32 = 0.66;
/// Room for the supply-centre mark before a centre's name.
const CENTRE_MARK: f32 = 9.0;

/// Whether two boxes overlap (touching edges do not).
pub(crate) fn overlap(a: &Rect, b: &Rect) -> bool {
    a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
}

/// The box kept for a unit standing at `p`.
pub(crate) fn token_box(p: Pt) -> Rect {
    [p.0 - TOKEN_W / 2.0, p.1 - TOKEN_H / 2.0, TOKEN_W, TOKEN_H]
}

/// The size of a label's box for `text` at font `size`.
pub(crate) fn label_size(text: &str, size: f32, centre: bool) -> (f32, f32) {
    let w = text.chars().count() as f32 * size * EM_PER_CHAR + 4.0;
    (w + if centre { CENTRE_MARK } else { 0.0 }, size + 3.0)
}

/// Place every province's label on `g`.
pub(crate) fn place(map: &Map, g: &mut Geometry) {
    let mut taken: Vec<Rect> = Vec::new();
    for (ri, reg) in map.regions().iter().enumerate() {
        let p = reg.province;
        if map.province(p).terrain == crate::map::Terrain::OffBoard {
            continue;
        }
        let s = g.spots[ri];
        taken.push(token_box(s));
        taken.push(token_box((
            s.0 + DISLODGED_OFFSET.0,
            s.1 + DISLODGED_OFFSET.1,
        )));
    }
    for b in &g.boxes {
        taken.push(b.rect);
    }
    // Crowded first: the provinces with the smallest areas.
    let mut order: Vec<usize> = (0..map.provinces().len()).collect();
    let area = |i: usize| -> f32 {
        g.areas[i]
            .rings
            .iter()
            .map(|r| ring_area(r).abs())
            .sum::<f32>()
    };
    let areas: Vec<f32> = order.iter().map(|&i| area(i)).collect();
    order.sort_by(|&a, &b| areas[a].total_cmp(&areas[b]));
    for i in order {
        let prov = &map.provinces()[i];
        if prov.terrain == Terrain::OffBoard {
            // A box's name is written inside it.
            if let Some(b) = g
                .boxes
                .iter()
                .find(|b| b.province.index() == i)
                .map(|b| b.rect)
            {
                let (w, h) = label_size(&prov.abbr, 11.0, prov.supply_centre);
                g.areas[i].label = Label {
                    x: b[0] + 4.0,
                    y: b[1] + 3.0,
                    w,
                    h,
                    size: 11.0,
                    centre: prov.supply_centre,
                };
            }
            continue;
        }
        let label = best(g, i, &prov.abbr, prov.supply_centre, &taken);
        taken.push([label.x, label.y, label.w, label.h]);
        g.areas[i].label = label;
    }
}

fn ring_area(r: &[Pt]) -> f32 {
    let n = r.len();
    (0..n)
        .map(|k| {
            let (a, b) = (r[k], r[(k + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum::<f32>()
        / 2.0
}

/// The smallest font a name is drawn in: smaller does not read in a mail
/// reader's window, where the picture is shown at about its own size.
pub(crate) const MIN_SIZE: f32 = 9.0;

/// The best free spot for province `i`'s label. Nearest to its unit first,
/// and a larger font before a smaller: a name at 10 or 11 pixels with most
/// of it over its province reads better than one squeezed inside at 9, and
/// a free spot a little further off better than none. Never under
/// [`MIN_SIZE`].
fn best(g: &Geometry, i: usize, text: &str, centre: bool, taken: &[Rect]) -> Label {
    let unit = g.areas[i].unit;
    let rings = &g.areas[i].rings;
    let free = |r: &Rect| {
        r[0] >= 1.0
            && r[1] >= 1.0
            && r[0] + r[2] <= g.width - 1.0
            && r[1] + r[3] <= g.height - 1.0
            && !taken.iter().any(|t| overlap(t, r))
    };
    let label = |r: Rect, size: f32| Label {
        x: r[0],
        y: r[1],
        w: r[2],
        h: r[3],
        size,
        centre,
    };
    let corners_in = |r: &Rect| {
        let (cx, cy) = (r[0] + r[2] / 2.0, r[1] + r[3] / 2.0);
        [
            (r[0], r[1]),
            (r[0] + r[2], r[1]),
            (r[0], r[1] + r[3]),
            (r[0] + r[2], r[1] + r[3]),
            (cx, cy),
        ]
        .iter()
        .filter(|&&p| inside(rings, p))
        .count()
    };
    for sizes in [&[11.0f32, 10.0][..], &[MIN_SIZE][..]] {
        let mut fallback: Option<Label> = None;
        for &size in sizes {
            let (w, h) = label_size(text, size, centre);
            for (dx, dy) in candidates() {
                // Offsets are from the unit's box edges to the label's
                // centre.
                let cx = unit.0 + dx * (TOKEN_W / 2.0 + w / 2.0 + 1.0);
                let cy = unit.1 + dy * (TOKEN_H / 2.0 + h / 2.0 + 1.0);
                let r = [cx - w / 2.0, cy - h / 2.0, w, h];
                if !free(&r) {
                    continue;
                }
                match corners_in(&r) {
                    5 => return label(r, size),
                    3 | 4 if fallback.is_none() => fallback = Some(label(r, size)),
                    _ => {}
                }
            }
        }
        if let Some(l) = fallback {
            return l;
        }
    }
    // Anywhere free round the unit, nearest first: close at 10 pixels,
    // then at the smallest size as far as it takes.
    // Sixteen spots round each ring; then, on a board so crowded none
    // was free, a spot every 8 pixels or so round wider rings.
    for (size, rings_out, dense) in [
        (10.0f32, 10, false),
        (MIN_SIZE, 40, false),
        (MIN_SIZE, 60, true),
    ] {
        let (w, h) = label_size(text, size, centre);
        for ring in 1..rings_out {
            let rad = ring as f32 * 6.0;
            let spots = if dense {
                ((rad * std::f32::consts::TAU / 8.0) as usize).max(16)
            } else {
                16
            };
            for k in 0..spots {
                let a = k as f32 * std::f32::consts::TAU / spots as f32;
                let cx = unit.0 + a.cos() * rad;
                let cy = unit.1 + a.sin() * rad;
                let r = [cx - w / 2.0, cy - h / 2.0, w, h];
                if free(&r) {
                    return label(r, size);
                }
            }
        }
    }
    let (w, h) = label_size(text, MIN_SIZE, centre);
    label([unit.0 - w / 2.0, unit.1 + TOKEN_H, w, h], MIN_SIZE)
}

/// Directions tried, in units of "just clear of the unit's box": below,
/// above, right, left, the corners, then twice as far.
fn candidates() -> Vec<(f32, f32)> {
    let near = [
        (0.0, 1.0),
        (0.0, -1.0),
        (1.0, 0.0),
        (-1.0, 0.0),
        (1.0, 1.0),
        (-1.0, 1.0),
        (1.0, -1.0),
        (-1.0, -1.0),
    ];
    let mut out: Vec<(f32, f32)> = near.to_vec();
    for k in [2.0f32, 3.0, 4.5] {
        out.extend(near.iter().map(|&(x, y)| (x * k * 0.8, y * k)));
        out.extend([(0.5 * k, k), (-0.5 * k, k), (0.5 * k, -k), (-0.5 * k, -k)]);
    }
    out
}
