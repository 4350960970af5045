//! Results as a zine GM wrote them: the game and season, every power's
//! orders with what became of them, the dislodged units and where they may
//! go, the supply-centre chart, the adjustments and the next deadline.
//!
//! A played phase is first turned into [`ReportData`], a plain record of
//! what happened (both in zine notation and in the long words of the judge
//! layout); the text is then made by a template ([`templates`]), so a GM
//! can change the house style without recompiling. Lines are at most 72
//! characters, without tabs. Pure: no I/O here.

pub(crate) mod board;
pub(crate) mod notices;
pub(crate) mod picture;
pub(crate) mod templates;

pub(crate) use picture::PictureFormat;

use crate::adjudicate::{AdjustStatus, Illegal, Outcome, RetreatStatus};
use crate::adjudicate::{MovementResult, RetreatResult};
use crate::game::Position;
use crate::game::step::{PhaseOrders, PhaseResult};
use crate::map::{Map, PowerId, Unit};
use crate::orders::{
    AnyCommand, MainCommand, MainOrder, Place, UnitRef, format_order, format_order_long,
    format_unit, format_unit_long,
};
use crate::rules::view::VariantRules;
use crate::rules::view::View;
use crate::variant::features::Viewer;
use crate::variant::{PhaseKind, Variant};
use serde::Serialize;

/// Everything known about a played phase.
pub struct PhaseReport<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// The game's name.
    pub game: &'a str,
    /// The position the phase was played from.
    pub before: &'a Position,
    /// The orders given.
    pub orders: &'a PhaseOrders,
    /// What happened.
    pub result: &'a PhaseResult,
    /// The position after the phase.
    pub after: &'a Position,
    /// The next deadline, shown, if the game goes on.
    pub next_deadline: Option<String>,
    /// How the game ended, if it did.
    pub ended: Option<String>,
    /// Powers that sent no orders.
    pub nmr: Vec<PowerId>,
}

/// One order line.
#[derive(Debug, Clone, Serialize)]
pub struct OrderLine {
    /// Zine notation: `A(Lon)-Yor`.
    pub zine: String,
    /// Judge words: `Army London -> Yorkshire`.
    pub judge: String,
    /// What became of it, in words: `bounced`, `cut by A(Boh)`,
    /// `dislodged`, `void: ...`, `no order`.
    pub marks: Vec<String>,
    /// The njudge marks: `bounce`, `cut`, `dislodged`, `void`, `no convoy`.
    pub judge_marks: Vec<String>,
}

/// A power's orders.
#[derive(Debug, Clone, Serialize)]
pub struct PowerBlock {
    /// Power name.
    pub name: String,
    /// Adjective.
    pub adjective: String,
    /// Orders, one per unit, then the orders not carried out.
    pub orders: Vec<OrderLine>,
}

/// A dislodged unit.
#[derive(Debug, Clone, Serialize)]
pub struct DislodgedLine {
    /// Owner.
    pub power: String,
    /// Owner's adjective.
    pub adjective: String,
    /// `A(Vie)`.
    pub unit: String,
    /// `Army Vienna`.
    pub unit_long: String,
    /// `Army`.
    pub kind_word: String,
    /// `Vienna`, `St Petersburg (north coast)`.
    pub place_long: String,
    /// Where the attacker came from (abbreviation).
    pub from: String,
    /// Retreat options, abbreviated.
    pub retreats: Vec<String>,
    /// Retreat options, in full.
    pub retreats_long: Vec<String>,
}

/// A line of retreats or adjustments.
#[derive(Debug, Clone, Serialize)]
pub struct PowerLine {
    /// Power.
    pub power: String,
    /// Zine form.
    pub zine: String,
    /// Judge form.
    pub judge: String,
}

/// A power's row in the supply-centre chart.
#[derive(Debug, Clone, Serialize)]
pub struct CentreRow {
    /// Power.
    pub power: String,
    /// Adjective.
    pub adjective: String,
    /// Centres owned.
    pub count: u32,
    /// Change this phase.
    pub change: i64,
    /// Units on the board.
    pub units: i64,
    /// Builds (positive) or removals (negative) owed.
    pub owed: i64,
    /// The builds owed are waived: the power is in civil disorder.
    pub waived: bool,
    /// Centres held off the board (Ard-Ri's Vikings), counted for builds
    /// but not for victory.
    pub offboard: u32,
    /// Extra centres for this adjustment only (Ard-Ri's raiders home).
    pub bonus: u32,
    /// Other centres a rule counts for builds but not for victory, in
    /// words (`1 partisan site`).
    pub beyond: Vec<String>,
    /// Centres, abbreviated.
    pub centres: Vec<String>,
    /// Centres, in full.
    pub centres_long: Vec<String>,
}

/// What a results mail says, ready for a template.
#[derive(Debug, Clone, Serialize)]
pub struct ReportData {
    /// Judge name.
    pub judge: String,
    /// Game name.
    pub game: String,
    /// Variant title.
    pub variant: String,
    /// Variant name.
    pub variant_name: String,
    /// `Spring 1901`, `July 1914`, `Winter 999 AD`.
    pub season_year: String,
    /// `movement`, `retreat`, `adjustment`, `placement`.
    pub phase: String,
    /// `Spring 1901 movement`.
    pub phase_label: String,
    /// `S1901M`.
    pub phase_short: String,
    /// `Spring of 1901`, as njudge writes it.
    pub judge_phase: String,
    /// `Movement`, `Retreat`, `Adjustment`.
    pub judge_kind: String,
    /// The kind of the phase that follows, the same words: the judge
    /// layout says "Builds" and "Removes" only on the way into an
    /// adjustment (never "Builds 0 units" in the spring).
    pub next_kind: String,
    /// `g1: Spring 1901 results`.
    pub title: String,
    /// Orders by power (movement phases).
    pub powers: Vec<PowerBlock>,
    /// Dislodged units.
    pub dislodged: Vec<DislodgedLine>,
    /// Provinces left empty by a standoff.
    pub contested: Vec<String>,
    /// Retreats (retreat phases).
    pub retreats: Vec<PowerLine>,
    /// Builds, removals, waivers (adjustment phases).
    pub adjustments: Vec<PowerLine>,
    /// Powers that sent no orders.
    pub nmr: Vec<String>,
    /// Units built off the board placed on the way into the next phase
    /// (`Viking F(NAT)`), and those lost because their place was taken.
    pub arrived: Vec<String>,
    /// See `arrived`.
    pub arrival_lost: Vec<String>,
    /// Centres exchanged at the end of the move (`France gave Hol to
    /// Germany for Bel`).
    pub exchanged: Vec<String>,
    /// Home centres nominated since the last results (1066 rule 6),
    /// announced to all: `The Welsh: Hereford`.
    pub nominated: Vec<String>,
    /// Matched exchanges not made, with why (`France and Germany: Mar
    /// for Dre not made: ...`).
    pub unmade: Vec<String>,
    /// The supply-centre chart.
    pub centres: Vec<CentreRow>,
    /// The chart is as it stood before this move: its captures count only
    /// after the retreats that follow (the Fall with retreats pending), and
    /// the retreat results give the new one.
    pub chart_before_retreats: bool,
    /// The width of the chart's name column: the longest power name and
    /// a space (at least 14, the width of the standard game's column).
    pub name_width: usize,
    /// Unowned centres, abbreviated.
    pub unowned: Vec<String>,
    /// Unowned centres, in full.
    pub unowned_long: Vec<String>,
    /// A line under the chart where its unit counts need one: a centre
    /// that keeps more than one fleet (the variant's `fleets-per-centre`)
    /// makes "units" more than the centres they need.
    pub chart_note: Option<String>,
    /// Powers out of the game after this phase.
    pub eliminated: Vec<String>,
    /// Powers whose standing under an anarchy rule changed (1000 AD rule
    /// 13): lost every home centre and how long they have, retook one,
    /// fell into anarchy.
    pub anarchy: Vec<String>,
    /// How the game ended.
    pub ended: Option<String>,
    /// `Fall 1901 movement`.
    pub next_label: String,
    /// `F1901M`.
    pub next_short: String,
    /// `Fall of 1901`.
    pub next_judge_phase: String,
    /// The next deadline, shown in the game's time zone.
    pub next_deadline: Option<String>,
}

