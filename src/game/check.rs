//! Whether the judge would carry out each order: the one place that decides
//! refusals, used by the mail path (orders as they come in), the offline
//! `parse --position` and the tests alike, so a player and a GM trying a
//! mail offline are told the same thing.

use crate::adjudicate::{AdjustStatus, Illegal, RetreatSituation, adjudicate_retreats};
use crate::game::Position;
use crate::game::position::Anarchy;
use crate::map::PowerId;
use crate::orders::{AdjustOrder, AnyCommand, Order};
use crate::variant::{PhaseKind, Variant};

/// Why the judge refuses each order (None: accepted), checked against the
/// position. Orders may be of several powers; each is checked as its power's.
///
/// Not refusals here: "replaced by a later order" (merging keeps the later
/// one), and "fleets may enter only friendly coastal provinces", which
/// depends on the armies' moves and the permissions (PERMIT) when the turn
/// is judged (1700 AD II rule 8), where it is checked again.
pub fn refusals(
    v: &Variant,
    pos: &Position,
    orders: &[(PowerId, AnyCommand)],
) -> Vec<Option<String>> {
    let mut out = vec![None; orders.len()];
    let kind = pos.phase.kind;
    let mut idx = Vec::new();
    let mut main = Vec::new();
    let mut retreats = Vec::new();
    let mut adjust = Vec::new();
    for (i, (power, c)) in orders.iter().enumerate() {
        if pos.state.anarchy.get(*power) == Some(&Anarchy::Yes) {
            out[i] = Some(
                "your power is in anarchy, having lost every home centre: its units \
                 hold and the judge removes what must go; it gives no orders"
                    .to_string(),
            );
            continue;
        }
        match (c, kind) {
            (AnyCommand::Main(u, cmd), PhaseKind::Movement) => {
                idx.push(i);
                main.push(Order {
                    power: *power,
                    unit: *u,
                    command: cmd.clone(),
                });
            }
            (AnyCommand::Retreat(u, cmd), PhaseKind::Retreat) => {
                idx.push(i);
                retreats.push(Order {
                    power: *power,
                    unit: *u,
                    command: *cmd,
                });
            }
            (AnyCommand::Adjust(cmd), PhaseKind::Adjustment | PhaseKind::Placement) => {
                idx.push(i);
                adjust.push(AdjustOrder {
                    power: *power,
                    command: *cmd,
                });
            }
            // A yearly order sheet (1700 AD II) holds the retreats and the
            // builds too; they are judged with the turn.
            (AnyCommand::Retreat(..) | AnyCommand::Adjust(_), PhaseKind::Movement)
                if crate::game::step::yearly_sheets(v) => {}
            _ => out[i] = Some(format!("it is not an order for {} phase", article(kind))),
        }
    }
    let verdicts: Vec<Option<String>> = match kind {
        PhaseKind::Movement => crate::game::step::move_verdicts(v, pos, &main)
            .into_iter()
            .map(|o| o.map(|w| w.to_string()))
            .collect(),
        PhaseKind::Retreat => {
            let situation = RetreatSituation {
                units: pos.units.clone(),
                dislodged: pos.dislodged.clone(),
            };
            adjudicate_retreats(&v.map, &situation, &retreats)
                .orders
                .into_iter()
                .map(|o| o.map(|w| w.to_string()))
                .collect()
        }
        PhaseKind::Adjustment | PhaseKind::Placement => {
            crate::game::step::judge_adjustments(v, pos, &adjust)
                .orders
                .into_iter()
                .map(|st| match st {
                    AdjustStatus::Illegal(w) => Some(w.to_string()),
                    _ => None,
                })
                .collect()
        }
    };
    let not_refusals = [
        Illegal::Replaced.to_string(),
        Illegal::NotFriendly.to_string(),
    ];
    for (k, verdict) in verdicts.into_iter().enumerate() {
        if !verdict.as_ref().is_some_and(|w| not_refusals.contains(w)) {
            out[idx[k]] = verdict;
        }
    }
    out
}

/// "a movement", "an adjustment": for "not an order for a ... phase".
fn article(k: PhaseKind) -> String {
    match k {
        PhaseKind::Adjustment => "an adjustment".into(),
        other => format!("a {}", other.word()),
    }
}
