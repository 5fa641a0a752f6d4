//! The generator's promises, checked on the puzzles it makes, shape by shape: exactly one solution
//! (by the solver, and by the general search as an independent oracle), the asked symmetry of the
//! clue pattern, minimality, and the same puzzle from the same seed.

use std::sync::atomic::AtomicBool;

use sudoku_core::generator::{self, GenerateError, Generated, Limits, Spec, Symmetry, Target};
use sudoku_core::grader::{self, Difficulty};
use sudoku_core::grid::{Grid, Shape};
use sudoku_core::solver::{self, Options, Verdict};

/// Every shape the core supports that a test can generate in well under a second.
const SHAPES: [(usize, usize); 6] = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (4, 2)];

fn make(spec: &Spec, seed: u64) -> Generated<()> {
    generator::generate(spec, seed, &Limits::default(), |_, _| Some(()))
        .unwrap_or_else(|e| panic!("{spec:?} seed {seed}: {e}"))
}

/// Whether the clue at (row, col) has every image under `symmetry` a clue too, written apart from
/// the generator's own mapping.
fn symmetric(puzzle: &Grid, symmetry: Symmetry) -> bool {
    let side = puzzle.shape().side();
    let last = side - 1;
    let clue = |r: usize, c: usize| puzzle.cells()[r * side + c] != 0;
    (0..side).all(|r| {
        (0..side).all(|c| {
            let (ir, ic) = match symmetry {
                Symmetry::None => (r, c),
                Symmetry::Rotate180 => (last - r, last - c),
                Symmetry::Rotate90 => (c, last - r),
                Symmetry::Mirror => (r, last - c),
                Symmetry::Flip => (last - r, c),
                Symmetry::Diagonal => (c, r),
                Symmetry::AntiDiagonal => (last - c, last - r),
            };
            clue(r, c) == clue(ir, ic)
        })
    })
}

fn verdict(puzzle: &Grid) -> Verdict {
    solver::solve_generic(puzzle, &Options::default()).verdict
}

/// The promises every generated puzzle keeps.
fn check(spec: &Spec, made: &Generated<()>) {
    let Generated {
        puzzle, solution, ..
    } = made;
    assert_eq!(puzzle.shape(), spec.shape());
    assert!(
        solution.solves(puzzle),
        "{spec:?}: the solution must solve the puzzle"
    );
    assert_eq!(verdict(puzzle), Verdict::Unique, "{spec:?}: {puzzle}");
    let fast = solver::solve(puzzle, &Options::default());
    assert_eq!(fast.solution.as_ref(), Some(solution));
    assert!(symmetric(puzzle, spec.symmetry()), "{spec:?}: {puzzle}");
}

/// Removing any one clue loses uniqueness, whatever the puzzle's symmetry.
fn assert_minimal(spec: &Spec, puzzle: &Grid) {
    for index in (0..puzzle.cells().len()).filter(|&i| puzzle.cells()[i] != 0) {
        let mut cells = puzzle.cells().to_vec();
        cells[index] = 0;
        let fewer = Grid::from_cells(spec.shape(), cells).expect("same shape");
        assert_eq!(
            verdict(&fewer),
            Verdict::Multiple,
            "{spec:?}: clue {index} of {puzzle} is removable"
        );
    }
}

#[test]
fn every_shape_gives_unique_minimal_reproducible_puzzles() {
    for (box_rows, box_cols) in SHAPES {
        let shape = Shape::new(box_rows, box_cols).expect("a core shape");
        for symmetry in Symmetry::ALL {
            let Ok(spec) = Spec::new(shape, symmetry, true) else {
                assert!(symmetry.needs_square_boxes() && box_rows != box_cols);
                continue;
            };
            for seed in 1..=3 {
                let made = make(&spec, seed);
                check(&spec, &made);
                assert_minimal(&spec, &made.puzzle);
                assert_eq!(
                    make(&spec, seed),
                    made,
                    "{spec:?} seed {seed} must reproduce"
                );
            }
        }
    }
}

#[test]
fn different_seeds_give_different_puzzles() {
    let spec = Spec::new(Shape::NINE, Symmetry::None, true).unwrap();
    let puzzles: std::collections::HashSet<Grid> =
        (1..=50).map(|seed| make(&spec, seed).puzzle).collect();
    assert_eq!(puzzles.len(), 50);
}