fn unit_zine(map: &Map, u: &Unit) -> String {
    format_unit(map, Some(u.kind), Place::of_region(map, u.region))
}

/// A unit as the zine names it in an outcome ("bounced with A(Mun)"); an
/// armed neutral's garrison (1700 AD II rule 10b) is no army of anyone's:
/// "bounced with the garrison of Denmark".
pub(crate) fn unit_in_outcome(map: &Map, u: &Unit) -> String {
    if u.power == crate::rules::impulses::judge::NEUTRAL {
        format!(
            "the garrison of {}",
            map.province(map.province_of(u.region)).name
        )
    } else {
        unit_zine(map, u)
    }
}
fn unit_long(map: &Map, u: &Unit) -> String {
    format_unit_long(map, Some(u.kind), Place::of_region(map, u.region))
}

/// `g1: Spring 1901 results` and the like.
pub fn title(r: &PhaseReport<'_>) -> String {
    format!(
        "{}: {} {}",
        r.game,
        r.variant.calendar.season_year(r.before.phase),
        match r.before.phase.kind {
            PhaseKind::Movement => "results",
            PhaseKind::Retreat => "retreats",
            PhaseKind::Adjustment => "adjustments",
            PhaseKind::Placement => "placements",
        }
    )
}

fn judge_phase(v: &Variant, p: crate::variant::Phase) -> String {
    let season = v.calendar.season_name(p);
    if v.calendar.era.is_empty() {
        format!("{season} of {}", v.calendar.shown_year(p))
    } else {
        format!(
            "{season} of {} {}",
            v.calendar.shown_year(p),
            v.calendar.era
        )
    }
}

/// Turn a played phase into its report data.
pub fn data(r: &PhaseReport<'_>, judge: &str) -> ReportData {
    data_for(r, judge, Viewer::Gm)
}

/// Whether a unit's doings in a movement phase stay hidden from `viewer`:
/// it stood hidden, and its order kept to the hidden places (1066 rule 5:
/// "until they attempt to act outside these areas").
pub(crate) fn unit_hidden(
    r: &PhaseReport<'_>,
    view: &View<'_>,
    u: &Unit,
    cmd: Option<&crate::orders::MainCommand>,
) -> bool {
    let map = &r.variant.map;
    if !view.hides_unit(u) {
        return false;
    }
    let inside = |p: crate::map::ProvinceId| {
        view.hides_unit(&Unit {
            region: map.province(p).main_region(),
            ..*u
        })
    };
    use crate::orders::MainCommand as M;
    match cmd {
        None | Some(M::Hold) => true,
        Some(M::Move { to, .. }) => inside(to.province),
        Some(M::SupportHold { unit }) => inside(unit.at.province),
        Some(M::SupportMove { unit, to }) | Some(M::Convoy { unit, to }) => {
            inside(unit.at.province) && inside(to.province)
        }
        Some(_) => false,
    }
}

/// Whether what became of `cmd`, a support of a unit at a place hidden
/// from `viewer`, must not be told to `viewer`: whether it was given or
/// void says whether a hidden unit stood there (1066 rule 5). A support
/// of a move out of the hidden places is told: the move is seen.
pub(crate) fn support_masked(view: &View<'_>, cmd: Option<&crate::orders::MainCommand>) -> bool {
    use crate::orders::MainCommand as M;
    let hidden = |p| view.hides_place(p);
    match cmd {
        Some(M::SupportHold { unit }) => hidden(unit.at.province),
        Some(M::SupportMove { unit, to }) => hidden(unit.at.province) && hidden(to.province),
        _ => false,
    }
}

/// The order, dislodgement and retreat sections of a report, gathered
/// per phase kind before the chart and the news are added.
#[derive(Default)]
struct Sections {
    powers: Vec<PowerBlock>,
    dislodged: Vec<DislodgedLine>,
    contested: Vec<String>,
    retreats: Vec<PowerLine>,
    adjustments: Vec<PowerLine>,
}

/// The report data as `viewer` may see it: where a variant hides units,
/// their lines are left out for everyone but their owner and the GM.
pub fn data_for(r: &PhaseReport<'_>, judge: &str, viewer: Viewer) -> ReportData {
    data_told(r, judge, viewer, &[])
}

