//! Playing one phase: orders in, results and the next position out.
//!
//! Between phases the calendar decides what comes next, with two rules of
//! the judge: a retreat phase in which nobody was dislodged, and an
//! adjustment phase in which nobody owes or is owed a unit, are skipped
//! (nobody has a choice to make); and centres change hands on the way into
//! an adjustment phase, when the units standing on them take them.

use crate::adjudicate::adjust::{adjudicate_adjustments_with, adjustments_due_with};
use crate::adjudicate::movement::adjudicate_movement_in;
use crate::adjudicate::{
    AdjustResult, MovementResult, RetreatResult, RetreatSituation, adjudicate_retreats,
};
use crate::game::Position;
use crate::orders::{AdjustOrder, MainOrder, RetreatOrder};
use crate::rules::feature::{Feature, Sheet, Steps};
use crate::variant::features::Ruled;
use crate::variant::{PhaseKind, Variant};

/// A yearly turn of 1700 AD II, whose home is its feature.
pub use crate::rules::impulses::TurnResult;

/// The result of any phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhaseResult {
    /// A movement phase.
    Movement(MovementResult),
    /// A retreat phase.
    Retreat(RetreatResult),
    /// An adjustment (or placement) phase.
    Adjustment(AdjustResult),
    /// A whole yearly turn of impulses (1700 AD II).
    Turn(Box<TurnResult>),
}

/// Orders for a phase, of the kind the phase takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhaseOrders {
    /// Movement orders.
    Movement(Vec<MainOrder>),
    /// Retreat orders.
    Retreat(Vec<RetreatOrder>),
    /// Adjustment orders.
    Adjustment(Vec<AdjustOrder>),
    /// A yearly order sheet of 1700 AD II: moves, retreats, builds.
    Turn {
        /// Moves.
        moves: Vec<MainOrder>,
        /// Retreats, used where they fit.
        retreats: Vec<RetreatOrder>,
        /// Builds and removals.
        adjust: Vec<AdjustOrder>,
    },
}

/// Adjudicate the phase of `pos` with `orders` (orders of another kind are
/// ignored: the phase is played as if none were given) and return the
/// result with the position at the start of the next phase.
///
/// The standard game's steps are here; each rule feature adds its own at
/// the hooks of `rules::feature::Feature`, in rank order, and this loops
/// over them without naming any.
pub fn play(v: &Variant, pos: &Position, orders: &PhaseOrders) -> (PhaseResult, Position) {
    match pos.phase.kind {
        PhaseKind::Movement => {
            if let Some((t, after)) = play_whole(v, pos, orders) {
                return (PhaseResult::Turn(t), after);
            }
            let empty = Vec::new();
            let o = match orders {
                PhaseOrders::Movement(o) => o,
                _ => &empty,
            };
            let given = o;
            let heard = heard(v, pos, o);
            let o = heard.as_deref().unwrap_or(o);
            let mut r = judge_movement(v, pos, o);
            let mut next = Position {
                phase: pos.phase,
                units: r.units_after(&pos.units),
                owners: pos.owners.clone(),
                dislodged: r
                    .dislodged(&pos.units)
                    .map(|(u, d)| (u, d.retreats.clone()))
                    .collect(),
                state: pos.state.clone(),
            };
            // What the steps after the move tell the results is news
            // that must outlive the way to the next phase.
            next.state.clear_news();
            for f in hooks(v) {
                f.after_move(v, pos, o, &r, &mut next);
            }
            let news = next.state.take_news();
            let mut after = advance(v, next);
            after.state.add_news(news);
            if heard.is_some() {
                r = told_for_given(r, given, |p| silenced(v, pos, p));
            }
            (PhaseResult::Movement(r), after)
        }
        PhaseKind::Retreat => {
            let empty = Vec::new();
            let o = match orders {
                PhaseOrders::Retreat(o) => o,
                _ => &empty,
            };
            let situation = RetreatSituation {
                units: pos.units.clone(),
                dislodged: pos.dislodged.clone(),
            };
            let r = adjudicate_retreats(&v.map, &situation, o);
            let mut units = r.units_after.clone();
            for f in hooks(v) {
                f.after_retreat(v, &mut units);
            }
            let next = Position {
                phase: pos.phase,
                units,
                owners: pos.owners.clone(),
                dislodged: Vec::new(),
                state: pos.state.clone(),
            };
            (PhaseResult::Retreat(r), advance(v, next))
        }
        PhaseKind::Adjustment | PhaseKind::Placement => {
            let empty = Vec::new();
            let o = match orders {
                PhaseOrders::Adjustment(o) => o,
                _ => &empty,
            };
            let mut heard: Vec<AdjustOrder> = o
                .iter()
                .filter(|x| !silenced(v, pos, x.power))
                .copied()
                .collect();
            let own = heard.len();
            heard.extend(builds_for_silent(v, pos));
            let mut r = judge_adjustments(v, pos, &heard);
            if own < o.len() {
                r.orders = adjust_told_for_given(&r.orders, own, o, |p| silenced(v, pos, p));
            }
            let mut state = pos.state.clone();
            for f in hooks(v) {
                f.after_adjustment(&r, &mut state);
            }
            let next = Position {
                phase: pos.phase,
                units: r.units_after.clone(),
                owners: pos.owners.clone(),
                dislodged: Vec::new(),
                state,
            };
            (PhaseResult::Adjustment(r), advance(v, next))
        }
    }
}

