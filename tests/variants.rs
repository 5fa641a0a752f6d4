//! Variants through the real server and a real tonic client: f-puzzles text (JSON, its LZ-String
//! base64, a link) and the typed `Rules` in Solve and SolveBatch, and TrueCandidates on classic and
//! variant puzzles. The fixtures in tests/data/variants/ are a classic, a killer and a jigsaw 9x9,
//! each with one solution (checked when they were made by an independent brute-force search).
//!
//! The tests that solve need the variant solver and the f-puzzles reader; those that only check
//! what is refused before solving do not.

mod common;

use common::{CLASSIC, CLASSIC_SOLUTION, TestServer, batch_item, solve_request};
use sudoku_grpc::proto::{
    Cage, Rules, SolveBatchRequest, SolveRequest, TrueCandidatesResponse, Verdict,
};
use tokio_stream::StreamExt;
use tonic::Code;

/// The killer fixture's givens: the classic puzzle without its first and last rows.
const KILLER_GIVENS: &str =
    ".........6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5.........";

/// The killer fixture's cages (row-major cells from 0, and sums), over the two blank rows.
const KILLER_CAGES: &[(&[u32], u32)] = &[
    (&[0, 1], 8),
    (&[2, 3, 4], 17),
    (&[5, 6], 17),
    (&[7, 8], 3),
    (&[72, 73, 74], 12),
    (&[75, 76], 10),
    (&[77, 78, 79, 80], 23),
];

/// The jigsaw fixture's givens, regions and solution.
const JIGSAW_GIVENS: &str =
    "..9...14..82..3.7...146725.1.5...93....926..5........2.5............8.9....35...4";
const JIGSAW_REGIONS: [u32; 81] = [
    0, 0, 1, 1, 1, 1, 2, 2, 2, 0, 0, 0, 0, 1, 1, 2, 2, 2, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4,
    4, 5, 5, 5, 3, 3, 3, 3, 4, 4, 5, 5, 5, 3, 3, 3, 4, 4, 4, 5, 5, 8, 6, 6, 6, 7, 7, 7, 8, 5, 8, 6,
    6, 6, 7, 7, 8, 8, 8, 8, 6, 6, 6, 7, 7, 7, 7, 8, 8,
];
const JIGSAW_SOLUTION: &str =
    "679285143482513679391467258125874936738926415546139782854691327263748591917352864";

/// A fixture's text.
fn fixture(name: &str) -> String {
    let path = format!("{}/tests/data/variants/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .trim()
        .to_owned()
}

/// A Solve request for an f-puzzles text.
fn fpuzzles_request(text: &str) -> SolveRequest {
    SolveRequest {
        fpuzzles: text.into(),
        ..Default::default()
    }
}

/// The killer fixture in typed form.
fn killer_rules() -> Rules {
    Rules {
        side: 9,
        cages: KILLER_CAGES
            .iter()
            .map(|(cells, sum)| Cage {
                cells: cells.to_vec(),
                sum: *sum,
            })
            .collect(),
        ..Default::default()
    }
}

/// Needs the variant solver and the f-puzzles reader.
#[tokio::test]
async fn fpuzzles_json_base64_and_link_give_the_same_answer() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    for (name, solution) in [
        ("classic", CLASSIC_SOLUTION),
        ("killer", CLASSIC_SOLUTION),
        ("jigsaw", JIGSAW_SOLUTION),
    ] {
        let json = fixture(&format!("{name}.json"));
        let base64 = fixture(&format!("{name}.b64"));
        let link = format!("https://www.f-puzzles.com/?load={base64}");
        for text in [&json, &base64, &link] {
            let answer = client
                .solve(fpuzzles_request(text))
                .await
                .unwrap_or_else(|s| panic!("{name}: {s:?}"))
                .into_inner();
            assert_eq!(answer.verdict(), Verdict::Unique, "{name}: {answer:?}");
            assert_eq!(answer.solution, solution, "{name}");
        }
    }
}

