//! The general search, for any grid shape: one bitset of candidates per cell, naked singles by
//! propagation, and branching on the cell with the fewest candidates.

use super::{Limiter, Mode, Options, Outcome};
use crate::grid::{Grid, Shape};

/// Candidate digits of one cell: bit `d - 1` for digit `d` (grids up to 32x32).
type Mask = u32;

struct Board {
    shape: Shape,
    /// The digit in each cell, 0 for blank.
    values: Vec<u8>,
    /// Digits still open in each row, column and box.
    rows: Vec<Mask>,
    cols: Vec<Mask>,
    boxes: Vec<Mask>,
}

impl Board {
    /// The board for `puzzle`, or `None` if its givens clash.
    fn new(puzzle: &Grid) -> Option<Board> {
        let shape = puzzle.shape();
        let side = shape.side();
        let all: Mask = if side == 32 { !0 } else { (1 << side) - 1 };
        let mut board = Board {
            shape,
            values: vec![0; shape.cells()],
            rows: vec![all; side],
            cols: vec![all; side],
            boxes: vec![all; side],
        };
        for (index, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                let bit = 1 << (digit - 1);
                if board.open(index) & bit == 0 {
                    return None;
                }
                board.place(index, digit);
            }
        }
        Some(board)
    }

    fn units(&self, index: usize) -> (usize, usize, usize) {
        let cell = self.shape.cell(index);
        (cell.row, cell.col, self.shape.box_of(cell))
    }

    fn open(&self, index: usize) -> Mask {
        let (r, c, b) = self.units(index);
        self.rows[r] & self.cols[c] & self.boxes[b]
    }

    fn place(&mut self, index: usize, digit: u8) {
        let (r, c, b) = self.units(index);
        let bit = !(1 << (digit - 1));
        self.rows[r] &= bit;
        self.cols[c] &= bit;
        self.boxes[b] &= bit;
        self.values[index] = digit;
    }

    fn clear(&mut self, index: usize) {
        let digit = self.values[index];
        let (r, c, b) = self.units(index);
        let bit = 1 << (digit - 1);
        self.rows[r] |= bit;
        self.cols[c] |= bit;
        self.boxes[b] |= bit;
        self.values[index] = 0;
    }

    /// The blank cell with the fewest candidates, with them; `None` when the board is full.
    fn best_cell(&self) -> Option<(usize, Mask)> {
        let mut best: Option<(usize, Mask)> = None;
        for index in (0..self.values.len()).filter(|&i| self.values[i] == 0) {
            let open = self.open(index);
            if best.is_none_or(|(_, m)| open.count_ones() < m.count_ones()) {
                best = Some((index, open));
                if open.count_ones() <= 1 {
                    break;
                }
            }
        }
        best
    }
}

struct Search<'a> {
    board: Board,
    limiter: Limiter<'a>,
    wanted: u32,
    solutions: u32,
    first: Option<Grid>,
}

impl Search<'_> {
    /// Depth-first search; false once it must stop (enough solutions, budget, or cancellation).
    fn run(&mut self) -> bool {
        let Some((index, mut open)) = self.board.best_cell() else {
            self.solutions += 1;
            if self.first.is_none() {
                self.first = Grid::from_cells(self.board.shape, self.board.values.clone());
            }
            return self.solutions < self.wanted;
        };
        let forced = open.count_ones() == 1;
        while open != 0 {
            if !forced && !self.limiter.guess() {
                return false;
            }
            let digit = open.trailing_zeros() as u8 + 1;
            open &= open - 1;
            self.board.place(index, digit);
            let go_on = self.run();
            self.board.clear(index);
            if !go_on {
                return false;
            }
        }
        true
    }
}

pub(super) fn solve(puzzle: &Grid, options: &Options<'_>) -> Outcome {
    let limiter = Limiter::new(options);
    let Some(board) = Board::new(puzzle) else {
        return limiter.finish(options.mode, None, 0);
    };
    let wanted = match options.mode {
        Mode::ProveUnique => 2,
        Mode::FirstSolution => 1,
    };
    let mut search = Search {
        board,
        limiter,
        wanted,
        solutions: 0,
        first: None,
    };
    search.run();
    let Search {
        limiter,
        solutions,
        first,
        ..
    } = search;
    limiter.finish(options.mode, first, solutions)
}
