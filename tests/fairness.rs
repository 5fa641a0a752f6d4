//! No client can hold the solvers from the others: stalled readers, streams of very different sizes
//! side by side, and a deadline that stops a solve in the middle, against the real server on loopback.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use common::{CLASSIC, CLASSIC_SOLUTION, TestServer, batch_item, solve_request};
use prost::Message;
use sudoku_grpc::proto::{SolveBatchRequest, Verdict};

/// Solver threads of the servers here: fewer than the stalled streams of the second test.
const WORKERS: usize = 2;
/// Each stream's window: small, so a stalled stream stalls soon.
const WINDOW: usize = 16;
/// Requests a stalled client sends: far more than its window and its transport buffers hold.
const STALLED_REQUESTS: usize = 3000;

/// Unsolvable, and slow to prove so: seconds in a debug build, a large part of a second in release.
const SLOW_UNSOLVABLE: &str =
    ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........";

const SOLVING: &str = "sudoku_puzzles_in_flight";
const CUT_OFF_BY_DEADLINE: &str = "sudoku_puzzles_cut_off_total{reason=\"deadline_exceeded\"}";

fn hard_puzzles() -> Vec<String> {
    common::sample("forum_hardest_1905_11plus_sample.txt")
}

/// Waits until `series` reads `value`, for at most ten seconds.
async fn wait_for_metric(server: &TestServer, series: &str, value: f64) {
    wait_until_metric(server, series, |v| v == value, value).await;
}

/// Waits until `series` is at least `value` (at most 10 s).
async fn wait_for_metric_at_least(server: &TestServer, series: &str, value: f64) {
    wait_until_metric(server, series, |v| v >= value, value).await;
}

async fn wait_until_metric(
    server: &TestServer,
    series: &str,
    holds: impl Fn(f64) -> bool,
    value: f64,
) {
    let started = Instant::now();
    while !holds(server.metric(series).await) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{series} never reached {value}"
        );
        tokio::task::yield_now().await;
    }
}

/// A SolveBatch client that sends many hard puzzles and never reads an answer, on its own
/// connection with a small receive window, as a stuck or hostile client does. It stays open until
/// dropped.
struct StalledReader {
    _send: h2::SendStream<Bytes>,
    _response: h2::client::ResponseFuture,
}

impl StalledReader {
    async fn open(server: &TestServer) -> StalledReader {
        let tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        let (client, connection) = h2::client::Builder::new()
            .initial_window_size(1024)
            .handshake(tcp)
            .await
            .unwrap();
        tokio::spawn(connection);
        let mut client = client.ready().await.unwrap();
        let request = http::Request::builder()
            .method("POST")
            .uri(format!(
                "http://{}/sudoku.v1.SudokuService/SolveBatch",
                server.addr
            ))
            .header("content-type", "application/grpc")
            .header("te", "trailers")
            .body(())
            .unwrap();
        let (response, mut send) = client.send_request(request, false).unwrap();
        let puzzles = hard_puzzles();
        for i in 0..STALLED_REQUESTS {
            let request = batch_item(&i.to_string(), &puzzles[i % puzzles.len()]);
            // h2 buffers what the server's window does not take yet.
            send.send_data(common::grpc_frame(&request.encode_to_vec()), false)
                .unwrap();
        }
        StalledReader {
            _send: send,
            _response: response,
        }
    }
}

/// Twenty unary calls, and a stream of `stream` hard puzzles, each answered right and in order.
async fn others_are_served(server: &TestServer, stream: usize) {
    let mut client = server.client().await;
    for _ in 0..20 {
        let answer = client.solve(solve_request(CLASSIC)).await.unwrap();
        assert_eq!(answer.into_inner().solution, CLASSIC_SOLUTION);
    }
    stream_is_answered(server, stream).await;
}

/// A stream of the first `count` hard puzzles, each answered right and in order.
async fn stream_is_answered(server: &TestServer, count: usize) {
    let puzzles: Vec<String> = hard_puzzles().into_iter().take(count).collect();
    let requests: Vec<SolveBatchRequest> = puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| batch_item(&i.to_string(), p))
        .collect();
    let mut answers = server
        .client()
        .await
        .solve_batch(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner();
    let mut answered = 0;
    while let Some(answer) = answers.message().await.unwrap() {
        assert_eq!(answer.index, answered as u64);
        assert_eq!(answer.verdict(), Verdict::Unique);
        common::assert_solves(&puzzles[answered], &answer.solution);
        answered += 1;
    }
    assert_eq!(answered, puzzles.len());
}

