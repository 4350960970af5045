//! The command line: the edge where files and terminals meet the core.
//!
//! Each subcommand reads its inputs, calls the pure core, and prints. Errors
//! carry context (`anyhow`) and are printed once, by `main`.

/// `print!` that stops quietly when standard output is closed: a
/// `Result` to `?` (see [`out`]).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::out::print(format_args!($($arg)*))
    };
}

/// `println!` likewise (see [`say!`]).
macro_rules! sayln {
    ($($arg:tt)*) => {
        $crate::cli::out::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod adjudicate;
mod import;
mod out;
mod parse;
mod render;
mod variants;

use crate::variant::Variant;
use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// zinejudge: a play-by-email Diplomacy judge.
#[derive(Debug, Parser)]
#[command(
    name = "zinejudge",
    version,
    about,
    after_long_help = "Files: /etc/zinejudge/zinejudge.toml is the service's configuration \
        (`zinejudge check-config --config FILE` checks one; every key with its default and \
        meaning is in /usr/share/doc/zinejudge/zinejudge.toml). /var/lib/zinejudge holds \
        the store and the Maildirs, owned by the user zinejudge. Mail piped to \
        `zinejudge deliver` (as that user) is stored for the running judge."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Load and check a variant file; print a summary or every problem.
    CheckGame {
        /// The variant file (games/<variant>.toml).
        file: PathBuf,
    },
    /// Run DATC test cases (jDip/godip text format) against the adjudicator.
    Datc {
        /// Case files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The variant the cases are for: a shipped name or a file
        /// (`--variant` is the same: an imported map checked against the
        /// standard game's cases).
        #[arg(long, alias = "variant", default_value = "standard")]
        game: String,
        #[command(flatten)]
        folder: variants::Folder,
        /// Which DATC preferences to play by: `auto` reads the file's
        /// `DATC Version` line (v2 files expect v2's convoy fallback),
        /// `v2` or `v3` force one.
        #[arg(long, default_value = "auto", value_parser = ["auto", "v2", "v3"])]
        preferences: String,
        /// A case id whose failure is expected (may be repeated); it is
        /// reported but does not fail the run.
        #[arg(long = "allow-fail", value_name = "CASE")]
        allow_fail: Vec<String>,
    },
    /// Run the judge: read mail, answer it, adjudicate games at their
    /// deadlines, send results. Runs until SIGTERM; SIGHUP reloads the
    /// configuration.
    Run {
        /// Configuration file; without one the built-in defaults apply
        /// (local Maildirs and SQLite under var/, no server needed).
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Store one mail read from standard input for the judge (for
    /// `.forward` or procmail); a running judge answers it at once.
    Deliver {
        /// Configuration file (for the store's location and limits).
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Check a configuration file and print what it sets up. Every value
    /// is checked, and so is that the user running this can create and
    /// write the store and the Maildirs it names (run it as the service's
    /// user, from the directory the judge runs in); a PostgreSQL store is
    /// connected to, logged in to, and its tables checked; the IMAP and
    /// SMTP servers are logged in to, and the web address bound for a
    /// moment; each server is given 5 s to answer. Nothing is changed.
    CheckConfig {
        /// Configuration file; without one the built-in defaults.
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Print the manual page (roff), made from these definitions; with
    /// --dir, write every page, the mail commands' zinejudge-mail.7 too.
    Man {
        /// Instead, write zinejudge.1, a page for each subcommand
        /// (zinejudge-run.1, ...) and zinejudge-mail.7 (the commands
        /// players and GMs mail) into this directory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Print the results of a past phase of a game and write the picture of
    /// the board after it (PNG and SVG).
    Render(render::Args),
    /// Read a mail body on stdin and print each order as understood, or
    /// its error with the line number.
    Parse(parse::Args),
    /// Adjudicate one phase offline: position and orders in, results and
    /// the next position out.
    Adjudicate(adjudicate::Args),
    /// Import another judge's variant as a variant file of this one
    /// (`import dpjudge youngstown.map --out games/youngstown.toml`),
    /// checked as check-game checks it; what it cannot play is refused
    /// with its line.
    Import(import::Args),
}

/// Parse the command line and run it.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // The reader stopped reading (`| head`): nothing is wrong.
        Err(e) if out::closed(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zinejudge: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::CheckGame { file } => check_game(&file),
        Command::Datc {
            files,
            game,
            folder,
            preferences,
            allow_fail,
        } => datc(&files, &folder.load(&game)?, &preferences, &allow_fail),
        Command::Adjudicate(args) => adjudicate::run(args),
        Command::Import(args) => import::run(args),
        Command::Parse(args) => parse::run(args),
        Command::Render(args) => render::run(args),
        Command::Run { config } => {
            let c = check_config(config.as_deref())?;
            init_logging(&c.log);
            crate::daemon::run(config, judge_responder())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Deliver { config } => deliver(config.as_deref()),
        Command::CheckConfig { config } => {
            let c = check_config(config.as_deref())?;
            // What only a look at the servers proves: logins, the web
            // address (`run` logs these instead of refusing to start).
            let notes = c
                .check_servers()
                .map_err(|e| anyhow::Error::from(e).context(config_name(config.as_deref())))?;
            sayln!("{}", c.summary())?;
            for n in notes {
                sayln!("{n}")?;
            }
            // A variant file that does not load is skipped by the judge;
            // here it fails the check, so that the GM sees why.
            for p in &c.variant_problems {
                sayln!("variant file not played: {p}")?;
            }
            Ok(if c.variant_problems.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::Man { dir } => man(dir.as_deref()),
    }
}

/// Load a configuration and check the paths it writes, as `check-config`
/// and `run` both do: `run` refuses at start what `check-config` refuses.
fn check_config(path: Option<&Path>) -> Result<crate::config::Config> {
    use crate::config::{Config, ConfigError};
    // Name the file before the key, as a parse error does by itself.
    let in_file = |e: ConfigError| match e {
        ConfigError::Read(..) | ConfigError::Parse { .. } => anyhow::Error::from(e),
        other => anyhow::Error::from(other).context(config_name(path)),
    };
    let c = Config::load(path).map_err(in_file)?;
    c.check_paths().map_err(in_file)?;
    c.check_store().map_err(in_file)?;
    Ok(c)
}

/// The configuration's name in messages: its file, or the defaults.
fn config_name(path: Option<&Path>) -> String {
    match path {
        Some(p) => p.display().to_string(),
        None => "built-in defaults".to_string(),
    }
}

/// `man`: the manual pages, generated from the clap definitions so that
/// they never disagree with `--help`.
fn man(dir: Option<&Path>) -> Result<ExitCode> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    match dir {
        Some(d) => {
            std::fs::create_dir_all(d).with_context(|| format!("cannot create {}", d.display()))?;
            clap_mangen::generate_to(cmd, d)
                .with_context(|| format!("cannot write the manual pages into {}", d.display()))?;
            let mail = d.join("zinejudge-mail.7");
            std::fs::write(&mail, crate::commands::registry::manual())
                .with_context(|| format!("cannot write {}", mail.display()))?;
        }
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut out)
                .context("cannot render the manual page")?;
            out::write_bytes(&out).context("cannot write the manual page")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn check_game(file: &Path) -> Result<ExitCode> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    match Variant::from_toml(&text) {
        Ok(v) => {
            sayln!("{}", v.summary())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            for p in &e.problems {
                sayln!("{}:{p}", file.display())?;
            }
            sayln!(
                "{}",
                crate::report::plural(e.problems.len() as i64, "problem", None)
            )?;
            Ok(ExitCode::FAILURE)
        }
    }
}

fn datc(
    files: &[PathBuf],
    v: &Variant,
    preferences: &str,
    allow_fail: &[String],
) -> Result<ExitCode> {
    let mut passed = 0;
    let mut failed = 0;
    let mut allowed = 0;
    for f in files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        let rules = match preferences {
            "v2" => crate::variant::Rulebook::datc_v2(),
            "v3" => v.rules,
            _ => crate::datc::rules_for_file(v, &text),
        };
        let (p, failures) = crate::datc::run_text(v, rules, &text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
        passed += p;
        for fail in failures {
            if allow_fail.contains(&fail.id) {
                allowed += 1;
                sayln!("{}: {fail} (allowed)", f.display())?;
            } else {
                failed += 1;
                sayln!("{}: {fail}", f.display())?;
            }
        }
    }
    if allowed > 0 {
        sayln!(
            "{passed} passed, {} failed ({allowed} allowed)",
            failed + allowed
        )?;
    } else {
        sayln!("{passed} passed, {failed} failed")?;
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Logs for people and for journald: without timestamps when journald adds
/// its own.
fn init_logging(level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    let journald = std::env::var_os("JOURNAL_STREAM").is_some();
    let b = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // Colours only for a person at a terminal, never in a log file.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    if journald {
        let _ = b.without_time().with_ansi(false).try_init();
    } else {
        let _ = b.with_ansi(ansi).try_init();
    }
}

/// `deliver`: exit 0 when stored (or already stored), 75 (EX_TEMPFAIL, so
/// the mail system keeps the mail and tries again) when it could not be.
fn deliver(config: Option<&Path>) -> Result<ExitCode> {
    use std::io::Read;
    let c = match crate::config::Config::load(config) {
        Ok(c) => c,
        Err(e) => {
            // With its cause (`{:#}`): the mail system's log is where a GM
            // reads why the judge's mail is deferred.
            eprintln!("zinejudge deliver: {:#}", anyhow::Error::from(e));
            return Ok(ExitCode::from(75));
        }
    };
    let mut raw = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut raw) {
        eprintln!("zinejudge deliver: cannot read standard input: {e}");
        return Ok(ExitCode::from(75));
    }
    if raw.is_empty() {
        eprintln!("zinejudge deliver: no mail on standard input");
        return Ok(ExitCode::FAILURE);
    }
    match crate::daemon::deliver(&c, &raw) {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("zinejudge deliver: {e:#}");
            Ok(ExitCode::from(75))
        }
    }
}

/// The judge's command language as the daemon's responder: the one place
/// the binary wires the commands to the daemon (which knows nothing of
/// them).
fn judge_responder() -> crate::daemon::ResponderFactory {
    std::sync::Arc::new(|c: &crate::config::Config| {
        let mut judge =
            crate::commands::Judge::new(&c.identity.name, &c.timezone).with_trust(c.trust.clone());
        judge.picture_format = c.picture;
        for v in &c.variants {
            judge.add_variant((**v).clone());
        }
        // Every results mail links to the game's page.
        judge.templates.link_pages(c.web.base_url.as_deref());
        Box::new(judge) as Box<dyn crate::daemon::process::Responder>
    })
}
