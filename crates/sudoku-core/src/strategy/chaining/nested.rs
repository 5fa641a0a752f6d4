//! What Sudoku Explainer's "Dynamic Forcing Chains (+ Forcing Chains)" adds to a chain once its
//! singles and basic techniques run dry: the eliminations of static forcing X- and XY-chains
//! ([`super::super::unary_chain`]) on the board as the chain left it. Each rests on the candidates
//! the chain took off that its strong links need gone, and adds its own length to the rating.
//!
//! The search is incremental. Static links only grow as candidates go: a true candidate's
//! consequences shrink, and a false one's grow only where a unit or cell comes down to two
//! places. So a chain that was not there at the last search uses a strong link made since, and
//! every static chain through a strong link `a`-`b` ends in what `a` and `b` both force, each
//! followed forward. From each new strong link's two ends, then, a breadth-first search; whatever
//! both reach holds, by the chain from its opposite to one end, across the link, and on to it.
//! A cycle's eliminations are forcing chains' too (through the cycle's weak link), so cycles need
//! no search of their own.
//!
//! At the next level, "(+ Multiple Forcing Chains)", where those find nothing either, the chain
//! takes what static multiple forcing chains find on its board ([`multiple`]): each cell's and
//! each unit's branches searched afresh over the board's links, built once a search.

use std::hash::{DefaultHasher, Hash, Hasher};

use super::super::unary_chain::{self, Links, Reach, Using};
use super::{DENSE_KEYS, node, parts};
use crate::candidates::{Board, Candidate, Mask, bit, values};

/// A map keyed by nodes or candidates, hashed by foldhash: the nested searches look up millions
/// of keys in one grade, and std's SipHash was most of their lookups' cost.
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

/// An elimination the chain may take by a nested forcing chain.
#[derive(Debug)]
pub(super) struct Nested {
    /// The candidate that goes.
    pub gone: Candidate,
    /// The chain's removals the nested chain's strong links need.
    pub rests_on: Vec<Candidate>,
    /// The nested chain's candidates, as SE counts a chain's complexity.
    pub complexity: usize,
    /// The nested chain, for counting it once however often it is used.
    pub id: u64,
}

/// A strong link on `now`: two nodes (true), one of which is so, and the candidates gone since
/// `start` that make it one.
struct Strong {
    ends: [usize; 2],
    rests_on: Vec<Candidate>,
}

/// The strong links of `now` that `last` did not have, with what each rests on against `start`.
fn new_links(start: &Board, last: &Board, now: &Board) -> Vec<Strong> {
    let n = now.n();
    let geo = now.geo();
    let mut out = Vec::new();
    for cell in 0..n * n {
        let cands = now.cands(cell);
        if cands.count_ones() == 2 && last.cands(cell).count_ones() > 2 {
            let mut vs = values(cands);
            let (a, b) = (vs.next().unwrap_or(1), vs.next().unwrap_or(1));
            out.push(Strong {
                ends: [node(n, cell, a, true), node(n, cell, b, true)],
                rests_on: values(start.cands(cell) & !cands)
                    .map(|value| Candidate { cell, value })
                    .collect(),
            });
        }
    }
    for unit in geo.houses() {
        for value in values(now.all()) {
            let places = now.positions(unit, value);
            if places.count_ones() != 2 || last.positions(unit, value).count_ones() <= 2 {
                continue;
            }
            let mut cells = geo.cells_in(unit, places);
            let (a, b) = (cells.next().unwrap_or(0), cells.next().unwrap_or(0));
            out.push(Strong {
                ends: [node(n, a, value, true), node(n, b, value, true)],
                rests_on: unit_gone(start, now, unit, value).collect(),
            });
        }
    }
    out
}

