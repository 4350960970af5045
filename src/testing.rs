//! The insides the tests, benches and examples reach, and nothing more.
//!
//! Why it exists: the crate's public API is the pure core ([`crate::map`],
//! [`crate::orders`], [`crate::variant`], [`crate::adjudicate`],
//! [`crate::game`]) and the binary's entry ([`crate::cli::main`]); the
//! store, the mail, the daemon, the commands, the report and the web site
//! are `pub(crate)`, so that `unreachable_pub` (denied in `lib.rs`) shows
//! what only the crate uses and the compiler can say what is dead. The
//! integration tests and benches are other crates, though, and drive those
//! insides directly (a store opened on a temporary file, a processor fed
//! mails, the site's pages read back). This module hands them exactly the
//! items they name, under the same paths as inside the crate (the store's
//! `games::load` is `zinejudge::testing::store::games::load`), so a test
//! reads like the code it tests. One module is code of its own, not a
//! re-export: [`opening`], the standard opening the benches, an allocation
//! test and an example all judge. Nothing here is a stable API: an item is
//! added when a test needs it and removed when no test does
//! (docs/development.md, "Public surface").

/// The durable store: opening it, its rows and the calls the tests make.
pub mod store {
    pub use crate::store::{
        AsLocation, Claimant, DEFAULT_LEASE, Later, Location, OutMail, PgLocation, Store,
        StoreError, TAKEOVER_POLL, add_mail_source, finish_inbound, idle_answer, insert_inbound,
        kept_parts, mail_source, meta, next_serial, note_answer, params, prune_inbound,
        queue_outbox, queue_outbox_later, queue_outbox_parts, redact_inbound, set_meta,
        take_inbound, unpack,
    };
    // From their definitions, not through `store`'s own re-exports, which
    // are `pub(crate)` (`unreachable_pub` does not follow a chain of them).
    pub use crate::store::sql::{Backend, Conn, Tx};

    /// Players' confirmations of their addresses.
    pub mod confirm {
        pub use crate::store::confirm::set_confirmed;
    }

    /// The games' rows: settings, seats, orders, history and press.
    pub mod games {
        pub use crate::store::games::{
            GameRow, NewHistory, NewPress, Rate, append_history, append_press, clear_orders,
            create, fault, history, list, load, note_sender, observers, orders, press, save,
            save_seat, seats, set_fault, set_observer, set_orders, truncate_history,
            with_deadline_before,
        };
    }

    /// Press kept for the web site.
    pub mod press {
        pub use crate::store::press::{add, list};
    }

    /// What is kept and for how long.
    pub mod retention {
        pub use crate::store::retention::{KEEP_MAIL_IDS, prune_outbox, size, tidy, vacuum};
    }

    /// The players' roster: who plays what, and who is away.
    pub mod roster {
        pub use crate::store::roster::{
            Absence, absences, add_absence, left, named, players, took,
        };
    }

    /// Sign-on failures and their counters.
    pub mod signon {
        pub use crate::store::signon::{Failures, OTHERS, clear, get, notified_at, set};
    }

    /// The SQL layer under both backends.
    pub mod sql {
        pub use crate::store::sql::Params;
    }
}

/// Mail in and out: parsing a mail, the judge's identity, the Maildir.
pub mod mail {
    pub use crate::mail::clean::unsafe_char;
    pub use crate::mail::{
        Attached, Budget, Identity, Inbound, JUDGE_MARK, OverBudget, message_id_of, read,
        read_within,
    };

    /// Reading and writing a Maildir.
    pub mod maildir {
        pub use crate::mail::maildir::Maildir;
    }
}

/// The daemon's parts the tests drive without a running daemon.
pub mod daemon {
    pub use crate::daemon::RUNNING;

    /// Sending what the outbox holds.
    pub mod outbox {
        pub use crate::daemon::outbox::{claim_batch, complete};
    }

    /// Turning one received mail into its answers.
    pub mod process {
        pub use crate::daemon::process::{Ahead, Limits, Processor, Responder, Response, unix};
        pub use crate::mail::reply_to;
    }
}

/// The judge's mail commands.
pub mod commands {
    pub use crate::commands::{Chance, Judge};

    /// The table of commands.
    pub mod registry {
        pub use crate::commands::registry::{lookup, lookup_knowing, secret_of, secrets_of};
    }
}

/// Trust: who wrote a mail, what it may cause, who pays, and secrets.
pub mod trust {
    pub use crate::daemon::dkim::Verifier;
    pub use crate::trust::authres::SET_ASIDE;
    pub use crate::trust::sender::{Assurance, Policy, Sender, identify};

    /// The `authserv-id` of the mail server the test harnesses' judges sit
    /// behind (`[trust] authserv-id`).
    pub const HARNESS_AUTHSERV_ID: &str = "mx.judge.test";

    /// The header that server puts on top of a mail whose sender it
    /// authenticated (DMARC passed): harnesses whose subject is not who
    /// wrote a mail start their players' mails with it, as a judge behind
    /// such a server sees them.
    pub const HARNESS_STAMP: &str = "Authentication-Results: mx.judge.test; dmarc=pass\r\n";

