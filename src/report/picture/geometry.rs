//! Where everything is on the picture: each province's area, where its
//! units stand, where its name goes.
//!
//! A variant with a companion outline file (see [`super::outline`]) gets
//! its drawn areas. Every other variant gets areas computed from its
//! province points: the Voronoi partition of the points, clipped to the
//! board, so each province is the part of the board nearer its point than
//! any other. Where two provinces border each other in the rules but their
//! cells do not touch, extra seeds of both are laid along the line between
//! their points until they do ("nudged"), so that what reads as a border on
//! the picture is one in the game. This needs no hand drawing, so the
//! reconstructed maps get a map-like picture too.

use super::grid::SeedGrid;
use super::layout::{Area, BoxRect, Label, MAP_WIDTH, inside};
use super::outline::Outline;
use crate::map::{Map, ProvinceId, RegionId, Terrain};
use std::collections::{HashMap, HashSet};

pub(crate) use super::layout::{DISLODGED_OFFSET, Geometry, Pt};

impl Geometry {
    /// The geometry of a map: from `outline` when given, else computed.
    pub fn new(map: &Map, outline: Option<&Outline>) -> Geometry {
        let mut g = match outline {
            Some(o) => from_outline(map, o),
            None => computed(map),
        };
        if g.drawn {
            g.borders = borders(map, &g);
        }
        place_coasts(map, &mut g, outline);
        if outline.is_none() {
            super::points::clear_coasts(map, &mut g);
        }
        super::labels::place(map, &mut g);
        g
    }
}

/// How near (pixels) two land areas' edges must run to be one border.
/// The outline files' areas are cut from one partition, so most borders
/// share their points exactly; a few run a hair apart (the Humber both
/// sides claim, the strait links of 1000 AD's rule 10), and read as a
/// border all the same. As near as the pictures' tests call two areas
/// touching.
const BORDER_NEAR: f32 = 1.0;

/// The lines where a land area meets another, or land no province claims:
/// each edge of a land area that runs along another land ring (its two ends
/// and its middle within [`BORDER_NEAR`] of it), chained into lines where
/// such edges follow each other. Of two areas along one border, the first
/// (by province) draws it along its ring; land no province claims never
/// draws. An edge that runs along no other land is a coast, or the
/// board's edge.
fn borders(map: &Map, g: &Geometry) -> Vec<Vec<Pt>> {
    // The rings, by the area they bound (land no province claims last,
    // as one area).
    let mut rings: Vec<(usize, &Vec<Pt>)> = map
        .province_ids()
        .zip(&g.areas)
        .enumerate()
        .filter(|(_, (p, _))| !matches!(map.province(*p).terrain, Terrain::Sea | Terrain::OffBoard))
        .flat_map(|(i, (_, a))| a.rings.iter().map(move |r| (i, r)))
        .collect();
    let neutral = g.areas.len();
    rings.extend(g.neutral_land.iter().map(|r| (neutral, r)));
    let grid = EdgeGrid::new(&rings);
    let mut out: Vec<Vec<Pt>> = Vec::new();
    for (area, r) in rings.iter().filter(|(a, _)| *a != neutral) {
        let mut line: Vec<Pt> = Vec::new();
        for k in 0..r.len() {
            let (a, b) = (r[k], r[(k + 1) % r.len()]);
            if a == b {
                continue;
            }
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            // Another area along the whole edge, after this one (one
            // before it drew the border along its own ring).
            let (at_b, at_mid) = (grid.near(b, *area), grid.near(mid, *area));
            let inner = grid
                .near(a, *area)
                .into_iter()
                .any(|o| o > *area && at_b.contains(&o) && at_mid.contains(&o));
            if !inner {
                if line.len() > 1 {
                    out.push(std::mem::take(&mut line));
                }
                line.clear();
                continue;
            }
            if line.last() != Some(&a) {
                if line.len() > 1 {
                    out.push(std::mem::take(&mut line));
                }
                line = vec![a];
            }
            line.push(b);
        }
        if line.len() > 1 {
            out.push(line);
        }
    }
    out
}

/// The land rings' edges in square cells, to find what runs near a point.
struct EdgeGrid<'a> {
    rings: &'a [(usize, &'a Vec<Pt>)],
    cells: HashMap<(i32, i32), Vec<(usize, usize)>>,
}