/// [`data_for`] in a game whose seats the judge knows: `disorder`, the
/// powers in civil disorder once the phase is played (SET NMR CD), are
/// waived the builds they are due while they stay in it, and the chart
/// and the adjustments say so, as their players are told.
pub(crate) fn data_told(
    r: &PhaseReport<'_>,
    judge: &str,
    viewer: Viewer,
    disorder: &[PowerId],
) -> ReportData {
    let v = r.variant;
    let map = &v.map;
    let view = View::new(v, r.before.phase, viewer);
    let mut s = Sections::default();
    match (r.result, r.orders) {
        (PhaseResult::Movement(m), PhaseOrders::Movement(orders)) => {
            s.powers = movement_blocks(r, &view, m, orders);
            s.dislodged = dislodged_lines(r, &view, m);
            s.contested = contested_lines(r, &view, m, orders);
        }
        (PhaseResult::Retreat(rr), _) => s.retreats = retreat_lines(r, &view, rr),
        (PhaseResult::Adjustment(ar), PhaseOrders::Adjustment(orders)) => {
            adjustment_lines(v, ar, orders, disorder, &mut s.adjustments);
        }
        (PhaseResult::Turn(t), PhaseOrders::Turn { moves, adjust, .. }) => {
            turn_lines(r, t, moves, &mut s.powers, &mut s.retreats);
            for u in &t.out_of_supply {
                s.adjustments.push(PowerLine {
                    power: map.power(u.power).name.clone(),
                    zine: format!("removes {} (out of supply)", unit_named(v, u)),
                    judge: format!("Removes {}.  (*out of supply*)", unit_long(map, u)),
                });
            }
            adjustment_lines(v, &t.adjustments, adjust, disorder, &mut s.adjustments);
        }
        _ => {}
    }
    // Dislodged units the viewer may not see (1066 rule 5): still counted
    // as the power's, and their retreat is not this reader's next phase,
    // so neither the chart nor the next phase tells that they were there.
    let unseen_dislodged: Vec<&Unit> = r
        .after
        .dislodged
        .iter()
        .map(|(u, _)| u)
        .filter(|u| view.hides_unit(u))
        .collect();
    let next_phase = if r.after.phase.kind == PhaseKind::Retreat
        && !unseen_dislodged.is_empty()
        && unseen_dislodged.len() == r.after.dislodged.len()
    {
        Some(v.calendar.next(r.after.phase))
    } else {
        None
    };
    let (centres, eliminated) = chart(r, &unseen_dislodged, disorder);
    let unowned_ids: Vec<usize> = r
        .after
        .owners
        .iter()
        .enumerate()
        .filter(|(p, o)| o.is_none() && map.provinces()[*p].supply_centre)
        .map(|(p, _)| p)
        .collect();
    let p = r.before.phase;
    let next = next_phase.unwrap_or(r.after.phase);
    ReportData {
        judge: judge.to_string(),
        game: r.game.to_string(),
        variant: v.title.clone(),
        variant_name: v.name.clone(),
        season_year: v.calendar.season_year(p),
        phase: p.kind.word().to_string(),
        phase_label: v.calendar.label(p),
        phase_short: v.calendar.short(p),
        judge_phase: judge_phase(v, p),
        judge_kind: kind_word(p.kind),
        next_kind: kind_word(r.after.phase.kind),
        title: title(r),
        powers: s.powers,
        dislodged: s.dislodged,
        contested: s.contested,
        retreats: s.retreats,
        adjustments: s.adjustments,
        nmr: r.nmr.iter().map(|p| map.power(*p).name.clone()).collect(),
        arrived: units_by_adjective(map, &r.after.state.arrived),
        arrival_lost: units_by_adjective(map, &r.after.state.blocked),
        nominated: nominations(r),
        exchanged: exchanges(r),
        unmade: unmade_exchanges(r),
        chart_before_retreats: r.after.phase.kind == PhaseKind::Retreat
            && centres_change_before_next_move(v, r.after.phase),
        name_width: map
            .power_ids()
            .map(|p| chart_name(v, p).chars().count() + 1)
            .max()
            .unwrap_or(0)
            .clamp(14, 26),
        centres,
        unowned: sorted(unowned_ids.iter().map(|&p| map.provinces()[p].abbr.clone())),
        unowned_long: sorted(unowned_ids.iter().map(|&p| map.provinces()[p].name.clone())),
        chart_note: match v.features.builds.fleets_per_centre {
            n if n > 1
                && r.after
                    .units
                    .iter()
                    .any(|u| u.kind == crate::map::UnitKind::Fleet) =>
            {
                Some(format!(
                    "Units count each fleet; a centre keeps one army or {n} fleets."
                ))
            }
            _ => None,
        },
        eliminated,
        anarchy: crate::rules::anarchy::news(v, r.before, r.after),
        ended: r.ended.clone(),
        next_label: v.calendar.label(next),
        next_short: v.calendar.short(next),
        next_judge_phase: judge_phase(v, next),
        // The deadline of a hidden retreat is the one of the public phase
        // after it (commands::play::what_next), so it is told to all.
        next_deadline: r.next_deadline.clone(),
    }
}

/// Each power's order lines of a movement phase, as `viewer` may see them.
fn movement_blocks(
    r: &PhaseReport<'_>,
    view: &View<'_>,
    m: &MovementResult,
    orders: &[MainOrder],
) -> Vec<PowerBlock> {
    let v = r.variant;
    let map = &v.map;
    // A unit waiting in a sea of its own (1066 rule 5) is written
    // there, to those who may see it at all.
    let seated = crate::rules::waiting::seated(v, r.before, orders);
    // Unit `i` as `viewer` sees it: where its order named it (a
    // unit waiting in a box, `A(SOD)`), or nothing when hidden.
    let seen = |i: usize| -> Option<String> {
        let u = r.before.units.get(i)?;
        let order = given_order(m, orders, i);
        if unit_hidden(r, view, u, order.map(|o| &o.command)) {
            return None;
        }
        let boxed =
            map.province(map.province_of(u.region)).terrain == crate::map::Terrain::OffBoard;
        let at = match order {
            Some(o) if boxed => o.unit.at,
            _ => Place::of_region(map, seated.get(i).unwrap_or(u).region),
        };
        Some(format_unit(map, Some(u.kind), at))
    };
    let mut powers = Vec::new();
    for pw in map.power_ids() {
        let mut lines = Vec::new();
        for (i, u) in r
            .before
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.power == pw)
        {
            let given = given_order(m, orders, i).map(|o| &o.command);
            if unit_hidden(r, view, u, given) {
                continue;
            }
            let seat = seated.get(i).unwrap_or(u);
            unit_lines(r, view, m, orders, i, seat, &seen, &mut lines);
        }
        void_lines(r, view, m, orders, pw, &mut lines);
        if !lines.is_empty() {
            powers.push(PowerBlock {
                name: map.power(pw).name.clone(),
                adjective: map.power(pw).adjective.clone(),
                orders: lines,
            });
        }
    }
    powers
}

/// The order unit `i` of the board carried out, if it had one. Read with
/// `get` throughout: a result and orders that do not match (the orders of
/// a stored phase, a hand-written orders file) must not bring the
/// results, the web page or the pictures down.
fn given_order<'a>(m: &MovementResult, orders: &'a [MainOrder], i: usize) -> Option<&'a MainOrder> {
    m.units
        .get(i)
        .and_then(|ur| ur.order_index())
        .and_then(|k| orders.get(k))
}

