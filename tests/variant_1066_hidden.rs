//! 1066 rule 5 by mail: "Their exact location is known only by this player
//! and the GM until the end of the second move". A phase only Harald's
//! hidden A/Fs take part in (the retreat of one dislodged in March) is his
//! and the GM's: everyone else gets the same mails, replies and pictures
//! as in a game where nothing was dislodged there.

mod support_judge;
use support_judge::{Sent, World};

const NAMES: [(&str, &str); 7] = [
    ("william", "Duke William"),
    ("harald", "Harald Hardrada"),
    ("harold", "Harold Godwinson"),
    ("norse", "The Norse"),
    ("earls", "The Northern Earls"),
    ("scots", "The Scots"),
    ("welsh", "The Welsh"),
];

/// A 1066 game by mail with every power joined, an observer, and two
/// Scottish fleets the GM put in the Firth of Forth and Lothian, ready to
/// sail into Oceanus Germanicus with support.
fn started() -> World {
    let mut w = World::new();
    w.reply("gm@example.test", "CREATE hastings 1066 gm-secret");
    for (who, pw) in NAMES {
        w.reply(
            &format!("{who}@example.test"),
            &format!("JOIN hastings pw-secret {pw}"),
        );
    }
    w.reply("obs@example.test", "OBSERVE hastings");
    w.reply("gm@example.test", "SIGNON GM hastings gm-secret\nSTART");
    w.mail(
        "gm@example.test",
        "SIGNON GM hastings gm-secret\nEDIT ADD The Scots F FOF\nEDIT ADD The Scots F Lot",
    );
    w
}

/// A mail as read: subject, body and pictures (names and sizes).
type Read = (String, String, Vec<(String, usize)>);

/// What a reader got, in order.
fn got(sent: &[Sent], who: &str) -> Vec<Read> {
    sent.iter()
        .filter(|m| m.to_has(&format!("{who}@example.test")))
        .map(|m| (m.subject.clone(), m.body.clone(), m.attachments.clone()))
        .collect()
}

/// Play March 1066 (and Harald's retreat, if he has one) with Harald's
/// March orders `harald`: every mail sent until April is played, those
/// April's processing sent, and the replies to LIST and SUMMARY read by
/// the observer and the Scots after March.
fn play(harald: &str) -> (Vec<Sent>, Vec<Sent>, Vec<String>) {
    let mut w = started();
    let mut sent = Vec::new();
    sent.extend(w.mail(
        "scots@example.test",
        "SIGNON Scots hastings pw-secret\nF(FOF)-GER\nF(Lot) S F(FOF)-GER",
    ));
    sent.extend(w.mail(
        "harald@example.test",
        &format!("SIGNON Harald hastings pw-secret\n{harald}"),
    ));
    sent.extend(w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS"));
    let mut replies = Vec::new();
    for who in ["obs", "scots"] {
        replies.push(w.reply(&format!("{who}@example.test"), "LIST hastings"));
        replies.push(w.reply(&format!("{who}@example.test"), "SUMMARY hastings"));
    }
    // Harald retreats whatever was dislodged (in the game where nothing
    // was, the judge refuses the orders and only he is told).
    let retreat = w.mail(
        "harald@example.test",
        "SIGNON Harald hastings pw-secret\nA/F(GER)-Nth\nA/F(GER)-Nrd",
    );
    sent.extend(retreat);
    sent.extend(w.mail(
        "scots@example.test",
        "SIGNON Scots hastings pw-secret\nF(GER) H\nF(Lot)-FOF",
    ));
    let april = w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    (sent, april, replies)
}

#[test]
fn rule_5_a_retreat_of_hidden_army_fleets_only_is_unseen_by_the_others() {
    // Two A/Fs wait in Oceanus Germanicus and are dislodged by the Scots'
    // supported attack; in the other game all four wait in the Wash and
    // the Scots sail into an empty sea.
    let (dislodged, april_d, replies_d) = play("A/F(GER) H\nA/F(GER) H\nA/F(WAS) H\nA/F(WAS) H");
    let (quiet, _, replies_q) = play("A/F(WAS) H\nA/F(WAS) H\nA/F(WAS) H\nA/F(WAS) H");
    // Harald and the GM are told of the retreat.
    let harald = got(&dislodged, "harald");
    assert!(
        harald.iter().any(|(s, b, _)| s.contains("March 1066")
            && s.contains("retreat")
            && b.contains("A/F(GER)")),
        "{harald:#?}"
    );
    assert!(
        got(&dislodged, "gm")
            .iter()
            .any(|(s, _, _)| s.contains("retreat")),
        "the GM is told"
    );
    // Everyone else reads exactly the same in both games until April is
    // played: every mail, every picture, the March results' next phase
    // and deadline.
    for (who, _) in NAMES
        .iter()
        .filter(|(w, _)| *w != "harald")
        .chain([&("obs", "")])
    {
        let (d, q) = (got(&dislodged, who), got(&quiet, who));
        assert!(!d.is_empty(), "{who} got nothing");
        assert_eq!(d.len(), q.len(), "{who}: {d:#?}\n-- vs --\n{q:#?}");
        for (a, b) in d.iter().zip(&q) {
            let differ: Vec<(&str, &str)> =
                a.1.lines()
                    .zip(b.1.lines())
                    .filter(|(x, y)| x != y)
                    .collect();
            assert!(differ.is_empty(), "{who}, {}: {differ:#?}", a.0);
            assert_eq!(a, b, "{who}");
        }
        assert!(
            !d.iter().any(|(s, _, _)| s.contains("retreat")),
            "{who}: {d:#?}"
        );
    }
    let march = got(&quiet, "obs")
        .into_iter()
        .find(|(s, _, _)| s.contains("March 1066"))
        .expect("March results");
    assert!(march.1.contains("April 1066"), "{}", march.1);
    // April's results (where the retreated A/Fs are seen on the board,
    // the secret being over) tell of no retreat phase.
    let april = &got(&april_d, "obs")[0];
    assert!(april.0.contains("April 1066"), "{april:#?}");
    assert!(!april.1.to_lowercase().contains("retreat"), "{}", april.1);
    // LIST and SUMMARY after March say the same to the others: the
    // phase, the deadline and Harald's four units.
    assert_eq!(replies_d, replies_q);
}
