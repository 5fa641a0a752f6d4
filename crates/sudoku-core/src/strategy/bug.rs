//! Bivalue universal grave (BUG), as Sudoku Explainer finds it. In a BUG every blank cell holds two
//! candidates and every open value has two places in each unit: swapping each cell's two values
//! gives a second solution, so a unique puzzle is never in one. The cells with more candidates (the
//! BUG cells) are found unit by unit: where a value has neither none nor two places, one cell of
//! three candidates or more among them holds it as an extra value (lkSudoku's rule, SE's default,
//! also takes a value that is the only such value, wherever it has several such cells). Without
//! the extra values the grid must be a BUG; then one of them is true, and:
//!
//! - BUG+1, type 1 (5.6): one BUG cell keeps only its extra values (with one, it takes it);
//! - type 2 (5.7): the extra values are one value, so the cells seeing every BUG cell lose it;
//! - type 4 (5.7): two BUG cells share a unit and one value besides their extra ones, so each
//!   keeps only that value and its extra values;
//! - type 3 (5.8 for a pair to 6.2 for a sextuple): the BUG cells share a unit where their extra
//!   values and other cells seeing them all make a naked set, whose values the unit's other cells
//!   seeing them all lose.
//!
//! SE tries them in that order (type 4 before type 3), after the hidden quads.

use std::fmt::Write as _;

use super::{
    Context, Step, Technique, removed, shared_units, subsets, write_cells, write_eliminations,
    write_values,
};
use crate::candidates::{Board, Candidate, Mask, bit, values};

/// What the grid would be without the extra values, as every BUG step explains it.
const TWO_SOLUTIONS: &str = "every blank cell would have two candidates and each value would appear twice in every unit: two solutions";

/// The most cells of a BUG type 3's naked set, the BUG cells counted as one.
const MOST_NAKED: usize = 6;

/// The first BUG step that removes something, if the grid is a BUG but for its BUG cells. Not with
/// a variant's extra units, where swapping each cell's two values need not give a second solution.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    if board.geo().has_extra_units() {
        return None;
    }
    let grave = Grave::of(board)?;
    match grave.cells.as_slice() {
        [(cell, extra)] => Some(type1(board, ctx, *cell, *extra)),
        _ if grave.extra.count_ones() == 1 => {
            type2(board, ctx, &grave).or_else(|| type4(board, ctx, &grave))
        }
        _ if !grave.common.is_empty() => {
            type4(board, ctx, &grave).or_else(|| type3(board, ctx, &grave))
        }
        _ => None,
    }
}

/// A grid that is a BUG but for some candidates.
struct Grave {
    /// The BUG cells, as SE meets them, each with its extra values.
    cells: Vec<(usize, Mask)>,
    /// Every extra value.
    extra: Mask,
    /// The blank cells, other than the BUG cells, that see every BUG cell.
    common: Vec<usize>,
}