/// What a node made true by a single rests on of the candidates `start` had and `now` has not,
/// added to `out`: where the false node it follows from, `from`, is in the same cell, the cell's
/// candidates gone; else, in the first of `from`'s houses where `value`'s places on `now` come
/// down to `cell` once `from` and the cells `taken` (places a dynamic chain took off itself) go,
/// that unit's places gone.
pub(super) fn single_rests_on(
    start: &Board,
    now: &Board,
    from: usize,
    cell: usize,
    value: u8,
    taken: &[usize],
    out: &mut Vec<Candidate>,
) {
    let geo = now.geo();
    if from == cell {
        out.extend(cell_gone(start, now, cell));
        return;
    }
    let ends = [from, cell];
    let cells = || ends.iter().chain(taken).copied();
    let single = geo.houses_of(from).find(|&unit| {
        cells().all(|c| geo.holds(unit, c))
            && now.positions(unit, value) & !cells().fold(0, |m, c| m | 1 << geo.slot_in(c, unit))
                == 0
    });
    if let Some(unit) = single {
        out.extend(unit_gone(start, now, unit, value));
    }
}

/// The candidates of `cell` that `start` had and `now` has not.
pub(super) fn cell_gone(
    start: &Board,
    now: &Board,
    cell: usize,
) -> impl Iterator<Item = Candidate> {
    values(start.cands(cell) & !now.cands(cell)).map(move |value| Candidate { cell, value })
}

/// The places of `value` in `unit` that `start` had and `now` has not.
pub(super) fn unit_gone<'a>(
    start: &'a Board,
    now: &'a Board,
    unit: usize,
    value: u8,
) -> impl Iterator<Item = Candidate> + 'a {
    let gone: Mask = start.positions(unit, value) & !now.positions(unit, value);
    start
        .geo()
        .cells_in(unit, gone)
        .map(move |cell| Candidate { cell, value })
}

/// Searches done with, kept so the next ones neither allocate nor clear their tables: the nested
/// searches run thousands of times in one chain search.
#[derive(Default)]
pub(super) struct Searches {
    free: Vec<Reach>,
}

/// A finished search, kept while a rule's sets or links look things up in it.
enum Kept {
    /// Its tables of every node (a small grid).
    Whole(Reach),
    /// The nodes it reached, in order, and each one's distance and parent by node, ascending
    /// (a grid of more than [`DENSE_KEYS`] nodes).
    Reached {
        order: Vec<u16>,
        by_node: Vec<(u16, u16, u16)>,
    },
}

impl Kept {
    /// The nodes reached, in the order reached.
    fn order(&self) -> &[u16] {
        match self {
            Kept::Whole(r) => &r.order,
            Kept::Reached { order, .. } => order,
        }
    }

    /// How many links from the start `node` is, if it is reached.
    fn dist(&self, node: usize) -> Option<u16> {
        match self {
            Kept::Whole(r) => r.dist(node),
            Kept::Reached { by_node, .. } => Self::find(by_node, node).map(|&(_, d, _)| d),
        }
    }

    /// The node `node` was reached from; `None` for the start.
    fn parent(&self, node: usize) -> Option<usize> {
        match self {
            Kept::Whole(r) => r.parent(node),
            Kept::Reached { by_node, .. } => Self::find(by_node, node)
                .filter(|&&(_, _, p)| p != u16::MAX)
                .map(|&(_, _, p)| usize::from(p)),
        }
    }

    fn find(by_node: &[(u16, u16, u16)], node: usize) -> Option<&(u16, u16, u16)> {
        let at = by_node.binary_search_by_key(&node, |&(x, _, _)| usize::from(x));
        at.ok().map(|at| &by_node[at])
    }

    /// Gives its tables, if it has them, back for the next searches.
    fn give_back(self, searches: &mut Searches) {
        if let Kept::Whole(r) = self {
            searches.free.push(r);
        }
    }
}

/// The whole search from `from` over `nodes` nodes, on tables a past search left; `next` gives a
/// node's consequences to its callback.
fn reach(
    searches: &mut Searches,
    nodes: usize,
    from: usize,
    work: &mut usize,
    next: impl Fn(usize, &mut dyn FnMut(usize)),
) -> Kept {
    let mut r = searches.free.pop().unwrap_or_default();
    r.spread(nodes, from, usize::MAX, next, |_, _| false);
    *work += r.order.len();
    if nodes <= DENSE_KEYS {
        return Kept::Whole(r);
    }
    let mut by_node: Vec<(u16, u16, u16)> = r
        .order
        .iter()
        .map(|&x| {
            let node = usize::from(x);
            let dist = r.dist(node).unwrap_or(u16::MAX);
            let parent = r.parent(node).map_or(u16::MAX, |p| p as u16);
            (x, dist, parent)
        })
        .collect();
    by_node.sort_unstable();
    let order = std::mem::take(&mut r.order);
    searches.free.push(r);
    Kept::Reached { order, by_node }
}

