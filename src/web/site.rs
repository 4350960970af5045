//! What the pages show, read from the store: the list of games, a game, a
//! past phase, a feed. Everything here is what an observer may see and
//! nothing more: the current map and every past map are drawn for
//! [`Viewer::Public`] with the units hidden from observers left out (so
//! even the legend's unit counts do not tell of them), a past phase's
//! results are the text mailed to observers (kept in the history), press is
//! only what was sent to everybody (grey press without its sender), and
//! players are shown by their display names. The view records below are
//! built field by field from the store's rows, so an address, a password
//! hash or a stored order never reaches a template.
//!
//! Pages are made on blocking threads (the store, drawing) and kept until
//! the store changes: [`crate::store::Store::generation`] on a connection
//! of the site's own (SQLite's `data_version`, PostgreSQL's log position)
//! says whether any other connection (the judge, `zinejudge deliver`) has
//! committed since.

use super::pages::Pages;
use crate::game::Position;
use crate::game::step::{PhaseOrders, play};
use crate::map::Unit;
use crate::orders::parse::OrderParser;
use crate::orders::{Place, format_unit};
use crate::report::PhaseReport;
use crate::report::picture::Picture;
use crate::report::picture::geometry::Geometry;
use crate::rules::view::{VariantRules, View};
use crate::store::games::{self, GameRow};
use crate::store::pages as rows;
use crate::store::{Store, StoreError};
use crate::variant::features::Viewer;
use crate::variant::{PhaseKind, Variant};
use serde::Serialize;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};

/// Games on one page of the list.
pub(crate) const GAMES_PER_PAGE: usize = 100;
/// Broadcasts on a game's page (the latest) and on each page of its press
/// (`/games/G/press?page=N`).
pub const PRESS_PER_PAGE: usize = 20;
/// Characters of a broadcast shown where many are (a game's page, its
/// press pages, its feed); a longer one is cut there, with a link to its
/// own page. A hundred broadcasts of 900 KB made a game's page of 111 MB.
pub const PRESS_CUT: usize = 2_000;
/// Characters of a broadcast shown on its own page
/// (`/games/G/press/ID`): more than the judge takes by mail in one
/// broadcast, so the whole of it, but a bound all the same on what one
/// request costs, whatever a store holds (a broadcast kept before the
/// judge limited press is cut here).
pub const PRESS_WHOLE: usize = 100_000;
/// Played phases linked from a game's page (the latest) and on each page
/// of its phases (`/games/G/phases?page=N`).
pub const PHASES_PER_PAGE: usize = 100;
/// Entries in a feed: the latest results and press.
pub const FEED_ENTRIES: usize = 50;
/// Bytes the entries' texts may take in a feed, as written
/// ([`super::feed::written_size`]); past this the older entries are left
/// out (the newest is always in). Texts of markup characters take up to
/// ten bytes a character once escaped twice (as HTML, then as XML), so
/// that 50 cut entries could otherwise pass 1 MB.
pub const FEED_TEXT_BYTES: usize = 768 * 1024;
/// Characters of a phase's results in a feed entry: more than the results
/// of any shipped variant, cut with a link to the phase's page beyond.
pub(crate) const REPORT_CUT: usize = 16_000;
/// Store connections kept open for pages.
const POOL: usize = 8;
/// Bytes of (compressed) pages kept; past this the oldest go.
const CACHE_BYTES: usize = 64 * 1024 * 1024;
/// Games' lines of the list kept; past this they are made again.
const SUMMARIES: usize = 100_000;

