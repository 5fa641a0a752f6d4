//! Grade and Hint on the real server, called with the generated tonic client.

mod common;

use common::{CLASSIC, CLASSIC_SOLUTION, TestServer, sample, sample_path};
use sudoku_grpc::proto::{Difficulty, GradeRequest, HintRequest, SolveRequest, Technique, Verdict};
use tonic::Code;

fn grade_request(puzzle: &str, include_steps: bool) -> GradeRequest {
    GradeRequest {
        puzzle: puzzle.into(),
        include_steps,
        ..Default::default()
    }
}

/// Fills `board` (81 cells) with `placements`.
fn apply(board: &mut [u8], placements: &[sudoku_grpc::proto::CellSymbol]) {
    for p in placements {
        board[p.row as usize * 9 + p.col as usize] = p.symbol.as_bytes()[0];
    }
}

#[tokio::test]
async fn grade_explains_the_classic_puzzle_step_by_step() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let answer = client
        .grade(grade_request(CLASSIC, true))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Unique);
    assert_eq!(answer.difficulty(), Difficulty::Beginner);
    assert!(answer.rating <= 1.5, "{}", answer.rating);
    assert_eq!(answer.hardest_technique(), Technique::HiddenSingle);
    assert_eq!(answer.clues, 30);
    assert!(!answer.lower_bound);
    assert_eq!(
        answer.steps[0].explanation,
        "In box 2, 8 fits only in r1c6."
    );
    assert_eq!(answer.steps[0].placements[0].symbol, "8");
    let mut board = CLASSIC.as_bytes().to_vec();
    for step in &answer.steps {
        assert!(!step.explanation.is_empty());
        apply(&mut board, &step.placements);
    }
    assert_eq!(String::from_utf8(board).unwrap(), CLASSIC_SOLUTION);
    let counted: u32 = answer.techniques.iter().map(|t| t.count).sum();
    assert_eq!(counted as usize, answer.steps.len());

    // Without steps, the same grade.
    let short = client
        .grade(grade_request(CLASSIC, false))
        .await
        .unwrap()
        .into_inner();
    assert!(short.steps.is_empty());
    assert_eq!(short.rating, answer.rating);
}

#[tokio::test]
async fn grade_rates_the_hardest_puzzles_extreme_and_needs_a_unique_puzzle() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let hardest = &sample("forum_hardest_1905_11plus_sample.txt")[0];
    let answer = client
        .grade(grade_request(hardest, false))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Unique);
    assert_eq!(answer.difficulty(), Difficulty::Extreme);
    assert!(answer.rating > 6.9);
    // Sudoku Explainer's pearl and diamond: the hardest step to the first placement, the first step.
    assert!(answer.diamond_rating > 0.0, "{answer:?}");
    assert!(answer.diamond_rating <= answer.pearl_rating, "{answer:?}");
    assert!(answer.pearl_rating <= answer.rating, "{answer:?}");

    let empty = ".".repeat(81);
    let answer = client
        .grade(grade_request(&empty, true))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Multiple);
    assert_eq!(answer.difficulty(), Difficulty::Unspecified);
    assert!(answer.steps.is_empty());
}

