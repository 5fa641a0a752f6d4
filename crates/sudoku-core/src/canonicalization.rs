//! One key per 9x9 puzzle up to symmetry: the min-lex form, and the transformation that reaches it.
//!
//! The Sudoku symmetry group acts on a grid by transposing it (or not), permuting the three bands, the
//! rows within each band, the three stacks and the columns within each stack, and relabelling the
//! digits. Two puzzles are *equivalent* when one is mapped onto the other by such a transformation.
//! The **min-lex form** of a puzzle is the smallest of all its images, read as an 81-character string
//! in row-major order with blanks as `0` (the smallest symbol): the community's definition, under which
//! the min-lex form of every solved grid begins `123456789456789123789`. Equivalent puzzles have the
//! same min-lex form and different ones different forms, so it is a key for deduplicating and caching.
//! It is defined for any grid: one solution, several, none, clashing givens, empty or full (clashes
//! and solutions are themselves carried over by every transformation).
//!
//! # The transform text
//!
//! [`Transform`] says how a puzzle maps onto its key, as `t=T;r=RRRRRRRRR;c=CCCCCCCCC;d=DDDDDDDDD`:
//! - `t=1` transposes the puzzle first (cell (i, j) takes the value of (j, i)); `t=0` does not;
//! - `r`: row `i` of the image is row `r[i]` of the (transposed) puzzle, rows numbered 0-8;
//! - `c`: column `j` of the image is column `c[j]`, columns numbered 0-8;
//! - `d`: digit `k` (1-9) of the puzzle becomes digit `d[k-1]`; blanks stay blank.
//!
//! So `image[i][j] = d[source[r[i]][c[j]]]`, where `source` is the puzzle, transposed if `t=1`. The
//! row (column) permutation keeps the rows (columns) of a band (stack) together, so the image is a
//! valid Sudoku exactly when the puzzle is. The identity is `t=0;r=012345678;c=012345678;d=123456789`.
//! [`Transform::inverse`] maps the key back onto the puzzle, and so the key's solution onto the
//! puzzle's solution.
//!
//! ```
//! use sudoku_core::canonicalization::{Transform, canonicalize};
//! use sudoku_core::grid::Grid;
//!
//! let puzzle = Grid::parse(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! let canonical = canonicalize(&puzzle)?;
//! assert_eq!(canonical.transform.apply(&puzzle)?, canonical.grid);
//! // A transformed copy has the same key.
//! let shuffle: Transform = "t=1;r=210543876;c=345012678;d=918273645".parse()?;
//! assert_eq!(canonicalize(&shuffle.apply(&puzzle)?)?.key(), canonical.key());
//! // The inverse maps the key back onto the puzzle.
//! assert_eq!(canonical.transform.inverse().apply(&canonical.grid)?, puzzle);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The search
//!
//! The key is built one row at a time. At each row, every partial transformation whose image so far is
//! the smallest possible (all of them: automorphic puzzles tie) is extended by every row that may come
//! next, choosing the columns cell by cell and relabelling each digit at its first appearance, and only
//! the extensions whose new row is the smallest are kept. Columns that are blank in every row so far
//! need no choice yet: they stay *free*, as a set, because any order of them gives the same image. So
//! do whole stacks that are still blank. This keeps the number of partial transformations small even
//! for the sparsest puzzles (the empty grid has a single one per row set).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::grid::{Grid, Shape};

/// Why a grid has no canonical form here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CanonicalizeError {
    /// Only 9x9 grids (3x3 boxes) are canonicalised.
    #[error("canonical forms are defined for 9x9 grids only, not {0}")]
    NotNineByNine(Shape),
}

/// Why a transform's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid transform {text:?}: {reason}")]
pub struct TransformParseError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

/// A transformation of the Sudoku symmetry group: see the [module documentation](self) for what it
/// does and for its text form, which [`Display`](fmt::Display) writes and [`FromStr`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// Transpose the grid first.
    transpose: bool,
    /// Row `i` of the image is row `rows[i]` of the (transposed) source.
    rows: [u8; 9],
    /// Column `j` of the image is column `cols[j]` of the (transposed) source.
    cols: [u8; 9],
    /// Digit `k` of the source becomes `digits[k]`; `digits[0]` is 0 (a blank stays blank).
    digits: [u8; 10],
}