/// The variant's rule features, in the order their steps run: the one
/// place the phase step reads them.
fn hooks(v: &Variant) -> impl Iterator<Item = &dyn Feature> {
    v.features.plugins.iter()
}

/// Whether `power` gives no orders in `pos` (its units hold, it builds
/// nothing): a feature silences it.
fn silenced(v: &Variant, pos: &Position, power: crate::map::PowerId) -> bool {
    hooks(v).any(|f| f.silenced(pos, power))
}

/// The builds the judge makes for the silenced powers whose feature says
/// so (a dummy power under DPjudge's `CD_BUILDS`): as many as each is
/// owed, in its build sites in the map's order, an army where one may
/// stand and a fleet otherwise. The judge chooses where DPjudge drew
/// lots, so that a phase played twice gives the same result.
fn builds_for_silent(v: &Variant, pos: &Position) -> Vec<AdjustOrder> {
    use crate::map::UnitKind;
    use crate::orders::{AdjustCommand, Place};
    let owed = due(v, pos);
    let mut out = Vec::new();
    for power in v.map.power_ids() {
        let mut left = owed.get(power.index()).copied().unwrap_or(0);
        if left <= 0 || !silenced(v, pos, power) || !hooks(v).any(|f| f.builds_for_silent(power)) {
            continue;
        }
        let mut used = Vec::new();
        for (i, region) in v.map.regions().iter().enumerate() {
            if left == 0 {
                break;
            }
            if used.contains(&region.province) {
                continue;
            }
            let Ok(r) = u16::try_from(i).map(crate::map::RegionId) else {
                break;
            };
            for kind in [UnitKind::Army, UnitKind::Fleet] {
                let build = AdjustOrder {
                    power,
                    command: AdjustCommand::Build {
                        kind: Some(kind),
                        at: Place::of_region(&v.map, r),
                    },
                };
                if build_refusals(v, pos, &[build]).first() == Some(&None) {
                    out.push(build);
                    used.push(region.province);
                    left -= 1;
                    break;
                }
            }
        }
    }
    out
}

/// Whether the variant's movement phases are played from yearly order
/// sheets that hold the retreats and builds too (1700 AD II rule 3): the
/// sheet's retreats and builds are then orders of the movement phase.
pub fn yearly_sheets(v: &Variant) -> bool {
    hooks(v).any(|f| f.yearly_sheets())
}

/// The movement orders of the powers that give orders, where a feature
/// silences some (1000 AD rule 13: a power in anarchy; its units hold);
/// `None`: every order is heard.
fn heard(v: &Variant, pos: &Position, o: &[MainOrder]) -> Option<Vec<MainOrder>> {
    let silenced = |p| silenced(v, pos, p);
    if !o.iter().any(|x| silenced(x.power)) {
        return None;
    }
    Some(o.iter().filter(|x| !silenced(x.power)).cloned().collect())
}

