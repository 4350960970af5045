//! The verified-password memory (src/commands/auth.rs): a player's
//! repeated correct password skips argon2, and nothing else changes: a
//! wrong one still pays argon2 and counts toward the lock, a locked seat
//! is refused whatever the password, and a new password (SET PASSWORD)
//! makes the old one fail and the new one pay argon2 once.
//!
//! The argon2 verifications are counted on the test's own thread (the
//! judge in a box processes each mail on it), so tests running at once do
//! not disturb the counts.

use crate::support_judge;
use support_judge::World;
use zinejudge::testing::trust::password::verifications_on_this_thread as argon2;

const GM: &str = "gm@example.test";
const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

/// A started game `game`. The verified-password memory is the process's,
/// shared by tests running at once: each test plays its own game, so that
/// one test's England is not another's.
fn started(game: &str) -> World {
    let mut w = World::new();
    w.reply(GM, &format!("CREATE {game} standard gm-secret"));
    for p in POWERS {
        w.reply(&addr(p), &format!("JOIN {game} pw-{p} {p}"));
    }
    w
}

/// Text with its line breaks made single spaces.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The failures counted, each once (per address; the count of all
/// addresses but the players' own together left out).
fn failures(w: &mut World) -> i64 {
    w.processor
        .store
        .conn()
        .query_row(
            "SELECT coalesce(sum(failures), 0) FROM signon_failures WHERE source <> '*'",
            &[],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn a_known_password_skips_argon2_and_a_guess_still_pays_and_counts() {
    let mut w = started("g");
    let before = argon2();
    let r = w.reply(&addr("England"), "SIGNON England g pw-England\nF(Lon)-ENG");
    assert!(r.contains("F(Lon)-ENG"), "{r}");
    assert_eq!(argon2(), before + 1, "the first sign-on pays argon2");
    let r = w.reply(&addr("England"), "SIGNON England g pw-England\nF(Edi)-NTH");
    assert!(
        r.contains("F(Edi)-NTH") && !r.contains("sign-on failed"),
        "{r}"
    );
    assert_eq!(argon2(), before + 1, "the same password again does not");

    // A guess, after the cached success: argon2 in full, and counted.
    for n in 1..=3 {
        let r = w.reply("eve@example.test", "SIGNON England g guess\nA(Lvp)-Wal");
        assert!(r.contains("sign-on failed"), "{r}");
        assert_eq!(argon2(), before + 1 + n, "each guess pays argon2");
        assert_eq!(failures(&mut w), n as i64);
    }
    // The third failure locked the guesser's address out: the right
    // password from there, known as it is, is refused without a check
    // until the lock ends.
    let r = w.reply(
        "eve@example.test",
        "SIGNON England g pw-England\nA(Lvp)-Yor",
    );
    assert!(flat(&r).contains("is locked until"), "{r}");
    assert_eq!(argon2(), before + 4, "a locked address checks nothing");
    // England's own address is never locked out; its known password needs
    // no argon2, and its success forgets the guesses.
    let r = w.reply(&addr("England"), "SIGNON England g pw-England\nA(Lvp)-Yor");
    assert!(
        r.contains("A(Lvp)-Yor") && !r.contains("sign-on failed"),
        "{r}"
    );
    assert_eq!(argon2(), before + 4, "the password is still known");
    assert_eq!(
        failures(&mut w),
        3,
        "the player's success does not forget the guesser's failures"
    );
}

#[test]
fn a_new_password_forgets_the_old_one() {
    let mut w = started("f");
    let before = argon2();
    w.reply(&addr("France"), "SIGNON France f pw-France\nA(Par)-Bur");
    w.reply(&addr("France"), "SIGNON France f pw-France\nA(Mar)-Spa");
    assert_eq!(argon2(), before + 1);
    let r = w.reply(
        &addr("France"),
        "SIGNON France f pw-France\nSET PASSWORD brand-new-pw",
    );
    assert!(!r.contains("sign-on failed"), "{r}");
    assert_eq!(argon2(), before + 1);
    // The old password no longer opens the seat, and paid argon2 to learn it.
    let r = w.reply(&addr("France"), "SIGNON France f pw-France\nA(Par)-Pic");
    assert!(r.contains("sign-on failed"), "{r}");
    assert_eq!(argon2(), before + 2);
    assert_eq!(failures(&mut w), 1);
    // The new one pays argon2 once, then is known.
    let r = w.reply(&addr("France"), "SIGNON France f brand-new-pw\nA(Par)-Pic");
    assert!(
        r.contains("A(Par)-Pic") && !r.contains("sign-on failed"),
        "{r}"
    );
    assert_eq!(argon2(), before + 3);
    let r = w.reply(&addr("France"), "SIGNON France f brand-new-pw\nA(Par)-Gas");
    assert!(r.contains("A(Par)-Gas"), "{r}");
    assert_eq!(argon2(), before + 3);
}

#[test]
fn the_same_password_for_another_seat_or_game_is_checked_on_its_own() {
    let mut w = started("s");
    w.reply(GM, "CREATE sh standard gm-secret");
    w.reply(&addr("England"), "JOIN sh pw-England England");
    let before = argon2();
    w.reply(&addr("England"), "SIGNON England s pw-England\nF(Lon)-ENG");
    assert_eq!(argon2(), before + 1);
    // Same address and password, another game: its own hash, its own check.
    let r = w.reply(&addr("England"), "SIGNON England sh pw-England\nF(Lon)-ENG");
    assert!(!r.contains("sign-on failed"), "{r}");
    assert_eq!(argon2(), before + 2);
    // Another seat with the password known for England: a failure.
    let r = w.reply(&addr("England"), "SIGNON France s pw-England\nA(Par)-Bur");
    assert!(r.contains("sign-on failed"), "{r}");
    assert_eq!(argon2(), before + 3);
}

/// The checks made ahead are counted for the whole process: the tests
/// that count them take turns.
static COUNTING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Store `mails` (from, body) and let the daemon's processor take them as
/// one batch, as it takes a queue of mail; returns each mail's reply.
fn batch(w: &mut World, tag: &str, mails: &[(&str, &str)]) -> Vec<String> {
    let t = w.unix();
    let mut ids = Vec::new();
    for (i, (from, body)) in mails.iter().enumerate() {
        let id = format!("{tag}{i}@example.test");
        let raw = format!(
            "From: {from}\r\nTo: judge@example.test\r\nSubject: orders\r\nMessage-ID: <{id}>\r\n\r\n{}\r\n",
            body.replace('\n', "\r\n")
        );
        w.processor
            .store
            .insert_inbound(&id, "test", raw.as_bytes(), raw.len() as i64, false, t)
            .unwrap();
        ids.push(id);
    }
    let now = w.now;
    let mut done = 0;
    while done < mails.len() {
        let n = w.processor.process_some(now, 64).unwrap();
        assert!(n > 0, "the processor took nothing");
        done += n;
    }
    let sent = w.sent();
    ids.iter()
        .map(|id| {
            sent.iter()
                .find(|m| m.in_reply_to.as_deref() == Some(id.as_str()))
                .map(|m| m.body.clone())
                .unwrap_or_else(|| panic!("no reply to {id}"))
        })
        .collect()
}

/// The daemon checks a batch's passwords ahead, on threads of their own:
/// the processing thread pays no argon2 for them, each password is
/// checked once, and what players are told, the failure counts and the
/// lock are exactly as when each mail checks its own.
#[test]
fn a_batch_has_its_passwords_checked_ahead_and_nothing_else_changes() {
    use zinejudge::testing::trust::signon::checked_ahead;
    let _turn = COUNTING.lock().unwrap_or_else(|e| e.into_inner());
    let mut w = started("b");
    let (here, ahead) = (argon2(), checked_ahead());
    // Seven first sign-ons, and England twice: eight mails, seven checks.
    let mut mails: Vec<(String, String)> = POWERS
        .iter()
        .map(|p| (addr(p), format!("SIGNON {p} b pw-{p}\nHOLD")))
        .collect();
    mails.push((addr("England"), "SIGNON England b pw-England\nHOLD".into()));
    let refs: Vec<(&str, &str)> = mails
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    for r in batch(&mut w, "cold", &refs) {
        assert!(
            r.contains("Signed on as") && !r.contains("sign-on failed"),
            "{r}"
        );
    }
    assert_eq!(argon2(), here, "the processing thread checked nothing");
    assert_eq!(checked_ahead(), ahead + 7, "one check per seat, made ahead");

    // Guesses in one batch: each refused and counted as before, each paid
    // once (ahead); the third locks the seat, so the fourth is refused as
    // locked.
    let guesses = [
        ("eve@example.test", "SIGNON France b guess-1\nA(Par)-Bur"),
        ("eve@example.test", "SIGNON France b guess-2\nA(Par)-Bur"),
        ("eve@example.test", "SIGNON France b guess-3\nA(Par)-Bur"),
        ("eve@example.test", "SIGNON France b pw-France\nA(Par)-Bur"),
    ];
    let r = batch(&mut w, "guess", &guesses);
    for reply in &r[..3] {
        assert!(reply.contains("sign-on failed"), "{reply}");
    }
    assert!(flat(&r[3]).contains("is locked until"), "{}", r[3]);
    assert_eq!(failures(&mut w), 3);
    assert_eq!(argon2(), here, "no guess was checked twice");

    // While the seat is locked nothing is checked, ahead or not.
    let before = checked_ahead();
    let r = batch(
        &mut w,
        "locked",
        &[("eve@example.test", "SIGNON France b guess-4\nHOLD")],
    );
    assert!(flat(&r[0]).contains("is locked until"), "{}", r[0]);
    assert_eq!(checked_ahead(), before);
    assert_eq!(argon2(), here);
}

/// A mail of thousands of sign-on lines for one seat is looked at once
/// ahead (only a seat's first sign-on is checked), and a batch always
/// moves on, however long its look ahead took: such a mail once stopped
/// the daemon's processing (every call spent its time budget looking
/// ahead and processed nothing).
#[test]
fn a_flood_of_sign_on_lines_costs_one_check_and_never_stalls_a_batch() {
    use zinejudge::testing::trust::signon::checked_ahead;
    let _turn = COUNTING.lock().unwrap_or_else(|e| e.into_inner());
    let mut w = started("fl");
    let flood: String = (0..8000)
        .map(|i| format!("SIGNON France fl guess{i}\n"))
        .collect();
    let before = checked_ahead();
    let r = batch(
        &mut w,
        "flood",
        &[
            ("eve@example.test", flood.as_str()),
            (&addr("Italy"), "SIGNON Italy fl pw-Italy\nA(Ven)-Tyr"),
        ],
    );
    assert!(r[0].contains("sign-on failed"), "{}", r[0]);
    assert!(
        r[1].contains("A(Ven)-Tyr") && !r[1].contains("sign-on failed"),
        "{}",
        r[1]
    );
    assert_eq!(checked_ahead(), before + 2, "one check ahead for each mail");
    assert_eq!(failures(&mut w), 1, "the flood counted once");
}
