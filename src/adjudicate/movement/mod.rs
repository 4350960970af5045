//! The movement judge.
//!
//! The steps, a file each. `compile` checks every order against the
//! board and turns the legal ones into index-based commands (illegal ones
//! are reported and the unit holds, DATC 4.E.1). Then every move, support
//! and convoy is a yes/no *decision*: `strength` states what each means
//! (attack against hold, defend and prevent strengths, cut support, convoy
//! paths, DATC 5.B) and asks `resolve` for the decisions it needs; the
//! resolver caches results and runs Kruijswijk's guess algorithm (DATC
//! 5.F) when a decision depends on itself. A cycle with one consistent
//! answer takes it; a cycle with none or two goes to the backup rule:
//! circular movement succeeds, a convoy paradox is settled by the
//! rulebook's [`ParadoxRule`](super::rulebook::ParadoxRule) (Szykman by
//! default). Last, `results` says what became of each unit.
//!
//! Everything is kept in flat arrays indexed by unit or province, because a
//! judge serving many games, and the tests that run it many thousands of
//! times, should not pay for hashing.

mod compact;
mod compile;
mod marks;
mod owner_borders;
mod resolve;
mod results;
mod strength;

use super::Illegal;
use super::questions::{RuleQuestions, Standard};
use super::rulebook::Rulebook;
use crate::calendar::Phase;
use crate::map::{CoastId, Map, PowerId, ProvinceId, RegionId, Unit, UnitKind};
use crate::orders::MainOrder;
use resolve::Resolver;
use std::cell::RefCell;

pub use compact::{OrderIndex, UnitList};

const NONE: u16 = u16::MAX;
/// The hold strength of a unit the ice keeps from being dislodged.
const ICE: u32 = 1 << 20;
/// What a unit was ordered to do, once checked: the command the judge
/// adjudicated, with unit indices into the input board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// Held (also every unit without a legal order).
    Hold,
    /// Moved or tried to.
    Move {
        /// Destination region (the coast is settled).
        to: RegionId,
        /// Whether it travelled by convoy.
        convoy: bool,
    },
    /// Supported the unit at index `unit` in place.
    SupportHold {
        /// Index of the supported unit.
        unit: u16,
    },
    /// Supported the unit at index `unit` into `to`.
    SupportMove {
        /// Index of the supported unit.
        unit: u16,
        /// Where it was supported to.
        to: ProvinceId,
    },
    /// Convoyed the army at index `army` to `to`.
    Convoy {
        /// Index of the convoyed army.
        army: u16,
        /// Destination.
        to: ProvinceId,
    },
    /// Destroyed the units waiting in a box (1066 rule 4).
    Destroy,
}

/// What became of a unit's order, and who caused it: what the result mail
/// prints beside it ("bounced with A(Mun)", "cut by F(ION)").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Held (or had no legal order).
    Held,
    /// Moved.
    Moved,
    /// The move failed: a standoff, or a stronger defence.
    Bounced {
        /// The units that stopped it, by index: the unit at the
        /// destination that held (or failed to leave, or won the
        /// head-to-head battle), then each other unit moving there at
        /// least as strongly. Empty when the move failed only because a
        /// move it depends on failed (an A/F's landing and its fleet).
        /// Kept in place up to seven units (every standoff of the
        /// standard map): no allocation for a bounce.
        with: UnitList,
    },
    /// The move needed a convoy and the convoy failed.
    NoConvoy,
    /// The support was given.
    Supported,
    /// The support was cut by the unit at this index.
    Cut(usize),
    /// The supported unit did something else: the support is void.
    SupportVoid,
    /// The army was carried.
    Convoyed,
    /// The convoy failed: the fleet was dislodged, or it was the fleet of a
    /// convoy paradox.
    ConvoyFailed,
    /// The named army did not move there by convoy: the convoy is void.
    ConvoyVoid,
    /// The destroy order was carried out.
    Destroying,
}

/// A dislodged unit and how it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dislodgement {
    /// Index of the unit that dislodged it.
    pub by: usize,
    /// Province the attacker came from.
    pub from: ProvinceId,
    /// Whether the attacker came by convoy (then the dislodged unit may
    /// retreat to the attacker's province: 2023 rulebook, DATC 4.A.5).
    pub by_convoy: bool,
    /// Where it may retreat to.
    pub retreats: Vec<RegionId>,
}

