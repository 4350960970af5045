//! The words of the judge's notices: a [`Notice`] value from
//! [`crate::game::lifecycle`] and the game it is about become a mail by
//! the notice's template (`templates/notice-*.txt`), which a GM may
//! replace like the results'.

use super::templates::{TemplateError, Templates};
use crate::game::lifecycle::Notice;
use crate::map::PowerId;
use crate::variant::Variant;
use serde_json::{Value, json};

/// What every notice about a game knows.
pub(crate) struct About<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// The game's name.
    pub game: &'a str,
    /// The judge's name, for the signature.
    pub judge: &'a str,
    /// The current phase, in words.
    pub phase: String,
    /// A time as the game shows it (its zone).
    pub show: &'a dyn Fn(i64) -> String,
}

impl About<'_> {
    fn name(&self, p: PowerId) -> String {
        self.variant.map.power(p).name.clone()
    }

    fn names(&self, ps: &[PowerId]) -> Vec<String> {
        ps.iter().map(|p| self.name(*p)).collect()
    }
}

/// The template and context of `n`.
fn context(a: &About<'_>, n: &Notice) -> (&'static str, Value) {
    match n {
        Notice::Reminder {
            power,
            deadline,
            missing,
        } => (
            "notice-reminder.txt",
            json!({"power": a.name(*power), "deadline": (a.show)(*deadline), "missing": missing}),
        ),
        Notice::Late { power, until, nmr } => (
            "notice-late.txt",
            json!({"power": a.name(*power), "until": (a.show)(*until), "nmr": nmr}),
        ),
        Notice::LateGm { powers, until } => (
            "notice-late-gm.txt",
            json!({"powers": a.names(powers), "until": (a.show)(*until)}),
        ),
        Notice::Disorder { power, deadline } => (
            "notice-disorder.txt",
            json!({"power": a.name(*power), "deadline": deadline.map(|d| (a.show)(d))}),
        ),
        Notice::DisorderGm { powers } => {
            ("notice-disorder-gm.txt", json!({"powers": a.names(powers)}))
        }
        Notice::Back { power } => ("notice-back.txt", json!({"power": a.name(*power)})),
    }
}

/// The mail of notice `n`: its subject and body.
pub(crate) fn render(
    t: &Templates,
    a: &About<'_>,
    n: &Notice,
) -> Result<(String, String), TemplateError> {
    let (name, mut ctx) = context(a, n);
    if let Value::Object(m) = &mut ctx {
        m.insert("game".into(), json!(a.game));
        m.insert("judge".into(), json!(a.judge));
        m.insert("phase".into(), json!(a.phase));
    }
    t.mail(name, &ctx)
}
