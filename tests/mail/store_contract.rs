//! What the store promises, checked once per backend: each behaviour is
//! one generic body, run as `sqlite::<name>` on an SQLite file and as
//! `postgres::<name>` on a database of its own on a throw-away PostgreSQL
//! server (skipped with a notice when PostgreSQL is not installed, a
//! failure in CI).

use crate::support;
use std::path::PathBuf;
use support::postgres::{PgDatabase, PgServer};
use zinejudge::game::record::{Seat, SeatStatus, Settings, Status};
use zinejudge::testing::store::games::{self, GameRow, NewHistory, NewPress, Rate};
use zinejudge::testing::store::roster::{self, Absence};
use zinejudge::testing::store::{
    self, Backend, Later, Location, Store, StoreError, params, press, retention, signon,
};

/// Opens connections to one store of one backend.
trait At: Sync {
    fn location(&self) -> Location;
    fn open(&self) -> Store {
        Store::open(&self.location()).expect("open the store")
    }
}

struct SqliteAt(PathBuf);

impl SqliteAt {
    fn new(test: &str) -> SqliteAt {
        let d = std::env::temp_dir().join(format!("zj-contract-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        SqliteAt(d.join("store.sqlite"))
    }
}

impl Drop for SqliteAt {
    fn drop(&mut self) {
        if let Some(d) = self.0.parent() {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

impl At for SqliteAt {
    fn location(&self) -> Location {
        Location::Sqlite(self.0.clone())
    }
}

struct PgAt(PgDatabase);

impl At for PgAt {
    fn location(&self) -> Location {
        self.0.location()
    }
}

macro_rules! contract {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                fn $name() {
                    super::$name(&super::SqliteAt::new(stringify!($name)));
                }
            )*
        }
        mod postgres {
            $(
                #[test]
                fn $name() {
                    let Some(db) = super::PgServer::database_or_skip(stringify!($name)) else {
                        return;
                    };
                    super::$name(&super::PgAt(db));
                }
            )*
        }
    };
}

contract!(
    a_message_id_is_kept_once_and_other_bytes_under_it_are_kept_apart,
    processing_and_queueing_commit_together_or_not_at_all,
    the_outbox_sends_oldest_first_and_keeps_retries_and_refusals,
    game_names_and_addresses_compare_without_regard_to_case,
    a_game_row_and_its_seats_come_back_as_saved,
    history_and_press_keep_their_order,
    broadcasts_come_back_newest_first_and_grey_ones_without_a_sender,
    rate_limits_warn_once_then_stay_silent,
    sign_on_failures_are_kept_per_seat_and_cleared,
    serials_count_up_and_meta_keeps_values,
    an_attempt_is_counted_at_once_and_group_commits_keep_everything,
    sent_mail_goes_after_the_retention_and_queued_mail_never,
    who_played_which_power_and_absences_are_kept,
    due_games_come_earliest_first_and_faulty_ones_wait,
    connections_opening_a_new_store_at_once_all_succeed,
    a_transaction_that_reads_first_is_not_refused_when_another_connection_writes,
    a_store_newer_than_the_program_is_refused,
    a_store_opened_again_keeps_everything,
    while_deadline_work_waits_only_mail_without_pictures_is_due,
    the_generation_moves_when_another_connection_commits,
    attachments_are_kept_once_for_every_mail_that_carries_them,
);

fn game(name: &str, deadline: Option<i64>) -> GameRow {
    GameRow {
        name: name.into(),
        variant: "standard".into(),
        gm_address: "gm@example.test".into(),
        gm_hash: "hash".into(),
        status: Status::Active,
        settings: Settings::default(),
        position: "position".into(),
        deadline,
        reminded: false,
        grace_noticed: true,
        result: None,
        created_at: 5,
    }
}

fn count(s: &mut Store, table: &str) -> i64 {
    s.conn()
        .query_row(&format!("SELECT count(*) FROM {table}"), &[], |r| r.get(0))
        .unwrap()
}

fn a_message_id_is_kept_once_and_other_bytes_under_it_are_kept_apart(at: &dyn At) {
    let mut s = at.open();
    let first = s.insert_inbound("a@b", "test", b"x", 1, false, 0).unwrap();
    assert!(first.is_some());
    assert_eq!(
        s.insert_inbound("a@b", "test", b"x", 1, false, 0).unwrap(),
        None,
        "the same mail fetched twice"
    );
    let other = s.insert_inbound("a@b", "test", b"y", 1, true, 0).unwrap();
    assert!(
        other.is_some() && other != first,
        "another mail reusing the id"
    );
    assert_eq!(s.pending_count().unwrap(), 2);
    let p = s.next_pending().unwrap().unwrap();
    assert_eq!(
        (p.id, p.raw.as_slice(), p.truncated),
        (first.unwrap(), &b"x"[..], false)
    );
}

fn processing_and_queueing_commit_together_or_not_at_all(at: &dyn At) {
    let mut s = at.open();
    let id = s
        .insert_inbound("a@b", "test", b"x", 1, false, 0)
        .unwrap()
        .unwrap();
    {
        let tx = s.transaction().unwrap();
        store::queue_outbox(&tx, Some(id), "r@j", &["a@b".into()], b"reply", 5).unwrap();
        store::finish_inbound(&tx, id, "answered", 5).unwrap();
        // dropped without commit: rolled back
    }
    assert_eq!(s.pending_count().unwrap(), 1);
    assert_eq!(s.unsent_count().unwrap(), 0);
    let tx = s.transaction().unwrap();
    store::redact_inbound(&tx, id, b"masked").unwrap();
    store::queue_outbox(&tx, Some(id), "r@j", &["a@b".into()], b"reply", 5).unwrap();
    store::finish_inbound(&tx, id, "answered", 5).unwrap();
    tx.commit().unwrap();
    assert_eq!(s.pending_count().unwrap(), 0);
    assert_eq!(s.unsent_count().unwrap(), 1);
    let raw: Vec<u8> = s
        .conn()
        .query_row("SELECT raw FROM inbound WHERE id = ?1", params![id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(raw, b"masked");
}

fn the_outbox_sends_oldest_first_and_keeps_retries_and_refusals(at: &dyn At) {
    let mut s = at.open();
    {
        let tx = s.transaction().unwrap();
        let src = store::add_mail_source(&tx, "phase", b"{\"p\":1}", 0).unwrap();
        let later = Later {
            source: src,
            spec: "gm".into(),
        };
        store::queue_outbox(&tx, None, "m1@j", &["a@b".into(), "c@d".into()], b"one", 10).unwrap();
        store::queue_outbox_later(&tx, None, "m2@j", &["e@f".into()], b"two", &later, 20).unwrap();
        tx.commit().unwrap();
    }
    assert_eq!(s.next_outbox_due().unwrap(), Some(10));
    assert_eq!(s.due_outbox(15, 10).unwrap().len(), 1);
    let due = s.due_outbox(20, 10).unwrap();
    assert_eq!(due.len(), 2);
    assert_eq!(due[0].recipients, ["a@b", "c@d"]);
    assert_eq!(due[0].raw, b"one");
    assert!(due[0].later.is_none());
    let later = due[1].later.clone().unwrap();
    assert_eq!(later.spec, "gm");
    assert_eq!(
        store::mail_source(s.conn(), later.source).unwrap(),
        Some(("phase".to_string(), b"{\"p\":1}".to_vec()))
    );
    assert_eq!(
        store::mail_source(s.conn(), later.source + 100).unwrap(),
        None
    );
    s.mark_sending(due[0].id).unwrap();
    s.mark_retry(due[0].id, "busy", 100).unwrap();
    s.mark_sending(due[1].id).unwrap();
    s.mark_failed(due[1].id, "no such user").unwrap();
    assert_eq!(s.unsent_count().unwrap(), 1);
    assert!(s.due_outbox(99, 10).unwrap().is_empty());
    let again = s.due_outbox(100, 10).unwrap();
    assert_eq!((again.len(), again[0].attempts), (1, 1));
    s.mark_sending(again[0].id).unwrap();
    s.mark_sent(again[0].id, 101).unwrap();
    assert_eq!(s.unsent_count().unwrap(), 0);
    assert_eq!(s.next_outbox_due().unwrap(), None);
}

fn game_names_and_addresses_compare_without_regard_to_case(at: &dyn At) {
    let mut s = at.open();
    let c = s.conn();
    assert!(games::create(c, &game("Hastings", None), 2).unwrap());
    assert!(
        !games::create(c, &game("HASTINGS", None), 2).unwrap(),
        "a name taken in another case"
    );
    assert_eq!(
        games::load(c, "hastings").unwrap().unwrap().name,
        "Hastings"
    );
    games::set_observer(c, "hastings", "Ann@Example.test", true).unwrap();
    games::set_observer(c, "HASTINGS", "ann@example.test", true).unwrap();
    assert_eq!(
        games::observers(c, "Hastings").unwrap(),
        ["Ann@Example.test"]
    );
    games::set_observer(c, "Hastings", "ANN@EXAMPLE.TEST", false).unwrap();
    assert!(games::observers(c, "Hastings").unwrap().is_empty());
    assert_eq!(games::note_sender(c, "Bob@x", 0, 100, 5).unwrap(), Rate::Ok);
    assert_eq!(count(&mut s, "senders"), 1);
    let c = s.conn();
    games::note_sender(c, "bob@X", 1, 100, 5).unwrap();
    assert_eq!(
        count(&mut s, "senders"),
        1,
        "one counter per address, any case"
    );
}

fn a_game_row_and_its_seats_come_back_as_saved(at: &dyn At) {
    let mut s = at.open();
    let c = s.conn();
    let mut g = game("g", Some(1000));
    assert!(games::create(c, &g, 3).unwrap());
    assert_eq!(games::load(c, "g").unwrap().unwrap(), g);
    g.status = Status::Finished;
    g.deadline = None;
    g.reminded = true;
    g.result = Some("draw".into());
    games::save(c, &g).unwrap();
    assert_eq!(games::load(c, "G").unwrap().unwrap(), g);
    assert_eq!(games::load(c, "nope").unwrap(), None);
    let seats = games::seats(c, "g").unwrap();
    assert_eq!(seats.len(), 3);
    assert!(seats.iter().all(|s| s.status == SeatStatus::Open));
    let seat = Seat {
        power: 1,
        address: Some("ann@x".into()),
        hash: Some("h".into()),
        status: SeatStatus::Playing,
        ready: true,
        draw: true,
        concede: Some(2),
        failures: 3,
        picture: Some("png".into()),
        name: Some("Ann".into()),
        wait: true,
        prefs: vec![2, 0],
    };
    games::save_seat(c, "g", &seat).unwrap();
    assert_eq!(games::seats(c, "g").unwrap()[1], seat);
    games::set_orders(c, "g", 1, &["A Lon-Yor".into(), "F Edi-Nth".into()]).unwrap();
    games::set_orders(c, "g", 1, &["A Lon H".into()]).unwrap();
    assert_eq!(games::orders(c, "g", 1).unwrap(), ["A Lon H"]);
    games::clear_orders(c, "g").unwrap();
    assert!(games::orders(c, "g", 1).unwrap().is_empty());
    assert_eq!(games::list(c).unwrap().len(), 1);
    // A row that cannot be read is an error with its cause, never the
    // defaults (a status no judge wrote, settings that are not settings).
    c.execute(
        "UPDATE games SET settings = 'nonsense' WHERE name = 'g'",
        &[],
    )
    .unwrap();
    let e = games::load(c, "g").unwrap_err().to_string();
    assert!(e.contains("the settings of game g cannot be read"), "{e}");
    c.execute(
        "UPDATE games SET settings = '{}', status = 'wandering' WHERE name = 'g'",
        &[],
    )
    .unwrap();
    let e = games::load(c, "g").unwrap_err().to_string();
    assert!(e.contains("the status of game g cannot be read"), "{e}");
    c.execute("UPDATE games SET status = 'active' WHERE name = 'g'", &[])
        .unwrap();
    c.execute(
        "UPDATE seats SET status = 'dozing' WHERE game = 'g' AND power = 0",
        &[],
    )
    .unwrap();
    let e = games::seats(c, "g").unwrap_err().to_string();
    assert!(
        e.contains("the status of seat 0 of game g cannot be read"),
        "{e}"
    );
}

fn history_and_press_keep_their_order(at: &dyn At) {
    let mut s = at.open();
    let c = s.conn();
    games::create(c, &game("g", None), 1).unwrap();
    for phase in ["S1901M", "F1901M", "W1901A"] {
        let e = NewHistory {
            phase,
            kind: "phase",
            position: "p",
            orders: "o",
            report: "r",
        };
        games::append_history(c, "g", &e, 7).unwrap();
    }
    let h = games::history(c, "g").unwrap();
    assert_eq!(
        h.iter()
            .map(|e| (e.seq, e.phase.as_str()))
            .collect::<Vec<_>>(),
        [(1, "S1901M"), (2, "F1901M"), (3, "W1901A")]
    );
    games::truncate_history(c, "g", 2).unwrap();
    assert_eq!(games::history(c, "g").unwrap().len(), 1);
    let p = NewPress {
        phase: "S1901M",
        sender: "England",
        recipients: "everybody",
        grey: true,
        text: "hello",
    };
    assert_eq!(games::append_press(c, "g", &p, 8).unwrap(), 1);
    assert_eq!(games::append_press(c, "G", &p, 9).unwrap(), 2);
    let got = games::press(c, "g").unwrap();
    assert_eq!((got[1].seq, got[1].grey, got[1].created_at), (2, true, 9));
}

fn broadcasts_come_back_newest_first_and_grey_ones_without_a_sender(at: &dyn At) {
    let mut s = at.open();
    let c = s.conn();
    games::create(c, &game("g1", None), 1).unwrap();
    let a = press::add(
        c,
        "g1",
        "Spring 1901 movement",
        Some("England"),
        "Hello",
        10,
    )
    .unwrap();
    let b = press::add(c, "G1", "Spring 1901 movement", None, "Somebody lies", 20).unwrap();
    assert!(b > a);
    let got = press::list(c, "g1", 10).unwrap();
    assert_eq!(got.len(), 2);
    assert_eq!((got[0].id, got[0].sender.as_deref()), (b, None));
    assert_eq!(got[1].sender.as_deref(), Some("England"));
    assert_eq!(press::list(c, "g1", 1).unwrap().len(), 1);
    assert!(press::list(c, "other", 10).unwrap().is_empty());
}

fn rate_limits_warn_once_then_stay_silent(at: &dyn At) {
    let mut s = at.open();
    let c = s.conn();
    let answers: Vec<Rate> = (0..4)
        .map(|i| store::note_answer(c, "a@x", i, 100, 2).unwrap())
        .collect();
    assert_eq!(answers, [Rate::Ok, Rate::Ok, Rate::Warn, Rate::Silent]);
    assert_eq!(store::note_answer(c, "A@X", 200, 100, 2).unwrap(), Rate::Ok);
    assert!(store::idle_answer(c, "a@x", 1000, 60).unwrap());
    assert!(!store::idle_answer(c, "a@x", 1030, 60).unwrap());
    assert!(store::idle_answer(c, "a@x", 1061, 60).unwrap());
    assert!(store::idle_answer(c, "new@x", 5, 60).unwrap());
}

fn sign_on_failures_are_kept_per_seat_and_cleared(at: &dyn At) {
    let mut s = at.open();
    let c = s.conn();
    assert_eq!(signon::get(c, "g", 1, signon::OTHERS).unwrap(), None);
    let f = signon::Failures {
        failures: 3,
        locked_until: 500,
        last_at: 400,
        notified_at: 0,
    };
    signon::set(c, "g", 1, signon::OTHERS, f).unwrap();
    signon::set(c, "g", -1, signon::OTHERS, f).unwrap();
    signon::set(c, "g", 1, "eve@x", f).unwrap();
    let f2 = signon::Failures {
        failures: 4,
        notified_at: 450,
        ..f
    };
    signon::set(c, "G", 1, signon::OTHERS, f2).unwrap();
    assert_eq!(signon::get(c, "g", 1, signon::OTHERS).unwrap(), Some(f2));
    assert_eq!(
        signon::get(c, "g", 1, "EVE@X").unwrap(),
        Some(f),
        "any case"
    );
    assert_eq!(signon::notified_at(c, "g", 1).unwrap(), 450);
    signon::clear(c, "g", 1, signon::OTHERS).unwrap();
    assert_eq!(signon::get(c, "g", 1, signon::OTHERS).unwrap(), None);
    assert_eq!(signon::get(c, "g", 1, "eve@x").unwrap(), Some(f));
    assert_eq!(signon::get(c, "g", -1, signon::OTHERS).unwrap(), Some(f));
}

fn serials_count_up_and_meta_keeps_values(at: &dyn At) {
    let mut s = at.open();
    {
        let tx = s.transaction().unwrap();
        assert_eq!(store::next_serial(&tx).unwrap(), 1);
        assert_eq!(store::next_serial(&tx).unwrap(), 2);
        tx.commit().unwrap();
    }
    {
        let tx = s.transaction().unwrap();
        assert_eq!(store::next_serial(&tx).unwrap(), 3);
    }
    let tx = s.transaction().unwrap();
    assert_eq!(
        store::next_serial(&tx).unwrap(),
        3,
        "the rolled back one is reused"
    );
    drop(tx);
    let c = s.conn();
    assert_eq!(store::meta(c, "k").unwrap(), None);
    store::set_meta(c, "k", "v1").unwrap();
    store::set_meta(c, "k", "v2").unwrap();
    assert_eq!(store::meta(c, "k").unwrap().as_deref(), Some("v2"));
}

fn an_attempt_is_counted_at_once_and_group_commits_keep_everything(at: &dyn At) {
    let mut s = at.open();
    s.relax_durability().unwrap();
    s.limit_cache(256).unwrap();
    let id = s
        .insert_inbound("a@b", "test", b"x", 1, false, 0)
        .unwrap()
        .unwrap();
    assert_eq!(s.begin_attempt(id).unwrap(), 1);
    assert_eq!(s.begin_attempt(id).unwrap(), 2);
    let n = s
        .group_commit(|s| {
            for i in 0..5 {
                s.insert_inbound(&format!("m{i}@b"), "test", b"y", 1, false, 0)?;
            }
            s.pending_count()
        })
        .unwrap();
    assert_eq!(n, 6);
    // Another connection sees it all.
    let mut other = at.open();
    assert_eq!(other.pending_count().unwrap(), 6);
    let attempts: i64 = other
        .conn()
        .query_row(
            "SELECT attempts FROM inbound WHERE id = ?1",
            params![id],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(attempts, 2);
}

fn sent_mail_goes_after_the_retention_and_queued_mail_never(at: &dyn At) {
    let mut s = at.open();
    let id = s
        .insert_inbound("a@b", "test", b"x", 1, false, 0)
        .unwrap()
        .unwrap();
    {
        let tx = s.transaction().unwrap();
        let src = store::add_mail_source(&tx, "phase", b"{}", 0).unwrap();
        let later = Later {
            source: src,
            spec: "gm".into(),
        };
        store::queue_outbox(&tx, Some(id), "r1@j", &["a@b".into()], b"one", 0).unwrap();
        store::queue_outbox_later(&tx, None, "r2@j", &["c@d".into()], b"two", &later, 0).unwrap();
        store::queue_outbox_later(&tx, None, "r3@j", &["e@f".into()], b"3", &later, 0).unwrap();
        store::finish_inbound(&tx, id, "answered", 0).unwrap();
        tx.commit().unwrap();
    }
    assert_eq!(
        store::prune_inbound(s.conn(), 0).unwrap(),
        0,
        "processed at 0: kept"
    );
    assert_eq!(store::prune_inbound(s.conn(), 1).unwrap(), 1);
    assert_eq!(
        store::prune_inbound(s.conn(), 1).unwrap(),
        0,
        "already dropped"
    );
    let due = s.due_outbox(10, 10).unwrap();
    s.mark_sent(due[0].id, 100).unwrap();
    s.mark_sent(due[1].id, 100).unwrap();
    let p = retention::prune_outbox(s.conn(), 100, 1000).unwrap();
    assert_eq!(p.outbox, 0, "sent at the boundary: kept");
    let p = retention::prune_outbox(s.conn(), 101, 1000).unwrap();
    assert_eq!(p.outbox, 2);
    assert_eq!(p.sources, 0, "the queued mail still needs its source");
    assert_eq!(p.inbound, 0, "a mail's row is kept a year");
    assert_eq!(count(&mut s, "outbox"), 1);
    s.mark_sent(due[2].id, 200).unwrap();
    let p = retention::prune_outbox(s.conn(), 201, 1000).unwrap();
    assert_eq!((p.outbox, p.sources), (1, 1));
    assert_eq!(count(&mut s, "mail_sources"), 0);
    let p = retention::prune_outbox(s.conn(), 201, retention::KEEP_MAIL_IDS + 1).unwrap();
    assert_eq!(p.inbound, 1);
    assert_eq!(count(&mut s, "inbound"), 0);
    retention::tidy(s.conn()).unwrap();
    retention::vacuum(s.conn()).unwrap();
    let (size, free) = retention::size(s.conn()).unwrap();
    assert!(size > 0 && free <= size, "{size} {free}");
}

/// Issue 53: a start's board went into the outbox once per reader (a
/// mail's whole bytes, pictures and all). Now each distinct attachment is
/// kept once, by its digest, and given back with each mail that carries
/// it; it goes once no mail does.
fn attachments_are_kept_once_for_every_mail_that_carries_them(at: &dyn At) {
    use zinejudge::testing::mail::Attached;
    let mut s = at.open();
    let mut png = vec![7u8; 50_000];
    png[..4].copy_from_slice(b"\x89PNG");
    let board = Attached {
        name: "g-S1901M.png".into(),
        mime: "image/png".into(),
        bytes: png,
    };
    let other = Attached {
        name: "g-S1901M.svg".into(),
        mime: "image/svg+xml".into(),
        bytes: b"<svg/>".to_vec(),
    };
    {
        let tx = s.transaction().unwrap();
        for i in 0..7 {
            let parts = if i == 6 {
                vec![board.clone(), other.clone()]
            } else {
                vec![board.clone()]
            };
            store::queue_outbox_parts(
                &tx,
                None,
                &format!("start{i}@j"),
                &[format!("p{i}@x")],
                b"text",
                &parts,
                None,
                0,
            )
            .unwrap();
        }
        tx.commit().unwrap();
    }
    assert_eq!(count(&mut s, "mail_parts"), 2, "each content once");
    let stored: i64 = s
        .conn()
        .query_row("SELECT sum(length(bytes)) FROM mail_parts", &[], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(stored < 60_000, "{stored} bytes for seven boards");
    let due = s.due_outbox(10, 10).unwrap();
    assert_eq!(due.len(), 7);
    assert!(due.iter().all(|m| m.kept && m.raw == b"text"));
    assert_eq!(
        store::kept_parts(s.conn(), due[0].id).unwrap(),
        vec![board.clone()]
    );
    assert_eq!(
        store::kept_parts(s.conn(), due[6].id).unwrap(),
        vec![board.clone(), other.clone()]
    );
    // Sent and past the retention: the rows go, then the bytes no row
    // needs; the board stays while one mail still carries it.
    for m in &due[..6] {
        s.mark_sent(m.id, 100).unwrap();
    }
    let p = retention::prune_outbox(s.conn(), 101, 1000).unwrap();
    assert_eq!((p.outbox, p.parts), (6, 0));
    assert_eq!(count(&mut s, "outbox_parts"), 2);
    s.mark_sent(due[6].id, 200).unwrap();
    let p = retention::prune_outbox(s.conn(), 201, 1000).unwrap();
    assert_eq!((p.outbox, p.parts), (1, 2));
    assert_eq!(count(&mut s, "mail_parts"), 0);
    assert_eq!(count(&mut s, "outbox_parts"), 0);
}

fn who_played_which_power_and_absences_are_kept(at: &dyn At) {
    let mut s = at.open();
    let c = s.conn();
    games::create(c, &game("g", None), 2).unwrap();
    roster::took(c, "g", 0, "ann@x", Some("Ann"), 10).unwrap();
    roster::took(c, "g", 0, "bob@x", None, 20).unwrap();
    roster::named(c, "g", 0, Some("Bob")).unwrap();
    roster::left(c, "G", 0, "resigned", 30).unwrap();
    let p = roster::players(c, "g").unwrap();
    assert_eq!(p.len(), 2);
    assert_eq!(
        (p[0].address.as_str(), p[0].to_at, p[0].how.as_deref()),
        ("ann@x", Some(20), Some("replaced"))
    );
    assert_eq!(
        (p[1].name.as_deref(), p[1].to_at, p[1].how.as_deref()),
        (Some("Bob"), Some(30), Some("resigned"))
    );
    let a = Absence {
        power: 1,
        from_at: 100,
        to_at: 200,
    };
    roster::add_absence(c, "g", a, 50).unwrap();
    roster::add_absence(c, "g", Absence { power: 0, ..a }, 50).unwrap();
    assert_eq!(roster::absences(c, "g", 150).unwrap().len(), 2);
    assert_eq!(roster::absences(c, "g", 150).unwrap()[0].power, 0);
    assert!(roster::absences(c, "g", 200).unwrap().is_empty());
}

fn due_games_come_earliest_first_and_faulty_ones_wait(at: &dyn At) {
    let mut s = at.open();
    let c = s.conn();
    games::create(c, &game("late", Some(300)), 1).unwrap();
    games::create(c, &game("early", Some(100)), 1).unwrap();
    games::create(c, &game("never", None), 1).unwrap();
    games::create(c, &game("future", Some(9999)), 1).unwrap();
    assert_eq!(
        games::with_deadline_before(c, 500, 0).unwrap(),
        [("early".to_string(), 100), ("late".to_string(), 300)]
    );
    games::set_fault(c, "early", Some("broken"), 400).unwrap();
    assert_eq!(games::fault(c, "EARLY").unwrap().as_deref(), Some("broken"));
    assert_eq!(games::with_deadline_before(c, 500, 400).unwrap().len(), 1);
    assert_eq!(games::with_deadline_before(c, 500, 401).unwrap().len(), 2);
    games::set_fault(c, "early", None, 500).unwrap();
    assert_eq!(games::fault(c, "early").unwrap(), None);
    assert_eq!(games::fault(c, "nope").unwrap(), None);
}

fn connections_opening_a_new_store_at_once_all_succeed(at: &dyn At) {
    // The daemon starting while `deliver` stores a mail: each sees a new
    // database and migrates it.
    let start = std::sync::Barrier::new(4);
    std::thread::scope(|s| {
        let opened: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    start.wait();
                    Store::open(&at.location()).map(|_| ())
                })
            })
            .collect();
        for o in opened {
            o.join().unwrap().unwrap();
        }
    });
    assert_eq!(at.open().pending_count().unwrap(), 0);
}

fn a_transaction_that_reads_first_is_not_refused_when_another_connection_writes(at: &dyn At) {
    let mut a = at.open();
    let mut b = at.open();
    let (read, go) = std::sync::mpsc::channel();
    std::thread::scope(|s| {
        let t = s.spawn(move || {
            // The other connection writes while this one's transaction
            // has read but not yet written.
            go.recv().unwrap();
            b.insert_inbound("b@x", "test", b"b", 1, false, 0).unwrap();
        });
        let tx = a.transaction().unwrap();
        let n: i64 = tx
            .query_row("SELECT count(*) FROM inbound", &[], |r| r.get(0))
            .unwrap();
        read.send(()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
        store::insert_inbound(&tx, "a@x", "test", b"a", 1, false, 0).unwrap();
        tx.commit().unwrap();
        assert_eq!(n, 0);
        t.join().unwrap();
    });
    assert_eq!(a.pending_count().unwrap(), 2);
}

fn a_store_newer_than_the_program_is_refused(at: &dyn At) {
    let mut s = at.open();
    let bump = match s.backend() {
        Backend::Sqlite => "PRAGMA user_version = 999",
        Backend::Postgres => "UPDATE schema_version SET version = 999",
    };
    s.conn().execute_batch(bump).unwrap();
    match Store::open(&at.location()) {
        Err(e @ StoreError::TooNew { .. }) => {
            assert!(e.to_string().contains("999"), "{e}");
        }
        Err(e) => panic!("another error: {e:#}"),
        Ok(_) => panic!("a newer store was opened"),
    }
}

fn a_store_opened_again_keeps_everything(at: &dyn At) {
    {
        let mut s = at.open();
        games::create(s.conn(), &game("kept", Some(1)), 1).unwrap();
        s.insert_inbound("a@b", "test", b"x", 1, false, 0).unwrap();
    }
    let mut s = at.open();
    assert!(games::load(s.conn(), "kept").unwrap().is_some());
    assert_eq!(s.pending_count().unwrap(), 1);
    // A read transaction sees one snapshot and writes nothing.
    let tx = s.read_transaction().unwrap();
    assert_eq!(games::list(&tx).unwrap().len(), 1);
    tx.commit().unwrap();
}

fn while_deadline_work_waits_only_mail_without_pictures_is_due(at: &dyn At) {
    let mut s = at.open();
    let tx = s.transaction().unwrap();
    let source = store::add_mail_source(&tx, "phase", b"x", 1).unwrap();
    let later = Later {
        source,
        spec: "png".into(),
    };
    let to = ["p@x.test".to_string()];
    store::queue_outbox_later(&tx, None, "results@x", &to, b"results", &later, 1).unwrap();
    store::queue_outbox(&tx, None, "answer@x", &to, b"answer", 1).unwrap();
    tx.commit().unwrap();
    let ids = |v: Vec<store::OutMail>| v.into_iter().map(|m| m.message_id).collect::<Vec<_>>();
    assert_eq!(
        ids(s.due_outbox_without_pictures(5, 10).unwrap()),
        ["answer@x"]
    );
    assert_eq!(ids(s.due_outbox(5, 10).unwrap()), ["results@x", "answer@x"]);
    assert_eq!(s.pending(10).unwrap().len(), 0);
}

fn the_generation_moves_when_another_connection_commits(at: &dyn At) {
    let mut reader = at.open();
    let mut writer = at.open();
    let before = reader.generation().unwrap();
    writer
        .insert_inbound("g@x", "test", b"x", 1, false, 0)
        .unwrap();
    let after = reader.generation().unwrap();
    assert_ne!(before, after, "a page made before the mail is stale");
}