/// A cell's side, pixels.
const CELL: f32 = 8.0;

impl<'a> EdgeGrid<'a> {
    fn new(rings: &'a [(usize, &'a Vec<Pt>)]) -> EdgeGrid<'a> {
        let mut cells: HashMap<(i32, i32), Vec<(usize, usize)>> = HashMap::new();
        for (ri, (_, r)) in rings.iter().enumerate() {
            for k in 0..r.len() {
                let (a, b) = (r[k], r[(k + 1) % r.len()]);
                let cell = |v: f32| (v / CELL).floor() as i32;
                let (x0, x1) = (
                    cell(a.0.min(b.0) - BORDER_NEAR),
                    cell(a.0.max(b.0) + BORDER_NEAR),
                );
                let (y0, y1) = (
                    cell(a.1.min(b.1) - BORDER_NEAR),
                    cell(a.1.max(b.1) + BORDER_NEAR),
                );
                for x in x0..=x1 {
                    for y in y0..=y1 {
                        cells.entry((x, y)).or_default().push((ri, k));
                    }
                }
            }
        }
        EdgeGrid { rings, cells }
    }

    fn edge(&self, (ri, k): (usize, usize)) -> (Pt, Pt) {
        let r = self.rings[ri].1;
        (r[k], r[(k + 1) % r.len()])
    }

    /// The areas, other than `not`, with an edge within [`BORDER_NEAR`]
    /// of `p`.
    fn near(&self, p: Pt, not: usize) -> Vec<usize> {
        let cell = ((p.0 / CELL).floor() as i32, (p.1 / CELL).floor() as i32);
        let mut out: Vec<usize> = Vec::new();
        for &e in self.cells.get(&cell).map_or(&[][..], |v| v.as_slice()) {
            let area = self.rings[e.0].0;
            if area == not || out.contains(&area) {
                continue;
            }
            let (a, b) = self.edge(e);
            if seg_dist(p, a, b) <= BORDER_NEAR {
                out.push(area);
            }
        }
        out
    }
}

/// The distance from `p` to the segment `a`–`b`.
fn seg_dist(p: Pt, a: Pt, b: Pt) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let l = dx * dx + dy * dy;
    let t = if l == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / l).clamp(0.0, 1.0)
    };
    ((a.0 + t * dx - p.0).powi(2) + (a.1 + t * dy - p.1).powi(2)).sqrt()
}

fn is_box(map: &Map, p: ProvinceId) -> bool {
    map.province(p).terrain == Terrain::OffBoard
}

/// Areas from an outline file, scaled to the picture's width. Provinces
/// the file leaves out (there should be none) get a small square at the
/// centre, so they are still drawn.
fn from_outline(map: &Map, o: &Outline) -> Geometry {
    let k = MAP_WIDTH / o.width.max(1.0);
    let sc = |p: &Pt| (p.0 * k, p.1 * k);
    let height = o.height * k;
    let mut areas = Vec::with_capacity(map.provinces().len());
    let mut boxes = Vec::new();
    let mut next_box = 0.0;
    for p in map.province_ids() {
        let prov = map.province(p);
        if is_box(map, p) {
            let rect = box_rect(next_box, height);
            next_box += 1.0;
            boxes.push(BoxRect { province: p, rect });
            areas.push(Area {
                unit: (rect[0] + rect[2] / 2.0, rect[1] + rect[3] / 2.0 + 6.0),
                ..Area::default()
            });
            continue;
        }
        match o.areas.get(&prov.abbr) {
            Some(a) => areas.push(Area {
                rings: a.rings.iter().map(|r| r.iter().map(sc).collect()).collect(),
                unit: sc(&a.unit),
                label: Label::default(),
            }),
            None => {
                let c = (MAP_WIDTH / 2.0, height / 2.0);
                areas.push(Area {
                    rings: vec![square(c, 10.0)],
                    unit: c,
                    label: Label::default(),
                });
            }
        }
    }
    let spots = map
        .regions()
        .iter()
        .map(|r| areas[r.province.index()].unit)
        .collect();
    Geometry {
        width: MAP_WIDTH,
        height,
        areas,
        spots,
        boxes,
        neutral_land: o.land.iter().map(|r| r.iter().map(sc).collect()).collect(),
        neutral_water: o.water.iter().map(|r| r.iter().map(sc).collect()).collect(),
        drawn: true,
        walls: Vec::new(),
        borders: Vec::new(),
    }
}

