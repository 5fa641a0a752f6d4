//! The candidate grid the logic engine works on: for each cell its value or its candidates, and for
//! each unit (row, column, box, and a variant's extra units) and value the cells of that unit where
//! the value can still go, all as bitmasks (`u32`, so grids up to 25x25), kept up to date on every
//! placement and elimination.
//!
//! Values are 1..=N throughout; a mask has bit `v - 1` for value `v`. Units are numbered rows `0..N`,
//! columns `N..2N`, boxes (or a jigsaw's regions) `2N..3N`, then extra units; a position mask of a
//! unit has bit `i` for the unit's `i`-th cell (a row's cells left to right, a column's top to bottom,
//! a box's in reading order).

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
    /// A box, or a jigsaw's region.
    Box,
    /// A unit a variant adds: a diagonal, an extra region, a disjoint group.
    Extra,
}

/// A unit beyond rows, columns and regions, as a variant adds it: its name in explanations and its
/// cells, which hold different values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtraUnit {
    /// How explanations name it (`the main diagonal`, `extra region 2`).
    pub name: String,
    /// Its cells, row-major indices.
    pub cells: Vec<usize>,
}

/// The fixed layout of a grid: which cells make each unit and which units hold each cell. Built once
/// per shape (once per process for 9x9) and shared by every board of that shape; a variant's layout
/// (a jigsaw's regions, extra units) is built once per puzzle.
///
/// Units are numbered rows `0..N`, columns `N..2N`, regions `2N..3N`, then the extra units that
/// hold N cells, then those that hold fewer. The first kinds are houses (each value once); the
/// last only keep their values different.
#[derive(Debug)]
pub struct Geometry {
    shape: Shape,
    n: usize,
    /// `unit_cells[u * n + i]`: the `i`-th cell of unit `u`.
    unit_cells: Vec<u16>,
    /// The cells each unit holds: N, but fewer for some extra units.
    unit_len: Vec<u8>,
    /// Units `0..houses` hold every value once.
    houses: usize,
    /// The row, column and region unit of each cell.
    cell_units: Vec<[u16; 3]>,
    /// The cell's position within its row, column and region.
    cell_slots: Vec<[u8; 3]>,
    /// `extras[extra_start[c]..extra_start[c + 1]]`: the extra units holding cell `c`, with the
    /// cell's slot in each; empty when there are none.
    extra_start: Vec<u32>,
    extras: Vec<(u16, u8)>,
    /// The names of the extra units, from unit `3N` on.
    extra_names: Vec<String>,
    /// `meets[a * 3N + b]`: the slots of row, column or region `a` whose cells lie in `b`.
    meets: Vec<Mask>,
    /// `along[(u * 3 + kind) * n + i]`: the meet of row, column or region `u` with the `kind` unit
    /// (0 row, 1 column, 2 region) of its `i`-th cell.
    along: Vec<Mask>,
    /// The regions are a jigsaw's, not the shape's boxes.
    jigsaw: bool,
}

impl Geometry {
    /// The layout of `shape`.
    pub fn of(shape: Shape) -> Arc<Geometry> {
        static NINE: OnceLock<Arc<Geometry>> = OnceLock::new();
        if shape == Shape::NINE {
            return NINE
                .get_or_init(|| Arc::new(Geometry::build(shape, None, Vec::new())))
                .clone();
        }
        Arc::new(Geometry::build(shape, None, Vec::new()))
    }

