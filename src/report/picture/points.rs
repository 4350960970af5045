//! Where each province stands on a computed picture (a map without an
//! outline file), in the picture's pixels.
//!
//! A variant file gives its provinces' points (`xy`) or not: DPjudge's
//! maps imported without their PostScript map have none, and a GM's own
//! file may leave some out. A province without a point gets one from the
//! map's borders: with no point at all, the whole board is laid out so
//! that each province's distance to another follows the number of borders
//! between them (stress majorization, started from classical scaling);
//! with some, the others stand among the neighbours that have one. Then
//! the points are spread ([`spread`]): no two closer than a unit and its
//! name need, the picture made taller where the board is too crowded for
//! its width, so that no name or unit covers another.

use super::layout::{Geometry, MAP_WIDTH, Pt, TOKEN_H, TOKEN_W, inside};
use crate::map::{Map, ProvinceId, Terrain};
use std::collections::{HashMap, VecDeque};

/// The empty band around the board, so cells at the edge have room.
pub(crate) const MARGIN: f32 = 36.0;

/// The least distance, in pixels, between two provinces' points whose
/// places were worked out here (their units and names must fit between
/// them).
const SPACING: f32 = 50.0;

/// The provinces' points and the board's size.
#[derive(Debug, Clone)]
pub(crate) struct Placed {
    /// By province index (an off-board box's is unused).
    pub pts: Vec<Pt>,
    /// How the variant file's points (`xy`, a coast's too) map to pixels.
    pub fit: Fit,
    /// The board's height, pixels (its width is [`MAP_WIDTH`]).
    pub height: f32,
}

/// How the file's points fit the picture: the board's bounding box scaled,
/// keeping its shape, to the map's width, then stretched down where the
/// points had to be spread over a taller board.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fit {
    min: Pt,
    scale: f32,
    off: Pt,
    /// The stretch of y, below the top margin.
    stretch: f32,
}

impl Fit {
    /// A file point in pixels.
    pub(crate) fn point(&self, [x, y]: [f32; 2]) -> Pt {
        let py = self.off.1 + (y - self.min.1) * self.scale;
        (
            self.off.0 + (x - self.min.0) * self.scale,
            MARGIN + (py - MARGIN) * self.stretch,
        )
    }
}

fn is_box(map: &Map, p: ProvinceId) -> bool {
    map.province(p).terrain == Terrain::OffBoard
}

/// Place every province of `map`.
pub(crate) fn place(map: &Map) -> Placed {
    let board: Vec<ProvinceId> = map.province_ids().filter(|&p| !is_box(map, p)).collect();
    let given: Vec<Option<[f32; 2]>> = map.province_ids().map(|p| map.province(p).xy).collect();
    let all_given = board.iter().all(|p| given[p.index()].is_some());
    let file: Vec<Option<[f32; 2]>> = if board.iter().all(|p| given[p.index()].is_none()) {
        laid_out(map, &board)
    } else {
        among_neighbours(map, &board, &given)
    };
    let (x0, y0, x1, y1) = bounds(board.iter().filter_map(|p| file[p.index()]));
    let (w, h) = ((x1 - x0).max(1.0), (y1 - y0).max(1.0));
    let inner = MAP_WIDTH - 2.0 * MARGIN;
    let scale = (inner / w).min(inner / h);
    let mut fit = Fit {
        min: (x0, y0),
        scale,
        off: (MARGIN + (inner - w * scale) / 2.0, MARGIN),
        stretch: 1.0,
    };
    let mut height = h * scale + 2.0 * MARGIN;
    // Room for every region's unit: a board too crowded for its width is
    // made taller.
    let regions = map
        .regions()
        .iter()
        .filter(|r| !is_box(map, r.province))
        .count() as f32;
    let need = regions * SPACING * SPACING * 1.3 / inner + 2.0 * MARGIN;
    if height < need && !all_given {
        fit.stretch = (need - 2.0 * MARGIN) / (height - 2.0 * MARGIN).max(1.0);
        height = need;
    }
    let mut pts: Vec<Pt> = file
        .iter()
        .map(|xy| xy.map_or((0.0, 0.0), |xy| fit.point(xy)))
        .collect();
    let movable: Vec<bool> = map
        .province_ids()
        .map(|p| !is_box(map, p) && given[p.index()].is_none())
        .collect();
    spread(&mut pts, &board, &movable, height);
    // A file's points whose units cover each other are parted, where the
    // board has room for them all (on a board far too crowded for the
    // picture, parting them would only twist its shape).
    if height >= need {
        unstack(&mut pts, &board, height);
    }
    Placed { pts, fit, height }
}

