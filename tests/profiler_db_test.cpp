// trace/profiler_db and trace/sqlite_db on real Nsight Systems exports from tests/data/wild (gzip'd)
// and on copies of them edited into what a corrupt or hostile export could hold (issue 15
// "Traces", issue 16 "signed overflow on timestamps", "a device id of 1e9"). Each test names the
// system, the input, the expectation and the reason.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <zlib.h>

#include <fmt/format.h>

#include <map>
#include <set>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "test_util.hpp"
#include "trace/reader.hpp"
#include "trace/select.hpp"

namespace linkcast::trace {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;
using ::testing::StartsWith;
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
  const Trace t = data_movement(read_trace(path));
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

TEST(NsysExport, AnExportOfTheCudaApiWithoutGpuActivitySaysSo) {
  // Nsight Systems under WSL2 records the CUDA API calls (a public export: 2114 cudaMemcpy in
  // CUPTI_ACTIVITY_KIND_RUNTIME) and no GPU activity. The warning had said CUDA was not traced and
  // to trace it, which the user had done. It now names the calls and why no GPU work is there;
  // an export whose API calls include no copy says the application moved no data.
  const std::string api_only = edited_fuser("api_only.sqlite",
                                            "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY; DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET;"
                                            "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;");
  const Trace t = read_trace(api_only);
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_THAT(t.warnings[0], testing::MatchesRegex(".*it traced the CUDA API \\([1-9][0-9]* copy and memset calls\\) but "
                                                   "recorded no GPU activity.*under WSL2.*"));
  const std::string no_copies = edited_fuser(
      "api_no_copies.sqlite",
      "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY; DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET; DROP TABLE "
      "CUPTI_ACTIVITY_KIND_KERNEL; DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE nameId IN (SELECT id FROM StringIds "
      "WHERE value LIKE 'cudaMemcpy%' OR value LIKE 'cudaMemset%' OR value LIKE 'cuMemcpy%' OR value LIKE 'cuMemset%');");
  const Trace n = read_trace(no_copies);
  ASSERT_EQ(n.warnings.size(), 1u);
  EXPECT_THAT(n.warnings[0], HasSubstr("none of them a copy or memset) and recorded no GPU activity: the application "
                                       "moved no data while traced"));
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
    EXPECT_EQ(data_movement(t).size(), 0u);
    for (std::size_t i = 0; i < t.size(); ++i) EXPECT_EQ(t.kinds()[i], OpKind::annotation) << "only its NVTX ranges";
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
  // The reader places GPUs by cuDevice, the CUDA index CUPTI's deviceId uses (see
  // GpusArePlacedByTheirCudaIndexNotNsightsOwnNumber).
  const std::string names = edited_fuser("dev_names.sqlite", "UPDATE TARGET_INFO_GPU SET cuDevice = 1000000000");
  EXPECT_THAT([&] { (void)read_trace(names); },
              ThrowsMessage<InputError>(HasSubstr(names + ": table TARGET_INFO_GPU, row 1: cuDevice 1000000000 is not a "
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

TEST(NvprofDatabase, APeerCopyInTheTableWithoutPeersIsSaid) {
  // A hunt's nvprof database with a PtoP copy (copyKind 10) in CUPTI_ACTIVITY_KIND_MEMCPY, the
  // table without srcDeviceId/dstDeviceId (nvprof writes peer copies to MEMCPY2): read as
  // gpu0 -> gpu0 without a word, where the Nsight reader said it. Now said too.
  const std::string path = make_nvprof_with_nccl("ptop.nvvp");
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET copyKind = 10, srcKind = 3", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  EXPECT_THAT(read_trace(path).warnings,
              testing::Contains(HasSubstr(path + ": 1 peer-to-peer (PtoP) memcpy records name no source or destination "
                                                 "GPU")));
  EXPECT_THAT(read_trace(make_nvprof_with_nccl("h2d.nvvp")).warnings,
              Not(testing::Contains(HasSubstr("peer-to-peer (PtoP)"))));
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

TEST(NvprofDatabase, MangledNcclKernelNamesAreCountedToo) {
  // Some nvprof databases keep kernels' mangled names (qcu's 2 x P100 MPI + NCCL logs, nvprof
  // Version 22: "_Z22ncclDevKernel_SendRecvP11ncclDevCommmP8ncclWork"): their 621 NCCL kernels a
  // rank went unsaid, since the check asked for names starting with "nccl". Demangled names with
  // their return type ("void ncclKernel...") count too.
  const std::string path = make_nvprof_with_nccl("mangled.nvvp");
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_exec(db,
               "UPDATE StringTable SET value = '_Z39ncclDevKernel_AllReduce_Sum_f64_RING_LLP11ncclDevCommmP8ncclWork' "
               "WHERE _id_ = 1; UPDATE StringTable SET value = 'void ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)' "
               "WHERE _id_ = 2;",
               nullptr, nullptr, nullptr);
  sqlite3_close(db);
  const Trace t = read_trace(path);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr(
                              path + ": 3 NCCL kernels in CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL (2 allreduce, "
                                     "1 sendrecv) are not read as collectives")));
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

// --- the whole application in an Nsight Systems export -------------------------------------------

/// Operations of `kind` in `t`.
std::vector<Op> ops_of(const Trace& t, OpKind kind) {
  std::vector<Op> out;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t.kinds()[i] == kind) out.push_back(t.op(i));
  return out;
}

TEST(NsysExport, TheWholeApplicationIsReadAsTheKinetoReaderReadsIt) {
  // System: read_trace on fuser_h200 (Nsight Systems 2024.6, one H200, 132 SMs in TARGET_INFO_GPU).
  // Expected, as count.py counts the tables (S9, S10): 19 kernels, 968 runtime and driver calls,
  // 652 NVTX push/pop ranges; 21 of the GPU operations linked by correlationId to their launching
  // call (17 cudaLaunchKernel, cuLaunchKernel, cuLaunchKernelEx, cudaMemcpyAsync,
  // cudaMemsetAsync), names without Nsight's "_vNNNN" suffix (Kineto's spelling, which the
  // replay matches: cudaStreamSynchronize). The first kernel's launch as the export records it:
  // grid 1056 x 1 x 1, block 256 x 1 x 1, 40 registers, no shared memory, so 1056 / 132 = 8 blocks
  // per SM; its demangled name. Threads named "<pid>/<tid>" from globalTid 281987873011563
  // (= 30571 x 2^24 + 30571).
  const std::string path = wild("nsys/fuser_h200_nsys2024.6_memcpy_memset.sqlite.gz");
  const Trace t = read_trace(path);
  EXPECT_TRUE(t.has_application());
  const std::vector<Op> kernels = ops_of(t, OpKind::kernel), calls = ops_of(t, OpKind::runtime),
                        ranges = ops_of(t, OpKind::annotation);
  EXPECT_EQ(kernels.size(), 19u);
  EXPECT_EQ(calls.size(), 968u);
  EXPECT_EQ(ranges.size(), 652u);
  std::map<std::string, std::size_t> launchers;
  std::size_t linked = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Op op = t.op(i);
    if (!runs_on_gpu(op.kind) || op.launch == kNoIndex) continue;
    ++linked;
    ASSERT_LT(op.launch, t.size());
    const Op call = t.op(op.launch);
    EXPECT_EQ(call.kind, OpKind::runtime);
    EXPECT_LE(call.start_ns, op.start_ns) << "a launch starts before the work it launched";
    ++launchers[t.op_names[call.name]];
  }
  EXPECT_EQ(linked, 21u);
  EXPECT_EQ(launchers, (std::map<std::string, std::size_t>{{"cudaLaunchKernel", 17},
                                                           {"cuLaunchKernel", 1},
                                                           {"cuLaunchKernelEx", 1},
                                                           {"cudaMemcpyAsync", 1},
                                                           {"cudaMemsetAsync", 1}}));
  std::set<std::string> call_names;
  for (const Op& c : calls) call_names.insert(t.op_names[c.name]);
  EXPECT_TRUE(call_names.count("cudaStreamSynchronize"));
  EXPECT_TRUE(call_names.count("cudaGetDeviceProperties_v2")) << "only the version suffix is dropped";
  for (const std::string& n : call_names) EXPECT_THAT(n, Not(testing::ContainsRegex("_v[0-9][0-9][0-9][0-9]+$"))) << n;

  const Op& first = kernels.front();
  EXPECT_EQ(first.start_ns, 784431748);
  EXPECT_EQ(first.duration_ns, 784472196 - 784431748);
  EXPECT_EQ(t.endpoint_name(first.src), "gpu0");
  EXPECT_EQ(first.stream, 7u);
  EXPECT_THAT(t.op_names[first.name],
              StartsWith("void at::native::<unnamed>::distribution_elementwise_grid_stride_kernel<float, (int)4,"));
  ASSERT_NE(first.kernel, kNoIndex);
  const KernelInfo& info = t.kernel_info(first.kernel);
  EXPECT_EQ(info.grid_blocks, 1056u);
  EXPECT_EQ(info.block_threads, 256u);
  EXPECT_EQ(info.registers, 40u);
  EXPECT_EQ(info.shared_bytes, 0u);
  EXPECT_FLOAT_EQ(info.blocks_per_sm, 8.0f);

  EXPECT_EQ(t.thread_names[calls.front().thread], "30571/30571");
  EXPECT_EQ(t.thread_names[ranges.front().thread], "30571/30571");
  EXPECT_EQ(t.op_names[ranges.front().name], "Fusion::resetTvUses");
  EXPECT_EQ(ranges.front().duration_ns, 646547830 - 646543200);
  for (std::size_t i = 1; i < t.size(); ++i) ASSERT_LE(t.starts()[i - 1], t.starts()[i]) << "records in start order";
  EXPECT_THAT(t.warnings, testing::IsEmpty());
}

TEST(NsysExport, GpusArePlacedByTheirCudaIndexNotNsightsOwnNumber) {
  // TARGET_INFO_GPU numbers GPUs its own way (`id`) and gives the CUDA index, the one CUPTI's
  // deviceId uses, in cuDevice: the JACC 4 x A100 export has id 3 for cuDevice 0. The fuser
  // export edited the same way (id 3, cuDevice 0, kernels on deviceId 0): the GPU's name and SM
  // count are gpu0's; with id read, gpu0 had no name and no blocks per SM.
  const std::string path = edited_fuser("cudevice.sqlite", "UPDATE TARGET_INFO_GPU SET id = 3");
  const Trace t = read_trace(path);
  ASSERT_GE(t.device_names.size(), 1u);
  EXPECT_EQ(t.device_names[0], "NVIDIA H200");
  const std::vector<Op> kernels = ops_of(t, OpKind::kernel);
  ASSERT_FALSE(kernels.empty());
  EXPECT_FLOAT_EQ(t.kernel_info(kernels.front().kernel).blocks_per_sm, 8.0f);
}

TEST(NsysExport, NcclKernelsAreKernelsOfTheirDurationAndSaidSo) {
  // Nsight Systems records NCCL kernels without message size or communicator. Two of the fuser
  // kernels renamed to NCCL ones: both stay kernels of their recorded duration (the replay keeps
  // their time) and one warning counts them by kind; nothing is made a collective of 0 bytes.
  const std::string path = edited_fuser(
      "nccl.sqlite",
      "INSERT INTO StringIds VALUES (900001, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)'),"
      " (900002, 'ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)');"
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 900001, shortName = 900001 WHERE start = 784431748;"
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 900002, shortName = 900002 WHERE start = 784573059;");
  const Trace t = read_trace(path);
  std::size_t nccl = 0;
  for (const Op& k : ops_of(t, OpKind::kernel))
    if (t.op_names[k.name].starts_with("nccl")) {
      ++nccl;
      EXPECT_GT(k.duration_ns, 0);
    }
  EXPECT_EQ(nccl, 2u);
  for (std::size_t i = 0; i < t.size(); ++i) EXPECT_FALSE(is_collective(t.kinds()[i]));
  EXPECT_THAT(t.warnings, testing::Contains(AllOf(
                              HasSubstr(path + ": 2 NCCL kernels (1 allreduce, 1 sendrecv) kept as kernels of their "
                                               "recorded duration, not as collectives"),
                              HasSubstr("records neither their message size nor their communicator"))));
}

TEST(NsysExport, ApplicationRecordsAreCheckedAsTransfersAre) {
  // A corrupt or hostile export's kernel and runtime rows: refused naming the table and the row,
  // as the copy rows are (a negative correlation id or grid, a register count past 16 bits, a
  // negative thread id).
  const struct {
    const char* sql;
    const char* message;
  } cases[] = {
      {"UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET correlationId = -1 WHERE start = 784431748",
       "table CUPTI_ACTIVITY_KIND_KERNEL, row 1: correlationId -1 is not a CUPTI correlation id (0 to 2^32 - 1)"},
      {"UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET gridY = -2", "table CUPTI_ACTIVITY_KIND_KERNEL, row 1: grid dimension -2 is negative"},
      {"UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET registersPerThread = 70000",
       "table CUPTI_ACTIVITY_KIND_KERNEL, row 1: registersPerThread 70000 is not a register count"},
      {"UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET globalTid = -5", "table CUPTI_ACTIVITY_KIND_RUNTIME, row 1: globalTid -5 is negative"},
      {"UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET correlationId = 4294967296",
       "table CUPTI_ACTIVITY_KIND_RUNTIME, row 1: correlationId 4294967296 is not a CUPTI correlation id"},
  };
  int n = 0;
  for (const auto& c : cases) {
    const std::string path = edited_fuser(fmt::format("app{}.sqlite", n++), c.sql);
    EXPECT_THAT([&] { (void)read_trace(path); },
                ThrowsMessage<InputError>(AllOf(HasSubstr(path + ": " + c.message),
                                                HasSubstr("the export is corrupt (or was edited)"))))
        << c.sql;
  }
  // A grid of 2^31 - 1 x 65535 x 65535 blocks (CUDA's limits) saturates rather than wrapping.
  const std::string huge = edited_fuser("huge_grid.sqlite",
                                        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET gridX = 2147483647, gridY = 65535, gridZ = 65535");
  const Trace t = read_trace(huge);
  EXPECT_EQ(t.kernel_info(ops_of(t, OpKind::kernel).front().kernel).grid_blocks, 4294967295u);
}

/// `path`, an edit of the H200 export, read with its 19 kernels linked to no launching call and a
/// warning that counts them.
void expect_kernels_unlaunched(const std::string& path) {
  const Trace t = read_trace(path);
  for (const Op& k : ops_of(t, OpKind::kernel)) EXPECT_EQ(k.launch, kNoIndex);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr(path + ": 19 GPU operations have no launching call in "
                                                             "CUPTI_ACTIVITY_KIND_RUNTIME")));
}

TEST(NsysExport, GpuWorkWhoseLaunchIsNotInTheExportIsSaid) {
  // The kernels' launching calls deleted from CUPTI_ACTIVITY_KIND_RUNTIME (what an export of a
  // run whose CPU side was traced only in part holds): the kernels are read without a launch and
  // a warning counts them (19 kernels), rather than linking them to nothing unsaid.
  const std::string path = edited_fuser("no_launch.sqlite",
                                        "DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId IN "
                                        "(SELECT correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL)");
  expect_kernels_unlaunched(path);
}

TEST(NsysExport, UnifiedMemoryMigrationsAreReadByTheirGpuEndAndNeedNoLaunchingCall) {
  // A robustness hunt (round 29): migrations (copyKind 11 HtoD, 12 DtoH; nsys with
  // --cuda-um-gpu-page-faults) are the driver's, launched by no call, and were counted as "GPU
  // operations have no launching call" for reasons that do not apply; where the export writes a
  // CPU id (0xFFFFFFFF) or -1 for the host end, the export was refused. Their host end is not
  // read: two 2 MiB migrations, each way, on gpu0, and no such warning.
  const std::string path = edited_fuser(
      "um.sqlite",
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, correlationId, globalPid, "
      "bytes, copyKind, srcKind, dstKind, srcDeviceId, dstDeviceId, migrationCause) VALUES "
      "(1288070000, 1288071000, 0, 1, 0, 0, 281987872980992, 2097152, 11, 6, 6, 4294967295, 0, 2), "
      "(1288072000, 1288073000, 0, 1, 0, 0, 281987872980992, 2097152, 12, 6, 6, 0, -1, 4)");
  const Trace t = read_trace(path);
  std::size_t migrations = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t.kinds()[i] != OpKind::migrate) continue;
    ++migrations;
    EXPECT_EQ(t.bytes()[i], 2097152u);
    const bool to_gpu = t.endpoint_name(t.dsts()[i]) == "gpu0";
    EXPECT_EQ(t.endpoint_name(to_gpu ? t.srcs()[i] : t.dsts()[i]), "host");
  }
  EXPECT_EQ(migrations, 2u);
  EXPECT_THAT(t.warnings, testing::Not(testing::Contains(HasSubstr("have no launching call"))));
}

