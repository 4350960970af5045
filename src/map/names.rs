//! Name normalisation shared by the map loader and the order parser, so that
//! an alias written in a map file and a name typed in a mail meet in the same
//! form.

/// Lower-case, drop dots and apostrophes, turn hyphens and underscores into
/// spaces and squeeze runs of white space: `St. Petersburg`, `st petersburg`
/// and `ST.PETERSBURG`'s spelled-out forms all compare equal; `Mid-Atlantic`
/// meets `mid atlantic`.
pub fn normalize_name(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending_space = false;
    for ch in s.chars() {
        match ch {
            '.' | '\'' | '\u{2019}' | '\u{2018}' | '`' => {}
            '-' | '_' | '+' => pending_space = true,
            c if c.is_whitespace() => pending_space = true,
            c => {
                if pending_space && !out.is_empty() {
                    out.push(' ');
                }
                pending_space = false;
                out.extend(c.to_lowercase());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalize_name;

    #[test]
    fn spellings_players_use_meet() {
        assert_eq!(normalize_name("St. Petersburg"), "st petersburg");
        assert_eq!(normalize_name("  ST  PETERSBURG "), "st petersburg");
        assert_eq!(normalize_name("Mid-Atlantic Ocean"), "mid atlantic ocean");
        assert_eq!(normalize_name("Edwin's Burgh"), "edwins burgh");
        assert_eq!(normalize_name("stp/nc"), "stp/nc");
    }
}
