//! Reading one mail, line by line, within bounds.
//!
//! The work one mail can cause is bounded: at most [`MAX_LINES`] lines are
//! read and [`MAX_COMMANDS`] commands carried out; the same answer to many
//! lines in a row is given once with a count; the reply is cut to a size
//! in proportion to the mail ([`reply_cap`]). Passwords never come back:
//! each command line is echoed with its password masked, and every
//! password the mail holds is masked wherever else it would appear in the
//! reply and in the copy of the mail the judge keeps.

use super::body::{MAX_COMMANDS, MAX_LINES, read_body};
use super::command::{Governs, Outcome};
use super::error::CmdError;
use super::registry::{self, CommandLine};
use super::{Ctx, Judge, Session, held, submit};
use crate::mail::Inbound;
use crate::trust::secrets::mask;
use std::fmt::Write;
use tracing::error;

/// The same answer to this many lines in a row is written out; further
/// ones are counted.
const SAME_ANSWERS: usize = 3;

/// What reading a mail gave.
pub(crate) struct Read {
    /// The reply's text (before the signature).
    pub reply: String,
    /// The mail's text to keep in place of the received mail, when it held
    /// passwords (masked here).
    pub kept_text: Option<String>,
    /// The passwords the mail holds, to be masked in anything else built
    /// from it (the answer's Subject, the headers kept).
    pub secrets: Vec<String>,
}

/// The most a reply may hold, in bytes, for a mail of `mail_len` bytes:
/// never much more than the mail itself, but room for a full order set.
pub(crate) fn reply_cap(mail_len: usize) -> usize {
    (2 * mail_len).clamp(16 * 1024, 64 * 1024)
}

