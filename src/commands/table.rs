//! The command language, in one table: every command's name, form, who may
//! use it and what it does. The parser recognises command lines by these
//! names and the HELP reply is printed from the same table, so the two
//! cannot drift apart.

use crate::report::wrap;

/// Who may give a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// Anybody, signed on or not.
    Anyone,
    /// A player signed on to a power.
    Player,
    /// The game's GM, signed on.
    Gm,
}

/// One command.
#[derive(Debug, Clone, Copy)]
pub struct CommandDef {
    /// The words that start it (upper case).
    pub name: &'static str,
    /// Its form.
    pub usage: &'static str,
    /// Who may use it.
    pub who: Who,
    /// What it does, in a line or two.
    pub help: &'static str,
}

/// Every command the judge knows.
pub const COMMANDS: &[CommandDef] = &[
    CommandDef {
        name: "HELP",
        usage: "HELP",
        who: Who::Anyone,
        help: "This list.",
    },
    CommandDef {
        name: "LIST",
        usage: "LIST [game]",
        who: Who::Anyone,
        help: "The games (variant, phase, deadline, open powers), or one game in detail.",
    },
    CommandDef {
        name: "VARIANTS",
        usage: "VARIANTS",
        who: Who::Anyone,
        help: "The variants the judge plays.",
    },
    CommandDef {
        name: "HISTORY",
        usage: "HISTORY game [phase | from to]",
        who: Who::Anyone,
        help: "Past results mailed back: all, one phase (S1901M) or a range.",
    },
    CommandDef {
        name: "SUMMARY",
        usage: "SUMMARY game",
        who: Who::Anyone,
        help: "Supply centres per power after each year.",
    },
    CommandDef {
        name: "OBSERVE",
        usage: "OBSERVE game",
        who: Who::Anyone,
        help: "Receive a game's results as an observer (UNOBSERVE game to stop).",
    },
    CommandDef {
        name: "UNOBSERVE",
        usage: "UNOBSERVE game",
        who: Who::Anyone,
        help: "Stop receiving a game's results.",
    },
    CommandDef {
        name: "CREATE",
        usage: "CREATE game variant password [WITH optional powers]",
        who: Who::Anyone,
        help: "Create a game; you become its GM, signed on.",
    },
    CommandDef {
        name: "JOIN",
        usage: "JOIN game password [powers in order of preference]",
        who: Who::Anyone,
        help: "Take a power in a forming game; the game starts when every power is taken.",
    },
    CommandDef {
        name: "SIGNON",
        usage: "SIGNON power game password  (also SIGNON Egame password, SIGNON england@game password, SIGNON GM game password)",
        who: Who::Anyone,
        help: "Sign on; the orders and commands below it are for that power (or the GM).",
    },
    CommandDef {
        name: "CLEAR",
        usage: "CLEAR",
        who: Who::Player,
        help: "Withdraw all your orders for this phase.",
    },
    CommandDef {
        name: "READY",
        usage: "READY  (NOT READY to take it back)",
        who: Who::Player,
        help: "Your orders are final: the phase is processed early once every player is ready.",
    },
    CommandDef {
        name: "NOMINATE",
        usage: "NOMINATE centre",
        who: Who::Player,
        help: "Where the game allows it (1066), make a neutral centre you hold a home centre in place of one you lost.",
    },
    CommandDef {
        name: "EXCHANGE",
        usage: "EXCHANGE power centres FOR centres  (EXCHANGE power NONE withdraws)",
        who: Who::Player,
        help: "Where the game allows it (Abstraction II), swap centres with another power at the end of this move; it must send the matching offer.",
    },
    CommandDef {
        name: "PERMIT",
        usage: "PERMIT power",
        who: Who::Player,
        help: "Where the game has it (1700 AD II), let a power's fleets into your provinces and its supply lines past your units.",
    },
    CommandDef {
        name: "REVOKE",
        usage: "REVOKE power",
        who: Who::Player,
        help: "Take back a PERMIT: that power's fleets must leave your provinces.",
    },
    CommandDef {
        name: "PRESS",
        usage: "PRESS TO powers|ALL [GREY] ... ENDPRESS",
        who: Who::Player,
        help: "Send press to some powers (GREY hides your name where the game allows it).",
    },
    CommandDef {
        name: "BROADCAST",
        usage: "BROADCAST [GREY] ... ENDPRESS",
        who: Who::Player,
        help: "Send press to everybody in the game.",
    },
    CommandDef {
        name: "DRAW",
        usage: "DRAW  (NO DRAW to take it back)",
        who: Who::Player,
        help: "Vote for a draw among the surviving powers; it ends the game when every survivor votes for it.",
    },
    CommandDef {
        name: "CONCEDE",
        usage: "CONCEDE power  (NO CONCEDE to take it back)",
        who: Who::Player,
        help: "Concede victory to a power; it wins when every other survivor concedes to it.",
    },
    CommandDef {
        name: "RESIGN",
        usage: "RESIGN",
        who: Who::Player,
        help: "Leave the game; the GM finds a replacement.",
    },
    CommandDef {
        name: "SET PASSWORD",
        usage: "SET PASSWORD new-password",
        who: Who::Player,
        help: "Change your password (GMs: the GM password).",
    },
    CommandDef {
        name: "SET ADDRESS",
        usage: "SET ADDRESS new-address",
        who: Who::Player,
        help: "Receive the game's mail at another address.",
    },
    CommandDef {
        name: "SET DEADLINE",
        usage: "SET DEADLINE 2026-11-28 18:00 [time zone]  or  SET DEADLINE +48h",
        who: Who::Gm,
        help: "Move the current deadline.",
    },
    CommandDef {
        name: "SET PHASE LENGTH",
        usage: "SET PHASE LENGTH 72h [24h]",
        who: Who::Gm,
        help: "Hours for movement phases [and for retreats and adjustments].",
    },
    CommandDef {
        name: "SET GRACE",
        usage: "SET GRACE 24h",
        who: Who::Gm,
        help: "How long after a deadline late orders are still taken.",
    },
    CommandDef {
        name: "SET REMINDER",
        usage: "SET REMINDER 24h",
        who: Who::Gm,
        help: "How long before a deadline players with missing orders are reminded (0h: never).",
    },
    CommandDef {
        name: "SET TIMEZONE",
        usage: "SET TIMEZONE Europe/London",
        who: Who::Gm,
        help: "The game's time zone, for showing and reading times.",
    },
    CommandDef {
        name: "SET NMR",
        usage: "SET NMR HOLD|CD",
        who: Who::Gm,
        help: "A power without orders holds, or is put in civil disorder.",
    },
    CommandDef {
        name: "SET PRESS",
        usage: "SET PRESS WHITE|GREY|NONE",
        who: Who::Gm,
        help: "What press the game allows.",
    },
    CommandDef {
        name: "SET STYLE",
        usage: "SET STYLE ZINE|JUDGE",
        who: Who::Gm,
        help: "The layout of the results.",
    },
    CommandDef {
        name: "SET END",
        usage: "SET END year|NONE",
        who: Who::Gm,
        help: "End the game after that year (1700 AD II: 1713 or 1721); most centres gained wins.",
    },
    CommandDef {
        name: "START",
        usage: "START",
        who: Who::Gm,
        help: "Start the game now; open powers are in civil disorder.",
    },
    CommandDef {
        name: "PAUSE",
        usage: "PAUSE",
        who: Who::Gm,
        help: "Stop the clock.",
    },
    CommandDef {
        name: "RESUME",
        usage: "RESUME",
        who: Who::Gm,
        help: "Restart the clock with a fresh deadline.",
    },
    CommandDef {
        name: "PROCESS",
        usage: "PROCESS",
        who: Who::Gm,
        help: "Adjudicate the current phase now.",
    },
    CommandDef {
        name: "PREVIEW",
        usage: "PREVIEW",
        who: Who::Gm,
        help: "Adjudicate the current orders and mail the results to the GM only.",
    },
    CommandDef {
        name: "ROLLBACK",
        usage: "ROLLBACK [phase]",
        who: Who::Gm,
        help: "Go back to the start of the last phase played (or of the phase named).",
    },
    CommandDef {
        name: "EJECT",
        usage: "EJECT power",
        who: Who::Gm,
        help: "Remove a power's player; the power is open for a replacement.",
    },
    CommandDef {
        name: "REPLACE",
        usage: "REPLACE power address",
        who: Who::Gm,
        help: "Give a power to a new player; the judge mails them a password.",
    },
    CommandDef {
        name: "EDIT",
        usage: "EDIT ADD power unit | EDIT REMOVE place | EDIT OWNER centre power|NONE",
        who: Who::Gm,
        help: "Fix the board; the change is recorded in the history.",
    },
    CommandDef {
        name: "END",
        usage: "END DRAW | END WIN power",
        who: Who::Gm,
        help: "End the game.",
    },
    CommandDef {
        name: "SIGNOFF",
        usage: "SIGNOFF",
        who: Who::Anyone,
        help: "Lines below are no longer for the power signed on.",
    },
];

