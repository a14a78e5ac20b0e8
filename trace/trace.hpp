// One in-memory trace for every source (profiler databases, Kineto JSON, linkcast CSV, the
// synthetic backend): a columnar table of operations plus string tables for the endpoint names,
// data objects, source lines and communicators the operations refer to by id.
//
// Per operation it stores 35 bytes: kind, src/dst endpoint ids, two memory kinds, bytes, start
// and duration, and stream. The issuer, object/line/comm/group ids, root, name, CPU thread, the
// operation that launched it, flags and the index into the kernel table take 37 bytes more, each
// only once some operation has one (trace/column.hpp): a plain copy trace has none of them.
//
// A trace holds what moves data (copies, accesses, migrations, memsets, collectives, send/recv)
// and, where the recording has them, the rest of the application: GPU kernels, CUDA runtime and
// driver calls on CPU threads, and user annotations (ProfilerStep#N, record_function). Consumers
// that only see data movement skip the others (moves_data()).
//
// Conventions every reader, the synthetic backend and every consumer follow:
//  - copy/migrate/send/recv: data moves from src to dst.
//  - access: device-initiated loads/stores; data moves from src to dst; `issuer` is the device
//    whose threads issued them (loads: dst, stores: src).
//  - collectives are recorded once per rank, as profilers record them: src = dst = that rank's
//    GPU, `group` = the GPUs of the communicator in rank order, `comm` = the communicator's
//    name, `bytes` counted as nccl-tests does (allgather's output, reducescatter's input, each
//    rank's alltoall send buffer, the whole buffer otherwise). The k-th collective of
//    communicator C on each rank belong to the same call.
//  - endpoint "host" is a host whose socket the recording did not tell; it resolves to the
//    GPU's own socket on the node the trace is projected or simulated on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/transfer.hpp"
#include "trace/column.hpp"

namespace linkcast::trace {

enum class OpKind : std::uint8_t {
  copy,           // copy-engine copy (cudaMemcpy*, PyTorch .to())
  access,         // device-initiated loads/stores (peer access, zero-copy)
  migrate,        // unified-memory page migration
  memset,         // memset on a device
  allreduce,
  allgather,
  reducescatter,
  broadcast,
  reduce,
  alltoall,
  send,
  recv,
  kernel,      // a GPU kernel that is not a collective: src = dst = its GPU
  runtime,     // a CUDA runtime or driver call on a CPU thread: src = dst = the host
  annotation,  // a user annotation span on a CPU thread (ProfilerStep#N, record_function)
};
inline constexpr std::size_t kOpKindCount = 15;
static_assert(kOpKindCount == static_cast<std::size_t>(OpKind::annotation) + 1, "kOpKindCount counts every OpKind");
std::string_view to_string(OpKind kind);
[[nodiscard]] std::optional<OpKind> parse_op_kind(std::string_view name);
std::vector<std::string> op_kind_names();
bool is_collective(OpKind kind);
/// Copies, accesses, migrations, memsets, collectives, send and recv: what the communication
/// views, the projection of transfers and the link model see.
inline bool moves_data(OpKind kind) { return kind < OpKind::kernel; }
/// Work that runs on a GPU stream: everything that moves data or computes (not runtime calls
/// and annotations, which run on CPU threads).
inline bool runs_on_gpu(OpKind kind) { return kind <= OpKind::kernel; }
/// Runtime calls and annotations.
inline bool runs_on_cpu(OpKind kind) { return kind == OpKind::runtime || kind == OpKind::annotation; }

/// Interned strings; id 0 is the empty string ("none").
class StringTable {
 public:
  StringTable();
  std::uint32_t intern(std::string_view s);
  const std::string& operator[](std::uint32_t id) const { return strings_[id]; }
  std::size_t size() const { return strings_.size(); }
  [[nodiscard]] std::optional<std::uint32_t> find(std::string_view s) const;