/// Why a page could not be made (a fault of the judge's data or of the
/// machine, never of the reader: unknown games are not errors).
#[derive(Debug, thiserror::Error)]
pub(crate) enum WebError {
    /// The store refused.
    #[error("cannot read the store")]
    Store(#[from] StoreError),
    /// A game's variant does not load.
    #[error("game {game}: the variant {variant} cannot be loaded")]
    Variant {
        /// The game.
        game: String,
        /// Its variant's name.
        variant: String,
    },
    /// A stored position does not read.
    #[error("game {game}: a stored position cannot be read")]
    Position {
        /// The game.
        game: String,
        /// What is wrong with it.
        #[source]
        source: crate::variant::LoadError,
    },
    /// A page template failed.
    #[error("cannot lay out the page")]
    Template(#[from] minijinja::Error),
    /// The feed could not be written.
    #[error("cannot write the feed")]
    Feed(#[from] atom_syndication::Error),
}

/// Result alias.
pub(crate) type Result<T> = std::result::Result<T, WebError>;

/// A page made: its status, type and bytes.
#[derive(Debug, Clone)]
pub(crate) struct Made {
    /// 200 or 404.
    pub found: bool,
    /// The Content-Type.
    pub content_type: &'static str,
    /// The body.
    pub body: axum::body::Bytes,
    /// The body is gzip-compressed.
    pub gzip: bool,
    /// When the page stops being true although the store has not changed
    /// (Unix seconds): the end of the first absence it shows. The cache
    /// keeps a page until the store changes, and an absence ends by the
    /// clock alone, so without this the game page showed a player away
    /// after they were back.
    pub stale_at: Option<i64>,
}

impl Made {
    fn html(body: String) -> Made {
        Made {
            found: true,
            content_type: "text/html; charset=utf-8",
            body: body.into(),
            gzip: false,
            stale_at: None,
        }
    }

    /// The body compressed (pages are mostly the map's SVG, which gzip
    /// shrinks to about a third: less to keep, and less to send to a phone).
    /// At the fast level: a page is made while its first reader waits,
    /// after every change to the store, and the default level takes
    /// longer for a body only a little smaller.
    fn compressed(self) -> Made {
        use std::io::Write;
        if self.gzip || self.body.len() < 1024 {
            return self;
        }
        let mut z = flate2::write::GzEncoder::new(
            Vec::with_capacity(self.body.len() / 6),
            flate2::Compression::fast(),
        );
        match z.write_all(&self.body).and_then(|_| z.finish()) {
            Ok(bytes) => Made {
                body: bytes.into(),
                gzip: true,
                ..self
            },
            Err(_) => self,
        }
    }

    /// The body as it was made (undoing the compression, for a client
    /// that does not take gzip).
    pub(crate) fn plain(&self) -> axum::body::Bytes {
        use std::io::Read;
        if !self.gzip {
            return self.body.clone();
        }
        let mut out = Vec::with_capacity(self.body.len() * 8);
        match flate2::read::GzDecoder::new(&self.body[..]).read_to_end(&mut out) {
            Ok(_) => out.into(),
            Err(_) => axum::body::Bytes::new(),
        }
    }
}

/// What a reader asked for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Want {
    /// The list of games, a page of it (from 1).
    List(usize),
    /// A game's page; the reader's time zone, if given and known.
    Game(String, Option<String>),
    /// A past phase (`S1901M`).
    Phase(String, String),
    /// A game's Atom feed.
    Feed(String),
    /// The current map alone.
    Map(String),
    /// A page of a game's press (from 1), newest first.
    Press(String, usize),
    /// One broadcast of a game, whole.
    OnePress(String, i64),
    /// A page of a game's played phases (from 1), newest first.
    Phases(String, usize),
}

/// The site: the store, the variants and map layouts, the templates and
/// the pages made.
pub(crate) struct Site {
    store: crate::store::Location,
    pool: Mutex<Vec<Store>>,
    stamp: Mutex<Option<Store>>,
    variants: Mutex<HashMap<String, Arc<Variant>>>,
    layouts: Mutex<HashMap<String, Arc<Geometry>>>,
    summaries: Mutex<HashMap<String, (u64, Arc<GameLine>)>>,
    cache: Mutex<Cache>,
    caching: bool,
    pages: Pages,
    judge: String,
    base_url: Option<String>,
    prefix: String,
}

#[derive(Default)]
struct Cache {
    generation: Option<i64>,
    made: HashMap<Want, Made>,
    /// Keys, oldest first.
    order: std::collections::VecDeque<Want>,
    bytes: usize,
}

impl Cache {
    fn clear(&mut self) {
        self.made.clear();
        self.order.clear();
        self.bytes = 0;
    }

    fn remove(&mut self, want: &Want) {
        if let Some(old) = self.made.remove(want) {
            self.bytes -= old.body.len();
            self.order.retain(|w| w != want);
        }
    }

    fn insert(&mut self, want: Want, made: Made) {
        let size = made.body.len();
        if size > CACHE_BYTES / 4 || self.made.contains_key(&want) {
            return;
        }
        while self.bytes + size > CACHE_BYTES {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(m) = self.made.remove(&old) {
                self.bytes -= m.body.len();
            }
        }
        self.bytes += size;
        self.order.push_back(want.clone());
        self.made.insert(want, made);
    }
}

impl Drop for Site {
    /// The store connections go off the async threads: the site is
    /// dropped where the server's task ends, on an async thread, and a
    /// PostgreSQL connection's drop blocks on a runtime of its own, which
    /// panics there (inside a destructor: the process aborted at every
    /// reload and stop of a judge on PostgreSQL).
    fn drop(&mut self) {
        use tokio::runtime::{Handle, RuntimeFlavor};
        let mut stores: Vec<Store> = std::mem::take(&mut *lock(&self.pool));
        stores.extend(lock(&self.stamp).take());
        if stores.is_empty() {
            return;
        }
        match Handle::try_current().map(|h| h.runtime_flavor()) {
            Err(_) => drop(stores),
            Ok(RuntimeFlavor::MultiThread) => tokio::task::block_in_place(|| drop(stores)),
            Ok(_) => {
                // A thread of their own; should none be had, the
                // connections are left open rather than the process
                // aborted.
                let stores = std::mem::ManuallyDrop::new(stores);
                let _ = std::thread::Builder::new()
                    .name("zj-web-close".into())
                    .spawn(move || drop(std::mem::ManuallyDrop::into_inner(stores)));
            }
        }
    }
}

/// A lock that a panic elsewhere did not poison for good: every value
/// behind these locks is a cache or a pool, whole after any panic.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Site {
    /// A site over the store at `store`. `base_url` (ending in `/`) makes
    /// the feeds' links absolute, and its path is where the pages link to
    /// each other (for a reverse proxy serving them under a prefix).
    /// `caching` keeps pages made until the store changes.
    pub(crate) fn new(
        store: impl Into<crate::store::Location>,
        judge: &str,
        base_url: Option<String>,
        caching: bool,
    ) -> Site {
        let prefix = base_url
            .as_deref()
            .and_then(|b| b.split_once("://"))
            .and_then(|(_, rest)| rest.find('/').map(|i| rest[i..].to_string()))
            .filter(|p| p.ends_with('/'))
            .unwrap_or_else(|| "/".to_string());
        Site {
            store: store.into(),
            pool: Mutex::new(Vec::new()),
            stamp: Mutex::new(None),
            variants: Mutex::new(HashMap::new()),
            layouts: Mutex::new(HashMap::new()),
            summaries: Mutex::new(HashMap::new()),
            cache: Mutex::new(Cache::default()),
            caching,
            pages: Pages::new(),
            judge: judge.to_string(),
            base_url,
            prefix,
        }
    }

    /// The page for `want`, from the cache when the store has not changed
    /// since it was made. Blocks (SQLite, drawing): call it off the async
    /// threads.
    pub(crate) fn get(&self, want: &Want) -> Result<Made> {
        let generation = if self.caching {
            let g = self.generation()?;
            let mut c = lock(&self.cache);
            if c.generation != Some(g) {
                c.generation = Some(g);
                c.clear();
            }
            if let Some(m) = c.made.get(want) {
                if m.stale_at.is_none_or(|t| unix_now() < t) {
                    return Ok(m.clone());
                }
                // Made again below; the new page replaces it.
                c.remove(want);
            }
            Some(g)
        } else {
            None
        };
        let made = self.make(want)?.compressed();
        if let Some(g) = generation
            && made.found
        {
            let mut c = lock(&self.cache);
            if c.generation == Some(g) {
                c.insert(want.clone(), made.clone());
            }
        }
        Ok(made)
    }

    /// The page not found, laid out.
    pub(crate) fn not_found(&self, what: &str) -> Result<Made> {
        let body = self.pages.render(
            "not_found.html",
            minijinja::context! { judge => &self.judge, prefix => &self.prefix, what => what },
        )?;
        Ok(Made {
            found: false,
            ..Made::html(body)
        })
    }

    /// The page for a fault, laid out (nothing of the fault is shown).
    pub(crate) fn fault(&self) -> String {
        self.pages
            .render(
                "error.html",
                minijinja::context! { judge => &self.judge, prefix => &self.prefix },
            )
            .unwrap_or_else(|_| "The judge could not show this page.".to_string())
    }

    /// SQLite's count of commits by other connections, read on a
    /// connection kept for it: a page made at one count is good while the
    /// count stays.
    fn generation(&self) -> Result<i64> {
        let mut s = lock(&self.stamp);
        if s.is_none() {
            *s = Some(Store::open(&self.store)?);
        }
        let Some(store) = s.as_mut() else {
            unreachable!("opened above")
        };
        Ok(store.generation()?)
    }

    /// Run `f` in a read transaction (one snapshot for the whole page) on a
    /// pooled connection.
    fn read<T>(&self, f: impl FnOnce(&crate::store::Tx<'_>) -> Result<T>) -> Result<T> {
        let taken = lock(&self.pool).pop();
        let mut store = match taken {
            Some(s) => s,
            None => Store::open(&self.store)?,
        };
        let out = {
            let tx = store.read_transaction()?;
            f(&tx)
        };
        let mut pool = lock(&self.pool);
        if pool.len() < POOL {
            pool.push(store);
        }
        out
    }

    fn make(&self, want: &Want) -> Result<Made> {
        let made = match want {
            Want::List(page) => self.list(*page)?,
            Want::Game(name, tz) => self.game(name, tz.as_deref())?,
            Want::Phase(name, phase) => self.phase(name, phase)?,
            Want::Feed(name) => self.feed(name)?,
            Want::Map(name) => self.map(name)?,
            Want::Press(name, page) => self.press(name, PressShown::Page(*page))?,
            Want::OnePress(name, id) => self.press(name, PressShown::One(*id))?,
            Want::Phases(name, page) => self.phases(name, *page)?,
        };
        match made {
            Some(m) => Ok(m),
            None => self.not_found(match want {
                Want::Phase(..) => "phase",
                Want::OnePress(..) => "message",
                Want::List(_) | Want::Press(..) | Want::Phases(..) => "page",
                _ => "game",
            }),
        }
    }

    /// Play `v` besides the shipped variants (a file of `[variants] dir`).
    pub(crate) fn add_variant(&self, v: Arc<Variant>) {
        lock(&self.variants).insert(v.name.to_ascii_lowercase(), v);
    }

    /// A variant by name, loaded once.
    fn variant(&self, g: &GameRow) -> Result<Arc<Variant>> {
        let key = g.variant.to_ascii_lowercase();
        if let Some(v) = lock(&self.variants).get(&key) {
            return Ok(Arc::clone(v));
        }
        // A copy a game keeps (`hundred#<fingerprint>`: its file in the
        // folder changed since; see `commands::variants_kept`), read from
        // the store once.
        if let Some((_, fp)) = key.split_once('#') {
            let copy = self.read(|tx| Ok(crate::store::kept::copy(tx, fp)?))?;
            if let Some(v) = copy.and_then(|(_, text)| Variant::from_toml(&text).ok()) {
                let v = Arc::new(v);
                lock(&self.variants).insert(key, Arc::clone(&v));
                return Ok(v);
            }
        }
        match crate::variant::builtin(&key) {
            Some(Ok(v)) => {
                let v = Arc::new(v);
                lock(&self.variants).insert(key, Arc::clone(&v));
                Ok(v)
            }
            _ => Err(WebError::Variant {
                game: g.name.clone(),
                variant: g.variant.clone(),
            }),
        }
    }

    /// The picture of `v`'s map, laid out once per variant.
    fn picture<'v>(&self, v: &'v Variant) -> Picture<'v> {
        let key = v.key();
        let cached = lock(&self.layouts).get(&key).cloned();
        let layout = match cached {
            Some(l) => l,
            None => {
                let l = Arc::new(Picture::layout(v));
                lock(&self.layouts).insert(key, Arc::clone(&l));
                l
            }
        };
        Picture::with_geometry(v, layout)
    }

