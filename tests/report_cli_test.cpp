// `linkcast report` end to end: a page is written, bad input exits 2 with a message naming the
// file or option, and no file (nor a temporary) is left behind; an existing file is kept.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "synthetic/catalog.hpp"
#include "test_util.hpp"

namespace linkcast {
namespace {

using test::run_linkcast;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + name;
}

/// Files in the folder of `path` whose name starts with its file name (the output and any
/// AtomicOutput temporary beside it).
std::size_t files_like(const std::string& path) {
  const std::filesystem::path p(path);
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(p.parent_path()))
    if (e.path().filename().string().rfind(p.filename().string(), 0) == 0) ++n;
  return n;
}

TEST(ReportCli, WritesOnePageForAWorkloadProjectedOntoAnotherNode) {
  const std::string out = temp_path("report_cli_stencil.html");
  std::filesystem::remove(out);
  const auto r =
      run_linkcast("report --workload stencil2d:iters=10,periodic=1 --node " + test::config("dgx1-v100.yaml") +
                   " --to " + test::config("hgx-h100.yaml") + " --model default -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  // The page is the only output: the command says where it went and how large it is.
  EXPECT_THAT(r.err, ::testing::MatchesRegex(".*linkcast: wrote " + out + " \\([0-9.]+ KiB\\); open it in a browser\n"));
  const std::string html = test::read_file(out);
  EXPECT_THAT(html, StartsWith("<!DOCTYPE html>\n<html lang=\"en\">"));
  EXPECT_THAT(html, HasSubstr("<title>linkcast report: stencil2d:iters=10,periodic=1 on dgx1-v100</title>"));
  EXPECT_THAT(html, HasSubstr("<section id=\"view-projection\""));
  // --model narrows the projection to one model.
  EXPECT_THAT(html, HasSubstr("id=\"projection-default\""));
  EXPECT_THAT(html, Not(HasSubstr("id=\"projection-ahead\"")));
  EXPECT_THAT(html, HasSubstr("<output id=\"sum-system-bytes\" data-expect=\"655360\">"));
  EXPECT_THAT(html, HasSubstr("</script></body></html>\n"));
  EXPECT_EQ(files_like(out), 1u);
  std::filesystem::remove(out);
}

TEST(ReportCli, RecordedKinetoTraceWithMeasuredDurations) {
  // PyTorch DDP, rank 0 of 2 on the H200 machine: 400 records, 120 memsets; NCCL allreduces on
  // 'pg:0' of which only rank 0 is in the file, which the communicator view and checks show.
  const std::string out = temp_path("report_cli_ddp.html");
  const auto r =
      run_linkcast("report " + test::source_dir() + "/tests/data/real/h200-2gpu/torch_ddp_rank0.json.gz --node " +
                   test::config("testbed-h200-2gpu.yaml") + " --to " + test::config("hgx-h200.yaml") + " -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = test::read_file(out);
  EXPECT_THAT(html, HasSubstr("400 operations (kineto)"));
  // The 1716235840 B the trace recorded (as `linkcast matrix` says) and gpu1's part of the 40
  // allreduces it lacks (716549920 B), which the simulation runs.
  EXPECT_THAT(html, HasSubstr("<output id=\"sum-system-bytes\" data-expect=\"2432785760\">"));
  EXPECT_THAT(html, HasSubstr("no: a member missed calls"));
  EXPECT_THAT(html, HasSubstr("<b>FAIL</b> collectives: every member recorded every call"));
  EXPECT_THAT(html, HasSubstr("measured on testbed-h200-2gpu"));  // the trace has durations
  // The projection's ratio says which way it goes: the target's speed-up over the source's model.
  EXPECT_THAT(html, HasSubstr("<th class=\"n\">speed-up</th>"));
  EXPECT_THAT(html, HasSubstr("speed-up: modelled on source \u00f7 projected on target, above 1 where the target is "
                              "faster"));
  EXPECT_THAT(html, Not(HasSubstr("source / target")));
  // The browser test's instrumentation is hidden: the script status and every check line.
  EXPECT_THAT(html, HasSubstr("<p class=\"status\" id=\"script-status\" hidden>"));
  EXPECT_EQ(html.find("<p class=\"check\">"), std::string::npos);
  EXPECT_NE(html.find("<p class=\"check\" hidden>"), std::string::npos);
  std::filesystem::remove(out);
}

TEST(ReportCli, MapPlacesATraceOnTheNodeWithoutATarget) {
  // A trace recorded on gpu2 of a larger machine (ROCm traces often run on device 2), reported on
  // a 1-GPU node: the error names --map, and --map gpu2=gpu0 places it there as `simulate --map`
  // does (it had asked for --to, and --to placed it on the target alone).
  const std::string trace = test::write_temp("report_gpu2.csv", "kind,src,dst,bytes,duration_ns\ncopy,cpu0,gpu2,1048576,60000\n");
  const std::string out = temp_path("report_gpu2.html");
  const std::string base = "report " + trace + " --node " + test::config("testbed-h200-1gpu.yaml") + " -o " + out;
  const auto refused = run_linkcast(base);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr("place the trace's GPUs on the node's with --map gpu2=<a node GPU>"));
  const auto placed = run_linkcast(base + " --map gpu2=gpu0");
  ASSERT_EQ(placed.exit_code, 0) << placed.err;
  EXPECT_THAT(test::read_file(out), HasSubstr("gpu0"));
  // The copy ran on the node's host link: its megabyte crossed cpu0-gpu0.
  EXPECT_THAT(test::read_file(out), HasSubstr("cpu0-gpu0, PCIe Gen5 x16): 1 MiB of data (1048576 B;"));
  std::filesystem::remove(out);
  // A second GPU of the trace that the map leaves on none of the node's: refused naming it, no page
  // (it had indexed the node with -1: "out of memory", exit 1).
  const std::string two = test::write_temp(
      "report_gpu23.csv", "kind,src,dst,bytes,duration_ns\ncopy,cpu0,gpu2,1048576,60000\ncopy,cpu0,gpu3,1048576,60000\n");
  const auto unplaced = run_linkcast("report " + two + " --node " + test::config("testbed-h200-1gpu.yaml") + " -o " +
                                     out + " --map gpu2=gpu0");
  EXPECT_EQ(unplaced.exit_code, 2);
  EXPECT_THAT(unplaced.err, HasSubstr("endpoint 'gpu3' is placed on no GPU of node 'testbed-h200-1gpu'"));
  EXPECT_THAT(unplaced.err, HasSubstr("with --map gpu3=<a node GPU>"));
  EXPECT_FALSE(std::filesystem::exists(out));
  // An entry naming a GPU the node has moves it only on --to's node: without --to it placed
  // nothing, unsaid (a robustness hunt, round 32); now said.
  const auto kept = run_linkcast("report " + two + " --node " + test::config("testbed-h200-2gpu.yaml") + " -o " + out +
                                 " --map gpu2=gpu0,gpu3=gpu1,gpu0=gpu1");
  EXPECT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_THAT(kept.err, HasSubstr("--map gpu0=gpu1: places nothing: node 'testbed-h200-2gpu' has gpu0"));
  std::filesystem::remove(out);
  std::filesystem::remove(trace);
  std::filesystem::remove(two);
}

TEST(ReportCli, BadInputExitsTwoAndLeavesNoFile) {
  const std::string out = temp_path("report_cli_bad.html");
  std::filesystem::remove(out);
  const std::string dgx1 = test::config("dgx1-v100.yaml");
  struct Case {
    std::string args, err;
  };
  const std::vector<Case> cases = {
      {"report --node " + dgx1 + " -o " + out,
       "linkcast: error: report: give a trace file or --workload SPEC (exactly one of them), e.g. `linkcast report "
       "--workload stencil2d --node configs/dgx1-v100.yaml -o report.html`\n"},
      {"report t.csv --workload stencil2d --node " + dgx1 + " -o " + out,
       "linkcast: error: report: give a trace file or --workload SPEC (exactly one of them), e.g. `linkcast report "
       "--workload stencil2d --node configs/dgx1-v100.yaml -o report.html`\n"},
      {"report --workload stencil2d -o " + out,
       "linkcast: error: --node is required\nRun 'linkcast --help' or 'linkcast <command> --help'.\n"},
      {"report --workload stencil2d --node " + dgx1,
       "linkcast: error: --output is required\nRun 'linkcast --help' or 'linkcast <command> --help'.\n"},
      {"report --workload stencil2d --node " + dgx1 + " --model defualt -o " + out,
       "linkcast: error: --model: unknown model 'defualt' (did you mean 'default'?); valid models: default, ahead, "
       "peak, "
       "envelope\n"},
      {"report --workload stencil2d --node no-such-node.yaml -o " + out,
       "linkcast: error: no-such-node.yaml: no such file; shipped nodes are in configs/ (e.g. configs/summit.yaml)\n"},
      {"report no-such-trace.csv --node " + dgx1 + " -o " + out,
       "linkcast: error: no-such-trace.csv: no such trace file\n"},
      {"report --workload stencil2d:iter=3 --node " + dgx1 + " -o " + out,
       "linkcast: error: workload 'stencil2d': unknown key 'iter' (did you mean 'iters'?); its keys are nx, ny, iters, "
       "elem, periodic, mode, gpus, sample, sample-seed\n"},
      {"report --workload stencil2d --node " + dgx1 + " --map gpu0=gpu1 -o " + out,
       "linkcast: error: --map: a workload runs on the GPUs its gpus= key names; --map places a trace's endpoints on "
       "--node, or the endpoints of either on --to\n"},
      // The projection fails after the matrices and the simulation: still no file.
      {"report --workload stencil2d --node " + dgx1 + " --to " + test::config("titan.yaml") + " -o " + out,
       "linkcast: error: stencil2d: record 1: endpoint 'gpu1' is not in the target node 'titan' (" +
           test::config("titan.yaml") +
           "); map it onto one that is with --map gpu1=<endpoint> (target has cpu0, gpu0, gemini0)\n"},
  };
  for (const Case& c : cases) {
    const auto r = run_linkcast(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_EQ(r.err, c.err) << c.args;
    EXPECT_EQ(files_like(out), 0u) << c.args;
  }
  const auto r = run_linkcast("report --workload stencil2d --node " + dgx1 + " -o /nonexistent-folder/r.html");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(
      r.err,
      "linkcast: error: cannot write '/nonexistent-folder/r.html': the folder does not exist or is not writable\n");
}

TEST(ReportCli, FailedRunKeepsTheExistingPage) {
  const std::string out = temp_path("report_cli_keep.html");
  test::write_temp("report_cli_keep.html", "old page");
  const auto r = run_linkcast("report --workload stencil2d --node " + test::config("dgx1-v100.yaml") + " --to " +
                              test::config("titan.yaml") + " -o " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(test::read_file(out), "old page");
  EXPECT_EQ(files_like(out), 1u);
  std::filesystem::remove(out);
}

TEST(ReportCli, WorkloadHelp) {
  const auto r = run_linkcast("report --workload help --node x.yaml -o x.html");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, synthetic::workload_help());  // the catalogue's own text, whole
  EXPECT_THAT(r.out, HasSubstr("stencil2d"));
}

}  // namespace
}  // namespace linkcast