 private:
  std::vector<std::string> strings_;
  std::unordered_map<std::string, std::uint32_t> index_;
};

inline constexpr std::uint16_t kNoEndpoint = 0xFFFF;
inline constexpr std::int64_t kUnknownTime = -1;
/// No launching operation / no kernel record.
inline constexpr std::uint32_t kNoIndex = 0xFFFFFFFF;

/// Op::flags bits.
enum OpFlag : std::uint8_t {
  /// The destination was allocated for this copy (a new tensor: PyTorch's `.to()`, `.cpu()`):
  /// pageable destinations then fault their pages in during the copy.
  kFreshDestination = 1,
  /// A transfer (not a collective) whose recorded span overlaps a kernel's on one of its GPUs: it
  /// competed with compute for the GPU's memory or SMs (trace::data_movement marks it from the
  /// kernels before it drops them).
  kBesideCompute = 2,
  /// A send or recv whose peer end (a send's dst, a recv's src) names the peer's rank (gpu<rank>)
  /// rather than a GPU this trace ran on: PyTorch's "Dst Rank" / "Src Rank" of an NCCL send or
  /// recv kernel. The ranks of a job are placed by merge_ranks, which keeps that name.
  kPeerByRank = 4,
};

/// What a profiler recorded about a kernel's launch (Kineto's args; nsys' CUPTI_ACTIVITY_KIND_KERNEL).
struct KernelInfo {
  std::uint32_t grid_blocks = 0;    // blocks in the grid (x * y * z); 0 unknown
  std::uint32_t block_threads = 0;  // threads per block (x * y * z); 0 unknown
  float blocks_per_sm = 0;          // grid blocks / SMs, as Kineto reports it; 0 unknown
  std::uint16_t registers = 0;      // registers per thread; 0 unknown
  std::uint32_t shared_bytes = 0;   // shared memory per block
  /// Resident warps as a share of the SM's maximum, 0-100, as the profiler estimated it (Kineto's
  /// "est. achieved occupancy %"); -1 unknown.
  std::int8_t occupancy_pct = -1;
  /// Bytes of the tensors the operator that launched it took (Kineto's "Input Dims" of the CPU
  /// operator of the kernel's "External id", times the sizes of their "Input type"s); 0 unknown.
  double input_bytes = 0;
};

/// One row, by value: what builders push and what op(i) returns.
struct Op {
  OpKind kind = OpKind::copy;
  std::uint16_t src = 0;  // endpoint ids (Trace::endpoint_name)
  std::uint16_t dst = 0;
  std::uint16_t issuer = kNoEndpoint;  // device that issued an access (loads: dst, stores: src)
  model::MemKind src_mem = model::MemKind::unknown;
  model::MemKind dst_mem = model::MemKind::unknown;
  std::uint64_t bytes = 0;
  std::int64_t start_ns = kUnknownTime;
  std::int64_t duration_ns = kUnknownTime;
  std::uint32_t stream = 0;
  std::uint32_t object = 0;  // StringTable ids, 0 = none
  std::uint32_t line = 0;
  std::uint32_t comm = 0;
  std::uint32_t group = 0;   // Trace::group id, 0 = none
  std::int16_t root = -1;    // collective root rank within the group, -1 = none
  std::uint32_t name = 0;    // Trace::op_names id: kernel, API or annotation name; 0 = none
  std::uint32_t thread = 0;  // Trace::thread_names id of a CPU-side operation's thread; 0 = none
  /// GPU work: the record of the runtime call that launched it (kNoIndex: unknown).
  std::uint32_t launch = kNoIndex;
  std::uint8_t flags = 0;    // OpFlag bits
  /// Kernels (and collectives): index into Trace::kernel_info(), kNoIndex when not recorded.
  std::uint32_t kernel = kNoIndex;
};

/// The communicator of a collective or a send/recv: its recorded name together with its member
/// list. Communicators without a name are told apart by their members, and a name reused for other
/// members is another communicator (the matrices report the reuse as a failed check).
[[nodiscard]] constexpr std::uint64_t communicator_key(const Op& op) {
  return (std::uint64_t{op.comm} << 32) | op.group;
}

class Trace;

/// The calls of a trace's collectives: NCCL issues the calls of one communicator in the same
/// order on every rank, so the k-th collective record of communicator C on each rank belongs to
/// call k of C. A job's ranks read from several files pair by recorded time instead where C runs
/// only collectives whose ranks' kernels overlap (allreduce, all-gather, reduce-scatter,
/// all-to-all) and time gives more calls whose every rank's record overlaps the others' than
/// order does: a rank whose profile lacks a call leaves it out of that call, not every call
/// after it. Calls in the order they ran (by their earliest recorded start where every record
/// has one, else by their first record), each call's records in trace order. Collectives without a group (no
/// members) are in no call.
[[nodiscard]] std::vector<std::vector<std::size_t>> collective_calls(const Trace& trace);

/// CUDA stages a pageable copy through pinned buffers of 1 MiB: the CPU copies one chunk while
/// the DMA engine moves the one before. A profiler that records the GPU's activity (CUPTI's
/// activity records: Kineto, Nsight Systems, nvprof) times a copy from its first DMA to its last,
/// so a copy of at most one chunk shows its DMA alone, at the link's rate, and the CPU's staging
/// lies in the runtime call before it; CUDA events on the stream around the copy (linkcast CSV
/// from tools/record) time the staging too. Measured on one H200 (tests/data/real/
/// h200-1gpu-pageable, tools/record/pageable_chunks.py, 20 copies a size, medians): pageable H2D
/// of 128 KiB-1 MiB took 1.00-1.02x the pinned copy's GPU time (21.55 against 21.52 us at 1 MiB;
/// 64 KiB 1.5x), 1.12x at 1.25 MiB, 2.0x at 2 MiB; D2H 1.0-1.4x up to 1 MiB, 1.6-1.8x at
/// 1.25-2 MiB; between CUDA events 5.4-9.4x the pinned copy's GPU time for H2D of 128 KiB-1 MiB.
/// The Kineto traces of the H100 and H200 apps agree (1 MiB both ways at 48-50 GB/s, 4 MiB H2D
/// and 2.25 MiB D2H at 15-19).
inline constexpr double kPageableStagingChunkBytes = 1024.0 * 1024.0;
/// Whether `trace` times its GPU work by CUPTI's activity records (its format is kineto, nsys or
/// nvprof), not by CUDA events around it (csv) or by a synthetic runtime.
[[nodiscard]] bool times_gpu_activity(const Trace& trace);
/// How the host end of a pageable copy of `bytes` recorded in `trace` shows on its GPU timeline:
/// direct (the DMA alone) for at most one staging chunk in a trace that times GPU activity, else
/// staged (model::HostRegime).
[[nodiscard]] model::HostRegime recorded_regime(const Trace& trace, double bytes);
/// The bytes of a staged pageable copy of `bytes` in `trace` whose staging its time does not show
/// (model::Transfer::unstaged_bytes): its first chunk in a trace that times GPU activity (staged
/// before the first DMA), else none. Measured (h200-1gpu-pageable): H2D of 2 MiB took 81 us, one
/// chunk's DMA (21.5 us) and the second chunk staged beside it; 8 MiB 504 us.
[[nodiscard]] double unstaged_bytes(const Trace& trace, double bytes);

/// What a transfer-time model prices for operation `op` over a path of class `cls` (where its
/// ends are on the node): its bytes and how they move. A copy moves them with its path class's
/// natural access (model::copy_access); a device-initiated access pulls data to its issuer with
/// reads (a load) or pushes it with writes (a store, issued by the source), in warp-sized requests
/// (one warp's coalesced 32 x 4 B); a memset only writes. `pageable`: the host end is pageable
/// memory, by the caller's rule. The fixed cost (L + O) is the caller's to set.
[[nodiscard]] inline model::Transfer transfer_of(const Op& op, model::PathClass cls, bool pageable);
/// The same for operation i of `trace`, reading only the columns it needs (a projection prices
/// every operation under several models: building the whole row each time was a tenth of it).
[[nodiscard]] inline model::Transfer transfer_of(const Trace& trace, std::size_t i, model::PathClass cls, bool pageable);

class Trace {
 public:
  Trace();

