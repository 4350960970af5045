//! The game pages over HTTP, as a reader's browser gets them: what they
//! show of a game (the observer's results exactly as mailed, the map, the
//! players by display name, press to everybody), what they never show
//! (addresses, passwords, private press, Harald's hidden units in 1066),
//! escaping of everything a player or a store row can put on a page, 404
//! pages, and a server that stays up under many slow clients.

use crate::web_support;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use web_support::*;

/// Everything a reader may never see on a page of the standard game.
const SECRETS: &[&str] = &[
    "@example.test",
    "gm-secret",
    "pw-England",
    "pw-France",
    "A private word",
    "split the Channel",
    "$argon2",
];

fn assert_no_secrets(what: &str, text: &str) {
    for s in SECRETS {
        assert!(!text.contains(s), "{what} shows `{s}`:\n{text}");
    }
}

#[test]
fn a_game_page_shows_the_board_the_chart_the_players_and_press_to_everybody() {
    let dir = TempDir::new("game");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    standard_game(&mut j, "g1");
    let pages = Pages::start(&store);

    let list = pages.get("/");
    assert_eq!(list.status, 200);
    assert_eq!(
        list.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let row = between(
        &list.body,
        "<a class=\"game\" href=\"/games/g1\">g1</a>",
        "</tr>",
    )
    .unwrap_or_else(|| panic!("g1 listed: {}", list.body));
    for want in [
        "Standard Diplomacy",
        "Winter 1901 adjustment",
        "being played",
        "England 4",
        "France 6",
        "Germany 5",
        "GMT",
    ] {
        assert!(row.contains(want), "`{want}` in the list's row: {row}");
    }
    assert_no_secrets("the list", &list.body);

    let page = pages.get("/games/g1");
    assert_eq!(page.status, 200);
    let b = &page.body;
    assert!(b.contains("<h1>g1</h1>"), "{b}");
    assert!(b.contains("<h2>Winter 1901 adjustment</h2>"), "{b}");
    // The map, inline, with every unit of the position.
    let svg = between(b, "<figure class=\"map\">", "</svg>").expect("an inline SVG");
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert_eq!(
        svg.matches("<g class=\"unit\"").count(),
        22,
        "22 units in Winter 1901"
    );
    // The deadline in the game's zone (London) and in UTC; a reader's zone
    // on asking.
    let deadline = between(b, "<dl class=\"deadline\">", "</dl>").expect("a deadline");
    assert!(
        deadline.contains("Europe/London, the game's time"),
        "{deadline}"
    );
    assert!(deadline.contains(" UTC"), "{deadline}");
    let tokyo = pages.get("/games/g1?tz=Asia/Tokyo");
    assert!(
        tokyo
            .body
            .contains(" JST <span class=\"zone\">(Asia/Tokyo, your time)"),
        "{}",
        tokyo.body
    );
    // The chart and the players, by display name (escaped), never address.
    let chart = between(b, "<section class=\"chart\">", "</section>").expect("chart");
    assert!(
        chart.contains("England</td><td data-label=\"Centres\"><b>4</b>: Edi Lon Lvp Nwy"),
        "{chart}"
    );
    let roster = between(b, "<section class=\"roster\">", "</section>").expect("roster");
    assert!(
        roster.contains("<b>England</b>: Alice Liddell (playing)"),
        "{roster}"
    );
    assert!(
        roster
            .contains("<b>France</b>: &lt;b&gt;Bob&lt;/b&gt; &amp; &quot;Co&quot; &lt;script&gt;"),
        "{roster}"
    );
    assert!(roster.contains("<b>Austria</b>: playing"), "{roster}");
    // Press to everybody, signed and grey; never press to some powers.
    let press = between(b, "<section class=\"press\">", "</section>").expect("press");
    assert!(press.contains("From England"), "{press}");
    assert!(
        press.contains("Greetings from London to &lt;all&gt; &amp; sundry."),
        "{press}"
    );
    let grey = between(press, "Grey press", "</article>").expect("grey press");
    assert!(grey.contains("Somebody is lying &lt;script&gt;"), "{grey}");
    assert!(
        !grey.contains("England"),
        "grey press names its sender: {grey}"
    );
    assert_no_secrets("the game page", b);
    assert!(!b.contains("<script>"), "{b}");
    // The past phases, newest first.
    let history =
        between(b, "<ol class=\"phases\" reversed start=\"2\">", "</ol>").expect("phases");
    let fall = history.find("Fall 1901 movement").expect("Fall listed");
    let spring = history.find("Spring 1901 movement").expect("Spring listed");
    assert!(fall < spring, "{history}");
    assert_eq!(
        link_to(b, "Spring 1901 movement"),
        Some("/games/g1/phases/S1901M")
    );
    // The current map alone, as an image.
    let map = pages.get("/games/g1/map.svg");
    assert_eq!(map.header("content-type"), Some("image/svg+xml"));
    assert_eq!(map.body.matches("<g class=\"unit\"").count(), 22);
}

#[test]
fn a_past_phase_shows_the_results_and_map_exactly_as_mailed_to_an_observer() {
    let dir = TempDir::new("phase");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    let sent = standard_game(&mut j, "g1");
    let pages = Pages::start(&store);
    for (short, subject) in [("S1901M", "Spring 1901"), ("F1901M", "Fall 1901")] {
        let mail = results_for(&sent, "watcher@example.test", subject);
        // Every results mail links to the game's page.
        assert!(
            mail.body
                .contains(&format!("The game's page: {BASE}games/g1\n")),
            "{}",
            mail.body
        );
        let page = pages.get(&format!("/games/g1/phases/{short}"));
        assert_eq!(page.status, 200, "{short}");
        let text = between(&page.body, "<pre class=\"report\">", "</pre>").expect("results");
        assert_eq!(unescape(text), mail.text(), "{short}: the text as mailed");
        let (_, mailed_svg) = mail
            .attachments
            .iter()
            .find(|(n, _)| n.ends_with(".svg"))
            .cloned()
            .unwrap_or_else(|| {
                // The judge's default is a PNG alone: draw as an observer
                // who chose SVG would get it.
                (String::new(), Vec::new())
            });
        let inline = between(&page.body, "<figure class=\"map\">", "<figcaption>").expect("map");
        if !mailed_svg.is_empty() {
            assert_eq!(
                inline,
                String::from_utf8_lossy(&mailed_svg),
                "{short}: the map as mailed"
            );
        } else {
            assert!(
                inline.contains(&format!("g1: {subject} results")),
                "{inline}"
            );
            assert!(
                inline.contains("class=\"move"),
                "{short}: the orders are drawn"
            );
        }
        assert_no_secrets(short, &page.body);
    }
    // Phase to phase.
    let spring = pages.get("/games/g1/phases/s1901m");
    assert!(
        spring
            .body
            .contains("href=\"/games/g1/phases/F1901M\">Fall 1901 movement &rarr;</a>"),
        "{}",
        spring.body
    );
}

#[test]
fn the_atom_feed_has_every_result_and_every_broadcast_and_nothing_private() {
    let dir = TempDir::new("feed");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    let sent = standard_game(&mut j, "g1");
    let pages = Pages::start(&store);
    let r = pages.get("/games/g1/feed.atom");
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("content-type"),
        Some("application/atom+xml; charset=utf-8")
    );
    let feed = atom_syndication::Feed::read_from(r.body.as_bytes()).expect("Atom");
    assert_eq!(feed.id, format!("{BASE}games/g1"));
    assert!(
        feed.links
            .iter()
            .any(|l| l.rel == "self" && l.href == format!("{BASE}games/g1/feed.atom")),
        "{:?}",
        feed.links
    );
    let titles: Vec<&str> = feed
        .entries
        .iter()
        .map(|e| e.title.value.as_str())
        .collect();
    for want in [
        "g1: Spring 1901 movement results",
        "g1: Fall 1901 movement results",
        "g1: press from England",
        "g1: grey press",
    ] {
        assert!(titles.contains(&want), "`{want}` among {titles:?}");
    }
    let spring = feed
        .entries
        .iter()
        .find(|e| e.title.value == "g1: Spring 1901 movement results")
        .expect("spring");
    let mail = results_for(&sent, "watcher@example.test", "Spring 1901");
    let html = spring
        .content
        .as_ref()
        .and_then(|c| c.value.clone())
        .expect("content");
    assert_eq!(
        unescape(between(&html, "<pre>", "</pre>").expect("pre")),
        mail.text()
    );
    assert_eq!(
        spring.links[0].href,
        format!("{BASE}games/g1/phases/S1901M")
    );
    let grey = feed
        .entries
        .iter()
        .find(|e| e.title.value == "g1: grey press")
        .expect("grey");
    assert!(
        grey.authors.is_empty(),
        "grey press has no author: {:?}",
        grey.authors
    );
    assert_no_secrets("the feed", &r.body);
    assert!(!r.body.contains("<script>"), "{}", r.body);
}

