//! A game keeps the variant it started with (issue #52): a variant file of
//! the judge's folder that changes, breaks or is shadowed by another file
//! of the same name, and a reload, never change a running game's board or
//! stop it; its GM is told, and new games get the folder's file.

use crate::support_judge::{Sent, World};
use zinejudge::testing::commands::Judge;
use zinejudge::variant::Variant;

const GM: &str = "gm@example.test";
const NORTH: &str = "north@example.test";
const SOUTH: &str = "south@example.test";

/// Two Isles, the worked example: its land bridge is Midmark (`Mid`).
const FIRST: &str = include_str!("../variants/twoisles.toml");

/// The same variant's file edited: Midmark is now Centremark (`Cen`).
fn edited() -> String {
    FIRST
        .replace("\"Mid\"", "\"Cen\"")
        .replace("Midmark", "Centremark")
}

/// The judge after a reload (SIGHUP) whose folder gives `files` (a broken
/// file gives nothing).
fn reload(w: &mut World, files: &[&str]) {
    let mut judge = Judge::new("zinejudge", "UTC");
    for f in files {
        judge.add_variant(Variant::from_toml(f).expect("loads"));
    }
    w.processor.responder = Box::new(judge);
}

/// A game of Two Isles, started.
fn started(w: &mut World, game: &str) {
    w.mail(GM, &format!("CREATE {game} twoisles gm-secret"));
    w.mail(NORTH, &format!("JOIN {game} pw-north Boreas"));
    let sent = w.mail(SOUTH, &format!("JOIN {game} pw-south Notus"));
    assert!(
        sent.iter()
            .any(|m| m.to_has(NORTH) && m.body.contains("Boreas")),
        "{sent:#?}"
    );
}

fn to<'a>(sent: &'a [Sent], who: &str) -> Vec<&'a Sent> {
    sent.iter().filter(|m| m.to_has(who)).collect()
}

/// The key a copy of Two Isles is kept by (`twoisles#<fingerprint>`).
fn key(text: &str) -> String {
    Variant::from_toml(text).expect("loads").key()
}

fn reply_to<'a>(sent: &'a [Sent], who: &str) -> &'a str {
    sent.iter()
        .find(|m| m.to_has(who) && m.in_reply_to.is_some())
        .map_or("", |m| m.body.as_str())
}

#[test]
fn a_running_game_keeps_its_variant_when_the_folder_s_file_changes() {
    let mut w = World::with_variant_text(FIRST);
    started(&mut w, "ti");
    // The file is edited and the judge reloaded: Midmark is Centremark
    // now, for new games.
    reload(&mut w, &[&edited()]);
    let sent = w.mail(NORTH, "SIGNON Boreas ti pw-north\nA(Nor)-Mid");
    let reply = reply_to(&sent, NORTH);
    assert!(
        reply.contains("Orders held for Boreas") && reply.contains("  A(Nor)-Mid\n"),
        "the game's own board still has Midmark:\n{reply}"
    );
    // The GM hears of it, once, with the name the game's copy goes by.
    let told = to(&sent, GM);
    assert_eq!(told.len(), 1, "{sent:#?}");
    assert!(
        told[0]
            .subject
            .contains("ti: the file of its variant has changed")
    );
    assert!(told[0].body.contains(&key(FIRST)), "{}", told[0].body);
    let list = w.reply(GM, "LIST");
    assert!(list.contains(&format!("ti ({})", key(FIRST))), "{list}");
    assert!(to(&w.mail(GM, "LIST"), GM).len() == 1, "told only once");
    // A new game gets the folder's file.
    w.mail(GM, "CREATE tj twoisles gm-secret");
    w.mail(NORTH, "JOIN tj pw-north Boreas");
    w.mail(SOUTH, "JOIN tj pw-south Notus");
    let reply = w.reply(NORTH, "SIGNON Boreas tj pw-north\nA(Nor)-Cen");
    assert!(reply.contains("  A(Nor)-Cen\n"), "{reply}");
    // And the running game plays on with its own: its move to Midmark
    // is judged.
    w.mail(SOUTH, "SIGNON Notus ti pw-south\nA(Sou)-Shv\nF(Shv)-SOS");
    let sent = w.mail(GM, "SIGNON GM ti gm-secret\nPROCESS");
    let results = to(&sent, SOUTH)
        .into_iter()
        .find(|m| m.body.contains("Fall 1901"))
        .map_or_else(|| panic!("no results: {sent:#?}"), |m| m.body.clone());
    assert!(results.contains("A(Nor)-Mid"), "{results}");
}

#[test]
fn a_broken_file_stops_neither_the_game_nor_the_judge_and_the_gm_hears_of_it() {
    let mut w = World::with_variant_text(FIRST);
    started(&mut w, "ti");
    w.mail(NORTH, "SIGNON Boreas ti pw-north\nA(Nor)-Mid");
    // The file no longer loads: after the reload the folder gives no
    // Two Isles at all.
    reload(&mut w, &[]);
    // The clock finds it first, without waiting for a mail.
    let sent = w.advance(60);
    let told = to(&sent, GM);
    assert_eq!(told.len(), 1, "{sent:#?}");
    assert!(
        told[0]
            .subject
            .contains("ti: the file of its variant no longer loads"),
        "{}",
        told[0].subject
    );
    // Everyone goes on playing: orders are read, the GM processes.
    let reply = w.reply(SOUTH, "SIGNON Notus ti pw-south\nA(Sou)-Shv\nF(Shv)-SOS");
    assert!(reply.contains("Orders held for Notus"), "{reply}");
    let sent = w.mail(GM, "SIGNON GM ti gm-secret\nPROCESS");
    assert!(
        to(&sent, NORTH)
            .iter()
            .any(|m| m.body.contains("A(Nor)-Mid")),
        "the phase is judged: {sent:#?}"
    );
    // The deadline too: the clock judges the game on its own.
    let sent = w.advance(5 * 24 * 3600);
    assert!(
        to(&sent, NORTH)
            .iter()
            .any(|m| m.subject.contains("Fall 1901")),
        "{:#?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    // A new game cannot be made of a file that does not load.
    let reply = w.reply(GM, "CREATE tk twoisles gm-secret");
    assert!(
        reply.contains("neither word after the game's name"),
        "{reply}"
    );
}

#[test]
fn the_file_given_back_as_it_was_gives_the_game_its_name_back() {
    let mut w = World::with_variant_text(FIRST);
    started(&mut w, "ti");
    reload(&mut w, &[&edited()]);
    let list = w.reply(GM, "LIST");
    assert!(list.contains(&key(FIRST)), "{list}");
    // Then broken: the GM hears of that too.
    reload(&mut w, &[]);
    let sent = w.mail(GM, "LIST");
    assert!(
        to(&sent, GM)
            .iter()
            .any(|m| m.subject == "ti: the file of its variant no longer loads"),
        "{sent:#?}"
    );
    reload(&mut w, &[FIRST]);
    let list = w.reply(GM, "LIST");
    assert!(list.contains("ti (twoisles)"), "{list}");
    let reply = w.reply(NORTH, "SIGNON Boreas ti pw-north\nA(Nor)-Mid");
    assert!(reply.contains("  A(Nor)-Mid\n"), "{reply}");
}
