//! `client batch`: a file of puzzles through SolveBatch, spread over every endpoint, the answers
//! written in input order, and no puzzle lost when a server goes away.
//!
//! A reader task numbers the input's puzzles and queues them, a window of [`CHUNK`]s ahead of the
//! writer, so the whole file is never in memory. Each endpoint keeps one SolveBatch stream open and
//! takes the next puzzles whenever fewer than [`IN_FLIGHT`] of its own are unanswered: a fast server
//! takes more. Its answers come back in its request order, so it knows which puzzle each answers,
//! and the writer holds them by input index until all before them are out. When a stream fails in a
//! way that is the server's or the connection's fault ([`server_went_away`]), the endpoint puts its
//! unanswered puzzles back, the others take them before any new one, and the server names are
//! resolved again (at most every [`RESOLVE_EVERY`], and every [`REFRESH`] for names in any case) so
//! pods that appeared join in.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use futures::stream::{FuturesUnordered, StreamExt};
use tokio::io::AsyncBufRead;
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::time::Instant;
use tokio_stream::wrappers::ReceiverStream;
use tokio_util::sync::CancellationToken;
use tonic::transport::Channel;

use super::{Args, connect_as, decorate, describe, resolve, server_went_away};
use crate::cli::args::FormatArgs;
use crate::cli::input::{self, PuzzleReader};
use crate::cli::output::{Tally, write_answer};
use sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::proto::{SolveBatchRequest, SolveBatchResponse};

/// Puzzles per chunk: the unit of the reader's window, and of the input queue.
pub const CHUNK: u64 = 256;

/// The most puzzles one endpoint has sent and not yet had answered: half the server's window (1024
/// by default), few enough that a server going away leaves little to send again.
const IN_FLIGHT: usize = 2 * CHUNK as usize;

/// The least room, in puzzles, that an endpoint waits for before sending more.
const REFILL: u32 = CHUNK as u32 / 2;

/// Chunks the reader may run ahead of the writer, per endpoint (plus [`WINDOW_BASE`]): each endpoint
/// holds up to two in flight, and one more lets a fast one go on while a slow one finishes.
const WINDOW_PER_ENDPOINT: usize = 3;

/// Chunks of the window beyond those of the endpoints: the one queued, and one of slack.
const WINDOW_BASE: usize = 2;

/// The least time between two resolutions of the server names after a failure.
const RESOLVE_EVERY: Duration = Duration::from_secs(2);

/// How often a server given by name is resolved again while a batch runs, so that pods added since
/// (a rollout, the autoscaler) join in even when none went away.
const REFRESH: Duration = Duration::from_secs(5);

/// How long, once every answer is written, the streams get to end cleanly before they are cut.
const FINISH: Duration = Duration::from_secs(1);

/// How often the batch logs where it stands, at debug level (`RUST_LOG=debug`).
const REPORT_EVERY: Duration = Duration::from_secs(5);

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
    /// Each line is an f-puzzles variant (its JSON, base64 or link) rather than a classic puzzle.
    #[arg(long)]
    pub fpuzzles: bool,
}

/// A puzzle on its way: its place in the input, from 0, and its text.
#[derive(Debug, Clone)]
struct Item {
    index: u64,
    puzzle: String,
}

/// Reads the puzzles of `puzzles` into `queue`, numbered from 0, at most the window's chunks ahead
/// of the writer, and keeps `bytes_read` up to date for the progress bar; `_read` cancels its token
/// when it returns. Returns how many it read.
async fn read_puzzles(
    mut puzzles: PuzzleReader<impl AsyncBufRead + Unpin>,
    queue: mpsc::Sender<Item>,
    window: Arc<Semaphore>,
    bytes_read: Arc<AtomicU64>,
    _read: tokio_util::sync::DropGuard,
) -> anyhow::Result<u64> {
    let mut index = 0u64;
    while let Some(puzzle) = puzzles.next().await? {
        if index.is_multiple_of(CHUNK) {
            // The writer gives a permit back for each chunk it has written out.
            window.acquire().await?.forget();
        }
        bytes_read.store(puzzles.bytes_read(), Ordering::Relaxed);
        if queue.send(Item { index, puzzle }).await.is_err() {
            // Every endpoint stopped; the caller says why.
            return Ok(index);
        }
        index += 1;
    }
    Ok(index)
}

