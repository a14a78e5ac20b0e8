#include "trace/profiler_db.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bitset>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

#include "core/error.hpp"
#include "core/strings.hpp"

namespace linkcast::trace {

namespace {

/// NCCL kernels counted by kind, for a warning: their total and "3 AllReduce, 1 SendRecv".
std::pair<std::size_t, std::string> count_by_kind(const std::map<std::string, std::size_t>& kinds) {
  std::size_t total = 0;
  std::string text;
  for (const auto& [kind, n] : kinds) {
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", n, kind);
    total += n;
  }
  return {total, text};
}

using model::MemKind;

// Largest device index accepted (as trace::kMaxDeviceIndex of the Kineto reader): a node has at
// most a few hundred GPUs, and tables are sized by device ids.
constexpr std::int64_t kMaxDevice = 4095;

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

/// Profiler memory-kind number -> MemKind, and which numbers the profiler documents (its own
/// "unknown" among them): a number outside them is one no export writes.
struct MemKindTable {
  static constexpr int kSize = 16;
  std::array<MemKind, kSize> kind{};
  std::bitset<kSize> documented;
};

MemKind lookup(const MemKindTable& table, int k) {
  return k >= 0 && k < MemKindTable::kSize ? table.kind[static_cast<std::size_t>(k)] : MemKind::unknown;
}

bool documented(const MemKindTable& table, int k) {
  return k >= 0 && k < MemKindTable::kSize && table.documented[static_cast<std::size_t>(k)];
}

/// The table `fn` gives for the documented numbers 0 to `last`.
MemKindTable make_table(MemKind (*fn)(int), int last) {
  MemKindTable t;
  for (int i = 0; i < MemKindTable::kSize; ++i) t.kind[static_cast<std::size_t>(i)] = fn(i);
  for (int i = 0; i <= last; ++i) t.documented.set(static_cast<std::size_t>(i));
  return t;
}

/// A small enumeration value (a copy or memory kind) as an int; -1 for anything out of range.
int small(std::int64_t v) { return v >= 0 && v <= 0xFFFF ? static_cast<int>(v) : -1; }

/// Reads the rows of one table, checking what a corrupt or hostile export could hold: values that
/// are not whole 64-bit numbers, device ids no node has, stream ids beyond 32 bits, spans that end
/// before they start or overflow. Errors name the database, the table and the row.
class Rows {
 public:
  Rows(const SqliteDb& db, std::string table, const std::string& sql) : db_(db), table_(std::move(table)), s_(db, sql) {}

  bool step() {
    if (!s_.step()) return false;
    ++row_;
    return true;
  }
  const SqliteDb::Statement& statement() const { return s_; }
  std::size_t row() const { return row_; }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(fmt::format("{}: table {}, row {}: {}; the export is corrupt (or was edited)", db_.path(), table_,
                                 row_, what));
  }

  /// A whole number stored in column `c` (`name` in messages); NULL reads as `if_null`, and is
  /// refused where there is none (a column every export fills: a NULL there is an edited file, and
  /// read as 0 it moved a copy to GPU 0 or made it 0 B unsaid).
  std::int64_t integer(int c, std::string_view name, std::optional<std::int64_t> if_null = std::nullopt) const {
    switch (s_.type(c)) {
      case SQLITE_NULL:
        if (!if_null) fail(fmt::format("{} is NULL, where the profiler always writes a number", name));
        return *if_null;
      case SQLITE_INTEGER: return s_.i64(c);
      case SQLITE_FLOAT: {
        const double v = s_.f64(c);
        // 2^63 is exactly representable; every double below it in magnitude converts.
        if (std::isfinite(v) && v == std::floor(v) && v >= -9223372036854775808.0 && v < 9223372036854775808.0)
          return static_cast<std::int64_t>(v);
        fail(fmt::format("{} {} is not a whole number within 64 bits", name, s_.text(c)));
      }
      default: fail(fmt::format("{} '{}' is not a number", name, s_.text(c)));
    }
  }

  /// A device index in column `c`; NULL reads as `if_null`, and is refused where there is none.
  int device(int c, std::string_view name, std::optional<int> if_null = std::nullopt) const {
    if (s_.type(c) == SQLITE_NULL && if_null) return *if_null;
    const std::int64_t d = integer(c, name);
    if (d < 0 || d > kMaxDevice) fail(fmt::format("{} {} is not a device index (0 to {})", name, d, kMaxDevice));
    return static_cast<int>(d);
  }

  std::uint32_t stream(int c) const {
    const std::int64_t v = integer(c, "streamId");
    if (v < 0 || v > std::numeric_limits<std::uint32_t>::max())
      fail(fmt::format("streamId {} is not a stream id (0 to 2^32 - 1)", v));
    return static_cast<std::uint32_t>(v);
  }

  std::uint64_t bytes(int c, std::string_view name = "bytes") const {
    const std::int64_t v = integer(c, name);
    if (v < 0) fail(fmt::format("{} {} is negative", name, v));
    return static_cast<std::uint64_t>(v);
  }

  /// start and end (ns) as a start and a duration. A start before the clock's origin, an end
  /// that overflows the duration, is refused; an end before the start gives 0 and is counted.
  std::pair<std::int64_t, std::int64_t> span(int start_col, int end_col) {
    const std::int64_t start = integer(start_col, "start");
    const std::int64_t end = integer(end_col, "end");
    if (start < 0) fail(fmt::format("start {} is before the clock's origin", start));
    std::int64_t duration = 0;
    if (__builtin_sub_overflow(end, start, &duration))
      fail(fmt::format("end {} - start {} overflows 64 bits", end, start));
    if (duration < 0) {
      ++backwards_;
      duration = 0;
    }
    return {start, duration};
  }
  std::size_t backwards() const { return backwards_; }
  const std::string& table() const { return table_; }

