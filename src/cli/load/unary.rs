//! `load unary`: concurrent unary Solve clients, with latency percentiles and errors by status code.
//! Its client and figures also serve the probes of `load mixed`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use tonic::transport::Channel;

use super::{print_table, rate, seconds};
use crate::cli::client::connect;
use crate::cli::input;
use crate::cli::output::{Tally, answer_kind};
use sudoku_core::grid::Grid;
use sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::proto::{GradeRequest, SolveRequest, Verdict};

/// The puzzle `load unary` sends when given no file (the classic Wikipedia example).
const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

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
    #[arg(long, conflicts_with = "grade")]
    pub skip_uniqueness_check: bool,
    /// Call Grade instead of Solve (each answer must be a unique puzzle's grade, rated).
    #[arg(long)]
    pub grade: bool,
}

/// The unary call a load client makes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Call {
    /// Solve, proving uniqueness unless told to stop at the first solution.
    Solve {
        /// Stop at the first solution.
        skip_uniqueness_check: bool,
    },
    /// Grade, without the path.
    Grade,
}

/// What one unary client saw.
#[derive(Default)]
pub(super) struct ClientFigures {
    /// Every call's latency, errors included (sorted once merged).
    pub(super) latencies: Vec<Duration>,
    tally: Tally,
    /// Failed calls by status code.
    errors: BTreeMap<String, u64>,
    /// Answers whose solution does not solve the puzzle.
    pub(super) wrong: u64,
}

impl ClientFigures {
    /// All clients' figures together, latencies sorted.
    pub(super) fn merge(results: Vec<ClientFigures>) -> ClientFigures {
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

    /// Counts a failed call by its status code.
    fn error(&mut self, status: &tonic::Status) {
        *self
            .errors
            .entry(format!("{:?}", status.code()))
            .or_default() += 1;
    }

    pub(super) fn errors(&self) -> u64 {
        self.errors.values().sum()
    }

    /// The p50, p99 and max latency, of sorted latencies.
    pub(super) fn latency_cells(&self) -> [String; 3] {
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
    pub(super) fn print_outcome(&self) {
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
pub(super) type Probes = Arc<Vec<(String, Option<Grid>)>>;

/// The puzzles of `file`, or the classic example puzzle.
pub(super) fn probes(file: Option<&Path>) -> anyhow::Result<Probes> {
    let lines = match file {
        Some(path) => input::file_texts(path, None)?,
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

/// One unary client: makes `call` one call after another, with puzzle `n` of `puzzles` (taking `n`
/// from the shared counter), while `keep_going(n)` says so.
pub(super) async fn unary_client(
    mut client: SudokuServiceClient<Channel>,
    puzzles: Probes,
    next: Arc<AtomicU64>,
    keep_going: impl Fn(u64) -> bool,
    call: Call,
) -> ClientFigures {
    let mut figures = ClientFigures::default();
    loop {
        let n = next.fetch_add(1, Ordering::Relaxed);
        if !keep_going(n) {
            return figures;
        }
        let (text, grid) = &puzzles[(n % puzzles.len() as u64) as usize];
        let started = Instant::now();
        // Each answer's verdict, and whether it is wrong.
        let answer = match call {
            Call::Solve {
                skip_uniqueness_check,
            } => {
                let request = SolveRequest {
                    puzzle: text.clone(),
                    skip_uniqueness_check,
                    ..Default::default()
                };
                client.solve(request).await.map(|answer| {
                    let answer = answer.into_inner();
                    let wrong = !answer.solution.is_empty()
                        && !match (grid, Grid::parse(&answer.solution)) {
                            (Some(puzzle), Ok(solution)) => solution.solves(puzzle),
                            _ => false,
                        };
                    (answer.verdict(), wrong)
                })
            }
            Call::Grade => {
                let request = GradeRequest {
                    puzzle: text.clone(),
                    ..Default::default()
                };
                client.grade(request).await.map(|answer| {
                    let answer = answer.into_inner();
                    // A unique puzzle's grade has a rating.
                    let wrong = answer.verdict() == Verdict::Unique && answer.rating < 1.0;
                    (answer.verdict(), wrong)
                })
            }
        };
        figures.latencies.push(started.elapsed());
        match answer {
            Ok((verdict, wrong)) => {
                figures.tally.add(answer_kind(verdict));
                figures.wrong += u64::from(wrong);
            }
            Err(status) => figures.error(&status),
        }
    }
}

/// A latency as milliseconds with three decimals.
pub(super) fn millis(time: Duration) -> String {
    format!("{:.3}ms", time.as_secs_f64() * 1e3)
}

/// Runs `load unary`: concurrent Solve clients until the count or the time runs out; prints RPS and
/// latency. Fails on any error or wrong answer.
pub(super) async fn load_unary(
    url: &str,
    place: &str,
    args: &UnaryArgs,
) -> anyhow::Result<ExitCode> {
    let puzzles = probes(args.file.as_deref())?;
    let requests = match (args.requests, args.duration) {
        (Some(n), _) => n,
        (None, Some(_)) => u64::MAX,
        (None, None) => 10_000,
    };
    let concurrency = args.concurrency.max(1);
    let channels =
        futures::future::try_join_all((0..args.channels.max(1)).map(|_| connect(url))).await?;
    let call = if args.grade {
        Call::Grade
    } else {
        Call::Solve {
            skip_uniqueness_check: args.skip_uniqueness_check,
        }
    };
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
            call,
        ))
    });
    let results = futures::future::try_join_all(clients)
        .await
        .context("a client task failed")?;
    let wall = started.elapsed();
    let all = ClientFigures::merge(results);
    let calls = all.latencies.len();
    println!(
        "unary {} load: {place}, {concurrency} concurrent clients over {} connection{}",
        if args.grade { "Grade" } else { "Solve" },
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
