//! Finding the orders in a mail body.
//!
//! Players write orders among greetings, chat, quoted replies and
//! signatures, as bullet lists or numbered lists, several to a line or one
//! per line, under order-sheet headings (`Builds: A(Fin), A(Dal).`). This
//! module separates the orders from the noise and hands each one to the
//! parser; it never drops an order silently: a piece of text that looks like
//! an order and cannot be read comes back as an error with its line number.
//!
//! What counts as an attempted order: a piece of text that starts with a
//! unit (`A`, `F`, `Army`, a province name) or an order keyword (`Build`,
//! `Remove`, `Waive`, `Disband`), and has an order in it (a move arrow, a
//! hold, support or convoy word, ...). Everything else is chat.

use super::PhaseKind;
use super::lex::{Tok, Token, lex};
use super::parse::{
    BUILD_WORDS, CONVOY_WORDS, Context, HOLD_WORDS, Heading, MOVE_WORDS, OrderParser, ParseError,
    ParseErrorKind, ParsedOrder, REMOVE_WORDS, RETREAT_WORDS, SUPPORT_WORDS, WAIVE_WORDS,
    is_kind_word, starts_order,
};
use crate::map::PowerId;

/// One order found in a mail, read or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundOrder {
    /// 1-based line number in the body.
    pub line: usize,
    /// The text of the order as written (one piece of the line).
    pub text: String,
    /// The power the order was written under (`England:` on its own line
    /// or before the order), if any.
    pub power: Option<PowerId>,
    /// The order, or why it could not be read.
    pub result: Result<ParsedOrder, ParseError>,
}

/// Words that mark an order inside a piece of text.
const MARK_WORDS: &[&[&str]] = &[
    HOLD_WORDS,
    SUPPORT_WORDS,
    CONVOY_WORDS,
    MOVE_WORDS,
    RETREAT_WORDS,
    BUILD_WORDS,
    REMOVE_WORDS,
    WAIVE_WORDS,
    &[
        "via",
        "boards",
        "board",
        "embarks",
        "disembarks",
        "destroys",
        "destroy",
        "return",
        "returns",
        "raiding",
        "becomes",
        "become",
    ],
];

/// Whether a line is quoted from another mail (`> `, or `| ` as some
/// clients quote).
pub fn is_quoted(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('>') || t.starts_with('|')
}

/// Whether a line ends the useful part of a mail (a signature or a
/// forwarded original).
pub fn ends_body(line: &str) -> bool {
    let t = line.trim();
    let dashed = |t: &str| {
        let inner = t.trim_matches(|c: char| c == '-' || c == ' ' || c == '_');
        t.starts_with("---")
            && [
                "original message",
                "forwarded message",
                "message d'origine",
                "ursprüngliche nachricht",
                "mensaje original",
                "messaggio originale",
                "oorspronkelijk bericht",
            ]
            .iter()
            .any(|m| inner.to_lowercase().starts_with(m))
    };
    // The signature a phone or webmail adds under the text.
    const SENT_FROM: &[&str] = &[
        "sent from my ",
        "sent from outlook",
        "get outlook for ",
        "sent from yahoo mail",
        "sent from mail for windows",
        "envoyé de mon ",
        "envoyé depuis ",
        "von meinem ",
        "gesendet von ",
        "enviado desde mi ",
        "enviado do meu ",
        "inviato da ",
        "verzonden vanaf mijn ",
        "verstuurd vanaf mijn ",
    ];
    let lower = t.to_lowercase();
    if t.len() <= 60 && SENT_FROM.iter().any(|w| lower.starts_with(w)) {
        return true;
    }
    line.trim_end() == "--"
        || line.trim_end() == "-- "
        || line.starts_with("-- ") && line.trim_end().len() <= 3
        || dashed(t)
        // Outlook's separator above the original.
        || (t.len() >= 20 && t.chars().all(|c| c == '_'))
}

