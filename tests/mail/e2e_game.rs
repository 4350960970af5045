//! A whole game through the real mail servers and the real daemon: a GM
//! creates a standard game with a game clock (deadlines at 18:00), an
//! observer watches, seven players join with preference lists (two want
//! the same power and nothing else: one gets it by the draw, the other the
//! power left, told it may decline) and each gets a start mail saying
//! which power is theirs, with the board and the map; then two game years
//! are played by mail with orders (a refusal showing where the unit can
//! go), press kept as written
//! (blank lines, indentation, a long line broken only where too long),
//! every form of deadline a GM writes (a date and time, `+48h` from the
//! deadline, a weekday, minutes, `in 48h` from now, a time the clocks skip
//! and one they repeat), an absence that the GM lets move the deadline, a
//! late player reminded with the new deadline, called late by the judge's
//! clock and then held in civil disorder (told to its player, shown to the
//! others, its READY not counting) who comes back by sending orders (the
//! others told); a phase held by a player's SET WAIT and let go by SET
//! NOWAIT, complete orders being ready without READY, with the next
//! deadline on the game clock after that early processing; a retreat
//! phase that goes at once when its only retreat is ordered (a wrong one
//! refused with where the unit can go); a replacement welcomed with the
//! whole board, the map and the latest press; a player's name and the
//! roster (WHOGAME); builds and removals; a rollback; MAP; the GM's
//! PROCESS before the deadline that calls nobody late; and a draw vote
//! whose game-over mail holds the final chart, who played (the replaced
//! player too) and the centres year by year.
//!
//! Everything goes through Dovecot and Postfix on 127.0.0.1
//! (tests/support/mailsys.rs) and `zinejudge run` as a child process
//! (tests/daemon_common): players send over SMTP, the judge reads its
//! mailbox over IMAPS and answers through submission, and the test reads
//! every address's INBOX over IMAPS. After each step the test says exactly
//! which mails each address got (tests/e2e_support), and checks the lines a
//! player would look for in them.
//!
//! Real time is waited on only where the scenario needs the clock: the
//! reminder, the deadline passing and the end of grace (the daemon ticks
//! every 5 s). The rest of the game runs on READY and GM commands.
//!
//! Without the mail servers the test prints why and passes, unless `CI` is
//! set: then it fails.

use crate::daemon_common;
use crate::e2e_support;
use crate::support;
use daemon_common::{Judge, Opts, TempDir};
use e2e_support::{Mail, Post, Step};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use support::MailSystem;

const GAME: &str = "g1";
const GM: &str = "gm@example.test";
const GM_PW: &str = "gm-secret";
const OBSERVER: &str = "kibitzer@example.test";
const LATECOMER: &str = "latecomer@example.test";
const SPY: &str = "spy@example.test";
const NEW_AUSTRIA: &str = "newaustria@example.test";
const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];
const JUDGE_NAME: &str = "zinejudge e2e";
/// A line of press longer than a mail line: wrapped where it is too long,
/// and only there.
const LONG_PRESS_LINE: &str = "Whoever took Belgium last time swore on the North Sea \
     that it would never happen again, and here we are.";
/// The game's time zone, which has summer time.
const ZONE: &str = "Europe/London";
/// How long the clock-driven steps may take: a tick is every 5 s, and a
/// deadline set `in 20s` is kept on the next whole minute (up to 80 s).
const CLOCK_WAIT: Duration = Duration::from_secs(120);

/// The game clock's time of day (`SET CLOCK 18:00`), in the game's zone.
const CLOCK_HOUR: i8 = 18;

/// The deadline the game clock gives a phase of `hours` opening at
/// `start`: the first 18:00 in the game's zone at least `hours` later, as
/// the judge shows it.
fn on_clock(start: jiff::Timestamp, hours: i64) -> String {
    let tz = jiff::tz::TimeZone::get(ZONE).expect("a known zone");
    let earliest = start + jiff::SignedDuration::from_hours(hours);
    let local = earliest.to_zoned(tz.clone());
    let at = |d: jiff::civil::Date| {
        tz.to_ambiguous_zoned(d.at(CLOCK_HOUR, 0, 0, 0))
            .compatible()
            .expect("18:00 exists")
            .timestamp()
    };
    let today = at(local.date());
    let t = if today >= earliest {
        today
    } else {
        at(local.date() + jiff::Span::new().days(1))
    };
    shown_deadline(t)
}

/// Check that `deadline` (as a results mail shows it) is the game clock's
/// for a phase of `hours` opened between `before` and `after`.
#[track_caller]
fn clock_deadline(deadline: &str, hours: i64, before: jiff::Timestamp, after: jiff::Timestamp) {
    let want: Vec<String> = [before, after]
        .iter()
        .map(|t| on_clock(*t, hours))
        .collect();
    assert!(
        want.iter().any(|w| deadline.trim_end_matches('.') == w),
        "the deadline {deadline:?} is not the clock's: {want:?}"
    );
}

fn first_address(power: &str) -> String {
    format!("{}@example.test", power.to_lowercase())
}

/// Who plays each power now: address and game password.
struct Seats(BTreeMap<&'static str, (String, String)>);

impl Seats {
    fn addr(&self, power: &str) -> String {
        self.0[power].0.clone()
    }
    fn all_addrs(&self) -> Vec<String> {
        POWERS.iter().map(|p| self.addr(p)).collect()
    }
    /// A mail from `power`'s player: sign on, then `lines`.
    fn signed(&self, power: &str, lines: &str) -> (String, String) {
        let (a, pw) = &self.0[power];
        (a.clone(), format!("SIGNON {power} {GAME} {pw}\n{lines}"))
    }
}

/// `(address, subjects)` for each of `addrs`: the same subjects for all.
fn each<'a>(addrs: &'a [String], subjects: &'a [&'a str]) -> Vec<(&'a str, &'a [&'a str])> {
    addrs.iter().map(|a| (a.as_str(), subjects)).collect()
}

/// Check that every copy of the results mail `subject` in `step` is the
/// same text with the map attached, that exactly `readers` got it, and
/// return one copy.
#[track_caller]
fn results<'s>(step: &'s Step, subject: &str, readers: &[String], short: &str) -> &'s Mail {
    let copies = step.all(subject);
    let mut got: Vec<&str> = copies.iter().map(|m| m.owner.as_str()).collect();
    got.sort();
    let mut want: Vec<&str> = readers.iter().map(String::as_str).collect();
    want.sort();
    assert_eq!(got, want, "{subject}: who got the results");
    let first = copies[0];
    for c in &copies {
        assert_eq!(
            c.body, first.body,
            "{subject}: {} got another text",
            c.owner
        );
        let names: Vec<&str> = c.attachments.iter().map(|a| a.name.as_str()).collect();
        // The judge's default ([report] picture = "png").
        assert_eq!(
            names,
            [format!("{GAME}-{short}.png").as_str()],
            "{subject}: the map comes with the results"
        );
        assert_eq!(c.attachments[0].mime, "image/png");
        assert!(c.attachments[0].size > 20_000, "{subject}: a real picture");
    }
    first
}

/// `t` as the judge shows times: `Sat 28 Nov 2026 18:00 GMT`.
fn shown(t: jiff::Timestamp, zone: &str) -> String {
    let tz = jiff::tz::TimeZone::get(zone).expect("a known zone");
    t.to_zoned(tz).strftime("%a %d %b %Y %H:%M %Z").to_string()
}

