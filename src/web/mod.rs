//! Read-only web pages of every game, served over HTTP on the daemon's
//! tokio runtime (axum on hyper): the list of games, each game's page (its
//! map, centre chart, players, deadline, past phases and broadcast press),
//! each past phase with its results and map, and an Atom feed per game.
//! Pages show what an observer may see and nothing else ([`site`]); they
//! need no script to read and no cookie, and take no input but the path
//! and a time zone.
//!
//! Slow or hostile clients cannot starve the others: connections are
//! capped (past the cap a client gets a short 503 at once), and the cap
//! leaves room under the process's open-file limit for the judge's own
//! files ([`connection_cap`]), so idle connections can never take the
//! descriptors the store and the mail need; a request's
//! head must arrive within a few seconds and so must the next request on a
//! kept-alive connection, a read or write that makes no progress ends its
//! connection, a request is answered (or given up with a 503) within
//! [`Limits::request`], and pages are made a few at a time on blocking
//! threads so that the async threads only move bytes.

pub(crate) mod feed;
pub(crate) mod pages;
pub(crate) mod site;
pub(crate) mod text;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, Response, StatusCode, header};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use site::{Made, Site, Want};
use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tracing::{debug, error, info, warn};

/// What the server allows each client.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Connections open at once; past this a client gets a 503 at once.
    /// Fewer when the open-file limit leaves less room
    /// ([`connection_cap`]).
    pub connections: usize,
    /// Open files kept for the rest of the judge out of the process's
    /// limit (see [`FILES_KEPT`]); the web connections get what is left.
    pub files_kept: usize,
    /// Time for a request's head to arrive, and for the next request on a
    /// kept-alive connection to begin.
    pub head: Duration,
    /// Time a read or a write may wait without a byte moving (a client
    /// that does not read what it asked for).
    pub stall: Duration,
    /// Time from a request's head to its answer.
    pub request: Duration,
    /// Pages made at once (each on a blocking thread with a store
    /// connection).
    pub makers: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections: 1024,
            files_kept: FILES_KEPT,
            head: Duration::from_secs(10),
            stall: Duration::from_secs(30),
            request: Duration::from_secs(15),
            makers: 4,
        }
    }
}

/// Open files (descriptors) kept out of the process's limit for
/// everything but web connections, when mail goes out to a Maildir (each
/// SMTP connection the configuration allows adds one; see
/// [`Server::start`]). Counted from what the judge holds at once: the
/// standard streams, the journal's socket and the async runtime's own
/// (epoll, its wakers, the signal pipe), about 10; the web listener, 1;
/// store connections, 3 files each in SQLite (the database, its WAL and
/// its shared-memory index; 1 socket in PostgreSQL): the judge's own few
/// plus the pages' pool of 8 and one each for the 4 page makers, about 20
/// connections, 60 files; the inbox (an IMAP session and its IDLE, or a
/// Maildir's directory and the mail being read), a few; the outbox
/// Maildir's file being written, the template and CA files read at a
/// reload, DNS look-ups, a few. About 80 in all: 128 leaves room for
/// what was not counted. The password-check threads hold none.
pub const FILES_KEPT: usize = 128;

/// Clients past the cap being told 503 at once. Each holds its descriptor
/// until its answer is sent (2 seconds at most); past this many, a client
/// is closed at once instead, so that a flood of new connections cannot
/// take the descriptors the cap keeps for the judge either.
const TURNED_AWAY: usize = 32;

/// The web connections allowed at once: `wanted`, or fewer when the
/// process's open-file limit `limit` (`None`: unlimited or unknown) does
/// not hold `wanted` plus the clients being turned away plus `kept` for
/// the rest of the judge. It may be 0: a judge allowed so few files serves
/// every client a 503, and still handles its mail.
pub fn connection_cap(wanted: usize, limit: Option<u64>, kept: usize) -> usize {
    match limit {
        None => wanted,
        Some(l) => {
            let room = usize::try_from(l)
                .unwrap_or(usize::MAX)
                .saturating_sub(kept)
                .saturating_sub(TURNED_AWAY);
            wanted.min(room)
        }
    }
}

