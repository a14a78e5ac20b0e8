// trace/ readers: linkcast CSV, nvprof SQLite (real AHEAD files), Nsight Systems SQLite (a
// fixture built here to the documented export schema), Kineto JSON (real PyTorch profiler traces
// recorded for this project), and the errors for bad input.
#include <random>
#include <charconv>
#include <cctype>
#include <fmt/ranges.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <zlib.h>

#include "core/error.hpp"
#include "core/utf8.hpp"
#include "test_util.hpp"
#include "trace/csv.hpp"
#include "trace/csv_scan.hpp"
#include "trace/kineto.hpp"
#include "trace/reader.hpp"

namespace linkcast::trace {
namespace {

using model::MemKind;
using ::testing::HasSubstr;

using test::error_of;

TEST(CsvTrace, ReadsRequiredAndOptionalColumnsWithDefaults) {
  const Trace t = parse_csv_trace(
      "# comment before the header\n"
      "kind,src,dst,bytes,src_mem,duration_ns,group,comm,object,line\n"
      "copy,cpu0,gpu1,4096,pageable,1500,,,halo,\"stencil.cu:42\"\n"
      "copy,gpu1,cpu0,8,,900,,,,\n"
      "allreduce,gpu0,gpu0,1048576,,,0-3,world,,\n",
      "t.csv");
  ASSERT_EQ(t.size(), 3u);
  const Op a = t.op(0);
  EXPECT_EQ(t.endpoint_name(a.src), "cpu0");
  EXPECT_EQ(a.src_mem, MemKind::pageable);
  EXPECT_EQ(a.dst_mem, MemKind::device);  // default on a GPU
  EXPECT_EQ(a.duration_ns, 1500);
  EXPECT_EQ(a.start_ns, kUnknownTime);
  EXPECT_EQ(t.objects[a.object], "halo");
  EXPECT_EQ(t.lines[a.line], "stencil.cu:42");
  EXPECT_EQ(t.op(1).dst_mem, MemKind::pinned);  // default on a host
  const Op c = t.op(2);
  EXPECT_EQ(c.kind, OpKind::allreduce);
  ASSERT_EQ(t.group(c.group).size(), 4u);
  EXPECT_EQ(t.endpoint_name(t.group(c.group)[3]), "gpu3");
  EXPECT_EQ(t.comms[c.comm], "world");
  EXPECT_EQ(t.describe_record(2), "record 3 (line 5)");
}

TEST(CsvTrace, RoundTripsThroughTheWriter) {
  const std::string text =
      "kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream,group,root,object,line,comm,issuer\n"
      "access,gpu1,gpu0,128,device,device,10,20,3,,,\"a,b\",k.cu:7,,gpu0\n"
      "broadcast,gpu2,gpu2,64,device,device,,,0,0;2,1,,,nccl,\n";
  const Trace t = parse_csv_trace(text, "t.csv");
  std::ostringstream out;
  write_csv_trace(t, out);
  EXPECT_EQ(out.str(), text);
}

TEST(CsvTrace, ErrorsNameFileLineAndColumn) {
  const std::string header = "kind,src,dst,bytes\n";
  EXPECT_EQ(error_of([&] { (void)parse_csv_trace(header + "copy,cpu0,gpu0,-5\n", "t.csv"); }),
            "t.csv:2: column 'bytes': '-5' is negative; it must be a non-negative whole number");
  EXPECT_EQ(error_of([&] { (void)parse_csv_trace(header + "copy,cpu0,gpu0,1\ncpoy,cpu0,gpu0,1\n", "t.csv"); }),
            "t.csv:3: column 'kind': 'cpoy' is not an operation kind (did you mean 'copy'?); use copy, access, "
            "migrate, memset, allreduce, allgather, reducescatter, broadcast, reduce, alltoall, send, recv, "
            "kernel, runtime, annotation");
  EXPECT_EQ(error_of([&] { (void)parse_csv_trace("kind,src,dst,byte\n", "t.csv"); }),
            "t.csv:1: unknown column 'byte' (did you mean 'bytes'?) in the header; columns are "
            "kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream,group,root,object,line,comm,issuer");
  EXPECT_EQ(error_of([&] { (void)parse_csv_trace("kind,src,bytes\n", "t.csv"); }),
            "t.csv:1: the header lacks the required column 'dst' (required: kind,src,dst,bytes)");
  EXPECT_EQ(error_of([&] { (void)parse_csv_trace(header + "copy,cpu0,gpu0\n", "t.csv"); }),
            "t.csv:2: 3 fields, but the header has 4 columns");
  EXPECT_EQ(error_of([&] { (void)parse_csv_trace("kind,src,dst,bytes,group\nallreduce,gpu0,gpu0,8,0-x\n", "t.csv"); }),
            "t.csv:2: column 'group': '0-x' is not a GPU list; write 0-3 or 0;2;5");
  EXPECT_EQ(error_of([&] { (void)parse_csv_trace("kind,src,dst,bytes\nallgather,gpu0,gpu0,8\n", "t.csv"); }),
            "t.csv:2: allgather is a collective: it needs the GPUs taking part in column 'group' (e.g. 0-3)");
  // A root outside its group moved nothing (a robustness hunt: "0 bytes moved" in a check line).
  EXPECT_EQ(error_of([&] {
              (void)parse_csv_trace("kind,src,dst,bytes,root,group\nbroadcast,gpu0,gpu0,1024,7,0-1\n", "t.csv");
            }),
            "t.csv:2: column 'root': '7' is not a rank of group 0-1 (its ranks are 0 to 1, in the group's order)");
  EXPECT_NO_THROW((void)parse_csv_trace("kind,src,dst,bytes,root,group\nbroadcast,gpu5,gpu5,1024,1,2;5\n", "t.csv"));
  EXPECT_EQ(error_of([&] { (void)parse_csv_trace(header + "copy,cpu0,gpu0,1,pinnned\n", "t.csv"); }),
            "t.csv:2: 5 fields, but the header has 4 columns");
  EXPECT_EQ(error_of([&] { (void)parse_csv_trace("kind,src,dst,bytes,src_mem\ncopy,cpu0,gpu0,1,pinnned\n", "t.csv"); }),
            "t.csv:2: column 'src_mem': 'pinnned' is not a memory kind; use pageable, pinned, device, managed or "
            "unknown");
  EXPECT_EQ(error_of([&] { (void)parse_csv_trace("", "t.csv"); }),
            "t.csv: empty trace: no header line (expected at least kind,src,dst,bytes)");
}

// The record scan reads 64 bytes and 8 digits at a time (trace/csv_scan.hpp). Its masks and
// numbers are checked against a byte loop and std::from_chars on seeded random bytes: commas,
// quotes, newlines, blanks and digits dense among arbitrary bytes, every length from 1 to 18 digits.
TEST(CsvScan, MasksAndDigitsMatchAByteLoop) {
  std::mt19937_64 random(17);
  for (int round = 0; round < 20000; ++round) {
    char bytes[64];
    for (char& b : bytes) {
      const auto pick = random() % 7;
      b = pick == 0 ? ',' : pick == 1 ? '"' : pick == 2 ? '\n' : pick == 3 ? ' ' : pick == 4 ? '\t' : static_cast<char>(random());
    }
    CsvByteMasks expected;
    for (int i = 0; i < 64; ++i) {
      expected.commas |= std::uint64_t{bytes[i] == ','} << i;
      expected.quotes |= std::uint64_t{bytes[i] == '"'} << i;
      expected.newlines |= std::uint64_t{bytes[i] == '\n'} << i;
      expected.blanks |= std::uint64_t{bytes[i] == ' ' || bytes[i] == '\t'} << i;
    }
    for (const CsvByteMasks got : {csv_byte_masks(bytes), csv_byte_masks_portable(bytes)}) {
      ASSERT_EQ(got.commas, expected.commas) << "round " << round;
      ASSERT_EQ(got.quotes, expected.quotes) << "round " << round;
      ASSERT_EQ(got.newlines, expected.newlines) << "round " << round;
      ASSERT_EQ(got.blanks, expected.blanks) << "round " << round;
    }
  }
  for (int round = 0; round < 200000; ++round) {
    const std::size_t n = 1 + random() % 18;
    std::string text(n + kFieldPadding, '\0');
    for (std::size_t i = 0; i < text.size(); ++i)
      text[i] = i >= n || random() % 8 != 0 ? static_cast<char>('0' + random() % 10) : static_cast<char>(random());
    std::uint64_t expected = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + n, expected);
    const bool digits = error == std::errc() && end == text.data() + n && std::isdigit(static_cast<unsigned char>(text[0]));
    const auto got = csv_digits(text.data(), n);
    if (n > 16 || !digits) {
      ASSERT_FALSE(got) << "'" << text.substr(0, n) << "'";  // the general path's to read
    } else {
      ASSERT_TRUE(got) << "'" << text.substr(0, n) << "'";
      ASSERT_EQ(*got, expected) << "'" << text.substr(0, n) << "'";
    }
  }
}

// A record reads the same whichever path splits it: the word-at-a-time scan (no quote in the
// line) or the RFC 4180 one (any quote). Every field of each record is also written quoted, and
// both files must give the same operations: records shorter and longer than the scan's 64-byte
// groups (names of 0 to 150 bytes), CRLF line ends, blanks around fields, numbers of 1 to 20
// digits and in decimal notation, empty optional fields.
TEST(CsvTrace, RecordsReadTheSameQuotedOrNot) {
  std::mt19937_64 random(5);
  const std::string header = "kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream,object,line\n";
  std::string plain = header;
  std::string quoted = header;
  auto number = [&] {
    const std::uint64_t v = random() >> (random() % 64);
    return random() % 10 == 0 ? fmt::format("{}.0", v % 1000000) : std::to_string(v % 1000000000000000000ULL);
  };
  for (int i = 0; i < 3000; ++i) {
    const std::string name(random() % 151, static_cast<char>('a' + random() % 26));
    const std::vector<std::string> fields = {
        "copy", random() % 2 ? "cpu0" : " gpu1", "gpu" + std::to_string(random() % 8), number(),
        random() % 3 ? "pinned" : "", random() % 2 ? "device " : "managed", number(), random() % 4 ? number() : "",
        std::to_string(random() % 5), name, random() % 2 ? "" : "k.cu:" + std::to_string(i)};
    const char* const end = random() % 3 ? "\n" : "\r\n";
    plain += fmt::format("{}{}", fmt::join(fields, ","), end);
    std::vector<std::string> q;
    for (const std::string& f : fields) q.push_back(f.empty() || random() % 2 ? "\"" + f + "\"" : f);
    quoted += fmt::format("{}{}", fmt::join(q, ","), end);
  }
  const Trace a = parse_csv_trace(plain, "plain.csv");
  const Trace b = parse_csv_trace(quoted, "quoted.csv");
  ASSERT_EQ(a.size(), 3000u);
  ASSERT_EQ(b.size(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Op x = a.op(i);
    const Op y = b.op(i);
    ASSERT_EQ(a.endpoint_name(x.src), b.endpoint_name(y.src)) << i;
    ASSERT_EQ(a.endpoint_name(x.dst), b.endpoint_name(y.dst)) << i;
    ASSERT_EQ(x.bytes, y.bytes) << i;
    ASSERT_EQ(x.src_mem, y.src_mem) << i;
    ASSERT_EQ(x.dst_mem, y.dst_mem) << i;
    ASSERT_EQ(x.start_ns, y.start_ns) << i;
    ASSERT_EQ(x.duration_ns, y.duration_ns) << i;
    ASSERT_EQ(x.stream, y.stream) << i;
    ASSERT_EQ(a.objects[x.object], b.objects[y.object]) << i;
    ASSERT_EQ(a.lines[x.line], b.lines[y.line]) << i;
  }
  for (const std::string& name : a.endpoint_names()) EXPECT_EQ(name.find(' '), std::string::npos) << name;  // trimmed
}

// A file is read in 8 MiB blocks: a record cut by a block's end is read whole, and the file's last
// record needs no newline. 9 MiB of 60-byte records (one of them straddles the first block's end).
TEST(CsvTrace, RecordsAcrossReadBlocksAreReadWhole) {
  std::string text = "kind,src,dst,bytes,start_ns\n";
  std::size_t rows = 0;
  while (text.size() < (9u << 20)) text += fmt::format("copy,cpu0,gpu3,{:020},{:025}\n", rows, rows), ++rows;
  text.pop_back();
  const Trace t = read_csv_trace(test::write_temp("blocks.csv", text));
  ASSERT_EQ(t.size(), rows);
  for (std::size_t i = 0; i < rows; ++i) {
    ASSERT_EQ(t.bytes()[i], i);
    ASSERT_EQ(t.starts()[i], static_cast<std::int64_t>(i));
  }
}

// A file whose "line" runs on for more than 16 MiB is not a trace: refused naming its line, before
// memory grows with it.
TEST(CsvTrace, ALineLongerThan16MiBIsRefused) {
  const std::string text = "kind,src,dst,bytes\ncopy,cpu0,gpu0,8\ncopy,cpu0,gpu0," + std::string(17u << 20, '7') + "\n";
  const std::string path = test::write_temp("long_line.csv", text);
  EXPECT_EQ(test::error_of([&] { (void)read_csv_trace(path); }).substr(0, 200),
            path + ":3: a line longer than 16 MiB; a record is a few dozen bytes: is this a CSV trace?");
  // A long line that ends below the limit is read (and refused for what it holds).
  const std::string shorter = "kind,src,dst,bytes\ncopy,cpu0,gpu0," + std::string(100000, '7') + "\n";
  EXPECT_THAT(test::error_of([&] { (void)parse_csv_trace(shorter, "t.csv"); }).substr(0, 200),
              HasSubstr("t.csv:2: column 'bytes': '777"));
}

TEST(TraceFormat, IsChosenByContentNotExtension) {
  // A CSV named .nvvp is read as CSV; a gzip'd CSV as CSV; a gzip'd JSON as Kineto.
  const std::string csv = test::write_temp("looks_like.nvvp", "kind,src,dst,bytes\ncopy,cpu0,gpu0,8\n");
  EXPECT_EQ(detect_trace_format(csv), "csv");
  EXPECT_EQ(read_trace(csv).size(), 1u);
  const std::string gz = ::testing::TempDir() + "trace.csv.gz";
  gzFile f = gzopen(gz.c_str(), "wb");
  const std::string body = "kind,src,dst,bytes\ncopy,gpu0,cpu0,16\n";
  gzwrite(f, body.data(), static_cast<unsigned>(body.size()));
  gzclose(f);
  EXPECT_EQ(detect_trace_format(gz), "csv");
  EXPECT_EQ(read_trace(gz).bytes()[0], 16u);
  // Cut inside its deflate stream, a gzip'd CSV is an error, not a shorter trace.
  const std::string whole = test::read_file(test::source_dir() + "/tests/data/real/h200-4gpu/copybench_trace.csv.gz");
  const std::string cut = test::write_temp("cut.csv.gz", whole.substr(0, 100000));
  EXPECT_EQ(test::error_of([&] { (void)read_trace(cut); }),
            cut + ": cannot read (unexpected end of file); a gzip'd trace is corrupt or truncated");
  // A recorded Kineto trace is stored gzip'd (tests/data/real): the format comes from the
  // decompressed content.
  EXPECT_EQ(detect_trace_format(test::source_dir() + "/tests/data/real/h200-2gpu/torch_ddp_rank0.json.gz"), "kineto");
}

// --- nvprof (real AHEAD databases) -------------------------------------------------------------

TEST(Nvprof, ReadsTheTitanPinnedBandwidthTest) {
  LINKCAST_REQUIRE_SHARED();
  // bandwidthTest --htod --memory=pinned: 29 sizes (1 B .. 256 MiB) x 100 repetitions, all
  // HtoD (copyKind 1) from pinned (srcKind 2) to device (dstKind 3) memory on the K20X.
  const Trace t = read_trace(test::ahead("Titan_Data/Bandwidth_Benchmarking/profiler-bandwidth-output-htod-pinned.nvvp"));
  EXPECT_EQ(t.format, "nvprof");
  ASSERT_EQ(t.size(), 2900u);
  EXPECT_EQ(t.device_names.at(0), "Tesla K20X");
  for (std::size_t i = 0; i < t.size(); ++i) {
    ASSERT_EQ(t.endpoint_name(t.srcs()[i]), "host");
    ASSERT_EQ(t.endpoint_name(t.dsts()[i]), "gpu0");
    ASSERT_EQ(t.src_mems()[i], MemKind::pinned);
    ASSERT_EQ(t.dst_mems()[i], MemKind::device);
    ASSERT_GT(t.durations()[i], 0);
  }
  // Ordered by start time; the largest size is 256 MiB.
  EXPECT_TRUE(std::is_sorted(t.starts().begin(), t.starts().end()));
  EXPECT_EQ(*std::max_element(t.bytes().begin(), t.bytes().end()), 268435456u);
}

TEST(Nvprof, ReadsPageableDeviceToHostWithItsSetupCopies) {
  LINKCAST_REQUIRE_SHARED();
  // The dtoh test first fills the device with one pageable HtoD per size (29), then times 100
  // DtoH copies per size (2900), device (3) -> pageable (1).
  const Trace t = read_trace(test::ahead("Summit_Data/Bandwidth_Benchmarking/sqlite/profiler-bandwidth-output-dtoh-pageable.nvvp"));
  ASSERT_EQ(t.size(), 2929u);
  std::size_t d2h = 0;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t.endpoint_name(t.dsts()[i]) == "host" && t.dst_mems()[i] == MemKind::pageable) ++d2h;
  EXPECT_EQ(d2h, 2900u);
  EXPECT_EQ(t.device_names.at(0), "Tesla V100-SXM2-16GB");
}

TEST(Nvprof, TruncatedDatabaseIsRejectedWithTheFile) {
  LINKCAST_REQUIRE_SHARED();
  const std::string src = test::read_file(test::ahead("Summit_Data/Applications_Traces/minife/peak-51117-minife-h41n08-46561.nvvp"));
  const std::string cut = test::write_temp("truncated.nvvp", src.substr(0, src.size() / 3));
  const std::string err = error_of([&] { (void)read_trace(cut); });
  EXPECT_THAT(err, HasSubstr(cut + ": "));
  EXPECT_THAT(err, HasSubstr("the database is corrupt or truncated"));
}

TEST(SqliteTrace, ADatabaseWithoutCuptiTablesIsNotAProfile) {
  const std::string path = ::testing::TempDir() + "other.sqlite";
  std::remove(path.c_str());
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_exec(db, "CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES('hi');", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  EXPECT_EQ(error_of([&] { (void)read_trace(path); }),
            path + ": an SQLite database, but not an nvprof or Nsight Systems export (no "
                   "CUPTI_ACTIVITY_KIND_* tables; tables: notes)");
}

// --- Nsight Systems ------------------------------------------------------------------------------

/// A minimal `nsys export --type sqlite` database built to the documented schema (Nsight Systems
/// "SQLite Export Schema Reference": CUPTI_ACTIVITY_KIND_MEMCPY with srcKind/dstKind numbered
/// from 0, srcDeviceId/dstDeviceId for peer copies, copyKind 11 for unified-memory HtoD;
/// TARGET_INFO_GPU; StringIds; META_DATA_EXPORT). Not a recorded file: nsys does not run on the
/// machines this project could use (see README).
std::string make_nsys_fixture(bool with_enum_table) {
  const std::string path = ::testing::TempDir() + (with_enum_table ? "nsys_enum.sqlite" : "nsys.sqlite");
  std::remove(path.c_str());
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  std::string sql =
      "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
      "CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);"
      "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3');"
      "CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, busLocation TEXT, totalMemory INTEGER);"
      "INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H200', '0000:06:00.0', 150109880320),"
      "                                  (1, 'NVIDIA H200', '0000:07:00.0', 150109880320);"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT "
      "NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, "
      "bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER, srcKind INTEGER, dstKind "
      "INTEGER, srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER, "
      "migrationCause INTEGER, graphNodeId INTEGER);"
      // pageable (0) -> device (2) HtoD on gpu0; device -> pinned (1) DtoH; a peer copy
      // gpu0 -> gpu1 (copyKind 10); a unified-memory migration HtoD (11) onto gpu1.
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES"
      " (1000, 3000, 0, 1, 7, 1, 1, 4096, 1, 0, 0, 2, 0, 1, 0, 1, 0, 0),"
      " (4000, 5000, 0, 1, 7, 2, 1, 8192, 2, 0, 2, 1, 0, 1, 0, 1, 0, 0),"
      " (6000, 6500, 0, 1, 7, 3, 1, 65536, 10, 0, 2, 2, 0, 1, 1, 2, 0, 0),"
      " (7000, 9000, 1, 2, 9, 4, 1, 2097152, 11, 0, 4, 4, 0, 0, 1, 2, 1, 0);"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, "
      "streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER, graphNodeId "
      "INTEGER, memKind INTEGER);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (500, 700, 1, 2, 9, 9, 1, 0, 1024, 0, 2);";
  if (with_enum_table) {
    // A database that says so itself: ids renumbered on purpose to prove the table is used.
    sql += "CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
           "INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'),"
           " (1, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'), (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device'),"
           " (4, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED', 'Managed');";
  }
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_close(db);
  return path;
}

TEST(Nsys, MemoryKindsAreNumberedFromZero) {
  const Trace t = read_trace(make_nsys_fixture(false));
  EXPECT_EQ(t.format, "nsys");
  ASSERT_EQ(t.size(), 5u);  // sorted by start: memset first
  EXPECT_EQ(t.op(0).kind, OpKind::memset);
  EXPECT_EQ(t.endpoint_name(t.op(0).src), "gpu1");
  // srcKind 0 is pageable in Nsight Systems (it would be "unknown" in CUPTI/nvprof numbering).
  EXPECT_EQ(t.op(1).src_mem, MemKind::pageable);
  EXPECT_EQ(t.op(1).dst_mem, MemKind::device);
  EXPECT_EQ(t.op(2).dst_mem, MemKind::pinned);
  EXPECT_EQ(t.endpoint_name(t.op(3).src), "gpu0");
  EXPECT_EQ(t.endpoint_name(t.op(3).dst), "gpu1");
  EXPECT_EQ(t.op(4).kind, OpKind::migrate);
  EXPECT_EQ(t.endpoint_name(t.op(4).dst), "gpu1");
  EXPECT_EQ(t.op(4).duration_ns, 2000);
  EXPECT_EQ(t.device_names, (std::vector<std::string>{"NVIDIA H200", "NVIDIA H200"}));
}

TEST(Nsys, RowsInsertedTwiceAreSaid) {
  // A hunt's export with every MEMCPY row inserted again read as twice the copies and bytes,
  // without a word. Copies and memsets that repeat another field for field are said.
  const std::string path = make_nsys_fixture(false);
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_exec(db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY SELECT * FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE bytes = 4096;",
               nullptr, nullptr, nullptr);
  sqlite3_close(db);
  const Trace t = read_trace(path);
  EXPECT_EQ(t.size(), 6u);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr("1 copies, memsets or collectives repeat an earlier one exactly")));
  EXPECT_THAT(read_trace(make_nsys_fixture(false)).warnings,
              testing::Not(testing::Contains(HasSubstr("repeat an earlier one"))));
}

