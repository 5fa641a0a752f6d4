//! The min-lex key through the public API: equal keys across random transformations of one puzzle,
//! distinct keys for puzzles that are distinct up to symmetry, the transform's round trips in both
//! directions (puzzle onto key, key's solution back onto the puzzle's), agreement with the brute-force
//! definition, and the edge cases (empty, full, clashing grids, other shapes).

use std::collections::HashSet;

use proptest::prelude::*;
use sudoku_core::canonicalization::{
    CanonicalizeError, Transform, canonicalize, min_lex_by_brute_force,
};
use sudoku_core::grid::{Grid, Shape};
use sudoku_core::solver::{Options, Verdict, solve};

/// The 17-clue sample: 1,000 puzzles, distinct up to symmetry (the collection keeps one of each).
const SEVENTEENS: &str = include_str!("../../../tests/data/17_clue_sample.txt");
/// The hardest sample: 1,000 more puzzles of another kind.
const HARDEST: &str = include_str!("../../../tests/data/forum_hardest_1905_11plus_sample.txt");

fn puzzles(text: &str) -> Vec<Grid> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| Grid::parse(line).expect("the sample reads"))
        .collect()
}

fn key(grid: &Grid) -> String {
    canonicalize(grid).expect("a 9x9 grid").key()
}

/// A random element of the symmetry group, drawn from the proptest inputs.
fn transform_strategy() -> impl Strategy<Value = Transform> {
    let order = || Just([0u8, 1, 2]).prop_shuffle();
    let block_perm = move || {
        (order(), order(), order(), order()).prop_map(|(outer, a, b, c)| {
            let inner = [a, b, c];
            let mut perm = [0u8; 9];
            for (block, &source) in outer.iter().enumerate() {
                for (i, &within) in inner[block].iter().enumerate() {
                    perm[3 * block + i] = 3 * source + within;
                }
            }
            perm
        })
    };
    let digits = Just([1u8, 2, 3, 4, 5, 6, 7, 8, 9]).prop_shuffle();
    (any::<bool>(), block_perm(), block_perm(), digits).prop_map(|(t, r, c, d)| {
        Transform::new(t, r, c, d).expect("block permutations and a digit permutation")
    })
}

/// Any 9x9 grid: sparse or dense, clashes allowed.
fn grid_strategy() -> impl Strategy<Value = Grid> {
    proptest::collection::vec((0usize..81, 0u8..=9), 0..81).prop_map(|givens| {
        let mut cells = vec![0u8; 81];
        for (index, digit) in givens {
            cells[index] = digit;
        }
        Grid::from_cells(Shape::NINE, cells).expect("values 0-9")
    })
}

#[test]
fn seventeens_have_pairwise_distinct_keys() {
    let keys: HashSet<String> = puzzles(SEVENTEENS).iter().map(key).collect();
    assert_eq!(keys.len(), 1000);
}

#[test]
fn hardest_sample_keys_reach_their_puzzles() {
    let mut keys = HashSet::new();
    for puzzle in puzzles(HARDEST) {
        let canonical = canonicalize(&puzzle).unwrap();
        assert_eq!(canonical.transform.apply(&puzzle).unwrap(), canonical.grid);
        assert_eq!(
            key(&canonical.grid),
            canonical.key(),
            "a key is its own key"
        );
        keys.insert(canonical.key());
    }
    // Equivalent puzzles may repeat in that list; most do not.
    assert!(keys.len() > 900, "{} distinct keys", keys.len());
}

#[test]
fn the_key_maps_a_solution_back_both_ways() {
    let options = Options::default();
    for puzzle in puzzles(SEVENTEENS).iter().step_by(50) {
        let canonical = canonicalize(puzzle).unwrap();
        let solution = solve(puzzle, &options).solution.expect("unique");
        let canonical_solution = solve(&canonical.grid, &options);
        assert_eq!(canonical_solution.verdict, Verdict::Unique);
        let canonical_solution = canonical_solution.solution.expect("unique");
        // Forward: the transform carries the puzzle's solution onto the key's.
        assert_eq!(
            canonical.transform.apply(&solution).unwrap(),
            canonical_solution
        );
        // Backward: the inverse carries the key's solution onto the puzzle's.
        let back = canonical
            .transform
            .inverse()
            .apply(&canonical_solution)
            .unwrap();
        assert_eq!(back, solution);
        assert!(back.solves(puzzle));
    }
}

#[test]
fn solved_grids_begin_as_published() {
    // Every min-lex solution grid begins 123456789 then 45: the second row's first box takes two
    // digits from one box of the first row. The third cell is 6 only when it takes all three, as in the
    // most regular grid, which is its own key; the classic grid's key goes on with 7.
    let classic = Grid::parse(
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    )
    .unwrap();
    let canonical = canonicalize(&classic).unwrap();
    assert!(
        canonical.key().starts_with("12345678945"),
        "{}",
        canonical.key()
    );
    assert!(canonical.grid.is_full() && canonical.grid.check_givens().is_ok());
    assert_eq!(canonical.grid, min_lex_by_brute_force(&classic).unwrap());
    assert_eq!(
        canonical.key(),
        "123456789457189263698273514271895346539764128864312957345928671786531492912647835"
    );
    let regular =
        "123456789456789123789123456234567891567891234891234567345678912678912345912345678";
    assert_eq!(key(&Grid::parse(regular).unwrap()), regular);
}

