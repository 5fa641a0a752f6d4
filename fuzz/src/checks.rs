//! What the fuzz targets assert, on one input each. Every check panics on a broken promise, so that
//! libFuzzer records the input, and the regression test replays saved inputs through the same code.
//!
//! This file is compiled twice: as `sudoku_grpc_fuzz::checks` in the fuzz crate, and as a module of
//! `tests/fuzz_regressions.rs` in the core crate's tests. It may only use `std` and `sudoku_core`.

use std::sync::atomic::AtomicBool;

use sudoku_core::canonicalization::{Transform, canonicalize};
use sudoku_core::grid::{Grid, ParseError, PuzzleError, Shape};
use sudoku_core::solver::{self, Mode, Options, Outcome, Verdict};

/// The reader's layout characters, written out again here so the check does not trust the code it
/// checks.
fn is_layout(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, '|' | '-' | '+' | ',' | '"' | '[' | ']')
}

/// An independent reading of a 9x9 grid: the cell values in order, or the first bad character with
/// its position in characters. Returns every cell it found, however many.
fn reference_cells(text: &str) -> Result<Vec<u8>, (char, usize)> {
    let mut cells = Vec::new();
    for (position, ch) in text.chars().enumerate() {
        match ch {
            _ if is_layout(ch) => {}
            '.' | '0' => cells.push(0),
            '1'..='9' => cells.push(ch.to_digit(10).map_or(0, |d| d as u8)),
            _ => return Err((ch, position)),
        }
    }
    Ok(cells)
}

/// A grid printed with box borders, one row a line, as people lay a puzzle out.
fn pretty(grid: &Grid) -> String {
    let flat = grid.to_string();
    let chars: Vec<char> = flat.chars().collect();
    let mut out = String::new();
    for (row, cells) in chars.chunks(9).enumerate() {
        if row > 0 && row.is_multiple_of(3) {
            out.push_str("------+-------+------\n");
        }
        for (col, ch) in cells.iter().enumerate() {
            if col > 0 && col.is_multiple_of(3) {
                out.push_str("| ");
            }
            out.push(*ch);
            out.push(' ');
        }
        out.push('\n');
    }
    out
}

/// Parser target: arbitrary bytes, read as text (lossily, so invalid UTF-8 becomes U+FFFD), through
/// [`Grid::parse`], [`Grid::parse_puzzle`] and `FromStr`. None may panic; they must agree with each
/// other and with an independent reading; a grid read must print and read back the same.
pub fn check_parser(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    check_text(&text);
    // Valid UTF-8 is also tried with the bytes cut at each of a few places, where a cut is a char
    // boundary: cheap extra cases near the 81-cell edge.
    if let Ok(text) = std::str::from_utf8(data) {
        for cut in [1, 80, 81, 82] {
            if let Some(prefix) = text.get(..text.len().saturating_sub(cut)) {
                check_text(prefix);
            }
        }
    }
}

