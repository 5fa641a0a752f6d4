//! The `client` command: call a running server's unary calls (Solve, Canonicalize, Grade, Hint) and
//! its Generate stream, or stream a file through SolveBatch ([`batch`]); the connection, deadline
//! and request id every call shares live here.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use clap::Subcommand;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

use super::args::FormatArgs;
use super::generate::GenerateArgs;

pub mod batch;

use super::input;
use super::output::{self, answer_line};
use sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::proto::{CanonicalizeRequest, GradeRequest, HintRequest, SolveRequest};

/// How long to wait for a connection to an endpoint before calling it dead.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Arguments of the `client` subcommand.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  sudoku-grpc client solve \
    53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n  \
    sudoku-grpc client --server http://10.0.0.7:50051 batch puzzles.txt > solutions.txt\n  \
    sudoku-grpc client canon puzzles.txt > keys.txt\n  \
    sudoku-grpc client --server http://a:50051 --server http://b:50051 batch puzzles.txt\n  \
    sudoku-grpc client --server http://sudoku-headless.default.svc:50051 batch - < puzzles.txt\n  \
    sudoku-grpc client generate --count 1000 --seed 7 --symmetry rotate-180 --minimal\n  \
    sudoku-grpc client solve --fpuzzles tests/data/variants/killer.json\n  \
    sudoku-grpc client true-candidates --fpuzzles 'https://f-puzzles.com/?load=N4Ig...'\n  \
    sudoku-grpc client batch --fpuzzles fpuzzles-lines.txt")]
pub struct Args {
    /// The server: a URL, or `HOST:PORT` for plain HTTP/2. Repeat (or separate with commas) to spread
    /// a batch over several servers, which also carry on when one goes away; a host name with several
    /// addresses (such as a Kubernetes headless Service) counts as one server per address. Other calls
    /// go to the first server that answers.
    #[arg(
        long = "server",
        env = "SUDOKU_SERVER",
        default_value = "http://127.0.0.1:50051",
        value_delimiter = ',',
        global = true
    )]
    pub servers: Vec<String>,
    /// Deadline for the call (solve) or for the whole stream (batch), e.g. `500ms`, `2m`.
    #[arg(long, value_parser = humantime::parse_duration, global = true)]
    pub timeout: Option<Duration>,
    /// Sent as `x-request-id` metadata, for correlating the server's logs.
    #[arg(long, global = true)]
    pub request_id: Option<String>,
    /// TLS toward `https://` servers.
    #[command(flatten)]
    pub tls: TlsArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// How the client speaks TLS to `https://` servers: the CA it trusts, and the certificate it shows
/// a server that requires mutual TLS.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct TlsArgs {
    /// CA certificate (PEM) that signed the server's certificate; needed for `https://` servers.
    #[arg(long, env = "SUDOKU_CLIENT_TLS_CA", global = true)]
    pub tls_ca: Option<PathBuf>,
    /// Client certificate (PEM), with `--tls-key`, for a server that requires mutual TLS.
    #[arg(
        long,
        env = "SUDOKU_CLIENT_TLS_CERT",
        requires = "tls_key",
        global = true
    )]
    pub tls_cert: Option<PathBuf>,
    /// The client certificate's private key (PEM), for `--tls-cert`.
    #[arg(
        long,
        env = "SUDOKU_CLIENT_TLS_KEY",
        requires = "tls_cert",
        global = true
    )]
    pub tls_key: Option<PathBuf>,
}

impl TlsArgs {
    /// The TLS configuration these flags make, or `None` when none is given.
    pub fn config(&self) -> anyhow::Result<Option<ClientTlsConfig>> {
        let read = |path: &PathBuf| {
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
        };
        let mut tls = match &self.tls_ca {
            Some(ca) => ClientTlsConfig::new().ca_certificate(Certificate::from_pem(read(ca)?)),
            None => ClientTlsConfig::new(),
        };
        match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => {
                tls = tls.identity(Identity::from_pem(read(cert)?, read(key)?))
            }
            (None, None) if self.tls_ca.is_none() => return Ok(None),
            (None, None) => {}
            _ => bail!("--tls-cert and --tls-key go together"),
        }
        Ok(Some(tls))
    }
}