fn bounds(pts: impl Iterator<Item = [f32; 2]>) -> (f32, f32, f32, f32) {
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for [x, y] in pts {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        return (0.0, 0.0, MAP_WIDTH, MAP_WIDTH);
    }
    (x0, y0, x1, y1)
}

/// Each province's neighbours on the board (any border, any coast), by
/// province index.
fn neighbours(map: &Map) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); map.provinces().len()];
    for p in map.province_ids() {
        if is_box(map, p) {
            continue;
        }
        for &r in &map.province(p).regions {
            for &(n, _) in map.borders(r) {
                let q = map.province_of(n);
                if q != p && !is_box(map, q) && !out[p.index()].contains(&q.index()) {
                    out[p.index()].push(q.index());
                    out[q.index()].push(p.index());
                }
            }
        }
    }
    for n in &mut out {
        n.sort_unstable();
        n.dedup();
    }
    out
}

/// A point for each province of `board` (none has one): the distances
/// between points follow the number of borders between the provinces. A
/// province with no border at all (an impassable one) stands where the
/// board has most room.
fn laid_out(map: &Map, board: &[ProvinceId]) -> Vec<Option<[f32; 2]>> {
    let near = neighbours(map);
    let (linked, alone): (Vec<ProvinceId>, Vec<ProvinceId>) =
        board.iter().partition(|p| !near[p.index()].is_empty());
    let mut out = vec![None; map.provinces().len()];
    let board = if linked.is_empty() { &alone } else { &linked };
    let n = board.len();
    let index: HashMap<usize, usize> = board
        .iter()
        .enumerate()
        .map(|(i, p)| (p.index(), i))
        .collect();
    // Borders between every two provinces (breadth first from each).
    let mut d = vec![f32::INFINITY; n * n];
    for s in 0..n {
        let mut queue = VecDeque::from([s]);
        d[s * n + s] = 0.0;
        while let Some(a) = queue.pop_front() {
            for q in &near[board[a].index()] {
                let Some(&b) = index.get(q) else { continue };
                if d[s * n + b].is_infinite() {
                    d[s * n + b] = d[s * n + a] + 1.0;
                    queue.push_back(b);
                }
            }
        }
    }
    // Provinces no border reaches (impassable ones) stand a little beyond
    // the farthest.
    let far = d
        .iter()
        .copied()
        .filter(|x| x.is_finite())
        .fold(1.0, f32::max)
        + 1.0;
    for x in &mut d {
        if x.is_infinite() {
            *x = far;
        }
    }
    let mut xy = classical(&d, n);
    majorize(&mut xy, &d, n);
    for (i, p) in board.iter().enumerate() {
        out[p.index()] = Some(xy[i]);
    }
    if !linked.is_empty() {
        for p in alone {
            out[p.index()] = Some(roomiest(&xy));
            xy.push(out[p.index()].unwrap_or_default());
        }
    }
    out
}

