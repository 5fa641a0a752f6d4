//! The real server on 127.0.0.1:0, called with the generated tonic client.

mod common;

use std::time::Duration;

use common::{CLASSIC, CLASSIC_SOLUTION, TestServer, assert_solves, batch_item, solve_request};
use sudoku_grpc::proto::{SolveBatchRequest, SolveBatchResponse, SolveRequest, Verdict};
use tokio_stream::StreamExt;
use tonic::Code;
use tonic_types::StatusExt;

/// The classic solution with a unique rectangle blanked: exactly two completions.
fn two_solution_puzzle() -> String {
    let grid: Vec<u8> = CLASSIC_SOLUTION.bytes().collect();
    let at = |r: usize, c: usize| grid[r * 9 + c];
    for (r1, r2) in (0..9).flat_map(|a| (a + 1..9).map(move |b| (a, b))) {
        for (c1, c2) in (0..9).flat_map(|a| (a + 1..9).map(move |b| (a, b))) {
            let boxes: std::collections::HashSet<_> = [(r1, c1), (r1, c2), (r2, c1), (r2, c2)]
                .iter()
                .map(|(r, c)| (r / 3, c / 3))
                .collect();
            if boxes.len() == 2 && at(r1, c1) == at(r2, c2) && at(r1, c2) == at(r2, c1) {
                let mut puzzle = grid.clone();
                for (r, c) in [(r1, c1), (r1, c2), (r2, c1), (r2, c2)] {
                    puzzle[r * 9 + c] = b'.';
                }
                return String::from_utf8(puzzle).unwrap();
            }
        }
    }
    unreachable!("the classic solution has a unique rectangle")
}

#[tokio::test]
async fn solve_answers_every_verdict() {
    let server = TestServer::start().await;
    let mut client = server.client().await;

    let answer = client
        .solve(solve_request(CLASSIC))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Unique);
    assert_eq!(answer.solution, CLASSIC_SOLUTION);
    assert!(answer.stats.is_some());

    let empty = ".".repeat(81);
    let answer = client
        .solve(solve_request(&empty))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Multiple);
    assert_solves(&empty, &answer.solution);

    let two = two_solution_puzzle();
    let answer = client
        .solve(solve_request(&two))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Multiple);
    assert_solves(&two, &answer.solution);

    // Row 1 holds 2-9 and column 1 holds a 1: the first cell has no candidate, yet nothing clashes.
    let dead_cell = format!(".23456789{}{}", "1........", ".".repeat(63));
    let answer = client
        .solve(solve_request(&dead_cell))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.verdict(), Verdict::Unsolvable);
    assert_eq!(answer.solution, "");

    let skip = SolveRequest {
        puzzle: CLASSIC.into(),
        skip_uniqueness_check: true,
        ..Default::default()
    };
    let answer = client.solve(skip).await.unwrap().into_inner();
    assert_eq!(answer.verdict(), Verdict::Solved);
    assert_eq!(answer.solution, CLASSIC_SOLUTION);

    let hard = &common::sample("forum_hardest_1905_11plus_sample.txt")[0];
    let limited = SolveRequest {
        puzzle: hard.clone(),
        max_guesses: 1,
        ..Default::default()
    };
    let answer = client.solve(limited).await.unwrap().into_inner();
    assert_eq!(answer.verdict(), Verdict::LimitReached);
    assert!(answer.stats.unwrap().guesses <= 1);
}

#[tokio::test]
async fn solve_accepts_every_layout() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let rows: Vec<&str> = (0..9).map(|r| &CLASSIC[r * 9..r * 9 + 9]).collect();
    let pretty = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let cells: Vec<String> = row.chars().map(|c| c.to_string()).collect();
            let line = format!(
                "{} | {} | {}",
                cells[0..3].join(" "),
                cells[3..6].join(" "),
                cells[6..9].join(" ")
            );
            if i % 3 == 0 && i > 0 {
                format!("------+-------+------\n{line}")
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let leetcode = format!(
        "[{}]",
        rows.iter()
            .map(|row| format!(
                "[{}]",
                row.chars()
                    .map(|c| format!("\"{c}\""))
                    .collect::<Vec<_>>()
                    .join(",")
            ))
            .collect::<Vec<_>>()
            .join(",")
    );
    for text in [
        CLASSIC.to_string(),
        CLASSIC.replace('.', "0"),
        rows.join("\n"),
        pretty,
        leetcode,
    ] {
        let answer = client
            .solve(solve_request(&text))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(answer.solution, CLASSIC_SOLUTION, "layout:\n{text}");
    }
}