/// The passwords a mail's command lines hold, quoted ones included (a
/// player replying to the judge's welcome quotes it).
/// `variants`: the judge's variants' names, where known (else a form
/// told apart by them has every word that may be the password masked).
fn secrets_of(text: &str, variants: &[String]) -> Vec<String> {
    let mut out: Vec<String> = text
        .lines()
        .filter_map(|l| {
            registry::lookup_knowing(l.trim_start_matches(['>', '|', ' ', '\t']), variants)
        })
        .flat_map(|c| registry::secrets_of(&c))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The mail's text as kept: every line of a command that takes a password
/// with all its arguments masked, and the passwords masked elsewhere.
fn kept(text: &str, secrets: &[String]) -> Option<String> {
    let mut any = !secrets.is_empty();
    let mut out = String::with_capacity(text.len());
    for l in text.lines() {
        let bare = l.trim_start_matches(['>', '|', ' ', '\t']);
        match registry::lookup(bare) {
            Some(c) if c.entry.spec().secret != crate::commands::command::Secret::None => {
                any = true;
                out.push_str(&l[..l.len() - bare.len()]);
                out.push_str(&registry::kept_form(&c));
            }
            _ => out.push_str(l),
        }
        out.push('\n');
    }
    any.then(|| mask(&out, secrets))
}

/// The copy of the raw mail `raw` (to the judge at `judge`) to keep beside
/// the store, in a Maildir's `cur/` or an IMAP processed mailbox: masked
/// as the store's copy is once the mail is processed (the same reading,
/// the same passwords found), or more: this copy is made without the
/// judge's variant list, so in DPjudge's `CREATE game word word` it masks
/// both words where the store's copy masks only the password. A password
/// is kept in clear nowhere. `None`: the mail holds none.
pub(crate) fn kept_copy(raw: &[u8], judge: &str) -> Option<Vec<u8>> {
    let mail = crate::mail::read(raw, judge);
    let text = crate::mail::clean_text(&mail.text);
    let secrets = secrets_of(&format!("{}\n{}", mail.subject, text), &[]);
    let kept = kept(&text, &secrets)?;
    Some(crate::trust::secrets::kept_copy(raw, &kept, &secrets))
}

/// Cut a reply to `cap` bytes at line ends, keeping its beginning and its
/// end (the order set held is at the end).
fn cut(reply: &str, cap: usize) -> String {
    if reply.len() <= cap {
        return reply.to_string();
    }
    let lines: Vec<&str> = reply.lines().collect();
    let (mut head, mut tail) = (0usize, lines.len());
    let (mut head_len, mut tail_len) = (0usize, 0usize);
    while head < tail && head_len + lines[head].len() < cap * 2 / 3 {
        head_len += lines[head].len() + 1;
        head += 1;
    }
    while tail > head && tail_len + lines[tail - 1].len() < cap / 3 - 200 {
        tail_len += lines[tail - 1].len() + 1;
        tail -= 1;
    }
    let mut out = lines[..head].join("\n");
    let _ = write!(
        out,
        "\n\n[{} lines of this reply are left out: the judge answers a long mail in \
         short.]\n\n",
        tail - head
    );
    out.push_str(&lines[tail..].join("\n"));
    out.push('\n');
    out
}

/// Read `mail` for the session: commands in order, orders between them.
pub(crate) fn run(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    mail: &Inbound,
) -> anyhow::Result<Read> {
    // A password may be in the Subject too (a player who wrote the
    // sign-on line there as well).
    // Control characters and noncharacters carry nothing a game needs and
    // break what they reach (XML feeds, 7bit mail): read without them.
    let text = crate::mail::clean_text(&mail.text);
    let variants = judge.variant_names();
    let secrets = secrets_of(&format!("{}\n{}", mail.subject, text), &variants);
    s.secrets = secrets.clone();
    let body = read_body(&text);
    let lines: Vec<(usize, &str)> = body.lines.iter().map(|(n, l)| (*n, l.as_str())).collect();
    let mut pending: Vec<(usize, String)> = Vec::new();
    let mut read = 0usize;
    let mut commands = 0usize;
    let mut same = Same::default();
    let mut i = 0;
    let mut stopped: Option<String> = None;
    while i < lines.len() {
        mail.budget.check()?;
        let (n, line) = lines[i];
        let t = line.trim();
        if !t.is_empty() {
            read += 1;
            if read > MAX_LINES {
                let left = lines[i..]
                    .iter()
                    .filter(|(_, l)| !l.trim().is_empty())
                    .count();
                stopped = Some(format!(
                    "The judge reads the first {MAX_LINES} lines of a mail; the other {left} \
                     lines (from line {n} on) were not read."
                ));
                break;
            }
        }
        if registry::unknown_set(t) && super::foreign::answer(t).is_none() {
            flush_orders(judge, s, &mut pending)?;
            s.did_something = true;
            let answer = format!(
                "  Not understood: SET what? The judge knows {}. Nothing was done.\n",
                registry::set_names()
            );
            same.write(
                s,
                &format!("> {}\n", crate::mail::header_text(t, 200)),
                &answer,
            );
            i += 1;
            continue;
        }
        let Some(c) = registry::lookup_knowing(t, &variants) else {
            // Another judge's command that this one does not take: refused
            // by name, never read as an order nor passed over.
            if let Some(answer) = super::foreign::answer(t) {
                flush_orders(judge, s, &mut pending)?;
                s.did_something = true;
                same.write(
                    s,
                    &format!("> {}\n", crate::mail::header_text(t, 200)),
                    &format!("  Not done: {answer}.\n"),
                );
                i += 1;
                continue;
            }
            pending.push((n, line.to_string()));
            i += 1;
            continue;
        };
        flush_orders(judge, s, &mut pending)?;
        commands += 1;
        if commands > MAX_COMMANDS {
            stopped = Some(format!(
                "The judge carries out at most {MAX_COMMANDS} commands a mail; the rest of the \
                 mail, from line {n} on, was not read."
            ));
            break;
        }
        // Press (and the like) runs to its terminator: one reading decides
        // where it ends (see `pressform`).
        let mut ending = None;
        if c.entry.spec().block {
            let (text, next, end) = super::pressform::block(&lines, i + 1, &carries_password);
            let mut joined = String::new();
            for l in text {
                joined.push_str(l);
                joined.push('\n');
            }
            // Passwords written anywhere in the mail never travel in press.
            s.press = Some(mask(&joined, &secrets));
            i = next - 1;
            ending = Some(end);
        }
        s.did_something = true;
        run_command(judge, s, &c, &mut same)?;
        s.press = None;
        if let Some(super::pressform::Ending::EndPress {
            line,
            rest: Some(rest),
        }) = ending
        {
            s.say(&crate::report::wrap(
                &format!(
                    "  (The rest of line {line} after its ENDPRESS, \"{}\", was not read: \
                     nothing after the end of press on its line is.)",
                    crate::mail::header_text(&rest, 60)
                ),
                72,
                "   ",
            ));
            s.reply.push('\n');
        }
        i += 1;
        // SIGNOFF ends the mail, as on njudge and DPjudge: what follows
        // (signatures, taglines) is not read.
        if c.entry.spec().name == "SIGNOFF" {
            let left: Vec<usize> = lines[i..]
                .iter()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(n, _)| *n)
                .collect();
            if let Some(first) = left.first() {
                stopped = Some(format!(
                    "The judge reads nothing after SIGNOFF: the {} after it (from \
                     line {first} on) {} not read.",
                    crate::report::plural(left.len() as i64, "line", None),
                    if left.len() == 1 { "was" } else { "were" }
                ));
            }
            break;
        }
    }
    flush_orders(judge, s, &mut pending)?;
    same.finish(s);
    if let Some(why) = stopped {
        s.say(&crate::report::wrap(&why, 72, ""));
    }
    if body.comments > 0 {
        s.say(&crate::report::wrap(
            &format!(
                "{} (starting with //) {} not read.",
                crate::report::plural(body.comments as i64, "comment line", None),
                if body.comments == 1 { "was" } else { "were" }
            ),
            72,
            "",
        ));
    }
    if !s.did_something {
        s.say(
            "The judge found no commands or orders in your mail.\n\
             Send HELP for the list of commands; orders need a SIGNON line first.",
        );
    }
    let reply = cut(&mask(&s.reply, &secrets), reply_cap(text.len()));
    Ok(Read {
        reply,
        kept_text: kept(&text, &secrets),
        secrets,
    })
}

