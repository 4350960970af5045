//! 1700 AD II on the pages: a past year's page draws the year as the
//! observers' results mail drew it, reading the order sheet kept in the
//! history under its headings (rule 6: `Moves:` then `Retreats:`), where a
//! retreat is written as a move is.

use crate::web_support;
use web_support::*;

#[test]
fn rule_6_a_past_year_s_page_reads_the_sheet_s_retreats_under_their_heading() {
    let dir = TempDir::new("1700ad-year");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    let gm = "gm@example.test";
    j.mail(gm, "CREATE dean 1700ad gm-secret");
    for p in ["Russia", "Poland"] {
        j.mail(&addr(p), &format!("JOIN dean pw-secret {p}"));
    }
    j.mail("watcher@example.test", "OBSERVE dean");
    j.mail(gm, "SIGNON GM dean gm-secret\nSTART");
    // Rule 4: the Polish army in Volhynia drives the Russian one from the
    // Ukraine at double strength; rule 5: the Russian sheet's retreat, to
    // Podolia (the GM's rule would have taken it toward Moscow instead),
    // is made when the turn is over.
    j.mail(
        &addr("Poland"),
        "SIGNON Poland dean pw-secret\nPoland 1700 Moves: A(Vol)-Ukr (x2);",
    );
    j.mail(
        &addr("Russia"),
        "SIGNON Russia dean pw-secret\nRussia 1700 Moves: A(Ukr) H;\nRetreats: A(Ukr)-Pod;",
    );
    let sent = j.mail(gm, "SIGNON GM dean gm-secret\nPROCESS");
    let results = results_for(&sent, "watcher@example.test", "1700");
    let flat = results
        .body
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(flat.contains("A(Ukr)-Pod"), "{}", results.body);
    let pages = Pages::start(&store);
    let game = pages.get("/games/dean").body;
    let Some(start) = game.find("/games/dean/phases/") else {
        panic!("no past phase linked:\n{game}");
    };
    let path: String = game[start..].chars().take_while(|c| *c != '"').collect();
    let page = pages.get(&path);
    assert_eq!(page.status, 200, "{path}");
    let svg = between(&page.body, "<svg", "</svg>").unwrap_or_else(|| panic!("{}", page.body));
    // The year played again from its sheets leads where the game went:
    // the map is the results' (titled as they are, with the orders and the
    // retreat drawn), not the bare board it falls back to otherwise.
    assert!(svg.contains("dean: Year 1700 results"), "{svg}");
    assert!(!svg.contains("dean: Year 1700 movement"), "{svg}");
    // It is the picture the observer's results mail carried.
    if let Some((_, bytes)) = results
        .attachments
        .iter()
        .find(|(name, _)| name.ends_with(".svg"))
    {
        let mailed = String::from_utf8_lossy(bytes);
        let mailed = between(&mailed, "<svg", "</svg>").expect("an svg");
        assert_eq!(svg, mailed);
    }
}
