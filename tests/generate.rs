//! Generate through the real server: the stream, its count and cap, seeds that reproduce, clear
//! errors for requests that cannot be met, and deadlines and cancellation that free the server.

mod common;

use std::time::Duration;

use common::TestServer;
use sudoku_core::grid::{Grid, Shape};
use sudoku_core::solver::{self, Options, Verdict};
use sudoku_grpc::proto::{Difficulty, GenerateRequest, GenerateResponse, GradeRequest, Symmetry};
use tonic::Code;

async fn generate(
    server: &TestServer,
    request: GenerateRequest,
) -> Result<Vec<GenerateResponse>, tonic::Status> {
    let mut stream = server.client().await.generate(request).await?.into_inner();
    let mut answers = Vec::new();
    while let Some(answer) = stream.message().await? {
        answers.push(answer);
    }
    Ok(answers)
}

/// A grid read back from an answer written in `symbols` ('.' for blanks).
fn read(text: &str, shape: Shape, symbols: &str) -> Grid {
    let cells = text
        .chars()
        .map(|ch| {
            symbols
                .chars()
                .position(|s| s == ch)
                .map_or(0, |p| p as u8 + 1)
        })
        .collect();
    Grid::from_cells(shape, cells).expect("an answer of the asked shape")
}

/// The answer's puzzle has exactly one solution, the answer's, and as many clues as it says.
fn check(answer: &GenerateResponse, shape: Shape, symbols: &str) {
    let puzzle = read(&answer.puzzle, shape, symbols);
    let solution = read(&answer.solution, shape, symbols);
    assert_eq!(answer.puzzle.chars().count(), shape.cells());
    assert!(solution.solves(&puzzle), "{answer:?}");
    let outcome = solver::solve(&puzzle, &Options::default());
    assert_eq!(outcome.verdict, Verdict::Unique, "{answer:?}");
    assert_eq!(outcome.solution, Some(solution));
    assert_eq!(answer.clues as usize, puzzle.givens());
    assert_ne!(answer.seed, 0);
}

fn nine(count: u32, seed: u64) -> GenerateRequest {
    GenerateRequest {
        count,
        seed,
        symmetry: Symmetry::Rotate180.into(),
        minimal: true,
        ..Default::default()
    }
}

#[tokio::test]
async fn streams_the_count_asked_each_unique_symmetric_minimal_and_numbered() {
    let server = TestServer::start().await;
    let answers = generate(&server, nine(20, 0)).await.unwrap();
    assert_eq!(answers.len(), 20);
    let mut solver = server.client().await;
    for (i, answer) in answers.iter().enumerate() {
        assert_eq!(answer.index, i as u64);
        check(answer, Shape::NINE, "123456789");
        let cells: Vec<char> = answer.puzzle.chars().collect();
        assert!(
            (0..81).all(|c| (cells[c] == '.') == (cells[80 - c] == '.')),
            "{}",
            answer.puzzle
        );
        // Minimal with the symmetry: every single clue is needed, as the server's Solve says.
        for clue in (0..81).filter(|&c| cells[c] != '.') {
            let mut fewer = cells.clone();
            fewer[clue] = '.';
            let fewer: String = fewer.into_iter().collect();
            let verdict = solver
                .solve(common::solve_request(&fewer))
                .await
                .unwrap()
                .into_inner()
                .verdict();
            assert_eq!(
                verdict,
                sudoku_grpc::proto::Verdict::Multiple,
                "clue {clue} of {} can go",
                answer.puzzle
            );
        }
    }
    assert_eq!(
        generate(&server, nine(0, 0)).await.unwrap().len(),
        1,
        "count 0 means 1"
    );
}

#[tokio::test]
async fn the_same_seed_gives_the_same_puzzles_and_each_seed_gives_its_puzzle_alone() {
    let server = TestServer::start().await;
    let first = generate(&server, nine(5, 1234)).await.unwrap();
    let again = generate(&server, nine(5, 1234)).await.unwrap();
    assert_eq!(first, again);
    assert_eq!(first[0].seed, 1234);
    let other = generate(&server, nine(5, 1235)).await.unwrap();
    assert_ne!(first[0].puzzle, other[0].puzzle);
    for answer in &first {
        let alone = generate(&server, nine(1, answer.seed)).await.unwrap();
        assert_eq!(alone[0].puzzle, answer.puzzle);
        assert_eq!(alone[0].seed, answer.seed);
    }
}

#[tokio::test]
async fn the_server_caps_the_count() {
    let server = TestServer::start_with(|config| config.max_generate_count = 3).await;
    assert_eq!(generate(&server, nine(10, 0)).await.unwrap().len(), 3);
}

