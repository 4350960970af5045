//! A Maildir folder (the embedded default for mail in and out): new mail
//! is a file in `new/`; a file is delivered by writing it in `tmp/` and
//! renaming it into `new/`, so a reader never sees half a mail.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The ending of the names of the files the judge delivers into a Maildir
/// (the outbox sink): only those are ever pruned from it.
pub(crate) const JUDGE_SUFFIX: &str = ".zinejudge";

/// A Maildir on disk.
#[derive(Debug, Clone)]
pub struct Maildir {
    root: PathBuf,
}

impl Maildir {
    /// Open (and create, if needed) the Maildir at `root`.
    pub fn open(root: &Path) -> io::Result<Maildir> {
        use std::os::unix::fs::DirBuilderExt;
        // Mail is private whatever the umask: folders 0700, files 0600.
        for sub in ["new", "cur", "tmp"] {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(root.join(sub))?;
        }
        Ok(Maildir {
            root: root.to_path_buf(),
        })
    }

    /// Where it is.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Files waiting in `new/`, oldest name first. A name starting with a
    /// dot is not a mail, by the Maildir convention (Dovecot skips them
    /// too): the judge's own start-up check writes `.zinejudge-check-PID`
    /// there, which a judge killed at that moment leaves behind, and a
    /// second judge reading the same Maildir stored it as an empty mail.
    pub fn list_new(&self) -> io::Result<Vec<PathBuf>> {
        let mut out: Vec<PathBuf> = fs::read_dir(self.root.join("new"))?
            .filter_map(|e| e.ok())
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.path())
            .collect();
        out.sort();
        Ok(out)
    }

    /// Move a file of `new/` to `cur/`, flagged seen.
    pub fn mark_seen(&self, path: &Path) -> io::Result<()> {
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file"))?
            .to_string_lossy()
            .into_owned();
        let base = name.split(":2,").next().unwrap_or(&name).to_string();
        fs::rename(path, self.root.join("cur").join(format!("{base}:2,S")))
    }

    /// Move a file of `new/` to `cur/`, flagged seen, as `copy` instead of
    /// the bytes it holds (written in `tmp/`, renamed into `cur/`, then the
    /// file in `new/` removed): the copy kept of a mail whose passwords are
    /// masked.
    pub fn mark_seen_as(&self, path: &Path, copy: &[u8]) -> io::Result<()> {
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file"))?
            .to_string_lossy()
            .into_owned();
        let base = name.split(":2,").next().unwrap_or(&name).to_string();
        self.write_into("cur", &format!("{base}:2,S"), copy)?;
        fs::remove_file(path)
    }

    /// Rewrite each file of `cur/` as `mask` says (a copy with its
    /// passwords masked; `None`: leave it): the copies a judge that did not
    /// mask yet left there. Returns how many were rewritten.
    pub fn mask_cur(&self, mask: &dyn Fn(&[u8]) -> Option<Vec<u8>>) -> io::Result<usize> {
        let mut n = 0;
        for e in fs::read_dir(self.root.join("cur"))?.filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || !e.file_type().is_ok_and(|t| t.is_file()) {
                continue;
            }
            let Ok(raw) = fs::read(e.path()) else {
                continue;
            };
            if let Some(copy) = mask(&raw) {
                self.write_into("cur", &name, &copy)?;
                n += 1;
            }
        }
        Ok(n)
    }

    /// Write `bytes` as `sub/name` through `tmp/`, replacing any file of
    /// that name, private whatever the umask.
    fn write_into(&self, sub: &str, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let tmp = self.root.join("tmp").join(format!(
            "{name}.{}.{}",
            std::process::id(),
            SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        {
            use std::os::unix::fs::OpenOptionsExt;
            let mut f = fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(&tmp)?;
            f.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
            f.write_all(bytes)?;
            f.sync_all()?;
        }
        let dest = self.root.join(sub).join(name);
        fs::rename(&tmp, &dest)?;
        Ok(dest)
    }

    /// Remove the files of `cur/` last changed before `before`: mail the
    /// judge stored long ago (its store keeps what it needs, passwords
    /// masked). Returns how many were removed.
    pub fn prune_cur(&self, before: std::time::SystemTime) -> io::Result<usize> {
        let mut n = 0;
        for e in fs::read_dir(self.root.join("cur"))?.filter_map(|e| e.ok()) {
            let old = e
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t < before);
            if old && e.file_type().is_ok_and(|t| t.is_file()) {
                match fs::remove_file(e.path()) {
                    Ok(()) => n += 1,
                    // Another judge reading this Maildir removed it.
                    Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                    Err(err) => return Err(err),
                }
            }
        }
        Ok(n)
    }

    /// Remove the mail the judge delivered here (names ending in
    /// [`JUDGE_SUFFIX`], in `new/` or, moved there by a reader, in `cur/`)
    /// last changed before `before`, read or not. Other files are left
    /// alone. Returns how many were removed.
    ///
    /// This is what keeping a Maildir sink bounded means: it is a hand-off
    /// to whatever delivers the mail on (a local reader, an MDA), which is
    /// expected to take each mail within the retention; what it has not
    /// taken by then goes, as the sent rows of the outbox do.
    pub fn prune_delivered(&self, before: std::time::SystemTime) -> io::Result<usize> {
        let mut n = 0;
        for sub in ["new", "cur"] {
            for e in fs::read_dir(self.root.join(sub))?.filter_map(|e| e.ok()) {
                let name = e.file_name();
                let name = name.to_string_lossy();
                let base = name.split(":2,").next().unwrap_or(&name);
                if !base.ends_with(JUDGE_SUFFIX) {
                    continue;
                }
                let old = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t < before);
                if old && e.file_type().is_ok_and(|t| t.is_file()) {
                    match fs::remove_file(e.path()) {
                        Ok(()) => n += 1,
                        // A reader took it meanwhile.
                        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                        Err(err) => return Err(err),
                    }
                }
            }
        }
        Ok(n)
    }

    /// Deliver `bytes` as `new/<name>`. Delivering the same name again
    /// replaces the file, which makes a retried delivery harmless. The file
    /// in `tmp/` is this process's own: two judges delivering the same
    /// mail at once (one took it over from the other) must not write into
    /// one file. The rename into `new/` replaces atomically.
    pub fn deliver(&self, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        self.write_into("new", name, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delivered_mail_appears_in_new_and_moves_to_cur() {
        let dir = std::env::temp_dir().join(format!("zj-maildir-{}", std::process::id()));
        let md = Maildir::open(&dir).unwrap();
        md.deliver("1.a", b"hello").unwrap();
        md.deliver("1.a", b"hello again").unwrap();
        let new = md.list_new().unwrap();
        assert_eq!(new.len(), 1);
        assert_eq!(fs::read(&new[0]).unwrap(), b"hello again");
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            fs::metadata(&new[0]).unwrap().permissions().mode() & 0o777,
            0o600,
            "mail is private whatever the umask"
        );
        md.mark_seen(&new[0]).unwrap();
        assert!(md.list_new().unwrap().is_empty());
        assert!(dir.join("cur/1.a:2,S").exists());
        // Kept until the retention has passed, then removed.
        let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        assert_eq!(md.prune_cur(an_hour_ago).unwrap(), 0);
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
        assert_eq!(md.prune_cur(later).unwrap(), 1);
        assert!(!dir.join("cur/1.a:2,S").exists());
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn only_the_judges_old_mail_is_pruned_from_a_sink() {
        let dir = std::env::temp_dir().join(format!("zj-maildir-sink-{}", std::process::id()));
        let md = Maildir::open(&dir).unwrap();
        let a = md.deliver(&format!("a{JUDGE_SUFFIX}"), b"one").unwrap();
        md.deliver(&format!("b{JUDGE_SUFFIX}"), b"two").unwrap();
        md.deliver("someone-else", b"three").unwrap();
        // A reader took one: it is in cur/, flagged.
        md.mark_seen(&a).unwrap();
        let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        assert_eq!(
            md.prune_delivered(an_hour_ago).unwrap(),
            0,
            "kept within the retention"
        );
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
        assert_eq!(md.prune_delivered(later).unwrap(), 2);
        let left: Vec<_> = md.list_new().unwrap();
        assert_eq!(left, [dir.join("new/someone-else")]);
        assert_eq!(fs::read_dir(dir.join("cur")).unwrap().count(), 0);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_mail_kept_in_cur_can_be_its_masked_copy() {
        let dir = std::env::temp_dir().join(format!("zj-maildir-mask-{}", std::process::id()));
        let md = Maildir::open(&dir).unwrap();
        let p = md.deliver("m1", b"SIGNON E g hunter22").unwrap();
        md.mark_seen_as(&p, b"SIGNON E g ********").unwrap();
        assert!(md.list_new().unwrap().is_empty());
        assert_eq!(
            fs::read(dir.join("cur/m1:2,S")).unwrap(),
            b"SIGNON E g ********"
        );
        // A copy left by a judge that did not mask yet is rewritten.
        fs::write(dir.join("cur/old:2,S"), b"JOIN g hunter22").unwrap();
        fs::write(dir.join("cur/plain:2,S"), b"HELP").unwrap();
        let n = md
            .mask_cur(&|raw: &[u8]| {
                let t = String::from_utf8_lossy(raw);
                t.contains("hunter22")
                    .then(|| t.replace("hunter22", "********").into_bytes())
            })
            .unwrap();
        assert_eq!(n, 1);
        assert_eq!(
            fs::read(dir.join("cur/old:2,S")).unwrap(),
            b"JOIN g ********"
        );
        assert_eq!(fs::read(dir.join("cur/plain:2,S")).unwrap(), b"HELP");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_dot_file_in_new_is_not_a_mail() {
        let dir = std::env::temp_dir().join(format!("zj-maildir-dot-{}", std::process::id()));
        let md = Maildir::open(&dir).unwrap();
        fs::write(dir.join("new/.zinejudge-check-1234"), b"").unwrap();
        md.deliver("a-mail", b"one").unwrap();
        assert_eq!(md.list_new().unwrap(), [dir.join("new/a-mail")]);
        fs::remove_dir_all(dir).unwrap();
    }
}
