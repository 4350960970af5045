//! Issue #51's "done when": a first game played by a newcomer from the
//! README alone, with a real Postfix and Dovecot configured as
//! docs/operations.md's example says, meets none of the twelve
//! stumbles.
//!
//! The judge runs (`zinejudge run`, a child process) on the example
//! configuration block of docs/operations.md ("One machine: the example
//! configuration"), taken from the doc itself so that the doc cannot
//! drift: only the machine's particulars are changed (the ports, the
//! certificate and its name, the judge's address, the password file, the
//! store, the web port), each of which must be found exactly as the doc
//! writes it. `zinejudge check-config` accepts it first. The GM and the
//! players send every mail through Postfix's submission port (STARTTLS,
//! then AUTH), as their mail programs do; the judge reads its INBOX
//! through Dovecot's IMAPS and answers through submission; the test
//! reads every address's INBOX over IMAPS and checks, mail by mail, what
//! each got (tests/e2e_support: every mail is also signed after `-- `).
//!
//! The GM follows the README's quick start: CREATE (confirmed by reply),
//! the settings, players joining (one mistypes his confirmation code,
//! then answers with the CONFIRM line only quoted under another Subject),
//! the start, a GM mail with two changes, orders (one player quoting his
//! start mail), the results, MAP; then an Ard-Ri game, which opens with
//! builds: a misplaced fleet refused, a sign-on by full power name, and
//! the builds' pictures.
//!
//! Item 7 (civil disorder with builds due) needs a missed winter
//! deadline, a game year of real time: tests/judge/newcomer.rs plays it
//! on the judge's clock.
//!
//! Without the mail servers the test prints why and passes, unless `CI` is
//! set: then it fails.

use crate::daemon_common;
use crate::e2e_support;
use crate::support;
use daemon_common::{Judge, TempDir};
use e2e_support::{Mail, Post, Step, confirm_code};
use support::{JUDGE_ADDRESS, JUDGE_PASSWORD, MailSystem};

const GM: &str = "gm@example.test";
const GM_PW: &str = "my-gm-password";
const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];
const ARDRI: [&str; 5] = ["Ulaid", "Connacht", "Midhe", "Laigin", "Muma"];
/// The game's zone, set by the GM: far from UTC, with its own name.
const ZONE: &str = "America/New_York";

fn addr(power: &str) -> String {
    format!("{}@example.test", power.to_lowercase())
}

fn password(power: &str) -> String {
    format!("their-own-{}", power.to_lowercase())
}

/// The example configuration block of docs/operations.md: the indented
/// lines after its heading, unindented.
fn example_block() -> String {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/operations.md"),
    )
    .expect("docs/operations.md");
    let heading = "## One machine: the example configuration";
    let at = doc
        .find(heading)
        .unwrap_or_else(|| panic!("docs/operations.md has no {heading:?}"));
    let block: Vec<&str> = doc[at..]
        .lines()
        .skip_while(|l| !l.starts_with("    ["))
        .take_while(|l| l.starts_with("    ") || l.is_empty())
        .collect();
    let block: Vec<String> = block
        .iter()
        .map(|l| l.strip_prefix("    ").unwrap_or(l).to_string())
        .collect();
    block.join("\n").trim_end().to_string() + "\n"
}

/// `text` with each `from` replaced by its `to`: each `from` must be
/// there (as the doc writes it) `n` times.
fn replaced(text: &str, changes: &[(&str, String, usize)]) -> String {
    let mut out = text.to_string();
    for (from, to, n) in changes {
        assert_eq!(
            out.matches(from).count(),
            *n,
            "docs/operations.md's example no longer has {from:?} {n} times:\n{text}"
        );
        out = out.replace(from, to);
    }
    out
}

/// The value of `key = "..."` in the block.
fn value(block: &str, key: &str) -> String {
    block
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{key} = \"")))
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or_else(|| panic!("no {key} in the example:\n{block}"))
        .to_string()
}