 private:
  const SqliteDb& db_;
  std::string table_;
  SqliteDb::Statement s_;
  std::size_t row_ = 0;
  std::size_t backwards_ = 0;
};

/// No correlation id recorded (nvprof's tables are read without them).
constexpr std::uint64_t kNoCorrelation = ~std::uint64_t{0};
/// A correlationId column holding NULL: GPU work that names no launching call (never a key, so
/// counted with the work whose call is missing).
constexpr std::uint64_t kNullCorrelation = kNoCorrelation - 1;

/// Nsight Systems packs a process and a thread id into globalTid (and a process into globalPid):
/// PID = globalTid / 0x1000000 % 0x1000000, TID = globalTid % 0x1000000 (the export schema's
/// documentation, "Serialized GlobalId").
std::int64_t nsys_pid(std::int64_t global_id) { return global_id / 0x1000000 % 0x1000000; }
std::int64_t nsys_tid(std::int64_t global_id) { return global_id % 0x1000000; }

/// The key that links a runtime call to the GPU work it launched: CUPTI's correlation id, unique
/// within one process, with the process id.
std::uint64_t correlation_key(std::int64_t pid, std::int64_t correlation_id) {
  return (static_cast<std::uint64_t>(pid) << 32) | static_cast<std::uint64_t>(correlation_id);
}

struct Row {
  int copy_kind = 0;
  int src_kind = 0, dst_kind = 0;
  std::uint64_t bytes = 0;
  std::int64_t start = 0, duration = 0;
  int device = 0, src_device = -1, dst_device = -1;  // -1: the record names no peer (deviceId's GPU)
  bool peer_missing = false;                           // srcDeviceId or dstDeviceId NULL
  std::uint32_t stream = 0;
  std::uint64_t correlation = kNoCorrelation;
};

class Builder {
 public:
  Builder(Trace& trace, std::string source) : trace_(trace), source_(std::move(source)) {
    host_ = trace_.endpoint("host");
  }

  std::uint16_t host() const { return host_; }

  std::uint16_t gpu(int index) {
    if (index < 0) index = 0;
    auto it = gpus_.find(index);
    if (it != gpus_.end()) return it->second;
    const std::uint16_t id = trace_.endpoint(fmt::format("gpu{}", index));
    gpus_.emplace(index, id);
    return id;
  }

  /// Adds one memcpy record; counts it as skipped when its kind cannot be placed.
  void memcpy(const Row& r, const MemKindTable& mem) {
    Op op;
    op.kind = OpKind::copy;
    op.bytes = r.bytes;
    op.start_ns = r.start;
    op.duration_ns = r.duration;
    op.stream = r.stream;
    op.src_mem = lookup(mem, r.src_kind);
    op.dst_mem = lookup(mem, r.dst_kind);
    const bool undocumented_src = !documented(mem, r.src_kind), undocumented_dst = !documented(mem, r.dst_kind);
    if (undocumented_src || undocumented_dst) {
      ++undocumented_kind_copies_;
      if (undocumented_src) undocumented_kinds_.insert(r.src_kind);
      if (undocumented_dst) undocumented_kinds_.insert(r.dst_kind);
    }
    if (r.copy_kind == kPtoP && r.peer_missing) ++peerless_copies_;
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
    add(op, r.correlation);
  }

  /// Adds GPU work; `correlation` links it to the runtime call that launched it.
  void add(const Op& op, std::uint64_t correlation = kNoCorrelation) {
    if (correlation != kNoCorrelation) gpu_correlation_.emplace_back(ops_.size(), correlation);
    ops_.push_back(op);
  }
  /// Adds a runtime call with its correlation id.
  void add_call(const Op& op, std::uint64_t correlation) {
    if (correlation != kNoCorrelation) call_by_correlation_.emplace(correlation, ops_.size());
    else ++calls_without_id_;
    ops_.push_back(op);
  }
  /// Operations that run on a GPU (copies, memsets, kernels), for the "nothing traced" warning.
  std::size_t gpu_work() const {
    return static_cast<std::size_t>(
        std::count_if(ops_.begin(), ops_.end(), [](const Op& op) { return runs_on_gpu(op.kind); }));
  }
  std::size_t transfers() const {
    return static_cast<std::size_t>(
        std::count_if(ops_.begin(), ops_.end(), [](const Op& op) { return moves_data(op.kind); }));
  }
  void backwards(const Rows& rows) {
    if (rows.backwards() > 0) backwards_[rows.table()] += rows.backwards();
  }
  std::size_t size() const { return ops_.size(); }
  /// Whether the export has a runtime-call table (Nsight Systems; nvprof's calls are not read).
  void set_runtime_table(bool present) { runtime_table_ = present; }
  /// Whether the memory kinds come from the export's own enumeration table.
  void set_kind_table(bool present) { has_kind_table_ = present; }

