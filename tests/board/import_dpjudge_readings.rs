//! DPjudge's map directives read as DPjudge's own loader reads them
//! (issue #52): what a map means here is what it meant there. Each
//! difference the fact-by-fact comparison with DPjudge's loader found
//! (milan's drop, 1897's lost home) has its test, on a map written here
//! that uses the same directives on DPjudge's standard board, with the
//! facts DPjudge's loader makes of it; so have the other readings aligned
//! with it at the same time (`INHABITS`, `-X` in a border list, a split
//! province given one coast).

use std::collections::BTreeSet;
use std::path::Path;
use zinejudge::map::{Map, Mobility, RegionId};
use zinejudge::testing::import::dpjudge::import;
use zinejudge::variant::Variant;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");

/// Import `map` (called `test.map`), its includes read from
/// tests/data/dpjudge.
fn imported(map: &str) -> Variant {
    let mut fetch = |n: &str| {
        if n == "test.map" {
            return Ok(map.to_string());
        }
        std::fs::read_to_string(Path::new(DATA).join(n)).map_err(|e| e.to_string())
    };
    match import("test.map", &mut fetch) {
        Ok(i) => i.variant,
        Err(e) => panic!("does not import: {e}"),
    }
}

/// A power's home centres, by id.
fn homes(v: &Variant, power: &str) -> BTreeSet<String> {
    let map = &v.map;
    let pw = map.lookup_power(power).expect("the power");
    map.power(pw)
        .home_centres
        .iter()
        .map(|h| map.province(*h).abbr.clone())
        .collect()
}

/// A power's starting units (`A Rom`).
fn units(v: &Variant, power: &str) -> BTreeSet<String> {
    let map = &v.map;
    let pw = map.lookup_power(power).expect("the power");
    v.starting_units
        .iter()
        .filter(|u| u.power == pw)
        .map(|u| format!("{} {}", u.kind.letter(), map.region_abbr(u.region)))
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_string()).collect()
}

fn is_centre(v: &Variant, id: &str) -> bool {
    v.map
        .provinces()
        .iter()
        .any(|p| p.abbr == id && p.supply_centre)
}

/// Whether a fleet in region `from` may move to region `to` (`Spa/nc`).
fn fleet_moves(map: &Map, from: &str, to: &str) -> bool {
    let find = |abbr: &str| {
        (0..map.regions().len())
            .map(|i| RegionId(u16::try_from(i).expect("fits")))
            .find(|r| map.region_abbr(*r) == abbr)
    };
    match (find(from), find(to)) {
        (Some(a), Some(b)) => map.borders_region(a, b, Mobility::FLEET),
        _ => false,
    }
}

/// Venice dropped, then given again: a place with its borders back, but
/// no one's home and no unit's (milan.map's `DROP TUS VEN`, which DPjudge
/// reads so: Italy's homes MIL NAP ROM, 22 units, 34 centres).
const VENICE_AGAIN: &str = "\
USE standard.map
DROP VEN
Venice = ven venezia
COAST VEN ABUTS ADR APU pie rom TRI tus TYR
AMEND ADR ABUTS VEN
AMEND APU ABUTS VEN
AMEND PIE ABUTS ven
AMEND ROM ABUTS ven
AMEND TRI ABUTS VEN
AMEND TUS ABUTS ven
AMEND TYR ABUTS VEN
";

#[test]
fn a_dropped_home_centre_is_no_one_s_home_nor_a_centre_when_the_place_is_given_again() {
    let v = imported(VENICE_AGAIN);
    assert_eq!(homes(&v, "Italy"), set(&["Nap", "Rom"]));
    assert_eq!(units(&v, "Italy"), set(&["A Rom", "F Nap"]));
    assert!(!is_centre(&v, "Ven"), "Venice is a centre no longer");
    assert_eq!(v.map.supply_centre_count(), 33);
    assert_eq!(v.starting_units.len(), 21);
    assert_eq!(v.victory.centres, 17);
    assert!(v.map.lookup("venezia").is_some(), "the place is back");
}

#[test]
fn a_dropped_home_centre_given_elsewhere_is_the_power_s_new_home() {
    // As milan.map does: Italy's home moves from Venice to Piedmont, its
    // army with it.
    let v = imported(&format!("{VENICE_AGAIN}ITALY PIE\nA PIE\n"));
    assert_eq!(homes(&v, "Italy"), set(&["Nap", "Pie", "Rom"]));
    assert_eq!(units(&v, "Italy"), set(&["A Pie", "A Rom", "F Nap"]));
    assert_eq!(v.map.supply_centre_count(), 34);
    assert_eq!(v.starting_units.len(), 22);
}