TEST(Nsys, UsesTheDatabasesOwnMemoryKindTable) {
  const Trace t = read_trace(make_nsys_fixture(true));
  EXPECT_EQ(t.op(1).src_mem, MemKind::pinned);    // id 0 is "Pinned" in this database
  EXPECT_EQ(t.op(2).dst_mem, MemKind::pageable);  // id 1 is "Pageable" in this database
}

// --- Kineto ----------------------------------------------------------------------------------

TEST(Kineto, ReadsARecordedCopySweep) {
  // PyTorch 2.11 profiler on one H200 (tests/data/real/h200-2gpu): copies of 1 KiB .. 1 GiB,
  // pinned and pageable, both directions, device-to-device and GPU0 -> GPU1.
  const Trace t = read_trace(test::source_dir() + "/tests/data/real/h200-2gpu/torch_copy_sweep.json.gz");
  EXPECT_EQ(t.format, "kineto");
  EXPECT_EQ(t.device_names.at(0), "NVIDIA H200");
  std::size_t p2p = 0, pageable_h2d = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Op op = t.op(i);
    if (t.endpoint_name(op.src) == "gpu0" && t.endpoint_name(op.dst) == "gpu1") ++p2p;
    if (t.endpoint_name(op.src) == "host" && op.src_mem == MemKind::pageable) ++pageable_h2d;
  }
  EXPECT_GT(p2p, 0u);
  EXPECT_GT(pageable_h2d, 0u);
  EXPECT_TRUE(std::is_sorted(t.starts().begin(), t.starts().end()));
}

