//! The candidate grid the logic engine works on: for each cell its value or its candidates, and for
//! each unit (row, column, box) and value the cells of that unit where the value can still go, all as
//! bitmasks (`u32`, so grids up to 25x25), kept up to date on every placement and elimination.
//!
//! Values are 1..=N throughout; a mask has bit `v - 1` for value `v`. Units are numbered rows `0..N`,
//! columns `N..2N`, boxes `2N..3N`; a position mask of a unit has bit `i` for the unit's `i`-th cell
//! (a row's cells left to right, a column's top to bottom, a box's in reading order).

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::grid::{Grid, Shape};

/// A set of values or of positions in a unit, one bit each.
pub type Mask = u32;

/// One candidate: a value in a cell (the cell's row-major index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    /// The cell, as a row-major index.
    pub cell: usize,
    /// The value, 1..=N.
    pub value: u8,
}

/// Which kind of unit a unit number is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
}

/// The fixed layout of a shape: which cells make each unit and which units hold each cell. Built once
/// per shape (once per process for 9x9) and shared by every board of that shape.
#[derive(Debug)]
pub struct Geometry {
    shape: Shape,
    n: usize,
    /// `unit_cells[u * n + i]`: the `i`-th cell of unit `u`.
    unit_cells: Vec<u16>,
    /// The row, column and box unit of each cell.
    cell_units: Vec<[u16; 3]>,
    /// The cell's position within its row, column and box.
    cell_slots: Vec<[u8; 3]>,
}

impl Geometry {
    /// The layout of `shape`.
    pub fn of(shape: Shape) -> Arc<Geometry> {
        static NINE: OnceLock<Arc<Geometry>> = OnceLock::new();
        if shape == Shape::NINE {
            return NINE
                .get_or_init(|| Arc::new(Geometry::build(shape)))
                .clone();
        }
        Arc::new(Geometry::build(shape))
    }

    fn build(shape: Shape) -> Geometry {
        let n = shape.side();
        let (br, bc) = (shape.box_rows(), shape.box_cols());
        let mut unit_cells = vec![0u16; 3 * n * n];
        let mut cell_units = vec![[0u16; 3]; n * n];
        let mut cell_slots = vec![[0u8; 3]; n * n];
        for (index, (units, slots)) in cell_units.iter_mut().zip(&mut cell_slots).enumerate() {
            let (r, c) = (index / n, index % n);
            let b = (r / br) * br + c / bc;
            let slot = (r % br) * bc + c % bc;
            *units = [r as u16, (n + c) as u16, (2 * n + b) as u16];
            *slots = [c as u8, r as u8, slot as u8];
            for (&u, &s) in units.iter().zip(slots.iter()) {
                unit_cells[usize::from(u) * n + usize::from(s)] = index as u16;
            }
        }
        Geometry {
            shape,
            n,
            unit_cells,
            cell_units,
            cell_slots,
        }
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// N: values, cells per unit, units of each kind.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The `slot`-th cell of unit `unit`.
    #[inline]
    pub fn cell_at(&self, unit: usize, slot: usize) -> usize {
        usize::from(self.unit_cells[unit * self.n + slot])
    }

    /// The cells of `unit`, in slot order.
    #[inline]
    pub fn cells_of(&self, unit: usize) -> impl Iterator<Item = usize> + '_ {
        self.unit_cells[unit * self.n..(unit + 1) * self.n]
            .iter()
            .map(|&c| usize::from(c))
    }

    /// The row, column and box units of `cell`.
    #[inline]
    pub fn units_of(&self, cell: usize) -> [usize; 3] {
        self.cell_units[cell].map(usize::from)
    }

    /// `cell`'s slot in its row, column and box.
    #[inline]
    pub fn slots_of(&self, cell: usize) -> [usize; 3] {
        self.cell_slots[cell].map(usize::from)
    }

    /// The slot of `cell` within `unit`, which must hold it.
    #[inline]
    pub fn slot_in(&self, cell: usize, unit: usize) -> usize {
        self.slots_of(cell)[self.kind(unit) as usize]
    }

    /// The kind of unit `unit` is.
    #[inline]
    pub fn kind(&self, unit: usize) -> UnitKind {
        match unit / self.n {
            0 => UnitKind::Row,
            1 => UnitKind::Column,
            _ => UnitKind::Box,
        }
    }

    /// True when two different cells share a row, column or box.
    #[inline]
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let (ua, ub) = (self.cell_units[a], self.cell_units[b]);
        a != b && (ua[0] == ub[0] || ua[1] == ub[1] || ua[2] == ub[2])
    }

    /// The cells of `unit` whose slots are in `positions`.
    pub fn cells_in(&self, unit: usize, positions: Mask) -> impl Iterator<Item = usize> + '_ {
        bits(positions).map(move |slot| self.cell_at(unit, slot))
    }

    /// `r3c5`, counting from 1.
    pub fn name(&self, cell: usize) -> CellName {
        CellName {
            row: cell / self.n,
            col: cell % self.n,
        }
    }

    /// `row 3`, `column 5`, `box 2`, counting from 1.
    pub fn unit_name(&self, unit: usize) -> String {
        let kind = match self.kind(unit) {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        };
        format!("{kind} {}", unit % self.n + 1)
    }
}

/// A cell's name for explanations: `r3c5`, counting from 1.
#[derive(Clone, Copy, Debug)]
pub struct CellName {
    row: usize,
    col: usize,
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// The set bits of a mask, lowest first, as bit numbers.
#[inline]
pub fn bits(mut mask: Mask) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            bit
        })
    })
}

