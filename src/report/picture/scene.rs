//! What a picture shows, worked out from a played phase before anything is
//! drawn: the units (where they stand after the phase, dislodged ones
//! beside their province, removed or disbanded ones crossed out) and a
//! mark for each order (an arrow for a move, a line for a support, a ring
//! for a hold). Units the reader may not see, and their orders, are left
//! out here, so the drawing cannot show them by mistake.

use super::geometry::{DISLODGED_OFFSET, Geometry, Pt};
use crate::adjudicate::{AdjustStatus, MovementResult, Outcome, Resolved, RetreatStatus};
use crate::game::Position;
use crate::game::step::{PhaseOrders, PhaseResult};
use crate::map::{Map, PowerId, RegionId, Terrain, Unit};
use crate::orders::{MainCommand, MainOrder};
use crate::report::{PhaseReport, support_masked, unit_hidden};
use crate::rules::view::VariantRules;
use crate::rules::view::View;
use crate::variant::Variant;
use crate::variant::features::Viewer;

/// How a unit is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenStyle {
    /// On the board.
    Normal,
    /// Dislodged: beside its province, outlined in red.
    Dislodged,
    /// Built this phase.
    Built,
    /// Removed, disbanded or destroyed this phase: crossed out.
    Gone,
}

/// A unit to draw.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Token {
    /// The unit.
    pub unit: Unit,
    /// Where.
    pub at: Pt,
    /// How.
    pub style: TokenStyle,
}

/// An order's mark.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Mark {
    /// A move (or retreat, landing, boarding...): an arrow from `from`
    /// through `via` to `to`.
    Arrow {
        /// Whose.
        power: PowerId,
        /// Start.
        from: Pt,
        /// Convoying fleets on the way.
        via: Vec<Pt>,
        /// End.
        to: Pt,
        /// Whether it got there.
        ok: bool,
        /// A retreat (drawn dashed).
        retreat: bool,
        /// A word on the arrow: `board`, `land`, `raid`, `destroy`, or the
        /// impulse number.
        tag: Option<String>,
    },
    /// A support: a dashed line from the supporter to the supported move
    /// (or unit, with a ring round it).
    Support {
        /// Whose.
        power: PowerId,
        /// The supporter.
        from: Pt,
        /// The point supported.
        to: Pt,
        /// Support in place: a ring at `to`.
        hold: bool,
        /// Cut or void: crossed.
        failed: bool,
        /// The impulse number (1700 AD II).
        tag: Option<String>,
    },
    /// A unit that held by order: a ring round it.
    Hold {
        /// Whose.
        power: PowerId,
        /// Where.
        at: Pt,
    },
    /// A fleet that convoyed: a wave under it.
    Convoy {
        /// Whose.
        power: PowerId,
        /// Where.
        at: Pt,
    },
    /// Where a dislodged unit may retreat: a thin dotted line.
    Option {
        /// The dislodged unit.
        from: Pt,
        /// The option.
        to: Pt,
    },
}

/// Everything to draw on the map.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Scene {
    /// Units.
    pub tokens: Vec<Token>,
    /// Order marks.
    pub marks: Vec<Mark>,
}

fn offset(p: Pt) -> Pt {
    (p.0 + DISLODGED_OFFSET.0, p.1 + DISLODGED_OFFSET.1)
}

/// The board alone: `pos`'s units, `dislodged` ones beside their
/// provinces with their retreat options.
pub(crate) fn board(
    v: &Variant,
    g: &Geometry,
    pos: &Position,
    dislodged: &[(Unit, Vec<RegionId>)],
    viewer: Viewer,
) -> Scene {
    let mut s = Scene::default();
    // A unit waiting in a sea of its own (1066 rule 5) is drawn there, for
    // those who may see it at all.
    let seated = crate::rules::waiting::seated(v, pos, &[]);
    let view = View::of(v, pos, viewer);
    for (u, at) in pos.units.iter().zip(&seated) {
        if !view.hides_unit(u) {
            s.tokens.push(token(g, at, TokenStyle::Normal));
        }
    }
    for (u, options) in dislodged {
        if view.hides_unit(u) {
            continue;
        }
        let at = offset(g.spot(u.region));
        s.tokens.push(Token {
            unit: *u,
            at,
            style: TokenStyle::Dislodged,
        });
        for &r in options {
            s.marks.push(Mark::Option {
                from: at,
                to: g.spot(r),
            });
        }
    }
    s
}