/// Where the part of a mail body worth reading ends, as a count of lines:
/// at a signature or forwarded original ([`ends_body`]), or at the header
/// block an Outlook-style reply puts above the original it copies without
/// quoting (`From: ...` then `Sent:` or `Date:` within a few lines).
pub fn body_end(lines: &[&str]) -> usize {
    const FROM: &[&str] = &["from:", "von:", "de :", "de:", "van:", "da:"];
    const SENT: &[&str] = &[
        "sent:",
        "date:",
        "gesendet:",
        "envoyé :",
        "envoyé:",
        "enviado:",
        "verzonden:",
        "inviato:",
        "datum:",
    ];
    let starts = |l: &str, ws: &[&str]| {
        let l = l.trim_start().to_lowercase();
        ws.iter().any(|w| l.starts_with(w))
    };
    for (i, l) in lines.iter().enumerate() {
        if ends_body(l) {
            return i;
        }
        if starts(l, FROM) && lines[i + 1..].iter().take(4).any(|n| starts(n, SENT)) {
            return i;
        }
    }
    lines.len()
}

/// Whether line `i` introduces a quoted original ("On Monday, Ann wrote:",
/// "Le lundi, Ann a écrit :", "Am Montag schrieb Ann:", "El lunes, Ann
/// escribió:", "Il giorno lunedì Ann ha scritto:", "Op maandag schreef
/// Ann:"): it ends with the verb and a colon, and the next line that says
/// anything is quoted. It belongs to the quote, not to the player's text.
/// Gmail wraps a long attribution over two lines (`... zinejudge <` then
/// `judge@example.test>:`): both lines are the attribution when the first
/// opens as one does (`On`, `Le`, `Am`, `El`, `Il`, `Op` and a date).
pub fn is_attribution(lines: &[&str], i: usize) -> bool {
    const VERBS: &[&str] = &[
        "wrote",
        "a écrit",
        "schrieb",
        "escribió",
        "ha scritto",
        "schreef",
    ];
    const OPENERS: &[&str] = &["On ", "Le ", "Am ", "El ", "Il ", "Op "];
    let says = |t: &str| {
        let t = t.trim().to_lowercase();
        t.ends_with(':') && VERBS.iter().any(|v| t.contains(v))
    };
    let quoted_after = |k: usize| {
        lines[k + 1..]
            .iter()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| is_quoted(l))
    };
    let opens = |l: &str| {
        let t = l.trim_start();
        OPENERS.iter().any(|o| t.starts_with(o)) && t.chars().any(|c| c.is_ascii_digit())
    };
    // Lines `k` and `k + 1` are one wrapped attribution.
    let wrapped = |k: usize| {
        k + 1 < lines.len()
            && opens(lines[k])
            && !lines[k + 1].trim().is_empty()
            && says(&format!("{} {}", lines[k].trim(), lines[k + 1].trim()))
            && quoted_after(k + 1)
    };
    (says(lines[i]) && quoted_after(i)) || wrapped(i) || (i > 0 && wrapped(i - 1))
}

/// Strip a bullet or list number: `*`, `•`, `- `, `1.`, `1)`, `(1)`, `a)`.
fn strip_bullet(line: &str) -> &str {
    let t = line.trim_start();
    for b in ["* ", "\u{2022} ", "\u{00b7} ", "- ", "+ ", "\u{2013} "] {
        if let Some(rest) = t.strip_prefix(b) {
            return rest.trim_start();
        }
    }
    // `1.` `12)` `(3)` `a)`
    let bytes = t.as_bytes();
    let mut i = 0;
    let paren = bytes.first() == Some(&b'(');
    if paren {
        i = 1;
    }
    let digits_start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let had_digits = i > digits_start;
    let letter = !had_digits
        && i < bytes.len()
        && bytes[i].is_ascii_lowercase()
        && bytes.get(i + 1) == Some(&b')');
    if letter {
        i += 1;
    }
    if (had_digits || letter) && i < bytes.len() && (bytes[i] == b'.' || bytes[i] == b')') {
        let rest = &t[i + 1..];
        if rest.starts_with(' ') || rest.is_empty() {
            return rest.trim_start();
        }
    }
    t
}

/// Read every order in a mail body. `phase` is the phase the orders are
/// for, when known.
pub fn find_orders(
    parser: &OrderParser<'_>,
    body: &str,
    phase: Option<PhaseKind>,
) -> Vec<FoundOrder> {
    find_orders_as(parser, body, phase, None)
}

