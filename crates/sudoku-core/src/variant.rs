//! Variant Sudoku: a grid of any side from 1 to 16, its regions (the boxes, or a jigsaw's), and the
//! extra rules setters add (diagonals, cages, thermometers, arrows, dots...), as typed data.
//!
//! Readers of outside formats (f-puzzles) and the service's typed form both build a [`Variant`];
//! [`Variant::new`] checks that it is well formed (every cell on the grid, every sum one that digits
//! can make), so the solver only ever sees rules that mean something. Cells are row-major indices
//! from 0; values are 1 to the side, 0 for an empty cell.

mod check;
mod layout;
mod solver;

pub use check::VariantError;
pub use layout::{Layout, LayoutError};
pub use solver::{TrueCandidates, VariantOutcome, solve, true_candidates};

/// The largest side a variant grid may have: candidates of a cell fit in a `u16`.
pub const MAX_SIDE: usize = 16;

/// A variant puzzle: its givens, its regions and its rules, checked to be well formed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    side: usize,
    givens: Vec<u8>,
    regions: Vec<u8>,
    rules: Vec<Rule>,
}

/// One rule on top of the rows, columns and regions, which always hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The cells of a main diagonal hold different values.
    Diagonal(Diagonal),
    /// The cells hold different values (windoku and hyper windows, or any extra region).
    ExtraRegion(Vec<usize>),
    /// Cells in the same position of their regions (the first cell of each region in row-major order,
    /// the second, ...) hold different values.
    DisjointGroups,
    /// Two cells a chess knight's move apart hold different values.
    AntiKnight,
    /// Two cells a chess king's move apart (diagonal neighbours too) hold different values.
    AntiKing,
    /// Two orthogonally adjacent cells do not hold consecutive values.
    NonConsecutive,
    /// A killer cage: the cells hold different values, adding up to `sum` when there is one.
    Cage {
        /// The cage's cells.
        cells: Vec<usize>,
        /// The total, if the cage has one.
        sum: Option<u32>,
    },
    /// The cells (a little killer's diagonal) add up to `sum`; values may repeat.
    LittleKiller {
        /// The cells the clue's arrow points along.
        cells: Vec<usize>,
        /// Their total.
        sum: u32,
    },
    /// The values strictly between the 1 and the side's largest value in a row or column add up to
    /// `sum` (0 when the two are adjacent).
    Sandwich {
        /// The row or column.
        line: Line,
        /// The total between the two.
        sum: u32,
    },
    /// Values strictly increase from the bulb (the first cell) along the thermometer.
    Thermometer(Vec<usize>),
    /// The shaft's values add up to the number the circle shows: its one cell's value, or for a
    /// circle of several cells the number their values spell in base 10, first cell first.
    Arrow {
        /// The circle's cells, most significant first.
        circle: Vec<usize>,
        /// The shaft's cells.
        shaft: Vec<usize>,
    },
    /// A marker between two cells (a kropki dot, an X or a V): their values are in `relation`.
    Pair {
        /// The two cells.
        cells: [usize; 2],
        /// What their values must satisfy.
        relation: Relation,
    },
    /// The negative constraint of a marker kind: no two orthogonally adjacent cells, other than the
    /// pairs in `except` (those that carry a marker of that kind), have values in `relation`.
    Negative {
        /// The relation no unmarked pair may satisfy.
        relation: Relation,
        /// The pairs exempt: those that carry a marker of the kind.
        except: Vec<[usize; 2]>,
    },
    /// The cell holds an even value (`even` true) or an odd one.
    Parity {
        /// The cell.
        cell: usize,
        /// Even, or odd.
        even: bool,
    },
}

/// One of the two main diagonals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Diagonal {
    /// From the bottom left to the top right (f-puzzles' `diagonal+`).
    Positive,
    /// From the top left to the bottom right (f-puzzles' `diagonal-`).
    Negative,
}

/// A row or a column, numbered from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    /// A row, from 0 at the top.
    Row(usize),
    /// A column, from 0 at the left.
    Column(usize),
}

/// How the values of two cells relate across a marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// The two differ by exactly this much (a white kropki dot: 1 unless it says otherwise).
    Difference(u8),
    /// One is exactly this many times the other (a black kropki dot: 2 unless it says otherwise).
    Ratio(u8),
    /// The two add up to this (X: 10, V: 5).
    Sum(u8),
}

impl Relation {
    /// Whether values `a` and `b` are in this relation (in either order).
    pub fn holds(self, a: u8, b: u8) -> bool {
        let (a, b) = (u32::from(a), u32::from(b));
        match self {
            Relation::Difference(d) => a.abs_diff(b) == u32::from(d),
            Relation::Ratio(r) => a * u32::from(r) == b || b * u32::from(r) == a,
            Relation::Sum(s) => a + b == u32::from(s),
        }
    }
}

impl Variant {
    /// A variant of `side` with these givens (row-major, 0 for empty), regions (each cell's region
    /// number, from 0) and rules, once it is found well formed: every cell on the grid,
    /// every value and region in range, `side` regions of `side` cells, and every rule one that
    /// values could satisfy on its own.
    pub fn new(
        side: usize,
        givens: Vec<u8>,
        regions: Vec<u8>,
        rules: Vec<Rule>,
    ) -> Result<Variant, VariantError> {
        let variant = Variant {
            side,
            givens,
            regions,
            rules,
        };
        check::well_formed(&variant)?;
        Ok(variant)
    }

    /// The regions a classic grid of `side` has, as f-puzzles draws them: boxes as near square as
    /// the side allows, wider than tall (2x3 for 6, 3x4 for 12); for a prime side, the rows.
    pub fn default_regions(side: usize) -> Vec<u8> {
        let box_rows = (1..=side)
            .filter(|r| side.is_multiple_of(*r) && r * r <= side)
            .max()
            .unwrap_or(1);
        let box_cols = side / box_rows.max(1);
        (0..side * side)
            .map(|i| {
                let (row, col) = (i / side, i % side);
                // At most 16 regions, so the number fits a byte.
                ((row / box_rows) * (side / box_cols.max(1)) + col / box_cols.max(1)) as u8
            })
            .collect()
    }

    /// The side: rows, columns, regions and values 1 to it.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The givens, row-major, 0 for an empty cell.
    pub fn givens(&self) -> &[u8] {
        &self.givens
    }

    /// Each cell's region, row-major.
    pub fn regions(&self) -> &[u8] {
        &self.regions
    }

    /// The rules beyond rows, columns and regions.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Whether the regions are the default boxes (no jigsaw).
    pub fn has_default_regions(&self) -> bool {
        self.regions == Variant::default_regions(self.side)
    }

    /// Whether `solution` (row-major, every value 1 to the side) keeps every given and satisfies
    /// every rule: the check every answer is held to.
    pub fn is_solved_by(&self, solution: &[u8]) -> bool {
        check::is_solved_by(self, solution)
    }
}

/// A cell's name as setters write it: `R3C4`, counted from 1.
pub fn cell_name(side: usize, cell: usize) -> String {
    format!("R{}C{}", cell / side.max(1) + 1, cell % side.max(1) + 1)
}