  /// Interns an endpoint name ("cpu0", "gpu3", or "host" for a host whose socket the recording
  /// did not tell: it resolves to the GPU's own socket on the node it is projected onto).
  std::uint16_t endpoint(std::string_view name);
  const std::string& endpoint_name(std::uint16_t id) const { return endpoints_[id]; }
  std::size_t endpoint_count() const { return endpoints_.size(); }
  const std::vector<std::string>& endpoint_names() const { return endpoints_; }

  /// Collective member lists (endpoint ids); id 0 is the empty group.
  std::uint32_t add_group(const std::vector<std::uint16_t>& members);
  const std::vector<std::uint16_t>& group(std::uint32_t id) const { return groups_[id]; }
  std::size_t group_count() const { return groups_.size(); }

  /// Launch parameters of kernels; an Op refers to one by Op::kernel.
  std::uint32_t add_kernel_info(const KernelInfo& info);
  const KernelInfo& kernel_info(std::uint32_t index) const { return kernels_[index]; }
  KernelInfo& kernel_info(std::uint32_t index) { return kernels_[index]; }
  std::size_t kernel_info_count() const { return kernels_.size(); }

  void reserve(std::size_t n);
  void push(const Op& op);
  /// Sets OpFlag bits on operation i.
  void add_flags(std::size_t i, std::uint8_t bits) {
    flags_.set(i, static_cast<std::uint8_t>(flags_[i] | bits), kind_.size());
    sparse_held_ = true;
  }
  /// Sets the launching call (a record index) of operation i.
  void set_launch(std::size_t i, std::uint32_t record) {
    launch_.set(i, record, kind_.size());
    sparse_held_ = true;
  }
  /// Sets the kernel record (add_kernel_info's index) of operation i.
  void set_kernel(std::size_t i, std::uint32_t kernel) {
    kernel_.set(i, kernel, kind_.size());
    sparse_held_ = true;
  }
  /// Puts the operations in the order of their recorded starts (stable: ties keep their order),
  /// with the launch links following their records. Column by column: the memory it takes beyond
  /// the trace's is 8 bytes an operation and one column's copy (a reader that collected its rows
  /// apart to sort them held them twice).
  void order_by_start();
  /// Removes every operation and kernel record (the string tables, groups and metadata stay).
  void clear_operations();
  Op op(std::size_t i) const;
  std::size_t size() const { return kind_.size(); }
  bool empty() const { return kind_.empty(); }

