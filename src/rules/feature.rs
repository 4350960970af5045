//! What a rule feature is: the trait each feature implements, and the
//! registry entry ([`Plugin`]) that says which tables of the variant file
//! are its own and how to load them.
//!
//! A feature answers the judges' questions it has a say in (each method
//! returns `None`, or nothing, where it has none: the standard game's
//! answer stands), and runs its steps at the hooks of a phase. Every
//! method has a default that leaves the standard game as it is, so a
//! feature overrides only what its rule changes, the way a rulebook
//! edition overrides the standard answers.

use super::position::Position;
use super::state::{AnyKey, RuleState};
use super::turn::TurnResult;
use crate::adjudicate::movement::MovementResult;
use crate::adjudicate::{AdjustResult, Illegal};
use crate::calendar::{Calendar, Phase, PhaseKind};
use crate::map::builder::{LineIndex, Problem};
use crate::map::{Map, Named, PowerId, ProvinceId, Unit, UnitKind};
use crate::orders::{AdjustOrder, MainOrder, OrderSyntax, RetreatOrder};
use serde::Deserialize;
use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use toml::Spanned;
use toml::de::DeValue;

/// A feature's entry in the registry (`rules::PLUGINS`, made from the
/// files of `src/rules` by `build.rs`): each feature file declares one as
/// `pub(crate) const PLUGIN: Plugin`.
pub struct Plugin {
    /// The feature's name, for messages.
    pub name: &'static str,
    /// Where its hooks run among the others' (lower first): the steps of a
    /// phase happen in this order.
    pub rank: u16,
    /// The tables of the variant file it reads: top-level keys (`box`),
    /// or keys of a shared table (`builds.captures`).
    pub tables: &'static [&'static str],
    /// What it keeps in a position, written in this order.
    pub state: &'static [&'static dyn AnyKey],
    /// Make the feature from its tables; `None` when the variant does not
    /// have it.
    pub load: fn(&mut Load<'_>) -> Option<Box<dyn Feature>>,
}

/// What a feature's loader is given: its own tables of the variant file,
/// the map and calendar to resolve names against, and where to report
/// problems, each with its line.
pub struct Load<'a> {
    /// The board.
    pub map: &'a Map,
    /// Game time.
    pub calendar: &'a Calendar,
    pub(super) lines: &'a LineIndex,
    pub(super) problems: &'a mut Vec<Problem>,
    pub(super) tables: BTreeMap<String, Spanned<DeValue<'a>>>,
}

impl<'a> Load<'a> {
    /// Whether the variant file has the table `key` (one of the plug-in's).
    pub fn has(&self, key: &str) -> bool {
        self.tables.contains_key(key)
    }

    /// The table `key` (one of the plug-in's), read as `T`; `None` when
    /// absent, or unreadable (then its problem is reported).
    pub fn table<T: Deserialize<'a>>(&mut self, key: &str) -> Option<T> {
        let value = self.tables.remove(key)?;
        let span = value.span();
        match T::deserialize(toml::de::ValueDeserializer::from(value)) {
            Ok(t) => Some(t),
            Err(e) => {
                let at = e.span().unwrap_or(span).start;
                let line = self.lines.line(at);
                self.problems.push(Problem {
                    line,
                    message: e.message().trim().to_string(),
                });
                None
            }
        }
    }

    /// Report a problem at `s`'s line.
    pub fn problem_at<T>(&mut self, s: &Spanned<T>, message: String) {
        let line = self.lines.line(s.span().start);
        self.problems.push(Problem { line, message });
    }

    /// Report a problem of the file as a whole.
    pub fn problem(&mut self, message: String) {
        self.problems.push(Problem { line: 0, message });
    }

    /// The province `s` names.
    pub fn province(&mut self, s: &Spanned<String>) -> Option<ProvinceId> {
        match self.map.lookup(s.get_ref()) {
            Some(Named::Province(p)) => Some(p),
            Some(Named::Region(r)) => Some(self.map.province_of(r)),
            None => {
                self.problem_at(s, format!("unknown province `{}`", s.get_ref()));
                None
            }
        }
    }

    /// The provinces `list` names (the unknown ones reported).
    pub fn provinces(&mut self, list: &[Spanned<String>]) -> Vec<ProvinceId> {
        list.iter().filter_map(|s| self.province(s)).collect()
    }

    /// The power `s` names.
    pub fn power(&mut self, s: &Spanned<String>) -> Option<PowerId> {
        let p = self.map.lookup_power(s.get_ref());
        if p.is_none() {
            self.problem_at(s, format!("unknown power `{}`", s.get_ref()));
        }
        p
    }

    /// The powers `list` names (the unknown ones reported).
    pub fn powers(&mut self, list: &[Spanned<String>]) -> Vec<PowerId> {
        list.iter().filter_map(|s| self.power(s)).collect()
    }

    /// The phase `s` names (`April 1066 movement`).
    pub fn phase(&mut self, s: &Spanned<String>) -> Option<Phase> {
        match self.calendar.parse(s.get_ref()) {
            Ok(p) => Some(p),
            Err(e) => {
                self.problem_at(s, e.to_string());
                None
            }
        }
    }

    /// The season `s` names, as its index in the calendar.
    pub fn season(&mut self, s: &Spanned<String>) -> Option<u8> {
        let want = s.get_ref().trim();
        let i = self
            .calendar
            .seasons
            .iter()
            .position(|x| x.name.eq_ignore_ascii_case(want));
        if i.is_none() {
            self.problem_at(s, format!("unknown season `{want}`"));
        }
        i.and_then(|i| u8::try_from(i).ok())
    }
}

