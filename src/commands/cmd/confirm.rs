//! CONFIRM, and the rule it serves: nobody is subscribed, registered or
//! written to on someone else's word.
//!
//! A mail's From can be forged, so a command that registers the From
//! address (JOIN, OBSERVE, CREATE, SET ADDRESS, TAKEOVER, and njudge's
//! `SIGNON ?game`, `SIGNON Ogame` and `CREATE ?game`: [`Spec::registers`],
//! per form [`Command::registers`]) is
//! carried out only for an address that has confirmed it wants the judge's
//! mail. A mail holding one, from an address that has not, is held whole
//! ([`hold`]): nothing in it is done, and the address gets one short
//! request with a code, at most one a day, nothing else. Answering it
//! (replying with its Subject, or a `CONFIRM code` line) confirms the
//! address for good and releases the mails held for it, which are then
//! carried out as they were sent. A power the GM gives to an address that
//! has not confirmed (REPLACE) is offered the same way, and given when the
//! address confirms. Held mails and offers lapse after
//! [`WAIT`](crate::store::confirm::WAIT).
//!
//! A forger who writes From: victim and Reply-To: themself gets nothing: the
//! mail is not carried out, the request goes to the victim alone, and the
//! forger's answer says only that it is held.
//!
//! [`Spec::registers`]: crate::commands::registry::Spec::registers
//! [`Command::registers`]: crate::commands::registry::Command::registers

use crate::commands::error::{CmdError, CmdResult};
use crate::commands::registry::{self, Anyone, Args, Command, Secret, Spec};
use crate::commands::{Judge, Session, mail_to, password};
use crate::daemon::process::{Response, reply_to};
use crate::mail::Inbound;
use crate::store::Tx;
use crate::store::confirm::{self as store, Pending};

/// Mails at most that may wait for one address's confirmation.
pub(crate) const MAX_HELD: usize = 5;
/// Seconds between two requests to one address.
pub(crate) const ASK_EVERY: i64 = 86_400;

/// CONFIRM code.
pub(crate) struct Confirm(String);