/// `t` as the judge shows a deadline (issue #51): in the game's zone,
/// then in UTC once, its clock time alone when the day is the same
/// there (`Sun 01 Jun 2031 18:00 BST (17:00 UTC)`); the zone's time alone
/// where it is UTC's (`Sat 28 Nov 2026 18:00 GMT`).
fn shown_deadline(t: jiff::Timestamp) -> String {
    let tz = jiff::tz::TimeZone::get(ZONE).expect("a known zone");
    let here = t.to_zoned(tz);
    if here.offset().seconds() == 0 {
        return shown(t, ZONE);
    }
    let utc = t.to_zoned(jiff::tz::TimeZone::UTC);
    let there = if utc.date() == here.date() {
        utc.strftime("%H:%M UTC").to_string()
    } else {
        utc.strftime("%a %d %b %H:%M UTC").to_string()
    };
    format!("{} ({there})", shown(t, ZONE))
}

/// The next Saturday 18:00 in the game's zone, after now.
fn next_saturday_six_pm() -> jiff::Timestamp {
    let tz = jiff::tz::TimeZone::get(ZONE).expect("a known zone");
    let now = jiff::Timestamp::now();
    let today = now.to_zoned(tz.clone()).date();
    (0..8)
        .map(|ahead| today + jiff::Span::new().days(ahead))
        .filter(|d| d.weekday() == jiff::civil::Weekday::Saturday)
        .filter_map(|d| {
            tz.to_ambiguous_zoned(d.at(18, 0, 0, 0))
                .compatible()
                .ok()
                .map(|z| z.timestamp())
        })
        .find(|t| *t > now)
        .expect("a Saturday within a week")
}

/// The GM sets the deadline with `form`: the reply states the time as
/// `want` (in the game's zone, and in UTC where that is another time),
/// and everybody else is told the new deadline so.
#[track_caller]
fn set_deadline(post: &mut Post, everyone: &[String], form: &str, want: &str) -> Step {
    let s = post.mail(
        GM,
        &format!("deadline {form}"),
        &format!("SIGNON GM {GAME} {GM_PW}\nSET DEADLINE {form}"),
    );
    s.expect(&each(everyone, &["g1: new deadline"]));
    s.reply()
        .lines(&[&format!("> SET DEADLINE {form}")])
        .says(&[&format!("The deadline is now {want}.")]);
    for m in s.all("g1: new deadline") {
        m.says(&[&format!("The GM moved the deadline to {want}.")]);
    }
    s
}

/// A mail from the GM: sign on, then `lines`.
fn gm_on(lines: &str) -> String {
    format!("SIGNON GM {GAME} {GM_PW}\n{lines}")
}

/// Spring 1902's orders the first time: Austria and Turkey bounce in
/// Serbia. After the rollback every power but Turkey sends them again.
const S1902_FIRST: [(&str, &str); 7] = [
    ("Austria", "A Bud-Ser\nF Tri H"),
    ("England", "F NTH H"),
    ("France", "A Bur H"),
    ("Germany", "A Mun H"),
    ("Italy", "A Vie H"),
    ("Russia", "A Gal H"),
    ("Turkey", "A Bul-Ser\nF BLA H"),
];

/// The game as the test plays it: the mail it sends and reads, and who
/// plays each power now.
struct Game<'a> {
    post: Post<'a>,
    seats: Seats,
}