/// The line (or, for a fleet landing its army, lines) of unit `i` of the
/// board in a movement phase; `seated` is where it is written when it
/// had no order, and `seen` names other units as the reader may see them.
#[allow(clippy::too_many_arguments)]
fn unit_lines(
    r: &PhaseReport<'_>,
    view: &View<'_>,
    m: &MovementResult,
    orders: &[MainOrder],
    i: usize,
    seated: &Unit,
    seen: &dyn Fn(usize) -> Option<String>,
    lines: &mut Vec<OrderLine>,
) {
    let map = &r.variant.map;
    let (Some(u), Some(ur)) = (r.before.units.get(i), m.units.get(i)) else {
        return;
    };
    let order = given_order(m, orders, i);
    let given = order.map(|o| &o.command);
    let (zine, judge, mut marks, mut jm) = match order {
        Some(o) => {
            // A unit waiting in a box is written where the
            // player named it (`A(SOD)`, 1066 rule 4).
            let boxed =
                map.province(map.province_of(u.region)).terrain == crate::map::Terrain::OffBoard;
            let cmd = AnyCommand::Main(
                UnitRef {
                    kind: Some(u.kind),
                    at: if boxed {
                        o.unit.at
                    } else {
                        Place::of_region(map, u.region)
                    },
                },
                o.command.clone(),
            );
            let (mark, jmark) = if support_masked(view, given)
                && matches!(ur.outcome, Outcome::Supported | Outcome::SupportVoid)
            {
                (None, None)
            } else {
                outcome_marks(&ur.outcome, seen)
            };
            (
                format_order(map, &cmd),
                format_order_long(map, &cmd),
                mark.into_iter().collect::<Vec<_>>(),
                jmark.into_iter().collect::<Vec<_>>(),
            )
        }
        None => (
            format!("{} H", unit_zine(map, seated)),
            format!("{} HOLD", unit_long(map, seated)),
            vec!["no order".to_string()],
            vec!["no order".to_string()],
        ),
    };
    // A defensive army's support is worn down, not cut
    // (1000 AD rule 8): say what it was worth, so players
    // can check the table.
    if let Some(left) = ur.support_left() {
        let full = u.kind.strength();
        if left < full {
            marks.push(format!("support worn down to {left} of {full}"));
            jm.push(format!("support {left} of {full}"));
        } else {
            marks.push(format!("support worth {left}"));
            jm.push(format!("support {left}"));
        }
    }
    if ur.dislodged.is_some() {
        marks.push("dislodged".into());
        jm.push("dislodged".into());
    }
    if ur.destroyed() {
        marks.push("destroyed".into());
        jm.push("destroyed".into());
    }
    // An army that went aboard its fleet (boarded, or
    // ferried and unable to land): the fleet is now an A/F.
    if ur.boarded() && u.kind == crate::map::UnitKind::Army {
        if matches!(given, Some(MainCommand::Board { .. })) {
            marks.push("boarded".into());
            jm.push("boarded".into());
        } else {
            marks.push("aboard its fleet: an A/F".into());
            jm.push("aboard: A/F".into());
        }
    }
    // A fleet that ends the move with an army aboard.
    if u.kind == crate::map::UnitKind::Fleet
        && ur.becomes() == Some(crate::map::UnitKind::ArmyFleet)
        && ur.dislodged.is_none()
    {
        marks.push("now an A/F".into());
        jm.push("now A/F".into());
    }
    let landing = m
        .landing(i)
        .and_then(|l| Some((l.order, orders.get(l.order)?, l.outcome.clone())));
    // The fleet's own line, unless all it did was support
    // its army's landing (printed with the landing).
    if landing
        .as_ref()
        .is_none_or(|(k, _, _)| ur.order_index() != Some(*k))
    {
        lines.push(OrderLine {
            zine,
            judge,
            marks,
            judge_marks: jm,
        });
    }
    if let Some((_, o, outcome)) = landing {
        let cmd = AnyCommand::Main(o.unit, o.command.clone());
        let (mark, jmark) = if outcome == Outcome::Moved {
            (Some("landed".to_string()), Some("landed".to_string()))
        } else {
            let (m, j) = outcome_marks(&outcome, seen);
            // A landing that fails keeps the army aboard.
            (
                m.map(|m| format!("{m}, stays aboard")),
                j.map(|j| format!("{j}, aboard")),
            )
        };
        lines.push(OrderLine {
            zine: format_order(map, &cmd),
            judge: format_order_long(map, &cmd),
            marks: mark.into_iter().collect(),
            judge_marks: jmark.into_iter().collect(),
        });
    }
}

/// `pw`'s orders that were void, for the readers who may see them.
fn void_lines(
    r: &PhaseReport<'_>,
    view: &View<'_>,
    m: &MovementResult,
    orders: &[MainOrder],
    pw: PowerId,
    lines: &mut Vec<OrderLine>,
) {
    let v = r.variant;
    let map = &v.map;
    for (k, o) in orders.iter().enumerate() {
        if o.power != pw {
            continue;
        }
        // With hidden units about, void orders could tell where
        // they are: only their owner and the GM see them.
        if !view.sees_void_orders_of(pw) {
            continue;
        }
        if let Some(why) = m.orders.get(k).copied().flatten()
            && why != Illegal::Replaced
        {
            let cmd = AnyCommand::Main(o.unit, o.command.clone());
            lines.push(OrderLine {
                zine: format_order(map, &cmd),
                judge: format_order_long(map, &cmd),
                marks: vec![format!("void: {}", why.explain(map))],
                judge_marks: vec!["void".into()],
            });
        }
    }
}

/// The dislodged units of a movement phase and where they may go.
fn dislodged_lines(r: &PhaseReport<'_>, view: &View<'_>, m: &MovementResult) -> Vec<DislodgedLine> {
    let v = r.variant;
    let map = &v.map;
    let mut dislodged = Vec::new();
    for (u, d) in m.dislodged(&r.before.units) {
        // A hidden unit dislodged where it was hidden: its owner
        // and the GM are told, nobody else (1066 rule 5).
        if view.hides_unit(&u) {
            continue;
        }
        // The options the next phase offers are the ones stored in
        // it (a variant's rules may add some, Abstraction II's
        // retreat onto one's own fleet at sea): the results must
        // say what the retreat phase will accept.
        let stored = r
            .after
            .dislodged
            .iter()
            .find(|(x, _)| x.power == u.power && x.region == u.region)
            .map(|(_, o)| o.as_slice());
        let options = stored.unwrap_or(&d.retreats);
        dislodged.push(DislodgedLine {
            power: map.power(u.power).name.clone(),
            adjective: map.power(u.power).adjective.clone(),
            unit: unit_zine(map, &u),
            unit_long: unit_long(map, &u),
            kind_word: u.kind.word().to_string(),
            place_long: map.region_name(u.region),
            from: map.province(d.from).abbr.clone(),
            retreats: options.iter().map(|&x| map.region_abbr(x)).collect(),
            retreats_long: options.iter().map(|&x| map.region_name(x)).collect(),
        });
    }
    dislodged
}

/// The provinces left empty by a standoff, as `viewer` may know of them.
fn contested_lines(
    r: &PhaseReport<'_>,
    view: &View<'_>,
    m: &MovementResult,
    orders: &[MainOrder],
) -> Vec<String> {
    let v = r.variant;
    let map = &v.map;
    // A standoff only hidden units took part in (two of Harald's
    // waiting A/Fs ordered into the Wash) is not told to those who
    // may not see them (1066 rule 5); nor one in a place where they
    // may hide, which would tell that it was left empty (and no
    // such reader's unit may retreat there: see rules::waiting).
    let seen_in = |p: crate::map::ProvinceId| {
        r.before.units.iter().zip(&m.units).any(|(u, ur)| {
            matches!(ur.command, crate::adjudicate::Resolved::Move { to, .. }
                if map.province_of(to) == p)
                && !unit_hidden(
                    r,
                    view,
                    u,
                    ur.order_index()
                        .and_then(|k| orders.get(k))
                        .map(|o| &o.command),
                )
        })
    };
    m.contested
        .iter()
        .filter(|&&p| seen_in(p) && !view.hides_place(p))
        .map(|p| map.province(*p).abbr.clone())
        .collect()
}

