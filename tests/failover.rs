//! The client going on when a server goes away: the real binary's `client batch` over three real
//! servers, one of which is killed or shut down while answers flow, and `client solve` past a dead
//! endpoint. The server that goes sits behind a relay that, at the end, keeps the client's last
//! puzzles from it: it goes with puzzles unanswered however the others keep pace.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::{CLASSIC, CLASSIC_SOLUTION, TestServer, assert_solves};
use sudoku_grpc::config::ServerConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{oneshot, watch};

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

/// A TCP relay standing for the network between the client and a replica. It passes bytes both
/// ways until told to hold the client's, which it then keeps from the replica: puzzles the client
/// sends from then on stay unanswered, so the replica is certain to have some when it goes.
struct Relay {
    addr: SocketAddr,
    holding: Arc<AtomicBool>,
    /// How many of the client's bytes the relay has kept back.
    held: watch::Receiver<usize>,
    /// The accepting task, whose connections end with it.
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Relay {
    /// A relay on 127.0.0.1:0 to the server at `to`.
    async fn start(to: SocketAddr) -> Relay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let holding = Arc::new(AtomicBool::new(false));
        let (count, held) = watch::channel(0);
        let count = Arc::new(count);
        let task = tokio::spawn({
            let holding = holding.clone();
            async move {
                // Dropped, and so every connection cut, when this task is aborted.
                let mut connections = tokio::task::JoinSet::new();
                while let Ok((client, _)) = listener.accept().await {
                    // Once the server is gone, so is the relay: later connections are refused.
                    let Ok(server) = tokio::net::TcpStream::connect(to).await else {
                        break;
                    };
                    let (mut client_read, mut client_write) = client.into_split();
                    let (mut server_read, server_write) = server.into_split();
                    // The server's bytes all pass; when it closes, so does the client's side.
                    connections.spawn(async move {
                        let _ = tokio::io::copy(&mut server_read, &mut client_write).await;
                    });
                    let (holding, count) = (holding.clone(), count.clone());
                    connections.spawn(async move {
                        let mut server_write = server_write;
                        let mut buffer = vec![0; 16 * 1024];
                        loop {
                            let n = match client_read.read(&mut buffer).await {
                                Ok(0) | Err(_) => return,
                                Ok(n) => n,
                            };
                            if holding.load(Ordering::SeqCst) {
                                count.send_modify(|held| *held += n);
                            } else if server_write.write_all(&buffer[..n]).await.is_err() {
                                return;
                            }
                        }
                    });
                }
                drop(listener);
                while connections.join_next().await.is_some() {}
            }
        });
        Relay {
            addr,
            holding,
            held,
            task,
        }
    }

    /// Starts holding the client's bytes, and returns once it holds more than the HTTP/2 frames a
    /// client sends unbidden (pings, window updates) could come to: SolveBatch requests, which
    /// the replica has not seen.
    async fn hold_until_puzzles_are_held(&self) {
        self.holding.store(true, Ordering::SeqCst);
        let mut held = self.held.clone();
        tokio::time::timeout(Duration::from_secs(60), held.wait_for(|&n| n >= 4096))
            .await
            .expect("the client sends the held replica more puzzles")
            .expect("the relay runs");
    }

    /// Cuts every connection and stops listening, as the host of a killed process does.
    fn kill(self) {
        drop(self);
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

/// Three replicas whose graceful shutdown gives open calls `grace`, the one at `victim` behind a
/// [`Relay`]: the addresses the client is given, the victim and its relay, and the others, to keep
/// serving while the test holds them.
async fn three_replicas(
    grace: Duration,
    victim: usize,
) -> (Vec<SocketAddr>, Replica, Relay, Vec<Replica>) {
    let mut replicas: Vec<Replica> = (0..3).map(|_| Replica::start(grace)).collect();
    let held = replicas.remove(victim);
    let relay = Relay::start(held.addr).await;
    let mut addrs: Vec<SocketAddr> = replicas.iter().map(|r| r.addr).collect();
    addrs.insert(victim, relay.addr);
    (addrs, held, relay, replicas)
}

/// A server killed in the middle of a batch loses nothing: its unanswered puzzles go to the others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_goes_on_when_a_server_is_killed() {
    let (puzzles, file) = hard_puzzles(8, "killed.txt");
    let (addrs, victim, relay, _others) = three_replicas(Duration::from_secs(5), 1).await;
    let gone = relay.addr;
    let run = batch_interrupted(&addrs, &file.0, async move {
        relay.hold_until_puzzles_are_held().await;
        victim.kill();
        relay.kill();
    })
    .await;
    assert_complete(&puzzles, &run, gone);
}

/// A server shut down gracefully in the middle of a batch (its streams ended by it as it drains,
/// with puzzles still on their way to it) loses nothing either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_goes_on_when_a_server_shuts_down() {
    let (puzzles, file) = hard_puzzles(8, "drained.txt");
    let (addrs, victim, relay, _others) = three_replicas(Duration::from_millis(200), 0).await;
    let run = batch_interrupted(&addrs, &file.0, async {
        relay.hold_until_puzzles_are_held().await;
        victim.drain().await;
    })
    .await;
    let gone = relay.addr;
    assert_complete(&puzzles, &run, gone);
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
