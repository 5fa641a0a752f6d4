//! Integration tests of the solver through the library's public API: the committed samples, edge cases,
//! budget and cancellation, agreement between the fast 9x9 path and the general search, and property
//! tests on random grids. All run quickly in a debug build on a fresh clone; the whole data sets are
//! checked by an ignored test (`cargo test --release -- --ignored`).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use sudoku_core::grid::{Grid, Shape};
use sudoku_core::solver::{
    Mode, Options, Outcome, Verdict, code_path, solve, solve_generic, solve_portable,
};

const UNIQUE: Options<'static> = Options {
    mode: Mode::ProveUnique,
    max_guesses: None,
    cancel: None,
};
const FIRST: Options<'static> = Options {
    mode: Mode::FirstSolution,
    max_guesses: None,
    cancel: None,
};

/// A classic puzzle that singles alone solve.
const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const EASY_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn grid(text: &str) -> Grid {
    Grid::parse(text).expect("test grid parses")
}

/// Puzzles of a file with their line numbers: blank lines and `#` comments skipped.
fn read_puzzles(path: &Path) -> Vec<(usize, Grid)> {
    let text = std::fs::read_to_string(path).expect("puzzle file reads");
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(i, line)| (i + 1, grid(line)))
        .collect()
}

/// Checks a unique-solution puzzle in both modes.
fn assert_solves_uniquely(line: usize, puzzle: &Grid) {
    let unique = solve(puzzle, &UNIQUE);
    assert_eq!(unique.verdict, Verdict::Unique, "line {line}: {puzzle}");
    let solution = unique.solution.expect("a unique puzzle has its solution");
    assert!(
        solution.solves(puzzle),
        "line {line}: {solution} vs {puzzle}"
    );
    let first = solve(puzzle, &FIRST);
    assert_eq!(first.verdict, Verdict::Solved, "line {line}: {puzzle}");
    assert_eq!(first.solution.as_ref(), Some(&solution), "line {line}");
}

fn sample(name: &str) -> Vec<(usize, Grid)> {
    read_puzzles(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/data")
            .join(name),
    )
}

#[test]
fn seventeen_clue_sample_solves_uniquely() {
    let puzzles = sample("17_clue_sample.txt");
    assert_eq!(puzzles.len(), 1000);
    for (line, puzzle) in &puzzles {
        assert_solves_uniquely(*line, puzzle);
    }
}

#[test]
fn forum_hardest_sample_solves_uniquely() {
    let puzzles = sample("forum_hardest_1905_11plus_sample.txt");
    assert_eq!(puzzles.len(), 1000);
    for (line, puzzle) in &puzzles {
        assert_solves_uniquely(*line, puzzle);
    }
}

/// 17-clue puzzles with one clue removed: no 16-clue Sudoku is unique (McGuire, Tugemann and Civario,
/// 2012), so the uniqueness check must find a second solution, and the solution given must fit.
#[test]
fn seventeen_clue_minus_one_sample_has_several_solutions() {
    let puzzles = sample("17_clue_minus_one_sample.txt");
    assert_eq!(puzzles.len(), 1000);
    for (line, puzzle) in &puzzles {
        assert_eq!(puzzle.cells().iter().filter(|&&v| v != 0).count(), 16);
        let unique = solve(puzzle, &UNIQUE);
        assert_eq!(unique.verdict, Verdict::Multiple, "line {line}: {puzzle}");
        let solution = unique.solution.expect("a solution");
        assert!(solution.solves(puzzle), "line {line}: {solution}");
        let first = solve(puzzle, &FIRST);
        assert_eq!(first.verdict, Verdict::Solved, "line {line}: {puzzle}");
        assert!(first.solution.is_some_and(|s| s.solves(puzzle)));
    }
    // The fast path's verdicts, proved independently on a few: a second solution exists.
    for (line, puzzle) in puzzles.iter().step_by(100) {
        let outcome = solve(puzzle, &UNIQUE);
        let solution = outcome.solution.expect("a solution");
        assert!(
            second_solution(puzzle, &solution).is_some(),
            "line {line}: {puzzle}"
        );
    }
}

