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
    let mut board = board;
    if model.propagate(&mut board).is_err() {
        return Flow::Continue;
    }
    // The cell with the fewest candidates; among those, the most tied to others.
    let mut best: Option<(usize, u32, u32)> = None;
    for cell in 0..model.cells() {
        let n = board.get(cell).count_ones();
        if n < 2 {
            continue;
        }
        let d = model.degree(cell);
        if best.is_none_or(|(_, bn, bd)| n < bn || (n == bn && d > bd)) {
            best = Some((cell, n, d));
        }
    }
    let Some((cell, _, _)) = best else {
        let solution = board.solution(model.cells());
        // Propagation checks every rule on a full grid; the oracle is the last word regardless.
        if !model.variant().is_solved_by(&solution) {
            debug_assert!(false, "propagation let through a grid that breaks a rule");
            return Flow::Continue;
        }
        return visit(solution);
    };
    let mut rest = board.get(cell);
    while rest != 0 {
        let one = rest & rest.wrapping_neg();
        rest &= !one;
        if !limiter.guess() {
            return Flow::Stop;
        }
        let mut next = board;
        if next.restrict(cell, one).is_ok() && run(model, next, limiter, visit) == Flow::Stop {
            return Flow::Stop;
        }
    }
    Flow::Continue
}
