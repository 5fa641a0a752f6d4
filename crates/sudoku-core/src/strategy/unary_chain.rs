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

use super::{Context, Marks, Step, Technique, length_adjustment, longest_adjusted};
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
    /// SE's complexity: the chain's distinct candidates.
    complexity: usize,
    path: Vec<usize>,
    /// Cell links were allowed.
    cell_links: bool,
    /// A cycle's eliminations; `None` for a forcing chain, which decides its start.
    cycle: Option<Vec<Candidate>>,
}

/// The consequences of node `id` on `board`, each given to `push` (also the static links nested in
/// [`super::chaining`]).
pub(super) fn consequences(
    board: &Board,
    id: usize,
    cell_links: bool,
    unit_links: bool,
    mut push: impl FnMut(usize),
) {
    let n = board.n();
    let geo = board.geo();
    let (cell, value, on) = parts(n, id);
    if on {
        if cell_links {
            for other in values(board.cands(cell) & !bit(value)) {
                push(node(n, cell, other, false));
            }
        }
        // Box, then row, then column (then a variant's extra units), each peer once: from the
        // first of them that holds it.
        for unit in geo.all_units_of(cell) {
            for peer in geo.cells_in(unit, board.positions(unit, value)) {
                if peer != cell && geo.first_shared_unit(cell, peer) == Some(unit) {
                    push(node(n, peer, value, false));
                }
            }
        }
    } else {
        if cell_links {
            let cands = board.cands(cell);
            if cands.count_ones() == 2
                && let Some(other) = values(cands & !bit(value)).next()
            {
                push(node(n, cell, other, true));
            }
        }
        if !unit_links {
            return;
        }
        for unit in geo.houses_of(cell) {
            let others = board.positions(unit, value) & !(1 << geo.slot_in(cell, unit));
            if others.count_ones() == 1 {
                let peer = geo.cell_at(unit, others.trailing_zeros() as usize);
                push(node(n, peer, value, true));
            }
        }
    }
}

/// Every node's consequences under one choice of links, built once per search.
pub(super) struct Links {
    /// `to[start[id]..start[id + 1]]`: the consequences of node `id`.
    start: Vec<u32>,
    to: Vec<u32>,
}

impl Links {
    pub(super) fn new(board: &Board, cell_links: bool, unit_links: bool) -> Links {
        let n = board.n();
        let nodes = n * n * n * 2;
        let mut start = Vec::with_capacity(nodes + 1);
        let mut to = Vec::new();
        for id in 0..nodes {
            start.push(to.len() as u32);
            let (cell, value, _) = parts(n, id);
            if board.has(cell, value) {
                consequences(board, id, cell_links, unit_links, |next| {
                    to.push(next as u32)
                });
            }
        }
        start.push(to.len() as u32);
        Links { start, to }
    }

    pub(super) fn of(&self, id: usize) -> impl Iterator<Item = usize> + '_ {
        self.to[self.start[id] as usize..self.start[id + 1] as usize]
            .iter()
            .map(|&t| t as usize)
    }
}