/// The point of the board's box (a little beyond the points' bounds)
/// farthest from every point of `xy`.
fn roomiest(xy: &[[f32; 2]]) -> [f32; 2] {
    let (x0, y0, x1, y1) = bounds(xy.iter().copied());
    let pad = ((x1 - x0).max(y1 - y0) * 0.05).max(0.5);
    let mut best = ([x0, y0], f32::MIN);
    for i in 0..=24 {
        for j in 0..=24 {
            let p = [
                x0 - pad + (x1 - x0 + 2.0 * pad) * i as f32 / 24.0,
                y0 - pad + (y1 - y0 + 2.0 * pad) * j as f32 / 24.0,
            ];
            let room = xy
                .iter()
                .map(|q| (q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2))
                .fold(f32::MAX, f32::min);
            if room > best.1 {
                best = (p, room);
            }
        }
    }
    best.0
}

/// Classical scaling: the two main axes of the doubly centred squared
/// distances, by power iteration (from fixed starts: the same map always
/// gets the same picture).
fn classical(d: &[f32], n: usize) -> Vec<[f32; 2]> {
    if n < 3 {
        return (0..n).map(|i| [i as f32, 0.0]).collect();
    }
    let sq: Vec<f64> = d.iter().map(|x| f64::from(*x) * f64::from(*x)).collect();
    let row: Vec<f64> = (0..n)
        .map(|i| sq[i * n..(i + 1) * n].iter().sum::<f64>() / n as f64)
        .collect();
    let all = row.iter().sum::<f64>() / n as f64;
    let b = |i: usize, j: usize| -0.5 * (sq[i * n + j] - row[i] - row[j] + all);
    let mut axes: Vec<(f64, Vec<f64>)> = Vec::new();
    for k in 0..2 {
        let mut v: Vec<f64> = (0..n)
            .map(|i| ((i * (k + 3) + 1) % 7) as f64 - 3.0 + i as f64 / n as f64)
            .collect();
        let mut value = 0.0;
        for _ in 0..200 {
            let mut next: Vec<f64> = (0..n)
                .map(|i| (0..n).map(|j| b(i, j) * v[j]).sum())
                .collect();
            for (_, axis) in &axes {
                let dot: f64 = next.iter().zip(axis).map(|(a, b)| a * b).sum();
                for (x, a) in next.iter_mut().zip(axis) {
                    *x -= dot * a;
                }
            }
            let norm = next.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm < 1e-12 {
                break;
            }
            value = norm;
            v = next.into_iter().map(|x| x / norm).collect();
        }
        axes.push((value, v));
    }
    (0..n)
        .map(|i| {
            let s0 = axes[0].0.sqrt();
            let s1 = axes[1].0.sqrt();
            [(axes[0].1[i] * s0) as f32, (axes[1].1[i] * s1) as f32]
        })
        .collect()
}

/// Stress majorization (Gansner, Koren and North): each point moved in
/// turn to where its distances to the others best match the borders
/// between them, the near ones counting most.
fn majorize(xy: &mut [[f32; 2]], d: &[f32], n: usize) {
    for _ in 0..150 {
        for i in 0..n {
            let (mut sx, mut sy, mut sw) = (0.0f32, 0.0f32, 0.0f32);
            for j in 0..n {
                if i == j {
                    continue;
                }
                let dij = d[i * n + j].max(1.0);
                let w = 1.0 / (dij * dij);
                let (dx, dy) = (xy[i][0] - xy[j][0], xy[i][1] - xy[j][1]);
                let len = (dx * dx + dy * dy).sqrt().max(1e-4);
                sx += w * (xy[j][0] + dij * dx / len);
                sy += w * (xy[j][1] + dij * dy / len);
                sw += w;
            }
            if sw > 0.0 {
                xy[i] = [sx / sw, sy / sw];
            }
        }
    }
}

