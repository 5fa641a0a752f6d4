//! Which nodes of a pass reach which, at any length, from the pass's strongly connected
//! components: most starts can reach neither their opposite nor themselves, and their searches,
//! which would look at every node they reach to find nothing, are skipped.

use std::iter::Copied;
use std::slice::Iter;

use petgraph::algo::TarjanScc;
use petgraph::visit::{GraphBase, GraphRef, IntoNeighbors, IntoNodeIdentifiers, NodeIndexable};

use super::{Links, Using};

/// Boards with more candidate nodes than this go without: the table grows with the square of
/// the nodes, and the component search recurses as deep as a path of them.
const MOST_NODES: usize = 2048;

/// What each node of a pass reaches, by component.
pub(in crate::strategy) struct Closure {
    /// Each node's component, by node id (`u32::MAX` for the nodes of no candidate).
    component: Vec<u32>,
    /// Whether a component holds a cycle: more than one node, as no node links to itself.
    cyclic: Vec<bool>,
    /// Words in a row of `reach`.
    words: usize,
    /// A row of `words` words for each component: the components it reaches, itself included.
    reach: Vec<u64>,
}

impl Closure {
    /// The closure of `links` as `using` takes them; `None` for a board with too many
    /// candidates. `scc` is the component search's tables, kept from the last pass.
    pub(super) fn new(links: &Links, using: Using, scc: &mut TarjanScc<u32>) -> Option<Closure> {
        let present = links.present();
        if present.len() > MOST_NODES {
            return None;
        }
        let words = present.len().div_ceil(64).max(1);
        let mut component = vec![u32::MAX; links.nodes()];
        let mut cyclic = Vec::new();
        let mut reach = Vec::with_capacity(present.len() * words);
        // Components come out after every component they reach, so each row is the union of
        // rows already made; a row that has a component has all it reaches.
        scc.run(Graph { links, using }, |nodes| {
            let at = cyclic.len();
            cyclic.push(nodes.len() > 1);
            for &id in nodes {
                component[id as usize] = at as u32;
            }
            reach.resize((at + 1) * words, 0);
            let (done, row) = reach.split_at_mut(at * words);
            row[at / 64] |= 1 << (at % 64);
            for &id in nodes {
                for &next in links.slice(id as usize, using) {
                    let to = component[next as usize] as usize;
                    if row[to / 64] >> (to % 64) & 1 == 0 {
                        let theirs = &done[to * words..][..words];
                        row.iter_mut().zip(theirs).for_each(|(r, t)| *r |= t);
                    }
                }
            }
        });
        Some(Closure {
            component,
            cyclic,
            words,
            reach,
        })
    }

    /// Whether node `from` reaches node `to` by some chain, however long.
    pub(super) fn reaches(&self, from: usize, to: usize) -> bool {
        let to = self.component_of(to);
        self.reached_by(from)[to / 64] >> (to % 64) & 1 == 1
    }

    /// Node `id`'s component: its bit in the rows of [`Closure::reached_by`].
    pub(in crate::strategy) fn component_of(&self, id: usize) -> usize {
        self.component[id] as usize
    }

    /// The words of a row of [`Closure::reached_by`].
    pub(in crate::strategy) fn words(&self) -> usize {
        self.words
    }

    /// The components node `id` reaches, as the bits of a row of words.
    pub(in crate::strategy) fn reached_by(&self, id: usize) -> &[u64] {
        &self.reach[self.component_of(id) * self.words..][..self.words]
    }

    /// Whether nodes `a` and `b` reach each other.
    pub(super) fn together(&self, a: usize, b: usize) -> bool {
        self.component[a] == self.component[b]
    }

    /// Whether some cycle passes through node `id`.
    pub(super) fn on_cycle(&self, id: usize) -> bool {
        self.cyclic[self.component[id] as usize]
    }
}

/// A pass's links as the graph the component search walks: its nodes are the candidates' nodes.
#[derive(Clone, Copy)]
struct Graph<'a> {
    links: &'a Links,
    using: Using,
}

impl GraphBase for Graph<'_> {
    type NodeId = u32;
    type EdgeId = ();
}

impl GraphRef for Graph<'_> {}

impl<'a> IntoNeighbors for Graph<'a> {
    type Neighbors = Copied<Iter<'a, u32>>;

    fn neighbors(self, id: u32) -> Self::Neighbors {
        self.links.slice(id as usize, self.using).iter().copied()
    }
}

impl<'a> IntoNodeIdentifiers for Graph<'a> {
    type NodeIdentifiers = Copied<Iter<'a, u32>>;

    fn node_identifiers(self) -> Self::NodeIdentifiers {
        self.links.present().iter().copied()
    }
}

impl NodeIndexable for Graph<'_> {
    fn node_bound(&self) -> usize {
        self.links.nodes()
    }

    fn to_index(&self, id: u32) -> usize {
        id as usize
    }

    fn from_index(&self, index: usize) -> u32 {
        index as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::Board;

    /// Every node each node reaches, by a plain search over the links.
    fn reached(links: &Links, using: Using, from: usize) -> Vec<bool> {
        let mut seen = vec![false; links.nodes()];
        let mut queue = vec![from];
        seen[from] = true;
        while let Some(id) = queue.pop() {
            for next in links.of(id, using) {
                if !std::mem::replace(&mut seen[next], true) {
                    queue.push(next);
                }
            }
        }
        seen
    }

    #[test]
    fn the_closure_is_what_a_search_reaches() {
        let mut scc = TarjanScc::new();
        let mut cyclic = 0;
        for puzzle in [
            ".....8.1...13..958...7....371......9.9.....3....92...4.3...7....59..1...4...6.3..",
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        ] {
            let grid: crate::grid::Grid = puzzle.parse().expect("a valid puzzle");
            let board = Board::new(&grid).expect("no clash");
            let links = Links::new(&board);
            for using in [Using::Units, Using::Cells, Using::Both] {
                let closure = Closure::new(&links, using, &mut scc).expect("a 9x9 board");
                let present: Vec<usize> = links.present().iter().map(|&id| id as usize).collect();
                for &from in &present {
                    let seen = reached(&links, using, from);
                    for &to in &present {
                        assert_eq!(closure.reaches(from, to), seen[to], "{puzzle}: {from} {to}");
                        let both_ways = seen[to] && reached(&links, using, to)[from];
                        assert_eq!(
                            closure.together(from, to),
                            both_ways,
                            "{puzzle}: {from} {to}"
                        );
                    }
                    let back = links
                        .of(from, using)
                        .any(|next| reached(&links, using, next)[from]);
                    assert_eq!(closure.on_cycle(from), back, "{puzzle}: {from}");
                    cyclic += usize::from(back);
                }
            }
        }
        assert!(cyclic > 100, "only {cyclic} nodes on cycles");
    }
}
