// The CI checks: every RPC called through the generated stubs against the real server at
// $SUDOKU_TEST_ADDR (scripts/e2e-go.sh starts one), each answer checked. One test per RPC or behaviour.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	sudokuv1 "sudoku-grpc/gen/go/sudoku/v1"
)

const (
	classic         = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
	classicSolution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)

// client connects to the server under test; the connection closes when the test ends.
func client(t *testing.T) sudokuv1.SudokuServiceClient {
	t.Helper()
	addr := os.Getenv("SUDOKU_TEST_ADDR")
	if addr == "" {
		t.Fatal("SUDOKU_TEST_ADDR is not set: run scripts/e2e-go.sh")
	}
	conn, err := dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return sudokuv1.NewSudokuServiceClient(conn)
}

func timeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// checkSolution fails unless solution is a valid 9x9 grid keeping every given of puzzle (81 cells).
func checkSolution(t *testing.T, puzzle, solution string) {
	t.Helper()
	if len(solution) != 81 || len(puzzle) != 81 {
		t.Fatalf("want 81 cells: puzzle %q, solution %q", puzzle, solution)
	}
	for i := 0; i < 9; i++ {
		row, col, box := map[byte]bool{}, map[byte]bool{}, map[byte]bool{}
		for j := 0; j < 9; j++ {
			row[solution[i*9+j]] = true
			col[solution[j*9+i]] = true
			box[solution[(i/3*3+j/3)*9+i%3*3+j%3]] = true
		}
		if len(row) != 9 || len(col) != 9 || len(box) != 9 {
			t.Fatalf("unit %d repeats a digit: %s", i+1, solution)
		}
	}
	for i := range puzzle {
		if puzzle[i] != '.' && puzzle[i] != '0' && puzzle[i] != solution[i] {
			t.Fatalf("given %c at cell %d changed: %s", puzzle[i], i, solution)
		}
	}
}

// readPuzzles reads one puzzle per line from tests/data ($SUDOKU_TEST_DATA), skipping blanks and comments.
func readPuzzles(t *testing.T, name string) []string {
	t.Helper()
	dir := os.Getenv("SUDOKU_TEST_DATA")
	if dir == "" {
		dir = "../../tests/data"
	}
	f, err := os.Open(dir + "/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var puzzles []string
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		if line := strings.TrimSpace(scanner.Text()); line != "" && !strings.HasPrefix(line, "#") {
			puzzles = append(puzzles, line)
		}
	}
	if err := scanner.Err(); err != nil || len(puzzles) == 0 {
		t.Fatalf("%s: %v (%d puzzles)", name, err, len(puzzles))
	}
	return puzzles
}

func TestSolve(t *testing.T) {
	resp, err := client(t).Solve(timeout(t, 10*time.Second), &sudokuv1.SolveRequest{Puzzle: classic})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetVerdict() != sudokuv1.Verdict_VERDICT_UNIQUE || resp.GetSolution() != classicSolution {
		t.Fatalf("got %v %q", resp.GetVerdict(), resp.GetSolution())
	}
}

