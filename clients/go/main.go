// Command sudoku calls the sudoku-grpc service from Go, one subcommand per RPC:
//
//	sudoku [-server HOST:PORT] solve PUZZLE
//	sudoku [-server HOST:PORT] batch FILE|-        # one puzzle per line, streamed through SolveBatch
//	sudoku [-server HOST:PORT] grade PUZZLE
//	sudoku [-server HOST:PORT] hint PUZZLE [PROGRESS]
//	sudoku [-server HOST:PORT] generate [COUNT]
//	sudoku [-server HOST:PORT] canonicalize PUZZLE
//
// The stubs are generated from proto/ at build time (scripts/e2e-go.sh shows how); nothing generated is
// committed. It builds with Debian's grpc-go 1.33 in GOPATH mode and with current grpc-go modules, so it
// uses grpc.Dial (grpc.NewClient needs v1.63+). With -server dns:///NAME:PORT (a Kubernetes headless
// Service) the client resolves every pod and spreads calls over them with round_robin, and a call that
// meets UNAVAILABLE is tried again (clients/service-config.json).
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
	"google.golang.org/grpc/status"

	sudokuv1 "sudoku-grpc/gen/go/sudoku/v1"
)

func main() {
	server := flag.String("server", "localhost:50051", "gRPC target; dns:///NAME:PORT balances over every address")
	timeout := flag.Duration("timeout", time.Minute, "deadline for the whole call")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: sudoku [-server TARGET] [-timeout D] solve|batch|grade|hint|generate|canonicalize ARGS")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(64)
	}

	conn, err := dial(*server)
	if err != nil {
		log.Fatalf("client for %s: %v", *server, err)
	}
	defer conn.Close()
	client := sudokuv1.NewSudokuServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()

	if err := run(ctx, client, flag.Arg(0), flag.Args()[1:]); err != nil {
		if st, ok := status.FromError(err); ok {
			log.Fatalf("%s: %s", st.Code(), st.Message()) // e.g. InvalidArgument naming the clash
		}
		log.Fatal(err)
	}
}

// serviceConfig is clients/service-config.json, embedded (go:embed cannot reach outside this folder;
// TestServiceConfigMatchesTheSharedFile keeps the two the same): round_robin over every resolved
// address, and calls that meet UNAVAILABLE (a pod gone or draining) tried again, up to 5 attempts
// with backoff. grpc-go before 1.40 retries only with GRPC_GO_RETRY=on in the environment.
const serviceConfig = `{
  "loadBalancingConfig": [{ "round_robin": {} }],
  "methodConfig": [
    {
      "name": [{ "service": "sudoku.v1.SudokuService" }],
      "retryPolicy": {
        "maxAttempts": 5,
        "initialBackoff": "0.1s",
        "maxBackoff": "2s",
        "backoffMultiplier": 2,
        "retryableStatusCodes": ["UNAVAILABLE"]
      }
    }
  ]
}`

// dial opens a channel to target: plaintext, one connection per resolved address, calls spread over them
// (pick_first would use one) and retried on another when a server is unavailable.
func dial(target string) (*grpc.ClientConn, error) {
	return grpc.Dial(target,
		grpc.WithInsecure(), //nolint:staticcheck // insecure.NewCredentials needs grpc-go 1.34+
		grpc.WithDefaultServiceConfig(serviceConfig),
	)
}

// arg is the i-th argument of a subcommand, or def when it has fewer.
func arg(args []string, i int, def string) string {
	if i < len(args) {
		return args[i]
	}
	return def
}

func run(ctx context.Context, client sudokuv1.SudokuServiceClient, command string, args []string) error {
	switch command {
	case "solve":
		resp, err := client.Solve(ctx, &sudokuv1.SolveRequest{Puzzle: arg(args, 0, "")})
		if err != nil {
			return err
		}
		fmt.Println(resp.GetVerdict(), resp.GetSolution())
	case "batch":
		return solveBatch(ctx, client, arg(args, 0, "-"))
	case "grade":
		resp, err := client.Grade(ctx, &sudokuv1.GradeRequest{Puzzle: arg(args, 0, "")})
		if err != nil {
			return err
		}
		fmt.Println(resp.GetVerdict(), resp.GetDifficulty(), resp.GetRating(), resp.GetHardestTechnique())
	case "hint":
		resp, err := client.Hint(ctx, &sudokuv1.HintRequest{Puzzle: arg(args, 0, ""), Progress: arg(args, 1, "")})
		if err != nil {
			return err
		}
		for _, m := range resp.GetMistakes() {
			fmt.Printf("mistake: %s at r%dc%d\n", m.GetSymbol(), m.GetRow()+1, m.GetCol()+1)
		}
		for _, step := range resp.GetSteps() {
			fmt.Println(step.GetTechnique(), step.GetExplanation())
		}
		if resp.GetSolved() {
			fmt.Println("solved")
		}
	case "generate":
		count, err := strconv.ParseUint(arg(args, 0, "1"), 10, 32)
		if err != nil {
			return fmt.Errorf("count: %w", err)
		}
		stream, err := client.Generate(ctx, &sudokuv1.GenerateRequest{Count: uint32(count)})
		if err != nil {
			return err
		}
		for {
			resp, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			fmt.Println(resp.GetPuzzle(), resp.GetDifficulty(), resp.GetRating())
		}
	case "canonicalize":
		resp, err := client.Canonicalize(ctx, &sudokuv1.CanonicalizeRequest{Puzzle: arg(args, 0, "")})
		if err != nil {
			return err
		}
		fmt.Println(resp.GetCanonical(), resp.GetTransform())
	default:
		return fmt.Errorf("unknown command %q", command)
	}
	return nil
}

// solveBatch streams a file of puzzles through SolveBatch and prints the answers in order.
func solveBatch(ctx context.Context, client sudokuv1.SudokuServiceClient, path string) error {
	in := os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	stream, err := client.SolveBatch(ctx)
	if err != nil {
		return err
	}
	// Send from a goroutine so sending and receiving overlap: the server answers in order as it goes and
	// stops reading when we stop reading (back-pressure), so sending everything first could stall.
	sent := make(chan error, 1)
	go func() { sent <- sendAll(stream, in) }()
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		answer := resp.GetSolution()
		if resp.GetVerdict() == sudokuv1.Verdict_VERDICT_INVALID {
			answer = resp.GetError()
		}
		fmt.Println(resp.GetId(), resp.GetVerdict(), answer)
	}
	return <-sent
}

// sendAll streams one request per non-empty, non-comment line (the line number as its id), then closes
// the sending side.
func sendAll(stream sudokuv1.SudokuService_SolveBatchClient, in io.Reader) error {
	scanner := bufio.NewScanner(in)
	for line := 1; scanner.Scan(); line++ {
		puzzle := strings.TrimSpace(scanner.Text())
		if puzzle == "" || strings.HasPrefix(puzzle, "#") {
			continue
		}
		if err := stream.Send(&sudokuv1.SolveBatchRequest{Id: strconv.Itoa(line), Puzzle: puzzle}); err != nil {
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