  void finish() {
    // GPU work -> the call that launched it; then every operation in start order, launch indices
    // following the permutation (as the Kineto reader does).
    std::size_t unlinked = 0;
    for (const auto& [record, key] : gpu_correlation_) {
      const auto it = call_by_correlation_.find(key);
      if (it != call_by_correlation_.end()) ops_[record].launch = static_cast<std::uint32_t>(it->second);
      else if (ops_[record].kind != OpKind::migrate) ++unlinked;  // a fault's or eviction's: the driver's own
    }
    std::vector<std::uint32_t> order(ops_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return ops_[a].start_ns < ops_[b].start_ns; });
    std::vector<std::uint32_t> position(ops_.size());
    for (std::size_t k = 0; k < order.size(); ++k) position[order[k]] = static_cast<std::uint32_t>(k);
    trace_.reserve(ops_.size());
    for (const std::uint32_t i : order) {
      Op op = ops_[i];
      if (op.launch != kNoIndex) op.launch = position[op.launch];
      trace_.push(op);
    }
    if ((!call_by_correlation_.empty() || calls_without_id_ > 0) && unlinked > 0)
      trace_.warnings.push_back(fmt::format(
          "{}: {} GPU operations have no launching call in CUPTI_ACTIVITY_KIND_RUNTIME (traced from a process not "
          "traced on the CPU side, the call fell outside the recording, or a correlationId is NULL): they are "
          "replayed without one",
          source_, unlinked));
    if (calls_without_id_ > 0)
      trace_.warnings.push_back(fmt::format(
          "{}: {} CUDA calls in CUPTI_ACTIVITY_KIND_RUNTIME have no correlationId (NULL): the GPU work they launched "
          "is replayed without them; the export is corrupt or was edited",
          source_, calls_without_id_));
    if (skipped_ > 0)
      trace_.warnings.push_back(fmt::format("{}: skipped {} memcpy records of unknown copy kind", source_, skipped_));
    if (undocumented_kind_copies_ > 0) {
      std::vector<std::string> kinds;
      for (const int k : undocumented_kinds_) kinds.push_back(std::to_string(k));
      trace_.warnings.push_back(fmt::format(
          "{}: {} memcpy records give a memory kind (srcKind/dstKind {}) that the profiler does not document{}: their "
          "memory is read as of unknown kind (a host side priced as pinned); the export is corrupt or from a profiler "
          "this reader does not know",
          source_, undocumented_kind_copies_, join(kinds, ", "),
          has_kind_table_ ? " in the export's ENUM_CUDA_MEM_KIND" : ""));
    }
    if (peerless_copies_ > 0)
      trace_.warnings.push_back(fmt::format(
          "{}: {} peer-to-peer (PtoP) memcpy records name no source or destination GPU (srcDeviceId or dstDeviceId "
          "NULL, or a table without them): each is read as a copy within its deviceId's GPU; the export is corrupt or "
          "was edited",
          source_, peerless_copies_));
    if (!runtime_table_ && gpu_work() > 0)
      trace_.warnings.push_back(fmt::format(
          "{}: no CUPTI_ACTIVITY_KIND_RUNTIME table: the {} GPU operations are read without the CUDA calls that "
          "launched them (the CPU side was not traced, or the table was removed), so a replay runs them without the "
          "host's pace between them; trace the CUDA API too (nsys --trace=cuda) for a replay of the application",
          source_, gpu_work()));
    trace_.warn_repeated_transfers(source_);
    for (const auto& [table, n] : backwards_)
      trace_.warnings.push_back(fmt::format("{}: {} records of {} end before they start: read as taking 0 ns",
                                            source_, n, table));
  }

