// Command solve calls the sudoku-grpc service from Go: one puzzle through Solve, or a file of puzzles
// (one per line) streamed through SolveBatch, answers printed in order.
//
// This example is not compiled in this repository's CI: the CI machines have no Go toolchain. It is
// written against grpc-go's current API (grpc.NewClient, v1.63+) and protoc-gen-go-grpc. To build it:
//
//	go install google.golang.org/protobuf/cmd/protoc-gen-go@latest
//	go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@latest
//	cd clients/go
//	buf generate        # or: protoc -I ../../proto --go_out=. --go_opt=module=sudoku-grpc \
//	                    #       --go-grpc_out=. --go-grpc_opt=module=sudoku-grpc sudoku/v1/sudoku.proto
//	go mod tidy
//	go run . -server localhost:50051 '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79'
//	go run . -server localhost:50051 -batch puzzles.txt
//
// With -server dns:///sudoku-grpc-headless.NAMESPACE.svc.cluster.local:50051 (a Kubernetes headless
// Service) the client resolves every pod and spreads calls over them with round_robin.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding/gzip" // importing it registers the gzip compressor
	"google.golang.org/grpc/status"

	sudokuv1 "sudoku-grpc/gen/go/sudoku/v1"
)

func main() {
	server := flag.String("server", "localhost:50051", "gRPC target; dns:///NAME:PORT balances over every address")
	batch := flag.String("batch", "", "stream this file (- for stdin) through SolveBatch")
	useGzip := flag.Bool("gzip", false, "compress requests with gzip")
	timeout := flag.Duration("timeout", time.Minute, "deadline for the whole call")
	flag.Parse()
	if (*batch == "") == (flag.NArg() == 0) {
		fmt.Fprintln(os.Stderr, "usage: solve [-server TARGET] [-gzip] (PUZZLE | -batch FILE|-)")
		os.Exit(64)
	}

	conn, err := grpc.NewClient(*server,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		// One connection per resolved address, calls spread over them (pick_first would use one).
		grpc.WithDefaultServiceConfig(`{"loadBalancingConfig": [{"round_robin": {}}]}`),
	)
	if err != nil {
		log.Fatalf("client for %s: %v", *server, err)
	}
	defer conn.Close()
	client := sudokuv1.NewSudokuServiceClient(conn)

	var opts []grpc.CallOption
	if *useGzip {
		opts = append(opts, grpc.UseCompressor(gzip.Name))
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()

	if *batch == "" {
		resp, err := client.Solve(ctx, &sudokuv1.SolveRequest{Puzzle: flag.Arg(0)}, opts...)
		if err != nil {
			st := status.Convert(err) // e.g. InvalidArgument with a message naming the clash
			log.Fatalf("%s: %s", st.Code(), st.Message())
		}
		fmt.Println(resp.GetVerdict(), resp.GetSolution())
		return
	}

	in := os.Stdin
	if *batch != "-" {
		if in, err = os.Open(*batch); err != nil {
			log.Fatal(err)
		}
		defer in.Close()
	}
	stream, err := client.SolveBatch(ctx, opts...)
	if err != nil {
		log.Fatal(err)
	}
	// Send from a goroutine so sending and receiving overlap: the server answers in order as it
	// goes, and stops reading when we stop reading (back-pressure), so sending everything first
	// could stall on a large file.
	sent := make(chan error, 1)
	go func() { sent <- sendAll(stream, in) }()

	counts := map[sudokuv1.Verdict]int{}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			st := status.Convert(err)
			log.Fatalf("SolveBatch: %s: %s", st.Code(), st.Message())
		}
		counts[resp.GetVerdict()]++
		answer := resp.GetSolution()
		if resp.GetVerdict() == sudokuv1.Verdict_VERDICT_INVALID {
			answer = resp.GetError()
		}
		fmt.Println(resp.GetId(), resp.GetVerdict(), answer)
	}
	if err := <-sent; err != nil {
		log.Fatal(err)
	}
	var summary []string
	for v := sudokuv1.Verdict_VERDICT_UNIQUE; v <= sudokuv1.Verdict_VERDICT_LIMIT_REACHED; v++ {
		if counts[v] > 0 {
			summary = append(summary, fmt.Sprintf("%d %s", counts[v], v))
		}
	}
	fmt.Fprintln(os.Stderr, strings.Join(summary, ", "))
	if counts[sudokuv1.Verdict_VERDICT_INVALID] > 0 {
		os.Exit(1)
	}
}

// sendAll streams one request per non-empty, non-comment line (the line number as its id), then
// closes the sending side.
func sendAll(stream interface {
	Send(*sudokuv1.SolveBatchRequest) error
	CloseSend() error
}, in io.Reader) error {
	scanner := bufio.NewScanner(in)
	for line := 1; scanner.Scan(); line++ {
		puzzle := strings.TrimSpace(scanner.Text())
		if puzzle == "" || strings.HasPrefix(puzzle, "#") {
			continue
		}
		req := &sudokuv1.SolveBatchRequest{Id: strconv.Itoa(line), Puzzle: puzzle}
		if err := stream.Send(req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil // the stream ended early; Recv reports why
			}
			return err
		}
	}
	if err := scanner.Err(); err != nil {
		return err
	}
	return stream.CloseSend()
}
