//! A DPjudge terrain line without `ABUTS` (Renaissance's `LAND SWI`, which
//! makes the standard board's Switzerland passable) changes the place's
//! terrain and keeps its borders, as DPjudge's own loader does (issue #39).

use std::path::Path;
use zinejudge::import::dpjudge::import;
use zinejudge::map::Named;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");

#[test]
fn a_terrain_without_abuts_keeps_the_place_s_borders() {
    let map = "# Written for this test: Switzerland opened.\nUSE standard.map\nLAND SWI\n";
    let mut fetch = |n: &str| {
        if n == "open.map" {
            return Ok(map.to_string());
        }
        std::fs::read_to_string(Path::new(DATA).join(n)).map_err(|e| e.to_string())
    };
    let i = import("open.map", &mut fetch).expect("imports");
    let m = &i.variant.map;
    let Some(Named::Province(swi)) = m.lookup("Swi") else {
        panic!("Switzerland");
    };
    let Some(Named::Province(bur)) = m.lookup("Bur") else {
        panic!("Burgundy");
    };
    let r = m.province(swi).main_region();
    let to: Vec<_> = m
        .borders(r)
        .iter()
        .map(|&(n, _)| m.province_of(n))
        .collect();
    assert!(
        to.contains(&bur),
        "an army in Switzerland may go to Burgundy"
    );
    assert_eq!(to.len(), 5, "Mar Bur Mun Tyr Pie");
}
