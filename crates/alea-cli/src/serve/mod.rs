//! `alea serve`: a local web page for every game and model, and the JSON API behind it.
//!
//! One page (HTML, CSS and JavaScript compiled into the binary: nothing is fetched from
//! elsewhere) and `POST /api/...` endpoints that run the command-line commands (see
//! `api`): an advice in this process on the shared solved Yahtzee tables, anything
//! else in a process of its own, at most `--workers` at a time: such a request waits up
//! to a few seconds for its turn (then 503), and its process is killed at `--timeout`
//! (then 422, the time being a guard like the commands' own). Bodies are bounded (413).

pub mod api;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use clap::Args;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::json;
use tokio::sync::Semaphore;

use crate::failure::Failure;
use crate::{progress, solitaire};

/// The page, with its style and script inline.
const PAGE: &str = include_str!("page.html");

/// How long a request waits for a free worker before it is told the server is busy.
const QUEUE_WAIT: Duration = Duration::from_secs(5);
/// How long a connection may take to send a request's head.
const HEAD_WAIT: Duration = Duration::from_secs(10);

#[derive(Debug, Args)]
#[command(after_help = concat!(
    "Examples:\n",
    "  alea serve                      # then open http://127.0.0.1:8080/\n",
    "  alea serve --port 0             # any free port (printed)\n",
    "  curl -s localhost:8080/api/yahtzee/advise \\\n",
    "       -d '{\"dice\": \"1,1,5,6,6\", \"rolls_left\": 2, \"card\": \"ones=3\"}'\n",
    "\n",
    exit_codes!()
))]
pub struct ServeArgs {
    /// The port to listen on (0: any free one, printed at start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default answers this machine only; another
    /// address (0.0.0.0: every network) lets others use the server.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Read a solved Yahtzee table (written by `alea yahtzee solve --save`) instead of
    /// solving its rules at the first request (repeatable, one per rule set).
    #[arg(long, value_name = "FILE")]
    table: Vec<PathBuf>,
    /// Requests worked on at once, each in a process of its own (default: one per
    /// core); more wait their turn. Advice is answered beside them.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    workers: Option<u16>,
    /// The longest a request may take, in seconds: beyond, it gets status 422.
    #[arg(long, default_value_t = 30, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    timeout: u64,
    /// The largest request body, in bytes: beyond, status 413.
    #[arg(long, default_value_t = 1 << 20, value_name = "BYTES")]
    max_body: usize,
    /// The most states a model checked through the API may have (its `max_states`
    /// defaults to this, and may not exceed it).
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    max_states: u64,
    /// The most games a simulation through the API may play (its `max_games`).
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    max_games: u64,
    /// The most deals a patience batch through the API may take (its `max_deals`).
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    max_deals: u64,
}

/// What every request shares.
struct Shared {
    workers: Arc<Semaphore>,
    worker_count: usize,
    timeout: Duration,
    caps: Vec<(&'static str, u64)>,
}

pub fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<(), Failure> {
    progress::silence();
    for path in &args.table {
        solitaire::preload(path)?;
    }
    let workers = args
        .workers
        .map_or_else(rayon::current_num_threads, usize::from);
    let shared = Arc::new(Shared {
        workers: Arc::new(Semaphore::new(workers)),
        worker_count: workers,
        timeout: Duration::from_secs(args.timeout),
        caps: vec![
            ("max-states", args.max_states),
            ("max-games", args.max_games),
            ("max-deals", args.max_deals),
        ],
    });
    let app = Router::new()
        .route("/", get(page))
        .route("/api", get(list))
        .route("/api/{*path}", post(call).fallback(other_method))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(args.max_body))
        .with_state(shared);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::other(format!("cannot start the server: {e}")))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.bind, args.port))
            .await
            .map_err(|e| {
                Failure::bad_input(format!(
                    "--bind {} --port {}: cannot listen there: {e}",
                    args.bind, args.port
                ))
            })?;
        let address = listener
            .local_addr()
            .map_err(|e| Failure::other(format!("cannot read the address listened on: {e}")))?;
        writeln!(out, "alea serve: open http://{address}/ (Ctrl-C stops)")?;
        out.flush()?;
        // The table most requests use, solved while the first page loads.
        tokio::task::spawn_blocking(|| {
            solitaire::solve_table(alea_games::yahtzee::solitaire::Rules::FreeJoker);
        });
        let stop = tokio::signal::ctrl_c();
        tokio::pin!(stop);
        loop {
            let (stream, _) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(connection) => connection,
                    // Out of file descriptors, say: the next connection may fare better.
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                _ = &mut stop => return Ok(()),
            };
            // Answers are small and whole: sent at once, not held for more.
            let _ = stream.set_nodelay(true);
            let service = TowerToHyperService::new(app.clone());
            tokio::spawn(async move {
                // A client that does not send its request's head within the limit (or
                // sits idle that long between requests) is let go: connections cannot
                // be held open for nothing.
                let _ = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEAD_WAIT)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    })
}

