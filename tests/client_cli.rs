//! The `client` and `load` commands: the real binary against real servers on 127.0.0.1:0.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::{CLASSIC, CLASSIC_SOLUTION, TestServer, assert_solves};

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-grpc");

/// Runs the binary with `args` and `stdin`, off the async runtime so the servers keep serving.
async fn run(args: Vec<String>, stdin: Option<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        let mut child = Command::new(BIN)
            .args(&args)
            .env_remove("SUDOKU_SERVER")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut input = child.stdin.take().expect("stdin is piped");
        if let Some(text) = stdin {
            // A command that refuses its arguments exits without reading its input: the closed
            // pipe is its answer, which its status and stderr tell, not a failure of the runner.
            match input.write_all(text.as_bytes()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                written => written.expect("stdin takes the input"),
            }
        }
        drop(input);
        child.wait_with_output().expect("the binary runs")
    })
    .await
    .expect("the runner did not panic")
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The first `n` puzzles of the 17-clue sample, as an input file's text with a comment and a blank line.
fn input(n: usize) -> (Vec<String>, String) {
    let puzzles: Vec<String> = common::sample("17_clue_sample.txt")
        .into_iter()
        .take(n)
        .collect();
    let mut file = String::from("# a comment\n\n");
    for p in &puzzles {
        file.push_str(p);
        file.push('\n');
    }
    (puzzles, file)
}

/// Checks that `stdout` answers `puzzles` in order, each with its unique solution.
fn assert_answers(puzzles: &[String], stdout: &str) {
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), puzzles.len(), "one answer per puzzle");
    for (puzzle, line) in puzzles.iter().zip(lines) {
        assert_solves(puzzle, line);
    }
}

#[tokio::test]
async fn client_solve_prints_the_solution() {
    let server = TestServer::start().await;
    let out = run(
        args(&["client", "--server", &server.url(), "solve", CLASSIC]),
        None,
    )
    .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), CLASSIC_SOLUTION);

    let out = run(
        args(&[
            "client",
            "solve",
            &".".repeat(81),
            "--server",
            &server.url(),
            "--request-id",
            "test-1",
            "--timeout",
            "5s",
        ]),
        None,
    )
    .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let solution = stdout
        .trim()
        .strip_prefix("multiple ")
        .expect("an empty grid has many solutions");
    assert_solves(&".".repeat(81), solution);
}

/// `HOST:PORT`, the form `serve --addr` takes and grpcurl uses, works wherever a server URL does.
#[tokio::test]
async fn host_and_port_without_a_scheme_name_a_server() {
    let server = TestServer::start().await;
    let addr = server.addr.to_string();
    let out = run(args(&["health", "--addr", &addr]), None).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "SERVING");
    let out = run(args(&["client", "--server", &addr, "solve", CLASSIC]), None).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), CLASSIC_SOLUTION);
}

#[tokio::test]
async fn client_solve_reports_an_invalid_puzzle() {
    let server = TestServer::start().await;
    let clash = format!("55{}", &CLASSIC[2..]);
    let out = run(
        args(&["client", "--server", &server.url(), "solve", &clash]),
        None,
    )
    .await;
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(
        text(&out.stderr).contains("invalid puzzle"),
        "{}",
        text(&out.stderr)
    );
}

#[tokio::test]
async fn client_batch_answers_in_order() {
    let server = TestServer::start().await;
    let (puzzles, file) = input(200);
    let out = run(
        args(&["client", "--server", &server.url(), "batch", "-"]),
        Some(file),
    )
    .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_answers(&puzzles, &text(&out.stdout));
    assert!(
        text(&out.stderr).contains("200 puzzles, 200 unique"),
        "{}",
        text(&out.stderr)
    );
}

#[tokio::test]
async fn client_batch_reads_a_file_and_flags_invalid_lines() {
    let server = TestServer::start().await;
    let path = std::env::temp_dir().join(format!("client_cli_{}.txt", std::process::id()));
    std::fs::write(&path, format!("{CLASSIC}\nnot a puzzle\n{CLASSIC}\n")).expect("temp file");
    let out = run(
        args(&[
            "client",
            "--server",
            &server.url(),
            "batch",
            &path.to_string_lossy(),
        ]),
        None,
    )
    .await;
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], CLASSIC_SOLUTION);
    assert!(lines[1].starts_with("invalid "), "{}", lines[1]);
    assert_eq!(lines[2], CLASSIC_SOLUTION);
    assert!(text(&out.stderr).contains("1 invalid"));
}

#[tokio::test]
async fn client_batch_spreads_over_two_servers_in_order() {
    let (a, b) = (TestServer::start().await, TestServer::start().await);
    // More than a few chunks, so both servers get several.
    let (puzzles, file) = input(1000);
    let out = run(
        args(&[
            "client",
            "--server",
            &a.url(),
            "--server",
            &b.url(),
            "batch",
        ]),
        Some(file),
    )
    .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_answers(&puzzles, &text(&out.stdout));
    assert!(text(&out.stderr).contains("1000 puzzles, 1000 unique"));
}

