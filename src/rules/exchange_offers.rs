//! Exchanges of supply centres between two powers (Abstraction II rule 6):
//! each sends a matching `EXCHANGE` offer during a move; at the move's end
//! the centres change hands, equal numbers each way, never one the giver
//! still occupies with a unit.

use super::Position;
use super::Ruleset;
use super::{Exchange, Unmade};
use crate::map::{PowerId, ProvinceId};

/// Why an offer is refused: what the reply tells the player.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExchangeError {
    /// The variant has no exchanges.
    #[error("this game has no exchanges of supply centres")]
    NotInThisGame,
    /// Only in a movement phase ("at the end of any move").
    #[error("exchanges are made during a move, to take effect at its end")]
    NotNow,
    /// With oneself.
    #[error("an exchange is between two powers")]
    WithSelf,
    /// Equal numbers each way.
    #[error("each side must give as many centres as it takes")]
    Unequal,
    /// Nothing offered.
    #[error("name the centres given and taken: EXCHANGE power Hol FOR Bel")]
    Empty,
    /// Not a supply centre.
    #[error("{0} is not a supply centre")]
    NotACentre(String),
    /// The giver does not own it.
    #[error("{0} is not {1}'s to give")]
    NotOwned(String, String),
    /// The giver occupies it.
    #[error("{0} is occupied by {1}'s own unit, so it cannot be given")]
    Occupied(String, String),
}

/// Check that `power` may give `give` now (ownership and occupation).
fn check_side(
    v: &(impl Ruleset + ?Sized),
    pos: &Position,
    power: PowerId,
    give: &[ProvinceId],
) -> Result<(), ExchangeError> {
    for &p in give {
        let prov = v.map().province(p);
        if !prov.supply_centre {
            return Err(ExchangeError::NotACentre(prov.name.clone()));
        }
        let name = v.map().power(power).name.clone();
        if pos.owners[p.index()] != Some(power) {
            return Err(ExchangeError::NotOwned(prov.name.clone(), name));
        }
        if pos
            .units
            .iter()
            .any(|u| u.power == power && v.map().province_of(u.region) == p)
        {
            return Err(ExchangeError::Occupied(prov.name.clone(), name));
        }
    }
    Ok(())
}

/// Record `power`'s offer to `to` (replacing any earlier offer of its to
/// the same power). An empty offer withdraws it. What can still change by
/// the end of the move (the giver's units leaving a centre it gives) is
/// not a refusal: it comes back as the conditions the exchange waits on.
pub fn offer(
    v: &(impl Ruleset + ?Sized),
    pos: &mut Position,
    x: Exchange,
) -> Result<Vec<ExchangeError>, ExchangeError> {
    if !v.features().plugins.has(PLUGIN.name) {
        return Err(ExchangeError::NotInThisGame);
    }
    if pos.phase.kind != crate::calendar::PhaseKind::Movement {
        return Err(ExchangeError::NotNow);
    }
    if x.from == x.to {
        return Err(ExchangeError::WithSelf);
    }
    pos.state
        .offers
        .retain(|o| !(o.from == x.from && o.to == x.to));
    if x.give.is_empty() && x.take.is_empty() {
        return Ok(Vec::new());
    }
    if x.give.is_empty() || x.take.is_empty() {
        return Err(ExchangeError::Empty);
    }
    if x.give.len() != x.take.len() {
        return Err(ExchangeError::Unequal);
    }
    for &p in &x.take {
        let prov = v.map().province(p);
        if !prov.supply_centre {
            return Err(ExchangeError::NotACentre(prov.name.clone()));
        }
    }
    // The giver's side now; the taker's is checked when it offers, and
    // both again at the end of the move (rule 6: "if it is still
    // occupying it").
    let waits_on = match check_side(v, pos, x.from, &x.give) {
        Ok(()) => Vec::new(),
        Err(e @ ExchangeError::Occupied(..)) => vec![e],
        Err(e) => return Err(e),
    };
    pos.state.offers.push(x);
    Ok(waits_on)
}

/// At the end of a move: carry out every pair of matching offers whose
/// centres may still change hands, equal numbers each way, and clear the
/// offers. Returns the
/// exchanges made (each once, from the first offer's side) and the matched
/// ones that could not be made, with why.
pub fn carry_out(v: &(impl Ruleset + ?Sized), pos: &mut Position) -> (Vec<Exchange>, Vec<Unmade>) {
    let offers = std::mem::take(&mut pos.state.offers);
    let mut done: Vec<Exchange> = Vec::new();
    let mut unmade: Vec<Unmade> = Vec::new();
    for (i, a) in offers.iter().enumerate() {
        let Some(b) = offers[i + 1..].iter().find(|b| a.matches(b)) else {
            continue;
        };
        // Rule 6: "the number of supply centres exchanged by each Power
        // must be equal", whatever the position holds (the command refuses
        // such offers; a position written by hand may still have them).
        let equal = || {
            if a.give.is_empty() || a.give.len() != a.take.len() {
                Err(ExchangeError::Unequal)
            } else {
                Ok(())
            }
        };
        if let Err(e) = equal()
            .and_then(|()| check_side(v, pos, a.from, &a.give))
            .and_then(|()| check_side(v, pos, b.from, &b.give))
        {
            unmade.push(Unmade {
                offer: a.clone(),
                why: e.to_string(),
            });
            continue;
        }
        for &p in &a.give {
            pos.owners[p.index()] = Some(a.to);
        }
        for &p in &b.give {
            pos.owners[p.index()] = Some(b.to);
        }
        done.push(a.clone());
    }
    (done, unmade)
}

/// The feature's entry in the registry.
pub(crate) const PLUGIN: super::feature::Plugin = super::feature::Plugin {
    name: "exchange",
    rank: 50,
    tables: &["exchange"],
    load,
};

/// `[exchange]`: Abstraction II rule 6.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawExchange {
    /// Exchanges are allowed.
    allowed: bool,
}

/// Exchanges of centres, where the variant allows them.
#[derive(Debug, Clone, Copy)]
struct Exchanges;

fn load(l: &mut super::feature::Load<'_>) -> Option<std::sync::Arc<dyn super::feature::Feature>> {
    let raw: RawExchange = l.table("exchange")?;
    raw.allowed
        .then(|| std::sync::Arc::new(Exchanges) as std::sync::Arc<dyn super::feature::Feature>)
}

impl super::feature::Feature for Exchanges {
    /// At the end of the move the matching offers are carried out; the
    /// results tell what was exchanged and what could not be.
    fn after_move(
        &self,
        v: &dyn Ruleset,
        _pos: &Position,
        _orders: &[crate::orders::MainOrder],
        _r: &crate::adjudicate::movement::MovementResult,
        next: &mut Position,
    ) {
        let (exchanged, unmade) = carry_out(v, next);
        next.state.exchanged = exchanged;
        next.state.unmade = unmade;
    }
}
