//! Playing phases of a variant in tests, with orders written as a player
//! would, `Power: order`, read by the variant's own parser; and the
//! `zinejudge` commands a GM runs on a DPjudge map before playing it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use zinejudge::adjudicate::MovementResult;
use zinejudge::game::Position;
use zinejudge::game::step::{PhaseOrders, PhaseResult, play};
use zinejudge::map::{Named, PowerId, ProvinceId, Unit};
use zinejudge::orders::parse::OrderParser;
use zinejudge::orders::{AdjustOrder, AnyCommand, MainOrder, Order};
use zinejudge::variant::{PhaseKind, Variant, builtin};

/// A variant file of the repository (`games/abstraction2.toml`,
/// `tests/data/maps/boxes.toml`).
pub fn file(path: &str) -> Variant {
    let src = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    Variant::from_toml(&src).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// A variant the judge ships.
pub fn shipped(name: &str) -> Variant {
    builtin(name)
        .unwrap_or_else(|| panic!("{name} ships"))
        .unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// The province a player would call `name`.
pub fn prov(v: &Variant, name: &str) -> ProvinceId {
    match v.map.lookup(name) {
        Some(Named::Province(p)) => p,
        other => panic!("{name}: {other:?}"),
    }
}

/// The power called `name`.
pub fn power(v: &Variant, name: &str) -> PowerId {
    v.map
        .lookup_power(name)
        .unwrap_or_else(|| panic!("no power {name}"))
}

/// `Power: order` lines as the orders of a phase of `kind`.
pub fn orders(v: &Variant, kind: PhaseKind, lines: &[&str]) -> PhaseOrders {
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let (mut main, mut retreats, mut adjust) = (Vec::new(), Vec::new(), Vec::new());
    for l in lines {
        let (pw, text) = l.split_once(':').expect("power: order");
        let pw = power(v, pw.trim());
        match parser
            .parse(text.trim(), Some(kind))
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .command
        {
            AnyCommand::Main(unit, command) => main.push(MainOrder {
                power: pw,
                unit,
                command,
            }),
            AnyCommand::Retreat(unit, command) => retreats.push(Order {
                power: pw,
                unit,
                command,
            }),
            AnyCommand::Adjust(command) => adjust.push(AdjustOrder { power: pw, command }),
        }
    }
    match kind {
        PhaseKind::Movement => PhaseOrders::Movement(main),
        PhaseKind::Retreat => PhaseOrders::Retreat(retreats),
        PhaseKind::Adjustment | PhaseKind::Placement => PhaseOrders::Adjustment(adjust),
    }
}

/// Play the phase of `pos` with `lines`.
pub fn step(v: &Variant, pos: &Position, lines: &[&str]) -> (PhaseResult, Position) {
    play(v, pos, &orders(v, pos.phase.kind, lines))
}

/// Play a movement phase with `lines`.
pub fn movement(v: &Variant, pos: &Position, lines: &[&str]) -> (MovementResult, Position) {
    match step(v, pos, lines) {
        (PhaseResult::Movement(r), next) => (r, next),
        (other, _) => panic!("not a movement phase: {other:?}"),
    }
}

/// The units standing in the province called `name`.
pub fn units_in(v: &Variant, pos: &Position, name: &str) -> Vec<Unit> {
    let p = prov(v, name);
    pos.units
        .iter()
        .copied()
        .filter(|u| v.map.province_of(u.region) == p)
        .collect()
}

/// `zinejudge import dpjudge MAP --out OUT EXTRA...` run as a GM would run
/// it; fails the test with the command's own words unless it succeeds.
/// `extra` carries further arguments such as `--include DIR`. Returns the
/// file written, for the test to load or hand to [`check_game_with_cli`].
pub fn import_with_cli(map: &Path, out: &Path, extra: &[&str]) -> PathBuf {
    let st = Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(["import", "dpjudge"])
        .arg(map)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .expect("import runs");
    assert!(
        st.status.success(),
        "import dpjudge {}: {}{}",
        map.display(),
        String::from_utf8_lossy(&st.stdout),
        String::from_utf8_lossy(&st.stderr)
    );
    out.to_path_buf()
}

/// `zinejudge check-game FILE`; fails the test with what it said unless it
/// accepts the file. Returns what it printed.
pub fn check_game_with_cli(file: &Path) -> String {
    let c = Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .arg("check-game")
        .arg(file)
        .output()
        .expect("check-game runs");
    let said = String::from_utf8_lossy(&c.stdout).into_owned();
    assert!(
        c.status.success(),
        "check-game {}: {said}{}",
        file.display(),
        String::from_utf8_lossy(&c.stderr)
    );
    said
}
