//! The command language: what turns the adjudicator into a judge.
//!
//! A mail is read line by line (`mailrun`). Command lines (the table in
//! [`registry`], one file per command in `cmd/`) are carried out in order,
//! each in a savepoint of its own so that a refused command leaves nothing
//! half-done; `SIGNON` sets who the following lines speak for; the other
//! lines after a sign-on are orders for that power. Everything a mail does
//! happens in the one transaction the daemon opens for it, and the sender
//! gets one reply saying what each command did and, for orders, the whole
//! order set now held and what is still missing.
//!
//! The clock is passed in: the daemon asks which games are due and then
//! works on each in a transaction of its own (see [`Judge`]'s
//! [`Responder`] methods) to send reminders, open grace periods and
//! adjudicate games whose deadline has passed.

pub(crate) mod auth;
mod cmd;
mod ending;
pub(crate) mod error;
mod foreign;
mod held;
mod later;
mod mailrun;
pub(crate) mod password;
mod play;
pub(crate) mod pressform;
pub(crate) mod registry;
pub(crate) mod submit;
pub(crate) mod variants_kept;
/// Times as the commands show and read them (shared with the web pages).
pub(crate) use crate::time;

use crate::daemon::process::{Responder, Response, reply_to};
use crate::game::Position;
use crate::mail::{Address, Inbound, Outgoing};
use crate::map::PowerId;
use crate::store::games::{self, GameRow};
use crate::store::{Conn, Tx};
use crate::variant::{self, Variant};
use error::{CmdError, CmdResult};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::SystemTime;

/// The judge's command processor.
pub struct Judge {
    /// Variants loaded so far, each once, shared by every mail and game.
    variants: HashMap<String, Arc<Variant>>,
    /// The names of the variants played besides the shipped ones, in the
    /// order they were added.
    added: Vec<String>,
    /// Map layouts for pictures, made once per variant.
    layouts: HashMap<String, Arc<crate::report::picture::geometry::Geometry>>,
    /// The result templates.
    pub templates: crate::report::templates::Templates,
    /// The judge's name, for mail.
    pub name: String,
    /// Time zone for new games.
    pub default_tz: String,
    /// The picture attached to results unless a player chose another.
    pub picture_format: crate::report::PictureFormat,
    /// Pictures drawn lately for mails being sent (see [`Responder::parts`]).
    drawn: play::Drawn,
    /// Where the judge's random choices come from (the tie-breaks of the
    /// powers' assignment, a power for a player who named none).
    chance: Chance,
    /// The copies of variants games play, kept whatever happens to their
    /// files (`variants_kept`).
    pub(crate) kept: variants_kept::Kept,
}

/// Where a judge's random choices come from: the system's random source,
/// or a fixed seed (tests, which replay). Drawn here, at the edge, and
/// passed into the pure core as a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chance {
    /// The operating system's random source.
    System,
    /// A sequence from this seed.
    Seeded(u64),
}

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
    /// The mail's author (`From`): the address registered by CREATE, JOIN,
    /// OBSERVE and SET ADDRESS.
    pub(crate) from: Address,
    /// Where the answer goes (`Reply-To`, else `From`): a mail counts as
    /// coming from a seat's player only when both are the seat's address.
    pub(crate) answer: String,
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
    pub(crate) checks: auth::Checks,
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
    /// Games whose orders or readiness this mail changed: once it is done,
    /// each goes early if it now waits for nobody
    /// ([`Session::settle`]).
    pub(crate) stirred: Vec<String>,
    /// Settings the GM changed that the players live by, per game, told
    /// in one notice when the mail is done ([`Session::notice_change`]).
    pub(crate) changes: Vec<(GameRow, Vec<String>)>,
    /// Pictures attached to the answer (MAP).
    pub(crate) attach: Vec<crate::mail::Attached>,
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
            if gm && to.eq_ignore_ascii_case(&self.from.email) {
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
        match self
            .changes
            .iter_mut()
            .find(|(x, _)| x.name.eq_ignore_ascii_case(&g.name))
        {
            Some((_, lines)) => lines.push(line.to_string()),
            None => self.changes.push((g.clone(), vec![line.to_string()])),
        }
    }

    /// Turn the changes kept by [`Session::notice_change`] into notices,
    /// in the words of `notice-setting.txt`.
    fn changes_told(&mut self, judge: &Judge) -> CmdResult {
        for (g, lines) in std::mem::take(&mut self.changes) {
            let ctx = serde_json::json!({"game": g.name, "judge": judge.name, "changes": lines});
            let (_, body) = judge
                .templates
                .mail("notice-setting.txt", &ctx)
                .map_err(anyhow::Error::from)?;
            self.notice_once(&g, "the GM changed the settings", body);
        }
        Ok(())
    }

    /// Note that `game`'s orders or readiness changed: it may go early
    /// once the mail is done.
    pub(crate) fn stir(&mut self, game: &str) {
        if !self.stirred.iter().any(|g| g.eq_ignore_ascii_case(game)) {
            self.stirred.push(game.to_string());
        }
    }

    /// Process each game this mail stirred that now waits for nobody. Done
    /// once the whole mail is read, so that its later lines (more orders,
    /// SET WAIT) count; each game in a savepoint of its own, so a fault in
    /// one leaves the mail's other work whole.
    pub(crate) fn settle(&mut self, judge: &mut Judge) -> anyhow::Result<()> {
        for game in std::mem::take(&mut self.stirred) {
            self.tx.execute_batch("SAVEPOINT settle")?;
            match play::process_if_all_ready(judge, self, &game) {
                Ok(()) => self.tx.execute_batch("RELEASE settle")?,
                Err(e) => {
                    self.tx
                        .execute_batch("ROLLBACK TO settle; RELEASE settle")?;
                    tracing::error!(game = %game, error = ?e, "cannot process a game whose players are ready");
                }
            }
        }
        Ok(())
    }

    /// Add a line (or lines) to the reply.
    pub(crate) fn say(&mut self, text: &str) {
        self.reply.push_str(text);
        if !text.ends_with('\n') {
            self.reply.push('\n');
        }
    }
}

