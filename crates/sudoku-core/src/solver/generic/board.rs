//! One state of the board and the deductions on it: naked and hidden singles, driven by what
//! changed, and locked candidates.
//!
//! Besides each cell's candidates, a board keeps each value's places in each unit as a bitset, updated
//! on every removal. A hidden single is then noticed the moment a value's places in a unit drop to
//! one, so propagating a placement costs what it changes, not a scan of every unit; the places also
//! name the two-way choices and the fewest-places branch at once. Where the search probes, a value
//! whose places in a unit come to fit in one line of a box (or one box of a line) is noticed the
//! same way and followed up at once (locked candidates inside every probe).

use super::matching::{NONE, filter_fast, permutation};
use super::tables::Tables;
use super::{Mask, PLACED};
use crate::grid::Shape;

/// Candidates and places: what a guess or a probe copies.
#[derive(Clone)]
pub(super) struct Board {
    /// Per cell, its candidate values (bit `v - 1` for `v`), with [`PLACED`] once decided.
    pub(super) cand: Vec<Mask>,
    /// Per unit and value (`unit * side + v - 1`), the positions in the unit (bit `i` for its `i`-th
    /// cell) where the value is still a candidate, decided cells included.
    pub(super) places: Vec<Mask>,
}

impl Board {
    /// The empty board of `tables`' shape: every value possible everywhere.
    pub(super) fn new(tables: &Tables) -> Board {
        let side = tables.shape.side();
        let all: Mask = (1 << side) - 1;
        Board {
            cand: vec![all; tables.shape.cells()],
            places: vec![all; 3 * side * side],
        }
    }

    /// Becomes a copy of `other`, without allocating.
    pub(super) fn copy_from(&mut self, other: &Board) {
        self.cand.copy_from_slice(&other.cand);
        self.places.copy_from_slice(&other.places);
    }

    /// Whether every cell is decided.
    pub(super) fn is_full(&self) -> bool {
        self.cand.iter().all(|&m| m & PLACED != 0)
    }

    /// The decided cells' values, 0 where undecided.
    pub(super) fn values(&self, all: Mask) -> Vec<u8> {
        self.cand
            .iter()
            .map(|&mask| match mask & all {
                bits if mask & PLACED != 0 => bits.trailing_zeros() as u8 + 1,
                _ => 0,
            })
            .collect()
    }
}

/// Deductions on a board: the queues of what is decided but not yet followed up.
pub(super) struct Propagator<'t> {
    pub(super) tables: &'t Tables,
    pub(super) all: Mask,
    side: usize,
    /// Cells placed but not yet removed from their peers.
    naked: Vec<u16>,
    /// `unit * side + value index` whose places in the unit dropped to one.
    hidden: Vec<u32>,
    /// Set by every removal, so a pass of locked candidates knows whether it did anything.
    pub(super) changed: bool,
    /// Candidates removed, counted so a probe knows how far its placement narrowed the board.
    pub(super) removed: u32,
    /// Per exact-cover constraint (each cell, then each `unit * side + value index`), one more than
    /// the times propagation failed there in this search: a cell left with no candidate, a value
    /// left with no place in a unit (failed probes included). When no two-way choice was probed,
    /// the branch prefers the constraints that fail often (conflict-directed, as dom/wdeg), where a
    /// guess is refuted soonest.
    pub(super) weights: Vec<u32>,
    /// Whether [`Propagator::singles`] also follows locked candidates as they appear: a value whose
    /// places in a unit come to fit where it meets another unit leaves the rest of that other unit.
    /// Worth it where the search probes (each probe then sees further), not on small grids.
    pub(super) locking: bool,
    /// Whether [`Propagator::propagate`] (at every node, not inside probes) also runs the
    /// all-different reasoning of `matching` on every unit, once the cheaper rules are done.
    pub(super) matching: bool,
    /// The candidates of a board on which `matchings` found nothing to remove in any unit: a unit
    /// whose cells still hold exactly these is skipped (found by one comparison of the boards,
    /// eight cells at a time; marking changed units on every removal instead cost 5 % on 6x6
    /// generation, which never matches).
    certified: Vec<Mask>,
    /// Per unit, its last perfect matching of values to positions: where the next one starts.
    mates: Vec<[u8; Shape::MAX_SIDE]>,
    /// `slot | group << 31` whose places in the unit came to fit in that group (see `Tables::groups`).
    locked: Vec<u32>,
}

