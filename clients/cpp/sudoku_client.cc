// sudoku_client: the sudoku-grpc service from C++ (gRPC's synchronous API, as in grpc.io's examples).
//
//   sudoku_client [--server HOST:PORT] solve PUZZLE
//   sudoku_client [--server HOST:PORT] check DATA_DIR   # CI: every RPC, each answer checked
//
// `check` runs one function per RPC or behaviour, prints PASS or FAIL for each, and exits 1 if any failed.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "sudoku/v1/sudoku.grpc.pb.h"

namespace v1 = sudoku::v1;

namespace {

const std::string kClassic =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const std::string kClassicSolution =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

#define EXPECT(cond, what)                                               \
  do {                                                                   \
    if (!(cond)) throw Failure(std::string(what) + " (" #cond ")");      \
  } while (0)

void ExpectOk(const grpc::Status& status) {
  if (!status.ok())
    throw Failure("status " + std::to_string(status.error_code()) + ": " + status.error_message());
}

void SetTimeout(grpc::ClientContext& context, std::chrono::milliseconds timeout) {
  context.set_deadline(std::chrono::system_clock::now() + timeout);
}

// A valid 9x9 grid that keeps every given of the puzzle (81 cells, '.' or '0' for blanks).
void CheckSolution(const std::string& puzzle, const std::string& solution) {
  EXPECT(puzzle.size() == 81 && solution.size() == 81, "81 cells: " + solution);
  for (int i = 0; i < 9; ++i) {
    std::set<char> row, col, box;
    for (int j = 0; j < 9; ++j) {
      row.insert(solution[i * 9 + j]);
      col.insert(solution[j * 9 + i]);
      box.insert(solution[(i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3]);
    }
    EXPECT(row.size() == 9 && col.size() == 9 && box.size() == 9, "a unit repeats a digit: " + solution);
  }
  for (int i = 0; i < 81; ++i)
    EXPECT(puzzle[i] == '.' || puzzle[i] == '0' || puzzle[i] == solution[i], "a given changed: " + solution);
}

std::vector<std::string> ReadPuzzles(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> puzzles;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') puzzles.push_back(line);
  EXPECT(!puzzles.empty(), "no puzzles in " + path);
  return puzzles;
}

char SolutionAt(const v1::CellSymbol& cell) { return kClassicSolution.at(cell.row() * 9 + cell.col()); }

// The checks: one per RPC or behaviour.
class Checks {
 public:
  Checks(std::shared_ptr<grpc::Channel> channel, std::string data_dir)
      : stub_(v1::SudokuService::NewStub(channel)), data_dir_(std::move(data_dir)) {}

  void Solve() {
    v1::SolveResponse reply = SolveOne(kClassic);
    EXPECT(reply.verdict() == v1::VERDICT_UNIQUE && reply.solution() == kClassicSolution, reply.DebugString());
  }

  void SolveBatchFile() {
    auto puzzles = ReadPuzzles(data_dir_ + "/17_clue_sample.txt");
    grpc::ClientContext context;
    SetTimeout(context, std::chrono::seconds(60));
    auto stream = stub_->SolveBatch(&context);
    // Write from a thread while reading: the server answers as it goes and stops reading when we stop.
    std::thread writer([&] {
      v1::SolveBatchRequest request;
      for (size_t i = 0; i < puzzles.size(); ++i) {
        request.set_id("p" + std::to_string(i));
        request.set_puzzle(puzzles[i]);
        if (!stream->Write(request)) break;
      }
      stream->WritesDone();
    });
    v1::SolveBatchResponse reply;
    size_t received = 0;
    std::string problem;
    while (stream->Read(&reply)) {
      if (problem.empty() && (reply.index() != received || reply.id() != "p" + std::to_string(received) ||
                              reply.verdict() != v1::VERDICT_UNIQUE))
        problem = "answer " + std::to_string(received) + ": " + reply.DebugString();
      if (problem.empty()) CheckSolution(puzzles[received], reply.solution());
      ++received;
    }
    writer.join();
    ExpectOk(stream->Finish());
    EXPECT(problem.empty(), problem);
    EXPECT(received == puzzles.size(), std::to_string(received) + " answers");
  }

  void InvalidArgumentCarriesBadRequest() {
    grpc::ClientContext context;
    SetTimeout(context, std::chrono::seconds(10));
    v1::SolveRequest request;
    request.set_puzzle("55" + std::string(79, '.'));
    v1::SolveResponse reply;
    grpc::Status status = stub_->Solve(&context, request, &reply);
    EXPECT(status.error_code() == grpc::StatusCode::INVALID_ARGUMENT, status.error_message());
    EXPECT(status.error_message().find("row 1") != std::string::npos, status.error_message());
    google::rpc::Status details;
    EXPECT(details.ParseFromString(status.error_details()), "no google.rpc.Status in the trailers");
    for (const auto& any : details.details()) {
      google::rpc::BadRequest bad_request;
      if (any.UnpackTo(&bad_request) && bad_request.field_violations_size() > 0 &&
          !bad_request.field_violations(0).description().empty())
        return;
    }
    throw Failure("no BadRequest with a field violation: " + details.DebugString());
  }

  void Deadline() {
    auto hard = ReadPuzzles(data_dir_ + "/forum_hardest_1905_11plus_sample.txt");
    grpc::ClientContext context;
    SetTimeout(context, std::chrono::milliseconds(500));
    auto started = std::chrono::steady_clock::now();
    auto stream = stub_->SolveBatch(&context);
    std::thread writer([&] {  // far more work than half a second; stops when the call ends
      v1::SolveBatchRequest request;
      for (size_t i = 0;; ++i) {
        request.set_puzzle(hard[i % hard.size()]);
        if (!stream->Write(request)) break;
      }
    });
    v1::SolveBatchResponse reply;
    while (stream->Read(&reply)) {
    }
    writer.join();
    grpc::Status status = stream->Finish();
    EXPECT(status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED, status.error_message());
    EXPECT(std::chrono::steady_clock::now() - started < std::chrono::seconds(10), "slow to end");
    Solve();  // the server goes on serving
  }

  // The new RPCs: real answers required, UNIMPLEMENTED fails.

  void Grade() {
    v1::GradeRequest request;
    request.set_puzzle(kClassic);
    request.set_include_steps(true);
    v1::GradeResponse reply = Unary(&v1::SudokuService::Stub::Grade, request, std::chrono::seconds(30));
    EXPECT(reply.verdict() == v1::VERDICT_UNIQUE && reply.clues() == 30 && reply.rating() > 0 &&
               reply.difficulty() != v1::DIFFICULTY_UNSPECIFIED &&
               reply.hardest_technique() != v1::TECHNIQUE_UNSPECIFIED && reply.steps_size() > 0,
           reply.ShortDebugString());
    for (const auto& step : reply.steps())
      for (const auto& p : step.placements())
        EXPECT(p.symbol() == std::string(1, SolutionAt(p)), "a wrong placement: " + step.ShortDebugString());
  }

  void Hint() {
    v1::HintRequest request;
    request.set_puzzle(kClassic);
    v1::HintResponse reply = Unary(&v1::SudokuService::Stub::Hint, request, std::chrono::seconds(30));
    EXPECT(reply.verdict() == v1::VERDICT_UNIQUE && !reply.solved() && reply.mistakes_size() == 0 &&
               reply.steps_size() > 0,
           reply.ShortDebugString());
    const auto& last = reply.steps(reply.steps_size() - 1);
    EXPECT(last.placements_size() > 0 && last.placements(0).symbol() == std::string(1, SolutionAt(last.placements(0))),
           "the last step places no solution digit: " + last.ShortDebugString());
    // A wrong entry (1 at r1c3, where the solution has 4) is a mistake, and no step is given.
    request.set_progress("531" + kClassic.substr(3));
    reply = Unary(&v1::SudokuService::Stub::Hint, request, std::chrono::seconds(30));
    EXPECT(reply.mistakes_size() == 1 && reply.mistakes(0).row() == 0 && reply.mistakes(0).col() == 2 &&
               reply.mistakes(0).symbol() == "1" && reply.steps_size() == 0,
           reply.ShortDebugString());
  }

  void Generate() {
    auto first = GenerateThree(), again = GenerateThree();
    EXPECT(first.size() == 3 && again.size() == 3, "asked for 3 puzzles");
    for (size_t i = 0; i < first.size(); ++i) {
      const auto& g = first[i];
      EXPECT(g.index() == i && g.puzzle() == again[i].puzzle(), "the same seed, another puzzle: " + g.puzzle());
      CheckSolution(g.puzzle(), g.solution());
      EXPECT(g.clues() == 81 - std::count(g.puzzle().begin(), g.puzzle().end(), '.'), g.ShortDebugString());
      v1::SolveResponse solved = SolveOne(g.puzzle());
      EXPECT(solved.verdict() == v1::VERDICT_UNIQUE && solved.solution() == g.solution(), g.puzzle());
    }
  }

  void Canonicalize() {
    // The transpose of the classic puzzle with every digit d relabelled 10-d: the same class.
    std::string other(81, '.');
    for (int i = 0; i < 81; ++i) {
      char ch = kClassic[i % 9 * 9 + i / 9];
      other[i] = ch == '.' ? '.' : static_cast<char>('0' + 10 - (ch - '0'));
    }
    std::string key = Canonical(kClassic);
    EXPECT(key.size() == 81 && std::count(key.begin(), key.end(), '0') == 51, "canonical form " + key);
    EXPECT(Canonical(other) == key, "a relabelled transpose has another key");
    EXPECT(Canonical(key) == key, "the canonical form is not its own key");
  }

 private:
  std::vector<v1::GenerateResponse> GenerateThree() {
    grpc::ClientContext context;
    SetTimeout(context, std::chrono::seconds(60));
    v1::GenerateRequest request;
    request.set_count(3);
    request.set_seed(42);
    auto reader = stub_->Generate(&context, request);
    std::vector<v1::GenerateResponse> out;
    for (v1::GenerateResponse reply; reader->Read(&reply);) out.push_back(reply);
    ExpectOk(reader->Finish());
    return out;
  }

  // Calls a unary RPC of the stub (e.g. &v1::SudokuService::Stub::Grade); a status other than OK fails.
  template <typename Request, typename Reply>
  Reply Unary(grpc::Status (v1::SudokuService::Stub::*method)(grpc::ClientContext*, const Request&, Reply*),
              const Request& request, std::chrono::milliseconds timeout) {
    grpc::ClientContext context;
    SetTimeout(context, timeout);
    Reply reply;
    ExpectOk((stub_.get()->*method)(&context, request, &reply));
    return reply;
  }

  v1::SolveResponse SolveOne(const std::string& puzzle) {
    v1::SolveRequest request;
    request.set_puzzle(puzzle);
    return Unary(&v1::SudokuService::Stub::Solve, request, std::chrono::seconds(10));
  }

  std::string Canonical(const std::string& puzzle) {
    v1::CanonicalizeRequest request;
    request.set_puzzle(puzzle);
    v1::CanonicalizeResponse reply =
        Unary(&v1::SudokuService::Stub::Canonicalize, request, std::chrono::seconds(10));
    EXPECT(!reply.transform().empty(), "no transform");
    return reply.canonical();
  }

  std::unique_ptr<v1::SudokuService::Stub> stub_;
  std::string data_dir_;
};

int RunChecks(std::shared_ptr<grpc::Channel> channel, const std::string& data_dir) {
  Checks checks(channel, data_dir);
  const std::vector<std::pair<std::string, std::function<void()>>> all = {
      {"Solve", [&] { checks.Solve(); }},
      {"SolveBatchFile", [&] { checks.SolveBatchFile(); }},
      {"InvalidArgumentCarriesBadRequest", [&] { checks.InvalidArgumentCarriesBadRequest(); }},
      {"Deadline", [&] { checks.Deadline(); }},
      {"Grade", [&] { checks.Grade(); }},
      {"Hint", [&] { checks.Hint(); }},
      {"Generate", [&] { checks.Generate(); }},
      {"Canonicalize", [&] { checks.Canonicalize(); }},
  };
  int failed = 0;
  for (const auto& [name, check] : all) {
    try {
      check();
      std::cout << "PASS " << name << std::endl;
    } catch (const Failure& failure) {
      std::cout << "FAIL " << name << ": " << failure.what() << std::endl;
      ++failed;
    }
  }
  std::cout << all.size() - failed << " passed, " << failed << " failed" << std::endl;
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string server = "localhost:50051";
  if (args.size() >= 2 && args[0] == "--server") {
    server = args[1];
    args.erase(args.begin(), args.begin() + 2);
  }
  if (args.size() != 2 || (args[0] != "solve" && args[0] != "check")) {
    std::cerr << "usage: sudoku_client [--server HOST:PORT] (solve PUZZLE | check DATA_DIR)" << std::endl;
    return 64;
  }
  auto channel = grpc::CreateChannel(server, grpc::InsecureChannelCredentials());
  if (args[0] == "check") return RunChecks(channel, args[1]);

  auto stub = v1::SudokuService::NewStub(channel);
  grpc::ClientContext context;
  SetTimeout(context, std::chrono::seconds(60));
  v1::SolveRequest request;
  request.set_puzzle(args[1]);
  v1::SolveResponse reply;
  grpc::Status status = stub->Solve(&context, request, &reply);
  if (!status.ok()) {
    std::cerr << "error " << status.error_code() << ": " << status.error_message() << std::endl;
    return 2;
  }
  std::cout << v1::Verdict_Name(reply.verdict()) << " " << reply.solution() << std::endl;
  return 0;
}