TEST(Kineto, ReadsNcclCollectivesWithTheirArguments) {
  // DDP on 2 H200s: gradient allreduces as ncclDevKernel_AllReduce_* with "Collective name",
  // "In msg nelems", dtype Float (4 B) and "Process Group Ranks" "[0, 1]".
  const Trace t = read_trace(test::source_dir() + "/tests/data/real/h200-2gpu/torch_ddp_rank1.json.gz");
  std::size_t allreduces = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Op op = t.op(i);
    if (op.kind != OpKind::allreduce) continue;
    ++allreduces;
    EXPECT_EQ(t.endpoint_name(op.src), "gpu1");
    ASSERT_EQ(t.group(op.group).size(), 2u);
    EXPECT_EQ(op.bytes % 4, 0u);
    EXPECT_EQ(t.comms[op.comm], "pg:0");
  }
  EXPECT_GT(allreduces, 0u);
}

TEST(Kineto, ParsesTheEventsItUnderstandsAndSkipsTheRest) {
  const Trace t = parse_kineto(R"json({"traceEvents": [
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy PtoP (Device -> Device)", "ts": 10.5, "dur": 2.25,
     "args": {"fromDevice": 2, "toDevice": 3, "stream": 7, "bytes": 65536}},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllGather_RING_LL(x)", "ts": 1.0, "dur": 5.0,
     "args": {"device": 1, "Collective name": "_allgather_base", "In msg nelems": 10, "Out msg nelems": 40,
              "dtype": "BFloat16", "Process Group Name": "3", "Process Group Ranks": "[0, 1, 2, 3]"}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "ts": 0.0, "dur": 50.0}],
    "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}]})json",
                               "inline.json");
  ASSERT_EQ(t.size(), 2u);
  const Op ag = t.op(0);  // sorted by start
  EXPECT_EQ(ag.kind, OpKind::allgather);
  EXPECT_EQ(ag.bytes, 80u);  // allgather counts its output: 40 x 2 B
  EXPECT_EQ(t.group(ag.group).size(), 4u);
  const Op p = t.op(1);
  EXPECT_EQ(t.endpoint_name(p.src), "gpu2");
  EXPECT_EQ(t.endpoint_name(p.dst), "gpu3");
  EXPECT_EQ(p.start_ns, 10500);
  EXPECT_EQ(p.duration_ns, 2250);
  EXPECT_EQ(t.device_names.at(0), "NVIDIA H100 80GB HBM3");
}

