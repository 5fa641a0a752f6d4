//! Every conversion between `sudoku.v1` messages and the core's types, once. Request fields become
//! the core's own types through the core's own validation, so every RPC reads a shape, an alphabet
//! or a puzzle by the same rules and with the same messages; answers are written back in the
//! request's shape and alphabet.

use sudoku_core::candidates::Candidate;
use sudoku_core::fpuzzles::{self, FPuzzlesError};
use sudoku_core::generator::{Generated, Rated, Symmetry, Target};
use sudoku_core::grader::Difficulty;
use sudoku_core::grid::{Grid, Shape};
use sudoku_core::solver::Verdict;
use sudoku_core::strategy::{Step, Technique};
use sudoku_core::symbols::Symbols;
use sudoku_core::text::{Format, Notation, ParseError, PuzzleError, Read};
use sudoku_core::variant::{self, Diagonal, Line, Relation, Rule, Variant, VariantError};

use crate::proto;

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
            Technique::Skyscraper => P::Skyscraper,
            Technique::TwoStringKite => P::TwoStringKite,
            Technique::XChain => P::XChain,
            Technique::XyChain => P::XyChain,
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

/// The symbols a variant's answers are written in: one per value 1 to the side (at most
/// [`variant::MAX_SIDE`]), `1`-`9` then `A`-`G` unless the request's `symbols` names others, as the
/// classic path writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alphabet {
    /// The symbol of value `v` at `v - 1`; only the first `len` are used.
    chars: [u8; variant::MAX_SIDE],
    len: u8,
}

/// The standard symbols in value order, as far as a variant's side goes.
const STANDARD_SYMBOLS: &[u8; variant::MAX_SIDE] = b"123456789ABCDEFG";

impl Alphabet {
    /// The alphabet of a variant of `side` (1 to 16): the standard one for empty `symbols`, else
    /// those symbols, which must be one per value.
    pub fn new(side: usize, symbols: &str) -> Result<Alphabet, BadField> {
        if !(1..=variant::MAX_SIDE).contains(&side) {
            return Err(BadField {
                field: "symbols",
                message: VariantError::Side(side).to_string(),
            });
        }
        let mut chars = *STANDARD_SYMBOLS;
        if !symbols.is_empty() {
            let given = Symbols::new(symbols).map_err(|e| BadField {
                field: "symbols",
                message: e.to_string(),
            })?;
            if given.len() != side {
                return Err(BadField {
                    field: "symbols",
                    message: format!(
                        "symbols {symbols:?} hold {} characters, but the grid has a side of {side}",
                        given.len()
                    ),
                });
            }
            chars[..side].copy_from_slice(given.as_bytes());
        }
        // At most 16.
        Ok(Alphabet {
            chars,
            len: side as u8,
        })
    }

    /// The alphabet `symbols` of a classic grid, for a side up to 16.
    fn of_symbols(symbols: &Symbols) -> Alphabet {
        let mut chars = *STANDARD_SYMBOLS;
        let len = symbols.len().min(variant::MAX_SIDE);
        chars[..len].copy_from_slice(&symbols.as_bytes()[..len]);
        Alphabet {
            chars,
            len: len as u8,
        }
    }

    /// The symbol of `value` (1 to the side); `.` for anything else.
    pub fn symbol(&self, value: u8) -> char {
        match usize::from(value) {
            v @ 1.. if v <= usize::from(self.len) => char::from(self.chars[v - 1]),
            _ => '.',
        }
    }

    /// The value of `ch` (letters in either case); `None` if it is no symbol.
    fn value_of(&self, ch: char) -> Option<u8> {
        let byte = u8::try_from(ch).ok()?;
        self.chars[..usize::from(self.len)]
            .iter()
            .position(|c| c.eq_ignore_ascii_case(&byte))
            .map(|at| at as u8 + 1)
    }

    /// Values, one symbol each, `.` for 0.
    pub fn write(&self, values: &[u8]) -> String {
        values.iter().map(|&v| self.symbol(v)).collect()
    }

    /// The values set in `mask` (bit `v - 1` for value `v`), one symbol each, in value order.
    pub fn write_mask(&self, mask: u16) -> String {
        (1..=self.len)
            .filter(|v| mask & (1 << (v - 1)) != 0)
            .map(|v| self.symbol(v))
            .collect()
    }
}

/// A variant a request carries, ready to solve, with the alphabet its answer is written in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantRead {
    /// The puzzle.
    pub variant: Variant,
    /// The answer's symbols.
    pub alphabet: Alphabet,
}

