//! njudge's and DPjudge's mail, written as their help pages teach it, sent
//! through the real mail servers and the real daemon: one test per family
//! of forms, named after the forms it sends. Each form is read right or
//! refused naming this judge's form; none is passed over or does something
//! else. (tests/judge/other_judges.rs checks the same forms' details quickly
//! through the processor alone; tests/judge/press_property.rs the privacy of
//! press over random lists and terminators.)
//!
//! Players send over SMTP to Postfix on 127.0.0.1, the judge (`zinejudge
//! run`) reads its mailbox over IMAPS and answers through submission, and
//! the test reads every address's INBOX over IMAPS (tests/e2e_support).
//!
//! Without the mail servers the tests print why and pass, unless `CI` is
//! set: then they fail.

use crate::daemon_common;
use crate::e2e_support;
use crate::support;
use daemon_common::{Judge, Opts, TempDir};
use e2e_support::{Mail, Post, Step};
use support::MailSystem;

const GAME: &str = "nj";
const GM: &str = "gm@example.test";
const GM_PW: &str = "gm-secret-pw";
const WATCHER: &str = "watcher@example.test";
const NEWCOMER: &str = "newcomer@example.test";
const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

fn pw(p: &str) -> String {
    format!("pw-{}-secret", p.to_lowercase())
}

/// The addresses every test watches.
fn watched() -> Vec<String> {
    let mut v: Vec<String> = POWERS.iter().map(|p| addr(p)).collect();
    v.extend([GM.to_string(), WATCHER.to_string(), NEWCOMER.to_string()]);
    v
}

/// The daemon, started on the mail system, with every watched address
/// already known to it.
fn judge(ms: &MailSystem, tmp: &TempDir) -> Judge {
    let j = Judge::start(ms, tmp.path(), &Opts::default());
    let w = watched();
    let known: Vec<&str> = w.iter().map(String::as_str).collect();
    j.confirmed(&known);
    j
}

/// `p`'s mail signed on njudge's way: `SIGNON Xgame password`.
fn nj(post: &mut Post, p: &str, subject: &str, body: &str) -> Step {
    post.mail(
        &addr(p),
        subject,
        &format!("SIGNON {}{GAME} {}\n{body}", &p[..1], pw(p)),
    )
}

/// The GM's mail signed on njudge's way: `SIGNON Mgame password`.
fn gm(post: &mut Post, subject: &str, body: &str) -> Step {
    post.mail(GM, subject, &format!("SIGNON M{GAME} {GM_PW}\n{body}"))
}

/// A started standard game: the GM creates it with njudge's `CREATE
/// ?game`, the seven players join.
fn started(post: &mut Post) {
    let s = post.mail(
        GM,
        "new game",
        // First come: njudge's players are given their power at once.
        &format!("CREATE ?{GAME} {GM_PW} standard\nSET PRESS GREY\nSET ASSIGNMENT FIRST-COME"),
    );
    s.reply()
        .says(&[&format!("Created {GAME} (Standard Diplomacy)")])
        .never_says(&[GM_PW]);
    for p in POWERS {
        let s = post.mail(&addr(p), "join", &format!("JOIN {GAME} {} {p}", pw(p)));
        s.reply().says(&[&format!("You play {p} in {GAME}")]);
    }
}

/// The mails in `step` to `a` whose subject contains `part`.
fn having<'s>(step: &'s Step, a: &str, part: &str) -> Vec<&'s Mail> {
    step.got
        .get(a)
        .map(|v| v.iter().filter(|m| m.subject.contains(part)).collect())
        .unwrap_or_default()
}

/// The powers' addresses that got press in `step`.
fn press_readers(step: &Step) -> Vec<String> {
    let mut v: Vec<String> = POWERS
        .iter()
        .map(|p| addr(p))
        .filter(|a| !having(step, a, ": press").is_empty())
        .collect();
    v.sort();
    v
}

fn addrs(ps: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ps.iter().map(|p| addr(p)).collect();
    v.sort();
    v
}

macro_rules! mail_system {
    ($name:expr) => {
        match MailSystem::start_or_skip($name) {
            Some(ms) => ms,
            None => return,
        }
    };
}

