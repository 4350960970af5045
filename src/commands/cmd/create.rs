//! CREATE: a new game, with the mail's author (From) as its GM.
//!
//! Three judges' forms: this judge's `CREATE game variant password [WITH
//! optional powers]`, njudge's `CREATE ?game password [variant]` and
//! DPjudge's `CREATE game password [variant]` (told from this judge's
//! form by where the variant's name stands; standard when none is named).

use crate::commands::command::{
    Anyone, Args, Command, Governs, Secret, Spec, game_words, valid_game_name,
};
use crate::commands::error::{CmdError, CmdResult};
use crate::commands::{Ctx, Judge, Session, find_power};
use crate::game::Position;
use crate::game::record::{SeatStatus, Settings, Status};
use crate::map::PowerId;
use crate::rules::view::VariantRules;
use crate::store::games::{self, GameRow};
use crate::trust::password;

/// CREATE game variant password [WITH optional powers].
pub(crate) struct Create {
    game: String,
    variant: String,
    password: String,
    with: Vec<String>,
    /// `CREATE game word word` with neither word a variant the judge
    /// plays (as far as the line knows them): either form may be meant.
    unsure: bool,
}

/// `CREATE game word word` naming no variant the judge plays in either
/// place (the shipped ones and the line's [`Args::variants`]): which word
/// is the password cannot be told, so both are masked.
fn unsure(args: &Args) -> bool {
    let named = |x: &str| {
        crate::variant::BUILTIN
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(x))
            || args.variants.iter().any(|n| n.eq_ignore_ascii_case(x))
    };
    args.len() == 3
        && !args.get(0).is_some_and(|g| g.starts_with('?'))
        && !args.words[1..].iter().any(|w| named(w))
}

/// njudge's `CREATE ?game password [variant]` and DPjudge's `CREATE game
/// password [variant]`: (game, password, variant). DPjudge's is told from
/// this judge's `CREATE game variant password` by the variant's place: it
/// is DPjudge's when the second word names no variant the judge plays and
/// the third does, or when there are two words. The variants are those
/// the judge ships and `known` (the line's [`Args::variants`]: its
/// `[variants] dir` folder's too, where the line was read knowing them).
fn other_judges_form(w: &[String], known: &[String]) -> Option<(String, String, String)> {
    let shipped = |x: &str| {
        crate::variant::BUILTIN
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(x))
            || known.iter().any(|n| n.eq_ignore_ascii_case(x))
    };
    let standard = || "standard".to_string();
    if let Some(game) = w.first().and_then(|g| g.strip_prefix('?')) {
        return match &w[1..] {
            [pw] if !game.is_empty() => Some((game.to_string(), pw.clone(), standard())),
            [pw, variant] if !game.is_empty() => {
                Some((game.to_string(), pw.clone(), variant.clone()))
            }
            _ => None,
        };
    }
    match w {
        // `CREATE g standard` is a password forgotten, not a password.
        [game, pw] if !shipped(pw) => Some((game.clone(), pw.clone(), standard())),
        [game, pw, variant] if !shipped(pw) && shipped(variant) => {
            Some((game.clone(), pw.clone(), variant.clone()))
        }
        _ => None,
    }
}

