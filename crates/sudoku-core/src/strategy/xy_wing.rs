//! XY-Wing (4.2): a pivot with candidates {x, y} sees a pincer {x, z} and a pincer {y, z}. Whichever
//! the pivot holds, one pincer holds z, so a cell seeing both pincers loses z.

use std::fmt::Write as _;

use super::{Context, Step, Technique, seen_by_all, write_eliminations};
use crate::candidates::{Board, Candidate, values};

/// The first XY-Wing that removes something.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    wing(board, ctx, false)
}

/// Shared by XY- and XYZ-Wing: with `xyz`, the pivot has three candidates and the eliminated cells
/// must see it too.
pub(crate) fn wing(board: &Board, ctx: &Context<'_>, xyz: bool) -> Option<Step> {
    let geo = board.geo();
    let cells = board.n() * board.n();
    let pivot_size = if xyz { 3 } else { 2 };
    let mut peers = Vec::new();
    for pivot in 0..cells {
        let pm = board.cands(pivot);
        if pm.count_ones() != pivot_size {
            continue;
        }
        peers.clear();
        for unit in geo.all_units_of(pivot) {
            for c in geo.cells_of(unit) {
                let m = board.cands(c);
                if c != pivot
                    && m.count_ones() == 2
                    && (m & pm).count_ones() == if xyz { 2 } else { 1 }
                    && !peers.contains(&c)
                {
                    peers.push(c);
                }
            }
        }
        for (i, &a) in peers.iter().enumerate() {
            for &b in &peers[i + 1..] {
                let (ma, mb) = (board.cands(a), board.cands(b));
                let z = ma & mb;
                if z.count_ones() != 1 || ma == mb {
                    continue;
                }
                // XY: the pincers share z outside the pivot; XYZ: z is in the pivot too and the
                // pincers' other values are the pivot's other two.
                let fits = if xyz {
                    pm & z != 0 && (ma | mb) == pm
                } else {
                    pm & z == 0 && (ma | mb) & !z == pm
                };
                if !fits {
                    continue;
                }
                let value = z.trailing_zeros() as u8 + 1;
                let wings: &[usize] = if xyz { &[pivot, a, b] } else { &[a, b] };
                let eliminations = seen_by_all(board, value, wings);
                let eliminations: Vec<Candidate> = eliminations
                    .into_iter()
                    .filter(|c| c.cell != pivot)
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let (technique, rating, name) = if xyz {
                    (Technique::XyzWing, 44, "XYZ-Wing")
                } else {
                    (Technique::XyWing, 42, "XY-Wing")
                };
                let mut step = Step::new(technique, rating);
                step.evidence = [pivot, a, b]
                    .iter()
                    .flat_map(|&cell| {
                        values(board.cands(cell)).map(move |value| Candidate { cell, value })
                    })
                    .collect();
                step.eliminations = eliminations;
                if ctx.explain {
                    let _ = write!(
                        step.text,
                        "{name}: whichever value the pivot {} holds, {} or {} holds {{{value}}}, so a cell seeing {} loses it.",
                        geo.name(pivot),
                        geo.name(a),
                        geo.name(b),
                        if xyz { "all three" } else { "both pincers" },
                    );
                    write_eliminations(&mut step.text, board, &step.eliminations);
                }
                return Some(step);
            }
        }
    }
    None
}