/// njudge's entries: `CREATE ?game password variant`, `SIGNON ?game
/// password variant` to join, `SIGNON Ogame password` to observe,
/// `SIGNON Xgame password` for each power letter, DPjudge's `SIGNON
/// power@game password`, and a sign-on for a power nobody plays (the GM's
/// to fill: refused naming REPLACE, the GM told).
#[test]
fn njudge_signon_xgame_qgame_ogame_power_at_game_and_create_qgame() {
    let ms = mail_system!("njudge_signon_xgame_qgame_ogame_power_at_game_and_create_qgame");
    let tmp = TempDir::new("nj-signon");
    let j = judge(&ms, &tmp);
    let w = watched();
    let refs: Vec<&str> = w.iter().map(String::as_str).collect();
    let mut post = Post::new(&ms, &j, "zinejudge test", &refs);
    let s = post.mail(
        GM,
        "new",
        &format!("CREATE ?{GAME} {GM_PW} standard\nSET ASSIGNMENT FIRST-COME"),
    );
    s.reply()
        .says(&[&format!("Created {GAME} (Standard Diplomacy)")])
        .lines(&[&format!("> CREATE ?{GAME} ******** standard")]);
    // SIGNON ?game password variant: the wrong variant is refused, the
    // right one joins.
    let s = post.mail(
        &addr("England"),
        "enter",
        &format!("SIGNON ?{GAME} {} ardri", pw("England")),
    );
    s.reply()
        .says(&[&format!("{GAME} plays Standard Diplomacy, not ardri")]);
    let s = post.mail(
        &addr("England"),
        "enter",
        &format!("SIGNON ?{GAME} {} standard", pw("England")),
    );
    s.reply().says(&["You play"]).never_says(&[&pw("England")]);
    // The power the judge gave: England's address plays it from now on.
    let given = s.reply().after("You play");
    let given = POWERS
        .iter()
        .copied()
        .find(|p| given.starts_with(p))
        .unwrap_or_else(|| panic!("no power in {given:?}"));
    let mut seat: Vec<(&str, String)> = vec![(given, addr("England"))];
    let mut free = POWERS
        .iter()
        .map(|p| addr(p))
        .filter(|a| *a != addr("England"));
    for p in POWERS.iter().copied().filter(|p| *p != given) {
        seat.push((p, free.next().expect("an address for each power")));
    }
    let at = |p: &str| {
        seat.iter()
            .find(|(q, _)| *q == p)
            .map(|(_, a)| a.clone())
            .unwrap_or_default()
    };
    let pass = |p: &str| if p == given { pw("England") } else { pw(p) };
    // SIGNON Ogame password: an observer.
    let s = post.mail(WATCHER, "watch", &format!("SIGNON O{GAME} watch-pw-secret"));
    s.reply().says(&["You will receive this game's results"]);
    // The others join; the game starts.
    for p in POWERS.iter().copied().filter(|p| *p != given) {
        post.mail(&at(p), "join", &format!("JOIN {GAME} {} {p}", pass(p)));
    }
    // SIGNON Xgame for every power letter: each player signs on by letter
    // and orders.
    for (p, order, shown) in [
        ("Austria", "A Vie-Gal", "A(Vie)-Gal"),
        ("England", "F Lon-ENG", "F(Lon)-ENG"),
        ("France", "A Par-Bur", "A(Par)-Bur"),
        ("Germany", "A Mun-Ruh", "A(Mun)-Ruh"),
        ("Italy", "A Ven-Tyr", "A(Ven)-Tyr"),
        ("Russia", "A War-Gal", "A(War)-Gal"),
        ("Turkey", "F Ank-BLA", "F(Ank)-BLA"),
    ] {
        let s = post.mail(
            &at(p),
            "orders",
            &format!("SIGNON {}{GAME} {}\n{order}", &p[..1], pass(p)),
        );
        s.reply()
            .says(&[&format!("Signed on as {p} in {GAME}")])
            .lines(&[shown]);
    }
    // DPjudge's power@game.
    let s = post.mail(
        &at("Italy"),
        "orders",
        &format!("SIGNON Italy@{GAME} {}\nA Rom-Apu", pass("Italy")),
    );
    s.reply()
        .says(&[&format!("Signed on as Italy in {GAME}")])
        .lines(&["A(Rom)-Apu"]);
    // An abandoned power: the GM ejects Italy's player; a newcomer's
    // SIGNON Igame is refused naming this judge's way, and the GM told.
    gm(&mut post, "eject", "EJECT Italy")
        .reply()
        .says(&["REPLACE Italy address"]);
    let s = post.mail(
        NEWCOMER,
        "take Italy",
        &format!("SIGNON I{GAME} new-pw-secret1"),
    );
    s.reply().says(&[
        &format!("Italy in {GAME} has no player now"),
        "REPLACE Italy address",
    ]);
    assert_eq!(
        having(&s, GM, "").len(),
        1,
        "the GM is told: {:?}",
        s.got[GM]
    );
    post.finish(std::time::Duration::from_secs(2));
}