    fn href(&self, game: &str) -> String {
        format!("{}games/{}", self.prefix, path_part(game))
    }

    /// Where a link in a feed goes: absolute under the base URL, else from
    /// the site's root.
    fn absolute(&self, path: &str) -> String {
        match &self.base_url {
            Some(b) => format!("{b}{}", path.trim_start_matches(&self.prefix[..])),
            None => path.to_string(),
        }
    }

    /// The played phases of `g` observers may not know of (a retreat of
    /// hidden units only, 1066 rule 5: no page, no link, no feed entry
    /// tells of it), by their place in the history. Asked only where the
    /// variant hides anything, and of its phases, only the positions of
    /// those that could be hidden are read ([`View::may_miss_phase`]).
    fn unseen_phases(&self, v: &Variant, g: &GameRow) -> Result<Vec<i64>> {
        if !v.hides_anything() {
            return Ok(Vec::new());
        }
        self.read(|tx| {
            let mut out = Vec::new();
            for l in rows::phase_lines(tx, &g.name, 0, usize::MAX)? {
                let Ok(phase) = v.calendar.parse(&l.phase) else {
                    continue;
                };
                if !View::new(v, phase, Viewer::Public).may_miss_phase() {
                    continue;
                }
                if let Some(row) = rows::phase_entry(tx, &g.name, &l.phase)?
                    && let Ok(pos) = Position::from_toml(v, &row.position)
                    && !View::of(v, &pos, Viewer::Public).sees_phase(&pos)
                {
                    out.push(l.seq);
                }
            }
            Ok(out)
        })
    }

