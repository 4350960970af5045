//! Checking passwords without giving them away to guessing.
//!
//! - A mail gets at most one password check per seat (a power, or a game's
//!   GM): a second sign-on line for a seat whose password failed is not
//!   checked, and a password that verified is not checked again. Each
//!   check costs an argon2 hash, so a mail also gets at most
//!   [`MAX_CHECKS`] of them.
//! - Failures never lock the seat's player out. A mail counts as the
//!   player's own when both its From and the address its answer goes to
//!   are the seat's registered address (a forger of From alone never sees
//!   the answer): its password is always checked, whatever failed before.
//! - Failures from any other address are counted per source address and
//!   for all other addresses together ([`store::signon::OTHERS`]): from
//!   the [`FREE_FAILURES`]th failure of one address that address is locked
//!   out of the seat, and from the [`FREE_OTHERS`]th of them all together
//!   every address but the player's is, each for a time that doubles with
//!   each further failure, up to [`MAX_LOCK`]; a day without failures
//!   forgets them. While locked, no password from there is checked.
//! - The seat's registered address is told of failures (at most once an
//!   hour), of a lock, and of anything done for the seat from another
//!   address.
//!
//! [`store::signon::OTHERS`]: crate::store::signon::OTHERS
//!
//! Failures are recorded after the mail's commands have run, outside their
//! savepoints, so a refused command cannot undo the count.
//!
//! A password that verified is remembered for its seat, for the life of
//! the process, as a keyed hash ([`Verified`]): BLAKE2b keyed with a random
//! key drawn from the operating system at start, over the game, the seat,
//! the seat's stored argon2 hash and the password. A player's next mail
//! with the same password is then let in without argon2 (about 26 ms each,
//! which capped signed-on mail at some 36 a second). Nothing else changes:
//! the check still counts toward the mail's [`MAX_CHECKS`], a locked seat
//! is still refused before any check, and any other password (a guess)
//! still pays argon2 in full and counts toward the lock. A new password
//! (SET PASSWORD, REPLACE, JOIN) changes the stored hash, so the
//! remembered one no longer matches: the next sign-on pays argon2 again.
//! The key never leaves memory, so the remembered hashes are worthless to
//! anyone who reads the process's memory without it, and useless after a
//! restart.
//!
//! The daemon starts the checks of a batch of mails ahead of their turn
//! ([`warm`]), on a few threads of their own, so argon2 runs beside the
//! processing thread (and never while a mail's transaction holds the
//! store's write lock). That only moves the work: a check made ahead is
//! remembered as above if it verified, and as a failure (for that game,
//! seat, stored hash and password, taken once) if not, so the mail's own
//! check finds its answer instead of hashing again; the lock, the counts
//! and the replies are decided by the mail's own check as before. A seat
//! that is locked is not checked ahead, and a mail gets at most
//! [`MAX_CHECKS`] checks ahead.

use super::sender::Sender;
use super::{TrustError, TrustResult};
use crate::mail::Outgoing;
use crate::map::PowerId;
use crate::store::signon;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

/// Passwords that verified, one per seat, as keyed hashes (see the module
/// documentation).
struct Verified {
    /// Drawn from the operating system at start; never stored.
    key: [u8; 64],
    /// (game in lower case, seat) to the keyed hash of the last password
    /// that verified for it, with the stored hash it verified against.
    seats: Mutex<HashMap<(String, i64), [u8; 64]>>,
    /// Keyed hashes of passwords that a check made ahead found wrong, each
    /// waiting for its mail's own check (taken once; bounded).
    failed: Mutex<HashSet<[u8; 64]>>,
    /// Checks under way ahead of their mail's turn, by keyed hash.
    running: Mutex<HashMap<[u8; 64], Arc<Done>>>,
}

/// Checks made ahead since the process started.
static CHECKED_AHEAD: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many argon2 checks were made ahead of their mail's turn, on the
/// checking threads, since the process started (see [`warm`]).
pub fn checked_ahead() -> u64 {
    CHECKED_AHEAD.load(std::sync::atomic::Ordering::Relaxed)
}

/// At most this many failures found ahead wait for their mail at once.
const MAX_FAILED_AHEAD: usize = 4096;

/// A check made ahead: set when it is over.
#[derive(Default)]
pub(crate) struct Done {
    over: Mutex<bool>,
    cv: Condvar,
}

impl Done {
    fn set(&self) {
        if let Ok(mut o) = self.over.lock() {
            *o = true;
        }
        self.cv.notify_all();
    }