/// The result for one unit of the input board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitResult {
    /// Index of the submitted order that was carried out, if any.
    pub order: Option<OrderIndex>,
    /// The command adjudicated.
    pub command: Resolved,
    /// What became of it.
    pub outcome: Outcome,
    /// Set when the unit was dislodged. Boxed: few units are, and a small
    /// result keeps the judge fast.
    pub dislodged: Option<Box<Dislodgement>>,
    /// What a variant's rule adds to this unit's result, in one place:
    /// standard Diplomacy adds nothing ([`Special::None`]).
    pub special: Special,
}

// A standard phase's results (22 units) in one allocation that glibc's
// per-thread cache serves (chunks up to 1,032 bytes): at 48 bytes a result
// the 1,056 bytes missed it by 24 and cost every judgement some 1,300
// instructions in malloc and free (issue #36). Anything rare and large
// goes behind a box or beside the results ([`MovementResult::landings`]).
const _: () = assert!(size_of::<UnitResult>() <= 40);

/// What a variant's rule adds to a unit's result, one variant per rule
/// that produces it. A unit's result has at most one: no rule of a shipped
/// variant gives the same unit two of these in one phase (boxes and
/// destroy orders are never judged with A/Fs; a defensive army neither
/// boards nor carries).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Special {
    /// Nothing: every unit of standard Diplomacy.
    #[default]
    None,
    /// The unit was destroyed where it stood: 1066 rule 4 (William's
    /// armies still waiting in the Straits of Dover when an enemy orders
    /// them destroyed), Ard-Ri rule 6 (a raider whose return bounced; it
    /// cannot retreat).
    Destroyed,
    /// Abstraction II rule 3, embarkation: the army went aboard a fleet
    /// (it boarded, or its fast ferry could not land it) and is part of
    /// that fleet's A/F now, off the board as a unit of its own.
    Boarded,
    /// Abstraction II rule 3: the fleet carries an army after the phase,
    /// so it is (or stays, or becomes) an A/F: an army boarded it, it
    /// was an A/F that did not land its army, or its fast ferry could not
    /// land the army it carried.
    Laden,
    /// Abstraction II rule 3, disembarkation: this A/F gave a
    /// disembarking order (it and what became of it are in
    /// [`MovementResult::landing`]). Where the army landed, the A/F is a
    /// plain fleet after the phase and the army stands at `landed`;
    /// otherwise it stays an A/F.
    Disembarked {
        /// Where the army now stands, when it landed.
        landed: Option<RegionId>,
    },
    /// 1000 AD's fast ferry (rule 9 as played): this fleet gave a
    /// disembarking order for the army it carried across one sea (it and
    /// what became of it are in [`MovementResult::landing`]). The army's
    /// own result says where it went; the fleet stays a fleet.
    Ferried,
    /// 1000 AD rule 8: a defensive army's support that stood is worn down
    /// rather than cut; this is what it was worth after the attacks on it,
    /// so the results let players check the rule's table.
    SupportLeft(u32),
}

/// A disembarking order and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Landing {
    /// Index of the disembarking order among the orders given.
    pub order: usize,
    /// What became of the landing.
    pub outcome: Outcome,
}

impl UnitResult {
    /// [`UnitResult::order`] as an index into the orders given.
    pub fn order_index(&self) -> Option<usize> {
        self.order.map(OrderIndex::get)
    }

    /// The unit was destroyed where it stood ([`Special::Destroyed`]).
    pub fn destroyed(&self) -> bool {
        self.special == Special::Destroyed
    }

    /// The army went aboard a fleet ([`Special::Boarded`]).
    pub fn boarded(&self) -> bool {
        self.special == Special::Boarded
    }

    /// What the unit is after the phase, when a rule says (a fleet that
    /// carries an army is an A/F; an A/F that landed its army, a fleet).
    pub fn becomes(&self) -> Option<UnitKind> {
        match &self.special {
            Special::Laden => Some(UnitKind::ArmyFleet),
            Special::Disembarked { landed: None, .. } => Some(UnitKind::ArmyFleet),
            Special::Disembarked {
                landed: Some(_), ..
            } => Some(UnitKind::Fleet),
            _ => None,
        }
    }

    /// Where the army this A/F landed now stands.
    pub fn landed(&self) -> Option<RegionId> {
        match &self.special {
            Special::Disembarked { landed, .. } => *landed,
            _ => None,
        }
    }