/// Whether a line is a sign-on in its form (a command that says whom the
/// lines below speak for, and carries a password): it ends press so that
/// it is carried out and its password goes to nobody. Other commands that
/// take a password do not: press is prose, and "Watch Piedmont." or "Join
/// me in Munich" in it are its words (any password in the mail is masked
/// in press anyway).
fn carries_password(line: &str) -> bool {
    registry::lookup(line.trim()).is_some_and(|c| {
        c.entry.spec().secret != crate::commands::command::Secret::None
            && c.entry.spec().echo_failed
            && c.entry.check(&c.args).is_ok()
    })
}

/// Consecutive lines that got the same answer.
#[derive(Default)]
struct Same {
    answer: String,
    repeats: usize,
}

impl Same {
    /// Write a line's echo and answer, or count it when the answer is the
    /// one of the lines before.
    fn write(&mut self, s: &mut Session<'_, '_>, echo: &str, answer: &str) {
        if answer == self.answer {
            self.repeats += 1;
            if self.repeats >= SAME_ANSWERS {
                return;
            }
        } else {
            self.finish(s);
            self.answer = answer.to_string();
            self.repeats = 0;
        }
        s.reply.push_str(echo);
        s.reply.push_str(answer);
        s.reply.push('\n');
    }

    /// Say how many were counted.
    fn finish(&mut self, s: &mut Session<'_, '_>) {
        if self.repeats >= SAME_ANSWERS {
            let n = self.repeats + 1 - SAME_ANSWERS;
            s.reply.push_str(&format!(
                "> ... and {} like these, with the same answer.\n\n",
                crate::report::plural(n as i64, "more line", Some("more lines"))
            ));
        }
        self.answer.clear();
        self.repeats = 0;
    }
}

