//! Forcing X- and XY-chains as Sudoku Explainer finds and rates them ("Forcing Chains & Cycles",
//! static: no candidate is removed while a chain is followed).
//!
//! From one candidate assumed true (or false), follow what it forces, alternately:
//! - a true candidate makes false the same value in its row, column and box, and (with cell links)
//!   the cell's other candidates;
//! - a false candidate makes true the value's only other place in a row, column or box, and (with
//!   cell links) a two-candidate cell's other candidate.
//!
//! If assuming the candidate true forces it false, it is false; if assuming it false forces it true,
//! it is true. Rated 6.6 when only unit links (an X-chain), 7.0 with cell links too, plus SE's length
//! adjustment on the chain's candidates less two; the easiest (then shortest) chain of all is taken,
//! as SE sorts its chains.

use std::collections::VecDeque;
use std::fmt::Write as _;

use super::{Context, Step, Technique, length_adjustment};
use crate::candidates::{Board, Candidate, bit, values};

/// No parent yet.
const NONE: u32 = u32::MAX;

/// A node: candidate `cell * n + value - 1`, times two, plus one when assumed true.
fn node(n: usize, cell: usize, value: u8, on: bool) -> usize {
    (cell * n + usize::from(value) - 1) * 2 + usize::from(on)
}

/// What a node says: cell, value, true or false.
fn parts(n: usize, id: usize) -> (usize, u8, bool) {
    let c = id / 2;
    (c / n, (c % n) as u8 + 1, id % 2 == 1)
}

/// The chain found from one start: its rating, its length in candidates, the path from the start.
struct Found {
    rating: u16,
    path: Vec<usize>,
    /// Cell links were allowed.
    cell_links: bool,
}

/// The consequences of node `id` on `board`, each given to `push`.
fn consequences(board: &Board, id: usize, cell_links: bool, mut push: impl FnMut(usize)) {
    let n = board.n();
    let geo = board.geo();
    let (cell, value, on) = parts(n, id);
    if on {
        if cell_links {
            for other in values(board.cands(cell) & !bit(value)) {
                push(node(n, cell, other, false));
            }
        }
        // Box, then row, then column, each peer once.
        let [row, col, bx] = geo.units_of(cell);
        let mut seen = Vec::with_capacity(3 * n);
        for unit in [bx, row, col] {
            for peer in geo.cells_in(unit, board.positions(unit, value)) {
                if peer != cell && !seen.contains(&peer) {
                    seen.push(peer);
                    push(node(n, peer, value, false));
                }
            }
        }
    } else {
        if cell_links {
            let cands = board.cands(cell);
            if cands.count_ones() == 2 {
                if let Some(other) = values(cands & !bit(value)).next() {
                    push(node(n, cell, other, true));
                }
            }
        }
        let [row, col, bx] = geo.units_of(cell);
        for unit in [bx, row, col] {
            let others = board.positions(unit, value) & !(1 << geo.slot_in(cell, unit));
            if others.count_ones() == 1 {
                let peer = geo.cell_at(unit, others.trailing_zeros() as usize);
                push(node(n, peer, value, true));
            }
        }
    }
}

/// From `start`, the shortest chain back to its opposite of at most `limit` candidates, breadth
/// first. `parent` and `length` are scratch space, one entry a node.
fn follow(
    board: &Board,
    start: usize,
    cell_links: bool,
    limit: usize,
    scratch: &mut Scratch,
) -> Option<Vec<usize>> {
    let Scratch {
        parent,
        length,
        queue,
    } = scratch;
    parent.fill(NONE);
    queue.clear();
    parent[start] = start as u32;
    length[start] = 1;
    queue.push_back(start);
    let target = start ^ 1;
    while let Some(id) = queue.pop_front() {
        let next_length = length[id] + 1;
        if usize::from(next_length) > limit {
            break;
        }
        let mut hit = false;
        consequences(board, id, cell_links, |next| {
            if hit || parent[next] != NONE {
                return;
            }
            parent[next] = id as u32;
            length[next] = next_length;
            if next == target {
                hit = true;
            } else {
                queue.push_back(next);
            }
        });
        if hit {
            let mut path = vec![target];
            let mut at = target;
            while parent[at] as usize != at {
                at = parent[at] as usize;
                path.push(at);
            }
            path.reverse();
            return Some(path);
        }
    }
    None
}

