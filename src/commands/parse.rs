//! Reading command lines.
//!
//! A line is a command when it starts with a command's name (any case, see
//! [`super::table::COMMANDS`]); everything else in a mail is orders or
//! chat. Press runs from its `PRESS`/`BROADCAST` line to `ENDPRESS`.

use super::table::COMMANDS;

/// Whom press goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PressTo {
    /// Everybody in the game.
    All,
    /// These powers (as written; resolved against the game).
    Powers(Vec<String>),
}

/// An EDIT.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Put a unit on the board: power and unit text (`A Lon`).
    Add {
        /// Power name.
        power: String,
        /// Unit, `A Lon`.
        unit: String,
    },
    /// Take the unit in a place off the board.
    Remove {
        /// Place.
        place: String,
    },
    /// Set a centre's owner (`None`: unowned).
    Owner {
        /// Centre.
        centre: String,
        /// Power name, or `None`.
        power: Option<String>,
    },
}

/// A parsed command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// HELP.
    Help,
    /// LIST [game].
    List(Option<String>),
    /// VARIANTS.
    Variants,
    /// HISTORY game [args].
    History {
        /// Game.
        game: String,
        /// Phase or range, as written.
        range: Vec<String>,
    },
    /// SUMMARY game.
    Summary(String),
    /// OBSERVE / UNOBSERVE game.
    Observe {
        /// Game.
        game: String,
        /// Start (true) or stop.
        on: bool,
    },
    /// CREATE game variant password.
    Create {
        /// Game name.
        game: String,
        /// Variant.
        variant: String,
        /// GM password.
        password: String,
        /// Optional powers to play (`WITH Vikings`).
        with: Vec<String>,
    },
    /// JOIN game password [preferences].
    Join {
        /// Game.
        game: String,
        /// Password chosen.
        password: String,
        /// Powers wanted, in order.
        prefs: Vec<String>,
    },
    /// SIGNON in any of its forms.
    SignOn {
        /// `Some(power)` (a name, a letter) or `None` for the GM.
        power: Option<String>,
        /// Game.
        game: String,
        /// Password.
        password: String,
    },
    /// SIGNOFF.
    SignOff,
    /// CLEAR.
    Clear,
    /// READY / NOT READY.
    Ready(bool),
    /// PRESS / BROADCAST.
    Press {
        /// Recipients.
        to: PressTo,
        /// Unsigned.
        grey: bool,
        /// The text.
        text: String,
    },
    /// DRAW / NO DRAW.
    Draw(bool),
    /// CONCEDE power / NO CONCEDE.
    Concede(Option<String>),
    /// RESIGN.
    Resign,
    /// NOMINATE centre: a replacement home centre (1066 rule 6).
    Nominate(String),
    /// EXCHANGE power centres FOR centres (Abstraction II rule 6): the
    /// text after the keyword.
    Exchange(String),
    /// PERMIT power / REVOKE power (1700 AD II rules 8, 9): `true` to
    /// permit.
    Permit(String, bool),
    /// SET key value.
    Set {
        /// The key (`DEADLINE`, `PASSWORD`, `PHASE LENGTH`...).
        key: &'static str,
        /// The rest of the line.
        value: String,
    },
    /// START.
    Start,
    /// PAUSE.
    Pause,
    /// RESUME.
    Resume,
    /// PROCESS.
    Process,
    /// PREVIEW.
    Preview,
    /// ROLLBACK [phase].
    Rollback(Option<String>),
    /// EJECT power.
    Eject(String),
    /// REPLACE power address.
    Replace {
        /// Power.
        power: String,
        /// New player's address.
        address: String,
    },
    /// EDIT.
    Edit(Edit),
    /// END DRAW / END WIN power.
    End {
        /// The winner, or `None` for a draw.
        winner: Option<String>,
    },
}

/// Keys of SET, longest first so `PHASE LENGTH` wins over shorter ones.
const SET_KEYS: &[&str] = &[
    "PHASE LENGTH",
    "DEADLINE",
    "GRACE",
    "REMINDER",
    "TIMEZONE",
    "TIME ZONE",
    "NMR",
    "PRESS",
    "STYLE",
    "END",
    "PASSWORD",
    "ADDRESS",
];