/// The HELP reply.
pub fn help_text() -> String {
    let mut s = String::from(
        "Commands are lines of a mail; the Subject is not read. After SIGNON,\n\
         every line that is not a command is read as an order for your power.\n\n",
    );
    for (title, who) in [
        ("For everybody", Who::Anyone),
        ("For players, after SIGNON", Who::Player),
        ("For the GM, after SIGNON GM", Who::Gm),
    ] {
        s.push_str(title);
        s.push_str(":\n");
        for c in COMMANDS.iter().filter(|c| c.who == who) {
            s.push_str(&wrap(&format!("  {}", c.usage), 72, "    "));
            s.push_str(&wrap(&format!("      {}", c.help), 72, "      "));
        }
        s.push('\n');
    }
    s.push_str(
        "Orders are written as in the zines: A(Lon)-Yor, F(ENG) C A(Lon)-Bre,\n\
         A(Liv) S A(Fin)-Kar, A(Bud) S A(Vie), F(Nth) H; full names, any case.\n\
         Retreats: A(Liv)-Kur, Disband A(Got). Builds: Build A(Fin), Remove\n\
         A(Got), Waive.\n",
    );
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn help_lines_fit_in_72_characters() {
        let h = super::help_text();
        for l in h.lines() {
            assert!(l.chars().count() <= 72, "{l}");
        }
        assert!(h.contains("SIGNON power game password"));
    }
}