/// [`find_orders`], knowing what a unit named alone is in an adjustment
/// phase (`A Ber`: a build for a power with builds due, `bare` the
/// heading it reads as; see [`Context::bare`]).
pub fn find_orders_as(
    parser: &OrderParser<'_>,
    body: &str,
    phase: Option<PhaseKind>,
    bare: Option<Heading>,
) -> Vec<FoundOrder> {
    let mut out = Vec::new();
    let mut heading: Option<Heading> = None;
    let mut power: Option<PowerId> = None;
    // The A/F (or boarded fleet) the last order named, for a landing
    // written after it with no unit of its own.
    let mut carrier: Option<crate::orders::UnitRef> = None;
    let lines: Vec<&str> = body.lines().collect();
    let end = body_end(&lines);
    for (i, raw) in lines[..end].iter().copied().enumerate() {
        if is_quoted(raw) || is_attribution(&lines, i) {
            continue;
        }
        let line = strip_bullet(raw);
        if line.is_empty() {
            continue;
        }
        let offset = line.as_ptr() as usize - raw.as_ptr() as usize;
        let toks = lex(line);
        let mut start = 0;
        // `Sweden 1700 Moves:`, `Builds:`, `England:` at the start.
        if let Some((k, h, p)) = prefix(parser, &toks) {
            if h.is_some() {
                heading = h;
            }
            if p.is_some() {
                power = p;
            }
            start = k;
        }
        let segs = segments(&toks[start..]);
        let orders: Vec<bool> = segs
            .iter()
            .map(|seg| looks_like_order(parser, seg, heading))
            .collect();
        let any_order = orders.contains(&true);
        for (seg, is_order) in segs.into_iter().zip(orders) {
            let span = seg[0].span.start..seg[seg.len() - 1].span.end;
            let text = line[span.clone()].to_string();
            if !is_order {
                // The rest of a line that holds an order (`F Lon-ENG,
                // thanks!`) is accounted for too: it comes back as a piece
                // that holds no order, never dropped without a word.
                if any_order && text.chars().any(char::is_alphanumeric) {
                    out.push(FoundOrder {
                        line: i + 1,
                        text,
                        power,
                        result: Err(ParseError {
                            span: (span.start + offset)..(span.end + offset),
                            kind: ParseErrorKind::Empty,
                        }),
                    });
                }
                continue;
            }
            let result = parser.parse_tokens(
                line,
                seg,
                Context {
                    phase,
                    heading,
                    carrier,
                    bare,
                },
            );
            carrier = result
                .as_ref()
                .ok()
                .and_then(|o| carrier_of(&o.command, carrier));
            // Spans are given in the line as written, bullets included.
            let result = result.map_err(|mut e| {
                e.span = (e.span.start + offset)..(e.span.end + offset);
                e
            });
            let p = match &result {
                Ok(o) => o.power.or(power),
                Err(_) => power,
            };
            // 1700 AD rule 8: fleets are built and dispersed "at a rate of
            // 2 per supply centre"; `Builds: 2F(Dal).` is two builds.
            let times = match &result {
                Ok(o) if matches!(o.command, super::AnyCommand::Adjust(_)) => stack_of(seg),
                _ => 1,
            };
            for _ in 1..times {
                out.push(FoundOrder {
                    line: i + 1,
                    text: text.clone(),
                    power: p,
                    result: result.clone(),
                });
            }
            out.push(FoundOrder {
                line: i + 1,
                text,
                power: p,
                result,
            });
        }
    }
    out
}