    fn wait(&self) {
        let Ok(mut o) = self.over.lock() else { return };
        while !*o {
            match self.cv.wait(o) {
                Ok(g) => o = g,
                Err(_) => return,
            }
        }
    }
}

/// The checks started for one mail ([`warm`]).
#[derive(Default)]
pub(crate) struct Warming(Vec<Arc<Done>>);

impl Warming {
    /// Wait until every check is over.
    pub(crate) fn wait(self) {
        for d in &self.0 {
            d.wait();
        }
    }

    /// Whether no check was started.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// The threads that check passwords ahead: as many as the machine has
/// cores, at most four (each argon2 check holds 19 MiB while it runs).
/// `None` when no thread could be started: every check is then made by
/// the mail's own processing, as without this.
fn pool() -> Option<&'static std::sync::mpsc::SyncSender<Job>> {
    static POOL: OnceLock<Option<std::sync::mpsc::SyncSender<Job>>> = OnceLock::new();
    POOL.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Job>(256);
        let rx = Arc::new(Mutex::new(rx));
        let n = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        let mut started = 0;
        for i in 0..n {
            let rx = Arc::clone(&rx);
            let spawned = std::thread::Builder::new()
                .name(format!("password-{i}"))
                .spawn(move || {
                    loop {
                        let job = match rx.lock() {
                            Ok(r) => r.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                });
            if spawned.is_ok() {
                started += 1;
            }
        }
        (started > 0).then_some(tx)
    })
    .as_ref()
}

/// Start checking `password` for a seat against its stored `hash` on the
/// checking threads, unless it is already known to be right or a check of
/// it is under way. Returns what to wait for, if anything was started or
/// is running.
fn warm_one(game: &str, seat: i64, hash: &str, password: &str) -> Option<Arc<Done>> {
    let memory = Verified::get()?;
    if memory.knows(game, seat, hash, password) {
        return None;
    }
    let tag = memory.tag(game, seat, hash, password)?;
    let mut running = memory.running.lock().ok()?;
    if let Some(d) = running.get(&tag) {
        return Some(Arc::clone(d));
    }
    let done = Arc::new(Done::default());
    let (game, hash, password) = (game.to_string(), hash.to_string(), password.to_string());
    let d = Arc::clone(&done);
    let job: Job = Box::new(move || {
        CHECKED_AHEAD.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let ok = super::password::verify(&password, &hash);
        if ok {
            memory.remember(&game, seat, &hash, &password);
        } else if let Ok(mut f) = memory.failed.lock() {
            if f.len() >= MAX_FAILED_AHEAD {
                f.clear();
            }
            f.insert(tag);
        }
        if let Ok(mut r) = memory.running.lock() {
            r.remove(&tag);
        }
        d.set();
    });
    // A full queue: the mail's own check will do it.
    pool()?.try_send(job).ok()?;
    running.insert(tag, Arc::clone(&done));
    Some(done)
}

/// Start the checks a mail's sign-on lines will need, ahead of its turn:
/// `seats` lists (game, seat, stored hash, password) as the mail's own
/// checks will see them. At most [`MAX_CHECKS`] are started; locked seats
/// must be left out by the caller.
pub(crate) fn warm(seats: &[(String, Option<PowerId>, String, String)]) -> Warming {
    Warming(
        seats
            .iter()
            .take(MAX_CHECKS)
            .filter_map(|(game, power, hash, password)| {
                warm_one(game, seat_key(*power), hash, password)
            })
            .collect(),
    )
}

/// Where a sign-on comes from: `None` for the seat's player (From and the
/// answer's address both the registered `owner`), else the From address
/// in lower case, under which its failures are counted.
pub(crate) fn source(from: &str, answer: &str, owner: Option<&str>) -> Option<String> {
    match owner {
        Some(o) if o.eq_ignore_ascii_case(from) && o.eq_ignore_ascii_case(answer) => None,
        _ => Some(from.to_lowercase()),
    }
}

/// Why sign-on for a seat from `source` is refused at `now`, if it is: the
/// address's own lock, or the lock of all addresses but the player's.
/// The player's own mail (`source` `None`) is never locked.
fn lock_of(
    c: &crate::store::Conn,
    game: &str,
    seat: i64,
    source: Option<&str>,
    now: i64,
) -> crate::store::Result<Option<(i64, bool)>> {
    let Some(src) = source else {
        return Ok(None);
    };
    let own = signon::get(c, game, seat, src)?.map_or(0, |f| f.locked_until);
    if own > now {
        return Ok(Some((own, true)));
    }
    let others = signon::get(c, game, seat, signon::OTHERS)?.map_or(0, |f| f.locked_until);
    Ok((others > now).then_some((others, false)))
}

