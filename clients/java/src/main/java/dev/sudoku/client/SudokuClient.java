package dev.sudoku.client;

import com.google.gson.Gson;
import com.google.gson.reflect.TypeToken;
import com.google.rpc.BadRequest;
import dev.sudoku.v1.CanonicalizeRequest;
import dev.sudoku.v1.CellSymbol;
import dev.sudoku.v1.Difficulty;
import dev.sudoku.v1.GenerateRequest;
import dev.sudoku.v1.GenerateResponse;
import dev.sudoku.v1.GradeRequest;
import dev.sudoku.v1.GradeResponse;
import dev.sudoku.v1.HintRequest;
import dev.sudoku.v1.HintResponse;
import dev.sudoku.v1.SolveBatchRequest;
import dev.sudoku.v1.SolveBatchResponse;
import dev.sudoku.v1.SolveRequest;
import dev.sudoku.v1.SolveResponse;
import dev.sudoku.v1.Step;
import dev.sudoku.v1.SudokuServiceGrpc;
import dev.sudoku.v1.Technique;
import dev.sudoku.v1.Verdict;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The sudoku-grpc service from Java (grpc-java's blocking and async stubs, as in grpc.io's examples).
 *
 * <pre>
 *   SudokuClient [--server HOST:PORT] solve PUZZLE
 *   SudokuClient [--server HOST:PORT] check DATA_DIR   # CI: every RPC, each answer checked
 * </pre>
 *
 * <p>{@code check} runs one method per RPC or behaviour, prints PASS or FAIL for each, and exits 1 if any
 * failed.
 */
public final class SudokuClient {
  static final String CLASSIC =
      "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
  static final String CLASSIC_SOLUTION =
      "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

  /**
   * clients/service-config.json, embedded (the {@code ServiceConfig} check keeps the two the same):
   * round_robin over every address a dns:/// name resolves to, and calls that meet UNAVAILABLE (a pod
   * gone or draining) tried again, up to 5 attempts with backoff.
   */
  static final String SERVICE_CONFIG =
      """
      {
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
      }
      """;

  /** A service config as grpc-java takes it: objects as maps, lists, strings, numbers as doubles. */
  static Map<String, ?> serviceConfig(String json) {
    Type type = new TypeToken<Map<String, Object>>() {}.getType();
    return new Gson().fromJson(json, type);
  }

  private final SudokuServiceGrpc.SudokuServiceBlockingStub blockingStub;
  private final SudokuServiceGrpc.SudokuServiceStub asyncStub;
  private final Path dataDir;

  SudokuClient(ManagedChannel channel, Path dataDir) {
    this.blockingStub = SudokuServiceGrpc.newBlockingStub(channel);
    this.asyncStub = SudokuServiceGrpc.newStub(channel);
    this.dataDir = dataDir;
  }

  private SudokuServiceGrpc.SudokuServiceBlockingStub blocking(long seconds) {
    return blockingStub.withDeadlineAfter(seconds, TimeUnit.SECONDS);
  }

  static void expect(boolean condition, Object what) {
    if (!condition) {
      throw new AssertionError(String.valueOf(what));
    }
  }

