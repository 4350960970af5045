//! CONFIRM: answering a request of the judge's (see `trust::confirm`,
//! where the rule lives): the held mail it names is carried out, or the
//! power it offers is given.

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::{CmdError, CmdResult};
use crate::commands::{Judge, Session, mail_to};

/// CONFIRM code.
pub(crate) struct Confirm(String);

impl Command for Confirm {
    // A code is no password: it is shown as typed, so that a typo can be
    // seen (it confirms only from the address it was sent to).
    const SPEC: Spec = Spec::new(
        "CONFIRM",
        "CONFIRM code  (the code comes in the judge's request)",
        "Answer a request of the judge's: the mail or the offer it names is then carried out.",
    );
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.words.as_slice() {
            [code] => Ok(Confirm(code.trim_matches(['[', ']', '.']).to_string())),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        confirm(judge, s, &self.0)
    }
}

/// Answer the request whose code is `code`, and carry out what waited.
fn confirm(judge: &mut Judge, s: &mut Session<'_, '_>, code: &str) -> CmdResult {
    let done = crate::trust::confirm::answer(s.tx, &s.sender, code, s.now)?;
    let address = done.address.clone();
    if done.mails > 0 {
        s.say(&format!(
            "  Confirmed: the {} you sent {} carried out now, as sent; {} answer follows.",
            if done.mails == 1 { "mail" } else { "mails" },
            if done.mails == 1 { "is" } else { "are" },
            if done.mails == 1 { "its" } else { "their" }
        ));
    }
    for (game, power, by) in done.offers {
        s.tx.execute_batch("SAVEPOINT offer")?;
        match accept(judge, s, &game, power, &by, &address) {
            Ok(()) => s.tx.execute_batch("RELEASE offer")?,
            Err(CmdError::Refused(why)) => {
                s.tx.execute_batch("ROLLBACK TO offer; RELEASE offer")?;
                s.say(&format!("  The offer of a power in {game} lapsed: {why}."));
            }
            Err(e) => {
                s.tx.execute_batch("ROLLBACK TO offer; RELEASE offer")?;
                return Err(e);
            }
        }
    }
    Ok(())
}

/// Give the power of an offer to the address that confirmed, if the game
/// still has the GM who offered it.
fn accept(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    game: &str,
    power: u8,
    by: &str,
    address: &str,
) -> CmdResult {
    let g = crate::commands::load(s.tx, game)?;
    if !g.gm_address.eq_ignore_ascii_case(by) {
        return Err("the game has another GM now".into());
    }
    if g.status == crate::game::record::Status::Finished {
        return Err("the game is over".into());
    }
    let pid = crate::map::PowerId(power);
    let name = super::handover::give(judge, s, game, pid, address)?;
    s.say(&format!(
        "  You now play {name} in {game}: the game, your units and your password \
         come in a mail of their own."
    ));
    s.out.extend(mail_to(
        &[&g.gm_address],
        format!("{game}: {name} accepted"),
        format!("The address you gave {name} to confirmed it; {name} is theirs now.\n"),
    ));
    Ok(())
}