fn token(g: &Geometry, u: &Unit, style: TokenStyle) -> Token {
    Token {
        unit: *u,
        at: g.spot(u.region),
        style,
    }
}

/// The board after a played phase, with what each unit was ordered to do
/// and what became of it, as `viewer` may see it.
pub(crate) fn phase(r: &PhaseReport<'_>, g: &Geometry, viewer: Viewer) -> Scene {
    let v = r.variant;
    // The board after the phase; dislodged units are added with their
    // marks below, so the position's own list is not drawn twice.
    let mut s = board(v, g, r.after, &[], viewer);
    let view = View::new(v, r.before.phase, viewer);
    match (r.result, r.orders) {
        (PhaseResult::Movement(m), PhaseOrders::Movement(orders)) => {
            // A unit the result does not speak of (a result that does not
            // match its board) is not drawn: read with `get`, never a panic.
            let hide = |i: usize| {
                let given = m
                    .units
                    .get(i)
                    .and_then(|ur| ur.order_index())
                    .and_then(|k| orders.get(k))
                    .map(|o| &o.command);
                r.before
                    .units
                    .get(i)
                    .is_none_or(|u| unit_hidden(r, &view, u, given))
            };
            let masked = |c: &MainCommand| support_masked(&view, Some(c));
            // Harald's waiting A/Fs set out from their seas (1066 rule 5).
            let seated = crate::rules::waiting::seated(v, r.before, orders);
            movement(v, g, &seated, m, orders, &hide, &masked, None, &mut s);
            for (i, (u, ur, d)) in r
                .before
                .units
                .iter()
                .zip(&m.units)
                .enumerate()
                .filter_map(|(i, (u, ur))| ur.dislodged.as_ref().map(|d| (i, (u, ur, d))))
            {
                if hide(i) {
                    continue;
                }
                let kind = ur.becomes().unwrap_or(u.kind);
                let at = offset(g.spot(u.region));
                s.tokens.push(Token {
                    unit: Unit { kind, ..*u },
                    at,
                    style: TokenStyle::Dislodged,
                });
                for &o in &d.retreats {
                    s.marks.push(Mark::Option {
                        from: at,
                        to: g.spot(o),
                    });
                }
            }
        }
        (PhaseResult::Retreat(res), _) => {
            for (i, (u, _)) in r.before.dislodged.iter().enumerate() {
                if view.hides_unit(u) {
                    continue;
                }
                let at = offset(g.spot(u.region));
                match res.dislodged.get(i) {
                    Some(RetreatStatus::Retreated(to)) => s.marks.push(Mark::Arrow {
                        power: u.power,
                        from: at,
                        via: vec![],
                        to: g.spot(*to),
                        ok: true,
                        retreat: true,
                        tag: None,
                    }),
                    _ => s.tokens.push(Token {
                        unit: *u,
                        at,
                        style: TokenStyle::Gone,
                    }),
                }
            }
        }
        (PhaseResult::Adjustment(a), _) => adjustments(v, g, a, &mut s, viewer, r.after),
        (PhaseResult::Turn(t), PhaseOrders::Turn { .. } | _) => {
            for (k, round) in t.turn.rounds.iter().chain(&t.turn.sea_rounds).enumerate() {
                let land = t.turn.rounds.len();
                let n = if k < land { k + 1 } else { k - land + 1 };
                let orders: Vec<MainOrder> = round.orders.iter().map(|(o, _)| o.clone()).collect();
                let hide = |i: usize| round.board.get(i).is_none_or(|u| view.hides_unit(u));
                movement(
                    v,
                    g,
                    &round.board,
                    &round.result,
                    &orders,
                    &hide,
                    &|_| false,
                    Some(n.to_string()),
                    &mut s,
                );
                for (u, to) in &round.retreats {
                    if view.hides_unit(u) {
                        continue;
                    }
                    let at = offset(g.spot(u.region));
                    match to {
                        Some(to) => s.marks.push(Mark::Arrow {
                            power: u.power,
                            from: at,
                            via: vec![],
                            to: g.spot(*to),
                            ok: true,
                            retreat: true,
                            tag: Some(n.to_string()),
                        }),
                        None => s.tokens.push(Token {
                            unit: *u,
                            at,
                            style: TokenStyle::Gone,
                        }),
                    }
                }
            }
            for u in &t.out_of_supply {
                s.tokens.push(Token {
                    unit: *u,
                    at: offset(g.spot(u.region)),
                    style: TokenStyle::Gone,
                });
            }
            adjustments(v, g, &t.adjustments, &mut s, viewer, r.after);
        }
        _ => {}
    }
    s
}