/// The `client` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve one puzzle; prints the answer line as the local `solve` command does.
    Solve(SolveArgs),
    /// Stream a file of puzzles (one per line; blank and `#` lines skipped) through SolveBatch; writes
    /// one answer line per puzzle in order, and a summary by verdict on stderr. Exit 1 if any puzzle
    /// was invalid.
    Batch(batch::BatchArgs),
    /// Canonicalize each puzzle of a file (one per line; blank and `#` lines skipped) through the
    /// server; prints `<key> <transform>` per puzzle in order, as the local `canon` command does, or
    /// `invalid <why>`. Exit 1 if any puzzle was invalid.
    Canon(CanonArgs),
    /// Stream fresh puzzles from the server's Generate, one line each as they arrive.
    Generate(GenerateArgs),
    /// Grade one puzzle through the server's Grade call; prints its level, rating and hardest
    /// technique, and with `--steps` the path in words.
    Grade(GradeArgs),
    /// Ask the server's Hint call for the next step of a player's board.
    Hint(HintArgs),
    /// Ask the server's TrueCandidates call for each cell's candidates (the symbols some solution
    /// puts there) of a classic puzzle or, with --fpuzzles, a variant: the verdict, then a line per
    /// row, cells separated by spaces, as the local `true-candidates` prints them.
    TrueCandidates(SolveArgs),
}

/// Arguments of `client canon`.
#[derive(Debug, clap::Args)]
pub struct CanonArgs {
    /// File of puzzles, one per line; `-` or nothing for stdin.
    pub file: Option<PathBuf>,
}

/// Arguments of `client grade`.
#[derive(Debug, clap::Args)]
pub struct GradeArgs {
    /// The puzzle.
    #[arg(required_unless_present = "fpuzzles")]
    pub puzzle: Option<String>,
    /// A variant puzzle from f-puzzles instead (regions and unit rules: diagonals, extra regions,
    /// disjoint groups): a file holding its JSON, base64 or link, or that text itself.
    #[arg(long, value_name = "FILE|URL", conflicts_with = "puzzle")]
    pub fpuzzles: Option<String>,
    /// Print the path, one step a line.
    #[arg(long)]
    pub steps: bool,
}

/// Arguments of `client hint`.
#[derive(Debug, clap::Args)]
pub struct HintArgs {
    /// The puzzle: its givens only.
    #[arg(required_unless_present = "fpuzzles")]
    pub puzzle: Option<String>,
    /// A variant puzzle from f-puzzles instead, as `client grade --fpuzzles` takes it;
    /// `--progress` is then in its symbols, one per cell.
    #[arg(long, value_name = "FILE|URL", conflicts_with = "puzzle")]
    pub fpuzzles: Option<String>,
    /// The player's board: the givens plus their entries.
    #[arg(long, default_value = "")]
    pub progress: String,
}

/// Arguments of `client solve` and `client true-candidates`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// The puzzle: its cells in row-major order (81 for a 9x9; any size from 4x4 to 25x25), `1`-`9`
    /// then `A`... for givens, `.` or `0` for blanks; or numbers from 1 to N, separated.
    #[arg(required_unless_present = "fpuzzles")]
    pub puzzle: Option<String>,
    /// A variant puzzle from f-puzzles instead: a file holding its JSON, base64 or link, or that
    /// text itself.
    #[arg(long, value_name = "FILE|URL", conflicts_with = "puzzle")]
    pub fpuzzles: Option<String>,
    /// Stop at the first solution instead of proving it is the only one.
    #[arg(long)]
    pub skip_uniqueness_check: bool,
    /// The most guesses before giving up with `limit_reached` (0: the server's default).
    #[arg(long, default_value_t = 0)]
    pub max_guesses: u64,
    /// The grid's shape and alphabet; by default inferred from the count of cells.
    #[command(flatten)]
    pub format: FormatArgs,
}

