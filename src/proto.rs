//! The generated gRPC types of `proto/sudoku/v1/sudoku.proto`, and its descriptor set for reflection.

#![allow(missing_docs, clippy::all)]

tonic::include_proto!("sudoku.v1");

/// The encoded `FileDescriptorSet` of the proto, with its comments, as server reflection serves it.
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("sudoku_descriptor");