#[test]
fn large_shapes_give_unique_puzzles_when_minimality_is_not_asked() {
    for (box_rows, box_cols) in [(3, 4), (4, 4)] {
        let shape = Shape::new(box_rows, box_cols).unwrap();
        let spec = Spec::new(shape, Symmetry::Rotate180, false).unwrap();
        let made = make(&spec, 7);
        check(&spec, &made);
        assert!(
            made.puzzle.givens() < shape.cells() * 3 / 4,
            "{}",
            made.puzzle
        );
    }
}

#[test]
fn quarter_turns_and_diagonals_need_square_boxes() {
    let six = Shape::new(2, 3).unwrap();
    for symmetry in [
        Symmetry::Rotate90,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
    ] {
        let err = Spec::new(six, symmetry, false).unwrap_err();
        assert_eq!(
            err,
            GenerateError::SymmetryNeedsSquareBoxes {
                symmetry,
                shape: six
            }
        );
        assert!(err.to_string().contains("square boxes"), "{err}");
    }
    assert!(Spec::new(six, Symmetry::Rotate180, false).is_ok());
}

#[test]
fn a_refused_target_ends_with_the_budget_named() {
    let spec = Spec::new(Shape::NINE, Symmetry::None, false).unwrap();
    let limits = Limits {
        max_attempts: 5,
        cancel: None,
    };
    let mut seen = 0;
    let err = generator::generate(&spec, 1, &limits, |_, _| {
        seen += 1;
        None::<()>
    })
    .unwrap_err();
    assert_eq!(err, GenerateError::BudgetExhausted { attempts: 5 });
    assert_eq!(seen, 5);
    assert!(err.to_string().contains("5 attempts"));
}

#[test]
fn a_raised_flag_cancels() {
    let cancel = AtomicBool::new(true);
    let spec = Spec::new(Shape::new(4, 4).unwrap(), Symmetry::None, true).unwrap();
    let limits = Limits {
        max_attempts: 10,
        cancel: Some(&cancel),
    };
    let err = generator::generate(&spec, 1, &limits, |_, _| Some(())).unwrap_err();
    assert_eq!(err, GenerateError::Cancelled);
}

#[test]
fn accept_sees_the_puzzle_and_its_solution_and_its_rating_comes_back() {
    let spec = Spec::new(Shape::NINE, Symmetry::Rotate180, true).unwrap();
    let made = generator::generate(&spec, 3, &Limits::default(), |puzzle, solution| {
        assert!(solution.solves(puzzle));
        (puzzle.givens() < 40).then_some(puzzle.givens())
    })
    .unwrap();
    assert_eq!(made.rating, made.puzzle.givens());
}

/// A unique rotate-180 puzzle of each shape, not minimal.
fn unique_symmetric_puzzles_of(shapes: &[(usize, usize)]) {
    for &(box_rows, box_cols) in shapes {
        let shape = Shape::new(box_rows, box_cols).unwrap();
        let spec = Spec::new(shape, Symmetry::Rotate180, false).unwrap();
        let made = make(&spec, 11);
        let outcome = solver::solve(&made.puzzle, &Options::default());
        assert_eq!(outcome.verdict, Verdict::Unique, "{spec:?}");
        assert_eq!(outcome.solution, Some(made.solution.clone()));
        assert!(symmetric(&made.puzzle, Symmetry::Rotate180), "{spec:?}");
    }
}

#[test]
fn every_other_shape_up_to_sixteen_symbols_gives_unique_symmetric_puzzles() {
    unique_symmetric_puzzles_of(&[
        (2, 5),
        (5, 2),
        (2, 6),
        (6, 2),
        (3, 4),
        (4, 3),
        (2, 7),
        (7, 2),
        (3, 5),
        (5, 3),
        (2, 8),
        (8, 2),
    ]);
}

#[test]
#[ignore = "minutes in a debug build: cargo test --release -p sudoku-core --test generator -- --ignored"]
fn every_shape_from_sixteen_to_twenty_five_symbols_gives_unique_symmetric_puzzles() {
    unique_symmetric_puzzles_of(&[
        (4, 4),
        (3, 6),
        (6, 3),
        (2, 9),
        (9, 2),
        (4, 5),
        (5, 4),
        (3, 7),
        (7, 3),
        (2, 10),
        (10, 2),
        (2, 11),
        (11, 2),
        (3, 8),
        (8, 3),
        (4, 6),
        (6, 4),
        (2, 12),
        (12, 2),
        (5, 5),
    ]);
}

