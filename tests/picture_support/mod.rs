//! Reading the map picture's SVG for the tests of what a reader sees on
//! it: the boxes the judge marks (`data-box`), and everything a unit's
//! marker paints. Shared by tests/judge (picture.rs, newcomer.rs) and
//! tests/mail (newcomer_game.rs).

#![allow(dead_code)]

/// The numbers of a `data-box="x y w h"` attribute of each element whose
/// tag starts with `start`.
pub fn boxes(svg: &str, start: &str) -> Vec<[f32; 4]> {
    svg.match_indices(start)
        .filter_map(|(i, _)| {
            let rest = &svg[i..];
            let end = rest.find('>')?;
            let tag = &rest[..end];
            let b = tag.split("data-box=\"").nth(1)?.split('"').next()?;
            let n: Vec<f32> = b.split(' ').filter_map(|x| x.parse().ok()).collect();
            (n.len() == 4).then(|| [n[0], n[1], n[2], n[3]])
        })
        .collect()
}

/// Whether two boxes overlap by more than a rounding's width (touching
/// edges do not).
pub fn overlap(a: &[f32; 4], b: &[f32; 4]) -> bool {
    a[0] < b[0] + b[2] - 0.05
        && b[0] < a[0] + a[2] - 0.05
        && a[1] < b[1] + b[3] - 0.05
        && b[1] < a[1] + a[3] - 0.05
}

/// The number after `key` (`x="`) in `tag`, or 0.
fn attr(tag: &str, key: &str) -> f32 {
    tag.split(key)
        .nth(1)
        .and_then(|r| r.split('"').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0.0)
}

/// Everything each unit's marker paints (`<g class="unit...">`: its box,
/// its letters, its coast, a built unit's ring, a gone unit's cross),
/// each shape's stroke included: the boxes a name must stay clear of.
/// Text is taken as wide as DejaVu Sans's widest advance (0.62 em a
/// character) and as tall as its size.
pub fn markers(svg: &str) -> Vec<[f32; 4]> {
    let mut out = Vec::new();
    for (i, _) in svg.match_indices("<g class=\"unit") {
        let rest = &svg[i..];
        let group = &rest[..rest.find("</g>").unwrap_or(rest.len())];
        for (j, _) in group.match_indices('<') {
            let tag = &group[j..];
            let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
            let sw = attr(tag, "stroke-width=\"") / 2.0;
            if tag.starts_with("<rect ") {
                let (x, y) = (attr(tag, " x=\""), attr(tag, " y=\""));
                let (w, h) = (attr(tag, "width=\""), attr(tag, "height=\""));
                out.push([x - sw, y - sw, w + 2.0 * sw, h + 2.0 * sw]);
            } else if tag.starts_with("<circle ") {
                let r = attr(tag, " r=\"") + sw;
                out.push([
                    attr(tag, "cx=\"") - r,
                    attr(tag, "cy=\"") - r,
                    2.0 * r,
                    2.0 * r,
                ]);
            } else if tag.starts_with("<path ") {
                let d = tag.split(" d=\"").nth(1).and_then(|r| r.split('"').next());
                let n: Vec<f32> = d
                    .unwrap_or("")
                    .split(|c: char| c.is_ascii_alphabetic() || c == ' ')
                    .filter_map(|x| x.parse().ok())
                    .collect();
                let (xs, ys): (Vec<f32>, Vec<f32>) = n
                    .chunks(2)
                    .filter(|c| c.len() == 2)
                    .map(|c| (c[0], c[1]))
                    .unzip();
                let min = |v: &[f32]| v.iter().copied().fold(f32::MAX, f32::min) - sw;
                let max = |v: &[f32]| v.iter().copied().fold(f32::MIN, f32::max) + sw;
                out.push([min(&xs), min(&ys), max(&xs) - min(&xs), max(&ys) - min(&ys)]);
            } else if tag.starts_with("<text ") {
                // The text's own characters (a `<tspan>` of the initial is
                // within the box already).
                let text = &group[j + tag.len() + 1..];
                let chars = text[..text.find('<').unwrap_or(text.len())].chars().count();
                let size = attr(tag, "font-size=\"");
                let (x, y) = (attr(tag, " x=\""), attr(tag, " y=\""));
                out.push([x, y - size, chars as f32 * size * 0.62, size]);
            }
        }
    }
    out
}

/// Panic unless no unit's marker in `svg` covers a province's name (its
/// box, which holds the centre's mark): `what` names the picture.
#[track_caller]
pub fn no_marker_covers_a_name(what: &str, svg: &str) {
    let names = boxes(svg, "<text class=\"label\"");
    assert!(!names.is_empty(), "{what}: no names");
    for m in markers(svg) {
        for n in &names {
            assert!(
                !overlap(n, &m),
                "{what}: a unit's marker {m:?} covers the name at {n:?}"
            );
        }
    }
}