fn adjustments(
    v: &Variant,
    g: &Geometry,
    a: &crate::adjudicate::AdjustResult,
    s: &mut Scene,
    viewer: Viewer,
    after: &Position,
) {
    let view = View::of(v, after, viewer);
    let mut gone: Vec<Unit> = a.civil_disorder.clone();
    for st in &a.orders {
        match st {
            AdjustStatus::Built(u) | AdjustStatus::Converted(u) => {
                if let Some(t) = s
                    .tokens
                    .iter_mut()
                    .find(|t| t.unit == *u && t.style == TokenStyle::Normal)
                {
                    t.style = TokenStyle::Built;
                }
            }
            AdjustStatus::Removed(u) => gone.push(*u),
            AdjustStatus::Waived | AdjustStatus::Illegal(_) => {}
        }
    }
    for u in gone {
        if !view.hides_unit(&u) {
            s.tokens.push(token(g, &u, TokenStyle::Gone));
        }
    }
}

/// The marks of a movement phase (or one round of a 1700 AD II turn):
/// `board` is the units judged, `m` what became of them.
#[allow(clippy::too_many_arguments)]
fn movement(
    v: &Variant,
    g: &Geometry,
    board: &[Unit],
    m: &MovementResult,
    orders: &[MainOrder],
    hide: &dyn Fn(usize) -> bool,
    masked: &dyn Fn(&MainCommand) -> bool,
    round: Option<String>,
    s: &mut Scene,
) {
    let map = &v.map;
    let at = |i: usize| board.get(i).map_or((0.0, 0.0), |u| g.spot(u.region));
    for (i, (u, ur)) in board.iter().zip(&m.units).enumerate() {
        if hide(i) {
            continue;
        }
        let given = ur
            .order_index()
            .and_then(|k| orders.get(k))
            .map(|o| &o.command);
        let from = at(i);
        // A support of a unit where this reader may not know what stands:
        // drawn as ordered, whether it was given or void (1066 rule 5).
        if let Some(c) = given.filter(|c| masked(c)) {
            let (to, hold) = match c {
                MainCommand::SupportHold { unit } => (g.province_spot(unit.at.province), true),
                MainCommand::SupportMove { to, .. } => (g.province_spot(to.province), false),
                _ => (from, true),
            };
            s.marks.push(Mark::Support {
                power: u.power,
                from,
                to,
                hold,
                failed: matches!(ur.outcome, Outcome::Cut(_)),
                tag: round.clone(),
            });
            continue;
        }
        match ur.command {
            Resolved::Hold => {
                if matches!(given, Some(MainCommand::Hold)) {
                    s.marks.push(Mark::Hold {
                        power: u.power,
                        at: from,
                    });
                }
            }
            Resolved::Move { to, convoy } => {
                let mut via: Vec<Pt> = Vec::new();
                if convoy {
                    // The fleets that carried it, nearest first along the way.
                    let mut fleets: Vec<Pt> = board
                        .iter()
                        .zip(&m.units)
                        .enumerate()
                        .filter(|(j, (_, r))| {
                            !hide(*j)
                                && matches!(r.command, Resolved::Convoy { army, .. } if usize::from(army) == i)
                        })
                        .map(|(j, _)| at(j))
                        .collect();
                    let mut here = from;
                    while !fleets.is_empty() {
                        let k = (0..fleets.len())
                            .min_by(|&a, &b| d2(here, fleets[a]).total_cmp(&d2(here, fleets[b])))
                            .unwrap_or(0);
                        here = fleets.swap_remove(k);
                        via.push(here);
                    }
                }
                let ok = ur.outcome == Outcome::Moved;
                let tag = round
                    .clone()
                    .or_else(|| tag_of(v, map, u, to, given, ur.boarded()));
                s.marks.push(Mark::Arrow {
                    power: u.power,
                    from,
                    via,
                    to: g.spot(to),
                    ok,
                    retreat: false,
                    tag,
                });
            }
            Resolved::SupportHold { unit } => {
                let unit = usize::from(unit);
                s.marks.push(Mark::Support {
                    power: u.power,
                    from,
                    to: at(unit),
                    hold: true,
                    failed: !matches!(ur.outcome, Outcome::Supported | Outcome::Held),
                    tag: round.clone(),
                });
            }
            Resolved::SupportMove { unit, to } => {
                let unit = usize::from(unit);
                // To the supported arrow, two thirds along, when it went
                // there; else to where the support was for.
                let target = match m.units.get(unit).map(|r| r.command) {
                    Some(Resolved::Move { to: t, .. }) if map.province_of(t) == to => {
                        let (a, b) = (at(unit), g.spot(t));
                        (a.0 + (b.0 - a.0) * 0.62, a.1 + (b.1 - a.1) * 0.62)
                    }
                    _ => g.province_spot(to),
                };
                s.marks.push(Mark::Support {
                    power: u.power,
                    from,
                    to: target,
                    hold: false,
                    failed: !matches!(ur.outcome, Outcome::Supported),
                    tag: round.clone(),
                });
            }
            Resolved::Convoy { .. } => s.marks.push(Mark::Convoy {
                power: u.power,
                at: from,
            }),
            Resolved::Destroy => {
                let target = v.destroyed_box().map_or(from, |p| g.province_spot(p));
                s.marks.push(Mark::Arrow {
                    power: u.power,
                    from,
                    via: vec![],
                    to: target,
                    ok: ur.outcome == Outcome::Destroying,
                    retreat: false,
                    tag: Some("destroy".into()),
                });
            }
        }
        // An A/F's army landing.
        if let Some(crate::adjudicate::Landing { order: k, outcome }) = m.landing(i) {
            let to = ur.landed().map(|r| g.spot(r)).or_else(|| {
                orders.get(*k).and_then(|o| match &o.command {
                    MainCommand::Disembark { to, .. } | MainCommand::Move { to, .. } => {
                        Some(g.province_spot(to.province))
                    }
                    _ => None,
                })
            });
            if let Some(to) = to {
                s.marks.push(Mark::Arrow {
                    power: u.power,
                    from,
                    via: vec![],
                    to,
                    ok: *outcome == Outcome::Moved,
                    retreat: false,
                    tag: Some("land".into()),
                });
            }
        }
        if ur.destroyed() {
            s.tokens.push(Token {
                unit: *u,
                at: from,
                style: TokenStyle::Gone,
            });
        }
    }
}

fn d2(a: Pt, b: Pt) -> f32 {
    (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)
}

/// The word on a variant's special move: boarding a fleet, raiding from a
/// box, coming back.
fn tag_of(
    v: &Variant,
    map: &Map,
    u: &Unit,
    to: RegionId,
    given: Option<&MainCommand>,
    boarded: bool,
) -> Option<String> {
    if boarded || matches!(given, Some(MainCommand::Board { .. })) {
        return Some("board".into());
    }
    if matches!(given, Some(MainCommand::Disembark { .. })) {
        return Some("land".into());
    }
    let (from_p, to_p) = (map.province_of(u.region), map.province_of(to));
    let raid = |p| v.is_raid_box(p);
    if raid(to_p) {
        return Some("raid".into());
    }
    if raid(from_p) {
        return Some("home".into());
    }
    if map.province(to_p).terrain == Terrain::OffBoard {
        return None;
    }
    None
}
