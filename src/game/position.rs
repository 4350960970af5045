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

use crate::map::builder::{LineIndex, Problem};
use crate::map::{Map, Named, PowerId, ProvinceId, RegionId, Unit, UnitKind};
use crate::variant::{LoadError, Phase, Variant};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write;
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
    /// What the variant keeps beyond the board.
    pub state: VariantState,
}

/// What some variants keep beyond units and owners, per power (indexed by
/// power id). Empty for the standard game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VariantState {
    /// Centres each power has captured, in order (1066: an invader's first
    /// three are build sites).
    pub captures: Vec<Vec<ProvinceId>>,
    /// Extra centres counted at the next adjustment (Ard-Ri: fleets back
    /// from raiding).
    pub bonus: Vec<u32>,
    /// Home centres nominated in place of lost ones (1066 rule 6).
    pub homes: Vec<Vec<ProvinceId>>,
    /// Centres held off the board (Ard-Ri's Vikings: three, one lost for
    /// each centre gained on the board).
    pub reserve: Vec<u32>,
    /// Units built off the board that are placed later (Ard-Ri rule 7c).
    pub pending: Vec<Unit>,
    /// Units placed on the way into this phase (`true`) or lost because
    /// their place was taken (`false`): what the last results report.
    pub arrivals: Vec<(Unit, bool)>,
    /// Powers that lost every home centre (1000 AD rule 13), per power.
    pub anarchy: Vec<Anarchy>,
    /// Offers to exchange centres made during this move (Abstraction II
    /// rule 6); carried out at its end where two match.
    pub offers: Vec<Exchange>,
    /// The exchanges carried out at the end of the last move, for its
    /// results.
    pub exchanged: Vec<Exchange>,
    /// Armed neutral centres not yet occupied (1700 AD II rule 10b); their
    /// strength is the variant's.
    pub garrisons: Vec<ProvinceId>,
    /// Per power, the coastal provinces friendly to it, where its fleets
    /// may stand (1700 AD II rule 8).
    pub friendly: Vec<Vec<ProvinceId>>,
    /// Per power, the powers it lets into its provinces: their fleets may
    /// stand there, their supply lines pass its units (1700 AD II rules 8,
    /// 9: "with the permission of the owning player written in his
    /// orders").
    pub permits: Vec<Vec<PowerId>>,
    /// Per power, the centres it holds with the year it took them, where
    /// how long it has held them matters (1700 AD II rule 10a).
    pub held_since: Vec<Vec<(ProvinceId, i32)>>,
}

/// One power's offer: it gives `give` to `to` and takes `take` from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    /// Who offers.
    pub from: PowerId,
    /// To whom.
    pub to: PowerId,
    /// Centres `from` gives.
    pub give: Vec<ProvinceId>,
    /// Centres `from` takes.
    pub take: Vec<ProvinceId>,
}

impl Exchange {
    /// Whether `other` is the matching offer from the other side.
    pub fn matches(&self, other: &Exchange) -> bool {
        let same = |a: &[ProvinceId], b: &[ProvinceId]| {
            let mut a = a.to_vec();
            let mut b = b.to_vec();
            a.sort();
            b.sort();
            a == b
        };
        self.from == other.to
            && self.to == other.from
            && same(&self.give, &other.take)
            && same(&self.take, &other.give)
    }
}

/// Where a power stands under 1000 AD's anarchy rule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Anarchy {
    /// It holds a home centre (or the variant has no such rule).
    #[default]
    No,
    /// It has lost them all and has the next movement season to retake
    /// one.
    Grace,
    /// It failed: its units are in civil disorder for good.
    Yes,
}

