//! HTML mail to plain text: one pass over the input, within bounds.
//!
//! An HTML-only mail is read as the writer saw it: block elements (`<div>`,
//! `<p>`, `<li>`, `<tr>`, headings) and `<br>` end lines, table cells are
//! separated by a space, `<pre>` keeps its spacing, a `<blockquote>` (a
//! client's quote of the mail answered) becomes `> ` lines so that the
//! command reader skips it as it skips quoted plain text, entities are
//! decoded, and what a reader never sees (`<head>`, `<script>`, `<style>`,
//! `<template>`, comments) is dropped. No marks are added: no bullets or
//! numbers before list items, no `*` for bold, no list of links, since a
//! line of the mail must read as the line the writer typed.
//!
//! Why not a general HTML-to-text library: one that builds the document
//! tree and lays it out (html2text, used before) takes time growing with
//! the square of the nesting depth, and a 480 KB body of `<ul><li>` held
//! the judge 75 s. html5ever's tokenizer alone is linear in depth but
//! compares each attribute of a tag with all those before it, so one tag
//! of 200,000 attributes is quadratic too. Here no tree is built: the
//! state is a handful of counters (quote depth, `<pre>` depth, whether in
//! `<head>` or a `<template>`), so an unclosed or deeply nested tag costs
//! what any other tag costs, each byte of the input is looked at a bounded
//! number of times, and attributes are skipped without being kept.
//!
//! Bounds, whatever the input: at most [`MAX_TEXT`] bytes of text are made
//! (cut at a line end), at most [`MAX_TAGS`] tags are read (the rest of the
//! mail is not), quoting shows at most [`MAX_QUOTE`] levels, and the work
//! [`Budget`] is looked at every [`CHUNK`] bytes of input: once it is spent
//! the conversion stops where it is (the processor then fails the mail
//! with that cause).

use super::Budget;
use markup5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

/// The most text made from one HTML body, in bytes: more than the judge
/// ever reads from a mail (1,000 lines), far less than memory allows.
pub(crate) const MAX_TEXT: usize = 1024 * 1024;

/// The most tags read from one HTML body: more than a mail of the default
/// largest size (1 MiB) can hold (a tag is 3 bytes at least), while a long
/// mail written in a mail client has a few thousand. Beyond it the rest of
/// the body is not read, so that raising `[limits] max-mail-bytes` does not
/// raise the cost of a hostile body without bound.
pub(crate) const MAX_TAGS: usize = 400_000;

/// The deepest quoting shown: `> ` at most this many times before a line
/// (a thousand nested `<blockquote>` would otherwise make every line
/// two thousand bytes longer). One level is all the command reader needs
/// to skip a line.
pub(crate) const MAX_QUOTE: usize = 8;

/// Bytes of input read between two looks at the work budget.
pub(crate) const CHUNK: usize = 64 * 1024;

/// The longest entity name (`CounterClockwiseContourIntegral`, 31
/// characters) and its `;`.
const MAX_ENTITY: usize = 32;

/// The text of an HTML body, as its reader saw it (see the module
/// documentation), within [`MAX_TEXT`], [`MAX_TAGS`] and `budget`.
pub(crate) fn to_text(html: &str, budget: &Budget) -> String {
    let mut s = Scan {
        src: html,
        at: 0,
        out: Out::default(),
        tags: 0,
        head: false,
        template: 0,
    };
    s.run(budget);
    s.out.finish()
}

/// What a tag does to the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A line break (`<br>`).
    Break,
    /// A block: it starts and ends a line.
    Block,
    /// A paragraph-like block: a blank line before and after.
    Paragraph,
    /// A table cell: a space from the cell before.
    Cell,
    /// Preformatted text: spacing and line ends kept.
    Pre,
    /// A quotation: its lines start with `> `.
    Quote,
    /// Raw text never shown (`<script>`, `<style>`, `<title>`...): skipped
    /// to its end tag.
    Hidden,
    /// Raw text shown as it is (`<textarea>`, `<xmp>`), to its end tag.
    Literal,
    /// Everything after it is text (`<plaintext>`).
    Plaintext,
    /// `<template>`: its content is not shown.
    Template,
    /// `<head>`: its content is not shown.
    Head,
    /// `<body>`: ends the head.
    Body,
    /// Elements of the head, which do not end it.
    InHead,
    /// Anything else: inline, nothing to do.
    Inline,
}

