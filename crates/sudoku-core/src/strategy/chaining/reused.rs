//! The follows of the last dynamic search, taken again by the next one on a board that has only
//! lost candidates since (the next step of a grade, mostly).
//!
//! A dynamic follow reads the board in two ways only: the candidates of a node's cell, and the
//! places of the node's value in the houses around it. A true node takes all of those off, and
//! each becomes a node of the closure (unless a contradiction ends the follow first), so a loss
//! there is a lost node. A false node only asks whether its cell is down to two candidates, or its
//! value to one other place in a house, so a loss there matters only where the count it saw, or
//! that count less the loss, is that one ([`Read`]). Where none of a closure's candidates is lost
//! and every false node's counts come out the same, the follow reaches the same nodes, in the same
//! order, from the same parents: it is the same closure, and its counts are carried to the new
//! board for the next search. Where a step reaches a lost candidate or counts otherwise, every step
//! before it goes as it went, so the closure is cut back to before that step and gone on with.

use super::{Closure, Kind, UNREACHED, parts};
use crate::candidates::{Board, Geometry, Mask, values};

/// What a false node saw of the board when it was followed: how many candidates its cell had,
/// and how many other places its value had in each of the cell's three houses. A closure keeps
/// one for each of its steps that followed a false node, in turn.
#[derive(Clone, Copy)]
pub(super) struct Read {
    cell: u8,
    houses: [u8; 3],
}

impl Read {
    /// What a false node saw of its cell, `cands`; its houses are added by [`Read::saw`].
    pub(super) fn new(cands: Mask) -> Read {
        Read {
            cell: cands.count_ones() as u8,
            houses: [0; 3],
        }
    }

    /// The other places, `others`, that the node saw in its `i`th house.
    pub(super) fn saw(&mut self, i: usize, others: Mask) {
        if let Some(house) = self.houses.get_mut(i) {
            *house = others.count_ones() as u8;
        }
    }
}

/// Whether a false node that saw `count` of something, `lost` of which are gone, sees the same:
/// it asks only whether the count is `single` (two candidates in a cell, one other place in a
/// house), so a loss matters only where the count was that, or comes to it. (A loss past the
/// count cannot be, and counts as a change.)
fn same(count: u8, lost: u8, single: u8) -> bool {
    lost == 0
        || count
            .checked_sub(lost)
            .is_some_and(|left| count != single && left != single)
}

/// A closure taken again: whole, or cut back to the steps that read the same, to be gone on with.
pub(super) enum Taken {
    /// The follow as it was: nothing it read is lost.
    Whole(Closure),
    /// The steps of the follow before the first that reads something lost, to go on from.
    Cut(Closure),
}

impl Taken {
    /// The closure, as it stands.
    pub(super) fn closure(self) -> Closure {
        match self {
            Taken::Whole(c) | Taken::Cut(c) => c,
        }
    }
}

/// The closures of one search, with the board and kind they were followed on.
pub(super) struct Followed {
    board: Board,
    kind: Kind,
    /// Each closure with the node it started from.
    closures: Vec<(usize, Closure)>,
}

impl Followed {
    /// The closures of a search of `kind` on `board`, each with its start node.
    pub(super) fn new(board: &Board, kind: Kind, closures: Vec<(usize, Closure)>) -> Followed {
        Followed {
            board: board.clone(),
            kind,
            closures,
        }
    }

    /// Splits the closures into what a search of `kind` on `board` may take again, by start node
    /// (`keys` of them), and the others, done with.
    pub(super) fn split(
        self,
        board: &Board,
        kind: Kind,
        keys: usize,
    ) -> (Vec<Option<Taken>>, Vec<Closure>) {
        let mut same: Vec<Option<Taken>> = (0..keys).map(|_| None).collect();
        let lost = (kind == self.kind)
            .then(|| Lost::between(&self.board, board))
            .flatten();
        let Some(lost) = lost else {
            return (same, self.closures.into_iter().map(|(_, c)| c).collect());
        };
        let mut done = Vec::new();
        for (start, mut closure) in self.closures {
            if start >= keys || lost.candidate[start / 2] {
                done.push(closure);
                continue;
            }
            let taken = match lost.carry(&mut closure, board.geo()) {
                None => Taken::Whole(closure),
                Some(step) => {
                    cut(&mut closure, step);
                    Taken::Cut(closure)
                }
            };
            same[start] = Some(taken);
        }
        (same, done)
    }
}