/// Carry out one command line in a savepoint of its own.
fn run_command(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    c: &CommandLine,
    same: &mut Same,
) -> anyhow::Result<()> {
    let mark = s.reply.len();
    let out_mark = s.out.len();
    let press_mark = s.press_out.len();
    s.tx.execute_batch("SAVEPOINT command")?;
    let outcome = c.entry.execute(judge, s, &c.args);
    let ok = matches!(outcome, Outcome::Ran(Ok(())));
    if ok {
        s.tx.execute_batch("RELEASE command")?;
    } else {
        s.tx.execute_batch("ROLLBACK TO command; RELEASE command")?;
        s.reply.truncate(mark);
        s.out.truncate(out_mark);
        s.press_out.truncate(press_mark);
    }
    let echo = registry::echo(c, ok);
    // A line that says who or what the orders below are for, refused,
    // leaves them read for nothing: never for whoever or whatever came
    // before it.
    match c.entry.spec().governs {
        Governs::Nothing => {}
        _ if ok => s.void = None,
        Governs::Seat => {
            s.ctx = Ctx::None;
            s.phase_ahead = None;
            s.void = Some(echo.clone());
        }
        Governs::Orders => s.void = Some(echo.clone()),
    }
    match outcome {
        Outcome::Ran(Ok(())) => {}
        Outcome::NotUnderstood(why) => {
            let _ = writeln!(
                s.reply,
                "  Not understood: {why}. Nothing was done; send HELP for the commands."
            );
        }
        Outcome::NotAllowed(why) => {
            let _ = writeln!(s.reply, "  Not done: {why}.");
        }
        Outcome::Ran(Err(CmdError::Refused(why))) => {
            let _ = writeln!(s.reply, "  Not done: {why}.");
        }
        // The store failed under the command (a privilege withheld, the
        // database gone): the whole mail waits and is read again once the
        // store works, rather than answered with an apology and lost.
        Outcome::Ran(Err(CmdError::Fault(e))) if crate::store::unavailable_in(&e) => {
            return Err(e.context(format!("the store failed during {}", c.entry.spec().name)));
        }
        Outcome::Ran(Err(CmdError::Fault(e))) => {
            error!(command = %c.entry.spec().name, error = %format!("{e:#}"), "a command failed");
            let _ = writeln!(
                s.reply,
                "  Not done: the judge met an internal fault; nothing of this command was \
                 done. The judge's keeper has been told; please try again later."
            );
        }
    }
    let answer = s.reply.split_off(mark);
    if ok {
        // A command done for a seat signed on from another address is
        // told to that seat's player.
        if c.entry.who() != crate::commands::command::Who::Anyone {
            if let Ctx::Power { game, power } = &s.ctx {
                s.checks.acted(game, Some(*power), &echo);
            } else if let Ctx::Gm { game } = &s.ctx {
                s.checks.acted(game, None, &echo);
            }
        }
        s.reply.push_str(&format!("> {echo}\n"));
        s.reply.push_str(&answer);
        s.reply.push('\n');
    } else {
        same.write(s, &format!("> {echo}\n"), &answer);
    }
    Ok(())
}

/// Orders written since the last command, for whoever is signed on.
fn flush_orders(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    pending: &mut Vec<(usize, String)>,
) -> anyhow::Result<()> {
    if pending.iter().all(|(_, l)| l.trim().is_empty()) {
        pending.clear();
        return Ok(());
    }
    let block = std::mem::take(pending);
    if let Some(line) = s.void.clone() {
        void_orders(judge, s, &line, &block)?;
        if !s.reply.is_empty() && !s.reply.ends_with("\n\n") {
            s.reply.push('\n');
        }
        return Ok(());
    }
    match s.ctx.clone() {
        Ctx::Power { game, power } => {
            s.tx.execute_batch("SAVEPOINT orders")?;
            let ahead = s.phase_ahead;
            let taken = match ahead {
                Some(phase) => super::later::take_ahead(judge, s, &game, power, phase, &block),
                None => held::orders(judge, s, &game, power, &block),
            };
            match taken {
                Ok(took) if ahead.is_some() => {
                    s.tx.execute_batch("RELEASE orders")?;
                    if took {
                        s.did_something = true;
                        s.checks
                            .acted(&game, Some(power), "orders for a later phase (see below)");
                    }
                }
                Ok(took) => {
                    s.tx.execute_batch("RELEASE orders")?;
                    if took {
                        s.did_something = true;
                        s.checks.acted(&game, Some(power), "orders (see below)");
                        // Orders from a power in civil disorder bring it back.
                        s.tx.execute_batch("SAVEPOINT back")?;
                        match super::play::back_from_disorder(judge, s, &game, power) {
                            Ok(()) => s.tx.execute_batch("RELEASE back")?,
                            Err(e) => {
                                s.tx.execute_batch("ROLLBACK TO back; RELEASE back")?;
                                error!(game = %game, error = ?e, "cannot take a power out of civil disorder");
                            }
                        }
                    }
                }
                Err(e) => {
                    s.tx.execute_batch("ROLLBACK TO orders; RELEASE orders")?;
                    s.did_something = true;
                    match e {
                        CmdError::Refused(why) => s.say(&format!("Orders not taken: {why}.\n")),
                        CmdError::Fault(e) => {
                            error!(error = %format!("{e:#}"), "taking orders failed");
                            s.say(
                                "Orders not taken: the judge met an internal fault; none of \
                                 these orders were taken. The judge's keeper has been told.\n",
                            );
                        }
                    }
                }
            }
        }
        Ctx::Gm { .. } | Ctx::None => {
            // Orders without a power: say so, if there were any.
            let std = judge.variant("standard")?;
            let parser = crate::orders::parse::OrderParser::new(&std.map);
            let text: Vec<&str> = block.iter().map(|(_, l)| l.as_str()).collect();
            let found = crate::orders::mail::find_orders(&parser, &text.join("\n"), None);
            if !found.is_empty() {
                s.did_something = true;
                let who = if matches!(s.ctx, Ctx::Gm { .. }) {
                    "The GM gives no orders; sign on as a power"
                } else {
                    "Orders need a SIGNON line before them"
                };
                s.say(&format!("{who} (SIGNON power game password)."));
                s.say("These lines were not taken:");
                for f in found.iter().take(20) {
                    let _ = writeln!(s.reply, "  line {}: {}", block[f.line - 1].0, f.text);
                }
                if found.len() > 20 {
                    let _ = writeln!(s.reply, "  ... and {} more.", found.len() - 20);
                }
                s.reply.push('\n');
            }
            // The GM's other lines (a word of another judge's this one
            // does not know, chat) are listed, never passed over.
            if matches!(s.ctx, Ctx::Gm { .. }) {
                let unread = submit::unread_lines(&block, &found);
                if !unread.is_empty() {
                    s.did_something = true;
                    s.say("Not read (no command or order found in these lines):");
                    for l in unread.iter().take(20) {
                        let _ = writeln!(s.reply, "{l}");
                    }
                    if unread.len() > 20 {
                        let _ = writeln!(s.reply, "  ... and {} more.", unread.len() - 20);
                    }
                    s.reply.push('\n');
                }
            }
        }
    }
    // A command after the orders starts a paragraph of its own.
    if !s.reply.is_empty() && !s.reply.ends_with("\n\n") {
        s.reply.push('\n');
    }
    Ok(())
}