/// Wrap the lines of a mail body longer than 72 characters, keeping
/// their indentation.
pub(crate) fn fit(body: &str) -> String {
    crate::report::fit72(body)
}

/// A mail to `to` with `subject` and `body`.
///
/// One mail per recipient: players never see each other's addresses.
pub(crate) fn mail_to<S: AsRef<str>>(to: &[S], subject: String, body: String) -> Vec<Outgoing> {
    let mut seen: Vec<String> = Vec::new();
    for t in to {
        let t = t.as_ref();
        if !seen.iter().any(|s| s.eq_ignore_ascii_case(t)) {
            seen.push(t.to_string());
        }
    }
    let body = fit(&body);
    seen.into_iter()
        .map(|email| Outgoing {
            to: vec![Address { name: None, email }],
            subject: subject.clone(),
            body: body.clone(),
            in_reply_to: None,
            references: Vec::new(),
            attachments: Vec::new(),
            later: None,
        })
        .collect()
}

impl Default for Judge {
    fn default() -> Self {
        Self::new("zinejudge", "UTC")
    }
}

impl Judge {
    /// A judge named `name`, with `tz` as the time zone of new games.
    pub fn new(name: &str, tz: &str) -> Judge {
        Judge {
            variants: HashMap::new(),
            added: Vec::new(),
            layouts: HashMap::new(),
            templates: crate::report::templates::Templates::builtin(),
            name: name.to_string(),
            default_tz: tz.to_string(),
            picture_format: crate::report::PictureFormat::default(),
            drawn: play::Drawn::default(),
            chance: Chance::System,
            kept: variants_kept::Kept::default(),
        }
    }

    /// Draw random choices from `chance` (a fixed seed makes a test's
    /// assignment of powers the same every run).
    pub fn with_chance(mut self, chance: Chance) -> Judge {
        self.chance = chance;
        self
    }

