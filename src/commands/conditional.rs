//! njudge's conditional orders (`IF`, `ELSE IF`, `ELSE`, `ENDIF`, its
//! syntax file's "CONDITIONAL ORDERS"), read as njudge reads them: the
//! conditions are asked of the board as the phase the orders are for
//! begins, and only the orders of the branch whose condition holds are
//! orders. Under a PHASE line the whole structure is kept and read when
//! that phase comes ([`super::later`]); for the current phase, whose
//! board is known, it is read at once ([`super::held`]).
//!
//! A directive that cannot be read never lets the orders it governs count
//! for anything else: an IF whose condition cannot be read, an IF inside
//! another IF (njudge nests them; here one IF joins the conditions with
//! AND instead), or an ELSE with no IF above it, takes every order of its
//! IF ... ENDIF (all its branches) out, each named in the reply with the
//! reason. The end of the
//! orders closes the IFs still open (njudge: "the end of the mail message
//! closes all open IFs without an error being reported").
//!
//! Below both `held` and `later`, which use it; it imports neither.

use crate::map::{Map, Unit};
use crate::orders::condition::{Directive, Head, directive};
use crate::rules::features::Viewer;
use crate::rules::view::View;
use crate::variant::Variant;

/// The kind of a kept line that is a directive (beside `M`, `R`, `A`).
pub(crate) const KIND: &str = "C";

/// What one line of a block of orders is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Role {
    /// Orders (or chat), governed by the directives above it.
    Plain,
    /// An `IF`, `ELSE IF`, `ELSE` or `ENDIF` read.
    Directive(Directive),
    /// A line taken out: a directive that cannot be read, or a line of an
    /// IF that holds one (the reason).
    Void(String),
}

/// The roles of the lines of `block`, and notes on IFs left open.
pub(crate) fn roles(map: &Map, block: &[(usize, String)]) -> (Vec<Role>, Vec<String>) {
    // Each IF ... ENDIF: why it cannot be used, if it cannot.
    let mut bad: Vec<Option<String>> = Vec::new();
    // The IFs open: (construct, its IF's line, ELSE seen).
    let mut open: Vec<(usize, usize, bool)> = Vec::new();
    let mut heads: Vec<Option<Result<Directive, String>>> = Vec::new();
    let mut within: Vec<Vec<usize>> = Vec::new();
    let mut stray: Vec<Option<String>> = Vec::new();
    for (n, line) in block {
        let d = directive(map, line);
        let mut lone = None;
        match &d {
            None => {}
            Some((Head::If, r)) => {
                bad.push(r.as_ref().err().map(|e| format!("the IF of line {n}: {e}")));
                // An IF inside another is not taken: a structure of
                // structures is read wrong too easily, by the player as by
                // the judge, and one IF whose condition joins both with AND
                // says the same.
                if let Some((outer, at, _)) = open.first()
                    && bad[*outer].is_none()
                {
                    let outer_line = block
                        .iter()
                        .find(|(m, _)| m == at)
                        .map_or("", |(_, l)| l.as_str());
                    bad[*outer] = Some(format!(
                        "the IF of line {n} is inside the IF of line {at}, and IFs are not \
                         nested here: write one IF whose condition joins both with AND \
                         (IF {} AND {})",
                        condition_text(outer_line),
                        condition_text(line)
                    ));
                }
                open.push((bad.len() - 1, *n, false));
            }
            Some((head @ (Head::ElseIf | Head::Else), r)) => match open.last_mut() {
                Some((c, _, seen_else)) => {
                    if *seen_else && bad[*c].is_none() {
                        bad[*c] = Some(format!("line {n} comes after the ELSE of its IF"));
                    }
                    if let Err(e) = r
                        && bad[*c].is_none()
                    {
                        bad[*c] = Some(format!("the ELSE IF of line {n}: {e}"));
                    }
                    *seen_else |= *head == Head::Else;
                }
                None => {
                    bad.push(Some(format!("line {n} has no IF above it")));
                    open.push((bad.len() - 1, *n, *head == Head::Else));
                }
            },
            Some((Head::EndIf, _)) if open.is_empty() => {
                lone = Some(format!("an ENDIF with no IF above it (line {n})"));
            }
            Some((Head::EndIf, _)) => {}
        }
        within.push(open.iter().map(|(c, _, _)| *c).collect());
        if matches!(d, Some((Head::EndIf, _))) {
            open.pop();
        }
        heads.push(d.map(|(_, r)| r));
        stray.push(lone);
    }
    let notes = open
        .iter()
        .map(|(_, n, _)| format!("the IF of line {n} has no ENDIF: it ends with these orders"))
        .collect();
    let roles = heads
        .into_iter()
        .zip(within)
        .zip(stray)
        .map(|((head, cs), lone)| {
            if let Some(why) = cs.iter().find_map(|c| bad[*c].clone()) {
                return Role::Void(why);
            }
            if let Some(why) = lone {
                return Role::Void(why);
            }
            match head {
                Some(Ok(d)) => Role::Directive(d),
                Some(Err(e)) => Role::Void(e),
                None => Role::Plain,
            }
        })
        .collect();
    (roles, notes)
}

