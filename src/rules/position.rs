//! A position: the phase, the units, who owns each centre, and (in a
//! retreat phase) the dislodged units with their options.
//!
//! Positions have a small TOML form, so a GM can write one by hand, chain
//! phases with `zinejudge adjudicate`, and keep them in files:
//!
//! ```toml
//! phase = "Fall 1901 movement"
//!
//! [units]
//! England = ["F Lon", "F NTH", "A Yor"]
//! Russia = ["F StP/sc"]
//!
//! [centres]
//! England = ["Edi", "Lon", "Lvp"]
//!
//! [[dislodged]]          # retreat phases only
//! power = "Austria"
//! unit = "F Tri"
//! retreats = ["Alb", "Ven"]
//! ```

use super::Ruleset;
use crate::calendar::Phase;
use crate::map::builder::LoadError;
use crate::map::builder::{LineIndex, Problem};
use crate::map::wire::{UnitAt, with_map};
use crate::map::{Map, Named, PowerId, ProvinceId, RegionId, Unit, UnitKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use toml::Spanned;

/// The state of a game at the start of a phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// The phase about to be played.
    pub phase: Phase,
    /// Units on the board.
    pub units: Vec<Unit>,
    /// Owner of each province (meaningful for supply centres), indexed by
    /// province id.
    pub owners: Vec<Option<PowerId>>,
    /// In a retreat phase: dislodged units and where each may go.
    pub dislodged: Vec<(Unit, Vec<RegionId>)>,
    /// What the variant's rules keep beyond the board.
    pub state: RuleState,
}

pub use crate::rules::exchange::Exchange;
pub use crate::rules::{Anarchy, RuleState};

impl Position {
    /// The start of a new game: the variant's first phase, starting units,
    /// and each power owning its home centres.
    pub fn initial(v: &(impl Ruleset + ?Sized)) -> Position {
        let mut owners = vec![None; v.map().provinces().len()];
        for pw in v.map().power_ids() {
            for &h in &v.map().power(pw).starting_centres {
                owners[h.index()] = Some(pw);
            }
        }
        Position {
            phase: v.calendar().start,
            units: v
                .starting_units()
                .iter()
                .map(|s| Unit {
                    power: s.power,
                    kind: s.kind,
                    region: s.region,
                })
                .collect(),
            owners,
            dislodged: Vec::new(),
            state: RuleState {
                reserve: crate::map::wire::PerPower(
                    v.map()
                        .power_ids()
                        .map(|p| v.features().reserve_of(p).map_or(0, |r| r.centres))
                        .collect(),
                ),
                garrisons: v.features().garrisons.iter().map(|(p, _)| *p).collect(),
                // Where fleets stand beside land units (1700 AD II), each
                // power's coasts at the start: its home centres and where
                // its units stand.
                friendly: crate::map::wire::PerPower(if v.map().stacking().fleets_beside_armies {
                    v.map()
                        .power_ids()
                        .map(|pw| {
                            let mut f: Vec<ProvinceId> = v.map().power(pw).home_centres.clone();
                            for s in v.starting_units().iter().filter(|s| s.power == pw) {
                                let p = v.map().province_of(s.region);
                                if !f.contains(&p) {
                                    f.push(p);
                                }
                            }
                            f.retain(|p| {
                                v.map().province(*p).terrain == crate::map::Terrain::Coast
                            });
                            f
                        })
                        .collect()
                } else {
                    vec![Vec::new(); v.map().powers().len()]
                }),
                waiting: crate::rules::waiting::starting_places(v),
                ..RuleState::sized(v.map().powers().len())
            },
        }
    }

    /// Take `power` out of the game before it starts (an optional power the
    /// GM did not choose): no units, no centres on or off the board.
    pub fn leave_out(&mut self, power: PowerId) {
        self.units.retain(|u| u.power != power);
        for o in &mut self.owners {
            if *o == Some(power) {
                *o = None;
            }
        }
        if let Some(r) = self.state.reserve.get_mut(power) {
            *r = 0;
        }
    }

    /// The unit in province `p`, if any.
    pub fn unit_in(&self, map: &Map, p: ProvinceId) -> Option<&Unit> {
        self.units.iter().find(|u| map.province_of(u.region) == p)
    }

    /// Supply centres owned per power.
    pub fn centre_counts(&self, map: &Map) -> Vec<u32> {
        let mut c = vec![0; map.powers().len()];
        for (p, o) in self.owners.iter().enumerate() {
            if let Some(o) = o
                && map.provinces()[p].supply_centre
            {
                c[o.index()] += 1;
            }
        }
        c
    }