impl<'a> Game<'a> {
    /// Seven players, each with their first address and a password, and
    /// every address the test watches (the GM, the observer, a latecomer,
    /// a spy, the players and Austria's replacement).
    fn new(ms: &'a MailSystem, judge: &'a Judge) -> Game<'a> {
        let seats = Seats(
            POWERS
                .iter()
                .map(|p| (*p, (first_address(p), format!("pw-{}", p.to_lowercase()))))
                .collect(),
        );
        let mut watched: Vec<String> =
            vec![GM.into(), OBSERVER.into(), LATECOMER.into(), SPY.into()];
        watched.extend(seats.all_addrs());
        watched.push(NEW_AUSTRIA.into());
        let watched_refs: Vec<&str> = watched.iter().map(String::as_str).collect();
        let post = Post::new(ms, judge, JUDGE_NAME, &watched_refs);
        Game { post, seats }
    }

    /// The players who play now, and the observer: who hears of a new
    /// deadline, a rollback or another player's news.
    fn everyone(&self) -> Vec<String> {
        let mut everyone = self.seats.all_addrs();
        everyone.push(OBSERVER.into());
        everyone
    }

    /// Who reads the results: [`Game::everyone`] and the GM. (After the
    /// replacement, the new Austrian player.)
    fn readers(&self) -> Vec<String> {
        let mut readers = self.everyone();
        readers.push(GM.into());
        readers
    }

    /// The GM creates a standard game on a game clock (press grey, civil
    /// disorder for silent powers, reminders); an observer signs up before
    /// the start.
    fn gm_creates_the_game_and_an_observer_signs_up(&mut self) {
        // ---- The GM creates the game and sets it up.
        let s = self.post.mail(
            GM,
            "new game",
            &format!(
                "CREATE {GAME} standard {GM_PW}\nSET NMR CD\nSET PRESS GREY\n\
                 SET TIMEZONE Europe/London\nSET PHASE LENGTH 72h 48h\nSET REMINDER 90m\n\
                 SET CLOCK 18:00"
            ),
        );
        s.expect(&[]);
        s.reply()
            .says(&[
                "Created g1 (Standard Diplomacy); you are its GM and signed on.",
                "Set: a power without orders at the deadline goes into civil disorder (NMR CD).",
                "Set: press may be grey: sent without the sender's name.",
                "Set: time zone Europe/London.",
                "Set: movement phases last 72h, retreats and adjustments 48h.",
                "Set: reminders 1h30m before the deadline.",
                "Set: deadlines fall at 18:00 (Europe/London), every day, the first such time once the phase's length has passed.",
            ])
            .lines(&["> CREATE g1 standard ********"])
            .never_says(&[GM_PW]);

        // ---- An observer signs up before the start.
        let s = self
            .post
            .mail(OBSERVER, "watching", &format!("OBSERVE {GAME}"));
        s.expect(&[]);
        s.reply().says(&["You will receive this game's results."]);
    }

    /// Seven players join with the powers they want, best first; the last
    /// JOIN starts the game, and each player's start mail says which power is
    /// theirs. The seats follow the start mails from here on.
    fn seven_players_join_with_their_wishes(&mut self) {
        // ---- Seven players join, each with the powers they want, best
        // first. Russia's and Turkey's players both name Russia, Turkey's
        // player as the first of two: the most wishes met gives each their own.
        // Austria's and Italy's players both want Italy and nothing else: one
        // gets it by the draw, the other the power left, Austria.
        let wishes = [
            ("Austria", "Italy"),
            ("England", "England"),
            ("France", "France"),
            ("Germany", "Germany"),
            ("Italy", "Italy"),
            ("Russia", "Russia"),
            ("Turkey", "Russia, Turkey"),
        ];
        let mut start = None;
        for (i, (p, list)) in wishes.iter().enumerate() {
            let (addr, pw) = self.seats.0[p].clone();
            let s = self
                .post
                .mail(&addr, "joining", &format!("JOIN {GAME} {pw} {list}"));
            let asked = list.replace(',', "");
            let asked: Vec<&str> = asked.split_whitespace().collect();
            s.get(GM, "g1: players joining").says(&[&format!(
                "{addr} joined g1, asking for {}: {} of 7 seats taken, {} open.",
                asked.join(", "),
                i + 1,
                6 - i
            )]);
            s.reply()
                .says(&[
                    &format!("You have joined g1, asking for {}.", asked.join(", ")),
                    "The powers are given when the game starts",
                ])
                .never_says(&[&pw]);
            if i < 6 {
                s.expect(&[(GM, &["g1: players joining"])]);
            } else {
                start = Some(s);
            }
        }
        // The last JOIN starts the game: each player is told which power is
        // theirs, the GM and the observer get the overview.
        let s = start.expect("the last JOIN");
        let players = self.seats.all_addrs();
        let mut want: Vec<(&str, &[&str])> = each(&players, &["g1: you are *"]);
        want.push((GM, &["g1: players joining", "g1: the game starts"]));
        want.push((OBSERVER, &["g1: the game starts"]));
        s.expect(&want);
        s.reply()
            .lines(&["g1 has started: Spring 1901 movement."])
            .says(&["Deadline: "]);
        for m in s.all("g1: the game starts") {
            m.lines(&["g1 (Standard Diplomacy) has started.", "Powers:"])
                .says(&[
                    "First phase: Spring 1901 movement, deadline",
                    "Russia: 4 centres, 4 units",
                ]);
        }
        // The GM learns who plays each power (issue #51 item 4); the
        // observer sees the roster as WHO shows it, without addresses.
        let gm = s.get(GM, "g1: the game starts");
        for a in &players {
            gm.says(&[&format!("<{a}>")]);
        }
        s.get(OBSERVER, "g1: the game starts")
            .never_says(&["@example.test"]);
        // Who plays what: the start mails say, and the seats follow them.
        let passwords: BTreeMap<String, String> = self.seats.0.values().cloned().collect();
        let mut given: BTreeMap<&'static str, (String, String)> = BTreeMap::new();
        for (_, (addr, pw)) in self.seats.0.iter() {
            let m = s.get(addr, "g1: you are *");
            let power = POWERS
                .iter()
                .copied()
                .find(|p| m.subject == format!("g1: you are {p}"))
                .unwrap_or_else(|| panic!("{}", m.subject));
            m.says(&[
                &format!("g1 (Standard Diplomacy) has started. You are {power}."),
                "Your units:",
                "Your centres:",
                "First phase: Spring 1901 movement",
                "Deadline:",
                "This phase will be adjudicated at the deadline",
                &format!("SIGNON {power} g1 <your password>"),
                "The board (the map is attached):",
                if power == "Russia" {
                    "Russia (you): 4 centres, 4 units"
                } else {
                    "Russia: 4 centres, 4 units"
                },
                &format!("{power} (you):"),
                "Unowned centres:",
                "The game's page:",
                "/games/g1",
            ])
            .never_says(&[pw]);
            let names: Vec<&str> = m.attachments.iter().map(|a| a.name.as_str()).collect();
            assert_eq!(
                names,
                ["g1-S1901M.png"],
                "{addr}: the map with the start mail"
            );
            given.insert(power, (addr.clone(), passwords[addr].clone()));
        }
        // Each wish that could be met was: Russia's and Turkey's players have
        // their own, and so does every player who alone asked for a power.
        for p in ["England", "France", "Germany", "Russia", "Turkey"] {
            assert_eq!(given[p].0, first_address(p), "{p}");
        }
        // Italy went to one of the two who asked for it, by the draw; the
        // other has Austria, which they did not ask for, and may decline it.
        let lucky = given["Italy"].0.clone();
        let other = given["Austria"].0.clone();
        let mut pair = [lucky.clone(), other.clone()];
        pair.sort();
        assert_eq!(pair, [first_address("Austria"), first_address("Italy")]);
        s.get(&other, "g1: you are Austria").says(&[
            "You asked for Italy, and that power went to other players.",
            "If you would rather not play Austria, sign on and send RESIGN before the first deadline",
        ]);
        s.get(&lucky, "g1: you are Italy")
            .never_says(&["You asked for"]);
        eprintln!("Italy went to {lucky} by the draw; Austria to {other}");
        self.seats.0 = given;
    }

    /// A latecomer tries to join the started game and is refused.
    fn a_latecomer_is_refused(&mut self) {
        // ---- Too late to join.
        let s = self
            .post
            .mail(LATECOMER, "me too", &format!("JOIN {GAME} pw-latecomer"));
        s.expect(&[]);
        s.reply().says(&["g1 is not taking players"]);
    }

    /// Spring 1901: England's player names itself and orders, with a typo
    /// and an order the judge explains.
    fn england_orders_with_a_typo(&mut self) {
        // ---- Spring 1901. England orders (with a typo the judge explains).
        let (a, body) = self.seats.signed(
            "England",
            "SET NAME Ann of England\nF(Lon)-NTH\nF Edi-Lon\nF Edi - Norwegian Sea\nA Lvp-Yrk\nA(Lvp)-Yor\nREADY",
        );
        let s = self.post.mail(&a, "orders S1901", &body);
        s.expect(&[]);
        s.reply()
            .says(&[
                "Signed on as England in g1 (Spring 1901 movement, deadline",
                "You are Ann of England in g1's roster.",
                "line 4: \"F Edi-Lon\"",
                "not adjacent, and no convoy route exists; F(Edi) can move to Cly (Clyde), NTH (North Sea), NWG (Norwegian Sea) or Yor (Yorkshire)",
                "line 6: \"A Lvp-Yrk\"",
                "Did you mean Yorkshire (Yor)?",
                "This phase will be adjudicated at the deadline",
                "Ready: the phase is processed as soon as every player is ready.",
            ])
            .lines(&[
                "Orders held for England, Spring 1901 movement:",
                "F(Lon)-NTH",
                "F(Edi)-NWG",
                "A(Lvp)-Yor",
                "Your orders are complete.",
            ]);
    }

    /// England's player sends press to France alone, then grey press to
    /// everybody, kept as written.
    fn england_sends_press(&mut self) {
        // England's press: to France alone, then grey to everybody.
        let (a, body) = self.seats.signed(
            "England",
            &format!(
                "PRESS TO France\nShall we split the Channel?\nENDPRESS\n\
             BROADCAST GREY\nSomebody is lying.\n\n    (and it is not me)\n{LONG_PRESS_LINE}\nENDPRESS"
            ),
        );
        let s = self.post.mail(&a, "press", &body);
        let press = ["g1: press"];
        let (au, ge, it, ru, tu) = (
            self.seats.addr("Austria"),
            self.seats.addr("Germany"),
            self.seats.addr("Italy"),
            self.seats.addr("Russia"),
            self.seats.addr("Turkey"),
        );
        s.expect(&[
            (&self.seats.addr("France"), &["g1: press", "g1: press"]),
            // The GM's copies of one mail's press come in one mail.
            (GM, &["g1: press (GM copy, 2 messages)"]),
            (OBSERVER, &press),
            (&au, &press),
            (&ge, &press),
            (&it, &press),
            (&ru, &press),
            (&tu, &press),
        ]);
        s.reply()
            .says(&["Press sent to France.", "Press sent to everybody."]);
        let to_france = s.of(&self.seats.addr("France"), "g1: press");
        let private = to_france
            .iter()
            .find(|m| m.mentions("Shall we split the Channel?"))
            .expect("France got England's press");
        private.lines(&["Press in g1", "From England, to France:"]);
        for m in s.all("g1: press") {
            if m.mentions("Somebody is lying.") {
                m.lines(&["(grey press: sender not shown), to everybody:"])
                    .never_says(&["England"]);
                // Kept as written: the blank line and the indentation, and
                // the one line longer than 72 columns broken there and nowhere
                // else (never re-flowed into its neighbours).
                assert!(
                    m.body.contains(
                        "Somebody is lying.\n\n    (and it is not me)\n\
                         Whoever took Belgium last time swore on the North Sea that it would\n\
                         never happen again, and here we are.\n"
                    ),
                    "{}: press not as written:\n{}",
                    m.owner,
                    m.body
                );
            } else {
                assert_eq!(m.owner, self.seats.addr("France"), "private press leaked");
            }
        }
        let gm_copies = s.of(GM, "g1: press (GM copy, 2 messages)");
        assert!(
            gm_copies
                .iter()
                .any(|m| m.has_line("From England, to France:")
                    && m.mentions("Shall we split the Channel?"))
        );
        assert!(
            gm_copies
                .iter()
                .any(|m| m.has_line("From England (sent grey), to everybody:")
                    && m.mentions("Somebody is lying."))
        );
    }

    /// Five more powers order and say they are ready (Austria is silent); a
    /// spy fails to sign on as Italy, and Italy's player hears of it.
    fn the_others_order_and_a_spy_fails(&mut self) {
        // Five more powers order and say they are ready; Austria is silent.
        for (p, orders) in [
            ("France", "F Bre-MAO\nA Par-Bur\nA Mar-Spa"),
            ("Germany", "F Kie-Den\nA Ber-Kie\nA Mun-Ruh"),
            ("Italy", "F Nap-ION\nA Rom-Apu\nA Ven-Tyr"),
            ("Russia", "F StP/sc-BOT\nA Mos-Ukr\nA War-Gal\nF Sev-BLA"),
            ("Turkey", "F Ank-BLA\nA Con-Bul\nA Smy-Arm"),
        ] {
            let (a, body) = self.seats.signed(p, &format!("{orders}\nREADY"));
            let s = self.post.mail(&a, &format!("{p} S1901"), &body);
            s.expect(&[]);
            s.reply()
                .lines(&[
                    &format!("Orders held for {p}, Spring 1901 movement:"),
                    "Your orders are complete.",
                ])
                .says(&["Ready: the phase is processed as soon as every player is ready."])
                .never_says(&["has been processed"]);
        }
        // Someone tries to read Italy's orders: the same words for a wrong
        // password as for a power that does not exist; Italy's player is told
        // of the attempt, nobody else.
        let s = self.post.mail(
            SPY,
            "hello",
            &format!("SIGNON Italy {GAME} wrong\nA Apu-Nap"),
        );
        s.expect(&[(&self.seats.addr("Italy"), &["Italy in g1: failed sign-on"])]);
        s.reply()
            .says(&["sign-on failed: the game, power or password is not right"])
            .never_says(&["Orders held"]);
        let s = self
            .post
            .mail(SPY, "hello again", &format!("SIGNON Atlantis {GAME} wrong"));
        s.expect(&[]);
        s.reply()
            .says(&["sign-on failed: the game, power or password is not right"]);
    }

    /// The GM sets the deadline as a date and with `+48h`; Italy's and
    /// France's players announce absences, and the GM lets absences move
    /// deadlines.
    fn gm_sets_deadlines_and_players_go_away(&mut self) {
        // ---- Deadlines as a GM writes them. Each reply states the time in
        // the game's zone and in UTC; everybody else hears of the new one.
        let mut everyone = self.seats.all_addrs();
        everyone.push(OBSERVER.into());
        // An absolute date and time, in the game's zone (summer time then).
        set_deadline(
            &mut self.post,
            &everyone,
            "2031-06-01 18:00",
            "Sun 01 Jun 2031 18:00 BST (17:00 UTC)",
        );
        // `+48h` moves the current deadline, whenever it is sent.
        set_deadline(
            &mut self.post,
            &everyone,
            "+48h",
            "Tue 03 Jun 2031 18:00 BST (17:00 UTC)",
        );

        // ---- Absences. Italy's player will be away; the GM is told, and
        // nothing moves (this game does not let absences move deadlines yet).
        let (a, body) = self
            .seats
            .signed("Italy", "SET ABSENCE 2031-07-01 TO 2031-07-14");
        let s = self.post.mail(&a, "holidays", &body);
        s.expect(&[(GM, &["g1: Italy will be away"])]);
        s.reply().says(&[
            "Absence recorded: Tue 01 Jul 2031 00:00 BST to Tue 15 Jul 2031 00:00 BST.",
            "absences do not move deadlines; the GM has been told.",
        ]);
        s.get(GM, "g1: Italy will be away").says(&[
            "The player of Italy in g1 will be away Tue 01 Jul 2031 00:00 BST to Tue 15 Jul 2031 00:00 BST.",
        ]);
        // The GM lets absences move deadlines; France's player will be away
        // across the deadline. That deadline is the GM's own (SET DEADLINE
        // above), which absences never move: France is told so, and the GM
        // hears of the absence. (A deadline set as a phase starts does move:
        // tests/judge/commands_lifecycle.rs and tests/judge/trust.rs.)
        let s = self.post.mail(GM, "absences", &gm_on("SET ABSENCES ON 7d"));
        s.expect(&[]);
        s.reply().says(&[
            "Set: a deadline inside a player's absence moves to its end, by at most 7 days.",
        ]);
        let (a, body) = self
            .seats
            .signed("France", "SET ABSENCE 2031-06-02 TO 2031-06-05");
        let s = self.post.mail(&a, "away", &body);
        s.expect(&[(GM, &["g1: France will be away"])]);
        s.reply()
            .says(&[
                "Absence recorded: Mon 02 Jun 2031 00:00 BST to Fri 06 Jun 2031 00:00 BST.",
                "In g1 an absence moves a deadline inside it to its end, by at most 7 days.",
                "The deadline now was set by the GM (SET DEADLINE): absences do not move it; the GM has been told.",
            ])
            .never_says(&["The deadline moves to"]);
    }

    /// The GM writes more deadline forms: a time the clocks skip, one they
    /// repeat, minutes, a weekday and `in 48h` from now.
    fn gm_writes_deadlines_across_clock_changes(&mut self) {
        let everyone = self.everyone();
        // ---- More deadline forms. A time the clocks skip when summer time
        // starts is refused, and nothing changes.
        let s = self
            .post
            .mail(GM, "in the gap", &gm_on("SET DEADLINE 2032-03-28 01:30"));
        s.expect(&[]);
        s.reply()
            .says(&["2032-03-28 01:30 does not exist in Europe/London: the clocks go forward then"])
            .never_says(&["The deadline is now"]);
        // A time that happens twice when summer time ends: the first, with a
        // note saying so.
        let s = set_deadline(
            &mut self.post,
            &everyone,
            "2031-10-26 01:30",
            "Sun 26 Oct 2031 01:30 BST (00:30 UTC)",
        );
        s.reply().says(&[
            "Note: 2031-10-26 01:30 happens twice in Europe/London (the clocks go back then): the first, 01:30 BST, is taken.",
        ]);
        // Minutes, from the deadline: across the change back to winter time.
        set_deadline(
            &mut self.post,
            &everyone,
            "+90m",
            "Sun 26 Oct 2031 02:00 GMT",
        );
        // A weekday: the next Saturday 18:00 in the game's zone.
        let saturday = next_saturday_six_pm();
        set_deadline(
            &mut self.post,
            &everyone,
            "Saturday 18:00",
            &shown_deadline(saturday),
        );
        // `in 48h` counts from now (the minute the judge read the mail).
        let before = jiff::Timestamp::now();
        let from_now = |t: jiff::Timestamp| t + jiff::SignedDuration::from_hours(48);
        let mut candidates = Vec::new();
        let mut t = from_now(before);
        let s = self
            .post
            .mail(GM, "deadline in 48h", &gm_on("SET DEADLINE in 48h"));
        let after = from_now(jiff::Timestamp::now());
        while t <= after + jiff::SignedDuration::from_secs(60) {
            candidates.push(shown_deadline(t));
            t += jiff::SignedDuration::from_secs(60);
        }
        s.expect(&each(&everyone, &["g1: new deadline"]));
        let got = s.reply().after("The deadline is now");
        assert!(
            candidates
                .iter()
                .any(|c| got.trim_end_matches([',', '.']) == c.as_str()),
            "in 48h: got {got:?}, want one of {candidates:?}"
        );
    }

    /// The GM brings the deadline close: Austria's player, still without
    /// orders, has the reminder in the notice of it; then the judge's clock
    /// tells it and the GM that Austria is late. Returns when the clock's
    /// part began.
    fn the_clock_reminds_austria_and_calls_it_late(&mut self) -> Instant {
        let everyone = self.everyone();
        // ---- The GM brings the deadline close: everybody is told, and
        // Austria, and only Austria, reminded.
        let clock_start = Instant::now();
        let s = self
            .post
            .mail(GM, "deadline", &gm_on("SET DEADLINE in 20s"));
        // One GM mail, one mail to each (issue #51 item 5): Austria's
        // notice of the new deadline, which opens the reminder window,
        // carries the reminder.
        s.expect(&each(&everyone, &["g1: new deadline"]));
        let austria = self.seats.addr("Austria");
        s.reply().says(&["The deadline is now "]);
        for m in s.all("g1: new deadline") {
            m.says(&["The GM moved the deadline to "]);
            if m.owner == austria {
                m.says(&["Reminder: still missing for Austria: A(Bud), A(Vie), F(Tri)."]);
            } else {
                m.never_says(&["Reminder"]);
            }
        }

        // The deadline passes: Austria is told its orders are late, the GM
        // which powers are late; grace runs (24h by default).
        let s = self.post.clock(
            "the deadline passes",
            &[
                (&austria, "g1: your orders are late"),
                (GM, "g1: late powers"),
            ],
            CLOCK_WAIT,
        );
        s.expect(&[
            (&austria, &["g1: your orders are late"]),
            (GM, &["g1: late powers"]),
        ]);
        s.get(&austria, "g1: your orders are late").says(&[
            "The deadline of Spring 1901 movement in g1 has passed",
            "Orders are still taken until",
        ]);
        s.get(GM, "g1: late powers")
            .says(&["still missing orders: Austria."]);
        clock_start
    }

    /// The GM ends the grace period: Spring 1901 is adjudicated with Austria in
    /// civil disorder; its player's READY alone does not bring it back, and
    /// LIST shows it to anybody.
    fn austria_falls_into_civil_disorder(&mut self, clock_start: Instant) {
        let everyone = self.everyone();
        let austria = self.seats.addr("Austria");
        // The GM ends the grace period; the next tick adjudicates with Austria
        // in civil disorder, and the GM is told.
        let s = self.post.mail_then(
            GM,
            "no more grace",
            &gm_on("SET GRACE 0h"),
            &[(GM, "g1: Spring 1901 results")],
        );
        let mut readers = everyone.clone();
        readers.push(GM.into());
        // Everybody is told the GM changed a setting they play by.
        let mut want = each(
            &everyone,
            &["g1: Spring 1901 results", "g1: the GM changed the settings"],
        );
        want.retain(|(a, _)| *a != austria);
        let austria_wants = [
            "g1: Spring 1901 results",
            "g1: Austria is in civil disorder",
            "g1: the GM changed the settings",
        ];
        want.push((&austria, &austria_wants));
        let gm_wants = ["g1: Spring 1901 results", "g1: no orders from Austria"];
        want.push((GM, &gm_wants));
        s.expect(&want);
        s.reply().says(&["Set: grace period 0h."]);
        for m in s.all("g1: the GM changed the settings") {
            // A notice is signed and links to the game's page, as results do.
            m.lines(&[
                "The GM of g1 changed how the game is played:",
                "Grace period 0h.",
                "--",
            ])
            .says(&["The game's page:", "/games/g1"]);
        }
        eprintln!(
            "reminder, deadline and civil disorder by the clock: {:.1}s",
            clock_start.elapsed().as_secs_f64()
        );
        let r = results(&s, "g1: Spring 1901 results", &readers, "S1901M");
        r.lines(&[
            "g1: Spring 1901 results",
            "Austria:",
            "A(Vie) H no order",
            "A(Bud) H no order",
            "F(Tri) H no order",
            "England:",
            "F(Lon)-NTH",
            "F(Edi)-NWG",
            "A(Lvp)-Yor",
            "F(Ank)-BLA bounced with F(Sev)",
            "F(Sev)-BLA bounced with F(Ank)",
            "A(War)-Gal",
            "No orders received from: Austria.",
        ])
        .says(&[
            "Next: Fall 1901 movement, deadline",
            "In civil disorder: Austria (from this phase). Its units hold",
        ]);
        s.get(GM, "g1: no orders from Austria")
            .says(&["No orders came from Austria this phase; it is in civil disorder"]);
        // Civil disorder on the power's own side: its player is told, and its
        // READY alone does not count; LIST shows it to anybody.
        s.get(&austria, "g1: Austria is in civil disorder").says(&[
            "so Austria is now in civil disorder",
            "To take Austria back, sign on and send orders",
            "SIGNON Austria g1 <your password>",
            "The game's page:",
        ]);
        let s = self.post.mail(
            &austria,
            "ready",
            &format!("SIGNON Austria {GAME} {}\nREADY", self.seats.0["Austria"].1),
        );
        s.expect(&[]);
        s.reply().says(&[
            "Austria is in civil disorder: send orders to take it back.",
            "Not done: your power is in civil disorder, and READY alone does not bring it back",
        ]);
        let s = self.post.mail(OBSERVER, "list", &format!("LIST {GAME}"));
        s.expect(&[]);
        s.reply()
            .lines(&["Austria civil disorder centres 3, units 3"]);
    }

    /// Fall 1901: Austria's player comes back by ordering, Turkey's player
    /// holds the phase with SET WAIT, every order is in, and SET NOWAIT lets
    /// the phase go at once, with the next deadline on the game clock.
    fn fall_1901_austria_back_and_turkey_waits(&mut self) {
        // ---- Fall 1901: Austria's player comes back by sending orders (the
        // others are told); Italy dislodges Vienna with Russian support. Orders
        // that are complete are ready without READY; Turkey's player holds the
        // phase with SET WAIT, then lets it go with SET NOWAIT.
        let mut everyone = self.seats.all_addrs();
        everyone.push(OBSERVER.into());
        let mut readers = everyone.clone();
        readers.push(GM.into());
        let (a, body) = self.seats.signed("Austria", "A Vie H\nA Bud H\nF Tri H");
        let s = self.post.mail(&a, "Austria F1901", &body);
        let mut told = readers.clone();
        told.retain(|x| *x != a);
        s.expect(&each(&told, &["g1: Austria is back"]));
        s.reply().says(&[
            "Austria is no longer in civil disorder: the game waits for it again.",
            "Your orders are complete.",
        ]);
        for m in s.all("g1: Austria is back") {
            m.says(&[
                "Austria's player has sent orders again: Austria is no longer in civil disorder in g1.",
            ]);
        }
        let (a, body) = self
            .seats
            .signed("Turkey", "A Bul H\nF Ank-BLA\nA Arm H\nSET WAIT");
        let s = self.post.mail(&a, "Turkey F1901", &body);
        s.expect(&[]);
        s.reply().says(&[
            "Your orders are complete.",
            "Wait: the phase waits for you until the deadline",
        ]);
        for (p, orders) in [
            ("Italy", "A Tyr-Vie\nF ION-Tun\nA Apu H"),
            ("England", "F NTH C A Yor-Nwy\nA Yor-Nwy\nF NWG H"),
            ("France", "F MAO-Por\nA Spa H\nA Bur H"),
            ("Germany", "F Den H\nA Kie-Hol\nA Ruh-Bel"),
            (
                "Russia",
                "A Gal S A(Tyr)-Vie\nA Ukr-Rum\nF Sev H\nF BOT-Swe",
            ),
        ] {
            let (a, body) = self.seats.signed(p, orders);
            let s = self.post.mail(&a, &format!("{p} F1901"), &body);
            s.expect(&[]);
            s.reply()
                .says(&[
                    "Your orders are complete.",
                    "This phase will be adjudicated at the deadline",
                ])
                .never_says(&["has been processed"]);
        }
        // Every order is in; Turkey's WAIT alone holds the phase. SET NOWAIT
        // lets it go at once.
        let (a, body) = self.seats.signed("Turkey", "SET NOWAIT");
        let before = jiff::Timestamp::now();
        let s = self.post.mail(&a, "Turkey goes", &body);
        let after = jiff::Timestamp::now();
        s.expect(&each(&readers, &["g1: Fall 1901 results"]));
        s.reply().says(&[
            "No wait: once your orders are complete you are ready",
            "Every player in g1 is ready: the phase has been processed",
        ]);
        let r = results(&s, "g1: Fall 1901 results", &readers, "F1901M");
        r.lines(&[
            "A(Tyr)-Vie",
            "A(Gal) S A(Tyr)-Vie",
            "F(NTH) C A(Yor)-Nwy",
            "A(Yor)-Nwy",
            "F(BOT)-Swe",
            "Dislodged:",
        ])
        .says(&[
            "dislodged",
            "Austrian A(Vie) (attacked from Tyr): may retreat to",
            "Boh",
            "Next: Fall 1901 retreat, deadline",
        ])
        .never_says(&["No orders received", "In civil disorder"]);
        // The next deadline is the game clock's, after this early processing
        // too: 18:00 in the game's zone, at least the retreat's 48 hours on.
        clock_deadline(
            &r.after("Next: Fall 1901 retreat, deadline "),
            48,
            before,
            after,
        );
        // Chart timing: with a retreat to come, this chart is the one before
        // this move's captures, and says so.
        r.lines(&["Supply centres (this move's captures count after the retreats):"])
            .says(&["Russia 4, units 4: Mos Sev StP War"]);
    }

    /// The retreat: Austria's player orders a wrong retreat, then the right
    /// one, and the phase goes at once.
    fn austria_retreats(&mut self) {
        let readers = self.readers();
        // ---- The retreat: only Austria has a choice. A wrong retreat is
        // refused, with where the unit can go; the right one completes
        // Austria's orders, and the phase goes at once, without READY.
        let (a, body) = self.seats.signed("Austria", "A Vie - Gal\nA Vie-Boh");
        let s = self.post.mail(&a, "retreat", &body);
        s.expect(&each(&readers, &["g1: Fall 1901 retreats"]));
        s.reply().says(&[
            "line 2: \"A Vie - Gal\"",
            "a unit may only retreat to an adjacent, empty, uncontested province it was not attacked from; A(Vie) can retreat to Boh (Bohemia), or disband",
            "Your orders are complete.",
            "Every player in g1 is ready: the phase has been processed",
        ]);
        let r = results(&s, "g1: Fall 1901 retreats", &readers, "F1901R");
        r.lines(&["Retreats:", "Austria: A(Vie)-Boh"])
            .says(&["Next: Winter 1901 adjustment, deadline"]);
        // The centres changed hands at the end of the year, after the
        // retreats: the chart is in the retreat results, with no caveat.
        r.says(&["Italy 5 (+2)", "Russia 6 (+2)", "Austria 2 (-1)"])
            .lines(&["Supply centres:"])
            .never_says(&["count after the retreats"]);
    }

    /// Winter 1901: the GM gives Austria to a new address, which confirms and
    /// is welcomed with all it needs; the old player can no longer sign on.
    fn gm_replaces_austria(&mut self) {
        let austria = self.seats.addr("Austria");
        // ---- Winter 1901: the GM gives Austria to a new player. The address
        // is new to the judge, so it is offered the power first; when it
        // accepts, it gets a password and all it needs to play by mail, and
        // the old player, the GM and everybody else are told.
        let s = self.post.mail(
            GM,
            "replacement",
            &gm_on(&format!("REPLACE Austria {NEW_AUSTRIA}")),
        );
        s.expect(&[(NEW_AUSTRIA, &["zinejudge e2e: please confirm [CONFIRM *"])]);
        s.reply().says(&[
            "Austria is offered to newaustria@example.test: the judge has asked it whether it accepts. The power goes to that address when it accepts, and the offer lapses in 7 days.",
        ]);
        let offer = s.get(NEW_AUSTRIA, "zinejudge e2e: please confirm [CONFIRM *");
        offer
            .says(&["The GM of the game g1 at the Diplomacy judge zinejudge e2e would like you to take over Austria."])
            .never_says(&["Your password is"]);
        let code = offer.after("CONFIRM ");
        let s = self
            .post
            .mail(NEW_AUSTRIA, "yes please", &format!("CONFIRM {code}"));
        let mut told: Vec<String> = self.seats.all_addrs();
        told.retain(|a| *a != austria);
        told.push(OBSERVER.into());
        let mut want = each(&told, &["g1: Austria has a new player"]);
        want.push((&austria, &["g1: you no longer play Austria"]));
        want.push((GM, &["g1: Austria accepted"]));
        want.push((NEW_AUSTRIA, &["g1: you now play Austria"]));
        s.expect(&want);
        for m in s.all("g1: Austria has a new player") {
            m.says(&["The GM of g1 has given Austria to a new player."])
                .never_says(&[NEW_AUSTRIA]);
        }
        s.reply().says(&[
            "You now play Austria in g1: the game, your units and your password come in a mail of their own.",
        ]);
        let welcome = s.get(NEW_AUSTRIA, "g1: you now play Austria");
        welcome.says(&["The GM of g1 (Standard Diplomacy) has given you Austria."]);
        let new_pw = welcome.after("Your password is:");
        assert!(!new_pw.is_empty());
        welcome
            .lines(&[
                "Game: g1 (Standard Diplomacy)",
                "Power: Austria",
                "Phase: Winter 1901 adjustment",
                "Centres: 2",
                &format!("SIGNON Austria g1 {new_pw}"),
            ])
            .says(&[
                "Deadline: ",
                "Units: ",
                "A(Boh)",
                "Orders held for Austria",
                // The whole board, as at the start, and the latest press.
                "The board (the map is attached):",
                "Italy: 5 centres",
                "Russia: 6 centres",
                "The latest press to everybody, newest first:",
                "Somebody is lying.",
            ])
            .never_says(&["A(Lon)-Yor"]);
        let names: Vec<&str> = welcome
            .attachments
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        assert_eq!(names, ["g1-W1901A.png"], "the map with the welcome");
        s.get(&austria, "g1: you no longer play Austria")
            .says(&["has given Austria to another player"]);
        let old_austria = austria.clone();
        let old_pw = self.seats.0["Austria"].1.clone();
        self.seats
            .0
            .insert("Austria", (NEW_AUSTRIA.to_string(), new_pw.clone()));

        // The old player cannot sign on any more; the new one hears of the
        // attempt.
        let s = self.post.mail(
            &old_austria,
            "my orders",
            &format!("SIGNON Austria {GAME} {old_pw}\nA Vie H"),
        );
        s.expect(&[(NEW_AUSTRIA, &["Austria in g1: failed sign-on"])]);
        s.reply()
            .says(&["sign-on failed: the game, power or password is not right"]);
    }

    /// An observer reads the roster (WHOGAME): names, not addresses, and the
    /// replaced player kept.
    fn an_observer_reads_the_roster(&mut self) {
        // ---- The roster: names, not addresses; the replaced player kept.
        let s = self.post.mail(OBSERVER, "who", &format!("WHOGAME {GAME}"));
        s.expect(&[]);
        s.reply()
            .lines(&["England Ann of England", "Austria (no name given)"])
            .says(&["before: a player,", "(replaced)"])
            .never_says(&["@example.test"]);
    }

    /// Winter 1901: the players build, waive a build and remove a unit.
    fn winter_1901_builds_and_removals(&mut self) {
        let readers = self.readers();
        // ---- Winter 1901: builds, a waived build and a removal.
        let (a, body) = self.seats.signed("England", "Build F Edi\nREADY");
        let s = self.post.mail(&a, "builds", &body);
        s.expect(&[]);
        s.reply()
            .lines(&["(1 build due)", "Build F(Edi)", "Your orders are complete."]);
        let (a, body) = self.seats.signed("Austria", "Remove A Boh\nREADY");
        let s = self.post.mail(&a, "removal", &body);
        s.expect(&[]);
        s.reply().lines(&[
            "(1 removal due)",
            "Remove A(Boh)",
            "Your orders are complete.",
        ]);
        for (p, orders) in [
            ("Russia", "Build A Mos\nBuild F StP/nc"),
            ("Italy", "Build F Nap\nWaive"),
            ("France", "Build A Par\nBuild F Mar"),
            ("Germany", "Build A Ber\nBuild A Mun\nBuild F Kie"),
        ] {
            let (a, body) = self.seats.signed(p, &format!("{orders}\nREADY"));
            let s = self.post.mail(&a, &format!("{p} W1901"), &body);
            s.expect(&[]);
            s.reply().says(&["Your orders are complete."]);
        }
        let (a, body) = self.seats.signed("Turkey", "Build A Smy\nREADY");
        let s = self.post.mail(&a, "Turkey W1901", &body);
        s.expect(&each(&readers, &["g1: Winter 1901 adjustments"]));
        s.reply()
            .lines(&["Build A(Smy)"])
            .says(&["Every player in g1 is ready: the phase has been processed"]);
        let r = results(&s, "g1: Winter 1901 adjustments", &readers, "W1901A");
        r.lines(&[
            "Adjustments:",
            "England: builds F(Edi)",
            "Austria: removes A(Boh)",
            "Italy: builds F(Nap)",
            "Italy: waives a build",
            "Russia: builds A(Mos)",
            "Russia: builds F(StP/nc)",
            "Germany: builds F(Kie)",
            "Turkey: builds A(Smy)",
        ])
        .says(&["Next: Spring 1902 movement, deadline"]);
    }

    /// Spring 1902, first time: Austria and Turkey bounce in Serbia.
    fn spring_1902_bounces_in_serbia(&mut self) {
        let readers = self.readers();
        // ---- Spring 1902, first time: Austria and Turkey bounce in Serbia.
        let mut last = None;
        for (i, (p, orders)) in S1902_FIRST.iter().enumerate() {
            let (a, body) = self.seats.signed(p, &format!("{orders}\nREADY"));
            let s = self.post.mail(&a, &format!("{p} S1902"), &body);
            if i < 6 {
                s.expect(&[]);
            }
            last = Some(s);
        }
        let s = last.expect("the last order mail");
        s.expect(&each(&readers, &["g1: Spring 1902 results"]));
        let r = results(&s, "g1: Spring 1902 results", &readers, "S1902M");
        r.lines(&[
            "A(Bud)-Ser bounced with A(Bul)",
            "A(Bul)-Ser bounced with A(Bud)",
        ])
        .says(&["Next: Fall 1902 movement"]);
    }

    /// The GM reads the game's history, then rolls Spring 1902 back.
    fn gm_reads_the_history_and_rolls_back(&mut self) {
        let everyone = self.everyone();
        // The GM looks at the history, then rolls the phase back.
        let s = self.post.mail(GM, "history", &format!("HISTORY {GAME}"));
        s.expect(&[(GM, &["g1: history S1901M to S1902M"])]);
        s.reply()
            .says(&["The results of 5 phases are mailed to you separately."]);
        s.get(GM, "g1: history S1901M to S1902M").lines(&[
            "g1: Spring 1901 results",
            "g1: Fall 1901 results",
            "g1: Fall 1901 retreats",
            "g1: Winter 1901 adjustments",
            "g1: Spring 1902 results",
        ]);
        let s = self.post.mail(GM, "rollback", &gm_on("ROLLBACK"));
        s.expect(&each(
            &everyone,
            &["g1: rolled back to Spring 1902 movement"],
        ));
        s.reply()
            .says(&["Rolled back to the start of Spring 1902 movement; deadline"]);
        for m in s.all("g1: rolled back to Spring 1902 movement") {
            m.says(&[
                "The GM has rolled the game back to the start of Spring 1902 movement.",
                "All orders for it must be sent again.",
            ]);
        }
    }

    /// Spring 1902 again: Turkey's player goes to Greece instead.
    fn spring_1902_again(&mut self) {
        let readers = self.readers();
        // ---- Spring 1902 again: this time Turkey goes to Greece instead.
        let (a, body) = self.seats.signed("Turkey", "A Bul-Gre\nF BLA H\nREADY");
        let s = self.post.mail(&a, "Turkey S1902 again", &body);
        s.expect(&[]);
        s.reply().lines(&[
            "Orders held for Turkey, Spring 1902 movement:",
            "A(Bul)-Gre",
            "F(BLA) H",
        ]);
        let mut last = None;
        for (p, orders) in S1902_FIRST.iter().filter(|(p, _)| *p != "Turkey") {
            let (a, body) = self.seats.signed(p, &format!("{orders}\nREADY"));
            let s = self.post.mail(&a, &format!("{p} S1902 again"), &body);
            if *p != "Russia" {
                s.expect(&[]);
            }
            last = Some(s);
        }
        let s = last.expect("the last order mail");
        s.expect(&each(&readers, &["g1: Spring 1902 results"]));
        let r = results(&s, "g1: Spring 1902 results", &readers, "S1902M");
        r.lines(&["A(Bud)-Ser", "A(Bul)-Gre"])
            .never_says(&["bounced"])
            .says(&["Next: Fall 1902 movement"]);
    }

    /// Fall 1902: an observer asks for the board (MAP); the GM processes
    /// before the deadline, with nobody's orders in.
    fn fall_1902_map_and_early_processing(&mut self) {
        let readers = self.readers();
        // ---- Fall 1902. Anybody may ask for the board: MAP answers with
        // the position as text and the map attached.
        let s = self
            .post
            .mail(OBSERVER, "the board", &format!("MAP {GAME}"));
        s.expect(&[]);
        s.reply().says(&[
            "g1 (Standard Diplomacy): Fall 1902 movement.",
            "Deadline:",
            "Austria: 2 centres, 2 units",
            "Units: A(Ser), F(Tri)",
            "Turkey: 4 centres",
            "Unowned centres:",
        ]);
        let names: Vec<&str> = s
            .reply()
            .attachments
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        assert_eq!(names, ["g1-F1902M.png"], "the map with MAP");

        // The GM processes before the deadline, with nobody's orders in: all
        // hold, and early processing calls nobody late, although the game
        // puts silent powers in civil disorder (SET NMR CD). No unit is
        // dislodged, so no retreat phase follows: the Fall results hold the
        // year's chart, the captures counted, with no caveat, and the builds
        // they give.
        let s = self.post.mail(GM, "process", &gm_on("PROCESS"));
        s.expect(&each(&readers, &["g1: Fall 1902 results"]));
        s.reply().says(&[
            "Processed before the deadline: nobody is late for it, and nobody goes into civil disorder.",
        ]);
        let r = results(&s, "g1: Fall 1902 results", &readers, "F1902M");
        r.lines(&["Supply centres:"])
            .says(&[
                "Austria 3 (+1)",
                "Turkey 5 (+1)",
                "Next: Winter 1902 adjustment, deadline",
            ])
            .never_says(&[
                "count after the retreats",
                "Dislodged:",
                "No orders received",
                "In civil disorder",
            ]);
    }

    /// Winter 1902: every player votes for a draw (one takes the vote back and
    /// gives it again), and the last vote ends the game.
    fn winter_1902_a_draw(&mut self) {
        let readers = self.readers();
        // ---- Winter 1902: a draw. One vote is taken back and given again;
        // nobody hears of the votes until the last one ends the game.
        for (i, p) in POWERS.iter().enumerate() {
            let (a, body) = self.seats.signed(p, "DRAW");
            let s = self.post.mail(&a, "draw", &body);
            if i < 6 {
                s.expect(&[]);
                s.reply().says(&["You vote for a draw."]);
            } else {
                // The last mail of the game goes to everybody, the last
                // voter too.
                s.expect(&each(&readers, &["g1: game over"]));
                s.reply()
                    .says(&["The game is over: a draw between Austria, England, France, Germany,"]);
                for m in s.all("g1: game over") {
                    m.says(&[
                        "The game is over: a draw between Austria, England, France,",
                        "Final supply centres:",
                        "Who played:",
                        "England: Ann of England,",
                        "(replaced)",
                        "Supply centres at the end of each year:",
                    ])
                    .lines(&["1901 1902"])
                    .never_says(&["@example.test"]);
                }
            }
            if i == 2 {
                let (a, body) = self.seats.signed(p, "NO DRAW");
                let s = self.post.mail(&a, "no draw after all", &body);
                s.expect(&[]);
                s.reply().says(&["You withdraw your draw vote."]);
                let (a, body) = self.seats.signed(p, "DRAW");
                let s = self.post.mail(&a, "draw again", &body);
                s.expect(&[]);
                s.reply().says(&["You vote for a draw."]);
            }
        }
    }

    /// After the game: orders are refused, and LIST shows the result.
    fn the_game_is_over(&mut self) {
        // The game is over: orders are refused, LIST shows the result.
        let (a, body) = self.seats.signed("Germany", "A Mun-Bur");
        let s = self.post.mail(&a, "one more", &body);
        s.expect(&[]);
        s.reply().says(&["g1 takes no orders now (it is over)."]);
        let s = self
            .post
            .mail(OBSERVER, "how did it end", &format!("LIST {GAME}"));
        s.expect(&[]);
        s.reply().says(&[
            "g1 (Standard Diplomacy), finished",
            "Result: a draw between Austria, England, France, Germany, Italy,",
        ]);
    }

    /// Nothing else arrives, nothing failed, nothing bounced; the timings are
    /// printed.
    fn nothing_else_arrives(&mut self, t0: Instant) {
        // ---- Nothing else arrives, nothing failed, nothing bounced.
        let report = self.post.finish(Duration::from_secs(6));
        let mut slow: Vec<&(String, f64)> = self.post.timings.iter().collect();
        slow.sort_by(|a, b| b.1.total_cmp(&a.1));
        eprintln!(
            "{} command mails in {:.1}s; mail received:\n{report}slowest steps:",
            self.post.sent(),
            t0.elapsed().as_secs_f64()
        );
        for (what, secs) in slow.iter().take(5) {
            eprintln!("  {secs:.1}s {what}");
        }
    }
}