/// While `stalled` readers sit on the server, unary calls and another stream are all answered.
async fn others_are_served_beside_stalled_readers(stalled: usize) {
    let server = TestServer::start_with(|c| {
        c.max_concurrent_solves = WORKERS;
        c.batch_window = WINDOW;
    })
    .await;
    let mut readers = Vec::new();
    for _ in 0..stalled {
        readers.push(StalledReader::open(&server).await);
    }
    // Each stalled stream is read up to its window, answered as far as its transport takes, and
    // then left alone: the workers go idle although thousands of its puzzles wait unread. (The
    // workers are also idle for a moment before a stream has read its next requests: wait until
    // items are held too.)
    let answered = "sudoku_puzzles_total{verdict=\"VERDICT_UNIQUE\"}";
    let held = "sudoku_batch_items_in_flight";
    let started = Instant::now();
    loop {
        let (done, solving, holding) = (
            server.metric(answered).await,
            server.metric(SOLVING).await,
            server.metric(held).await,
        );
        if done > 0.0 && solving == 0.0 && holding > 0.0 {
            break;
        }
        let aside = server.metric("sudoku_solves_aside").await;
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "never stalled: {done} answered, {solving} solving ({aside} set aside), {holding} held"
        );
        tokio::task::yield_now().await;
    }
    let held = server.metric(held).await;
    assert!(
        held > 0.0 && held <= (stalled * WINDOW) as f64,
        "{held} items held by {stalled} stalled streams"
    );

    others_are_served(&server, 50).await;

    // The stalled streams are still open, still holding no more than their windows.
    let held = server.metric("sudoku_batch_items_in_flight").await;
    assert!(held > 0.0 && held <= (stalled * WINDOW) as f64, "{held}");
    drop(readers);
    wait_for_metric(&server, "sudoku_batch_items_in_flight", 0.0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_stalled_reader_leaves_unary_calls_and_other_streams_served() {
    others_are_served_beside_stalled_readers(1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn more_stalled_readers_than_workers_leave_the_others_served() {
    others_are_served_beside_stalled_readers(2 * WORKERS).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_stream_finishes_while_a_huge_one_runs() {
    const HUGE: u64 = 1_000_000;
    // One worker: the streams can only progress together by taking turns on it.
    let server = TestServer::start_with(|c| c.max_concurrent_solves = 1).await;
    let easy = common::sample("17_clue_sample.txt");
    let huge = (0..HUGE).map(move |i| batch_item(&i.to_string(), &easy[i as usize % easy.len()]));
    let mut client = server.client().await;
    let mut huge_answers = client
        .solve_batch(tokio_stream::iter(huge))
        .await
        .unwrap()
        .into_inner();
    let huge_answered = Arc::new(AtomicU64::new(0));
    let (started, huge_started) = tokio::sync::oneshot::channel();
    let reader = {
        let huge_answered = huge_answered.clone();
        tokio::spawn(async move {
            let mut started = Some(started);
            while let Ok(Some(answer)) = huge_answers.message().await {
                assert_eq!(answer.index, huge_answered.load(Ordering::SeqCst));
                huge_answered.fetch_add(1, Ordering::SeqCst);
                if let Some(started) = started.take() {
                    let _ = started.send(());
                }
            }
        })
    };
    huge_started.await.unwrap();

    stream_is_answered(&server, 10).await;
    let huge_done = huge_answered.load(Ordering::SeqCst);
    assert!(
        huge_done > 0 && huge_done < HUGE,
        "the huge stream had {huge_done} answers when the small one finished"
    );
    // Both progressed together: the huge stream goes on after the small one is done.
    let deadline = Instant::now() + Duration::from_secs(10);
    while huge_answered.load(Ordering::SeqCst) <= huge_done + 100 {
        assert!(Instant::now() < deadline, "the huge stream stopped");
        tokio::task::yield_now().await;
    }
    reader.abort();
}

/// Calls `method` with one request for `puzzle` and a 50 ms deadline, and returns the grpc-status
/// the server answers. Raw h2: tonic's own client would run a timer on the same deadline and report
/// CANCELLED instead of the server's answer.
async fn call_with_50ms_deadline(server: &TestServer, method: &str, puzzle: &str) -> String {
    let message = match method {
        "Solve" => solve_request(puzzle).encode_to_vec(),
        _ => batch_item("0", puzzle).encode_to_vec(),
    };
    let path = format!("/sudoku.v1.SudokuService/{method}");
    let (response, mut send) =
        common::raw_call(server.addr, &path, &[("grpc-timeout", "50m")]).await;
    send.send_data(common::grpc_frame(&message), true).unwrap();
    let (head, mut body) = response.await.unwrap().into_parts();
    assert!(body.data().await.is_none(), "an answer past the deadline");
    let trailers = body.trailers().await.unwrap().unwrap_or_default();
    let status = trailers
        .get("grpc-status")
        .or(head.headers.get("grpc-status"));
    status.unwrap().to_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_stops_a_solve_in_the_middle() {
    // One worker: the call after the deadline is answered only once the slow solve has stopped.
    let server = TestServer::start_with(|c| c.max_concurrent_solves = 1).await;
    let status = call_with_50ms_deadline(&server, "Solve", SLOW_UNSOLVABLE).await;
    assert_eq!(status, "4", "DEADLINE_EXCEEDED");

    // The solver had started (its time is recorded) and was stopped, not run to its verdict.
    wait_for_metric(&server, CUT_OFF_BY_DEADLINE, 1.0).await;
    wait_for_metric(&server, SOLVING, 0.0).await;
    assert_eq!(server.metric("sudoku_solve_time_seconds_count").await, 1.0);
    let text = server.metrics().await;
    assert!(!text.contains("VERDICT_UNSOLVABLE"), "{text}");

    // The same on a stream: the deadline fires while its only item is being solved.
    let status = call_with_50ms_deadline(&server, "SolveBatch", SLOW_UNSOLVABLE).await;
    assert_eq!(status, "4", "DEADLINE_EXCEEDED");
    wait_for_metric(&server, CUT_OFF_BY_DEADLINE, 2.0).await;

    // The one worker is free again.
    let mut client = server.client().await;
    let answer = client.solve(solve_request(CLASSIC)).await.unwrap();
    assert_eq!(answer.into_inner().solution, CLASSIC_SOLUTION);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_unary_call_is_counted_and_stops_its_solve() {
    let server = TestServer::start_with(|c| c.max_concurrent_solves = 1).await;
    let mut client = server.client().await;
    let (started, solving) = tokio::sync::oneshot::channel();
    let call = tokio::spawn(async move {
        let _ = started.send(());
        client.solve(solve_request(SLOW_UNSOLVABLE)).await
    });
    solving.await.unwrap();
    wait_for_metric(&server, SOLVING, 1.0).await;
    // The client gives up: its call is dropped, and h2 resets the stream.
    call.abort();
    wait_for_metric(
        &server,
        "sudoku_rpc_requests_total{method=\"Solve\",code=\"Cancelled\"}",
        1.0,
    )
    .await;
    wait_for_metric(
        &server,
        "sudoku_puzzles_cut_off_total{reason=\"cancelled\"}",
        1.0,
    )
    .await;
    wait_for_metric(&server, SOLVING, 0.0).await;
    let text = server.metrics().await;
    assert!(!text.contains("VERDICT_UNSPECIFIED"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_solves_step_aside_for_the_calls_behind_them() {
    const SET_ASIDE: &str = "sudoku_solves_set_aside_total";
    const LONG: usize = 2 * WORKERS;
    let server = TestServer::start_with(|c| c.max_concurrent_solves = WORKERS).await;
    let hard = common::sample("gecode_25x25_hard.txt").remove(0);
    // Twice as many long solves as workers, each allowed minutes of search.
    let mut long = Vec::new();
    for _ in 0..LONG {
        let mut client = server.client().await;
        let mut request = solve_request(&hard);
        request.max_guesses = 100_000_000;
        long.push(tokio::spawn(async move { client.solve(request).await }));
    }
    // Those on the workers were set aside for those behind them, so all four run.
    wait_for_metric(&server, SOLVING, LONG as f64).await;
    assert!(server.metric(SET_ASIDE).await >= WORKERS as f64);

    // Both workers hold a long solve, yet every short call and stream is served.
    others_are_served(&server, 20).await;
    // The first short call waited, so a long solve on a worker was set aside for it too: one, or
    // both if their slices ran out together (a fresh worker then serves the calls behind, so the
    // other need not step aside). The replacing worker may serve the call before the count is taken.
    wait_for_metric_at_least(&server, SET_ASIDE, (WORKERS + 1) as f64).await;
    wait_for_metric_at_least(&server, "sudoku_solves_aside", (WORKERS + 1) as f64).await;
    assert!(
        long.iter().all(|call| !call.is_finished()),
        "a long solve ended"
    );

    // Their clients give up: the solves stop, and their threads end.
    for call in long {
        call.abort();
    }
    wait_for_metric(&server, SOLVING, 0.0).await;
    wait_for_metric(&server, "sudoku_solves_aside", 0.0).await;
}