/// The values of a value mask, lowest first.
#[inline]
pub fn values(mask: Mask) -> impl Iterator<Item = u8> {
    bits(mask).map(|b| b as u8 + 1)
}

/// The mask bit of value `v`.
#[inline]
pub fn bit(v: u8) -> Mask {
    1 << (v - 1)
}

/// The board: values, candidates and position masks, always consistent with each other.
#[derive(Clone, Debug)]
pub struct Board {
    geo: Arc<Geometry>,
    values: Vec<u8>,
    cands: Vec<Mask>,
    /// `pos[u * n + v - 1]`: the slots of unit `u` where `v` is still a candidate.
    pos: Vec<Mask>,
    /// Values placed in each unit.
    placed: Vec<Mask>,
    empty: usize,
}

impl Board {
    /// The board of `grid`, every blank holding every value its peers allow; `None` when two givens
    /// clash.
    pub fn new(grid: &Grid) -> Option<Board> {
        let geo = Geometry::of(grid.shape());
        let n = geo.n;
        let all: Mask = if n == 32 { !0 } else { (1 << n) - 1 };
        let mut board = Board {
            values: vec![0; n * n],
            cands: vec![all; n * n],
            pos: vec![all; 3 * n * n],
            placed: vec![0; 3 * n],
            empty: n * n,
            geo,
        };
        for (cell, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                if board.cands[cell] & bit(v) == 0 {
                    return None;
                }
                board.place(cell, v);
            }
        }
        Some(board)
    }

    /// The layout.
    #[inline]
    pub fn geo(&self) -> &Geometry {
        &self.geo
    }

    /// N.
    #[inline]
    pub fn n(&self) -> usize {
        self.geo.n
    }

    /// The value in `cell`, 0 when blank.
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell` (none once it holds a value).
    #[inline]
    pub fn cands(&self, cell: usize) -> Mask {
        self.cands[cell]
    }

    /// The slots of `unit` where `v` is still a candidate.
    #[inline]
    pub fn positions(&self, unit: usize, v: u8) -> Mask {
        self.pos[unit * self.geo.n + usize::from(v) - 1]
    }

    /// The values placed in `unit`.
    #[inline]
    pub fn placed(&self, unit: usize) -> Mask {
        self.placed[unit]
    }

    /// Blank cells left.
    #[inline]
    pub fn empty(&self) -> usize {
        self.empty
    }

    /// True once every cell holds a value.
    pub fn is_solved(&self) -> bool {
        self.empty == 0
    }

    /// The board's values as a grid.
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.geo.shape, self.values.clone())
            .unwrap_or_else(|| Grid::empty(self.geo.shape))
    }

    /// True when `cell` holds the candidate `v`.
    #[inline]
    pub fn has(&self, cell: usize, v: u8) -> bool {
        self.cands[cell] & bit(v) != 0
    }

    /// Removes candidate `v` from `cell`; false if it was not there.
    #[inline]
    pub fn eliminate(&mut self, cell: usize, v: u8) -> bool {
        let b = bit(v);
        if self.cands[cell] & b == 0 {
            return false;
        }
        self.cands[cell] &= !b;
        let n = self.geo.n;
        let units = self.geo.cell_units[cell];
        let slots = self.geo.cell_slots[cell];
        for k in 0..3 {
            self.pos[usize::from(units[k]) * n + usize::from(v) - 1] &= !(1 << slots[k]);
        }
        true
    }

    /// Puts `v` in the blank `cell` and removes `v` from its peers.
    pub fn place(&mut self, cell: usize, v: u8) {
        if self.values[cell] != 0 {
            return;
        }
        for other in values(self.cands[cell]) {
            self.eliminate(cell, other);
        }
        self.values[cell] = v;
        self.empty -= 1;
        let n = self.geo.n;
        let units = self.geo.cell_units[cell];
        for unit in units.map(usize::from) {
            self.placed[unit] |= bit(v);
            // Only the cells that still hold `v` (the unit's positions of `v`, kept in step with
            // the candidates by `eliminate`) need visiting.
            let mut peers = self.pos[unit * n + usize::from(v) - 1];
            while peers != 0 {
                let slot = peers.trailing_zeros() as usize;
                peers &= peers - 1;
                let peer = usize::from(self.geo.unit_cells[unit * n + slot]);
                self.eliminate(peer, v);
            }
        }
    }

    /// Applies a step's eliminations and placements.
    pub fn apply(&mut self, placements: &[Candidate], eliminations: &[Candidate]) {
        for c in eliminations {
            self.eliminate(c.cell, c.value);
        }
        for c in placements {
            self.place(c.cell, c.value);
        }
    }

    /// True when the board cannot be completed: a blank cell without candidates, or a unit where a
    /// value not yet placed has no cell left.
    pub fn broken(&self) -> bool {
        let n = self.geo.n;
        if (0..n * n).any(|c| self.values[c] == 0 && self.cands[c] == 0) {
            return true;
        }
        (0..3 * n).any(|u| {
            let missing = !self.placed[u] & self.all();
            values(missing).any(|v| self.positions(u, v) == 0)
        })
    }

    /// Every value.
    #[inline]
    pub fn all(&self) -> Mask {
        if self.geo.n == 32 {
            !0
        } else {
            (1 << self.geo.n) - 1
        }
    }
}
