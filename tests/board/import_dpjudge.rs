//! `zinejudge import dpjudge`: DPjudge's map files as variant files of
//! this judge (issue #39). DPjudge's own standard map, imported, must be
//! the standard game this judge ships, border for border, and pass the
//! DATC files; what the judge cannot play is refused by name and line.

use crate::support_play;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use zinejudge::map::{Map, Mobility};
use zinejudge::testing::import::dpjudge::{ImportError, import};
use zinejudge::variant::Variant;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");

/// Read the map files a test names from tests/data/dpjudge.
fn from_data(name: &str) -> Result<String, String> {
    std::fs::read_to_string(Path::new(DATA).join(name)).map_err(|e| e.to_string())
}

/// Import a map given as `(file name, text)` pairs, the first the map.
fn import_texts(
    files: &[(&str, &str)],
) -> Result<zinejudge::testing::import::dpjudge::Imported, ImportError> {
    let mut fetch = |n: &str| {
        files
            .iter()
            .find(|(f, _)| *f == n)
            .map(|(_, t)| (*t).to_string())
            .ok_or_else(|| format!("no file {n}"))
    };
    import(files[0].0, &mut fetch)
}

fn shipped_standard() -> Variant {
    zinejudge::variant::builtin("standard")
        .expect("ships")
        .expect("loads")
}

/// Every border of the map: from, to, who may cross (ids in lower case).
fn borders(map: &Map) -> BTreeSet<(String, String, String)> {
    let mut out = BTreeSet::new();
    for (i, _) in map.regions().iter().enumerate() {
        let r = zinejudge::map::RegionId(u16::try_from(i).expect("fits"));
        for (to, m) in map.borders(r) {
            out.insert((
                map.region_abbr(r).to_lowercase(),
                map.region_abbr(*to).to_lowercase(),
                format!("{m:?}"),
            ));
        }
    }
    out
}

/// Every province: id, terrain, whether a centre, and its full name.
fn places(map: &Map) -> BTreeSet<(String, String, bool)> {
    map.provinces()
        .iter()
        .map(|p| {
            (
                p.abbr.to_lowercase(),
                format!("{:?}", p.terrain),
                p.supply_centre,
            )
        })
        .collect()
}

/// Every power: name, adjective, home centres, starting units.
fn powers(v: &Variant) -> Vec<(String, String, BTreeSet<String>, BTreeSet<String>)> {
    let map = &v.map;
    map.power_ids()
        .map(|pw| {
            let p = map.power(pw);
            let homes = p
                .home_centres
                .iter()
                .map(|h| map.province(*h).abbr.to_lowercase())
                .collect();
            let units = v
                .starting_units
                .iter()
                .filter(|u| u.power == pw)
                .map(|u| {
                    format!(
                        "{} {}",
                        u.kind.letter(),
                        map.region_abbr(u.region).to_lowercase()
                    )
                })
                .collect();
            (p.name.clone(), p.adjective.clone(), homes, units)
        })
        .collect()
}

#[test]
fn dpjudge_s_standard_map_imported_is_the_standard_game_border_for_border() {
    let mut fetch = from_data;
    let imported = import("standard.map", &mut fetch).expect("imports");
    let ours = shipped_standard();
    let theirs = &imported.variant;
    assert_eq!(places(&theirs.map), places(&ours.map));
    let (a, b) = (borders(&theirs.map), borders(&ours.map));
    assert_eq!(
        a.symmetric_difference(&b).collect::<Vec<_>>(),
        Vec::<&(String, String, String)>::new(),
        "borders that differ"
    );
    assert_eq!(a.len(), b.len());
    assert_eq!(powers(theirs), powers(&ours));
    assert_eq!(theirs.victory, ours.victory);
    assert_eq!(theirs.calendar.start, ours.calendar.start);
    // Names a player types, DPjudge's aliases among them, find the same
    // places: `norwegian sea` and `nrg` are the Norwegian Sea.
    for name in ["norwegian sea", "nrg", "Mid-Atlantic Ocean", "gulf of lyon"] {
        let p = |m: &Map| m.lookup(name).map(|n| format!("{n:?}"));
        assert!(p(&theirs.map).is_some(), "{name} is known");
    }
}