#[test]
fn a_difficulty_target_gives_puzzles_the_grader_puts_at_that_level() {
    let limits = Limits::default();
    for symmetry in [Symmetry::None, Symmetry::Rotate180] {
        let spec = Spec::new(Shape::NINE, symmetry, true).unwrap();
        for level in Difficulty::ALL {
            let made = generator::generate_graded(&spec, 21, Some(level).into(), &limits)
                .unwrap_or_else(|e| panic!("{level:?} {symmetry}: {e}"));
            let grade =
                grader::grade(&made.puzzle, &made.solution, &grader::Options::default()).unwrap();
            assert_eq!(grade.difficulty, level, "{}", made.puzzle);
            assert_eq!(made.rating.difficulty, level);
            assert_eq!(made.rating.rating, grade.rating);
            assert_eq!(verdict(&made.puzzle), Verdict::Unique);
            assert!(symmetric(&made.puzzle, symmetry));
            assert_minimal(&spec, &made.puzzle);
            let again = generator::generate_graded(&spec, 21, Some(level).into(), &limits).unwrap();
            assert_eq!(again, made, "the same seed and level give the same puzzle");
        }
    }
}

#[test]
fn a_rating_range_gives_puzzles_the_grader_rates_in_it() {
    let spec = Spec::new(Shape::NINE, Symmetry::None, true).unwrap();
    for (min_rating, max_rating) in [(10, 15), (26, 45), (45, 0), (0, 20)] {
        let target = Target {
            level: None,
            min_rating,
            max_rating,
        };
        for seed in 1..=3 {
            let made = generator::generate_graded(&spec, seed, target, &Limits::default())
                .unwrap_or_else(|e| panic!("{target}: {e}"));
            let grade =
                grader::grade(&made.puzzle, &made.solution, &grader::Options::default()).unwrap();
            assert_eq!(made.rating.rating, grade.rating);
            assert!(
                grade.rating >= min_rating && (max_rating == 0 || grade.rating <= max_rating),
                "{target}: {} rated {}",
                made.puzzle,
                grade.rating
            );
        }
    }
    // A range no 4x4 reaches names itself in the error.
    let four = Spec::new(Shape::new(2, 2).unwrap(), Symmetry::None, true).unwrap();
    let target = Target {
        level: None,
        min_rating: 90,
        max_rating: 0,
    };
    let limits = Limits {
        max_attempts: 50,
        cancel: None,
    };
    let err = generator::generate_graded(&four, 1, target, &limits).unwrap_err();
    assert!(err.to_string().contains("rated at least 9.0"), "{err}");
}

/// A 9x9 range from 7.5, where puzzles the solver finds easy are dropped ungraded: every puzzle is
/// still rated in range by Grade's grader, unique, minimal, symmetric, and again from its seed.
#[test]
fn a_hard_range_gives_graded_unique_minimal_symmetric_puzzles() {
    let target = Target {
        level: None,
        min_rating: 75,
        max_rating: 90,
    };
    let limits = Limits {
        max_attempts: target.max_attempts(),
        cancel: None,
    };
    for symmetry in [Symmetry::None, Symmetry::Rotate180] {
        let spec = Spec::new(Shape::NINE, symmetry, true).unwrap();
        for seed in 1..=2 {
            let made = generator::generate_graded(&spec, seed, target, &limits)
                .unwrap_or_else(|e| panic!("{target} {symmetry}: {e}"));
            let grade =
                grader::grade(&made.puzzle, &made.solution, &grader::Options::default()).unwrap();
            assert_eq!(made.rating.rating, grade.rating, "{}", made.puzzle);
            assert_eq!(made.rating.difficulty, grade.difficulty, "{}", made.puzzle);
            assert!(
                (75..=90).contains(&grade.rating),
                "{}: rated {}",
                made.puzzle,
                grade.rating
            );
            assert!(made.solution.solves(&made.puzzle), "{}", made.puzzle);
            assert_eq!(verdict(&made.puzzle), Verdict::Unique, "{}", made.puzzle);
            assert!(
                symmetric(&made.puzzle, symmetry),
                "{symmetry}: {}",
                made.puzzle
            );
            assert_minimal(&spec, &made.puzzle);
            let again = generator::generate_graded(&spec, seed, target, &limits).unwrap();
            assert_eq!(again, made, "the same seed and range give the same puzzle");
        }
    }
}

#[test]
fn an_unreachable_level_ends_with_the_budget_named_not_a_hang() {
    // Every 4x4 falls to singles: no EXTREME one exists.
    let spec = Spec::new(Shape::new(2, 2).unwrap(), Symmetry::None, true).unwrap();
    let limits = Limits {
        max_attempts: 200,
        cancel: None,
    };
    let err = generator::generate_graded(&spec, 1, Some(Difficulty::Extreme).into(), &limits)
        .unwrap_err();
    assert_eq!(
        err,
        GenerateError::TargetNotReached {
            target: Some(Difficulty::Extreme).into(),
            attempts: 200
        }
    );
    let text = err.to_string();
    assert!(
        text.contains("EXTREME") && text.contains("200 attempts"),
        "{text}"
    );
}

