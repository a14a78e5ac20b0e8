// Long work shows its progress where someone watches, and says so before writing a huge file
// (issue 18). Tests cannot hold a terminal, so they ask for the lines with LINKCAST_PROGRESS=1
// (plain lines, every update), and check that without it (standard error is a file here, as in
// a pipe or a log) nothing is shown.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>

#include "study/study.hpp"
#include "study/sweep.hpp"
#include "test_util.hpp"

namespace linkcast {
namespace {

namespace fs = std::filesystem;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

/// A linkcast CSV trace of `n` operations of 8 GPUs (peer loads, host copies, memsets), about
/// 70 bytes a line.
std::string mixed_trace(const std::string& name, std::size_t n) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream out(path);
  out << "kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream,group,object,line,comm,issuer\n";
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t g = i % 8, h = (i * 7 + 3) % 8 == g ? (g + 1) % 8 : (i * 7 + 3) % 8;
    if (i % 10 < 8)
      out << "access,gpu" << h << ",gpu" << g << "," << 128 * (1 + i % 8) << ",,,,," << g << ",,buf" << i % 1000
          << " (app.cu:1),app.cu:" << 100 + i % 500 << ",,gpu" << g << "\n";
    else if (i % 10 == 8)
      out << "copy,cpu" << g / 4 << ",gpu" << g << "," << (1u << (i % 20)) << ",pinned,device,," << 2000 + i % 977
          << "," << 16 + g << ",,input (load.py:12),load.py:14,,\n";
    else
      out << "memset,gpu" << g << ",gpu" << g << ",4096,,,,," << g << ",,scratch (app.cu:50),app.cu:51,,\n";
  }
  return path;
}

/// Runs linkcast with LINKCAST_PROGRESS set to `progress` ("" to leave it unset).
test::CommandResult run_with_progress(const std::string& args, const std::string& progress) {
  if (progress.empty()) ::unsetenv("LINKCAST_PROGRESS");
  else ::setenv("LINKCAST_PROGRESS", progress.c_str(), 1);
  auto r = test::run_linkcast(args);
  ::unsetenv("LINKCAST_PROGRESS");
  return r;
}

TEST(ProgressCli, ReportShowsEachPhaseWithDoneTotalRateAndTimeLeft) {
  // 300,000 operations, 18 MiB of CSV: every phase of `report` counts what it does.
  const std::string trace = mixed_trace("progress_mixed.csv", 300'000);
  ASSERT_GT(fs::file_size(trace), 17u << 20);  // read in blocks of 8 MiB: shown after the first two
  const std::string page = ::testing::TempDir() + "progress.html";
  const std::string args = trace + " --node " + test::config("dgx1-v100.yaml") + " -o " + page;
  const auto r = run_with_progress("report " + args, "1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, ContainsRegex("linkcast: reading [^:]*progress_mixed.csv: [0-9.]+ MiB of [0-9.]+ MiB \\([0-9]+%\\), "
                                   "[0-9.]+ [KMG]?i?B/s, about [0-9]+ s left\n"));
  EXPECT_THAT(r.err, ContainsRegex("linkcast: matrices: 262,144 of about 300,000 operations \\(87%\\), [0-9.]+[kM]? "
                                   "operations/s, about [0-9]+ s left\n"));
  EXPECT_THAT(r.err, ContainsRegex("linkcast: simulation: [0-9,]+ of about 300,000 tasks \\([0-9]+%\\), "));
  EXPECT_THAT(r.err, ContainsRegex("linkcast: page: 1 of about 8 parts \\(12%\\), "));
  EXPECT_THAT(r.err, HasSubstr("linkcast: page: 7 of about 8 parts (88%), "));

  // Not a terminal and not asked for: quiet, the same page.
  const std::string first = test::read_file(page);
  const auto quiet = run_with_progress("report " + args, "");
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_THAT(quiet.err, Not(HasSubstr("linkcast: reading")));
  EXPECT_THAT(quiet.err, Not(HasSubstr("linkcast: matrices")));
  EXPECT_THAT(quiet.err, Not(HasSubstr("linkcast: simulation")));
  EXPECT_THAT(quiet.err, Not(HasSubstr("linkcast: page")));
  // LINKCAST_PROGRESS=0 silences it too.
  const auto silenced = run_with_progress("matrix " + trace + " --format csv -o /dev/null", "0");
  EXPECT_THAT(silenced.err, Not(HasSubstr("linkcast: matrices")));
}

