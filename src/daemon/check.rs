//! The answer the judge gives before games exist: it reads the orders in a
//! mail, as the standard board would, and says what it understood and what
//! it could not read. The command language (games, sign-on, deadlines)
//! replaces this responder.

use super::process::{Responder, Response, reply_to};
use crate::mail::Inbound;
use crate::orders::format_order;
use crate::orders::mail::find_orders;
use crate::orders::parse::OrderParser;
use crate::variant::{self, Variant};
use rusqlite::Transaction;
use std::fmt::Write;
use std::time::SystemTime;

/// Reads orders and echoes them.
pub struct OrderCheck {
    standard: Variant,
}

impl OrderCheck {
    /// A responder reading against the standard map.
    pub fn new() -> OrderCheck {
        let standard = match variant::builtin("standard") {
            Some(Ok(v)) => v,
            // The shipped file is checked by the tests.
            _ => unreachable!("the shipped standard variant loads"),
        };
        OrderCheck { standard }
    }
}

impl Default for OrderCheck {
    fn default() -> Self {
        Self::new()
    }
}

impl Responder for OrderCheck {
    fn respond(
        &mut self,
        _tx: &Transaction<'_>,
        mail: &Inbound,
        _now: SystemTime,
    ) -> anyhow::Result<Response> {
        let parser = OrderParser::new(&self.standard.map);
        let found = find_orders(&parser, &mail.text, None);
        let mut body = String::new();
        if found.is_empty() {
            body.push_str("The judge found no orders in your mail.\n");
        } else {
            body.push_str("The judge read your mail as follows.\n\n");
            for f in &found {
                match &f.result {
                    Ok(o) => {
                        let _ =
                            writeln!(body, "  {}", format_order(&self.standard.map, &o.command));
                    }
                    Err(e) => {
                        let _ = writeln!(
                            body,
                            "  line {}: \"{}\"\n    not understood: {e}",
                            f.line, f.text
                        );
                    }
                }
            }
        }
        let Some(to) = &mail.reply_to else {
            return Ok(Response {
                replies: vec![],
                note: "no sender".into(),
            });
        };
        Ok(Response {
            replies: vec![reply_to(mail, to, body)],
            note: format!("orders read: {}", found.len()),
        })
    }
}
