//! Sudoku Explainer's deepest nested chains, level 4, "(+ Dynamic Forcing Chains)": where a
//! chain's singles and the basic techniques run dry on the board it left, it takes what dynamic
//! forcing chains find on that board; where that finds nothing anywhere, SE tries again with
//! dynamic forcing chains (+) nested, then (+ forcing chains), all rated alike.
//!
//! The nested search is the chain search itself ([`super::search`]) on that board, keeping every
//! conclusion rather than the easiest. As SE counts a nested rule's parents, a conclusion rests on
//! the candidates the outer chain took off that its chains' singles needed gone: a cell's other
//! candidates where the cell came down to a value, a unit's other places where the unit did, and
//! those of the cell or unit its branches start from.

use std::hash::{DefaultHasher, Hash, Hasher};

use super::nested::{Nested, cell_gone, single_rests_on, unit_gone};
use super::{
    Closure, Context, Found, Kind, Marks, Order, Scratch, extend, forcing_unit, parts, search,
};
use crate::candidates::{Board, Candidate, bit, values};

/// A map keyed by candidates, hashed by foldhash, as in [`super::nested`].
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

/// Every conclusion of a nested search, as eliminations: for each candidate, the least complex
/// conclusion that takes it (then the first in SE's order).
pub(super) struct Every<'a> {
    /// The board the outer chain started from.
    start: &'a Board,
    best: HashMap<Candidate, ((usize, Order), Nested)>,
    seen: Marks,
    stack: Vec<u32>,
    /// The cells of a node's other parents, for [`single_rests_on`].
    taken: Vec<usize>,
}

impl Every<'_> {
    /// Takes `found`, a conclusion on `now` resting on each `(closure, node)` and starting from
    /// the cell's or unit's branches `group`, if any.
    pub(super) fn add<'c>(
        &mut self,
        now: &Board,
        found: &Found,
        rests_on: impl IntoIterator<Item = (&'c Closure, u32)>,
        group: Option<&[usize]>,
    ) {
        let n = now.n();
        let (cell, value, on) = parts(n, found.target);
        let rank = (found.complexity, found.order);
        // As SE, a candidate proven true takes the cell's others only.
        let taken = if on {
            now.cands(cell) & !bit(value)
        } else {
            bit(value)
        };
        let gone: Vec<Candidate> = values(taken)
            .map(|value| Candidate { cell, value })
            .filter(|g| self.best.get(g).is_none_or(|b| rank < b.0))
            .collect();
        if gone.is_empty() {
            return;
        }
        let mut parents = Vec::new();
        for (closure, at) in rests_on {
            self.path_rests_on(now, closure, at, &mut parents);
        }
        if let Some(group) = group {
            self.start_rests_on(now, group, &mut parents);
        }
        // A chain that rests on nothing the outer chain did is no part of it (SE).
        if parents.is_empty() {
            return;
        }
        parents.sort_unstable();
        parents.dedup();
        let mut hasher = DefaultHasher::new();
        (found.target, found.order).hash(&mut hasher);
        let id = hasher.finish();
        for g in gone {
            let nested = Nested {
                gone: g,
                rests_on: parents.clone(),
                complexity: found.complexity,
                id,
            };
            self.best.insert(g, (rank, nested));
        }
    }

    /// What the nodes `at` rests on in `closure` rest on of the outer chain's removals, added to
    /// `out`: for each node made true by a single, the cell's or the unit's candidates gone.
    fn path_rests_on(&mut self, now: &Board, closure: &Closure, at: u32, out: &mut Vec<Candidate>) {
        let n = now.n();
        self.seen.clear(closure.nodes.len());
        self.stack.clear();
        self.stack.push(at);
        while let Some(i) = self.stack.pop() {
            if !self.seen.insert(i as usize) {
                continue;
            }
            let parents = closure.parents_of(i);
            let (cell, value, on) = parts(n, closure.nodes[i as usize].0 as usize);
            if on && let Some((&first, others)) = parents.split_first() {
                // Its other parents are the places or candidates the chain took off itself.
                let cell_of = |p: u32| parts(n, closure.nodes[p as usize].0 as usize).0;
                self.taken.clear();
                self.taken.extend(others.iter().map(|&p| cell_of(p)));
                single_rests_on(
                    self.start,
                    now,
                    cell_of(first),
                    cell,
                    value,
                    &self.taken,
                    out,
                );
            }
            extend(&mut self.stack, parents);
        }
    }

    /// What a cell's or unit's forcing rests on at its start: the cell's candidates gone, or the
    /// unit's places of the value (`group` holds candidate indexes, `cell * n + value - 1`).
    fn start_rests_on(&self, now: &Board, group: &[usize], out: &mut Vec<Candidate>) {
        let n = now.n();
        let cell = group[0] / n;
        let value = (group[0] % n) as u8 + 1;
        if group.iter().all(|&i| i / n == cell) {
            out.extend(cell_gone(self.start, now, cell));
        } else if let Some(unit) = forcing_unit(now, group) {
            out.extend(unit_gone(self.start, now, unit, value));
        }
    }
}