impl Grave {
    /// The BUG cells and their extra values, if taking those values out leaves a BUG.
    fn of(board: &Board) -> Option<Grave> {
        let n = board.n();
        let geo = board.geo();
        let mut cells: Vec<(usize, Mask)> = Vec::new();
        // lkSudoku's rule: the value of every unit out of step, while it is one value, and the
        // cells of three candidates or more holding it there.
        let mut lone: Option<(u8, Vec<usize>)> = None;
        let mut one_value = true;
        // Boxes, rows, then columns, as SE goes.
        for unit in (2 * n..3 * n).chain(0..2 * n) {
            for value in values(board.all() & !board.placed(unit)) {
                let places = board.positions(unit, value);
                if places.count_ones() == 2 {
                    continue;
                }
                let wide: Vec<usize> = geo
                    .cells_in(unit, places)
                    .filter(|&c| board.cands(c).count_ones() >= 3)
                    .collect();
                match &mut lone {
                    None => lone = Some((value, wide.clone())),
                    Some((v, lone_cells)) if one_value => {
                        if *v == value {
                            lone_cells.extend(&wide);
                        } else {
                            one_value = false;
                        }
                    }
                    Some(_) => {}
                }
                match wide.as_slice() {
                    [] => return None,
                    &[cell] => add(&mut cells, cell, value),
                    // Several cells could hold it: another unit tells which.
                    _ => {}
                }
            }
        }
        if let (true, Some((value, mut lone_cells))) = (one_value, lone) {
            lone_cells.sort_unstable();
            lone_cells.dedup();
            if lone_cells.len() > cells.len() {
                for cell in lone_cells {
                    add(&mut cells, cell, value);
                }
            }
        }
        let extra_of = |cell: usize| {
            cells
                .iter()
                .find(|&&(c, _)| c == cell)
                .map_or(0, |&(_, extra)| extra)
        };
        // Without the extra values: two candidates in every blank cell, two places for every
        // open value in every unit.
        let bivalue = (0..n * n)
            .all(|c| board.value(c) != 0 || (board.cands(c) & !extra_of(c)).count_ones() == 2);
        if !bivalue {
            return None;
        }
        for unit in geo.units() {
            for value in values(board.all() & !board.placed(unit)) {
                let places = geo
                    .cells_in(unit, board.positions(unit, value))
                    .filter(|&c| extra_of(c) & bit(value) == 0)
                    .count();
                if places != 0 && places != 2 {
                    return None;
                }
            }
        }
        let extra = cells.iter().fold(0, |all, &(_, extra)| all | extra);
        let common = (0..n * n)
            .filter(|&c| {
                board.value(c) == 0 && cells.iter().all(|&(bug, _)| bug != c && geo.sees(bug, c))
            })
            .collect();
        Some(Grave {
            cells,
            extra,
            common,
        })
    }

    /// The BUG cells alone.
    fn bug_cells(&self) -> impl Iterator<Item = usize> + Clone + '_ {
        self.cells.iter().map(|&(cell, _)| cell)
    }
}

/// Adds `value` to the extra values of `cell`, a BUG cell from now on.
fn add(cells: &mut Vec<(usize, Mask)>, cell: usize, value: u8) {
    match cells.iter_mut().find(|(c, _)| *c == cell) {
        Some((_, extra)) => *extra |= bit(value),
        None => cells.push((cell, bit(value))),
    }
}

/// Type 1: the one BUG cell holds one of its extra values, so it loses the others; with one extra
/// value (BUG+1) that is a placement.
fn type1(board: &Board, ctx: &Context<'_>, cell: usize, extra: Mask) -> Step {
    let geo = board.geo();
    let mut step = Step::new(Technique::BugPlusOne, 56);
    step.evidence = values(extra)
        .map(|value| Candidate { cell, value })
        .collect();
    if extra.count_ones() == 1 {
        let value = step.evidence[0].value;
        step.placements.push(Candidate { cell, value });
        if ctx.explain {
            let _ = write!(
                step.text,
                "Every blank cell but {} has two candidates, and without {{{value}}} there each value would appear twice in every unit: two solutions. So {} takes {{{value}}}, the value it holds three times in its units (BUG+1).",
                geo.name(cell),
                geo.name(cell)
            );
        }
        return step;
    }
    step.eliminations = values(board.cands(cell) & !extra)
        .map(|value| Candidate { cell, value })
        .collect();
    if ctx.explain {
        step.text.push_str("Without the extra values ");
        write_values(&mut step.text, values(extra), ", ");
        let _ = write!(
            step.text,
            " in {}, {TWO_SOLUTIONS}. So {} holds one of them (BUG type 1).",
            geo.name(cell),
            geo.name(cell)
        );
        write_eliminations(&mut step.text, board, &step.eliminations);
    }
    step
}

