//! What a GM's mail changed that the players live by (the deadline, the
//! settings), told once the mail is done: one mail to each player,
//! observer and the GM (but the mail's author), saying all that changed,
//! however many lines changed it (issue #51: `SET DEADLINE in 4m` and
//! `SET GRACE 0h` sent each player a deadline notice, a settings notice
//! and, a moment later, the clock's reminder). Where the change puts the
//! game in its reminder window, each player who still owes orders is
//! reminded in that same mail, and the clock sends no reminder of its own.

use super::error::{CmdError, CmdResult};
use super::session::Change;
use super::{Judge, Session, everybody, mail_to, play};

/// Mail the changes kept by [`Session::notice_change`] and
/// [`Session::notice_deadline`], in the words of `notice-setting.txt`.
pub(crate) fn tell(judge: &mut Judge, s: &mut Session<'_, '_>) -> CmdResult {
    for ch in std::mem::take(&mut s.changes) {
        if ch.deadline.is_none() && ch.lines.is_empty() {
            continue;
        }
        let reminders =
            play::reminders_due(judge, s.tx, &ch.game.name, s.now).map_err(CmdError::Fault)?;
        let mut to = everybody(s.tx, &ch.game)?;
        to.retain(|a| !a.eq_ignore_ascii_case(&s.sender.from.email));
        let (subject, body) = render(judge, &ch, None)?;
        s.out.extend(mail_to(
            &to.iter()
                .filter(|a| !reminders.iter().any(|(r, ..)| r.eq_ignore_ascii_case(a)))
                .collect::<Vec<_>>(),
            subject,
            body,
        ));
        // Each reminded player once (a player may be an observer too).
        for (address, power, missing) in &reminders {
            if to.iter().any(|a| a.eq_ignore_ascii_case(address)) {
                let (subject, body) = render(judge, &ch, Some((power, missing)))?;
                s.out.extend(mail_to(&[address], subject, body));
            }
        }
    }
    Ok(())
}

/// The notice of `ch`, with the reminder of `owed` (a power and what it
/// still has to order) when there is one.
fn render(
    judge: &Judge,
    ch: &Change,
    owed: Option<(&str, &[String])>,
) -> CmdResult<(String, String)> {
    let reminder =
        owed.map(|(power, missing)| serde_json::json!({"power": power, "missing": missing}));
    let ctx = serde_json::json!({
        "game": ch.game.name,
        "judge": judge.name,
        "deadline": ch.deadline,
        "changes": ch.lines,
        "reminder": reminder,
    });
    Ok(judge
        .templates
        .mail("notice-setting.txt", &ctx)
        .map_err(anyhow::Error::from)?)
}
