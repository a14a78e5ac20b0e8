// Readers for CUDA profiler databases (SQLite):
//  - nvprof (`--export-profile`, `.nvvp`): CUPTI_ACTIVITY_KIND_MEMCPY, peer copies in
//    CUPTI_ACTIVITY_KIND_MEMCPY2, memsets, unified-memory counters; CUPTI memory-kind numbering
//    (0 unknown, 1 pageable, 2 pinned, 3 device, 5 managed); device names via StringTable.
//  - Nsight Systems (`nsys export --type sqlite`): the same CUPTI_ACTIVITY_KIND_MEMCPY table with
//    peer ids in srcDeviceId/dstDeviceId and copyKind 11-13 for unified-memory migrations, but
//    memory kinds numbered from 0 (0 pageable, 1 pinned, 2 device, 4 managed; the database's own
//    ENUM_CUDA_MEM_KIND table is used when present); GPU names in TARGET_INFO_GPU; schema
//    version in META_DATA_EXPORT. Nsight Systems exports are read whole, as the Kineto reader reads
//    a PyTorch trace: kernels (CUPTI_ACTIVITY_KIND_KERNEL, with grid, block, registers, shared
//    memory), CUDA runtime and driver calls (CUPTI_ACTIVITY_KIND_RUNTIME, names from StringIds,
//    threads from globalTid), the launch of each copy, memset and kernel (correlationId), and NVTX
//    ranges as annotations.
#pragma once

#include "trace/sqlite_db.hpp"
#include "trace/trace.hpp"

namespace linkcast::trace {

Trace read_nvprof(const SqliteDb& db);
Trace read_nsys(const SqliteDb& db);

/// "nvprof", "nsys" or "" for a database that is neither.
std::string detect_profiler_db(const SqliteDb& db);

}  // namespace linkcast::trace