/// The orders of `block`, below `line` (a sign-on or PHASE that was not
/// carried out): named, and taken for nothing.
fn void_orders(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    line: &str,
    block: &[(usize, String)],
) -> anyhow::Result<()> {
    let variant = match &s.ctx {
        Ctx::Power { game, .. } | Ctx::Gm { game } => crate::store::games::load(s.tx, game)?
            .map_or_else(|| "standard".to_string(), |g| g.variant),
        Ctx::None => "standard".to_string(),
    };
    let v = judge.variant(&variant)?;
    let parser = crate::orders::parse::OrderParser::with_syntax(&v.map, v.syntax.clone());
    let text: Vec<&str> = block.iter().map(|(_, l)| l.as_str()).collect();
    let found = crate::orders::mail::find_orders(&parser, &text.join("\n"), None);
    if found.is_empty() {
        return Ok(());
    }
    s.did_something = true;
    s.say(&crate::report::wrap(
        &format!(
            "Not taken: these lines are below \"{line}\", which was not done, so they are \
             orders for nothing (the orders you hold are as they were):"
        ),
        72,
        "",
    ));
    let mut lines: Vec<usize> = found.iter().map(|f| f.line).collect();
    lines.dedup();
    for i in lines.iter().take(20) {
        let (n, l) = &block[i - 1];
        let _ = writeln!(
            s.reply,
            "  line {n}: {}",
            crate::mail::header_text(l.trim(), 72)
        );
    }
    if lines.len() > 20 {
        let _ = writeln!(s.reply, "  ... and {} more.", lines.len() - 20);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_reply_keeps_its_beginning_and_end() {
        let long: String = (0..5000).map(|i| format!("line {i}\n")).collect();
        let c = cut(&long, 16 * 1024);
        assert!(c.len() <= 16 * 1024, "{}", c.len());
        assert!(c.starts_with("line 0\n"));
        assert!(c.trim_end().ends_with("line 4999"));
        assert!(c.contains("are left out"));
    }

    #[test]
    fn kept_copies_mask_every_password_line() {
        let k = kept(
            "hi\nSIGNON England g1 hunter2\n> JOIN g2 sesame\nbye hunter2\n",
            &secrets_of("SIGNON England g1 hunter2\n> JOIN g2 sesame\n", &[]),
        )
        .unwrap();
        assert!(!k.contains("hunter2") && !k.contains("sesame"), "{k}");
        assert!(k.contains("SIGNON ******** ******** ********"), "{k}");
    }
}