impl<'t> Propagator<'t> {
    pub(super) fn new(tables: &'t Tables) -> Propagator<'t> {
        let side = tables.shape.side();
        Propagator {
            tables,
            all: (1 << side) - 1,
            side,
            naked: Vec::with_capacity(tables.shape.cells()),
            hidden: Vec::with_capacity(3 * side * side),
            changed: false,
            removed: 0,
            weights: vec![1; tables.shape.cells() + 3 * side * side],
            locking: false,
            matching: false,
            certified: Vec::new(),
            mates: Vec::new(),
            locked: Vec::with_capacity(3 * side * side),
        }
    }

    /// The constraint at cell `cell` failed: bumps its weight.
    #[cold]
    fn cell_failed(&mut self, cell: usize) {
        self.weights[cell] = self.weights[cell].saturating_add(1);
    }

    /// The constraint of the value at `slot` (`unit * side + value index`) failed: bumps its weight.
    #[cold]
    fn slot_failed(&mut self, slot: usize) {
        let cells = self.weights.len() - 3 * self.side * self.side;
        self.weights[cells + slot] = self.weights[cells + slot].saturating_add(1);
    }

    /// Forgets pending work: the next deductions start on a board of their own.
    pub(super) fn reset(&mut self) {
        self.naked.clear();
        self.hidden.clear();
        self.locked.clear();
        self.changed = false;
        self.removed = 0;
    }

    /// Takes the values `gone` of `cell` out of its units' places; false when a value is left with
    /// no place in a unit.
    #[inline]
    fn unplace(&mut self, board: &mut Board, cell: usize, gone: Mask) -> bool {
        for (kind, &(unit, at)) in self.tables.homes[cell].iter().enumerate() {
            let base = usize::from(unit) * self.side;
            let mut bits = gone;
            while bits != 0 {
                let v = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let places = &mut board.places[base + v];
                *places &= !(1 << at);
                // At most one place left (no `count_ones`: without a CPU-specific build it is no
                // single instruction, and this is the hottest line of the search).
                if *places & places.wrapping_sub(1) == 0 {
                    if *places == 0 {
                        self.slot_failed(base + v);
                        return false;
                    }
                    self.hidden.push((base + v) as u32);
                } else if self.locking {
                    // Usually the places still fit no group: a look-up settles it without a call.
                    let now = *places;
                    let groups =
                        self.tables.groups[kind * self.side + now.trailing_zeros() as usize];
                    if now & !groups[0] == 0 || (groups[1] != 0 && now & !groups[1] == 0) {
                        self.lock_check(kind, at, base + v, now);
                    }
                }
            }
        }
        true
    }

    /// After position `at` left the places `now` (two or more) of `slot` in a unit of `kind` (0 a
    /// row, 1 a column, 2 a box): queues the value as locked for each group its places have just
    /// come to fit in.
    #[inline(never)]
    fn lock_check(&mut self, kind: usize, at: u8, slot: usize, now: Mask) {
        let before = now | 1 << at;
        let groups = self.tables.groups[kind * self.side + now.trailing_zeros() as usize];
        for (which, group) in groups.into_iter().enumerate() {
            if group != 0 && now & !group == 0 && before & !group != 0 {
                self.locked.push(slot as u32 | (which as u32) << 31);
            }
        }
    }

    /// Follows a locked value (an entry of `locked`): it leaves the cells of the other unit outside
    /// this one. False on a contradiction.
    fn follow_locked(&mut self, board: &mut Board, entry: u32) -> bool {
        let tables = self.tables;
        let slot = (entry & !(1 << 31)) as usize;
        let which = (entry >> 31) as usize;
        let places = board.places[slot];
        if places == 0 {
            self.slot_failed(slot);
            return false;
        }
        let (unit, bit) = (slot / self.side, 1 << (slot % self.side));
        let kind = unit / self.side;
        let anchor = usize::from(tables.unit(unit)[places.trailing_zeros() as usize]);
        // A line's values locked in a box leave the box; a box's locked in a line leave the line:
        // the value's places in that other unit outside where the two meet.
        let (other, group) = if kind < 2 { (2, kind) } else { (which, 0) };
        let (target, at) = tables.homes[anchor][other];
        let target = usize::from(target);
        let meet = tables.groups[other * self.side + usize::from(at)][group];
        let mut outside = board.places[target * self.side + slot % self.side] & !meet;
        let cells = tables.unit(target);
        while outside != 0 {
            let at = outside.trailing_zeros() as usize;
            outside &= outside - 1;
            if !self.eliminate(board, usize::from(cells[at]), bit) {
                return false;
            }
        }
        true
    }

    /// Places `bit` in `cell` and queues it; false when `cell` cannot hold it.
    #[inline]
    pub(super) fn place(&mut self, board: &mut Board, cell: usize, bit: Mask) -> bool {
        let old = board.cand[cell];
        if old & bit == 0 {
            self.cell_failed(cell);
            return false;
        }
        let gone = old & self.all & !bit;
        board.cand[cell] = bit | PLACED;
        self.removed += gone.count_ones();
        self.naked.push(cell as u16);
        self.unplace(board, cell, gone)
    }

    /// Removes `remove` from `cell`'s candidates, placing it when one is left; false on a
    /// contradiction.
    // Always: the hottest call of `singles`, which the compiler stopped inlining once failures
    // were counted (+35 % instructions on tough 16x16).
    #[inline(always)]
    pub(super) fn eliminate(&mut self, board: &mut Board, cell: usize, remove: Mask) -> bool {
        let old = board.cand[cell];
        let gone = old & remove & self.all;
        if gone == 0 {
            return true;
        }
        let left = old & !gone;
        board.cand[cell] = left;
        self.changed = true;
        // Nearly always one value (a peer's), counted without `count_ones`.
        self.removed += if gone & (gone - 1) == 0 {
            1
        } else {
            gone.count_ones()
        };
        if left & self.all == 0 {
            self.cell_failed(cell);
            return false;
        }
        if left & PLACED == 0 && left & (left - 1) == 0 {
            board.cand[cell] = left | PLACED;
            self.naked.push(cell as u16);
        }
        self.unplace(board, cell, gone)
    }

    /// Naked and hidden singles to a fixpoint, following up only what changed; false on a
    /// contradiction (a cell with no candidate, or a value with no place in a unit).
    pub(super) fn singles(&mut self, board: &mut Board) -> bool {
        loop {
            if let Some(cell) = self.naked.pop() {
                let cell = usize::from(cell);
                let bit = board.cand[cell] & self.all;
                let tables = self.tables;
                let peers = tables.peers(cell);
                if !peers.is_empty() {
                    for &peer in peers {
                        if !self.eliminate(board, usize::from(peer), bit) {
                            return false;
                        }
                    }
                    continue;
                }
                // Only the peers still holding the value: its places in the cell's three units
                // (a few cells, not every peer).
                let v = bit.trailing_zeros() as usize;
                for &(unit, at) in &tables.homes[cell] {
                    let cells = tables.unit(usize::from(unit));
                    let mut holders = board.places[usize::from(unit) * self.side + v] & !(1 << at);
                    while holders != 0 {
                        let i = holders.trailing_zeros() as usize;
                        holders &= holders - 1;
                        if !self.eliminate(board, usize::from(cells[i]), bit) {
                            return false;
                        }
                    }
                }
            } else if let Some(slot) = self.hidden.pop() {
                let slot = slot as usize;
                let places = board.places[slot];
                if places == 0 {
                    self.slot_failed(slot);
                    return false;
                }
                let unit = slot / self.side;
                let cell = usize::from(self.tables.unit(unit)[places.trailing_zeros() as usize]);
                // Placed already (the value's own cell, or an earlier hidden single): nothing to do.
                if board.cand[cell] & PLACED == 0
                    && !self.place(board, cell, 1 << (slot % self.side))
                {
                    return false;
                }
            } else if let Some(entry) = self.locked.pop() {
                if !self.follow_locked(board, entry) {
                    return false;
                }
            } else {
                return true;
            }
        }
    }

    /// Deduces to a fixpoint: singles, then locked candidates; false on a contradiction.
    pub(super) fn propagate(&mut self, board: &mut Board) -> bool {
        loop {
            if !self.singles(board) {
                return false;
            }
            // Following locked candidates as they appear (`locking`), singles leave none to find:
            // every value's places start full and each step into a group is queued and followed.
            let found = if self.locking {
                debug_assert_eq!(self.locked_candidates(board), Some(false));
                Some(false)
            } else {
                self.locked_candidates(board)
            };
            match found {
                None => return false,
                // A full board (the usual end on easy puzzles) has no subset left to find.
                Some(false) if !self.matching || board.is_full() => return true,
                Some(false) => match self.matchings(board) {
                    None => return false,
                    Some(false) => return true,
                    Some(true) => {}
                },
                Some(true) => {}
            }
        }
    }

    /// All-different by matching ([`super::matching`]) on every unit with a cell changed since the
    /// board was last found consistent: every naked and hidden subset at once. `Some(removed
    /// any)`, `None` on a contradiction.
    ///
    /// Run at nodes only: inside probes it costs more than it saves.
    fn matchings(&mut self, board: &mut Board) -> Option<bool> {
        self.changed = false;
        if self.mates.is_empty() {
            // Allocated on first use: searches that never match (small grids) never pay for it.
            self.mates = vec![[NONE; Shape::MAX_SIDE]; 3 * self.side];
        }
        // Only the units holding a cell changed since the board last passed with nothing to
        // remove: the others are as they were then, when every unit was found consistent.
        let touched = if self.certified.is_empty() {
            u128::MAX >> (128 - 3 * self.side)
        } else {
            changed_units(&board.cand, &self.certified, self.tables)
        };
        for unit in unit_bits(touched) {
            let mut mate = self.mates[unit];
            let consistent = self.filter_unit(board, unit, &mut mate);
            self.mates[unit] = mate;
            if !consistent {
                return None;
            }
        }
        if !self.changed {
            self.certified.clear();
            self.certified.extend_from_slice(&board.cand);
        }
        Some(self.changed)
    }

    /// Filters one unit by matching, starting from `mate` (its values' positions in the last
    /// matching, updated here): the fast filter (the matching repaired, components found by
    /// searches) when that settles it, nearly always, else the full one. False on a contradiction.
    fn filter_unit(
        &mut self,
        board: &mut Board,
        unit: usize,
        mate: &mut [u8; Shape::MAX_SIDE],
    ) -> bool {
        let side = self.side;
        let cells = self.tables.unit(unit);
        let mut adj = [0 as Mask; Shape::MAX_SIDE];
        let (mut open, mut values): (Mask, Mask) = (0, 0);
        for (i, (a, &cell)) in adj.iter_mut().zip(cells).enumerate() {
            let mask = board.cand[usize::from(cell)];
            *a = mask & self.all;
            if mask & PLACED == 0 {
                open |= 1 << i;
                values |= *a;
            }
        }
        // One open cell or none: singles have settled the unit already.
        if open & open.wrapping_sub(1) == 0 {
            return true;
        }
        let mut allowed = adj;
        let places = &board.places[unit * side..][..side];
        match filter_fast(&adj, open, values, mate, places, &mut allowed) {
            Some(false) => return true,
            Some(true) => {}
            None => {
                if !permutation(&adj[..side], mate, &mut allowed[..side]) {
                    return false;
                }
            }
        }
        for i in 0..side {
            let gone = adj[i] & !allowed[i];
            if gone != 0 && !self.eliminate(board, usize::from(cells[i]), gone) {
                return false;
            }
        }
        true
    }

    /// Locked candidates, where a box meets a row or a column: a value that in the box can only be in
    /// that line leaves the rest of the line (pointing), and one that in the line can only be in that
    /// box leaves the rest of the box (claiming). `Some(removed any)`, `None` on a contradiction.
    fn locked_candidates(&mut self, board: &mut Board) -> Option<bool> {
        let shape = self.tables.shape;
        let (side, box_rows, box_cols) = (shape.side(), shape.box_rows(), shape.box_cols());
        self.changed = false;
        // Decided cells count with their value: one placed but not yet removed from its peers still
        // holds it, and leaving it out would make its value look locked elsewhere.
        // Along rows: a row's segment in each stack of boxes (box_cols cells each).
        let mut segments = [0 as Mask; Shape::MAX_SIDE * 12];
        let stacks = side / box_cols;
        for row in 0..side {
            for stack in 0..stacks {
                segments[row * stacks + stack] = (0..box_cols)
                    .map(|i| board.cand[row * side + stack * box_cols + i])
                    .fold(0, |a, m| a | m);
            }
        }
        for row in 0..side {
            let band = row / box_rows;
            for stack in 0..stacks {
                let inside = segments[row * stacks + stack];
                let in_box = (band * box_rows..(band + 1) * box_rows)
                    .filter(|&r| r != row)
                    .fold(0, |a, r| a | segments[r * stacks + stack]);
                let in_row = (0..stacks)
                    .filter(|&s| s != stack)
                    .fold(0, |a, s| a | segments[row * stacks + s]);
                let pointing = inside & !in_box & self.all;
                if pointing & in_row != 0 {
                    for col in (0..side).filter(|c| c / box_cols != stack) {
                        if !self.eliminate(board, row * side + col, pointing) {
                            return None;
                        }
                    }
                }
                let claiming = inside & !in_row & self.all;
                if claiming & in_box != 0 {
                    for r in (band * box_rows..(band + 1) * box_rows).filter(|&r| r != row) {
                        for col in stack * box_cols..(stack + 1) * box_cols {
                            if !self.eliminate(board, r * side + col, claiming) {
                                return None;
                            }
                        }
                    }
                }
            }
        }
        // Along columns: a column's segment in each band of boxes (box_rows cells each).
        let bands = side / box_rows;
        for col in 0..side {
            for band in 0..bands {
                segments[col * bands + band] = (0..box_rows)
                    .map(|i| board.cand[(band * box_rows + i) * side + col])
                    .fold(0, |a, m| a | m);
            }
        }
        for col in 0..side {
            let stack = col / box_cols;
            for band in 0..bands {
                let inside = segments[col * bands + band];
                let in_box = (stack * box_cols..(stack + 1) * box_cols)
                    .filter(|&c| c != col)
                    .fold(0, |a, c| a | segments[c * bands + band]);
                let in_col = (0..bands)
                    .filter(|&b| b != band)
                    .fold(0, |a, b| a | segments[col * bands + b]);
                let pointing = inside & !in_box & self.all;
                if pointing & in_col != 0 {
                    for row in (0..side).filter(|r| r / box_rows != band) {
                        if !self.eliminate(board, row * side + col, pointing) {
                            return None;
                        }
                    }
                }
                let claiming = inside & !in_col & self.all;
                if claiming & in_box != 0 {
                    for c in (stack * box_cols..(stack + 1) * box_cols).filter(|&c| c != col) {
                        for row in band * box_rows..(band + 1) * box_rows {
                            if !self.eliminate(board, row * side + c, claiming) {
                                return None;
                            }
                        }
                    }
                }
            }
        }
        // Segments were taken before this pass's removals, so they are supersets of the truth, which
        // keeps every removal sound; the next pass sees the rest.
        Some(self.changed)
    }
}

/// The units (bit `unit`) holding a cell whose candidates differ between `now` and `then`.
fn changed_units(now: &[Mask], then: &[Mask], tables: &Tables) -> u128 {
    let mut touched: u128 = 0;
    for_each_change(now, then, |cell, _, _| {
        for &(unit, _) in &tables.homes[cell] {
            touched |= 1 << unit;
        }
    });
    touched
}

/// The units of `set`, lowest first.
fn unit_bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let unit = set.trailing_zeros() as usize;
            set &= set - 1;
            unit
        })
    })
}

/// Calls `changed(cell, now, then)` for every cell whose candidates differ between the boards'
/// `now` and `then`, in order. The boards are compared eight cells at a time: one seen shortly
/// before differs in a few dozen to a few hundred cells of 625.
#[inline]
pub(super) fn for_each_change(
    now: &[Mask],
    then: &[Mask],
    mut changed: impl FnMut(usize, Mask, Mask),
) {
    const CHUNK: usize = 8;
    let ((a, _), (b, _)) = (now.as_chunks::<CHUNK>(), then.as_chunks::<CHUNK>());
    let whole = a.len().min(b.len()) * CHUNK;
    for (chunk, (a, b)) in a.iter().zip(b).enumerate() {
        if a != b {
            for k in 0..CHUNK {
                if a[k] != b[k] {
                    changed(chunk * CHUNK + k, a[k], b[k]);
                }
            }
        }
    }
    for cell in whole..now.len().min(then.len()) {
        if now[cell] != then[cell] {
            changed(cell, now[cell], then[cell]);
        }
    }
}
