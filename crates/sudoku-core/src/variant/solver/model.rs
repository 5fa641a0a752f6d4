//! A variant turned into what the search works on: its groups and peers, the first candidates
//! (givens and parity), and one propagator per rule that narrows candidates.

use std::collections::HashMap;

use super::super::check::{adjacent_pairs, distinct_groups, forbidden_steps, line_cells};
use super::super::{Line, Relation, Rule, Variant};
use super::board::{
    Board, CellSet, Contradiction, Groups, MAX_CELLS, Step, bit, cell_set, full_mask, has, meets,
};
use super::pairs::{self, Pairs};
use super::sandwich::Sandwich;
use super::sums::{Arrow, Sum};
use super::thermo::Thermo;

/// One rule's propagator.
enum Propagator {
    Sum(Sum),
    Arrow(Arrow),
    Thermo(Thermo),
    Sandwich(Sandwich),
}

impl Propagator {
    fn propagate(&self, b: &mut Board, groups: &Groups) -> Step {
        match self {
            Propagator::Sum(p) => p.propagate(b, groups),
            Propagator::Arrow(p) => p.propagate(b),
            Propagator::Thermo(p) => p.propagate(b),
            Propagator::Sandwich(p) => p.propagate(b),
        }
    }
}

/// The most cells an innie may have. A larger one seldom narrows what its cages and house do not
/// already, and it is looked at whenever one of its many cells changes.
const LARGEST_INNIE: usize = 3;

/// The sums killer solvers call innies: in a row, column or region (`units`, each holding every
/// value once, so adding up to 1 + 2 + ... + side), the cells outside the summed cages lying wholly
/// inside it (taken while they do not overlap) add up to what those cages leave. Each such rest
/// is one more cage of distinct values: implied by the rules, so it changes no answer, and it
/// gives propagation what a person sees at once. Only innies of a few cells are kept
/// ([`LARGEST_INNIE`]).
fn innies(
    variant: &Variant,
    units: &[Vec<usize>],
    combos: &mut HashMap<(usize, u32), Vec<u16>>,
) -> Vec<(CellSet, Propagator)> {
    let side = variant.side();
    let cages: Vec<(CellSet, u32)> = variant
        .rules()
        .iter()
        .filter_map(|rule| match rule {
            Rule::Cage {
                cells,
                sum: Some(sum),
            } => Some((cell_set(cells.iter().copied()), *sum)),
            _ => None,
        })
        .collect();
    if cages.is_empty() {
        return Vec::new();
    }
    let whole = (side * (side + 1) / 2) as u32;
    let mut implied = Vec::new();
    for unit in units {
        let inside = cell_set(unit.iter().copied());
        let mut taken = cell_set([]);
        let mut sum = 0;
        for (cage, cage_sum) in &cages {
            let within = cage.iter().zip(&inside).all(|(c, u)| c & !u == 0);
            if within && !meets(cage, &taken) {
                taken.iter_mut().zip(cage).for_each(|(t, c)| *t |= c);
                sum += cage_sum;
            }
        }
        let rest: Vec<usize> = unit.iter().copied().filter(|&c| !has(&taken, c)).collect();
        if sum == 0 || rest.is_empty() || rest.len() > LARGEST_INNIE || sum > whole {
            continue;
        }
        implied.push((
            cell_set(rest.iter().copied()),
            Propagator::Sum(Sum::cage(side, &rest, whole - sum, combos)),
        ));
    }
    implied
}

/// Everything the search needs to know of a variant.
pub(super) struct Model<'v> {
    variant: &'v Variant,
    cells: usize,
    full: u16,
    groups: Groups,
    pairs: Pairs,
    /// Each rule's propagator, with the cells it reads.
    rules: Vec<(CellSet, Propagator)>,
    /// Each cell's candidates before any propagation: givens and parity.
    start: Vec<u16>,
    /// How tied each cell is to others (peers, pairs, rules): the search's tie-break.
    degree: Vec<u32>,
}