/// A dead endpoint among live ones costs nothing but a line on stderr: the others answer everything.
#[tokio::test]
async fn client_batch_goes_on_without_a_dead_server() {
    let server = TestServer::start().await;
    // A port nobody listens on: bind one, then let it go.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let dead_url = format!("http://{}", dead.local_addr().expect("an address"));
    drop(dead);
    let (puzzles, file) = input(10);
    let out = run(
        args(&[
            "client",
            "--server",
            &server.url(),
            "--server",
            &dead_url,
            "batch",
        ]),
        Some(file),
    )
    .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_answers(&puzzles, &text(&out.stdout));
    assert!(
        text(&out.stderr).contains(&format!("cannot connect to {dead_url}")),
        "{}",
        text(&out.stderr)
    );
}

#[tokio::test]
async fn load_batch_prints_its_figures() {
    let server = TestServer::start().await;
    let sample = common::sample_path("17_clue_sample.txt");
    let out = run(
        args(&[
            "load",
            "--server",
            &server.url(),
            "batch",
            "--limit",
            "300",
            "--streams",
            "3",
            "--compare-local",
            "--rounds",
            "2",
            &sample,
        ]),
        None,
    )
    .await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("SolveBatch boards/s"), "{stdout}");
    assert!(stdout.contains("SolveBatch / in-process"), "{stdout}");
    assert!(
        stdout.contains("medians of 2 alternated rounds"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "17_clue_sample.txt: 300 puzzles, 300 unique in the last round; 0 wrong in all 2 rounds"
        ),
        "{stdout}"
    );
}

#[tokio::test]
async fn load_batch_can_start_its_own_server() {
    let sample = common::sample_path("forum_hardest_1905_11plus_sample.txt");
    let out = run(
        args(&["load", "--spawn-server", "batch", "--limit", "100", &sample]),
        None,
    )
    .await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("in-process server"), "{stdout}");
    assert!(stdout.contains("100 puzzles"), "{stdout}");
    assert!(stdout.contains("; 0 wrong"), "{stdout}");
}

#[tokio::test]
async fn load_mixed_probes_beside_streams_stalled_readers_and_long_solves() {
    let sample = common::sample_path("forum_hardest_1905_11plus_sample.txt");
    let probes = common::sample_path("17_clue_sample.txt");
    let long = common::sample_path("gecode_25x25_hard.txt");
    let out = run(
        args(&[
            "load",
            "--spawn-server",
            "mixed",
            "--streams",
            "2",
            "--stalled",
            "1",
            "--long",
            "1",
            "--long-file",
            &long,
            "--alone",
            "200ms",
            "--limit",
            "200",
            "--probe-file",
            &probes,
            &sample,
        ]),
        None,
    )
    .await;
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    for phase in [
        "probes alone",
        "2 streams",
        "2 streams + 1 stalled",
        "2 streams + 1 long solve",
    ] {
        assert!(stdout.contains(&format!("| {phase} ")), "{stdout}");
    }
    for phase in ["2 streams + 1 stalled", "2 streams + 1 long solve"] {
        let answers = format!("{phase}: SolveBatch answers: 200 puzzles, 200 unique; 0 wrong");
        assert!(stdout.contains(&answers), "{stdout}");
    }
}

#[tokio::test]
async fn load_unary_prints_its_figures() {
    let server = TestServer::start().await;
    let (url, sample) = (server.url(), common::sample_path("17_clue_sample.txt"));
    // `load unary` with `call` flags against the server: its stdout, once it succeeded.
    let load = async |call: &[&str], requests: &str| {
        let mut line = vec!["load", "--server", &url, "unary"];
        line.extend(call);
        line.extend(["--concurrency", "4", "--requests", requests, &sample]);
        let out = run(args(&line), None).await;
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        stdout
    };
    let stdout = load(&[], "200").await;
    for column in ["RPS", "p50", "p99", "max"] {
        assert!(stdout.contains(column), "{stdout}");
    }
    assert!(stdout.contains("errors by status code: none"), "{stdout}");
    assert!(
        stdout.contains("200 puzzles, 200 unique; 0 wrong"),
        "{stdout}"
    );

    // The same through Grade.
    let stdout = load(&["--grade"], "50").await;
    assert!(stdout.starts_with("unary Grade load"), "{stdout}");
    assert!(
        stdout.contains("50 puzzles, 50 unique; 0 wrong"),
        "{stdout}"
    );
}

