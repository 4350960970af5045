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

//! The rule is the one text is cleaned by where mail is read and sent
//! ([`crate::mail::clean_text`]); this only names it for the pages.

use std::borrow::Cow;

/// Whether `c` may stand in a page or a feed as it is (the tests' check of
/// what [`clean`] leaves).
#[cfg(test)]
pub(crate) fn allowed(c: char) -> bool {
    !crate::mail::unsafe_char(c)
}

/// `s` with the characters a page or a feed may not hold taken out (see
/// the module's doc); borrowed when there were none.
pub(crate) fn clean(s: &str) -> Cow<'_, str> {
    crate::mail::clean_text(s)
}

/// `s` cleaned, as an owned string.
pub(crate) fn cleaned(s: &str) -> String {
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