#[test]
fn easy_puzzle_needs_no_guess() {
    let outcome = solve(&grid(EASY), &UNIQUE);
    assert_eq!(outcome.verdict, Verdict::Unique);
    assert_eq!(outcome.solution, Some(grid(EASY_SOLUTION)));
    assert_eq!(outcome.stats.guesses, 0);
}

#[test]
fn empty_board_has_many_solutions() {
    let empty = Grid::empty(Shape::NINE);
    let outcome = solve(&empty, &UNIQUE);
    assert_eq!(outcome.verdict, Verdict::Multiple);
    assert!(outcome.solution.expect("a solution").solves(&empty));
    let first = solve(&empty, &FIRST);
    assert_eq!(first.verdict, Verdict::Solved);
    assert!(first.solution.expect("a solution").solves(&empty));
}

#[test]
fn solved_board_is_unique_without_guessing() {
    let solved = grid(EASY_SOLUTION);
    for options in [UNIQUE, FIRST] {
        let outcome = solve(&solved, &options);
        let expected = match options.mode {
            Mode::ProveUnique => Verdict::Unique,
            Mode::FirstSolution => Verdict::Solved,
        };
        assert_eq!(outcome.verdict, expected);
        assert_eq!(outcome.solution.as_ref(), Some(&solved));
        assert_eq!(outcome.stats.guesses, 0);
    }
}

#[test]
fn one_blank_is_filled() {
    for index in [0, 40, 80] {
        let mut cells = grid(EASY_SOLUTION).cells().to_vec();
        cells[index] = 0;
        let puzzle = Grid::from_cells(Shape::NINE, cells).expect("valid cells");
        let outcome = solve(&puzzle, &UNIQUE);
        assert_eq!(outcome.verdict, Verdict::Unique);
        assert_eq!(outcome.solution, Some(grid(EASY_SOLUTION)));
        assert_eq!(outcome.stats.guesses, 0);
    }
}

#[test]
fn cell_without_candidates_is_unsolvable() {
    // Row 1 holds 1-8 to the right of r1c1, and column 1 holds 9 below it: r1c1 has no candidate.
    let mut text = String::from(".12345678");
    text.push('9');
    text.push_str(&".".repeat(71));
    let puzzle = grid(&text);
    assert!(puzzle.check_givens().is_ok());
    for options in [UNIQUE, FIRST] {
        let outcome = solve(&puzzle, &options);
        assert_eq!(outcome.verdict, Verdict::Unsolvable);
        assert_eq!(outcome.solution, None);
    }
    assert_eq!(solve_generic(&puzzle, &UNIQUE).verdict, Verdict::Unsolvable);
}

/// The digits each cell may take from its givens' row, column and box alone: no propagation.
fn plain_candidates(puzzle: &Grid) -> Vec<u16> {
    let cells = puzzle.cells();
    (0..81)
        .map(|i| {
            if cells[i] != 0 {
                return 1 << cells[i];
            }
            let (r, c) = (i / 9, i % 9);
            let mut open = 0b11_1111_1110u16;
            for (j, &value) in cells.iter().enumerate() {
                let (r2, c2) = (j / 9, j % 9);
                let peer = r2 == r || c2 == c || (r2 / 3 == r / 3 && c2 / 3 == c / 3);
                if peer && value != 0 {
                    open &= !(1 << value);
                }
            }
            open
        })
        .collect()
}