    /// The layout of a variant on `shape`: `regions` (each cell's region, from 0; `None` for the
    /// boxes) and `extra` units. `None` unless the regions are N regions of N cells and every extra
    /// unit holds at most N different cells on the grid. Extra units of one cell, or with the cells
    /// of a unit already there, add nothing and are left out.
    pub fn with_units(
        shape: Shape,
        regions: Option<&[u8]>,
        extra: Vec<ExtraUnit>,
    ) -> Option<Arc<Geometry>> {
        let (n, cells) = (shape.side(), shape.cells());
        if let Some(regions) = regions {
            let mut sizes = vec![0usize; n];
            for &r in regions {
                *sizes.get_mut(usize::from(r))? += 1;
            }
            if regions.len() != cells || sizes.iter().any(|&s| s != n) {
                return None;
            }
        }
        for unit in &extra {
            let mut seen = vec![false; cells];
            for &c in &unit.cells {
                if std::mem::replace(seen.get_mut(c)?, true) {
                    return None;
                }
            }
            if unit.cells.len() > n {
                return None;
            }
        }
        Some(Arc::new(Geometry::build(shape, regions, extra)))
    }

    fn build(shape: Shape, regions: Option<&[u8]>, extra: Vec<ExtraUnit>) -> Geometry {
        let n = shape.side();
        let (br, bc) = (shape.box_rows(), shape.box_cols());
        let mut unit_cells = vec![0u16; 3 * n * n];
        let mut cell_units = vec![[0u16; 3]; n * n];
        let mut cell_slots = vec![[0u8; 3]; n * n];
        let mut region_fill = vec![0usize; n];
        for (index, (units, slots)) in cell_units.iter_mut().zip(&mut cell_slots).enumerate() {
            let (r, c) = (index / n, index % n);
            // Cells are visited in reading order, so a region's slots follow it.
            let (b, slot) = match regions {
                Some(regions) => {
                    let b = usize::from(regions[index]);
                    region_fill[b] += 1;
                    (b, region_fill[b] - 1)
                }
                None => ((r / br) * br + c / bc, (r % br) * bc + c % bc),
            };
            *units = [r as u16, (n + c) as u16, (2 * n + b) as u16];
            *slots = [c as u8, r as u8, slot as u8];
            for (&u, &s) in units.iter().zip(slots.iter()) {
                unit_cells[usize::from(u) * n + usize::from(s)] = index as u16;
            }
        }
        let mut meets = vec![0 as Mask; 9 * n * n];
        for (units, slots) in cell_units.iter().zip(&cell_slots) {
            for (&a, &slot) in units.iter().zip(slots) {
                for &b in units {
                    meets[usize::from(a) * 3 * n + usize::from(b)] |= 1 << slot;
                }
            }
        }
        let mut along = Vec::with_capacity(9 * n * n);
        for unit in 0..3 * n {
            for kind in 0..3 {
                along.extend(unit_cells[unit * n..][..n].iter().map(|&cell| {
                    meets[unit * 3 * n + usize::from(cell_units[usize::from(cell)][kind])]
                }));
            }
        }
        let mut unit_len = vec![n as u8; 3 * n];
        // Extra units: houses first, each set of cells once, none already a unit.
        let mut extra: Vec<ExtraUnit> = extra.into_iter().filter(|u| u.cells.len() > 1).collect();
        extra.sort_by_key(|u| u.cells.len() != n);
        // The cells of every unit so far, sorted, to leave out an extra unit already there.
        let mut sets: Vec<Vec<usize>> = (0..if extra.is_empty() { 0 } else { 3 * n })
            .map(|u| {
                let mut cells: Vec<usize> = unit_cells[u * n..(u + 1) * n]
                    .iter()
                    .map(|&c| usize::from(c))
                    .collect();
                cells.sort_unstable();
                cells
            })
            .collect();
        let mut houses = 3 * n;
        let mut per_cell: Vec<Vec<(u16, u8)>> = vec![Vec::new(); n * n];
        let mut extra_names = Vec::new();
        for unit in extra {
            let mut sorted = unit.cells.clone();
            sorted.sort_unstable();
            if sets.contains(&sorted) {
                continue;
            }
            let number = unit_len.len();
            for (slot, &cell) in unit.cells.iter().enumerate() {
                per_cell[cell].push((number as u16, slot as u8));
            }
            unit_cells.extend(unit.cells.iter().map(|&c| c as u16));
            unit_cells.resize((number + 1) * n, 0);
            // At most N cells.
            unit_len.push(unit.cells.len() as u8);
            if unit.cells.len() == n {
                houses += 1;
            }
            extra_names.push(unit.name);
            sets.push(sorted);
        }
        let (mut extra_start, mut extras) = (Vec::new(), Vec::new());
        if !extra_names.is_empty() {
            extra_start.push(0);
            for units in per_cell {
                extras.extend(units);
                extra_start.push(extras.len() as u32);
            }
        }
        let jigsaw = regions.is_some_and(|regions| {
            (0..n * n).any(|i| {
                let (r, c) = (i / n, i % n);
                usize::from(regions[i]) != (r / br) * br + c / bc
            })
        });
        Geometry {
            shape,
            n,
            unit_cells,
            unit_len,
            houses,
            cell_units,
            cell_slots,
            extra_start,
            extras,
            extra_names,
            meets,
            along,
            jigsaw,
        }
    }

