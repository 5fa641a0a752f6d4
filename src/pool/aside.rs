//! Long jobs step aside: a job that has kept its worker for a [`SLICE`] while other work waits
//! leaves the workers. Its thread finishes it at the lowest scheduling priority and then ends, and a
//! fresh worker takes its place at once.
//!
//! A worker cannot pause a solve half-way, so without this a few long solves (a hard 25x25 runs
//! for seconds, and a request may ask for minutes of search) held every worker, and every other
//! call waited behind them until its queue timeout. Now the work waiting behind a long solve is
//! served within a slice. The long solves share the CPU the waiting work leaves them, and only
//! they slow down when the server is full.
//!
//! A watchdog thread does the watching. It sleeps until work waits with no worker idle, and then
//! wakes when the oldest job in hand would reach its slice, so an idle server and jobs shorter
//! than a slice (nearly all of them) cost nothing.
//!
//! A chunk of a stream's items ends its own turn after the item in hand once [`TURN`] is over, so it
//! is long only when that one item is: a chunk is set aside once it has used a turn and a slice of
//! CPU (its item in hand, begun within the turn, has then used a slice), not once a slice has
//! passed. On a busy machine a worker can wait a slice for a core; setting its chunk aside then
//! would help no one (a fresh worker waits for the same cores), and would leave the item in hand at
//! the lowest priority while its stream's answers wait for it, in order.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::{Item, Shared, State, TURN};
use crate::sched::{CpuClock, Thread};

/// How long one job may keep a worker while other work waits for one.
pub const SLICE: Duration = Duration::from_millis(5);

/// The most jobs set aside at once. At the lowest priority each takes about 1.5% of a core from
/// the workers when the server is full. Past this many, a long job keeps its worker.
pub const MAX_ASIDE: usize = 64;

/// A slot's `job` bit once its job is set aside.
const ASIDE: u64 = 1 << 63;

/// A slot's `cpu_at_start` for a job judged by the time passed alone (a unary call's).
const WALL_TIME: u64 = u64::MAX;

/// What the watchdog sees of one worker: when its job in hand began.
#[derive(Debug)]
pub(super) struct Slot {
    /// 0 while the worker has no job. Otherwise it holds 1 + the nanoseconds from the pool's epoch
    /// to the job's start, with [`ASIDE`] set once the job is set aside.
    job: AtomicU64,
    /// For a chunk, the CPU time in nanoseconds the worker's thread had used when the chunk began;
    /// [`WALL_TIME`] for other jobs, or where the thread's CPU clock cannot be read.
    cpu_at_start: AtomicU64,
    /// The worker's thread, whose priority is lowered when its job is set aside.
    thread: Thread,
    /// The worker thread's CPU clock, where the system has one.
    cpu: Option<CpuClock>,
}

impl Slot {
    /// The slot of the calling worker thread.
    pub(super) fn of_this_thread() -> Slot {
        Slot {
            job: AtomicU64::new(0),
            cpu_at_start: AtomicU64::new(WALL_TIME),
            thread: crate::sched::this_thread(),
            cpu: CpuClock::of_this_thread(),
        }
    }

    /// The worker starts a job, `since` the pool's epoch: a chunk of a stream's items (judged by
    /// the CPU it uses, see the module's notes) if `chunk`, else a unary call's.
    pub(super) fn begin(&self, since: Duration, chunk: bool) {
        let cpu = match self.cpu {
            Some(clock) if chunk => clock.used().map_or(WALL_TIME, nanos),
            _ => WALL_TIME,
        };
        // Before the job: whoever sees the job sees its start's CPU time, or a later job's.
        self.cpu_at_start.store(cpu, Ordering::Release);
        self.job
            .store(1 + nanos(since).min(ASIDE - 2), Ordering::Release);
    }

