//! The variant solver: propagation of every rule over candidate sets, and a search that branches on
//! the cell with the fewest candidates, under the same budget and cancel flag as every solve.

mod board;
mod model;
mod pairs;
mod sandwich;
mod search;
mod sums;
mod thermo;

use crate::solver::{Limiter, Mode, Options, Stats, Verdict};

use super::Variant;
use board::bit;
use model::Model;
use search::Flow;

/// What a variant search established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantOutcome {
    /// The verdict, as for a classic puzzle.
    pub verdict: Verdict,
    /// A solution (row-major values), when one was found.
    pub solution: Option<Vec<u8>>,
    /// What the search cost.
    pub stats: Stats,
}

/// The values each cell takes in at least one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrueCandidates {
    /// Unique, Multiple or Unsolvable when every solution was accounted for; LimitReached or
    /// Cancelled when the search stopped first.
    pub verdict: Verdict,
    /// For each cell, row-major, bit `v - 1` set when value `v` is in some solution; `None` when
    /// the search stopped before it knew them all (no partial answer).
    pub cells: Option<Vec<u16>>,
    /// What the search cost.
    pub stats: Stats,
}

/// Solves `variant` as `options` ask (mode, guess budget, cancel flag): [`Mode::ProveUnique`] looks
/// for a second solution, [`Mode::FirstSolution`] stops at the first. Every solution it returns
/// satisfies [`Variant::is_solved_by`].
pub fn solve(variant: &Variant, options: &Options<'_>) -> VariantOutcome {
    let model = Model::new(variant);
    let mut limiter = Limiter::new(options);
    let wanted = match options.mode {
        Mode::ProveUnique => 2,
        Mode::FirstSolution => 1,
    };
    let mut first = None;
    let mut found = 0u32;
    if let Ok(board) = model.start() {
        search::run(&model, board, &mut limiter, &mut |solution| {
            found += 1;
            first.get_or_insert(solution);
            if found >= wanted {
                Flow::Stop
            } else {
                Flow::Continue
            }
        });
    }
    VariantOutcome {
        verdict: limiter.verdict(options.mode, found),
        solution: first,
        stats: limiter.stats(),
    }
}

/// The true candidates of `variant`: every value of every cell that some solution has, within the
/// guess budget of `options` (its mode is ignored).
///
/// Each solution found marks all its values; then each value still unmarked in each cell is tried
/// in turn (one guess), and either a solution holding it marks more, or it is proved in none and
/// leaves the board, which narrows the searches after it.
pub fn true_candidates(variant: &Variant, options: &Options<'_>) -> TrueCandidates {
    let model = Model::new(variant);
    let cells = model.cells();
    let mut limiter = Limiter::new(options);
    let unsolvable = |limiter: &Limiter<'_>| TrueCandidates {
        verdict: Verdict::Unsolvable,
        cells: Some(vec![0; cells]),
        stats: limiter.stats(),
    };
    let stopped = |limiter: &Limiter<'_>, stop: Verdict| TrueCandidates {
        verdict: stop,
        cells: None,
        stats: limiter.stats(),
    };
    let Ok(mut root) = model.start() else {
        return unsolvable(&limiter);
    };
    if model.propagate(&mut root).is_err() {
        return unsolvable(&limiter);
    }
    let mut marked = vec![0u16; cells];
    let mut found = false;
    let mark = |marked: &mut Vec<u16>, solution: Vec<u8>| {
        for (m, v) in marked.iter_mut().zip(solution) {
            *m |= bit(u32::from(v));
        }
        Flow::Stop
    };
    search::run(&model, root, &mut limiter, &mut |solution| {
        found = true;
        mark(&mut marked, solution)
    });
    if let Some(stop) = limiter.stopped() {
        return stopped(&limiter, stop);
    }
    if !found {
        return unsolvable(&limiter);
    }
    for cell in 0..cells {
        let mut tried = 0u16;
        loop {
            let open = root.get(cell) & !marked[cell] & !tried;
            if open == 0 {
                break;
            }
            let one = open & open.wrapping_neg();
            tried |= one;
            if !limiter.guess() {
                break;
            }
            let mut trial = root;
            let mut hit = false;
            if trial.restrict(cell, one).is_ok() {
                search::run(&model, trial, &mut limiter, &mut |solution| {
                    hit = true;
                    mark(&mut marked, solution)
                });
            }
            if limiter.stopped().is_some() {
                break;
            }
            if !hit {
                // In no solution: off the board, and what that implies with it. A solution exists,
                // so this cannot empty a cell; if it somehow did, the board is kept as it was.
                let mut narrowed = root;
                if narrowed.restrict(cell, !one).is_ok() && model.propagate(&mut narrowed).is_ok() {
                    root = narrowed;
                } else {
                    debug_assert!(false, "a value in no solution was the last of its cell");
                }
            }
        }
        if let Some(stop) = limiter.stopped() {
            return stopped(&limiter, stop);
        }
    }
    let verdict = if marked.iter().all(|m| m.count_ones() == 1) {
        Verdict::Unique
    } else {
        Verdict::Multiple
    };
    TrueCandidates {
        verdict,
        cells: Some(marked),
        stats: limiter.stats(),
    }
}