/// Whether sign-on for the seat from `source` (see [`source`]) is locked
/// at `now`.
pub(crate) fn locked(
    c: &crate::store::Conn,
    game: &str,
    power: Option<PowerId>,
    source: Option<&str>,
    now: i64,
) -> crate::store::Result<bool> {
    Ok(lock_of(c, game, seat_key(power), source, now)?.is_some())
}

impl Verified {
    /// The process's memory of verified passwords; `None` (every check
    /// pays argon2) if the operating system gave no random key.
    fn get() -> Option<&'static Verified> {
        static V: OnceLock<Option<Verified>> = OnceLock::new();
        V.get_or_init(|| {
            let mut key = [0u8; 64];
            getrandom::fill(&mut key).ok()?;
            Some(Verified {
                key,
                seats: Mutex::new(HashMap::new()),
                failed: Mutex::new(HashSet::new()),
                running: Mutex::new(HashMap::new()),
            })
        })
        .as_ref()
    }

    fn tag(&self, game: &str, seat: i64, hash: &str, password: &str) -> Option<[u8; 64]> {
        use blake2::Blake2bMac512;
        use blake2::digest::{FixedOutput, KeyInit, Update};
        let mut mac = Blake2bMac512::new_from_slice(&self.key).ok()?;
        let game = game.to_ascii_lowercase();
        for part in [
            game.as_bytes(),
            &seat.to_le_bytes()[..],
            hash.as_bytes(),
            password.as_bytes(),
        ] {
            mac.update(&(part.len() as u64).to_le_bytes());
            mac.update(part);
        }
        Some(mac.finalize_fixed().into())
    }

    /// Whether `password` is the one that last verified for the seat
    /// against `hash`.
    fn knows(&self, game: &str, seat: i64, hash: &str, password: &str) -> bool {
        let Some(tag) = self.tag(game, seat, hash, password) else {
            return false;
        };
        let Ok(seats) = self.seats.lock() else {
            return false;
        };
        seats
            .get(&(game.to_ascii_lowercase(), seat))
            .is_some_and(|known| known.iter().zip(&tag).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0)
    }

    /// Remember that `password` verified for the seat against `hash`.
    fn remember(&self, game: &str, seat: i64, hash: &str, password: &str) {
        if let (Some(tag), Ok(mut seats)) =
            (self.tag(game, seat, hash, password), self.seats.lock())
        {
            seats.insert((game.to_ascii_lowercase(), seat), tag);
        }
    }
}

/// Whether `password` matches the seat's stored `hash`: at once if it is
/// the password that last verified for the seat against this hash, else by
/// argon2 (remembered if it verifies).
fn verify(game: &str, seat: i64, hash: &str, password: &str) -> bool {
    let memory = Verified::get();
    if let Some(m) = memory
        && let Some(tag) = m.tag(game, seat, hash, password)
    {
        // A check of this password made ahead, still running: its answer.
        let running = m.running.lock().ok().and_then(|r| r.get(&tag).cloned());
        if let Some(d) = running {
            d.wait();
        }
        if m.knows(game, seat, hash, password) {
            return true;
        }
        if m.failed.lock().is_ok_and(|mut f| f.remove(&tag)) {
            return false;
        }
    }
    let ok = super::password::verify(password, hash);
    if ok && let Some(m) = memory {
        m.remember(game, seat, hash, password);
    }
    ok
}

/// Password checks a mail may cause.
pub(crate) const MAX_CHECKS: usize = 4;
/// Failures from one address before that address is locked out of a seat.
pub(crate) const FREE_FAILURES: i64 = 3;
/// Failures from all addresses but the player's, together, before they
/// all are locked out of the seat.
pub(crate) const FREE_OTHERS: i64 = 6;
/// The first lock, in seconds.
pub(crate) const FIRST_LOCK: i64 = 60;
/// The longest lock, in seconds.
pub(crate) const MAX_LOCK: i64 = 3600;
/// Failures are forgotten after this long without one.
const FORGET: i64 = 86400;
/// The owner is told of failures at most this often (a lock is always told).
const NOTICE_EVERY: i64 = 3600;

/// A seat, as the failure table keys it: a power's index, or -1 for the GM.
fn seat_key(power: Option<PowerId>) -> i64 {
    power.map_or(-1, |p| i64::from(p.0))
}

