// Where a trace's endpoints land on a node, and who says how to place them otherwise: the one
// rule for the trace's `host` (topology::place_host) that the projection, the simulator and the
// matrices all follow, with its one message; and errors about placement that name the CLI's
// options only when the CLI reports them (a study file has its own keys).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "core/error.hpp"
#include "matrix/matrix.hpp"
#include "projection/projector.hpp"
#include "sim/simulate.hpp"
#include "study/study.hpp"
#include "study/sweep.hpp"
#include "test_util.hpp"
#include "topology/loader.hpp"
#include "topology/placement.hpp"
#include "trace/csv.hpp"

namespace linkcast {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StrEq;
using ::testing::ThrowsMessage;

/// Two sockets joined by one link; gpu0 hangs off cpu1 (its NUMA socket), so a copy from cpu0
/// crosses the socket link and one from cpu1 does not.
constexpr const char* kTwoSockets = R"(schema_version: 1
name: two-socket
endpoints:
  - {id: cpu0, kind: cpu, memory: {capacity_gib: 64, bandwidth_gbps: 100}}
  - {id: cpu1, kind: cpu, memory: {capacity_gib: 64, bandwidth_gbps: 100}}
  - {id: gpu0, kind: gpu, memory: {capacity_gib: 16, bandwidth_gbps: 1000}, host: cpu1}
links:
  - {between: [cpu0, cpu1], type: generic, bandwidth_gbps: 10}
  - {between: [cpu1, gpu0], type: generic, bandwidth_gbps: 20}
)";

topology::Node two_sockets() { return topology::parse_node(kTwoSockets, "two-socket.yaml"); }

/// A node with a GPU and no CPU: there is nowhere to put `host`.
topology::Node no_cpu() {
  topology::Node n;
  n.name = "bare";
  n.file = "bare.yaml";
  topology::Endpoint gpu;
  gpu.id = "gpu0";
  gpu.kind = topology::EndpointKind::gpu;
  gpu.memory.bandwidth_gbps = 1000;
  n.endpoints.push_back(gpu);
  return n;
}

constexpr const char* kNoCpuMessage =
    "node 'bare' (bare.yaml) has no CPU to place the trace's 'host' on; add a cpu endpoint to the node";

TEST(PlaceHost, BesideAGpuItsSocketElseTheFirstCpu) {
  const topology::Node n = two_sockets();
  // gpu0's host is cpu1 (its NUMA affinity): a copy between `host` and gpu0 uses cpu1's memory.
  EXPECT_EQ(topology::place_host(n, n.find("gpu0")), n.find("cpu1"));
  // A CPU, or nothing, at the other end has no socket to follow: the node's first CPU.
  EXPECT_EQ(topology::place_host(n, n.find("cpu1")), n.find("cpu0"));
  EXPECT_EQ(topology::place_host(n, -1), n.find("cpu0"));
}

TEST(PlaceHost, AGpuWithoutAHostGoesToTheFirstCpu) {
  // Loaded nodes give every GPU a host; a node built by hand may not.
  topology::Node n = two_sockets();
  n.endpoints[static_cast<std::size_t>(n.find("gpu0"))].host = -1;
  EXPECT_EQ(topology::place_host(n, n.find("gpu0")), n.find("cpu0"));
}

TEST(PlaceHost, ANodeWithoutCpuIsAnErrorWithOneMessage) {
  const topology::Node n = no_cpu();
  EXPECT_EQ(topology::host_placement_error(n), kNoCpuMessage);
  EXPECT_THAT([&] { (void)topology::place_host(n, 0); }, ThrowsMessage<InputError>(StrEq(kNoCpuMessage)));
}