/// Press as njudge and DPjudge address and end it: initials (`PRESS TO
/// FG`), comma lists (`PRESS TO France,Russia, austria`), `ALL BUT`,
/// `GREY`, `TO M`, and every terminator: `ENDPRESS`, `ENDBROADCAST`,
/// `SIGNOFF`, the end of the mail. Exactly those named get it; nothing after
/// the terminator is press.
#[test]
fn njudge_press_to_initials_lists_all_but_grey_m_endpress_endbroadcast_signoff() {
    let ms =
        mail_system!("njudge_press_to_initials_lists_all_but_grey_m_endpress_endbroadcast_signoff");
    let tmp = TempDir::new("nj-press");
    let j = judge(&ms, &tmp);
    let w = watched();
    let refs: Vec<&str> = w.iter().map(String::as_str).collect();
    let mut post = Post::new(&ms, &j, "zinejudge test", &refs);
    started(&mut post);
    let gm_copy: &[&str] = &["nj: press (GM copy)*"];
    let press: &[&str] = &["nj: press"];
    let s = nj(&mut post, "Italy", "press", "PRESS TO FG\nhello\nENDPRESS");
    s.expect(&[
        (&addr("France"), press),
        (&addr("Germany"), press),
        (GM, gm_copy),
    ]);
    s.reply().says(&["Press sent to France, Germany."]);
    let s = nj(
        &mut post,
        "Italy",
        "press",
        "PRESS TO France,Russia, austria\nhi\nENDPRESS",
    );
    assert_eq!(press_readers(&s), addrs(&["Austria", "France", "Russia"]));
    let s = nj(
        &mut post,
        "Italy",
        "press",
        "PRESS TO ALL BUT G\nnot you\nENDPRESS",
    );
    assert_eq!(
        press_readers(&s),
        addrs(&["Austria", "England", "France", "Russia", "Turkey"])
    );
    for m in s.all("nj: press") {
        if m.owner != GM {
            m.says(&["to everybody but Germany", "not you"]);
        }
    }
    // Grey: the sender is not shown.
    let s = nj(
        &mut post,
        "Italy",
        "press",
        "PRESS GREY TO AF\npsst\nENDPRESS",
    );
    assert_eq!(press_readers(&s), addrs(&["Austria", "France"]));
    for a in [addr("Austria"), addr("France")] {
        having(&s, &a, ": press")[0]
            .says(&["psst"])
            .never_says(&["From Italy"]);
    }
    // TO M: the GM alone.
    let s = nj(
        &mut post,
        "Italy",
        "press",
        "PRESS TO M\nmore time?\nENDPRESS",
    );
    assert!(press_readers(&s).is_empty(), "{:?}", s.got);
    assert!(
        having(&s, GM, "press")
            .iter()
            .any(|m| m.mentions("more time?"))
    );
    // ENDBROADCAST ends a BROADCAST: the order after it is an order, and
    // SIGNOFF ends the mail (the signature is not read).
    let s = nj(
        &mut post,
        "Italy",
        "broadcast",
        "BROADCAST\nWe come in peace.\nENDBROADCAST\nA Ven-Tyr\nSIGNOFF\nItaly's king",
    );
    assert_eq!(
        press_readers(&s),
        addrs(&[
            "Austria", "England", "France", "Germany", "Russia", "Turkey"
        ])
    );
    for m in s.all("nj: press") {
        m.never_says(&["A Ven-Tyr", "king", "SIGNOFF"]);
    }
    s.reply()
        .lines(&["A(Ven)-Tyr"])
        .says(&["reads nothing after SIGNOFF"]);
    // SIGNOFF ends press too.
    let s = nj(
        &mut post,
        "Russia",
        "press",
        "PRESS TO T\nnote\nSIGNOFF\nA Mos-Ukr",
    );
    assert_eq!(press_readers(&s), addrs(&["Turkey"]));
    for m in s.all("nj: press") {
        m.never_says(&["A Mos-Ukr"]);
    }
    // ENDBROADCAST ends PRESS as well; the end of the mail ends press.
    let s = nj(
        &mut post,
        "Austria",
        "press",
        "PRESS TO I\nsecret\nENDBROADCAST\nF Tri-Alb",
    );
    assert_eq!(press_readers(&s), addrs(&["Italy"]));
    s.reply().lines(&["F(Tri)-Alb"]);
    let s = nj(&mut post, "Turkey", "press", "PRESS TO R\nlast words");
    assert_eq!(press_readers(&s), addrs(&["Russia"]));
    post.finish(std::time::Duration::from_secs(2));
}

