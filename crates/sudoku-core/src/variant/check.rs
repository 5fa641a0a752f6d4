//! What makes a [`Variant`] well formed, and what makes a full grid solve it: the rules' meaning,
//! written once and plainly, that the solver is held to.

use super::{Diagonal, Line, MAX_SIDE, Relation, Rule, Variant, cell_name};

/// Why a variant is not well formed. Each names the rule (numbered from 1 in the order given) and
/// the cell, as `R3C4`, where it can.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// A side no grid of this kind has.
    #[error("a variant grid has a side of 1 to {MAX_SIDE}, not {0}")]
    Side(usize),
    /// The givens or regions do not cover the grid once.
    #[error("expected {expected} {what}, one per cell, found {found}")]
    CellCount {
        /// "givens" or "regions".
        what: &'static str,
        /// Cells the grid has.
        expected: usize,
        /// Entries given.
        found: usize,
    },
    /// A given outside 1 to the side.
    #[error("the given {value} at {cell} is out of range: expected 1 to {side}, or 0 for empty")]
    Given {
        /// The cell, as `R3C4`.
        cell: String,
        /// The value.
        value: u8,
        /// The grid's side.
        side: usize,
    },
    /// Regions that are not `side` regions of `side` cells.
    #[error("region {region} has {cells} cells; each of the {side} regions needs {side}")]
    Region {
        /// The region's number, from 1.
        region: usize,
        /// The cells it has.
        cells: usize,
        /// The grid's side.
        side: usize,
    },
    /// A rule names a cell outside the grid.
    #[error("rule {rule} ({kind}) names cell {cell}, outside the {side}x{side} grid")]
    CellOutside {
        /// The rule, from 1.
        rule: usize,
        /// Its kind, as in the docs (`cage`, `arrow`...).
        kind: &'static str,
        /// The index it named.
        cell: usize,
        /// The grid's side.
        side: usize,
    },
    /// A rule whose shape makes no sense: too few cells, a cell twice, a pair not adjacent...
    #[error("rule {rule} ({kind}): {reason}")]
    Malformed {
        /// The rule, from 1.
        rule: usize,
        /// Its kind.
        kind: &'static str,
        /// What is wrong, naming the cells.
        reason: String,
    },
    /// A total that the rule's values can never make.
    #[error("rule {rule} ({kind}) at {cell}: no values 1-{side} can make {sum}")]
    ImpossibleSum {
        /// The rule, from 1.
        rule: usize,
        /// Its kind.
        kind: &'static str,
        /// Its first cell, as `R3C4`.
        cell: String,
        /// The total.
        sum: u32,
        /// The grid's side.
        side: usize,
    },
}

impl Rule {
    /// The rule's kind, as the docs and errors name it.
    pub fn kind(&self) -> &'static str {
        match self {
            Rule::Diagonal(Diagonal::Positive) => "diagonal+",
            Rule::Diagonal(Diagonal::Negative) => "diagonal-",
            Rule::ExtraRegion(_) => "extra region",
            Rule::DisjointGroups => "disjoint groups",
            Rule::AntiKnight => "anti-knight",
            Rule::AntiKing => "anti-king",
            Rule::NonConsecutive => "non-consecutive",
            Rule::Cage { .. } => "cage",
            Rule::LittleKiller { .. } => "little killer",
            Rule::Sandwich { .. } => "sandwich",
            Rule::Thermometer(_) => "thermometer",
            Rule::Arrow { .. } => "arrow",
            Rule::Pair {
                relation: Relation::Difference(_),
                ..
            } => "difference dot",
            Rule::Pair {
                relation: Relation::Ratio(_),
                ..
            } => "ratio dot",
            Rule::Pair {
                relation: Relation::Sum(_),
                ..
            } => "xv",
            Rule::Negative { .. } => "negative",
            Rule::Parity { even: true, .. } => "even",
            Rule::Parity { even: false, .. } => "odd",
        }
    }

    /// Every cell the rule names, for the bounds check.
    fn named_cells(&self) -> Vec<usize> {
        match self {
            Rule::ExtraRegion(cells)
            | Rule::Cage { cells, .. }
            | Rule::LittleKiller { cells, .. }
            | Rule::Thermometer(cells) => cells.clone(),
            Rule::Arrow { circle, shaft } => circle.iter().chain(shaft).copied().collect(),
            Rule::Pair { cells, .. } => cells.to_vec(),
            Rule::Negative { except, .. } => except.iter().flatten().copied().collect(),
            Rule::Parity { cell, .. } => vec![*cell],
            _ => Vec::new(),
        }
    }
}

