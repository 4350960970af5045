//! SIGNON: the lines below speak for a power (or the GM) of a game; and
//! njudge's sign-ons that enter a game.
//!
//! Every judge's form of a seat's sign-on is read: `SIGNON England game
//! pw`, njudge's `SIGNON Egame pw` (every power's letter: see
//! [`crate::commands::power_letters`]; `M` is the GM), DPjudge's `SIGNON
//! england@game pw`, `SIGNON GM game pw`, `SIGN ON`, and power names of
//! several words (`SIGNON Duke William game pw`). The password is checked
//! by [`crate::commands::auth`], which bounds guessing.
//!
//! njudge's entry forms are this judge's commands under another name:
//! `SIGNON ?game pw [variant]` is JOIN (the variant, when given, must be
//! the game's), `SIGNON ? pw` joins the first standard game taking
//! players, and `SIGNON Ogame pw` is OBSERVE (observers need no password
//! here). They register the mail's From address as those commands do, so
//! a new address confirms first ([`Command::registers`]). A power that
//! has no player (njudge's abandoned power, taken by signing on) is given
//! by the GM here: the sign-on says so and the GM is told, rather than
//! "sign-on failed".

use crate::commands::command::{Anyone, Args, Command, Governs, Secret, Spec, game_words};
use crate::commands::error::{CmdError, CmdResult};
use crate::commands::{Ctx, Judge, Session, find_power, time};
use crate::game::record::{SeatStatus, Status};
use crate::store::games;
use crate::trust::signon::{FAILED, MAX_CHECKS, SeatLock};

/// A seat's sign-on: power (or GM), game, password.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Seat {
    /// The power as written (a name, a letter), or `None` for the GM.
    pub power: Option<String>,
    /// The game.
    pub game: String,
    /// The password.
    pub password: String,
}

/// SIGNON in any of its forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SignOn {
    /// A seat of a game.
    Seat(Seat),
    /// njudge's `SIGNON ?game password [variant]`: JOIN.
    Join {
        /// The game.
        game: String,
        /// The password chosen.
        password: String,
        /// The variant named, if any.
        variant: Option<String>,
    },
    /// njudge's `SIGNON ? password`: JOIN the first game taking players.
    Next {
        /// The password chosen.
        password: String,
    },
    /// njudge's `SIGNON Ogame password`: OBSERVE.
    Observe {
        /// The game.
        game: String,
    },
}

fn is_gm(w: &str) -> bool {
    w.eq_ignore_ascii_case("gm") || w.eq_ignore_ascii_case("master") || w.eq_ignore_ascii_case("m")
}

/// njudge's and DPjudge's observer: `O`, `OBSERVER`.
fn is_observer(w: &str) -> bool {
    w.eq_ignore_ascii_case("o") || w.eq_ignore_ascii_case("observer")
}