/// The imported file passes both DATC files, as the shipped standard
/// game does (jDip's expects the 2000 rulebook in 6.F.17, as in CI).
#[test]
fn the_imported_standard_map_passes_both_datc_files() {
    let dir = std::env::temp_dir().join(format!("zj-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = support_play::import_with_cli(
        &Path::new(DATA).join("standard.map"),
        &dir.join("standard.toml"),
        &[],
    );
    let bin = env!("CARGO_BIN_EXE_zinejudge");
    let datc = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/datc");
    for (file, allow) in [
        ("godip_datc_v2.4_06.txt", None),
        ("jdip_datc_v2.4_06.txt", Some("6.F.17")),
    ] {
        let mut cmd = Command::new(bin);
        cmd.arg("datc").arg("--variant").arg(&out);
        if let Some(a) = allow {
            cmd.args(["--allow-fail", a]);
        }
        let r = cmd.arg(Path::new(datc).join(file)).output().expect("runs");
        let text = String::from_utf8_lossy(&r.stdout);
        assert!(r.status.success(), "{file}:\n{text}");
        assert!(text.contains("passed"), "{text}");
    }
}

#[test]
fn youngstown_imports_with_its_ten_powers_and_seventy_two_centres() {
    let mut fetch = from_data;
    let imported = import("youngstown.map", &mut fetch).expect("imports");
    let v = &imported.variant;
    assert_eq!(v.map.power_ids().count(), 10);
    assert_eq!(v.map.supply_centre_count(), 72);
    assert!(v.map.lookup_power("India").is_some());
    // Its file round-trips through the loader as written.
    let again = Variant::from_toml(&imported.toml).expect("loads again");
    assert_eq!(borders(&again.map), borders(&v.map));
}

/// DPjudge's case code: `tus` in Venice's list is for armies only,
/// `Tys` for fleets and convoys only, `spa` is Spain's land part.
#[test]
fn borders_follow_dpjudge_s_case_code() {
    let map = "\
Alpha = alp
Beta = bet
Gamma = gam
Sea One = one
WATER ONE ABUTS ALP BET Gam
COAST ALP ABUTS ONE bet GAM
COAST BET ABUTS ONE alp
COAST GAM ABUTS ALP ONE
NORTH (NORTHERN) ALP
A ALP
UNOWNED BET
";
    let v = import_texts(&[("tiny.map", map)]).expect("imports").variant;
    let b = borders(&v.map);
    let kind = |from: &str, to: &str| {
        b.iter()
            .find(|(f, t, _)| f == from && t == to)
            .map(|x| x.2.clone())
            .unwrap_or_default()
    };
    let army = format!("{:?}", Mobility::ARMY);
    let fleet = format!("{:?}", Mobility::FLEET);
    let both = format!("{:?}", Mobility::BOTH);
    // ALP-BET written `bet`/`alp`: armies only.
    assert_eq!(kind("alp", "bet"), army, "{b:?}");
    // ONE-GAM written `Gam`: fleets (the only kind at sea anyway).
    assert_eq!(kind("one", "gam"), fleet, "{b:?}");
    // ALP-GAM in capitals both ways: both kinds.
    assert_eq!(kind("alp", "gam"), both, "{b:?}");
    assert_eq!(kind("gam", "alp"), both, "{b:?}");
}

#[test]
fn renames_amendments_and_drops_are_carried_over() {
    let base = "\
Alpha = alp
Beta = bet
Gamma = gam
LAND ALP ABUTS BET GAM
LAND BET ABUTS ALP GAM
LAND GAM ABUTS ALP BET
NORTH (NORTHERN) ALP
A ALP
UNOWNED BET GAM
";
    let variant = "\
USE base.map
bet -> Bergen = ber bergen+town
AMEND ALP ABUTS -GAM
AMEND GAM ABUTS -ALP
";
    let v = import_texts(&[("variant.map", variant), ("base.map", base)])
        .expect("imports")
        .variant;
    assert!(v.map.lookup("Bergen Town").is_some(), "a multi-word alias");
    assert!(v.map.lookup("Beta").is_none(), "the old name is gone");
    let b = borders(&v.map);
    assert!(b.iter().any(|(f, t, _)| f == "alp" && t == "ber"));
    assert!(!b.iter().any(|(f, t, _)| f == "alp" && t == "gam"), "{b:?}");
    let dropped = "USE base.map\nDROP GAM\nUNOWNED -GAM\n";
    let v = import_texts(&[("d.map", dropped), ("base.map", base)])
        .expect("imports")
        .variant;
    assert!(v.map.lookup("Gamma").is_none());
    assert_eq!(v.map.supply_centre_count(), 2);
}

#[test]
fn what_the_judge_cannot_play_is_refused_with_its_line() {
    let map = "\
Alpha = alp
Beta = bet
LAND ALP ABUTS BET
LAND BET ABUTS ALP
NORTH (NORTHERN) ALP
A ALP
RULE BLIND
LEAGUE north STRICT
UNOWNED BET
";
    let Err(ImportError::Refused(list)) = import_texts(&[("x.map", map)]) else {
        panic!("refused");
    };
    let said: Vec<String> = list.iter().map(ToString::to_string).collect();
    assert!(
        said.iter()
            .any(|s| s.starts_with("x.map:7:") && s.contains("RULE BLIND")),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|s| s.starts_with("x.map:8:") && s.contains("LEAGUE")),
        "{said:?}"
    );
}

