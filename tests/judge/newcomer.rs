//! A first game as a newcomer plays it (issue #51): the GM's and the
//! players' mails read as a postal-zine GM would have written them. Each
//! test is one stumble of the issue, by mail through the judge.

use crate::support_judge::{Sent, World};

const GM: &str = "gm@example.test";
const POWERS: [&str; 7] = [
    "England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey",
];

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

/// `text` with its lines joined and its spaces single, so that a check
/// of a sentence does not depend on where the mail wrapped it.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn to<'s>(sent: &'s [Sent], who: &str) -> Vec<&'s Sent> {
    sent.iter().filter(|m| m.to_has(who)).collect()
}

/// A standard game g whose GM first sends `setup` (after the sign-on),
/// then every seat joined; returns the mails of the last JOIN (the
/// start).
fn standard(w: &mut World, setup: &str) -> Vec<Sent> {
    w.reply(GM, "CREATE g standard gm-secret");
    if !setup.is_empty() {
        w.reply(GM, &format!("SIGNON GM g gm-secret\n{setup}"));
    }
    let mut last = Vec::new();
    for p in POWERS {
        last = w.mail(&addr(p), &format!("JOIN g secret-{p} {p}"));
    }
    last
}

fn gm(w: &mut World, lines: &str) -> Vec<Sent> {
    w.mail(GM, &format!("SIGNON GM g gm-secret\n{lines}"))
}

fn orders(w: &mut World, p: &str, lines: &str) -> String {
    w.reply(&addr(p), &format!("SIGNON {p} g secret-{p}\n{lines}"))
}

/// Every unit of every power but those in `silent` holds, as it stands
/// at the start (complete orders while nothing has moved); returns every
/// mail the judge sent meanwhile.
fn all_hold(w: &mut World, silent: &[&str]) -> Vec<Sent> {
    let units = [
        ("England", "F Lon H\nF Edi H\nA Lvp H"),
        ("France", "F Bre H\nA Par H\nA Mar H"),
        ("Germany", "F Kie H\nA Ber H\nA Mun H"),
        ("Italy", "F Nap H\nA Rom H\nA Ven H"),
        ("Austria", "F Tri H\nA Vie H\nA Bud H"),
        ("Russia", "F StP H\nA Mos H\nA War H\nF Sev H"),
        ("Turkey", "F Ank H\nA Con H\nA Smy H"),
    ];
    let mut sent = Vec::new();
    for (p, lines) in units {
        if !silent.contains(&p) {
            sent.extend(w.mail(&addr(p), &format!("SIGNON {p} g secret-{p}\n{lines}")));
        }
    }
    sent
}

/// The `HH:MM` of the first time after `label` in `text`.
fn clock_after(text: &str, label: &str) -> String {
    let at = text
        .find(label)
        .unwrap_or_else(|| panic!("no {label:?} in {text}"));
    text[at..]
        .split_whitespace()
        .find(|w| w.len() == 5 && w.as_bytes()[2] == b':')
        .unwrap_or_else(|| panic!("no time after {label:?} in {text}"))
        .to_string()
}

/// Item 6: a deadline set relative to now ("in 4m") is kept on the
/// minute it is shown at, as is the deadline a phase's length sets after
/// early processing: nothing is adjudicated before the minute shown, and
/// it is adjudicated at it.
#[test]
fn item_6_a_deadline_is_kept_on_the_minute_shown() {
    let mut w = World::new();
    standard(&mut w, "SET GRACE 0h");
    w.advance(24);
    let r = w.reply(GM, "SIGNON GM g gm-secret\nSET DEADLINE in 4m");
    // 12:00:24 and four minutes: shown as 12:05, kept at 12:05:00.
    assert_eq!(clock_after(&r, "The deadline is now"), "12:05", "{r}");
    let sent = w.advance(4 * 60 + 35);
    assert!(
        sent.iter().all(|m| !m.subject.contains("results")),
        "adjudicated at 12:04:59, before the minute shown: {sent:#?}"
    );
    let sent = w.advance(1);
    assert!(
        sent.iter()
            .any(|m| m.subject.contains("Spring 1901 results")),
        "not adjudicated at 12:05:00, the minute shown: {sent:#?}"
    );
    // Early processing at 12:05:37: the phase's 72 hours end at a second
    // of a minute; the next deadline is on the minute after, as shown.
    w.advance(37);
    let sent = all_hold(&mut w, &[]);
    let results = to(&sent, &addr("England"))
        .into_iter()
        .find(|m| m.subject.contains("Fall 1901 results"))
        .expect("the fall goes early");
    assert_eq!(
        clock_after(&results.body, "Next:"),
        "12:06",
        "{}",
        results.body
    );
    let sent = w.advance(3 * 86400 + 22);
    assert!(
        sent.iter().all(|m| !m.subject.contains("results")),
        "adjudicated at 12:05:59, before the minute shown: {sent:#?}"
    );
    let sent = w.advance(1);
    assert!(
        sent.iter()
            .any(|m| m.subject.contains("Spring 1902 results")),
        "{sent:#?}"
    );
}

