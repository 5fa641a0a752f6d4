//! Sudoku Explainer's harder chains, after its "Forcing Chains & Cycles" ([`super::unary_chain`]):
//! - Nishio (7.5): one value only; assume a candidate true (or false) and follow what it forces,
//!   each false candidate taken off the grid as it goes (so a unit may come down to one place);
//!   reaching a candidate both true and false decides the assumption.
//! - Multiple forcing chains (8.0): static chains through cells and units; whatever every
//!   candidate of a cell (or every place of a value in a unit) forces is so.
//! - Dynamic forcing chains (8.5): as multiple, but dynamic (candidates taken off as they go), and
//!   contradictions, and what a candidate forces both true and false.
//!
//! Each is rated its base plus SE's length adjustment on its complexity less two: the chains'
//! candidates with their ancestors (those that a step relied on having gone), summed over the
//! branches. Of each kind, the easiest (then least complex) is taken, as SE sorts its chains.

use std::collections::VecDeque;
use std::fmt::Write as _;

use super::{Context, Step, Technique, length_adjustment};
use crate::candidates::{Board, Candidate, bit, values};

/// No node.
const NONE: u32 = u32::MAX;

/// Which of SE's chain producers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Nishio forcing chains (7.5).
    Nishio,
    /// Multiple forcing chains, static (8.0).
    Multiple,
    /// Dynamic forcing chains (8.5).
    Dynamic,
}

impl Kind {
    fn base(self) -> u16 {
        match self {
            Kind::Nishio => 75,
            Kind::Multiple => 80,
            Kind::Dynamic => 85,
        }
    }
    /// Cell links (a cell's other candidates, a bivalue cell's other value) are used.
    fn cell_links(self) -> bool {
        self != Kind::Nishio
    }
    /// False candidates are taken off the grid as the chain goes.
    fn dynamic(self) -> bool {
        self != Kind::Multiple
    }
}

/// A node: candidate `cell * n + value - 1`, times two, plus one when true.
fn key(n: usize, cell: usize, value: u8, on: bool) -> usize {
    (cell * n + usize::from(value) - 1) * 2 + usize::from(on)
}

fn parts(n: usize, key: usize) -> (usize, u8, bool) {
    let c = key / 2;
    (c / n, (c % n) as u8 + 1, key % 2 == 1)
}

/// What one assumption leads to: every node reached, each with its parents (indexes into `nodes`).
struct Closure {
    nodes: Vec<(usize, Vec<u32>)>,
    /// The node index of each key reached, or `NONE`.
    index: Vec<u32>,
    /// A candidate reached both true and false: the true node, the false node.
    contradiction: Option<(u32, u32)>,
}

impl Closure {
    /// The number of distinct nodes `at` rests on, itself included.
    fn ancestors(&self, at: u32, seen: &mut Vec<bool>) -> usize {
        seen.clear();
        seen.resize(self.nodes.len(), false);
        let mut stack = vec![at];
        let mut count = 0;
        while let Some(i) = stack.pop() {
            if seen[i as usize] {
                continue;
            }
            seen[i as usize] = true;
            count += 1;
            stack.extend(self.nodes[i as usize].1.iter().copied());
        }
        count
    }

    fn get(&self, key: usize) -> Option<u32> {
        let i = self.index[key];
        (i != NONE).then_some(i)
    }
}