    /// The slots of `a` whose cells lie in `b`, both rows, columns or regions (units below
    /// `3N`): none when they do not cross.
    #[inline]
    pub fn meet(&self, a: usize, b: usize) -> Mask {
        self.meets[a * 3 * self.n + b]
    }

    /// The slots of `unit` (a row, column or region) whose cells lie in the row (`kind` 0), column
    /// (1) or region (2) of its `slot`-th cell: [`Geometry::meet`] without looking up that unit.
    #[inline]
    pub fn along(&self, unit: usize, kind: usize, slot: usize) -> Mask {
        self.along[(unit * 3 + kind) * self.n + slot]
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// N: values, cells per unit, units of each kind.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Every unit: rows, columns, regions, then any extra units.
    #[inline]
    pub fn units(&self) -> std::ops::Range<usize> {
        0..self.unit_len.len()
    }

    /// The units that hold every value once: rows, columns, regions and extra units of N cells.
    #[inline]
    pub fn houses(&self) -> std::ops::Range<usize> {
        0..self.houses
    }

    /// The extra units that hold N cells, each value once.
    #[inline]
    pub fn extra_houses(&self) -> std::ops::Range<usize> {
        3 * self.n..self.houses
    }

    /// True when a variant adds units beyond rows, columns and regions. The uniqueness techniques
    /// (unique rectangles, BUG) rest on swaps that such units can forbid, so they stand aside.
    #[inline]
    pub fn has_extra_units(&self) -> bool {
        !self.extra_names.is_empty()
    }

    /// True when unit `unit` holds every value once.
    #[inline]
    pub fn is_house(&self, unit: usize) -> bool {
        unit < self.houses
    }

    /// The `slot`-th cell of unit `unit`.
    #[inline]
    pub fn cell_at(&self, unit: usize, slot: usize) -> usize {
        usize::from(self.unit_cells[unit * self.n + slot])
    }

    /// The cells of `unit`, in slot order.
    #[inline]
    pub fn cells_of(&self, unit: usize) -> impl Iterator<Item = usize> + '_ {
        let len = usize::from(self.unit_len[unit]);
        self.unit_cells[unit * self.n..unit * self.n + len]
            .iter()
            .map(|&c| usize::from(c))
    }

    /// The slots of `unit`, as a position mask.
    #[inline]
    pub fn full_positions(&self, unit: usize) -> Mask {
        (1 << self.unit_len[unit]) - 1
    }

    /// The row, column and region units of `cell`.
    #[inline]
    pub fn units_of(&self, cell: usize) -> [usize; 3] {
        self.cell_units[cell].map(usize::from)
    }

    /// The extra units holding `cell`, with its slot in each.
    #[inline]
    pub fn extras_of(&self, cell: usize) -> &[(u16, u8)] {
        if self.extras.is_empty() {
            return &[];
        }
        match self.extra_start.get(cell..cell + 2) {
            Some(&[from, to]) => &self.extras[from as usize..to as usize],
            _ => &[],
        }
    }

