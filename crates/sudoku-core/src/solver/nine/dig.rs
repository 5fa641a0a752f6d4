//! Entry points of the 9x9 search for a caller that edits one puzzle a given at a time: the
//! generator's digger.
//!
//! Digging asks, for each clue it tries to remove, whether the puzzle without it still has only the
//! known solution. Through [`super::solve`] that costs a whole new search per question, each reading
//! the grid and placing every given again, and one question per other digit the blanked cell could
//! take. Here the caller keeps its givens as band bitboards and their search start state
//! ([`Givens`]: setting or clearing a given edits both), and [`verdict_excluding`] asks the single
//! question "is there a solution with this digit *not* at this cell?" in one search, without
//! re-finding the known solution.
//!
//! This is a child module of `nine` so that it can use the search state without widening it. It runs
//! the parent's search loop ([`super::search::run`]) from its kept state instead of a grid, compiled for the
//! same two code paths and dispatched the same way.

use super::band::{BOX_CELLS, BOXES_OF_ROW, COLUMN_SPREAD, PEERS_IN_BAND, columns, rows_of};
use super::search::{Branch, run};
use super::state::{State, at};
use crate::solver::{Options, Outcome, Verdict};

/// The givens of a 9x9 puzzle as band bitboards: `placed[digit * 3 + band]` holds the cells of the
/// band (bit `row_in_band * 9 + column`) where the digit (0-based) is a given.
///
/// It also keeps the search's start state for them, edited with each given set or cleared (a few
/// dozen instructions) instead of built again for every search, while the givens do not clash; an
/// edit that makes them clash (or that follows one) leaves it to be built from scratch.
#[derive(Clone, Copy)]
pub(crate) struct Givens {
    placed: [u32; 27],
    /// The state `placed` gives, exactly as [`Givens::rebuilt`] builds it; `None` when the givens
    /// may clash.
    start: Option<State>,
}

impl Default for Givens {
    fn default() -> Givens {
        Givens {
            placed: [0; 27],
            start: Some(State::OPEN),
        }
    }
}

impl Givens {
    /// The givens of a row-major 9x9 `cells` (0 for a blank; values above 9 are ignored, as the
    /// search ignores them).
    pub(crate) fn from_cells(cells: &[u8]) -> Givens {
        let mut givens = Givens::default();
        for (index, &value) in cells.iter().enumerate().take(81) {
            givens.set(index, value);
        }
        givens
    }

    /// Makes `value` (1-9) a given at the row-major `index`; 0 (or above 9) does nothing. The cell
    /// should not already hold another given: it would then hold both, which no solution can.
    #[inline]
    pub(crate) fn set(&mut self, index: usize, value: u8) {
        let Some(i) = Self::word(index, value) else {
            return;
        };
        let (band, cell) = (index / 27, index % 27);
        let bit = 1 << cell;
        if self.placed[i] & bit != 0 {
            return;
        }
        self.placed[i] |= bit;
        if let Some(state) = &mut self.start {
            // The cell is free and no peer holds the digit exactly when the digit is still a
            // candidate of a blank there: then the givens still do not clash, and placing it is
            // what `rebuilt` does for it.
            let digit = i / 3;
            let own = at(digit, band);
            if state.unsolved[band] & state.cand[own] & bit == 0 {
                self.start = None;
                return;
            }
            let column = COLUMN_SPREAD << (cell % 9);
            for b in 0..3 {
                state.cand[at(digit, b)] &= !column;
            }
            for d in 0..9 {
                state.cand[at(d, band)] &= !bit;
            }
            state.cand[own] = (state.cand[own] & !PEERS_IN_BAND[cell]) | bit;
            state.unsolved[band] &= !bit;
        }
    }

