//! Thermometers: values strictly increase from the bulb, so each cell is above the smallest
//! candidate of the one before it and below the largest of the one after.

use super::board::{Board, Step, max_value, min_value, range_mask};

/// A thermometer's cells, bulb first.
pub(super) struct Thermo {
    cells: Vec<usize>,
}

impl Thermo {
    /// The thermometer of these cells.
    pub(super) fn new(cells: &[usize]) -> Thermo {
        Thermo {
            cells: cells.to_vec(),
        }
    }

    /// One pass up the chain and one down: enough for the bounds of a chain.
    pub(super) fn propagate(&self, b: &mut Board) -> Step {
        let mut changed = false;
        for w in self.cells.windows(2) {
            let above = i64::from(min_value(b.get(w[0]))) + 1;
            changed |= b.restrict(w[1], range_mask(above, 16))?;
        }
        for w in self.cells.windows(2).rev() {
            let below = i64::from(max_value(b.get(w[1]))) - 1;
            changed |= b.restrict(w[0], range_mask(1, below))?;
        }
        Ok(changed)
    }
}