async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            // Nothing but this page's own script and style, and requests to this server.
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
                 connect-src 'self'; img-src data:",
            ),
        ],
        PAGE,
    )
        .into_response()
}

async fn list() -> Response {
    let endpoints: Vec<_> = api::ENDPOINTS
        .iter()
        .map(|e| {
            json!({
                "method": "POST",
                "path": format!("/api/{}", e.path),
                "command": format!("alea {}{}", e.command.join(" "), if e.json { " --json" } else { "" }),
                "about": e.about,
            })
        })
        .collect();
    json_response(StatusCode::OK, json!(endpoints).to_string())
}

async fn call(
    State(shared): State<Arc<Shared>>,
    Path(path): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let Some(endpoint) = api::endpoint(&path) else {
        return not_found().await;
    };
    let body = match body {
        Ok(body) => body,
        Err(rejection) => {
            let status = rejection.status();
            let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
                "the request body is over this server's limit (its --max-body)".to_string()
            } else {
                rejection.body_text()
            };
            return error(status, message);
        }
    };
    let command = match api::command(endpoint, &body, &shared.caps) {
        Ok(command) => command,
        Err(refusal) => return refused(refusal),
    };
    let answer = if endpoint.inline {
        // Small work (a tenth of a millisecond): done right here, as handing it to
        // another thread would cost as much again, and without a worker, so that long
        // checks never hold up an advice. (A rule set's table not solved yet holds this
        // one thread for the solve, under half a second, once.)
        api::run(command)
    } else {
        let Ok(Ok(permit)) =
            tokio::time::timeout(QUEUE_WAIT, shared.workers.clone().acquire_owned()).await
        else {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "busy: {} requests are being worked on and others wait; try again shortly",
                    shared.worker_count
                ),
            );
        };
        let answer = api::run_apart(command, shared.timeout).await;
        // The worker's turn ends with the work (a process past the timeout is killed).
        drop(permit);
        answer
    };
    match answer {
        Err(refusal) => refused(refusal),
        Ok(output) => {
            if !endpoint.json {
                return (
                    [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                    output,
                )
                    .into_response();
            }
            // Several answers (deals, properties) are JSON Lines, as on the command line.
            let lines = output.iter().filter(|&&b| b == b'\n').count();
            let mut response = Response::new(output.into());
            let kind = if lines > 1 {
                "application/x-ndjson"
            } else {
                "application/json"
            };
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
            response
        }
    }
}

async fn other_method(Path(path): Path<String>) -> Response {
    if api::endpoint(&path).is_none() {
        return not_found().await;
    }
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        "use POST with a JSON object of the command's options".to_string(),
    )
}

async fn not_found() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "no such page or endpoint; GET /api lists the endpoints".to_string(),
    )
}

fn refused(refusal: api::Refusal) -> Response {
    let status = StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    error(status, refusal.message)
}

fn error(status: StatusCode, message: String) -> Response {
    json_response(status, json!({ "error": message }).to_string())
}

fn json_response(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body + "\n",
    )
        .into_response()
}
