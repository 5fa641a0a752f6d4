//! SIGTERM on the real binary: health turns NOT_SERVING, an open stream drains, new RPCs are refused,
//! and the process exits 0; a stream that outlives the grace period cannot hold it up. And in process:
//! a stream still open near the end of the grace ends with UNAVAILABLE "draining ...".

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{CLASSIC, assert_solves};
use sudoku_grpc::proto::SolveBatchRequest;
use sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient;

/// Starts `sudoku-grpc serve` on a free loopback port and returns it with its address.
fn start_binary(grace: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-grpc"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--metrics-addr",
            "off",
            "--shutdown-grace",
            grace,
        ])
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("the server logs its address").unwrap();
        if let Some(rest) = line.split("addr=Some(").nth(1) {
            break rest.split(')').next().unwrap().to_owned();
        }
    };
    // Keep draining the logs so the server never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (child, format!("http://{addr}"))
}

fn sigterm(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits for the server to exit, which must happen within `limit`; kills it otherwise.
fn wait_exit(mut child: Child, limit: Duration) -> std::process::ExitStatus {
    let pid = child.id().to_string();
    let (exited, exit) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = exited.send(child.wait());
    });
    match exit.recv_timeout(limit) {
        Ok(status) => status.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
            panic!("the server did not exit within {limit:?}");
        }
    }
}