    /// Removes the given `value` (1-9) at the row-major `index`, if it is there.
    #[inline]
    pub(crate) fn clear(&mut self, index: usize, value: u8) {
        let Some(i) = Self::word(index, value) else {
            return;
        };
        let (band, cell) = (index / 27, index % 27);
        let bit = 1 << cell;
        if self.placed[i] & bit == 0 {
            return;
        }
        self.placed[i] &= !bit;
        // Givens that did not clash still do not; after a clash, `start` stays to be rebuilt.
        if let Some(state) = &mut self.start {
            state.unsolved[band] |= bit;
            let column = COLUMN_SPREAD << (cell % 9);
            let peers = PEERS_IN_BAND[cell];
            // Every digit but this one may go in the freed cell again unless a peer holds it.
            for d in 0..9 {
                let base = d * 3;
                let placed = &self.placed;
                let seen = (placed[base] | placed[base + 1] | placed[base + 2]) & column
                    | placed[base + band] & peers;
                state.cand[at(d, band)] |= u32::from(seen == 0) << cell;
            }
            // This digit's words, as `rebuilt` makes them.
            let digit = i / 3;
            let base = digit * 3;
            let words = [
                self.placed[base],
                self.placed[base + 1],
                self.placed[base + 2],
            ];
            let column_cells = columns(words[0] | words[1] | words[2]) * COLUMN_SPREAD;
            for (b, &word) in words.iter().enumerate() {
                let boxes = BOX_CELLS[usize::from(BOXES_OF_ROW[columns(word) as usize])];
                state.cand[at(digit, b)] =
                    (state.unsolved[b] & !column_cells & !rows_of(word) & !boxes) | word;
            }
        }
    }

    /// The word of `value` in the band of `index`; `None` for a blank or a value out of range.
    #[inline]
    fn word(index: usize, value: u8) -> Option<usize> {
        (index < 81 && (1..=9).contains(&value)).then(|| usize::from(value - 1) * 3 + index / 27)
    }

    /// Whether `value` is a given at `index`.
    #[inline]
    fn holds(&self, index: usize, value: u8) -> bool {
        Self::word(index, value).is_some_and(|i| self.placed[i] & 1 << (index % 27) != 0)
    }

    /// Whether `index` holds any given.
    #[inline]
    fn taken(&self, index: usize) -> bool {
        (1..=9).any(|value| self.holds(index, value))
    }

    /// The state after placing the givens, or `None` if two givens clash (two of a digit in one
    /// unit, or two digits in one cell): the state `State::from_givens` builds from the same
    /// puzzle. The kept one when there is one, else [`Givens::rebuilt`].
    #[inline]
    fn state(&self) -> Option<State> {
        match self.start {
            Some(state) => Some(state),
            None => self.rebuilt(),
        }
    }

    /// The state after placing the givens, built from `placed` alone, without reading 81 cells;
    /// `None` if two givens clash.
    fn rebuilt(&self) -> Option<State> {
        let placed = &self.placed;
        let mut taken = [0u32; 3];
        let mut twice = 0u32;
        for d in 0..9 {
            for (band, taken) in taken.iter_mut().enumerate() {
                twice |= *taken & placed[d * 3 + band];
                *taken |= placed[d * 3 + band];
            }
        }
        if twice != 0 {
            return None;
        }
        State::from_words(placed, taken)
    }
}

/// Searches the puzzle of `givens` as `options` ask, with `value` (1-9) ruled out at the row-major
/// `index` when `exclude` is `Some((index, value))`: "is there a solution that does not put `value`
/// there?". Excluding a given's own digit leaves no solution; excluding another digit at a given, or
/// a value out of range, changes nothing.
///
/// Without an exclusion the outcome is exactly [`super::solve`]'s on the same puzzle, guess for
/// guess. Runs on the same code path [`super::solve`] picks for this CPU. (The digger asks
/// [`verdict_excluding`], which does not build the solution; this is what the tests check.)
#[cfg(test)]
pub(crate) fn solve_excluding(
    givens: &Givens,
    exclude: Option<(usize, u8)>,
    options: &Options<'_>,
) -> Outcome {
    super::with_stack(|stack| {
        #[cfg(target_arch = "x86_64")]
        if super::has_v3() {
            // SAFETY: the CPU has every feature `search_v3` is compiled for.
            return unsafe { search_v3::<true>(givens, exclude, options, stack) };
        }
        search::<false, true>(givens, exclude, options, stack)
    })
}

