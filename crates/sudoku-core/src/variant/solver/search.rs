//! The search: propagate, then branch on the cell with the fewest candidates (the most tied to other
//! cells among those), trying each value on a copy of the board. Every guess goes through the
//! [`Limiter`], which stops the search when the budget is spent or the caller cancels.

use std::cmp::Reverse;

use crate::solver::Limiter;

use super::board::Board;
use super::model::Model;

/// Whether a search should go on after a solution or a dead end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flow {
    /// Keep looking.
    Continue,
    /// Stop: the visitor has what it wanted, or the limiter refused a guess.
    Stop,
}

/// Visits the solutions reachable from `board`, in search order, until `visit` says stop or the
/// limiter refuses a guess. Only grids the variant's own check accepts are visited.
pub(super) fn run(
    model: &Model<'_>,
    board: Board,
    limiter: &mut Limiter<'_>,
    visit: &mut dyn FnMut(Vec<u8>) -> Flow,
) -> Flow {
    let mut search = Search {
        model,
        limiter,
        visit,
        conflicts: vec![0; model.cells()],
    };
    search.descend(board, None)
}

/// One search's state: what it searches, its budget, what it does with a solution, and how often a
/// guess in each cell led straight into a contradiction.
struct Search<'s, 'm, 'l> {
    model: &'s Model<'m>,
    limiter: &'s mut Limiter<'l>,
    visit: &'s mut dyn FnMut(Vec<u8>) -> Flow,
    /// Per cell, the guesses there whose propagation failed at once. Branching prefers cells with
    /// few candidates and many conflicts (the weighted-degree heuristic of constraint solvers): a
    /// rule that keeps refuting guesses points at the cells that decide the puzzle.
    conflicts: Vec<u32>,
}

impl Search<'_, '_, '_> {
    /// Propagates `board` (reached by a guess in cell `guessed`, if any), then branches.
    fn descend(&mut self, board: Board, guessed: Option<usize>) -> Flow {
        let model = self.model;
        let mut board = board;
        if model.propagate(&mut board).is_err() {
            if let Some(cell) = guessed {
                self.conflicts[cell] = self.conflicts[cell].saturating_add(1);
            }
            return Flow::Continue;
        }
        // The cell with the fewest candidates per conflict; among equals, the most tied to others.
        let mut best: Option<(usize, u64, u64, u32)> = None;
        for cell in 0..model.cells() {
            let n = u64::from(board.get(cell).count_ones());
            if n < 2 {
                continue;
            }
            let w = 1 + u64::from(self.conflicts[cell]);
            let d = model.degree(cell);
            let better = best.is_none_or(|(_, bn, bw, bd)| (n, bw, bd) < (bn, w, d));
            if better {
                best = Some((cell, n, w, d));
            }
        }
        let Some((cell, ..)) = best else {
            let solution = board.solution(model.cells());
            // Propagation checks every rule on a full grid; the oracle is the last word regardless.
            if !model.variant().is_solved_by(&solution) {
                debug_assert!(false, "propagation let through a grid that breaks a rule");
                return Flow::Continue;
            }
            return (self.visit)(solution);
        };
        // Or branch on where a value goes in a house, when that is a narrower or a more disputed
        // choice (each branch still covers every solution: the value is somewhere there).
        let candidates = board.get(cell).count_ones() as usize;
        if candidates > 2
            && let Some((house, value)) = place_branch(
                model,
                &board,
                &self.conflicts,
                candidates,
                self.conflicts[cell],
            )
        {
            for &place in house {
                if board.get(place) & value == 0 || board.get(place) == value {
                    continue;
                }
                if !self.limiter.guess() {
                    return Flow::Stop;
                }
                let mut next = board;
                if next.restrict(place, value).is_ok()
                    && self.descend(next, Some(place)) == Flow::Stop
                {
                    return Flow::Stop;
                }
            }
            return Flow::Continue;
        }
        let mut rest = board.get(cell);
        while rest != 0 {
            let one = rest & rest.wrapping_neg();
            rest &= !one;
            if !self.limiter.guess() {
                return Flow::Stop;
            }
            let mut next = board;
            if next.restrict(cell, one).is_err() {
                self.conflicts[cell] = self.conflicts[cell].saturating_add(1);
                continue;
            }
            if self.descend(next, Some(cell)) == Flow::Stop {
                return Flow::Stop;
            }
        }
        Flow::Continue
    }
}

/// The house and value (as a bit) to branch on instead of a cell with `candidates` values whose
/// guesses failed `cell_conflicts` times, if any: a value with at least two places fewer than
/// that (the fewest places first, then the most failed guesses among them), or else, once the
/// cell has failed guesses, a value with two places where one has failed, per branch, at least
/// twice as often as the cell per branch (the house candidates of sigh's Interactive Sudoku
/// Solver).
fn place_branch<'m>(
    model: &'m Model<'_>,
    board: &Board,
    conflicts: &[u32],
    candidates: usize,
    cell_conflicts: u32,
) -> Option<(&'m [usize], u16)> {
    let narrower_possible = candidates >= 4;
    if !narrower_possible && cell_conflicts == 0 {
        return None;
    }
    // Rank: a narrower choice before a disputed pair, fewer places, more failed guesses.
    let mut best: Option<(&[usize], u16)> = None;
    let mut best_rank = (true, usize::MAX, Reverse(0));
    for house in model.houses() {
        // The values with two places or more, and with more than two; a value already fixed in
        // the house is not open.
        let (mut once, mut twice, mut more, mut fixed) = (0u16, 0u16, 0u16, 0u16);
        for &c in house {
            let m = board.get(c);
            more |= twice & m;
            twice |= once & m;
            once |= m;
            if m.is_power_of_two() {
                fixed |= m;
            }
        }
        let mut open = if narrower_possible {
            twice & !fixed
        } else {
            twice & !more & !fixed
        };
        while open != 0 {
            let value = open & open.wrapping_neg();
            open &= !value;
            let (mut places, mut most) = (0usize, 0u32);
            for &c in house {
                if board.get(c) & value != 0 {
                    places += 1;
                    most = most.max(conflicts[c]);
                }
            }
            let narrower = places + 2 <= candidates;
            let disputed = places == 2
                && cell_conflicts > 0
                && u64::from(most) * candidates as u64 >= 4 * u64::from(cell_conflicts);
            if !(narrower || disputed) {
                continue;
            }
            let rank = (!narrower, places, Reverse(most));
            if rank < best_rank {
                best = Some((house, value));
                best_rank = rank;
            }
        }
    }
    best
}
