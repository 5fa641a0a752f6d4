//! X-chains: on one value, a chain of links alternating strong (a unit with only two places for the
//! value: one of them holds it) and weak (two cells that see each other: not both hold it), starting
//! and ending with strong links. If the first cell does not hold the value the last one does, so a
//! cell seeing both ends loses it. The three-link chains have names: the skyscraper (two parallel
//! conjugate pairs) and the 2-string kite (a row pair and a column pair meeting in a box). Rated 6.6
//! plus SE's length adjustment, counting the chain's cells; the shortest chain is taken first.

use std::fmt::Write as _;

use super::{Context, Step, Technique, length_adjustment, seen_by_all, write_eliminations};
use crate::candidates::{Board, Candidate, UnitKind, values};

/// The most links a chain may have.
const MAX_LINKS: usize = 15;

const NONE: usize = usize::MAX;

/// The shortest X-chain that removes something, if the budget allows the search.
pub fn find(board: &Board, ctx: &mut Context<'_>) -> Option<Step> {
    let n = board.n();
    let geo = board.geo();
    let cells = n * n;
    let mut best: Option<(Vec<usize>, u8, Vec<Candidate>)> = None;
    let mut on_parent = vec![(NONE, NONE); cells];
    let mut off_seen = vec![false; cells];
    let mut frontier = Vec::new();
    let mut next = Vec::new();
    for value in values(board.all()) {
        let starts: Vec<usize> = (0..cells).filter(|&c| board.has(c, value)).collect();
        if !ctx.spend((starts.len() * starts.len()) as u64) {
            return None;
        }
        for &s in &starts {
            on_parent.fill((NONE, NONE));
            off_seen.fill(false);
            off_seen[s] = true;
            frontier.clear();
            for t in strong_partners(board, s, value) {
                if on_parent[t].0 == NONE {
                    on_parent[t] = (s, NONE);
                    frontier.push(t);
                }
            }
            let mut links = 1;
            while !frontier.is_empty() && links + 2 <= MAX_LINKS {
                if best.as_ref().is_some_and(|b| b.0.len() - 1 <= links + 2) {
                    break;
                }
                next.clear();
                links += 2;
                for &on in &frontier {
                    for unit in geo.all_units_of(on) {
                        for off in geo.cells_in(unit, board.positions(unit, value)) {
                            if off == on || off_seen[off] {
                                continue;
                            }
                            off_seen[off] = true;
                            for end in strong_partners(board, off, value) {
                                if end == s || on_parent[end].0 != NONE {
                                    continue;
                                }
                                on_parent[end] = (off, on);
                                next.push(end);
                                let eliminations = seen_by_all(board, value, &[s, end]);
                                if !eliminations.is_empty()
                                    && best.as_ref().is_none_or(|b| b.0.len() - 1 > links)
                                {
                                    best = Some((chain(&on_parent, end), value, eliminations));
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
    let technique = name(board, &chain, value);
    let mut step = Step::new(technique, 66 + length_adjustment(chain.len()));
    step.evidence = chain
        .iter()
        .map(|&cell| Candidate { cell, value })
        .collect();
    step.eliminations = eliminations;
    if ctx.explain {
        let _ = write!(step.text, "{} on {{{value}}}: ", technique.name());
        for (i, &cell) in chain.iter().enumerate() {
            if i > 0 {
                step.text.push_str(if i % 2 == 1 { " = " } else { " - " });
            }
            let _ = write!(step.text, "{}", geo.name(cell));
        }
        let (first, last) = (chain[0], chain[chain.len() - 1]);
        let _ = write!(
            step.text,
            " (= one of the two holds {{{value}}}, - not both). If {} does not hold {{{value}}}, {} does: a cell seeing both loses it.",
            geo.name(first),
            geo.name(last)
        );
        write_eliminations(&mut step.text, board, &step.eliminations);
    }
    Some(step)
}

/// The cells that share a house with `cell` where `value` has only those two places.
fn strong_partners(board: &Board, cell: usize, value: u8) -> impl Iterator<Item = usize> + '_ {
    let geo = board.geo();
    geo.houses_of(cell).filter_map(move |unit| {
        let p = board.positions(unit, value);
        (p.count_ones() == 2)
            .then(|| geo.cells_in(unit, p).find(|&c| c != cell))
            .flatten()
    })
}

/// The chain from its start to `end`, following the parents.
fn chain(on_parent: &[(usize, usize)], end: usize) -> Vec<usize> {
    let mut cells = vec![end];
    let mut on = end;
    loop {
        let (off, prev) = on_parent[on];
        cells.push(off);
        if prev == NONE {
            break;
        }
        cells.push(prev);
        on = prev;
    }
    cells.reverse();
    cells
}

/// Skyscraper, 2-string kite, or the general name.
fn name(board: &Board, chain: &[usize], value: u8) -> Technique {
    let geo = board.geo();
    let &[s, t, u, e] = chain else {
        return Technique::XChain;
    };
    let strong = |a: usize, b: usize, kind: UnitKind| {
        let [ra, ca, ba] = geo.units_of(a);
        let [rb, cb, bb] = geo.units_of(b);
        let unit = match kind {
            UnitKind::Row => (ra == rb).then_some(ra),
            UnitKind::Column => (ca == cb).then_some(ca),
            UnitKind::Box => (ba == bb).then_some(ba),
            UnitKind::Extra => None,
        };
        unit.is_some_and(|u| board.positions(u, value).count_ones() == 2)
    };
    let rows = strong(s, t, UnitKind::Row) && strong(u, e, UnitKind::Row);
    let cols = strong(s, t, UnitKind::Column) && strong(u, e, UnitKind::Column);
    let same_box = geo.units_of(t)[2] == geo.units_of(u)[2];
    let kite = same_box
        && ((strong(s, t, UnitKind::Row) && strong(u, e, UnitKind::Column))
            || (strong(s, t, UnitKind::Column) && strong(u, e, UnitKind::Row)));
    if rows || cols {
        Technique::Skyscraper
    } else if kite {
        Technique::TwoStringKite
    } else {
        Technique::XChain
    }
}