    /// Whether `p` has nothing left in the game: no centre on the board or
    /// off it (Ard-Ri's Vikings hold theirs off the board), no unit on
    /// the board, dislodged, or built and waiting to be placed. Only then
    /// is a power out; centres alone on the board do not say it.
    pub fn has_nothing(&self, map: &Map, p: PowerId) -> bool {
        self.centre_counts(map)[p.index()] == 0
            && self.state.reserve.get(p).copied().unwrap_or(0) == 0
            && !self.units.iter().any(|u| u.power == p)
            && !self.dislodged.iter().any(|(u, _)| u.power == p)
            && !self.state.pending.iter().any(|u| u.power == p)
    }

    /// The TOML form described in the module docs.
    pub fn to_toml(&self, v: &(impl Ruleset + ?Sized)) -> String {
        let map = &v.map();
        let mut units: BTreeMap<PowerId, Vec<UnitAt>> = BTreeMap::new();
        for u in &self.units {
            units.entry(u.power).or_default().push((*u).into());
        }
        let mut centres: BTreeMap<PowerId, Vec<ProvinceId>> = BTreeMap::new();
        for (p, o) in self.owners.iter().enumerate() {
            if let Some(o) = o
                && map.provinces()[p].supply_centre
            {
                centres.entry(*o).or_default().push(ProvinceId(p as u16));
            }
        }
        let wire = Wire {
            phase: v.calendar().label(self.phase),
            units,
            centres,
            dislodged: self
                .dislodged
                .iter()
                .map(|(u, options)| WireDislodged {
                    power: u.power,
                    unit: (*u).into(),
                    retreats: options.iter().map(|r| map.region_abbr(*r)).collect(),
                })
                .collect(),
            // Written whenever reading it back without it would give
            // another state (see `unstated`).
            state: (!self.state.is_empty()
                || !v.features().garrisons.is_empty()
                || map.stacking().fleets_beside_armies)
                .then(|| self.state.clone()),
        };
        // Everything in a position names things of its own map; a failure
        // here would be a bug in a rule, which the store refuses (see
        // `Position::stored`).
        with_map(map, || toml::to_string(&wire)).unwrap_or_else(|e| format!("# {e}\n"))
    }

    /// The stored form, checked to read back as this very position: a rule
    /// that produced a position the judge could not read again would jam
    /// the game, so the caller keeps the game at its last good phase
    /// instead.
    pub fn stored(&self, v: &(impl Ruleset + ?Sized)) -> Result<String, LoadError> {
        let text = self.to_toml(v);
        let back = Position::from_toml(v, &text)?;
        if back.canonical() != self.canonical() {
            return Err(LoadError {
                problems: vec![Problem {
                    line: 0,
                    message: format!(
                        "the position after {} does not read back as itself",
                        v.calendar().label(self.phase)
                    ),
                }],
            });
        }
        Ok(text)
    }

    /// This position with its lists in one order (what a round trip
    /// through the stored form may reorder).
    pub fn canonical(&self) -> Position {
        let mut c = self.clone();
        let key = |u: &Unit| (u.power, u.region, u.kind.letter());
        c.units.sort_by_key(key);
        c.dislodged.sort_by_key(|(u, _)| key(u));
        for (_, o) in &mut c.dislodged {
            o.sort();
        }
        c.state.pending.sort_by_key(key);
        c.state.arrived.sort_by_key(key);
        c.state.blocked.sort_by_key(key);
        c.state.garrisons.sort();
        let by_from = |x: &Exchange| (x.from, x.to, x.give.clone(), x.take.clone());
        c.state.offers.sort_by_key(by_from);
        c.state.exchanged.sort_by_key(by_from);
        c.state.unmade.sort_by_key(|x| by_from(&x.offer));
        for l in c.state.friendly.0.iter_mut() {
            l.sort();
        }
        for l in c.state.permits.0.iter_mut() {
            l.sort();
        }
        for l in c.state.held_since.0.iter_mut() {
            l.sort();
        }
        for l in c.state.waiting.0.iter_mut() {
            l.sort();
        }
        c
    }

