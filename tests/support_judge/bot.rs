//! A simple conqueror for whole-game tests: it plays one power by mail,
//! greedily, while the others send nothing (their units hold and their
//! surplus is removed by civil disorder). Enough to drive any variant from
//! its first phase to a victory through the judge, and to exercise the
//! parser on the orders it writes in zine notation.

use std::collections::{BTreeSet, VecDeque};
use zinejudge::game::Position;
use zinejudge::map::{Map, PowerId, ProvinceId, RegionId, Terrain, Unit, UnitKind};
use zinejudge::orders::{AdjustCommand, AnyCommand, MainCommand, Place, UnitRef, format_order};
use zinejudge::variant::{PhaseKind, Variant};

/// Steps from `from` to every province, for a unit of `kind`
/// (`u32::MAX` where it cannot go). Boxes are never entered.
fn distances(map: &Map, from: RegionId, kind: UnitKind) -> Vec<u32> {
    let mut d = vec![u32::MAX; map.provinces().len()];
    let mut seen = vec![false; map.regions().len()];
    let mut q = VecDeque::new();
    d[map.province_of(from).index()] = 0;
    seen[from.index()] = true;
    q.push_back((from, 0u32));
    while let Some((r, n)) = q.pop_front() {
        for &(to, m) in map.borders(r) {
            if seen[to.index()] || !m.intersects(kind.mobility()) || !map.admits(to, kind) {
                continue;
            }
            let p = map.province_of(to);
            if map.province(p).terrain == Terrain::OffBoard {
                continue;
            }
            seen[to.index()] = true;
            let dp = &mut d[p.index()];
            *dp = (*dp).min(n + 1);
            q.push_back((to, n + 1));
        }
    }
    d
}

fn unit_ref(map: &Map, u: &Unit) -> UnitRef {
    UnitRef {
        kind: Some(u.kind),
        at: Place::of_region(map, u.region),
    }
}

/// The kind `u` moves as: an A/F that is a fleet with an army aboard
/// (Abstraction II) moves as a fleet.
fn moves_as(v: &Variant, u: &Unit) -> Unit {
    if u.kind == UnitKind::ArmyFleet && v.features.laden() {
        Unit {
            kind: UnitKind::Fleet,
            ..*u
        }
    } else {
        *u
    }
}

/// Regions next to `u` that it may move to.
fn steps(map: &Map, u: &Unit) -> Vec<RegionId> {
    map.borders(u.region)
        .iter()
        .filter(|(to, m)| {
            m.intersects(u.kind.mobility())
                && map.admits(*to, u.kind)
                && map.province(map.province_of(*to)).terrain != Terrain::OffBoard
        })
        .map(|(to, _)| *to)
        .collect()
}

