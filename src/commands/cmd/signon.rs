//! SIGNON: the lines below speak for a power (or the GM) of a game.
//!
//! Every judge's form is read: `SIGNON England game pw`, njudge's
//! `SIGNON Egame pw`, DPjudge's `SIGNON england@game pw`, `SIGNON GM game
//! pw`, and power names of several words (`SIGNON Duke William game pw`).
//! The password is checked by [`crate::commands::auth`], which bounds
//! guessing.

use crate::commands::auth;
use crate::commands::error::{CmdError, CmdResult};
use crate::commands::registry::{Anyone, Args, Command, Secret, Spec};
use crate::commands::{Ctx, Judge, Session, find_power, time};
use crate::store::games;

/// SIGNON in any of its forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignOn {
    /// The power as written (a name, a letter), or `None` for the GM.
    pub power: Option<String>,
    /// The game.
    pub game: String,
    /// The password.
    pub password: String,
}

fn is_gm(w: &str) -> bool {
    w.eq_ignore_ascii_case("gm") || w.eq_ignore_ascii_case("master")
}

impl Command for SignOn {
    const SPEC: Spec = Spec {
        secret: Secret::Last,
        echo_failed: true,
        ..Spec::new(
            "SIGNON",
            "SIGNON power game password  (also SIGNON Egame password, SIGNON england@game password, SIGNON GM game password)",
            "Sign on; the orders and commands below it are for that power (or the GM).",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        let usage = "write SIGNON power game password (or SIGNON GM game password)";
        let w = &args.words;
        match w.as_slice() {
            [who @ .., game, pw] if !who.is_empty() && who.len() <= 4 => {
                let who = who.join(" ");
                Ok(SignOn {
                    power: (!is_gm(&who)).then_some(who),
                    game: game.clone(),
                    password: pw.clone(),
                })
            }
            [combined, pw] => {
                if let Some((p, g)) = combined.split_once('@') {
                    if p.is_empty() || g.is_empty() {
                        return Err(usage.into());
                    }
                    return Ok(SignOn {
                        power: (!is_gm(p)).then(|| p.to_string()),
                        game: g.to_string(),
                        password: pw.clone(),
                    });
                }
                // njudge: the power's letter glued to the game name.
                let mut chars = combined.chars();
                let letter = chars.next().ok_or(usage)?;
                let game: String = chars.collect();
                if game.is_empty() {
                    return Err(usage.into());
                }
                Ok(SignOn {
                    power: (!letter.eq_ignore_ascii_case(&'m'))
                        .then(|| letter.to_ascii_uppercase().to_string()),
                    game,
                    password: pw.clone(),
                })
            }
            _ => Err(usage.into()),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        // Whatever happens, the lines below no longer speak for whoever
        // signed on before.
        s.ctx = Ctx::None;
        let Some(g) = games::load(s.tx, &self.game)? else {
            return Err(auth::FAILED.into());
        };
        let v = judge.variant(&g.variant)?;
        match self.power.as_deref() {
            None => {
                let label = format!("the GM of {}", g.name);
                auth::check(
                    s,
                    &g.name,
                    None,
                    Some(&g.gm_hash),
                    Some(&g.gm_address),
                    &label,
                    &self.password,
                )?;
                s.ctx = Ctx::Gm {
                    game: g.name.clone(),
                };
                s.say(&format!("  Signed on as the GM of {}.", g.name));
                Ok(())
            }
            Some(p) => {
                let pid = find_power(&v, p).map_err(|_| CmdError::refused(auth::FAILED))?;
                let seats = games::seats(s.tx, &g.name)?;
                let seat = &seats[pid.index()];
                let label = format!("{} in {}", v.map.power(pid).name, g.name);
                auth::check(
                    s,
                    &g.name,
                    Some(pid),
                    seat.hash.as_deref(),
                    seat.address.as_deref(),
                    &label,
                    &self.password,
                )?;
                s.ctx = Ctx::Power {
                    game: g.name.clone(),
                    power: pid,
                };
                let pos = crate::commands::position(&v, &g)?;
                let deadline = g.deadline.map_or(String::new(), |d| {
                    format!(", deadline {}", time::show(d, &g.settings.timezone))
                });
                // A finished game has no phase to play: say it is over
                // rather than name the phase it stopped in.
                let state = if g.status == crate::game::record::Status::Finished {
                    "the game is over".to_string()
                } else {
                    format!("{}{deadline}", v.calendar.label(pos.phase))
                };
                s.say(&format!("  Signed on as {label} ({state})."));
                if seat.status == crate::game::record::SeatStatus::Disorder {
                    s.say(&format!(
                        "  {} is in civil disorder: send orders to take it back.",
                        v.map.power(pid).name
                    ));
                }
                Ok(())
            }
        }
    }
}

/// The password checks `mail`'s sign-on lines will ask for, as
/// [`auth::check`] will see them: (game, seat, stored hash, password),
/// one per seat, locked seats left out, read from `conn` before the mail's
/// turn so that [`auth::warm`] can start them early. What cannot be read
/// is left out: the mail's own processing reports it.
pub(crate) fn ahead(
    judge: &mut Judge,
    conn: &crate::store::Conn,
    mail: &crate::mail::Inbound,
    now: i64,
) -> Vec<(String, Option<crate::map::PowerId>, String, String)> {
    use crate::commands::mailrun::{MAX_COMMANDS, MAX_LINES, body_lines};
    let mut out: Vec<(String, Option<crate::map::PowerId>, String, String)> = Vec::new();
    // Seats as written: only a seat's first sign-on is checked, so a mail
    // of thousands of sign-on lines costs one look each, not the store's.
    let mut written: Vec<(String, Option<String>)> = Vec::new();
    let (Some(from), Some(answer)) = (
        mail.from.as_ref().map(|a| a.email.clone()),
        mail.reply_to.as_ref().map(|a| a.email.clone()),
    ) else {
        return out;
    };
    let (mut lines, mut commands) = (0, 0);
    for (_, line) in body_lines(&mail.text) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        lines += 1;
        if out.len() >= auth::MAX_CHECKS || lines > MAX_LINES || commands >= MAX_COMMANDS {
            break;
        }
        let Some(c) = crate::commands::registry::lookup(t) else {
            continue;
        };
        commands += 1;
        if c.entry.spec().name != SignOn::SPEC.name {
            continue;
        }
        let Ok(on) = SignOn::parse(&c.args) else {
            continue;
        };
        let seat = (
            on.game.to_lowercase(),
            on.power.as_ref().map(|p| p.to_lowercase()),
        );
        if written.contains(&seat) {
            continue;
        }
        written.push(seat);
        let Ok(Some(g)) = games::load(conn, &on.game) else {
            continue;
        };
        let (power, hash, owner) = match on.power.as_deref() {
            None => (None, Some(g.gm_hash.clone()), Some(g.gm_address.clone())),
            Some(p) => {
                let Ok(v) = judge.variant(&g.variant) else {
                    continue;
                };
                let Ok(pid) = find_power(&v, p) else {
                    continue;
                };
                let Ok(seats) = games::seats(conn, &g.name) else {
                    continue;
                };
                let seat = seats.get(pid.index());
                (
                    Some(pid),
                    seat.and_then(|s| s.hash.clone()),
                    seat.and_then(|s| s.address.clone()),
                )
            }
        };
        let Some(hash) = hash else { continue };
        let source = auth::source(&from, &answer, owner.as_deref());
        if out
            .iter()
            .any(|(g2, p2, _, _)| *g2 == g.name && *p2 == power)
            || auth::locked(conn, &g.name, power, source.as_deref(), now).unwrap_or(true)
        {
            continue;
        }
        out.push((g.name.clone(), power, hash, on.password));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<SignOn, String> {
        let words = line
            .split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect();
        SignOn::parse(&Args { words })
    }

    #[test]
    fn signon_in_every_judges_style() {
        let want = |p: Option<&str>| SignOn {
            power: p.map(str::to_string),
            game: "mygame".into(),
            password: "pw".into(),
        };
        assert_eq!(parse("SIGNON England mygame pw"), Ok(want(Some("England"))));
        assert_eq!(parse("signon Emygame pw"), Ok(want(Some("E"))));
        assert_eq!(parse("SIGNON england@mygame pw"), Ok(want(Some("england"))));
        assert_eq!(parse("SIGNON GM mygame pw"), Ok(want(None)));
        assert_eq!(parse("SIGNON Mmygame pw"), Ok(want(None)));
        assert_eq!(
            parse("SIGNON Duke William mygame pw"),
            Ok(want(Some("Duke William")))
        );
        assert!(parse("SIGNON mygame").is_err());
    }
}