TEST(Kineto, GpuWorkWithoutAStartIsSaidAndAPeerOutsideTheDevicesRefused) {
  // A robustness hunt (round 25): a copy whose "ts" is missing, null, text or true was dropped
  // with no word (its bytes gone from the matrix), and with every copy so the warning said "no GPU
  // activity"; a PtoP copy whose toDevice was -3 or null became a copy within gpu0 (4096 and
  // device -1 were refused).
  const std::string head = R"json({"traceEvents": [
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "ts": 10, "dur": 2,
     "args": {"device": 0, "stream": 7, "bytes": 1048576}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", )json";
  for (const std::string ts : {"", "\"ts\": null, ", "\"ts\": \"abc\", ", "\"ts\": true, "}) {
    const Trace t = parse_kineto(head + ts + R"json("dur": 2, "args": {"device": 0, "stream": 7, "bytes": 1048576}}]})json",
                                 "untimed.json");
    EXPECT_EQ(t.size(), 1u) << ts;
    EXPECT_THAT(t.warnings, testing::Contains(HasSubstr("untimed.json: 1 GPU operations (kernels, copies, memsets) "
                                                        "have no usable \"ts\" (missing, null, not a number): left "
                                                        "out, their bytes and time not counted")))
        << ts;
    EXPECT_THAT(t.warnings, testing::Not(testing::Contains(HasSubstr("no GPU activity"))));
  }
  for (const std::string peer : {"-3", "null", "1.5", "-1"}) {
    const std::string text = R"json({"traceEvents": [
      {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy PtoP (Device -> Device)", "ts": 10, "dur": 2,
       "args": {"device": 0, "fromDevice": 0, "toDevice": )json" + peer + R"json(, "bytes": 4096}}]})json";
    EXPECT_THAT([&] { (void)parse_kineto(text, "peer.json"); },
                ThrowsMessage<InputError>(HasSubstr("peer.json: event 1: toDevice "))) << peer;
  }
}

TEST(Kineto, ArgsThatAreNoNumbersOrPastAnyDeviceAreRefusedAsWritten) {
  // A robustness hunt (round 25): "bytes": "abc" (or "", [1024], true) read as no bytes arg, so the
  // copy counted 0 B under a warning that the profiler had not written one; "device": "abc" was
  // refused as "device nan"; 1e308 bytes as "18446744073709551615 bytes" (saturated) and 2^64 as
  // "not valid JSON" alone. Each is now refused with the value as the file writes it.
  const auto copy = [](const std::string& args) {
    return R"json({"traceEvents": [{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)",
      "ts": 10, "dur": 2, "args": {"stream": 7, )json" + args + "}}]}";
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("device": 0, "bytes": "abc")", R"(event 1: bytes "abc" is not a count (a whole number, 0 or more))"},
      {R"("device": 0, "bytes": "")", R"(event 1: bytes "" is not a count)"},
      {R"("device": 0, "bytes": [1024])", R"(event 1: bytes [1024] is not a count)"},
      {R"("device": 0, "bytes": true)", R"(event 1: bytes true is not a count)"},
      {R"("device": "abc", "bytes": 4)", R"(event 1: device "abc" is not a device index (0 to 4095))"},
      {R"("device": 0, "bytes": 1e308)", "event 1: bytes 1e+308 is more than any device holds (16 TiB at most)"},
      {R"("device": 0, "bytes": 18446744073709551616)",
       "a malformed number, or a whole number past 2^64 - 1, which no count reaches"},
  };
  for (const auto& c : cases)  // not a structured binding: clang's C++20 lambdas cannot capture one
    EXPECT_THAT([&] { (void)parse_kineto(copy(c.first), "args.json"); },
                ThrowsMessage<InputError>(HasSubstr(c.second)))
        << c.first;
  // A null bytes arg is none given: 0 B, said as before.
  const Trace t = parse_kineto(copy(R"("device": 0, "bytes": null)"), "null.json");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t.op(0).bytes, 0u);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr("null.json: 1 copies and 0 memsets carry no \"bytes\" arg")));
}

TEST(TraceReader, CompressionsLinkcastDoesNotReadAreNamed) {
  // bzip2, xz and zstd files were "binary data, not a trace" (and "No document element found" in
  // topo import): named now, with the tool that undoes each.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"BZh91AY&SY", "bzip2-compressed data"},       {std::string("\xFD" "7zXZ\0\0", 8), "xz-compressed data"},
      {"\x28\xB5\x2F\xFD\x24", "zstd-compressed data"}, {std::string("PK\x03\x04\x14\0", 6), "a zip archive"}};
  for (const auto& [bytes, name] : cases) {
    const std::string path = test::write_temp("packed.json", bytes);
    EXPECT_THAT([&] { (void)read_trace(path); },
                ThrowsMessage<InputError>(HasSubstr(path + ": " + name))) << name;
    EXPECT_THAT([&] { (void)read_trace(path); }, ThrowsMessage<InputError>(HasSubstr("which linkcast does not read")));
  }
  // "BZh" without a block size is text (a CSV could begin so): not called bzip2.
  EXPECT_THAT([&] { (void)read_trace(test::write_temp("bzh.csv", "BZh,src,dst,bytes\n")); },
              ThrowsMessage<InputError>(HasSubstr("unknown column 'BZh'")));
}

TEST(Kineto, TheListFormOfTheChromeTraceIsReadToo) {
  // The first libkineto (PyTorch's TensorBoard plugin samples, December 2020) wrote the Chrome
  // trace format's other form: a list of events alone, whose closing ']' the format lets a writer
  // leave out. It was refused as "not a Kineto trace" and its 12 copies lost. A list without
  // events (objects with a "ph") is still refused.
  const std::string events = R"json([
    {"ph": "X", "cat": "Memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "ts": 10, "dur": 4,
     "pid": 0, "tid": "stream 7", "args": {"device": 0, "stream": 7, "bytes": 65536}},
    {"ph": "X", "cat": "Operator", "name": "aten::to", "ts": 9, "dur": 6, "pid": 1, "tid": 1})json";
  for (const std::string& text : {events + "]", events, events + ",\n"}) {
    const Trace t = parse_kineto(text, "list.json");
    ASSERT_EQ(t.size(), 1u) << text;
    EXPECT_EQ(t.op(0).bytes, 65536u);
    EXPECT_EQ(t.op(0).duration_ns, 4000);
  }
  // A NUL byte is no end of the input: refused, as in the object form.
  EXPECT_THAT([&] { (void)parse_kineto(events + std::string(1, '\0') + events.substr(1) + "]", "nul.json"); },
              ThrowsMessage<InputError>(HasSubstr("nul.json: byte ")));
  EXPECT_THAT([] { (void)parse_kineto("[1, 2, 3]", "numbers.json"); },
              ThrowsMessage<InputError>(HasSubstr("numbers.json: a JSON list without trace events (objects with a "
                                                  "\"ph\"): not a PyTorch profiler / Kineto Chrome trace")));
}

// The reader passes over events it has no use for without parsing them, told by their top-level
// "ph", "cat" and "name" as the scanner finds each event's end. It must keep exactly what a full
// parse keeps: a key or value written with escapes ("c\u0061t" is "cat") is parsed in full; a
// repeated key counts its last value; "cat" inside "args" is not the event's; and the kernel
// events below are kept whatever their keys' order. A cpu_op with a malformed number (an event
// it never reads) is passed over; the same number in a kept event is refused.
TEST(Kineto, EventsPassedOverUnparsedAreExactlyThoseAFullParseDrops) {
  const Trace t = parse_kineto(R"json({"traceEvents": [
    {"name": "k1", "dur": 5.0, "ts": 1.0, "cat": "kernel", "ph": "X", "args": {"device": 0, "stream": 7}},
    {"ph": "X", "c\u0061t": "kernel", "name": "k2", "ts": 2.0, "dur": 1.0, "args": {"device": 0, "stream": 7}},
    {"ph": "X", "cat": "cpu_op", "cat": "kernel", "name": "k3", "ts": 3.0, "dur": 1.0, "args": {"device": 0, "stream": 7}},
    {"ph": "X", "cat": "kernel", "cat": "cpu_op", "name": "aten::mm", "ts": 4.0, "dur": 1.0, "args": {"cat": "kernel"}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "ts": 01x, "dur": 1.0},
    {"ph": "f", "cat": "ac2g", "name": "flow", "ts": 5.0, "id": 1, "bp": "e"}]})json",
                               "heads.json");
  ASSERT_EQ(t.size(), 3u);
  for (std::size_t i = 0; i < t.size(); ++i) EXPECT_EQ(t.kinds()[i], OpKind::kernel) << i;
  EXPECT_EQ(error_of([] {
              (void)parse_kineto(R"json({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 01x, "dur": 1.0,
                                  "args": {"device": 0}}]})json", "bad.json");
            }),
            "bad.json: byte 17: event 1 is not valid JSON (Problem while parsing a number: a malformed number, or a "
            "whole number past 2^64 - 1, which no count reaches); the file is not a Kineto trace or is corrupt");
}

