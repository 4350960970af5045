//! The judge on each store backend: a game created, filled, played for a
//! phase with press and a missing power, and listed, through the real
//! processor (commands, adjudication, outbox) on SQLite and on PostgreSQL.
//! What the players receive must not depend on the backend. (Every other
//! judge test runs on PostgreSQL too with `ZINEJUDGE_TEST_STORE=postgres`.)

use crate::support_judge;
use support_judge::{On, Sent, World};
use zinejudge::testing::store::games;

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];
const GM: &str = "gm@example.test";

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

/// The mails of a game's first phase, as the players see them.
fn first_phase(mut w: World) -> Vec<Sent> {
    let r = w.reply(GM, "CREATE Hastings standard gm-secret\nSET PRESS GREY");
    assert!(r.contains("Created Hastings"), "{r}");
    for p in POWERS {
        // Any case names the game.
        let r = w.reply(&addr(p), &format!("JOIN hastings pw-{p} {p}"));
        assert!(
            r.contains(&format!("You have joined Hastings, asking for {p}")),
            "{r}"
        );
    }
    let mut all = Vec::new();
    let orders = [
        ("England", "F Lon-NTH\nF Edi-NWG\nA Lvp-Yor"),
        ("France", "F Bre-MAO\nA Par-Bur\nA Mar-Spa"),
        ("Germany", "F Kie-Den\nA Ber-Kie\nA Mun-Ruh"),
        ("Italy", "F Nap-ION\nA Rom-Apu\nA Ven-Tyr"),
        ("Russia", "F StP/sc-BOT\nA Mos-Ukr\nA War-Gal\nF Sev-BLA"),
        ("Turkey", "F Ank-BLA\nA Con-Bul\nA Smy-Arm"),
    ];
    for (p, o) in orders {
        all.extend(w.mail(&addr(p), &format!("SIGNON {p} HASTINGS pw-{p}\n{o}\nREADY")));
    }
    all.extend(w.mail(
        &addr("England"),
        "SIGNON England Hastings pw-England\nBROADCAST GREY\nSomebody is lying.\nENDPRESS",
    ));
    // Austria is silent: the deadline passes, the grace period too.
    all.extend(w.advance(4 * 86400));
    let sent = w.mail("observer@example.test", "LIST Hastings\nHISTORY Hastings");
    all.extend(sent);
    let c = w.processor.store.conn();
    let g = games::load(c, "HASTINGS").unwrap().expect("the game");
    assert_eq!(g.name, "Hastings");
    let h = games::history(c, "hastings").unwrap();
    assert!(!h.is_empty(), "the phase is in the history");
    assert_eq!(
        games::press(c, "Hastings").unwrap().len(),
        1,
        "the broadcast is archived"
    );
    all
}

#[test]
fn a_phase_played_on_sqlite_and_on_postgres_mails_the_same() {
    let sqlite = first_phase(World::on(On::Sqlite, "sqlite").expect("SQLite"));
    let results = sqlite
        .iter()
        .find(|m| m.subject.contains("results"))
        .unwrap_or_else(|| panic!("no results: {sqlite:#?}"));
    assert!(results.body.contains("Fall 1901"), "{}", results.body);
    let Some(w) = World::on(On::Postgres, "postgres") else {
        return;
    };
    let postgres = first_phase(w);
    let key = |v: &[Sent]| -> Vec<(Vec<String>, String, String)> {
        v.iter()
            .map(|m| (m.to.clone(), m.subject.clone(), m.body.clone()))
            .collect()
    };
    let (a, b) = (key(&sqlite), key(&postgres));
    assert_eq!(a.len(), b.len(), "as many mails");
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x, y);
    }
}