    /// Every unit holding `cell`: its region, row and column, then its extra units.
    #[inline]
    pub fn all_units_of(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let [row, col, region] = self.units_of(cell);
        [region, row, col]
            .into_iter()
            .chain(self.extras_of(cell).iter().map(|&(u, _)| usize::from(u)))
    }

    /// The houses holding `cell`: its region, row and column, then its extra units of N cells.
    #[inline]
    pub fn houses_of(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.house_slots(cell).map(|(unit, _)| unit)
    }

    /// [`Geometry::houses_of`], each house with `cell`'s slot in it.
    #[inline]
    pub fn house_slots(&self, cell: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let [row, col, region] = self.units_of(cell);
        let [row_slot, col_slot, region_slot] = self.slots_of(cell);
        let extras = self.extras_of(cell).iter();
        [(region, region_slot), (row, row_slot), (col, col_slot)]
            .into_iter()
            .chain(extras.map(|&(unit, slot)| (usize::from(unit), usize::from(slot))))
            .filter(|&(unit, _)| self.is_house(unit))
    }

    /// `cell`'s slot in its row, column and region.
    #[inline]
    pub fn slots_of(&self, cell: usize) -> [usize; 3] {
        self.cell_slots[cell].map(usize::from)
    }

    /// The slot of `cell` within `unit`, which must hold it.
    #[inline]
    pub fn slot_in(&self, cell: usize, unit: usize) -> usize {
        match self.kind(unit) {
            UnitKind::Extra => self
                .extras_of(cell)
                .iter()
                .find(|&&(u, _)| usize::from(u) == unit)
                .map_or(0, |&(_, slot)| usize::from(slot)),
            kind => self.slots_of(cell)[kind as usize],
        }
    }

    /// True when `unit` holds `cell`.
    #[inline]
    pub fn holds(&self, unit: usize, cell: usize) -> bool {
        match self.kind(unit) {
            UnitKind::Extra => self
                .extras_of(cell)
                .iter()
                .any(|&(u, _)| usize::from(u) == unit),
            kind => self.units_of(cell)[kind as usize] == unit,
        }
    }

    /// The kind of unit `unit` is.
    #[inline]
    pub fn kind(&self, unit: usize) -> UnitKind {
        // Compares, not a division: this is asked in the chains' innermost loops.
        if unit < self.n {
            UnitKind::Row
        } else if unit < 2 * self.n {
            UnitKind::Column
        } else if unit < 3 * self.n {
            UnitKind::Box
        } else {
            UnitKind::Extra
        }
    }

