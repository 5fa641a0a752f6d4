//! The grader: solves a puzzle the way people do, always applying the easiest technique that makes
//! progress, and rates it by its hardest step on the Sudoku Explainer scale.
//!
//! ```
//! use sudoku_core::grader::{self, Difficulty, Options};
//! use sudoku_core::grid::Grid;
//! use sudoku_core::solver;
//!
//! let puzzle = Grid::parse_puzzle(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! let solution = solver::solve(&puzzle, &Default::default()).solution.expect("unique");
//! let grade = grader::grade(&puzzle, &solution, &Options::default())?;
//! assert_eq!(grade.difficulty, Difficulty::Beginner);
//! assert!(grade.rating <= 15);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::candidates::{Board, Geometry};
use crate::grid::Grid;
use crate::solver::{self, Mode, Verdict};
use crate::strategy::{
    Context, Step, Stopped, Technique, aligned_pair_exclusion, aligned_triple_exclusion, bug,
    chaining, fish, forcing_chain, full_house, guess, hidden_single, hidden_subset,
    locked_candidates, naked_single, naked_subset, unary_chain, unique_rectangle, xy_wing,
    xyz_wing,
};

/// The effort budget a grading gets by default: enough for SE's nested chains to reach their end
/// on nearly every puzzle of the forum's hardest list, and about a second of work on the hardest
/// known.
pub const DEFAULT_BUDGET: u64 = 1_200_000_000;

/// A grid larger than 9x9 gets one part in this many of the budget: its chains cost more time for
/// each unit of effort, so that the hardest of them too stop after a second or two.
pub const LARGE_GRID_SHARE: u64 = 4;

/// The nested forcing chains may spend one part in this many of a grading's budget: they cost
/// the most, and the puzzles beyond them try them at every step.
pub const NESTED_SHARE: u64 = 2;

/// How a grading runs.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// Write each step's explanation.
    pub explain: bool,
    /// Effort for the chain searches (see [`Context::budget`]) on a grid up to 9x9, a share of it
    /// on a larger one ([`LARGE_GRID_SHARE`]); past it the path goes on by guesses.
    pub budget: u64,
    /// Raised by the caller to stop.
    pub cancel: Option<&'a AtomicBool>,
}

impl<'a> Options<'a> {
    /// A fresh search context for a puzzle of side `n` whose unique solution is `solution`
    /// (row-major; empty where it is not known yet, which only a guess would need).
    pub(crate) fn context<'b>(&self, n: usize, solution: &'b [u8]) -> Context<'b>
    where
        'a: 'b,
    {
        let budget = if n > 9 {
            self.budget / LARGE_GRID_SHARE
        } else {
            self.budget
        };
        Context {
            explain: self.explain,
            solution,
            budget,
            nested_budget: budget / NESTED_SHARE,
            exhausted: false,
            cancel: self.cancel,
            ceiling: u16::MAX,
            triples: aligned_triple_exclusion::Memo::default(),
        }
    }
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            explain: false,
            budget: DEFAULT_BUDGET,
            cancel: None,
        }
    }
}

/// How hard a puzzle is for a person, from its rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Difficulty {
    /// Up to 1.5: hidden singles.
    Beginner,
    /// Up to 2.3: singles.
    Easy,
    /// Up to 2.8: locked candidates.
    Medium,
    /// Up to 4.4: subsets, basic fish, wings.
    Hard,
    /// Up to 6.9: unique rectangles, jellyfish, BUG+1, chains.
    Expert,
    /// Above 6.9, or needing a guess.
    Extreme,
}

impl Difficulty {
    /// Every level, easiest first.
    pub const ALL: [Difficulty; 6] = [
        Difficulty::Beginner,
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
        Difficulty::Extreme,
    ];

    /// The level of a rating in tenths: the easiest whose top it is under.
    pub fn of(rating: u16, guessed: bool) -> Difficulty {
        if guessed {
            return Difficulty::Extreme;
        }
        Difficulty::ALL
            .into_iter()
            .find(|level| level.max_rating().is_none_or(|top| rating <= top))
            .unwrap_or(Difficulty::Extreme)
    }

    /// The highest rating (tenths) of the level; `None` for EXTREME, which has no top.
    pub fn max_rating(self) -> Option<u16> {
        match self {
            Difficulty::Beginner => Some(15),
            Difficulty::Easy => Some(23),
            Difficulty::Medium => Some(28),
            Difficulty::Hard => Some(44),
            Difficulty::Expert => Some(69),
            Difficulty::Extreme => None,
        }
    }