 private:
  Trace& trace_;
  std::string source_;
  std::uint16_t host_;
  std::map<int, std::uint16_t> gpus_;
  std::vector<Op> ops_;
  std::vector<std::pair<std::size_t, std::uint64_t>> gpu_correlation_;
  std::unordered_map<std::uint64_t, std::size_t> call_by_correlation_;
  std::size_t skipped_ = 0;
  std::size_t undocumented_kind_copies_ = 0;  // copies whose srcKind or dstKind no table documents
  std::set<int> undocumented_kinds_;
  std::size_t peerless_copies_ = 0;  // PtoP copies without srcDeviceId or dstDeviceId
  std::size_t calls_without_id_ = 0;  // runtime calls whose correlationId is NULL
  bool runtime_table_ = true;
  bool has_kind_table_ = false;
  std::map<std::string, std::size_t> backwards_;
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

/// The correlation key of the current row from its correlationId and globalPid columns (`c`,
/// `c + 1`); kNullCorrelation where either is NULL.
std::uint64_t correlation_at(const Rows& rows, int c) {
  const SqliteDb::Statement& s = rows.statement();
  if (s.is_null(c) || s.is_null(c + 1)) return kNullCorrelation;
  const std::int64_t id = rows.integer(c, "correlationId");
  if (id < 0 || id > std::numeric_limits<std::uint32_t>::max())
    rows.fail(fmt::format("correlationId {} is not a CUPTI correlation id (0 to 2^32 - 1)", id));
  const std::int64_t global = rows.integer(c + 1, "globalPid");
  if (global < 0) rows.fail(fmt::format("globalPid {} is negative", global));
  return correlation_key(nsys_pid(global), id);
}

/// Whether `table` has the columns that link its rows to their launching calls (Nsight Systems).
bool correlates(const SqliteDb& db, const std::string& table) {
  return db.has_column(table, "correlationId") && db.has_column(table, "globalPid");
}

/// CUPTI_ACTIVITY_KIND_MEMCPY (and nvprof's MEMCPY2), nvprof and Nsight Systems alike; `peer`
/// reads srcDeviceId/dstDeviceId, `correlate` the correlation id and process.
void read_memcpys(const SqliteDb& db, const std::string& table, bool peer, bool correlate, const MemKindTable& mem,
                  Builder& b) {
  Rows rows(db, table,
            fmt::format("SELECT copyKind, srcKind, dstKind, bytes, start, end, deviceId, streamId{}{} FROM {}",
                        peer ? ", srcDeviceId, dstDeviceId" : "", correlate ? ", correlationId, globalPid" : "",
                        table));
  const int corr_col = peer ? 10 : 8;
  while (rows.step()) {
    const SqliteDb::Statement& s = rows.statement();
    Row r;
    r.copy_kind = small(s.i64(0));
    r.src_kind = small(s.i64(1));
    r.dst_kind = small(s.i64(2));
    r.bytes = rows.bytes(3);
    std::tie(r.start, r.duration) = rows.span(4, 5);
    r.device = rows.device(6, "deviceId");
    r.stream = rows.stream(7);
    r.peer_missing = !peer;  // a table without the peer columns names no peer
    if (peer) {
      // A unified-memory migration's host end is no device: CUPTI may write its CPU id there
      // (0xFFFFFFFF), or -1; only its GPU end is read.
      const bool um = r.copy_kind == kUmHtoD || r.copy_kind == kUmDtoH || r.copy_kind == kUmDtoD;
      r.src_device = um && r.copy_kind == kUmHtoD ? -1 : rows.device(8, "srcDeviceId", -1);  // NULL: no peer
      r.dst_device = um && r.copy_kind == kUmDtoH ? -1 : rows.device(9, "dstDeviceId", -1);
      r.peer_missing = r.src_device < 0 || r.dst_device < 0;
      if (r.copy_kind == kDtoD && r.src_device != r.dst_device) r.copy_kind = kPtoP;
    }
    if (correlate) r.correlation = correlation_at(rows, corr_col);
    b.memcpy(r, mem);
  }
  b.backwards(rows);
}

/// CUPTI_ACTIVITY_KIND_MEMSET, the same in nvprof and Nsight Systems exports.
void read_memsets(const SqliteDb& db, Builder& b) {
  const std::string table = "CUPTI_ACTIVITY_KIND_MEMSET";
  if (!db.has_table(table) || !db.has_column(table, "bytes")) return;
  const bool correlate = correlates(db, table);
  Rows rows(db, table,
            fmt::format("SELECT bytes, start, end, deviceId, streamId{} FROM {}",
                        correlate ? ", correlationId, globalPid" : "", table));
  while (rows.step()) {
    Op op;
    op.kind = OpKind::memset;
    op.bytes = rows.bytes(0);
    std::tie(op.start_ns, op.duration_ns) = rows.span(1, 2);
    op.src = op.dst = b.gpu(rows.device(3, "deviceId"));
    op.src_mem = op.dst_mem = MemKind::device;
    op.stream = rows.stream(4);
    b.add(op, correlate ? correlation_at(rows, 5) : kNoCorrelation);
  }
  b.backwards(rows);
}

/// Device names by device id from `query` (columns: id, name) of `table`; the first row of an id names it.
void read_device_names(const SqliteDb& db, const std::string& table, const std::string& query, Trace& trace) {
  Rows rows(db, table, query);
  while (rows.step()) {
    const auto id = static_cast<std::size_t>(rows.device(0, "device id"));
    if (trace.device_names.size() <= id) trace.device_names.resize(id + 1);
    // The first row naming a device keeps it.
    if (trace.device_names[id].empty()) trace.device_names[id] = rows.statement().text(1);
  }
}

/// "allreduce" from "ncclKernel_AllReduce_RING_LL_Sum_float", "ncclDevKernel_AllGather_RING_LL";
/// "unknown" for ncclDevKernel_Generic and the like.
std::string nccl_kind(std::string_view name) {
  std::string n = to_lower(name);
  n.erase(std::remove(n.begin(), n.end(), '_'), n.end());
  for (const char* kind : {"allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "sendrecv", "send",
                           "recv", "reduce"})
    if (n.find(kind) != std::string::npos) return kind;
  return "unknown";
}

/// NCCL kernels in the kernel tables (names resolved through `strings`, a query of (id, value)):
/// neither profiler records their message sizes or communicators, so they are not collectives of
/// this trace; a warning says how many of which kind there are rather than dropping them unsaid.
void warn_nccl_kernels(const SqliteDb& db, const std::string& strings_query, Trace& trace) {
  std::map<std::string, std::size_t> kinds;
  std::vector<std::string> tables;
  for (const char* table : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL"}) {
    if (!db.has_table(table)) continue;
    std::string column;
    for (const char* c : {"shortName", "demangledName", "name"})
      if (column.empty() && db.has_column(table, c)) column = c;
    if (column.empty()) continue;
    SqliteDb::Statement s(db, fmt::format("SELECT k.{0}, n.value FROM {1} k LEFT JOIN ({2}) n ON k.{0} = n.id", column,
                                          table, strings_query));
    std::size_t before = 0;
    for (const auto& [k, n] : kinds) before += n;
    while (s.step()) {
      const std::string name = s.is_null(1) ? s.text(0) : s.text(1);
      if (is_nccl_kernel(name)) ++kinds[nccl_kind(name)];
    }
    std::size_t after = 0;
    for (const auto& [k, n] : kinds) after += n;
    if (after > before) tables.emplace_back(table);
  }
  if (kinds.empty()) return;
  const auto [total, parts] = count_by_kind(kinds);
  trace.warnings.push_back(fmt::format(
      "{}: {} NCCL kernel{} in {} ({}) are not read as collectives: the profiler records neither their message size "
      "nor their communicator, so the data they move is missing from this trace; record the run with the PyTorch "
      "profiler (Kineto) to see its collectives",
      db.path(), total, total == 1 ? "" : "s", join(tables, " and "), parts));
}

bool has_cupti_table(const SqliteDb& db) {
  return std::any_of(db.tables().begin(), db.tables().end(),
                     [](const std::string& t) { return t.starts_with("CUPTI_ACTIVITY_KIND_"); });
}

/// The CUPTI_ACTIVITY_KIND_* tables the export has, for messages.
std::string cupti_tables(const SqliteDb& db) {
  std::vector<std::string> t;
  for (const std::string& name : db.tables())
    if (name.starts_with("CUPTI_ACTIVITY_KIND_")) t.push_back(name);
  return t.empty() ? "none" : join(t, ", ");
}

/// A runtime or driver API name as the CUDA headers spell it: Nsight Systems appends the version
/// of the entry point ("cudaLaunchKernel_v7000", "cudaGetDeviceProperties_v2_v12000"), the PyTorch
/// profiler does not ("cudaLaunchKernel"); the replay recognises calls (cudaStreamSynchronize, cudaMemcpy) by name.
std::string api_name(std::string name) {
  const std::size_t v = name.rfind("_v");
  // Four digits or more: "cuGetProcAddress_v2" and "cudaGetDeviceProperties_v2" are the APIs' names.
  if (v != std::string::npos && v + 6 <= name.size() &&
      std::all_of(name.begin() + static_cast<std::ptrdiff_t>(v) + 2, name.end(),
                  [](char c) { return c >= '0' && c <= '9'; }))
    name.resize(v);
  return name;
}

/// "<pid>/<tid>" of a globalTid, as the Kineto reader names threads ("<pid>/<tid>").
std::string nsys_thread(std::int64_t global_tid) {
  return fmt::format("{}/{}", nsys_pid(global_tid), nsys_tid(global_tid));
}

/// `column` of `table` as a select expression, or NULL where this export has no such column.
std::string column_or_null(const SqliteDb& db, const std::string& table, const std::string& alias,
                           const std::string& column) {
  return db.has_column(table, column) ? alias + "." + column : std::string("NULL");
}

/// The text of a StringIds id column: a join, or NULL where the column or StringIds is missing.
struct StringColumn {
  std::string select = "NULL", join;
};
StringColumn string_column(const SqliteDb& db, const std::string& table, const std::string& alias,
                           const std::string& column, const std::string& join_alias) {
  StringColumn c;
  if (!db.has_column(table, column) || !db.has_table("StringIds")) return c;
  c.select = join_alias + ".value";
  c.join = fmt::format(" LEFT JOIN StringIds {0} ON {1}.{2} = {0}.id", join_alias, alias, column);
  return c;
}

/// CUPTI_ACTIVITY_KIND_RUNTIME: CUDA runtime and driver calls on CPU threads, names from
/// StringIds (version suffix dropped), the thread from globalTid, the correlation id that links a
/// call to the GPU work it launched. Synchronisation calls (cudaStreamSynchronize,
/// cudaDeviceSynchronize, cudaEventSynchronize, synchronous cudaMemcpy) are runtime calls here as
/// in Kineto traces; the replay recognises them by name and timing.
void read_runtime(const SqliteDb& db, Builder& b, Trace& trace) {
  const std::string table = "CUPTI_ACTIVITY_KIND_RUNTIME";
  if (!db.has_table(table)) return;
  require_columns(db, table, {"start", "end", "globalTid", "correlationId"}, "Nsight Systems");
  const StringColumn name = string_column(db, table, "r", "nameId", "n");
  Rows rows(db, table,
            fmt::format("SELECT r.start, r.end, r.globalTid, r.correlationId, {} FROM {} r{}", name.select, table,
                        name.join));
  std::unordered_map<std::int64_t, std::uint32_t> threads;
  while (rows.step()) {
    const SqliteDb::Statement& s = rows.statement();
    Op op;
    op.kind = OpKind::runtime;
    op.src = op.dst = b.host();
    std::tie(op.start_ns, op.duration_ns) = rows.span(0, 1);
    const std::int64_t tid = rows.integer(2, "globalTid");
    if (tid < 0) rows.fail(fmt::format("globalTid {} is negative", tid));
    auto t = threads.find(tid);
    if (t == threads.end()) t = threads.emplace(tid, trace.thread_names.intern(nsys_thread(tid))).first;
    op.thread = t->second;
    if (!s.is_null(4)) op.name = trace.op_names.intern(api_name(s.text(4)));
    std::uint64_t key = kNoCorrelation;
    if (!s.is_null(3)) {
      const std::int64_t id = rows.integer(3, "correlationId");
      if (id < 0 || id > std::numeric_limits<std::uint32_t>::max())
        rows.fail(fmt::format("correlationId {} is not a CUPTI correlation id (0 to 2^32 - 1)", id));
      key = correlation_key(nsys_pid(tid), id);
    }
    b.add_call(op, key);
  }
  b.backwards(rows);
}

/// SM counts by CUDA device index, from TARGET_INFO_GPU (cuDevice is the index CUPTI's deviceId
/// uses; `id` is Nsight Systems' own GPU number, which differs on multi-GPU machines: the JACC
/// 4 x A100 export numbers cuDevice 0 as id 3).
std::map<int, int> sm_counts(const SqliteDb& db) {
  std::map<int, int> sms;
  const std::string table = "TARGET_INFO_GPU";
  if (!db.has_table(table) || !db.has_column(table, "smCount")) return sms;
  const std::string device = db.has_column(table, "cuDevice") ? "cuDevice" : "id";
  if (!db.has_column(table, device)) return sms;
  Rows rows(db, table, fmt::format("SELECT {}, smCount FROM {}", device, table));
  while (rows.step()) {
    const std::int64_t sm = rows.integer(1, "smCount", 0);
    if (rows.statement().is_null(0) || sm <= 0 || sm > 100000) continue;
    sms[rows.device(0, device)] = static_cast<int>(sm);
  }
  return sms;
}

/// A grid or block dimension product, saturating at 2^32 - 1 (CUDA allows 2^31 - 1 x 65535 x 65535).
std::uint32_t dims(const Rows& rows, int first, std::string_view what) {
  double product = 1;
  bool known = false;
  for (int c = first; c < first + 3; ++c) {
    if (rows.statement().is_null(c)) continue;
    const std::int64_t v = rows.integer(c, what);
    if (v < 0) rows.fail(fmt::format("{} dimension {} is negative", what, v));
    product *= static_cast<double>(v);
    known = true;
  }
  if (!known) return 0;
  return product >= 4294967295.0 ? 4294967295u : static_cast<std::uint32_t>(product);
}

/// CUPTI_ACTIVITY_KIND_KERNEL: every kernel as GPU work of its recorded duration with its launch
/// (grid, block, registers, shared memory; blocks per SM from TARGET_INFO_GPU's SM count) and
/// its demangled name (the form Kineto records). NCCL kernels are kernels too: Nsight Systems
/// records neither their message size nor their communicator; `nccl` counts them by kind.
void read_kernels(const SqliteDb& db, Builder& b, Trace& trace, std::map<std::string, std::size_t>& nccl) {
  const std::string table = "CUPTI_ACTIVITY_KIND_KERNEL";
  if (!db.has_table(table)) return;
  require_columns(db, table, {"start", "end", "deviceId", "streamId"}, "Nsight Systems");
  const bool correlate = correlates(db, table);
  const StringColumn demangled = string_column(db, table, "k", "demangledName", "d");
  const StringColumn short_name = string_column(db, table, "k", "shortName", "s");
  auto col = [&](const char* c) { return column_or_null(db, table, "k", c); };
  Rows rows(db, table,
            fmt::format("SELECT k.start, k.end, k.deviceId, k.streamId, {}, {}, COALESCE({}, {}), {}, {}, {}, {}, {}, "
                        "{}, {}, {}, {} FROM {} k{}{}",
                        correlate ? "k.correlationId" : "NULL", correlate ? "k.globalPid" : "NULL", demangled.select,
                        short_name.select, col("gridX"), col("gridY"), col("gridZ"), col("blockX"), col("blockY"),
                        col("blockZ"), col("registersPerThread"), col("staticSharedMemory"),
                        col("dynamicSharedMemory"), table, demangled.join, short_name.join));
  const std::map<int, int> sms = sm_counts(db);
  while (rows.step()) {
    const SqliteDb::Statement& s = rows.statement();
    Op op;
    op.kind = OpKind::kernel;
    std::tie(op.start_ns, op.duration_ns) = rows.span(0, 1);
    const int device = rows.device(2, "deviceId");
    op.src = op.dst = b.gpu(device);
    op.src_mem = op.dst_mem = MemKind::device;
    op.stream = rows.stream(3);
    const std::string name = s.is_null(6) ? std::string() : s.text(6);
    if (!name.empty()) op.name = trace.op_names.intern(name);
    if (is_nccl_kernel(name)) ++nccl[nccl_kind(name)];
    KernelInfo info;
    info.grid_blocks = dims(rows, 7, "grid");
    info.block_threads = dims(rows, 10, "block");
    const std::int64_t registers = s.is_null(13) ? 0 : rows.integer(13, "registersPerThread");
    if (registers < 0 || registers > 65535) rows.fail(fmt::format("registersPerThread {} is not a register count", registers));
    info.registers = static_cast<std::uint16_t>(registers);
    const std::int64_t shared = (s.is_null(14) ? 0 : rows.integer(14, "staticSharedMemory")) +
                                (s.is_null(15) ? 0 : rows.integer(15, "dynamicSharedMemory"));
    if (shared < 0 || shared > std::numeric_limits<std::uint32_t>::max())
      rows.fail(fmt::format("shared memory {} B per block is not a size", shared));
    info.shared_bytes = static_cast<std::uint32_t>(shared);
    if (const auto sm = sms.find(device); sm != sms.end() && info.grid_blocks > 0)
      info.blocks_per_sm = static_cast<float>(static_cast<double>(info.grid_blocks) / sm->second);
    if (info.grid_blocks > 0 || info.block_threads > 0) op.kernel = trace.add_kernel_info(info);
    b.add(op, correlate ? correlation_at(rows, 4) : kNoCorrelation);
  }
  b.backwards(rows);
}

/// NVTX_EVENTS ranges (push/pop and start/end, NVTX and NVTXT) as annotations on their thread:
/// what record_function spans are in a Kineto trace. Marks (instants) and ranges never closed are
/// left out.
void read_nvtx(const SqliteDb& db, Builder& b, Trace& trace) {
  const std::string table = "NVTX_EVENTS";
  if (!db.has_table(table) || !db.has_column(table, "eventType") || !db.has_column(table, "end")) return;
  require_columns(db, table, {"start", "end", "globalTid"}, "Nsight Systems");
  // Event type ids: the export's own ENUM_NSYS_EVENT_TYPE where it has one, else the documented
  // numbers (59 NvtxPushPopRange, 60 NvtxStartEndRange, 70 and 71 their NVTXT forms).
  std::vector<std::string> types;
  if (db.has_table("ENUM_NSYS_EVENT_TYPE")) {
    SqliteDb::Statement s(db, "SELECT id, name FROM ENUM_NSYS_EVENT_TYPE");
    while (s.step()) {
      const std::string n = s.text(1);
      if (n == "NvtxPushPopRange" || n == "NvtxStartEndRange" || n == "NvtxtPushPopRange" || n == "NvtxtStartEndRange")
        types.push_back(std::to_string(s.i64(0)));
    }
  }
  if (types.empty()) types = {"59", "60", "70", "71"};
  const StringColumn text = string_column(db, table, "e", "textId", "t");
  const std::string own_text = column_or_null(db, table, "e", "text");
  Rows rows(db, table,
            fmt::format("SELECT e.start, e.end, e.globalTid, COALESCE({}, {}) FROM {} e{} WHERE e.eventType IN ({}) "
                        "AND e.end IS NOT NULL",
                        own_text, text.select, table, text.join, join(types, ", ")));
  while (rows.step()) {
    const SqliteDb::Statement& s = rows.statement();
    Op op;
    op.kind = OpKind::annotation;
    op.src = op.dst = b.host();
    std::tie(op.start_ns, op.duration_ns) = rows.span(0, 1);
    if (!s.is_null(2)) {
      const std::int64_t tid = rows.integer(2, "globalTid");
      if (tid < 0) rows.fail(fmt::format("globalTid {} is negative", tid));
      op.thread = trace.thread_names.intern(nsys_thread(tid));
    }
    if (!s.is_null(3)) op.name = trace.op_names.intern(s.text(3));
    b.add(op);
  }
  b.backwards(rows);
}

}  // namespace