fn check_text(text: &str) {
    check_any_size(text);
    let parsed = Grid::parse(text);
    let puzzle = Grid::parse_puzzle(text);
    let from_str: Result<Grid, ParseError> = text.parse();
    assert_eq!(parsed, from_str, "parse and FromStr disagree on {text:?}");
    let reference = reference_cells(text);
    match &parsed {
        Ok(grid) => {
            assert_eq!(grid.shape(), Shape::NINE);
            assert_eq!(grid.cells().len(), 81);
            assert!(grid.cells().iter().all(|&v| v <= 9), "{grid:?}");
            assert_eq!(
                reference.as_deref(),
                Ok(grid.cells()),
                "reading of {text:?} differs from the reference"
            );
            let printed = grid.to_string();
            assert_eq!(printed.chars().count(), 81, "{printed:?}");
            assert_eq!(
                Grid::parse(&printed).as_ref(),
                Ok(grid),
                "{printed:?} does not read back"
            );
            let laid_out = pretty(grid);
            assert_eq!(
                Grid::parse(&laid_out).as_ref(),
                Ok(grid),
                "{laid_out:?} does not read back"
            );
            assert_eq!(
                Grid::from_cells(Shape::NINE, grid.cells().to_vec()).as_ref(),
                Some(grid)
            );
            let _ = format!("{grid:?} {}", grid.givens());
            match (grid.check_givens(), &puzzle) {
                (Ok(()), Ok(p)) => assert_eq!(p, grid),
                (Err(conflict), Err(PuzzleError::Conflict(c))) => {
                    assert_eq!(&conflict, c);
                    assert!((1..=9).contains(&conflict.digit), "{conflict:?}");
                    assert_eq!(grid.get(conflict.first), conflict.digit, "{conflict:?}");
                    assert_eq!(grid.get(conflict.second), conflict.digit, "{conflict:?}");
                    assert_ne!(conflict.first, conflict.second, "{conflict:?}");
                    let _ = conflict.to_string();
                }
                (givens, puzzle) => {
                    panic!("check_givens {givens:?} but parse_puzzle {puzzle:?} on {text:?}")
                }
            }
        }
        Err(error) => {
            assert_eq!(
                puzzle.as_ref().err(),
                Some(&PuzzleError::Parse(error.clone())),
                "parse_puzzle gave another answer than parse on {text:?}"
            );
            let _ = error.to_string();
            match (error, reference) {
                (
                    ParseError::InvalidCharacter {
                        ch, position, cell, ..
                    },
                    Err((rch, rposition)),
                ) => {
                    assert_eq!((*ch, *position), (rch, rposition), "on {text:?}");
                    assert_eq!(text.chars().nth(*position), Some(*ch));
                    // The cell it would have filled: the count of cells before it, while under 81.
                    let before = reference_cells(&text.chars().take(*position).collect::<String>())
                        .map(|cells| cells.len())
                        .expect("no bad character before the first one");
                    let expected = (before < 81).then(|| Shape::NINE.cell(before));
                    assert_eq!(*cell, expected, "on {text:?}");
                }
                (ParseError::WrongCellCount { found, expected }, Ok(cells)) => {
                    assert_eq!(*expected, 81);
                    assert_eq!(*found, cells.len(), "on {text:?}");
                    assert_ne!(*found, 81);
                }
                (error, reference) => {
                    panic!("parse error {error:?} but reference reading {reference:?} on {text:?}")
                }
            }
        }
    }
}

/// A grid built from fuzz bytes, with the guess budget its size can afford per run.
pub struct FuzzGrid {
    /// The grid, possibly with clashing givens.
    pub grid: Grid,
    /// The guess budget for each search on it.
    pub max_guesses: u64,
    /// Whether to also run a search with the cancellation flag already raised.
    pub try_cancel: bool,
}

/// Every supported shape, both orientations of the non-square boxes.
fn all_shapes() -> Vec<Shape> {
    (2..=12)
        .flat_map(|rows| (2..=12).filter_map(move |cols| Shape::new(rows, cols)))
        .collect()
}

