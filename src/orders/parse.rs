//! Reading one order as players write it, against a map.
//!
//! The grammar lives in this file and nowhere else. It is a small
//! recursive-descent parser over a token list: no backtracking beyond the
//! bounded look-ahead needed to match multi-word province names (longest
//! match first, at most as many words as the longest name in the map), so
//! its cost is linear in the length of the line.
//!
//! ```text
//! line     := [power ':'] order
//! order    := unit main | unit retreat | adjust           (by phase)
//! unit     := [kind] place | kind '(' place ')'
//! kind     := A | F | Army | Fleet | A/F | 3D
//! place    := name [coast]
//! coast    := '/' c | '(' c ')' | c                         nc, north coast, north
//! main     := H | Hold | Stands
//!           | move place {move place} [via convoy]          route = the middle places
//!           | S [nationality] unit [move place | H]
//!           | C [nationality] unit move place
//! move     := '-' | '->' | '–' | '—' | to | moves [to] | m
//! retreat  := move place | R place | disband
//! adjust   := build [kind] place | [kind] place build
//!           | (remove | disband) unit | unit (remove | disband) | waive
//! ```

use super::{AdjustCommand, AnyCommand, MainCommand, Place, RetreatCommand, UnitRef};
use crate::map::{Map, Named, PowerId, UnitKind, normalize_name};
use crate::variant::PhaseKind;
use std::fmt;
use std::ops::Range;

/// One parsed order line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedOrder {
    /// The power named before a colon (`England: ...`), if any.
    pub power: Option<PowerId>,
    /// The order.
    pub command: AnyCommand,
}

/// Why a line could not be read, and where.
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
        /// The closest names on the map.
        suggestions: Vec<String>,
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
            ParseErrorKind::Empty => f.write_str("no order on this line"),
            ParseErrorKind::UnknownPlace { text, suggestions } => {
                write!(f, "unknown place `{text}`")?;
                if !suggestions.is_empty() {
                    write!(f, "; did you mean {}?", suggestions.join(" or "))?;
                }
                Ok(())
            }
            ParseErrorKind::UnknownPower { text } => write!(f, "unknown power `{text}`"),
            ParseErrorKind::UnknownCoast { text } => write!(f, "unknown coast `{text}`"),
            ParseErrorKind::Expected { what, found } if found.is_empty() => {
                write!(f, "expected {what} at the end of the line")
            }
            ParseErrorKind::Expected { what, found } => {
                write!(f, "expected {what}, found `{found}`")
            }
        }
    }
}

impl std::error::Error for ParseError {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Word,
    Dash,
    LParen,
    RParen,
    Slash,
    Colon,
    Sep,
    Other,
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    /// Lower-cased text for words.
    text: String,
    span: Range<usize>,
}

fn lex(line: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut it = line.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let single = |tok: Tok, end: usize| Token {
            tok,
            text: String::new(),
            span: i..end,
        };
        match c {
            c if c.is_whitespace() => {}
            c if c.is_alphanumeric() || c == '\'' || c == '\u{2019}' => {
                let mut end = i + c.len_utf8();
                let mut text = String::new();
                text.extend(c.to_lowercase());
                while let Some(&(j, d)) = it.peek() {
                    if d.is_alphanumeric() || d == '.' || d == '\'' || d == '\u{2019}' {
                        text.extend(d.to_lowercase());
                        end = j + d.len_utf8();
                        it.next();
                    } else {
                        break;
                    }
                }
                let trimmed = text.trim_end_matches('.').to_string();
                out.push(Token {
                    tok: Tok::Word,
                    text: trimmed,
                    span: i..end,
                });
            }
            '-' | '=' => {
                if let Some(&(j, '>')) = it.peek() {
                    it.next();
                    out.push(single(Tok::Dash, j + 1));
                } else if c == '-' {
                    out.push(single(Tok::Dash, i + 1));
                } else {
                    out.push(single(Tok::Other, i + 1));
                }
            }
            '\u{2013}' | '\u{2014}' | '\u{2192}' | '>' => {
                out.push(single(Tok::Dash, i + c.len_utf8()))
            }
            '(' | '[' => out.push(single(Tok::LParen, i + 1)),
            ')' | ']' => out.push(single(Tok::RParen, i + 1)),
            '/' => out.push(single(Tok::Slash, i + 1)),
            ':' => out.push(single(Tok::Colon, i + 1)),
            ',' | ';' | '.' => out.push(single(Tok::Sep, i + 1)),
            _ => out.push(single(Tok::Other, i + c.len_utf8())),
        }
    }
    out
}

