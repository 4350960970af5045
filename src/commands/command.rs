//! What every command is made of: its entry in the table ([`Spec`]: name,
//! form, help, who may give it, where its password stands), the words of
//! its line ([`Args`]), the signed-on seat it runs for ([`Role`]), and the
//! trait each command's type implements ([`Command`]). Every command file
//! imports this; this file imports no command (the table that lists them
//! all is [`super::registry`]).

use super::error::CmdResult;
use super::{Ctx, Judge, Session};
use crate::map::PowerId;
use std::marker::PhantomData;

/// Who may give a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// Anybody, signed on or not.
    Anyone,
    /// A player signed on to a power.
    Player,
    /// A player or the GM, signed on.
    SignedOn,
    /// The game's GM, signed on.
    Gm,
}

/// Which words of a command line hold a secret (a password), to be masked
/// wherever the line is echoed or kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Secret {
    /// None.
    None,
    /// The argument at this index (0 = the first word after the name).
    Arg(usize),
    /// The last argument.
    Last,
    /// Where the command's form puts it, which depends on the form
    /// (`CREATE ?game password variant` beside `CREATE game variant
    /// password`): the command says ([`Command::secret_at`]).
    Varies,
}

/// What a command says of the lines below it (njudge's sign-on and
/// PHASE: "all orders until the next PHASE directive ... will be saved for
/// the specified phase").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Governs {
    /// Nothing: the lines below it are read as they would be without it.
    Nothing,
    /// Who the lines below speak for (SIGNON, JOIN, CREATE, TAKEOVER):
    /// when it is not carried out, nobody is signed on and the orders
    /// below it, up to the next such line, are orders for nobody.
    Seat,
    /// What the orders below it are for (PHASE, BECOME): when it is not
    /// carried out, the orders below it, up to the next such line, are
    /// orders for no phase, never the ones before it.
    Orders,
}

/// What the table says of one command.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// The words that start it, upper case (`SIGNON`, `SET DEADLINE`).
    pub name: &'static str,
    /// Other words that start it (`SIGNOUT` for `SIGNOFF`).
    pub also: &'static [&'static str],
    /// Its form, for HELP and for errors.
    pub usage: &'static str,
    /// What it does, in a line or two.
    pub help: &'static str,
    /// It ends a seat or a game: only its exact form alone on a line.
    pub grave: bool,
    /// Which argument is a password.
    pub secret: Secret,
    /// It registers the mail's From address (as a player, an observer, a
    /// GM, a seat's new address): carried out for a From that is only a
    /// claim once that address confirms the mail (see `trust::confirm`). A
    /// command only some of whose forms register (`SIGNON ?game` joins a
    /// game, `SIGNON England game` does not) says so per form
    /// ([`Command::registration`]).
    pub registers: bool,
    /// The lines below it, up to a terminator (ENDPRESS, ENDBROADCAST,
    /// SIGNOFF, a sign-on or the end of the mail: see
    /// [`crate::commands::pressform::block`]), are its text, never
    /// commands or orders (PRESS, BROADCAST, DIARY).
    pub block: bool,
    /// Another judge's word (njudge's, DPjudge's) that this judge reads as
    /// one of its own commands, or refuses with what it has instead: left
    /// out of HELP's list, which is this judge's own, and listed by HELP
    /// NJUDGE.
    pub other_judges: bool,
    /// When it fails in its plain form (at most three words after its
    /// name), its echo shows every word but the password, so the writer
    /// sees which word was wrong (a failed sign-on). Otherwise a failed
    /// command that takes a password has every word masked.
    pub echo_failed: bool,
    /// What it says of the lines below it: a line that sets who or what
    /// the orders below are for, when refused, leaves them read for
    /// nothing (a refused `PHASE Spring 1907` never lets its orders
    /// replace the current phase's).
    pub governs: Governs,
}

impl Spec {
    /// A spec with no other names, not grave, without secrets.
    pub const fn new(name: &'static str, usage: &'static str, help: &'static str) -> Spec {
        Spec {
            name,
            also: &[],
            usage,
            help,
            grave: false,
            secret: Secret::None,
            registers: false,
            block: false,
            other_judges: false,
            echo_failed: false,
            governs: Governs::Nothing,
        }
    }
}

/// The words after a command's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    /// As written.
    pub words: Vec<String>,
    /// The names of the variants the judge plays, where the line was read
    /// knowing them ([`lookup_knowing`]): a form that names a variant
    /// where another form has a password (DPjudge's `CREATE game password
    /// variant`) is told apart by them. Empty: not known.
    pub variants: Vec<String>,
}

impl Args {
    /// The words of a line read without the judge's variants.
    pub fn new(words: Vec<String>) -> Args {
        Args {
            words,
            variants: Vec::new(),
        }
    }
}