const IDENTITY: [u8; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

impl Default for Transform {
    fn default() -> Transform {
        Transform::IDENTITY
    }
}

impl Transform {
    /// The transformation that changes nothing.
    pub const IDENTITY: Transform = Transform {
        transpose: false,
        rows: IDENTITY,
        cols: IDENTITY,
        digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    };

    /// The transposition alone: rows become columns.
    pub const TRANSPOSE: Transform = Transform {
        transpose: true,
        ..Transform::IDENTITY
    };

    /// A transformation from its parts; `None` unless `rows` and `cols` are permutations of 0-8 that
    /// keep bands (stacks) together and `digits` lists each of 1-9 once (`digits[k-1]` is the new
    /// digit for `k`).
    pub fn new(
        transpose: bool,
        rows: [u8; 9],
        cols: [u8; 9],
        digits: [u8; 9],
    ) -> Option<Transform> {
        let mut all = [0; 10];
        all[1..].copy_from_slice(&digits);
        let transform = Transform {
            transpose,
            rows,
            cols,
            digits: all,
        };
        transform.check().ok().map(|()| transform)
    }

    /// Whether the parts form a group element; if not, why.
    fn check(&self) -> Result<(), &'static str> {
        if !keeps_blocks(&self.rows) {
            return Err("r must be a permutation of 0-8 that keeps the rows of each band together");
        }
        if !keeps_blocks(&self.cols) {
            return Err(
                "c must be a permutation of 0-8 that keeps the columns of each stack together",
            );
        }
        let seen = self.digits[1..]
            .iter()
            .fold(0u16, |seen, &d| seen | 1 << d.min(15));
        if self.digits[0] != 0 || seen != 0b11_1111_1110 {
            return Err("d must list each digit 1-9 once");
        }
        Ok(())
    }

    /// Whether the grid is transposed first.
    pub fn transpose(&self) -> bool {
        self.transpose
    }

    /// The row permutation: row `i` of the image is row `rows()[i]` of the (transposed) source.
    pub fn rows(&self) -> [u8; 9] {
        self.rows
    }

    /// The column permutation: column `j` of the image is column `cols()[j]` of the source.
    pub fn cols(&self) -> [u8; 9] {
        self.cols
    }

    /// The relabelling: digit `k` becomes `digits()[k-1]`.
    pub fn digits(&self) -> [u8; 9] {
        let mut digits = [0; 9];
        digits.copy_from_slice(&self.digits[1..]);
        digits
    }

    /// The image of a 9x9 grid.
    pub fn apply(&self, grid: &Grid) -> Result<Grid, CanonicalizeError> {
        let cells = nine_cells(grid)?;
        let mut image = vec![0; 81];
        for (i, &r) in self.rows.iter().enumerate() {
            for (j, &c) in self.cols.iter().enumerate() {
                let (r, c) = (usize::from(r), usize::from(c));
                let source = if self.transpose {
                    cells[c * 9 + r]
                } else {
                    cells[r * 9 + c]
                };
                image[i * 9 + j] = self.digits[usize::from(source)];
            }
        }
        Ok(Grid::from_cells(Shape::NINE, image).expect("a relabelling keeps values 0-9"))
    }

    /// The transformation that undoes this one: `t.inverse().apply(&t.apply(g)?)` is `g`.
    pub fn inverse(&self) -> Transform {
        let invert = |perm: &[u8; 9]| {
            let mut inverse = [0; 9];
            for (i, &p) in perm.iter().enumerate() {
                inverse[usize::from(p)] = i as u8;
            }
            inverse
        };
        let mut digits = [0; 10];
        for (k, &d) in self.digits.iter().enumerate() {
            digits[usize::from(d)] = k as u8;
        }
        let (rows, cols) = (invert(&self.rows), invert(&self.cols));
        // Transposing swaps the roles of the row and the column permutations.
        let (rows, cols) = if self.transpose {
            (cols, rows)
        } else {
            (rows, cols)
        };
        Transform {
            transpose: self.transpose,
            rows,
            cols,
            digits,
        }
    }
}

