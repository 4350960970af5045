//! What reading one mail has done so far: who its lines speak for, the
//! reply being written, and the mails, notices and press it will send.
//! Every command runs on it; it imports no command.

use super::common::mail_to;
use super::error::CmdResult;
use crate::mail::Outgoing;
use crate::map::PowerId;
use crate::store::Tx;
use crate::store::games::{self, GameRow};
use crate::trust::sender::Sender;
use crate::trust::signon::{Checks, SeatLock};

/// Who the lines of a mail speak for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ctx {
    /// Nobody yet.
    None,
    /// A power.
    Power {
        /// The game.
        game: String,
        /// The power.
        power: PowerId,
    },
    /// A game's GM.
    Gm {
        /// The game.
        game: String,
    },
}

/// Work done while reading one mail.
pub struct Session<'a, 't> {
    /// The mail's transaction.
    pub(crate) tx: &'a Tx<'t>,
    /// When the mail is processed (Unix seconds).
    pub(crate) now: i64,
    /// Who wrote the mail, and how sure the judge is (see
    /// [`crate::trust`]): its From is the address registered by CREATE,
    /// JOIN, OBSERVE and SET ADDRESS; its answer goes to `sender.answer`,
    /// and a mail counts as coming from a seat's player only when both are
    /// the seat's address.
    pub(crate) sender: Sender,
    /// Who signed on, for the following lines.
    pub(crate) ctx: Ctx,
    /// The reply, section by section.
    pub(crate) reply: String,
    /// Other mails (press, notices, results).
    pub(crate) out: Vec<Outgoing>,
    /// Something in the mail was a command or an order.
    pub(crate) did_something: bool,
    /// What this mail's sign-ons found, per seat, to check each password
    /// at most once a mail.
    pub(crate) checks: Checks,
    /// The text of the press being sent (the lines up to ENDPRESS).
    pub(crate) press: Option<String>,
    /// Notices to everybody in a game that the mail's later lines may
    /// replace, sent once when the mail is done ([`Session::notice_once`]).
    pub(crate) notices: Vec<Notice>,
    /// Press this mail sends, one mail per reader and game when the mail
    /// is done ([`Session::send_press`]).
    pub(crate) press_out: Vec<PressOut>,
    /// njudge's `PHASE season year phase`: the later phase the orders
    /// below it are for, until the next PHASE line or sign-on (`None`: the
    /// current phase).
    pub(crate) phase_ahead: Option<crate::variant::Phase>,
    /// The line, as echoed, that the orders below were for and that was
    /// not carried out (a refused sign-on or PHASE): until the next such
    /// line, orders are read for nothing ([`super::command::Governs`]).
    pub(crate) void: Option<String>,
    /// Games whose orders or readiness this mail changed: once it is done,
    /// each goes early if it now waits for nobody
    /// ([`Session::settle`]).
    pub(crate) stirred: Vec<String>,
    /// What the GM changed that the players live by (the deadline, the
    /// settings), per game, told in one mail to each when the mail is done
    /// ([`Session::notice_change`], [`Session::notice_deadline`]).
    pub(crate) changes: Vec<Change>,
    /// The passwords the mail holds (`mailrun`'s reading of its command
    /// lines), for what must never show one.
    pub(crate) secrets: Vec<String>,
    /// HELP's texts, printed from the command table (HELP and GET print
    /// them): handed in by whoever reads the mail, so that no command
    /// imports the table that imports every command.
    pub(crate) help: &'static dyn HelpTexts,
    /// Pictures attached to the answer (MAP).
    pub(crate) attach: Vec<crate::mail::Attached>,
}

/// HELP's texts (the table's: `registry::Help`).
pub(crate) trait HelpTexts: Sync {
    /// The HELP reply: every command of this judge's.
    fn all(&self) -> String;
    /// HELP for one command, named by any of its names; `None` if none.
    fn one(&self, name: &str) -> Option<String>;
    /// HELP NJUDGE: the other judges' words.
    fn other_judges(&self) -> String;
}

