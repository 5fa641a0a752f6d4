//! `load mixed`: SolveBatch streams keep every solver busy (then stalled streams join them, then long
//! solves) while one client probes with sequential unary calls: what a unary caller waits under
//! batch load.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context, anyhow};
use tonic::Streaming;

use super::batch::{check_answers, stream_all};
use super::unary::{Call, ClientFigures, Probes, probes, unary_client};
use super::{file_name, print_table, rate, seconds};
use crate::cli::client::{connect, describe};
use crate::cli::input;
use sudoku_grpc::proto::SolveBatchResponse;
use sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::proto::{SolveBatchRequest, SolveRequest};

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
    /// Then measure again with this many unary calls solving the first puzzle of `--long-file`
    /// beside the streams, each allowed 100,000,000 guesses (a hard 25x25 searches for many
    /// seconds), as clients with long searches do. They are cancelled when the phase ends.
    #[arg(long, default_value_t = 0, requires = "long_file")]
    pub long: usize,
    /// The file whose first puzzle the `--long` calls solve.
    #[arg(long)]
    pub long_file: Option<PathBuf>,
    /// How long the probes run alone first: the baseline of the same run.
    #[arg(long, default_value = "3s", value_parser = humantime::parse_duration)]
    pub alone: Duration,
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

/// Unary calls with long searches, running until dropped (which cancels them).
struct LongSolves {
    calls: Vec<tokio::task::JoinHandle<()>>,
}

impl LongSolves {
    async fn start(url: &str, puzzle: &str, count: usize) -> anyhow::Result<Self> {
        let mut calls = Vec::new();
        for _ in 0..count {
            let mut client = SudokuServiceClient::new(connect(url).await?);
            let request = SolveRequest {
                puzzle: puzzle.to_owned(),
                max_guesses: 100_000_000,
                ..Default::default()
            };
            calls.push(tokio::spawn(async move {
                let _ = client.solve(request).await;
            }));
        }
        Ok(LongSolves { calls })
    }

    /// Whether a call has ended: then it was not long enough to keep the phase company.
    fn ended(&self) -> bool {
        self.calls.iter().any(|call| call.is_finished())
    }
}

impl Drop for LongSolves {
    fn drop(&mut self) {
        for call in &self.calls {
            call.abort();
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
            sudoku_grpc::sched::runtime()?.block_on(async move {
                let client = SudokuServiceClient::new(connect(&url).await?);
                let keep_going = |_| !stop.load(Ordering::Acquire);
                Ok(unary_client(
                    client,
                    probes,
                    Arc::default(),
                    keep_going,
                    Call::Solve {
                        skip_uniqueness_check: false,
                    },
                )
                .await)
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

/// Runs `load mixed`: the probes alone, then beside the streams, then (with `--stalled`) beside the
/// streams and the stalled ones; prints one table row per phase. Fails on any error or wrong answer.
pub(super) async fn load_mixed(
    url: &str,
    place: &str,
    args: &MixedArgs,
) -> anyhow::Result<ExitCode> {
    let puzzles = Arc::new(input::file_texts(&args.file, args.limit)?);
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

    if let Some(file) = args.long_file.as_deref().filter(|_| args.long > 0) {
        let puzzle = input::file_texts(file, Some(1))?
            .pop()
            .ok_or_else(|| anyhow!("{} holds no puzzle", file.display()))?;
        let long = LongSolves::start(url, &puzzle, args.long).await?;
        let name = format!("{name} + {} long solve{}", args.long, s(args.long));
        let (row, phase_failed) =
            mixed_phase(url, &name, &puzzles, streams, &probe_puzzles).await?;
        rows.push(row);
        let ended = long.ended();
        if ended {
            println!("{name}: a long solve ended before the phase did: make it longer");
        }
        failed |= phase_failed || ended;
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