/// The kind of the element named `name` (any case).
fn kind(name: &[u8]) -> Kind {
    let mut buf = [0u8; 10];
    if name.len() > buf.len() {
        return Kind::Inline;
    }
    let lower = &mut buf[..name.len()];
    lower.copy_from_slice(name);
    lower.make_ascii_lowercase();
    match &*lower {
        b"br" => Kind::Break,
        b"p" | b"h1" | b"h2" | b"h3" | b"h4" | b"h5" | b"h6" | b"hr" => Kind::Paragraph,
        b"div" | b"li" | b"ul" | b"ol" | b"dl" | b"table" | b"tr" | b"dt" | b"dd" | b"address"
        | b"article" | b"aside" | b"center" | b"details" | b"dialog" | b"dir" | b"fieldset"
        | b"figcaption" | b"figure" | b"footer" | b"form" | b"header" | b"hgroup" | b"legend"
        | b"main" | b"menu" | b"nav" | b"section" | b"summary" | b"caption" | b"thead"
        | b"tbody" | b"tfoot" | b"option" | b"html" => Kind::Block,
        b"td" | b"th" => Kind::Cell,
        b"pre" | b"listing" => Kind::Pre,
        b"blockquote" => Kind::Quote,
        b"script" | b"style" | b"title" | b"iframe" | b"noembed" | b"noframes" => Kind::Hidden,
        b"textarea" | b"xmp" => Kind::Literal,
        b"plaintext" => Kind::Plaintext,
        b"template" => Kind::Template,
        b"head" => Kind::Head,
        b"body" => Kind::Body,
        b"meta" | b"link" | b"base" | b"basefont" | b"bgsound" | b"noscript" => Kind::InHead,
        _ => Kind::Inline,
    }
}

/// Whether `b` is HTML's ASCII whitespace.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// The text being made: lines, breaks between blocks, collapsed spaces.
#[derive(Default)]
struct Out {
    text: String,
    /// Line ends at the end of `text`.
    trailing: usize,
    /// The current line has something on it (its quote marks at least).
    open: bool,
    /// A space is due before the next word on this line.
    space: bool,
    /// Line ends due before the next text: 1 ends the line, 2 leaves a
    /// blank line.
    want: usize,
    /// `<blockquote>` depth.
    quote: usize,
    /// `<pre>` depth.
    pre: usize,
    /// [`MAX_TEXT`] reached.
    full: bool,
    /// The last character of `<pre>` text was a CR (a LF after it is the
    /// same line end).
    after_cr: bool,
}

impl Out {
    /// Put the line ends due, then the quote marks of a new line.
    fn start(&mut self) {
        if !self.text.is_empty() {
            while self.trailing < self.want {
                self.text.push('\n');
                self.trailing += 1;
                self.open = false;
            }
        }
        self.want = 0;
        if !self.open {
            for _ in 0..self.quote.min(MAX_QUOTE) {
                self.text.push_str("> ");
            }
            self.open = true;
            self.space = false;
        }
    }

    fn push(&mut self, c: char) {
        self.start();
        if self.space {
            self.text.push(' ');
            self.space = false;
        }
        self.text.push(c);
        self.trailing = 0;
        if self.text.len() >= MAX_TEXT {
            self.full = true;
        }
    }

    /// A line end that is text (`<br>`, a line end in `<pre>`).
    fn newline(&mut self) {
        if !self.text.is_empty() {
            while self.trailing < self.want {
                self.text.push('\n');
                self.trailing += 1;
            }
        }
        self.want = 0;
        self.text.push('\n');
        self.trailing += 1;
        self.open = false;
        self.space = false;
        if self.text.len() >= MAX_TEXT {
            self.full = true;
        }
    }

    /// Line ends before the next text (a block's edge).
    fn block(&mut self, n: usize) {
        self.want = self.want.max(n);
        self.space = false;
    }

