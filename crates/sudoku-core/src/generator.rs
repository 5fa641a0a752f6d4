//! The generator: fresh puzzles with exactly one solution, of any shape, with a chosen symmetry of the
//! clue pattern, minimal when asked, and reproducible from a seed.
//!
//! # How a puzzle is made
//!
//! 1. **A full grid.** The diagonal boxes (which share no row or column) get random permutations of the
//!    symbols, and the solver completes the grid; a start it cannot complete within a small guess
//!    budget is drawn again. The grid then gets a random relabelling of its symbols and a random
//!    validity-preserving transformation (bands, rows within a band, stacks, columns within a stack,
//!    and a transposition when the boxes are square), so the solver's own preferences leave no visible
//!    bias.
//! 2. **Digging.** The cells are grouped into orbits of the asked [`Symmetry`] and the orbits taken in
//!    random order. Each orbit is blanked and kept blank when the puzzle keeps exactly one solution.
//!    A removal that breaks uniqueness breaks it for good (fewer clues never mean fewer solutions), so
//!    one pass is enough: the result is minimal. With a symmetry the pass proves that of whole
//!    orbits only, so a puzzle that must be minimal is then checked clue by clue: when a single clue
//!    of an orbit that had to stay can go on its own, that orbit goes, orbits that kill the other
//!    solutions it opens come back, and the clue orbits are tried again, for a few rounds before
//!    the grid is drawn again. Minimal means the same with or without a symmetry: no clue can go.
//! 3. **Checking uniqueness cheaply.** The puzzle before a removal has one solution, the known full
//!    grid. Any other solution after the removal must differ from it in a removed cell, so the check
//!    only looks for a solution that puts another symbol there. First, a removal that leaves one of
//!    the full grid's cheaply found unavoidable sets (module `unavoidable`) without a clue has a
//!    second solution, the grid changed on that set: the clue stays, with no search. Then a removed
//!    cell whose other symbols the givens it sees rule out (a forced cell) needs no search. Else, on
//!    a 9x9 grid, one search from the givens kept as the fast solver's bitboards for a solution
//!    without the cell's symbol; on other shapes one first-solution search per remaining symbol,
//!    which a wrong symbol usually makes fail at once. Every removal kept is proved by the solver.
//!    Every search has a guess budget. One that runs out keeps its clue (always safe); a puzzle that
//!    must be minimal is then drawn again, as its minimality is not proved.
//! 4. **Acceptance.** The caller's `accept` function (a grader and a target difficulty, say) takes
//!    the puzzle or asks for another. Every full grid drawn is one attempt of a budget. A 9x9
//!    target from a high rating first drops, ungraded, the puzzles the solver needs few guesses
//!    for: most of them are rated lower, and grading one to its end to learn that costs far more.
//!
//! Every random choice comes from one [`Xoshiro256PlusPlus`] stream seeded by the request: its
//! algorithm is fixed, and so are the few helpers below that turn its output into choices, so a seed
//! means the same puzzle in every build and on every machine.

mod unavoidable;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::canonicalization::Transform;
use crate::grader::{self, Difficulty};
use crate::grid::{Grid, Shape};
use crate::solver::{self, Mode, Verdict};

/// The symmetry of a puzzle's clue pattern: a cell is a clue exactly when its images are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No symmetry.
    #[default]
    None,
    /// Half-turn rotation about the centre.
    Rotate180,
    /// Quarter-turn rotation about the centre (square boxes only).
    Rotate90,
    /// Left-right mirror.
    Mirror,
    /// Top-bottom flip.
    Flip,
    /// Reflection in the main diagonal (square boxes only).
    Diagonal,
    /// Reflection in the anti-diagonal (square boxes only).
    AntiDiagonal,
}

impl Symmetry {
    /// Every symmetry, in the order of the contract's enum.
    pub const ALL: [Symmetry; 7] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
    ];

    /// The name used on the command line and in messages: `none`, `rotate-180`, ...
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "rotate-180",
            Symmetry::Rotate90 => "rotate-90",
            Symmetry::Mirror => "mirror",
            Symmetry::Flip => "flip",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "anti-diagonal",
        }
    }

    /// Whether the symmetry swaps rows with columns, which only maps boxes onto boxes when they are
    /// square: on a 6x6 grid of 2x3 boxes a quarter turn makes them 3x2.
    pub fn needs_square_boxes(self) -> bool {
        matches!(
            self,
            Symmetry::Rotate90 | Symmetry::Diagonal | Symmetry::AntiDiagonal
        )
    }

    /// The cell (row, column) that `(row, col)` maps to on a grid of `side` cells a side.
    fn image(self, side: usize, (row, col): (usize, usize)) -> (usize, usize) {
        let last = side - 1;
        match self {
            Symmetry::None => (row, col),
            Symmetry::Rotate180 => (last - row, last - col),
            Symmetry::Rotate90 => (col, last - row),
            Symmetry::Mirror => (row, last - col),
            Symmetry::Flip => (last - row, col),
            Symmetry::Diagonal => (col, row),
            Symmetry::AntiDiagonal => (last - col, last - row),
        }
    }

    /// The orbits of the cells of `shape` (row-major indices): each cell with all its images, every
    /// cell in exactly one orbit.
    fn orbits(self, shape: Shape) -> Vec<Vec<usize>> {
        let side = shape.side();
        let mut seen = vec![false; shape.cells()];
        let mut orbits = Vec::new();
        for start in 0..shape.cells() {
            if seen[start] {
                continue;
            }
            let mut orbit = Vec::with_capacity(4);
            let mut cell = (start / side, start % side);
            loop {
                let index = cell.0 * side + cell.1;
                if seen[index] {
                    break;
                }
                seen[index] = true;
                orbit.push(index);
                cell = self.image(side, cell);
            }
            orbits.push(orbit);
        }
        orbits
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A symmetry name that is not one of [`Symmetry::name`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown symmetry {0:?}: expected none, rotate-180, rotate-90, mirror, flip, diagonal or anti-diagonal"
)]
pub struct UnknownSymmetry(pub String);