impl<'v> Model<'v> {
    /// The model of a (well-formed) variant.
    pub(super) fn new(variant: &'v Variant) -> Model<'v> {
        let side = variant.side();
        let cells = side * side;
        let full = full_mask(side);
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in 0..side {
            groups.push(line_cells(side, Line::Row(i)));
            groups.push(line_cells(side, Line::Column(i)));
            groups.push(
                (0..cells)
                    .filter(|&c| usize::from(variant.regions()[c]) == i)
                    .collect(),
            );
        }
        let mut apart = Vec::new();
        let mut pairs = Pairs::default();
        let mut rules = Vec::new();
        let mut start = vec![full; cells];
        let mut combos = HashMap::new();
        let on_grid = |c: &usize| *c < cells;
        for rule in variant.rules() {
            groups.extend(distinct_groups(variant, rule));
            match rule {
                Rule::AntiKnight | Rule::AntiKing => {
                    for cell in 0..cells {
                        let (r, c) = ((cell / side) as isize, (cell % side) as isize);
                        for &(dr, dc) in forbidden_steps(rule) {
                            let (r2, c2) = (r + dr, c + dc);
                            if (0..side as isize).contains(&r2) && (0..side as isize).contains(&c2)
                            {
                                apart.push((cell, r2 as usize * side + c2 as usize));
                            }
                        }
                    }
                }
                Rule::NonConsecutive => {
                    let t = pairs.add_table(pairs::table(side, Relation::Difference(1), false));
                    for [a, b] in adjacent_pairs(side) {
                        pairs.add(a, b, t);
                    }
                }
                Rule::Negative { relation, except } => {
                    let t = pairs.add_table(pairs::table(side, *relation, false));
                    for [a, b] in adjacent_pairs(side) {
                        let exempt = except
                            .iter()
                            .any(|&[x, y]| (x, y) == (a, b) || (x, y) == (b, a));
                        if !exempt {
                            pairs.add(a, b, t);
                        }
                    }
                }
                Rule::Pair {
                    cells: [a, b],
                    relation,
                } if on_grid(a) && on_grid(b) => {
                    let t = pairs.add_table(pairs::table(side, *relation, true));
                    pairs.add(*a, *b, t);
                }
                Rule::Cage {
                    cells: cage,
                    sum: Some(sum),
                } if cage.iter().all(on_grid) => {
                    rules.push((
                        cell_set(cage.iter().copied()),
                        Propagator::Sum(Sum::cage(side, cage, *sum, &mut combos)),
                    ));
                }
                Rule::LittleKiller { cells: line, sum } if line.iter().all(on_grid) => {
                    rules.push((
                        cell_set(line.iter().copied()),
                        Propagator::Sum(Sum::little_killer(line, *sum)),
                    ));
                }
                Rule::Arrow { circle, shaft }
                    if circle.iter().chain(shaft).all(on_grid) && !circle.is_empty() =>
                {
                    rules.push((
                        cell_set(circle.iter().chain(shaft).copied()),
                        Propagator::Arrow(Arrow::new(circle, shaft)),
                    ));
                }
                Rule::Thermometer(thermo) if thermo.iter().all(on_grid) => {
                    rules.push((
                        cell_set(thermo.iter().copied()),
                        Propagator::Thermo(Thermo::new(thermo)),
                    ));
                }
                Rule::Sandwich { line, sum } => {
                    let cells = line_cells(side, *line);
                    rules.push((
                        cell_set(cells.iter().copied()),
                        Propagator::Sandwich(Sandwich::new(cells, *sum, side)),
                    ));
                }
                Rule::Parity { cell, even } => {
                    if let Some(m) = start.get_mut(*cell) {
                        *m &= (1..=side as u32)
                            .filter(|v| (v % 2 == 0) == *even)
                            .fold(0, |m, v| m | bit(v));
                    }
                }
                _ => {}
            }
        }
        rules.extend(innies(variant, &groups[..3 * side], &mut combos));
        for (m, &g) in start.iter_mut().zip(variant.givens()) {
            if g != 0 {
                *m &= bit(u32::from(g));
            }
        }
        // Keep only groups whose cells are on the grid (a well-formed variant has no other).
        groups.retain(|g| g.iter().all(on_grid));
        let groups = Groups::new(side, groups, apart);
        // Degrees count the cells each rule constrains, not those it only reads.
        let mut degree: Vec<u32> = (0..cells).map(|c| groups.peer_count(c) as u32).collect();
        for c in pairs.cells() {
            degree[c] += 2;
        }
        for (set, _) in &rules {
            for (c, d) in degree.iter_mut().enumerate() {
                if has(set, c) {
                    *d += 4;
                }
            }
        }
        for (reads, rule) in &mut rules {
            match rule {
                Propagator::Sum(p) => {
                    p.set_blocks(&groups);
                    *reads = cell_set(p.reads());
                }
                Propagator::Arrow(p) => p.set_blocks(&groups),
                _ => {}
            }
        }
        Model {
            variant,
            cells,
            full,
            groups,
            pairs,
            rules,
            start,
            degree,
        }
    }

    /// The groups that hold every value once.
    pub(super) fn houses(&self) -> impl Iterator<Item = &[usize]> {
        self.groups.houses()
    }

    /// The variant modelled.
    pub(super) fn variant(&self) -> &Variant {
        self.variant
    }

    /// How tied `cell` is to other cells: more peers, pairs and rules, more to gain from a guess.
    pub(super) fn degree(&self, cell: usize) -> u32 {
        self.degree[cell]
    }

    /// The number of cells.
    pub(super) fn cells(&self) -> usize {
        self.cells
    }

    /// The board before propagation (givens and parity), or a dead end when a cell has no value.
    pub(super) fn start(&self) -> Result<Board, Contradiction> {
        let mut b = Board::new(self.cells, self.full);
        for (cell, &m) in self.start.iter().enumerate() {
            b.restrict(cell, m)?;
        }
        Ok(b)
    }

    /// Propagates every constraint until none removes a candidate: naked singles first, then
    /// each group, pair and rule with a cell changed since it last looked; locked candidates
    /// only once the rest is still, over every cell changed since they last ran (they cost more
    /// than they find while cheaper steps still narrow).
    pub(super) fn propagate(&self, b: &mut Board) -> Result<(), Contradiction> {
        let mut since = [0u64; MAX_CELLS / 64];
        loop {
            self.groups.singles(b)?;
            let dirty = b.take_dirty();
            if dirty.iter().all(|&w| w == 0) {
                if since.iter().all(|&w| w == 0) || !self.groups.locked(b, &since)? {
                    return Ok(());
                }
                since = [0; MAX_CELLS / 64];
                continue;
            }
            since.iter_mut().zip(&dirty).for_each(|(s, d)| *s |= d);
            self.groups.hidden(b, &dirty)?;
            if !self.pairs.is_empty() {
                self.pairs.propagate(b, &dirty)?;
            }
            for (cells, rule) in &self.rules {
                if meets(cells, &dirty) {
                    rule.propagate(b, &self.groups)?;
                }
            }
        }
    }
}