#[test]
fn edge_grids_have_keys() {
    let empty = Grid::empty(Shape::NINE);
    assert_eq!(key(&empty), "0".repeat(81));
    // One given ends in the last cell: every earlier cell can be made blank.
    let mut one = vec![0u8; 81];
    one[40] = 7;
    let one = Grid::from_cells(Shape::NINE, one).unwrap();
    assert_eq!(key(&one), format!("{}1", "0".repeat(80)));
    // Clashing givens, and a full grid of one digit, are grids like any other.
    for text in [
        "11...............................................................................",
        &"1".repeat(81),
        "123456789123456789123456789123456789123456789123456789123456789123456789123456789",
    ] {
        let grid = Grid::parse(text).unwrap();
        let canonical = canonicalize(&grid).unwrap();
        assert_eq!(
            canonical.grid,
            min_lex_by_brute_force(&grid).unwrap(),
            "{text}"
        );
        assert_eq!(canonical.transform.apply(&grid).unwrap(), canonical.grid);
    }
}

#[test]
fn other_shapes_are_refused() {
    let shape = Shape::new(2, 3).unwrap();
    let grid = Grid::empty(shape);
    assert_eq!(
        canonicalize(&grid).unwrap_err(),
        CanonicalizeError::NotNineByNine(shape)
    );
    assert_eq!(
        canonicalize(&grid).unwrap_err().to_string(),
        "canonical forms are defined for 9x9 grids only, not 6x6 (2x3 boxes)"
    );
    assert!(Transform::IDENTITY.apply(&grid).is_err());
}

#[test]
fn transform_text_reads_back_and_names_its_faults() {
    let text = "t=1;r=210543876;c=012345678;d=987654321";
    let transform: Transform = text.parse().unwrap();
    assert_eq!(transform.to_string(), text);
    assert_eq!(
        Transform::IDENTITY.to_string(),
        "t=0;r=012345678;c=012345678;d=123456789"
    );
    let faults = [
        ("", "expected `t=`"),
        (
            "t=2;r=012345678;c=012345678;d=123456789",
            "`t` must be 0 or 1",
        ),
        ("t=0;r=012345678;c=012345678", "expected `d=`"),
        (
            "t=0;r=01234567;c=012345678;d=123456789",
            "`r` must be 9 digit(s)",
        ),
        (
            "t=0;r=013245678;c=012345678;d=123456789",
            "keeps the rows of each band together",
        ),
        (
            "t=0;r=012345678;c=012345678;d=123456788",
            "d must list each digit 1-9 once",
        ),
        (
            "t=0;r=012345678;c=012345678;d=123456789;x",
            "text after the `d` field",
        ),
    ];
    for (text, reason) in faults {
        let err = text.parse::<Transform>().unwrap_err();
        assert!(err.to_string().contains(reason), "{text:?}: {err}");
    }
}

#[test]
fn brute_force_agrees_on_a_few_random_grids() {
    // Slow in a debug build (about a second each), so a handful, fixed.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for density in [12, 20, 30] {
        let mut cells = vec![0u8; 81];
        for cell in cells.iter_mut() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state % 81 < density {
                *cell = (state >> 32) as u8 % 9 + 1;
            }
        }
        let grid = Grid::from_cells(Shape::NINE, cells).unwrap();
        assert_eq!(
            canonicalize(&grid).unwrap().grid,
            min_lex_by_brute_force(&grid).unwrap(),
            "{grid}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn transformed_puzzles_share_the_key(index in 0usize..1000, transform in transform_strategy()) {
        let puzzle = &puzzles(SEVENTEENS)[index];
        let image = transform.apply(puzzle).unwrap();
        prop_assert_eq!(key(&image), key(puzzle));
    }

    #[test]
    fn transformed_grids_share_the_key(grid in grid_strategy(), transform in transform_strategy()) {
        let image = transform.apply(&grid).unwrap();
        let (a, b) = (canonicalize(&grid).unwrap(), canonicalize(&image).unwrap());
        prop_assert_eq!(&a.grid, &b.grid);
        prop_assert_eq!(a.transform.apply(&grid).unwrap(), a.grid.clone());
        prop_assert_eq!(b.transform.apply(&image).unwrap(), b.grid);
        prop_assert_eq!(a.transform.inverse().apply(&a.grid).unwrap(), grid);
    }

    #[test]
    fn transforms_round_trip(grid in grid_strategy(), transform in transform_strategy()) {
        let image = transform.apply(&grid).unwrap();
        prop_assert_eq!(transform.inverse().apply(&image).unwrap(), grid);
        prop_assert_eq!(transform.inverse().inverse(), transform);
        prop_assert_eq!(transform.to_string().parse::<Transform>().unwrap(), transform);
    }
}
