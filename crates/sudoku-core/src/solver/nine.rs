//! The fast path for 9x9 grids: band-oriented bitboards with table-driven propagation.
//!
//! # Layout
//!
//! The grid is cut into three bands of three rows. For each digit and band, one `u32` holds the 27
//! cells of the band where the digit may still go, bit `row_in_band * 9 + column`. A cell's bit in its
//! band is therefore just its row-major index minus `27 * band`. Twenty-seven such words (9 digits x 3
//! bands), a mask of unsolved cells per band and two 27-bit masks of words changed since band
//! consistency and the stack pass last saw them make the whole search state: 128 bytes, copied on each
//! guess instead of being undone, so the search never needs an undo log.
//!
//! A placed digit keeps its bit (and every other digit loses it), so at every moment each digit must
//! keep at least one bit in every row, column and box.
//!
//! # Propagation
//!
//! 1. **Band consistency** (per digit and band, only when the word changed since it was last looked
//!    at): in a band a digit takes exactly one cell in each of the three rows and each of the three
//!    boxes, so the (row, box) pairs it uses form one of six permutations. A table, indexed by the
//!    9-bit pattern of (row, box) segments that still hold a candidate, gives the cells that belong to
//!    at least one possible permutation. Masking with it performs pointing and claiming (locked
//!    candidates) inside the band and box hidden singles, and an empty result is a contradiction.
//!    A row left with one candidate is a hidden single: the digit is placed, which clears its column in
//!    the other two bands, its row, column and box in this band, and the cell in the other digits.
//! 2. **Naked singles**: bit-sliced counting over the nine digit words of a band finds, for all 27 cells
//!    at once, the cells with no candidate (contradiction) and those with exactly one (placed).
//! 3. **Stacks and column hidden singles** (per digit, only when one of its words changed since the
//!    last pass): locked candidates in the column direction, then a column whose candidates lie in one
//!    band and one row of it.
//!
//! # Search
//!
//! When propagation stalls, the search branches on a bivalue cell (there almost always is one; else a
//! cell with the fewest candidates), choosing the one where either branch promises the most: its
//! digits' candidates among its peers, and the bivalue peers that placing them makes naked singles.
//! Until some branch has failed, and while few cells are open, it takes the first bivalue cell
//! instead, which does as well there for less. It pushes a copy of the state with the cell's other
//! digit to place when that branch is taken (or, on a cell with more than two, the first candidate
//! removed), then places the first candidate.
//! Backtracking pops the copy. There is no recursion, and the stack is kept per thread between solves,
//! so steady-state solving does not allocate.
//!
//! # Code paths
//!
//! The search is compiled twice: for x86-64-v3 (AVX2 for the band registers; BMI1, POPCNT and LZCNT
//! serve the bit loops; BMI2's `pext` and `pdep` are left out, being microcoded on AMD CPUs before
//! Zen 3) and portably. [`solve`] picks at run time,
//! so the default build is as fast as a `target-cpu=native` one on any recent x86-64 CPU. The two
//! paths take the same decisions; the tests check they give the same outcomes, guess for guess.

mod band;
mod branch;
// Searches from caller-kept givens, with a digit excluded at a cell, for the generator's digger.
pub(super) mod dig;
#[cfg(target_arch = "x86_64")]
mod lanes;
mod search;
mod state;

use super::{Options, Outcome};
use crate::grid::Grid;
use search::{Branch, run};
use state::State;

std::thread_local! {
    /// The guess stack of the last solve on this thread, kept so that steady-state solving does not
    /// allocate. A nested or panicking solve finds it taken and starts a new one.
    static STACK: std::cell::Cell<Vec<Branch>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Solves a 9x9 `puzzle` (the caller has checked the shape) on the best code path this CPU offers.
///
/// The choice is made at run time, so the portable binary that `cargo build --release`, `cargo install`
/// and the Dockerfile produce runs as fast as one built with `-C target-cpu=native`: on an x86-64 CPU
/// with the x86-64-v3 instructions (AVX2, BMI1/2, LZCNT, POPCNT: Intel Haswell, AMD Excavator and
/// later) the search is compiled for them; anywhere else the portable path runs. Both paths make the
/// same decisions, so they give the same outcome, guess for guess.
pub(super) fn solve(puzzle: &Grid, options: &Options<'_>) -> Outcome {
    with_stack(|stack| {
        #[cfg(target_arch = "x86_64")]
        if has_v3() {
            // SAFETY: the CPU has every feature `search_v3` is compiled for.
            return unsafe { search_v3(puzzle, options, stack) };
        }
        search::<false>(puzzle, options, stack)
    })
}

/// Solves a 9x9 `puzzle` on the portable path whatever the CPU: the reference the fast path is tested
/// against.
#[cfg(any(test, feature = "reference"))]
pub(super) fn solve_portable(puzzle: &Grid, options: &Options<'_>) -> Outcome {
    with_stack(|stack| search::<false>(puzzle, options, stack))
}

/// The code path [`solve`] takes on this CPU, for reports.
pub(super) fn code_path() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if has_v3() {
        return "x86-64-v3 (AVX2, BMI2), chosen at run time";
    }
    "portable"
}

/// Whether this CPU has the instructions [`search_v3`] is compiled for. The standard library caches
/// the answer, so asking costs a few loads.
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_v3() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt")
}

/// [`search()`] compiled for x86-64-v3: `tzcnt`/`blsr`/`popcnt` for the bit loops, AVX2 for the band
/// registers and where the compiler vectorizes. Everything it calls is `#[inline(always)]`, so the
/// whole search is compiled with these features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn search_v3(puzzle: &Grid, options: &Options<'_>, stack: &mut Vec<Branch>) -> Outcome {
    search::<true>(puzzle, options, stack)
}

/// Runs `f` on this thread's guess stack, cleared.
#[inline(always)]
fn with_stack(f: impl FnOnce(&mut Vec<Branch>) -> Outcome) -> Outcome {
    let mut stack = STACK.take();
    stack.clear();
    stack.reserve(32);
    let outcome = f(&mut stack);
    STACK.set(stack);
    outcome
}

/// The search of [`solve`], on a cleared guess `stack`; `BMI2` says whether the CPU has BMI2.
#[inline(always)]
fn search<const BMI2: bool>(
    puzzle: &Grid,
    options: &Options<'_>,
    stack: &mut Vec<Branch>,
) -> Outcome {
    run::<BMI2, true>(State::from_givens::<BMI2>(puzzle.cells()), options, stack)
}