    /// Text as HTML shows it: runs of whitespace are one space, none at
    /// the start or end of a line; in `<pre>` as it is, a CRLF or a lone CR
    /// being a line end as in plain mail.
    fn text(&mut self, s: &str) {
        for c in s.chars() {
            if self.full {
                return;
            }
            let after_cr = std::mem::take(&mut self.after_cr);
            match c {
                '\n' if self.pre > 0 && after_cr => {}
                '\r' | '\n' if self.pre > 0 => {
                    self.newline();
                    self.after_cr = c == '\r';
                }
                ' ' | '\t' | '\n' | '\r' | '\x0c' if self.pre == 0 => {
                    if self.open && self.want == 0 {
                        self.space = true;
                    }
                }
                // A no-break space is a space that is not collapsed (the
                // word separator of many clients' HTML).
                '\u{a0}' => self.push(' '),
                c => self.push(c),
            }
        }
    }

    /// The text, cut at a line end if [`MAX_TEXT`] was reached, ending in
    /// a line end.
    fn finish(mut self) -> String {
        if self.full {
            let end = self.text.rfind('\n').map_or(0, |i| i + 1);
            self.text.truncate(end);
        }
        let end = self.text.trim_end().len();
        self.text.truncate(end);
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        self.text
    }
}

/// The scanner: where it is in the input, and what it is inside.
struct Scan<'a> {
    src: &'a str,
    at: usize,
    out: Out,
    tags: usize,
    /// Inside `<head>`: text is dropped.
    head: bool,
    /// `<template>` depth: text is dropped.
    template: usize,
}

