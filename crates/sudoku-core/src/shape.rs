//! The geometry of a grid: its shape (the boxes and so the side), its cells, and its units (rows,
//! columns and boxes). The bottom layer: it knows nothing of values, alphabets or text.

use std::fmt;

/// The shape of a grid: boxes of `box_rows` x `box_cols` cells, so `N = box_rows * box_cols` symbols
/// and a side of `N` cells. Every shape with N from 4 to 25 and boxes at least 2 cells each way is
/// supported, in both orientations (6x6 has 2x3 and 3x2 boxes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

impl Shape {
    /// The classic 9x9 grid of 3x3 boxes.
    pub const NINE: Shape = Shape {
        box_rows: 3,
        box_cols: 3,
    };

    /// The fewest symbols a supported shape has (4x4).
    pub const MIN_SIDE: usize = 4;

    /// The most symbols a supported shape has (25x25).
    pub const MAX_SIDE: usize = 25;

    /// The shape with boxes of `box_rows` x `box_cols` cells; `None` unless both are at least 2 and
    /// the side `box_rows * box_cols` is from 4 to 25.
    pub fn new(box_rows: usize, box_cols: usize) -> Option<Shape> {
        let side = box_rows.checked_mul(box_cols)?;
        let fits =
            box_rows >= 2 && box_cols >= 2 && (Self::MIN_SIDE..=Self::MAX_SIDE).contains(&side);
        // Both fit in a byte: each is at most 12 when the other is at least 2 and the product at most 25.
        fits.then_some(Shape {
            box_rows: box_rows as u8,
            box_cols: box_cols as u8,
        })
    }

    /// The square shape with boxes of `box_size` x `box_size` cells, for box sizes 2 to 5 (4x4 to
    /// 25x25 grids).
    pub fn with_box_size(box_size: u8) -> Option<Shape> {
        Shape::new(usize::from(box_size), usize::from(box_size))
    }

    /// The shape a grid of side `side` has when none is given: the square box for 4, 9, 16 and 25,
    /// otherwise the wide box (rows < columns) closest to square, so 6 is 2x3 and 12 is 3x4. `None`
    /// for a side no shape has (below 4, above 25, or prime).
    pub fn for_side(side: usize) -> Option<Shape> {
        let box_rows = (2..=side)
            .take_while(|r| r * r <= side)
            .filter(|r| side.is_multiple_of(*r))
            .last()?;
        Shape::new(box_rows, side / box_rows)
    }

    /// The shape of a grid of `cells` cells when none is given ([`Shape::for_side`]); `None` unless
    /// `cells` is the square of a side some shape has.
    pub fn for_cells(cells: usize) -> Option<Shape> {
        let side = cells.isqrt();
        if side * side != cells {
            return None;
        }
        Shape::for_side(side)
    }

    /// The sides a shape has, smallest first: 4, 6, 8, 9, 10, 12, 14, 15, 16, 18, 20, 21, 22, 24, 25.
    pub fn sides() -> impl Iterator<Item = usize> {
        (Shape::MIN_SIDE..=Shape::MAX_SIDE).filter(|&side| Shape::for_side(side).is_some())
    }

    /// The count of cells of a grid nearest to `cells` (the smaller on a tie): what a text of
    /// `cells` cells most likely meant.
    pub fn nearest_count(cells: usize) -> usize {
        Shape::sides()
            .map(|side| side * side)
            .min_by_key(|&count| count.abs_diff(cells))
            .unwrap_or(Shape::NINE.cells())
    }

    /// Rows of cells in one box.
    pub fn box_rows(self) -> usize {
        usize::from(self.box_rows)
    }

    /// Columns of cells in one box.
    pub fn box_cols(self) -> usize {
        usize::from(self.box_cols)
    }

    /// Cells along one side of the grid, which is also the number of symbols.
    pub fn side(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// Cells in the whole grid.
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// The position of the cell at `index` in row-major order.
    pub fn cell(self, index: usize) -> Cell {
        Cell {
            row: index / self.side(),
            col: index % self.side(),
        }
    }

    /// The row, column and box that hold `cell`, in that order.
    pub fn units_of(self, cell: Cell) -> [Unit; 3] {
        [
            Unit::Row(cell.row),
            Unit::Column(cell.col),
            Unit::Box(self.box_of(cell)),
        ]
    }

    /// The box (numbered from 0, row-major) that holds `cell`. A row of boxes holds
    /// `side / box_cols = box_rows` boxes.
    pub fn box_of(self, cell: Cell) -> usize {
        (cell.row / self.box_rows()) * self.box_rows() + cell.col / self.box_cols()
    }
}

impl fmt::Display for Shape {
    /// `9x9 (3x3 boxes)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.side();
        write!(
            f,
            "{side}x{side} ({}x{} boxes)",
            self.box_rows, self.box_cols
        )
    }
}

/// A cell's position, numbered from 0 (displayed from 1, as people count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// Row, from 0 at the top.
    pub row: usize,
    /// Column, from 0 at the left.
    pub col: usize,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row + 1, self.col + 1)
    }
}

/// A row, column or box of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A row, numbered from 0.
    Row(usize),
    /// A column, numbered from 0.
    Column(usize),
    /// A box, numbered from 0 in row-major order.
    Box(usize),
}

impl Unit {
    /// The unit's number among those of its kind, from 0.
    pub fn number(self) -> usize {
        match self {
            Unit::Row(i) | Unit::Column(i) | Unit::Box(i) => i,
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}