#[test]
fn a_standard_game_played_by_mail_through_the_real_servers() {
    let Some(ms) =
        MailSystem::start_or_skip("a_standard_game_played_by_mail_through_the_real_servers")
    else {
        return;
    };
    let t0 = Instant::now();
    let tmp = TempDir::new("e2e-game");
    let judge = Judge::start(
        &ms,
        tmp.path(),
        &Opts {
            name: JUDGE_NAME.into(),
            ..Opts::default()
        },
    );
    let mut g = Game::new(&ms, &judge);
    g.gm_creates_the_game_and_an_observer_signs_up();
    g.seven_players_join_with_their_wishes();
    g.a_latecomer_is_refused();
    g.england_orders_with_a_typo();
    g.england_sends_press();
    g.the_others_order_and_a_spy_fails();
    g.gm_sets_deadlines_and_players_go_away();
    g.gm_writes_deadlines_across_clock_changes();
    let clock_start = g.the_clock_reminds_austria_and_calls_it_late();
    g.austria_falls_into_civil_disorder(clock_start);
    g.fall_1901_austria_back_and_turkey_waits();
    g.austria_retreats();
    g.gm_replaces_austria();
    g.an_observer_reads_the_roster();
    g.winter_1901_builds_and_removals();
    g.spring_1902_bounces_in_serbia();
    g.gm_reads_the_history_and_rolls_back();
    g.spring_1902_again();
    g.fall_1902_map_and_early_processing();
    g.winter_1902_a_draw();
    g.the_game_is_over();
    g.nothing_else_arrives(t0);
}