/// The player's njudge SETs: `SET DRAW` / `SET NO DRAW` (draw votes), `SET
/// CONCEDE A` / `SET NO CONCEDE`, `SET ABSENCE 24 DEC TO 6 JAN` / `SET
/// NOABSENCE`, `SET NO PRESS` (the GM's), `SET WAIT` / `SET NOWAIT`
/// (refused naming READY); and the GM's `SET MOVES NEXT 48.0` and `SET
/// DEADLINE Dec 2 23:30`.
#[test]
fn njudge_set_draw_concede_absence_no_press_wait_nowait_moves_next_and_dates() {
    let ms =
        mail_system!("njudge_set_draw_concede_absence_no_press_wait_nowait_moves_next_and_dates");
    let tmp = TempDir::new("nj-set");
    let j = judge(&ms, &tmp);
    let w = watched();
    let refs: Vec<&str> = w.iter().map(String::as_str).collect();
    let mut post = Post::new(&ms, &j, "zinejudge test", &refs);
    started(&mut post);
    let it = "Italy";
    nj(&mut post, it, "draw", "SET DRAW")
        .reply()
        .says(&["You vote for a draw."]);
    nj(&mut post, it, "draw", "SET NO DRAW")
        .reply()
        .says(&["You withdraw your draw vote."]);
    nj(&mut post, it, "concede", "SET CONCEDE A")
        .reply()
        .says(&["You concede victory to Austria."]);
    nj(&mut post, it, "concede", "SET NO CONCEDE")
        .reply()
        .says(&["You withdraw your concession."]);
    nj(&mut post, it, "away", "SET ABSENCE 24 DEC TO 6 JAN")
        .reply()
        .says(&["Absence recorded:", "24 Dec", "to", "07 Jan", "00:00 UTC"]);
    nj(&mut post, it, "back", "SET NOABSENCE 24 Dec")
        .reply()
        .says(&["Absence taken back"]);
    nj(&mut post, it, "quiet", "SET NO PRESS")
        .reply()
        .says(&["only the GM may do that"]);
    nj(&mut post, it, "wait", "SET WAIT")
        .reply()
        .says(&["Wait: the phase waits for you until the deadline"]);
    nj(&mut post, it, "nowait", "SET NOWAIT")
        .reply()
        .says(&["No wait: once your orders are complete you are ready"]);
    let s = gm(&mut post, "length", "SET MOVES NEXT 48.0");
    s.reply()
        .says(&["Set: movement phases last 48h (this judge's SET PHASE LENGTH)"]);
    let s = gm(&mut post, "deadline", "SET DEADLINE Dec 2 23:30");
    s.reply()
        .says(&["The deadline is now", "02 Dec", "23:30 UTC"]);
    for p in POWERS {
        having(&s, &addr(p), "new deadline")[0].says(&["02 Dec", "23:30"]);
    }
    let s = gm(&mut post, "no press", "SET NO PRESS");
    s.reply().says(&["SET PRESS NONE"]);
    post.finish(std::time::Duration::from_secs(2));
}

