//! SET ABSENCE (a player says when they will be away, njudge-style; also
//! njudge's SET VACATION and SET HOLIDAY, and its dates: `SET ABSENCE 24 DEC
//! TO 6 JAN`), SET NOABSENCE (it is off), and SET ABSENCES (the GM lets
//! absences move deadlines).
//!
//! The rule, when the GM allows it: a phase's deadline that falls inside
//! an absence announced by the player of a power that is playing moves to
//! the end of that absence, by at most the GM's cap (7 days unless set).
//! It applies when a phase's deadline is set at the start of the phase,
//! and to the current deadline when the absence is announced; a deadline
//! the GM sets by hand (SET DEADLINE) is never moved. Without the GM's
//! leave an absence is only recorded and told to the GM.

use crate::commands::command::{Args, Command, Gm, Player, PlayerSeat, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load, time};
use crate::game::record::{SeatStatus, Status};
use crate::map::PowerId;
use crate::store::Conn;
use crate::store::{games, roster};

/// The longest absence taken, in days.
const MAX_DAYS: i64 = 60;
/// Absences to come one power may have recorded.
const MAX_ABSENCES: usize = 20;

/// SET ABSENCE from to.
pub(crate) struct SetAbsence(String);

/// SET ABSENCES ON [cap] | OFF.
pub(crate) struct SetAbsences(Option<u32>);

/// SET NOABSENCE date: forget the player's absence that includes the date.
pub(crate) struct SetNoAbsence(String);