/// The example configuration, on this machine's throw-away servers.
fn configuration(ms: &MailSystem, dir: &std::path::Path) -> String {
    let doc = example_block();
    let pw = dir.join("imap.pw");
    std::fs::write(&pw, format!("{JUDGE_PASSWORD}\n")).expect("the password file");
    let p = ms.ports();
    replaced(
        &doc,
        &[
            ("port = 993", format!("port = {}", p.imaps), 1),
            ("port = 587", format!("port = {}", p.submission), 1),
            // The test CA's certificate is made for localhost.
            (
                "tls-name = \"mail.example.org\"",
                "tls-name = \"localhost\"".into(),
                2,
            ),
            (
                "/etc/ssl/certs/ssl-cert-snakeoil.pem",
                ms.ca_cert_path().display().to_string(),
                2,
            ),
            ("judge@example.org", JUDGE_ADDRESS.into(), 3),
            ("/etc/zinejudge/imap.pw", pw.display().to_string(), 2),
            (
                "/var/lib/zinejudge/zinejudge.sqlite",
                dir.join("store.sqlite").display().to_string(),
                1,
            ),
            // Any free port: tests run side by side.
            ("127.0.0.1:8080", "127.0.0.1:0".into(), 1),
        ],
    )
}

/// Stumbles 6 and 10: `shown` (the words after a deadline's label) is
/// a time on the minute (`13:00`, never `13:00:24`) in the game's zone,
/// then in UTC once: `Tue 04 Jan 2028 13:00 EST (18:00 UTC)`.
#[track_caller]
fn on_the_minute_in_zone_and_utc(shown: &str, what: &str) {
    let words: Vec<&str> = shown.split_whitespace().collect();
    let is_time = |w: &str| {
        let b = w.as_bytes();
        b.len() >= 5 && b[2] == b':' && b[..2].iter().chain(&b[3..5]).all(u8::is_ascii_digit)
    };
    let times: Vec<&&str> = words.iter().filter(|w| is_time(w)).collect();
    assert!(!times.is_empty(), "{what}: no time in {shown:?}");
    for t in &times {
        assert!(
            t.as_bytes().get(5) != Some(&b':'),
            "{what}: a deadline to the second: {shown:?}"
        );
    }
    assert!(
        words.iter().any(|w| *w == "EST" || *w == "EDT"),
        "{what}: the game's zone is not shown: {shown:?}"
    );
    assert_eq!(
        words
            .iter()
            .filter(|w| w.trim_matches(|c: char| !c.is_alphabetic()) == "UTC")
            .count(),
        1,
        "{what}: UTC not shown once: {shown:?}"
    );
}

struct Newcomer<'a> {
    post: Post<'a>,
    /// Each player's start mail.
    start: Vec<(String, Mail)>,
}

impl Newcomer<'_> {
    fn gm(&mut self, subject: &str, lines: &str) -> Step {
        self.post
            .mail(GM, subject, &format!("SIGNON GM g1 {GM_PW}\n{lines}"))
    }
}

