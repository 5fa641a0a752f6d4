//! Canonicalize through the real server on 127.0.0.1:0: keys and transforms that check out against
//! the core, equal keys for transformed puzzles, keys for clashing grids, and Solve's errors for
//! unreadable text.

mod common;

use common::{CLASSIC, TestServer};
use sudoku_core::canonicalization::{Transform, canonicalize};
use sudoku_core::grid::Grid;
use sudoku_grpc::proto::{CanonicalizeRequest, CanonicalizeResponse};
use tonic::Code;
use tonic_types::StatusExt;

fn request(puzzle: &str) -> CanonicalizeRequest {
    CanonicalizeRequest {
        puzzle: puzzle.to_owned(),
    }
}

/// Checks an answer against the puzzle: the transform reads back and maps the puzzle onto the key,
/// which is the core's key.
fn check(puzzle: &str, answer: &CanonicalizeResponse) {
    let grid = Grid::parse(puzzle).unwrap();
    assert_eq!(answer.canonical, canonicalize(&grid).unwrap().key());
    assert_eq!(answer.canonical.len(), 81);
    let transform: Transform = answer.transform.parse().unwrap();
    let image = transform.apply(&grid).unwrap();
    assert_eq!(Grid::parse(&answer.canonical).unwrap(), image);
    assert_eq!(transform.inverse().apply(&image).unwrap(), grid);
}

#[tokio::test]
async fn keys_check_out_and_survive_transformations() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let shuffle: Transform = "t=1;r=210543876;c=345012678;d=918273645".parse().unwrap();
    for puzzle in common::sample("17_clue_sample.txt").iter().step_by(25) {
        let answer = client
            .canonicalize(request(puzzle))
            .await
            .unwrap()
            .into_inner();
        check(puzzle, &answer);
        let moved = shuffle
            .apply(&Grid::parse(puzzle).unwrap())
            .unwrap()
            .to_string();
        let again = client
            .canonicalize(request(&moved))
            .await
            .unwrap()
            .into_inner();
        check(&moved, &again);
        assert_eq!(again.canonical, answer.canonical, "{puzzle} and {moved}");
    }
}

#[tokio::test]
async fn any_readable_grid_has_a_key() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let clash = format!("55{}", &CLASSIC[2..]);
    let pretty = "5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n. 9 8 | . . . | . 6 .\n";
    let pretty = format!("{pretty}{}", &CLASSIC[27..]);
    for puzzle in [
        CLASSIC,
        &clash,
        &".".repeat(81),
        &"0".repeat(81),
        &"9".repeat(81),
        &pretty,
    ] {
        let answer = client
            .canonicalize(request(puzzle))
            .await
            .unwrap()
            .into_inner();
        check(puzzle, &answer);
    }
    let empty = client
        .canonicalize(request(&".".repeat(81)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(empty.canonical, "0".repeat(81));
}

#[tokio::test]
async fn unreadable_text_gets_solves_invalid_argument() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let bad_char = format!("{}x{}", &CLASSIC[..20], &CLASSIC[21..]);
    let too_long = format!("{CLASSIC}5");
    for puzzle in [bad_char.as_str(), &CLASSIC[..80], &too_long, ""] {
        let status = client.canonicalize(request(puzzle)).await.unwrap_err();
        assert_eq!(
            status.code(),
            Code::InvalidArgument,
            "{puzzle:?}: {status:?}"
        );
        let solve = client
            .solve(common::solve_request(puzzle))
            .await
            .unwrap_err();
        assert_eq!(status.message(), solve.message(), "the same words as Solve");
        let details = status
            .get_details_bad_request()
            .expect("BadRequest details");
        assert_eq!(details.field_violations[0].field, "puzzle");
    }
    // A grid of another size reads, and is refused for its size.
    let status = client
        .canonicalize(request(&"1".repeat(256)))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(
        status.message().contains("9x9 grids only, not 16x16"),
        "{status:?}"
    );
}
