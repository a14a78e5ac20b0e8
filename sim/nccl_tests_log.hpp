// The output of NVIDIA's nccl-tests (all_reduce_perf, all_gather_perf, ... : the text they print),
// read as a recording of NCCL calls to check the simulator against: people publish these tables
// for their machines, and a user has their own at hand.
//
// What is read, per test in the file (a file may hold several, one after another):
//  - "# Collective test starting: all_gather_perf": the collective (absent in nccl-tests before
//    2.13; then the file's name, e.g. all_gather_ring.out, or the caller says it);
//  - "# nThread 1 nGpus 8 ... iters: 20 ... graph: 0": calls per timed loop, and whether the loop
//    was captured in a CUDA graph (graph: N > 0) or issued by the process;
//  - "#  Rank  0 Group  0 Pid 1583987 on HOST device  0 [0000:29:00] NVIDIA H100 80GB HBM3": the
//    ranks, their hosts and GPUs;
//  - the column header ("size count type redop root time algbw busbw #wrong time ...") and each
//    row under it: size in bytes as nccl-tests counts it, and the out-of-place time per call in
//    microseconds (the first "time" column); a "timestamp" column (-S 1) holds a date and a time;
//    a table of "cputime" (-C 1, the host's time to issue a call) is refused;
//  - NCCL's own log lines, where the run printed them (NCCL_DEBUG=INFO): "NCCL_ALGO set by
//    environment to X", "NCCL_PROTO set by environment to X".
// Other lines (a job's own output, NCCL's other log lines) are skipped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace linkcast::sim {

struct NcclTestsRow {
  std::uint64_t bytes = 0;      // the size column: nccl-tests' count of the call's buffer
  double out_of_place_us = 0;   // time per call, out of place
  int line = 0;                 // where in the file
};

struct NcclTestsRun {
  std::optional<trace::OpKind> kind;  // none for a test the simulator does not run (sendrecv_perf)
  std::string test;             // e.g. "all_gather_perf"
  int ranks = 0;
  std::vector<std::string> hosts;  // distinct, in order of first rank
  std::string gpu_name;         // the first rank's, as printed
  int gpu_line = 0;             // its '#  Rank' line
  int iters = 1;                // calls per timed loop
  bool graph = false;           // the loop was replayed from a CUDA graph
  // As NCCL's log says the environment set them, read for this test's collective as NCCL reads a
  // list: the one algorithm (ring, tree) or protocol it leaves, as written ("Tree"); empty where it
  // leaves NCCL all the simulator runs ("ring,tree", "^NVLS", "allreduce:tree" in an all-gather)
  // or none was set; else the value as printed ("NVLS", "^LL128"), which the simulator cannot hold.
  std::string nccl_algo, nccl_proto;
  // Where one of them leaves NCCL more than one of what the simulator runs and fewer than all
  // ("^LL128": LL and Simple): NCCL chose call by call, which no variant holds a run to.
  bool nccl_env_leaves_several = false;
  int nccl_algo_line = 0;             // where the log says NCCL_ALGO's (and NCCL_PROTO's) value
  std::vector<NcclTestsRow> rows;
};

/// Every test of a nccl-tests output file. `fallback_test` names the test where the file does not
/// ("all_gather_perf" or "all_gather"; empty: from the file name, e.g. all_gather_ring.out).
/// Throws InputError naming the file and line: no test, a test that does not say its collective,
/// a row that does not read as size and time (under a header, a line that starts with a digit or a
/// sign is a row), a row whose fields the header does not name, a time under 0.01 us, a rank listed
/// twice or after its table, ranks that are not 0 to n-1, a test with no rank lines or no rows, more
/// than kMaxNcclTestsRows rows (a real table holds tens a test).
inline constexpr std::size_t kMaxNcclTestsRows = 1000;
[[nodiscard]] std::vector<NcclTestsRun> read_nccl_tests_log(const std::string& path,
                                                            const std::string& fallback_test = {});

/// A nccl-tests program's name as one compares it: lower case, without its "_perf"
/// ("All_Gather_perf" -> "all_gather").
[[nodiscard]] std::string nccl_tests_name(std::string test);

/// The collective a nccl-tests program runs ("all_gather_perf", "all_gather", "alltoall", ...);
/// nullopt for one the simulator does not run (sendrecv, hypercube, ...).
[[nodiscard]] std::optional<trace::OpKind> nccl_tests_collective(std::string test);

}  // namespace linkcast::sim