#[test]
fn a_first_game_from_the_readme_through_postfix_and_dovecot() {
    let Some(ms) =
        MailSystem::start_or_skip("a_first_game_from_the_readme_through_postfix_and_dovecot")
    else {
        return;
    };
    let tmp = TempDir::new("newcomer");
    let config = configuration(&ms, tmp.path());
    let name = value(&config, "name");
    let path = tmp.path().join("zinejudge.toml");
    std::fs::write(&path, &config).expect("write the configuration");
    let check = std::process::Command::new(daemon_common::judge_bin())
        .args(["check-config", "--config"])
        .arg(&path)
        .output()
        .expect("check-config runs");
    assert!(
        check.status.success(),
        "check-config refuses the example:\n{}{}\n{config}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    let judge = Judge::start_with(tmp.path(), &config);
    let mut watched = vec![GM.to_string()];
    watched.extend(POWERS.iter().map(|p| addr(p)));
    watched.extend(ARDRI.iter().map(|p| addr(p)));
    let watched: Vec<&str> = watched.iter().map(String::as_str).collect();
    let mut post = Post::new(&ms, &judge, &name, &watched);
    post.submission = true;
    let mut g = Newcomer {
        post,
        start: Vec::new(),
    };
    g.gm_creates_and_sets_up();
    g.players_join();
    g.gm_changes_deadline_and_grace();
    g.russia_orders_quoting_his_start_mail();
    g.the_others_order();
    g.an_ardri_game_opens_with_builds();
    let report = g.post.finish(std::time::Duration::from_secs(2));
    eprintln!("{report}");
    assert!(judge.failures().is_empty(), "{:?}", judge.failures());
}

impl Newcomer<'_> {
    /// README step 1 and 2: CREATE, confirmed by a reply keeping the
    /// Subject (as Post does), then the settings.
    fn gm_creates_and_sets_up(&mut self) {
        let s = self
            .post
            .mail(GM, "new game", &format!("CREATE g1 standard {GM_PW}"));
        s.expect(&[]);
        s.reply()
            .says(&["Created g1 (Standard Diplomacy); you are its GM and signed on."]);
        let s = self.gm(
            "settings",
            &format!("SET TIMEZONE {ZONE}\nSET NMR CD\nSET PHASE LENGTH 72h 24h 48h"),
        );
        s.expect(&[]);
        eprintln!("{}", s.reply().body);
    }

    /// README step 3: the players join. England's first confirmation has
    /// a typo, the second is only quoted under another Subject, the third
    /// is right; the last JOIN starts the game.
    fn players_join(&mut self) {
        let england = addr("England");
        let s = self.post.mail_unconfirmed(
            &england,
            "joining",
            &format!("JOIN g1 {} England France", password("England")),
        );
        s.expect(&[]);
        let request = s.reply().clone();
        let code = confirm_code(&request.subject).expect("a request to confirm");
        // Stumble 2: a mistyped code is shown as typed.
        let typo: String = code
            .chars()
            .enumerate()
            .map(|(i, c)| match (i, c) {
                (0, 'O') => '0',
                (0, _) => 'O',
                _ => c,
            })
            .collect();
        let s = self
            .post
            .mail(&england, "confirming", &format!("CONFIRM {typo}"));
        s.expect(&[]);
        s.reply()
            .says(&[&format!("no request waits for the code {typo}")])
            .never_says(&["********"]);
        // Stumble 3: the CONFIRM line only in a quote, under another
        // Subject.
        let quoted: String = request.body.lines().map(|l| format!("> {l}\n")).collect();
        let s = self.post.mail(
            &england,
            "my game",
            &format!("Yes, that was me.\n\nOn Monday the judge wrote:\n{quoted}"),
        );
        s.expect(&[]);
        // Stumble 1 too: no word of the quoted request is taken for a
        // password (its "join the game g1" masked "game" in the Subject).
        s.reply()
            .says(&[
                "A mail of yours still waits for your confirmation",
                "send the CONFIRM line on its own (not quoted), or reply to the request keeping its Subject",
            ])
            .never_says(&["********"]);
        let s = self
            .post
            .confirm(&england, "confirming", &format!("CONFIRM {code}"), &request);
        s.expect(&[(GM, &["g1: players joining"])]);
        s.reply()
            .says(&["Confirmed: the mail you sent is carried out now"]);
        s.carried
            .as_ref()
            .expect("the JOIN")
            .says(&["You have joined g1, asking for England, France."]);
        let others: Vec<&str> = POWERS.iter().copied().filter(|p| *p != "England").collect();
        for p in &others[..others.len() - 1] {
            let s = self
                .post
                .mail(&addr(p), "joining", &format!("JOIN g1 {} {p}", password(p)));
            s.expect(&[(GM, &["g1: players joining"])]);
        }
        // The last seat: the game starts.
        let p = others[others.len() - 1];
        let s = self
            .post
            .mail(&addr(p), "joining", &format!("JOIN g1 {} {p}", password(p)));
        let mut want: Vec<(String, Vec<String>)> = POWERS
            .iter()
            .map(|p| (addr(p), vec![format!("g1: you are {p}")]))
            .collect();
        want.push((
            GM.into(),
            vec!["g1: the game starts".into(), "g1: players joining".into()],
        ));
        expect_all(&s, &want);
        // Stumble 4: the GM's start mail names each power's player and
        // links the game's page.
        let gm = s.get(GM, "g1: the game starts");
        for p in POWERS {
            gm.says(&[&format!("{p} <{}>", addr(p))]);
        }
        gm.says(&["The game's page: https://mail.example.org/diplomacy/games/g1"]);
        on_the_minute_in_zone_and_utc(&after(&gm.body, "deadline"), "the GM's start mail");
        for p in POWERS {
            let m = s.get(&addr(p), &format!("g1: you are {p}"));
            m.says(&[
                &format!("You are {p}."),
                &format!("SIGNON {p} g1 <your password>"),
                "The game's page: https://mail.example.org/diplomacy/games/g1",
            ]);
            on_the_minute_in_zone_and_utc(&after(&m.body, "Deadline:"), "a start mail");
            self.start.push((p.to_string(), m.clone()));
        }
    }

    /// Stumble 5: one GM mail with two changes makes one mail to each
    /// player, saying both; stumble 6: the deadline set relative to now
    /// is kept on the minute shown.
    fn gm_changes_deadline_and_grace(&mut self) {
        let s = self.gm("changes", "SET DEADLINE in 4m\nSET GRACE 0h");
        let players: Vec<String> = POWERS.iter().map(|p| addr(p)).collect();
        s.expect(&each(&players, &["g1: new deadline and settings"]));
        let shown = after(&s.reply().body, "The deadline is now");
        on_the_minute_in_zone_and_utc(&shown, "the GM's reply");
        // Four minutes from now, to the minute.
        let utc = shown
            .split_whitespace()
            .find(|w| w.len() == 5 && w.as_bytes()[2] == b':')
            .and_then(|w| {
                let (h, m) = w.split_once(':')?;
                Some(h.parse::<i64>().ok()? * 60 + m.parse::<i64>().ok()?)
            })
            .expect("a time");
        let now = jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::get(ZONE).expect("the zone"));
        let now = i64::from(now.hour()) * 60 + i64::from(now.minute());
        let ahead = (utc - now).rem_euclid(24 * 60);
        assert!(
            (3..=5).contains(&ahead),
            "in 4m: {shown:?}, {ahead} minutes ahead"
        );
        for m in s.all("g1: new deadline and settings") {
            m.says(&["The GM moved the deadline to", "Grace period 0h."]);
            on_the_minute_in_zone_and_utc(
                &after(&m.body, "moved the deadline to"),
                "the players' notice",
            );
        }
    }

    /// Stumble 1: a player answers his start mail with it quoted under
    /// his orders; no ordinary word of it is masked in the answer (it
    /// read "adjudicated at ******** deadline").
    fn russia_orders_quoting_his_start_mail(&mut self) {
        let start = &self
            .start
            .iter()
            .find(|(p, _)| p == "Russia")
            .expect("Russia's start mail")
            .1;
        let quoted: String = start.body.lines().map(|l| format!("> {l}\n")).collect();
        let s = self.post.mail(
            &addr("Russia"),
            "Re: g1: you are Russia",
            &format!(
                "SIGNON Russia g1 {}\nA Mos-Ukr\nA War H\nF Sev H\nF StP H\n\n\
                 On Wednesday the judge wrote:\n{quoted}",
                password("Russia")
            ),
        );
        s.expect(&[]);
        let r = s.reply();
        r.says(&[
            "Your orders are complete.",
            "This phase will be adjudicated at the deadline",
        ])
        .never_says(&[&password("Russia")]);
        for l in r.body.lines().filter(|l| l.contains("********")) {
            assert_eq!(
                l, "> SIGNON Russia g1 ********",
                "a word masked:\n{}",
                r.body
            );
        }
    }

    /// The other players order (complete orders are ready: the GM need
    /// not PROCESS), and the results come to everyone; then MAP.
    fn the_others_order(&mut self) {
        let orders = [
            ("Austria", "A Vie H\nA Bud H\nF Tri H"),
            ("England", "F Lon H\nF Edi H\nA Lvp H"),
            ("France", "F Bre H\nA Par H\nA Mar H"),
            ("Germany", "F Kie H\nA Ber H\nA Mun H"),
            ("Italy", "F Nap H\nA Rom H\nA Ven H"),
            ("Turkey", "F Ank H\nA Con H\nA Smy H"),
        ];
        let (last, first) = orders.split_last().expect("orders");
        for (p, lines) in first {
            let s = self.post.mail(
                &addr(p),
                "orders",
                &format!("SIGNON {p} g1 {}\n{lines}", password(p)),
            );
            s.expect(&[]);
            s.reply().says(&["Your orders are complete."]);
        }
        let (p, lines) = last;
        let s = self.post.mail(
            &addr(p),
            "orders",
            &format!("SIGNON {p} g1 {}\n{lines}", password(p)),
        );
        let mut readers: Vec<String> = POWERS.iter().map(|p| addr(p)).collect();
        readers.push(GM.into());
        s.expect(&each(&readers, &["g1: Spring 1901 results"]));
        s.reply()
            .says(&["Every player in g1 is ready: the phase has been processed"]);
        let all = s.all("g1: Spring 1901 results");
        for m in &all {
            assert_eq!(m.body, all[0].body, "{}: another text", m.owner);
            assert_eq!(m.attachments.len(), 1, "{}: the map", m.owner);
            assert_eq!(m.attachments[0].mime, "image/png");
        }
        let r = all[0];
        r.says(&[
            "A(Mos)-Ukr",
            "Russia 4, units 4: Mos Sev StP War",
            "The game's page: https://mail.example.org/diplomacy/games/g1",
        ]);
        on_the_minute_in_zone_and_utc(
            &after(&r.body, "Next: Fall 1901 movement, deadline"),
            "the results",
        );
        // Stumble 12: MAP with the game's name answers with the board and
        // the map, as the README's table says.
        let s = self.post.mail(
            &addr("England"),
            "the board",
            &format!("SIGNON England g1 {}\nMAP g1", password("England")),
        );
        s.expect(&[]);
        let r = s.reply();
        r.says(&[
            "g1 (Standard Diplomacy): Fall 1901 movement.",
            "Units: A(War), A(Ukr), F(Sev), F(StP/sc)",
        ])
        .never_says(&["Not done", "refused"]);
        assert_eq!(r.attachments.len(), 1, "MAP's map: {:?}", r.attachments);
        assert_eq!(r.attachments[0].mime, "image/png");
    }

    /// An Ard-Ri game, which opens with builds: stumble 8 (the start mail
    /// says how many builds, where and how), 9 (a misplaced fleet refused
    /// for what is wrong with it), 12 (a sign-on by full power name gets
    /// no letter hint) and 11 (the builds' picture: no Vikings in the
    /// legend, no marker over a name).
    fn an_ardri_game_opens_with_builds(&mut self) {
        let s = self
            .post
            .mail(GM, "another game", &format!("CREATE g2 ardri {GM_PW}"));
        s.expect(&[]);
        s.reply().says(&[
            "Created g2 (Ard-Ri); you are its GM and signed on.",
            "Vikings are not in this game",
        ]);
        let (last, first) = ARDRI.split_last().expect("powers");
        for p in first {
            let s = self
                .post
                .mail(&addr(p), "joining", &format!("JOIN g2 {} {p}", password(p)));
            s.expect(&[(GM, &["g2: players joining"])]);
        }
        let s = self.post.mail(
            &addr(last),
            "joining",
            &format!("JOIN g2 {} {last}", password(last)),
        );
        let mut want: Vec<(String, Vec<String>)> = ARDRI
            .iter()
            .map(|p| (addr(p), vec![format!("g2: you are {p}")]))
            .collect();
        want.push((
            GM.into(),
            vec!["g2: the game starts".into(), "g2: players joining".into()],
        ));
        expect_all(&s, &want);
        let gm = s.get(GM, "g2: the game starts");
        for p in ARDRI {
            gm.says(&[&format!("{p} <{}>", addr(p))]);
        }
        gm.says(&["Vikings not in this game"]);
        // Stumble 8: how many builds, where (by abbreviation and full
        // name, for each kind of unit) and how, with example lines.
        s.get(&addr("Connacht"), "g2: you are Connacht")
            .says(&[
                "You have 3 builds due.",
                "Free sites for an army: Cru (Cruachu), Mon (Mona Gha) or Tua (Tuathal); \
                 for a fleet: Cru (Cruachu) or Mon (Mona Gha).",
                "Write one build a line, A for an army, F for a fleet",
                "SIGNON Connacht g2 <your password>",
                "Build A(Cru)",
            ])
            .never_says(&["(your orders, one a line)"]);
        // Stumble 9: a fleet inland is refused as such, with the sites
        // free for each kind of unit, the place itself among the army's.
        let s = self.post.mail(
            &addr("Muma"),
            "builds",
            &format!("SIGNON Muma g2 {}\nbuild fleet edg", password("Muma")),
        );
        s.expect(&[]);
        s.reply()
            .says(&[
                "Edg (Edghanacata) is inland: no fleet can be built there",
                "free sites for an army: Anu, Edg (Edghanacata) or Eog (Eoghan Mor); \
                 for a fleet: Anu or Eog (Eoghan Mor)",
            ])
            .never_says(&["no free site"]);
        // Every power builds its armies, asking for the SVG too; the last
        // builds make the phase.
        let builds = [
            ("Ulaid", "Aic Ema Mag"),
            ("Connacht", "Cru Mon Tua"),
            ("Midhe", "Gua Tem Uis"),
            ("Laigin", "Aie Alm Naa"),
            ("Muma", "Anu Edg Eog"),
        ];
        let (last, first) = builds.split_last().expect("builds");
        let order = |(p, sites): &(&str, &str)| {
            let lines: Vec<String> = sites.split(' ').map(|s| format!("Build A {s}")).collect();
            format!(
                "SIGNON {p} g2 {}\nSET PICTURE BOTH\n{}",
                password(p),
                lines.join("\n")
            )
        };
        for b in first {
            let s = self.post.mail(&addr(b.0), "builds", &order(b));
            s.expect(&[]);
            s.reply().says(&["Your orders are complete."]);
            // Stumble 12: no unasked hint after a sign-on by full name
            // (Midhe's letter is I).
            s.reply().never_says(&["letter"]);
        }
        let s = self.post.mail(&addr(last.0), "builds", &order(last));
        let mut readers: Vec<String> = ARDRI.iter().map(|p| addr(p)).collect();
        readers.push(GM.into());
        s.expect(&each(&readers, &["g2: Winter 379 AD adjustments"]));
        // Stumble 11: the picture of the builds lists the powers in the
        // game (no Vikings) and no unit's marker covers a name.
        let m = s.get(&addr("Midhe"), "g2: Winter 379 AD adjustments");
        m.says(&[
            "Midhe: builds A(Gua)",
            "Next: Spring 380 AD movement, deadline",
        ])
        .never_says(&["Vikings"]);
        let svg = m
            .attachments
            .iter()
            .find(|a| a.mime == "image/svg+xml")
            .map(|a| String::from_utf8_lossy(&a.data).to_string())
            .unwrap_or_else(|| panic!("no SVG with {:?}", m.attachments));
        let legend = &svg[svg.find("<g class=\"legend\"").expect("a legend")..];
        for p in ARDRI {
            assert!(legend.contains(&format!("{p} (")), "{p} not in the legend");
        }
        assert!(!legend.contains("Vikings"), "the Vikings in the legend");
        assert_eq!(svg.matches("<g class=\"unit built\"").count(), 15);
        crate::picture_support::no_marker_covers_a_name("Ard-Ri's builds", &svg);
    }
}

/// Check that each address got exactly these subjects.
#[track_caller]
fn expect_all(s: &Step, want: &[(String, Vec<String>)]) {
    let subjects: Vec<Vec<&str>> = want
        .iter()
        .map(|(_, v)| v.iter().map(String::as_str).collect())
        .collect();
    let want: Vec<(&str, &[&str])> = want
        .iter()
        .zip(&subjects)
        .map(|((a, _), v)| (a.as_str(), v.as_slice()))
        .collect();
    s.expect(&want);
}

/// `(address, subjects)` for each of `addrs`: the same subjects for all.
fn each<'a>(addrs: &'a [String], subjects: &'a [&'a str]) -> Vec<(&'a str, &'a [&'a str])> {
    addrs.iter().map(|a| (a.as_str(), subjects)).collect()
}

/// The words after the first `label` in `text`, its lines joined.
fn after(text: &str, label: &str) -> String {
    let flat = e2e_support::norm(text);
    let at = flat
        .find(label)
        .unwrap_or_else(|| panic!("no {label:?} in:\n{text}"));
    flat[at + label.len()..].chars().take(60).collect()
}
