//! DATC v3.0, chapter 6, encoded by hand straight from the v3.0 text
//! (`tests/data/datc/datc_v3_text.txt`): every case 6.A.1 to 6.J.11, with
//! the results the text states or Kruijswijk prefers. This is a check of the
//! adjudicator that does not lean on anybody else's encoding.
//!
//! Besides running the file, the retreat options that the movement phase
//! computes are checked against what the DATC says about them (6.F.7 and
//! every case of 6.H): the file format can only say that a dislodged unit
//! has somewhere to go, and its retreat cases take the retreat options from
//! the runner, not from the adjudicator.

use std::collections::BTreeSet;
use zinejudge::adjudicate::{Outcome, adjudicate_movement};
use zinejudge::game::position::{parse_region, parse_unit};
use zinejudge::map::{PowerId, Unit};
use zinejudge::orders::parse::OrderParser;
use zinejudge::orders::{AnyCommand, MainCommand, MainOrder};
use zinejudge::testing::datc::{Case, Line, parse_file, rules_for_file, run_text};
use zinejudge::variant::{self, PhaseKind, Rulebook, Variant};

const FILE: &str = "datc_v3_text.txt";

/// Cases the adjudicator is known to get wrong, each with why. Empty: the
/// adjudicator passes every case.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

/// Cases in the file: the 164 ids of chapter 6, with 6.J.9 twice (the DATC
/// gives two situations under that id).
const ENCODED: usize = 165;

/// Chapter 6 of DATC v3.0: how many cases each section has.
const SECTIONS: &[(char, usize)] = &[
    ('A', 12),
    ('B', 15),
    ('C', 9),
    ('D', 34),
    ('E', 15),
    ('F', 25),
    ('G', 20),
    ('H', 16),
    ('I', 7),
    ('J', 11),
];

fn standard() -> Variant {
    variant::builtin("standard")
        .expect("standard ships")
        .expect("standard loads")
}

fn text() -> String {
    std::fs::read_to_string(format!(
        "{}/tests/data/datc/{FILE}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture present")
}

#[test]
fn every_v3_case_passes_except_the_known_failures() {
    let v = standard();
    let text = text();
    let rules = rules_for_file(&v, &text);
    let (passed, failures) = run_text(&v, rules, &text).expect("file parses");
    let unexpected: Vec<String> = failures
        .iter()
        .filter(|f| !KNOWN_FAILURES.iter().any(|(id, _)| *id == f.id))
        .map(|f| f.to_string())
        .collect();
    assert!(
        unexpected.is_empty(),
        "unexpected failures:\n{}",
        unexpected.join("\n")
    );
    let failed: BTreeSet<&str> = failures.iter().map(|f| f.id.as_str()).collect();
    let fixed: Vec<&str> = KNOWN_FAILURES
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| !failed.contains(id))
        .collect();
    assert!(
        fixed.is_empty(),
        "known failures that now pass (remove them from KNOWN_FAILURES): {fixed:?}"
    );
    assert_eq!(passed + failures.len(), ENCODED, "cases run");
    assert_eq!(passed, ENCODED - KNOWN_FAILURES.len());
}

#[test]
fn file_holds_every_chapter_6_id_of_v3_in_order() {
    let cases = parse_file(&text()).expect("file parses");
    let expected: Vec<String> = SECTIONS
        .iter()
        .flat_map(|&(s, n)| (1..=n).map(move |i| format!("6.{s}.{i}")))
        .collect();
    assert_eq!(expected.len(), 164);
    let mut ids: Vec<String> = cases.iter().map(|c| c.id.clone()).collect();
    assert_eq!(ids.len(), ENCODED);
    // 6.J.9 holds two situations, encoded as two cases with the same id.
    assert_eq!(ids.iter().filter(|id| *id == "6.J.9").count(), 2);
    ids.dedup();
    assert_eq!(ids, expected);
}

#[test]
fn file_is_played_by_todays_preferences() {
    let v = standard();
    let rules = rules_for_file(&v, &text());
    assert_eq!(rules, v.rules);
    assert_ne!(rules, Rulebook::datc_v2());
}

