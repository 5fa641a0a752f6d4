//! SIGTERM on the real binary: health turns NOT_SERVING, an open stream drains, new RPCs are refused,
//! and the process exits 0; a stream that outlives the grace period cannot hold it up.

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
    use tonic_health::pb::{
        HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
    };
    let (child, url) = start_binary("10s");
    let channel = tonic::transport::Channel::from_shared(url.clone())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut health = HealthClient::new(channel.clone());
    let mut watch = health
        .watch(HealthCheckRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        watch.message().await.unwrap().unwrap().status(),
        ServingStatus::Serving
    );

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
    drop(health);
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
