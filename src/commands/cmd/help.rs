//! HELP: the list of commands, printed from the table; HELP with a
//! command's name: that command alone, with who may use it.

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session};

/// HELP [command].
pub(crate) struct Help(Option<String>);

impl Command for Help {
    const SPEC: Spec = Spec::new(
        "HELP",
        "HELP [command]",
        "This list, or one command (HELP SET DEADLINE).",
    );
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        Ok(Help((!a.is_empty()).then(|| a.rest(0))))
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        match self.0 {
            None => s.say(&s.help.all()),
            Some(name)
                if name.eq_ignore_ascii_case("njudge") || name.eq_ignore_ascii_case("dpjudge") =>
            {
                s.say(&s.help.other_judges())
            }
            Some(name) => match s.help.one(&name) {
                Some(text) => s.say(&text),
                None => {
                    return Err(format!(
                        "there is no command {}; send HELP for the list",
                        name.to_ascii_uppercase()
                    )
                    .into());
                }
            },
        }
        Ok(())
    }
}