#[tokio::test]
async fn local_solve_answers_each_line_and_flags_invalid_ones() {
    let empty = ".".repeat(81);
    let lines = format!("# a comment\n{CLASSIC}\n\nbad\n{empty}\n");
    let out = run(args(&["solve", "-"]), Some(lines)).await;
    assert_eq!(
        out.status.code(),
        Some(1),
        "an invalid line makes the exit code 1"
    );
    let stdout = text(&out.stdout);
    let answers: Vec<&str> = stdout.lines().collect();
    assert_eq!(answers.len(), 3, "{stdout}");
    assert_eq!(answers[0], CLASSIC_SOLUTION);
    assert!(
        answers[1].starts_with("invalid expected 16 cells, found 3"),
        "{}",
        answers[1]
    );
    let multiple = answers[2]
        .strip_prefix("multiple ")
        .expect("a multiple line");
    assert_solves(&empty, multiple);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("3 puzzles, 1 invalid, 1 multiple, 1 unique"),
        "{stderr}"
    );
}

/// `canon` locally and `client canon` through a server print the same lines: key and transform per
/// puzzle, `invalid ...` for a bad line, and exit 1 then.
#[tokio::test]
async fn canon_prints_keys_locally_and_through_a_server() {
    let server = TestServer::start().await;
    let (puzzles, mut file) = input(20);
    file.push_str("not a puzzle\n");
    let local = run(args(&["canon", "-"]), Some(file.clone())).await;
    let remote = run(
        args(&["client", "--server", &server.url(), "canon", "-"]),
        Some(file),
    )
    .await;
    assert_eq!(local.status.code(), Some(1), "{}", text(&local.stderr));
    assert_eq!(remote.status.code(), Some(1), "{}", text(&remote.stderr));
    assert_eq!(text(&local.stdout), text(&remote.stdout));
    let stdout = text(&local.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), puzzles.len() + 1);
    for (puzzle, line) in puzzles.iter().zip(&lines) {
        let (key, transform) = line.split_once(' ').expect("key and transform");
        let transform: sudoku_core::canonicalization::Transform = transform.parse().unwrap();
        let grid = sudoku_core::grid::Grid::parse(puzzle).unwrap();
        assert_eq!(
            transform.apply(&grid).unwrap().to_string(),
            key.replace('0', ".")
        );
    }
    assert!(
        lines[puzzles.len()].starts_with("invalid expected 16 cells, found 10"),
        "{stdout}"
    );
}

/// Clashing givens are invalid input with their place, while a puzzle that is merely unsolvable says
/// so; the solver looks for the clash only after finding no solution, so both must still come out
/// right, in order, with the lines around them answered.
#[tokio::test]
async fn local_solve_tells_clashing_givens_from_unsolvable_puzzles() {
    let clash = format!("55{}", &CLASSIC[2..]);
    let unsolvable = format!("12345678.........9{}", ".".repeat(63));
    let lines = format!("{clash}\n{unsolvable}\n{CLASSIC}\n");
    let out = run(args(&["solve", "-"]), Some(lines)).await;
    assert_eq!(out.status.code(), Some(1), "a clash is invalid input");
    let stdout = text(&out.stdout);
    let answers: Vec<&str> = stdout.lines().collect();
    assert_eq!(answers.len(), 3, "{stdout}");
    assert!(
        answers[0].starts_with("invalid digit 5 appears twice in row 1"),
        "{}",
        answers[0]
    );
    assert_eq!(answers[1], "unsolvable");
    assert_eq!(answers[2], CLASSIC_SOLUTION);
}

/// `grade` prints one line a puzzle (its path only with `--steps`; `--effort` takes a multiple of
/// the budget), and `hint` explains its step.
#[tokio::test]
async fn local_grade_prints_a_line_a_puzzle_and_hint_explains_itself() {
    let puzzles = format!("{CLASSIC}\n{CLASSIC}\n");
    let out = run(vec!["grade".into(), "-".into()], Some(puzzles.clone())).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        ["BEGINNER 1.2 HIDDEN_SINGLE ER/EP/ED 1.2/1.2/1.2"; 2],
        "{stdout}"
    );
    let out = run(
        vec!["grade".into(), "--steps".into(), "-".into()],
        Some(puzzles),
    )
    .await;
    let stdout = text(&out.stdout);
    assert!(stdout.lines().count() > 100, "{stdout}");
    assert!(
        stdout.contains("In box 2, 8 fits only in r1c6."),
        "{stdout}"
    );
    let out = run(vec!["hint".into(), CLASSIC.into()], None).await;
    assert_eq!(
        text(&out.stdout).trim(),
        "1.2 HIDDEN_SINGLE: In box 2, 8 fits only in r1c6."
    );
    // A larger effort budget grades the same; none at all is refused.
    let args = |effort: &str| vec!["grade".into(), "--effort".into(), effort.into(), "-".into()];
    let out = run(args("3"), Some(format!("{CLASSIC}\n"))).await;
    assert_eq!(
        text(&out.stdout).trim(),
        "BEGINNER 1.2 HIDDEN_SINGLE ER/EP/ED 1.2/1.2/1.2"
    );
    let out = run(args("0"), Some(format!("{CLASSIC}\n"))).await;
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--effort"),
        "{}",
        text(&out.stderr)
    );
}
