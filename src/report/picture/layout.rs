//! What the picture is made of: points, areas, labels and boxes, and the
//! placed whole ([`Geometry`]). Plain data, apart from the computing of it
//! ([`super::geometry`]), so that the outline reader and the label placer
//! can name these types without importing the code that calls them.

use crate::map::{ProvinceId, RegionId};

/// A point on the picture, in pixels.
pub(crate) type Pt = (f32, f32);

/// Width of the map part of the picture, in pixels.
pub(crate) const MAP_WIDTH: f32 = 1000.0;
/// Room kept free for a unit at every place a unit can stand.
/// As wide as the widest unit drawn: a three-letter kind (1066) with a
/// two-letter initial is 34 pixels.
pub(crate) const TOKEN_W: f32 = 34.0;
/// See [`TOKEN_W`].
pub(crate) const TOKEN_H: f32 = 17.0;
/// Where a dislodged unit is drawn, from its place.
pub(crate) const DISLODGED_OFFSET: Pt = (21.0, -14.0);

/// A province's part of the picture.
#[derive(Debug, Clone, Default)]
pub struct Area {
    /// Closed rings (outer boundaries and holes), drawn with the even-odd
    /// rule. Empty for off-board boxes.
    pub rings: Vec<Vec<Pt>>,
    /// Where its unit stands (on its main region).
    pub unit: Pt,
    /// Where the name goes: the top-left corner of the label box, its size
    /// and font size.
    pub label: Label,
}

/// A placed label.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Label {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
    /// Font size of the text.
    pub size: f32,
    /// Whether a supply-centre mark leads the text.
    pub centre: bool,
}

/// An off-board box: a rectangle at the side of the map.
#[derive(Debug, Clone, Copy)]
pub struct BoxRect {
    /// The box.
    pub province: ProvinceId,
    /// Left, top, width, height.
    pub rect: [f32; 4],
}

/// Everything placed: areas by province, unit spots by region, the map's
/// size.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// Width of the map, pixels.
    pub width: f32,
    /// Height of the map, pixels.
    pub height: f32,
    /// One per province, by province index.
    pub areas: Vec<Area>,
    /// Where a unit on each region stands, by region index.
    pub spots: Vec<Pt>,
    /// Off-board boxes.
    pub boxes: Vec<BoxRect>,
    /// Neutral land (outline files only).
    pub neutral_land: Vec<Vec<Pt>>,
    /// Neutral water (outline files only).
    pub neutral_water: Vec<Vec<Pt>>,
    /// Whether the areas were drawn (an outline file) or computed.
    pub drawn: bool,
    /// Where two areas meet but their provinces do not border each other
    /// in the rules (computed areas only): drawn as a wall, so nobody
    /// reads a border into it.
    pub walls: Vec<(Pt, Pt)>,
    /// The borders between land areas, as lines (drawn areas only): the
    /// land is stroked along these and not along its coasts, where the
    /// coast line alone is drawn.
    pub borders: Vec<Vec<Pt>>,
}

impl Geometry {
    /// Where a unit on region `r` stands.
    pub fn spot(&self, r: RegionId) -> Pt {
        self.spots.get(r.index()).copied().unwrap_or((0.0, 0.0))
    }

    /// The unit spot of a province's main region.
    pub fn province_spot(&self, p: ProvinceId) -> Pt {
        self.areas.get(p.index()).map_or((0.0, 0.0), |a| a.unit)
    }
}

/// Whether `p` lies inside the rings (even-odd).
pub fn inside(rings: &[Vec<Pt>], p: Pt) -> bool {
    let mut c = false;
    for r in rings {
        let n = r.len();
        for i in 0..n {
            let (a, b) = (r[i], r[(i + 1) % n]);
            if (a.1 > p.1) != (b.1 > p.1) {
                let x = a.0 + (p.1 - a.1) / (b.1 - a.1) * (b.0 - a.0);
                if p.0 < x {
                    c = !c;
                }
            }
        }
    }
    c
}