/// From `start`, the shortest chain back to its opposite of at most `limit` candidates, breadth
/// first. `parent` and `length` are scratch space, one entry a node.
fn follow(links: &Links, start: usize, limit: usize, scratch: &mut Scratch) -> Option<Vec<usize>> {
    let Scratch {
        parent,
        length,
        queue,
        truncated,
        work,
        touched,
        ..
    } = scratch;
    for t in touched.drain(..) {
        parent[t] = NONE;
    }
    queue.clear();
    parent[start] = start as u32;
    touched.push(start);
    length[start] = 1;
    queue.push_back(start);
    let target = start ^ 1;
    while let Some(id) = queue.pop_front() {
        *work += 1;
        let next_length = length[id] + 1;
        if usize::from(next_length) > limit {
            *truncated = true;
            break;
        }
        let mut hit = false;
        for next in links.of(id) {
            if parent[next] != NONE {
                continue;
            }
            parent[next] = id as u32;
            touched.push(next);
            length[next] = next_length;
            if next == target {
                hit = true;
                break;
            }
            queue.push_back(next);
        }
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
    /// A search stopped at its length limit with more to follow: a higher cap may find more.
    truncated: bool,
    /// Nodes looked at since the budget was last charged.
    work: u64,
    /// The nodes whose `parent` the last search set, to reset.
    touched: Vec<usize>,
    /// The nodes the current cycle search reached true.
    reached_on: Marks,
    /// A cycle search's reached nodes, each with its parent's index here.
    arena: Vec<(usize, usize)>,
    /// A cycle search's frontier: indices in `arena` of true nodes, then of false ones.
    pending_on: Vec<usize>,
    pending_off: Vec<usize>,
    /// Per pass, per kind (cycle, chain) and start node: searched to the end without a find, so
    /// no higher cap needs it again.
    exhausted: [[Vec<bool>; 2]; 3],
}

/// The longest chain (in candidates) rated `base` plus its length adjustment that is rated at most
/// `cap` and would beat `best`: at least 1 (no chain), at most `most`.
fn limit(base: u16, best: Option<&Found>, cap: u16, most: usize) -> usize {
    // A chain of `len` candidates is rated `base + length_adjustment(len - 2)`.
    let longest_rated = |rating: u16| -> usize {
        rating
            .checked_sub(base)
            .map_or(1, |adjust| longest_adjusted(adjust).saturating_add(2))
    };
    let mut len = longest_rated(cap).min(most);
    if let Some(b) = best {
        // Rated below the best, or rated the same and shorter.
        let below = b.rating.checked_sub(1).map_or(1, longest_rated);
        let level = longest_rated(b.rating).min(b.complexity.saturating_sub(1));
        len = len.min(below.max(level));
    }
    len.max(1)
}

/// The easiest forcing X- or XY-chain or cycle, if any; each start costs effort from the budget.
/// As SE: unit links only, then cell links only (cycles alone: a forcing chain needs both kinds
/// of step), then both.
///
/// The search deepens: first only chains rated 6.5, then up to 6.6, and so on, so that the long
/// searches run only when no short chain exists.
pub fn find(board: &Board, ctx: &mut Context<'_>) -> Option<Step> {
    let n = board.n();
    let cells = n * n;
    let mut scratch = Scratch {
        parent: vec![NONE; cells * n * 2],
        length: vec![0; cells * n * 2],
        queue: VecDeque::new(),
        truncated: false,
        work: 0,
        touched: Vec::new(),
        reached_on: Marks::default(),
        arena: Vec::new(),
        pending_on: Vec::new(),
        pending_off: Vec::new(),
        exhausted: std::array::from_fn(|_| std::array::from_fn(|_| vec![false; cells * n * 2])),
    };
    let most = cells * n * 2;
    let links = [
        Links::new(board, false, true),
        Links::new(board, true, false),
        Links::new(board, true, true),
    ];
    for cap in 65..=70 + length_adjustment(most) {
        scratch.truncated = false;
        if let Some(found) = search(board, ctx, &links, &mut scratch, cap)? {
            return Some(step_of(board, ctx, found));
        }
        if !scratch.truncated {
            // Every search ran to its end: a higher cap finds nothing more.
            break;
        }
    }
    None
}

/// The easiest chain or cycle rated at most `cap`; `None` when the budget ran out.
fn search(
    board: &Board,
    ctx: &mut Context<'_>,
    links: &[Links; 3],
    scratch: &mut Scratch,
    cap: u16,
) -> Option<Option<Found>> {
    let n = board.n();
    let cells = n * n;
    let most = cells * n * 2;
    let mut best: Option<Found> = None;
    let consider = |found: Found, best: &mut Option<Found>| {
        if best
            .as_ref()
            .is_none_or(|b| (found.rating, found.complexity) < (b.rating, b.complexity))
        {
            *best = Some(found);
        }
    };
    for (pass, (cell_links, unit_links)) in [(false, true), (true, false), (true, true)]
        .into_iter()
        .enumerate()
    {
        let links = &links[pass];
        let chain_base = if cell_links { 70 } else { 66 };
        let cycle_base = if cell_links && unit_links { 70 } else { 65 };
        for cell in 0..cells {
            let count = board.cands(cell).count_ones();
            if count < 2 || (!unit_links && count > 2) {
                continue;
            }
            for value in values(board.cands(cell)) {
                // About twenty candidates looked at for each node the searches reached.
                let work = std::mem::take(&mut scratch.work);
                if !ctx.spend(cells as u64 + 20 * work) {
                    return None;
                }
                let start = node(n, cell, value, true);
                let limit_cycle = limit(cycle_base, best.as_ref(), cap, most);
                // Too short a limit for any cycle: a higher cap may allow one.
                scratch.truncated |= limit_cycle < 4;
                if limit_cycle >= 4 && !scratch.exhausted[pass][0][start] {
                    let mut cut = false;
                    scratch.reached_on.clear(most);
                    let found = cycle(board, links, start, limit_cycle, &mut cut, scratch);
                    scratch.truncated |= cut;
                    scratch.exhausted[pass][0][start] = found.is_none() && !cut;
                    if let Some((path, eliminations)) = found {
                        let complexity = path.len() - 1;
                        consider(
                            Found {
                                rating: cycle_base + length_adjustment(complexity - 2),
                                complexity,
                                path,
                                cell_links,
                                cycle: Some(eliminations),
                            },
                            &mut best,
                        );
                    }
                }
                if !unit_links {
                    continue;
                }
                for start in [start, start ^ 1] {
                    let limit = limit(chain_base, best.as_ref(), cap, most);
                    if limit < 4 {
                        scratch.truncated = true;
                        continue;
                    }
                    if scratch.exhausted[pass][1][start] {
                        continue;
                    }
                    let before = std::mem::replace(&mut scratch.truncated, false);
                    let found = follow(links, start, limit, scratch);
                    let cut = scratch.truncated;
                    scratch.truncated |= before;
                    scratch.exhausted[pass][1][start] = found.is_none() && !cut;
                    let Some(path) = found else {
                        continue;
                    };
                    consider(
                        Found {
                            rating: chain_base + length_adjustment(path.len() - 2),
                            complexity: path.len(),
                            path,
                            cell_links,
                            cycle: None,
                        },
                        &mut best,
                    );
                }
            }
        }
    }
    Some(best)
}

/// The shortest cycle from `start` (a candidate assumed true) back to itself, of at most `limit`
/// distinct candidates, that removes something, with what it removes: a candidate outside the
/// cycle's cells that sees a true and a false candidate of its value on the cycle (the cycle holds
/// either way round). Found as SE: breadth first, a false candidate reached again by another way
/// kept unless it is an ancestor.
fn cycle(
    board: &Board,
    links: &Links,
    start: usize,
    limit: usize,
    truncated: &mut bool,
    scratch: &mut Scratch,
) -> Option<(Vec<usize>, Vec<Candidate>)> {
    let Scratch {
        reached_on,
        work,
        arena,
        pending_on,
        pending_off,
        ..
    } = scratch;
    // Every reached node with its parent's index in `arena`.
    arena.clear();
    arena.push((start, usize::MAX));
    reached_on.insert(start);
    pending_on.clear();
    pending_on.push(0);
    pending_off.clear();
    let mut length = 0;
    let is_ancestor = |arena: &[(usize, usize)], mut at: usize, id: usize| {
        while at != usize::MAX {
            if arena[at].0 == id {
                return true;
            }
            at = arena[at].1;
        }
        false
    };
    while !pending_on.is_empty() || !pending_off.is_empty() {
        length += 1;
        if length > limit {
            *truncated = true;
            return None;
        }
        *work += (pending_on.len() + pending_off.len()) as u64;
        for &at in pending_on.iter() {
            let id = arena[at].0;
            for next in links.of(id) {
                if !is_ancestor(arena, at, next) {
                    arena.push((next, at));
                    pending_off.push(arena.len() - 1);
                }
            }
        }
        pending_on.clear();
        length += 1;
        for &at in pending_off.iter() {
            let id = arena[at].0;
            let mut found = None;
            for next in links.of(id) {
                if length >= 4 && next == start {
                    found = Some(at);
                    break;
                }
                if reached_on.insert(next) {
                    arena.push((next, at));
                    pending_on.push(arena.len() - 1);
                }
            }
            if let Some(last) = found {
                let mut path = vec![start];
                let mut up = last;
                while up != usize::MAX {
                    path.push(arena[up].0);
                    up = arena[up].1;
                }
                path.reverse();
                if let Some(eliminations) = cycle_eliminations(board, &path) {
                    return Some((path, eliminations));
                }
            }
        }
        pending_off.clear();
    }
    None
}

/// What the cycle `path` (start repeated at the end) removes, if anything.
fn cycle_eliminations(board: &Board, path: &[usize]) -> Option<Vec<Candidate>> {
    let n = board.n();
    let geo = board.geo();
    let on_cycle: Vec<usize> = path.iter().map(|&id| parts(n, id).0).collect();
    let mut forward = Vec::new();
    let mut backward = Vec::new();
    for &id in &path[1..] {
        let (cell, value, on) = parts(n, id);
        for unit in geo.all_units_of(cell) {
            for peer in geo.cells_in(unit, board.positions(unit, value)) {
                if peer != cell && !on_cycle.contains(&peer) {
                    let c = Candidate { cell: peer, value };
                    if on {
                        forward.push(c);
                    } else {
                        backward.push(c);
                    }
                }
            }
        }
    }
    forward.sort_unstable();
    forward.dedup();
    backward.sort_unstable();
    let both: Vec<Candidate> = forward
        .into_iter()
        .filter(|c| backward.binary_search(c).is_ok())
        .collect();
    (!both.is_empty()).then_some(both)
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
    // The path's candidates, once each: what the step rests on, cycle or chain.
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
    if let Some(eliminations) = found.cycle {
        step.eliminations = eliminations;
        if ctx.explain {
            step.text.push_str("A cycle holding either way round: ");
            for (i, &id) in found.path.iter().enumerate() {
                if i > 0 {
                    step.text.push_str(" - ");
                }
                let (c, v, _) = parts(n, id);
                let _ = write!(step.text, "{}={{{v}}}", geo.name(c));
            }
            step.text
                .push_str(". In either, each candidate seeing a true and a false one goes.");
            super::write_eliminations(&mut step.text, board, &step.eliminations);
        }
        return step;
    }
    if assumed {
        step.eliminations.push(Candidate { cell, value });
    } else {
        step.placements.push(Candidate { cell, value });
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The chain limit, counted up one length at a time as its definition reads.
    fn limit_by_counting(base: u16, best: Option<&Found>, cap: u16, most: usize) -> usize {
        let mut len = 1;
        loop {
            let next = len + 1;
            let rating = base + length_adjustment(next - 2);
            if next > most
                || rating > cap
                || best.is_some_and(|b| (rating, next) >= (b.rating, b.complexity))
            {
                return len;
            }
            len = next;
        }
    }

    #[test]
    fn the_chain_limit_is_the_counted_one() {
        for base in [65, 66, 70] {
            for cap in 60..100 {
                for most in [3, 10, 100, 1458] {
                    let found = |rating, complexity| Found {
                        rating,
                        complexity,
                        path: Vec::new(),
                        cell_links: false,
                        cycle: None,
                    };
                    assert_eq!(
                        limit(base, None, cap, most),
                        limit_by_counting(base, None, cap, most),
                        "{base} {cap} {most}"
                    );
                    for rating in 60..95 {
                        for complexity in [2, 3, 4, 5, 7, 9, 13, 20, 40, 100] {
                            let best = found(rating, complexity);
                            assert_eq!(
                                limit(base, Some(&best), cap, most),
                                limit_by_counting(base, Some(&best), cap, most),
                                "{base} {cap} {most} {rating} {complexity}"
                            );
                        }
                    }
                }
            }
        }
    }
}
