//! What a game can put on its pages is bounded, and what a store holds
//! cannot break them: a game with a hundred broadcasts of 900 KB (which
//! once made a game page of 111 MB) has a page and a feed of a few hundred
//! KB, its press on pages of its own and each broadcast on its own page; a
//! game of hundreds of phases links the latest and pages the rest; and
//! press, names and results holding control characters and noncharacters
//! (stored straight into the store, as no command would) leave every page
//! free of them and the feed readable by a strict XML parser.

use crate::support;
use crate::web_support;
use web_support::*;
use zinejudge::testing::web::feed::written_size;
use zinejudge::testing::web::site::{
    FEED_ENTRIES, FEED_TEXT_BYTES, PHASES_PER_PAGE, PRESS_CUT, PRESS_PER_PAGE, PRESS_WHOLE,
};

/// The most a game's page or its feed may weigh, whatever the game holds
/// (README, "Web pages").
const PAGE_BOUND: usize = 1024 * 1024;

/// How many `<article` a page holds.
fn articles(page: &str) -> usize {
    page.matches("<article id=\"press-").count()
}

#[test]
fn a_game_with_a_hundred_huge_broadcasts_has_a_small_page_and_feed() {
    let dir = TempDir::new("huge");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    standard_game(&mut j, "g1");
    // 100 broadcasts of 900,000 characters, all `<&`: the text that
    // grows most when escaped (4 and 5 bytes a character in HTML, twice
    // that in the feed, escaped as HTML and then as XML).
    j.sql(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
         INSERT INTO broadcast_press (game, phase, sender, body, created_at)
           SELECT 'g1', 'Winter 1901 adjustment', 'England',
                  printf('huge %03d ', i) || replace(hex(zeroblob(450000)), '00', '<&'),
                  1900000000 + i
           FROM n;",
    );
    let total: usize = 102; // and the standard game's two
    let pages = Pages::start(&store);

    let game = pages.get("/games/g1");
    assert_eq!(game.status, 200);
    eprintln!("the game page: {} bytes", game.body.len());
    assert!(game.body.len() < PAGE_BOUND, "{} bytes", game.body.len());
    // The latest press, each cut, linked to its whole; the older on pages.
    assert_eq!(articles(&game.body), PRESS_PER_PAGE);
    assert!(game.body.contains("huge 100 "), "the latest is shown");
    assert!(!game.body.contains("huge 080 "), "the 21st is not");
    let first = between(&game.body, "<article id=\"press-", "</article>").expect("an article");
    let shown = between(first, "<pre>", "</pre>").expect("its text");
    assert_eq!(unescape(shown).chars().count(), PRESS_CUT);
    let id = first.split('"').next().expect("an id");
    assert!(
        first.contains(&format!(
            "<a href=\"/games/g1/press/{id}\">read it whole</a>"
        )),
        "{first}"
    );
    assert_eq!(
        link_to(&game.body, "Older press"),
        Some("/games/g1/press?page=2")
    );

    // Every broadcast is on one of the press pages, newest first.
    let last = total.div_ceil(PRESS_PER_PAGE);
    let mut seen = 0;
    for n in 1..=last {
        let p = pages.get(&format!("/games/g1/press?page={n}"));
        assert_eq!(p.status, 200, "page {n}");
        assert!(
            p.body.len() < PAGE_BOUND,
            "page {n}: {} bytes",
            p.body.len()
        );
        seen += articles(&p.body);
        if n < last {
            assert_eq!(
                link_to(&p.body, "Older press"),
                Some(format!("/games/g1/press?page={}", n + 1).as_str())
            );
        }
    }
    assert_eq!(seen, total);
    let tail = pages.get(&format!("/games/g1/press?page={last}"));
    assert!(tail.body.contains("Greetings from London"), "the oldest");
    assert_eq!(
        pages
            .get(&format!("/games/g1/press?page={}", last + 1))
            .status,
        404
    );

    // A broadcast's own page: as much of it as the pages show of one.
    let one = pages.get(&format!("/games/g1/press/{id}"));
    assert_eq!(one.status, 200);
    assert!(one.body.len() < PAGE_BOUND, "{} bytes", one.body.len());
    let text = between(&one.body, "<pre>", "</pre>").expect("its text");
    assert_eq!(unescape(text).chars().count(), PRESS_WHOLE);
    assert!(one.body.contains("Cut here"), "{}", &one.body[..2000]);
    assert_eq!(pages.get("/games/g1/press/999999").status, 404);
    assert_eq!(pages.get("/games/g1/press/x").status, 404);

    // The feed: the latest entries, each cut, with a link to the rest, as
    // many as their escaped text allows (`<&` takes 17 bytes: fewer than
    // FEED_ENTRIES).
    let r = pages.get("/games/g1/feed.atom");
    assert_eq!(r.status, 200);
    eprintln!("the feed: {} bytes", r.body.len());
    assert!(r.body.len() < PAGE_BOUND, "{} bytes", r.body.len());
    roxmltree::Document::parse(&r.body).expect("the feed is XML");
    let feed = atom_syndication::Feed::read_from(r.body.as_bytes()).expect("Atom");
    assert!(
        (40..FEED_ENTRIES).contains(&feed.entries.len()),
        "{} entries",
        feed.entries.len()
    );
    let mut spent = 0;
    for e in &feed.entries {
        let html = e
            .content
            .as_ref()
            .and_then(|c| c.value.as_deref())
            .expect("content");
        let text = unescape(between(html, "<pre>", "</pre>").expect("pre"));
        spent += written_size(&text);
        let (shown, rest) = text.split_once("\n[...] The rest: ").expect("cut");
        assert_eq!(shown.chars().count(), PRESS_CUT, "{}", e.title.value);
        assert_eq!(rest, e.links[0].href);
        assert!(
            rest.starts_with(&format!("{BASE}games/g1/press/")),
            "{rest}"
        );
    }
    assert!(spent <= FEED_TEXT_BYTES, "{spent}");
    assert!(
        spent + 17_100 > FEED_TEXT_BYTES,
        "room for one more: {spent}"
    );
}