impl Command for Create {
    const SPEC: Spec = Spec {
        secret: Secret::Varies,
        registers: true,
        governs: Governs::Seat,
        ..Spec::new(
            "CREATE",
            "CREATE game variant password [WITH optional powers]",
            "Create a game; you become its GM, signed on.",
        )
    };
    type Role = Anyone;
    fn registration(&self, _from: &str) -> Option<String> {
        // A name the judge does not take: the command is refused as it is,
        // and registers nothing.
        if !valid_game_name(&self.game) {
            return None;
        }
        let variant = if valid_game_name(&self.variant) {
            format!(" ({})", self.variant)
        } else {
            String::new()
        };
        Some(format!(
            "create {}{variant}, with this address as its GM",
            game_words(&self.game)
        ))
    }
    fn parse(args: &Args) -> Result<Self, String> {
        let w = &args.words;
        if let Some((game, password, variant)) = other_judges_form(w, &args.variants) {
            return Ok(Create {
                game,
                variant,
                password,
                with: Vec::new(),
                unsure: false,
            });
        }
        if w.first().is_some_and(|g| g.starts_with('?')) {
            return Err(
                "write CREATE ?game password [variant] (njudge), or CREATE game variant \
                 password"
                    .into(),
            );
        }
        let with_ok = w.len() > 4 && w[3].eq_ignore_ascii_case("with");
        if w.len() != 3 && !with_ok {
            return Err(
                "CREATE needs a game name, a variant and a password: CREATE mygame \
                        standard secret (and WITH power for an optional power)"
                    .into(),
            );
        }
        Ok(Create {
            game: w[0].clone(),
            variant: w[1].clone(),
            password: w[2].clone(),
            with: w
                .iter()
                .skip(4)
                .map(|x| x.trim_matches(',').to_string())
                .filter(|x| !x.is_empty() && !x.eq_ignore_ascii_case("and"))
                .collect(),
            unsure: unsure(args),
        })
    }
    fn secret_at(args: &Args) -> Option<usize> {
        if other_judges_form(&args.words, &args.variants).is_some()
            || args.get(0).is_some_and(|g| g.starts_with('?'))
        {
            Some(1)
        } else {
            Some(2)
        }
    }
    /// `CREATE game word word` naming no variant the judge plays (or
    /// read without the judge's variants, as a copy of the mail kept
    /// before it is read is, and naming no shipped one): either word may
    /// be the password, of this judge's form or of DPjudge's with a
    /// variant of the judge's folder, so both are masked.
    fn secrets_at(args: &Args) -> Vec<usize> {
        if unsure(args) {
            vec![1, 2]
        } else {
            Self::secret_at(args).into_iter().collect()
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let game = self.game.as_str();
        if !valid_game_name(game) {
            return Err("a game name is letters, digits, - and _ only (32 at most)".into());
        }
        if game.eq_ignore_ascii_case(super::list::FINISHED)
            || game.eq_ignore_ascii_case(super::list::FULL)
        {
            return Err(
                format!("`{game}` is a word of LIST (LIST FINISHED); choose another name").into(),
            );
        }
        let v = match judge.variant(&self.variant) {
            Ok(v) => v,
            // Neither word a variant: say so without repeating them (one
            // is the password).
            Err(_) if self.unsure => {
                return Err(format!(
                    "neither word after the game's name is a variant the judge plays; write \
                     CREATE game variant password (or DPjudge's CREATE game password variant) \
                     with one of: {}",
                    judge.variant_names().join(", ")
                )
                .into());
            }
            Err(e) => return Err(e),
        };
        password::check_new(&self.password)?;
        let hash =
            password::hash(&self.password).map_err(|e| CmdError::Fault(anyhow::anyhow!(e)))?;
        let mut pos = Position::initial(&v);
        // Optional powers play only when asked for.
        let mut chosen = Vec::new();
        for w in &self.with {
            let p = find_power(&v, w)?;
            if !v.map.power(p).optional {
                return Err(format!(
                    "{} always plays in {}; WITH is for optional powers",
                    v.map.power(p).name,
                    v.title
                )
                .into());
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
            gm_address: s.sender.from.email.clone(),
            gm_hash: hash,
            status: Status::Forming,
            settings: Settings {
                timezone: judge.default_tz.clone(),
                ..Settings::default()
            },
            position: crate::commands::stored(&v, &pos)?,
            deadline: None,
            reminded: false,
            grace_noticed: false,
            result: None,
            created_at: s.now,
        };
        if !games::create(s.tx, &row, v.map.powers().len())? {
            return Err(format!("a game called {game} already exists").into());
        }
        tracing::info!(game = %game, variant = %v.name, "game created");
        let mut seats = games::seats(s.tx, game)?;
        for &p in &left_out {
            if let Some(seat) = seats.get_mut(p.index()) {
                seat.status = SeatStatus::NotInGame;
                games::save_seat(s.tx, game, seat)?;
            }
        }
        // The variant's dummy powers: seats nobody is offered.
        let dummies: Vec<PowerId> = v.map.power_ids().filter(|p| v.unplayed(*p)).collect();
        for &p in &dummies {
            if let Some(seat) = seats.get_mut(p.index()) {
                seat.status = SeatStatus::Dummy;
                games::save_seat(s.tx, game, seat)?;
            }
        }
        s.ctx = Ctx::Gm {
            game: game.to_string(),
        };
        // Whose password: a newcomer GM took "JOIN g1 password" for the
        // GM's own, to be handed round.
        s.say(&format!(
            "  Created {game} ({}); you are its GM and signed on.",
            v.title
        ));
        s.say(&crate::report::wrap(
            &format!(
                "  Players join with JOIN {game} <a password of their own> \
                 [the powers they want, best first]; keep yours to yourself. \
                 The game starts when every seat is taken, or when you START it."
            ),
            72,
            "  ",
        ));
        if !dummies.is_empty() {
            let names: Vec<&str> = dummies
                .iter()
                .map(|p| v.map.power(*p).name.as_str())
                .collect();
            s.say(&crate::report::wrap(
                &format!(
                    "  Dummy powers, played by nobody (their units hold): {}.",
                    names.join(", ")
                ),
                72,
                "  ",
            ));
        }
        for p in v.map.power_ids().filter(|p| v.map.power(*p).optional) {
            let name = &v.map.power(p).name;
            if left_out.contains(&p) {
                s.say(&format!(
                    "  {name} are not in this game (CREATE {game} {} password WITH {name} to have them).",
                    v.name
                ));
            } else {
                s.say(&format!("  {name} play in this game."));
            }
        }
        Ok(())
    }
}