    /// The played phases of `g` observers know of, newest first: `skip`
    /// passed over, at most `take`; and how many there are.
    fn known_phases(
        &self,
        v: &Variant,
        g: &GameRow,
        skip: usize,
        take: usize,
    ) -> Result<(Vec<rows::PhaseLine>, usize)> {
        let unseen = self.unseen_phases(v, g)?;
        self.read(|tx| {
            let total = rows::phase_count(tx, &g.name)?.saturating_sub(unseen.len());
            if unseen.is_empty() {
                return Ok((rows::phase_lines(tx, &g.name, skip, take)?, total));
            }
            let reach = skip.saturating_add(take).saturating_add(unseen.len());
            let lines = rows::phase_lines(tx, &g.name, 0, reach)?
                .into_iter()
                .filter(|l| !unseen.contains(&l.seq))
                .skip(skip)
                .take(take)
                .collect();
            Ok((lines, total))
        })
    }

    /// A game's line in the list, kept while its row is unchanged.
    fn summary(&self, g: &GameRow) -> Result<Arc<GameLine>> {
        let mut h = std::hash::DefaultHasher::new();
        (
            &g.variant,
            &g.position,
            g.status.as_str(),
            g.deadline,
            &g.settings.timezone,
            &g.result,
        )
            .hash(&mut h);
        let key = h.finish();
        if let Some((k, line)) = lock(&self.summaries).get(&g.name)
            && *k == key
        {
            return Ok(Arc::clone(line));
        }
        let v = self.variant(g)?;
        // Listed with no centre only for units an observer sees.
        let whole = position(&v, g, &g.position)?;
        let pos = public(&v, &whole);
        let counts = pos.centre_counts(&v.map);
        let powers = v
            .map
            .power_ids()
            .filter(|p| counts[p.index()] > 0 || pos.units.iter().any(|u| u.power == *p))
            .map(|p| PowerCount {
                name: v.map.power(p).name.clone(),
                centres: counts[p.index()],
            })
            .collect();
        let line = Arc::new(GameLine {
            name: g.name.clone(),
            href: self.href(&g.name),
            variant: v.title.clone(),
            phase: v.calendar.label(phase_told(&v, &whole)),
            deadline: shown_deadline(g),
            status: status_word(g),
            result: g.result.clone(),
            powers,
        });
        let mut s = lock(&self.summaries);
        if s.len() >= SUMMARIES {
            s.clear();
        }
        s.insert(g.name.clone(), (key, Arc::clone(&line)));
        Ok(line)
    }

    fn list(&self, page: usize) -> Result<Option<Made>> {
        let rows = self.read(|tx| Ok(games::list(tx)?))?;
        let total = rows.len();
        let pages = total.div_ceil(GAMES_PER_PAGE).max(1);
        if page == 0 || page > pages {
            return Ok(None);
        }
        let mut lines = Vec::new();
        for g in rows
            .iter()
            .skip((page - 1) * GAMES_PER_PAGE)
            .take(GAMES_PER_PAGE)
        {
            match self.summary(g) {
                Ok(l) => lines.push(l),
                // One broken game does not take the list down.
                Err(e) => {
                    tracing::warn!(game = %g.name, error = %format!("{:#}", anyhow::Error::from(e)), "cannot list a game");
                }
            }
        }
        let link = |p: usize| {
            if p == 1 {
                self.prefix.clone()
            } else {
                format!("{}?page={p}", self.prefix)
            }
        };
        let body = self.pages.render(
            "games.html",
            minijinja::context! {
                judge => &self.judge,
                prefix => &self.prefix,
                games => minijinja::value::Serde(lines.iter().map(|l| l.as_ref()).collect::<Vec<_>>()),
                total => total,
                page => page,
                pages => pages,
                previous => (page > 1).then(|| link(page - 1)),
                next => (page < pages).then(|| link(page + 1)),
            },
        )?;
        Ok(Some(Made::html(body)))
    }

