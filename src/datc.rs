//! Running DATC test cases written in jDip's text format (also used by
//! godip): the check that the adjudicator plays by the rules.
//!
//! Each case sets up a board, gives orders, and states the board afterwards.
//! A case passes when our board after the phase (and the dislodged units)
//! is exactly the one stated. Names in the files are resolved by the same
//! parser that reads players' mail, so the jDip file, which spells
//! provinces as people do, exercises name resolution too.
//!
//! Retreat cases describe the preceding movement by its results
//! (`SUCCESS:`/`FAILURE:` lines) rather than by a board; we take the
//! results as given, as godip's harness does: a failed move by land leaves
//! its target contested unless the mover lost a head-to-head battle with
//! the unit from there, and a successful move by land bars retreat to the
//! attacker's origin.

use crate::adjudicate::{
    RetreatSituation, adjudicate_adjustments, adjudicate_movement, adjudicate_retreats,
};
use crate::game::position::parse_unit;
use crate::map::{Map, PowerId, ProvinceId, RegionId, Terrain, Unit};
use crate::orders::parse::OrderParser;
use crate::orders::{AdjustOrder, AnyCommand, MainCommand, Order};
use crate::variant::{PhaseKind, Rulebook, Variant};
use std::collections::BTreeSet;
use std::fmt;

/// One line of a case, with its line number in the file.
#[derive(Debug, Clone)]
pub struct Line {
    /// 1-based line in the file.
    pub line: usize,
    /// Text with the comment removed.
    pub text: String,
}

/// A parsed test case.
#[derive(Debug, Clone, Default)]
pub struct Case {
    /// The case id (`6.A.5`).
    pub id: String,
    /// Line of the `CASE` keyword.
    pub line: usize,
    /// `PRESTATE_SETPHASE` text, if given.
    pub phase: Option<Line>,
    /// `PRESTATE_SUPPLYCENTER_OWNERS`.
    pub owners: Option<Vec<Line>>,
    /// `PRESTATE`.
    pub prestate: Vec<Line>,
    /// `PRESTATE_DISLODGED`.
    pub pre_dislodged: Vec<Line>,
    /// `PRESTATE_RESULTS`.
    pub results: Vec<Line>,
    /// `ORDERS`.
    pub orders: Vec<Line>,
    /// `POSTSTATE`, or `None` for `POSTSTATE_SAME`.
    pub poststate: Option<Vec<Line>>,
    /// `POSTSTATE_DISLODGED`.
    pub post_dislodged: Vec<Line>,
}

/// A problem reading a case file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct FileError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Owners,
    Prestate,
    PreDislodged,
    Results,
    Orders,
    Poststate,
    PostDislodged,
}

/// Split a file into cases.
pub fn parse_file(text: &str) -> Result<Vec<Case>, FileError> {
    let mut cases = Vec::new();
    let mut cur: Option<Case> = None;
    let mut section = Section::None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let (kw, rest) = match body.split_once(char::is_whitespace) {
            Some((k, r)) => (k, r.trim()),
            None => (body, ""),
        };
        let err = |m: &str| FileError {
            line,
            message: m.to_string(),
        };
        match kw {
            "VARIANT_ALL" => {}
            "CASE" => {
                if cur.is_some() {
                    return Err(err("CASE before the END of the previous case"));
                }
                let id = rest
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .trim_end_matches('.');
                if id.is_empty() {
                    return Err(err("CASE without an id"));
                }
                cur = Some(Case {
                    id: id.to_string(),
                    line,
                    ..Case::default()
                });
                section = Section::None;
            }
            "END" => {
                let c = cur.take().ok_or_else(|| err("END without CASE"))?;
                cases.push(c);
                section = Section::None;
            }
            _ => {
                let c = cur
                    .as_mut()
                    .ok_or_else(|| err(&format!("`{body}` outside a CASE")))?;
                match kw {
                    "PRESTATE_SETPHASE" => {
                        c.phase = Some(Line {
                            line,
                            text: rest.to_string(),
                        })
                    }
                    "PRESTATE_SUPPLYCENTER_OWNERS" => {
                        c.owners = Some(Vec::new());
                        section = Section::Owners;
                    }
                    "PRESTATE" => section = Section::Prestate,
                    "PRESTATE_DISLODGED" => section = Section::PreDislodged,
                    "PRESTATE_RESULTS" => section = Section::Results,
                    "ORDERS" => section = Section::Orders,
                    "POSTSTATE_SAME" => {
                        c.poststate = None;
                        section = Section::None;
                    }
                    "POSTSTATE" => {
                        c.poststate = Some(Vec::new());
                        section = Section::Poststate;
                    }
                    "POSTSTATE_DISLODGED" => section = Section::PostDislodged,
                    _ => {
                        let l = Line {
                            line,
                            text: body.to_string(),
                        };
                        match section {
                            Section::None => {
                                return Err(err(&format!("`{body}` outside a section")));
                            }
                            Section::Owners => c.owners.get_or_insert_with(Vec::new).push(l),
                            Section::Prestate => c.prestate.push(l),
                            Section::PreDislodged => c.pre_dislodged.push(l),
                            Section::Results => c.results.push(l),
                            Section::Orders => c.orders.push(l),
                            Section::Poststate => c.poststate.get_or_insert_with(Vec::new).push(l),
                            Section::PostDislodged => c.post_dislodged.push(l),
                        }
                    }
                }
            }
        }
    }
    if let Some(c) = cur {
        return Err(FileError {
            line: c.line,
            message: format!("case {} has no END", c.id),
        });
    }
    Ok(cases)
}

