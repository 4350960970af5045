//! 1000 AD on the pages and in `zinejudge render`: a past phase is played
//! again from its position and the orders kept in the history, which may
//! hold orders of a power in anarchy (rule 13) that the judge did not
//! carry out.

use crate::web_support;
use std::process::Command;
use web_support::*;
use zinejudge::game::Position;
use zinejudge::testing::store::games;
use zinejudge::variant::builtin;

/// Rule 13: "if this attempt fails, then he must go into anarchy". The
/// Moors are in anarchy with an order kept in the store for them (by a
/// judge that did not refuse it, or by hand); the Franks move. The phase
/// goes (the results, with their pictures, say the Moors' order is void),
/// its page draws it as the results did, and `render` prints it: each
/// plays the phase again from the orders the history kept, the Moors'
/// among them, and the results panicked on them ("index out of bounds").
#[test]
fn rule_13_a_past_phase_with_orders_of_a_power_in_anarchy_has_its_page_and_renders() {
    let dir = TempDir::new("1000ad-anarchy");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    let gm = "gm@example.test";
    let game = "lovi";
    j.mail(gm, &format!("CREATE {game} 1000ad gm-secret"));
    for p in ["Franks", "Moors"] {
        j.mail(&addr(p), &format!("JOIN {game} pw-secret {p}"));
    }
    j.mail("watcher@example.test", &format!("OBSERVE {game}"));
    j.mail(gm, &format!("SIGNON GM {game} gm-secret\nSTART"));
    let v = builtin("1000ad").expect("shipped").expect("loads");
    let conn = j.processor.store.conn();
    let mut row = games::load(conn, game).expect("store").expect("game");
    let pos = Position::from_toml(
        &v,
        "phase = \"Spring 1002 movement\"\n[units]\nMoors = [\"A Cas\"]\nFranks = [\"A Par\"]\n\
         [centres]\nMoors = [\"Lom\"]\nFranks = [\"Tol\", \"Par\", \"Bri\"]\n\
         [state.anarchy]\nMoors = \"anarchy\"\n",
    )
    .expect("position");
    row.position = pos.stored(&v).expect("stores");
    games::save(conn, &row).expect("save");
    let moors = v.map.power_ids().find(|p| v.map.power(*p).name == "Moors");
    let moors = moors.expect("the Moors");
    games::set_orders(conn, game, moors.0, &["M|A Cas - Tol".into()]).expect("orders");
    // The Franks' order is the last the phase waits for: it goes.
    let sent = j.mail(
        &addr("Franks"),
        &format!("SIGNON Franks {game} pw-secret\nA Par - Nan"),
    );
    let results = results_for(&sent, "watcher@example.test", "Spring 1002");
    let flat = results
        .body
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        flat.contains("A(Cas)-Tol void: its power gives no orders now"),
        "{}",
        results.body
    );
    assert!(flat.contains("Franks: A(Par)-Nan"), "{}", results.body);

    // The phase's page: the picture is the results' (the phase played
    // again leads where the game went), not the bare board.
    let pages = Pages::start(&store);
    let page = pages.get(&format!("/games/{game}/phases/S1002M"));
    assert_eq!(page.status, 200, "{}", page.body);
    let svg = between(&page.body, "<svg", "</svg>").unwrap_or_else(|| panic!("{}", page.body));
    assert!(svg.contains("Spring 1002 AD results"), "{svg}");

    // `zinejudge render` of the same phase from the store on disk.
    let cfg = dir.path().join("c.toml");
    std::fs::write(&cfg, format!("[store]\npath = \"{}\"\n", store.display())).expect("config");
    let out = Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(["render", "--game", game, "--phase", "S1002M", "--config"])
        .arg(&cfg)
        .arg("--out")
        .arg(dir.path())
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}\n{stdout}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stdout.contains("A(Cas)-Tol"), "{stdout}");
    assert!(
        dir.path().join(format!("{game}-S1002M.svg")).exists(),
        "{stderr}"
    );
}
