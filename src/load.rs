//! The `load` command: load generators against a running server (or one it starts in-process), bounded
//! in count and time, that print throughput and latency.
//!
//! - `load batch` streams whole files through SolveBatch over N parallel streams, verifies every
//!   answer after the clock stops, and with `--compare-local` measures the in-process solver on the
//!   same puzzles with the same threads in the same run, so the service's overhead is one ratio.
//! - `load unary` runs N concurrent unary Solve clients and prints RPS, latency percentiles and errors
//!   by status code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use clap::Subcommand;
use prost::Message;
use tokio::sync::oneshot;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::transport::Channel;
use tonic::{Status, Streaming};

use crate::client::{CHUNK, Tally, answer_line, connect, describe};
use crate::config::ServerConfig;
use crate::grid::Grid;
use crate::proto::sudoku_service_client::SudokuServiceClient;
use crate::proto::{SolveBatchRequest, SolveBatchResponse, SolveRequest, Verdict};
use crate::solver::{self, Mode};

/// The puzzle `load unary` sends when given no file (the classic Wikipedia example).
const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

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

/// Arguments of `load mixed`.
#[derive(Debug, clap::Args)]
pub struct MixedArgs {
    /// File of puzzles the SolveBatch streams send between them (the load).
    pub file: PathBuf,
    /// File of puzzles the unary probes send in turn; the classic example puzzle if none.
    #[arg(long)]
    pub probe_file: Option<PathBuf>,
    /// Parallel SolveBatch streams (each on its own connection).
    #[arg(long, default_value_t = 4)]
    pub streams: usize,
    /// Use only the first N puzzles of the stream file.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Then measure again with this many more SolveBatch streams connected that send puzzles of the
    /// stream file and never read an answer, as stuck or hostile clients do.
    #[arg(long, default_value_t = 0)]
    pub stalled: usize,
    /// How long the probes run alone first: the baseline of the same run.
    #[arg(long, default_value = "3s", value_parser = humantime::parse_duration)]
    pub alone: Duration,
}

/// Arguments of `load batch`.
#[derive(Debug, clap::Args)]
pub struct BatchArgs {
    /// Files of puzzles, one per line (blank and `#` lines skipped).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Parallel SolveBatch streams (each on its own connection) that split each file in chunks.
    #[arg(long, default_value_t = 2)]
    pub streams: usize,
    /// Stop at the first solution instead of proving it is the only one.
    #[arg(long)]
    pub skip_uniqueness_check: bool,
    /// Use only the first N puzzles of each file.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Also solve each file in-process (`bench --threads N` style) in the same run and print the
    /// SolveBatch throughput as a ratio of it.
    #[arg(long)]
    pub compare_local: bool,
    /// Threads of the in-process comparison.
    #[arg(long, default_value_t = 2)]
    pub local_threads: usize,
    /// Runs of each file (alternating with the in-process solve, if asked); the table shows the
    /// medians, since one run of a fast set takes a fraction of a second and machines drift.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
}

/// Arguments of `load unary`.
#[derive(Debug, clap::Args)]
pub struct UnaryArgs {
    /// File of puzzles, sent in turn; the classic example puzzle if none.
    pub file: Option<PathBuf>,
    /// Concurrent clients (calls in flight).
    #[arg(long, default_value_t = 16)]
    pub concurrency: usize,
    /// Calls to make in all (10,000 if neither this nor --duration is given).
    #[arg(long)]
    pub requests: Option<u64>,
    /// How long to run, e.g. `10s`.
    #[arg(long, value_parser = humantime::parse_duration)]
    pub duration: Option<Duration>,
    /// Connections the clients share.
    #[arg(long, default_value_t = 1)]
    pub channels: usize,
    /// Stop at the first solution instead of proving it is the only one.
    #[arg(long)]
    pub skip_uniqueness_check: bool,
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
        let runtime = crate::sched::runtime()?;
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("server".to_owned())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener)?;
                    let stopped = async {
                        let _ = stopped.await;
                    };
                    crate::server::serve(listener, ServerConfig::with_addr(addr), stopped).await?;
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
        || crate::client::server_url(&args.server),
        |s| s.url.clone(),
    );
    let place = if spawned.is_some() {
        format!("{url} (in-process server)")
    } else {
        url.clone()
    };
    let result = match &args.command {
        Command::Batch(batch) => load_batch(&url, &place, batch).await,
        Command::Unary(unary) => load_unary(&url, &place, unary).await,
        Command::Mixed(mixed) => load_mixed(&url, &place, mixed).await,
    };
    if let Some(spawned) = spawned {
        spawned.stop().await;
    }
    result
}

