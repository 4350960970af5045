//! Secrets in a mail: the passwords it holds, masked wherever else the
//! mail's words appear (the answer, its Subject, press, every copy of the
//! mail the judge keeps, headers decoded first).
//!
//! Which words are passwords is read from the command lines (a command's
//! password position, in its form): a word is never masked because of a
//! phrase near it.

/// Secrets this long or longer are masked wherever they stand, even glued
/// to other text (`<p>SIGNON Italy g Ita-Poppy-15</p>` in a plain-text
/// body); shorter ones (an old password such as `pw`) only as words, or
/// every `pw` of a reply would go.
const MASK_INSIDE_WORDS: usize = 6;

/// `text` with each of `secrets` masked where it stands as a word (between
/// spaces, perhaps with punctuation around it), and the longer ones
/// wherever they stand. One pass over the text for each rule, whatever
/// the number of secrets: a mail of 30,000 guessed passwords costs no
/// more than one.
pub(crate) fn mask(text: &str, secrets: &[String]) -> String {
    let worded = mask_words(text, secrets);
    let long: Vec<&str> = secrets
        .iter()
        .map(String::as_str)
        .filter(|s| s.chars().count() >= MASK_INSIDE_WORDS)
        .collect();
    if long.is_empty() {
        return worded;
    }
    match aho_corasick::AhoCorasick::builder()
        .match_kind(aho_corasick::MatchKind::LeftmostLongest)
        .build(&long)
    {
        Ok(ac) => ac.replace_all(&worded, &vec!["********"; long.len()]),
        // Too many to build (it is not, for a mail's worth): words only.
        Err(_) => worded,
    }
}

/// [`mask`]'s word rule.
fn mask_words(text: &str, secrets: &[String]) -> String {
    if secrets.is_empty() {
        return text.to_string();
    }
    let set: std::collections::HashSet<&str> = secrets
        .iter()
        .map(String::as_str)
        .filter(|s| !s.is_empty())
        .collect();
    let punct = |c: char| !(c.is_alphanumeric() || c == '_' || c == '-');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let gap = rest.len() - rest.trim_start().len();
        out.push_str(&rest[..gap]);
        rest = &rest[gap..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        let core = word.trim_matches(punct);
        let hit = set.contains(word) || (!core.is_empty() && set.contains(core));
        if hit && set.contains(word) {
            out.push_str("********");
        } else if hit {
            let at = word.find(core).unwrap_or(0);
            out.push_str(&word[..at]);
            out.push_str("********");
            out.push_str(&word[at + core.len()..]);
        } else {
            out.push_str(word);
        }
        rest = &rest[end..];
    }
    out
}

/// A header's value as its reader sees it: encoded words (RFC 2047,
/// also when one word is split over two) decoded, an address list as
/// "name <address>, ...", on one line.
fn decoded(v: &mail_parser::HeaderValue<'_>) -> Option<String> {
    use mail_parser::HeaderValue as V;
    let text = match v {
        V::Text(t) => t.to_string(),
        V::TextList(l) => l.join(", "),
        V::Address(a) => {
            let list: Vec<&mail_parser::Addr<'_>> = match a {
                mail_parser::Address::List(l) => l.iter().collect(),
                mail_parser::Address::Group(g) => g.iter().flat_map(|g| &g.addresses).collect(),
            };
            list.iter()
                .map(|a| match (&a.name, &a.address) {
                    (Some(n), Some(e)) => format!("{n} <{e}>"),
                    (Some(n), None) => n.to_string(),
                    (None, Some(e)) => e.to_string(),
                    (None, None) => String::new(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        }
        _ => return None,
    };
    Some(text.chars().filter(|c| !c.is_control()).collect())
}

/// A copy of a processed mail to keep in place of the one received: its
/// header fields (but those describing the body) and `text`, the body as
/// the judge read it with its secrets masked. A field that holds one of
/// `secrets`, written plainly or in encoded words (RFC 2047: base64, or
/// quoted-printable split in two), is kept decoded with the secret masked.
pub(crate) fn kept_copy(raw: &[u8], text: &str, secrets: &[String]) -> Vec<u8> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 2)
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|i| i + 1))
        .unwrap_or(raw.len());
    let head = &raw[..end];
    let mut out = String::with_capacity(end + text.len() + 128);
    let parsed = mail_parser::MessageParser::default().parse_headers(head);
    let fields = parsed.as_ref().map(|m| m.headers()).unwrap_or_default();
    for h in fields {
        let name = h.name();
        let lower = name.to_ascii_lowercase();
        if lower.starts_with("content-") || lower == "mime-version" {
            continue;
        }
        let field = head
            .get(h.offset_field() as usize..h.offset_end() as usize)
            .map(String::from_utf8_lossy)
            .unwrap_or_default();
        let plain = mask(&field, secrets);
        let value = decoded(h.value()).unwrap_or_default();
        let masked = mask(&value, secrets);
        if masked != value {
            // Kept decoded: the secret was (perhaps only) in encoded words.
            out.push_str(name);
            out.push_str(": ");
            out.push_str(&masked);
        } else {
            out.push_str(plain.trim_end_matches(['\r', '\n']));
        }
        out.push_str("\r\n");
    }
    out.push_str("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n");
    out.push_str("Content-Transfer-Encoding: 8bit\r\nX-Zinejudge-Redacted: passwords\r\n\r\n");
    for line in text.lines() {
        out.push_str(line);
        out.push_str("\r\n");
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_masked_as_words_only() {
        let s = vec!["pw".to_string()];
        assert_eq!(
            mask("SIGNON E g pw; pwned pw. (pw)", &s),
            "SIGNON E g ********; pwned ********. (********)"
        );
        let s = vec!["pw-England".to_string()];
        assert_eq!(mask("x pw-England, y", &s), "x ********, y");
    }

    #[test]
    fn a_long_secret_is_masked_even_glued_to_other_text() {
        let s = vec!["Ita-Poppy-15".to_string(), "pw".to_string()];
        assert_eq!(
            mask(
                "<p>SIGNON Italy g Ita-Poppy-15</p><p>A Ven</p> pwned pw",
                &s
            ),
            "<p>SIGNON Italy g ********</p><p>A Ven</p> pwned ********"
        );
    }

    #[test]
    fn a_password_in_encoded_headers_is_masked_in_the_copy_kept() {
        let secrets = vec!["hunter22x".to_string()];
        for subject in [
            // base64
            "=?utf-8?B?aHVudGVyMjJ4?=",
            // quoted-printable, split in two encoded words
            "=?utf-8?Q?hunt?= =?utf-8?Q?er22x?=",
            "plain hunter22x",
        ] {
            let raw = format!(
                "From: =?utf-8?B?aHVudGVyMjJ4?= <ann@example.org>\r\nSubject: {subject}\r\n\
                 Message-ID: <a@b>\r\n\r\nbody\r\n"
            );
            let kept = String::from_utf8(kept_copy(raw.as_bytes(), "body", &secrets)).unwrap();
            let m = mail_parser::MessageParser::default()
                .parse(kept.as_bytes())
                .unwrap();
            let seen = format!("{:?} {:?}", m.subject(), m.from());
            assert!(!seen.contains("hunter22x"), "{subject}: {seen}\n{kept}");
            assert!(!kept.contains("aHVudGVyMjJ4"), "{kept}");
            assert!(kept.contains("Message-ID: <a@b>"), "{kept}");
        }
    }
}