/// Whether a line starts with a command name; returns the name's index in
/// the table.
pub fn command_name(line: &str) -> Option<&'static str> {
    let words: Vec<String> = line
        .split_whitespace()
        .take(3)
        .map(|w| w.to_ascii_uppercase())
        .collect();
    let first = words.first()?;
    let first = first.trim_end_matches([':', '.']);
    match first {
        "NOT" if words.get(1).is_some_and(|w| w == "READY") => return Some("READY"),
        "NO" if words.get(1).is_some_and(|w| w == "DRAW") => return Some("DRAW"),
        "NO" if words.get(1).is_some_and(|w| w == "CONCEDE") => return Some("CONCEDE"),
        "ENDPRESS" | "SIGNOUT" => return Some("SIGNOFF"),
        "SET" => return Some("SET"),
        // `End` alone closes many players' orders: only END DRAW / END WIN
        // are commands.
        "END" if !words.get(1).is_some_and(|w| w == "DRAW" || w == "WIN") => return None,
        _ => {}
    }
    COMMANDS
        .iter()
        .find(|c| !c.name.contains(' ') && c.name == first)
        .map(|c| c.name)
}

/// Parse one command line (the press text is added by the caller).
pub fn parse(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let up: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let arg = |i: usize, what: &str| -> Result<String, String> {
        words
            .get(i)
            .map(|s| s.to_string())
            .ok_or_else(|| format!("{} needs {what}", up[0]))
    };
    let rest = |i: usize| -> String { words.get(i..).map(|w| w.join(" ")).unwrap_or_default() };
    let head = up[0].trim_end_matches([':', '.']);
    Ok(match head {
        "HELP" => Command::Help,
        "LIST" => Command::List(words.get(1).map(|s| s.to_string())),
        "VARIANTS" => Command::Variants,
        "HISTORY" => Command::History {
            game: arg(1, "a game name")?,
            range: words.iter().skip(2).map(|s| s.to_string()).collect(),
        },
        "SUMMARY" => Command::Summary(arg(1, "a game name")?),
        "OBSERVE" => Command::Observe {
            game: arg(1, "a game name")?,
            on: true,
        },
        "UNOBSERVE" => Command::Observe {
            game: arg(1, "a game name")?,
            on: false,
        },
        "CREATE" => {
            let with_ok = words.len() > 5 && up[4] == "WITH";
            if words.len() != 4 && !with_ok {
                return Err("CREATE needs a game name, a variant and a password: CREATE mygame standard secret (and WITH power for an optional power)".into());
            }
            Command::Create {
                game: words[1].to_string(),
                variant: words[2].to_string(),
                password: words[3].to_string(),
                with: words
                    .iter()
                    .skip(5)
                    .map(|w| w.trim_matches(',').to_string())
                    .filter(|w| !w.is_empty() && !w.eq_ignore_ascii_case("and"))
                    .collect(),
            }
        }
        "JOIN" => Command::Join {
            game: arg(1, "a game name")?,
            password: arg(2, "a password")?,
            prefs: words
                .iter()
                .skip(3)
                .map(|s| s.trim_matches(',').to_string())
                .collect(),
        },
        "SIGNON" => parse_signon(&words[1..])?,
        "SIGNOFF" | "SIGNOUT" | "ENDPRESS" => Command::SignOff,
        "CLEAR" => Command::Clear,
        "READY" => Command::Ready(true),
        "NOT" => Command::Ready(false),
        "DRAW" => Command::Draw(true),
        "NO" if up.get(1).is_some_and(|w| w == "DRAW") => Command::Draw(false),
        "NO" => Command::Concede(None),
        "CONCEDE" => Command::Concede(Some(arg(1, "the power you concede to")?)),
        "RESIGN" => Command::Resign,
        "NOMINATE" => Command::Nominate(arg(1, "the centre to nominate")?),
        "PERMIT" => Command::Permit(arg(1, "the power you let in")?, true),
        "REVOKE" => Command::Permit(arg(1, "the power you no longer let in")?, false),
        "EXCHANGE" => {
            arg(
                1,
                "a power, the centres you give, FOR, the centres you take",
            )?;
            Command::Exchange(rest(1))
        }
        "START" => Command::Start,
        "PAUSE" => Command::Pause,
        "RESUME" => Command::Resume,
        "PROCESS" => Command::Process,
        "PREVIEW" => Command::Preview,
        "ROLLBACK" => Command::Rollback(words.get(1).map(|_| rest(1))),
        "EJECT" => Command::Eject(arg(1, "a power")?),
        "REPLACE" => Command::Replace {
            power: arg(1, "a power")?,
            address: arg(2, "the new player's address")?,
        },
        "EDIT" => parse_edit(&words[1..])?,
        "END" => match up.get(1).map(String::as_str) {
            Some("DRAW") => Command::End { winner: None },
            Some("WIN") => Command::End {
                winner: Some(arg(2, "the winning power")?),
            },
            _ => return Err("END DRAW or END WIN power".into()),
        },
        "SET" => {
            let after = up[1..].join(" ");
            let key = SET_KEYS
                .iter()
                .find(|k| after == **k || after.starts_with(&format!("{k} ")))
                .ok_or_else(|| {
                    format!(
                        "SET what? The judge knows SET {}",
                        SET_KEYS
                            .iter()
                            .map(|k| k.to_string())
                            .collect::<Vec<_>>()
                            .join(", SET ")
                    )
                })?;
            let n = key.split(' ').count();
            let key = if *key == "TIME ZONE" { "TIMEZONE" } else { key };
            Command::Set {
                key,
                value: rest(1 + n),
            }
        }
        "PRESS" | "BROADCAST" => parse_press_head(&words, &up)?,
        other => return Err(format!("unknown command {other}")),
    })
}