#[tokio::test]
async fn bad_puzzles_get_invalid_argument_that_says_what_and_where() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let bad_char = format!("{}x{}", &CLASSIC[..20], &CLASSIC[21..]);
    let mut clash_row = CLASSIC.to_string();
    clash_row.replace_range(2..3, "5"); // a second 5 in row 1
    let mut clash_col = CLASSIC.to_string();
    clash_col.replace_range(9 * 8..9 * 8 + 1, "5"); // a second 5 in column 1
    let mut clash_box = CLASSIC.to_string();
    clash_box.replace_range(10..11, "8"); // a second 8 in box 1, alone in its row and column
    let cases = [
        (bad_char, vec!["'x'", "row 3, column 3"]),
        (
            CLASSIC[..80].to_string(),
            vec!["expected 81 cells, found 80"],
        ),
        (format!("{CLASSIC}5"), vec!["expected 81 cells, found 82"]),
        (String::new(), vec!["found 0"]),
        (
            clash_row,
            vec!["digit 5", "row 1", "row 1, column 1", "row 1, column 3"],
        ),
        (clash_col, vec!["digit 5", "column 1", "row 9, column 1"]),
        (
            clash_box,
            vec!["digit 8 appears twice in box 1: at row 2, column 2 and at row 3, column 3"],
        ),
    ];
    for (puzzle, wanted) in cases {
        let status = client.solve(solve_request(&puzzle)).await.unwrap_err();
        common::assert_invalid(&status, "puzzle", &wanted);
        let details = status
            .get_details_bad_request()
            .expect("BadRequest details");
        assert_eq!(details.field_violations[0].description, status.message());
    }
}

async fn collect(
    client: &mut sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient<
        tonic::transport::Channel,
    >,
    requests: Vec<SolveBatchRequest>,
) -> Vec<SolveBatchResponse> {
    let stream = client
        .solve_batch(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner();
    stream.map(|r| r.unwrap()).collect().await
}

#[tokio::test]
async fn batch_answers_each_item_once_in_order_and_survives_bad_items() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let puzzles = common::sample("17_clue_sample.txt");
    let mut requests: Vec<SolveBatchRequest> = puzzles
        .iter()
        .take(200)
        .enumerate()
        .map(|(i, p)| batch_item(&format!("p{i}"), p))
        .collect();
    requests.insert(3, batch_item("bad-char", &"?".repeat(81)));
    requests.insert(50, batch_item("short", "123"));
    requests.insert(100, batch_item("clash", &format!("11{}", ".".repeat(79))));
    requests.insert(150, batch_item("", &".".repeat(81)));

    let answers = collect(&mut client, requests.clone()).await;
    assert_eq!(answers.len(), requests.len());
    for (index, (request, answer)) in requests.iter().zip(&answers).enumerate() {
        assert_eq!(answer.index, index as u64);
        assert_eq!(answer.id, request.id);
        match request.id.as_str() {
            "bad-char" => {
                assert_eq!(answer.verdict(), Verdict::Invalid);
                assert!(
                    answer.error.contains("'?'") && answer.error.contains("row 1, column 1"),
                    "{}",
                    answer.error
                );
            }
            "short" => {
                assert_eq!(answer.verdict(), Verdict::Invalid);
                assert!(answer.error.contains("found 3"), "{}", answer.error);
            }
            "clash" => {
                assert_eq!(answer.verdict(), Verdict::Invalid);
                assert!(
                    answer.error.contains("digit 1 appears twice in row 1"),
                    "{}",
                    answer.error
                );
            }
            "" => assert_eq!(answer.verdict(), Verdict::Multiple),
            _ => {
                assert_eq!(answer.verdict(), Verdict::Unique, "{}", request.puzzle);
                assert_eq!(answer.error, "");
                assert_solves(&request.puzzle, &answer.solution);
            }
        }
    }
}