/// Runs the `client` subcommand.
pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let call = async {
        match &args.command {
            Command::Solve(solve) => solve_one(&args, solve).await,
            Command::Batch(batch) => batch::run(&args, batch).await,
            Command::Canon(canon) => canonicalize_lines(&args, canon).await,
            Command::Generate(generate) => generate_lines(&args, generate).await,
            Command::Grade(grade) => grade_one(&args, grade).await,
            Command::Hint(hint) => hint_one(&args, hint).await,
            Command::TrueCandidates(solve) => true_candidates_one(&args, solve).await,
        }
    };
    match args.timeout {
        Some(limit) => tokio::time::timeout(limit, call)
            .await
            .map_err(|_| anyhow!("no complete answer within {limit:?}"))?,
        None => call.await,
    }
}

/// Resolves server URLs to endpoint URLs: a URL whose host is a name with several addresses becomes
/// one URL per address, so a headless Service spreads over its pods. Names that resolve only to
/// loopback addresses (`localhost`) stay as they are: they mean this machine, once.
pub async fn resolve(servers: &[String]) -> anyhow::Result<Vec<String>> {
    let mut endpoints = Vec::new();
    for server in servers {
        let server = server_url(server);
        let server = server.as_str();
        if server.is_empty() {
            continue;
        }
        let uri: tonic::codegen::http::Uri = server
            .parse()
            .with_context(|| format!("{server:?} is not a URL"))?;
        let host = uri
            .host()
            .ok_or_else(|| anyhow!("{server:?} names no host"))?;
        if !expands(&uri) {
            endpoints.push(server.to_owned());
            continue;
        }
        let port = uri.port_u16().unwrap_or(80);
        let mut addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
            .await
            .with_context(|| format!("cannot resolve {host}"))?
            .collect();
        addrs.sort();
        addrs.dedup();
        if addrs.len() <= 1 || addrs.iter().all(|a| a.ip().is_loopback()) {
            endpoints.push(server.to_owned());
        } else {
            endpoints.extend(addrs.iter().map(|addr| format!("http://{addr}")));
        }
    }
    if endpoints.is_empty() {
        bail!("no server given");
    }
    Ok(endpoints)
}

/// Whether [`resolve`] looks `uri`'s host up: a name (not an address) over plain HTTP/2, which may
/// stand for several servers, and other ones later. A TLS server keeps its name, which its
/// certificate is checked against.
pub fn expands(uri: &tonic::codegen::http::Uri) -> bool {
    let plain = uri.scheme_str().unwrap_or("http") == "http";
    uri.host().is_some_and(|host| {
        plain && !host.starts_with('[') && host.parse::<std::net::IpAddr>().is_err()
    })
}

/// A server as the user wrote it, as a URL: `HOST:PORT` means plain HTTP/2 (`http://HOST:PORT`), the
/// form `serve --addr` prints and grpcurl takes.
pub fn server_url(server: &str) -> String {
    let server = server.trim();
    if server.is_empty() || server.contains("://") {
        server.to_owned()
    } else {
        format!("http://{server}")
    }
}

/// Connects to one endpoint in plain text, failing within [`CONNECT_TIMEOUT`] when nobody answers.
/// HTTP/2 keepalive pings find a peer that dies later, so a call to a dead server fails instead of
/// hanging.
pub async fn connect(url: &str) -> anyhow::Result<Channel> {
    connect_with(url, None).await
}

/// [`connect_with`] the TLS settings of `args` (none unless it names some).
pub async fn connect_as(args: &Args, url: &str) -> anyhow::Result<Channel> {
    connect_with(url, args.tls.config()?.as_ref()).await
}

