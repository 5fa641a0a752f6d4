//! Mutual TLS: with a client CA, the server serves only clients whose certificate that CA signed and
//! refuses the others at the handshake; the plain-text health listener answers probes beside it; and
//! the `client` command speaks it. Certificates are made here, with rcgen.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::{CLASSIC, CLASSIC_SOLUTION, TestServer};
use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use sudoku_grpc::config::TlsFiles;
use sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};

/// A certificate and its key, as PEM files.
struct Pair {
    cert: PathBuf,
    key: PathBuf,
}

/// The test's certificates: a CA, a server certificate for localhost and 127.0.0.1 and a client
/// certificate both signed by it, and a client certificate signed by another CA.
struct Pki {
    _dir: tempfile::TempDir,
    ca: PathBuf,
    server: Pair,
    client: Pair,
    stranger: Pair,
}

/// A CA: its certificate's PEM, and the issuer that signs with it.
fn ca(name: &str) -> (String, Issuer<'static, KeyPair>) {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, name);
    let key = KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    (cert.pem(), Issuer::new(params, key))
}

impl Pki {
    fn new() -> Pki {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, pem: String| {
            let path = dir.path().join(name);
            std::fs::write(&path, pem).unwrap();
            path
        };
        let leaf = |name: &str, names: &[&str], issuer: &Issuer<'static, KeyPair>| {
            let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
            let key = KeyPair::generate().unwrap();
            let cert = CertificateParams::new(names)
                .unwrap()
                .signed_by(&key, issuer)
                .unwrap();
            Pair {
                cert: write(&format!("{name}.pem"), cert.pem()),
                key: write(&format!("{name}-key.pem"), key.serialize_pem()),
            }
        };
        let (ca_pem, issuer) = ca("sudoku test CA");
        let (_, other) = ca("another CA");
        Pki {
            ca: write("ca.pem", ca_pem),
            server: leaf("server", &["localhost", "127.0.0.1"], &issuer),
            client: leaf("client", &["client.example"], &issuer),
            stranger: leaf("stranger", &["stranger.example"], &other),
            _dir: dir,
        }
    }

    /// A server that requires client certificates signed by the CA, with a plain-text health listener.
    async fn server(&self) -> TestServer {
        TestServer::start_with_health(|c| {
            c.tls = Some(TlsFiles {
                cert: self.server.cert.clone(),
                key: self.server.key.clone(),
            });
            c.tls_client_ca = Some(self.ca.clone());
        })
        .await
    }

    /// Client TLS that trusts the CA and shows `identity`, if any.
    fn client_tls(&self, identity: Option<&Pair>) -> ClientTlsConfig {
        let read = |path: &PathBuf| std::fs::read(path).unwrap();
        let tls = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(read(&self.ca)));
        match identity {
            Some(pair) => tls.identity(Identity::from_pem(read(&pair.cert), read(&pair.key))),
            None => tls,
        }
    }
}

fn https(server: &TestServer) -> String {
    format!("https://127.0.0.1:{}", server.addr.port())
}

/// An error and its sources, one line.
fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Connects to `url` (with `tls`, if any) and calls Solve: the answer's solution, or why it failed,
/// as the code (for a status) and the error's chain.
async fn solve(url: String, tls: Option<ClientTlsConfig>) -> Result<String, String> {
    let call = async {
        let mut endpoint = Channel::from_shared(url).unwrap();
        if let Some(tls) = tls {
            endpoint = endpoint.tls_config(tls).unwrap();
        }
        let channel = endpoint
            .connect()
            .await
            .map_err(|e| format!("connect: {}", chain(&e)))?;
        SudokuServiceClient::new(channel)
            .solve(common::solve_request(CLASSIC))
            .await
            .map(|answer| answer.into_inner().solution)
            .map_err(|status| format!("{:?}: {}", status.code(), chain(&status)))
    };
    tokio::time::timeout(Duration::from_secs(20), call)
        .await
        .expect("the call ends, one way or the other")
}

/// Asserts that `refusal` is a transport failure (at connect, or a call that tonic ends UNKNOWN,
/// UNAVAILABLE or CANCELLED with a transport error), whose cause is one of `cause`: the TLS alert that ended
/// the handshake, or the connection the server closed on it.
fn assert_refused(refusal: Result<String, String>, cause: &[&str]) {
    let error = refusal.expect_err("the server refused the client");
    assert!(
        error.starts_with("connect:")
            || ["Unknown:", "Unavailable:", "Cancelled:"]
                .iter()
                .any(|code| error.starts_with(code) && error.contains("transport error")),
        "{error}"
    );
    assert!(
        cause.iter().any(|c| error.contains(c)),
        "expected one of {cause:?} in: {error}"
    );
}

