//! The logic engine's promises, on whole sets: every step of every path is sound against the solver's
//! unique solution (a placement is the solution's value, an elimination never removes it), every step
//! makes progress, and every path ends in the solution. Plus hints walked to the end, and other shapes.

use std::path::Path;
use std::sync::Arc;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use sudoku_core::candidates::{Board, Geometry};
use sudoku_core::grader::{self, Difficulty, Options};
use sudoku_core::grid::{Grid, Shape};
use sudoku_core::hint::{self, Hint};
use sudoku_core::solver::{self, Verdict};
use sudoku_core::strategy::{Step, Technique};
use sudoku_core::variant::{self, Diagonal, Rule, Variant};

/// Checks every step of `steps` from `puzzle` against `solution`, and that they solve it.
fn check_path(puzzle: &Grid, solution: &Grid, steps: &[Step]) {
    check_path_on(&Geometry::of(puzzle.shape()), puzzle, solution, steps);
}

/// [`check_path`] on the layout `geo` (a variant's regions and extra units).
fn check_path_on(geo: &Arc<Geometry>, puzzle: &Grid, solution: &Grid, steps: &[Step]) {
    let mut board = Board::on(geo.clone(), puzzle).expect("a puzzle without clashes");
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

/// Grades every puzzle of `path` (every `stride`-th), checking each path, on every core; the levels
/// seen, counted.
fn grade_file(path: &Path, stride: usize, budget: u64) -> [usize; 6] {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .step_by(stride)
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let levels_of = |thread: usize| {
        let mut levels = [0; 6];
        for line in lines.iter().skip(thread).step_by(threads) {
            let puzzle = Grid::parse_puzzle(line).expect("a valid puzzle");
            levels[grade_explained(&puzzle, budget) as usize] += 1;
        }
        levels
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|thread| scope.spawn(move || levels_of(thread)))
            .collect();
        let mut levels = [0; 6];
        for worker in workers {
            let counted = worker.join().expect("a grading thread");
            for (sum, count) in levels.iter_mut().zip(counted) {
                *sum += count;
            }
        }
        levels
    })
}

/// Grades `puzzle`, explained, and checks its path; its level.
fn grade_explained(puzzle: &Grid, budget: u64) -> Difficulty {
    let solution = unique_solution(puzzle);
    let options = Options {
        explain: true,
        budget,
        cancel: None,
    };
    let grade = grader::grade(puzzle, &solution, &options).expect("graded");
    check_path(puzzle, &solution, &grade.steps);
    check_pearl_and_diamond(&grade);
    assert!(
        grade.steps.iter().all(|s| !s.text.is_empty()),
        "every step explained"
    );
    grade.difficulty
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

/// Every 17-clue puzzle, and every 160th of the hardest: each of those takes Sudoku Explainer's
/// chain searches, nested ones to level 3 among them, at every step (about a second a puzzle), so
/// the whole set would take hours.
#[test]
#[ignore = "reads ../shared/data; CI runs it once"]
fn shared_sets_every_step_is_sound_on_every_17_clue_and_every_160th_hardest_puzzle() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    for (file, stride) in [("17_clue.txt", 1), ("forum_hardest_1905_11plus.txt", 160)] {
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
    check_path_from_on(&Geometry::of(board.shape()), board, solution, steps);
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

// ---------------------------------------------------------------------------------------------
// Variants with unit rules: jigsaw regions, diagonals, extra regions and disjoint groups, graded
// and hinted on their own layout.
// ---------------------------------------------------------------------------------------------

fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// A random unit variant of `side` (its regions and unit rules drawn by `rng`), unique, with its
/// solution; `None` when the rules drawn leave no solution quickly.
fn unit_variant(rng: &mut Xoshiro256PlusPlus, side: usize) -> Option<(Variant, Vec<u8>)> {
    const JIGSAW_6: [u8; 36] = [
        0, 0, 0, 1, 1, 1, 0, 0, 2, 1, 1, 1, 0, 2, 2, 2, 3, 3, 4, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5, 3,
        4, 4, 4, 5, 5, 5,
    ];
    let regions = match side {
        6 if below(rng, 2) == 0 => JIGSAW_6.to_vec(),
        9 if below(rng, 2) == 0 => jigsaw_fixture().regions().to_vec(),
        _ => Variant::default_regions(side),
    };
    let mut rules = Vec::new();
    for rule in [
        Rule::Diagonal(Diagonal::Negative),
        Rule::Diagonal(Diagonal::Positive),
        Rule::DisjointGroups,
    ] {
        if below(rng, 3) == 0 {
            rules.push(rule);
        }
    }
    for _ in 0..below(rng, 3) {
        // An extra region of 2 to `side` cells anywhere.
        let mut cells: Vec<usize> = (0..side * side).collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, below(rng, i + 1));
        }
        cells.truncate(2 + below(rng, side - 1));
        rules.push(Rule::ExtraRegion(cells));
    }
    // A solution: a few random givens, then the first solution; values relabelled at random keep
    // every unit rule.
    let mut givens = vec![0u8; side * side];
    for _ in 0..side / 2 {
        givens[below(rng, side * side)] = 1 + below(rng, side) as u8;
    }
    let seeded = Variant::new(side, givens, regions.clone(), rules.clone()).ok()?;
    let first = solver::Options {
        mode: solver::Mode::FirstSolution,
        max_guesses: Some(5_000),
        cancel: None,
    };
    let solution = variant::solve(&seeded, &first).solution?;
    let mut relabel: Vec<u8> = (1..=side as u8).collect();
    for i in (1..side).rev() {
        relabel.swap(i, below(rng, i + 1));
    }
    let solution: Vec<u8> = solution
        .iter()
        .map(|&v| relabel[usize::from(v) - 1])
        .collect();
    // Blank cells in a random order while the puzzle stays unique.
    let mut puzzle = solution.clone();
    let mut order: Vec<usize> = (0..side * side).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, below(rng, i + 1));
    }
    let unique = solver::Options {
        max_guesses: Some(5_000),
        ..Default::default()
    };
    for cell in order {
        let saved = std::mem::replace(&mut puzzle[cell], 0);
        let v = Variant::new(side, puzzle.clone(), regions.clone(), rules.clone()).ok()?;
        if variant::solve(&v, &unique).verdict != Verdict::Unique {
            puzzle[cell] = saved;
        }
    }
    let v = Variant::new(side, puzzle, regions, rules).ok()?;
    Some((v, solution))
}