// Two levels deep and more (an event's args), the scanner passes over 64-byte blocks whose
// brackets outside strings keep it there without looking at each string and comma. Brackets and
// quotes inside strings, escapes, strings and lists across block edges, and the event's own keys
// after its args must still come out as a full parse reads them: the deep part is shifted across
// every offset within a block, and the kernel it belongs to is read each time, with the copy after it.
TEST(Kineto, DeepArgsPassedOverInBlocksKeepEveryEventWhole) {
  for (std::size_t shift = 0; shift < 130; ++shift) {
    const std::string text = R"json({"traceEvents": [{"args": {"pad": ")json" + std::string(shift, 'p') +
                             R"json(", "deep": [[["x]]}}\"[{", [1, [2, [3]]]], {"k": "\\\"]}", "l": [[], [[]]]}]],
      "more": ["\"[[[[[[[[", ")json" + std::string(70, ']') + R"json(", "}}}}", "\u005d"], "device": 0, "stream": 7},
      "ph": "X", "cat": "kernel", "name": "k[\"]", "ts": 1.0, "dur": 2.0},
      {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "ts": 4.0, "dur": 1.0,
       "args": {"device": 0, "stream": 7, "bytes": 4096}}]})json";
    SCOPED_TRACE(shift);
    const Trace t = parse_kineto(text, "deep.json");
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(t.kinds()[0], OpKind::kernel);
    EXPECT_EQ(t.op_names[t.op(0).name], "k[\"]");
    EXPECT_EQ(t.op(0).start_ns, 1000);
    EXPECT_EQ(t.op(0).duration_ns, 2000);
    EXPECT_EQ(t.op(1).bytes, 4096u);
  }
}

TEST(Kineto, ProcessGroupRanksAreDistinctWholeNumbers) {
  // Found by the coverage-guided fuzzer (tests/data/fuzz/regressions/kineto/group-ranks-*): a
  // rank listed twice made a group the CSV reader refuses (its round trip failed), and a rank
  // that is no number ("# 4") was read as rank 0 by strtod. Both are now refused, naming the event.
  auto allreduce = [](const std::string& ranks) {
    return R"json({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)",
      "ts": 1.0, "dur": 5.0, "args": {"device": 0, "Collective name": "allreduce", "In msg nelems": 10,
      "Out msg nelems": 10, "dtype": "Float", "Process Group Ranks": ")json" + ranks + R"json("}}]})json";
  };
  EXPECT_EQ(error_of([&] { (void)parse_kineto(allreduce("[5, 1, 2, 5]"), "twice.json"); }),
            "twice.json: event 1: \"Process Group Ranks\" lists rank 5 twice; a collective's ranks are distinct");
  EXPECT_EQ(error_of([&] { (void)parse_kineto(allreduce("[0, 1, 2, 3,# 4]"), "hash.json"); }),
            "hash.json: event 1: rank '# 4' in \"Process Group Ranks\" is not a rank (a whole number 0 to 4095)");
  EXPECT_EQ(error_of([&] { (void)parse_kineto(allreduce("[0, 1.5]"), "half.json"); }),
            "half.json: event 1: rank '1.5' in \"Process Group Ranks\" is not a rank (a whole number 0 to 4095)");
  EXPECT_EQ(parse_kineto(allreduce("[3, 0]"), "ok.json").group(1).size(), 2u);
}

TEST(Kineto, CollectiveArgsPyTorchWritesShortOrLeavesOutAreReadAndSaid) {
  // A robustness hunt (round 27), each in the shape PyTorch's record_param_comms writes.
  const auto kernel = [](const std::string& name, const std::string& args) {
    return R"json({"traceEvents": [{"ph": "X", "cat": "kernel", "name": ")json" + name +
           R"json(", "ts": 1.0, "dur": 5.0, "args": {"device": 0, )json" + args + "}}]}";
  };
  const std::string allreduce = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)";
  // A group of more than 30 ranks is listed cut short ("[0, 1, ..., 29, ...]"): every trace of a
  // 32-GPU job was refused ("rank '...' is not a rank"). Read with its "Group size".
  std::string listed;
  for (int r = 0; r < 30; ++r) listed += std::to_string(r) + ", ";
  const Trace big = parse_kineto(kernel(allreduce, R"("Collective name": "allreduce", "In msg nelems": 1024, )"
                                                   R"("Out msg nelems": 1024, "dtype": "Float", "Group size": 64, )"
                                                   R"("Process Group Ranks": "[)" + listed + R"(...]")"),
                                 "cut.json");
  ASSERT_EQ(big.size(), 1u);
  const auto members = big.group(big.op(0).group);
  ASSERT_EQ(members.size(), 64u);
  EXPECT_EQ(big.endpoint_name(members.back()), "gpu63");
  EXPECT_THAT(big.warnings, testing::Contains(HasSubstr("1 NCCL kernels list their group's ranks cut short")));
  EXPECT_EQ(error_of([&] {
              (void)parse_kineto(kernel(allreduce, R"("Collective name": "allreduce", "In msg nelems": 8, "dtype": )"
                                                   R"("Float", "Process Group Ranks": "[0, 1, ...]")"),
                                 "nosize.json");
            }),
            "nosize.json: event 1: \"Process Group Ranks\" is cut short ('...', as PyTorch lists a group of more than "
            "30 ranks) and no \"Group size\" says how many ranks follow; record with a PyTorch that writes \"Group "
            "size\" (2.1 and later)");
  // A size in elements with no dtype: counted a byte an element, as an unknown dtype is, and said
  // (it was unsaid: 1 MiB for a float allreduce of 4 MiB).
  const Trace untyped = parse_kineto(
      kernel(allreduce, R"("Collective name": "allreduce", "In msg nelems": 1048576, "Process Group Ranks": "[0, 1]")"),
      "untyped.json");
  EXPECT_EQ(untyped.op(0).bytes, 1048576u);
  EXPECT_THAT(untyped.warnings, testing::Contains(HasSubstr("1 NCCL kernels give their size in elements but no "
                                                            "\"dtype\": counted 1 byte per element")));
  // A broadcast's root is not recorded: taken as the group's first rank, and said.
  const Trace bcast = parse_kineto(kernel("ncclDevKernel_Broadcast_RING_LL(x)",
                                          R"("Collective name": "broadcast", "In msg nelems": 8, "dtype": "Float", )"
                                          R"("Process Group Ranks": "[0, 1]")"),
                                   "bcast.json");
  EXPECT_THAT(bcast.warnings, testing::Contains(HasSubstr("PyTorch's profiler records no root")));
  // An all-to-all whose split sizes differ is spread evenly: said (every check read "ok").
  const std::string a2a = "ncclDevKernel_SendRecv(x)";
  const std::string a2a_args = R"("Collective name": "all_to_all", "In msg nelems": 2048, "Out msg nelems": 2048, )"
                               R"("dtype": "Float", "Process Group Ranks": "[0, 1]", )";
  EXPECT_THAT(parse_kineto(kernel(a2a, a2a_args + R"("In split size": "[1, 1023]")"), "uneven.json").warnings,
              testing::Contains(HasSubstr("1 all-to-all kernels split their data unevenly")));
  EXPECT_THAT(parse_kineto(kernel(a2a, a2a_args + R"("In split size": [512, 512.0])"), "even.json").warnings,
              testing::Not(testing::Contains(HasSubstr("unevenly"))));
  // A list of more than 30 ends in PyTorch's "...", which is no size.
  EXPECT_THAT(parse_kineto(kernel(a2a, a2a_args + R"("In split size": "[64, 64, 64, ...]")"), "long.json").warnings,
              testing::Not(testing::Contains(HasSubstr("unevenly"))));
  // Ranks continued past the last a node holds, and a Group size no larger than the ranks listed.
  EXPECT_THAT([&] {
    (void)parse_kineto(kernel(allreduce, R"("Collective name": "allreduce", "In msg nelems": 8, "dtype": "Float", )"
                                         R"("Group size": 40, "Process Group Ranks": "[4095, ...]")"),
                       "far.json");
  }, ThrowsMessage<InputError>(HasSubstr("reaches rank 4134, more than linkcast places on a node (ranks 0 to 4095)")));
  EXPECT_THAT([&] {
    (void)parse_kineto(kernel(allreduce, R"("Collective name": "allreduce", "In msg nelems": 8, "dtype": "Float", )"
                                         R"("Group size": 2, "Process Group Ranks": "[0, 1, ...]")"),
                       "small.json");
  }, ThrowsMessage<InputError>(HasSubstr("is cut short ('...') after 2 ranks, but its \"Group size\" 2 is no whole "
                                         "number of more ranks")));
}

