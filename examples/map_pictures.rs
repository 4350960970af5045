//! The pictures in docs/pictures/, made again with
//! `cargo run --release --example map_pictures -- docs/pictures`:
//! the standard opening (Spring 1901, a common set of first moves) and
//! DATC 6.F.14, the simple convoy paradox (Szykman rule).

use std::path::{Path, PathBuf};
use zinejudge::game::Position;
use zinejudge::game::step::{PhaseOrders, play};
use zinejudge::orders::parse::OrderParser;
use zinejudge::orders::{AnyCommand, Order};
use zinejudge::testing::report::picture::{Picture, png};
use zinejudge::testing::report::{PhaseReport, title};
use zinejudge::variant::features::Viewer;
use zinejudge::variant::{Variant, builtin};

fn orders(v: &Variant, pos: &Position, lines: &[&str]) -> Result<PhaseOrders, String> {
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let mut main = Vec::new();
    for l in lines {
        let (pw, text) = l.split_once(':').ok_or("power: order")?;
        let power = v
            .map
            .lookup_power(pw.trim())
            .ok_or(format!("no power {pw}"))?;
        match parser
            .parse(text.trim(), Some(pos.phase.kind))
            .map_err(|e| format!("{text}: {e}"))?
            .command
        {
            AnyCommand::Main(unit, command) => main.push(Order {
                power,
                unit,
                command,
            }),
            other => return Err(format!("not a move: {other:?}")),
        }
    }
    Ok(PhaseOrders::Movement(main))
}

fn draw(v: &Variant, game: &str, pos: &Position, lines: &[&str], out: &Path) -> Result<(), String> {
    let o = orders(v, pos, lines)?;
    let (result, after) = play(v, pos, &o);
    let r = PhaseReport {
        variant: v,
        game,
        before: pos,
        orders: &o,
        result: &result,
        after: &after,
        next_deadline: None,
        ended: None,
        nmr: vec![],
    };
    let svg = Picture::new(v).phase_svg(&r, &title(&r), Viewer::Gm);
    let bytes = png(&svg).map_err(|e| e.to_string())?;
    std::fs::write(out.with_extension("png"), &bytes).map_err(|e| e.to_string())?;
    std::fs::write(out.with_extension("svg"), &svg).map_err(|e| e.to_string())?;
    println!(
        "{}: {} bytes",
        out.with_extension("png").display(),
        bytes.len()
    );
    Ok(())
}

fn main() -> Result<(), String> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "docs/pictures".into()),
    );
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let v = builtin("standard")
        .ok_or("no standard")?
        .map_err(|e| format!("{e:?}"))?;
    draw(
        &v,
        "opening",
        &Position::initial(&v),
        &[
            "Austria: A Vie-Gal",
            "Austria: A Bud-Ser",
            "Austria: F Tri-Alb",
            "England: F Lon-NTH",
            "England: F Edi-NWG",
            "England: A Lvp-Yor",
            "France: A Par-Bur",
            "France: A Mar S A Par-Bur",
            "France: F Bre-MAO",
            "Germany: A Mun-Bur",
            "Germany: A Ber-Kie",
            "Germany: F Kie-Den",
            "Italy: A Ven H",
            "Italy: A Rom-Apu",
            "Italy: F Nap-ION",
            "Russia: A War-Gal",
            "Russia: A Mos-Ukr",
            "Russia: F Sev-BLA",
            "Russia: F StP/sc-BOT",
            "Turkey: F Ank-BLA",
            "Turkey: A Con-Bul",
            "Turkey: A Smy-Con",
        ],
        &dir.join("standard-spring-1901"),
    )?;
    let pos = Position::from_toml(
        &v,
        r#"
phase = "Spring 1901 movement"
[units]
England = ["F Lon", "F Wal"]
France = ["A Bre", "F ENG"]
"#,
    )
    .map_err(|e| format!("{e:?}"))?;
    draw(
        &v,
        "DATC 6.F.14",
        &pos,
        &[
            "England: F Lon S F Wal-ENG",
            "England: F Wal-ENG",
            "France: A Bre-Lon",
            "France: F ENG C A Bre-Lon",
        ],
        &dir.join("datc-6f14-convoy-paradox"),
    )?;
    // A long convoy that gets through, for the route along the fleets.
    let pos = Position::from_toml(
        &v,
        r#"
phase = "Spring 1901 movement"
[units]
England = ["A Lon", "F ENG", "F MAO", "F WES"]
France = ["A Spa"]
Italy = ["F TYS"]
"#,
    )
    .map_err(|e| format!("{e:?}"))?;
    draw(
        &v,
        "DATC 6.C.4 style",
        &pos,
        &[
            "England: A Lon-Tun",
            "England: F ENG C A Lon-Tun",
            "England: F MAO C A Lon-Tun",
            "England: F WES C A Lon-Tun",
            "France: A Spa H",
            "Italy: F TYS S F WES",
        ],
        &dir.join("long-convoy"),
    )?;
    Ok(())
}