/// [`connect`], over TLS as `tls` says for an `https://` URL, which needs it.
pub async fn connect_with(url: &str, tls: Option<&ClientTlsConfig>) -> anyhow::Result<Channel> {
    let mut endpoint = Endpoint::from_shared(url.to_owned())
        .with_context(|| format!("{url:?} is not a server URL"))?;
    match (url.starts_with("https://"), tls) {
        (true, Some(tls)) => {
            endpoint = endpoint
                .tls_config(tls.clone())
                .map_err(|e| anyhow!("{url}: {}", error_chain(&e)))?;
        }
        (true, None) => bail!(
            "{url}: an https:// server needs --tls-ca (SUDOKU_CLIENT_TLS_CA), the CA that signed \
             its certificate"
        ),
        (false, Some(_)) => bail!("{url}: the TLS flags need an https:// server URL"),
        (false, None) => {}
    }
    endpoint
        .connect_timeout(CONNECT_TIMEOUT)
        .tcp_nodelay(true)
        .http2_keep_alive_interval(Duration::from_secs(10))
        .keep_alive_timeout(Duration::from_secs(10))
        .keep_alive_while_idle(true)
        .connect()
        .await
        .map_err(|e| anyhow!("cannot connect to {url}: {}", error_chain(&e)))
}

/// An error with its sources, which is where tonic's transport errors keep the useful part.
fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let message = cause.to_string();
        if !text.contains(&message) {
            text.push_str(": ");
            text.push_str(&message);
        }
        source = cause.source();
    }
    text
}

/// A status as a one-line message: code, message, and the causes of a transport failure (a TLS
/// alert, a reset connection), which tonic keeps as its sources.
pub fn describe(status: &tonic::Status) -> String {
    let mut text = format!("{:?}: {}", status.code(), status.message());
    if let Some(source) = std::error::Error::source(status) {
        let causes = error_chain(source);
        if !text.contains(&causes) {
            text.push_str(": ");
            text.push_str(&causes);
        }
    }
    text
}

/// Adds the call's deadline and request id to `request`.
pub(crate) fn decorate<T>(request: &mut tonic::Request<T>, args: &Args) -> anyhow::Result<()> {
    if let Some(timeout) = args.timeout {
        request.set_timeout(timeout);
    }
    if let Some(id) = &args.request_id {
        let value = id
            .parse()
            .map_err(|_| anyhow!("--request-id {id:?} is not a valid metadata value"))?;
        request.metadata_mut().insert("x-request-id", value);
    }
    Ok(())
}

/// Whether a failed call is the server's or the connection's doing rather than the request's, so
/// that another server may well answer it: UNAVAILABLE (refused, unreachable, draining, or a stream
/// the server refused), CANCELLED (this client cancels no call it still waits on, so a server or
/// proxy did), UNKNOWN and INTERNAL (how tonic reports a reset connection or an HTTP/2 error in the
/// middle of a call), and ABORTED. Not retried: INVALID_ARGUMENT and the other statuses about the
/// request itself; DEADLINE_EXCEEDED, as the caller's time is spent; RESOURCE_EXHAUSTED, which for
/// these calls means a message over the server's size limit (every server would refuse it the same
/// way) or HTTP/2's ENHANCE_YOUR_CALM, which more calls elsewhere would not calm.
pub fn server_went_away(status: &tonic::Status) -> bool {
    use tonic::Code;
    matches!(
        status.code(),
        Code::Unavailable | Code::Cancelled | Code::Unknown | Code::Internal | Code::Aborted
    )
}

/// The endpoints that `args` names, for unary calls: each call goes to the endpoint that answered
/// the last one and moves on to the next when a server cannot be reached or went away, which is
/// safe as Solve, Grade, Hint and Canonicalize change nothing.
pub struct Servers {
    endpoints: Vec<String>,
    /// Each endpoint's connection, made when first needed.
    channels: Vec<tokio::sync::OnceCell<Channel>>,
    /// The endpoint calls go to first.
    current: AtomicUsize,
}

impl Servers {
    /// The endpoints that `args` names, resolved; none connected yet.
    pub async fn new(args: &Args) -> anyhow::Result<Self> {
        let endpoints = resolve(&args.servers).await?;
        let channels = endpoints.iter().map(|_| Default::default()).collect();
        Ok(Servers {
            endpoints,
            channels,
            current: AtomicUsize::new(0),
        })
    }

