//! Server settings: [`ServerConfig`], a plain typed struct whose [`Default`] runs well on a small
//! machine as it is, and whose [`ServerConfig::validate`] refuses values the server cannot run with.
//! `serve`'s flags and `SUDOKU_*` environment variables ([`ServeArgs`]) convert into it; tests and
//! `load --spawn-server` build it directly, so nothing in their environment leaks in.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// The address `serve` listens on unless told otherwise: every interface, gRPC's customary port.
pub const DEFAULT_ADDR: &str = "0.0.0.0:50051";

/// The address of the metrics endpoint unless told otherwise: every interface, port 9464. Not 9090,
/// Prometheus' own port, which a Prometheus server beside the service would already hold.
pub const DEFAULT_METRICS_ADDR: &str = "0.0.0.0:9464";

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
    /// at most this many (and no solver); the server then stops reading its stream.
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
            batch_window: 256,
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

/// `serve`'s flags, each also read from a `SUDOKU_*` environment variable; they convert into a
/// [`ServerConfig`], whose defaults they show.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "SUDOKU_ADDR", default_value = DEFAULT_ADDR)]
    pub addr: SocketAddr,

    /// Solver worker threads, which solve every puzzle of every request (0: one per CPU core).
    #[arg(long, env = "SUDOKU_MAX_CONCURRENT_SOLVES", default_value_t = ServerConfig::default().max_concurrent_solves)]
    pub max_concurrent_solves: usize,

    /// Unary Solve calls that may wait for a solver when all are busy; beyond that a call gets
    /// RESOURCE_EXHAUSTED at once.
    #[arg(long, env = "SUDOKU_MAX_QUEUED_SOLVES", default_value_t = ServerConfig::default().max_queued_solves)]
    pub max_queued_solves: usize,

    /// The longest a unary Solve waits for a solver before it gets RESOURCE_EXHAUSTED.
    #[arg(long, env = "SUDOKU_QUEUE_TIMEOUT", default_value = "1s")]
    pub queue_timeout: humantime::Duration,

    /// Items of one SolveBatch stream read but not yet answered. A client that stops reading holds
    /// at most this many, and no solver; the server then stops reading its stream.
    #[arg(long, env = "SUDOKU_BATCH_WINDOW", default_value_t = ServerConfig::default().batch_window)]
    pub batch_window: usize,

    /// Guesses a search may make when the request does not say (VERDICT_LIMIT_REACHED beyond).
    /// Generous: the hardest known 9x9 puzzles need a few thousand at most.
    #[arg(long, env = "SUDOKU_DEFAULT_MAX_GUESSES", default_value_t = ServerConfig::default().default_max_guesses)]
    pub default_max_guesses: u64,

    /// The most guesses a request may ask for; larger requests are capped to this.
    #[arg(long, env = "SUDOKU_MAX_GUESSES_CAP", default_value_t = ServerConfig::default().max_guesses_cap)]
    pub max_guesses_cap: u64,

    /// The most puzzles one Generate call makes; a larger `count` is capped to this.
    #[arg(long, env = "SUDOKU_MAX_GENERATE_COUNT", default_value_t = ServerConfig::default().max_generate_count)]
    pub max_generate_count: u32,

    /// The longest one generated puzzle may take (a rare difficulty, a large grid); past it the
    /// Generate call ends with RESOURCE_EXHAUSTED naming this budget.
    #[arg(long, env = "SUDOKU_GENERATE_BUDGET", default_value = "10s")]
    pub generate_budget: humantime::Duration,

    /// Concurrent streams (RPCs) per HTTP/2 connection.
    #[arg(long, env = "SUDOKU_MAX_CONCURRENT_STREAMS", default_value_t = ServerConfig::default().max_concurrent_streams)]
    pub max_concurrent_streams: u32,

    /// Interval of HTTP/2 keepalive pings to idle clients; dead peers are dropped after a missed ping.
    #[arg(long, env = "SUDOKU_KEEPALIVE_INTERVAL", default_value = "30s")]
    pub keepalive_interval: humantime::Duration,

    /// How long to wait for a keepalive ping's answer before dropping the connection.
    #[arg(long, env = "SUDOKU_KEEPALIVE_TIMEOUT", default_value = "10s")]
    pub keepalive_timeout: humantime::Duration,

    /// Age after which a connection is asked to go away (GOAWAY), so clients reconnect and spread
    /// over new replicas behind a load balancer. Its open RPCs get the shutdown grace period to end.
    #[arg(long, env = "SUDOKU_MAX_CONNECTION_AGE", default_value = "30m")]
    pub max_connection_age: humantime::Duration,

    /// On SIGTERM or ctrl-c: how long open RPCs may run on before the server stops anyway.
    #[arg(long, env = "SUDOKU_SHUTDOWN_GRACE", default_value = "10s")]
    pub shutdown_grace: humantime::Duration,

    /// Address of the Prometheus metrics endpoint (`GET /metrics`); `off` disables it.
    #[arg(long, env = "SUDOKU_METRICS_ADDR", default_value = DEFAULT_METRICS_ADDR, value_parser = parse_optional_addr)]
    pub metrics_addr: std::option::Option<SocketAddr>,

    /// TLS certificate chain (PEM). With `--tls-key`, the server speaks only TLS.
    #[arg(long, env = "SUDOKU_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,

    /// TLS private key (PEM), for `--tls-cert`.
    #[arg(long, env = "SUDOKU_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,

    /// Origins that browsers may call the service from with gRPC-Web (comma-separated), or `*` for any.
    #[arg(
        long,
        env = "SUDOKU_CORS_ORIGINS",
        default_value = "*",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,

    /// Log format; the level comes from `RUST_LOG` (default `info`; per-call lines are at `debug`).
    #[arg(long, env = "SUDOKU_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