/// The cells of `line` in order, on a grid of `side`.
pub fn line_cells(side: usize, line: Line) -> Vec<usize> {
    match line {
        Line::Row(r) => (0..side).map(|c| r * side + c).collect(),
        Line::Column(c) => (0..side).map(|r| r * side + c).collect(),
    }
}

/// The cells of a main diagonal, top row first.
pub fn diagonal_cells(side: usize, diagonal: Diagonal) -> Vec<usize> {
    (0..side)
        .map(|r| match diagonal {
            Diagonal::Negative => r * side + r,
            Diagonal::Positive => r * side + (side - 1 - r),
        })
        .collect()
}

/// The smallest and largest totals of `count` values 1 to `side`, distinct or not.
fn sum_range(count: usize, side: usize, distinct: bool) -> (u32, u32) {
    let (count, side) = (count as u32, side as u32);
    if distinct {
        (count * (count + 1) / 2, count * (2 * side - count + 1) / 2)
    } else {
        (count, count * side)
    }
}

pub(super) fn well_formed(v: &Variant) -> Result<(), VariantError> {
    let side = v.side;
    if !(1..=MAX_SIDE).contains(&side) {
        return Err(VariantError::Side(side));
    }
    let cells = side * side;
    for (what, found) in [("givens", v.givens.len()), ("regions", v.regions.len())] {
        if found != cells {
            return Err(VariantError::CellCount {
                what,
                expected: cells,
                found,
            });
        }
    }
    if let Some((cell, &value)) = v
        .givens
        .iter()
        .enumerate()
        .find(|(_, g)| usize::from(**g) > side)
    {
        return Err(VariantError::Given {
            cell: cell_name(side, cell),
            value,
            side,
        });
    }
    let mut sizes = vec![0usize; MAX_SIDE.max(256)];
    for &r in &v.regions {
        sizes[usize::from(r)] += 1;
    }
    if let Some((region, &count)) = sizes
        .iter()
        .enumerate()
        .find(|&(r, &n)| if r < side { n != side } else { n != 0 })
    {
        return Err(VariantError::Region {
            region: region + 1,
            cells: count,
            side,
        });
    }
    for (i, rule) in v.rules.iter().enumerate() {
        check_rule(side, i + 1, rule)?;
    }
    Ok(())
}

