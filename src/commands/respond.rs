//! The command language as the daemon's [`Responder`]: a mail read and
//! answered (after trust has said what its sender may cause), the
//! clock's work on the games, and the pictures of queued results.

use super::body::is_judges_own;
use super::common::fit;
use super::judge::Judge;
use super::session::{Ctx, Session};
use super::{cmd, mailrun, play, registry, variants_kept};
use crate::daemon::process::{Responder, Response};
use crate::mail::{Inbound, Outgoing, reply_to};
use crate::store::{Conn, Tx};
use crate::trust::secrets::mask;
use crate::trust::sender::Sender;
use crate::trust::signon::Checks;
use std::sync::Arc;
use std::time::SystemTime;

impl Responder for Judge {
    fn respond(
        &mut self,
        tx: &Tx<'_>,
        mail: &Inbound,
        sender: &Sender,
        now: SystemTime,
    ) -> anyhow::Result<Response> {
        let t = crate::daemon::process::unix(now);
        // The judge's own mail sent back whole (an echoing robot): never
        // answered, so a ping-pong ends at once.
        if is_judges_own(&mail.text) {
            return Ok(Response::new(
                Vec::new(),
                "ignored: the judge's own mail come back",
            ));
        }
        // A mail that would register its From, which is only a claim, is
        // held whole until that address confirms it (or refused): trust
        // decides, from what the table says the lines ask.
        let asks = registering(mail, &sender.from.email, &self.variant_names());
        if let Some(held) =
            crate::trust::confirm::decide(tx, &self.name, &self.trust, mail, sender, &asks, t)?
        {
            let mut r = Response::new(held.replies, held.note);
            r.held_for = held.row;
            return Ok(r);
        }
        // Replying to a request confirms: its Subject carries the code.
        let confirming;
        let mail = match crate::trust::confirm::code_in_subject(&mail.subject) {
            Some(code)
                if !mail.text.lines().any(|l| {
                    registry::lookup(l.trim()).is_some_and(|c| c.entry.spec().name == "CONFIRM")
                }) =>
            {
                confirming = Inbound {
                    text: format!("CONFIRM {code}\n{}", mail.text),
                    ..mail.clone()
                };
                &confirming
            }
            _ => mail,
        };
        // Each game plays the variant it started with, whatever the
        // folder now holds: settled before any command reads a game.
        let mut variant_notices = variants_kept::settle(self, tx, t)?;
        let mut s = Session {
            tx,
            now: t,
            sender: sender.clone(),
            ctx: Ctx::None,
            reply: String::new(),
            out: Vec::new(),
            did_something: false,
            checks: Checks::default(),
            press: None,
            notices: Vec::new(),
            press_out: Vec::new(),
            phase_ahead: None,
            void: None,
            stirred: Vec::new(),
            changes: Vec::new(),
            attach: Vec::new(),
            help: &registry::Help,
            secrets: Vec::new(),
        };
        let mut read = mailrun::run(self, &mut s, mail)?;
        if !s.did_something && crate::trust::confirm::quoted_code_waits(tx, mail, sender, t)? {
            read.reply.push_str(&crate::report::wrap(
                "\nA mail of yours still waits for your confirmation, but the CONFIRM \
                 line of this mail is in the quoted text, which the judge does not read. \
                 To confirm, send the CONFIRM line on its own (not quoted), or reply to \
                 the request keeping its Subject.",
                72,
                "",
            ));
        }
        let mark = s.reply.len();
        settle(self, &mut s)?;
        if s.reply.len() > mark {
            let said = s.reply.split_off(mark);
            read.reply = format!("{}\n\n{}", read.reply.trim_end(), said.trim_end());
        }
        s.send_press();
        super::changes::tell(self, &mut s)?;
        s.send_notices()?;
        let told = crate::trust::signon::tell_owners(&mut s.checks, &s.sender, tx, t)?;
        s.out.extend(told);
        let mut reply = reply_to(
            mail,
            &sender.answer,
            fit(&format!("{}\n-- \n{}\n", read.reply.trim_end(), self.name)),
        );
        reply.subject = mask(&reply.subject, &read.secrets);
        reply.attachments = std::mem::take(&mut s.attach);
        let mut replies = vec![reply];
        replies.append(&mut s.out);
        replies.append(&mut variant_notices);
        super::common::sign(&mut replies[1..], &self.name);
        // A game created now keeps the variant it starts with.
        variants_kept::bind_new(self, tx, t)?;
        Ok(Response {
            replies,
            note: if s.did_something { "commands" } else { "idle" }.into(),
            held_for: None,
            kept_text: read.kept_text,
            secrets: read.secrets,
            idle: !s.did_something,
        })
    }