/// Points for the provinces of `board` the file leaves without one: the
/// middle of their neighbours that have one, round after round; any left
/// (no neighbour has a point) beside the board's middle.
fn among_neighbours(
    map: &Map,
    board: &[ProvinceId],
    given: &[Option<[f32; 2]>],
) -> Vec<Option<[f32; 2]>> {
    let near = neighbours(map);
    let mut out = given.to_vec();
    for _ in 0..16 {
        let mut added = Vec::new();
        for p in board.iter().filter(|p| out[p.index()].is_none()) {
            let pts: Vec<[f32; 2]> = near[p.index()].iter().filter_map(|q| out[*q]).collect();
            if !pts.is_empty() {
                let k = pts.len() as f32;
                let x = pts.iter().map(|p| p[0]).sum::<f32>() / k;
                let y = pts.iter().map(|p| p[1]).sum::<f32>() / k;
                added.push((p.index(), [x, y]));
            }
        }
        if added.is_empty() {
            break;
        }
        for (i, xy) in added {
            out[i] = Some(xy);
        }
    }
    let (x0, y0, x1, y1) = bounds(out.iter().flatten().copied());
    for p in board {
        if out[p.index()].is_none() {
            out[p.index()] = Some([(x0 + x1) / 2.0, (y0 + y1) / 2.0]);
        }
    }
    out
}

/// Move the `movable` points of `board` apart until no two are closer
/// than [`SPACING`] (a fixed point is not moved; a pair of fixed ones is
/// left as the file has them), within the board's `height`.
fn spread(pts: &mut [Pt], board: &[ProvinceId], movable: &[bool], height: f32) {
    if !board.iter().any(|p| movable[p.index()]) {
        return;
    }
    let (lo, hi) = ((MARGIN, MARGIN), (MAP_WIDTH - MARGIN, height - MARGIN));
    let ids: Vec<usize> = board.iter().map(|p| p.index()).collect();
    // Points on one spot are parted first, each its own way.
    for (k, &i) in ids.iter().enumerate() {
        if movable[i] {
            let a = k as f32 * 2.399;
            pts[i].0 += a.cos() * 0.5;
            pts[i].1 += a.sin() * 0.5;
        }
    }
    for _ in 0..300 {
        let mut cells: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
        let cell = |p: Pt| ((p.0 / SPACING) as i32, (p.1 / SPACING) as i32);
        for &i in &ids {
            cells.entry(cell(pts[i])).or_default().push(i);
        }
        let mut moved = false;
        let mut push = vec![(0.0f32, 0.0f32); pts.len()];
        for &i in &ids {
            let (cx, cy) = cell(pts[i]);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for &j in cells
                        .get(&(cx + dx, cy + dy))
                        .map_or(&[][..], Vec::as_slice)
                    {
                        if j <= i || !(movable[i] || movable[j]) {
                            continue;
                        }
                        let (ex, ey) = (pts[j].0 - pts[i].0, pts[j].1 - pts[i].1);
                        let len = (ex * ex + ey * ey).sqrt();
                        if len >= SPACING {
                            continue;
                        }
                        let (ux, uy) = if len < 1e-3 {
                            (1.0, 0.0)
                        } else {
                            (ex / len, ey / len)
                        };
                        let gap = (SPACING - len) * 0.5 + 0.1;
                        // A fixed point does not move: the other goes the
                        // whole way.
                        let (si, sj) = match (movable[i], movable[j]) {
                            (true, true) => (gap, gap),
                            (true, false) => (2.0 * gap, 0.0),
                            _ => (0.0, 2.0 * gap),
                        };
                        push[i].0 -= ux * si;
                        push[i].1 -= uy * si;
                        push[j].0 += ux * sj;
                        push[j].1 += uy * sj;
                        moved = true;
                    }
                }
            }
        }
        if !moved {
            break;
        }
        for &i in &ids {
            pts[i].0 = (pts[i].0 + push[i].0 * 0.6).clamp(lo.0, hi.0);
            pts[i].1 = (pts[i].1 + push[i].1 * 0.6).clamp(lo.1, hi.1);
        }
    }
}

