//! The search loop: propagate, branch on a copy of the state, backtrack by popping one, until the
//! wanted count of solutions, the guess budget or the cancellation flag ends it.

use super::branch::Guess;
use super::state::{State, at};
use crate::grid::{Grid, Shape};
use crate::solver::{Limiter, Mode, Options, Outcome};

/// The search loop from a `start` state (`None`: the givens clash), on a cleared guess `stack`. The
/// outcome holds the first solution found only when `SOLUTION`: the generator's searches want only
/// the verdict and skip writing it out.
#[inline(always)]
pub(super) fn run<const BMI2: bool, const SOLUTION: bool>(
    start: Option<State>,
    options: &Options<'_>,
    stack: &mut Vec<State>,
) -> Outcome {
    let mut limiter = Limiter::new(options);
    let wanted = match options.mode {
        Mode::ProveUnique => 2,
        Mode::FirstSolution => 1,
    };
    let Some(mut state) = start else {
        return limiter.finish(options.mode, None, 0);
    };
    let mut first: Option<[u8; 81]> = None;
    let mut solutions = 0u32;
    // No branch has failed yet: guesses may then be chosen quickly (see `State::pick`).
    let mut quick = true;
    loop {
        let settled = state.propagate::<BMI2>();
        quick &= settled;
        if settled {
            if state.is_solved() {
                solutions += 1;
                if SOLUTION && first.is_none() {
                    first = Some(state.cells::<BMI2>());
                }
                if solutions >= wanted {
                    break;
                }
            } else {
                if !limiter.guess() {
                    break;
                }
                let Guess {
                    band,
                    cell,
                    digit,
                    only_other,
                } = state.pick::<BMI2>(quick);
                // The other branch: the cell's other digit if it has only one, placed now rather than
                // found as a naked single later; else the cell without this digit.
                let mut other = state;
                match only_other {
                    Some(second) => {
                        other.place::<BMI2>(second, band, cell);
                    }
                    None => {
                        let i = at(digit, band);
                        other.set(i, other.cand[i] & !cell);
                    }
                }
                stack.push(other);
                state.place::<BMI2>(digit, band, cell);
                continue;
            }
        }
        match stack.pop() {
            Some(next) => state = next,
            None => break,
        }
    }
    // A solved state's cells are digits 1-9: the grid needs no check.
    let solution = first.map(|cells| Grid::from_read_cells(Shape::NINE, cells.to_vec()));
    limiter.finish(options.mode, solution, solutions)
}