/// What `solve_excluding` (the tests' form) establishes, without building the solution it finds:
/// the digger only needs to know whether there is one.
pub(crate) fn verdict_excluding(
    givens: &Givens,
    exclude: Option<(usize, u8)>,
    options: &Options<'_>,
) -> Verdict {
    super::with_stack(|stack| {
        #[cfg(target_arch = "x86_64")]
        if super::has_v3() {
            // SAFETY: the CPU has every feature `search_v3` is compiled for.
            return unsafe { search_v3::<false>(givens, exclude, options, stack) };
        }
        search::<false, false>(givens, exclude, options, stack)
    })
    .verdict
}

/// [`solve_excluding`] on the portable path whatever the CPU: the reference the fast path is tested
/// against.
#[cfg(test)]
pub(crate) fn solve_excluding_portable(
    givens: &Givens,
    exclude: Option<(usize, u8)>,
    options: &Options<'_>,
) -> Outcome {
    super::with_stack(|stack| search::<false, true>(givens, exclude, options, stack))
}

/// [`search`] compiled for x86-64-v3, as the parent's `search_v3` is.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn search_v3<const SOLUTION: bool>(
    givens: &Givens,
    exclude: Option<(usize, u8)>,
    options: &Options<'_>,
    stack: &mut Vec<Branch>,
) -> Outcome {
    search::<true, SOLUTION>(givens, exclude, options, stack)
}

/// The start of a search: the givens' state with the exclusion applied; `None` when that already
/// leaves no solution.
#[inline(always)]
fn start(givens: &Givens, exclude: Option<(usize, u8)>) -> Option<State> {
    let mut state = givens.state()?;
    if let Some((index, value)) = exclude
        && let Some(i) = Givens::word(index, value)
    {
        if givens.holds(index, value) {
            return None;
        }
        if !givens.taken(index) {
            let i = at(i / 3, index / 27);
            state.set(i, state.cand[i] & !(1 << (index % 27)));
        }
    }
    Some(state)
}

