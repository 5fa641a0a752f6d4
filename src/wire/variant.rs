//! The variant half of the wire: a Solve request's or SolveBatch item's `fpuzzles` text or typed
//! `Rules` read into the core's `Variant`, the alphabet its answer is written in, and a classic
//! puzzle as a variant for TrueCandidates.

use sudoku_core::fpuzzles::{self, FPuzzlesError};
use sudoku_core::grid::Shape;
use sudoku_core::symbols::Symbols;
use sudoku_core::text::{PuzzleError, Read};
use sudoku_core::variant::{
    self, Diagonal, LayoutError, Line, Relation, Rule, Variant, VariantError,
};

use crate::proto;

use super::{BadField, PuzzleRequest, read_grid};

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

    /// The values of a grid of this alphabet's side written one symbol per cell (layout characters
    /// already taken out), `.` (or `0` when it is no symbol) for a blank; `field` names the request
    /// field in errors, which say what is wrong and where.
    pub fn read_cells(&self, field: &'static str, cells: &[char]) -> Result<Vec<u8>, BadField> {
        let side = usize::from(self.len);
        if cells.len() != side * side {
            return Err(BadField {
                field,
                message: format!(
                    "found {} cells, expected {} for a side of {side}",
                    cells.len(),
                    side * side
                ),
            });
        }
        let zero_is_blank = self.value_of('0').is_none();
        cells
            .iter()
            .enumerate()
            .map(|(cell, &ch)| match ch {
                '.' => Ok(0),
                '0' if zero_is_blank => Ok(0),
                ch => self.value_of(ch).ok_or_else(|| BadField {
                    field,
                    message: format!(
                        "{ch:?} at {} is not one of the grid's symbols {:?} (or '.' for a blank)",
                        variant::cell_name(side, cell),
                        self.as_str()
                    ),
                }),
            })
            .collect()
    }

    /// The symbols in value order.
    pub fn as_str(&self) -> &str {
        // ASCII: the standard symbols, or ones `Symbols` accepted.
        std::str::from_utf8(&self.chars[..usize::from(self.len)]).unwrap_or_default()
    }

    /// The values of `text` (a grid of this alphabet's side, one symbol per cell, layout
    /// characters such as spaces and `|` ignored), as [`Alphabet::read_cells`] reads them.
    pub fn read_text(&self, field: &'static str, text: &str) -> Result<Vec<u8>, BadField> {
        let cells: Vec<char> = text.chars().filter(|&ch| !is_layout(ch)).collect();
        self.read_cells(field, &cells)
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
    /// A well-formed variant that Grade and Hint cannot take: a rule without techniques.
    #[error("{field}: {error}")]
    Layout {
        /// `fpuzzles` or `rules`, whichever carried the variant.
        field: &'static str,
        /// The rule refused, by number and kind.
        error: LayoutError,
    },
}

impl VariantInputError {
    /// The request field the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            VariantInputError::FPuzzles(_) => "fpuzzles",
            VariantInputError::Variant { field, .. } => field,
            VariantInputError::Field(bad) => bad.field,
            VariantInputError::Layout { field, .. } => field,
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
    /// A classic grid, read by [`read_grid`]; its givens are checked for a clash unless it came
    /// from [`SolveInput::solver_input`].
    Classic(Read),
    /// A variant from f-puzzles or typed rules.
    Variant(VariantRead),
}

/// A request that may carry a variant as well as a classic puzzle: Solve's, SolveBatch's items,
/// Grade's and Hint's.
pub trait SolveInput: PuzzleRequest {
    /// The `fpuzzles` and `rules` fields.
    fn variant_fields(&self) -> (&str, Option<&proto::Rules>);

    /// The request's puzzle: a variant when `fpuzzles` or `rules` is set, else the classic puzzle.
    fn input(&self) -> Result<Input, InputError> {
        read_input(self, true)
    }

    /// [`SolveInput::input`] for the solver alone, which finds clashing givens of a 9x9 grid as it
    /// reads them: such a puzzle is not checked here, so whoever solves it must look for the clash
    /// ([`Read::check_givens`]) when the solver finds no solution.
    fn solver_input(&self) -> Result<Input, InputError> {
        read_input(self, false)
    }
}

/// A request's puzzle, its classic givens checked for a clash unless `check_nine` is false and
/// the grid is 9x9.
fn read_input<R: SolveInput + ?Sized>(request: &R, check_nine: bool) -> Result<Input, InputError> {
    let (puzzle, box_rows, box_cols, symbols) = request.fields();
    let (fpuzzles, rules) = request.variant_fields();
    let classic = ClassicFields {
        puzzle,
        box_rows,
        box_cols,
        symbols,
    };
    // Nearly every request is a classic one, which needs none of the variant checks.
    let variant = if fpuzzles.is_empty() && rules.is_none() {
        None
    } else {
        read_variant(&classic, fpuzzles, rules)?
    };
    Ok(match variant {
        Some(variant) => Input::Variant(variant),
        None => {
            let read = read_grid(puzzle, box_rows, box_cols, symbols).map_err(PuzzleError::from)?;
            if check_nine || read.grid.shape() != Shape::NINE {
                read.check_givens()?;
            }
            Input::Classic(read)
        }
    })
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

solve_input!(
    proto::SolveRequest,
    proto::SolveBatchRequest,
    proto::GradeRequest,
    proto::HintRequest
);

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
    let givens = alphabet.read_cells("puzzle", &cells)?;
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
        let read = read_grid(&".".repeat(36), 3, 2, "").expect("a 6x6 of 3x2 boxes");
        let variant = classic_variant(&read).expect("a variant");
        assert_eq!(variant.variant.regions()[..6], [0, 0, 1, 1, 2, 2]);
        assert_ne!(variant.variant.regions(), Variant::default_regions(6));
        assert_eq!(variant.boxes(), (0, 0));
        let read = read_grid(&".".repeat(625), 0, 0, "").expect("a 25x25");
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