TEST(Kineto, AGroupListedCutShortWithItsLastRankIsReadWhole) {
  // A robustness hunt (round 28): PyTorch's rewritten collective metadata cuts a list of more than
  // 30 as its first 29 entries, "...", and its last ("[0, 1, ..., 28, ..., 30]": the PyTorch test
  // CollectiveMetadataTest.PreservesListTruncation), which was refused as "edited or corrupt".
  const auto allreduce = [](const std::string& ranks, const std::string& extra) {
    return R"json({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)",
      "ts": 1.0, "dur": 5.0, "args": {"device": 0, "Collective name": "allreduce", "In msg nelems": 8,
      "dtype": "Float", "Group size": 64, "Process Group Ranks": ")json" + ranks + "\"" + extra + "}}]}";
  };
  const auto listed = [](int stride) {
    std::string s = "[";
    for (int r = 0; r < 29; ++r) s += std::to_string(r * stride) + ", ";
    return s + "..., " + std::to_string(63 * stride) + "]";
  };
  // Ranks 0..63, and ranks 0, 2, ..., 126 (a group of every other rank): the ranks cut are the
  // evenly spaced ones between the 29th and the last.
  for (const int stride : {1, 2}) {
    const Trace t = parse_kineto(allreduce(listed(stride), ""), "cut_last.json");
    const auto members = t.group(t.op(0).group);
    ASSERT_EQ(members.size(), 64u) << stride;
    EXPECT_EQ(t.endpoint_name(members[29]), fmt::format("gpu{}", 29 * stride));
    EXPECT_EQ(t.endpoint_name(members.back()), fmt::format("gpu{}", 63 * stride));
  }
  // "Global rank start" and "Global rank stride" give the group where the trace has them; a list
  // that disagrees with them, or a last rank no even spacing reaches, is refused.
  const Trace given = parse_kineto(allreduce(listed(2), R"(, "Global rank start": 0, "Global rank stride": 2)"), "s.json");
  EXPECT_EQ(given.endpoint_name(given.group(given.op(0).group).back()), "gpu126");
  EXPECT_THAT([&] { (void)parse_kineto(allreduce(listed(2), R"(, "Global rank start": 1, "Global rank stride": 2)"), "d.json"); },
              ThrowsMessage<InputError>(HasSubstr("d.json: event 1: \"Process Group Ranks\" (cut short) disagrees with "
                                                  "the group its \"Global rank start\" 1")));
  std::string uneven = listed(1);
  uneven.replace(uneven.find("..., 63"), 7, "..., 64");
  EXPECT_THAT([&] { (void)parse_kineto(allreduce(uneven, ""), "u.json"); },
              ThrowsMessage<InputError>(HasSubstr("cut short ('...') before its last rank 64, and its \"Group size\" 64 "
                                                  "leaves 35 ranks after rank 28 that no even spacing reaches")));
  EXPECT_THAT([&] { (void)parse_kineto(allreduce("[0, 1, ..., 62, 63]", ""), "two.json"); },
              ThrowsMessage<InputError>(HasSubstr("goes on after its '...' by more than one rank")));
  // A robustness hunt (round 30): a "Group size" of -4 or [4] was read as absent (the collective a
  // kernel, the warning saying the trace gives no size): refused by name.
  std::string negative = allreduce("[0, 1]", "");
  negative.replace(negative.find("\"Group size\": 64"), 16, "\"Group size\": -4");
  EXPECT_THAT([&] { (void)parse_kineto(negative, "neg.json"); },
              ThrowsMessage<InputError>(HasSubstr("neg.json: event 1: \"Group size\" -4 is no count of ranks")));
  std::string listed_size = allreduce("[0, 1]", "");
  listed_size.replace(listed_size.find("\"Group size\": 64"), 16, "\"Group size\": [4]");
  EXPECT_THAT([&] { (void)parse_kineto(listed_size, "list.json"); },
              ThrowsMessage<InputError>(HasSubstr("list.json: event 1: Group size [4] is not a count of ranks")));
}

TEST(Kineto, NamesThatAreNoUtf8AreReadWithReplacementCharacters) {
  // A robustness hunt (round 29): libkineto writes names as the system gives them, and Linux
  // cuts a thread's at 15 bytes, through a character where it must ("trainer-éé" cut after the
  // first byte of an "é"); a trace with such bytes in an event was refused whole ("event 1 is not
  // valid JSON (The input is not valid UTF-8)"). The event is read with U+FFFD in place of the
  // bytes, and said.
  const Trace t = parse_kineto("{\"traceEvents\": [\n"
                               "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pinned -> Device)\", "
                               "\"ts\": 1.0, \"dur\": 2.0, \"args\": {\"device\": 0, \"stream\": 7, \"bytes\": 4096, "
                               "\"thread\": \"trainer-\xc3\xa9\xc3\"}}]}",
                               "cut_name.json");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t.op(0).bytes, 4096u);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr("cut_name.json: 1 events hold bytes that are no UTF-8")));
}

TEST(Kineto, BareNonFiniteNumbersAreReadAsNull) {
  // PyTorch 1.8's Kineto wrote "memory bandwidth (GB/s)": inf for a copy of no duration
  // (pytorch/kineto#105): not JSON, and the whole file was refused ("event 434 is not valid
  // JSON"). The event is read with its non-finite numbers as null and the copy kept; a string
  // holding "inf" stays as it is, and an event broken otherwise is still refused.
  const Trace t = parse_kineto(R"json({"traceEvents": [
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "ts": 1.0, "dur": 0,
     "args": {"device": 0, "stream": 7, "bytes": 4096, "memory bandwidth (GB/s)": inf, "note": "inf, nan"}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "ts": 2.0, "dur": 1.0,
     "args": {"device": 0, "stream": 7, "bytes": 8192, "memory bandwidth (GB/s)": -nan}}]})json",
                               "inf.json");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.op(0).bytes, 4096u);
  EXPECT_EQ(t.op(1).bytes, 8192u);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr("2 events carry bare non-finite numbers")));
  EXPECT_THROW((void)parse_kineto(R"json({"traceEvents": [{"ph": "X", "cat": "gpu_memcpy", "ts": inf, "dur": 1,,}]})json",
                                  "broken.json"),
               InputError);
}

TEST(Kineto, CopiesThatNameNeitherPinnedNorPageableHostMemoryAreSaidToBeTakenAsPinned) {
  // ROCm's profiler writes "Memcpy HtoD (Host -> Device)": no pinned or pageable. Such copies are
  // priced as pinned, and a projection scored against an H100 trace of the same program matched 5
  // of its 85 copies, silently. The reader now says what it took them for.
  const Trace t = parse_kineto(R"json({"traceEvents": [
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Host -> Device)", "ts": 1.0, "dur": 2.0,
     "args": {"device": 2, "stream": 7, "bytes": 4096}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Host)", "ts": 4.0, "dur": 2.0,
     "args": {"device": 2, "stream": 7, "bytes": 4096}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "ts": 8.0, "dur": 2.0,
     "args": {"device": 2, "stream": 7, "bytes": 4096}}]})json",
                               "rocm.json");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr("2 copies between the host and a GPU say neither pinned nor "
                                                      "pageable host memory (the first: \"Memcpy HtoD (Host -> "
                                                      "Device)\"")));
}

TEST(Kineto, AnMtiaTraceIsSaidToHoldAnotherAcceleratorsActivity) {
  // Meta's MTIA traces (HolisticTraceAnalysis' test data) hold their device's work as
  // "mtia_ccp_events" and "mtia_runtime" events, no CUDA categories: the warning told the user to
  // record with ProfilerActivity.CUDA, which an MTIA machine cannot. It now names the device.
  const Trace t = parse_kineto(R"json({"record_shapes": 1, "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "ts": 1.0, "dur": 2.0, "pid": 1, "tid": 1},
    {"ph": "X", "cat": "mtia_ccp_events", "name": "dma_request", "ts": 2.0, "dur": 1.0, "pid": 2, "tid": 3},
    {"ph": "X", "cat": "mtia_runtime", "name": "launch", "ts": 1.5, "dur": 0.5, "pid": 1, "tid": 1}]})json",
                               "mtia.json");
  EXPECT_EQ(t.size(), 0u);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr("its 2 device events are a Meta MTIA accelerator's (categories "
                                                      "mtia_*), which linkcast does not read")));
  EXPECT_THAT(t.warnings, testing::Not(testing::Contains(HasSubstr("ProfilerActivity.CUDA"))));
}

TEST(Kineto, ATraceOfCuptiRangeProfilerRecordsIsSaidToHoldNoKernelTimes) {
  // A robustness hunt (round 31): HolisticTraceAnalysis' tests/data/cupti_profiler trace holds 77
  // kernel launches and 77 "cuda_profiler_range" events (each a kernel replayed for hardware
  // counters, its time not its run time) and no kernel records: the warning told the user to
  // record CUDA activity, which they had. The event below is written for this test in that form.
  const Trace t = parse_kineto(R"json({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 1.0, "dur": 2.0, "pid": 1, "tid": 1,
     "args": {"correlation": 5}},
    {"ph": "X", "cat": "cuda_profiler_range", "name": "void add_kernel<float>", "ts": 3.0, "dur": 40.0, "pid": 0,
     "tid": 7, "args": {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 0}}]})json",
                               "range_profiler.json");
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr("its 1 kernels are CUPTI range-profiler records (category "
                                                      "cuda_profiler_range")));
  EXPECT_THAT(t.warnings, testing::Not(testing::Contains(HasSubstr("ProfilerActivity.CUDA"))));
}