std::string detect_profiler_db(const SqliteDb& db) {
  // Nsight Systems writes META_DATA_EXPORT, StringIds and TARGET_INFO_* whatever it traced (an
  // export of CPU sampling alone has no CUPTI table at all); nvprof writes StringTable and Version.
  if (db.has_table("META_DATA_EXPORT") || db.has_table("TARGET_INFO_GPU") || db.has_table("StringIds")) return "nsys";
  if (db.has_table("StringTable") || (db.has_table("Version") && has_cupti_table(db))) return "nvprof";
  return "";
}

Trace read_nvprof(const SqliteDb& db) {
  Trace trace;
  trace.format = "nvprof";
  trace.source_file = db.path();
  Builder b(trace, db.path());
  const MemKindTable cupti = make_table(&cupti_mem_kind, 7);
  if (db.has_table("CUPTI_ACTIVITY_KIND_MEMCPY")) {
    const std::string t = "CUPTI_ACTIVITY_KIND_MEMCPY";
    require_columns(db, t, {"copyKind", "srcKind", "dstKind", "bytes", "start", "end", "deviceId", "streamId"}, "nvprof");
    read_memcpys(db, t, false, false, cupti, b);
  }
  if (db.has_table("CUPTI_ACTIVITY_KIND_MEMCPY2")) {
    const std::string t = "CUPTI_ACTIVITY_KIND_MEMCPY2";
    require_columns(db, t, {"copyKind", "srcKind", "dstKind", "bytes", "start", "end", "deviceId", "streamId",
                            "srcDeviceId", "dstDeviceId"}, "nvprof");
    read_memcpys(db, t, true, false, cupti, b);
  }
  read_memsets(db, b);
  if (db.has_table("CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER") &&
      db.has_column("CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER", "srcId")) {
    // counterKind 1: bytes host -> device, 2: bytes device -> host (CUpti_ActivityUnifiedMemoryCounterKind).
    Rows rows(db, "CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER",
              "SELECT counterKind, value, start, end, srcId, dstId, streamId FROM "
              "CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER WHERE counterKind IN (1, 2)");
    while (rows.step()) {
      Row r;
      r.copy_kind = rows.statement().i64(0) == 1 ? kUmHtoD : kUmDtoH;
      r.bytes = rows.bytes(1, "value");
      std::tie(r.start, r.duration) = rows.span(2, 3);
      // The host end of a migration has a CPU id in srcId/dstId: only the GPU end is a device.
      if (r.copy_kind == kUmHtoD) r.dst_device = rows.device(5, "dstId");
      else r.src_device = rows.device(4, "srcId");
      r.stream = rows.stream(6);
      b.memcpy(r, cupti);
    }
    b.backwards(rows);
  }
  if (db.has_table("CUPTI_ACTIVITY_KIND_DEVICE") && db.has_table("StringTable")) {
    read_device_names(db, "CUPTI_ACTIVITY_KIND_DEVICE",
                      "SELECT d.id, s.value FROM CUPTI_ACTIVITY_KIND_DEVICE d JOIN StringTable s "
                      "ON d.name = s._id_ ORDER BY d.id",
                      trace);
  }
  if (db.has_table("StringTable")) warn_nccl_kernels(db, "SELECT _id_ AS id, value FROM StringTable", trace);
  if (b.size() == 0) {
    trace.warnings.push_back(fmt::format(
        "{}: no GPU transfers (copies, memsets, unified-memory migrations) in this database (CUPTI tables: {}): "
        "record the GPU activity with `nvprof --export-profile FILE.nvvp ./app`",
        db.path(), cupti_tables(db)));
  }
  b.finish();
  return trace;
}