/// Where the endpoints take their puzzles from: those put back by a server that went away, first,
/// then the input's, in order.
struct Deal {
    /// Puzzles put back, lowest index first.
    returned: Mutex<VecDeque<Item>>,
    /// Counts the puts back, so endpoints waiting for work wake.
    returns: watch::Sender<u64>,
    /// The input's puzzles from the reader, and whether it has ended.
    input: tokio::sync::Mutex<(mpsc::Receiver<Item>, bool)>,
    /// How many puzzles were put back, for the summary.
    resent: AtomicU64,
}

impl Deal {
    fn new(queue: mpsc::Receiver<Item>) -> Self {
        Deal {
            returned: Mutex::new(VecDeque::new()),
            returns: watch::Sender::new(0),
            input: tokio::sync::Mutex::new((queue, false)),
            resent: AtomicU64::new(0),
        }
    }

    /// Puts back `items`, a failed stream's unanswered puzzles, for the other endpoints to send first.
    fn put_back(&self, items: impl IntoIterator<Item = Item>) -> u64 {
        let count = {
            let mut returned = lock(&self.returned);
            let before = returned.len();
            returned.extend(items);
            returned
                .make_contiguous()
                .sort_unstable_by_key(|item| item.index);
            returned.len() - before
        } as u64;
        if count > 0 {
            self.resent.fetch_add(count, Ordering::Relaxed);
            self.returns.send_modify(|n| *n += 1);
        }
        count
    }

    /// Up to `max` puzzles to send: put-back ones first, else the input's next ones, waiting for the
    /// first of them. Empty once the input has ended and nothing is put back.
    async fn next(&self, max: usize, returns: &mut watch::Receiver<u64>) -> Vec<Item> {
        loop {
            // Marked seen before looking, so a put back after the look wakes the wait below.
            returns.borrow_and_update();
            {
                let mut returned = lock(&self.returned);
                if !returned.is_empty() {
                    let take = max.min(returned.len());
                    return returned.drain(..take).collect();
                }
            }
            let mut input = self.input.lock().await;
            let (queue, ended) = &mut *input;
            if *ended {
                return Vec::new();
            }
            tokio::select! {
                biased;
                _ = returns.changed() => {}
                first = queue.recv() => match first {
                    Some(first) => {
                        let mut items = vec![first];
                        while items.len() < max {
                            match queue.try_recv() {
                                Ok(item) => items.push(item),
                                Err(_) => break,
                            }
                        }
                        return items;
                    }
                    None => *ended = true,
                },
            }
        }
    }
}

/// Locks `mutex`, whose data stays consistent even if a holder panicked: every critical section
/// here is a single push, pop or count.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The answers, held by input index until all before them are written, then written in order.
struct Writer {
    out: std::io::BufWriter<std::io::Stdout>,
    /// The index of the next answer to write.
    next: u64,
    /// Answers from `next` on, each in its place once it came.
    held: VecDeque<Option<SolveBatchResponse>>,
    /// How many puzzles the input holds, once the reader has read them all.
    total: Option<u64>,
    tally: Tally,
    /// The reader's window: one permit back per chunk written.
    window: Arc<Semaphore>,
    /// Cancelled once every answer is written.
    done: CancellationToken,
    bar: indicatif::ProgressBar,
    bytes_read: Arc<AtomicU64>,
}

impl Writer {
    /// Holds `answer` to the puzzle at `index`, then writes every answer that is next in order.
    fn place(&mut self, index: u64, answer: SolveBatchResponse) -> std::io::Result<()> {
        let Some(at) = index.checked_sub(self.next) else {
            // Written already: cannot happen, as a puzzle is put back only while unanswered.
            return Ok(());
        };
        let at = at as usize;
        if self.held.len() <= at {
            self.held.resize_with(at + 1, || None);
        }
        self.held[at] = Some(answer);
        while let Some(answer) = self.held.front_mut().and_then(Option::take) {
            self.held.pop_front();
            let kind = write_answer(
                &mut self.out,
                answer.verdict(),
                &answer.solution,
                &answer.error,
            )?;
            self.tally.add(kind);
            self.next += 1;
            if self.next.is_multiple_of(CHUNK) {
                self.window.add_permits(1);
                self.bar
                    .set_position(self.bytes_read.load(Ordering::Relaxed));
                self.bar.set_message(format!("{} answered", self.next));
            }
        }
        self.check_done();
        Ok(())
    }