fn check_rule(side: usize, number: usize, rule: &Rule) -> Result<(), VariantError> {
    let kind = rule.kind();
    let cells = rule.named_cells();
    if let Some(&cell) = cells.iter().find(|&&c| c >= side * side) {
        return Err(VariantError::CellOutside {
            rule: number,
            kind,
            cell,
            side,
        });
    }
    let malformed = |reason: String| VariantError::Malformed {
        rule: number,
        kind,
        reason,
    };
    let first = |cells: &[usize]| cell_name(side, cells.first().copied().unwrap_or(0));
    let impossible = |cells: &[usize], sum: u32| VariantError::ImpossibleSum {
        rule: number,
        kind,
        cell: first(cells),
        sum,
        side,
    };
    let distinct_cells = |cells: &[usize]| -> Result<(), VariantError> {
        let mut seen = cells.to_vec();
        seen.sort_unstable();
        match seen.windows(2).find(|w| w[0] == w[1]) {
            Some(w) => Err(malformed(format!("names {} twice", cell_name(side, w[0])))),
            None => Ok(()),
        }
    };
    match rule {
        Rule::ExtraRegion(cells) | Rule::Thermometer(cells) => {
            distinct_cells(cells)?;
            if cells.is_empty() {
                return Err(malformed("has no cells".into()));
            }
            if cells.len() > side {
                return Err(malformed(format!(
                    "has {} cells, more than the {side} different values a grid has",
                    cells.len()
                )));
            }
        }
        Rule::Cage { cells, sum } => {
            distinct_cells(cells)?;
            if cells.is_empty() || cells.len() > side {
                return Err(malformed(format!(
                    "has {} cells: a cage has 1 to {side}",
                    cells.len()
                )));
            }
            let (low, high) = sum_range(cells.len(), side, true);
            if let Some(sum) = *sum
                && !(low..=high).contains(&sum)
            {
                return Err(impossible(cells, sum));
            }
        }
        Rule::LittleKiller { cells, sum } => {
            distinct_cells(cells)?;
            let (low, high) = sum_range(cells.len(), side, false);
            if cells.is_empty() || !(low..=high).contains(sum) {
                return Err(impossible(cells, *sum));
            }
        }
        Rule::Sandwich { line, sum } => {
            let index = match *line {
                Line::Row(i) | Line::Column(i) => i,
            };
            if index >= side {
                return Err(malformed(format!(
                    "names line {}, outside the grid",
                    index + 1
                )));
            }
            // The values strictly between 1 and the side: 2 to side - 1.
            let most = (side * side.saturating_sub(1) / 2).saturating_sub(1) as u32;
            if *sum > most {
                return Err(impossible(&line_cells(side, *line), *sum));
            }
        }
        Rule::Arrow { circle, shaft } => {
            distinct_cells(&cells)?;
            if circle.is_empty() || shaft.is_empty() {
                return Err(malformed("needs a circle and a shaft".into()));
            }
            if circle.len() > 2 {
                return Err(malformed(format!(
                    "has a circle of {} cells: at most 2",
                    circle.len()
                )));
            }
        }
        Rule::Pair { cells, relation } => {
            let [a, b] = *cells;
            if !adjacent(side, a, b) {
                return Err(malformed(format!(
                    "joins {} and {}, which are not orthogonally adjacent",
                    cell_name(side, a),
                    cell_name(side, b)
                )));
            }
            if !possible(side, *relation) {
                return Err(malformed(format!(
                    "no two values 1-{side} are in {relation:?}"
                )));
            }
        }
        Rule::Negative { except, .. } => {
            if let Some([a, b]) = except.iter().find(|[a, b]| !adjacent(side, *a, *b)) {
                return Err(malformed(format!(
                    "exempts {} and {}, which are not orthogonally adjacent",
                    cell_name(side, *a),
                    cell_name(side, *b)
                )));
            }
        }
        _ => {}
    }
    Ok(())
}

/// Whether two cells share a side.
pub fn adjacent(side: usize, a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / side, a % side, b / side, b % side);
    ra.abs_diff(rb) + ca.abs_diff(cb) == 1
}

/// Whether any two values 1 to `side` are in `relation`.
fn possible(side: usize, relation: Relation) -> bool {
    (1..=side as u8).any(|a| (1..=side as u8).any(|b| relation.holds(a, b)))
}

/// The number a circle's values spell in base 10, first cell first.
pub fn circle_number(values: impl IntoIterator<Item = u8>) -> u32 {
    values
        .into_iter()
        .fold(0, |number, v| number * 10 + u32::from(v))
}

/// The cells of each all-different group beyond rows, columns and regions that `rule` adds.
pub fn distinct_groups(v: &Variant, rule: &Rule) -> Vec<Vec<usize>> {
    let side = v.side;
    match rule {
        Rule::Diagonal(d) => vec![diagonal_cells(side, *d)],
        Rule::ExtraRegion(cells) | Rule::Cage { cells, .. } => vec![cells.clone()],
        Rule::DisjointGroups => {
            let mut groups = vec![Vec::new(); side];
            let mut seen = vec![0usize; side];
            for (cell, &region) in v.regions.iter().enumerate() {
                let region = usize::from(region);
                groups[seen[region]].push(cell);
                seen[region] += 1;
            }
            groups
        }
        _ => Vec::new(),
    }
}