impl FromStr for Symmetry {
    type Err = UnknownSymmetry;

    fn from_str(text: &str) -> Result<Symmetry, UnknownSymmetry> {
        Symmetry::ALL
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or_else(|| UnknownSymmetry(text.to_owned()))
    }
}

/// Why no puzzle came.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The symmetry swaps rows and columns, and the shape's boxes are not square.
    #[error(
        "{symmetry} symmetry needs square boxes (4x4, 9x9, 16x16, 25x25), but a {shape} grid's are not square"
    )]
    SymmetryNeedsSquareBoxes {
        /// The symmetry asked for.
        symmetry: Symmetry,
        /// The shape it was asked for.
        shape: Shape,
    },
    /// Every attempt of the budget made a puzzle that was not minimal or that `accept` refused.
    #[error(
        "no puzzle met the request within the budget of {attempts} attempts (full grids drawn and dug)"
    )]
    BudgetExhausted {
        /// The budget: attempts made.
        attempts: u32,
    },
    /// Every attempt of the budget made a puzzle of another grade than the one asked for.
    #[error(
        "no {target} puzzle came within the budget of {attempts} attempts (full grids drawn, dug and \
         graded): the grade is rare for this shape and symmetry; try another, or without a symmetry"
    )]
    TargetNotReached {
        /// The grade asked for.
        target: Target,
        /// The budget: attempts made.
        attempts: u32,
    },
    /// The caller's cancellation flag was raised.
    #[error("generation was cancelled")]
    Cancelled,
}

/// What to generate: the shape, the symmetry of the clues, and whether the puzzle must be minimal
/// (no clue can be removed without losing uniqueness, symmetric or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    shape: Shape,
    symmetry: Symmetry,
    minimal: bool,
}

impl Spec {
    /// A request for puzzles of `shape` whose clues have `symmetry`, minimal when `minimal`; an error
    /// when the symmetry does not fit the shape.
    pub fn new(shape: Shape, symmetry: Symmetry, minimal: bool) -> Result<Spec, GenerateError> {
        if symmetry.needs_square_boxes() && shape.box_rows() != shape.box_cols() {
            return Err(GenerateError::SymmetryNeedsSquareBoxes { symmetry, shape });
        }
        Ok(Spec {
            shape,
            symmetry,
            minimal,
        })
    }

    /// The shape of the puzzles.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The symmetry of their clue patterns.
    pub fn symmetry(&self) -> Symmetry {
        self.symmetry
    }

    /// Whether they must be minimal.
    pub fn minimal(&self) -> bool {
        self.minimal
    }
}

/// The effort a puzzle may cost and the flag that stops it.
#[derive(Clone, Copy, Debug)]
pub struct Limits<'a> {
    /// Full grids drawn and dug before giving up with [`GenerateError::BudgetExhausted`].
    pub max_attempts: u32,
    /// Raised by the caller to stop with [`GenerateError::Cancelled`]; looked at between removals
    /// and inside every search.
    pub cancel: Option<&'a AtomicBool>,
}

impl Default for Limits<'_> {
    fn default() -> Self {
        Limits {
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            cancel: None,
        }
    }
}

/// Attempts a puzzle may take unless told otherwise: a symmetric minimal 9x9 takes a few (a
/// quarter turn a few dozen), a rare difficulty a few hundred.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 1_000;

/// Attempts a puzzle rated 9.0 or more may take ([`Target::max_attempts`]).
pub const RARE_MAX_ATTEMPTS: u32 = 20_000;

/// A generated puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated<R> {
    /// The puzzle: 0 for a blank.
    pub puzzle: Grid,
    /// Its one solution.
    pub solution: Grid,
    /// What `accept` said of it.
    pub rating: R,
    /// Attempts it took, from 1.
    pub attempts: u32,
}

/// A fresh seed, never 0, for a caller that asked for a random one: different at every call.
pub fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.finish().max(1)
}

/// The seed of the puzzle at `index` of a request seeded with `seed`: `seed` itself for the first, so
/// that a puzzle's seed asked for with a count of 1 gives that puzzle again; a mix of both for the
/// others. Never 0, which asks for a random seed.
pub fn puzzle_seed(seed: u64, index: u64) -> u64 {
    if index == 0 {
        return seed;
    }
    // SplitMix64's finaliser: consecutive indices give unrelated seeds.
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    z.max(1)
}

