#include "trace/profiler_db.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>

#include "core/error.hpp"
#include "core/strings.hpp"

namespace linkcast::trace {

namespace {

using model::MemKind;

/// CUpti_ActivityMemcpyKind (CUPTI documentation); nsys adds 11-13 for unified memory.
enum CopyKind : int {
  kUnknownCopy = 0,
  kHtoD = 1,
  kDtoH = 2,
  kHtoA = 3,
  kAtoH = 4,
  kAtoA = 5,
  kAtoD = 6,
  kDtoA = 7,
  kDtoD = 8,
  kHtoH = 9,
  kPtoP = 10,
  kUmHtoD = 11,
  kUmDtoH = 12,
  kUmDtoD = 13,
};

/// CUpti_ActivityMemoryKind: 0 unknown, 1 pageable, 2 pinned, 3 device, 4 array, 5 managed,
/// 6 device static, 7 managed static.
MemKind cupti_mem_kind(int k) {
  switch (k) {
    case 1: return MemKind::pageable;
    case 2: return MemKind::pinned;
    case 3:
    case 4:
    case 6: return MemKind::device;
    case 5:
    case 7: return MemKind::managed;
    default: return MemKind::unknown;
  }
}

/// Nsight Systems' ENUM_CUDA_MEM_KIND as documented: 0 pageable, 1 pinned, 2 device, 3 array,
/// 4 managed, 5 device static, 6 managed static, 7 unknown.
MemKind nsys_default_mem_kind(int k) {
  switch (k) {
    case 0: return MemKind::pageable;
    case 1: return MemKind::pinned;
    case 2:
    case 3:
    case 5: return MemKind::device;
    case 4:
    case 6: return MemKind::managed;
    default: return MemKind::unknown;
  }
}

/// Profiler memory-kind number -> MemKind.
using MemKindTable = std::array<MemKind, 16>;

MemKind lookup(const MemKindTable& table, int k) {
  return k >= 0 && k < static_cast<int>(table.size()) ? table[static_cast<std::size_t>(k)] : MemKind::unknown;
}

MemKindTable make_table(MemKind (*fn)(int)) {
  MemKindTable t;
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = fn(static_cast<int>(i));
  return t;
}

struct Row {
  int copy_kind = 0;
  int src_kind = 0, dst_kind = 0;
  std::int64_t bytes = 0, start = 0, end = 0;
  int device = 0, src_device = -1, dst_device = -1;
  std::int64_t stream = 0;
};

class Builder {
 public:
  Builder(Trace& trace, std::string source) : trace_(trace), source_(std::move(source)) {
    host_ = trace_.endpoint("host");
  }

  std::uint16_t gpu(int index) {
    if (index < 0) index = 0;
    auto it = gpus_.find(index);
    if (it != gpus_.end()) return it->second;
    const std::uint16_t id = trace_.endpoint(fmt::format("gpu{}", index));
    gpus_.emplace(index, id);
    return id;
  }

  /// Adds one memcpy record; returns false (and counts it) when its kind cannot be placed.
  void memcpy(const Row& r, const MemKindTable& mem) {
    Op op;
    op.kind = OpKind::copy;
    op.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, r.bytes));
    op.start_ns = r.start;
    op.duration_ns = std::max<std::int64_t>(0, r.end - r.start);
    op.stream = static_cast<std::uint32_t>(r.stream);
    op.src_mem = lookup(mem, r.src_kind);
    op.dst_mem = lookup(mem, r.dst_kind);
    const int sd = r.src_device >= 0 ? r.src_device : r.device;
    const int dd = r.dst_device >= 0 ? r.dst_device : r.device;
    switch (r.copy_kind) {
      case kHtoD:
      case kHtoA: op.src = host_; op.dst = gpu(r.device); break;
      case kDtoH:
      case kAtoH: op.src = gpu(r.device); op.dst = host_; break;
      case kAtoA:
      case kAtoD:
      case kDtoA:
      case kDtoD:
      case kPtoP: op.src = gpu(sd); op.dst = gpu(dd); break;
      case kHtoH: op.src = host_; op.dst = host_; break;
      case kUmHtoD: op.kind = OpKind::migrate; op.src = host_; op.dst = gpu(dd); op.src_mem = op.dst_mem = MemKind::managed; break;
      case kUmDtoH: op.kind = OpKind::migrate; op.src = gpu(sd); op.dst = host_; op.src_mem = op.dst_mem = MemKind::managed; break;
      case kUmDtoD: op.kind = OpKind::migrate; op.src = gpu(sd); op.dst = gpu(dd); op.src_mem = op.dst_mem = MemKind::managed; break;
      default: ++skipped_; return;
    }
    ops_.push_back(op);
  }

  void add(const Op& op) { ops_.push_back(op); }