#[test]
fn only_search_shows_some_puzzles_unsolvable() {
    // A hard puzzle with a unique solution, plus one more given that contradicts that solution but
    // clashes with nothing and leaves every cell a candidate: unsolvable by construction, and the
    // solver has to guess to find out.
    let (_, puzzle) = sample("forum_hardest_1905_11plus_sample.txt").remove(0);
    let solution = solve(&puzzle, &UNIQUE).solution.expect("solution");
    let mut found = false;
    'search: for index in 0..81 {
        if puzzle.cells()[index] != 0 {
            continue;
        }
        for digit in 1..=9u8 {
            if digit == solution.cells()[index] {
                continue;
            }
            let mut cells = puzzle.cells().to_vec();
            cells[index] = digit;
            let wrong = Grid::from_cells(Shape::NINE, cells).expect("valid cells");
            if wrong.check_givens().is_err() || plain_candidates(&wrong).contains(&0) {
                continue;
            }
            let outcome = solve(&wrong, &UNIQUE);
            assert_eq!(outcome.verdict, Verdict::Unsolvable, "{wrong}");
            assert_eq!(solve(&wrong, &FIRST).verdict, Verdict::Unsolvable);
            if outcome.stats.guesses > 0 {
                found = true;
                break 'search;
            }
        }
    }
    assert!(found, "some wrong given needs a search to refute");
}

/// A valid solved grid: the shifted-rows pattern.
fn base_solution() -> [u8; 81] {
    let mut cells = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            cells[r * 9 + c] = ((r * 3 + r / 3 + c) % 9 + 1) as u8;
        }
    }
    cells
}

/// Blanks the four cells of a unique rectangle (two rows of one band, two columns of different
/// stacks, values a b / b a) in `solved`, if it has one: exactly two solutions by construction.
fn deadly_pattern(solved: &[u8; 81]) -> Option<Grid> {
    for r1 in 0..9 {
        for r2 in r1 + 1..(r1 / 3 + 1) * 3 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    if c1 / 3 == c2 / 3 {
                        continue;
                    }
                    let (a, b) = (solved[r1 * 9 + c1], solved[r1 * 9 + c2]);
                    if solved[r2 * 9 + c1] == b && solved[r2 * 9 + c2] == a {
                        let mut cells = solved.to_vec();
                        for i in [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2] {
                            cells[i] = 0;
                        }
                        return Grid::from_cells(Shape::NINE, cells);
                    }
                }
            }
        }
    }
    None
}

#[test]
fn deadly_pattern_has_exactly_two_solutions() {
    let solved: [u8; 81] = grid(EASY_SOLUTION).cells().try_into().expect("81 cells");
    let puzzle = deadly_pattern(&solved).expect("the grid has a unique rectangle");
    let outcome = solve(&puzzle, &UNIQUE);
    assert_eq!(outcome.verdict, Verdict::Multiple);
    assert!(outcome.solution.expect("a solution").solves(&puzzle));
    assert_eq!(solve_generic(&puzzle, &UNIQUE).verdict, Verdict::Multiple);
    let first = solve(&puzzle, &FIRST);
    assert_eq!(first.verdict, Verdict::Solved);
    assert!(first.solution.expect("a solution").solves(&puzzle));
}

#[test]
fn clashing_givens_are_unsolvable_without_panic() {
    let mut cases = Vec::new();
    let mut row = vec![0u8; 81];
    row[0] = 4;
    row[8] = 4;
    cases.push(row);
    let mut col = vec![0u8; 81];
    col[4] = 7;
    col[76] = 7;
    cases.push(col);
    let mut boxed = vec![0u8; 81];
    boxed[30] = 2;
    boxed[50] = 2;
    cases.push(boxed);
    let mut full = grid(EASY_SOLUTION).cells().to_vec();
    full.swap(0, 1);
    full[2] = full[0];
    cases.push(full);
    for cells in cases {
        let puzzle = Grid::from_cells(Shape::NINE, cells).expect("valid cells");
        assert!(puzzle.check_givens().is_err());
        for options in [UNIQUE, FIRST] {
            let outcome = solve(&puzzle, &options);
            assert_eq!(outcome.verdict, Verdict::Unsolvable, "{puzzle}");
            assert_eq!(outcome.solution, None);
        }
    }
}

