//! The command language in one table: each command is a type in a file of
//! its own under `cmd/`, with its name, form, who may use it, help text,
//! parser and action together. [`COMMANDS`] lists them; the same table
//! recognises command lines, checks who may give them, and prints HELP, so
//! none of these can drift from the others.
//!
//! A line is a command only when it is the command's form: its first words
//! name a command and the rest parses as that command's arguments, nothing
//! left over. A line that starts like a command but is not its form is
//! reported as not understood and never carried out (chat such as "Clear
//! skies over the North Sea" is not CLEAR). Commands that end a seat or a
//! game ([`Spec::grave`]) must stand alone on their line in exactly their
//! form.

use super::cmd;
use super::error::CmdResult;
use super::{Ctx, Judge, Session};
use crate::map::PowerId;
use crate::report::wrap;
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
    /// GM, a seat's new address): carried out only for an address that has
    /// confirmed it wants the judge's mail (see `cmd::confirm`). A
    /// command only some of whose forms register (`SIGNON ?game` joins a
    /// game, `SIGNON England game` does not) says so per form
    /// ([`Command::registers`]).
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
    /// Whether this form of the command registers the mail's From address
    /// (see [`Spec::registers`]).
    fn registers(&self) -> bool {
        Self::SPEC.registers
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
    /// Whether `args` are a form of this command that registers the mail's
    /// From address (see [`Spec::registers`]).
    fn registers(&self, args: &Args) -> bool;
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
    fn registers(&self, args: &Args) -> bool {
        C::parse(args).is_ok_and(|c| c.registers())
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

/// Every command the judge knows, in the order HELP lists them.
pub(crate) static COMMANDS: &[&dyn Entry] = &[
    &Def::<cmd::help::Help>::NEW,
    &Def::<cmd::list::List>::NEW,
    &Def::<cmd::variants::Variants>::NEW,
    &Def::<cmd::history::History>::NEW,
    &Def::<cmd::summary::Summary>::NEW,
    &Def::<cmd::who::Who>::NEW,
    &Def::<cmd::status::Status>::NEW,
    &Def::<cmd::observe::Observe>::NEW,
    &Def::<cmd::observe::Unobserve>::NEW,
    &Def::<cmd::create::Create>::NEW,
    &Def::<cmd::join::Join>::NEW,
    &Def::<cmd::signon::SignOn>::NEW,
    &Def::<cmd::takeover::Takeover>::NEW,
    &Def::<cmd::confirm::Confirm>::NEW,
    &Def::<cmd::signoff::SignOff>::NEW,
    &Def::<cmd::signoff::EndPress>::NEW,
    &Def::<cmd::get::Get>::NEW,
    &Def::<cmd::get::Version>::NEW,
    &Def::<cmd::clear::Clear>::NEW,
    &Def::<cmd::phase::PhaseAhead>::NEW,
    &Def::<cmd::ready::Ready>::NEW,
    &Def::<cmd::ready::NotReady>::NEW,
    &Def::<cmd::ready::SetWait>::NEW,
    &Def::<cmd::ready::SetNoWait>::NEW,
    &Def::<cmd::nominate::Nominate>::NEW,
    &Def::<cmd::exchange::Exchange>::NEW,
    &Def::<cmd::permit::Permit>::NEW,
    &Def::<cmd::permit::Revoke>::NEW,
    &Def::<cmd::press::Press>::NEW,
    &Def::<cmd::press::Broadcast>::NEW,
    &Def::<cmd::diary::Diary>::NEW,
    &Def::<cmd::diary::DiaryOther>::NEW,
    &Def::<cmd::diary::PostalPress>::NEW,
    &Def::<cmd::draw::Draw>::NEW,
    &Def::<cmd::draw::NoDraw>::NEW,
    &Def::<cmd::concede::Concede>::NEW,
    &Def::<cmd::concede::NoConcede>::NEW,
    &Def::<cmd::resign::Resign>::NEW,
    &Def::<cmd::set_password::SetPassword>::NEW,
    &Def::<cmd::set_address::SetAddress>::NEW,
    &Def::<cmd::set_picture::SetPicture>::NEW,
    &Def::<cmd::set_name::SetName>::NEW,
    &Def::<cmd::absence::SetAbsence>::NEW,
    &Def::<cmd::absence::SetNoAbsence>::NEW,
    &Def::<cmd::set_deadline::SetDeadline>::NEW,
    &Def::<cmd::settings::SetPhaseLength>::NEW,
    &Def::<cmd::settings::SetGrace>::NEW,
    &Def::<cmd::settings::SetReminder>::NEW,
    &Def::<cmd::settings::SetTimezone>::NEW,
    &Def::<cmd::settings::SetNmr>::NEW,
    &Def::<cmd::settings::SetPress>::NEW,
    &Def::<cmd::press_setting::SetNoPress>::NEW,
    &Def::<cmd::press_setting::SetWhite>::NEW,
    &Def::<cmd::press_setting::SetWhiteGrey>::NEW,
    &Def::<cmd::press_setting::SetGreyOnly>::NEW,
    &Def::<cmd::set_timing::SetMovesTiming>::NEW,
    &Def::<cmd::set_timing::SetShortTiming>::NEW,
    &Def::<cmd::settings::SetStyle>::NEW,
    &Def::<cmd::settings::SetEnd>::NEW,
    &Def::<cmd::settings::SetRoster>::NEW,
    &Def::<cmd::absence::SetAbsences>::NEW,
    &Def::<cmd::settings::SetClock>::NEW,
    &Def::<cmd::settings::SetEarly>::NEW,
    &Def::<cmd::settings::SetAssignment>::NEW,
    &Def::<cmd::join::Assign>::NEW,
    &Def::<cmd::start::Start>::NEW,
    &Def::<cmd::game_state::ForceBegin>::NEW,
    &Def::<cmd::game_state::Activate>::NEW,
    &Def::<cmd::game_state::Form>::NEW,
    &Def::<cmd::pause::Pause>::NEW,
    &Def::<cmd::pause::Resume>::NEW,
    &Def::<cmd::process::Process>::NEW,
    &Def::<cmd::preview::Preview>::NEW,
    &Def::<cmd::rollback::Rollback>::NEW,
    &Def::<cmd::eject::Eject>::NEW,
    &Def::<cmd::replace::Replace>::NEW,
    &Def::<cmd::edit::Edit>::NEW,
    &Def::<cmd::become_power::Become>::NEW,
    &Def::<cmd::end::EndDraw>::NEW,
    &Def::<cmd::end::EndWin>::NEW,
    &Def::<cmd::game_state::Terminate>::NEW,
];

/// A line read as a command: its entry, the words of its name as written,
/// and its arguments.
pub struct CommandLine {
    /// The table entry.
    pub entry: &'static dyn Entry,
    /// The name as written (`Signon:`).
    pub head: Vec<String>,
    /// The arguments.
    pub args: Args,
}

/// A word of a command's name as written: any case, with a colon or a full
/// stop after it (`Signon:`, `SIGNON.`).
fn head_word(w: &str) -> String {
    w.trim_end_matches([':', '.', ',']).to_ascii_uppercase()
}

/// The command a line starts with, if any: the longest name that matches
/// its first words. Whether the rest is that command's form is for the
/// command's parser to say.
pub fn lookup(line: &str) -> Option<CommandLine> {
    lookup_knowing(line, &[])
}

/// [`lookup`], knowing the names of the variants the judge plays (its
/// `[variants] dir` folder's too), for the forms told apart by them.
pub fn lookup_knowing(line: &str, variants: &[String]) -> Option<CommandLine> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let heads: Vec<String> = words.iter().take(3).map(|w| head_word(w)).collect();
    let mut best: Option<(&'static dyn Entry, usize)> = None;
    for e in COMMANDS {
        let spec = e.spec();
        for name in std::iter::once(&spec.name).chain(spec.also.iter()) {
            let n = name.split(' ').count();
            if n <= heads.len()
                && name.split(' ').zip(&heads).all(|(a, b)| a == b)
                && best.is_none_or(|(_, m)| n > m)
            {
                best = Some((*e, n));
            }
        }
    }
    let (entry, n) = best?;
    Some(CommandLine {
        entry,
        head: words[..n].iter().map(|w| w.to_string()).collect(),
        args: Args {
            words: words[n..].iter().map(|w| w.to_string()).collect(),
            variants: variants.to_vec(),
        },
    })
}

/// Whether a line starts with the word `SET` but names no SET the judge
/// knows: told apart so the reply can list them.
pub(crate) fn unknown_set(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| head_word(w) == "SET")
        && lookup(line).is_none()
}

/// The SET commands, for the reply to an unknown one.
pub(crate) fn set_names() -> String {
    COMMANDS
        .iter()
        .filter(|e| !e.spec().other_judges)
        .map(|e| e.spec().name)
        .filter(|n| n.starts_with("SET "))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The line as it may be echoed or kept: the command's password masked.
/// When the command takes a password and was not `done` (or the line is not
/// its form), every argument is masked: a line whose words ran together
/// (an HTML mail) may hold the password anywhere.
pub(crate) fn echo(c: &CommandLine, done: bool) -> String {
    let spec = c.entry.spec();
    let mut words: Vec<String> = c.head.clone();
    // A plain form (a failed sign-on): the password alone is hidden. A
    // longer line may be words run together (an HTML mail), the password
    // anywhere among them: all are hidden.
    let plain_failure = !done && spec.echo_failed && c.args.len() <= 3;
    let masked: Vec<usize> = match spec.secret {
        Secret::None => Vec::new(),
        _ if (!done && !plain_failure) || c.entry.check(&c.args).is_err() => {
            words.extend(c.args.words.iter().map(|_| "********".to_string()));
            return words.join(" ");
        }
        _ => c.entry.secrets_at(&c.args),
    };
    for (i, w) in c.args.words.iter().enumerate() {
        // In a failed sign-on the words may be out of order: one as long
        // as a chosen password (8 characters or more) is hidden wherever
        // it stands.
        let long = plain_failure && w.chars().count() >= 8;
        if masked.contains(&i) || long {
            words.push("********".into());
        } else {
            words.push(w.clone());
        }
    }
    words.join(" ")
}

/// The line as kept in a copy of the mail: every argument of a command
/// that takes a password masked (nobody reads the copy to find a typo).
pub(crate) fn kept_form(c: &CommandLine) -> String {
    let mut words: Vec<String> = c.head.clone();
    if c.entry.spec().secret == Secret::None {
        words.extend(c.args.words.iter().cloned());
    } else {
        words.extend(c.args.words.iter().map(|_| "********".to_string()));
    }
    words.join(" ")
}

/// The password a command line holds, if it is its command's form (the
/// first word that may be it: see [`secrets_of`]).
pub fn secret_of(c: &CommandLine) -> Option<String> {
    secrets_of(c).into_iter().next()
}

/// The password a command line holds, if it is its command's form: the
/// words that may be it, where the form cannot tell which.
pub fn secrets_of(c: &CommandLine) -> Vec<String> {
    c.entry
        .secrets_at(&c.args)
        .into_iter()
        .filter_map(|i| c.args.get(i).map(str::to_string))
        .collect()
}

/// The HELP reply for one command, named by any of its names (any case):
/// its form, what it does and who may use it. `None` if no command has
/// that name.
pub(crate) fn help_for(name: &str) -> Option<String> {
    let want = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_uppercase();
    let c = COMMANDS.iter().find(|c| {
        let spec = c.spec();
        spec.name == want || spec.also.contains(&want.as_str())
    })?;
    let spec = c.spec();
    let who = match c.who() {
        Who::Anyone => "Anybody may use it; no sign-on is needed.",
        Who::Player => "For players, after SIGNON power game password.",
        Who::SignedOn => "For players and the GM, after SIGNON.",
        Who::Gm => "For the game's GM, after SIGNON GM game password.",
    };
    let mut s = wrap(&format!("  {}", spec.usage), 72, "    ");
    s.push_str(&wrap(&format!("      {}", spec.help), 72, "      "));
    s.push_str(&wrap(&format!("      {who}"), 72, "      "));
    if spec.grave {
        s.push_str(&wrap(
            "      It must stand alone on its line, exactly in this form.",
            72,
            "      ",
        ));
    }
    Some(s)
}

/// The HELP reply.
pub(crate) fn help_text() -> String {
    let mut s = String::from(
        "Commands are lines of a mail; the Subject is not read. After SIGNON,\n\
         every line that is not a command is read as an order for your power.\n\
         A command is carried out only when its line is exactly its form.\n\n",
    );
    for (title, who) in [
        ("For everybody", &[Who::Anyone][..]),
        (
            "For players, after SIGNON",
            &[Who::Player, Who::SignedOn][..],
        ),
        ("For the GM, after SIGNON GM", &[Who::Gm][..]),
    ] {
        s.push_str(title);
        s.push_str(":\n");
        for c in COMMANDS
            .iter()
            .filter(|c| who.contains(&c.who()) && !c.spec().other_judges)
        {
            let spec = c.spec();
            s.push_str(&wrap(&format!("  {}", spec.usage), 72, "    "));
            s.push_str(&wrap(&format!("      {}", spec.help), 72, "      "));
        }
        s.push('\n');
    }
    s.push_str(
        "Orders are written as in the zines: A(Lon)-Yor, F(ENG) C A(Lon)-Bre,\n\
         A(Wal) S A(Lon)-Yor, A(Bud) S A(Vie), F(NTH) H; full names, any case.\n\
         Retreats: A(Vie)-Boh, Disband A(Vie). Builds: Build A(Par), Remove\n\
         A(Mun), Waive. HELP and a command's name tell more of it.\n\n\
         Players of njudge and DPjudge: their forms are read too (SIGNON Egame,\n\
         PRESS TO FG, SET DRAW, PHASE...); HELP NJUDGE lists their other words.\n\n",
    );
    s.push_str(
        "When a phase is adjudicated: at its deadline, or earlier once every\n\
         player is ready. A player whose orders are complete is ready unless\n\
         they sent SET WAIT; READY says so outright (with SET EARLY READY the\n\
         GM asks for READY from everyone). A retreat or adjustment phase with\n\
         nothing left to order goes at once. Only a missed deadline makes a\n\
         power late: an early phase, or the GM's PROCESS before the deadline,\n\
         puts nobody in civil disorder.\n",
    );
    s
}

/// HELP NJUDGE: the other judges' words this judge takes as its own
/// commands, or answers with what it has instead.
pub(crate) fn help_other_judges() -> String {
    let mut s = String::from(
        "njudge's and DPjudge's words this judge reads as its own commands, or\n\
         answers with what it has instead (their sign-ons, press and SETs are\n\
         read by the commands above them in HELP):\n\n",
    );
    for c in COMMANDS.iter().filter(|c| c.spec().other_judges) {
        let spec = c.spec();
        s.push_str(&wrap(&format!("  {}", spec.usage), 72, "    "));
        s.push_str(&wrap(&format!("      {}", spec.help), 72, "      "));
    }
    s
}

/// Text for roff: backslashes and hyphens escaped, and a line that would
/// start with a control character kept as text.
fn roff(text: &str) -> String {
    let t = text.replace('\\', "\\e").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

/// The mail commands as a manual page, zinejudge-mail(7), made from the
/// same table as HELP so the two never disagree.
pub(crate) fn manual() -> String {
    let mut m = String::from(
        ".TH zinejudge\\-mail 7 \"\" \"zinejudge\" \"zinejudge\"\n\
         .SH NAME\nzinejudge\\-mail \\- the commands players and GMs mail to a zinejudge judge\n\
         .SH DESCRIPTION\n",
    );
    let intro = [
        "Commands are lines of a mail sent to the judge's address; the Subject is not read. \
         Every mail is answered at once. After SIGNON, every line that is not a command is \
         read as an order for your power. A command is carried out only when its line is \
         exactly its form.",
        "Passwords are your own: the GM chooses the game's with CREATE, each player their \
         own with JOIN, and signs on with it (SIGNON power game password).",
    ];
    for p in intro {
        m.push_str(&roff(p));
        m.push_str("\n.PP\n");
    }
    for (title, who) in [
        ("FOR EVERYBODY", &[Who::Anyone][..]),
        (
            "FOR PLAYERS, AFTER SIGNON",
            &[Who::Player, Who::SignedOn][..],
        ),
        ("FOR THE GM, AFTER SIGNON GM", &[Who::Gm][..]),
    ] {
        m.push_str(&format!(".SH \"{title}\"\n"));
        for c in COMMANDS
            .iter()
            .filter(|c| who.contains(&c.who()) && !c.spec().other_judges)
        {
            let spec = c.spec();
            m.push_str(&format!(
                ".TP\n.B {}\n{}\n",
                roff(spec.usage),
                roff(spec.help)
            ));
        }
    }
    m.push_str(".SH \"OTHER JUDGES' WORDS\"\n");
    for c in COMMANDS.iter().filter(|c| c.spec().other_judges) {
        let spec = c.spec();
        m.push_str(&format!(
            ".TP\n.B {}\n{}\n",
            roff(spec.usage),
            roff(spec.help)
        ));
    }
    m.push_str(".SH ORDERS\n");
    m.push_str(&roff(
        "Orders are written as in the zines: A(Lon)-Yor, F(ENG) C A(Lon)-Bre, A(Wal) S \
         A(Lon)-Yor, A(Bud) S A(Vie), F(NTH) H; full names, any case. Retreats: A(Vie)-Boh, \
         Disband A(Vie). Builds: Build A(Par), Remove A(Mun), Waive. The answer echoes each \
         line as read, says what was not accepted and what the unit could do instead, and \
         lists the orders held and what is missing.",
    ));
    m.push_str("\n.SH \"WHEN A PHASE IS ADJUDICATED\"\n");
    m.push_str(&roff(
        "At its deadline, or earlier once every player is ready. A player whose orders are \
         complete is ready unless they sent SET WAIT; READY says so outright, and with SET \
         EARLY READY the GM asks for READY from everyone. A retreat or adjustment phase with \
         nothing left to order goes at once. Deadlines follow the game clock (SET CLOCK, SET \
         PHASE LENGTH). Only a missed deadline makes a power late: an early phase, or the \
         GM's PROCESS before the deadline, puts nobody in civil disorder.",
    ));
    m.push_str("\n.SH \"SEE ALSO\"\nzinejudge(1)\n");
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manual_page_names_every_command() {
        let m = manual();
        assert!(m.starts_with(".TH zinejudge\\-mail 7"));
        for c in COMMANDS {
            assert!(m.contains(&roff(c.spec().usage)), "{}", c.spec().name);
        }
        assert!(
            !m.lines()
                .any(|l| l.starts_with('\'') || l.starts_with(".B ."))
        );
    }

    #[test]
    fn help_lines_fit_in_72_characters() {
        let h = help_text();
        for l in h.lines() {
            assert!(l.chars().count() <= 72, "{l}");
        }
        assert!(h.contains("SIGNON power game password"));
    }

    #[test]
    fn every_command_name_is_unique_and_upper_case() {
        let mut seen = std::collections::HashSet::new();
        for e in COMMANDS {
            let s = e.spec();
            for n in std::iter::once(&s.name).chain(s.also.iter()) {
                assert_eq!(*n, n.to_ascii_uppercase());
                assert!(seen.insert(*n), "{n} twice");
            }
        }
    }

    #[test]
    fn the_longest_name_wins() {
        assert_eq!(
            lookup("set phase length 48h").map(|c| c.entry.spec().name),
            Some("SET PHASE LENGTH")
        );
        assert_eq!(
            lookup("NOT READY").map(|c| c.entry.spec().name),
            Some("NOT READY")
        );
        assert_eq!(
            lookup("Signon: England g pw").map(|c| c.entry.spec().name),
            Some("SIGNON")
        );
        assert!(lookup("A(Lon)-Yor").is_none());
        assert!(lookup("F Lon - ENG").is_none());
        assert!(unknown_set("SET COLOUR blue"));
        assert!(!unknown_set("SET GRACE 2h"));
    }

    #[test]
    fn passwords_are_masked_in_every_form() {
        for (line, want) in [
            ("SIGNON England g secret", "SIGNON England g ********"),
            ("Signon: England g secret", "Signon: England g ********"),
            ("signon. Eg secret", "signon. Eg ********"),
            ("CREATE g standard secret", "CREATE g standard ********"),
            ("JOIN: g secret England", "JOIN: g ******** England"),
            ("SET PASSWORD: secret", "SET PASSWORD: ********"),
            ("set password secret", "set password ********"),
            ("SET PASSWORD two words", "SET PASSWORD ******** ********"),
            ("JOIN g", "JOIN ********"),
        ] {
            let c = lookup(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(echo(&c, true), want, "{line}");
        }
        // Not done (a run-together line read as a sign-on that failed):
        // every word after the name is masked.
        let c = lookup("SIGNON England g secretA Lon-Yor").unwrap();
        assert_eq!(
            echo(&c, false),
            "SIGNON ******** ******** ******** ********"
        );
    }
}
