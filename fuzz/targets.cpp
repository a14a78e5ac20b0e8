#include "fuzz/targets.hpp"

#include <fmt/format.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>

#include "core/error.hpp"
#include "matrix/matrix.hpp"
#include "sim/nccl_tests_log.hpp"
#include "study/study.hpp"
#include "synthetic/catalog.hpp"
#include "topology/describe.hpp"
#include "topology/import.hpp"
#include "topology/loader.hpp"
#include "topology/routing.hpp"
#include "trace/csv.hpp"
#include "trace/kineto.hpp"
#include "trace/reader.hpp"

namespace linkcast::fuzz {

namespace {

namespace fs = std::filesystem;

/// Discards what is written (the writers run for their checks, not their text).
class NullBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type ch) override { return traits_type::not_eof(ch); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

std::ostream& null_stream() {
  static NullBuffer buffer;
  static std::ostream out(&buffer);
  return out;
}

/// This process's scratch folder under $TMPDIR, made by mkdtemp and removed at exit. A name of
/// its own, not one made of the process id: a folder an earlier process left under the same id
/// (killed, or sharing the id after the ids wrapped) made study_dir's links fail in the first,
/// empty input (CI, 2026-11-27). The path is never destroyed, so the exit handler reads it whole
/// whatever order the statics end in.
const fs::path& scratch_dir() {
  static const fs::path* const dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string name = (fs::path(tmp && *tmp ? tmp : "/tmp") / "linkcast-fuzz-XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr)
      throw std::runtime_error(fmt::format("fuzz: cannot make a scratch folder {}", name));
    auto* made = new fs::path(name);  // NOLINT(cppcoreguidelines-owning-memory): lives to the end
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(scratch_dir(), ec);
    });
    return made;
  }();
  return *dir;
}

std::string write_scratch(const std::string& name, std::string_view data) {
  const fs::path p = scratch_dir() / name;
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  out.close();
  if (!out) throw std::runtime_error(fmt::format("fuzz: cannot write the scratch file {}", p.string()));
  return p.string();
}

/// What the CLI does with a trace it read: the matrices, and both writers. What linkcast writes
/// as CSV it must read back.
void consume(const trace::Trace& t) {
  trace::write_json_trace(t, null_stream());
  std::ostringstream csv;
  trace::write_csv_trace(t, csv);
  try {
    const trace::Trace again = trace::parse_csv_trace(csv.str(), "(written back)");
    if (again.size() != t.size())
      throw std::logic_error(fmt::format("the CSV written for a trace of {} operations reads back as {}", t.size(),
                                         again.size()));
  } catch (const InputError& e) {
    throw std::logic_error(fmt::format("the CSV written for a trace it read is refused: {}", e.what()));
  }
  matrix::Options options;
  (void)matrix::build(t, options);
}

void csv(std::string_view data) {
  consume(trace::parse_csv_trace(std::string(data), "fuzz.csv"));
}

void kineto(std::string_view data) { consume(trace::parse_kineto(std::string(data), "fuzz.json")); }

/// Stops an SQL script that runs too long (a recursive query).
int stop_long_script(void* steps) {
  return ++*static_cast<long*>(steps) > 2000 ? 1 : 0;
}

void profiler_db(std::string_view data) {
  const std::string path = (scratch_dir() / "trace.sqlite").string();
  std::error_code ec;
  fs::remove(path, ec);
  if (data.starts_with(kSqlScriptMarker)) {
    // An SQL script: the database it makes (mutations then change tables, columns and values
    // rather than pages of the file format).
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
      sqlite3_close(db);
      return;
    }
    // No syncs and no journal: a script's statements each commit, and each commit waited for
    // the disk (11 seeds took 1.2 s on an ext4 /tmp, 0.2 s on tmpfs: 7 executions a second).
    sqlite3_exec(db, "PRAGMA synchronous=OFF; PRAGMA journal_mode=OFF;", nullptr, nullptr, nullptr);
    long steps = 0;
    sqlite3_progress_handler(db, 1000, stop_long_script, &steps);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
    const std::string script(data.substr(kSqlScriptMarker.size()));
    const int rc = sqlite3_exec(db, script.c_str(), nullptr, nullptr, nullptr);
    sqlite3_close(db);
    if (rc != SQLITE_OK) return;  // not a database: nothing for the reader
  } else {
    (void)write_scratch("trace.sqlite", data);
  }
  consume(trace::read_trace(path));
}

void nccl_xml(std::string_view data) {
  topology::ImportInputs in;
  in.nccl_xml_path = write_scratch("topo.xml", data);
  (void)topology::import_skeleton(in);
}