#[tokio::test]
async fn other_shapes_and_alphabets() {
    // A 16x16 takes a second or more in a debug build on a busy machine: a budget far from it.
    let server = TestServer::start_with(|config| {
        config.generate_budget = std::time::Duration::from_secs(300);
    })
    .await;
    let six = Shape::new(2, 3).unwrap();
    let request = GenerateRequest {
        count: 3,
        box_rows: 2,
        box_cols: 3,
        symbols: "abcdef".into(),
        symmetry: Symmetry::Flip.into(),
        minimal: true,
        ..Default::default()
    };
    for answer in generate(&server, request).await.unwrap() {
        assert!(
            answer.puzzle.chars().all(|c| "abcdef.".contains(c)),
            "{}",
            answer.puzzle
        );
        check(&answer, six, "abcdef");
    }
    let sixteen = GenerateRequest {
        box_rows: 4,
        box_cols: 4,
        ..Default::default()
    };
    let answer = &generate(&server, sixteen).await.unwrap()[0];
    check(answer, Shape::new(4, 4).unwrap(), "123456789ABCDEFG");
}

#[tokio::test]
async fn requests_that_cannot_be_met_get_a_clear_status() {
    let server = TestServer::start().await;
    let quarter_turn_on_six = GenerateRequest {
        box_rows: 2,
        box_cols: 3,
        symmetry: Symmetry::Rotate90.into(),
        ..Default::default()
    };
    let status = generate(&server, quarter_turn_on_six).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().contains("rotate-90") && status.message().contains("square boxes"),
        "{status:?}"
    );

    let no_such_box = GenerateRequest {
        box_rows: 1,
        box_cols: 5,
        ..Default::default()
    };
    let status = generate(&server, no_such_box).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("1x5"), "{status:?}");

    let bad_symbols = GenerateRequest {
        symbols: "12345678".into(),
        ..Default::default()
    };
    let status = generate(&server, bad_symbols).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    // Solve's words for the same symbols (see `generate_reads_symbols_by_solves_rule`).
    assert!(
        status.message().contains("8 characters") && status.message().contains("9x9"),
        "{status:?}"
    );

    let unknown = GenerateRequest {
        symmetry: 99,
        ..Default::default()
    };
    assert_eq!(
        generate(&server, unknown).await.unwrap_err().code(),
        Code::InvalidArgument
    );

    let unknown_level = GenerateRequest {
        difficulty: 99,
        ..Default::default()
    };
    assert_eq!(
        generate(&server, unknown_level).await.unwrap_err().code(),
        Code::InvalidArgument
    );
}

/// One 9x9 puzzle written in `symbols`.
fn in_symbols(symbols: &str) -> GenerateRequest {
    GenerateRequest {
        count: 1,
        seed: 3,
        symbols: symbols.into(),
        ..Default::default()
    }
}

/// Generate reads `symbols` by the one rule Solve reads them by: what Solve refuses, Generate
/// refuses with the same message, instead of answering puzzles that Solve then cannot read.
#[tokio::test]
async fn generate_reads_symbols_by_solves_rule() {
    use sudoku_grpc::proto::SolveRequest;
    let server = TestServer::start().await;
    for symbols in [
        "abcdefgh|",
        "abcdefgh-",
        "12345678é",
        "abcdefghA",
        "abcdefgh.",
        "abc",
    ] {
        let status = generate(&server, in_symbols(symbols))
            .await
            .expect_err(symbols);
        let solve = server
            .client()
            .await
            .solve(SolveRequest {
                puzzle: ".".repeat(81),
                symbols: symbols.into(),
                ..Default::default()
            })
            .await
            .expect_err(symbols);
        assert_eq!(
            status.code(),
            Code::InvalidArgument,
            "{symbols}: {status:?}"
        );
        assert_eq!(solve.code(), Code::InvalidArgument, "{symbols}: {solve:?}");
        assert_eq!(status.message(), solve.message(), "{symbols}");
    }
    // What Solve accepts, Generate answers in, and Solve reads the answer back.
    let symbols = "abcdefghi";
    let made = generate(&server, in_symbols(symbols))
        .await
        .expect("a puzzle in abcdefghi");
    let solved = server
        .client()
        .await
        .solve(SolveRequest {
            puzzle: made[0].puzzle.clone(),
            symbols: symbols.into(),
            ..Default::default()
        })
        .await
        .expect("Solve reads what Generate wrote")
        .into_inner();
    assert_eq!(solved.solution, made[0].solution);
}

#[tokio::test]
async fn a_difficulty_target_streams_puzzles_of_that_level_as_grade_rates_them() {
    let server = TestServer::start().await;
    for level in [Difficulty::Beginner, Difficulty::Hard, Difficulty::Expert] {
        let request = GenerateRequest {
            difficulty: level.into(),
            ..nine(3, 99)
        };
        let answers = generate(&server, request.clone()).await.unwrap();
        assert_eq!(answers.len(), 3);
        for answer in &answers {
            check(answer, Shape::NINE, "123456789");
            assert_eq!(answer.difficulty, i32::from(level), "{answer:?}");
            let graded = server
                .client()
                .await
                .grade(GradeRequest {
                    puzzle: answer.puzzle.clone(),
                    ..Default::default()
                })
                .await
                .unwrap()
                .into_inner();
            assert_eq!(graded.difficulty, answer.difficulty);
            assert_eq!(graded.rating, answer.rating);
        }
        assert_eq!(generate(&server, request).await.unwrap(), answers);
    }
    // Without a target, each puzzle still comes with its level and rating.
    let any = generate(&server, nine(3, 5)).await.unwrap();
    assert!(
        any.iter().all(|a| a.difficulty != 0 && a.rating > 0.0),
        "{any:?}"
    );
}

