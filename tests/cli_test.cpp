// End-to-end tests of build/linkcast: golden outputs (regenerate with LINKCAST_UPDATE_GOLDEN=1
// after an intended change, and review the diff), exit codes, and no half-written output files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <nlohmann/json.hpp>

#include "core/units.hpp"
#include "test_util.hpp"

namespace linkcast {
namespace {

using test::run_linkcast;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = test::source_dir() + "/tests/golden/" + name;
  if (std::getenv("LINKCAST_UPDATE_GOLDEN")) {
    std::ofstream(path) << actual;
    GTEST_SKIP() << "updated " << path;
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing; run with LINKCAST_UPDATE_GOLDEN=1";
  EXPECT_EQ(actual, test::read_file(path)) << "output differs from " << path;
}

TEST(CliGolden, TopoTableOfSummit) {
  const auto r = run_linkcast("topo configs/summit.yaml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_golden("topo_summit.txt", r.out);
}

TEST(CliGolden, TopoJsonOfTitan) {
  const auto r = run_linkcast("topo configs/titan.yaml --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_golden("topo_titan.json", r.out);
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["pairs"].size(), 6u);  // 3 endpoints -> 6 ordered pairs
  EXPECT_EQ(j["pairs"][0]["src"], "cpu0");
  EXPECT_DOUBLE_EQ(j["pairs"][0]["bandwidth_gbps"].get<double>(), 8.0);
}

TEST(CliGolden, TopoDotOfDgx1) {
  const auto r = run_linkcast("topo configs/dgx1-v100.yaml --format dot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_golden("topo_dgx1.dot", r.out);
}

TEST(CliGolden, ProjectH100CopySweepOntoH200) {
  // The README's main job: the copy sweep recorded on the H100 machine projected onto the
  // 2 x H200 machine and scored against the sweep recorded there.
  const auto r = run_linkcast(
      "project --from configs/testbed-h100-1gpu.yaml --to configs/testbed-h200-2gpu.yaml "
      "tests/data/real/h100-1gpu/copybench_trace.csv.gz --actual tests/data/real/h200-2gpu/copybench_trace.csv.gz");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_golden("project_h100_to_h200.txt", r.out);
}

TEST(CliProjectHost, OneHostUnderTwoFilesKeepsTheSourcesRatesUnlessAsked) {
  // The held-out checkpoints into fresh pages (apps2) projected between the two 1-GPU nodes of
  // 2026-11-23, one host's hardware: the warning names the CPU, and the projection scores what
  // "nothing changes" scores (6.36%). --target-host-rates prices with the H200 session's rates:
  // no warning, 24.35% (README "One host, two node files").
  const std::string cmd =
      "project --from configs/testbed-h100-1gpu-apps.yaml --to configs/testbed-h200-1gpu-apps.yaml "
      "tests/data/real/h100-1gpu-apps2/app_ckpt_fresh.json.gz --actual tests/data/real/h200-1gpu-apps2/app_ckpt_fresh.json.gz "
      "--model default --format json";
  const auto carried = run_linkcast(cmd);
  ASSERT_EQ(carried.exit_code, 0) << carried.err;
  EXPECT_THAT(carried.err, HasSubstr("endpoint 'cpu0' is the source node's host hardware"));
  EXPECT_NEAR(nlohmann::json::parse(carried.out)["models"]["default"]["wmape_pct"].get<double>(), 6.36, 0.01);
  const auto own = run_linkcast(cmd + " --target-host-rates");
  ASSERT_EQ(own.exit_code, 0) << own.err;
  EXPECT_THAT(own.err, Not(HasSubstr("host hardware")));
  EXPECT_NEAR(nlohmann::json::parse(own.out)["models"]["default"]["wmape_pct"].get<double>(), 24.35, 0.01);
}

TEST(CliProjectApplication, TheSpanIsGivenPerTransferModelBesideTheRecordedAndTheActual) {
  // Issue 14's JSON: span {source_s, actual_s, models: {model: seconds}}. The held-out checkpoint
  // app (apps2) projected from the H100 onto the H200 node with every model: the default's span is
  // the application projection's own; each other model is one more replay on the target with its
  // transfers priced by that model; `measured` is left out (the application's "nothing changes" is
  // source_s).
  const auto r = run_linkcast(
      "project --from configs/testbed-h100-1gpu-apps.yaml --to configs/testbed-h200-1gpu-apps.yaml "
      "tests/data/real/h100-1gpu-apps2/app_ckpt_fresh.json.gz --actual tests/data/real/h200-1gpu-apps2/app_ckpt_fresh.json.gz "
      "--format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& span = j["span"];
  const auto& app = j["application"]["span"];
  EXPECT_DOUBLE_EQ(span["source_s"].get<double>(), app["recorded_ns"].get<double>() * 1e-9);
  EXPECT_DOUBLE_EQ(span["actual_s"].get<double>(), app["actual_ns"].get<double>() * 1e-9);
  EXPECT_DOUBLE_EQ(span["models"]["default"].get<double>(), app["projected_ns"].get<double>() * 1e-9);
  for (const char* m : {"ahead", "peak", "envelope"}) {
    ASSERT_TRUE(span["models"].contains(m)) << m;
    // Each within a fifth of the recorded span: one host's copies, anchored on their measured times.
    EXPECT_NEAR(span["models"][m].get<double>(), span["source_s"].get<double>(), 0.2 * span["source_s"].get<double>()) << m;
  }
  EXPECT_FALSE(span["models"].contains("measured"));
  const auto table = run_linkcast(
      "project --from configs/testbed-h100-1gpu-apps.yaml --to configs/testbed-h200-1gpu-apps.yaml "
      "tests/data/real/h100-1gpu-apps2/app_ckpt_fresh.json.gz --model default --model peak");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("Span per transfer model (recorded "));
  EXPECT_THAT(table.out, HasSubstr(" peak "));
}

TEST(CliGolden, ProjectTitanToSummitJson) {
  LINKCAST_REQUIRE_SHARED();
  const std::string titan = test::ahead("Titan_Data/Bandwidth_Benchmarking/profiler-bandwidth-output-dtod.nvvp");
  const std::string summit = test::ahead("Summit_Data/Bandwidth_Benchmarking/sqlite/profiler-bandwidth-output-dtod.nvvp");
  const auto r = run_linkcast("project --from configs/titan.yaml --to configs/summit.yaml " + titan + " --actual " +
                              summit + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["matched_ops"], 2929);
  EXPECT_EQ(j["unmatched_ops"], 0);
  for (const char* m : {"default", "ahead", "peak", "envelope"}) {
    EXPECT_TRUE(j["models"][m].contains("projected_total_s")) << m;
    EXPECT_TRUE(j["models"][m].contains("wmape_pct")) << m;
    EXPECT_TRUE(j["by_kind"]["d2d"][m].contains("actual_total_s")) << m;
  }
  EXPECT_LT(j["by_kind"]["d2d"]["default"]["wmape_pct"].get<double>(), 15.0);
}

TEST(CliProjectUntimed, AnActualWithoutTimesScoresNothingRatherThanZeroPercent) {
  // A robustness hunt (round 26): an --actual trace without durations ("0 ops matched"), or whose
  // one match measured 0 ns, printed "WMAPE 0.00%" (JSON 0.0): a perfect score for nothing. WMAPE
  // over no measured time is undefined: "-" in the table, null in JSON.
  const std::string dir = ::testing::TempDir();
  auto write = [](const std::string& path, std::string_view bytes) { std::ofstream(path, std::ios::binary) << bytes; };
  write(dir + "src.csv", "kind,src,dst,bytes,duration_ns\ncopy,cpu0,gpu0,1048576,50000\n");
  write(dir + "untimed.csv", "kind,src,dst,bytes\ncopy,cpu0,gpu0,1048576\n");
  write(dir + "zero.csv", "kind,src,dst,bytes,duration_ns\ncopy,cpu0,gpu0,1048576,0\n");
  for (const char* actual : {"untimed.csv", "zero.csv"}) {
    const std::string cmd = "project --from configs/summit.yaml --to configs/summit.yaml " + dir + "src.csv --actual " +
                            dir + actual + " --model default";
    const auto table = run_linkcast(cmd);
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_THAT(table.out, Not(HasSubstr("0.00%"))) << actual;
    const auto json = run_linkcast(cmd + " --format json");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    EXPECT_TRUE(nlohmann::json::parse(json.out)["models"]["default"]["wmape_pct"].is_null()) << actual;
  }
}

TEST(CliProjectUntimed, TheSourceTotalSaysHowManyOperationsItHolds) {
  // A Quadro GP100 Kineto trace (tests/data/wild) timed 1 of its 10 copies: "measured on the source
  // node: 1 us" stood beside a `measured` row of 10 us (the untimed copies priced with `default`).
  // The line now says how many operations the source's sum holds and how the others are priced.
  const auto r = run_linkcast("project --from configs/hgx-h100.yaml --to configs/hgx-h200.yaml " +
                              test::source_dir() + "/tests/data/wild/kineto/hta_quadro_gp100_user_annot.json.gz");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("measured on the source node: 1 us (1 of 10 operations timed; `measured` prices the "
                               "others with `default`)"));
  // Without a `measured` row there is nothing to explain but the count.
  const auto d = run_linkcast("project --from configs/hgx-h100.yaml --to configs/hgx-h200.yaml --model default " +
                              test::source_dir() + "/tests/data/wild/kineto/hta_quadro_gp100_user_annot.json.gz");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_THAT(d.out, HasSubstr("measured on the source node: 1 us (1 of 10 operations timed)\n"));
}

TEST(CliGolden, ModelsList) {
  const auto r = run_linkcast("models");
  ASSERT_EQ(r.exit_code, 0);
  expect_golden("models.txt", r.out);
}

TEST(CliErrors, BadInputExitsTwoAndWritesNothing) {
  const std::string out = ::testing::TempDir() + "should_not_exist.txt";
  std::filesystem::remove(out);
  const std::string bad = test::write_temp("bad_trace.csv", "kind,src,dst,bytes\ncopy,cpu0,gpu0,12\ncopy,cpu0,gpu0,-1\n");
  const auto r = run_linkcast("project --from configs/titan.yaml --to configs/summit.yaml " + bad + " -o " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "linkcast: error: " + bad + ":3: column 'bytes': '-1' is negative; it must be a non-negative whole number\n");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliErrors, UnknownModelListsTheValidOnes) {
  const auto r = run_linkcast("project --from configs/titan.yaml --to configs/summit.yaml x.csv --model fastest");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "linkcast: error: unknown model 'fastest'; valid models: default, ahead, peak, envelope, measured\n");
}

TEST(CliErrors, EndpointTheTargetLacks) {
  const std::string t = test::write_temp("gpu5.csv", "kind,src,dst,bytes\ncopy,cpu0,gpu5,8\n");
  const auto r = run_linkcast("project --from configs/hgx-h100.yaml --to configs/titan.yaml " + t);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("record 1 (line 2): endpoint 'gpu5' is not in the target node 'titan'"));
  EXPECT_THAT(r.err, HasSubstr("--map gpu5=<endpoint>"));
}

TEST(CliErrors, ImplausibleNodeValuesExitTwoWithTheKeyAndTheFix) {
  const std::string node = test::write_temp("hex_node.yaml", R"(schema_version: 1
name: hex
endpoints:
  - {id: cpu0, kind: cpu, memory: {capacity_gib: 64, bandwidth_gbps: 100}}
  - {id: gpu0, kind: gpu, memory: {capacity_gib: 16, bandwidth_gbps: 900}}
links:
  - {between: [cpu0, gpu0], type: pcie, gen: 4, lanes: '0x10'}
)");
  const auto r = run_linkcast("topo " + node);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "linkcast: error: " + node +
                       ":7:56: links[0] (cpu0-gpu0).lanes must be a decimal number, got '0x10' (hexadecimal); write 16\n");
}