fn parse_press_head(words: &[&str], up: &[String]) -> Result<Command, String> {
    let broadcast = up[0] == "BROADCAST";
    let mut grey = false;
    let mut to = Vec::new();
    let mut i = 1;
    if !broadcast && up.get(1).is_some_and(|w| w == "TO") {
        i = 2;
    }
    while i < up.len() {
        let w = up[i].trim_matches(',');
        if w == "GREY" || w == "GRAY" {
            grey = true;
        } else if !w.is_empty() && !broadcast {
            to.push(words[i].trim_matches(',').to_string());
        }
        i += 1;
    }
    let to = if broadcast || to.iter().any(|w| w.eq_ignore_ascii_case("all")) {
        PressTo::All
    } else if to.is_empty() {
        return Err("PRESS TO whom? Write PRESS TO England France, or BROADCAST".into());
    } else {
        PressTo::Powers(to)
    };
    Ok(Command::Press {
        to,
        grey,
        text: String::new(),
    })
}

/// `SIGNON England game pw`, `SIGNON Egame pw`, `SIGNON england@game pw`,
/// `SIGNON GM game pw`, `SIGNON Mgame pw`.
fn parse_signon(w: &[&str]) -> Result<Command, String> {
    let usage = "write SIGNON power game password (or SIGNON GM game password)";
    match w {
        [who, game, pw] => {
            let power = if who.eq_ignore_ascii_case("gm") || who.eq_ignore_ascii_case("master") {
                None
            } else {
                Some(who.to_string())
            };
            Ok(Command::SignOn {
                power,
                game: game.to_string(),
                password: pw.to_string(),
            })
        }
        [combined, pw] => {
            if let Some((p, g)) = combined.split_once('@') {
                let power = if p.eq_ignore_ascii_case("gm") || p.eq_ignore_ascii_case("master") {
                    None
                } else {
                    Some(p.to_string())
                };
                return Ok(Command::SignOn {
                    power,
                    game: g.to_string(),
                    password: pw.to_string(),
                });
            }
            // njudge: the power's letter glued to the game name.
            let mut chars = combined.chars();
            let letter = chars.next().ok_or(usage)?;
            let game: String = chars.collect();
            if game.is_empty() {
                return Err(usage.into());
            }
            let power = if letter.eq_ignore_ascii_case(&'m') {
                None
            } else {
                Some(letter.to_ascii_uppercase().to_string())
            };
            Ok(Command::SignOn {
                power,
                game,
                password: pw.to_string(),
            })
        }
        _ => Err(usage.into()),
    }
}

