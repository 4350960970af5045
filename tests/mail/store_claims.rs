//! Several judges on one PostgreSQL store (the store's `# Several judges`):
//! two connections named as two judges claim mail in and out, and the
//! work lock and the fetch lock keep their promises. Each test opens its
//! own database on a throw-away server (skipped with a notice when
//! PostgreSQL is not installed, a failure in CI). SQLite has one judge and
//! its claims are plain reads: the store contract covers it.

use crate::support;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};
use support::postgres::{PgDatabase, PgServer};
use zinejudge::testing::store::{self, Claimant, Location, Store, params};

/// A connection to `at` claiming as judge `name`, with a lease of
/// `lease` seconds.
fn judge(at: &Location, name: &str, lease: u64) -> Store {
    let mut s = Store::open(at).expect("open the store");
    s.set_claimant(Claimant::this_process(name, Duration::from_secs(lease)))
        .expect("claim as a judge");
    s
}

fn db(test: &str) -> Option<(PgDatabase, Location)> {
    let db = PgServer::database_or_skip(test)?;
    let at = db.location();
    Some((db, at))
}

fn mails(s: &mut Store, n: usize) -> Vec<i64> {
    (0..n)
        .map(|i| {
            s.insert_inbound(&format!("m{i}@x"), "test", b"x", 1, false, 0)
                .unwrap()
                .unwrap()
        })
        .collect()
}

#[test]
fn two_judges_claiming_at_once_get_different_mails_and_all_of_them() {
    let Some((_db, at)) = db("two_judges_claim_different_mails") else {
        return;
    };
    let mut a = judge(&at, "a", 60);
    let mut all = mails(&mut a, 40);
    let b = judge(&at, "b", 60);
    let start = Arc::new(Barrier::new(2));
    let claim = |mut s: Store, start: Arc<Barrier>| {
        std::thread::spawn(move || {
            start.wait();
            let mut got = Vec::new();
            loop {
                let batch = s.claim_pending(3).unwrap();
                if batch.is_empty() {
                    return got;
                }
                // Claimed again by the same judge until processed: mark
                // them done, as processing would.
                for p in &batch {
                    s.conn()
                        .execute(
                            "UPDATE inbound SET state = 'done' WHERE id = ?1",
                            params![p.id],
                        )
                        .unwrap();
                    got.push(p.id);
                }
            }
        })
    };
    let ta = claim(a, Arc::clone(&start));
    let tb = claim(b, start);
    let (ga, gb) = (ta.join().unwrap(), tb.join().unwrap());
    let mut both: Vec<i64> = ga.iter().chain(&gb).copied().collect();
    both.sort();
    all.sort();
    assert_eq!(both, all, "every mail claimed once: a {ga:?}, b {gb:?}");
}

/// The lease is the backstop for a judge that is alive (its connections
/// open) but does no work: a stuck process.
#[test]
fn a_claimed_mail_of_a_silent_judge_waits_for_its_lease_then_any_judge_takes_it() {
    let Some((_db, at)) = db("claimed_mail_waits_for_its_lease") else {
        return;
    };
    let mut a = judge(&at, "a", 2);
    let ids = mails(&mut a, 2);
    let mut b = judge(&at, "b", 60);
    assert_eq!(a.claim_pending(10).unwrap().len(), 2);
    assert!(b.claim_pending(10).unwrap().is_empty(), "a holds them");
    assert_eq!(b.start_attempt(ids[0]).unwrap(), None, "a holds it");
    assert_eq!(a.start_attempt(ids[0]).unwrap(), Some(1));
    // a goes silent, its connection open; its lease (2 s on the server's
    // clock) runs out.
    std::thread::sleep(Duration::from_millis(3100));
    let taken: Vec<i64> = b.claim_pending(10).unwrap().iter().map(|p| p.id).collect();
    assert_eq!(taken, ids);
    assert_eq!(
        b.start_attempt(ids[0]).unwrap(),
        Some(2),
        "the silent judge's attempt counts"
    );
    drop(a);
}