impl TryFrom<ServeArgs> for ServerConfig {
    type Error = ConfigError;

    fn try_from(args: ServeArgs) -> Result<ServerConfig, ConfigError> {
        let tls = match (args.tls_cert, args.tls_key) {
            (Some(cert), Some(key)) => Some(TlsFiles { cert, key }),
            (None, None) => None,
            (cert, _) => {
                return Err(ConfigError {
                    flag: if cert.is_some() {
                        "--tls-key"
                    } else {
                        "--tls-cert"
                    },
                    value: "missing".into(),
                    rule: "given with the other TLS flag",
                });
            }
        };
        let config = ServerConfig {
            addr: args.addr,
            max_concurrent_solves: args.max_concurrent_solves,
            max_queued_solves: args.max_queued_solves,
            queue_timeout: args.queue_timeout.into(),
            batch_window: args.batch_window,
            default_max_guesses: args.default_max_guesses,
            max_guesses_cap: args.max_guesses_cap,
            max_generate_count: args.max_generate_count,
            generate_budget: args.generate_budget.into(),
            max_concurrent_streams: args.max_concurrent_streams,
            keepalive_interval: args.keepalive_interval.into(),
            keepalive_timeout: args.keepalive_timeout.into(),
            max_connection_age: args.max_connection_age.into(),
            shutdown_grace: args.shutdown_grace.into(),
            metrics_addr: args.metrics_addr,
            tls,
            cors_origins: args.cors_origins,
            log_format: args.log_format,
        };
        config.validate()?;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Args, FromArgMatches};

    /// `serve`'s flags parsed from `args`, with no environment variable read.
    fn parse(args: &[&str]) -> Result<ServerConfig, String> {
        let command = ServeArgs::augment_args(clap::Command::new("serve"))
            .no_binary_name(true)
            .mut_args(|arg| arg.env(None::<&'static str>));
        let matches = command
            .try_get_matches_from(args)
            .map_err(|e| e.to_string())?;
        let args = ServeArgs::from_arg_matches(&matches).map_err(|e| e.to_string())?;
        ServerConfig::try_from(args).map_err(|e| e.to_string())
    }

    #[test]
    fn the_flags_defaults_are_the_structs() {
        assert_eq!(parse(&[]), Ok(ServerConfig::default()));
        assert_eq!(ServerConfig::default().validate().ok(), Some(()));
    }

    #[test]
    fn a_bad_value_is_an_error_naming_its_flag() {
        let error = parse(&["--batch-window", "0"]).unwrap_err();
        assert!(error.contains("--batch-window"), "{error}");
        let error = parse(&["--max-concurrent-solves", "1000000000000"]).unwrap_err();
        assert!(error.contains("--max-concurrent-solves"), "{error}");
        let error = parse(&["--default-max-guesses", "5", "--max-guesses-cap", "4"]).unwrap_err();
        assert!(error.contains("--max-guesses-cap"), "{error}");
    }

    #[test]
    fn metrics_can_be_turned_off() {
        assert_eq!(
            parse(&["--metrics-addr", "off"]).map(|c| c.metrics_addr),
            Ok(None)
        );
    }
}
