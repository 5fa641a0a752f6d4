//! Server settings: every limit a named, documented default, each overridable by a flag or an
//! environment variable (`SUDOKU_*`), so `sudoku-grpc serve` runs as it is and a deployment tunes it
//! without a config file.

use std::net::SocketAddr;
use std::time::Duration;

/// The address `serve` listens on unless told otherwise: every interface, gRPC's customary port.
pub const DEFAULT_ADDR: &str = "0.0.0.0:50051";

/// The address of the metrics endpoint unless told otherwise: every interface, Prometheus' customary
/// exporter port.
pub const DEFAULT_METRICS_ADDR: &str = "0.0.0.0:9090";

/// Parses an address, or `off` (or nothing) for none.
fn parse_optional_addr(text: &str) -> Result<Option<SocketAddr>, std::net::AddrParseError> {
    match text {
        "" | "off" => Ok(None),
        _ => text.parse().map(Some),
    }
}

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// Everything `serve` can be told. Defaults are chosen to run well on a small machine as they are.
#[derive(Clone, Debug, clap::Args)]
pub struct ServerConfig {
    /// Address to listen on.
    #[arg(long, env = "SUDOKU_ADDR", default_value = DEFAULT_ADDR)]
    pub addr: SocketAddr,

    /// Puzzles solved at once across all requests (0: one per CPU core).
    #[arg(long, env = "SUDOKU_MAX_CONCURRENT_SOLVES", default_value_t = 0)]
    pub max_concurrent_solves: usize,

    /// Unary Solve calls that may wait for a free solver when all are busy; beyond that a call gets
    /// RESOURCE_EXHAUSTED at once.
    #[arg(long, env = "SUDOKU_MAX_QUEUED_SOLVES", default_value_t = 256)]
    pub max_queued_solves: usize,

    /// The longest a unary Solve waits in that queue before it gets RESOURCE_EXHAUSTED.
    #[arg(long, env = "SUDOKU_QUEUE_TIMEOUT", default_value = "1s", value_parser = humantime::parse_duration)]
    pub queue_timeout: Duration,

    /// Puzzles of one SolveBatch stream in flight at once (read but not yet answered). A client that
    /// stops reading holds at most this many; the server then stops reading its stream.
    #[arg(long, env = "SUDOKU_BATCH_WINDOW", default_value_t = 256)]
    pub batch_window: usize,

    /// Guesses a search may make when the request does not say (VERDICT_LIMIT_REACHED beyond).
    /// Generous: the hardest known 9x9 puzzles need a few thousand at most.
    #[arg(long, env = "SUDOKU_DEFAULT_MAX_GUESSES", default_value_t = 1_000_000)]
    pub default_max_guesses: u64,

    /// The most guesses a request may ask for; larger requests are capped to this.
    #[arg(long, env = "SUDOKU_MAX_GUESSES_CAP", default_value_t = 100_000_000)]
    pub max_guesses_cap: u64,

    /// The most puzzles one Generate call makes; a larger `count` is capped to this.
    #[arg(long, env = "SUDOKU_MAX_GENERATE_COUNT", default_value_t = 10_000)]
    pub max_generate_count: u32,

    /// Concurrent streams (RPCs) per HTTP/2 connection.
    #[arg(long, env = "SUDOKU_MAX_CONCURRENT_STREAMS", default_value_t = 256)]
    pub max_concurrent_streams: u32,

    /// Interval of HTTP/2 keepalive pings to idle clients; dead peers are dropped after a missed ping.
    #[arg(long, env = "SUDOKU_KEEPALIVE_INTERVAL", default_value = "30s", value_parser = humantime::parse_duration)]
    pub keepalive_interval: Duration,

    /// How long to wait for a keepalive ping's answer before dropping the connection.
    #[arg(long, env = "SUDOKU_KEEPALIVE_TIMEOUT", default_value = "10s", value_parser = humantime::parse_duration)]
    pub keepalive_timeout: Duration,

    /// Age after which a connection is asked to go away (GOAWAY), so clients reconnect and spread
    /// over new replicas behind a load balancer. Its open RPCs get the shutdown grace period to end.
    #[arg(long, env = "SUDOKU_MAX_CONNECTION_AGE", default_value = "30m", value_parser = humantime::parse_duration)]
    pub max_connection_age: Duration,

    /// On SIGTERM or ctrl-c: how long open RPCs may run on before the server stops anyway.
    #[arg(long, env = "SUDOKU_SHUTDOWN_GRACE", default_value = "10s", value_parser = humantime::parse_duration)]
    pub shutdown_grace: Duration,

    /// Address of the Prometheus metrics endpoint (`GET /metrics`); `off` disables it.
    #[arg(long, env = "SUDOKU_METRICS_ADDR", default_value = DEFAULT_METRICS_ADDR, value_parser = parse_optional_addr)]
    pub metrics_addr: std::option::Option<SocketAddr>,

    /// TLS certificate chain (PEM). With `--tls-key`, the server speaks only TLS.
    #[arg(long, env = "SUDOKU_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<std::path::PathBuf>,

    /// TLS private key (PEM), for `--tls-cert`.
    #[arg(long, env = "SUDOKU_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<std::path::PathBuf>,

    /// Origins that browsers may call the service from with gRPC-Web (comma-separated), or `*` for any.
    #[arg(
        long,
        env = "SUDOKU_CORS_ORIGINS",
        default_value = "*",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,

    /// Log format; the level comes from `RUST_LOG` (default `info`).
    #[arg(long, env = "SUDOKU_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

impl ServerConfig {
    /// The defaults, listening on `addr` with no metrics endpoint; what tests start from.
    pub fn with_addr(addr: SocketAddr) -> ServerConfig {
        let mut config = <ServerConfig as clap::FromArgMatches>::from_arg_matches(
            &<ServerConfig as clap::Args>::augment_args(clap::Command::new("serve"))
                .no_binary_name(true)
                .get_matches_from(std::iter::empty::<String>()),
        )
        .unwrap_or_else(|e| unreachable!("the defaults parse: {e}"));
        config.addr = addr;
        config.metrics_addr = None;
        config
    }

    /// Solver threads to use: the configured number, or one per core.
    pub fn solver_threads(&self) -> usize {
        match self.max_concurrent_solves {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }
}
