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
        out[idx[k]] =
            verdict
                .filter(|w| !NOT_REFUSALS.contains(w))
                .map(|w| match (kind, adjust.get(k)) {
                    (PhaseKind::Adjustment | PhaseKind::Placement, Some(o)) => {
                        build_why(v, pos, o, w)
                    }
                    _ => w.explain(&v.map),
                });
    }
    out
}

/// The verdicts that are not refusals when an order comes in (see
/// [`refusals`]): compared as values, so a reworded reason cannot turn one
/// into a refusal.
const NOT_REFUSALS: [Illegal; 2] = [Illegal::Replaced, Illegal::NotFriendly];

/// Why a build is refused, naming its place and what is wrong with this
/// build there (`Edg (Edghanacata) is inland: no fleet can be built
/// there`), so that a player is not left to guess from the free sites
/// that follow; other adjustments, and the reasons a rule words itself,
/// as [`Illegal::explain`] says.
fn build_why(v: &Variant, pos: &Position, o: &AdjustOrder, w: Illegal) -> String {
    let AdjustCommand::Build { kind, at } = o.command else {
        return w.explain(&v.map);
    };
    let map = &v.map;
    let prov = map.province(at.province);
    let place = named(map, &[at.province]);
    match w {
        Illegal::WrongTerrain => {
            let unit = kind.map_or("unit".to_string(), |k| k.word().to_lowercase());
            let what = match prov.terrain {
                Terrain::Land => "inland",
                Terrain::Sea => "at sea",
                _ => "a place no unit enters",
            };
            format!("{place} is {what}: no {unit} can be built there")
        }
        Illegal::NotABuildSite => match prov.home_of.filter(|h| *h != o.power) {
            Some(other) if prov.supply_centre => format!(
                "{place} is {}'s home centre, not yours: {}",
                map.power(other).name,
                w.explain(map)
            ),
            _ => format!("{}, and {place} is not one of yours", w.explain(map)),
        },
        Illegal::NotOwned => {
            let holder = pos
                .owners
                .get(at.province.index())
                .copied()
                .flatten()
                .map_or("nobody".to_string(), |p| map.power(p).name.clone());
            format!("{}: {place} is held by {holder}", w.explain(map))
        }
        Illegal::Occupied => match pos.unit_in(map, at.province) {
            Some(u) => format!(
                "a unit already stands there: {}",
                format_unit(map, Some(u.kind), Place::of_region(map, u.region))
            ),
            None => format!("another build of yours already goes to {place}"),
        },
        other => other.explain(map),
    }
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

/// The builds due and the free sites the judge would accept a unit
/// built on beside the power's other builds (`others`, `c` itself left
/// out of them), for the kind ordered and, where the power builds armies
/// and fleets, for the other of the two too: a fleet refused inland
/// learns where an army may go, the place itself among them.
fn builds(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    kind: Option<UnitKind>,
    c: &AnyCommand,
    others: &[AnyCommand],
) -> String {
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
    match sites_text(v, pos, power, kind, &before) {
        None => format!("you have {builds} and no free site to build on (WAIVE)"),
        Some(sites) => format!("you have {builds}; free sites {sites}"),
    }
}

/// Where `power` may build now, beside its builds `before`, kind by kind:
/// `for an army: Cru (Cruachu) or Tua (Tuathal); for a fleet: none`. The
/// kinds are `kind`'s, or both an army's and a fleet's where `kind` is
/// one of them (or not given). `None`: nowhere, for any of them.
fn sites_text(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    kind: Option<UnitKind>,
    before: &[AdjustOrder],
) -> Option<String> {
    let kinds: Vec<UnitKind> = match kind {
        None | Some(UnitKind::Army | UnitKind::Fleet) => vec![UnitKind::Army, UnitKind::Fleet],
        Some(k) => vec![k],
    };
    let lists: Vec<(UnitKind, Vec<ProvinceId>)> = kinds
        .into_iter()
        .map(|k| (k, free_build_sites(v, pos, power, Some(k), before)))
        .collect();
    if lists.iter().all(|(_, l)| l.is_empty()) {
        return None;
    }
    let words: Vec<String> = lists
        .iter()
        .map(|(k, l)| {
            let a = a_kind(*k);
            if l.is_empty() {
                format!("for {a}: none")
            } else {
                format!("for {a}: {}", named(&v.map, l))
            }
        })
        .collect();
    Some(words.join("; "))
}

/// Where `power` may build now, as a refused build's reply says it
/// (`for an army: ...; for a fleet: ...`), for a mail that asks for its
/// builds (the start of a game that opens with them). `None`: nowhere.
pub fn build_sites(v: &Variant, pos: &Position, power: PowerId) -> Option<String> {
    sites_text(v, pos, power, None, &[])
}

/// "an army", "a fleet", "a defensive army".
fn a_kind(k: UnitKind) -> String {
    let word = k.word().to_lowercase();
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {word}")
    } else {
        format!("a {word}")
    }
}

/// The places where `power` could build a `kind` (`None`: a build that
/// does not say) now, beside its builds `before` (made first, so a site
/// they take is not free), one a province (with its coast where a fleet
/// needs one: St Petersburg's): each one the judge itself would accept,
/// found by asking [`crate::game::step::judge_adjustments`], so the list
/// is right for every variant's map and rules (the Vikings' seas, a
/// partisan site, a box). In the map's order.
pub fn free_build_places(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    kind: Option<UnitKind>,
    before: &[AdjustOrder],
) -> Vec<Place> {
    let map = &v.map;
    let accepted = |at: Place| {
        let mut with = before.to_vec();
        with.push(AdjustOrder {
            power,
            command: AdjustCommand::Build { kind, at },
        });
        matches!(
            crate::game::step::judge_adjustments(v, pos, &with)
                .orders
                .last(),
            Some(AdjustStatus::Built(_))
        )
    };
    (0..map.provinces().len())
        .map(|i| ProvinceId(i as u16))
        .filter_map(|p| {
            let alone = Place::province(p);
            if accepted(alone) {
                return Some(alone);
            }
            map.province(p)
                .regions
                .iter()
                .map(|r| Place::of_region(map, *r))
                .filter(|at| at.coast.is_some())
                .find(|at| accepted(*at))
        })
        .collect()
}

/// The provinces of [`free_build_places`].
pub fn free_build_sites(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    kind: Option<UnitKind>,
    before: &[AdjustOrder],
) -> Vec<ProvinceId> {
    free_build_places(v, pos, power, kind, before)
        .into_iter()
        .map(|at| at.province)
        .collect()
}
