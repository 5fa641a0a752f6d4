//! The per-call bookkeeping through the real server, for every RPC of the contract: each method
//! the proto's descriptor names (not a list kept here, so a new RPC is covered the day it is added)
//! gets its request id echoed and is counted in `sudoku_rpc_requests_total` and
//! `sudoku_rpc_latency_seconds` with its status code.

mod common;

use common::{TestServer, grpc_frame, raw_call};
use prost::Message;

/// The methods of `sudoku.v1.SudokuService`, as the served descriptor names them.
fn methods() -> Vec<String> {
    let set = prost_types::FileDescriptorSet::decode(sudoku_grpc::proto::FILE_DESCRIPTOR_SET)
        .expect("the descriptor set decodes");
    let service = set
        .file
        .iter()
        .flat_map(|file| &file.service)
        .find(|service| service.name() == "SudokuService")
        .expect("the descriptor has SudokuService");
    service.method.iter().map(|m| m.name().to_owned()).collect()
}

#[tokio::test]
async fn every_rpc_echoes_its_request_id_and_is_counted_by_one_layer() {
    let methods = methods();
    assert!(methods.len() >= 6, "{methods:?}");
    let server = TestServer::start().await;
    for method in &methods {
        let id = format!("id-{method}");
        let id: &'static str = Box::leak(id.into_boxed_str());
        let path = format!("/sudoku.v1.SudokuService/{method}");
        let (response, mut send) = raw_call(
            server.addr,
            &path,
            &[("x-request-id", id), ("grpc-timeout", "5S")],
        )
        .await;
        // One default message: some RPCs answer it, others refuse it; each is one finished call.
        send.send_data(grpc_frame(&[]), true).expect("send");
        let response = response.await.expect("a response");
        assert_eq!(
            response.headers().get("x-request-id").map(|v| v.as_bytes()),
            Some(id.as_bytes()),
            "{method} did not echo its request id"
        );
        let trailers_only = response.headers().contains_key("grpc-status");
        let mut body = response.into_body();
        while let Some(data) = body.data().await {
            let data = data.expect("body");
            let _ = body.flow_control().release_capacity(data.len());
        }
        let trailers = body.trailers().await.expect("trailers");
        assert!(
            trailers_only || trailers.is_some_and(|t| t.contains_key("grpc-status")),
            "{method} ended without a status"
        );
    }
    let text = server.metrics().await;
    for method in &methods {
        let label = format!("method=\"{method}\"");
        assert!(
            text.lines()
                .any(|l| l.starts_with("sudoku_rpc_requests_total{") && l.contains(&label)),
            "{method} is not in sudoku_rpc_requests_total:\n{text}"
        );
        assert!(
            text.lines()
                .any(|l| l.starts_with("sudoku_rpc_latency_seconds_count{") && l.contains(&label)),
            "{method} is not in sudoku_rpc_latency_seconds:\n{text}"
        );
    }
}