/// Follows `start` on `board` as SE's chaining does: true nodes first, one false node when none is
/// pending, until nothing more follows or a candidate is reached both ways.
fn follow(board: &Board, kind: Kind, start: usize) -> Closure {
    let n = board.n();
    let geo = board.geo();
    let mut grid = board.clone();
    let mut c = Closure {
        nodes: vec![(start, Vec::new())],
        index: vec![NONE; n * n * n * 2],
        contradiction: None,
    };
    c.index[start] = 0;
    let (mut pending_on, mut pending_off) = (VecDeque::new(), VecDeque::new());
    if start % 2 == 1 {
        pending_on.push_back(0u32);
    } else {
        pending_off.push_back(0u32);
    }
    let mut made: Vec<(usize, Vec<u32>)> = Vec::new();
    loop {
        made.clear();
        let from_on = if let Some(at) = pending_on.pop_front() {
            let (cell, value, _) = parts(n, c.nodes[at as usize].0);
            if kind.cell_links() {
                for other in values(grid.cands(cell) & !bit(value)) {
                    made.push((key(n, cell, other, false), vec![at]));
                }
            }
            let [row, col, bx] = geo.units_of(cell);
            let mut peers: Vec<usize> = Vec::new();
            for unit in [bx, row, col] {
                for peer in geo.cells_in(unit, grid.positions(unit, value)) {
                    if peer != cell && !peers.contains(&peer) {
                        peers.push(peer);
                        made.push((key(n, peer, value, false), vec![at]));
                    }
                }
            }
            true
        } else if let Some(at) = pending_off.pop_front() {
            let (cell, value, _) = parts(n, c.nodes[at as usize].0);
            if kind.cell_links()
                && grid.cands(cell).count_ones() == 2
                && let Some(other) = values(grid.cands(cell) & !bit(value)).next()
            {
                let mut parents = vec![at];
                // The cell's candidates this chain took off are parents too.
                for gone in values(board.cands(cell) & !grid.cands(cell)) {
                    if let Some(i) = c.get(key(n, cell, gone, false)) {
                        parents.push(i);
                    }
                }
                made.push((key(n, cell, other, true), parents));
            }
            let [row, col, bx] = geo.units_of(cell);
            for unit in [bx, row, col] {
                let others = grid.positions(unit, value) & !(1 << geo.slot_in(cell, unit));
                if others.count_ones() == 1 {
                    let peer = geo.cell_at(unit, others.trailing_zeros() as usize);
                    let mut parents = vec![at];
                    let gone = board.positions(unit, value) & !grid.positions(unit, value);
                    for g in geo.cells_in(unit, gone) {
                        if let Some(i) = c.get(key(n, g, value, false)) {
                            parents.push(i);
                        }
                    }
                    made.push((key(n, peer, value, true), parents));
                }
            }
            if kind.dynamic() {
                grid.eliminate(cell, value);
            }
            false
        } else {
            return c;
        };
        for (k, parents) in made.drain(..) {
            if let Some(opposite) = c.get(k ^ 1) {
                c.nodes.push((k, parents));
                let new = (c.nodes.len() - 1) as u32;
                c.contradiction = Some(if from_on {
                    (opposite, new)
                } else {
                    (new, opposite)
                });
                return c;
            }
            if c.index[k] == NONE {
                c.nodes.push((k, parents));
                let i = (c.nodes.len() - 1) as u32;
                c.index[k] = i;
                if k % 2 == 1 {
                    pending_on.push_back(i);
                } else {
                    pending_off.push_back(i);
                }
            }
        }
    }
}

/// A conclusion: a candidate true (placed) or false (removed), its rating and complexity.
struct Found {
    rating: u16,
    complexity: usize,
    target: usize,
    what: &'static str,
}

