//! What a rule feature is: the trait each feature implements, and the
//! registry entry ([`Plugin`]) that says which tables of the variant file
//! are its own and how to load them.
//!
//! A feature is one file of `src/rules` (or one directory, for a feature
//! with a judge of its own) that declares `pub(crate) const PLUGIN:
//! Plugin`; `build.rs` makes the module and lists it in [`super::PLUGINS`],
//! so adding a feature edits no list anywhere else. A variant loads its
//! features once ([`load`]): each plug-in takes its own tables out of the
//! variant file and says whether the variant has it.
//!
//! A feature answers the judges' questions it has a say in and runs its
//! steps at the hooks of a phase. Every method has a default that leaves
//! the standard game as it is, so a feature overrides only what its rule
//! changes, the way a rulebook edition overrides the standard answers;
//! `game::step` only loops over the hooks.

use super::{Position, RuleState, Ruleset};
use crate::adjudicate::movement::MovementResult;
use crate::adjudicate::questions::{BuildSite, RuleQuestions};
use crate::adjudicate::{AdjustResult, Illegal};
use crate::calendar::{Calendar, Phase};
use crate::map::builder::{LineIndex, Problem};
use crate::map::{Map, Named, PowerId, ProvinceId, Unit, UnitKind};
use crate::orders::{AdjustOrder, MainOrder, OrderSyntax, RetreatOrder};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use toml::Spanned;
use toml::de::DeValue;

/// A feature's entry in the registry ([`super::PLUGINS`], made from the
/// files of `src/rules` by `build.rs`).
pub(crate) struct Plugin {
    /// The feature's name, for messages and for [`Plugins`]' debug form.
    pub name: &'static str,
    /// Where its hooks run among the others' (lower first): the steps of a
    /// phase happen in this order, whatever the order of the files.
    pub rank: u16,
    /// The top-level tables of the variant file it reads (`hidden`).
    pub tables: &'static [&'static str],
    /// Make the feature from its tables; `None` when the variant does not
    /// have it.
    pub load: fn(&mut Load<'_>) -> Option<Arc<dyn Feature>>,
}

/// What a feature's loader is given: its own tables of the variant file,
/// the map and calendar to resolve names against, and where to report
/// problems, each with its line.
pub(crate) struct Load<'a> {
    /// The board.
    pub map: &'a Map,
    /// Game time.
    pub calendar: &'a Calendar,
    /// The feature tables not yet moved into a plug-in of their own, as
    /// resolved by `features::resolve`: a plug-in whose rule still reads
    /// them asks these whether the variant has it.
    pub legacy: &'a dyn Legacy,
    lines: &'a LineIndex,
    problems: &'a mut Vec<Problem>,
    tables: BTreeMap<String, Spanned<DeValue<'a>>>,
}

impl<'a> Load<'a> {
    /// Whether the variant file has the table `key` (one of the plug-in's).
    pub(crate) fn has(&self, key: &str) -> bool {
        self.tables.contains_key(key)
    }

    /// The table `key` (one of the plug-in's), read as `T`; `None` when
    /// absent, or unreadable (then its problem is reported with its line).
    pub(crate) fn table<T: Deserialize<'a>>(&mut self, key: &str) -> Option<T> {
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
    pub(crate) fn problem_at<T>(&mut self, s: &Spanned<T>, message: String) {
        let line = self.lines.line(s.span().start);
        self.problems.push(Problem { line, message });
    }

