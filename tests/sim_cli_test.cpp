// `linkcast simulate` end to end: the printed JSON and table, the timeline file, and the errors
// (exit 2, nothing half written).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "model/models.hpp"
#include "test_util.hpp"
#include "topology/loader.hpp"
#include "topology/routing.hpp"

namespace linkcast {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

std::string two_copies_csv() {
  return test::write_temp("sim_two_copies.csv",
                          "kind,src,dst,bytes,stream\n"
                          "copy,gpu0,gpu1,1073741824,1\n"
                          "copy,gpu0,gpu1,1073741824,2\n");
}

TEST(SimCli, JsonHasMakespanOpsAndLinks) {
  // Two 1 GiB copies gpu0 -> gpu1 on a DGX-1: gpu0 runs its peer copies one at a time, so the
  // makespan is twice one copy alone, 2 x (L + the default model's time).
  const auto r = test::run_linkcast("simulate " + test::config("dgx1-v100.yaml") + " " + two_copies_csv() +
                                    " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  const topology::Node n = topology::load_node(test::config("dgx1-v100.yaml"));
  const topology::Routes routes(n);
  const auto spec = topology::make_path_spec(n, routes, n.find("gpu0"), n.find("gpu1"));
  model::Transfer t;
  t.bytes = 1073741824.0;
  t.access = model::Access::write;
  const double data_ns = model::default_time_ns(spec, t);
  EXPECT_NEAR(j["makespan_s"].get<double>(), 2 * (spec.latency_ns + data_ns) * 1e-9, 1e-12);
  ASSERT_EQ(j["ops"].size(), 2u);
  EXPECT_EQ(j["ops"][1]["src"], "gpu0");
  EXPECT_EQ(j["ops"][1]["dst"], "gpu1");
  EXPECT_EQ(j["ops"][1]["bytes"], 1073741824);
  ASSERT_EQ(j["links"].size(), 1u);
  EXPECT_EQ(j["links"][0]["from"], "gpu0");
  EXPECT_EQ(j["links"][0]["to"], "gpu1");
  EXPECT_NEAR(j["links"][0]["bytes"].get<double>(), 2147483648.0, 1.0);
  EXPECT_EQ(j["model"], "default");
  EXPECT_EQ(j["matrix"]["endpoints"], json::array({"gpu0", "gpu1"}));
}

TEST(SimCli, JsonCarriesTheApplicationReplayAsTheTableDoes) {
  // A robustness hunt (round 34): the application replay (span, steps, where the time went) was
  // printed in the table only. The 2 x H200 DDP job of tests/data/real/h200-2gpu-window2
  // (ddp_mlp, rank 1's profiling window a step after rank 0's), replayed as recorded: its span
  // recorded and replayed (+0.09%), and its nine steps, ProfilerStep#9 the slowest at 80.4 ms
  // (rank 1's last allreduces waiting for rank 0); the critical path's parts add up to the span.
  const auto r = test::run_linkcast("simulate " + test::config("testbed-h200-2gpu.yaml") + " " + test::source_dir() +
                                    "/tests/data/real/h200-2gpu-window2/app_ddp_mlp --as-recorded --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json a = json::parse(r.out).at("application");
  const double recorded = a.at("recorded_span_s").get<double>(), replayed = a.at("replayed_span_s").get<double>();
  EXPECT_NEAR(recorded, 0.1545, 0.0005);
  EXPECT_NEAR(replayed, recorded, 0.01 * recorded);
  ASSERT_EQ(a.at("steps").size(), 9u);
  EXPECT_EQ(a["steps"][8]["name"], "ProfilerStep#9");
  EXPECT_NEAR(a["steps"][8]["recorded_s"].get<double>(), 0.0804, 0.0005);
  double parts_ns = 0;
  for (const auto& [key, ns] : a.at("critical_path").items()) parts_ns += ns.get<double>();
  EXPECT_NEAR(parts_ns * 1e-9, replayed, 1e-6 * replayed);
}

TEST(SimCli, TableAndTimeline) {
  const std::string timeline = ::testing::TempDir() + "sim_timeline.json";
  std::filesystem::remove(timeline);
  const auto r = test::run_linkcast("simulate " + test::config("dgx1-v100.yaml") + " " + two_copies_csv() +
                                    " --timeline " + timeline);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("makespan: 91.3 ms"));
  EXPECT_THAT(r.out, HasSubstr("gpu0->gpu1  25.0  2 GiB       100.0%  100.0%"));
  // Chrome trace events: a complete event per copy on its stream's track, a counter per link.
  const json j = json::parse(test::read_file(timeline));
  int copies = 0, counters = 0;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "X" && e["name"] == "copy 1 GiB gpu0->gpu1") ++copies;
    if (e["ph"] == "C" && e["name"] == "gpu0->gpu1") ++counters;
  }
  EXPECT_EQ(copies, 2);
  EXPECT_GE(counters, 2);
}

TEST(SimCli, AClassWithUntimedOperationsSaysHowManyItsMeasuredSumHolds) {
  // A Quadro GP100 Kineto trace timed 1 of its 10 copies (dur 0 for the rest): the class's row
  // read "simulated 10 us, measured 1 us, sim/measured 1.001", the ratio over the timed copy
  // beside sums over all. The measured cell says how many operations its sum holds.
  const std::string csv = test::write_temp("part_timed.csv",
                                           "kind,src,dst,bytes,start_ns,duration_ns\n"
                                           "copy,gpu0,gpu1,1048576,0,100000\ncopy,gpu0,gpu1,1048576,200000,\n"
                                           "copy,gpu0,gpu1,1048576,400000,\n");
  const auto r = test::run_linkcast("simulate " + test::config("dgx1-v100.yaml") + " " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("100 us (1 of 3 timed)"));
}