    /// Notes that the input holds `total` puzzles.
    fn set_total(&mut self, total: u64) {
        self.total = Some(total);
        self.check_done();
    }

    fn check_done(&self) {
        if self.total == Some(self.next) {
            self.done.cancel();
        }
    }
}

/// How an endpoint's work ended.
enum Ended {
    /// Every answer is written.
    Done,
    /// The server or the connection went away; the endpoint's unanswered puzzles were put back.
    Gone {
        why: String,
        /// How many puzzles it put back.
        returned: u64,
    },
    /// A fault that another server would not mend: the batch fails.
    Failed(anyhow::Error),
}

/// How one stream failed.
enum StreamFault {
    Status(tonic::Status),
    Fatal(anyhow::Error),
}

impl From<tonic::Status> for StreamFault {
    fn from(status: tonic::Status) -> Self {
        StreamFault::Status(status)
    }
}

/// What every endpoint's work shares.
struct Batch<'a> {
    args: &'a Args,
    template: SolveBatchRequest,
    /// Each line is f-puzzles text, sent in `fpuzzles` rather than `puzzle`.
    fpuzzles: bool,
    deal: Deal,
    writer: Mutex<Writer>,
    /// Answers received from every endpoint, to tell whether a round of endpoints made progress.
    received: AtomicU64,
    /// Cancelled once the reader has read the whole input.
    input_read: CancellationToken,
    done: CancellationToken,
}