#[test]
fn hostile_names_and_text_are_shown_as_text() {
    let dir = TempDir::new("hostile");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    standard_game(&mut j, "g1");
    // A row no command would write: a game whose name is markup.
    j.sql(
        "INSERT INTO games (name, variant, gm_address, gm_hash, status, settings, position, deadline, reminded, grace_noticed, result, created_at)
           SELECT '<script>alert(\"g\")</script>&x', variant, gm_address, gm_hash, status, settings, position, deadline, reminded, grace_noticed, '<i>won</i>', created_at FROM games WHERE name = 'g1';
         INSERT INTO seats (game, power, address, hash, status, name)
           SELECT '<script>alert(\"g\")</script>&x', power, address, hash, status, name FROM seats WHERE game = 'g1';
         INSERT INTO history (game, seq, phase, kind, position, orders, report, created_at)
           SELECT '<script>alert(\"g\")</script>&x', seq, phase, kind, position, orders, report || '<img src=x onerror=alert(1)>', created_at FROM history WHERE game = 'g1';
         INSERT INTO broadcast_press (game, phase, sender, body, created_at)
           VALUES ('<script>alert(\"g\")</script>&x', '<b>phase</b>', '<i>sender</i>', '</pre><script>alert(2)</script>', 1);",
    );
    let pages = Pages::start(&store);
    let list = pages.get("/");
    assert!(
        list.body
            .contains("&lt;script&gt;alert(&quot;g&quot;)&lt;/script&gt;&amp;x"),
        "{}",
        list.body
    );
    let href = "/games/%3Cscript%3Ealert%28%22g%22%29%3C%2Fscript%3E%26x";
    assert!(
        list.body.contains(&format!("href=\"{href}\"")),
        "{}",
        list.body
    );
    for path in [
        href.to_string(),
        format!("{href}/phases/S1901M"),
        format!("{href}/feed.atom"),
        format!("{href}/map.svg"),
    ] {
        let r = pages.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        for raw in ["<script>alert", "<img src=x", "<i>", "<b>phase"] {
            assert!(
                !r.body.contains(raw),
                "{path} shows `{raw}` as markup:\n{}",
                r.body
            );
        }
    }
    let game = pages.get(href);
    assert!(
        game.body.contains("&lt;i&gt;sender&lt;/i&gt;"),
        "{}",
        game.body
    );
    assert!(
        game.body.contains("&lt;/pre&gt;&lt;script&gt;alert(2)"),
        "{}",
        game.body
    );
    // The policy forbids inline script anyway.
    let csp = game.header("content-security-policy").expect("a policy");
    assert!(
        csp.contains("script-src 'self'") && csp.contains("default-src 'none'"),
        "{csp}"
    );
    assert_eq!(game.header("x-content-type-options"), Some("nosniff"));
}

