//! The client going on when a server goes away: the real binary's `client batch` over three real
//! servers, one of which is killed or shut down while answers flow, and `client solve` past a dead
//! endpoint.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{CLASSIC, CLASSIC_SOLUTION, TestServer, assert_solves};
use sudoku_grpc::config::ServerConfig;
use tokio::sync::oneshot;

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-grpc");

/// A server on its own runtime, so that it can go away as a process does: with every connection.
struct Replica {
    addr: SocketAddr,
    /// Shut down in the background when the replica is dropped, as it may be on the test's runtime.
    runtime: Option<tokio::runtime::Runtime>,
    shutdown: Option<oneshot::Sender<()>>,
    stopped: Option<oneshot::Receiver<()>>,
}

impl Drop for Replica {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Replica {
    /// Starts a server on 127.0.0.1:0 whose graceful shutdown gives open calls `grace`.
    fn start(grace: Duration) -> Replica {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let mut config = ServerConfig::with_addr(addr);
        config.shutdown_grace = grace;
        let (shutdown, signal) = oneshot::channel::<()>();
        let (report, stopped) = oneshot::channel();
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let signal = async {
                let _ = signal.await;
            };
            let _ = sudoku_grpc::server::serve_with_metrics(listener, None, config, signal).await;
            let _ = report.send(());
        });
        Replica {
            addr,
            runtime: Some(runtime),
            shutdown: Some(shutdown),
            stopped: Some(stopped),
        }
    }

    /// Ends the server at once, as a killed process: its connections are reset mid-stream.
    fn kill(self) {
        drop(self);
    }

    /// Shuts the server down gracefully, then, once its grace is over, ends it as its process would.
    async fn drain(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(stopped) = self.stopped.take() {
            let _ = stopped.await;
        }
    }
}

/// The hard sample, `copies` times over, as puzzles and as a file.
fn hard_puzzles(copies: usize, name: &str) -> (Vec<String>, tempfile_path::TempFile) {
    let sample = common::sample("forum_hardest_1905_11plus_sample.txt");
    let puzzles: Vec<String> = std::iter::repeat_n(sample, copies).flatten().collect();
    let file = tempfile_path::TempFile::new(name, &(puzzles.join("\n") + "\n"));
    (puzzles, file)
}

/// A file in the temp directory, removed when dropped.
mod tempfile_path {
    pub struct TempFile(pub std::path::PathBuf);

