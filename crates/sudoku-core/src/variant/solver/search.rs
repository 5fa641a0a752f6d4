//! The search: propagate, then branch on the cell with the fewest candidates (the most tied to other
//! cells among those), trying each value on a copy of the board. Every guess goes through the
//! [`Limiter`], which stops the search when the budget is spent or the caller cancels.

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
        // A value with at least two places fewer left in a house than the cell has candidates:
        // branch on where it goes instead (each branch still covers every solution: the value is
        // somewhere there). With only one fewer, the cell, chosen by its conflicts, does better.
        let candidates = board.get(cell).count_ones() as usize;
        if candidates > 3
            && let Some((house, value)) = fewest_places(model, &board, candidates - 1)
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

/// The house and value (as a bit) whose value has the fewest open places, if fewer than
/// `fewer_than`; a value already fixed in its house is not open.
fn fewest_places<'m>(
    model: &'m Model<'_>,
    board: &Board,
    fewer_than: usize,
) -> Option<(&'m [usize], u16)> {
    let mut best: Option<(&[usize], u16, usize)> = None;
    for house in model.houses() {
        let mut fixed = 0u16;
        for &c in house {
            let m = board.get(c);
            if m.is_power_of_two() {
                fixed |= m;
            }
        }
        let mut open = !fixed;
        while open != 0 {
            let value = open & open.wrapping_neg();
            open &= !value;
            let places = house.iter().filter(|&&c| board.get(c) & value != 0).count();
            if places < 2 {
                continue;
            }
            if places < best.map_or(fewer_than, |(_, _, p)| p) {
                best = Some((house, value, places));
            }
        }
    }
    best.map(|(house, value, _)| (house, value))
}