  /** A valid 9x9 grid that keeps every given of the puzzle (81 cells, '.' or '0' for blanks). */
  static void checkSolution(String puzzle, String solution) {
    expect(puzzle.length() == 81 && solution.length() == 81, "81 cells: " + solution);
    for (int i = 0; i < 9; i++) {
      Set<Character> row = new HashSet<>(), col = new HashSet<>(), box = new HashSet<>();
      for (int j = 0; j < 9; j++) {
        row.add(solution.charAt(i * 9 + j));
        col.add(solution.charAt(j * 9 + i));
        box.add(solution.charAt((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3));
      }
      expect(row.size() == 9 && col.size() == 9 && box.size() == 9, "a unit repeats a digit: " + solution);
    }
    for (int i = 0; i < 81; i++) {
      char given = puzzle.charAt(i);
      expect(given == '.' || given == '0' || given == solution.charAt(i), "a given changed: " + solution);
    }
  }

  List<String> readPuzzles(String name) throws Exception {
    List<String> puzzles =
        Files.readAllLines(dataDir.resolve(name)).stream()
            .map(String::strip)
            .filter(line -> !line.isEmpty() && !line.startsWith("#"))
            .collect(Collectors.toList());
    expect(!puzzles.isEmpty(), "no puzzles in " + name);
    return puzzles;
  }

  static String solutionAt(CellSymbol cell) {
    return String.valueOf(CLASSIC_SOLUTION.charAt(cell.getRow() * 9 + cell.getCol()));
  }

  /** Streams the requests through SolveBatch and collects every answer, or the call's error. */
  CompletableFuture<List<SolveBatchResponse>> solveBatch(
      Iterator<SolveBatchRequest> requests, long timeoutMillis) {
    CompletableFuture<List<SolveBatchResponse>> done = new CompletableFuture<>();
    List<SolveBatchResponse> replies = new ArrayList<>();
    StreamObserver<SolveBatchRequest> outbound =
        asyncStub
            .withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS)
            .solveBatch(
                new StreamObserver<>() {
                  @Override
                  public void onNext(SolveBatchResponse reply) {
                    replies.add(reply);
                  }

                  @Override
                  public void onError(Throwable t) {
                    done.completeExceptionally(t);
                  }

                  @Override
                  public void onCompleted() {
                    done.complete(replies);
                  }
                });
    while (requests.hasNext() && !done.isDone()) {
      outbound.onNext(requests.next());
    }
    outbound.onCompleted();
    return done;
  }

  void solve() {
    SolveResponse reply = blocking(10).solve(SolveRequest.newBuilder().setPuzzle(CLASSIC).build());
    expect(reply.getVerdict() == Verdict.VERDICT_UNIQUE, reply);
    expect(reply.getSolution().equals(CLASSIC_SOLUTION), reply);
  }

  void solveBatchFile() throws Exception {
    List<String> puzzles = readPuzzles("17_clue_sample.txt");
    Iterator<SolveBatchRequest> requests =
        IntStream.range(0, puzzles.size())
            .mapToObj(i -> SolveBatchRequest.newBuilder().setId("p" + i).setPuzzle(puzzles.get(i)).build())
            .iterator();
    List<SolveBatchResponse> replies = solveBatch(requests, 60_000).get();
    expect(replies.size() == puzzles.size(), replies.size() + " answers");
    for (int i = 0; i < replies.size(); i++) {
      SolveBatchResponse reply = replies.get(i);
      expect(reply.getIndex() == i && reply.getId().equals("p" + i), reply);
      expect(reply.getVerdict() == Verdict.VERDICT_UNIQUE, reply);
      checkSolution(puzzles.get(i), reply.getSolution());
    }
  }

  void invalidArgumentCarriesBadRequest() throws Exception {
    try {
      blocking(10).solve(SolveRequest.newBuilder().setPuzzle("55" + ".".repeat(79)).build());
      throw new AssertionError("a clash was solved");
    } catch (StatusRuntimeException e) {
      expect(e.getStatus().getCode() == Status.Code.INVALID_ARGUMENT, e.getStatus());
      expect(e.getStatus().getDescription().toLowerCase().contains("row 1"), e.getStatus());
      com.google.rpc.Status status = StatusProto.fromThrowable(e);
      expect(status != null, "no google.rpc.Status in the trailers");
      for (com.google.protobuf.Any detail : status.getDetailsList()) {
        if (detail.is(BadRequest.class)) {
          BadRequest badRequest = detail.unpack(BadRequest.class);
          if (badRequest.getFieldViolationsCount() > 0
              && !badRequest.getFieldViolations(0).getDescription().isEmpty()) {
            return;
          }
        }
      }
      throw new AssertionError("no BadRequest with a field violation: " + status);
    }
  }