/// Reads a grid from fuzz bytes. Byte 0 chooses: bits 0-2 the shape (0-3: 9x9; 4-5: 4x4; 6: 16x16;
/// 7: the next byte picks any supported shape, 4x4 to 25x25 in both orientations); bit 3 the encoding; bit 4 whether to also run a cancelled search. Dense encoding: one
/// byte per cell in row-major order, value `byte % (side + 1)`, missing bytes blank. Sparse encoding:
/// triples (index high, index low, value), each setting one cell of an otherwise blank grid.
pub fn fuzz_grid(data: &[u8]) -> FuzzGrid {
    let (&selector, mut rest) = data.split_first().unwrap_or((&0, &[]));
    let shape = match selector & 0b111 {
        0..=3 => Shape::NINE,
        4 | 5 => Shape::with_box_size(2).expect("4x4 is a shape"),
        6 => Shape::with_box_size(4).expect("16x16 is a shape"),
        _ => {
            let (&pick, after) = rest.split_first().unwrap_or((&0, &[]));
            rest = after;
            let shapes = all_shapes();
            shapes[usize::from(pick) % shapes.len()]
        }
    };
    let max_guesses = if shape.side() <= 9 {
        10_000
    } else if shape.side() <= 16 {
        500
    } else {
        50
    };
    let (side, count) = (shape.side(), shape.cells());
    let value = |byte: u8| (usize::from(byte) % (side + 1)) as u8;
    let mut cells = vec![0u8; count];
    if selector & 0b1000 == 0 {
        for (cell, &byte) in cells.iter_mut().zip(rest) {
            *cell = value(byte);
        }
    } else {
        for triple in rest.chunks_exact(3) {
            let index = (usize::from(triple[0]) << 8 | usize::from(triple[1])) % count;
            cells[index] = value(triple[2]);
        }
    }
    FuzzGrid {
        grid: Grid::from_cells(shape, cells).expect("every value is at most the side"),
        max_guesses,
        try_cancel: selector & 0b1_0000 != 0,
    }
}

/// Any size and notation: [`Grid::read`] never panics, and what it reads writes back (in its own
/// alphabet and notation) to text that reads as the same grid.
fn check_any_size(text: &str) {
    let format = sudoku_core::text::Format::default();
    if let Ok(read) = Grid::read(text, &format) {
        let written = read.write(&read.grid);
        let again = Grid::read(&written, &format).unwrap_or_else(|e| {
            panic!("{written:?} (written from {text:?}) does not read back: {e}")
        });
        assert_eq!(again.grid, read.grid, "{text:?} -> {written:?}");
    }
}

/// Solver target: the grid [`fuzz_grid`] reads, solved in both modes by [`solver::solve`] (and, for
/// 9x9, by [`solver::solve_generic`] too) under a small guess budget. Nothing may panic, and every
/// verdict must be backed: see [`check_outcome`] and the cross-checks here.
pub fn check_solver(data: &[u8]) {
    let FuzzGrid {
        grid,
        max_guesses,
        try_cancel,
    } = fuzz_grid(data);
    let options = |mode| Options {
        mode,
        max_guesses: Some(max_guesses),
        cancel: None,
    };
    let unique = solver::solve(&grid, &options(Mode::ProveUnique));
    let first = solver::solve(&grid, &options(Mode::FirstSolution));
    check_outcome(&grid, Mode::ProveUnique, max_guesses, &unique);
    check_outcome(&grid, Mode::FirstSolution, max_guesses, &first);
    check_modes_agree(&grid, &unique, &first);

    if grid.shape() == Shape::NINE {
        let g_unique = solver::solve_generic(&grid, &options(Mode::ProveUnique));
        let g_first = solver::solve_generic(&grid, &options(Mode::FirstSolution));
        check_outcome(&grid, Mode::ProveUnique, max_guesses, &g_unique);
        check_outcome(&grid, Mode::FirstSolution, max_guesses, &g_first);
        check_modes_agree(&grid, &g_unique, &g_first);
        for (fast, general) in [(&unique, &g_unique), (&first, &g_first)] {
            if fast.verdict != Verdict::LimitReached && general.verdict != Verdict::LimitReached {
                assert_eq!(
                    fast.verdict, general.verdict,
                    "fast and general paths disagree on {grid:?}: {fast:?} vs {general:?}"
                );
            }
            if fast.verdict == Verdict::Unique && general.verdict == Verdict::Unique {
                assert_eq!(
                    fast.solution, general.solution,
                    "two unique solutions of {grid:?}"
                );
            }
        }
    }

    if try_cancel {
        let flag = AtomicBool::new(true);
        for (mode, plain) in [(Mode::ProveUnique, &unique), (Mode::FirstSolution, &first)] {
            let cancelled = solver::solve(
                &grid,
                &Options {
                    mode,
                    max_guesses: Some(max_guesses),
                    cancel: Some(&flag),
                },
            );
            check_outcome(&grid, mode, max_guesses, &cancelled);
            // A raised flag stops the search at its first guess; a puzzle that needs none is decided.
            assert_eq!(cancelled.stats.guesses, 0, "{grid:?}: {cancelled:?}");
            if cancelled.verdict != Verdict::Cancelled {
                assert_eq!(
                    cancelled.verdict, plain.verdict,
                    "{grid:?}: cancelled {cancelled:?}, plain {plain:?}"
                );
            }
        }
    }
}