#[test]
fn a_home_centre_a_power_loses_stays_a_centre_owned_by_nobody() {
    // 1897.map's `RUSSIA -STP`: DPjudge makes St Petersburg an unowned
    // centre (34 centres, 18 to win), not no centre at all.
    let v = imported("USE standard.map\nRUSSIA -STP\n");
    assert_eq!(homes(&v, "Russia"), set(&["Mos", "Sev", "War"]));
    assert!(is_centre(&v, "Stp"), "St Petersburg is still a centre");
    assert_eq!(v.map.supply_centre_count(), 34);
    assert_eq!(v.victory.centres, 18);
    let russia = v.map.lookup_power("Russia").expect("Russia");
    let owned: BTreeSet<String> = v
        .map
        .power(russia)
        .starting_centres
        .iter()
        .map(|c| v.map.province(*c).abbr.clone())
        .collect();
    assert_eq!(owned, set(&["Mos", "Sev", "War"]));
}

#[test]
fn the_first_inhabits_gives_the_homes_anew_and_the_next_adds_to_them() {
    // DPjudge's loader: a power's first INHABITS replaces its homes, the
    // next ones add to them; Venice, no longer a home, is no centre.
    let v = imported("USE standard.map\nITALY\nINHABITS ROM\nINHABITS NAP\n");
    assert_eq!(homes(&v, "Italy"), set(&["Nap", "Rom"]));
    assert!(!is_centre(&v, "Ven"));
    assert_eq!(v.map.supply_centre_count(), 33);
    // HOMES always replaces them.
    let v = imported("USE standard.map\nITALY\nHOMES ROM\nHOMES NAP VEN\n");
    assert_eq!(homes(&v, "Italy"), set(&["Nap", "Ven"]));
}

#[test]
fn a_border_taken_off_by_its_province_takes_the_coasts_too() {
    // `-SPA` in DPjudge's reading: every border whose name starts with
    // SPA, both of Spain's coasts.
    let v = imported(
        "USE standard.map\nAMEND MAO ABUTS -SPA\nAMEND SPA/NC ABUTS -MAO\nAMEND SPA/SC ABUTS -MAO\n",
    );
    assert!(!fleet_moves(&v.map, "MAO", "Spa/nc"));
    assert!(!fleet_moves(&v.map, "MAO", "Spa/sc"));
    assert!(fleet_moves(&v.map, "MAO", "Por"));
}

#[test]
fn a_province_of_split_coasts_given_one_coast_loses_its_coasts() {
    // `spa` (fleets only on its coasts) written again as `SPA`: DPjudge
    // drops SPA/NC and SPA/SC, and a border to either is one to Spain.
    let v = imported("USE standard.map\nCOAST SPA ABUTS GAS MAR POR MAO LYO WES\n");
    let spain = v
        .map
        .provinces()
        .iter()
        .find(|p| p.abbr == "Spa")
        .expect("Spain");
    assert_eq!(spain.regions.len(), 1, "one coast");
    assert!(fleet_moves(&v.map, "MAO", "Spa"));
    assert!(fleet_moves(&v.map, "Spa", "WES"));
    assert!(fleet_moves(&v.map, "Gas", "Spa"));
}

/// A folder of the test's own under the system's temporary folder.
fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("zj-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// DPjudge's layout: `maps/` with the standard map's files, `trials/` and
/// `elsewhere/` each with a trial map that uses it.
fn judge_folders(dir: &Path) {
    for sub in ["maps", "trials", "elsewhere"] {
        std::fs::create_dir_all(dir.join(sub)).expect("folder");
    }
    for ext in ["map", "geography", "politics", "military"] {
        let f = format!("standard.{ext}");
        std::fs::copy(Path::new(DATA).join(&f), dir.join("maps").join(&f)).expect("copied");
    }
    for sub in ["trials", "elsewhere"] {
        std::fs::write(
            dir.join(sub).join("trial.map"),
            "USE standard.map\nRUSSIA -STP\n",
        )
        .expect("written");
    }
}

fn import_cli(map: &Path, extra: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(["import", "dpjudge"])
        .arg(map)
        .args(["--out", "/dev/null"])
        .args(extra)
        .output()
        .expect("runs")
}

#[test]
fn a_trial_map_whose_include_is_elsewhere_is_told_of_include() {
    let dir = temp("trial-include");
    judge_folders(&dir);
    let r = import_cli(&dir.join("elsewhere/trial.map"), &[]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(!r.status.success(), "{err}");
    assert!(
        err.contains("trial.map:1: `USE standard.map`") && err.contains("--include DIR"),
        "the refusal names its line and --include: {err}"
    );
    let maps = dir.join("maps");
    let maps = maps.to_str().expect("a path");
    let r = import_cli(&dir.join("elsewhere/trial.map"), &["--include", maps]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    // In DPjudge's own `trials` folder, the `maps` folder beside it is
    // where its includes are, as DPjudge looks for them.
    let r = import_cli(&dir.join("trials/trial.map"), &[]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