impl VariantState {
    fn sized(n: usize) -> VariantState {
        VariantState {
            captures: vec![Vec::new(); n],
            bonus: vec![0; n],
            homes: vec![Vec::new(); n],
            reserve: vec![0; n],
            pending: Vec::new(),
            arrivals: Vec::new(),
            anarchy: vec![Anarchy::No; n],
            offers: Vec::new(),
            exchanged: Vec::new(),
            garrisons: Vec::new(),
            friendly: vec![Vec::new(); n],
            permits: vec![Vec::new(); n],
            held_since: vec![Vec::new(); n],
        }
    }

    fn is_empty(&self) -> bool {
        self.captures.iter().all(Vec::is_empty)
            && self.bonus.iter().all(|b| *b == 0)
            && self.homes.iter().all(Vec::is_empty)
            && self.reserve.iter().all(|b| *b == 0)
            && self.pending.is_empty()
            && self.arrivals.is_empty()
            && self.anarchy.iter().all(|a| *a == Anarchy::No)
            && self.offers.is_empty()
            && self.exchanged.is_empty()
            && self.garrisons.is_empty()
            && self.friendly.iter().all(Vec::is_empty)
            && self.permits.iter().all(Vec::is_empty)
            && self.held_since.iter().all(Vec::is_empty)
    }
}