#[test]
fn a_raised_flag_cancels_a_graded_search() {
    let cancel = AtomicBool::new(true);
    let spec = Spec::new(Shape::NINE, Symmetry::None, true).unwrap();
    let limits = Limits {
        max_attempts: 1_000,
        cancel: Some(&cancel),
    };
    let err =
        generator::generate_graded(&spec, 1, Some(Difficulty::Hard).into(), &limits).unwrap_err();
    assert_eq!(err, GenerateError::Cancelled);
}

#[test]
fn full_grids_show_no_bias_in_a_corner_or_the_centre() {
    // The symbol at a fixed cell of 900 full grids: each of the 9 should come about 100 times. A
    // solver's order left in (say, 1 first in the top-left) would put one symbol far past 200.
    let spec = Spec::new(Shape::NINE, Symmetry::None, false).unwrap();
    let mut counts = [[0u32; 9]; 3];
    for seed in 1..=900 {
        let made = make(&spec, seed);
        for (k, index) in [0, 40, 80].into_iter().enumerate() {
            counts[k][usize::from(made.solution.cells()[index]) - 1] += 1;
        }
    }
    for per_cell in counts {
        assert!(
            per_cell.iter().all(|&n| (55..=150).contains(&n)),
            "{per_cell:?}"
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Any seed, shape and symmetry: a unique, symmetric, minimal puzzle, again from its seed.
    #[test]
    fn any_seed_gives_a_unique_symmetric_minimal_reproducible_puzzle(
        seed in 1u64..,
        shape in 0usize..SHAPES.len(),
        symmetry in 0usize..Symmetry::ALL.len(),
    ) {
        let (box_rows, box_cols) = SHAPES[shape];
        let shape = Shape::new(box_rows, box_cols).unwrap();
        let symmetry = Symmetry::ALL[symmetry];
        if let Ok(spec) = Spec::new(shape, symmetry, true) {
            let made = make(&spec, seed);
            check(&spec, &made);
            assert_minimal(&spec, &made.puzzle);
            proptest::prop_assert_eq!(make(&spec, seed), made);
        } else {
            proptest::prop_assert!(symmetry.needs_square_boxes());
        }
    }
}

/// A thread keeps its digger between calls: a puzzle must not depend on what the thread made
/// before. Each seed on a fresh thread against the same seed after other specs and seeds.
#[test]
fn a_puzzle_does_not_depend_on_what_the_thread_made_before() {
    let specs: Vec<Spec> = [
        (3, 3, Symmetry::None),
        (3, 3, Symmetry::Rotate180),
        (2, 3, Symmetry::Mirror),
        (3, 3, Symmetry::Rotate90),
    ]
    .into_iter()
    .map(|(r, c, symmetry)| {
        Spec::new(Shape::new(r, c).expect("a shape"), symmetry, true).expect("a spec")
    })
    .collect();
    let fresh = |spec: Spec, seed: u64| {
        std::thread::spawn(move || make(&spec, seed).puzzle)
            .join()
            .expect("no panic")
    };
    for (k, spec) in specs.iter().enumerate() {
        for seed in [3, 11] {
            let expected = fresh(*spec, seed);
            // On this thread, after other seeds of this spec and a puzzle of another spec.
            make(spec, seed + 100);
            make(&specs[(k + 1) % specs.len()], seed);
            assert_eq!(make(spec, seed).puzzle, expected, "{spec:?} seed {seed}");
            make(spec, seed + 200);
            assert_eq!(
                make(spec, seed).puzzle,
                expected,
                "{spec:?} seed {seed} again"
            );
        }
    }
}

/// A target from 9.0 may take many more attempts than the default, others the default.
#[test]
fn the_rarest_band_gets_more_attempts() {
    use sudoku_core::generator::{DEFAULT_MAX_ATTEMPTS, RARE_MAX_ATTEMPTS, Target};
    let from = |min_rating| Target {
        min_rating,
        ..Target::default()
    };
    assert_eq!(from(90).max_attempts(), RARE_MAX_ATTEMPTS);
    const { assert!(RARE_MAX_ATTEMPTS >= 10 * DEFAULT_MAX_ATTEMPTS) };
    assert_eq!(from(75).max_attempts(), DEFAULT_MAX_ATTEMPTS);
    assert_eq!(Target::default().max_attempts(), DEFAULT_MAX_ATTEMPTS);
}
