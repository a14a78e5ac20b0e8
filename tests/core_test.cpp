// core: sizes, durations, suggestions, all-or-nothing output files, text tables.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <fstream>
#include <unistd.h>
#include <fcntl.h>
#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <thread>

#include "core/error.hpp"
#include "core/huge_pages.hpp"
#include "core/input_file.hpp"
#include "core/output.hpp"
#include "core/parallel.hpp"
#include "core/progress.hpp"
#include "core/read_ahead.hpp"
#include "core/strings.hpp"
#include "core/table.hpp"
#include "core/units.hpp"
#include "core/wmape.hpp"
#include "test_util.hpp"

namespace linkcast {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StrEq;
using ::testing::ThrowsMessage;

TEST(Progress, ALineSaysPhaseDoneTotalRateAndTimeLeft) {
  EXPECT_EQ(ProgressLine::text("simulation", 500, 1000, "events", 2.0),
            "linkcast: simulation: 500 of about 1,000 events (50%), 250 events/s, about 2 s left");
  EXPECT_EQ(ProgressLine::text("matrices", 1'310'720, 2'000'000, "operations", 2.0),
            "linkcast: matrices: 1,310,720 of about 2,000,000 operations (66%), 655k operations/s, about 2 s left");
  // Bytes in binary units; a long wait in minutes.
  EXPECT_EQ(ProgressLine::text("reading t.csv", 64ull << 20, 256ull << 20, nullptr, 2.0),
            "linkcast: reading t.csv: 64 MiB of 256 MiB (25%), 32 MiB/s, about 6 s left");
  EXPECT_EQ(ProgressLine::text("reading t.csv", 1ull << 20, 1ull << 30, nullptr, 1.0),
            "linkcast: reading t.csv: 1 MiB of 1 GiB (0%), 1 MiB/s, about 18 min left");
  // A total passed (an estimate) or unknown: the count alone, no time left.
  EXPECT_EQ(ProgressLine::text("simulation", 2'359'296, 2'027'040, "events", 4.0),
            "linkcast: simulation: 2,359,296 events, 590k events/s");
  EXPECT_EQ(ProgressLine::text("workload 'w'", 4'194'304, 0, "steps", 0.0), "linkcast: workload 'w': 4,194,304 steps");
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(1000), "1,000");
  EXPECT_EQ(format_count(12'345'678), "12,345,678");
}

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
  EXPECT_THAT([] { (void)parse_size_bytes("12 parsecs", "--bytes"); },
              ThrowsMessage<InputError>(
                  StrEq("--bytes: unknown unit 'parsecs' in '12 parsecs'; use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB")));
  EXPECT_THAT([] { (void)parse_size_bytes("-4KB", "--bytes"); },
              ThrowsMessage<InputError>(HasSubstr("'-4KB' is not a size")));
  EXPECT_THROW((void)parse_size_bytes("0.5B"), InputError);  // half a byte is not a size
}

TEST(Units, FormatsBinaryUnitsWholeOrToTwoDecimals) {
  // 40 * 1024 B is whole KiB; 13.5 MiB is not a whole MiB; 1000 B stays below 1 KiB.
  EXPECT_EQ(format_bytes_binary(40 * 1024.0), "40 KiB");
  EXPECT_EQ(format_bytes_binary(13.5 * 1024 * 1024), "13.50 MiB");
  EXPECT_EQ(format_bytes_binary(1000), "1000 B");
  EXPECT_EQ(format_bytes_binary(0), "0 B");
}

TEST(Units, OneConventionForBytesEverywhere) {
  // Issue 18: one table mixed "8.20 MB" and "30764 KiB", and the CLI said 716.55 MB where the
  // report said 683.36 MiB. Every size is in binary units, the largest one reached.
  EXPECT_EQ(format_bytes(std::uint64_t{256} * 1024 * 1024), "256 MiB");
  EXPECT_EQ(format_bytes(std::uint64_t{17}), "17 B");
  EXPECT_EQ(format_bytes(std::uint64_t{1500000}), "1.43 MiB");
  EXPECT_EQ(format_bytes(std::uint64_t{30764} * 1024), "30.04 MiB");
  EXPECT_EQ(format_bytes(std::uint64_t{8'200'000}), "7.82 MiB");
  EXPECT_EQ(format_bytes(std::uint64_t{716'549'920}), "683.36 MiB");
  EXPECT_EQ(format_bytes(716'549'920.0), format_bytes_binary(716'549'920.0));
  EXPECT_EQ(format_bytes_compact(716'549'920.0), "683 MiB");
  EXPECT_EQ(format_bytes(std::uint64_t{5} << 40), "5 TiB");
  EXPECT_EQ(format_duration_ns(1792), "1.79 us");
  EXPECT_EQ(format_duration_ns(5712054), "5.71 ms");
}