impl VariantRead {
    /// The boxes of the grid as `(box_rows, box_cols)`, when its regions are the boxes of the
    /// side's classic shape; `(0, 0)` for a jigsaw, or a side no classic shape has.
    pub fn boxes(&self) -> (u32, u32) {
        let side = self.variant.side();
        match Shape::for_side(side) {
            Some(shape) if self.variant.regions() == box_regions(shape) => {
                // At most 16 each.
                (shape.box_rows() as u32, shape.box_cols() as u32)
            }
            _ => (0, 0),
        }
    }
}

/// Why a request's variant could not be read: what is wrong and where, and which field it is in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantInputError {
    /// The f-puzzles text is at fault.
    #[error("fpuzzles: {0}")]
    FPuzzles(FPuzzlesError),
    /// The typed rules, or the givens with them, do not make a well-formed variant.
    #[error("{field}: {error}")]
    Variant {
        /// `rules`, or `puzzle` when the givens are at fault.
        field: &'static str,
        /// What is wrong, naming the rule and the cell.
        error: VariantError,
    },
    /// Another field, or fields that do not go together.
    #[error(transparent)]
    Field(#[from] BadField),
}

impl VariantInputError {
    /// The request field the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            VariantInputError::FPuzzles(_) => "fpuzzles",
            VariantInputError::Variant { field, .. } => field,
            VariantInputError::Field(bad) => bad.field,
        }
    }
}

impl From<FPuzzlesError> for VariantInputError {
    fn from(error: FPuzzlesError) -> VariantInputError {
        VariantInputError::FPuzzles(error)
    }
}

impl From<VariantError> for VariantInputError {
    fn from(error: VariantError) -> VariantInputError {
        let field = match error {
            VariantError::Given { .. } | VariantError::CellCount { what: "givens", .. } => "puzzle",
            _ => "rules",
        };
        VariantInputError::Variant { field, error }
    }
}

/// Why a Solve request or SolveBatch item could not be read: its classic puzzle, or its variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// The classic puzzle's text or givens.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// The variant's f-puzzles text, rules or givens.
    #[error(transparent)]
    Variant(#[from] VariantInputError),
}

/// What a Solve request or SolveBatch item asks about: a classic puzzle, or a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A classic grid, read by [`read_puzzle`].
    Classic(Read),
    /// A variant from f-puzzles or typed rules.
    Variant(VariantRead),
}

/// A request that may carry a variant as well as a classic puzzle: Solve's, and SolveBatch's items.
pub trait SolveInput: PuzzleRequest {
    /// The `fpuzzles` and `rules` fields.
    fn variant_fields(&self) -> (&str, Option<&proto::Rules>);

    /// The request's puzzle: a variant when `fpuzzles` or `rules` is set, else the classic puzzle.
    fn input(&self) -> Result<Input, InputError> {
        let (puzzle, box_rows, box_cols, symbols) = self.fields();
        let (fpuzzles, rules) = self.variant_fields();
        let classic = ClassicFields {
            puzzle,
            box_rows,
            box_cols,
            symbols,
        };
        Ok(match read_variant(&classic, fpuzzles, rules)? {
            Some(variant) => Input::Variant(variant),
            None => Input::Classic(read_puzzle(puzzle, box_rows, box_cols, symbols)?),
        })
    }
}

macro_rules! solve_input {
    ($($message:ty),*) => {$(
        impl SolveInput for $message {
            fn variant_fields(&self) -> (&str, Option<&proto::Rules>) {
                (&self.fpuzzles, self.rules.as_deref())
            }
        }
    )*};
}

solve_input!(proto::SolveRequest, proto::SolveBatchRequest);

/// A request's classic fields, which a variant request uses only in part.
struct ClassicFields<'a> {
    puzzle: &'a str,
    box_rows: u32,
    box_cols: u32,
    symbols: &'a str,
}