/// The result of a movement judged with the heard orders only (see
/// [`heard`]), told for every order given: one verdict per order given,
/// a silenced power's `Illegal::Silenced`, and every order index the
/// result holds (a unit's order, a landing's) pointing into the orders
/// given. The results, the pictures and the offline tool read the result
/// beside the orders given; told against the heard ones they would pin
/// one order's outcome on another, or look past the verdicts' end.
fn told_for_given(
    mut r: MovementResult,
    given: &[MainOrder],
    silenced: impl Fn(crate::map::PowerId) -> bool,
) -> MovementResult {
    use crate::adjudicate::Illegal;
    use crate::adjudicate::movement::OrderIndex;
    let kept: Vec<usize> = (0..given.len())
        .filter(|&k| !silenced(given[k].power))
        .collect();
    let mut verdicts = vec![Some(Illegal::Silenced); given.len()];
    for (h, &k) in kept.iter().enumerate() {
        verdicts[k] = r.orders.get(h).copied().flatten();
    }
    r.orders = verdicts;
    for u in &mut r.units {
        u.order = u
            .order_index()
            .and_then(|h| kept.get(h))
            .and_then(|&k| OrderIndex::new(k));
    }
    r.landings.retain_mut(|(_, l)| match kept.get(l.order) {
        Some(&k) => {
            l.order = k;
            true
        }
        None => false,
    });
    r
}

/// [`told_for_given`] for an adjustment: the verdicts on the heard orders
/// (the first `own` of `verdicts`; the builds the judge made for silenced
/// powers come after them) told for every order given, a silenced power's
/// refused with `Illegal::Silenced`; the judge's own builds stay last.
fn adjust_told_for_given(
    verdicts: &[crate::adjudicate::AdjustStatus],
    own: usize,
    given: &[AdjustOrder],
    silenced: impl Fn(crate::map::PowerId) -> bool,
) -> Vec<crate::adjudicate::AdjustStatus> {
    use crate::adjudicate::{AdjustStatus, Illegal};
    let mut heard = verdicts.iter().take(own);
    let mut out: Vec<AdjustStatus> = given
        .iter()
        .map(|o| {
            let judged = if silenced(o.power) {
                None
            } else {
                heard.next().copied()
            };
            judged.unwrap_or(AdjustStatus::Illegal(Illegal::Silenced))
        })
        .collect();
    out.extend(verdicts.iter().skip(own).copied());
    out
}

/// The movement phase of `pos` played whole by a feature whose rule
/// replaces it (1700 AD II's yearly turn), if the variant has one.
fn play_whole(
    v: &Variant,
    pos: &Position,
    orders: &PhaseOrders,
) -> Option<(Box<TurnResult>, Position)> {
    let sheet = match orders {
        PhaseOrders::Turn {
            moves,
            retreats,
            adjust,
        } => Sheet {
            moves,
            retreats,
            adjust,
        },
        PhaseOrders::Movement(m) => Sheet {
            moves: m,
            retreats: &[],
            adjust: &[],
        },
        _ => Sheet {
            moves: &[],
            retreats: &[],
            adjust: &[],
        },
    };
    let q = ruled(v, pos);
    v.features
        .plugins
        .iter()
        .find_map(|f| f.play_movement(v, &GameSteps(v), &q, pos, sheet))
}

/// The game's own steps, for a feature that plays a whole phase.
struct GameSteps<'a>(&'a Variant);

impl Steps for GameSteps<'_> {
    fn take_centres(&self, pos: &mut Position) {
        take_centres(self.0, pos);
    }
    fn adjustments(&self, pos: &Position, orders: &[AdjustOrder]) -> AdjustResult {
        judge_adjustments(self.0, pos, orders)
    }
    fn advance(&self, pos: Position) -> Position {
        advance(self.0, pos)
    }
}

/// The movement judge with the variant's features, in `pos`'s phase: the
/// first feature with a judge of its own for these orders, else the
/// standard judge.
pub fn judge_movement(v: &Variant, pos: &Position, orders: &[MainOrder]) -> MovementResult {
    let q = ruled(v, pos);
    if let Some(r) = v
        .features
        .plugins
        .iter()
        .find_map(|f| f.judge_movement(v, &q, pos, orders))
    {
        return r;
    }
    if v.map.has_owner_borders() {
        // Borders open only to some centres' owners: shut to the powers
        // that do not own them now.
        let prepared = crate::adjudicate::movement::Prepared {
            closed: v.map.closed_borders(&pos.owners),
            ..Default::default()
        };
        return crate::adjudicate::movement::adjudicate_movement_prepared(
            &v.map,
            &v.rules,
            &q,
            Some(pos.phase),
            &pos.units,
            orders,
            &prepared,
        );
    }
    adjudicate_movement_in(&v.map, &v.rules, &q, Some(pos.phase), &pos.units, orders)
}

