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

pub(super) mod closure;

use std::cell::{OnceCell, RefCell};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::rc::Rc;

use petgraph::algo::TarjanScc;

use self::closure::Closure;
use super::{Context, Marks, Step, Technique, length_adjustment, longest_adjusted};
use crate::candidates::{Board, Candidate, Mask, bit, values};

/// A node: candidate `cell * n + value - 1`, times two, plus one when assumed true.
pub(super) fn node(n: usize, cell: usize, value: u8, on: bool) -> usize {
    (cell * n + usize::from(value) - 1) * 2 + usize::from(on)
}

/// What a node says: cell, value, true or false. The chains ask it of every node they reach, so
/// a 9x9 grid's divisions are by a constant, which compiles to multiplications.
pub(super) fn parts(n: usize, id: usize) -> (usize, u8, bool) {
    let c = id / 2;
    let (cell, value) = if n == 9 {
        (c / 9, c % 9)
    } else {
        (c / n, c % n)
    };
    (cell, value as u8 + 1, id % 2 == 1)
}

/// The chain found from one start: its rating, its length in candidates, the path from the start.
#[derive(Clone)]
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

impl Found {
    /// Where the search meets this chain: by its start's candidate, then a cycle before a chain
    /// from the start true before one from it false.
    fn order(&self) -> (usize, u8) {
        let sub = match (&self.cycle, self.path[0] % 2 == 1) {
            (Some(_), _) => 0,
            (None, true) => 1,
            (None, false) => 2,
        };
        (self.path[0] / 2, sub)
    }
}

/// The consequences of node `id` on `board`, each given to `push`: its cell links, then its unit
/// links (also the static links nested in [`super::chaining`]).
pub(super) fn consequences(board: &Board, id: usize, mut push: impl FnMut(usize)) {
    cell_consequences(board, id, &mut push);
    unit_consequences(board, id, &mut push);
}

/// Through the cell: a true candidate makes the cell's others false; a false one makes a
/// two-candidate cell's other true.
pub(super) fn cell_consequences(board: &Board, id: usize, mut push: impl FnMut(usize)) {
    let n = board.n();
    let (cell, value, on) = parts(n, id);
    let cands = board.cands(cell);
    if on {
        for other in values(cands & !bit(value)) {
            push(node(n, cell, other, false));
        }
    } else if cands.count_ones() == 2
        && let Some(other) = values(cands & !bit(value)).next()
    {
        push(node(n, cell, other, true));
    }
}

/// Through the units: a true candidate makes its value false in every peer; a false one makes
/// the value's only other place in a house true.
pub(super) fn unit_consequences(board: &Board, id: usize, mut push: impl FnMut(usize)) {
    let n = board.n();
    let geo = board.geo();
    let (cell, value, on) = parts(n, id);
    if on {
        // Box, then row, then column (then a variant's extra units), each peer once: from the
        // first of them that holds it (a row or column peer shares no unit before it but the box).
        let [row, col, bx] = geo.units_of(cell);
        let [row_slot, col_slot, box_slot] = geo.slots_of(cell);
        for (unit, skip) in [
            (bx, 1 << box_slot),
            (row, geo.meet(row, bx) | 1 << row_slot),
            (col, geo.meet(col, bx) | 1 << col_slot),
        ] {
            for peer in geo.cells_in(unit, board.positions(unit, value) & !skip) {
                push(node(n, peer, value, false));
            }
        }
        for &(unit, _) in geo.extras_of(cell) {
            let unit = usize::from(unit);
            for peer in geo.cells_in(unit, board.positions(unit, value)) {
                if peer != cell && geo.first_shared_unit(cell, peer) == Some(unit) {
                    push(node(n, peer, value, false));
                }
            }
        }
    } else {
        // Its houses: where one other place is left.
        for (unit, slot) in geo.house_slots(cell) {
            let others = board.positions(unit, value) & !(1 << slot);
            if others.count_ones() == 1 {
                let peer = geo.cell_at(unit, others.trailing_zeros() as usize);
                push(node(n, peer, value, true));
            }
        }
    }
}

/// Which of SE's links a chain may use.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Using {
    /// Unit links only: X-chains.
    Units,
    /// Cell links, and a true candidate's peers (without them no chain goes anywhere).
    Cells,
    /// Both: XY-chains.
    Both,
}