impl Position {
    /// The start of a new game: the variant's first phase, starting units,
    /// and each power owning its home centres.
    pub fn initial(v: &Variant) -> Position {
        let mut owners = vec![None; v.map.provinces().len()];
        for pw in v.map.power_ids() {
            for &h in &v.map.power(pw).home_centres {
                owners[h.index()] = Some(pw);
            }
        }
        Position {
            phase: v.calendar.start,
            units: v
                .starting_units
                .iter()
                .map(|s| Unit {
                    power: s.power,
                    kind: s.kind,
                    region: s.region,
                })
                .collect(),
            owners,
            dislodged: Vec::new(),
            state: VariantState {
                reserve: v
                    .map
                    .power_ids()
                    .map(|p| v.features.reserve_of(p).map_or(0, |r| r.centres))
                    .collect(),
                garrisons: v.features.garrisons.iter().map(|(p, _)| *p).collect(),
                // Where fleets stand beside land units (1700 AD II), each
                // power's coasts at the start: its home centres and where
                // its units stand.
                friendly: if v.map.stacking().fleets_beside_armies {
                    v.map
                        .power_ids()
                        .map(|pw| {
                            let mut f: Vec<ProvinceId> = v.map.power(pw).home_centres.clone();
                            for s in v.starting_units.iter().filter(|s| s.power == pw) {
                                let p = v.map.province_of(s.region);
                                if !f.contains(&p) {
                                    f.push(p);
                                }
                            }
                            f.retain(|p| v.map.province(*p).terrain == crate::map::Terrain::Coast);
                            f
                        })
                        .collect()
                } else {
                    vec![Vec::new(); v.map.powers().len()]
                },
                ..VariantState::sized(v.map.powers().len())
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
        if let Some(r) = self.state.reserve.get_mut(power.index()) {
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

    /// The TOML form described in the module docs.
    pub fn to_toml(&self, v: &Variant) -> String {
        let map = &v.map;
        let mut s = String::new();
        let _ = writeln!(s, "phase = \"{}\"", v.calendar.label(self.phase));
        let _ = writeln!(s, "\n[units]");
        for pw in map.power_ids() {
            let list: Vec<String> = self
                .units
                .iter()
                .filter(|u| u.power == pw)
                .map(|u| format!("\"{} {}\"", u.kind.letter(), map.region_abbr(u.region)))
                .collect();
            if !list.is_empty() {
                let _ = writeln!(
                    s,
                    "{} = [{}]",
                    quote_key(&map.power(pw).name),
                    list.join(", ")
                );
            }
        }
        let _ = writeln!(s, "\n[centres]");
        for pw in map.power_ids() {
            let list: Vec<String> = self
                .owners
                .iter()
                .enumerate()
                .filter(|(p, o)| **o == Some(pw) && map.provinces()[*p].supply_centre)
                .map(|(p, _)| format!("\"{}\"", map.provinces()[p].abbr))
                .collect();
            if !list.is_empty() {
                let _ = writeln!(
                    s,
                    "{} = [{}]",
                    quote_key(&map.power(pw).name),
                    list.join(", ")
                );
            }
        }
        if !self.state.is_empty() {
            let _ = writeln!(s, "\n[state]");
            if !self.state.garrisons.is_empty() {
                let list: Vec<String> = self
                    .state
                    .garrisons
                    .iter()
                    .map(|p| format!("\"{}\"", map.province(*p).abbr))
                    .collect();
                let _ = writeln!(s, "garrisons = [{}]", list.join(", "));
            }
            for pw in map.power_ids() {
                let i = pw.index();
                let key = quote_key(&map.power(pw).name);
                let list = |ps: &[ProvinceId]| {
                    ps.iter()
                        .map(|p| format!("\"{}\"", map.province(*p).abbr))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                if let Some(c) = self.state.captures.get(i).filter(|c| !c.is_empty()) {
                    let _ = writeln!(s, "captures.{key} = [{}]", list(c));
                }
                if let Some(&b) = self.state.bonus.get(i).filter(|b| **b > 0) {
                    let _ = writeln!(s, "bonus.{key} = {b}");
                }
                if let Some(h) = self.state.homes.get(i).filter(|h| !h.is_empty()) {
                    let _ = writeln!(s, "homes.{key} = [{}]", list(h));
                }
                if let Some(&b) = self.state.reserve.get(i).filter(|b| **b > 0) {
                    let _ = writeln!(s, "reserve.{key} = {b}");
                }
                if let Some(f) = self.state.friendly.get(i).filter(|f| !f.is_empty()) {
                    let _ = writeln!(s, "friendly.{key} = [{}]", list(f));
                }
                if let Some(f) = self.state.permits.get(i).filter(|f| !f.is_empty()) {
                    let names: Vec<String> = f
                        .iter()
                        .map(|p| format!("\"{}\"", map.power(*p).name))
                        .collect();
                    let _ = writeln!(s, "permits.{key} = [{}]", names.join(", "));
                }
                if let Some(f) = self.state.held_since.get(i).filter(|f| !f.is_empty()) {
                    let held: Vec<String> = f
                        .iter()
                        .map(|(p, y)| format!("\"{}:{y}\"", map.province(*p).abbr))
                        .collect();
                    let _ = writeln!(s, "held-since.{key} = [{}]", held.join(", "));
                }
                for (word, list) in [
                    ("offers", &self.state.offers),
                    ("exchanged", &self.state.exchanged),
                ] {
                    let mine: Vec<String> = list
                        .iter()
                        .filter(|x| x.from == pw)
                        .map(|x| {
                            format!(
                                "\"{}: {} for {}\"",
                                map.power(x.to).name,
                                x.give
                                    .iter()
                                    .map(|p| map.province(*p).abbr.as_str())
                                    .collect::<Vec<_>>()
                                    .join(" "),
                                x.take
                                    .iter()
                                    .map(|p| map.province(*p).abbr.as_str())
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            )
                        })
                        .collect();
                    if !mine.is_empty() {
                        let _ = writeln!(s, "{word}.{key} = [{}]", mine.join(", "));
                    }
                }
                match self.state.anarchy.get(i) {
                    Some(Anarchy::Grace) => {
                        let _ = writeln!(s, "anarchy.{key} = \"grace\"");
                    }
                    Some(Anarchy::Yes) => {
                        let _ = writeln!(s, "anarchy.{key} = \"anarchy\"");
                    }
                    _ => {}
                }
                let units = |us: &mut dyn Iterator<Item = &Unit>| {
                    us.map(|u| format!("\"{} {}\"", u.kind.letter(), map.region_abbr(u.region)))
                        .collect::<Vec<_>>()
                };
                let pending = units(&mut self.state.pending.iter().filter(|u| u.power == pw));
                if !pending.is_empty() {
                    let _ = writeln!(s, "pending.{key} = [{}]", pending.join(", "));
                }
                for (word, ok) in [("arrived", true), ("blocked", false)] {
                    let list = units(
                        &mut self
                            .state
                            .arrivals
                            .iter()
                            .filter(|(u, o)| u.power == pw && *o == ok)
                            .map(|(u, _)| u),
                    );
                    if !list.is_empty() {
                        let _ = writeln!(s, "{word}.{key} = [{}]", list.join(", "));
                    }
                }
            }
        }
        for (u, options) in &self.dislodged {
            let _ = writeln!(s, "\n[[dislodged]]");
            let _ = writeln!(s, "power = \"{}\"", map.power(u.power).name);
            let _ = writeln!(
                s,
                "unit = \"{} {}\"",
                u.kind.letter(),
                map.region_abbr(u.region)
            );
            let opts: Vec<String> = options
                .iter()
                .map(|r| format!("\"{}\"", map.region_abbr(*r)))
                .collect();
            let _ = writeln!(s, "retreats = [{}]", opts.join(", "));
        }
        s
    }

    /// Read the TOML form, reporting every problem with its line.
    pub fn from_toml(v: &Variant, text: &str) -> Result<Position, LoadError> {
        let lines = LineIndex::new(text);
        let raw: RawPosition = toml::from_str(text).map_err(|e| LoadError {
            problems: vec![Problem {
                line: e.span().map_or(0, |s| lines.line(s.start)),
                message: e.message().trim().to_string(),
            }],
        })?;
        let map = &v.map;
        let mut problems = Vec::new();
        let mut at = |s: std::ops::Range<usize>, m: String| {
            problems.push(Problem {
                line: lines.line(s.start),
                message: m,
            })
        };
        let phase = match v.calendar.parse(raw.phase.get_ref()) {
            Ok(p) => p,
            Err(e) => {
                at(raw.phase.span(), e.to_string());
                v.calendar.start
            }
        };
        let mut units = Vec::new();
        for (power, list) in &raw.units {
            let Some(pw) = map.lookup_power(power.get_ref()) else {
                at(power.span(), format!("unknown power `{}`", power.get_ref()));
                continue;
            };
            for u in list {
                match parse_unit(map, u.get_ref()) {
                    Ok((kind, region)) => {
                        let p = map.province_of(region);
                        // A box holds any number of units; the variant's
                        // stacking rules say who else may share.
                        let others: Vec<Unit> = units
                            .iter()
                            .copied()
                            .filter(|x: &Unit| map.province_of(x.region) == p)
                            .collect();
                        if !map.may_stand(p, pw, kind, &others) {
                            at(
                                u.span(),
                                format!("a second unit in `{}`", map.province(p).abbr),
                            );
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
        for (power, list) in &raw.centres {
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
        for d in &raw.dislodged {
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
                match parse_region(map, r.get_ref(), kind) {
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
        let mut state = VariantState::sized(map.powers().len());
        for (lists, target) in [(&raw.state.captures, 0), (&raw.state.homes, 1)] {
            for (power, list) in lists {
                let Some(pw) = map.lookup_power(power.get_ref()) else {
                    at(power.span(), format!("unknown power `{}`", power.get_ref()));
                    continue;
                };
                for c in list {
                    match map.lookup(c.get_ref()) {
                        Some(Named::Province(p)) => {
                            if target == 0 {
                                state.captures[pw.index()].push(p)
                            } else {
                                state.homes[pw.index()].push(p)
                            }
                        }
                        _ => at(c.span(), format!("unknown province `{}`", c.get_ref())),
                    }
                }
            }
        }
        for (counts, reserve) in [(&raw.state.bonus, false), (&raw.state.reserve, true)] {
            for (power, n) in counts {
                match map.lookup_power(power.get_ref()) {
                    Some(pw) if reserve => state.reserve[pw.index()] = *n,
                    Some(pw) => state.bonus[pw.index()] = *n,
                    None => at(power.span(), format!("unknown power `{}`", power.get_ref())),
                }
            }
        }
        for (lists, executed) in [(&raw.state.offers, false), (&raw.state.exchanged, true)] {
            for (power, list) in lists {
                let Some(from) = map.lookup_power(power.get_ref()) else {
                    at(power.span(), format!("unknown power `{}`", power.get_ref()));
                    continue;
                };
                for text in list {
                    match parse_exchange(map, from, text.get_ref()) {
                        Ok(x) if executed => state.exchanged.push(x),
                        Ok(x) => state.offers.push(x),
                        Err(e) => at(text.span(), e),
                    }
                }
            }
        }
        for g in &raw.state.garrisons {
            match map.lookup(g.get_ref()) {
                Some(Named::Province(p)) => state.garrisons.push(p),
                _ => at(g.span(), format!("unknown province `{}`", g.get_ref())),
            }
        }
        for (power, list) in &raw.state.permits {
            let Some(pw) = map.lookup_power(power.get_ref()) else {
                at(power.span(), format!("unknown power `{}`", power.get_ref()));
                continue;
            };
            for c in list {
                match map.lookup_power(c.get_ref()) {
                    Some(q) => state.permits[pw.index()].push(q),
                    None => at(c.span(), format!("unknown power `{}`", c.get_ref())),
                }
            }
        }
        for (power, list) in &raw.state.held_since {
            let Some(pw) = map.lookup_power(power.get_ref()) else {
                at(power.span(), format!("unknown power `{}`", power.get_ref()));
                continue;
            };
            for c in list {
                let parsed = c.get_ref().split_once(':').and_then(|(p, y)| {
                    match (map.lookup(p), y.parse::<i32>()) {
                        (Some(Named::Province(p)), Ok(y)) => Some((p, y)),
                        _ => None,
                    }
                });
                match parsed {
                    Some(x) => state.held_since[pw.index()].push(x),
                    None => at(
                        c.span(),
                        format!("`{}` should read like \"Cri:1701\"", c.get_ref()),
                    ),
                }
            }
        }
        for (power, list) in &raw.state.friendly {
            let Some(pw) = map.lookup_power(power.get_ref()) else {
                at(power.span(), format!("unknown power `{}`", power.get_ref()));
                continue;
            };
            for c in list {
                match map.lookup(c.get_ref()) {
                    Some(Named::Province(p)) => state.friendly[pw.index()].push(p),
                    _ => at(c.span(), format!("unknown province `{}`", c.get_ref())),
                }
            }
        }
        for (power, word) in &raw.state.anarchy {
            let Some(pw) = map.lookup_power(power.get_ref()) else {
                at(power.span(), format!("unknown power `{}`", power.get_ref()));
                continue;
            };
            state.anarchy[pw.index()] = match word.get_ref().as_str() {
                "grace" => Anarchy::Grace,
                "anarchy" => Anarchy::Yes,
                other => {
                    at(
                        word.span(),
                        format!("anarchy is \"grace\" or \"anarchy\", not `{other}`"),
                    );
                    continue;
                }
            };
        }
        for (lists, what) in [
            (&raw.state.pending, 0),
            (&raw.state.arrived, 1),
            (&raw.state.blocked, 2),
        ] {
            for (power, list) in lists {
                let Some(pw) = map.lookup_power(power.get_ref()) else {
                    at(power.span(), format!("unknown power `{}`", power.get_ref()));
                    continue;
                };
                for u in list {
                    match parse_unit(map, u.get_ref()) {
                        Ok((kind, region)) => {
                            let unit = Unit {
                                power: pw,
                                kind,
                                region,
                            };
                            match what {
                                0 => state.pending.push(unit),
                                1 => state.arrivals.push((unit, true)),
                                _ => state.arrivals.push((unit, false)),
                            }
                        }
                        Err(e) => at(u.span(), e),
                    }
                }
            }
        }
        if !problems.is_empty() {
            problems.sort_by_key(|p| p.line);
            return Err(LoadError { problems });
        }
        Ok(Position {
            phase,
            units,
            owners,
            dislodged,
            state,
        })
    }
}

fn quote_key(k: &str) -> String {
    if k.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        k.to_string()
    } else {
        format!("\"{k}\"")
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPosition {
    phase: Spanned<String>,
    #[serde(default)]
    units: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    centres: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    dislodged: Vec<RawDislodged>,
    #[serde(default)]
    state: RawState,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawState {
    #[serde(default)]
    captures: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    bonus: BTreeMap<Spanned<String>, u32>,
    #[serde(default)]
    homes: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    reserve: BTreeMap<Spanned<String>, u32>,
    #[serde(default)]
    pending: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    arrived: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    blocked: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    anarchy: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    offers: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    exchanged: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    garrisons: Vec<Spanned<String>>,
    #[serde(default)]
    friendly: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default)]
    permits: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    #[serde(default, rename = "held-since")]
    held_since: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
}

/// `"Germany: Hol for Bel"`, as the position file keeps an exchange.
fn parse_exchange(map: &Map, from: PowerId, text: &str) -> Result<Exchange, String> {
    let bad = || format!("`{text}` should read like \"Germany: Hol for Bel\"");
    let (to, rest) = text.split_once(':').ok_or_else(bad)?;
    let to = map
        .lookup_power(to.trim())
        .ok_or_else(|| format!("unknown power `{}`", to.trim()))?;
    let (give, take) = rest.split_once(" for ").ok_or_else(bad)?;
    let list = |s: &str| -> Result<Vec<ProvinceId>, String> {
        s.split_whitespace()
            .map(|w| match map.lookup(w) {
                Some(Named::Province(p)) => Ok(p),
                _ => Err(format!("unknown province `{w}`")),
            })
            .collect()
    };
    Ok(Exchange {
        from,
        to,
        give: list(give)?,
        take: list(take)?,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDislodged {
    power: Spanned<String>,
    unit: Spanned<String>,
    #[serde(default)]
    retreats: Vec<Spanned<String>>,
}

/// `A Lon`, `F StP/sc` -> kind and region.
pub fn parse_unit(map: &Map, text: &str) -> Result<(UnitKind, RegionId), String> {
    let text = text.trim();
    let (k, place) = text
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("`{text}` should read like `A Lon` or `F StP/sc`"))?;
    let kind = match k.to_ascii_uppercase().as_str() {
        "A" => UnitKind::Army,
        "F" => UnitKind::Fleet,
        "A/F" => UnitKind::ArmyFleet,
        "3D" => UnitKind::DefensiveArmy,
        "L" => UnitKind::Leader,
        _ => return Err(format!("unknown unit kind `{k}` in `{text}`")),
    };
    let region = parse_region(map, place, kind).ok_or_else(|| {
        format!(
            "`{text}`: no such place, or a {} cannot stand there",
            kind.word()
        )
    })?;
    Ok((kind, region))
}

/// A place name, with an optional `/coast` or `(coast)`, as a region for a
/// unit of kind `kind`.
pub fn parse_region(map: &Map, place: &str, kind: UnitKind) -> Option<RegionId> {
    let place = place.trim().trim_end_matches(')');
    let (p, c) = match place.split_once(['/', '(']) {
        Some((p, c)) => (p, Some(c)),
        None => (place, None),
    };
    let prov = match map.lookup(p)? {
        Named::Province(p) => p,
        Named::Region(r) => return map.admits(r, kind).then_some(r),
    };
    if let Some(c) = c {
        let cid = map.lookup_coast(c)?;
        return map.coast_region(prov, cid).filter(|&r| map.admits(r, kind));
    }
    map.default_region(prov, kind)
}