/// The seat a sign-on's words name, in every judge's form: `power game
/// password` (a power of several words too), `Xgame password`,
/// `power@game password`. Shared with TAKEOVER and DPjudge's RESIGN.
pub(crate) fn read_seat(words: &[String]) -> Result<Seat, String> {
    let usage = "write SIGNON power game password (or SIGNON GM game password)";
    match words {
        [who @ .., game, pw] if !who.is_empty() && who.len() <= 4 => {
            let who = who.join(" ");
            Ok(Seat {
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
                return Ok(Seat {
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
            Ok(Seat {
                power: (!letter.eq_ignore_ascii_case(&'m'))
                    .then(|| letter.to_ascii_uppercase().to_string()),
                game,
                password: pw.clone(),
            })
        }
        _ => Err(usage.into()),
    }
}

impl Command for SignOn {
    const SPEC: Spec = Spec {
        secret: Secret::Varies,
        also: &["SIGN ON"],
        echo_failed: true,
        governs: Governs::Seat,
        ..Spec::new(
            "SIGNON",
            "SIGNON power game password  (also SIGNON Egame password, SIGNON england@game password, SIGNON GM game password; njudge's SIGNON ?game password joins, SIGNON Ogame password observes)",
            "Sign on; the orders and commands below it are for that power (or the GM).",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        let w = &args.words;
        if let Some(first) = w.first()
            && let Some(game) = first.strip_prefix('?')
        {
            return match (game.is_empty(), &w[1..]) {
                (true, [pw]) => Ok(SignOn::Next {
                    password: pw.clone(),
                }),
                (false, [pw]) => Ok(SignOn::Join {
                    game: game.to_string(),
                    password: pw.clone(),
                    variant: None,
                }),
                (false, [pw, variant]) => Ok(SignOn::Join {
                    game: game.to_string(),
                    password: pw.clone(),
                    variant: Some(variant.clone()),
                }),
                _ => Err(
                    "write SIGNON ?game password [variant] to join a game (or JOIN game password)"
                        .into(),
                ),
            };
        }
        let seat = read_seat(w)?;
        match &seat.power {
            // `SIGNON Ogame pw`, `SIGNON O@game pw`, `SIGNON O game pw`.
            Some(p) if is_observer(p) => Ok(SignOn::Observe { game: seat.game }),
            _ => Ok(SignOn::Seat(seat)),
        }
    }
    fn registration(&self, _from: &str) -> Option<String> {
        match self {
            SignOn::Seat(_) => None,
            SignOn::Join { game, .. } => Some(format!("join {} as a player", game_words(game))),
            SignOn::Next { .. } => Some("join the next game that takes players".into()),
            SignOn::Observe { game } => Some(format!(
                "send this address {}'s results, as an observer",
                game_words(game)
            )),
        }
    }
    fn secret_at(args: &Args) -> Option<usize> {
        match args.get(0) {
            Some(w) if w.starts_with('?') => Some(1),
            _ => args.len().checked_sub(1),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        // Whatever happens, the lines below no longer speak for whoever
        // signed on before.
        s.ctx = Ctx::None;
        s.phase_ahead = None;
        match self {
            SignOn::Seat(seat) => sign_on(judge, s, &seat),
            SignOn::Join {
                game,
                password,
                variant,
            } => {
                if let Some(named) = variant
                    && let Some(g) = games::load(s.tx, &game)?
                {
                    let v = judge.variant(&g.variant)?;
                    if !named.eq_ignore_ascii_case(&v.name) && !named.eq_ignore_ascii_case(&v.title)
                    {
                        return Err(format!(
                            "{} plays {}, not {}: nothing was done (SIGNON ?{} password {} \
                             joins it)",
                            g.name,
                            v.title,
                            crate::mail::header_text(&named, 30),
                            g.name,
                            v.name
                        )
                        .into());
                    }
                }
                s.say("  (njudge's SIGNON ?game is this judge's JOIN game password.)");
                join(judge, s, &game, &password)
            }
            SignOn::Next { password } => {
                let me = s.sender.from.email.clone();
                let mut found = None;
                for g in games::list(s.tx)? {
                    if g.status != Status::Forming || !g.variant.eq_ignore_ascii_case("standard") {
                        continue;
                    }
                    let seats = games::seats(s.tx, &g.name)?;
                    let mine = seats.iter().any(|x| {
                        x.address
                            .as_deref()
                            .is_some_and(|a| a.eq_ignore_ascii_case(&me))
                    });
                    if !mine && seats.iter().any(|x| x.status == SeatStatus::Open) {
                        found = Some(g.name.clone());
                        break;
                    }
                }
                let Some(game) = found else {
                    return Err(
                        "no standard game is taking players now: LIST shows the games, and \
                         CREATE makes one"
                            .into(),
                    );
                };
                s.say(&format!(
                    "  (njudge's SIGNON ? joins the first standard game taking players: {game}.)"
                ));
                join(judge, s, &game, &password)
            }
            SignOn::Observe { game } => {
                s.say("  (njudge's SIGNON Ogame is this judge's OBSERVE game; observers need no password here.)");
                let o = super::observe::Observe::parse(&Args::new(vec![game]))?;
                o.run(judge, s, ())
            }
        }
    }
}

/// The failed sign-on's answer for a power word that is no power: the
/// same answer as every failure, with what DPjudge's forms are here (a
/// power's number before the start, an observer's name).
fn failed_for(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
        format!(
            "{FAILED} (DPjudge's power numbers are not used here: a player who joined signs \
             on as the power the JOIN reply named, SIGNON austria@game password)"
        )
    } else if word.chars().count() > 1 {
        format!(
            "{FAILED} (observers here take no name and need no sign-on: OBSERVE game brings \
             them its results and the press sent to everybody)"
        )
    } else {
        FAILED.to_string()
    }
}

/// JOIN `game` with `password`, as the JOIN command does.
fn join(judge: &mut Judge, s: &mut Session<'_, '_>, game: &str, password: &str) -> CmdResult {
    let j = super::join::Join::parse(&Args::new(vec![game.to_string(), password.to_string()]))?;
    j.run(judge, s, ())
}

/// Sign on to a seat: the lines below speak for it.
pub(crate) fn sign_on(judge: &mut Judge, s: &mut Session<'_, '_>, seat: &Seat) -> CmdResult {
    s.ctx = Ctx::None;
    s.phase_ahead = None;
    let Some(g) = games::load(s.tx, &seat.game)? else {
        return Err(FAILED.into());
    };
    let v = judge.variant(&g.variant)?;
    match seat.power.as_deref() {
        None => {
            let label = format!("the GM of {}", g.name);
            s.check_password(
                &SeatLock {
                    game: &g.name,
                    power: None,
                    hash: Some(&g.gm_hash),
                    owner: Some(&g.gm_address),
                    label: &label,
                },
                &seat.password,
            )?;
            s.ctx = Ctx::Gm {
                game: g.name.clone(),
            };
            s.say(&format!("  Signed on as the GM of {}.", g.name));
            Ok(())
        }
        Some(p) => {
            let pid = find_power(&v, p).map_err(|_| CmdError::refused(failed_for(p)))?;
            let seats = games::seats(s.tx, &g.name)?;
            let seat_row = &seats[pid.index()];
            let name = v.map.power(pid).name.clone();
            // A seat with no player has no password to check: say how this
            // judge fills it, rather than that the sign-on failed.
            if seat_row.hash.is_none() {
                return Err(no_player(s, &g, &name, seat_row.status).into());
            }
            let label = format!("{name} in {}", g.name);
            s.check_password(
                &SeatLock {
                    game: &g.name,
                    power: Some(pid),
                    hash: seat_row.hash.as_deref(),
                    owner: seat_row.address.as_deref(),
                    label: &label,
                },
                &seat.password,
            )?;
            s.ctx = Ctx::Power {
                game: g.name.clone(),
                power: pid,
            };
            let pos = crate::commands::position(&v, &g)?;
            let deadline = g.deadline.map_or(String::new(), |d| {
                format!(
                    ", deadline {}",
                    time::show_deadline(d, &g.settings.timezone)
                )
            });
            // A finished game has no phase to play: say it is over
            // rather than name the phase it stopped in.
            let state = if g.status == crate::game::record::Status::Finished {
                "the game is over".to_string()
            } else {
                // The phase this power is told of (a retreat of hidden
                // units only is not its to know of, 1066 rule 5).
                let told = crate::rules::view::View::of(
                    &v,
                    &pos,
                    crate::variant::features::Viewer::Power(pid),
                )
                .phase_shown(&pos);
                format!("{}{deadline}", v.calendar.label(told))
            };
            s.say(&format!("  Signed on as {label} ({state})."));
            // A letter other than the name's first is worth knowing to
            // one who signed on by letter (njudge's `SIGNON Ig`: the reply
            // says why I is Midhe); one who wrote the power's name needs
            // no letter.
            let letter = crate::commands::power_letters(&v)[pid.index()];
            if p.chars().count() == 1
                && name.chars().next().map(|c| c.to_ascii_uppercase()) != Some(letter)
            {
                s.say(&format!(
                    "  ({name}'s letter is {letter}: SIGNON {letter}{} password.)",
                    g.name
                ));
            }
            if seat_row.status == crate::game::record::SeatStatus::Disorder {
                s.say(&format!(
                    "  {name} is in civil disorder: send orders to take it back."
                ));
            }
            Ok(())
        }
    }
}

/// The refusal of a sign-on to a seat that has no player, and a word to
/// the GM where a player could be seated.
fn no_player(
    s: &mut Session<'_, '_>,
    g: &games::GameRow,
    name: &str,
    status: SeatStatus,
) -> String {
    match status {
        st if st.left_out_before_start() && g.status == Status::Forming => {
            format!("{name} are not in {}", g.name)
        }
        SeatStatus::NotInGame => format!("{name} are not in {}", g.name),
        SeatStatus::Dummy => format!("{name} are a dummy power in {}: nobody plays them", g.name),
        _ if g.status == Status::Forming => format!(
            "{name} in {} has no player yet: JOIN {} password {name} takes it (njudge's \
             SIGNON ?{} password joins)",
            g.name, g.name, g.name
        ),
        _ if g.status == Status::Finished => format!("{} is over", g.name),
        _ => {
            s.notice_gm(
                g,
                "a player for an open power",
                &format!(
                    "{} asked to take over {name} in {} (njudge's sign-on to an abandoned \
                     power). To give it to them: REPLACE {name} {}\n",
                    s.sender.from.email, g.name, s.sender.from.email
                ),
            );
            format!(
                "{name} in {} has no player now. On this judge the GM seats a new player \
                 (REPLACE {name} address); the GM has been told you asked",
                g.name
            )
        }
    }
}

/// The password checks `mail`'s sign-on lines will ask for, as
/// [`crate::trust::signon::check`] will see them: (game, seat, stored hash, password),
/// one per seat, locked seats left out, read from `conn` before the mail's
/// turn so that [`crate::trust::signon::warm`] can start them early. What cannot be read
/// is left out: the mail's own processing reports it.
pub(crate) fn ahead(
    judge: &mut Judge,
    conn: &crate::store::Conn,
    mail: &crate::mail::Inbound,
    now: i64,
) -> Vec<(String, Option<crate::map::PowerId>, String, String)> {
    use crate::commands::body::{MAX_LINES, body_lines};
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
    let mut lines = 0;
    for (_, line) in body_lines(&mail.text) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        lines += 1;
        if out.len() >= MAX_CHECKS || lines > MAX_LINES {
            break;
        }
        // Only the mail's first sign-ons are checked ahead (at most
        // MAX_CHECKS, within its first MAX_LINES lines): the mail's own
        // reading bounds the rest.
        let Some(args) = crate::commands::command::args_after(&SignOn::SPEC, t) else {
            continue;
        };
        let Ok(SignOn::Seat(on)) = SignOn::parse(&args) else {
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
        let source = crate::trust::signon::source(&from, &answer, owner.as_deref());
        if out
            .iter()
            .any(|(g2, p2, _, _)| *g2 == g.name && *p2 == power)
            || crate::trust::signon::locked(conn, &g.name, power, source.as_deref(), now)
                .unwrap_or(true)
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
        SignOn::parse(&Args::new(words))
    }

    #[test]
    fn signon_in_every_judges_style() {
        let want = |p: Option<&str>| {
            SignOn::Seat(Seat {
                power: p.map(str::to_string),
                game: "mygame".into(),
                password: "pw".into(),
            })
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
        assert_eq!(
            parse("SIGNON ?mygame pw standard"),
            Ok(SignOn::Join {
                game: "mygame".into(),
                password: "pw".into(),
                variant: Some("standard".into())
            })
        );
        assert_eq!(
            parse("SIGNON Omygame pw"),
            Ok(SignOn::Observe {
                game: "mygame".into()
            })
        );
        assert_eq!(
            parse("SIGNON ? pw"),
            Ok(SignOn::Next {
                password: "pw".into()
            })
        );
    }
}