#[test]
fn unknown_games_phases_and_pages_are_404_pages() {
    let dir = TempDir::new("404");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    standard_game(&mut j, "g1");
    let pages = Pages::start(&store);
    for path in [
        "/games/nope",
        "/games/nope/phases/S1901M",
        "/games/nope/feed.atom",
        "/games/nope/map.svg",
        "/games/g1/phases/S1999M",
        "/games/g1/phases/W1901A",
        "/games/g1/phases/",
        "/games/g1/",
        "/games/",
        "/nothing-here",
        "/?page=0",
        "/?page=7",
        "/games/%3Cscript%3E",
    ] {
        let r = pages.get(path);
        assert_eq!(r.status, 404, "{path}: {}", r.body);
        assert_eq!(
            r.header("content-type"),
            Some("text/html; charset=utf-8"),
            "{path}"
        );
        assert!(r.body.contains("<h1>Not found</h1>"), "{path}: {}", r.body);
        assert!(r.body.contains("<a href=\"/\">list of games</a>"), "{path}");
        assert!(!r.body.contains("<script>"), "{path}");
    }
    // Other methods are refused; a bad path is a client's error, never 500.
    let post = raw(
        pages.addr,
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi",
    );
    assert_eq!(post.status, 405);
    let bad = pages.get("/games/%FF%FE");
    assert!(bad.status == 400 || bad.status == 404, "{bad:?}");
    let big = raw(
        pages.addr,
        format!(
            "GET /{} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            "a".repeat(40_000)
        )
        .as_bytes(),
    );
    assert!(
        big.status == 414 || big.status == 431 || big.status == 400,
        "{}",
        big.status
    );
}