/// The variant a request carries in `fpuzzles` or `rules`; `None` when it carries neither.
fn read_variant(
    classic: &ClassicFields<'_>,
    fpuzzles: &str,
    rules: Option<&proto::Rules>,
) -> Result<Option<VariantRead>, VariantInputError> {
    let fpuzzles = fpuzzles.trim();
    let not_with = |field: &'static str, other: &str| BadField {
        field,
        message: format!("set either `{field}` or `{other}`, not both"),
    };
    if !fpuzzles.is_empty() && rules.is_some() {
        return Err(not_with("fpuzzles", "rules").into());
    }
    if (!fpuzzles.is_empty() || rules.is_some()) && (classic.box_rows, classic.box_cols) != (0, 0) {
        let with = if fpuzzles.is_empty() {
            "rules"
        } else {
            "fpuzzles"
        };
        return Err(BadField {
            field: "box_rows",
            message: format!(
                "`box_rows` and `box_cols` are for classic puzzles; with `{with}` the regions \
                 give the boxes"
            ),
        }
        .into());
    }
    if !fpuzzles.is_empty() {
        if !classic.puzzle.trim().is_empty() {
            return Err(not_with("puzzle", "fpuzzles").into());
        }
        return fpuzzles_variant(fpuzzles, classic.symbols).map(Some);
    }
    match rules {
        Some(rules) => typed_variant(classic.puzzle, rules, classic.symbols).map(Some),
        None => Ok(None),
    }
}

/// An f-puzzles text (JSON, its LZ-String base64, or a link) as a variant, answered in `symbols`
/// (empty: the standard ones).
pub fn fpuzzles_variant(text: &str, symbols: &str) -> Result<VariantRead, VariantInputError> {
    let variant = fpuzzles::read(text.trim())?;
    let alphabet = Alphabet::new(variant.side(), symbols)?;
    Ok(VariantRead { variant, alphabet })
}

/// The typed form of a variant: givens in `puzzle`, regions and rules in `rules`.
pub fn typed_variant(
    puzzle: &str,
    rules: &proto::Rules,
    symbols: &str,
) -> Result<VariantRead, VariantInputError> {
    let cells: Vec<char> = puzzle.chars().filter(|&ch| !is_layout(ch)).collect();
    let side = match rules.side {
        0 => {
            let side = cells.len().isqrt();
            if side == 0 || side * side != cells.len() {
                return Err(BadField {
                    field: "puzzle",
                    message: format!(
                        "found {} cells, not the square of a side; give `rules.side`",
                        cells.len()
                    ),
                }
                .into());
            }
            side
        }
        side => side as usize,
    };
    if !(1..=variant::MAX_SIDE).contains(&side) {
        return Err(VariantError::Side(side).into());
    }
    let alphabet = Alphabet::new(side, symbols)?;
    if cells.len() != side * side {
        return Err(BadField {
            field: "puzzle",
            message: format!(
                "found {} cells, expected {} for a side of {side}",
                cells.len(),
                side * side
            ),
        }
        .into());
    }
    let zero_is_blank = alphabet.value_of('0').is_none();
    let givens = cells
        .iter()
        .enumerate()
        .map(|(cell, &ch)| match ch {
            '.' => Ok(0),
            '0' if zero_is_blank => Ok(0),
            ch => alphabet.value_of(ch).ok_or_else(|| BadField {
                field: "puzzle",
                message: format!(
                    "{ch:?} at {} is not one of the grid's symbols {:?} (or '.' for a blank)",
                    variant::cell_name(side, cell),
                    alphabet.write(&(1..=side as u8).collect::<Vec<u8>>())
                ),
            }),
        })
        .collect::<Result<Vec<u8>, BadField>>()?;
    let regions = match rules.regions.as_slice() {
        [] => match Shape::for_side(side) {
            Some(shape) => box_regions(shape),
            None => Variant::default_regions(side),
        },
        given => given
            .iter()
            .enumerate()
            .map(|(cell, &region)| {
                u8::try_from(region).map_err(|_| BadField {
                    field: "rules.regions",
                    message: format!(
                        "region {region} at {} is out of range: regions are numbered 0 to {}",
                        variant::cell_name(side, cell),
                        side - 1
                    ),
                })
            })
            .collect::<Result<Vec<u8>, BadField>>()?,
    };
    let variant = Variant::new(side, givens, regions, typed_rules(rules)?)?;
    Ok(VariantRead { variant, alphabet })
}