/// What must hold of any one outcome of `mode` on `puzzle`, whatever the budget (`Cancelled` only
/// appears when the caller raised the flag).
fn check_outcome(puzzle: &Grid, mode: Mode, max_guesses: u64, outcome: &Outcome) {
    let verdict = outcome.verdict;
    if let Some(solution) = &outcome.solution {
        assert!(
            solution.solves(puzzle),
            "{mode:?} gave {solution:?}, which does not solve {puzzle:?} ({outcome:?})"
        );
    }
    match verdict {
        Verdict::Unique | Verdict::Multiple | Verdict::Solved => assert!(
            outcome.solution.is_some(),
            "{mode:?}: {verdict:?} without a solution for {puzzle:?}"
        ),
        Verdict::Unsolvable => assert!(
            outcome.solution.is_none(),
            "{mode:?}: unsolvable yet a solution for {puzzle:?}: {outcome:?}"
        ),
        Verdict::LimitReached | Verdict::Cancelled => {}
    }
    match mode {
        Mode::ProveUnique => assert_ne!(verdict, Verdict::Solved, "{puzzle:?}"),
        Mode::FirstSolution => assert!(
            !matches!(verdict, Verdict::Unique | Verdict::Multiple),
            "{mode:?}: {verdict:?} for {puzzle:?}"
        ),
    }
    assert!(
        outcome.stats.guesses <= max_guesses,
        "{} guesses over a budget of {max_guesses} for {puzzle:?}",
        outcome.stats.guesses
    );
    if puzzle.check_givens().is_err() {
        assert_eq!(
            verdict,
            Verdict::Unsolvable,
            "{mode:?}: clashing givens in {puzzle:?} but {outcome:?}"
        );
    } else if puzzle.is_full() {
        let expected = match mode {
            Mode::ProveUnique => Verdict::Unique,
            Mode::FirstSolution => Verdict::Solved,
        };
        assert_eq!(verdict, expected, "full valid grid {puzzle:?}: {outcome:?}");
        assert_eq!(outcome.solution.as_ref(), Some(puzzle));
    }
}

/// The two modes' outcomes on one puzzle must tell the same story where both finished.
fn check_modes_agree(puzzle: &Grid, unique: &Outcome, first: &Outcome) {
    let finished = |o: &Outcome| !matches!(o.verdict, Verdict::LimitReached | Verdict::Cancelled);
    if finished(unique) && finished(first) {
        assert_eq!(
            unique.verdict == Verdict::Unsolvable,
            first.verdict == Verdict::Unsolvable,
            "modes disagree on {puzzle:?}: {unique:?} vs {first:?}"
        );
        if unique.verdict == Verdict::Unique {
            assert_eq!(
                unique.solution, first.solution,
                "the unique solution of {puzzle:?} differs from the first one found"
            );
        }
    }
    // A solution found by either search proves the puzzle solvable.
    if first.solution.is_some() {
        assert_ne!(
            unique.verdict,
            Verdict::Unsolvable,
            "{puzzle:?}: {unique:?} vs {first:?}"
        );
    }
    if unique.solution.is_some() {
        assert_ne!(
            first.verdict,
            Verdict::Unsolvable,
            "{puzzle:?}: {unique:?} vs {first:?}"
        );
    }
}