/// Who reads a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// The GM: sees everything.
    Gm,
    /// A player of this power.
    Power(PowerId),
    /// An observer: sees what every player may see.
    Public,
}

/// What a reader may or may not be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sight {
    /// A unit of this power standing in this province.
    Unit(PowerId, ProvinceId),
    /// Whatever stands in this province.
    Place(ProvinceId),
}

/// A build site as a feature sees it (see [`Feature::extra_site`]).
pub type SiteAnswer = Result<Option<Vec<UnitKind>>, Illegal>;

/// What the results say of the rules beyond the orders: a feature's
/// report part fills the lines of its rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Notes {
    /// Units built off the board placed on the way into the next phase
    /// (`Viking F(NAT)`).
    pub arrived: Vec<String>,
    /// Those lost because their place was taken.
    pub arrival_lost: Vec<String>,
    /// Centres exchanged at the end of the move.
    pub exchanged: Vec<String>,
    /// Home centres nominated since the last results.
    pub nominated: Vec<String>,
    /// Matched exchanges not made, with why.
    pub unmade: Vec<String>,
    /// Powers whose standing under an anarchy rule changed.
    pub anarchy: Vec<String>,
}

/// What a feature adds to a power's row of the centre chart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Holdings {
    /// Centres held off the board (Ard-Ri's Vikings): counted for builds,
    /// not for victory.
    pub off_board: u32,
    /// Extra centres for the next adjustment only (raiders home).
    pub bonus: u32,
    /// Units built and waiting off the board to be placed.
    pub waiting: bool,
}

/// The phase steps a feature that plays a whole phase itself may call
/// back (1700 AD II's yearly turn ends with the centres changing hands and
/// the builds): the game's own, passed down so the rules need not know the
/// game module.
pub trait Steps {
    /// Centres change hands where units stand.
    fn take_centres(&self, pos: &mut Position);
    /// Judge the builds and removals in `pos`.
    fn adjustments(&self, pos: &Position, orders: &[AdjustOrder]) -> AdjustResult;
    /// Move on to the next phase in which somebody has a choice.
    fn advance(&self, pos: Position) -> Position;
}

/// A whole phase a feature played itself: the yearly turn of 1700 AD II.
pub type Played = (Box<TurnResult>, Position);

/// A rule feature. Every method's default is the standard game's: a
/// feature overrides only what its rule changes.
pub trait Feature: fmt::Debug + Send + Sync + Any {
    /// The feature as `Any`, for another feature that reads it
    /// ([`Features::get`]).
    fn as_any(&self) -> &dyn Any;

    // ---- What the feature adds to the game's vocabulary.

    /// The notations its orders need.
    fn syntax(&self, _s: &mut OrderSyntax) {}

    /// The unit kinds it adds to armies and fleets.
    fn kinds(&self, _k: &mut Vec<UnitKind>) {}

