//! What Sudoku Explainer's "Dynamic Forcing Chains (+)" adds to a chain once its singles run dry:
//! the eliminations of the basic techniques (pointing and claiming, hidden and naked pairs,
//! X-Wing) on the board as the chain left it. Each elimination rests on the candidates the chain
//! took off that the pattern needs gone, so a pattern that was already there before the chain
//! (resting on nothing) is no link of it. The first technique that gives anything gives all it
//! has, as SE collects them.

use smallvec::{SmallVec, smallvec};

use crate::candidates::{Board, Candidate, Mask, UnitKind, bit, bits, values};

/// An elimination the chain may take, and the candidates it rests on (all gone from `now` but
/// there on the board the chain started from).
pub(super) struct Implied {
    /// The candidate that goes.
    pub gone: Candidate,
    /// The chain's removals the pattern needs.
    pub rests_on: Vec<Candidate>,
}

/// The eliminations of the first basic technique with any on `now`, the board a chain reached
/// from `start`.
pub(super) fn implied(start: &Board, now: &Board) -> Vec<Implied> {
    let mut out = Vec::new();
    let taken = taken(start, now);
    for technique in [locking, hidden_pairs, naked_pairs, x_wings] {
        technique(start, now, &taken, &mut out);
        if !out.is_empty() {
            break;
        }
    }
    out
}

/// Keeps the eliminations of one pattern when it rests on something and removes something.
fn push(out: &mut Vec<Implied>, gone: impl Iterator<Item = Candidate>, rests_on: Vec<Candidate>) {
    if rests_on.is_empty() {
        return;
    }
    for gone in gone {
        out.push(Implied {
            gone,
            rests_on: rests_on.clone(),
        });
    }
}

/// For each unit, the values the chain took a place of off: a pattern on a unit's places of a
/// value rests on nothing unless the value is among them, and most are not.
fn taken(start: &Board, now: &Board) -> SmallVec<[Mask; 32]> {
    let geo = now.geo();
    let mut taken = smallvec![0; geo.units().len()];
    for cell in 0..now.n() * now.n() {
        let gone = start.cands(cell) & !now.cands(cell);
        if gone != 0 {
            for unit in geo.all_units_of(cell) {
                taken[unit] |= gone;
            }
        }
    }
    taken
}

/// The candidates `value` at the slots of `unit` outside `pattern` that were there at the start
/// and are not now: what the chain took off for a pattern on those slots to stand.
fn taken_off<'a>(
    start: &'a Board,
    now: &'a Board,
    unit: usize,
    value: u8,
    pattern: Mask,
) -> impl Iterator<Item = Candidate> + 'a {
    let gone = start.positions(unit, value) & !now.positions(unit, value) & !pattern;
    start
        .geo()
        .cells_in(unit, gone)
        .map(move |cell| Candidate { cell, value })
}

/// Pointing and claiming (and a house against any unit through two or more of its cells): a
/// value whose places in a house all lie in one other unit leaves the rest of that unit. In SE's
/// order, as the first pattern to take a candidate gives it its parents: boxes against columns,
/// then rows, then columns and rows against boxes, each value in turn; then the extra units.
fn locking(start: &Board, now: &Board, taken: &[Mask], out: &mut Vec<Implied>) {
    let geo = now.geo();
    let n = now.n();
    let (rows, columns, boxes) = (0..n, n..2 * n, 2 * n..3 * n);
    for (houses, cover) in [
        (boxes.clone(), UnitKind::Column),
        (boxes, UnitKind::Row),
        (columns, UnitKind::Box),
        (rows, UnitKind::Box),
    ] {
        for value in values(now.all()) {
            for house in houses.clone().filter(|&h| taken[h] & bit(value) != 0) {
                lock(start, now, house, value, |c| geo.kind(c) == cover, out);
            }
        }
    }
    if geo.units().len() == 3 * n {
        return;
    }
    let extra = |u: usize| geo.kind(u) == UnitKind::Extra;
    for house in geo.houses() {
        for value in values(taken[house]) {
            lock(start, now, house, value, |c| extra(house) || extra(c), out);
        }
    }
}

/// Locking of `value` from `house` into the covers `cover` accepts, where the chain took a place
/// of `value` off `house` ([`taken`]).
fn lock(
    start: &Board,
    now: &Board,
    house: usize,
    value: u8,
    cover: impl Fn(usize) -> bool,
    out: &mut Vec<Implied>,
) {
    let geo = now.geo();
    let places = now.positions(house, value);
    if places.count_ones() < 2 || now.placed(house) & bit(value) != 0 {
        return;
    }
    let first = geo.cell_at(house, places.trailing_zeros() as usize);
    for cover in geo.all_units_of(first).filter(|&c| c != house && cover(c)) {
        let shared = slots_inside(now, house, cover);
        if shared.count_ones() < 2 || places & !shared != 0 {
            continue;
        }
        let gone = geo
            .cells_in(cover, now.positions(cover, value))
            .filter(|&cell| !geo.holds(house, cell))
            .map(|cell| Candidate { cell, value });
        push(
            out,
            gone,
            taken_off(start, now, house, value, shared).collect(),
        );
    }
}

