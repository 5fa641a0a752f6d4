//! The solver pool: a fixed set of worker threads that do all the CPU-bound work, fed by a scheduler
//! that no client can stall.
//!
//! - Unary calls wait in one queue that workers always serve first, so a call waits at most for the
//!   work a worker already has in hand.
//! - Each SolveBatch stream is a *lane*: the items it has read and not handed out yet. Lanes with
//!   items wait in a ring; a worker takes a short chunk from the lane at the front and puts the lane
//!   back at the end, so streams take turns whatever their sizes.
//! - A worker never waits on a client: a lane's answers go to its own unbounded channel, bounded in
//!   practice by the stream's window (the stream reads no more requests than that many unanswered).
//!   A client that stops reading stops its stream from reading; its lane runs dry and holds nothing.
//! - A request that goes away, or whose deadline fires, raises its [`Stop`]: its queued work is
//!   dropped unsolved and the solve in hand stops within microseconds (the solver polls the flag).
//! - A job that keeps its worker for a [`aside::SLICE`] while other work waits is set aside:
//!   it finishes on its own thread at the lowest priority, and a fresh worker takes its place.

mod aside;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use crate::metrics::{Metrics, SolveTimes};
use aside::Slot;

/// The most items of one stream a worker takes in one turn: enough to spread the scheduling cost
/// (the lock, the answers' hand-over, the wake-up of the stream's task and the threads it wakes in
/// turn, each a few microseconds and a core taken from a worker) over many microsecond-sized
/// puzzles: about a millisecond of 17-clue puzzles. [`TURN`] still ends a turn of hard puzzles, so
/// a large chunk costs the other streams nothing.
pub const CHUNK_ITEMS: usize = 512;

/// The longest a worker goes on with one stream's chunk before it hands the rest back and lets the
/// next stream have its turn. A waiting unary call ends a turn sooner, after the puzzle in hand, so
/// this bounds only what another stream waits; each turn's answers go out together, and a longer
/// turn wakes the stream's task (and, through it, the client) less often per puzzle.
pub const TURN: Duration = Duration::from_millis(4);

/// How many short items a turn answers between looks at the clock for its end.
const CLOCK_EVERY: usize = 8;

/// Why a request's work was stopped before its answer, for the metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The client went away (or the server is shutting down).
    Cancelled,
    /// The request's deadline passed.
    DeadlineExceeded,
}

impl StopReason {
    /// The reason as a metrics label.
    pub fn label(self) -> &'static str {
        match self {
            StopReason::Cancelled => "cancelled",
            StopReason::DeadlineExceeded => "deadline_exceeded",
        }
    }
}

/// A request's stop flag, which the solver polls, and the first reason it was raised for.
#[derive(Debug, Default)]
pub struct Stop {
    flag: AtomicBool,
    /// 0 while not raised, else 1 + the reason's place in [`StopReason`].
    reason: AtomicU8,
}

impl Stop {
    /// Stops the request's work; a later call keeps the first reason.
    pub fn raise(&self, reason: StopReason) {
        let code = match reason {
            StopReason::Cancelled => 1,
            StopReason::DeadlineExceeded => 2,
        };
        let _ = self
            .reason
            .compare_exchange(0, code, Ordering::AcqRel, Ordering::Acquire);
        self.flag.store(true, Ordering::Release);
    }

    /// Why the work was stopped, if it was.
    pub fn reason(&self) -> Option<StopReason> {
        match self.reason.load(Ordering::Acquire) {
            1 => Some(StopReason::Cancelled),
            2 => Some(StopReason::DeadlineExceeded),
            _ => None,
        }
    }

    /// The flag the solver polls.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }
}

/// A unary call's work, queued for a worker: any CPU-bound job (a solve, a grade, a generated
/// puzzle), which takes the call's stop flag and returns whether it ran to its end (false: the flag
/// cut it off). It hands its answer back itself.
pub struct UnaryJob {
    /// Shared with the waiting call: its stop flag, and who claimed the job first.
    pub ticket: Arc<Ticket>,
    /// The work.
    pub work: Box<dyn FnOnce(&AtomicBool) -> bool + Send>,
}

impl std::fmt::Debug for UnaryJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UnaryJob")
            .field("ticket", &self.ticket)
            .finish_non_exhaustive()
    }
}