    /// The refusals of its rule, for the documentation of the feature's
    /// answers (each is a value of [`Illegal`], compared as such).
    fn refusals(&self) -> &'static [Illegal] {
        &[]
    }

    // ---- Rule answers: see `adjudicate::questions::RuleQuestions`,
    // whose method of the same name combines the features' answers.

    /// See `RuleQuestions::box_named`.
    fn box_named(&self, _power: PowerId, _named: ProvinceId) -> Option<ProvinceId> {
        None
    }
    /// See `RuleQuestions::box_waiting_at`.
    fn box_waiting_at(&self, _named: ProvinceId) -> Option<ProvinceId> {
        None
    }
    /// See `RuleQuestions::supported_out`.
    fn supported_out(&self, _b: ProvinceId) -> bool {
        false
    }
    /// See `RuleQuestions::unseen`.
    fn unseen(&self, _orderer: PowerId, _p: ProvinceId, _phase: Option<Phase>) -> bool {
        false
    }
    /// See `RuleQuestions::moves_from`.
    fn moves_from(&self, _b: ProvinceId, _named: ProvinceId, _phase: Option<Phase>) -> bool {
        false
    }
    /// See `RuleQuestions::may_leave`: `Some(false)` forbids.
    fn may_leave(&self, _b: ProvinceId, _phase: Option<Phase>) -> Option<bool> {
        None
    }
    /// See `RuleQuestions::may_enter`: the first feature with an answer
    /// gives it.
    fn may_enter(
        &self,
        _unit: &Unit,
        _from: ProvinceId,
        _b: ProvinceId,
        _phase: Option<Phase>,
    ) -> Option<Result<(), Illegal>> {
        None
    }
    /// See `RuleQuestions::failed_exit_destroyed`.
    fn failed_exit_destroyed(&self, _b: ProvinceId) -> bool {
        false
    }
    /// See `RuleQuestions::check_destroy`.
    fn check_destroy(
        &self,
        _q: &Ruled<'_>,
        _map: &Map,
        _unit: &Unit,
        _target: ProvinceId,
        _phase: Option<Phase>,
    ) -> Option<Result<(), Illegal>> {
        None
    }
    /// See `RuleQuestions::destroy_box`.
    fn destroy_box(&self) -> Option<ProvinceId> {
        None
    }
    /// See `RuleQuestions::destroys`.
    fn destroys(&self, _kind: UnitKind) -> bool {
        false
    }
    /// See `RuleQuestions::has_ice`.
    fn has_ice(&self) -> bool {
        false
    }
    /// See `RuleQuestions::icebound`.
    fn icebound(&self, _p: ProvinceId, _kind: UnitKind, _phase: Phase) -> bool {
        false
    }
    /// See `RuleQuestions::mountain`.
    fn mountain(&self, _p: ProvinceId) -> bool {
        false
    }
    /// See `RuleQuestions::ferry_only`.
    fn ferry_only(&self) -> bool {
        false
    }
    /// See `RuleQuestions::may_build_kind`: `Some(false)` forbids.
    fn may_build_kind(&self, _power: PowerId, _kind: UnitKind) -> Option<bool> {
        None
    }
    /// See `RuleQuestions::upkeep`: the first feature with an answer
    /// gives it.
    fn upkeep(&self, _kind: UnitKind) -> Option<i32> {
        None
    }
    /// Centres `power` counts at this adjustment beyond those it owns on
    /// the board, from this feature (see `RuleQuestions::extra_centres`).
    fn extra_centres(&self, _state: &RuleState, _power: PowerId) -> u32 {
        0
    }
    /// See `RuleQuestions::pending`.
    fn pending<'s>(&self, _state: &'s RuleState) -> Option<&'s [Unit]> {
        None
    }
    /// See `RuleQuestions::reserve_left`.
    fn reserve_left(&self, _state: &RuleState, _power: PowerId) -> u32 {
        0
    }
    /// See `RuleQuestions::may_convert`.
    fn may_convert(&self, _power: PowerId) -> bool {
        false
    }

    // ---- Build sites, in the order `RuleQuestions::build_site` asks.

    /// A site this feature decides outright, before any other rule
    /// (off-board centres' seas, the owner's own box).
    fn own_site(
        &self,
        _q: &Ruled<'_>,
        _power: PowerId,
        _p: ProvinceId,
    ) -> Option<Result<crate::adjudicate::questions::BuildSite, Illegal>> {
        None
    }
    /// Why a build off any centre is refused, where the feature words it
    /// better than "home centres only".
    fn not_a_centre(&self, _q: &Ruled<'_>, _power: PowerId) -> Option<Illegal> {
        None
    }
    /// Whether `p` counts as a home centre of `power` for building.
    fn home_for_building(&self, _state: &RuleState, _power: PowerId, _p: ProvinceId) -> bool {
        false
    }
    /// Whether `power` builds in any centre it owns.
    fn builds_anywhere(&self, _power: PowerId) -> bool {
        false
    }
    /// A centre that is no home centre of `power`, as a build site of this
    /// feature: `Ok(kinds)` it is (`None`: any kind), `Err` why not yet.
    fn extra_site(
        &self,
        _q: &Ruled<'_>,
        _map: &Map,
        _power: PowerId,
        _p: ProvinceId,
    ) -> Option<SiteAnswer> {
        None
    }

    // ---- The phase's steps, in rank order.

    /// The position at the start of a game (after the board is set).
    fn initial(&self, _v: &dyn Ruleset, _pos: &mut Position) {}
    /// The state of a position written without `[state]`.
    fn unstated(
        &self,
        _v: &dyn Ruleset,
        _units: &[Unit],
        _owners: &[Option<PowerId>],
        _state: &mut RuleState,
    ) {
    }
    /// Whether a position must always write its `[state]` table, empty or
    /// not (reading it back without it would give another state).
    fn always_stated(&self, _v: &dyn Ruleset) -> bool {
        false
    }
    /// Whether `power` gives no orders in `state`.
    fn silenced(&self, _state: &RuleState, _power: PowerId) -> bool {
        false
    }
    /// Why `power` may give no orders at all, where it may not.
    fn silenced_why(&self, _state: &RuleState, _power: PowerId) -> Option<&'static str> {
        None
    }
    /// Play the movement phase of `pos` in full, where the feature's rule
    /// replaces it (1700 AD II's yearly turn of impulses).
    fn play_movement(
        &self,
        _v: &dyn Ruleset,
        _steps: &dyn Steps,
        _pos: &Position,
        _sheet: Sheet<'_>,
    ) -> Option<Played> {
        None
    }
    /// Whether the movement phases are played from yearly order sheets
    /// that hold retreats and builds too.
    fn yearly_sheets(&self) -> bool {
        false
    }
    /// Judge the moves of `pos` with a judge of the feature's own, where
    /// its rule needs one; `None` leaves them to the next feature, and at
    /// last to the standard judge.
    fn judge_movement(
        &self,
        _v: &dyn Ruleset,
        _q: &Ruled<'_>,
        _pos: &Position,
        _orders: &[MainOrder],
    ) -> Option<MovementResult> {
        None
    }
    /// After the moves: `next` is the position they leave (its phase still
    /// the movement's).
    fn after_move(
        &self,
        _v: &dyn Ruleset,
        _pos: &Position,
        _orders: &[MainOrder],
        _r: &MovementResult,
        _next: &mut Position,
    ) {
    }
    /// After the retreats, on the units they leave.
    fn after_retreat(&self, _v: &dyn Ruleset, _units: &mut Vec<Unit>) {}
    /// After the builds and removals.
    fn after_adjustment(&self, _r: &AdjustResult, _state: &mut RuleState) {}
    /// An adjustment phase skipped for want of anything to adjust.
    fn adjustment_skipped(&self, _state: &mut RuleState) {}
    /// The unit `u` took the centre `p` (it belonged to another, or to
    /// nobody).
    fn on_centre_taken(&self, _v: &dyn Ruleset, _pos: &mut Position, _u: &Unit, _p: ProvinceId) {
    }
    /// After the centres changed hands.
    fn after_centres(&self, _v: &dyn Ruleset, _pos: &mut Position) {}
    /// On the way into an adjustment phase, after the centres changed
    /// hands.
    fn before_adjustment(&self, _v: &dyn Ruleset, _pos: &mut Position) {}
    /// On the way into a movement phase.
    fn before_moves(&self, _v: &dyn Ruleset, _pos: &mut Position) {}

    // ---- Hidden information.

    /// Whether the feature hides anything from anyone (then results are
    /// rendered per reader).
    fn hides_anything(&self) -> bool {
        false
    }
    /// Whether `viewer` may see `what` in `phase`.
    fn visible(&self, _phase: Phase, _viewer: Viewer, _what: Sight) -> bool {
        true
    }

    // ---- The results.

    /// How many units `u` counts as, where not one.
    fn units_in(&self, _u: &Unit) -> Option<i64> {
        None
    }
    /// What the feature adds to `power`'s row of the chart.
    fn holdings(&self, _state: &RuleState, _power: PowerId, _h: &mut Holdings) {}
    /// The feature's lines of the results of the phase from `before` to
    /// `after`.
    fn report(&self, _v: &dyn Ruleset, _before: &Position, _after: &Position, _n: &mut Notes) {}
    /// The season index before whose moves `power`'s units built off the
    /// board arrive.
    fn arrives(&self, _power: PowerId) -> Option<u8> {
        None
    }
    /// The name of `power`'s leader.
    fn leader_name(&self, _power: PowerId) -> Option<&str> {
        None
    }
    /// Whether the box `p` is a raiding ground (its moves are raids and
    /// homecomings).
    fn raid_box(&self, _p: ProvinceId) -> bool {
        false
    }
}