/// The retreats of a retreat phase, as `viewer` may see them.
fn retreat_lines(r: &PhaseReport<'_>, view: &View<'_>, rr: &RetreatResult) -> Vec<PowerLine> {
    let v = r.variant;
    let map = &v.map;
    let mut retreats = Vec::new();
    for (i, (u, _)) in r.before.dislodged.iter().enumerate() {
        if view.hides_unit(u) {
            continue;
        }
        // One status per dislodged unit; one without (a result that does
        // not match its position) is left out.
        let Some(&status) = rr.dislodged.get(i) else {
            continue;
        };
        let (zine, judge) = match status {
            RetreatStatus::Retreated(to) => (
                format!("{}-{}", unit_zine(map, u), map.region_abbr(to)),
                format!("{} -> {}", unit_long(map, u), map.region_name(to)),
            ),
            RetreatStatus::Disbanded => (
                format!("{} disbanded", unit_zine(map, u)),
                format!("{} DISBAND", unit_long(map, u)),
            ),
            RetreatStatus::NoOrder => (
                format!("{} no order: disbanded", unit_zine(map, u)),
                format!("{} DISBAND.  (*no order*)", unit_long(map, u)),
            ),
            RetreatStatus::Bounced => (
                format!("{} bounced: disbanded", unit_zine(map, u)),
                format!("{} DISBAND.  (*bounce*)", unit_long(map, u)),
            ),
        };
        retreats.push(PowerLine {
            power: map.power(u.power).name.clone(),
            zine,
            judge,
        });
    }
    retreats
}

/// The supply-centre chart after the phase, and the powers it drops.
/// `unseen_dislodged` are counted as their power's units.
fn chart(
    r: &PhaseReport<'_>,
    unseen_dislodged: &[&Unit],
    disorder: &[PowerId],
) -> (Vec<CentreRow>, Vec<String>) {
    let v = r.variant;
    let map = &v.map;
    let b = r.before.centre_counts(map);
    let a = r.after.centre_counts(map);
    let mut centres = Vec::new();
    let mut eliminated = Vec::new();
    for pw in map.power_ids() {
        let i = pw.index();
        let units: i64 = r
            .after
            .units
            .iter()
            .chain(unseen_dislodged.iter().copied())
            .filter(|u| u.power == pw)
            .map(|u| crate::rules::army_fleet::units_in(v, u))
            .sum();
        let had = b[i] > 0 || r.before.units.iter().any(|u| u.power == pw);
        let offboard = r.after.state.reserve.get(pw).copied().unwrap_or(0);
        let bonus = r.after.state.bonus.get(pw).copied().unwrap_or(0);
        let pending = r.after.state.pending.iter().any(|u| u.power == pw);
        if a[i] == 0 && units == 0 && offboard == 0 && !pending {
            if had {
                eliminated.push(map.power(pw).name.clone());
            }
            continue;
        }
        let list: Vec<usize> = r
            .after
            .owners
            .iter()
            .enumerate()
            .filter(|(p, o)| **o == Some(pw) && map.provinces()[*p].supply_centre)
            .map(|(p, _)| p)
            .collect();
        // Builds and removals are owed only on the way into an
        // adjustment phase; elsewhere the difference means nothing yet.
        let owed = if r.after.phase.kind == PhaseKind::Adjustment {
            i64::from(crate::game::step::due(v, r.after)[i])
        } else {
            0
        };
        centres.push(CentreRow {
            power: chart_name(v, pw),
            adjective: map.power(pw).adjective.clone(),
            count: a[i],
            change: a[i] as i64 - b[i] as i64,
            units,
            owed,
            waived: owed > 0 && disorder.contains(&pw),
            offboard,
            bonus,
            beyond: v.centres_beyond_named(&r.after.owners, pw),
            centres: sorted(list.iter().map(|&p| map.provinces()[p].abbr.clone())),
            centres_long: sorted(list.iter().map(|&p| map.provinces()[p].name.clone())),
        });
    }
    (centres, eliminated)
}

/// A power's name in the chart: a dummy power, which nobody plays, is
/// marked so (`Neutral (dummy)`).
fn chart_name(v: &Variant, pw: PowerId) -> String {
    let name = &v.map.power(pw).name;
    if v.unplayed(pw) {
        format!("{name} (dummy)")
    } else {
        name.clone()
    }
}

/// Units named with their power's adjective: `Viking F(NAT)`.
fn units_by_adjective(map: &Map, units: &[Unit]) -> Vec<String> {
    units
        .iter()
        .map(|u| format!("{} {}", map.power(u.power).adjective, unit_zine(map, u)))
        .collect()
}

/// Home centres nominated since the last results: `The Welsh: Hereford`.
fn nominations(r: &PhaseReport<'_>) -> Vec<String> {
    let map = &r.variant.map;
    r.before
        .state
        .nominated
        .iter()
        .flat_map(|(pw, list)| {
            list.iter()
                .map(move |p| format!("{}: {}", map.power(pw).name, map.province(*p).name))
        })
        .collect()
}

/// Centres exchanged at the end of the move.
fn exchanges(r: &PhaseReport<'_>) -> Vec<String> {
    let map = &r.variant.map;
    r.after
        .state
        .exchanged
        .iter()
        .map(|x| {
            format!(
                "{} gave {} to {} for {}",
                map.power(x.from).name,
                abbrs(map, &x.give),
                map.power(x.to).name,
                abbrs(map, &x.take)
            )
        })
        .collect()
}

/// Matched exchanges not made, with why.
fn unmade_exchanges(r: &PhaseReport<'_>) -> Vec<String> {
    let map = &r.variant.map;
    r.after
        .state
        .unmade
        .iter()
        .map(|x| {
            format!(
                "{} giving {} to {} for {}: {}",
                map.power(x.offer.from).name,
                abbrs(map, &x.offer.give),
                map.power(x.offer.to).name,
                abbrs(map, &x.offer.take),
                x.why
            )
        })
        .collect()
}

fn sorted(it: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = it.collect();
    v.sort_by_key(|s| s.to_lowercase());
    v
}