    /// The level's name in capitals, as the CLI prints it.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Beginner => "BEGINNER",
            Difficulty::Easy => "EASY",
            Difficulty::Medium => "MEDIUM",
            Difficulty::Hard => "HARD",
            Difficulty::Expert => "EXPERT",
            Difficulty::Extreme => "EXTREME",
        }
    }
}

/// A puzzle's grade and the path it rests on.
#[derive(Clone, Debug)]
pub struct Grade {
    /// The level.
    pub difficulty: Difficulty,
    /// The hardest step's rating, in tenths.
    pub rating: u16,
    /// The hardest step's technique.
    pub hardest: Technique,
    /// Sudoku Explainer's pearl (EP), in tenths: the hardest step up to the first that places a
    /// value, how hard the puzzle is to start filling.
    pub pearl: u16,
    /// Sudoku Explainer's diamond (ED), in tenths: the first step's rating, how hard the puzzle
    /// is to start at all (the path takes the easiest step each time).
    pub diamond: u16,
    /// How often each technique was used, in order of difficulty.
    pub counts: Vec<(Technique, u32)>,
    /// The whole path.
    pub steps: Vec<Step>,
    /// The budget ran out and the path guessed where a harder technique might have applied: the
    /// rating is a lower bound.
    pub lower_bound: bool,
}

/// Why a puzzle could not be graded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GradeError {
    /// The caller cancelled.
    #[error("grading was cancelled")]
    Cancelled,
    /// The solution given does not solve the puzzle.
    #[error("the solution given does not solve the puzzle")]
    WrongSolution,
    /// The puzzle is rated above the ceiling [`grade_within`] was given.
    #[error("the puzzle is rated above {}.{}", .0 / 10, .0 % 10)]
    AboveCeiling(u16),
}

/// The unique solution of `puzzle`, which grading and hints start from, or the verdict that says
/// why it has none (`Multiple`, `Unsolvable`, `LimitReached` past `max_guesses`). A raised `cancel`
/// ends it with [`GradeError::Cancelled`].
pub fn unique_solution(
    puzzle: &Grid,
    max_guesses: u64,
    cancel: Option<&AtomicBool>,
) -> Result<Result<Grid, Verdict>, GradeError> {
    let outcome = solver::solve(puzzle, &proving_unique(max_guesses, cancel));
    unique_of(outcome.verdict, outcome.solution)
}

/// The solver's options for proving a puzzle unique within `max_guesses`, stopped by `cancel`.
pub(crate) fn proving_unique(max_guesses: u64, cancel: Option<&AtomicBool>) -> solver::Options<'_> {
    solver::Options {
        mode: Mode::ProveUnique,
        max_guesses: Some(max_guesses),
        cancel,
    }
}

/// What a solver's `verdict` and `solution` say for grading: the unique solution, or the verdict
/// that says why there is none; cancelled is [`GradeError::Cancelled`].
pub(crate) fn unique_of(
    verdict: Verdict,
    solution: Option<Grid>,
) -> Result<Result<Grid, Verdict>, GradeError> {
    match (verdict, solution) {
        (Verdict::Cancelled, _) => Err(GradeError::Cancelled),
        (Verdict::Unique, Some(solution)) => Ok(Ok(solution)),
        (Verdict::Unique, None) => Err(GradeError::WrongSolution),
        (verdict, _) => Ok(Err(verdict)),
    }
}

impl From<Stopped> for GradeError {
    fn from(stopped: Stopped) -> Self {
        match stopped {
            Stopped::Cancelled => GradeError::Cancelled,
            // Only a grading with a ceiling stops so; [`grade_within`] names it.
            Stopped::AboveCeiling => GradeError::AboveCeiling(u16::MAX),
        }
    }
}

/// The next step on `board`: the easiest technique that makes progress. `None` only on a solved
/// board (or one the solution does not fit). With a [`Context::ceiling`], a step that would be
/// rated above it stops the search instead, before the costly searches that could only find such
/// a step: the techniques run in order of their lowest rating, so the steps it does return are
/// exactly those the search without a ceiling returns.
pub fn next_step(board: &Board, ctx: &mut Context<'_>) -> Result<Option<Step>, Stopped> {
    let step = find_step(board, ctx)?;
    match step {
        Some(step) if step.rating > ctx.ceiling => Err(Stopped::AboveCeiling),
        step => Ok(step),
    }
}

