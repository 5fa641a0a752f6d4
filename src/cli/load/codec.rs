//! The load client's lean SolveBatch codec: the generated client's wire format, at less cost per
//! message, since the client shares the machine with the server it measures.

use std::sync::Arc;

use prost::Message;
use tonic::Status;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};

use sudoku_grpc::proto::{SolveBatchRequest, SolveBatchResponse, Verdict};

/// Cells in the grids the text reader reads (9x9): the length of a solution line.
const LINE: usize = 81;

/// One answer of a batch, kept for checking after the clock stops.
pub(super) struct Answer {
    /// The item's place in its stream as the answer states it; the stream's reader turns it into
    /// the puzzle's place in the list.
    pub(super) index: u64,
    pub(super) verdict: Verdict,
    pub(super) solution: Solution,
}

/// A solution as received, kept without an allocation of its own when it is one 9x9 line.
pub(super) enum Solution {
    /// One line of 81 cells, the usual answer.
    Line([u8; LINE]),
    /// Anything else (none, or text of another length), as it came.
    Text(String),
}

impl Solution {
    fn new(text: &str) -> Solution {
        match <[u8; LINE]>::try_from(text.as_bytes()) {
            Ok(line) => Solution::Line(line),
            Err(_) => Solution::Text(text.to_owned()),
        }
    }

    pub(super) fn as_str(&self) -> &str {
        match self {
            // The bytes came from a `String`, so they are UTF-8.
            Solution::Line(line) => std::str::from_utf8(line).unwrap_or_default(),
            Solution::Text(text) => text,
        }
    }
}

/// The load client's SolveBatch codec. On the wire it is the generated client's (prost) exactly,
/// but it costs the client less per message, since the client shares the machine with the server
/// it measures: a request is encoded from its puzzle's index into the shared list through one
/// reused message, without an id (each answer's `index`, its item's place in the stream, names
/// it), and each answer is decoded into one reused message and kept as an [`Answer`].
pub(super) struct LoadCodec {
    /// The puzzles, which requests name by their place.
    pub(super) puzzles: Arc<Vec<String>>,
    /// Every request's `skip_uniqueness_check`.
    pub(super) skip_uniqueness_check: bool,
}

impl Codec for LoadCodec {
    type Encode = u64;
    type Decode = Answer;
    type Encoder = RequestEncoder;
    type Decoder = AnswerDecoder;

    fn encoder(&mut self) -> RequestEncoder {
        RequestEncoder {
            puzzles: self.puzzles.clone(),
            message: SolveBatchRequest {
                skip_uniqueness_check: self.skip_uniqueness_check,
                ..Default::default()
            },
        }
    }

    fn decoder(&mut self) -> AnswerDecoder {
        AnswerDecoder {
            message: SolveBatchResponse::default(),
        }
    }
}

/// Encodes puzzle `i` of the list as a request.
pub(super) struct RequestEncoder {
    puzzles: Arc<Vec<String>>,
    /// Reused for every request, so its strings keep their buffers.
    message: SolveBatchRequest,
}

impl Encoder for RequestEncoder {
    type Item = u64;
    type Error = Status;

    fn encode(&mut self, index: u64, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        let puzzle = usize::try_from(index)
            .ok()
            .and_then(|i| self.puzzles.get(i))
            .ok_or_else(|| Status::internal(format!("no puzzle {index}")))?;
        self.message.puzzle.clear();
        self.message.puzzle.push_str(puzzle);
        self.message
            .encode(dst)
            .map_err(|e| Status::internal(format!("cannot encode a request: {e}")))
    }
}

/// Decodes answers into one reused message, then keeps what the check needs.
pub(super) struct AnswerDecoder {
    message: SolveBatchResponse,
}

impl Decoder for AnswerDecoder {
    type Item = Answer;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Answer>, Status> {
        self.message.clear();
        self.message
            .merge(src)
            .map_err(|e| Status::internal(format!("cannot decode an answer: {e}")))?;
        Ok(Some(Answer {
            index: self.message.index,
            verdict: self.message.verdict(),
            solution: Solution::new(&self.message.solution),
        }))
    }
}