/// Item 10: after SET TIMEZONE, every place that shows a deadline shows
/// it the same way: in the game's zone, and in UTC once.
#[test]
fn item_10_every_deadline_is_shown_in_the_games_zone_and_in_utc_once() {
    let mut w = World::new();
    let start = standard(&mut w, "SET TIMEZONE America/New_York\nSET GRACE 0h");
    // The first deadline: Tue 04 Jan 2028 12:00 UTC, 07:00 in New York.
    let shown = "Tue 04 Jan 2028 07:00 EST (12:00 UTC)";
    let check = |what: &str, text: &str| {
        let t = flat(text);
        assert!(t.contains(shown), "{what}: {text}");
        assert_eq!(t.matches("UTC").count(), 1, "{what}: UTC once: {text}");
    };
    let england = to(&start, &addr("England"));
    let mail = england
        .iter()
        .find(|m| m.subject.contains("you are"))
        .expect("a start mail");
    // The start mail says it twice (the deadline, when the phase goes):
    // in the same words each time.
    assert_eq!(flat(&mail.body).matches(shown).count(), 2, "{}", mail.body);
    let gms = to(&start, GM);
    let gm_start = gms
        .iter()
        .find(|m| m.subject.contains("starts"))
        .expect("the GM's start mail");
    check("the GM's start mail", &gm_start.body);
    let r = w.reply(&addr("France"), "SIGNON France g secret-France");
    check("the sign-on", &r);
    let r = orders(&mut w, "France", "A Par-Bur");
    let at = r.find("Read from your mail").expect("orders read");
    check("the sign-on line", &r[..at]);
    check("the order reply", &r[at..]);
    let r = w.reply(&addr("France"), "MAP g");
    check("MAP", &r);
    let r = w.reply(&addr("France"), "LIST g");
    check("LIST", &r);
    // The reminder, a day before.
    let sent = w.advance(2 * 86400 + 3600);
    let reminder = to(&sent, &addr("France"));
    assert_eq!(reminder.len(), 1, "{sent:#?}");
    check("the reminder", &reminder[0].body);
    // The GM moves it: the reply and the notice.
    let sent = gm(&mut w, "SET DEADLINE 2028-01-05 07:00");
    let reply = to(&sent, GM);
    let next = "Wed 05 Jan 2028 07:00 EST (12:00 UTC)";
    assert!(flat(&reply[0].body).contains(next), "{}", reply[0].body);
    let notice = to(&sent, &addr("France"));
    assert!(flat(&notice[0].body).contains(next), "{}", notice[0].body);
    // The results' "Next:" line.
    let sent = w.advance(2 * 86400);
    let results = to(&sent, &addr("France"))
        .into_iter()
        .find(|m| m.subject.contains("results"))
        .expect("results");
    let next = flat(&results.body[results.body.find("Next:").expect("a Next: line")..]);
    assert!(
        next.starts_with(
            "Next: Fall 1901 movement, deadline Sat 08 Jan 2028 08:00 EST (13:00 UTC)."
        ),
        "{}",
        results.body
    );
}