  // Column access for tight loops.
  const std::vector<OpKind>& kinds() const { return kind_; }
  const std::vector<std::uint16_t>& srcs() const { return src_; }
  const std::vector<std::uint16_t>& dsts() const { return dst_; }
  const std::vector<std::uint64_t>& bytes() const { return bytes_; }
  const std::vector<std::int64_t>& starts() const { return start_; }
  const std::vector<std::int64_t>& durations() const { return duration_; }
  const std::vector<model::MemKind>& src_mems() const { return src_mem_; }
  const std::vector<model::MemKind>& dst_mems() const { return dst_mem_; }
  const std::vector<std::uint32_t>& streams() const { return stream_; }
  const SparseColumn<std::uint16_t>& issuers() const { return issuer_; }
  const SparseColumn<std::uint32_t>& group_ids() const { return group_; }  // per operation (Op::group)
  const SparseColumn<std::uint32_t>& names() const { return name_; }
  const SparseColumn<std::uint32_t>& threads() const { return thread_; }
  const SparseColumn<std::uint32_t>& launches() const { return launch_; }
  const SparseColumn<std::uint8_t>& flags() const { return flags_; }

  StringTable objects;
  StringTable lines;
  StringTable comms;
  /// Names of kernels, runtime calls and annotations (Op::name).
  StringTable op_names;
  /// CPU threads, "<process>/<thread>" as the profiler numbered them (Op::thread).
  StringTable thread_names;
  /// Whether any operation is GPU compute, a runtime call or an annotation: the recording holds
  /// the whole application, not only its data movement.
  bool has_application() const { return application_ops_ > 0; }

  // Metadata about where the trace came from.
  std::string source_file;
  std::string format;                     // "nvprof", "nsys", "kineto", "csv", "synthetic"
  std::vector<std::string> device_names;  // by GPU index where known ("Tesla V100-SXM2-16GB")
  /// The recording process's rank in its job and the job's size, where the profiler says
  /// (Kineto's distributedInfo); -1 and 0 when unknown.
  int rank = -1;
  int world_size = 0;
  /// What the recorded start times count from, in ns since the epoch, where the profiler says
  /// (Kineto's baseTimeNanoseconds: its events' ts are relative to it); 0 where the times are
  /// absolute or their origin unknown. Merging ranks aligns them by it.
  std::int64_t base_time_ns = 0;
  /// Things the reader skipped or guessed, shown to the user on standard error.
  std::vector<std::string> warnings;
  /// For line-oriented formats: the file line of record 0 (record i is on line offset + i);
  /// 0 when records have no line numbers.
  std::size_t record_line_offset = 0;
  /// A job's rank traces read as one (merge_ranks): each file's first record here, in order.
  std::vector<std::pair<std::size_t, std::string>> record_files;
  /// "record 12 (line 14)" or "record 12", for messages about one operation.
  std::string describe_record(std::size_t i) const;
  /// "FILE: record 12 (line 14)": the file the record was read from (one rank's, in a job read
  /// from several) and its number there.
  std::string locate_record(std::size_t i) const;
  /// Refuses a trace read from `where` whose operation moves more than kMaxOpBytes, or whose
  /// operations move more than kMaxTraceBytes together, naming the record and the limit.
  void check_byte_counts(const std::string& where) const;
  /// Adds a warning naming how many copies, memsets and collectives repeat one before them field
  /// for field (kind, ends, memory, bytes, stream, start, duration): a trace joined with itself,
  /// rows inserted twice. The trace is in start order (every reader's finish leaves it so).
  void warn_repeated_transfers(const std::string& where);
  /// Adds a warning where GPU work starts more than a millisecond before the runtime call its
  /// launch link names (a corrupt time, or clocks apart): replays place it after its launch.
  void warn_work_before_launch(const std::string& where);
  /// Adds a warning where the operations of a trace read from `where` span more than a week.
  void warn_implausible_span(const std::string& where);

