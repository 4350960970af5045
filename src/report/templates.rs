//! The result templates (minijinja). The built-in ones are compiled in from
//! `templates/`; a GM may replace any of them with a file of the same name
//! in a directory of their own (`judge.templates` in the configuration),
//! read again when the daemon reloads.

use super::{ReportData, fit72};
use crate::game::record::Style;
use minijinja::Environment;

/// The templates shipped in the binary.
pub(crate) const BUILTIN: &[(&str, &str)] = &[
    (
        "results-zine.txt",
        include_str!("../../templates/results-zine.txt"),
    ),
    (
        "results-judge.txt",
        include_str!("../../templates/results-judge.txt"),
    ),
    ("footer.txt", include_str!("../../templates/footer.txt")),
    ("board.txt", include_str!("../../templates/board.txt")),
    ("when.txt", include_str!("../../templates/when.txt")),
    ("start.txt", include_str!("../../templates/start.txt")),
    ("start-gm.txt", include_str!("../../templates/start-gm.txt")),
    ("status.txt", include_str!("../../templates/status.txt")),
    (
        "notice-reminder.txt",
        include_str!("../../templates/notice-reminder.txt"),
    ),
    (
        "notice-late.txt",
        include_str!("../../templates/notice-late.txt"),
    ),
    (
        "notice-late-gm.txt",
        include_str!("../../templates/notice-late-gm.txt"),
    ),
    (
        "notice-disorder.txt",
        include_str!("../../templates/notice-disorder.txt"),
    ),
    (
        "notice-disorder-gm.txt",
        include_str!("../../templates/notice-disorder-gm.txt"),
    ),
    (
        "notice-back.txt",
        include_str!("../../templates/notice-back.txt"),
    ),
    (
        "notice-setting.txt",
        include_str!("../../templates/notice-setting.txt"),
    ),
    (
        "notice-set-aside.txt",
        include_str!("../../templates/notice-set-aside.txt"),
    ),
    (
        "notice-variant.txt",
        include_str!("../../templates/notice-variant.txt"),
    ),
];

/// A template problem: a GM's file that does not parse or render.
#[derive(Debug, thiserror::Error)]
#[error("template {name}: {source}")]
pub struct TemplateError {
    /// Which template.
    pub name: String,
    /// What minijinja said.
    #[source]
    pub source: minijinja::Error,
}

/// `{{ n|plural("centre") }}`: `1 centre`, `3 centres`; a second word
/// gives an irregular plural (`{{ n|plural("army", "armies") }}`). Mail
/// never says "centre(s)".
fn plural(n: i64, one: String, many: Option<String>) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {}", many.unwrap_or_else(|| format!("{one}s")))
    }
}

/// A set of templates.
pub struct Templates {
    env: Environment<'static>,
}

impl Templates {
    /// The built-in templates.
    pub fn builtin() -> Templates {
        Self::with_overrides(Vec::new())
            .unwrap_or_else(|_| unreachable!("the built-in templates are tested"))
    }

    /// The built-in templates with some replaced: `(file name, text)`.
    /// Every template is checked now, so a broken file is refused at load
    /// rather than at the next deadline.
    pub fn with_overrides(files: Vec<(String, String)>) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        if let Ok(syntax) = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()
        {
            env.set_syntax(syntax);
        }
        env.add_filter("plural", plural);
        for (name, text) in BUILTIN {
            if files.iter().any(|(n, _)| n == name) {
                continue;
            }
            env.add_template(name, text)
                .map_err(|source| TemplateError {
                    name: name.to_string(),
                    source,
                })?;
        }
        for (name, text) in files {
            env.add_template_owned(name.clone(), text)
                .map_err(|source| TemplateError { name, source })?;
        }
        Ok(Templates { env })
    }

    /// Link every results mail to the game's web page: `base` is the
    /// pages' address ending in `/` (the template variable `pages`), or
    /// `None` for no link.
    pub fn link_pages(&mut self, base: Option<&str>) {
        match base {
            Some(b) => self.env.add_global("pages", b.to_string()),
            None => self.env.add_global("pages", minijinja::Value::from(())),
        }
    }

    /// Names of the templates a directory may override.
    pub fn names() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(n, _)| *n)
    }

    /// Template `name` rendered with `ctx`, fitted to 72 columns.
    pub fn text<S: serde::Serialize>(&self, name: &str, ctx: &S) -> Result<String, TemplateError> {
        let t = self
            .env
            .get_template(name)
            .map_err(|source| TemplateError {
                name: name.to_string(),
                source,
            })?;
        let text = t
            .render(minijinja::value::Serde(ctx))
            .map_err(|source| TemplateError {
                name: name.to_string(),
                source,
            })?;
        Ok(fit72(&text))
    }

    /// A mail made by template `name`: its first line is `Subject: ...`,
    /// the rest the body. Returns the subject and the body.
    pub fn mail<S: serde::Serialize>(
        &self,
        name: &str,
        ctx: &S,
    ) -> Result<(String, String), TemplateError> {
        let text = self.text(name, ctx)?;
        let (first, body) = text.split_once('\n').unwrap_or((&text, ""));
        let subject = first
            .strip_prefix("Subject:")
            .map_or_else(|| first.to_string(), |s| s.trim().to_string());
        Ok((subject, body.to_string()))
    }

    /// The results of a phase in the given style, fitted to 72 columns.
    pub fn results(&self, style: Style, data: &ReportData) -> Result<String, TemplateError> {
        let name = match style {
            Style::Zine => "results-zine.txt",
            Style::Judge => "results-judge.txt",
        };
        self.text(name, data)
    }
}