#[tokio::test]
async fn an_unreachable_level_ends_with_resource_exhausted_naming_the_budget() {
    let server = TestServer::start().await;
    // Every 4x4 falls to singles.
    let extreme_four = GenerateRequest {
        box_rows: 2,
        box_cols: 2,
        difficulty: Difficulty::Extreme.into(),
        ..Default::default()
    };
    let status = generate(&server, extreme_four).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert!(
        status.message().contains("EXTREME") && status.message().contains("attempts"),
        "{status:?}"
    );

    // The time budget per puzzle ends a search that the attempt budget would let run on.
    let server = TestServer::start_with(|config| {
        config.generate_budget = Duration::from_millis(100);
    })
    .await;
    let extreme_big = GenerateRequest {
        box_rows: 5,
        box_cols: 5,
        minimal: true,
        difficulty: Difficulty::Extreme.into(),
        seed: 3,
        ..Default::default()
    };
    let status = generate(&server, extreme_big).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert!(
        status.message().contains("budget") && status.message().contains("100ms"),
        "{status:?}"
    );
}

/// A request for huge minimal puzzles that no test waits for.
fn endless() -> GenerateRequest {
    GenerateRequest {
        count: 1000,
        box_rows: 5,
        box_cols: 5,
        minimal: true,
        ..Default::default()
    }
}

/// With one solver slot, a small request is answered only once the slot is free: proof that
/// abandoned work let go of it.
async fn slot_is_free(server: &TestServer) {
    let answers = tokio::time::timeout(Duration::from_secs(60), generate(server, nine(1, 5)))
        .await
        .expect("the one solver slot came free")
        .unwrap();
    assert_eq!(answers.len(), 1);
}

#[tokio::test]
async fn a_deadline_ends_the_stream_with_deadline_exceeded_and_stops_the_work() {
    let server = TestServer::start_with(|config| config.max_concurrent_solves = 1).await;
    let mut request = tonic::Request::new(endless());
    request.set_timeout(Duration::from_millis(300));
    let result = async {
        let mut stream = server.client().await.generate(request).await?.into_inner();
        while stream.message().await?.is_some() {}
        Ok::<(), tonic::Status>(())
    }
    .await;
    assert_eq!(result.unwrap_err().code(), Code::DeadlineExceeded);
    slot_is_free(&server).await;
}

#[tokio::test]
async fn a_dropped_stream_stops_the_work() {
    let server = TestServer::start_with(|config| {
        config.max_concurrent_solves = 1;
        config.generate_budget = Duration::from_secs(600);
    })
    .await;
    let request = GenerateRequest {
        box_rows: 4,
        box_cols: 4,
        minimal: false,
        ..endless()
    };
    let mut stream = server
        .client()
        .await
        .generate(request)
        .await
        .unwrap()
        .into_inner();
    let first = stream
        .message()
        .await
        .unwrap()
        .expect("one puzzle before the drop");
    assert_eq!(first.index, 0);
    drop(stream);
    let minimal = GenerateRequest {
        count: 1,
        ..endless()
    };
    let mut stream = server
        .client()
        .await
        .generate(minimal)
        .await
        .unwrap()
        .into_inner();
    // Give the server the request, then walk away without reading an answer.
    let waiting = tokio::time::timeout(Duration::from_millis(200), stream.message()).await;
    assert!(waiting.is_err(), "a minimal 25x25 is not made in 200 ms");
    drop(stream);
    slot_is_free(&server).await;
}

#[tokio::test]
async fn a_rating_range_streams_puzzles_grade_rates_in_it_and_a_bad_range_is_refused() {
    let server = TestServer::start().await;
    let request = GenerateRequest {
        count: 4,
        seed: 9,
        minimal: true,
        min_rating: 2.5,
        max_rating: 4.5,
        ..Default::default()
    };
    let mut grader = server.client().await;
    for answer in generate(&server, request).await.unwrap() {
        assert!((2.5..=4.5).contains(&answer.rating), "{answer:?}");
        let graded = grader
            .grade(GradeRequest {
                puzzle: answer.puzzle.clone(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(graded.rating, answer.rating);
    }
    for (min_rating, max_rating, field) in [
        (6.0, 3.0, "max_rating"),
        (-1.0, 0.0, "min_rating"),
        (f64::NAN, 0.0, "min_rating"),
        (0.0, 25.0, "max_rating"),
    ] {
        let request = GenerateRequest {
            min_rating,
            max_rating,
            ..Default::default()
        };
        let status = generate(&server, request).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
        assert!(status.message().contains(field), "{status:?}");
    }
    // Every 4x4 falls to singles: a range above them ends with the budget named.
    let request = GenerateRequest {
        box_rows: 2,
        box_cols: 2,
        min_rating: 9.0,
        ..Default::default()
    };
    let status = generate(&server, request).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert!(
        status.message().contains("rated at least 9.0") && status.message().contains("budget"),
        "{status:?}"
    );
}
