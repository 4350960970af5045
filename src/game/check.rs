//! Whether the judge would carry out each order: the one place that decides
//! refusals, used by the mail path (orders as they come in), the offline
//! `parse --position` and the tests alike, so a player and a GM trying a
//! mail offline are told the same thing.

use crate::adjudicate::{AdjustStatus, Illegal, RetreatSituation, adjudicate_retreats};
use crate::game::Position;
use crate::map::{Map, PowerId, ProvinceId, Terrain, Unit, UnitKind};
use crate::orders::{
    AdjustCommand, AdjustOrder, AnyCommand, MainCommand, MainOrder, Order, Place, UnitRef,
    format_unit,
};
use crate::rules::view::VariantRules;
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
        // A silenced power (1000 AD rule 13's anarchy, a dormant power)
        // gives no orders: each is refused with its feature's reason.
        if let Some(why) = v.silenced_why(pos, *power) {
            let mut why = why.trim_end_matches('.').to_string();
            if let Some(first) = why.get(..1) {
                why.replace_range(..1, &first.to_lowercase());
            }
            out[i] = Some(why);
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
    let verdicts: Vec<Option<Illegal>> = match kind {
        PhaseKind::Movement => crate::game::step::move_verdicts(v, pos, &main),
        PhaseKind::Retreat => {
            let situation = RetreatSituation {
                units: pos.units.clone(),
                dislodged: pos.dislodged.clone(),
            };
            adjudicate_retreats(&v.map, &situation, &retreats).orders
        }
        PhaseKind::Adjustment | PhaseKind::Placement => {
            crate::game::step::judge_adjustments(v, pos, &adjust)
                .orders
                .into_iter()
                .map(|st| match st {
                    AdjustStatus::Illegal(w) => Some(w),
                    _ => None,
                })
                .collect()
        }
    };
    for (k, verdict) in verdicts.into_iter().enumerate() {
        out[idx[k]] = verdict
            .filter(|w| !NOT_REFUSALS.contains(w))
            .map(|w| w.explain(&v.map));
    }
    out
}

/// The verdicts that are not refusals when an order comes in (see
/// [`refusals`]): compared as values, so a reworded reason cannot turn one
/// into a refusal.
const NOT_REFUSALS: [Illegal; 2] = [Illegal::Replaced, Illegal::NotFriendly];

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
/// [`crate::game::step::judge_adjustments`], so the list is right for every
/// variant's map and rules. `others`: the power's other orders of the
/// phase, which a free build site must be free beside (a site another
/// build takes, a limit on sites used together).
pub fn alternatives(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    c: &AnyCommand,
    others: &[AnyCommand],
) -> Option<String> {
    match (c, pos.phase.kind) {
        (AnyCommand::Main(u, cmd), PhaseKind::Movement) => {
            let unit = pos.unit_in(&v.map, u.at.province)?;
            if unit.power != power {
                return None;
            }
            let mover = Mover {
                v,
                pos,
                power,
                order: u,
                unit,
            };
            match cmd {
                MainCommand::Move { .. } => Some(mover.moves()),
                MainCommand::SupportHold { .. } | MainCommand::SupportMove { .. } => {
                    Some(mover.supports())
                }
                MainCommand::Convoy { .. } => Some(mover.convoys()),
                _ => None,
            }
        }
        (AnyCommand::Retreat(u, _), PhaseKind::Retreat) => retreats(v, pos, power, u),
        (
            AnyCommand::Adjust(AdjustCommand::Build { kind, .. }),
            PhaseKind::Adjustment | PhaseKind::Placement,
        ) => Some(builds(v, pos, power, *kind, c, others)),
        _ => None,
    }
}

/// Places in words, `Lon (London), Wal (Wales) or Yor (York)`: the name
/// beside the abbreviation a player may not know.
fn named(map: &Map, ps: &[ProvinceId]) -> String {
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
}

fn coastal(map: &Map, p: ProvinceId) -> bool {
    map.province(p).terrain == Terrain::Coast
}

/// Whether the judge would accept `order` alone, as it judges a movement
/// phase: the test every place offered passes.
fn accepted(v: &Variant, pos: &Position, order: MainOrder) -> bool {
    crate::game::step::move_verdicts(v, pos, &[order])
        .first()
        .is_some_and(Option::is_none)
}

/// A power's own unit whose movement order was refused: what else it
/// could be ordered to do.
struct Mover<'a> {
    v: &'a Variant,
    pos: &'a Position,
    power: PowerId,
    /// The unit as the order named it.
    order: &'a UnitRef,
    /// The unit as it stands.
    unit: &'a Unit,
}

