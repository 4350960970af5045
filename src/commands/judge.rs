//! The judge: the variants it plays (each loaded once), their pictures'
//! layouts, its templates and name, and where its random choices come
//! from. It imports no command.

use super::common::position;
use super::error::{CmdError, CmdResult};
use crate::game::Position;
use crate::store::games::GameRow;
use crate::variant::{self, Variant};
use std::collections::HashMap;
use std::sync::Arc;

/// The judge's command processor.
pub struct Judge {
    /// Variants loaded so far, each once, shared by every mail and game.
    variants: HashMap<String, Arc<Variant>>,
    /// The names of the variants played besides the shipped ones, in the
    /// order they were added.
    added: Vec<String>,
    /// Map layouts for pictures, made once per variant.
    layouts: HashMap<String, Arc<crate::report::picture::geometry::Geometry>>,
    /// The result templates.
    pub templates: crate::report::templates::Templates,
    /// The judge's name, for mail.
    pub name: String,
    /// Time zone for new games.
    pub default_tz: String,
    /// The picture attached to results unless a player chose another.
    pub picture_format: crate::report::PictureFormat,
    /// Pictures drawn lately for mails being sent (see [`Responder::parts`]).
    pub(crate) drawn: super::drawn::Drawn,
    /// Where the judge's random choices come from (the tie-breaks of the
    /// powers' assignment, a power for a player who named none).
    chance: Chance,
    /// The judge's trust settings (`[trust]`): whether registering needs
    /// an authenticated From.
    pub(crate) trust: crate::trust::sender::Policy,
    /// The copies of variants games play, kept whatever happens to their
    /// files (`variants_kept`).
    pub(crate) kept: super::kept_copies::Kept,
}

/// Where a judge's random choices come from: the system's random source,
/// or a fixed seed (tests, which replay). Drawn here, at the edge, and
/// passed into the pure core as a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chance {
    /// The operating system's random source.
    System,
    /// A sequence from this seed.
    Seeded(u64),
}

impl Default for Judge {
    fn default() -> Self {
        Self::new("zinejudge", "UTC")
    }
}

impl Judge {
    /// A judge named `name`, with `tz` as the time zone of new games.
    pub fn new(name: &str, tz: &str) -> Judge {
        Judge {
            variants: HashMap::new(),
            added: Vec::new(),
            layouts: HashMap::new(),
            templates: crate::report::templates::Templates::builtin(),
            name: name.to_string(),
            default_tz: tz.to_string(),
            picture_format: crate::report::PictureFormat::default(),
            drawn: super::drawn::Drawn::default(),
            chance: Chance::System,
            trust: crate::trust::sender::Policy::default(),
            kept: super::kept_copies::Kept::default(),
        }
    }

    /// Judge by the trust settings `policy` (`[trust]`).
    pub fn with_trust(mut self, policy: crate::trust::sender::Policy) -> Judge {
        self.trust = policy;
        self
    }

    /// Draw random choices from `chance` (a fixed seed makes a test's
    /// assignment of powers the same every run).
    pub fn with_chance(mut self, chance: Chance) -> Judge {
        self.chance = chance;
        self
    }

    /// A random number for a choice the core makes from it.
    pub(crate) fn draw(&mut self) -> u64 {
        match &mut self.chance {
            Chance::System => {
                let mut b = [0u8; 8];
                match getrandom::fill(&mut b) {
                    Ok(()) => u64::from_le_bytes(b),
                    // No random source: a choice still has to be made; the
                    // clock's nanoseconds are as good as any for a tie.
                    Err(_) => std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.subsec_nanos().into()),
                }
            }
            Chance::Seeded(s) => {
                *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = *s;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            }
        }
    }

    /// Make a variant playable besides the shipped ones (a GM's own file;
    /// the tests' boards).
    pub fn add_variant(&mut self, v: Variant) {
        let key = v.name.to_ascii_lowercase();
        if !self.added.contains(&key) {
            self.added.push(key.clone());
        }
        let v = Arc::new(v);
        self.kept.add_folder(&v);
        self.variants.insert(key, v);
    }

    /// Every variant the judge plays: the shipped ones, then those added.
    pub(crate) fn variant_names(&self) -> Vec<String> {
        let mut names: Vec<String> = variant::BUILTIN
            .iter()
            .map(|(n, _)| (*n).to_string())
            .collect();
        for n in &self.added {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
        names
    }

    /// A variant by name, loaded once and shared.
    pub(crate) fn variant(&mut self, name: &str) -> CmdResult<Arc<Variant>> {
        let key = name.to_ascii_lowercase();
        if let Some(v) = self.variants.get(&key) {
            return Ok(Arc::clone(v));
        }
        // A copy a game keeps (`hundred#<fingerprint>`).
        if let Some(v) = self.kept.get(&key) {
            return Ok(v);
        }
        match variant::builtin(&key) {
            Some(Ok(v)) => {
                let v = Arc::new(v);
                self.variants.insert(key, Arc::clone(&v));
                Ok(v)
            }
            Some(Err(e)) => Err(CmdError::Fault(anyhow::anyhow!(
                "the variant file of {name} is broken: {e}"
            ))),
            None => Err(CmdError::refused(format!(
                "no variant `{name}`; the judge plays: {}",
                self.variant_names().join(", ")
            ))),
        }
    }

    /// The picture of `v`'s map, laid out once per variant.
    pub(crate) fn picture<'v>(&mut self, v: &'v Variant) -> crate::report::picture::Picture<'v> {
        let layout = self
            .layouts
            .entry(v.key())
            .or_insert_with(|| Arc::new(crate::report::picture::Picture::layout(v)));
        crate::report::picture::Picture::with_geometry(v, Arc::clone(layout))
    }

    /// A game's variant and current position.
    pub(crate) fn board(&mut self, g: &GameRow) -> CmdResult<(Arc<Variant>, Position)> {
        let v = self.variant(&g.variant)?;
        let pos = position(&v, g)?;
        Ok((v, pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_is_loaded_once_and_shared() {
        let mut judge = Judge::default();
        let a = judge.variant("standard").expect("standard");
        let b = judge.variant("Standard").expect("standard again");
        assert!(
            Arc::ptr_eq(&a, &b),
            "the second game shares the first's variant"
        );
        assert!(matches!(judge.variant("nosuch"), Err(CmdError::Refused(_))));
    }
}
