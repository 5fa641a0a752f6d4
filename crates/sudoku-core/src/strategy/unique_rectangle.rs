//! Unique rectangles: four blank cells at the corners of a rectangle in two rows, two columns and two
//! boxes, all holding the values {a, b}, would let a and b swap places, giving two solutions. A
//! unique puzzle rules that out. Type 1: three corners hold only {a, b}, so the fourth loses a and
//! b. Type 2: two corners hold only {a, b} and the other two {a, b, c}, so one of those holds c and
//! every cell seeing both loses it. Type 4: two corners hold only {a, b}, the other two share a unit
//! where a has no other place, so one of them is a and neither can be b. All 4.5, as Sudoku
//! Explainer rates a rectangle; it takes type 1, then 2, then 4.

use std::fmt::Write as _;

use super::{Context, Step, Technique, seen_by_all, write_cells, write_eliminations, write_values};
use crate::candidates::{Board, Candidate, Mask, values};

/// The rating of every unique rectangle: the lowest of the techniques that assume a unique puzzle.
pub const RATING: u16 = 45;

/// The first unique rectangle that removes something: of type 1, else of type 2, else of type 4.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let n = board.n();
    let geo = board.geo();
    // A variant's extra unit through one corner can forbid the swap the argument rests on.
    if geo.has_extra_units() {
        return None;
    }
    // One sweep of the rectangles in order: a type 1 is taken at once, the first of type 2 and
    // of type 4 are kept in case no type 1 comes.
    let mut later: [Option<Found>; 2] = [None, None];
    for a in 0..n * n {
        let pair = board.cands(a);
        if pair.count_ones() != 2 {
            continue;
        }
        let (r1, c1) = (a / n, a % n);
        let [_, _, ba] = geo.units_of(a);
        let holds = |cell: usize| board.cands(cell) & pair == pair;
        for r2 in (r1 + 1..n).filter(|&r2| holds(r2 * n + c1)) {
            for c2 in (0..n).filter(|&c| c != c1 && holds(r1 * n + c) && holds(r2 * n + c)) {
                let corners = [a, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                // Two corners in each of two boxes (a jigsaw's regions can hold three).
                let mut others = corners
                    .into_iter()
                    .map(|c| geo.units_of(c)[2])
                    .filter(|&b| b != ba);
                let boxes = (others.next(), others.next(), others.next());
                if !matches!(boxes, (Some(x), Some(y), None) if x == y) {
                    continue;
                }
                let mut extra = corners.into_iter().filter(|&c| board.cands(c) != pair);
                match (extra.next(), extra.next(), extra.next()) {
                    (Some(cell), None, _) => {
                        let eliminations = values(pair).map(|value| Candidate { cell, value });
                        let found = Found {
                            corners,
                            eliminations: eliminations.collect(),
                            kind: 1,
                        };
                        return Some(step(board, ctx, pair, found));
                    }
                    (Some(x), Some(y), None) => {
                        if later[0].is_none()
                            && board.cands(x) == board.cands(y)
                            && (board.cands(x) & !pair).count_ones() == 1
                            && geo.sees(x, y)
                        {
                            let value = (board.cands(x) & !pair).trailing_zeros() as u8 + 1;
                            let eliminations = seen_by_all(board, value, &[x, y]);
                            if !eliminations.is_empty() {
                                later[0] = Some(Found {
                                    corners,
                                    eliminations,
                                    kind: 2,
                                });
                            }
                        }
                        if later[1].is_none() {
                            later[1] = type4(board, pair, [x, y]).map(|eliminations| Found {
                                corners,
                                eliminations,
                                kind: 4,
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let [two, four] = later;
    let found = two.or(four)?;
    Some(step(board, ctx, board.cands(found.corners[0]), found))
}

/// A rectangle that removes something: its corners (the first holding only the pair), what it
/// removes, its type.
struct Found {
    corners: [usize; 4],
    eliminations: Vec<Candidate>,
    kind: u8,
}

/// The step of rectangle `found` on `pair`.
fn step(board: &Board, ctx: &Context<'_>, pair: Mask, found: Found) -> Step {
    let Found {
        corners,
        eliminations,
        kind,
    } = found;
    let mut step = Step::new(Technique::UniqueRectangle, RATING);
    step.evidence = corners
        .iter()
        .flat_map(|&cell| values(pair).map(move |value| Candidate { cell, value }))
        .collect();
    step.eliminations = eliminations;
    if ctx.explain {
        step.text.push_str("The cells ");
        write_cells(&mut step.text, board, corners);
        step.text.push_str(" would hold ");
        write_values(&mut step.text, values(pair), " and ");
        let _ = write!(
            step.text,
            " in either order, two solutions; a unique puzzle rules that out (unique rectangle type {kind})."
        );
        write_eliminations(&mut step.text, board, &step.eliminations);
    }
    step
}

/// Type 4 on the rectangle whose corners `extra` hold more than `pair`: in a unit they share, one
/// of the pair's values has no other place, so the other value leaves both.
fn type4(board: &Board, pair: Mask, extra: [usize; 2]) -> Option<Vec<Candidate>> {
    let geo = board.geo();
    let [a, b] = extra;
    let units_b = geo.units_of(b);
    for unit in geo.units_of(a).into_iter().filter(|u| units_b.contains(u)) {
        let mine = (1 << geo.slot_in(a, unit)) | (1 << geo.slot_in(b, unit));
        for locked in values(pair) {
            if board.positions(unit, locked) & !mine != 0 {
                continue;
            }
            let Some(other) = values(pair).find(|&v| v != locked) else {
                continue;
            };
            let eliminations: Vec<Candidate> = extra
                .iter()
                .filter(|&&cell| board.has(cell, other))
                .map(|&cell| Candidate { cell, value: other })
                .collect();
            if !eliminations.is_empty() {
                return Some(eliminations);
            }
        }
    }
    None
}
