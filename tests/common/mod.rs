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
        sudoku_grpc::telemetry::init(sudoku_grpc::config::LogFormat::Text);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut config = ServerConfig::with_addr(addr);
        tweak(&mut config);
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(sudoku_grpc::server::serve(listener, config, async {
            let _ = rx.await;
        }));
        TestServer {
            addr,
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
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_owned)
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
    let puzzle = sudoku_grpc::grid::Grid::parse(puzzle).expect("puzzle parses");
    let grid = sudoku_grpc::grid::Grid::parse(solution).expect("solution parses");
    assert!(grid.solves(&puzzle), "{solution} does not solve {puzzle}");
}
