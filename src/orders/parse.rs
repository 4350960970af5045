//! Reading one order as players write it, against a map.
//!
//! The grammar lives in this file and nowhere else. It is a small
//! recursive-descent parser over the tokens of [`super::lex`]: no
//! backtracking beyond the bounded look-ahead that matches multi-word
//! province names (longest match first, never more words than the longest
//! name on the map), so its cost is linear in the length of the line.
//!
//! ```text
//! order    := [power ':'] (keyword | unit rest)
//! keyword  := build [kind] place | build waived | waive [build] | no build
//!           | (remove | disband) unit | retreat unit move place
//! unit     := [n] kind '(' place ')' | [n] kind place | leader '(' place ')'
//!           | 'L' '(' leader ')' place | place
//! kind     := A | F | Army | Fleet | A/F | 3D
//! place    := name [coast]          name: full name, abbreviation or alias;
//!                                   a unique prefix of three letters or more
//! coast    := '/' c | '(' c ')' | c       c: nc, north coast, north, n
//! rest     := H | hold | stands                        hold
//!           | S [nation] unit [move place | H]         support
//!           | C [nation] unit move place               convoy
//!           | boards unit | disembarks unit [move place] [S by unit]
//!           | destroys unit | build | remove | disband
//!           | [return] move step {move step} [via convoy] [(x2)]
//! step     := place | H | S ... | C ...     (H, S, C only where a move has
//!                                            several impulses: 1700 AD)
//! move     := '-' | '->' | '–' | '—' | to | moves [to] | m | R | retreats [to]
//! ```
//!
//! The phase (or an order-sheet heading such as `Builds:`) decides how a
//! bare unit or a plain move reads: `A(Liv)-Kur` is a retreat in a retreat
//! phase, `A(Fin)` a build under `Builds:`. Orders of variants the game does
//! not play are refused with a reason ([`ParseErrorKind::NotInThisGame`]).

use super::PhaseKind;
use super::lex::{Tok, Token, lex};
use super::{
    AdjustCommand, AnyCommand, MainCommand, OrderSyntax, Place, RetreatCommand, Step, UnitRef,
};
use crate::map::{CoastId, Map, Named, PowerId, ProvinceId, UnitKind, normalize_name};
use std::fmt;
use std::ops::Range;

/// One parsed order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedOrder {
    /// The power named before a colon (`England: ...`), if any.
    pub power: Option<PowerId>,
    /// The order.
    pub command: AnyCommand,
}

/// Why an order could not be read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Byte range in the line.
    pub span: Range<usize>,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

/// The kinds of parse failure, each with what a reply needs to explain it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The line holds no order.
    Empty,
    /// A word where a province was expected names nothing on this map.
    UnknownPlace {
        /// The text as written.
        text: String,
        /// The closest names on the map, as `Name (Abbr)`.
        suggestions: Vec<String>,
    },
    /// An abbreviation that begins several names.
    AmbiguousPlace {
        /// The text as written.
        text: String,
        /// The names it could mean, as `Name (Abbr)`.
        candidates: Vec<String>,
    },
    /// A power name that this game does not have.
    UnknownPower {
        /// The text as written.
        text: String,
    },
    /// A coast that is not a coast of the map.
    UnknownCoast {
        /// The text as written.
        text: String,
    },
    /// An order or unit of a variant this game does not play.
    NotInThisGame {
        /// What it is, in words.
        what: &'static str,
    },
    /// Something else was expected here.
    Expected {
        /// What the grammar wanted.
        what: &'static str,
        /// What was there (empty at the end of the line).
        found: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ParseErrorKind::Empty => f.write_str("no order here"),
            ParseErrorKind::UnknownPlace { text, suggestions } => {
                write!(f, "unknown province `{text}`")?;
                if !suggestions.is_empty() {
                    write!(f, ". Did you mean {}?", suggestions.join(" or "))?;
                }
                Ok(())
            }
            ParseErrorKind::AmbiguousPlace { text, candidates } => {
                write!(
                    f,
                    "`{text}` could be {}: write more of the name",
                    candidates.join(", ")
                )
            }
            ParseErrorKind::UnknownPower { text } => write!(f, "unknown power `{text}`"),
            ParseErrorKind::UnknownCoast { text } => write!(f, "unknown coast `{text}`"),
            ParseErrorKind::NotInThisGame { what } => write!(f, "{what} are not part of this game"),
            ParseErrorKind::Expected { what, found } if found.is_empty() => {
                write!(f, "expected {what} at the end of the order")
            }
            ParseErrorKind::Expected { what, found } => {
                write!(f, "expected {what}, found `{found}`")
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// An order-sheet heading (`Builds:`) that says what the orders under it
/// are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heading {
    /// `Moves:`, `Orders:`.
    Moves,
    /// `Retreats:`.
    Retreats,
    /// `Builds:`, `Placements:`.
    Builds,
    /// `Removes:`, `Removals:`, `Disbands:`.
    Removes,
}

impl Heading {
    /// Read a heading word.
    pub fn from_word(w: &str) -> Option<Heading> {
        Some(match w {
            "moves" | "orders" | "movement" | "movements" => Heading::Moves,
            "retreats" | "retreat" => Heading::Retreats,
            "builds" | "build" | "placements" | "placement" | "adjustments" => Heading::Builds,
            "removes" | "removals" | "remove" | "disbands" => Heading::Removes,
            _ => return None,
        })
    }
}

/// What the parser knows about where an order stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Context {
    /// The phase the orders are for, when known.
    pub phase: Option<PhaseKind>,
    /// The order-sheet heading in force.
    pub heading: Option<Heading>,
    /// The A/F (or the boarded fleet) the order before this one named: the
    /// rule texts write a landing after it with no unit of its own
    /// (Abstraction II: `A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks
    /// Por`).
    pub carrier: Option<UnitRef>,
    /// What a unit named alone is in an adjustment phase with no heading
    /// in force: njudge's `<build>` and `<remove>` may be empty (`A Ber`),
    /// read as the power's adjustment due makes them (a build when it has
    /// builds due, a removal when it has removals due), which only the
    /// caller knows.
    pub bare: Option<Heading>,
}