    /// A random number for a choice the core makes from it.
    pub(crate) fn draw(&mut self) -> u64 {
        match &mut self.chance {
            Chance::System => {
                let mut b = [0u8; 8];
                match getrandom::fill(&mut b) {
                    Ok(()) => u64::from_le_bytes(b),
                    // No random source: a choice still has to be made; the
                    // clock's nanoseconds are as good as any for a tie.
                    Err(_) => std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.subsec_nanos().into()),
                }
            }
            Chance::Seeded(s) => {
                *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = *s;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            }
        }
    }

    /// Make a variant playable besides the shipped ones (a GM's own file;
    /// the tests' boards).
    pub fn add_variant(&mut self, v: Variant) {
        let key = v.name.to_ascii_lowercase();
        if !self.added.contains(&key) {
            self.added.push(key.clone());
        }
        let v = Arc::new(v);
        self.kept.add_folder(&v);
        self.variants.insert(key, v);
    }

    /// Every variant the judge plays: the shipped ones, then those added.
    pub(crate) fn variant_names(&self) -> Vec<String> {
        let mut names: Vec<String> = variant::BUILTIN
            .iter()
            .map(|(n, _)| (*n).to_string())
            .collect();
        for n in &self.added {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
        names
    }

    /// A variant by name, loaded once and shared.
    pub(crate) fn variant(&mut self, name: &str) -> CmdResult<Arc<Variant>> {
        let key = name.to_ascii_lowercase();
        if let Some(v) = self.variants.get(&key) {
            return Ok(Arc::clone(v));
        }
        // A copy a game keeps (`hundred#<fingerprint>`).
        if let Some(v) = self.kept.get(&key) {
            return Ok(v);
        }
        match variant::builtin(&key) {
            Some(Ok(v)) => {
                let v = Arc::new(v);
                self.variants.insert(key, Arc::clone(&v));
                Ok(v)
            }
            Some(Err(e)) => Err(CmdError::Fault(anyhow::anyhow!(
                "the variant file of {name} is broken: {e}"
            ))),
            None => Err(CmdError::refused(format!(
                "no variant `{name}`; the judge plays: {}",
                self.variant_names().join(", ")
            ))),
        }
    }

    /// The picture of `v`'s map, laid out once per variant.
    pub(crate) fn picture<'v>(&mut self, v: &'v Variant) -> crate::report::picture::Picture<'v> {
        let layout = self
            .layouts
            .entry(v.key())
            .or_insert_with(|| Arc::new(crate::report::picture::Picture::layout(v)));
        crate::report::picture::Picture::with_geometry(v, Arc::clone(layout))
    }

    /// A game's variant and current position.
    pub(crate) fn board(&mut self, g: &GameRow) -> CmdResult<(Arc<Variant>, Position)> {
        let v = self.variant(&g.variant)?;
        let pos = position(&v, g)?;
        Ok((v, pos))
    }
}

/// The orders `power` holds and what is missing, as the reply to orders
/// shows them (for the welcome of a new player).
pub(crate) fn submit_show(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    game: &str,
    power: PowerId,
) -> CmdResult {
    held::show_orders(judge, s, game, power)
}

/// `d` in UTC, for a game whose zone `tz` is not at UTC then (so nobody
/// need convert); `None` where the zone's time is UTC's (London in
/// winter, though it says GMT).
pub(crate) fn utc_too(d: i64, tz: &str) -> Option<String> {
    let offset = jiff::Timestamp::from_second(d)
        .map(|t| t.to_zoned(time::zone(tz)).offset().seconds())
        .unwrap_or(0);
    (offset != 0).then(|| time::show(d, "UTC"))
}

/// Load a game or say there is none.
pub(crate) fn load(c: &Conn, name: &str) -> CmdResult<GameRow> {
    games::load(c, name)?.ok_or_else(|| {
        CmdError::refused(format!(
            "there is no game called {} (LIST shows the games)",
            crate::mail::header_text(name, 40)
        ))
    })
}

/// A game's current position. A stored position that cannot be read is a
/// fault of the judge, not of the player.
pub(crate) fn position(v: &Variant, g: &GameRow) -> CmdResult<Position> {
    Position::from_toml(v, &g.position).map_err(|e| {
        CmdError::Fault(anyhow::anyhow!(
            "the stored position of {} is broken: {e}",
            g.name
        ))
    })
}

/// The stored form of `pos`, checked to read back as itself: a position the
/// judge could not read again would jam the game, so it is a fault (logged;
/// the game stays where it was) rather than stored.
pub(crate) fn stored(v: &Variant, pos: &Position) -> CmdResult<String> {
    pos.stored(v).map_err(|e| {
        CmdError::Fault(anyhow::anyhow!(
            "{} produced a position the judge cannot store: {e}",
            v.title
        ))
    })
}

/// Each power's letter, in power order, as njudge gives them (`SIGNON
/// Fgame`, `PRESS TO FRG`, `SET CONCEDE F`): the first letter of its name
/// (a leading "The" aside), or when another power has it already, the next
/// letter of the name that is free. `M` and `O` are never a power's: they
/// are the GM's and the observers' (`SIGNON Mgame`, `PRESS TO M`). The
/// standard powers get A E F G I R T; 1066's Harold Godwinson, whose H is
/// Harald Hardrada's, gets A.
pub(crate) fn power_letters(v: &Variant) -> Vec<char> {
    let mut taken: Vec<char> = Vec::new();
    for p in v.map.power_ids() {
        let name = &v.map.power(p).name;
        let bare = name
            .strip_prefix("The ")
            .or_else(|| name.strip_prefix("the "))
            .unwrap_or(name);
        let letter = bare
            .chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_uppercase())
            .find(|c| !matches!(c, 'M' | 'O') && !taken.contains(c))
            .unwrap_or('?');
        taken.push(letter);
    }
    taken
}

