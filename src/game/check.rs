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

/// The way out of a refusal: for a refused order, what the unit could do
/// from where it stands (the places it can move to, by land or by convoy;
/// the places it can support into) or, for a build, the free sites and the
/// builds due, in words that follow the refusal. `None` when there is
/// nothing useful to add (another power's unit, an order of another kind).
///
/// Each place offered is one the judge itself would accept, found by
/// asking [`crate::game::step::move_verdicts`] and
/// [`crate::game::step::build_refusals`], so the list is right for every
/// variant's map and rules.
pub fn alternatives(v: &Variant, pos: &Position, power: PowerId, c: &AnyCommand) -> Option<String> {
    use crate::orders::{AdjustCommand, MainCommand, Place, format_unit};
    let map = &v.map;
    let coastal = |p: crate::map::ProvinceId| map.province(p).terrain == crate::map::Terrain::Coast;
    let named = |ps: &[crate::map::ProvinceId]| -> String {
        let words: Vec<String> = ps
            .iter()
            .map(|p| {
                let prov = map.province(*p);
                if prov.name.eq_ignore_ascii_case(&prov.abbr) {
                    prov.abbr.clone()
                } else {
                    format!("{} ({})", prov.abbr, prov.name)
                }
            })
            .collect();
        match words.split_last() {
            None => String::new(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    };
    match (c, pos.phase.kind) {
        (AnyCommand::Main(u, cmd), PhaseKind::Movement) => {
            let unit = pos.unit_in(map, u.at.province)?;
            if unit.power != power {
                return None;
            }
            let shown = format_unit(map, Some(unit.kind), Place::of_region(map, unit.region));
            let provinces = (0..map.provinces().len())
                .map(|i| crate::map::ProvinceId(i as u16))
                .filter(|p| *p != u.at.province);
            match cmd {
                MainCommand::Move { .. } => {
                    let to: Vec<_> = provinces
                        .filter(|p| {
                            map.reaches(unit.region, *p, unit.kind)
                                || (unit.kind == crate::map::UnitKind::Army
                                    && coastal(u.at.province)
                                    && coastal(*p)
                                    && crate::game::step::move_verdicts(
                                        v,
                                        pos,
                                        &[Order {
                                            power,
                                            unit: *u,
                                            command: MainCommand::Move {
                                                to: Place::province(*p),
                                                via_convoy: true,
                                                route: Vec::new(),
                                            },
                                        }],
                                    )
                                    .first()
                                    .is_some_and(Option::is_none))
                        })
                        .collect();
                    Some(if to.is_empty() {
                        format!("{shown} cannot move anywhere now: it may hold or support")
                    } else {
                        format!("{shown} can move to {}", named(&to))
                    })
                }
                MainCommand::SupportHold { .. } | MainCommand::SupportMove { .. } => {
                    let to: Vec<_> = provinces
                        .filter(|p| map.reaches(unit.region, *p, unit.kind))
                        .collect();
                    Some(format!("{shown} can support into {}", named(&to)))
                }
                MainCommand::Convoy { .. } => {
                    // Each army the fleet could convoy, with where to: every
                    // pair the judge itself would accept as this fleet's
                    // convoy order.
                    let coasts: Vec<_> = provinces.filter(|p| coastal(*p)).collect();
                    let mut ways = Vec::new();
                    for army in pos.units.iter().filter(|a| {
                        a.kind == crate::map::UnitKind::Army && coastal(map.province_of(a.region))
                    }) {
                        let from = map.province_of(army.region);
                        let to: Vec<_> = coasts
                            .iter()
                            .copied()
                            .filter(|p| *p != from)
                            .filter(|p| {
                                let convoy = Order {
                                    power,
                                    unit: *u,
                                    command: MainCommand::Convoy {
                                        unit: crate::orders::UnitRef {
                                            kind: Some(army.kind),
                                            at: Place::province(from),
                                        },
                                        to: Place::province(*p),
                                    },
                                };
                                crate::game::step::move_verdicts(v, pos, &[convoy])
                                    .first()
                                    .is_some_and(Option::is_none)
                            })
                            .map(|p| map.province(p).abbr.clone())
                            .collect();
                        if !to.is_empty() {
                            let army = format_unit(
                                map,
                                Some(army.kind),
                                Place::of_region(map, army.region),
                            );
                            ways.push(format!("{army} to {}", to.join(" ")));
                        }
                    }
                    Some(if ways.is_empty() {
                        format!(
                            "{shown} has no army it could convoy now: it may hold, move or support"
                        )
                    } else {
                        format!("{shown} can convoy {}", ways.join("; "))
                    })
                }
                _ => None,
            }
        }
        (AnyCommand::Retreat(u, _), PhaseKind::Retreat) => {
            let (unit, opts) = pos
                .dislodged
                .iter()
                .find(|(d, _)| d.power == power && map.province_of(d.region) == u.at.province)?;
            let shown = format_unit(map, Some(unit.kind), Place::of_region(map, unit.region));
            let to: Vec<_> = opts.iter().map(|r| map.province_of(*r)).collect();
            Some(if to.is_empty() {
                format!("{shown} has nowhere to retreat: it can only disband")
            } else {
                format!("{shown} can retreat to {}, or disband", named(&to))
            })
        }
        (
            AnyCommand::Adjust(AdjustCommand::Build { kind, .. }),
            PhaseKind::Adjustment | PhaseKind::Placement,
        ) => {
            let due = crate::game::step::due(v, pos)
                .get(power.index())
                .copied()
                .unwrap_or(0);
            match due {
                0 => return Some("you have no builds due".into()),
                -1 => return Some("you have 1 removal due, not a build".into()),
                d if d < 0 => return Some(format!("you have {} removals due, not builds", -d)),
                _ => {}
            }
            let free: Vec<_> = (0..map.provinces().len())
                .map(|i| crate::map::ProvinceId(i as u16))
                .filter(|p| map.province(*p).supply_centre)
                .filter(|p| {
                    let b = AdjustOrder {
                        power,
                        command: AdjustCommand::Build {
                            kind: *kind,
                            at: Place::province(*p),
                        },
                    };
                    crate::game::step::build_refusals(v, pos, &[b])
                        .first()
                        .is_some_and(Option::is_none)
                })
                .collect();
            let builds = if due == 1 {
                "1 build due".to_string()
            } else {
                format!("{due} builds due")
            };
            Some(if free.is_empty() {
                format!("you have {builds} and no free site to build on (WAIVE)")
            } else {
                format!("you have {builds}; free sites: {}", named(&free))
            })
        }
        _ => None,
    }
}