/// Random unit variants on 4x4, 6x6 and 9x9 are graded soundly on their layouts (every step
/// checked against the unique solution, the path ends in it) and hinted to the end; the techniques
/// use the extra units (some step names one) and rarely need a guess.
#[test]
fn unit_variants_grade_and_hint_soundly() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(22);
    let (mut graded, mut naming_extra, mut guesses, mut steps_total) = (0, 0, 0, 0);
    for (side, cases) in [(4, 30), (6, 30), (9, 12)] {
        let mut made = 0;
        while made < cases {
            let Some((v, values)) = unit_variant(&mut rng, side) else {
                continue;
            };
            made += 1;
            let layout = v.layout().unwrap();
            let solution = layout.grid(values).unwrap();
            let grade = grade_checked(&layout, &solution);
            graded += 1;
            steps_total += grade.steps.len();
            guesses += grade
                .steps
                .iter()
                .filter(|s| s.technique == Technique::Guess)
                .count();
            if grade.steps.iter().any(|s| {
                let text = s.plain_explanation();
                text.contains("diagonal")
                    || text.contains("extra region")
                    || text.contains("disjoint")
            }) {
                naming_extra += 1;
            }
            // Hints, each applied, walk the puzzle to its end.
            let mut progress = layout.puzzle.clone();
            loop {
                match layout.hint(&progress, &solution, &explained()).unwrap() {
                    Hint::Solved => break,
                    Hint::Mistakes(m) => panic!("no entry is wrong, yet {m:?}"),
                    Hint::Steps(steps) => {
                        check_path_from_on(&layout.geometry, &progress, &solution, &steps);
                        let mut cells = progress.cells().to_vec();
                        for p in &steps.last().unwrap().placements {
                            cells[p.cell] = p.value;
                        }
                        progress = Grid::from_cells(progress.shape(), cells).unwrap();
                    }
                }
            }
            assert_eq!(progress, solution);
        }
    }
    eprintln!(
        "{graded} graded, {naming_extra} naming an extra unit, {guesses} guesses in {steps_total} steps"
    );
    assert!(
        naming_extra >= graded / 4,
        "the extra units are used: {naming_extra} of {graded}"
    );
    assert!(
        guesses * 20 < steps_total,
        "guesses are rare: {guesses} of {steps_total} steps"
    );
}

