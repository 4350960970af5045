//! The game pages in a real browser: headless Chromium driven through
//! chromedriver (WebDriver), both from Debian's packages (the test command
//! installs them: scripts/install-test-deps.sh). A reader opens the list of
//! games, follows the link to a game, sees the units of the current
//! position on the map, moves to a past phase and reads its results, opens
//! the game's Atom feed, and reads the game page on a phone's width without
//! scrolling sideways. Everything stays on 127.0.0.1.
//!
//! Without Chromium or chromedriver the test says SKIPPED and passes,
//! except in CI (`CI` set), where that is a failure.

use crate::web_support;
use fantoccini::{ClientBuilder, Locator};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use web_support::*;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "FALSE" | "False"))
}

/// Whether the browser is here; if not, SKIPPED (or, in CI, a failure).
fn browser_or_skip(test: &str) -> bool {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if missing.is_empty() {
        return true;
    }
    let reason = format!(
        "{} not installed (bash scripts/install-test-deps.sh installs chromium and chromium-driver)",
        missing.join(" and ")
    );
    if in_ci() {
        panic!("{test}: {reason} (CI is set, so this is a failure, not a skip)");
    }
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
    false
}

/// chromedriver on a free port of 127.0.0.1; killed on drop.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start(log: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_err() {
            assert!(
                Instant::now() < deadline,
                "chromedriver did not listen on {addr}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Headless Chromium as the workplace runs it: as root, no sandbox, no
/// GPU, nothing fetched from elsewhere, a profile of its own.
fn capabilities(profile: &Path) -> serde_json::Map<String, serde_json::Value> {
    let caps = serde_json::json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                format!("--user-data-dir={}", profile.display()),
                "--window-size=1200,900",
            ]
        }
    });
    match caps {
        serde_json::Value::Object(m) => m,
        _ => unreachable!("an object"),
    }
}

/// A unit token on a map: its centre and its colour.
type Token = ((f32, f32), String);

/// A unit token on a map: its centre (from its box) and its colour.
fn tokens_of(boxes: &[(String, String)]) -> Vec<((f32, f32), String)> {
    let mut out: Vec<((f32, f32), String)> = boxes
        .iter()
        .map(|(b, fill)| {
            let n: Vec<f32> = b.split(' ').map(|x| x.parse().expect("a number")).collect();
            ((n[0] + n[2] / 2.0, n[1] + n[3] / 2.0), fill.clone())
        })
        .collect();
    out.sort_by(|a, b| a.partial_cmp(b).expect("numbers"));
    out
}

/// With `ZJ_WEB_SCREENSHOTS=DIR`, a picture of the page as shown, to look
/// at by eye.
async fn shoot(c: &fantoccini::Client, name: &str) {
    if let Some(dir) = std::env::var_os("ZJ_WEB_SCREENSHOTS") {
        let png = c.screenshot().await.expect("a screenshot");
        std::fs::write(Path::new(&dir).join(format!("{name}.png")), png).expect("write it");
    }
}

/// What the map must show: every unit of the current position of `game`,
/// each on its province's spot in its power's colour (sorted as
/// [`tokens_of`] sorts what is shown).
fn expected_tokens(j: &mut Judge, game: &str) -> (Vec<zinejudge::map::Unit>, Vec<Token>) {
    let v = zinejudge::variant::builtin("standard")
        .expect("standard")
        .expect("loads");
    let row = zinejudge::testing::store::games::load(j.processor.store.conn(), game)
        .expect("store")
        .expect("the game");
    let pos = zinejudge::game::Position::from_toml(&v, &row.position).expect("position");
    let layout = zinejudge::testing::report::picture::Picture::layout(&v);
    let mut want: Vec<((f32, f32), String)> = pos
        .units
        .iter()
        .map(|u| {
            (
                layout.spot(u.region),
                zinejudge::testing::report::picture::colour(u.power).to_string(),
            )
        })
        .collect();
    want.sort_by(|a, b| a.partial_cmp(b).expect("numbers"));
    (pos.units, want)
}