TEST(PlaceHost, ProjectionSimulationAndMatricesAgree) {
  // 1 MB from `host` to gpu0 lands on cpu1, gpu0's socket, in all three consumers: the projection
  // prices it as the same copy from cpu1 (one 20 GB/s hop), not as one from cpu0 (also over the
  // 10 GB/s socket link); the simulator runs it from cpu1; the matrices count it in cpu1's row.
  const topology::Node n = two_sockets();
  const trace::Trace t = trace::parse_csv_trace(
      "kind,src,dst,bytes\ncopy,host,gpu0,1000000\ncopy,cpu1,gpu0,1000000\ncopy,cpu0,gpu0,1000000\n", "t.csv");
  const projection::Projector p(n, n, t);
  const model::Model& m = model::find_model("default");
  EXPECT_DOUBLE_EQ(p.time_ns(0, m), p.time_ns(1, m));
  EXPECT_GT(p.time_ns(2, m), p.time_ns(0, m));

  const sim::SimResult r = sim::simulate(n, t, {});
  EXPECT_EQ(r.ops[0].src, n.find("cpu1"));

  matrix::Options o;
  o.node = &n;
  const matrix::Report mr = matrix::build(t, o);
  const auto at = [&](const std::string& e) {
    return static_cast<std::size_t>(std::find(mr.endpoints.begin(), mr.endpoints.end(), e) - mr.endpoints.begin());
  };
  EXPECT_EQ(mr.total.bytes_at(at("cpu1"), at("gpu0")), 2000000u);  // `host`'s copy and cpu1's own
  EXPECT_EQ(mr.total.bytes_at(at("cpu0"), at("gpu0")), 1000000u);
}

TEST(PlaceHost, EveryConsumerGivesTheOneMessage) {
  // Nowhere to put `host`: the projection and the simulator add the record, the matrices (which
  // place every endpoint before the scan) say it as it is.
  const topology::Node n = no_cpu();
  const trace::Trace t = trace::parse_csv_trace("kind,src,dst,bytes\ncopy,host,gpu0,8\n", "t.csv");
  const std::string with_record = std::string("t.csv: record 1 (line 2): ") + kNoCpuMessage;
  EXPECT_THAT([&] { projection::Projector p(n, n, t); }, ThrowsMessage<InputError>(StrEq(with_record)));
  EXPECT_THAT([&] { (void)sim::simulate(n, t, {}); }, ThrowsMessage<InputError>(StrEq(with_record)));
  matrix::Options o;
  o.node = &n;
  EXPECT_THAT([&] { (void)matrix::build(t, o); }, ThrowsMessage<InputError>(StrEq(kNoCpuMessage)));
}

TEST(ChoiceError, AFrontEndPutsItsOptionInTheHintSpan) {
  // "map a=b: ..." names the map entry; the CLI says --map there.
  const ChoiceError e("map gpu0=gpu9: no such endpoint", ChoiceError::Choice::map_entry, 0, 3);
  EXPECT_STREQ(e.what(), "map gpu0=gpu9: no such endpoint");
  EXPECT_EQ(e.with_hint("--map"), "--map gpu0=gpu9: no such endpoint");
  // An empty span at the end appends.
  const ChoiceError f("gpu9 is not on the node", ChoiceError::Choice::place_gpus, 23);
  EXPECT_EQ(f.with_hint("; give --gpus"), "gpu9 is not on the node; give --gpus");
}

