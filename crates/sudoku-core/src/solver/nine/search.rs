//! The search loop: propagate, branch on a copy of the state, backtrack by popping one, until the
//! wanted count of solutions, the guess budget or the cancellation flag ends it.

use super::branch::Guess;
use super::state::{State, at};
use crate::grid::{Grid, Shape};
use crate::solver::{Limiter, Mode, Options, Outcome};

/// A branch not yet taken: the state to go on from, and a digit to place in it first (the other
/// digit of a guessed bivalue cell, as `[digit, band, cell index]`). The placing waits until the
/// branch is taken, since most are never taken: the search stops at its first or second solution.
#[derive(Clone, Copy)]
pub(super) struct Branch {
    state: State,
    place: Option<[u8; 3]>,
}

/// The search loop from a `start` state (`None`: the givens clash), on a cleared guess `stack`. The
/// outcome holds the first solution found only when `SOLUTION`: the generator's searches want only
/// the verdict and skip writing it out.
#[inline(always)]
pub(super) fn run<const BMI2: bool, const SOLUTION: bool>(
    start: Option<State>,
    options: &Options<'_>,
    stack: &mut Vec<Branch>,
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
                // The other branch: the cell's other digit if it has only one, to be placed when the
                // branch is taken rather than found as a naked single then; else the cell without
                // this digit.
                let mut other = Branch { state, place: None };
                match only_other {
                    Some(second) => {
                        other.place = Some([second as u8, band as u8, cell.trailing_zeros() as u8]);
                    }
                    None => {
                        let i = at(digit, band);
                        other.state.set(i, state.cand[i] & !cell);
                    }
                }
                stack.push(other);
                state.place::<BMI2>(digit, band, cell);
                continue;
            }
        }
        match stack.pop() {
            Some(next) => {
                state = next.state;
                if let Some([digit, band, index]) = next.place {
                    state.place::<BMI2>(usize::from(digit), usize::from(band), 1 << index);
                }
            }
            None => break,
        }
    }
    // A solved state's cells are digits 1-9: the grid needs no check.
    let solution = first.map(|cells| Grid::from_read_cells(Shape::NINE, cells));
    limiter.finish(options.mode, solution, solutions)
}
