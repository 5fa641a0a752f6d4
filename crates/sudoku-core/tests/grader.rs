//! The logic engine's promises, on whole sets: every step of every path is sound against the solver's
//! unique solution (a placement is the solution's value, an elimination never removes it), every step
//! makes progress, and every path ends in the solution. Plus hints walked to the end, and other shapes.

use std::path::Path;

use sudoku_core::candidates::Board;
use sudoku_core::grader::{self, Difficulty, Options};
use sudoku_core::grid::{Grid, Shape};
use sudoku_core::hint::{self, Hint};
use sudoku_core::solver::{self, Verdict};
use sudoku_core::strategy::{Step, Technique};

/// Checks every step of `steps` from `puzzle` against `solution`, and that they solve it.
fn check_path(puzzle: &Grid, solution: &Grid, steps: &[Step]) {
    let mut board = Board::new(puzzle).expect("a puzzle without clashes");
    for (i, step) in steps.iter().enumerate() {
        let what = || {
            format!(
                "{puzzle}: step {i} ({:?}) {}",
                step.technique,
                step.plain_explanation()
            )
        };
        assert!(
            !step.placements.is_empty() || !step.eliminations.is_empty(),
            "{} makes no progress",
            what()
        );
        for p in &step.placements {
            assert_eq!(
                p.value,
                solution.cells()[p.cell],
                "{} places a wrong value",
                what()
            );
            assert_eq!(board.value(p.cell), 0, "{} fills a filled cell", what());
        }
        for e in &step.eliminations {
            assert_ne!(
                e.value,
                solution.cells()[e.cell],
                "{} removes the solution's value",
                what()
            );
            assert!(
                board.has(e.cell, e.value),
                "{} removes a candidate that is gone",
                what()
            );
        }
        board.apply(&step.placements, &step.eliminations);
    }
    assert_eq!(
        board.grid(),
        *solution,
        "{puzzle}: the path ends in the solution"
    );
}

fn unique_solution(puzzle: &Grid) -> Grid {
    let outcome = solver::solve(puzzle, &Default::default());
    assert_eq!(outcome.verdict, Verdict::Unique, "{puzzle}");
    outcome.solution.expect("a unique puzzle's solution")
}

/// Grades every puzzle of `path` (every `stride`-th), checking each path; the levels seen, counted.
fn grade_file(path: &Path, stride: usize, budget: u64) -> [usize; 6] {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut levels = [0; 6];
    let lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    for line in lines.step_by(stride) {
        let puzzle = Grid::parse_puzzle(line).expect("a valid puzzle");
        let solution = unique_solution(&puzzle);
        let options = Options {
            explain: true,
            budget,
            cancel: None,
        };
        let grade = grader::grade(&puzzle, &solution, &options).expect("graded");
        check_path(&puzzle, &solution, &grade.steps);
        check_pearl_and_diamond(&grade);
        assert!(
            grade.steps.iter().all(|s| !s.text.is_empty()),
            "every step explained"
        );
        levels[grade.difficulty as usize] += 1;
    }
    levels
}

/// Sudoku Explainer's three numbers, from the path as SE defines them: the diamond is the first
/// step's rating, the pearl the hardest up to the first step that places a value, the rating the
/// hardest of all.
fn check_pearl_and_diamond(grade: &grader::Grade) {
    let first = &grade.steps[0];
    assert_eq!(grade.diamond, first.rating);
    let placing = grade
        .steps
        .iter()
        .position(|s| !s.placements.is_empty())
        .expect("a path places values");
    let hardest_before = grade.steps[..=placing].iter().map(|s| s.rating).max();
    assert_eq!(Some(grade.pearl), hardest_before);
    assert!(grade.diamond <= grade.pearl && grade.pearl <= grade.rating);
}

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(name)
}

#[test]
fn every_step_on_the_committed_samples_is_sound() {
    let easy = grade_file(&data("17_clue_sample.txt"), 4, grader::DEFAULT_BUDGET);
    eprintln!("17-clue sample levels: {easy:?}");
    assert!(easy[Difficulty::Extreme as usize] < easy.iter().sum::<usize>());
    // The hardest puzzles need forcing chains: a small budget keeps this test short, and the guesses
    // it ends in are checked like every other step.
    let hard = grade_file(&data("forum_hardest_1905_11plus_sample.txt"), 25, 2_000_000);
    eprintln!("hardest sample levels: {hard:?}");
    assert_eq!(
        hard[Difficulty::Extreme as usize],
        hard.iter().sum::<usize>()
    );
}

