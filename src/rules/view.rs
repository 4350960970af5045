//! One filtered view per reader (issue #36): what a player, an observer
//! or the GM may see of a position, asked once and used alike by the
//! result mails, the web pages, the pictures and the command replies.
//!
//! Before this, each of them asked the features unit by unit
//! (`features.hidden_from(...)`), and each could forget a question: the
//! picture's legend counted what the chart hid. A [`View`] is made for one
//! (phase, reader) and answers every question of hidden information
//! (1066 rule 5); the rest of the rule questions asked outside `rules`
//! (is this a box, does the variant have this kind of unit, who leads this
//! power) are named methods of [`VariantRules`], at the end of this file,
//! which every variant has, so no caller reaches into its features.

use super::Ruleset;
use super::features::Viewer;
use super::position::Position;
use crate::calendar::Phase;
use crate::map::{PowerId, ProvinceId, Unit, UnitKind};
use crate::orders::PhaseKind;

/// What one reader may see in one phase of a game.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    v: &'a dyn Ruleset,
    phase: Phase,
    viewer: Viewer,
}

impl<'a> View<'a> {
    /// The view of `viewer` in `phase`.
    pub(crate) fn new(v: &'a dyn Ruleset, phase: Phase, viewer: Viewer) -> View<'a> {
        View { v, phase, viewer }
    }

    /// The view of `viewer` of `pos`.
    pub(crate) fn of(v: &'a dyn Ruleset, pos: &Position, viewer: Viewer) -> View<'a> {
        View::new(v, pos.phase, viewer)
    }

    /// Whether this reader may not see where `u` stands.
    pub(crate) fn hides_unit(&self, u: &Unit) -> bool {
        self.v
            .features()
            .hidden_from(self.v.map(), self.phase, u, self.viewer)
    }

    /// Whether this reader may not know which units stand at `p` (1066
    /// rule 5: Oceanus Germanicus and the Wash, until the end of April).
    pub(crate) fn hides_place(&self, p: ProvinceId) -> bool {
        self.v
            .features()
            .place_hidden_from(self.phase, p, self.viewer)
    }

    /// Whether this reader may see the void orders of `pw`: with hidden
    /// units about, a void order could tell where they are, so only their
    /// owner and the GM see them.
    pub(crate) fn sees_void_orders_of(&self, pw: PowerId) -> bool {
        !self.v.hides_anything()
            || matches!(self.viewer, Viewer::Gm)
            || self.viewer == Viewer::Power(pw)
    }

    /// `pos` as this reader may see it: the units hidden from them are
    /// not in it at all, so nothing drawn from it (units, retreat options,
    /// the legend's counts) can tell of them.
    pub(crate) fn position(&self, pos: &Position) -> Position {
        let mut p = pos.clone();
        p.units.retain(|u| !self.hides_unit(u));
        p.dislodged.retain(|(u, _)| !self.hides_unit(u));
        p
    }

    /// Whether this reader may know that the phase of `pos` is played at
    /// all: a retreat phase whose every dislodged unit is hidden from them
    /// (one of Harald's waiting A/Fs dislodged in March 1066, rule 5)
    /// is Harald's and the GM's alone. For everyone else the game goes on
    /// as if no unit had been dislodged: see [`View::phase_shown`].
    pub(crate) fn sees_phase(&self, pos: &Position) -> bool {
        pos.phase.kind != PhaseKind::Retreat
            || pos.dislodged.is_empty()
            || pos.dislodged.iter().any(|(u, _)| !self.hides_unit(u))
    }

    /// The phase this reader is told the game is in: the phase of `pos`,
    /// or the next one when this reader may not know of it.
    pub(crate) fn phase_shown(&self, pos: &Position) -> Phase {
        if self.sees_phase(pos) {
            pos.phase
        } else {
            self.v.calendar().next(pos.phase)
        }
    }

    /// Whether this view's phase could be one the reader may not know of
    /// ([`View::sees_phase`]): a retreat while some place is hidden from
    /// them. Asked of a phase's name alone, so that a long history is
    /// filtered by reading only the positions of the few phases that could
    /// be hidden (in 1066, March 1066's retreat), never every one.
    pub(crate) fn may_miss_phase(&self) -> bool {
        self.phase.kind == PhaseKind::Retreat
            && self.v.hides_anything()
            && self.v.map().province_ids().any(|p| self.hides_place(p))
    }

    /// `pos` as this reader plays it: where they may not know of its phase
    /// (a retreat of hidden units only), the board of the phase they are
    /// told the game is in, with no unit dislodged; their own units stand
    /// where they will stand in it, for only hidden units move before it
    /// (1066 rule 5). `None` where they see the phase as it is.
    pub(crate) fn board_played(&self, pos: &Position) -> Option<Position> {
        if self.sees_phase(pos) {
            return None;
        }
        let mut p = pos.clone();
        p.phase = self.phase_shown(pos);
        p.dislodged.clear();
        Some(p)
    }
}

/// The rule questions asked outside `rules`, as named methods, so that no
/// caller reaches into the features: every variant answers them (import
/// the trait to ask).
pub trait VariantRules: Ruleset {
    /// Whether the variant hides anything from anyone: then results,
    /// pictures and pages are made per reader.
    fn hides_anything(&self) -> bool {
        self.features().hides_anything()
    }

    /// The reader whose copy `viewer` gets: themselves where something is
    /// hidden, else the copy every reader shares (the `shared` one).
    fn copy_for(&self, viewer: Viewer, shared: Viewer) -> Viewer {
        if self.hides_anything() {
            viewer
        } else {
            shared
        }
    }

    /// Whether province `p` is an off-board box (1066 rule 4's Straits of
    /// Dover, Harald's box): units there are named by the box, not by a
    /// place on the board.
    fn is_box(&self, p: ProvinceId) -> bool {
        self.features().box_at(p).is_some()
    }

    /// Whether province `p` is a box units raid from (Ard-Ri's Viking
    /// seas: entered from given places, or paying a bonus on leaving), so
    /// a move out of it is drawn as a raid.
    fn is_raid_box(&self, p: ProvinceId) -> bool {
        self.features()
            .box_at(p)
            .is_some_and(|b| !b.enter_from.is_empty() || b.exit_bonus)
    }

    /// The box a destroy order clears (1066 rule 4: the armies still
    /// waiting in the Straits of Dover), if the variant has the order.
    fn destroyed_box(&self) -> Option<ProvinceId> {
        self.features().destroy.as_ref().map(|d| d.province)
    }

    /// The box of `power` that the name of `p` also stands for (a box
    /// named after the place its units enter by), if any.
    fn box_also_named(&self, power: PowerId, p: ProvinceId) -> Option<ProvinceId> {
        self.features()
            .boxes
            .iter()
            .find(|b| b.owner == Some(power) && b.also_named.contains(&p))
            .map(|b| b.province)
    }

    /// For a unit in a raiders' box at `p` (Ard-Ri: coming home pays a
    /// bonus), whether `season` is one it may come home in, so that staying
    /// away brings nothing home; `None` where `p` is no such box.
    fn raid_return_due(&self, p: ProvinceId, season: u8) -> Option<bool> {
        self.features()
            .box_at(p)
            .filter(|b| b.exit_bonus)
            .map(|b| b.exit_season.is_none_or(|s| s == season))
    }

    /// The season (its index in the calendar) in which units `power`
    /// builds off the board arrive, if they wait for one.
    fn reserve_arrival(&self, power: PowerId) -> Option<u8> {
        self.features().reserve_of(power).and_then(|r| r.arrive)
    }

    /// Whether the variant has units of `kind` at all.
    fn has_unit_kind(&self, kind: UnitKind) -> bool {
        self.features().has_kind(kind)
    }

    /// The full name of `power`'s leader, if the variant names him
    /// (1700 AD II rule 7).
    fn leader_of(&self, power: PowerId) -> Option<&str> {
        self.features().leader_name(power)
    }

    /// What the chart says of the centres `power` counts beyond those it
    /// owns on the board (`owners`: each province's owner now), one note
    /// per feature that gives some (a partisan site).
    fn centres_beyond_named(&self, owners: &[Option<PowerId>], power: PowerId) -> Vec<String> {
        self.features()
            .plugins
            .iter()
            .filter_map(|f| f.centres_beyond_named(owners, power))
            .collect()
    }

    /// Whether nobody ever plays `power` (a dummy power), as a feature
    /// says: its seat is never offered, and the chart marks it.
    fn unplayed(&self, power: PowerId) -> bool {
        self.features().plugins.iter().any(|f| f.unplayed(power))
    }

    /// Why the variant's rule forbids draws, if it does.
    fn draws_refused(&self) -> Option<&'static str> {
        self.features()
            .plugins
            .iter()
            .find_map(|f| f.draws_refused())
    }

    /// Why a player may not send press to `readers` at `when`, if a
    /// feature's press rule forbids it (face-to-face press).
    fn press_refused(
        &self,
        when: super::feature::PressMoment,
        readers: super::feature::Readers,
    ) -> Option<&'static str> {
        self.features()
            .plugins
            .iter()
            .find_map(|f| f.press_refused(when, readers))
    }

    /// Why `power` gives no orders in `pos`, if a feature silences it
    /// (1000 AD rule 13's anarchy, a dormant power): its units hold and
    /// nothing of it is missing.
    fn silenced_why(&self, pos: &Position, power: PowerId) -> Option<&'static str> {
        self.features()
            .plugins
            .iter()
            .find(|f| f.silenced(pos, power))
            .map(|f| f.silenced_why())
    }

    /// Whether a movement phase takes a yearly order sheet of moves,
    /// retreats and builds (1700 AD II rule 3), as a feature says.
    fn takes_order_sheets(&self) -> bool {
        self.features().plugins.iter().any(|f| f.yearly_sheets())
    }
}

impl<T: Ruleset + ?Sized> VariantRules for T {}
