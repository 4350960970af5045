//! 1700 AD II's yearly turn (rules 3-10): every movement phase is a whole
//! year played from one order sheet of moves, retreats and builds. The
//! moves are impulses judged in rounds ([`judge`]); then the supply check
//! (rule 9), the centres changing hands (fleets hold none), and the
//! sheets' builds and removals.

pub(crate) mod judge;
pub(crate) mod result;

pub use result::TurnResult;

use super::feature::{Feature, Load, Played, Plugin, Sheet, Steps};
use super::{Position, Ruleset};
use crate::adjudicate::questions::RuleQuestions;
use crate::map::{PowerId, ProvinceId};
use crate::orders::OrderSyntax;
use std::sync::Arc;

/// The feature's entry in the registry: `[calendar] turn = "impulses"`.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "impulses",
    rank: 5,
    tables: &[],
    load,
};

/// The yearly turn.
#[derive(Debug, Clone, Copy)]
struct Impulses;

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    (l.calendar.turn == crate::calendar::Turn::Impulses)
        .then(|| Arc::new(Impulses) as Arc<dyn Feature>)
}

impl Feature for Impulses {
    /// Several impulses per order, stacks and `(x2)`.
    fn syntax(&self, s: &mut OrderSyntax) {
        s.impulses = true;
    }

    fn yearly_sheets(&self) -> bool {
        true
    }

    fn play_movement(
        &self,
        v: &dyn Ruleset,
        steps: &dyn Steps,
        q: &dyn RuleQuestions,
        pos: &Position,
        sheet: Sheet<'_>,
    ) -> Option<Played> {
        Some(play_turn(v, steps, q, pos, sheet))
    }
}

/// A yearly turn of impulses: the moves and their retreats, the supply
/// check (rule 9), the centres changing hands (fleets hold none), then the
/// sheets' builds and removals; the next position is next year's.
fn play_turn(
    v: &dyn Ruleset,
    steps: &dyn Steps,
    q: &dyn RuleQuestions,
    pos: &Position,
    sheet: Sheet<'_>,
) -> Played {
    let map = v.map();
    let mut friendly = vec![None; map.provinces().len()];
    for pw in map.power_ids() {
        if let Some(list) = pos.state.friendly.get(pw) {
            for p in list {
                friendly[p.index()] = Some(pw);
            }
        }
    }
    let garrisons: Vec<(ProvinceId, u32)> = v
        .features()
        .garrisons
        .iter()
        .copied()
        .filter(|(p, _)| pos.state.garrisons.contains(p))
        .collect();
    let permits: Vec<(PowerId, PowerId)> = map
        .power_ids()
        .flat_map(|owner| {
            pos.state
                .permits
                .get(owner)
                .into_iter()
                .flatten()
                .map(move |p| (owner, *p))
        })
        .collect();
    let turn = judge::adjudicate_turn(
        map,
        v.rulebook(),
        q,
        Some(pos.phase),
        judge::TurnInput {
            units: &pos.units,
            orders: sheet.moves,
            retreats: sheet.retreats,
            owners: &pos.owners,
            garrisons: &garrisons,
            friendly: &friendly,
            permits: &permits,
        },
    );
    let mut next = pos.clone();
    next.units = turn.units_after.clone();
    next.dislodged = Vec::new();
    next.state.garrisons = turn.garrisons_after.iter().map(|(p, _)| *p).collect();
    next.state.friendly = map
        .power_ids()
        .map(|pw| {
            map.province_ids()
                .filter(|p| {
                    turn.friendly_after[p.index()] == Some(pw)
                        && map.province(*p).terrain == crate::map::Terrain::Coast
                })
                .collect()
        })
        .collect();
    // Centres change hands where land units stand (fleets hold none);
    // then rule 9: units with no line of supply are disbanded.
    steps.take_centres(&mut next);
    let out_of_supply = super::supply::out_of_supply(
        v,
        &next,
        &next.state.garrisons,
        &v.features().mountains,
        &permits,
    );
    for u in &out_of_supply {
        if let Some(i) = next.units.iter().position(|x| x == u) {
            next.units.remove(i);
        }
    }
    let before_builds = next.units.clone();
    let adjustments = steps.adjustments(&next, sheet.adjust);
    next.units = adjustments.units_after.clone();
    let after = steps.advance(next);
    (
        Box::new(TurnResult {
            turn,
            out_of_supply,
            adjustments,
            before_builds,
        }),
        after,
    )
}