/// Canonicalize target: arbitrary bytes as the request's text (lossily decoded), as the service reads
/// it; text that does not read as a grid is taken one byte a cell (`byte % 10`, missing bytes blank),
/// so that every input also canonicalises some grid, clashes and all. Nothing may panic; the transform
/// must map the grid onto its key, read back from its own text and invert; the key must be its own
/// key and no larger than the grid; and an image of the grid under a transform drawn from the input
/// must have the same key.
pub fn check_canonicalize(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let grid = Grid::parse(&text).unwrap_or_else(|_| {
        let mut cells = vec![0u8; 81];
        for (cell, &byte) in cells.iter_mut().zip(data) {
            *cell = byte % 10;
        }
        Grid::from_cells(Shape::NINE, cells).expect("values 0-9")
    });
    let canonical = canonicalize(&grid).expect("a 9x9 grid has a key");
    let key = &canonical.grid;
    assert_eq!(canonical.transform.apply(&grid).as_ref(), Ok(key), "{grid}");
    assert_eq!(canonical.transform.inverse().apply(key).as_ref(), Ok(&grid));
    let text = canonical.transform.to_string();
    assert_eq!(text.parse::<Transform>(), Ok(canonical.transform));
    assert!(key.cells() <= grid.cells(), "{key} is larger than {grid}");
    assert_eq!(key.givens(), grid.givens());
    assert_eq!(key.check_givens().is_ok(), grid.check_givens().is_ok());
    assert_eq!(
        canonicalize(key).map(|c| c.grid).as_ref(),
        Ok(key),
        "{key} is not its own key"
    );
    let shuffle = transform_from(data);
    let image = shuffle.apply(&grid).expect("a 9x9 grid");
    assert_eq!(
        canonicalize(&image).map(|c| c.grid).as_ref(),
        Ok(key),
        "{shuffle} of {grid}"
    );
}

/// A group element drawn from the input's bytes (a hash of them seeds a small generator).
fn transform_from(data: &[u8]) -> Transform {
    let mut state = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    }) | 1;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let mut shuffle = |items: &mut [u8]| {
        for i in (1..items.len()).rev() {
            items.swap(i, next(i + 1));
        }
    };
    let mut block_perm = || {
        let mut outer = [0u8, 1, 2];
        shuffle(&mut outer);
        let mut perm = [0u8; 9];
        for (block, &source) in outer.iter().enumerate() {
            let mut inner = [0u8, 1, 2];
            shuffle(&mut inner);
            for (i, &within) in inner.iter().enumerate() {
                perm[3 * block + i] = 3 * source + within;
            }
        }
        perm
    };
    let (rows, cols) = (block_perm(), block_perm());
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    shuffle(&mut digits);
    let transpose = next(2) == 1;
    Transform::new(transpose, rows, cols, digits)
        .expect("block permutations and a digit permutation")
}