/// Reads a file's puzzles (see [`crate::puzzles`]), at most `limit` of them.
fn read_lines(path: &Path, limit: Option<usize>) -> anyhow::Result<Vec<String>> {
    let lines = crate::puzzles::read(path, limit)?;
    Ok(lines.into_iter().map(|line| line.text).collect())
}

/// Throughput in puzzles per second.
fn rate(count: usize, time: Duration) -> f64 {
    count as f64 / time.as_secs_f64().max(1e-9)
}

/// Cells in the grids the text reader reads (9x9): the length of a solution line.
const LINE: usize = 81;

/// One answer of a batch, kept for checking after the clock stops.
struct Answer {
    index: u64,
    verdict: Verdict,
    solution: Solution,
    error: String,
}

/// A solution as received, kept without an allocation of its own when it is one 9x9 line.
enum Solution {
    /// One line of 81 cells, the usual answer.
    Line([u8; LINE]),
    /// Anything else (none, or text of another length), as it came.
    Text(String),
}

impl Solution {
    fn new(text: &str) -> Solution {
        match <[u8; LINE]>::try_from(text.as_bytes()) {
            Ok(line) => Solution::Line(line),
            Err(_) => Solution::Text(text.to_owned()),
        }
    }

    fn as_str(&self) -> &str {
        match self {
            // The bytes came from a `String`, so they are UTF-8.
            Solution::Line(line) => std::str::from_utf8(line).unwrap_or_default(),
            Solution::Text(text) => text,
        }
    }
}

/// The load client's SolveBatch codec. On the wire it is the generated client's (prost) exactly,
/// but it costs the client less per message, since the client shares the machine with the server
/// it measures: a request is encoded from its puzzle's index into the shared list through one
/// reused message, and each answer is decoded into one reused message and kept as an [`Answer`]
/// whose id is already a number.
struct LoadCodec {
    puzzles: Arc<Vec<String>>,
    skip_uniqueness_check: bool,
}

impl Codec for LoadCodec {
    type Encode = u64;
    type Decode = Answer;
    type Encoder = RequestEncoder;
    type Decoder = AnswerDecoder;

    fn encoder(&mut self) -> RequestEncoder {
        RequestEncoder {
            puzzles: self.puzzles.clone(),
            message: SolveBatchRequest {
                skip_uniqueness_check: self.skip_uniqueness_check,
                ..Default::default()
            },
        }
    }

    fn decoder(&mut self) -> AnswerDecoder {
        AnswerDecoder {
            message: SolveBatchResponse::default(),
        }
    }
}

/// Encodes puzzle `i` of the list as a request with id `i`.
struct RequestEncoder {
    puzzles: Arc<Vec<String>>,
    /// Reused for every request, so its strings keep their buffers.
    message: SolveBatchRequest,
}

impl Encoder for RequestEncoder {
    type Item = u64;
    type Error = Status;

    fn encode(&mut self, index: u64, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        use std::fmt::Write;
        let puzzle = usize::try_from(index)
            .ok()
            .and_then(|i| self.puzzles.get(i))
            .ok_or_else(|| Status::internal(format!("no puzzle {index}")))?;
        self.message.id.clear();
        // Writing to a String cannot fail.
        let _ = write!(self.message.id, "{index}");
        self.message.puzzle.clear();
        self.message.puzzle.push_str(puzzle);
        self.message
            .encode(dst)
            .map_err(|e| Status::internal(format!("cannot encode a request: {e}")))
    }
}

/// Decodes answers into one reused message, then keeps what the check needs.
struct AnswerDecoder {
    message: SolveBatchResponse,
}

impl Decoder for AnswerDecoder {
    type Item = Answer;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Answer>, Status> {
        self.message.clear();
        self.message
            .merge(src)
            .map_err(|e| Status::internal(format!("cannot decode an answer: {e}")))?;
        let index = self.message.id.parse().map_err(|_| {
            Status::internal(format!("an answer has a foreign id {:?}", self.message.id))
        })?;
        Ok(Some(Answer {
            index,
            verdict: self.message.verdict(),
            solution: Solution::new(&self.message.solution),
            error: std::mem::take(&mut self.message.error),
        }))
    }
}