fn square(c: Pt, r: f32) -> Vec<Pt> {
    vec![
        (c.0 - r, c.1 - r),
        (c.0 + r, c.1 - r),
        (c.0 + r, c.1 + r),
        (c.0 - r, c.1 + r),
    ]
}

/// Off-board boxes stand in a column at the right edge of the map.
fn box_rect(i: f32, _height: f32) -> [f32; 4] {
    [MAP_WIDTH - 118.0, 8.0 + i * 96.0, 110.0, 88.0]
}

/// A convex cell: its corners, and for each edge (from corner `i` to
/// `i + 1`) the seed on its other side (`None`: the board's edge).
#[derive(Debug, Clone)]
struct Cell {
    pts: Vec<Pt>,
    next: Vec<Option<usize>>,
}

/// The Voronoi cell of `seeds[i]` inside the rectangle `0..w, 0..h`, by
/// clipping the rectangle with the bisector of every other seed near
/// enough to cut it: the seeds are taken ring of `grid` cells by ring,
/// nearer first (they cut the most), until the nearest seed left is too
/// far to cut what remains.
fn cell(seeds: &[Pt], grid: &SeedGrid, i: usize, w: f32, h: f32) -> Cell {
    let mut c = Cell {
        pts: vec![(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)],
        next: vec![None; 4],
    };
    let s = seeds[i];
    for r in 0.. {
        let (mut found, beyond) = grid.ring(s, r);
        found.sort_by(|&a, &b| {
            dist2(s, seeds[a])
                .total_cmp(&dist2(s, seeds[b]))
                .then(a.cmp(&b))
        });
        for j in found {
            let t = seeds[j];
            if j == i || t == s {
                continue;
            }
            let n = (t.0 - s.0, t.1 - s.1);
            let m = ((s.0 + t.0) / 2.0, (s.1 + t.1) / 2.0);
            let side = |p: Pt| (p.0 - m.0) * n.0 + (p.1 - m.1) * n.1;
            c = clip(&c, side, j);
            if c.pts.len() < 3 {
                return c;
            }
        }
        // Too far to cut: every corner is nearer s than any seed left.
        let reach = c.pts.iter().map(|&p| dist2(p, s)).fold(0.0f32, f32::max);
        if beyond * beyond > 4.0 * reach + 1.0 {
            break;
        }
    }
    c
}

fn dist2(a: Pt, b: Pt) -> f32 {
    (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)
}

/// Keep the part of `c` where `side <= 0`; the cut edge is tagged `tag`.
fn clip(c: &Cell, side: impl Fn(Pt) -> f32, tag: usize) -> Cell {
    let n = c.pts.len();
    let mut out = Cell {
        pts: Vec::with_capacity(n + 1),
        next: Vec::with_capacity(n + 1),
    };
    for k in 0..n {
        let (a, b) = (c.pts[k], c.pts[(k + 1) % n]);
        let (da, db) = (side(a), side(b));
        if da <= 0.0 {
            out.pts.push(a);
            out.next.push(c.next[k]);
        }
        if (da <= 0.0) != (db <= 0.0) {
            let t = da / (da - db);
            let p = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            out.pts.push(p);
            // Entering the kept side: the edge continues the old one;
            // leaving it: the edge from here runs along the cut.
            out.next.push(if da <= 0.0 { Some(tag) } else { c.next[k] });
        }
    }
    out
}

/// Pairs of provinces on the board that border each other in the rules.
fn bordering(map: &Map) -> Vec<(ProvinceId, ProvinceId)> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for a in map.province_ids() {
        if is_box(map, a) {
            continue;
        }
        for &r in &map.province(a).regions {
            for &(n, _) in map.borders(r) {
                let b = map.province_of(n);
                if b > a && !is_box(map, b) && seen.insert((a, b)) {
                    out.push((a, b));
                }
            }
        }
    }
    out
}