/// What the strong links on the path from the search's start to `to` rest on, added to `out`;
/// the path's nodes hashed into `hasher`.
fn path_rests_on(
    start: &Board,
    now: &Board,
    r: &Kept,
    mut to: usize,
    out: &mut Vec<Candidate>,
    hasher: &mut DefaultHasher,
) {
    let n = now.n();
    while let Some(from) = r.parent(to) {
        to.hash(hasher);
        let (fc, _, f_on) = parts(n, from);
        let (tc, tv, t_on) = parts(n, to);
        if !f_on && t_on {
            single_rests_on(start, now, fc, tc, tv, &[], out);
        }
        to = from;
    }
    to.hash(hasher);
}

/// The eliminations of the static forcing chains on `now` (the board a chain reached from
/// `start`) that use a strong link `last` (the board of the chain's last such search) lacked.
/// `work` counts the nodes the searches looked at.
pub(super) fn implied(
    start: &Board,
    last: &Board,
    now: &Board,
    searches: &mut Searches,
    work: &mut usize,
) -> Vec<Nested> {
    let n = now.n();
    let nodes = n * n * n * 2;
    let mut reached: HashMap<usize, Kept> = HashMap::default();
    // Per candidate gone, the least complex chain: (complexity, link, node it follows from).
    let mut best: HashMap<Candidate, (usize, usize, usize)> = HashMap::default();
    let links = new_links(start, last, now);
    let mut common = Vec::new();
    for (l, link) in links.iter().enumerate() {
        for &end in &link.ends {
            reached.entry(end).or_insert_with(|| {
                reach(searches, nodes, end, work, |id, push| {
                    unary_chain::consequences(now, id, push)
                })
            });
        }
        let [a, b] = [&reached[&link.ends[0]], &reached[&link.ends[1]]];
        *work += nodes / 8;
        // What both ends reach, with how far from each, in node order.
        common.clear();
        common.extend(a.order().iter().filter_map(|&x| {
            let x = usize::from(x);
            Some((x, a.dist(x)?, b.dist(x)?))
        }));
        common.sort_unstable();
        for &(x, to_a, to_b) in &common {
            let (cell, value, on) = parts(n, x);
            if now.cands(cell).count_ones() < 2 || !now.has(cell, value) {
                continue;
            }
            // The chain from x's opposite to one end, across the link, on to x.
            let complexity = usize::from(to_a) + usize::from(to_b) + 2;
            let mut consider = |gone: Candidate| {
                let e = best.entry(gone).or_insert((usize::MAX, 0, 0));
                if complexity < e.0 {
                    *e = (complexity, l, x);
                }
            };
            if !on {
                consider(Candidate { cell, value });
                continue;
            }
            // As SE, a candidate proven true takes the cell's others only.
            for other in values(now.cands(cell) & !bit(value)) {
                consider(Candidate { cell, value: other });
            }
        }
    }
    let mut out: Vec<Nested> = best
        .into_iter()
        .map(|(gone, (complexity, l, x))| {
            let link = &links[l];
            let mut rests_on = link.rests_on.clone();
            let mut hasher = DefaultHasher::new();
            x.hash(&mut hasher);
            for end in link.ends {
                path_rests_on(start, now, &reached[&end], x, &mut rests_on, &mut hasher);
            }
            rests_on.sort_unstable();
            rests_on.dedup();
            Nested {
                gone,
                rests_on,
                complexity,
                id: hasher.finish(),
            }
        })
        .collect();
    for kept in reached.into_values() {
        kept.give_back(searches);
    }
    // Shortest first, as SE sorts a rule's chains before the outer chain takes what they remove:
    // the order the outer chain follows them in decides which later nodes rest on which.
    out.sort_unstable_by_key(|x| (x.complexity, x.gone, x.id));
    out
}

