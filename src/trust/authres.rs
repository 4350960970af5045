//! Reading RFC 8601 `Authentication-Results` headers: what the judge's own
//! mail server found when it received a mail (DKIM signatures, DMARC).
//!
//! Anyone can write such a header into a mail, so only the server's own
//! count: those that carry the judge's configured `authserv-id` and stand
//! at the top of the header, where the receiving server puts them. The
//! first header with that id from the top is the server's; the headers of
//! that id directly below it are too (OpenDKIM and OpenDMARC each add one).
//! A header claiming the id lower down, below another header, is one the
//! mail brought with it and is ignored, as is every header of another id
//! (RFC 8601 section 5: a receiving server removes or ignores forged
//! headers of its own id; this reading is the judge's half of that rule).

/// One result of one method (`dkim=pass header.d=example.org`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MethodResult {
    /// The method, lower case (`dkim`, `dmarc`, `spf`).
    pub method: String,
    /// The result, lower case (`pass`, `fail`, `none`...).
    pub result: String,
    /// The properties (`header.d` to `example.org`), keys lower case.
    pub props: Vec<(String, String)>,
}

impl MethodResult {
    /// The value of property `key` (`header.d`), if given.
    pub(crate) fn prop(&self, key: &str) -> Option<&str> {
        self.props
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// One `Authentication-Results` header: its `authserv-id` and results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// The server that stamped it, lower case.
    pub authserv_id: String,
    /// Its results (none for `; none`).
    pub results: Vec<MethodResult>,
}

/// `text` without RFC 5322 comments (parenthesised, nested, with quoted
/// pairs), comments inside quoted strings kept.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut quoted = false;
    let mut escaped = false;
    for c in text.chars() {
        if escaped {
            escaped = false;
            if depth == 0 {
                out.push(c);
            }
            continue;
        }
        match c {
            '\\' if quoted || depth > 0 => escaped = true,
            '"' if depth == 0 => {
                quoted = !quoted;
                out.push(c);
            }
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => {
                depth -= 1;
                out.push(' ');
            }
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A value without its quotes, lower case.
fn value(v: &str) -> String {
    v.trim().trim_matches('"').to_ascii_lowercase()
}

/// Read one header's value (after `Authentication-Results:`); `None` when
/// it is not one (no `authserv-id`).
pub(crate) fn parse(header: &str) -> Option<Stamp> {
    let flat = without_comments(header);
    let mut parts = flat.split(';');
    let id = parts.next()?.split_whitespace().next()?;
    let authserv_id = value(id);
    if authserv_id.is_empty() {
        return None;
    }
    let mut results = Vec::new();
    for part in parts {
        let mut words = part.split_whitespace();
        let Some(first) = words.next() else { continue };
        let Some((method, result)) = first.split_once('=') else {
            // `none`: no results.
            continue;
        };
        let method = value(method.split('/').next().unwrap_or(method));
        let mut props = Vec::new();
        for w in words {
            if let Some((k, v)) = w.split_once('=') {
                props.push((k.to_ascii_lowercase(), value(v)));
            }
        }
        results.push(MethodResult {
            method,
            result: value(result),
            props,
        });
    }
    Some(Stamp {
        authserv_id,
        results,
    })
}

/// The stamps of the server `authserv_id` among a mail's
/// `Authentication-Results` fields, each with its place in the header
/// (0 for the top field): the first of that id from the top and those of
/// the same id directly below it. Any other field between two of them
/// ends the run.
pub(crate) fn own_stamps(fields: &[(usize, String)], authserv_id: &str) -> Vec<Stamp> {
    let mut out = Vec::new();
    let mut last: Option<usize> = None;
    for (at, v) in fields {
        let stamp = parse(v).filter(|s| s.authserv_id.eq_ignore_ascii_case(authserv_id));
        match (last, stamp) {
            (None, Some(s)) => {
                out.push(s);
                last = Some(*at);
            }
            (Some(l), Some(s)) if *at == l + 1 => {
                out.push(s);
                last = Some(*at);
            }
            (Some(_), _) => break,
            (None, None) => {}
        }
    }
    out
}

/// Whether the signing domain `d` is aligned with the From's domain
/// `from` (DMARC's relaxed alignment, read without the public suffix
/// list: the same domain, or `from` a subdomain of `d`, `d` having two
/// labels at least so that a signature of a whole top-level domain never
/// counts).
fn aligned(d: &str, from: &str) -> bool {
    let d = d.trim_end_matches('.');
    let from = from.trim_end_matches('.');
    d.eq_ignore_ascii_case(from)
        || (d.contains('.')
            && from.len() > d.len()
            && from[from.len() - d.len()..].eq_ignore_ascii_case(d)
            && from.as_bytes()[from.len() - d.len() - 1] == b'.')
}

/// What authenticates a From of `domain` among `stamps`, in words for the
/// log and the store (`dmarc=pass`, `dkim=pass header.d=example.org`):
/// DMARC passed for that domain, or a DKIM signature aligned with it
/// verified. `None`: nothing does.
pub(crate) fn authenticates(stamps: &[Stamp], domain: &str) -> Option<String> {
    let all = stamps.iter().flat_map(|s| &s.results);
    for r in all.clone() {
        if r.method == "dmarc"
            && r.result == "pass"
            && r.prop("header.from")
                .is_none_or(|f| f.trim_end_matches('.').eq_ignore_ascii_case(domain))
        {
            return Some(format!("dmarc=pass header.from={domain}"));
        }
    }
    for r in all {
        if r.method != "dkim" || r.result != "pass" {
            continue;
        }
        let d = r.prop("header.d").map(str::to_string).or_else(|| {
            r.prop("header.i")
                .and_then(|i| i.rsplit_once('@'))
                .map(|(_, d)| d.to_string())
        });
        if let Some(d) = d
            && aligned(&d, domain)
        {
            return Some(format!("dkim=pass header.d={d}"));
        }
    }
    None
}

/// The name a field that claimed the judge's own `authserv-id` is given
/// when the judge stamps a mail itself: kept for the record, believed by
/// nobody.
pub const SET_ASIDE: &str = "X-Unverified-Authentication-Results";

/// `raw` as the judge's own server would hand it on, when the judge checks
/// signatures itself (`Policy::verify_signatures`): every field that claims
/// `authserv_id` is renamed [`SET_ASIDE`] (the mail brought it; RFC 8601
/// section 5 has a receiving server remove or rename those), and `stamp`,
/// a whole `Authentication-Results` field ending in CRLF, goes on top.
pub(crate) fn restamp(raw: &[u8], authserv_id: &str, stamp: &str) -> Vec<u8> {
    let end = header_end(raw);
    let mut out = Vec::with_capacity(raw.len() + stamp.len() + 64);
    out.extend_from_slice(stamp.as_bytes());
    let (head, body) = raw.split_at(end);
    for field in fields(head) {
        let colon = field.iter().position(|&b| b == b':');
        let claims_ours = colon.is_some_and(|c| {
            field[..c]
                .trim_ascii()
                .eq_ignore_ascii_case(b"authentication-results")
                && parse(&String::from_utf8_lossy(&field[c + 1..]).replace(['\r', '\n'], ""))
                    .is_some_and(|s| s.authserv_id.eq_ignore_ascii_case(authserv_id))
        });
        match colon {
            Some(c) if claims_ours => {
                out.extend_from_slice(SET_ASIDE.as_bytes());
                out.extend_from_slice(&field[c..]);
            }
            _ => out.extend_from_slice(field),
        }
    }
    out.extend_from_slice(body);
    out
}

/// Where a raw mail's header ends: at its blank line (which stays with the
/// body), or the mail's end.
fn header_end(raw: &[u8]) -> usize {
    let mut at = 0;
    while at < raw.len() {
        let line_end = raw[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(raw.len(), |p| at + p + 1);
        let line = &raw[at..line_end];
        if line == b"\r\n" || line == b"\n" {
            return at;
        }
        at = line_end;
    }
    raw.len()
}

/// A header's fields, each with its folded lines and line ends.
fn fields(head: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < head.len() {
        let line_end = head[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(head.len(), |p| at + p + 1);
        let next_folds = head
            .get(line_end)
            .is_some_and(|b| matches!(b, b' ' | b'\t'));
        if !next_folds {
            out.push(&head[start..line_end]);
            start = line_end;
        }
        at = line_end;
    }
    if start < head.len() {
        out.push(&head[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_read_with_comments_and_quotes() {
        let s = parse(
            "mx.judge.test (OpenDKIM); dkim=pass (2048-bit key; unprotected) \
             header.d=example.org header.i=@example.org header.b=\"abcd\"; \
             dmarc=pass (p=none dis=none) header.from=example.org",
        )
        .unwrap();
        assert_eq!(s.authserv_id, "mx.judge.test");
        assert_eq!(s.results.len(), 2);
        assert_eq!(s.results[0].method, "dkim");
        assert_eq!(s.results[0].prop("header.d"), Some("example.org"));
        assert_eq!(s.results[1].result, "pass");
        assert!(parse("mx.judge.test 1; none").unwrap().results.is_empty());
        assert!(parse("   ").is_none());
    }

    #[test]
    fn only_the_servers_own_stamps_at_the_top_count() {
        // Return-Path (0), the server's two (1, 2), Received (3), then one
        // the mail brought with it (4), below the server's own.
        let fields = [
            (1, "mx.judge.test; dkim=none".to_string()),
            (
                2,
                "mx.judge.test; dmarc=fail header.from=example.org".to_string(),
            ),
            (
                4,
                "mx.judge.test; dmarc=pass header.from=example.org".to_string(),
            ),
        ];
        let own = own_stamps(&fields, "MX.judge.test");
        assert_eq!(own.len(), 2);
        assert_eq!(authenticates(&own, "example.org"), None);
        let elsewhere = [(
            0,
            "mx.other.test; dmarc=pass header.from=example.org".to_string(),
        )];
        assert!(own_stamps(&elsewhere, "mx.judge.test").is_empty());
    }

    #[test]
    fn dmarc_or_an_aligned_dkim_signature_authenticates() {
        let pass = |v: &str| own_stamps(&[(0, v.to_string())], "mx");
        assert!(
            authenticates(
                &pass("mx; dmarc=pass header.from=example.org"),
                "example.org"
            )
            .is_some()
        );
        assert!(
            authenticates(&pass("mx; dmarc=pass header.from=evil.test"), "example.org").is_none()
        );
        assert!(
            authenticates(
                &pass("mx; dkim=pass header.d=example.org"),
                "mail.example.org"
            )
            .is_some()
        );
        assert!(
            authenticates(
                &pass("mx; dkim=pass header.d=example.org"),
                "badexample.org"
            )
            .is_none()
        );
        assert!(authenticates(&pass("mx; dkim=pass header.d=org"), "example.org").is_none());
        assert!(
            authenticates(&pass("mx; dkim=fail header.d=example.org"), "example.org").is_none()
        );
        assert!(
            authenticates(
                &pass("mx; spf=pass smtp.mailfrom=example.org"),
                "example.org"
            )
            .is_none()
        );
    }

    #[test]
    fn the_judges_own_stamp_goes_on_top_and_claims_of_its_id_are_set_aside() {
        let raw = b"Received: from a\r\nAuthentication-Results: judge.test;\r\n\tdmarc=pass header.from=x.test\r\n\
Authentication-Results: other.test; dkim=pass header.d=x.test\r\nFrom: a@x.test\r\n\r\nAuthentication-Results: judge.test; body\r\n";
        let out = restamp(
            raw,
            "JUDGE.test",
            "Authentication-Results: judge.test; dkim=none\r\n",
        );
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with(
                "Authentication-Results: judge.test; dkim=none\r\nReceived: from a\r\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("X-Unverified-Authentication-Results: judge.test;\r\n\tdmarc=pass"),
            "{text}"
        );
        assert!(
            text.contains("\r\nAuthentication-Results: other.test; dkim=pass"),
            "{text}"
        );
        // The body is left as it was.
        assert!(
            text.ends_with("\r\n\r\nAuthentication-Results: judge.test; body\r\n"),
            "{text}"
        );
        let read = crate::mail::read(text.as_bytes(), "judge@judge.test");
        let own = own_stamps(&read.auth_results, "judge.test");
        assert_eq!(own.len(), 1);
        assert_eq!(own[0].results[0].result, "none");
    }
}
