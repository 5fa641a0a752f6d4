//! Every conversion between `sudoku.v1` messages and the core's types, once. Request fields become
//! the core's own types through the core's own validation, so every RPC reads a shape, an alphabet
//! or a puzzle by the same rules and with the same messages; answers are written back in the
//! request's shape and alphabet. The variant half (f-puzzles text and typed rules) is in
//! `wire/variant.rs`.

use sudoku_core::candidates::Candidate;
use sudoku_core::generator::{Generated, Rated, Symmetry, Target};
use sudoku_core::grader::Difficulty;
use sudoku_core::grid::{Grid, Shape};
use sudoku_core::solver::Verdict;
use sudoku_core::strategy::{Step, Technique};
use sudoku_core::symbols::Symbols;
use sudoku_core::text::{Format, Notation, ParseError, PuzzleError, Read};

use crate::proto;

mod logic;
mod variant;

pub use logic::{LogicRead, logic_input};
pub use variant::{
    Alphabet, Input, InputError, SolveInput, VariantInputError, VariantRead, box_regions,
    classic_variant, fpuzzles_variant, typed_variant,
};

/// A request field that does not hold what the contract allows: `field` names it, for
/// `google.rpc.BadRequest`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct BadField {
    /// The field at fault.
    pub field: &'static str,
    /// What is wrong with it, and what it may hold.
    pub message: String,
}

/// Reads a request's puzzle in the shape and alphabet it states: the one way every RPC turns puzzle
/// fields into a grid.
pub fn read_puzzle(
    puzzle: &str,
    box_rows: u32,
    box_cols: u32,
    symbols: &str,
) -> Result<Read, PuzzleError> {
    Grid::read_puzzle(puzzle, &Format::new(box_rows, box_cols, symbols)?)
}

/// [`read_puzzle`] without the check that no two givens clash ([`Read::check_givens`]).
pub fn read_grid(
    puzzle: &str,
    box_rows: u32,
    box_cols: u32,
    symbols: &str,
) -> Result<Read, ParseError> {
    Grid::read(puzzle, &Format::new(box_rows, box_cols, symbols)?)
}

/// A request that carries a puzzle with its shape and alphabet: Solve's, SolveBatch's items, Grade's
/// and Hint's, read by [`PuzzleRequest::read`] alike.
pub trait PuzzleRequest {
    /// The `puzzle`, `box_rows`, `box_cols` and `symbols` fields.
    fn fields(&self) -> (&str, u32, u32, &str);

    /// The request's puzzle, read by [`read_puzzle`].
    fn read(&self) -> Result<Read, PuzzleError> {
        let (puzzle, box_rows, box_cols, symbols) = self.fields();
        read_puzzle(puzzle, box_rows, box_cols, symbols)
    }
}

macro_rules! puzzle_request {
    ($($message:ty),*) => {$(
        impl PuzzleRequest for $message {
            fn fields(&self) -> (&str, u32, u32, &str) {
                (&self.puzzle, self.box_rows, self.box_cols, &self.symbols)
            }
        }
    )*};
}

puzzle_request!(
    proto::SolveRequest,
    proto::SolveBatchRequest,
    proto::GradeRequest,
    proto::HintRequest
);

/// The request field a puzzle's error is about.
pub fn faulty_field(err: &PuzzleError) -> &'static str {
    match err {
        PuzzleError::Parse(err) => parse_field(err),
        PuzzleError::Conflict(_) => "puzzle",
    }
}

/// The request field a reading error is about: the shape's, the alphabet's, or the puzzle's.
fn parse_field(err: &ParseError) -> &'static str {
    match err {
        ParseError::UnsupportedShape { .. } => "box_rows",
        ParseError::Symbols(_) | ParseError::SymbolsDoNotFit { .. } => "symbols",
        _ => "puzzle",
    }
}

/// The shape and alphabet of a request that makes grids rather than reads them (Generate): both box
/// sizes 0 mean 9x9; otherwise as Solve's [`Format`] reads them, with the same messages.
pub fn shape_and_symbols(
    box_rows: u32,
    box_cols: u32,
    symbols: &str,
) -> Result<(Shape, Symbols), BadField> {
    let (box_rows, box_cols) = match (box_rows, box_cols) {
        (0, 0) => (3, 3),
        given => given,
    };
    let format = Format::new(box_rows, box_cols, symbols).map_err(|e| BadField {
        field: parse_field(&e),
        message: e.to_string(),
    })?;
    let shape = format.shape.unwrap_or(Shape::NINE);
    Ok((shape, format.symbols.unwrap_or(Symbols::of(shape))))
}