    impl TempFile {
        pub fn new(name: &str, text: &str) -> TempFile {
            let path = std::env::temp_dir().join(format!("failover_{}_{name}", std::process::id()));
            std::fs::write(&path, text).expect("temp file");
            TempFile(path)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

/// What a run of the binary printed, and how it ended.
struct Run {
    success: bool,
    lines: Vec<String>,
    stderr: String,
}

/// Runs `client --server <servers> batch <file>`, and once its first answers are out (stdout is
/// written in blocks, so that is some hundreds of them) does `interrupt`; returns the run.
async fn batch_interrupted(
    servers: &[SocketAddr],
    file: &std::path::Path,
    interrupt: impl std::future::Future<Output = ()>,
) -> Run {
    let servers: Vec<String> = servers.iter().map(ToString::to_string).collect();
    let mut child = Command::new(BIN)
        .args(["client", "--server", &servers.join(","), "batch"])
        .arg(file)
        .env_remove("SUDOKU_SERVER")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let (first, flowing) = oneshot::channel();
    let reader = tokio::task::spawn_blocking(move || {
        let mut lines = BufReader::new(stdout).lines();
        let mut read = Vec::new();
        let mut first = Some(first);
        for line in lines.by_ref() {
            read.push(line.expect("stdout is text"));
            if let Some(first) = first.take() {
                let _ = first.send(());
            }
        }
        read
    });
    let errors = tokio::task::spawn_blocking(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    flowing.await.expect("answers flow");
    interrupt.await;
    let lines = reader.await.expect("the reader did not panic");
    let stderr = errors.await.expect("the reader did not panic");
    let status = tokio::task::spawn_blocking(move || child.wait())
        .await
        .expect("the waiter did not panic")
        .expect("the binary runs");
    Run {
        success: status.success(),
        lines,
        stderr,
    }
}

/// Asserts one answer per puzzle, in order, each solving its puzzle, a re-sent count over 0, and
/// a warning that the server at `gone` went away.
fn assert_complete(puzzles: &[String], run: &Run, gone: SocketAddr) {
    assert!(run.success, "{}", run.stderr);
    assert_eq!(run.lines.len(), puzzles.len(), "{}", run.stderr);
    for (puzzle, line) in puzzles.iter().zip(&run.lines) {
        assert_solves(puzzle, line);
    }
    let summary = format!("{} puzzles, {} unique, ", puzzles.len(), puzzles.len());
    assert!(run.stderr.contains(&summary), "{}", run.stderr);
    let resent: u64 = run
        .stderr
        .split(&summary)
        .nth(1)
        .and_then(|rest| rest.split(" re-sent").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no re-sent count: {}", run.stderr));
    assert!(resent > 0, "{}", run.stderr);
    let warning = format!("http://{gone} went away");
    assert!(run.stderr.contains(&warning), "{}", run.stderr);
    eprintln!("{}", run.stderr.trim());
}

/// Three replicas whose graceful shutdown gives open calls `grace`: the addresses of all three, the
/// one at `victim`, and the others, to keep serving while the test holds them.
fn three_replicas(grace: Duration, victim: usize) -> (Vec<SocketAddr>, Replica, Vec<Replica>) {
    let mut replicas: Vec<Replica> = (0..3).map(|_| Replica::start(grace)).collect();
    let addrs = replicas.iter().map(|r| r.addr).collect();
    let victim = replicas.remove(victim);
    (addrs, victim, replicas)
}

/// A server killed in the middle of a batch loses nothing: its unanswered puzzles go to the others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_goes_on_when_a_server_is_killed() {
    // Enough that the victim still holds unanswered puzzles when the kill lands after the first
    // answer, however fast the servers answer.
    let (puzzles, file) = hard_puzzles(16, "killed.txt");
    let (addrs, victim, _others) = three_replicas(Duration::from_secs(5), 1);
    let run = batch_interrupted(&addrs, &file.0, async move { victim.kill() }).await;
    assert_complete(&puzzles, &run, addrs[1]);
}

/// A server shut down gracefully in the middle of a batch (its streams cut when its grace is over,
/// or ended by it as it drains) loses nothing either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_goes_on_when_a_server_shuts_down() {
    // Enough that the batch outlasts the victim's grace: a stream still open when the grace is
    // over has items to hand back, however fast the servers answer.
    let (puzzles, file) = hard_puzzles(16, "drained.txt");
    let (addrs, victim, _others) = three_replicas(Duration::from_millis(200), 0);
    let run = batch_interrupted(&addrs, &file.0, victim.drain()).await;
    assert_complete(&puzzles, &run, addrs[0]);
}

/// A port nobody listens on: bound, then let go.
fn dead_url() -> String {
    let dead = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let url = format!("http://{}", dead.local_addr().expect("an address"));
    drop(dead);
    url
}

/// Runs the binary with `args`, off the async runtime so the servers keep serving.
async fn run(args: Vec<String>) -> std::process::Output {
    tokio::task::spawn_blocking(move || {
        Command::new(BIN)
            .args(&args)
            .env_remove("SUDOKU_SERVER")
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs")
    })
    .await
    .expect("the runner did not panic")
}

/// A unary call tries the next endpoint when the first cannot be reached.
#[tokio::test]
async fn solve_goes_past_a_dead_endpoint() {
    let server = TestServer::start().await;
    let servers = format!("{},{}", dead_url(), server.url());
    let out = run(vec![
        "client".into(),
        "--server".into(),
        servers,
        "solve".into(),
        CLASSIC.into(),
    ])
    .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        CLASSIC_SOLUTION
    );
}

/// With every endpoint dead, a batch fails at once, saying how far it got and why.
#[tokio::test]
async fn batch_fails_clearly_when_every_server_is_gone() {
    let (dead_a, dead_b) = (dead_url(), dead_url());
    let (_, file) = hard_puzzles(1, "gone.txt");
    let out = run(vec![
        "client".into(),
        "--server".into(),
        format!("{dead_a},{dead_b}"),
        "batch".into(),
        file.0.to_string_lossy().into_owned(),
    ])
    .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("0 answers written"), "{stderr}");
    assert!(stderr.contains("every server went away"), "{stderr}");
    assert!(
        stderr.contains(&format!("cannot connect to {dead_a}")),
        "{stderr}"
    );
}