#[tokio::test]
async fn a_client_with_a_certificate_the_ca_signed_is_served() {
    let pki = Pki::new();
    let server = pki.server().await;
    let answer = solve(https(&server), Some(pki.client_tls(Some(&pki.client)))).await;
    assert_eq!(answer.as_deref(), Ok(CLASSIC_SOLUTION));
}

#[tokio::test]
async fn a_client_without_a_certificate_is_refused_at_the_handshake() {
    let pki = Pki::new();
    let server = pki.server().await;
    let refusal = solve(https(&server), Some(pki.client_tls(None))).await;
    assert_refused(refusal, &["CertificateRequired"]);
}

#[tokio::test]
async fn a_client_with_a_certificate_from_another_ca_is_refused_at_the_handshake() {
    let pki = Pki::new();
    let server = pki.server().await;
    let refusal = solve(https(&server), Some(pki.client_tls(Some(&pki.stranger)))).await;
    assert_refused(refusal, &["UnknownCA", "BadCertificate"]);
}

#[tokio::test]
async fn a_plain_text_client_is_refused() {
    let pki = Pki::new();
    let server = pki.server().await;
    let refusal = solve(server.url(), None).await;
    assert_refused(refusal, &["broken pipe", "reset", "closed", "not ready"]);
}

#[tokio::test]
async fn the_plain_text_health_listener_reports_serving_then_not_serving_on_shutdown() {
    use tonic_health::pb::health_check_response::ServingStatus;
    let pki = Pki::new();
    let mut server = pki.server().await;
    let health_addr = server.health_addr.expect("a health listener");
    let channel = Channel::from_shared(format!("http://{health_addr}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    common::assert_health_serving(channel.clone()).await;
    // Only health is served there.
    let sudoku = SudokuServiceClient::new(channel.clone())
        .solve(common::solve_request(CLASSIC))
        .await
        .unwrap_err();
    assert_eq!(sudoku.code(), tonic::Code::Unimplemented, "{sudoku:?}");

    let mut watch = common::watch_health_serving(channel).await;
    server.shutdown();
    assert_eq!(
        watch.message().await.unwrap().unwrap().status(),
        ServingStatus::NotServing
    );
    server.stop(Duration::from_secs(15)).await;
}

/// Runs the binary's `client` with `args`, off the async runtime so the server keeps serving.
async fn client_cli(args: Vec<String>) -> std::process::Output {
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-grpc"))
            .arg("client")
            .args(&args)
            .env_remove("SUDOKU_SERVER")
            .env_remove("SUDOKU_CLIENT_TLS_CA")
            .env_remove("SUDOKU_CLIENT_TLS_CERT")
            .env_remove("SUDOKU_CLIENT_TLS_KEY")
            .output()
            .expect("the binary runs")
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn the_client_command_speaks_mutual_tls() {
    let pki = Pki::new();
    let server = pki.server().await;
    let path = |p: &PathBuf| p.display().to_string();
    let with = |identity: Option<&Pair>| {
        let mut args = vec!["--server".to_owned(), https(&server)];
        args.extend(["--tls-ca".to_owned(), path(&pki.ca)]);
        if let Some(pair) = identity {
            args.extend(["--tls-cert".to_owned(), path(&pair.cert)]);
            args.extend(["--tls-key".to_owned(), path(&pair.key)]);
        }
        args.extend(["solve".to_owned(), CLASSIC.to_owned()]);
        args
    };
    let out = client_cli(with(Some(&pki.client))).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        CLASSIC_SOLUTION
    );

    // Without a certificate the call fails on the closed connection; whether the TLS alert that
    // closed it reaches the call first, or a write or a wait that found it closed, depends on
    // timing. The same server just answered the same command with a certificate.
    let out = client_cli(with(None)).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        (stderr.contains("Solve failed") || stderr.contains("no server answered"))
            && ["CertificateRequired", "transport error"]
                .iter()
                .any(|cause| stderr.contains(cause)),
        "{stderr}"
    );

    // An https:// server without a CA to trust is an error that names the flag.
    let out = client_cli(vec![
        "--server".into(),
        https(&server),
        "solve".into(),
        CLASSIC.into(),
    ])
    .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("--tls-ca"), "{stderr}");
}
