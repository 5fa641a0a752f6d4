//! The `serve` command: its flags (each also a `SUDOKU_*` variable) read into a [`ServerConfig`],
//! and the server run on them until SIGTERM or ctrl-c.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use sudoku_grpc::config::{
    ConfigError, DEFAULT_ADDR, DEFAULT_METRICS_ADDR, LogFormat, ServerConfig, TlsFiles,
};

/// Parses an address, or `off` (or nothing) for none.
fn parse_optional_addr(text: &str) -> Result<Option<SocketAddr>, std::net::AddrParseError> {
    match text {
        "" | "off" => Ok(None),
        _ => text.parse().map(Some),
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

    /// CA certificate (PEM) that signs client certificates, for mutual TLS (with `--tls-cert` and
    /// `--tls-key`): a client without a certificate this CA signed is refused at the handshake.
    #[arg(long, env = "SUDOKU_TLS_CLIENT_CA")]
    pub tls_client_ca: Option<PathBuf>,

    /// Address of a plain-text listener serving only grpc.health.v1 (the same status as the main
    /// port, NOT_SERVING on shutdown), for probes that cannot do TLS; `off` serves none.
    #[arg(long, env = "SUDOKU_HEALTH_LISTEN_ADDR", default_value = "off", value_parser = parse_optional_addr)]
    pub health_addr: std::option::Option<SocketAddr>,

    /// Origins that browsers may call the service from with gRPC-Web (comma-separated), or `*` for any.
    #[arg(
        long,
        env = "SUDOKU_CORS_ORIGINS",
        default_value = "*",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,

    /// Log format; the level comes from `RUST_LOG` (default `info`; per-call lines are at `debug`).
    #[arg(long, env = "SUDOKU_LOG_FORMAT", default_value = "text")]
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
            tls_client_ca: args.tls_client_ca,
            health_addr: args.health_addr,
            cors_origins: args.cors_origins,
            log_format: args.log_format,
        };
        config.validate()?;
        Ok(config)
    }
}

/// Runs the server on `args` until SIGTERM or ctrl-c.
pub async fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let config = ServerConfig::try_from(args)?;
    sudoku_grpc::telemetry::init(config.log_format);
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| {
            anyhow::anyhow!(
                "cannot listen on {}: {e}; choose another address with --addr (SUDOKU_ADDR)",
                config.addr
            )
        })?;
    sudoku_grpc::server::serve(listener, config, sudoku_grpc::server::shutdown_signal()).await?;
    Ok(ExitCode::SUCCESS)
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
    fn a_client_ca_needs_a_server_certificate() {
        let error = parse(&["--tls-client-ca", "ca.pem"]).unwrap_err();
        assert!(error.contains("--tls-client-ca"), "{error}");
        let config = parse(&[
            "--tls-cert",
            "cert.pem",
            "--tls-key",
            "key.pem",
            "--tls-client-ca",
            "ca.pem",
        ]);
        assert_eq!(
            config.map(|c| c.tls_client_ca),
            Ok(Some(PathBuf::from("ca.pem")))
        );
    }

    #[test]
    fn the_health_listener_is_off_unless_asked_for() {
        assert_eq!(parse(&[]).map(|c| c.health_addr), Ok(None));
        assert_eq!(
            parse(&["--health-addr", "127.0.0.1:8081"]).map(|c| c.health_addr),
            Ok(Some(SocketAddr::from(([127, 0, 0, 1], 8081))))
        );
    }

    #[test]
    fn metrics_can_be_turned_off() {
        assert_eq!(
            parse(&["--metrics-addr", "off"]).map(|c| c.metrics_addr),
            Ok(None)
        );
    }
}