/// Why a case failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Case id.
    pub id: String,
    /// What differed, or what could not be read.
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.id, self.message)
    }
}

/// Runs cases against one variant.
pub struct Runner<'v> {
    variant: &'v Variant,
    rules: Rulebook,
    parser: OrderParser<'v>,
    /// Adjudicate movement through Abstraction II's A/F layer (to check
    /// that it changes nothing where its rules are the standard ones).
    pub army_fleets: bool,
}

type UnitKey = (PowerId, crate::map::UnitKind, RegionId);

impl<'v> Runner<'v> {
    /// A runner for `variant`, playing by `rules`.
    pub fn new(variant: &'v Variant, rules: Rulebook) -> Self {
        Runner {
            variant,
            rules,
            parser: OrderParser::new(&variant.map),
            army_fleets: false,
        }
    }

    fn map(&self) -> &Map {
        &self.variant.map
    }

    /// `Power: rest` -> power and rest. Power names are matched loosely, as
    /// the files carry a deliberate typo (`Germnay`, 6.A.5), and the colon
    /// may be missing (`Italy F gol`), as jDip reads them.
    fn split_power<'a>(&self, l: &'a Line) -> Result<(PowerId, &'a str), String> {
        let (p, rest) = match l.text.split_once(':') {
            Some(split) => split,
            None => l
                .text
                .trim_start()
                .split_once(char::is_whitespace)
                .ok_or_else(|| format!("line {}: expected `Power: ...`", l.line))?,
        };
        let p = p.trim();
        if let Some(pw) = self.map().lookup_power(p) {
            return Ok((pw, rest.trim()));
        }
        let best = self
            .map()
            .power_ids()
            .map(|pw| {
                (
                    strsim::jaro_winkler(
                        &p.to_lowercase(),
                        &self.map().power(pw).name.to_lowercase(),
                    ),
                    pw,
                )
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        match best {
            Some((s, pw)) if s >= 0.85 => Ok((pw, rest.trim())),
            _ => Err(format!("line {}: unknown power `{p}`", l.line)),
        }
    }

    fn units(&self, lines: &[Line]) -> Result<Vec<Unit>, String> {
        lines
            .iter()
            .map(|l| {
                let (power, rest) = self.split_power(l)?;
                let (kind, region) =
                    parse_unit(self.map(), rest).map_err(|e| format!("line {}: {e}", l.line))?;
                Ok(Unit {
                    power,
                    kind,
                    region,
                })
            })
            .collect()
    }

    fn key_set(units: &[Unit]) -> BTreeSet<UnitKey> {
        units.iter().map(|u| (u.power, u.kind, u.region)).collect()
    }

    fn describe(&self, set: &BTreeSet<UnitKey>) -> String {
        let v: Vec<String> = set
            .iter()
            .map(|(p, k, r)| {
                format!(
                    "{} {} {}",
                    self.map().power(*p).name,
                    k.letter(),
                    self.map().region_abbr(*r)
                )
            })
            .collect();
        if v.is_empty() {
            "nothing".to_string()
        } else {
            v.join(", ")
        }
    }

    fn compare(&self, what: &str, expected: &[Unit], got: &[Unit]) -> Result<(), String> {
        let e = Self::key_set(expected);
        let g = Self::key_set(got);
        if e == g {
            return Ok(());
        }
        let missing: BTreeSet<_> = e.difference(&g).copied().collect();
        let extra: BTreeSet<_> = g.difference(&e).copied().collect();
        Err(format!(
            "{what}: expected but missing: {}; present but not expected: {}",
            self.describe(&missing),
            self.describe(&extra)
        ))
    }

    fn parse_order(&self, l: &Line, phase: PhaseKind) -> Result<(PowerId, AnyCommand), String> {
        let (power, rest) = self.split_power(l)?;
        let parsed = self
            .parser
            .parse(rest, Some(phase))
            .map_err(|e| format!("line {}: cannot read order `{rest}`: {e}", l.line))?;
        Ok((power, parsed.command))
    }

    /// Run one case.
    pub fn run(&self, case: &Case) -> Result<(), Failure> {
        self.run_inner(case).map_err(|message| Failure {
            id: case.id.clone(),
            message,
        })
    }

    fn run_inner(&self, case: &Case) -> Result<(), String> {
        let v = self.variant;
        let phase = match &case.phase {
            Some(l) => v
                .calendar
                .parse(&l.text)
                .map_err(|e| format!("line {}: {e}", l.line))?,
            None => v.calendar.start,
        };
        let pre = self.units(&case.prestate)?;
        match phase.kind {
            PhaseKind::Movement => {
                let mut orders = Vec::new();
                for l in &case.orders {
                    let (power, cmd) = self.parse_order(l, phase.kind)?;
                    if let AnyCommand::Main(unit, command) = cmd {
                        orders.push(Order {
                            power,
                            unit,
                            command,
                        });
                    }
                }
                let r = if self.army_fleets {
                    crate::rules::boarding::judge::adjudicate_with_army_fleets(
                        &v.map,
                        &self.rules,
                        &crate::adjudicate::questions::Standard,
                        Some(phase),
                        &pre,
                        &orders,
                    )
                } else {
                    adjudicate_movement(&v.map, &self.rules, &pre, &orders)
                };
                let after = r.units_after(&pre);
                // A dislodged unit with nowhere to go is destroyed at once;
                // the files list only those that must retreat.
                let dislodged: Vec<Unit> = r
                    .dislodged(&pre)
                    .filter(|(_, d)| !d.retreats.is_empty())
                    .map(|(u, _)| u)
                    .collect();
                let expected = match &case.poststate {
                    None => pre.clone(),
                    Some(lines) => self.units(lines)?,
                };
                self.compare("board", &expected, &after)?;
                let exp_d = self.units(&case.post_dislodged)?;
                self.compare("dislodged", &exp_d, &dislodged)?;
                Ok(())
            }
            PhaseKind::Retreat => {
                let dislodged = self.units(&case.pre_dislodged)?;
                let situation = self.retreat_situation(case, &pre, &dislodged)?;
                let mut orders = Vec::new();
                for l in &case.orders {
                    let (power, cmd) = self.parse_order(l, phase.kind)?;
                    if let AnyCommand::Retreat(unit, command) = cmd {
                        orders.push(Order {
                            power,
                            unit,
                            command,
                        });
                    }
                }
                let r = adjudicate_retreats(&v.map, &situation, &orders);
                let expected = match &case.poststate {
                    None => pre.clone(),
                    Some(lines) => self.units(lines)?,
                };
                self.compare("board", &expected, &r.units_after)
            }
            PhaseKind::Adjustment | PhaseKind::Placement => {
                let owners = match &case.owners {
                    None => crate::game::Position::initial(v).owners,
                    Some(lines) => {
                        let mut o = vec![None; v.map.provinces().len()];
                        for l in lines {
                            let (power, rest) = self.split_power(l)?;
                            let (_, region) = parse_unit(&v.map, rest)
                                .map_err(|e| format!("line {}: {e}", l.line))?;
                            o[v.map.province_of(region).index()] = Some(power);
                        }
                        o
                    }
                };
                let mut orders = Vec::new();
                for l in &case.orders {
                    let (power, cmd) = self.parse_order(l, phase.kind)?;
                    if let AnyCommand::Adjust(command) = cmd {
                        orders.push(AdjustOrder { power, command });
                    }
                }
                let r = adjudicate_adjustments(&v.map, &self.rules, &pre, &owners, &orders);
                let expected = match &case.poststate {
                    None => pre.clone(),
                    Some(lines) => self.units(lines)?,
                };
                self.compare("board", &expected, &r.units_after)
            }
        }
    }

    /// Rebuild the retreat options from the previous phase's results.
    fn retreat_situation(
        &self,
        case: &Case,
        board: &[Unit],
        dislodged: &[Unit],
    ) -> Result<RetreatSituation, String> {
        let map = self.map();
        struct Res {
            ok: bool,
            power: PowerId,
            via: bool,
            from: ProvinceId,
            to: Option<ProvinceId>,
            convoy_of: Option<(ProvinceId, ProvinceId)>,
        }
        let mut results = Vec::new();
        for l in &case.results {
            let (flag, rest) = l
                .text
                .split_once(':')
                .ok_or_else(|| format!("line {}: expected SUCCESS: or FAILURE:", l.line))?;
            let ok = match flag.trim() {
                "SUCCESS" => true,
                "FAILURE" => false,
                f => return Err(format!("line {}: unknown result `{f}`", l.line)),
            };
            let line = Line {
                line: l.line,
                text: rest.trim().to_string(),
            };
            let (power, cmd) = self.parse_order(&line, PhaseKind::Movement)?;
            if let AnyCommand::Main(unit, c) = cmd {
                let (to, convoy_of, via) = match c {
                    MainCommand::Move { to, via_convoy, .. } => {
                        (Some(to.province), None, via_convoy)
                    }
                    MainCommand::Convoy { unit: a, to } => {
                        (None, Some((a.at.province, to.province)), false)
                    }
                    _ => (None, None, false),
                };
                results.push(Res {
                    ok,
                    power,
                    via,
                    from: unit.at.province,
                    to,
                    convoy_of,
                });
            }
        }
        // Whether the move from `from` to `to` went by sea: said so, or
        // needed to, or a fleet of the army's own power convoyed it.
        let convoyed = |from: ProvinceId, to: ProvinceId| {
            let Some(mv) = results.iter().find(|r| r.from == from && r.to == Some(to)) else {
                return false;
            };
            let convoys: Vec<&Res> = results
                .iter()
                .filter(|r| r.convoy_of == Some((from, to)))
                .collect();
            mv.via
                || (!convoys.is_empty()
                    && (!map.reaches(
                        map.province(from).main_region(),
                        to,
                        crate::map::UnitKind::Army,
                    ) || convoys.iter().any(|c| c.power == mv.power)))
        };
        let occupied: BTreeSet<ProvinceId> =
            board.iter().map(|u| map.province_of(u.region)).collect();
        let dislodged_at: BTreeSet<ProvinceId> = dislodged
            .iter()
            .map(|u| map.province_of(u.region))
            .collect();
        let mut contested = BTreeSet::new();
        for r in &results {
            let Some(to) = r.to else { continue };
            if r.ok || occupied.contains(&to) || convoyed(r.from, to) {
                continue;
            }
            // A unit beaten head-to-head by the unit from `to` does not
            // make `to` contested.
            let lost_h2h = dislodged_at.contains(&r.from)
                && results.iter().any(|a| {
                    a.ok && a.from == to && a.to == Some(r.from) && !convoyed(a.from, r.from)
                });
            if !lost_h2h {
                contested.insert(to);
            }
        }
        let mut out = Vec::new();
        for &u in dislodged {
            let here = map.province_of(u.region);
            let attacker_from = results
                .iter()
                .find(|r| r.ok && r.to == Some(here) && !convoyed(r.from, here))
                .map(|r| r.from);
            let options = map
                .borders(u.region)
                .iter()
                .filter(|&&(r, b)| {
                    let p = map.province_of(r);
                    b.intersects(u.kind.mobility())
                        && map.admits(r, u.kind)
                        && !occupied.contains(&p)
                        && !contested.contains(&p)
                        && Some(p) != attacker_from
                        && map.province(p).terrain != Terrain::OffBoard
                })
                .map(|&(r, _)| r)
                .collect();
            out.push((u, options));
        }
        Ok(RetreatSituation {
            units: board.to_vec(),
            dislodged: out,
        })
    }
}

/// The rule preferences a case file was written for: a file that says it
/// is DATC version 2 (`# DATC Version 2.4`) expects the v2 preferences;
/// anything else today's.
pub fn rules_for_file(variant: &Variant, text: &str) -> Rulebook {
    let v2 = text.lines().take(40).any(|l| {
        l.trim_start_matches(['#', ' ', '\t'])
            .to_ascii_lowercase()
            .starts_with("datc version 2")
    });
    if v2 {
        Rulebook::datc_v2()
    } else {
        variant.rules
    }
}

/// Run every case of a file; returns (passed, failures).
pub fn run_text(
    variant: &Variant,
    rules: Rulebook,
    text: &str,
) -> Result<(usize, Vec<Failure>), FileError> {
    let cases = parse_file(text)?;
    let runner = Runner::new(variant, rules);
    let mut passed = 0;
    let mut failures = Vec::new();
    for c in &cases {
        match runner.run(c) {
            Ok(()) => passed += 1,
            Err(f) => failures.push(f),
        }
    }
    Ok((passed, failures))
}