/// The easiest chain of `kind`, if any; each assumption followed costs effort from the budget.
pub fn find(board: &Board, ctx: &mut Context<'_>, kind: Kind) -> Option<Step> {
    let n = board.n();
    let cells = n * n;
    let mut best: Option<Found> = None;
    let mut seen = Vec::new();
    let consider = |found: Found, best: &mut Option<Found>| {
        if best
            .as_ref()
            .is_none_or(|b| (found.rating, found.complexity) < (b.rating, b.complexity))
        {
            *best = Some(found);
        }
    };
    // A conclusion about `target` that removes something.
    let worth = |target: usize| {
        let (cell, value, on) = parts(n, target);
        board.has(cell, value) && (!on || board.cands(cell).count_ones() > 1)
    };
    let rating = |complexity: usize| kind.base() + length_adjustment(complexity.saturating_sub(2));
    // The closures of each candidate assumed true, kept for the cell and unit forcing.
    let mut on_closures: Vec<Option<Closure>> = (0..cells * n).map(|_| None).collect();
    for cell in 0..cells {
        let count = board.cands(cell).count_ones();
        if count < 2 {
            continue;
        }
        for value in values(board.cands(cell)) {
            if !ctx.spend(4 * cells as u64) {
                return None;
            }
            let on = follow(board, kind, key(n, cell, value, true));
            let off = follow(board, kind, key(n, cell, value, false));
            if kind != Kind::Multiple {
                // A contradiction decides the assumption.
                for (closure, start) in [
                    (&on, key(n, cell, value, true)),
                    (&off, key(n, cell, value, false)),
                ] {
                    if let Some((t, f)) = closure.contradiction {
                        let complexity =
                            closure.ancestors(t, &mut seen) + closure.ancestors(f, &mut seen);
                        if worth(start ^ 1) {
                            consider(
                                Found {
                                    rating: rating(complexity),
                                    complexity,
                                    target: start ^ 1,
                                    what: "a contradiction",
                                },
                                &mut best,
                            );
                        }
                    }
                }
            }
            if kind == Kind::Dynamic && count >= 3 {
                // Whatever the candidate forces both true and false is so.
                for (k, &i) in on.index.iter().enumerate() {
                    if i == NONE || !worth(k) {
                        continue;
                    }
                    if let Some(j) = off.get(k) {
                        let complexity = on.ancestors(i, &mut seen) + off.ancestors(j, &mut seen);
                        consider(
                            Found {
                                rating: rating(complexity),
                                complexity,
                                target: k,
                                what: "both ways",
                            },
                            &mut best,
                        );
                    }
                }
            }
            on_closures[cell * n + usize::from(value) - 1] = Some(on);
        }
    }
    if kind != Kind::Nishio {
        let closure_of =
            |cell: usize, value: u8| on_closures[cell * n + usize::from(value) - 1].as_ref();
        let geo = board.geo();
        // Cell forcing, then unit forcing: what every branch forces.
        let mut branches: Vec<Vec<&Closure>> = Vec::new();
        for cell in 0..cells {
            if board.cands(cell).count_ones() >= 2 {
                branches.push(
                    values(board.cands(cell))
                        .filter_map(|v| closure_of(cell, v))
                        .collect(),
                );
            }
        }
        for unit in 0..3 * n {
            for value in values(board.all() & !board.placed(unit)) {
                let places = board.positions(unit, value);
                if places.count_ones() >= 2 {
                    branches.push(
                        geo.cells_in(unit, places)
                            .filter_map(|c| closure_of(c, value))
                            .collect(),
                    );
                }
            }
        }
        for branch in &branches {
            let Some(first) = branch.first() else {
                continue;
            };
            // A branch that ends in a contradiction is false and may join (SE keeps what it
            // reached before).
            if branch.len() < 2 {
                continue;
            }
            for (k, &i) in first.index.iter().enumerate() {
                if i == NONE || !worth(k) {
                    continue;
                }
                let mut complexity = first.ancestors(i, &mut seen);
                let mut all = true;
                for other in &branch[1..] {
                    match other.get(k) {
                        Some(j) => complexity += other.ancestors(j, &mut seen),
                        None => {
                            all = false;
                            break;
                        }
                    }
                }
                if all {
                    consider(
                        Found {
                            rating: rating(complexity),
                            complexity,
                            target: k,
                            what: "every branch",
                        },
                        &mut best,
                    );
                }
            }
        }
    }
    let found = best?;
    let (cell, value, on) = parts(n, found.target);
    let mut step = Step::new(Technique::ForcingChain, found.rating);
    if on {
        step.placements.push(Candidate { cell, value });
    } else {
        step.eliminations.push(Candidate { cell, value });
    }
    if ctx.explain {
        let name = match kind {
            Kind::Nishio => "Nishio forcing chain",
            Kind::Multiple => "Multiple forcing chains",
            Kind::Dynamic => "Dynamic forcing chains",
        };
        let _ = write!(
            step.text,
            "{name} ({}): {} {} {{{value}}}.",
            found.what,
            board.geo().name(cell),
            if on { "is" } else { "is not" }
        );
    }
    Some(step)
}
