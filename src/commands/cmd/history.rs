//! HISTORY: past results mailed back, as observers read them.

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::{CmdError, CmdResult};
use crate::commands::{Ctx, Judge, Session, load, mail_to};
use crate::game::Position;
use crate::rules::features::Viewer;
use crate::rules::view::View;
use crate::store::games;
use crate::variant::Variant;

/// HISTORY [game] [phase | from to], and njudge's forms: `FROM date [TO
/// date] [LINES n]` (real time) and `EXCLSTART turn [EXCLEND turn]
/// [BROAD]` (phases left out).
pub(crate) struct History {
    /// The game; `None`: the signed-on one.
    game: Option<String>,
    /// This judge's phases: one, or the first and last.
    range: Vec<String>,
    /// njudge's FROM and TO dates, as written.
    from: Option<String>,
    to: Option<String>,
    /// njudge's LINES: at most so many lines.
    lines: Option<usize>,
    /// njudge's EXCLSTART and EXCLEND turns, as written.
    exclstart: Option<String>,
    exclend: Option<String>,
}

/// njudge's words of HISTORY.
const KEYWORDS: &[&str] = &["from", "to", "lines", "exclstart", "exclend", "broad"];

/// Whether a word reads as a phase (`S1901M`): a letter, a year, a letter.
fn phase_like(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() >= 3
        && b[0].is_ascii_alphabetic()
        && b[b.len() - 1].is_ascii_alphabetic()
        && b[1..b.len() - 1].iter().all(u8::is_ascii_digit)
}

impl Command for History {
    const SPEC: Spec = Spec::new(
        "HISTORY",
        "HISTORY [game] [phase | from to]  (also njudge's FROM date [TO date] [LINES n], EXCLSTART S1903M [EXCLEND F1905B])",
        "Past results mailed back: all, one phase (S1901M) or a range; the game is the signed-on one when not named.",
    );
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        let words: Vec<String> = args
            .bare()
            .words
            .iter()
            .map(|w| w.trim_end_matches(',').to_string())
            .filter(|w| !w.is_empty())
            .collect();
        let key = |w: &str| KEYWORDS.contains(&w.to_ascii_lowercase().as_str());
        let mut h = History {
            game: None,
            range: Vec::new(),
            from: None,
            to: None,
            lines: None,
            exclstart: None,
            exclend: None,
        };
        let mut rest: &[String] = &words;
        if let Some((first, after)) = rest.split_first()
            && !key(first)
            && !(phase_like(first) && after.len() < 2 && !after.iter().any(|w| key(w)))
        {
            h.game = Some(first.clone());
            rest = after;
        }
        if !rest.iter().any(|w| key(w)) {
            if rest.len() > 2 {
                return Err(format!("write {}", Self::SPEC.usage));
            }
            h.range = rest.to_vec();
            return Ok(h);
        }
        // njudge's keywords, each with its words up to the next keyword.
        let mut i = 0;
        while i < rest.len() {
            let k = rest[i].to_ascii_lowercase();
            if !KEYWORDS.contains(&k.as_str()) {
                return Err(format!(
                    "`{}` is no word of HISTORY here (write {})",
                    rest[i],
                    Self::SPEC.usage
                ));
            }
            let n = rest[i + 1..].iter().take_while(|w| !key(w)).count();
            let value = rest[i + 1..i + 1 + n].join(" ");
            let need = |v: &str| -> Result<Option<String>, String> {
                if v.is_empty() {
                    Err(format!(
                        "{} needs what follows it (write {})",
                        k.to_uppercase(),
                        Self::SPEC.usage
                    ))
                } else {
                    Ok(Some(v.to_string()))
                }
            };
            match k.as_str() {
                "from" => h.from = need(&value)?,
                "to" => h.to = need(&value)?,
                "lines" => {
                    h.lines =
                        Some(value.parse().map_err(|_| {
                            "LINES takes a number of lines (LINES 5000)".to_string()
                        })?);
                }
                "exclstart" => h.exclstart = need(&value)?,
                "exclend" => h.exclend = need(&value)?,
                // Notices: this judge's history holds the results alone.
                _ => {}
            }
            i += 1 + n;
        }
        if h.exclend.is_some() && h.exclstart.is_none() {
            return Err(
                "EXCLEND goes with EXCLSTART (HISTORY game EXCLSTART S1903M EXCLEND F1905B)".into(),
            );
        }
        Ok(h)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let name = match (&self.game, &s.ctx) {
            (Some(g), _) => g.clone(),
            (None, Ctx::Power { game, .. } | Ctx::Gm { game }) => game.clone(),
            (None, Ctx::None) => {
                return Err(
                    "write HISTORY game (or SIGNON first: then HISTORY alone names \
                            your game)"
                        .into(),
                );
            }
        };
        let g = load(s.tx, &name)?;
        let v = judge.variant(&g.variant)?;
        let rows = games::history(s.tx, &g.name)?;
        // The results as observers read them, of the phases they know of:
        // a retreat of hidden units only (1066 rule 5) is none of theirs,
        // not even by its name.
        let played: Vec<_> = rows
            .iter()
            .filter(|r| r.kind == "phase" && observers_know(&v, &r.phase, &r.position))
            .collect();
        if played.is_empty() {
            s.say("  No phase has been played yet.");
            return Ok(());
        }
        let chosen = self.chosen(&v, &g.settings.timezone, s.now, &played)?;
        let Some((&from, &to)) = chosen.first().zip(chosen.last()) else {
            s.say("  No phase was played in that time.");
            return Ok(());
        };
        let mut body = String::new();
        for i in &chosen {
            body.push_str(&played[*i].report);
            body.push_str("\n\n");
        }
        // The results keep the deadline they were mailed with; the GM may
        // have moved it since, so the history ends with the one in force.
        if to + 1 == played.len()
            && g.status == crate::game::record::Status::Active
            && let Some(d) = g.deadline
        {
            body.push_str(&format!(
                "The deadlines above are those first mailed. The current deadline\nis {}.\n",
                crate::commands::time::show_deadline(d, &g.settings.timezone)
            ));
        }
        if let Some(n) = self.lines
            && body.lines().count() > n
        {
            let cut: Vec<&str> = body.lines().take(n).collect();
            body = format!(
                "{}\n\n[The history is cut at the {n} lines asked for.]\n",
                cut.join("\n")
            );
        }
        // Mailed where answers go: the history is the answer's, too long
        // to travel in it.
        let to_addr = s.sender.answer.email.clone();
        s.out.extend(mail_to(
            &[to_addr],
            format!(
                "{}: history {} to {}",
                g.name, played[from].phase, played[to].phase
            ),
            body,
        ));
        s.say(&format!(
            "  The results of {} are mailed to you separately.",
            crate::report::plural(chosen.len() as i64, "phase", None)
        ));
        Ok(())
    }
}