/// The slots of `house` whose cells lie in `cover`.
fn slots_inside(now: &Board, house: usize, cover: usize) -> Mask {
    let geo = now.geo();
    let classic = 3 * now.n();
    if house < classic && cover < classic {
        return geo.meet(house, cover);
    }
    geo.cells_of(house)
        .enumerate()
        .filter(|&(_, c)| geo.holds(cover, c))
        .fold(0, |m: Mask, (slot, _)| m | 1 << slot)
}

/// Units in SE's order for its sets: boxes, columns, rows, then the extra units, each with more
/// than `blanks` blank cells at the start (SE looks for a pair only where its complement is not a
/// smaller pattern).
fn in_se_order(
    start: &Board,
    units: std::ops::Range<usize>,
    blanks: usize,
) -> impl Iterator<Item = usize> + '_ {
    let n = start.n();
    (2 * n..3 * n)
        .chain(n..2 * n)
        .chain(0..n)
        .chain(3 * n..units.end)
        .filter(move |&u| start.blanks(u) > blanks)
}

/// Hidden pairs: two values with the same two places in a house leave those cells' other
/// candidates.
fn hidden_pairs(start: &Board, now: &Board, taken: &[Mask], out: &mut Vec<Implied>) {
    let geo = now.geo();
    for house in in_se_order(start, geo.houses(), 4) {
        // Values of at most two places; a pair rests on nothing unless the chain took a place of
        // one of its values off the house.
        let moved = taken[house];
        if moved == 0 {
            continue;
        }
        let open = values(now.all() & !now.placed(house))
            .filter(|&value| now.positions(house, value).count_ones() <= 2)
            .fold(0, |m: Mask, value| m | bit(value));
        for a in values(open) {
            let above = open & !(bit(a) | (bit(a) - 1));
            for b in values(if moved & bit(a) != 0 {
                above
            } else {
                above & moved
            }) {
                let places = now.positions(house, a) | now.positions(house, b);
                if places.count_ones() != 2 {
                    continue;
                }
                let pair = bit(a) | bit(b);
                let gone = geo.cells_in(house, places).flat_map(|cell| {
                    values(now.cands(cell) & !pair).map(move |value| Candidate { cell, value })
                });
                let rests_on = [a, b]
                    .into_iter()
                    .flat_map(|value| taken_off(start, now, house, value, places))
                    .collect();
                push(out, gone, rests_on);
            }
        }
    }
}

/// Naked pairs: two cells of a unit with the same two candidates leave the rest of the unit
/// without them.
fn naked_pairs(start: &Board, now: &Board, taken: &[Mask], out: &mut Vec<Implied>) {
    let geo = now.geo();
    // A pair rests on nothing unless the chain took candidates off one of its cells.
    for unit in in_se_order(start, geo.units(), 3).filter(|&u| taken[u] != 0) {
        let cells: Vec<usize> = geo
            .cells_of(unit)
            .filter(|&c| now.cands(c).count_ones() == 2)
            .collect();
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                let pair = now.cands(a);
                if now.cands(b) != pair {
                    continue;
                }
                let gone = geo
                    .cells_of(unit)
                    .filter(|&c| c != a && c != b)
                    .flat_map(|cell| {
                        values(now.cands(cell) & pair).map(move |value| Candidate { cell, value })
                    });
                let rests_on = [a, b]
                    .into_iter()
                    .flat_map(|cell| {
                        values(start.cands(cell) & !pair)
                            .map(move |value| Candidate { cell, value })
                    })
                    .collect();
                push(out, gone, rests_on);
            }
        }
    }
}

/// X-Wings: a value whose places in two rows lie in the same two columns leaves the rest of those
/// columns (and the same with rows and columns swapped).
fn x_wings(start: &Board, now: &Board, taken: &[Mask], out: &mut Vec<Implied>) {
    let geo = now.geo();
    let n = now.n();
    for value in values(now.all()) {
        for (base, cover) in [(n, 0), (0, n)] {
            for a in base..base + n {
                let slots = now.positions(a, value);
                if slots.count_ones() != 2 {
                    continue;
                }
                for b in a + 1..base + n {
                    if now.positions(b, value) != slots || (taken[a] | taken[b]) & bit(value) == 0 {
                        continue;
                    }
                    let covers: Vec<usize> = bits(slots).map(|s| cover + s).collect();
                    let gone = covers
                        .iter()
                        .flat_map(|&c| geo.cells_in(c, now.positions(c, value)))
                        .filter(|&cell| !geo.holds(a, cell) && !geo.holds(b, cell))
                        .map(|cell| Candidate { cell, value });
                    // A row's slots are its columns (and a column's its rows).
                    let rests_on = [a, b]
                        .into_iter()
                        .flat_map(|line| taken_off(start, now, line, value, slots))
                        .collect();
                    push(out, gone, rests_on);
                }
            }
        }
    }
}
