//! The GM's settings of a game: phase lengths, grace, reminders, time
//! zone, NMR handling, press, the results' style, the last year. Each is a
//! SET command of its own.

use crate::commands::error::CmdResult;
use crate::commands::registry::{Args, Command, Gm, Spec};
use crate::commands::{Judge, Session, load, time};
use crate::game::record::{Nmr, Press, Settings, Style};
use crate::store::games;

/// Apply `f` to the settings of the GM's game and say what was set.
fn set(
    s: &mut Session<'_, '_>,
    game: &str,
    f: impl FnOnce(&mut Settings) -> Result<String, String>,
) -> CmdResult {
    let mut g = load(s.tx, game)?;
    let what = f(&mut g.settings)?;
    games::save(s.tx, &g)?;
    s.say(&format!("  Set: {what}."));
    Ok(())
}

/// The value of a SET line: its words, at least one.
fn value(args: &Args, spec: &Spec) -> Result<String, String> {
    let a = args.bare();
    if a.is_empty() {
        return Err(format!("write {}", spec.usage));
    }
    Ok(a.rest(0))
}

/// SET PHASE LENGTH.
pub struct SetPhaseLength(String);
/// SET GRACE.
pub struct SetGrace(String);
/// SET REMINDER.
pub struct SetReminder(String);
/// SET TIMEZONE.
pub struct SetTimezone(String);
/// SET NMR.
pub struct SetNmr(String);
/// SET PRESS.
pub struct SetPress(String);
/// SET STYLE.
pub struct SetStyle(String);
/// SET END.
pub struct SetEnd(String);

impl Command for SetPhaseLength {
    const SPEC: Spec = Spec::new(
        "SET PHASE LENGTH",
        "SET PHASE LENGTH 72h [24h]",
        "How long movement phases last [and retreats and adjustments]: 72h, 3d, 90m.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let v = value(args, &Self::SPEC)?;
        if v.split_whitespace().count() > 2 {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(SetPhaseLength(v))
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, |st| {
            let parts: Vec<&str> = self.0.split_whitespace().collect();
            st.movement_minutes = time::parse_duration(parts[0])?.max(1);
            if let Some(second) = parts.get(1) {
                st.short_minutes = time::parse_duration(second)?.max(1);
            }
            Ok(format!(
                "movement phases last {}, retreats and adjustments {}",
                time::show_duration(st.movement_minutes),
                time::show_duration(st.short_minutes)
            ))
        })
    }
}

impl Command for SetGrace {
    const SPEC: Spec = Spec::new(
        "SET GRACE",
        "SET GRACE 24h",
        "How long after a deadline late orders are still taken (24h, 2m, 1h30m).",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetGrace)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, |st| {
            st.grace_minutes = time::parse_duration(&self.0)?;
            Ok(format!(
                "grace period {}",
                time::show_duration(st.grace_minutes)
            ))
        })
    }
}

impl Command for SetReminder {
    const SPEC: Spec = Spec::new(
        "SET REMINDER",
        "SET REMINDER 24h",
        "How long before a deadline players with missing orders are reminded (0h: never).",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetReminder)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, |st| {
            st.reminder_minutes = time::parse_duration(&self.0)?;
            Ok(format!(
                "reminders {} before the deadline",
                time::show_duration(st.reminder_minutes)
            ))
        })
    }
}

impl Command for SetTimezone {
    const SPEC: Spec = Spec {
        also: &["SET TIME ZONE"],
        ..Spec::new(
            "SET TIMEZONE",
            "SET TIMEZONE Europe/London",
            "The game's time zone, for showing and reading times.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetTimezone)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, |st| {
            if !time::valid_zone(&self.0) {
                return Err(format!(
                    "unknown time zone `{}` (use a name like Europe/London)",
                    crate::mail::header_text(&self.0, 40)
                ));
            }
            st.timezone = self.0.clone();
            Ok(format!("time zone {}", self.0))
        })
    }
}

impl Command for SetNmr {
    const SPEC: Spec = Spec::new(
        "SET NMR",
        "SET NMR HOLD|CD",
        "A power without orders holds, or is put in civil disorder.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetNmr)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, |st| {
            st.nmr = match self.0.to_ascii_uppercase().as_str() {
                "HOLD" => Nmr::Hold,
                "CD" | "CIVIL DISORDER" => Nmr::CivilDisorder,
                _ => return Err("SET NMR HOLD or SET NMR CD".into()),
            };
            Ok(match st.nmr {
                Nmr::Hold => "a power without orders at the deadline holds (NMR HOLD)".into(),
                Nmr::CivilDisorder => {
                    "a power without orders at the deadline goes into civil disorder \
                     (NMR CD)"
                        .into()
                }
            })
        })
    }
}

impl Command for SetPress {
    const SPEC: Spec = Spec::new(
        "SET PRESS",
        "SET PRESS WHITE|GREY|NONE",
        "What press the game allows.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetPress)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, |st| {
            st.press = match self.0.to_ascii_uppercase().as_str() {
                "WHITE" => Press::White,
                "GREY" | "GRAY" => Press::Grey,
                "NONE" | "NO" => Press::None,
                _ => return Err("SET PRESS WHITE, GREY or NONE".into()),
            };
            Ok(format!("press {}", self.0))
        })
    }
}

impl Command for SetStyle {
    const SPEC: Spec = Spec::new(
        "SET STYLE",
        "SET STYLE ZINE|JUDGE",
        "The layout of the results.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetStyle)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, |st| {
            st.style = match self.0.to_ascii_uppercase().as_str() {
                "ZINE" => Style::Zine,
                "JUDGE" => Style::Judge,
                _ => return Err("SET STYLE ZINE or SET STYLE JUDGE".into()),
            };
            Ok(format!("results style {}", self.0))
        })
    }
}

impl Command for SetEnd {
    const SPEC: Spec = Spec::new(
        "SET END",
        "SET END year|NONE",
        "End the game after that year (1700 AD II: 1713 or 1721); most centres gained wins.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetEnd)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        // The variant may name the only years its game can end in.
        let g = load(s.tx, &game)?;
        let years = judge.variant(&g.variant)?.victory.end_years.clone();
        set(s, &game, |st| {
            if self.0.eq_ignore_ascii_case("none") {
                st.last_year = None;
                return Ok("no last year".to_string());
            }
            let y: i32 = self
                .0
                .parse()
                .map_err(|_| "SET END year (the game ends after it), or SET END NONE")?;
            if !years.is_empty() && !years.contains(&y) {
                let list: Vec<String> = years.iter().map(i32::to_string).collect();
                return Err(format!(
                    "this game may end only after {}",
                    list.join(" or ")
                ));
            }
            st.last_year = Some(y);
            Ok(format!("the game ends after {y}"))
        })
    }
}

/// SET ROSTER.
pub struct SetRoster(bool);

impl Command for SetRoster {
    const SPEC: Spec = Spec::new(
        "SET ROSTER",
        "SET ROSTER NAMES|ADDRESSES",
        "What WHO shows the players: their names only (the default), or their addresses too.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [w] if w.eq_ignore_ascii_case("names") => Ok(SetRoster(false)),
            [w] if w.eq_ignore_ascii_case("addresses") => Ok(SetRoster(true)),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, |st| {
            st.roster_addresses = self.0;
            Ok(if self.0 {
                "the roster shows players' names and addresses".to_string()
            } else {
                "the roster shows players' names only".to_string()
            })
        })
    }
}