/// What a board lost since an earlier one.
struct Lost {
    n: usize,
    /// By candidate (`cell * n + value - 1`): whether it is gone.
    candidate: Vec<bool>,
    /// By candidate: whether its cell lost nothing, nor its value a place around the cell.
    quiet: Vec<bool>,
    /// By cell: how many candidates it lost.
    cells: Vec<u8>,
    /// By unit and value (`unit * n + value - 1`): how many places it lost.
    places: Vec<u8>,
}

impl Lost {
    /// What `now` lost since `before`; `None` where it is not `before` less some candidates.
    fn between(before: &Board, now: &Board) -> Option<Lost> {
        let n = now.n();
        let geo = now.geo();
        let fewer = now.same_layout(before)
            && (0..n * n).all(|cell| now.cands(cell) & !before.cands(cell) == 0);
        if !fewer {
            return None;
        }
        let mut lost = Lost {
            n,
            candidate: vec![false; n * n * n],
            quiet: vec![true; n * n * n],
            cells: vec![0; n * n],
            places: vec![0; geo.units().len() * n],
        };
        for cell in 0..n * n {
            let gone = before.cands(cell) & !now.cands(cell);
            lost.cells[cell] = gone.count_ones() as u8;
            for value in values(gone) {
                lost.candidate[cell * n + usize::from(value) - 1] = true;
                for unit in geo.all_units_of(cell) {
                    lost.places[unit * n + usize::from(value) - 1] += 1;
                }
            }
        }
        for cell in 0..n * n {
            for value in 1..=n as u8 {
                let place = |unit: usize| lost.places[unit * n + usize::from(value) - 1];
                lost.quiet[cell * n + usize::from(value) - 1] =
                    lost.cells[cell] == 0 && geo.all_units_of(cell).all(|unit| place(unit) == 0);
            }
        }
        Some(lost)
    }

    /// The first step of `closure` that may go otherwise now: one that reached a candidate lost,
    /// or a false node whose counts come out otherwise; `None` for none. The counts of the false
    /// nodes before it are brought to the board now, for the next search to hold against: less
    /// what is lost, which was all there when the node was followed (a candidate gone in the
    /// follow is one of its nodes, and none of those before that step is lost).
    fn carry(&self, closure: &mut Closure, geo: &Geometry) -> Option<usize> {
        let n = self.n;
        let Closure {
            nodes,
            reads,
            steps,
            ..
        } = closure;
        let mut reads = reads.iter_mut();
        steps.iter().enumerate().position(|(i, &(at, from))| {
            let to = steps.get(i + 1).map_or(nodes.len(), |s| s.1 as usize);
            if nodes[from as usize..to]
                .iter()
                .any(|&(k, _)| self.candidate[k as usize / 2])
            {
                return true;
            }
            let key = nodes[at as usize].0 as usize;
            if !key.is_multiple_of(2) {
                return false;
            }
            let Some(read) = reads.next() else {
                return false;
            };
            if self.quiet[key / 2] {
                return false;
            }
            let (cell, value, _) = parts(n, key);
            let places = |unit: usize| self.places[unit * n + usize::from(value) - 1];
            let same = same(read.cell, self.cells[cell], 2)
                && geo
                    .house_slots(cell)
                    .zip(read.houses)
                    .all(|((unit, _), count)| same(count, places(unit), 1));
            if same {
                read.cell -= self.cells[cell];
                for ((unit, _), count) in geo.house_slots(cell).zip(&mut read.houses) {
                    *count -= places(unit);
                }
            }
            !same
        })
    }
}

/// Cuts `closure` back to before its step `step`: the nodes reached since, their parents, reads
/// and steps go, and so does the contradiction, which only a last step reaches.
fn cut(closure: &mut Closure, step: usize) {
    let from = closure.steps[step].1 as usize;
    for &(k, _) in &closure.nodes[from..] {
        closure.index[k as usize] = UNREACHED;
    }
    let parents = closure
        .nodes
        .get(from)
        .map_or(closure.parents.len(), |n| n.1 as usize);
    closure.parents.truncate(parents);
    closure.nodes.truncate(from);
    closure.contradiction = None;
    let n_off = closure.steps[..step]
        .iter()
        .filter(|&&(at, _)| closure.nodes[at as usize].0.is_multiple_of(2))
        .count();
    closure.reads.truncate(n_off);
    closure.steps.truncate(step);
}
