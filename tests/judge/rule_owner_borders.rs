//! By mail, on DPjudge's Imperial (tests/data/dpjudge/imperial.map,
//! imported): the way between the Black Sea and the Aegean is open only to
//! the owner of Constantinople (DPjudge's `AEG(CON)`: "a unit in the Black
//! Sea is adjacent to the Aegean Sea if and only if the power that owns
//! the unit also owns" the centre). A Russian fleet sails into the Black
//! Sea; its order on into the Aegean is refused with the reason, and an
//! order elsewhere is taken.

use crate::support_judge;
use std::path::Path;

#[test]
fn by_mail_the_bosporus_is_open_only_to_the_owner_of_constantinople() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");
    let mut fetch =
        |n: &str| std::fs::read_to_string(Path::new(data).join(n)).map_err(|e| e.to_string());
    let i = zinejudge::import::dpjudge::import("imperial.map", &mut fetch)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut w = support_judge::World::with_variant_text(&i.toml);
    let gm = "gm@example.test";
    let ru = "russia@example.test";
    w.reply(gm, "CREATE imp imperial gm-secret");
    for p in [
        "Austria", "Brazil", "Britain", "China", "CSA", "France", "Holland", "Japan", "Mexico",
        "Prussia", "Russia", "Turkey", "USA",
    ] {
        w.reply(
            &format!("{}@example.test", p.to_lowercase()),
            &format!("JOIN imp secret-{p} {p}"),
        );
    }
    // Spring 1861: into the Black Sea.
    let reply = w.reply(ru, "SIGNON Russia imp secret-Russia\nF Sev-BLA");
    assert!(!reply.contains("open only"), "{reply}");
    w.mail(gm, "SIGNON GM imp gm-secret\nPROCESS");
    // Fall 1861: on into the Aegean, refused: Turkey owns Constantinople.
    let reply = w.reply(ru, "SIGNON Russia imp secret-Russia\nF BLA-AEG");
    assert!(
        reply.contains("the way into Aegean Sea is open only to the owner of Constantinople"),
        "{reply}"
    );
    // Once the Russian fleet is ordered elsewhere, it sails.
    let reply = w.reply(ru, "SIGNON Russia imp secret-Russia\nF BLA-Rum");
    assert!(!reply.contains("open only"), "{reply}");
}