    fn game(&self, name: &str, tz: Option<&str>) -> Result<Option<Made>> {
        let Some((g, seats, (press, press_total), away)) = self.read(|tx| {
            let Some(g) = games::load(tx, name)? else {
                return Ok(None);
            };
            let seats = games::seats(tx, &g.name)?;
            let press = (
                rows::press_page(tx, &g.name, 0, PRESS_PER_PAGE, PRESS_CUT)?,
                rows::press_count(tx, &g.name)?,
            );
            let away = crate::store::roster::absences(tx, &g.name, unix_now())?;
            Ok(Some((g, seats, press, away)))
        })?
        else {
            return Ok(None);
        };
        let v = self.variant(&g)?;
        let (phase_lines, phase_total) = self.known_phases(&v, &g, 0, PHASES_PER_PAGE)?;
        let pos = position(&v, &g, &g.position)?;
        let seen = public(&v, &pos);
        let told = v.calendar.label(phase_told(&v, &pos));
        let title = format!("{}: {told}", g.name);
        // The picture filters by its reader itself: given the whole
        // position, its legend counts the units whose place is hidden.
        let map = self
            .picture(&v)
            .board_svg(&pos, &pos.dislodged, &title, Viewer::Public);
        let map_ = &v.map;
        let counts = seen.centre_counts(map_);
        let player = |p: crate::map::PowerId| seats.iter().find(|s| s.power == p.0);
        let chart: Vec<ChartRow> = map_
            .power_ids()
            .filter(|p| counts[p.index()] > 0 || seen.units.iter().any(|u| u.power == *p))
            .map(|p| {
                let mut centres: Vec<String> = seen
                    .owners
                    .iter()
                    .enumerate()
                    .filter(|(i, o)| **o == Some(p) && map_.provinces()[*i].supply_centre)
                    .map(|(i, _)| map_.provinces()[i].abbr.clone())
                    .collect();
                centres.sort_by_key(|c| c.to_lowercase());
                ChartRow {
                    power: map_.power(p).name.clone(),
                    colour: crate::report::picture::colour(p),
                    centres: counts[p.index()],
                    centre_list: centres,
                    units: seen
                        .units
                        .iter()
                        .filter(|u| u.power == p)
                        .map(|u| unit_text(&v, u))
                        .collect(),
                }
            })
            .collect();
        let mut unowned: Vec<String> = seen
            .owners
            .iter()
            .enumerate()
            .filter(|(i, o)| o.is_none() && map_.provinces()[*i].supply_centre)
            .map(|(i, _)| map_.provinces()[i].abbr.clone())
            .collect();
        unowned.sort_by_key(|c| c.to_lowercase());
        let roster: Vec<RosterRow> = map_
            .power_ids()
            .map(|p| {
                let seat = player(p);
                let status = seat.map_or(crate::game::record::SeatStatus::Open, |s| s.status);
                use crate::game::record::SeatStatus as S;
                RosterRow {
                    power: map_.power(p).name.clone(),
                    colour: crate::report::picture::colour(p),
                    player: match status {
                        // Shown cleaned of what a reader cannot see, whatever
                        // an older judge kept.
                        S::Playing | S::Eliminated | S::Disorder => seat
                            .and_then(|s| s.name.as_deref())
                            .map(crate::trust::names::clean)
                            .filter(|n| !n.is_empty()),
                        _ => None,
                    },
                    away: away
                        .iter()
                        .filter(|a| a.power == p.0)
                        .map(|a| {
                            format!(
                                "{} to {}",
                                crate::time::show(a.from_at, &g.settings.timezone),
                                crate::time::show(a.to_at, &g.settings.timezone)
                            )
                        })
                        .collect(),
                    status: match status {
                        S::Playing => "playing",
                        S::Open => "open",
                        S::Abandoned => "abandoned: a replacement is wanted",
                        S::Eliminated => "eliminated",
                        S::NotInGame => "not in this game",
                        S::Disorder => "in civil disorder",
                        S::Dummy => "a dummy power: nobody plays it",
                    },
                }
            })
            .collect();
        let href = self.href(&g.name);
        let phases: Vec<PhaseLink> = phase_lines
            .iter()
            .map(|l| phase_link(&v, &href, l))
            .collect();
        let deadline = match (g.status, g.deadline) {
            (crate::game::record::Status::Active, Some(t)) => {
                Some(Deadline::new(t, &g.settings.timezone, tz))
            }
            _ => None,
        };
        let body = self.pages.render(
            "game.html",
            minijinja::context! {
                judge => &self.judge,
                prefix => &self.prefix,
                name => &g.name,
                href => &href,
                feed => format!("{href}/feed.atom"),
                variant => &v.title,
                status => status_word(&g),
                result => &g.result,
                phase => &told,
                deadline => minijinja::value::Serde(&deadline),
                tz_asked => tz,
                map => minijinja::Value::from_safe_string(map),
                chart => minijinja::value::Serde(&chart),
                unowned => unowned,
                roster => minijinja::value::Serde(&roster),
                phases => minijinja::value::Serde(&phases),
                phase_total => phase_total,
                all_phases => (phase_total > phases.len()).then(|| format!("{href}/phases?page=2")),
                press => minijinja::value::Serde(press.iter().map(|p| PressView::new(p, &href, &g.settings.timezone)).collect::<Vec<_>>()),
                press_total => press_total,
                one => false,
                older_press => (press_total > press.len()).then(|| format!("{href}/press?page=2")),
                press_rule => match g.settings.press {
                    crate::game::record::Press::None => "none",
                    crate::game::record::Press::White => "white",
                    crate::game::record::Press::Grey => "grey",
                },
            },
        )?;
        Ok(Some(Made {
            stale_at: away.iter().map(|a| a.to_at).min(),
            ..Made::html(body)
        }))
    }

    fn phase(&self, name: &str, phase: &str) -> Result<Option<Made>> {
        // The phase, where it led, and its neighbours: read alone, so that
        // a long game's page costs what one phase does.
        let Some((g, row, after_text, (previous, next))) = self.read(|tx| {
            let Some(g) = games::load(tx, name)? else {
                return Ok(None);
            };
            let Some(row) = rows::phase_entry(tx, &g.name, phase)? else {
                return Ok(None);
            };
            let after = rows::position_after(tx, &g.name, row.seq)?;
            let around = rows::phase_neighbours(tx, &g.name, row.seq)?;
            Ok(Some((g, row, after, around)))
        })?
        else {
            return Ok(None);
        };
        let v = self.variant(&g)?;
        // A phase observers may not know of has no page, and its
        // neighbours link past it.
        let unseen = self.unseen_phases(&v, &g)?;
        if unseen.contains(&row.seq) {
            return Ok(None);
        }
        let (previous, next) = if unseen.is_empty() {
            (previous, next)
        } else {
            let known = self.read(|tx| Ok(rows::phase_lines(tx, &g.name, 0, usize::MAX)?))?;
            let known = known.into_iter().filter(|l| !unseen.contains(&l.seq));
            let (newer, older): (Vec<_>, Vec<_>) = known.partition(|l| l.seq > row.seq);
            (
                older.into_iter().find(|l| l.seq < row.seq),
                newer.into_iter().last(),
            )
        };
        let before = position(&v, &g, &row.position)?;
        // The position the phase led to: where the next entry starts, or
        // the game's current one.
        let after = position(&v, &g, after_text.as_deref().unwrap_or(&g.position))?;
        let label = v.calendar.label(before.phase);
        let map = self.past_map(&v, &g, &before, &row.orders, &after);
        let href = self.href(&g.name);
        let body = self.pages.render(
            "phase.html",
            minijinja::context! {
                judge => &self.judge,
                prefix => &self.prefix,
                name => &g.name,
                href => &href,
                feed => format!("{href}/feed.atom"),
                variant => &v.title,
                label => &label,
                when => crate::time::show(row.created_at, &g.settings.timezone),
                map => minijinja::Value::from_safe_string(map),
                report => &row.report,
                previous => minijinja::value::Serde(previous.map(|l| phase_link(&v, &href, &l))),
                next => minijinja::value::Serde(next.map(|l| phase_link(&v, &href, &l))),
            },
        )?;
        Ok(Some(Made::html(body)))
    }