TEST(CliErrors, UsageErrorsExitTwo) {
  EXPECT_EQ(run_linkcast("").exit_code, 2);                       // no subcommand
  EXPECT_EQ(run_linkcast("topo configs/summit.yaml --format xml").exit_code, 2);
  EXPECT_EQ(run_linkcast("frobnicate").exit_code, 2);
  const auto r = run_linkcast("topo configs/nope.yaml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "linkcast: error: configs/nope.yaml: no such file; shipped nodes are in configs/ (e.g. configs/summit.yaml)\n");
}

TEST(CliSweep, ANodeAxisIsAListInNoOrder) {
  // Issue 18: a `node:` axis (a list of files) gets no "per step" sensitivity, no second `node`
  // column, figures with units (not "8.442e-05 s") and no "-0.0%".
  const std::string study = test::write_temp(
      "node_axis_study.yaml",
      "study_version: 1\nname: node-list\nbase: " + test::config("hgx-h100.yaml") + "\naxes:\n  - path: node\n    values: [" +
          test::config("hgx-h100.yaml") + ", " + test::config("hgx-h200.yaml") + ", " + test::config("dgx-a100.yaml") +
          "]\n  - {path: \"links[type=pcie].gen\", values: [5, 6]}\nworkloads:\n  - {name: allreduce-64MiB, spec: "
          "\"nccl-allreduce:bytes=64MiB,gpus=0-7\"}\ntraces:\n  - {name: copies, file: " +
          test::source_dir() + "/tests/data/real/h100-1gpu/copybench_trace.csv.gz, from: " +
          test::config("testbed-h100-1gpu.yaml") + "}\n");
  const std::string results = ::testing::TempDir() + "node_axis_results.csv";
  const auto r = run_linkcast("sweep " + study + " -q -o " + results);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string summary = r.out.substr(0, r.out.find("\nResults: "));
  expect_golden("sweep_node_axis.txt", summary);
  EXPECT_THAT(summary, HasSubstr("hgx-h200 vs hgx-h100"));
  EXPECT_THAT(summary, HasSubstr("    node: fastest "));
  EXPECT_THAT(summary, Not(HasSubstr("node: +")));
  EXPECT_THAT(summary, Not(HasSubstr("-0.0%")));
  EXPECT_THAT(summary, Not(ContainsRegex("[0-9]e-[0-9]+ s")));
  EXPECT_THAT(summary, HasSubstr("links[type=pcie].gen: "));  // an ordered axis keeps its steps
  const std::string csv = test::read_file(results);
  const std::string header = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(header.rfind("point,links[type=pcie].gen,node,item,type,status,figure_s,", 0), 0u) << header;
  EXPECT_EQ(header.find(",node,"), header.rfind(",node,")) << header;
  EXPECT_THAT(csv, HasSubstr("\n4,5,dgx-a100,copies,trace,ok,"));
}

TEST(CliUnits, OneConventionForBytesInTheCliAndTheReport) {
  // Issue 18: `simulate` said 716.55 MB where the report said 683.36 MiB for the same bytes, and
  // one table mixed "8.20 MB" and "30764 KiB". Every size printed is in binary units.
  const std::string trace = "tests/data/real/h200-2gpu/torch_ddp_rank0.json.gz";
  const std::string node = "configs/testbed-h200-2gpu.yaml";
  const std::regex si("[0-9] ?[KMGT]B\\b(?!/s)");  // rates stay GB/s
  // Its data movement, as the README's simulate example: the matrices, then the replay.
  const std::string moved = ::testing::TempDir() + "units_ddp0.csv";
  const auto matrix = run_linkcast("matrix " + trace + " --node " + node + " --save-trace " + moved);
  ASSERT_EQ(matrix.exit_code, 0) << matrix.err;
  EXPECT_FALSE(std::regex_search(matrix.out, si)) << matrix.out;
  const auto sim = run_linkcast("simulate " + node + " " + moved);
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  EXPECT_THAT(sim.out, HasSubstr("allreduce    40  683.36 MiB "));
  EXPECT_THAT(sim.out, HasSubstr("h2d pinned   40  270.02 MiB "));
  EXPECT_FALSE(std::regex_search(sim.out, si)) << sim.out;
  const std::string page = ::testing::TempDir() + "units_report.html";
  const auto report = run_linkcast("report " + trace + " --node " + node + " --to configs/hgx-h200.yaml -o " + page);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  std::string html = test::read_file(page);
  html = html.substr(0, html.find("<script>"));  // the page's text, not its script
  EXPECT_THAT(html, HasSubstr("683.36 MiB"));
  std::smatch m;
  EXPECT_FALSE(std::regex_search(html, m, si)) << m.str() << " in the report";
}

TEST(Units, AChangeThatRoundsToZeroHasNoMinus) {
  EXPECT_EQ(format_signed_pct(-0.04, 1), "+0.0%");
  EXPECT_EQ(format_signed_pct(-0.05001, 1), "-0.1%");
  EXPECT_EQ(format_signed_pct(12.345, 1), "+12.3%");
  EXPECT_EQ(format_signed_pct(-3.0, 2), "-3.00%");
  EXPECT_EQ(format_change_pct(99.9999, 100.0, 2), "+0.00%");
  EXPECT_EQ(format_change_pct(1.0, 0.0, 1), "-");
}

TEST(CliHelp, EveryCommandDocumentsItsOptions) {
  const auto top = run_linkcast("--help");
  EXPECT_EQ(top.exit_code, 0);
  for (const char* cmd : {"topo", "project", "models", "calibrate"}) {
    EXPECT_THAT(top.out, HasSubstr(cmd)) << cmd;
    const auto r = run_linkcast(std::string(cmd) + " --help");
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_THAT(r.out, HasSubstr("Options:")) << cmd;
  }
}

TEST(CliHelp, ProjectAndSimulateSayWhichModelToTrustAndWhichNodeToGive) {
  // Issue 18: --help says which model to trust for what, and when a generic node or a described
  // testbed node is the one to give.
  const auto project = run_linkcast("project --help");
  EXPECT_EQ(project.exit_code, 0);
  for (const char* says : {"Which model to trust for what:", "default   linkcast's model, anchored on what the trace",
                           "measured  \"nothing changes\"", "WMAPE = sum |actual - projected| / sum actual",
                           "Which node files:", "--from    the machine the trace was recorded on",
                           "configs/testbed-*.yaml", "generic node (configs/hgx-h100.yaml"})
    EXPECT_THAT(project.out, HasSubstr(says)) << says;
  const auto simulate = run_linkcast("simulate --help");
  EXPECT_EQ(simulate.exit_code, 0);
  for (const char* says : {"Which model to trust for what:", "nccl-model  NCCL's own cost model", "--as-recorded",
                           "Which node file:", "configs/testbed-*.yaml", "generic", "--timeline-ops"})
    EXPECT_THAT(simulate.out, HasSubstr(says)) << says;
  // Every line of the guide fits 100 columns.
  for (const auto* out : {&project.out, &simulate.out}) {
    std::istringstream lines(out->substr(out->find("Which model to trust")));
    for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 100u) << line;
  }
}