/// The core's symmetry for the wire's number.
pub fn symmetry(number: i32) -> Result<Symmetry, BadField> {
    Ok(match proto::Symmetry::try_from(number) {
        Ok(proto::Symmetry::Unspecified) => Symmetry::None,
        Ok(proto::Symmetry::Rotate180) => Symmetry::Rotate180,
        Ok(proto::Symmetry::Rotate90) => Symmetry::Rotate90,
        Ok(proto::Symmetry::Mirror) => Symmetry::Mirror,
        Ok(proto::Symmetry::Flip) => Symmetry::Flip,
        Ok(proto::Symmetry::Diagonal) => Symmetry::Diagonal,
        Ok(proto::Symmetry::AntiDiagonal) => Symmetry::AntiDiagonal,
        Err(_) => {
            return Err(BadField {
                field: "symmetry",
                message: format!("unknown symmetry {number}"),
            });
        }
    })
}

/// The core's level for the wire's number; `None` for any level.
pub fn difficulty(number: i32) -> Result<Option<Difficulty>, BadField> {
    Ok(match proto::Difficulty::try_from(number) {
        Ok(proto::Difficulty::Unspecified) => None,
        Ok(proto::Difficulty::Beginner) => Some(Difficulty::Beginner),
        Ok(proto::Difficulty::Easy) => Some(Difficulty::Easy),
        Ok(proto::Difficulty::Medium) => Some(Difficulty::Medium),
        Ok(proto::Difficulty::Hard) => Some(Difficulty::Hard),
        Ok(proto::Difficulty::Expert) => Some(Difficulty::Expert),
        Ok(proto::Difficulty::Extreme) => Some(Difficulty::Extreme),
        Err(_) => {
            return Err(BadField {
                field: "difficulty",
                message: format!("unknown difficulty {number}"),
            });
        }
    })
}

impl From<Verdict> for proto::Verdict {
    fn from(verdict: Verdict) -> proto::Verdict {
        match verdict {
            Verdict::Unique => proto::Verdict::Unique,
            Verdict::Multiple => proto::Verdict::Multiple,
            Verdict::Unsolvable => proto::Verdict::Unsolvable,
            Verdict::Solved => proto::Verdict::Solved,
            Verdict::LimitReached => proto::Verdict::LimitReached,
            // Only a request that has gone away is cancelled, and nobody is left to read its answer.
            Verdict::Cancelled => proto::Verdict::Unspecified,
        }
    }
}

impl From<Difficulty> for proto::Difficulty {
    fn from(difficulty: Difficulty) -> proto::Difficulty {
        match difficulty {
            Difficulty::Beginner => proto::Difficulty::Beginner,
            Difficulty::Easy => proto::Difficulty::Easy,
            Difficulty::Medium => proto::Difficulty::Medium,
            Difficulty::Hard => proto::Difficulty::Hard,
            Difficulty::Expert => proto::Difficulty::Expert,
            Difficulty::Extreme => proto::Difficulty::Extreme,
        }
    }
}

impl From<Symmetry> for proto::Symmetry {
    fn from(symmetry: Symmetry) -> proto::Symmetry {
        match symmetry {
            Symmetry::None => proto::Symmetry::Unspecified,
            Symmetry::Rotate180 => proto::Symmetry::Rotate180,
            Symmetry::Rotate90 => proto::Symmetry::Rotate90,
            Symmetry::Mirror => proto::Symmetry::Mirror,
            Symmetry::Flip => proto::Symmetry::Flip,
            Symmetry::Diagonal => proto::Symmetry::Diagonal,
            Symmetry::AntiDiagonal => proto::Symmetry::AntiDiagonal,
        }
    }
}

impl From<Technique> for proto::Technique {
    fn from(technique: Technique) -> proto::Technique {
        use proto::Technique as P;
        match technique {
            Technique::FullHouse => P::FullHouse,
            Technique::HiddenSingle => P::HiddenSingle,
            Technique::DirectPointing => P::DirectPointing,
            Technique::DirectClaiming => P::DirectClaiming,
            Technique::DirectHiddenPair => P::DirectHiddenPair,
            Technique::NakedSingle => P::NakedSingle,
            Technique::DirectHiddenTriple => P::DirectHiddenTriple,
            Technique::Pointing => P::Pointing,
            Technique::Claiming => P::Claiming,
            Technique::NakedPair => P::NakedPair,
            Technique::XWing => P::XWing,
            Technique::HiddenPair => P::HiddenPair,
            Technique::NakedTriple => P::NakedTriple,
            Technique::Swordfish => P::Swordfish,
            Technique::HiddenTriple => P::HiddenTriple,
            Technique::XyWing => P::XyWing,
            Technique::XyzWing => P::XyzWing,
            Technique::UniqueRectangle => P::UniqueRectangle,
            Technique::NakedQuad => P::NakedQuad,
            Technique::Jellyfish => P::Jellyfish,
            Technique::HiddenQuad => P::HiddenQuad,
            Technique::BugPlusOne => P::BugPlusOne,
            Technique::BugType2 => P::BugType2,
            Technique::BugType3 => P::BugType3,
            Technique::BugType4 => P::BugType4,
            Technique::AlignedPairExclusion => P::AlignedPairExclusion,
            Technique::Skyscraper => P::Skyscraper,
            Technique::TwoStringKite => P::TwoStringKite,
            Technique::XChain => P::XChain,
            Technique::XyChain => P::XyChain,
            Technique::AlignedTripleExclusion => P::AlignedTripleExclusion,
            Technique::ForcingChain => P::ForcingChain,
            Technique::Guess => P::Guess,
        }
    }
}