#[tokio::test]
async fn bad_puzzles_get_the_same_errors_as_solve() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let clash = format!("55{}", &CLASSIC[2..]);
    let bad_char = format!("12x{}", &CLASSIC[3..]);
    for text in [clash.as_str(), bad_char.as_str(), "12x", ""] {
        let solve = client
            .solve(SolveRequest {
                puzzle: text.into(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        let grade = client.grade(grade_request(text, false)).await.unwrap_err();
        let hint = client
            .hint(HintRequest {
                puzzle: text.into(),
                ..Default::default()
            })
            .await
            .unwrap_err();
        for status in [&grade, &hint] {
            assert_eq!(status.code(), Code::InvalidArgument);
            assert_eq!(status.message(), solve.message());
        }
    }
    let bad_board = client
        .hint(HintRequest {
            puzzle: CLASSIC.into(),
            progress: "5?".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(bad_board.code(), Code::InvalidArgument);
    assert!(
        bad_board.message().starts_with("progress: "),
        "{}",
        bad_board.message()
    );
}

#[tokio::test]
async fn hints_walk_a_puzzle_to_its_solution_and_catch_mistakes() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let puzzle = sample("17_clue_sample.txt")[0].clone();
    let mut board = puzzle.as_bytes().to_vec();
    let mut hints = 0;
    loop {
        let progress = String::from_utf8(board.clone()).unwrap();
        let answer = client
            .hint(HintRequest {
                puzzle: puzzle.clone(),
                progress,
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(answer.verdict(), Verdict::Unique);
        assert!(answer.mistakes.is_empty());
        if answer.solved {
            break;
        }
        let (last, before) = answer.steps.split_last().expect("a hint has steps");
        assert_eq!(last.placements.len(), 1, "a hint ends in one placement");
        assert!(
            before
                .iter()
                .all(|s| s.placements.is_empty() && !s.eliminations.is_empty())
        );
        apply(&mut board, &last.placements);
        hints += 1;
        assert!(hints <= 81);
    }
    assert_eq!(hints, 81 - 17);
    let solution = String::from_utf8(board).unwrap();
    let solved = client
        .solve(SolveRequest {
            puzzle: puzzle.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(solution, solved.solution);

    // A wrong entry comes back as a mistake, with no step.
    let mut wrong = CLASSIC.as_bytes().to_vec();
    wrong[2] = if CLASSIC_SOLUTION.as_bytes()[2] == b'1' {
        b'2'
    } else {
        b'1'
    };
    let answer = client
        .hint(HintRequest {
            puzzle: CLASSIC.into(),
            progress: String::from_utf8(wrong).unwrap(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.mistakes.len(), 1);
    assert_eq!((answer.mistakes[0].row, answer.mistakes[0].col), (0, 2));
    assert!(answer.steps.is_empty() && !answer.solved);
}

#[tokio::test]
async fn a_passed_deadline_answers_deadline_exceeded() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let hardest = &sample("forum_hardest_1905_11plus_sample.txt")[0];
    let mut request = tonic::Request::new(grade_request(hardest, true));
    request.set_timeout(std::time::Duration::from_millis(1));
    let status = client.grade(request).await.unwrap_err();
    assert!(
        matches!(status.code(), Code::DeadlineExceeded | Code::Cancelled),
        "{status:?}"
    );
    // The server goes on answering.
    let answer = client
        .grade(grade_request(CLASSIC, false))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Unique);
}

/// A committed f-puzzles fixture's text.
fn variant_fixture(name: &str) -> String {
    std::fs::read_to_string(sample_path(&format!("variants/{name}")))
        .expect("the fixture")
        .trim()
        .to_owned()
}

/// Grade's answer for an f-puzzles text, with its path when `steps`.
async fn grade_fpuzzles(
    client: &mut sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient<
        tonic::transport::Channel,
    >,
    fpuzzles: &str,
    steps: bool,
) -> sudoku_grpc::proto::GradeResponse {
    client
        .grade(GradeRequest {
            fpuzzles: fpuzzles.into(),
            include_steps: steps,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
}

/// The jigsaw fixture's solution.
const JIGSAW_SOLUTION: &str =
    "679285143482513679391467258125874936738926415546139782854691327263748591917352864";

#[tokio::test]
async fn variants_with_unit_rules_grade_and_hint_on_their_own_units() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    // A jigsaw from its f-puzzles link: its regions are its boxes, and the steps solve it.
    let link = format!(
        "https://www.f-puzzles.com/?load={}",
        variant_fixture("jigsaw.b64")
    );
    let answer = grade_fpuzzles(&mut client, &link, true).await;
    assert_eq!(answer.verdict(), Verdict::Unique);
    assert!(answer.rating >= 1.0);
    let placed: usize = answer.steps.iter().map(|s| s.placements.len()).sum();
    assert_eq!(placed, 81 - answer.clues as usize);
    for p in answer.steps.iter().flat_map(|s| &s.placements) {
        let at = p.row as usize * 9 + p.col as usize;
        assert_eq!(p.symbol, &JIGSAW_SOLUTION[at..=at], "{p:?}");
    }
    let explained: Vec<&str> = answer
        .steps
        .iter()
        .map(|s| s.explanation.as_str())
        .collect();
    assert!(
        explained.iter().any(|e| e.contains("region ")),
        "{explained:?}"
    );
    assert!(
        !explained.iter().any(|e| e.contains("box ")),
        "{explained:?}"
    );

    // Extra regions (windoku) take part in the techniques, by name.
    let windoku = variant_fixture("extraregion.json");
    let answer = grade_fpuzzles(&mut client, &windoku, true).await;
    assert_eq!(answer.verdict(), Verdict::Unique);
    assert!(
        answer
            .steps
            .iter()
            .any(|s| s.explanation.contains("extra region")),
        "{:?}",
        answer.steps
    );

    // Hints walk the windoku to its solution, each ending in one placement.
    let solution = client
        .solve(SolveRequest {
            fpuzzles: windoku.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .solution;
    let mut board: Vec<u8> = vec![b'.'; 81];
    let mut hints = 0;
    loop {
        let answer = client
            .hint(HintRequest {
                fpuzzles: windoku.clone(),
                progress: String::from_utf8(board.clone()).unwrap(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(answer.verdict(), Verdict::Unique);
        assert!(answer.mistakes.is_empty(), "{:?}", answer.mistakes);
        if answer.solved {
            break;
        }
        let last = answer.steps.last().expect("a hint has steps");
        assert_eq!(last.placements.len(), 1, "a hint ends in one placement");
        apply(&mut board, &last.placements);
        hints += 1;
        assert!(hints <= 81);
    }
    // An empty board counts the givens as given, so the walk fills the rest.
    let filled = String::from_utf8(board).unwrap();
    for (got, want) in filled.chars().zip(solution.chars()) {
        assert!(got == '.' || got == want, "{filled} against {solution}");
    }

    // The typed form: the windoku's givens with its boxes' windows as extra regions grade alike.
    let windows: Vec<sudoku_grpc::proto::ExtraRegion> = [10, 14, 46, 50]
        .iter()
        .map(|&corner| sudoku_grpc::proto::ExtraRegion {
            cells: (0..9).map(|i| corner + (i / 3) * 9 + i % 3).collect(),
        })
        .collect();
    let givens = client
        .solve(SolveRequest {
            fpuzzles: windoku.clone(),
            skip_uniqueness_check: true,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(givens.solution, solution);
    let typed = client
        .grade(GradeRequest {
            puzzle: fixture_givens(&windoku),
            rules: Some(Box::new(sudoku_grpc::proto::Rules {
                extra_regions: windows,
                ..Default::default()
            })),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let from_link = grade_fpuzzles(&mut client, &windoku, false).await;
    assert_eq!(typed, from_link);
}

/// The givens of an f-puzzles JSON text, as an 81-character puzzle.
fn fixture_givens(json: &str) -> String {
    let variant = sudoku_core::fpuzzles::read(json).expect("the fixture reads");
    variant
        .givens()
        .iter()
        .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
        .collect()
}

#[tokio::test]
async fn grade_and_hint_refuse_rules_without_techniques_by_name() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let killer = variant_fixture("killer.json");
    let status = client
        .grade(GradeRequest {
            fpuzzles: killer.clone(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    common::assert_invalid(&status, "fpuzzles", &["rule 1 (cage)", "no techniques"]);
    let status = client
        .hint(HintRequest {
            puzzle: CLASSIC.into(),
            rules: Some(Box::new(sudoku_grpc::proto::Rules {
                anti_knight: true,
                ..Default::default()
            })),
            ..Default::default()
        })
        .await
        .unwrap_err();
    common::assert_invalid(&status, "rules", &["(anti-knight)"]);
    // A progress board in a variant's symbols: a stray symbol is named with its cell.
    let status = client
        .hint(HintRequest {
            fpuzzles: variant_fixture("jigsaw.json"),
            progress: format!("X{}", ".".repeat(80)),
            ..Default::default()
        })
        .await
        .unwrap_err();
    common::assert_invalid(&status, "progress", &["'X' at R1C1"]);
}
