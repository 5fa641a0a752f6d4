//! Sudoku Explainer's harder chains, after its "Forcing Chains & Cycles" ([`super::unary_chain`]):
//! - Nishio (7.5): one value only; assume a candidate true (or false) and follow what it forces,
//!   each false candidate taken off the grid as it goes (so a unit may come down to one place);
//!   reaching a candidate both true and false decides the assumption.
//! - Multiple forcing chains (8.0): static chains through cells and units; whatever every
//!   candidate of a cell (or every place of a value in a unit) forces is so.
//! - Dynamic forcing chains (8.5): as multiple, but dynamic (candidates taken off as they go), and
//!   contradictions, and what a candidate forces both true and false.
//! - Dynamic forcing chains (+) (9.0): as dynamic, and where the singles run dry the chain goes on
//!   by what the basic techniques find on the board it left ([`advanced`]).
//! - Dynamic forcing chains (+ forcing chains) (9.5): as (+), and where the basic techniques run
//!   dry too, by what static forcing chains find on that board ([`nested`]); each nested chain's
//!   complexity is added to the chain's, once.
//! - Dynamic forcing chains (+ multiple forcing chains) (10.0): as (+ forcing chains), and where
//!   those run dry too, by what static multiple forcing chains find on that board.
//! - Dynamic forcing chains (+ dynamic forcing chains) (10.5): as (+), and where the basic
//!   techniques run dry, by what dynamic forcing chains find on that board; where that finds
//!   nothing, the same with dynamic forcing chains (+) nested, then (+ forcing chains)
//!   ([`dynamic_nested`]). SE's static chains are not nested here: the dynamic ones find all they
//!   would.
//!
//! Each is rated its base plus SE's length adjustment on its complexity less two: the chains'
//! candidates with their ancestors (those that a step relied on having gone), summed over the
//! branches. Of each kind, the easiest (then least complex) is taken, as SE sorts its chains.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::rc::Rc;

use super::unary_chain::{Links, Using, cell_consequences, node, parts, unit_consequences};
use super::{Context, Marks, Step, Technique, length_adjustment};
use crate::candidates::{Board, Candidate, UnitKind, bit, values};

mod advanced;
mod dynamic_nested;
mod nested;
mod reused;

/// No node.
const NONE: u32 = u32::MAX;

/// The most keys (a 9x9 grid has 1,458) for which the searches a rule keeps by the hundred (the
/// closures kept for the cell and unit forcing, the nested rules' searches) keep their table of
/// every key, the quickest to look up in; past it (16x16 and up) they list the keys they reached,
/// as hundreds of tables of a 25x25 grid's 31,250 keys would take hundreds of megabytes.
const DENSE_KEYS: usize = 4096;

/// No node reached for a key ([`Closure::index`]).
const UNREACHED: u16 = u16::MAX;

/// Which of SE's chain producers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Nishio forcing chains (7.5).
    Nishio,
    /// Multiple forcing chains, static (8.0).
    Multiple,
    /// Dynamic forcing chains (8.5).
    Dynamic,
    /// Dynamic forcing chains helped by the basic techniques, SE's "(+)" (9.0).
    DynamicPlus,
    /// Dynamic forcing chains helped by the basic techniques and static forcing chains, SE's
    /// "(+ Forcing Chains)" (9.5).
    DynamicNested,
    /// As [`Kind::DynamicNested`], helped by static multiple forcing chains too, SE's "(+ Multiple
    /// Forcing Chains)" (10.0).
    DynamicMultiple,
    /// As [`Kind::DynamicPlus`], helped by dynamic forcing chains too, SE's "(+ Dynamic Forcing
    /// Chains)" (10.5).
    DynamicDynamic,
    /// As [`Kind::DynamicDynamic`] with dynamic forcing chains (+) nested (10.5).
    DynamicDynamicPlus,
    /// As [`Kind::DynamicDynamic`] with dynamic forcing chains (+ forcing chains) nested (10.5).
    DynamicDynamicNested,
}