/// What a waiting unary call and the worker that takes its job share.
#[derive(Debug, Default)]
pub struct Ticket {
    /// Raised when the call goes away or its deadline passes.
    pub stop: Stop,
    /// Set by whoever comes first: a worker that starts the job, or the call giving up waiting.
    claimed: AtomicBool,
}

impl Ticket {
    /// Claims the job; false if the other side already had.
    pub fn claim(&self) -> bool {
        !self.claimed.swap(true, Ordering::AcqRel)
    }
}

/// One item of a stream, queued in the stream's lane: the pool knows no more of it than how to
/// answer it on a worker.
pub trait Item: Send + std::fmt::Debug + 'static {
    /// What the stream gets back for the item.
    type Answer: Send + std::fmt::Debug + 'static;

    /// Answers the item on the calling worker, polling `stop`, and counts its solver time in
    /// `times` (the chunk's, added to the metrics at its end); `None` when `stop` cut it off.
    fn answer(self, stop: &AtomicBool, times: &mut SolveTimes) -> Option<Self::Answer>;

    /// The label `answer` is counted under in the answers-by-verdict metric.
    fn label(answer: &Self::Answer) -> &'static str;

    /// Whether answering may take far longer than a turn (a large grid, a variant's rules). A chunk
    /// hands over the answers it holds before such an item, so they never wait on it.
    fn may_run_long(&self) -> bool;
}

/// A lane's answers, a chunk at a time.
pub type Answers<A> = mpsc::UnboundedReceiver<Vec<A>>;

/// Why a unary job was refused: as many wait already as the pool lets wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{limit} jobs already wait for a worker")]
pub struct QueueFull {
    /// The most jobs that may wait.
    pub limit: usize,
}

/// A lane as the scheduler keeps it.
#[derive(Debug)]
struct LaneQueue<I: Item> {
    items: VecDeque<I>,
    /// Whether the lane waits in the ring (it does exactly when it has items to hand out).
    in_ring: bool,
    stop: Arc<Stop>,
    answers: mpsc::UnboundedSender<Vec<I::Answer>>,
}

/// Work a worker took.
enum Task<I: Item> {
    Unary(UnaryJob),
    Chunk {
        lane: u64,
        items: Vec<I>,
        stop: Arc<Stop>,
        answers: mpsc::UnboundedSender<Vec<I::Answer>>,
    },
}

#[derive(Debug)]
struct State<I: Item> {
    unary: VecDeque<UnaryJob>,
    /// Lanes with items, in turn. A lane closed while waiting here is skipped when its turn comes.
    ring: VecDeque<u64>,
    lanes: HashMap<u64, LaneQueue<I>>,
    next_lane: u64,
    closed: bool,
    /// Workers waiting for work on the condvar: only then does new work need a wake-up, which is a
    /// system call whether or not anyone waits.
    idle: usize,
    /// Worker threads, started or starting, not counting those whose job was set aside.
    workers: usize,
    /// The workers' slots, for the watchdog to see how long their jobs have run.
    slots: Vec<Arc<Slot>>,
    /// Threads finishing a job set aside.
    aside: usize,
    /// Whether the watchdog sleeps until it is woken (rather than until a job's slice ends).
    watch_asleep: bool,
}

#[derive(Debug)]
struct Shared<I: Item> {
    state: Mutex<State<I>>,
    /// Signalled when work arrives or the pool closes.
    work: Condvar,
    /// Signalled for the watchdog when work waits with no worker idle, or the pool closes.
    watch: Condvar,
    /// The number of workers the pool keeps.
    threads: usize,
    /// Workers started so far, to name the next.
    started: AtomicUsize,
    /// Where job start times count from.
    epoch: Instant,
    /// Unary calls waiting in the queue, readable without the lock between two puzzles of a chunk.
    unary_waiting: AtomicUsize,
    max_queued_unary: usize,
    metrics: Metrics,
}

/// The pool, whose streams queue items of type `I`. Dropping it lets the workers finish the job in
/// hand and exit.
#[derive(Debug)]
pub struct Pool<I: Item> {
    shared: Arc<Shared<I>>,
}

