// trace/profiler_db and trace/sqlite_db on real Nsight Systems exports from tests/data/wild (gzip'd)
// and on copies of them edited into what a corrupt or hostile export could hold (issue 15
// "Traces", issue 16 "signed overflow on timestamps", "a device id of 1e9"). Each test names the
// system, the input, the expectation and the reason.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <zlib.h>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "test_util.hpp"
#include "trace/reader.hpp"

namespace linkcast::trace {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

std::string wild(const std::string& relative) { return test::source_dir() + "/tests/data/wild/" + relative; }

/// The real H200 export (Nsight Systems 2024.6; one DtoH copy of 1 byte, one memset of 4 bytes,
/// 19 kernels), gunzipped into a temporary file and edited by `sql`.
std::string edited_fuser(const std::string& name, const std::string& sql) {
  const std::string path = ::testing::TempDir() + name;
  const std::string bytes = InputFile(wild("nsys/fuser_h200_nsys2024.6_memcpy_memset.sqlite.gz")).read_all();
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
  return path;
}

TEST(NsysExport, AGzippedRealExportIsRead) {
  // System: read_trace on fuser_h200 (a real export, gzip'd as tests/data ships it; it was read as
  // CSV and refused). Expected, as count.py counts it: one DtoH copy of 1 byte device -> pinned on
  // gpu0, one memset of 4 bytes, the GPU's name from TARGET_INFO_GPU.
  const std::string path = wild("nsys/fuser_h200_nsys2024.6_memcpy_memset.sqlite.gz");
  EXPECT_EQ(detect_trace_format(path), "nsys");
  const Trace t = read_trace(path);
  ASSERT_EQ(t.size(), 2u);
  std::size_t copies = 0, memsets = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Op op = t.op(i);
    if (op.kind == OpKind::copy) {
      ++copies;
      EXPECT_EQ(op.bytes, 1u);
      EXPECT_EQ(t.endpoint_name(op.src), "gpu0");
      EXPECT_EQ(t.endpoint_name(op.dst), "host");
      EXPECT_EQ(op.src_mem, model::MemKind::device);
      EXPECT_EQ(op.dst_mem, model::MemKind::pinned);
    } else if (op.kind == OpKind::memset) {
      ++memsets;
      EXPECT_EQ(op.bytes, 4u);
    }
  }
  EXPECT_EQ(copies, 1u);
  EXPECT_EQ(memsets, 1u);
  EXPECT_EQ(t.device_names.at(0), "NVIDIA H200");
}

TEST(NsysExport, EveryExportWithoutCudaTablesIsReadWithTheSameWarning) {
  // Exports without CUDA tables were treated two ways: with TARGET_INFO_GPU they were read (with a
  // warning), without it (a machine with no GPU visible, or an older nsys) refused as "not an
  // nvprof or Nsight Systems export". Both now read with 0 operations and one warning that says
  // what is missing and how to record it.
  const std::string with_gpus = edited_fuser("no_cuda.sqlite",
                                             "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY; DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET;"
                                             "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME;"
                                             "DROP TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;");
  const std::string without_gpus = edited_fuser("no_cuda_no_gpu.sqlite",
                                                "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY; DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET;"
                                                "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME;"
                                                "DROP TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION; DROP TABLE TARGET_INFO_GPU;");
  for (const std::string& path : {with_gpus, without_gpus}) {
    EXPECT_EQ(detect_trace_format(path), "nsys") << path;
    const Trace t = read_trace(path);
    EXPECT_EQ(t.size(), 0u);
    ASSERT_EQ(t.warnings.size(), 1u);
    EXPECT_EQ(t.warnings[0], path + ": no GPU transfers (copies, memsets) in this export: it has no "
                                    "CUPTI_ACTIVITY_KIND_MEMCPY or _MEMSET table, so CUDA was not traced (CUPTI tables: "
                                    "none); record with `nsys profile -t cuda,nvtx ./app` and export with `nsys export "
                                    "--type sqlite`");
  }
}

TEST(NsysExport, TimestampsNearTheInt64LimitsAreRefusedNamingTheRecord) {
  // `end - start` of a record near INT64_MIN / INT64_MAX overflowed (undefined behaviour under
  // UBSan); a start before the clock's origin became kUnknownTime-like; a REAL above 2^63 was
  // clamped. Each is refused naming the table and the row.
  const struct {
    const char* sql;
    const char* message;
  } cases[] = {
      {"UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET start = 1, end = -9223372036854775808",
       "table CUPTI_ACTIVITY_KIND_MEMCPY, row 1: end -9223372036854775808 - start 1 overflows 64 bits"},
      {"UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET start = -9223372036854775807, end = 9223372036854775807",
       "table CUPTI_ACTIVITY_KIND_MEMCPY, row 1: start -9223372036854775807 is before the clock's origin"},
      {"UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET end = 1.8e19",
       "table CUPTI_ACTIVITY_KIND_MEMSET, row 1: end 1.8e+19 is not a whole number within 64 bits"},
      {"UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET bytes = -1", "table CUPTI_ACTIVITY_KIND_MEMCPY, row 1: bytes -1 is negative"},
      {"UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET streamId = 4294967296",
       "table CUPTI_ACTIVITY_KIND_MEMCPY, row 1: streamId 4294967296 is not a stream id (0 to 2^32 - 1)"},
  };
  int n = 0;
  for (const auto& c : cases) {
    const std::string path = edited_fuser(fmt::format("overflow{}.sqlite", n++), c.sql);
    EXPECT_THAT([&] { (void)read_trace(path); },
                ThrowsMessage<InputError>(AllOf(HasSubstr(path + ": " + c.message),
                                                HasSubstr("the export is corrupt (or was edited)"))))
        << c.sql;
  }
  // An end before its start is read as 0 ns and said.
  const std::string backwards = edited_fuser("backwards.sqlite", "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET end = start - 5");
  const Trace t = read_trace(backwards);
  EXPECT_THAT(t.warnings, testing::Contains(backwards + ": 1 records of CUPTI_ACTIVITY_KIND_MEMCPY end before they start: "
                                                        "read as taking 0 ns"));
}