/// The indices of the puzzles (of `count`) that stream `stream` of `streams` sends, in order:
/// chunk `k` of [`CHUNK`] puzzles goes to stream `k % streams`.
fn stream_share(count: u64, stream: usize, streams: usize) -> impl Iterator<Item = u64> + Clone {
    (0..count).filter(move |i| ((i / CHUNK) % streams as u64) as usize == stream)
}

/// Streams `puzzles` through SolveBatch over `streams` streams, chunk `k` on stream `k % streams`,
/// and checks that each stream answers each of its puzzles once, in order.
/// Returns each stream's answers and the wall time.
async fn stream_all(
    url: &str,
    puzzles: &Arc<Vec<String>>,
    streams: usize,
    skip_uniqueness_check: bool,
) -> anyhow::Result<(Vec<Vec<Answer>>, Duration)> {
    let streams = streams.max(1);
    let channels = futures::future::try_join_all((0..streams).map(|_| connect(url))).await?;
    let started = Instant::now();
    let calls = channels.into_iter().enumerate().map(|(s, channel)| {
        let codec = LoadCodec {
            puzzles: puzzles.clone(),
            skip_uniqueness_check,
        };
        let share = stream_share(puzzles.len() as u64, s, streams);
        let url = url.to_owned();
        tokio::spawn(async move {
            let mut expected = share.clone();
            let mut got = Vec::with_capacity(share.clone().count());
            let mut grpc = tonic::client::Grpc::new(channel);
            grpc.ready()
                .await
                .map_err(|e| anyhow!("{url}: not ready: {e}"))?;
            let mut request = tonic::Request::new(futures::stream::iter(share));
            request.extensions_mut().insert(tonic::GrpcMethod::new(
                "sudoku.v1.SudokuService",
                "SolveBatch",
            ));
            let path = http::uri::PathAndQuery::from_static("/sudoku.v1.SudokuService/SolveBatch");
            let mut answers: Streaming<Answer> = grpc
                .streaming(request, path, codec)
                .await
                .map_err(|status| anyhow!("{url}: SolveBatch failed: {}", describe(&status)))?
                .into_inner();
            while let Some(answer) = answers.message().await.map_err(|status| {
                anyhow!(
                    "{url}: stream {s} failed after {} answers: {}",
                    got.len(),
                    describe(&status)
                )
            })? {
                match expected.next() {
                    Some(index) if index == answer.index => got.push(answer),
                    Some(index) => bail!(
                        "{url}: stream {s}: answer {} is for puzzle {}, expected {index}",
                        got.len(),
                        answer.index
                    ),
                    None => bail!("{url}: stream {s}: more answers than puzzles sent"),
                }
            }
            anyhow::Ok(got)
        })
    });
    let results = futures::future::try_join_all(calls)
        .await
        .context("a stream task failed")?;
    let wall = started.elapsed();
    let answers = results.into_iter().collect::<anyhow::Result<_>>()?;
    Ok((answers, wall))
}

/// Checks the answers against the puzzles: one per puzzle, each solution a valid grid keeping the
/// givens. Returns the tally by verdict and the problems found (at most a few described).
fn check_answers(puzzles: &[String], answers: &[Vec<Answer>]) -> (Tally, u64, Vec<String>) {
    let mut tally = Tally::default();
    let mut wrong = 0u64;
    let mut problems = Vec::new();
    let mut seen = vec![false; puzzles.len()];
    let mut report = |wrong: &mut u64, problem: String| {
        *wrong += 1;
        if problems.len() < 5 {
            problems.push(problem);
        }
    };
    for answer in answers.iter().flatten() {
        let solution = answer.solution.as_str();
        let (_, kind) = answer_line(answer.verdict, solution, &answer.error);
        tally.add(kind);
        let Some(puzzle) = usize::try_from(answer.index)
            .ok()
            .and_then(|i| puzzles.get(i))
        else {
            report(
                &mut wrong,
                format!("answer for unknown puzzle {}", answer.index),
            );
            continue;
        };
        let at = answer.index as usize;
        if std::mem::replace(&mut seen[at], true) {
            report(&mut wrong, format!("puzzle {at} answered twice"));
        }
        if solution.is_empty() {
            continue;
        }
        let solves = match (Grid::parse(puzzle), Grid::parse(solution)) {
            (Ok(puzzle), Ok(solution)) => solution.solves(&puzzle),
            _ => false,
        };
        if !solves {
            report(
                &mut wrong,
                format!("puzzle {at}: {solution} does not solve it"),
            );
        }
    }
    let missing = seen.iter().filter(|s| !**s).count() as u64;
    if missing > 0 {
        report(&mut wrong, format!("{missing} puzzles got no answer"));
    }
    (tally, wrong, problems)
}

