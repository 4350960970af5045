//! njudge's conditional orders for a later phase: the `IF`, `ELSE IF`,
//! `ELSE` and `ENDIF` lines under a `PHASE` line, and their conditions.
//!
//! njudge's syntax file: a condition is `[NOT] [power] [type] province`,
//! the power, type and province "in any order", the power "abbreviated to
//! two or more characters or spelled out", and "true if a unit of the
//! specified type belonging to the specified power is present (or not) in
//! the specified province at the beginning of the specified phase".
//! Conditions combine with `AND` and `OR` "evaluated left to right"
//! (njudge's `po_condition.c` folds them so: `a OR b AND c` is `(a OR b)
//! AND c`), brackets change that, `NOT` turns the one term after it, and
//! the end of a line closes every bracket. `THEN` may end the condition.
//! The first branch whose condition holds is the one taken. (njudge nests
//! IFs; the commands refuse an IF inside another, and [`Cond`] joins
//! conditions with AND instead.)
//!
//! Conditions are read here against the map alone; whether one holds is
//! asked of the units standing when the phase begins ([`Cond::holds`]).

use crate::map::{CoastId, Map, Named, PowerId, ProvinceId, Unit, UnitKind};

/// A condition of an `IF` or `ELSE IF` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cond {
    /// A unit stands there (of that power, of that kind, on that coast,
    /// where they are given).
    Unit(UnitTerm),
    /// The condition does not hold.
    Not(Box<Cond>),
    /// Both hold.
    And(Box<Cond>, Box<Cond>),
    /// Either holds.
    Or(Box<Cond>, Box<Cond>),
}

/// `French Army Ruhr`: what must stand where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitTerm {
    /// Whose unit, or anybody's.
    pub power: Option<PowerId>,
    /// Which kind, or any.
    pub kind: Option<UnitKind>,
    /// Where.
    pub province: ProvinceId,
    /// On which coast, where one was written.
    pub coast: Option<CoastId>,
}

/// A line that steers which of the orders below it are used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Directive {
    /// `IF condition [THEN]`.
    If(Cond),
    /// `ELSE IF condition [THEN]`.
    ElseIf(Cond),
    /// `ELSE`.
    Else,
    /// `ENDIF`.
    EndIf,
}

impl Directive {
    /// The directive as it is kept and shown (`IF Russian A Gal`): read
    /// back by [`directive`] into the same directive.
    pub fn show(&self, map: &Map) -> String {
        match self {
            Directive::If(c) => format!("IF {}", c.show(map)),
            Directive::ElseIf(c) => format!("ELSE IF {}", c.show(map)),
            Directive::Else => "ELSE".into(),
            Directive::EndIf => "ENDIF".into(),
        }
    }
}

/// Which directive a line starts with, whether or not the rest of it can
/// be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Head {
    /// `IF`.
    If,
    /// `ELSE IF`.
    ElseIf,
    /// `ELSE`.
    Else,
    /// `ENDIF`.
    EndIf,
}

/// The directive `line` is, if it starts with one's words (`None`: it
/// does not), or why its condition cannot be read.
pub fn directive(map: &Map, line: &str) -> Option<(Head, Result<Directive, String>)> {
    let words: Vec<String> = line
        .split_whitespace()
        .map(|w| w.trim_end_matches(':').to_ascii_lowercase())
        .collect();
    let first = words.first()?.as_str();
    let second = words.get(1).map(String::as_str);
    let rest_from = |n: usize| -> String {
        line.split_whitespace()
            .skip(n)
            .collect::<Vec<_>>()
            .join(" ")
    };
    Some(match (first, second) {
        ("endif" | "end-if", None) | ("end", Some("if")) if words.len() <= 2 => {
            (Head::EndIf, Ok(Directive::EndIf))
        }
        ("else", None) => (Head::Else, Ok(Directive::Else)),
        ("else", Some("if")) => (
            Head::ElseIf,
            parse(map, &rest_from(2)).map(Directive::ElseIf),
        ),
        ("elseif" | "elsif", Some(_)) => (
            Head::ElseIf,
            parse(map, &rest_from(1)).map(Directive::ElseIf),
        ),
        ("if", Some(_)) => (Head::If, parse(map, &rest_from(1)).map(Directive::If)),
        _ => return None,
    })
}

