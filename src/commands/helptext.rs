//! HELP's texts, printed from the command table they are given (the
//! table's `registry::Help` hands them to the session, so that HELP and
//! GET, which print every command, need not import the table that imports
//! them).

use super::command::{Entry, Who};
use crate::report::wrap;

/// The HELP reply for one command, named by any of its names (any case):
/// its form, what it does and who may use it. `None` if no command has
/// that name.
pub(crate) fn help_for(table: &[&dyn Entry], name: &str) -> Option<String> {
    let want = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_uppercase();
    let c = table.iter().find(|c| {
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
pub(crate) fn help_text(table: &[&dyn Entry]) -> String {
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
        for c in table
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
pub(crate) fn help_other_judges(table: &[&dyn Entry]) -> String {
    let mut s = String::from(
        "njudge's and DPjudge's words this judge reads as its own commands, or\n\
         answers with what it has instead (their sign-ons, press and SETs are\n\
         read by the commands above them in HELP):\n\n",
    );
    for c in table.iter().filter(|c| c.spec().other_judges) {
        let spec = c.spec();
        s.push_str(&wrap(&format!("  {}", spec.usage), 72, "    "));
        s.push_str(&wrap(&format!("      {}", spec.help), 72, "      "));
    }
    s
}