/// Generates one puzzle from `seed`: the same spec, seed and `accept` give the same puzzle.
///
/// `accept` sees each candidate puzzle and its solution, and returns what it makes of it (a rating)
/// to take it, or `None` to ask for another; `|_, _| Some(())` takes the first.
pub fn generate<R>(
    spec: &Spec,
    seed: u64,
    limits: &Limits<'_>,
    mut accept: impl FnMut(&Grid, &Grid) -> Option<R>,
) -> Result<Generated<R>, GenerateError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut digger = Digger::for_spec(spec);
    let made = (|| {
        for attempt in 1..=limits.max_attempts {
            let solution = full_grid(spec.shape, &mut rng, limits.cancel)?;
            let Some(puzzle) = digger.dig(&solution, &mut rng, limits.cancel)? else {
                continue;
            };
            if let Some(rating) = accept(&puzzle, &solution) {
                return Ok(Generated {
                    puzzle,
                    solution,
                    rating,
                    attempts: attempt,
                });
            }
        }
        Err(GenerateError::BudgetExhausted {
            attempts: limits.max_attempts,
        })
    })();
    digger.keep();
    made
}

/// A puzzle's level and rating (in tenths, on the Sudoku Explainer scale), as the grader gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rated {
    /// The level.
    pub difficulty: Difficulty,
    /// The hardest step's rating, in tenths.
    pub rating: u16,
}

/// The grade a generated puzzle must have: a level, a range of ratings, both, or neither.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Target {
    /// The level; any when `None`.
    pub level: Option<Difficulty>,
    /// The lowest rating accepted, in tenths; 0 for no bound.
    pub min_rating: u16,
    /// The highest rating accepted, in tenths; 0 for no bound.
    pub max_rating: u16,
}

impl Target {
    /// Whether a puzzle of grade `rated` meets the target.
    pub fn accepts(&self, rated: &Rated) -> bool {
        self.level.is_none_or(|level| level == rated.difficulty)
            && rated.rating >= self.min_rating
            && (self.max_rating == 0 || rated.rating <= self.max_rating)
    }

    /// The highest rating (tenths) the target accepts: its range's top or its level's, the lower;
    /// `u16::MAX` for none.
    pub fn ceiling(&self) -> u16 {
        let range = (self.max_rating != 0).then_some(self.max_rating);
        let level = self.level.and_then(Difficulty::max_rating);
        range.into_iter().chain(level).min().unwrap_or(u16::MAX)
    }

    /// The attempts a puzzle of this target may take: [`DEFAULT_MAX_ATTEMPTS`], but
    /// [`RARE_MAX_ATTEMPTS`] from a rating of 9.0, where a puzzle takes some 500 attempts on
    /// average and the default would end one request in seven; the caller's time budget, if it
    /// has one, is then the bound that counts.
    pub fn max_attempts(&self) -> u32 {
        if self.min_rating >= 90 {
            RARE_MAX_ATTEMPTS
        } else {
            DEFAULT_MAX_ATTEMPTS
        }
    }

    /// Whether every grade meets the target.
    pub fn is_any(&self) -> bool {
        *self == Target::default()
    }
}

impl From<Option<Difficulty>> for Target {
    fn from(level: Option<Difficulty>) -> Target {
        Target {
            level,
            ..Target::default()
        }
    }
}

impl fmt::Display for Target {
    /// "EXTREME", "rated 4.5 to 6.0", "HARD rated at least 4.5", "any".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = |t: u16| format!("{}.{}", t / 10, t % 10);
        let range = match (self.min_rating, self.max_rating) {
            (0, 0) => None,
            (low, 0) => Some(format!("rated at least {}", tenths(low))),
            (0, high) => Some(format!("rated at most {}", tenths(high))),
            (low, high) => Some(format!("rated {} to {}", tenths(low), tenths(high))),
        };
        match (self.level, range) {
            (None, None) => f.write_str("any"),
            (Some(level), None) => f.write_str(level.name()),
            (None, Some(range)) => f.write_str(&range),
            (Some(level), Some(range)) => write!(f, "{} {range}", level.name()),
        }
    }
}

/// Generates one puzzle from `seed`, graded by [`grader::grade`] with its default budget (so the
/// grade is exactly what Grade says of the puzzle; [`grader::grade_within`] gives that grade
/// for the puzzles it keeps), and meeting `target`: puzzles of another grade
/// are thrown away and count as attempts of the budget. A 9x9 target from a high rating first
/// throws away, ungraded, the puzzles the solver needs few guesses for. The same spec, seed and
/// target give the same puzzle.
pub fn generate_graded(
    spec: &Spec,
    seed: u64,
    target: Target,
    limits: &Limits<'_>,
) -> Result<Generated<Rated>, GenerateError> {
    let options = grader::Options {
        explain: false,
        budget: grader::DEFAULT_BUDGET,
        cancel: limits.cancel,
    };
    let made = generate(spec, seed, limits, |puzzle, solution| {
        if spec.shape() == Shape::NINE
            && target.min_rating >= SCREEN_FROM
            && !looks_hard(puzzle, limits.cancel)
        {
            return None;
        }
        // A cancelled grading takes nothing: the next attempt sees the flag and stops. A puzzle
        // rated above the target is dropped as soon as that is certain.
        let grade = grader::grade_within(puzzle, solution, &options, target.ceiling()).ok()?;
        let rated = Rated {
            difficulty: grade.difficulty,
            rating: grade.rating,
        };
        target.accepts(&rated).then_some(rated)
    });
    let cancelled = limits.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    match made {
        // The last attempt's grading may have been the one cancelled.
        Err(_) if cancelled => Err(GenerateError::Cancelled),
        Err(GenerateError::BudgetExhausted { attempts }) if !target.is_any() => {
            Err(GenerateError::TargetNotReached { target, attempts })
        }
        other => other,
    }
}