/// A rating in tenths as the wire's double.
pub fn rating(tenths: u16) -> f64 {
    f64::from(tenths) / 10.0
}

/// A rating bound of a request (`field`) in tenths, 0 for none: a number from 0 to 20 on the
/// Sudoku Explainer scale, rounded to its tenth.
pub fn rating_bound(field: &'static str, value: f64) -> Result<u16, BadField> {
    if !(0.0..=20.0).contains(&value) {
        return Err(BadField {
            field,
            message: format!(
                "{field} {value} is not a rating: expected 0 (no bound) to 20 on the Sudoku \
                 Explainer scale"
            ),
        });
    }
    Ok((value * 10.0).round() as u16)
}

/// The grade Generate's `request` asks every puzzle to have: its level and its rating range,
/// which must not be empty.
pub fn target(request: &proto::GenerateRequest) -> Result<Target, BadField> {
    let target = Target {
        level: difficulty(request.difficulty)?,
        min_rating: rating_bound("min_rating", request.min_rating)?,
        max_rating: rating_bound("max_rating", request.max_rating)?,
    };
    if target.max_rating != 0 && target.min_rating > target.max_rating {
        return Err(BadField {
            field: "max_rating",
            message: format!(
                "max_rating {} is below min_rating {}: no rating is in the range",
                request.max_rating, request.min_rating
            ),
        });
    }
    Ok(target)
}

/// Writes the core's values the way a request wrote its cells: in its alphabet, or as numbers when
/// its cells were numbers.
#[derive(Clone, Copy, Debug)]
pub struct Writer {
    side: usize,
    symbols: Symbols,
    numbers: bool,
}

impl Writer {
    /// The writer of values 1 to `side` in `symbols`.
    pub fn new(side: usize, symbols: Symbols) -> Writer {
        Writer {
            side,
            symbols,
            numbers: false,
        }
    }

    /// The writer for answers to the puzzle `read`.
    pub fn of(read: &Read) -> Writer {
        Writer {
            side: read.grid.shape().side(),
            symbols: read.symbols,
            numbers: read.notation == Notation::Numbers,
        }
    }

    /// One value as the request would write it.
    pub fn symbol(&self, value: u8) -> String {
        if self.numbers {
            value.to_string()
        } else {
            self.symbols.symbol(value).to_string()
        }
    }

    /// A cell and a value of it.
    pub fn cell(&self, candidate: Candidate) -> proto::CellSymbol {
        proto::CellSymbol {
            row: (candidate.cell / self.side) as u32,
            col: (candidate.cell % self.side) as u32,
            symbol: self.symbol(candidate.value),
        }
    }

    /// A step of the logic engine, explained in the request's symbols.
    pub fn step(&self, step: &Step) -> proto::Step {
        proto::Step {
            technique: proto::Technique::from(step.technique).into(),
            rating: rating(step.rating),
            placements: step.placements.iter().map(|&c| self.cell(c)).collect(),
            eliminations: step.eliminations.iter().map(|&c| self.cell(c)).collect(),
            evidence: step.evidence.iter().map(|&c| self.cell(c)).collect(),
            explanation: step.explanation(|v| self.symbol(v)),
        }
    }
}

/// A generated puzzle as Generate answers it: the puzzle at `index` of its call, made from `seed`,
/// written in `symbols`.
pub fn generated(
    index: u64,
    seed: u64,
    made: &Generated<Rated>,
    symbols: &Symbols,
) -> proto::GenerateResponse {
    proto::GenerateResponse {
        index,
        puzzle: symbols.write(&made.puzzle),
        solution: symbols.write(&made.solution),
        clues: u32::try_from(made.puzzle.givens()).unwrap_or(u32::MAX),
        difficulty: proto::Difficulty::from(made.rating.difficulty).into(),
        rating: rating(made.rating.rating),
        seed,
    }
}