    /// The trust settings of a judge behind that server.
    pub fn harness_policy() -> Policy {
        Policy {
            authserv_id: Some(HARNESS_AUTHSERV_ID.to_string()),
            require_authentication: false,
            verify_signatures: false,
        }
    }

    /// Sign-on checks: the count of checks made ahead of their mail.
    pub mod signon {
        pub use crate::trust::signon::checked_ahead;
    }

    /// Passwords: hashing and the count of checks made.
    pub mod password {
        pub use crate::trust::password::{hash, verifications_on_this_thread};
    }
}

/// The configuration file.
pub mod config {
    pub use crate::config::{Config, Sink, Source};
}

/// The DATC case files and their runner.
pub mod datc {
    pub use crate::datc::{Case, Line, Runner, parse_file, rules_for_file, run_text};
}

/// Importing games from other judges.
pub mod import {
    /// DPjudge's game files.
    pub mod dpjudge {
        pub use crate::import::dpjudge::{ImportError, Imported, import};
    }
}

/// The results report: its data, its text and its pictures.
pub mod report {
    pub use crate::report::{PhaseReport, data, data_for, render, title};

    /// The map pictures.
    pub mod picture {
        pub use crate::report::picture::{Picture, colour, png, svg};

        /// Where things stand on the picture.
        pub mod geometry {
            pub use crate::report::picture::layout::Geometry;
        }

        /// Placing labels.
        pub mod layout {
            pub use crate::report::picture::layout::inside;
        }
    }

    /// The report's templates.
    pub mod templates {
        pub use crate::report::templates::Templates;
    }
}

/// Rule features the tests judge directly.
pub mod rules {
    /// The impulse movement of 1066 and its judge.
    pub mod impulses {
        /// The impulse judge.
        pub mod judge {
            pub use crate::rules::impulses::judge::{Turn, TurnInput, adjudicate_turn, gm_retreat};
        }
    }

    /// What a variant's rules answer.
    pub mod view {
        pub use crate::rules::view::VariantRules;
    }

    /// The waiting units of 1066.
    pub mod waiting {
        pub use crate::rules::waiting::seated;
    }
}

/// The web site.
pub mod web {
    pub use crate::web::{FILES_KEPT, Limits, Options, Server, bind, connection_cap};

    /// The games' Atom feed.
    pub mod feed {
        pub use crate::web::feed::written_size;
    }

    /// The site's pages and their limits.
    pub mod site {
        pub use crate::web::site::{
            FEED_ENTRIES, FEED_TEXT_BYTES, PHASES_PER_PAGE, PRESS_CUT, PRESS_PER_PAGE, PRESS_WHOLE,
            path_part,
        };
    }
}

/// Movement orders written as players write them, for the benches, the
/// allocation tests and the instruction-count example, which all judge the
/// standard opening (issue #36) and would otherwise each keep a copy of it
/// and of the parsing loop.
pub mod opening {
    use crate::orders::parse::OrderParser;
    use crate::orders::{AnyCommand, MainOrder, Order};
    use crate::variant::{PhaseKind, Variant};

    /// Spring 1901 of the standard game with every unit moving, as most
    /// players open: the position the adjudicator's speed is quoted for.
    /// Sevastopol and Ankara stand each other off in the Black Sea.
    pub const STANDARD_OPENING: &str = "
Austria: A Vie-Gal
Austria: A Bud-Ser
Austria: F Tri-Alb
England: F Lon-NTH
England: F Edi-NWG
England: A Lvp-Yor
France: F Bre-MAO
France: A Par-Bur
France: A Mar-Spa
Germany: F Kie-Den
Germany: A Ber-Kie
Germany: A Mun-Ruh
Italy: F Nap-ION
Italy: A Rom-Apu
Italy: A Ven-Tyr
Russia: A War-Ukr
Russia: A Mos-StP
Russia: F Sev-BLA
Russia: F StP/sc-BOT
Turkey: F Ank-BLA
Turkey: A Con-Bul
Turkey: A Smy-Arm
";

    /// The 22 orders of [`STANDARD_OPENING`] on `v`'s map (the standard
    /// variant's).
    ///
    /// # Panics
    /// If an order does not parse on `v`'s map.
    pub fn standard_opening(v: &Variant) -> Vec<MainOrder> {
        movement_orders(STANDARD_OPENING, v)
    }

    /// The movement orders of `text`, one `Power: order` a line (blank
    /// lines skipped), in the order written.
    ///
    /// # Panics
    /// If a line is not a movement order naming its power: these texts are
    /// fixtures written with the code that reads them, so a bad one is a
    /// mistake in the test, not an input to answer.
    pub fn movement_orders(text: &str, v: &Variant) -> Vec<MainOrder> {
        let parser = OrderParser::new(&v.map);
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let p = parser
                    .parse(l, Some(PhaseKind::Movement))
                    .unwrap_or_else(|e| panic!("`{l}` does not parse: {e:?}"));
                match p.command {
                    AnyCommand::Main(unit, command) => Order {
                        power: p.power.unwrap_or_else(|| panic!("`{l}` names no power")),
                        unit,
                        command,
                    },
                    other => panic!("`{l}` is not a movement order: {other:?}"),
                }
            })
            .collect()
    }
}