/// The movement phase behind a case, rebuilt from the file: a movement
/// case's own board and orders, or, for a retreat case, the orders of its
/// `PRESTATE_RESULTS` (every unit of the 6.H cases has one) with the
/// expected success of each move.
struct Movement {
    units: Vec<Unit>,
    orders: Vec<MainOrder>,
    /// For each order that is a move: (index in `orders`, whether it
    /// succeeded).
    moves: Vec<(usize, bool)>,
}

struct Ctx {
    v: Variant,
    cases: Vec<Case>,
}

impl Ctx {
    fn new() -> Self {
        Ctx {
            v: standard(),
            cases: parse_file(&text()).expect("file parses"),
        }
    }

    fn case(&self, id: &str) -> &Case {
        self.cases
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("case {id} in the file"))
    }

    fn split<'a>(&self, s: &'a str) -> (PowerId, &'a str) {
        let (p, rest) = s.split_once(':').expect("`Power: ...`");
        let power = self
            .v
            .map
            .lookup_power(p.trim())
            .unwrap_or_else(|| panic!("power in `{s}`"));
        (power, rest.trim())
    }

    fn unit(&self, s: &str) -> Unit {
        let (power, rest) = self.split(s);
        let (kind, region) = parse_unit(&self.v.map, rest).unwrap_or_else(|e| panic!("{e}"));
        Unit {
            power,
            kind,
            region,
        }
    }

    fn units(&self, lines: &[Line]) -> Vec<Unit> {
        lines.iter().map(|l| self.unit(&l.text)).collect()
    }

    fn order(&self, s: &str) -> MainOrder {
        let (power, rest) = self.split(s);
        let parsed = OrderParser::new(&self.v.map)
            .parse(rest, Some(PhaseKind::Movement))
            .unwrap_or_else(|e| panic!("`{s}`: {e}"));
        match parsed.command {
            AnyCommand::Main(unit, command) => MainOrder {
                power,
                unit,
                command,
            },
            other => panic!("`{s}` is not a movement order: {other:?}"),
        }
    }

    fn movement(&self, case: &Case) -> Movement {
        if case.results.is_empty() {
            return Movement {
                units: self.units(&case.prestate),
                orders: case.orders.iter().map(|l| self.order(&l.text)).collect(),
                moves: Vec::new(),
            };
        }
        let mut m = Movement {
            units: Vec::new(),
            orders: Vec::new(),
            moves: Vec::new(),
        };
        for l in &case.results {
            let (flag, rest) = l.text.split_once(':').expect("SUCCESS: or FAILURE:");
            let (power, order) = self.split(rest);
            // The unit is the first two words of the order (`F spa(sc)`).
            let unit: Vec<&str> = order.split_whitespace().take(2).collect();
            let (kind, region) =
                parse_unit(&self.v.map, &unit.join(" ")).unwrap_or_else(|e| panic!("{e}"));
            m.units.push(Unit {
                power,
                kind,
                region,
            });
            let o = self.order(rest);
            if matches!(o.command, MainCommand::Move { .. }) {
                m.moves.push((m.orders.len(), flag.trim() == "SUCCESS"));
            }
            m.orders.push(o);
        }
        m
    }

    fn names(&self, regions: impl IntoIterator<Item = zinejudge::map::RegionId>) -> Vec<String> {
        let mut v: Vec<String> = regions
            .into_iter()
            .map(|r| self.v.map.region_abbr(r).to_lowercase())
            .collect();
        v.sort();
        v
    }

    fn describe(&self, units: &[Unit]) -> Vec<String> {
        let mut v: Vec<String> = units
            .iter()
            .map(|u| {
                format!(
                    "{}: {} {}",
                    self.v.map.power(u.power).name,
                    u.kind.letter(),
                    self.v.map.region_abbr(u.region).to_lowercase()
                )
            })
            .collect();
        v.sort();
        v
    }
}