/// SQL that rebuilds `table` without its NOT NULL constraints (as a hand edit may leave it).
std::string without_not_null(const std::string& table) {
  return fmt::format("CREATE TABLE edited AS SELECT * FROM {0}; DROP TABLE {0}; ALTER TABLE edited RENAME TO {0};",
                     table);
}

TEST(NsysExport, NullsWhereEveryExportWritesANumberAreRefusedAndNullIdsSaid) {
  // A robustness hunt (round 25) on hand-edited copies of the real H200 export: a NULL deviceId
  // read as GPU 0 (a copy moved to another GPU), a NULL bytes as 0 B and a NULL start as 0 (a
  // memset's time off by its start), each unsaid. They are refused naming table and row. A NULL
  // correlationId (a column the schema lets be NULL) cut the kernels' launches without the
  // warning that unmatched ids get: now counted with them, and NULL ids on the calls are said.
  const std::string memcpy = "CUPTI_ACTIVITY_KIND_MEMCPY", memset = "CUPTI_ACTIVITY_KIND_MEMSET";
  for (const auto& [table, column] : std::vector<std::pair<std::string, std::string>>{
           {memcpy, "deviceId"}, {memcpy, "bytes"}, {memcpy, "start"}, {memset, "bytes"}, {memset, "end"}}) {
    const std::string path = edited_fuser("null_" + column + ".sqlite",
                                          without_not_null(table) + fmt::format("UPDATE {} SET {} = NULL", table, column));
    EXPECT_THAT([&] { (void)read_trace(path); },
                ThrowsMessage<InputError>(HasSubstr(fmt::format("{}: table {}, row 1: {} is NULL, where the profiler "
                                                                "always writes a number",
                                                                path, table, column))));
  }
  const std::string kernels = edited_fuser("null_kernel_ids.sqlite", without_not_null("CUPTI_ACTIVITY_KIND_KERNEL") +
                                                                         "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET "
                                                                         "correlationId = NULL");
  expect_kernels_unlaunched(kernels);
  const std::string calls = edited_fuser("null_call_ids.sqlite", without_not_null("CUPTI_ACTIVITY_KIND_RUNTIME") +
                                                                     "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET "
                                                                     "correlationId = NULL");
  const Trace c = read_trace(calls);
  EXPECT_THAT(c.warnings, testing::Contains(HasSubstr(calls + ": 21 GPU operations have no launching call")));
  EXPECT_THAT(c.warnings, testing::Contains(MatchesRegex(".*: [0-9]+ CUDA calls in CUPTI_ACTIVITY_KIND_RUNTIME have "
                                                         "no correlationId \\(NULL\\).*")));
}