// Issue 18, "messages that point the wrong way": each says what is wrong; exit 2 and no output.
TEST(CliWrongWay, ReportOfARankOneTraceDoesNotOfferGpus) {
  const std::string out = ::testing::TempDir() + "wrong_way_rank1.html";
  std::filesystem::remove(out);
  const auto r = run_linkcast("report tests/data/real/h200-2gpu/torch_ddp_rank1.json.gz --node configs/testbed-h100-1gpu.yaml -o " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("endpoint 'gpu1' is not in node 'testbed-h100-1gpu'"));
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("--gpus")));
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliWrongWay, NodeDirectoryIsADirectory) {
  const std::string out = ::testing::TempDir() + "wrong_way_topo.txt";
  std::filesystem::remove(out);
  const auto r = run_linkcast("topo configs -o " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "linkcast: error: configs: is a directory, not a node file; give one of its .yaml files (e.g. "
                   "configs/summit.yaml)\n");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliWrongWay, SimulateOfATraceSaysTheNodeIsMissing) {
  const std::string out = ::testing::TempDir() + "wrong_way_sim.txt";
  std::filesystem::remove(out);
  const std::string t = "tests/data/real/h200-2gpu/copybench_trace.csv.gz";
  const auto r = run_linkcast("simulate " + t + " -o " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "linkcast: error: simulate: '" + t +
                       "' was given as the node, but it is not a node file (.yaml): the node is missing; give it "
                       "before the trace, e.g. `linkcast simulate configs/dgx1-v100.yaml " + t + "`\n");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliWrongWay, ArgumentsInTheWrongOrderSayWhereTheNodeGoes) {
  // `simulate TRACE NODE`: the trace sits where the node goes; `matrix NODE TRACE`: the node sits
  // where a trace goes. Each says which file is which and where a node is given.
  const std::string t = "tests/data/real/h200-2gpu/copybench_trace.csv.gz";
  const std::string where = "the first argument of `simulate` and `topo`, `--node FILE` of `matrix` and `report`, "
                            "`--from`/`--to` of `project`\n";
  const auto sim = run_linkcast("simulate " + t + " configs/hgx-h200.yaml");
  EXPECT_EQ(sim.exit_code, 2);
  EXPECT_EQ(sim.err, "linkcast: error: " + t + ": given as the node, but a node is a .yaml file (configs/ has them); "
                     "is this the trace? The node is " + where);
  const auto mat = run_linkcast("matrix configs/hgx-h200.yaml " + t);
  EXPECT_EQ(mat.exit_code, 2);
  EXPECT_EQ(mat.err, "linkcast: error: configs/hgx-h200.yaml: a node or study file (YAML), not a trace; give a node as "
                     "the node: " + where);
  const auto opt = run_linkcast("simulate --node configs/hgx-h200.yaml " + t);
  EXPECT_EQ(opt.exit_code, 2);
  EXPECT_EQ(opt.err, "linkcast: error: simulate: the node is its first argument, not an option: `linkcast simulate "
                     "NODE.yaml ...`\n");
}