/// The movement orders of `me` in `pos`, as lines of zine notation.
pub fn movement(v: &Variant, pos: &Position, me: PowerId) -> Vec<String> {
    let map = &v.map;
    // A unit waiting in a sea of its own (1066's Harald) is ordered there.
    let mine: Vec<Unit> = zinejudge::testing::rules::waiting::seated(v, pos, &[])
        .into_iter()
        .filter(|u| u.power == me)
        .collect();
    let occupant = |p: ProvinceId| {
        pos.units.iter().find(|u| {
            map.province_of(u.region) == p && map.province(p).terrain != Terrain::OffBoard
        })
    };
    let targets: Vec<ProvinceId> = map
        .province_ids()
        .filter(|&p| map.province(p).supply_centre && pos.owners[p.index()] != Some(me))
        .collect();
    let mut orders: Vec<Option<MainCommand>> = vec![None; mine.len()];
    let mut claimed: BTreeSet<ProvinceId> = BTreeSet::new();
    // First, foreign-held targets next to two or more of our units: one
    // attacks, the rest support.
    for &t in &targets {
        let Some(enemy) = occupant(t) else { continue };
        if enemy.power == me {
            continue;
        }
        let near: Vec<(usize, RegionId)> = mine
            .iter()
            .enumerate()
            .filter(|(i, _)| orders[*i].is_none())
            .filter_map(|(i, u)| {
                steps(map, u)
                    .into_iter()
                    .find(|r| map.province_of(*r) == t)
                    .map(|r| (i, r))
            })
            .collect();
        if near.len() < 2 {
            continue;
        }
        let (a, r) = near[0];
        orders[a] = Some(MainCommand::Move {
            to: Place::of_region(map, r),
            via_convoy: false,
            route: Vec::new(),
        });
        claimed.insert(t);
        for &(s, _) in &near[1..] {
            orders[s] = Some(MainCommand::SupportMove {
                unit: unit_ref(map, &mine[a]),
                to: Place::province(t),
            });
        }
    }
    // Then every other unit: stay on a centre it is about to take, else a
    // step toward the nearest target nobody else has claimed.
    for (i, u) in mine.iter().enumerate() {
        if orders[i].is_some() {
            continue;
        }
        let here = map.province_of(u.region);
        if targets.contains(&here) {
            orders[i] = Some(MainCommand::Hold);
            claimed.insert(here);
            continue;
        }
        let mut best: Option<(u32, RegionId, ProvinceId)> = None;
        for r in steps(map, u) {
            let p = map.province_of(r);
            if claimed.contains(&p) || occupant(p).is_some_and(|o| o.power == me) {
                continue;
            }
            let d = distances(map, r, u.kind);
            for &t in &targets {
                let n = d[t.index()];
                if n != u32::MAX && best.is_none_or(|(b, _, _)| n < b) {
                    best = Some((n, r, p));
                }
            }
        }
        if let Some((_, r, p)) = best {
            claimed.insert(p);
            orders[i] = Some(MainCommand::Move {
                to: Place::of_region(map, r),
                via_convoy: false,
                route: Vec::new(),
            });
        }
    }
    mine.iter()
        .zip(orders)
        .map(|(u, o)| {
            format_order(
                map,
                &AnyCommand::Main(unit_ref(map, u), o.unwrap_or(MainCommand::Hold)),
            )
        })
        .collect()
}

/// Retreats: the first place open, else disband.
pub fn retreats(v: &Variant, pos: &Position, me: PowerId) -> Vec<String> {
    pos.dislodged
        .iter()
        .filter(|(u, _)| u.power == me)
        .map(|(u, opts)| {
            let cmd = match opts.first() {
                Some(r) => zinejudge::orders::RetreatCommand::Move {
                    to: Place::of_region(&v.map, *r),
                },
                None => zinejudge::orders::RetreatCommand::Disband,
            };
            format_order(&v.map, &AnyCommand::Retreat(unit_ref(&v.map, u), cmd))
        })
        .collect()
}

/// Builds in free home centres (armies where they can stand), removals of
/// the units farthest from anything to take.
pub fn adjustments(v: &Variant, pos: &Position, me: PowerId) -> Vec<String> {
    let map = &v.map;
    let due = zinejudge::game::step::due(v, pos)[me.index()];
    let mut out = Vec::new();
    if due > 0 {
        let sites: Vec<ProvinceId> = map
            .province_ids()
            .filter(|&p| {
                let home = map.province(p).home_of == Some(me)
                    || pos.state.homes.get(me).is_some_and(|h| h.contains(&p))
                    || v.features.box_at(p).is_some_and(|b| b.owner == Some(me));
                let boxed = v.features.box_at(p).is_some();
                home && (boxed || pos.owners[p.index()] == Some(me))
                    && (boxed || !pos.units.iter().any(|u| map.province_of(u.region) == p))
            })
            .collect();
        for p in sites.into_iter().take(due as usize) {
            let kind = [UnitKind::Army, UnitKind::Fleet, UnitKind::ArmyFleet]
                .into_iter()
                .find(|k| {
                    map.default_region(p, *k).is_some()
                        && v.features.may_build_kind(me, *k)
                        && v.features
                            .box_at(p)
                            .is_none_or(|b| b.builds.is_empty() || b.builds.contains(k))
                })
                .unwrap_or(UnitKind::Army);
            out.push(format_order(
                map,
                &AnyCommand::Adjust(AdjustCommand::Build {
                    kind: Some(kind),
                    at: Place::province(p),
                }),
            ));
        }
    } else if due < 0 {
        let mine: Vec<&Unit> = pos.units.iter().filter(|u| u.power == me).collect();
        for u in mine.iter().rev().take((-due) as usize) {
            out.push(format_order(
                map,
                &AnyCommand::Adjust(AdjustCommand::Remove {
                    unit: unit_ref(map, u),
                }),
            ));
        }
    }
    out
}