/// The process's limit on open files (the soft `RLIMIT_NOFILE`: what
/// `LimitNOFILE=` in the unit sets, or 1,024 by default); `None` when it
/// is unlimited or cannot be read. Read at every start of the server (the
/// daemon's start and each reload), as a limit can be changed from outside
/// (`prlimit`).
pub(crate) fn file_limit() -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one `rlimit` through a pointer to a live,
    // properly aligned value, and reads nothing else.
    let rc = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) };
    if rc != 0 || r.rlim_cur == libc::RLIM_INFINITY {
        return None;
    }
    Some(r.rlim_cur)
}

/// What the server shows.
#[derive(Debug, Clone)]
pub struct Options {
    /// The store to read.
    pub store: crate::store::Location,
    /// The judge's name, on every page.
    pub judge: String,
    /// The pages' address as readers reach them, ending in `/`.
    pub base_url: Option<String>,
    /// Keep pages made until the store changes.
    pub cache: bool,
    /// The limits.
    pub limits: Limits,
    /// Variants played besides the shipped ones (`[variants] dir`), so
    /// that their games' pages draw.
    pub variants: Vec<Arc<crate::variant::Variant>>,
}

/// The state the handlers share.
#[derive(Clone)]
struct App {
    site: Arc<Site>,
    makers: Arc<Semaphore>,
}

/// A running server.
pub struct Server {
    address: Option<SocketAddr>,
    shutdown: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Serve on `listener` until stopped. Must be called within a tokio
    /// runtime.
    pub fn spawn(listener: TcpListener, options: Options) -> Server {
        let address = listener.local_addr().ok();
        let (shutdown, rx) = watch::channel(false);
        let task = tokio::spawn(serve(listener, options, rx));
        Server {
            address,
            shutdown,
            task,
        }
    }

    /// The daemon's server for `config.web`: bound now when the address is
    /// free (and the address logged), else tried again every 30 seconds
    /// while the judge handles mail regardless. `None` when the pages are
    /// off.
    pub fn start(config: &crate::config::Config) -> Option<Server> {
        let web = &config.web;
        if !web.enabled {
            return None;
        }
        // Each SMTP connection the outbox may open is a descriptor more
        // to keep.
        let smtp = match &config.sink {
            crate::config::Sink::Smtp { connections, .. } => *connections,
            crate::config::Sink::Maildir(_) => 0,
        };
        let options = Options {
            store: config.store.clone(),
            judge: config.identity.name.clone(),
            base_url: web.base_url.clone(),
            cache: true,
            limits: Limits {
                files_kept: FILES_KEPT + smtp,
                connections: web.connections,
                ..Limits::default()
            },
            variants: config.variants.clone(),
        };
        let want = web.address;
        match bind(want) {
            Ok(listener) => Some(Server::spawn(listener, options)),
            Err(e) => {
                // A warning, not an error: the judge works, the pages wait.
                // Say what to change, since a newcomer meets this first
                // (another program on 8080).
                let why = if e.kind() == std::io::ErrorKind::AddrInUse {
                    "another program listens there".to_string()
                } else {
                    e.to_string()
                };
                warn!(
                    error = %e,
                    "cannot serve the game pages at http://{want}/ yet: {why}. Mail is handled all the same, and the address is tried again every 30 seconds. To serve the pages elsewhere, set address under [web] in the configuration (such as \"127.0.0.1:8081\"), or enabled = false for no pages"
                );
                let (shutdown, mut rx) = watch::channel(false);
                let task = tokio::spawn(async move {
                    loop {
                        tokio::select! {
                            _ = tokio::time::sleep(Duration::from_secs(30)) => {}
                            _ = rx.changed() => return,
                        }
                        match bind(want) {
                            Ok(listener) => return serve(listener, options, rx).await,
                            Err(e) => debug!(error = %e, "the web address is still taken"),
                        }
                    }
                });
                Some(Server {
                    address: None,
                    shutdown,
                    task,
                })
            }
        }
    }

    /// The address it listens on (`None` while waiting for its address).
    pub fn address(&self) -> Option<SocketAddr> {
        self.address
    }

    /// Stop: no new connections; requests under way are answered (for a
    /// few seconds at most), then every connection is closed.
    pub async fn stop(self) {
        let _ = self.shutdown.send(true);
        let _ = self.task.await;
    }
}

/// Listen on `address` (a std listener made non-blocking, so that a bind
/// failure is known at once).
pub fn bind(address: SocketAddr) -> std::io::Result<TcpListener> {
    let l = std::net::TcpListener::bind(address)?;
    l.set_nonblocking(true)?;
    TcpListener::from_std(l)
}

