//! Variants other judges wrote, read into this judge's variant format.
//!
//! An importer is pure: it is given the text of a file and a way to read
//! the files that text names (the command line reads them from the map's
//! folder, tests from memory), and returns a variant file's text, which
//! is then checked like any other (`Variant::from_toml`). What the judge
//! cannot play is refused by name and line, never dropped: a GM who
//! imports a map must get the game its author meant, or be told why not.

pub(crate) mod dpjudge;