    /// True when two different cells share a unit.
    #[inline]
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let (ua, ub) = (self.cell_units[a], self.cell_units[b]);
        a != b
            && (ua[0] == ub[0]
                || ua[1] == ub[1]
                || ua[2] == ub[2]
                || self
                    .extras_of(a)
                    .iter()
                    .any(|&(u, _)| self.extras_of(b).iter().any(|&(v, _)| u == v)))
    }

    /// The first unit in [`Geometry::all_units_of`] order that holds both cells.
    pub fn first_shared_unit(&self, a: usize, b: usize) -> Option<usize> {
        let ([row, col, region], [row_b, col_b, region_b]) =
            (self.cell_units[a], self.cell_units[b]);
        if region == region_b {
            Some(usize::from(region))
        } else if row == row_b {
            Some(usize::from(row))
        } else if col == col_b {
            Some(usize::from(col))
        } else {
            self.extras_of(a)
                .iter()
                .map(|&(u, _)| usize::from(u))
                .find(|&u| self.holds(u, b))
        }
    }

    /// The cells of `unit` whose slots are in `positions`.
    pub fn cells_in(&self, unit: usize, positions: Mask) -> impl Iterator<Item = usize> + '_ {
        bits(positions).map(move |slot| self.cell_at(unit, slot))
    }

    /// Whether `solution` is a full grid keeping the givens of `puzzle` with every unit's values
    /// different: the check a solution from outside is held to before grading on this layout.
    pub fn solves(&self, puzzle: &Grid, solution: &Grid) -> bool {
        let (p, s) = (puzzle.cells(), solution.cells());
        puzzle.shape() == self.shape
            && solution.shape() == self.shape
            && p.iter().zip(s).all(|(&g, &v)| v != 0 && (g == 0 || g == v))
            && self.units().all(|unit| {
                let mut seen: Mask = 0;
                self.cells_of(unit).all(|c| {
                    let b = bit(s[c]);
                    let fresh = seen & b == 0;
                    seen |= b;
                    fresh
                })
            })
    }

    /// `r3c5`, counting from 1.
    pub fn name(&self, cell: usize) -> CellName {
        CellName {
            row: cell / self.n,
            col: cell % self.n,
        }
    }

    /// `row 3`, `column 5`, `box 2` (`region 2` in a jigsaw), counting from 1, or an extra unit's
    /// name.
    pub fn unit_name(&self, unit: usize) -> String {
        let kind = match self.kind(unit) {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box if self.jigsaw => "region",
            UnitKind::Box => "box",
            UnitKind::Extra => return self.extra_names[unit - 3 * self.n].clone(),
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

/// Sets or clears member `at` of the bit set `set`, without a branch: the eliminations keep
/// their sets this way, and whether a member goes in or out is seldom predictable.
#[inline]
fn mark(set: &mut [u64], at: usize, member: bool) {
    let word = &mut set[at / 64];
    *word = (*word & !(1 << (at % 64))) | u64::from(member) << (at % 64);
}

/// The bit set whose members are where `members` is true.
fn set_of(members: impl ExactSizeIterator<Item = bool>) -> Vec<u64> {
    let len = members.len();
    let mut set = Vec::with_capacity(len.div_ceil(64));
    // Each word is gathered in a register and stored once.
    let mut word = 0;
    for (at, member) in members.enumerate() {
        word |= u64::from(member) << (at % 64);
        if at % 64 == 63 {
            set.push(std::mem::take(&mut word));
        }
    }
    if !len.is_multiple_of(64) {
        set.push(word);
    }
    set
}

/// The members of the bit set `set` within `range`, in order.
fn members(set: &[u64], range: std::ops::Range<usize>) -> impl Iterator<Item = usize> + '_ {
    let words = range.start / 64..range.end.div_ceil(64);
    set[words.clone()]
        .iter()
        .zip(words)
        .flat_map(|(&word, w)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let at = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    at
                })
            })
        })
        .skip_while(move |&at| at < range.start)
        .take_while(move |&at| at < range.end)
}

/// The mask bit of value `v`.
#[inline]
pub fn bit(v: u8) -> Mask {
    1 << (v - 1)
}

/// The board: values, candidates and position masks, always consistent with each other.
#[derive(Debug)]
pub struct Board {
    geo: Arc<Geometry>,
    values: Vec<u8>,
    cands: Vec<Mask>,
    /// `pos[u * n + v - 1]`: the slots of unit `u` where `v` is still a candidate.
    pos: Vec<Mask>,
    /// Values placed in each unit.
    placed: Vec<Mask>,
    /// The units with one blank cell left, as a bit set of units, so the full houses are found
    /// without a sweep.
    one_blank: Vec<u64>,
    /// The values with one place left in a unit, as a bit set indexed as `pos`, so the hidden
    /// singles are found without a sweep.
    one_place: Vec<u64>,
    empty: usize,
}

impl Board {
    /// Whether `other` is on the same layout with the same candidates in every cell.
    pub fn same_candidates(&self, other: &Board) -> bool {
        self.same_layout(other) && self.cands == other.cands
    }