impl Batch<'_> {
    /// [`Batch::endpoint`], with the endpoint's URL for the caller.
    async fn start(&self, url: String) -> (String, Ended) {
        let ended = self.endpoint(&url).await;
        (url, ended)
    }

    /// One endpoint's work: connect, then stream puzzles whenever there are some, until every
    /// answer is written or the server goes away.
    async fn endpoint(&self, url: &str) -> Ended {
        let mut client = match connect_as(self.args, url).await {
            Ok(channel) => {
                tracing::debug!(url, "connected");
                SudokuServiceClient::new(channel)
            }
            Err(e) => {
                return Ended::Gone {
                    why: format!("{e:#}"),
                    returned: 0,
                };
            }
        };
        let mut returns = self.deal.returns.subscribe();
        loop {
            let first = tokio::select! {
                biased;
                () = self.done.cancelled() => return Ended::Done,
                items = self.deal.next(IN_FLIGHT, &mut returns) => items,
            };
            if first.is_empty() {
                // The input has ended: wait for puzzles put back, or the end.
                tokio::select! {
                    () = self.done.cancelled() => return Ended::Done,
                    _ = returns.changed() => continue,
                }
            }
            tracing::debug!(
                url,
                first = first[0].index,
                count = first.len(),
                "stream opened"
            );
            let in_flight = Mutex::new(VecDeque::with_capacity(IN_FLIGHT));
            let fault = match self
                .stream(&mut client, first, &in_flight, &mut returns)
                .await
            {
                Ok(()) => {
                    tracing::debug!(url, "stream ended");
                    continue;
                }
                Err(fault) => fault,
            };
            let unanswered = std::mem::take(&mut *lock(&in_flight));
            tracing::debug!(
                url,
                unanswered = unanswered.len(),
                first = unanswered.front().map(|item| item.index),
                "stream failed"
            );
            return match fault {
                StreamFault::Status(status) if server_went_away(&status) => Ended::Gone {
                    why: describe(&status),
                    returned: self.deal.put_back(unanswered),
                },
                StreamFault::Status(status) => {
                    Ended::Failed(anyhow!("{url}: SolveBatch failed: {}", describe(&status)))
                }
                StreamFault::Fatal(e) => Ended::Failed(e.context(url.to_owned())),
            };
        }
    }

    /// One SolveBatch stream: sends `first`, then more puzzles while fewer than [`IN_FLIGHT`] are
    /// unanswered, until the input ends; hands each answer to the writer. `in_flight` holds the
    /// puzzles sent and not answered, in order, which a stream that fails leaves there.
    async fn stream(
        &self,
        client: &mut SudokuServiceClient<Channel>,
        first: Vec<Item>,
        in_flight: &Mutex<VecDeque<Item>>,
        returns: &mut watch::Receiver<u64>,
    ) -> Result<(), StreamFault> {
        let room = Semaphore::new(IN_FLIGHT);
        let (requests, queue) = mpsc::channel(IN_FLIGHT);
        let mut request = tonic::Request::new(ReceiverStream::new(queue));
        decorate(&mut request, self.args).map_err(StreamFault::Fatal)?;

        // Puzzles go into `in_flight` as soon as they are taken, before any await, so that none is
        // lost if this stream fails (and its sending is dropped) before all of them are sent.
        let admit = |items: Vec<Item>| {
            room.forget_permits(items.len());
            let requests: Vec<SolveBatchRequest> = items
                .iter()
                .map(|item| match self.fpuzzles {
                    true => SolveBatchRequest {
                        id: item.index.to_string(),
                        fpuzzles: item.puzzle.clone(),
                        ..self.template.clone()
                    },
                    false => SolveBatchRequest {
                        id: item.index.to_string(),
                        puzzle: item.puzzle.clone(),
                        ..self.template.clone()
                    },
                })
                .collect();
            lock(in_flight).extend(items);
            requests
        };
        let mut batch = admit(first);
        let sending = async {
            // Owned here, so that the request stream ends when this does.
            let requests = requests;
            while !batch.is_empty() {
                for request in batch.drain(..) {
                    if requests.send(request).await.is_err() {
                        // The call is over; the receiving side says why.
                        return;
                    }
                }
                // Wait for room for a good part of a chunk, then take as many as there is room
                // for: refilling an item at a time would cost a frame and a write each. Once the
                // input is all read, any room will do: the stream ends as soon as nothing is left.
                loop {
                    let wanted = if self.input_read.is_cancelled() {
                        1
                    } else {
                        REFILL
                    };
                    tokio::select! {
                        permit = room.acquire_many(wanted) => match permit {
                            Ok(_) => break,
                            Err(_) => return,
                        },
                        () = self.input_read.cancelled(), if wanted > 1 => {}
                    }
                }
                batch = admit(self.deal.next(room.available_permits(), returns).await);
            }
        };
        let receiving = async {
            let mut answers = client.solve_batch(request).await?.into_inner();
            let mut count = 0u64;
            while let Some(answer) = answers.message().await? {
                let item = lock(in_flight).pop_front().ok_or_else(|| {
                    StreamFault::Fatal(anyhow!("answer {count} came for no puzzle sent"))
                })?;
                if answer.index != count || answer.id.parse() != Ok(item.index) {
                    let (index, id) = (answer.index, &answer.id);
                    return Err(StreamFault::Fatal(anyhow!(
                        "answer out of order: expected puzzle {} (index {count}), got index {index}, id {id:?}",
                        item.index
                    )));
                }
                count += 1;
                self.received.fetch_add(1, Ordering::Relaxed);
                lock(&self.writer).place(item.index, answer).map_err(|e| {
                    StreamFault::Fatal(anyhow::Error::new(e).context("cannot write"))
                })?;
                room.add_permits(1);
            }
            if lock(in_flight).is_empty() {
                Ok(())
            } else {
                Err(tonic::Status::unavailable("the server ended the stream early").into())
            }
        };
        tokio::pin!(sending, receiving);
        tokio::select! {
            result = &mut receiving => result,
            () = &mut sending => receiving.await,
        }
    }
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
/// written in the input's order, and a summary by verdict (and of puzzles re-sent) on stderr.
pub async fn run(args: &Args, batch: &BatchArgs) -> anyhow::Result<ExitCode> {
    let endpoints = resolve(&args.servers).await?;
    let (source, size) = input::open_async(batch.file.as_deref()).await?;
    let bytes_read = Arc::new(AtomicU64::new(0));
    let window = Arc::new(Semaphore::new(
        WINDOW_BASE + WINDOW_PER_ENDPOINT * endpoints.len(),
    ));
    let (queue, queued) = mpsc::channel(CHUNK as usize);
    let input_read = CancellationToken::new();
    let mut reader = tokio_util::task::AbortOnDropHandle::new(tokio::spawn(read_puzzles(
        PuzzleReader::new(source),
        queue,
        window.clone(),
        bytes_read.clone(),
        input_read.clone().drop_guard(),
    )));
    let bar = progress_bar(size);
    let done = CancellationToken::new();
    let shared = Batch {
        args,
        template: SolveBatchRequest {
            skip_uniqueness_check: batch.skip_uniqueness_check,
            max_guesses: batch.max_guesses,
            box_rows: batch.format.box_rows_cols().0,
            box_cols: batch.format.box_rows_cols().1,
            symbols: batch.format.symbols.clone(),
            ..Default::default()
        },
        fpuzzles: batch.fpuzzles,
        deal: Deal::new(queued),
        writer: Mutex::new(Writer {
            out: std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout()),
            next: 0,
            held: VecDeque::new(),
            total: None,
            tally: Tally::default(),
            window: window.clone(),
            done: done.clone(),
            bar: bar.clone(),
            bytes_read,
        }),
        received: AtomicU64::new(0),
        input_read,
        done: done.clone(),
    };

    let mut running = FuturesUnordered::new();
    let mut busy: HashSet<String> = endpoints.iter().cloned().collect();
    for url in &endpoints {
        running.push(shared.start(url.clone()));
    }
    let mut seen = busy.clone();
    // Why each endpoint last went away, for the message if all do.
    let mut why_gone = BTreeMap::new();
    let mut warned = HashSet::new();
    let mut resolved_at = Instant::now();
    // Addresses never change; names may resolve to more pods later.
    let names = args.servers.iter().any(|server| {
        super::server_url(server)
            .parse()
            .is_ok_and(|uri| super::expands(&uri))
    });
    let mut resolve_at: Option<Instant> = names.then(|| resolved_at + REFRESH);
    let mut resolving: Option<tokio_util::task::AbortOnDropHandle<_>> = None;
    // Answers received when the latest round of endpoints started.
    let mut round_mark = 0;
    let mut report = tokio::time::interval(REPORT_EVERY);
    let reporting = tracing::enabled!(tracing::Level::DEBUG);

    while !done.is_cancelled() {
        let resolve_timer = tokio::time::sleep_until(resolve_at.unwrap_or(resolved_at));
        tokio::select! {
            () = done.cancelled() => {}
            _ = report.tick(), if reporting => {
                let (written, held) = {
                    let writer = lock(&shared.writer);
                    (writer.next, writer.held.iter().filter(|a| a.is_some()).count())
                };
                tracing::debug!(
                    written,
                    held,
                    received = shared.received.load(Ordering::Relaxed),
                    put_back_waiting = lock(&shared.deal.returned).len(),
                    window = window.available_permits(),
                    endpoints = ?busy,
                    "batch progress"
                );
            }
            Some((url, ended)) = running.next(), if !running.is_empty() => {
                busy.remove(&url);
                match ended {
                    Ended::Done => {}
                    Ended::Failed(e) => return Err(e.context(written_so_far(&shared))),
                    Ended::Gone { why, returned } => {
                        if returned > 0 {
                            bar.suspend(|| {
                                eprintln!("{url} went away ({why}); its {returned} unanswered puzzles go to the others");
                            });
                        } else if warned.insert(url.clone()) {
                            bar.suspend(|| eprintln!("{url} is not answering ({why})"));
                        }
                        why_gone.insert(url, why);
                        resolve_at.get_or_insert(resolved_at + RESOLVE_EVERY);
                    }
                }
            }
            total = &mut reader, if lock(&shared.writer).total.is_none() => {
                let total = total.context("the input reader stopped")??;
                tracing::debug!(total, "input read");
                lock(&shared.writer).set_total(total);
            }
            () = resolve_timer, if resolve_at.is_some() && resolving.is_none() => {
                resolve_at = None;
                // Resolved off this task, so a slow DNS server does not hold up the streams.
                let servers = args.servers.clone();
                resolving = Some(tokio_util::task::AbortOnDropHandle::new(tokio::spawn(
                    async move { resolve(&servers).await },
                )));
            }
            resolved = async {
                match resolving.as_mut() {
                    Some(resolving) => resolving.await,
                    None => std::future::pending().await,
                }
            }, if resolving.is_some() => {
                resolving = None;
                resolved_at = Instant::now();
                round_mark = shared.received.load(Ordering::Relaxed);
                // A name that no longer resolves keeps its last addresses: they may come back.
                let endpoints = match resolved {
                    Ok(Ok(endpoints)) => endpoints,
                    _ => seen.iter().cloned().collect(),
                };
                if names {
                    let next = resolved_at + REFRESH;
                    resolve_at = Some(resolve_at.map_or(next, |at| at.min(next)));
                }
                for url in endpoints {
                    if seen.insert(url.clone()) {
                        window.add_permits(WINDOW_PER_ENDPOINT);
                    }
                    if busy.insert(url.clone()) {
                        running.push(shared.start(url));
                    }
                }
            }
        }
        if running.is_empty() && resolving.is_none() && !done.is_cancelled() {
            if shared.received.load(Ordering::Relaxed) == round_mark {
                let why: Vec<String> = why_gone
                    .iter()
                    .map(|(url, why)| format!("{url}: {why}"))
                    .collect();
                bail!(
                    "{}: every server went away ({})",
                    written_so_far(&shared),
                    why.join("; ")
                );
            }
            resolve_at.get_or_insert(resolved_at + RESOLVE_EVERY);
        }
    }
    // Every answer is written: let the streams end cleanly, as the servers see it.
    let _ = tokio::time::timeout(FINISH, async { while running.next().await.is_some() {} }).await;
    drop(running);
    bar.finish_and_clear();
    let mut writer = lock(&shared.writer);
    writer.out.flush()?;
    let resent = shared.deal.resent.load(Ordering::Relaxed);
    if resent > 0 {
        eprintln!(
            "{}, {resent} re-sent after a server went away",
            writer.tally
        );
    } else {
        eprintln!("{}", writer.tally);
    }
    Ok(if writer.tally.get("invalid") > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// How far the batch got, for an error message: the answers written, of the puzzles read.
fn written_so_far(batch: &Batch<'_>) -> String {
    let mut writer = lock(&batch.writer);
    let _ = writer.out.flush();
    match writer.total {
        Some(total) => format!("{} answers written of {total}", writer.next),
        None => format!("{} answers written", writer.next),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(index: u64) -> Item {
        Item {
            index,
            puzzle: index.to_string(),
        }
    }

    fn indices(items: &[Item]) -> Vec<u64> {
        items.iter().map(|item| item.index).collect()
    }

    /// Puzzles put back go out before the input's next ones, lowest index first, then the input's
    /// in order; once the input has ended and nothing is put back, there is nothing.
    #[tokio::test]
    async fn put_back_puzzles_go_first_in_order() {
        let (queue, queued) = mpsc::channel(8);
        let deal = Deal::new(queued);
        let mut returns = deal.returns.subscribe();
        for index in 10..14 {
            queue.send(item(index)).await.unwrap();
        }
        assert_eq!(indices(&deal.next(2, &mut returns).await), [10, 11]);
        assert_eq!(deal.put_back([item(7), item(3)]), 2);
        assert_eq!(deal.put_back([item(5)]), 1);
        assert_eq!(indices(&deal.next(2, &mut returns).await), [3, 5]);
        assert_eq!(indices(&deal.next(8, &mut returns).await), [7]);
        drop(queue);
        assert_eq!(indices(&deal.next(8, &mut returns).await), [12, 13]);
        assert!(deal.next(8, &mut returns).await.is_empty());
        assert_eq!(deal.resent.load(Ordering::Relaxed), 3);
    }

    /// An endpoint waiting for the input's next puzzle takes a puzzle put back meanwhile instead.
    #[tokio::test]
    async fn a_waiting_endpoint_takes_a_put_back_puzzle() {
        let (_queue, queued) = mpsc::channel(8);
        let deal = Deal::new(queued);
        let mut returns = deal.returns.subscribe();
        let (taken, ()) = tokio::join!(deal.next(8, &mut returns), async {
            tokio::task::yield_now().await;
            deal.put_back([item(4)]);
        });
        assert_eq!(indices(&taken), [4]);
    }
}
