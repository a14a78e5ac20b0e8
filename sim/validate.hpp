// The simulator against GPU recordings (tests/data/real/<machine>, recorded by
// tools/record/run_all.sh; formats in tools/record/README.md). Used by
// `linkcast_validate_real` (tools/validate) and the tests.
//
//  - Concurrent copies (concurrency_trace.csv.gz, concurrency_summary.csv): every pattern
//    (copies released together, one stream each) simulated once per size; its simulated makespan
//    against the median measured one less the recording's own overhead (release and cross-GPU
//    signalling: the median of makespan - copy duration over the copies run alone). Baseline: no
//    contention, every copy taking its time alone (what per-operation projection predicts).
//  - NCCL collectives (nccl_bench.csv, variants default / ring / tree / forced protocols): each
//    size's loop of calls on the recorded GPUs (forced variants pinned to that algorithm and
//    protocol, default left to NCCL's choice), simulated time per call against the measured mean;
//    baseline: NCCL's own cost model for the same algorithm and protocol.
#pragma once

#include <limits>
#include <map>
#include <compare>
#include <string>
#include <string_view>
#include <vector>

#include "sim/simulate.hpp"
#include "topology/node.hpp"

namespace linkcast::sim {

/// A recording's CSV table (nccl_bench.csv and its kin): one map per row, from the header's column
/// names to the row's fields, trimmed (and unquoted), plus kRecordingLineKey: the row's line in
/// the file, for messages. Blank lines and lines starting with # are skipped, a UTF-8 byte order
/// mark is dropped. Throws InputError naming the file where it cannot be opened.
inline constexpr const char* kRecordingLineKey = "#line";
[[nodiscard]] std::vector<std::map<std::string, std::string>> read_recording_csv(
    const std::string& path);

/// Where an NCCL case's host pace came from: none (a CUDA graph replay, or a loop that waits for
/// nothing but stream order), the host's recorded time per call (issue_us), the same loop's calls
/// of up to kCallFloorMaxBytes (small_calls), or the node's collective_call_us (node: the recording
/// measured none). unpaced: a nccl-tests loop issued by its process whose pace the table did not
/// measure (no calls of up to kCallFloorMaxBytes, or those calls themselves), simulated without a
/// host. launch_bound: a CUDA graph replay whose launch held the host for at least
/// kLaunchBoundShare of the calls' time (on the 2 x H200 machines graphs of 80 calls, and of 64
/// calls each on a new buffer set: the launch does not queue them all, and the host feeds the GPUs
/// as they free room, 9-20 us more a call), so the recording cannot tell the GPUs' time from the
/// host's feed; simulated as a replay.
enum class HostPace { none, issue_us, small_calls, node, launch_bound, unpaced };
inline constexpr double kLaunchBoundShare = 0.8;
[[nodiscard]] std::string_view to_string(HostPace pace);

struct ValidationCase {
  std::string
      group;  // "copies" or "nccl/<variant>" (+ kGraphSuffix where replayed from a CUDA graph)
  std::string name;         // pattern or collective
  std::uint64_t bytes = 0;  // per copy, or the collective's size as nccl-tests counts it
  int ops = 0;              // copies in the pattern, or ranks
  double measured_ns = 0, simulated_ns = 0, baseline_ns = 0;
  std::string note;  // collectives: the algorithm/protocol simulated
  // Collectives issued from a process (eager rows): the host's time per call to issue them that
  // the simulated calls waited for, and where it came from; 0 where the node's collective_call_us
  // stood in and for graph replays.
  double issue_us = 0;
  HostPace pace = HostPace::none;
  double error() const { return (simulated_ns - measured_ns) / measured_ns; }
  double baseline_error() const { return (baseline_ns - measured_ns) / measured_ns; }
};

/// Concurrent-copy patterns of one recording (none when it has no concurrency_trace.csv.gz).
/// `overhead_ns` receives the recording overhead subtracted from the measured makespans.
std::vector<ValidationCase> validate_copies(const std::string& dir, const topology::Node& node,
                                            double* overhead_ns = nullptr);
/// `calls` calls of `kind` on the ranks gpu0 .. gpu<n-1> (broadcast and reduce from rank 0),
/// back to back on each rank's stream, in a trace of the given format ("synthetic": each call
/// waits for its process to issue it; "cuda-graph": for nothing but stream order). Rank r's
/// first call is released at start_ns[r] where given.
trace::Trace collective_calls(trace::OpKind kind, int n, std::uint64_t bytes, int calls,
                              const std::string& format, const std::vector<double>& start_ns = {});

/// The group suffix of NCCL cases timed as CUDA graph replays (nccl_bench.py --launch graph).
inline constexpr const char* kGraphSuffix = "+graph";

/// NCCL collectives of one recording (none when it has no nccl_bench.csv): every variant the
/// simulator runs (default, ring, tree and their forced protocols), each row's `iters` calls back
/// to back as the recording timed them (eager rows: issued by a process, each call waiting for
/// the host's recorded time per call, `issue_us`, else, for calls larger than kCallFloorMaxBytes,
/// the median time of the same variant's, collective's and rank count's eager calls of up to that
/// size, else the node's collective_call_us; `launch` graph rows: replayed from a CUDA graph, no issue time),
/// simulated time per call against the recorded one.
/// Which of a recording's NCCL rows to simulate: by how they were launched, by collective and by
/// size. A check of some calls need not simulate the rest (a folder's calls of up to 4 GiB take
/// minutes, ten times that under AddressSanitizer).
enum class Launches { all, graph_only, eager_only };
struct CallSelection {
  Launches launches = Launches::all;
  std::string collective;  // as the recording names it ("alltoall"); empty: every collective
  std::uint64_t min_bytes = 0;
  std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max();