/// A yearly order sheet's three parts.
#[derive(Debug, Clone, Copy)]
pub struct Sheet<'a> {
    /// The moves.
    pub moves: &'a [MainOrder],
    /// The retreats, used where they fit.
    pub retreats: &'a [RetreatOrder],
    /// The builds and removals.
    pub adjust: &'a [AdjustOrder],
}

/// What the rules need of a variant: its map, calendar, rule options,
/// features and starting units. The variant implements it; the rules stay
/// below it.
pub trait Ruleset {
    /// The board.
    fn map(&self) -> &Map;
    /// Game time.
    fn calendar(&self) -> &Calendar;
    /// The rule options (DATC section 4).
    fn rulebook(&self) -> &crate::adjudicate::rulebook::Rulebook;
    /// The rule features.
    fn features(&self) -> &Features;
    /// Units on the board at the start.
    fn starting_units(&self) -> &[crate::map::builder::StartingUnit];
}

impl<T: Ruleset + ?Sized> Ruleset for std::sync::Arc<T> {
    fn map(&self) -> &Map {
        (**self).map()
    }
    fn calendar(&self) -> &Calendar {
        (**self).calendar()
    }
    fn rulebook(&self) -> &crate::adjudicate::rulebook::Rulebook {
        (**self).rulebook()
    }
    fn features(&self) -> &Features {
        (**self).features()
    }
    fn starting_units(&self) -> &[crate::map::builder::StartingUnit] {
        (**self).starting_units()
    }
}