impl Command for SetAbsence {
    const SPEC: Spec = Spec {
        also: &[
            "SET VACATION",
            "SET VACATIONS",
            "SET HOLIDAY",
            "SET HOLIDAYS",
        ],
        ..Spec::new(
            "SET ABSENCE",
            "SET ABSENCE 2026-12-20 TO 2026-12-27  (a time may follow each date; also 24 DEC TO 6 JAN)",
            "Say when you will be away; the GM is told, and may let it move a deadline.",
        )
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        if a.is_empty() || a.len() > 8 {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(SetAbsence(a.rest(0)))
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let mut g = load(s.tx, &seat.game)?;
        if g.status == Status::Finished {
            return Err("the game is over".into());
        }
        let tz = g.settings.timezone.clone();
        let (from, to) = time::parse_span(&self.0, &tz, s.now)?;
        if to - from > MAX_DAYS * 86400 {
            return Err(format!(
                "an absence is at most {MAX_DAYS} days; ask the GM about a longer one"
            )
            .into());
        }
        if roster::absences(s.tx, &g.name, s.now)?
            .iter()
            .filter(|a| a.power == seat.power.0)
            .count()
            >= MAX_ABSENCES
        {
            return Err(format!(
                "a player may have at most {MAX_ABSENCES} absences to come; ask the GM"
            )
            .into());
        }
        roster::add_absence(
            s.tx,
            &g.name,
            roster::Absence {
                power: seat.power.0,
                from_at: from,
                to_at: to,
            },
            s.now,
        )?;
        let v = judge.variant(&g.variant)?;
        let name = v.map.power(seat.power).name.clone();
        let span = format!("{} to {}", time::show(from, &tz), time::show(to, &tz));
        tracing::info!(game = %g.name, power = %name, from, to, "absence announced");
        s.say(&format!("  Absence recorded: {span}."));
        let mut moved = None;
        if g.settings.absence_extends {
            let base = games::deadline_base(s.tx, &g.name)?;
            if let Some(d) = g.deadline
                && g.status == Status::Active
                && base != Some(games::SET_BY_GM)
            {
                // Reckoned from the deadline before any absence moved it:
                // absences announced one after another (in one mail or
                // many) move it by the cap at most.
                let base = base.unwrap_or(d);
                let (at, why) = extended(s.tx, &g, base)?;
                if at != d {
                    g.deadline = Some(at);
                    g.reminded = false;
                    g.grace_noticed = false;
                    games::save(s.tx, &g)?;
                    games::set_deadline_base(s.tx, &g.name, base)?;
                    moved = Some((at, why));
                }
            }
            s.say(&format!(
                "  In {} an absence moves a deadline inside it to its end, by at most {} days.",
                g.name, g.settings.absence_cap_days
            ));
            if base == Some(games::SET_BY_GM) && g.status == Status::Active {
                s.say(
                    "  The deadline now was set by the GM (SET DEADLINE): absences do not \
                     move it; the GM has been told.",
                );
            }
        } else {
            s.say(&format!(
                "  In {} absences do not move deadlines; the GM has been told.",
                g.name
            ));
        }
        let mut gm_text = format!("The player of {name} in {} will be away {span}.\n", g.name);
        if let Some((at, _)) = moved {
            let shown = time::show_deadline(at, &tz);
            s.say(&format!("  The deadline moves to {shown}."));
            gm_text.push_str(&format!("The deadline moves to {shown}.\n"));
            s.notice_once(
                &g,
                "new deadline",
                crate::report::wrap(
                    &format!(
                        "{name}'s player will be away {span}; as the GM allows, the \
                         deadline moves to {shown}."
                    ),
                    72,
                    "",
                ),
            );
        } else {
            s.notice_gm(&g, &format!("{name} will be away"), &gm_text);
        }
        Ok(())
    }
}

impl Command for SetNoAbsence {
    const SPEC: Spec = Spec {
        also: &[
            "SET NO ABSENCE",
            "SET NOVACATION",
            "SET NO VACATION",
            "SET NOHOLIDAY",
            "SET NO HOLIDAY",
        ],
        ..Spec::new(
            "SET NOABSENCE",
            "SET NOABSENCE date  (the absence that includes it is off)",
            "Take back an absence you announced: the one that includes the date.",
        )
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        if a.is_empty() || a.len() > 6 {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        // njudge: an end date after TO is ignored.
        let date: Vec<String> = a
            .words
            .iter()
            .take_while(|w| !w.eq_ignore_ascii_case("to"))
            .cloned()
            .collect();
        Ok(SetNoAbsence(date.join(" ")))
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let g = load(s.tx, &seat.game)?;
        let tz = g.settings.timezone.clone();
        // The day named, as a span of its own; an absence that overlaps it
        // is the one.
        let (from, to) = time::read_span(&self.0, &tz, s.now)?;
        let mine: Vec<roster::Absence> = roster::absences(s.tx, &g.name, s.now)?
            .into_iter()
            .filter(|a| a.power == seat.power.0 && a.from_at < to && from < a.to_at)
            .collect();
        let Some(a) = mine.first().copied() else {
            return Err(format!(
                "you announced no absence that includes {}",
                crate::mail::header_text(&self.0, 40)
            )
            .into());
        };
        roster::remove_absence(s.tx, &g.name, a)?;
        let v = judge.variant(&g.variant)?;
        let name = v.map.power(seat.power).name.clone();
        let span = format!(
            "{} to {}",
            time::show(a.from_at, &tz),
            time::show(a.to_at, &tz)
        );
        s.say(&format!("  Absence taken back: {span}."));
        s.say("  (A deadline it moved already stays where it is; the GM can change it.)");
        s.notice_gm(
            &g,
            &format!("{name} will not be away"),
            &format!(
                "The player of {name} in {} took back the absence {span}.\n",
                g.name
            ),
        );
        Ok(())
    }
}

impl Command for SetAbsences {
    const SPEC: Spec = Spec::new(
        "SET ABSENCES",
        "SET ABSENCES ON [7d] | OFF",
        "Whether a deadline inside a player's absence moves to its end (by at most 7d, or the time given).",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [w] if w.eq_ignore_ascii_case("off") => Ok(SetAbsences(None)),
            [w] if w.eq_ignore_ascii_case("on") => Ok(SetAbsences(Some(7))),
            [w, cap] if w.eq_ignore_ascii_case("on") => {
                let minutes = time::parse_duration(cap)?;
                let days = minutes.div_ceil(24 * 60).max(1);
                Ok(SetAbsences(Some(days)))
            }
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        match self.0 {
            Some(days) => {
                g.settings.absence_extends = true;
                g.settings.absence_cap_days = days;
                s.say(&format!(
                    "  Set: a deadline inside a player's absence moves to its end, by at most {days} days."
                ));
            }
            None => {
                g.settings.absence_extends = false;
                s.say("  Set: absences are recorded and do not move deadlines.");
            }
        }
        games::save(s.tx, &g)?;
        Ok(())
    }
}

/// `deadline`, moved as the game's absence rule says: to the end of the
/// absences of playing powers it falls inside (absences that follow on
/// from one another count as one), by at most the GM's cap. Returns the
/// deadline and the powers whose absence moved it.
pub(crate) fn extended(
    c: &Conn,
    g: &games::GameRow,
    deadline: i64,
) -> CmdResult<(i64, Vec<PowerId>)> {
    if !g.settings.absence_extends {
        return Ok((deadline, Vec::new()));
    }
    let seats = games::seats(c, &g.name)?;
    let away: Vec<roster::Absence> = roster::absences(c, &g.name, deadline)?
        .into_iter()
        .filter(|a| {
            seats
                .get(a.power as usize)
                .is_some_and(|x| x.status == SeatStatus::Playing)
        })
        .collect();
    let cap = deadline + i64::from(g.settings.absence_cap_days) * 86400;
    let mut at = deadline;
    let mut who = Vec::new();
    loop {
        let next = away
            .iter()
            .filter(|a| a.from_at <= at && at < a.to_at)
            .max_by_key(|a| a.to_at);
        match next {
            Some(a) if a.to_at.min(cap) > at => {
                at = a.to_at.min(cap);
                if !who.contains(&PowerId(a.power)) {
                    who.push(PowerId(a.power));
                }
            }
            _ => break,
        }
    }
    Ok((at, who))
}
