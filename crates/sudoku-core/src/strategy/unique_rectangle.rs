//! Unique rectangles and loops: blank cells that all hold the values {a, b}, linked in a loop where
//! each row, column and region it enters holds two of its cells, one at an odd and one at an even
//! place, would let a and b swap along the loop, giving two solutions. A unique puzzle rules that
//! out, so the cells holding more than {a, b} keep the loop from forming. Type 1: one such cell,
//! which loses a and b. Type 2: such cells with one extra value c between them, one of which holds
//! it, so every cell seeing them all loses c. Type 3: two such cells with two extra values or
//! more, one of which holds one, so in a unit they share the extra values make a naked set with
//! other cells, or a and b a hidden set with other values (each a tenth harder per cell past the
//! smallest). Type 4: two such cells share a unit where a has no other place, so one of them is a
//! and neither can be b.
//!
//! As Sudoku Explainer finds and rates them: a loop of four cells (a rectangle) is 4.5, of six 4.6,
//! of eight 4.7, of ten or more 5.0. Loops are walked from each two-valued cell in order, through
//! its region, row and column in turn (never two steps through the same kind of house), with at
//! most two cells of extra values (more when they share the one extra value); of all they remove
//! something by, the easiest is taken, then the lowest type, then the first found.

use std::fmt::Write as _;

use super::{
    Context, Step, Technique, removed, seen_by_all, shared_units, subsets, write_cells,
    write_eliminations, write_values,
};
use crate::candidates::{Board, Candidate, Mask, bit, bits, values};

/// The rating of a unique rectangle, the easiest of the techniques that assume a unique puzzle.
pub const RATING: u16 = 45;

/// How many steps the loop walks of one search may take in all: a bound on the walk's cost on
/// large grids, far above what a 9x9 board needs.
const MOST_STEPS: usize = 1 << 20;

/// The easiest unique rectangle or loop that removes something.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let geo = board.geo();
    // A variant's extra unit through a cell of the loop can forbid the swap the argument rests on.
    if geo.has_extra_units() {
        return None;
    }
    let n = board.n();
    let mut walk = Walk {
        board,
        loop_cells: Vec::with_capacity(n * n),
        on_loop: vec![0; 3 * n],
        in_house: vec![[0; 2]; 3 * n],
        lonely: 0,
        steps: 0,
        best: None,
    };
    // Each pair's loop core, made when a start first needs it.
    let mut cores: Vec<(Mask, Vec<Mask>)> = Vec::new();
    for start in 0..n * n {
        let pair = board.cands(start);
        if pair.count_ones() != 2 {
            continue;
        }
        let at = match cores.iter().position(|&(p, _)| p == pair) {
            Some(at) => at,
            None => {
                cores.push((pair, loop_core(board, pair)));
                cores.len() - 1
            }
        };
        let core = &cores[at].1;
        if core[geo.units_of(start)[0]] >> geo.slots_of(start)[0] & 1 == 0 {
            continue;
        }
        walk.from(core, start, pair, 2, 0, None);
        if walk
            .best
            .as_ref()
            .is_some_and(|b| (b.rating, b.kind) == (RATING, 1))
        {
            break;
        }
    }
    let found = walk.best?;
    Some(step(board, ctx, found))
}

/// A loop that removes something: its cells in loop order, its pair, what it removes, its
/// rating and type.
struct Found {
    cells: Vec<usize>,
    pair: Mask,
    eliminations: Vec<Candidate>,
    rating: u16,
    kind: u8,
}

/// The loop walks from the board's two-valued cells, with the best loop so far.
struct Walk<'a> {
    board: &'a Board,
    /// The loop being walked, from its start.
    loop_cells: Vec<usize>,
    /// For each house, the places of the loop's cells in it.
    on_loop: Vec<Mask>,
    /// For each house, how many of the loop's cells it holds at even places and at odd.
    in_house: Vec<[u8; 2]>,
    /// How many houses hold just one of the loop's cells: a closed loop alternates when none does.
    lonely: usize,
    /// Steps taken, against [`MOST_STEPS`].
    steps: usize,
    best: Option<Found>,
}