/// What the DATC says about where the dislodged units of a case may go,
/// written out in full: (case, dislodged unit, every region it may retreat
/// to). The DATC sentence behind each is in the case file.
const RETREATS: &[(&str, &str, &[&str])] = &[
    // "The dislodged English fleet can retreat to Holland."
    (
        "6.F.7",
        "England: F nth",
        &["bel", "den", "edi", "eng", "hol", "nwg", "nwy", "yor"],
    ),
    ("6.H.1", "Austria: F tri", &["adr", "alb"]),
    ("6.H.1", "Turkey: F gre", &["alb", "bul/sc"]),
    (
        "6.H.2",
        "England: F nwy",
        &["bar", "nth", "nwg", "ska", "stp/nc"],
    ),
    ("6.H.2", "Russia: F edi", &["cly", "nth", "nwg"]),
    ("6.H.2", "Russia: F hol", &["bel", "hel", "nth"]),
    ("6.H.3", "England: A hol", &["bel"]),
    ("6.H.4", "England: A hol", &["bel"]),
    // "may not retreat to Black Sea"
    ("6.H.5", "Turkey: F ank", &["arm"]),
    // "It may not retreat to Bohemia."
    ("6.H.6", "Italy: A vie", &["gal", "tyr"]),
    ("6.H.7", "Italy: A vie", &["gal", "tyr"]),
    ("6.H.7", "Italy: A boh", &["gal", "tyr"]),
    (
        "6.H.8",
        "England: F nwy",
        &["bar", "nth", "nwg", "ska", "stp/nc"],
    ),
    ("6.H.8", "Russia: F edi", &["cly", "nth", "nwg"]),
    ("6.H.8", "Russia: F hol", &["bel", "hel", "nth"]),
    // "The fleet in Kiel can retreat to Berlin."
    ("6.H.9", "Germany: F kie", &["bal", "ber", "hol"]),
    ("6.H.9", "Russia: A pru", &["lvn", "war"]),
    // "The English army in Kiel cannot retreat to Berlin, but the army in
    // Prussia can retreat to Berlin."
    ("6.H.10", "England: A kie", &["den", "hol", "ruh"]),
    ("6.H.10", "Germany: A pru", &["ber", "lvn"]),
    // "Marseilles may retreat to Gascony."
    ("6.H.11", "Italy: A mar", &["gas", "pie", "spa"]),
    // "the army in Liverpool may retreat to Edinburgh."
    ("6.H.12", "England: A lvp", &["edi", "wal", "yor"]),
    ("6.H.12", "England: F eng", &["bel", "lon", "pic", "wal"]),
    // "The dislodged army in Picardy cannot retreat to London."
    ("6.H.13", "England: A pic", &["bel", "bur"]),
    // Both may retreat to Belgium (and bounce there).
    ("6.H.14", "England: A pic", &["bel"]),
    ("6.H.14", "France: A bur", &["bel", "gas", "par", "ruh"]),
    // "The English fleet in Portugal is destroyed and cannot retreat to
    // Spain(nc)."
    ("6.H.15", "England: F por", &[]),
    // "The French fleet in the Western Mediterranean cannot retreat to
    // Spain(sc)."
    ("6.H.16", "France: F wes", &["lyo", "naf"]),
    // Movement cases where the DATC does not discuss the retreat, but the
    // options test the same rules (worked out by us from the map):
    // a standoff in Sweden, the attacker's origin Livonia.
    ("6.D.7", "Germany: F bal", &["ber", "den", "kie"]),
    // Ankara is the attacker's origin and a standoff; both Bulgarian coasts.
    ("6.D.17", "Russia: F con", &["aeg", "bul/ec", "bul/sc"]),
    // Berlin is the attacker's origin.
    ("6.E.1", "Russia: A pru", &["lvn", "war"]),
    // Dislodged by the fleet from Picardy and by the fleet from Edinburgh.
    ("6.F.22", "France: F eng", &["iri", "mao", "wal"]),
    (
        "6.F.22",
        "Russia: F nth",
        &["den", "hel", "hol", "nwg", "ska", "yor"],
    ),
    // Lost the head-to-head battle with Picardy: not back there.
    ("6.G.4", "England: A bel", &["hol", "ruh"]),
    (
        "6.G.4",
        "England: F eng",
        &["iri", "lon", "nth", "pic", "wal"],
    ),
    ("6.G.11", "Russia: F ska", &["den"]),
    // Dislodged over land from Albania; Venice is occupied.
    ("6.G.13", "Austria: A tri", &["bud", "ser", "tyr", "vie"]),
    // Dislodged by a convoyed army from London, but London is a standoff
    // (the army from Yorkshire bounced the French army there).
    ("6.G.15", "France: A bel", &["bur", "pic", "ruh"]),
];

