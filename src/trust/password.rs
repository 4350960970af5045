//! Passwords: stored as argon2 hashes, never shown, never logged.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

/// The shortest password the judge takes.
pub(crate) const MIN_LEN: usize = 8;
/// The longest password the judge takes.
pub(crate) const MAX_LEN: usize = 128;

/// Refuse a new password a guesser could find: shorter than [`MIN_LEN`]
/// characters (or longer than [`MAX_LEN`]). Checked wherever a password is
/// chosen (CREATE, JOIN, SET PASSWORD); a seat's password set before this
/// rule still opens it.
pub(crate) fn check_new(password: &str) -> Result<(), String> {
    let n = password.chars().count();
    if n < MIN_LEN {
        return Err(format!(
            "a password is at least {MIN_LEN} characters long, so that it cannot be \
             guessed; choose a longer one"
        ));
    }
    if n > MAX_LEN {
        return Err(format!("a password is at most {MAX_LEN} characters long"));
    }
    Ok(())
}

/// Hash a password for storage.
pub fn hash(password: &str) -> Result<String, String> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash a password: {e}"))
}

thread_local! {
    /// argon2 verifications made on this thread.
    static VERIFICATIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many argon2 verifications [`verify`] made on the calling thread
/// (the processing thread does all of a mail's): lets a test see that a
/// known password skipped the hash and a wrong one did not.
pub fn verifications_on_this_thread() -> u64 {
    VERIFICATIONS.with(|v| v.get())
}

/// Whether `password` matches the stored `hash`.
pub(crate) fn verify(password: &str, hash: &str) -> bool {
    VERIFICATIONS.with(|v| v.set(v.get() + 1));
    match PasswordHash::new(hash) {
        Ok(h) => Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok(),
        Err(_) => false,
    }
}

/// Letters of generated passwords: no o, 1, l or i, so that a password
/// read from a letter is typed right (0 stays: there is no o).
const ALPHABET: &[u8; 32] = b"abcdefghjkmnpqrstuvwxyz023456789";

/// A new password for a player the GM seats by address: 16 letters and
/// digits from the operating system's random source (80 bits), in groups
/// of four to be typed from a letter.
pub(crate) fn generate() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    let mut out = String::with_capacity(19);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        out.push(ALPHABET[(*b & 31) as usize] as char);
    }
    Ok(out)
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

    #[test]
    fn new_passwords_are_eight_characters_at_least() {
        assert!(super::check_new("seven77").is_err());
        assert!(super::check_new("eight888").is_ok());
        assert!(
            super::check_new("ünïcödé").is_err(),
            "characters, not bytes"
        );
        assert!(super::check_new(&"x".repeat(129)).is_err());
    }

    #[test]
    fn generated_passwords_differ_and_are_long() {
        let a = super::generate().unwrap();
        let b = super::generate().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 19, "{a}");
        assert!(a.split('-').all(|g| g.len() == 4), "{a}");
    }
}