    /// What a worn-down support was worth ([`Special::SupportLeft`]).
    pub fn support_left(&self) -> Option<u32> {
        match self.special {
            Special::SupportLeft(v) => Some(v),
            _ => None,
        }
    }
}

/// What [`adjudicate_movement_prepared`] adds to a movement phase.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prepared {
    /// Armies disembarking from A/Fs: units of the board no order names.
    pub aboard: Vec<Aboard>,
    /// Pairs `(a, b)`: `a`'s move succeeds only if `b`'s does too.
    pub needs: Vec<(usize, usize)>,
    /// Armies carried by a fleet in one move (1000 AD's fast ferry): they
    /// move from where they stand to the province given, across the sea,
    /// and stay put if the landing fails.
    pub ferried: Vec<(usize, ProvinceId)>,
    /// Units whose own strength (moving, holding) is not their kind's
    /// (1700 AD: a double-strength move).
    pub strength: Vec<(usize, u32)>,
    /// Units whose support is worth other than their kind's strength
    /// (1700 AD: a double-strength support of a double-strength move).
    pub support: Vec<(usize, u32)>,
    /// Box units that move this phase from the region given, whatever
    /// their order names (1066 rule 5: each of Harald's waiting A/Fs from
    /// the sea it stands in).
    pub from: Vec<(usize, RegionId)>,
    /// Units that hold with other than their own strength when their move
    /// fails (1700 AD rule 7: a leader moves with three, holds with one).
    pub held: Vec<(usize, u32)>,
    /// Borders shut to some powers this phase, for want of the centres
    /// the map asks them to own (`Map::closed_borders`: Imperial's
    /// Bosporus).
    pub closed: Vec<crate::map::ClosedBorder>,
}

/// An army aboard an A/F that disembarks this move (Abstraction II): a
/// unit of its own for the judge, at the A/F's sea, that can be neither
/// attacked nor supported in place, moving to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aboard {
    /// Its index in the units given to the judge.
    pub unit: usize,
    /// Where it lands.
    pub to: ProvinceId,
}

/// The result of a movement phase.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MovementResult {
    /// One entry per input unit, in input order.
    pub units: Vec<UnitResult>,
    /// One entry per submitted order: `None` if it was carried out (its
    /// unit's result says how), or why it was not.
    pub orders: Vec<Option<Illegal>>,
    /// Provinces left empty by a standoff: no retreat may go there.
    pub contested: Vec<ProvinceId>,
    /// The disembarking orders of A/Fs and ferrying fleets
    /// ([`Special::Disembarked`], [`Special::Ferried`]) and what became of
    /// them, by unit index. Kept here rather than in the units' results:
    /// few phases have any, and a unit's result stays small (see
    /// [`UnitResult`]).
    pub landings: Vec<(usize, Landing)>,
}

impl MovementResult {
    /// The disembarking order of unit `u` (an A/F or a ferrying fleet), if
    /// it gave one, and what became of it.
    pub fn landing(&self, u: usize) -> Option<&Landing> {
        self.landings
            .iter()
            .find(|(v, _)| *v == u)
            .map(|(_, landing)| landing)
    }

    /// The board after the phase: units that moved stand at their
    /// destination; dislodged units are left out (they are in
    /// [`MovementResult::dislodged`]).
    pub fn units_after(&self, units: &[Unit]) -> Vec<Unit> {
        units
            .iter()
            .zip(&self.units)
            .filter(|(_, r)| r.dislodged.is_none() && !r.destroyed() && !r.boarded())
            .flat_map(|(u, r)| {
                let mut here = match (r.command, &r.outcome) {
                    (Resolved::Move { to, .. }, Outcome::Moved) => Unit { region: to, ..*u },
                    _ => *u,
                };
                if let Some(k) = r.becomes() {
                    here.kind = k;
                }
                let landed = r.landed().map(|region| Unit {
                    power: u.power,
                    kind: UnitKind::Army,
                    region,
                });
                std::iter::once(here).chain(landed)
            })
            .collect()
    }

