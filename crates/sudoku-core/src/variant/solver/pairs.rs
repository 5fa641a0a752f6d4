//! Constraints between two cells: markers (kropki dots, XV), their negative constraints and
//! non-consecutive. Each is a table of which values may sit beside which; a value stays in a cell
//! only while the other cell keeps some value it may sit beside (arc consistency).

use super::super::Relation;
use super::board::{Board, CellSet, Step, bit, has, values};

/// For each value 1-16 (index 0 unused), the values the other cell may hold.
pub(super) type Table = [u16; 17];

/// The table of `relation` (`holds` true) or of its negation (`holds` false) on a grid of `side`.
pub(super) fn table(side: usize, relation: Relation, holds: bool) -> Table {
    let mut t = [0; 17];
    for (a, row) in t.iter_mut().enumerate().take(side.min(16) + 1).skip(1) {
        for v in 1..=side.min(16) {
            if relation.holds(a as u8, v as u8) == holds {
                *row |= bit(v as u32);
            }
        }
    }
    t
}

/// Every two-cell constraint of the puzzle.
#[derive(Default)]
pub(super) struct Pairs {
    pairs: Vec<(usize, usize, usize)>,
    tables: Vec<Table>,
}

impl Pairs {
    /// Adds a table that pairs will use; its index.
    pub(super) fn add_table(&mut self, table: Table) -> usize {
        self.tables.push(table);
        self.tables.len() - 1
    }

    /// Constrains cells `a` and `b` by the table `index` (symmetric, as every relation is).
    pub(super) fn add(&mut self, a: usize, b: usize, index: usize) {
        self.pairs.push((a, b, index));
    }

    /// The cells of every pair, each pair's two in turn.
    pub(super) fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.pairs.iter().flat_map(|&(a, b, _)| [a, b])
    }

    /// Whether there is no pair.
    pub(super) fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Removes every value with no partner left across some pair with a cell in `dirty`.
    pub(super) fn propagate(&self, b: &mut Board, dirty: &CellSet) -> Step {
        let mut changed = false;
        for &(x, y, t) in &self.pairs {
            if !has(dirty, x) && !has(dirty, y) {
                continue;
            }
            let table = &self.tables[t];
            changed |= revise(b, x, y, table)?;
            changed |= revise(b, y, x, table)?;
        }
        Ok(changed)
    }
}

fn revise(b: &mut Board, x: usize, y: usize, table: &Table) -> Step {
    let (mx, my) = (b.get(x), b.get(y));
    let keep = values(mx)
        .filter(|&v| table[v as usize] & my != 0)
        .fold(0, |m, v| m | bit(v));
    b.restrict(x, keep)
}