impl<I: Item> Pool<I> {
    /// Starts `threads` workers; at most `max_queued_unary` unary calls may wait for one.
    pub fn new(threads: usize, max_queued_unary: usize, metrics: Metrics) -> std::io::Result<Self> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                workers: threads,
                ..State::default()
            }),
            work: Condvar::new(),
            watch: Condvar::new(),
            threads,
            started: AtomicUsize::new(0),
            epoch: Instant::now(),
            unary_waiting: AtomicUsize::new(0),
            max_queued_unary,
            metrics,
        });
        let pool = Pool {
            shared: shared.clone(),
        };
        // On an error the pool is dropped here, which stops the threads already started.
        for _ in 0..threads {
            shared.spawn_worker()?;
        }
        if threads > 0 {
            let watchdog = shared.clone();
            std::thread::Builder::new()
                .name("solver-watch".into())
                .spawn(move || watchdog.watch())?;
        }
        Ok(pool)
    }

    /// Queues a unary call's job, or refuses it when the queue is full.
    pub fn submit_unary(&self, job: UnaryJob) -> Result<(), QueueFull> {
        let mut state = self.shared.lock();
        if state.unary.len() >= self.shared.max_queued_unary {
            return Err(QueueFull {
                limit: self.shared.max_queued_unary,
            });
        }
        state.unary.push_back(job);
        self.shared.unary_waiting.fetch_add(1, Ordering::Release);
        self.shared.wake_one(state);
        Ok(())
    }

    /// Opens a lane for a stream, and the channel its answers come on.
    pub fn open_lane(&self) -> (Lane<I>, Answers<I::Answer>) {
        let (sender, answers) = mpsc::unbounded_channel();
        let stop = Arc::new(Stop::default());
        let mut state = self.shared.lock();
        let id = state.next_lane;
        state.next_lane += 1;
        state.lanes.insert(
            id,
            LaneQueue {
                items: VecDeque::new(),
                in_ring: false,
                stop: stop.clone(),
                answers: sender,
            },
        );
        let lane = Lane {
            id,
            shared: self.shared.clone(),
            stop,
        };
        (lane, answers)
    }
}

impl<I: Item> Drop for Pool<I> {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.work.notify_all();
        self.shared.watch.notify_all();
    }
}

/// A stream's place in the pool. Dropping it (the stream ended or went away) stops the stream's work
/// and drops its queued items unanswered.
#[derive(Debug)]
pub struct Lane<I: Item> {
    id: u64,
    shared: Arc<Shared<I>>,
    stop: Arc<Stop>,
}

impl<I: Item> Lane<I> {
    /// Queues items of the stream, in order, and wakes a worker.
    pub fn submit(&self, items: impl IntoIterator<Item = I>) {
        let mut guard = self.shared.lock();
        let state = &mut *guard;
        let Some(lane) = state.lanes.get_mut(&self.id) else {
            return;
        };
        lane.items.extend(items);
        if !lane.in_ring && !lane.items.is_empty() {
            lane.in_ring = true;
            state.ring.push_back(self.id);
        }
        self.shared.wake_one(guard);
    }

    /// Stops the stream's work, for `reason`.
    pub fn stop(&self, reason: StopReason) {
        self.stop.raise(reason);
    }
}

impl<I: Item> Drop for Lane<I> {
    fn drop(&mut self) {
        self.stop.raise(StopReason::Cancelled);
        let lane = self.shared.lock().lanes.remove(&self.id);
        if let Some(lane) = lane {
            self.shared.cut_off(&lane.stop, lane.items.len());
        }
    }
}

impl<I: Item> Shared<I> {
    /// The scheduler's state. Every change to it is complete before the lock is let go, so a panic
    /// elsewhere while it was held does not stop its use.
    fn lock(&self) -> MutexGuard<'_, State<I>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Lets go of the state and wakes one idle worker for the work just queued, if one is idle;
    /// else the watchdog, if it sleeps, to see whether a long job keeps the work waiting.
    fn wake_one(&self, mut state: MutexGuard<'_, State<I>>) {
        let idle = state.idle > 0;
        let watch = !idle && std::mem::take(&mut state.watch_asleep);
        drop(state);
        if idle {
            self.work.notify_one();
        } else if watch {
            self.watch.notify_one();
        }
    }

    /// Starts one more worker thread.
    fn spawn_worker(self: &Arc<Self>) -> std::io::Result<()> {
        let n = self.started.fetch_add(1, Ordering::Relaxed);
        let shared = self.clone();
        std::thread::Builder::new()
            .name(format!("solver-{n}"))
            .spawn(move || shared.work())?;
        Ok(())
    }