TEST(NsysExport, DeviceIdsBeyondAnyNodeAreRefusedNamingTableAndRow) {
  // A device id of 1e9 in TARGET_INFO_GPU sized the device-name vector by it (gigabytes, then
  // "vector::_M_default_append"). Ids above 4095 (trace::kMaxDeviceIndex) are refused.
  const std::string names = edited_fuser("dev_names.sqlite", "UPDATE TARGET_INFO_GPU SET id = 1000000000");
  EXPECT_THAT([&] { (void)read_trace(names); },
              ThrowsMessage<InputError>(HasSubstr(names + ": table TARGET_INFO_GPU, row 1: device id 1000000000 is not a "
                                                          "device index (0 to 4095)")));
  const std::string memcpy = edited_fuser("dev_memcpy.sqlite", "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET deviceId = 4096");
  EXPECT_THAT([&] { (void)read_trace(memcpy); },
              ThrowsMessage<InputError>(HasSubstr(memcpy + ": table CUPTI_ACTIVITY_KIND_MEMCPY, row 1: deviceId 4096 is "
                                                           "not a device index (0 to 4095)")));
}

/// An nvprof database with the tables and columns the AHEAD files (nvprof 9/10) have: StringTable,
/// Version, CUPTI_ACTIVITY_KIND_MEMCPY and _CONCURRENT_KERNEL (names are StringTable ids).
std::string make_nvprof_with_nccl(const std::string& name) {
  const std::string path = ::testing::TempDir() + name;
  std::remove(path.c_str());
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  const char* sql =
      "CREATE TABLE StringTable (_id_ INTEGER PRIMARY KEY, value TEXT);"
      "CREATE TABLE Version (version INTEGER);"
      "INSERT INTO Version VALUES (11);"
      "INSERT INTO StringTable VALUES (1, 'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)'),"
      " (2, 'ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)'), (3, 'sgemm_128x64_nn');"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (_id_ INTEGER PRIMARY KEY, copyKind INT, srcKind INT, dstKind INT, "
      "flags INT, bytes INT, start INT, end INT, deviceId INT, contextId INT, streamId INT, correlationId INT, "
      "runtimeCorrelationId INT);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (1, 1, 2, 3, 0, 4096, 1000, 2000, 0, 1, 7, 1, 1);"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL (_id_ INTEGER PRIMARY KEY, registersPerThread INT, "
      "start INT, end INT, deviceId INT, contextId INT, streamId INT, gridX INT, gridY INT, gridZ INT, blockX INT, "
      "blockY INT, blockZ INT, staticSharedMemory INT, dynamicSharedMemory INT, correlationId INT, name INT);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL VALUES"
      " (1, 96, 3000, 9000, 0, 1, 13, 2, 1, 1, 256, 1, 1, 0, 4096, 2, 1),"
      " (2, 96, 9000, 12000, 0, 1, 13, 2, 1, 1, 256, 1, 1, 0, 4096, 3, 1),"
      " (3, 64, 12000, 13000, 0, 1, 13, 1, 1, 1, 512, 1, 1, 0, 0, 4, 2),"
      " (4, 128, 13000, 20000, 0, 1, 7, 80, 1, 1, 128, 1, 1, 16384, 0, 5, 3);";
  char* err = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
  return path;
}

TEST(NvprofDatabase, NcclKernelsAreNotIgnoredWithoutAWord) {
  // nvprof records NCCL kernels as kernels: no message size, no communicator. The reader read
  // only copies and dropped them unsaid; now a warning counts them by kind.
  const std::string path = make_nvprof_with_nccl("nccl.nvvp");
  const Trace t = read_trace(path);
  EXPECT_EQ(t.format, "nvprof");
  EXPECT_THAT(t.warnings, testing::Contains(AllOf(
                              HasSubstr(path + ": 3 NCCL kernels in CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL (2 allreduce, "
                                               "1 sendrecv) are not read as collectives"),
                              HasSubstr("the profiler records neither their message size nor their communicator"))));
}

TEST(NvprofDatabase, ADatabaseWithoutTransfersWarnsHowToRecordThem) {
  // An nvprof database whose run made no copy: read, 0 operations, a warning saying what is
  // missing and how to record it (the same rule as Kineto and Nsight Systems).
  const std::string path = make_nvprof_with_nccl("no_copies.nvvp");
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_exec(db, "DELETE FROM CUPTI_ACTIVITY_KIND_MEMCPY", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  const Trace t = read_trace(path);
  EXPECT_EQ(t.size(), 0u);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr(
                              path + ": no GPU transfers (copies, memsets, unified-memory migrations) in this database "
                                     "(CUPTI tables: CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY): "
                                     "record the GPU activity with `nvprof --export-profile FILE.nvvp ./app`")));
}

}  // namespace
}  // namespace linkcast::trace