TEST(ProgressCli, SimulateReplayShowsProgressAndMatrixToo) {
  const std::string trace = mixed_trace("progress_replay.csv", 300'000);
  const auto sim = run_with_progress("simulate " + test::config("dgx1-v100.yaml") + " " + trace + " -o /dev/null", "1");
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  // Tasks ended of all the tasks (the events run about three to a copy: a count of them read 55%
  // with two thirds of a 100 M-op run to go).
  EXPECT_THAT(sim.err, ContainsRegex("linkcast: simulation: [0-9,]+ of about [0-9,]+ tasks \\([0-9]+%\\), "
                                     "[0-9.]+[kM]? tasks/s, about [0-9]+ s left\n"));
  const auto matrix = run_with_progress("matrix " + trace + " --format json -o /dev/null", "1");
  ASSERT_EQ(matrix.exit_code, 0) << matrix.err;
  EXPECT_THAT(matrix.err, HasSubstr("linkcast: matrices: 262,144 of about 300,000 operations (87%), "));
}

TEST(ProgressCli, AHugeTimelineIsAnnouncedWithItsSizeAndABound) {
  // 896,000 operations: about 135 MiB of Chrome trace events. The warning comes before the file is
  // written, within 5% of its size, and names the bound that keeps it near 100 MiB.
  const std::string timeline = ::testing::TempDir() + "huge_timeline.json";
  const std::string node = test::config("hgx-h100.yaml");
  const auto r = test::run_linkcast("simulate " + node + " --workload stencil2d:iters=2000 --timeline " + timeline +
                                    " -o /dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::smatch m;
  const std::regex warning(
      "linkcast: warning: --timeline [^ ]+ will be about ([0-9]+) MiB \\(896,000 operations\\); --timeline-ops "
      "([0-9]+) keeps the first [0-9,]+ operations by start time, about 100 MiB\n");
  ASSERT_TRUE(std::regex_search(r.err, m, warning)) << r.err;
  const double estimate_mib = std::stod(m[1].str()), written_mib = static_cast<double>(fs::file_size(timeline)) / (1 << 20);
  EXPECT_GT(written_mib, 100);
  EXPECT_NEAR(estimate_mib, written_mib, 0.05 * written_mib);
  const std::string bound = m[2].str();
  fs::remove(timeline);

  // The bound it offers: no warning, a file of at most about 100 MiB holding that many operations.
  const auto bounded = test::run_linkcast("simulate " + node + " --workload stencil2d:iters=2000 --timeline " +
                                          timeline + " --timeline-ops " + bound + " -o /dev/null");
  ASSERT_EQ(bounded.exit_code, 0) << bounded.err;
  EXPECT_THAT(bounded.err, Not(HasSubstr("--timeline")));
  const double bounded_mib = static_cast<double>(fs::file_size(timeline)) / (1 << 20);
  EXPECT_LE(bounded_mib, 101);
  EXPECT_GT(bounded_mib, 90);
  fs::remove(timeline);

  // A small bound keeps exactly that many operations (Chrome "X" events; this workload has no
  // collectives), the earliest ones.
  const auto small = test::run_linkcast("simulate " + node + " --workload stencil2d:iters=20 --timeline " + timeline +
                                        " --timeline-ops 1000 -o /dev/null");
  ASSERT_EQ(small.exit_code, 0) << small.err;
  const std::string text = test::read_file(timeline);
  std::size_t events = 0;
  for (std::size_t p = text.find("\"ph\": \"X\""); p != std::string::npos; p = text.find("\"ph\": \"X\"", p + 1)) ++events;
  EXPECT_EQ(events, 1000u);
  EXPECT_THAT(text, HasSubstr("\"record\": 1,"));
  EXPECT_THAT(text, HasSubstr("\"traceEvents\""));
  EXPECT_EQ(text.substr(text.size() - 4), "\n]}\n");
}

TEST(ProgressSweep, TheBarMovesBeforeThePointIsDone) {
  // One point, one workload of 1,024,000 operations: the progress reported climbs through the
  // simulation's events long before the point is done.
  const std::string study = test::write_temp("progress_study.yaml", "study_version: 1\nname: p\nbase: " +
                                                                        test::config("hgx-h100.yaml") +
                                                                        "\nworkloads:\n  - {name: big, spec: "
                                                                        "\"stencil2d:iters=2000\"}\n");
  const study::Study s = study::load_study(study);
  const study::Sweep sweep(s);
  std::vector<double> seen;
  std::mutex mutex;
  (void)sweep.run({0}, 1, [&](double done) {
    std::lock_guard<std::mutex> lock(mutex);
    seen.push_back(done);
  });
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back(), 1.0);
  const auto within = std::count_if(seen.begin(), seen.end(), [](double d) { return d > 0.05 && d < 0.95; });
  EXPECT_GE(within, 2) << "the bar must move while the only point is evaluated";
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
}

TEST(ProgressSweep, PlainLinesOnlyWhenAskedFor) {
  const std::string study = test::config("studies/h100-vs-h200-d2d.yaml");
  const std::string results = ::testing::TempDir() + "progress_sweep.csv";
  const auto quiet = run_with_progress("sweep " + study + " -o " + results, "");
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_THAT(quiet.err, Not(HasSubstr("points")));
  const auto asked = run_with_progress("sweep " + study + " -o " + results, "1");
  ASSERT_EQ(asked.exit_code, 0) << asked.err;
  EXPECT_THAT(asked.err, ContainsRegex("sweep: [0-9]+/[0-9]+ points \\(100%\\)\n"));
}

}  // namespace
}  // namespace linkcast