fn parse_edit(w: &[&str]) -> Result<Command, String> {
    let usage = "EDIT ADD power unit, EDIT REMOVE place, or EDIT OWNER centre power|NONE";
    let up = |i: usize| w.get(i).map(|s| s.to_ascii_uppercase()).unwrap_or_default();
    Ok(Command::Edit(match up(0).as_str() {
        "ADD" if w.len() >= 4 => Edit::Add {
            power: w[1].to_string(),
            unit: w[2..].join(" "),
        },
        "REMOVE" if w.len() >= 2 => Edit::Remove {
            place: w[1..].join(" "),
        },
        "OWNER" if w.len() == 3 => Edit::Owner {
            centre: w[1].to_string(),
            power: (!w[2].eq_ignore_ascii_case("none")).then(|| w[2].to_string()),
        },
        _ => return Err(usage.into()),
    }))
}

/// The line as it may be echoed in a reply: passwords hidden.
pub fn redact(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let up: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let hide_from = match up.first().map(String::as_str) {
        Some("SIGNON") => Some(words.len().saturating_sub(1)),
        Some("CREATE") => Some(3),
        Some("JOIN") => Some(2),
        Some("SET") if up.get(1).is_some_and(|w| w == "PASSWORD") => Some(2),
        _ => None,
    };
    match hide_from {
        Some(i) if i < words.len() && i > 0 => {
            let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
            out[i] = "********".into();
            out.join(" ")
        }
        _ => words.join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signon_in_every_judges_style() {
        let want = |p: Option<&str>| Command::SignOn {
            power: p.map(str::to_string),
            game: "mygame".into(),
            password: "pw".into(),
        };
        assert_eq!(parse("SIGNON England mygame pw"), Ok(want(Some("England"))));
        assert_eq!(parse("signon Emygame pw"), Ok(want(Some("E"))));
        assert_eq!(parse("SIGNON england@mygame pw"), Ok(want(Some("england"))));
        assert_eq!(parse("SIGNON GM mygame pw"), Ok(want(None)));
        assert_eq!(parse("SIGNON Mmygame pw"), Ok(want(None)));
        assert!(parse("SIGNON mygame").is_err());
    }

    #[test]
    fn set_keys_and_bad_forms() {
        assert_eq!(
            parse("set phase length 48h 24h"),
            Ok(Command::Set {
                key: "PHASE LENGTH",
                value: "48h 24h".into()
            })
        );
        assert_eq!(
            parse("SET TIME ZONE Europe/Paris"),
            Ok(Command::Set {
                key: "TIMEZONE",
                value: "Europe/Paris".into()
            })
        );
        assert!(parse("SET COLOUR blue").unwrap_err().contains("SET what"));
        assert!(parse("CREATE game").is_err());
        assert!(parse("EDIT MOVE x").is_err());
        assert!(parse("PRESS").is_err());
    }

    #[test]
    fn passwords_never_echo() {
        assert_eq!(
            redact("SIGNON England g secret"),
            "SIGNON England g ********"
        );
        assert_eq!(
            redact("CREATE g standard secret"),
            "CREATE g standard ********"
        );
        assert_eq!(redact("JOIN g secret England"), "JOIN g ******** England");
        assert_eq!(redact("SET PASSWORD secret"), "SET PASSWORD ********");
    }

    #[test]
    fn command_lines_are_told_from_orders() {
        assert_eq!(command_name("signon Egame pw"), Some("SIGNON"));
        assert_eq!(command_name("NOT READY"), Some("READY"));
        assert_eq!(command_name("A(Lon)-Yor"), None);
        assert_eq!(command_name("F Lon - ENG"), None);
    }
}