#[test]
fn every_pair_of_equal_givens_clashes_exactly_when_peers() {
    // The 9x9 path reads all givens at once and checks rows, columns and boxes per digit and band:
    // every placement of two equal givens must agree with the plain rule.
    for i in 0..81 {
        for j in i + 1..81 {
            let mut cells = vec![0u8; 81];
            cells[i] = 5;
            cells[j] = 5;
            let puzzle = Grid::from_cells(Shape::NINE, cells).expect("valid cells");
            let clash = puzzle.check_givens().is_err();
            let outcome = solve(&puzzle, &FIRST);
            assert_eq!(outcome.verdict == Verdict::Unsolvable, clash, "{i} {j}");
            assert_eq!(
                solve_portable(&puzzle, &FIRST).verdict,
                outcome.verdict,
                "{i} {j}"
            );
        }
    }
}

fn hard_puzzle() -> Grid {
    sample("forum_hardest_1905_11plus_sample.txt").remove(0).1
}

#[test]
fn guess_budget_ends_with_limit_reached() {
    let puzzle = hard_puzzle();
    let full = solve(&puzzle, &UNIQUE);
    assert!(full.stats.guesses > 1);
    for budget in [0, 1] {
        for mode in [Mode::ProveUnique, Mode::FirstSolution] {
            let options = Options {
                mode,
                max_guesses: Some(budget),
                cancel: None,
            };
            let outcome = solve(&puzzle, &options);
            assert!(outcome.stats.guesses <= budget);
            // One guess may happen to land on the solution in first-solution mode.
            if outcome.verdict != Verdict::Solved {
                assert_eq!(outcome.verdict, Verdict::LimitReached, "budget {budget}");
            }
        }
    }
    // A budget the search fits in changes nothing.
    let options = Options {
        max_guesses: Some(full.stats.guesses),
        ..UNIQUE
    };
    assert_eq!(solve(&puzzle, &options), full);
}

#[test]
fn raised_cancel_flag_ends_with_cancelled() {
    let puzzle = hard_puzzle();
    let flag = AtomicBool::new(true);
    for mode in [Mode::ProveUnique, Mode::FirstSolution] {
        let options = Options {
            mode,
            max_guesses: None,
            cancel: Some(&flag),
        };
        let outcome = solve(&puzzle, &options);
        assert_eq!(outcome.verdict, Verdict::Cancelled);
    }
    // A lowered flag changes nothing.
    let lowered = AtomicBool::new(false);
    let options = Options {
        cancel: Some(&lowered),
        ..UNIQUE
    };
    assert_eq!(solve(&puzzle, &options).verdict, Verdict::Unique);
}

#[test]
fn other_shapes_take_the_general_search() {
    let shape = Shape::with_box_size(2).expect("4x4");
    let empty = Grid::empty(shape);
    let outcome = solve(&empty, &UNIQUE);
    assert_eq!(outcome.verdict, Verdict::Multiple);
    assert!(outcome.solution.expect("a solution").solves(&empty));
}

/// A small deterministic generator for the tests' random choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }

    /// A permutation of 0..3.
    fn three(&mut self) -> [usize; 3] {
        let mut p = [0, 1, 2];
        self.shuffle(&mut p);
        p
    }
}

/// A random valid solved grid: the base solution with digits relabelled, rows permuted within bands,
/// bands permuted, the same for columns and stacks, and maybe transposed.
fn random_solution(seed: u64) -> [u8; 81] {
    let mut rng = Rng(seed | 1);
    let base = base_solution();
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut digits);
    let order = |rng: &mut Rng| {
        let bands = rng.three();
        let mut lines = [0usize; 9];
        for (slot, band) in bands.iter().enumerate() {
            let inner = rng.three();
            for k in 0..3 {
                lines[slot * 3 + k] = band * 3 + inner[k];
            }
        }
        lines
    };
    let rows = order(&mut rng);
    let cols = order(&mut rng);
    let transpose = rng.next() & 1 == 1;
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose { (c, r) } else { (r, c) };
            out[r * 9 + c] = digits[usize::from(base[rows[sr] * 9 + cols[sc]]) - 1];
        }
    }
    out
}