impl Kind {
    /// The rating of the kind's shortest chain; longer ones rate more.
    pub fn base(self) -> u16 {
        match self {
            Kind::Nishio => 75,
            Kind::Multiple => 80,
            Kind::Dynamic => 85,
            Kind::DynamicPlus => 90,
            Kind::DynamicNested => 95,
            Kind::DynamicMultiple => 100,
            Kind::DynamicDynamic | Kind::DynamicDynamicPlus | Kind::DynamicDynamicNested => 105,
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
    /// What a candidate forces both true and false is so.
    fn both_ways(self) -> bool {
        !matches!(self, Kind::Nishio | Kind::Multiple)
    }
    /// The kind that goes on from this one's follows where they ended without a conclusion: the
    /// (+ forcing chains) follow the (+) chains, then look for nested chains where those run dry;
    /// the (+ multiple forcing chains) follow those, then look for nested multiple chains; each
    /// (+ dynamic forcing chains) kind follows the one before, then nests its own dynamic chains.
    /// The first of those starts afresh: keeping level 3's follows would cost every search of it,
    /// and level 4 is seldom reached.
    fn gone_on_by(self) -> Option<Kind> {
        match self {
            Kind::DynamicPlus => Some(Kind::DynamicNested),
            Kind::DynamicNested => Some(Kind::DynamicMultiple),
            Kind::DynamicDynamic => Some(Kind::DynamicDynamicPlus),
            Kind::DynamicDynamicPlus => Some(Kind::DynamicDynamicNested),
            _ => None,
        }
    }
    /// The kind of the dynamic chains nested in this kind's, SE's level 4.
    fn inner(self) -> Option<Kind> {
        match self {
            Kind::DynamicDynamic => Some(Kind::Dynamic),
            Kind::DynamicDynamicPlus => Some(Kind::DynamicPlus),
            Kind::DynamicDynamicNested => Some(Kind::DynamicNested),
            _ => None,
        }
    }
    /// Whether a later search may take this kind's follows on `board` again ([`reused`]): the
    /// dynamic chains', which read only the board around their nodes (the (+) kinds read the
    /// whole board; Nishio's follows are too short to gain), on a grid without extra units, whose
    /// closures keep their table of every key.
    fn reusable_on(self, board: &Board) -> bool {
        let n = board.n();
        self == Kind::Dynamic && n * n * n * 2 <= DENSE_KEYS && !board.geo().has_extra_units()
    }
    /// Where the singles run dry, the basic techniques go on.
    fn plus(self) -> bool {
        self.nesting() >= 1
    }
    /// SE's nesting level: 1 for the basic techniques, 2 with static forcing chains, 3 with
    /// static multiple forcing chains, 4 with dynamic forcing chains ([`Kind::inner`]); 0 for
    /// none.
    fn nesting(self) -> u8 {
        match self {
            Kind::Nishio | Kind::Multiple | Kind::Dynamic => 0,
            Kind::DynamicPlus => 1,
            Kind::DynamicNested => 2,
            Kind::DynamicMultiple => 3,
            Kind::DynamicDynamic | Kind::DynamicDynamicPlus | Kind::DynamicDynamicNested => 4,
        }
    }
}

/// What one assumption leads to: every node reached, each with its parents (indexes into the
/// nodes), stored flat.
struct Closure {
    /// Each node's key and where its parents start in `parents`.
    nodes: Vec<(u32, u32)>,
    parents: Vec<u32>,
    /// The node index of each key reached, or `UNREACHED`: a node fits in 16 bits, as a 25x25
    /// grid has 31,250 keys. Empty once the closure is [kept](Closure::kept).
    index: Vec<u16>,
    /// A kept closure's keys reached, ascending, each with its node index.
    kept: Vec<(u32, u16)>,
    /// A candidate reached both true and false: the true node, the false node.
    contradiction: Option<(u32, u32)>,
    /// How many times the basic techniques were run on the chain's board ([`Kind::plus`]).
    scans: usize,
    /// The nodes the nested chains' searches looked at (nesting level 2 and up).
    nested_work: usize,
    /// The nested chains a node follows from, by node index (ascending): the chain's index in
    /// `chains`.
    nested: Vec<(u32, u32)>,
    /// Each nested chain's id and complexity.
    chains: Vec<(u64, usize)>,
    /// What each false node followed saw of the board, where a later search may take the
    /// closure again ([`reused`]).
    reads: Vec<reused::Read>,
    /// Where a later search may take the closure again: each node followed, in turn, with the
    /// number of nodes reached before it was.
    steps: Vec<(u32, u32)>,
}

/// Scratch space for walking a closure's ancestors, kept across walks.
#[derive(Default)]
struct Walk {
    seen: Marks,
    stack: Vec<u32>,
    /// The nested chains met, as [`Closure::chains`] holds them.
    chains: Vec<(u64, usize)>,
}

impl Walk {
    /// The complexity of a conclusion resting on each `(closure, node)`: the distinct nodes each
    /// rests on in its closure, summed, and the complexities of the distinct nested chains they
    /// follow from. `None` once that is past `limit`, the complexity of the best conclusion found:
    /// one past it cannot rank before it, as a kind's rating grows with complexity.
    fn complexity<'c>(
        &mut self,
        rests_on: impl IntoIterator<Item = (&'c Closure, u32)>,
        limit: usize,
    ) -> Option<usize> {
        let mut total = 0;
        for (closure, at) in rests_on {
            match closure.ancestors(at, self, limit - total) {
                Some(count) => total += count,
                None => {
                    self.chains.clear();
                    return None;
                }
            }
        }
        self.chains.sort_unstable();
        self.chains.dedup_by_key(|&mut (id, _)| id);
        total += self
            .chains
            .iter()
            .map(|&(_, complexity)| complexity)
            .sum::<usize>();
        self.chains.clear();
        (total <= limit).then_some(total)
    }
}

/// A follow's working space, kept across follows: its queues, what one node leads to, and the
/// closures done with, whose tables the next follows take over.
#[derive(Default)]
struct Scratch {
    pending_on: VecDeque<u32>,
    pending_off: VecDeque<u32>,
    /// The consequences of one node: keys, their parents in `made_parents`, and the nested chain
    /// (index in [`Closure::chains`]) they follow from, or `NONE`.
    made: Vec<(usize, usize, usize, u32)>,
    made_parents: Vec<u32>,
    spare: Vec<Closure>,
    /// Key tables given up by kept closures, for new ones.
    tables: Vec<Vec<u16>>,
    /// The last dynamic follow's copy of the board, whose buffers the next copy takes over unless
    /// the search keeps it.
    work: Option<Board>,
    /// More copies done with, for when the search keeps them.
    boards: Vec<Board>,
    /// The closure of a follow the kind before ended, to go on from.
    resumed: Option<Closure>,
    /// The nesting level the kind before already looked at where that follow ended (1: the basic
    /// techniques found nothing there, 2: the nested chains did not either; 4: the basic
    /// techniques found nothing, and the nested dynamic chains of the kind before did not
    /// either); 0 for none.
    looked: u8,
    /// The static kind's links, the same for every follow on the board: built once.
    links: Option<Rc<Links>>,
    /// What the last search followed that this one may take again, by start node ([`reused`]).
    again: Vec<Option<reused::Taken>>,
    /// The closures of this search a later one may take again, each with its start node.
    done: Vec<(usize, Closure)>,
    /// The budget a follow's nested dynamic searches ([`dynamic_nested`]) may still spend: the
    /// search's budget when the follow began, less what they spent.
    allowance: u64,
    /// The scratch of a search nested in a chain ([`dynamic_nested`]), whose follows no later
    /// search takes again.
    nested: bool,
}

impl Scratch {
    /// A copy of `board` for a dynamic follow to take candidates off, made in the buffers of a
    /// copy done with where there is one.
    fn copy_of(&mut self, board: &Board) -> Board {
        match self.work.take().or_else(|| self.boards.pop()) {
            Some(mut copy) => {
                copy.clone_from(board);
                copy
            }
            None => board.clone(),
        }
    }
}

impl Closure {
    /// An empty closure over `keys` keys, in the key table `index` if one is spare.
    fn new(keys: usize, index: Option<Vec<u16>>) -> Closure {
        // Room for a typical closure, which would otherwise grow its tables five times over.
        Closure {
            nodes: Vec::with_capacity(64),
            parents: Vec::with_capacity(128),
            index: index.unwrap_or_else(|| vec![UNREACHED; keys]),
            kept: Vec::new(),
            contradiction: None,
            scans: 0,
            nested_work: 0,
            nested: Vec::new(),
            chains: Vec::new(),
            reads: Vec::new(),
            steps: Vec::new(),
        }
    }

    /// This closure's tables, emptied for another follow: only the keys it reached are reset.
    fn emptied(mut self) -> Closure {
        for &(key, _) in &self.nodes {
            self.index[key as usize] = UNREACHED;
        }
        self.nodes.clear();
        self.parents.clear();
        self.contradiction = None;
        self.scans = 0;
        self.nested_work = 0;
        self.nested.clear();
        self.chains.clear();
        self.reads.clear();
        self.steps.clear();
        self
    }

    fn parents_of(&self, at: u32) -> &[u32] {
        let from = self.nodes[at as usize].1 as usize;
        let to = self
            .nodes
            .get(at as usize + 1)
            .map_or(self.parents.len(), |n| n.1 as usize);
        &self.parents[from..to]
    }

    /// The number of distinct nodes `at` rests on, itself included, or `None` once it is past
    /// `limit`; the nested chains they follow from are added to `walk.chains`.
    fn ancestors(&self, at: u32, walk: &mut Walk, limit: usize) -> Option<usize> {
        walk.seen.clear(self.nodes.len());
        walk.stack.clear();
        walk.stack.push(at);
        let mut count = 0;
        while let Some(i) = walk.stack.pop() {
            if !walk.seen.insert(i as usize) {
                continue;
            }
            count += 1;
            if count > limit {
                return None;
            }
            if let Ok(k) = self.nested.binary_search_by_key(&i, |&(node, _)| node) {
                walk.chains.push(self.chains[self.nested[k].1 as usize]);
            }
            extend(&mut walk.stack, self.parents_of(i));
        }
        Some(count)
    }

    /// The node reached for `key`, if any.
    fn get(&self, key: usize) -> Option<u32> {
        if self.index.is_empty() {
            let at = self.kept.binary_search_by_key(&(key as u32), |&(k, _)| k);
            return at.ok().map(|at| u32::from(self.kept[at].1));
        }
        self.reached(key)
    }

    /// [`Closure::get`] on a closure still being followed, which keeps its table of every key.
    fn reached(&self, key: usize) -> Option<u32> {
        let i = self.index[key];
        (i != UNREACHED).then_some(u32::from(i))
    }

    /// This closure kept for later lookups with its keys listed in order, its key table reset and
    /// handed to `tables` for the next follow.
    fn kept(mut self, tables: &mut Vec<Vec<u16>>) -> Closure {
        self.kept.clear();
        for &(key, _) in &self.nodes {
            let i = std::mem::replace(&mut self.index[key as usize], UNREACHED);
            if i != UNREACHED {
                self.kept.push((key, i));
            }
        }
        self.kept.sort_unstable();
        tables.push(std::mem::take(&mut self.index));
        self
    }

    /// Adds node `key` with `parents`; its index.
    fn push(&mut self, key: usize, parents: &[u32]) -> u32 {
        self.nodes.push((key as u32, self.parents.len() as u32));
        extend(&mut self.parents, parents);
        (self.nodes.len() - 1) as u32
    }
}

/// Appends `items` to `to` one by one: most nodes have one parent, which a call to copy memory
/// would cost several times over.
fn extend(to: &mut Vec<u32>, items: &[u32]) {
    for &item in items {
        to.push(item);
    }
}

/// Follows `start` on `board` as SE's chaining does: true nodes first, one false node when none is
/// pending, until nothing more follows or a candidate is reached both ways. The dynamic kinds take
/// candidates off a copy of the board, left in `scratch.work`. Given where the kind before ended
/// the same follow (`ended`), goes on from there instead.
fn follow(
    board: &Board,
    kind: Kind,
    start: usize,
    ended: Option<Ended>,
    searches: &mut nested::Searches,
    scratch: &mut Scratch,
) -> Closure {
    let mut copy = match ended {
        Some(Ended {
            closure,
            work,
            looked,
        }) => {
            scratch.looked = looked;
            scratch.resumed = Some(closure);
            scratch.pending_on.clear();
            scratch.pending_off.clear();
            scratch.boards.extend(scratch.work.take());
            Some(work)
        }
        // The dynamic kinds take candidates off a copy.
        None => kind.dynamic().then(|| scratch.copy_of(board)),
    };
    let c = follow_on(board, kind, start, copy.as_mut(), searches, scratch);
    scratch.work = copy;
    c
}

/// The follow of `start`: as the last search left it where this one may take it again (whole, or
/// gone on with from where it is cut), else [followed](follow) from where the kind before ended
/// it (`ended`) or from the start.
fn take_or_follow(
    board: &Board,
    kind: Kind,
    start: usize,
    ended: impl FnOnce() -> Option<Ended>,
    searches: &mut nested::Searches,
    scratch: &mut Scratch,
) -> Closure {
    match scratch.again.get_mut(start).and_then(Option::take) {
        Some(reused::Taken::Whole(c)) => c,
        Some(reused::Taken::Cut(c)) => follow_again(board, kind, c, searches, scratch),
        None => follow(board, kind, start, ended(), searches, scratch),
    }
}

/// Goes on with `cut`, a follow of `kind` made on a board that has lost candidates since, cut
/// back to the steps that read the same on `board` ([`reused`]): its false nodes followed are
/// taken off a copy of `board`, and the nodes it had not followed yet are pending, in order.
fn follow_again(
    board: &Board,
    kind: Kind,
    cut: Closure,
    searches: &mut nested::Searches,
    scratch: &mut Scratch,
) -> Closure {
    let n = board.n();
    let mut copy = scratch.copy_of(board);
    let mut followed = vec![false; cut.nodes.len()];
    for &(at, _) in &cut.steps {
        followed[at as usize] = true;
        let (cell, value, on) = parts(n, cut.nodes[at as usize].0 as usize);
        if !on {
            copy.eliminate(cell, value);
        }
    }
    scratch.pending_on.clear();
    scratch.pending_off.clear();
    for (i, &(k, _)) in cut.nodes.iter().enumerate().filter(|&(i, _)| !followed[i]) {
        if k % 2 == 1 {
            scratch.pending_on.push_back(i as u32);
        } else {
            scratch.pending_off.push_back(i as u32);
        }
    }
    let start = cut.nodes[0].0 as usize;
    scratch.looked = 0;
    scratch.resumed = Some(cut);
    let c = follow_on(board, kind, start, Some(&mut copy), searches, scratch);
    scratch.work = Some(copy);
    c
}

/// [`follow`] with its copy of the board, `work`, for the dynamic kinds: from the start, or from
/// where [`Scratch::resumed`] and [`Scratch::looked`] say the kind before ended it.
fn follow_on(
    board: &Board,
    kind: Kind,
    start: usize,
    mut work: Option<&mut Board>,
    searches: &mut nested::Searches,
    scratch: &mut Scratch,
) -> Closure {
    let n = board.n();
    let geo = board.geo();
    // A follow gone on with has its pending nodes set ([`follow`], [`follow_again`]).
    let mut c = match scratch.resumed.take() {
        Some(c) => c,
        None => {
            scratch.pending_on.clear();
            scratch.pending_off.clear();
            let mut c = match scratch.spare.pop() {
                Some(spare) => spare.emptied(),
                None => Closure::new(n * n * n * 2, scratch.tables.pop()),
            };
            c.push(start, &[]);
            c.index[start] = 0;
            if start % 2 == 1 {
                scratch.pending_on.push_back(0u32);
            } else {
                scratch.pending_off.push_back(0u32);
            }
            c
        }
    };
    // The board of the last nested search: a new one need only follow strong links made since.
    // Where the nested chains found nothing already, that is the board as it stands.
    let mut last_nested: Option<Board> = (scratch.looked >= 2)
        .then(|| work.as_deref().cloned())
        .flatten();
    // What a later search needs to take this follow again ([`reused`]).
    let record = kind.reusable_on(board) && !scratch.nested;
    let Scratch {
        pending_on,
        pending_off,
        made,
        made_parents,
        links,
        looked,
        allowance,
        ..
    } = scratch;
    loop {
        made.clear();
        made_parents.clear();
        let now: &Board = work.as_deref().unwrap_or(board);
        // The static kind takes each node's consequences from its links, in the same order.
        let static_next = links.as_ref().and_then(|_| {
            let on = pending_on.pop_front().map(|at| (at, true));
            on.or_else(|| pending_off.pop_front().map(|at| (at, false)))
        });
        let from_on = if let (Some(links), Some((at, on))) = (links.as_ref(), static_next) {
            for next in links.of(c.nodes[at as usize].0 as usize, Using::Both) {
                made_parents.push(at);
                made.push((next, made_parents.len() - 1, 1, NONE));
            }
            on
        } else if let Some(at) = pending_on.pop_front() {
            if record {
                c.steps.push((at, c.nodes.len() as u32));
            }
            let id = c.nodes[at as usize].0 as usize;
            // A node reached already is passed over below (its opposite is not reached, or the
            // follow would have ended).
            let index = &c.index;
            let mut push = |next: usize| {
                if index[next] == UNREACHED {
                    made_parents.push(at);
                    made.push((next, made_parents.len() - 1, 1, NONE));
                }
            };
            if kind.cell_links() {
                cell_consequences(now, id, &mut push);
            }
            unit_consequences(now, id, &mut push);
            true
        } else if let Some(at) = pending_off.pop_front() {
            if record {
                c.steps.push((at, c.nodes.len() as u32));
            }
            let (cell, value, _) = parts(n, c.nodes[at as usize].0 as usize);
            let mut read = reused::Read::new(now.cands(cell));
            if kind.cell_links()
                && now.cands(cell).count_ones() == 2
                && let Some(other) = values(now.cands(cell) & !bit(value)).next()
            {
                let from = made_parents.len();
                made_parents.push(at);
                // The cell's candidates this chain took off are parents too.
                for gone in values(board.cands(cell) & !now.cands(cell)) {
                    if let Some(i) = c.reached(node(n, cell, gone, false)) {
                        made_parents.push(i);
                    }
                }
                made.push((
                    node(n, cell, other, true),
                    from,
                    made_parents.len() - from,
                    NONE,
                ));
            }
            for (i, (unit, slot)) in geo.house_slots(cell).enumerate() {
                let others = now.positions(unit, value) & !(1 << slot);
                read.saw(i, others);
                if others.count_ones() == 1 {
                    let peer = geo.cell_at(unit, others.trailing_zeros() as usize);
                    let from = made_parents.len();
                    made_parents.push(at);
                    let gone = board.positions(unit, value) & !now.positions(unit, value);
                    for g in geo.cells_in(unit, gone) {
                        if let Some(i) = c.reached(node(n, g, value, false)) {
                            made_parents.push(i);
                        }
                    }
                    made.push((
                        node(n, peer, value, true),
                        from,
                        made_parents.len() - from,
                        NONE,
                    ));
                }
            }
            if let Some(w) = work.as_deref_mut() {
                w.eliminate(cell, value);
            }
            if record {
                c.reads.push(read);
            }
            false
        } else if kind.plus()
            && let Some(now) = work.as_deref()
        {
            // Only the first look here can be one the kind before made.
            let looked = std::mem::take(looked);
            if looked < 1 {
                c.scans += 1;
                for implied in advanced::implied(board, now) {
                    let from = made_parents.len();
                    for gone in &implied.rests_on {
                        if let Some(i) = c.reached(node(n, gone.cell, gone.value, false)) {
                            made_parents.push(i);
                        }
                    }
                    let k = node(n, implied.gone.cell, implied.gone.value, false);
                    made.push((k, from, made_parents.len() - from, NONE));
                }
            }
            if made.is_empty() && kind.nesting() >= 2 {
                let mut found = Vec::new();
                if let Some(inner) = kind.inner() {
                    found =
                        dynamic_nested::implied(board, now, inner, allowance, &mut c.nested_work);
                } else {
                    if looked < 2 {
                        let last = last_nested.as_ref().unwrap_or(board);
                        found = nested::implied(board, last, now, searches, &mut c.nested_work);
                        last_nested = Some(now.clone());
                    }
                    if found.is_empty() && kind.nesting() >= 3 {
                        found = nested::multiple(board, now, searches, &mut c.nested_work);
                    }
                }
                for implied in found {
                    let from = made_parents.len();
                    for gone in &implied.rests_on {
                        if let Some(i) = c.reached(node(n, gone.cell, gone.value, false)) {
                            made_parents.push(i);
                        }
                    }
                    let chain = match c.chains.iter().position(|&(id, _)| id == implied.id) {
                        Some(at) => at,
                        None => {
                            c.chains.push((implied.id, implied.complexity));
                            c.chains.len() - 1
                        }
                    };
                    let k = node(n, implied.gone.cell, implied.gone.value, false);
                    made.push((k, from, made_parents.len() - from, chain as u32));
                }
            }
            if made.is_empty() {
                return c;
            }
            false
        } else {
            return c;
        };
        for &(k, from, len, chain) in made.iter() {
            let parents = &made_parents[from..from + len];
            if let Some(opposite) = c.reached(k ^ 1) {
                let new = c.push(k, parents);
                if chain != NONE {
                    c.nested.push((new, chain));
                }
                c.contradiction = Some(if from_on {
                    (opposite, new)
                } else {
                    (new, opposite)
                });
                return c;
            }
            if c.index[k] == UNREACHED {
                let i = c.push(k, parents);
                c.index[k] = i as u16;
                if chain != NONE {
                    c.nested.push((i, chain));
                }
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
    /// Where SE lists it among conclusions of the same rating and complexity.
    order: Order,
    target: usize,
    what: &'static str,
}

/// SE's order among conclusions of equal rating and complexity: its kind (both ways first, then
/// cell forcing, unit forcing, contradictions last), then the order SE finds them in, cell by cell
/// and value by value (a unit's forcing at its first place, boxes before rows before columns),
/// and within one search what the first branch reached true before what it reached false, each
/// in the order reached.
type Order = (u8, usize, u8, u8, bool, u32);

/// SE's kinds of conclusion, in the order it prefers them ([`Order`]).
const BOTH_WAYS: u8 = 1;
const CELL_FORCING: u8 = 5;
const UNIT_FORCING: u8 = 6;
const CONTRADICTION: u8 = 7;

/// The start of SE's [`Order`] for the forcing of `group` (candidate indexes, the first branch
/// first): a cell's candidates, or a value's places in a unit, ranked box, row, column.
fn group_order(board: &Board, group: &[usize]) -> (u8, usize, u8, u8) {
    let n = board.n();
    let cell = group[0] / n;
    if group.iter().all(|&i| i / n == cell) {
        return (CELL_FORCING, cell, 0, 0);
    }
    let value = (group[0] % n) as u8 + 1;
    let rank = match forcing_unit(board, group).map(|unit| board.geo().kind(unit)) {
        Some(UnitKind::Box) => 0,
        Some(UnitKind::Row) => 1,
        _ => 2,
    };
    (UNIT_FORCING, cell, value, rank)
}

/// The unit whose places of one value are the branches of `group` (candidate indexes, not all in
/// one cell): where the places lie in more than one, the box, then the row, the column, an extra
/// unit, as SE ranks them.
fn forcing_unit(board: &Board, group: &[usize]) -> Option<usize> {
    let n = board.n();
    let geo = board.geo();
    let rank = |unit: usize| match geo.kind(unit) {
        UnitKind::Box => 0,
        UnitKind::Row => 1,
        UnitKind::Column => 2,
        UnitKind::Extra => 3,
    };
    geo.houses_of(group[0] / n)
        .filter(|&unit| group.iter().all(|&i| geo.holds(unit, i / n)))
        .min_by_key(|&unit| rank(unit))
}

/// A follow that ended without a conclusion: its closure, the board it left, and the nesting
/// level its kind had looked at there.
struct Ended {
    closure: Closure,
    work: Board,
    looked: u8,
}

/// The follows of a kind that found nothing on `board`, in the order followed, for the kind that
/// goes on from them ([`Kind::gone_on_by`]) on the same board, which SE tries next.
struct Followed {
    board: Board,
    kind: Kind,
    ends: Vec<Ended>,
}

thread_local! {
    /// Closures done with on this thread, whose key tables the next search takes over: a grade
    /// runs many searches, and a table of every key is costly to make anew for each closure.
    static SPARE: RefCell<Vec<Closure>> = const { RefCell::new(Vec::new()) };
    /// Copies of boards done with on this thread, whose buffers the next follows take over.
    static BOARDS: RefCell<Vec<Board>> = const { RefCell::new(Vec::new()) };
    /// The last search's follows, where a later kind may go on from them.
    static FOLLOWED: RefCell<Option<Followed>> = const { RefCell::new(None) };
    /// The follows of the last search of a [reusable](Kind::reusable_on) kind, for the next
    /// search to take again.
    static LAST: RefCell<Option<reused::Followed>> = const { RefCell::new(None) };
}

/// The most bytes of key tables [`SPARE`] keeps: enough for every candidate of a 9x9 board.
const SPARE_BYTES: usize = 4 << 20;

/// The most bytes of key tables [`LAST`] keeps: every follow of a 9x9 board, both ways.
const LAST_BYTES: usize = 8 << 20;

/// The easiest chain of `kind`, if any; each assumption followed costs effort from the budget.
pub fn find(board: &Board, ctx: &mut Context<'_>, kind: Kind) -> Option<Step> {
    let n = board.n();
    let keys = n * n * n * 2;
    let mut spare = SPARE.with_borrow_mut(std::mem::take);
    spare.retain(|c| c.index.len() == keys);
    let mut boards = BOARDS.with_borrow_mut(std::mem::take);
    // Where the kind before found nothing on this board, its follows are gone on from rather than
    // followed again from their starts (and charged to the budget as if they were, so that no
    // grade depends on it).
    let mut resumed = None;
    if let Some(followed) = FOLLOWED.take() {
        if followed.kind.gone_on_by() == Some(kind) && followed.board.same_candidates(board) {
            resumed = Some(followed.ends.into_iter());
        } else {
            for ended in followed.ends {
                spare.push(ended.closure);
                boards.push(ended.work);
            }
        }
    }
    // Only where a kind goes on from these follows, and on grids whose closures keep their table
    // of every key, are they kept.
    let keep = kind.gone_on_by().is_some() && keys <= DENSE_KEYS;
    // Where a search of this kind ran on a board this one only took candidates from, its follows
    // that read nothing taken since are taken again rather than followed again.
    let reusable = kind.reusable_on(board);
    let mut again = Vec::new();
    if reusable && let Some(last) = LAST.take() {
        let (same, done) = last.split(board, kind, keys);
        again = same;
        spare.extend(done);
    }
    let mut scratch = Scratch {
        links: (!kind.dynamic()).then(|| Links::of_board(board)),
        spare,
        boards,
        again,
        ..Scratch::default()
    };
    let mut on_closures: Vec<Option<Closure>> = (0..n * n * n).map(|_| None).collect();
    let mut kept = Vec::new();
    let found = search(
        board,
        ctx,
        kind,
        &mut scratch,
        &mut on_closures,
        resumed,
        keep.then_some(&mut kept),
        None,
    );
    let whole = kept.len() == on_closures.iter().flatten().count();
    if keep && whole && found.is_none() && !ctx.exhausted {
        let ends = on_closures
            .iter_mut()
            .filter_map(Option::take)
            .zip(kept)
            .flat_map(|(closure, (work, off))| {
                let looked = kind.nesting();
                [
                    Ended {
                        closure,
                        work,
                        looked,
                    },
                    off,
                ]
            })
            .collect();
        FOLLOWED.set(Some(Followed {
            board: board.clone(),
            kind,
            ends,
        }));
    } else {
        for (work, off) in kept {
            scratch.boards.extend([work, off.work]);
            scratch.spare.push(off.closure);
        }
    }
    // A copy for each candidate of an empty board where searches are kept; one where none are.
    let mut boards = scratch.boards;
    boards.extend(scratch.work);
    boards.truncate(if keys <= DENSE_KEYS { n * n * n } else { 1 });
    BOARDS.set(boards);
    let mut spare = scratch.spare;
    spare.extend(
        scratch
            .again
            .into_iter()
            .flatten()
            .map(reused::Taken::closure),
    );
    // The follows go on to the next search where it may take them again, else to the spares.
    let mut done = scratch.done;
    let on = on_closures.into_iter().enumerate();
    done.extend(on.filter_map(|(i, c)| Some((i * 2 + 1, c?))));
    done.retain(|(_, c)| c.index.len() == keys);
    if reusable && done.len() * keys * size_of::<u16>() <= LAST_BYTES {
        LAST.set(Some(reused::Followed::new(board, kind, done)));
    } else {
        spare.extend(done.into_iter().map(|(_, c)| c));
    }
    spare.truncate(SPARE_BYTES / (keys * size_of::<u16>()));
    SPARE.set(spare.into_iter().map(Closure::emptied).collect());
    let found = found?;
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
            Kind::DynamicPlus => "Dynamic forcing chains (+)",
            Kind::DynamicNested => "Dynamic forcing chains (+ forcing chains)",
            Kind::DynamicMultiple => "Dynamic forcing chains (+ multiple forcing chains)",
            Kind::DynamicDynamic | Kind::DynamicDynamicPlus | Kind::DynamicDynamicNested => {
                "Dynamic forcing chains (+ dynamic forcing chains)"
            }
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

/// The groups of branches SE's cell and unit forcing take, as candidate indexes (`cell * n + value -
/// 1`): each cell's candidates, then each value's places in each house. SE's static chains start
/// only from cells of three candidates or more (two-valued cells are the X- and XY-chains'), and
/// take a house's places when they meet its first place there, so a house whose first place is a
/// two-valued cell has no static unit forcing.
fn forcing_groups(board: &Board, kind: Kind) -> Vec<Vec<usize>> {
    let n = board.n();
    let geo = board.geo();
    let index = |cell: usize, value: u8| cell * n + usize::from(value) - 1;
    let fewest = if kind.dynamic() { 2 } else { 3 };
    let starts = move |cell: usize| board.cands(cell).count_ones() >= fewest;
    let cells = (0..n * n)
        .filter(move |&cell| starts(cell))
        .map(|cell| values(board.cands(cell)).map(|v| index(cell, v)).collect());
    let houses = geo.houses().flat_map(move |unit| {
        values(board.all() & !board.placed(unit)).filter_map(move |value| {
            let places = board.positions(unit, value);
            let first = geo.cells_in(unit, places).next();
            (places.count_ones() >= 2 && first.is_some_and(starts)).then(|| {
                geo.cells_in(unit, places)
                    .map(|c| index(c, value))
                    .collect()
            })
        })
    });
    cells.chain(houses).collect()
}

/// Whether concluding `target` (a node) removes something from `board`.
fn worth(board: &Board, target: usize) -> bool {
    let (cell, value, on) = parts(board.n(), target);
    board.has(cell, value) && (!on || board.cands(cell).count_ones() > 1)
}

/// Which candidates (by index, `cell * n + value - 1`) the search of `kind` follows; `None` for
/// all. One left out is sure to take part in no conclusion, so it is neither followed nor charged:
/// - Nishio's, of a value whose templates show no chain of it can end in a contradiction
///   ([`super::templates`]);
/// - the static chains', in no group of `groups` whose candidates' links could all lead, at any
///   length, to one candidate worth concluding (by the links' closure; none on a board too large
///   for it).
fn to_follow(
    board: &Board,
    kind: Kind,
    links: Option<&Links>,
    groups: &[Vec<usize>],
) -> Option<Vec<bool>> {
    let n = board.n();
    match (kind, links) {
        (Kind::Nishio, _) => {
            let barren: Vec<bool> = (1..=n as u8)
                .map(|v| super::templates::barren(board, v))
                .collect();
            barren.contains(&true).then(|| {
                let index = 0..n * n * n;
                index.map(|i| !barren[i % n]).collect()
            })
        }
        (Kind::Multiple, Some(links)) => {
            let closure = links.closure()?;
            // The components holding a candidate worth concluding.
            let mut worthy = vec![0u64; closure.words()];
            for &id in links
                .present()
                .iter()
                .filter(|&&id| worth(board, id as usize))
            {
                let at = closure.component_of(id as usize);
                worthy[at / 64] |= 1 << (at % 64);
            }
            let mut followed = vec![false; n * n * n];
            let mut common = Vec::new();
            for group in groups {
                common.clone_from(&worthy);
                for &i in group {
                    let reached = closure.reached_by(i * 2 + 1);
                    common.iter_mut().zip(reached).for_each(|(c, r)| *c &= r);
                }
                if common.iter().any(|&c| c != 0) {
                    group.iter().for_each(|&i| followed[i] = true);
                }
            }
            Some(followed)
        }
        _ => None,
    }
}

/// Where a search's conclusions go: the easiest is kept, and, for a search nested in a chain
/// ([`dynamic_nested`]), every one is handed to `every` as well.
struct Conclusions<'a, 'b> {
    best: Option<Found>,
    walk: Walk,
    every: Option<&'a mut dynamic_nested::Every<'b>>,
}

impl Conclusions<'_, '_> {
    /// Offers the conclusion `found` makes of its complexity, resting on each `(closure, node)`;
    /// `group` is the cell's or unit's branches it starts from, if any.
    fn offer<'c>(
        &mut self,
        board: &Board,
        rests_on: impl IntoIterator<Item = (&'c Closure, u32)> + Clone,
        group: Option<&[usize]>,
        found: impl FnOnce(usize) -> Found,
    ) {
        // Past the best conclusion's complexity, no other can rank before it.
        let limit = match (&self.every, &self.best) {
            (None, Some(best)) => best.complexity,
            _ => usize::MAX,
        };
        let Some(complexity) = self.walk.complexity(rests_on.clone(), limit) else {
            return;
        };
        let found = found(complexity);
        if let Some(every) = self.every.as_deref_mut() {
            every.add(board, &found, rests_on, group);
        }
        let rank = |f: &Found| (f.rating, f.complexity, f.order);
        if self.best.as_ref().is_none_or(|b| rank(&found) < rank(b)) {
            self.best = Some(found);
        }
    }
}

/// [`find`]'s search, in `scratch`: the easiest chain of `kind`. `on_closures` gets the closures
/// of each candidate assumed true, kept for the cell and unit forcing. `resumed` holds where the
/// kind before ended each follow, in order; `kept`, if given, gets each candidate's board assumed
/// true and its follow assumed false, in order, for the kind after; `every`, if given, every
/// conclusion.
#[allow(clippy::too_many_arguments)]
fn search(
    board: &Board,
    ctx: &mut Context<'_>,
    kind: Kind,
    scratch: &mut Scratch,
    on_closures: &mut [Option<Closure>],
    mut resumed: Option<std::vec::IntoIter<Ended>>,
    mut kept: Option<&mut Vec<(Board, Ended)>>,
    every: Option<&mut dynamic_nested::Every<'_>>,
) -> Option<Found> {
    let n = board.n();
    let cells = n * n;
    let mut out = Conclusions {
        best: None,
        walk: Walk::default(),
        every,
    };
    let mut searches = nested::Searches::default();
    let worth = |target: usize| worth(board, target);
    let rating = |complexity: usize| kind.base() + length_adjustment(complexity.saturating_sub(2));
    let groups = if kind == Kind::Nishio {
        Vec::new()
    } else {
        forcing_groups(board, kind)
    };
    let followed = to_follow(board, kind, scratch.links.as_deref(), &groups);
    for cell in 0..cells {
        let count = board.cands(cell).count_ones();
        if count < 2 {
            continue;
        }
        for value in values(board.cands(cell)) {
            if followed
                .as_ref()
                .is_some_and(|followed| !followed[cell * n + usize::from(value) - 1])
            {
                continue;
            }
            let mut ended = || resumed.as_mut().and_then(Iterator::next);
            let (on_start, off_start) = (node(n, cell, value, true), node(n, cell, value, false));
            scratch.allowance = ctx.budget.min(ctx.nested_budget);
            let on = take_or_follow(board, kind, on_start, &mut ended, &mut searches, scratch);
            // The copies of the board a kept follow left.
            let keep = kept.is_some();
            let on_work = keep.then(|| scratch.work.take()).flatten();
            // Static chains use no contradiction: their false branch is not needed.
            let off = if kind == Kind::Multiple {
                None
            } else {
                Some(take_or_follow(
                    board,
                    kind,
                    off_start,
                    &mut ended,
                    &mut searches,
                    scratch,
                ))
            };
            let off_work = keep.then(|| scratch.work.take()).flatten();
            // About twenty candidates looked at for each node reached, a few thousand for each
            // run of the basic techniques, and a few for each node a nested search reached.
            let work = |c: &Closure| 20 * c.nodes.len() + 4000 * c.scans + 8 * c.nested_work;
            let work = (work(&on) + off.as_ref().map_or(0, work)) as u64;
            let spent = if kind.nesting() >= 2 {
                ctx.spend_nested(work)
            } else {
                ctx.spend(work)
            };
            if !spent {
                return None;
            }
            if let Some(off) = &off {
                // A contradiction decides the assumption.
                for (closure, start, off_branch) in [
                    (&on, node(n, cell, value, true), false),
                    (off, node(n, cell, value, false), true),
                ] {
                    if let Some((t, f)) = closure.contradiction
                        && worth(start ^ 1)
                    {
                        out.offer(board, [(closure, t), (closure, f)], None, |complexity| {
                            Found {
                                rating: rating(complexity),
                                complexity,
                                order: (CONTRADICTION, cell, value, 0, off_branch, 0),
                                target: start ^ 1,
                                what: "a contradiction",
                            }
                        });
                    }
                }
            }
            if let Some(off) = off.as_ref().filter(|_| kind.both_ways() && count >= 3) {
                // Whatever the candidate forces both true and false is so: the nodes of the
                // branch that reached fewer, looked up in both (the last may be a
                // contradiction's, not indexed, and is passed over).
                let fewer = if off.nodes.len() < on.nodes.len() {
                    off
                } else {
                    &on
                };
                for &(k, _) in &fewer.nodes {
                    let k = k as usize;
                    if let (Some(i), Some(j)) = (on.get(k), off.get(k))
                        && worth(k)
                    {
                        out.offer(board, [(&on, i), (off, j)], None, |complexity| Found {
                            rating: rating(complexity),
                            complexity,
                            order: (BOTH_WAYS, cell, value, 0, k.is_multiple_of(2), i),
                            target: k,
                            what: "both ways",
                        });
                    }
                }
            }
            // Nishio has no cell or unit forcing, which keep the true branches.
            if kind == Kind::Nishio {
                scratch.spare.push(on);
            } else {
                // On a large grid, thousands of tables of every key would take hundreds of
                // megabytes: the closures kept there list their keys instead.
                let on = if n * n * n * 2 > DENSE_KEYS {
                    on.kept(&mut scratch.tables)
                } else {
                    on
                };
                on_closures[cell * n + usize::from(value) - 1] = Some(on);
            }
            match (kept.as_deref_mut(), off) {
                (Some(kept), Some(closure)) => {
                    if let (Some(on_work), Some(work)) = (on_work, off_work) {
                        let looked = kind.nesting();
                        kept.push((
                            on_work,
                            Ended {
                                closure,
                                work,
                                looked,
                            },
                        ));
                    }
                }
                (_, off) if kind.reusable_on(board) && !scratch.nested => {
                    scratch.done.extend(off.map(|off| (off_start, off)));
                }
                (_, off) => scratch.spare.extend(off),
            }
        }
    }
    // Cell forcing, then unit forcing: what every branch forces. A branch that ends in a
    // contradiction is false and joins with what it reached before (SE keeps it so). Nishio has
    // no groups.
    let closures = |group: &Vec<usize>| -> Option<Vec<&Closure>> {
        group.iter().map(|&i| on_closures[i].as_ref()).collect()
    };
    for (group, branch) in groups
        .iter()
        .filter_map(|group| Some((group, closures(group)?)))
    {
        let (first, others) = (branch[0], &branch[1..]);
        let (sort, at, value, unit) = group_order(board, group);
        // Every branch must reach a node before any path is walked: the nodes of the branch that
        // reached the fewest, each looked up in the others (the last node of a branch may be a
        // contradiction's, not indexed, and is passed over).
        let Some(fewest) = branch.iter().min_by_key(|c| c.nodes.len()) else {
            continue;
        };
        for &(k, _) in &fewest.nodes {
            let k = k as usize;
            let Some(i) = first.get(k) else {
                continue;
            };
            if others.iter().any(|other| other.get(k).is_none()) || !worth(k) {
                continue;
            }
            let rests_on = others
                .iter()
                .filter_map(|&other| Some((other, other.get(k)?)));
            let rests_on = std::iter::once((first, i)).chain(rests_on);
            out.offer(board, rests_on, Some(group), |complexity| Found {
                rating: rating(complexity),
                complexity,
                order: (sort, at, value, unit, k.is_multiple_of(2), i),
                target: k,
                what: "every branch",
            });
        }
    }
    out.best
}

#[cfg(test)]
mod tests {
    use super::{
        FOLLOWED, Kind, Links, Scratch, find, follow, forcing_groups, nested, node, reused,
        take_or_follow, to_follow, worth,
    };
    use crate::candidates::{Board, values};
    use crate::grader::{self, Options};

    /// Every board on the grading paths of two SE 9.0 puzzles, from many candidates to few.
    fn boards_on_two_paths() -> Vec<Board> {
        let options = Options {
            explain: true,
            ..Options::default()
        };
        let mut boards = Vec::new();
        for puzzle in [
            "98.76....76.53......4.9.76.6...5.84....3....2......31.4....5....9..7.48.......2.1",
            "98.7.....6...9.7....7..5....4..3..2...65..4......74..1..98..6......2...4...4.1.3.",
        ] {
            let (grid, grade) = grader::grade_of(puzzle, &options);
            let mut board = Board::new(&grid).expect("givens that do not clash");
            for step in grade.steps {
                boards.push(board.clone());
                board.apply(&step.placements, &step.eliminations);
            }
        }
        boards
    }

    #[test]
    fn no_nishio_chain_of_a_value_its_templates_call_barren_ends_in_a_contradiction() {
        let (mut barren, mut contradictions) = (0, 0);
        for board in boards_on_two_paths() {
            let n = board.n();
            for value in values(board.all()) {
                let sure = super::super::templates::barren(&board, value);
                barren += usize::from(sure);
                for cell in (0..n * n).filter(|&c| board.cands(c).count_ones() > 1) {
                    for on in [true, false].into_iter().filter(|_| board.has(cell, value)) {
                        let start = node(n, cell, value, on);
                        let (searches, scratch) =
                            (&mut nested::Searches::default(), &mut Scratch::default());
                        let c = follow(&board, Kind::Nishio, start, None, searches, scratch);
                        if c.contradiction.is_some() {
                            assert!(!sure, "{value} at {cell} ({on})");
                            contradictions += 1;
                        }
                    }
                }
            }
        }
        assert!(
            barren > 100 && contradictions > 100,
            "{barren} barren, {contradictions} contradictions"
        );
    }

    #[test]
    fn the_static_chains_follow_every_group_whose_branches_reach_one_candidate() {
        let (mut joined, mut apart) = (0, 0);
        for board in boards_on_two_paths() {
            let links = Links::of_board(&board);
            let groups = forcing_groups(&board, Kind::Multiple);
            let followed = to_follow(&board, Kind::Multiple, Some(&links), &groups)
                .expect("a 9x9 board's closure");
            let mut scratch = Scratch {
                links: Some(links),
                ..Scratch::default()
            };
            for group in &groups {
                let closures: Vec<_> = group
                    .iter()
                    .map(|&i| {
                        let (searches, start) = (&mut nested::Searches::default(), i * 2 + 1);
                        follow(&board, Kind::Multiple, start, None, searches, &mut scratch)
                    })
                    .collect();
                let meet = closures[0].nodes.iter().any(|&(k, _)| {
                    let k = k as usize;
                    worth(&board, k) && closures[1..].iter().all(|c| c.get(k).is_some())
                });
                if meet {
                    assert!(group.iter().all(|&i| followed[i]), "{group:?}");
                    joined += 1;
                } else {
                    apart += usize::from(group.iter().any(|&i| !followed[i]));
                }
            }
        }
        assert!(
            joined > 100 && apart > 100,
            "{joined} joined, {apart} apart"
        );
    }

    #[test]
    fn a_kind_going_on_from_the_follows_before_finds_and_charges_what_it_would_from_the_starts() {
        // SE 10.4, by nested chains: on the board of its path's first (+ forcing chains) step, the
        // (+) chains found nothing.
        let options = Options {
            explain: true,
            ..Options::default()
        };
        let (grid, grade) = grader::grade_of(
            "........1..2..3....4..5..6....3..7...3..87.9..5..94.3..9...86..4.5....8.8...4...9",
            &options,
        );
        let mut board = Board::new(&grid).expect("givens that do not clash");
        for step in grade.steps {
            if step.text.contains("(+ forcing chains)") {
                break;
            }
            board.apply(&step.placements, &step.eliminations);
        }
        let nested_step = |after_plus: bool| {
            FOLLOWED.take();
            let mut ctx = options.context(board.n(), &[]);
            if after_plus {
                assert!(find(&board, &mut ctx, Kind::DynamicPlus).is_none());
                assert!(FOLLOWED.with_borrow(|f| f.as_ref().is_some_and(|f| !f.ends.is_empty())));
            }
            let before = ctx.budget;
            let step = find(&board, &mut ctx, Kind::DynamicNested).expect("a nested chain");
            (
                step.rating,
                step.placements,
                step.eliminations,
                before - ctx.budget,
            )
        };
        assert_eq!(nested_step(true), nested_step(false));
    }

    /// On the board of a nested chain's step, level 4 finds a step that keeps the solution, rated
    /// at least its base, with dynamic chains nested where the basic techniques end, which costs
    /// more than level 3's static ones; with dynamic chains (+ forcing chains) nested, which cost
    /// far more again, it stops where its budget does rather than run on.
    #[test]
    fn level_4_nests_dynamic_chains_and_stops_within_the_budget() {
        let options = Options::default();
        let (grid, grade) = grader::grade_of(
            "........1..2..3....4..5..6....3..7...3..87.9..5..94.3..9...86..4.5....8.8...4...9",
            &options,
        );
        let solution = grader::unique_solution(&grid, u64::MAX, None)
            .expect("not cancelled")
            .expect("a unique puzzle");
        let mut board = Board::new(&grid).expect("givens that do not clash");
        for step in grade.steps.iter().take_while(|s| s.rating < 95) {
            board.apply(&step.placements, &step.eliminations);
        }
        let mut spent = Vec::new();
        for kind in [Kind::DynamicMultiple, Kind::DynamicDynamic] {
            FOLLOWED.take();
            let mut ctx = options.context(board.n(), &[]);
            ctx.nested_budget = ctx.budget;
            let before = ctx.budget;
            let step = find(&board, &mut ctx, kind).expect("a chain");
            assert!(step.rating >= kind.base(), "{kind:?}: {step:?}");
            for p in &step.placements {
                assert_eq!(solution.cells()[p.cell], p.value, "{kind:?}: {step:?}");
            }
            for e in &step.eliminations {
                assert_ne!(solution.cells()[e.cell], e.value, "{kind:?}: {step:?}");
            }
            spent.push(before - ctx.budget);
        }
        assert!(spent[0] < spent[1], "{spent:?}");
        FOLLOWED.take();
        let mut ctx = options.context(board.n(), &[]);
        ctx.budget = spent[1];
        ctx.nested_budget = spent[1];
        assert!(find(&board, &mut ctx, Kind::DynamicDynamicNested).is_none());
        assert!(ctx.exhausted && ctx.nested_budget == 0, "{ctx:?}");
    }

    /// Along two grading paths, each dynamic follow is taken again as a search takes it (whole
    /// where the board lost nothing it read, cut back and gone on with where it did, carried
    /// through every step since it was made): each is the follow made afresh on that board.
    #[test]
    fn a_dynamic_follow_taken_again_is_the_follow_the_board_makes() {
        let n = 9;
        let mut searches = nested::Searches::default();
        let mut scratch = Scratch::default();
        let mut last: Option<reused::Followed> = None;
        let (mut whole, mut cut) = (0, 0);
        for board in boards_on_two_paths() {
            scratch.again = last.take().map_or_else(Vec::new, |l| {
                l.split(&board, Kind::Dynamic, n * n * n * 2).0
            });
            for taken in scratch.again.iter().flatten() {
                match taken {
                    reused::Taken::Whole(_) => whole += 1,
                    reused::Taken::Cut(_) => cut += 1,
                }
            }
            let mut closures = Vec::new();
            for cell in (0..n * n).filter(|&cell| board.cands(cell).count_ones() >= 2) {
                for value in values(board.cands(cell)) {
                    for start in [node(n, cell, value, true), node(n, cell, value, false)] {
                        let (s, k) = (&mut searches, &mut scratch);
                        let fresh = follow(&board, Kind::Dynamic, start, None, s, k);
                        let taken = take_or_follow(&board, Kind::Dynamic, start, || None, s, k);
                        assert_eq!(
                            (&taken.nodes, &taken.parents, taken.contradiction),
                            (&fresh.nodes, &fresh.parents, fresh.contradiction),
                            "taken again from {start} on {}",
                            board.grid()
                        );
                        closures.push((start, taken));
                    }
                }
            }
            last = Some(reused::Followed::new(&board, Kind::Dynamic, closures));
        }
        assert!(whole > 10_000 && cut > 10_000, "{whole} whole, {cut} cut");
    }
}
