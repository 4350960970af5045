//! Replacement home centres (1066 rule 6): a power that has lost home
//! centres may nominate neutral centres it holds in their place, up to the
//! variant's limit of home centres. Nominations are kept in the position's
//! variant state and make the centre a build site for as long as the power
//! holds it.

use super::Position;
use super::Ruleset;
use crate::map::{PowerId, ProvinceId};

/// Why a nomination was refused: what the reply tells the player.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NominateError {
    /// The variant has no replacement home centres, or not for this power.
    #[error("this game has no replacement home centres for your power")]
    NotInThisGame,
    /// Not a supply centre.
    #[error("{0} is not a supply centre")]
    NotACentre(String),
    /// Somebody's home centre, not a neutral one.
    #[error("{0} is a home centre, not a neutral one")]
    NotNeutral(String),
    /// The power does not hold it.
    #[error("you do not hold {0}")]
    NotHeld(String),
    /// Already nominated.
    #[error("{0} is already one of your home centres")]
    Already(String),
    /// No home centre lost that it could replace.
    #[error("you have lost no home centre that {0} could replace")]
    NothingLost(String),
    /// The limit of home centres is reached.
    #[error("you already have {0} home centres, the most this game allows")]
    Limit(usize),
}

/// Nominate `centre` as a home centre of `power` in `pos`.
pub fn nominate(
    v: &(impl Ruleset + ?Sized),
    pos: &mut Position,
    power: PowerId,
    centre: ProvinceId,
) -> Result<(), NominateError> {
    let b = &v.features().builds;
    let Some(max) = b.replacement_homes else {
        return Err(NominateError::NotInThisGame);
    };
    if b.no_replacement.contains(&power) {
        return Err(NominateError::NotInThisGame);
    }
    let prov = v.map().province(centre);
    let name = prov.name.clone();
    if !prov.supply_centre {
        return Err(NominateError::NotACentre(name));
    }
    // A centre another power has nominated is its home, not neutral.
    let theirs = pos
        .state
        .homes
        .iter()
        .any(|(pw, list)| pw != power && list.contains(&centre));
    if prov.home_of.is_some() || theirs {
        return Err(NominateError::NotNeutral(name));
    }
    if pos.owners[centre.index()] != Some(power) {
        return Err(NominateError::NotHeld(name));
    }
    let originals = &v.map().power(power).home_centres;
    let lost = originals
        .iter()
        .filter(|h| pos.owners[h.index()] != Some(power))
        .count();
    let held = originals.len() - lost;
    let Some(mine) = pos.state.homes.get_mut(power) else {
        return Err(NominateError::NotInThisGame);
    };
    if mine.contains(&centre) {
        return Err(NominateError::Already(name));
    }
    if mine.len() >= lost {
        return Err(NominateError::NothingLost(name));
    }
    if held + mine.len() >= max {
        return Err(NominateError::Limit(max));
    }
    mine.push(centre);
    if let Some(new) = pos.state.nominated.get_mut(power) {
        new.push(centre);
    }
    Ok(())
}

/// After centres change hands: a power that has retaken a lost home
/// centre gives up its latest nominations until it has no more home
/// centres than the variant allows (1066 rule 6: "subject to the maximum
/// limit of four home centres per player"). Our reading: the retaken home
/// takes back its place, and the nominated centre, still held, is simply
/// a centre again.
pub fn lapse(v: &(impl Ruleset + ?Sized), pos: &mut Position) {
    let Some(max) = v.features().builds.replacement_homes else {
        return;
    };
    for power in v.map().power_ids() {
        let held = v
            .map()
            .power(power)
            .home_centres
            .iter()
            .filter(|h| pos.owners[h.index()] == Some(power))
            .count();
        if let Some(mine) = pos.state.homes.get_mut(power) {
            while !mine.is_empty() && held + mine.len() > max {
                mine.pop();
            }
        }
    }
}

/// The feature's entry in the registry: `[builds] replacement-homes` (the
/// table itself is still read with the others, `features::RawBuilds`).
pub(crate) const PLUGIN: super::feature::Plugin = super::feature::Plugin {
    name: "nominations",
    rank: 70,
    tables: &[],
    load,
};

/// Replacement home centres, where the variant has them.
#[derive(Debug, Clone, Copy)]
struct Nominations;

fn load(l: &mut super::feature::Load<'_>) -> Option<std::sync::Arc<dyn super::feature::Feature>> {
    l.legacy
        .has_replacement_homes()
        .then(|| std::sync::Arc::new(Nominations) as std::sync::Arc<dyn super::feature::Feature>)
}

impl super::feature::Feature for Nominations {
    /// A retaken home centre takes back the place of a nomination.
    fn after_centres(&self, v: &dyn Ruleset, pos: &mut Position) {
        lapse(v, pos);
    }
}