/// Whether `perm` is a permutation of 0-8 that maps each block of three places (a band or a stack)
/// onto one block of the source.
fn keeps_blocks(perm: &[u8; 9]) -> bool {
    let seen = perm.iter().fold(0u16, |seen, &p| seen | 1 << p.min(15));
    seen == 0x1ff
        && perm
            .chunks(3)
            .all(|block| block.iter().all(|&p| p / 3 == block[0] / 3))
}

/// The cells of a 9x9 grid.
fn nine_cells(grid: &Grid) -> Result<&[u8], CanonicalizeError> {
    match grid.shape() {
        Shape::NINE => Ok(grid.cells()),
        shape => Err(CanonicalizeError::NotNineByNine(shape)),
    }
}

impl fmt::Display for Transform {
    /// `t=0;r=012345678;c=012345678;d=123456789`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits =
            |values: &[u8]| -> String { values.iter().map(|&v| char::from(b'0' + v)).collect() };
        write!(
            f,
            "t={};r={};c={};d={}",
            u8::from(self.transpose),
            digits(&self.rows),
            digits(&self.cols),
            digits(&self.digits[1..])
        )
    }
}

impl FromStr for Transform {
    type Err = TransformParseError;

    /// Reads the text [`Display`](fmt::Display) writes; surrounding whitespace is ignored.
    fn from_str(text: &str) -> Result<Transform, TransformParseError> {
        let fail = |reason: &str| TransformParseError {
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        let mut parts = text.trim().split(';');
        let mut field = |name: &str| -> Result<[u8; 9], TransformParseError> {
            let part = parts.next().unwrap_or_default();
            let value = part
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix('='))
                .ok_or_else(|| fail(&format!("expected `{name}=` where {part:?} is")))?;
            let mut out = [0; 9];
            let bytes = value.as_bytes();
            let width = if name == "t" { 1 } else { 9 };
            if bytes.len() != width || !bytes.iter().all(u8::is_ascii_digit) {
                return Err(fail(&format!(
                    "`{name}` must be {width} digit(s), not {value:?}"
                )));
            }
            for (slot, &b) in out.iter_mut().zip(bytes) {
                *slot = b - b'0';
            }
            Ok(out)
        };
        let transpose = match field("t")?[0] {
            0 => false,
            1 => true,
            _ => return Err(fail("`t` must be 0 or 1")),
        };
        let (rows, cols, digits) = (field("r")?, field("c")?, field("d")?);
        if parts.next().is_some() {
            return Err(fail("text after the `d` field"));
        }
        let mut all = [0; 10];
        all[1..].copy_from_slice(&digits);
        let transform = Transform {
            transpose,
            rows,
            cols,
            digits: all,
        };
        transform.check().map_err(fail)?;
        Ok(transform)
    }
}

/// A puzzle's min-lex form and the transformation that maps the puzzle onto it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The min-lex form: the smallest image of the puzzle.
    pub grid: Grid,
    /// Maps the puzzle onto [`Canonical::grid`].
    pub transform: Transform,
}

impl Canonical {
    /// The key as text: 81 digits, `0` for blanks.
    pub fn key(&self) -> String {
        self.grid
            .cells()
            .iter()
            .map(|&v| char::from(b'0' + v))
            .collect()
    }
}