TEST(SimCli, WorkloadCollectiveBesideNcclsModel) {
  // nccl-allreduce of 1 GiB on the HGX-H100's 8 GPUs with NCCL's model as the whole answer:
  // the makespan is NCCL's time, 8.4 + 14 x 3.4 us + 1 GiB / (360 x 8 / 14 GB/s).
  const auto r = test::run_linkcast("simulate " + test::config("hgx-h100.yaml") +
                                    " --workload nccl-allreduce:bytes=1GiB --model nccl-model --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  const double nccl_s = (56000 + 1073741824.0 / (360.0 * 8 / 14)) * 1e-9;
  EXPECT_NEAR(j["makespan_s"].get<double>(), nccl_s, 1e-12);
  EXPECT_NEAR(j["collectives"][0]["nccl_model_s"].get<double>(), nccl_s, 1e-12);
  EXPECT_EQ(j["collectives"][0]["algo"], "ring");
  EXPECT_EQ(j["collectives"][0]["proto"], "Simple");
  EXPECT_EQ(j["model"], "default + nccl-model");
}

TEST(SimCli, ColdBuffersTakeTheL2AwayFromLlLoads) {
  // A 16 MiB ring/LL reduce-scatter on one channel of 2 x H200: its 24 MiB of buffers fit the L2
  // (l2_resident_mib 32), so its block's two input loads a byte are free and its data takes 3/5 of
  // what it takes with --cold-buffers (SimPlan.LlLoadsOfBuffersTheL2HoldsCostTheBlocksNothing).
  const auto run = [](const std::string& extra) {
    const auto r = test::run_linkcast("simulate " + test::config("testbed-h200-2gpu.yaml") +
                                      " --workload nccl-reducescatter:bytes=16MiB,channels=1 --proto LL --format json" +
                                      extra);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out)["makespan_s"].get<double>();
  };
  EXPECT_NEAR(run("") / run(" --cold-buffers"), 0.6, 0.01);
}

TEST(SimCli, UnknownModelListsTheValidOnes) {
  const std::string out = ::testing::TempDir() + "sim_never_written.json";
  std::filesystem::remove(out);
  const auto r = test::run_linkcast("simulate " + test::config("dgx1-v100.yaml") + " " + two_copies_csv() +
                                    " --model nccl -o " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "linkcast: error: --model: unknown model 'nccl'; valid models: default, ahead, peak, envelope, "
            "nccl-model\n");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(SimCli, NeedsATraceOrAWorkload) {
  const auto r = test::run_linkcast("simulate " + test::config("dgx1-v100.yaml"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "linkcast: error: simulate: give a trace file or --workload SPEC (exactly one of them)\n");
}

TEST(SimCli, ATraceAndAWorkloadTogetherAreRefusedByTheParser) {
  // CLI11 enforces "exactly one of TRACE or --workload" (an option group): both given is the same
  // usage error as neither, before any file is read.
  const auto r = test::run_linkcast("simulate " + test::config("dgx1-v100.yaml") + " no-such-trace.csv --workload training");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "linkcast: error: simulate: give a trace file or --workload SPEC (exactly one of them)\n");
}

TEST(SimCli, BadRecordLeavesNoOutput) {
  // A GPU the node lacks: exit 2 naming file, record and fix; neither -o nor --timeline written.
  const std::string csv = test::write_temp("sim_bad.csv", "kind,src,dst,bytes\ncopy,gpu0,gpu12,4096\n");
  const std::string out = ::testing::TempDir() + "sim_bad_out.json";
  const std::string timeline = ::testing::TempDir() + "sim_bad_timeline.json";
  std::filesystem::remove(out);
  std::filesystem::remove(timeline);
  const auto r = test::run_linkcast("simulate " + test::config("dgx1-v100.yaml") + " " + csv + " -o " + out +
                                    " --timeline " + timeline);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(csv + ": record 1 (line 2): endpoint 'gpu12' is not in node 'dgx1-v100'"));
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(timeline));
}

TEST(SimCli, UnknownEndpointNamesGpus) {
  // The simulator names no option (a study file has none); `simulate` has --gpus and says so: a
  // trace GPU the node lacks, and a trace GPU beyond the --gpus list.
  const std::string csv = test::write_temp("sim_gpu12.csv", "kind,src,dst,bytes\ncopy,gpu0,gpu12,4096\n");
  auto r = test::run_linkcast("simulate " + test::config("dgx1-v100.yaml") + " " + csv);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "linkcast: error: " + csv + ": record 1 (line 2): endpoint 'gpu12' is not in node 'dgx1-v100' (" +
                       test::config("dgx1-v100.yaml") +
                       ") (did you mean 'gpu1'?); place the trace's GPUs on the node's with --map gpu12=<a node GPU> (or --gpus)\n");
  r = test::run_linkcast("simulate " + test::config("dgx1-v100.yaml") + " " + two_copies_csv() + " --gpus 4");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "linkcast: error: " + two_copies_csv() +
                       ": record 1 (line 2): endpoint 'gpu1' has no GPU in --gpus (it lists 1); list at least 2 GPUs, or place it by name with --map gpu1=<a node GPU>\n");
}

}  // namespace
}  // namespace linkcast