TEST(NsysExport, AnExportWithoutRuntimeCallsOrWithUndocumentedCopyFieldsSaysSo) {
  // Hostile edits of the real H200 export (a robustness hunt), each read without a word before:
  // - the runtime-call table dropped: a replay lost the host's pace (simulate's makespan of another
  //   export went from 376 ms to 2.14 ms) unsaid; now the 21 GPU operations (19 kernels, a copy, a
  //   memset) are said to have no launching calls;
  // - a copy's srcKind 77, which its ENUM_CUDA_MEM_KIND does not list, was read as pinned memory;
  // - a peer-to-peer copy (copyKind 10) with NULL srcDeviceId read as gpu0 -> gpu0. A NULL peer id
  //   now means deviceId's GPU (the real export leaves both NULL on its DtoH copy): a DtoD copy of
  //   deviceId 1 with NULL peer ids is gpu1 -> gpu1, not gpu0 -> gpu0.
  const std::string dropped = edited_fuser("no_runtime.sqlite", "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME");
  EXPECT_THAT(read_trace(dropped).warnings,
              testing::Contains(HasSubstr(dropped + ": no CUPTI_ACTIVITY_KIND_RUNTIME table: the 21 GPU operations are "
                                                    "read without the CUDA calls that launched them")));
  const Trace intact = read_trace(edited_fuser("intact.sqlite", "SELECT 1"));
  EXPECT_THAT(intact.warnings, Not(testing::Contains(HasSubstr("no CUPTI_ACTIVITY_KIND_RUNTIME"))));
  EXPECT_THAT(intact.warnings, Not(testing::Contains(HasSubstr("does not document"))));
  const std::string kind = edited_fuser("kind77.sqlite", "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET srcKind = 77");
  EXPECT_THAT(read_trace(kind).warnings,
              testing::Contains(HasSubstr(kind + ": 1 memcpy records give a memory kind (srcKind/dstKind 77) that the "
                                                 "profiler does not document in the export's ENUM_CUDA_MEM_KIND")));
  // The one copy of an edited export as "src -> dst" ("" where it holds another number of copies).
  const auto copy_ends = [](const Trace& t) {
    const std::vector<Op> copies = ops_of(t, OpKind::copy);
    return copies.size() == 1 ? t.endpoint_name(copies[0].src) + " -> " + t.endpoint_name(copies[0].dst) : std::string();
  };
  const std::string p2p = edited_fuser("p2p.sqlite", "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET copyKind = 10, deviceId = 1");
  const Trace peerless = read_trace(p2p);
  EXPECT_EQ(copy_ends(peerless), "gpu1 -> gpu1");
  EXPECT_THAT(peerless.warnings,
              testing::Contains(HasSubstr(p2p + ": 1 peer-to-peer (PtoP) memcpy records name no source or destination "
                                                "GPU (srcDeviceId or dstDeviceId NULL")));
  const Trace on1 = read_trace(
      edited_fuser("d2d1.sqlite", "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET copyKind = 8, deviceId = 1"));
  EXPECT_EQ(copy_ends(on1), "gpu1 -> gpu1");
  EXPECT_THAT(on1.warnings, Not(testing::Contains(HasSubstr("peer-to-peer"))));
}