    /// Whether `other` is on the same layout: the same units, cell for cell.
    pub fn same_layout(&self, other: &Board) -> bool {
        Arc::ptr_eq(&self.geo, &other.geo)
    }
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            geo: Arc::clone(&self.geo),
            values: self.values.clone(),
            cands: self.cands.clone(),
            pos: self.pos.clone(),
            placed: self.placed.clone(),
            one_blank: self.one_blank.clone(),
            one_place: self.one_place.clone(),
            empty: self.empty,
        }
    }

    /// Copies `source` into this board's buffers: the searches that copy a board for every
    /// assumption allocate nothing.
    fn clone_from(&mut self, source: &Board) {
        if !Arc::ptr_eq(&self.geo, &source.geo) {
            self.geo = Arc::clone(&source.geo);
        }
        self.values.clone_from(&source.values);
        self.cands.clone_from(&source.cands);
        self.pos.clone_from(&source.pos);
        self.placed.clone_from(&source.placed);
        self.one_blank.clone_from(&source.one_blank);
        self.one_place.clone_from(&source.one_place);
        self.empty = source.empty;
    }
}

impl Board {
    /// The board of `grid`, every blank holding every value its peers allow; `None` when two givens
    /// clash.
    pub fn new(grid: &Grid) -> Option<Board> {
        Board::on(Geometry::of(grid.shape()), grid)
    }

    /// The board of `grid` on the layout `geo` (a variant's regions and extra units), every blank
    /// holding every value its peers allow; `None` when two givens clash or the shapes differ.
    pub fn on(geo: Arc<Geometry>, grid: &Grid) -> Option<Board> {
        let n = geo.n;
        if grid.shape() != geo.shape {
            return None;
        }
        // Built in three sweeps rather than by placing each given: the values placed in each
        // unit, then each blank cell's candidates, then each unit's positions of each value
        // (every value at once, without branches).
        let all: Mask = if n == 32 { !0 } else { (1 << n) - 1 };
        let values = grid.cells().to_vec();
        let mut placed = vec![0 as Mask; geo.units().len()];
        for (cell, &v) in values.iter().enumerate().filter(|(_, v)| **v != 0) {
            for unit in geo.all_units_of(cell) {
                if placed[unit] & bit(v) != 0 {
                    return None;
                }
                placed[unit] |= bit(v);
            }
        }
        let cands: Vec<Mask> = (0..n * n)
            .map(|cell| match values[cell] {
                0 => geo.all_units_of(cell).fold(all, |c, u| c & !placed[u]),
                _ => 0,
            })
            .collect();
        let mut pos = vec![0 as Mask; geo.units().len() * n];
        for (unit, row) in pos.chunks_exact_mut(n).enumerate() {
            for (slot, cell) in geo.cells_of(unit).enumerate() {
                let (c, here) = (cands[cell], 1 << slot);
                for (v, p) in row.iter_mut().enumerate() {
                    *p |= if c & (1 << v) != 0 { here } else { 0 };
                }
            }
        }
        let one_blank = set_of(
            geo.units()
                .map(|u| usize::from(geo.unit_len[u]) == placed[u].count_ones() as usize + 1),
        );
        let one_place = set_of(pos.iter().map(|p| p.count_ones() == 1));
        Some(Board {
            empty: values.iter().filter(|&&v| v == 0).count(),
            values,
            cands,
            pos,
            placed,
            one_blank,
            one_place,
            geo,
        })
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

    /// The units with one blank cell left, in order.
    pub fn one_blank(&self) -> impl Iterator<Item = usize> + '_ {
        members(&self.one_blank, 0..self.geo.units().len())
    }