/// A variant's features with a game's state and phase: what answers the
/// judges' questions (`adjudicate::questions::RuleQuestions`, implemented
/// in `features.rs`), and what a feature is given to answer its part.
#[derive(Debug, Clone, Copy)]
pub struct Ruled<'a> {
    /// The features.
    pub features: &'a Features,
    /// What the game keeps for them.
    pub state: &'a RuleState,
    /// The phase being judged.
    pub phase: Phase,
}

/// A variant's features, loaded (`features::load`), in rank order.
#[derive(Debug, Clone, Default)]
pub struct Features {
    pub(super) list: Vec<std::sync::Arc<dyn Feature>>,
}

impl Features {
    /// The features, in the order their steps run.
    pub fn iter(&self) -> impl Iterator<Item = &dyn Feature> {
        self.list.iter().map(|f| &**f)
    }

    /// The feature of type `T`, if the variant has it: for a feature that
    /// reads another's table (the yearly turn reads the armed neutrals).
    pub fn get<T: Feature>(&self) -> Option<&T> {
        self.list.iter().find_map(|f| f.as_any().downcast_ref::<T>())
    }

    /// The notations the features' orders need.
    pub fn syntax(&self) -> OrderSyntax {
        let mut s = OrderSyntax::default();
        for f in self.iter() {
            f.syntax(&mut s);
        }
        s
    }

    /// The kinds of unit the variant has: armies and fleets, and those its
    /// features add.
    pub fn kinds(&self) -> Vec<UnitKind> {
        let mut k = vec![UnitKind::Army, UnitKind::Fleet];
        for f in self.iter() {
            f.kinds(&mut k);
        }
        k
    }

    /// Whether the variant has units of `kind`.
    pub fn has_kind(&self, kind: UnitKind) -> bool {
        self.kinds().contains(&kind)
    }