pub(crate) const MOVE_WORDS: &[&str] = &[
    "to", "m", "moves", "move", "mv", "goes", "attacks", "advances", "marches", "sails",
];
pub(crate) const RETREAT_WORDS: &[&str] = &["r", "retreats", "retreat"];
pub(crate) const HOLD_WORDS: &[&str] = &["h", "hold", "holds", "stand", "stands", "stays", "hld"];
pub(crate) const SUPPORT_WORDS: &[&str] = &["s", "support", "supports", "sup", "supp", "sp"];
pub(crate) const CONVOY_WORDS: &[&str] = &[
    "c",
    "convoy",
    "convoys",
    "cvy",
    "ferries",
    "ferry",
    "transport",
    "transports",
    "t",
];
pub(crate) const BUILD_WORDS: &[&str] = &["build", "builds", "b"];
/// `Convert F(Dub) to A`, `Change F(Dub) into an army`.
const CONVERT_WORDS: &[&str] = &["convert", "change", "transform"];
/// `F(Dub) becomes A`.
const BECOMES_WORDS: &[&str] = &["becomes", "become", "converts", "changes"];
pub(crate) const REMOVE_WORDS: &[&str] = &["remove", "removes", "disband", "disbands", "d"];
pub(crate) const WAIVE_WORDS: &[&str] = &["waive", "waives", "waived"];
const BOARD_WORDS: &[&str] = &["boards", "board", "embarks", "embark"];
const DISEMBARK_WORDS: &[&str] = &["disembarks", "disembark", "lands", "land", "unloads"];
const DESTROY_WORDS: &[&str] = &["destroys", "destroy"];
const RETURN_WORDS: &[&str] = &["return", "returns"];

/// Whether a word can open an order (a unit kind or an order keyword):
/// used to tell orders from chat and to split `A Lon-Yor. F Edi-NTH.`.
pub(crate) fn starts_order(w: &str) -> bool {
    matches!(w, "a" | "f" | "army" | "fleet" | "af" | "3d" | "l")
        || is_stack_word(w).is_some()
        || BUILD_WORDS[..2].contains(&w)
        || REMOVE_WORDS[..4].contains(&w)
        || WAIVE_WORDS.contains(&w)
}

/// Whether a word names a unit's kind (`A`, `Fleet`, `3D`, `2F`).
pub(crate) fn is_kind_word(w: &str) -> bool {
    matches!(w, "a" | "f" | "army" | "fleet" | "af" | "3d") || is_stack_word(w).is_some()
}

/// `2f` -> (2, fleet).
fn is_stack_word(w: &str) -> Option<(u8, UnitKind)> {
    let kind = match w.chars().last()? {
        'f' => UnitKind::Fleet,
        'a' => UnitKind::Army,
        _ => return None,
    };
    let n: u8 = w[..w.len() - 1].parse().ok()?;
    (n >= 1).then_some((n, kind))
}

/// Parses orders against one map and one game's notation.
pub struct OrderParser<'m> {
    map: &'m Map,
    syntax: OrderSyntax,
    /// Normalised leader names.
    leaders: Vec<String>,
    /// Longest name on the map, in words: bounds the name look-ahead.
    max_words: usize,
    /// Longest name on the map, in characters: a longer word has no close
    /// name to suggest.
    max_chars: usize,
    /// Suggestions still to make: a mail of thousands of unknown names gets
    /// its first hundred suggested, the rest only refused (each suggestion
    /// compares the word with every name on the map).
    suggestions_left: std::cell::Cell<u32>,
}

pub(crate) struct Cursor<'a> {
    pub(crate) toks: &'a [Token],
    pub(crate) pos: usize,
    pub(crate) line: &'a str,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.pos)
    }
    fn peek_word(&self) -> Option<&'a str> {
        self.peek()
            .filter(|t| t.tok == Tok::Word)
            .map(|t| t.text.as_str())
    }
    fn word_at(&self, k: usize) -> Option<&'a str> {
        self.toks
            .get(self.pos + k)
            .filter(|t| t.tok == Tok::Word)
            .map(|t| t.text.as_str())
    }
    fn at(&self, tok: Tok) -> bool {
        self.peek().is_some_and(|t| t.tok == tok)
    }
    fn eat(&mut self, tok: Tok) -> bool {
        if self.at(tok) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn eat_word(&mut self, words: &[&str]) -> bool {
        match self.peek_word() {
            Some(w) if words.contains(&w) => {
                self.pos += 1;
                true
            }
            _ => false,
        }
    }
    fn end(&self) -> bool {
        self.toks[self.pos..]
            .iter()
            .all(|t| matches!(t.tok, Tok::Sep | Tok::Stop))
    }
    fn here(&self) -> Range<usize> {
        match (self.peek(), self.toks.last()) {
            (Some(t), _) => t.span.clone(),
            (None, Some(last)) => last.span.end..last.span.end,
            (None, None) => self.line.len()..self.line.len(),
        }
    }
    fn expected(&self, what: &'static str) -> ParseError {
        let found = match self.peek() {
            Some(t) => self.line[t.span.clone()].to_string(),
            None => String::new(),
        };
        ParseError {
            span: self.here(),
            kind: ParseErrorKind::Expected { what, found },
        }
    }
    fn not_here(&self, what: &'static str) -> ParseError {
        ParseError {
            span: self.here(),
            kind: ParseErrorKind::NotInThisGame { what },
        }
    }
}