    /// A worker's life: take work, do it, until the pool closes or its job is set aside.
    fn work(&self) {
        let slot = Arc::new(Slot::of_this_thread());
        self.lock().slots.push(slot.clone());
        while let Some(task) = self.next_task(&slot) {
            match task {
                Task::Unary(job) => self.run_unary(job),
                Task::Chunk {
                    lane,
                    items,
                    stop,
                    answers,
                } => self.run_chunk(lane, items, &stop, &answers),
            }
            if slot.end() {
                // Set aside: a fresh worker has this one's place.
                self.lock().aside -= 1;
                self.metrics.aside_done();
                return;
            }
        }
    }

    /// Waits for work: a unary job if any waits, else a chunk of the next lane in the ring. The
    /// job begins on the worker's `slot` before the lock is let go, so the watchdog never sees a
    /// worker busy without its job.
    fn next_task(&self, slot: &Slot) -> Option<Task<I>> {
        let mut state = self.lock();
        loop {
            if state.closed {
                return None;
            }
            let task = match state.unary.pop_front() {
                Some(job) => {
                    self.unary_waiting.fetch_sub(1, Ordering::Release);
                    Some(Task::Unary(job))
                }
                None => state.take_chunk(),
            };
            if let Some(task) = task {
                slot.begin(self.epoch.elapsed(), matches!(task, Task::Chunk { .. }));
                // More work waits: let another worker take it.
                if !state.unary.is_empty() || !state.ring.is_empty() {
                    self.wake_one(state);
                }
                return Some(task);
            }
            state.idle += 1;
            state = self
                .work
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
            state.idle -= 1;
        }
    }

    fn run_unary(&self, job: UnaryJob) {
        let UnaryJob { ticket, work } = job;
        // The call gave up waiting, or went away: nobody wants the answer.
        if !ticket.claim() || ticket.stop.reason().is_some() {
            self.cut_off(&ticket.stop, 1);
            return;
        }
        let working = self.metrics.in_flight();
        if !work(ticket.stop.flag()) {
            self.cut_off(&ticket.stop, 1);
        }
        // The work counted its answer before the gauge falls, so a scrape never misses it.
        drop(working);
    }

    /// Answers a chunk of a lane's items, one after another, until the chunk is done, the turn is
    /// over, or a unary call waits; hands the rest back to the lane.
    fn run_chunk(
        &self,
        lane: u64,
        items: Vec<I>,
        stop: &Stop,
        answers: &mpsc::UnboundedSender<Vec<I::Answer>>,
    ) {
        let turn_ends = Instant::now() + TURN;
        let solving = self.metrics.in_flight();
        let mut answered = Vec::with_capacity(items.len());
        let mut counts = LabelCounts::default();
        let mut times = SolveTimes::default();
        let mut cut_off = 0;
        let mut items = items.into_iter();
        for (n, item) in items.by_ref().enumerate() {
            if stop.reason().is_some() {
                cut_off += 1;
                break;
            }
            let long = item.may_run_long();
            if !answered.is_empty() && long {
                self.count(&mut counts, &mut times);
                send(answers, std::mem::take(&mut answered));
            }
            match item.answer(stop.flag(), &mut times) {
                Some(answer) => {
                    counts.add(I::label(&answer));
                    answered.push(answer);
                }
                None => cut_off += 1,
            }
            // The clock after every item that may run long, and every few short ones (each a
            // matter of microseconds, which a clock read would add to measurably).
            let look = long || n % CLOCK_EVERY == CLOCK_EVERY - 1;
            if (look && Instant::now() >= turn_ends)
                || self.unary_waiting.load(Ordering::Acquire) > 0
            {
                break;
            }
        }
        let rest: Vec<I> = items.collect();
        if stop.reason().is_some() {
            cut_off += rest.len();
        } else if !rest.is_empty() {
            self.hand_back(lane, rest, stop);
        }
        self.count(&mut counts, &mut times);
        self.cut_off(stop, cut_off);
        drop(solving);
        send(answers, answered);
    }

    /// Adds a chunk's answers so far to the metrics, before they are sent, so a scrape that
    /// follows an answer always counts it.
    fn count(&self, counts: &mut LabelCounts, times: &mut SolveTimes) {
        for (label, count) in counts.0.drain(..) {
            self.metrics.puzzles(label, count);
        }
        self.metrics.solve_times(&std::mem::take(times));
    }

    /// Puts a chunk's unsolved items back at the front of their lane, which waits for its next turn.
    fn hand_back(&self, id: u64, rest: Vec<I>, stop: &Stop) {
        let mut guard = self.lock();
        let state = &mut *guard;
        let Some(lane) = state.lanes.get_mut(&id) else {
            drop(guard);
            self.cut_off(stop, rest.len());
            return;
        };
        for item in rest.into_iter().rev() {
            lane.items.push_front(item);
        }
        if !lane.in_ring {
            lane.in_ring = true;
            state.ring.push_back(id);
        }
        self.wake_one(guard);
    }