  void finish() {
    std::stable_sort(ops_.begin(), ops_.end(), [](const Op& a, const Op& b) { return a.start_ns < b.start_ns; });
    trace_.reserve(ops_.size());
    for (const Op& op : ops_) trace_.push(op);
    if (skipped_ > 0)
      trace_.warnings.push_back(fmt::format("{}: skipped {} memcpy records of unknown copy kind", source_, skipped_));
  }

 private:
  Trace& trace_;
  std::string source_;
  std::uint16_t host_;
  std::map<int, std::uint16_t> gpus_;
  std::vector<Op> ops_;
  std::size_t skipped_ = 0;
};

void require_columns(const SqliteDb& db, const std::string& table, const std::vector<std::string>& columns,
                     const std::string& format) {
  for (const std::string& c : columns) {
    if (!db.has_column(table, c)) {
      throw InputError(fmt::format("{}: table {} has no column '{}': an {} schema this reader does not "
                                   "know; export again with a supported profiler version",
                                   db.path(), table, c, format));
    }
  }
}

/// CUPTI_ACTIVITY_KIND_MEMSET, the same in nvprof and Nsight Systems exports.
void read_memsets(const SqliteDb& db, Builder& b) {
  if (!db.has_table("CUPTI_ACTIVITY_KIND_MEMSET") || !db.has_column("CUPTI_ACTIVITY_KIND_MEMSET", "bytes")) return;
  SqliteDb::Statement s(db, "SELECT bytes, start, end, deviceId, streamId FROM CUPTI_ACTIVITY_KIND_MEMSET");
  while (s.step()) {
    Op op;
    op.kind = OpKind::memset;
    op.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, s.i64(0)));
    op.start_ns = s.i64(1);
    op.duration_ns = std::max<std::int64_t>(0, s.i64(2) - s.i64(1));
    op.src = op.dst = b.gpu(static_cast<int>(s.i64(3)));
    op.src_mem = op.dst_mem = MemKind::device;
    op.stream = static_cast<std::uint32_t>(s.i64(4));
    b.add(op);
  }
}

/// Device names by device id from `query` (columns: id, name).
void read_device_names(const SqliteDb& db, const char* query, Trace& trace) {
  SqliteDb::Statement s(db, query);
  while (s.step()) {
    const auto id = static_cast<std::size_t>(std::max<std::int64_t>(0, s.i64(0)));
    if (trace.device_names.size() <= id) trace.device_names.resize(id + 1);
    trace.device_names[id] = s.text(1);
  }
}

}  // namespace

std::string detect_profiler_db(const SqliteDb& db) {
  if (!db.has_table("CUPTI_ACTIVITY_KIND_MEMCPY") && !db.has_table("TARGET_INFO_GPU") &&
      !db.has_table("StringTable"))
    return "";
  if (db.has_table("TARGET_INFO_GPU") || db.has_table("StringIds") || db.has_table("META_DATA_EXPORT"))
    return "nsys";
  if (db.has_table("StringTable")) return "nvprof";
  return "";
}

Trace read_nvprof(const SqliteDb& db) {
  Trace trace;
  trace.format = "nvprof";
  trace.source_file = db.path();
  Builder b(trace, db.path());
  const MemKindTable cupti = make_table(&cupti_mem_kind);
  if (db.has_table("CUPTI_ACTIVITY_KIND_MEMCPY")) {
    const std::string t = "CUPTI_ACTIVITY_KIND_MEMCPY";
    require_columns(db, t, {"copyKind", "srcKind", "dstKind", "bytes", "start", "end", "deviceId", "streamId"}, "nvprof");
    SqliteDb::Statement s(db, "SELECT copyKind, srcKind, dstKind, bytes, start, end, deviceId, streamId FROM " + t);
    while (s.step()) {
      Row r{static_cast<int>(s.i64(0)), static_cast<int>(s.i64(1)), static_cast<int>(s.i64(2)), s.i64(3),
            s.i64(4), s.i64(5), static_cast<int>(s.i64(6)), -1, -1, s.i64(7)};
      b.memcpy(r, cupti);
    }
  }
  if (db.has_table("CUPTI_ACTIVITY_KIND_MEMCPY2")) {
    const std::string t = "CUPTI_ACTIVITY_KIND_MEMCPY2";
    require_columns(db, t, {"copyKind", "srcKind", "dstKind", "bytes", "start", "end", "deviceId", "streamId",
                            "srcDeviceId", "dstDeviceId"}, "nvprof");
    SqliteDb::Statement s(db, "SELECT copyKind, srcKind, dstKind, bytes, start, end, deviceId, streamId, "
                              "srcDeviceId, dstDeviceId FROM " + t);
    while (s.step()) {
      Row r{static_cast<int>(s.i64(0)), static_cast<int>(s.i64(1)), static_cast<int>(s.i64(2)), s.i64(3),
            s.i64(4), s.i64(5), static_cast<int>(s.i64(6)), static_cast<int>(s.i64(8)),
            static_cast<int>(s.i64(9)), s.i64(7)};
      if (r.copy_kind == kDtoD && r.src_device != r.dst_device) r.copy_kind = kPtoP;
      b.memcpy(r, cupti);
    }
  }
  read_memsets(db, b);
  if (db.has_table("CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER") &&
      db.has_column("CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER", "srcId")) {
    // counterKind 1: bytes host -> device, 2: bytes device -> host (CUpti_ActivityUnifiedMemoryCounterKind).
    SqliteDb::Statement s(db, "SELECT counterKind, value, start, end, srcId, dstId, streamId FROM "
                              "CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER WHERE counterKind IN (1, 2)");
    while (s.step()) {
      Row r;
      r.copy_kind = s.i64(0) == 1 ? kUmHtoD : kUmDtoH;
      r.bytes = s.i64(1);
      r.start = s.i64(2);
      r.end = s.i64(3);
      r.src_device = static_cast<int>(s.i64(4));
      r.dst_device = static_cast<int>(s.i64(5));
      r.stream = s.i64(6);
      b.memcpy(r, cupti);
    }
  }
  if (db.has_table("CUPTI_ACTIVITY_KIND_DEVICE") && db.has_table("StringTable")) {
    read_device_names(db, "SELECT d.id, s.value FROM CUPTI_ACTIVITY_KIND_DEVICE d JOIN StringTable s "
                          "ON d.name = s._id_ ORDER BY d.id", trace);
  }
  b.finish();
  return trace;
}

