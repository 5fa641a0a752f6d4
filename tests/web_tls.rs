//! The paths around the plain gRPC one: gRPC-Web over HTTP/1.1 with CORS, TLS with a certificate the
//! test makes, and zstd compression.

mod common;

use bytes::{Buf, BufMut, Bytes, BytesMut};
use common::{CLASSIC, CLASSIC_SOLUTION, TestServer};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use prost::Message;
use sudoku_grpc::proto::sudoku_service_client::SudokuServiceClient;
use sudoku_grpc::proto::{SolveResponse, Verdict};

fn http1_client() -> Client<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>> {
    Client::builder(TokioExecutor::new()).build_http()
}

#[tokio::test]
async fn grpc_web_over_http1_solves_with_cors() {
    let server = TestServer::start().await;
    let message = common::solve_request(CLASSIC);
    let mut body = BytesMut::new();
    body.put_u8(0);
    body.put_u32(message.encoded_len() as u32);
    message.encode(&mut body).unwrap();
    let request = http::Request::post(format!("{}/sudoku.v1.SudokuService/Solve", server.url()))
        .version(http::Version::HTTP_11)
        .header("content-type", "application/grpc-web+proto")
        .header("x-grpc-web", "1")
        .header("origin", "https://app.example")
        .body(Full::new(body.freeze()))
        .unwrap();
    let response = http1_client().request(request).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.version(), http::Version::HTTP_11);
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/grpc-web")
    );
    let mut body = response.into_body().collect().await.unwrap().to_bytes();

    // A data frame with the answer, then a trailer frame (flag 0x80) with the status.
    assert_eq!(body.get_u8(), 0);
    let len = body.get_u32() as usize;
    let answer = SolveResponse::decode(body.split_to(len)).unwrap();
    assert_eq!(answer.verdict(), Verdict::Unique);
    assert_eq!(answer.solution, CLASSIC_SOLUTION);
    assert_eq!(body.get_u8(), 0x80);
    let len = body.get_u32() as usize;
    let trailers = String::from_utf8(body.split_to(len).to_vec()).unwrap();
    assert!(trailers.contains("grpc-status:0"), "{trailers:?}");
}

#[tokio::test]
async fn cors_preflight_allows_grpc_web_calls() {
    let server =
        TestServer::start_with(|c| c.cors_origins = vec!["https://app.example".into()]).await;
    let preflight = |origin: &'static str| {
        http::Request::builder()
            .method("OPTIONS")
            .uri(format!("{}/sudoku.v1.SudokuService/Solve", server.url()))
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "content-type,x-grpc-web")
            .body(Full::new(Bytes::new()))
            .unwrap()
    };
    let allowed = http1_client()
        .request(preflight("https://app.example"))
        .await
        .unwrap();
    assert_eq!(
        allowed.headers()["access-control-allow-origin"],
        "https://app.example"
    );
    let methods = allowed.headers()["access-control-allow-methods"]
        .to_str()
        .unwrap();
    assert!(methods.contains("POST"), "{methods}");
    let other = http1_client()
        .request(preflight("https://evil.example"))
        .await
        .unwrap();
    assert!(other.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn tls_with_a_self_signed_certificate() {
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (cert_path, key_path) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    std::fs::write(&cert_path, certified.cert.pem()).unwrap();
    std::fs::write(&key_path, certified.signing_key.serialize_pem()).unwrap();
    let server = TestServer::start_with(|c| {
        c.tls = Some(sudoku_grpc::config::TlsFiles {
            cert: cert_path.clone(),
            key: key_path.clone(),
        });
    })
    .await;

    let tls = tonic::transport::ClientTlsConfig::new()
        .ca_certificate(tonic::transport::Certificate::from_pem(
            certified.cert.pem(),
        ))
        .domain_name("localhost");
    let channel =
        tonic::transport::Channel::from_shared(format!("https://localhost:{}", server.addr.port()))
            .unwrap()
            .tls_config(tls)
            .unwrap()
            .connect()
            .await
            .unwrap();
    let answer = SudokuServiceClient::new(channel)
        .solve(common::solve_request(CLASSIC))
        .await
        .unwrap();
    assert_eq!(answer.into_inner().solution, CLASSIC_SOLUTION);

    // Plain text is not served on a TLS port.
    let plain = async {
        let channel = tonic::transport::Channel::from_shared(server.url())?
            .connect()
            .await?;
        let answer = SudokuServiceClient::new(channel)
            .solve(common::solve_request(CLASSIC))
            .await?;
        Ok::<_, Box<dyn std::error::Error>>(answer)
    };
    let plain = tokio::time::timeout(std::time::Duration::from_secs(10), plain)
        .await
        .unwrap();
    assert!(plain.is_err());
}

#[tokio::test]
async fn zstd_and_gzip_both_ways() {
    use tonic::codec::CompressionEncoding::{Gzip, Zstd};
    let server = TestServer::start().await;
    for encoding in [Zstd, Gzip] {
        let mut client = SudokuServiceClient::new(server.channel().await)
            .send_compressed(encoding)
            .accept_compressed(encoding);
        let answer = client.solve(common::solve_request(CLASSIC)).await.unwrap();
        let sent = answer
            .metadata()
            .get("grpc-encoding")
            .map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(sent.as_deref(), Some(encoding.to_string().as_str()));
        assert_eq!(answer.into_inner().solution, CLASSIC_SOLUTION);
    }
}

/// A client that sends plain messages gets plain answers even when it lists gzip as acceptable, as
/// grpc-core clients always do: a hundred-byte answer gains nothing from gzip.
#[tokio::test]
async fn plain_requests_get_plain_answers() {
    use tonic::codec::CompressionEncoding::Gzip;
    let server = TestServer::start().await;
    let mut client = SudokuServiceClient::new(server.channel().await).accept_compressed(Gzip);
    let answer = client.solve(common::solve_request(CLASSIC)).await.unwrap();
    assert_eq!(answer.metadata().get("grpc-encoding"), None);
    assert_eq!(answer.into_inner().solution, CLASSIC_SOLUTION);
    let items = tokio_stream::iter([common::batch_item("a", CLASSIC)]);
    let mut answers = client.solve_batch(items).await.unwrap();
    assert_eq!(answers.metadata().get("grpc-encoding"), None);
    let answer = answers.get_mut().message().await.unwrap().unwrap();
    assert_eq!(answer.solution, CLASSIC_SOLUTION);
}