/// The bot's orders for whatever phase `pos` is in.
pub fn orders(v: &Variant, pos: &Position, me: PowerId) -> Vec<String> {
    match pos.phase.kind {
        PhaseKind::Movement => movement(v, pos, me),
        PhaseKind::Retreat => retreats(v, pos, me),
        PhaseKind::Adjustment | PhaseKind::Placement => adjustments(v, pos, me),
    }
}

/// How a bot-played game went.
#[derive(Debug)]
pub struct Played {
    /// The judge's words for how it ended (`None`: still running).
    pub result: Option<String>,
    /// Phases played.
    pub phases: usize,
    /// Every results mail the bot's player received, in order.
    pub results: Vec<String>,
}

/// Create `game` of `variant`, seat the bot as `power` (its SIGNON name
/// `token`), start it and play it by mail, the GM processing each phase,
/// until it ends or `max_phases` have been played.
pub fn conquer(
    w: &mut super::World,
    v: &Variant,
    game: &str,
    power: &str,
    token: &str,
    max_phases: usize,
) -> Played {
    let me = v.map.lookup_power(power).expect("the bot's power");
    let bot = "bot@example.test";
    let gm = "gm@example.test";
    let r = w.reply(gm, &format!("CREATE {game} {} gm-secret", v.name));
    assert!(!r.contains("rror"), "{r}");
    // WAIT: the bot's complete orders would otherwise let each phase go
    // at once (nobody else plays); the GM's PROCESS plays them.
    let r = w.reply(bot, &format!("JOIN {game} bot-secret {power}\nSET WAIT"));
    assert!(r.contains(&v.map.power(me).name), "{r}");
    w.reply(
        gm,
        &format!("SIGNON GM {game} gm-secret\nSET NMR HOLD\nSTART"),
    );
    let mut results = Vec::new();
    for phases in 0..max_phases {
        let row = zinejudge::testing::store::games::load(w.processor.store.conn(), game)
            .expect("store")
            .expect("the game");
        if row.status == zinejudge::game::record::Status::Finished {
            return Played {
                result: row.result,
                phases,
                results,
            };
        }
        let pos = Position::from_toml(v, &row.position).expect("the stored position");
        let lines = orders(v, &pos, me);
        if !lines.is_empty() {
            let r = w.reply(
                bot,
                &format!("SIGNON {token} {game} bot-secret\n{}", lines.join("\n")),
            );
            assert!(
                !r.contains("not accepted")
                    && !r.contains("Not accepted")
                    && !r.contains("Not read as orders"),
                "{}: the judge refused the bot's orders:\n{}\n{r}",
                v.calendar.label(pos.phase),
                lines.join("\n")
            );
        }
        let sent = w.mail(gm, &format!("SIGNON GM {game} gm-secret\nPROCESS"));
        results.extend(
            sent.into_iter()
                .filter(|m| {
                    m.to_has(bot) && m.subject.contains("results")
                        || m.to_has(bot) && m.subject.contains("retreats")
                        || m.to_has(bot) && m.subject.contains("adjustments")
                })
                .map(|m| m.body),
        );
    }
    Played {
        result: None,
        phases: max_phases,
        results,
    }
}

/// Orders for `me` that move each unit somewhere next to it, chosen by a
/// seeded generator: noise for long games.
pub fn wander(v: &Variant, pos: &Position, me: PowerId, seed: &mut u64) -> Vec<String> {
    let map = &v.map;
    let mut next = || {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    };
    match pos.phase.kind {
        PhaseKind::Movement => zinejudge::testing::rules::waiting::seated(v, pos, &[])
            .iter()
            .filter(|u| u.power == me)
            .map(|u| {
                let m = moves_as(v, u);
                let options = steps(map, &m);
                let cmd = if options.is_empty() || next() % 3 == 0 {
                    MainCommand::Hold
                } else {
                    let r = options[(next() % options.len() as u64) as usize];
                    MainCommand::Move {
                        to: Place::of_region(map, r),
                        via_convoy: false,
                        route: Vec::new(),
                    }
                };
                format_order(map, &AnyCommand::Main(unit_ref(map, u), cmd))
            })
            .collect(),
        _ => orders(v, pos, me),
    }
}