/// What this mail found for a seat.
#[derive(Debug, Clone)]
enum Found {
    /// The password verified; it is not checked again in this mail.
    Verified {
        password: String,
        /// The seat's registered address at the time.
        owner: Option<String>,
    },
    /// It failed: no more checks for this seat in this mail.
    Failed {
        /// Who to tell, and what to call the seat in the notice.
        owner: Option<String>,
        label: String,
        /// Where it came from ([`source`]; `None`: the player's own mail).
        source: Option<String>,
    },
    /// The seat is locked.
    Locked,
}

/// The checks of one mail.
#[derive(Debug, Default)]
pub(crate) struct Checks {
    found: Vec<(String, i64, Found)>,
    hashed: usize,
    /// What was done for seats signed on from another address:
    /// (game, seat, owner, lines, done by the GM through BECOME).
    acted: Vec<(String, i64, String, Vec<String>, bool)>,
    /// Seats the GM acts for in this mail (njudge's BECOME): (game, seat,
    /// the seat's player's address).
    became: Vec<(String, i64, String)>,
}

impl Checks {
    fn get(&self, game: &str, seat: i64) -> Option<&Found> {
        self.found
            .iter()
            .find(|(g, s, _)| g.eq_ignore_ascii_case(game) && *s == seat)
            .map(|(_, _, f)| f)
    }

    fn set(&mut self, game: &str, seat: i64, f: Found) {
        self.found
            .retain(|(g, s, _)| !(g.eq_ignore_ascii_case(game) && *s == seat));
        self.found.push((game.to_string(), seat, f));
    }

    /// The passwords that verified in this mail (for the rule that no
    /// shown name holds one: `trust::names`).
    pub(crate) fn verified(&self) -> impl Iterator<Item = &str> {
        self.found.iter().filter_map(|(_, _, f)| match f {
            Found::Verified { password, .. } => Some(password.as_str()),
            _ => None,
        })
    }

    /// Note that `line` was done for a seat; kept when the seat was signed
    /// on from an address other than its own.
    pub(crate) fn acted(&mut self, game: &str, power: Option<PowerId>, line: &str) {
        let seat = seat_key(power);
        let by_gm = self
            .became
            .iter()
            .find(|(g, s, _)| g.eq_ignore_ascii_case(game) && *s == seat)
            .map(|(_, _, owner)| owner.clone());
        let (owner, by_gm) = match (by_gm, self.get(game, seat).cloned()) {
            (Some(owner), _) => (owner, true),
            (
                None,
                Some(Found::Verified {
                    owner: Some(owner), ..
                }),
            ) => (owner, false),
            _ => return,
        };
        if let Some(a) = self
            .acted
            .iter_mut()
            .find(|(g, s, _, _, _)| g.eq_ignore_ascii_case(game) && *s == seat)
        {
            if a.3.len() < 20 {
                a.3.push(line.to_string());
            }
            return;
        }
        self.acted
            .push((game.to_string(), seat, owner, vec![line.to_string()], by_gm));
    }

    /// The GM acts for `power` from here on in this mail (njudge's
    /// BECOME): what is done is told to the power's player, `owner`.
    pub(crate) fn became(&mut self, game: &str, power: PowerId, owner: Option<&str>) {
        if let Some(owner) = owner {
            self.became
                .push((game.to_string(), seat_key(Some(power)), owner.to_string()));
        }
    }
}

/// The sign-on failure message: the same whatever was wrong, so that
/// nobody learns which part was.
pub(crate) const FAILED: &str = "sign-on failed: the game, power or password is not right";

/// A seat whose password is checked: its game, power (`None`: the GM),
/// stored hash, registered address, and its name in notices ("England in
/// g1").
#[derive(Debug, Clone, Copy)]
pub(crate) struct SeatLock<'a> {
    /// The game.
    pub game: &'a str,
    /// The power, or `None` for the GM.
    pub power: Option<PowerId>,
    /// The stored argon2 hash, if the seat has a password.
    pub hash: Option<&'a str>,
    /// The seat's registered address.
    pub owner: Option<&'a str>,
    /// The seat's name in notices.
    pub label: &'a str,
}