/// The list of games names both, with g1's phase and centres, and its
/// link leads to g1's page.
async fn the_list_leads_to_the_game(c: &fantoccini::Client, pages: &Pages) {
    // The list of games.
    c.goto(&pages.url("/")).await.expect("open the list");
    assert_eq!(c.title().await.expect("title"), "Games on zinejudge");
    let names: Vec<String> = {
        let mut n = Vec::new();
        for a in c.find_all(Locator::Css("a.game")).await.expect("games") {
            n.push(a.text().await.expect("text"));
        }
        n
    };
    assert_eq!(names, ["g1", "other"]);
    let row = c
        .find(Locator::XPath("//tr[td/a[text()='g1']]"))
        .await
        .expect("g1's row")
        .text()
        .await
        .expect("text");
    assert!(row.contains("Winter 1901 adjustment"), "{row}");
    assert!(row.contains("England 4"), "{row}");

    // Follow the link to the game.
    c.find(Locator::LinkText("g1"))
        .await
        .expect("the link")
        .click()
        .await
        .expect("click");
    c.wait()
        .for_url(&url::Url::parse(&pages.url("/games/g1")).expect("url"))
        .await
        .expect("the game page");
    assert_eq!(
        c.title().await.expect("title"),
        "g1: Winter 1901 adjustment"
    );
}

/// g1's page: the map with the current units where they stand, the
/// roster (names escaped, no addresses), readable on a phone.
async fn the_game_page_shows_the_board(
    c: &fantoccini::Client,
    units: &[zinejudge::map::Unit],
    want: &[Token],
) {
    // The map shows the units of the current position.
    let mut boxes = Vec::new();
    for t in c
        .find_all(Locator::Css("figure.map svg g.unit"))
        .await
        .expect("units")
    {
        let b = t.attr("data-box").await.expect("attr").expect("a box");
        let fill = t
            .find(Locator::Css("rect"))
            .await
            .expect("a token")
            .attr("fill")
            .await
            .expect("attr")
            .expect("a fill");
        boxes.push((b, fill));
    }
    let got = tokens_of(&boxes);
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((g, w), unit) in got.iter().zip(want).zip(units) {
        assert!(
            (g.0.0 - w.0.0).abs() < 0.2 && (g.0.1 - w.0.1).abs() < 0.2 && g.1 == w.1,
            "a token {g:?} where {w:?} ({unit:?}) should be"
        );
    }
    assert!(
        c.find(Locator::Css("figure.map svg"))
            .await
            .expect("the map")
            .is_displayed()
            .await
            .expect("shown")
    );
    let roster = c
        .find(Locator::Css("section.roster"))
        .await
        .expect("roster")
        .text()
        .await
        .expect("text");
    assert!(
        roster.contains("England: Alice Liddell (playing)"),
        "{roster}"
    );
    assert!(
        roster.contains("France: <b>Bob</b> & \"Co\" <script>alert(1)</script>"),
        "{roster}"
    );
    assert!(!roster.contains("@"), "{roster}");

    shoot(c, "game-desktop").await;
    // On a phone's width the page reads without scrolling sideways.
    c.set_window_size(390, 844).await.expect("phone size");
    shoot(c, "game-phone").await;
    let wide = c
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .expect("measure");
    assert_eq!(wide.as_i64(), Some(0), "the page is wider than a phone");
    c.set_window_size(1200, 900).await.expect("back");
}