TEST(Units, FormatsCompactBinaryUnitsToThreeFigures) {
  // For chart labels: 40960 B = 40 KiB; 716549920 B = 683.35 MiB -> "683 MiB"; 1.33 GiB keeps
  // three figures; below 1 KiB whole bytes.
  EXPECT_EQ(format_bytes_compact(40960), "40 KiB");
  EXPECT_EQ(format_bytes_compact(716549920), "683 MiB");
  EXPECT_EQ(format_bytes_compact(1.33 * 1024 * 1024 * 1024), "1.33 GiB");
  EXPECT_EQ(format_bytes_compact(512), "512 B");
  // Byte counts format as their double value (matrices count in std::uint64_t).
  EXPECT_EQ(format_bytes_binary(std::uint64_t{3} << 30), "3 GiB");
}

TEST(Wmape, WeighsErrorsBySizeOfTheActual) {
  // Actual 100 and 300 ns, predicted 110 and 240: |10| + |60| = 70 over 400 -> 17.5%.
  ErrorSum e;
  e.add(100, 110);
  e.add(300, 240);
  EXPECT_EQ(e.count, 2u);
  EXPECT_DOUBLE_EQ(e.wmape(), 17.5);
  EXPECT_DOUBLE_EQ(e.projected, 350.0);
  // Nothing measured: 0, not a division by zero.
  EXPECT_DOUBLE_EQ(ErrorSum{}.wmape(), 0.0);
  EXPECT_DOUBLE_EQ(wmape_pct(70, 400), 17.5);
}

std::string gzip_temp(const std::string& name, const std::string& body) {
  const std::string path = ::testing::TempDir() + name;
  gzFile f = gzopen(path.c_str(), "wb");
  gzwrite(f, body.data(), static_cast<unsigned>(body.size()));
  gzclose(f);
  return path;
}

TEST(InputFile, ReadsPlainAndGzipFilesAlikeWholeOrInBlocks) {
  // The same 10,000 bytes stored plain and gzip'd read back the same, whole, in 4 KiB blocks, and
  // as a 64-byte peek at the head.
  std::string body;
  for (int i = 0; body.size() < 10000; ++i) body += std::to_string(i) + ",";
  body.resize(10000);
  const std::string plain = test::write_temp("input_plain.txt", body);
  const std::string gz = gzip_temp("input_body.gz", body);
  for (const std::string& path : {plain, gz}) {
    EXPECT_EQ(InputFile(path).read_all(), body) << path;
    EXPECT_EQ(InputFile(path).read_all(64), body.substr(0, 64)) << path;
    InputFile f(path);
    std::string blocks;
    std::vector<char> buf(4096);
    while (const std::size_t got = f.read(buf.data(), buf.size())) blocks.append(buf.data(), got);
    EXPECT_EQ(blocks, body) << path;
  }
  EXPECT_EQ(InputFile(plain).size_on_disk(), 10000u);
  EXPECT_LT(InputFile(gz).size_on_disk(), 10000u);  // compressed
  // What a reader sizes its tables by: the text's size, from the gzip trailer for a gzip'd file
  // (a trace's columns were sized for the compressed size and then grew 4.5x, copying).
  EXPECT_EQ(InputFile(plain).expected_size(), 10000u);
  EXPECT_EQ(InputFile(gz).expected_size(), 10000u);
  // A trailer that records less than the size on disk stands for a text of 4 GiB and more; where
  // that is beyond deflate's 1032:1, as for this small file, the trailer lies and the size on
  // disk counts (a hostile file must not size tables at gigabytes).
  std::string lying = test::read_file(gz);
  lying.replace(lying.size() - 4, 4, std::string("\x05\0\0\0", 4));
  EXPECT_EQ(InputFile(test::write_temp("input_isize.gz", lying)).expected_size(), lying.size());
  EXPECT_EQ(InputFile(test::write_temp("input_tiny.txt", "ab")).expected_size(), 2u);
}

TEST(InputFile, NamesTheFileAndWhatIsWrong) {
  // A missing file, and a gzip stream cut short: the messages call the file what the caller says.
  const std::string missing = ::testing::TempDir() + "no-such-input.gz";
  EXPECT_THAT([&] { InputFile f(missing, {.file = "trace file"}); },
              ::testing::ThrowsMessage<InputError>(::testing::StrEq(missing + ": cannot open the trace file")));
  std::string body;
  for (int i = 0; i < 200000; ++i) body += std::to_string(i * 7919) + "\n";
  const std::string whole = test::read_file(gzip_temp("input_whole.gz", body));
  const std::string cut = test::write_temp("input_cut.gz", whole.substr(0, whole.size() / 2));
  EXPECT_THAT([&] { (void)InputFile(cut).read_all(); },
              ::testing::ThrowsMessage<InputError>(::testing::StrEq(
                  cut + ": cannot read (unexpected end of file); the gzip file is corrupt or truncated")));
  EXPECT_THAT([&] { (void)InputFile(cut, {.corrupt = "a gzip'd trace"}).read_all(); },
              ::testing::ThrowsMessage<InputError>(::testing::HasSubstr("; a gzip'd trace is corrupt or truncated")));
  // A peek at the head of the cut file still reads: the damage is further on.
  EXPECT_EQ(InputFile(cut).read_all(8), body.substr(0, 8));
}

