//! The command language: what turns the adjudicator into a judge.
//!
//! A mail is read line by line. Command lines ([`table::COMMANDS`]) are
//! carried out in order; `SIGNON` sets who the following lines speak for;
//! the other lines after a sign-on are orders for that power. Everything a
//! mail does happens in the one transaction the daemon opens for it, and the
//! sender gets one reply saying what each command did and, for orders, the
//! whole order set now held and what is still missing.
//!
//! The clock is passed in: [`Judge::tick`] is called by the daemon every few
//! seconds to send reminders, open grace periods and adjudicate games whose
//! deadline has passed.

pub mod parse;
pub mod password;
mod play;
mod submit;
pub mod table;
pub mod time;

use crate::daemon::process::{Responder, Response, reply_to};
use crate::game::Position;
use crate::game::record::{Nmr, Press, SeatStatus, Settings, Status, Style};
use crate::mail::{Address, Inbound, Outgoing};
use crate::map::PowerId;
use crate::store::games::{self, GameRow, Rate};
use crate::variant::{self, Variant};
use parse::{Command, Edit, PressTo};
use rusqlite::Transaction;
use std::collections::HashMap;
use std::fmt::Write;
use std::time::SystemTime;

/// Mails an address may send in an hour before the judge stops answering.
const RATE_MAX: i64 = 60;
const RATE_WINDOW: i64 = 3600;

/// The judge's command processor.
pub struct Judge {
    variants: HashMap<String, Variant>,
    /// The result templates.
    pub templates: crate::report::templates::Templates,
    /// The judge's name, for mail.
    pub name: String,
    /// Time zone for new games.
    pub default_tz: String,
}

/// Who the lines of a mail speak for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ctx {
    None,
    Power { game: String, power: PowerId },
    Gm { game: String },
}

/// Work done while reading one mail.
pub(crate) struct Session<'a, 't> {
    pub(crate) tx: &'a Transaction<'t>,
    pub(crate) now: i64,
    sender: Address,
    ctx: Ctx,
    /// The reply, section by section.
    reply: String,
    /// Other mails (press, notices, results).
    pub(crate) out: Vec<Outgoing>,
    did_something: bool,
}

impl Session<'_, '_> {
    fn say(&mut self, text: &str) {
        self.reply.push_str(text);
        if !text.ends_with('\n') {
            self.reply.push('\n');
        }
    }
}