#[test]
fn a_rule_word_the_judge_has_switches_its_feature_on() {
    let map = "\
Alpha = alp
Beta = bet
LAND ALP ABUTS BET
LAND BET ABUTS ALP
NORTH (NORTHERN) ALP
A ALP
SOUTH (SOUTHERN) BET
A BET
RULE HOME_BUILDS
";
    let imported = import_texts(&[("x.map", map)]).expect("imports");
    assert!(imported.toml.contains("[home-builds]"), "{}", imported.toml);
    assert_eq!(
        imported.variant.features.plugins.names(),
        vec!["home-builds"]
    );
    let any = map.replace("HOME_BUILDS", "BUILD_ANY");
    let imported = import_texts(&[("x.map", &any)]).expect("imports");
    assert!(
        imported.toml.contains("any-owned-centre"),
        "{}",
        imported.toml
    );
}

#[test]
fn a_map_whose_include_is_missing_is_refused_naming_it() {
    let Err(ImportError::Refused(list)) = import_texts(&[("x.map", "USE gone.geography\n")]) else {
        panic!("refused");
    };
    assert!(
        list.iter().any(|r| r.what.contains("gone.geography")),
        "{list:?}"
    );
}

/// `RULE MOBILIZE`: nobody starts with units; the game opens with the
/// builds, in the adjustment phase before the one `BEGIN` names.
#[test]
fn mobilize_opens_with_builds_in_the_home_centres() {
    let map = "\
Alpha = alp
Beta = bet
LAND ALP ABUTS BET
LAND BET ABUTS ALP
NORTH (NORTHERN) ALP
A ALP
SOUTH (SOUTHERN) BET
A BET
BEGIN SPRING 1901 MOVEMENT
RULE MOBILIZE
";
    let v = import_texts(&[("m.map", map)]).expect("imports").variant;
    assert!(v.starting_units.is_empty());
    assert_eq!(
        v.calendar.label(v.calendar.start),
        v.calendar
            .label(v.calendar.parse("Winter 1900 adjustment").expect("a phase"))
    );
}

/// A unit line replaces the unit any power had in that province: a
/// variant that gives St Petersburg to a new power moves the fleet out.
#[test]
fn a_unit_replaces_another_power_s_unit_in_its_province() {
    let map = "\
Alpha = alp
Beta = bet
LAND ALP ABUTS BET
LAND BET ABUTS ALP
NORTH (NORTHERN) ALP
A ALP
SOUTH (SOUTHERN) BET
NORTH -ALP
SOUTH ALP
A ALP
UNOWNED BET
";
    let v = import_texts(&[("u.map", map)]).expect("imports").variant;
    assert_eq!(v.starting_units.len(), 1);
    let south = v.map.lookup_power("South").expect("South");
    assert_eq!(v.starting_units[0].power, south);
}

/// An alias DPjudge marks ambiguous (`up?`), or one two places use, is
/// kept as a name the parser asks about, never guessed.
#[test]
fn an_ambiguous_alias_is_asked_about_not_guessed() {
    let map = "\
Alpha = alp up?
Beta = bet up? hill
Gamma = gam hill
LAND ALP ABUTS BET GAM
LAND BET ABUTS ALP GAM
LAND GAM ABUTS ALP BET
NORTH (NORTHERN) ALP
A ALP
UNOWNED BET GAM
";
    let imported = import_texts(&[("amb.map", map)]).expect("imports");
    let v = &imported.variant;
    assert_eq!(v.map.ambiguous("up").len(), 2);
    assert_eq!(v.map.ambiguous("hill").len(), 2, "{}", imported.toml);
    let parser = zinejudge::orders::parse::OrderParser::with_syntax(&v.map, v.syntax.clone());
    let e = parser
        .parse("A(Alp)-Up", Some(zinejudge::variant::PhaseKind::Movement))
        .expect_err("asked about");
    let said = e.to_string();
    assert!(said.contains("Alpha") && said.contains("Beta"), "{said}");
    // Its own names still work.
    assert!(
        parser
            .parse("A(Alp)-Beta", Some(zinejudge::variant::PhaseKind::Movement))
            .is_ok()
    );
}