/// The parent's search loop, from [`start`]'s state instead of a grid.
#[inline(always)]
fn search<const BMI2: bool, const SOLUTION: bool>(
    givens: &Givens,
    exclude: Option<(usize, u8)>,
    options: &Options<'_>,
    stack: &mut Vec<Branch>,
) -> Outcome {
    run::<BMI2, SOLUTION>(start(givens, exclude), options, stack)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Shape};
    use crate::solver::{Mode, solve, solve_portable};
    use proptest::prelude::*;

    const FIRST: Options<'static> = Options {
        mode: Mode::FirstSolution,
        max_guesses: None,
        cancel: None,
    };
    const UNIQUE: Options<'static> = Options {
        mode: Mode::ProveUnique,
        max_guesses: None,
        cancel: None,
    };

    /// The puzzles of a committed sample (one per line, `#` comments), 0 for a blank.
    fn sample(name: &str) -> Vec<Vec<u8>> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/data")
            .join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("the committed sample {} is missing: {e}", path.display()));
        text.lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| {
                line.trim()
                    .bytes()
                    .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
                    .collect()
            })
            .collect()
    }

    /// The existing solver's answer to "a solution without `value` at `index`?": one first-solution
    /// search per other digit there. `Some(solution)` or `None`.
    fn reference_excluding(cells: &[u8], index: usize, value: u8) -> Option<Grid> {
        if cells[index] != 0 {
            if cells[index] == value {
                return None;
            }
            let puzzle = Grid::from_cells(Shape::NINE, cells.to_vec()).expect("9x9 cells");
            return solve(&puzzle, &FIRST).solution;
        }
        (1..=9).filter(|&v| v != value).find_map(|v| {
            let mut trial = cells.to_vec();
            trial[index] = v;
            let puzzle = Grid::from_cells(Shape::NINE, trial).expect("9x9 cells");
            solve(&puzzle, &FIRST).solution
        })
    }

    /// Checks every entry point on `cells`: without an exclusion it equals `solve` exactly (both
    /// modes, both code paths); with one it agrees with [`reference_excluding`] on whether a
    /// solution exists, and a solution it gives solves the puzzle and avoids the excluded digit.
    fn check(what: &str, cells: &[u8], exclusions: impl IntoIterator<Item = (usize, u8)>) {
        let givens = Givens::from_cells(cells);
        let puzzle = Grid::from_cells(Shape::NINE, cells.to_vec()).expect("9x9 cells");
        for options in [FIRST, UNIQUE] {
            let outcome = solve_excluding(&givens, None, &options);
            assert_eq!(
                outcome,
                solve(&puzzle, &options),
                "{what} {:?}",
                options.mode
            );
            assert_eq!(
                solve_excluding_portable(&givens, None, &options),
                solve_portable(&puzzle, &options),
                "{what} {:?} portable",
                options.mode
            );
        }
        for (index, value) in exclusions {
            let outcome = solve_excluding(&givens, Some((index, value)), &FIRST);
            assert_eq!(
                outcome.verdict,
                verdict_excluding(&givens, Some((index, value)), &FIRST),
                "{what}: the verdict alone differs excluding {value} at {index}"
            );
            assert_eq!(
                outcome,
                solve_excluding_portable(&givens, Some((index, value)), &FIRST),
                "{what}: paths differ excluding {value} at {index}"
            );
            let expected = reference_excluding(cells, index, value);
            match &outcome.solution {
                Some(solution) => {
                    assert_eq!(outcome.verdict, Verdict::Solved, "{what}");
                    assert!(solution.solves(&puzzle), "{what}: not a solution");
                    assert_ne!(solution.cells()[index], value, "{what}: {value} at {index}");
                    assert!(expected.is_some(), "{what}: reference found none");
                }
                None => {
                    assert_eq!(outcome.verdict, Verdict::Unsolvable, "{what}");
                    assert!(
                        expected.is_none(),
                        "{what}: missed a solution ({value} at {index})"
                    );
                }
            }
        }
    }

    /// Every committed sample: each puzzle's solution digit excluded at a few blanks and givens
    /// (for a unique puzzle: whether that clue-to-be is needed), and other digits.
    #[test]
    fn agrees_with_the_solver_on_the_samples() {
        for name in [
            "17_clue_sample.txt",
            "forum_hardest_1905_11plus_sample.txt",
            "17_clue_minus_one_sample.txt",
        ] {
            for (line, cells) in sample(name).iter().enumerate().step_by(4) {
                let puzzle = Grid::from_cells(Shape::NINE, cells.clone()).expect("9x9");
                let solution = solve(&puzzle, &FIRST).solution;
                let value_at = |index: usize| {
                    solution
                        .as_ref()
                        .map_or(1 + (index % 9) as u8, |s| s.cells()[index])
                };
                let exclusions = [0, 13, 40, 67, 80, line % 81]
                    .into_iter()
                    .map(|index| (index, value_at(index)))
                    .chain([(line % 81, 1 + (line % 9) as u8)]);
                check(&format!("{name}:{line}"), cells, exclusions);
            }
        }
    }

    /// A puzzle whose givens clash has no solution, with or without an exclusion.
    #[test]
    fn clashing_givens_have_no_solution() {
        let mut cells = vec![0u8; 81];
        cells[0] = 5;
        cells[8] = 5;
        let givens = Givens::from_cells(&cells);
        for exclude in [None, Some((40, 1))] {
            let outcome = solve_excluding(&givens, exclude, &FIRST);
            assert_eq!(outcome.verdict, Verdict::Unsolvable);
        }
        let mut givens = Givens::default();
        givens.set(3, 1);
        givens.set(3, 2);
        assert_eq!(
            solve_excluding(&givens, None, &FIRST).verdict,
            Verdict::Unsolvable
        );
        givens.clear(3, 2);
        assert_eq!(
            solve_excluding(&givens, None, &FIRST).verdict,
            Verdict::Solved
        );
    }

    /// The guess budget and the cancellation flag stop an excluding search as they stop `solve`.
    #[test]
    fn budget_and_cancellation_stop_it() {
        let givens = Givens::default();
        let budget = Options {
            max_guesses: Some(0),
            ..FIRST
        };
        let outcome = solve_excluding(&givens, Some((0, 1)), &budget);
        assert_eq!(outcome.verdict, Verdict::LimitReached);
        let flag = std::sync::atomic::AtomicBool::new(true);
        let cancelled = Options {
            cancel: Some(&flag),
            ..FIRST
        };
        let outcome = solve_excluding(&givens, Some((0, 1)), &cancelled);
        assert_eq!(outcome.verdict, Verdict::Cancelled);
    }

    /// Whether two start states are the same (both absent, or equal in every field).
    fn same(a: Option<State>, b: Option<State>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => {
                (a.cand, a.unsolved, a.unbanded, a.unstacked)
                    == (b.cand, b.unsolved, b.unbanded, b.unstacked)
            }
            (a, b) => a.is_none() && b.is_none(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Givens of a full grid set and cleared in any order, as the digger does (with now and then
        /// a clashing given set and cleared again): the kept start state is always the one built
        /// from scratch, and searching from it is `solve` on the same puzzle.
        #[test]
        fn kept_start_state_follows_every_edit(
            relabel in Just((1u8..=9).collect::<Vec<u8>>()).prop_shuffle(),
            edits in proptest::collection::vec((0usize..81, 0u8..4), 0..120),
        ) {
            let base: Vec<u8> = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .bytes()
                .map(|b| relabel[usize::from(b - b'1')])
                .collect();
            let mut cells = base.clone();
            let mut givens = Givens::from_cells(&cells);
            for (step, (index, op)) in edits.into_iter().enumerate() {
                match op {
                    0 | 1 => {
                        givens.clear(index, base[index]);
                        cells[index] = 0;
                    }
                    2 => {
                        givens.set(index, base[index]);
                        cells[index] = base[index];
                    }
                    _ => {
                        // A clashing given (another digit of the cell's row), then gone again.
                        let other = base[index - index % 9 + (index + 1) % 9];
                        if cells[index] == 0 {
                            givens.set(index, other);
                            prop_assert!(givens.state().is_none() || givens.rebuilt().is_some());
                            givens.clear(index, other);
                        }
                    }
                }
                prop_assert!(same(givens.state(), givens.rebuilt()), "step {}", step);
                prop_assert!(same(givens.state(), Givens::from_cells(&cells).state()), "step {}", step);
            }
            let puzzle = Grid::from_cells(Shape::NINE, cells).expect("9x9 cells");
            prop_assert_eq!(solve_excluding(&givens, None, &UNIQUE), solve(&puzzle, &UNIQUE));
        }

        /// Random givens (valid or clashing) and a random exclusion, set and cleared one by one as the
        /// digger does.
        #[test]
        fn agrees_with_the_solver_on_random_givens(
            givens in proptest::collection::vec((0usize..81, 1u8..=9), 0..40),
            removed in proptest::collection::vec(0usize..81, 0..10),
            exclude in (0usize..81, 1u8..=9),
        ) {
            let mut cells = vec![0u8; 81];
            for (index, value) in givens {
                cells[index] = value;
            }
            let mut kept = Givens::from_cells(&cells);
            for index in removed {
                kept.clear(index, cells[index]);
                cells[index] = 0;
            }
            let fresh = Givens::from_cells(&cells);
            prop_assert_eq!(kept.placed, fresh.placed);
            // The kept start state is the one built from scratch, whatever clashed on the way.
            prop_assert!(same(kept.state(), kept.rebuilt()));
            prop_assert!(same(fresh.state(), kept.rebuilt()));
            check("random givens", &cells, [exclude]);
        }
    }
}