/// Wrap the lines of a mail body longer than 72 characters, keeping
/// their indentation.
pub(crate) fn fit(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    for line in body.lines() {
        if line.chars().count() <= 72 {
            out.push_str(line);
            out.push('\n');
        } else {
            let lead: String = line.chars().take_while(|c| *c == ' ').collect();
            out.push_str(&crate::report::wrap(line, 72, &format!("{lead}  ")));
        }
    }
    out
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
            templates: crate::report::templates::Templates::builtin(),
            name: name.to_string(),
            default_tz: tz.to_string(),
        }
    }

    /// Make a variant playable besides the shipped ones (a GM's own file;
    /// the tests' boards).
    pub fn add_variant(&mut self, v: Variant) {
        self.variants.insert(v.name.to_ascii_lowercase(), v);
    }

    /// A shipped variant, loaded once.
    pub(crate) fn variant(&mut self, name: &str) -> Result<&Variant, String> {
        let key = name.to_ascii_lowercase();
        if !self.variants.contains_key(&key) {
            match variant::builtin(&key) {
                Some(Ok(v)) => {
                    self.variants.insert(key.clone(), v);
                }
                Some(Err(e)) => return Err(format!("the variant file of {name} is broken: {e}")),
                None => {
                    return Err(format!(
                        "no variant `{name}`; the judge plays: {}",
                        variant::BUILTIN
                            .iter()
                            .map(|(n, _)| *n)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
        Ok(&self.variants[&key])
    }

    /// Send reminders, open grace periods and adjudicate games whose time
    /// has come. Returns the mails to send.
    pub fn tick(&mut self, tx: &Transaction<'_>, now: SystemTime) -> anyhow::Result<Vec<Outgoing>> {
        let now = crate::daemon::process::unix(now);
        play::tick(self, tx, now)
    }

    fn run_mail(&mut self, s: &mut Session<'_, '_>, mail: &Inbound) -> anyhow::Result<()> {
        let lines = clean_lines(&mail.text);
        let mut pending: Vec<(usize, String)> = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let (n, line) = &lines[i];
            let trimmed = line.trim();
            if parse::command_name(trimmed).is_none() {
                pending.push((*n, line.clone()));
                i += 1;
                continue;
            }
            self.flush_orders(s, &mut pending)?;
            let mut cmd = parse::parse(trimmed);
            // Press runs to ENDPRESS.
            if let Ok(Command::Press { text, .. }) = &mut cmd {
                let mut j = i + 1;
                while j < lines.len() && !lines[j].1.trim().eq_ignore_ascii_case("endpress") {
                    text.push_str(&lines[j].1);
                    text.push('\n');
                    j += 1;
                }
                i = j;
            }
            let _ = writeln!(s.reply, "> {}", parse::redact(trimmed));
            s.did_something = true;
            match cmd {
                Ok(c) => {
                    if let Err(e) = self.exec(s, c) {
                        s.say(&format!("  Not done: {e}"));
                    }
                }
                Err(e) => s.say(&format!(
                    "  Not understood: {e}. Send HELP for the commands."
                )),
            }
            s.reply.push('\n');
            i += 1;
        }
        self.flush_orders(s, &mut pending)?;
        if !s.did_something {
            s.say(
                "The judge found no commands or orders in your mail.\n\
                 Send HELP for the list of commands; orders need a SIGNON line first.",
            );
        }
        Ok(())
    }

    /// Orders written since the last command, for whoever is signed on.
    fn flush_orders(
        &mut self,
        s: &mut Session<'_, '_>,
        pending: &mut Vec<(usize, String)>,
    ) -> anyhow::Result<()> {
        if pending.iter().all(|(_, l)| l.trim().is_empty()) {
            pending.clear();
            return Ok(());
        }
        let block = std::mem::take(pending);
        match s.ctx.clone() {
            Ctx::Power { game, power } => {
                let r = submit::orders(self, s, &game, power, &block)?;
                if r {
                    s.did_something = true;
                }
            }
            Ctx::Gm { .. } | Ctx::None => {
                // Orders without a power: say so, if there were any.
                let std = self.variant("standard").map_err(anyhow::Error::msg)?;
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
                    s.say(&format!(
                        "{who} (SIGNON power game password). These lines were not taken:"
                    ));
                    for f in found {
                        let _ = writeln!(s.reply, "  line {}: {}", block[f.line - 1].0, f.text);
                    }
                    s.reply.push('\n');
                }
            }
        }
        Ok(())
    }

    /// The game and variant the session is signed on to.
    fn signed_game(&self, s: &Session<'_, '_>) -> Option<String> {
        match &s.ctx {
            Ctx::Power { game, .. } | Ctx::Gm { game } => Some(game.clone()),
            Ctx::None => None,
        }
    }

    fn exec(&mut self, s: &mut Session<'_, '_>, c: Command) -> Result<(), String> {
        match c {
            Command::Help => {
                s.say(&table::help_text());
                Ok(())
            }
            Command::Variants => {
                let mut t = String::from("The judge plays:\n");
                for (n, _) in variant::BUILTIN {
                    let title = self.variant(n).map(|v| v.title.clone()).unwrap_or_default();
                    let _ = writeln!(t, "  {n:<14} {title}");
                }
                s.say(&t);
                Ok(())
            }
            Command::List(None) => self.list_all(s),
            Command::List(Some(g)) => self.list_one(s, &g),
            Command::History { game, range } => self.history(s, &game, &range),
            Command::Summary(game) => self.summary(s, &game),
            Command::Observe { game, on } => {
                let g = load(s, &game)?;
                games::set_observer(s.tx, &g.name, &s.sender.email, on).map_err(store_err)?;
                s.say(if on {
                    "  You will receive this game's results."
                } else {
                    "  You will no longer receive this game's results."
                });
                Ok(())
            }
            Command::Create {
                game,
                variant,
                password,
                with,
            } => self.create(s, &game, &variant, &password, &with),
            Command::Join {
                game,
                password,
                prefs,
            } => self.join(s, &game, &password, &prefs),
            Command::SignOn {
                power,
                game,
                password,
            } => self.signon(s, power.as_deref(), &game, &password),
            Command::SignOff => {
                s.ctx = Ctx::None;
                s.say("  Signed off.");
                Ok(())
            }
            Command::Clear => {
                let (game, power) = self.need_power(s)?;
                games::set_orders(s.tx, &game, power.0, &[]).map_err(store_err)?;
                s.say("  All your orders for this phase are withdrawn.");
                submit::show_orders(self, s, &game, power).map_err(|e| e.to_string())
            }
            Command::Ready(on) => {
                let (game, power) = self.need_power(s)?;
                let mut seats = games::seats(s.tx, &game).map_err(store_err)?;
                let seat = &mut seats[power.index()];
                seat.ready = on;
                games::save_seat(s.tx, &game, seat).map_err(store_err)?;
                s.say(if on {
                    "  Ready: the phase is processed as soon as every player is ready."
                } else {
                    "  Not ready."
                });
                if on {
                    play::process_if_all_ready(self, s, &game).map_err(|e| e.to_string())?;
                }
                Ok(())
            }
            Command::Nominate(centre) => self.nominate(s, &centre),
            Command::Exchange(text) => self.exchange(s, &text),
            Command::Permit(other, on) => self.permit(s, &other, on),
            Command::Press { to, grey, text } => self.press(s, to, grey, &text),
            Command::Draw(on) => self.vote(s, Some(on), None),
            Command::Concede(p) => self.vote(s, None, Some(p)),
            Command::Resign => {
                let (game, power) = self.need_power(s)?;
                let g = load(s, &game)?;
                let v = self.variant(&g.variant)?.clone();
                let mut seats = games::seats(s.tx, &game).map_err(store_err)?;
                let seat = &mut seats[power.index()];
                seat.status = SeatStatus::Abandoned;
                seat.address = None;
                seat.hash = None;
                seat.ready = false;
                games::save_seat(s.tx, &game, seat).map_err(store_err)?;
                s.ctx = Ctx::None;
                s.say(&format!(
                    "  You have resigned {} in {game}.",
                    v.map.power(power).name
                ));
                s.out.extend(mail_to(
                    &[&g.gm_address],
                    format!("{game}: {} resigned", v.map.power(power).name),
                    format!(
                        "The player of {} in {game} resigned. Use REPLACE {} address to seat a new player.\n",
                        v.map.power(power).name,
                        v.map.power(power).name
                    ),
                ));
                Ok(())
            }
            Command::Set { key, value } => self.set(s, key, &value),
            Command::Start => {
                let game = self.need_gm(s)?;
                let mut g = load(s, &game)?;
                if g.status != Status::Forming {
                    return Err(format!("{game} has already started"));
                }
                self.start_game(s, &mut g)
            }
            Command::Pause => {
                let game = self.need_gm(s)?;
                let mut g = load(s, &game)?;
                if g.status != Status::Active {
                    return Err(format!("{game} is not running"));
                }
                g.status = Status::Paused;
                g.deadline = None;
                games::save(s.tx, &g).map_err(store_err)?;
                s.say("  Paused: the clock is stopped until RESUME.");
                self.notify_all(
                    s,
                    &g,
                    "paused",
                    "The GM has paused the game; the deadline is off.\n",
                )
            }
            Command::Resume => {
                let game = self.need_gm(s)?;
                let mut g = load(s, &game)?;
                if g.status != Status::Paused {
                    return Err(format!("{game} is not paused"));
                }
                g.status = Status::Active;
                let v = self.variant(&g.variant)?.clone();
                let pos = position(&v, &g)?;
                g.deadline = Some(play::next_deadline(&g.settings, pos.phase.kind, s.now));
                g.reminded = false;
                g.grace_noticed = false;
                games::save(s.tx, &g).map_err(store_err)?;
                let d = time::show(g.deadline.unwrap_or(s.now), &g.settings.timezone);
                s.say(&format!("  Resumed; the deadline is {d}."));
                self.notify_all(
                    s,
                    &g,
                    "resumed",
                    &format!("The game is running again. Deadline: {d}.\n"),
                )
            }
            Command::Process => {
                let game = self.need_gm(s)?;
                let g = load(s, &game)?;
                if g.status != Status::Active && g.status != Status::Paused {
                    return Err(format!("{game} is not running"));
                }
                play::process(self, s.tx, &game, s.now, &mut s.out).map_err(|e| e.to_string())?;
                s.say("  Processed; the results are on their way to everyone.");
                Ok(())
            }
            Command::Preview => {
                let game = self.need_gm(s)?;
                let text = play::preview(self, s.tx, &game, s.now).map_err(|e| e.to_string())?;
                s.say("  A preview with the current orders (nothing was changed; only you get this):\n");
                s.say(&text);
                Ok(())
            }
            Command::Rollback(phase) => {
                let game = self.need_gm(s)?;
                play::rollback(self, s, &game, phase.as_deref())
            }
            Command::Eject(p) => {
                let game = self.need_gm(s)?;
                self.eject(s, &game, &p)
            }
            Command::Replace { power, address } => {
                let game = self.need_gm(s)?;
                self.replace(s, &game, &power, &address)
            }
            Command::Edit(e) => {
                let game = self.need_gm(s)?;
                self.edit(s, &game, e)
            }
            Command::End { winner } => {
                let game = self.need_gm(s)?;
                let mut g = load(s, &game)?;
                let v = self.variant(&g.variant)?.clone();
                let result = match winner {
                    None => "ended in a draw by the GM".to_string(),
                    Some(w) => {
                        let p = find_power(&v, &w)?;
                        format!("won by {} (declared by the GM)", v.map.power(p).name)
                    }
                };
                g.status = Status::Finished;
                g.deadline = None;
                g.result = Some(result.clone());
                games::save(s.tx, &g).map_err(store_err)?;
                s.say(&format!("  {game} is over: {result}."));
                self.notify_all(
                    s,
                    &g,
                    "game over",
                    &format!("The game is over: {result}.\n"),
                )
            }
        }
    }

    fn need_power(&self, s: &Session<'_, '_>) -> Result<(String, PowerId), String> {
        match &s.ctx {
            Ctx::Power { game, power } => Ok((game.clone(), *power)),
            _ => Err("sign on as a power first (SIGNON power game password)".into()),
        }
    }

    fn need_gm(&self, s: &Session<'_, '_>) -> Result<String, String> {
        match &s.ctx {
            Ctx::Gm { game } => Ok(game.clone()),
            _ => Err("only the GM may do that; sign on with SIGNON GM game password".into()),
        }
    }

    fn list_all(&mut self, s: &mut Session<'_, '_>) -> Result<(), String> {
        let all = games::list(s.tx).map_err(store_err)?;
        if all.is_empty() {
            s.say("  No games yet. CREATE one: CREATE name variant password.");
            return Ok(());
        }
        let mut t = String::new();
        for g in all {
            let v = match self.variant(&g.variant) {
                Ok(v) => v.clone(),
                Err(_) => continue,
            };
            let phase = position(&v, &g)
                .map(|p| v.calendar.label(p.phase))
                .unwrap_or_default();
            let seats = games::seats(s.tx, &g.name).map_err(store_err)?;
            let open: Vec<&str> = seats
                .iter()
                .filter(|x| matches!(x.status, SeatStatus::Open | SeatStatus::Abandoned))
                .map(|x| v.map.power(PowerId(x.power)).name.as_str())
                .collect();
            let _ = writeln!(
                t,
                "  {} ({}), {}: {}",
                g.name,
                g.variant,
                g.status.as_str(),
                phase
            );
            if let Some(d) = g.deadline {
                let _ = writeln!(t, "      deadline {}", time::show(d, &g.settings.timezone));
            }
            if let Some(r) = &g.result {
                let _ = writeln!(t, "      {r}");
            }
            if !open.is_empty() && g.status != Status::Finished {
                t.push_str(&crate::report::wrap(
                    &format!("      open: {}", open.join(", ")),
                    72,
                    "        ",
                ));
            }
        }
        s.say(&t);
        Ok(())
    }

    fn list_one(&mut self, s: &mut Session<'_, '_>, name: &str) -> Result<(), String> {
        let g = load(s, name)?;
        let v = self.variant(&g.variant)?.clone();
        let pos = position(&v, &g)?;
        let seats = games::seats(s.tx, &g.name).map_err(store_err)?;
        let mut t = format!("  {} ({}), {}\n", g.name, v.title, g.status.as_str());
        let _ = writeln!(t, "  Phase: {}", v.calendar.label(pos.phase));
        if let Some(d) = g.deadline {
            let _ = writeln!(t, "  Deadline: {}", time::show(d, &g.settings.timezone));
        }
        if let Some(r) = &g.result {
            let _ = writeln!(t, "  Result: {r}");
        }
        let set = &g.settings;
        let _ = writeln!(
            t,
            "  Settings: movement {}h, retreats/adjustments {}h, grace {}h,",
            set.movement_hours, set.short_hours, set.grace_hours
        );
        let _ = writeln!(
            t,
            "    reminder {}h, NMR {}, press {}, style {}, time zone {}",
            set.reminder_hours,
            match set.nmr {
                Nmr::Hold => "hold",
                Nmr::CivilDisorder => "civil disorder",
            },
            match set.press {
                Press::White => "white",
                Press::Grey => "grey",
                Press::None => "none",
            },
            match set.style {
                Style::Zine => "zine",
                Style::Judge => "judge",
            },
            set.timezone
        );
        let counts = pos.centre_counts(&v.map);
        let _ = writeln!(t, "  Powers:");
        for seat in &seats {
            let p = PowerId(seat.power);
            let units = pos.units.iter().filter(|u| u.power == p).count();
            let _ = writeln!(
                t,
                "    {:<16} {:<10} centres {:>2}, units {:>2}",
                v.map.power(p).name,
                seat.status.as_str(),
                counts[p.index()],
                units
            );
        }
        s.say(&t);
        Ok(())
    }

    fn history(
        &mut self,
        s: &mut Session<'_, '_>,
        name: &str,
        range: &[String],
    ) -> Result<(), String> {
        let g = load(s, name)?;
        let rows = games::history(s.tx, &g.name).map_err(store_err)?;
        let played: Vec<_> = rows.iter().filter(|r| r.kind == "phase").collect();
        if played.is_empty() {
            s.say("  No phase has been played yet.");
            return Ok(());
        }
        let pos_of = |label: &str| {
            played
                .iter()
                .position(|r| r.phase.eq_ignore_ascii_case(label))
        };
        let (from, to) = match range {
            [] => (0, played.len() - 1),
            [one] => {
                let i = pos_of(one).ok_or_else(|| {
                    format!("no phase {one} in the history (phases look like S1901M)")
                })?;
                (i, i)
            }
            [a, b, ..] => {
                let i = pos_of(a).ok_or_else(|| format!("no phase {a} in the history"))?;
                let j = pos_of(b).ok_or_else(|| format!("no phase {b} in the history"))?;
                (i.min(j), i.max(j))
            }
        };
        let mut body = String::new();
        for r in &played[from..=to] {
            body.push_str(&r.report);
            body.push_str("\n\n");
        }
        s.out.extend(mail_to(
            &[&s.sender.email],
            format!(
                "{}: history {} to {}",
                g.name, played[from].phase, played[to].phase
            ),
            body,
        ));
        s.say(&format!(
            "  The results of {} phase(s) are mailed to you separately.",
            to - from + 1
        ));
        Ok(())
    }

    fn summary(&mut self, s: &mut Session<'_, '_>, name: &str) -> Result<(), String> {
        let g = load(s, name)?;
        let v = self.variant(&g.variant)?.clone();
        let rows = games::history(s.tx, &g.name).map_err(store_err)?;
        let mut t = String::from("  Supply centres at each adjustment:\n");
        let names: Vec<String> = v
            .map
            .powers()
            .iter()
            .map(|p| p.name.chars().take(3).collect())
            .collect();
        let _ = writeln!(
            t,
            "  {:<16} {}",
            "",
            names.iter().map(|n| format!("{n:>4}")).collect::<String>()
        );
        let mut add = |label: String, pos: &Position| {
            let c = pos.centre_counts(&v.map);
            let _ = writeln!(
                t,
                "  {label:<16} {}",
                c.iter().map(|n| format!("{n:>4}")).collect::<String>()
            );
        };
        for r in rows.iter().filter(|r| r.kind == "phase") {
            if let Ok(p) = Position::from_toml(&v, &r.position)
                && matches!(p.phase.kind, crate::variant::PhaseKind::Adjustment)
            {
                add(v.calendar.season_year(p.phase), &p);
            }
        }
        let now = position(&v, &g)?;
        add(format!("now ({})", v.calendar.short(now.phase)), &now);
        s.say(&t);
        Ok(())
    }

    fn create(
        &mut self,
        s: &mut Session<'_, '_>,
        game: &str,
        variant: &str,
        pw: &str,
        with: &[String],
    ) -> Result<(), String> {
        if !game
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            || game.len() > 32
        {
            return Err("a game name is letters, digits, - and _ only (32 at most)".into());
        }
        let v = self.variant(variant)?.clone();
        let hash = password::hash(pw)?;
        let mut pos = Position::initial(&v);
        // Optional powers play only when asked for.
        let mut chosen = Vec::new();
        for w in with {
            let p = find_power(&v, w)?;
            if !v.map.power(p).optional {
                return Err(format!(
                    "{} always plays in {}; WITH is for optional powers",
                    v.map.power(p).name,
                    v.title
                ));
            }
            chosen.push(p);
        }
        let left_out: Vec<PowerId> = v
            .map
            .power_ids()
            .filter(|p| v.map.power(*p).optional && !chosen.contains(p))
            .collect();
        for &p in &left_out {
            pos.leave_out(p);
        }
        let row = GameRow {
            name: game.to_string(),
            variant: v.name.clone(),
            gm_address: s.sender.email.clone(),
            gm_hash: hash,
            status: Status::Forming,
            settings: Settings {
                timezone: self.default_tz.clone(),
                ..Settings::default()
            },
            position: pos.to_toml(&v),
            deadline: None,
            reminded: false,
            grace_noticed: false,
            result: None,
            created_at: s.now,
        };
        if !games::create(s.tx, &row, v.map.powers().len()).map_err(store_err)? {
            return Err(format!("a game called {game} already exists"));
        }
        let mut seats = games::seats(s.tx, game).map_err(store_err)?;
        for &p in &left_out {
            if let Some(seat) = seats.get_mut(p.index()) {
                seat.status = SeatStatus::Eliminated;
                games::save_seat(s.tx, game, seat).map_err(store_err)?;
            }
        }
        s.ctx = Ctx::Gm {
            game: game.to_string(),
        };
        s.say(&format!(
            "  Created {game} ({}); you are its GM and signed on.\n  \
             Players JOIN {game} password [powers]; the game starts when\n  \
             every power is taken, or when you START it.",
            v.title
        ));
        for p in v.map.power_ids().filter(|p| v.map.power(*p).optional) {
            s.say(&format!(
                "  {} {} this game{}.",
                v.map.power(p).name,
                if left_out.contains(&p) {
                    "are not in"
                } else {
                    "play in"
                },
                if left_out.contains(&p) {
                    format!(
                        " (CREATE {game} {} password WITH {} to have them)",
                        v.name,
                        v.map.power(p).name
                    )
                } else {
                    String::new()
                }
            ));
        }
        Ok(())
    }

    fn join(
        &mut self,
        s: &mut Session<'_, '_>,
        game: &str,
        pw: &str,
        prefs: &[String],
    ) -> Result<(), String> {
        let mut g = load(s, game)?;
        if g.status != Status::Forming {
            return Err(format!(
                "{} is not taking players (REPLACE is up to the GM)",
                g.name
            ));
        }
        let v = self.variant(&g.variant)?.clone();
        let mut seats = games::seats(s.tx, &g.name).map_err(store_err)?;
        if seats.iter().any(|x| {
            x.address
                .as_deref()
                .is_some_and(|a| a.eq_ignore_ascii_case(&s.sender.email))
        }) {
            return Err(format!("you already play in {}", g.name));
        }
        let free: Vec<usize> = seats
            .iter()
            .enumerate()
            .filter(|(_, x)| x.status == SeatStatus::Open)
            .map(|(i, _)| i)
            .collect();
        if free.is_empty() {
            return Err(format!("{} is full", g.name));
        }
        let mut pick = None;
        for p in prefs {
            match find_power(&v, p) {
                Ok(pw) if free.contains(&pw.index()) => {
                    pick = Some(pw.index());
                    break;
                }
                Ok(_) => {}
                Err(e) => s.say(&format!("  ({e}; ignored)")),
            }
        }
        let i = pick.unwrap_or_else(|| free[fastrand::usize(..free.len())]);
        let seat = &mut seats[i];
        seat.address = Some(s.sender.email.clone());
        seat.hash = Some(password::hash(pw)?);
        seat.status = SeatStatus::Playing;
        seat.failures = 0;
        games::save_seat(s.tx, &g.name, seat).map_err(store_err)?;
        let power = PowerId(i as u8);
        s.ctx = Ctx::Power {
            game: g.name.clone(),
            power,
        };
        s.say(&format!(
            "  You play {} in {}; you are signed on. Sign on later with\n  SIGNON {} {} password",
            v.map.power(power).name,
            g.name,
            v.map.power(power).name,
            g.name
        ));
        s.out.extend(mail_to(
            &[&g.gm_address],
            format!("{}: {} taken", g.name, v.map.power(power).name),
            format!(
                "{} joined {} as {}.\n",
                s.sender.email,
                g.name,
                v.map.power(power).name
            ),
        ));
        if seats.iter().all(|x| x.status == SeatStatus::Playing) {
            self.start_game(s, &mut g)?;
        }
        Ok(())
    }

    fn start_game(&mut self, s: &mut Session<'_, '_>, g: &mut GameRow) -> Result<(), String> {
        let v = self.variant(&g.variant)?.clone();
        let pos = position(&v, g)?;
        g.status = Status::Active;
        g.deadline = Some(play::next_deadline(&g.settings, pos.phase.kind, s.now));
        g.reminded = false;
        g.grace_noticed = false;
        games::save(s.tx, g).map_err(store_err)?;
        let d = time::show(g.deadline.unwrap_or(s.now), &g.settings.timezone);
        s.say(&format!(
            "  {} has started: {}.\n  Deadline: {d}.",
            g.name,
            v.calendar.label(pos.phase)
        ));
        let seats = games::seats(s.tx, &g.name).map_err(store_err)?;
        let mut body = format!("{} ({}) has started.\n\nPowers:\n", g.name, v.title);
        for seat in &seats {
            let _ = writeln!(
                body,
                "  {:<16} {}",
                v.map.power(PowerId(seat.power)).name,
                if seat.status == SeatStatus::Playing {
                    "taken"
                } else {
                    "civil disorder"
                }
            );
        }
        let _ = writeln!(
            body,
            "\nFirst phase: {}, deadline {d}.",
            v.calendar.label(pos.phase)
        );
        self.notify_all(s, g, "the game starts", &body)
    }

    fn signon(
        &mut self,
        s: &mut Session<'_, '_>,
        power: Option<&str>,
        game: &str,
        pw: &str,
    ) -> Result<(), String> {
        // One answer for every failure, so that nobody learns which part
        // was wrong.
        let fail = "sign-on failed: the game, power or password is not right";
        let Some(g) = games::load(s.tx, game).map_err(store_err)? else {
            s.ctx = Ctx::None;
            return Err(fail.into());
        };
        let v = self.variant(&g.variant)?.clone();
        match power {
            None => {
                if !password::verify(pw, &g.gm_hash) {
                    s.ctx = Ctx::None;
                    return Err(fail.into());
                }
                s.ctx = Ctx::Gm {
                    game: g.name.clone(),
                };
                s.say(&format!("  Signed on as the GM of {}.", g.name));
                Ok(())
            }
            Some(p) => {
                let Ok(pid) = find_power(&v, p) else {
                    s.ctx = Ctx::None;
                    return Err(fail.into());
                };
                let mut seats = games::seats(s.tx, &g.name).map_err(store_err)?;
                let seat = &mut seats[pid.index()];
                let ok = seat
                    .hash
                    .as_deref()
                    .is_some_and(|h| password::verify(pw, h));
                if !ok {
                    s.ctx = Ctx::None;
                    if seat.address.is_some() {
                        seat.failures += 1;
                        games::save_seat(s.tx, &g.name, seat).map_err(store_err)?;
                        if seat.failures == 3
                            && let Some(a) = &seat.address
                        {
                            s.out.extend(mail_to(
                                &[a.as_str()],
                                format!("{}: failed sign-ons as {}", g.name, v.map.power(pid).name),
                                format!(
                                    "Someone (mail from {}) has failed three times to sign on as {} in {} with a wrong password.\n\
                                     If it was not you, you may want to SET PASSWORD.\n",
                                    s.sender.email,
                                    v.map.power(pid).name,
                                    g.name
                                ),
                            ));
                        }
                    }
                    return Err(fail.into());
                }
                if seat.failures > 0 {
                    seat.failures = 0;
                    games::save_seat(s.tx, &g.name, seat).map_err(store_err)?;
                }
                s.ctx = Ctx::Power {
                    game: g.name.clone(),
                    power: pid,
                };
                let pos = position(&v, &g)?;
                let deadline = g.deadline.map_or(String::new(), |d| {
                    format!(", deadline {}", time::show(d, &g.settings.timezone))
                });
                s.say(&format!(
                    "  Signed on as {} in {} ({}{deadline}).",
                    v.map.power(pid).name,
                    g.name,
                    v.calendar.label(pos.phase)
                ));
                Ok(())
            }
        }
    }

    fn set(&mut self, s: &mut Session<'_, '_>, key: &str, value: &str) -> Result<(), String> {
        let value = value.trim();
        match key {
            "PASSWORD" => {
                if value.is_empty() || value.contains(char::is_whitespace) {
                    return Err("a password is one word".into());
                }
                let hash = password::hash(value)?;
                match s.ctx.clone() {
                    Ctx::Power { game, power } => {
                        let mut seats = games::seats(s.tx, &game).map_err(store_err)?;
                        seats[power.index()].hash = Some(hash);
                        games::save_seat(s.tx, &game, &seats[power.index()]).map_err(store_err)?;
                    }
                    Ctx::Gm { game } => {
                        let mut g = load(s, &game)?;
                        g.gm_hash = hash;
                        games::save(s.tx, &g).map_err(store_err)?;
                    }
                    Ctx::None => return Err("sign on first".into()),
                }
                s.say("  Password changed.");
                return Ok(());
            }
            "ADDRESS" => {
                if value.parse::<lettre::Address>().is_err() {
                    return Err(format!("`{value}` is not a mail address"));
                }
                match s.ctx.clone() {
                    Ctx::Power { game, power } => {
                        let mut seats = games::seats(s.tx, &game).map_err(store_err)?;
                        seats[power.index()].address = Some(value.to_string());
                        games::save_seat(s.tx, &game, &seats[power.index()]).map_err(store_err)?;
                    }
                    Ctx::Gm { game } => {
                        let mut g = load(s, &game)?;
                        g.gm_address = value.to_string();
                        games::save(s.tx, &g).map_err(store_err)?;
                    }
                    Ctx::None => return Err("sign on first".into()),
                }
                s.say(&format!("  The game's mail now goes to {value}."));
                return Ok(());
            }
            _ => {}
        }
        let game = self.need_gm(s)?;
        let mut g = load(s, &game)?;
        let what = match key {
            "DEADLINE" => {
                if g.status != Status::Active {
                    return Err("the game is not running".into());
                }
                let d = time::parse_deadline(value, &g.settings.timezone, s.now)?;
                g.deadline = Some(d);
                g.reminded = false;
                g.grace_noticed = false;
                let shown = time::show(d, &g.settings.timezone);
                games::save(s.tx, &g).map_err(store_err)?;
                s.say(&format!("  The deadline is now {shown}."));
                return self.notify_all(
                    s,
                    &g,
                    "new deadline",
                    &format!("The GM moved the deadline to {shown}.\n"),
                );
            }
            "PHASE LENGTH" => {
                let parts: Vec<&str> = value.split_whitespace().collect();
                let Some(first) = parts.first() else {
                    return Err("SET PHASE LENGTH 72h [24h]".into());
                };
                g.settings.movement_hours = time::parse_hours(first)?.max(1);
                if let Some(second) = parts.get(1) {
                    g.settings.short_hours = time::parse_hours(second)?.max(1);
                }
                format!(
                    "movement phases last {}h, retreats and adjustments {}h",
                    g.settings.movement_hours, g.settings.short_hours
                )
            }
            "GRACE" => {
                g.settings.grace_hours = time::parse_hours(value)?;
                format!("grace period {}h", g.settings.grace_hours)
            }
            "REMINDER" => {
                g.settings.reminder_hours = time::parse_hours(value)?;
                format!(
                    "reminders {}h before the deadline",
                    g.settings.reminder_hours
                )
            }
            "TIMEZONE" => {
                if !time::valid_zone(value) {
                    return Err(format!(
                        "unknown time zone `{value}` (use a name like Europe/London)"
                    ));
                }
                g.settings.timezone = value.to_string();
                format!("time zone {value}")
            }
            "END" => {
                let v = value.trim();
                if v.eq_ignore_ascii_case("none") {
                    g.settings.last_year = None;
                    "no last year".to_string()
                } else {
                    let y: i32 = v
                        .parse()
                        .map_err(|_| "SET END year (the game ends after it), or SET END NONE")?;
                    g.settings.last_year = Some(y);
                    format!("the game ends after {y}")
                }
            }
            "NMR" => {
                g.settings.nmr = match value.to_ascii_uppercase().as_str() {
                    "HOLD" => Nmr::Hold,
                    "CD" | "CIVIL DISORDER" => Nmr::CivilDisorder,
                    _ => return Err("SET NMR HOLD or SET NMR CD".into()),
                };
                format!("no-move-received: {value}")
            }
            "PRESS" => {
                g.settings.press = match value.to_ascii_uppercase().as_str() {
                    "WHITE" => Press::White,
                    "GREY" | "GRAY" => Press::Grey,
                    "NONE" | "NO" => Press::None,
                    _ => return Err("SET PRESS WHITE, GREY or NONE".into()),
                };
                format!("press {value}")
            }
            "STYLE" => {
                g.settings.style = match value.to_ascii_uppercase().as_str() {
                    "ZINE" => Style::Zine,
                    "JUDGE" => Style::Judge,
                    _ => return Err("SET STYLE ZINE or SET STYLE JUDGE".into()),
                };
                format!("results style {value}")
            }
            _ => return Err(format!("SET {key} is not known")),
        };
        games::save(s.tx, &g).map_err(store_err)?;
        s.say(&format!("  Set: {what}."));
        Ok(())
    }

    fn press(
        &mut self,
        s: &mut Session<'_, '_>,
        to: PressTo,
        grey: bool,
        text: &str,
    ) -> Result<(), String> {
        let game = self.signed_game(s).ok_or("sign on first")?;
        let g = load(s, &game)?;
        let v = self.variant(&g.variant)?.clone();
        match g.settings.press {
            Press::None => return Err(format!("{game} allows no press")),
            Press::White if grey => return Err(format!("{game} allows only white press (signed)")),
            _ => {}
        }
        if text.trim().is_empty() {
            return Err("the press is empty (write it between the PRESS line and ENDPRESS)".into());
        }
        let seats = games::seats(s.tx, &game).map_err(store_err)?;
        let from = match &s.ctx {
            Ctx::Power { power, .. } => v.map.power(*power).name.clone(),
            _ => "The GM".to_string(),
        };
        let (targets, names): (Vec<String>, String) = match &to {
            PressTo::All => {
                let mut t: Vec<String> = seats.iter().filter_map(|x| x.address.clone()).collect();
                t.extend(games::observers(s.tx, &game).map_err(store_err)?);
                (t, "everybody".to_string())
            }
            PressTo::Powers(list) => {
                let mut t = Vec::new();
                let mut ns = Vec::new();
                for p in list {
                    let pid = find_power(&v, p)?;
                    ns.push(v.map.power(pid).name.clone());
                    if let Some(a) = &seats[pid.index()].address {
                        t.push(a.clone());
                    }
                }
                (t, ns.join(", "))
            }
        };
        let signed = if grey {
            "(grey press: sender not shown)".to_string()
        } else {
            format!("From {from}")
        };
        let body = format!(
            "Press in {game}\n{signed}, to {names}:\n\n{}",
            text.trim_end()
        );
        let mut recipients = targets;
        // The GM reads all press, with the sender shown.
        let gm_body = format!(
            "Press in {game}\nFrom {from}{}, to {names}:\n\n{}",
            if grey { " (sent grey)" } else { "" },
            text.trim_end()
        );
        recipients.retain(|a| !a.eq_ignore_ascii_case(&s.sender.email));
        if !recipients.is_empty() {
            s.out
                .extend(mail_to(&recipients, format!("{game}: press"), body));
        }
        s.out.extend(mail_to(
            &[&g.gm_address],
            format!("{game}: press (GM copy)"),
            gm_body,
        ));
        s.say(&format!("  Press sent to {names}."));
        Ok(())
    }

    fn vote(
        &mut self,
        s: &mut Session<'_, '_>,
        draw: Option<bool>,
        concede: Option<Option<String>>,
    ) -> Result<(), String> {
        let (game, power) = self.need_power(s)?;
        let mut g = load(s, &game)?;
        let v = self.variant(&g.variant)?.clone();
        let mut seats = games::seats(s.tx, &game).map_err(store_err)?;
        if let Some(on) = draw {
            seats[power.index()].draw = on;
            s.say(if on {
                "  You vote for a draw."
            } else {
                "  You withdraw your draw vote."
            });
        }
        if let Some(c) = concede {
            match c {
                Some(p) => {
                    let pid = find_power(&v, &p)?;
                    if pid == power {
                        return Err("you cannot concede to yourself".into());
                    }
                    seats[power.index()].concede = Some(pid.0);
                    s.say(&format!(
                        "  You concede victory to {}.",
                        v.map.power(pid).name
                    ));
                }
                None => {
                    seats[power.index()].concede = None;
                    s.say("  You withdraw your concession.");
                }
            }
        }
        games::save_seat(s.tx, &game, &seats[power.index()]).map_err(store_err)?;
        // Who survives: powers with units or centres.
        let pos = position(&v, &g)?;
        let counts = pos.centre_counts(&v.map);
        let alive: Vec<PowerId> = v
            .map
            .power_ids()
            .filter(|p| counts[p.index()] > 0 || pos.units.iter().any(|u| u.power == *p))
            .collect();
        if alive.iter().all(|p| seats[p.index()].draw) {
            let names: Vec<&str> = alive
                .iter()
                .map(|p| v.map.power(*p).name.as_str())
                .collect();
            let result = format!("a draw between {}", names.join(", "));
            return self.finish(s, &mut g, &result);
        }
        // A concession wins when every other survivor concedes to the same
        // power.
        for &winner in &alive {
            let all = alive
                .iter()
                .filter(|p| **p != winner)
                .all(|p| seats[p.index()].concede == Some(winner.0));
            if all && alive.len() > 1 {
                let result = format!("won by {} (the others conceded)", v.map.power(winner).name);
                return self.finish(s, &mut g, &result);
            }
        }
        Ok(())
    }

    fn finish(
        &mut self,
        s: &mut Session<'_, '_>,
        g: &mut GameRow,
        result: &str,
    ) -> Result<(), String> {
        g.status = Status::Finished;
        g.deadline = None;
        g.result = Some(result.to_string());
        games::save(s.tx, g).map_err(store_err)?;
        s.say(&format!("  The game is over: {result}."));
        self.notify_all(s, g, "game over", &format!("The game is over: {result}.\n"))
    }

    fn eject(&mut self, s: &mut Session<'_, '_>, game: &str, p: &str) -> Result<(), String> {
        let g = load(s, game)?;
        let v = self.variant(&g.variant)?.clone();
        let pid = find_power(&v, p)?;
        let mut seats = games::seats(s.tx, game).map_err(store_err)?;
        let seat = &mut seats[pid.index()];
        let old = seat.address.take();
        seat.hash = None;
        seat.status = SeatStatus::Abandoned;
        seat.ready = false;
        games::save_seat(s.tx, game, seat).map_err(store_err)?;
        if let Some(a) = old {
            s.out.extend(mail_to(
                &[a],
                format!("{game}: you no longer play {}", v.map.power(pid).name),
                format!(
                    "The GM of {game} has removed you from {}.\n",
                    v.map.power(pid).name
                ),
            ));
        }
        s.say(&format!(
            "  {} is open; REPLACE {} address to seat a new player.",
            v.map.power(pid).name,
            v.map.power(pid).name
        ));
        Ok(())
    }

    fn replace(
        &mut self,
        s: &mut Session<'_, '_>,
        game: &str,
        p: &str,
        address: &str,
    ) -> Result<(), String> {
        if address.parse::<lettre::Address>().is_err() {
            return Err(format!("`{address}` is not a mail address"));
        }
        let g = load(s, game)?;
        let v = self.variant(&g.variant)?.clone();
        let pid = find_power(&v, p)?;
        let mut seats = games::seats(s.tx, game).map_err(store_err)?;
        let pw = password::generate();
        let seat = &mut seats[pid.index()];
        let old = seat.address.replace(address.to_string());
        seat.hash = Some(password::hash(&pw)?);
        seat.status = SeatStatus::Playing;
        seat.failures = 0;
        seat.ready = false;
        games::save_seat(s.tx, game, seat).map_err(store_err)?;
        let name = v.map.power(pid).name.clone();
        s.out.extend(mail_to(
            &[address.to_string()],
            format!("{game}: you now play {name}"),
            format!(
                "The GM of {game} ({}) has given you {name}.\n\n\
                 Your password is: {pw}\n\n\
                 Sign on and send orders like this:\n\n  SIGNON {name} {game} {pw}\n  A(Lon)-Yor\n\n\
                 Change the password with SET PASSWORD after signing on. Send HELP for more.\n",
                v.title
            ),
        ));
        if let Some(o) = old
            && !o.eq_ignore_ascii_case(address)
        {
            s.out.extend(mail_to(
                &[o],
                format!("{game}: you no longer play {name}"),
                format!("The GM of {game} has given {name} to another player.\n"),
            ));
        }
        s.say(&format!(
            "  {name} now goes to {address}, who has been mailed a password."
        ));
        Ok(())
    }

    fn edit(&mut self, s: &mut Session<'_, '_>, game: &str, e: Edit) -> Result<(), String> {
        let mut g = load(s, game)?;
        let v = self.variant(&g.variant)?.clone();
        let mut pos = position(&v, &g)?;
        let before = pos.to_toml(&v);
        let what = match e {
            Edit::Add { power, unit } => {
                let pid = find_power(&v, &power)?;
                let (kind, region) = crate::game::position::parse_unit(&v.map, &unit)?;
                let p = v.map.province_of(region);
                let others: Vec<crate::map::Unit> = pos
                    .units
                    .iter()
                    .copied()
                    .filter(|u| v.map.province_of(u.region) == p)
                    .collect();
                if !v.map.may_stand(p, pid, kind, &others) {
                    return Err(format!(
                        "there is already a unit in {}",
                        v.map.province(p).abbr
                    ));
                }
                pos.units.push(crate::map::Unit {
                    power: pid,
                    kind,
                    region,
                });
                format!(
                    "added {} {} {}",
                    v.map.power(pid).adjective,
                    kind.letter(),
                    v.map.region_abbr(region)
                )
            }
            Edit::Remove { place } => {
                let p = match v.map.lookup(&place) {
                    Some(crate::map::Named::Province(p)) => p,
                    Some(crate::map::Named::Region(r)) => v.map.province_of(r),
                    None => return Err(format!("unknown place `{place}`")),
                };
                let i = pos
                    .units
                    .iter()
                    .position(|u| v.map.province_of(u.region) == p)
                    .ok_or_else(|| format!("no unit in {}", v.map.province(p).abbr))?;
                let u = pos.units.remove(i);
                format!(
                    "removed {} {} {}",
                    v.map.power(u.power).adjective,
                    u.kind.letter(),
                    v.map.region_abbr(u.region)
                )
            }
            Edit::Owner { centre, power } => {
                let p = match v.map.lookup(&centre) {
                    Some(crate::map::Named::Province(p)) if v.map.province(p).supply_centre => p,
                    _ => return Err(format!("`{centre}` is not a supply centre")),
                };
                let owner = power.map(|x| find_power(&v, &x)).transpose()?;
                pos.owners[p.index()] = owner;
                format!(
                    "{} now belongs to {}",
                    v.map.province(p).abbr,
                    owner.map_or("nobody".to_string(), |o| v.map.power(o).name.clone())
                )
            }
        };
        g.position = pos.to_toml(&v);
        games::save(s.tx, &g).map_err(store_err)?;
        games::append_history(
            s.tx,
            game,
            &games::NewHistory {
                phase: &v.calendar.short(pos.phase),
                kind: "edit",
                position: &before,
                orders: "",
                report: &format!("GM edit: {what}"),
            },
            s.now,
        )
        .map_err(store_err)?;
        s.say(&format!("  Edit: {what}."));
        self.notify_all(
            s,
            &g,
            "board edited",
            &format!("The GM corrected the board: {what}.\n"),
        )
    }

    /// NOMINATE: a replacement home centre, kept in the game's position.
    fn nominate(&mut self, s: &mut Session<'_, '_>, centre: &str) -> Result<(), String> {
        let (game, power) = self.need_power(s)?;
        let mut g = load(s, &game)?;
        let v = self.variant(&g.variant)?.clone();
        let mut pos = position(&v, &g)?;
        let p = match v.map.lookup(centre) {
            Some(crate::map::Named::Province(p)) => p,
            Some(crate::map::Named::Region(r)) => v.map.province_of(r),
            None => return Err(format!("unknown place `{centre}`")),
        };
        crate::game::homes::nominate(&v, &mut pos, power, p).map_err(|e| e.to_string())?;
        g.position = pos.to_toml(&v);
        games::save(s.tx, &g).map_err(store_err)?;
        s.say(&format!(
            "  {} is now one of your home centres: you may build there while you hold it.",
            v.map.province(p).name
        ));
        Ok(())
    }

    /// PERMIT / REVOKE: let another power's fleets into one's provinces and
    /// its supply lines past one's units (1700 AD II rules 8, 9).
    fn permit(&mut self, s: &mut Session<'_, '_>, other: &str, on: bool) -> Result<(), String> {
        let (game, power) = self.need_power(s)?;
        let mut g = load(s, &game)?;
        let v = self.variant(&g.variant)?.clone();
        if !v.map.stacking().fleets_beside_armies {
            return Err(format!("{} has no permissions to give", v.title));
        }
        let mut pos = position(&v, &g)?;
        let o = find_power(&v, other)?;
        if o == power {
            return Err("you need no permission of your own".into());
        }
        let list = &mut pos.state.permits[power.index()];
        list.retain(|p| *p != o);
        if on {
            list.push(o);
        }
        g.position = pos.to_toml(&v);
        games::save(s.tx, &g).map_err(store_err)?;
        s.say(&format!(
            "  {} {} into your provinces and past your units.",
            v.map.power(o).name,
            if on {
                "may now come"
            } else {
                "may no longer come"
            }
        ));
        Ok(())
    }

    /// EXCHANGE: an offer to swap centres at the end of this move.
    fn exchange(&mut self, s: &mut Session<'_, '_>, text: &str) -> Result<(), String> {
        let (game, power) = self.need_power(s)?;
        let mut g = load(s, &game)?;
        let v = self.variant(&g.variant)?.clone();
        let mut pos = position(&v, &g)?;
        let words: Vec<&str> = text.split_whitespace().collect();
        // The longest run of words naming a power, then the centres.
        let (to, rest) = (1..=words.len().min(4))
            .rev()
            .find_map(|n| {
                v.map
                    .lookup_power(&words[..n].join(" "))
                    .map(|p| (p, &words[n..]))
            })
            .ok_or_else(|| format!("EXCHANGE with whom? `{text}` names no power"))?;
        let centre = |w: &str| match v.map.lookup(w.trim_matches(',')) {
            Some(crate::map::Named::Province(p)) => Ok(p),
            Some(crate::map::Named::Region(r)) => Ok(v.map.province_of(r)),
            None => Err(format!("unknown place `{w}`")),
        };
        let withdraw = matches!(rest, [w] if w.eq_ignore_ascii_case("none"));
        let (give, take) = if withdraw {
            (Vec::new(), Vec::new())
        } else {
            let k = rest
                .iter()
                .position(|w| w.eq_ignore_ascii_case("for"))
                .ok_or("write EXCHANGE power centres FOR centres")?;
            let list = |ws: &[&str]| -> Result<Vec<_>, String> {
                ws.iter()
                    .filter(|w| !w.trim_matches(',').is_empty() && !w.eq_ignore_ascii_case("and"))
                    .map(|w| centre(w))
                    .collect()
            };
            (list(&rest[..k])?, list(&rest[k + 1..])?)
        };
        let names = |ps: &[crate::map::ProvinceId]| {
            ps.iter()
                .map(|p| v.map.province(*p).abbr.clone())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let x = crate::game::position::Exchange {
            from: power,
            to,
            give: give.clone(),
            take: take.clone(),
        };
        crate::game::exchange::offer(&v, &mut pos, x).map_err(|e| e.to_string())?;
        g.position = pos.to_toml(&v);
        games::save(s.tx, &g).map_err(store_err)?;
        let other = &v.map.power(to).name;
        if withdraw {
            s.say(&format!("  Your offer to {other} is withdrawn."));
        } else {
            s.say(&format!(
                "  Offer to {other} recorded: you give {} for {}. It is carried out at the
                   end of this move if {other} sends the matching offer:
    EXCHANGE {} {} FOR {}",
                names(&give),
                names(&take),
                v.map.power(power).name,
                names(&take),
                names(&give)
            ));
        }
        Ok(())
    }

    /// Mail every player, observer and the GM of `g`.
    fn notify_all(
        &mut self,
        s: &mut Session<'_, '_>,
        g: &GameRow,
        what: &str,
        body: &str,
    ) -> Result<(), String> {
        let mut to: Vec<String> = games::seats(s.tx, &g.name)
            .map_err(store_err)?
            .into_iter()
            .filter_map(|x| x.address)
            .collect();
        to.extend(games::observers(s.tx, &g.name).map_err(store_err)?);
        to.push(g.gm_address.clone());
        to.retain(|a| !a.eq_ignore_ascii_case(&s.sender.email));
        if !to.is_empty() {
            s.out.extend(mail_to(
                &to,
                format!("{}: {what}", g.name),
                body.to_string(),
            ));
        }
        Ok(())
    }
}

pub(crate) fn store_err(e: crate::store::StoreError) -> String {
    format!("the judge's store failed ({e}); nothing was changed")
}

/// Load a game or say there is none.
pub(crate) fn load(s: &Session<'_, '_>, name: &str) -> Result<GameRow, String> {
    games::load(s.tx, name)
        .map_err(store_err)?
        .ok_or_else(|| format!("there is no game called {name} (LIST shows the games)"))
}

/// A game's current position.
pub(crate) fn position(v: &Variant, g: &GameRow) -> Result<Position, String> {
    Position::from_toml(v, &g.position)
        .map_err(|e| format!("the stored position of {} is broken: {e}", g.name))
}

/// A power by name, adjective, alias or letter.
pub(crate) fn find_power(v: &Variant, name: &str) -> Result<PowerId, String> {
    if let Some(p) = v.map.lookup_power(name) {
        return Ok(p);
    }
    if name.chars().count() == 1 {
        let c = name.chars().next().unwrap_or(' ').to_ascii_uppercase();
        let matches: Vec<PowerId> = v
            .map
            .power_ids()
            .filter(|p| {
                v.map
                    .power(*p)
                    .name
                    .chars()
                    .next()
                    .map(|x| x.to_ascii_uppercase())
                    == Some(c)
            })
            .collect();
        if matches.len() == 1 {
            return Ok(matches[0]);
        }
    }
    Err(format!("no power `{name}` in this game"))
}

/// Lines of a mail body worth reading: up to the signature, without
/// quoted text, numbered from 1.
fn clean_lines(body: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, l) in body.lines().enumerate() {
        let t = l.trim_end();
        if t == "--"
            || t == "-- "
            || t.starts_with("-----Original Message")
            || t.starts_with("-------- Original Message")
        {
            break;
        }
        if t.trim_start().starts_with('>') {
            continue;
        }
        out.push((i + 1, l.to_string()));
    }
    out
}

impl Responder for Judge {
    fn respond(
        &mut self,
        tx: &Transaction<'_>,
        mail: &Inbound,
        now: SystemTime,
    ) -> anyhow::Result<Response> {
        let Some(sender) = mail.reply_to.clone() else {
            return Ok(Response {
                replies: vec![],
                note: "no sender".into(),
            });
        };
        let t = crate::daemon::process::unix(now);
        match games::note_sender(tx, &sender.email, t, RATE_WINDOW, RATE_MAX)? {
            Rate::Ok => {}
            Rate::Warn => {
                let body = format!(
                    "The judge has had more than {RATE_MAX} mails from you within an hour and\n\
                     will not answer more for a while. Nothing in this mail was done.\n"
                );
                return Ok(Response {
                    replies: vec![reply_to(mail, &sender, body)],
                    note: "rate limited".into(),
                });
            }
            Rate::Silent => {
                return Ok(Response {
                    replies: vec![],
                    note: "rate limited (silent)".into(),
                });
            }
        }
        let mut s = Session {
            tx,
            now: t,
            sender: sender.clone(),
            ctx: Ctx::None,
            reply: String::new(),
            out: Vec::new(),
            did_something: false,
        };
        self.run_mail(&mut s, mail)?;
        let mut replies = vec![reply_to(
            mail,
            &sender,
            fit(&format!("{}\n-- \n{}\n", s.reply.trim_end(), self.name)),
        )];
        replies.append(&mut s.out);
        Ok(Response {
            replies,
            note: "commands".into(),
        })
    }

    fn tick(&mut self, tx: &Transaction<'_>, now: SystemTime) -> anyhow::Result<Vec<Outgoing>> {
        Judge::tick(self, tx, now)
    }
}