impl Mover<'_> {
    /// The unit as the results write it: `A(Lon)`.
    fn shown(&self) -> String {
        let map = &self.v.map;
        format_unit(
            map,
            Some(self.unit.kind),
            Place::of_region(map, self.unit.region),
        )
    }

    /// Every province but the unit's own.
    fn elsewhere(&self) -> impl Iterator<Item = ProvinceId> + '_ {
        (0..self.v.map.provinces().len())
            .map(|i| ProvinceId(i as u16))
            .filter(|p| *p != self.order.at.province)
    }

    /// Where it can move: next door, or by convoy for an army on a coast.
    fn moves(&self) -> String {
        let map = &self.v.map;
        let by_convoy = |p: ProvinceId| {
            self.unit.kind == UnitKind::Army
                && coastal(map, self.order.at.province)
                && coastal(map, p)
                && accepted(
                    self.v,
                    self.pos,
                    Order {
                        power: self.power,
                        unit: *self.order,
                        command: MainCommand::Move {
                            to: Place::province(p),
                            via_convoy: true,
                            route: Vec::new(),
                        },
                    },
                )
        };
        let to: Vec<_> = self
            .elsewhere()
            .filter(|p| map.reaches(self.unit.region, *p, self.unit.kind) || by_convoy(*p))
            .collect();
        if to.is_empty() {
            format!(
                "{} cannot move anywhere now: it may hold or support",
                self.shown()
            )
        } else {
            format!("{} can move to {}", self.shown(), named(map, &to))
        }
    }

    /// Where it can support into: where it could move itself.
    fn supports(&self) -> String {
        let map = &self.v.map;
        let to: Vec<_> = self
            .elsewhere()
            .filter(|p| map.reaches(self.unit.region, *p, self.unit.kind))
            .collect();
        format!("{} can support into {}", self.shown(), named(map, &to))
    }

    /// Each army the fleet could convoy, with where to: every pair the
    /// judge itself would accept as this fleet's convoy order.
    fn convoys(&self) -> String {
        let map = &self.v.map;
        let coasts: Vec<_> = self.elsewhere().filter(|p| coastal(map, *p)).collect();
        let mut ways = Vec::new();
        for army in self
            .pos
            .units
            .iter()
            .filter(|a| a.kind == UnitKind::Army && coastal(map, map.province_of(a.region)))
        {
            let from = map.province_of(army.region);
            let to: Vec<_> = coasts
                .iter()
                .copied()
                .filter(|p| *p != from)
                .filter(|p| {
                    let convoy = Order {
                        power: self.power,
                        unit: *self.order,
                        command: MainCommand::Convoy {
                            unit: UnitRef {
                                kind: Some(army.kind),
                                at: Place::province(from),
                            },
                            to: Place::province(*p),
                        },
                    };
                    accepted(self.v, self.pos, convoy)
                })
                .map(|p| map.province(p).abbr.clone())
                .collect();
            if !to.is_empty() {
                let army = format_unit(map, Some(army.kind), Place::of_region(map, army.region));
                ways.push(format!("{army} to {}", to.join(" ")));
            }
        }
        if ways.is_empty() {
            format!(
                "{} has no army it could convoy now: it may hold, move or support",
                self.shown()
            )
        } else {
            format!("{} can convoy {}", self.shown(), ways.join("; "))
        }
    }
}

/// Where a power's dislodged unit can retreat to.
fn retreats(v: &Variant, pos: &Position, power: PowerId, u: &UnitRef) -> Option<String> {
    let map = &v.map;
    let (unit, opts) = pos
        .dislodged
        .iter()
        .find(|(d, _)| d.power == power && map.province_of(d.region) == u.at.province)?;
    let shown = format_unit(map, Some(unit.kind), Place::of_region(map, unit.region));
    let to: Vec<_> = opts.iter().map(|r| map.province_of(*r)).collect();
    Some(if to.is_empty() {
        format!("{shown} has nowhere to retreat: it can only disband")
    } else {
        format!("{shown} can retreat to {}, or disband", named(map, &to))
    })
}

/// The builds due and the free sites the judge would accept a `kind`
/// built on beside the power's other builds (`others`, `c` itself left
/// out of them).
fn builds(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    kind: Option<UnitKind>,
    c: &AnyCommand,
    others: &[AnyCommand],
) -> String {
    let map = &v.map;
    let due = crate::game::step::due(v, pos)
        .get(power.index())
        .copied()
        .unwrap_or(0);
    match due {
        0 => return "you have no builds due".into(),
        -1 => return "you have 1 removal due, not a build".into(),
        d if d < 0 => return format!("you have {} removals due, not builds", -d),
        _ => {}
    }
    let builds = if due == 1 {
        "1 build due".to_string()
    } else {
        format!("{due} builds due")
    };
    // The power's other builds, made first: a site they take is not free,
    // and when they use every build due none is.
    let before: Vec<AdjustOrder> = others
        .iter()
        .filter(|o| *o != c)
        .filter_map(|o| match o {
            AnyCommand::Adjust(a @ AdjustCommand::Build { .. }) => {
                Some(AdjustOrder { power, command: *a })
            }
            _ => None,
        })
        .collect();
    let made = crate::game::step::judge_adjustments(v, pos, &before)
        .orders
        .iter()
        .filter(|s| matches!(s, AdjustStatus::Built(_)))
        .count();
    if i32::try_from(made).unwrap_or(i32::MAX) >= due {
        return format!("you have {builds}, and your other builds use them all");
    }
    let free: Vec<_> = (0..map.provinces().len())
        .map(|i| ProvinceId(i as u16))
        // Centres, and the land a rule may open that is no centre (a
        // partisan site: 1900's Siberia).
        .filter(|p| {
            let prov = map.province(*p);
            prov.supply_centre
                || matches!(
                    prov.terrain,
                    crate::map::Terrain::Land | crate::map::Terrain::Coast
                )
        })
        .filter(|p| {
            let b = AdjustOrder {
                power,
                command: AdjustCommand::Build {
                    kind,
                    at: Place::province(*p),
                },
            };
            let mut with = before.clone();
            with.push(b);
            matches!(
                crate::game::step::judge_adjustments(v, pos, &with)
                    .orders
                    .last(),
                Some(AdjustStatus::Built(_))
            )
        })
        .collect();
    if free.is_empty() {
        format!("you have {builds} and no free site to build on (WAIVE)")
    } else {
        format!("you have {builds}; free sites: {}", named(map, &free))
    }
}
