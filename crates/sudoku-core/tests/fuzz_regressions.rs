//! Replays every input saved under `fuzz/regressions/<target>/` (inputs the fuzz targets once
//! crashed on) through the same checks the targets run, plus a few hand-picked tricky inputs so the
//! test never runs empty. See `fuzz/README.md`.

#[path = "../../../fuzz/src/checks.rs"]
mod checks;

use std::fs;
use std::path::Path;

/// A fuzz target's check on one input.
type Check = fn(&[u8]);

/// The targets, each with its check; a folder of `fuzz/regressions/` is named after its target.
const TARGETS: [(&str, Check); 5] = [
    ("parser", checks::check_parser),
    ("solver", checks::check_solver),
    ("canonicalize", checks::check_canonicalize),
    ("grader", checks::check_grader),
    ("fpuzzles", checks::check_fpuzzles),
];

/// Passes with none saved (a clean history has none): the name says so, and the folders must exist,
/// so a moved folder fails rather than replaying nothing.
#[test]
fn saved_fuzz_inputs_if_any_pass_their_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut replayed = 0;
    for (target, check) in TARGETS {
        let folder = root.join(target);
        let entries = fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", folder.display()));
        let mut paths: Vec<_> = entries
            .map(|entry| entry.expect("a readable folder entry").path())
            .filter(|path| path.is_file())
            .filter(|path| path.file_name().is_some_and(|n| n != ".gitkeep"))
            .collect();
        paths.sort();
        for path in paths {
            let data = fs::read(&path).expect("a readable saved input");
            eprintln!("replaying {}", path.display());
            check(&data);
            replayed += 1;
        }
    }
    eprintln!("{replayed} saved inputs replayed");
}

#[test]
fn tricky_parser_inputs_pass() {
    let inputs: [&[u8]; 9] = [
        b"",
        // 81 cells, then a bad character past the end of the grid.
        &[b'.'; 82],
        b"5\xff3..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        // Full-width digits and other Unicode digits are not cells.
        "\u{ff15}3..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .as_bytes(),
        "\u{0665}".as_bytes(),
        // Unicode whitespace is layout.
        "53..7....\u{2003}6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7\u{3000}9"
            .as_bytes(),
        b"[[\"5\",\"3\"]] 0000000000000000000000000000000000000000000000000000000000000000000000000000000",
        // Two equal givens in a row, a column and a box.
        b"11...............................................................................",
        b"123456789123456789123456789123456789123456789123456789123456789123456789123456789",
    ];
    for input in inputs {
        checks::check_parser(input);
    }
}

#[test]
fn tricky_solver_inputs_pass() {
    let inputs: [&[u8]; 8] = [
        // Empty input: an empty 9x9 grid.
        &[],
        // Every shape empty, with the cancelled search too.
        &[0x10],
        &[0x14],
        &[0x16],
        &[0x17],
        // A full 9x9 grid of one digit: clashes everywhere.
        &[1; 82],
        // A 4x4 grid whose givens leave one cell no candidate.
        &[4, 0, 1, 2, 0, 3, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0],
        // Sparse 9x9: one given, then the same cell overwritten with a blank.
        &[8, 0, 0, 5, 0, 0, 0],
    ];
    for input in inputs {
        checks::check_solver(input);
    }
}

#[test]
fn tricky_canonicalize_inputs_pass() {
    let inputs: [&[u8]; 7] = [
        // Empty: read as bytes, an empty grid.
        b"",
        b"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        // Clashes everywhere, and a full grid of one digit.
        b"11...............................................................................",
        &[b'1'; 81],
        // A full valid grid, with its symmetries.
        b"123456789456789123789123456234567891567891234891234567345678912678912345912345678",
        // Not text: one byte a cell.
        &[0xff, 7, 3, 200, 9, 9, 9, 1],
        // Unicode layout around a puzzle.
        "\u{3000}.................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
            .as_bytes(),
    ];
    for input in inputs {
        checks::check_canonicalize(input);
    }
}

/// Hand-picked grader inputs: every shape, sparse and dense givens, and seeds of the fuzz corpus.
#[test]
fn tricky_grader_inputs_pass() {
    for shape in 0..5u8 {
        for shift in [0u8, 3] {
            for pattern in [0x00u8, 0x55, 0xaa, 0x0f, 0x81, 0xff] {
                let mut data = vec![shape, shift];
                data.extend((0..12).map(|i| pattern.rotate_left(i)));
                checks::check_grader(&data);
            }
        }
    }
    checks::check_grader(&[]);
}

/// Hand-picked f-puzzles inputs: the samples as JSON, base64 and link, near misses of each, and
/// texts that decompress to nothing or to something that is not JSON.
#[test]
fn tricky_fpuzzles_inputs_pass() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/variants");
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for name in [
        "killer.fpuzzles.json",
        "killer.fpuzzles.url",
        "jigsaw.fpuzzles.json",
        "jigsaw.fpuzzles.txt",
    ] {
        let text = fs::read(data.join(name)).expect("a sample");
        inputs.push(text[..text.len() / 2].to_vec());
        inputs.push(text.iter().rev().copied().collect());
        inputs.push(text);
    }
    for text in [
        "",
        "{",
        "{}",
        "load=",
        "load=%",
        "load=%zz",
        "AAAA",
        "N4IgzglgXgpiBcBGAvkA",
        "====",
        "{\"size\":1,\"grid\":[[{}]]}",
        "{\"size\":16,\"grid\":[],\"littlekillersum\":[{\"cell\":\"R0C0\",\"direction\":\"DR\",\"value\":\"4\"}]}",
        "{\"size\":2,\"grid\":[[{},{}],[{},{}]],\"arrow\":[{\"cells\":[\"R1C1\"],\"lines\":[[\"R1C1\",\"R1C2\"]]}],\"cage\":[{\"cells\":[],\"value\":\"DR\u{e9}\"}]}",
    ] {
        inputs.push(text.as_bytes().to_vec());
    }
    for input in inputs {
        checks::check_fpuzzles(&input);
    }
}