/// Every node's consequences, built once per board: its cell links, then its unit links.
pub(super) struct Links {
    /// `to[start[id]..mid[id]]`: node `id`'s cell links; `to[mid[id]..start[id + 1]]`: its unit
    /// links.
    start: Vec<u32>,
    mid: Vec<u32>,
    to: Vec<u32>,
    /// The nodes of the board's candidates, in order.
    present: Vec<u32>,
    /// What each node reaches by all links ([`Links::closure`]), built when first asked for.
    closure: OnceCell<Option<Closure>>,
}

thread_local! {
    /// The last board whose links were asked for on this thread, with its links: when the
    /// chains find nothing, SE's multiple forcing chains ask for the same board's links next.
    static LAST: RefCell<Option<(Board, Rc<Links>)>> = const { RefCell::new(None) };
}

impl Links {
    /// The links of `board`, built or, for the board last asked for, kept.
    pub(super) fn of_board(board: &Board) -> Rc<Links> {
        LAST.with_borrow_mut(|last| {
            if let Some((seen, links)) = last
                && seen.same_candidates(board)
            {
                return Rc::clone(links);
            }
            let links = Rc::new(Links::new(board));
            match last {
                Some((seen, kept)) => {
                    seen.clone_from(board);
                    *kept = Rc::clone(&links);
                }
                None => *last = Some((board.clone(), Rc::clone(&links))),
            }
            links
        })
    }

    pub(super) fn new(board: &Board) -> Links {
        let n = board.n();
        let nodes = n * n * n * 2;
        let mut start = vec![0; nodes + 1];
        let mut mid = vec![0; nodes];
        let mut to = Vec::with_capacity(nodes * 4);
        let mut present = Vec::new();
        // Nodes are numbered by cell, value and truth, so the candidates come in order; the nodes
        // between them (no candidate, no links) start and end where the next one starts.
        let mut unset = 0;
        for cell in 0..n * n {
            for value in values(board.cands(cell)) {
                for on in [false, true] {
                    let id = node(n, cell, value, on);
                    let here = to.len() as u32;
                    start[unset..=id].fill(here);
                    mid[unset..id].fill(here);
                    present.push(id as u32);
                    cell_consequences(board, id, |next| to.push(next as u32));
                    mid[id] = to.len() as u32;
                    unit_consequences(board, id, |next| to.push(next as u32));
                    unset = id + 1;
                }
            }
        }
        let end = to.len() as u32;
        start[unset..].fill(end);
        mid[unset..].fill(end);
        Links {
            start,
            mid,
            to,
            present,
            closure: OnceCell::new(),
        }
    }

    /// What each node reaches by all links, built once for the board (the chains and cycles and
    /// then the multiple forcing chains on the same board ask for it); `None` for a board with too
    /// many candidates.
    pub(super) fn closure(&self) -> Option<&Closure> {
        self.closure
            .get_or_init(|| Closure::new(self, Using::Both, &mut TarjanScc::new()))
            .as_ref()
    }

    /// The nodes of the board's candidates, in order: every node that has links.
    pub(super) fn present(&self) -> &[u32] {
        &self.present
    }

    /// How many nodes there are: every candidate, true and false.
    pub(super) fn nodes(&self) -> usize {
        self.mid.len()
    }

    pub(super) fn of(&self, id: usize, using: Using) -> impl Iterator<Item = usize> + '_ {
        self.slice(id, using).iter().map(|&t| t as usize)
    }

    /// Node `id`'s consequences as `using` takes them.
    fn slice(&self, id: usize, using: Using) -> &[u32] {
        let on = id % 2 == 1;
        let from = match using {
            Using::Units => self.mid[id],
            Using::Cells | Using::Both => self.start[id],
        };
        let to = match using {
            Using::Cells if !on => self.mid[id],
            _ => self.start[id + 1],
        };
        &self.to[from as usize..to as usize]
    }
}

/// From `start`, the shortest chain back to its opposite of at most `limit` candidates, breadth
/// first.
fn follow(
    (links, using): (&Links, Using),
    start: usize,
    limit: usize,
    scratch: &mut Scratch,
) -> Option<Vec<usize>> {
    let target = start ^ 1;
    let reach = &mut scratch.reach;
    let found = reach.spread(
        links.nodes(),
        start,
        limit - 1,
        |id, push| links.of(id, using).for_each(push),
        |_, next| next == target,
    );
    scratch.work += reach.looked_at as u64;
    if !found {
        return None;
    }
    let mut path = vec![target];
    let mut at = target;
    while let Some(from) = reach.parent(at) {
        at = from;
        path.push(at);
    }
    path.reverse();
    Some(path)
}

