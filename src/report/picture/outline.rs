//! Companion outline files: a variant's province shapes drawn by hand or
//! from geographic data, `games/outlines/<variant>.svg` (the format is in
//! games/outlines/SOURCE.md). The shipped ones are compiled in, the way the
//! variant files are, so the judge draws the same map wherever it runs; a
//! variant without one gets computed areas ([`super::geometry`]).
//!
//! The reader takes only what the format allows (absolute `M`, `L`, `Z`
//! path commands and a few attributes) and refuses anything else, so a
//! broken file falls back to computed areas instead of a wrong picture.

use super::layout::Pt;
use std::collections::HashMap;

/// The shipped outline files, by variant name.
pub(crate) const BUILTIN: &[(&str, &str)] = &[
    (
        "standard",
        include_str!("../../../games/outlines/standard.svg"),
    ),
    ("ardri", include_str!("../../../games/outlines/ardri.svg")),
    ("1066", include_str!("../../../games/outlines/1066.svg")),
    (
        "abstraction2",
        include_str!("../../../games/outlines/abstraction2.svg"),
    ),
    ("1700ad", include_str!("../../../games/outlines/1700ad.svg")),
    ("1000ad", include_str!("../../../games/outlines/1000ad.svg")),
];

/// The shipped outline of a variant, if it has one and it reads.
pub(crate) fn builtin(variant: &str) -> Option<Outline> {
    BUILTIN
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(variant))
        .and_then(|(_, text)| Outline::parse(text).ok())
}

/// One province's shape.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    /// Closed rings.
    pub rings: Vec<Vec<Pt>>,
    /// Where its unit stands.
    pub unit: Pt,
}

/// An outline file, read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Outline {
    /// The drawing's width (its viewBox).
    pub width: f32,
    /// Its height.
    pub height: f32,
    /// Shapes by province abbreviation (as in the variant file).
    pub areas: HashMap<String, Shape>,
    /// Split-coast unit spots, by `abbr/coast` in lower case.
    pub coasts: HashMap<String, Pt>,
    /// Land no province claims.
    pub land: Vec<Vec<Pt>>,
    /// Water no province claims.
    pub water: Vec<Vec<Pt>>,
}

/// Why an outline file was not used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutlineError {
    /// No `viewBox` on the root element.
    #[error("the outline has no viewBox")]
    NoViewBox,
    /// A path the reader does not understand.
    #[error("cannot read the path of {0}")]
    BadPath(String),
    /// A number that does not parse.
    #[error("cannot read a number in {0}")]
    BadNumber(String),
}

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

fn numbers(s: &str, what: &str) -> Result<Vec<f32>, OutlineError> {
    s.split([' ', ','])
        .filter(|x| !x.is_empty())
        .map(|x| {
            x.parse::<f32>()
                .map_err(|_| OutlineError::BadNumber(what.to_string()))
        })
        .collect()
}

/// Rings of a path made of absolute `M x y L x y ... Z` commands.
fn rings(d: &str, what: &str) -> Result<Vec<Vec<Pt>>, OutlineError> {
    let mut out = Vec::new();
    for part in d.split('M').filter(|p| !p.trim().is_empty()) {
        let body = part.trim().trim_end_matches('Z').trim_end();
        if body.contains(|c: char| c.is_ascii_alphabetic() && c != 'L' && c != 'e') {
            return Err(OutlineError::BadPath(what.to_string()));
        }
        let mut ring = Vec::new();
        for pt in body.split('L') {
            let n = numbers(pt, what)?;
            if n.len() != 2 {
                return Err(OutlineError::BadPath(what.to_string()));
            }
            ring.push((n[0], n[1]));
        }
        if ring.len() >= 3 {
            out.push(ring);
        }
    }
    Ok(out)
}

impl Outline {
    /// Read an outline file.
    pub fn parse(text: &str) -> Result<Outline, OutlineError> {
        let vb = text
            .find("<svg")
            .and_then(|i| attr(&text[i..], "viewBox"))
            .ok_or(OutlineError::NoViewBox)?;
        let vb = numbers(vb, "viewBox")?;
        let [_, _, width, height] = vb[..] else {
            return Err(OutlineError::NoViewBox);
        };
        let mut o = Outline {
            width,
            height,
            ..Outline::default()
        };
        let mut rest = text;
        while let Some(i) = rest.find('<') {
            rest = &rest[i..];
            let end = rest.find('>').unwrap_or(rest.len());
            let tag = &rest[..end];
            rest = &rest[end..];
            let Some(id) = attr(tag, "id") else { continue };
            if tag.starts_with("<path") {
                let d = attr(tag, "d").ok_or_else(|| OutlineError::BadPath(id.to_string()))?;
                let r = rings(d, id)?;
                match id {
                    "land" => o.land = r,
                    "water" => o.water = r,
                    _ => {
                        let unit = match attr(tag, "data-unit") {
                            Some(u) => match numbers(u, id)?[..] {
                                [x, y] => (x, y),
                                _ => return Err(OutlineError::BadNumber(id.to_string())),
                            },
                            None => r
                                .first()
                                .and_then(|r| r.first())
                                .copied()
                                .unwrap_or_default(),
                        };
                        o.areas.insert(id.to_string(), Shape { rings: r, unit });
                    }
                }
            } else if tag.starts_with("<circle") {
                let x = attr(tag, "cx").map(|v| numbers(v, id)).transpose()?;
                let y = attr(tag, "cy").map(|v| numbers(v, id)).transpose()?;
                if let (Some([x]), Some([y])) = (x.as_deref(), y.as_deref()) {
                    o.coasts.insert(id.to_ascii_lowercase(), (*x, *y));
                }
            }
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_outlines_read() {
        for (name, text) in BUILTIN {
            let o = Outline::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(o.areas.len() > 10, "{name}");
        }
    }

    #[test]
    fn a_path_with_curves_is_refused() {
        let t = r#"<svg viewBox="0 0 10 10"><path id="A" d="M0 0C1 1 2 2 3 3Z"/></svg>"#;
        assert_eq!(Outline::parse(t), Err(OutlineError::BadPath("A".into())));
    }

    #[test]
    fn a_small_file_reads() {
        let t = r#"<svg viewBox="0 0 10 20"><path id="A" data-unit="1 2" d="M0 0L5 0L5 5Z"/><circle id="A/NC" cx="3" cy="4" r="1"/></svg>"#;
        let o = Outline::parse(t).unwrap();
        assert_eq!(o.height, 20.0);
        assert_eq!(o.areas["A"].unit, (1.0, 2.0));
        assert_eq!(o.areas["A"].rings[0].len(), 3);
        assert_eq!(o.coasts["a/nc"], (3.0, 4.0));
    }
}
