//! The tokio runtime of every command, whose threads ask the kernel to run them soon after they wake.
//!
//! The solver workers keep every core busy under load, and each thread that carries a call on its
//! way (reading the request, handing the answer back) must then wait for a core. Linux's EEVDF
//! scheduler (6.12 and later) lets a thread ask for a shorter time slice than the default (0.7 ms
//! times 1 + log2 of the core count: 1.4 ms on 2 cores); such a thread preempts one with a longer
//! slice when it wakes, but its share of the CPU stays the same. The runtime's threads ask for a short slice and the workers keep the default, so a
//! unary call no longer waits for a worker's slice to run out at every hop, and the workers lose no
//! throughput (lowering their priority instead would give it to any other process).
//!
//! `load` runs on such a runtime too: its clients stand for clients on other machines, and with
//! the same short slice their own wake-ups, on cores the server's workers keep busy, add little to
//! the latencies it measures.
//!
//! The request is a hint: on other systems, older kernels, or where it is refused, it changes
//! nothing and the server runs as before.
//!
//! A solver worker whose job runs long while other work waits is set aside (`pool::aside`): its
//! thread drops to the lowest priority ([`lower_priority`]) so the workers that take its place
//! come first.

use std::time::Duration;

/// The time slice the runtime's threads ask for: the shortest Linux grants is 0.1 ms.
pub const RUNTIME_SLICE: Duration = Duration::from_micros(100);

/// A multi-threaded runtime (one thread per core) whose threads ask for [`RUNTIME_SLICE`].
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .on_thread_start(|| {
            if let Err(e) = ask_for_slice(RUNTIME_SLICE) {
                tracing::debug!("runtime thread keeps the default time slice: {e}");
            }
        })
        .build()
}

/// Asks the kernel to give the calling thread time slices of `slice`, keeping its policy
/// (`SCHED_OTHER`) and its nice value.
#[cfg(target_os = "linux")]
pub fn ask_for_slice(slice: Duration) -> std::io::Result<()> {
    /// `struct sched_attr` of `sched_setattr(2)`, up to the fields this sets.
    #[repr(C)]
    struct SchedAttr {
        size: u32,
        policy: u32,
        flags: u64,
        nice: i32,
        priority: u32,
        runtime: u64,
        deadline: u64,
        period: u64,
    }
    // SAFETY: getpriority reads the calling thread's nice value (Linux threads have their own).
    let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
    let attr = SchedAttr {
        size: std::mem::size_of::<SchedAttr>() as u32,
        policy: libc::SCHED_OTHER as u32,
        flags: 0,
        nice,
        priority: 0,
        runtime: u64::try_from(slice.as_nanos()).unwrap_or(u64::MAX),
        deadline: 0,
        period: 0,
    };
    // SAFETY: pid 0 is the calling thread; `attr` is a valid sched_attr whose size field says how
    // much of it the kernel may read; flags 0 asks for nothing else.
    let done = unsafe { libc::syscall(libc::SYS_sched_setattr, 0, &attr as *const SchedAttr, 0) };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Elsewhere there is no such request to make.
#[cfg(not(target_os = "linux"))]
pub fn ask_for_slice(_slice: Duration) -> std::io::Result<()> {
    Err(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "time slices are a Linux request",
    ))
}

/// A thread, as [`lower_priority`] names it.
#[cfg(target_os = "linux")]
#[derive(Clone, Copy, Debug)]
pub struct Thread(libc::pid_t);

/// A thread, as [`lower_priority`] names it.
#[cfg(not(target_os = "linux"))]
#[derive(Clone, Copy, Debug)]
pub struct Thread;

/// The calling thread.
pub fn this_thread() -> Thread {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid takes nothing and cannot fail.
        Thread(unsafe { libc::gettid() })
    }
    #[cfg(not(target_os = "linux"))]
    Thread
}

/// Gives `thread` the lowest priority (nice 19): it then runs on what the others leave, about 1.5%
/// of a core against each busy thread of the default priority. Linux gives each thread its own
/// nice value; elsewhere this is refused.
pub fn lower_priority(thread: Thread) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: setpriority reads nothing of ours; PRIO_PROCESS with a thread id sets that
        // thread's nice value, and a thread of this process may always lower its priority.
        let done = unsafe { libc::setpriority(libc::PRIO_PROCESS, thread.0 as libc::id_t, 19) };
        if done == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = thread;
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "per-thread priorities are a Linux request",
        ))
    }
}

/// A thread's CPU clock: the CPU time it has used, which any thread of the process can read. The
/// pool tells a chunk of batch items that uses its slice from one that waited for a core.
#[derive(Clone, Copy, Debug)]
pub struct CpuClock {
    #[cfg(target_os = "linux")]
    id: libc::clockid_t,
}

impl CpuClock {
    /// The calling thread's CPU clock, where the system has one.
    pub fn of_this_thread() -> Option<CpuClock> {
        #[cfg(target_os = "linux")]
        {
            let mut id: libc::clockid_t = 0;
            // SAFETY: pthread_self is the calling thread, alive; `id` is a valid place to write.
            let done = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut id) };
            (done == 0).then_some(CpuClock { id })
        }
        #[cfg(not(target_os = "linux"))]
        None
    }

    /// The CPU time the thread has used so far, if the clock can be read (the thread is alive).
    pub fn used(self) -> Option<Duration> {
        #[cfg(target_os = "linux")]
        {
            let mut now = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: `now` is a valid timespec to write; a clock id of a thread that has ended is
            // refused with an error, not undefined behaviour.
            let done = unsafe { libc::clock_gettime(self.id, &mut now) };
            let secs = u64::try_from(now.tv_sec).ok()?;
            let nanos = u32::try_from(now.tv_nsec).ok()?;
            (done == 0).then(|| Duration::new(secs, nanos))
        }
        #[cfg(not(target_os = "linux"))]
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calling thread's slice in nanoseconds, where the kernel shows it (EEVDF kernels).
    fn reported_slice() -> Option<u64> {
        let sched = std::fs::read_to_string("/proc/thread-self/sched").ok()?;
        let line = sched.lines().find(|line| line.starts_with("se.slice"))?;
        line.split(':').nth(1)?.trim().parse().ok()
    }

    #[test]
    fn a_thread_cpu_clock_counts_its_work_and_not_its_sleep() {
        let clock = CpuClock::of_this_thread();
        if cfg!(not(target_os = "linux")) && clock.is_none() {
            eprintln!("no thread CPU clock on this system: nothing to check");
            return;
        }
        let clock = clock.expect("Linux gives every thread a CPU clock");
        let before = clock.used().unwrap();
        std::thread::sleep(Duration::from_millis(50));
        let slept = clock.used().unwrap() - before;
        assert!(
            slept < Duration::from_millis(25),
            "{slept:?} of CPU while asleep"
        );
        // Read from another thread, as the pool's watchdog does.
        let seen = std::thread::spawn(move || clock.used()).join().unwrap();
        assert!(seen.is_some_and(|seen| seen >= before));
    }

    #[test]
    fn runtime_threads_run_with_the_short_slice_where_the_kernel_reports_slices() {
        let runtime = runtime().unwrap();
        let slice = runtime.block_on(async { tokio::spawn(async { reported_slice() }).await });
        match slice.unwrap() {
            Some(nanos) => assert_eq!(u128::from(nanos), RUNTIME_SLICE.as_nanos()),
            None => eprintln!("this kernel does not report time slices: nothing to check"),
        }
    }
}