/// Whether `start` reaches its opposite in at most `limit` candidates, as [`follow`] would find,
/// by a breadth-first search only half as deep: every link's contrapositive is a link too, so a
/// chain from a node `x` on to `start`'s opposite, read backwards with every node negated, is a
/// chain from `start` to `x`'s opposite, and the chain exists when some `x` and its opposite are
/// both reached within `limit - 1` links in all.
fn reaches(
    (links, using): (&Links, Using),
    start: usize,
    limit: usize,
    scratch: &mut Scratch,
) -> bool {
    let most = limit - 1;
    let reach = &mut scratch.reach;
    let met = reach.spread(
        links.nodes(),
        start,
        most.div_ceil(2),
        |id, push| links.of(id, using).for_each(push),
        |r, next| {
            r.dist(next ^ 1)
                .is_some_and(|back| usize::from(back) + usize::from(r.dist[next]) <= most)
        },
    );
    scratch.work += reach.looked_at as u64;
    met
}

/// A breadth-first search from one node: the nodes reached in order, and each one's distance
/// and parent. A node fits in 16 bits: a 25x25 grid has 31,250. The tables are kept for the next
/// search; only the entries of nodes in `reached` are this search's.
#[derive(Default)]
pub(super) struct Reach {
    reached: Marks,
    dist: Vec<u16>,
    parent: Vec<u16>,
    /// The nodes reached, in the order reached.
    pub(super) order: Vec<u16>,
    /// How many nodes the last search looked at.
    pub(super) looked_at: usize,
}

impl Reach {
    /// How many links from the start `node` is, if it is reached.
    pub(super) fn dist(&self, node: usize) -> Option<u16> {
        self.reached.contains(node).then(|| self.dist[node])
    }

    /// The node `node` was reached from; `None` for the start.
    pub(super) fn parent(&self, node: usize) -> Option<usize> {
        let parent = self.parent[node];
        (parent != u16::MAX).then_some(usize::from(parent))
    }

    /// Searches again, from `from` over `nodes` nodes, at most `depth` links deep; `next` gives a
    /// node's consequences to its callback. Stops, true, once `meet` holds of a node just reached
    /// (its distance and parent set).
    pub(super) fn spread(
        &mut self,
        nodes: usize,
        from: usize,
        depth: usize,
        next: impl Fn(usize, &mut dyn FnMut(usize)),
        meet: impl Fn(&Reach, usize) -> bool,
    ) -> bool {
        self.reached.clear(nodes);
        if self.dist.len() < nodes {
            self.dist.resize(nodes, 0);
            self.parent.resize(nodes, 0);
        }
        self.order.clear();
        self.order.push(from as u16);
        self.reached.insert(from);
        self.dist[from] = 0;
        self.parent[from] = u16::MAX;
        self.looked_at = 0;
        let mut met = false;
        while let Some(&id) = self.order.get(self.looked_at) {
            self.looked_at += 1;
            let id = usize::from(id);
            let d = self.dist[id] + 1;
            if usize::from(d) > depth {
                break;
            }
            next(id, &mut |to| {
                if met || !self.reached.insert(to) {
                    return;
                }
                self.dist[to] = d;
                self.parent[to] = id as u16;
                self.order.push(to as u16);
                met = meet(self, to);
            });
            if met {
                return true;
            }
        }
        false
    }
}

/// The search's scratch space, kept on each thread from one search to the next: its tables
/// of every node are costly to make anew for each step of a grade.
#[derive(Default)]
struct Scratch {
    /// The last chain search, or the search back from a cycle's start.
    reach: Reach,
    /// Nodes looked at since the budget was last charged.
    work: u64,
    /// The nodes the current cycle search reached true.
    reached_on: Marks,
    /// A cycle's cells, and the candidates its true nodes see.
    on_cycle: Marks,
    seen_on: Marks,
    /// A cycle search's reached nodes, each with its parent's index here.
    arena: Vec<Reached>,
    /// A cycle search's frontier: indices in `arena` of true nodes, then of false ones.
    pending_on: Vec<usize>,
    pending_off: Vec<usize>,
    /// A closed cycle's path, kept only if it removes something.
    path: Vec<usize>,
    /// The cycles found that remove nothing, by [`cycle_key`]: each is met again from
    /// its other true nodes and as its contrapositive, which remove the same.
    barren: HashSet<Box<[u32]>>,
    /// A cycle's key, built.
    key: Vec<u32>,
}