    /// The phase of a stored position as it is written there (the
    /// calendar's label, as [`Position::to_toml`] writes it), read from its
    /// `phase` line alone: a list of a thousand games shows each one's
    /// phase without reading a thousand boards. `None` when the line is
    /// not found before the first table (then read the whole position).
    pub fn stored_phase(text: &str) -> Option<String> {
        #[derive(Deserialize)]
        struct Head {
            phase: String,
        }
        for line in text.lines() {
            let t = line.trim_start();
            if t.starts_with('[') {
                return None;
            }
            if t.strip_prefix("phase")
                .is_some_and(|r| r.trim_start().starts_with('='))
            {
                return toml::from_str::<Head>(t).ok().map(|h| h.phase);
            }
        }
        None
    }

    /// Read the TOML form, reporting every problem of the board with its
    /// line (and the first of the `[state]` table).
    pub fn from_toml(v: &(impl Ruleset + ?Sized), text: &str) -> Result<Position, LoadError> {
        let lines = LineIndex::new(text);
        let map = &v.map();
        let wire: WireIn = with_map(map, || toml::from_str(text)).map_err(|e| LoadError {
            problems: vec![Problem {
                line: e.span().map_or(0, |s| lines.line(s.start)),
                message: e.message().trim().to_string(),
            }],
        })?;
        let mut problems = Vec::new();
        let mut at = |s: std::ops::Range<usize>, m: String| {
            problems.push(Problem {
                line: lines.line(s.start),
                message: m,
            })
        };
        let phase = match v.calendar().parse(wire.phase.get_ref()) {
            Ok(p) => p,
            Err(e) => {
                at(wire.phase.span(), e.to_string());
                v.calendar().start
            }
        };
        let mut units: Vec<Unit> = Vec::new();
        for (power, list) in &wire.units {
            let Some(pw) = map.lookup_power(power.get_ref()) else {
                at(power.span(), format!("unknown power `{}`", power.get_ref()));
                continue;
            };
            for u in list {
                match parse_unit(map, u.get_ref()) {
                    Ok((kind, _)) if !v.features().has_kind(kind) => at(
                        u.span(),
                        format!("`{}`: this game has no units of that kind", u.get_ref()),
                    ),
                    Ok((kind, region)) => {
                        let p = map.province_of(region);
                        // A box holds any number of units; the variant's
                        // stacking rules say who else may share.
                        let others: Vec<Unit> = units
                            .iter()
                            .copied()
                            .filter(|x| map.province_of(x.region) == p)
                            .collect();
                        if !map.may_stand(p, pw, kind, &others) {
                            at(
                                u.span(),
                                format!("a second unit in `{}`", map.province(p).abbr),
                            );
                        }
                        if kind == UnitKind::Leader
                            && let Some(m) = second_leader(v, &units, pw)
                        {
                            at(u.span(), m);
                        }
                        units.push(Unit {
                            power: pw,
                            kind,
                            region,
                        });
                    }
                    Err(m) => at(u.span(), m),
                }
            }
        }
        let mut owners = vec![None; map.provinces().len()];
        for (power, list) in &wire.centres {
            let Some(pw) = map.lookup_power(power.get_ref()) else {
                at(power.span(), format!("unknown power `{}`", power.get_ref()));
                continue;
            };
            for c in list {
                match map.lookup(c.get_ref()) {
                    Some(Named::Province(p)) if map.province(p).supply_centre => {
                        owners[p.index()] = Some(pw)
                    }
                    Some(_) => at(
                        c.span(),
                        format!("`{}` is not a supply centre", c.get_ref()),
                    ),
                    None => at(c.span(), format!("unknown province `{}`", c.get_ref())),
                }
            }
        }
        let mut dislodged = Vec::new();
        for d in &wire.dislodged {
            let Some(pw) = map.lookup_power(d.power.get_ref()) else {
                at(
                    d.power.span(),
                    format!("unknown power `{}`", d.power.get_ref()),
                );
                continue;
            };
            let (kind, region) = match parse_unit(map, d.unit.get_ref()) {
                Ok(x) => x,
                Err(m) => {
                    at(d.unit.span(), m);
                    continue;
                }
            };
            let mut opts = Vec::new();
            for r in &d.retreats {
                // A retreat option names a place, which the unit may not
                // be able to stand in alone (Abstraction II: an army
                // retreating onto its own fleet at sea).
                let place = parse_region(map, r.get_ref(), kind)
                    .or_else(|| parse_region(map, r.get_ref(), UnitKind::Fleet));
                match place {
                    Some(reg) => opts.push(reg),
                    None => at(
                        r.span(),
                        format!("`{}`: no such place for a {}", r.get_ref(), kind.word()),
                    ),
                }
            }
            dislodged.push((
                Unit {
                    power: pw,
                    kind,
                    region,
                },
                opts,
            ));
        }
        if !problems.is_empty() {
            problems.sort_by_key(|p| p.line);
            return Err(LoadError { problems });
        }
        let mut state = match wire.state {
            Some(state) => state,
            None => unstated(v, &units, &owners),
        };
        state.fit(map.powers().len());
        Ok(Position {
            phase,
            units,
            owners,
            dislodged,
            state,
        })
    }
}