/// Move each coast's unit spot (placed toward its seas, `place_coasts`)
/// where it covers no other unit's, on a computed picture: near its
/// province's point, inside its area if it can, toward its seas first.
pub(crate) fn clear_coasts(map: &Map, g: &mut Geometry) {
    use super::labels::{overlap, token_box};
    let coasts: Vec<usize> = map
        .regions()
        .iter()
        .enumerate()
        .filter(|(_, r)| r.coast.is_some() && !is_box(map, r.province))
        .map(|(i, _)| i)
        .collect();
    for &ri in &coasts {
        let clear = |g: &Geometry, p: Pt| {
            let b = token_box(p);
            b[0] >= 1.0
                && b[1] >= 1.0
                && b[0] + b[2] <= g.width - 1.0
                && b[1] + b[3] <= g.height - 1.0
                && g.spots
                    .iter()
                    .enumerate()
                    .all(|(j, s)| j == ri || !overlap(&b, &token_box(*s)))
        };
        if clear(g, g.spots[ri]) {
            continue;
        }
        let p = map.regions()[ri].province;
        let home = g.areas[p.index()].unit;
        let toward = g.spots[ri];
        let start = (toward.1 - home.1).atan2(toward.0 - home.0);
        let rings = &g.areas[p.index()].rings;
        let mut fallback = None;
        'search: for step in 1..=16 {
            let r = 12.0 + step as f32 * 4.0;
            for k in 0..24 {
                // Alternately either side of the seas' direction.
                let turn = ((k + 1) / 2) as f32 * if k % 2 == 0 { 1.0 } else { -1.0 };
                let a = start + turn * std::f32::consts::TAU / 24.0;
                let q = (home.0 + a.cos() * r, home.1 + a.sin() * r);
                if !clear(g, q) {
                    continue;
                }
                if inside(rings, q) {
                    g.spots[ri] = q;
                    fallback = None;
                    break 'search;
                }
                fallback = fallback.or(Some(q));
            }
        }
        if let Some(q) = fallback {
            g.spots[ri] = q;
        }
    }
}

/// Part the points whose units would cover each other (a file's points
/// drawn closer than a unit is wide: a crowded corner of a DPjudge
/// PostScript map), each pair the least way that clears them, within the
/// board's `height`.
fn unstack(pts: &mut [Pt], board: &[ProvinceId], height: f32) {
    let (gap_x, gap_y) = (TOKEN_W + 2.0, TOKEN_H + 2.0);
    let ids: Vec<usize> = board.iter().map(|p| p.index()).collect();
    for _ in 0..200 {
        let mut cells: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
        let cell = |p: Pt| ((p.0 / gap_x) as i32, (p.1 / gap_y) as i32);
        for &i in &ids {
            cells.entry(cell(pts[i])).or_default().push(i);
        }
        let mut push = vec![(0.0f32, 0.0f32); pts.len()];
        let mut moved = false;
        for &i in &ids {
            let (cx, cy) = cell(pts[i]);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for &j in cells
                        .get(&(cx + dx, cy + dy))
                        .map_or(&[][..], Vec::as_slice)
                    {
                        if j <= i {
                            continue;
                        }
                        let (ex, ey) = (pts[j].0 - pts[i].0, pts[j].1 - pts[i].1);
                        let (need_x, need_y) = (gap_x - ex.abs(), gap_y - ey.abs());
                        if need_x <= 0.0 || need_y <= 0.0 {
                            continue;
                        }
                        moved = true;
                        // The shorter way out, half each.
                        if need_x * gap_y <= need_y * gap_x {
                            let s = if ex >= 0.0 { 1.0 } else { -1.0 } * (need_x / 2.0 + 0.1);
                            push[i].0 -= s;
                            push[j].0 += s;
                        } else {
                            let s = if ey >= 0.0 { 1.0 } else { -1.0 } * (need_y / 2.0 + 0.1);
                            push[i].1 -= s;
                            push[j].1 += s;
                        }
                    }
                }
            }
        }
        if !moved {
            break;
        }
        for &i in &ids {
            pts[i].0 = (pts[i].0 + push[i].0 * 0.5).clamp(MARGIN, MAP_WIDTH - MARGIN);
            pts[i].1 = (pts[i].1 + push[i].1 * 0.5).clamp(MARGIN, height - MARGIN);
        }
    }
}
