//! XY-chains: a chain of bivalue cells, each seeing the next and sharing a value with it. If the first
//! cell is not `a`, it is its other value, so the next is not that, so it is its other value, and so
//! on, until the last cell is `a`: one of the ends holds `a`, and a cell seeing both loses it. Rated
//! 6.6 plus SE's length adjustment, counting two candidates per cell; the shortest chain first.

use std::fmt::Write as _;

use super::{Context, Step, Technique, length_adjustment, seen_by_all, write_eliminations};
use crate::candidates::{Board, Candidate, values};

/// The most cells a chain may have.
const MAX_CELLS: usize = 12;

const NONE: usize = usize::MAX;

/// The best chain found so far: its cells with their values, its length in links, its eliminations.
type Best = (Vec<(usize, u8)>, u8, Vec<Candidate>);

/// The shortest XY-chain (of three cells or more) that removes something, if the budget allows.
pub fn find(board: &Board, ctx: &mut Context<'_>) -> Option<Step> {
    let n = board.n();
    let geo = board.geo();
    let cells = n * n;
    let bivalue: Vec<usize> = (0..cells)
        .filter(|&c| board.cands(c).count_ones() == 2)
        .collect();
    if !ctx.spend((bivalue.len() * bivalue.len() * 2) as u64) {
        return None;
    }
    // A state is a cell and the value it holds if the chain so far holds: `cell * n + value - 1`.
    let mut parent = vec![NONE; cells * n];
    let mut frontier = Vec::new();
    let mut next = Vec::new();
    let mut best: Option<Best> = None;
    for &s in &bivalue {
        for a in values(board.cands(s)) {
            parent.fill(NONE);
            let x = (board.cands(s) & !crate::candidates::bit(a)).trailing_zeros() as u8 + 1;
            let start = s * n + usize::from(x) - 1;
            parent[start] = start;
            frontier.clear();
            frontier.push(start);
            let mut length = 1;
            while !frontier.is_empty() && length < MAX_CELLS {
                if best.as_ref().is_some_and(|b| b.0.len() <= length + 1) {
                    break;
                }
                length += 1;
                next.clear();
                for &state in &frontier {
                    let (cell, w) = (state / n, (state % n) as u8 + 1);
                    for unit in geo.all_units_of(cell) {
                        for p in geo.cells_in(unit, board.positions(unit, w)) {
                            if p == cell || p == s || board.cands(p).count_ones() != 2 {
                                continue;
                            }
                            let other = (board.cands(p) & !crate::candidates::bit(w))
                                .trailing_zeros() as u8
                                + 1;
                            let to = p * n + usize::from(other) - 1;
                            if parent[to] != NONE {
                                continue;
                            }
                            parent[to] = state;
                            next.push(to);
                            if other == a && length >= 3 {
                                let eliminations = seen_by_all(board, a, &[s, p]);
                                if !eliminations.is_empty()
                                    && best.as_ref().is_none_or(|b| b.0.len() > length)
                                {
                                    best = Some((chain(&parent, to, n), a, eliminations));
                                }
                            }
                        }
                    }
                }
                std::mem::swap(&mut frontier, &mut next);
            }
        }
    }
    let (chain, value, eliminations) = best?;
    let mut step = Step::new(Technique::XyChain, 66 + length_adjustment(2 * chain.len()));
    step.evidence = chain
        .iter()
        .flat_map(|&(cell, _)| {
            values(board.cands(cell)).map(move |value| Candidate { cell, value })
        })
        .collect();
    step.eliminations = eliminations;
    if ctx.explain {
        let (first, last) = (chain[0].0, chain[chain.len() - 1].0);
        let _ = write!(
            step.text,
            "XY-Chain: if {} is not {{{value}}}, then ",
            geo.name(first)
        );
        for (i, &(cell, on)) in chain.iter().enumerate() {
            if i > 0 {
                step.text.push_str(", so ");
            }
            let _ = write!(step.text, "{} is {{{on}}}", geo.name(cell));
        }
        let _ = write!(
            step.text,
            ". One of {} and {} holds {{{value}}}: a cell seeing both loses it.",
            geo.name(first),
            geo.name(last)
        );
        write_eliminations(&mut step.text, board, &step.eliminations);
    }
    Some(step)
}

/// The chain's cells with the value each holds, from the start to `end`.
fn chain(parent: &[usize], end: usize, n: usize) -> Vec<(usize, u8)> {
    let mut out = Vec::new();
    let mut state = end;
    loop {
        out.push((state / n, (state % n) as u8 + 1));
        let up = parent[state];
        if up == state {
            break;
        }
        state = up;
    }
    out.reverse();
    out
}
