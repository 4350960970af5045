//! njudge's and DPjudge's mail, as their help pages teach it, through the
//! real processor and store (in memory): every form is read right or
//! refused by name. The same families go through the real daemon in
//! tests/mail/njudge_forms.rs (DPjudge's forms too); these check the
//! details quickly.

use crate::support_judge;
use support_judge::{Sent, World};

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];
const GM: &str = "gm@example.test";

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

fn pw(p: &str) -> String {
    format!("pw-{}-secret", p.to_lowercase())
}

/// A started standard game `g` with all seven players.
fn started() -> World {
    let mut w = World::new();
    w.reply(
        GM,
        "CREATE g standard gm-secret\nSET PRESS GREY\nSET ASSIGNMENT FIRST-COME",
    );
    for p in POWERS {
        w.reply(&addr(p), &format!("JOIN g {} {p}", pw(p)));
    }
    w
}

/// A mail from `p`'s player, signed on njudge's way.
fn nj(w: &mut World, p: &str, body: &str) -> Vec<Sent> {
    let letter = &p[..1];
    w.mail(&addr(p), &format!("SIGNON {letter}g {}\n{body}", pw(p)))
}

/// The reply to `p`, its lines joined and its spaces single (a sentence
/// is found wherever the judge wrapped it).
fn reply_of(sent: &[Sent], p: &str) -> String {
    let body = sent
        .iter()
        .find(|m| m.to_has(&addr(p)) && m.in_reply_to.is_some())
        .map(|m| m.body.clone())
        .unwrap_or_else(|| panic!("no reply to {p}: {sent:#?}"));
    body.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Who got press in `sent` (the GM's copy aside).
fn press_readers(sent: &[Sent]) -> Vec<String> {
    let mut v: Vec<String> = sent
        .iter()
        .filter(|m| m.subject.contains(": press") && !m.subject.contains("GM copy"))
        .flat_map(|m| m.to.clone())
        .collect();
    v.sort();
    v
}

fn addrs(ps: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ps.iter().map(|p| addr(p)).collect();
    v.sort();
    v
}

#[test]
fn press_to_initials_and_lists_reaches_those_named_only() {
    let mut w = started();
    let sent = nj(&mut w, "Italy", "PRESS TO FG\nhello\nENDPRESS");
    assert_eq!(press_readers(&sent), addrs(&["France", "Germany"]));
    let sent = nj(
        &mut w,
        "Italy",
        "PRESS TO France,Russia, austria\nhi\nENDPRESS",
    );
    assert_eq!(
        press_readers(&sent),
        addrs(&["Austria", "France", "Russia"])
    );
    let sent = nj(&mut w, "Italy", "PRESS TO ALL BUT G\nnot you\nENDPRESS");
    let mut all: Vec<&str> = POWERS
        .iter()
        .copied()
        .filter(|p| *p != "Germany" && *p != "Italy")
        .collect();
    all.sort();
    assert_eq!(press_readers(&sent), addrs(&all));
    let body = &sent
        .iter()
        .find(|m| m.to_has(&addr("France")) && m.subject.contains("press"))
        .unwrap()
        .body;
    assert!(body.contains("to everybody but Germany"), "{body}");
    // Grey, both ways round.
    let sent = nj(&mut w, "Italy", "PRESS GREY TO AF\npsst\nENDPRESS");
    assert_eq!(press_readers(&sent), addrs(&["Austria", "France"]));
    assert!(
        sent.iter()
            .filter(|m| m.to_has(&addr("France")))
            .all(|m| !m.body.contains("From Italy")),
        "{sent:#?}"
    );
    // To the GM alone.
    let sent = nj(
        &mut w,
        "Italy",
        "PRESS TO M\nmay I have more time?\nENDPRESS",
    );
    assert!(press_readers(&sent).is_empty(), "{sent:#?}");
    assert!(
        sent.iter()
            .any(|m| m.to_has(GM) && m.body.contains("may I have more time?"))
    );
    // A word that is a name and initials both: refused, both named.
    let r = reply_of(&nj(&mut w, "Italy", "PRESS TO Fra\nx\nENDPRESS"), "Italy");
    assert!(r.contains("could be France or the initials"), "{r}");
    // `GM`: the GM, or Germany and the Master on njudge: both named.
    let sent = nj(&mut w, "Italy", "PRESS TO GM\nx\nENDPRESS");
    assert!(press_readers(&sent).is_empty(), "{sent:#?}");
    let r = reply_of(&sent, "Italy");
    assert!(
        r.contains("could be the GM or the initials of Germany, the GM"),
        "{r}"
    );
}

#[test]
fn every_terminator_ends_press_and_nothing_after_it_is_press() {
    let mut w = started();
    // ENDBROADCAST ends a BROADCAST: the orders after it are orders.
    let sent = nj(
        &mut w,
        "Italy",
        "BROADCAST\nWe come in peace.\nENDBROADCAST\nA Ven-Tyr\nSIGNOFF\nItaly's king",
    );
    for m in sent.iter().filter(|m| m.subject.contains("press")) {
        assert!(
            !m.body.contains("A Ven-Tyr") && !m.body.contains("king"),
            "{m:#?}"
        );
    }
    let r = reply_of(&sent, "Italy");
    assert!(r.contains("line 5: A(Ven)-Tyr"), "{r}");
    // SIGNOFF ends press and the mail.
    let sent = nj(
        &mut w,
        "Russia",
        "PRESS TO R\nnote to self\nSIGNOFF\nA Mos-Ukr\n-- \nsig",
    );
    assert!(
        sent.iter().all(|m| !m.body.contains("A Mos-Ukr")),
        "{sent:#?}"
    );
    let r = reply_of(&sent, "Russia");
    assert!(r.contains("reads nothing after SIGNOFF"), "{r}");
    // ENDPRESS ends PRESS, and ENDBROADCAST ends PRESS too.
    let sent = nj(
        &mut w,
        "Austria",
        "PRESS TO I\nsecret\nENDBROADCAST\nF Tri-Alb",
    );
    assert_eq!(press_readers(&sent), addrs(&["Italy"]));
    assert!(reply_of(&sent, "Austria").contains("F(Tri)-Alb"));
    // The end of the mail ends press.
    let sent = nj(&mut w, "Turkey", "PRESS TO R\nlast words");
    assert_eq!(press_readers(&sent), addrs(&["Russia"]));
}

#[test]
fn njudge_signons_enter_games_and_abandoned_powers_are_the_gms() {
    let mut w = World::new();
    w.reply(GM, "CREATE g standard gm-secret\nSET ASSIGNMENT FIRST-COME");
    // SIGNON ?game password [variant] joins; the wrong variant is refused.
    let r = w.reply(&addr("England"), "SIGNON ?g eng-secret1 ardri");
    assert!(r.contains("g plays Standard Diplomacy, not ardri"), "{r}");
    let r = w.reply(&addr("England"), "SIGNON ?g eng-secret1 standard");
    assert!(r.contains("You play"), "{r}");
    // SIGNON ? password joins the first game taking players.
    let r = w.reply(&addr("France"), "SIGNON ? fra-secret1");
    assert!(
        r.contains("joins the first standard game") && r.contains("You play"),
        "{r}"
    );
    // SIGNON Ogame password observes.
    let r = w.reply("watcher@example.test", "SIGNON Og whatever-pw");
    assert!(r.contains("You will receive this game's results"), "{r}");
    // CREATE ?game password variant (njudge) and CREATE game password
    // (DPjudge).
    let r = w.reply("gm2@example.test", "CREATE ?h gm2-secret ardri");
    assert!(r.contains("Created h (Ard-Ri"), "{r}");
    assert!(r.contains("CREATE ?h ******** ardri"), "{r}");
    let r = w.reply("gm3@example.test", "CREATE k gm3-secret");
    assert!(r.contains("Created k (Standard"), "{r}");
    assert!(!r.contains("gm3-secret"), "{r}");
}

#[test]
fn the_players_sets_are_votes_and_absences() {
    let mut w = started();
    let r = reply_of(&nj(&mut w, "Italy", "SET DRAW"), "Italy");
    assert!(r.contains("You vote for a draw."), "{r}");
    let r = reply_of(&nj(&mut w, "Italy", "SET NO DRAW"), "Italy");
    assert!(r.contains("You withdraw your draw vote."), "{r}");
    let r = reply_of(&nj(&mut w, "Italy", "SET DRAW AEI"), "Italy");
    assert!(r.contains("include every surviving power"), "{r}");
    let r = reply_of(&nj(&mut w, "Italy", "SET CONCEDE A"), "Italy");
    assert!(r.contains("You concede victory to Austria."), "{r}");
    let r = reply_of(&nj(&mut w, "Italy", "SET NO CONCEDE"), "Italy");
    assert!(r.contains("You withdraw your concession."), "{r}");
    let r = reply_of(&nj(&mut w, "Italy", "SET ABSENCE 24 DEC TO 6 JAN"), "Italy");
    assert!(r.contains("Absence recorded: Sun 24 Dec 2028"), "{r}");
    let r = reply_of(&nj(&mut w, "Italy", "SET NOABSENCE 24 Dec"), "Italy");
    assert!(r.contains("Absence taken back"), "{r}");
    let r = reply_of(&nj(&mut w, "Italy", "SET NO PRESS"), "Italy");
    assert!(r.contains("only the GM may do that"), "{r}");
}

#[test]
fn phase_orders_are_kept_for_their_phase_only() {
    let mut w = started();
    let sent = nj(
        &mut w,
        "Germany",
        "A Mun H\nPHASE Fall 1901 Movement\nA Mun-Ruh",
    );
    let r = reply_of(&sent, "Germany");
    assert!(r.contains("line 2: A(Mun) H"), "{r}");
    assert!(!r.contains("replaces"), "{r}");
    assert!(
        r.contains("Kept for Fall 1901 movement") && r.contains("line 4: A(Mun)-Ruh"),
        "{r}"
    );
    assert!(r.contains("Orders kept for later phases"), "{r}");
}

/// The GM processes the phase; returns what the judge sent.
fn process(w: &mut World) -> Vec<Sent> {
    w.mail(GM, "SIGNON GM g gm-secret\nPROCESS")
}

#[test]
fn phase_orders_wait_for_a_retreat_and_an_adjustment() {
    let mut w = started();
    // Spring 1901: Russia walks into Galicia; Austria moves its fleet on.
    nj(&mut w, "Russia", "A War-Gal");
    nj(&mut w, "Austria", "F Tri-Alb");
    // Russia sends its retreat ahead, then changes its mind in a later
    // mail; Austria sends its builds ahead, one of them bad.
    let r = reply_of(
        &nj(&mut w, "Russia", "PHASE Fall 1901 Retreat\nA Gal-Sil"),
        "Russia",
    );
    assert!(r.contains("Kept for Fall 1901 retreat"), "{r}");
    let r = reply_of(&nj(&mut w, "Russia", "PHASE F 1901 R\nA Gal-Ukr"), "Russia");
    assert!(r.contains("replaces A(Gal)-Sil (an earlier mail)"), "{r}");
    let r = reply_of(
        &nj(
            &mut w,
            "Austria",
            "PHASE Winter 1901 Builds\nBuild A Vie\nBuild F Tri",
        ),
        "Austria",
    );
    assert!(r.contains("Kept for Winter 1901 adjustment"), "{r}");
    // Germany sends a retreat ahead for a retreat phase that will not be.
    nj(&mut w, "Germany", "PHASE Spring 1901 Retreat\nA Mun-Boh");
    let sent = process(&mut w);
    // Spring's retreats never came: Germany's kept retreat is used for no
    // other phase, and Germany is told.
    assert!(
        sent.iter().all(|m| !m.subject.contains("sent ahead")),
        "{sent:#?}"
    );
    let unused = sent
        .iter()
        .find(|m| m.to_has(&addr("Germany")) && m.subject.contains("not used"))
        .unwrap_or_else(|| panic!("{sent:#?}"));
    assert!(unused.body.contains("A(Mun)-Boh"), "{}", unused.body);
    // Fall 1901: Austria dislodges the Russian army in Galicia and takes
    // Greece. Russia's kept retreat is no order for the movement phase.
    let r = reply_of(&nj(&mut w, "Russia", "A Gal H"), "Russia");
    assert!(!r.contains("replaces"), "{r}");
    assert!(r.contains("Fall 1901 retreat: A(Gal)-Ukr"), "{r}");
    nj(&mut w, "Austria", "A Bud-Gal\nA Vie S A Bud-Gal\nF Alb-Gre");
    let sent = process(&mut w);
    let ahead = sent
        .iter()
        .find(|m| m.to_has(&addr("Russia")) && m.subject.contains("sent ahead"))
        .unwrap_or_else(|| panic!("{sent:#?}"));
    assert!(ahead.body.contains("A(Gal)-Ukr"), "{}", ahead.body);
    assert!(
        ahead.body.contains("Your orders are complete"),
        "{}",
        ahead.body
    );
    // The retreat is played as sent, at once: the order kept for it was
    // the only one it waited for.
    let results = sent
        .iter()
        .find(|m| m.to_has(&addr("Russia")) && m.subject.contains("retreats"))
        .unwrap_or_else(|| panic!("{sent:#?}"));
    assert!(results.body.contains("Ukr"), "{}", results.body);
    // Winter 1901: Austria's builds come in; the one in occupied Vienna is
    // refused, and the refusal mailed.
    let ahead = sent
        .iter()
        .find(|m| m.to_has(&addr("Austria")) && m.subject.contains("sent ahead"))
        .unwrap_or_else(|| panic!("{sent:#?}"));
    assert!(
        ahead.body.contains("Build F(Tri)") && ahead.body.contains("Not accepted"),
        "{}",
        ahead.body
    );
}

fn gm(w: &mut World, body: &str) -> String {
    let sent = w.mail(GM, &format!("SIGNON Mg gm-secret\n{body}"));
    sent.iter()
        .find(|m| m.to_has(GM) && m.in_reply_to.is_some())
        .map(|m| {
            m.body
                .lines()
                .map(str::trim_end)
                .collect::<Vec<_>>()
                .join("\n")
                .replace("\n      ", " ")
        })
        .unwrap_or_else(|| panic!("{sent:#?}"))
}

#[test]
fn the_gms_words_are_this_judges_commands_or_refused_by_name() {
    let mut w = World::new();
    w.reply(GM, "CREATE g standard gm-secret\nSET ASSIGNMENT FIRST-COME");
    w.reply(
        &addr("England"),
        &format!("JOIN g {} England", pw("England")),
    );
    let r = gm(&mut w, "FORCE BEGIN");
    assert!(
        r.contains("FORCE BEGIN is this judge's START") && r.contains("has started"),
        "{r}"
    );
    let r = gm(&mut w, "PREDICT");
    assert!(r.contains("A preview with the current orders"), "{r}");
    let r = gm(&mut w, "TERMINATE");
    assert!(r.contains("END DRAW") && r.contains("END WIN"), "{r}");
    let r = gm(&mut w, "PAUSE\nACTIVATE");
    assert!(r.contains("ACTIVATE is this judge's RESUME"), "{r}");
    // BECOME: the GM gives England's orders; England's player is told.
    let sent = w.mail(GM, "SIGNON Mg gm-secret\nBECOME England\nF Lon-ENG");
    assert!(
        sent.iter().any(|m| m.to_has(&addr("England"))
            && m.subject == "g: the GM acted for your power"
            && m.body.contains("BECOME England")),
        "{sent:#?}"
    );
    let r = gm(&mut w, "BECOME Master");
    assert!(r.contains("GM already"), "{r}");
    // GET and VERSION.
    let r = w.reply("new@example.test", "GET PACKAGE");
    assert!(r.contains("Commands are lines of a mail"), "{r}");
    let r = w.reply("new@example.test", "GET FORM");
    assert!(r.contains("no register of players"), "{r}");
    let r = w.reply("new@example.test", "VERSION");
    assert!(r.contains("runs zinejudge"), "{r}");
    // A diary is kept for the player: no press and no orders.
    let sent = nj(
        &mut w,
        "England",
        "DIARY\nA Lon-Yor, they will never see it coming\nENDPRESS\nA Lvp-Yor",
    );
    let r = reply_of(&sent, "England");
    assert!(r.contains("Kept as diary entry 1 (1 line)"), "{r}");
    assert_eq!(sent.len(), 1, "nobody else is mailed: {sent:#?}");
    assert!(r.contains("A(Lvp)-Yor") && !r.contains("A(Lon)-Yor"), "{r}");
    // DPjudge's TAKEOVER master@game: a new GM.
    let sent = w.mail("newgm@example.test", "TAKEOVER master@g gm-secret");
    assert!(
        sent.iter()
            .any(|m| m.to_has(GM) && m.subject == "g: a new GM"),
        "{sent:#?}"
    );
    let r = w.reply("x@example.test", "LIST g");
    assert!(!r.contains("gm@example.test"), "{r}");
}

#[test]
fn a_new_address_entering_by_njudges_signon_confirms_first() {
    let mut w = World::new();
    w.reply(GM, "CREATE g standard gm-secret\nSET ASSIGNMENT FIRST-COME");
    w.auto_confirm = false;
    let sent = w.mail("stranger@example.test", "SIGNON ?g stranger-secret");
    assert!(
        sent.iter().any(|m| m.subject.contains("[CONFIRM ")),
        "{sent:#?}"
    );
    let r = w.reply("x@example.test", "WHO g");
    assert!(!r.contains("stranger"), "{r}");
}

#[test]
fn powers_of_several_words_and_their_letters() {
    let mut w = World::new();
    w.reply(GM, "CREATE g 1066 gm-secret\nSET ASSIGNMENT FIRST-COME");
    let names = [
        "Duke William",
        "Harald Hardrada",
        "Harold Godwinson",
        "The Norse",
        "The Northern Earls",
        "The Scots",
        "The Welsh",
    ];
    for (i, p) in names.iter().enumerate() {
        let r = w.reply(
            &format!("p{i}@example.test"),
            &format!("JOIN g player-{i}-secret {p}"),
        );
        assert!(r.contains(&format!("You play {p}")), "{r}");
    }
    // njudge's letters: Harold Godwinson's H is Harald Hardrada's.
    let r = w.reply("p2@example.test", "SIGNON Ag player-2-secret");
    assert!(r.contains("Signed on as Harold Godwinson"), "{r}");
    let r = w.reply("p4@example.test", "SIGNON Rg player-4-secret");
    assert!(
        r.contains("Signed on as The Northern Earls") && r.contains("letter is R"),
        "{r}"
    );
    let sent = w.mail(
        "p0@example.test",
        "SIGNON Duke William g player-0-secret\nPRESS TO The Northern Earls, The Scots\nhail\nENDPRESS\nCONCEDE Harold Godwinson",
    );
    let mut readers = press_readers(&sent);
    readers.sort();
    assert_eq!(readers, ["p4@example.test", "p5@example.test"]);
    let r = gm(&mut w, "EDIT OWNER Gwy The Norse");
    assert!(r.contains("now belongs to The Norse"), "{r}");
    let r = gm(&mut w, "EDIT REMOVE Lot\nEDIT ADD The Scots F Lot");
    assert!(r.contains("Edit: added Scottish F Lot"), "{r}");
}

/// njudge's listing words: `WHOGAME` alone after a sign-on names the
/// signed-on game, `WHO GAME g` the game g, and `LIST FULL` every game;
/// none of GAME or FULL is read as a game's name (nor may a game be
/// called FULL).
#[test]
fn njudges_whogame_and_list_full_are_read_as_njudge_meant_them() {
    let mut w = started();
    let alone = reply_of(&nj(&mut w, "France", "WHOGAME"), "France");
    assert!(
        alone.contains("England") && alone.contains("Turkey"),
        "WHOGAME after a sign-on lists the game's powers: {alone}"
    );
    assert!(!alone.contains("no game"), "{alone}");
    let worded = reply_of(&w.mail(&addr("France"), "WHO GAME g"), "France");
    assert!(
        worded.contains("England") && !worded.contains("no game called"),
        "WHO GAME g is the roster of g: {worded}"
    );
    let bare = reply_of(&w.mail(&addr("France"), "WHOGAME"), "France");
    assert!(
        bare.contains("SIGNON first"),
        "WHOGAME with no sign-on says how to name the game: {bare}"
    );
    let full = reply_of(&w.mail(&addr("France"), "LIST FULL"), "France");
    assert!(
        full.contains("g (standard), active"),
        "LIST FULL lists the games: {full}"
    );
    assert!(!full.contains("no game called"), "{full}");
    let named = reply_of(
        &w.mail("new@example.test", "CREATE full standard pw-secret-1"),
        "new",
    );
    assert!(
        named.contains("word of LIST"),
        "a game may not be called FULL: {named}"
    );
}

/// DPjudge's `CREATE game password variant` with a variant that is not
/// built in but one of the judge's own (its `[variants] dir` folder's, as
/// the daemon adds them): Youngstown imported with the CLI. The password
/// is masked where the line is echoed and the game is Youngstown; this
/// judge's form still names it the other way round; a line whose two
/// words are neither a variant says so without repeating them, and a
/// wrong password at sign-on is refused as ever.
#[test]
fn dpjudge_create_game_password_variant_with_a_folder_variant() {
    let file = crate::support_play::import_with_cli(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dpjudge/youngstown.map"),
        &std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("create-youngstown.toml"),
        &[],
    );
    let mut w = World::with_variant_file(&file);
    let r = w.reply(GM, "CREATE yg gm-secret youngstown");
    assert!(r.contains("Created yg (Youngstown"), "{r}");
    assert!(r.contains("CREATE yg ******** youngstown"), "{r}");
    assert!(!r.contains("gm-secret"), "{r}");
    let r = w.reply(GM, "SIGNON GM yg gm-secret");
    assert!(r.contains("Signed on as the GM of yg"), "{r}");
    let r = w.reply(GM, "SIGNON GM yg youngstown");
    assert!(
        r.contains("sign-on failed: the game, power or password is not right"),
        "{r}"
    );
    // This judge's own form, the variant before the password.
    let r = w.reply("gm2@example.test", "CREATE yh youngstown gm2-secret");
    assert!(r.contains("Created yh (Youngstown"), "{r}");
    assert!(r.contains("CREATE yh youngstown ********"), "{r}");
    // Neither word a variant: no game, the password not repeated, and
    // the variants the judge plays listed, the folder's among them.
    let r = w.reply("gm3@example.test", "CREATE yi gm3-secret youngtown");
    let flat = r.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!r.contains("Created yi"), "{r}");
    assert!(
        flat.contains("neither word after the game's name is a variant the judge plays"),
        "{r}"
    );
    assert!(!r.contains("gm3-secret"), "{r}");
    assert!(
        flat.contains("standard") && flat.contains("youngstown"),
        "{r}"
    );
}
