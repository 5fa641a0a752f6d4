//! The general search, for every shape from 4x4 to 25x25: one bitset of candidates per cell and one
//! of places per value and unit, naked and hidden singles and locked candidates to a fixpoint, then
//! (on grids large enough to pay for it) all-different reasoning by matching on every unit (every
//! naked and hidden subset) and failed-literal probing on every two-way choice. Only then a
//! guess, on the two-way choice whose probes narrowed the board the most, or else on the fewest
//! alternatives. The state is flat arrays of masks, so a guess is a cheap copy rather than an undo
//! log, and a probe runs on one scratch copy and keeps only the list of what it removed.

mod board;
mod branch;
mod matching;
mod probe;
mod tables;
#[cfg(test)]
mod tests;

use super::{Limiter, Mode, Options, Outcome};
use crate::grid::Grid;
use board::{Board, Propagator};
use branch::{Branch, choose};
use probe::{Probe, Probed};
use tables::Tables;

/// Candidate values of one cell: bit `v - 1` for value `v` (25 bits at most), and [`PLACED`].
type Mask = u32;

/// Set on a cell whose value is decided (a given, a single, or a guess) and is being or has been
/// removed from its peers: the search then never looks at its candidates again.
const PLACED: Mask = 1 << 31;

/// The smallest side on which the search probes. On smaller grids singles, locked candidates and a
/// guess settle a node for less than probing it costs (6x6 generation ran five times slower with
/// probes), while from 16x16 on probing cuts the search by orders of magnitude.
const PROBE_MIN_SIDE: usize = 12;

/// A guess made: the board before it, where it branched, and the alternatives not yet tried.
struct Guess {
    board: Board,
    branch: Branch,
    untried: Mask,
}

/// The smallest side (above [`PROBE_MIN_SIDE`]) on which probes follow locked candidates and the
/// fallback branch weighs constraints by their failures. On Gecode's 25x25 instances each probe
/// then sees further (~40 % fewer probes, twice as many first solutions within 200,000 probes); on
/// tough 16x16 puzzles the ~40 % probes saved cost more than they save (+11 % instructions), so
/// 16x16 goes without.
const LOCK_MIN_SIDE: usize = 20;

pub(super) fn solve(puzzle: &Grid, options: &Options<'_>) -> Outcome {
    let side = puzzle.shape().side();
    search(
        puzzle,
        options,
        side >= PROBE_MIN_SIDE,
        side >= LOCK_MIN_SIDE,
    )
}

/// The search, probing at every node when `probing` (and then filtering every unit by matching at
/// each node: on tough 16x16 puzzles this cuts the probes 50-fold, as most of them only rediscovered
/// subsets), following locked candidates in every probe and weighing the fallback branch by
/// failures when `locking` too.
fn search(puzzle: &Grid, options: &Options<'_>, probing: bool, locking: bool) -> Outcome {
    let mut limiter = Limiter::new(options);
    let shape = puzzle.shape();
    let tables = Tables::of(shape);
    let mut propagator = Propagator::new(tables);
    let all = propagator.all;
    propagator.locking = probing && locking;
    propagator.matching = probing;
    let wanted = match options.mode {
        Mode::ProveUnique => 2,
        Mode::FirstSolution => 1,
    };
    let mut board = Board::new(tables);
    let mut consistent = true;
    for (cell, &value) in puzzle.cells().iter().enumerate() {
        if value != 0 && consistent {
            // A given whose value a peer's given already took clashes: no solution.
            consistent = propagator.place(&mut board, cell, 1 << (value - 1));
        }
    }
    // Built on the first node that probes: small grids never pay for it.
    let mut scratch: Option<Probe> = None;
    let mut solutions = 0;
    let mut first = None;
    // Guesses made, deepest last; their boards are kept for reuse once popped.
    let mut guesses: Vec<Guess> = Vec::new();
    let mut depth = 0;
    let mut alive = consistent && propagator.propagate(&mut board);
    'search: loop {
        let mut preferred = None;
        if alive && probing && !board.is_full() {
            let scratch = scratch.get_or_insert_with(|| Probe::new(shape.cells()));
            // Probing to a fixpoint pays at the root, which every branch shares; below it one round
            // finds most of what there is, and a confirming round would only repeat every probe.
            let fixpoint = depth == 0;
            match scratch.run(&mut propagator, &mut board, tables, fixpoint, &mut limiter) {
                Probed::Contradiction => alive = false,
                Probed::Stopped => break 'search,
                Probed::Done(choice) => preferred = choice,
            }
        }
        if alive {
            let next = match preferred {
                Some(choice) => Some((choice.branch, choice.untried)),
                None => choose(
                    &board,
                    tables,
                    propagator.locking.then_some(&propagator.weights[..]),
                ),
            };
            match next {
                None => {
                    solutions += 1;
                    if first.is_none() {
                        first = Grid::from_cells(shape, board.values(all));
                    }
                    if solutions >= wanted {
                        break 'search;
                    }
                }
                Some((branch, untried)) => {
                    if depth == guesses.len() {
                        guesses.push(Guess {
                            board: board.clone(),
                            branch,
                            untried,
                        });
                    } else {
                        let guess = &mut guesses[depth];
                        guess.board.copy_from(&board);
                        guess.branch = branch;
                        guess.untried = untried;
                    }
                    depth += 1;
                }
            }
        }
        // The next alternative at the deepest guess with one left; the search is over when none has.
        loop {
            let Some(guess) = depth.checked_sub(1).map(|d| &mut guesses[d]) else {
                break 'search;
            };
            if guess.untried == 0 {
                depth -= 1;
                continue;
            }

            if !limiter.guess() {
                break 'search;
            }
            let next = guess.untried & guess.untried.wrapping_neg();
            guess.untried &= !next;
            let (cell, bit) = guess.branch.placement(next, tables);
            board.copy_from(&guess.board);
            propagator.reset();
            alive = propagator.place(&mut board, cell, bit) && propagator.propagate(&mut board);
            break;
        }
    }
    limiter.finish(options.mode, first, solutions)
}