TEST(NsysExport, AnExportWithKernelsButNoTransfersSaysSo) {
  // CUDA traced, kernels read, no copy or memset: the transfer views are empty, and the warning
  // says that CUDA was traced (not "CUDA was not traced").
  const std::string path = edited_fuser("kernels_only.sqlite",
                                        "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY; DROP TABLE CUPTI_ACTIVITY_KIND_MEMSET;");
  const Trace t = read_trace(path);
  EXPECT_EQ(ops_of(t, OpKind::kernel).size(), 19u);
  EXPECT_THAT(t.warnings, testing::Contains(HasSubstr(path + ": no GPU transfers (copies, memsets) in this export: it "
                                                             "traced CUDA (19 kernels read) but its "
                                                             "CUPTI_ACTIVITY_KIND_MEMCPY and _MEMSET tables are empty "
                                                             "or absent")));
}

TEST(NsysExport, SimulateReplaysTheExportAsRecorded) {
  // System: `linkcast simulate --as-recorded` on the real H200 export against the repository's
  // H200 node. Expected: exit 0; all 1641 records replayed (2 transfers, 19 kernels, 968 calls,
  // 652 NVTX ranges; before, only the 2 transfers were read) and the replay's launch edges are
  // the export's 21 correlation links (count.py S10); replayed with recorded durations, the span
  // is the recorded one.
  const std::string path = wild("nsys/fuser_h200_nsys2024.6_memcpy_memset.sqlite.gz");
  const test::CommandResult r = test::run_linkcast("simulate --as-recorded " + test::config("testbed-h200-1gpu.yaml") + " " + path);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(1641 operations)"));
  EXPECT_THAT(r.out, HasSubstr("inferred 21 launches"));
  EXPECT_THAT(r.out, HasSubstr("648 ms recorded, 648 ms replayed (+0.00%)"));
  // The last NVTX range ends after the last call: the critical path starts from the last call,
  // not from the range (which left every column at 0 ns). The calls' gaps are host time.
  EXPECT_THAT(r.out, ::testing::ContainsRegex("whole span +648 ms +648 ms +\\+0\\.00% .* 648 ms \\(100%\\)"));
}

}  // namespace
}  // namespace linkcast::trace
