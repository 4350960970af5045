//! DPjudge's centre ownership restrictions (`BLA ABUTS AEG(CON)`: the
//! border from the Black Sea into the Aegean open only to a power owning
//! Constantinople), imported as this judge's `open-to-owner-of` (see
//! `map::owner_borders`).
//!
//! DPjudge keeps them apart from the border (`Map.abutRules`, keyed by the
//! centres and a closing parenthesis, holding the place and the place the
//! restriction is written against), so the reader strips the list off the
//! border, keeps it here, and renames, drops and amends it away as it does
//! the border marks (`ports.rs`).

use std::collections::HashMap;
use std::fmt::Write as _;

/// Whether two names are the same but for case.
fn same(a: &str, b: &str) -> bool {
    a.to_uppercase() == b.to_uppercase()
}

/// A border open only to the owner of `centres` (upper case), from the
/// location `from` (as keyed) into the place `to` (upper case, no coast).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OwnerMark {
    pub from: String,
    pub to: String,
    pub centres: Vec<String>,
}

/// A border written with a centre list (`AEG(CON)`, `AEG(CON,SMY)`): the
/// border without it (any `*`/`~` marks left for `ports.rs`), the list
/// recorded for `from`; `Err` with why for a list that is not one.
pub(super) fn owner_mark(
    marks: &mut Vec<OwnerMark>,
    from: &str,
    written: &str,
) -> Result<String, String> {
    let Some(open) = written.find('(') else {
        return Ok(written.to_string());
    };
    let (border, list) = written.split_at(open);
    let Some(list) = list
        .strip_prefix('(')
        .and_then(|l| l.strip_suffix(')'))
        .filter(|l| !l.contains(['(', ')']))
    else {
        return Err(format!(
            "`{written}`: a centre list must close the border, as in `AEG(CON)`"
        ));
    };
    let centres: Vec<String> = list.split(',').map(|c| c.trim().to_uppercase()).collect();
    if centres.iter().any(String::is_empty) {
        return Err(format!("`{written}`: an empty centre in the list"));
    }
    let bare = border.trim_matches(|c: char| !c.is_alphanumeric());
    if bare.is_empty() {
        return Err(format!("`{written}`: a border with no place"));
    }
    let to = bare.split('/').next().unwrap_or(bare).to_uppercase();
    // DPjudge asks for every list a border is written with: a border
    // written with two lists is kept twice, and written once with both
    // (`province_line`), without a search of every list for each.
    marks.push(OwnerMark {
        from: from.to_string(),
        to,
        centres,
    });
    Ok(border.to_string())
}

/// `AMEND x ABUTS -Y`: DPjudge forgets every restriction that names `Y`
/// (at either end) with the border.
pub(super) fn unmark(marks: &mut Vec<OwnerMark>, gone: &str) {
    let g: String = gone.chars().take(3).collect::<String>().to_uppercase();
    marks.retain(|k| {
        let from: String = k.from.chars().take(3).collect::<String>().to_uppercase();
        from != g && k.to != g
    });
}

/// `OLD -> ...`: the restrictions follow the renamed place, at either end
/// or as a centre.
pub(super) fn rename(marks: &mut [OwnerMark], old: &str, new: &str) {
    for k in marks {
        if same(&k.from, old) {
            k.from = new.to_string();
        }
        if same(&k.to, old) {
            k.to = new.to_uppercase();
        }
        for c in &mut k.centres {
            if same(c, old) {
                *c = new.to_uppercase();
            }
        }
    }
}

/// `DROP x`: the restrictions from and to the place (and its coasts) go
/// with it.
pub(super) fn drop_place(marks: &mut Vec<OwnerMark>, place: &str) {
    let up = place.to_uppercase();
    let gone = |k: &str| {
        let k = k.to_uppercase();
        k == up || k.split('/').next() == Some(up.as_str())
    };
    marks.retain(|k| !gone(&k.from) && !gone(&k.to));
}

/// The restrictions by the province they are written from (upper case,
/// no coast), gathered once for the writer.
pub(super) fn by_province(marks: &[OwnerMark]) -> HashMap<String, Vec<&OwnerMark>> {
    let mut out: HashMap<String, Vec<&OwnerMark>> = HashMap::new();
    for k in marks {
        let base = k.from.split('/').next().unwrap_or("").to_uppercase();
        out.entry(base).or_default().push(k);
    }
    out
}

/// The `open-to-owner-of` line of a province's entry, if its `marks`
/// (those written from it: [`by_province`]) hold any (`id`: this judge's
/// id of a DPjudge place).
pub(super) fn province_line(out: &mut String, marks: &[&OwnerMark], id: &dyn Fn(&str) -> String) {
    let mut entries: Vec<(String, Vec<String>)> = Vec::new();
    for k in marks {
        let to = id(&k.to);
        let centres: Vec<String> = k.centres.iter().map(|c| id(c)).collect();
        match entries.iter_mut().find(|(t, _)| *t == to) {
            Some((_, cs)) => {
                for c in centres {
                    if !cs.contains(&c) {
                        cs.push(c);
                    }
                }
            }
            None => entries.push((to, centres)),
        }
    }
    if entries.is_empty() {
        return;
    }
    entries.sort();
    let q = |s: &str| toml::Value::String(s.to_string()).to_string();
    let inner: Vec<String> = entries
        .iter()
        .map(|(to, cs)| {
            let list: Vec<String> = cs.iter().map(|c| q(c)).collect();
            format!("{} = [{}]", q(to), list.join(", "))
        })
        .collect();
    let _ = writeln!(out, "open-to-owner-of = {{ {} }}", inner.join(", "));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_centre_list_comes_off_the_border_and_stays_with_it() {
        let mut marks = Vec::new();
        assert_eq!(owner_mark(&mut marks, "BLA", "AEG(CON)"), Ok("AEG".into()));
        assert_eq!(
            owner_mark(&mut marks, "SKA", "*BAL(KIE,DEN)"),
            Ok("*BAL".into())
        );
        assert_eq!(marks[0].centres, vec!["CON".to_string()]);
        assert_eq!(marks[1].to, "BAL");
        assert_eq!(marks[1].centres, vec!["KIE".to_string(), "DEN".to_string()]);
        assert!(owner_mark(&mut marks, "BLA", "AEG(CON").is_err());
        assert!(owner_mark(&mut marks, "BLA", "AEG(CON,)").is_err());
    }

    #[test]
    fn the_list_is_written_as_a_table_of_neighbours() {
        let mut marks = Vec::new();
        owner_mark(&mut marks, "BLA", "AEG(CON)").unwrap_or_default();
        let mut out = String::new();
        let from_bla = &by_province(&marks)["BLA"];
        province_line(&mut out, from_bla, &|k| {
            let mut s = k.to_lowercase();
            s[..1].make_ascii_uppercase();
            s
        });
        assert_eq!(out, "open-to-owner-of = { \"Aeg\" = [\"Con\"] }\n");
        rename(&mut marks, "CON", "IST");
        drop_place(&mut marks, "AEG");
        assert!(marks.is_empty());
    }
}