#[test]
fn a_1066_game_never_shows_haralds_hidden_units_on_any_page() {
    let dir = TempDir::new("1066");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    let sent = hastings(&mut j, "hastings");
    let v = zinejudge::variant::builtin("1066")
        .expect("1066")
        .expect("loads");
    let harald = v.map.lookup_power("Harald Hardrada").expect("Harald");
    let colour = zinejudge::testing::report::picture::colour(harald);
    // The game does hold Harald's units where only he and the GM may see
    // them: in his box, Oceanus Germanicus and the Wash.
    let row = zinejudge::testing::store::games::load(j.processor.store.conn(), "hastings")
        .expect("store")
        .expect("game");
    let pos = zinejudge::game::Position::from_toml(&v, &row.position).expect("position");
    let hidden: Vec<_> = pos
        .units
        .iter()
        .filter(|u| {
            v.features.hidden_from(
                &v.map,
                pos.phase,
                u,
                zinejudge::variant::features::Viewer::Public,
            )
        })
        .collect();
    assert_eq!(hidden.len(), 4, "{:?}", pos.units);
    let pages = Pages::start(&store);
    let game = pages.get("/games/hastings");
    assert!(
        game.body.contains("<h2>April 1066 movement</h2>"),
        "{}",
        game.body
    );
    let shown = pos.units.len() - hidden.len();
    let phase = link_to(&game.body, "March 1066 movement")
        .expect("March listed")
        .to_string();
    let mut seen_pages = Vec::new();
    for path in [
        "/".to_string(),
        "/games/hastings".to_string(),
        "/games/hastings/map.svg".to_string(),
        phase.clone(),
        "/games/hastings/feed.atom".to_string(),
    ] {
        let r = pages.get(&path);
        assert_eq!(r.status, 200, "{path}");
        let b = &r.body;
        // No token of Harald's colour on any map.
        assert!(
            !b.contains(&format!("rx=\"3.5\" fill=\"{colour}\"")),
            "{path} draws one of Harald's units"
        );
        // Nor a word of them.
        for word in [
            "A/F(HAR)", "A/F(GER)", "A/F(WAS)", "A/F(Ger)", "A/F(Was)", "A/F(Har)",
        ] {
            assert!(!b.contains(word), "{path} tells of `{word}`");
        }
        // Harald, with no centre and no unit an observer sees, is not
        // among the powers listed with their centres.
        assert!(
            !b.contains("<li>Harald Hardrada 0</li>"),
            "{path} lists Harald"
        );
        // The legend counts Harald's units, as the results' chart does:
        // where they are is hidden, not how many he has (1066 rules 2
        // and 5; docs/variants.md).
        if let Some(line) = between(b, "Harald Hardrada (", "</text>") {
            assert!(
                line.ends_with(&format!(", {} units", hidden.len())),
                "{path}: {line}"
            );
        }
        seen_pages.push((path, r.body));
    }
    let (_, game_page) = &seen_pages[1];
    let svg = between(game_page, "<figure class=\"map\">", "</svg>").expect("map");
    assert_eq!(svg.matches("<g class=\"unit\"").count(), shown);
    // The phase page's text is the observers' mail.
    let watcher = results_for(&sent, "watcher@example.test", "March 1066");
    let text = between(&seen_pages[3].1, "<pre class=\"report\">", "</pre>").expect("results");
    assert_eq!(unescape(text), watcher.text());
}

