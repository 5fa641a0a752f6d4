//! The board: each cell's candidates as a `u16` bitmask (bit `v - 1` for value `v`), and the
//! all-different groups (rows, columns, regions and every group a rule adds) with the peers they
//! give each cell. Groups feed naked singles, hidden singles and a pigeonhole check.

use super::super::MAX_SIDE;

/// The most cells a grid has.
pub(super) const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// A dead end: a cell has no candidate left, or a rule can no longer be satisfied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Contradiction;

/// What one propagation step did: whether it removed a candidate, or found a dead end.
pub(super) type Step = Result<bool, Contradiction>;

/// The bit of value `v` (1 to 16).
#[inline]
pub(super) fn bit(v: u32) -> u16 {
    1u16.wrapping_shl(v.wrapping_sub(1))
}

/// The smallest value in a non-empty `mask`.
#[inline]
pub(super) fn min_value(mask: u16) -> u32 {
    mask.trailing_zeros() + 1
}

/// The largest value in a non-empty `mask`.
#[inline]
pub(super) fn max_value(mask: u16) -> u32 {
    16 - mask.leading_zeros()
}

/// The values `lo` to `hi` (clamped to 1-16) as a mask, empty when `lo > hi`.
#[inline]
pub(super) fn range_mask(lo: i64, hi: i64) -> u16 {
    let (lo, hi) = (lo.max(1), hi.min(16));
    if lo > hi {
        return 0;
    }
    let upto = |v: i64| ((1u32 << v) - 1) as u16;
    upto(hi) & !upto(lo - 1)
}

/// The values in `mask`, smallest first.
#[inline]
pub(super) fn values(mut mask: u16) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let v = min_value(mask);
            mask &= mask - 1;
            v
        })
    })
}

/// A set of cells, one bit each.
pub(super) type CellSet = [u64; MAX_CELLS / 64];

/// The set of `cells`.
pub(super) fn cell_set(cells: impl IntoIterator<Item = usize>) -> CellSet {
    let mut set = [0; MAX_CELLS / 64];
    for c in cells.into_iter().filter(|&c| c < MAX_CELLS) {
        set[c / 64] |= 1 << (c % 64);
    }
    set
}

/// Whether two sets of cells share one.
#[inline]
pub(super) fn meets(a: &CellSet, b: &CellSet) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// Whether a cell is in a set.
#[inline]
pub(super) fn has(set: &CellSet, cell: usize) -> bool {
    set[cell / 64] & (1 << (cell % 64)) != 0
}

/// Every cell's candidates, which fixed cells have already been taken out of their peers, and
/// which cells changed since the propagators last looked. Small and `Copy`: the search copies a
/// board at each guess rather than undoing.
#[derive(Clone, Copy)]
pub(super) struct Board {
    cand: [u16; MAX_CELLS],
    done: CellSet,
    dirty: CellSet,
}

impl Board {
    /// A board of `cells` cells, each with every value of `full`.
    pub(super) fn new(cells: usize, full: u16) -> Board {
        let mut cand = [0; MAX_CELLS];
        cand[..cells].fill(full);
        Board {
            cand,
            done: [0; MAX_CELLS / 64],
            dirty: cell_set(0..cells),
        }
    }

    /// The cells changed since the last call, and forgets them.
    pub(super) fn take_dirty(&mut self) -> CellSet {
        std::mem::take(&mut self.dirty)
    }

    /// The candidates of `cell`.
    #[inline]
    pub(super) fn get(&self, cell: usize) -> u16 {
        self.cand[cell]
    }

    /// Keeps only the candidates of `cell` in `mask`: a dead end if none is left.
    #[inline]
    pub(super) fn restrict(&mut self, cell: usize, mask: u16) -> Step {
        let old = self.cand[cell];
        let new = old & mask;
        if new == 0 {
            return Err(Contradiction);
        }
        self.cand[cell] = new;
        if new != old {
            self.dirty[cell / 64] |= 1 << (cell % 64);
        }
        Ok(new != old)
    }

    /// The values of a board whose `cells` are all fixed.
    pub(super) fn solution(&self, cells: usize) -> Vec<u8> {
        self.cand[..cells]
            .iter()
            .map(|&m| min_value(m) as u8)
            .collect()
    }