#[tokio::test]
async fn batch_items_with_clashing_givens_get_the_unary_error_in_every_mode() {
    // A batch item's 9x9 givens are checked for clashes only once the solver finds no solution:
    // the answer must still be the error a unary Solve gives, whatever the options.
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let with = |puzzle: &str, at: usize, symbol: &str| {
        let mut text = puzzle.to_string();
        text.replace_range(at..at + 1, symbol);
        text
    };
    let mut full_clash = CLASSIC_SOLUTION.to_string();
    full_clash.replace_range(0..1, &CLASSIC_SOLUTION[1..2]);
    let letters: String = CLASSIC
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) => char::from(b'A' + d as u8 - 1),
            None => c,
        })
        .collect();
    let cases: Vec<(String, (u32, u32, &str))> = vec![
        (with(CLASSIC, 2, "5"), (0, 0, "")),
        (with(CLASSIC, 72, "5"), (0, 0, "")),
        (with(CLASSIC, 10, "8"), (0, 0, "")),
        (
            format!("{}9...9{}", ".".repeat(40), ".".repeat(36)),
            (0, 0, ""),
        ),
        (full_clash, (0, 0, "")),
        (with(&letters, 2, "E"), (3, 3, "ABCDEFGHI")),
        (format!("1..1{}", ".".repeat(12)), (2, 2, "")),
    ];
    for (puzzle, (box_rows, box_cols, symbols)) in cases {
        for (skip_uniqueness_check, max_guesses) in [(false, 0), (true, 0), (false, 1)] {
            // Solve's request and a batch item share these fields.
            macro_rules! request {
                ($message:ident) => {
                    $message {
                        puzzle: puzzle.clone(),
                        box_rows,
                        box_cols,
                        symbols: symbols.into(),
                        skip_uniqueness_check,
                        max_guesses,
                        ..Default::default()
                    }
                };
            }
            let status = client.solve(request!(SolveRequest)).await.unwrap_err();
            assert_eq!(status.code(), Code::InvalidArgument, "{puzzle}");
            assert!(status.message().contains("twice"), "{puzzle}: {status:?}");
            let answers = collect(&mut client, vec![request!(SolveBatchRequest)]).await;
            assert_eq!(answers.len(), 1);
            assert_eq!(answers[0].verdict(), Verdict::Invalid, "{puzzle}");
            assert_eq!(answers[0].error, status.message(), "{puzzle}");
            assert_eq!(answers[0].solution, "", "{puzzle}");
        }
    }
}

#[tokio::test]
async fn batch_options_apply_per_batch_item() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let hard = &common::sample("forum_hardest_1905_11plus_sample.txt")[1];
    let requests = vec![
        SolveBatchRequest {
            id: "skip".into(),
            puzzle: CLASSIC.into(),
            skip_uniqueness_check: true,
            ..Default::default()
        },
        SolveBatchRequest {
            id: "limited".into(),
            puzzle: hard.clone(),
            max_guesses: 1,
            ..Default::default()
        },
        batch_item("plain", CLASSIC),
    ];
    let answers = collect(&mut client, requests).await;
    let verdicts: Vec<Verdict> = answers.iter().map(|a| a.verdict()).collect();
    assert_eq!(
        verdicts,
        [Verdict::Solved, Verdict::LimitReached, Verdict::Unique]
    );
}

#[tokio::test]
async fn empty_batch_ends_ok_with_no_answers() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut stream = client
        .solve_batch(tokio_stream::empty())
        .await
        .unwrap()
        .into_inner();
    assert!(stream.message().await.unwrap().is_none());
}

#[tokio::test]
async fn batch_in_lockstep_answers_each_before_the_next_is_sent() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let (tx, mut answers) = common::open_batch(&mut client).await;
    let puzzles = common::sample("17_clue_sample.txt");
    for (i, puzzle) in puzzles.iter().take(20).enumerate() {
        tx.send(batch_item(&i.to_string(), puzzle)).await.unwrap();
        let answer = tokio::time::timeout(Duration::from_secs(10), answers.message())
            .await
            .expect("answered before the next request")
            .unwrap()
            .unwrap();
        assert_eq!(answer.index, i as u64);
        assert_solves(puzzle, &answer.solution);
    }
    drop(tx);
    assert!(answers.message().await.unwrap().is_none());
}