TEST(ChoiceError, LibraryMessagesNameNoCliOption) {
  // The endpoint map: parsed, then applied to a target that lacks the mapped endpoint.
  EXPECT_THAT([] { (void)projection::parse_endpoint_map("gpu1"); },
              ThrowsMessage<ChoiceError>(StrEq("map: 'gpu1' is not NAME=NAME; write e.g. gpu0=gpu2,gpu1=gpu3")));
  // Two GPUs of the trace onto one: a peer copy became a copy within gpu1, still called a peer
  // copy and priced as within a GPU (round 26's hunt).
  {
    const topology::Node hgx = topology::load_node(test::config("hgx-h100.yaml"));
    const trace::Trace p2p = trace::parse_csv_trace("kind,src,dst,bytes\ncopy,gpu0,gpu1,1048576\n", "p2p.csv");
    EXPECT_THAT([&] { (void)projection::Projector(hgx, hgx, p2p, {{"gpu0", "gpu1"}}); },
                ThrowsMessage<ChoiceError>(StrEq("map: gpu0 and gpu1 of the trace both go onto 'gpu1' of node "
                                                 "'hgx-h100'; each GPU of the trace takes a GPU of its own")));
  }
  // 'gpu0==gpu1' was read as gpu0 onto '=gpu1' and said "placed on no GPU" (round 26's hunt).
  EXPECT_THAT([] { (void)projection::parse_endpoint_map("gpu0==gpu1"); },
              ThrowsMessage<ChoiceError>(StrEq("map: 'gpu0==gpu1' is not NAME=NAME; write e.g. gpu0=gpu2,gpu1=gpu3")));
  const topology::Node n = two_sockets();
  const trace::Trace t = trace::parse_csv_trace("kind,src,dst,bytes\ncopy,cpu0,gpu0,8\n", "t.csv");
  EXPECT_THAT([&] { projection::Projector p(n, n, t, projection::parse_endpoint_map("gpu0=gpu9")); },
              ThrowsMessage<ChoiceError>(StrEq("map gpu0=gpu9: node 'two-socket' (two-socket.yaml) has no endpoint "
                                               "'gpu9' (did you mean 'gpu0'?)")));
  // The simulator's list of node GPUs for the trace's: too short.
  sim::SimOptions o;
  o.gpus = {n.find("gpu0")};
  const trace::Trace two = trace::parse_csv_trace("kind,src,dst,bytes\ncopy,gpu0,gpu1,8\n", "t.csv");
  EXPECT_THAT([&] { (void)sim::simulate(n, two, o); },
              ThrowsMessage<ChoiceError>(StrEq("t.csv: record 1 (line 2): endpoint 'gpu1' has no GPU in the GPU list "
                                               "(it lists 1); list at least 2 GPUs")));
}

TEST(ChoiceError, AStudyRowAndTheSweepCommandAreNotToldToPassMap) {
  // A study whose node axis has titan (one GPU) for a trace using gpu1: the failed row says
  // what to do in the study's terms, and so does `linkcast sweep`, which has no --map.
  const std::string configs = test::source_dir() + "/configs/";
  (void)test::write_temp("placement_gpu1.csv", "kind,src,dst,bytes\ncopy,cpu0,gpu1,4096\n");
  const std::string study = test::write_temp(
      "placement_study.yaml", "study_version: 1\nname: f\nbase: " + configs + "summit.yaml\naxes:\n  - {path: node, "
                              "values: [" + configs + "summit.yaml, " + configs + "titan.yaml]}\ntraces:\n  - {file: "
                              "placement_gpu1.csv, from: " + configs + "summit.yaml}\n");
  const study::Study loaded = study::load_study(study);
  const study::Sweep sweep(loaded);  // keeps a reference to the study
  const auto rows = sweep.run({1}, 1);
  ASSERT_FALSE(rows[0].items[0].ok);
  EXPECT_THAT(rows[0].items[0].error, HasSubstr("endpoint 'gpu1' is not in the target node 'titan' (" + configs +
                                                "titan.yaml); map it onto one that is (target has cpu0, gpu0, gemini0)"));
  EXPECT_THAT(rows[0].items[0].error, Not(HasSubstr("--map")));
  const std::string base_titan = test::write_temp(
      "placement_titan_study.yaml", "study_version: 1\nname: f\nbase: " + configs + "titan.yaml\ntraces:\n  - {file: "
                                    "placement_gpu1.csv, from: " + configs + "summit.yaml}\n");
  const auto r = test::run_linkcast("sweep " + base_titan);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("map it onto one that is (target has cpu0, gpu0, gemini0)\n"));
  EXPECT_THAT(r.err, Not(HasSubstr("--map")));
}

}  // namespace
}  // namespace linkcast
