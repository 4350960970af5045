//! njudge's DIARY: a player's thoughts during the game, "for broadcast at
//! the end of the game". `DIARY` or `DIARY RECORD` keeps the lines below
//! it (up to ENDPRESS, like press) as a numbered entry, sent to nobody
//! now; `DIARY LIST` lists the entries, `DIARY READ n` gives one back,
//! `DIARY DELETE n` deletes it (numbers are not used again). When the game
//! ends, its last mail holds every entry kept ([`diaries_text`]). POSTAL
//! PRESS (press held until the results) is not kept here: its text is
//! read as its own and sent nowhere.

use crate::commands::command::{AnySeat, Args, Command, Player, PlayerSeat, SignedOn, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load, time};
use crate::map::PowerId;
use crate::store::{Conn, diary};
use crate::variant::Variant;
use std::fmt::Write;

/// DIARY [RECORD] ... ENDPRESS.
pub(crate) struct Diary;
/// DIARY LIST | READ n.
pub(crate) enum DiaryOther {
    /// The entries, by number.
    List,
    /// One entry.
    Read(i64),
}
/// DIARY DELETE n.
pub(crate) struct DiaryDelete(i64);
/// POSTAL PRESS ... ENDPRESS.
pub(crate) struct PostalPress;

/// How many lines of text the block held.
fn lines_of(s: &Session<'_, '_>) -> usize {
    s.press
        .as_deref()
        .map_or(0, |t| t.lines().filter(|l| !l.trim().is_empty()).count())
}

impl Command for Diary {
    const SPEC: Spec = Spec {
        other_judges: true,
        block: true,
        ..Spec::new(
            "DIARY",
            "DIARY [RECORD] ... ENDPRESS  (njudge; DIARY LIST, DIARY READ n, DIARY DELETE n)",
            "njudge's diary: the lines up to ENDPRESS are kept as your next entry, sent to nobody now; every entry is in the game's last mail.",
        )
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [] => Ok(Diary),
            [w] if w.eq_ignore_ascii_case("record") => Ok(Diary),
            _ => Err("write DIARY, or DIARY RECORD".into()),
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let n = lines_of(s);
        let text = s.press.take().unwrap_or_default();
        if n == 0 {
            return Err("the diary entry is empty (write it between DIARY and ENDPRESS)".into());
        }
        let g = load(s.tx, &seat.game)?;
        let k = diary::add(s.tx, &g.name, seat.power.0, text.trim_end(), s.now)?;
        s.say(&format!(
            "  Kept as diary entry {k} ({}), sent to nobody now: every entry is in the \
             game's last mail. DIARY LIST lists them.",
            crate::report::plural(n as i64, "line", None)
        ));
        Ok(())
    }
}

impl Command for DiaryOther {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &["DIARY READ"],
        ..Spec::new(
            "DIARY LIST",
            "DIARY LIST | DIARY READ n  (njudge)",
            "njudge's diary entries: listed, or one read back.",
        )
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        let number = |w: &str| {
            w.trim_start_matches('#')
                .parse::<i64>()
                .map_err(|_| "write DIARY LIST, DIARY READ n or DIARY DELETE n".to_string())
        };
        // The table gives the words after DIARY LIST or READ alike: a
        // number is READ's (DIARY LIST takes none).
        match args.bare().words.as_slice() {
            [] => Ok(DiaryOther::List),
            [w] => number(w).map(DiaryOther::Read),
            _ => Err("write DIARY LIST or DIARY READ n".into()),
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let g = load(s.tx, &seat.game)?;
        let tz = g.settings.timezone.clone();
        let mine = diary::entries(s.tx, &g.name, Some(seat.power.0))?;
        match self {
            DiaryOther::List if mine.is_empty() => s.say("  No diary entries kept."),
            DiaryOther::List => {
                let mut t = String::from("  Your diary entries:\n");
                for e in &mine {
                    let first = e.text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                    let _ = writeln!(
                        t,
                        "    {}: {}  {}",
                        e.n,
                        time::show(e.created_at, &tz),
                        crate::mail::header_text(first, 40)
                    );
                }
                s.say(&t);
            }
            DiaryOther::Read(n) => {
                let e = mine
                    .iter()
                    .find(|e| e.n == n)
                    .ok_or_else(|| format!("no diary entry {n} (DIARY LIST lists them)"))?;
                let mut t = format!("  Diary entry {n} ({}):\n", time::show(e.created_at, &tz));
                for l in e.text.lines() {
                    let _ = writeln!(t, "    {l}");
                }
                s.say(&t);
            }
        }
        Ok(())
    }
}

impl Command for DiaryDelete {
    const SPEC: Spec = Spec {
        other_judges: true,
        ..Spec::new(
            "DIARY DELETE",
            "DIARY DELETE n  (njudge)",
            "Delete a diary entry of yours (its number is not used again).",
        )
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [w] => w
                .trim_start_matches('#')
                .parse::<i64>()
                .map(DiaryDelete)
                .map_err(|_| "write DIARY DELETE n".to_string()),
            _ => Err("write DIARY DELETE n".into()),
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let g = load(s.tx, &seat.game)?;
        if !diary::delete(s.tx, &g.name, seat.power.0, self.0)? {
            return Err(format!("no diary entry {} (DIARY LIST lists them)", self.0).into());
        }
        s.say(&format!("  Diary entry {} is deleted.", self.0));
        Ok(())
    }
}

impl Command for PostalPress {
    const SPEC: Spec = Spec {
        other_judges: true,
        block: true,
        also: &["POSTALPRESS"],
        ..Spec::new(
            "POSTAL PRESS",
            "POSTAL PRESS ... ENDPRESS  (njudge; not here: BROADCAST)",
            "njudge's press held until the results: not on this judge; its text is sent nowhere.",
        )
    };
    type Role = SignedOn;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| PostalPress)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, _: AnySeat) -> CmdResult {
        let n = lines_of(s);
        s.press = None;
        Err(format!(
            "this judge has no postal press (held until the results): the {} up to \
             ENDPRESS {} not sent; BROADCAST sends press to everybody now",
            crate::report::plural(n as i64, "line", None),
            if n == 1 { "was" } else { "were" }
        )
        .into())
    }
}

/// The diaries kept in `g`, for its last mail ("" if none).
pub(crate) fn diaries_text(c: &Conn, v: &Variant, game: &str) -> CmdResult<String> {
    let all = diary::entries(c, game, None)?;
    if all.is_empty() {
        return Ok(String::new());
    }
    let mut t = String::from("\nThe players' diaries:\n");
    for e in all {
        let _ = writeln!(
            t,
            "\n  {}, entry {}:",
            v.map.power(PowerId(e.power)).name,
            e.n
        );
        for l in e.text.lines() {
            let _ = writeln!(t, "    {l}");
        }
    }
    Ok(t)
}