/// The search's scratch space.
struct Scratch {
    parent: Vec<u32>,
    length: Vec<u16>,
    queue: VecDeque<usize>,
}

/// The longest chain (in candidates) rated `base` plus its length adjustment that would beat `best`.
fn limit(base: u16, best: Option<&Found>, most: usize) -> usize {
    let Some(b) = best else { return most };
    let mut len = 1;
    while len < most && (base + length_adjustment(len + 1 - 2), len + 1) < (b.rating, b.path.len())
    {
        len += 1;
    }
    len
}

/// The easiest forcing X- or XY-chain, if any; each start costs effort from the budget.
pub fn find(board: &Board, ctx: &mut Context<'_>) -> Option<Step> {
    let n = board.n();
    let cells = n * n;
    let mut scratch = Scratch {
        parent: vec![NONE; cells * n * 2],
        length: vec![0; cells * n * 2],
        queue: VecDeque::new(),
    };
    let most = cells * n * 2;
    let mut best: Option<Found> = None;
    for cell_links in [false, true] {
        let base = if cell_links { 70 } else { 66 };
        for cell in 0..cells {
            if board.cands(cell).count_ones() < 2 {
                continue;
            }
            for value in values(board.cands(cell)) {
                for on in [true, false] {
                    if !ctx.spend(4 * cells as u64) {
                        return None;
                    }
                    let start = node(n, cell, value, on);
                    let limit = limit(base, best.as_ref(), most);
                    if limit < 4 {
                        continue;
                    }
                    let Some(path) = follow(board, start, cell_links, limit, &mut scratch) else {
                        continue;
                    };
                    let rating = base + length_adjustment(path.len().saturating_sub(2));
                    let better = best
                        .as_ref()
                        .is_none_or(|b| (rating, path.len()) < (b.rating, b.path.len()));
                    if better {
                        best = Some(Found {
                            rating,
                            path,
                            cell_links,
                        });
                    }
                }
            }
        }
    }
    let found = best?;
    Some(step_of(board, ctx, found))
}

fn step_of(board: &Board, ctx: &Context<'_>, found: Found) -> Step {
    let n = board.n();
    let geo = board.geo();
    let technique = if found.cell_links {
        Technique::XyChain
    } else {
        Technique::XChain
    };
    let mut step = Step::new(technique, found.rating);
    let (cell, value, assumed) = parts(n, found.path[0]);
    if assumed {
        step.eliminations.push(Candidate { cell, value });
    } else {
        step.placements.push(Candidate { cell, value });
    }
    step.evidence = found
        .path
        .iter()
        .map(|&id| {
            let (cell, value, _) = parts(n, id);
            Candidate { cell, value }
        })
        .collect();
    step.evidence.sort_unstable();
    step.evidence.dedup();
    if ctx.explain {
        let word = |on: bool| if on { "is" } else { "is not" };
        let _ = write!(
            step.text,
            "If {} {} {{{value}}}, then ",
            geo.name(cell),
            word(assumed)
        );
        for (i, &id) in found.path[1..].iter().enumerate() {
            if i > 0 {
                step.text.push_str(", so ");
            }
            let (c, v, on) = parts(n, id);
            let _ = write!(step.text, "{} {} {{{v}}}", geo.name(c), word(on));
        }
        let _ = write!(
            step.text,
            ": a contradiction, so {} {} {{{value}}}.",
            geo.name(cell),
            word(!assumed)
        );
    }
    step
}
