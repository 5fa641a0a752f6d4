//! Server settings: [`ServerConfig`], a plain typed struct whose [`Default`] runs well on a small
//! machine as it is, and whose [`ServerConfig::validate`] refuses values the server cannot run with.
//! Where the values come from is the caller's business: the command line reads `serve`'s flags and
//! `SUDOKU_*` environment variables into it; tests build it directly, so nothing in their
//! environment leaks in.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// The address `serve` listens on unless told otherwise: every interface, gRPC's customary port.
pub const DEFAULT_ADDR: &str = "0.0.0.0:50051";

/// The address of the metrics endpoint unless told otherwise: every interface, port 9464. Not 9090,
/// Prometheus' own port, which a Prometheus server beside the service would already hold.
pub const DEFAULT_METRICS_ADDR: &str = "0.0.0.0:9464";

/// The largest request or response message, in bytes. A 9x9 puzzle is about 100 bytes and even a
/// pretty-printed 25x25 grid stays under a few kilobytes, so anything bigger is a mistake or an attack.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// HTTP/2 flow-control window per stream: how much a client may send that the server has not read.
///
/// grpcio and grpcurl send each ~100-byte request in its own DATA frame, and h2 ends a connection with
/// GOAWAY `ENHANCE_YOUR_CALM "too_many_data_frames"` once the framing overhead of small frames held
/// unread (about 1.7 bytes per byte of payload at that size) passes half the connection window. A
/// back-pressured SolveBatch holds a full stream window unread, so the connection window below is
/// sized for [`BACKPRESSURED_STREAMS_PER_CONNECTION`] such streams at once, with room to spare.
pub const STREAM_WINDOW_BYTES: u32 = 64 * 1024;

/// Back-pressured SolveBatch streams one connection can hold without tripping h2's guard.
pub const BACKPRESSURED_STREAMS_PER_CONNECTION: u32 = 16;

/// HTTP/2 flow-control window per connection: see [`STREAM_WINDOW_BYTES`]. Also the most a client can
/// make the server buffer per connection.
pub const CONNECTION_WINDOW_BYTES: u32 =
    STREAM_WINDOW_BYTES * BACKPRESSURED_STREAMS_PER_CONNECTION * 4;

/// How to log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = String;

    fn from_str(text: &str) -> Result<LogFormat, String> {
        match text {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            _ => Err(format!(
                "unknown log format {text:?}: expected text or json"
            )),
        }
    }
}

/// Everything `serve` can be told. Build it from [`Default`] and change what you need; [`serve`]
/// validates it first.
///
/// [`serve`]: crate::server::serve
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    /// Address to listen on.
    pub addr: SocketAddr,
    /// Solver worker threads, which solve every puzzle of every request (0: one per CPU core).
    pub max_concurrent_solves: usize,
    /// Unary Solve calls that may wait for a solver; beyond that a call gets RESOURCE_EXHAUSTED.
    pub max_queued_solves: usize,
    /// The longest a unary Solve waits for a solver before it gets RESOURCE_EXHAUSTED.
    pub queue_timeout: Duration,
    /// Items of one SolveBatch stream read but not yet answered. A client that stops reading holds
    /// at most this many (and no solver); the server then stops reading its stream. The default
    /// holds two of the solver pool's chunks of a turn, so both workers of a small
    /// machine can take a turn on one stream while its answers travel back.
    pub batch_window: usize,
    /// Guesses a search may make when the request does not say (VERDICT_LIMIT_REACHED beyond).
    pub default_max_guesses: u64,
    /// The most guesses a request may ask for; larger requests are capped to this.
    pub max_guesses_cap: u64,
    /// The most puzzles one Generate call makes; a larger `count` is capped to this.
    pub max_generate_count: u32,
    /// The longest one generated puzzle may take (a rare difficulty, a large grid); past it the call
    /// ends with RESOURCE_EXHAUSTED naming this budget.
    pub generate_budget: Duration,
    /// Concurrent streams (RPCs) per HTTP/2 connection.
    pub max_concurrent_streams: u32,
    /// Interval of HTTP/2 keepalive pings to idle clients.
    pub keepalive_interval: Duration,
    /// How long to wait for a keepalive ping's answer before dropping the connection.
    pub keepalive_timeout: Duration,
    /// Age after which a connection is asked to go away (GOAWAY).
    pub max_connection_age: Duration,
    /// On shutdown: how long open RPCs may run on before the server stops anyway.
    pub shutdown_grace: Duration,
    /// Address of the Prometheus metrics endpoint (`GET /metrics`); `None` disables it.
    pub metrics_addr: Option<SocketAddr>,
    /// TLS certificate chain and private key (PEM files); with them the server speaks only TLS.
    pub tls: Option<TlsFiles>,
    /// The CA (a PEM file) that signs client certificates: with it, and [`ServerConfig::tls`], the
    /// server refuses at the TLS handshake every client without a certificate this CA signed.
    pub tls_client_ca: Option<PathBuf>,
    /// Address of a plain-text listener that serves only `grpc.health.v1.Health`, for probes that
    /// cannot speak TLS or present a client certificate; `None` serves none.
    pub health_addr: Option<SocketAddr>,
    /// Origins that browsers may call the service from with gRPC-Web, or `*` for any.
    pub cors_origins: Vec<String>,
    /// Log format.
    pub log_format: LogFormat,
}