/// A power by name, adjective, alias or letter ([`power_letters`]).
pub(crate) fn find_power(v: &Variant, name: &str) -> CmdResult<PowerId> {
    if let Some(p) = v.map.lookup_power(name) {
        return Ok(p);
    }
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        let c = c.to_ascii_uppercase();
        if let Some(i) = power_letters(v).iter().position(|l| *l == c) {
            return Ok(PowerId(i as u8));
        }
    }
    Err(CmdError::refused(format!(
        "no power `{}` in this game",
        crate::mail::header_text(name, 40)
    )))
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
    to.retain(|a| !a.eq_ignore_ascii_case(&s.from.email));
    if !to.is_empty() {
        s.out.extend(mail_to(
            &to,
            format!("{}: {what}", g.name),
            body.to_string(),
        ));
    }
    Ok(())
}

impl Responder for Judge {
    fn respond(
        &mut self,
        tx: &Tx<'_>,
        mail: &Inbound,
        now: SystemTime,
    ) -> anyhow::Result<Response> {
        let (Some(from), Some(answer)) = (mail.from.clone(), mail.reply_to.clone()) else {
            return Ok(Response::new(Vec::new(), "no sender"));
        };
        let t = crate::daemon::process::unix(now);
        // The judge's own mail sent back whole (an echoing robot): never
        // answered, so a ping-pong ends at once.
        if mailrun::is_judges_own(&mail.text) {
            return Ok(Response::new(
                Vec::new(),
                "ignored: the judge's own mail come back",
            ));
        }
        // A mail that would register an address that has not confirmed is
        // held whole, and the address asked (see `cmd::confirm`).
        match cmd::confirm::hold(self, tx, mail, t) {
            Ok(Some(held)) => return Ok(held),
            Ok(None) => {}
            Err(error::CmdError::Fault(e)) => return Err(e),
            Err(error::CmdError::Refused(why)) => return Err(anyhow::anyhow!(why)),
        }
        // Replying to a request confirms: its Subject carries the code.
        let confirming;
        let mail = match cmd::confirm::code_in_subject(&mail.subject) {
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
        let mut told = variants_kept::settle(self, tx, t)?;
        let mut s = Session {
            tx,
            now: t,
            from,
            answer: answer.email.clone(),
            ctx: Ctx::None,
            reply: String::new(),
            out: Vec::new(),
            did_something: false,
            checks: auth::Checks::default(),
            press: None,
            notices: Vec::new(),
            press_out: Vec::new(),
            phase_ahead: None,
            stirred: Vec::new(),
            changes: Vec::new(),
            attach: Vec::new(),
        };
        let mut read = mailrun::run(self, &mut s, mail)?;
        let mark = s.reply.len();
        s.settle(self)?;
        if s.reply.len() > mark {
            let said = s.reply.split_off(mark);
            read.reply = format!("{}\n\n{}", read.reply.trim_end(), said.trim_end());
        }
        s.send_press();
        s.changes_told(self)?;
        s.send_notices()?;
        auth::tell_owners(&mut s)?;
        let mut reply = reply_to(
            mail,
            &answer,
            fit(&format!("{}\n-- \n{}\n", read.reply.trim_end(), self.name)),
        );
        reply.subject = mailrun::mask(&reply.subject, &read.secrets);
        reply.attachments = std::mem::take(&mut s.attach);
        let mut replies = vec![reply];
        replies.append(&mut s.out);
        replies.append(&mut told);
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
        let warming = auth::warm(&seats);
        (!warming.is_empty()).then(|| Box::new(move || warming.wait()) as _)
    }

    fn due(&mut self, conn: &Conn, now: SystemTime) -> anyhow::Result<Vec<String>> {
        // Games whose variant file changed are settled first.
        let due = play::due(conn, crate::daemon::process::unix(now))?;
        variants_kept::due(self, conn, due)
    }

    fn tick(&mut self, tx: &Tx<'_>, key: &str, now: SystemTime) -> anyhow::Result<Vec<Outgoing>> {
        let t = crate::daemon::process::unix(now);
        variants_kept::tick(self, tx, key, t, |judge| play::tick_game(judge, tx, key, t))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_is_loaded_once_and_shared() {
        let mut judge = Judge::default();
        let a = judge.variant("standard").expect("standard");
        let b = judge.variant("Standard").expect("standard again");
        assert!(
            Arc::ptr_eq(&a, &b),
            "the second game shares the first's variant"
        );
        assert!(matches!(judge.variant("nosuch"), Err(CmdError::Refused(_))));
    }
}