Trace read_nsys(const SqliteDb& db) {
  Trace trace;
  trace.format = "nsys";
  trace.source_file = db.path();
  Builder b(trace, db.path());

  // Memory kinds: from the database's own enum table when it has one, else as documented.
  MemKindTable mem = make_table(&nsys_default_mem_kind);
  if (db.has_table("ENUM_CUDA_MEM_KIND")) {
    mem.fill(MemKind::unknown);
    SqliteDb::Statement s(db, "SELECT id, name FROM ENUM_CUDA_MEM_KIND");
    while (s.step()) {
      const std::int64_t id = s.i64(0);
      const std::string name = to_lower(s.text(1));
      if (id < 0 || id >= static_cast<std::int64_t>(mem.size())) continue;
      MemKind k = MemKind::unknown;
      if (name.find("pageable") != std::string::npos) k = MemKind::pageable;
      else if (name.find("pinned") != std::string::npos) k = MemKind::pinned;
      else if (name.find("managed") != std::string::npos) k = MemKind::managed;
      else if (name.find("device") != std::string::npos || name.find("array") != std::string::npos) k = MemKind::device;
      mem[static_cast<std::size_t>(id)] = k;
    }
  }

  if (!db.has_table("CUPTI_ACTIVITY_KIND_MEMCPY") && !db.has_table("CUPTI_ACTIVITY_KIND_MEMSET"))
    trace.warnings.push_back(fmt::format("{}: the report has no CUDA memcpy or memset activity (was it "
                                         "recorded with --trace=cuda?)", db.path()));
  if (db.has_table("CUPTI_ACTIVITY_KIND_MEMCPY")) {
    const std::string t = "CUPTI_ACTIVITY_KIND_MEMCPY";
    require_columns(db, t, {"copyKind", "srcKind", "dstKind", "bytes", "start", "end", "deviceId", "streamId"},
                    "Nsight Systems");
    const bool peer = db.has_column(t, "srcDeviceId") && db.has_column(t, "dstDeviceId");
    SqliteDb::Statement s(db, fmt::format("SELECT copyKind, srcKind, dstKind, bytes, start, end, deviceId, streamId{} "
                                          "FROM {}", peer ? ", srcDeviceId, dstDeviceId" : "", t));
    while (s.step()) {
      Row r{static_cast<int>(s.i64(0)), static_cast<int>(s.i64(1)), static_cast<int>(s.i64(2)), s.i64(3),
            s.i64(4), s.i64(5), static_cast<int>(s.i64(6)), -1, -1, s.i64(7)};
      if (peer) {
        r.src_device = static_cast<int>(s.i64(8));
        r.dst_device = static_cast<int>(s.i64(9));
        if (r.copy_kind == kDtoD && r.src_device != r.dst_device) r.copy_kind = kPtoP;
      }
      b.memcpy(r, mem);
    }
  }
  read_memsets(db, b);
  if (db.has_table("TARGET_INFO_GPU") && db.has_column("TARGET_INFO_GPU", "name") &&
      db.has_column("TARGET_INFO_GPU", "id")) {
    read_device_names(db, "SELECT id, name FROM TARGET_INFO_GPU ORDER BY id", trace);
  }
  b.finish();
  return trace;
}

}  // namespace linkcast::trace