/// A jigsaw's regions are its boxes: the grade names regions, never boxes, and a classic puzzle
/// graded on its own layout grades as before.
#[test]
fn a_jigsaw_grades_by_its_regions_and_a_classic_layout_changes_nothing() {
    let v = jigsaw_fixture();
    let layout = v.layout().unwrap();
    let values = variant::solve(&v, &Default::default()).solution.unwrap();
    let solution = layout.grid(values).unwrap();
    let grade = grade_checked(&layout, &solution);
    let texts: Vec<String> = grade.steps.iter().map(|s| s.plain_explanation()).collect();
    assert!(texts.iter().any(|t| t.contains("region ")), "{texts:?}");
    assert!(!texts.iter().any(|t| t.contains("box ")), "{texts:?}");

    let classic = Grid::parse_puzzle(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    )
    .unwrap();
    let solution = unique_solution(&classic);
    let v = Variant::new(
        9,
        classic.cells().to_vec(),
        Variant::default_regions(9),
        Vec::new(),
    )
    .unwrap();
    let layout = v.layout().unwrap();
    let on_layout = grade_checked(&layout, &solution);
    let plain = grader::grade(&classic, &solution, &explained()).unwrap();
    assert_eq!(on_layout.steps, plain.steps);
}

/// Rules without techniques are refused by name, as is a side no classic grid has.
#[test]
fn grading_refuses_rules_without_techniques_by_name() {
    let v = Variant::new(
        9,
        vec![0; 81],
        Variant::default_regions(9),
        vec![Rule::Diagonal(Diagonal::Positive), Rule::AntiKnight],
    )
    .unwrap();
    let err = v.layout().unwrap_err().to_string();
    assert!(err.contains("rule 2 (anti-knight)"), "{err}");
    let v = Variant::new(7, vec![0; 49], Variant::default_regions(7), Vec::new()).unwrap();
    let err = v.layout().unwrap_err().to_string();
    assert!(err.contains("not 7"), "{err}");
}