/// Item 5: one GM mail, one mail to each player. `SET DEADLINE in 4m`
/// with `SET GRACE 0h` tells each player the new deadline and the new
/// grace in one mail; a player who still owes orders is reminded in it,
/// and the clock sends no reminder of its own after it.
#[test]
fn item_5_one_gm_mail_makes_one_mail_to_each_player() {
    let mut w = World::new();
    standard(&mut w, "");
    orders(&mut w, "France", "F Bre H\nA Par H\nA Mar H");
    let mut sent = gm(&mut w, "SET DEADLINE in 4m\nSET GRACE 0h");
    sent.extend(w.advance(30));
    for p in POWERS {
        let mine = to(&sent, &addr(p));
        assert_eq!(mine.len(), 1, "{p}: {mine:#?}");
        let body = flat(&mine[0].body);
        assert!(
            body.contains("The GM moved the deadline to Sat 01 Jan 2028 12:04 UTC."),
            "{p}: {body}"
        );
        assert!(body.contains("Grace period 0h."), "{p}: {body}");
        let reminded = body.contains("still missing for");
        assert_eq!(reminded, p != "France", "{p}: {body}");
    }
    let england = flat(&to(&sent, &addr("England"))[0].body);
    assert!(
        england.contains("Reminder: still missing for England: F(Edi), F(Lon), A(Lvp)."),
        "{england}"
    );
    // The GM wrote it: the reply says what was done, and no notice.
    assert_eq!(to(&sent, GM).len(), 1, "{sent:#?}");
}

/// Item 4: the GM's start mail names each power's player (their name and
/// address: the GM sees addresses) and links the game's page; an
/// observer's copy names the players as the roster does for everybody
/// (no addresses unless SET ROSTER ADDRESSES).
#[test]
fn item_4_the_gms_start_mail_names_each_powers_player_and_links_the_page() {
    let mut w = World::with_pages("https://judge.example.test/");
    w.reply(GM, "CREATE g standard gm-secret");
    w.reply("kibitzer@example.test", "OBSERVE g");
    let mut last = Vec::new();
    for p in POWERS {
        last = w.mail(
            &addr(p),
            &format!("JOIN g secret-{p} {p}\nSET NAME Player of {p}"),
        );
    }
    // The last JOIN started the game before its SET NAME: Turkey's player
    // has no name yet.
    let gm_mail = to(&last, GM)
        .into_iter()
        .find(|m| m.subject == "g: the game starts")
        .expect("the GM's start mail");
    let body = &gm_mail.body;
    for p in POWERS {
        let line = body
            .lines()
            .find(|l| l.trim_start().starts_with(p))
            .unwrap_or_else(|| panic!("no line for {p}: {body}"));
        assert!(line.contains(&format!("<{}>", addr(p))), "{line}");
        if p != "Turkey" {
            assert!(line.contains(&format!("Player of {p}")), "{line}");
        }
    }
    assert!(
        body.contains("The game's page: https://judge.example.test/games/g"),
        "{body}"
    );
    let seen = to(&last, "kibitzer@example.test")
        .into_iter()
        .find(|m| m.subject == "g: the game starts")
        .expect("the observer's start mail");
    assert!(seen.body.contains("Player of England"), "{}", seen.body);
    assert!(!seen.body.contains("@example.test"), "{}", seen.body);
}

const ARDRI: [&str; 5] = ["Ulaid", "Connacht", "Midhe", "Laigin", "Muma"];

/// An Ard-Ri game g of the five great powers (no Vikings), started:
/// returns the mails of the start.
fn ardri(w: &mut World) -> Vec<Sent> {
    w.reply(GM, "CREATE g ardri gm-secret");
    let mut last = Vec::new();
    for p in ARDRI {
        last = w.mail(&addr(p), &format!("JOIN g secret-{p} {p}"));
    }
    last
}

/// The refusal of line `n` of an order reply, flat.
fn refusal(reply: &str, n: usize) -> String {
    let at = reply
        .find(&format!("line {n}: \""))
        .unwrap_or_else(|| panic!("line {n} not refused: {reply}"));
    let rest = &reply[at..];
    let end = rest[1..]
        .find("\n  line ")
        .or_else(|| rest.find("\n\n"))
        .unwrap_or(rest.len());
    flat(&rest[..end + 1])
}