/// A past phase's page shows the results as mailed and the orders drawn;
/// its next link leads on, and the game's link back.
async fn a_past_phase_shows_its_results(c: &fantoccini::Client, pages: &Pages, sent: &[Sent]) {
    // Move to a past phase.
    c.find(Locator::LinkText("Spring 1901 movement"))
        .await
        .expect("the phase's link")
        .click()
        .await
        .expect("click");
    c.wait()
        .for_url(&url::Url::parse(&pages.url("/games/g1/phases/S1901M")).expect("url"))
        .await
        .expect("the phase page");
    let h1 = c
        .find(Locator::Css("h1"))
        .await
        .expect("h1")
        .text()
        .await
        .expect("text");
    assert_eq!(h1, "Spring 1901 movement");
    let report = c
        .find(Locator::Css("pre.report"))
        .await
        .expect("results")
        .text()
        .await
        .expect("text");
    let mailed = results_for(sent, "watcher@example.test", "Spring 1901").text();
    assert_eq!(
        report.trim_end(),
        mailed.trim_end(),
        "the results as mailed"
    );
    let arrows = c
        .find_all(Locator::Css("figure.map svg g.move"))
        .await
        .expect("moves");
    assert!(arrows.len() >= 10, "the orders are drawn: {}", arrows.len());
    shoot(c, "phase-desktop").await;
    // And on to the next phase, and back to the game.
    c.find(Locator::Css("a[rel=next]"))
        .await
        .expect("next")
        .click()
        .await
        .expect("click");
    c.wait()
        .for_url(&url::Url::parse(&pages.url("/games/g1/phases/F1901M")).expect("url"))
        .await
        .expect("the next phase");
    c.find(Locator::LinkText("g1"))
        .await
        .expect("back to the game")
        .click()
        .await
        .expect("click");
}

/// The game's Atom feed is announced, linked, and holds the results and
/// the press.
async fn the_feed_holds_results_and_press(c: &fantoccini::Client, pages: &Pages) {
    // The game's Atom feed.
    let feed_link = c
        .find(Locator::Css(
            "link[rel=alternate][type='application/atom+xml']",
        ))
        .await
        .expect("the feed is announced")
        .attr("href")
        .await
        .expect("attr")
        .expect("href");
    assert_eq!(feed_link, "/games/g1/feed.atom");
    c.find(Locator::LinkText("Atom feed"))
        .await
        .expect("the feed's link")
        .click()
        .await
        .expect("click");
    c.wait()
        .for_url(&url::Url::parse(&pages.url("/games/g1/feed.atom")).expect("url"))
        .await
        .expect("the feed");
    // Chromium shows a feed as its text.
    let xml = c
        .find(Locator::Css("body"))
        .await
        .expect("the feed shown")
        .text()
        .await
        .expect("text");
    let start = xml
        .find("<feed")
        .unwrap_or_else(|| panic!("an Atom feed: {xml}"));
    let end = xml.rfind("</feed>").expect("the feed's end") + "</feed>".len();
    let feed = atom_syndication::Feed::read_from(&xml.as_bytes()[start..end])
        .unwrap_or_else(|e| panic!("{e}: {xml}"));
    let titles: Vec<&str> = feed
        .entries
        .iter()
        .map(|e| e.title.value.as_str())
        .collect();
    assert!(
        titles.contains(&"g1: Spring 1901 movement results"),
        "{titles:?}"
    );
    assert!(titles.contains(&"g1: press from England"), "{titles:?}");
}

#[test]
fn a_reader_follows_a_game_from_the_list_to_a_past_phase_and_its_feed() {
    let test = "a_reader_follows_a_game_from_the_list_to_a_past_phase_and_its_feed";
    if !browser_or_skip(test) {
        return;
    }
    let dir = TempDir::new("browser");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    let sent = standard_game(&mut j, "g1");
    j.mail("gm@example.test", "CREATE other ardri gm-secret");
    let (units, want) = expected_tokens(&mut j, "g1");
    let pages = Pages::start(&store);
    let driver = Driver::start(&dir.path().join("chromedriver.log"));
    let profile = dir.path().join("profile");
    std::fs::create_dir_all(&profile).expect("profile");

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let mut b = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        b.capabilities(capabilities(&profile));
        let c = b
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await
            .expect("a browser session");

        the_list_leads_to_the_game(&c, &pages).await;
        the_game_page_shows_the_board(&c, &units, &want).await;
        a_past_phase_shows_its_results(&c, &pages, &sent).await;
        the_feed_holds_results_and_press(&c, &pages).await;
        c.close().await.expect("close the browser");
    });
}