/// The lowest rating (tenths) from which a 9x9 target grades only the puzzles that
/// [`looks_hard`]: below it the puzzles that fall short of the target are cheap to grade.
const SCREEN_FROM: u16 = 75;

/// Guesses the solver must make on a 9x9 puzzle and its transpose together for [`looks_hard`].
const HARD_GUESSES: u64 = 8;

/// Whether the solver makes [`HARD_GUESSES`] on the 9x9 `puzzle` and its transpose together, as
/// many puzzles rated from [`SCREEN_FROM`] do and few rated lower: two searches, where proving a
/// puzzle too easy takes a chain search at every step. Guess counts are the same on every machine,
/// so a seed keeps its puzzle.
fn looks_hard(puzzle: &Grid, cancel: Option<&AtomicBool>) -> bool {
    let options = solver::Options {
        mode: Mode::ProveUnique,
        max_guesses: None,
        cancel,
    };
    let guesses = |grid: &Grid| solver::solve(grid, &options).stats.guesses;
    let transposed = Transform::TRANSPOSE
        .apply(puzzle)
        .map_or(0, |t| guesses(&t));
    guesses(puzzle) + transposed >= HARD_GUESSES
}

/// A uniform choice in `0..n` (`n > 0`): Lemire's multiply-and-reject, exact and fixed.
fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    let n = n as u64;
    let threshold = n.wrapping_neg() % n;
    loop {
        let product = u128::from(rng.next_u64()) * u128::from(n);
        if product as u64 >= threshold {
            return (product >> 64) as usize;
        }
    }
}

/// Shuffles `items` uniformly (Fisher-Yates).
fn shuffle<T>(rng: &mut Xoshiro256PlusPlus, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, below(rng, i + 1));
    }
}

/// A random permutation of `0..n`.
fn permutation(rng: &mut Xoshiro256PlusPlus, n: usize) -> Vec<usize> {
    let mut items: Vec<usize> = (0..n).collect();
    shuffle(rng, &mut items);
    items
}

/// Guesses the solver may make completing a start before the start is drawn again: completions
/// that stall are rare and a fresh start is cheaper than a long search.
const FILL_GUESSES: u64 = 2_000;

/// A random full grid of `shape`.
fn full_grid(
    shape: Shape,
    rng: &mut Xoshiro256PlusPlus,
    cancel: Option<&AtomicBool>,
) -> Result<Grid, GenerateError> {
    let (side, box_rows, box_cols) = (shape.side(), shape.box_rows(), shape.box_cols());
    let options = solver::Options {
        mode: Mode::FirstSolution,
        max_guesses: Some(FILL_GUESSES),
        cancel,
    };
    loop {
        let mut cells = vec![0u8; shape.cells()];
        // Box (b, b) holds rows b*box_rows.. and columns b*box_cols..: no two share a row or column.
        for b in 0..box_rows.min(box_cols) {
            for (k, symbol) in permutation(rng, side).into_iter().enumerate() {
                let (row, col) = (b * box_rows + k / box_cols, b * box_cols + k % box_cols);
                cells[row * side + col] = symbol as u8 + 1;
            }
        }
        let start = Grid::from_cells(shape, cells).unwrap_or_else(|| Grid::empty(shape));
        let outcome = solver::solve(&start, &options);
        match (outcome.verdict, outcome.solution) {
            (Verdict::Cancelled, _) => return Err(GenerateError::Cancelled),
            (Verdict::Solved, Some(full)) => return Ok(transform(&full, rng)),
            _ => continue,
        }
    }
}

/// `grid` under a random relabelling and a random validity-preserving rearrangement.
fn transform(grid: &Grid, rng: &mut Xoshiro256PlusPlus) -> Grid {
    let shape = grid.shape();
    let (side, box_rows, box_cols) = (shape.side(), shape.box_rows(), shape.box_cols());
    // Rows come in side / box_rows = box_cols bands of box_rows; columns in box_rows stacks.
    let lines = |rng: &mut Xoshiro256PlusPlus, groups: usize, size: usize| -> Vec<usize> {
        let order = permutation(rng, groups);
        order
            .into_iter()
            .flat_map(|group| {
                permutation(rng, size)
                    .into_iter()
                    .map(move |line| group * size + line)
            })
            .collect()
    };
    let rows = lines(rng, box_cols, box_rows);
    let cols = lines(rng, box_rows, box_cols);
    let transpose = box_rows == box_cols && below(rng, 2) == 1;
    let labels = permutation(rng, side);
    let old = grid.cells();
    let cells = (0..shape.cells())
        .map(|index| {
            let (row, col) = (index / side, index % side);
            let (row, col) = if transpose { (col, row) } else { (row, col) };
            let value = old[rows[row] * side + cols[col]];
            labels[usize::from(value) - 1] as u8 + 1
        })
        .collect();
    Grid::from_cells(shape, cells).unwrap_or_else(|| grid.clone())
}