    /// Sends `message` with the deadline and request id of `args` through `send`, to the current
    /// endpoint, then to each next one while the server went away ([`server_went_away`]). Returns
    /// the endpoint that answered and its answer, which may be a status about the request; an error
    /// naming every endpoint's failure when none answered.
    pub async fn call<M, T, F, Fut>(
        &self,
        args: &Args,
        message: M,
        send: F,
    ) -> anyhow::Result<(&str, Result<T, tonic::Status>)>
    where
        M: Clone,
        F: Fn(SudokuServiceClient<Channel>, tonic::Request<M>) -> Fut,
        Fut: std::future::Future<Output = Result<tonic::Response<T>, tonic::Status>>,
    {
        let count = self.endpoints.len();
        let first = self.current.load(Ordering::Relaxed);
        let mut failures = Vec::new();
        for at in (first..count).chain(0..first) {
            let url = &self.endpoints[at];
            let failure = match self.channels[at]
                .get_or_try_init(|| connect_as(args, url))
                .await
            {
                Err(e) => format!("{e:#}"),
                Ok(channel) => {
                    let mut request = tonic::Request::new(message.clone());
                    decorate(&mut request, args)?;
                    match send(SudokuServiceClient::new(channel.clone()), request).await {
                        Err(status) if server_went_away(&status) => {
                            format!("{url}: {}", describe(&status))
                        }
                        answer => {
                            self.current.store(at, Ordering::Relaxed);
                            return Ok((url, answer.map(tonic::Response::into_inner)));
                        }
                    }
                }
            };
            failures.push(failure);
        }
        bail!("no server answered: {}", failures.join("; "))
    }
}

/// The end of a unary `call` that failed: an invalid `what` (the server's INVALID_ARGUMENT) is exit
/// 1 with its reason on stderr; any other status is an error naming the endpoint and the call.
fn refused(url: &str, call: &str, what: &str, status: &tonic::Status) -> anyhow::Result<ExitCode> {
    if status.code() == tonic::Code::InvalidArgument {
        eprintln!("invalid {what}: {}", status.message());
        return Ok(ExitCode::FAILURE);
    }
    Err(anyhow!("{url}: {call} failed: {}", describe(status)))
}

/// The `fpuzzles` field for an `--fpuzzles` value (the file it names, or the text): empty without one.
fn fpuzzles_field(value: Option<&str>) -> anyhow::Result<String> {
    value.map_or(Ok(String::new()), input::fpuzzles_text)
}

/// The Solve (or TrueCandidates) request of `client solve`'s arguments.
fn solve_request(solve: &SolveArgs) -> anyhow::Result<SolveRequest> {
    let fpuzzles = fpuzzles_field(solve.fpuzzles.as_deref())?;
    let (box_rows, box_cols) = solve.format.box_rows_cols();
    Ok(SolveRequest {
        puzzle: solve.puzzle.clone().unwrap_or_default(),
        skip_uniqueness_check: solve.skip_uniqueness_check,
        max_guesses: solve.max_guesses,
        box_rows,
        box_cols,
        symbols: solve.format.symbols.clone(),
        fpuzzles,
        ..Default::default()
    })
}

async fn solve_one(args: &Args, solve: &SolveArgs) -> anyhow::Result<ExitCode> {
    let servers = Servers::new(args).await?;
    let request = solve_request(solve)?;
    let (url, answer) = servers
        .call(args, request, |mut client, request| async move {
            client.solve(request).await
        })
        .await?;
    match answer {
        Ok(answer) => {
            let (line, _) = answer_line(answer.verdict(), &answer.solution, "");
            println!("{line}");
            Ok(ExitCode::SUCCESS)
        }
        Err(status) => refused(url, "Solve", "puzzle", &status),
    }
}