/// The min-lex form of a 9x9 grid under the whole Sudoku symmetry group, and a transformation that
/// maps `grid` onto it (one of several when the grid has automorphisms). Any 9x9 grid is accepted.
pub fn canonicalize(grid: &Grid) -> Result<Canonical, CanonicalizeError> {
    let cells = nine_cells(grid)?;
    let mut sources = [[[0u8; 9]; 9]; 2];
    for (index, &value) in cells.iter().enumerate() {
        let (r, c) = (index / 9, index % 9);
        sources[0][r][c] = value;
        sources[1][c][r] = value;
    }
    let mut search = Search {
        sources,
        best: [0; 9],
        found: false,
        generation: 0,
        next: Vec::with_capacity(32),
    };
    let root = |transpose: u8| Node {
        transpose,
        used: 0,
        band: 0,
        free_stacks: 3,
        free: [3; 3],
        cols: IDENTITY,
        labels: [0; 10],
        next_label: 1,
        rows: [0; 9],
    };
    let mut nodes = vec![root(0), root(1)];
    let mut image = [0u8; 81];
    for depth in 0..9 {
        search.found = false;
        search.next.clear();
        for node in &nodes {
            for row in node.candidate_rows(depth) {
                search.extend(node, depth, row);
            }
        }
        image[depth * 9..depth * 9 + 9].copy_from_slice(&search.best);
        std::mem::swap(&mut nodes, &mut search.next);
        if nodes.len() > 1 {
            // Partial transformations with the same future are one: keep one of each.
            nodes.sort_unstable_by_key(Node::key);
            nodes.dedup_by_key(|node| node.key());
        }
    }
    let node = nodes
        .first()
        .expect("every level keeps at least one extension");
    let mut digits = node.labels;
    let mut label = node.next_label;
    for digit in digits.iter_mut().skip(1) {
        if *digit == 0 {
            *digit = label;
            label += 1;
        }
    }
    let transform = Transform {
        transpose: node.transpose == 1,
        rows: node.rows,
        cols: node.cols,
        digits,
    };
    let canonical = Grid::from_cells(Shape::NINE, image.to_vec()).expect("labels are 0-9");
    debug_assert_eq!(transform.apply(grid).as_ref(), Ok(&canonical));
    Ok(Canonical {
        grid: canonical,
        transform,
    })
}

/// Every permutation of 0-8 that keeps blocks of three (bands or stacks) together: 1,296 of them.
#[cfg(any(test, feature = "reference"))]
fn block_permutations() -> Vec<[u8; 9]> {
    const ORDERS: [[u8; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut all = Vec::with_capacity(1296);
    for outer in ORDERS {
        for a in ORDERS {
            for b in ORDERS {
                for c in ORDERS {
                    let inner = [a, b, c];
                    let mut perm = [0; 9];
                    for (block, &source) in outer.iter().enumerate() {
                        for (i, &within) in inner[block].iter().enumerate() {
                            perm[3 * block + i] = 3 * source + within;
                        }
                    }
                    all.push(perm);
                }
            }
        }
    }
    all
}

/// The min-lex form by its definition, executed: every one of the 3,359,232 arrangements (transposed
/// or not, 1,296 row and 1,296 column permutations), each relabelled by first appearance, abandoned as
/// soon as it is larger than the best so far. Tens of milliseconds a grid: the reference that tests
/// and the benchmark's baseline compare [`canonicalize`] with (feature `reference`).
#[cfg(any(test, feature = "reference"))]
pub fn min_lex_by_brute_force(grid: &Grid) -> Result<Grid, CanonicalizeError> {
    let cells = nine_cells(grid)?;
    let perms = block_permutations();
    let mut best = [u8::MAX; 81];
    for transpose in [false, true] {
        for rows in &perms {
            'arrangement: for cols in &perms {
                let mut labels = [0u8; 10];
                let mut next = 1;
                let mut less = false;
                let mut image = [0u8; 81];
                for (i, slot) in image.iter_mut().enumerate() {
                    let (r, c) = (usize::from(rows[i / 9]), usize::from(cols[i % 9]));
                    let (r, c) = if transpose { (c, r) } else { (r, c) };
                    let digit = usize::from(cells[r * 9 + c]);
                    if digit != 0 && labels[digit] == 0 {
                        labels[digit] = next;
                        next += 1;
                    }
                    *slot = labels[digit];
                    if !less {
                        if *slot > best[i] {
                            continue 'arrangement;
                        }
                        less = *slot < best[i];
                    }
                }
                if less {
                    best = image;
                }
            }
        }
    }
    Ok(Grid::from_cells(Shape::NINE, best.to_vec()).expect("labels are 0-9"))
}

/// A partial transformation whose image so far (the rows placed) is the smallest.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// 1 when the source is the transposed grid.
    transpose: u8,
    /// The source rows placed so far, one bit each.
    used: u16,
    /// The source band of the band being filled.
    band: u8,
    /// The first `free_stacks` stacks of the image are blank in every row so far: any of their
    /// source stacks may go in any of their places, in any column order.
    free_stacks: u8,
    /// How many leading places of each stack of the image are blank in every row so far: their
    /// source columns (within the stack) may go in any order.
    free: [u8; 3],
    /// Column `j` of the image is source column `cols[j]`; free places hold their set in ascending
    /// order, so that equal nodes are equal.
    cols: [u8; 9],
    /// The label of each source digit, 0 while it has not appeared; `labels[0]` is 0.
    labels: [u8; 10],
    /// The label the next new digit gets.
    next_label: u8,
    /// Row `i` of the image is source row `rows[i]`.
    rows: [u8; 9],
}