    /// The province `s` names.
    pub(crate) fn province(&mut self, s: &Spanned<String>) -> Option<ProvinceId> {
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
    pub(crate) fn provinces(&mut self, list: &[Spanned<String>]) -> Vec<ProvinceId> {
        list.iter().filter_map(|s| self.province(s)).collect()
    }

    /// The power `s` names.
    pub(crate) fn power(&mut self, s: &Spanned<String>) -> Option<PowerId> {
        let p = self.map.lookup_power(s.get_ref());
        if p.is_none() {
            self.problem_at(s, format!("unknown power `{}`", s.get_ref()));
        }
        p
    }

    /// The season `s` names, as its index in the calendar.
    pub(crate) fn season(&mut self, s: &Spanned<String>) -> Option<u8> {
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

    /// The phase `s` names (`April 1066 movement`).
    pub(crate) fn phase(&mut self, s: &Spanned<String>) -> Option<Phase> {
        match self.calendar.parse(s.get_ref()) {
            Ok(p) => Some(p),
            Err(e) => {
                self.problem_at(s, e.to_string());
                None
            }
        }
    }
}

/// Load the plug-ins the variant has, in rank order, each from its own
/// tables, taken out of `root` (the variant file's plug-in tables).
pub(crate) fn load<'s: 'a, 'a>(
    root: &mut toml::de::DeTable<'s>,
    map: &'a Map,
    calendar: &'a Calendar,
    legacy: &'a dyn Legacy,
    lines: &'a LineIndex,
    problems: &'a mut Vec<Problem>,
) -> Plugins {
    let mut list: Vec<(&'static Plugin, Arc<dyn Feature>)> = Vec::new();
    let mut ranked: Vec<&'static Plugin> = super::PLUGINS.to_vec();
    ranked.sort_by_key(|p| p.rank);
    let mut l = Load {
        map,
        calendar,
        legacy,
        lines,
        problems,
        tables: BTreeMap::new(),
    };
    for plugin in ranked {
        l.tables.clear();
        for key in plugin.tables {
            if let Some(v) = root.remove(*key) {
                l.tables.insert((*key).to_string(), v);
            }
        }
        if let Some(f) = (plugin.load)(&mut l) {
            list.push((plugin, f));
        }
    }
    Plugins(list)
}

/// What the loaders of the features whose tables are still read with the
/// others (`features::resolve`) ask of those tables: whether the variant
/// has their rule. A question each, so that this file, which every
/// feature reads, does not read the tables' file, which reads it.
pub(crate) trait Legacy {
    /// Whether the variant has off-board boxes (`[[box]]`).
    fn has_boxes(&self) -> bool;
    /// Whether the variant has off-board centres (`[[reserve]]`).
    fn has_reserves(&self) -> bool;
    /// Whether centres are remembered as they are taken: builds on first
    /// captures, or sites that must be held a number of years.
    fn remembers_captures(&self) -> bool;
    /// Whether lost home centres are replaced by nominations.
    fn has_replacement_homes(&self) -> bool;
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

/// When a player writes press, as a press rule asks it
/// ([`Feature::press_refused`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PressMoment {
    /// The kind of the phase being played.
    pub kind: crate::orders::PhaseKind,
    /// The phase's deadline has passed with orders missing: the game
    /// waits for late players.
    pub deadline_missed: bool,
}

/// Whom a player's press reaches, as a press rule tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Readers {
    /// The GM alone.
    Master,
    /// Everybody (BROADCAST, `PRESS TO ALL`): public press.
    Everybody,
    /// Some of the players or observers, not all: private press.
    Private,
}

/// The phase steps a feature that plays a whole phase itself calls back
/// (1700 AD II's yearly turn ends with the centres changing hands and the
/// builds): the game's own, passed down so that the rules need not know
/// the game module.
pub trait Steps {
    /// Centres change hands where units stand.
    fn take_centres(&self, pos: &mut Position);
    /// Judge the builds and removals in `pos`.
    fn adjustments(&self, pos: &Position, orders: &[AdjustOrder]) -> AdjustResult;
    /// Move on to the next phase in which somebody has a choice.
    fn advance(&self, pos: Position) -> Position;
}

/// A yearly order sheet's three parts (1700 AD II rule 3).
#[derive(Debug, Clone, Copy)]
pub struct Sheet<'a> {
    /// The moves.
    pub moves: &'a [MainOrder],
    /// The retreats, used where they fit.
    pub retreats: &'a [RetreatOrder],
    /// The builds and removals.
    pub adjust: &'a [AdjustOrder],
}

/// A whole movement phase a feature played itself: the yearly turn of
/// 1700 AD II, with the position it leaves.
pub(crate) type Played = (Box<super::impulses::result::TurnResult>, Position);

