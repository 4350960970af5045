//! The store's files are private (players' mail and password hashes are in
//! them) whatever the umask, and a store that cannot be opened says why.
//!
//! The umask is per process, so the tests that depend on it are one test.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use zinejudge::testing::store::Store;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("zj-store-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn a_new_store_and_its_wal_and_shm_are_0600_even_with_umask_0() {
    let d = dir("modes");
    // SAFETY: umask only swaps an integer of the process.
    let old = unsafe { libc::umask(0) };
    let path = d.join("new/dir/zinejudge.sqlite");
    let opened = Store::open(&path);
    let mut store = opened.unwrap();
    // Write, so that the -wal and -shm files exist while it is open.
    store
        .insert_inbound("a@example.test", "test", b"x", 1, false, 0)
        .unwrap();
    let wal = d.join("new/dir/zinejudge.sqlite-wal");
    let shm = d.join("new/dir/zinejudge.sqlite-shm");
    let modes = [
        mode(&path),
        mode(&wal),
        mode(&shm),
        mode(&d.join("new/dir")),
    ];
    drop(store);
    unsafe { libc::umask(old) };
    assert_eq!(
        modes,
        [0o600, 0o600, 0o600, 0o700],
        "db, -wal, -shm, directory"
    );
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn a_file_that_is_not_a_database_is_reported_with_sqlites_reason() {
    let d = dir("garbage");
    let path = d.join("zinejudge.sqlite");
    std::fs::write(&path, vec![b'x'; 4096]).unwrap();
    let e = Store::open(&path).err().expect("garbage opened as a store");
    // `{}` is the message alone; `{:#}` (what the daemon logs) the cause.
    assert_eq!(format!("{e}"), "database error");
    let full = format!("{e:#}");
    assert!(full.contains("file is not a database"), "{full}");
    // Through anyhow, as the command line prints it: the same chain, not
    // the causes twice.
    assert_eq!(format!("{:#}", anyhow::Error::from(e)), full);
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn a_store_under_a_plain_file_names_the_directory_and_the_reason() {
    let d = dir("under-file");
    std::fs::write(d.join("plain"), "").unwrap();
    let e = Store::open(&d.join("plain/sub/zinejudge.sqlite"))
        .err()
        .expect("a store under a file");
    let full = format!("{e:#}");
    assert!(
        full.contains(&format!(
            "cannot create the store's directory {}",
            d.join("plain/sub").display()
        )) && full.contains("Not a directory"),
        "{full}"
    );
    std::fs::remove_dir_all(d).unwrap();
}
