//! A real server on 127.0.0.1:0, started through the same `serve()` that `main` uses.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use sudoku_grpc::config::ServerConfig;
use sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

/// A running server: its address, a trigger for graceful shutdown, and its task.
pub struct TestServer {
    pub addr: SocketAddr,
    pub metrics_addr: SocketAddr,
    /// The plain-text health listener's address, if the server has one.
    pub health_addr: Option<SocketAddr>,
    shutdown: Option<oneshot::Sender<()>>,
    pub task: JoinHandle<Result<(), sudoku_grpc::server::ServerError>>,
}

impl TestServer {
    /// Starts a server with the default configuration.
    pub async fn start() -> TestServer {
        TestServer::start_with(|_| {}).await
    }

    /// Starts a server with the defaults as changed by `tweak`.
    pub async fn start_with(tweak: impl FnOnce(&mut ServerConfig)) -> TestServer {
        TestServer::start_on(tweak, false).await
    }

    /// Starts a server with the defaults as changed by `tweak`, and a plain-text health listener.
    pub async fn start_with_health(tweak: impl FnOnce(&mut ServerConfig)) -> TestServer {
        TestServer::start_on(tweak, true).await
    }

    async fn start_on(tweak: impl FnOnce(&mut ServerConfig), with_health: bool) -> TestServer {
        let bind = || tokio::net::TcpListener::bind("127.0.0.1:0");
        let listener = bind().await.unwrap();
        let addr = listener.local_addr().unwrap();
        let metrics = bind().await.unwrap();
        let metrics_addr = metrics.local_addr().unwrap();
        let health = match with_health {
            true => Some(bind().await.unwrap()),
            false => None,
        };
        let health_addr = health.as_ref().map(|h| h.local_addr().unwrap());
        let mut config = ServerConfig::with_addr(addr);
        tweak(&mut config);
        let (tx, rx) = oneshot::channel::<()>();
        let shutdown = async {
            let _ = rx.await;
        };
        let listeners = sudoku_grpc::server::Listeners {
            grpc: listener,
            metrics: Some(metrics),
            health,
        };
        let task = tokio::spawn(sudoku_grpc::server::serve_on(listeners, config, shutdown));
        TestServer {
            addr,
            metrics_addr,
            health_addr,
            shutdown: Some(tx),
            task,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub async fn channel(&self) -> Channel {
        Channel::from_shared(self.url())
            .unwrap()
            .connect()
            .await
            .unwrap()
    }

    pub async fn client(&self) -> SudokuServiceClient<Channel> {
        SudokuServiceClient::new(self.channel().await)
    }

    /// The server's metrics, as Prometheus text.
    pub async fn metrics(&self) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut tcp = tokio::net::TcpStream::connect(self.metrics_addr)
            .await
            .unwrap();
        tcp.write_all(b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut text = String::new();
        tcp.read_to_string(&mut text).await.unwrap();
        assert!(text.starts_with("HTTP/1.1 200"), "{text}");
        text
    }

    /// The value of one metric series (name with its labels, as the text shows it); 0 if absent.
    pub async fn metric(&self, series: &str) -> f64 {
        let text = self.metrics().await;
        text.lines()
            .find_map(|line| {
                line.strip_prefix(series)
                    .and_then(|rest| rest.strip_prefix(' '))
            })
            .map_or(0.0, |v| v.trim().parse().unwrap())
    }

    /// Begins graceful shutdown.
    pub fn shutdown(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }

    /// Shuts down and waits for the server to stop, which must happen within `limit`.
    pub async fn stop(mut self, limit: Duration) {
        self.shutdown();
        tokio::time::timeout(limit, &mut self.task)
            .await
            .expect("server stopped in time")
            .expect("server task did not panic")
            .expect("server returned Ok");
    }
}

/// Reads puzzles from a committed sample file (comment lines skipped).
pub fn sample(name: &str) -> Vec<String> {
    let path = sample_path(name);
    sudoku_core::puzzle_file::read(path.as_ref(), None)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|line| line.text)
        .collect()
}

/// A puzzle with a unique solution (the classic Wikipedia example).
pub const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// Its solution.
pub const CLASSIC_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// Asserts that `solution` is a valid grid that keeps the givens of `puzzle`.
pub fn assert_solves(puzzle: &str, solution: &str) {
    let puzzle = sudoku_core::grid::Grid::parse(puzzle).expect("puzzle parses");
    let grid = sudoku_core::grid::Grid::parse(solution).expect("solution parses");
    assert!(grid.solves(&puzzle), "{solution} does not solve {puzzle}");
}

/// A Solve request for `puzzle` with default options.
pub fn solve_request(puzzle: &str) -> sudoku_grpc::proto::SolveRequest {
    sudoku_grpc::proto::SolveRequest {
        puzzle: puzzle.into(),
        ..Default::default()
    }
}

/// A SolveBatch item with default options.
pub fn batch_item(id: &str, puzzle: &str) -> sudoku_grpc::proto::SolveBatchRequest {
    sudoku_grpc::proto::SolveBatchRequest {
        id: id.into(),
        puzzle: puzzle.into(),
        ..Default::default()
    }
}

/// One gRPC message as it goes on the wire: no compression flag, length, bytes.
pub fn grpc_frame(message: &[u8]) -> bytes::Bytes {
    let mut frame = bytes::BytesMut::with_capacity(5 + message.len());
    bytes::BufMut::put_u8(&mut frame, 0);
    bytes::BufMut::put_u32(&mut frame, message.len() as u32);
    bytes::BufMut::put_slice(&mut frame, message);
    frame.freeze()
}

/// Opens a gRPC call to `path` over raw HTTP/2, as grpcio and grpcurl do (one DATA frame per message,
/// and no client-side timer on `grpc-timeout`), with `headers` added.
pub async fn raw_call(
    addr: SocketAddr,
    path: &str,
    headers: &[(&'static str, &'static str)],
) -> (h2::client::ResponseFuture, h2::SendStream<bytes::Bytes>) {
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (client, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(connection);
    let mut client = client.ready().await.unwrap();
    let mut request = http::Request::builder()
        .method("POST")
        .uri(format!("http://{addr}{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    client
        .send_request(request.body(()).unwrap(), false)
        .unwrap()
}

/// The path of a committed sample file, for commands that read files.
pub fn sample_path(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Opens a SolveBatch whose requests the test sends one at a time through the returned sender.
pub async fn open_batch(
    client: &mut SudokuServiceClient<Channel>,
) -> (
    tokio::sync::mpsc::Sender<sudoku_grpc::proto::SolveBatchRequest>,
    tonic::Streaming<sudoku_grpc::proto::SolveBatchResponse>,
) {
    let (tx, rx) = tokio::sync::mpsc::channel(1);
    let answers = client
        .solve_batch(tokio_stream::wrappers::ReceiverStream::new(rx))
        .await
        .unwrap()
        .into_inner();
    (tx, answers)
}

/// Asserts that the health service on `channel` reports SERVING for the whole server ("") and for
/// the Sudoku service.
pub async fn assert_health_serving(channel: Channel) {
    use tonic_health::pb::{
        HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
    };
    let mut health = HealthClient::new(channel);
    for service in ["", "sudoku.v1.SudokuService"] {
        let status = health
            .check(HealthCheckRequest {
                service: service.into(),
            })
            .await
            .unwrap()
            .into_inner()
            .status();
        assert_eq!(status, ServingStatus::Serving, "{service:?}");
    }
}

/// A Watch of the whole server's health on `channel`, its first status (SERVING) already read, so
/// the next one is the change a test waits for.
pub async fn watch_health_serving(
    channel: Channel,
) -> tonic::Streaming<tonic_health::pb::HealthCheckResponse> {
    use tonic_health::pb::{
        HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
    };
    let mut watch = HealthClient::new(channel)
        .watch(HealthCheckRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        watch.message().await.unwrap().unwrap().status(),
        ServingStatus::Serving
    );
    watch
}

/// Asserts that `status` is INVALID_ARGUMENT about `field`, its message holding each of `wanted`
/// and its `google.rpc.BadRequest` naming the field.
pub fn assert_invalid(status: &tonic::Status, field: &str, wanted: &[&str]) {
    use tonic_types::StatusExt;
    assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
    for text in wanted {
        assert!(
            status.message().contains(text),
            "{:?} lacks {text:?}",
            status.message()
        );
    }
    let details = status
        .get_details_bad_request()
        .expect("BadRequest details");
    assert_eq!(details.field_violations[0].field, field, "{status:?}");
}