/// Grader target: byte 0 picks the shape (4x4, 6x6 both ways, 8x8, 9x9), byte 1 relabels the values
/// of a fixed solution, and the other bytes' bits say which cells are given (a cell with no byte is
/// given). A puzzle the solver finds unique is graded with a small effort budget, and every step is
/// checked against its solution: a placement is the solution's value in a blank cell, an elimination
/// removes a candidate that is there and is not the solution's, each step makes progress, and the
/// path ends in the solution. A hint for a board of some of the solution's values ends in a
/// placement of the solution's value, and a wrong entry comes back as a mistake.
pub fn check_grader(data: &[u8]) {
    use sudoku_core::candidates::Board;
    use sudoku_core::grader;
    use sudoku_core::hint::{self, Hint};

    let shapes = [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)];
    let Some(&first) = data.first() else { return };
    let (rows, cols) = shapes[usize::from(first) % shapes.len()];
    let Some(shape) = Shape::new(rows, cols) else {
        return;
    };
    let options = Options {
        mode: Mode::FirstSolution,
        ..Default::default()
    };
    let Some(base) = solver::solve(&Grid::empty(shape), &options).solution else {
        panic!("the empty {shape} grid has a solution");
    };
    let n = shape.side() as u8;
    let shift = data.get(1).copied().unwrap_or(0) % n;
    let values: Vec<u8> = base
        .cells()
        .iter()
        .map(|&v| (v - 1 + shift) % n + 1)
        .collect();
    let Some(solution) = Grid::from_cells(shape, values) else {
        return;
    };
    let given = |cell: usize| {
        data.get(2 + cell / 8)
            .is_none_or(|byte| byte & (1 << (cell % 8)) != 0)
    };
    let cells: Vec<u8> = (0..shape.cells())
        .map(|c| if given(c) { solution.cells()[c] } else { 0 })
        .collect();
    let Some(puzzle) = Grid::from_cells(shape, cells) else {
        return;
    };
    let limited = Options {
        max_guesses: Some(2_000),
        ..Default::default()
    };
    if solver::solve(&puzzle, &limited).verdict != Verdict::Unique {
        return;
    }
    let budget = grader::Options {
        explain: true,
        budget: 200_000,
        cancel: None,
    };
    let grade = grader::grade(&puzzle, &solution, &budget).expect("a unique puzzle is graded");
    let Some(mut board) = Board::new(&puzzle) else {
        panic!("{puzzle}: a unique puzzle has a board");
    };
    for step in &grade.steps {
        assert!(!step.placements.is_empty() || !step.eliminations.is_empty());
        for p in &step.placements {
            assert_eq!(p.value, solution.cells()[p.cell], "{puzzle}: {step:?}");
            assert_eq!(board.value(p.cell), 0, "{puzzle}: {step:?}");
        }
        for e in &step.eliminations {
            assert_ne!(e.value, solution.cells()[e.cell], "{puzzle}: {step:?}");
            assert!(board.has(e.cell, e.value), "{puzzle}: {step:?}");
        }
        board.apply(&step.placements, &step.eliminations);
    }
    assert_eq!(
        board.grid(),
        solution,
        "{puzzle}: the path ends in the solution"
    );

    // A board of the givens and every other blank filled in: its hint is sound.
    let mut progress = puzzle.cells().to_vec();
    for (cell, value) in progress.iter_mut().enumerate().step_by(2) {
        *value = solution.cells()[cell];
    }
    let Some(progress) = Grid::from_cells(shape, progress) else {
        return;
    };
    match hint::hint(&puzzle, &progress, &solution, &budget).expect("a hint") {
        Hint::Solved => assert!(progress.is_full()),
        Hint::Mistakes(m) => panic!("{puzzle}: no mistakes were made, got {m:?}"),
        Hint::Steps(steps) => {
            let last = steps.last().expect("a hint has steps");
            assert!(
                last.placements
                    .iter()
                    .all(|p| p.value == solution.cells()[p.cell])
            );
            assert!(
                steps
                    .iter()
                    .flat_map(|s| &s.eliminations)
                    .all(|e| e.value != solution.cells()[e.cell])
            );
        }
    }
    if let Some(blank) = puzzle.cells().iter().position(|&v| v == 0) {
        let mut wrong = puzzle.cells().to_vec();
        wrong[blank] = solution.cells()[blank] % n + 1;
        if let Some(wrong) = Grid::from_cells(shape, wrong) {
            let answer = hint::hint(&puzzle, &wrong, &solution, &budget).expect("a hint");
            assert!(matches!(answer, Hint::Mistakes(ref m) if m.len() == 1 && m[0].cell == blank));
        }
    }
}