/// Candidate symbols of a cell or a unit: bit `s - 1` for symbol `s`.
type Mask = u32;

/// The cells of one orbit of a symmetry (at most four: a quarter turn's), held inline so that a
/// digger's orbits take one allocation, not one each.
#[derive(Clone, Copy, Debug)]
struct Orbit {
    cells: [usize; 4],
    len: usize,
}

impl Orbit {
    fn new(cells: &[usize]) -> Orbit {
        let mut orbit = Orbit {
            cells: [0; 4],
            len: cells.len().min(4),
        };
        orbit.cells[..orbit.len].copy_from_slice(&cells[..orbit.len]);
        debug_assert_eq!(orbit.len, cells.len(), "an orbit has at most four cells");
        orbit
    }

    fn cells(&self) -> &[usize] {
        &self.cells[..self.len]
    }
}

std::thread_local! {
    /// The last digger this thread used, kept with its buffers for the next [`generate`] of the same
    /// spec (a digger takes a few dozen allocations to set up, about as long as a tenth of a 9x9
    /// puzzle). A nested or panicking `generate` finds it taken and makes its own.
    static DIGGER: std::cell::Cell<Option<Digger>> = const { std::cell::Cell::new(None) };
}

/// Blanks clues while the puzzle keeps one solution. Holds its buffers between attempts, and
/// between calls on one thread.
struct Digger {
    spec: Spec,
    /// The orbits of the symmetry in their first order: each [`generate`] starts from it, so that
    /// a kept digger gives what a new one would.
    first_orbits: Vec<Orbit>,
    /// The orbits of the symmetry, reshuffled in place by each attempt.
    orbits: Vec<Orbit>,
    /// The puzzle being dug: 0 for a blank.
    puzzle: Grid,
    /// For each row, column and box, the symbols its clues hold.
    rows: Vec<Mask>,
    cols: Vec<Mask>,
    boxes: Vec<Mask>,
    /// Where each cell's row, column and box are.
    units: Vec<(usize, usize, usize)>,
    /// Each cell's box.
    box_of: Vec<usize>,
    /// The cells of each row, then each column, then each box.
    /// (`side` cells a unit, flat: one allocation rather than one per unit.)
    unit_cells: Vec<usize>,
    /// Cells a side, which is also the number of symbols.
    side: usize,
    /// Every symbol.
    all: Mask,
    /// Set when a uniqueness check ran out of guesses (and its clue was kept): the puzzle is unique
    /// but not proved minimal.
    undecided: bool,
    /// For a 9x9 grid, the puzzle's givens as the fast solver's bitboards, edited with `puzzle`, so
    /// that each check is one search from them (see [`Digger::still_unique`]).
    nine: Option<solver::NineGivens>,
    /// The full grid's unavoidable sets found cheaply (one bit per cell; none above 128 cells;
    /// see `unavoidable`): a removal that leaves one without a clue breaks uniqueness, with no
    /// search.
    unavoidable: Vec<u128>,
    /// For each cell, the indexes in `unavoidable` of the sets holding it: those of cell `i` are
    /// `sets_of_cell[set_start[i]..set_start[i + 1]]`. Only they can lose their last clue when the
    /// cell is blanked.
    sets_of_cell: Vec<u16>,
    set_start: Vec<u16>,
    /// The clues of the puzzle being dug, one bit per cell (for grids of up to 128 cells).
    clue_bits: u128,
}

impl Digger {
    /// This thread's kept digger when it was made for `spec`, else a new one; its orbits in their
    /// first order either way.
    fn for_spec(spec: &Spec) -> Digger {
        let mut digger = match DIGGER.take() {
            Some(kept) if kept.spec == *spec => kept,
            _ => Digger::new(spec),
        };
        digger.orbits.copy_from_slice(&digger.first_orbits);
        digger
    }

    /// Keeps this digger for the thread's next [`generate`].
    fn keep(self) {
        DIGGER.set(Some(self));
    }

    fn new(spec: &Spec) -> Digger {
        let shape = spec.shape;
        let side = shape.side();
        let units = (0..shape.cells())
            .map(|index| {
                let cell = shape.cell(index);
                (cell.row, cell.col, shape.box_of(cell))
            })
            .collect::<Vec<_>>();
        let mut unit_cells = vec![0; 3 * side * side];
        let mut filled = vec![0; 3 * side];
        for (index, &(r, c, b)) in units.iter().enumerate() {
            for unit in [r, side + c, 2 * side + b] {
                unit_cells[unit * side + filled[unit]] = index;
                filled[unit] += 1;
            }
        }
        let orbits: Vec<Orbit> = spec
            .symmetry
            .orbits(shape)
            .iter()
            .map(|cells| Orbit::new(cells))
            .collect();
        Digger {
            spec: *spec,
            first_orbits: orbits.clone(),
            orbits,
            puzzle: Grid::empty(shape),
            rows: vec![0; side],
            cols: vec![0; side],
            boxes: vec![0; side],
            box_of: units.iter().map(|&(_, _, b)| b).collect(),
            units,
            unit_cells,
            side,
            all: (1 << side) - 1,
            undecided: false,
            nine: None,
            unavoidable: Vec::new(),
            sets_of_cell: Vec::new(),
            set_start: vec![0; shape.cells() + 1],
            clue_bits: 0,
        }
    }