/// Every 17-clue puzzle, and every 20th of the hardest: each of those takes Sudoku Explainer's chain
/// searches at every step (tens of milliseconds a puzzle), so the whole set would take most of an
/// hour.
#[test]
#[ignore = "reads ../shared/data; CI runs it once"]
fn shared_sets_every_step_is_sound_on_every_17_clue_and_every_20th_hardest_puzzle() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    for (file, stride) in [("17_clue.txt", 1), ("forum_hardest_1905_11plus.txt", 20)] {
        let levels = grade_file(&shared.join(file), stride, grader::DEFAULT_BUDGET);
        eprintln!("{file}: {levels:?}");
    }
}

#[test]
fn a_classic_puzzle_is_beginner_with_an_explained_path() {
    let puzzle = Grid::parse_puzzle(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    )
    .unwrap();
    let solution = unique_solution(&puzzle);
    let options = Options {
        explain: true,
        ..Default::default()
    };
    let grade = grader::grade(&puzzle, &solution, &options).unwrap();
    assert_eq!(grade.difficulty, Difficulty::Beginner);
    assert!(!grade.lower_bound);
    check_path(&puzzle, &solution, &grade.steps);
    let first = grade.steps[0].plain_explanation();
    assert!(
        first.contains("fits only in r") || first.contains("last blank cell"),
        "{first}"
    );
}

/// Techniques beyond singles show up on the sample, each sound (checked in the sample test).
#[test]
fn the_sample_uses_many_techniques() {
    let text = std::fs::read_to_string(data("17_clue_sample.txt")).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).take(300) {
        let puzzle = Grid::parse_puzzle(line).unwrap();
        let solution = unique_solution(&puzzle);
        let grade = grader::grade(&puzzle, &solution, &Options::default()).unwrap();
        seen.extend(grade.counts.iter().map(|c| c.0));
    }
    eprintln!("{seen:?}");
    for technique in [
        Technique::HiddenSingle,
        Technique::NakedSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
    ] {
        assert!(seen.contains(&technique), "{technique:?} never used");
    }
}

/// Hints from the empty board on: applying each hint's placement and asking again solves the puzzle;
/// a wrong entry comes back as a mistake; the full board is solved.
#[test]
fn hints_walk_the_puzzle_to_its_end() {
    let text = std::fs::read_to_string(data("17_clue_sample.txt")).unwrap();
    for line in text.lines().filter(|l| !l.starts_with('#')).take(5) {
        let puzzle = Grid::parse_puzzle(line).unwrap();
        let solution = unique_solution(&puzzle);
        let mut progress = puzzle.cells().to_vec();
        let options = Options {
            explain: true,
            ..Default::default()
        };
        let mut hints = 0;
        loop {
            let board = Grid::from_cells(puzzle.shape(), progress.clone()).unwrap();
            match hint::hint(&puzzle, &board, &solution, &options).unwrap() {
                Hint::Solved => break,
                Hint::Mistakes(m) => panic!("no mistakes were made: {m:?}"),
                Hint::Steps(steps) => {
                    let last = steps.last().unwrap();
                    assert!(!last.placements.is_empty(), "a hint ends in a placement");
                    assert!(
                        steps[..steps.len() - 1]
                            .iter()
                            .all(|s| s.placements.is_empty())
                    );
                    check_path_from(&board, &solution, &steps);
                    for p in &last.placements {
                        progress[p.cell] = p.value;
                    }
                }
            }
            hints += 1;
            assert!(hints <= 81, "the walk ends");
        }
        assert_eq!(progress, solution.cells());
    }
    let puzzle = Grid::parse_puzzle(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    )
    .unwrap();
    let solution = unique_solution(&puzzle);
    let mut wrong = puzzle.cells().to_vec();
    wrong[2] = if solution.cells()[2] == 1 { 2 } else { 1 };
    let wrong = Grid::from_cells(puzzle.shape(), wrong).unwrap();
    let answer = hint::hint(&puzzle, &wrong, &solution, &Options::default()).unwrap();
    assert!(
        matches!(answer, Hint::Mistakes(ref m) if m.len() == 1 && m[0].cell == 2),
        "{answer:?}"
    );
    assert_eq!(
        hint::hint(&puzzle, &solution, &solution, &Options::default()).unwrap(),
        Hint::Solved
    );
}