#[test]
fn the_pages_keep_being_served_to_others_while_many_clients_are_slow() {
    let dir = TempDir::new("slow");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    standard_game(&mut j, "g1");
    let limits = zinejudge::testing::web::Limits {
        head: Duration::from_secs(2),
        stall: Duration::from_secs(2),
        ..zinejudge::testing::web::Limits::default()
    };
    let pages = Pages::with(&store, limits, true);
    // 300 clients that send half a request head and then nothing.
    let mut slow: Vec<TcpStream> = (0..300)
        .map(|_| {
            let mut s = TcpStream::connect(pages.addr).expect("connect");
            s.write_all(b"GET /games/g1 HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                .expect("send");
            s
        })
        .collect();
    // 20 clients that ask for page after page and read nothing.
    let ask = "GET /games/g1 HTTP/1.1\r\nHost: x\r\n\r\n".repeat(200);
    let deaf: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut s = TcpStream::connect(pages.addr).expect("connect");
            s.set_write_timeout(Some(Duration::from_millis(500))).ok();
            let _ = s.write_all(ask.as_bytes());
            s
        })
        .collect();
    // Meanwhile a reader gets the list and the game at once.
    let t = Instant::now();
    for path in [
        "/",
        "/games/g1",
        "/games/g1/phases/S1901M",
        "/games/g1/feed.atom",
    ] {
        let r = pages.get(path);
        assert_eq!(r.status, 200, "{path}");
    }
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    // The slow ones are let go once their time is up.
    std::thread::sleep(Duration::from_secs(3));
    let mut closed = 0;
    for s in &mut slow {
        s.set_read_timeout(Some(Duration::from_secs(2))).ok();
        let mut buf = [0u8; 512];
        match s.read(&mut buf) {
            // Closed, or told so (hyper answers a timed-out head with
            // nothing, or a 408).
            Ok(0) | Err(_) => closed += 1,
            Ok(n) => {
                let text = String::from_utf8_lossy(&buf[..n]);
                assert!(text.starts_with("HTTP/1.1 408"), "{text}");
                closed += 1;
            }
        }
    }
    assert_eq!(closed, slow.len());
    drop(deaf);
    let r = pages.get("/games/g1");
    assert_eq!(r.status, 200);
}

#[test]
fn past_the_connection_cap_a_client_is_told_to_come_back() {
    let dir = TempDir::new("cap");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    j.mail("gm@example.test", "CREATE g1 standard gm-secret");
    let limits = zinejudge::testing::web::Limits {
        connections: 8,
        head: Duration::from_secs(2),
        ..zinejudge::testing::web::Limits::default()
    };
    let pages = Pages::with(&store, limits, true);
    let held: Vec<TcpStream> = (0..8)
        .map(|_| {
            let mut s = TcpStream::connect(pages.addr).expect("connect");
            s.write_all(b"GET / HTTP/1.1\r\n").expect("send");
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    let r = pages.get("/");
    assert_eq!(r.status, 503, "{r:?}");
    assert_eq!(r.header("retry-after"), Some("5"));
    assert!(t.elapsed() < Duration::from_secs(1));
    // Once the held ones time out, readers are served again.
    std::thread::sleep(Duration::from_secs(3));
    let r = pages.get("/");
    assert_eq!(r.status, 200, "{r:?}");
    drop(held);
}

#[test]
fn a_page_shows_the_store_as_it_is_now() {
    let dir = TempDir::new("fresh");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    let pages = Pages::start(&store);
    assert!(pages.get("/").body.contains("No games yet"));
    assert_eq!(pages.get("/games/g1").status, 404);
    // The judge commits on its own connection: the cached pages go.
    j.mail("gm@example.test", "CREATE g1 standard gm-secret");
    let list = pages.get("/");
    assert!(list.body.contains("href=\"/games/g1\""), "{}", list.body);
    let game = pages.get("/games/g1");
    assert_eq!(game.status, 200);
    assert!(
        game.body.contains("forming: taking players"),
        "{}",
        game.body
    );
    assert!(game.body.contains("None played yet."), "{}", game.body);
}

#[test]
fn pages_go_compressed_to_a_browser_and_plain_to_a_client_without_gzip() {
    let dir = TempDir::new("gzip");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    standard_game(&mut j, "g1");
    let pages = Pages::start(&store);
    let plain = pages.get("/games/g1");
    assert_eq!(plain.header("content-encoding"), None);
    let mut s = TcpStream::connect(pages.addr).expect("connect");
    s.write_all(
        b"GET /games/g1 HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, deflate, br\r\nConnection: close\r\n\r\n",
    )
    .expect("send");
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).expect("read");
    let end = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head")
        + 4;
    let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
    assert!(head.contains("content-encoding: gzip"), "{head}");
    assert!(head.contains("vary: accept-encoding"), "{head}");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&buf[end..])
        .read_to_string(&mut text)
        .expect("gzip");
    assert_eq!(text, plain.body);
    assert!(
        buf.len() - end < plain.body.len() / 2,
        "{} of {}",
        buf.len() - end,
        plain.body.len()
    );
}

