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

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::{Item, Shared, State};
use crate::sched::Thread;

/// How long one job may keep a worker while other work waits for one.
pub const SLICE: Duration = Duration::from_millis(5);

/// The most jobs set aside at once. At the lowest priority each takes about 1.5% of a core from
/// the workers when the server is full. Past this many, a long job keeps its worker.
pub const MAX_ASIDE: usize = 64;

/// A slot's `job` bit once its job is set aside.
const ASIDE: u64 = 1 << 63;

/// What the watchdog sees of one worker: when its job in hand began.
#[derive(Debug)]
pub(super) struct Slot {
    /// 0 while the worker has no job. Otherwise it holds 1 + the nanoseconds from the pool's epoch
    /// to the job's start, with [`ASIDE`] set once the job is set aside.
    job: AtomicU64,
    /// The worker's thread, whose priority is lowered when its job is set aside.
    thread: Thread,
}

impl Slot {
    /// The slot of the calling worker thread.
    pub(super) fn of_this_thread() -> Slot {
        Slot {
            job: AtomicU64::new(0),
            thread: crate::sched::this_thread(),
        }
    }

    /// The worker starts a job, `since` the pool's epoch.
    pub(super) fn begin(&self, since: Duration) {
        let nanos = u64::try_from(since.as_nanos()).unwrap_or(ASIDE - 2);
        self.job.store(1 + nanos.min(ASIDE - 2), Ordering::Release);
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