/// Type 2: the BUG cells' one extra value is in one of them, so the cells seeing them all lose it.
fn type2(board: &Board, ctx: &Context<'_>, grave: &Grave) -> Option<Step> {
    let value = values(grave.extra).next()?;
    let eliminations: Vec<Candidate> = grave
        .common
        .iter()
        .filter(|&&cell| board.has(cell, value))
        .map(|&cell| Candidate { cell, value })
        .collect();
    if eliminations.is_empty() {
        return None;
    }
    let mut step = Step::new(Technique::BugType2, 57);
    step.evidence = grave
        .bug_cells()
        .map(|cell| Candidate { cell, value })
        .collect();
    step.eliminations = eliminations;
    if ctx.explain {
        let _ = write!(step.text, "Without {{{value}}} in ");
        write_cells(&mut step.text, board, grave.bug_cells());
        let _ = write!(
            step.text,
            ", {TWO_SOLUTIONS}. So one of them is {{{value}}} (BUG type 2)."
        );
        write_eliminations(&mut step.text, board, &step.eliminations);
    }
    Some(step)
}

/// Type 4: two BUG cells in one unit share one value besides their extra values. Whichever of
/// them holds an extra value, the other's two BUG values must not both be lost to the unit, so
/// each keeps only that shared value and its extra values.
fn type4(board: &Board, ctx: &Context<'_>, grave: &Grave) -> Option<Step> {
    let &[(a, extra_a), (b, extra_b)] = grave.cells.as_slice() else {
        return None;
    };
    let shared = board.cands(a) & board.cands(b) & !grave.extra;
    if shared.count_ones() != 1 {
        return None;
    }
    let unit = *shared_units(board.geo(), [a, b].into_iter()).first()?;
    let mut step = Step::new(Technique::BugType4, 57);
    for (cell, extra) in [(a, extra_a), (b, extra_b)] {
        step.eliminations.extend(
            values(board.cands(cell) & !extra & !shared).map(|value| Candidate { cell, value }),
        );
        step.evidence
            .extend(values(extra | shared).map(|value| Candidate { cell, value }));
    }
    if step.eliminations.is_empty() {
        return None;
    }
    if ctx.explain {
        let value = values(shared).next().unwrap_or_default();
        step.text.push_str("Without the extra values in ");
        write_cells(&mut step.text, board, [a, b]);
        let _ = write!(
            step.text,
            ", {TWO_SOLUTIONS}. So one of them holds an extra value; both in {} and both holding {{{value}}} besides, each keeps only {{{value}}} and its extra values (BUG type 4).",
            board.geo().unit_name(unit)
        );
        write_eliminations(&mut step.text, board, &step.eliminations);
    }
    Some(step)
}

/// Type 3: in a unit holding every BUG cell, their extra values and the candidates of other cells
/// seeing them all make a naked set (the BUG cells together as one of its cells), so the unit's
/// other cells seeing them all lose its values. The smallest set first, then boxes, rows, columns;
/// in a unit, the cells chosen in SE's order (by their highest place, then the next).
fn type3(board: &Board, ctx: &Context<'_>, grave: &Grave) -> Option<Step> {
    let geo = board.geo();
    let units = shared_units(geo, grave.bug_cells());
    for degree in 2..=MOST_NAKED {
        for &unit in &units {
            let around = grave
                .common
                .iter()
                .filter(|&&c| geo.units_of(c).contains(&unit))
                .fold(0, |m: Mask, &c| m | 1 << geo.slot_in(c, unit));
            for pick in subsets(around, degree - 1) {
                let set = geo.cells_in(unit, pick).fold(0, |u, c| u | board.cands(c));
                if set.count_ones() as usize != degree || grave.extra & !set != 0 {
                    continue;
                }
                let eliminations = removed(board, geo.cells_in(unit, around & !pick), set);
                if !eliminations.is_empty() {
                    let naked: Vec<usize> = geo.cells_in(unit, pick).collect();
                    let found = (unit, &naked[..], set);
                    return Some(type3_step(board, ctx, grave, found, eliminations));
                }
            }
        }
    }
    None
}