/// Past the simple techniques: what each later stage rates at least, which a ceiling below it
/// rules out without the search.
fn rule_out(ctx: &Context<'_>, lowest: u16) -> Result<(), Stopped> {
    if ctx.ceiling < lowest {
        Err(Stopped::AboveCeiling)
    } else {
        Ok(())
    }
}

/// [`next_step`] without the last check against the ceiling.
fn find_step(board: &Board, ctx: &mut Context<'_>) -> Result<Option<Step>, Stopped> {
    ctx.check_cancel()?;
    // The singles and the direct techniques, up to 2.5.
    let singles: [fn(&Board, &Context<'_>) -> Option<Step>; 8] = [
        full_house::find,
        hidden_single::find_in_box,
        hidden_single::find_in_line,
        locked_candidates::find_direct_pointing,
        locked_candidates::find_direct_claiming,
        |b, c| hidden_subset::find(b, c, 2, true),
        naked_single::find,
        |b, c| hidden_subset::find(b, c, 3, true),
    ];
    // Then up to 4.4: the last techniques that assume nothing of the puzzle.
    let basic: [fn(&Board, &Context<'_>) -> Option<Step>; 10] = [
        locked_candidates::find_pointing,
        locked_candidates::find_claiming,
        |b, c| naked_subset::find(b, c, 2),
        |b, c| fish::find(b, c, 2),
        |b, c| hidden_subset::find(b, c, 2, false),
        |b, c| naked_subset::find(b, c, 3),
        |b, c| fish::find(b, c, 3),
        |b, c| hidden_subset::find(b, c, 3, false),
        xy_wing::find,
        xyz_wing::find,
    ];
    // From the unique rectangles on, 4.5 and up.
    let harder: [fn(&Board, &Context<'_>) -> Option<Step>; 6] = [
        unique_rectangle::find,
        |b, c| naked_subset::find(b, c, 4),
        |b, c| fish::find(b, c, 4),
        |b, c| hidden_subset::find(b, c, 4, false),
        bug::find,
        aligned_pair_exclusion::find,
    ];
    if board.is_solved() {
        return Ok(None);
    }
    for (finders, next) in [
        (&singles[..], SINGLES_CEILING + 1),
        (&basic[..], unique_rectangle::RATING),
    ] {
        if let Some(step) = finders.iter().find_map(|finder| finder(board, ctx)) {
            return Ok(Some(step));
        }
        rule_out(ctx, next)?;
    }
    if let Some(step) = harder.iter().find_map(|finder| finder(board, ctx)) {
        return Ok(Some(step));
    }
    ctx.check_cancel()?;
    // The chains as Sudoku Explainer's "Forcing Chains & Cycles": the easiest of the forcing X- and
    // XY-chains (6.5 and up); then the forcing chains.
    rule_out(ctx, 65)?;
    if let Some(step) = unary_chain::find(board, ctx) {
        return Ok(Some(step));
    }
    // Then SE's aligned triple exclusion, while the budget lasts: its work grows as the cube of
    // the open cells, and past the budget the path goes on by guesses.
    rule_out(ctx, aligned_triple_exclusion::RATING)?;
    if ctx.budget > 0
        && let Some(step) = aligned_triple_exclusion::find(board, ctx)
    {
        return Ok(Some(step));
    }
    // Then SE's Nishio, multiple, dynamic, dynamic (+), (+ forcing chains), (+ multiple forcing
    // chains) and (+ dynamic forcing chains, with three kinds nested in turn) forcing chains, each
    // kind only if the one before found nothing; then our own forcing chains (which reach
    // further), then a guess.
    for kind in [
        chaining::Kind::Nishio,
        chaining::Kind::Multiple,
        chaining::Kind::Dynamic,
        chaining::Kind::DynamicPlus,
        chaining::Kind::DynamicNested,
        chaining::Kind::DynamicMultiple,
        chaining::Kind::DynamicDynamic,
        chaining::Kind::DynamicDynamicPlus,
        chaining::Kind::DynamicDynamicNested,
    ] {
        ctx.check_cancel()?;
        rule_out(ctx, kind.base())?;
        if let Some(step) = chaining::find(board, ctx, kind) {
            return Ok(Some(step));
        }
    }
    rule_out(ctx, forcing_chain::LOWEST_RATING)?;
    if let Some(step) = forcing_chain::find(board, ctx)? {
        return Ok(Some(step));
    }
    rule_out(ctx, guess::RATING)?;
    Ok(guess::find(board, ctx))
}

/// Grades `puzzle` as [`grade`] does when its rating is at most `ceiling` (tenths), giving the
/// same grade; a puzzle rated above it ends early with [`GradeError::AboveCeiling`], without the
/// searches only a harder step needs. For callers that keep only puzzles up to a rating.
pub fn grade_within(
    puzzle: &Grid,
    solution: &Grid,
    options: &Options<'_>,
    ceiling: u16,
) -> Result<Grade, GradeError> {
    walk(
        &Geometry::of(puzzle.shape()),
        puzzle,
        solution,
        options,
        ceiling,
    )
}

/// Grades `puzzle`, whose unique solution is `solution`.
pub fn grade(puzzle: &Grid, solution: &Grid, options: &Options<'_>) -> Result<Grade, GradeError> {
    grade_on(&Geometry::of(puzzle.shape()), puzzle, solution, options)
}

/// The grade of `puzzle` (a line of text), which must be unique: for the techniques' unit tests.
#[cfg(test)]
pub(crate) fn grade_of(puzzle: &str, options: &Options<'_>) -> (Grid, Grade) {
    let grid: Grid = puzzle.parse().expect("a valid puzzle");
    let solution = unique_solution(&grid, u64::MAX, None)
        .expect("not cancelled")
        .expect("a unique puzzle");
    let grade = grade(&grid, &solution, options).expect("graded");
    (grid, grade)
}

/// Grades `puzzle` on the layout `geo` (a variant's regions and extra units, where every technique
/// applies to the extra units too), whose unique solution is `solution`.
pub fn grade_on(
    geo: &Arc<Geometry>,
    puzzle: &Grid,
    solution: &Grid,
    options: &Options<'_>,
) -> Result<Grade, GradeError> {
    walk(geo, puzzle, solution, options, u16::MAX)
}

/// Grades `puzzle` on `geo`, proving it unique on the way, or gives the verdict that says why it
/// has no unique solution. The singles and direct techniques (up to [`SINGLES_CEILING`]) assume
/// nothing of the puzzle, so a path of them that fills the grid validly proves it unique without a
/// search; otherwise `prove` (the solver) gives the unique solution or the verdict, and the path
/// goes on from where it stopped.
pub fn grade_proving(
    geo: &Arc<Geometry>,
    puzzle: &Grid,
    options: &Options<'_>,
    prove: impl FnOnce() -> Result<Result<Grid, Verdict>, GradeError>,
) -> Result<Result<Grade, Verdict>, GradeError> {
    let Some(mut path) = Path::start(geo, puzzle) else {
        // Clashing givens: the solver's verdict says so.
        return match prove()? {
            Ok(_) => Err(GradeError::WrongSolution),
            Err(verdict) => Ok(Err(verdict)),
        };
    };
    let mut ctx = options.context(geo.n(), &[]);
    ctx.ceiling = SINGLES_CEILING;
    match path.go(&mut ctx) {
        Err(Stopped::Cancelled) => return Err(GradeError::Cancelled),
        Ok(()) if path.board.is_solution() => return Ok(Ok(path.grade(false))),
        _ => {}
    }
    let solution = match prove()? {
        Ok(solution) => solution,
        Err(verdict) => return Ok(Err(verdict)),
    };
    go_on(path, &mut options.context(geo.n(), solution.cells())).map(Ok)
}

/// The highest rating (tenths) of the singles and the direct techniques: the walk
/// [`grade_proving`] takes before it proves uniqueness, as their searches cost little even on a
/// board with many solutions. (Every technique below the unique rectangles assumes nothing of the
/// puzzle, but on such a board the others cost more than the solver's proof.)
pub const SINGLES_CEILING: u16 = 25;

/// The path from `puzzle` to its `solution` on `geo`, step by step, and its grade; stopped once
/// a step must be rated above `ceiling`.
fn walk(
    geo: &Arc<Geometry>,
    puzzle: &Grid,
    solution: &Grid,
    options: &Options<'_>,
    ceiling: u16,
) -> Result<Grade, GradeError> {
    if !geo.solves(puzzle, solution) {
        return Err(GradeError::WrongSolution);
    }
    let path = Path::start(geo, puzzle).ok_or(GradeError::WrongSolution)?;
    let mut ctx = options.context(geo.n(), solution.cells());
    ctx.ceiling = ceiling;
    go_on(path, &mut ctx).map_err(|e| match e {
        GradeError::AboveCeiling(_) => GradeError::AboveCeiling(ceiling),
        e => e,
    })
}

/// Walks `path` on to the solved board and grades it.
fn go_on(mut path: Path, ctx: &mut Context<'_>) -> Result<Grade, GradeError> {
    path.go(ctx)?;
    if !path.board.is_solved() {
        return Err(GradeError::WrongSolution);
    }
    Ok(path.grade(ctx.exhausted))
}

/// A path under way: the board it has reached and the steps that led there. Grading walks it to
/// the end; a hint, to its next placement.
pub(crate) struct Path {
    board: Board,
    pub(crate) steps: Vec<Step>,
}

impl Path {
    /// The start of a path on `puzzle`'s board; `None` when two givens clash.
    pub(crate) fn start(geo: &Arc<Geometry>, puzzle: &Grid) -> Option<Path> {
        let board = Board::on(geo.clone(), puzzle)?;
        // Most steps place a value: about one step a blank cell.
        let steps = Vec::with_capacity(board.empty());
        Some(Path { board, steps })
    }

    /// Takes the easiest step and gives it; `None` once the board is solved or nothing applies
    /// (the board is then left where it is, for a later walk to go on from).
    pub(crate) fn step(&mut self, ctx: &mut Context<'_>) -> Result<Option<&Step>, Stopped> {
        let Some(step) = next_step(&self.board, ctx)? else {
            return Ok(None);
        };
        // A step that changes nothing would come again forever; only a broken board (a puzzle
        // without a solution, before it is proved unique) could give one.
        if !self.board.apply(&step.placements, &step.eliminations) {
            return Ok(None);
        }
        self.steps.push(step);
        Ok(self.steps.last())
    }

    /// Takes the easiest step each time, until [`Path::step`] gives none.
    fn go(&mut self, ctx: &mut Context<'_>) -> Result<(), Stopped> {
        while self.step(ctx)?.is_some() {}
        Ok(())
    }

    /// The grade of the path so far; `exhausted` says the budget ran out on the way.
    fn grade(self, exhausted: bool) -> Grade {
        summarize(self.steps, exhausted)
    }
}

/// The grade of a path.
fn summarize(steps: Vec<Step>, exhausted: bool) -> Grade {
    // A guess is named the hardest when another step rates the same.
    let hardest_step = steps
        .iter()
        .max_by_key(|s| (s.rating, s.technique == Technique::Guess));
    let rating = hardest_step.map_or(0, |s| s.rating);
    let hardest = hardest_step.map_or(Technique::FullHouse, |s| s.technique);
    let diamond = steps.first().map_or(0, |s| s.rating);
    let first_placement = steps
        .iter()
        .position(|s| !s.placements.is_empty())
        .map_or(steps.len(), |i| i + 1);
    let pearl = steps[..first_placement]
        .iter()
        .map(|s| s.rating)
        .max()
        .unwrap_or(0);
    let guessed = steps.iter().any(|s| s.technique == Technique::Guess);
    // Techniques are declared in the order of `ALL`.
    let mut tally = [0u32; Technique::ALL.len()];
    for step in &steps {
        tally[step.technique as usize] += 1;
    }
    let counts = Technique::ALL
        .into_iter()
        .zip(tally)
        .filter(|&(_, count)| count > 0)
        .collect();
    Grade {
        difficulty: Difficulty::of(rating, guessed),
        rating,
        hardest,
        pearl,
        diamond,
        counts,
        steps,
        lower_bound: guessed && exhausted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid past 9x9 gets its share of the budget, and its nested chains their share of that.
    #[test]
    fn a_grid_past_nine_by_nine_gets_a_share_of_the_budget() {
        let options = Options::default();
        let nine = options.context(9, &[]);
        assert_eq!(nine.budget, DEFAULT_BUDGET);
        assert_eq!(nine.nested_budget, DEFAULT_BUDGET / NESTED_SHARE);
        let sixteen = options.context(16, &[]);
        assert_eq!(sixteen.budget, DEFAULT_BUDGET / LARGE_GRID_SHARE);
        assert_eq!(
            sixteen.nested_budget,
            DEFAULT_BUDGET / LARGE_GRID_SHARE / NESTED_SHARE
        );
    }
}
