//! Text as data: what a sender wrote, made safe to carry anywhere the
//! judge puts it (a mail body, a stored press, a page, a feed).
//!
//! A sender can write any character: NUL, backspace, ESC (terminal
//! escapes), form feed, the C1 controls, and Unicode's noncharacters
//! (U+FFFE, U+FDD0 ...). Carried as they are, they made the Atom feed
//! unreadable as XML (XML 1.0 allows none of them) and sent a raw NUL in
//! a `7bit` mail part, which the transfer encoding forbids. They carry no
//! meaning in a game's text, so they are removed where text comes in and
//! again where mail goes out; line ends are kept as line ends and tabs as
//! tabs.

use std::borrow::Cow;

/// Whether `c` has no place in a text the judge keeps or sends: a control
/// character other than tab and line feed, or a Unicode noncharacter.
/// Carriage returns count too: line ends are normalised to `\n` first.
pub fn unsafe_char(c: char) -> bool {
    let n = c as u32;
    (c.is_control() && c != '\n' && c != '\t')
        || (0xFDD0..=0xFDEF).contains(&n)
        || (n & 0xFFFE) == 0xFFFE
}

/// `text` without the characters of [`unsafe_char`]: line ends become
/// `\n` (a CR, alone or before LF, and Unicode's line and paragraph
/// separators), everything else unsafe is dropped. Borrowed when nothing
/// had to change, which is nearly always.
pub(crate) fn clean_text(text: &str) -> Cow<'_, str> {
    let needs = text
        .chars()
        .any(|c| unsafe_char(c) || c == '\u{2028}' || c == '\u{2029}');
    if !needs {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            '\u{2028}' | '\u{2029}' => out.push('\n'),
            c if unsafe_char(c) => {}
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_noncharacters_go_and_lines_stay() {
        let raw = "a\u{0}b\u{8}c\u{1b}[31md\u{7f}e\u{85}f\u{fffe}g\u{ffff}h\u{fdd0}i\u{10ffff}j";
        assert_eq!(clean_text(raw), "abc[31mdefghij");
        assert_eq!(
            clean_text("one\r\ntwo\rthree\u{2028}four"),
            "one\ntwo\nthree\nfour"
        );
        assert_eq!(clean_text("tab\there\n"), "tab\there\n");
        assert!(matches!(
            clean_text("plain text, é ü ß 漢字"),
            Cow::Borrowed(_)
        ));
    }
}