impl Scan<'_> {
    fn run(&mut self, budget: &Budget) {
        let b = self.src.as_bytes();
        let mut look = CHUNK;
        while self.at < b.len() && !self.out.full && self.tags <= MAX_TAGS {
            if self.at >= look {
                if budget.check().is_err() {
                    return;
                }
                look = self.at + CHUNK;
            }
            let rest = &b[self.at..];
            let n = rest
                .iter()
                .position(|&c| c == b'<' || c == b'&')
                .unwrap_or(rest.len());
            if n > 0 {
                let (src, end) = (self.src, self.at + n);
                self.shown(&src[self.at..end]);
                self.at = end;
            } else if b[self.at] == b'&' {
                self.at += self.entity();
            } else {
                self.markup();
            }
        }
    }

    /// Text of the document, unless where it is is not shown.
    fn shown(&mut self, s: &str) {
        // Nothing in a template or the head is shown. (Text in the head
        // is a mistake no mail client makes; a browser would show it in
        // the body.)
        if self.template > 0 || self.head {
            return;
        }
        self.out.text(s);
    }

    /// Decode the character reference at `at` (an `&`) into the text;
    /// returns the bytes it took. A `&` that starts none is text.
    fn entity(&mut self) -> usize {
        let b = &self.src.as_bytes()[self.at..];
        let mut buf = [0u8; 8];
        if b.get(1) == Some(&b'#') {
            let hex = matches!(b.get(2), Some(b'x' | b'X'));
            let start = if hex { 3 } else { 2 };
            let mut value: u32 = 0;
            let mut i = start;
            while let Some(&c) = b.get(i) {
                let d = match (hex, c) {
                    (_, b'0'..=b'9') => u32::from(c - b'0'),
                    (true, b'a'..=b'f') => u32::from(c - b'a' + 10),
                    (true, b'A'..=b'F') => u32::from(c - b'A' + 10),
                    _ => break,
                };
                value = value
                    .saturating_mul(if hex { 16 } else { 10 })
                    .saturating_add(d)
                    .min(0x11_0000);
                i += 1;
            }
            if i == start {
                // `&#` with no digits: text.
                self.shown("&");
                return 1;
            }
            if b.get(i) == Some(&b';') {
                i += 1;
            }
            let c = match value {
                0x80..=0x9f => C1_REPLACEMENTS[(value - 0x80) as usize]
                    .unwrap_or_else(|| char::from_u32(value).unwrap_or('\u{fffd}')),
                v => char::from_u32(v)
                    .filter(|&c| c != '\0')
                    .unwrap_or('\u{fffd}'),
            };
            let s = c.encode_utf8(&mut buf);
            self.shown(s);
            return i;
        }
        // A name: the longest one known that the text starts with (those
        // of HTML 4 are also known without their `;`). The table holds
        // every prefix of every name, so the walk stops at the first
        // letter no name goes on with.
        let run = b[1..]
            .iter()
            .take(MAX_ENTITY)
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        let mut best: Option<(usize, (u32, u32))> = None;
        let mut k = 1;
        while k <= run {
            match NAMED_ENTITIES.get(&self.src[self.at + 1..self.at + 1 + k]) {
                None => break,
                Some(&(0, _)) => {}
                Some(&v) => best = Some((k, v)),
            }
            k += 1;
        }
        if k > run
            && b.get(1 + run) == Some(&b';')
            && let Some(&v) = NAMED_ENTITIES.get(&self.src[self.at + 1..self.at + 2 + run])
            && v.0 != 0
        {
            best = Some((run + 1, v));
        }
        let Some((len, (c1, c2))) = best else {
            self.shown("&");
            return 1;
        };
        for c in [c1, c2] {
            if let Some(c) = char::from_u32(c).filter(|&c| c != '\0') {
                let s = c.encode_utf8(&mut buf);
                self.shown(s);
            }
        }
        1 + len
    }

    /// Read the markup at `at` (a `<`): a tag, a comment, or a `<` that is
    /// text.
    fn markup(&mut self) {
        let b = self.src.as_bytes();
        let rest = &b[self.at + 1..];
        match rest.first() {
            Some(b'!') if rest.starts_with(b"!--") => {
                let body = self.at + 4;
                // `<!-->` and `<!--->` are whole (empty) comments.
                self.at = if b[body..].starts_with(b">") {
                    body + 1
                } else if b[body..].starts_with(b"->") {
                    body + 2
                } else {
                    find(b, body, b"-->").map_or(b.len(), |i| i + 3)
                };
            }
            // `<!DOCTYPE ...>`, `<![CDATA[...]]>`, `<?xml ...?>`: bogus
            // comments, to the next `>`.
            Some(b'!' | b'?') => self.at = find(b, self.at + 2, b">").map_or(b.len(), |i| i + 1),
            Some(b'/') => match rest.get(1) {
                Some(c) if c.is_ascii_alphabetic() => self.tag(true),
                // `</>` is nothing.
                Some(b'>') => self.at += 3,
                Some(_) => self.at = find(b, self.at + 2, b">").map_or(b.len(), |i| i + 1),
                None => {
                    self.shown("</");
                    self.at = b.len();
                }
            },
            Some(c) if c.is_ascii_alphabetic() => self.tag(false),
            _ => {
                self.shown("<");
                self.at += 1;
            }
        }
    }

    /// Read a start or end tag at `at` and do what it does.
    fn tag(&mut self, end: bool) {
        let b = self.src.as_bytes();
        let name_at = self.at + if end { 2 } else { 1 };
        let mut i = name_at;
        while i < b.len() && !is_space(b[i]) && b[i] != b'/' && b[i] != b'>' {
            i += 1;
        }
        let name = &b[name_at..i];
        // The attributes, skipped: a quoted value may hold `>`.
        let mut closed = false;
        while i < b.len() {
            match b[i] {
                b'>' => {
                    closed = true;
                    i += 1;
                    break;
                }
                b'=' => {
                    i += 1;
                    while i < b.len() && is_space(b[i]) {
                        i += 1;
                    }
                    if let Some(&q @ (b'"' | b'\'')) = b.get(i) {
                        i = find(b, i + 1, &[q]).map_or(b.len(), |j| j + 1);
                    }
                }
                _ => i += 1,
            }
        }
        self.at = i;
        self.tags += 1;
        if !closed {
            // A tag cut off by the end of the mail is no tag.
            return;
        }
        let k = kind(name);
        if self.head
            && !end
            && !matches!(k, Kind::Hidden | Kind::InHead | Kind::Template | Kind::Head)
        {
            self.head = false;
        }
        let out = &mut self.out;
        match (k, end) {
            (Kind::Break, _) if self.template == 0 => out.newline(),
            (Kind::Block, _) => out.block(1),
            (Kind::Paragraph, _) => out.block(2),
            (Kind::Cell, false) if out.open => out.space = true,
            (Kind::Pre, false) => {
                out.block(2);
                out.pre += 1;
                // A line end right after `<pre>` is not shown.
                if b[self.at..].starts_with(b"\r\n") {
                    self.at += 2;
                } else if b[self.at..].starts_with(b"\n") {
                    self.at += 1;
                }
            }
            (Kind::Pre, true) => {
                out.pre = out.pre.saturating_sub(1);
                out.block(2);
            }
            (Kind::Quote, false) => {
                out.block(2);
                out.quote += 1;
            }
            (Kind::Quote, true) => {
                out.quote = out.quote.saturating_sub(1);
                out.block(2);
            }
            (Kind::Hidden, false) => self.raw_text(name, Raw::Hidden),
            (Kind::Literal, false) => {
                let raw = if name.eq_ignore_ascii_case(b"textarea") {
                    Raw::Decoded
                } else {
                    Raw::Shown
                };
                self.raw_text(name, raw);
            }
            (Kind::Plaintext, false) => {
                self.out.pre += 1;
                let src = self.src;
                self.shown(&src[self.at..]);
                self.at = b.len();
            }
            (Kind::Template, false) => self.template += 1,
            (Kind::Template, true) => self.template = self.template.saturating_sub(1),
            (Kind::Head, false) => self.head = true,
            (Kind::Head, true) | (Kind::Body, false) => self.head = false,
            _ => {}
        }
    }

    /// Raw text (after `<script>`, `<textarea>`...) up to the end tag of
    /// `name`, where no tag is read.
    fn raw_text(&mut self, name: &[u8], raw: Raw) {
        let (src, b) = (self.src, self.src.as_bytes());
        let mut from = self.at;
        let end = loop {
            let Some(i) = find(b, from, b"</") else {
                break None;
            };
            let n = i + 2;
            let after = n + name.len();
            if b.len() >= after
                && b[n..after].eq_ignore_ascii_case(name)
                && b.get(after)
                    .is_none_or(|&c| is_space(c) || c == b'/' || c == b'>')
            {
                break Some(i);
            }
            from = n;
        };
        let stop = end.unwrap_or(b.len());
        match raw {
            Raw::Hidden => self.at = stop,
            Raw::Shown => {
                self.out.pre += 1;
                self.shown(&src[self.at..stop]);
                self.out.pre -= 1;
                self.at = stop;
            }
            Raw::Decoded => {
                self.out.pre += 1;
                while self.at < stop {
                    let n = b[self.at..stop]
                        .iter()
                        .position(|&c| c == b'&')
                        .unwrap_or(stop - self.at);
                    if n > 0 {
                        self.shown(&src[self.at..self.at + n]);
                        self.at += n;
                    } else {
                        self.at += self.entity();
                    }
                }
                self.out.pre -= 1;
            }
        }
        if let Some(i) = end {
            // The end tag itself is read as any tag.
            self.at = i;
            self.tag(true);
        }
    }
}