    fn ahead(
        &mut self,
        conn: &Conn,
        mail: &Inbound,
        now: SystemTime,
    ) -> Option<crate::daemon::process::Ahead> {
        let seats = cmd::signon::ahead(self, conn, mail, crate::daemon::process::unix(now));
        let warming = crate::trust::signon::warm(&seats);
        (!warming.is_empty()).then(|| Box::new(move || warming.wait()) as _)
    }

    fn due(&mut self, conn: &Conn, now: SystemTime) -> anyhow::Result<Vec<String>> {
        // Games whose variant file changed are settled first.
        let due = play::due(conn, crate::daemon::process::unix(now))?;
        variants_kept::due(self, conn, due)
    }

    fn tick(&mut self, tx: &Tx<'_>, key: &str, now: SystemTime) -> anyhow::Result<Vec<Outgoing>> {
        let t = crate::daemon::process::unix(now);
        let mut out =
            variants_kept::tick(self, tx, key, t, |judge| play::tick_game(judge, tx, key, t))?;
        super::common::sign(&mut out, &self.name);
        Ok(out)
    }

    fn parts(
        &mut self,
        conn: &Conn,
        later: &crate::mail::Later,
    ) -> anyhow::Result<Vec<crate::mail::Attached>> {
        variants_kept::load_all(self, conn)?;
        play::parts(self, conn, later)
    }

    fn forget(&mut self) {
        self.drawn.clear();
    }

    fn masker(&self, judge: &str) -> Option<crate::mail::Masker> {
        let judge = judge.to_string();
        Some(Arc::new(move |raw: &[u8]| mailrun::kept_copy(raw, &judge)))
    }

    fn fault(
        &mut self,
        tx: &Tx<'_>,
        key: &str,
        cause: &str,
        now: SystemTime,
    ) -> anyhow::Result<Vec<Outgoing>> {
        if key == variants_kept::SETTLE_KEY {
            // Logged by the processor; no game to set aside.
            return Ok(Vec::new());
        }
        play::set_aside(self, tx, key, cause, crate::daemon::process::unix(now))
    }
}

/// Process each game the mail stirred that now waits for nobody. Done
/// once the whole mail is read, so that its later lines (more orders, SET
/// WAIT) count; each game in a savepoint of its own, so a fault in one
/// leaves the mail's other work whole.
fn settle(judge: &mut Judge, s: &mut Session<'_, '_>) -> anyhow::Result<()> {
    for game in std::mem::take(&mut s.stirred) {
        s.tx.execute_batch("SAVEPOINT settle")?;
        match play::process_if_all_ready(judge, s, &game) {
            Ok(()) => s.tx.execute_batch("RELEASE settle")?,
            Err(e) => {
                s.tx.execute_batch("ROLLBACK TO settle; RELEASE settle")?;
                tracing::error!(game = %game, error = ?e, "cannot process a game whose players are ready");
            }
        }
    }
    Ok(())
}

/// What the lines of `mail` (from `from`) ask that would register its From
/// address, each in the judge's words ("join the game g1"), as the table
/// reads them: the lines the mail's reading reads, to its bounds.
fn registering(mail: &Inbound, from: &str, variants: &[String]) -> Vec<String> {
    let text = crate::mail::clean_text(&mail.text);
    super::body::body_lines(&text)
        .into_iter()
        .filter(|(_, l)| !l.trim().is_empty())
        .take(super::body::MAX_LINES)
        .filter_map(|(_, l)| registry::lookup_knowing(l.trim(), variants))
        .filter_map(|c| c.entry.registration(&c.args, from))
        .collect()
}
