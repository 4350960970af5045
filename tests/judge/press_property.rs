//! Press is private by construction: over random recipient lists, written
//! every way njudge's and DPjudge's players write them (initials run
//! together, names in comma or space lists, `ALL BUT`, `M` for the GM), and
//! every terminator (`ENDPRESS`, `ENDBROADCAST`, `END PRESS` alone,
//! `SIGNOFF`, the end of the mail), no power outside the list ever
//! receives the press, every power in it does, the whole text reaches them,
//! and nothing after the terminator is press.
//!
//! Each case is one mail through the real processor and store (in memory),
//! in one started game the cases share (press changes nothing of the game).

use crate::support_judge;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::cell::RefCell;
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

/// How the list is written.
#[derive(Debug, Clone, Copy)]
enum Style {
    /// `PRESS TO FG`.
    Initials,
    /// `PRESS TO France,Germany`.
    Commas,
    /// `PRESS TO france, GERMANY`: comma and space.
    CommaSpace,
    /// `PRESS TO France Germany`.
    Spaces,
    /// `PRESS TO ALL BUT FG`: everybody else.
    AllButInitials,
    /// `PRESS TO ALL BUT France, Germany`.
    AllButNames,
}

/// Where the press ends.
#[derive(Debug, Clone, Copy)]
enum Terminator {
    /// `ENDPRESS`.
    Press,
    /// `ENDBROADCAST`.
    Broadcast,
    /// `END PRESS` alone on its line.
    Apart,
    /// `SIGNOFF`.
    Signoff,
    /// The end of the mail.
    Mail,
}

/// Lines of press: some look like commands or terminators and are not.
const TEXT: [&str; 8] = [
    "Shall we split the Balkans?",
    "END PRESS CONFERENCE at noon",
    "signing off soon, friend",
    "the endpress is near",
    "A Vie-Tri would be rude",
    "",
    "    indented, as written",
    "press on regardless",
];

#[derive(Debug, Clone)]
struct Case {
    sender: usize,
    /// Indices into POWERS named in the list (the sender may be named).
    named: Vec<usize>,
    gm: bool,
    style: Style,
    end: Terminator,
    text: Vec<usize>,
    grey: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        0..7usize,
        proptest::sample::subsequence((0..7usize).collect::<Vec<_>>(), 1..=6),
        any::<bool>(),
        prop_oneof![
            Just(Style::Initials),
            Just(Style::Commas),
            Just(Style::CommaSpace),
            Just(Style::Spaces),
            Just(Style::AllButInitials),
            Just(Style::AllButNames),
        ],
        prop_oneof![
            Just(Terminator::Press),
            Just(Terminator::Broadcast),
            Just(Terminator::Apart),
            Just(Terminator::Signoff),
            Just(Terminator::Mail),
        ],
        proptest::collection::vec(0..TEXT.len(), 1..5),
        any::<bool>(),
    )
        .prop_map(|(sender, named, gm, style, end, text, grey)| Case {
            sender,
            named,
            gm,
            style,
            end,
            text,
            grey,
        })
}

/// The list as the case writes it.
fn list(c: &Case) -> String {
    let names: Vec<String> = c
        .named
        .iter()
        .enumerate()
        .map(|(k, &i)| match k % 3 {
            0 => POWERS[i].to_string(),
            1 => POWERS[i].to_lowercase(),
            _ => POWERS[i].to_uppercase(),
        })
        .collect();
    let initials: String = c.named.iter().map(|&i| &POWERS[i][..1]).collect();
    let gm_initial = if c.gm { "M" } else { "" };
    let gm_name = if c.gm { ", M" } else { "" };
    match c.style {
        // `GM` alone reads two ways (the GM, or Germany and the GM) and is
        // refused: the letters go the other way round.
        Style::Initials if initials == "G" && c.gm => "MG".to_string(),
        Style::Initials => format!("{initials}{gm_initial}"),
        Style::Commas => format!("{}{gm_name}", names.join(",")),
        Style::CommaSpace => format!("{}{gm_name}", names.join(", ")),
        Style::Spaces => format!("{}{}", names.join(" "), if c.gm { " M" } else { "" }),
        Style::AllButInitials => format!("ALL BUT {initials}"),
        Style::AllButNames => format!("ALL BUT {}", names.join(", ")),
    }
}

fn all_but(c: &Case) -> bool {
    matches!(c.style, Style::AllButInitials | Style::AllButNames)
}

