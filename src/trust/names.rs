//! Display names (SET NAME): what a player goes by on the game's page, in
//! WHO and in the roster at the end. A name is shown to everybody, so it
//! may carry nothing a reader cannot see and nothing that passes for
//! another player: format and bidi controls (Unicode category Cf: U+200B,
//! U+202E and the like) are dropped, and a name that looks like another
//! player's of the same game (the same UTS #39 confusable skeleton, "Alice
//! Smith" in Cyrillic letters) is refused. Nor may it carry a secret: a
//! name that is, or holds, a password the mail holds or the seat's own is
//! refused, so that nobody shows their password to the world by mistake.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// `name` as kept and shown: in NFC, without control characters and
/// noncharacters (as all text the judge reads: [`crate::mail::clean_text`])
/// nor format and bidi controls (category Cf), runs of white space made
/// one space, trimmed.
pub(crate) fn clean(name: &str) -> String {
    let visible: String = name
        .nfc()
        .filter(|c| !crate::mail::unsafe_char(*c))
        .filter(|c| c.general_category() != GeneralCategory::Format)
        .collect();
    visible.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What `name` looks like, for comparing with others: its UTS #39
/// confusable skeleton, in lower case, without spaces.
pub(crate) fn skeleton(name: &str) -> String {
    let flat: String = clean(name)
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    unicode_security::skeleton(&flat)
        .flat_map(char::to_lowercase)
        .collect()
}

/// The name to keep for `name`, or why it is refused: empty once cleaned,
/// a look-alike of one of `others` (the other players' names in the same
/// game), or holding a secret (`holds_secret` says, given the cleaned
/// name).
pub(crate) fn check(
    name: &str,
    others: &[&str],
    holds_secret: &dyn Fn(&str) -> bool,
) -> Result<String, String> {
    let kept = clean(name);
    if kept.is_empty() {
        return Err("a name needs letters a reader can see".into());
    }
    if holds_secret(&kept) {
        return Err(
            "a name may not be or hold a password: everybody sees it (choose another name, \
             and if you meant to change your password, SET PASSWORD)"
                .into(),
        );
    }
    let mine = skeleton(&kept);
    if let Some(o) = others.iter().find(|o| skeleton(o) == mine) {
        return Err(format!(
            "another player of this game goes by \"{}\", which looks the same; choose a \
             name readers can tell apart",
            clean(o)
        ));
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_and_bidi_characters_are_dropped() {
        assert_eq!(clean("Ann\u{200B}e  Smith"), "Anne Smith");
        assert_eq!(clean("\u{202E}retsaM emaG"), "retsaM emaG");
        assert_eq!(clean("\u{FEFF}Bob\u{2066}"), "Bob");
        assert_eq!(
            clean("Alice\u{0}\u{b}\u{85}\u{fffe} Liddell"),
            "Alice Liddell"
        );
    }

    #[test]
    fn look_alikes_share_a_skeleton() {
        // Cyrillic а, е and о.
        assert_eq!(skeleton("Alice Smith"), skeleton("Аlicе Smith"));
        assert_eq!(skeleton("alice smith"), skeleton("ALICE  SMITH"));
        assert_eq!(skeleton("Alice Smith"), skeleton("A1ice Smith"));
        assert_ne!(skeleton("Alice Smith"), skeleton("Alice Smyth"));
    }

    #[test]
    fn a_name_is_refused_for_a_look_alike_or_a_secret() {
        let none = |_: &str| false;
        assert!(check("Alice Smith", &["Аlice Smith"], &none).is_err());
        assert!(check("\u{200B}", &[], &none).is_err());
        assert_eq!(check("Bob", &["Alice Smith"], &none).as_deref(), Ok("Bob"));
        let secret = |n: &str| n.contains("hunter22");
        assert!(check("my hunter22 name", &[], &secret).is_err());
    }
}