#[test]
fn a_long_game_links_its_latest_phases_and_pages_the_rest() {
    let dir = TempDir::new("long");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    standard_game(&mut j, "g1");
    // 250 more played phases, Spring 1902 to Spring 2151 (copies of
    // Spring 1901's row), after the two played.
    j.sql(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250)
         INSERT INTO history (game, seq, phase, kind, position, orders, report, created_at)
           SELECT game, 1000 + i, 'S' || (1901 + i) || 'M', kind, position, orders, report, created_at + i
           FROM history, n WHERE game = 'g1' AND phase = 'S1901M';",
    );
    let total: usize = 252;
    let pages = Pages::start(&store);
    let game = pages.get("/games/g1");
    assert_eq!(game.status, 200);
    let list = between(&game.body, "<ol class=\"phases\"", "</ol>").expect("phases");
    assert_eq!(list.matches("<li>").count(), PHASES_PER_PAGE);
    assert!(list.contains(&format!("start=\"{total}\"")), "{list}");
    assert!(
        list.find("Spring 2151 movement") < list.find("Spring 2150 movement"),
        "newest first"
    );
    assert_eq!(
        link_to(&game.body, "Earlier phases"),
        Some("/games/g1/phases?page=2")
    );
    let last = total.div_ceil(PHASES_PER_PAGE);
    let mut seen = 0;
    for n in 1..=last {
        let p = pages.get(&format!("/games/g1/phases?page={n}"));
        assert_eq!(p.status, 200, "page {n}");
        let list = between(&p.body, "<ol class=\"phases\"", "</ol>").expect("phases");
        seen += list.matches("<li>").count();
        if n == last {
            assert!(list.contains("Spring 1901 movement"), "{list}");
        }
    }
    assert_eq!(seen, total);
    assert_eq!(
        pages
            .get(&format!("/games/g1/phases?page={}", last + 1))
            .status,
        404
    );
    assert_eq!(pages.get("/games/g1/phases?page=0").status, 404);
    // The feed: the latest results, FEED_ENTRIES of them.
    let r = pages.get("/games/g1/feed.atom");
    let feed = atom_syndication::Feed::read_from(r.body.as_bytes()).expect("Atom");
    assert_eq!(feed.entries.len(), FEED_ENTRIES);
    assert_eq!(
        feed.entries[0].title.value,
        "g1: Spring 2151 movement results"
    );
    // A phase's page links its neighbours, read alone.
    let p = pages.get("/games/g1/phases/S2000M");
    assert_eq!(p.status, 200);
    assert_eq!(
        link_to(&p.body, "&larr; Spring 1999 movement"),
        Some("/games/g1/phases/S1999M")
    );
    assert_eq!(
        link_to(&p.body, "Spring 2001 movement &rarr;"),
        Some("/games/g1/phases/S2001M")
    );
}

