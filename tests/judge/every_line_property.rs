//! The promise of every reply to an order mail, as a property: for any mail
//! body mixing orders (taken and refused), chat, quoted text and a
//! signature, every line the player wrote outside the quotes and the
//! signature appears in exactly one of the reply's three lists (read, not
//! accepted, not read as orders), and no quoted or signature line appears
//! in any.

use crate::support_judge;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::cell::RefCell;
use std::collections::BTreeMap;
use support_judge::World;

const POWERS: [&str; 7] = [
    "England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey",
];

/// One line of a generated body and what it is.
#[derive(Debug, Clone)]
enum Piece {
    /// An order line, good or bad: it must be listed as read or refused.
    Order(&'static str),
    /// Chat: listed as not read.
    Chat(&'static str),
    /// Quoted text: listed nowhere, never taken.
    Quote(&'static str),
    /// A blank line.
    Blank,
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "F Lon-ENG",
            "F(Lon)-NTH",
            "fleet london to english channel",
            "A Lvp to Yor",
            "A(Lvp)-Wal",
            "A Lvp H",
            "F Edi - NWG",
            "F Edi S F Lon-NTH",
            "F(Edi)-NTH",
            // Refused: not England's, not adjacent, unknown place.
            "A Par-Bur",
            "F Lon-Mos",
            "A Lvp-Atlantis",
            "A(Lon)-ENG",
        ])
        .prop_map(Piece::Order),
        3 => prop::sample::select(vec![
            "Hi all,",
            "here are my moves for this season.",
            "Cheers, Ann",
            "What about Belgium?",
            "I trust you will keep your word",
            "thanks!",
        ])
        .prop_map(Piece::Chat),
        2 => prop::sample::select(vec![
            "> F Lon-Yor",
            "> A Lvp-Edi",
            "> see you in Belgium",
        ])
        .prop_map(Piece::Quote),
        1 => Just(Piece::Blank),
    ]
}

/// A body: up to 15 pieces and, sometimes, a signature holding an order.
fn body() -> impl Strategy<Value = (Vec<Piece>, bool)> {
    (prop::collection::vec(piece(), 1..15), any::<bool>())
}

/// The line numbers in each list of the reply.
fn lists(reply: &str) -> BTreeMap<usize, Vec<&'static str>> {
    let mut out: BTreeMap<usize, Vec<&'static str>> = BTreeMap::new();
    let mut list: Option<&'static str> = None;
    for l in reply.lines() {
        if l.starts_with("Read from your mail:") {
            list = Some("read");
        } else if l.starts_with("Not accepted:") {
            list = Some("refused");
        } else if l.starts_with("Not read as orders") {
            list = Some("unread");
        } else if l.is_empty() || !l.starts_with(' ') {
            list = None;
        } else if let (Some(name), Some(rest)) = (list, l.strip_prefix("  line ")) {
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = n.parse() {
                out.entry(n).or_default().push(name);
            }
        }
    }
    out
}

#[test]
fn every_line_ends_in_exactly_one_list_of_the_reply() {
    let w = RefCell::new(World::new());
    {
        let mut w = w.borrow_mut();
        w.reply("gm@example.test", "CREATE g standard gm-secret");
        for p in POWERS {
            w.reply(
                &format!("{p}@example.test"),
                &format!("JOIN g pw-secret {p}"),
            );
        }
    }
    let mut runner = TestRunner::new(Config {
        cases: 48,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&body(), |(pieces, signature)| {
            let mut text = String::from("SIGNON England g pw-secret\nCLEAR\n");
            for p in &pieces {
                text.push_str(match p {
                    Piece::Order(t) | Piece::Chat(t) | Piece::Quote(t) => t,
                    Piece::Blank => "",
                });
                text.push('\n');
            }
            if signature {
                text.push_str("-- \nAnn Smith\nF Lon-Wal\n");
            }
            let reply = w.borrow_mut().reply("England@example.test", &text);
            let got = lists(&reply);
            for (i, p) in pieces.iter().enumerate() {
                // Line 1 signs on, line 2 clears.
                let n = i + 3;
                let seen = got.get(&n).cloned().unwrap_or_default();
                match p {
                    Piece::Order(_) => prop_assert!(
                        seen.len() == 1 && seen[0] != "unread",
                        "line {n} {p:?} is in {seen:?}:\n{text}\n{reply}"
                    ),
                    Piece::Chat(_) => prop_assert!(
                        seen == ["unread"],
                        "line {n} {p:?} is in {seen:?}:\n{text}\n{reply}"
                    ),
                    Piece::Quote(_) | Piece::Blank => prop_assert!(
                        seen.is_empty(),
                        "line {n} {p:?} is in {seen:?}:\n{text}\n{reply}"
                    ),
                }
            }
            // Nothing else is listed: no signature line, no line twice.
            let last = pieces.len() + 2;
            prop_assert!(
                got.keys().all(|&n| (3..=last).contains(&n)),
                "{got:?}:\n{text}\n{reply}"
            );
            prop_assert!(!reply.contains("F(Lon)-Wal"), "{reply}");
            prop_assert!(!reply.contains("F(Lon)-Yor"), "{reply}");
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}
