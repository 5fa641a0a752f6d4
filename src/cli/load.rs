//! The `load` command: load generators against a running server (or one it starts in-process), bounded
//! in count and time, that print throughput and latency.
//!
//! - `load batch` streams whole files through SolveBatch over N parallel streams, verifies every
//!   answer after the clock stops, and with `--compare-local` measures the in-process solver on the
//!   same puzzles with the same threads in the same run, so the service's overhead is one ratio.
//! - `load unary` runs N concurrent unary Solve clients and prints RPS, latency percentiles and errors
//!   by status code.
//! - `load mixed` keeps the server busy with SolveBatch streams (and stalled ones) while it probes
//!   with sequential unary calls.

mod batch;
mod codec;
mod mixed;
mod unary;

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Subcommand;
use tokio::sync::oneshot;

pub use batch::BatchArgs;
pub use mixed::MixedArgs;
pub use unary::UnaryArgs;

use sudoku_grpc::config::ServerConfig;

/// Arguments of the `load` subcommand.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    sudoku-grpc load --spawn-server batch --compare-local ../shared/data/17_clue.txt\n  \
    sudoku-grpc load --server http://127.0.0.1:50051 batch --streams 4 puzzles.txt\n  \
    sudoku-grpc load unary --concurrency 32 --duration 10s tests/data/17_clue_sample.txt\n  \
    sudoku-grpc load --spawn-server mixed --streams 4 --probe-file ../shared/data/17_clue.txt \
    ../shared/data/forum_hardest_1905_11plus.txt")]
pub struct Args {
    /// The server: a URL, or `HOST:PORT` for plain HTTP/2.
    #[arg(
        long,
        env = "SUDOKU_SERVER",
        default_value = "http://127.0.0.1:50051",
        global = true
    )]
    pub server: String,
    /// Start a server in-process on 127.0.0.1 (default settings) and load it instead of `--server`,
    /// so one command measures the service and, with `--compare-local`, the solver alone.
    #[arg(long, global = true)]
    pub spawn_server: bool,
    /// Which load to generate.
    #[command(subcommand)]
    pub command: Command,
}

/// The `load` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Stream each file through SolveBatch over parallel streams; verify every answer; print
    /// boards/s, total time and answers by verdict.
    Batch(BatchArgs),
    /// Run concurrent unary Solve clients; print RPS, p50/p99/max latency and errors by status code.
    Unary(UnaryArgs),
    /// Saturate the server with SolveBatch streams and meanwhile probe it with sequential unary
    /// calls; print the streams' boards/s and the probes' latency (p50/p99/max): what a unary
    /// caller waits while batch work keeps every solver busy.
    Mixed(MixedArgs),
}

/// A server started in-process for the run, on a tokio runtime and threads of its own, as a server
/// process would have: the load client's tasks never queue in front of the server's, so the figures
/// are the server's and not the client's scheduling.
struct Spawned {
    url: String,
    stop: oneshot::Sender<()>,
    thread: std::thread::JoinHandle<anyhow::Result<()>>,
}

impl Spawned {
    async fn start() -> anyhow::Result<Spawned> {
        let listener =
            std::net::TcpListener::bind("127.0.0.1:0").context("cannot listen on 127.0.0.1")?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let runtime = sudoku_grpc::sched::runtime()?;
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("server".to_owned())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener)?;
                    let stopped = async {
                        let _ = stopped.await;
                    };
                    sudoku_grpc::server::serve(listener, ServerConfig::with_addr(addr), stopped)
                        .await?;
                    anyhow::Ok(())
                })
            })?;
        Ok(Spawned {
            url: format!("http://{addr}"),
            stop,
            thread,
        })
    }

    /// Stops the server and waits (at most 5 s) for it to finish.
    async fn stop(self) {
        let _ = self.stop.send(());
        let thread = self.thread;
        let _ = tokio::time::timeout(
            Duration::from_secs(5),
            tokio::task::spawn_blocking(move || thread.join()),
        )
        .await;
    }
}

/// Runs the `load` subcommand.
pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let spawned = if args.spawn_server {
        Some(Spawned::start().await?)
    } else {
        None
    };
    let url = spawned.as_ref().map_or_else(
        || super::client::server_url(&args.server),
        |s| s.url.clone(),
    );
    let place = if spawned.is_some() {
        format!("{url} (in-process server)")
    } else {
        url.clone()
    };
    let result = match &args.command {
        Command::Batch(batch) => batch::load_batch(&url, &place, batch).await,
        Command::Unary(unary) => unary::load_unary(&url, &place, unary).await,
        Command::Mixed(mixed) => mixed::load_mixed(&url, &place, mixed).await,
    };
    if let Some(spawned) = spawned {
        spawned.stop().await;
    }
    result
}

/// Throughput in puzzles per second.
fn rate(count: usize, time: Duration) -> f64 {
    count as f64 / time.as_secs_f64().max(1e-9)
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

fn seconds(time: Duration) -> String {
    format!("{:.3}s", time.as_secs_f64())
}

/// Prints a Markdown table, columns padded, numbers right-aligned.
fn print_table(header: &[&str], rows: &[Vec<String>]) {
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(String::len)
                .chain([header[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<String>| {
        let cells: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c == 0 {
                    format!("{cell:<w$}", w = widths[c])
                } else {
                    format!("{cell:>w$}", w = widths[c])
                }
            })
            .collect();
        println!("| {} |", cells.join(" | "));
    };
    line(header.iter().map(|h| (*h).to_owned()).collect());
    println!(
        "|{}|",
        widths
            .iter()
            .enumerate()
            .map(|(c, w)| if c == 0 {
                format!("-{}-", "-".repeat(*w))
            } else {
                format!("-{}:", "-".repeat(*w))
            })
            .collect::<Vec<_>>()
            .join("|")
    );
    for row in rows {
        line(row.clone());
    }
}