    /// A past phase's map as the observers' results mail drew it: the
    /// phase is played again from its position and orders (adjudication is
    /// pure), and if that does not lead exactly where the game went, the
    /// board it led to is drawn without orders.
    fn past_map(
        &self,
        v: &Variant,
        g: &GameRow,
        before: &Position,
        orders: &str,
        after: &Position,
    ) -> String {
        let picture = self.picture(v);
        if let Some(o) = read_orders(v, before.phase.kind, orders) {
            let (result, next) = play(v, before, &o);
            if next.canonical() == after.canonical() {
                let r = PhaseReport {
                    variant: v,
                    game: &g.name,
                    before,
                    orders: &o,
                    result: &result,
                    after: &next,
                    next_deadline: None,
                    ended: None,
                    nmr: Vec::new(),
                };
                let title = crate::report::title(&r);
                return picture.phase_svg(&r, &title, Viewer::Public);
            }
        }
        let title = format!("{}: {}", g.name, v.calendar.label(before.phase));
        picture.board_svg(after, &after.dislodged, &title, Viewer::Public)
    }

    fn map(&self, name: &str) -> Result<Option<Made>> {
        let Some(g) = self.read(|tx| Ok(games::load(tx, name)?))? else {
            return Ok(None);
        };
        let v = self.variant(&g)?;
        let pos = position(&v, &g, &g.position)?;
        let title = format!("{}: {}", g.name, v.calendar.label(phase_told(&v, &pos)));
        let svg = self
            .picture(&v)
            .board_svg(&pos, &pos.dislodged, &title, Viewer::Public);
        Ok(Some(Made {
            found: true,
            content_type: "image/svg+xml",
            // XML: a control character in the game's name in its title
            // would make the picture unreadable.
            body: super::text::cleaned(&svg).into(),
            gzip: false,
            stale_at: None,
        }))
    }

    fn feed(&self, name: &str) -> Result<Option<Made>> {
        // The latest results and press, each cut: a bound on the feed
        // whatever the game holds (entries, and bytes an entry).
        let Some((g, press)) = self.read(|tx| {
            let Some(g) = games::load(tx, name)? else {
                return Ok(None);
            };
            let press = rows::press_page(tx, &g.name, 0, FEED_ENTRIES, PRESS_CUT)?;
            Ok(Some((g, press)))
        })?
        else {
            return Ok(None);
        };
        let v = self.variant(&g)?;
        // The latest results of the phases observers know of.
        let unseen = self.unseen_phases(&v, &g)?;
        let reports = self.read(|tx| {
            Ok(rows::latest_reports(
                tx,
                &g.name,
                FEED_ENTRIES + unseen.len(),
                REPORT_CUT,
            )?)
        })?;
        let reports: Vec<_> = reports
            .into_iter()
            .filter(|r| !unseen.contains(&r.line.seq))
            .take(FEED_ENTRIES)
            .collect();
        let href = self.href(&g.name);
        let mut entries: Vec<super::feed::Item> = Vec::new();
        for r in &reports {
            let l = phase_link(&v, &href, &r.line);
            entries.push(super::feed::Item {
                id: match &self.base_url {
                    Some(_) => self.absolute(&l.href),
                    None => format!("urn:zinejudge:game:{}:phase:{}", g.name, r.line.phase),
                },
                title: format!("{}: {} results", g.name, l.label),
                link: self.absolute(&l.href),
                updated: r.line.created_at,
                author: None,
                text: with_more(&r.report, &self.absolute(&l.href)),
            });
        }
        for p in &press {
            // The id stays the game page's anchor it always was (a feed
            // reader knows an entry by it); the link goes to the
            // broadcast's own page, where it is whole however old.
            let anchor = format!("{href}#press-{}", p.id);
            let own = self.absolute(&press_href(&href, p.id));
            entries.push(super::feed::Item {
                id: match &self.base_url {
                    Some(_) => self.absolute(&anchor),
                    None => format!("urn:zinejudge:game:{}:press:{}", g.name, p.id),
                },
                title: match &p.sender {
                    Some(s) => format!("{}: press from {s}", g.name),
                    None => format!("{}: grey press", g.name),
                },
                link: own.clone(),
                updated: p.created_at,
                author: p.sender.clone(),
                text: with_more(&p.body, &own),
            });
        }
        entries.sort_by_key(|e| std::cmp::Reverse(e.updated));
        entries.truncate(FEED_ENTRIES);
        let mut spent = 0;
        let within = entries
            .iter()
            .take_while(|e| {
                spent += super::feed::written_size(&e.text);
                spent <= FEED_TEXT_BYTES
            })
            .count();
        entries.truncate(within.max(1));
        let xml = super::feed::write(&super::feed::Channel {
            id: match &self.base_url {
                Some(_) => self.absolute(&href),
                None => format!("urn:zinejudge:game:{}", g.name),
            },
            title: format!("{}: {} on {}", g.name, v.title, self.judge),
            page: self.absolute(&href),
            own: self.absolute(&format!("{href}/feed.atom")),
            judge: self.judge.clone(),
            updated: entries.first().map_or(g.created_at, |e| e.updated),
            items: entries,
        })?;
        Ok(Some(Made {
            found: true,
            content_type: "application/atom+xml; charset=utf-8",
            body: xml.into(),
            gzip: false,
            stale_at: None,
        }))
    }