void smi_topo(std::string_view data) {
  topology::ImportInputs in;
  in.smi_path = write_scratch("topo-m.txt", data);
  (void)topology::import_skeleton(in);
}

void nccl_tests(std::string_view data) {
  (void)sim::read_nccl_tests_log(write_scratch("all_gather_perf.out", data));
}

void node_yaml(std::string_view data) {
  const topology::Node node = topology::parse_node(std::string(data), "fuzz.yaml");
  const topology::Routes routes(node);
  (void)topology::describe_table(node, routes);
  (void)topology::describe_json(node, routes);
  (void)topology::describe_dot(node);
}

/// The source tree the node and study targets read configs/ and tests/ from: $LINKCAST_SOURCE_DIR
/// where set (tools/fuzz/run_fuzzers.sh sets it, so binaries built elsewhere run on a copy of the
/// tree), else the tree they were built from.
const fs::path& source_dir() {
  static const fs::path dir = [] {
    const char* env = std::getenv("LINKCAST_SOURCE_DIR");
    return fs::path(env != nullptr && *env != '\0' ? env : LINKCAST_SOURCE_DIR);
  }();
  return dir;
}

/// A folder where a study file finds what the shipped studies refer to: configs/studies/x.yaml
/// reaches ../<node>.yaml and ../../tests/data/... as in the source tree.
const fs::path& study_dir() {
  static const fs::path dir = [] {
    const fs::path root = scratch_dir() / "tree";
    const fs::path& source = source_dir();
    fs::create_directories(root / "configs" / "studies");
    for (const auto& e : fs::directory_iterator(source / "configs"))
      if (e.path().filename() != "studies") fs::create_symlink(e.path(), root / "configs" / e.path().filename());
    fs::create_symlink(source / "tests", root / "tests");
    return root / "configs" / "studies";
  }();
  return dir;
}

void study_yaml(std::string_view data) {
  const fs::path p = study_dir() / "fuzz.yaml";
  {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
  }
  (void)study::load_study(p.string());
}

const topology::Node& workload_node() {
  static const topology::Node node = topology::load_node((source_dir() / "configs/hgx-h100.yaml").string());
  return node;
}

void workload(std::string_view data) {
  const std::string spec(data);
  (void)synthetic::parse_workload_spec(spec);
  for (const topology::Node* node : {static_cast<const topology::Node*>(nullptr), &workload_node()}) {
    synthetic::WorkloadRun run;
    try {
      // The limit of a workload that is simulated (2 million operations), not matrix's 20 million:
      // a mutant at matrix's limit takes seconds, and the fuzzer's time is better spent elsewhere.
      run = synthetic::run_workload_full(spec, node, synthetic::kMaxSimulatedWorkloadOps);
    } catch (const InputError&) {
      continue;  // refused on one node, perhaps not on the other
    }
    matrix::Options options;
    options.node = node;
    options.collectives = run.collectives;
    (void)matrix::build(run.trace, options);
  }
}

}  // namespace

const std::vector<Target>& targets() {
  static const std::vector<Target> all = {
      {"csv", "linkcast CSV traces", csv, {"tests/data/fuzz/seeds/csv"}},
      {"kineto", "PyTorch/Kineto JSON traces", kineto, {"tests/data/fuzz/seeds/kineto"}},
      {"profiler_db", "nvprof and Nsight Systems SQLite exports (bytes, or an SQL script)", profiler_db,
       {"tests/data/fuzz/seeds/profiler_db"}},
      {"nccl_xml", "NCCL topology dumps (topo import --nccl-xml)", nccl_xml,
       {"tests/data/fuzz/seeds/nccl_xml"}},
      {"smi_topo", "nvidia-smi topo -m output (topo import --smi)", smi_topo,
       {"tests/data/fuzz/seeds/smi_topo"}},
      {"nccl_tests", "nccl-tests outputs (linkcast_validate_real's nccl_tests.csv)", nccl_tests,
       {"tests/data/fuzz/seeds/nccl_tests"}},
      {"node_yaml", "node files", node_yaml, {"tests/data/fuzz/seeds/node_yaml"}},
      {"study_yaml", "study files", study_yaml, {"tests/data/fuzz/seeds/study_yaml"}},
      {"workload", "workload specs (--workload NAME:key=value,...)", workload, {"tests/data/fuzz/seeds/workload"}},
  };
  return all;
}

const Target& target(std::string_view name) {
  for (const Target& t : targets())
    if (t.name == name) return t;
  throw std::invalid_argument(fmt::format("no fuzz target '{}'", name));
}

void run(std::string_view name, std::string_view data) {
  try {
    target(name).run(data);
  } catch (const InputError&) {
    // bad input, refused with a message: what every reader must do
  }
}

}  // namespace linkcast::fuzz
