//! Passwords: stored as argon2 hashes, never shown, never logged.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

/// Hash a password for storage.
pub fn hash(password: &str) -> Result<String, String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash a password: {e}"))
}

/// Whether `password` matches the stored `hash`.
pub fn verify(password: &str, hash: &str) -> bool {
    match PasswordHash::new(hash) {
        Ok(h) => Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok(),
        Err(_) => false,
    }
}

/// A new password for a player the GM seats by address: two words and a
/// number, easy to type from a letter.
pub fn generate() -> String {
    const WORDS: &[&str] = &[
        "army", "fleet", "convoy", "spring", "autumn", "winter", "coast", "channel", "north",
        "south", "castle", "border", "river", "harbour", "signal", "treaty", "envoy", "banner",
        "valley", "island",
    ];
    let a = WORDS[fastrand::usize(..WORDS.len())];
    let b = WORDS[fastrand::usize(..WORDS.len())];
    format!("{a}-{b}-{}", fastrand::u32(100..1000))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_hash_verifies_only_its_password() {
        let h = super::hash("secret").unwrap();
        assert!(!h.contains("secret"));
        assert!(super::verify("secret", &h));
        assert!(!super::verify("Secret", &h));
        assert!(!super::verify("secret", "not a hash"));
    }
}