/// Solves `grids` in-process on `threads` threads, split in contiguous parts as `bench --threads`
/// does; returns the wall time.
fn solve_locally(grids: &[Grid], mode: Mode, threads: usize) -> Duration {
    let threads = threads.clamp(1, grids.len().max(1));
    let part = grids.len().div_ceil(threads);
    let options = solver::Options {
        mode,
        max_guesses: None,
        cancel: None,
    };
    let started = Instant::now();
    std::thread::scope(|scope| {
        for chunk in grids.chunks(part.max(1)) {
            scope.spawn(move || {
                for grid in chunk {
                    std::hint::black_box(solver::solve(grid, &options));
                }
            });
        }
    });
    started.elapsed()
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

/// The median of some rates (sorting them).
fn median(rates: &mut [f64]) -> f64 {
    rates.sort_by(f64::total_cmp);
    rates.get(rates.len() / 2).copied().unwrap_or(0.0)
}

/// A table cell for some rounds' rates: the median, and the range when there are several.
fn rate_cell(rates: &mut [f64]) -> String {
    let mid = median(rates);
    match (rates.first(), rates.last()) {
        (Some(low), Some(high)) if rates.len() > 1 => format!("{mid:.0} [{low:.0}-{high:.0}]"),
        _ => format!("{mid:.0}"),
    }
}

async fn load_batch(url: &str, place: &str, args: &BatchArgs) -> anyhow::Result<ExitCode> {
    let mode = if args.skip_uniqueness_check {
        Mode::FirstSolution
    } else {
        Mode::ProveUnique
    };
    let mode_name = match mode {
        Mode::ProveUnique => "uniqueness",
        Mode::FirstSolution => "first solution",
    };
    println!(
        "SolveBatch load: {place}, {} stream{}, {mode_name} mode",
        args.streams.max(1),
        if args.streams > 1 { "s" } else { "" }
    );
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut failed = false;
    let rounds = args.rounds.max(1);
    for path in &args.files {
        let puzzles = Arc::new(read_lines(path, args.limit)?);
        let grids: Arc<Vec<Grid>> = Arc::new(
            puzzles
                .iter()
                .filter_map(|p| Grid::parse_puzzle(p).ok())
                .collect(),
        );
        let name = file_name(path);
        let (mut streamed, mut local) = (Vec::new(), Vec::new());
        let (mut tally, mut wrong, mut problems) = (Tally::default(), 0, Vec::new());
        // Rounds alternate the service and the in-process solve, so both see the same minutes.
        for _ in 0..rounds {
            let (answers, wall) =
                stream_all(url, &puzzles, args.streams, args.skip_uniqueness_check).await?;
            streamed.push(rate(puzzles.len(), wall));
            let round = check_answers(&puzzles, &answers);
            (tally, wrong, problems) = (round.0, wrong + round.1, [problems, round.2].concat());
            if args.compare_local {
                let (grids, solved) = (grids.clone(), grids.len());
                let threads = args.local_threads;
                let wall =
                    tokio::task::spawn_blocking(move || solve_locally(&grids, mode, threads))
                        .await
                        .context("the local solve failed")?;
                local.push(rate(solved, wall));
            }
        }
        notes.push(if rounds > 1 {
            format!("{name}: {tally} in the last round; {wrong} wrong in all {rounds} rounds")
        } else {
            format!("{name}: {tally}; {wrong} wrong")
        });
        notes.extend(
            problems
                .into_iter()
                .take(5)
                .map(|problem| format!("  {problem}")),
        );
        failed |= wrong > 0;
        let mut row = vec![name, puzzles.len().to_string(), rate_cell(&mut streamed)];
        if args.compare_local {
            row.push(rate_cell(&mut local));
            row.push(format!(
                "{:.1}%",
                100.0 * median(&mut streamed) / median(&mut local).max(1e-9)
            ));
        }
        rows.push(row);
    }
    let mut header = vec!["file", "puzzles", "SolveBatch boards/s"];
    if args.compare_local {
        header.extend(["in-process boards/s", "SolveBatch / in-process"]);
    }
    println!();
    print_table(&header, &rows);
    if args.compare_local {
        println!(
            "(in-process: the solver alone on {} thread{}, same puzzles and mode, same run; rates are \
             medians of {rounds} alternated round{}, ranges in brackets, the ratio is of the medians)",
            args.local_threads,
            if args.local_threads == 1 { "" } else { "s" },
            if rounds == 1 { "" } else { "s" }
        );
    }
    println!();
    println!("answers by verdict:");
    for note in notes {
        println!("  {note}");
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
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

/// What one unary client saw.
#[derive(Default)]
struct ClientFigures {
    latencies: Vec<Duration>,
    tally: Tally,
    errors: BTreeMap<String, u64>,
    wrong: u64,
}

impl ClientFigures {
    /// All clients' figures together, latencies sorted.
    fn merge(results: Vec<ClientFigures>) -> ClientFigures {
        let mut all = ClientFigures::default();
        for figures in results {
            all.latencies.extend(figures.latencies);
            for (kind, n) in figures.tally.counts {
                *all.tally.counts.entry(kind).or_default() += n;
            }
            for (code, n) in figures.errors {
                *all.errors.entry(code).or_default() += n;
            }
            all.wrong += figures.wrong;
        }
        all.latencies.sort_unstable();
        all
    }

    fn errors(&self) -> u64 {
        self.errors.values().sum()
    }

    /// The p50, p99 and max latency, of sorted latencies.
    fn latency_cells(&self) -> [String; 3] {
        let calls = self.latencies.len();
        let percentile = |pct: usize| {
            self.latencies
                .get((calls * pct / 100).min(calls.saturating_sub(1)))
                .copied()
                .unwrap_or_default()
        };
        [
            millis(percentile(50)),
            millis(percentile(99)),
            millis(self.latencies.last().copied().unwrap_or_default()),
        ]
    }

    /// Prints the answers by verdict and the errors by status code.
    fn print_outcome(&self) {
        println!("answers by verdict: {}; {} wrong", self.tally, self.wrong);
        if self.errors.is_empty() {
            println!("errors by status code: none");
        } else {
            let list: Vec<String> = self
                .errors
                .iter()
                .map(|(code, n)| format!("{n} {code}"))
                .collect();
            println!("errors by status code: {}", list.join(", "));
        }
    }
}

/// Puzzles for unary calls, each with its grid (if it reads) to check answers against.
type Probes = Arc<Vec<(String, Option<Grid>)>>;

/// The puzzles of `file`, or the classic example puzzle.
fn probes(file: Option<&Path>) -> anyhow::Result<Probes> {
    let lines = match file {
        Some(path) => read_lines(path, None)?,
        None => vec![CLASSIC.to_owned()],
    };
    Ok(Arc::new(
        lines
            .into_iter()
            .map(|line| {
                let grid = Grid::parse(&line).ok();
                (line, grid)
            })
            .collect(),
    ))
}

/// One unary client: calls Solve one call after another, with puzzle `n` of `puzzles` (taking `n`
/// from the shared counter), while `keep_going(n)` says so.
async fn unary_client(
    mut client: SudokuServiceClient<Channel>,
    puzzles: Probes,
    next: Arc<AtomicU64>,
    keep_going: impl Fn(u64) -> bool,
    skip_uniqueness_check: bool,
) -> ClientFigures {
    let mut figures = ClientFigures::default();
    loop {
        let n = next.fetch_add(1, Ordering::Relaxed);
        if !keep_going(n) {
            return figures;
        }
        let (text, grid) = &puzzles[(n % puzzles.len() as u64) as usize];
        let request = SolveRequest {
            puzzle: text.clone(),
            skip_uniqueness_check,
            ..Default::default()
        };
        let started = Instant::now();
        let result = client.solve(request).await;
        figures.latencies.push(started.elapsed());
        match result {
            Ok(answer) => {
                let answer = answer.into_inner();
                let (_, kind) = answer_line(answer.verdict(), &answer.solution, "");
                figures.tally.add(kind);
                if !answer.solution.is_empty() {
                    let solves = match (grid, Grid::parse(&answer.solution)) {
                        (Some(puzzle), Ok(solution)) => solution.solves(puzzle),
                        _ => false,
                    };
                    figures.wrong += u64::from(!solves);
                }
            }
            Err(status) => {
                *figures
                    .errors
                    .entry(format!("{:?}", status.code()))
                    .or_default() += 1;
            }
        }
    }
}

fn millis(time: Duration) -> String {
    format!("{:.3}ms", time.as_secs_f64() * 1e3)
}

async fn load_unary(url: &str, place: &str, args: &UnaryArgs) -> anyhow::Result<ExitCode> {
    let puzzles = probes(args.file.as_deref())?;
    let requests = match (args.requests, args.duration) {
        (Some(n), _) => n,
        (None, Some(_)) => u64::MAX,
        (None, None) => 10_000,
    };
    let concurrency = args.concurrency.max(1);
    let channels =
        futures::future::try_join_all((0..args.channels.max(1)).map(|_| connect(url))).await?;
    let next = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let until = args.duration.map(|d| started + d);
    let keep_going = move |n: u64| n < requests && until.is_none_or(|until| Instant::now() < until);
    let clients = (0..concurrency).map(|c| {
        tokio::spawn(unary_client(
            SudokuServiceClient::new(channels[c % channels.len()].clone()),
            puzzles.clone(),
            next.clone(),
            keep_going,
            args.skip_uniqueness_check,
        ))
    });
    let results = futures::future::try_join_all(clients)
        .await
        .context("a client task failed")?;
    let wall = started.elapsed();
    let all = ClientFigures::merge(results);
    let calls = all.latencies.len();
    println!(
        "unary Solve load: {place}, {concurrency} concurrent clients over {} connection{}",
        channels.len(),
        if channels.len() == 1 { "" } else { "s" }
    );
    println!();
    let [p50, p99, max] = all.latency_cells();
    print_table(
        &["calls", "time", "RPS", "p50", "p99", "max", "errors"],
        &[vec![
            calls.to_string(),
            seconds(wall),
            format!("{:.0}", rate(calls, wall)),
            p50,
            p99,
            max,
            all.errors().to_string(),
        ]],
    );
    println!();
    all.print_outcome();
    Ok(if all.errors() > 0 || all.wrong > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// SolveBatch streams that send puzzles and never read an answer, each on its own connection with
/// a small receive window, so the server soon has to stop sending to them.
struct StalledStreams {
    _answers: Vec<Streaming<SolveBatchResponse>>,
    taken: Arc<AtomicU64>,
}

impl StalledStreams {
    async fn open(url: &str, puzzles: &Arc<Vec<String>>, count: usize) -> anyhow::Result<Self> {
        let taken = Arc::new(AtomicU64::new(0));
        let mut answers = Vec::new();
        for _ in 0..count {
            let channel = tonic::transport::Endpoint::from_shared(url.to_owned())?
                .initial_stream_window_size(16 * 1024)
                .initial_connection_window_size(16 * 1024)
                .connect()
                .await
                .with_context(|| format!("cannot connect to {url}"))?;
            let (puzzles, taken) = (puzzles.clone(), taken.clone());
            let requests = futures::stream::iter((0..puzzles.len()).map(move |i| {
                taken.fetch_add(1, Ordering::Relaxed);
                SolveBatchRequest {
                    id: i.to_string(),
                    puzzle: puzzles[i].clone(),
                    ..Default::default()
                }
            }));
            let response = SudokuServiceClient::new(channel)
                .solve_batch(requests)
                .await
                .map_err(|status| anyhow!("{url}: SolveBatch failed: {}", describe(&status)))?;
            answers.push(response.into_inner());
        }
        Ok(StalledStreams {
            _answers: answers,
            taken,
        })
    }

    /// Waits until the server takes no more of their requests: they are stalled.
    async fn settle(&self) {
        let mut last = u64::MAX;
        loop {
            let taken = self.taken.load(Ordering::Relaxed);
            if taken == last {
                return;
            }
            last = taken;
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
}

/// One phase of `load mixed`: the streams run through the puzzles while the prober calls. Returns a
/// row of the table and whether any answer was wrong or missing.
async fn mixed_phase(
    url: &str,
    name: &str,
    puzzles: &Arc<Vec<String>>,
    streams: usize,
    probes: &Probes,
) -> anyhow::Result<(Vec<String>, bool)> {
    let prober = Prober::start(url, probes);
    let batch = stream_all(url, puzzles, streams, false).await;
    let probing = prober.finish().await?;
    let (answers, wall) = batch.context("the SolveBatch streams failed")?;
    let (tally, wrong, problems) = check_answers(puzzles, &answers);
    println!("{name}: SolveBatch answers: {tally}; {wrong} wrong");
    for problem in problems {
        println!("  {problem}");
    }
    let row = probe_row(name, Some((puzzles.len(), wall)), probing);
    Ok((row.0, row.1 || wrong > 0))
}

/// The client that probes with sequential unary calls, on a runtime and threads of its own as if on
/// another machine: the streams' client tasks never queue in front of it, so its latencies are the
/// server's.
struct Prober {
    done: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<anyhow::Result<ClientFigures>>,
}

impl Prober {
    /// Starts calling, until [`Prober::finish`].
    fn start(url: &str, probes: &Probes) -> Prober {
        let done = Arc::new(AtomicBool::new(false));
        let (url, probes, stop) = (url.to_owned(), probes.clone(), done.clone());
        let thread = std::thread::spawn(move || {
            crate::sched::runtime()?.block_on(async move {
                let client = SudokuServiceClient::new(connect(&url).await?);
                let keep_going = |_| !stop.load(Ordering::Acquire);
                Ok(unary_client(client, probes, Arc::default(), keep_going, false).await)
            })
        });
        Prober { done, thread }
    }

    /// Stops after the call in hand, and returns the figures.
    async fn finish(self) -> anyhow::Result<ClientFigures> {
        self.done.store(true, Ordering::Release);
        let thread = self.thread;
        tokio::task::spawn_blocking(move || thread.join())
            .await?
            .map_err(|_| anyhow!("the prober panicked"))?
    }
}

/// A table row of unary probe figures, after the batch figures if any; and whether a probe failed.
fn probe_row(
    name: &str,
    batch: Option<(usize, Duration)>,
    probing: ClientFigures,
) -> (Vec<String>, bool) {
    let probes = ClientFigures::merge(vec![probing]);
    let [p50, p99, max] = probes.latency_cells();
    let (rate_cell, time_cell) = match batch {
        Some((count, wall)) => (format!("{:.0}", rate(count, wall)), seconds(wall)),
        None => ("-".to_owned(), "-".to_owned()),
    };
    let failed = probes.errors() > 0 || probes.wrong > 0;
    if failed {
        print!("{name}: unary ");
        probes.print_outcome();
    }
    let row = vec![
        name.to_owned(),
        rate_cell,
        time_cell,
        probes.latencies.len().to_string(),
        p50,
        p99,
        max,
        probes.errors().to_string(),
    ];
    (row, failed)
}

async fn load_mixed(url: &str, place: &str, args: &MixedArgs) -> anyhow::Result<ExitCode> {
    let puzzles = Arc::new(read_lines(&args.file, args.limit)?);
    let probe_puzzles = probes(args.probe_file.as_deref())?;
    let streams = args.streams.max(1);
    let s = |n: usize| if n == 1 { "" } else { "s" };
    println!(
        "mixed load: {place}; {streams} SolveBatch stream{} of {} ({} puzzles); one client probing \
         with sequential unary Solve calls of {}",
        s(streams),
        file_name(&args.file),
        puzzles.len(),
        args.probe_file
            .as_deref()
            .map_or_else(|| "the classic puzzle".to_owned(), file_name),
    );
    let mut rows = Vec::new();
    let mut failed = false;

    let prober = Prober::start(url, &probe_puzzles);
    // The phase lasts this long: a span of time, not a wait for some state.
    tokio::time::sleep(args.alone).await;
    let alone = prober.finish().await?;
    let (row, probe_failed) = probe_row("probes alone", None, alone);
    rows.push(row);
    failed |= probe_failed;

    let name = format!("{streams} stream{}", s(streams));
    let (row, phase_failed) = mixed_phase(url, &name, &puzzles, streams, &probe_puzzles).await?;
    rows.push(row);
    failed |= phase_failed;

    if args.stalled > 0 {
        let stalled = StalledStreams::open(url, &puzzles, args.stalled).await?;
        stalled.settle().await;
        let name = format!("{name} + {} stalled", args.stalled);
        let (row, phase_failed) =
            mixed_phase(url, &name, &puzzles, streams, &probe_puzzles).await?;
        rows.push(row);
        failed |= phase_failed;
        drop(stalled);
    }

    println!();
    print_table(
        &[
            "phase",
            "SolveBatch boards/s",
            "time",
            "unary calls",
            "unary p50",
            "unary p99",
            "unary max",
            "unary errors",
        ],
        &rows,
    );
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