    /// Whether `power` may build units of `kind` at all.
    pub fn may_build_kind(&self, power: PowerId, kind: UnitKind) -> bool {
        self.iter()
            .all(|f| f.may_build_kind(power, kind) != Some(false))
    }

    /// Whether an A/F is a fleet with an army aboard that counts as two
    /// units (Abstraction II rule 3).
    pub fn laden(&self) -> bool {
        self.iter().any(|f| {
            f.units_in(&Unit {
                power: PowerId(0),
                kind: UnitKind::ArmyFleet,
                region: crate::map::RegionId(0),
            })
            .is_some_and(|n| n > 1)
        })
    }

    /// How many units `u` counts as (an A/F with an army aboard: two).
    pub fn units_in(&self, u: &Unit) -> i64 {
        self.iter().find_map(|f| f.units_in(u)).unwrap_or(1)
    }

    /// Whether the variant hides anything from anyone (then results are
    /// rendered per reader).
    pub fn hides_anything(&self) -> bool {
        self.iter().any(Feature::hides_anything)
    }

    /// Whether `viewer` may see `what` in `phase`.
    pub fn visible(&self, phase: Phase, viewer: Viewer, what: Sight) -> bool {
        viewer == Viewer::Gm || self.iter().all(|f| f.visible(phase, viewer, what))
    }

    /// Whether `viewer` may not know which units stand at `p` in `phase`.
    pub fn place_hidden_from(&self, phase: Phase, p: ProvinceId, viewer: Viewer) -> bool {
        !self.visible(phase, viewer, Sight::Place(p))
    }

    /// Whether `viewer` may not see where `u` stands in `phase`.
    pub fn hidden_from(&self, map: &Map, phase: Phase, u: &Unit, viewer: Viewer) -> bool {
        !self.visible(
            phase,
            viewer,
            Sight::Unit(u.power, map.province_of(u.region)),
        )
    }

    /// Whether `power` gives no orders in `state`.
    pub fn silenced(&self, state: &RuleState, power: PowerId) -> bool {
        self.iter().any(|f| f.silenced(state, power))
    }

    /// Why `power` gives no orders, where it gives none.
    pub fn silenced_why(&self, state: &RuleState, power: PowerId) -> Option<&'static str> {
        self.iter().find_map(|f| f.silenced_why(state, power))
    }

    /// Whether movement phases are played from yearly order sheets with
    /// the retreats and builds on them (1700 AD II rule 3).
    pub fn yearly_sheets(&self) -> bool {
        self.iter().any(Feature::yearly_sheets)
    }

    /// Whether the phase `phase` is played from a yearly order sheet.
    pub fn yearly(&self, phase: Phase) -> bool {
        phase.kind == PhaseKind::Movement && self.yearly_sheets()
    }

    /// What the features add to `power`'s row of the chart.
    pub fn holdings(&self, state: &RuleState, power: PowerId) -> Holdings {
        let mut h = Holdings::default();
        for f in self.iter() {
            f.holdings(state, power, &mut h);
        }
        h
    }

    /// The features' lines of the results of the phase from `before` to
    /// `after`.
    pub fn notes(
        &self,
        v: &dyn Ruleset,
        before: &Position,
        after: &Position,
    ) -> Notes {
        let mut n = Notes::default();
        for f in self.iter() {
            f.report(v, before, after, &mut n);
        }
        n
    }

    /// The season index before whose moves `power`'s units built off the
    /// board arrive.
    pub fn arrives(&self, power: PowerId) -> Option<u8> {
        self.iter().find_map(|f| f.arrives(power))
    }

    /// The full name of `power`'s leader, if the variant names him (1700
    /// AD II rule 7: Marlborough, Prince Eugene, ...).
    pub fn leader_name(&self, power: PowerId) -> Option<&str> {
        self.iter().find_map(|f| f.leader_name(power))
    }

    /// Whether `p` is an off-board box.
    pub fn is_box(&self, map: &Map, p: ProvinceId) -> bool {
        map.province(p).terrain == crate::map::Terrain::OffBoard
    }

    /// Whether the box `p` is a raiding ground.
    pub fn raid_box(&self, p: ProvinceId) -> bool {
        self.iter().any(|f| f.raid_box(p))
    }

    /// The box whose units a destroy order destroys.
    pub fn destroy_box(&self) -> Option<ProvinceId> {
        self.iter().find_map(Feature::destroy_box)
    }
}