/// A rule feature. Every method's default is the standard game's: a
/// feature overrides only what its rule changes. A feature is loaded once
/// and never changes (what a game keeps for it is in the position), so it
/// is safe to share between threads and across a caught panic.
pub trait Feature:
    fmt::Debug + Send + Sync + std::panic::RefUnwindSafe + std::panic::UnwindSafe
{
    /// The refusals of its rule (each a value of [`Illegal`], compared as
    /// such): what a player of a variant with the feature may be told.
    fn refusals(&self) -> &'static [Illegal] {
        &[]
    }

    // ---- What the feature adds to the game's vocabulary.

    /// The notations its orders need (a notation never switches a rule
    /// on: the feature does).
    fn syntax(&self, _s: &mut OrderSyntax) {}
    /// The unit kinds it adds to armies and fleets.
    fn kinds(&self, _k: &mut Vec<UnitKind>) {}
    /// How many units `u` counts as, where not one (wherever units are
    /// counted: the results' chart, a final count of units).
    fn units_in(&self, _u: &Unit) -> Option<i64> {
        None
    }

    /// The full name of `power`'s leader, where the feature names him.
    fn leader_name(&self, _power: PowerId) -> Option<&str> {
        None
    }

    // ---- Rule answers, combined by `features::Ruled`'s answers to the
    // judges' questions (`adjudicate::questions::RuleQuestions`).

    /// See `RuleQuestions::upkeep`: the first feature with an answer gives
    /// it.
    fn upkeep(&self, _kind: UnitKind) -> Option<i32> {
        None
    }
    /// See `RuleQuestions::ferry_only`.
    fn ferry_only(&self) -> bool {
        false
    }
    /// See `RuleQuestions::has_ice`.
    fn has_ice(&self) -> bool {
        false
    }
    /// See `RuleQuestions::icebound`, in a phase being judged.
    fn icebound(&self, _p: ProvinceId, _kind: UnitKind, _phase: Phase) -> bool {
        false
    }

    /// See `RuleQuestions::build_site`: whether `p` is a build site of
    /// `power` now (`owned`: the power owns it), where the feature's rule
    /// decides it. `None` leaves it to the next feature, and at last to
    /// the variant's build tables and the standard rule (home centres).
    /// Not asked in an opening placement, whose sites are the homeland.
    fn build_site(
        &self,
        _map: &Map,
        _power: PowerId,
        _p: ProvinceId,
        _owned: bool,
    ) -> Option<Result<BuildSite, Illegal>> {
        None
    }

    /// [`Feature::build_site`], with what the game keeps for the features
    /// (`state`) and who owns each province now (`owners`, by province
    /// index): for a rule whose sites change during the game (DPjudge's
    /// `NEWHOMES`, `new_homes`) or hang on what the power holds (its
    /// partisan sites, `partisans`). The default asks `build_site`.
    fn build_site_in(
        &self,
        map: &Map,
        _state: &RuleState,
        _owners: &[Option<PowerId>],
        power: PowerId,
        p: ProvinceId,
        owned: bool,
    ) -> Option<Result<BuildSite, Illegal>> {
        self.build_site(map, power, p, owned)
    }

    /// See `RuleQuestions::build_limited`, with who owns each province
    /// now (`owners`): the first feature with a refusal gives it.
    fn build_limited(
        &self,
        _map: &Map,
        _owners: &[Option<PowerId>],
        _power: PowerId,
        _at: ProvinceId,
        _start: &[Unit],
        _built: &[Unit],
    ) -> Option<Illegal> {
        None
    }

    /// See `RuleQuestions::builds_most`, with who owns each province now
    /// (`owners`): the fewest any feature allows.
    fn builds_most(
        &self,
        _map: &Map,
        _owners: &[Option<PowerId>],
        _power: PowerId,
        _units: &[Unit],
    ) -> Option<u32> {
        None
    }

    /// Centres `power` counts at an adjustment beyond those it owns on the
    /// board, where the feature's rule gives some (DPjudge's partisan
    /// sites: one each while the power holds some but not all of its
    /// home centres). `owners`: each province's owner now. Summed over
    /// the features.
    fn centres_beyond(&self, _owners: &[Option<PowerId>], _power: PowerId) -> u32 {
        0
    }

    /// What the results' chart says of the centres this feature counts
    /// beyond those on the board ([`Feature::centres_beyond`]), in a few
    /// words after the count (`1 partisan site`), so a reader sees why
    /// the power keeps more units than it owns centres. `None`: none now.
    fn centres_beyond_named(&self, _owners: &[Option<PowerId>], _power: PowerId) -> Option<String> {
        None
    }

    /// See `RuleQuestions::unseen`.
    fn unseen(&self, _orderer: PowerId, _p: ProvinceId, _phase: Option<Phase>) -> bool {
        false
    }

    // ---- The phase's steps, in rank order.

    /// Whether `power` gives no orders in `pos` (its units hold, it builds
    /// nothing).
    fn silenced(&self, _pos: &Position, _power: PowerId) -> bool {
        false
    }
    /// Whether `power` is played by nobody, ever (DPjudge's dummy
    /// powers): no seat of it is offered, filled or waited for. Such a
    /// power is also silenced, by the same feature.
    fn unplayed(&self, _power: PowerId) -> bool {
        false
    }
    /// Whether the judge builds for silenced `power` what it is owed
    /// (DPjudge's `CD_BUILDS`), where otherwise the builds are waived.
    fn builds_for_silent(&self, _power: PowerId) -> bool {
        false
    }
    /// Why draws may not be proposed or agreed in the variant, where its
    /// rule forbids them (DPjudge's `NO_DRAW`: only a solo ends it).
    fn draws_refused(&self) -> Option<&'static str> {
        None
    }
    /// Why a player may not send press to `readers` at `when`, where the
    /// feature's rule limits press (DPjudge's `FTF_PRESS`); `None` leaves
    /// it to the game's press setting. Never asked of the GM's press.
    fn press_refused(&self, _when: PressMoment, _readers: Readers) -> Option<&'static str> {
        None
    }
    /// What a silenced power's player is told when it sends orders: why
    /// it gives none now (each feature that silences says its own rule).
    fn silenced_why(&self) -> &'static str {
        "Your power gives no orders this phase: its units hold, and the \
         judge makes what must be made for it."
    }
    /// Play the movement phase of `pos` in full, where the feature's rule
    /// replaces it (1700 AD II's yearly turn of impulses).
    fn play_movement(
        &self,
        _v: &dyn Ruleset,
        _steps: &dyn Steps,
        _q: &dyn RuleQuestions,
        _pos: &Position,
        _sheet: Sheet<'_>,
    ) -> Option<Played> {
        None
    }
    /// Whether the movement phases are played from yearly order sheets
    /// that hold the retreats and builds too (then
    /// [`Feature::play_movement`] plays them).
    fn yearly_sheets(&self) -> bool {
        false
    }
    /// Judge the moves of `pos` with a judge of the feature's own, where
    /// its rule needs one; `None` leaves them to the next feature, and at
    /// last to the standard judge.
    fn judge_movement(
        &self,
        _v: &dyn Ruleset,
        _q: &dyn RuleQuestions,
        _pos: &Position,
        _orders: &[MainOrder],
    ) -> Option<MovementResult> {
        None
    }
    /// After the moves: `next` is the position they leave (its phase still
    /// the movement's). What the results must tell goes in `next.state`'s
    /// news (arrivals, exchanges), which survive the way to the next phase.
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
    /// An adjustment phase skipped, nobody having anything to adjust.
    fn adjustment_skipped(&self, _state: &mut RuleState) {}
    /// The unit `u` took the centre `p` (it belonged to another power, or
    /// to nobody); `pos.owners` already says so.
    fn on_centre_taken(&self, _v: &dyn Ruleset, _pos: &mut Position, _u: &Unit, _p: ProvinceId) {}
    /// After the centres changed hands.
    fn after_centres(&self, _v: &dyn Ruleset, _pos: &mut Position) {}
    /// On the way into an adjustment phase, after the centres changed
    /// hands, before what is due is counted.
    fn before_adjustment(&self, _v: &dyn Ruleset, _pos: &mut Position) {}
    /// On the way into a movement phase.
    fn before_moves(&self, _v: &dyn Ruleset, _pos: &mut Position) {}

    // ---- Hidden information.

    /// Whether the feature hides anything from anyone (then results are
    /// rendered per reader).
    fn hides_anything(&self) -> bool {
        false
    }
    /// Whether `viewer` (never the GM, who sees all) may see `what` in
    /// `phase`.
    fn visible(&self, _phase: Phase, _viewer: Viewer, _what: Sight) -> bool {
        true
    }
}

/// A variant's loaded features, in rank order.
#[derive(Clone, Default)]
pub struct Plugins(Vec<(&'static Plugin, Arc<dyn Feature>)>);

impl Plugins {
    /// The features, in the order their steps run.
    pub fn iter(&self) -> impl Iterator<Item = &dyn Feature> {
        self.0.iter().map(|(_, f)| &**f)
    }

    /// The names of the features the variant has, in rank order.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|(p, _)| p.name).collect()
    }

    /// Whether the variant has the feature of this name (a step of one
    /// feature that another's presence changes asks this rather than the
    /// other's table).
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|(p, _)| p.name == name)
    }
}

impl fmt::Debug for Plugins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|(_, x)| x))
            .finish()
    }
}

impl PartialEq for Plugins {
    /// The same features: a variant's are made from its file alone.
    fn eq(&self, other: &Plugins) -> bool {
        self.names() == other.names()
    }
}

impl Eq for Plugins {}