/// Item 8: Ard-Ri opens with builds (rule 4), so its start mail says how
/// many are due, where (each free site by abbreviation and full name,
/// for an army and for a fleet) and how one is written, with example
/// lines that the judge would accept.
#[test]
fn item_8_a_start_with_builds_says_how_many_where_and_how() {
    let mut w = World::new();
    let start = ardri(&mut w);
    let mail = to(&start, &addr("Connacht"))
        .into_iter()
        .find(|m| m.subject == "g: you are Connacht")
        .expect("Connacht's start mail");
    let body = flat(&mail.body);
    assert!(body.contains("You have 3 builds due"), "{}", mail.body);
    assert!(
        body.contains(
            "for an army: Cru (Cruachu), Mon (Mona Gha) or Tua (Tuathal); for a fleet: Cru (Cruachu) or Mon (Mona Gha)."
        ),
        "{}",
        mail.body
    );
    assert!(
        body.contains("Build A(") && body.contains("Build F("),
        "{}",
        mail.body
    );
    assert!(!body.contains("(your orders, one a line)"), "{}", mail.body);
    // The example lines, sent as they stand, are three builds accepted.
    let example: Vec<&str> = mail
        .body
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("SIGNON Connacht"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    assert_eq!(example.len(), 3, "{}", mail.body);
    let r = orders(&mut w, "Connacht", &example.join("\n"));
    assert!(!r.contains("Not accepted"), "{r}");
    assert!(
        r.contains("Still missing: nothing") || !r.contains("Still missing"),
        "{r}"
    );
}

/// Item 9: a refused build says what is wrong with this build, naming
/// the place, and lists the sites free for each kind of unit: a fleet
/// inland is refused as such (not "no free site"), and a place free for
/// an army is listed for an army.
#[test]
fn item_9_a_refused_build_says_what_is_wrong_and_where_each_kind_may_go() {
    let mut w = World::new();
    ardri(&mut w);
    // Muma's coastal centres taken by its first two builds: no fleet is
    // left to build, but an army is, in Edghanacata.
    let r = orders(&mut w, "Muma", "Build A Eog\nBuild F Anu\nbuild fleet edg");
    let why = refusal(&r, 4);
    assert!(
        why.contains("Edg (Edghanacata) is inland: no fleet can be built there"),
        "{why}"
    );
    assert!(!why.contains("no free site to build on"), "{why}");
    assert!(why.contains("for an army: Edg (Edghanacata)"), "{why}");
    // Connacht's fleet in Tuathal: Tuathal is listed, for an army.
    let r = orders(&mut w, "Connacht", "Build F Tua");
    let why = refusal(&r, 2);
    assert!(
        why.contains("Tua (Tuathal) is inland: no fleet can be built there"),
        "{why}"
    );
    assert!(
        why.contains("for an army: Cru (Cruachu), Mon (Mona Gha) or Tua (Tuathal)"),
        "{why}"
    );
    assert!(why.contains("for a fleet: Cru (Cruachu)"), "{why}");
    // Another power's centre: named, with the sites that are Connacht's.
    let r = orders(&mut w, "Connacht", "Build A Edg");
    let why = refusal(&r, 2);
    assert!(
        why.contains("Edg (Edghanacata) is Muma's home centre, not yours"),
        "{why}"
    );
    assert!(why.contains("Mon (Mona Gha)"), "{why}");
    // A site its own earlier build takes.
    let r = orders(&mut w, "Connacht", "Build A Mon\nBuild F Mon");
    let why = refusal(&r, 3);
    assert!(why.contains("Mon (Mona Gha)"), "{why}");
    assert!(!why.contains("for an army: Cru (Cruachu), Mon"), "{why}");
}

/// Item 7: a power in civil disorder with a build due. Its centre chart
/// line and its civil-disorder mail tell one truth: the build is waived
/// while it is in civil disorder (the phase does not wait for it), and
/// the winter's results say it was waived, for that reason.
#[test]
fn item_7_the_chart_and_the_civil_disorder_mail_tell_one_truth() {
    let mut w = World::new();
    standard(&mut w, "SET NMR CD\nSET GRACE 0h");
    // Spring: Turkey walks into Bulgaria; the others hold. Complete
    // orders: the spring goes at once.
    orders(&mut w, "Turkey", "A Con-Bul\nF Ank H\nA Smy H");
    all_hold(&mut w, &["Turkey"]);
    // Fall: Turkey sends nothing; the others hold.
    let mut sent = all_hold(&mut w, &["Turkey"]);
    sent.extend(w.advance(4 * 86400));
    let fall = to(&sent, &addr("Turkey"))
        .into_iter()
        .find(|m| m.subject.contains("Fall 1901 results"))
        .unwrap_or_else(|| panic!("no fall results: {sent:#?}"));
    let line = fall
        .body
        .lines()
        .find(|l| l.trim_start().starts_with("Turkey "))
        .unwrap_or_else(|| panic!("no chart line: {}", fall.body));
    assert!(
        line.contains("builds 1 (waived: in civil disorder)"),
        "{line}"
    );
    let cd = to(&sent, &addr("Turkey"))
        .into_iter()
        .find(|m| m.subject == "g: Turkey is in civil disorder")
        .unwrap_or_else(|| panic!("no civil-disorder mail: {sent:#?}"));
    let said = flat(&cd.body);
    assert!(
        said.contains("the builds it is due are waived while it is in civil disorder"),
        "{said}"
    );
    // Nobody else has an adjustment: the winter goes at once, and says
    // why Turkey built nothing.
    let winter = to(&sent, &addr("Turkey"))
        .into_iter()
        .find(|m| m.subject.contains("Winter 1901"))
        .unwrap_or_else(|| panic!("no winter results: {sent:#?}"));
    assert!(
        flat(&winter.body).contains("Turkey: 1 build waived (in civil disorder)"),
        "{}",
        winter.body
    );
}

/// Item 11: every mail the judge sends is signed with RFC 3676's
/// separator, `-- ` with its space (which mail readers know a signature
/// by), then the judge's name: replies, start mails, notices, press,
/// reminders, results, the civil-disorder mails.
#[test]
fn item_11_every_mail_is_signed_with_the_separator_and_its_space() {
    let mut w = World::new();
    let mut all = Vec::new();
    all.extend(w.mail("kibitzer@example.test", "HELP"));
    all.extend(standard(&mut w, "SET NMR CD\nSET GRACE 1h"));
    all.extend(w.mail("kibitzer@example.test", "OBSERVE g"));
    all.extend(w.mail(
        &addr("England"),
        "SIGNON England g secret-England\nPRESS TO France\nhello\nENDPRESS\nBROADCAST\nhi all\nENDPRESS\nF Lon-ENG",
    ));
    all.extend(gm(&mut w, "SET DEADLINE +1h\nSET REMINDER 48h"));
    all.extend(all_hold(&mut w, &["Turkey", "England"]));
    for _ in 0..3 {
        all.extend(w.advance(3 * 86400));
    }
    all.extend(w.mail(&addr("Turkey"), "SIGNON Turkey g secret-Turkey\nA Con H"));
    all.extend(gm(&mut w, "PAUSE\nRESUME\nWHO\nMAP g\nPREVIEW"));
    let subjects = |f: &dyn Fn(&Sent) -> bool| -> Vec<String> {
        let mut v: Vec<String> = all
            .iter()
            .filter(|m| f(m))
            .map(|m| m.subject.clone())
            .collect();
        v.dedup();
        v
    };
    for kind in [
        "press",
        "results",
        "paused",
        "players joining",
        "is back",
        "civil disorder",
    ] {
        assert!(
            all.iter().any(|m| m.subject.contains(kind)),
            "no {kind} mail to check: {:?}",
            subjects(&|_| true)
        );
    }
    let bare = subjects(&|m| m.body.lines().any(|l| l == "--"));
    assert!(bare.is_empty(), "signed `--` without its space: {bare:?}");
    let unsigned = subjects(&|m| {
        !m.body
            .split("\n-- \n")
            .nth(1)
            .is_some_and(|sig| sig.starts_with("zinejudge"))
    });
    assert!(unsigned.is_empty(), "not signed: {unsigned:?}");
}

/// Item 12: the README said `MAP game` was refused while the judge drew
/// it. The forms of njudge and DPjudge are now told in one place,
/// docs/njudge-dpjudge.md, whose every row tests/judge/other_judges_table.rs
/// sends to the judge; the README's section keeps no table of its own to
/// drift from it, and `MAP game` is answered with the map.
#[test]
fn item_12_the_other_judges_forms_are_told_once_and_map_game_is_drawn() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the README");
    let at = readme
        .find("### njudge's and DPjudge's forms")
        .expect("the README's section on other judges' forms");
    let section = &readme[at..];
    let section = &section[..section[4..].find("\n## ").map_or(section.len(), |e| e + 4)];
    assert!(section.contains("docs/njudge-dpjudge.md"), "{section}");
    assert!(
        !section.lines().any(|l| l.starts_with("| ")),
        "the README keeps a table of its own:\n{section}"
    );
    let doc = std::fs::read_to_string(root.join("docs/njudge-dpjudge.md")).expect("the doc");
    let map_row = doc
        .lines()
        .find(|l| l.starts_with("| njudge | `MAP name"))
        .expect("a row for njudge's MAP");
    assert!(map_row.contains("| same |"), "{map_row}");
    let mut w = World::new();
    standard(&mut w, "");
    let sent = w.mail(&addr("England"), "SIGNON England g secret-England\nMAP g");
    let reply = &sent[0];
    assert!(!reply.body.contains("Not done"), "{}", reply.body);
    assert!(
        sent.iter().any(|m| !m.attachments.is_empty()),
        "no map drawn: {sent:#?}"
    );
}