/// Characters no page or feed may hold: XML 1.0 forbids the C0 controls
/// but tab, line feed and carriage return, and U+FFFE and U+FFFF; the
/// judge also takes out DEL, the C1 controls and the other
/// noncharacters.
const BAD: &[char] = &[
    '\u{0}',
    '\u{1}',
    '\u{8}',
    '\u{b}',
    '\u{c}',
    '\u{1b}',
    '\u{1f}',
    '\u{7f}',
    '\u{85}',
    '\u{9b}',
    '\u{fdd0}',
    '\u{fffe}',
    '\u{ffff}',
    '\u{1fffe}',
    '\u{10ffff}',
];

fn assert_clean(what: &str, text: &str) {
    if let Some(c) = text.chars().find(|c| BAD.contains(c)) {
        panic!("{what} holds U+{:04X}:\n{text:?}", u32::from(c));
    }
}

#[test]
fn control_characters_in_the_store_never_reach_a_page_or_the_feed() {
    use zinejudge::testing::store::params;
    let dir = TempDir::new("controls");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    standard_game(&mut j, "g1");
    let all: String = BAD.iter().collect();
    let name = format!("g{all}2");
    {
        let c = j.processor.store.conn();
        // A broadcast holding each character alone, and one holding all.
        for (i, ch) in BAD.iter().enumerate() {
            zinejudge::testing::store::press::add(
                c,
                "g1",
                "Winter 1901 adjustment",
                Some(&format!("England{ch}")),
                &format!("press {i}: a{ch}b"),
                1_900_000_000 + i as i64,
            )
            .expect("press");
        }
        zinejudge::testing::store::press::add(
            c,
            "g1",
            &format!("Winter{all} 1901"),
            None,
            &format!("all: [{all}] end\r\nnext line"),
            1_900_001_000,
        )
        .expect("press");
        c.execute(
            "UPDATE seats SET name = ?1 WHERE game = 'g1' AND power = 1",
            params![format!("Alice{all} Liddell")],
        )
        .expect("a name");
        c.execute(
            "UPDATE games SET result = ?1 WHERE name = 'g1'",
            params![format!("won{all}")],
        )
        .expect("a result");
        c.execute(
            "UPDATE history SET report = report || ?1 WHERE game = 'g1'",
            params![format!("results{all}end")],
        )
        .expect("results");
        // A game whose name holds them all, as no command makes one.
        c.execute(
            "INSERT INTO games (name, variant, gm_address, gm_hash, status, settings, position, deadline, reminded, grace_noticed, result, created_at)
               SELECT ?1, variant, gm_address, gm_hash, status, settings, position, deadline, reminded, grace_noticed, result, created_at FROM games WHERE name = 'g1'",
            params![name],
        )
        .expect("a game");
        for table in [
            "seats (game, power, address, hash, status, name) SELECT ?1, power, address, hash, status, name FROM seats",
            "history (game, seq, phase, kind, position, orders, report, created_at) SELECT ?1, seq, phase, kind, position, orders, report, created_at FROM history",
            "broadcast_press (game, phase, sender, body, created_at) SELECT ?1, phase, sender, body, created_at FROM broadcast_press",
        ] {
            c.execute(
                &format!("INSERT INTO {table} WHERE game = 'g1'"),
                params![name],
            )
            .expect("its rows");
        }
    }
    let pages = Pages::start(&store);
    let other = format!("/games/{}", zinejudge::testing::web::site::path_part(&name));
    let list = pages.get("/");
    assert_eq!(list.status, 200);
    assert_clean("the list", &list.body);
    assert!(list.body.contains(&format!("href=\"{other}\"")), "listed");
    assert!(list.body.contains(">g2</a>"), "its name, cleaned");
    for href in ["/games/g1".to_string(), other] {
        let game = pages.get(&href);
        assert_eq!(game.status, 200, "{href}");
        assert_clean(&href, &game.body);
        for shown in [
            "press 0: ab",
            "press 5: ab",
            "press 14: ab",
            "From England",
            "all: [] end\nnext line",
            "Alice Liddell",
            "won",
        ] {
            assert!(game.body.contains(shown), "{href}: `{shown}`");
        }
        for path in [
            format!("{href}/press"),
            format!("{href}/phases"),
            format!("{href}/phases/S1901M"),
            format!("{href}/map.svg"),
        ] {
            let r = pages.get(&path);
            assert_eq!(r.status, 200, "{path}");
            assert_clean(&path, &r.body);
        }
        let svg = pages.get(&format!("{href}/map.svg"));
        roxmltree::Document::parse(&svg.body).expect("the map is XML");
        let phase = pages.get(&format!("{href}/phases/S1901M"));
        assert!(phase.body.contains("resultsend"), "{}", phase.body);

        let r = pages.get(&format!("{href}/feed.atom"));
        assert_eq!(r.status, 200);
        assert_clean("the feed", &r.body);
        // A strict parser (quick-xml, under atom_syndication, lets
        // forbidden characters through), then as Atom.
        roxmltree::Document::parse(&r.body).expect("the feed is XML");
        let feed = atom_syndication::Feed::read_from(r.body.as_bytes()).expect("Atom");
        let texts: Vec<String> = feed
            .entries
            .iter()
            .filter_map(|e| e.content.as_ref().and_then(|c| c.value.clone()))
            .collect();
        assert!(texts.iter().any(|t| t.contains("press 0: ab")), "{texts:?}");
        let title = if href == "/games/g1" { "g1: " } else { "g2: " };
        assert!(feed.title.value.starts_with(title), "{}", feed.title.value);
        assert!(
            feed.entries
                .iter()
                .any(|e| e.authors.iter().any(|a| a.name == "England")),
            "signed press"
        );
    }
}