    /// Armies landed from A/Fs that were dislodged: they stand on the board
    /// although their fleet is dislodged.
    pub fn landed_from_dislodged(&self, units: &[Unit]) -> Vec<Unit> {
        units
            .iter()
            .zip(&self.units)
            .filter(|(_, r)| r.dislodged.is_some())
            .filter_map(|(u, r)| {
                r.landed().map(|region| Unit {
                    power: u.power,
                    kind: UnitKind::Army,
                    region,
                })
            })
            .collect()
    }

    /// The dislodged units with their retreat options.
    pub fn dislodged<'a>(
        &'a self,
        units: &'a [Unit],
    ) -> impl Iterator<Item = (Unit, &'a Dislodgement)> + 'a {
        units.iter().zip(&self.units).filter_map(|(u, r)| {
            r.dislodged.as_ref().map(|d| {
                let kind = r.becomes().unwrap_or(u.kind);
                (Unit { kind, ..*u }, &**d)
            })
        })
    }
}

/// Tagged by a plain byte: matched at every step of the judge, it is read
/// with one load rather than decoded from a flag's spare values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Cmd {
    Hold,
    Move {
        to: u16,
        region: RegionId,
        convoy: bool,
        needs_convoy: bool,
        via: bool,
        /// Off the board into a box: always succeeds, touches nobody.
        into_box: bool,
    },
    Destroy,
    SupHold {
        target: u16,
    },
    SupMove {
        target: u16,
        to: u16,
        coast: Option<CoastId>,
    },
    Convoy {
        army: u16,
        to: u16,
    },
}

/// What the movement judge judges on: the map, the rule options and the
/// variant's answers to rule questions, the phase, and the units on the
/// board. One value, so that every entry point and every step of the judge
/// takes the same thing.
#[derive(Clone, Copy)]
pub struct Board<'a> {
    /// The map.
    pub map: &'a Map,
    /// The rule options (DATC section 4).
    pub rules: &'a Rulebook,
    /// The variant's answers (off-board boxes, the destroy order, ice).
    pub questions: &'a dyn RuleQuestions,
    /// The phase, for rules that depend on the season (`None`: any).
    pub phase: Option<Phase>,
    /// The units; results are given in this order.
    pub units: &'a [Unit],
}

impl<'a> Board<'a> {
    /// A board of the standard game.
    pub fn standard(map: &'a Map, rules: &'a Rulebook, units: &'a [Unit]) -> Board<'a> {
        Board {
            map,
            rules,
            questions: &Standard,
            phase: None,
            units,
        }
    }

    /// Adjudicate the movement phase `orders` (in the order received:
    /// later orders to the same unit replace earlier ones under the
    /// default rulebook). Units without a legal order hold.
    pub fn adjudicate(&self, orders: &[MainOrder]) -> MovementResult {
        self.adjudicate_prepared(orders, &Prepared::default())
    }

    /// [`Board::adjudicate`] with armies disembarking from A/Fs and the
    /// moves that depend on each other (an A/F's fleet may sail only if its
    /// army lands; an army lands from the sea its fleet sails to only if
    /// the fleet gets there), fast ferries and strength overrides.
    ///
    /// Judged in a [`Judge`] kept by the thread, so that a caller that
    /// judges many phases (the daemon, the DATC runner, a variant's judge
    /// that calls this one) reuses its tables; only the result's own lists
    /// are new each time, as they are handed over. A call made while the
    /// thread's judge is busy (a variant's question that judges again)
    /// gets a judge of its own.
    pub fn adjudicate_prepared(&self, orders: &[MainOrder], prepared: &Prepared) -> MovementResult {
        thread_local! {
            static KEPT: RefCell<Judge> = RefCell::new(Judge::new());
        }
        let judged = KEPT.try_with(|kept| {
            let mut judge = kept.try_borrow_mut().ok()?;
            judge.judge(self, orders, prepared);
            Some(std::mem::take(&mut judge.result))
        });
        judged.ok().flatten().unwrap_or_else(|| {
            let mut judge = Judge::default();
            judge.judge(self, orders, prepared);
            judge.result
        })
    }
}

/// The movement judge with its working memory kept between judgements:
/// the tables of units and provinces, the resolver's state and the
/// result itself. A caller that judges many phases (a daemon, a test
/// suite, a benchmark) keeps one and allocates nothing once the tables
/// have grown to the largest board it has judged; the result is lent out
/// until the next judgement.
#[derive(Default)]
pub struct Judge {
    slot: Vec<Slot>,
    place: Vec<Place>,
    resolver: resolve::Scratch,
    result: MovementResult,
}

impl Judge {
    /// A judge with no memory yet.
    pub fn new() -> Judge {
        Judge::default()
    }

