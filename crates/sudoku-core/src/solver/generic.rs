//! The general search, for every shape from 4x4 to 25x25: one bitset of candidates per cell, naked and
//! hidden singles and locked candidates to a fixpoint, then failed-literal probing on every two-way
//! choice (a cell with two candidates, a value with two places in a unit): each side is placed on a
//! copy and propagated, a side that fails is ruled out and what both sides agree on is kept. Only then
//! a guess, on the two-way choice whose probes narrowed the board the most, or else on the fewest
//! alternatives. The state is one flat array of masks, so a guess or a probe is a cheap copy rather
//! than an undo log.

use std::sync::OnceLock;

use super::{Limiter, Mode, Options, Outcome};
use crate::grid::{Grid, Shape};

/// Candidate values of one cell: bit `v - 1` for value `v` (25 bits at most), and [`PLACED`].
type Mask = u32;

/// Set on a cell whose value is decided (a given, a single, or a guess) and is being or has been
/// removed from its peers: the search then never looks at its candidates again.
const PLACED: Mask = 1 << 31;

/// The cells that share a row, column or box, per shape, built once and shared by every search.
struct Tables {
    shape: Shape,
    /// Every cell's peers, `peer_count` a cell.
    peers: Vec<u16>,
    peer_count: usize,
    /// Every unit's cells, `side` a unit: the rows, then the columns, then the boxes.
    units: Vec<u16>,
}

impl Tables {
    /// The tables of `shape`, built the first time a search needs them.
    fn of(shape: Shape) -> &'static Tables {
        // Indexed by box_rows and box_cols, each at most 12.
        static TABLES: [[OnceLock<Tables>; 13]; 13] =
            [const { [const { OnceLock::new() }; 13] }; 13];
        TABLES[shape.box_rows()][shape.box_cols()].get_or_init(|| Tables::new(shape))
    }

    fn new(shape: Shape) -> Tables {
        let side = shape.side();
        let mut units = Vec::with_capacity(3 * side * side);
        let kinds: [&dyn Fn(usize, usize) -> usize; 3] = [
            &|unit, i| unit * side + i,
            &|unit, i| i * side + unit,
            &|unit, i| {
                let row = unit / shape.box_rows() * shape.box_rows() + i / shape.box_cols();
                let col = unit % shape.box_rows() * shape.box_cols() + i % shape.box_cols();
                row * side + col
            },
        ];
        for cell_of in kinds {
            for unit in 0..side {
                units.extend((0..side).map(|i| cell_of(unit, i) as u16));
            }
        }
        let peer_count = 3 * (side - 1) - (shape.box_rows() - 1) - (shape.box_cols() - 1);
        let mut peers = Vec::with_capacity(shape.cells() * peer_count);
        for index in 0..shape.cells() {
            let cell = shape.cell(index);
            let start = peers.len();
            for other in 0..shape.cells() {
                let c = shape.cell(other);
                let shares =
                    c.row == cell.row || c.col == cell.col || shape.box_of(c) == shape.box_of(cell);
                if other != index && shares {
                    peers.push(other as u16);
                }
            }
            debug_assert_eq!(peers.len() - start, peer_count);
        }
        Tables {
            shape,
            peers,
            peer_count,
            units,
        }
    }

    fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..][..self.peer_count]
    }
}

/// Deductions on one state of the board: the candidates and the queue of cells placed but not yet
/// removed from their peers.
struct Propagator<'t> {
    tables: &'t Tables,
    all: Mask,
    queue: Vec<u16>,
    /// Set by every removal, so a pass of locked candidates knows whether it did anything.
    changed: bool,
    /// Candidates removed by [`Propagator::eliminate`], counted so a probe knows how far its
    /// placement narrowed the board.
    removed: u32,
}