impl History {
    /// Which of the `played` phases this HISTORY asks for, by index.
    fn chosen(
        &self,
        v: &Variant,
        tz: &str,
        now: i64,
        played: &[&games::HistoryRow],
    ) -> Result<Vec<usize>, CmdError> {
        let pos_of = |label: &str| {
            played
                .iter()
                .position(|r| r.phase.eq_ignore_ascii_case(label))
        };
        let no_phase = |p: &str| {
            CmdError::refused(format!(
                "no phase {} in the history (phases look like S1901M)",
                crate::mail::header_text(p, 20)
            ))
        };
        let all: Vec<usize> = (0..played.len()).collect();
        if let Some(start) = &self.exclstart {
            // njudge: the phases from EXCLSTART to EXCLEND (to the end
            // without it) are left out; a turn that is no phase leaves
            // nothing out.
            let (Some(a), end) = (
                turn_rank(v, start),
                self.exclend.as_deref().map(|e| turn_rank(v, e)),
            ) else {
                return Ok(all);
            };
            let b = match end {
                Some(Some(b)) => Some(b),
                Some(None) => return Ok(all),
                None => None,
            };
            return Ok(all
                .into_iter()
                .filter(|i| {
                    let Some(r) = v.calendar.parse(&played[*i].phase).ok().map(|p| rank(v, p))
                    else {
                        return true;
                    };
                    r < a || b.is_some_and(|b| r > b)
                })
                .collect());
        }
        if self.from.is_some() || self.to.is_some() {
            let from = match &self.from {
                Some(d) => past_time(d, tz, now, false)?,
                // njudge: a week ago.
                None => now - 7 * 86_400,
            };
            let to = match &self.to {
                Some(d) => past_time(d, tz, now, true)?,
                None => i64::MAX,
            };
            return Ok(all
                .into_iter()
                .filter(|i| (from..=to).contains(&played[*i].created_at))
                .collect());
        }
        let (a, b) = match self.range.as_slice() {
            [] => (0, played.len() - 1),
            [one] => {
                let i = pos_of(one).ok_or_else(|| no_phase(one))?;
                (i, i)
            }
            [a, b, ..] => {
                let i = pos_of(a).ok_or_else(|| no_phase(a))?;
                let j = pos_of(b).ok_or_else(|| no_phase(b))?;
                (i.min(j), i.max(j))
            }
        };
        Ok((a..=b).collect())
    }
}