TEST(CliWrongWay, AMistypedOptionIsNamedWithTheNearestEvenWhenAnotherErrorCameFirst) {
  // `--form` leaves `--from` missing, which CLI11 reports first; the typo is the cause.
  const auto r = run_linkcast("project --form configs/hgx-h100.yaml --to configs/hgx-h200.yaml "
                              "tests/data/real/h200-2gpu/copybench_trace.csv.gz");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("linkcast: error: project: unknown option '--form' (did you mean '--from'?); valid "
                               "options: --help, --from, --to,"));
  const auto timeline = run_linkcast("simulate configs/hgx-h200.yaml --workload nccl-allreduce --timline t.json");
  EXPECT_THAT(timeline.err, HasSubstr("simulate: unknown option '--timline' (did you mean '--timeline'?)"));
}

TEST(CliWrongWay, EmptyValuesAreRefusedNotReadAsOptionsLeftOut) {
  // A mutation run of the CLI (tools/fuzz/mutate.py, 2026-11-29): `--workload ""` read as no
  // workload, and the command then merged no trace at all: a null dereference (SIGSEGV, UBSan
  // in trace/ranks.cpp). `-o ""`, `--actual ""`, `--timeline ""`, `--node ""` and `--map ""` read
  // as not given and the command ran without them, exit 0; an empty trace path was named ": no such
  // trace file".
  const std::string t = "tests/data/real/h200-1gpu-apps7/app_graphed_mlp.json.gz";
  const auto workload = run_linkcast("simulate configs/hgx-h100.yaml --workload ''");
  EXPECT_EQ(workload.exit_code, 2);
  EXPECT_THAT(workload.err, HasSubstr("linkcast: error: --workload: an empty workload; give one, e.g. "
                                      "nccl-allreduce:bytes=1GiB (`--workload help` lists them)"));
  for (const std::string& args : {"matrix " + t + " -o ''", "matrix " + t + " --node ''",
                                  "simulate configs/hgx-h100.yaml " + t + " --timeline ''",
                                  "simulate configs/hgx-h100.yaml " + t + " --map ''",
                                  "project --from configs/hgx-h100.yaml --to configs/hgx-h200.yaml " + t + " --actual ''",
                                  std::string("sweep ''"), std::string("topo import --nccl-xml ''")}) {
    SCOPED_TRACE(args);
    const auto r = run_linkcast(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr(": an empty value (an unset shell variable?); give one"));
    EXPECT_EQ(r.out, "");
  }
  const auto path = run_linkcast("matrix --node configs/hgx-h100.yaml ''");
  EXPECT_EQ(path.exit_code, 2);
  EXPECT_THAT(path.err, HasSubstr(": an empty value"));
  // A nested command's unknown option is its own, not its parent's.
  const auto nested = run_linkcast("topo import --form x");
  EXPECT_THAT(nested.err, HasSubstr("linkcast: error: topo import: unknown option '--form'; valid options: --help, "
                                    "--nccl-xml, --smi, --gpus-csv, --name, --output; see `linkcast topo import --help`"));
}