/// How long connections under way may take to finish at a stop.
const DRAIN: Duration = Duration::from_secs(5);

/// Accept connections on `listener` and serve each, until `shutdown`.
pub(crate) async fn serve(
    listener: TcpListener,
    options: Options,
    mut shutdown: watch::Receiver<bool>,
) {
    let limits = options.limits.clone();
    let site = Arc::new(Site::new(
        options.store.clone(),
        &options.judge,
        options.base_url.clone(),
        options.cache,
    ));
    for v in &options.variants {
        site.add_variant(Arc::clone(v));
    }
    if let Ok(a) = listener.local_addr() {
        info!("serving the game pages at http://{a}/");
    }
    let app = App {
        site,
        makers: Arc::new(Semaphore::new(limits.makers.max(1))),
    };
    let router = router(app, &limits);
    let limit = file_limit();
    let cap = connection_cap(limits.connections, limit, limits.files_kept);
    if cap < limits.connections {
        warn!(
            "web connections capped at {cap}, not {}: the open-file limit is {} and {} are kept for the store and the mail (raise LimitNOFILE to serve more)",
            limits.connections,
            limit.unwrap_or_default(),
            limits.files_kept
        );
    }
    let open = Arc::new(Semaphore::new(cap));
    let away = Arc::new(Semaphore::new(TURNED_AWAY));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.head)
        .max_buf_size(16 * 1024)
        .keep_alive(true);
    loop {
        let (stream, peer) = tokio::select! {
            a = listener.accept() => match a {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: wait, go on.
                    warn!(error = %e, "cannot accept a web connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = shutdown.changed() => break,
        };
        let _ = stream.set_nodelay(true);
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            // Past the cap: a 503 at once, or, in a flood, closed at once.
            if let Ok(turn) = Arc::clone(&away).try_acquire_owned() {
                tokio::spawn(async move {
                    turn_away(stream).await;
                    drop(turn);
                });
            }
            continue;
        };
        let io = TokioIo::new(Stalling::new(stream, limits.stall));
        let service = TowerToHyperService::new(router.clone());
        let conn = http.serve_connection(io, service);
        let mut stop = shutdown.clone();
        tokio::spawn(async move {
            let _permit = permit;
            tokio::pin!(conn);
            let done = tokio::select! {
                r = conn.as_mut() => Some(r),
                _ = stop.changed() => None,
            };
            let r = match done {
                Some(r) => r,
                None => {
                    conn.as_mut().graceful_shutdown();
                    match tokio::time::timeout(DRAIN, conn).await {
                        Ok(r) => r,
                        Err(_) => return,
                    }
                }
            };
            if let Err(e) = r {
                debug!(%peer, error = %e, "web connection ended");
            }
        });
    }
    drop(listener);
    // Wait for the connections under way (each ends within DRAIN).
    let all = u32::try_from(cap).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(DRAIN + Duration::from_secs(1), open.acquire_many(all)).await;
    info!("stopped serving the game pages");
}

/// A client past the connection cap: told to come back, and closed (after
/// what it sent is read, so that the close does not reset the answer
/// away).
async fn turn_away(mut stream: TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        stream
            .write_all(
                b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: text/plain\r\nContent-Length: 24\r\nConnection: close\r\n\r\nToo busy: try again soon",
            )
            .await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 4096];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<_, std::io::Error>(())
    })
    .await;
}

/// The headers every answer carries: the pages load nothing from
/// elsewhere, run no inline script and may not be framed.
const POLICY: &str = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

fn router(app: App, limits: &Limits) -> Router {
    Router::new()
        .route("/", get(list))
        .route("/games/{game}", get(game))
        .route("/games/{game}/phases", get(phases))
        .route("/games/{game}/phases/{phase}", get(phase))
        .route("/games/{game}/press", get(press))
        .route("/games/{game}/press/{id}", get(one_press))
        .route("/games/{game}/feed.atom", get(feed))
        .route("/games/{game}/map.svg", get(map))
        .route("/style.css", get(style))
        .route("/local-time.js", get(script))
        .fallback(fallback)
        .with_state(app)
        .layer(RequestBodyLimitLayer::new(4096))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            limits.request,
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(POLICY),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
}