/// Steps that start from a board (not a puzzle): sound against the solution, without the end check.
fn check_path_from(board: &Grid, solution: &Grid, steps: &[Step]) {
    let mut b = Board::new(board).unwrap();
    for step in steps {
        for p in &step.placements {
            assert_eq!(p.value, solution.cells()[p.cell]);
        }
        for e in &step.eliminations {
            assert_ne!(e.value, solution.cells()[e.cell]);
        }
        b.apply(&step.placements, &step.eliminations);
    }
}

/// A unique puzzle of `shape`: a solution of the empty grid, its values relabelled by `seed`, with
/// cells blanked in a `seed`-dependent order while it stays unique.
fn small_puzzle(shape: Shape, seed: usize) -> (Grid, Grid) {
    let empty = Grid::empty(shape);
    let full = solver::solve(
        &empty,
        &solver::Options {
            mode: solver::Mode::FirstSolution,
            ..Default::default()
        },
    )
    .solution
    .unwrap();
    // Relabel the values by a seed-dependent rotation so the puzzles differ.
    let n = shape.side() as u8;
    let cells: Vec<u8> = full
        .cells()
        .iter()
        .map(|&v| (v - 1 + seed as u8) % n + 1)
        .collect();
    let full = Grid::from_cells(shape, cells).unwrap();
    // Blank cells in a seed-dependent order while the puzzle stays unique.
    let mut puzzle = full.cells().to_vec();
    let total = puzzle.len();
    // Large grids keep over half their cells, so proving uniqueness stays cheap.
    let tries = if shape.side() > 9 { total / 2 } else { total };
    for k in 0..tries {
        let cell = (k * 7 + seed * 13) % total;
        let saved = puzzle[cell];
        puzzle[cell] = 0;
        let g = Grid::from_cells(shape, puzzle.clone()).unwrap();
        let options = solver::Options {
            max_guesses: Some(2_000),
            ..Default::default()
        };
        if solver::solve(&g, &options).verdict != Verdict::Unique {
            puzzle[cell] = saved;
        }
    }
    (Grid::from_cells(shape, puzzle).unwrap(), full)
}

#[test]
fn other_shapes_grade_soundly() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 4)] {
        let shape = Shape::new(rows, cols).unwrap();
        let seeds = if shape.side() >= 16 { 1 } else { 4 };
        for seed in 0..seeds {
            let (puzzle, solution) = small_puzzle(shape, seed);
            assert_eq!(unique_solution(&puzzle), solution);
            let options = Options {
                explain: true,
                budget: 5_000_000,
                cancel: None,
            };
            let grade = grader::grade(&puzzle, &solution, &options).unwrap();
            check_path(&puzzle, &solution, &grade.steps);
            eprintln!(
                "{shape} seed {seed}: {:?} {} {:?}",
                grade.difficulty, grade.rating, grade.hardest
            );
        }
    }
}

/// A raised cancel flag stops a grading; an empty budget ends the path in guesses, marked as a lower
/// bound, still sound.
#[test]
fn cancel_stops_and_the_budget_bounds_the_search() {
    let text = std::fs::read_to_string(data("forum_hardest_1905_11plus_sample.txt")).unwrap();
    let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let puzzle = Grid::parse_puzzle(line).unwrap();
    let solution = unique_solution(&puzzle);
    let cancel = std::sync::atomic::AtomicBool::new(true);
    let options = Options {
        cancel: Some(&cancel),
        ..Default::default()
    };
    assert_eq!(
        grader::grade(&puzzle, &solution, &options).unwrap_err(),
        grader::GradeError::Cancelled
    );
    let options = Options {
        budget: 0,
        ..Default::default()
    };
    let grade = grader::grade(&puzzle, &solution, &options).unwrap();
    assert!(grade.lower_bound);
    assert_eq!(grade.difficulty, Difficulty::Extreme);
    assert!(grade.counts.iter().any(|c| c.0 == Technique::Guess));
    check_path(&puzzle, &solution, &grade.steps);
}