#[test]
fn movement_phase_gives_the_retreats_the_datc_states() {
    let ctx = Ctx::new();
    let map = &ctx.v.map;
    let rules = rules_for_file(&ctx.v, &text());
    let mut problems = Vec::new();
    let mut ids: Vec<&str> = RETREATS.iter().map(|r| r.0).collect();
    ids.dedup();
    for id in ids {
        let case = ctx.case(id);
        let m = ctx.movement(case);
        let r = adjudicate_movement(map, &rules, &m.units, &m.orders);
        if !case.results.is_empty() {
            // The retreat case's board, dislodged units and move results
            // must be what this movement phase gives.
            let after = ctx.describe(&r.units_after(&m.units));
            if after != ctx.describe(&ctx.units(&case.prestate)) {
                problems.push(format!("{id}: board after movement: {after:?}"));
            }
            let dislodged: Vec<Unit> = r.dislodged(&m.units).map(|(u, _)| u).collect();
            let dislodged = ctx.describe(&dislodged);
            if dislodged != ctx.describe(&ctx.units(&case.pre_dislodged)) {
                problems.push(format!("{id}: dislodged: {dislodged:?}"));
            }
            for &(i, ok) in &m.moves {
                let unit = m.units[i];
                let moved = r.units[i].outcome == Outcome::Moved;
                if moved != ok {
                    problems.push(format!(
                        "{id}: move of {:?}: expected success {ok}, got {:?}",
                        ctx.describe(&[unit]),
                        r.units[i].outcome
                    ));
                }
            }
        }
        for &(_, unit, expected) in RETREATS.iter().filter(|r| r.0 == id) {
            let u = ctx.unit(unit);
            let Some((_, d)) = r.dislodged(&m.units).find(|(x, _)| *x == u) else {
                problems.push(format!("{id}: {unit} is not dislodged"));
                continue;
            };
            let got = ctx.names(d.retreats.iter().copied());
            let want = ctx.names(
                expected
                    .iter()
                    .map(|s| parse_region(map, s, u.kind).unwrap_or_else(|| panic!("region {s}"))),
            );
            if got != want {
                problems.push(format!(
                    "{id}: {unit} may retreat to {got:?}, expected {want:?}"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The file tells today's preferences from the alternatives the DATC
/// discusses: under each alternative, the cases whose result the DATC text
/// says differs under it fail.
#[test]
fn file_separates_the_v3_preferences_from_their_alternatives() {
    use zinejudge::variant::rules::{CivilDisorderRule, ConvoyFallback, ConvoyIntent, ParadoxRule};
    let v = standard();
    let t = text();
    let base = rules_for_file(&v, &t);
    let alternatives: [(&str, Rulebook, &[&str]); 4] = [
        // 4.A.3, DATC v2: the land route as fallback for `via convoy`.
        (
            "land-route fallback",
            Rulebook {
                convoy_fallback: ConvoyFallback::LandRoute,
                ..base
            },
            &["6.G.8"],
        ),
        // 4.A.3, DPTG: only `via convoy` makes a convoy to an adjacent
        // province.
        (
            "explicit-only convoy intent",
            Rulebook {
                convoy_intent: ConvoyIntent::ExplicitOnly,
                ..base
            },
            &["6.G.1", "6.G.5", "6.G.6", "6.G.9"],
        ),
        // 4.A.2: the 'All Hold' rule differs on the simplest paradox.
        (
            "all-hold paradox rule",
            Rulebook {
                paradox: ParadoxRule::AllHold,
                ..base
            },
            &["6.F.14"],
        ),
        // 4.D.8: "Under older rulebooks the army in Tuscany was kept."
        (
            "distance to home centres",
            Rulebook {
                civil_disorder: CivilDisorderRule::HomeCentres,
                ..base
            },
            &["6.J.11"],
        ),
    ];
    for (name, rules, must_fail) in alternatives {
        let (_, failures) = run_text(&v, rules, &t).expect("file parses");
        let failed: BTreeSet<&str> = failures.iter().map(|f| f.id.as_str()).collect();
        for id in must_fail {
            assert!(
                failed.contains(id),
                "{id} should fail under the {name}; failed: {failed:?}"
            );
        }
    }
}