/// Check `password` for a seat of `game` whose stored hash is `hash` and
/// whose registered address is `owner`. `label` names the seat in notices
/// ("England in g1"). `Ok(())` when it verified; a refusal says why not.
pub(crate) fn check(
    checks: &mut Checks,
    sender: &Sender,
    c: &crate::store::Conn,
    now: i64,
    seat: &SeatLock<'_>,
    password: &str,
) -> TrustResult {
    let SeatLock {
        game,
        power,
        hash,
        owner,
        label,
    } = *seat;
    let seat = seat_key(power);
    match checks.get(game, seat) {
        Some(Found::Verified { password: p, .. }) if p == password => return Ok(()),
        Some(Found::Verified { .. }) | Some(Found::Failed { .. }) => {
            return Err(TrustError::refused(format!(
                "{FAILED} (one password is checked per power and mail)"
            )));
        }
        Some(Found::Locked) => return Err(locked_message()),
        None => {}
    }
    let source = source(&sender.from.email, &sender.answer.email, owner);
    if let Some((until, own)) = lock_of(c, game, seat, source.as_deref(), now)? {
        checks.set(game, seat, Found::Locked);
        let when = crate::time::show(until, "UTC");
        return Err(TrustError::refused(if own {
            format!(
                "sign-on for {label} from {} is locked until {when} after repeated failures \
                 from this address; its player has been told",
                sender.from.email
            )
        } else {
            format!(
                "sign-on for {label} from any address but its player's is locked until {when} \
                 after repeated failures; its player has been told, and can still sign on \
                 from the registered address"
            )
        }));
    }
    if checks.hashed >= MAX_CHECKS {
        return Err(TrustError::refused(format!(
            "{FAILED} (the judge checks at most {MAX_CHECKS} passwords a mail)"
        )));
    }
    checks.hashed += 1;
    let ok = hash.is_some_and(|h| verify(game, seat, h, password));
    if ok {
        checks.set(
            game,
            seat,
            Found::Verified {
                password: password.to_string(),
                owner: owner
                    .filter(|o| !o.eq_ignore_ascii_case(&sender.from.email))
                    .map(str::to_string),
            },
        );
        // A right password forgets the failures of where it came from;
        // the player's own also those of everybody else, which only ever
        // held others back.
        match &source {
            Some(src) => signon::clear(c, game, seat, src)?,
            None => {
                signon::clear(c, game, seat, signon::OTHERS)?;
                signon::clear(c, game, seat, signon::PLAYER)?;
            }
        }
        return Ok(());
    }
    checks.set(
        game,
        seat,
        Found::Failed {
            owner: owner.map(str::to_string),
            label: label.to_string(),
            source,
        },
    );
    Err(TrustError::refused(FAILED))
}

fn locked_message() -> TrustError {
    TrustError::refused("sign-on for that power is locked after repeated failures")
}

/// The lock that follows failure number `n` when `free` failures are
/// allowed, in seconds (0: none).
pub(crate) fn lock_after(n: i64, free: i64) -> i64 {
    if n < free {
        return 0;
    }
    let doublings = (n - free).min(20) as u32;
    (FIRST_LOCK << doublings).min(MAX_LOCK)
}

/// Count one more failure of `seat` from `source` at `now`, `free`
/// allowed before a lock: the count (after `FORGET` without one, anew)
/// and the lock's end (0: none).
fn count_failure(
    c: &crate::store::Conn,
    game: &str,
    seat: i64,
    source: &str,
    free: i64,
    now: i64,
) -> crate::store::Result<(i64, i64)> {
    let (n, notified) = match signon::get(c, game, seat, source)? {
        Some(r) if now - r.last_at < FORGET => (r.failures + 1, r.notified_at),
        Some(r) => (1, r.notified_at),
        None => (1, 0),
    };
    let lock = lock_after(n, free);
    let until = if lock > 0 { now + lock } else { 0 };
    signon::set(
        c,
        game,
        seat,
        source,
        signon::Failures {
            failures: n,
            locked_until: until,
            last_at: now,
            notified_at: notified,
        },
    )?;
    Ok((n, until))
}

