//! The map picture: drawn for every shipped variant, every province on
//! it, and rasterised to a PNG of sensible size.

use zinejudge::game::Position;
use zinejudge::report::picture::{png, svg};
use zinejudge::variant::{self, Variant};

fn check(v: &Variant) {
    let pos = Position::initial(v);
    let s = svg(
        v,
        &pos,
        &[],
        &format!("{}: {}", v.name, v.calendar.label(pos.phase)),
    );
    for p in v.map.provinces() {
        assert!(
            p.xy.is_some(),
            "{}: {} has no point on the picture",
            v.name,
            p.abbr
        );
        assert!(
            s.contains(&format!("id=\"p-{}\"", p.abbr.replace('&', "&amp;"))),
            "{}: {} not drawn",
            v.name,
            p.abbr
        );
    }
    assert_eq!(
        s.matches("class=\"unit\"").count(),
        pos.units.len(),
        "every unit drawn"
    );
    let bytes = png(&s).expect("renders");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        bytes.len() > 20_000 && bytes.len() < 2_000_000,
        "{}: {} bytes",
        v.name,
        bytes.len()
    );
    if let Ok(dir) = std::env::var("ZJ_PICTURE_DIR") {
        std::fs::write(format!("{dir}/{}.png", v.name), &bytes).unwrap();
        std::fs::write(format!("{dir}/{}.svg", v.name), &s).unwrap();
    }
}

#[test]
fn every_shipped_variant_is_drawn() {
    for (name, _) in variant::BUILTIN {
        check(&variant::builtin(name).unwrap().unwrap());
    }
}
