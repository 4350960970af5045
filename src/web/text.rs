//! Text from the store made fit for a page and a feed, whatever was stored.
//!
//! Press, display names, game names and results reach the pages as they
//! were kept. Input is cleaned where mail is read, but a store written by
//! an older judge, by hand, or by a path that missed the cleaning can
//! still hold characters that XML 1.0 forbids (C0 controls such as NUL,
//! backspace and ESC, U+FFFE, U+FFFF): one of them in the Atom feed makes
//! the whole feed unreadable to every feed reader, and in a page it is a
//! parse error or an invisible control. So every text is cleaned on its way
//! out, here, in the one formatter every page value passes through
//! ([`super::pages`]) and in the feed writer ([`super::feed`]).
//!
//! What goes: C0 controls but tab and line feed (a carriage return before
//! a line feed goes, one alone becomes a line feed), DEL and the C1
//! controls (U+007F to U+009F: XML allows them but discourages them, and
//! they are terminal escapes, not text), and the noncharacters (U+FDD0 to
//! U+FDEF, and the last two code points of every plane, U+FFFE and U+FFFF
//! among them). Everything else, any script, symbol or emoji, is kept.
//! Escaping is not done here: the templates and the feed writer escape the
//! cleaned text as before.

use std::borrow::Cow;

/// Whether `c` may stand in a page or a feed as it is.
pub fn allowed(c: char) -> bool {
    let n = u32::from(c);
    match c {
        '\t' | '\n' => true,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => false,
        '\u{fdd0}'..='\u{fdef}' => false,
        _ => n & 0xfffe != 0xfffe,
    }
}

/// `s` with the characters a page or a feed may not hold taken out (see
/// the module's doc); borrowed when there were none.
pub fn clean(s: &str) -> Cow<'_, str> {
    if s.chars().all(allowed) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' {
            if chars.peek() != Some(&'\n') {
                out.push('\n');
            }
        } else if allowed(c) {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `s` cleaned, as an owned string.
pub fn cleaned(s: &str) -> String {
    clean(s).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// XML 1.0's `Char` production, as the specification writes it.
    fn xml_char(c: char) -> bool {
        matches!(u32::from(c), 0x9 | 0xA | 0xD | 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
    }

    #[test]
    fn what_is_kept_is_always_an_xml_character() {
        for n in 0..=0x10ffffu32 {
            if let Some(c) = char::from_u32(n)
                && allowed(c)
            {
                assert!(xml_char(c), "U+{n:04X} kept but not XML");
            }
        }
    }

    #[test]
    fn controls_and_noncharacters_go_and_text_stays() {
        let bad = "a\u{0}b\u{8}c\u{1b}[31md\u{7f}e\u{85}f\u{9b}g\u{fffe}h\u{ffff}i\u{fdd0}j\u{1fffe}k\u{10ffff}l\u{c}m";
        assert_eq!(clean(bad), "abc[31mdefghijklm");
        assert_eq!(
            clean("one\r\ntwo\rthree\n\tfour"),
            "one\ntwo\nthree\n\tfour"
        );
        let good = "Grüße, 東京 🙂 <b>&amp;</b>\tend\n";
        assert!(matches!(clean(good), Cow::Borrowed(_)));
        assert_eq!(clean(good), good);
    }
}