/// Read a condition (the words after `IF`).
pub fn parse(map: &Map, text: &str) -> Result<Cond, String> {
    let toks = tokens(text);
    let mut r = Reader {
        map,
        toks: &toks,
        pos: 0,
    };
    let c = r.expr(0)?;
    if r.peek() == Some("then") {
        r.pos += 1;
    }
    match r.peek() {
        None => Ok(c),
        Some(w) => Err(format!(
            "`{w}` is no part of a condition (write IF [NOT] [power] [A|F] province, joined \
             by AND or OR)"
        )),
    }
}

impl Cond {
    /// Whether the condition holds where `units` stand.
    pub fn holds(&self, map: &Map, units: &[Unit]) -> bool {
        match self {
            Cond::Unit(t) => units.iter().any(|u| {
                let r = map.region(u.region);
                r.province == t.province
                    && t.power.is_none_or(|p| p == u.power)
                    && t.kind.is_none_or(|k| k == u.kind)
                    && t.coast.is_none_or(|c| r.coast == Some(c))
            }),
            Cond::Not(c) => !c.holds(map, units),
            Cond::And(a, b) => a.holds(map, units) && b.holds(map, units),
            Cond::Or(a, b) => a.holds(map, units) || b.holds(map, units),
        }
    }

    /// The condition as it is kept and shown (`NOT French A Ruh AND
    /// (Russian Pru OR Russian Sil)`): [`parse`] reads it back the same.
    pub fn show(&self, map: &Map) -> String {
        match self {
            Cond::Unit(t) => {
                let mut words = Vec::new();
                if let Some(p) = t.power {
                    words.push(map.power(p).adjective.clone());
                }
                match t.kind {
                    Some(UnitKind::Army) => words.push("A".into()),
                    Some(UnitKind::Fleet) => words.push("F".into()),
                    _ => {}
                }
                let place = &map.province(t.province).abbr;
                words.push(match t.coast {
                    Some(c) => format!("{place}/{}", map.coast(c).abbr),
                    None => place.clone(),
                });
                words.join(" ")
            }
            Cond::Not(c) => format!("NOT {}", c.show_term(map)),
            Cond::And(a, b) => format!("{} AND {}", a.show(map), b.show_term(map)),
            Cond::Or(a, b) => format!("{} OR {}", a.show(map), b.show_term(map)),
        }
    }

    /// The condition as the right side of AND or OR, or after NOT:
    /// bracketed unless it is one term, since they fold left to right.
    fn show_term(&self, map: &Map) -> String {
        match self {
            Cond::And(..) | Cond::Or(..) => format!("({})", self.show(map)),
            _ => self.show(map),
        }
    }
}

/// The words of a condition, brackets apart.
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for w in text.split_whitespace() {
        let mut cur = String::new();
        for ch in w.chars() {
            if ch == '(' || ch == ')' {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur).to_lowercase());
                }
                out.push(ch.to_string());
            } else {
                cur.push(ch);
            }
        }
        if !cur.is_empty() {
            out.push(cur.to_lowercase());
        }
    }
    out
}

/// Reads the words of a condition.
struct Reader<'a> {
    map: &'a Map,
    toks: &'a [String],
    pos: usize,
}

/// The most words a power's or a province's name takes here.
const LONGEST: usize = 4;