/// The core's rules for the typed form, in the documented order: the diagonals, the switches, then
/// each list in field order.
fn typed_rules(rules: &proto::Rules) -> Result<Vec<Rule>, BadField> {
    let cells = |cells: &[u32]| cells.iter().map(|&c| c as usize).collect::<Vec<usize>>();
    let mut out = Vec::new();
    let switches = [
        (rules.diagonal_positive, Rule::Diagonal(Diagonal::Positive)),
        (rules.diagonal_negative, Rule::Diagonal(Diagonal::Negative)),
        (rules.anti_knight, Rule::AntiKnight),
        (rules.anti_king, Rule::AntiKing),
        (rules.non_consecutive, Rule::NonConsecutive),
        (rules.disjoint_groups, Rule::DisjointGroups),
    ];
    out.extend(switches.into_iter().filter(|(on, _)| *on).map(|(_, r)| r));
    out.extend(
        rules
            .extra_regions
            .iter()
            .map(|r| Rule::ExtraRegion(cells(&r.cells))),
    );
    out.extend(rules.cages.iter().map(|cage| Rule::Cage {
        cells: cells(&cage.cells),
        sum: (cage.sum != 0).then_some(cage.sum),
    }));
    out.extend(rules.little_killers.iter().map(|clue| Rule::LittleKiller {
        cells: cells(&clue.cells),
        sum: clue.sum,
    }));
    for (i, sandwich) in rules.sandwiches.iter().enumerate() {
        let line = match sandwich.line {
            Some(proto::sandwich::Line::Row(row)) => Line::Row(row as usize),
            Some(proto::sandwich::Line::Column(column)) => Line::Column(column as usize),
            None => {
                return Err(BadField {
                    field: "rules.sandwiches",
                    message: format!("sandwich {} names no row or column", i + 1),
                });
            }
        };
        out.push(Rule::Sandwich {
            line,
            sum: sandwich.sum,
        });
    }
    out.extend(
        rules
            .thermometers
            .iter()
            .map(|t| Rule::Thermometer(cells(&t.cells))),
    );
    out.extend(rules.arrows.iter().map(|arrow| Rule::Arrow {
        circle: cells(&arrow.circle),
        shaft: cells(&arrow.shaft),
    }));
    for (i, pair) in rules.pairs.iter().enumerate() {
        let what = || format!("pair {}", i + 1);
        let Some(cells) = pair.cells else {
            return Err(BadField {
                field: "rules.pairs",
                message: format!("{} names no cells", what()),
            });
        };
        out.push(Rule::Pair {
            cells: [cells.first as usize, cells.second as usize],
            relation: relation(pair.relation, pair.value, "rules.pairs", what)?,
        });
    }
    for (i, negative) in rules.negative_constraints.iter().enumerate() {
        let what = || format!("negative constraint {}", i + 1);
        out.push(Rule::Negative {
            relation: relation(
                negative.relation,
                negative.value,
                "rules.negative_constraints",
                what,
            )?,
            except: negative
                .except
                .iter()
                .map(|p| [p.first as usize, p.second as usize])
                .collect(),
        });
    }
    out.extend(rules.parity_cells.iter().map(|p| Rule::Parity {
        cell: p.cell as usize,
        even: p.even,
    }));
    Ok(out)
}

/// The core's relation for a marker's wire relation and number.
fn relation(
    number: i32,
    value: u32,
    field: &'static str,
    what: impl Fn() -> String,
) -> Result<Relation, BadField> {
    let bad = |message: String| BadField { field, message };
    let value = u8::try_from(value)
        .map_err(|_| bad(format!("{}: the value {value} is out of range", what())))?;
    Ok(match proto::PairRelation::try_from(number) {
        Ok(proto::PairRelation::Difference) => Relation::Difference(value.max(1)),
        Ok(proto::PairRelation::Ratio) => Relation::Ratio(if value == 0 { 2 } else { value }),
        Ok(proto::PairRelation::Sum) if value > 0 => Relation::Sum(value),
        Ok(proto::PairRelation::Sum) => {
            return Err(bad(format!(
                "{}: a sum needs a value (X is 10, V is 5)",
                what()
            )));
        }
        Ok(proto::PairRelation::Unspecified) | Err(_) => {
            return Err(bad(format!(
                "{}: the relation is not given (difference, ratio or sum)",
                what()
            )));
        }
    })
}

/// Each cell's box in `shape`, as a variant's regions.
pub fn box_regions(shape: Shape) -> Vec<u8> {
    // At most 25 boxes, so the number fits a byte.
    (0..shape.cells())
        .map(|i| shape.box_of(shape.cell(i)) as u8)
        .collect()
}

/// A classic puzzle as a variant with no extra rule, its regions the boxes of its shape: how
/// TrueCandidates takes a classic request. Sides above 16 are refused.
pub fn classic_variant(read: &Read) -> Result<VariantRead, VariantInputError> {
    let shape = read.grid.shape();
    if shape.side() > variant::MAX_SIDE {
        return Err(BadField {
            field: "puzzle",
            message: format!(
                "true candidates are found for grids up to {max}x{max}; this one is {shape}",
                max = variant::MAX_SIDE
            ),
        }
        .into());
    }
    let variant = Variant::new(
        shape.side(),
        read.grid.cells().to_vec(),
        box_regions(shape),
        Vec::new(),
    )?;
    Ok(VariantRead {
        variant,
        alphabet: Alphabet::of_symbols(&read.symbols),
    })
}

