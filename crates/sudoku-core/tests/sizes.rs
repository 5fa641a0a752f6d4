//! Every shape from 4x4 to 25x25 through the public API: round trips in every alphabet and the
//! numbers-written-out form, the general search against a brute-force count on small shapes, the
//! committed per-size samples, and the simple generator that made them (a random full grid, then clues
//! removed while the answer stays unique).
//!
//! The samples under `tests/data/sizes/` are rewritten by
//! `SUDOKU_WRITE_SAMPLES=1 cargo test --release -p sudoku-core --test sizes -- --ignored write_samples`.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use sudoku_core::grid::{Grid, Shape};
use sudoku_core::solver::{self, Mode, Options, Verdict};
use sudoku_core::symbols::Symbols;
use sudoku_core::text::{Format, Notation, write_numbers};

/// Every supported shape, both orientations of each non-square box.
fn shapes() -> Vec<Shape> {
    let mut shapes = Vec::new();
    for rows in 2..=12 {
        for cols in 2..=12 {
            if let Some(shape) = Shape::new(rows, cols) {
                shapes.push(shape);
            }
        }
    }
    shapes
}

/// A small deterministic generator (xorshift64*), so every run and every failure repeats.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
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
    /// `0..n` in a random order.
    fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        self.shuffle(&mut p);
        p
    }
}

/// A random full grid of `shape`: the pattern solution, its values relabelled, its rows shuffled
/// within bands and its bands shuffled, likewise columns within stacks and stacks.
fn random_solution(shape: Shape, rng: &mut Rng) -> Grid {
    let (side, br, bc) = (shape.side(), shape.box_rows(), shape.box_cols());
    let relabel = rng.permutation(side);
    let order = |rng: &mut Rng, groups: usize, size: usize| -> Vec<usize> {
        let outer = rng.permutation(groups);
        outer
            .into_iter()
            .flat_map(|g| {
                let inner = rng.permutation(size);
                inner.into_iter().map(move |i| g * size + i)
            })
            .collect()
    };
    let rows = order(rng, side / br, br);
    let cols = order(rng, side / bc, bc);
    let mut cells = vec![0u8; shape.cells()];
    for (r, &row) in rows.iter().enumerate() {
        for (c, &col) in cols.iter().enumerate() {
            let value = (row % br * bc + row / br + col) % side;
            cells[r * side + c] = relabel[value] as u8 + 1;
        }
    }
    Grid::from_cells(shape, cells).expect("the pattern fits its shape")
}

/// A puzzle with a unique answer: `solution` with clues removed in a random order while the answer
/// stays unique (a removal whose proof exceeds `budget` guesses is kept, so this always ends).
fn random_puzzle(solution: &Grid, rng: &mut Rng, budget: u64) -> Grid {
    let shape = solution.shape();
    let mut cells = solution.cells().to_vec();
    let options = Options {
        mode: Mode::ProveUnique,
        max_guesses: Some(budget),
        cancel: None,
    };
    for index in rng.permutation(shape.cells()) {
        let kept = cells[index];
        cells[index] = 0;
        let puzzle = Grid::from_cells(shape, cells.clone()).expect("same shape");
        if solver::solve(&puzzle, &options).verdict != Verdict::Unique {
            cells[index] = kept;
        }
    }
    Grid::from_cells(shape, cells).expect("same shape")
}

/// The count of solutions by plain backtracking, up to `limit`: an oracle sharing no code with the
/// solvers.
fn brute_count(cells: &mut [u8], shape: Shape, limit: usize) -> usize {
    let side = shape.side();
    let Some(index) = cells.iter().position(|&v| v == 0) else {
        return 1;
    };
    let (row, col) = (index / side, index % side);
    let (br, bc) = (shape.box_rows(), shape.box_cols());
    let (r0, c0) = (row / br * br, col / bc * bc);
    let mut found = 0;
    for value in 1..=side as u8 {
        let clash = (0..side).any(|i| {
            cells[row * side + i] == value
                || cells[i * side + col] == value
                || cells[(r0 + i / bc) * side + c0 + i % bc] == value
        });
        if clash {
            continue;
        }
        cells[index] = value;
        found += brute_count(cells, shape, limit - found);
        cells[index] = 0;
        if found >= limit {
            break;
        }
    }
    found
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/sizes")
}

/// The committed sample's file for `shape`.
fn sample_path(shape: Shape) -> PathBuf {
    let side = shape.side();
    data_dir().join(format!(
        "{side}x{side}_{}x{}.txt",
        shape.box_rows(),
        shape.box_cols()
    ))
}

#[test]
fn every_shape_round_trips_in_every_notation() {
    let mut rng = Rng::new(1);
    for shape in shapes() {
        let solution = random_solution(shape, &mut rng);
        let puzzle = {
            let mut cells = solution.cells().to_vec();
            for index in rng
                .permutation(shape.cells())
                .into_iter()
                .take(shape.cells() / 3)
            {
                cells[index] = 0;
            }
            Grid::from_cells(shape, cells).expect("same shape")
        };
        let given = Format::new(shape.box_rows() as u32, shape.box_cols() as u32, "")
            .expect("a supported shape");
        // The standard alphabet, then numbers written out, then an alphabet of one's own.
        let own: String = "abcdefghijklmnopqrstuvwxy"
            .chars()
            .take(shape.side())
            .collect();
        let own_format = Format::new(shape.box_rows() as u32, shape.box_cols() as u32, &own)
            .expect("a supported alphabet");
        let texts = [
            (Symbols::of(shape).write(&puzzle), given),
            (write_numbers(&puzzle), given),
            (
                Symbols::new(&own).expect("alphabet").write(&puzzle),
                own_format,
            ),
        ];
        for (text, format) in texts {
            let read = Grid::read_puzzle(&text, &format)
                .unwrap_or_else(|e| panic!("{shape}: {text:?} does not read: {e}"));
            assert_eq!(read.grid, puzzle, "{shape}: {text:?}");
            let outcome = solver::solve(&read.grid, &Options::default());
            let found = outcome
                .solution
                .expect("a puzzle blanked from a solution solves");
            assert!(found.solves(&puzzle), "{shape}");
            let written = read.write(&found);
            let again = Grid::read(&written, &format).expect("an answer reads back");
            assert_eq!(again.grid, found, "{shape}: {written:?}");
            if read.notation == Notation::Symbols {
                assert_eq!(written.chars().count(), shape.cells(), "one symbol a cell");
            }
        }
        // Inferred shapes are the square or the wide box; a tall box is read when given.
        if shape.box_rows() <= shape.box_cols() && Shape::for_side(shape.side()) == Some(shape) {
            let read = Grid::read(&Symbols::of(shape).write(&puzzle), &Format::default())
                .expect("reads with its shape inferred");
            assert_eq!(read.grid.shape(), shape);
        }
    }
}