/// The key of cycle `path` (start repeated at the end), in `key`: its nodes sorted, or all of them
/// negated if that sorts first. The same for every rotation of a cycle and for its contrapositive.
fn cycle_key<'a>(key: &'a mut Vec<u32>, path: &[usize]) -> &'a [u32] {
    key.clear();
    key.extend(path[1..].iter().map(|&id| id as u32));
    key.sort_unstable();
    // Negating flips each node's last bit, which keeps the order of different candidates.
    if key.first().is_some_and(|&first| first % 2 == 1) {
        key.iter_mut().for_each(|id| *id ^= 1);
        key.sort_unstable();
    }
    key
}

/// A node a cycle search reached.
#[derive(Clone, Copy)]
struct Reached {
    id: usize,
    /// The index in the arena of the node it was reached from; `usize::MAX` for the start.
    parent: usize,
    /// Bit `id / 2 % 64` of the node and of each of its ancestors: a clear bit rules a node out
    /// as an ancestor without walking the path.
    ancestors: u64,
}

impl Reached {
    fn bit(id: usize) -> u64 {
        1 << (id / 2 % 64)
    }
}

/// The longest chain (in candidates) rated `base` plus its length adjustment that would beat
/// `best`: at least 1 (no chain), at most `most`.
fn limit(base: u16, best: Option<&Found>, most: usize) -> usize {
    // A chain of `len` candidates is rated `base + length_adjustment(len - 2)`.
    let longest_rated = |rating: u16| -> usize {
        rating
            .checked_sub(base)
            .map_or(1, |adjust| longest_adjusted(adjust).saturating_add(2))
    };
    let mut len = most;
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
/// Once a chain is found, the searches from later starts stop at the length that would still
/// beat it.
pub fn find(board: &Board, ctx: &mut Context<'_>) -> Option<Step> {
    let links = Links::of_board(board);
    let found = SCRATCH.with_borrow_mut(|scratch| {
        scratch.work = 0;
        scratch.barren.clear();
        search(board, ctx, &links, scratch)
    });
    found.map(|found| step_of(board, ctx, found))
}

thread_local! {
    /// This thread's [`Scratch`].
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// The easiest chain or cycle; `None` when there is none or the budget ran out.
fn search(
    board: &Board,
    ctx: &mut Context<'_>,
    links: &Links,
    scratch: &mut Scratch,
) -> Option<Found> {
    let cells = board.n() * board.n();
    let mut best: Option<Found> = None;
    for using in [Using::Units, Using::Cells, Using::Both] {
        let pass = Pass::new(board, using);
        // Once nothing of this pass could beat the best chain, its searches would all be skipped:
        // skip the pass, spending what its starts would have.
        if !pass.could_beat(best.as_ref()) {
            let count: u64 = (0..cells).map(|cell| u64::from(pass.starts(cell))).sum();
            let work = std::mem::take(&mut scratch.work);
            if !ctx.spend(count * cells as u64 + 20 * work) {
                return None;
            }
            continue;
        }
        // Every pass prunes by the closure of all links, built once: what some links reach, all
        // links reach, and a cycle of some links is a cycle of all.
        let links = (links, links.closure());
        let done = match using {
            Using::Units => pass.by_value(ctx, links, &mut best, scratch),
            _ => {
                // About twenty candidates looked at for each node the searches reached.
                let mut spend = |work| ctx.spend(cells as u64 + 20 * work);
                pass.run(&mut spend, links, !0, &mut best, scratch)
            }
        };
        if !done {
            return None;
        }
    }
    best
}

/// Keeps `found` as the best chain if it is better: easier, then shorter, then found first.
fn consider(found: Found, best: &mut Option<Found>) {
    let key = |f: &Found| (f.rating, f.complexity, f.order());
    if best.as_ref().is_none_or(|b| key(&found) < key(b)) {
        *best = Some(found);
    }
}

/// One pass of the search: the links it uses and how its chains are rated.
struct Pass<'a> {
    board: &'a Board,
    using: Using,
    chain_base: u16,
    cycle_base: u16,
}

impl<'a> Pass<'a> {
    fn new(board: &'a Board, using: Using) -> Pass<'a> {
        let cell_links = using != Using::Units;
        let unit_links = using != Using::Cells;
        Pass {
            board,
            using,
            chain_base: if cell_links { 70 } else { 66 },
            cycle_base: if cell_links && unit_links { 70 } else { 65 },
        }
    }

    /// How many starts `cell` gives: each candidate of a cell of two or more, where some link
    /// leaves it (cell links alone leave only a two-candidate cell).
    fn starts(&self, cell: usize) -> u32 {
        let count = self.board.cands(cell).count_ones();
        if count < 2 || (self.using == Using::Cells && count > 2) {
            0
        } else {
            count
        }
    }

    fn most(&self) -> usize {
        let n = self.board.n();
        n * n * n * 2
    }

    /// Whether a chain or cycle of this pass could still beat `best`.
    fn could_beat(&self, best: Option<&Found>) -> bool {
        limit(self.cycle_base, best, self.most()) >= 4
            || (self.using != Using::Cells && limit(self.chain_base, best, self.most()) >= 4)
    }

    /// The pass over each value alone, which unit links never leave: a value whose places are
    /// those of the last board searched has the same chains, kept from then.
    fn by_value(
        &self,
        ctx: &mut Context<'_>,
        links: (&Links, Option<&Closure>),
        best: &mut Option<Found>,
        scratch: &mut Scratch,
    ) -> bool {
        let (board, n) = (self.board, self.board.n());
        let cells = (n * n) as u64;
        KEPT.with_borrow_mut(|kept| {
            let kept = kept.get_or_insert_with(|| Kept {
                board: board.clone(),
                best: vec![None; n],
            });
            kept.renew(board);
            for value in 1..=n as u8 {
                let (found, spent) = match &kept.best[usize::from(value) - 1] {
                    Some((found, spent)) => {
                        if !ctx.spend(*spent) {
                            return false;
                        }
                        (found.clone(), *spent)
                    }
                    None => {
                        // A start costs the same here whatever its search looks at, which the
                        // other values' links prune: a value costs as much searched as kept.
                        let before = ctx.budget;
                        let mut found = None;
                        let mut spend = |_| ctx.spend(cells);
                        if !self.run(&mut spend, links, bit(value), &mut found, scratch) {
                            return false;
                        }
                        scratch.work = 0;
                        (found, before - ctx.budget)
                    }
                };
                if let Some(f) = &found {
                    consider(f.clone(), best);
                }
                kept.best[usize::from(value) - 1] = Some((found, spent));
            }
            true
        })
    }

    /// The pass's searches from the starts of `values` (a mask), each start charged to the
    /// budget; false when the budget ran out.
    fn run(
        &self,
        spend: &mut impl FnMut(u64) -> bool,
        (links, closure): (&Links, Option<&Closure>),
        values_mask: Mask,
        best: &mut Option<Found>,
        scratch: &mut Scratch,
    ) -> bool {
        let board = self.board;
        let n = board.n();
        let cells = n * n;
        let (using, most) = (self.using, self.most());
        let cell_links = using != Using::Units;
        let unit_links = using != Using::Cells;
        for cell in 0..cells {
            if self.starts(cell) == 0 {
                continue;
            }
            for value in values(board.cands(cell) & values_mask) {
                if !spend(std::mem::take(&mut scratch.work)) {
                    return false;
                }
                let start = node(n, cell, value, true);
                let limit_cycle = limit(self.cycle_base, best.as_ref(), most);
                if limit_cycle >= 4
                    && closure.is_none_or(|c| c.on_cycle(start))
                    && let Some((path, eliminations)) =
                        cycle(board, (links, using, closure), start, limit_cycle, scratch)
                {
                    let complexity = path.len() - 1;
                    consider(
                        Found {
                            rating: self.cycle_base + length_adjustment(complexity - 2),
                            complexity,
                            path,
                            cell_links,
                            cycle: Some(eliminations),
                        },
                        best,
                    );
                }
                if !unit_links {
                    continue;
                }
                for start in [start, start ^ 1] {
                    let limit = limit(self.chain_base, best.as_ref(), most);
                    if limit < 4
                        || closure.is_some_and(|c| !c.reaches(start, start ^ 1))
                        || !reaches((links, using), start, limit, scratch)
                    {
                        continue;
                    }
                    let Some(path) = follow((links, using), start, limit, scratch) else {
                        continue;
                    };
                    consider(
                        Found {
                            rating: self.chain_base + length_adjustment(path.len() - 2),
                            complexity: path.len(),
                            path,
                            cell_links,
                            cycle: None,
                        },
                        best,
                    );
                }
            }
        }
        true
    }
}

/// The unit-links pass's best chain of each value on the last board searched on this thread,
/// with the budget it spent.
struct Kept {
    board: Board,
    /// By value: `None` where its places changed since.
    best: Vec<Option<(Option<Found>, u64)>>,
}

impl Kept {
    /// Moves on to `board`, forgetting the values whose places or starts changed (a start is a
    /// candidate of a cell of two or more).
    fn renew(&mut self, board: &Board) {
        let n = board.n();
        if !self.board.same_layout(board) {
            self.best = vec![None; n];
            self.board.clone_from(board);
            return;
        }
        let mut changed = 0;
        for cell in 0..n * n {
            let (was, is) = (self.board.cands(cell), board.cands(cell));
            changed |= was ^ is;
            if (was.count_ones() >= 2) != (is.count_ones() >= 2) {
                changed |= was & is;
            }
        }
        for value in values(changed) {
            self.best[usize::from(value) - 1] = None;
        }
        self.board.clone_from(board);
    }
}

thread_local! {
    /// This thread's [`Kept`].
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// The shortest cycle from `start` (a candidate assumed true) back to itself, of at most `limit`
/// distinct candidates, that removes something, with what it removes: a candidate outside the
/// cycle's cells that sees a true and a false candidate of its value on the cycle (the cycle holds
/// either way round). Found as SE: breadth first, a false candidate reached again by another way
/// kept unless it is an ancestor.
///
/// A node that cannot get back to `start` is not followed, and neither is anything it would have
/// reached (none of which could get back either): where the board has its closure, a node of
/// another component of all links than `start`'s; without it, a node too many links back to
/// close a cycle within `limit`, by a search back from `start`'s opposite (see [`reaches`]).
fn cycle(
    board: &Board,
    (links, using, closure): (&Links, Using, Option<&Closure>),
    start: usize,
    limit: usize,
    scratch: &mut Scratch,
) -> Option<(Vec<usize>, Vec<Candidate>)> {
    if closure.is_none() {
        scratch.reach.spread(
            links.nodes(),
            start ^ 1,
            limit,
            |id, push| links.of(id, using).for_each(push),
            |_, _| false,
        );
        scratch.work += scratch.reach.looked_at as u64;
    }
    let Scratch {
        reach: back,
        reached_on,
        on_cycle,
        seen_on,
        work,
        arena,
        pending_on,
        pending_off,
        path,
        barren,
        key,
        ..
    } = scratch;
    let closes = |id: usize, depth: usize| match closure {
        Some(closure) => closure.together(id, start),
        None => back
            .dist(id ^ 1)
            .is_some_and(|d| depth + usize::from(d) <= limit),
    };
    reached_on.clear(links.nodes());
    // Every reached node with its parent's index in `arena`.
    arena.clear();
    arena.push(Reached {
        id: start,
        parent: usize::MAX,
        ancestors: Reached::bit(start),
    });
    reached_on.insert(start);
    pending_on.clear();
    pending_on.push(0);
    pending_off.clear();
    let mut length = 0;
    let is_ancestor = |arena: &[Reached], mut at: usize, id: usize| {
        if arena[at].ancestors & Reached::bit(id) == 0 {
            return false;
        }
        while at != usize::MAX {
            if arena[at].id == id {
                return true;
            }
            at = arena[at].parent;
        }
        false
    };
    let reach = |arena: &mut Vec<Reached>, id: usize, parent: usize| {
        let ancestors = arena[parent].ancestors | Reached::bit(id);
        arena.push(Reached {
            id,
            parent,
            ancestors,
        });
        arena.len() - 1
    };
    while !pending_on.is_empty() || !pending_off.is_empty() {
        length += 1;
        if length > limit {
            return None;
        }
        *work += (pending_on.len() + pending_off.len()) as u64;
        for &at in pending_on.iter() {
            let id = arena[at].id;
            for next in links.of(id, using) {
                if closes(next, length) && !is_ancestor(arena, at, next) {
                    pending_off.push(reach(arena, next, at));
                }
            }
        }
        pending_on.clear();
        length += 1;
        for &at in pending_off.iter() {
            let id = arena[at].id;
            let mut found = None;
            for next in links.of(id, using) {
                if length >= 4 && next == start {
                    found = Some(at);
                    break;
                }
                if closes(next, length) && reached_on.insert(next) {
                    pending_on.push(reach(arena, next, at));
                }
            }
            if let Some(last) = found {
                path.clear();
                path.push(start);
                let mut up = last;
                while up != usize::MAX {
                    path.push(arena[up].id);
                    up = arena[up].parent;
                }
                path.reverse();
                let key = cycle_key(key, path);
                if barren.contains(key) {
                    continue;
                }
                match cycle_eliminations(board, path, (on_cycle, seen_on)) {
                    Some(eliminations) => return Some((path.clone(), eliminations)),
                    None => {
                        barren.insert(key.into());
                    }
                }
            }
        }
        pending_off.clear();
    }
    None
}

/// What the cycle `path` (start repeated at the end) removes, if anything: the candidates off
/// the cycle's cells that see a true node of their value on it and a false one, in order.
/// The tables are for the cycle's cells and the candidates a true node sees.
fn cycle_eliminations(
    board: &Board,
    path: &[usize],
    (on_cycle, seen_on): (&mut Marks, &mut Marks),
) -> Option<Vec<Candidate>> {
    let n = board.n();
    let geo = board.geo();
    on_cycle.clear(n * n);
    for &id in path {
        on_cycle.insert(parts(n, id).0);
    }
    // Each candidate of `value` off the cycle that `cell` sees, to `found`.
    let seen = |cell: usize, value: u8, found: &mut dyn FnMut(usize)| {
        for unit in geo.all_units_of(cell) {
            for peer in geo.cells_in(unit, board.positions(unit, value)) {
                if !on_cycle.contains(peer) {
                    found(peer * n + usize::from(value) - 1);
                }
            }
        }
    };
    seen_on.clear(n * n * n);
    // The values some true node holds: a false node of another value sees nothing to remove.
    let mut on_values = 0;
    for &id in &path[1..] {
        let (cell, value, on) = parts(n, id);
        if on {
            on_values |= bit(value);
            seen(cell, value, &mut |c| {
                seen_on.insert(c);
            });
        }
    }
    let mut both = Vec::new();
    for &id in &path[1..] {
        let (cell, value, on) = parts(n, id);
        if !on && on_values & bit(value) != 0 {
            seen(cell, value, &mut |c| {
                if seen_on.contains(c) {
                    both.push(Candidate {
                        cell: c / n,
                        value: (c % n) as u8 + 1,
                    });
                }
            });
        }
    }
    both.sort_unstable();
    both.dedup();
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

    /// Along the grade of an SE 7.x puzzle, the chain search on each board, right after the board
    /// before (its values kept), finds and charges what it finds and charges from nothing kept.
    #[test]
    fn the_values_kept_from_the_board_before_change_no_step_and_no_charge() {
        let options = crate::grader::Options {
            explain: true,
            ..crate::grader::Options::default()
        };
        let puzzle =
            "98.7..6..75.....9...6...7...4..3......76...5......21....85...6.....1.5.......43.2";
        let (grid, grade) = crate::grader::grade_of(puzzle, &options);
        let mut board = Board::new(&grid).expect("givens that do not clash");
        let search = |board: &Board| {
            let mut ctx = options.context(board.n(), &[]);
            let before = ctx.budget;
            let step = find(board, &mut ctx);
            (step, before - ctx.budget)
        };
        let (mut reused, mut steps) = (0, 0);
        let mut last: Option<Board> = None;
        for step in grade.steps {
            let warm = search(&board);
            KEPT.take();
            assert_eq!(warm, search(&board), "{}", step.text);
            if let Some(last) = &last {
                let same = |v| {
                    board
                        .geo()
                        .units()
                        .all(|u| last.positions(u, v) == board.positions(u, v))
                };
                reused += values(board.all()).filter(|&v| same(v)).count();
            }
            steps += usize::from(warm.0.is_some());
            last = Some(board.clone());
            board.apply(&step.placements, &step.eliminations);
        }
        assert!(
            reused > 50 && steps > 5,
            "{reused} values kept, {steps} chains found"
        );
    }

    /// [`reaches`] and the cycle search's pruning rest on this: each link's contrapositive is a
    /// link of the same pass.
    #[test]
    fn every_link_has_its_contrapositive() {
        for puzzle in [
            ".....8.1...13..958...7....371......9.9.....3....92...4.3...7....59..1...4...6.3..",
            "98.7..6..75.....9...6...7...4..3......76...5......21....85...6.....1.5.......43.2",
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        ] {
            let grid: crate::grid::Grid = puzzle.parse().expect("a valid puzzle");
            let board = Board::new(&grid).expect("no clash");
            let links = Links::new(&board);
            let mut checked = 0;
            for using in [Using::Units, Using::Cells, Using::Both] {
                for id in 0..board.n() * board.n() * board.n() * 2 {
                    for next in links.of(id, using) {
                        assert!(
                            links.of(next ^ 1, using).any(|back| back == id ^ 1),
                            "{puzzle}: {id} -> {next} has no contrapositive"
                        );
                        checked += 1;
                    }
                }
            }
            assert!(checked > 1000, "{puzzle}: only {checked} links");
        }
    }

    /// The barren cycles are known by their key: every turn of a cycle (another of its nodes
    /// first) and its contrapositive (read backwards, every node negated) have the same key and
    /// remove the same candidates.
    #[test]
    fn every_turn_of_a_cycle_removes_the_same() {
        let mut cycles = 0;
        // A solved grid with cells taken out, a different half each time: many two-candidate
        // cells and two-place values, so many cycles.
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        for step in [7, 13, 29, 37] {
            let puzzle: String = solved
                .char_indices()
                .map(|(i, c)| if i * step % 81 < 45 { '.' } else { c })
                .collect();
            let grid: crate::grid::Grid = puzzle.parse().expect("a valid puzzle");
            let board = Board::new(&grid).expect("no clash");
            let links = Links::new(&board);
            let mut scratch = Scratch::default();
            let closure = links.closure();
            let (mut on_cycle, mut seen_on) = (Marks::default(), Marks::default());
            let mut removes =
                |path: &[usize]| cycle_eliminations(&board, path, (&mut on_cycle, &mut seen_on));
            for &start in links.present().iter().filter(|&&id| id % 2 == 1) {
                let start = start as usize;
                let Some((path, eliminations)) = cycle(
                    &board,
                    (&links, Using::Both, closure),
                    start,
                    40,
                    &mut scratch,
                ) else {
                    continue;
                };
                cycles += 1;
                let key = cycle_key(&mut Vec::new(), &path).to_vec();
                let nodes = &path[1..];
                for turn in 0..nodes.len() {
                    let turned: Vec<usize> = nodes[turn..]
                        .iter()
                        .chain(&nodes[..turn])
                        .copied()
                        .collect();
                    let backwards: Vec<usize> = turned.iter().rev().map(|&id| id ^ 1).collect();
                    for nodes in [turned, backwards] {
                        let path: Vec<usize> =
                            nodes.last().into_iter().chain(&nodes).copied().collect();
                        assert_eq!(
                            cycle_key(&mut Vec::new(), &path),
                            &key[..],
                            "{puzzle}: {path:?}"
                        );
                        assert_eq!(
                            removes(&path).as_ref(),
                            Some(&eliminations),
                            "{puzzle}: {path:?}"
                        );
                    }
                }
            }
        }
        assert!(cycles > 20, "only {cycles} cycles");
    }

    /// The chain limit, counted up one length at a time as its definition reads.
    fn limit_by_counting(base: u16, best: Option<&Found>, most: usize) -> usize {
        let mut len = 1;
        loop {
            let next = len + 1;
            let rating = base + length_adjustment(next - 2);
            if next > most || best.is_some_and(|b| (rating, next) >= (b.rating, b.complexity)) {
                return len;
            }
            len = next;
        }
    }

    #[test]
    fn the_chain_limit_is_the_counted_one() {
        for base in [65, 66, 70] {
            for most in [3, 10, 100, 1458] {
                assert_eq!(
                    limit(base, None, most),
                    limit_by_counting(base, None, most),
                    "{base} {most}"
                );
                for rating in 60..95 {
                    for complexity in [2, 3, 4, 5, 7, 9, 13, 20, 40, 100] {
                        let best = Found {
                            rating,
                            complexity,
                            path: Vec::new(),
                            cell_links: false,
                            cycle: None,
                        };
                        assert_eq!(
                            limit(base, Some(&best), most),
                            limit_by_counting(base, Some(&best), most),
                            "{base} {most} {rating} {complexity}"
                        );
                    }
                }
            }
        }
    }
}
