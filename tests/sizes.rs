//! Every grid size through a real server and client: Solve and SolveBatch take the shape and alphabet
//! a request states (or infer them), answer in the request's alphabet with the shape as read, and say
//! precisely what is wrong with a bad puzzle.

mod common;

use common::TestServer;
use futures::StreamExt;
use sudoku_core::grid::{Grid, Shape};
use sudoku_core::solver::{self, Options};
use sudoku_core::symbols::Symbols;
use sudoku_core::text::Format;
use sudoku_grpc::proto::{SolveBatchRequest, SolveRequest, Verdict};
use tonic::Code;
use tonic_types::StatusExt;

/// The first puzzle of the committed sample for a shape.
fn sample(name: &str) -> String {
    let path = format!("{}/tests/data/sizes/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .find(|line| !line.starts_with('#') && !line.is_empty())
        .unwrap_or_else(|| panic!("{path} holds no puzzle"))
        .to_owned()
}

/// Asserts `solution`, in `symbols`, solves `puzzle` (read in `format`).
fn assert_solves_in(puzzle: &str, format: &Format, solution: &str) {
    let read = Grid::read(puzzle, format).expect("puzzle reads");
    assert_eq!(
        solution.chars().count(),
        read.grid.shape().cells(),
        "one symbol a cell"
    );
    let exact = Format {
        shape: Some(read.grid.shape()),
        symbols: Some(read.symbols),
    };
    let answer = Grid::read(solution, &exact).expect("solution reads in the puzzle's alphabet");
    assert!(
        answer.grid.solves(&read.grid),
        "{solution} does not solve {puzzle}"
    );
}

#[tokio::test]
async fn solve_takes_every_shape_alphabet_and_numbers() {
    let server = TestServer::start().await;
    let mut client = server.client().await;

    // A 6x6, its 2x3 boxes inferred from 36 cells.
    let six = sample("6x6_2x3");
    let answer = client
        .solve(SolveRequest {
            puzzle: six.clone(),
            ..Default::default()
        })
        .await
        .expect("6x6 solves")
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Unique);
    assert_eq!((answer.box_rows, answer.box_cols), (2, 3));
    assert_solves_in(&six, &Format::default(), &answer.solution);

    // The same grid read with tall 3x2 boxes is another puzzle: its answer keeps that shape.
    let tall = sample("6x6_3x2");
    let answer = client
        .solve(SolveRequest {
            puzzle: tall.clone(),
            box_rows: 3,
            box_cols: 2,
            ..Default::default()
        })
        .await
        .expect("6x6 of tall boxes solves")
        .into_inner();
    assert_eq!((answer.box_rows, answer.box_cols), (3, 2));
    assert_solves_in(
        &tall,
        &Format::new(3, 2, "").expect("format"),
        &answer.solution,
    );

    // A 16x16 as numbers 1-16, as a JSON backend sends it; the answer in 1-9A-G.
    let sixteen = Grid::read(&sample("16x16_4x4"), &Format::default()).expect("reads");
    let numbers: Vec<String> = sixteen.grid.cells().iter().map(u8::to_string).collect();
    let json = format!("[{}]", numbers.join(","));
    let answer = client
        .solve(SolveRequest {
            puzzle: json.clone(),
            ..Default::default()
        })
        .await
        .expect("16x16 numbers solve")
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Unique);
    assert_eq!((answer.box_rows, answer.box_cols), (4, 4));
    assert_solves_in(&json, &Format::default(), &answer.solution);

    // A 16x16 in an alphabet of its own, answered in it.
    let alphabet = "0123456789ABCDEF";
    let own = Symbols::new(alphabet)
        .expect("alphabet")
        .write(&sixteen.grid);
    let answer = client
        .solve(SolveRequest {
            puzzle: own.clone(),
            symbols: alphabet.into(),
            ..Default::default()
        })
        .await
        .expect("16x16 in 0-F solves")
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Unique);
    let format = Format::new(0, 0, alphabet).expect("format");
    assert_solves_in(&own, &format, &answer.solution);
    assert!(!answer.solution.contains('G'), "{}", answer.solution);

    // A 25x25 with its shape given.
    let twenty_five = sample("25x25_5x5");
    let answer = client
        .solve(SolveRequest {
            puzzle: twenty_five.clone(),
            box_rows: 5,
            box_cols: 5,
            ..Default::default()
        })
        .await
        .expect("25x25 solves")
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Unique);
    assert_eq!((answer.box_rows, answer.box_cols), (5, 5));
    assert_solves_in(&twenty_five, &Format::default(), &answer.solution);
}

