//! 1066 rule 5 on the pages: "Their exact location is known only by this
//! player and the GM until the end of the second move". A retreat only
//! Harald's hidden A/Fs make (one dislodged in March 1066) is his and the
//! GM's: anonymous readers of the pages are "others", so no list, page,
//! link or feed entry tells of it; the game is said to be in April.

use crate::web_support;
use web_support::*;

/// A 1066 game `name` whose March 1066 is played with two of Harald's
/// A/Fs waiting in Oceanus Germanicus (`dislodged`: the Scots take the sea
/// with support and dislodge them) or all four in the Wash.
fn march(j: &mut Judge, name: &str, dislodged: bool) -> Vec<Sent> {
    let gm = "gm@example.test";
    j.mail(gm, &format!("CREATE {name} 1066 gm-secret"));
    for (who, pw) in POWERS_1066 {
        j.mail(
            &format!("{who}@example.test"),
            &format!("JOIN {name} pw-secret {pw}"),
        );
    }
    j.mail("watcher@example.test", &format!("OBSERVE {name}"));
    j.mail(gm, &format!("SIGNON GM {name} gm-secret\nSTART"));
    j.mail(
        gm,
        &format!("SIGNON GM {name} gm-secret\nEDIT ADD The Scots F FOF\nEDIT ADD The Scots F Lot"),
    );
    j.mail(
        "scots@example.test",
        &format!("SIGNON Scots {name} pw-secret\nF(FOF)-GER\nF(Lot) S F(FOF)-GER"),
    );
    let harald = if dislodged {
        "A/F(GER) H\nA/F(GER) H\nA/F(WAS) H\nA/F(WAS) H"
    } else {
        "A/F(WAS) H\nA/F(WAS) H\nA/F(WAS) H\nA/F(WAS) H"
    };
    j.mail(
        "harald@example.test",
        &format!("SIGNON Harald {name} pw-secret\n{harald}"),
    );
    j.mail(gm, &format!("SIGNON GM {name} gm-secret\nPROCESS"))
}

/// Every page an observer reads of game `name`, by path.
fn pages_of(pages: &Pages, name: &str) -> Vec<(String, Response)> {
    [
        "/".to_string(),
        format!("/games/{name}"),
        format!("/games/{name}/phases?page=1"),
        format!("/games/{name}/feed.atom"),
        format!("/games/{name}/map.svg"),
    ]
    .into_iter()
    .map(|p| {
        let r = pages.get(&p);
        (p, r)
    })
    .collect()
}

#[test]
fn rule_5_no_page_tells_of_a_retreat_of_hidden_units_only() {
    let dir = TempDir::new("1066-retreat");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    let sent = march(&mut j, "hid", true);
    // The judge does hold the retreat: Harald is told of it.
    assert!(
        sent.iter()
            .any(|m| m.to_has("harald@example.test") && m.body.contains("Next: March 1066 retreat")),
        "{sent:#?}"
    );
    march(&mut j, "calm", false);
    let pages = Pages::start(&store);
    // While the retreat goes on, and after it: the same phases, by the
    // same names, as the game where nothing was dislodged.
    let check = |when: &str| {
        let calm = pages_of(&pages, "calm");
        for ((path, r), (_, c)) in pages_of(&pages, "hid").into_iter().zip(calm) {
            assert_eq!(r.status, 200, "{when}: {path}");
            assert!(!r.body.contains("Mar1066R"), "{when}: {path}:\n{}", r.body);
            // As often as in the game where nothing was dislodged (the
            // map's key shows a retreat arrow).
            assert_eq!(
                r.body.matches("retreat").count(),
                c.body.matches("retreat").count(),
                "{when}: {path}:\n{}",
                r.body
            );
            if path.ends_with("/hid") || path.ends_with(".svg") {
                assert!(
                    r.body.contains("April 1066 movement"),
                    "{when}: {path}:\n{}",
                    r.body
                );
            }
        }
        let game = pages.get("/games/hid").body;
        let calm = pages.get("/games/calm").body;
        let list = |b: &str| between(b, "<ol class=\"phases\"", "</ol>").map(str::to_string);
        assert_eq!(
            list(&game).map(|l| l.replace("/hid/", "/calm/")),
            list(&calm),
            "{when}"
        );
        assert!(
            game.contains("<h2>April 1066 movement</h2>"),
            "{when}: {game}"
        );
        let index = pages.get("/").body;
        let row = between(&index, "href=\"/games/hid\">hid</a>", "</tr>").expect("listed");
        assert!(row.contains("April 1066 movement"), "{when}: {row}");
        let feed = pages.get("/games/hid/feed.atom").body;
        assert_eq!(
            feed.matches("<entry").count(),
            pages
                .get("/games/calm/feed.atom")
                .body
                .matches("<entry")
                .count(),
            "{when}: {feed}"
        );
        // The retreat has no page: its name is not one of the game's.
        assert_eq!(
            pages.get("/games/hid/phases/Mar1066R").status,
            404,
            "{when}"
        );
    };
    check("during the retreat");
    j.mail(
        "harald@example.test",
        "SIGNON Harald hid pw-secret\nA/F(GER)-Nth\nA/F(GER)-Nrd",
    );
    check("after the retreat");
    // Once April is played, March's page leads to April's and back, past
    // the retreat.
    j.mail("gm@example.test", "SIGNON GM hid gm-secret\nPROCESS");
    let march_page = pages.get("/games/hid/phases/Mar1066M").body;
    assert_eq!(
        link_to(&march_page, "April 1066 movement &rarr;"),
        Some("/games/hid/phases/Apr1066M"),
        "{march_page}"
    );
    let april_page = pages.get("/games/hid/phases/Apr1066M").body;
    assert_eq!(
        link_to(&april_page, "&larr; March 1066 movement"),
        Some("/games/hid/phases/Mar1066M"),
        "{april_page}"
    );
    let phases = pages.get("/games/hid/phases?page=1").body;
    let listed = between(&phases, "<ol class=\"phases\"", "</ol>").expect("phases");
    assert_eq!(listed.matches("<li").count(), 2, "{listed}");
    assert!(listed.contains("start=\"2\""), "{listed}");
    let feed = pages.get("/games/hid/feed.atom").body;
    assert_eq!(feed.matches("<entry").count(), 2, "{feed}");
    assert!(!feed.contains("retreat"), "{feed}");
}