#[tokio::test]
async fn a_puzzle_with_fpuzzles_or_rules_beside_it_is_refused() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let both = SolveRequest {
        puzzle: CLASSIC.into(),
        fpuzzles: fixture("classic.json"),
        ..Default::default()
    };
    let status = client.solve(both).await.unwrap_err();
    common::assert_invalid(&status, "puzzle", &["fpuzzles"]);
    let both = SolveRequest {
        puzzle: KILLER_GIVENS.into(),
        fpuzzles: fixture("killer.json"),
        rules: Some(Box::new(killer_rules())),
        ..Default::default()
    };
    let status = client.solve(both).await.unwrap_err();
    common::assert_invalid(&status, "fpuzzles", &["rules"]);
    let boxes = SolveRequest {
        fpuzzles: fixture("classic.json"),
        box_rows: 3,
        box_cols: 3,
        ..Default::default()
    };
    let status = client.solve(boxes).await.unwrap_err();
    common::assert_invalid(&status, "box_rows", &["fpuzzles"]);
}

#[tokio::test]
async fn unreadable_fpuzzles_text_is_invalid_argument_about_the_field() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    for text in ["{\"size\": 9, \"grid\": [", "not base64 at all!"] {
        let status = client.solve(fpuzzles_request(text)).await.unwrap_err();
        common::assert_invalid(&status, "fpuzzles", &["fpuzzles"]);
    }
}

/// Needs the f-puzzles reader.
#[tokio::test]
async fn an_unsupported_fpuzzles_rule_is_refused_by_name() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let json = fixture("classic.json");
    let with_palindrome = format!(
        "{},\"palindrome\":[{{\"lines\":[[\"R1C3\",\"R2C3\",\"R3C3\"]]}}]}}",
        json.trim_end_matches('}')
    );
    let status = client
        .solve(fpuzzles_request(&with_palindrome))
        .await
        .unwrap_err();
    common::assert_invalid(&status, "fpuzzles", &["palindrome"]);
}

/// Needs the variant solver.
#[tokio::test]
async fn a_typed_killer_and_jigsaw_are_solved() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let killer = SolveRequest {
        puzzle: KILLER_GIVENS.into(),
        rules: Some(Box::new(killer_rules())),
        ..Default::default()
    };
    let answer = client.solve(killer).await.unwrap().into_inner();
    assert_eq!(answer.verdict(), Verdict::Unique, "{answer:?}");
    assert_eq!(answer.solution, CLASSIC_SOLUTION);
    assert_eq!((answer.box_rows, answer.box_cols), (3, 3));
    let jigsaw = SolveRequest {
        puzzle: JIGSAW_GIVENS.into(),
        rules: Some(Box::new(Rules {
            regions: JIGSAW_REGIONS.to_vec(),
            ..Default::default()
        })),
        ..Default::default()
    };
    let answer = client.solve(jigsaw).await.unwrap().into_inner();
    assert_eq!(answer.verdict(), Verdict::Unique, "{answer:?}");
    assert_eq!(answer.solution, JIGSAW_SOLUTION);
    assert_eq!((answer.box_rows, answer.box_cols), (0, 0));
}

#[tokio::test]
async fn typed_rules_that_cannot_hold_are_refused_naming_the_rule_and_cell() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let with_cage = |cells: Vec<u32>, sum: u32| SolveRequest {
        puzzle: KILLER_GIVENS.into(),
        rules: Some(Box::new(Rules {
            cages: vec![Cage { cells, sum }],
            ..Default::default()
        })),
        ..Default::default()
    };
    // A cell outside the 9x9 grid.
    let status = client.solve(with_cage(vec![0, 81], 10)).await.unwrap_err();
    common::assert_invalid(&status, "rules", &["rule 1", "cage", "81"]);
    // Two cells cannot add up to 18 with different values 1-9.
    let status = client.solve(with_cage(vec![0, 1], 18)).await.unwrap_err();
    common::assert_invalid(&status, "rules", &["rule 1", "cage", "R1C1", "18"]);
    // A given that is no symbol of a 4x4 grid.
    let small = SolveRequest {
        puzzle: "1..5 .... .... ....".into(),
        rules: Some(Box::new(Rules::default())),
        ..Default::default()
    };
    let status = client.solve(small).await.unwrap_err();
    common::assert_invalid(&status, "puzzle", &["'5'", "R1C4"]);
}