/// The eliminations of static multiple forcing chains on `now` (the board a chain reached from
/// `start`): what every candidate of a cell, or every place of a value in a unit, forces, where
/// the chains rest on candidates the outer chain took off. As SE's "Multiple Forcing Chains", the
/// cells are those of three candidates or more, and a unit's places are taken when the first of
/// them is such a cell. `work` counts the nodes the searches looked at.
pub(super) fn multiple(
    start: &Board,
    now: &Board,
    searches: &mut Searches,
    work: &mut usize,
) -> Vec<Nested> {
    let n = now.n();
    let geo = now.geo();
    let nodes = n * n * n * 2;
    let wide = |cell: usize| now.cands(cell).count_ones() >= 3;
    // The sets' branches, flat: set `i` is `members[sets[i]..sets[i + 1]]`.
    let mut members: Vec<usize> = Vec::new();
    let mut sets = vec![0];
    for cell in (0..n * n).filter(|&cell| wide(cell)) {
        members.extend(values(now.cands(cell)).map(|v| node(n, cell, v, true)));
        sets.push(members.len());
    }
    for unit in geo.houses() {
        for value in values(now.all()) {
            let places = now.positions(unit, value);
            if places.count_ones() >= 2 && geo.cells_in(unit, places).next().is_some_and(wide) {
                members.extend(geo.cells_in(unit, places).map(|c| node(n, c, value, true)));
                sets.push(members.len());
            }
        }
    }
    let links = Links::new(now);
    let mut reached: HashMap<usize, Kept> = HashMap::default();
    for &s in &members {
        reached.entry(s).or_insert_with(|| {
            reach(searches, nodes, s, work, |id, push| {
                links.of(id, Using::Both).for_each(&mut *push)
            })
        });
    }
    // Per candidate gone, the least complex chain (then the first set, then the least node).
    let mut best: HashMap<Candidate, ((usize, usize, usize), Nested)> = HashMap::default();
    let mut gone = Vec::new();
    let mut branches: Vec<&Kept> = Vec::new();
    for (i, set) in sets.windows(2).enumerate() {
        branches.clear();
        branches.extend(members[set[0]..set[1]].iter().map(|s| &reached[s]));
        let Some(fewest) = branches.iter().min_by_key(|r| r.order().len()) else {
            continue;
        };
        *work += fewest.order().len();
        for x in fewest.order().iter().map(|&x| usize::from(x)) {
            let (cell, value, on) = parts(n, x);
            if now.cands(cell).count_ones() < 2 || !now.has(cell, value) {
                continue;
            }
            // Reached by every branch: the branches' lengths, summed.
            let Some(complexity) = branches
                .iter()
                .map(|r| r.dist(x).map(|d| usize::from(d) + 1))
                .sum::<Option<usize>>()
            else {
                continue;
            };
            let rank = (complexity, i, x);
            gone.clear();
            if on {
                // As SE, a candidate proven true takes the cell's others only.
                gone.extend(
                    values(now.cands(cell) & !bit(value)).map(|v| Candidate { cell, value: v }),
                );
            } else {
                gone.push(Candidate { cell, value });
            }
            gone.retain(|g| best.get(g).is_none_or(|b| rank < b.0));
            if gone.is_empty() {
                continue;
            }
            let mut rests_on = Vec::new();
            let mut hasher = DefaultHasher::new();
            x.hash(&mut hasher);
            for r in &branches {
                path_rests_on(start, now, r, x, &mut rests_on, &mut hasher);
            }
            // A chain that rests on nothing the outer chain did is no part of it (SE).
            if rests_on.is_empty() {
                continue;
            }
            rests_on.sort_unstable();
            rests_on.dedup();
            let id = hasher.finish();
            for &g in &gone {
                let nested = Nested {
                    gone: g,
                    rests_on: rests_on.clone(),
                    complexity,
                    id,
                };
                best.insert(g, (rank, nested));
            }
        }
    }
    for kept in reached.into_values() {
        kept.give_back(searches);
    }
    let mut out: Vec<Nested> = best.into_values().map(|(_, nested)| nested).collect();
    // Shortest first, as in [`implied`].
    out.sort_unstable_by_key(|x| (x.complexity, x.gone));
    out
}
