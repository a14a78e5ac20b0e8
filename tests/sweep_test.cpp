// Studies and sweeps: axis paths, study validation (each error asserted), evaluation against
// hand-computed projections, failed points, and results identical for any number of threads.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <sstream>

#include "core/error.hpp"
#include "study/sweep.hpp"
#include "trace/ranks.hpp"
#include "trace/reader.hpp"
#include "trace/select.hpp"
#include "test_util.hpp"
#include "topology/edit.hpp"
#include "topology/loader.hpp"

namespace linkcast::study {
namespace {

using test::error_of;
using ::testing::HasSubstr;
using ::testing::AllOf;
using ::testing::StartsWith;

TEST(AxisPath, SelectsAndWritesNodeValues) {
  topology::Node n = topology::load_node(test::config("summit.yaml"));
  const auto p = topology::parse_axis_path("links[type=nvlink,between=cpu*].count");
  // Summit: 6 CPU-GPU NVLink connections (3 per socket); the 6 GPU-GPU ones are not selected.
  EXPECT_EQ(topology::select(n, p).size(), 6u);
  topology::apply(n, p, "3");
  EXPECT_EQ(n.links[static_cast<std::size_t>(topology::select(n, p)[0])].spec.gbps(), 75.0);
  EXPECT_EQ(topology::current_value(n, p), "3");
  const auto gpu_bw = topology::parse_axis_path("endpoints[kind=gpu].memory.bandwidth_gbps");
  topology::apply(n, gpu_bw, "1200");
  EXPECT_EQ(n.endpoints[static_cast<std::size_t>(n.find("gpu5"))].memory.bandwidth_gbps, 1200.0);
}

TEST(AxisPath, ErrorsNameThePathAndTheChoices) {
  EXPECT_EQ(error_of([] { (void)topology::parse_axis_path("links[type=pcie].gne"); }),
            "axis path 'links[type=pcie].gne': unknown field 'gne' (did you mean 'gen'?); links fields "
            "are gen, lanes, mps, mrrs, rcb, addressing, version, count, per_link_gbps, bandwidth_gbps, latency_ns");
  EXPECT_EQ(error_of([] { (void)topology::parse_axis_path("link[type=pcie].gen"); }),
            "axis path 'link[type=pcie].gen': unknown section 'link' (did you mean 'links'?); use endpoints or links");
  topology::Node n = topology::load_node(test::config("summit.yaml"));
  EXPECT_EQ(error_of([&] { topology::apply(n, topology::parse_axis_path("links[type=pcie].gen"), "7"); }),
            "links[type=pcie].gen: 7 is not one of 1, 2, 3, 4, 5, 6");
  EXPECT_EQ(error_of([&] { topology::apply(n, topology::parse_axis_path("links[type=nvlink].gen"), "4"); }),
            "links[type=nvlink].gen: field 'gen' applies to pcie links; link 'cpu0-gpu0' is nvlink");
}

std::string write_study(const std::string& name, const std::string& body) {
  // Studies refer to files relative to themselves: written into the test temp folder, they name
  // shipped configs by absolute path and nodes written beside them by relative path.
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << body;
  return path;
}

const std::string kConfigs = LINKCAST_SOURCE_DIR "/configs/";

TEST(Study, ErrorsNameFileLineAndPath) {
  const std::string head = "study_version: 1\nname: s\nbase: " + kConfigs + "summit.yaml\n";
  const std::string tail = "workloads:\n  - {spec: \"nccl-allreduce:bytes=1MiB,gpus=0-1\"}\n";
  auto err = [&](const std::string& axes) {
    const std::string f = write_study("study.yaml", head + axes + tail);
    return error_of([&] { (void)load_study(f); });
  };
  const std::string f = ::testing::TempDir() + "study.yaml";
  EXPECT_EQ(err("axes:\n  - {path: \"links[type=upi].bandwidth_gbps\", values: [8]}\n"),
            f + ":5:12: axes[0] (links[type=upi].bandwidth_gbps): 'links[type=upi].bandwidth_gbps' selects nothing in the base node "
                "'summit' (" + kConfigs + "summit.yaml)");
  EXPECT_EQ(err("axes:\n  - {path: \"links[type=nvlink].count\", values: []}\n"),
            f + ":5:48: axes[0] (links[type=nvlink].count): values must be a non-empty list");
  EXPECT_EQ(err("axes:\n  - {path: \"links[type=nvlink].count\", values: [2, two]}\n"),
            f + ":5:52: axes[0] (links[type=nvlink].count): values[1]: links[type=nvlink].count: 'two' is not a number");
  EXPECT_EQ(err("axes:\n  - {path: \"links[type=nvlink].cuont\", values: [2]}\n"),
            f + ":5:12: axes[0] (links[type=nvlink].cuont): axis path 'links[type=nvlink].cuont': unknown field "
                "'cuont' (did you mean 'count'?); links fields are gen, lanes, mps, mrrs, rcb, addressing, version, "
                "count, per_link_gbps, bandwidth_gbps, latency_ns");
  EXPECT_EQ(err("axes:\n  - {path: node, values: [" + kConfigs + "nosuch.yaml]}\n"),
            f + ":5:27: axes[0] (node): values[0]: " + kConfigs + "nosuch.yaml: no such file; shipped nodes are in "
                "configs/ (e.g. configs/summit.yaml)");
  EXPECT_EQ(err("axes:\n  - {pth: node, values: [x]}\n"),
            f + ":5:6: axes[0]: unknown key 'pth' (did you mean 'path'?); valid keys: path, values");
  // Two spellings of one value (a robustness hunt, round 26): the second axis overrode the first
  // at every point, which then read as changing nothing ("over-provisioned").
  EXPECT_EQ(err("axes:\n  - {path: \"links[type=nvlink].count\", values: [2]}\n"
                "  - {path: \"links[type=nv*].count\", values: [3]}\n"),
            f + ":6:12: axes[1] (links[type=nv*].count): it sets 'count' of 12 of the elements axes[0] "
                "(links[type=nvlink].count) sets; two axes on one value override each other: give its values to one "
                "axis");
  // Values that go up and down, or given twice (a robustness hunt, round 27): [6, 4, 5] read
  // "+12.2% per step, under-provisioned" for PCIe generations worth -17.9% a step; [5, 5] "a step
  // buys nothing". A '+' or a trailing ".0" is the same number; a list going down is a list of steps.
  EXPECT_EQ(err("axes:\n  - {path: \"links[type=nvlink].count\", values: [2, 4, 3]}\n"),
            f + ":5:55: axes[0] (links[type=nvlink].count): values[2] 3 turns back after 4: list an axis' numbers in "
                "increasing (or decreasing) order (the sensitivity takes each value to the next as a step)");
  EXPECT_EQ(err("axes:\n  - {path: \"links[type=nvlink].count\", values: [2, 2]}\n"),
            f + ":5:52: axes[0] (links[type=nvlink].count): values[1] '2' is values[0] again; list each value once");
  EXPECT_EQ(err("axes:\n  - {path: \"links[type=nvlink].count\", values: [4, +4]}\n"),
            f + ":5:52: axes[0] (links[type=nvlink].count): values[1] '+4' is values[0] again; list each value once");
  EXPECT_NO_THROW((void)load_study(write_study(
      "study.yaml", head + "axes:\n  - {path: \"links[type=nvlink].count\", values: [4, 3, 2]}\n" + tail)));
  const std::string other = write_study("study.yaml", head +
                                                          "axes:\n  - {path: \"links[type=nvlink].count\", values: [2]}\n"
                                                          "  - {path: \"links[type=nvlink].version\", values: [3]}\n" +
                                                          tail);
  EXPECT_NO_THROW((void)load_study(other));
}

TEST(Study, HostileYamlIsAnInputErrorWithItsPosition) {
  const std::string f = ::testing::TempDir() + "bad_study.yaml";
  // Malformed YAML: the position and what was open, as for node files.
  write_study("bad_study.yaml", "study_version: 1\nname: [s\n");
  EXPECT_EQ(error_of([&] { (void)load_study(f); }),
            f + ":3:1: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 2, "
                "column 7)");
  // "Billion laughs" in a study file: refused before anything walks the expansion.
  std::string bomb = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level <= 9; ++level) {
    std::string list;
    for (int k = 0; k < 10; ++k) list += fmt::format("{}*l{}", k ? ", " : "", level - 1);
    bomb += fmt::format("l{0}: &l{0} [{1}]\n", level, list);
  }
  write_study("bad_study.yaml", "study_version: 1\nname: s\nbase: " + kConfigs + "summit.yaml\n" + bomb);
  EXPECT_THAT(error_of([&] { (void)load_study(f); }),
              AllOf(StartsWith(f + ":"), HasSubstr("YAML nodes once its aliases are expanded")));
  // A name of the wrong YAML type.
  write_study("bad_study.yaml", "study_version: 1\nname: {a: b}\nbase: " + kConfigs + "summit.yaml\n");
  EXPECT_EQ(error_of([&] { (void)load_study(f); }), f + ":2:7: top level.name must be a single value");
}

TEST(Sweep, ProjectsEachPointAsProjectWould) {
  // Two-point study on a two-GPU node: the host link at 20 then 40 GB/s. One 1 MB pinned H2D copy
  // measured at 60000 ns, with L + O from its 8-byte siblings (1000 ns each). `default` anchors on the
  // measured times, as `project` does: at 20 GB/s (the trace's own node) every op keeps its time,
  // 60000 + 2 x 1000 = 62000 ns; at 40 GB/s each is scaled by the model's ratio (generic links carry
  // no packet overhead): 60000 x (1000 + 1e6/40) / (1000 + 1e6/20) = 30588.235 ns and
  // 1000 x (1000 + 8/40) / (1000 + 8/20) = 999.800 ns twice: 32587.835 ns, a speed-up of 1.90255.
  const std::string node = test::write_temp("sweep_node.yaml", R"(schema_version: 1
name: two
endpoints:
  - {id: cpu0, kind: cpu, memory: {capacity_gib: 64, bandwidth_gbps: 100}}
  - {id: gpu0, kind: gpu, memory: {capacity_gib: 16, bandwidth_gbps: 1000}}
links:
  - {between: [cpu0, gpu0], type: generic, bandwidth_gbps: 20}
)");
  const std::string trace = test::write_temp("sweep_trace.csv", "kind,src,dst,bytes,duration_ns\ncopy,cpu0,gpu0,8,1000\n"
                                                               "copy,cpu0,gpu0,1000000,60000\ncopy,cpu0,gpu0,8,1000\n");
  const std::string f = write_study("sweep_study.yaml", "study_version: 1\nname: t\nbase: sweep_node.yaml\naxes:\n"
                                                        "  - {path: \"links[type=generic].bandwidth_gbps\", values: [20, 40]}\n"
                                                        "traces:\n  - {name: copies, file: sweep_trace.csv, from: sweep_node.yaml}\n");
  const Study study = load_study(f);
  ASSERT_EQ(study.points(), 2u);
  const Sweep sweep(study);
  EXPECT_EQ(sweep.trace_sizes()[0], (std::pair<std::size_t, std::size_t>{2, 3}));  // 2 distinct of 3
  const auto rows = sweep.run({0, 1}, 2);
  EXPECT_NEAR(rows[0].items[0].figure_s * 1e9, 60000.0 + 2 * 1000.0, 1e-6);
  EXPECT_NEAR(rows[1].items[0].figure_s * 1e9, 60000.0 * 26000.0 / 51000.0 + 2 * 1000.0 * 1000.2 / 1000.4, 1e-6);
  EXPECT_EQ(rows[0].items[0].bound_by, "link 20 GB/s");
  const PointResult base = sweep.evaluate_base();
  std::ostringstream csv;
  write_results_csv(sweep, base, rows, csv);
  EXPECT_EQ(csv.str(),
            "point,links[type=generic].bandwidth_gbps,node,item,type,status,figure_s,speedup,total_default_s,"
            "time_h2d_pinned_s,bound_by,bound_share,error\n"
            "base,base,two,copies,trace,ok,6.2e-05,1,6.2e-05,6.2e-05,link 20 GB/s,0.967741935,\n"
            "0,20,two,copies,trace,ok,6.2e-05,1,6.2e-05,6.2e-05,link 20 GB/s,0.967741935,\n"
            "1,40,two,copies,trace,ok,3.25878355e-05,1.90255042,3.25878355e-05,3.25878355e-05,link 40 GB/s,0.938639675,\n");
}

TEST(Sweep, APointOnTheTracesHostKeepsTheSourcesHostRatesUnlessItVariesThem) {
  // The trace's node and the study's base are one host (processor Xeon, 64 GiB of 100 GB/s
  // memory) whose files measured its pageable D2H rate apart (5 and 8 GB/s); the host link is the
  // same. A 64 MB pageable D2H copy measured at 13 ms keeps its time at the point that leaves the
  // rate at the base's value (the host's rates are the source's: projection/same_host.hpp) and
  // runs faster at the point that sets it to 16 GB/s (the study varies it). With
  // `target_host_rates: true` the first point takes the base's 8 GB/s: faster than measured.
  const std::string host = "schema_version: 1\nname: {}\nendpoints:\n"
                           "  - {{id: cpu0, kind: cpu, model: Xeon, memory: {{capacity_gib: 64, bandwidth_gbps: 100, "
                           "copy_bandwidth_gbps: 10, pageable_d2h_gbps: {}}}}}\n"
                           "  - {{id: gpu0, kind: gpu, memory: {{capacity_gib: 16, bandwidth_gbps: 1000}}}}\n"
                           "links:\n  - {{between: [cpu0, gpu0], type: generic, bandwidth_gbps: 20}}\n";
  (void)test::write_temp("host_from.yaml", fmt::format(fmt::runtime(host), "from", 5));
  (void)test::write_temp("host_base.yaml", fmt::format(fmt::runtime(host), "base", 8));
  (void)test::write_temp("host_trace.csv", "kind,src,dst,bytes,duration_ns,dst_mem\ncopy,gpu0,cpu0,64000000,13000000,pageable\n");
  const std::string study_text = "study_version: 1\nname: t\nbase: host_base.yaml\naxes:\n"
                                 "  - {path: \"endpoints[kind=cpu].memory.pageable_d2h_gbps\", values: [8, 16]}\n"
                                 "traces:\n  - {name: d2h, file: host_trace.csv, from: host_from.yaml}\n";
  const Study study = load_study(write_study("host_study.yaml", study_text));
  const Sweep sweep(study);
  const auto rows = sweep.run({0, 1}, 1);
  EXPECT_NEAR(rows[0].items[0].figure_s, 13e-3, 1e-12);
  EXPECT_NEAR(sweep.evaluate_base().items[0].figure_s, 13e-3, 1e-12);
  EXPECT_LT(rows[1].items[0].figure_s, 12e-3);
  const Study own = load_study(write_study("host_study_own.yaml", study_text + "target_host_rates: true\n"));
  EXPECT_LT(Sweep(own).run({0}, 1)[0].items[0].figure_s, 12e-3);
}

TEST(Study, APointThatChangesAGpusPeakKeepsItsMeasuredStreamingShare) {
  // Summit's V100s: peak 900, measured streaming 833.4 GB/s (92.6%). A point at 1800 GB/s peak
  // streams at 1666.8 (the same share of the new peak); a point that also sets stream_gbps keeps
  // the value it sets, whatever the order of the axes; a point whose streaming rate it sets above
  // the peak it also sets (1000 against 900) is refused, as a node file is (robustness hunt 37).
  const std::string axes_text = "study_version: 1\nname: s\nbase: {}summit.yaml\naxes:\n{}"
                                "workloads:\n  - {{name: w, spec: \"nccl-allreduce:bytes=1MiB,gpus=0-1\"}}\n";
  const std::string peak = "  - {path: \"endpoints[kind=gpu].memory.bandwidth_gbps\", values: [900, 1800]}\n";
  const std::string stream = "  - {path: \"endpoints[kind=gpu].memory.stream_gbps\", values: [1000]}\n";
  const Study one = load_study(write_study("stream_peak.yaml", fmt::format(fmt::runtime(axes_text), kConfigs, peak)));
  const auto gpu = static_cast<std::size_t>(one.base.find("gpu3"));
  EXPECT_DOUBLE_EQ(one.node_at(0).endpoints[gpu].memory.stream_gbps, 833.4);
  EXPECT_DOUBLE_EQ(one.node_at(1).endpoints[gpu].memory.stream_gbps, 833.4 * 1800 / 900);
  for (const std::string& both : {peak + stream, stream + peak}) {
    const Study set = load_study(write_study("stream_both.yaml", fmt::format(fmt::runtime(axes_text), kConfigs, both)));
    EXPECT_THAT(test::error_of([&] { (void)set.node_at(0); }),
                HasSubstr("point 0: gpu 'gpu0': memory.stream_gbps 1000 is above its memory.bandwidth_gbps 900"));
    EXPECT_DOUBLE_EQ(set.node_at(1).endpoints[gpu].memory.stream_gbps, 1000.0);
  }
}

TEST(Sweep, ATraceThatIsAJobsFolderIsReadAsEveryCommandReadsIt) {
  // A robustness hunt (round 32): a study's trace given as a job's folder of rank files (as
  // project, simulate, matrix and report take it) loaded, and the sweep then stopped with "is a
  // directory, not a trace file". Both ranks of the 2 x H200 DDP job are read, as `project` does.
  const std::string job = test::source_dir() + "/tests/data/real/h200-2gpu-ddp/app_ddp_mlp";
  const std::string f = write_study(
      "folder_study.yaml", "study_version: 1\nname: t\nbase: " + kConfigs + "testbed-h200-2gpu.yaml\naxes:\n"
                           "  - {path: \"endpoints[kind=gpu].memory.bandwidth_gbps\", values: [4800, 6000]}\n"
                           "traces:\n  - {name: ddp, file: " + job + ", from: " + kConfigs + "testbed-h200-2gpu.yaml}\n");
  const Study study = load_study(f);
  const Sweep sweep(study);
  EXPECT_EQ(sweep.trace_sizes()[0].second, trace::data_movement(trace::read_traces({job})).size());
  EXPECT_GT(sweep.trace_sizes()[0].second, trace::data_movement(trace::read_trace(job + "/rank0.json.gz")).size());
}

TEST(Sweep, AFailedPointIsReportedAndTheOthersKept) {
  // A node axis whose second node lacks the trace's gpu1: that point fails, the first does not.
  const std::string trace = test::write_temp("sweep_gpu1.csv", "kind,src,dst,bytes\ncopy,cpu0,gpu1,4096\n");
  const std::string f = write_study("sweep_fail.yaml", "study_version: 1\nname: f\nbase: " + kConfigs + "summit.yaml\n"
                                                       "axes:\n  - {path: node, values: [" + kConfigs + "summit.yaml, " +
                                                       kConfigs + "titan.yaml]}\ntraces:\n  - {file: sweep_gpu1.csv, from: " +
                                                       kConfigs + "summit.yaml}\n");
  const Study study = load_study(f);
  const Sweep sweep(study);
  const auto rows = sweep.run({0, 1}, 1);
  EXPECT_TRUE(rows[0].items[0].ok);
  EXPECT_FALSE(rows[1].items[0].ok);
  EXPECT_THAT(rows[1].items[0].error, HasSubstr("endpoint 'gpu1' is not in the target node 'titan'"));
  const std::string summary = summarize_sweep(sweep, sweep.evaluate_base(), rows);
  EXPECT_THAT(summary, HasSubstr("1 evaluations failed"));
}

TEST(Sweep, ResultsDoNotDependOnThreads) {
  const Study study = load_study(kConfigs + "studies/training-pcie-nvlink.yaml");
  const Sweep sweep(study);
  std::vector<std::size_t> all;
  for (std::size_t p = 0; p < study.points(); ++p) all.push_back(p);
  const PointResult base = sweep.evaluate_base();
  std::ostringstream one, two;
  write_results_csv(sweep, base, sweep.run(all, 1), one);
  write_results_csv(sweep, base, sweep.run(all, 2), two);
  EXPECT_EQ(one.str(), two.str());
}

}  // namespace
}  // namespace linkcast::study