/// The carrier an order leaves for a landing written next with no unit of
/// its own: the fleet an army boards (the boarding makes it the carrier),
/// an A/F's own order, or the boarded fleet's own order after the boarding
/// (1000 AD: `A(Lon) boards F(ENC)`, `F(ENC)-NTH`, then the landing). A
/// landing uses the carrier up.
fn carrier_of(
    c: &super::AnyCommand,
    before: Option<crate::orders::UnitRef>,
) -> Option<crate::orders::UnitRef> {
    use super::{AnyCommand, MainCommand};
    use crate::map::UnitKind;
    match c {
        AnyCommand::Main(_, MainCommand::Disembark { .. }) => None,
        AnyCommand::Main(_, MainCommand::Board { fleet }) => Some(*fleet),
        AnyCommand::Main(u, _) if u.kind == Some(UnitKind::ArmyFleet) => Some(*u),
        AnyCommand::Main(u, _) if before.is_some_and(|b| b.at.province == u.at.province) => before,
        _ => None,
    }
}

/// A heading or power prefix at the start of a line: returns the tokens it
/// takes, the heading and the power.
fn prefix(
    parser: &OrderParser<'_>,
    toks: &[Token],
) -> Option<(usize, Option<Heading>, Option<PowerId>)> {
    let colon = toks.iter().position(|t| t.tok == Tok::Colon)?;
    if colon == 0 || colon > 7 {
        return None;
    }
    let words = crate::orders::lex::name_words(&toks[..colon])?;
    let (last, rest) = words.split_last()?;
    if let Some(h) = Heading::from_word(last) {
        // `[Power] [year] Heading:`
        let mut rest = rest.to_vec();
        if rest
            .last()
            .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()))
        {
            rest.pop();
        }
        let p = if rest.is_empty() {
            None
        } else {
            Some(parser.map().lookup_power(&rest.join(" "))?)
        };
        return Some((colon + 1, Some(h), p));
    }
    let p = parser.map().lookup_power(&words.join(" "))?;
    if colon + 1 == toks.len() {
        // `England:` alone on its line: the orders below are England's.
        return Some((colon + 1, None, Some(p)));
    }
    // `England: A Lon-Yor`: the parser reads the prefix itself.
    None
}

/// Split a line's tokens into pieces that each hold one order: at `,`
/// and `;`, at a full stop, and after a word ending in a full stop when an
/// order starts after it (`A Lon-Yor. F Edi-NTH.`).
fn segments(toks: &[Token]) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..toks.len() {
        let t = &toks[i];
        // `A(Lit) H, S A(WRu)`: what follows a comma without a unit of its
        // own is the unit's next impulse, read with it (1700 AD) or
        // refused with the reason (elsewhere), never dropped.
        let next_impulse = t.tok == Tok::Sep
            && i > start
            && toks.get(i + 1).is_some_and(|n| {
                n.tok == Tok::Word
                    && [HOLD_WORDS, SUPPORT_WORDS, CONVOY_WORDS]
                        .iter()
                        .any(|ws| ws.contains(&n.text.as_str()))
            });
        let cut_here = matches!(t.tok, Tok::Sep | Tok::Stop) && !next_impulse;
        let cut_after = t.tok == Tok::Word
            && t.dotted
            && toks
                .get(i + 1)
                .is_some_and(|n| n.tok == Tok::Word && starts_order(&n.text));
        if cut_here {
            if i > start {
                out.push(&toks[start..i]);
            }
            start = i + 1;
        } else if cut_after {
            out.push(&toks[start..=i]);
            start = i + 1;
        }
    }
    if start < toks.len() {
        out.push(&toks[start..]);
    }
    out
}