/// What raw text is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Raw {
    /// Not shown (`<script>`, `<style>`, `<title>`).
    Hidden,
    /// Shown as it is (`<xmp>`).
    Shown,
    /// Shown with its character references decoded (`<textarea>`).
    Decoded,
}

/// The first place of `needle` in `hay` at or after `from`.
fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    let mut i = from;
    while i + needle.len() <= hay.len() {
        let j = hay[i..hay.len() + 1 - needle.len()]
            .iter()
            .position(|&c| c == first)?;
        let at = i + j;
        if hay[at..].starts_with(needle) {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn text(html: &str) -> String {
        to_text(html, &Budget::unlimited())
    }

    #[test]
    fn blocks_and_breaks_are_lines() {
        assert_eq!(
            text(
                "<html><body><div>SIGNON England g pw</div><div>F Lon-ENG</div>\
                 <div>F Edi-NTH<br></div><div><br></div><div>Ann</div></body></html>"
            ),
            "SIGNON England g pw\nF Lon-ENG\nF Edi-NTH\n\nAnn\n"
        );
        assert_eq!(
            text("<p>A(Lon)-Yor</p><p>F(Edi)-NTH</p>"),
            "A(Lon)-Yor\n\nF(Edi)-NTH\n"
        );
        assert_eq!(
            text("one<br>two<br/>three<BR >four"),
            "one\ntwo\nthree\nfour\n"
        );
    }

    #[test]
    fn whitespace_collapses_as_a_browser_shows_it() {
        assert_eq!(
            text("  <div>\n  F   Lon\n  -  ENG  </div>\n\n <div> A Lvp-Yor </div> "),
            "F Lon - ENG\nA Lvp-Yor\n"
        );
        assert_eq!(text("F&nbsp;&nbsp;Lon-ENG"), "F  Lon-ENG\n");
        assert_eq!(text("F\u{a0}Lon-ENG"), "F Lon-ENG\n");
        assert_eq!(text("<b>F</b> <i>Lon</i>-<span>ENG</span>"), "F Lon-ENG\n");
    }

    #[test]
    fn no_marks_are_added() {
        let t = text(
            "<p><b>Bold</b> <strong>strong</strong> <i>it</i> <em>em</em> \
             <a href=\"https://example.test/x\">a link</a> <code>c</code></p>\
             <ul><li>A Lon-Yor</li><li>F Edi-NTH</li></ul>\
             <ol><li>A Par-Bur</li></ol><h1>Title</h1><hr>",
        );
        assert_eq!(
            t,
            "Bold strong it em a link c\n\nA Lon-Yor\nF Edi-NTH\nA Par-Bur\n\nTitle\n"
        );
        assert!(!t.contains(['*', '[', '#', '_', '`']), "{t}");
    }

    #[test]
    fn table_rows_are_lines_and_cells_are_words() {
        assert_eq!(
            text(
                "<table><tr><td>F</td><td>Lon</td><td>-</td><td>ENG</td></tr>\
                 <tr><th>A</th><td>Lvp-Yor</td></tr></table>after"
            ),
            "F Lon - ENG\nA Lvp-Yor\nafter\n"
        );
    }

    #[test]
    fn entities_are_decoded() {
        assert_eq!(
            text("a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39; &#x41;&#X42; &eacute;t&eacute;"),
            "a & b <c> \"d\" 'e' AB été\n"
        );
        // Without their `;`, only HTML 4's names; unknown names are text.
        assert_eq!(text("&amp &ampx &notit; &foo; &"), "& &x ¬it; &foo; &\n");
        assert_eq!(
            text("&#0;&#x110000;&#xD800;&#150;&#99999999999999999999;"),
            "\u{fffd}\u{fffd}\u{fffd}\u{2013}\u{fffd}\n"
        );
        assert_eq!(text("&#;&#x;x"), "&#;&#x;x\n");
        assert_eq!(text("&NotNestedGreaterGreater;"), "\u{2aa2}\u{338}\n");
        assert_eq!(text("a&lt;br&gt;b"), "a<br>b\n");
    }

    #[test]
    fn what_a_reader_never_sees_is_dropped() {
        assert_eq!(
            text(
                "<!DOCTYPE html><html><head><title>orders</title>\
                 <meta charset=utf-8><style>p { color: red } </p></style>\
                 <script>if (a < b) document.write('<div>x</div>')</script></head>\
                 <body><!-- SIGNON Italy g pw --><!--[if mso]><p>mso</p><![endif]-->\
                 <p>F Lon-ENG</p><template><p>hidden</p></template>\
                 <script type=\"text/javascript\">alert(1)</SCRIPT >A Lvp-Yor</body></html>"
            ),
            "F Lon-ENG\n\nA Lvp-Yor\n"
        );
        // Text in a head that was never closed ends with the first tag of
        // the body.
        assert_eq!(text("<head><meta x=1>gone<div>shown</div>"), "shown\n");
        assert_eq!(text("<!-->a<!--->b<!-- c"), "ab\n");
    }

    #[test]
    fn quotes_are_marked_so_the_reader_skips_them() {
        assert_eq!(
            text(
                "<div>F Lon-ENG</div><div class=gmail_quote>On Mon, Judge wrote:<br>\
                 <blockquote type=cite><div>F Edi-NTH</div><blockquote>A Lvp-Yor<br>\
                 A Par-Bur</blockquote></blockquote></div><div>Ann</div>"
            ),
            "F Lon-ENG\nOn Mon, Judge wrote:\n\n> F Edi-NTH\n\n> > A Lvp-Yor\n> > A Par-Bur\n\nAnn\n"
        );
        let deep = "<blockquote>".repeat(1000) + "x";
        let t = text(&deep);
        assert_eq!(t, format!("{}x\n", "> ".repeat(MAX_QUOTE)));
    }

    #[test]
    fn pre_keeps_its_spacing_and_lines() {
        assert_eq!(
            text("<pre>\nF  Lon-ENG\r\nA Lvp-Yor\rA Par-Bur\n</pre>after"),
            "F  Lon-ENG\nA Lvp-Yor\nA Par-Bur\n\nafter\n"
        );
        assert_eq!(
            text("<textarea>a <b>\n &amp; c</textarea> d <xmp><i>&amp;</i></xmp>"),
            "a <b>\n & c d <i>&amp;</i>\n"
        );
        assert_eq!(text("x<plaintext>a <b>\nc"), "xa <b>\nc\n");
    }

    #[test]
    fn odd_markup_is_text_or_nothing_as_in_a_browser() {
        assert_eq!(text("a < b, 3<4, x<"), "a < b, 3<4, x<\n");
        assert_eq!(text("a</>b</ x>c<?xml v?>d</"), "abcd</\n");
        assert_eq!(text("<p title=\"a>b\" alt='c>d' x=e>text</p>"), "text\n");
        // A tag cut off by the end of the mail is no tag.
        assert_eq!(text("text<div class=\"x"), "text\n");
        assert_eq!(text("text<div"), "text\n");
        // `<div/>` opens a div, as in HTML.
        assert_eq!(text("a<div/>b"), "a\nb\n");
        assert_eq!(text(""), "");
        assert_eq!(text("<p></p><div> </div>"), "");
    }

    #[test]
    fn nesting_costs_nothing_more_than_a_tag() {
        // The shapes that were quadratic: each is read once, with no tree.
        let n = 40_000;
        let t = text(&"<ul><li>x".repeat(n));
        assert_eq!(t.lines().filter(|l| *l == "x").count(), n);
        let t = text(&format!(
            "{}A Lon-Yor{}",
            "<div>".repeat(n),
            "</div>".repeat(n)
        ));
        assert_eq!(t, "A Lon-Yor\n");
        let t = text(&format!("{}F Lon-ENG", "<table><tr><td>".repeat(n)));
        assert_eq!(t, "F Lon-ENG\n");
        // One tag with many attributes.
        let attrs: String = (0..n).map(|i| format!(" a{i}=\"{i}\"")).collect();
        assert_eq!(text(&format!("<div{attrs}>A Lon-Yor</div>")), "A Lon-Yor\n");
    }

    #[test]
    fn the_text_made_is_bounded() {
        let line = "A Lon-Yor F Edi-NTH F Lon-ENG<br>";
        let html = line.repeat(2 * MAX_TEXT / line.len());
        let t = text(&html);
        assert!(t.len() <= MAX_TEXT, "{}", t.len());
        assert!(t.len() > MAX_TEXT / 2, "{}", t.len());
        assert!(t.ends_with("F Lon-ENG\n"), "cut at a line end");
        // Past the tag limit nothing more is read.
        let html = format!("first{}last", "<b>".repeat(MAX_TAGS + 10));
        assert_eq!(text(&html), "first\n");
    }

    #[test]
    fn a_spent_budget_stops_the_conversion() {
        let html = "<div>A Lon-Yor</div>".repeat(4 * CHUNK / 20);
        let whole = text(&html);
        let spent = Budget::start(Duration::ZERO);
        // Some work is done before the first look; the rest is not.
        let part = to_text(&html, &spent);
        assert!(
            part.len() < whole.len() / 2,
            "{} of {}",
            part.len(),
            whole.len()
        );
        assert!(!part.is_empty());
    }
}