TEST(Kineto, UnsizedCollectivesOfATraceRecordedWithShapesAreSaidToHaveLostTheirOperators) {
  // A 2-rank pair cut from a 128-rank job (HolisticTraceAnalysis' test data) says "record_shapes":
  // 1, but its NCCL kernels' External ids match no record_param_comms operator: the trace was
  // filtered. The warning blamed record_shapes=True, which the file's own header contradicts.
  const std::string kernel = R"json({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
     "ts": 10.0, "dur": 5.0, "pid": 0, "tid": 7, "args": {"device": 0, "stream": 7, "External id": 99,
     "Collective name": "allreduce", "Process Group Ranks": "[0, 1]"}})json";
  const Trace with = parse_kineto(R"({"record_shapes": 1, "traceEvents": [)" + kernel + "]}", "shapes.json");
  EXPECT_THAT(with.warnings, testing::Contains(HasSubstr("1 NCCL kernels carry no message size (the file says "
                                                         "record_shapes, so the operators that launched them")));
  const Trace without = parse_kineto(R"({"traceEvents": [)" + kernel + "]}", "noshapes.json");
  EXPECT_THAT(without.warnings, testing::Contains(HasSubstr("(recorded without record_shapes=True")));
}

TEST(Kineto, NegativeOrFractionalCountsAreRefusedAndNegativeDurationsSaid) {
  // Hostile copies of real traces (a robustness hunt): "bytes": -4096 and "In msg nelems": -1 were
  // read as absent ("recorded by a profiler that did not write it"), 4096.5 bytes and 1.5 elements
  // accepted, and a negative "dur" read as 0 ns without a word, where the Nsight reader refuses
  // negative bytes and warns of records that end before they start.
  const auto copy = [](const std::string& args, const std::string& dur) {
    return R"json({"traceEvents": [{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "ts": 1.0, "dur": )json" +
           dur + R"json(, "args": {"device": 0, "stream": 7, )json" + args + "}}]}";
  };
  EXPECT_THAT([&] { (void)parse_kineto(copy(R"("bytes": -4096)", "2.0"), "neg.json"); },
              ThrowsMessage<InputError>(HasSubstr("event 1: bytes -4096 is not a count (a whole number, 0 or more)")));
  EXPECT_THAT([&] { (void)parse_kineto(copy(R"("bytes": 4096.5)", "2.0"), "frac.json"); },
              ThrowsMessage<InputError>(HasSubstr("event 1: bytes 4096.5 is not a count")));
  const Trace t = parse_kineto(copy(R"("bytes": 4096)", "-1000"), "negdur.json");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t.op(0).duration_ns, 0);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr("1 events end before they start (a negative \"dur\"): read as "
                                                      "taking 0 ns")));
  const std::string kernel = R"json({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)",
     "ts": 10.0, "dur": 5.0, "args": {"device": 0, "stream": 7, "Collective name": "allreduce", "dtype": "Float",
     "In msg nelems": -1, "Out msg nelems": -1, "Process Group Ranks": "[0, 1]"}}]})json";
  EXPECT_THAT([&] { (void)parse_kineto(kernel, "nelems.json"); },
              ThrowsMessage<InputError>(HasSubstr("event 1: In msg nelems -1 is not a count")));
  // "Group size" 8 beside two listed ranks: the ranks are taken, and the disagreement said.
  std::string grouped = kernel;
  grouped.replace(grouped.find("\"In msg nelems\": -1, \"Out msg nelems\": -1"), 41,
                  "\"In msg nelems\": 16, \"Out msg nelems\": 16, \"Group size\": 8");
  const Trace g = parse_kineto(grouped, "group.json");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g.group(g.op(0).group).size(), 2u);
  EXPECT_THAT(g.warnings, testing::Contains(HasSubstr("1 NCCL kernels give a \"Group size\" other than the number of "
                                                      "ranks their \"Process Group Ranks\" lists")));
}

TEST(Kineto, ARankOutsideItsJobIsRefused) {
  // A hostile edit of a real trace (a robustness hunt): distributedInfo's rank 5 of world_size 2
  // was accepted, and the trace placed as rank 5. A rank is below its job's size: refused, naming
  // the two values. (A key given twice takes its last value, as Python's json and HTA read it:
  // EventsPassedOverUnparsedAreExactlyThoseAFullParseDrops.)
  const auto job = [](int rank, int world) {
    return fmt::format(R"json({{"distributedInfo": {{"backend": "nccl", "rank": {}, "world_size": {}}},
      "traceEvents": [{{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "ts": 1.0,
      "dur": 2.0, "args": {{"device": 0, "stream": 7, "bytes": 4096}}}}]}})json",
                       rank, world);
  };
  EXPECT_EQ(parse_kineto(job(1, 2), "rank1.json").rank, 1);
  EXPECT_THAT([&] { (void)parse_kineto(job(5, 2), "rank5.json"); },
              ThrowsMessage<InputError>(HasSubstr("rank5.json: distributedInfo gives rank 5 of a job of world_size 2 "
                                                  "(ranks 0 to 1)")));
  // Round 25: rank -1 or 1.5 and world_size 0 or -2 were read as not given (1.5 as rank 1) and
  // merged without a word; each is refused as written.
  const auto text = [](const std::string& rank, const std::string& world) {
    return R"json({"distributedInfo": {"backend": "nccl", "rank": )json" + rank + R"json(, "world_size": )json" + world +
           R"json(}, "traceEvents": [{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)",
           "ts": 1.0, "dur": 2.0, "args": {"device": 0, "stream": 7, "bytes": 4096}}]})json";
  };
  EXPECT_THAT([&] { (void)parse_kineto(text("-1", "4"), "neg.json"); },
              ThrowsMessage<InputError>(HasSubstr("neg.json: distributedInfo gives rank -1, which is no rank (0 to "
                                                  "1000000)")));
  EXPECT_THAT([&] { (void)parse_kineto(text("1.5", "4"), "half.json"); },
              ThrowsMessage<InputError>(HasSubstr("gives rank 1.5, which is no rank")));
  EXPECT_THAT([&] { (void)parse_kineto(text("1", "0"), "ws0.json"); },
              ThrowsMessage<InputError>(HasSubstr("gives world_size 0, which is no job size (1 to 1000000)")));
  EXPECT_THAT([&] { (void)parse_kineto(text("1", "\"two\""), "ws.json"); },
              ThrowsMessage<InputError>(HasSubstr("gives world_size \"two\", which is no job size")));
  EXPECT_EQ(parse_kineto(text("null", "null"), "nulls.json").rank, -1);
}

TEST(Kineto, AnAllreduceWhoseInputAndOutputDisagreeIsSaid) {
  // A hostile edit of a real trace (a robustness hunt): an allreduce kernel's "Out msg nelems" set
  // to 1 beside "In msg nelems" 6637568 was read without a word. An allreduce's input and output
  // hold the same elements: the input's count is taken (16 floats, 64 B) and the disagreement said;
  // an all-gather's output is its group's inputs together, so it differs without a word.
  const auto kernel = [](const std::string& name, const std::string& coll, int in, int out) {
    return fmt::format(R"json({{"traceEvents": [{{"ph": "X", "cat": "kernel", "name": "{}", "ts": 10.0, "dur": 5.0,
      "args": {{"device": 0, "stream": 7, "Collective name": "{}", "dtype": "Float", "In msg nelems": {},
      "Out msg nelems": {}, "Process Group Ranks": "[0, 1]"}}}}]}})json",
                       name, coll, in, out);
  };
  const Trace odd = parse_kineto(kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)", "allreduce", 16, 1), "odd.json");
  ASSERT_EQ(odd.size(), 1u);
  EXPECT_EQ(odd.op(0).bytes, 64u);
  EXPECT_THAT(odd.warnings, testing::Contains(HasSubstr("odd.json: 1 allreduce kernels give an \"In msg nelems\" other "
                                                        "than their \"Out msg nelems\"")));
  const Trace gather = parse_kineto(kernel("ncclDevKernel_AllGather_RING_LL(x)", "_allgather_base", 16, 32), "ag.json");
  EXPECT_THAT(gather.warnings, testing::Not(testing::Contains(HasSubstr("other than their"))));
}

TEST(TraceFormat, AByteOrderMarkAtTheStartIsPassedOver) {
  // A hunt's Kineto trace saved with a UTF-8 byte-order mark was taken for a CSV ("unknown column
  // '\xEF\xBB\xBF' in the header"); a CSV saved by a spreadsheet as "CSV UTF-8" starts with one too.
  // Both are read as without it.
  const std::string bom(kUtf8Bom);
  const std::string csv = test::write_temp("bom.csv", bom + "kind,src,dst,bytes,start_ns,duration_ns\n"
                                                            "copy,cpu0,gpu0,4096,0,1000\n");
  const Trace from_csv = read_trace(csv);
  ASSERT_EQ(from_csv.size(), 1u);
  EXPECT_EQ(from_csv.op(0).bytes, 4096u);
  const std::string json = test::write_temp(
      "bom.json", bom + R"json({"traceEvents": [{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)",
      "ts": 1.0, "dur": 2.0, "args": {"device": 0, "stream": 7, "bytes": 4096}}]})json");
  EXPECT_EQ(detect_trace_format(json), "kineto");
  ASSERT_EQ(read_trace(json).size(), 1u);
}

