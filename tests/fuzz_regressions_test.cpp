// Every input that ever made a fuzz target crash (tests/data/fuzz/regressions/<target>/), replayed
// through the same target functions in every build, so the default build checks them without
// clang or libFuzzer.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "fuzz/targets.hpp"
#include "test_util.hpp"
#include "trace/csv.hpp"

namespace linkcast {
namespace {

namespace fs = std::filesystem;

fs::path regressions() { return fs::path(test::source_dir()) / "tests/data/fuzz/regressions"; }

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Runs every kept input of every target; returns how many.
std::size_t replay() {
  std::size_t replayed = 0;
  for (const fuzz::Target& t : fuzz::targets()) {
    const fs::path dir = regressions() / t.name;
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir)) {
      SCOPED_TRACE(std::string(t.name) + "/" + e.path().filename().string());
      EXPECT_NO_THROW(fuzz::run(t.name, bytes_of(e.path())));
      ++replayed;
    }
  }
  return replayed;
}

TEST(FuzzRegressions, EveryInputThatEverCrashedIsNowRefusedOrRead) { EXPECT_GT(replay(), 0u); }

/// The fuzz targets' scratch folder was named by the process id ($TMPDIR/linkcast-fuzz-<pid>) and
/// its exit handler read the path after it was destroyed, so folders stayed behind; a later process
/// given the same id found one, study_dir's links failed in libFuzzer's first, empty input, and CI
/// reported crash-da39a3ee... (the empty input's SHA-1), which replayed cleanly. With a folder of
/// the old name already there, as that process found it, the study target refuses the empty study
/// (an InputError, which fuzz::run swallows) instead of aborting. ctest runs each test in a
/// process of its own, so the scratch folder is made here, after the stale one.
TEST(FuzzRegressions, AFolderLeftUnderThisProcessIdDoesNotStopTheTargets) {
  const char* tmp = std::getenv("TMPDIR");
  const fs::path stale = fs::path(tmp && *tmp ? tmp : "/tmp") / ("linkcast-fuzz-" + std::to_string(::getpid()));
  fs::create_directories(stale / "tree/configs/studies");
  std::error_code ec;
  fs::create_symlink("/nonexistent", stale / "tree/tests", ec);
  EXPECT_NO_THROW(fuzz::run("study_yaml", ""));
  EXPECT_NO_THROW(fuzz::run("study_yaml", "study_version: 1\nname: x\nbase: ../hgx-h100.yaml\n"));
  fs::remove_all(stale, ec);
}

TEST(FuzzRegressions, EveryTargetHasSeeds) {
  for (const fuzz::Target& t : fuzz::targets()) {
    std::size_t files = 0;
    for (std::string_view seed : t.seeds) {
      const fs::path p = fs::path(test::source_dir()) / seed;
      if (fs::is_directory(p))
        for (const auto& e : fs::recursive_directory_iterator(p)) files += e.is_regular_file() ? 1 : 0;
    }
    EXPECT_GT(files, 0u) << t.name;
  }
}

/// trace/csv.cpp split_fields() unescapes a quoted field into scratch_[k] and keeps a view of it.
/// scratch_ was a vector: the line's next quoted field grew it, which moved the strings (short ones
/// live inside the vector's buffer), so the first field's view pointed into freed memory
/// (heap-use-after-free under ASan; without ASan, wrong names). Input: one copy row with every
/// field quoted; expected: each name exactly as written, the row read once.
TEST(FuzzRegressions, CsvQuotedFieldsKeepTheirValues) {
  const std::string text =
      test::read_file(regressions().string() + "/csv/heap-use-after-free-split-fields-quoted.csv");
  const trace::Trace t = trace::parse_csv_trace(text, "quoted.csv");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t.endpoint_name(t.op(0).src), "cpu0");
  EXPECT_EQ(t.endpoint_name(t.op(0).dst), "gpu0");
  EXPECT_EQ(t.objects[t.op(0).object], "halo");
  EXPECT_EQ(t.lines[t.op(0).line], "stencil.cu:42");
  EXPECT_EQ(t.comms[t.op(0).comm], "world");
}

}  // namespace
}  // namespace linkcast