/// A unit reference with the variant marks that came with it.
struct UnitSpec {
    unit: UnitRef,
    stack: u8,
}

impl<'m> OrderParser<'m> {
    /// A parser for standard notation on `map`.
    pub fn new(map: &'m Map) -> Self {
        Self::with_syntax(map, OrderSyntax::default())
    }

    /// A parser for a game whose variant allows `syntax`.
    pub fn with_syntax(map: &'m Map, syntax: OrderSyntax) -> Self {
        let max_words = map
            .names()
            .map(|(n, _)| n.split(' ').count())
            .max()
            .unwrap_or(1);
        let max_chars = map
            .names()
            .map(|(n, _)| n.chars().count())
            .max()
            .unwrap_or(1);
        let leaders = syntax.leaders.iter().map(|l| normalize_name(l)).collect();
        OrderParser {
            map,
            syntax,
            leaders,
            max_words,
            max_chars,
            suggestions_left: std::cell::Cell::new(100),
        }
    }

    /// The map orders are read against.
    pub fn map(&self) -> &'m Map {
        self.map
    }

    /// Parse one order on a line of its own.
    pub fn parse(&self, line: &str, phase: Option<PhaseKind>) -> Result<ParsedOrder, ParseError> {
        let toks = lex(line);
        self.parse_tokens(
            line,
            &toks,
            Context {
                phase,
                heading: None,
                carrier: None,
                bare: None,
            },
        )
    }

    /// Parse one order from its tokens (a segment of `line`).
    pub(crate) fn parse_tokens(
        &self,
        line: &str,
        toks: &[Token],
        ctx: Context,
    ) -> Result<ParsedOrder, ParseError> {
        let mut c = Cursor { toks, pos: 0, line };
        if c.end() {
            return Err(ParseError {
                span: 0..line.len(),
                kind: ParseErrorKind::Empty,
            });
        }
        let power = self.power_prefix(&mut c)?;
        let command = self.order(&mut c, ctx)?;
        if !c.end() {
            return Err(c.expected("the end of the order"));
        }
        Ok(ParsedOrder { power, command })
    }

    /// `England:` before an order.
    fn power_prefix(&self, c: &mut Cursor<'_>) -> Result<Option<PowerId>, ParseError> {
        let Some(k) = c.toks[c.pos..].iter().position(|t| t.tok == Tok::Colon) else {
            return Ok(None);
        };
        let words = &c.toks[c.pos..c.pos + k];
        if words.is_empty() || words.len() > 6 {
            return Ok(None);
        }
        let Some(name) = crate::orders::lex::name_words(words) else {
            return Ok(None);
        };
        let span = words[0].span.start..words[words.len() - 1].span.end;
        match self.map.lookup_power(&name.join(" ")) {
            Some(p) => {
                c.pos += k + 1;
                Ok(Some(p))
            }
            None => Err(ParseError {
                span: span.clone(),
                kind: ParseErrorKind::UnknownPower {
                    text: c.line[span].to_string(),
                },
            }),
        }
    }

    fn order(&self, c: &mut Cursor<'_>, ctx: Context) -> Result<AnyCommand, ParseError> {
        let retreat = ctx.heading == Some(Heading::Retreats)
            || (ctx.heading.is_none() && ctx.phase == Some(PhaseKind::Retreat));
        if let Some(order) = self.keyword_first(c, ctx, retreat)? {
            return Ok(order);
        }
        let spec = self.unit(c)?;
        if let Some(order) = self.unit_then_keyword(c, ctx, retreat, spec.unit)? {
            return Ok(order);
        }
        self.movement(c, spec)
    }

    /// The orders that begin with their keyword (`Build A Par`, `Waive`,
    /// `Remove F Bre`, `Retreat A Bur - Par`, `A disembarks Por`), or
    /// `None` when the line begins with the unit.
    fn keyword_first(
        &self,
        c: &mut Cursor<'_>,
        ctx: Context,
        retreat: bool,
    ) -> Result<Option<AnyCommand>, ParseError> {
        // Keyword-first forms; the one-letter ones (`B A Par`, `D F Bre`)
        // only before a unit's kind, where they cannot be a province.
        let kind_next = c.word_at(1).is_some_and(is_kind_word);
        if c.eat_word(&BUILD_WORDS[..2]) || (kind_next && c.eat_word(&["b"])) {
            if c.eat_word(WAIVE_WORDS) {
                return Ok(Some(AnyCommand::Adjust(AdjustCommand::Waive)));
            }
            let spec = self.unit(c)?;
            return Ok(Some(AnyCommand::Adjust(AdjustCommand::Build {
                kind: spec.unit.kind,
                at: spec.unit.at,
            })));
        }
        if c.eat_word(WAIVE_WORDS) {
            c.eat_word(&BUILD_WORDS[..2]);
            return Ok(Some(AnyCommand::Adjust(AdjustCommand::Waive)));
        }
        if c.peek_word() == Some("no")
            && c.word_at(1).is_some_and(|w| BUILD_WORDS[..2].contains(&w))
        {
            c.pos += 2;
            return Ok(Some(AnyCommand::Adjust(AdjustCommand::Waive)));
        }
        if c.peek_word().is_some_and(|w| CONVERT_WORDS.contains(&w)) {
            if !self.syntax.convert {
                return Err(c.not_here("changing a unit's kind (Ard-Ri's Viking rule)"));
            }
            c.pos += 1;
            let unit = self.unit(c)?.unit;
            return self.convert_to(c, unit).map(Some);
        }
        // njudge's `r A Mun` is a removal where removals are ordered.
        let removing = ctx.heading == Some(Heading::Removes)
            || (ctx.heading.is_none() && ctx.phase == Some(PhaseKind::Adjustment));
        if c.eat_word(&REMOVE_WORDS[..4])
            || (kind_next && (c.eat_word(&["d"]) || (removing && c.eat_word(&["r"]))))
        {
            let spec = self.unit(c)?;
            return Ok(Some(if retreat {
                AnyCommand::Retreat(spec.unit, RetreatCommand::Disband)
            } else {
                AnyCommand::Adjust(AdjustCommand::Remove { unit: spec.unit })
            }));
        }
        if c.peek_word()
            .is_some_and(|w| RETREAT_WORDS[1..].contains(&w))
            && !self.is_place_here(c)
        {
            c.pos += 1;
            let spec = self.unit(c)?;
            if !self.move_word(c) {
                return Err(c.expected("`-` and where the unit retreats to"));
            }
            let to = self.place(c)?;
            return Ok(Some(AnyCommand::Retreat(
                spec.unit,
                RetreatCommand::Move { to },
            )));
        }

        // The rule text's own landing after the A/F's order: `A disembarks
        // Por` is the army of the A/F (or boarded fleet) the order before
        // named, landing there.
        if self.syntax.boarding
            && c.peek_word().is_some_and(|w| matches!(w, "a" | "army"))
            && c.word_at(1).is_some_and(|w| DISEMBARK_WORDS.contains(&w))
        {
            let Some(carrier) = ctx.carrier else {
                return Err(c.expected(
                    "the A/F the army lands from, named before it (A/F(ENG)-MAO, A disembarks \
                     Por) or in the order (A/F(ENG) disembarks A(Pic))",
                ));
            };
            c.pos += 2;
            c.eat_word(&["in", "at", "to", "into", "on"]);
            let to = self.place(c)?;
            return Ok(Some(AnyCommand::Main(
                carrier,
                MainCommand::Disembark {
                    to,
                    fleet_supports: false,
                },
            )));
        }
        Ok(None)
    }

    /// The orders of a unit named first whose keyword follows it (`A Par
    /// builds`, `F Bre disbands`, `F(Dub) becomes A`, boarding, landing,
    /// destroying, a retreat), or `None` for a movement order.
    fn unit_then_keyword(
        &self,
        c: &mut Cursor<'_>,
        ctx: Context,
        retreat: bool,
        unit: UnitRef,
    ) -> Result<Option<AnyCommand>, ParseError> {
        // A bare unit under a heading (or in an adjustment phase, read as
        // the power's adjustment due makes it).
        if c.end() {
            let bare = ctx
                .bare
                .filter(|_| ctx.heading.is_none() && ctx.phase == Some(PhaseKind::Adjustment));
            return (match ctx.heading.or(bare) {
                Some(Heading::Builds) => Ok(AnyCommand::Adjust(AdjustCommand::Build {
                    kind: unit.kind,
                    at: unit.at,
                })),
                Some(Heading::Removes) => Ok(AnyCommand::Adjust(AdjustCommand::Remove { unit })),
                _ => Err(c.expected("an order for the unit (`-`, `H`, `S` or `C`)")),
            })
            .map(Some);
        }
        if c.eat_word(&BUILD_WORDS[..2]) {
            return Ok(Some(AnyCommand::Adjust(AdjustCommand::Build {
                kind: unit.kind,
                at: unit.at,
            })));
        }
        if c.eat_word(REMOVE_WORDS) {
            return Ok(Some(if retreat {
                AnyCommand::Retreat(unit, RetreatCommand::Disband)
            } else {
                AnyCommand::Adjust(AdjustCommand::Remove { unit })
            }));
        }
        if c.peek_word().is_some_and(|w| BECOMES_WORDS.contains(&w)) {
            if !self.syntax.convert {
                return Err(c.not_here("changing a unit's kind (Ard-Ri's Viking rule)"));
            }
            c.pos += 1;
            return self.convert_to(c, unit).map(Some);
        }
        if c.peek_word().is_some_and(|w| BOARD_WORDS.contains(&w)) {
            if !self.syntax.boarding {
                return Err(c.not_here("boarding orders (Abstraction II's A/F rules)"));
            }
            c.pos += 1;
            let fleet = self.unit(c)?.unit;
            return Ok(Some(AnyCommand::Main(unit, MainCommand::Board { fleet })));
        }
        if c.peek_word().is_some_and(|w| DISEMBARK_WORDS.contains(&w)) {
            if !self.syntax.boarding {
                return Err(c.not_here("disembarking orders (Abstraction II's A/F rules)"));
            }
            c.pos += 1;
            let army = self.unit(c)?.unit;
            let to = if self.move_word(c) {
                self.place(c)?
            } else {
                army.at
            };
            let mut fleet_supports = false;
            if c.eat_word(SUPPORT_WORDS) {
                c.eat_word(&["by"]);
                self.unit(c)?;
                fleet_supports = true;
            }
            return Ok(Some(AnyCommand::Main(
                unit,
                MainCommand::Disembark { to, fleet_supports },
            )));
        }
        if c.peek_word().is_some_and(|w| DESTROY_WORDS.contains(&w)) {
            if !self.syntax.destroy {
                return Err(c.not_here("destroy orders (1066's Straits of Dover rule)"));
            }
            c.pos += 1;
            let target = self.unit(c)?.unit;
            return Ok(Some(AnyCommand::Main(
                unit,
                MainCommand::Destroy { target },
            )));
        }
        if retreat && (c.eat_word(RETREAT_WORDS) || self.move_word(c)) {
            c.eat_word(&["to"]);
            let to = self.place(c)?;
            return Ok(Some(AnyCommand::Retreat(unit, RetreatCommand::Move { to })));
        }
        Ok(None)
    }

    /// A movement order of the unit `spec`: a hold, a support, a convoy,
    /// or a chain of steps (1700 AD II's impulses).
    fn movement(&self, c: &mut Cursor<'_>, spec: UnitSpec) -> Result<AnyCommand, ParseError> {
        let unit = spec.unit;
        // Movement: a hold, a support, a convoy, or a chain of steps.
        let mut steps = Vec::new();
        let first_is_move = self.move_word(c) || c.eat_word(RETREAT_WORDS) || {
            // `Raiding Return - North Atlantic`
            if c.eat_word(RETURN_WORDS) {
                self.move_word(c);
                true
            } else {
                false
            }
        };
        steps.push(self.step(c, first_is_move)?);
        loop {
            if self.move_word(c) {
                steps.push(self.step(c, true)?);
            } else if self.impulse_comma(c) {
                // `A(Lit) H, S A(WRu)`: a comma between impulses.
                steps.push(self.step(c, false)?);
            } else {
                break;
            }
        }
        let mut via_convoy = false;
        if c.eat_word(&["via", "by"]) {
            if !c.eat_word(&["convoy", "c", "cvy", "sea"]) {
                return Err(c.expected("`convoy` after `via`"));
            }
            via_convoy = true;
        }
        let double = self.double_mark(c)?;
        self.finish_main(c, unit, spec.stack, steps, via_convoy, double)
    }

    /// The rest of `F(Dub) becomes A`, `Change F(Dub) into an army`.
    fn convert_to(&self, c: &mut Cursor<'_>, unit: UnitRef) -> Result<AnyCommand, ParseError> {
        c.eat_word(&["to", "into"]);
        // An article: `into an army`, `to a fleet` (but `becomes A`).
        if c.peek_word() == Some("an")
            || (c.peek_word() == Some("a")
                && c.word_at(1).is_some_and(|w| w == "army" || w == "fleet"))
        {
            c.pos += 1;
        }
        let to = match c.peek_word() {
            Some("a" | "army") => UnitKind::Army,
            Some("f" | "fleet") => UnitKind::Fleet,
            _ => return Err(c.expected("what the unit becomes: `A` or `F`")),
        };
        c.pos += 1;
        Ok(AnyCommand::Adjust(AdjustCommand::Convert { unit, to }))
    }

    /// `(x2)` after a 1700 AD order.
    fn double_mark(&self, c: &mut Cursor<'_>) -> Result<bool, ParseError> {
        let start = c.pos;
        let paren = c.eat(Tok::LParen);
        if c.eat_word(&["x2", "2x"]) {
            if paren && !c.eat(Tok::RParen) {
                return Err(c.expected("`)` after `x2`"));
            }
            if !self.syntax.impulses {
                c.pos = start;
                return Err(c.not_here("double-strength marks (1700 AD)"));
            }
            return Ok(true);
        }
        c.pos = start;
        Ok(false)
    }

    /// One step of a move chain: a place, or (1700 AD) hold, support or
    /// convoy. `after_move` is false for the first step when no move word
    /// came before it.
    fn step(&self, c: &mut Cursor<'_>, after_move: bool) -> Result<Step, ParseError> {
        if c.eat_word(HOLD_WORDS) {
            return Ok(Step::Hold);
        }
        if c.eat_word(SUPPORT_WORDS) {
            self.skip_nationality(c);
            let v = self.unit(c)?.unit;
            // `F Wal S MAO IRI`: DPjudge's format lets the move's dash go.
            if self.move_word(c) || self.is_place_here(c) {
                let to = self.place(c)?;
                return Ok(Step::SupportMove(v, to));
            }
            c.eat_word(HOLD_WORDS);
            return Ok(Step::SupportHold(v));
        }
        if c.eat_word(CONVOY_WORDS) {
            self.skip_nationality(c);
            let v = self.unit(c)?.unit;
            if !self.move_word(c) && !self.is_place_here(c) {
                return Err(c.expected("`-` and the convoyed army's destination"));
            }
            let to = self.place(c)?;
            return Ok(Step::Convoy(v, to));
        }
        // `A Lvp Yor`: a place straight after the unit is where it moves.
        if !after_move && !self.is_place_here(c) {
            return Err(c.expected("an order for the unit (`-`, `H`, `S` or `C`)"));
        }
        Ok(Step::Move(self.place(c)?))
    }

    /// Turn a chain of steps into the command it stands for in this game.
    fn finish_main(
        &self,
        c: &Cursor<'_>,
        unit: UnitRef,
        stack: u8,
        steps: Vec<Step>,
        via_convoy: bool,
        double: bool,
    ) -> Result<AnyCommand, ParseError> {
        if self.syntax.impulses && (steps.len() > 1 || double || stack > 1) {
            return Ok(AnyCommand::Main(
                unit,
                MainCommand::Impulses {
                    stack,
                    steps,
                    double,
                },
            ));
        }
        let command = match steps.as_slice() {
            [Step::Hold] => MainCommand::Hold,
            [Step::SupportHold(v)] => MainCommand::SupportHold { unit: *v },
            [Step::SupportMove(v, to)] => MainCommand::SupportMove { unit: *v, to: *to },
            [Step::Convoy(v, to)] => MainCommand::Convoy { unit: *v, to: *to },
            _ => {
                // All moves: a route written out (`A Lon-ENG-Bre`).
                let mut places = Vec::with_capacity(steps.len());
                for s in &steps {
                    match s {
                        Step::Move(p) => places.push(*p),
                        _ => return Err(c.not_here("orders with several impulses (1700 AD)")),
                    }
                }
                let to = places.pop().unwrap_or(unit.at);
                let route: Vec<ProvinceId> = places.into_iter().map(|p| p.province).collect();
                MainCommand::Move {
                    to,
                    via_convoy: via_convoy || !route.is_empty(),
                    route,
                }
            }
        };
        Ok(AnyCommand::Main(unit, command))
    }

    /// A comma before a hold, support or convoy: the unit's next impulse
    /// (1700 AD; elsewhere the several impulses are refused with the
    /// reason).
    fn impulse_comma(&self, c: &mut Cursor<'_>) -> bool {
        let next_is_step = c.toks.get(c.pos + 1).is_some_and(|t| {
            t.tok == Tok::Word
                && [HOLD_WORDS, SUPPORT_WORDS, CONVOY_WORDS]
                    .iter()
                    .any(|ws| ws.contains(&t.text.as_str()))
        });
        if c.at(Tok::Sep) && next_is_step {
            c.pos += 1;
            true
        } else {
            false
        }
    }

    fn move_word(&self, c: &mut Cursor<'_>) -> bool {
        if c.eat(Tok::Dash) {
            return true;
        }
        // `to` alone, `moves to`, `m`; but not a province that happens to
        // be spelled like one of these words.
        if c.peek_word().is_some_and(|w| MOVE_WORDS.contains(&w)) && !self.is_place_here(c) {
            c.pos += 1;
            c.eat_word(&["to"]);
            c.eat(Tok::Dash);
            return true;
        }
        false
    }

    /// Whether the tokens at the cursor spell a province name exactly.
    fn is_place_here(&self, c: &Cursor<'_>) -> bool {
        c.peek_word()
            .is_some_and(|w| self.map.lookup_word(w).is_some())
    }

    /// A nationality in a support or convoy (`S Turkish F Con-Bul`) is
    /// ignored (DATC 4.C.5, 4.C.6).
    fn skip_nationality(&self, c: &mut Cursor<'_>) {
        if let Some(w) = c.peek_word()
            && self.map.lookup_power(w).is_some()
            && self.map.lookup_word(w).is_none()
        {
            c.pos += 1;
        }
    }

    /// A unit kind, with the marks some variants put on it.
    fn kind(&self, c: &mut Cursor<'_>) -> Result<(Option<UnitKind>, u8), ParseError> {
        let Some(w) = c.peek_word() else {
            return Ok((None, 1));
        };
        // `A/F`
        if (w == "a" || w == "army")
            && c.toks.get(c.pos + 1).is_some_and(|t| t.tok == Tok::Slash)
            && c.word_at(2).is_some_and(|x| x == "f" || x == "fleet")
        {
            if !self.syntax.army_fleet {
                return Err(c.not_here("A/F units"));
            }
            c.pos += 3;
            return Ok((Some(UnitKind::ArmyFleet), 1));
        }
        let kind = match w {
            "a" | "army" => UnitKind::Army,
            "f" | "fleet" => UnitKind::Fleet,
            "af" => {
                if !self.syntax.army_fleet {
                    return Err(c.not_here("A/F units"));
                }
                UnitKind::ArmyFleet
            }
            "3d" => {
                if !self.syntax.defensive_army {
                    return Err(c.not_here("defensive armies (3D)"));
                }
                UnitKind::DefensiveArmy
            }
            // 1000 AD rule 7: "no factors of a defensive army may be broken
            // down to form D's or 2D's".
            "2d" | "1d" if self.syntax.defensive_army => {
                return Err(c.not_here("defensive armies of less than three (D, 2D; rule 7)"));
            }
            _ => {
                if let Some((n, k)) = is_stack_word(w)
                    && n > 1
                {
                    if !self.syntax.impulses {
                        return Err(c.not_here("stacked fleets (1700 AD)"));
                    }
                    c.pos += 1;
                    return Ok((Some(k), n));
                }
                return Ok((None, 1));
            }
        };
        // `A` or `F` directly followed by a name that starts with it is
        // still a kind: `A Ank`.
        c.pos += 1;
        Ok((Some(kind), 1))
    }

    fn unit(&self, c: &mut Cursor<'_>) -> Result<UnitSpec, ParseError> {
        // `L(Mar) Lon`: a leader, as the 1700 AD set-up writes it.
        if c.peek_word() == Some("l") && c.toks.get(c.pos + 1).is_some_and(|t| t.tok == Tok::LParen)
        {
            let save = c.pos;
            c.pos += 2;
            if let Some(w) = c.peek_word()
                && self.leaders.iter().any(|l| *l == w)
            {
                c.pos += 1;
                if !c.eat(Tok::RParen) {
                    return Err(c.expected("`)` after the leader's name"));
                }
                let at = self.place(c)?;
                return Ok(UnitSpec {
                    unit: UnitRef {
                        kind: Some(UnitKind::Leader),
                        at,
                    },
                    stack: 1,
                });
            }
            c.pos = save;
            if self.leaders.is_empty() {
                return Err(c.not_here("leaders (1700 AD)"));
            }
            // `L(Got)`: a leader where it stands, as the judge prints it.
            c.pos = save + 2;
            if let Ok(at) = self.place(c)
                && c.eat(Tok::RParen)
            {
                return Ok(UnitSpec {
                    unit: UnitRef {
                        kind: Some(UnitKind::Leader),
                        at,
                    },
                    stack: 1,
                });
            }
            c.pos = save;
        }
        // `CXII(Got)`: a leader by name.
        if let Some(w) = c.peek_word()
            && c.toks.get(c.pos + 1).is_some_and(|t| t.tok == Tok::LParen)
            && self.leaders.iter().any(|l| l == w)
        {
            c.pos += 2;
            let at = self.place(c)?;
            if !c.eat(Tok::RParen) {
                return Err(c.expected("`)`"));
            }
            return Ok(UnitSpec {
                unit: UnitRef {
                    kind: Some(UnitKind::Leader),
                    at,
                },
                stack: 1,
            });
        }
        let (kind, stack) = self.kind(c)?;
        // `Q(Mos)`: a word before a bracketed place that is neither a kind
        // nor a leader's name nor a place is a mistyped kind.
        if kind.is_none()
            && c.toks.get(c.pos + 1).is_some_and(|t| t.tok == Tok::LParen)
            && !self.is_place_here(c)
        {
            return Err(c.expected(if self.leaders.is_empty() {
                "a unit's kind (`A` or `F`) before the bracket"
            } else {
                "a unit's kind (`A`, `F`, `L`) or a leader's name before the bracket"
            }));
        }
        let at = if kind.is_some() && c.eat(Tok::LParen) {
            let p = self.place(c)?;
            if !c.eat(Tok::RParen) {
                return Err(c.expected("`)`"));
            }
            p
        } else {
            self.place(c)?
        };
        Ok(UnitSpec {
            unit: UnitRef { kind, at },
            stack,
        })
    }

    /// A province name (longest match, then unique prefix) with an
    /// optional coast.
    fn place(&self, c: &mut Cursor<'_>) -> Result<Place, ParseError> {
        let start = c.pos;
        // Candidate words; a hyphen may join words when the joined form is
        // a name (`Mid-Atlantic Ocean`). Reading stops as soon as no name
        // of the map continues the words read.
        let mut words: Vec<(&str, usize)> = Vec::new(); // (word, token index after it)
        let mut key = String::new();
        let mut best: Option<(Named, usize)> = None;
        let mut i = c.pos;
        while words.len() < self.max_words {
            let next = match c.toks.get(i) {
                Some(t) if t.tok == Tok::Word => Some((t.text.as_str(), i + 1)),
                Some(t) if t.tok == Tok::Dash && !words.is_empty() => match c.toks.get(i + 1) {
                    Some(n) if n.tok == Tok::Word => Some((n.text.as_str(), i + 2)),
                    _ => None,
                },
                _ => None,
            };
            let Some((w, after)) = next else { break };
            if !key.is_empty() {
                key.push(' ');
            }
            if w.contains(['.', '\'', '\u{2019}']) {
                key.push_str(&normalize_name(w));
            } else {
                key.push_str(w);
            }
            words.push((w, after));
            i = after;
            if let Some(named) = self.map.lookup_normalized(&key) {
                best = Some((named, after));
            }
            if !self.map.is_name_prefix(&key) {
                break;
            }
        }
        if words.is_empty() {
            return Err(c.expected("a province"));
        }
        if let Some((named, after)) = best {
            c.pos = after;
            let place = match named {
                Named::Province(p) => Place::province(p),
                Named::Region(r) => Place::of_region(self.map, r),
            };
            return self.coast(c, place);
        }
        // Read more words for the prefix search below.
        while words.len() < self.max_words {
            match c.toks.get(i) {
                Some(t) if t.tok == Tok::Word => {
                    words.push((t.text.as_str(), i + 1));
                    i += 1;
                }
                _ => break,
            }
        }
        // A unique prefix of a name (`Bulg`, `Mid Atl`), never shorter
        // than three letters; several candidates are an error that lists
        // them.
        for n in (1..=words.len()).rev() {
            let joined: Vec<&str> = words[..n].iter().map(|(w, _)| *w).collect();
            let key = normalize_name(&joined.join(" "));
            // A name the map marks as meaning several places is asked
            // about, never guessed.
            let several = self.map.ambiguous(&key);
            if !several.is_empty() {
                let t0 = &c.toks[start];
                let t1 = &c.toks[words[n - 1].1 - 1];
                let span = t0.span.start..t1.span.end;
                return Err(ParseError {
                    kind: ParseErrorKind::AmbiguousPlace {
                        text: c.line[span.clone()].to_string(),
                        candidates: several.iter().map(|&p| self.label(p)).collect(),
                    },
                    span,
                });
            }
            if key.len() < 3 {
                continue;
            }
            let cands = self.prefix_candidates(&key);
            match cands.len() {
                0 => continue,
                1 => {
                    c.pos = words[n - 1].1;
                    return self.coast(c, Place::province(cands[0]));
                }
                _ => {
                    let t0 = &c.toks[start];
                    let t1 = &c.toks[words[n - 1].1 - 1];
                    let span = t0.span.start..t1.span.end;
                    return Err(ParseError {
                        kind: ParseErrorKind::AmbiguousPlace {
                            text: c.line[span.clone()].to_string(),
                            candidates: cands.iter().map(|&p| self.label(p)).collect(),
                        },
                        span,
                    });
                }
            }
        }
        let t = &c.toks[start];
        let text = c.line[t.span.clone()].trim_end_matches('.').to_string();
        if t.text == "raiding" {
            return Err(c.not_here("raids (Ard-Ri)"));
        }
        Err(ParseError {
            span: t.span.clone(),
            kind: ParseErrorKind::UnknownPlace {
                suggestions: self.suggest(&text),
                text,
            },
        })
    }

    fn label(&self, p: ProvinceId) -> String {
        let prov = self.map.province(p);
        format!("{} ({})", prov.name, prov.abbr)
    }

    /// Provinces one of whose names starts with `key`.
    fn prefix_candidates(&self, key: &str) -> Vec<ProvinceId> {
        let mut out: Vec<ProvinceId> = Vec::new();
        for (name, named) in self.map.names() {
            if let Named::Province(p) = named
                && name.starts_with(key)
                && !out.contains(&p)
            {
                out.push(p);
            }
        }
        out.sort();
        out
    }

    /// `/nc`, `(nc)`, `(north coast)`, ` north coast`, ` nc` after a place.
    fn coast(&self, c: &mut Cursor<'_>, mut place: Place) -> Result<Place, ParseError> {
        let save = c.pos;
        let paren = c.eat(Tok::LParen);
        let slash = !paren && c.eat(Tok::Slash);
        if paren || slash {
            let mut words = Vec::new();
            while let Some(w) = c.peek_word() {
                words.push(w);
                c.pos += 1;
                if words.len() == 2 || w == "coast" {
                    break;
                }
            }
            let text = words.join(" ");
            if let Some(cid) = self.lookup_coast(&text) {
                if paren && !c.eat(Tok::RParen) {
                    return Err(c.expected("`)` after the coast"));
                }
                place.coast = Some(cid);
                return Ok(place);
            }
            // `(nc)` where only the first word is the coast.
            c.pos = save + 1;
            if let Some(w) = c.peek_word()
                && let Some(cid) = self.lookup_coast(w)
            {
                c.pos += 1;
                if paren && !c.eat(Tok::RParen) {
                    return Err(c.expected("`)` after the coast"));
                }
                place.coast = Some(cid);
                return Ok(place);
            }
            if paren {
                // `A(Lon)` closes here: the paren was the unit's.
                c.pos = save;
                return Ok(place);
            }
            return Err(ParseError {
                span: c.here(),
                kind: ParseErrorKind::UnknownCoast { text },
            });
        }
        // Bare words after a place are only a coast when they are one:
        // `StP nc`, `St Petersburg north coast`.
        if let Some(w) = c.peek_word() {
            if c.word_at(1) == Some("coast")
                && let Some(cid) = self.lookup_coast(&format!("{w} coast"))
            {
                c.pos += 2;
                place.coast = Some(cid);
            } else if self
                .map
                .coasts
                .iter()
                .any(|k| k.abbr.eq_ignore_ascii_case(w))
                && let Some(cid) = self.lookup_coast(w)
            {
                c.pos += 1;
                place.coast = Some(cid);
            }
        }
        Ok(place)
    }

    fn lookup_coast(&self, text: &str) -> Option<CoastId> {
        if let Some(c) = self.map.lookup_coast(text) {
            return Some(c);
        }
        // `north`, `n`, `north coast` -> nc
        let t = normalize_name(text);
        let t = t.strip_suffix(" coast").unwrap_or(&t);
        if t.is_empty() {
            return None;
        }
        let mut found = None;
        for (i, coast) in self.map.coasts.iter().enumerate() {
            let name = normalize_name(&coast.name);
            let first = name.split(' ').next().unwrap_or("");
            if first == t || (t.len() == 1 && first.starts_with(t)) {
                if found.is_some() {
                    return None;
                }
                found = Some(CoastId(i as u8));
            }
        }
        found
    }

    /// Up to three map names closest to `text`, as `Name (Abbr)`.
    pub fn suggest(&self, text: &str) -> Vec<String> {
        let left = self.suggestions_left.get();
        if left == 0 || text.chars().count() > self.max_chars + 8 {
            return Vec::new();
        }
        self.suggestions_left.set(left - 1);
        let key = normalize_name(text);
        let mut scored: Vec<(f64, ProvinceId)> = Vec::new();
        for (name, named) in self.map.names() {
            let Named::Province(p) = named else { continue };
            let score = strsim::jaro_winkler(&key, name);
            if score >= 0.75 {
                match scored.iter_mut().find(|(_, q)| *q == p) {
                    Some(e) => e.0 = e.0.max(score),
                    None => scored.push((score, p)),
                }
            }
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        scored
            .into_iter()
            .take(3)
            .map(|(_, p)| self.label(p))
            .collect()
    }
}