impl Node {
    /// What determines the node's future: all but the row history.
    fn key(&self) -> (u8, u16, u8, u8, [u8; 3], [u8; 9], [u8; 10]) {
        (
            self.transpose,
            self.used,
            self.band,
            self.free_stacks,
            self.free,
            self.cols,
            self.labels,
        )
    }

    /// The source rows that may come as row `depth` of the image: any row of an unused band at the
    /// start of a band, otherwise an unused row of the band being filled.
    fn candidate_rows(&self, depth: usize) -> impl Iterator<Item = u8> + use<> {
        let (used, band) = (self.used, self.band);
        let starts_band = depth.is_multiple_of(3);
        (0..9u8).filter(move |&row| used & 1 << row == 0 && (starts_band || row / 3 == band))
    }
}

/// The state of one level of the search: the smallest row found so far at this depth, and the
/// extensions that reach it.
struct Search {
    /// The grid and its transpose, as rows of cells.
    sources: [[[u8; 9]; 9]; 2],
    /// The smallest row found at this depth.
    best: [u8; 9],
    /// Whether `best` holds a row yet.
    found: bool,
    /// Bumped whenever `best` gets smaller, so a branch knows its comparison is stale.
    generation: u32,
    /// The extensions that reach `best`.
    next: Vec<Node>,
}

/// One way of filling the row being built, up to some place.
#[derive(Clone, Copy)]
struct Partial {
    node: Node,
    /// The image row so far.
    out: [u8; 9],
    /// Places filled.
    at: usize,
    /// Whether `out[..at]` is already smaller than `best` (as of `generation`).
    less: bool,
    generation: u32,
}

/// What remains to place in the row: places `start..end` of the image filled from the source
/// columns `set` (in any order), then, if `fixed`, the node's fixed columns from `end` to `stop`.
#[derive(Clone, Copy)]
struct Group {
    start: u8,
    set: [u8; 3],
    len: u8,
    /// The image stack the places belong to.
    stack: u8,
    /// Fixed places after the group, up to the end of the stack.
    fixed_end: u8,
}

