//! The variant commands of the real binary: `solve --fpuzzles` and `true-candidates` locally, and
//! `client solve --fpuzzles`, `client true-candidates` and `client batch --fpuzzles` against a real
//! server on 127.0.0.1:0. The fixtures are those of tests/variants.rs.
//!
//! The tests that solve need the variant solver and the f-puzzles reader.

mod common;

use std::process::{Command, Output};

use common::{CLASSIC, CLASSIC_SOLUTION, TestServer};

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-grpc");

/// The jigsaw fixture's solution.
const JIGSAW_SOLUTION: &str =
    "679285143482513679391467258125874936738926415546139782854691327263748591917352864";

/// Runs the binary with `args`, off the async runtime so the server keeps serving.
async fn run(args: &[&str]) -> Output {
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    tokio::task::spawn_blocking(move || {
        Command::new(BIN)
            .args(&args)
            .env_remove("SUDOKU_SERVER")
            .output()
            .expect("the binary runs")
    })
    .await
    .expect("the runner did not panic")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fixture's path.
fn fixture(name: &str) -> String {
    format!("{}/tests/data/variants/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fixture's text, trimmed.
fn fixture_text(name: &str) -> String {
    std::fs::read_to_string(fixture(name))
        .expect("the fixture")
        .trim()
        .to_owned()
}

/// Needs the variant solver and the f-puzzles reader.
#[tokio::test]
async fn local_solve_takes_an_fpuzzles_file_or_link() {
    let link = format!(
        "https://www.f-puzzles.com/?load={}",
        fixture_text("jigsaw.b64")
    );
    for (value, solution) in [
        (fixture("killer.json"), CLASSIC_SOLUTION),
        (link, JIGSAW_SOLUTION),
    ] {
        let out = run(&["solve", "--fpuzzles", &value]).await;
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout).trim(), solution);
    }
}

#[tokio::test]
async fn local_solve_flags_unreadable_fpuzzles_text() {
    let out = run(&["solve", "--fpuzzles", "{not json"]).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("invalid fpuzzles: "), "{stdout}");
}

/// Needs the variant solver.
#[tokio::test]
async fn local_true_candidates_print_a_row_a_line() {
    let out = run(&["true-candidates", CLASSIC]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 10, "{stdout}");
    assert_eq!(lines[0], "unique");
    assert_eq!(lines[1], "5 3 4 6 7 8 9 1 2");
}

/// Needs the variant solver and the f-puzzles reader.
#[tokio::test]
async fn client_solve_and_true_candidates_take_fpuzzles() {
    let server = TestServer::start().await;
    let url = server.url();
    let out = run(&[
        "client",
        "--server",
        &url,
        "solve",
        "--fpuzzles",
        &fixture("killer.b64"),
    ])
    .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), CLASSIC_SOLUTION);
    let json = fixture_text("jigsaw.json");
    let out = run(&[
        "client",
        "--server",
        &url,
        "true-candidates",
        "--fpuzzles",
        &json,
    ])
    .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().next(), Some("unique"), "{stdout}");
    assert_eq!(
        stdout.lines().skip(1).collect::<Vec<_>>().join(" "),
        JIGSAW_SOLUTION
            .chars()
            .map(String::from)
            .collect::<Vec<_>>()
            .join(" ")
    );
}

#[tokio::test]
async fn client_solve_reports_refused_fpuzzles_text() {
    let server = TestServer::start().await;
    let out = run(&[
        "client",
        "--server",
        &server.url(),
        "solve",
        "--fpuzzles",
        "{not json",
    ])
    .await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).starts_with("invalid puzzle: fpuzzles: "),
        "{}",
        text(&out.stderr)
    );
}

/// Needs the variant solver and the f-puzzles reader for the answers; the bad line's place holds
/// without them.
#[tokio::test]
async fn client_batch_streams_fpuzzles_lines() {
    let server = TestServer::start().await;
    let lines = [
        fixture_text("killer.json"),
        "{not json".to_owned(),
        format!("https://f-puzzles.com/?load={}", fixture_text("jigsaw.b64")),
        fixture_text("classic.b64"),
    ];
    let path = std::env::temp_dir().join(format!("variants_cli_{}.txt", std::process::id()));
    std::fs::write(&path, lines.join("\n") + "\n").expect("the input file");
    let file = path.to_string_lossy().into_owned();
    let out = run(&[
        "client",
        "--server",
        &server.url(),
        "batch",
        "--fpuzzles",
        &file,
    ])
    .await;
    let _ = std::fs::remove_file(&path);
    let stdout = text(&out.stdout);
    let answers: Vec<&str> = stdout.lines().collect();
    assert_eq!(answers.len(), 4, "{stdout}\n{}", text(&out.stderr));
    assert!(answers[1].starts_with("invalid fpuzzles: "), "{stdout}");
    assert_eq!(out.status.code(), Some(1), "an invalid line means exit 1");
    assert_eq!(answers[0], CLASSIC_SOLUTION, "{stdout}");
    assert_eq!(answers[2], JIGSAW_SOLUTION, "{stdout}");
    assert_eq!(answers[3], CLASSIC_SOLUTION, "{stdout}");
}

/// Needs the variant solver, the f-puzzles reader and the logic engine on extra units.
#[tokio::test]
async fn local_grade_and_hint_take_unit_variants() {
    let windoku = fixture("extraregion.json");
    let out = run(&["grade", "--fpuzzles", &windoku]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // One line without --steps, as for a classic puzzle.
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.starts_with("MEDIUM 2.6 POINTING"), "{stdout}");
    let out = run(&["grade", "--steps", "--fpuzzles", &windoku]).await;
    let stdout = text(&out.stdout);
    assert!(stdout.contains("extra region"), "{stdout}");
    let out = run(&["hint", "--fpuzzles", &windoku]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|l| l.contains("fits only")),
        "{stdout}"
    );
    // Rules without techniques are refused by name, exit 1.
    let out = run(&["grade", "--fpuzzles", &fixture("killer.json")]).await;
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("rule 1 (cage)"),
        "{}",
        text(&out.stdout)
    );
}

/// Needs the variant solver, the f-puzzles reader and the logic engine on extra units.
#[tokio::test]
async fn client_grade_and_hint_take_unit_variants() {
    let server = TestServer::start().await;
    let url = server.url();
    let jigsaw = fixture("jigsaw.b64");
    let out = run(&["client", "--server", &url, "grade", "--fpuzzles", &jigsaw]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let local = run(&["grade", "--fpuzzles", &jigsaw]).await;
    assert_eq!(text(&out.stdout), text(&local.stdout));
    // A wrong entry on the board comes back as a mistake.
    let mut board = JIGSAW_SOLUTION.to_owned();
    board.replace_range(80..81, "1");
    let out = run(&[
        "client",
        "--server",
        &url,
        "hint",
        "--fpuzzles",
        &jigsaw,
        "--progress",
        &board,
    ])
    .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "mistake: r9c9 should not be 1");
    let out = run(&[
        "client",
        "--server",
        &url,
        "grade",
        "--fpuzzles",
        &fixture("killer.json"),
    ])
    .await;
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("rule 1 (cage)"),
        "{}",
        text(&out.stderr)
    );
}
