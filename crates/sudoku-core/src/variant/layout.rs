//! The layout the logic engine (grading, hints) runs a variant on: its regions for boxes and its
//! unit rules (diagonals, extra regions, disjoint groups) as extra units, where every technique
//! applies. Rules that are not units have no techniques yet and are refused by name.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::check::distinct_groups;
use super::{Diagonal, Rule, Variant};
use crate::candidates::{ExtraUnit, Geometry};
use crate::grader::{self, Grade, GradeError};
use crate::grid::{Grid, Shape};
use crate::hint::{self, Hint};
use crate::solver::Verdict;

/// A puzzle as the logic engine sees it, classic or variant: the layout of its units, its givens as
/// a grid, and the variant (if it is one) its uniqueness is proved on.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Rows, columns, regions and any extra units.
    pub geometry: Arc<Geometry>,
    /// The givens.
    pub puzzle: Grid,
    variant: Option<Variant>,
}

/// Why a variant cannot be graded or hinted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// A rule that is not a unit: the techniques do not know it.
    #[error(
        "grading and hints take only the unit rules (regions, diagonals, extra regions, disjoint \
         groups); rule {rule} ({kind}) has no techniques yet"
    )]
    Rule {
        /// The rule, from 1.
        rule: usize,
        /// Its kind, as the docs name it.
        kind: &'static str,
    },
    /// A side no classic grid has: the engine's grids have boxes.
    #[error(
        "grading and hints take sides a classic grid has (4, 6, 8, 9, 10, 12, 14, 15, 16), not \
         {0}"
    )]
    Side(usize),
    /// A unit of more cells than values, or the like: such a puzzle has no solution to grade.
    #[error("the units of this variant cannot all hold different values")]
    Units,
}

impl Variant {
    /// The layout grading and hints run this variant on, or the first rule they cannot take.
    pub fn layout(&self) -> Result<Layout, LayoutError> {
        if let Some((at, rule)) = self.rules.iter().enumerate().find(|(_, rule)| {
            !matches!(
                rule,
                Rule::Diagonal(_) | Rule::ExtraRegion(_) | Rule::DisjointGroups
            )
        }) {
            return Err(LayoutError::Rule {
                rule: at + 1,
                kind: rule.kind(),
            });
        }
        let shape = Shape::for_side(self.side).ok_or(LayoutError::Side(self.side))?;
        let mut extra = Vec::new();
        let mut extra_regions = 0;
        for rule in &self.rules {
            let groups = distinct_groups(self, rule);
            for (i, cells) in groups.into_iter().enumerate() {
                let name = match rule {
                    Rule::Diagonal(Diagonal::Negative) => "the diagonal from r1c1".to_string(),
                    Rule::Diagonal(Diagonal::Positive) => {
                        format!("the diagonal from r{}c1", self.side)
                    }
                    Rule::ExtraRegion(_) => {
                        extra_regions += 1;
                        format!("extra region {extra_regions}")
                    }
                    _ => format!("disjoint group {}", i + 1),
                };
                extra.push(ExtraUnit { name, cells });
            }
        }
        let regions = (!self.has_default_regions()).then_some(self.regions.as_slice());
        let geometry = Geometry::with_units(shape, regions, extra).ok_or(LayoutError::Units)?;
        let puzzle = Grid::from_cells(shape, self.givens.clone()).ok_or(LayoutError::Units)?;
        Ok(Layout {
            geometry,
            puzzle,
            variant: Some(self.clone()),
        })
    }
}

impl Layout {
    /// The layout of a classic puzzle: its shape's rows, columns and boxes.
    pub fn classic(puzzle: Grid) -> Layout {
        Layout {
            geometry: Geometry::of(puzzle.shape()),
            puzzle,
            variant: None,
        }
    }

    /// A solution's values as a grid of the layout's shape.
    pub fn grid(&self, values: Vec<u8>) -> Option<Grid> {
        Grid::from_cells(self.puzzle.shape(), values)
    }

    /// The grade of the puzzle, whose unique solution is `solution`: [`grader::grade_on`] on
    /// this layout.
    pub fn grade(
        &self,
        solution: &Grid,
        options: &grader::Options<'_>,
    ) -> Result<Grade, GradeError> {
        grader::grade_on(&self.geometry, &self.puzzle, solution, options)
    }

    /// The grade of the puzzle, proved unique on the way, or the verdict that says why it has no
    /// unique solution: [`grader::grade_proving`] on this layout, with [`Layout::unique_solution`]
    /// within `max_guesses` as the proof where the easy techniques do not fill the grid.
    pub fn grade_unique(
        &self,
        max_guesses: u64,
        options: &grader::Options<'_>,
    ) -> Result<Result<Grade, Verdict>, GradeError> {
        grader::grade_proving(&self.geometry, &self.puzzle, options, || {
            self.unique_solution(max_guesses, options.cancel)
        })
    }

    /// The hint for `progress`, a board of the puzzle: [`hint::hint_on`] on this layout.
    pub fn hint(
        &self,
        progress: &Grid,
        solution: &Grid,
        options: &grader::Options<'_>,
    ) -> Result<Hint, GradeError> {
        hint::hint_on(&self.geometry, &self.puzzle, progress, solution, options)
    }

    /// The unique solution grading and hints start from, or the verdict that says why there is
    /// none, as [`grader::unique_solution`] answers for a classic puzzle; a variant is proved
    /// unique by the variant solver under the same budget and flag.
    pub fn unique_solution(
        &self,
        max_guesses: u64,
        cancel: Option<&AtomicBool>,
    ) -> Result<Result<Grid, Verdict>, GradeError> {
        let Some(variant) = &self.variant else {
            return grader::unique_solution(&self.puzzle, max_guesses, cancel);
        };
        let outcome = super::solve(variant, &grader::proving_unique(max_guesses, cancel));
        let solution = outcome.solution.and_then(|values| self.grid(values));
        grader::unique_of(outcome.verdict, solution)
    }
}