    /// A page of a game's press, or one broadcast.
    fn press(&self, name: &str, shown: PressShown) -> Result<Option<Made>> {
        let Some((g, press, total)) = self.read(|tx| {
            let Some(g) = games::load(tx, name)? else {
                return Ok(None);
            };
            let total = rows::press_count(tx, &g.name)?;
            let press = match shown {
                PressShown::One(id) => rows::press_one(tx, &g.name, id, PRESS_WHOLE)?
                    .into_iter()
                    .collect(),
                PressShown::Page(n) => rows::press_page(
                    tx,
                    &g.name,
                    n.saturating_sub(1).saturating_mul(PRESS_PER_PAGE),
                    PRESS_PER_PAGE,
                    PRESS_CUT,
                )?,
            };
            Ok(Some((g, press, total)))
        })?
        else {
            return Ok(None);
        };
        let href = self.href(&g.name);
        let pages = total.div_ceil(PRESS_PER_PAGE).max(1);
        let link = |n: usize| format!("{href}/press?page={n}");
        let (page, previous, next) = match shown {
            PressShown::Page(n) if n == 0 || n > pages => return Ok(None),
            PressShown::Page(n) => (
                n,
                (n > 1).then(|| link(n - 1)),
                (n < pages).then(|| link(n + 1)),
            ),
            PressShown::One(_) if press.is_empty() => return Ok(None),
            PressShown::One(_) => (0, None, None),
        };
        let body = self.pages.render(
            "press.html",
            minijinja::context! {
                judge => &self.judge,
                prefix => &self.prefix,
                name => &g.name,
                href => &href,
                feed => format!("{href}/feed.atom"),
                one => matches!(shown, PressShown::One(_)),
                whole => PRESS_WHOLE,
                press => minijinja::value::Serde(press.iter().map(|p| PressView::new(p, &href, &g.settings.timezone)).collect::<Vec<_>>()),
                total => total,
                page => page,
                pages => pages,
                previous => previous,
                next => next,
            },
        )?;
        Ok(Some(Made::html(body)))
    }

    /// A page of a game's played phases (from 1, [`PHASES_PER_PAGE`]
    /// each), newest first.
    fn phases(&self, name: &str, page: usize) -> Result<Option<Made>> {
        let Some(g) = self.read(|tx| Ok(games::load(tx, name)?))? else {
            return Ok(None);
        };
        let v = self.variant(&g)?;
        let skip = page.saturating_sub(1).saturating_mul(PHASES_PER_PAGE);
        let (lines, total) = self.known_phases(&v, &g, skip, PHASES_PER_PAGE)?;
        let pages = total.div_ceil(PHASES_PER_PAGE).max(1);
        if page == 0 || page > pages {
            return Ok(None);
        }
        let href = self.href(&g.name);
        let link = |n: usize| format!("{href}/phases?page={n}");
        let links: Vec<PhaseLink> = lines.iter().map(|l| phase_link(&v, &href, l)).collect();
        let body = self.pages.render(
            "phases.html",
            minijinja::context! {
                judge => &self.judge,
                prefix => &self.prefix,
                name => &g.name,
                href => &href,
                feed => format!("{href}/feed.atom"),
                variant => &v.title,
                phases => minijinja::value::Serde(&links),
                first => total.saturating_sub((page - 1) * PHASES_PER_PAGE),
                total => total,
                page => page,
                pages => pages,
                previous => (page > 1).then(|| link(page - 1)),
                next => (page < pages).then(|| link(page + 1)),
            },
        )?;
        Ok(Some(Made::html(body)))
    }
}

/// Which press a press page shows.
#[derive(Debug, Clone, Copy)]
enum PressShown {
    /// A page of the list (from 1), [`PRESS_PER_PAGE`] broadcasts cut to
    /// [`PRESS_CUT`].
    Page(usize),
    /// One broadcast, to [`PRESS_WHOLE`].
    One(i64),
}

/// A cut text for the feed: what is shown, and where the rest is.
fn with_more(t: &rows::Cut, whole: &str) -> String {
    if t.cut {
        format!("{}\n[...] The rest: {whole}", t.text)
    } else {
        t.text.clone()
    }
}

/// A broadcast's own page.
fn press_href(game_href: &str, id: i64) -> String {
    format!("{game_href}/press/{id}")
}

/// A game's position (current or stored in its history).
fn position(v: &Variant, g: &GameRow, text: &str) -> Result<Position> {
    Position::from_toml(v, text).map_err(|source| WebError::Position {
        game: g.name.clone(),
        source,
    })
}

/// The phase observers are told the game at `pos` is in: a retreat of
/// hidden units only (1066 rule 5) is not theirs to know of, the phase
/// after it is.
fn phase_told(v: &Variant, pos: &Position) -> crate::variant::Phase {
    View::of(v, pos, Viewer::Public).phase_shown(pos)
}

/// `pos` as an observer may see it: the units hidden from observers are
/// not in it at all, so nothing drawn from it (units, retreat options, the
/// legend's counts) can tell of them.
pub(crate) fn public(v: &Variant, pos: &Position) -> Position {
    View::of(v, pos, Viewer::Public).position(pos)
}

