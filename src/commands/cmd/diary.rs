//! njudge's DIARY and POSTAL PRESS, which this judge does not keep: their
//! text (up to ENDPRESS, like press) is read as theirs, so none of it is
//! taken for orders or commands, and the reply says it went nowhere.

use crate::commands::command::{AnySeat, Args, Command, SignedOn, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session};

/// DIARY [RECORD] ... ENDPRESS.
pub(crate) struct Diary;
/// DIARY LIST | READ n | DELETE n.
pub(crate) struct DiaryOther;
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
            "DIARY ... ENDPRESS  (njudge; not kept here)",
            "njudge's diary: this judge keeps none; its text is read as the diary's and sent nowhere.",
        )
    };
    type Role = SignedOn;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [] => Ok(Diary),
            [w] if w.eq_ignore_ascii_case("record") => Ok(Diary),
            _ => Err("write DIARY, or DIARY RECORD".into()),
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, _: AnySeat) -> CmdResult {
        let n = lines_of(s);
        s.press = None;
        Err(format!(
            "this judge keeps no diaries: the {} up to ENDPRESS {} neither kept \
             nor sent (PRESS TO M sends them to the GM)",
            crate::report::plural(n as i64, "line", None),
            if n == 1 { "was" } else { "were" }
        )
        .into())
    }
}

impl Command for DiaryOther {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &["DIARY READ", "DIARY DELETE"],
        ..Spec::new(
            "DIARY LIST",
            "DIARY LIST | READ n | DELETE n  (njudge; no diaries here)",
            "njudge's diary entries: this judge keeps none.",
        )
    };
    type Role = SignedOn;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [] | [_] => Ok(DiaryOther),
            _ => Err("write DIARY LIST, DIARY READ n or DIARY DELETE n".into()),
        }
    }
    fn run(self, _: &mut Judge, _: &mut Session<'_, '_>, _: AnySeat) -> CmdResult {
        Err("this judge keeps no diaries".into())
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