/// The GM's njudge and DPjudge words: `FORCE BEGIN`, `PREDICT`,
/// `TERMINATE` (refused, naming END DRAW and END WIN), `ACTIVATE`,
/// `BECOME power`, `STATUS` and `MAP` (refused naming LIST and the
/// results' map), `GET PACKAGE`, `VERSION`, `DIARY ... ENDPRESS`,
/// DPjudge's `TAKEOVER master@game password`.
#[test]
fn njudge_force_begin_predict_terminate_activate_become_status_map_get_version_diary_takeover() {
    let ms = mail_system!(
        "njudge_force_begin_predict_terminate_activate_become_status_map_get_version_diary_takeover"
    );
    let tmp = TempDir::new("nj-gm");
    let j = judge(&ms, &tmp);
    let w = watched();
    let refs: Vec<&str> = w.iter().map(String::as_str).collect();
    let mut post = Post::new(&ms, &j, "zinejudge test", &refs);
    post.mail(
        GM,
        "new",
        &format!("CREATE {GAME} standard {GM_PW}\nSET ASSIGNMENT FIRST-COME"),
    );
    post.mail(
        &addr("England"),
        "join",
        &format!("JOIN {GAME} {} England", pw("England")),
    );
    let s = gm(&mut post, "begin", "FORCE BEGIN");
    s.reply()
        .says(&["FORCE BEGIN is this judge's START", "has started"]);
    gm(&mut post, "predict", "PREDICT")
        .reply()
        .says(&["A preview with the current orders"]);
    gm(&mut post, "terminate", "TERMINATE")
        .reply()
        .says(&["END DRAW", "END WIN"]);
    gm(&mut post, "pause", "PAUSE\nACTIVATE")
        .reply()
        .says(&["ACTIVATE is this judge's RESUME"]);
    let s = gm(&mut post, "become", "BECOME England\nF Lon-ENG");
    s.reply().lines(&["F(Lon)-ENG"]);
    having(&s, &addr("England"), "the GM acted for your power")[0].says(&["BECOME England"]);
    // STATUS and MAP are this judge's: the board as text, and the map.
    gm(&mut post, "status", &format!("STATUS {GAME}"))
        .reply()
        .says(&[&format!(
            "{GAME} (Standard Diplomacy): Spring 1901 movement."
        )]);
    gm(&mut post, "map", &format!("MAP {GAME}"))
        .reply()
        .says(&["England: 3 centres, 3 units"]);
    post.mail(NEWCOMER, "get", "GET PACKAGE")
        .reply()
        .says(&["Commands are lines of a mail"]);
    post.mail(NEWCOMER, "version", "VERSION")
        .reply()
        .says(&["runs zinejudge"]);
    let s = nj(
        &mut post,
        "England",
        "diary",
        "DIARY\nA Lon-Yor, they will never see it coming\nENDPRESS\nA Lvp-Yor",
    );
    s.reply()
        .says(&["Kept as diary entry 1 (1 line), sent to nobody now"])
        .lines(&["A(Lvp)-Yor"])
        .never_says(&["A(Lon)-Yor"]);
    let s = post.mail(
        NEWCOMER,
        "takeover",
        &format!("TAKEOVER master@{GAME} {GM_PW}"),
    );
    s.reply().never_says(&[GM_PW]);
    assert_eq!(having(&s, GM, "a new GM").len(), 1, "{:?}", s.got[GM]);
    post.finish(std::time::Duration::from_secs(2));
}