/// f-puzzles target: arbitrary bytes, read as text (lossily), through [`fpuzzles::read`] as JSON,
/// base64 or link (a leading `{`, `load=`, or neither), and through the base64 and link paths
/// explicitly. It must never panic; a variant read must be one f-puzzles can express, and its JSON,
/// base64 and link must read back the same variant. Every variant read is then solved on a small
/// budget, which runs every rule's propagator on it: a solution found must keep every rule, and the
/// true candidates, when the budget suffices, must hold that solution's values.
///
/// [`fpuzzles::read`]: sudoku_core::fpuzzles::read
pub fn check_fpuzzles(data: &[u8]) {
    use sudoku_core::fpuzzles;

    let text = String::from_utf8_lossy(data);
    let trimmed = text.trim();
    for input in [
        text.to_string(),
        format!("https://www.f-puzzles.com/?load={trimmed}"),
    ] {
        let Ok(variant) = fpuzzles::read(&input) else {
            continue;
        };
        let json = fpuzzles::try_to_json(&variant)
            .unwrap_or_else(|e| panic!("read {variant:?}, which cannot be written: {e}"));
        assert_eq!(fpuzzles::to_json(&variant), json);
        for written in [
            json,
            fpuzzles::to_base64(&variant),
            fpuzzles::to_url(&variant),
        ] {
            assert_eq!(
                fpuzzles::read(&written).as_ref(),
                Ok(&variant),
                "{written} does not read back"
            );
        }
        check_variant_solve(&variant);
    }
}

/// Solves `variant` on a small budget in both modes and takes its true candidates: what the
/// solver says must hold of the variant's own check.
fn check_variant_solve(variant: &sudoku_core::variant::Variant) {
    use sudoku_core::solver::{Mode, Options, Verdict};
    use sudoku_core::variant;

    for mode in [Mode::ProveUnique, Mode::FirstSolution] {
        let options = Options {
            mode,
            max_guesses: Some(2_000),
            cancel: None,
        };
        let outcome = variant::solve(variant, &options);
        if let Some(solution) = &outcome.solution {
            assert!(variant.is_solved_by(solution), "{variant:?}: {solution:?}");
        }
        let candidates = variant::true_candidates(variant, &options);
        if let (Some(cells), Some(solution)) = (&candidates.cells, &outcome.solution) {
            for (cell, &value) in solution.iter().enumerate() {
                assert!(
                    cells[cell] & (1 << (value - 1)) != 0,
                    "{variant:?}: cell {cell}"
                );
            }
        }
        if candidates.verdict == Verdict::Unsolvable {
            assert!(outcome.solution.is_none(), "{variant:?}");
        }
    }
    check_variant_grade(variant);
}

/// Grades a unit variant (its rules all regions, diagonals, extra regions or disjoint groups) on its
/// layout when it is unique within a small budget: every step must keep the solution, and the path
/// must end in it. A variant with other rules must be refused, never graded.
fn check_variant_grade(variant: &sudoku_core::variant::Variant) {
    use sudoku_core::candidates::Board;
    use sudoku_core::grader::Options;

    let Ok(layout) = variant.layout() else {
        return;
    };
    let Ok(Ok(solution)) = layout.unique_solution(2_000, None) else {
        return;
    };
    let options = Options {
        budget: 2_000_000,
        ..Options::default()
    };
    let grade = layout
        .grade(&solution, &options)
        .unwrap_or_else(|e| panic!("{variant:?}: {e}"));
    let mut board = Board::on(layout.geometry.clone(), &layout.puzzle).expect("no clash");
    for step in &grade.steps {
        for p in &step.placements {
            assert_eq!(p.value, solution.cells()[p.cell], "{variant:?}: {step:?}");
        }
        for e in &step.eliminations {
            assert_ne!(e.value, solution.cells()[e.cell], "{variant:?}: {step:?}");
        }
        board.apply(&step.placements, &step.eliminations);
    }
    assert_eq!(board.grid(), solution, "{variant:?}");
}