/// The orders of a history entry (`Power: order` lines, as the judge wrote
/// them) read back; `None` if any line does not read.
fn read_orders(v: &Variant, kind: PhaseKind, text: &str) -> Option<PhaseOrders> {
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let sheet = kind == PhaseKind::Movement && v.takes_order_sheets();
    let kinds: &[PhaseKind] = match kind {
        _ if sheet => &[
            PhaseKind::Movement,
            PhaseKind::Retreat,
            PhaseKind::Adjustment,
        ],
        PhaseKind::Placement => &[PhaseKind::Adjustment],
        _ => std::slice::from_ref(match kind {
            PhaseKind::Movement => &PhaseKind::Movement,
            PhaseKind::Retreat => &PhaseKind::Retreat,
            _ => &PhaseKind::Adjustment,
        }),
    };
    let mut sorted = crate::game::phase_orders::PhaseOrdersBuilder::new();
    // A yearly sheet's parts stand under their headings (`Retreats:`),
    // for a retreat reads as a move.
    let mut under: Option<PhaseKind> = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let heading = line
            .trim()
            .strip_suffix(':')
            .and_then(|w| crate::orders::parse::Heading::from_word(&w.to_ascii_lowercase()));
        if let Some(h) = heading.filter(|_| sheet) {
            under = Some(match h {
                crate::orders::parse::Heading::Moves => PhaseKind::Movement,
                crate::orders::parse::Heading::Retreats => PhaseKind::Retreat,
                _ => PhaseKind::Adjustment,
            });
            continue;
        }
        let (who, order) = line.split_once(": ")?;
        let power = v.map.lookup_power(who.trim())?;
        let command = under
            .iter()
            .chain(kinds)
            .find_map(|k| parser.parse(order.trim(), Some(*k)).ok())?
            .command;
        sorted.push(power, command);
    }
    Some(sorted.build(v, kind))
}

/// `A(Lon)`, `F(StP/nc)`.
fn unit_text(v: &Variant, u: &Unit) -> String {
    format_unit(&v.map, Some(u.kind), Place::of_region(&v.map, u.region))
}

/// A game name as one segment of a path.
pub fn path_part(s: &str) -> String {
    const KEEP: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'~');
    percent_encoding::utf8_percent_encode(s, KEEP).to_string()
}

fn status_word(g: &GameRow) -> &'static str {
    use crate::game::record::Status;
    match g.status {
        Status::Forming => "forming: taking players",
        Status::Active => "being played",
        Status::Paused => "paused by the GM",
        Status::Finished => "finished",
    }
}

fn shown_deadline(g: &GameRow) -> Option<String> {
    match (g.status, g.deadline) {
        (crate::game::record::Status::Active, Some(t)) => {
            Some(crate::time::show(t, &g.settings.timezone))
        }
        _ => None,
    }
}

/// A played phase's link: its label (`Spring 1901 movement`, read from
/// its short name by the game's calendar) and its page.
fn phase_link(v: &Variant, game_href: &str, l: &rows::PhaseLine) -> PhaseLink {
    PhaseLink {
        seq: l.seq,
        label: v
            .calendar
            .parse(&l.phase)
            .map_or_else(|_| l.phase.clone(), |p| v.calendar.label(p)),
        short: l.phase.clone(),
        href: format!("{game_href}/phases/{}", path_part(&l.phase)),
    }
}

/// A game in the list.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GameLine {
    name: String,
    href: String,
    variant: String,
    phase: String,
    deadline: Option<String>,
    status: &'static str,
    result: Option<String>,
    powers: Vec<PowerCount>,
}

#[derive(Debug, Clone, Serialize)]
struct PowerCount {
    name: String,
    centres: u32,
}

#[derive(Debug, Clone, Serialize)]
struct ChartRow {
    power: String,
    colour: &'static str,
    centres: u32,
    centre_list: Vec<String>,
    units: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
struct RosterRow {
    power: String,
    colour: &'static str,
    player: Option<String>,
    /// The absences its player announced that have not ended, as
    /// `from to to` in the game's zone: the players plan around them.
    away: Vec<String>,
    status: &'static str,
}

/// Now, as Unix seconds: which absences are still to come or running. A
/// page is made again when the store changes, so one that ended since may
/// show until then.
fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[derive(Debug, Clone, Serialize)]
struct PhaseLink {
    seq: i64,
    label: String,
    short: String,
    href: String,
}

#[derive(Debug, Clone, Serialize)]
struct PressView {
    id: i64,
    phase: String,
    from: Option<String>,
    when: String,
    body: String,
    /// Its own page, where a cut one is whole.
    href: String,
    /// The text shown is the start of a longer one.
    cut: bool,
}

impl PressView {
    fn new(p: &rows::PressLine, game_href: &str, tz: &str) -> PressView {
        PressView {
            id: p.id,
            phase: p.phase.clone(),
            from: p.sender.clone(),
            when: crate::time::show(p.created_at, tz),
            body: p.body.text.clone(),
            href: press_href(game_href, p.id),
            cut: p.body.cut,
        }
    }
}

/// A deadline in the game's zone, in UTC, and in the reader's.
#[derive(Debug, Clone, Serialize)]
struct Deadline {
    game: String,
    zone: String,
    utc: String,
    iso: String,
    reader: Option<String>,
    reader_zone: Option<String>,
}

impl Deadline {
    fn new(t: i64, zone: &str, reader: Option<&str>) -> Deadline {
        let show = crate::time::show;
        Deadline {
            game: show(t, zone),
            zone: zone.to_string(),
            utc: show(t, "UTC"),
            iso: jiff::Timestamp::from_second(t).map_or(String::new(), |ts| ts.to_string()),
            reader: reader.map(|z| show(t, z)),
            reader_zone: reader.map(str::to_string),
        }
    }
}