/// TrueCandidates of `request`.
async fn true_candidates(server: &TestServer, request: SolveRequest) -> TrueCandidatesResponse {
    server
        .client()
        .await
        .true_candidates(request)
        .await
        .unwrap_or_else(|s| panic!("{s:?}"))
        .into_inner()
}

/// Needs the variant solver.
#[tokio::test]
async fn true_candidates_of_a_unique_classic_puzzle_are_its_solution() {
    let server = TestServer::start().await;
    let answer = true_candidates(&server, solve_request(CLASSIC)).await;
    assert_eq!(answer.verdict(), Verdict::Unique, "{answer:?}");
    let cells: Vec<String> = CLASSIC_SOLUTION.chars().map(String::from).collect();
    assert_eq!(answer.cells, cells);
}

/// Needs the variant solver.
#[tokio::test]
async fn true_candidates_of_a_puzzle_with_two_solutions_show_both() {
    let server = TestServer::start().await;
    // The classic solution with a unique rectangle of 1s and 3s blanked: two completions.
    let mut puzzle: Vec<char> = CLASSIC_SOLUTION.chars().collect();
    let rectangle = [32, 35, 41, 44];
    for cell in rectangle {
        puzzle[cell] = '.';
    }
    let puzzle: String = puzzle.into_iter().collect();
    let answer = true_candidates(&server, solve_request(&puzzle)).await;
    assert_eq!(answer.verdict(), Verdict::Multiple, "{answer:?}");
    assert_eq!(answer.cells.len(), 81);
    for (cell, candidates) in answer.cells.iter().enumerate() {
        let expected = match rectangle.contains(&cell) {
            true => "13".to_owned(),
            false => CLASSIC_SOLUTION[cell..=cell].to_owned(),
        };
        assert_eq!(*candidates, expected, "cell {cell}");
    }
}

/// Needs the variant solver.
#[tokio::test]
async fn true_candidates_of_an_unsolvable_puzzle_are_none() {
    let server = TestServer::start().await;
    // No two givens clash, but the first cell can take no digit.
    let puzzle = format!(".234567891{}", ".".repeat(71));
    let answer = true_candidates(&server, solve_request(&puzzle)).await;
    assert_eq!(answer.verdict(), Verdict::Unsolvable, "{answer:?}");
    assert!(answer.cells.is_empty(), "{answer:?}");
}

/// Needs the variant solver and the f-puzzles reader.
#[tokio::test]
async fn true_candidates_take_fpuzzles_and_typed_variants() {
    let server = TestServer::start().await;
    let answer = true_candidates(&server, fpuzzles_request(&fixture("jigsaw.b64"))).await;
    assert_eq!(answer.verdict(), Verdict::Unique, "{answer:?}");
    assert_eq!(answer.cells.concat(), JIGSAW_SOLUTION);
    let killer = SolveRequest {
        puzzle: KILLER_GIVENS.into(),
        rules: Some(Box::new(killer_rules())),
        ..Default::default()
    };
    let answer = true_candidates(&server, killer).await;
    assert_eq!(answer.verdict(), Verdict::Unique, "{answer:?}");
    assert_eq!(answer.cells.concat(), CLASSIC_SOLUTION);
}

/// The budget is honoured: the empty grid has far too many solutions for one guess, and the answer
/// says so rather than listing part of them. (With the stub solver this holds trivially.)
#[tokio::test]
async fn true_candidates_past_the_budget_say_limit_reached_and_nothing_more() {
    let server = TestServer::start().await;
    let request = SolveRequest {
        puzzle: ".".repeat(81),
        max_guesses: 1,
        ..Default::default()
    };
    let answer = true_candidates(&server, request).await;
    assert_eq!(answer.verdict(), Verdict::LimitReached, "{answer:?}");
    assert!(answer.cells.is_empty(), "{answer:?}");
}