    /// [`Board::adjudicate`] in this judge's memory.
    pub fn adjudicate(&mut self, board: &Board<'_>, orders: &[MainOrder]) -> &MovementResult {
        self.judge(board, orders, &Prepared::default());
        &self.result
    }

    /// [`Board::adjudicate_prepared`] in this judge's memory.
    pub fn adjudicate_prepared(
        &mut self,
        board: &Board<'_>,
        orders: &[MainOrder],
        prepared: &Prepared,
    ) -> &MovementResult {
        self.judge(board, orders, prepared);
        &self.result
    }

    fn judge(&mut self, board: &Board<'_>, orders: &[MainOrder], prepared: &Prepared) {
        let slot = std::mem::take(&mut self.slot);
        let place = std::mem::take(&mut self.place);
        let mut c = Compiled::new(*board, slot, place);
        c.prepare(prepared);
        c.compile(orders, &mut self.result.orders);
        c.ferry(&prepared.ferried);
        c.link();
        c.mark_crossings();
        let n = board.units.len();
        let mut r = Resolver::reusing(n, std::mem::take(&mut self.resolver));
        // The moves nobody opposes first: they depend on nothing, and a
        // move into the province one of them leaves is then settled
        // without weighing (`Compiled::follows`).
        for u in 0..n {
            if let Some(moved) = c.unopposed(u) {
                r.settle(u, moved);
            }
        }
        for u in 0..n {
            if r.settled(u).is_none() && c.has_decision(u) {
                r.resolve(&c, u);
            }
        }
        c.results(&mut r, &mut self.result);
        self.resolver = r.scratch();
        self.slot = c.slot;
        self.place = c.place;
    }
}

/// Adjudicate a movement phase of the standard game.
///
/// `units` is the board; `orders` are the orders given, in the order they
/// were received (later orders to the same unit replace earlier ones under
/// the default rulebook). Units without a legal order hold.
pub fn adjudicate_movement(
    map: &Map,
    rules: &Rulebook,
    units: &[Unit],
    orders: &[MainOrder],
) -> MovementResult {
    Board::standard(map, rules, units).adjudicate(orders)
}

/// Adjudicate a movement phase of a variant whose rules answer `q`
/// (off-board boxes, the destroy order, ice), in `phase`: the same as
/// [`Board::adjudicate`], for callers that have the parts at hand.
pub fn adjudicate_movement_in(
    map: &Map,
    rules: &Rulebook,
    q: &dyn RuleQuestions,
    phase: Option<Phase>,
    units: &[Unit],
    orders: &[MainOrder],
) -> MovementResult {
    Board {
        map,
        rules,
        questions: q,
        phase,
        units,
    }
    .adjudicate(orders)
}

/// [`adjudicate_movement_in`] with what [`Prepared`] adds: the same as
/// [`Board::adjudicate_prepared`].
pub fn adjudicate_movement_prepared(
    map: &Map,
    rules: &Rulebook,
    q: &dyn RuleQuestions,
    phase: Option<Phase>,
    units: &[Unit],
    orders: &[MainOrder],
    prepared: &Prepared,
) -> MovementResult {
    Board {
        map,
        rules,
        questions: q,
        phase,
        units,
    }
    .adjudicate_prepared(orders, prepared)
}

/// What the variant's features add to the judge for one phase (see
/// [`Prepared`]), per unit. Each table is empty until a feature sets an
/// entry (the standard game sets none, and allocates nothing here).
#[derive(Default)]
struct Hooks {
    /// Armies aboard A/Fs, disembarking (Abstraction II).
    aboard: Vec<bool>,
    /// A unit whose move must also succeed for this unit's move to.
    needs: Vec<u16>,
    /// Moves carried by a ferry: no convoy chain needed.
    aboard_path: Vec<bool>,
    /// Where a box unit moves from, fixed before the orders are read.
    fixed_from: Vec<Option<RegionId>>,
    /// Moves across marked borders ([`marks`]).
    crossing: Vec<crate::map::Crossing>,
    /// The strength a unit holds with when its move fails, if not its
    /// own (0: its own).
    held: Vec<u32>,
    /// Borders shut to some powers ([`owner_borders`]).
    closed: Vec<crate::map::ClosedBorder>,
}

impl Hooks {
    /// Set entry `u` of a table, making it (`n` entries of `empty`) first.
    fn set<T: Clone>(
        &mut self,
        n: usize,
        table: impl FnOnce(&mut Hooks) -> &mut Vec<T>,
        empty: T,
        u: usize,
        value: T,
    ) {
        let t = table(self);
        if t.is_empty() {
            *t = vec![empty; n];
        }
        t[u] = value;
    }