/// Why `power` may not have a leader beside the units already read, if
/// so: the variant names one leader a power, and none for a power it
/// names none (1700 AD II rule 7: the leaders are listed one to a power,
/// "once destroyed a leader may never be rebuilt", and "the Turks, in the
/// absence of any general of note", have none). The GM's `EDIT ADD`
/// refuses the same; a position written by hand is held to it too.
fn second_leader(v: &(impl Ruleset + ?Sized), units: &[Unit], power: PowerId) -> Option<String> {
    let map = v.map();
    let name = v.features().leader_name(power);
    let pw = &map.power(power).name;
    if let Some(u) = units
        .iter()
        .find(|u| u.power == power && u.kind == UnitKind::Leader)
    {
        return Some(format!(
            "a second leader of {pw}: {} is already in `{}`, and rule 7 gives a power one leader",
            name.unwrap_or("its leader"),
            map.province(map.province_of(u.region)).abbr
        ));
    }
    let named = map
        .power_ids()
        .any(|p| v.features().leader_name(p).is_some());
    (name.is_none() && named).then(|| format!("{pw} has no leader (rule 7)"))
}

/// A position as read: the board's names with their places in the text,
/// to report every problem; the rules' state through serde.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireIn {
    phase: Spanned<String>,
    #[serde(default)]
    units: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    centres: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    dislodged: Vec<WireDislodgedIn>,
    /// None: a position written by hand, whose state follows from the
    /// board (see [`unstated`]).
    #[serde(default)]
    state: Option<RuleState>,
}

/// The rules' state of a position written without `[state]` (by hand, for
/// `adjudicate`): the variant's armed neutrals where no unit stands and no
/// power holds the centre (1700 AD II rule 10b: once occupied, the defence
/// is lost for good), and, where fleets stand beside land units, each
/// power's coasts friendly where it holds the centre or its land unit
/// stands (rule 8).
fn unstated(v: &(impl Ruleset + ?Sized), units: &[Unit], owners: &[Option<PowerId>]) -> RuleState {
    let map = v.map();
    let mut state = RuleState::sized(map.powers().len());
    state.garrisons = v
        .features()
        .garrisons
        .iter()
        .map(|(p, _)| *p)
        .filter(|p| {
            owners[p.index()].is_none() && !units.iter().any(|u| map.province_of(u.region) == *p)
        })
        .collect();
    if map.stacking().fleets_beside_armies {
        state.friendly = crate::map::wire::PerPower(
            map.power_ids()
                .map(|pw| {
                    map.province_ids()
                        .filter(|p| map.province(*p).terrain == crate::map::Terrain::Coast)
                        .filter(|p| {
                            owners[p.index()] == Some(pw)
                                || units.iter().any(|u| {
                                    u.power == pw
                                        && u.kind != UnitKind::Fleet
                                        && map.province_of(u.region) == *p
                                })
                        })
                        .collect()
                })
                .collect(),
        );
    }
    state
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireDislodgedIn {
    power: Spanned<String>,
    unit: Spanned<String>,
    #[serde(default)]
    retreats: Vec<Spanned<String>>,
}

/// A position on the wire: what [`Position::to_toml`] writes.
#[derive(Serialize)]
struct Wire {
    phase: String,
    #[serde(default)]
    units: BTreeMap<PowerId, Vec<UnitAt>>,
    #[serde(default)]
    centres: BTreeMap<PowerId, Vec<ProvinceId>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    dislodged: Vec<WireDislodged>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    state: Option<RuleState>,
}

/// A dislodged unit on the wire.
#[derive(Serialize)]
struct WireDislodged {
    power: PowerId,
    unit: UnitAt,
    #[serde(default)]
    retreats: Vec<String>,
}

pub use crate::map::wire::{parse_region, parse_unit};