impl Propagator<'_> {
    /// Places `bit` in `cell` and queues it; false when that empties the cell.
    #[inline]
    fn place(&mut self, cand: &mut [Mask], cell: usize, bit: Mask) -> bool {
        if cand[cell] & bit == 0 {
            return false;
        }
        self.removed += (cand[cell] & self.all & !bit).count_ones();
        cand[cell] = bit | PLACED;
        self.queue.push(cell as u16);
        true
    }

    /// Removes `remove` from `cell`'s candidates, placing it when one is left; false when none is.
    #[inline]
    fn eliminate(&mut self, cand: &mut [Mask], cell: usize, remove: Mask) -> bool {
        let old = cand[cell];
        if old & remove == 0 {
            return true;
        }
        let left = old & !remove;
        cand[cell] = left;
        self.changed = true;
        self.removed += (old & remove).count_ones();
        if left & self.all == 0 {
            return false;
        }
        if left & PLACED == 0 && left & (left - 1) == 0 {
            cand[cell] = left | PLACED;
            self.queue.push(cell as u16);
        }
        true
    }

    /// Deduces to a fixpoint: naked singles, hidden singles, then locked candidates; false on a
    /// contradiction (a cell with no candidate, or a value with no place in a unit).
    fn propagate(&mut self, cand: &mut [Mask]) -> bool {
        self.propagate_with(cand, true)
    }

    /// Naked and hidden singles to a fixpoint, and locked candidates too when `locked`.
    fn propagate_with(&mut self, cand: &mut [Mask], locked: bool) -> bool {
        loop {
            if !self.naked_singles(cand) {
                return false;
            }
            match self.hidden_singles(cand) {
                None => return false,
                Some(true) => continue,
                Some(false) if !locked => return true,
                Some(false) => {}
            }
            match self.locked_candidates(cand) {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Removes every queued cell's value from its peers, queueing the cells that are left with one.
    fn naked_singles(&mut self, cand: &mut [Mask]) -> bool {
        while let Some(cell) = self.queue.pop() {
            let cell = usize::from(cell);
            let bit = cand[cell] & self.all;
            for &peer in self.tables.peers(cell) {
                if !self.eliminate(cand, usize::from(peer), bit) {
                    return false;
                }
            }
        }
        true
    }

    /// Places every value that has one cell left in a unit; `Some(placed any)`, `None` on a
    /// contradiction.
    fn hidden_singles(&mut self, cand: &mut [Mask]) -> Option<bool> {
        let tables = self.tables;
        let side = tables.shape.side();
        let mut placed_any = false;
        for unit in tables.units.chunks_exact(side) {
            let (mut once, mut twice, mut placed) = (0, 0, 0);
            for &cell in unit {
                let mask = cand[usize::from(cell)];
                let values = mask & self.all;
                twice |= once & values;
                once |= values;
                if mask & PLACED != 0 {
                    placed |= values;
                }
            }
            if once != self.all {
                return None;
            }
            let mut hidden = once & !twice & !placed;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden &= hidden - 1;
                // Earlier placements in this pass may have moved on: the value may be placed by
                // now (nothing to do) or have lost its last place (a contradiction).
                let cell = unit
                    .iter()
                    .map(|&c| usize::from(c))
                    .find(|&c| cand[c] & bit != 0)?;
                if cand[cell] & PLACED != 0 {
                    if cand[cell] & self.all != bit {
                        return None;
                    }
                    continue;
                }
                self.place(cand, cell, bit);
                // Removing it from its peers at once lets the rest of this pass see the news.
                if !self.naked_singles(cand) {
                    return None;
                }
                placed_any = true;
            }
        }
        Some(placed_any)
    }

    /// Locked candidates, where a box meets a row or a column: a value that in the box can only be in
    /// that line leaves the rest of the line (pointing), and one that in the line can only be in that
    /// box leaves the rest of the box (claiming). `Some(removed any)`, `None` on a contradiction.
    fn locked_candidates(&mut self, cand: &mut [Mask]) -> Option<bool> {
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
                    .map(|i| cand[row * side + stack * box_cols + i])
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
                        if !self.eliminate(cand, row * side + col, pointing) {
                            return None;
                        }
                    }
                }
                let claiming = inside & !in_row & self.all;
                if claiming & in_box != 0 {
                    for r in (band * box_rows..(band + 1) * box_rows).filter(|&r| r != row) {
                        for col in stack * box_cols..(stack + 1) * box_cols {
                            if !self.eliminate(cand, r * side + col, claiming) {
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
                    .map(|i| cand[(band * box_rows + i) * side + col])
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
                        if !self.eliminate(cand, row * side + col, pointing) {
                            return None;
                        }
                    }
                }
                let claiming = inside & !in_col & self.all;
                if claiming & in_box != 0 {
                    for c in (stack * box_cols..(stack + 1) * box_cols).filter(|&c| c != col) {
                        for row in band * box_rows..(band + 1) * box_rows {
                            if !self.eliminate(cand, row * side + c, claiming) {
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

/// The decided cells' values, 0 where undecided.
fn values(cand: &[Mask], all: Mask) -> Vec<u8> {
    cand.iter()
        .map(|&mask| match mask & all {
            bits if mask & PLACED != 0 => bits.trailing_zeros() as u8 + 1,
            _ => 0,
        })
        .collect()
}

/// Where the search guesses next: the fewest alternatives, whether those are the candidates of a
/// cell or the places left for a value in a unit (the choice an exact-cover search makes, which on
/// large sparse grids cuts the search by orders of magnitude).
#[derive(Clone, Copy, Debug)]
enum Branch {
    /// Try each candidate of the cell (bit `v - 1` of `untried` for value `v`).
    Cell(usize),
    /// Try each place of the value `bit` in the unit (bit `i` of `untried` for its `i`-th cell).
    Value {
        /// The unit's cells.
        unit: usize,
        /// The value, as its candidate bit.
        bit: Mask,
    },
}

/// The branch with the fewest alternatives, and those; `None` when every cell is decided.
///
/// Cells and values count alike: a cell with `k` candidates and a value with `k` places left in a
/// unit are both `k`-way choices, and the search takes the smallest (a cell on a tie, as it is the
/// cheaper to set up).
fn choose(cand: &[Mask], tables: &Tables) -> Option<(Branch, Mask)> {
    let mut best: Option<(usize, Mask)> = None;
    let mut fewest = u32::MAX;
    for (cell, &mask) in cand.iter().enumerate() {
        if mask & PLACED != 0 {
            continue;
        }
        let count = mask.count_ones();
        if count < fewest {
            fewest = count;
            best = Some((cell, mask));
            if count <= 2 {
                break;
            }
        }
    }
    let (cell, mask) = best?;
    if fewest <= 2 {
        return Some((Branch::Cell(cell), mask));
    }
    // The places of each value in each unit, counted with a bit-sliced counter: bit `v - 1` of
    // `ones`, `twos` and `fours` spell value `v`'s count from 0 to 7, `many` marks 8 or more. A
    // decided value has one place, so never shows among counts of two or more.
    let side = tables.shape.side();
    let mut value: Option<(usize, Mask)> = None;
    let mut least = fewest.min(8);
    for (unit, cells) in tables.units.chunks_exact(side).enumerate() {
        let (mut ones, mut twos, mut fours, mut many) = (0, 0, 0, 0);
        for &c in cells {
            let m = cand[usize::from(c)] & !PLACED;
            let carry1 = ones & m;
            ones ^= m;
            let carry2 = twos & carry1;
            twos ^= carry1;
            many |= fours & carry2;
            fours ^= carry2;
        }
        let exact = |count: u32| {
            let pick = |b: u32, set: Mask| if count & b != 0 { set } else { !set };
            pick(1, ones) & pick(2, twos) & pick(4, fours) & !many & !PLACED
        };
        if let Some(count) = (2..least).find(|&count| exact(count) != 0) {
            least = count;
            value = Some((unit, exact(count)));
        }
        if least == 2 {
            break;
        }
    }
    match value {
        Some((unit, values)) => {
            let cells = &tables.units[unit * side..][..side];
            Some(value_branch(cand, cells, unit, values))
        }
        None => Some((Branch::Cell(cell), mask)),
    }
}

/// The branch on the lowest value of `values` in `unit`, with the places it has there.
fn value_branch(cand: &[Mask], cells: &[u16], unit: usize, values: Mask) -> (Branch, Mask) {
    let bit = values & values.wrapping_neg();
    let places = cells
        .iter()
        .enumerate()
        .filter(|&(_, &c)| cand[usize::from(c)] & (bit | PLACED) == bit)
        .fold(0, |places, (i, _)| places | 1 << i);
    (Branch::Value { unit, bit }, places)
}

/// Every two-way choice on the board: each undecided cell with two candidates, and each value with
/// two places left in a unit, as the pair of `(cell, bit)` placements one of which must hold.
fn binary_choices(cand: &[Mask], tables: &Tables, out: &mut Vec<Choice>) {
    out.clear();
    for (cell, &mask) in cand.iter().enumerate() {
        if mask & PLACED == 0 && mask.count_ones() == 2 {
            let low = mask & mask.wrapping_neg();
            out.push(Choice {
                sides: [(cell as u16, low), (cell as u16, mask & !low)],
                branch: Branch::Cell(cell),
                untried: mask,
            });
        }
    }
    let side = tables.shape.side();
    for (unit, cells) in tables.units.chunks_exact(side).enumerate() {
        // Bit-sliced count of each value's places, saturating at 3: `ones`/`twos` spell 0..3.
        let (mut ones, mut twos, mut many) = (0 as Mask, 0 as Mask, 0 as Mask);
        for &c in cells {
            let m = cand[usize::from(c)];
            if m & PLACED != 0 {
                // A decided value is not a choice; marking it "many" keeps it out.
                many |= m & !PLACED;
                continue;
            }
            let carry = ones & m;
            ones ^= m;
            many |= twos & carry;
            twos ^= carry;
        }
        let mut pairs = twos & !ones & !many;
        while pairs != 0 {
            let bit = pairs & pairs.wrapping_neg();
            pairs &= pairs - 1;
            let mut found = [(0u16, bit); 2];
            let mut places = 0;
            let mut n = 0;
            for (i, &c) in cells.iter().enumerate() {
                if cand[usize::from(c)] & (bit | PLACED) == bit && n < 2 {
                    found[n].0 = c;
                    places |= 1 << i;
                    n += 1;
                }
            }
            // A pair whose two places are one bivalue cell's is not a different choice, but probing
            // it twice is only wasted work, never wrong.
            if n == 2 {
                out.push(Choice {
                    sides: found,
                    branch: Branch::Value { unit, bit },
                    untried: places,
                });
            }
        }
    }
}

/// A two-way choice: one of its two placements must hold, and how to branch on it.
#[derive(Clone, Copy, Debug)]
struct Choice {
    /// The two `(cell, bit)` placements.
    sides: [(u16, Mask); 2],
    /// The same choice as a branch of the search, with its alternatives.
    branch: Branch,
    untried: Mask,
}

/// Whether a probe's propagation runs locked candidates too. Measured: it finds more (Gecode 25x25
/// #3 takes 86k probes instead of 140k) but each probe costs so much more that the whole is slower
/// on both 25x25 and the tough 16x16, so probes run singles only.
const PROBE_LOCKED: bool = false;

/// How a round of probing ended.
enum Probed {
    /// The node has no solution.
    Contradiction,
    /// The budget or the cancel flag stopped the search.
    Stopped,
    /// Nothing more to learn this way; the two-way choice whose probes narrowed the board the most
    /// (product of both sides' removals), if any, is the one to branch on.
    Done(Option<Choice>),
}

/// Scratch space for probing, reused across nodes, with what each placement probed on the current
/// board led to: a placement shared by several choices (a bivalue cell's value that also has two
/// places in its row) is probed once per board.
struct Probe {
    choices: Vec<Choice>,
    union: Vec<Mask>,
    /// Per placement (`cell * 32 + value index`): the board version it was probed on.
    seen: Vec<u32>,
    /// Per placement probed on this version: [`FAILED`], or its slot in `boards`.
    slot: Vec<u32>,
    /// Per placement probed on this version: the candidates it removed.
    removed: Vec<u32>,
    /// The boards that surviving probes reached, `cells` masks a slot.
    boards: Vec<Mask>,
    /// Slots of `boards` in use on this version.
    used: usize,
    /// The board version: bumped whenever probing changes the board.
    version: u32,
}

/// A placement whose probe met a contradiction.
const FAILED: u32 = u32::MAX;

impl Probe {
    fn new(cells: usize) -> Probe {
        Probe {
            choices: Vec::new(),
            union: vec![0; cells],
            seen: vec![0; cells * 32],
            slot: vec![0; cells * 32],
            removed: vec![0; cells * 32],
            boards: Vec::new(),
            used: 0,
            version: 1,
        }
    }

    /// Forgets every probe: the board changed.
    fn next_version(&mut self) {
        self.version = self.version.wrapping_add(1).max(1);
        self.used = 0;
    }
}

impl Propagator<'_> {
    /// Probes placing `bit` in `cell` on `board`, or recalls it: `Some(literal index)` once known,
    /// `None` when the budget or the cancel flag stops the search.
    fn probe_one(
        &mut self,
        board: &[Mask],
        scratch: &mut Probe,
        cell: usize,
        bit: Mask,
        limiter: &mut Limiter,
    ) -> Option<usize> {
        let literal = cell * 32 + bit.trailing_zeros() as usize;
        if scratch.seen[literal] == scratch.version {
            return Some(literal);
        }
        if !limiter.guess() {
            return None;
        }
        let cells = board.len();
        let start = scratch.used * cells;
        if scratch.boards.len() < start + cells {
            scratch.boards.resize(start + cells, 0);
        }
        let trial = &mut scratch.boards[start..start + cells];
        trial.copy_from_slice(board);
        self.queue.clear();
        self.removed = 0;
        let alive = self.place(trial, cell, bit) && self.propagate_with(trial, PROBE_LOCKED);
        scratch.seen[literal] = scratch.version;
        if alive {
            scratch.slot[literal] = scratch.used as u32;
            scratch.removed[literal] = self.removed;
            scratch.used += 1;
        } else {
            scratch.slot[literal] = FAILED;
        }
        Some(literal)
    }

    /// Failed-literal probing on a board at its propagation fixpoint. For every two-way choice, each
    /// side is placed on a copy and propagated: a side that fails is ruled out, both failing is a
    /// contradiction, and what both sides agree on (a candidate that neither keeps) is removed. Rounds
    /// repeat while they change the board. Each probe counts as a guess against the budget, so the
    /// budget and the cancel flag bound this work as they bound the search.
    fn probe(&mut self, board: &mut [Mask], scratch: &mut Probe, limiter: &mut Limiter) -> Probed {
        let cells = board.len();
        scratch.next_version();
        loop {
            binary_choices(board, self.tables, &mut scratch.choices);
            if scratch.choices.is_empty() {
                return Probed::Done(None);
            }
            let mut progress = false;
            let mut best: Option<(Choice, u64)> = None;
            for i in 0..scratch.choices.len() {
                let choice = scratch.choices[i];
                // An earlier probe this round may have decided or narrowed this choice.
                if choice
                    .sides
                    .iter()
                    .any(|&(c, bit)| board[usize::from(c)] & (bit | PLACED) != bit)
                {
                    continue;
                }
                let mut literals = [0; 2];
                for (literal, &(cell, bit)) in literals.iter_mut().zip(&choice.sides) {
                    match self.probe_one(board, scratch, usize::from(cell), bit, limiter) {
                        Some(l) => *literal = l,
                        None => return Probed::Stopped,
                    }
                }
                let [a, b] = literals.map(|l| scratch.slot[l]);
                let union = &mut scratch.union;
                match (a, b) {
                    (FAILED, FAILED) => return Probed::Contradiction,
                    (FAILED, s) | (s, FAILED) => {
                        let s = s as usize * cells;
                        union.copy_from_slice(&scratch.boards[s..s + cells]);
                    }
                    (a, b) => {
                        let (a, b) = (a as usize * cells, b as usize * cells);
                        let (x, y) = (&scratch.boards[a..a + cells], &scratch.boards[b..b + cells]);
                        for ((u, &x), &y) in union.iter_mut().zip(x).zip(y) {
                            *u = x | y;
                        }
                    }
                }
                // Keep only what some surviving side keeps.
                self.queue.clear();
                self.changed = false;
                for cell in 0..cells {
                    let gone = board[cell] & self.all & !scratch.union[cell];
                    if gone != 0 && !self.eliminate(board, cell, gone) {
                        return Probed::Contradiction;
                    }
                }
                if self.changed {
                    progress = true;
                    scratch.next_version();
                    if !self.propagate(board) {
                        return Probed::Contradiction;
                    }
                } else {
                    let score = literals
                        .iter()
                        .map(|&l| u64::from(scratch.removed[l]) + 1)
                        .product::<u64>();
                    if best.is_none_or(|(_, s)| score > s) {
                        best = Some((choice, score));
                    }
                }
            }
            if !progress {
                return Probed::Done(best.map(|(choice, _)| choice));
            }
        }
    }
}

/// A guess made: the board before it, where it branched, and the alternatives not yet tried.
struct Guess {
    board: Vec<Mask>,
    branch: Branch,
    untried: Mask,
}

pub(super) fn solve(puzzle: &Grid, options: &Options<'_>) -> Outcome {
    let mut limiter = Limiter::new(options);
    let shape = puzzle.shape();
    let side = shape.side();
    let tables = Tables::of(shape);
    let all: Mask = (1 << side) - 1;
    let mut propagator = Propagator {
        tables,
        all,
        queue: Vec::with_capacity(shape.cells()),
        changed: false,
        removed: 0,
    };
    let wanted = match options.mode {
        Mode::ProveUnique => 2,
        Mode::FirstSolution => 1,
    };
    let mut board = vec![all; shape.cells()];
    let mut consistent = true;
    for (cell, &value) in puzzle.cells().iter().enumerate() {
        if value != 0 && consistent {
            // A given whose value a peer's given already took clashes: no solution.
            consistent = propagator.place(&mut board, cell, 1 << (value - 1))
                && propagator.naked_singles(&mut board);
        }
    }
    let mut scratch = Probe::new(shape.cells());
    let mut solutions = 0;
    let mut first = None;
    // Guesses made, deepest last; their boards are kept for reuse once popped.
    let mut guesses: Vec<Guess> = Vec::new();
    let mut depth = 0;
    let mut alive = consistent && propagator.propagate(&mut board);
    'search: loop {
        let mut preferred = None;
        if alive && board.iter().any(|&m| m & PLACED == 0) {
            match propagator.probe(&mut board, &mut scratch, &mut limiter) {
                Probed::Contradiction => alive = false,
                Probed::Stopped => break 'search,
                Probed::Done(choice) => preferred = choice,
            }
        }
        if alive {
            let next = match preferred {
                Some(choice) => Some((choice.branch, choice.untried)),
                None => choose(&board, tables),
            };
            match next {
                None => {
                    solutions += 1;
                    if first.is_none() {
                        first = Grid::from_cells(shape, values(&board, all));
                    }
                    if solutions >= wanted {
                        break 'search;
                    }
                }
                Some((branch, untried)) => {
                    if depth == guesses.len() {
                        guesses.push(Guess {
                            board: board.clone(),
                            branch,
                            untried,
                        });
                    } else {
                        let guess = &mut guesses[depth];
                        guess.board.copy_from_slice(&board);
                        guess.branch = branch;
                        guess.untried = untried;
                    }
                    depth += 1;
                }
            }
        }
        // The next alternative at the deepest guess with one left; the search is over when none has.
        loop {
            let Some(guess) = depth.checked_sub(1).map(|d| &mut guesses[d]) else {
                break 'search;
            };
            if guess.untried == 0 {
                depth -= 1;
                continue;
            }
            if !limiter.guess() {
                break 'search;
            }
            let next = guess.untried & guess.untried.wrapping_neg();
            guess.untried &= !next;
            let (cell, bit) = match guess.branch {
                Branch::Cell(cell) => (cell, next),
                Branch::Value { unit, bit } => {
                    let at = next.trailing_zeros() as usize;
                    (usize::from(tables.units[unit * side + at]), bit)
                }
            };
            board.copy_from_slice(&guess.board);
            propagator.queue.clear();
            alive = propagator.place(&mut board, cell, bit) && propagator.propagate(&mut board);
            break;
        }
    }
    limiter.finish(options.mode, first, solutions)
}