  auto operator<=>(const CallSelection&) const = default;
};
std::vector<ValidationCase> validate_collectives(const std::string& dir, const topology::Node& node,
                                                 const CallSelection& selection = {});

/// How consecutive calls overlap across ranks (nccl_pipeline.csv of tools/record/run_pipeline.sh;
/// none without it): "pipeline/calls" cases, K calls replayed back to back from a CUDA graph
/// (the slowest rank's median replay, per call); "pipeline/on time" and "pipeline/rank R late",
/// one broadcast from rank 0 with rank R released that much later (its recorded sleep), each
/// rank's time from its own start. Baseline: NCCL's model for one call.
std::vector<ValidationCase> validate_pipeline(const std::string& dir, const topology::Node& node);

/// Calls of at most this size measure the per-call floor, not the GPUs: NCCL moves 64 KiB in a
/// few microseconds on any link, under the host's issue time of every recording.
inline constexpr std::uint64_t kCallFloorMaxBytes = std::uint64_t{64} << 10;
/// The per-call floor of a recording (a node's collective_call_us): the median time per call of
/// its `default` collectives of at most kCallFloorMaxBytes, which ran back to back; NaN when the
/// recording has none.
double collective_call_floor_us(const std::string& dir);

/// Published or a user's own nccl-tests tables (sim/nccl_tests_log.hpp) listed in the folder's
/// nccl_tests.csv (columns file; test, optional: one test of the file, e.g. all_gather_perf, else
/// each; variant: default, ring, ring_simple, tree_ll128, ... as nccl_bench.csv names them, empty:
/// what NCCL's log in the file says the environment set, else default); none without it. Each row's out-of-place time per call against `calls` of the
/// recorded size simulated back to back on the node's gpu0 .. gpu<ranks-1> (the test's iters, at
/// most kNcclTestsCalls). A loop issued by its process (graph: 0) waits for the host's pace that
/// the same test measured: each call larger than kCallFloorMaxBytes waits for the median time of
/// its calls of at most that size (issue_us; the small calls themselves, and a test without such
/// calls, wait for no host). Groups "nccl-tests/<variant>", kGraphSuffix for
/// graph runs. Throws InputError for a test whose ranks ran on more than one host (one node is
/// simulated) and for a variant or log it cannot read.
inline constexpr int kNcclTestsCalls = 20;
/// A table whose GPUs (its first '#  Rank' line) are of another vendor than the node's GPU models
/// (AMD against NVIDIA) is refused; of another model (H100 against A100, by the name's model
/// token) adds a warning naming the file and line to `warnings`, where given.
std::vector<ValidationCase> validate_nccl_tests(const std::string& dir, const topology::Node& node,
                                                const CallSelection& selection = {},
                                                std::vector<std::string>* warnings = nullptr);

/// exp(mean(log |e|)) over the errors (|e| floored at 1e-4); NaN for none.
double geomean_abs(const std::vector<double>& errors);
/// Largest |error|; 0 for none.
double largest_abs(const std::vector<double>& errors);
/// Mean |error|; NaN for none.
double mean_abs(const std::vector<double>& errors);
/// How many |error| exceed `limit` (the issue's "no case above 20%": limit 0.2).
std::size_t count_past(const std::vector<double>& errors, double limit);

}  // namespace linkcast::sim