impl Args {
    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// No words at all.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Word `i`, as written.
    pub fn get(&self, i: usize) -> Option<&str> {
        self.words.get(i).map(String::as_str)
    }

    /// Word `i` in upper case (empty if missing).
    pub fn upper(&self, i: usize) -> String {
        self.get(i).map(str::to_ascii_uppercase).unwrap_or_default()
    }

    /// Words from `i` on, joined by single spaces.
    pub fn rest(&self, i: usize) -> String {
        self.words.get(i..).map(|w| w.join(" ")).unwrap_or_default()
    }

    /// The words without a final full stop or exclamation mark (people end
    /// lines with them); for commands whose arguments hold no password.
    pub fn bare(&self) -> Args {
        let mut words = self.words.clone();
        if let Some(last) = words.last_mut() {
            let t = last.trim_end_matches(['.', '!']).to_string();
            if t.is_empty() {
                words.pop();
            } else {
                *last = t;
            }
        }
        Args {
            words,
            variants: self.variants.clone(),
        }
    }

    /// Refuse any words: the command takes none.
    pub fn none(&self, spec: &Spec) -> Result<(), String> {
        if self.bare().is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{} takes nothing after it (write {})",
                spec.name, spec.usage
            ))
        }
    }
}

/// The signed-on context a command of a role runs in.
pub(crate) trait Role {
    /// What the command gets.
    type Seat;
    /// Who that is, for HELP.
    const WHO: Who;
    /// The seat, if the mail's context admits the role.
    fn admit(ctx: &Ctx) -> Option<Self::Seat>;
    /// Why not, when it does not.
    fn refusal() -> &'static str;
}

/// Anybody.
pub(crate) struct Anyone;
/// A player signed on to a power.
pub(crate) struct Player;
/// The GM signed on to a game.
pub(crate) struct Gm;
/// A player or the GM.
pub(crate) struct SignedOn;

/// A player's seat: the game and the power.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PlayerSeat {
    /// The game.
    pub game: String,
    /// The power.
    pub power: PowerId,
}

/// A signed-on seat: the power, or `None` for the GM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AnySeat {
    /// The game.
    pub game: String,
    /// The power, or `None` for the GM.
    pub power: Option<PowerId>,
}

impl Role for Anyone {
    type Seat = ();
    const WHO: Who = Who::Anyone;
    fn admit(_: &Ctx) -> Option<()> {
        Some(())
    }
    fn refusal() -> &'static str {
        ""
    }
}

impl Role for Player {
    type Seat = PlayerSeat;
    const WHO: Who = Who::Player;
    fn admit(ctx: &Ctx) -> Option<PlayerSeat> {
        match ctx {
            Ctx::Power { game, power } => Some(PlayerSeat {
                game: game.clone(),
                power: *power,
            }),
            _ => None,
        }
    }
    fn refusal() -> &'static str {
        "sign on as a power first (SIGNON power game password)"
    }
}

impl Role for Gm {
    type Seat = String;
    const WHO: Who = Who::Gm;
    fn admit(ctx: &Ctx) -> Option<String> {
        match ctx {
            Ctx::Gm { game } => Some(game.clone()),
            _ => None,
        }
    }
    fn refusal() -> &'static str {
        "only the GM may do that; sign on with SIGNON GM game password"
    }
}

impl Role for SignedOn {
    type Seat = AnySeat;
    const WHO: Who = Who::SignedOn;
    fn admit(ctx: &Ctx) -> Option<AnySeat> {
        match ctx {
            Ctx::Power { game, power } => Some(AnySeat {
                game: game.clone(),
                power: Some(*power),
            }),
            Ctx::Gm { game } => Some(AnySeat {
                game: game.clone(),
                power: None,
            }),
            Ctx::None => None,
        }
    }
    fn refusal() -> &'static str {
        "sign on first (SIGNON power game password, or SIGNON GM game password)"
    }
}

/// One command: a type that parses its arguments and runs.
pub(crate) trait Command: Sized + 'static {
    /// Its entry in the table.
    const SPEC: Spec;
    /// Who may give it.
    type Role: Role;
    /// Read the arguments; `Err` says why the line is not this command's
    /// form.
    fn parse(args: &Args) -> Result<Self, String>;
    /// What this form of the command asks that would register the mail's
    /// From address `from` (see [`Spec::registers`]), in the judge's words
    /// for a request to confirm it ("join the game g1"), or `None`. Only
    /// the command's own words and names the judge checked go into it:
    /// nothing of the sender's but a game's name.
    fn registration(&self, _from: &str) -> Option<String> {
        Self::SPEC
            .registers
            .then(|| format!("carry out {} for this address", Self::SPEC.name))
    }
    /// Which argument of `args` is a password, for [`Secret::Varies`].
    fn secret_at(_args: &Args) -> Option<usize> {
        None
    }
    /// Which arguments of `args` may be a password, for
    /// [`Secret::Varies`]: [`Command::secret_at`]'s, or more than one where
    /// the form cannot be told without what `args` do not say (then all
    /// are masked).
    fn secrets_at(args: &Args) -> Vec<usize> {
        Self::secret_at(args).into_iter().collect()
    }
    /// Who HELP says may give it: its role's, unless a form of it stands
    /// in place of a sign-on (DPjudge's `RESIGN power@game password`).
    fn shown_for() -> Who {
        Self::Role::WHO
    }
    /// Do it.
    fn run(
        self,
        judge: &mut Judge,
        s: &mut Session<'_, '_>,
        seat: <Self::Role as Role>::Seat,
    ) -> CmdResult;
}

