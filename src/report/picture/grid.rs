//! The seeds of computed areas in square cells, to find the ones near a
//! point without looking at them all: a board of a few hundred provinces
//! lays out its areas (thousands of seeds, with the lanes between
//! neighbours) in time proportional to its seeds, not their square.

use super::layout::Pt;
use std::collections::HashMap;

/// Seeds by the cell they are in.
#[derive(Debug, Default)]
pub(crate) struct SeedGrid {
    side: f32,
    cells: HashMap<(i32, i32), Vec<usize>>,
}

impl SeedGrid {
    /// An empty grid of cells `side` pixels wide.
    pub(crate) fn new(side: f32) -> SeedGrid {
        SeedGrid {
            side: side.max(1.0),
            cells: HashMap::new(),
        }
    }

    /// `seeds` in a grid whose cells hold a few each.
    pub(crate) fn of(seeds: &[Pt], w: f32, h: f32) -> SeedGrid {
        let side = (w * h / seeds.len().max(1) as f32).sqrt() * 1.5;
        let mut g = SeedGrid::new(side);
        for (i, s) in seeds.iter().enumerate() {
            g.insert(i, *s);
        }
        g
    }

    /// Its cells' side, pixels.
    pub(crate) fn side(&self) -> f32 {
        self.side
    }

    fn key(&self, p: Pt) -> (i32, i32) {
        (
            (p.0 / self.side).floor() as i32,
            (p.1 / self.side).floor() as i32,
        )
    }

    /// Add seed `i`, at `p`.
    pub(crate) fn insert(&mut self, i: usize, p: Pt) {
        let k = self.key(p);
        self.cells.entry(k).or_default().push(i);
    }

    /// The seeds in the square ring of cells `r` cells from `p`'s (0: its
    /// own cell), and the least distance from `p` any seed beyond the
    /// ring can be.
    pub(crate) fn ring(&self, p: Pt, r: i32) -> (Vec<usize>, f32) {
        let (cx, cy) = self.key(p);
        let mut out = Vec::new();
        let mut take = |x: i32, y: i32| {
            if let Some(v) = self.cells.get(&(x, y)) {
                out.extend_from_slice(v);
            }
        };
        if r == 0 {
            take(cx, cy);
        } else {
            for x in cx - r..=cx + r {
                take(x, cy - r);
                take(x, cy + r);
            }
            for y in cy - r + 1..cy + r {
                take(cx - r, y);
                take(cx + r, y);
            }
        }
        // Beyond ring r, a seed is at least the distance from p to the
        // nearest side of the square of rings 0..=r.
        let (x0, y0) = ((cx - r) as f32 * self.side, (cy - r) as f32 * self.side);
        let (x1, y1) = (
            (cx + r + 1) as f32 * self.side,
            (cy + r + 1) as f32 * self.side,
        );
        let beyond = (p.0 - x0).min(x1 - p.0).min(p.1 - y0).min(y1 - p.1);
        (out, beyond.max(0.0))
    }

    /// Whether any cell holds a seed.
    pub(crate) fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The seed of `seeds` nearest `p`, if any.
    pub(crate) fn nearest(&self, seeds: &[Pt], p: Pt) -> Option<usize> {
        if self.is_empty() {
            return None;
        }
        let mut best: Option<(f32, usize)> = None;
        for r in 0.. {
            let (found, beyond) = self.ring(p, r);
            for i in found {
                let d = dist2(seeds[i], p);
                if best.is_none_or(|(b, j)| d < b || (d == b && i < j)) {
                    best = Some((d, i));
                }
            }
            if let Some((b, _)) = best
                && b <= beyond * beyond
            {
                break;
            }
            if r > 4096 {
                break;
            }
        }
        best.map(|(_, i)| i)
    }
}

fn dist2(a: Pt, b: Pt) -> f32 {
    (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)
}