/// Poll `f` until it is true; panics after `secs` seconds (far less than
/// the leases the tests give, so that a takeover seen is not the lease's).
fn within(secs: u64, what: &str, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !f() {
        assert!(Instant::now() < deadline, "{what}: not within {secs} s");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A judge that dies (its connections close, as a SIGKILL closes them)
/// leaves its claims to the others at once, not when the leases (here ten
/// minutes) end: the server lets go of its liveness lock with its session.
#[test]
fn a_dead_judges_claims_in_and_out_are_taken_over_at_once_not_at_the_lease() {
    let Some((_db, at)) = db("dead_judges_claims_go_at_once") else {
        return;
    };
    let mut a = judge(&at, "a", 600);
    let inbound = mails(&mut a, 2);
    let outbound = queue(&mut a, 2);
    let mut b = judge(&at, "b", 600);
    assert_eq!(a.claim_pending(10).unwrap().len(), 2);
    assert_eq!(a.start_attempt(inbound[0]).unwrap(), Some(1));
    assert_eq!(a.claim_outbox(10, 10, true).unwrap().len(), 2);
    assert!(a.mark_sending(outbound[0]).unwrap());
    assert!(b.claim_pending(10).unwrap().is_empty(), "a is alive");
    assert!(
        b.claim_outbox(10, 10, true).unwrap().is_empty(),
        "a is alive"
    );
    let next = b.next_outbox_due().unwrap().expect("mail is queued");
    assert!(next > 10, "a's mail is not due for b while a lives: {next}");
    drop(a);
    let mut taken = Vec::new();
    within(30, "b takes a's mail in", || {
        taken.extend(b.claim_pending(10).unwrap().iter().map(|p| p.id));
        taken.len() == 2
    });
    assert_eq!(taken, inbound);
    assert_eq!(
        b.start_attempt(inbound[0]).unwrap(),
        Some(2),
        "the dead judge's attempt counts"
    );
    let now = b
        .conn()
        .query_row(
            "SELECT CAST(extract(epoch FROM clock_timestamp()) AS BIGINT)",
            &[],
            |r| r.get::<i64>(0),
        )
        .unwrap();
    assert!(
        b.next_outbox_due().unwrap().is_some_and(|t| t <= now),
        "a's mail out is due for b at once"
    );
    let out: Vec<i64> = b
        .claim_outbox(10, 10, true)
        .unwrap()
        .iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(out, outbound, "b sends a's mail out");
    assert!(b.mark_sending(outbound[0]).unwrap());
    assert!(b.mark_sent(outbound[0], 9).unwrap());
}

/// The liveness lock is the judge's, held by each of its connections: one
/// connection closing (a web page's, the outbox's at a reload) does not
/// make the judge look dead while another is open.
#[test]
fn a_judge_with_a_connection_still_open_keeps_its_claims() {
    let Some((_db, at)) = db("judge_alive_while_one_connection_is") else {
        return;
    };
    let mut a = judge(&at, "a", 600);
    mails(&mut a, 2);
    let mut a2 = Store::open(&at).unwrap();
    a2.set_claimant(a.claimant().clone()).unwrap();
    let b = judge(&at, "b", 600);
    assert_eq!(a.claim_pending(10).unwrap().len(), 2);
    drop(a);
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        b.claim_pending(10).unwrap().is_empty(),
        "a's other connection still says a is alive"
    );
    drop(a2);
    within(30, "b takes a's mail once a is gone", || {
        !b.claim_pending(10).unwrap().is_empty()
    });
}

#[test]
fn a_mail_processed_by_another_judge_is_left_alone() {
    let Some((_db, at)) = db("mail_processed_by_another_is_left_alone") else {
        return;
    };
    let mut a = judge(&at, "a", 60);
    let id = mails(&mut a, 1)[0];
    let mut b = judge(&at, "b", 60);
    {
        let tx = a.work_transaction().unwrap();
        assert!(store::take_inbound(&tx, id).unwrap());
        store::finish_inbound(&tx, id, "answered", 1).unwrap();
        tx.commit().unwrap();
    }
    let tx = b.work_transaction().unwrap();
    assert!(!store::take_inbound(&tx, id).unwrap(), "already done");
}

#[test]
fn work_transactions_of_two_judges_run_one_after_the_other() {
    let Some((_db, at)) = db("work_transactions_serialize") else {
        return;
    };
    let mut a = judge(&at, "a", 60);
    let at2 = at.clone();
    let tx = a.work_transaction().unwrap();
    store::set_meta(&tx, "k", "from a").unwrap();
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let t = std::thread::spawn(move || {
        let mut b = judge(&at2, "b", 60);
        let tx = b.work_transaction().unwrap();
        // Inside the lock, b reads what a committed.
        let seen = store::meta(&tx, "k").unwrap();
        store::set_meta(&tx, "k", "from b").unwrap();
        tx.commit().unwrap();
        done_tx.send(()).unwrap();
        seen
    });
    std::thread::sleep(Duration::from_millis(700));
    assert!(
        done_rx.try_recv().is_err(),
        "b's work waits while a's transaction is open"
    );
    tx.commit().unwrap();
    let seen = t.join().unwrap();
    assert_eq!(
        seen.as_deref(),
        Some("from a"),
        "b read after a committed, not before"
    );
    assert_eq!(
        store::meta(a.conn(), "k").unwrap().as_deref(),
        Some("from b")
    );
}

fn queue(s: &mut Store, n: usize) -> Vec<i64> {
    let tx = s.transaction().unwrap();
    for i in 0..n {
        store::queue_outbox(&tx, None, &format!("o{i}@j"), &["p@x".into()], b"hi", 0).unwrap();
    }
    tx.commit().unwrap();
    s.due_outbox(0, 100).unwrap().iter().map(|m| m.id).collect()
}

#[test]
fn only_the_claimant_sends_and_marks_an_outbox_mail_sent() {
    let Some((_db, at)) = db("only_the_claimant_sends") else {
        return;
    };
    let mut a = judge(&at, "a", 60);
    let ids = queue(&mut a, 3);
    let b = judge(&at, "b", 60);
    let claimed: Vec<i64> = a
        .claim_outbox(10, 2, true)
        .unwrap()
        .iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(claimed, ids[..2]);
    let rest: Vec<i64> = b
        .claim_outbox(10, 10, true)
        .unwrap()
        .iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(rest, ids[2..], "b gets only what a did not claim");
    assert!(
        !b.mark_sending(ids[0]).unwrap(),
        "a's mail is not b's to send"
    );
    assert!(!b.mark_sent(ids[0], 5).unwrap(), "nor b's to mark");
    assert!(a.mark_sending(ids[0]).unwrap());
    assert!(a.mark_sent(ids[0], 5).unwrap());
    // A mail that failed for now is released: whoever claims it next.
    assert!(a.mark_sending(ids[1]).unwrap());
    a.mark_retry(ids[1], "busy", 0).unwrap();
    let again: Vec<i64> = b
        .claim_outbox(10, 10, true)
        .unwrap()
        .iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(again, ids[1..]);
    assert_eq!(a.unsent_count().unwrap(), 2);
}

#[test]
fn a_silent_judges_outbox_claim_falls_due_for_another_when_its_lease_ends() {
    let Some((_db, at)) = db("silent_judges_outbox_claim") else {
        return;
    };
    let mut a = judge(&at, "a", 2);
    let ids = queue(&mut a, 1);
    let b = judge(&at, "b", 60);
    assert_eq!(a.claim_outbox(10, 10, true).unwrap().len(), 1);
    assert!(a.mark_sending(ids[0]).unwrap());
    // a goes silent after the server took the mail, before the mark.
    let next = b.next_outbox_due().unwrap().expect("a mail is queued");
    assert!(
        next > 0,
        "falls due for b when a's lease ends, not at once: {next}"
    );
    assert!(b.claim_outbox(10, 10, true).unwrap().is_empty());
    std::thread::sleep(Duration::from_millis(3100));
    let taken = b.claim_outbox(10, 10, true).unwrap();
    assert_eq!(taken.len(), 1, "b sends it again (at least once)");
    assert_eq!(taken[0].attempts, 1, "the silent judge's attempt shows");
    assert!(b.mark_sending(ids[0]).unwrap());
    assert!(b.mark_sent(ids[0], 9).unwrap());
}

#[test]
fn one_judge_holds_the_fetch_lock_until_its_connection_goes() {
    let Some((_db, at)) = db("fetch_lock") else {
        return;
    };
    let a = judge(&at, "a", 60);
    let b = judge(&at, "b", 60);
    assert!(a.try_fetch_lock().unwrap());
    assert!(a.try_fetch_lock().unwrap(), "a holds it still");
    assert!(!b.try_fetch_lock().unwrap(), "b waits");
    drop(a);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !b.try_fetch_lock().unwrap() {
        assert!(
            Instant::now() < deadline,
            "b takes over when a's session ends"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn judges_are_named_after_the_configuration_or_the_host_and_their_pid() {
    let pid = std::process::id();
    let c = Claimant::this_process("judge-east", Duration::from_secs(30));
    assert_eq!(c.name, format!("judge-east:{pid}"));
    let h = Claimant::this_process("", Duration::from_secs(30));
    assert!(h.name.ends_with(&format!(":{pid}")) && h.name.len() > 1 + pid.to_string().len());
}

#[test]
fn a_judge_stopping_cleanly_gives_its_claims_to_the_others_at_once() {
    let Some((_db, at)) = db("stopping_judge_releases_claims") else {
        return;
    };
    let mut a = judge(&at, "a", 600);
    mails(&mut a, 3);
    queue(&mut a, 2);
    let b = judge(&at, "b", 600);
    assert_eq!(a.claim_pending(10).unwrap().len(), 3);
    assert_eq!(a.claim_outbox(10, 10, true).unwrap().len(), 2);
    assert!(b.claim_pending(10).unwrap().is_empty());
    assert_eq!(a.release_claims().unwrap(), 5);
    assert_eq!(b.claim_pending(10).unwrap().len(), 3);
    assert_eq!(b.claim_outbox(10, 10, true).unwrap().len(), 2);
}