/// How many times a unit of the chain's budget a nested search's unit counts for: its follows
/// take that much more time a unit than the work the budget mostly counts, and the budget stands
/// for time.
const WEIGHT: u64 = 4;

/// The eliminations the chains of `kind` find on `now`, a board a chain reached from `start`,
/// each with what it rests on of the chain's removals. The search spends from `allowance`, and
/// `work` counts what it spent, in the units the chain's nodes count in; where the allowance
/// runs out, the search stops and the work counted is more than the allowance was.
pub(super) fn implied(
    start: &Board,
    now: &Board,
    kind: Kind,
    allowance: &mut u64,
    work: &mut usize,
) -> Vec<Nested> {
    let n = now.n();
    let mut every = Every {
        start,
        best: HashMap::default(),
        seen: Marks::default(),
        stack: Vec::new(),
        taken: Vec::new(),
    };
    let budget = *allowance / WEIGHT;
    let mut ctx = Context {
        explain: false,
        solution: &[],
        budget,
        nested_budget: budget,
        exhausted: false,
        cancel: None,
        ceiling: u16::MAX,
        triples: Default::default(),
    };
    let mut scratch = Scratch {
        nested: true,
        ..Scratch::default()
    };
    let mut on_closures: Vec<Option<Closure>> = (0..n * n * n).map(|_| None).collect();
    search(
        now,
        &mut ctx,
        kind,
        &mut scratch,
        &mut on_closures,
        None,
        None,
        Some(&mut every),
    );
    // Where the search ran out, all of it is spent.
    let left = if ctx.exhausted { 0 } else { ctx.budget };
    let spent = (budget - left) * WEIGHT;
    *allowance -= spent;
    // The chain's work counts eight units a node; one more where the search ran out.
    let units = spent.div_ceil(8) + u64::from(ctx.exhausted);
    *work += usize::try_from(units).unwrap_or(usize::MAX);
    let mut out: Vec<_> = every.best.into_iter().collect();
    // In SE's order of the conclusions (the least complex first, then as SE finds them), each
    // one's eliminations in turn: the order the outer chain takes them in decides which later
    // nodes rest on which.
    out.sort_unstable_by_key(|&(gone, (rank, _))| (rank, gone));
    out.into_iter().map(|(_, (_, nested))| nested).collect()
}

#[cfg(test)]
mod tests {
    use super::{Kind, implied};
    use crate::candidates::{Board, Candidate, values};
    use crate::grader::{self, Options};

    /// Boards along the grading path of an SE 9.0 puzzle, each with a board a chain might reach
    /// from it: the same less a wrong candidate in each of its first cells of three or more (so
    /// the second still holds the solution), and the solution.
    fn boards_and_reached() -> Vec<(Board, Board, Vec<u8>)> {
        let puzzle =
            "98.76....76.53......4.9.76.6...5.84....3....2......31.4....5....9..7.48.......2.1";
        let (grid, grade) = grader::grade_of(puzzle, &Options::default());
        let solution = grader::unique_solution(&grid, u64::MAX, None)
            .expect("not cancelled")
            .expect("a unique puzzle");
        let solution = solution.cells().to_vec();
        let mut board = Board::new(&grid).expect("givens that do not clash");
        let mut out = Vec::new();
        for step in grade.steps {
            let n = board.n();
            let mut reached = board.clone();
            let wide = (0..n * n).filter(|&cell| board.cands(cell).count_ones() >= 3);
            for cell in wide.take(6) {
                let wrong = values(board.cands(cell)).find(|&v| v != solution[cell]);
                if let Some(value) = wrong {
                    reached.eliminate(cell, value);
                }
            }
            if (0..n * n).any(|cell| board.cands(cell).count_ones() >= 2) {
                out.push((board.clone(), reached, solution.clone()));
            }
            board.apply(&step.placements, &step.eliminations);
        }
        out
    }

    #[test]
    fn every_nested_dynamic_elimination_keeps_the_solution_and_rests_on_what_the_chain_took() {
        let (mut taken, mut boards) = (0, 0);
        for (start, now, solution) in boards_and_reached() {
            let gone_since =
                |c: &Candidate| start.has(c.cell, c.value) && !now.has(c.cell, c.value);
            for kind in [Kind::Dynamic, Kind::DynamicPlus, Kind::DynamicNested] {
                let (mut allowance, mut work) = (u64::MAX / 2, 0);
                let found = implied(&start, &now, kind, &mut allowance, &mut work);
                assert!(work > 0, "a search that cost nothing");
                boards += usize::from(!found.is_empty());
                for nested in &found {
                    let g = nested.gone;
                    assert!(now.has(g.cell, g.value), "{g:?} is not on the board");
                    assert_ne!(solution[g.cell], g.value, "{g:?} is the solution's");
                    assert!(!nested.rests_on.is_empty(), "{g:?} rests on nothing");
                    assert!(nested.rests_on.iter().all(gone_since), "{g:?}: {nested:?}");
                    assert!(nested.complexity >= 2, "{g:?}: {nested:?}");
                    taken += 1;
                }
            }
        }
        assert!(
            taken > 100 && boards > 10,
            "{taken} taken on {boards} boards"
        );
    }
}