  void deadline() throws Exception {
    List<String> hard = readPuzzles("forum_hardest_1905_11plus_sample.txt");
    // Far more work than half a second; grpc-java buffers what the server is not ready to read.
    Iterator<SolveBatchRequest> requests =
        IntStream.range(0, 50_000)
            .mapToObj(i -> SolveBatchRequest.newBuilder().setPuzzle(hard.get(i % hard.size())).build())
            .iterator();
    long started = System.nanoTime();
    try {
      solveBatch(requests, 500).get();
      throw new AssertionError("the stream outlived its deadline");
    } catch (ExecutionException e) {
      expect(Status.fromThrowable(e.getCause()).getCode() == Status.Code.DEADLINE_EXCEEDED, e.getCause());
    }
    expect(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(10), "slow to end");
    solve(); // the server goes on serving
  }

  // The new RPCs: real answers required, UNIMPLEMENTED fails.

  void grade() {
    GradeResponse reply =
        blocking(30).grade(GradeRequest.newBuilder().setPuzzle(CLASSIC).setIncludeSteps(true).build());
    expect(
        reply.getVerdict() == Verdict.VERDICT_UNIQUE
            && reply.getClues() == 30
            && reply.getRating() > 0
            && reply.getDifficulty() != Difficulty.DIFFICULTY_UNSPECIFIED
            && reply.getHardestTechnique() != Technique.TECHNIQUE_UNSPECIFIED
            && reply.getStepsCount() > 0,
        reply);
    for (Step step : reply.getStepsList()) {
      for (CellSymbol placement : step.getPlacementsList()) {
        expect(placement.getSymbol().equals(solutionAt(placement)), "a wrong placement: " + step);
      }
    }
  }

  void hint() {
    HintResponse reply = blocking(30).hint(HintRequest.newBuilder().setPuzzle(CLASSIC).build());
    expect(
        reply.getVerdict() == Verdict.VERDICT_UNIQUE
            && !reply.getSolved()
            && reply.getMistakesCount() == 0
            && reply.getStepsCount() > 0,
        reply);
    Step last = reply.getSteps(reply.getStepsCount() - 1);
    expect(
        last.getPlacementsCount() > 0 && last.getPlacements(0).getSymbol().equals(solutionAt(last.getPlacements(0))),
        "the last step places no solution digit: " + last);
    // A wrong entry (1 at r1c3, where the solution has 4) is a mistake, and no step is given.
    reply =
        blocking(30)
            .hint(HintRequest.newBuilder().setPuzzle(CLASSIC).setProgress("531" + CLASSIC.substring(3)).build());
    expect(
        reply.getMistakesCount() == 1
            && reply.getMistakes(0).getRow() == 0
            && reply.getMistakes(0).getCol() == 2
            && reply.getMistakes(0).getSymbol().equals("1")
            && reply.getStepsCount() == 0,
        reply);
  }

  List<GenerateResponse> generateThree() {
    List<GenerateResponse> out = new ArrayList<>();
    blocking(60).generate(GenerateRequest.newBuilder().setCount(3).setSeed(42).build()).forEachRemaining(out::add);
    return out;
  }

  void generate() {
    List<GenerateResponse> first = generateThree(), again = generateThree();
    expect(first.size() == 3 && again.size() == 3, "asked for 3 puzzles");
    for (int i = 0; i < first.size(); i++) {
      GenerateResponse g = first.get(i);
      expect(g.getIndex() == i && g.getPuzzle().equals(again.get(i).getPuzzle()), "the same seed, another puzzle: " + g);
      checkSolution(g.getPuzzle(), g.getSolution());
      expect(g.getClues() == g.getPuzzle().chars().filter(ch -> ch != '.').count(), g);
      SolveResponse solved = blocking(10).solve(SolveRequest.newBuilder().setPuzzle(g.getPuzzle()).build());
      expect(solved.getVerdict() == Verdict.VERDICT_UNIQUE && solved.getSolution().equals(g.getSolution()), g);
    }
  }