  /// Removes, in place and in order, every operation that does not move data (kernels, runtime
  /// calls, annotations); the launch links and kernel records go with them (trace/select.hpp).
  void drop_application();

  /// Frees the room the reader reserved beyond the operations held (a job of many small rank
  /// files holds each until they are merged).
  void shrink_to_fit();

  /// Approximate heap bytes held, for the memory budget checks in benchmarks.
  std::size_t memory_bytes() const;

 private:
  std::vector<std::string> endpoints_;
  std::unordered_map<std::string, std::uint16_t> endpoint_index_;
  std::vector<std::vector<std::uint16_t>> groups_;
  /// A group's id by its members' hash (ids of groups whose members hash alike): a trace of
  /// hundreds of thousands of distinct groups is read in linear time.
  std::unordered_multimap<std::size_t, std::uint32_t> group_index_;

  // Every recording fills these.
  std::vector<OpKind> kind_;
  std::vector<std::uint16_t> src_, dst_;
  std::vector<model::MemKind> src_mem_, dst_mem_;
  std::vector<std::uint64_t> bytes_;
  std::vector<std::int64_t> start_, duration_;
  std::vector<std::uint32_t> stream_;
  // Held only once some operation has one.
  SparseColumn<std::uint16_t> issuer_{kNoEndpoint};
  SparseColumn<std::uint32_t> object_{0}, line_{0}, comm_{0}, group_{0};
  SparseColumn<std::int16_t> root_{-1};
  SparseColumn<std::uint32_t> name_{0}, thread_{0}, launch_{kNoIndex}, kernel_{kNoIndex};
  SparseColumn<std::uint8_t> flags_{0};
  std::vector<KernelInfo> kernels_;
  std::size_t application_ops_ = 0;
  /// Whether some sparse column may hold rows (false: every one is uniform, see push).
  bool sparse_held_ = false;
  void push_sparse(const Op& op, std::size_t rows) {
    issuer_.push(op.issuer, rows);
    object_.push(op.object, rows);
    line_.push(op.line, rows);
    comm_.push(op.comm, rows);
    group_.push(op.group, rows);
    root_.push(op.root, rows);
    name_.push(op.name, rows);
    thread_.push(op.thread, rows);
    launch_.push(op.launch, rows);
    kernel_.push(op.kernel, rows);
    flags_.push(op.flags, rows);
    sparse_held_ = true;
  }
};

// In the header: readers push every operation of a trace through it, and a call per row cost
// a tenth of reading one (issue 17).
inline void Trace::push(const Op& op) {
  const std::size_t rows = kind_.size();
  // Most recordings fill no sparse column: one test of the row's values stands for eleven pushes
  // while every sparse column is still uniform.
  const bool sparse_at_fill = issuer_.is_fill(op.issuer) && object_.is_fill(op.object) && line_.is_fill(op.line) &&
                              comm_.is_fill(op.comm) && group_.is_fill(op.group) && root_.is_fill(op.root) &&
                              name_.is_fill(op.name) && thread_.is_fill(op.thread) && launch_.is_fill(op.launch) &&
                              kernel_.is_fill(op.kernel) && flags_.is_fill(op.flags);
  if (sparse_held_ || !sparse_at_fill) push_sparse(op, rows);
  kind_.push_back(op.kind);
  src_.push_back(op.src);
  dst_.push_back(op.dst);
  src_mem_.push_back(op.src_mem);
  dst_mem_.push_back(op.dst_mem);
  bytes_.push_back(op.bytes);
  start_.push_back(op.start_ns);
  duration_.push_back(op.duration_ns);
  stream_.push_back(op.stream);
  if (!moves_data(op.kind)) ++application_ops_;
}

class Trace;
/// Operation i's recorded start plus its recorded duration (a missing one counts as 0), at most
/// INT64_MAX: both come from the file, and a hostile one must not overflow.
[[nodiscard]] std::int64_t recorded_end_ns(const Trace& trace, std::size_t i);
/// Earliest recorded start to latest recorded end of the trace's operations, ns; 0 when none has a
/// start.
[[nodiscard]] double recorded_span_ns(const Trace& trace);
/// The endpoints named gpu<N> that the trace's operations run on (as source or destination), in
/// id order: a rank's trace also names its communicators' other members, which it runs nothing on.
[[nodiscard]] std::vector<std::uint16_t> gpus_run_on(const Trace& trace);
/// How many ranks' files a trace was read from: its files where they are a job's ranks (merged
/// with a world size), else 1 (one file, or one process's profiling windows).
[[nodiscard]] inline std::size_t rank_files(const Trace& trace);
/// The GPUs a placement gives one GPU of the node each: where the trace runs on several GPUs (a
/// job's ranks, or one process's), every GPU endpoint its operations name (a send's peer, a
/// copy's destination) and the members of its collectives' groups (ranks its files may lack);
/// one rank's trace alone, the GPU it runs on (it may go on a node smaller than its job).
[[nodiscard]] std::vector<std::uint16_t> gpus_named(const Trace& trace);

/// What fixes a collective recorded on a GPU its group leaves out, by the trace's format.
[[nodiscard]] std::string_view outside_its_group_fix(const Trace& trace);

/// The end of record i that names its peer by rank (OpFlag kPeerByRank): a send's dst, a recv's
/// src; kNoEndpoint where it has none.
[[nodiscard]] std::uint16_t peer_by_rank(const Trace& trace, std::size_t i);
/// "gpu3" -> 3, "cpu1" -> 1; -1 for other names.
[[nodiscard]] int endpoint_index(std::string_view name, std::string_view prefix);
inline bool is_host_name(std::string_view name) {
  return name == "host" || endpoint_index(name, "cpu") >= 0;
}
/// Whether a record has a recorded duration: profilers give none (0) to some operations (a Quadro
/// GP100 trace timed 1 of 10 copies; Kineto events without "dur"), which sums of measured time leave
/// out.
[[nodiscard]] constexpr bool is_timed(std::int64_t duration_ns) { return duration_ns > 0; }
/// Whether a kernel's name is NCCL's, in any case: "ncclDevKernel_AllReduce_...", "ncclKernel_...",
/// demangled with its return type ("void ncclKernel..."), or mangled: some nvprof databases keep
/// "_Z22ncclDevKernel_SendRecvP11ncclDevCommmP8ncclWork" (2 x P100, qcu's logs), whose 621 NCCL
/// kernels a rank went unsaid. Every reader asks this (no copy of the name: a reader's hot path).
[[nodiscard]] bool is_nccl_kernel(std::string_view name);

namespace detail {
/// One warp's coalesced request: 32 threads x 4 B.
inline constexpr double kWarpRequestBytes = 128.0;

/// transfer_of's rule, from the few values of the operation it reads (inline: a projection asks
/// for it once per model evaluation).
inline model::Transfer transfer_from(OpKind kind, std::uint64_t bytes, std::uint16_t src, std::uint16_t issuer,
                                     model::PathClass cls, bool pageable) {
  model::Transfer t;
  t.bytes = static_cast<double>(bytes);
  t.pageable = pageable;
  t.access = model::copy_access(cls);
  if (kind == OpKind::access) {
    const bool store = issuer != kNoEndpoint && issuer == src;
    t.access = store ? model::Access::write : model::Access::read;
    t.request_bytes = std::min(t.bytes, kWarpRequestBytes);
  }
  if (kind == OpKind::memset) t.write_only = true;
  return t;
}
}  // namespace detail

inline model::Transfer transfer_of(const Op& op, model::PathClass cls, bool pageable) {
  return detail::transfer_from(op.kind, op.bytes, op.src, op.issuer, cls, pageable);
}

inline model::Transfer transfer_of(const Trace& trace, std::size_t i, model::PathClass cls, bool pageable) {
  const OpKind kind = trace.kinds()[i];
  // The issuer column is read for accesses alone.
  return detail::transfer_from(kind, trace.bytes()[i], trace.srcs()[i],
                               kind == OpKind::access ? trace.issuers()[i] : kNoEndpoint, cls, pageable);
}

inline std::size_t rank_files(const Trace& trace) {
  return trace.world_size > 1 && trace.record_files.size() > 1 ? trace.record_files.size() : 1;
}

}  // namespace linkcast::trace