/// Where an njudge turn (`S1902M`, `F1901B`: B for builds) stands among
/// the game's phases, or `None` when it names none.
fn turn_rank(v: &Variant, turn: &str) -> Option<(i32, u8, usize)> {
    if let Ok(p) = v.calendar.parse(turn) {
        return Some(rank(v, p));
    }
    // `F1901B`: the builds after that season of that year.
    let t = turn.to_ascii_uppercase();
    let (season, rest) = t.split_at(1);
    let (year, kind) = rest.split_at(rest.len().checked_sub(1)?);
    let year: i32 = year.parse().ok()?;
    if !matches!(kind, "B" | "A") {
        return None;
    }
    let from = v
        .calendar
        .seasons
        .iter()
        .position(|s| s.name.to_ascii_uppercase().starts_with(season))?;
    v.calendar
        .seasons
        .iter()
        .enumerate()
        .skip(from)
        .find_map(|(i, s)| {
            let within = s
                .phases
                .iter()
                .position(|k| *k == crate::variant::PhaseKind::Adjustment)?;
            Some((year, i as u8, within))
        })
}

/// Where a phase stands in the game's order of phases.
fn rank(v: &Variant, p: crate::variant::Phase) -> (i32, u8, usize) {
    let within = v.calendar.seasons[p.season as usize]
        .phases
        .iter()
        .position(|k| *k == p.kind)
        .unwrap_or(0);
    (p.year, p.season, within)
}

/// A date as njudge's HISTORY takes it (`Jan 1, 1990`, `1 Jan 1990 12:00`,
/// `Dec 31, 2002 23:59`, `Mon`, `15 Jan`), in the game's zone: the last
/// such day up to now where the year is not written; midnight when no
/// time is (`end`: a day alone means up to its last minute).
fn past_time(text: &str, tz: &str, now: i64, end: bool) -> Result<i64, CmdError> {
    use jiff::civil::{Date, Time, Weekday};
    let bad = || {
        CmdError::refused(format!(
            "cannot read `{}` as a date (write Jan 1 1990, or 1 Jan 1990 12:00)",
            crate::mail::header_text(text, 40)
        ))
    };
    let zone = crate::commands::time::zone(tz);
    let today = jiff::Timestamp::from_second(now)
        .map_err(|_| bad())?
        .to_zoned(zone.clone())
        .date();
    let (mut year, mut month, mut day, mut clock, mut weekday) = (None, None, None, None, None);
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    const DAYS: [(&str, Weekday); 7] = [
        ("mon", Weekday::Monday),
        ("tue", Weekday::Tuesday),
        ("wed", Weekday::Wednesday),
        ("thu", Weekday::Thursday),
        ("fri", Weekday::Friday),
        ("sat", Weekday::Saturday),
        ("sun", Weekday::Sunday),
    ];
    for w in text.split_whitespace() {
        let w = w.trim_end_matches([',', '.']).to_ascii_lowercase();
        let three: String = w.chars().take(3).collect();
        if let Some((h, m)) = w.split_once(':') {
            clock = Some(
                Time::new(
                    h.parse().map_err(|_| bad())?,
                    m.parse().map_err(|_| bad())?,
                    0,
                    0,
                )
                .map_err(|_| bad())?,
            );
        } else if let Some(m) = MONTHS
            .iter()
            .position(|m| *m == three)
            .filter(|_| w.len() >= 3)
        {
            month = Some(m as i8 + 1);
        } else if let Some((_, d)) = DAYS
            .iter()
            .find(|(d, _)| *d == three)
            .filter(|_| w.len() >= 3)
        {
            weekday = Some(*d);
        } else if let Ok(n) = w.parse::<i16>() {
            match n {
                1..=31 if day.is_none() => day = Some(n as i8),
                80..=99 => year = Some(1900 + n),
                1000..=9999 => year = Some(n),
                _ => return Err(bad()),
            }
        } else {
            return Err(bad());
        }
    }
    let date = if let Some(wd) = weekday {
        let mut d = today;
        while d.weekday() != wd {
            d = d.yesterday().map_err(|_| bad())?;
        }
        d
    } else {
        let m = month.unwrap_or(today.month());
        let d = day.unwrap_or(1);
        match year {
            Some(y) => Date::new(y, m, d).map_err(|_| bad())?,
            None => {
                let this = Date::new(today.year(), m, d).map_err(|_| bad())?;
                if this <= today {
                    this
                } else {
                    Date::new(today.year() - 1, m, d).map_err(|_| bad())?
                }
            }
        }
    };
    let clock = clock.unwrap_or(if end {
        Time::new(23, 59, 59, 0).map_err(|_| bad())?
    } else {
        Time::midnight()
    });
    Ok(date
        .to_datetime(clock)
        .to_zoned(zone)
        .map_err(|_| bad())?
        .timestamp()
        .as_second())
}

/// Whether observers know of the played phase `short` that started from
/// the stored `position`: only the few phases that could be hidden from
/// them ([`View::may_miss_phase`]) have their position read.
fn observers_know(v: &Variant, short: &str, position: &str) -> bool {
    let Ok(phase) = v.calendar.parse(short) else {
        return true;
    };
    if !View::new(v, phase, Viewer::Public).may_miss_phase() {
        return true;
    }
    Position::from_toml(v, position).map_or(true, |pos| {
        View::of(v, &pos, Viewer::Public).sees_phase(&pos)
    })
}