TEST(CliWrongWay, AnOutputThatIsAnInputIsRefusedAndTheInputKept) {
  // A robustness hunt (round 25): `report t.json -o t.json` replaced the trace with the page.
  const std::string dir = ::testing::TempDir();
  const std::string trace = dir + "own.json.gz";
  std::filesystem::copy_file(test::source_dir() + "/tests/data/real/h200-1gpu-apps7/app_graphed_mlp.json.gz", trace,
                             std::filesystem::copy_options::overwrite_existing);
  const auto size = std::filesystem::file_size(trace);
  for (const std::string& args : {"report --node configs/hgx-h100.yaml " + trace + " -o " + trace,
                                  "matrix " + trace + " -o " + trace, "calibrate " + trace + " -o " + trace,
                                  "simulate configs/hgx-h100.yaml " + trace + " --timeline " + trace}) {
    SCOPED_TRACE(args);
    const auto r = run_linkcast(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr(trace + ": an output of this command, and " + trace +
                                 " is one of its inputs: writing it would replace that input; give another output file"));
    EXPECT_EQ(std::filesystem::file_size(trace), size);
  }
}

TEST(CliWrongWay, AnOutputOverAFoldersTraceOrANodeOrStudyFileIsRefused) {
  // A robustness hunt (round 29): the check compared an output with the arguments alone, so
  // `report ddp -o ddp/rank0.json.gz` replaced rank 0's trace with the page (exit 0), and `topo`,
  // `topo import` and `sweep` did not check at all (`topo n.yaml -o n.yaml` replaced the node
  // file with its table). Each is refused now, the input kept.
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "linkcast_outputs_over_inputs";
  fs::remove_all(dir);
  fs::create_directories(dir / "ddp");
  const std::string ddp = (dir / "ddp").string(), rank0 = (dir / "ddp" / "torch_ddp_rank0.json.gz").string();
  for (const char* r : {"0", "1"})
    fs::copy_file(test::source_dir() + "/tests/data/real/h200-2gpu/torch_ddp_rank" + r + ".json.gz",
                  dir / "ddp" / (std::string("torch_ddp_rank") + r + ".json.gz"));
  const std::string node = (dir / "n.yaml").string(), study = (dir / "st.yaml").string();
  fs::copy_file(test::config("testbed-h200-2gpu.yaml"), node);
  std::ofstream(study) << "study_version: 1\nname: st\nbase: n.yaml\naxes:\n  - path: links[type=pcie].gen\n"
                          "    values: [4, 5]\nworkloads:\n  - {name: ar, spec: \"nccl-allreduce:bytes=1MiB,gpus=0-1\"}\n";
  const std::string smi = (dir / "topo-m.txt").string();
  fs::copy_file(test::source_dir() + "/tests/data/fuzz/seeds/smi_topo/smi_topo-mleng_h100_8gpu_nv18_no_nics.txt", smi);
  for (const auto& [args, input] : std::vector<std::pair<std::string, std::string>>{
           {"report " + ddp + " --node " + node + " -o " + rank0, rank0},
           {"matrix " + ddp + " --save-trace " + rank0, rank0},
           {"simulate " + node + " " + ddp + " --timeline " + rank0, rank0},
           {"topo " + node + " -o " + node, node},
           {"topo import --smi " + smi + " -o " + smi, smi},
           {"sweep " + study + " -o " + study, study},
           {"sweep " + study + " -o " + node, node}}) {
    SCOPED_TRACE(args);
    const auto size = fs::file_size(input);
    const auto r = run_linkcast(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr(": an output of this command, and "));
    EXPECT_THAT(r.err, HasSubstr(" is one of its inputs: writing it would replace that input; give another output file"));
    EXPECT_EQ(fs::file_size(input), size);
  }
  // linkcast's own timeline is no trace: said by name (it read as a trace of 0 operations, and in
  // a folder as a second rank 0).
  const std::string timeline = (dir / "timeline.json").string();
  ASSERT_EQ(run_linkcast("simulate " + node + " " + ddp + " --timeline " + timeline).exit_code, 0);
  const auto again = run_linkcast("matrix " + timeline);
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_THAT(again.err, HasSubstr(timeline + ": a linkcast timeline (`--timeline` of simulate or project), not a "
                                              "trace; give the trace it was made from"));
}