/// The condition of an IF line as written: the words after IF, less a
/// closing THEN.
fn condition_text(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let end = match words.last() {
        Some(w) if w.eq_ignore_ascii_case("then") => words.len() - 1,
        _ => words.len(),
    };
    words.get(1..end).unwrap_or_default().join(" ")
}

/// Which of a sequence of lines are used, directives read as they come:
/// `holds` answers a directive's condition. Returns, for each item,
/// whether it is used (a directive: whether the branch it opens is).
pub(crate) fn select<T>(
    items: &[T],
    dir: impl Fn(&T) -> Option<&Directive>,
    holds: impl Fn(&crate::orders::condition::Cond) -> bool,
) -> Vec<bool> {
    // Per open IF: whether its parent branch is used, and whether one of
    // its branches was taken.
    let mut open: Vec<(bool, bool)> = Vec::new();
    let mut used = true;
    let mut out = Vec::with_capacity(items.len());
    for it in items {
        match dir(it) {
            None => out.push(used),
            Some(Directive::If(c)) => {
                let take = used && holds(c);
                open.push((used, take));
                used = take;
                out.push(take);
            }
            Some(Directive::ElseIf(c)) => {
                let Some((parent, taken)) = open.last_mut() else {
                    out.push(false);
                    continue;
                };
                let take = *parent && !*taken && holds(c);
                *taken |= take;
                used = take;
                out.push(take);
            }
            Some(Directive::Else) => {
                let Some((parent, taken)) = open.last_mut() else {
                    out.push(false);
                    continue;
                };
                let take = *parent && !*taken;
                *taken = true;
                used = take;
                out.push(take);
            }
            Some(Directive::EndIf) => {
                if let Some((parent, _)) = open.pop() {
                    used = parent;
                }
                out.push(used);
            }
        }
    }
    out
}

/// The units `power` sees at the start of the phase of `pos`: the
/// conditions are asked of them (a unit hidden from the player, 1066 rule
/// 5, is none of its conditions' business).
pub(crate) fn units_seen(
    v: &Variant,
    pos: &crate::game::Position,
    power: crate::map::PowerId,
) -> Vec<Unit> {
    View::of(v, pos, Viewer::Power(power)).position(pos).units
}

/// A kept line's directive, if it is one (`C|IF Russian A Gal`).
pub(crate) fn kept_directive(map: &Map, line: &str) -> Option<Directive> {
    let (kind, text) = line.split_once('|')?;
    if kind != KIND {
        return None;
    }
    directive(map, text).and_then(|(_, r)| r.ok())
}

/// The kept form of a directive.
pub(crate) fn kept_form(map: &Map, d: &Directive) -> String {
    format!("{KIND}|{}", d.show(map))
}

/// The kept lines `lines` that are used on the board where `units`
/// stand: the orders of the branches taken, the directives gone.
pub(crate) fn used_lines(map: &Map, lines: &[String], units: &[Unit]) -> Vec<String> {
    let dirs: Vec<Option<Directive>> = lines.iter().map(|l| kept_directive(map, l)).collect();
    let used = select(&dirs, |d| d.as_ref(), |c| c.holds(map, units));
    lines
        .iter()
        .zip(dirs.iter().zip(used))
        .filter(|(_, (d, u))| d.is_none() && *u)
        .map(|(l, _)| l.clone())
        .collect()
}

/// The kept lines as shown in a reply: directives in capitals, the orders
/// under an IF indented by its depth; `order` shows a kept order line (or
/// `None` for one that no longer reads).
pub(crate) fn shown(
    map: &Map,
    lines: &[String],
    order: impl Fn(&str) -> Option<String>,
) -> Vec<String> {
    let mut depth = 0usize;
    let mut out = Vec::new();
    for l in lines {
        match kept_directive(map, l) {
            Some(d) => {
                let at = match d {
                    Directive::If(_) => depth,
                    _ => depth.saturating_sub(1),
                };
                out.push(format!("{}{}", "  ".repeat(at), d.show(map)));
                match d {
                    Directive::If(_) => depth += 1,
                    Directive::EndIf => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            None => {
                if let Some(o) = order(l) {
                    out.push(format!("{}{o}", "  ".repeat(depth)));
                }
            }
        }
    }
    out
}
