//! Issue #52: the page of a game whose variant file the folder no longer
//! gives is drawn from the copy the judge keeps, not refused.

use crate::web_support::{Judge, Pages, TempDir};
use zinejudge::testing::commands::Judge as Commands;
use zinejudge::variant::Variant;

#[test]
fn a_game_whose_variant_file_is_gone_keeps_its_page() {
    let dir = TempDir::new("kept");
    let store = dir.path().join("store.sqlite");
    let mut j = Judge::new(&store);
    let twoisles = include_str!("../variants/twoisles.toml");
    let mut commands = Commands::new("zinejudge", "UTC");
    commands.add_variant(Variant::from_toml(twoisles).expect("loads"));
    j.processor.responder = Box::new(commands);
    j.mail("gm@example.test", "CREATE ti twoisles gm-secret");
    j.mail("n@example.test", "JOIN ti pw-north Boreas");
    j.mail("s@example.test", "JOIN ti pw-south Notus");
    // Reloaded with the file gone: the judge keeps the game's copy.
    j.processor.responder = Box::new(Commands::new("zinejudge", "UTC"));
    let told = j.mail("gm@example.test", "LIST");
    assert!(
        told.iter().any(|m| m.subject.contains("no longer loads")),
        "{told:#?}"
    );
    // The pages, which know no file of Two Isles either.
    let pages = Pages::start(&store);
    let page = pages.get("/games/ti");
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Two Isles"), "{}", page.body);
}