#[tokio::test]
async fn a_client_that_vanishes_mid_stream_leaves_the_server_healthy() {
    let server = TestServer::start().await;
    {
        let mut client = server.client().await;
        let puzzles = common::sample("forum_hardest_1905_11plus_sample.txt");
        let requests: Vec<_> = puzzles.iter().map(|p| batch_item("", p)).collect();
        let mut answers = client
            .solve_batch(tokio_stream::iter(requests))
            .await
            .unwrap()
            .into_inner();
        answers.message().await.unwrap().unwrap();
        // Dropping the client and the stream resets it mid-flight.
    }
    let mut client = server.client().await;
    let answer = client
        .solve(solve_request(CLASSIC))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.solution, CLASSIC_SOLUTION);
    server.stop(Duration::from_secs(15)).await;
}

#[tokio::test]
async fn health_reports_serving_then_not_serving_on_shutdown() {
    use tonic_health::pb::{
        HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
    };
    let mut server = TestServer::start_with(|c| c.shutdown_grace = Duration::from_secs(5)).await;
    let channel = server.channel().await;
    common::assert_health_serving(channel.clone()).await;
    let unknown = HealthClient::new(channel.clone())
        .check(HealthCheckRequest {
            service: "nope".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);

    let mut watch = common::watch_health_serving(channel).await;
    server.shutdown();
    let next = tokio::time::timeout(Duration::from_secs(5), watch.message())
        .await
        .expect("watch update");
    assert_eq!(next.unwrap().unwrap().status(), ServingStatus::NotServing);
    // The open Watch stream cannot hold the server past its grace period.
    server.stop(Duration::from_secs(10)).await;
}

#[tokio::test]
async fn reflection_lists_every_service_in_v1_and_v1alpha() {
    let server = TestServer::start().await;
    let wanted = [
        "sudoku.v1.SudokuService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
    ];
    {
        use tonic_reflection::pb::v1::{
            ServerReflectionRequest, server_reflection_client::ServerReflectionClient,
            server_reflection_request::MessageRequest, server_reflection_response::MessageResponse,
        };
        let mut client = ServerReflectionClient::new(server.channel().await);
        let request = ServerReflectionRequest {
            host: String::new(),
            message_request: Some(MessageRequest::ListServices(String::new())),
        };
        let mut responses = client
            .server_reflection_info(tokio_stream::once(request))
            .await
            .unwrap()
            .into_inner();
        let Some(MessageResponse::ListServicesResponse(list)) =
            responses.message().await.unwrap().unwrap().message_response
        else {
            panic!("not a service list")
        };
        let names: Vec<_> = list.service.into_iter().map(|s| s.name).collect();
        for name in wanted {
            assert!(
                names.contains(&name.to_string()),
                "v1 lacks {name}: {names:?}"
            );
        }
    }
    {
        use tonic_reflection::pb::v1alpha::{
            ServerReflectionRequest, server_reflection_client::ServerReflectionClient,
            server_reflection_request::MessageRequest, server_reflection_response::MessageResponse,
        };
        let mut client = ServerReflectionClient::new(server.channel().await);
        let request = ServerReflectionRequest {
            host: String::new(),
            message_request: Some(MessageRequest::FileContainingSymbol(
                "sudoku.v1.SudokuService".into(),
            )),
        };
        let mut responses = client
            .server_reflection_info(tokio_stream::once(request))
            .await
            .unwrap()
            .into_inner();
        let Some(MessageResponse::FileDescriptorResponse(files)) =
            responses.message().await.unwrap().unwrap().message_response
        else {
            panic!("not a file descriptor")
        };
        use prost::Message;
        let file =
            prost_types::FileDescriptorProto::decode(&files.file_descriptor_proto[0][..]).unwrap();
        assert_eq!(file.package(), "sudoku.v1");
        let comments = file
            .source_code_info
            .expect("comments are kept for describe");
        assert!(
            comments
                .location
                .iter()
                .any(|l| l.leading_comments().contains("Solves one puzzle"))
        );
    }
}