/// Whether the client takes a gzip-compressed body (every browser does).
fn takes_gzip(h: &HeaderMap) -> bool {
    h.get_all(header::ACCEPT_ENCODING).iter().any(|v| {
        v.to_str().is_ok_and(|v| {
            v.split(',').any(|e| {
                let mut parts = e.split(';');
                let name = parts.next().unwrap_or("").trim();
                let refused = parts.any(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .and_then(|q| q.trim().parse::<f32>().ok())
                        .is_some_and(|q| q == 0.0)
                });
                (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
            })
        })
    })
}

impl App {
    /// The page for `want`, made on a blocking thread, a few at a time.
    async fn page(&self, want: Want, headers: &HeaderMap) -> Response<Body> {
        let gzip = takes_gzip(headers);
        let Ok(_turn) = self.makers.acquire().await else {
            return busy();
        };
        let site = Arc::clone(&self.site);
        let made = tokio::task::spawn_blocking(move || {
            site.get(&want).map(|m| {
                // Undone here, off the network threads, for the rare client
                // that takes no gzip.
                if m.gzip && !gzip {
                    Made {
                        body: m.plain(),
                        gzip: false,
                        ..m
                    }
                } else {
                    m
                }
            })
        })
        .await;
        match made {
            Ok(Ok(m)) => answer(m),
            Ok(Err(e)) => self.fault(anyhow::Error::from(e)),
            Err(e) => self.fault(anyhow::anyhow!("a page maker panicked: {e}")),
        }
    }

    fn fault(&self, e: anyhow::Error) -> Response<Body> {
        error!(error = %format!("{e:#}"), "cannot make a web page");
        let mut r = Response::new(Body::from(self.site.fault()));
        *r.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        r.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        r
    }
}

fn busy() -> Response<Body> {
    let mut r = Response::new(Body::from("Too busy: try again soon"));
    *r.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    r
}

fn answer(m: Made) -> Response<Body> {
    let mut r = Response::new(Body::from(m.body));
    if !m.found {
        *r.status_mut() = StatusCode::NOT_FOUND;
    }
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(m.content_type),
    );
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    if m.gzip {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    r
}

/// The page number asked for (`?page=N`, from 1; 1 when not given);
/// `None` when it is no page number.
fn page_number(q: &HashMap<String, String>) -> Option<usize> {
    match q.get("page") {
        None => Some(1),
        Some(p) => p.trim().parse::<usize>().ok().filter(|n| *n >= 1),
    }
}