/// The BUG type 3 step of the naked set `set` the BUG cells make with the cells `naked` in `unit`.
fn type3_step(
    board: &Board,
    ctx: &Context<'_>,
    grave: &Grave,
    (unit, naked, set): (usize, &[usize], Mask),
    eliminations: Vec<Candidate>,
) -> Step {
    let degree = naked.len() as u16 + 1;
    let mut step = Step::new(Technique::BugType3, 56 + degree);
    step.evidence = grave
        .cells
        .iter()
        .flat_map(|&(cell, extra)| values(extra).map(move |value| Candidate { cell, value }))
        .chain(naked.iter().flat_map(|&cell| {
            values(board.cands(cell)).map(move |value| Candidate { cell, value })
        }))
        .collect();
    step.eliminations = eliminations;
    if ctx.explain {
        step.text.push_str("Without the extra values ");
        write_values(&mut step.text, values(grave.extra), ", ");
        step.text.push_str(" in ");
        write_cells(&mut step.text, board, grave.bug_cells());
        let _ = write!(
            step.text,
            ", {TWO_SOLUTIONS}. So one of them holds an extra value, and with "
        );
        write_cells(&mut step.text, board, naked.iter().copied());
        step.text.push_str(" they make a naked set of ");
        write_values(&mut step.text, values(set), ", ");
        let _ = write!(
            step.text,
            " in {} (BUG type 3).",
            board.geo().unit_name(unit)
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

    /// The one step of `technique` in the grade of `puzzle`: its rating and eliminations, each
    /// checked against the solution.
    fn only_step(puzzle: &str, technique: Technique) -> (u16, Vec<Candidate>) {
        let (_, grade) = grader::grade_of(puzzle, &Options::default());
        let grid: crate::grid::Grid = puzzle.parse().expect("a valid puzzle");
        let solution = grader::unique_solution(&grid, u64::MAX, None)
            .expect("not cancelled")
            .expect("a unique puzzle");
        let steps: Vec<_> = grade
            .steps
            .iter()
            .filter(|s| s.technique == technique)
            .collect();
        let [step] = steps[..] else {
            panic!("one {technique:?} step expected, found {}", steps.len());
        };
        for gone in &step.eliminations {
            assert_ne!(
                solution.cells()[gone.cell],
                gone.value,
                "{gone:?} is the solution's"
            );
        }
        (step.rating, step.eliminations.clone())
    }

    fn at(r: usize, c: usize, value: u8) -> Candidate {
        Candidate {
            cell: (r - 1) * 9 + c - 1,
            value,
        }
    }

    #[test]
    fn one_cell_with_two_extra_values_keeps_only_them_as_sudoku_explainer_finds_it() {
        // SE: "BUG type 1: r8c1", 5.6.
        let found = only_step(
            "...9..56...3...1.4....85...735........6..4...8.......7.8.67.41........7..9..2....",
            Technique::BugPlusOne,
        );
        assert_eq!(found, (56, vec![at(8, 1, 5), at(8, 1, 6)]));
    }

    #[test]
    fn two_cells_of_a_box_sharing_a_value_keep_it_and_their_extras_bug_type_4() {
        // SE: "BUG type 4: r5c9,r5c7 on 3", 5.7.
        let found = only_step(
            "..6....17.749.......2...4.8...5.3.8.5..............9.11..658...4.927.......3.....",
            Technique::BugType4,
        );
        assert_eq!(found, (57, vec![at(5, 9, 4), at(5, 7, 6)]));
    }

    #[test]
    fn extra_values_making_a_naked_pair_in_a_column_clear_it_bug_type_3() {
        // SE: "BUG type 3: r3c9,r4c9,r7c9 on 1, 4", 5.8.
        let found = only_step(
            ".....2..9..17..48.978...........59....4.1.....26.7..3.....2.........97.68526.....",
            Technique::BugType3,
        );
        assert_eq!(found, (58, vec![at(6, 9, 1)]));
    }
}