fn item(i: usize) -> SolveBatchRequest {
    common::batch_item(&i.to_string(), CLASSIC)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_drains_an_open_stream_refuses_new_calls_and_exits_zero() {
    use tonic_health::pb::health_check_response::ServingStatus;
    let (child, url) = start_binary("10s");
    let channel = tonic::transport::Channel::from_shared(url.clone())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut watch = common::watch_health_serving(channel.clone()).await;

    let mut client = SudokuServiceClient::new(channel.clone());
    let (tx, mut answers) = common::open_batch(&mut client).await;
    tx.send(item(0)).await.unwrap();
    assert_eq!(answers.message().await.unwrap().unwrap().index, 0);

    sigterm(&child);
    assert_eq!(
        watch.message().await.unwrap().unwrap().status(),
        ServingStatus::NotServing
    );

    // The open stream goes on being served.
    for i in 1..=5 {
        tx.send(item(i)).await.unwrap();
        let answer = answers.message().await.unwrap().unwrap();
        assert_eq!(answer.index, i as u64);
        assert_solves(CLASSIC, &answer.solution);
    }
    // A new connection is refused.
    let fresh = tonic::transport::Channel::from_shared(url)
        .unwrap()
        .connect()
        .await;
    assert!(
        fresh.is_err(),
        "a new connection was accepted after SIGTERM"
    );

    drop(tx);
    assert!(
        answers.message().await.unwrap().is_none(),
        "the drained stream ends OK"
    );
    drop(watch);
    drop(client);
    drop(channel);
    let status = tokio::task::spawn_blocking(move || wait_exit(child, Duration::from_secs(12)))
        .await
        .unwrap();
    assert!(status.success(), "{status:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_left_open_cannot_hold_shutdown_past_the_grace_period() {
    let (child, url) = start_binary("1s");
    let channel = tonic::transport::Channel::from_shared(url)
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = SudokuServiceClient::new(channel);
    let (tx, mut answers) = common::open_batch(&mut client).await;
    tx.send(item(0)).await.unwrap();
    answers.message().await.unwrap().unwrap();

    let started = Instant::now();
    sigterm(&child);
    let status = tokio::task::spawn_blocking(move || wait_exit(child, Duration::from_secs(10)))
        .await
        .unwrap();
    assert!(status.success(), "{status:?}");
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "it waited out the grace period"
    );
    drop(tx);
}

/// Reads `answers` to its end: the answers, each checked against its puzzle and numbered from 0,
/// then the status it ended with (OK if it ended cleanly).
async fn read_to_end(
    answers: &mut tonic::Streaming<sudoku_grpc::proto::SolveBatchResponse>,
    puzzles: &[String],
    from: usize,
) -> (usize, tonic::Status) {
    let mut next = from;
    loop {
        match answers.message().await {
            Ok(Some(answer)) => {
                assert_eq!(
                    answer.index, next as u64,
                    "answers come in order, none skipped"
                );
                assert_solves(&puzzles[next], &answer.solution);
                next += 1;
            }
            Ok(None) => return (next, tonic::Status::ok("")),
            Err(status) => return (next, status),
        }
    }
}

/// A draining server ends a SolveBatch still running near the end of its grace with UNAVAILABLE
/// "draining ...", after a prefix of the answers in order, instead of letting the connection be cut.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_still_open_near_the_end_of_the_grace_ends_unavailable_draining() {
    let grace = Duration::from_secs(2);
    let mut server = common::TestServer::start_with(|c| c.shutdown_grace = grace).await;
    // Quick puzzles, then one that takes far longer than the grace, then quick ones again: those
    // behind the slow one are solved but cannot go out before it, in order.
    let quick = common::sample("17_clue_sample.txt");
    let slow = common::sample("gecode_25x25_hard.txt").remove(0);
    let mut puzzles: Vec<String> = quick[..40].to_vec();
    puzzles.push(slow);
    puzzles.extend_from_slice(&quick[40..80]);
    let requests: Vec<SolveBatchRequest> = puzzles
        .iter()
        .enumerate()
        .map(|(i, puzzle)| SolveBatchRequest {
            max_guesses: 100_000_000,
            ..common::batch_item(&i.to_string(), puzzle)
        })
        .collect();

    let mut client = server.client().await;
    let (tx, mut answers) = common::open_batch(&mut client).await;
    // The request stream stays open all along: the client would send more.
    let sender = tokio::spawn(async move {
        for request in requests {
            tx.send(request).await.unwrap();
        }
        tx
    });
    let first = answers.message().await.unwrap().unwrap();
    assert_eq!(first.index, 0);
    assert_solves(&puzzles[0], &first.solution);

    let began = Instant::now();
    server.shutdown();
    let (answered, status) = read_to_end(&mut answers, &puzzles, 1).await;
    assert_eq!(status.code(), tonic::Code::Unavailable, "{status:?}");
    assert!(
        status.message().starts_with("draining"),
        "{}",
        status.message()
    );
    assert!(
        status
            .message()
            .contains(&format!("from index {answered} on")),
        "the status says where the unanswered items begin: {}",
        status.message()
    );
    assert!(
        status.message().contains("another server"),
        "{}",
        status.message()
    );
    // The slow puzzle never came back, so neither did any after it.
    assert!((1..=40).contains(&answered), "{answered} answers");
    assert!(
        began.elapsed() >= grace / 2,
        "the stream ran on through most of the grace: {:?}",
        began.elapsed()
    );

    let _tx = sender.await.unwrap();
    server.stop(Duration::from_secs(10)).await;
}

/// Generate ends the same way when the server drains.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generate_stream_still_open_near_the_end_of_the_grace_ends_unavailable_draining() {
    use sudoku_grpc::proto::GenerateRequest;
    let mut server =
        common::TestServer::start_with(|c| c.shutdown_grace = Duration::from_secs(1)).await;
    let mut client = server.client().await;
    let request = GenerateRequest {
        count: 10_000,
        minimal: true,
        ..Default::default()
    };
    let mut puzzles = client.generate(request).await.unwrap().into_inner();
    assert_eq!(puzzles.message().await.unwrap().unwrap().index, 0);
    server.shutdown();
    let mut next = 1;
    let status = loop {
        match puzzles.message().await {
            Ok(Some(puzzle)) => {
                assert_eq!(puzzle.index, next);
                next += 1;
            }
            Ok(None) => panic!("all 10,000 puzzles were made within the grace"),
            Err(status) => break status,
        }
    };
    assert_eq!(status.code(), tonic::Code::Unavailable, "{status:?}");
    assert!(
        status.message().starts_with("draining")
            && status.message().contains(&format!("from index {next} on")),
        "{}",
        status.message()
    );
    server.stop(Duration::from_secs(10)).await;
}