/// Item 12: a sign-on by the power's full name gets no unasked hint of
/// its njudge letter ("Midhe's letter is I"); one by the letter is told
/// which power the letter is.
#[test]
fn item_12_a_sign_on_by_name_gets_no_letter_hint() {
    let mut w = World::new();
    ardri(&mut w);
    let r = w.reply(&addr("Midhe"), "SIGNON Midhe g secret-Midhe");
    assert!(r.contains("Signed on as Midhe"), "{r}");
    assert!(!r.contains("letter"), "{r}");
    let r = w.reply(&addr("Midhe"), "SIGNON Ig secret-Midhe");
    assert!(r.contains("Signed on as Midhe"), "{r}");
    assert!(r.contains("Midhe's letter is I"), "{r}");
}

/// The attachment of `m` whose name ends with `ext`.
fn file<'m>(m: &'m Sent, ext: &str) -> &'m [u8] {
    let i = m
        .attachments
        .iter()
        .position(|(name, _)| name.ends_with(ext))
        .unwrap_or_else(|| panic!("no {ext} with {:?}: {:?}", m.subject, m.attachments));
    &m.files[i].0
}

/// The SVG of the map attached to `m`.
fn svg_of(m: &Sent) -> String {
    String::from_utf8(file(m, ".svg").to_vec()).expect("an SVG is text")
}