    fn mark_done(&mut self, cell: usize) {
        self.done[cell / 64] |= 1 << (cell % 64);
    }
}

/// The all-different groups and, for each cell, every cell that may not share its value.
pub(super) struct Groups {
    side: usize,
    full: u16,
    groups: Vec<(CellSet, Vec<usize>)>,
    peers: Vec<Vec<usize>>,
    /// Each cell's peers as a set.
    peer_sets: Vec<CellSet>,
    /// Pairs of houses that share two cells or more: the cells of the pair (for the dirty test),
    /// and the cells of each house outside the other.
    crossings: Vec<(CellSet, Vec<usize>, Vec<usize>)>,
}

impl Groups {
    /// The groups of a grid of `side` (each deduplicated, those of one cell dropped), and peers from
    /// them and from `apart`: pairs of cells that differ without sharing a group (anti-knight...).
    pub(super) fn new(
        side: usize,
        groups: Vec<Vec<usize>>,
        apart: impl IntoIterator<Item = (usize, usize)>,
    ) -> Groups {
        let cells = side * side;
        let mut groups: Vec<Vec<usize>> = groups
            .into_iter()
            .map(|mut g| {
                g.sort_unstable();
                g.dedup();
                g
            })
            .filter(|g| g.len() > 1)
            .collect();
        groups.sort_unstable();
        groups.dedup();
        // As sets first: each group ORs in whole, with no sorting or deduplicating of lists.
        let mut sets: Vec<CellSet> = vec![[0; MAX_CELLS / 64]; cells];
        for g in &groups {
            let set = cell_set(g.iter().copied());
            for &a in g {
                for (w, s) in sets[a].iter_mut().zip(&set) {
                    *w |= s;
                }
            }
        }
        for (a, b) in apart {
            if a < cells && b < cells {
                sets[a][b / 64] |= 1 << (b % 64);
                sets[b][a / 64] |= 1 << (a % 64);
            }
        }
        for (a, set) in sets.iter_mut().enumerate() {
            set[a / 64] &= !(1 << (a % 64));
        }
        let peers = sets
            .iter()
            .map(|set| (0..cells).filter(|&b| has(set, b)).collect())
            .collect();
        let houses: Vec<(CellSet, &Vec<usize>)> = groups
            .iter()
            .filter(|g| g.len() == side)
            .map(|g| (cell_set(g.iter().copied()), g))
            .collect();
        let mut crossings = Vec::new();
        for (i, (set_a, a)) in houses.iter().enumerate() {
            for (set_b, b) in &houses[..i] {
                let shared = a.iter().filter(|&&c| has(set_b, c)).count();
                if shared < 2 || shared == side {
                    continue;
                }
                let only = |g: &[usize], other: &CellSet| -> Vec<usize> {
                    g.iter().copied().filter(|&c| !has(other, c)).collect()
                };
                let mut both = *set_a;
                both.iter_mut().zip(set_b).for_each(|(w, s)| *w |= s);
                crossings.push((both, only(a, set_b), only(b, set_a)));
            }
        }
        Groups {
            crossings,
            side,
            full: full_mask(side),
            groups: groups
                .into_iter()
                .map(|g| (cell_set(g.iter().copied()), g))
                .collect(),
            peers,
            peer_sets: sets,
        }
    }

    /// The cells that see every one of `cells` (none of `cells` among them; `cells` not empty):
    /// where a value that must go in one of `cells` cannot go.
    pub(super) fn common_peers(&self, cells: impl IntoIterator<Item = usize>) -> CellSet {
        let mut common = [u64::MAX; MAX_CELLS / 64];
        for c in cells {
            let Some(set) = self.peer_sets.get(c) else {
                return [0; MAX_CELLS / 64];
            };
            common.iter_mut().zip(set).for_each(|(w, s)| *w &= s);
        }
        common
    }

    /// The groups that hold every value once (as many cells as the side): where a value's places
    /// can be branched on.
    pub(super) fn houses(&self) -> impl Iterator<Item = &[usize]> {
        self.groups
            .iter()
            .map(|(_, g)| g.as_slice())
            .filter(|g| g.len() == self.side)
    }