/// One press message for one reader, sent when the mail is done.
pub(crate) struct PressOut {
    /// The reader's address.
    pub(crate) to: String,
    /// The game.
    pub(crate) game: String,
    /// The GM's copy (sender shown).
    pub(crate) gm_copy: bool,
    /// Sent grey: never in one mail with signed press, which would name
    /// its sender.
    pub(crate) grey: bool,
    /// The message as the reader gets it.
    pub(crate) body: String,
}

/// What one mail of the GM's changed in a game, for its players.
pub(crate) struct Change {
    /// The game, as it was when first changed.
    pub(crate) game: GameRow,
    /// The deadline set, in words: the mail's last SET DEADLINE.
    pub(crate) deadline: Option<String>,
    /// The settings changed, a line each.
    pub(crate) lines: Vec<String>,
}

/// A notice about a game, sent when the mail is done.
pub(crate) struct Notice {
    game: GameRow,
    what: String,
    body: String,
    /// To the game's GM alone, else to everybody but the mail's author.
    gm_only: bool,
}

impl Session<'_, '_> {
    /// Tell everybody in `g` (but the mail's author) `body` under `what`
    /// once the mail is done: a later line of the same mail with the same
    /// `what` for the same game replaces it, so that a mail of many lines
    /// that each move a deadline sends one notice, of where it ended.
    pub(crate) fn notice_once(&mut self, g: &GameRow, what: &str, body: String) {
        self.notices.retain(|n| {
            !(n.game.name.eq_ignore_ascii_case(&g.name) && n.what == what && !n.gm_only)
        });
        self.notices.push(Notice {
            game: g.clone(),
            what: what.to_string(),
            body,
            gm_only: false,
        });
    }

    /// Tell the GM of `g` `line` under `what` once the mail is done: the
    /// lines of one mail under the same `what` go in one notice.
    pub(crate) fn notice_gm(&mut self, g: &GameRow, what: &str, line: &str) {
        if let Some(n) = self
            .notices
            .iter_mut()
            .find(|n| n.gm_only && n.game.name.eq_ignore_ascii_case(&g.name) && n.what == what)
        {
            n.body.push_str(line);
            return;
        }
        self.notices.push(Notice {
            game: g.clone(),
            what: what.to_string(),
            body: line.to_string(),
            gm_only: true,
        });
    }

    /// Send the notices kept by [`Session::notice_once`] and
    /// [`Session::notice_gm`].
    pub(crate) fn send_notices(&mut self) -> CmdResult {
        for n in std::mem::take(&mut self.notices) {
            if n.gm_only {
                self.out.extend(mail_to(
                    &[&n.game.gm_address],
                    format!("{}: {}", n.game.name, n.what),
                    n.body,
                ));
            } else {
                notify_all(self, &n.game, &n.what, &n.body)?;
            }
        }
        Ok(())
    }

    /// Send the press of this mail: however many messages it holds, each
    /// reader gets one mail per game (two, when grey press is among them:
    /// grey press in one mail with signed press would give its sender
    /// away), the messages in the order written. Press fans out to a
    /// game's readers, once each, and no further.
    pub(crate) fn send_press(&mut self) {
        type Group = (String, String, bool, bool, Vec<String>);
        let mut groups: Vec<Group> = Vec::new();
        for p in std::mem::take(&mut self.press_out) {
            // The GM's copy names the sender of grey press anyway.
            let grey = p.grey && !p.gm_copy;
            match groups.iter_mut().find(|(to, game, gm, g, _)| {
                to.eq_ignore_ascii_case(&p.to)
                    && game.eq_ignore_ascii_case(&p.game)
                    && *gm == p.gm_copy
                    && *g == grey
            }) {
                Some(g) => g.4.push(p.body),
                None => groups.push((p.to, p.game, p.gm_copy, grey, vec![p.body])),
            }
        }
        for (to, game, gm, _, bodies) in groups {
            if gm && to.eq_ignore_ascii_case(&self.sender.from.email) {
                continue;
            }
            let n = bodies.len();
            let subject = match (gm, n) {
                (false, 1) => format!("{game}: press"),
                (true, 1) => format!("{game}: press (GM copy)"),
                (false, n) => format!("{game}: press ({n} messages)"),
                (true, n) => format!("{game}: press (GM copy, {n} messages)"),
            };
            let body = bodies.join("\n\n- - - - - - - - - -\n\n");
            self.out.extend(mail_to(&[to], subject, body));
        }
    }