/// Areas computed from the province points (`super::points`: where the
/// file gives none, worked out from the borders).
fn computed(map: &Map) -> Geometry {
    let placed = super::points::place(map);
    let (w, h) = (MAP_WIDTH, placed.height);
    let at = |p: ProvinceId| placed.pts[p.index()];
    let provinces: Vec<ProvinceId> = map.province_ids().filter(|&p| !is_box(map, p)).collect();
    let mut seeds: Vec<Pt> = Vec::new();
    let mut owner: Vec<ProvinceId> = Vec::new();
    for &p in &provinces {
        let mut pt = at(p);
        // Two provinces on one point would share a cell: part them.
        while seeds.contains(&pt) {
            pt.0 += 0.5;
        }
        seeds.push(pt);
        owner.push(p);
    }
    let pairs = bordering(map);
    let mut cells: Vec<Cell> = Vec::new();
    // Nudge: where bordering provinces' cells do not touch, lay a narrow
    // lane of their seeds between their points, wherever a third province
    // holds the way (each half to the nearer end), and try again. A lane
    // that does not do it (another lane crosses it: two pairs of
    // neighbours across a strait) bends round one side, then the other.
    let (base, base_owner) = (seeds.clone(), owner.clone());
    let side = SeedGrid::of(&base, w, h);
    let mut lanes: Vec<((ProvinceId, ProvinceId), u8)> = Vec::new();
    let mut lane_of: HashMap<(ProvinceId, ProvinceId), usize> = HashMap::new();
    for _round in 0..8 {
        seeds.clone_from(&base);
        owner.clone_from(&base_owner);
        let mut grid = SeedGrid::new(side.side() / 4.0);
        for (i, s) in seeds.iter().enumerate() {
            grid.insert(i, *s);
        }
        for &((a, b), bend) in &lanes {
            let (pa, pb) = (at(a), at(b));
            lane(&mut seeds, &mut owner, &mut grid, (a, pa), (b, pb), bend);
        }
        let grid = SeedGrid::of(&seeds, w, h);
        cells = (0..seeds.len())
            .map(|i| cell(&seeds, &grid, i, w, h))
            .collect();
        let touch = touching(&cells, &owner);
        let mut changed = false;
        for pair in pairs
            .iter()
            .copied()
            .filter(|&(a, b)| !touch.contains(&(a.index(), b.index())))
        {
            match lane_of.get(&pair) {
                None => {
                    lane_of.insert(pair, lanes.len());
                    lanes.push((pair, 0));
                }
                Some(&k) if lanes[k].1 < 2 => lanes[k].1 += 1,
                Some(_) => continue,
            }
            changed = true;
        }
        if !changed {
            break;
        }
    }
    // Pieces of a province cut off from its point by crossing lanes are
    // given to a neighbour, unless a border of the rules needs them.
    defragment(&cells, &mut owner, base.len(), &pairs);
    let n = map.provinces().len();
    let mut borders = vec![false; n * n];
    for &(a, b) in &pairs {
        borders[a.index() * n + b.index()] = true;
        borders[b.index() * n + a.index()] = true;
    }
    let mut walls = Vec::new();
    for (i, c) in cells.iter().enumerate() {
        let k = c.pts.len();
        for e in 0..k {
            let Some(j) = c.next[e] else { continue };
            let (a, b) = (owner[i].index(), owner[j].index());
            if i < j && a != b && !borders[a * n + b] {
                walls.push((c.pts[e], c.pts[(e + 1) % k]));
            }
        }
    }
    let mut areas: Vec<Area> = map
        .province_ids()
        .map(|p| Area {
            unit: at(p),
            ..Area::default()
        })
        .collect();
    for (p, rings) in merge(&cells, &owner, map.provinces().len()) {
        areas[p].rings = rings;
    }
    let mut boxes = Vec::new();
    for (i, p) in map.province_ids().filter(|&p| is_box(map, p)).enumerate() {
        let rect = box_rect(i as f32, h);
        boxes.push(BoxRect { province: p, rect });
        areas[p.index()].unit = (rect[0] + rect[2] / 2.0, rect[1] + rect[3] / 2.0 + 6.0);
    }
    // A coast the file gives a point (DPjudge's PostScript map's) stands
    // there; the others are placed with the areas (`place_coasts`).
    let spots = map
        .regions()
        .iter()
        .map(|r| match r.xy {
            Some(xy) if r.coast.is_some() => placed.fit.point(xy),
            _ => areas[r.province.index()].unit,
        })
        .collect();
    Geometry {
        width: w,
        height: h,
        areas,
        spots,
        boxes,
        neutral_land: Vec::new(),
        neutral_water: Vec::new(),
        drawn: false,
        walls,
        borders: Vec::new(),
    }
}