    /// The values with one place left in a unit of `units`, in order of unit then value, as
    /// `(unit, value)`: the hidden singles there.
    pub fn one_place(
        &self,
        units: std::ops::Range<usize>,
    ) -> impl Iterator<Item = (usize, u8)> + '_ {
        let n = self.geo.n;
        members(&self.one_place, units.start * n..units.end * n)
            .map(move |at| (at / n, (at % n) as u8 + 1))
    }

    /// Blank cells left in `unit`.
    #[inline]
    pub fn blanks(&self, unit: usize) -> usize {
        usize::from(self.geo.unit_len[unit]) - self.placed[unit].count_ones() as usize
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

    /// True once every cell holds a value and no unit holds one twice: the board is then a
    /// solution of its givens, as cells are only ever filled, never changed.
    pub fn is_solution(&self) -> bool {
        self.empty == 0
            && self
                .geo
                .units()
                .all(|u| self.placed[u].count_ones() == u32::from(self.geo.unit_len[u]))
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
            self.take_place(usize::from(units[k]) * n + usize::from(v) - 1, slots[k]);
        }
        for i in 0..self.geo.extras_of(cell).len() {
            let (unit, slot) = self.geo.extras_of(cell)[i];
            self.take_place(usize::from(unit) * n + usize::from(v) - 1, slot);
        }
        true
    }

    /// Takes `slot` from the positions `pos[at]`, keeping `one_place` in step.
    #[inline]
    fn take_place(&mut self, at: usize, slot: u8) {
        let left = self.pos[at] & !(1 << slot);
        self.pos[at] = left;
        mark(&mut self.one_place, at, left.count_ones() == 1);
    }

    /// Puts `v` in the blank `cell` and removes `v` from its peers; false if `cell` was not blank.
    pub fn place(&mut self, cell: usize, v: u8) -> bool {
        if self.values[cell] != 0 {
            return false;
        }
        for other in values(self.cands[cell]) {
            self.eliminate(cell, other);
        }
        self.values[cell] = v;
        self.empty -= 1;
        for unit in self.geo.cell_units[cell] {
            self.take_from_unit(usize::from(unit), v);
        }
        for i in 0..self.geo.extras_of(cell).len() {
            let unit = self.geo.extras_of(cell)[i].0;
            self.take_from_unit(usize::from(unit), v);
        }
        true
    }

    /// Marks `v` placed in `unit` and removes it from the unit's other cells.
    #[inline]
    fn take_from_unit(&mut self, unit: usize, v: u8) {
        let n = self.geo.n;
        self.placed[unit] |= bit(v);
        let blanks = self.blanks(unit);
        mark(&mut self.one_blank, unit, blanks == 1);
        // Only the cells that still hold `v` (the unit's positions of `v`, kept in step with the
        // candidates by `eliminate`) need visiting.
        let mut peers = self.pos[unit * n + usize::from(v) - 1];
        while peers != 0 {
            let slot = peers.trailing_zeros() as usize;
            peers &= peers - 1;
            let peer = usize::from(self.geo.unit_cells[unit * n + slot]);
            self.eliminate(peer, v);
        }
    }

    /// Applies a step's eliminations and placements; false if they changed nothing.
    pub fn apply(&mut self, placements: &[Candidate], eliminations: &[Candidate]) -> bool {
        let mut changed = false;
        for c in eliminations {
            changed |= self.eliminate(c.cell, c.value);
        }
        for c in placements {
            changed |= self.place(c.cell, c.value);
        }
        changed
    }

    /// True when the board cannot be completed: a blank cell without candidates, or a house where a
    /// value not yet placed has no cell left.
    pub fn broken(&self) -> bool {
        let n = self.geo.n;
        if (0..n * n).any(|c| self.values[c] == 0 && self.cands[c] == 0) {
            return true;
        }
        self.geo.houses().any(|u| {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The board as it is built by placing each given in turn on an empty board.
    fn placed_one_by_one(geo: &Arc<Geometry>, grid: &Grid) -> Option<Board> {
        let mut board = Board::on(geo.clone(), &Grid::empty(grid.shape()))?;
        for (cell, &v) in grid.cells().iter().enumerate().filter(|(_, v)| **v != 0) {
            if !board.has(cell, v) {
                return None;
            }
            board.place(cell, v);
        }
        Some(board)
    }

    #[allow(clippy::type_complexity)]
    fn parts(board: &Board) -> (&[u8], &[Mask], &[Mask], &[Mask], &[u64], &[u64], usize) {
        (
            &board.values,
            &board.cands,
            &board.pos,
            &board.placed,
            &board.one_blank,
            &board.one_place,
            board.empty,
        )
    }

    #[test]
    fn a_full_board_is_a_solution_only_without_a_repeat() {
        let text =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut cells: Vec<u8> = text.bytes().map(|b| b - b'0').collect();
        let solved = Grid::from_cells(Shape::NINE, cells.clone()).expect("81 cells");
        assert!(Board::new(&solved).expect("a board").is_solution());
        cells[80] = 0;
        let mut board =
            Board::new(&Grid::from_cells(Shape::NINE, cells).expect("81 cells")).expect("a board");
        assert!(!board.is_solution());
        // 9 belongs there; 8 is already in the last row, column and box.
        assert!(board.place(80, 8));
        assert!(board.is_solved() && !board.is_solution());
    }

    #[test]
    fn a_board_is_what_placing_its_givens_one_by_one_makes() {
        let nine = Shape::NINE;
        let diagonal = ExtraUnit {
            name: "the main diagonal".into(),
            cells: (0..9).map(|i| i * 10).collect(),
        };
        let cage = ExtraUnit {
            name: "a cage".into(),
            cells: vec![2, 3, 12],
        };
        let layouts = [
            Geometry::of(nine),
            Geometry::with_units(nine, None, vec![diagonal, cage]).expect("a layout"),
        ];
        let puzzles = [
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            ".....8.1...13..958...7....371......9.9.....3....92...4.3...7....59..1...4...6.3..",
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
            // Two 5s in the first row: no board.
            "55...............................................................................",
            // 1s on the diagonal and in the cage: a board on the plain layout only.
            "1.......................................1........................................",
            "..1.........1....................................................................",
        ];
        let mut boards = 0;
        for geo in &layouts {
            for text in puzzles {
                let cells = text.bytes().map(|b| b.saturating_sub(b'0') % 10).collect();
                let grid = Grid::from_cells(nine, cells).expect("81 cells");
                let bulk = Board::on(geo.clone(), &grid);
                let one_by_one = placed_one_by_one(geo, &grid);
                assert_eq!(bulk.is_some(), one_by_one.is_some(), "{text}");
                if let (Some(bulk), Some(one_by_one)) = (bulk, one_by_one) {
                    assert_eq!(parts(&bulk), parts(&one_by_one), "{text}");
                    boards += 1;
                }
            }
        }
        // Two puzzles on both layouts; Easter Monster (its diagonal repeats values) and the last
        // two on the plain one only.
        assert_eq!(boards, 7);
    }

    #[test]
    fn along_is_the_meet_with_the_unit_through_the_slot() {
        let six = Shape::new(2, 3).expect("6x6");
        // A 4x4 jigsaw, none of whose regions is a box.
        let regions = [0, 0, 0, 1, 2, 0, 1, 1, 2, 3, 3, 1, 2, 2, 3, 3];
        let jigsaw = Geometry::with_units(Shape::new(2, 2).expect("4x4"), Some(&regions), vec![])
            .expect("a layout");
        for geo in [Geometry::of(Shape::NINE), Geometry::of(six), jigsaw] {
            for unit in 0..3 * geo.n() {
                for slot in 0..geo.n() {
                    let units = geo.units_of(geo.cell_at(unit, slot));
                    for (kind, &through) in units.iter().enumerate() {
                        assert_eq!(geo.along(unit, kind, slot), geo.meet(unit, through));
                    }
                }
            }
        }
    }
}
