// The module path matches proto/'s go_package ("sudoku-grpc/gen/go/sudoku/v1"), so the stubs that
// `buf generate` writes under gen/ import as sudoku-grpc/gen/go/sudoku/v1. Run `go mod tidy` after
// generating them to fill in go.sum and the indirect requirements.
module sudoku-grpc

go 1.24

require (
	google.golang.org/grpc v1.75.0
	google.golang.org/protobuf v1.36.8
)
