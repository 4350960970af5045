//! What the judges ask of a variant's rules.
//!
//! The judges know the standard game; everything a variant adds reaches
//! them as the answer to a question of [`RuleQuestions`], whose default
//! methods give the standard game's answers. A variant answers through its
//! rule features (`crate::rules`), each of which answers the questions of
//! its own rule, so the judges never look at a variant's tables and a rule
//! has one home. [`Standard`] answers for the standard game.

use super::Illegal;
use crate::calendar::Phase;
use crate::map::{Map, PowerId, ProvinceId, Unit, UnitKind};

/// Where a build may be made and what may be built there, as the rules of
/// a variant see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildSite {
    /// A build site of the power: any kind the site admits, or only these.
    Open(Option<Vec<UnitKind>>),
    /// A site fed by the power's off-board centres (Ard-Ri's Vikings): the
    /// unit is placed at once, or (`later`) before a later season's moves.
    Reserve {
        /// Placed later, not now.
        later: bool,
    },
}

/// The questions the judges ask; every default is the standard game's
/// answer.
pub trait RuleQuestions: Sync {
    // ---- Off-board boxes: the movement judge.

    /// The box whose units an order of `power` naming the board space
    /// `named` is for, when the rule text says they wait there (1066:
    /// William's armies "in the Straits of Dover").
    fn box_named(&self, _power: PowerId, _named: ProvinceId) -> Option<ProvinceId> {
        None
    }

    /// The box whose waiting units any power's order may name as standing
    /// at `named` (1066: William's armies "in the Straits of Dover",
    /// Harald's A/Fs "in Oceanus Germanicus or the Wash"), so that units
    /// on the board may support or convoy them onto the board (rules 4, 7).
    fn box_waiting_at(&self, _named: ProvinceId) -> Option<ProvinceId> {
        None
    }

    /// Whether units on the board may support the units of box `b` onto
    /// the board and convoy its armies (1066 rules 4, 7; Ard-Ri rule 6c's
    /// raiding return, a move like any other by rule 1).
    fn supported_out(&self, _b: ProvinceId) -> bool {
        false
    }

    /// Whether the player of `orderer` may not know which units stand at
    /// `p` in `phase` (1066 rule 5: Harald's hidden A/Fs). An order naming
    /// a unit there is then never refused for what stands there, only
    /// carried out or void, so the answer cannot tell where it is.
    fn unseen(&self, _orderer: PowerId, _p: ProvinceId, _phase: Option<Phase>) -> bool {
        false
    }

    /// Whether a unit in box `b` whose order names the board space `named`
    /// moves this phase as if it stood there (1066: Harald's A/Fs, secretly
    /// in Oceanus Germanicus or the Wash).
    fn moves_from(&self, _b: ProvinceId, _named: ProvinceId, _phase: Option<Phase>) -> bool {
        false
    }

    /// Whether units in box `b` may come onto the board in `phase`.
    fn may_leave(&self, _b: ProvinceId, _phase: Option<Phase>) -> bool {
        true
    }

    /// Whether `unit`, standing in `from`, may move into the off-board
    /// province `b` in `phase` (a raid); why not.
    fn may_enter(
        &self,
        _unit: &Unit,
        _from: ProvinceId,
        _b: ProvinceId,
        _phase: Option<Phase>,
    ) -> Result<(), Illegal> {
        Err(Illegal::NoEntry)
    }

    /// Whether a unit whose move out of box `b` fails is lost (it cannot
    /// retreat).
    fn failed_exit_destroyed(&self, _b: ProvinceId) -> bool {
        false
    }

    // ---- The destroy order (1066 rule 4).

    /// Whether `unit`'s order to destroy the units waiting at `target` is
    /// one the rules allow in `phase`.
    fn check_destroy(
        &self,
        _map: &Map,
        _unit: &Unit,
        _target: ProvinceId,
        _phase: Option<Phase>,
    ) -> Result<(), Illegal> {
        Err(Illegal::NotInThisGame)
    }

    /// The box whose waiting units a destroy order destroys.
    fn destroy_box(&self) -> Option<ProvinceId> {
        None
    }

