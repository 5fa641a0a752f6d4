//! Full house (1.0): a unit with one blank cell left takes the one value it misses.

use std::fmt::Write as _;

use super::{Context, Step, Technique};
use crate::candidates::{Board, Candidate, bits};

/// The first house (rows, columns, boxes, then a variant's extra houses) with one blank cell.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let geo = board.geo();
    // Houses are numbered before the other units: the first unit with one blank, if a house.
    let unit = board.one_blank().next().filter(|&u| geo.is_house(u))?;
    let value = bits(board.all() & !board.placed(unit)).next()? as u8 + 1;
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
}