/// Give the cells of each province that are not connected to its own
/// point (the first `base` seeds are the provinces' points) to the
/// neighbouring province they share the longest border with, unless the
/// piece is where the province meets a neighbour of the rules that its
/// main area does not reach (then the piece stays: a border matters more
/// than a tidy shape).
fn defragment(
    cells: &[Cell],
    owner: &mut [ProvinceId],
    base: usize,
    pairs: &[(ProvinceId, ProvinceId)],
) {
    let len = |c: &Cell, e: usize| dist2(c.pts[e], c.pts[(e + 1) % c.pts.len()]).sqrt();
    let pair_set: HashSet<(ProvinceId, ProvinceId)> = pairs.iter().copied().collect();
    let borders = |a: ProvinceId, b: ProvinceId| pair_set.contains(&(a.min(b), a.max(b)));
    for _ in 0..4 {
        // Connected pieces, by a flood over cells of one owner.
        let mut piece = vec![usize::MAX; cells.len()];
        let mut pieces: Vec<Vec<usize>> = Vec::new();
        for start in 0..cells.len() {
            if piece[start] != usize::MAX {
                continue;
            }
            let id = pieces.len();
            let mut stack = vec![start];
            let mut members = Vec::new();
            piece[start] = id;
            while let Some(i) = stack.pop() {
                members.push(i);
                for (e, next) in cells[i].next.iter().enumerate() {
                    if let Some(j) = *next
                        && piece[j] == usize::MAX
                        && owner[j] == owner[i]
                        && len(&cells[i], e) > 0.5
                    {
                        piece[j] = id;
                        stack.push(j);
                    }
                }
            }
            pieces.push(members);
        }
        // What each piece touches, and how much.
        let touches = |members: &[usize]| -> Vec<(ProvinceId, f32)> {
            let mine = owner[members[0]];
            let mut shared: Vec<(ProvinceId, f32)> = Vec::new();
            for &i in members {
                for (e, next) in cells[i].next.iter().enumerate() {
                    let Some(j) = *next else { continue };
                    if owner[j] == mine {
                        continue;
                    }
                    match shared.iter_mut().find(|(p, _)| *p == owner[j]) {
                        Some(x) => x.1 += len(&cells[i], e),
                        None => shared.push((owner[j], len(&cells[i], e))),
                    }
                }
            }
            shared
        };
        let mut moves: Vec<(usize, ProvinceId)> = Vec::new();
        for (id, members) in pieces.iter().enumerate() {
            if members.iter().any(|&i| i < base) {
                continue;
            }
            let mine = owner[members[0]];
            let main = (0..base)
                .find(|&i| owner[i] == mine)
                .map(|i| touches(&pieces[piece[i]]))
                .unwrap_or_default();
            let shared = touches(members);
            let needed = shared.iter().any(|&(q, l)| {
                l > 1.0 && borders(mine, q) && !main.iter().any(|&(m, ml)| m == q && ml > 3.0)
            });
            if needed {
                continue;
            }
            if let Some(&(to, _)) = shared.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
                moves.push((id, to));
            }
        }
        // A move that would part two neighbours of the rules is undone.
        let apart = |owner: &[ProvinceId]| {
            let touch = touching(cells, owner);
            pairs
                .iter()
                .filter(|&&(a, b)| !touch.contains(&(a.index(), b.index())))
                .count()
        };
        let mut apart_now = apart(owner);
        let mut moved = false;
        for (id, to) in moves {
            let before: Vec<ProvinceId> = pieces[id].iter().map(|&i| owner[i]).collect();
            for &i in &pieces[id] {
                owner[i] = to;
            }
            let a = apart(owner);
            if a > apart_now {
                for (&i, &p) in pieces[id].iter().zip(&before) {
                    owner[i] = p;
                }
            } else {
                apart_now = a;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
}

/// Seeds for a lane from `a`'s point to `b`'s: straight (`bend` 0) or
/// through a point off the middle to one side (1) or the other (2), every
/// 6 pixels where the nearest seed is not already the right province's.
fn lane(
    seeds: &mut Vec<Pt>,
    owner: &mut Vec<ProvinceId>,
    grid: &mut SeedGrid,
    (a, pa): (ProvinceId, Pt),
    (b, pb): (ProvinceId, Pt),
    bend: u8,
) {
    let m = ((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0);
    let side = match bend {
        0 => 0.0,
        1 => 0.45,
        _ => -0.45,
    };
    let w = (m.0 - (pb.1 - pa.1) * side, m.1 + (pb.0 - pa.0) * side);
    let legs = [(pa, w), (w, pb)];
    let total: f32 = legs.iter().map(|(x, y)| dist2(*x, *y).sqrt()).sum();
    let steps = (total / 6.0).ceil().max(2.0) as usize;
    let at = |t: f32| {
        let d = t * total;
        let first = dist2(pa, w).sqrt();
        let (x, y, u) = if d <= first {
            (pa, w, d / first.max(1e-3))
        } else {
            (w, pb, (d - first) / (total - first).max(1e-3))
        };
        (x.0 + (y.0 - x.0) * u, x.1 + (y.1 - x.1) * u)
    };
    let mut put = |p: Pt, want: ProvinceId, force: bool| {
        let nearest = grid.nearest(seeds, p);
        if nearest.is_some_and(|i| seeds[i] == p || (!force && owner[i] == want)) {
            return;
        }
        grid.insert(seeds.len(), p);
        seeds.push(p);
        owner.push(want);
    };
    for k in 1..steps {
        let t = k as f32 / steps as f32;
        put(at(t), if t < 0.5 { a } else { b }, false);
    }
    // The two sides of the middle, so the lane's halves meet.
    let e = 2.0 / total.max(4.0);
    put(at(0.5 - e), a, true);
    put(at(0.5 + e), b, true);
}

/// Province index pairs `(a, b)`, `a < b`, whose cells share an edge of
/// a visible length.
fn touching(cells: &[Cell], owner: &[ProvinceId]) -> HashSet<(usize, usize)> {
    let mut out = HashSet::new();
    for (i, c) in cells.iter().enumerate() {
        let k = c.pts.len();
        for e in 0..k {
            let Some(j) = c.next[e] else { continue };
            let (a, b) = (owner[i].index(), owner[j].index());
            if a == b {
                continue;
            }
            let len = dist2(c.pts[e], c.pts[(e + 1) % k]).sqrt();
            if len > 6.0 {
                out.insert((a.min(b), a.max(b)));
            }
        }
    }
    out
}

/// Each province's outline: the edges of its cells that face another
/// province (or the board's edge), chained into closed rings. Corners
/// computed in different cells differ by rounding, so they are snapped
/// together first.
fn merge(cells: &[Cell], owner: &[ProvinceId], n: usize) -> Vec<(usize, Vec<Vec<Pt>>)> {
    let mut snap = Snap::default();
    let mut edges: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (i, c) in cells.iter().enumerate() {
        let k = c.pts.len();
        if k < 3 {
            continue;
        }
        let p = owner[i].index();
        for e in 0..k {
            if c.next[e].is_some_and(|j| owner[j].index() == p) {
                continue;
            }
            let a = snap.id(c.pts[e]);
            let b = snap.id(c.pts[(e + 1) % k]);
            if a != b {
                edges[p].push((a, b));
            }
        }
    }
    let mut out = Vec::new();
    for (p, list) in edges.into_iter().enumerate() {
        if list.is_empty() {
            continue;
        }
        let mut from: HashMap<usize, Vec<usize>> = HashMap::new();
        for (k, &(a, _)) in list.iter().enumerate() {
            from.entry(a).or_default().push(k);
        }
        let mut used = vec![false; list.len()];
        let mut rings = Vec::new();
        for start in 0..list.len() {
            if used[start] {
                continue;
            }
            let mut ring = Vec::new();
            let mut k = start;
            loop {
                used[k] = true;
                let (a, b) = list[k];
                ring.push(snap.pts[a]);
                let next = from
                    .get(&b)
                    .and_then(|ks| ks.iter().copied().find(|&x| !used[x]));
                match next {
                    Some(x) => k = x,
                    None => break,
                }
            }
            if ring.len() >= 3 {
                rings.push(simplify_ring(ring));
            }
        }
        out.push((p, rings));
    }
    out
}

/// Drop corners on a straight line (where two cells of a province meet
/// the same neighbour).
fn simplify_ring(ring: Vec<Pt>) -> Vec<Pt> {
    let n = ring.len();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let a = ring[(i + n - 1) % n];
        let b = ring[i];
        let c = ring[(i + 1) % n];
        let cross = (b.0 - a.0) * (c.1 - b.1) - (b.1 - a.1) * (c.0 - b.0);
        let len = dist2(a, b).sqrt() * dist2(b, c).sqrt();
        if cross.abs() > 1e-3 * len.max(1e-6) {
            out.push(b);
        }
    }
    let mut out = if out.len() < 3 { ring } else { out };
    // Start at the top-left corner, so the same outline is always written
    // the same way.
    let first = (0..out.len())
        .min_by(|&a, &b| {
            out[a]
                .1
                .total_cmp(&out[b].1)
                .then(out[a].0.total_cmp(&out[b].0))
        })
        .unwrap_or(0);
    out.rotate_left(first);
    out
}

/// Points snapped to one another within a tenth of a pixel.
#[derive(Default)]
struct Snap {
    pts: Vec<Pt>,
    grid: HashMap<(i32, i32), Vec<usize>>,
}

impl Snap {
    fn id(&mut self, p: Pt) -> usize {
        const CELL: f32 = 0.5;
        let (gx, gy) = ((p.0 / CELL).floor() as i32, (p.1 / CELL).floor() as i32);
        for dx in -1..=1 {
            for dy in -1..=1 {
                if let Some(ids) = self.grid.get(&(gx + dx, gy + dy)) {
                    for &i in ids {
                        if dist2(self.pts[i], p) < 0.01 {
                            return i;
                        }
                    }
                }
            }
        }
        self.pts.push(p);
        let i = self.pts.len() - 1;
        self.grid.entry((gx, gy)).or_default().push(i);
        i
    }
}

/// Where fleets on split coasts stand: given by the outline file, or on
/// the province's border with the seas that coast reaches, pulled a little
/// inland.
fn place_coasts(map: &Map, g: &mut Geometry, outline: Option<&Outline>) {
    for (ri, reg) in map.regions().iter().enumerate() {
        let Some(c) = reg.coast else { continue };
        // A coast the file gives a point stands there (`computed`).
        if outline.is_none() && reg.xy.is_some() {
            continue;
        }
        let p = reg.province;
        let key = format!("{}/{}", map.province(p).abbr, map.coast(c).abbr);
        if let Some(o) = outline
            && let Some(&(x, y)) = o.coasts.get(&key.to_ascii_lowercase())
        {
            let k = MAP_WIDTH / o.width.max(1.0);
            g.spots[ri] = (x * k, y * k);
            continue;
        }
        let home = g.areas[p.index()].unit;
        let seas: Vec<Pt> = map
            .borders(RegionId(ri as u16))
            .iter()
            .map(|&(n, _)| map.province_of(n))
            .filter(|&q| map.province(q).terrain == Terrain::Sea)
            .map(|q| g.areas[q.index()].unit)
            .collect();
        if seas.is_empty() {
            continue;
        }
        let n = seas.len() as f32;
        let toward = (
            seas.iter().map(|s| s.0).sum::<f32>() / n,
            seas.iter().map(|s| s.1).sum::<f32>() / n,
        );
        // Walk from the province's spot toward those seas while still inside
        // the province, and stand a little short of its edge.
        let rings = &g.areas[p.index()].rings;
        let mut best = home;
        for step in 1..=20 {
            let t = step as f32 / 20.0;
            let q = (
                home.0 + (toward.0 - home.0) * t,
                home.1 + (toward.1 - home.1) * t,
            );
            if !inside(rings, q) {
                break;
            }
            best = q;
        }
        let back = 0.7;
        g.spots[ri] = (
            home.0 + (best.0 - home.0) * back,
            home.1 + (best.1 - home.1) * back,
        );
        // Not on top of the main spot.
        if dist2(g.spots[ri], home) < 18.0 * 18.0 {
            let d = dist2(toward, home).sqrt().max(1.0);
            g.spots[ri] = (
                home.0 + (toward.0 - home.0) / d * 18.0,
                home.1 + (toward.1 - home.1) / d * 18.0,
            );
        }
    }
}