    /// How much longer the job in hand has before it counts as long, now that it has been in hand
    /// for a slice: none for a unary call's, or for a chunk that used a turn and a slice of CPU; for
    /// a chunk that used less, the rest (it cannot use CPU faster than time passes).
    fn cpu_left(&self) -> Duration {
        let start = self.cpu_at_start.load(Ordering::Acquire);
        let used = match self.cpu {
            Some(clock) if start != WALL_TIME => clock.used().map(nanos),
            _ => None,
        };
        used.map_or(Duration::ZERO, |used| {
            (TURN + SLICE).saturating_sub(Duration::from_nanos(used.saturating_sub(start)))
        })
    }

    /// The worker is done with its job: true when the job had been set aside, and the thread must
    /// end (a fresh worker has its place).
    pub(super) fn end(&self) -> bool {
        self.job.swap(0, Ordering::AcqRel) & ASIDE != 0
    }

    /// The job in hand, as `begin` stored it, unless there is none.
    fn job(&self) -> Option<u64> {
        match self.job.load(Ordering::Acquire) {
            0 => None,
            job => Some(job),
        }
    }

    /// Sets the job `job` aside, unless it has ended since it was seen.
    fn set_aside(&self, job: u64) -> bool {
        self.job
            .compare_exchange(job, job | ASIDE, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Lowers the worker thread to the least priority, so it takes only the CPU that the other
    /// workers leave (where the system allows it; else it keeps its share).
    fn lower_priority(&self) {
        if let Err(error) = crate::sched::lower_priority(self.thread) {
            tracing::debug!(%error, "a long job set aside keeps its priority");
        }
    }
}

impl<I: Item> State<I> {
    /// Whether work waits for a worker and none is idle to take it.
    fn work_waits(&self) -> bool {
        self.idle == 0 && (!self.unary.is_empty() || !self.ring.is_empty())
    }
}

impl<I: Item> Shared<I> {
    /// The watchdog's life: sets long jobs aside while work waits, and keeps the workers at their
    /// number, until the pool closes.
    pub(super) fn watch(self: &Arc<Self>) {
        let mut state = self.lock();
        loop {
            if state.closed {
                return;
            }
            let now = self.epoch.elapsed();
            let mut next = None;
            if state.work_waits() {
                let state = &mut *state;
                let room = MAX_ASIDE.saturating_sub(state.aside);
                let mut long = Vec::new();
                let mut look_at = |due: Duration| {
                    next = Some(next.map_or(due, |next: Duration| next.min(due)));
                };
                for (i, slot) in state.slots.iter().enumerate() {
                    let Some(job) = slot.job() else { continue };
                    let due = Duration::from_nanos((job & !ASIDE) - 1) + SLICE;
                    if due > now {
                        look_at(due);
                        continue;
                    }
                    let left = slot.cpu_left();
                    if !left.is_zero() {
                        // A chunk that waited for a core: look again once it could have used enough.
                        look_at(now + left);
                    } else if long.len() == room {
                        // No room to set it aside: look again in a slice.
                        look_at(now + SLICE);
                    } else if slot.set_aside(job) {
                        long.push(i);
                    }
                }
                for i in long.into_iter().rev() {
                    // Under the lock, which the thread needs to end: its id is still its own.
                    state.slots.swap_remove(i).lower_priority();
                    state.workers -= 1;
                    state.aside += 1;
                    self.metrics.set_aside();
                }
            }
            let missing = self.threads.saturating_sub(state.workers);
            state.workers += missing;
            drop(state);
            let mut failed = false;
            for _ in 0..missing {
                if let Err(error) = self.spawn_worker() {
                    tracing::error!(%error, "could not start a solver worker; trying again");
                    self.lock().workers -= 1;
                    failed = true;
                }
            }
            state = self.lock();
            if failed {
                // Retry after a slice rather than spin.
                next = Some(now + SLICE);
            } else if missing > 0 {
                continue;
            }
            match next {
                Some(due) => {
                    let wait = due.saturating_sub(self.epoch.elapsed());
                    state = self
                        .watch
                        .wait_timeout(state, wait)
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .0;
                }
                None => {
                    state.watch_asleep = true;
                    state = self
                        .watch
                        .wait(state)
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    state.watch_asleep = false;
                }
            }
        }
    }
}

/// A duration in whole nanoseconds, saturated.
fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}