/// The committed jigsaw fixture (tests/data/variants/jigsaw.json).
fn jigsaw_fixture() -> Variant {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/variants/jigsaw.json");
    sudoku_core::fpuzzles::read(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Grading options that write each step's explanation.
fn explained() -> Options<'static> {
    Options {
        explain: true,
        ..Options::default()
    }
}

/// The grade of `layout`'s puzzle, explained, with every step of its path checked against
/// `solution` ([`check_path_on`]).
fn grade_checked(layout: &variant::Layout, solution: &Grid) -> grader::Grade {
    let grade = layout.grade(solution, &explained()).unwrap();
    check_path_on(&layout.geometry, &layout.puzzle, solution, &grade.steps);
    grade
}

/// [`check_path_from`] on the layout `geo`.
fn check_path_from_on(geo: &Arc<Geometry>, board: &Grid, solution: &Grid, steps: &[Step]) {
    let mut b = Board::on(geo.clone(), board).unwrap();
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

/// A grading with a ceiling gives the very grade of a grading without one for every puzzle rated
/// up to the ceiling, and stops with `AboveCeiling` for every puzzle above it, on the rated samples
/// (every level, chains and guesses among them) at every ceiling the bands use.
#[test]
fn a_ceiling_keeps_the_grade_below_it_and_stops_above_it() {
    let mut puzzles = Vec::new();
    for name in ["serate_sample.txt", "serate_extreme_sample.txt"] {
        let text = std::fs::read_to_string(data(name)).unwrap();
        puzzles.extend(
            text.lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .step_by(3)
                .map(|l| Grid::parse_puzzle(l.split_whitespace().next().unwrap()).unwrap()),
        );
    }
    let (mut below, mut above) = (0, 0);
    for puzzle in &puzzles {
        let solution = unique_solution(puzzle);
        let full = grader::grade(puzzle, &solution, &Options::default()).unwrap();
        for ceiling in [15, 23, 44, 60, 69, 75, 90] {
            match grader::grade_within(puzzle, &solution, &Options::default(), ceiling) {
                Ok(grade) => {
                    assert!(
                        full.rating <= ceiling,
                        "{puzzle}: {} > {ceiling}",
                        full.rating
                    );
                    assert_eq!(grade.steps, full.steps, "{puzzle} at {ceiling}");
                    assert_eq!(grade.rating, full.rating);
                    below += 1;
                }
                Err(grader::GradeError::AboveCeiling(c)) => {
                    assert_eq!(c, ceiling);
                    assert!(
                        full.rating > ceiling,
                        "{puzzle}: {} <= {ceiling}",
                        full.rating
                    );
                    above += 1;
                }
                Err(e) => panic!("{puzzle}: {e}"),
            }
        }
    }
    assert!(below > 100 && above > 100, "{below} below, {above} above");
}

/// Grading that proves uniqueness on the way agrees with the solver on every kind of puzzle:
/// unique ones (the same path as grading with the solution), several solutions (givens taken
/// away) and none (a given changed, clashing or not), classic and unit variants on 4x4, 6x6 and
/// 9x9; the easy techniques' walk on a board without a solution neither panics nor stops early.
#[test]
fn grading_proves_uniqueness_as_the_solver_does() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(24);
    // Each puzzle as a variant, so its givens can change with its rules kept.
    let as_variant = |puzzle: &Grid| {
        let side = puzzle.shape().side();
        let regions = Variant::default_regions(side);
        Variant::new(side, puzzle.cells().to_vec(), regions, Vec::new()).unwrap()
    };
    let mut variants = Vec::new();
    for (shape, seeds) in [((2, 2), 6), ((2, 3), 6), ((3, 3), 4)] {
        let shape = Shape::new(shape.0, shape.1).unwrap();
        for seed in 0..seeds {
            variants.push(as_variant(&small_puzzle(shape, seed).0));
        }
    }
    for side in [4, 6, 9, 9] {
        if let Some((v, _)) = unit_variant(&mut rng, side) {
            variants.push(v);
        }
    }
    for sample in [
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ".....8.1...13..958...7....371......9.9.....3....92...4.3...7....59..1...4...6.3..",
    ] {
        variants.push(as_variant(&Grid::parse_puzzle(sample).unwrap()));
    }
    let mut verdicts = std::collections::HashMap::new();
    for v in &variants {
        let layout = v.layout().unwrap();
        let givens: Vec<usize> = (0..layout.puzzle.cells().len())
            .filter(|&c| layout.puzzle.cells()[c] != 0)
            .collect();
        let n = layout.puzzle.shape().side();
        let mut puzzles = vec![layout.puzzle.cells().to_vec()];
        for _ in 0..6 {
            // Fewer givens: often several solutions.
            let mut cells = layout.puzzle.cells().to_vec();
            for _ in 0..1 + below(&mut rng, 4) {
                cells[givens[below(&mut rng, givens.len())]] = 0;
            }
            puzzles.push(cells);
            // A given changed: no solution, its givens clashing or not.
            let mut cells = layout.puzzle.cells().to_vec();
            let at = givens[below(&mut rng, givens.len())];
            cells[at] = (cells[at] + below(&mut rng, n - 1) as u8) % n as u8 + 1;
            puzzles.push(cells);
        }
        for cells in puzzles {
            let regions = v.regions().to_vec();
            let changed = Variant::new(n, cells, regions, v.rules().to_vec()).unwrap();
            let changed = changed.layout().unwrap();
            let proved = changed.grade_unique(u64::MAX, &explained()).unwrap();
            let solved = changed.unique_solution(u64::MAX, None).unwrap();
            match (proved, solved) {
                (Ok(grade), Ok(solution)) => {
                    let graded = changed.grade(&solution, &explained()).unwrap();
                    assert_eq!(grade.steps, graded.steps, "{}", changed.puzzle);
                    assert_eq!(grade.rating, graded.rating);
                    *verdicts.entry("unique").or_insert(0) += 1;
                }
                (Err(proved), Err(solved)) => {
                    assert_eq!(proved, solved, "{}", changed.puzzle);
                    *verdicts.entry(format!("{proved:?}").leak()).or_insert(0) += 1;
                }
                (proved, solved) => panic!(
                    "{}: proving says {:?}, the solver {:?}",
                    changed.puzzle,
                    proved.map(|g| g.rating),
                    solved
                ),
            }
        }
    }
    for verdict in ["unique", "Multiple", "Unsolvable"] {
        assert!(
            verdicts.get(verdict).copied().unwrap_or(0) > 10,
            "{verdicts:?}"
        );
    }
}