    fn cancelled(cancel: Option<&AtomicBool>) -> bool {
        cancel.is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Sets (`on`) or clears the clue at `index` in its units' masks; its symbol stays in `cells` as
    /// the caller leaves it.
    fn mark(&mut self, index: usize, symbol: u8, on: bool) {
        let bit = 1 << (symbol - 1);
        let (r, c, b) = self.units[index];
        if on {
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
        } else {
            self.rows[r] &= !bit;
            self.cols[c] &= !bit;
            self.boxes[b] &= !bit;
        }
    }

    /// Digs `solution` into a puzzle; `None` when it must be minimal and is not.
    fn dig(
        &mut self,
        solution: &Grid,
        rng: &mut Xoshiro256PlusPlus,
        cancel: Option<&AtomicBool>,
    ) -> Result<Option<Grid>, GenerateError> {
        let full = solution.cells();
        self.puzzle = solution.clone();
        self.rows.fill(0);
        self.cols.fill(0);
        self.boxes.fill(0);
        for (index, &symbol) in full.iter().enumerate() {
            self.mark(index, symbol, true);
        }
        self.undecided = false;
        self.nine = (self.spec.shape == Shape::NINE).then(|| solver::NineGivens::from_cells(full));
        unavoidable::unavoidable_sets(self.spec.shape, full, &self.box_of, &mut self.unavoidable);
        self.index_sets();
        self.clue_bits = u128::MAX;
        let mut orbits = std::mem::take(&mut self.orbits);
        shuffle(rng, &mut orbits);
        let result = self.dig_orbits(&orbits, full, cancel).and_then(|()| {
            if self.spec.minimal && !self.undecided && self.spec.symmetry != Symmetry::None {
                self.make_every_clue_needed(&orbits, full, rng, cancel)
            } else {
                Ok(true)
            }
        });
        self.orbits = orbits;
        let minimal = result?;
        if self.spec.minimal && (self.undecided || !minimal) {
            return Ok(None);
        }
        Ok(Some(self.puzzle.clone()))
    }

    /// One pass over `orbits`, blanking each that keeps the puzzle unique.
    fn dig_orbits(
        &mut self,
        orbits: &[Orbit],
        full: &[u8],
        cancel: Option<&AtomicBool>,
    ) -> Result<(), GenerateError> {
        for orbit in orbits {
            let orbit = orbit.cells();
            if Digger::cancelled(cancel) {
                return Err(GenerateError::Cancelled);
            }
            for &index in orbit {
                self.blank(index, full[index]);
            }
            if !self.still_unique(orbit, full, cancel)? {
                for &index in orbit {
                    self.restore(index, full[index]);
                }
            }
        }
        Ok(())
    }

    /// Makes the symmetric puzzle that the orbit pass left minimal clue by clue, or says it could
    /// not. The pass proved whole orbits needed, but a clue whose orbit had to stay may still be
    /// unneeded on its own. Each round takes such an orbit out, puts back orbits that kill the
    /// other solutions this opens (one cell where another solution differs from the full grid, and
    /// that cell's orbit), then tries every clue orbit again; a few rounds usually settle it.
    fn make_every_clue_needed(
        &mut self,
        orbits: &[Orbit],
        full: &[u8],
        rng: &mut Xoshiro256PlusPlus,
        cancel: Option<&AtomicBool>,
    ) -> Result<bool, GenerateError> {
        let mut orbit_of = vec![0; full.len()];
        for (number, orbit) in orbits.iter().enumerate() {
            for &index in orbit.cells() {
                orbit_of[index] = number;
            }
        }
        for _ in 0..MINIMAL_REPAIR_ROUNDS {
            let Some(unneeded) = self.orbit_with_an_unneeded_clue(orbits, full, cancel)? else {
                return Ok(!self.undecided);
            };
            let out = orbits[unneeded].cells();
            for &index in out {
                self.blank(index, full[index]);
            }
            while let Some(other) = self.other_solution(out, full, cancel)? {
                let differing: Vec<usize> = (0..full.len())
                    .filter(|&i| other.cells()[i] != full[i] && !out.contains(&i))
                    .collect();
                if differing.is_empty() {
                    return Ok(false);
                }
                let back = orbits[orbit_of[differing[below(rng, differing.len())]]];
                for &index in back.cells() {
                    self.restore(index, full[index]);
                }
            }
            if self.undecided {
                return Ok(false);
            }
            let mut clue_orbits: Vec<Orbit> = orbits
                .iter()
                .filter(|orbit| self.puzzle.cells()[orbit.cells()[0]] != 0)
                .copied()
                .collect();
            shuffle(rng, &mut clue_orbits);
            self.dig_orbits(&clue_orbits, full, cancel)?;
        }
        Ok(false)
    }

    /// The first orbit of several cells with a clue that can go on its own, keeping uniqueness.
    fn orbit_with_an_unneeded_clue(
        &mut self,
        orbits: &[Orbit],
        full: &[u8],
        cancel: Option<&AtomicBool>,
    ) -> Result<Option<usize>, GenerateError> {
        for (number, orbit) in orbits.iter().enumerate().filter(|(_, o)| o.len > 1) {
            for &index in orbit.cells() {
                if self.puzzle.cells()[index] == 0 {
                    continue;
                }
                self.blank(index, full[index]);
                let unneeded = self.still_unique(&[index], full, cancel)?;
                self.restore(index, full[index]);
                if unneeded {
                    return Ok(Some(number));
                }
            }
        }
        Ok(None)
    }

    /// A solution other than `full` of the puzzle just blanked at `removed` (which had `full` as
    /// its only one, so another differs in a removed cell), or `None` when there is none or a
    /// search ran out of its budget (the puzzle is then undecided).
    fn other_solution(
        &mut self,
        removed: &[usize],
        full: &[u8],
        cancel: Option<&AtomicBool>,
    ) -> Result<Option<Grid>, GenerateError> {
        let options = self.check_options(cancel);
        for &index in removed {
            let mut others = self.open(index) & !(1 << (full[index] - 1));
            while others != 0 {
                let symbol = others.trailing_zeros() as u8 + 1;
                others &= others - 1;
                self.puzzle.set_index(index, symbol);
                let outcome = solver::solve(&self.puzzle, &options);
                self.puzzle.set_index(index, 0);
                match outcome.verdict {
                    Verdict::Unsolvable => {}
                    Verdict::Cancelled => return Err(GenerateError::Cancelled),
                    Verdict::LimitReached => {
                        self.undecided = true;
                        return Ok(None);
                    }
                    _ => return Ok(outcome.solution),
                }
            }
        }
        Ok(None)
    }

    /// Blanks the clue `symbol` at `index`, in the puzzle and in every structure kept beside it.
    fn blank(&mut self, index: usize, symbol: u8) {
        self.puzzle.set_index(index, 0);
        self.mark(index, symbol, false);
        if let Some(nine) = &mut self.nine {
            nine.clear(index, symbol);
        }
        self.clue_bits &= !(1u128 << (index % 128));
    }

    /// Puts back the clue [`Digger::blank`] took.
    fn restore(&mut self, index: usize, symbol: u8) {
        self.puzzle.set_index(index, symbol);
        self.mark(index, symbol, true);
        if let Some(nine) = &mut self.nine {
            nine.set(index, symbol);
        }
        self.clue_bits |= 1u128 << (index % 128);
    }

    /// Fills `sets_of_cell` and `set_start` for the sets in `unavoidable`.
    fn index_sets(&mut self) {
        self.set_start.fill(0);
        self.sets_of_cell.clear();
        if self.unavoidable.len() > usize::from(u16::MAX) {
            self.unavoidable.clear();
        }
        // Count each cell's sets (shifted by one), sum them up into starts, then place.
        for &set in &self.unavoidable {
            let mut bits = set;
            while bits != 0 {
                self.set_start[bits.trailing_zeros() as usize + 1] += 1;
                bits &= bits - 1;
            }
        }
        for i in 1..self.set_start.len() {
            self.set_start[i] += self.set_start[i - 1];
        }
        let total = usize::from(self.set_start[self.set_start.len() - 1]);
        self.sets_of_cell.resize(total, 0);
        let mut next = self.set_start.clone();
        for (id, &set) in self.unavoidable.iter().enumerate() {
            let mut bits = set;
            while bits != 0 {
                let cell = bits.trailing_zeros() as usize;
                self.sets_of_cell[usize::from(next[cell])] = id as u16;
                next[cell] += 1;
                bits &= bits - 1;
            }
        }
    }

    /// Whether blanking `removed` left one of the unavoidable sets without a clue.
    fn emptied_a_set(&self, removed: &[usize]) -> bool {
        removed.iter().any(|&index| {
            let (from, to) = (self.set_start[index], self.set_start[index + 1]);
            self.sets_of_cell[usize::from(from)..usize::from(to)]
                .iter()
                .any(|&id| self.unavoidable[usize::from(id)] & self.clue_bits == 0)
        })
    }

    /// The symbols the clues leave open at `index`.
    fn open(&self, index: usize) -> Mask {
        let (r, c, b) = self.units[index];
        self.all & !(self.rows[r] | self.cols[c] | self.boxes[b])
    }

    /// Whether the clues alone force `symbol` at the blank `index`: it is the cell's only open
    /// symbol (a naked single), or no other blank of one of its units may take it (a hidden single).
    fn forced(&self, index: usize, symbol: u8) -> bool {
        let bit = 1 << (symbol - 1);
        if self.open(index) == bit {
            return true;
        }
        let (r, c, b) = self.units[index];
        [r, self.side + c, 2 * self.side + b]
            .into_iter()
            .any(|unit| {
                let cells = &self.unit_cells[unit * self.side..(unit + 1) * self.side];
                cells.iter().all(|&other| {
                    other == index || self.puzzle.cells()[other] != 0 || self.open(other) & bit == 0
                })
            })
    }

    /// Whether the puzzle in `cells`, just blanked at `removed`, still has `full` as its only
    /// solution. It had before, so another solution would differ from `full` in a removed cell: when
    /// the clues force every removed cell there is none, and otherwise the search is only for one
    /// that puts another symbol in a removed cell.
    ///
    /// On a 9x9 grid that is one search per removed cell the clues do not force, for a solution
    /// without its symbol there, started from the kept bitboard givens. Other shapes search once per
    /// other symbol the cell could take. Both ask the same question, so they keep the same clues.
    fn still_unique(
        &mut self,
        removed: &[usize],
        full: &[u8],
        cancel: Option<&AtomicBool>,
    ) -> Result<bool, GenerateError> {
        // An unavoidable set left without a clue: `full` changed on it as the set allows is a
        // second solution.
        if self.emptied_a_set(removed) {
            return Ok(false);
        }
        if self.nine.is_some() {
            for &index in removed {
                if !self.forced(index, full[index])
                    && self.solvable_without(index, full[index], cancel)?
                {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        if removed.iter().all(|&index| self.forced(index, full[index])) {
            return Ok(true);
        }
        for &index in removed {
            let mut others = self.open(index) & !(1 << (full[index] - 1));
            while others != 0 {
                let symbol = others.trailing_zeros() as u8 + 1;
                others &= others - 1;
                if self.solvable_with(index, symbol, cancel)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Whether the puzzle has a solution with `symbol` at the blank `index`; the puzzle is edited
    /// in place for the search and left as it was. A search that runs out of its budget counts as
    /// a solution: the caller then keeps the clue, which is always safe.
    fn solvable_with(
        &mut self,
        index: usize,
        symbol: u8,
        cancel: Option<&AtomicBool>,
    ) -> Result<bool, GenerateError> {
        let options = self.check_options(cancel);
        self.puzzle.set_index(index, symbol);
        let verdict = solver::solve(&self.puzzle, &options).verdict;
        self.puzzle.set_index(index, 0);
        self.found(verdict)
    }

    /// Whether the 9x9 puzzle (its kept bitboard givens) has a solution without `symbol` at the
    /// blank `index`, as [`Digger::solvable_with`] answers for one symbol.
    fn solvable_without(
        &mut self,
        index: usize,
        symbol: u8,
        cancel: Option<&AtomicBool>,
    ) -> Result<bool, GenerateError> {
        let options = self.check_options(cancel);
        let Some(nine) = &self.nine else {
            return Ok(true);
        };
        let verdict = solver::solve_nine_excluding(nine, Some((index, symbol)), &options);
        self.found(verdict)
    }

    /// A uniqueness check's search: first solution, within its guess budget.
    fn check_options<'a>(&self, cancel: Option<&'a AtomicBool>) -> solver::Options<'a> {
        solver::Options {
            mode: Mode::FirstSolution,
            max_guesses: Some(if self.spec.minimal {
                MINIMAL_CHECK_GUESSES
            } else {
                CHECK_GUESSES
            }),
            cancel,
        }
    }

    /// Whether a check's search `verdict` means a solution (an exhausted budget counts as one and
    /// marks the puzzle undecided); cancellation is an error.
    fn found(&mut self, verdict: Verdict) -> Result<bool, GenerateError> {
        match verdict {
            Verdict::Unsolvable => Ok(false),
            Verdict::Cancelled => Err(GenerateError::Cancelled),
            Verdict::LimitReached => {
                self.undecided = true;
                Ok(true)
            }
            _ => Ok(true),
        }
    }
}

/// Rounds of repair a symmetric puzzle gets to have every clue needed before the attempt is given
/// up and another grid drawn.
const MINIMAL_REPAIR_ROUNDS: usize = 32;

/// Guesses a uniqueness check may make when the puzzle need not be minimal: a check that needs more
/// keeps its clue, which is always safe and bounds the time a large grid takes.
const CHECK_GUESSES: u64 = 200;

/// Guesses a uniqueness check may make when the puzzle must be minimal: a check that needs more
/// leaves the puzzle unproved minimal, and the attempt is spent. Far above what a 9x9 check takes.
const MINIMAL_CHECK_GUESSES: u64 = 20_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_cover_every_cell_once() {
        for (box_rows, box_cols) in [(2, 2), (3, 3), (2, 3), (4, 4)] {
            let shape = Shape::new(box_rows, box_cols).unwrap();
            for symmetry in Symmetry::ALL {
                let mut cells: Vec<usize> = symmetry.orbits(shape).concat();
                cells.sort_unstable();
                assert_eq!(cells, (0..shape.cells()).collect::<Vec<_>>(), "{symmetry}");
            }
        }
    }

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[below(&mut rng, 7)] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn symmetry_names_read_back() {
        for symmetry in Symmetry::ALL {
            assert_eq!(symmetry.name().parse::<Symmetry>(), Ok(symmetry));
        }
        assert!("spiral".parse::<Symmetry>().is_err());
    }

    #[test]
    fn puzzle_seeds_are_never_zero_and_the_first_is_the_request_seed() {
        assert_eq!(puzzle_seed(42, 0), 42);
        assert_ne!(puzzle_seed(42, 1), puzzle_seed(42, 2));
        assert!((1..1000).all(|i| puzzle_seed(0, i) != 0));
    }
}