    /// Counts `count` puzzles cut off by `stop`, by its reason.
    fn cut_off(&self, stop: &Stop, count: usize) {
        if count > 0 {
            let reason = stop.reason().unwrap_or(StopReason::Cancelled);
            self.metrics.cut_off(reason.label(), count as u64);
        }
    }
}

/// Sends answers to their stream. The stream may be gone; then nobody wants them.
fn send<A>(answers: &mpsc::UnboundedSender<Vec<A>>, answered: Vec<A>) {
    if !answered.is_empty() {
        let _ = answers.send(answered);
    }
}

/// A chunk's answers counted by label, for one metrics update per label (a handful at most).
#[derive(Default)]
struct LabelCounts(Vec<(&'static str, u64)>);

impl LabelCounts {
    fn add(&mut self, label: &'static str) {
        match self.0.iter_mut().find(|(seen, _)| *seen == label) {
            Some((_, count)) => *count += 1,
            None => self.0.push((label, 1)),
        }
    }
}

impl<I: Item> Default for State<I> {
    fn default() -> Self {
        State {
            unary: VecDeque::new(),
            ring: VecDeque::new(),
            lanes: HashMap::new(),
            next_lane: 0,
            closed: false,
            idle: 0,
            workers: 0,
            slots: Vec::new(),
            aside: 0,
            watch_asleep: false,
        }
    }
}

impl<I: Item> State<I> {
    /// A chunk of the next lane in the ring; the lane goes to the back of the ring if it has more.
    fn take_chunk(&mut self) -> Option<Task<I>> {
        while let Some(id) = self.ring.pop_front() {
            let Some(lane) = self.lanes.get_mut(&id) else {
                continue;
            };
            let take = lane.items.len().min(CHUNK_ITEMS);
            let items: Vec<I> = lane.items.drain(..take).collect();
            if lane.items.is_empty() {
                lane.in_ring = false;
            } else {
                self.ring.push_back(id);
            }
            if items.is_empty() {
                continue;
            }
            return Some(Task::Chunk {
                lane: id,
                items,
                stop: lane.stop.clone(),
                answers: lane.answers.clone(),
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An item that answers with its own number.
    #[derive(Debug)]
    struct Numbered(u64);

    impl Item for Numbered {
        type Answer = u64;

        fn answer(self, _: &AtomicBool, _: &mut SolveTimes) -> Option<u64> {
            Some(self.0)
        }

        fn label(_: &u64) -> &'static str {
            "numbered"
        }

        fn may_run_long(&self) -> bool {
            false
        }
    }

    fn item(index: u64) -> Numbered {
        Numbered(index)
    }

    type TestPool = Pool<Numbered>;

    #[test]
    fn a_dropped_lane_leaves_the_scheduler() {
        // No workers: the items can only wait.
        let pool = TestPool::new(0, 1, Metrics::new()).unwrap();
        let (lane, _answers) = pool.open_lane();
        lane.submit([item(0), item(1)]);
        assert_eq!(pool.shared.lock().lanes[&0].items.len(), 2);
        let stop = lane.stop.clone();
        drop(lane);
        assert!(pool.shared.lock().lanes.is_empty());
        assert_eq!(stop.reason(), Some(StopReason::Cancelled));
    }

    #[test]
    fn lanes_take_turns_a_chunk_at_a_time() {
        let pool = TestPool::new(0, 1, Metrics::new()).unwrap();
        let (big, _a) = pool.open_lane();
        let (small, _b) = pool.open_lane();
        big.submit((0..3 * CHUNK_ITEMS as u64).map(item));
        small.submit((0..3).map(item));
        let mut state = pool.shared.lock();
        let lanes: Vec<(u64, usize)> = std::iter::from_fn(|| match state.take_chunk() {
            Some(Task::Chunk { lane, items, .. }) => Some((lane, items.len())),
            _ => None,
        })
        .take(3)
        .collect();
        assert_eq!(lanes, [(0, CHUNK_ITEMS), (1, 3), (0, CHUNK_ITEMS)]);
    }

    /// A unary job that runs until `release` says, and then says it ended on `ended`.
    fn held_job(
        release: std::sync::mpsc::Receiver<()>,
        ended: std::sync::mpsc::Sender<&'static str>,
    ) -> UnaryJob {
        UnaryJob {
            ticket: Arc::default(),
            work: Box::new(move |_: &AtomicBool| {
                let _ = release.recv();
                let _ = ended.send("long");
                true
            }),
        }
    }

    #[test]
    fn a_long_job_steps_aside_for_the_work_behind_it() {
        use std::sync::mpsc::channel;
        const LONG: usize = 3;
        let metrics = Metrics::new();
        let pool = TestPool::new(1, 16, metrics.clone()).unwrap();
        let (done, finished) = channel();
        // More long jobs than workers, each holding its thread until released.
        let mut releases = Vec::new();
        for _ in 0..LONG {
            let (release, held) = channel();
            releases.push(release);
            pool.submit_unary(held_job(held, done.clone())).unwrap();
        }
        let short = done.clone();
        pool.submit_unary(UnaryJob {
            ticket: Arc::default(),
            work: Box::new(move |_: &AtomicBool| short.send("short").is_ok()),
        })
        .unwrap();
        // Without setting aside, the one worker would hold the first long job for ever.
        let first = finished.recv_timeout(Duration::from_secs(60));
        assert_eq!(
            first,
            Ok("short"),
            "the short job behind the long ones never ran"
        );
        let text = metrics.render();
        assert!(
            text.contains(&format!("sudoku_solves_set_aside_total {LONG}")),
            "{text}"
        );
        for release in releases {
            release.send(()).unwrap();
        }
        for _ in 0..LONG {
            assert_eq!(finished.recv_timeout(Duration::from_secs(60)), Ok("long"));
        }
        // Each thread set aside ends after its job; one worker is left, as the pool was made.
        let ended = Instant::now() + Duration::from_secs(60);
        loop {
            let state = pool.shared.lock();
            if state.aside == 0 {
                assert_eq!((state.workers, state.slots.len()), (1, 1));
                break;
            }
            drop(state);
            assert!(Instant::now() < ended, "the threads set aside never ended");
            std::thread::yield_now();
        }
        assert!(metrics.render().contains("sudoku_solves_aside 0"));
    }

    /// An item that answers with its number; a long one only once its `release` says.
    #[derive(Debug)]
    struct Gated {
        index: u64,
        release: Option<std::sync::mpsc::Receiver<()>>,
    }

    impl Item for Gated {
        type Answer = u64;

        fn answer(self, _: &AtomicBool, _: &mut SolveTimes) -> Option<u64> {
            if let Some(release) = self.release {
                let _ = release.recv();
            }
            Some(self.index)
        }

        fn label(_: &u64) -> &'static str {
            "gated"
        }

        fn may_run_long(&self) -> bool {
            self.release.is_some()
        }
    }

    #[test]
    fn answers_ahead_of_a_long_item_go_out_before_it() {
        use std::sync::mpsc::channel;
        let pool = Pool::<Gated>::new(1, 1, Metrics::new()).unwrap();
        let (lane, mut answers) = pool.open_lane();
        let (release, held) = channel();
        let quick = |index| Gated {
            index,
            release: None,
        };
        let long = Gated {
            index: 3,
            release: Some(held),
        };
        // One submit: the worker takes all five as one chunk.
        lane.submit([quick(0), quick(1), quick(2), long, quick(4)]);
        let (forward, received) = channel();
        std::thread::spawn(move || {
            while let Some(chunk) = answers.blocking_recv() {
                if forward.send(chunk).is_err() {
                    break;
                }
            }
        });
        let first = received.recv_timeout(Duration::from_secs(60));
        assert_eq!(first, Ok(vec![0, 1, 2]), "the quick answers waited");
        release.send(()).unwrap();
        let mut rest = Vec::new();
        while rest.len() < 2 {
            rest.extend(received.recv_timeout(Duration::from_secs(60)).unwrap());
        }
        assert_eq!(rest, [3, 4]);
    }

    #[test]
    fn unary_jobs_beyond_the_queue_are_refused() {
        let pool = TestPool::new(0, 1, Metrics::new()).unwrap();
        let job = || UnaryJob {
            ticket: Arc::default(),
            work: Box::new(|_: &AtomicBool| true),
        };
        assert!(pool.submit_unary(job()).is_ok());
        assert_eq!(pool.submit_unary(job()), Err(QueueFull { limit: 1 }));
    }
}
