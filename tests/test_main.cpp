// The test program's entry point. Each test runs in its own process under CTest (two or more at
// once), so a fixed scratch path such as TempDir() + "study/" would be shared by tests running side
// by side: one test's file overwrote another's (CI, 2026-11-28). Every process therefore gets a
// fresh scratch folder of its own, handed to GoogleTest through TEST_TMPDIR (which
// ::testing::TempDir() returns), and removes it when the tests end.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

int main(int argc, char** argv) {
  const std::filesystem::path base = std::filesystem::temp_directory_path();
  std::string scratch = (base / "linkcast-tests-XXXXXX").string();
  if (::mkdtemp(scratch.data()) == nullptr) {
    std::perror(("cannot make a scratch folder under " + base.string()).c_str());
    return 1;
  }
  ::setenv("TEST_TMPDIR", scratch.c_str(), 1);
  ::testing::InitGoogleTest(&argc, argv);
  const int failed = RUN_ALL_TESTS();
  std::error_code ignored;
  std::filesystem::remove_all(scratch, ignored);
  return failed;
}