async fn true_candidates_one(args: &Args, solve: &SolveArgs) -> anyhow::Result<ExitCode> {
    let servers = Servers::new(args).await?;
    let request = solve_request(solve)?;
    let (url, answer) = servers
        .call(args, request, |mut client, request| async move {
            client.true_candidates(request).await
        })
        .await?;
    match answer {
        Ok(answer) => {
            let mut out = std::io::stdout().lock();
            for line in output::candidates_lines(answer.verdict(), &answer.cells) {
                writeln!(out, "{line}")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(status) => refused(url, "TrueCandidates", "puzzle", &status),
    }
}

/// How many Canonicalize calls `client canon` keeps in flight on its connection.
const CANON_IN_FLIGHT: usize = 16;

async fn canonicalize_lines(args: &Args, canon: &CanonArgs) -> anyhow::Result<ExitCode> {
    use futures::stream::{self, StreamExt};
    let servers = Servers::new(args).await?;
    let text = input::read_all(canon.file.as_deref()).await?;
    let lines = sudoku_core::puzzle_file::lines(&text).map(|(_, line)| line);
    let servers = &servers;
    let mut answers = stream::iter(lines)
        .map(|line| {
            let request = CanonicalizeRequest {
                puzzle: line.to_owned(),
            };
            servers.call(args, request, |mut client, request| async move {
                client.canonicalize(request).await
            })
        })
        .buffered(CANON_IN_FLIGHT);
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let mut invalid = false;
    while let Some(answer) = answers.next().await {
        let (url, answer) = answer?;
        match answer {
            Ok(answer) => {
                writeln!(
                    out,
                    "{}",
                    output::canon_line(&answer.canonical, &answer.transform)
                )?;
            }
            Err(status) if status.code() == tonic::Code::InvalidArgument => {
                invalid = true;
                writeln!(out, "{}", output::invalid_line(status.message()))?;
            }
            Err(status) => bail!("{url}: Canonicalize failed: {}", describe(&status)),
        }
    }
    out.flush()?;
    Ok(if invalid {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// `client generate`: streams the puzzles from a server, writing each line as it arrives.
async fn generate_lines(args: &Args, generate: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let servers = Servers::new(args).await?;
    let (url, answers) = servers
        .call(args, generate.request(), |mut client, request| async move {
            client.generate(request).await
        })
        .await?;
    let failed = |status: tonic::Status| anyhow!("{url}: Generate failed: {}", describe(&status));
    let mut answers = answers.map_err(failed)?;
    let mut out = std::io::stdout().lock();
    while let Some(answer) = answers.message().await.map_err(failed)? {
        writeln!(out, "{}", generate.line(&answer))?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn grade_one(args: &Args, grade: &GradeArgs) -> anyhow::Result<ExitCode> {
    let servers = Servers::new(args).await?;
    let request = GradeRequest {
        puzzle: grade.puzzle.clone().unwrap_or_default(),
        include_steps: grade.steps,
        fpuzzles: fpuzzles_field(grade.fpuzzles.as_deref())?,
        ..Default::default()
    };
    let (url, answer) = servers
        .call(args, request, |mut client, request| async move {
            client.grade(request).await
        })
        .await?;
    match answer {
        Ok(answer) => {
            for line in output::graded_lines(&answer) {
                println!("{line}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(status) => refused(url, "Grade", "puzzle", &status),
    }
}

async fn hint_one(args: &Args, hint: &HintArgs) -> anyhow::Result<ExitCode> {
    let servers = Servers::new(args).await?;
    let request = HintRequest {
        puzzle: hint.puzzle.clone().unwrap_or_default(),
        progress: hint.progress.clone(),
        fpuzzles: fpuzzles_field(hint.fpuzzles.as_deref())?,
        ..Default::default()
    };
    let (url, answer) = servers
        .call(args, request, |mut client, request| async move {
            client.hint(request).await
        })
        .await?;
    match answer {
        Ok(answer) => {
            for line in output::hint_lines(&answer) {
                println!("{line}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(status) => refused(url, "Hint", "request", &status),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_over_plain_http_are_looked_up_and_addresses_are_not() {
        let expands_server =
            |server: &str| server_url(server).parse().is_ok_and(|uri| expands(&uri));
        for named in [
            "sudoku-grpc-headless.default.svc:50051",
            "http://localhost:50051",
            "host",
        ] {
            assert!(expands_server(named), "{named}");
        }
        for kept in [
            "127.0.0.1:50051",
            "http://10.0.0.7:50051",
            "[::1]:50051",
            "https://sudoku.example:443",
        ] {
            assert!(!expands_server(kept), "{kept}");
        }
    }
}