impl Walk<'_> {
    /// Walks on from `cell` (the loop's last) through each kind of house but the one it came
    /// by (`came_by`: 0 region, 1 row, 2 column), keeping every loop that closes. `core` is the
    /// pair's [`loop_core`]; `allowed` is how many more cells may hold extra values; `extra` is
    /// the extra values met so far.
    fn from(
        &mut self,
        core: &[Mask],
        cell: usize,
        pair: Mask,
        allowed: i32,
        extra: Mask,
        came_by: Option<usize>,
    ) {
        let board = self.board;
        let geo = board.geo();
        let place = self.loop_cells.len() % 2;
        let [row, col, region] = geo.units_of(cell);
        self.enter(cell, place, true);
        for (kind, unit) in [region, row, col].into_iter().enumerate() {
            if came_by == Some(kind) {
                continue;
            }
            // The cells of the house that may lie on the loop and are not on it yet, and the start
            // once the loop could close, in order.
            let start = self.loop_cells[0];
            let mut open = core[unit] & !self.on_loop[unit];
            if self.loop_cells.len() >= 4 {
                let mut start_houses = geo.units_of(start).into_iter().zip(geo.slots_of(start));
                if let Some((_, slot)) = start_houses.find(|&(u, _)| u == unit) {
                    open |= 1 << slot;
                }
            }
            for next in geo.cells_in(unit, open) {
                self.steps += 1;
                if self.steps > MOST_STEPS {
                    break;
                }
                if next == start {
                    self.closed(pair);
                } else {
                    let cands = board.cands(next);
                    // A loop through a two-valued cell before the start was met from that cell.
                    if (cands == pair && next < start) || !self.may_take(next) {
                        continue;
                    }
                    let more = extra | (cands & !pair);
                    let wide = cands.count_ones() > 2;
                    if !wide || more.count_ones() == 1 || allowed > 0 {
                        let allowed = allowed - i32::from(wide);
                        self.from(core, next, pair, allowed, more, Some(kind));
                    }
                }
            }
        }
        self.enter(cell, place, false);
    }

    /// Puts `cell` on the loop at a place of parity `place`, or takes it off again.
    fn enter(&mut self, cell: usize, place: usize, on: bool) {
        if on {
            self.loop_cells.push(cell);
        } else {
            self.loop_cells.pop();
        }
        let geo = self.board.geo();
        for (unit, slot) in geo.units_of(cell).into_iter().zip(geo.slots_of(cell)) {
            self.on_loop[unit] ^= 1 << slot;
            let total = |house: [u8; 2]| house[0] + house[1];
            let before = total(self.in_house[unit]);
            let count = &mut self.in_house[unit][place];
            *count = if on { *count + 1 } else { *count - 1 };
            let after = total(self.in_house[unit]);
            if after == 1 {
                self.lonely += 1;
            }
            if before == 1 {
                self.lonely -= 1;
            }
        }
    }

    /// Whether the loop may go on to `cell`: no house of it holds two of the loop's cells yet,
    /// nor one at a place of the same parity as `cell`'s would be. Otherwise no loop closed from
    /// here could alternate, so the walk need not go there.
    fn may_take(&self, cell: usize) -> bool {
        let place = self.loop_cells.len() % 2;
        self.board.geo().units_of(cell).into_iter().all(|unit| {
            let [even, odd] = self.in_house[unit];
            even + odd < 2 && self.in_house[unit][place] == 0
        })
    }

    /// The loop just closed: if it is one, what it removes, kept if it beats the best so far.
    fn closed(&mut self, pair: Mask) {
        if self.lonely > 0 {
            return;
        }
        let board = self.board;
        let cells = &self.loop_cells;
        let rating = RATING
            + match cells.len() {
                4 => 0,
                6 => 1,
                8 => 2,
                _ => 5,
            };
        let extra: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&c| board.cands(c) != pair)
            .collect();
        let mut found = Vec::new();
        match extra[..] {
            [] => {}
            [rescue] => found.push((
                1,
                rating,
                values(pair)
                    .map(|value| Candidate {
                        cell: rescue,
                        value,
                    })
                    .collect(),
            )),
            [x, y] => {
                let others = (board.cands(x) | board.cands(y)) & !pair;
                if others.count_ones() == 1 {
                    found.push((2, rating, type2(board, others, &extra)));
                } else {
                    found.extend(
                        type3(board, pair, [x, y])
                            .into_iter()
                            .map(|(more, eliminations)| (3, rating + more, eliminations)),
                    );
                }
                found.push((4, rating, type4(board, pair, [x, y])));
            }
            _ => {
                let others = board.cands(extra[0]) & !pair;
                found.push((2, rating, type2(board, others, &extra)));
            }
        }
        for (kind, rating, eliminations) in found {
            if eliminations.is_empty()
                || self
                    .best
                    .as_ref()
                    .is_some_and(|b| (b.rating, b.kind) <= (rating, kind))
            {
                continue;
            }
            self.best = Some(Found {
                cells: cells.clone(),
                pair,
                eliminations,
                rating,
                kind,
            });
        }
    }
}