/// The mail's body after the sign-on, and the marker that stands after
/// the terminator.
fn body(c: &Case, n: usize) -> (String, String) {
    let after = format!("after-the-end-{n}");
    let grey = if c.grey { " GREY" } else { "" };
    // A first line of text: empty press is refused, as it should be.
    let mut b = format!("PRESS{grey} TO {}\nnote {n}\n", list(c));
    for &t in &c.text {
        b.push_str(TEXT[t]);
        b.push('\n');
    }
    match c.end {
        Terminator::Press => b.push_str("ENDPRESS\n"),
        Terminator::Broadcast => b.push_str("ENDBROADCAST\n"),
        Terminator::Apart => b.push_str("END PRESS\n"),
        Terminator::Signoff => b.push_str("SIGNOFF\n"),
        Terminator::Mail => {}
    }
    if !matches!(c.end, Terminator::Mail) {
        b.push_str(&format!("{after}\nA Vie-Gal\n{after} again\n"));
    }
    (b, after)
}

/// The powers' players who got the mail's press (the GM's copies aside).
fn readers(sent: &[Sent]) -> Vec<String> {
    let mut v: Vec<String> = sent
        .iter()
        .filter(|m| m.subject.contains(": press") && !m.subject.contains("GM copy"))
        .flat_map(|m| m.to.clone())
        .filter(|a| a != GM)
        .collect();
    v.sort();
    v
}

fn check(w: &mut World, c: &Case, n: usize) -> Result<(), TestCaseError> {
    let sender = POWERS[c.sender];
    let (b, after) = body(c, n);
    let sent = w.mail(
        &addr(sender),
        &format!("SIGNON {}g {}\n{b}", &sender[..1], pw(sender)),
    );
    let reply = sent
        .iter()
        .find(|m| m.to_has(&addr(sender)) && m.in_reply_to.is_some())
        .map(|m| m.body.clone())
        .unwrap_or_default();
    // Whom the list names, the sender never among the readers.
    let mut want: Vec<String> = (0..7)
        .filter(|i| c.named.contains(i) != all_but(c))
        .filter(|&i| i != c.sender)
        .map(|i| addr(POWERS[i]))
        .collect();
    want.sort();
    let got = readers(&sent);
    if want.is_empty() && (all_but(c) || !c.gm) {
        // Nobody to send to: nobody gets it, and the writer is told.
        prop_assert!(got.is_empty(), "{b}\n{got:?}");
        return Ok(());
    }
    prop_assert_eq!(&got, &want, "{}\nreply:\n{}", b, reply);
    for m in &sent {
        // Nothing after the terminator is press, in anybody's mail.
        if m.subject.contains("press") {
            prop_assert!(!m.body.contains(&after), "{b}\n{m:#?}");
            prop_assert!(!m.body.contains("A Vie-Gal"), "{b}\n{m:#?}");
            prop_assert!(!m.body.contains("SIGNON"), "{b}\n{m:#?}");
        }
    }
    // The whole text reaches each reader.
    for m in sent.iter().filter(|m| {
        m.subject.contains(": press") && !m.subject.contains("GM copy") && !m.to_has(GM)
    }) {
        for &t in &c.text {
            let line = TEXT[t].trim();
            if !line.is_empty() {
                prop_assert!(m.body.contains(line), "{line:?} lost:\n{}", m.body);
            }
        }
        if c.grey {
            prop_assert!(!m.body.contains(&format!("From {sender}")), "{}", m.body);
        }
    }
    // The GM named: the GM gets the press itself.
    if c.gm && !all_but(c) {
        prop_assert!(
            sent.iter()
                .any(|m| m.to_has(GM) && m.body.contains("Press in g")),
            "{b}\n{sent:#?}"
        );
    }
    Ok(())
}

#[test]
fn press_reaches_exactly_the_list_and_ends_at_its_terminator() {
    let mut w = World::new();
    w.reply(GM, "CREATE g standard gm-secret\nSET PRESS GREY");
    for p in POWERS {
        w.reply(&addr(p), &format!("JOIN g {} {p}", pw(p)));
    }
    let w = RefCell::new(w);
    let n = RefCell::new(0usize);
    let mut runner = TestRunner::new(Config {
        cases: 200,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&case(), |c| {
            *n.borrow_mut() += 1;
            let k = *n.borrow();
            let mut w = w.borrow_mut();
            // Eight minutes between mails: the cases stay well within what
            // one address may receive in an hour (the GM's copies), and the
            // deadline three days off is never reached.
            w.now += std::time::Duration::from_secs(480);
            check(&mut w, &c, k)
        })
        .unwrap_or_else(|e| panic!("{e}"));
}