#[test]
fn an_absence_that_ends_leaves_the_game_page_without_a_change_to_the_store() {
    let dir = TempDir::new("absence-ends");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    standard_game(&mut j, "g1");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    // France is away until two seconds from now.
    j.sql(&format!(
        "INSERT INTO absences (game, power, from_at, to_at, created_at)
         VALUES ('g1', 2, {}, {}, {})",
        now - 3600,
        now + 2,
        now - 3600
    ));
    let pages = Pages::start(&store);
    let france = |body: &str| {
        let roster = between(body, "<section class=\"roster\">", "</section>")
            .expect("roster")
            .to_string();
        between(&roster, "<b>France</b>", "</li>")
            .expect("France's row")
            .to_string()
    };
    let before = pages.get("/games/g1");
    assert!(france(&before.body).contains("away"), "{}", before.body);
    // The page is cached while the store does not change...
    let again = pages.get("/games/g1");
    assert!(france(&again.body).contains("away"), "{}", again.body);
    // ... but not past the end of the absence it shows.
    std::thread::sleep(std::time::Duration::from_millis(3100));
    let after = pages.get("/games/g1");
    assert!(!france(&after.body).contains("away"), "{}", after.body);
}

#[test]
fn a_game_page_shows_each_players_name_and_the_absences_they_announced() {
    let dir = TempDir::new("absence");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    standard_game(&mut j, "g1");
    let sent = j.mail(
        &addr("Italy"),
        "SIGNON Italy g1 pw-Italy\nSET NAME Carla <i>C</i>\nSET ABSENCE 2031-07-01 TO 2031-07-14",
    );
    assert!(
        sent.iter().any(|m| m.body.contains("Absence recorded")),
        "{sent:#?}"
    );
    // One that is over is not shown (the players plan around the others).
    j.sql(
        "INSERT INTO absences (game, power, from_at, to_at, created_at)
         VALUES ('g1', 2, 1000000000, 1000086400, 1000000000)",
    );
    let pages = Pages::start(&store);
    let page = pages.get("/games/g1");
    let roster = between(&page.body, "<section class=\"roster\">", "</section>").expect("roster");
    let italy = between(roster, "<b>Italy</b>", "</li>").expect("Italy's row");
    assert_eq!(
        italy,
        ": Carla &lt;i&gt;C&lt;/i&gt; (playing)<br><span class=\"away\">away \
         Tue 01 Jul 2031 00:00 BST to Tue 15 Jul 2031 00:00 BST</span>",
        "{roster}"
    );
    let france = between(roster, "<b>France</b>", "</li>").expect("France's row");
    assert!(!france.contains("away"), "an absence that ended: {france}");
    assert!(
        roster.contains("<b>England</b>: Alice Liddell (playing)</li>"),
        "{roster}"
    );
    assert_no_secrets("the game page with absences", &page.body);
}