TEST(CliWrongWay, FilesNoReaderTakesSayWhatToDo) {
  // An Nsight Systems report given as it is, binary data, a gzip'd node file.
  const std::string dir = ::testing::TempDir();
  auto write = [](const std::string& path, std::string_view bytes) { std::ofstream(path, std::ios::binary) << bytes; };
  write(dir + "job.nsys-rep", std::string("\x01\x02QDSTRM\0\0", 10));
  const auto rep = run_linkcast("simulate configs/hgx-h200.yaml " + dir + "job.nsys-rep");
  EXPECT_EQ(rep.exit_code, 2);
  EXPECT_EQ(rep.err, "linkcast: error: " + dir + "job.nsys-rep: an Nsight Systems report, which only Nsight reads; "
                     "export it to SQLite and give that: `nsys export --type sqlite -o job.sqlite " + dir +
                     "job.nsys-rep`\n");
  // A Visual Profiler session (.nvvp written as XML: settings, no profile; a public one of 2013)
  // and an NCCL topology dump given as traces: named, with what to do (they had been read as CSV:
  // "unknown column '<?xml version=\"1.0\"?>' in the header").
  write(dir + "profile.nvvp", "<?xml version=\"1.0\"?>\n<session version=\"1\" name=\"ode profile\">\n</session>\n");
  const auto nvvp = run_linkcast("matrix " + dir + "profile.nvvp");
  EXPECT_EQ(nvvp.exit_code, 2);
  EXPECT_THAT(nvvp.err, HasSubstr("profile.nvvp: an NVIDIA Visual Profiler session file (XML: its settings and "
                                  "executable, no profile data), not a trace; linkcast reads nvprof's profile files: "
                                  "record with `nvprof -o profile.nvvp ./app`"));
  const auto dump = run_linkcast("matrix tests/data/wild/nccl_topo/aws_p5_h100_32efa.xml");
  EXPECT_EQ(dump.exit_code, 2);
  EXPECT_THAT(dump.err, HasSubstr("aws_p5_h100_32efa.xml: an NCCL topology dump (XML), not a trace; it describes a "
                                  "node: `linkcast topo import --nccl-xml"));
  // A report given back as a trace (round 25: "XML, not a trace; an NCCL topology dump goes to ...").
  write(dir + "report.html", "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
  const auto html = run_linkcast("matrix " + dir + "report.html");
  EXPECT_EQ(html.exit_code, 2);
  EXPECT_THAT(html.err, HasSubstr("report.html: an HTML page (a `linkcast report`?), not a trace"));
  write(dir + "binary.csv", std::string("kind\0\x07\x01", 7));
  const auto bin = run_linkcast("simulate configs/hgx-h200.yaml " + dir + "binary.csv");
  EXPECT_THAT(bin.err, HasSubstr("binary.csv: binary data, not a trace; linkcast reads its CSV, PyTorch profiler"));
  write(dir + "node.yaml.gz", std::string("\x1f\x8b\x08\0", 4));
  const auto gz = run_linkcast("topo " + dir + "node.yaml.gz");
  EXPECT_EQ(gz.exit_code, 2);
  EXPECT_EQ(gz.err, "linkcast: error: " + dir + "node.yaml.gz: gzip-compressed; node files are read plain: `zcat " +
                        dir + "node.yaml.gz > node.yaml` and give that\n");
  // By its bytes, whatever its name.
  write(dir + "gzipped-node.yaml", std::string("\x1f\x8b\x08\0", 4));
  EXPECT_THAT(run_linkcast("topo " + dir + "gzipped-node.yaml").err, HasSubstr("gzipped-node.yaml: gzip-compressed"));
  // A Git LFS pointer, what a clone without LFS leaves for a large trace or dump (a public
  // repository's 870 MB trace_view.json was one): read as a CSV it had been "unknown column
  // 'version https://git-lfs.github.com/spec/v1' in the header".
  const std::string pointer =
      "version https://git-lfs.github.com/spec/v1\n"
      "oid sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\nsize 870123456\n";
  write(dir + "trace_view.json", pointer);
  const auto lfs = run_linkcast("matrix " + dir + "trace_view.json");
  EXPECT_EQ(lfs.exit_code, 2);
  EXPECT_EQ(lfs.err, "linkcast: error: " + dir + "trace_view.json: a Git LFS pointer to a file of 870123456 bytes, not "
                     "the trace file itself: the repository keeps the file in Git LFS and it was not fetched; run `git "
                     "lfs pull` in the repository (or download the file)\n");
  write(dir + "topo.xml", pointer);
  EXPECT_THAT(run_linkcast("topo import --nccl-xml " + dir + "topo.xml -o " + dir + "lfs-node.yaml").err,
              HasSubstr("topo.xml: a Git LFS pointer to a file of 870123456 bytes, not the NCCL topology dump itself"));
  EXPECT_FALSE(std::filesystem::exists(dir + "lfs-node.yaml"));
}

TEST(CliWrongWay, OneRanksFileOfAJobSaysToPassEveryRank) {
  const auto r = run_linkcast("matrix --node configs/testbed-h200-2gpu.yaml tests/data/real/h200-2gpu/torch_ddp_rank0.json.gz");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("FAIL  collectives: every member recorded every call"));
  EXPECT_THAT(r.out, HasSubstr("a member with no record at all is a rank whose trace was not given: pass every rank's "
                               "trace, or the job's folder"));
}

