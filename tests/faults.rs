//! Deadlines, cancellation, overload, hostile input and shutdown, against the real server on loopback,
//! with gRPC's interop cases that fit a server with one unary and one bidi RPC.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use common::{CLASSIC, CLASSIC_SOLUTION, TestServer, batch_item, solve_request};
use sudoku_grpc::proto::{SolveBatchRequest, SolveRequest, Verdict};
use tonic::{Code, Request};

fn hard_puzzles() -> Vec<String> {
    common::sample("forum_hardest_1905_11plus_sample.txt")
}

/// An endless (but bounded) stream of hard puzzles, counting how many the transport has taken.
fn hard_stream(
    limit: usize,
    taken: Arc<AtomicUsize>,
) -> impl tokio_stream::Stream<Item = SolveBatchRequest> {
    let puzzles = hard_puzzles();
    tokio_stream::iter((0..limit).map(move |i| {
        taken.fetch_add(1, Ordering::SeqCst);
        SolveBatchRequest {
            id: i.to_string(),
            puzzle: puzzles[i % puzzles.len()].clone(),
            ..Default::default()
        }
    }))
}

/// Waits until `series` reads `value`, for at most five seconds.
async fn wait_for_metric(server: &TestServer, series: &str, value: f64) {
    let started = Instant::now();
    while server.metric(series).await != value {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{series} never reached {value}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

const ANSWERED: &str = "sudoku_puzzles_total{verdict=\"VERDICT_UNIQUE\"}";
const SOLVING: &str = "sudoku_puzzles_in_flight";
const BATCH_ITEMS: &str = "sudoku_batch_items_in_flight";
const CUT_OFF_BY_CANCEL: &str = "sudoku_puzzles_cut_off_total{reason=\"cancelled\"}";

#[tokio::test]
async fn unary_deadline_gives_deadline_exceeded_and_a_generous_one_does_not() {
    let server = TestServer::start().await;
    // A raw client: tonic's own client runs a timer on the same deadline and reports its expiry as
    // CANCELLED on its side, which would hide what the server answered.
    let mut message = vec![0x0a, 81];
    message.extend_from_slice(hard_puzzles()[0].as_bytes());
    let path = "/sudoku.v1.SudokuService/Solve";
    let (status, text, _) = raw_unary(&server, path, &message, &[("grpc-timeout", "1m")]).await;
    assert_eq!(status, "4", "{text}");

    let mut client = server.client().await;
    let mut request = Request::new(solve_request(CLASSIC));
    request.set_timeout(Duration::from_secs(10));
    assert_eq!(
        client.solve(request).await.unwrap().into_inner().solution,
        CLASSIC_SOLUTION
    );
}

#[tokio::test]
async fn stream_deadline_ends_the_stream_and_its_solves() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut request = Request::new(hard_stream(100_000, Arc::default()));
    request.set_timeout(Duration::from_millis(300));
    let started = Instant::now();
    let mut answers = client.solve_batch(request).await.unwrap().into_inner();
    let mut received = 0;
    let status = loop {
        match answers.message().await {
            Ok(Some(answer)) => {
                assert_eq!(answer.index, received);
                received += 1;
            }
            Ok(None) => panic!("the stream ended OK after {received} answers, past its deadline"),
            Err(status) => break status,
        }
    };
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(received < 100_000);
    wait_for_metric(&server, SOLVING, 0.0).await;
    wait_for_metric(&server, BATCH_ITEMS, 0.0).await;
}

#[tokio::test]
async fn interop_timeout_on_sleeping_server() {
    let server = TestServer::start().await;
    // A SolveBatch with a 1 ms deadline that sends nothing and stays open: only the deadline can end
    // it. Raw h2, because tonic's client would report its own timer as CANCELLED.
    let path = "/sudoku.v1.SudokuService/SolveBatch";
    let (response, _open) = common::raw_call(server.addr, path, &[("grpc-timeout", "1m")]).await;
    let response = tokio::time::timeout(Duration::from_secs(5), response)
        .await
        .unwrap()
        .unwrap();
    let mut body = response.into_body();
    assert!(body.data().await.is_none(), "no answers");
    let trailers = body.trailers().await.unwrap().unwrap();
    assert_eq!(trailers.get("grpc-status").unwrap(), "4");
}

#[tokio::test]
async fn interop_cancel_after_first_response_stops_the_work() {
    let server = TestServer::start().await;
    {
        let mut client = server.client().await;
        let (cancel, cancelled) = tokio::sync::oneshot::channel::<()>();
        let requests =
            futures::StreamExt::take_until(hard_stream(100_000, Arc::default()), cancelled);
        let mut answers = client.solve_batch(requests).await.unwrap().into_inner();
        assert_eq!(answers.message().await.unwrap().unwrap().index, 0);
        // A cancelling client drops both halves of the call; h2 then resets the stream.
        drop(cancel);
        drop(answers);
    }
    wait_for_metric(
        &server,
        "sudoku_rpc_requests_total{method=\"SolveBatch\",code=\"Cancelled\"}",
        1.0,
    )
    .await;
    // The stream's queued puzzles were dropped unsolved, and nothing of it is left in flight.
    wait_for_metric(&server, SOLVING, 0.0).await;
    wait_for_metric(&server, BATCH_ITEMS, 0.0).await;
    assert!(server.metric(CUT_OFF_BY_CANCEL).await > 0.0);
    assert!(server.metric(ANSWERED).await < 100_000.0);
}

#[tokio::test]
async fn a_client_that_never_reads_holds_at_most_the_window() {
    const WINDOW: usize = 16;
    let server = TestServer::start_with(|c| c.batch_window = WINDOW).await;
    // Small windows on the client, so its own receive buffer fills quickly and the server has to stop.
    let channel = tonic::transport::Endpoint::from_shared(server.url())
        .unwrap()
        .initial_stream_window_size(16 * 1024)
        .initial_connection_window_size(16 * 1024)
        .connect()
        .await
        .unwrap();
    let mut client = sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient::new(channel);
    let taken = Arc::new(AtomicUsize::new(0));
    let _answers = client
        .solve_batch(hard_stream(100_000, taken.clone()))
        .await
        .unwrap()
        .into_inner();
    // Answered as far as the client's buffers take, then left alone: the server stops reading it,
    // while calls on another connection go through the solvers. Rounds of such calls go on until
    // one takes nothing from the stalled stream.
    let mut other = server.client().await;
    let started = Instant::now();
    let last = loop {
        let before = taken.load(Ordering::SeqCst);
        for _ in 0..20 {
            let answer = other.solve(solve_request(CLASSIC)).await.unwrap();
            assert_eq!(answer.into_inner().solution, CLASSIC_SOLUTION);
        }
        let items = server.metric(BATCH_ITEMS).await;
        assert!(
            items <= WINDOW as f64,
            "{items} items in flight, window {WINDOW}"
        );
        if taken.load(Ordering::SeqCst) == before {
            break before;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the server kept reading a client that never reads"
        );
    };
    assert!(last < 100_000, "{last} requests taken");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_unary_calls_are_answered_or_refused() {
    let server = TestServer::start_with(|c| {
        c.max_concurrent_solves = 1;
        c.max_queued_solves = 8;
        c.queue_timeout = Duration::from_millis(20);
    })
    .await;
    let mut channels = Vec::new();
    for _ in 0..4 {
        channels.push(server.channel().await);
    }
    let puzzles = hard_puzzles();
    let calls = (0..1000).map(|i| {
        let mut client = sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient::new(
            channels[i % 4].clone(),
        );
        let puzzle = puzzles[i % puzzles.len()].clone();
        tokio::spawn(async move {
            let result = client
                .solve(SolveRequest {
                    puzzle: puzzle.clone(),
                    ..Default::default()
                })
                .await;
            (puzzle, result)
        })
    });
    let (mut answered, mut refused) = (0, 0);
    for call in futures::future::join_all(calls.collect::<Vec<_>>()).await {
        match call.unwrap() {
            (puzzle, Ok(answer)) => {
                let answer = answer.into_inner();
                assert_eq!(answer.verdict(), Verdict::Unique);
                common::assert_solves(&puzzle, &answer.solution);
                answered += 1;
            }
            (_, Err(status)) => {
                assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
                refused += 1;
            }
        }
    }
    assert_eq!(answered + refused, 1000);
    assert!(
        answered > 0 && refused > 0,
        "{answered} answered, {refused} refused"
    );
    let mut client = server.client().await;
    assert_eq!(
        client
            .solve(solve_request(CLASSIC))
            .await
            .unwrap()
            .into_inner()
            .solution,
        CLASSIC_SOLUTION
    );
}

#[tokio::test]
async fn oversized_messages_get_resource_exhausted_and_the_server_goes_on() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let huge = format!("{CLASSIC}{}", " ".repeat(64 * 1024));
    let status = client.solve(solve_request(&huge)).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");

    let requests = vec![batch_item("a", CLASSIC), batch_item("b", &huge)];
    let mut answers = client
        .solve_batch(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answers.message().await.unwrap().unwrap().id, "a");
    assert_eq!(
        answers.message().await.unwrap_err().code(),
        Code::ResourceExhausted
    );

    let answer = client.solve(solve_request(CLASSIC)).await.unwrap();
    assert_eq!(answer.into_inner().solution, CLASSIC_SOLUTION);
}

/// Sends one raw gRPC message to `path` over HTTP/2 and returns (grpc-status, grpc-message, body).
async fn raw_unary(
    server: &TestServer,
    path: &str,
    message: &[u8],
    headers: &[(&'static str, &'static str)],
) -> (String, String, Bytes) {
    let (response, mut send) = common::raw_call(server.addr, path, headers).await;
    send.send_data(common::grpc_frame(message), true).unwrap();
    let response = response.await.unwrap();
    let headers = response.headers().clone();
    let mut body = response.into_body();
    let mut data = BytesMut::new();
    while let Some(chunk) = body.data().await {
        data.extend_from_slice(&chunk.unwrap());
    }
    let trailers = body.trailers().await.unwrap().unwrap_or_default();
    let get = |name: &str| {
        trailers
            .get(name)
            .or(headers.get(name))
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default()
    };
    (get("grpc-status"), get("grpc-message"), data.freeze())
}

#[tokio::test]
async fn invalid_utf8_unknown_fields_and_unknown_methods_get_the_expected_status() {
    let server = TestServer::start().await;
    // Field 1 (puzzle) as a length-delimited string that is not UTF-8: unparseable, INTERNAL as
    // gRPC's specification says for a request that cannot be decoded.
    let not_utf8 = [0x0a, 0x03, 0xff, 0xfe, 0xfd];
    let (status, _, _) = raw_unary(&server, "/sudoku.v1.SudokuService/Solve", &not_utf8, &[]).await;
    assert_eq!(status, "13");

    // The puzzle plus an unknown field 99 (varint): proto3 ignores what it does not know.
    let mut with_unknown = vec![0x0a, 81];
    with_unknown.extend_from_slice(CLASSIC.as_bytes());
    with_unknown.extend_from_slice(&[0x98, 0x06, 0x2a]);
    let (status, _, body) = raw_unary(
        &server,
        "/sudoku.v1.SudokuService/Solve",
        &with_unknown,
        &[],
    )
    .await;
    assert_eq!(status, "0");
    use prost::Message;
    let answer = sudoku_grpc::proto::SolveResponse::decode(&body[5..]).unwrap();
    assert_eq!(answer.solution, CLASSIC_SOLUTION);

    let (status, _, _) = raw_unary(&server, "/sudoku.v1.SudokuService/Nope", &[], &[]).await;
    assert_eq!(status, "12");
    let (status, _, _) = raw_unary(&server, "/sudoku.v2.Nope/Solve", &[], &[]).await;
    assert_eq!(status, "12");

    let mut client = server.client().await;
    let answer = client.solve(solve_request(CLASSIC)).await.unwrap();
    assert_eq!(answer.into_inner().solution, CLASSIC_SOLUTION);
}

#[tokio::test]
async fn interop_status_code_and_special_status_message() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let puzzle = format!("{}\t😀{}", &CLASSIC[..5], &CLASSIC[6..]);
    let status = client
        .solve(SolveRequest {
            puzzle,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("'😀'"), "{:?}", status.message());
    assert!(
        status.message().contains("row 1, column 6"),
        "{:?}",
        status.message()
    );
}

#[tokio::test]
async fn interop_custom_metadata_request_id_is_echoed() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    let mut request = Request::new(solve_request(CLASSIC));
    request
        .metadata_mut()
        .insert("x-request-id", "req-42".parse().unwrap());
    let response = client.solve(request).await.unwrap();
    assert_eq!(response.metadata().get("x-request-id").unwrap(), "req-42");

    let mut request = Request::new(tokio_stream::iter(vec![SolveBatchRequest {
        puzzle: CLASSIC.into(),
        ..Default::default()
    }]));
    request
        .metadata_mut()
        .insert("x-request-id", "batch-7".parse().unwrap());
    let response = client.solve_batch(request).await.unwrap();
    assert_eq!(response.metadata().get("x-request-id").unwrap(), "batch-7");
}