namespace {

/// Why an export holds no GPU transfers, and how to record one that does: CUDA traced but no data
/// moved (`gpu_work` kernels read); the CUDA API traced without the GPU's activity (Nsight Systems
/// under WSL2 records the calls, COLLECT_CUDA_TRACE, and no CUPTI activity at all), with or
/// without copy calls among them; or CUDA not traced. Counts the API calls from the export only
/// here, where there is nothing else to read.
std::string no_transfers_warning(const SqliteDb& db, std::size_t gpu_work) {
  constexpr std::string_view kRecord = "record with `nsys profile -t cuda,nvtx ./app` and export with `nsys export --type sqlite`";
  const auto warning = [&](const std::string& why, std::string_view where = {}) {
    return fmt::format("{}: no GPU transfers (copies, memsets) in this export: {}; {}{}", db.path(), why, kRecord, where);
  };
  if (db.has_table("CUPTI_ACTIVITY_KIND_MEMCPY") || db.has_table("CUPTI_ACTIVITY_KIND_MEMSET") ||
      db.has_table("CUPTI_ACTIVITY_KIND_KERNEL"))
    return warning(fmt::format("it traced CUDA ({} kernels read) but its CUPTI_ACTIVITY_KIND_MEMCPY and _MEMSET tables "
                               "are empty or absent (the application moved no data while traced)",
                               gpu_work));
  std::int64_t data_calls = 0, api_calls = 0;
  if (const std::string table = "CUPTI_ACTIVITY_KIND_RUNTIME"; db.has_table(table)) {
    const StringColumn name = string_column(db, table, "r", "nameId", "n");
    if (!name.join.empty()) {
      SqliteDb::Statement count(db, fmt::format("SELECT COUNT(*), SUM({1} LIKE 'cudaMemcpy%' OR {1} LIKE 'cudaMemset%' "
                                                "OR {1} LIKE 'cuMemcpy%' OR {1} LIKE 'cuMemset%') FROM {0} r{2}",
                                                table, name.select, name.join));
      if (count.step()) {
        api_calls = count.i64(0);
        data_calls = count.is_null(1) ? 0 : count.i64(1);
      }
    }
  }
  if (data_calls > 0)
    return warning(fmt::format("it traced the CUDA API ({} copy and memset calls) but recorded no GPU activity (no "
                               "CUPTI_ACTIVITY_KIND_MEMCPY, _MEMSET or _KERNEL table), as Nsight Systems does where it "
                               "cannot trace the GPU (under WSL2, for one)",
                               data_calls),
                   " on a machine where Nsight Systems traces the GPU (native Linux)");
  if (api_calls > 0)
    return warning(fmt::format("it traced the CUDA API ({} calls, none of them a copy or memset) and recorded no GPU "
                               "activity: the application moved no data while traced",
                               api_calls));
  return warning(fmt::format("it has no CUPTI_ACTIVITY_KIND_MEMCPY or _MEMSET table, so CUDA was not traced (CUPTI "
                             "tables: {})",
                             cupti_tables(db)));
}
}  // namespace