TEST(CliWrongWay, TopoImportDropsTheLanesNoteOnceTheGpuCsvFilledThem) {
  // The 4-GPU H200 VM's NCCL dump hides the GPUs' link widths (link_width 0): the note asks for
  // --gpus-csv, and with it the lanes are filled and the note is gone.
  const std::string d = "tests/data/real/h200-4gpu/";
  const std::string out = ::testing::TempDir() + "import_lanes.yaml";
  const auto bare = run_linkcast("topo import --nccl-xml " + d + "nccl_topo.xml.gz --smi " + d +
                                 "machine/topo-m.txt -o " + out);
  EXPECT_THAT(bare.err, HasSubstr("their lanes stay TODO; --gpus-csv FILE (nvidia-smi --query-gpu) fills them"));
  const auto filled = run_linkcast("topo import --nccl-xml " + d + "nccl_topo.xml.gz --smi " + d +
                                   "machine/topo-m.txt --gpus-csv " + d + "machine/gpus.csv -o " + out);
  EXPECT_THAT(filled.err, ::testing::Not(HasSubstr("lanes stay TODO")));
  EXPECT_THAT(test::read_file(out), ::testing::Not(HasSubstr("lanes: TODO")));
}

TEST(CliProject, AnApplicationTracesWarningIsSaidOnce) {
  // Rank 0's DDP trace: its allreduces ran far below the node (waiting for ranks the file lacks).
  // The projector says so once; the application's replay, given that projector, does not repeat it.
  const auto r = run_linkcast("project --from configs/testbed-h200-4gpu.yaml --to configs/hgx-h200.yaml "
                              "tests/data/real/h200-4gpu/torch_ddp_rank0.json.gz");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string said = "a collective kernel lasts until every rank has finished";
  const auto first = r.err.find(said);
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(said, first + 1), std::string::npos) << r.err;
}