    fn aboard(&self, u: usize) -> bool {
        self.aboard.get(u).copied().unwrap_or(false)
    }

    fn needs(&self, u: usize) -> u16 {
        self.needs.get(u).copied().unwrap_or(NONE)
    }

    fn aboard_path(&self, u: usize) -> bool {
        self.aboard_path.get(u).copied().unwrap_or(false)
    }

    fn crossing(&self, u: usize) -> crate::map::Crossing {
        self.crossing
            .get(u)
            .copied()
            .unwrap_or(crate::map::Crossing::Full)
    }

    fn fixed_from(&self, u: usize) -> Option<RegionId> {
        self.fixed_from.get(u).copied().flatten()
    }

    fn held(&self, u: usize) -> Option<u32> {
        self.held.get(u).copied().filter(|&s| s != 0)
    }
}

/// What the judge knows of one unit while it judges, kept together: one
/// allocation for the lot, and what the resolver reads of a unit in one
/// place in memory.
#[derive(Clone, Copy)]
struct Slot {
    /// The unit's province.
    prov: u16,
    /// The unit stands in an off-board box (any number per box).
    in_box: bool,
    /// The ice holds the unit this season (see [`Compiled::icebound`]).
    ice: bool,
    /// The strength it brings alone: its kind's, unless the phase says
    /// otherwise ([`Prepared::strength`]).
    strength: u32,
    /// What its support is worth before any wearing down: its kind's
    /// strength, unless the phase says otherwise ([`Prepared::support`]).
    support: u32,
    /// A support or convoy that matches the order it names.
    valid: bool,
    /// A second, different order for the unit under the rulebook's
    /// "conflicting orders hold" option.
    conflict: bool,
    /// The order carried out by the unit (`u32::MAX`: none).
    order_of: u32,
    /// The unit's command.
    cmd: Cmd,
    /// A box unit that moves this phase as if it stood in this region
    /// (1066: Harald's A/Fs, secretly in GER or WAS).
    from_region: Option<RegionId>,
    /// A support or convoy whose unit is found once every order is known
    /// (a box unit coming onto the board, 1066 rules 4 and 7; a unit where
    /// the orderer may not know what stands): the place and kind named.
    named: Option<(ProvinceId, Option<UnitKind>)>,
    /// The first of the valid supports of this unit, in unit order
    /// (`NONE`: none); each links to the next by [`Slot::next`].
    sup: u16,
    /// The first of the valid convoys of this army, likewise.
    cvy: u16,
    /// The next unit in the support or convoy list this unit's valid
    /// support or convoy is in (a unit gives at most one).
    next: u16,
    /// The next unit moving into the province this unit moves into.
    next_att: u16,
}

/// What the judge knows of one province. Aligned to eight bytes so that
/// filling the table for every province of the map is a few wide stores.
#[derive(Clone, Copy)]
#[repr(align(8))]
struct Place {
    /// The unit in it (`NONE`: nobody; boxes hold none, see
    /// [`Slot::in_box`]).
    unit: u16,
    /// The first of the units moving into it, in unit order (`NONE`:
    /// none); each links to the next by [`Slot::next_att`].
    att: u16,
    /// What the results found of it: [`results::OCCUPIED`] and
    /// [`results::CONTESTED`].
    flags: u8,
}

/// A phase's orders compiled against the board: what the rules of
/// [`strength`] decide on. The resolver's own state is apart, in
/// [`Resolver`].
struct Compiled<'a> {
    b: Board<'a>,
    /// Per unit of the board.
    slot: Vec<Slot>,
    /// Per province of the map.
    place: Vec<Place>,
    hooks: Hooks,
}

