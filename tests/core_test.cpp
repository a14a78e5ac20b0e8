// core: sizes, durations, suggestions, all-or-nothing output files, text tables.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/error.hpp"
#include "core/output.hpp"
#include "core/strings.hpp"
#include "core/table.hpp"
#include "core/units.hpp"
#include "test_util.hpp"

namespace linkcast {
namespace {

TEST(Units, ParsesPlainAndSuffixedSizes) {
  // SI units are powers of 1000, IEC units powers of 1024 (the CLI's --help says so).
  EXPECT_EQ(parse_size_bytes("4096"), 4096u);
  EXPECT_EQ(parse_size_bytes("4KB"), 4000u);
  EXPECT_EQ(parse_size_bytes("4KiB"), 4096u);
  EXPECT_EQ(parse_size_bytes("1.5 GB"), 1500000000u);
  EXPECT_EQ(parse_size_bytes("256MiB"), 256u * 1024 * 1024);
  EXPECT_EQ(parse_size_bytes("1gib"), 1024u * 1024 * 1024);
  EXPECT_EQ(parse_size_bytes("17B"), 17u);
}

TEST(Units, RejectsBadSizesWithTheReason) {
  try {
    (void)parse_size_bytes("12 parsecs", "--bytes");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--bytes: unknown unit 'parsecs' in '12 parsecs'; use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB");
  }
  try {
    (void)parse_size_bytes("-4KB", "--bytes");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'-4KB' is not a size"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)parse_size_bytes("0.5B"), InputError);  // half a byte is not a size
}

TEST(Units, FormatsBinaryUnitsWholeOrToTwoDecimals) {
  // 40 * 1024 B is whole KiB; 13.5 MiB is not a whole MiB; 1000 B stays below 1 KiB.
  EXPECT_EQ(format_bytes_binary(40 * 1024.0), "40 KiB");
  EXPECT_EQ(format_bytes_binary(13.5 * 1024 * 1024), "13.50 MiB");
  EXPECT_EQ(format_bytes_binary(1000), "1000 B");
  EXPECT_EQ(format_bytes_binary(0), "0 B");
}

TEST(Units, FormatsBinaryMultiplesExactly) {
  EXPECT_EQ(format_bytes(std::uint64_t{256} * 1024 * 1024), "256 MiB");
  EXPECT_EQ(format_bytes(std::uint64_t{17}), "17 B");
  EXPECT_EQ(format_bytes(std::uint64_t{1500000}), "1.50 MB");
  EXPECT_EQ(format_duration_ns(1792), "1.79 us");
  EXPECT_EQ(format_duration_ns(5712054), "5.71 ms");
}

TEST(Strings, SuggestsTheNearestKeyForTypos) {
  const std::vector<std::string> keys = {"lanes", "gen", "mps", "mrrs", "rcb"};
  EXPECT_EQ(nearest("lanse", keys), "lanes");  // transposition: distance 2
  EXPECT_EQ(nearest("bandwidth", keys), "");   // nothing close
  EXPECT_EQ(did_you_mean("mrs", keys), " (did you mean 'mps'?)");
  EXPECT_EQ(join_or({"a", "b", "c"}), "a, b or c");
}

TEST(Strings, CsvFieldsAreQuotedOnlyWhenTheyMustBe) {
  // RFC 4180: a field with a comma, quote or line break is quoted and its quotes doubled.
  EXPECT_EQ(csv_field("gpu0"), "gpu0");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
}

TEST(AtomicOutput, LeavesNoFileWhenNotCommitted) {
  const std::string path = ::testing::TempDir() + "atomic_output_test.txt";
  std::filesystem::remove(path);
  {
    AtomicOutput out(path);
    out.stream() << "half-written";
    // destroyed without commit(), as when an error is thrown mid-way
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  {
    AtomicOutput out(path);
    out.stream() << "complete";
    out.commit();
  }
  EXPECT_EQ(test::read_file(path), "complete");
  // No temporary files are left beside it.
  for (const auto& e : std::filesystem::directory_iterator(::testing::TempDir()))
    EXPECT_EQ(e.path().string().find("atomic_output_test.txt.tmp"), std::string::npos) << e.path();
}

TEST(TextTable, AlignsLabelsLeftAndNumbersRight) {
  TextTable t({"name", "GB/s"});
  t.add_row({"pcie", "15.8"});
  t.add_row({"nvlink", "50.0"});
  EXPECT_EQ(t.render(),
            "name    GB/s\n"
            "------------\n"
            "pcie    15.8\n"
            "nvlink  50.0\n");
}

}  // namespace
}  // namespace linkcast