impl Command for Confirm {
    const SPEC: Spec = Spec {
        secret: Secret::Arg(0),
        ..Spec::new(
            "CONFIRM",
            "CONFIRM code  (the code comes in the judge's request)",
            "Confirm that this address wants the judge's mail; what waited for it is then done.",
        )
    };
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

/// The code of a request in a Subject (`Re: ... [CONFIRM code]`), so that
/// replying to the request is enough.
pub(crate) fn code_in_subject(subject: &str) -> Option<String> {
    let words: Vec<&str> = subject.split_whitespace().collect();
    words.windows(2).find_map(|w| {
        let head = w[0].trim_start_matches('[');
        let code = w[1].trim_matches(|c: char| !c.is_ascii_alphanumeric());
        // A code, not a word of the Subject ("please confirm your ...").
        let long = code.chars().filter(char::is_ascii_alphanumeric).count() >= 12;
        (head.eq_ignore_ascii_case("confirm") && long).then(|| code.to_string())
    })
}

/// Confirm the address whose request carries `code`, and carry out what
/// waited for it.
fn confirm(judge: &mut Judge, s: &mut Session<'_, '_>, code: &str) -> CmdResult {
    let Some(address) = store::address_of_code(s.tx, code, s.now)? else {
        return Err(CmdError::refused(
            "no request waits for that code: it was used already, or is more than 7 days old",
        ));
    };
    store::set_confirmed(s.tx, &address, s.now)?;
    let waiting = store::release(s.tx, &address)?;
    tracing::info!(address = %address, waiting = waiting.len(), "an address confirmed");
    s.say(&format!(
        "  {address} is confirmed: the judge may write to it from now on."
    ));
    let held = waiting
        .iter()
        .filter(|p| matches!(p, Pending::Mail(_)))
        .count();
    if held > 0 {
        s.say(&format!(
            "  The {} held for it {} carried out now, as {} sent; \
             {} answers follow.",
            crate::report::plural(held as i64, "mail", None),
            if held == 1 { "is" } else { "are" },
            if held == 1 { "it was" } else { "they were" },
            if held == 1 { "its" } else { "their" }
        ));
    }
    for p in waiting {
        let Pending::Offer { game, power, by } = p else {
            continue;
        };
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

/// A code for a request, or the one still waiting for `address`.
fn code_for(tx: &Tx<'_>, address: &str, now: i64) -> CmdResult<String> {
    if let Some(row) = store::get(tx, address)?
        && let Some(code) = row.code
        && row.code_at > now - store::WAIT
    {
        return Ok(code);
    }
    let code = password::generate()
        .map_err(|e| CmdError::Fault(anyhow::anyhow!("no random source: {e}")))?;
    store::set_code(tx, address, &code, now)?;
    Ok(code)
}

/// Whether a request may go to `address` now (none in the last
/// [`ASK_EVERY`]); notes that one goes if so.
fn may_ask(tx: &Tx<'_>, address: &str, now: i64) -> CmdResult<bool> {
    let last = store::get(tx, address)?.map_or(0, |r| r.asked_at);
    if last > 0 && now - last < ASK_EVERY {
        return Ok(false);
    }
    store::asked(tx, address, now)?;
    Ok(true)
}

/// The Subject of a request.
fn request_subject(judge: &Judge, code: &str) -> String {
    format!(
        "{}: please confirm your address [CONFIRM {code}]",
        judge.name
    )
}

/// `text` as a paragraph of lines of at most 72 characters.
fn para(text: &str) -> String {
    crate::report::wrap(text, 72, "")
}

/// How to answer a request (`yes`: "If it was you", "If you accept"),
/// what follows (`then`), and what happens if nobody answers (`no`: "If
/// it was not you").
fn request_tail(code: &str, yes: &str, then: &str, no: &str) -> String {
    format!(
        "\n{}\n  CONFIRM {code}\n\n{}",
        para(&format!(
            "{yes}, reply to this mail, keeping its Subject, or send the judge a mail \
             with this line:"
        )),
        para(&format!(
            "{then} {no}, do nothing: the judge writes nothing more to this address \
             about it, and forgets the request in 7 days."
        ))
    )
}

/// The lines of `mail` (from `from`) that register its From address,
/// echoed as the judge would carry them out (passwords masked); empty
/// when none.
fn registering(mail: &Inbound, from: &str) -> Vec<String> {
    let text = crate::mail::clean_text(&mail.text);
    crate::commands::mailrun::body_lines(&text)
        .into_iter()
        .filter(|(_, l)| !l.trim().is_empty())
        .take(crate::commands::mailrun::MAX_LINES)
        .filter_map(|(_, l)| registry::lookup(l.trim()))
        .filter(|c| c.entry.registers(&c.args))
        // `SET ADDRESS other@address` registers nothing: it is refused,
        // since an address is registered only by mail from itself.
        .filter(|c| {
            c.entry.spec().name != "SET ADDRESS"
                || c.args
                    .bare()
                    .get(0)
                    .is_none_or(|a| a.trim_matches(['<', '>']).eq_ignore_ascii_case(from))
        })
        .map(|c| registry::echo(&c, true))
        .collect()
}

/// Whether `mail` holds the code of a request to `address` (in a
/// CONFIRM line or in its Subject): it confirms that address as it is
/// read, so it is not held.
fn confirms(tx: &Tx<'_>, mail: &Inbound, address: &str, now: i64) -> CmdResult<bool> {
    let text = crate::mail::clean_text(&mail.text);
    let mut codes: Vec<String> = code_in_subject(&mail.subject).into_iter().collect();
    codes.extend(
        crate::commands::mailrun::body_lines(&text)
            .into_iter()
            .filter_map(|(_, l)| registry::lookup(l.trim()))
            .filter(|c| c.entry.spec().name == Confirm::SPEC.name)
            .filter_map(|c| c.args.get(0).map(str::to_string)),
    );
    for code in codes {
        if store::address_of_code(tx, &code, now)?.is_some_and(|a| a.eq_ignore_ascii_case(address))
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// If `mail` registers its From address and that address has not
/// confirmed, hold it: the response that says so (to the address answers
/// go to) and asks the From address to confirm (at most once a day). The
/// mail is then kept whole, unprocessed, until the address confirms.
/// `None`: the mail is read as usual.
pub(crate) fn hold(
    judge: &Judge,
    tx: &Tx<'_>,
    mail: &Inbound,
    now: i64,
) -> CmdResult<Option<Response>> {
    let (Some(from), Some(answer)) = (mail.from.as_ref(), mail.reply_to.as_ref()) else {
        return Ok(None);
    };
    let lines = registering(mail, &from.email);
    if lines.is_empty()
        || store::confirmed(tx, &from.email)?
        || confirms(tx, mail, &from.email, now)?
    {
        return Ok(None);
    }
    let from = from.email.clone();
    let to_author = answer.email.eq_ignore_ascii_case(&from);
    let waiting = store::pending(tx, &from)?
        .iter()
        .filter(|p| matches!(p, Pending::Mail(_)))
        .count();
    if waiting >= MAX_HELD {
        let body = crate::commands::fit(&format!(
            "Nothing in this mail was done. It asks the judge to register {from}, \
             which has not confirmed that it wants the judge's mail, and {MAX_HELD} \
             mails already wait for that confirmation.\n-- \n{}\n",
            judge.name
        ));
        let mut r = Response::new(vec![reply_to(mail, answer, body)], "refused: too many held");
        r.idle = true;
        return Ok(Some(r));
    }
    let code = code_for(tx, &from, now)?;
    let ask = may_ask(tx, &from, now)?;
    let mut listed = String::new();
    for l in lines.iter().take(10) {
        listed.push_str(&format!("  {l}\n"));
    }
    let request = format!(
        "{}\n{listed}\n{}\n{}-- \n{}\n",
        para(&format!(
            "Someone asked the Diplomacy judge {}, in a mail from this address \
             ({from}), to do this:",
            judge.name
        )),
        para("The judge does that only for an address that has said it wants the judge's mail."),
        request_tail(
            &code,
            "If it was you",
            "The mail is then carried out as it was sent.",
            "If it was not you"
        ),
        judge.name
    );
    let mut replies = Vec::new();
    if to_author {
        if ask {
            // The answer is the request.
            let mut r = reply_to(mail, answer, request);
            r.subject = request_subject(judge, &code);
            replies.push(r);
        }
    } else {
        let body = crate::commands::fit(&format!(
            "Nothing in this mail was done yet. It asks the judge to register\n\
             {from}, which has not confirmed that it wants the judge's mail; the\n\
             judge has asked it to. The mail is carried out if that address\n\
             confirms within 7 days.\n-- \n{}\n",
            judge.name
        ));
        replies.push(reply_to(mail, answer, body));
        if ask {
            replies.extend(mail_to(&[&from], request_subject(judge, &code), request));
        }
    }
    let mut r = Response::new(
        replies,
        if ask {
            "held for a confirmation (asked)"
        } else {
            "held for a confirmation (asked already)"
        },
    );
    r.held_for = Some(from);
    Ok(Some(r))
}

/// Offer `power` of `game` to `address`, which has not confirmed, for the
/// GM (`gm`): the address is asked (at most once a day) and gets the power
/// when it confirms. Returns whether a request went now.
pub(crate) fn offer(
    judge: &Judge,
    s: &mut Session<'_, '_>,
    game: &str,
    power: crate::map::PowerId,
    name: &str,
    address: &str,
    gm: &str,
) -> CmdResult<bool> {
    store::offer(s.tx, address, game, power.0, gm, s.now)?;
    let code = code_for(s.tx, address, s.now)?;
    if !may_ask(s.tx, address, s.now)? {
        return Ok(false);
    }
    let body = format!(
        "{}{}-- \n{}\n",
        para(&format!(
            "The GM of the game {game} at the Diplomacy judge {} would like you to \
             take over {name}. The judge gives a power only to an address that has \
             said it wants the judge's mail.",
            judge.name
        )),
        request_tail(
            &code,
            "If you accept",
            "The judge then mails you the game, your units and your password.",
            "If you do not want it, or do not know what this is"
        ),
        judge.name
    );
    s.out
        .extend(mail_to(&[address], request_subject(judge, &code), body));
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_to_a_request_carries_its_code() {
        assert_eq!(
            code_in_subject(
                "Re: zinejudge: please confirm your address [CONFIRM abcd-efgh-jkmn-pqrs]"
            )
            .as_deref(),
            Some("abcd-efgh-jkmn-pqrs")
        );
        assert_eq!(code_in_subject("Re: orders"), None);
        assert_eq!(
            code_in_subject("AW: [confirm ABCD-EFGH-JKMN-PQRS]").as_deref(),
            Some("ABCD-EFGH-JKMN-PQRS")
        );
    }
}
