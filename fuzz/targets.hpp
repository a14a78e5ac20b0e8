// The fuzz targets: one per reader of hostile input. Each takes the bytes of one input and runs
// the reader (and what consumes its result) the way the CLI does. Bad input must end in
// InputError, which a target swallows; anything else (another exception, a sanitizer report, a
// crash, a hang, a huge allocation) is a bug.
//
// The same functions run under libFuzzer (fuzz/fuzzer_main.cpp, built with -DLINKCAST_FUZZ=ON and
// clang) and in every build's unit tests, which replay every input that ever crashed
// (tests/data/fuzz/regressions/<target>/; tests/fuzz_regressions_test.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace linkcast::fuzz {

struct Target {
  std::string_view name;
  std::string_view what;                 // the reader, in words
  void (*run)(std::string_view data);    // throws only what a bug throws
  std::vector<std::string_view> seeds;   // seed folders and files, relative to the source tree
};

/// Every target, by name: csv, kineto, profiler_db, nccl_xml, smi_topo, nccl_tests, node_yaml,
/// study_yaml, workload.
const std::vector<Target>& targets();
/// The target called `name`; throws std::invalid_argument when there is none.
const Target& target(std::string_view name);

/// Runs one input through target `name`. InputError (bad input, correctly refused) is swallowed;
/// a bug escapes as another exception (an invariant broken: std::logic_error).
void run(std::string_view name, std::string_view data);

/// The first line of an input for the profiler_db target that makes it an SQL script: the target
/// then builds the database by running the script rather than reading the bytes as a database file.
inline constexpr std::string_view kSqlScriptMarker = "-- linkcast-fuzz-sql\n";

}  // namespace linkcast::fuzz
