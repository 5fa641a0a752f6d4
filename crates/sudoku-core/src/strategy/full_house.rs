//! Full house (1.0): a unit with one blank cell left takes the one value it misses.

use std::fmt::Write as _;

use super::{Context, Step, Technique};
use crate::candidates::{Board, Candidate, bits};

/// The first house (rows, columns, boxes, then a variant's extra houses) with one blank cell.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let geo = board.geo();
    geo.houses().find_map(|unit| {
        let missing = board.all() & !board.placed(unit);
        if missing.count_ones() != 1 {
            return None;
        }
        let value = bits(missing).next()? as u8 + 1;
        let cell = geo.cells_of(unit).find(|&c| board.value(c) == 0)?;
        let mut step = Step::new(Technique::FullHouse, 10);
        step.placements.push(Candidate { cell, value });
        if ctx.explain {
            let _ = write!(
                step.text,
                "{} is the last blank cell of {}: it takes {{{value}}}.",
                geo.name(cell),
                geo.unit_name(unit)
            );
        }
        Some(step)
    })
}
