//! `client batch`: a file of puzzles through SolveBatch, optionally spread over several servers with
//! the output order kept.
//!
//! Spreading works on chunks: the input's puzzles are numbered as they are read, cut into chunks of
//! [`CHUNK`] puzzles, and chunk `k` goes to endpoint `k % n`, each endpoint over its own connection
//! and one SolveBatch stream. Each stream answers in its own request order, so the writer knows which
//! stream holds the next answer and reads them in turn; every channel on the way is bounded, so the
//! whole file is never in memory and a slow reader slows the servers down instead of filling buffers.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use tokio::io::AsyncBufRead;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::{Args, connect_with, decorate, describe, resolve};
use crate::cli::args::FormatArgs;
use crate::cli::input::{self, PuzzleReader};
use crate::cli::output::{Tally, answer_line};
use sudoku_grpc::proto::SolveBatchRequest;
use sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient;

/// Puzzles per chunk when a file is spread over several endpoints.
pub const CHUNK: u64 = 256;

/// Arguments of `client batch`.
#[derive(Debug, clap::Args)]
pub struct BatchArgs {
    /// File of puzzles, one per line; `-` or nothing for stdin.
    pub file: Option<PathBuf>,
    /// Stop at the first solution instead of proving it is the only one.
    #[arg(long)]
    pub skip_uniqueness_check: bool,
    /// The most guesses per puzzle before giving up with `limit_reached` (0: the server's default).
    #[arg(long, default_value_t = 0)]
    pub max_guesses: u64,
    /// Every puzzle's shape and alphabet; by default inferred from each one's count of cells.
    #[command(flatten)]
    pub format: FormatArgs,
}

/// Deals the puzzles of `puzzles` to `senders` in chunks of [`CHUNK`], numbering them from 0 in the
/// `id` field, and keeps `bytes_read` up to date for the progress bar. Returns how many were sent.
async fn deal_puzzles(
    mut puzzles: PuzzleReader<impl AsyncBufRead + Unpin>,
    senders: Vec<mpsc::Sender<SolveBatchRequest>>,
    template: SolveBatchRequest,
    bytes_read: Arc<AtomicU64>,
) -> anyhow::Result<u64> {
    let mut index = 0u64;
    while let Some(puzzle) = puzzles.next().await? {
        bytes_read.store(puzzles.bytes_read(), Ordering::Relaxed);
        let endpoint = ((index / CHUNK) % senders.len() as u64) as usize;
        let request = SolveBatchRequest {
            id: index.to_string(),
            puzzle,
            ..template.clone()
        };
        if senders[endpoint].send(request).await.is_err() {
            // The stream is gone; the writer reports why.
            return Ok(index);
        }
        index += 1;
    }
    Ok(index)
}

/// A progress bar on stderr when it is a terminal; hidden otherwise.
fn progress_bar(size: Option<u64>) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = match size {
        Some(size) => indicatif::ProgressBar::new(size).with_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {percent:>3}% of the input read, {msg} [{elapsed_precise}, {eta} left]",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        ),
        None => indicatif::ProgressBar::new_spinner().with_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}]")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        ),
    };
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Runs `client batch`: the file's puzzles through SolveBatch over every endpoint, the answers
/// written in the input's order, and a summary by verdict on stderr.
pub async fn run(args: &Args, batch: &BatchArgs) -> anyhow::Result<ExitCode> {
    let endpoints = resolve(&args.servers).await?;
    let tls = args.tls.config()?;
    let channels =
        futures::future::try_join_all(endpoints.iter().map(|url| connect_with(url, tls.as_ref())))
            .await?;

    // One bounded request channel and one SolveBatch stream per endpoint.
    let mut senders = Vec::new();
    let mut calls = Vec::new();
    for (url, channel) in endpoints.iter().zip(channels) {
        let (tx, rx) = mpsc::channel(CHUNK as usize);
        senders.push(tx);
        let mut request = tonic::Request::new(ReceiverStream::new(rx));
        decorate(&mut request, args)?;
        let mut client = SudokuServiceClient::new(channel);
        calls.push(async move {
            client
                .solve_batch(request)
                .await
                .map(tonic::Response::into_inner)
                .map_err(|status| anyhow!("{url}: SolveBatch failed: {}", describe(&status)))
        });
    }

    let (source, size) = input::open_async(batch.file.as_deref()).await?;
    let bytes_read = Arc::new(AtomicU64::new(0));
    let template = SolveBatchRequest {
        skip_uniqueness_check: batch.skip_uniqueness_check,
        max_guesses: batch.max_guesses,
        box_rows: batch.format.box_rows_cols().0,
        box_cols: batch.format.box_rows_cols().1,
        symbols: batch.format.symbols.clone(),
        ..Default::default()
    };
    let reader = tokio_util::task::AbortOnDropHandle::new(tokio::spawn(deal_puzzles(
        PuzzleReader::new(source),
        senders,
        template,
        bytes_read.clone(),
    )));
    let mut streams = futures::future::try_join_all(calls).await?;

    let bar = progress_bar(size);
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout());
    let mut tally = Tally::default();
    let mut index = 0u64;
    let ended = loop {
        let at = ((index / CHUNK) % streams.len() as u64) as usize;
        let answer = match streams[at].message().await {
            Ok(Some(answer)) => answer,
            Ok(None) => break at,
            Err(status) => bail!(
                "{}: the stream failed after {index} answers: {}",
                endpoints[at],
                describe(&status)
            ),
        };
        if answer.id != index.to_string() {
            bail!(
                "{}: answer out of order: expected puzzle {index}, got id {:?}",
                endpoints[at],
                answer.id
            );
        }
        let (line, kind) = answer_line(answer.verdict(), &answer.solution, &answer.error);
        writeln!(out, "{line}")?;
        tally.add(kind);
        index += 1;
        if index.is_multiple_of(64) {
            bar.set_position(bytes_read.load(Ordering::Relaxed));
            bar.set_message(format!("{index} answered"));
        }
    };
    out.flush()?;
    bar.finish_and_clear();
    // Cancel the calls, so a reader blocked on a stream that will never be read again stops.
    drop(streams);
    let sent = reader.await.context("the input reader stopped")??;
    if sent != index {
        bail!(
            "{} ended its stream after {index} of {sent} answers",
            endpoints[ended]
        );
    }
    eprintln!("{tally}");
    Ok(if tally.get("invalid") > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