/// The PEM files of a TLS identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain.
    pub cert: PathBuf,
    /// The private key.
    pub key: PathBuf,
}

/// The most solver threads a server may be asked for: far beyond any machine's cores, low enough
/// that a typo is refused instead of exhausting the process.
pub const MAX_SOLVER_THREADS: usize = 1024;

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            addr: SocketAddr::from((Ipv4Addr::UNSPECIFIED, 50051)),
            max_concurrent_solves: 0,
            max_queued_solves: 256,
            queue_timeout: Duration::from_secs(1),
            batch_window: 2 * crate::pool::CHUNK_ITEMS,
            // Generous: the hardest known 9x9 puzzles need a few thousand at most.
            default_max_guesses: 1_000_000,
            max_guesses_cap: 100_000_000,
            max_generate_count: 10_000,
            generate_budget: Duration::from_secs(10),
            max_concurrent_streams: 256,
            keepalive_interval: Duration::from_secs(30),
            keepalive_timeout: Duration::from_secs(10),
            max_connection_age: Duration::from_secs(30 * 60),
            shutdown_grace: Duration::from_secs(10),
            metrics_addr: Some(SocketAddr::from((Ipv4Addr::UNSPECIFIED, 9464))),
            tls: None,
            tls_client_ca: None,
            health_addr: None,
            cors_origins: vec!["*".into()],
            log_format: LogFormat::Text,
        }
    }
}

/// A setting the server cannot run with.
#[derive(Debug, thiserror::Error)]
#[error("{flag} is {value}, but it must be {rule}")]
pub struct ConfigError {
    /// The flag that sets it.
    pub flag: &'static str,
    /// The value given.
    pub value: String,
    /// What it must be.
    pub rule: &'static str,
}

impl ServerConfig {
    /// The defaults, listening on `addr` with no metrics endpoint; what tests start from.
    pub fn with_addr(addr: SocketAddr) -> ServerConfig {
        ServerConfig {
            addr,
            metrics_addr: None,
            ..ServerConfig::default()
        }
    }

    /// Solver threads to use: the configured number, or one per core.
    pub fn solver_threads(&self) -> usize {
        match self.max_concurrent_solves {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }

    /// Checks every setting; the first bad one is the error, named by its flag.
    pub fn validate(&self) -> Result<(), ConfigError> {
        fn check(
            ok: bool,
            flag: &'static str,
            value: impl std::fmt::Debug,
            rule: &'static str,
        ) -> Result<(), ConfigError> {
            match ok {
                true => Ok(()),
                false => Err(ConfigError {
                    flag,
                    value: format!("{value:?}"),
                    rule,
                }),
            }
        }
        let threads = self.max_concurrent_solves;
        check(
            threads <= MAX_SOLVER_THREADS,
            "--max-concurrent-solves",
            threads,
            "at most 1024 (0: one per core)",
        )?;
        check(
            self.max_queued_solves > 0,
            "--max-queued-solves",
            self.max_queued_solves,
            "at least 1",
        )?;
        check(
            self.batch_window > 0,
            "--batch-window",
            self.batch_window,
            "at least 1",
        )?;
        check(
            self.default_max_guesses > 0,
            "--default-max-guesses",
            self.default_max_guesses,
            "at least 1",
        )?;
        check(
            self.default_max_guesses <= self.max_guesses_cap,
            "--default-max-guesses",
            self.default_max_guesses,
            "at most --max-guesses-cap",
        )?;
        check(
            self.max_concurrent_streams > 0,
            "--max-concurrent-streams",
            self.max_concurrent_streams,
            "at least 1",
        )?;
        check(
            self.tls_client_ca.is_none() || self.tls.is_some(),
            "--tls-client-ca",
            &self.tls_client_ca,
            "given with --tls-cert and --tls-key (client certificates are checked over TLS)",
        )?;
        for (flag, value) in [
            ("--queue-timeout", self.queue_timeout),
            ("--keepalive-interval", self.keepalive_interval),
            ("--keepalive-timeout", self.keepalive_timeout),
            ("--max-connection-age", self.max_connection_age),
        ] {
            check(!value.is_zero(), flag, value, "longer than zero")?;
        }
        check(
            !self.cors_origins.is_empty(),
            "--cors-origins",
            &self.cors_origins,
            "at least one origin, or *",
        )
    }
}