    /// `cells` split into blocks of at most `most` cells that must all differ (each cell a peer
    /// of the others in its block), greedily, in order.
    pub(super) fn cliques(&self, cells: &[usize], most: usize) -> Vec<Vec<usize>> {
        let peers = |a: usize, b: usize| {
            self.peers
                .get(a)
                .is_some_and(|p| p.binary_search(&b).is_ok())
        };
        let mut blocks: Vec<Vec<usize>> = Vec::new();
        for &c in cells {
            match blocks
                .iter_mut()
                .find(|k| k.len() < most && k.iter().all(|&o| peers(o, c)))
            {
                Some(block) => block.push(c),
                None => blocks.push(vec![c]),
            }
        }
        blocks
    }

    /// How many cells may not share a value with `cell`.
    pub(super) fn peer_count(&self, cell: usize) -> usize {
        self.peers.get(cell).map_or(0, Vec::len)
    }

    /// Naked singles: takes every fixed cell's value out of its peers, until no new cell is fixed.
    /// Only cells changed since the propagators last looked can have become fixed.
    pub(super) fn singles(&self, b: &mut Board) -> Step {
        let mut changed = false;
        loop {
            let mut again = false;
            for word in 0..b.dirty.len() {
                let mut bits = b.dirty[word] & !b.done[word];
                while bits != 0 {
                    let cell = word * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let m = b.get(cell);
                    if cell >= self.peers.len() || !m.is_power_of_two() {
                        continue;
                    }
                    b.mark_done(cell);
                    for &p in &self.peers[cell] {
                        if b.get(p) & m != 0 {
                            b.restrict(p, !m)?;
                            again = true;
                        }
                    }
                }
            }
            if !again {
                return Ok(changed);
            }
            changed = true;
        }
    }

    /// Locked candidates: where two houses cross, the cells of each outside the other hold the
    /// same values (those the shared cells leave), so each such cell keeps only values the other
    /// side can still take. Only crossings with a cell in `dirty` are looked at.
    pub(super) fn locked(&self, b: &mut Board, dirty: &CellSet) -> Step {
        let mut changed = false;
        let union = |b: &Board, cells: &[usize]| cells.iter().fold(0u16, |u, &c| u | b.get(c));
        for (both, a, c) in &self.crossings {
            if !meets(both, dirty) {
                continue;
            }
            let (ua, uc) = (union(b, a), union(b, c));
            if ua == uc {
                continue;
            }
            for &x in a {
                changed |= b.restrict(x, uc)?;
            }
            for &x in c {
                changed |= b.restrict(x, ua)?;
            }
        }
        Ok(changed)
    }

    /// Hidden singles in every group of `side` cells (a value with one place left goes there), and
    /// in every group the pigeonhole check: its cells must have at least as many values as cells.
    /// Only groups with a cell in `dirty` are looked at.
    pub(super) fn hidden(&self, b: &mut Board, dirty: &CellSet) -> Step {
        let mut changed = false;
        for (set, g) in &self.groups {
            if !meets(set, dirty) {
                continue;
            }
            let (mut once, mut twice) = (0u16, 0u16);
            for &c in g {
                let m = b.get(c);
                twice |= once & m;
                once |= m;
            }
            if (once.count_ones() as usize) < g.len() {
                return Err(Contradiction);
            }
            if g.len() != self.side {
                continue;
            }
            let lone = once & !twice & self.full;
            if lone == 0 {
                continue;
            }
            for &c in g {
                let m = b.get(c);
                let here = m & lone;
                if here == 0 || m == here {
                    continue;
                }
                if !here.is_power_of_two() {
                    // Two values that have only this cell left.
                    return Err(Contradiction);
                }
                changed |= b.restrict(c, here)?;
            }
        }
        Ok(changed)
    }
}

/// Every value of a grid of `side`.
pub(super) fn full_mask(side: usize) -> u16 {
    ((1u32 << side.min(16)) - 1) as u16
}

/// Takes the value bits `value` out of every cell of `set`.
pub(super) fn remove_from(b: &mut Board, set: &CellSet, value: u16) -> Step {
    let mut changed = false;
    for (word, &bits) in set.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            let cell = word * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if b.get(cell) & value != 0 {
                changed |= b.restrict(cell, !value)?;
            }
        }
    }
    Ok(changed)
}