func TestSolveBatchFile(t *testing.T) {
	puzzles := readPuzzles(t, "17_clue_sample.txt")
	stream, err := client(t).SolveBatch(timeout(t, time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	go sendAll(stream, strings.NewReader(strings.Join(puzzles, "\n"))) // ids are line numbers from 1
	for i := 0; ; i++ {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			if i != len(puzzles) {
				t.Fatalf("%d answers for %d puzzles", i, len(puzzles))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetIndex() != uint64(i) || resp.GetId() != strconv.Itoa(i+1) {
			t.Fatalf("answer %d has index %d, id %q", i, resp.GetIndex(), resp.GetId())
		}
		if resp.GetVerdict() != sudokuv1.Verdict_VERDICT_UNIQUE {
			t.Fatalf("puzzle %d: %v %s", i, resp.GetVerdict(), resp.GetError())
		}
		checkSolution(t, puzzles[i], resp.GetSolution())
	}
}

func TestInvalidArgumentCarriesBadRequest(t *testing.T) {
	_, err := client(t).Solve(timeout(t, 10*time.Second), &sudokuv1.SolveRequest{Puzzle: "55" + strings.Repeat(".", 79)})
	st := status.Convert(err)
	if st.Code() != codes.InvalidArgument || !strings.Contains(strings.ToLower(st.Message()), "row 1") {
		t.Fatalf("got %v: %q", st.Code(), st.Message())
	}
	for _, detail := range st.Details() {
		if br, ok := detail.(*errdetails.BadRequest); ok && len(br.GetFieldViolations()) > 0 &&
			br.GetFieldViolations()[0].GetDescription() != "" {
			return
		}
	}
	t.Fatalf("no google.rpc.BadRequest with a field violation in %v", st.Details())
}

func TestDeadline(t *testing.T) {
	c := client(t)
	stream, err := c.SolveBatch(timeout(t, 500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	hard := readPuzzles(t, "forum_hardest_1905_11plus_sample.txt")
	go func() { // far more work than half a second; stops when the call ends
		for i := 0; stream.Send(&sudokuv1.SolveBatchRequest{Puzzle: hard[i%len(hard)]}) == nil; i++ {
		}
	}()
	started := time.Now()
	for {
		if _, err = stream.Recv(); err != nil {
			break
		}
	}
	if status.Code(err) != codes.DeadlineExceeded || time.Since(started) > 10*time.Second {
		t.Fatalf("got %v after %v", err, time.Since(started))
	}
	// The server goes on serving.
	resp, err := c.Solve(timeout(t, 10*time.Second), &sudokuv1.SolveRequest{Puzzle: classic})
	if err != nil || resp.GetSolution() != classicSolution {
		t.Fatalf("after the deadline: %v %v", resp, err)
	}
}

// The new RPCs (Grade, Hint, Generate, Canonicalize): real answers required, UNIMPLEMENTED fails.

func TestGrade(t *testing.T) {
	resp, err := client(t).Grade(timeout(t, 30*time.Second), &sudokuv1.GradeRequest{Puzzle: classic, IncludeSteps: true})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetVerdict() != sudokuv1.Verdict_VERDICT_UNIQUE || resp.GetClues() != 30 || resp.GetRating() <= 0 ||
		resp.GetDifficulty() == sudokuv1.Difficulty_DIFFICULTY_UNSPECIFIED ||
		resp.GetHardestTechnique() == sudokuv1.Technique_TECHNIQUE_UNSPECIFIED || len(resp.GetSteps()) == 0 {
		t.Fatalf("grade: %v", resp)
	}
	for _, step := range resp.GetSteps() {
		for _, p := range step.GetPlacements() {
			if want := classicSolution[p.GetRow()*9+p.GetCol()]; p.GetSymbol() != string(want) {
				t.Fatalf("step %v places %s at r%dc%d, solution has %c", step.GetTechnique(), p.GetSymbol(), p.GetRow()+1, p.GetCol()+1, want)
			}
		}
	}
}

func TestHint(t *testing.T) {
	c := client(t)
	resp, err := c.Hint(timeout(t, 30*time.Second), &sudokuv1.HintRequest{Puzzle: classic})
	if err != nil {
		t.Fatal(err)
	}
	steps := resp.GetSteps()
	if resp.GetVerdict() != sudokuv1.Verdict_VERDICT_UNIQUE || resp.GetSolved() || len(resp.GetMistakes()) != 0 || len(steps) == 0 {
		t.Fatalf("hint: %v", resp)
	}
	last := steps[len(steps)-1].GetPlacements()
	if len(last) == 0 || last[0].GetSymbol() != string(classicSolution[last[0].GetRow()*9+last[0].GetCol()]) {
		t.Fatalf("the last step places no solution digit: %v", steps[len(steps)-1])
	}
	// A wrong entry (1 at r1c3, where the solution has 4) is a mistake, and no step is given.
	resp, err = c.Hint(timeout(t, 30*time.Second), &sudokuv1.HintRequest{Puzzle: classic, Progress: "531" + classic[3:]})
	if err != nil {
		t.Fatal(err)
	}
	m := resp.GetMistakes()
	if len(m) != 1 || m[0].GetRow() != 0 || m[0].GetCol() != 2 || m[0].GetSymbol() != "1" || len(resp.GetSteps()) != 0 {
		t.Fatalf("hint with a mistake: %v", resp)
	}
}

func TestGenerate(t *testing.T) {
	c := client(t)
	generate := func() []*sudokuv1.GenerateResponse {
		stream, err := c.Generate(timeout(t, time.Minute), &sudokuv1.GenerateRequest{Count: 3, Seed: 42})
		if err != nil {
			t.Fatal(err)
		}
		var out []*sudokuv1.GenerateResponse
		for {
			resp, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, resp)
		}
	}
	first, again := generate(), generate()
	if len(first) != 3 || len(again) != 3 {
		t.Fatalf("asked for 3 puzzles, got %d and %d", len(first), len(again))
	}
	for i, g := range first {
		if g.GetIndex() != uint64(i) || g.GetPuzzle() != again[i].GetPuzzle() {
			t.Fatalf("puzzle %d: index %d, and the same seed gave %q then %q", i, g.GetIndex(), g.GetPuzzle(), again[i].GetPuzzle())
		}
		checkSolution(t, g.GetPuzzle(), g.GetSolution())
		if clues := 81 - strings.Count(g.GetPuzzle(), "."); g.GetClues() != uint32(clues) {
			t.Fatalf("puzzle %d has %d clues, says %d", i, clues, g.GetClues())
		}
		solved, err := c.Solve(timeout(t, 10*time.Second), &sudokuv1.SolveRequest{Puzzle: g.GetPuzzle()})
		if err != nil || solved.GetVerdict() != sudokuv1.Verdict_VERDICT_UNIQUE || solved.GetSolution() != g.GetSolution() {
			t.Fatalf("puzzle %d %s is not unique with that solution: %v %v", i, g.GetPuzzle(), solved, err)
		}
	}
}

func TestCanonicalize(t *testing.T) {
	c := client(t)
	canon := func(puzzle string) string {
		resp, err := c.Canonicalize(timeout(t, 10*time.Second), &sudokuv1.CanonicalizeRequest{Puzzle: puzzle})
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetTransform() == "" {
			t.Fatalf("no transform for %s", puzzle)
		}
		return resp.GetCanonical()
	}
	// The transpose of the classic puzzle with every digit d relabelled 10-d: the same class.
	var other [81]byte
	for i := range other {
		ch := classic[i%9*9+i/9]
		if ch != '.' {
			ch = '0' + 10 - (ch - '0')
		}
		other[i] = ch
	}
	key := canon(classic)
	if len(key) != 81 || 81-strings.Count(key, "0") != 30 {
		t.Fatalf("canonical form %q: want 81 cells, 30 of them givens", key)
	}
	if got := canon(string(other[:])); got != key {
		t.Fatalf("a relabelled transpose has another key:\n%s\n%s", got, key)
	}
	if got := canon(key); got != key {
		t.Fatalf("the canonical form is not its own key: %s", got)
	}
}

// TestServiceConfigMatchesTheSharedFile keeps the embedded service config the same as
// clients/service-config.json, which the other clients load.
func TestServiceConfigMatchesTheSharedFile(t *testing.T) {
	path := "../service-config.json"
	if dir := os.Getenv("SUDOKU_TEST_DATA"); dir != "" {
		path = filepath.Join(dir, "..", "..", "clients", "service-config.json")
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var shared, embedded interface{}
	if err := json.Unmarshal(text, &shared); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := json.Unmarshal([]byte(serviceConfig), &embedded); err != nil {
		t.Fatalf("serviceConfig: %v", err)
	}
	if !reflect.DeepEqual(shared, embedded) {
		t.Fatalf("serviceConfig differs from %s", path)
	}
}
