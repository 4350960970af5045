//! 1000 AD rule 13: a power that has lost every home centre has one
//! movement season of grace to retake one; failing that it falls into
//! anarchy for good (its units hold, the judge removes what must go).

use serde::{Deserialize, Serialize};

/// Where a power stands under the anarchy rule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Anarchy {
    /// It holds a home centre (or the variant has no such rule).
    #[default]
    No,
    /// It has lost them all and has the next movement season to retake
    /// one.
    Grace,
    /// It failed: its units are in civil disorder for good.
    #[serde(rename = "anarchy")]
    Yes,
}

use super::{Position, Ruleset};
use crate::map::{PowerId, ProvinceId};

/// A power in anarchy gives no orders: its units hold (rule 13).
pub(crate) fn silenced(pos: &Position, p: PowerId) -> bool {
    pos.state.anarchy.get(p) == Some(&Anarchy::Yes)
}

/// After a movement season of grace (rule 13): a power that has a unit on
/// one of its home centres has retaken it; one that has not falls into
/// anarchy.
pub(crate) fn end_grace(v: &(impl Ruleset + ?Sized), pos: &mut Position) {
    let map = v.map();
    for pw in map.power_ids() {
        if pos.state.anarchy.get(pw) != Some(&Anarchy::Grace) {
            continue;
        }
        let homes = &map.power(pw).home_centres;
        let retaken: Vec<ProvinceId> = pos
            .units
            .iter()
            .filter(|u| u.power == pw)
            .map(|u| map.province_of(u.region))
            .filter(|p| homes.contains(p))
            .collect();
        for p in &retaken {
            pos.owners[p.index()] = Some(pw);
        }
        pos.state.anarchy[pw] = if retaken.is_empty() {
            Anarchy::Yes
        } else {
            Anarchy::No
        };
    }
}

/// On the way into an adjustment phase: a power left with no home centre
/// but still holding some centre gets its season of grace (rule 13).
pub(crate) fn start_grace(v: &(impl Ruleset + ?Sized), pos: &mut Position) {
    if !v.features().plugins.has(PLUGIN.name) {
        return;
    }
    let map = v.map();
    for pw in map.power_ids() {
        let homes = &map.power(pw).home_centres;
        if homes.is_empty() || pos.state.anarchy.get(pw) != Some(&Anarchy::No) {
            continue;
        }
        // "The power is said to still survive until all sc's are lost": one
        // that holds no centre at all is out (its units go at this
        // adjustment), with no season of grace to announce.
        let holds_any = pos.owners.contains(&Some(pw));
        if holds_any && homes.iter().all(|h| pos.owners[h.index()] != Some(pw)) {
            pos.state.anarchy[pw] = Anarchy::Grace;
        }
    }
}

/// What the results say of rule 13 this phase, one line per power whose
/// standing changed between `before` and `after`: it lost its last home
/// centre (and until when it may retake one), it retook one in time, or
/// it fell into anarchy. Players cannot see the grace from the chart
/// alone, and a power that loses its orders must be told why.
pub(crate) fn news(
    v: &(impl Ruleset + ?Sized),
    before: &Position,
    after: &Position,
) -> Vec<String> {
    let map = v.map();
    let cal = v.calendar();
    let mut out = Vec::new();
    for pw in map.power_ids() {
        let was = before.state.anarchy.get(pw).copied().unwrap_or_default();
        let is = after.state.anarchy.get(pw).copied().unwrap_or_default();
        let name = &map.power(pw).name;
        match (was, is) {
            (Anarchy::No, Anarchy::Grace) => {
                // The grace is the next movement season.
                let movement = crate::calendar::PhaseKind::Movement;
                let q = if after.phase.kind == movement {
                    after.phase
                } else {
                    cal.next_of_kind(after.phase, movement)
                };
                out.push(format!(
                    "{name}: every home centre lost; the {} is its season \
                     of grace to retake one (a unit standing on it at the \
                     end of the move), or it falls into anarchy (rule 13)",
                    cal.label(q)
                ));
            }
            (Anarchy::Grace, Anarchy::No) => out.push(format!(
                "{name}: a home centre retaken in its season of grace; no \
                 anarchy (rule 13)"
            )),
            (Anarchy::Grace | Anarchy::No, Anarchy::Yes) => out.push(format!(
                "{name}: no home centre retaken in its season of grace, so \
                 in anarchy from now on: no orders, its units hold, the \
                 judge removes what must go; it survives while it holds a \
                 centre (rule 13)"
            )),
            _ => {}
        }
    }
    out
}

/// The feature's entry in the registry.
pub(crate) const PLUGIN: super::feature::Plugin = super::feature::Plugin {
    name: "anarchy",
    rank: 30,
    tables: &["anarchy"],
    load,
};

/// `[anarchy]`: the rule is on.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawAnarchy {
    /// Movement seasons of grace to retake a home centre (the rule: one).
    grace: toml::Spanned<u32>,
}

/// The anarchy rule, where the variant has it.
#[derive(Debug, Clone, Copy)]
struct Rule;

fn load(l: &mut super::feature::Load<'_>) -> Option<std::sync::Arc<dyn super::feature::Feature>> {
    let raw: RawAnarchy = l.table("anarchy")?;
    if *raw.grace.get_ref() != 1 {
        l.problem_at(
            &raw.grace,
            "[anarchy] grace: only one season of grace is supported".into(),
        );
    }
    Some(std::sync::Arc::new(Rule))
}

impl super::feature::Feature for Rule {
    fn silenced(&self, pos: &Position, power: PowerId) -> bool {
        silenced(pos, power)
    }

    fn silenced_why(&self) -> &'static str {
        "Your power is in anarchy (it lost every home centre and did not \
         retake one in its season of grace): it gives no orders, its units \
         hold and the judge removes what must go."
    }

    fn after_move(
        &self,
        v: &dyn Ruleset,
        _pos: &Position,
        _orders: &[crate::orders::MainOrder],
        _r: &crate::adjudicate::movement::MovementResult,
        next: &mut Position,
    ) {
        end_grace(v, next);
    }

    fn before_adjustment(&self, v: &dyn Ruleset, pos: &mut Position) {
        start_grace(v, pos);
    }
}
