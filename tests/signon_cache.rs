//! The verified-password memory (src/commands/auth.rs): a player's
//! repeated correct password skips argon2, and nothing else changes: a
//! wrong one still pays argon2 and counts toward the lock, a locked seat
//! is refused whatever the password, and a new password (SET PASSWORD)
//! makes the old one fail and the new one pay argon2 once.
//!
//! The argon2 verifications are counted on the test's own thread (the
//! judge in a box processes each mail on it), so tests running at once do
//! not disturb the counts.

#[path = "support_judge/mod.rs"]
mod support_judge;

use support_judge::World;
use zinejudge::commands::password::verifications_on_this_thread as argon2;

const GM: &str = "gm@example.test";
const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

fn started() -> World {
    let mut w = World::new();
    w.reply(GM, "CREATE g standard gmpw");
    for p in POWERS {
        w.reply(&addr(p), &format!("JOIN g pw-{p} {p}"));
    }
    w
}

fn failures(w: &mut World) -> i64 {
    w.processor
        .store
        .conn()
        .query_row(
            "SELECT coalesce(sum(failures), 0) FROM signon_failures WHERE game = 'g'",
            &[],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn a_known_password_skips_argon2_and_a_guess_still_pays_and_counts() {
    let mut w = started();
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
    // The third failure locked the seat: the right password, known as it
    // is, is refused without a check until the lock ends.
    let r = w.reply(&addr("England"), "SIGNON England g pw-England\nA(Lvp)-Yor");
    assert!(r.contains("is locked until"), "{r}");
    assert_eq!(argon2(), before + 4, "a locked seat checks nothing");
    w.advance(61);
    let r = w.reply(&addr("England"), "SIGNON England g pw-England\nA(Lvp)-Yor");
    assert!(
        r.contains("A(Lvp)-Yor") && !r.contains("sign-on failed"),
        "{r}"
    );
    assert_eq!(
        argon2(),
        before + 4,
        "after the lock the password is still known"
    );
    assert_eq!(failures(&mut w), 0, "a success forgets the failures");
}

#[test]
fn a_new_password_forgets_the_old_one() {
    let mut w = started();
    let before = argon2();
    w.reply(&addr("France"), "SIGNON France g pw-France\nA(Par)-Bur");
    w.reply(&addr("France"), "SIGNON France g pw-France\nA(Mar)-Spa");
    assert_eq!(argon2(), before + 1);
    let r = w.reply(
        &addr("France"),
        "SIGNON France g pw-France\nSET PASSWORD brand-new-pw",
    );
    assert!(!r.contains("sign-on failed"), "{r}");
    assert_eq!(argon2(), before + 1);
    // The old password no longer opens the seat, and paid argon2 to learn it.
    let r = w.reply(&addr("France"), "SIGNON France g pw-France\nA(Par)-Pic");
    assert!(r.contains("sign-on failed"), "{r}");
    assert_eq!(argon2(), before + 2);
    assert_eq!(failures(&mut w), 1);
    // The new one pays argon2 once, then is known.
    let r = w.reply(&addr("France"), "SIGNON France g brand-new-pw\nA(Par)-Pic");
    assert!(
        r.contains("A(Par)-Pic") && !r.contains("sign-on failed"),
        "{r}"
    );
    assert_eq!(argon2(), before + 3);
    let r = w.reply(&addr("France"), "SIGNON France g brand-new-pw\nA(Par)-Gas");
    assert!(r.contains("A(Par)-Gas"), "{r}");
    assert_eq!(argon2(), before + 3);
}

#[test]
fn the_same_password_for_another_seat_or_game_is_checked_on_its_own() {
    let mut w = started();
    w.reply(GM, "CREATE h standard gmpw");
    w.reply(&addr("England"), "JOIN h pw-England England");
    let before = argon2();
    w.reply(&addr("England"), "SIGNON England g pw-England\nF(Lon)-ENG");
    assert_eq!(argon2(), before + 1);
    // Same address and password, another game: its own hash, its own check.
    let r = w.reply(&addr("England"), "SIGNON England h pw-England\nF(Lon)-ENG");
    assert!(!r.contains("sign-on failed"), "{r}");
    assert_eq!(argon2(), before + 2);
    // Another seat with the password known for England: a failure.
    let r = w.reply(&addr("England"), "SIGNON France g pw-England\nA(Par)-Bur");
    assert!(r.contains("sign-on failed"), "{r}");
    assert_eq!(argon2(), before + 3);
}