impl Search {
    /// Extends `node` by source row `row` as row `depth` of the image, in every way whose row is the
    /// smallest so far, recording those.
    fn extend(&mut self, node: &Node, depth: usize, row: u8) {
        let mut start = *node;
        start.used |= 1 << row;
        start.band = row / 3;
        start.rows[depth] = row;
        let values = self.sources[usize::from(node.transpose)][usize::from(row)];
        let partial = Partial {
            node: start,
            out: [0; 9],
            at: 0,
            less: false,
            generation: self.generation,
        };
        // The free stacks: those blank in this row stay free, first; the others follow in every order.
        let z = usize::from(node.free_stacks);
        let mut blank = [0u8; 3];
        let mut busy = [0u8; 3];
        let (mut nb, mut nz) = (0, 0);
        for k in 0..z {
            // A free stack's places hold its columns in ascending order.
            let stack = node.cols[3 * k] / 3;
            let s = usize::from(stack) * 3;
            if values[s] | values[s + 1] | values[s + 2] == 0 {
                blank[nb] = stack;
                nb += 1;
            } else {
                busy[nz] = stack;
                nz += 1;
            }
        }
        let mut head = partial;
        blank[..nb].sort_unstable();
        for (k, &stack) in blank[..nb].iter().enumerate() {
            for i in 0..3 {
                head.node.cols[3 * k + i] = 3 * stack + i as u8;
            }
            head.node.free[k] = 3;
        }
        head.node.free_stacks = nb as u8;
        for _ in 0..3 * nb {
            if !self.place(&mut head, 0) {
                return;
            }
        }
        let orders: &[[usize; 3]] = match nz {
            0 => &[[0, 1, 2]],
            1 => &[[0, 1, 2]],
            2 => &[[0, 1, 2], [1, 0, 2]],
            _ => &[
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0],
            ],
        };
        for order in orders {
            let mut partial = head;
            let mut groups = [None; 3];
            for (k, &which) in order[..nz].iter().enumerate() {
                let stack = busy[which];
                let place = nb + k;
                groups[place] = Some(Group {
                    start: 3 * place as u8,
                    set: [3 * stack, 3 * stack + 1, 3 * stack + 2],
                    len: 3,
                    stack: place as u8,
                    fixed_end: 3 * place as u8 + 3,
                });
                partial.node.free[place] = 0;
            }
            for (s, group) in groups.iter_mut().enumerate().skip(z) {
                let start = 3 * s;
                let len = usize::from(node.free[s]);
                let mut set = [0; 3];
                set[..len].copy_from_slice(&node.cols[start..start + len]);
                *group = Some(Group {
                    start: start as u8,
                    set,
                    len: len as u8,
                    stack: s as u8,
                    fixed_end: start as u8 + 3,
                });
            }
            self.fill(&values, partial, &groups, nb);
        }
    }

    /// Places one value; false when the row is already larger than the best.
    fn place(&self, partial: &mut Partial, value: u8) -> bool {
        if partial.generation != self.generation {
            // The best got smaller since this branch compared itself: compare again.
            partial.generation = self.generation;
            match partial.out[..partial.at].cmp(&self.best[..partial.at]) {
                Ordering::Greater => return false,
                order => partial.less = order == Ordering::Less,
            }
        }
        if self.found && !partial.less {
            let best = self.best[partial.at];
            if value > best {
                return false;
            }
            partial.less = value < best;
        }
        partial.out[partial.at] = value;
        partial.at += 1;
        true
    }

    /// The label of source digit `digit` in `node`, giving it the next one if it has none.
    fn label(node: &mut Node, digit: u8) -> u8 {
        let slot = &mut node.labels[usize::from(digit)];
        if digit != 0 && *slot == 0 {
            *slot = node.next_label;
            node.next_label += 1;
        }
        *slot
    }

    /// Fills the stacks of the image from `groups[stack]` on.
    fn fill(
        &mut self,
        values: &[u8; 9],
        partial: Partial,
        groups: &[Option<Group>; 3],
        stack: usize,
    ) {
        let Some(group) = groups.get(stack).copied().flatten() else {
            return self.finish(partial);
        };
        self.fill_group(values, partial, groups, stack, group, 0);
    }

    /// Fills the free places of `group` from `placed` on, then the stack's fixed places.
    fn fill_group(
        &mut self,
        values: &[u8; 9],
        mut partial: Partial,
        groups: &[Option<Group>; 3],
        stack: usize,
        mut group: Group,
        placed: u8,
    ) {
        if placed == 0 {
            // Blanks first, all together: they stay free, in ascending order.
            let mut set = group.set;
            let len = usize::from(group.len);
            set[..len].sort_unstable();
            let mut blanks = 0;
            let mut rest = [0; 3];
            let mut nrest = 0;
            for &col in &set[..len] {
                if values[usize::from(col)] == 0 {
                    partial.node.cols[usize::from(group.start) + blanks] = col;
                    blanks += 1;
                } else {
                    rest[nrest] = col;
                    nrest += 1;
                }
            }
            for _ in 0..blanks {
                if !self.place(&mut partial, 0) {
                    return;
                }
            }
            partial.node.free[usize::from(group.stack)] = blanks as u8;
            group.set = rest;
            group.len = nrest as u8;
            group.start += blanks as u8;
        }
        if placed < group.len {
            // The smallest value among the rest; every column that gives it is a branch.
            let mut smallest = u8::MAX;
            for &col in &group.set[placed as usize..group.len as usize] {
                let digit = values[usize::from(col)];
                let label = match partial.node.labels[usize::from(digit)] {
                    0 => partial.node.next_label,
                    label => label,
                };
                smallest = smallest.min(label);
            }
            for i in usize::from(placed)..usize::from(group.len) {
                let col = group.set[i];
                let digit = values[usize::from(col)];
                let mut branch = partial;
                if Self::label(&mut branch.node, digit) != smallest {
                    continue;
                }
                if !self.place(&mut branch, smallest) {
                    return;
                }
                let mut g = group;
                g.set.swap(usize::from(placed), i);
                branch.node.cols[usize::from(g.start + placed)] = col;
                self.fill_group(values, branch, groups, stack, g, placed + 1);
            }
            return;
        }
        // The stack's fixed places.
        for place in usize::from(group.start + group.len)..usize::from(group.fixed_end) {
            let digit = values[usize::from(partial.node.cols[place])];
            let label = Self::label(&mut partial.node, digit);
            if !self.place(&mut partial, label) {
                return;
            }
        }
        self.fill(values, partial, groups, stack + 1);
    }

    /// Records a complete row: a new best, or one more way to reach the best.
    fn finish(&mut self, mut partial: Partial) {
        if partial.generation != self.generation {
            partial.less = partial.out < self.best;
        }
        if !self.found || partial.less {
            self.best = partial.out;
            self.found = true;
            self.generation += 1;
            self.next.clear();
        } else if partial.out != self.best {
            return;
        }
        self.next.push(partial.node);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 17-clue sample, shared with the service's tests.
    const SEVENTEENS: &str = include_str!("../../../tests/data/17_clue_sample.txt");

    fn puzzles(text: &str) -> impl Iterator<Item = Grid> + '_ {
        text.lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| Grid::parse(line).expect("the sample reads"))
    }

    #[test]
    fn agrees_with_brute_force_on_a_puzzle_that_once_differed() {
        let puzzle = Grid::parse(
            "..............1..2..2....3.......4....3.5.....6..7.1.8...69..7.4........81.......",
        )
        .unwrap();
        let canonical = canonicalize(&puzzle).unwrap();
        assert_eq!(canonical.transform.check(), Ok(()));
        assert_eq!(canonical.transform.apply(&puzzle).unwrap(), canonical.grid);
        assert_eq!(canonical.grid, min_lex_by_brute_force(&puzzle).unwrap());
    }

    /// The sample lists most of its puzzles (977 of 1,000) in min-lex form already: those must be
    /// their own keys. The others are checked against the brute force.
    #[test]
    fn seventeen_sample_keys_are_min_lex() {
        let mut already = 0;
        let mut checked = 0;
        for puzzle in puzzles(SEVENTEENS) {
            let canonical = canonicalize(&puzzle).unwrap();
            assert_eq!(canonical.transform.apply(&puzzle).unwrap(), canonical.grid);
            if canonical.grid == puzzle {
                already += 1;
            } else {
                assert!(canonical.grid.cells() < puzzle.cells(), "{puzzle}");
                // The brute force is slow: a few of them suffice.
                if checked < 3 {
                    assert_eq!(
                        canonical.grid,
                        min_lex_by_brute_force(&puzzle).unwrap(),
                        "{puzzle}"
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(already, 977);
    }
}