/// The legend of a picture: its powers' lines.
fn legend(svg: &str) -> &str {
    let at = svg.find("<g class=\"legend\"").expect("a legend");
    &svg[at..]
}

/// The Ard-Ri game of [`ardri`] after its opening builds, each power's
/// armies on its three home centres: the results mail to Muma.
fn ardri_built(w: &mut World) -> Sent {
    ardri(w);
    let builds = [
        ("Ulaid", "Aic Ema Mag"),
        ("Connacht", "Cru Mon Tua"),
        ("Midhe", "Gua Tem Uis"),
        ("Laigin", "Aie Alm Naa"),
        ("Muma", "Anu Edg Eog"),
    ];
    let mut sent = Vec::new();
    for (p, sites) in builds {
        let lines: Vec<String> = sites.split(' ').map(|s| format!("Build A {s}")).collect();
        sent.extend(w.mail(
            &addr(p),
            &format!("SIGNON {p} g secret-{p}\n{}", lines.join("\n")),
        ));
    }
    to(&sent, &addr("Muma"))
        .into_iter()
        .find(|m| m.in_reply_to.is_none() && m.attachments.len() == 2)
        .cloned()
        .unwrap_or_else(|| panic!("no results with pictures: {sent:#?}"))
}

/// Item 11: the picture's legend lists the powers in the game: an Ard-Ri
/// game without the Vikings has no line for them (it had "Vikings (V):
/// 0 centres, 0 units"), in the SVG and in the PNG alike; a board with
/// them has.
#[test]
fn item_11_the_legend_lists_only_the_powers_in_the_game() {
    use zinejudge::testing::report::picture::{png, svg};
    let mut w = World::new();
    let results = ardri_built(&mut w);
    let drawn = svg_of(&results);
    for p in ARDRI {
        assert!(
            legend(&drawn).contains(&format!("{p} (")),
            "{p}: {}",
            legend(&drawn)
        );
    }
    assert!(!legend(&drawn).contains("Vikings"), "{}", legend(&drawn));
    // The PNG's legend is the SVG's: the band below the map, compared
    // in rows of 8 pixels.
    let whole = crate::picture::pixels(&png(&drawn).expect("renders"));
    let (width, height, sent) = crate::picture::pixels(file(&results, ".png"));
    assert_eq!((whole.0, whole.1), (width, height));
    let (w8, band) = (width as usize / 8, 60usize);
    for by in (height as usize - band) / 8..height as usize / 8 {
        for bx in 0..w8 {
            let mean = |px: &[u8], c: usize| -> u32 {
                let mut m = 0u32;
                for y in by * 8..by * 8 + 8 {
                    for x in bx * 8..bx * 8 + 8 {
                        m += u32::from(px[(y * width as usize + x) * 3 + c]);
                    }
                }
                m / 64
            };
            for c in 0..3 {
                let (a, b) = (mean(&whole.2, c), mean(&sent, c));
                assert!(
                    a.abs_diff(b) <= 24,
                    "the PNG's legend differs at block {bx},{by}"
                );
            }
        }
    }
    // A board with the Vikings lists them.
    let v = zinejudge::variant::builtin("ardri")
        .expect("shipped")
        .expect("loads");
    let with = svg(&v, &zinejudge::game::Position::initial(&v), &[], "t");
    assert!(legend(&with).contains("Vikings ("), "{}", legend(&with));
}