impl Reader<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(String::as_str)
    }

    /// Terms joined by AND and OR, left to right, up to a closing bracket
    /// (at `depth` > 0), THEN or the end.
    fn expr(&mut self, depth: usize) -> Result<Cond, String> {
        let mut c = self.term(depth)?;
        loop {
            match self.peek() {
                Some("and") => {
                    self.pos += 1;
                    let t = self.term(depth)?;
                    c = Cond::And(Box::new(c), Box::new(t));
                }
                Some("or") => {
                    self.pos += 1;
                    let t = self.term(depth)?;
                    c = Cond::Or(Box::new(c), Box::new(t));
                }
                _ => return Ok(c),
            }
        }
    }

    /// `[NOT] (bracket | unit)`.
    fn term(&mut self, depth: usize) -> Result<Cond, String> {
        let mut negate = false;
        while self.peek() == Some("not") {
            self.pos += 1;
            negate = !negate;
        }
        let c = if self.peek() == Some("(") {
            self.pos += 1;
            let c = self.expr(depth + 1)?;
            // The end of the line closes every bracket.
            if self.peek() == Some(")") {
                self.pos += 1;
            }
            c
        } else {
            Cond::Unit(self.unit()?)
        };
        Ok(if negate { Cond::Not(Box::new(c)) } else { c })
    }

    /// A power, a kind and a province, in any order, the province needed.
    fn unit(&mut self) -> Result<UnitTerm, String> {
        let (mut power, mut kind, mut place) = (None, None, None);
        loop {
            let before = self.pos;
            if place.is_none()
                && let Some(p) = self.place()
            {
                place = Some(p);
            }
            if power.is_none()
                && let Some(p) = self.power()
            {
                power = Some(p);
            }
            if kind.is_none()
                && let Some(k) = self.kind()
            {
                kind = Some(k);
            }
            if self.pos == before {
                break;
            }
        }
        match place {
            Some((province, coast)) => Ok(UnitTerm {
                power,
                kind,
                province,
                coast,
            }),
            None => Err(match self.peek() {
                Some(w) if !matches!(w, "and" | "or" | "then" | ")" | "(") => format!(
                    "`{w}` is not a province, a power or a unit's kind on this map (write IF \
                     [NOT] [power] [A|F] province)"
                ),
                _ => "a condition names a province (IF [NOT] [power] [A|F] province)".into(),
            }),
        }
    }

    /// `A`, `Army`, `F`, `Fleet`.
    fn kind(&mut self) -> Option<UnitKind> {
        let k = match self.peek()? {
            "a" | "army" => UnitKind::Army,
            "f" | "fleet" => UnitKind::Fleet,
            _ => return None,
        };
        self.pos += 1;
        Some(k)
    }

    /// Words `pos..pos + n` joined, if there are that many.
    fn words(&self, n: usize) -> Option<String> {
        self.toks
            .get(self.pos..self.pos + n)
            .filter(|ws| ws.iter().all(|w| w != "(" && w != ")"))
            .map(|ws| ws.join(" "))
    }

    /// A power by its name or adjective (`Russia`, `Russian`), or two or
    /// more of their first letters where only one power's fit (`Ru`).
    fn power(&mut self) -> Option<PowerId> {
        for n in (1..=LONGEST).rev() {
            let Some(w) = self.words(n) else { continue };
            if let Some(p) = self.map.lookup_power(&w) {
                self.pos += n;
                return Some(p);
            }
        }
        let w = self.words(1)?;
        if w.len() < 2
            || self.map.lookup(&w).is_some()
            || matches!(w.as_str(), "and" | "or" | "not" | "then" | "army" | "fleet")
        {
            return None;
        }
        let fits: Vec<PowerId> = self
            .map
            .power_ids()
            .filter(|&p| {
                let pw = self.map.power(p);
                pw.name.to_lowercase().starts_with(&w)
                    || pw.adjective.to_lowercase().starts_with(&w)
            })
            .collect();
        match fits.as_slice() {
            [one] => {
                self.pos += 1;
                Some(*one)
            }
            _ => None,
        }
    }

    /// A province by name or abbreviation, perhaps with its coast
    /// (`Spa/nc`, `Spa (nc)`): a power's name is not taken for one.
    fn place(&mut self) -> Option<(ProvinceId, Option<CoastId>)> {
        for n in (1..=LONGEST).rev() {
            let Some(w) = self.words(n) else { continue };
            if self.map.lookup_power(&w).is_some() {
                continue;
            }
            let read = |name: &str| -> Option<(ProvinceId, Option<CoastId>)> {
                Some(match self.map.lookup(name)? {
                    Named::Province(p) => (p, None),
                    Named::Region(r) => (self.map.region(r).province, self.map.region(r).coast),
                })
            };
            // `StP/nc` may be a name of its own; else the province and the
            // coast after the slash.
            let found = read(&w).or_else(|| {
                let (name, c) = w.split_once('/')?;
                let (p, _) = read(name)?;
                Some((p, Some(self.map.lookup_coast(c)?)))
            });
            let Some((province, coast)) = found else {
                continue;
            };
            self.pos += n;
            // `Spa (nc)`.
            if coast.is_none()
                && self.peek() == Some("(")
                && let Some(c) = self
                    .toks
                    .get(self.pos + 1)
                    .and_then(|w| self.map.lookup_coast(w))
                && self.toks.get(self.pos + 2).is_some_and(|w| w == ")")
            {
                self.pos += 3;
                return Some((province, Some(c)));
            }
            return Some((province, coast));
        }
        None
    }
}
