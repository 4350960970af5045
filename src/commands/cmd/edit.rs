//! EDIT: the GM fixes the board; the change is recorded in the history and
//! told to everyone. Powers and places are named as anywhere else, with
//! names of several words (`EDIT ADD The Scots F Lot`, `EDIT OWNER Gwy The
//! Norse`): the words are split where both halves name what they must.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, find_power, load, notify_all};
use crate::rules::view::VariantRules;
use crate::store::games;

/// An EDIT.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Edit {
    /// Put a unit on the board: the power's name and the unit (`A Lon`),
    /// as written, split when the game is known.
    Add {
        /// The words after ADD.
        words: Vec<String>,
    },
    /// Take the unit in a place off the board.
    Remove {
        /// Place.
        place: String,
    },
    /// Set a centre's owner: the centre and the power (or NONE), as
    /// written, split when the game is known.
    Owner {
        /// The words after OWNER.
        words: Vec<String>,
    },
}

impl Command for Edit {
    const SPEC: Spec = Spec::new(
        "EDIT",
        "EDIT ADD power unit | EDIT REMOVE place | EDIT OWNER centre power|NONE",
        "Fix the board; the change is recorded in the history.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let w = &args.bare().words;
        let usage = "EDIT ADD power unit, EDIT REMOVE place, or EDIT OWNER centre power|NONE";
        let up = |i: usize| w.get(i).map(|s| s.to_ascii_uppercase()).unwrap_or_default();
        Ok(match up(0).as_str() {
            "ADD" if w.len() >= 4 => Edit::Add {
                words: w[1..].to_vec(),
            },
            "REMOVE" if w.len() >= 2 => Edit::Remove {
                place: w[1..].join(" "),
            },
            "OWNER" if w.len() >= 3 => Edit::Owner {
                words: w[1..].to_vec(),
            },
            _ => return Err(usage.into()),
        })
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        let (v, mut pos) = judge.board(&g)?;
        let before = pos.to_toml(&v);
        let unknown =
            |place: &str| format!("unknown place `{}`", crate::mail::header_text(place, 40));
        let what = match self {
            Edit::Add { words } => {
                // The power is the words before the unit: the first split
                // at which both read.
                let split = (1..words.len()).find_map(|n| {
                    let pid = find_power(&v, &words[..n].join(" ")).ok()?;
                    let unit =
                        crate::game::position::parse_unit(&v.map, &words[n..].join(" ")).ok()?;
                    Some((pid, unit))
                });
                let (pid, (kind, region)) = match split {
                    Some(x) => x,
                    None => {
                        // Say what is wrong with the simplest reading.
                        let pid = find_power(&v, &words[0])?;
                        (
                            pid,
                            crate::game::position::parse_unit(&v.map, &words[1..].join(" "))?,
                        )
                    }
                };
                if !v.has_unit_kind(kind) {
                    return Err(format!("{} has no units of that kind", v.title).into());
                }
                one_leader(&v, &pos, pid, kind)?;
                let p = v.map.province_of(region);
                let others: Vec<crate::map::Unit> = pos
                    .units
                    .iter()
                    .copied()
                    .filter(|u| v.map.province_of(u.region) == p)
                    .collect();
                if !v.map.may_stand(p, pid, kind, &others) {
                    return Err(
                        format!("there is already a unit in {}", v.map.province(p).abbr).into(),
                    );
                }
                pos.units.push(crate::map::Unit {
                    power: pid,
                    kind,
                    region,
                });
                format!(
                    "added {} {} {}",
                    v.map.power(pid).adjective,
                    kind.letter(),
                    v.map.region_abbr(region)
                )
            }
            Edit::Remove { place } => {
                let p = match v.map.lookup(&place) {
                    Some(crate::map::Named::Province(p)) => p,
                    Some(crate::map::Named::Region(r)) => v.map.province_of(r),
                    None => return Err(unknown(&place).into()),
                };
                let i = pos
                    .units
                    .iter()
                    .position(|u| v.map.province_of(u.region) == p)
                    .ok_or_else(|| format!("no unit in {}", v.map.province(p).abbr))?;
                let u = pos.units.remove(i);
                format!(
                    "removed {} {} {}",
                    v.map.power(u.power).adjective,
                    u.kind.letter(),
                    v.map.region_abbr(u.region)
                )
            }
            Edit::Owner { words } => {
                let centre_of = |text: &str| match v.map.lookup(text) {
                    Some(crate::map::Named::Province(p)) if v.map.province(p).supply_centre => {
                        Some(p)
                    }
                    _ => None,
                };
                let owner_of = |text: &str| -> Option<Option<crate::map::PowerId>> {
                    if text.eq_ignore_ascii_case("none") {
                        Some(None)
                    } else {
                        find_power(&v, text).ok().map(Some)
                    }
                };
                // The centre is the words before the power: the first split
                // at which both read.
                let split = (1..words.len()).find_map(|n| {
                    Some((
                        centre_of(&words[..n].join(" "))?,
                        owner_of(&words[n..].join(" "))?,
                    ))
                });
                let (p, owner) = match split {
                    Some(x) => x,
                    None => match centre_of(&words[0]) {
                        None => {
                            return Err(format!(
                                "`{}` is not a supply centre",
                                crate::mail::header_text(&words[0], 40)
                            )
                            .into());
                        }
                        Some(_) => {
                            return Err(format!(
                                "no power `{}` in this game",
                                crate::mail::header_text(&words[1..].join(" "), 40)
                            )
                            .into());
                        }
                    },
                };
                pos.owners[p.index()] = owner;
                format!(
                    "{} now belongs to {}",
                    v.map.province(p).abbr,
                    owner.map_or("nobody".to_string(), |o| v.map.power(o).name.clone())
                )
            }
        };
        g.position = crate::commands::stored(&v, &pos)?;
        games::save(s.tx, &g)?;
        games::set_fault(s.tx, &g.name, None, s.now)?;
        games::append_history(
            s.tx,
            &game,
            &games::NewHistory {
                phase: &v.calendar.short(pos.phase),
                kind: "edit",
                position: &before,
                orders: "",
                report: &format!("GM edit: {what}"),
            },
            s.now,
        )?;
        s.say(&format!("  Edit: {what}."));
        notify_all(
            s,
            &g,
            "board edited",
            &format!("The GM corrected the board: {what}.\n"),
        )
    }
}

/// A power has its one leader, named by the rules (1700 AD II rule 7:
/// "once destroyed a leader may never be rebuilt"; the Turks have none):
/// why `power` may not be given another unit of `kind`, if so.
fn one_leader(
    v: &crate::variant::Variant,
    pos: &crate::game::Position,
    power: crate::map::PowerId,
    kind: crate::map::UnitKind,
) -> Result<(), String> {
    if kind != crate::map::UnitKind::Leader {
        return Ok(());
    }
    let name = v.leader_of(power);
    if let Some(u) = pos
        .units
        .iter()
        .find(|u| u.power == power && u.kind == kind)
    {
        return Err(format!(
            "{} is already on the board ({}): a power has one leader",
            name.unwrap_or("its leader"),
            v.map.region_abbr(u.region)
        ));
    }
    if name.is_none() && v.map.power_ids().any(|p| v.leader_of(p).is_some()) {
        return Err(format!(
            "{} has no leader in {}",
            v.map.power(power).name,
            v.title
        ));
    }
    Ok(())
}