impl<'a> Compiled<'a> {
    /// The tables for board `b`, in the memory of an earlier judgement's
    /// (`slot`, `place`: cleared here).
    fn new(b: Board<'a>, mut slot: Vec<Slot>, mut place: Vec<Place>) -> Self {
        let empty = Place {
            unit: NONE,
            att: NONE,
            flags: 0,
        };
        // The same map as last time (the usual case): overwrite in place,
        // a few wide stores, rather than grow the table again.
        let provinces = b.map.provinces().len();
        if place.len() == provinces {
            place.fill(empty);
        } else {
            place.clear();
            place.resize(provinces, empty);
        }
        // Asked once per judgement, then per unit only where the ice is.
        let ice = b.questions.has_ice();
        slot.clear();
        slot.extend(b.units.iter().enumerate().map(|(i, u)| {
            let p = b.map.province_of(u.region).0;
            // A box holds any number of units and can be neither
            // attacked nor supported: its units are not "the unit in"
            // it.
            let in_box = b.map.is_off_board(ProvinceId(p));
            if !in_box {
                place[p as usize].unit = i as u16;
            }
            let strength = u.kind.strength();
            Slot {
                prov: p,
                in_box,
                ice: ice && b.questions.icebound(ProvinceId(p), u.kind, b.phase),
                strength: marks::own(strength),
                support: strength * marks::UNIT,
                valid: false,
                conflict: false,
                order_of: u32::MAX,
                cmd: Cmd::Hold,
                from_region: None,
                named: None,
                sup: NONE,
                cvy: NONE,
                next: NONE,
                next_att: NONE,
            }
        }));
        Compiled {
            b,
            slot,
            place,
            hooks: Hooks::default(),
        }
    }

    fn power(&self, u: usize) -> PowerId {
        self.b.units[u].power
    }

    /// Take in what the variant's features add before the orders are
    /// checked: armies disembarking (units no order names, not "the unit
    /// in" their sea), moves that need others, strength overrides.
    fn prepare(&mut self, prepared: &Prepared) {
        let n_units = self.b.units.len();
        for a in &prepared.aboard {
            self.hooks
                .set(n_units, |h| &mut h.aboard, false, a.unit, true);
            // Not "the unit in" the sea: the fleet element is.
            if self.place[self.slot[a.unit].prov as usize].unit == a.unit as u16 {
                self.place[self.slot[a.unit].prov as usize].unit = NONE;
            }
        }
        if !prepared.aboard.is_empty() {
            for u in 0..self.b.units.len() {
                if !self.hooks.aboard(u)
                    && self.place[self.slot[u].prov as usize].unit == NONE
                    && !self.slot[u].in_box
                {
                    self.place[self.slot[u].prov as usize].unit = u as u16;
                }
            }
        }
        for a in &prepared.aboard {
            let prov = self.b.map.province(a.to);
            self.slot[a.unit].cmd = Cmd::Move {
                to: a.to.0,
                region: prov.main_region(),
                // Landed from a boat: no head-to-head with a unit coming
                // the other way.
                convoy: true,
                needs_convoy: false,
                via: false,
                into_box: false,
            };
        }
        for &(a, b) in &prepared.needs {
            self.hooks.set(n_units, |h| &mut h.needs, NONE, a, b as u16);
        }
        for &(u, v) in &prepared.strength {
            if v != 0 {
                self.slot[u].strength = marks::own(v);
            }
        }
        for &(u, v) in &prepared.support {
            if v != 0 {
                self.slot[u].support = v * marks::UNIT;
            }
        }
        for &(u, r) in &prepared.from {
            self.hooks
                .set(n_units, |h| &mut h.fixed_from, None, u, Some(r));
        }
        if !prepared.closed.is_empty() {
            self.hooks.closed.clone_from(&prepared.closed);
        }
        for &(u, s) in &prepared.held {
            // In the judge's count, as the unit's own strength is.
            self.hooks
                .set(n_units, |h| &mut h.held, 0, u, marks::own(s));
        }
    }

    /// Armies carried by the fast ferry, once their orders are checked:
    /// they cross the sea whatever their order said.
    fn ferry(&mut self, ferried: &[(usize, ProvinceId)]) {
        let n_units = self.b.units.len();
        for &(a, to) in ferried {
            self.hooks
                .set(n_units, |h| &mut h.aboard_path, false, a, true);
            self.slot[a].cmd = Cmd::Move {
                to: to.0,
                region: self.b.map.province(to).main_region(),
                convoy: true,
                needs_convoy: true,
                via: true,
                into_box: false,
            };
        }
    }
}
