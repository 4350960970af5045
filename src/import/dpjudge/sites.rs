//! A power's special build sites, the marks before a centre in its line
//! (DPjudge's map file syntax page): `*SIB`, a partisan site (not a
//! centre; a build site while the power owns at least one, but not all,
//! of its home centres: `[[partisans]]`, `crate::rules::partisans`) and
//! `@CAL(NYO)`, an alternative home centre (a home centre that adds a
//! place to build, not a build; standing in for the centres in brackets,
//! or any: `[[alternatives]]`, `crate::rules::alternatives`).
//! The marks this judge has no rule for (`~` hidden builds, `+`
//! factories) are refused with their line, as are marks in the
//! `UNOWNED` line, which DPjudge itself rejects.

use super::centres::Centres;
use std::fmt::Write as _;

/// What a power's line gives beyond its home centres.
#[derive(Debug, Clone, Default)]
pub(super) struct Special {
    /// Partisan sites, upper case, in the order given.
    pub partisans: Vec<String>,
    /// Alternative home centres, upper case, with the home centres each
    /// stands in for (none: any).
    pub alternatives: Vec<(String, Vec<String>)>,
}

/// A centre word with its marks taken off.
struct Marked<'a> {
    partisan: bool,
    alternative: bool,
    other: Option<char>,
    name: &'a str,
}

fn marks(w: &str) -> Marked<'_> {
    let mut m = Marked {
        partisan: false,
        alternative: false,
        other: None,
        name: w,
    };
    while let Some(c) = m.name.chars().next() {
        match c {
            '*' => m.partisan = true,
            '@' => m.alternative = true,
            '~' | '+' => m.other = m.other.or(Some(c)),
            _ => break,
        }
        m.name = &m.name[1..];
    }
    m
}

/// Read a word of a power's (`power`: its special sites and its home
/// centres) or the `UNOWNED` (`None`) centre list that carries a mark of
/// this module's; `Err` is the refusal's reason. `Ok(false)`: no such
/// mark, the caller reads the word. (The power is given as its parts, not
/// as the reader's `PowerDef`, so that this file and the reader do not
/// import each other.)
pub(super) fn centre_word(
    w: &str,
    power: Option<(&mut Special, &mut Centres)>,
) -> Result<bool, &'static str> {
    let m = marks(w);
    // A factory (`+`) alone is the caller's to refuse.
    if w.starts_with('+') || (!m.partisan && !m.alternative && m.other.is_none()) {
        return Ok(false);
    }
    if let Some(c) = m.other {
        return Err(match c {
            '~' => {
                "hidden builds (~), shown only after the next moves, are not a rule this judge has"
            }
            _ => {
                "building outside the home centres (factories, unowned homes) is not a rule this judge has"
            }
        });
    }
    let Some((special, homes)) = power else {
        return Err(
            "partisan sites and alternative home centres belong to a power, not to the UNOWNED line",
        );
    };
    if m.partisan && m.alternative {
        return Err("a partisan site is no centre, so it cannot be an alternative home centre");
    }
    let (name, limits) = match m.name.split_once('(') {
        Some((n, rest)) if rest.ends_with(')') => (n, rest.trim_end_matches(')')),
        _ => (m.name, ""),
    };
    let site = name.to_uppercase();
    if site.is_empty() {
        return Ok(true);
    }
    if m.partisan {
        if !special.partisans.contains(&site) {
            special.partisans.push(site);
        }
        return Ok(true);
    }
    let limits: Vec<String> = limits
        .split(',')
        .map(|s| s.trim().to_uppercase())
        .filter(|s| !s.is_empty())
        .collect();
    special.alternatives.retain(|(a, _)| *a != site);
    special.alternatives.push((site.clone(), limits));
    homes.push(site);
    Ok(true)
}

/// `-X` in a power's line: X is no longer any kind of site of it.
pub(super) fn forget(special: &mut Special, c: &str) {
    special.partisans.retain(|x| !same(x, c));
    special.alternatives.retain(|(x, _)| !same(x, c));
}

/// `old -> new`: a renamed place keeps its part.
pub(super) fn rename(special: &mut Special, old: &str, new: &str) {
    let alternatives = special
        .alternatives
        .iter_mut()
        .flat_map(|(a, l)| std::iter::once(a).chain(l.iter_mut()));
    for s in special.partisans.iter_mut().chain(alternatives) {
        if same(s, old) {
            *s = new.to_string();
        }
    }
}

/// Place names as DPjudge compares them: in any case.
fn same(a: &str, b: &str) -> bool {
    a.to_uppercase() == b.to_uppercase()
}

/// The tables of the variant file: `[[partisans]]` per power with
/// partisan sites, `[[alternatives]]` per alternative home centre, from
/// each power's name and sites. `id` is the writer's place id, `name` its
/// power name.
pub(super) fn write(
    out: &mut String,
    powers: &[(&str, &Special)],
    id: &dyn Fn(&str) -> String,
    name: &dyn Fn(&str) -> String,
) {
    for &(power, special) in powers {
        if special.partisans.is_empty() {
            continue;
        }
        let sites: Vec<String> = special
            .partisans
            .iter()
            .map(|s| toml::Value::String(id(s)).to_string())
            .collect();
        let _ = writeln!(
            out,
            "[[partisans]]\npower = {}\nsites = [{}]\n",
            toml::Value::String(name(power)),
            sites.join(", ")
        );
    }
    let q = |s: &str| toml::Value::String(s.to_string()).to_string();
    for &(power, special) in powers {
        for (site, limits) in &special.alternatives {
            let _ = write!(
                out,
                "[[alternatives]]\npower = {}\nsite = {}\n",
                q(&name(power)),
                q(&id(site))
            );
            if !limits.is_empty() {
                let l: Vec<String> = limits.iter().map(|s| q(&id(s))).collect();
                let _ = writeln!(out, "for = [{}]", l.join(", "));
            }
            let _ = writeln!(out);
        }
    }
}