/// Parses order lines against one map.
pub struct OrderParser<'m> {
    map: &'m Map,
    /// Longest name on the map, in words: bounds the name look-ahead.
    max_words: usize,
}

struct Cursor<'a> {
    toks: &'a [Token],
    pos: usize,
    line: &'a str,
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
        self.toks[self.pos..].iter().all(|t| t.tok == Tok::Sep)
    }
    fn here(&self) -> Range<usize> {
        match self.peek() {
            Some(t) => t.span.clone(),
            None => self.line.len()..self.line.len(),
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
}

const MOVE_WORDS: &[&str] = &[
    "to", "m", "moves", "move", "mv", "goes", "attacks", "r", "retreats", "retreat",
];
const HOLD_WORDS: &[&str] = &["h", "hold", "holds", "stand", "stands", "stays", "hld"];
const SUPPORT_WORDS: &[&str] = &["s", "support", "supports", "sup", "supp", "sp"];
const CONVOY_WORDS: &[&str] = &["c", "convoy", "convoys", "cvy", "ferries"];
const BUILD_WORDS: &[&str] = &["build", "builds", "b"];
const REMOVE_WORDS: &[&str] = &["remove", "removes", "disband", "disbands", "d"];
const WAIVE_WORDS: &[&str] = &["waive", "waives", "waived"];

impl<'m> OrderParser<'m> {
    /// A parser for orders on `map`.
    pub fn new(map: &'m Map) -> Self {
        let max_words = map
            .names()
            .map(|(n, _)| n.split(' ').count())
            .max()
            .unwrap_or(1);
        OrderParser { map, max_words }
    }

    /// Parse one line holding one order. `phase` decides how an ambiguous
    /// order reads (`A Bel-Hol` is a retreat in a retreat phase); with `None`
    /// the keywords decide.
    pub fn parse(&self, line: &str, phase: Option<PhaseKind>) -> Result<ParsedOrder, ParseError> {
        let toks = lex(line);
        let mut c = Cursor {
            toks: &toks,
            pos: 0,
            line,
        };
        if c.end() {
            return Err(ParseError {
                span: 0..line.len(),
                kind: ParseErrorKind::Empty,
            });
        }
        let power = self.power_prefix(&mut c)?;
        let command = self.order(&mut c, phase)?;
        if !c.end() {
            return Err(c.expected("the end of the order"));
        }
        Ok(ParsedOrder { power, command })
    }

    /// `England:` before an order.
    fn power_prefix(&self, c: &mut Cursor<'_>) -> Result<Option<PowerId>, ParseError> {
        let colon = c.toks[c.pos..].iter().position(|t| t.tok == Tok::Colon);
        let Some(k) = colon else { return Ok(None) };
        let words = &c.toks[c.pos..c.pos + k];
        if words.is_empty() || words.iter().any(|t| t.tok != Tok::Word) {
            return Ok(None);
        }
        let text: Vec<&str> = words.iter().map(|t| t.text.as_str()).collect();
        let name = text.join(" ");
        let span = words[0].span.start..words[words.len() - 1].span.end;
        match self.map.lookup_power(&name) {
            Some(p) => {
                c.pos += k + 1;
                Ok(Some(p))
            }
            None => Err(ParseError {
                span,
                kind: ParseErrorKind::UnknownPower {
                    text: c.line[words[0].span.start..words[words.len() - 1].span.end].to_string(),
                },
            }),
        }
    }

    fn order(
        &self,
        c: &mut Cursor<'_>,
        phase: Option<PhaseKind>,
    ) -> Result<AnyCommand, ParseError> {
        // Keyword-first forms.
        if c.eat_word(BUILD_WORDS) {
            if c.eat_word(WAIVE_WORDS) {
                return Ok(AnyCommand::Adjust(AdjustCommand::Waive));
            }
            let kind = self.kind(c);
            let at = self.place_in_parens_or_not(c, kind.is_some())?;
            return Ok(AnyCommand::Adjust(AdjustCommand::Build { kind, at }));
        }
        if c.eat_word(WAIVE_WORDS) {
            c.eat_word(BUILD_WORDS);
            return Ok(AnyCommand::Adjust(AdjustCommand::Waive));
        }
        if c.peek_word() == Some("no")
            && c.toks
                .get(c.pos + 1)
                .is_some_and(|t| BUILD_WORDS.contains(&t.text.as_str()))
        {
            c.pos += 2;
            return Ok(AnyCommand::Adjust(AdjustCommand::Waive));
        }
        if c.eat_word(REMOVE_WORDS) {
            let unit = self.unit(c)?;
            return Ok(if phase == Some(PhaseKind::Retreat) {
                AnyCommand::Retreat(unit, RetreatCommand::Disband)
            } else {
                AnyCommand::Adjust(AdjustCommand::Remove { unit })
            });
        }

        let unit = self.unit(c)?;
        // Unit-first forms.
        if c.eat_word(BUILD_WORDS) {
            return Ok(AnyCommand::Adjust(AdjustCommand::Build {
                kind: unit.kind,
                at: unit.at,
            }));
        }
        if c.eat_word(REMOVE_WORDS) {
            return Ok(if phase == Some(PhaseKind::Retreat) {
                AnyCommand::Retreat(unit, RetreatCommand::Disband)
            } else {
                AnyCommand::Adjust(AdjustCommand::Remove { unit })
            });
        }
        // Anything else in a retreat phase reads as a movement order, which
        // the retreat judge then rejects with a reason.
        if phase == Some(PhaseKind::Retreat) && self.move_word(c) {
            let to = self.place(c)?;
            return Ok(AnyCommand::Retreat(unit, RetreatCommand::Move { to }));
        }
        if c.eat_word(HOLD_WORDS) {
            return Ok(AnyCommand::Main(unit, MainCommand::Hold));
        }
        if c.eat_word(SUPPORT_WORDS) {
            self.skip_nationality(c);
            let supported = self.unit(c)?;
            if self.move_word(c) {
                let to = self.place(c)?;
                return Ok(AnyCommand::Main(
                    unit,
                    MainCommand::SupportMove {
                        unit: supported,
                        to,
                    },
                ));
            }
            c.eat_word(HOLD_WORDS);
            return Ok(AnyCommand::Main(
                unit,
                MainCommand::SupportHold { unit: supported },
            ));
        }
        if c.eat_word(CONVOY_WORDS) {
            self.skip_nationality(c);
            let convoyed = self.unit(c)?;
            if !self.move_word(c) {
                return Err(c.expected("`-` and the army's destination"));
            }
            let to = self.place(c)?;
            return Ok(AnyCommand::Main(
                unit,
                MainCommand::Convoy { unit: convoyed, to },
            ));
        }
        if self.move_word(c) {
            let mut places = vec![self.place(c)?];
            while self.move_word(c) {
                places.push(self.place(c)?);
            }
            let mut via_convoy = false;
            if c.eat_word(&["via", "by"]) {
                if !c.eat_word(&["convoy", "c", "cvy"]) {
                    return Err(c.expected("`convoy` after `via`"));
                }
                via_convoy = true;
            }
            let to = places.pop().unwrap_or(unit.at);
            let route: Vec<_> = places.into_iter().map(|p| p.province).collect();
            via_convoy |= !route.is_empty();
            return Ok(AnyCommand::Main(
                unit,
                MainCommand::Move {
                    to,
                    via_convoy,
                    route,
                },
            ));
        }
        Err(c.expected("an order (`-`, `H`, `S` or `C`)"))
    }

    fn move_word(&self, c: &mut Cursor<'_>) -> bool {
        if c.eat(Tok::Dash) {
            return true;
        }
        if c.eat_word(MOVE_WORDS) {
            c.eat_word(&["to"]);
            return true;
        }
        false
    }

    /// A nationality in a support or convoy (`S Turkish F Con-Bul`) is
    /// ignored (DATC 4.C.5, 4.C.6).
    fn skip_nationality(&self, c: &mut Cursor<'_>) {
        if let Some(w) = c.peek_word()
            && self.map.lookup_power(w).is_some()
            && self.map.lookup(w).is_none()
        {
            c.pos += 1;
        }
    }

    fn kind(&self, c: &mut Cursor<'_>) -> Option<UnitKind> {
        let w = c.peek_word()?;
        let kind = match w {
            "a" | "army" => {
                // `A/F`
                if c.toks.get(c.pos + 1).is_some_and(|t| t.tok == Tok::Slash)
                    && c.toks
                        .get(c.pos + 2)
                        .is_some_and(|t| t.tok == Tok::Word && t.text == "f")
                {
                    c.pos += 3;
                    return Some(UnitKind::ArmyFleet);
                }
                UnitKind::Army
            }
            "f" | "fleet" => UnitKind::Fleet,
            "af" => UnitKind::ArmyFleet,
            "3d" => UnitKind::DefensiveArmy,
            _ => return None,
        };
        // A one-letter kind followed by a word that is a name starting with
        // it is still a kind: `A Ank`.
        c.pos += 1;
        Some(kind)
    }

    fn unit(&self, c: &mut Cursor<'_>) -> Result<UnitRef, ParseError> {
        let kind = self.kind(c);
        let at = self.place_in_parens_or_not(c, kind.is_some())?;
        Ok(UnitRef { kind, at })
    }

    /// `(Lon)` after a kind, or a bare place.
    fn place_in_parens_or_not(
        &self,
        c: &mut Cursor<'_>,
        after_kind: bool,
    ) -> Result<Place, ParseError> {
        if after_kind && c.eat(Tok::LParen) {
            let p = self.place(c)?;
            if !c.eat(Tok::RParen) {
                return Err(c.expected("`)`"));
            }
            return Ok(p);
        }
        self.place(c)
    }

    /// A province name (longest match) with an optional coast.
    fn place(&self, c: &mut Cursor<'_>) -> Result<Place, ParseError> {
        let start = c.pos;
        // Collect candidate words, letting a hyphen join words when the
        // joined form is a name (`Mid-Atlantic Ocean`).
        let mut words: Vec<(&str, usize)> = Vec::new(); // (word, token index after it)
        let mut i = c.pos;
        while words.len() < self.max_words {
            match c.toks.get(i) {
                Some(t) if t.tok == Tok::Word => {
                    words.push((t.text.as_str(), i + 1));
                    i += 1;
                }
                Some(t) if t.tok == Tok::Dash && !words.is_empty() => match c.toks.get(i + 1) {
                    Some(n) if n.tok == Tok::Word => {
                        words.push((n.text.as_str(), i + 2));
                        i += 2;
                    }
                    _ => break,
                },
                _ => break,
            }
        }
        if words.is_empty() {
            return Err(c.expected("a province"));
        }
        for n in (1..=words.len()).rev() {
            let joined: Vec<&str> = words[..n].iter().map(|(w, _)| *w).collect();
            let name = joined.join(" ");
            if let Some(named) = self.map.lookup(&name) {
                c.pos = words[n - 1].1;
                let place = match named {
                    Named::Province(p) => Place::province(p),
                    Named::Region(r) => Place::of_region(self.map, r),
                };
                return self.coast(c, place);
            }
        }
        let t = &c.toks[start];
        let text = c.line[t.span.clone()].to_string();
        Err(ParseError {
            span: t.span.clone(),
            kind: ParseErrorKind::UnknownPlace {
                suggestions: self.suggest(&text),
                text,
            },
        })
    }

    /// `/nc`, `(nc)`, `(north coast)`, ` north coast`, ` nc` after a place.
    fn coast(&self, c: &mut Cursor<'_>, mut place: Place) -> Result<Place, ParseError> {
        let save = c.pos;
        let paren = c.eat(Tok::LParen);
        let slash = !paren && c.eat(Tok::Slash);
        let mut words = Vec::new();
        while let Some(w) = c.peek_word() {
            if words.len() == 2 {
                break;
            }
            words.push(w);
            c.pos += 1;
            if w == "coast" {
                break;
            }
        }
        let text = words.join(" ");
        let coast = if text.is_empty() {
            None
        } else {
            self.lookup_coast(&text)
        };
        match coast {
            Some(cid) if !paren || c.eat(Tok::RParen) => {
                place.coast = Some(cid);
                Ok(place)
            }
            _ if paren || slash => {
                // Try one word only (`(nc) something`).
                c.pos = save + 1;
                if let Some(w) = c.peek_word()
                    && let Some(cid) = self.lookup_coast(w)
                {
                    c.pos += 1;
                    if paren && !c.eat(Tok::RParen) {
                        return Err(c.expected("`)`"));
                    }
                    place.coast = Some(cid);
                    return Ok(place);
                }
                let span = c.here();
                Err(ParseError {
                    span,
                    kind: ParseErrorKind::UnknownCoast { text },
                })
            }
            _ => {
                // Bare words after a place are only a coast when they are
                // one: `StP nc`, `St Petersburg north coast`.
                c.pos = save;
                if let Some(w) = c.peek_word() {
                    let two = c
                        .toks
                        .get(c.pos + 1)
                        .filter(|t| t.tok == Tok::Word && t.text == "coast")
                        .map(|_| format!("{w} coast"));
                    if let Some(t2) = two
                        && let Some(cid) = self.lookup_coast(&t2)
                    {
                        c.pos += 2;
                        place.coast = Some(cid);
                        return Ok(place);
                    }
                    if ["nc", "sc", "ec", "wc"].contains(&w)
                        && let Some(cid) = self.lookup_coast(w)
                    {
                        c.pos += 1;
                        place.coast = Some(cid);
                    }
                }
                Ok(place)
            }
        }
    }

    fn lookup_coast(&self, text: &str) -> Option<crate::map::CoastId> {
        if let Some(c) = self.map.lookup_coast(text) {
            return Some(c);
        }
        // `north`, `n`, `north coast` -> nc
        let t = normalize_name(text);
        let t = t.strip_suffix(" coast").unwrap_or(&t);
        let mut found = None;
        for i in 0..u8::MAX {
            let id = crate::map::CoastId(i);
            if (i as usize) >= self.map.coasts.len() {
                break;
            }
            let name = normalize_name(&self.map.coast(id).name);
            let first = name.split(' ').next().unwrap_or("");
            if first == t || (t.len() == 1 && first.starts_with(t)) {
                if found.is_some() {
                    return None;
                }
                found = Some(id);
            }
        }
        found
    }

    /// Up to three map names closest to `text`.
    pub fn suggest(&self, text: &str) -> Vec<String> {
        let key = normalize_name(text);
        let mut scored: Vec<(f64, String)> = Vec::new();
        for (name, named) in self.map.names() {
            let p = match named {
                Named::Province(p) => p,
                Named::Region(_) => continue,
            };
            let score = strsim::jaro_winkler(&key, name);
            if score >= 0.75 {
                let prov = self.map.province(p);
                let label = format!("{} ({})", prov.name, prov.abbr);
                match scored.iter_mut().find(|(_, l)| *l == label) {
                    Some(e) => e.0 = e.0.max(score),
                    None => scored.push((score, label)),
                }
            }
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        scored.into_iter().take(3).map(|(_, l)| l).collect()
    }
}
