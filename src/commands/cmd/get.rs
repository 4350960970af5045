//! njudge's GET file (also SEND [ME] file) and GET PACKAGE: the judge's
//! help files by mail. This judge's help is HELP and HELP command, so the
//! files that are help come back as HELP does; those this judge has no
//! counterpart of (registration forms, dedication ratings, variant files)
//! are refused with what it has instead. VERSION names the judge's
//! version.

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session};

/// GET file.
pub(crate) struct Get(String);

/// VERSION [level].
pub(crate) struct Version;

impl Command for Get {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &["SEND", "SEND ME"],
        ..Spec::new(
            "GET",
            "GET file  (njudge: GET PACKAGE, GET INFO, GET PRESS...)",
            "njudge's help files: answered with this judge's HELP.",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [f] => Ok(Get(f.to_ascii_lowercase())),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let topic = |names: &[&str]| -> String {
            names
                .iter()
                .filter_map(|n| s.help.one(n))
                .collect::<String>()
        };
        let text = match self.0.as_str() {
            "package" | "info" | "index" | "guide" | "help" | "flist" | "master" | "how2gm"
            | "syntax" | "data" => s.help.all(),
            "press" => topic(&["PRESS", "BROADCAST", "ENDPRESS"]),
            "deadlines" => topic(&["SET DEADLINE", "SET PHASE LENGTH", "SET GRACE"]),
            "absence" => topic(&["SET ABSENCE", "SET NOABSENCE"]),
            "draws" => topic(&["DRAW", "NO DRAW", "CONCEDE"]),
            "history" => topic(&["HISTORY"]),
            "form" | "register" => {
                return Err(
                    "this judge keeps no register of players: JOIN, OBSERVE or CREATE \
                            registers the address you write from (the judge asks it to confirm, unless its mail server vouches for it)"
                        .into(),
                );
            }
            "dedication" | "whois" | "dedsystems" => {
                return Err(
                    "this judge keeps no ratings nor a register of players; WHO game shows \
                     a game's players"
                        .into(),
                );
            }
            "rules" | "house.rules" => {
                return Err(
                    "this judge plays each variant by its own rules as written; VARIANTS lists \
                     them, and HELP the commands"
                        .into(),
                );
            }
            f if f == "map" || f.starts_with("map.") || f.starts_with("info.") => {
                return Err(
                    "VARIANTS lists the variants this judge plays; a game's map comes with its \
                     results (SET PICTURE)"
                        .into(),
                );
            }
            f => {
                return Err(format!(
                    "this judge has no file `{}`: HELP lists the commands, HELP command \
                     explains one",
                    crate::mail::header_text(f, 30)
                )
                .into());
            }
        };
        s.say("  (njudge's help files are this judge's HELP:)\n");
        s.say(&text);
        Ok(())
    }
}

impl Command for Version {
    const SPEC: Spec = Spec::new("VERSION", "VERSION", "The judge's software and version.");
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        // njudge's optional level is not used there either.
        match args.bare().words.as_slice() {
            [] | [_] => Ok(Version),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        s.say(&format!(
            "  {} runs zinejudge {}: a play-by-email judge for Diplomacy and its classic \
             postal variants (VARIANTS lists them).",
            judge.name,
            env!("CARGO_PKG_VERSION")
        ));
        Ok(())
    }
}