/// njudge's `PHASE season year phase`: orders under it are kept for that
/// phase, shown as such, replaced by a later mail for it, never applied to
/// another phase, and checked when it comes (its refusals mailed then):
/// a retreat and builds sent ahead, and a retreat for a phase that never
/// came.
#[test]
fn njudge_phase_season_year_phase_orders_across_a_retreat_and_an_adjustment() {
    let ms =
        mail_system!("njudge_phase_season_year_phase_orders_across_a_retreat_and_an_adjustment");
    let tmp = TempDir::new("nj-phase");
    let j = judge(&ms, &tmp);
    let w = watched();
    let refs: Vec<&str> = w.iter().map(String::as_str).collect();
    let mut post = Post::new(&ms, &j, "zinejudge test", &refs);
    started(&mut post);
    // Spring 1901: an order now, and one for Fall under PHASE: the Fall
    // order does not replace the Spring one.
    let s = nj(
        &mut post,
        "Germany",
        "orders",
        "A Mun H\nPHASE Fall 1901 Movement\nA Mun-Ruh",
    );
    s.reply()
        .says(&[
            "Kept for Fall 1901 movement",
            "Orders kept for later phases",
        ])
        .never_says(&["replaces"]);
    nj(&mut post, "Russia", "orders", "A War-Gal");
    nj(&mut post, "Austria", "orders", "F Tri-Alb");
    // Russia's retreat sent ahead, then replaced by a later mail.
    nj(
        &mut post,
        "Russia",
        "ahead",
        "PHASE Fall 1901 Retreat\nA Gal-Sil",
    )
    .reply()
    .says(&["Kept for Fall 1901 retreat"]);
    nj(&mut post, "Russia", "ahead", "PHASE F 1901 R\nA Gal-Ukr")
        .reply()
        .says(&["replaces A(Gal)-Sil (an earlier mail)"]);
    // Austria's builds sent ahead, one of them bad.
    nj(
        &mut post,
        "Austria",
        "ahead",
        "PHASE Winter 1901 Builds\nBuild A Vie\nBuild F Tri",
    )
    .reply()
    .says(&["Kept for Winter 1901 adjustment"]);
    // Italy's retreat for a retreat phase that will not be.
    nj(
        &mut post,
        "Italy",
        "ahead",
        "PHASE Spring 1901 Retreat\nA Ven-Tyr",
    );
    // Spring is played: Germany held in Munich (the Fall order was not
    // used), Italy is told its retreat was not used.
    let s = gm(&mut post, "process", "PROCESS");
    let results = having(&s, &addr("Germany"), "Spring 1901")[0];
    results.says(&["A(Mun) H"]).never_says(&["A(Mun)-Ruh"]);
    having(&s, &addr("Italy"), "not used")[0].says(&["A(Ven)-Tyr"]);
    // Fall 1901: Austria dislodges Russia's army in Galicia. Russia's
    // retreat is no order for the movement.
    nj(&mut post, "Russia", "fall", "A Gal H")
        .reply()
        .never_says(&["replaces"]);
    nj(
        &mut post,
        "Austria",
        "fall",
        "A Bud-Gal\nA Vie S A Bud-Gal\nF Alb-Gre",
    );
    let s = gm(&mut post, "process", "PROCESS");
    having(&s, &addr("Russia"), "sent ahead")[0].says(&["A(Gal)-Ukr", "Your orders are complete"]);
    // Fall's retreats: played as sent, at once (the order kept for them
    // was the only one they waited for); Winter's builds come in, the one
    // in occupied Vienna refused, and the refusal mailed to Austria.
    having(&s, &addr("Russia"), "retreats")[0].says(&["Ukr"]);
    having(&s, &addr("Austria"), "sent ahead")[0].says(&["Build F(Tri)", "Not accepted"]);
    post.finish(std::time::Duration::from_secs(2));
}

/// njudge's conditional orders for a later phase, through the real mail
/// servers: under `PHASE Fall 1901 Movement`, `IF Russian A Gal THEN` ...
/// `ELSE` ... `ENDIF` is kept, and when Fall comes the branch its board
/// holds (Russia walked into Galicia in Spring) is played; a refused
/// `PHASE Spring 1907` leaves the orders below it for nothing, and the
/// Spring orders stand.
#[test]
fn njudge_phase_if_else_endif_played_by_the_board_fall_begins_with() {
    let ms = mail_system!("njudge_phase_if_else_endif_played_by_the_board_fall_begins_with");
    let tmp = TempDir::new("nj-if");
    let j = judge(&ms, &tmp);
    let w = watched();
    let refs: Vec<&str> = w.iter().map(String::as_str).collect();
    let mut post = Post::new(&ms, &j, "zinejudge test", &refs);
    started(&mut post);
    nj(&mut post, "France", "spring", "A Par-Bur");
    nj(
        &mut post,
        "France",
        "too far",
        "PHASE Spring 1907\nA Par-Pic",
    )
    .reply()
    .says(&["which was not done, so they are orders for nothing"])
    .never_says(&["A(Par)-Pic"]);
    nj(
        &mut post,
        "France",
        "fall",
        "PHASE Fall 1901 Movement\nIF Russian A Gal THEN\nA Bur-Mun\nELSE\nA Bur-Bel\nENDIF",
    )
    .reply()
    .says(&["Kept for Fall 1901 movement", "IF Russian A Gal", "ELSE"]);
    nj(&mut post, "Russia", "spring", "A War-Gal");
    let s = gm(&mut post, "process", "PROCESS");
    having(&s, &addr("France"), "Spring 1901")[0]
        .says(&["A(Par)-Bur"])
        .never_says(&["Pic"]);
    having(&s, &addr("France"), "sent ahead")[0]
        .says(&["A(Bur)-Mun"])
        .never_says(&["A(Bur)-Bel"]);
    let s = gm(&mut post, "process", "PROCESS");
    having(&s, &addr("France"), "Fall 1901")[0]
        .says(&["A(Bur)-Mun"])
        .never_says(&["A(Bur)-Bel"]);
    post.finish(std::time::Duration::from_secs(2));
}