/// For each house, the places of the cells that may lie on a loop of `pair`: those holding both
/// values whose row, column and region each hold another such cell, found again until none is
/// left without (a loop's every house holds two of its cells). A walk through any other cell
/// closes no loop that alternates.
fn loop_core(board: &Board, pair: Mask) -> Vec<Mask> {
    let geo = board.geo();
    let houses = 3 * board.n();
    let mut places: Vec<Mask> = (0..houses)
        .map(|unit| {
            values(pair).fold(geo.full_positions(unit), |m, value| {
                m & board.positions(unit, value)
            })
        })
        .collect();
    let mut lone: Vec<usize> = (0..houses)
        .filter(|&u| places[u].count_ones() == 1)
        .collect();
    while let Some(unit) = lone.pop() {
        if places[unit].count_ones() != 1 {
            continue;
        }
        let cell = geo.cell_at(unit, places[unit].trailing_zeros() as usize);
        for (u, slot) in geo.units_of(cell).into_iter().zip(geo.slots_of(cell)) {
            places[u] &= !(1 << slot);
            if places[u].count_ones() == 1 {
                lone.push(u);
            }
        }
    }
    places
}

/// Type 2: the extra cells `extra` hold one extra value `others` between them, so one of them
/// holds it and every cell seeing them all loses it.
fn type2(board: &Board, others: Mask, extra: &[usize]) -> Vec<Candidate> {
    let value = others.trailing_zeros() as u8 + 1;
    seen_by_all(board, value, extra)
}

/// Type 3 on the extra cells `[x, y]` (in loop order), which hold two extra values or more: in a
/// unit they share, one of them holds an extra value, so those values make a naked set with other
/// cells of the unit (the two cells as one), or the pair's values and others a hidden set (the two
/// cells as one place). What the set removes from the unit's other cells, with what it adds to the
/// loop's rating: a tenth for each cell of a naked set but one, for each of a hidden set but two.
/// In SE's order: the smallest set first, box before row before column, naked before hidden.
fn type3(board: &Board, pair: Mask, [x, y]: [usize; 2]) -> Vec<(u16, Vec<Candidate>)> {
    let geo = board.geo();
    let extra = (board.cands(x) | board.cands(y)) & !pair;
    let common = extra & board.cands(x) & board.cands(y);
    let units = shared_units(geo, [x, y].into_iter());
    let mut found = Vec::new();
    for degree in 2..=7usize {
        for &unit in &units {
            let blanks = board.blanks(unit);
            let y_slot: Mask = 1 << geo.slot_in(y, unit);
            let ends = (1 << geo.slot_in(x, unit)) | y_slot;
            let cell = |slot: usize| geo.cell_at(unit, slot);
            let slots = geo.full_positions(unit);
            // Naked: the extra values and degree - 1 other cells' candidates make degree values.
            if degree * 2 <= blanks && degree >= extra.count_ones() as usize {
                // Only blank cells of at most `degree` candidates can be in the set.
                let fits = bits(slots & !ends)
                    .filter(|&slot| {
                        (2..=degree as u32).contains(&board.cands(cell(slot)).count_ones())
                    })
                    .fold(0, |m, slot| m | (1 << slot));
                for chosen in subsets(fits, degree - 1) {
                    let theirs = geo
                        .cells_in(unit, chosen)
                        .fold(0, |m, c| m | board.cands(c));
                    let set = extra | theirs;
                    if (common | theirs).count_ones() as usize != degree
                        || set.count_ones() as usize != degree
                    {
                        continue;
                    }
                    let gone = removed(board, geo.cells_in(unit, slots & !ends & !chosen), set);
                    if !gone.is_empty() {
                        found.push((degree as u16 - 1, gone));
                    }
                }
            }
            // Hidden: the pair's values and degree - 2 values the two cells lack take degree places.
            if degree * 2 < blanks {
                // Only values with a place, and fewer than `degree`, can be in the set.
                let lacking = values(board.all() & !pair & !extra)
                    .filter(|&v| {
                        (1..degree as u32).contains(&board.positions(unit, v).count_ones())
                    })
                    .fold(0, |m, v| m | bit(v));
                for chosen in subsets(lacking, degree - 2) {
                    let set = chosen | pair;
                    let mut places: Mask = 0;
                    let mut each = true;
                    for value in values(set) {
                        let at = board.positions(unit, value) & !y_slot;
                        each &= at != 0;
                        places |= at;
                    }
                    if !each || places.count_ones() as usize != degree {
                        continue;
                    }
                    let gone = removed(board, geo.cells_in(unit, places & !ends), !set);
                    if !gone.is_empty() {
                        found.push((degree as u16 - 2, gone));
                    }
                }
            }
        }
    }
    found
}

