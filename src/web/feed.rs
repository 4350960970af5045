//! A game's Atom feed (RFC 4287, written by `atom_syndication`, which
//! escapes every value): one entry per played phase, its results as mailed
//! to observers, and one per broadcast. Every text is cleaned of what XML
//! may not hold ([`super::text`]) here, whoever made the [`Channel`]:
//! `atom_syndication` escapes markup but writes a NUL or an ESC as it is,
//! and one such byte makes the whole feed unreadable.

use super::text::cleaned;
use atom_syndication::{Content, Entry, Feed, FixedDateTime, Generator, Link, Person, Text};

/// An entry.
pub(crate) struct Item {
    /// Its id: the page's URL when the pages' address is known, else a URN.
    pub id: String,
    /// `g1: Spring 1901 movement results`.
    pub title: String,
    /// The page it is about.
    pub link: String,
    /// When (Unix seconds).
    pub updated: i64,
    /// Who wrote it (a power, for signed press).
    pub author: Option<String>,
    /// Its text, shown preformatted (results are laid out in columns).
    pub text: String,
}

/// The feed.
pub(crate) struct Channel {
    /// Its id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// The game's page.
    pub page: String,
    /// The feed's own address.
    pub own: String,
    /// The judge's name (the feed's author).
    pub judge: String,
    /// The newest entry's time.
    pub updated: i64,
    /// Entries, newest first.
    pub items: Vec<Item>,
}

/// Unix seconds as an Atom date.
fn date(t: i64) -> FixedDateTime {
    let text = jiff::Timestamp::from_second(t)
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
        .to_string();
    text.parse().unwrap_or_default()
}

/// Text as HTML (for the `html` content type: the feed writer escapes it
/// once more as XML).
pub(crate) fn escape_html(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// The bytes `text` takes in the feed as an entry's content: cleaned,
/// escaped as HTML ([`escape_html`]) and then as XML by the writer, so that
/// `&` takes 9 (`&amp;amp;`) and `"` 10 (`&amp;quot;`). What the feed's
/// size is reckoned in.
pub fn written_size(text: &str) -> usize {
    super::text::clean(text)
        .chars()
        .map(|c| match c {
            '"' => 10,
            '&' | '\'' => 9,
            '<' | '>' => 8,
            c => c.len_utf8(),
        })
        .sum()
}

fn link(href: &str, rel: &str, mime: Option<&str>) -> Link {
    Link {
        href: cleaned(href),
        rel: rel.to_string(),
        mime_type: mime.map(str::to_string),
        ..Link::default()
    }
}

/// The feed as XML.
pub(crate) fn write(c: &Channel) -> Result<String, atom_syndication::Error> {
    let entries = c
        .items
        .iter()
        .map(|i| Entry {
            title: Text::plain(cleaned(&i.title)),
            id: cleaned(&i.id),
            updated: date(i.updated),
            authors: i
                .author
                .iter()
                .map(|a| Person {
                    name: cleaned(a),
                    ..Person::default()
                })
                .collect(),
            links: vec![link(&i.link, "alternate", Some("text/html"))],
            content: Some(Content {
                value: Some(format!("<pre>{}</pre>", escape_html(&cleaned(&i.text)))),
                content_type: Some("html".to_string()),
                ..Content::default()
            }),
            ..Entry::default()
        })
        .collect();
    let feed = Feed {
        title: Text::plain(cleaned(&c.title)),
        id: cleaned(&c.id),
        updated: date(c.updated),
        authors: vec![Person {
            name: cleaned(&c.judge),
            ..Person::default()
        }],
        generator: Some(Generator {
            value: "zinejudge".to_string(),
            ..Generator::default()
        }),
        links: vec![
            link(&c.own, "self", Some("application/atom+xml")),
            link(&c.page, "alternate", Some("text/html")),
        ],
        entries,
        ..Feed::default()
    };
    let out = feed.write_to(Vec::new())?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_entry(text: &str) -> String {
        write(&Channel {
            id: "urn:g1".into(),
            title: "g1".into(),
            page: "/games/g1".into(),
            own: "/games/g1/feed.atom".into(),
            judge: "zinejudge".into(),
            updated: 0,
            items: vec![Item {
                id: "urn:g1:1".into(),
                title: "g1".into(),
                link: "/games/g1".into(),
                updated: 0,
                author: None,
                text: text.into(),
            }],
        })
        .unwrap()
    }

    #[test]
    fn an_entrys_written_size_is_what_it_takes_in_the_feed() {
        let empty = one_entry("").len();
        for text in [
            "plain text, Grüße 🙂",
            "&&&&",
            "<<>>",
            "\"\"''",
            "a\u{0}b\u{1b}c\u{fffe}",
            "mixed <b>\"it's\"</b> & more\n\tline",
        ] {
            assert_eq!(
                one_entry(text).len() - empty,
                written_size(text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_feed_reads_back_with_its_text_intact() {
        let xml = write(&Channel {
            id: "urn:zinejudge:game:g1".into(),
            title: "g1 <&> \"x\"".into(),
            page: "/games/g1".into(),
            own: "/games/g1/feed.atom".into(),
            judge: "zinejudge".into(),
            updated: 1_830_340_800,
            items: vec![Item {
                id: "urn:zinejudge:game:g1:phase:S1901M".into(),
                title: "g1: Spring 1901 movement results".into(),
                link: "/games/g1/phases/S1901M".into(),
                updated: 1_830_340_800,
                author: Some("England <e>".into()),
                text: "A(Lon)-Yor <script>alert(1)</script> & more".into(),
            }],
        })
        .unwrap();
        assert!(!xml.contains("<script>"), "{xml}");
        let back = Feed::read_from(xml.as_bytes()).unwrap();
        assert_eq!(back.title.value, "g1 <&> \"x\"");
        let e = &back.entries[0];
        assert_eq!(e.authors[0].name, "England <e>");
        assert_eq!(
            e.content.as_ref().and_then(|c| c.value.as_deref()),
            Some("<pre>A(Lon)-Yor &lt;script&gt;alert(1)&lt;/script&gt; &amp; more</pre>")
        );
        assert_eq!(e.updated.to_rfc3339(), "2028-01-01T12:00:00+00:00");
    }
}