/// A puzzle from a random solution with `blanks` random cells blanked.
fn random_puzzle(seed: u64, blanks: usize) -> ([u8; 81], Grid) {
    let solved = random_solution(seed);
    let mut rng = Rng(seed.rotate_left(17) | 1);
    let mut order: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut order);
    let mut cells = solved.to_vec();
    for &i in order.iter().take(blanks) {
        cells[i] = 0;
    }
    let puzzle = Grid::from_cells(Shape::NINE, cells).expect("valid cells");
    (solved, puzzle)
}

/// Proves a `Multiple` verdict: finds a second valid solution of `puzzle`, different from `first`,
/// by fixing some blank cell to another digit and solving that.
fn second_solution(puzzle: &Grid, first: &Grid) -> Option<Grid> {
    for index in 0..81 {
        if puzzle.cells()[index] != 0 {
            continue;
        }
        for digit in 1..=9u8 {
            if digit == first.cells()[index] {
                continue;
            }
            let mut cells = puzzle.cells().to_vec();
            cells[index] = digit;
            let fixed = Grid::from_cells(Shape::NINE, cells)?;
            if fixed.check_givens().is_err() {
                continue;
            }
            if let Some(other) = solve(&fixed, &FIRST).solution
                && other.solves(puzzle)
                && &other != first
            {
                return Some(other);
            }
        }
    }
    None
}

fn check_claim(puzzle: &Grid, outcome: &Outcome) {
    let solution = outcome
        .solution
        .as_ref()
        .expect("a solvable puzzle has a solution");
    assert!(solution.solves(puzzle), "{solution} vs {puzzle}");
    match outcome.verdict {
        Verdict::Unique => {}
        Verdict::Multiple => {
            assert!(
                second_solution(puzzle, solution).is_some(),
                "no second solution for {puzzle}"
            );
        }
        other => panic!("verdict {other:?} for {puzzle}"),
    }
}

#[test]
fn fast_and_general_paths_agree() {
    let mut rng = Rng(0x5EED_1234);
    for _ in 0..150 {
        let blanks = 40 + rng.below(25);
        let (_, puzzle) = random_puzzle(rng.next(), blanks);
        for options in [UNIQUE, FIRST] {
            let fast = solve(&puzzle, &options);
            let general = solve_generic(&puzzle, &options);
            assert_eq!(fast.verdict, general.verdict, "{puzzle}");
            if let Some(solution) = &fast.solution {
                assert!(solution.solves(&puzzle));
            }
        }
    }
    // And on puzzles that are unsolvable or clash.
    for _ in 0..150 {
        let mut cells = vec![0u8; 81];
        for _ in 0..(10 + rng.below(30)) {
            cells[rng.below(81)] = 1 + rng.below(9) as u8;
        }
        let puzzle = Grid::from_cells(Shape::NINE, cells).expect("valid cells");
        let fast = solve(&puzzle, &UNIQUE);
        let general = solve_generic(&puzzle, &UNIQUE);
        assert_eq!(fast.verdict, general.verdict, "{puzzle}");
    }
}

/// Asserts that the code path chosen for this CPU and the portable one give the same outcome, guess
/// for guess, in both modes.
fn assert_paths_agree(what: &str, puzzle: &Grid) {
    for options in [UNIQUE, FIRST] {
        assert_eq!(
            solve(puzzle, &options),
            solve_portable(puzzle, &options),
            "{what}: {puzzle} ({:?}) on {}",
            options.mode,
            code_path()
        );
    }
}

