//! Two map attributes DPjudge's maps use beyond the standard board: ports
//! and marked borders.
//!
//! A *port* (`port = true` on a coastal province) is a coast whose fleet
//! may convoy armies as if it stood at sea (DPjudge's `PORT` terrain:
//! Ancient Mediterranean's Baleares, Zeus's Pacific islands). The convoy
//! rules ask [`Map::convoys_at`], never the terrain, so a port needs no
//! other change.
//!
//! A *marked border* is one a move across is weaker than usual; a
//! province lists the provinces it borders so (`half-strength`, `strait`),
//! and the judges ask [`Map::crossing`]:
//!
//! - `half-strength` (DPjudge's `*`, the 1900 variant's Cape of Good Hope
//!   rule): a move across it has half a unit's strength, supports added;
//!   no support may be given across it; it cuts a support at its
//!   destination only by dislodging the supporter; a retreat across it
//!   gives way to any other retreat to the same place.
//! - `strait` (DPjudge's `~`, Loeb9's straits): a move across it has no
//!   strength of its own, only its supports'; no support may be given
//!   across it; unsupported, it cuts no support at its destination; a
//!   retreat across it gives way to any other (DPjudge's judge does so for
//!   both marks, straits first).
//!
//! A mark is one-way, as DPjudge writes it (`MAO ABUTS *EGY` marks the
//! way from the Mid-Atlantic into Egypt); a map marks both ways where both
//! are meant.

use super::{Map, ProvinceId, RegionId};

/// How a move crosses a border, weakest first: a retreat gives way to
/// others in this order (DPjudge drops those across straits first, then
/// those across half-strength borders), and an army with fleets on
/// several last steps lands the strongest way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Crossing {
    /// With no strength of its own (`strait`, DPjudge's `~`).
    Strait,
    /// At half strength (`half-strength`, DPjudge's `*`).
    Half,
    /// An ordinary border.
    Full,
}

impl Crossing {
    /// Whether a support may be given across it (DPjudge: neither mark
    /// lets one through).
    pub fn supports_across(self) -> bool {
        self == Crossing::Full
    }

    /// The strength a move across it brings of its own, in the units the
    /// movement judge counts (`unit`: a whole unit's): all of it, half, or
    /// none.
    pub fn own_strength(self, unit: u32) -> u32 {
        match self {
            Crossing::Full => unit,
            Crossing::Half => unit / 2,
            Crossing::Strait => 0,
        }
    }
}

impl Map {
    /// Whether a fleet in province `p` may convoy armies: at sea, or in a
    /// port.
    #[inline]
    pub fn convoys_at(&self, p: ProvinceId) -> bool {
        let prov = self.province(p);
        prov.terrain == super::Terrain::Sea || prov.port
    }

    /// Whether the map has any marked border (the judges look for marks
    /// only then).
    #[inline]
    pub fn has_marked_borders(&self) -> bool {
        !self.marks.is_empty()
    }

    /// How a move from `from` into province `to` crosses the border.
    pub fn crossing(&self, from: ProvinceId, to: ProvinceId) -> Crossing {
        self.marks
            .iter()
            .find(|&&(f, t, _)| f == from && t == to)
            .map_or(Crossing::Full, |&(_, _, c)| c)
    }

    /// [`Map::crossing`] from the province of region `from`.
    pub fn crossing_from(&self, from: RegionId, to: ProvinceId) -> Crossing {
        if self.marks.is_empty() {
            return Crossing::Full;
        }
        self.crossing(self.province_of(from), to)
    }
}