#[test]
fn generated_puzzles_of_every_small_shape_are_unique_by_brute_force() {
    for shape in shapes().into_iter().filter(|s| s.side() <= 6) {
        let mut rng = Rng::new(shape.side() as u64 * 31 + shape.box_rows() as u64);
        for _ in 0..5 {
            let solution = random_solution(shape, &mut rng);
            let puzzle = random_puzzle(&solution, &mut rng, 10_000);
            let mut cells = puzzle.cells().to_vec();
            assert_eq!(brute_count(&mut cells, shape, 2), 1, "{shape}: {puzzle}");
            let outcome = solver::solve(&puzzle, &Options::default());
            assert_eq!(outcome.verdict, Verdict::Unique, "{shape}: {puzzle}");
            assert_eq!(outcome.solution.as_ref(), Some(&solution), "{shape}");
        }
    }
}

/// The committed samples: every puzzle of every shape proved unique, its answer checked.
#[test]
fn committed_samples_of_every_size_solve_uniquely() {
    let mut files = 0;
    for shape in shapes() {
        let path = sample_path(shape);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        files += 1;
        let format = Format::new(shape.box_rows() as u32, shape.box_cols() as u32, "")
            .expect("a supported shape");
        for line in text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let puzzle = Grid::read_puzzle(line, &format)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .grid;
            let outcome = solver::solve(&puzzle, &Options::default());
            assert_eq!(
                outcome.verdict,
                Verdict::Unique,
                "{}: {line}",
                path.display()
            );
            let solution = outcome.solution.expect("unique comes with a solution");
            assert!(solution.solves(&puzzle), "{}: {line}", path.display());
        }
    }
    assert!(
        files >= 10,
        "expected a sample per size in {}, found {files}",
        data_dir().display()
    );
}

/// Writes the samples under `tests/data/sizes/` (only with `SUDOKU_WRITE_SAMPLES` set).
#[test]
#[ignore = "writes tests/data/sizes; run with SUDOKU_WRITE_SAMPLES=1 and --release -- --ignored"]
fn write_samples() {
    if std::env::var_os("SUDOKU_WRITE_SAMPLES").is_none() {
        return;
    }
    std::fs::create_dir_all(data_dir()).expect("data dir");
    for shape in shapes() {
        let count = match shape.side() {
            side if side <= 12 => 10,
            side if side <= 20 => 5,
            _ => 3,
        };
        let mut rng = Rng::new(0x5EED + shape.side() as u64 * 100 + shape.box_rows() as u64);
        let mut text = format!(
            "# {count} {shape} puzzles, each with a unique answer: a random full grid, then clues removed \
             in a random order while the answer stays unique (crates/sudoku-core/tests/sizes.rs).\n"
        );
        for _ in 0..count {
            let solution = random_solution(shape, &mut rng);
            let budget = if shape.side() <= 16 { 2_000 } else { 100 };
            let puzzle = random_puzzle(&solution, &mut rng, budget);
            text.push_str(&Symbols::of(shape).write(&puzzle));
            text.push('\n');
        }
        std::fs::write(sample_path(shape), text).expect("sample written");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On small shapes the general search's verdict matches a brute-force count of solutions.
    #[test]
    fn general_search_matches_brute_force_on_small_shapes(
        seed in any::<u64>(),
        which in 0usize..3,
        blanks_per_mille in 300usize..=1000,
    ) {
        let shape = [Shape::new(2, 2), Shape::new(2, 3), Shape::new(3, 2)][which].expect("shape");
        let mut rng = Rng::new(seed);
        let solution = random_solution(shape, &mut rng);
        let mut cells = solution.cells().to_vec();
        let blanks = shape.cells() * blanks_per_mille / 1000;
        for index in rng.permutation(shape.cells()).into_iter().take(blanks) {
            cells[index] = 0;
        }
        // Sometimes a wrong given, so unsolvable puzzles are covered too.
        if seed % 4 == 0 {
            let index = rng.below(shape.cells());
            cells[index] = (rng.below(shape.side()) + 1) as u8;
        }
        let puzzle = Grid::from_cells(shape, cells.clone()).expect("same shape");
        let count = if puzzle.check_givens().is_ok() {
            brute_count(&mut cells, shape, 2)
        } else {
            0
        };
        let outcome = solver::solve(&puzzle, &Options::default());
        let expected = match count {
            0 => Verdict::Unsolvable,
            1 => Verdict::Unique,
            _ => Verdict::Multiple,
        };
        prop_assert_eq!(outcome.verdict, expected, "{}", puzzle);
        if let Some(found) = outcome.solution {
            prop_assert!(found.solves(&puzzle));
        }
    }
}
