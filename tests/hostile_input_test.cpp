// Hostile and broken input (issue 16): what a few bytes may not do. Each class has its reproducer
// here: absurd GPU lists and counts refused with the value and the limit, fields that would wrap,
// text JSON cannot hold, paths the system cannot look up, and outputs that must not be replaced
// or left half-written.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/error.hpp"
#include "core/json.hpp"
#include "core/output.hpp"
#include "core/utf8.hpp"
#include "matrix/matrix.hpp"
#include "nccl/collectives.hpp"
#include "study/study.hpp"
#include "synthetic/backend.hpp"
#include "synthetic/catalog.hpp"
#include "test_util.hpp"
#include "topology/loader.hpp"
#include "trace/csv.hpp"

namespace linkcast {
namespace {

namespace fs = std::filesystem;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

const std::string kHeader = "kind,src,dst,bytes,start_ns,duration_ns,stream,group,object\n";

trace::Trace csv(const std::string& rows) { return trace::parse_csv_trace(kHeader + rows, "t.csv"); }

// --- GPU lists: no range is expanded before it is checked --------------------------------------

TEST(HostileGpuLists, ARangeIsCheckedBeforeItIsExpanded) {
  EXPECT_THAT([] { (void)csv("allreduce,gpu0,gpu0,8,,,,0-1000,\n"); },
              ThrowsMessage<InputError>(HasSubstr(
                  "t.csv:2: column 'group': '0-1000' names 1001 GPUs; a list names at most 576 (the largest NVLink "
                  "domain, NVL576)")));
  EXPECT_THAT([] { (void)csv("allreduce,gpu0,gpu0,8,,,,0-99999999999,\n"); },
              ThrowsMessage<InputError>(HasSubstr(
                  "t.csv:2: column 'group': '0-99999999999' names GPU 99999999999, above the largest GPU index, 4095")));
  EXPECT_THAT([] { (void)csv("allreduce,gpu0,gpu0,8,,,,0;4096,\n"); },
              ThrowsMessage<InputError>(HasSubstr("names GPU 4096, above the largest GPU index, 4095")));
  EXPECT_THAT([] { (void)csv("allreduce,gpu0,gpu0,8,,,,0;1;0,\n"); },
              ThrowsMessage<InputError>(HasSubstr("t.csv:2: column 'group': '0;1;0' lists GPU 0 twice")));
}

TEST(HostileGpuLists, ALongListOfRanksIsRefusedAtTheLimit) {
  // A process-group list of 65,000 ranks: refused once it passes the limit, without a table of
  // 65,000 endpoints.
  std::string ranks;
  for (int r = 0; r < 65000; ++r) ranks += (r ? ";" : "") + std::to_string(r % 4096);
  EXPECT_THAT([&] { (void)csv("allreduce,gpu0,gpu0,8,,,," + ranks + ",\n"); },
              ThrowsMessage<InputError>(
                  HasSubstr("names more than 576 GPUs; a list names at most 576 (the largest NVLink domain, NVL576)")));
}

TEST(HostileGpuLists, ANodeBoundsTheListToItsGpus) {
  const topology::Node node = topology::load_node(test::config("hgx-h100.yaml"));
  EXPECT_THAT([&] { (void)synthetic::run_workload("nccl-allreduce:gpus=0-1000", &node); },
              ThrowsMessage<InputError>(HasSubstr(
                  "workload 'nccl-allreduce': key 'gpus': '0-1000' names 1001 GPUs; a list names at most 8 (node "
                  "'hgx-h100' has 8 GPUs)")));
  // Without a node, the synthetic runtime's own bound (a page's device in a byte): 128 GPUs were
  // refused as "backend: more than 127 GPUs", naming no key (a robustness hunt, round 26).
  EXPECT_THAT([] { (void)synthetic::run_workload("nccl-allreduce:gpus=0-1000", nullptr); },
              ThrowsMessage<InputError>(HasSubstr("'0-1000' names 1001 GPUs; a list names at most 127 (a synthetic "
                                                  "workload runs on at most 127: its runtime keeps a page's device in "
                                                  "a byte)")));
  EXPECT_THAT([] { (void)synthetic::run_workload("nccl-allreduce:bytes=1MiB,gpus=0-127", nullptr); },
              ThrowsMessage<InputError>(HasSubstr("key 'gpus': '0-127' names 128 GPUs; a list names at most 127")));
  const auto r = test::run_linkcast("simulate " + test::config("hgx-h100.yaml") +
                                    " --workload nccl-allreduce:bytes=1MiB --gpus 0-99999");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--gpus: '0-99999' names GPU 99999, above the largest GPU index, 4095"));
}

// --- Fields that would wrap -----------------------------------------------------------------

TEST(HostileCsvFields, StreamIdsAndTimesThatWouldWrapAreRefused) {
  EXPECT_THAT([] { (void)csv("copy,cpu0,gpu0,8,,,4294967296,,\n"); },
              ThrowsMessage<InputError>(HasSubstr(
                  "t.csv:2: column 'stream': '4294967296' is above the largest stream id, 4294967295")));
  EXPECT_EQ(csv("copy,cpu0,gpu0,8,,,4294967295,,\n").op(0).stream, 4294967295u);
  EXPECT_THAT([] { (void)csv("copy,cpu0,gpu0,8,,9223372036854775808,,,\n"); },
              ThrowsMessage<InputError>(HasSubstr(
                  "t.csv:2: column 'duration_ns': '9223372036854775808' is above the largest time, "
                  "9223372036854775807 ns")));
  EXPECT_THAT([] { (void)csv("copy,cpu0,gpu0,8,18446744073709551615,,,,\n"); },
              ThrowsMessage<InputError>(HasSubstr("column 'start_ns': '18446744073709551615' is above the largest time")));
  EXPECT_EQ(csv("copy,cpu0,gpu0,8,,9223372036854775807,,,\n").op(0).duration_ns, INT64_MAX);
}

TEST(HostileCsvFields, ACollectiveRowWithoutItsGroupIsRefused) {
  EXPECT_THAT([] { (void)csv("allreduce,gpu0,gpu0,8,,,,,\n"); },
              ThrowsMessage<InputError>(
                  HasSubstr("t.csv:2: allreduce is a collective: it needs the GPUs taking part in column 'group' (e.g. 0-3)")));
  EXPECT_THAT([] { (void)csv("broadcast,gpu0,gpu0,8,,,,;,\n"); },
              ThrowsMessage<InputError>(HasSubstr("t.csv:2: column 'group': ';' is not a GPU list")));
}

TEST(HostileCsvFields, InvalidUtf8IsRefusedNamingTheLine) {
  EXPECT_THAT([] { (void)csv("copy,cpu0,gpu0,8,,,,,bad\xff\xfename\n"); },
              ThrowsMessage<InputError>(HasSubstr("t.csv:2: column 'object': 'bad\xEF\xBF\xBD\xEF\xBF\xBDname' is not "
                                                  "valid UTF-8 (byte 4); save the file as UTF-8")));
  EXPECT_THAT([] { (void)csv("copy,cpu\xc0\xafx,gpu0,8,,,,,\n"); },
              ThrowsMessage<InputError>(HasSubstr("t.csv:2: column 'src':")));
  EXPECT_EQ(csv("copy,cpu0,gpu0,8,,,,,caf\xc3\xa9 \xe2\x82\xac\n").objects[1], "caf\xc3\xa9 \xe2\x82\xac");
}

// --- JSON and HTML writers ------------------------------------------------------------------

TEST(HostileCsvFields, ControlCharactersInANameAreRefusedAndShownEscaped) {
  // A NUL inside an endpoint name (found by mutate.py: "hos\0t"): the name was not on the node,
  // and the message, cut at the NUL where it is a C string, crashed the CLI while it added its
  // --gpus hint (std::out_of_range, exit 134). Expected: the reader refuses the name, naming the
  // line and column, with the byte escaped so that the message stays whole; a tab stays allowed.
  using namespace std::string_literals;
  EXPECT_THAT([] { (void)csv("copy,gpu0,hos\0t,8,,,,,\n"s); },
              ThrowsMessage<InputError>(HasSubstr("t.csv:2: column 'dst': 'hos\\x00t' holds a control character "
                                                  "(byte 4, 0x00); a name is printable text")));
  EXPECT_THAT([] { (void)csv("copy,cpu0,gpu0,8,,,,,obj\x1b[31m\n"); },
              ThrowsMessage<InputError>(HasSubstr("column 'object': 'obj\\x1b[31m' holds a control character")));
  EXPECT_EQ(csv("copy,cpu0,gpu0,8,,,,,a\tb\n").objects[1], "a\tb");
  // Through the CLI: exit 2 with the message, no abort.
  const std::string file = ::testing::TempDir() + "nul-name.csv";
  std::ofstream(file, std::ios::binary) << "kind,src,dst,bytes\ncopy,gpu0,hos\0t,8\n"s;
  const auto r = test::run_linkcast("simulate " + test::config("hgx-h100.yaml") + " " + file + " --format json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(file + ":2: column 'dst': 'hos\\x00t' holds a control character"));
  // Any other reader's message with a NUL before the hint span: the hint is left out, no throw.
  const ChoiceError e(std::string("gpu\0x is not on the node", 25), ChoiceError::Choice::place_gpus, 25);
  EXPECT_EQ(e.with_hint("; give --gpus"), "gpu");
}

TEST(HostileText, Utf8IsCheckedStrictly) {
  EXPECT_EQ(invalid_utf8_at("plain ascii"), std::nullopt);
  EXPECT_EQ(invalid_utf8_at("\xf0\x9f\x98\x80 ok"), std::nullopt);
  EXPECT_EQ(invalid_utf8_at("ab\xc0\xaf"), 2u);        // overlong '/'
  EXPECT_EQ(invalid_utf8_at("\xed\xa0\x80"), 0u);      // a surrogate
  EXPECT_EQ(invalid_utf8_at("\xf4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(invalid_utf8_at("x\xe2\x82"), 1u);         // cut short
  EXPECT_EQ(valid_utf8("a\xffz"), "a\xEF\xBF\xBDz");
}

TEST(HostileText, JsonWritersReplaceBadBytesAndRefuseNonFiniteNumbers) {
  nlohmann::json j = {{"name", "gpu\xff"}, {"t", 1.5}};
  EXPECT_EQ(dump_json(j, -1, "test"), "{\"name\":\"gpu\xEF\xBF\xBD\",\"t\":1.5}");
  j["links"] = nlohmann::json::array({nlohmann::json{{"utilisation", std::nan("")}}});
  EXPECT_THAT([&] { (void)dump_json(j, -1, "simulation JSON"); },
              ThrowsMessage<InputError>(HasSubstr("simulation JSON: links[0].utilisation is not a finite number")));
  EXPECT_THAT([] { (void)json_number(HUGE_VAL, "makespan_s"); },
              ThrowsMessage<InputError>(HasSubstr("makespan_s: inf is not a finite number")));
  EXPECT_EQ(json_string("a\"\xfe"), "\"a\\\"\xEF\xBF\xBD\"");
}

// --- Runaway work from a few bytes -----------------------------------------------------------

TEST(HostileWorkloads, CountsWhoseWorkExceedsTheLimitAreRefusedBeforeTheyRun) {
  EXPECT_THAT([] { (void)synthetic::run_workload("nccl-alltoall:iters=64MiB", nullptr); },
              ThrowsMessage<InputError>(HasSubstr(
                  "workload 'nccl-alltoall': key 'iters': 64MiB: 67108864 calls on 8 GPUs record 5.37e+08 operations; "
                  "a workload records at most 20000000")));
  EXPECT_THAT([] { (void)synthetic::run_workload("model-parallel:layers=100000,activation=64MiB,warp=1", nullptr); },
              ThrowsMessage<InputError>(HasSubstr("workload 'model-parallel': key 'layers': 100000: 100000 layers of "
                                                  "64 MiB activations")));
  EXPECT_THAT([] { (void)synthetic::run_workload("stencil2d:iters=1GiB", nullptr); },
              ThrowsMessage<InputError>(HasSubstr("workload 'stencil2d': key 'iters': 1GiB: 1073741824 iterations")));
  EXPECT_THAT([] { (void)synthetic::run_workload("bfs-ring:vertices=4MiB,degree=1024", nullptr); },
              ThrowsMessage<InputError>(HasSubstr(
                  "workload 'bfs-ring': key 'degree': 4194304 vertices of degree 1024 make 4294967296 edges; the "
                  "generated graph has at most 33554432")));
  // 64 M vertices in a chain took 4.7 GB and 26 s before the operation limit stopped its search
  // (mutate.py): now the graph is bounded, and a chain's levels are counted before it is built.
  EXPECT_THAT([] { (void)synthetic::run_workload("bfs-ring:graph=chain,vertices=64000000", nullptr); },
              ThrowsMessage<InputError>(HasSubstr("key 'vertices': 64000000 is out of range; use 1..4194304")));
  EXPECT_THAT([] { (void)synthetic::run_workload("bfs-ring:graph=chain,vertices=4000000", nullptr); },
              ThrowsMessage<InputError>(HasSubstr("key 'vertices': 4000000: a chain searched in 4000000 levels of 56 "
                                                  "exchanges on 8 GPUs record 2.24e+08 operations")));
  // Large but sensible work runs: 64 Ki calls of a small alltoall is half a million records.
  EXPECT_EQ(synthetic::run_workload("nccl-alltoall:iters=64KiB,bytes=8KiB", nullptr).size(), 65536u * 8);
}

TEST(HostileWorkloads, AWorkloadThatIsSimulatedRecordsAtMostTwoMillionOperations) {
  // A simulation takes about 500 bytes and 6 us an operation: stencil2d:iters=32767 (16.8 million
  // operations) ran simulate past 100 s and 7.3 GB (mutate.py). System: periodic stencil2d on 8 GPUs, 512
  // operations an iteration. Expected: 5000 iterations (2.56 million operations) are recorded for a
  // matrix but refused, before they run, where the trace is to be simulated; `simulate` says so.
  EXPECT_EQ(synthetic::run_workload("stencil2d:iters=5000,periodic=1", nullptr).size(), 5000u * 512);
  EXPECT_THAT([] { (void)synthetic::run_workload_full("stencil2d:iters=5000,periodic=1", nullptr,
                                                        synthetic::kMaxSimulatedWorkloadOps); },
              ThrowsMessage<InputError>(HasSubstr("workload 'stencil2d': key 'iters': 5000: 5000 iterations of 512 "
                                                  "accesses or copies record 2.56e+06 operations; a workload that is "
                                                  "simulated records at most 2000000")));
  const auto r = test::run_linkcast("simulate " + test::config("hgx-h100.yaml") +
                                    " --workload stencil2d:iters=32767,periodic=1 --format json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("32767 iterations of 512 accesses or copies record 1.68e+07 operations; a workload that "
                               "is simulated records at most 2000000"));
}

TEST(HostileWorkloads, ASimulationOfTooManyCollectiveTransfersIsRefusedAfterTheFirstCall) {
  // 65,536 alltoalls of 64 MiB on 8 GPUs: 59 million transfers, refused once the first call shows
  // how many each takes (before, it ran for minutes and gigabytes).
  const auto r = test::run_linkcast("simulate " + test::config("hgx-h100.yaml") + " --workload nccl-alltoall:iters=64KiB");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("nccl-alltoall:iters=64KiB: record 1: 65536 calls like this alltoall of 64 MiB on 8 GPUs "
                               "take 904 transfers each, 5.92e+07 or more with the calls before, above the 8000000 a "
                               "simulation runs; simulate fewer calls, or give them a larger chunk"));
}

TEST(HostileWorkloads, LargeButSensibleWorkRunsWithProgress) {
  // 5.4 million device accesses: below the limit, so it runs, and it says how far it got (on a
  // terminal after two seconds; LINKCAST_PROGRESS=1 asks for every line, as a log would).
  ::setenv("LINKCAST_PROGRESS", "1", 1);
  const auto r = test::run_linkcast("matrix --workload model-parallel:layers=16,activation=4MiB,warp=64 --format csv");
  ::unsetenv("LINKCAST_PROGRESS");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("linkcast: workload 'model-parallel': 4,194,304 steps, "));
  EXPECT_THAT(r.err, ContainsRegex("linkcast: matrices: [0-9,]+ of about [0-9,]+ operations \\([0-9]+%\\), "
                                   "[0-9.]+[kMG]? operations/s, about [0-9]+ s left\n"));
}

TEST(HostileWorkloads, TheBackendStopsAtItsLimits) {
  synthetic::BackendOptions options;
  options.gpu_count = 2;
  options.max_work = 1000;
  synthetic::Backend b(options);
  b.enable_all_peer_access();
  const auto remote = b.malloc_device(1, 1 << 20, "buf", "t.cu:1");
  auto k = b.launch(0, "reader");
  EXPECT_THAT([&] { k.load_range(remote, 1 << 20, 4, k.line("t.cu:2")); },
              ThrowsMessage<InputError>(HasSubstr("takes more than 1000 steps")));
}

TEST(HostileCollectives, ADecompositionTooLargeIsRefusedBeforeItIsBuilt) {
  nccl::CollectiveSpec s;
  s.kind = trace::OpKind::allreduce;
  s.nranks = 8;
  s.bytes = std::uint64_t{1} << 40;
  s.chunk_bytes = 4;
  EXPECT_THAT([&] { (void)nccl::decompose(s); },
              ThrowsMessage<InputError>(HasSubstr("allreduce of 1 TiB on 8 ranks in chunks of 4 B over 2 channels makes "
                                                  "3.85e+12 transfers, more than the limit of 16000000; give a larger "
                                                  "chunk")));
  s.nranks = 1000;
  s.chunk_bytes = 0;
  EXPECT_THAT([&] { (void)nccl::decompose(s); },
              ThrowsMessage<InputError>(HasSubstr("allreduce: 1000 ranks; a communicator inside a node has at most 576")));
  // The estimate bounds what is built.
  s.nranks = 8;
  s.bytes = std::uint64_t{1} << 30;
  const nccl::Decomposition d = nccl::decompose(s);
  EXPECT_LE(static_cast<double>(d.steps.size()), nccl::decomposition_size(s));
  EXPECT_GT(d.steps.size(), 0u);
}

TEST(HostileCollectives, TheEstimateBoundsEveryDecompositionAndStaysClose) {
  // decompose() refuses a call when decomposition_size() passes the limit, before building it. The
  // estimate must never be below what is built (or the limit could be passed) and must stay close
  // to it (or sensible calls would be refused). System: every collective kind and algorithm NCCL
  // runs, 2 to 8 ranks (3 and 7: sizes that do not divide), 1 to 8 channels, default and 4 KiB
  // chunks, sizes from one element to 64 MiB + a remainder. Expected: built <= estimate <= 2 x
  // built + 2 n^2 (the estimate counts the zero-byte tail steps decompose() skips: at most one
  // loop's worth per call, n^2 bounding one alltoall loop).
  using trace::OpKind;
  struct Case {
    OpKind kind;
    nccl::CollAlgo algo;
  };
  const Case cases[] = {{OpKind::allreduce, nccl::CollAlgo::ring}, {OpKind::allreduce, nccl::CollAlgo::tree},
                        {OpKind::allgather, nccl::CollAlgo::ring}, {OpKind::reducescatter, nccl::CollAlgo::ring},
                        {OpKind::broadcast, nccl::CollAlgo::ring}, {OpKind::broadcast, nccl::CollAlgo::tree},
                        {OpKind::reduce, nccl::CollAlgo::ring},    {OpKind::reduce, nccl::CollAlgo::tree},
                        {OpKind::alltoall, nccl::CollAlgo::ring}};
  int checked = 0;
  for (const Case& c : cases) {
    for (int n : {2, 3, 7, 8}) {
      for (int channels : {1, 8}) {
        for (std::uint64_t chunk : {std::uint64_t{0}, std::uint64_t{4096}}) {
          for (std::uint64_t per_rank : {std::uint64_t{4}, std::uint64_t{4096 + 12}, std::uint64_t{(64 << 20) + 40}}) {
            nccl::CollectiveSpec s;
            s.kind = c.kind;
            s.algo = c.algo;
            s.nranks = n;
            s.channels = channels;
            s.chunk_bytes = chunk;
            s.bytes = nccl::per_rank_block(c.kind) ? per_rank * static_cast<std::uint64_t>(n) : per_rank;
            try {
              nccl::validate(s);
            } catch (const InputError&) {
              continue;  // a combination NCCL does not run (tree broadcast, ...): nothing to bound
            }
            SCOPED_TRACE(fmt::format("{} {} n={} channels={} chunk={} bytes={}", trace::to_string(c.kind),
                                     nccl::to_string(c.algo), n, channels, chunk, s.bytes));
            const auto built = static_cast<double>(nccl::decompose(s).steps.size());
            const double estimate = nccl::decomposition_size(s);
            EXPECT_LE(built, estimate);
            EXPECT_LE(estimate, 2 * built + 2.0 * n * n);
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GE(checked, 200);  // most combinations are valid: the loop did not skip them all
}

TEST(HostileMatrices, MadeUpEndpointsCannotSizeTheMatrices) {
  std::string rows;
  for (int i = 0; i < 1100; ++i) rows += "copy,ep" + std::to_string(i) + ",gpu0,8,,,,,\n";
  const trace::Trace t = csv(rows);
  EXPECT_THAT([&] { (void)matrix::build(t, {}); },
              ThrowsMessage<InputError>(HasSubstr("t.csv: 1101 distinct endpoints; the matrices hold at most 1024")));
}

// --- Study files ------------------------------------------------------------------------------

std::string study_with(const std::string& body) {
  const std::string dir = ::testing::TempDir() + "hostile_study/";
  fs::create_directories(dir);
  const std::string path = dir + "study.yaml";
  std::ofstream(path) << "study_version: 1\nname: s\nbase: " << test::config("hgx-h100.yaml") << "\n" << body;
  return path;
}

TEST(HostileStudies, APathTooLongForTheSystemIsAnInputError) {
  const std::string path =
      study_with("traces:\n  - {file: " + std::string(5000, 'x') + ".csv, from: " + test::config("hgx-h100.yaml") + "}\n");
  EXPECT_THAT([&] { (void)study::load_study(path); },
              ThrowsMessage<InputError>(HasSubstr("traces[0]: cannot look up '")));
  EXPECT_THAT([&] { (void)study::load_study(path); }, ThrowsMessage<InputError>(HasSubstr("File name too long")));
}

TEST(HostileStudies, AGridPastTheLimitIsRefusedNamingTheAxis) {
  std::string values = "[";
  for (int v = 0; v < 1001; ++v) values += (v ? ", " : "") + std::to_string(100 + v);
  values += "]";
  const std::string path = study_with("axes:\n  - {path: 'links[type=pcie].latency_ns', values: " + values +
                                      "}\n  - {path: 'links[type=nvlink].latency_ns', values: " + values +
                                      "}\nworkloads:\n  - {spec: 'nccl-allreduce:bytes=1MiB'}\n");
  EXPECT_THAT([&] { (void)study::load_study(path); },
              ThrowsMessage<InputError>(HasSubstr("axes[1]: the grid reaches 1002001 points with this axis; a study has "
                                                  "at most 1000000")));
}

// --- Output files -----------------------------------------------------------------------------

std::string scratch(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "hostile_output/";
  fs::create_directories(dir);
  const std::string p = dir + name;
  std::error_code ec;
  fs::remove_all(p, ec);
  return p;
}

/// Names in `path`'s folder that start with its file name.
std::vector<std::string> files_like(const std::string& path) {
  std::vector<std::string> out;
  const fs::path p(path);
  for (const auto& e : fs::directory_iterator(p.parent_path()))
    if (e.path().filename().string().rfind(p.filename().string(), 0) == 0) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(HostileOutput, ADeviceIsWrittenNotReplaced) {
  struct stat before {}, after {};
  ASSERT_EQ(::stat("/dev/null", &before), 0);
  {
    AtomicOutput out("/dev/null");
    EXPECT_EQ(out.target(), AtomicOutput::Target::special_file);
    EXPECT_EQ(out.temp_path(), "");
    out.stream() << "into the void";
    out.commit();
  }
  ASSERT_EQ(::stat("/dev/null", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode));
  EXPECT_EQ(before.st_rdev, after.st_rdev);
  EXPECT_EQ(before.st_ino, after.st_ino);
}

TEST(HostileInputCli, ATracePipedInIsReadOnceAndANodePipedInIsRefused) {
  // A robustness hunt (round 25): readers look at a trace's head, then open it again to read it,
  // so a FIFO whose writer had finished blocked that second open forever, and `<(zcat t.json.gz)`
  // or `/dev/stdin` from a pipe read as an empty CSV ("no header line"). A piped trace is now
  // copied once into a temporary file and read from there, named as given.
  const std::string fifo = scratch("piped.json.gz");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string source = test::source_dir() + "/tests/data/real/h200-1gpu/torch_copy_sweep.json.gz";
  std::thread writer([&] {
    std::ifstream in(source, std::ios::binary);
    std::ofstream out(fifo, std::ios::binary);  // waits for the reader's open
    out << in.rdbuf();
  });
  const auto r = test::run_linkcast("matrix " + fifo);
  writer.join();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Communication of '" + fifo + "' (kineto, 341 operations)"));
  // A node file from a pipe is refused, naming it (no writer: refused before any open).
  const std::string node = scratch("piped-node.yaml");
  ASSERT_EQ(::mkfifo(node.c_str(), 0600), 0);
  const auto n = test::run_linkcast("topo " + node);
  EXPECT_EQ(n.exit_code, 2);
  EXPECT_THAT(n.err, HasSubstr(node + ": a pipe, not a file: linkcast reads a node file more than once (its head, "
                               "then the whole), which a pipe does not allow; save it to a file first"));
}

TEST(HostileInputCli, ADeviceOrAPipeOfNoTraceIsRefusedAtOnce) {
  // Robustness hunt 37: /dev/zero given as a trace was copied into a spool file without end (10.6
  // GB in 18 s), by simulate, matrix, project, report, calibrate and a study's traces; a pipe of
  // NUL bytes would have been copied up to 64 GiB. A device is refused, and a pipe whose first
  // bytes are neither text nor a gzip or SQLite file.
  const auto r = test::run_linkcast("simulate " + test::config("hgx-h100.yaml") + " /dev/zero");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("/dev/zero: a device, not a trace file (some, like /dev/zero, never end)"));
  const std::string fifo = scratch("zeros.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    std::ofstream out(fifo, std::ios::binary);
    // 4 KiB: within a pipe's buffer, so the write is done before the reader refuses and closes
    // (a write after that would end this process with SIGPIPE).
    const std::string zeros(4096, '\0');
    out << zeros;
  });
  const auto m = test::run_linkcast("matrix " + fifo);
  writer.join();
  EXPECT_EQ(m.exit_code, 2);
  EXPECT_THAT(m.err, HasSubstr(fifo + ": its first bytes are neither text (CSV, JSON) nor a gzip or SQLite file"));
}

TEST(HostileInputCli, ATransferToANicNamesItsRecordInEveryCommand) {
  // Robustness hunt 37: simulate and report said "transfers between 'cpu0' (cpu) and 'gemini0'
  // (nic) are not modelled" without the file and record that project named.
  const std::string trace = test::write_temp("nic_copy.csv", "kind,src,dst,bytes\ncopy,cpu0,gpu0,4096\ncopy,cpu0,gemini0,4096\n");
  const auto r = test::run_linkcast("simulate " + test::config("titan.yaml") + " " + trace);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(trace + ": record 2 (line 3): transfers between 'cpu0' (cpu) and 'gemini0' (nic) are "
                               "not modelled"));
}

TEST(HostileInputCli, GpuWorkThatStartsBeforeItsLaunchIsWarnedAbout) {
  // Robustness hunt 37: a Kineto copy 1 s before the cudaMemcpyAsync that launched it (the rest of
  // the trace spans a millisecond) was read without a word, and changed the replay. It is read,
  // and said.
  const std::string trace = test::write_temp(
      "copy_before_launch.json",
      R"json({"schemaVersion": 1, "traceEvents": [
{"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 1000.0, "dur": 5, "args": {"correlation": 2}},
{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": -1000000.0, "dur": 10,
 "args": {"device": 0, "stream": 7, "correlation": 2, "bytes": 1048576}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 1100.0, "dur": 5, "args": {"correlation": 3}},
{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 1110.0, "dur": 10,
 "args": {"device": 0, "stream": 7, "correlation": 3, "bytes": 1048576}}]})json");
  const auto r = test::run_linkcast("simulate " + test::config("testbed-h200-1gpu.yaml") + " " + trace);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(trace + ": 1 GPU operations start before the runtime call that launched them, by up to "
                               "1e+03 ms"));
}

TEST(HostileInputCli, AStreamingRateAboveTheMemorysPeakIsRefused) {
  // Robustness hunt 37: memory.stream_gbps 100000 on an H100 (peak 3350 GB/s) loaded, and a 1 GiB
  // copy within the GPU simulated in 21.5 us; each value was within its own range.
  std::string yaml = test::read_file(test::config("hgx-h100.yaml"));
  const std::string from = "stream_gbps: 2879";
  const std::size_t at = yaml.find(from);
  ASSERT_NE(at, std::string::npos);
  yaml.replace(at, from.size(), "stream_gbps: 100000");
  const std::string node = test::write_temp("stream_above_peak.yaml", yaml);
  const auto r = test::run_linkcast("topo " + node);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("gpu 'gpu0': memory.stream_gbps 100000 is above its memory.bandwidth_gbps 3350, the "
                               "peak"));
}

TEST(HostileInputCli, APipedTraceLeavesNoSpoolWhenInterrupted) {
  // The piped trace's copy lives in the temporary folder while it is read. The test suite left one
  // empty `linkcast-pipe-*` file behind for every command it interrupted while that command waited
  // for a FIFO's writer (the copy was made before the pipe was opened): now the pipe is opened
  // first, and a copy under way is removed by the same handler as an output's temporary.
  const std::string tmpdir = scratch("spool-tmp");
  fs::create_directories(tmpdir);
  const std::string fifo = scratch("spooled.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const bool writing : {false, true}) {
    // writing: a writer that sent a header and stays open, so the command is copying the pipe.
    const int writer = writing ? ::open(fifo.c_str(), O_RDWR) : -1;
    if (writing) {
      ASSERT_GE(writer, 0);
      const std::string head = "kind,src,dst,bytes\n";
      ASSERT_EQ(::write(writer, head.data(), head.size()), static_cast<ssize_t>(head.size()));
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
      std::freopen("/dev/null", "w", stderr);
      ::setenv("TMPDIR", tmpdir.c_str(), 1);
      const std::string binary = LINKCAST_BINARY;
      ::execl(binary.c_str(), binary.c_str(), "matrix", fifo.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    auto spools = [&] { return files_like(tmpdir + "/linkcast-pipe-"); };
    if (writing) {
      for (int i = 0; i < 3000 && spools().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      EXPECT_EQ(spools().size(), 1u);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let it reach the blocking open
    }
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (writer >= 0) ::close(writer);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << writing << ": " << status;
    EXPECT_EQ(spools(), std::vector<std::string>{}) << (writing ? "while copying" : "while waiting for a writer");
  }
}

TEST(HostileOutput, AFifoIsWrittenNotReplaced) {
  const std::string fifo = scratch("out.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = test::read_file(fifo); });
  {
    AtomicOutput out(fifo);
    out.stream() << "through the pipe";
    out.commit();
  }
  reader.join();
  EXPECT_EQ(got, "through the pipe");
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(HostileOutput, ADirectoryIsRefused) {
  const std::string dir = scratch("a-folder");
  fs::create_directories(dir);
  EXPECT_THAT([&] { AtomicOutput out(dir); },
              ThrowsMessage<InputError>(HasSubstr("cannot write '" + dir + "': it is a directory; give a file name")));
  EXPECT_TRUE(fs::is_directory(dir));
}

TEST(HostileOutput, ASymbolicLinkLeadsToTheFileItReplaces) {
  const std::string target = scratch("real.txt"), link = scratch("link.txt");
  std::ofstream(target) << "old";
  ::chmod(target.c_str(), 0640);
  fs::create_symlink(fs::path(target).filename(), link);
  {
    AtomicOutput out(link);
    out.stream() << "new";
    out.commit();
  }
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(test::read_file(target), "new");
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  // A link to a file not yet there creates that file.
  const std::string dangling = scratch("dangling.txt"), made = scratch("made.txt");
  fs::create_symlink(fs::path(made).filename(), dangling);
  {
    AtomicOutput out(dangling);
    out.stream() << "made";
    out.commit();
  }
  EXPECT_TRUE(fs::is_symlink(dangling));
  EXPECT_EQ(test::read_file(made), "made");
}

TEST(HostileOutput, OutputsOfOneCommandCommitTogether) {
  const std::string a = scratch("a.txt"), b = scratch("b.txt");
  std::ofstream(a) << "old a";
  AtomicOutput out_a(a), out_b(b);
  out_a.stream() << "new a";
  out_b.stream() << "new b";
  fs::create_directories(b);  // b can no longer be replaced
  EXPECT_THAT([&] { commit_all({&out_a, &out_b}); },
              ThrowsMessage<InputError>(HasSubstr("cannot write '" + b + "': it is no longer a regular file")));
  EXPECT_EQ(test::read_file(a), "old a");  // put back
  EXPECT_EQ(files_like(a), std::vector<std::string>{"a.txt"});
}

TEST(HostileOutput, TheSameFileTwiceIsRefused) {
  const std::string a = scratch("twice.txt");
  AtomicOutput first(a);
  EXPECT_THAT([&] { AtomicOutput second(a); },
              ThrowsMessage<InputError>(HasSubstr("two outputs of this command name the same file")));
}

TEST(HostileOutput, ANameAtTheSystemsLimitIsWritten) {
  // A file name of 255 bytes (NAME_MAX on Linux file systems) is valid, but "NAME.tmp-PID" beside
  // it is not: the temporary takes a shortened name with a hash of the whole one, and the file is
  // written (it was refused as "File name too long"). Two such names that differ only past the
  // cut get different temporaries, and nothing is left beside them.
  const std::string dir = scratch("long-names");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string a = dir + "/" + std::string(254, 'n') + "a";
  const std::string b = dir + "/" + std::string(254, 'n') + "b";
  {
    AtomicOutput first(a);
    AtomicOutput second(b);
    first.stream() << "first";
    second.stream() << "second";
    commit_all({&first, &second});
  }
  EXPECT_EQ(test::read_file(a), "first");
  EXPECT_EQ(test::read_file(b), "second");
  // Replaced again (its backup link takes a shortened name too).
  {
    AtomicOutput again(a);
    again.stream() << "again";
    again.commit();
  }
  EXPECT_EQ(test::read_file(a), "again");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);
}

TEST(HostileOutput, TemporariesAreOnTheSignalHandlersListOnlyWhileTheyExist) {
  const std::string a = scratch("listed.txt");
  {
    AtomicOutput out(a);
    const auto listed = output_detail::registered_temporaries();
    EXPECT_NE(std::find(listed.begin(), listed.end(), out.temp_path()), listed.end());
    out.commit();
    const auto after = output_detail::registered_temporaries();
    EXPECT_EQ(std::find(after.begin(), after.end(), out.temp_path()), after.end());
  }
}

TEST(HostileOutputCli, DevStdoutIsWrittenNotReplaced) {
  const auto r = test::run_linkcast("topo " + test::config("titan.yaml") + " --format dot -o /dev/stdout");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("graph"));
  EXPECT_TRUE(fs::is_symlink("/dev/stdout"));
  const auto n = test::run_linkcast("topo " + test::config("titan.yaml") + " -o /dev/null");
  EXPECT_EQ(n.exit_code, 0) << n.err;
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(HostileOutputCli, SaveTraceAndTimelineAreKeptWhenOutputFails) {
  const std::string saved = scratch("saved.csv"), timeline = scratch("timeline.json"), dir = scratch("out-dir");
  fs::create_directories(dir);
  std::ofstream(saved) << "old trace";
  std::ofstream(timeline) << "old timeline";
  const auto m = test::run_linkcast("matrix --workload nccl-allreduce:bytes=1MiB --save-trace " + saved + " -o " + dir);
  EXPECT_EQ(m.exit_code, 2);
  EXPECT_THAT(m.err, HasSubstr("cannot write '" + dir + "': it is a directory"));
  EXPECT_EQ(test::read_file(saved), "old trace");
  const auto s = test::run_linkcast("simulate " + test::config("hgx-h100.yaml") +
                                    " --workload nccl-allreduce:bytes=1MiB --timeline " + timeline + " -o " + dir);
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_EQ(test::read_file(timeline), "old timeline");
  EXPECT_EQ(files_like(saved), std::vector<std::string>{"saved.csv"});
  EXPECT_EQ(files_like(timeline), std::vector<std::string>{"timeline.json"});
}

/// Starts `args` (build/linkcast's arguments), waits until `temp_prefix` shows up beside
/// `output`, sends `sig`, and returns how the process ended.
int interrupt_while_writing(const std::vector<std::string>& args, const std::string& output, int sig) {
  std::vector<char*> argv;
  std::string binary = LINKCAST_BINARY;
  argv.push_back(binary.data());
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stderr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  const std::string temp = output + ".tmp-" + std::to_string(pid);
  for (int i = 0; i < 3000 && !fs::exists(temp); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(fs::exists(temp)) << temp;
  ::kill(pid, sig);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(HostileOutputCli, AnInterruptedReportOrSweepLeavesNoTemporary) {
  // The trace is a FIFO nobody writes to: the command blocks reading it, with its output's
  // temporary open, until the signal comes.
  const std::string fifo = scratch("blocked.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const int sig : {SIGINT, SIGTERM}) {
    const std::string page = scratch("page.html");
    const int status =
        interrupt_while_writing({"report", fifo, "--node", test::config("hgx-h100.yaml"), "-o", page}, page, sig);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    EXPECT_EQ(files_like(page), std::vector<std::string>{});
  }
  const std::string study = scratch("blocked-study.yaml");
  std::ofstream(study) << "study_version: 1\nname: s\nbase: " << test::config("hgx-h100.yaml")
                       << "\ntraces:\n  - {file: " << fifo << ", from: " << test::config("hgx-h100.yaml") << "}\n";
  const std::string results = scratch("results.csv");
  const int status = interrupt_while_writing({"sweep", study, "-q", "-o", results}, results, SIGTERM);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_EQ(files_like(results), std::vector<std::string>{});
}

TEST(HostileOutputCli, EveryCommandThatWritesAFileLeavesNoTemporaryWhenInterrupted) {
  // Each command opens its outputs before its work (an unwritable one fails at once), so the
  // temporaries exist while it blocks reading a FIFO nobody writes to (or, for hostprobe, while
  // it measures); SIGINT or SIGTERM then removes every one and ends the command by that signal.
  const std::string fifo = scratch("blocked-input.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string node = test::config("hgx-h100.yaml");
  struct Case {
    std::string name;
    std::vector<std::string> args;  // {OUT} and {SECOND} stand for the outputs
    bool second = false;
  };
  const std::vector<Case> cases = {
      {"matrix", {"matrix", fifo, "-o", "{OUT}", "--save-trace", "{SECOND}"}, true},
      {"simulate", {"simulate", node, fifo, "-o", "{OUT}", "--timeline", "{SECOND}"}, true},
      {"project", {"project", "--from", node, "--to", node, fifo, "-o", "{OUT}", "--timeline", "{SECOND}"}, true},
      {"calibrate", {"calibrate", fifo, "-o", "{OUT}"}},
      {"topo-import", {"topo", "import", "--smi", fifo, "-o", "{OUT}"}},
      {"hostprobe", {"hostprobe", "--quick", "-o", "{OUT}", "--csv", "{SECOND}"}, true},
  };
  int k = 0;
  for (const Case& c : cases) {
    const int sig = k++ % 2 == 0 ? SIGTERM : SIGINT;
    const std::string out = scratch(c.name + "-out.txt"), second = scratch(c.name + "-second.txt");
    std::vector<std::string> args;
    for (const std::string& a : c.args) args.push_back(a == "{OUT}" ? out : a == "{SECOND}" ? second : a);
    const int status = interrupt_while_writing(args, out, sig);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << c.name << ": " << status;
    EXPECT_EQ(files_like(out), std::vector<std::string>{}) << c.name;
    if (c.second) {
      EXPECT_EQ(files_like(second), std::vector<std::string>{}) << c.name;
    }
  }
}

}  // namespace
}  // namespace linkcast