TEST(CliWrongWay, MistypedCommandSuggestsTheNearest) {
  const auto r = run_linkcast("tpoo configs/summit.yaml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("linkcast: error: unknown command 'tpoo' (did you mean 'topo'?); valid commands: topo,"));
}

TEST(CliWrongWay, CalibrateOfANodeFileSaysItIsNotATrace) {
  const std::string out = ::testing::TempDir() + "wrong_way_cal.yaml";
  std::filesystem::remove(out);
  const auto r = run_linkcast("calibrate configs/summit.yaml -o " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "linkcast: error: configs/summit.yaml: a node or study file (YAML), not a trace; give a node as the "
                   "node: the first argument of `simulate` and `topo`, `--node FILE` of `matrix` and `report`, "
                   "`--from`/`--to` of `project`\n");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliWrongWay, WorkloadHelpListsTheWorkloadsEverywhere) {
  // As `matrix --workload help`: the list on standard output, whatever else is missing.
  const auto matrix = run_linkcast("matrix --workload help");
  ASSERT_EQ(matrix.exit_code, 0) << matrix.err;
  EXPECT_THAT(matrix.out, HasSubstr("stencil2d"));
  for (const char* args : {"report --workload help", "simulate configs/summit.yaml --workload help", "simulate --workload help"}) {
    const auto r = run_linkcast(args);
    EXPECT_EQ(r.exit_code, 0) << args << r.err;
    EXPECT_EQ(r.out, matrix.out) << args;
    EXPECT_EQ(r.err, "") << args;
  }
}

}  // namespace
}  // namespace linkcast