/// Characters that only lay a grid out, skipped when reading the givens of a typed variant, as the
/// classic reader skips them.
fn is_layout(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, '|' | '-' | '+' | ',' | '"' | '[' | ']')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For every classic side a variant can have, f-puzzles' default boxes are the classic
    /// shape's; a classic grid of another shape (6x6 of 3x2 boxes) keeps its own.
    #[test]
    fn classic_boxes_become_the_regions() {
        for side in [4, 6, 8, 9, 10, 12, 14, 15, 16] {
            let shape = Shape::for_side(side).expect("a classic side");
            assert_eq!(
                box_regions(shape),
                Variant::default_regions(side),
                "side {side}"
            );
        }
        let read = read_puzzle(&".".repeat(36), 3, 2, "").expect("a 6x6 of 3x2 boxes");
        let variant = classic_variant(&read).expect("a variant");
        assert_eq!(variant.variant.regions()[..6], [0, 0, 1, 1, 2, 2]);
        assert_ne!(variant.variant.regions(), Variant::default_regions(6));
        assert_eq!(variant.boxes(), (0, 0));
        let read = read_puzzle(&".".repeat(625), 0, 0, "").expect("a 25x25");
        assert_eq!(classic_variant(&read).unwrap_err().field(), "puzzle");
    }

    #[test]
    fn typed_rules_keep_their_documented_order() {
        let rules = proto::Rules {
            side: 4,
            diagonal_negative: true,
            anti_king: true,
            cages: vec![proto::Cage {
                cells: vec![0, 1],
                sum: 0,
            }],
            sandwiches: vec![proto::Sandwich {
                line: Some(proto::sandwich::Line::Column(2)),
                sum: 5,
            }],
            pairs: vec![proto::Pair {
                cells: Some(proto::CellPair {
                    first: 5,
                    second: 6,
                }),
                relation: proto::PairRelation::Ratio.into(),
                value: 0,
            }],
            parity_cells: vec![proto::ParityCell {
                cell: 15,
                even: true,
            }],
            ..Default::default()
        };
        let read = typed_variant("1... .... .... ...a", &rules, "1234").unwrap_err();
        assert_eq!(read.field(), "puzzle", "{read}");
        let read = typed_variant("1... .... .... ...4", &rules, "").expect("well formed");
        assert_eq!(
            read.variant.rules(),
            [
                Rule::Diagonal(Diagonal::Negative),
                Rule::AntiKing,
                Rule::Cage {
                    cells: vec![0, 1],
                    sum: None
                },
                Rule::Sandwich {
                    line: Line::Column(2),
                    sum: 5
                },
                Rule::Pair {
                    cells: [5, 6],
                    relation: Relation::Ratio(2)
                },
                Rule::Parity {
                    cell: 15,
                    even: true
                },
            ]
        );
        assert_eq!(read.variant.givens()[15], 4);
        assert_eq!(read.boxes(), (2, 2));
    }

    #[test]
    fn an_alphabet_has_one_symbol_per_value_up_to_sixteen() {
        assert_eq!(Alphabet::new(16, "").expect("16").write(&[16, 10]), "GA");
        let own = Alphabet::new(4, "abcd").expect("4");
        assert_eq!(
            (own.write_mask(0b1001), own.value_of('C')),
            ("ad".into(), Some(3))
        );
        assert_eq!(Alphabet::new(9, "abcd").unwrap_err().field, "symbols");
        assert_eq!(
            Alphabet::new(25, "123456789ABCDEFGHIJKLMNOP")
                .unwrap_err()
                .field,
            "symbols"
        );
    }

    #[test]
    fn small_and_prime_sides_read_in_the_standard_symbols() {
        let read = typed_variant("1.\n.2", &proto::Rules::default(), "").expect("a 2x2");
        assert_eq!(read.variant.side(), 2);
        assert_eq!(read.alphabet.write(&[1, 2, 0]), "12.");
        let read = typed_variant(&".".repeat(25), &proto::Rules::default(), "").expect("5x5");
        assert_eq!(read.variant.regions(), Variant::default_regions(5));
        assert_eq!(read.alphabet.write_mask(0b10110), "235");
        let err = typed_variant(&".".repeat(24), &proto::Rules::default(), "").unwrap_err();
        assert_eq!(err.field(), "puzzle");
    }
}
