//! Failed-literal probing on a board at its propagation fixpoint: for every two-way choice, each side
//! is placed on a copy and propagated; a side that fails is ruled out, both failing is a
//! contradiction, and what both sides agree on (a candidate that neither keeps) is removed.

use super::board::{Board, Propagator};
use super::branch::{Choice, binary_choices};
use super::tables::Tables;
use super::{Limiter, Mask};

/// How a round of probing ended.
pub(super) enum Probed {
    /// The node has no solution.
    Contradiction,
    /// The budget or the cancel flag stopped the search.
    Stopped,
    /// Nothing more to learn this way; the two-way choice whose probes narrowed the board the most
    /// (product of both sides' removals), if any, is the one to branch on.
    Done(Option<Choice>),
}

/// Scratch space for probing, reused across nodes, with what each placement probed on the current
/// board led to: a placement shared by several choices (a bivalue cell's value that also has two
/// places in its row) is probed once per board.
pub(super) struct Probe {
    choices: Vec<Choice>,
    /// Per placement (`cell * 32 + value index`): the board version it was probed on.
    seen: Vec<u32>,
    /// Per placement probed on this version: [`FAILED`], or its slot in `boards`.
    slot: Vec<u32>,
    /// Per placement probed on this version: the candidates it removed.
    removed: Vec<u32>,
    /// The boards that surviving probes reached.
    boards: Vec<Board>,
    /// Slots of `boards` in use on this version.
    used: usize,
    /// The board version: bumped whenever probing changes the board.
    version: u32,
}

/// A placement whose probe met a contradiction.
const FAILED: u32 = u32::MAX;

impl Probe {
    pub(super) fn new(cells: usize) -> Probe {
        Probe {
            choices: Vec::new(),
            seen: vec![0; cells * 32],
            slot: vec![0; cells * 32],
            removed: vec![0; cells * 32],
            boards: Vec::new(),
            used: 0,
            version: 1,
        }
    }

    /// Forgets every probe: the board changed.
    fn next_version(&mut self) {
        self.version = self.version.wrapping_add(1).max(1);
        self.used = 0;
    }

    /// Probes placing `bit` in `cell` on `board`, or recalls it: `Some(placement index)` once known,
    /// `None` when the budget or the cancel flag stops the search.
    fn probe_one(
        &mut self,
        propagator: &mut Propagator<'_>,
        board: &Board,
        (cell, bit): (usize, Mask),
        limiter: &mut Limiter,
    ) -> Option<usize> {
        let literal = cell * 32 + bit.trailing_zeros() as usize;
        if self.seen[literal] == self.version {
            return Some(literal);
        }
        if !limiter.guess() {
            return None;
        }
        if self.boards.len() == self.used {
            self.boards.push(board.clone());
        }
        let trial = &mut self.boards[self.used];
        trial.copy_from(board);
        propagator.reset();
        let alive = propagator.place(trial, cell, bit) && propagator.singles(trial);
        self.seen[literal] = self.version;
        if alive {
            self.slot[literal] = self.used as u32;
            self.removed[literal] = propagator.removed;
            self.used += 1;
        } else {
            self.slot[literal] = FAILED;
        }
        Some(literal)
    }

    /// Probes every two-way choice of `board`, in rounds while they change it when `fixpoint`, else
    /// once. Each probe counts as a guess against the budget, so the budget and the cancel flag bound
    /// this work as they bound the search.
    pub(super) fn run(
        &mut self,
        propagator: &mut Propagator<'_>,
        board: &mut Board,
        tables: &Tables,
        fixpoint: bool,
        limiter: &mut Limiter,
    ) -> Probed {
        let cells = board.cand.len();
        self.next_version();
        loop {
            binary_choices(board, tables, &mut self.choices);
            if self.choices.is_empty() {
                return Probed::Done(None);
            }
            let mut progress = false;
            let mut best: Option<(Choice, u64)> = None;
            for i in 0..self.choices.len() {
                let choice = self.choices[i];
                // An earlier probe this round may have decided or narrowed this choice.
                if !choice.is_open(board) {
                    continue;
                }
                let mut literals = [0; 2];
                for (literal, &(cell, bit)) in literals.iter_mut().zip(&choice.sides) {
                    match self.probe_one(propagator, board, (usize::from(cell), bit), limiter) {
                        Some(l) => *literal = l,
                        None => return Probed::Stopped,
                    }
                }
                // Keep only what some surviving side keeps: a candidate neither keeps goes.
                let (x, y) = match literals.map(|l| self.slot[l]) {
                    [FAILED, FAILED] => return Probed::Contradiction,
                    [FAILED, s] | [s, FAILED] => (s, s),
                    [a, b] => (a, b),
                };
                let (x, y) = (&self.boards[x as usize].cand, &self.boards[y as usize].cand);
                let all = propagator.all;
                // Most choices agree on nothing: one vectorised pass finds out before any work.
                let agreed = (board.cand.iter().zip(x).zip(y))
                    .fold(0, |acc, ((&c, &x), &y)| acc | (c & all & !(x | y)));
                propagator.reset();
                if agreed != 0 {
                    for cell in 0..cells {
                        let gone = board.cand[cell] & all & !(x[cell] | y[cell]);
                        if gone != 0 && !propagator.eliminate(board, cell, gone) {
                            return Probed::Contradiction;
                        }
                    }
                }
                if propagator.changed {
                    progress = true;
                    self.next_version();
                    if !propagator.propagate(board) {
                        return Probed::Contradiction;
                    }
                } else {
                    let score = literals
                        .iter()
                        .map(|&l| u64::from(self.removed[l]) + 1)
                        .product::<u64>();
                    if best.is_none_or(|(_, s)| score > s) {
                        best = Some((choice, score));
                    }
                }
            }
            if !progress || !fixpoint {
                // Scored before a later change, the best may have been decided since.
                let best = best.map(|(choice, _)| choice);
                return Probed::Done(best.filter(|choice| choice.is_open(board)));
            }
        }
    }
}