    /// Tell everybody in `g` (but the mail's author) of a change to a
    /// setting they live by; the changes of one mail go in one notice.
    pub(crate) fn notice_change(&mut self, g: &GameRow, line: &str) {
        self.change_of(g).lines.push(line.to_string());
    }

    /// Tell everybody in `g` (but the mail's author) of the deadline the
    /// GM set, `line`, in the notice of this mail's changes: a later SET
    /// DEADLINE of the same mail replaces it, so that the players read
    /// where it ended.
    pub(crate) fn notice_deadline(&mut self, g: &GameRow, line: &str) {
        self.change_of(g).deadline = Some(line.to_string());
    }

    /// Withdraw the deadline notice of `game` (its phase was played:
    /// the results give the next deadline). Whether there was one.
    pub(crate) fn drop_deadline(&mut self, game: &str) -> bool {
        self.changes
            .iter_mut()
            .find(|c| c.game.name.eq_ignore_ascii_case(game))
            .and_then(|c| c.deadline.take())
            .is_some()
    }

    fn change_of(&mut self, g: &GameRow) -> &mut Change {
        let at = match self
            .changes
            .iter()
            .position(|c| c.game.name.eq_ignore_ascii_case(&g.name))
        {
            Some(i) => i,
            None => {
                self.changes.push(Change {
                    game: g.clone(),
                    deadline: None,
                    lines: Vec::new(),
                });
                self.changes.len() - 1
            }
        };
        &mut self.changes[at]
    }

    /// Note that `game`'s orders or readiness changed: it may go early
    /// once the mail is done.
    pub(crate) fn stir(&mut self, game: &str) {
        if !self.stirred.iter().any(|g| g.eq_ignore_ascii_case(game)) {
            self.stirred.push(game.to_string());
        }
    }

    /// Add a line (or lines) to the reply.
    pub(crate) fn say(&mut self, text: &str) {
        self.reply.push_str(text);
        if !text.ends_with('\n') {
            self.reply.push('\n');
        }
    }
}

/// Every player's, observer's and the GM's address of `g`.
pub(crate) fn everybody(tx: &Tx<'_>, g: &GameRow) -> CmdResult<Vec<String>> {
    let mut to: Vec<String> = games::seats(tx, &g.name)?
        .into_iter()
        .filter_map(|x| x.address)
        .collect();
    to.extend(games::observers(tx, &g.name)?);
    to.push(g.gm_address.clone());
    Ok(to)
}

/// Mail every player, observer and the GM of `g`, but the mail's author.
pub(crate) fn notify_all(
    s: &mut Session<'_, '_>,
    g: &GameRow,
    what: &str,
    body: &str,
) -> CmdResult {
    let mut to = everybody(s.tx, g)?;
    to.retain(|a| !a.eq_ignore_ascii_case(&s.sender.from.email));
    if !to.is_empty() {
        s.out.extend(mail_to(
            &to,
            format!("{}: {what}", g.name),
            body.to_string(),
        ));
    }
    Ok(())
}

impl Session<'_, '_> {
    /// Check `password` for `seat` (see [`crate::trust::signon::check`]),
    /// as this mail's sender.
    pub(crate) fn check_password(&mut self, seat: &SeatLock<'_>, password: &str) -> CmdResult {
        crate::trust::signon::check(
            &mut self.checks,
            &self.sender,
            self.tx,
            self.now,
            seat,
            password,
        )?;
        Ok(())
    }
}