#[tokio::test]
async fn solve_batch_answers_items_of_mixed_sizes_in_their_own_terms() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let names = ["4x4_2x2", "8x8_2x4", "12x12_3x4", "20x20_4x5"];
    let mut items: Vec<SolveBatchRequest> = names
        .iter()
        .map(|name| SolveBatchRequest {
            id: (*name).into(),
            puzzle: sample(name),
            ..Default::default()
        })
        .collect();
    items.push(SolveBatchRequest {
        id: "bad-shape".into(),
        puzzle: sample("4x4_2x2"),
        box_rows: 3,
        box_cols: 3,
        ..Default::default()
    });
    let answers: Vec<_> = client
        .solve_batch(futures::stream::iter(items.clone()))
        .await
        .expect("stream opens")
        .into_inner()
        .collect::<Vec<_>>()
        .await;
    assert_eq!(answers.len(), items.len());
    for (item, answer) in items.iter().zip(answers) {
        let answer = answer.expect("an answer per item");
        assert_eq!(answer.id, item.id);
        if item.id == "bad-shape" {
            assert_eq!(answer.verdict(), Verdict::Invalid);
            assert!(
                answer.error.contains("expected 81 cells, found 16"),
                "{}",
                answer.error
            );
            assert_eq!((answer.box_rows, answer.box_cols), (0, 0));
            continue;
        }
        assert_eq!(
            answer.verdict(),
            Verdict::Unique,
            "{}: {}",
            item.id,
            answer.error
        );
        let shape = Grid::read(&item.puzzle, &Format::default())
            .expect("reads")
            .grid
            .shape();
        assert_eq!(
            (answer.box_rows as usize, answer.box_cols as usize),
            (shape.box_rows(), shape.box_cols())
        );
        assert_solves_in(&item.puzzle, &Format::default(), &answer.solution);
    }
}

#[tokio::test]
async fn bad_puzzles_of_any_size_say_what_and_where() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let six = sample("6x6_2x3");
    // An unknown symbol: '7' has no place in a 6x6; the message names it and its cell.
    let mut bad_symbol = six.clone();
    let at = bad_symbol.find('.').expect("a blank");
    bad_symbol.replace_range(at..at + 1, "7");
    let cell = Shape::new(2, 3).expect("6x6").cell(at);
    // A clash: a 4x4 with two 1s in box 1.
    let clash = "1...\n.1..\n....\n....";
    let cases: Vec<(SolveRequest, Vec<String>, &str)> = vec![
        (
            SolveRequest {
                puzzle: bad_symbol,
                ..Default::default()
            },
            vec!["'7'".into(), cell.to_string()],
            "puzzle",
        ),
        (
            SolveRequest {
                puzzle: ".".repeat(50),
                ..Default::default()
            },
            vec!["found 50".into(), "625 (25x25)".into()],
            "puzzle",
        ),
        // 200 cells of a 16x16 alphabet fit no shape: the count is the fault, named before any
        // character (a 'G' that no nearer shape's alphabet holds).
        (
            SolveRequest {
                puzzle: "123456789ABCDEFG".repeat(13)[..200].to_owned(),
                ..Default::default()
            },
            vec!["found 200".into(), "256 (16x16)".into()],
            "puzzle",
        ),
        (
            SolveRequest {
                puzzle: clash.into(),
                ..Default::default()
            },
            vec![
                "1 appears twice in box 1".into(),
                "row 1, column 1".into(),
                "row 2, column 2".into(),
            ],
            "puzzle",
        ),
        (
            SolveRequest {
                puzzle: six.clone(),
                box_rows: 1,
                box_cols: 6,
                ..Default::default()
            },
            vec!["1x6".into()],
            "box_rows",
        ),
        (
            SolveRequest {
                puzzle: six,
                symbols: "abc".into(),
                ..Default::default()
            },
            vec![],
            "symbols",
        ),
    ];
    for (request, wanted, field) in cases {
        let puzzle = request.puzzle.clone();
        let status = client.solve(request).await.unwrap_err();
        assert_eq!(
            status.code(),
            Code::InvalidArgument,
            "{puzzle:?}: {status:?}"
        );
        for text in wanted {
            assert!(
                status.message().contains(&text),
                "{:?} lacks {text:?}",
                status.message()
            );
        }
        let details = status
            .get_details_bad_request()
            .expect("BadRequest details");
        assert_eq!(
            details.field_violations[0].field,
            field,
            "{}",
            status.message()
        );
    }
}

/// The general search and the fast 9x9 path answer the same through the service's own types.
#[test]
fn every_sample_answers_unique_in_process() {
    let dir = format!("{}/tests/data/sizes", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/data/sizes") {
        let path = entry.expect("entry").path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        let Some((_, boxes)) = name.split_once('_') else {
            continue;
        };
        let Some((rows, cols)) = boxes.split_once('x') else {
            continue;
        };
        let format = Format::new(rows.parse().unwrap_or(0), cols.parse().unwrap_or(0), "")
            .expect("a sample's name gives its shape");
        let puzzle = Grid::read_puzzle(&sample(&name), &format)
            .expect("reads")
            .grid;
        let outcome = solver::solve(&puzzle, &Options::default());
        assert_eq!(outcome.verdict, solver::Verdict::Unique, "{name}");
        seen += 1;
    }
    assert!(seen >= 10, "{seen} samples in {dir}");
}
