//! Borders open only to the owner of some centres (DPjudge's centre
//! ownership restriction, `BLA ABUTS AEG(CON)`: Imperial's Bosporus, open
//! only to whoever owns Constantinople).
//!
//! A province lists them as `open-to-owner-of = { Aeg = ["Con"] }`: the
//! border from it into the Aegean Sea is open to a unit only while the
//! unit's power owns every centre listed. DPjudge's judge (`Game.abuts`)
//! asks it of the power's centres as they stand (its list of owned
//! centres, which changes only when centres change hands after the
//! autumn), for the unit's own step: a move, a support given across the
//! border, the move a support names (`SUPPORTED UNIT CANNOT REACH
//! DESTINATION`) and a retreat. It is one-way, as DPjudge writes it; a map
//! writes both ways where both are meant.
//!
//! Two readings: a convoy passes such a border (the fleets stand still,
//! and DPjudge's judge asks only about the unit crossing; it would also
//! ask about a convoyed army's first step off its coast, which no map
//! restricts, and which is not asked here); and a list of several centres
//! (`AEG(CON,SMY)`) asks for all of them, as DPjudge's map file syntax page
//! says, though its map checker takes only one.
//!
//! Ownership comes from the position (`Position::owners`), never from the
//! map: the map keeps the borders, [`Map::closed_borders`] says which of
//! them are shut to whom in a position, and the judges are handed that.

use super::{Map, PowerId, ProvinceId};

/// A border open only to the owner of some centres: from, to, and the
/// centres a power must own (all of them) to cross.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerBorder {
    /// The province the border leads out of.
    pub from: ProvinceId,
    /// The province it leads into.
    pub to: ProvinceId,
    /// The centres a unit's power must own, every one, to cross.
    pub centres: Vec<ProvinceId>,
}

/// A border shut to one power in a position: its units may not move,
/// support or retreat from `from` into `to`, because it does not own
/// `centre`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClosedBorder {
    /// The power whose units may not cross.
    pub power: PowerId,
    /// The province the border leads out of.
    pub from: ProvinceId,
    /// The province it leads into.
    pub to: ProvinceId,
    /// A centre the border asks for that the power does not own (the
    /// first listed).
    pub centre: ProvinceId,
}

impl Map {
    /// Whether the map has any border open only to the owner of some
    /// centres (the judges are told of closed borders only then).
    #[inline]
    pub fn has_owner_borders(&self) -> bool {
        !self.owner_borders.is_empty()
    }

    /// The borders open only to centres' owners.
    pub fn owner_borders(&self) -> &[OwnerBorder] {
        &self.owner_borders
    }

    /// Which borders are shut to which power while the centres are owned
    /// as `owners` says (per province: its owner): for each power, each
    /// border asking for a centre it does not own. Empty on a map without
    /// such borders.
    pub fn closed_borders(&self, owners: &[Option<PowerId>]) -> Vec<ClosedBorder> {
        let mut out = Vec::new();
        for (i, _) in self.powers.iter().enumerate() {
            let power = PowerId(i as u8);
            for b in &self.owner_borders {
                let lacking = b
                    .centres
                    .iter()
                    .find(|c| owners.get(c.index()).copied().flatten() != Some(power));
                if let Some(&centre) = lacking {
                    out.push(ClosedBorder {
                        power,
                        from: b.from,
                        to: b.to,
                        centre,
                    });
                }
            }
        }
        out
    }
}