/// Why each of the movement orders would be refused (`None`: it stands),
/// by the judge the variant plays: the order replies use it.
pub fn move_verdicts(
    v: &Variant,
    pos: &Position,
    orders: &[MainOrder],
) -> Vec<Option<crate::adjudicate::Illegal>> {
    if let Some((t, _)) = play_whole(v, pos, &PhaseOrders::Movement(orders.to_vec())) {
        return t.turn.orders;
    }
    judge_movement(v, pos, orders).orders
}

/// The adjustment judge with the variant's build rules and the game's
/// state.
pub fn judge_adjustments(v: &Variant, pos: &Position, orders: &[AdjustOrder]) -> AdjustResult {
    adjudicate_adjustments_with(
        &v.map,
        &v.rules,
        &ruled(v, pos),
        &pos.units,
        &pos.owners,
        orders,
    )
}

/// Why each build in `orders` would be refused in `pos`, builds due or
/// not: what the reply to a yearly order sheet warns of (1700 AD II).
pub fn build_refusals(
    v: &Variant,
    pos: &Position,
    orders: &[AdjustOrder],
) -> Vec<Option<crate::adjudicate::Illegal>> {
    crate::adjudicate::adjust::build_refusals(
        &v.map,
        &v.rules,
        &ruled(v, pos),
        &pos.units,
        &pos.owners,
        orders,
    )
}

/// Builds (positive) or removals (negative) due per power in `pos`.
pub fn due(v: &Variant, pos: &Position) -> Vec<i32> {
    adjustments_due_with(&v.map, &ruled(v, pos), &pos.units, &pos.owners)
}

/// The variant's rules in `pos`: what answers the judges' questions.
fn ruled<'a>(v: &'a Variant, pos: &'a Position) -> Ruled<'a> {
    Ruled {
        features: &v.features,
        state: &pos.state,
        phase: pos.phase,
        owners: &pos.owners,
    }
}

/// Move `pos` (whose phase is the one just played) on to the next phase in
/// which somebody has a choice.
pub fn advance(v: &Variant, mut pos: Position) -> Position {
    // What arrived on the way into the phase just played is old news.
    pos.state.clear_news();
    let mut q = v.calendar.next(pos.phase);
    // The placement opens the game: the rest of its season is skipped
    // (units kept back are built in a later build season).
    if pos.phase.kind == PhaseKind::Placement {
        while q.season == pos.phase.season && q.year == pos.phase.year {
            q = v.calendar.next(q);
        }
    }
    // A calendar of any length comes round within a few years.
    for _ in 0..(v.calendar.seasons.len() * 4 + 8) {
        match q.kind {
            PhaseKind::Retreat if pos.dislodged.is_empty() => {}
            PhaseKind::Retreat => break,
            // Placement happens once, at the start.
            PhaseKind::Placement => {}
            PhaseKind::Adjustment => {
                take_centres(v, &mut pos);
                for f in hooks(v) {
                    f.before_adjustment(v, &mut pos);
                }
                if due(v, &pos).iter().any(|&d| d != 0) {
                    break;
                }
                // Skipped: what a feature keeps for it is spent all the
                // same.
                for f in hooks(v) {
                    f.adjustment_skipped(&mut pos.state);
                }
            }
            _ => break,
        }
        q = v.calendar.next(q);
    }
    pos.phase = q;
    if q.kind == PhaseKind::Movement {
        for f in hooks(v) {
            f.before_moves(v, &mut pos);
        }
    }
    pos
}

/// Each supply centre with a unit on it now belongs to the unit's power;
/// the features are told of each centre taken, then that the centres
/// have changed hands.
pub fn take_centres(v: &Variant, pos: &mut Position) {
    // Where fleets stand beside armies (1700 AD II), they hold no centre.
    let fleets_hold = !v.map.stacking().fleets_beside_armies;
    for i in 0..pos.units.len() {
        let u = pos.units[i];
        if u.kind == crate::map::UnitKind::Fleet && !fleets_hold {
            continue;
        }
        let p = v.map.province_of(u.region);
        if !v.map.province(p).supply_centre || pos.owners[p.index()] == Some(u.power) {
            continue;
        }
        pos.owners[p.index()] = Some(u.power);
        for f in hooks(v) {
            f.on_centre_taken(v, pos, &u, p);
        }
    }
    for f in hooks(v) {
        f.after_centres(v, pos);
    }
}