#[test]
fn the_bounded_pages_read_the_same_from_postgresql() {
    let Some(db) = support::postgres::PgServer::database_or_skip("web_bounds") else {
        return;
    };
    let mut j = Judge::at(&db.location());
    standard_game(&mut j, "g1");
    // PostgreSQL keeps no NUL in a text; the other characters it does.
    let long = format!("long\u{1b}[2J\u{fffe} {}", "x".repeat(3 * PRESS_CUT));
    for i in 0..25 {
        zinejudge::testing::store::press::add(
            j.processor.store.conn(),
            "g1",
            "Winter 1901 adjustment",
            Some("England"),
            &format!("{i:02} {long}"),
            1_900_000_000 + i,
        )
        .expect("press");
    }
    let pages = Pages::over(
        db.location(),
        zinejudge::testing::web::Limits::default(),
        true,
    );
    let game = pages.get("/games/g1");
    assert_eq!(game.status, 200, "{}", game.body);
    assert_clean("the game page", &game.body);
    assert_eq!(articles(&game.body), PRESS_PER_PAGE);
    let first = between(&game.body, "<article id=\"press-", "</article>").expect("an article");
    let shown = unescape(between(first, "<pre>", "</pre>").expect("its text"));
    assert!(shown.starts_with("24 long[2J x"), "{shown}");
    // Cut to PRESS_CUT characters, then cleaned of the two.
    assert_eq!(shown.chars().count(), PRESS_CUT - 2);
    assert!(first.contains("read it whole"), "{first}");
    let id = first.split('"').next().expect("an id");
    let one = pages.get(&format!("/games/g1/press/{id}"));
    assert_eq!(one.status, 200);
    let whole = unescape(between(&one.body, "<pre>", "</pre>").expect("its text"));
    assert_eq!(whole.chars().count(), 3 + long.chars().count() - 2);
    let older = pages.get("/games/g1/press?page=2");
    assert_eq!(older.status, 200);
    assert_eq!(articles(&older.body), 27 - PRESS_PER_PAGE);
    assert_eq!(pages.get("/games/g1/press?page=3").status, 404);
    let phases = pages.get("/games/g1/phases");
    assert_eq!(phases.status, 200);
    assert!(
        phases.body.contains("Fall 1901 movement"),
        "{}",
        phases.body
    );
    let spring = pages.get("/games/g1/phases/s1901m");
    assert_eq!(spring.status, 200);
    assert_eq!(
        link_to(&spring.body, "Fall 1901 movement &rarr;"),
        Some("/games/g1/phases/F1901M")
    );
    let r = pages.get("/games/g1/feed.atom");
    assert_eq!(r.status, 200);
    roxmltree::Document::parse(&r.body).expect("the feed is XML");
    let feed = atom_syndication::Feed::read_from(r.body.as_bytes()).expect("Atom");
    assert_eq!(feed.entries.len(), 2 + 27);
}