Trace read_nsys(const SqliteDb& db) {
  Trace trace;
  trace.format = "nsys";
  trace.source_file = db.path();
  Builder b(trace, db.path());

  // Memory kinds: from the database's own enum table when it has one, else as documented.
  MemKindTable mem = make_table(&nsys_default_mem_kind, 7);
  if (db.has_table("ENUM_CUDA_MEM_KIND")) {
    mem = MemKindTable{};
    b.set_kind_table(true);
    SqliteDb::Statement s(db, "SELECT id, name FROM ENUM_CUDA_MEM_KIND");
    while (s.step()) {
      const std::int64_t id = s.i64(0);
      const std::string name = to_lower(s.text(1));
      if (id < 0 || id >= MemKindTable::kSize) continue;
      MemKind k = MemKind::unknown;
      if (name.find("pageable") != std::string::npos) k = MemKind::pageable;
      else if (name.find("pinned") != std::string::npos) k = MemKind::pinned;
      else if (name.find("managed") != std::string::npos) k = MemKind::managed;
      else if (name.find("device") != std::string::npos || name.find("array") != std::string::npos) k = MemKind::device;
      mem.kind[static_cast<std::size_t>(id)] = k;
      mem.documented.set(static_cast<std::size_t>(id));
    }
  }

  if (db.has_table("CUPTI_ACTIVITY_KIND_MEMCPY")) {
    const std::string t = "CUPTI_ACTIVITY_KIND_MEMCPY";
    require_columns(db, t, {"copyKind", "srcKind", "dstKind", "bytes", "start", "end", "deviceId", "streamId"},
                    "Nsight Systems");
    read_memcpys(db, t, db.has_column(t, "srcDeviceId") && db.has_column(t, "dstDeviceId"), correlates(db, t), mem, b);
  }
  read_memsets(db, b);
  std::map<std::string, std::size_t> nccl;
  read_kernels(db, b, trace, nccl);
  b.set_runtime_table(db.has_table("CUPTI_ACTIVITY_KIND_RUNTIME"));
  read_runtime(db, b, trace);
  read_nvtx(db, b, trace);
  if (db.has_table("TARGET_INFO_GPU") && db.has_column("TARGET_INFO_GPU", "name")) {
    // By CUDA device index (cuDevice), the index CUPTI's deviceId uses; `id` in older exports.
    // Windows exports list every display adapter, each with cuDevice 0 (a GeForce GTX 1060 beside
    // "Intel(R) HD Graphics 630" and "Microsoft Basic Render Driver", Nsight Systems 2022.1): the
    // adapters that are no CUDA device have no SMs, and do not name one.
    const std::string device = db.has_column("TARGET_INFO_GPU", "cuDevice") ? "cuDevice" : "id";
    const std::string cuda_only =
        db.has_column("TARGET_INFO_GPU", "smCount") ? " AND (smCount IS NULL OR smCount > 0)" : "";
    if (db.has_column("TARGET_INFO_GPU", device))
      read_device_names(
          db, "TARGET_INFO_GPU",
          fmt::format("SELECT {0}, name FROM TARGET_INFO_GPU WHERE {0} IS NOT NULL{1} ORDER BY {0}", device, cuda_only),
          trace);
  }
  if (!nccl.empty()) {
    const auto [total, parts] = count_by_kind(nccl);
    trace.warnings.push_back(fmt::format(
        "{}: {} NCCL kernel{} ({}) kept as kernels of their recorded duration, not as collectives: Nsight Systems "
        "records neither their message size nor their communicator, so the data they move is missing from the "
        "transfer views; record the run with the PyTorch profiler (Kineto, record_shapes=True) to see its collectives",
        db.path(), total, total == 1 ? "" : "s", parts));
  }
  if (b.transfers() == 0) trace.warnings.push_back(no_transfers_warning(db, b.gpu_work()));
  b.finish();
  return trace;
}

}  // namespace linkcast::trace