#[tokio::test]
async fn true_candidates_refuse_what_solve_refuses_and_grids_above_16() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let status = client
        .true_candidates(solve_request("12"))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let status = client
        .true_candidates(solve_request(&".".repeat(625)))
        .await
        .unwrap_err();
    common::assert_invalid(&status, "puzzle", &["16x16", "25x25"]);
}

/// Needs the variant solver and the f-puzzles reader for the variant items' verdicts; the order,
/// the ids and the bad item answered in place hold without them.
#[tokio::test]
async fn a_batch_mixing_classic_and_variant_items_answers_each_in_order() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let fpuzzles_item = |id: &str, text: String| SolveBatchRequest {
        id: id.into(),
        fpuzzles: text,
        ..Default::default()
    };
    let requests = vec![
        batch_item("classic", CLASSIC),
        fpuzzles_item("killer-json", fixture("killer.json")),
        fpuzzles_item("bad", fixture("classic.json")),
        fpuzzles_item(
            "jigsaw-link",
            format!("https://f-puzzles.com/?load={}", fixture("jigsaw.b64")),
        ),
        SolveBatchRequest {
            id: "killer-typed".into(),
            puzzle: KILLER_GIVENS.into(),
            rules: Some(Box::new(killer_rules())),
            ..Default::default()
        },
        batch_item("classic-again", CLASSIC),
    ];
    let mut requests = requests;
    // Both a puzzle and f-puzzles text: refused in place, the stream goes on.
    requests[2].puzzle = CLASSIC.into();
    let answers: Vec<_> = client
        .solve_batch(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner()
        .collect::<Result<Vec<_>, _>>()
        .await
        .unwrap();
    let ids: Vec<&str> = answers.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "classic",
            "killer-json",
            "bad",
            "jigsaw-link",
            "killer-typed",
            "classic-again"
        ]
    );
    assert!(answers.iter().enumerate().all(|(i, a)| a.index == i as u64));
    assert_eq!(answers[2].verdict(), Verdict::Invalid);
    assert!(answers[2].error.contains("fpuzzles"), "{:?}", answers[2]);
    for i in [0, 5] {
        assert_eq!(answers[i].solution, CLASSIC_SOLUTION);
    }
    for (i, solution) in [
        (1, CLASSIC_SOLUTION),
        (3, JIGSAW_SOLUTION),
        (4, CLASSIC_SOLUTION),
    ] {
        assert_eq!(answers[i].verdict(), Verdict::Unique, "{:?}", answers[i]);
        assert_eq!(answers[i].solution, solution, "{:?}", answers[i]);
    }
}

/// Needs the variant solver. A 16x16 answers in `1`-`9` then `A`-`G`, as the classic path writes it.
#[tokio::test]
async fn a_sixteen_variant_answers_in_letters_past_nine() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let request = SolveRequest {
        puzzle: ".".repeat(256),
        skip_uniqueness_check: true,
        rules: Some(Box::new(Rules {
            side: 16,
            ..Default::default()
        })),
        ..Default::default()
    };
    let answer = client.solve(request).await.unwrap().into_inner();
    assert_eq!(answer.verdict(), Verdict::Solved, "{answer:?}");
    assert_eq!((answer.box_rows, answer.box_cols), (4, 4));
    let symbols: std::collections::BTreeSet<char> = "123456789ABCDEFG".chars().collect();
    let rows: Vec<&str> = (0..16)
        .map(|r| &answer.solution[r * 16..(r + 1) * 16])
        .collect();
    for row in rows {
        assert_eq!(
            row.chars().collect::<std::collections::BTreeSet<_>>(),
            symbols
        );
    }
}

/// A variant's solve keeps to the request's guess budget, as a classic one does. (With the stub
/// solver this holds trivially.)
#[tokio::test]
async fn a_variant_past_its_budget_is_limit_reached() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let request = SolveRequest {
        puzzle: ".".repeat(81),
        max_guesses: 1,
        rules: Some(Box::new(Rules::default())),
        ..Default::default()
    };
    let answer = client.solve(request).await.unwrap().into_inner();
    assert_eq!(answer.verdict(), Verdict::LimitReached, "{answer:?}");
}