#[tokio::test]
async fn metrics_count_requests_by_method_and_code() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    client.solve(solve_request(CLASSIC)).await.unwrap();
    client
        .solve(SolveRequest {
            puzzle: "1".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    let text = server.metrics().await;
    for series in [
        "sudoku_rpc_requests_total{method=\"Solve\",code=\"Ok\"} 1",
        "sudoku_rpc_requests_total{method=\"Solve\",code=\"InvalidArgument\"} 1",
        "sudoku_puzzles_total{verdict=\"VERDICT_UNIQUE\"} 1",
        // A bad puzzle counts as INVALID on Solve as it does on SolveBatch.
        "sudoku_puzzles_total{verdict=\"VERDICT_INVALID\"} 1",
        "sudoku_rpc_latency_seconds_count{method=\"Solve\"} 2",
        "sudoku_solve_time_seconds_count 1",
    ] {
        assert!(text.contains(series), "{series} missing from:\n{text}");
    }
}

/// Why `serve` refused to start on `config`.
async fn refusal(config: &sudoku_grpc::config::ServerConfig) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    sudoku_grpc::server::serve(listener, config.clone(), async {})
        .await
        .unwrap_err()
        .to_string()
}

#[tokio::test]
async fn a_busy_port_or_a_bad_setting_is_an_error_naming_its_flag() {
    let busy = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let mut config = sudoku_grpc::config::ServerConfig::with_addr("127.0.0.1:0".parse().unwrap());
    config.metrics_addr = Some(busy.local_addr().unwrap());
    let error = refusal(&config).await;
    assert!(error.contains("--metrics-addr"), "{error}");

    config.metrics_addr = None;
    config.health_addr = Some(busy.local_addr().unwrap());
    let error = refusal(&config).await;
    assert!(error.contains("--health-addr"), "{error}");

    // Client certificates are checked over TLS, which needs the server's own certificate.
    config.health_addr = None;
    config.tls_client_ca = Some("ca.pem".into());
    let error = refusal(&config).await;
    assert!(error.contains("--tls-client-ca"), "{error}");

    config.tls_client_ca = None;
    config.max_queued_solves = 0;
    let error = refusal(&config).await;
    assert!(error.contains("--max-queued-solves"), "{error}");
}