  String canonical(String puzzle) {
    var reply = blocking(10).canonicalize(CanonicalizeRequest.newBuilder().setPuzzle(puzzle).build());
    expect(!reply.getTransform().isEmpty(), "no transform: " + reply);
    return reply.getCanonical();
  }

  void canonicalize() {
    // The transpose of the classic puzzle with every digit d relabelled 10-d: the same class.
    StringBuilder other = new StringBuilder();
    for (int i = 0; i < 81; i++) {
      char ch = CLASSIC.charAt(i % 9 * 9 + i / 9);
      other.append(ch == '.' ? '.' : (char) ('0' + 10 - (ch - '0')));
    }
    String key = canonical(CLASSIC);
    expect(key.length() == 81 && key.chars().filter(ch -> ch == '0').count() == 51, "canonical form " + key);
    expect(canonical(other.toString()).equals(key), "a relabelled transpose has another key");
    expect(canonical(key).equals(key), "the canonical form is not its own key");
  }

  void serviceConfigMatchesTheSharedFile() throws Exception {
    Path shared = dataDir.resolve("../../clients/service-config.json");
    expect(
        serviceConfig(Files.readString(shared)).equals(serviceConfig(SERVICE_CONFIG)),
        "SERVICE_CONFIG differs from " + shared);
  }

  interface Check {
    void run() throws Exception;
  }

  int runChecks() {
    Map<String, Check> checks = new LinkedHashMap<>();
    checks.put("Solve", this::solve);
    checks.put("SolveBatchFile", this::solveBatchFile);
    checks.put("InvalidArgumentCarriesBadRequest", this::invalidArgumentCarriesBadRequest);
    checks.put("Deadline", this::deadline);
    checks.put("Grade", this::grade);
    checks.put("Hint", this::hint);
    checks.put("Generate", this::generate);
    checks.put("Canonicalize", this::canonicalize);
    checks.put("ServiceConfig", this::serviceConfigMatchesTheSharedFile);
    int failed = 0;
    for (Map.Entry<String, Check> check : checks.entrySet()) {
      try {
        check.getValue().run();
        System.out.println("PASS " + check.getKey());
      } catch (Exception | AssertionError e) {
        System.out.println("FAIL " + check.getKey() + ": " + e);
        failed++;
      }
    }
    System.out.println((checks.size() - failed) + " passed, " + failed + " failed");
    return failed == 0 ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    String server = "localhost:50051";
    if (args.length >= 2 && args[0].equals("--server")) {
      server = args[1];
      args = Arrays.copyOfRange(args, 2, args.length);
    }
    if (args.length != 2 || !(args[0].equals("solve") || args[0].equals("check"))) {
      System.err.println("usage: SudokuClient [--server HOST:PORT] (solve PUZZLE | check DATA_DIR)");
      System.exit(64);
    }
    ManagedChannel channel =
        ManagedChannelBuilder.forTarget(server)
            .usePlaintext()
            .defaultServiceConfig(serviceConfig(SERVICE_CONFIG))
            .enableRetry()
            .build();
    int code = 0;
    try {
      SudokuClient client = new SudokuClient(channel, Path.of(args[0].equals("check") ? args[1] : "."));
      if (args[0].equals("check")) {
        code = client.runChecks();
      } else {
        SolveResponse reply = client.blocking(60).solve(SolveRequest.newBuilder().setPuzzle(args[1]).build());
        System.out.println(reply.getVerdict() + " " + reply.getSolution());
      }
    } catch (StatusRuntimeException e) {
      System.err.println("error: " + e.getStatus());
      code = 2;
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    System.exit(code);
  }
}