/// The x86-64-v3 path (taken on a CPU that has it, as on CI's) against the portable one: every
/// committed sample and random puzzles with one, several or no solutions. On a CPU without it both
/// sides are the portable path and the test proves nothing more.
#[test]
fn cpu_specific_and_portable_paths_agree() {
    for name in [
        "17_clue_sample.txt",
        "forum_hardest_1905_11plus_sample.txt",
        "17_clue_minus_one_sample.txt",
    ] {
        for (line, puzzle) in sample(name) {
            assert_paths_agree(&format!("{name}:{line}"), &puzzle);
        }
    }
    let mut rng = Rng(0xC0DE_9A7B);
    for round in 0..300 {
        let blanks = 40 + rng.below(42);
        let (_, puzzle) = random_puzzle(rng.next(), blanks);
        assert_paths_agree(&format!("random puzzle {round}"), &puzzle);
        let mut cells = vec![0u8; 81];
        for _ in 0..(10 + rng.below(30)) {
            cells[rng.below(81)] = 1 + rng.below(9) as u8;
        }
        let puzzle = Grid::from_cells(Shape::NINE, cells).expect("valid cells");
        assert_paths_agree(&format!("random givens {round}"), &puzzle);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn blanked_solutions_solve_back(seed in any::<u64>(), blanks in 0usize..=81) {
        let (_, puzzle) = random_puzzle(seed, blanks);
        let outcome = solve(&puzzle, &UNIQUE);
        check_claim(&puzzle, &outcome);
        let first = solve(&puzzle, &FIRST);
        prop_assert_eq!(first.verdict, Verdict::Solved);
        prop_assert!(first.solution.expect("a solution").solves(&puzzle));
    }

    #[test]
    fn random_givens_never_panic(givens in proptest::collection::vec((0usize..81, 1u8..=9), 0..40)) {
        let mut cells = vec![0u8; 81];
        for (index, digit) in givens {
            cells[index] = digit;
        }
        let puzzle = Grid::from_cells(Shape::NINE, cells).expect("valid cells");
        let options = Options { max_guesses: Some(100_000), ..UNIQUE };
        let outcome = solve(&puzzle, &options);
        if let Some(solution) = &outcome.solution {
            prop_assert!(solution.solves(&puzzle));
        }
        if puzzle.check_givens().is_err() {
            prop_assert_eq!(outcome.verdict, Verdict::Unsolvable);
        }
        match outcome.verdict {
            Verdict::Unique | Verdict::Multiple => prop_assert!(outcome.solution.is_some()),
            Verdict::Unsolvable => prop_assert!(outcome.solution.is_none()),
            _ => {}
        }
    }

    #[test]
    fn random_text_never_panics_the_parser(text in "\\PC{0,120}") {
        if let Ok(grid) = Grid::parse(&text) {
            let _ = solve(&grid, &Options { max_guesses: Some(10_000), ..UNIQUE });
        }
    }

    #[test]
    fn digit_text_never_panics_the_parser(text in "[0-9. |+-]{70,100}") {
        if let Ok(grid) = Grid::parse(&text) {
            let outcome = solve(&grid, &Options { max_guesses: Some(10_000), ..UNIQUE });
            if let Some(solution) = outcome.solution {
                prop_assert!(solution.solves(&grid));
            }
        }
    }
}

/// Solves the whole data sets beside the repository and checks every answer. Fails when
/// `../shared/data` is missing: run it only where the sets are (CI, a developer's machine).
#[test]
#[ignore = "solves ~98,000 puzzles from ../shared/data; run with --release -- --ignored"]
fn full_data_sets_solve_uniquely() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    for name in ["17_clue.txt", "forum_hardest_1905_11plus.txt"] {
        let path = dir.join(name);
        assert!(path.is_file(), "{} is missing", path.display());
        let puzzles = read_puzzles(&path);
        assert!(
            puzzles.len() > 1000,
            "{name} holds only {} puzzles",
            puzzles.len()
        );
        for (line, puzzle) in &puzzles {
            assert_solves_uniquely(*line, puzzle);
        }
        println!("{name}: {} puzzles solved uniquely", puzzles.len());
    }
}
