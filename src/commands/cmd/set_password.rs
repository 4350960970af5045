//! SET PASSWORD: a new password for the seat signed on. The seat's
//! registered address is told when the change comes from another address.

use crate::commands::command::{AnySeat, Args, Command, Secret, SignedOn, Spec};
use crate::commands::error::{CmdError, CmdResult};
use crate::commands::{Judge, Session, load, mail_to};
use crate::store::games;
use crate::trust::password;

/// SET PASSWORD new-password.
pub(crate) struct SetPassword(String);

impl Command for SetPassword {
    const SPEC: Spec = Spec {
        secret: Secret::Arg(0),
        ..Spec::new(
            "SET PASSWORD",
            "SET PASSWORD new-password",
            "Change your password (GMs: the GM password).",
        )
    };
    type Role = SignedOn;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.words.as_slice() {
            [pw] => Ok(SetPassword(pw.clone())),
            _ => Err("a password is one word: SET PASSWORD new-password".into()),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: AnySeat) -> CmdResult {
        password::check_new(&self.0)?;
        let hash = password::hash(&self.0).map_err(|e| CmdError::Fault(anyhow::anyhow!(e)))?;
        let mut g = load(s.tx, &seat.game)?;
        let (owner, label) = match seat.power {
            Some(p) => {
                let v = judge.variant(&g.variant)?;
                let mut seats = games::seats(s.tx, &seat.game)?;
                let mine = &mut seats[p.index()];
                mine.hash = Some(hash);
                games::save_seat(s.tx, &seat.game, mine)?;
                (
                    mine.address.clone(),
                    format!("{} in {}", v.map.power(p).name, g.name),
                )
            }
            None => {
                g.gm_hash = hash;
                games::save(s.tx, &g)?;
                (Some(g.gm_address.clone()), format!("the GM of {}", g.name))
            }
        };
        s.say("  Password changed.");
        if let Some(o) = owner.filter(|o| !o.eq_ignore_ascii_case(&s.sender.from.email)) {
            s.out.extend(mail_to(
                &[o],
                format!("{label}: password changed"),
                format!(
                    "The password of {label} was changed by a mail from {}.\n\
                     If that was not you, tell your GM at once.\n",
                    s.sender.from.email
                ),
            ));
        }
        Ok(())
    }
}
