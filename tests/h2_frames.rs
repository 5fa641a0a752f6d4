//! A SolveBatch client as grpcio and grpcurl behave: every ~100-byte request in its own HTTP/2 DATA
//! frame, written with raw `h2`. h2 hangs up with GOAWAY `too_many_data_frames` when too many small
//! frames sit unread; the server's windows are sized so that 100,000 puzzles still all get answers.

mod common;

use std::time::Duration;

use bytes::{Buf, Bytes, BytesMut};
use prost::Message;
use sudoku_grpc::proto::{SolveBatchRequest, SolveBatchResponse, Verdict};

const PUZZLES: usize = 100_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_hundred_thousand_single_frame_requests_all_get_answers() {
    let server = common::TestServer::start().await;
    let (response, mut send) =
        common::raw_call(server.addr, "/sudoku.v1.SudokuService/SolveBatch", &[]).await;

    // Nearly solved puzzles: the test is about the transport, not the solver.
    let puzzles: Vec<String> = (0..9)
        .map(|i| {
            let mut p = common::CLASSIC_SOLUTION.to_string();
            p.replace_range(i * 9 + i..i * 9 + i + 1, ".");
            p
        })
        .collect();
    let sender = tokio::spawn(async move {
        for i in 0..PUZZLES {
            let request = SolveBatchRequest {
                id: i.to_string(),
                puzzle: puzzles[i % puzzles.len()].clone(),
                ..Default::default()
            };
            let data = common::grpc_frame(&request.encode_to_vec());
            send.reserve_capacity(data.len());
            while send.capacity() < data.len() {
                match std::future::poll_fn(|cx| send.poll_capacity(cx)).await {
                    Some(Ok(_)) => {}
                    other => panic!("send capacity: {other:?}"),
                }
            }
            send.send_data(data, false).unwrap();
        }
        send.send_data(Bytes::new(), true).unwrap();
    });

    let response = tokio::time::timeout(Duration::from_secs(30), response)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(response.status(), 200);
    let mut body = response.into_body();
    let mut buf = BytesMut::new();
    let mut answered = 0usize;
    let reading = async {
        while let Some(chunk) = body.data().await {
            let chunk = chunk.expect("no GOAWAY or reset mid-stream");
            body.flow_control().release_capacity(chunk.len()).unwrap();
            buf.extend_from_slice(&chunk);
            while buf.len() >= 5 {
                let len = u32::from_be_bytes(buf[1..5].try_into().unwrap()) as usize;
                if buf.len() < 5 + len {
                    break;
                }
                buf.advance(5);
                let answer = SolveBatchResponse::decode(buf.split_to(len)).unwrap();
                assert_eq!(answer.index as usize, answered);
                assert_eq!(answer.id, answered.to_string());
                assert_eq!(answer.verdict(), Verdict::Unique);
                answered += 1;
                if answered.is_multiple_of(20_000) {
                    // Stop reading for a while: the server stops reading too, and the client's small
                    // frames pile up unread in the server's window, which is what trips h2's guard.
                    tokio::time::sleep(Duration::from_millis(300)).await;
                }
            }
        }
        body.trailers().await.unwrap().expect("trailers")
    };
    let trailers = tokio::time::timeout(Duration::from_secs(300), reading)
        .await
        .expect("bounded in time");
    assert_eq!(
        trailers.get("grpc-status").map(|v| v.to_str().unwrap()),
        Some("0")
    );
    assert_eq!(answered, PUZZLES);
    sender.await.unwrap();
}