/// Type 4 on the extra cells `extra`: where a unit they share leaves one of the pair's values no
/// other place (the lower value, if both are so somewhere), the other value leaves both.
fn type4(board: &Board, pair: Mask, extra: [usize; 2]) -> Vec<Candidate> {
    let geo = board.geo();
    let [x, y] = extra;
    let mut locked: Mask = 0;
    for unit in geo
        .units_of(x)
        .into_iter()
        .filter(|u| geo.units_of(y).contains(u))
    {
        let mine = (1 << geo.slot_in(x, unit)) | (1 << geo.slot_in(y, unit));
        for value in values(pair) {
            if board.positions(unit, value) & !mine == 0 {
                locked |= bit(value);
            }
        }
    }
    let Some(lock) = values(locked).next() else {
        return Vec::new();
    };
    values(pair & !bit(lock))
        .flat_map(|other| extra.map(|cell| Candidate { cell, value: other }))
        .filter(|c| board.has(c.cell, c.value))
        .collect()
}

/// The step of loop `found`.
fn step(board: &Board, ctx: &Context<'_>, found: Found) -> Step {
    let Found {
        cells,
        pair,
        eliminations,
        rating,
        kind,
    } = found;
    let mut step = Step::new(Technique::UniqueRectangle, rating);
    step.evidence = cells
        .iter()
        .flat_map(|&cell| values(pair).map(move |value| Candidate { cell, value }))
        .collect();
    step.evidence.sort_unstable();
    step.eliminations = eliminations;
    if ctx.explain {
        let shape = if cells.len() == 4 {
            "unique rectangle"
        } else {
            "unique loop"
        };
        step.text.push_str("The cells ");
        write_cells(&mut step.text, board, cells.iter().copied());
        step.text.push_str(" would hold ");
        write_values(&mut step.text, values(pair), " and ");
        let _ = write!(
            step.text,
            " in either order, two solutions; a unique puzzle rules that out ({shape} type {kind})."
        );
        write_eliminations(&mut step.text, board, &step.eliminations);
    }
    step
}

#[cfg(test)]
mod tests {
    use crate::candidates::Candidate;
    use crate::grader::{self, Options};
    use crate::strategy::Technique;

    /// The loops a grade takes on `puzzle`: each step's rating, cells and eliminations.
    fn loops(puzzle: &str) -> Vec<(u16, Vec<usize>, Vec<Candidate>)> {
        let (_, grade) = grader::grade_of(puzzle, &Options::default());
        grade
            .steps
            .into_iter()
            .filter(|s| s.technique == Technique::UniqueRectangle)
            .map(|s| {
                let mut cells: Vec<usize> = s.evidence.iter().map(|c| c.cell).collect();
                cells.dedup();
                (s.rating, cells, s.eliminations)
            })
            .collect()
    }

    #[test]
    fn a_rectangle_of_type_3_is_taken_as_sudoku_explainer_takes_it() {
        // SE: "Unique Rectangle type 3: Cells r7c9,r9c9,r9c5,r7c5 on 5, 7", 4.7.
        let found = loops(
            ".82.....6..6.8.75.5...16.....4.6...3.25..1.7......7..9.4....1....7.......1...92..",
        );
        let [(rating, cells, eliminations), ..] = &found[..] else {
            panic!("a loop expected");
        };
        assert_eq!(*rating, 47);
        let at = |r: usize, c: usize| (r - 1) * 9 + c - 1;
        let mut expected = vec![at(7, 9), at(9, 9), at(9, 5), at(7, 5)];
        expected.sort_unstable();
        assert_eq!(cells, &expected);
        let gone = |r, c, value| Candidate {
            cell: at(r, c),
            value,
        };
        let mut eliminations = eliminations.clone();
        eliminations.sort_unstable();
        assert_eq!(
            eliminations,
            vec![gone(7, 6, 3), gone(9, 4, 3), gone(9, 4, 4)]
        );
    }

    #[test]
    fn a_six_cell_loop_of_type_4_is_taken_as_sudoku_explainer_takes_it() {
        // SE: "Unique Loop 6 type 4: Cells r1c6,r1c8,r3c8,r3c5,r6c5,r6c6 on 7, 5", 4.6.
        let found = loops(
            "2..8.........6...49.......2.....4.1.6753......8....9...6..48.2..2..3.7.17....1...",
        );
        let [(rating, cells, eliminations)] = &found[..] else {
            panic!("one loop expected, found {}", found.len());
        };
        assert_eq!(*rating, 46);
        let at = |r: usize, c: usize| (r - 1) * 9 + c - 1;
        let mut expected = vec![at(1, 6), at(1, 8), at(3, 8), at(3, 5), at(6, 5), at(6, 6)];
        expected.sort_unstable();
        assert_eq!(cells, &expected);
        let five = |cell| Candidate { cell, value: 5 };
        assert_eq!(eliminations, &vec![five(at(6, 5)), five(at(6, 6))]);
    }
}