/// Item 11: no unit's marker (its box, letters, coast, a built unit's
/// ring, a gone unit's cross) covers a province's name or a centre's
/// mark, in the pictures of Ard-Ri's opening builds (the ring of each
/// unit built hid the name of the centre it was built in).
#[test]
fn item_11_unit_markers_never_cover_centre_names() {
    let mut w = World::new();
    let svg = svg_of(&ardri_built(&mut w));
    assert_eq!(svg.matches("<g class=\"unit built\"").count(), 15, "{svg}");
    crate::picture_support::no_marker_covers_a_name("Ard-Ri's builds", &svg);
}

/// Whether `p` is inside `rings` (even-odd).
fn inside(rings: &[Vec<(f32, f32)>], p: (f32, f32)) -> bool {
    let mut c = false;
    for r in rings {
        for k in 0..r.len() {
            let (a, b) = (r[k], r[(k + 1) % r.len()]);
            if (a.1 > p.1) != (b.1 > p.1) && p.0 < a.0 + (p.1 - a.1) / (b.1 - a.1) * (b.0 - a.0) {
                c = !c;
            }
        }
    }
    c
}

/// Item 11: on the standard map Switzerland's impassable hatch is
/// clearly not a power's colour (its grey hatch looked like Germany's
/// centres) nor open land: the mean colour of its pixels in the PNG a
/// player gets is far from that of every power's home centre and of an
/// unowned province.
#[test]
fn item_11_switzerland_is_clearly_not_a_powers_colour() {
    let mut w = World::new();
    standard(&mut w, "");
    let sent = all_hold(&mut w, &[]);
    let mail = to(&sent, &addr("Germany"))
        .into_iter()
        .find(|m| m.in_reply_to.is_none() && m.attachments.len() == 2)
        .cloned()
        .unwrap_or_else(|| panic!("no results with pictures: {sent:#?}"));
    let svg = svg_of(&mail);
    let (width, _, px) = crate::picture::pixels(file(&mail, ".png"));
    // The map is drawn below the title band.
    let top: f32 = svg
        .split("<g transform=\"translate(0 ")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .and_then(|n| n.parse().ok())
        .expect("the map's offset");
    // Names and units are left out: the area's own colour is compared.
    let mut covered = crate::picture_support::boxes(&svg, "<text class=\"label\"");
    covered.extend(crate::picture_support::markers(&svg));
    let mean = |abbr: &str| -> [f32; 3] {
        let rings = crate::picture::area(&svg, abbr);
        assert!(!rings.is_empty(), "no area {abbr}");
        let (mut sum, mut n) = ([0f32; 3], 0f32);
        let pts = rings.iter().flatten();
        let x0 = pts.clone().map(|p| p.0).fold(f32::MAX, f32::min) as usize;
        let x1 = pts.clone().map(|p| p.0).fold(0.0, f32::max) as usize;
        let y0 = pts.clone().map(|p| p.1).fold(f32::MAX, f32::min) as usize;
        let y1 = pts.map(|p| p.1).fold(0.0, f32::max) as usize;
        for y in y0..=y1 {
            for x in x0..=x1 {
                let p = (x as f32 + 0.5, y as f32 + 0.5);
                let near = |b: &[f32; 4]| {
                    p.0 > b[0] - 2.0
                        && p.0 < b[0] + b[2] + 2.0
                        && p.1 > b[1] - 2.0
                        && p.1 < b[1] + b[3] + 2.0
                };
                if !inside(&rings, p) || covered.iter().any(near) {
                    continue;
                }
                let i = ((y + top as usize) * width as usize + x) * 3;
                for (c, s) in sum.iter_mut().enumerate() {
                    *s += f32::from(px[i + c]);
                }
                n += 1.0;
            }
        }
        assert!(n > 50.0, "{abbr}: {n} pixels");
        sum.map(|s| s / n)
    };
    let swi = mean("Swi");
    let far = |what: &str, c: [f32; 3]| {
        let d = swi
            .iter()
            .zip(&c)
            .map(|(a, b)| (a - b).powi(2))
            .sum::<f32>()
            .sqrt();
        assert!(d >= 60.0, "Switzerland {swi:?} is {d:.0} from {what} {c:?}");
    };
    for (power, home) in [
        ("Austria", "Vie"),
        ("England", "Lon"),
        ("France", "Par"),
        ("Germany", "Ber"),
        ("Italy", "Rom"),
        ("Russia", "Mos"),
        ("Turkey", "Con"),
    ] {
        far(power, mean(home));
    }
    far("unowned land", mean("Boh"));
}