/// The (row, column) steps between two cells that `rule` forbids to share a value.
pub fn forbidden_steps(rule: &Rule) -> &'static [(isize, isize)] {
    match rule {
        Rule::AntiKnight => &[
            (-2, -1),
            (-2, 1),
            (-1, -2),
            (-1, 2),
            (1, -2),
            (1, 2),
            (2, -1),
            (2, 1),
        ],
        Rule::AntiKing => &[
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ],
        _ => &[],
    }
}

/// Every pair of orthogonally adjacent cells, each once.
pub fn adjacent_pairs(side: usize) -> impl Iterator<Item = [usize; 2]> {
    (0..side * side).flat_map(move |cell| {
        let (r, c) = (cell / side, cell % side);
        let right = (c + 1 < side).then_some([cell, cell + 1]);
        let down = (r + 1 < side).then_some([cell, cell + side]);
        right.into_iter().chain(down)
    })
}

pub(super) fn is_solved_by(v: &Variant, s: &[u8]) -> bool {
    let side = v.side;
    if s.len() != side * side || s.iter().any(|&x| x == 0 || usize::from(x) > side) {
        return false;
    }
    if v.givens.iter().zip(s).any(|(&g, &x)| g != 0 && g != x) {
        return false;
    }
    let all_different = |cells: &[usize]| {
        let mut seen = 0u32;
        cells.iter().all(|&c| {
            let bit = 1 << s[c];
            let fresh = seen & bit == 0;
            seen |= bit;
            fresh
        })
    };
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..side {
        groups.push(line_cells(side, Line::Row(i)));
        groups.push(line_cells(side, Line::Column(i)));
        groups.push(
            (0..side * side)
                .filter(|&c| usize::from(v.regions[c]) == i)
                .collect(),
        );
    }
    for rule in &v.rules {
        groups.extend(distinct_groups(v, rule));
    }
    if !groups.iter().all(|g| all_different(g)) {
        return false;
    }
    let total = |cells: &[usize]| cells.iter().map(|&c| u32::from(s[c])).sum::<u32>();
    v.rules.iter().all(|rule| match rule {
        Rule::AntiKnight | Rule::AntiKing => (0..side * side).all(|cell| {
            let (r, c) = ((cell / side) as isize, (cell % side) as isize);
            forbidden_steps(rule).iter().all(|(dr, dc)| {
                let (r2, c2) = (r + dr, c + dc);
                !(0..side as isize).contains(&r2)
                    || !(0..side as isize).contains(&c2)
                    || s[(r2 as usize) * side + c2 as usize] != s[cell]
            })
        }),
        Rule::NonConsecutive => {
            adjacent_pairs(side).all(|[a, b]| !Relation::Difference(1).holds(s[a], s[b]))
        }
        Rule::Cage { cells, sum } => sum.is_none_or(|sum| total(cells) == sum),
        Rule::LittleKiller { cells, sum } => total(cells) == *sum,
        Rule::Sandwich { line, sum } => {
            let cells = line_cells(side, *line);
            let at = |value: usize| cells.iter().position(|&c| usize::from(s[c]) == value);
            match (at(1), at(side)) {
                // On a side-1 grid the 1 is the largest value: nothing lies between, the sum is 0
                // (rather than slicing past the end).
                (Some(a), Some(b)) if a == b => *sum == 0,
                (Some(a), Some(b)) => {
                    let (a, b) = (a.min(b), a.max(b));
                    total(&cells[a + 1..b]) == *sum
                }
                _ => false,
            }
        }
        Rule::Thermometer(cells) => cells.windows(2).all(|w| s[w[0]] < s[w[1]]),
        Rule::Arrow { circle, shaft } => {
            circle_number(circle.iter().map(|&c| s[c])) == total(shaft)
        }
        Rule::Pair {
            cells: [a, b],
            relation,
        } => relation.holds(s[*a], s[*b]),
        Rule::Negative { relation, except } => adjacent_pairs(side).all(|[a, b]| {
            except
                .iter()
                .any(|&[x, y]| (x, y) == (a, b) || (x, y) == (b, a))
                || !relation.holds(s[a], s[b])
        }),
        Rule::Parity { cell, even } => s[*cell].is_multiple_of(2) == *even,
        Rule::Diagonal(_) | Rule::ExtraRegion(_) | Rule::DisjointGroups => true,
    })
}
