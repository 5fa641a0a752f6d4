//! Grade and Hint on the real server, called with the generated tonic client.

mod common;

use common::{CLASSIC, CLASSIC_SOLUTION, TestServer, sample};
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