    /// Whether a destroy order destroys the waiting units of `kind` (1066
    /// rule 4: armies, so William's waiting fleets survive it).
    fn destroys(&self, _kind: UnitKind) -> bool {
        false
    }

    // ---- Ice and mountains.

    /// Whether the ice holds a unit of `kind` in `p` in `phase` (Abstraction
    /// II rule 5: fleets stand; armies where the ice holds them leave only
    /// overland).
    fn icebound(&self, _p: ProvinceId, _kind: UnitKind, _phase: Option<Phase>) -> bool {
        false
    }

    /// Whether the ice may hold any unit in this game: when not, the
    /// movement judge asks [`icebound`](Self::icebound) of no unit (it
    /// would ask for every unit of every phase).
    fn has_ice(&self) -> bool {
        false
    }

    /// Whether `p` is a mountain province (1700 AD II rule 10c).
    fn mountain(&self, _p: ProvinceId) -> bool {
        false
    }

    // ---- Ferries.

    /// Whether boarding is only the one-move fast ferry (1000 AD rule 9):
    /// no A/F is ever formed.
    fn ferry_only(&self) -> bool {
        false
    }

    // ---- Adjustments.

    /// Whether the game has units of `kind`.
    fn has_kind(&self, kind: UnitKind) -> bool {
        matches!(kind, UnitKind::Army | UnitKind::Fleet)
    }

    /// Whether `power` may build units of `kind` at all.
    fn may_build_kind(&self, _power: PowerId, _kind: UnitKind) -> bool {
        true
    }

    /// What a unit of `kind` costs, in half centres.
    fn upkeep(&self, kind: UnitKind) -> i32 {
        2 * kind.upkeep()
    }

    /// Centres `power` counts at this adjustment beyond those it owns on
    /// the board (raiders home, centres off the board).
    fn extra_centres(&self, _power: PowerId) -> u32 {
        0
    }

    /// Units built and waiting to be placed: units all the same.
    fn pending(&self) -> &[Unit] {
        &[]
    }

    /// Whether builds are a placement anywhere in the homeland (1000 AD's
    /// Winter 999), not builds in home centres.
    fn placement(&self) -> bool {
        false
    }

    /// Whether `p` is a build site of `power` now, and what may be built
    /// there. `owned`: the power owns `p`. The standard answer: its own
    /// home centres, when it owns them.
    fn build_site(
        &self,
        map: &Map,
        power: PowerId,
        p: ProvinceId,
        owned: bool,
    ) -> Result<BuildSite, Illegal> {
        let prov = map.province(p);
        if !prov.supply_centre || prov.home_of != Some(power) {
            return Err(Illegal::NotABuildSite);
        }
        if !owned {
            return Err(Illegal::NotOwned);
        }
        Ok(BuildSite::Open(None))
    }

    /// Why a build of `power` at `at`, a site it may build on, is refused
    /// for the builds already made this phase (`built`), where the
    /// variant limits how many of its sites it may use together
    /// (DPjudge's alternative home centres add sites, not builds).
    /// `start`: the units on the board before the builds.
    fn build_limited(
        &self,
        _map: &Map,
        _power: PowerId,
        _at: ProvinceId,
        _start: &[Unit],
        _built: &[Unit],
    ) -> Option<Illegal> {
        None
    }

    /// The most builds `power` may make this adjustment where the variant
    /// caps them below what its centres allow (DPjudge's alternative home
    /// centres: no more builds than open home centres that are not
    /// alternatives), so that the builds due say so. `units`: the units
    /// on the board. `None`: no cap.
    fn builds_most(&self, _map: &Map, _power: PowerId, _units: &[Unit]) -> Option<u32> {
        None
    }

    /// Off-board centres `power` has left to build from.
    fn reserve_left(&self, _power: PowerId) -> u32 {
        0
    }

    /// Whether `power` may turn a fleet standing on land into an army.
    fn may_convert(&self, _power: PowerId) -> bool {
        false
    }
}

/// The standard game's answers.
#[derive(Debug, Clone, Copy, Default)]
pub struct Standard;

impl RuleQuestions for Standard {}