/// What happened to a command line.
pub enum Outcome {
    /// The line is not the command's form.
    NotUnderstood(String),
    /// The sender may not give it.
    NotAllowed(&'static str),
    /// It ran (and may have been refused).
    Ran(CmdResult),
}

/// A table entry: a command's spec and a way to run it, types erased.
pub trait Entry: Sync {
    /// The spec.
    fn spec(&self) -> &'static Spec;
    /// Who may give it.
    fn who(&self) -> Who;
    /// Whether `args` are this command's form.
    fn check(&self, args: &Args) -> Result<(), String>;
    /// What `args`, a form of this command, ask that would register the
    /// mail's From address `from` ([`Command::registration`]).
    fn registration(&self, args: &Args, from: &str) -> Option<String>;
    /// Which arguments of `args` are (or may be) a password.
    fn secrets_at(&self, args: &Args) -> Vec<usize>;
    /// Parse, check who may, run.
    fn execute(&self, judge: &mut Judge, s: &mut Session<'_, '_>, args: &Args) -> Outcome;
}

/// The entry of command `C`.
pub(crate) struct Def<C>(PhantomData<fn() -> C>);

impl<C> Def<C> {
    /// The entry.
    pub(crate) const NEW: Def<C> = Def(PhantomData);
}

impl<C: Command> Entry for Def<C> {
    fn spec(&self) -> &'static Spec {
        &C::SPEC
    }
    fn who(&self) -> Who {
        C::shown_for()
    }
    fn check(&self, args: &Args) -> Result<(), String> {
        C::parse(args).map(|_| ())
    }
    fn registration(&self, args: &Args, from: &str) -> Option<String> {
        C::parse(args).ok().and_then(|c| c.registration(from))
    }
    fn secrets_at(&self, args: &Args) -> Vec<usize> {
        match C::SPEC.secret {
            Secret::None => Vec::new(),
            Secret::Arg(i) => vec![i],
            Secret::Last => args.len().checked_sub(1).into_iter().collect(),
            Secret::Varies => C::secrets_at(args),
        }
    }
    fn execute(&self, judge: &mut Judge, s: &mut Session<'_, '_>, args: &Args) -> Outcome {
        let c = match C::parse(args) {
            Ok(c) => c,
            Err(e) => return Outcome::NotUnderstood(e),
        };
        let Some(seat) = C::Role::admit(&s.ctx) else {
            return Outcome::NotAllowed(C::Role::refusal());
        };
        Outcome::Ran(c.run(judge, s, seat))
    }
}

/// A word of a command's name as written: any case, with a colon or a full
/// stop after it (`Signon:`, `SIGNON.`).
pub(crate) fn head_word(w: &str) -> String {
    w.trim_end_matches([':', '.', ',']).to_ascii_uppercase()
}

/// The words after `spec`'s name (or one of its other names), when
/// `line` starts with it, read as the table reads a line
/// ([`super::registry::lookup`]); for a command that no longer name of
/// the table starts like (SIGNON), so that a reader of its lines alone
/// need not know the table.
pub(crate) fn args_after(spec: &Spec, line: &str) -> Option<Args> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let heads: Vec<String> = words.iter().take(3).map(|w| head_word(w)).collect();
    std::iter::once(&spec.name)
        .chain(spec.also.iter())
        .map(|name| name.split(' ').count())
        .zip(std::iter::once(&spec.name).chain(spec.also.iter()))
        .filter(|(n, name)| *n <= heads.len() && name.split(' ').zip(&heads).all(|(a, b)| a == b))
        .map(|(n, _)| n)
        .max()
        .map(|n| Args::new(words[n..].iter().map(|w| w.to_string()).collect()))
}

/// A game as a request to confirm names it: "the game NAME" for a name the
/// judge takes, else "a game" (a request carries nothing else of the
/// sender's words).
pub(crate) fn game_words(game: &str) -> String {
    if valid_game_name(game) {
        format!("the game {game}")
    } else {
        "a game".to_string()
    }
}

/// Whether a game name is one the judge takes: letters, digits, `-`, `_`.
pub(crate) fn valid_game_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 32
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}