/// Item 11: every template of the judge's mail that signs it writes
/// RFC 3676's separator, `-- ` with its space, never a bare `--`.
#[test]
fn item_11_the_templates_sign_with_the_separator_and_its_space() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let mut signed = 0;
    for e in std::fs::read_dir(&dir).expect("templates/") {
        let path = e.expect("an entry").path();
        if path.extension().is_none_or(|x| x != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a template");
        for l in text.lines().filter(|l| l.trim_end() == "--") {
            assert_eq!(l, "-- ", "{}: {l:?}", path.display());
            signed += 1;
        }
    }
    assert!(signed > 0, "no template signs");
}

/// Item 1: a reply that quotes the judge's request to confirm, under a
/// Subject of its own, masks no ordinary word. The request's line "join
/// the game g as a player" read, quoted, as a JOIN whose password was
/// "game": the answer's Subject was "Re: my ********", and "game" was
/// masked everywhere in it.
#[test]
fn item_1_a_quoted_request_to_confirm_masks_no_word() {
    let mut w = World::new();
    w.reply(GM, "CREATE g standard gm-secret");
    w.auto_confirm = false;
    let sent = w.mail("new@example.test", "JOIN g secret-new England");
    let request = sent
        .iter()
        .find(|m| m.subject.contains("[CONFIRM "))
        .unwrap_or_else(|| panic!("no request: {sent:#?}"));
    assert!(
        flat(&request.body).contains("join the game g as a player"),
        "{}",
        request.body
    );
    let quoted: String = request.body.lines().map(|l| format!("> {l}\r\n")).collect();
    let raw = format!(
        "From: new@example.test\r\nTo: judge@example.test\r\nSubject: my game\r\n\
         Message-ID: <quoting@example.test>\r\n\r\nYes, that was me, for the game.\r\n\r\n\
         On Monday the judge wrote:\r\n{quoted}"
    );
    let sent = w.raw(raw.as_bytes());
    let reply = sent
        .iter()
        .find(|m| m.in_reply_to.as_deref() == Some("quoting@example.test"))
        .unwrap_or_else(|| panic!("no answer: {sent:#?}"));
    assert_eq!(reply.subject, "Re: my game");
    assert!(!reply.body.contains("********"), "{}", reply.body);
    assert!(
        flat(&reply.body).contains("A mail of yours still waits"),
        "{}",
        reply.body
    );
}

/// Item 11: an answer that carries the mails its mail caused to an
/// address that never confirmed (two HISTORY lines from a stranger) has
/// one signature, at its end: a `-- ` line inside it would make a mail
/// reader take all below for the signature, and each folded mail brought
/// its own.
#[test]
fn item_11_an_answer_with_mails_folded_in_is_signed_once_at_its_end() {
    let mut w = World::new();
    standard(&mut w, "");
    all_hold(&mut w, &[]);
    let r = w.reply("historian@example.test", "HISTORY g\nHISTORY g");
    assert!(r.contains("----- "), "nothing folded in:\n{r}");
    let signs: Vec<usize> = r
        .lines()
        .enumerate()
        .filter(|(_, l)| *l == "-- ")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(signs.len(), 1, "{r}");
    let after: Vec<&str> = r.lines().skip(signs[0] + 1).collect();
    assert_eq!(after.first(), Some(&"zinejudge"), "{r}");
    assert!(
        !r[..r.rfind("\n-- \n").unwrap_or(0)].contains("\nzinejudge\n"),
        "{r}"
    );
}