/// Provinces by their abbreviations, `Mar, Dre`.
fn abbrs(map: &Map, ps: &[crate::map::ProvinceId]) -> String {
    ps.iter()
        .map(|p| map.province(*p).abbr.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the centres change hands between `from` and the next move (an
/// adjustment comes first).
fn centres_change_before_next_move(v: &Variant, from: crate::calendar::Phase) -> bool {
    let mut q = v.calendar.next(from);
    for _ in 0..(v.calendar.seasons.len() * 3 + 3) {
        match q.kind {
            PhaseKind::Adjustment => return true,
            PhaseKind::Movement => return false,
            _ => q = v.calendar.next(q),
        }
    }
    false
}

/// The marks printed beside an order (zine, judge). `seen` names unit `i`
/// of the board as the reader may see it, `None` when it is hidden from
/// them (1066 rule 5): a bounce does not say with which hidden unit.
fn outcome_marks(
    o: &Outcome,
    seen: &dyn Fn(usize) -> Option<String>,
) -> (Option<String>, Option<String>) {
    match o {
        Outcome::Held
        | Outcome::Moved
        | Outcome::Supported
        | Outcome::Convoyed
        | Outcome::Destroying => (None, None),
        // As the zine GM writes it: "bounced with A(Mun)".
        Outcome::Bounced { with } => {
            let who: Vec<String> = with.iter().filter_map(seen).collect();
            let zine = if who.is_empty() {
                "bounced".to_string()
            } else {
                format!("bounced with {}", who.join(", "))
            };
            (Some(zine), Some("bounce".into()))
        }
        Outcome::NoConvoy => (Some("no convoy".into()), Some("no convoy".into())),
        // Nor by which hidden unit a support was cut.
        Outcome::Cut(by) => (
            // Named as the reader saw it ordered: a waiting A/F that cut
            // from the Wash is `A/F(WAS)`, not its box (1066 rule 5).
            Some(match seen(*by) {
                Some(name) => format!("cut by {name}"),
                None => "cut".to_string(),
            }),
            Some("cut".into()),
        ),
        Outcome::SupportVoid | Outcome::ConvoyVoid => (Some("void".into()), Some("void".into())),
        Outcome::ConvoyFailed => (Some("convoy failed".into()), Some("disrupted".into())),
    }
}

/// The builds and removals of an adjustment, a line each, power by power;
/// removals the judge chose say whether the power ordered none or too few;
/// builds a power in civil disorder (`disorder`) did not use were waived
/// for it, and say so.
fn adjustment_lines(
    v: &Variant,
    ar: &crate::adjudicate::AdjustResult,
    orders: &[crate::orders::AdjustOrder],
    disorder: &[PowerId],
    adjustments: &mut Vec<PowerLine>,
) {
    let map = &v.map;
    for pw in map.power_ids() {
        let name = map.power(pw).name.clone();
        let mut push = |zine: String, judge: String| {
            adjustments.push(PowerLine {
                power: name.clone(),
                zine,
                judge,
            })
        };
        for (k, o) in orders.iter().enumerate().filter(|(_, o)| o.power == pw) {
            // One verdict per order given; an order without one (a result
            // that does not match its orders) is left out, not a panic.
            let Some(&status) = ar.orders.get(k) else {
                continue;
            };
            match status {
                AdjustStatus::Built(u) if ar.pending.contains(&u) => {
                    let when = v
                        .reserve_arrival(pw)
                        .and_then(|s| v.calendar.seasons.get(usize::from(s)))
                        .map_or("later".to_string(), |s| {
                            format!("before the {} moves", s.name)
                        });
                    push(
                        format!("builds {}, to arrive {when}", unit_zine(map, &u)),
                        format!("Builds {}, to arrive {when}", unit_long(map, &u)),
                    )
                }
                AdjustStatus::Built(u) => push(
                    format!("builds {}", unit_zine(map, &u)),
                    format!("Builds {}", unit_long(map, &u)),
                ),
                AdjustStatus::Converted(_) => {
                    let cmd = AnyCommand::Adjust(o.command);
                    push(format_order(map, &cmd), format_order_long(map, &cmd))
                }
                AdjustStatus::Removed(u) => push(
                    format!("removes {}", unit_named(v, &u)),
                    format!("Removes {}", unit_long(map, &u)),
                ),
                AdjustStatus::Waived => push("waives a build".into(), "Build waived".into()),
                AdjustStatus::Illegal(why) => {
                    let cmd = AnyCommand::Adjust(o.command);
                    push(
                        format!("{} void: {why}", format_order(map, &cmd)),
                        format!("{}.  (*void*)", format_order_long(map, &cmd)),
                    )
                }
            }
        }
        // The judge's choice, said as what the power ordered: whether its
        // seat is in civil disorder is the seat's affair (the results'
        // closing note says so), not the removal's: a playing power that
        // missed one deadline under NMR HOLD is not in it, and one nobody
        // plays never "ordered too few".
        let none_ordered = !orders.iter().any(|o| o.power == pw);
        for u in ar.civil_disorder.iter().filter(|u| u.power == pw) {
            let why = if none_ordered {
                "no removals ordered"
            } else {
                "too few removals ordered"
            };
            push(
                format!("removes {} ({why}: the judge's choice)", unit_named(v, u)),
                format!("Removes {}.  (*not ordered*)", unit_long(map, u)),
            );
        }
        if let Some(&n) = ar.unused_builds.get(pw.index())
            && n > 0
        {
            if disorder.contains(&pw) {
                push(
                    format!("{} waived (in civil disorder)", plural(n, "build", None)),
                    format!("{} waived.  (*civil disorder*)", plural(n, "build", None)),
                );
            } else {
                push(
                    format!("{} not used", plural(n, "build", None)),
                    format!("{} unused", plural(n, "build", None)),
                );
            }
        }
    }
}

/// The marks of order `k` of impulse `n` of a yearly turn: what became
/// of it, and a void support says why (1700 AD II rule 4's impulses).
fn impulse_marks(
    v: &Variant,
    rounds: &[crate::rules::impulses::judge::Round],
    n: usize,
    k: usize,
) -> (Vec<String>, Vec<String>) {
    let (mut marks, mut jm) = (Vec::new(), Vec::new());
    let Some((round, (o, _))) = rounds.get(n).and_then(|r| Some((r, r.orders.get(k)?))) else {
        return (marks, jm);
    };
    if let Some(why) = round.result.orders.get(k).copied().flatten() {
        // A support of a unit gone in an earlier impulse says where it
        // went.
        let gone = (why == Illegal::NoSuchUnit)
            .then(|| void_support_why(v, rounds, n, &o.command))
            .flatten();
        marks.push(format!("void: {}", gone.unwrap_or_else(|| why.to_string())));
        jm.push("void".to_string());
    } else if let Some(u) = round
        .result
        .units
        .iter()
        .find(|u| u.order_index() == Some(k))
    {
        let (m, j) = outcome_marks(&u.outcome, &|i| {
            round.board.get(i).map(|u| unit_in_outcome(&v.map, u))
        });
        // A void support says what the unit it was for did instead.
        let why = matches!(u.outcome, Outcome::SupportVoid)
            .then(|| void_support_why(v, rounds, n, &o.command))
            .flatten();
        marks.extend(m.map(|m| match &why {
            Some(why) => format!("{m}: {why}"),
            None => m,
        }));
        jm.extend(j);
        if u.dislodged.is_some() {
            marks.push("dislodged".into());
            jm.push("dislodged".into());
        }
    }
    (marks, jm)
}

/// Why a support of impulse `n` of a yearly turn is void (1700 AD II rule
/// 4's impulses): what the unit it names did instead, in that impulse or
/// an earlier one: `A(Smo) moved to Psk in impulse 1`. `None` when the
/// rounds do not show it.
fn void_support_why(
    v: &Variant,
    rounds: &[crate::rules::impulses::judge::Round],
    n: usize,
    command: &crate::orders::MainCommand,
) -> Option<String> {
    use crate::adjudicate::movement::Resolved;
    use crate::orders::{MainCommand, Step};
    let map = &v.map;
    let (target, into) = match command {
        MainCommand::SupportMove { unit, to } => (*unit, Some(to.province)),
        MainCommand::SupportHold { unit } => (*unit, None),
        MainCommand::Impulses { steps, .. } => match steps.last()? {
            Step::SupportMove(unit, to) => (*unit, Some(to.province)),
            Step::SupportHold(unit) => (*unit, None),
            _ => return None,
        },
        _ => return None,
    };
    let at = |round: &crate::rules::impulses::judge::Round| {
        round
            .board
            .iter()
            .position(|u| map.province_of(u.region) == target.at.province)
    };
    // In this impulse: it went elsewhere, or did not move.
    if let Some(i) = rounds
        .get(n)
        .and_then(|r| at(r).map(|i| (r, i)))
        .map(|(r, i)| {
            let who = unit_named(v, &r.board[i]);
            let went = r
                .result
                .units
                .get(i)
                .and_then(|x| match (x.command, &x.outcome) {
                    (Resolved::Move { to, .. }, Outcome::Moved) => Some((to, "moved")),
                    (Resolved::Move { to, .. }, _) => Some((to, "tried to move")),
                    _ => None,
                });
            match (went, into) {
                (Some((to, how)), _) => format!(
                    "{who} {how} to {} in impulse {}",
                    map.region_abbr(to),
                    n + 1
                ),
                (None, Some(to)) => format!(
                    "{who} does not move to {} in impulse {}",
                    map.province(to).abbr,
                    n + 1
                ),
                (None, None) => format!("{who} is not where it is supported in impulse {}", n + 1),
            }
        })
    {
        return Some(i);
    }
    // Gone in an earlier impulse: moved away or dislodged.
    for m in (0..n.min(rounds.len())).rev() {
        let r = &rounds[m];
        let Some(i) = at(r) else { continue };
        let who = unit_named(v, &r.board[i]);
        let x = r.result.units.get(i)?;
        if x.dislodged.is_some() {
            return Some(format!("{who} was dislodged in impulse {}", m + 1));
        }
        if let (Resolved::Move { to, .. }, Outcome::Moved) = (x.command, &x.outcome) {
            return Some(format!(
                "{who} moved to {} in impulse {}",
                map.region_abbr(to),
                m + 1
            ));
        }
    }
    Some(format!(
        "no unit in {}",
        map.province(target.at.province).abbr
    ))
}

/// A yearly turn's orders, impulse by impulse, land and sea, with what
/// became of each; refused orders; and the retreats.
fn turn_lines(
    r: &PhaseReport<'_>,
    t: &crate::game::step::TurnResult,
    moves: &[crate::orders::MainOrder],
    powers: &mut Vec<PowerBlock>,
    retreats: &mut Vec<PowerLine>,
) {
    let map = &r.variant.map;
    // Sheet orders judged in some round (the rest were refused outright).
    let mut judged: Vec<usize> = Vec::new();
    for pw in map.power_ids() {
        let mut lines = Vec::new();
        for (layer, rounds) in [("", &t.turn.rounds), ("sea ", &t.turn.sea_rounds)] {
            for (n, round) in rounds.iter().enumerate() {
                for (k, (o, _)) in round.orders.iter().enumerate() {
                    if o.power != pw {
                        continue;
                    }
                    let cmd = AnyCommand::Main(o.unit, o.command.clone());
                    let (marks, jm) = impulse_marks(r.variant, rounds, n, k);
                    let x2 = if round.doubled.contains(&k) {
                        " (x2)"
                    } else {
                        ""
                    };
                    let n_of = stack_mark(&round.stacked, k);
                    lines.push(OrderLine {
                        zine: format!(
                            "{layer}{}: {n_of}{}{x2}",
                            n + 1,
                            named(r.variant, &round.board, format_order(map, &cmd))
                        ),
                        judge: format!(
                            "{layer}impulse {}: {}{}{x2}",
                            n + 1,
                            stack_mark_long(&n_of),
                            format_order_long(map, &cmd)
                        ),
                        marks,
                        judge_marks: jm,
                    });
                    judged.push(round.orders[k].1);
                }
                // Impulses of units that stand for the rest of the turn.
                for (k, (o, i)) in round
                    .voided
                    .iter()
                    .enumerate()
                    .filter(|(_, (o, _))| o.power == pw)
                {
                    let cmd = AnyCommand::Main(o.unit, o.command.clone());
                    let n_of = stack_mark(&round.stacked_voided, k);
                    lines.push(OrderLine {
                        zine: format!(
                            "{layer}{}: {n_of}{}",
                            n + 1,
                            named(r.variant, &round.board, format_order(map, &cmd))
                        ),
                        judge: format!(
                            "{layer}impulse {}: {}{}",
                            n + 1,
                            stack_mark_long(&n_of),
                            format_order_long(map, &cmd)
                        ),
                        marks: vec![format!("void: {}", crate::adjudicate::Illegal::Stands)],
                        judge_marks: vec!["void".into()],
                    });
                    judged.push(*i);
                }
            }
        }
        for (i, o) in moves.iter().enumerate().filter(|(_, o)| o.power == pw) {
            if judged.contains(&i) {
                continue;
            }
            if let Some(why) = t.turn.orders.get(i).copied().flatten() {
                let cmd = AnyCommand::Main(o.unit, o.command.clone());
                lines.push(OrderLine {
                    zine: named(r.variant, &r.before.units, format_order(map, &cmd)),
                    judge: format_order_long(map, &cmd),
                    marks: vec![format!("void: {why}")],
                    judge_marks: vec!["void".into()],
                });
            }
        }
        if !lines.is_empty() {
            powers.push(PowerBlock {
                name: map.power(pw).name.clone(),
                adjective: map.power(pw).adjective.clone(),
                orders: lines,
            });
        }
    }
    for round in t.turn.rounds.iter().chain(&t.turn.sea_rounds) {
        for (u, to) in &round.retreats {
            let who = unit_named(r.variant, u);
            // Why it went elsewhere than ordered, or nowhere.
            let note = round
                .notes
                .iter()
                .find(|(x, _)| x == u)
                .map_or(String::new(), |(_, n)| format!(" ({})", n.text(map)));
            let (zine, judge) = match to {
                Some(region) => (
                    format!("{who}-{}{note}", map.region_abbr(*region)),
                    format!("{} -> {}", unit_long(map, u), map.region_abbr(*region)),
                ),
                None => (
                    format!("{who} disbanded{note}"),
                    format!("{} DISBAND", unit_long(map, u)),
                ),
            };
            retreats.push(PowerLine {
                power: map.power(u.power).name.clone(),
                zine,
                judge,
            });
        }
    }
    // Rule 8: fleets on a coast no longer friendly at the turn's end.
    for (u, to) in &t.turn.forced_out {
        let why = "the coast is no longer friendly";
        let (zine, judge) = match to {
            Some(region) => (
                format!("{}-{} ({why})", unit_zine(map, u), map.region_abbr(*region)),
                format!("{} -> {}", unit_long(map, u), map.region_abbr(*region)),
            ),
            None => (
                // Retreated "as a land unit would be" (rule 8): with no
                // free place nearer a centre of its own, disbanded (rule 5).
                format!(
                    "{} disbanded ({why}; no free place nearer a centre of its own)",
                    unit_zine(map, u)
                ),
                format!("{} DISBAND", unit_long(map, u)),
            ),
        };
        retreats.push(PowerLine {
            power: map.power(u.power).name.clone(),
            zine,
            judge,
        });
    }
}

/// A unit in zine notation, a leader by his name (see [`named`]).
fn unit_named(v: &Variant, u: &Unit) -> String {
    named(v, std::slice::from_ref(u), unit_zine(&v.map, u))
}

/// `text` with each leader of `units` written by his name where the rule
/// text gives one, in place of the `L` (1700 AD II rule 6 writes
/// `CXII(Got)`; the results print `Charles XII of Sweden(Got)`).
pub(crate) fn named(v: &Variant, units: &[Unit], mut text: String) -> String {
    for u in units
        .iter()
        .filter(|u| u.kind == crate::map::UnitKind::Leader)
    {
        if let Some(name) = v.leader_of(u.power) {
            let abbr = &v.map.province(v.map.province_of(u.region)).abbr;
            text = text.replace(&format!("L({abbr})"), &format!("{name}({abbr})"));
        }
    }
    text
}

/// The count before a stack's order, as rule 6 of 1700 AD II writes it
/// (`2F(Sca)-COS`); nothing for a single unit.
fn stack_mark(stacked: &[(usize, u32)], k: usize) -> String {
    stacked
        .iter()
        .find(|(i, _)| *i == k)
        .map_or(String::new(), |(_, n)| n.to_string())
}

/// The count before a stack's order in the judge's words: `2 x Fleet
/// Scania -> Coast of Sweden`.
fn stack_mark_long(n_of: &str) -> String {
    if n_of.is_empty() {
        String::new()
    } else {
        format!("{n_of} x ")
    }
}

/// `n` things: `1 build`, `3 builds`; `many` is the plural when it is not
/// `one` with an s. Mail never says "build(s)".
pub(crate) fn plural(n: impl Into<i64>, one: &str, many: Option<&str>) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {one}")
    } else {
        match many {
            Some(m) => format!("{n} {m}"),
            None => format!("{n} {one}s"),
        }
    }
}

/// A phase kind in the judge layout's words.
fn kind_word(k: PhaseKind) -> String {
    match k {
        PhaseKind::Movement => "Movement",
        PhaseKind::Retreat => "Retreat",
        PhaseKind::Adjustment => "Adjustment",
        PhaseKind::Placement => "Placement",
    }
    .to_string()
}

/// Render a played phase with the built-in zine template.
pub fn render(r: &PhaseReport<'_>) -> String {
    templates::Templates::builtin()
        .results(crate::game::record::Style::Zine, &data(r, "zinejudge"))
        .unwrap_or_else(|e| format!("(the results could not be laid out: {e})\n"))
}

/// Wrap `text` at `width` characters, continuing lines with `indent`.
/// Spacing within a line is kept as written (the columns of a chart), only
/// the spaces at a break are dropped.
pub(crate) fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    let mut rest = text.trim_end();
    let mut first = true;
    while !rest.is_empty() {
        // The next word and the spaces before it.
        let gap = rest.len() - rest.trim_start().len();
        let end = rest[gap..].find(' ').map_or(rest.len(), |i| gap + i);
        let (spaces, word) = (&rest[..gap], &rest[gap..end]);
        rest = &rest[end..];
        let at_start = line.is_empty() || line == indent;
        if first && at_start {
            line.push_str(spaces);
            line.push_str(word);
            first = false;
        } else if at_start {
            line.push_str(word);
        } else if line.chars().count() + spaces.chars().count() + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = format!("{indent}{word}");
        } else {
            line.push_str(spaces);
            line.push_str(word);
        }
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Fit every line of `text` in 72 columns and replace tabs. A long line
/// goes on at its own indentation, so a wrapped paragraph reads as one
/// (continuations indented further looked like new lines of a list).
pub(crate) fn fit72(text: &str) -> String {
    fit_lines(text, "")
}

/// Fit every line of `text` in 72 columns, each on its own: a line that
/// fits is kept as it is (trailing spaces dropped, but for the signature
/// separator `-- `, whose space RFC 3676 makes part of it: mail readers
/// know a signature by it), a longer one is broken at spaces and goes on
/// at its own indentation plus `more`. Lines are never re-flowed into
/// their neighbours; tabs become four spaces.
pub(crate) fn fit_lines(text: &str, more: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.replace('\t', "    ").lines() {
        if line == "-- " {
            out.push_str(line);
            out.push('\n');
        } else if line.chars().count() <= 72 {
            out.push_str(line.trim_end());
            out.push('\n');
        } else {
            let lead: String = line.chars().take_while(|c| *c == ' ').collect();
            out.push_str(&wrap(line, 72, &format!("{lead}{more}")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A long line goes on at its own indentation: no extra spaces that
    /// would make the continuation look like a new item of a list.
    #[test]
    fn a_wrapped_line_goes_on_at_its_own_indentation() {
        let long = format!("  {}", "word ".repeat(30));
        let out = fit72(&long);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() > 1, "{out}");
        for l in &lines {
            assert!(l.chars().count() <= 72, "{l:?}");
            assert!(l.starts_with("  word"), "{l:?}");
            assert!(!l.starts_with("   "), "{l:?}");
        }
        // Spacing within a line that fits is kept (a chart's columns).
        assert_eq!(fit72("Austria    3   +1\n"), "Austria    3   +1\n");
        // The signature separator keeps its space (RFC 3676); other
        // trailing spaces go.
        assert_eq!(fit72("Bye.  \n-- \nzinejudge\n"), "Bye.\n-- \nzinejudge\n");
    }

    #[test]
    fn plurals_are_said_in_words() {
        assert_eq!(plural(1, "build", None), "1 build");
        assert_eq!(plural(2, "build", None), "2 builds");
        assert_eq!(plural(0, "army", Some("armies")), "0 armies");
    }
}