async fn list(
    State(app): State<App>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response<Body> {
    match page_number(&q) {
        Some(page) => app.page(Want::List(page), &headers).await,
        None => not_found(&app, "page").await,
    }
}

async fn press(
    State(app): State<App>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Response<Body> {
    match page_number(&q) {
        Some(page) => app.page(Want::Press(name, page), &headers).await,
        None => not_found(&app, "page").await,
    }
}

async fn one_press(
    State(app): State<App>,
    headers: HeaderMap,
    Path((name, id)): Path<(String, String)>,
) -> Response<Body> {
    match id.parse::<i64>() {
        Ok(id) => app.page(Want::OnePress(name, id), &headers).await,
        Err(_) => not_found(&app, "message").await,
    }
}

async fn phases(
    State(app): State<App>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Response<Body> {
    match page_number(&q) {
        Some(page) => app.page(Want::Phases(name, page), &headers).await,
        None => not_found(&app, "page").await,
    }
}

/// The reader's time zone (`?tz=America/New_York`), if it is one.
fn reader_zone(q: &HashMap<String, String>) -> Option<String> {
    let z = q.get("tz")?.trim();
    if z.is_empty() || z.len() > 64 {
        return None;
    }
    let tz = jiff::tz::TimeZone::get(z).ok()?;
    Some(tz.iana_name().unwrap_or(z).to_string())
}

async fn game(
    State(app): State<App>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Response<Body> {
    app.page(Want::Game(name, reader_zone(&q)), &headers).await
}

async fn phase(
    State(app): State<App>,
    headers: HeaderMap,
    Path((name, phase)): Path<(String, String)>,
) -> Response<Body> {
    app.page(Want::Phase(name, phase), &headers).await
}

async fn feed(
    State(app): State<App>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Response<Body> {
    app.page(Want::Feed(name), &headers).await
}

async fn map(
    State(app): State<App>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Response<Body> {
    app.page(Want::Map(name), &headers).await
}

fn asset(body: &'static str, mime: &'static str) -> Response<Body> {
    let mut r = Response::new(Body::from(body));
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    r.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    r
}

async fn style() -> Response<Body> {
    asset(pages::STYLE, "text/css; charset=utf-8")
}

async fn script() -> Response<Body> {
    asset(pages::LOCAL_TIME, "text/javascript; charset=utf-8")
}

async fn fallback(State(app): State<App>) -> Response<Body> {
    not_found(&app, "page").await
}

async fn not_found(app: &App, what: &'static str) -> Response<Body> {
    match app.site.not_found(what) {
        Ok(m) => answer(m),
        Err(e) => app.fault(anyhow::Error::from(e)),
    }
}

/// A connection whose reads and writes fail when no byte has moved either
/// way for `stall`: a client that stops reading what it asked for, or
/// stops sending half-way, lets go of its connection. Either way, because
/// hyper keeps a read pending while it writes a long answer (to see the
/// client go): a phone reading a big page slowly sends nothing meanwhile,
/// and must keep its connection as long as it reads.
struct Stalling<T> {
    inner: T,
    stall: Duration,
    /// When a byte last moved, either way (or the connection opened).
    moved: tokio::time::Instant,
    read: Option<Pin<Box<tokio::time::Sleep>>>,
    write: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> Stalling<T> {
    fn new(inner: T, stall: Duration) -> Stalling<T> {
        Stalling {
            inner,
            stall,
            moved: tokio::time::Instant::now(),
            read: None,
            write: None,
        }
    }
}

/// Whether a wait has gone `stall` past the last movement `moved`. The
/// wait's timer is moved on, not dropped, when bytes moved the other way
/// meanwhile: it keeps the waker of the task that waits, so a read left
/// pending while the writes went on still ends `stall` after the last
/// write.
fn stalled(
    timer: &mut Option<Pin<Box<tokio::time::Sleep>>>,
    moved: tokio::time::Instant,
    stall: Duration,
    cx: &mut Context<'_>,
) -> bool {
    let due = moved + stall;
    let t = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(due)));
    if t.deadline() != due {
        t.as_mut().reset(due);
    }
    t.as_mut().poll(cx).is_ready()
}

fn timed_out() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::TimedOut, "the client made no progress")
}

impl<T: AsyncRead + Unpin> AsyncRead for Stalling<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(r) => {
                if buf.filled().len() > before {
                    this.moved = tokio::time::Instant::now();
                }
                Poll::Ready(r)
            }
            Poll::Pending if stalled(&mut this.read, this.moved, this.stall, cx) => {
                Poll::Ready(Err(timed_out()))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncWrite + Unpin> Stalling<T> {
    /// A write, flush or shutdown, failed when it has waited `stall` past
    /// the last movement; `written` says how many bytes a finished one
    /// moved (a flush moves none: hyper flushes at every turn, even while
    /// waiting for a request that does not come, so a flush must not count
    /// as the client's progress).
    fn progress<R>(
        &mut self,
        cx: &mut Context<'_>,
        written: impl FnOnce(&R) -> usize,
        f: impl FnOnce(Pin<&mut T>, &mut Context<'_>) -> Poll<std::io::Result<R>>,
    ) -> Poll<std::io::Result<R>> {
        match f(Pin::new(&mut self.inner), cx) {
            Poll::Ready(r) => {
                if r.as_ref().is_ok_and(|r| written(r) > 0) {
                    self.moved = tokio::time::Instant::now();
                }
                Poll::Ready(r)
            }
            Poll::Pending if stalled(&mut self.write, self.moved, self.stall, cx) => {
                Poll::Ready(Err(timed_out()))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Stalling<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.progress(cx, |n| *n, |w, cx| w.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        self.progress(cx, |n| *n, |w, cx| w.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.progress(cx, |_| 0, |w, cx| w.poll_flush(cx))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.progress(cx, |_| 0, |w, cx| w.poll_shutdown(cx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn a_client_that_reads_nothing_lets_go_of_its_connection() {
        rt().block_on(async {
            let (ours, _theirs) = tokio::io::duplex(64);
            let mut s = Stalling::new(ours, Duration::from_millis(100));
            let t = std::time::Instant::now();
            let e = s.write_all(&[b'x'; 4096]).await.unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
            assert!(t.elapsed() >= Duration::from_millis(100));
        });
    }

    #[test]
    fn a_client_that_sends_nothing_lets_go_of_its_connection() {
        rt().block_on(async {
            let (ours, _theirs) = tokio::io::duplex(64);
            let mut s = Stalling::new(ours, Duration::from_millis(100));
            let mut buf = [0u8; 16];
            let e = s.read(&mut buf).await.unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
        });
    }

    #[test]
    fn a_slow_reader_keeps_its_connection_while_bytes_move() {
        rt().block_on(async {
            let (ours, mut theirs) = tokio::io::duplex(64);
            let mut s = Stalling::new(ours, Duration::from_millis(200));
            let reader = tokio::spawn(async move {
                let mut got = 0;
                let mut buf = [0u8; 32];
                while got < 2048 {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    got += theirs.read(&mut buf).await.unwrap();
                }
                got
            });
            // 2 KiB through a 64-byte pipe read 32 bytes every 10 ms: well
            // over the stall time in all, never a stall.
            s.write_all(&[b'x'; 2048]).await.unwrap();
            assert_eq!(reader.await.unwrap(), 2048);
        });
    }

    #[test]
    fn a_client_reading_a_long_answer_keeps_its_connection_though_it_sends_nothing() {
        rt().block_on(async {
            let (ours, mut theirs) = tokio::io::duplex(64);
            let (mut r, mut w) = tokio::io::split(Stalling::new(ours, Duration::from_millis(200)));
            // hyper's read for the next request, pending while it writes.
            let waiting = tokio::spawn(async move {
                let mut buf = [0u8; 16];
                let got = r.read(&mut buf).await.map_err(|e| e.kind());
                (got, tokio::time::Instant::now())
            });
            let reader = tokio::spawn(async move {
                let mut got = 0;
                let mut buf = [0u8; 32];
                while got < 2048 {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    got += theirs.read(&mut buf).await.unwrap();
                }
                theirs
            });
            let start = tokio::time::Instant::now();
            w.write_all(&[b'x'; 2048]).await.unwrap();
            let written = tokio::time::Instant::now();
            assert!(written - start > Duration::from_millis(400));
            let _theirs = reader.await.unwrap();
            // The read ends when nothing has moved for the stall time
            // after the last write, not before and not never.
            let (got, at) = tokio::time::timeout(Duration::from_secs(5), waiting)
                .await
                .expect("the read ends")
                .unwrap();
            assert_eq!(got, Err(std::io::ErrorKind::TimedOut));
            assert!(at > written, "the read ended while the answer moved");
            assert!(at - written < Duration::from_secs(1));
        });
    }

    #[test]
    fn flushes_alone_are_no_progress() {
        rt().block_on(async {
            let (ours, _theirs) = tokio::io::duplex(64);
            let (mut r, mut w) = tokio::io::split(Stalling::new(ours, Duration::from_millis(100)));
            // hyper flushes at every turn of its loop.
            let flusher = tokio::spawn(async move {
                loop {
                    let _ = w.flush().await;
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            });
            let mut buf = [0u8; 16];
            let e = tokio::time::timeout(Duration::from_secs(2), r.read(&mut buf))
                .await
                .expect("the read ends")
                .unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
            flusher.abort();
        });
    }

    #[test]
    fn the_connection_cap_leaves_the_judge_its_files() {
        // The default limit of a service (1,024) with Maildir mail: the
        // cap gives way.
        let cap = connection_cap(1024, Some(1024), FILES_KEPT);
        assert_eq!(cap, 1024 - FILES_KEPT - TURNED_AWAY);
        // What the unit sets: room for every connection.
        assert_eq!(connection_cap(1024, Some(4096), FILES_KEPT + 64), 1024);
        assert_eq!(connection_cap(1024, None, FILES_KEPT), 1024);
        // So few files that none are left for the pages: none served.
        assert_eq!(connection_cap(1024, Some(100), FILES_KEPT), 0);
    }

    #[test]
    fn gzip_is_taken_unless_refused() {
        let h = |v: &str| {
            let mut m = HeaderMap::new();
            m.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(v).unwrap());
            takes_gzip(&m)
        };
        assert!(h("gzip, deflate, br"));
        assert!(h("br;q=1.0, gzip;q=0.8"));
        assert!(h("*"));
        assert!(!h("gzip;q=0"));
        assert!(!h("br, deflate"));
        assert!(!takes_gzip(&HeaderMap::new()));
    }
}
