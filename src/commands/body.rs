//! A mail body as the judge reads it: which of its lines are read (not
//! quoted, not below the signature or the judge's own text), and how many.
//! Below every command, so that any of them (and trust) can read a mail's
//! lines as the mail's reading does.

/// Non-blank lines of a mail read; the rest are counted and named.
pub(crate) const MAX_LINES: usize = 1000;
/// Commands carried out in one mail.
pub(crate) const MAX_COMMANDS: usize = 100;
/// The lines of a mail body to read, numbered from 1: up to the signature
/// or a forwarded original, without quoted lines and without DPjudge's
/// comment lines (`//`), with DPjudge's one-line mails (`\\: signon
/// Egame pw:A Lon-Yor:signoff`) cut into their lines.
pub(crate) fn body_lines(body: &str) -> Vec<(usize, String)> {
    read_body(body).lines
}

/// A mail body as the judge reads it ([`body_lines`]), with the count of
/// comment lines left out (the reply says so).
pub(crate) struct Body {
    /// The lines to read, numbered from 1 as in the mail.
    pub(crate) lines: Vec<(usize, String)>,
    /// Lines left out as DPjudge comments (`//`).
    pub(crate) comments: usize,
}

/// Read a mail body (see [`body_lines`]).
pub(crate) fn read_body(body: &str) -> Body {
    use crate::orders::mail::{body_end, is_attribution, is_quoted};
    let all: Vec<&str> = body.lines().collect();
    // The judge's own text, under a reply or echoed back, is not read.
    let lines = &all[..all
        .iter()
        .position(|l| is_judge_mark(l))
        .unwrap_or(all.len())];
    let end = body_end(lines);
    let mut out = Body {
        lines: Vec::new(),
        comments: 0,
    };
    for (i, l) in lines[..end].iter().enumerate() {
        if is_quoted(l) || is_attribution(lines, i) {
            continue;
        }
        let t = l.trim_start();
        // DPjudge: a line whose first characters are `//` is a comment,
        // wherever it stands, press included.
        if t.starts_with("//") {
            out.comments += 1;
            continue;
        }
        match one_line_mail(t) {
            Some(parts) => out.lines.extend(parts.into_iter().map(|p| (i + 1, p))),
            None => out.lines.push((i + 1, (*l).to_string())),
        }
    }
    out
}

/// DPjudge's form for devices that cannot send a line break: a line that
/// starts with `\\` and then a character that is no letter or digit, which
/// stands for a line break in the rest of the line.
fn one_line_mail(t: &str) -> Option<Vec<String>> {
    let rest = t.strip_prefix("\\\\")?.trim_start();
    let sep = rest.chars().next()?;
    if sep.is_alphanumeric() {
        return None;
    }
    Some(
        rest[sep.len_utf8()..]
            .split(sep)
            .map(|p| p.trim().to_string())
            .collect(),
    )
}

/// Whether `line` is the first line of the judge's own mails
/// ([`crate::mail::JUDGE_MARK`]), as written or as a mail client may have
/// changed its case or spacing.
pub(crate) fn is_judge_mark(line: &str) -> bool {
    let flat = |t: &str| -> String {
        t.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let t = line.trim();
    t.starts_with("-----") && flat(t) == flat(crate::mail::JUDGE_MARK)
}

/// Whether `text` is the judge's own mail come back: its first line that
/// says anything is [`crate::mail::JUDGE_MARK`].
pub(crate) fn is_judges_own(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(is_judge_mark)
}
