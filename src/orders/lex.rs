//! Splitting an order line into tokens.
//!
//! Words keep inner dots and apostrophes (`St.`, `Edwin's`) and lose a
//! final dot; every dash players use for "moves to" (`-`, `->`, `=>`, `–`,
//! `—`, `→`) is one token kind. One pass, no look-back: linear in the line.

use std::ops::Range;

/// Token kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok {
    /// Letters and digits (lower-cased in `text`).
    Word,
    /// A move arrow.
    Dash,
    /// `(` or `[`.
    LParen,
    /// `)` or `]`.
    RParen,
    /// `/`.
    Slash,
    /// `:`.
    Colon,
    /// `,` or `;`: separates orders.
    Sep,
    /// A full stop standing alone.
    Stop,
    /// Anything else.
    Other,
}

/// A token with its place in the line.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    /// Lower-cased text for words, without a final dot.
    pub(crate) text: String,
    /// Whether the word ended in a full stop (`Yor.`).
    pub(crate) dotted: bool,
    pub(crate) span: Range<usize>,
}

pub(crate) fn lex(line: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut it = line.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let single = |tok: Tok, end: usize| Token {
            tok,
            text: String::new(),
            dotted: false,
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
                let dotted = text.ends_with('.');
                let trimmed = text.trim_end_matches('.').to_string();
                out.push(Token {
                    tok: Tok::Word,
                    text: trimmed,
                    dotted,
                    span: i..end,
                });
            }
            '-' | '=' => {
                if let Some(&(j, '>')) = it.peek() {
                    it.next();
                    out.push(single(Tok::Dash, j + 1));
                } else if c == '-' {
                    // `--` and `---` are one arrow too.
                    let mut end = i + 1;
                    while let Some(&(j, '-')) = it.peek() {
                        it.next();
                        end = j + 1;
                    }
                    if let Some(&(j, '>')) = it.peek() {
                        it.next();
                        end = j + 1;
                    }
                    out.push(single(Tok::Dash, end));
                } else {
                    out.push(single(Tok::Other, i + 1));
                }
            }
            '\u{2013}' | '\u{2014}' | '\u{2192}' | '\u{21d2}' | '>' => {
                out.push(single(Tok::Dash, i + c.len_utf8()))
            }
            '(' | '[' => out.push(single(Tok::LParen, i + 1)),
            ')' | ']' => out.push(single(Tok::RParen, i + 1)),
            '/' => out.push(single(Tok::Slash, i + 1)),
            ':' => out.push(single(Tok::Colon, i + 1)),
            ',' | ';' => out.push(single(Tok::Sep, i + 1)),
            '.' => out.push(single(Tok::Stop, i + 1)),
            _ => out.push(single(Tok::Other, i + c.len_utf8())),
        }
    }
    out
}

/// The words of a name written before a colon (`Anglo-Dutch`, `The
/// Scots`, `Austro-Hungarians 1701 Moves`): words, with a hyphen allowed
/// only inside a word pair written without spaces. `None` when anything
/// else stands there.
pub(crate) fn name_words(toks: &[Token]) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Word => out.push(t.text.as_str()),
            Tok::Dash => {
                let glued = i > 0
                    && toks[i - 1].tok == Tok::Word
                    && toks[i - 1].span.end == t.span.start
                    && t.span.len() == 1
                    && toks
                        .get(i + 1)
                        .is_some_and(|n| n.tok == Tok::Word && n.span.start == t.span.end);
                if !glued {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        lex(s).iter().map(|t| t.tok).collect()
    }

    #[test]
    fn every_arrow_is_a_dash() {
        for s in [
            "a-b", "a->b", "a=>b", "a–b", "a—b", "a→b", "a -- b", "a --> b",
        ] {
            assert_eq!(kinds(s), [Tok::Word, Tok::Dash, Tok::Word], "{s}");
        }
    }

    #[test]
    fn dots_inside_words_stay_a_final_dot_is_noted() {
        let t = lex("St. Petersburg Yor.");
        assert_eq!(t[0].text, "st");
        assert!(t[0].dotted);
        assert_eq!(t[2].text, "yor");
        assert!(t[2].dotted);
    }
}