/// Whether a piece of text is an attempt at an order rather than chat.
fn looks_like_order(parser: &OrderParser<'_>, seg: &[Token], heading: Option<Heading>) -> bool {
    let mut toks = seg;
    // Skip `England:`.
    if let Some(k) = toks.iter().position(|t| t.tok == Tok::Colon)
        && k <= 6
        && crate::orders::lex::name_words(&toks[..k]).is_some()
    {
        toks = &toks[k + 1..];
    }
    let Some(first) = toks.first() else {
        return false;
    };
    if first.tok != Tok::Word {
        return false;
    }
    let w = first.text.as_str();
    let keyword_first =
        BUILD_WORDS[..2].contains(&w) || REMOVE_WORDS[..4].contains(&w) || WAIVE_WORDS.contains(&w);
    if keyword_first {
        return true;
    }
    // `B A Par`, `D F Bre`: a one-letter keyword before a unit's kind;
    // `Convert F(Mag) to A` (Ard-Ri's Vikings).
    if matches!(w, "b" | "d" | "r" | "convert" | "change" | "transform")
        && toks
            .get(1)
            .is_some_and(|t| t.tok == Tok::Word && is_kind_word(&t.text))
    {
        return true;
    }
    // A unit's kind then a place (`A Lvp to Yor`, `fleet edinburgh to north
    // sea`, `A Lvp Yor`, `A(Lvp) Yor`): an attempt at an order, read or
    // refused, whatever words follow.
    if is_kind_word(w) {
        let place = match toks.get(1) {
            Some(t) if t.tok == Tok::LParen => toks.get(2),
            other => other,
        };
        if place.is_some_and(|t| t.tok == Tok::Word && parser.map().lookup_word(&t.text).is_some())
        {
            return true;
        }
    }
    // `Builds: Q(Mos).`: under a builds heading a letter before a place in
    // brackets is a unit meant to be built, refused with the reason if
    // its kind is unknown.
    if matches!(heading, Some(Heading::Builds | Heading::Removes))
        && toks.get(1).is_some_and(|t| t.tok == Tok::LParen)
    {
        return true;
    }
    let opens = starts_order(w) || parser.map().lookup_word(w).is_some() || first_is_leader(toks);
    if !opens {
        return false;
    }
    if matches!(heading, Some(Heading::Builds | Heading::Removes)) {
        return true;
    }
    // `to` alone is too common in chat to mark an order.
    toks[1..].iter().any(|t| {
        t.tok == Tok::Dash
            || (t.tok == Tok::Word
                && t.text != "to"
                && MARK_WORDS.iter().any(|ws| ws.contains(&t.text.as_str())))
    }) || places_only(parser, toks)
}

/// `budapest serbia`: a place, then where it moves, and nothing else
/// (DPjudge's order format inserts the dash a player leaves out): words
/// that are all names of places and read as one move.
fn places_only(parser: &OrderParser<'_>, toks: &[Token]) -> bool {
    if toks.len() < 2 || toks.iter().any(|t| t.tok != Tok::Word) {
        return false;
    }
    let line: String = toks
        .iter()
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let again = lex(&line);
    matches!(
        parser.parse_tokens(&line, &again, Context::default()),
        Ok(ParsedOrder {
            command: crate::orders::AnyCommand::Main(
                crate::orders::UnitRef { kind: None, .. },
                crate::orders::MainCommand::Move { .. }
            ),
            ..
        })
    )
}

/// How many units a build or removal names: `2F(Sca)` two (1700 AD's
/// stacked fleets), anything else one.
fn stack_of(seg: &[Token]) -> usize {
    let stack = |t: &Token| {
        let w = t.text.strip_suffix('f')?;
        w.parse::<usize>().ok().filter(|n| (2..=9).contains(n))
    };
    seg.iter()
        .take(2)
        .filter(|t| t.tok == Tok::Word)
        .find_map(stack)
        .unwrap_or(1)
}

/// `CXII(Got)`: a word directly followed by a parenthesis, not a kind.
fn first_is_leader(toks: &[Token]) -> bool {
    toks.len() > 2
        && toks[0].tok == Tok::Word
        && toks[1].tok == Tok::LParen
        && toks[0].text.len() > 1
}

#[cfg(test)]
mod tests {
    use super::strip_bullet;

    #[test]
    fn bullets_and_numbers_are_stripped() {
        assert_eq!(strip_bullet("  * A Lon-Yor"), "A Lon-Yor");
        assert_eq!(strip_bullet("1. A Lon-Yor"), "A Lon-Yor");
        assert_eq!(strip_bullet("12) F Edi-NTH"), "F Edi-NTH");
        assert_eq!(strip_bullet("(3) F Edi-NTH"), "F Edi-NTH");
        assert_eq!(strip_bullet("a) F Edi-NTH"), "F Edi-NTH");
        assert_eq!(strip_bullet("- A Lon-Yor"), "A Lon-Yor");
        assert_eq!(strip_bullet("A Lon-Yor"), "A Lon-Yor");
    }
}