TEST(Kineto, ASecondDocumentOrASecondEventListIsRefused) {
  // Hostile edits of a real trace (a robustness hunt), each read without a word: a second JSON
  // document appended after the first (only the first was read; Python's json refuses the file),
  // and "traceEvents" given twice (joined here, where Python's json and HTA keep the last list).
  const std::string events = R"json("traceEvents": [{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)",
      "ts": 1.0, "dur": 2.0, "args": {"device": 0, "stream": 7, "bytes": 4096}}])json";
  EXPECT_EQ(parse_kineto("{" + events + "}\n", "one.json").size(), 1u);
  EXPECT_THAT([&] { (void)parse_kineto("{" + events + "}\n{" + events + "}", "two.json"); },
              ThrowsMessage<InputError>(HasSubstr("text after the trace's closing brace (a second JSON document?)")));
  EXPECT_THAT([&] { (void)parse_kineto("{" + events + ", " + events + "}", "twice.json"); },
              ThrowsMessage<InputError>(HasSubstr("\"traceEvents\" is given twice")));
}

TEST(TraceFormat, JsonHoldingNoTraceAndDoubleGzipAreNamed) {
  // A hunt's files got a CSV reader's messages ("unknown column 'null'", "empty trace: no header
  // line") or "binary data": a .json holding null or a number, a gzip'd empty file, and a trace
  // gzip'd twice. Each is named as what it is.
  EXPECT_THAT([] { (void)read_trace(test::write_temp("null.json", "null\n")); },
              ThrowsMessage<InputError>(HasSubstr("null.json: a JSON value other than an object or a list, not a "
                                                  "PyTorch profiler / Kineto Chrome trace")));
  EXPECT_THAT([] { (void)read_trace(test::write_temp("n.json", "42")); },
              ThrowsMessage<InputError>(HasSubstr("a JSON value other than an object or a list")));
  const auto gz_file = [](const std::string& name, const std::string& body) {
    const std::string path = ::testing::TempDir() + name;
    gzFile f = gzopen(path.c_str(), "wb");
    gzwrite(f, body.data(), static_cast<unsigned>(body.size()));
    gzclose(f);
    return path;
  };
  const std::string empty_gz = gz_file("e.json.gz", "");
  EXPECT_THAT([&] { (void)read_trace(empty_gz); },
              ThrowsMessage<InputError>(HasSubstr("no text (an empty file, or gzip'd empty data)")));
  const std::string twice = gz_file("t.json.gz", test::read_file(gz_file("inner.json.gz", "{\"traceEvents\": []}")));
  EXPECT_THAT([&] { (void)read_trace(twice); }, ThrowsMessage<InputError>(HasSubstr("t.json.gz: gzip'd twice")));
}

TEST(TextFiles, Utf16AndByteOrderMarksBecomeUtf8Text) {
  // core/utf8's utf8_text: the bytes a text file may hold from another machine.
  EXPECT_EQ(utf8_text("plain"), "plain");
  EXPECT_EQ(utf8_text(std::string(kUtf8Bom) + "GPU0"), "GPU0");
  // UTF-16LE and BE with their marks (PowerShell writes LE), a non-ASCII character and a pair.
  EXPECT_EQ(utf8_text(std::string("\xFF\xFEG\0P\0U\0", 8)), "GPU");
  EXPECT_EQ(utf8_text(std::string("\xFE\xFF\0G\0\xE9", 6)), "G\xC3\xA9");
  EXPECT_EQ(utf8_text(std::string("\xFF\xFE\x3D\xD8\x00\xDE", 6)), "\xF0\x9F\x98\x80");
  // An odd length or an unpaired surrogate is no UTF-16.
  EXPECT_EQ(utf8_text(std::string("\xFF\xFEG", 3)), std::nullopt);
  EXPECT_EQ(utf8_text(std::string("\xFF\xFE\x00\xDC", 4)), std::nullopt);
}

TEST(TraceFormat, ATraceSpanningMoreThanAWeekIsSaid) {
  // A hunt's Nsight export with one runtime call ending at 2^63 ns simulated to a makespan of
  // 9.2e9 s without a word. A span of more than a week (no profiler records one) is said.
  const std::string csv = test::write_temp("span.csv", "kind,src,dst,bytes,start_ns,duration_ns\n"
                                                       "copy,cpu0,gpu0,8,0,1000\n"
                                                       "copy,cpu0,gpu0,8,9000000000000000000,1000\n");
  EXPECT_THAT(read_trace(csv).warnings, testing::Contains(HasSubstr("the trace spans 1.04e+05 days")));
  const std::string day = test::write_temp("day.csv", "kind,src,dst,bytes,start_ns,duration_ns\n"
                                                      "copy,cpu0,gpu0,8,0,1000\n"
                                                      "copy,cpu0,gpu0,8,86400000000000,1000\n");
  EXPECT_THAT(read_trace(day).warnings, testing::Not(testing::Contains(HasSubstr("the trace spans"))));
}

TEST(Kineto, ACopyRepeatedExactlyIsSaid) {
  // A hunt's trace with its 16 copy events appended again (same ts, stream, correlation) read as 32
  // copies, 466 MiB for 233, without a word. A repeat of name, device, stream, start and
  // correlation id is said (and counted as read: the reader keeps what the file holds); a second
  // copy at another time is not a repeat.
  const std::string one = R"json({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "ts": 1.0,
     "dur": 2.0, "args": {"device": 0, "stream": 7, "correlation": 11, "bytes": 4096}})json";
  const std::string later = R"json({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "ts": 5.0,
     "dur": 2.0, "args": {"device": 0, "stream": 7, "correlation": 12, "bytes": 4096}})json";
  const Trace t = parse_kineto("{\"traceEvents\": [" + one + ", " + later + ", " + one + "]}", "dup.json");
  EXPECT_EQ(t.size(), 3u);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr("1 copies, memsets or collectives repeat an earlier one exactly")));
  const Trace clean = parse_kineto("{\"traceEvents\": [" + one + ", " + later + "]}", "clean.json");
  EXPECT_THAT(clean.warnings, testing::Not(testing::Contains(HasSubstr("repeat an earlier one"))));
}

TEST(TraceFormat, ByteCountsNoDeviceHoldsOrNoSumKeepsExactAreRefused) {
  // A hunt's hostile trace gave three copies 2^63 - 1 bytes each: `matrix` printed their sum
  // modulo 2^64 with exit 0. A record of more than 16 TiB (no device holds it) is refused naming
  // it, and a trace whose records move more than 8 PiB together (the matrices' 64-bit sums of a
  // collective's bytes per rank pair stay exact below that) is refused too.
  const std::string huge = test::write_temp("huge.csv", "kind,src,dst,bytes\ncopy,cpu0,gpu0,8\ncopy,cpu0,gpu0,9223372036854775807\n");
  EXPECT_THAT([&] { (void)read_trace(huge); },
              ThrowsMessage<InputError>(HasSubstr("record 2 (line 3): 9223372036854775807 bytes, more than any device holds")));
  std::string many = "kind,src,dst,bytes\n";
  for (int i = 0; i < 520; ++i) many += "copy,cpu0,gpu0,17592186044416\n";  // 16 TiB each: 8.1 PiB in all
  EXPECT_THAT([&] { (void)read_trace(test::write_temp("many.csv", many)); },
              ThrowsMessage<InputError>(HasSubstr("its operations move more than")));
}

TEST(Kineto, TruncatedJsonIsRejected) {
  const std::string err = error_of([] { (void)parse_kineto(R"({"traceEvents": [{"ph": "X", "cat": "gpu_me)", "cut.json"); });
  // The stream scanner sees the event's braces never close: it names the byte and says why.
  EXPECT_EQ(err, "cut.json: byte 17: the file ends inside an event; it is truncated");
  EXPECT_EQ(error_of([] { (void)parse_kineto(R"({"schemaVersion": 1})", "other.json"); }),
            "other.json: JSON without a \"traceEvents\" list: not a PyTorch profiler / Kineto Chrome trace");
  // A PyTorch execution trace (ExecutionTraceObserver, as Chakra and param's et_replay read it;
  // users mix the two up) is named as such, with what to record instead.
  EXPECT_THAT(error_of([] {
                (void)parse_kineto(R"({"schema": "1.1.0-chakra.0.0.4", "pid": 1, "time": "x", "nodes": [{"id": 1}]})",
                                   "resnet_et.json");
              }),
              HasSubstr("resnet_et.json: a PyTorch execution trace (ExecutionTraceObserver's \"nodes\"), not a "
                        "profiler trace"));
}

TEST(Kineto, TruncatedGzipIsRejected) {
  const std::string src = test::read_file(test::source_dir() + "/tests/data/real/h100-1gpu/torch_copy_sweep.json.gz");
  const std::string cut = test::write_temp("cut.json.gz", src.substr(0, src.size() / 2));
  const std::string err = error_of([&] { (void)read_trace(cut); });
  EXPECT_THAT(err, HasSubstr("the gzip file is corrupt or truncated"));
}

}  // namespace
}  // namespace linkcast::trace