// A stream read ahead on a second thread comes out whole and in order, in blocks of at most the
// block size with the promised room before and after each; an error of the fill comes out of
// next() after the blocks before it; a reader that stops early (a parse error) stops the thread.
TEST(ReadAhead, BlocksComeInOrderAndErrorsAfterTheBlocksBeforeThem) {
  std::string stream;
  for (int i = 0; stream.size() < 100000; ++i) stream += std::to_string(i) + ";";
  std::size_t at = 0;
  const auto fill_from = [&](std::size_t stop_at) {
    return [&, stop_at](char* into, std::size_t room) -> std::size_t {
      if (at >= stop_at && stop_at < stream.size()) throw InputError("broken at " + std::to_string(at));
      const std::size_t n = std::min({room, stream.size() - at, std::size_t{777}});  // short fills, as a pipe gives
      std::memcpy(into, stream.data() + at, n);
      at += n;
      return n;
    };
  };
  for (const std::size_t buffers : {2, 4}) {
    at = 0;
    ReadAhead ahead(4096, 100, 64, fill_from(stream.size()), buffers);
    std::string got;
    for (ReadAhead::Block b = ahead.next(); b.size != 0; b = ahead.next()) {
      EXPECT_LE(b.size, 4096u);
      std::memset(b.data - 100, 'x', 100);  // the room before is the caller's
      got.append(b.data, b.size);
    }
    EXPECT_EQ(got, stream);
    EXPECT_EQ(ahead.next().size, 0u);  // and stays at the end
  }
  {
    at = 0;
    ReadAhead ahead(4096, 0, 0, fill_from(50000));
    std::string got;
    EXPECT_THAT(
        [&] {
          for (ReadAhead::Block b = ahead.next(); b.size != 0; b = ahead.next()) got.append(b.data, b.size);
        },
        ThrowsMessage<InputError>(StrEq("broken at 50706")));
    // Every block before the one that failed: 12 x 4096 bytes. The 13th took two fills of 777
    // bytes (to 50706) and failed on its third.
    EXPECT_EQ(got, stream.substr(0, 49152));
  }
  {
    at = 0;
    ReadAhead ahead(4096, 0, 0, fill_from(stream.size()));
    (void)ahead.next();  // and then destroyed with blocks still to come: no hang
  }
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

TEST(AtomicOutput, TextForADescriptorPastItsMemoryShareWaitsInATemporaryFile) {
  // A robustness hunt (round 29): standard output, descriptors and devices get their text on
  // commit, and held it all in memory (a 1,024-GPU node's `topo --format json`, 302 MB, took 551
  // MB). Past 64 MiB it waits in an unnamed temporary file: what the descriptor receives on
  // commit is the whole text, in order (measured with that node: 92-94 MB, the same bytes).
  const std::string path = ::testing::TempDir() + "atomic_output_descriptor.txt";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  std::string line(1000, 'x');
  constexpr int kLines = 80'000;  // 80 MB: past the 64 MiB held in memory
  {
    AtomicOutput out("/dev/fd/" + std::to_string(fd));
    ASSERT_EQ(out.target(), AtomicOutput::Target::descriptor);
    for (int i = 0; i < kLines; ++i) out.stream() << i << ' ' << line << '\n';
    out.commit();
  }
  ::close(fd);
  std::ifstream in(path);
  std::string got;
  int n = 0;
  while (std::getline(in, got)) {
    ASSERT_EQ(got, std::to_string(n) + ' ' + line) << n;
    ++n;
  }
  EXPECT_EQ(n, kLines);
  std::filesystem::remove(path);
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
    EXPECT_THAT(e.path().string(), Not(HasSubstr("atomic_output_test.txt.tmp")));
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

// When linkcast starts itself again for 2 MiB pages (core/huge_pages.hpp). System: the kernel's
// transparent-huge-page modes as /sys/kernel/mm/transparent_hugepage/enabled prints them.
// Expected: a restart only in "madvise" mode (in "always" every large block gets huge pages
// anyway; in "never" or without THP none can), never when the tunable is set (that is the
// restarted process, or the user's choice) or LINKCAST_HUGE_PAGES=0, and the user's other
// tunables kept in front.
TEST(HugePages, RestartOnlyWhereHugePagesAreGivenOnRequestAndNotYetAsked) {
  const std::string madvise = "always [madvise] never", always = "[always] madvise never", never = "always madvise [never]";
  EXPECT_EQ(huge_page_tunables(nullptr, madvise, nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(huge_page_tunables("", madvise, nullptr), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(huge_page_tunables("glibc.malloc.check=3", madvise, nullptr), "glibc.malloc.check=3:glibc.malloc.hugetlb=1");
  EXPECT_EQ(huge_page_tunables(nullptr, madvise, "1"), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(huge_page_tunables(nullptr, always, nullptr), std::nullopt);
  EXPECT_EQ(huge_page_tunables(nullptr, never, nullptr), std::nullopt);
  EXPECT_EQ(huge_page_tunables(nullptr, "", nullptr), std::nullopt);  // no THP in this kernel
  EXPECT_EQ(huge_page_tunables("glibc.malloc.hugetlb=1", madvise, nullptr), std::nullopt);
  EXPECT_EQ(huge_page_tunables("glibc.malloc.hugetlb=0", madvise, nullptr), std::nullopt);
  EXPECT_EQ(huge_page_tunables(nullptr, madvise, "0"), std::nullopt);
}

// The restart passes the command line and the exit status through. System: `linkcast simulate`
// of the H100 copy benchmark recording, and a trace that is not there, with the restart (where
// this kernel asks for one) and without (LINKCAST_HUGE_PAGES=0). Expected: the same output and
// status.
TEST(HugePages, TheRestartedCommandPrintsAndExitsAsTheFirst) {
  const std::string node = test::config("testbed-h100-1gpu.yaml");
  const std::string ok = "simulate " + node + " " + test::source_dir() + "/tests/data/real/h100-1gpu/copybench_trace.csv.gz";
  const std::string bad = "simulate " + node + " /nonexistent/trace.csv";
  for (const std::string& args : {ok, bad}) {
    ::unsetenv("LINKCAST_HUGE_PAGES");
    const auto restarted = test::run_linkcast(args);
    ::setenv("LINKCAST_HUGE_PAGES", "0", 1);
    const auto plain = test::run_linkcast(args);
    ::unsetenv("LINKCAST_HUGE_PAGES");
    EXPECT_EQ(restarted.exit_code, plain.exit_code) << args;
    EXPECT_EQ(restarted.out, plain.out) << args;
    EXPECT_EQ(restarted.err, plain.err) << args;
  }
}

// parallel_chunks: chunks of [0, n) cut by size alone, each called once, whatever the threads.
TEST(ParallelChunks, CallsEachChunkOnceWithItsRange) {
  // 10 items in chunks of 4: [0,4) [4,8) [8,10).
  std::vector<std::pair<std::size_t, std::size_t>> ranges(chunk_count(10, 4));
  std::vector<int> calls(ranges.size(), 0);
  parallel_chunks(10, 4, [&](std::size_t k, std::size_t begin, std::size_t end) {
    ranges[k] = {begin, end};
    ++calls[k];
  });
  EXPECT_THAT(ranges, ::testing::ElementsAre(std::pair<std::size_t, std::size_t>{0, 4},
                                             std::pair<std::size_t, std::size_t>{4, 8},
                                             std::pair<std::size_t, std::size_t>{8, 10}));
  EXPECT_THAT(calls, ::testing::Each(1));
  parallel_chunks(0, 4, [](std::size_t, std::size_t, std::size_t) { FAIL() << "no chunk of nothing"; });
}

TEST(ParallelChunks, RethrowsTheLowestFailingChunksError) {
  // 64 chunks of 1; chunks 5 and 40 throw (5 is handed out first, so it always runs): chunk 5's
  // error comes back, whichever thread ran which.
  for (int round = 0; round < 20; ++round)
    EXPECT_THAT([] {
      parallel_chunks(64, 1, [](std::size_t k, std::size_t, std::size_t) {
        if (k == 5 || k == 40) throw InputError("chunk " + std::to_string(k));
      });
    }, ::testing::ThrowsMessage<InputError>(::testing::StrEq("chunk 5")));
}

TEST(ParallelChunks, RunOnTheCallingThreadInsideASerialWorker) {
  // A sweep's worker already fills a core: its chunks run on it, in order.
  const SerialWorker serial;
  EXPECT_EQ(worker_threads(), 1u);
  std::vector<std::size_t> order;
  const auto caller = std::this_thread::get_id();
  parallel_chunks(100, 10, [&](std::size_t k, std::size_t, std::size_t) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    order.push_back(k);
  });
  EXPECT_THAT(order, ::testing::ElementsAre(0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
}

}  // namespace
}  // namespace linkcast
