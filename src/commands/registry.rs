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
use super::command::{Args, Def, Entry, Secret, Who, head_word};

/// HELP's texts, from this table (see `session::HelpTexts`).
pub(crate) struct Help;

impl super::session::HelpTexts for Help {
    fn all(&self) -> String {
        super::helptext::help_text(COMMANDS)
    }
    fn one(&self, name: &str) -> Option<String> {
        super::helptext::help_for(COMMANDS, name)
    }
    fn other_judges(&self) -> String {
        super::helptext::help_other_judges(COMMANDS)
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
    &Def::<cmd::diary::DiaryDelete>::NEW,
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
    &Def::<cmd::settings::SetCd>::NEW,
    &Def::<cmd::settings::SetNoNmr>::NEW,
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
    &Def::<cmd::join::SetPreference>::NEW,
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
/// words that may be it, where the form cannot tell which. A line that
/// only starts like a command (the welcome's "Sign on and send your
/// orders ... (the password is the one you chose)", quoted in a reply)
/// holds none: a word is a password by its place in a command, never
/// because of a phrase near it.
pub fn secrets_of(c: &CommandLine) -> Vec<String> {
    if c.entry.check(&c.args).is_err() {
        return Vec::new();
    }
    c.entry
        .secrets_at(&c.args)
        .into_iter()
        .filter_map(|i| c.args.get(i).map(str::to_string))
        .collect()
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
        let h = crate::commands::helptext::help_text(COMMANDS);
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
