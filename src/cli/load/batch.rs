//! `load batch`: whole files through SolveBatch over parallel streams, every answer checked, and the
//! in-process solver on the same puzzles in alternated rounds for the service's ratio.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use tonic::Streaming;

use super::codec::{Answer, LoadCodec};
use super::{file_name, print_table, rate};
use crate::cli::client::batch::CHUNK;
use crate::cli::client::{connect, describe};
use crate::cli::input;
use crate::cli::output::{Tally, answer_kind, mode_name};
use sudoku_core::grid::Grid;
use sudoku_core::solver::{self, Mode};

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

/// The indices of the puzzles (of `count`) that stream `stream` of `streams` sends, in order:
/// chunk `k` of [`CHUNK`] puzzles goes to stream `k % streams`.
fn stream_share(count: u64, stream: usize, streams: usize) -> impl Iterator<Item = u64> + Clone {
    let stride = CHUNK * streams as u64;
    (stream as u64 * CHUNK..count)
        .step_by(usize::try_from(stride).unwrap_or(usize::MAX))
        .flat_map(move |start| start..count.min(start + CHUNK))
}

/// Streams `puzzles` through SolveBatch over `streams` streams, chunk `k` on stream `k % streams`,
/// and checks that each stream answers each of its puzzles once, in order (each answer's `index`
/// is its item's place in the stream). Returns each stream's answers, each with its puzzle's place
/// in `puzzles` as its index, and the wall time.
pub(super) async fn stream_all(
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
                    Some(index) if answer.index == got.len() as u64 => {
                        got.push(Answer { index, ..answer })
                    }
                    Some(_) => bail!(
                        "{url}: stream {s}: answer {} is for item {}",
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
pub(super) fn check_answers(
    puzzles: &[String],
    answers: &[Vec<Answer>],
) -> (Tally, u64, Vec<String>) {
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
        tally.add(answer_kind(answer.verdict));
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

/// Runs `load batch`: each file through SolveBatch (and in-process, with `--compare-local`) in
/// rounds; prints the table of rates and the answers by verdict. Fails on any wrong answer.
pub(super) async fn load_batch(
    url: &str,
    place: &str,
    args: &BatchArgs,
) -> anyhow::Result<ExitCode> {
    let mode = if args.skip_uniqueness_check {
        Mode::FirstSolution
    } else {
        Mode::ProveUnique
    };
    println!(
        "SolveBatch load: {place}, {} stream{}, {} mode",
        args.streams.max(1),
        if args.streams > 1 { "s" } else { "" },
        mode_name(mode)
    );
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut failed = false;
    let rounds = args.rounds.max(1);
    for path in &args.files {
        let puzzles = Arc::new(input::file_texts(path, args.limit)?);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streams_share_every_puzzle_once_a_chunk_each_in_turn() {
        for (count, streams) in [(0, 2), (1, 3), (CHUNK * 5 + 7, 2), (CHUNK * 7, 3), (10, 1)] {
            let mut all = Vec::new();
            for stream in 0..streams {
                let share: Vec<u64> = stream_share(count, stream, streams).collect();
                assert!(
                    share.is_sorted(),
                    "stream {stream} of {streams} out of order"
                );
                assert!(
                    share
                        .iter()
                        .all(|i| (i / CHUNK) % streams as u64 == stream as u64),
                    "stream {stream} of {streams} took another stream's chunk"
                );
                all.extend(share);
            }
            all.sort_unstable();
            assert_eq!(
                all,
                (0..count).collect::<Vec<_>>(),
                "{count} puzzles, {streams} streams"
            );
        }
    }
}