/// After the mail: count its failed sign-ons (one per seat) and tell the
/// seats' players of failures, locks, and of what was done for them from
/// other addresses.
pub(crate) fn tell_owners(
    checks: &mut Checks,
    sender: &Sender,
    c: &crate::store::Conn,
    now: i64,
) -> TrustResult<Vec<Outgoing>> {
    let mut out = Vec::new();
    let found = std::mem::take(&mut checks.found);
    for (game, seat, f) in &found {
        let Found::Failed {
            owner,
            label,
            source,
        } = f
        else {
            continue;
        };
        // The player's own failures are counted (for the notice) but
        // lock nothing; anyone else's count for that address and for
        // every address but the player's.
        let (n, own, all) = match source {
            None => {
                let (n, _) = count_failure(c, game, *seat, signon::PLAYER, i64::MAX, now)?;
                (n, 0, 0)
            }
            Some(src) => {
                let (n, own) = count_failure(c, game, *seat, src, FREE_FAILURES, now)?;
                let (_, all) = count_failure(c, game, *seat, signon::OTHERS, FREE_OTHERS, now)?;
                (n, own, all)
            }
        };
        let until = own.max(all);
        let notified = signon::notified_at(c, game, *seat)?;
        let tell = owner.is_some() && (until > 0 || now - notified >= NOTICE_EVERY);
        let Some(owner) = owner.as_ref().filter(|_| tell) else {
            continue;
        };
        let key = source.as_deref().unwrap_or(signon::PLAYER);
        if let Some(mut r) = signon::get(c, game, *seat, key)? {
            r.notified_at = now;
            signon::set(c, game, *seat, key, r)?;
        }
        let mut body = format!(
            "A mail from {} tried to sign on as {label} with a wrong password \
             ({} in a row from that address).",
            sender.from.email,
            crate::report::plural(n, "failure", None)
        );
        if until > 0 {
            body.push_str(&format!(
                " Sign-on for {label} from {} is locked until {} (UTC); each further \
                 failure doubles the wait, up to an hour. Mail from your registered \
                 address, answered there, is never locked out.",
                if all >= own {
                    "any address but yours"
                } else {
                    "that address"
                },
                crate::time::show(until, "UTC")
            ));
        }
        body.push_str(
            " If it was not you, someone may be guessing your password: choose a \
             long one with SET PASSWORD, and tell your GM.",
        );
        out.extend(crate::mail::to_each(
            &[owner.as_str()],
            format!("{label}: failed sign-on"),
            crate::report::wrap(&body, 72, ""),
        ));
    }
    for (game, seat, owner, lines, by_gm) in std::mem::take(&mut checks.acted) {
        if by_gm {
            let mut body = crate::report::wrap(
                &format!("The GM of {game} acted for your power (njudge's BECOME) and did this:"),
                72,
                "",
            );
            for l in &lines {
                body.push_str(&format!("  > {l}\n"));
            }
            body.push_str(
                "\nOrders given so are the orders you hold now; the judge's reply to \
                 your next mail lists them.\n",
            );
            out.extend(crate::mail::to_each(
                &[owner.as_str()],
                format!("{game}: the GM acted for your power"),
                body,
            ));
            continue;
        }
        let who = if seat < 0 {
            format!("the GM of {game}")
        } else {
            format!("your power in {game}")
        };
        let mut body = crate::report::wrap(
            &format!(
                "A mail from {}, not your registered address, signed on as {who} and did this:",
                sender.from.email
            ),
            72,
            "",
        );
        for l in &lines {
            body.push_str(&format!("  > {l}\n"));
        }
        body.push_str(
            "\nIf that was not you, your password is known to someone else: \
             change it with SET PASSWORD and tell your GM.\n",
        );
        out.extend(crate::mail::to_each(
            &[owner.as_str()],
            format!("{game}: orders or commands from another address"),
            body,
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_doubles_up_to_an_hour() {
        let f = FREE_FAILURES;
        assert_eq!(lock_after(1, f), 0);
        assert_eq!(lock_after(2, f), 0);
        assert_eq!(lock_after(3, f), 60);
        assert_eq!(lock_after(4, f), 120);
        assert_eq!(lock_after(8, f), 1920);
        assert_eq!(lock_after(9, f), 3600);
        assert_eq!(lock_after(1000, f), 3600);
        assert_eq!(lock_after(5, FREE_OTHERS), 0);
        assert_eq!(lock_after(6, FREE_OTHERS), 60);
        assert_eq!(lock_after(1000, i64::MAX), 0, "the player's own never lock");
    }

    #[test]
    fn only_the_players_own_mail_is_the_player() {
        let o = Some("Ann@Example.test");
        assert_eq!(source("ann@example.test", "ANN@example.test", o), None);
        assert_eq!(
            source("ann@example.test", "eve@example.test", o).as_deref(),
            Some("ann@example.test"),
            "a forged From with another Reply-To is not the player"
        );
        assert_eq!(
            source("Eve@example.test", "eve@example.test", o).as_deref(),
            Some("eve@example.test")
        );
        assert!(source("a@x", "a@x", None).is_some());
    }
}
