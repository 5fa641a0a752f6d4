//! The solver: a backtracking search over candidate bitsets, with constraint propagation and
//! fewest-candidates branching. Pure and synchronous: it knows nothing of the service, so it can be
//! tested and benchmarked alone.
//!
//! [`solve`] takes any [`Grid`], even one whose givens clash (that is simply unsolvable), and never
//! panics. A search stops at a guess budget or when a caller-owned cancellation flag is raised.

mod generic;
mod nine;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::grid::{Grid, Shape};

/// What the search must establish.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Find a solution and prove it is the only one (search for a second).
    #[default]
    ProveUnique,
    /// Stop at the first solution found.
    FirstSolution,
}

/// How a search is run: its mode, budget and cancellation flag.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// What to establish.
    pub mode: Mode,
    /// The most guesses (branching decisions) the search may make before it gives up with
    /// [`Verdict::LimitReached`]. `None` for no limit. The general search (every shape but 9x9) also
    /// counts each tentative placement it probes as a guess, so this bounds all of its work.
    pub max_guesses: Option<u64>,
    /// Raised by the caller to stop the search early with [`Verdict::Cancelled`]. Checked every
    /// [`CANCEL_CHECK_INTERVAL`] guesses, so a search stops within microseconds.
    pub cancel: Option<&'a AtomicBool>,
}

/// Guesses between two looks at the cancellation flag: often enough to stop within microseconds, rarely
/// enough to cost nothing measurable.
pub const CANCEL_CHECK_INTERVAL: u64 = 256;

/// What the search established.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Exactly one solution.
    Unique,
    /// Two or more solutions; the outcome holds one of them.
    Multiple,
    /// No solution.
    Unsolvable,
    /// A solution, its uniqueness not checked ([`Mode::FirstSolution`]).
    Solved,
    /// The guess budget ran out before a verdict. A solution found before that is kept.
    LimitReached,
    /// The cancellation flag was raised before a verdict.
    Cancelled,
}

/// Figures the search collects as it goes, at no extra cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Branching decisions: cells where the search tried a digit and may have had to come back.
    pub guesses: u64,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// What the search established.
    pub verdict: Verdict,
    /// A solution, when one was found.
    pub solution: Option<Grid>,
    /// What the search cost.
    pub stats: Stats,
}

/// Solves `puzzle` as `options` ask.
///
/// 9x9 grids take the fast band-bitboard path; other shapes the general search.
pub fn solve(puzzle: &Grid, options: &Options<'_>) -> Outcome {
    if puzzle.shape() == Shape::NINE {
        nine::solve(puzzle, options)
    } else {
        generic::solve(puzzle, options)
    }
}

/// Solves `puzzle` as [`solve`] does, but a 9x9 grid on the portable code path whatever the CPU: the
/// reference the CPU-specific path is tested against, and the yardstick for what it gains (feature
/// `reference`).
#[cfg(any(test, feature = "reference"))]
pub fn solve_portable(puzzle: &Grid, options: &Options<'_>) -> Outcome {
    if puzzle.shape() == Shape::NINE {
        nine::solve_portable(puzzle, options)
    } else {
        generic::solve(puzzle, options)
    }
}

/// Which code path [`solve`] takes for 9x9 grids on this CPU (chosen at run time), for reports such
/// as the `bench` header.
pub fn code_path() -> &'static str {
    nine::code_path()
}

/// Solves `puzzle` with the general search whatever its shape: slower, but simple enough to serve as
/// an independent oracle when testing the fast path (feature `reference`).
#[cfg(any(test, feature = "reference"))]
pub fn solve_generic(puzzle: &Grid, options: &Options<'_>) -> Outcome {
    generic::solve(puzzle, options)
}

/// A 9x9 puzzle's givens as the fast path's bitboards, for a caller that edits one puzzle a given at
/// a time (the generator's digger) and searches it after each edit with [`solve_nine_excluding`].
pub(crate) use nine::dig::Givens as NineGivens;

/// Searches the 9x9 puzzle of `givens` as [`solve`] would, with `value` ruled out at the row-major
/// `index` when `exclude` is `Some((index, value))`, and says what it established (the solution it
/// finds is not built): one search answers "is there a solution that does not put `value` there?",
/// which is how the digger proves a removed clue unneeded. On the code path [`solve`] picks for
/// this CPU; budget and cancellation as for [`solve`].
pub(crate) fn solve_nine_excluding(
    givens: &NineGivens,
    exclude: Option<(usize, u8)>,
    options: &Options<'_>,
) -> Verdict {
    nine::dig::verdict_excluding(givens, exclude, options)
}

/// Tracks the guess budget and the cancellation flag; the search asks it before each guess.
pub(crate) struct Limiter<'a> {
    guesses: u64,
    max_guesses: u64,
    cancel: Option<&'a AtomicBool>,
    stopped: Option<Verdict>,
}

impl<'a> Limiter<'a> {
    pub(crate) fn new(options: &Options<'a>) -> Self {
        Limiter {
            guesses: 0,
            max_guesses: options.max_guesses.unwrap_or(u64::MAX),
            cancel: options.cancel,
            stopped: None,
        }
    }

    /// Counts one guess; false when the search must stop (budget spent or cancelled).
    #[inline]
    pub(crate) fn guess(&mut self) -> bool {
        if self.guesses >= self.max_guesses {
            self.stopped = Some(Verdict::LimitReached);
            return false;
        }
        // Looking before the first guess too means a flag raised before the search began stops it at
        // its first guess, rather than after a whole interval.
        if self.guesses.is_multiple_of(CANCEL_CHECK_INTERVAL)
            && self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            self.stopped = Some(Verdict::Cancelled);
            return false;
        }
        self.guesses += 1;
        true
    }

    /// The verdict for a search that found `solutions` (0, 1 or 2) and may have been stopped.
    pub(crate) fn verdict(&self, mode: Mode, solutions: u32) -> Verdict {
        match (self.stopped, solutions, mode) {
            (_, 2.., _) => Verdict::Multiple,
            (_, 1, Mode::FirstSolution) => Verdict::Solved,
            (Some(stop), _, _) => stop,
            (None, 1, Mode::ProveUnique) => Verdict::Unique,
            (None, _, _) => Verdict::Unsolvable,
        }
    }

    /// Why the search was stopped (budget or cancel), if it was.
    pub(crate) fn stopped(&self) -> Option<Verdict> {
        self.stopped
    }

    /// What the search cost so far.
    pub(crate) fn stats(&self) -> Stats {
        Stats {
            guesses: self.guesses,
        }
    }

    /// The verdict for a search that found `solutions` (0, 1 or 2) and may have been stopped.
    pub(crate) fn finish(self, mode: Mode, solution: Option<Grid>, solutions: u32) -> Outcome {
        Outcome {
            verdict: self.verdict(mode, solutions),
            solution,
            stats: self.stats(),
        }
    }
}
