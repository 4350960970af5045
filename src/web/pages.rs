//! The page templates (minijinja, HTML): compiled into the binary from
//! `templates/web/`. Every value is HTML-escaped as it is written (auto
//! escape is on for every page, whatever its name), so a game, power or
//! player name or a line of press shows as text, never as markup; the one
//! value written as it is, the map, is SVG the judge draws itself, with
//! every name in it escaped (`report::picture`).

use minijinja::{AutoEscape, Environment, UndefinedBehavior};

/// The pages, by file name.
const PAGES: &[(&str, &str)] = &[
    (
        "layout.html",
        include_str!("../../templates/web/layout.html"),
    ),
    ("games.html", include_str!("../../templates/web/games.html")),
    ("game.html", include_str!("../../templates/web/game.html")),
    ("phase.html", include_str!("../../templates/web/phase.html")),
    (
        "phases.html",
        include_str!("../../templates/web/phases.html"),
    ),
    ("press.html", include_str!("../../templates/web/press.html")),
    (
        "press_item.html",
        include_str!("../../templates/web/press_item.html"),
    ),
    (
        "not_found.html",
        include_str!("../../templates/web/not_found.html"),
    ),
    ("error.html", include_str!("../../templates/web/error.html")),
];

/// The style sheet.
pub(crate) const STYLE: &str = include_str!("../../templates/web/style.css");

/// The script that adds the reader's own time to deadlines (the pages read
/// the same without it).
pub(crate) const LOCAL_TIME: &str = include_str!("../../templates/web/local-time.js");

/// The page templates.
pub(crate) struct Pages {
    env: Environment<'static>,
}

impl Default for Pages {
    fn default() -> Self {
        Self::new()
    }
}

impl Pages {
    /// The built-in pages.
    pub(crate) fn new() -> Pages {
        let mut env = Environment::new();
        env.set_auto_escape_callback(|_| AutoEscape::Html);
        // A name misspelt in a template is an error in the tests, not an
        // empty space on a page.
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        // Every text is cleaned of what a page may not hold (controls,
        // noncharacters: `super::text`), whatever the store holds, then
        // escaped for HTML (`& < > " '`), leaving `/` as it is so that
        // links read as links in the page's source. The map, written as
        // it is, is cleaned too: its titles hold the game's name.
        env.set_formatter(|out, state, value| match value.as_str() {
            Some(s) if !value.is_safe() && *state.auto_escape() == AutoEscape::Html => out
                .write_str(&super::feed::escape_html(&super::text::clean(s)))
                .map_err(minijinja::Error::from),
            Some(s) if value.is_safe() => out
                .write_str(&super::text::clean(s))
                .map_err(minijinja::Error::from),
            _ => minijinja::escape_formatter(out, state, value),
        });
        if let Ok(syntax) = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .build()
        {
            env.set_syntax(syntax);
        }
        for (name, text) in PAGES {
            if let Err(e) = env.add_template(name, text) {
                // Every page is rendered by the tests: a broken one cannot
                // ship, and if it did, its pages fail with this error.
                tracing::error!(page = name, error = %e, "a page template does not parse");
            }
        }
        Pages { env }
    }

    /// Lay out `name` with `ctx`.
    pub(crate) fn render(
        &self,
        name: &str,
        ctx: minijinja::Value,
    ) -> Result<String, minijinja::Error> {
        self.env.get_template(name)?.render(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_template_parses() {
        let mut env = Environment::new();
        for (name, text) in PAGES {
            env.add_template(name, text)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn values_are_escaped_whatever_the_template() {
        let p = Pages::new();
        let page = p
            .render(
                "not_found.html",
                minijinja::context! { judge => "<b>j</b>", prefix => "/", what => "game" },
            )
            .unwrap();
        assert!(page.contains("&lt;b&gt;j&lt;/b&gt;"), "{page}");
        assert!(!page.contains("<b>j"), "{page}");
    }

    #[test]
    fn values_lose_their_control_characters_whatever_the_template() {
        let p = Pages::new();
        let page = p
            .render(
                "not_found.html",
                minijinja::context! { judge => "j\u{0}u\u{1b}[2Jd\u{fffe}ge<", prefix => "/", what => "game" },
            )
            .unwrap();
        assert!(page.contains("ju[2Jdge&lt;"), "{page}");
        assert!(
            !page.chars().any(|c| !super::super::text::allowed(c)),
            "{page:?}"
        );
    }
}
