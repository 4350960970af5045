//! The board between results: every power's units and centres as a reader
//! may see them, for the start mail, a replacement's welcome and `MAP` /
//! `STATUS`. One record ([`Board`]) rendered by the `board.txt` template,
//! so the three mails show the position the same way.

use crate::game::Position;
use crate::map::PowerId;
use crate::orders::{Place, format_unit};
use crate::variant::Variant;
use crate::variant::features::Viewer;
use serde::Serialize;

/// One power on the board.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct BoardPower {
    /// Its name.
    pub name: String,
    /// Its units in zine notation (`A Vie`), those the reader may see.
    pub units: Vec<String>,
    /// Units hidden from the reader (1066's unseen units), counted only.
    pub hidden: usize,
    /// Its supply centres' abbreviations.
    pub centres: Vec<String>,
    /// How many centres it owns.
    pub count: u32,
    /// The reader plays it.
    pub mine: bool,
}

/// The board as one reader may see it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Board {
    /// The phase, in words (`Spring 1901 movement`).
    pub phase: String,
    /// The powers with units or centres, in the variant's order.
    pub powers: Vec<BoardPower>,
    /// Centres nobody owns.
    pub unowned: Vec<String>,
    /// Dislodged units waiting to retreat (`A Ser (Austria)`).
    pub dislodged: Vec<String>,
}

/// The board of `pos` as `viewer` may see it.
pub(crate) fn board(v: &Variant, pos: &Position, viewer: Viewer) -> Board {
    let map = &v.map;
    let view = crate::rules::view::View::of(v, pos, viewer);
    let counts = pos.centre_counts(map);
    let mut powers = Vec::new();
    for p in map.power_ids() {
        let mut units = Vec::new();
        let mut hidden = 0;
        for u in pos.units.iter().filter(|u| u.power == p) {
            if view.hides_unit(u) {
                hidden += 1;
            } else {
                units.push(format_unit(
                    map,
                    Some(u.kind),
                    Place::of_region(map, u.region),
                ));
            }
        }
        // A unit dislodged where it is hidden is still the power's: its
        // place is secret, not that it has it (1066 rule 5).
        hidden += pos
            .dislodged
            .iter()
            .filter(|(u, _)| u.power == p && view.hides_unit(u))
            .count();
        let centres: Vec<String> = pos
            .owners
            .iter()
            .enumerate()
            .filter(|(_, o)| **o == Some(p))
            .map(|(i, _)| map.provinces()[i].abbr.clone())
            .collect();
        if units.is_empty() && hidden == 0 && centres.is_empty() {
            continue;
        }
        powers.push(BoardPower {
            name: map.power(p).name.clone(),
            units,
            hidden,
            centres,
            count: counts[p.index()],
            mine: viewer == Viewer::Power(p),
        });
    }
    let unowned = map
        .provinces()
        .iter()
        .enumerate()
        .filter(|(i, prov)| prov.supply_centre && pos.owners.get(*i) == Some(&None))
        .map(|(_, prov)| prov.abbr.clone())
        .collect();
    let dislodged = pos
        .dislodged
        .iter()
        .filter(|(u, _)| !view.hides_unit(u))
        .map(|(u, _)| {
            format!(
                "{} ({})",
                format_unit(map, Some(u.kind), Place::of_region(map, u.region)),
                map.power(u.power).name
            )
        })
        .collect();
    Board {
        phase: v.calendar.label(pos.phase),
        powers,
        unowned,
        dislodged,
    }
}

/// The units of `p` in zine notation.
pub(crate) fn units_of(v: &Variant, pos: &Position, p: PowerId) -> Vec<String> {
    pos.units
        .iter()
        .filter(|u| u.power == p)
        .map(|u| format_unit(&v.map, Some(u.kind), Place::of_region(&v.map, u.region)))
        .collect()
}
