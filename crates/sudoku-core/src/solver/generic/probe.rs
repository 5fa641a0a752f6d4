//! Failed-literal probing on a board at its propagation fixpoint: for every two-way choice, each side
//! is placed on a copy and propagated; a side that fails is ruled out, both failing is a
//! contradiction, and what both sides agree on (a candidate that neither keeps) is removed.

use super::board::{Board, Propagator, for_each_change};
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
    /// Per placement probed on this version: [`FAILED`], or where its removals start in `log`.
    slot: Vec<u32>,
    /// Per placement probed on this version: the candidates it removed.
    removed: Vec<u32>,
    /// Per surviving placement probed on this version, from its `slot`: how many entries of `log`.
    len: Vec<u32>,
    /// What surviving probes removed on this version: `(cell, candidates gone)`, a run per probe.
    log: Vec<(u32, Mask)>,
    /// The board each probe runs on: one copy of the node's board, put back after every probe. A
    /// probe's result is kept as its run of `log`, not as a board of its own, so every probe
    /// writes the same 10 KB (on 25x25), which stay in cache.
    trial: Option<Board>,
    /// Whether `trial` has fallen behind the node's board (which changed since it was copied).
    stale: bool,
    /// Per cell, the candidates the first side of the choice being settled removed (else 0).
    mark: Vec<Mask>,
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
            len: vec![0; cells * 32],
            log: Vec::new(),
            trial: None,
            stale: true,
            mark: vec![0; cells],
            version: 1,
        }
    }

    /// Forgets every probe: the board changed.
    fn next_version(&mut self) {
        self.version = self.version.wrapping_add(1).max(1);
        self.log.clear();
        self.stale = true;
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
        let trial = self.trial.get_or_insert_with(|| board.clone());
        if self.stale {
            trial.copy_from(board);
            self.stale = false;
        }
        propagator.reset();
        let alive = propagator.place(trial, cell, bit) && propagator.singles(trial);
        self.seen[literal] = self.version;
        let start = self.log.len();
        let all = propagator.all;
        if alive {
            // What the probe removed: its run of the log.
            let log = &mut self.log;
            for_each_change(&trial.cand, &board.cand, |cell, now, then| {
                log.push((cell as u32, then & all & !now));
            });
        }
        // Put back: one copy of a board that stays in cache, not a fresh one per probe.
        trial.copy_from(board);
        if alive {
            self.slot[literal] = start as u32;
            self.len[literal] = (self.log.len() - start) as u32;
            self.removed[literal] = propagator.removed;
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
                let (a, b) = match literals.map(|l| self.slot[l]) {
                    [FAILED, FAILED] => return Probed::Contradiction,
                    [FAILED, _] => (literals[1], literals[1]),
                    [_, FAILED] => (literals[0], literals[0]),
                    _ => (literals[0], literals[1]),
                };
                let run = |l: usize| {
                    let start = self.slot[l] as usize;
                    start..start + self.len[l] as usize
                };
                let (run_a, run_b) = (run(a), run(b));
                propagator.reset();
                if a == b {
                    // One side failed: the other holds, so all it removed goes.
                    for &(cell, gone) in &self.log[run_a] {
                        if !propagator.eliminate(board, cell as usize, gone) {
                            return Probed::Contradiction;
                        }
                    }
                } else {
                    // Most choices agree on nothing: only the cells both sides changed are looked at.
                    for &(cell, gone) in &self.log[run_a.clone()] {
                        self.mark[cell as usize] = gone;
                    }
                    let mut alive = true;
                    for &(cell, gone) in &self.log[run_b] {
                        let both = self.mark[cell as usize] & gone;
                        if both != 0 && !propagator.eliminate(board, cell as usize, both) {
                            alive = false;
                            break;
                        }
                    }
                    for &(cell, _) in &self.log[run_a] {
                        self.mark[cell as usize] = 0;
                    }
                    if !alive {
                        return Probed::Contradiction;
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
