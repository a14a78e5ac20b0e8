// The synthetic GPU runtime: a CUDA- and NCCL-like API that workloads call the way real programs
// do, recording every data movement into a trace::Trace (format "synthetic") that every
// downstream tool reads exactly as it reads a recorded trace.
//
//  - Memory: named allocations on a GPU (cudaMalloc), on a host socket (pinned cudaMallocHost or
//    pageable malloc) or managed (cudaMallocManaged), each with its call site ("file:line"). All
//    live in one unified virtual address space of disjoint ranges that are never reused, so an
//    address still resolves to its device and data object after it was freed (Snoopie keeps
//    range-to-device mappings beyond a free for the same reason, ICS'24 sec. 4.2).
//  - Peer access per ordered pair (device may access peer's memory), as
//    cudaDeviceEnablePeerAccess sets it.
//  - Copies: memcpy with an explicit kind (validated against the pointers) or `inferred`
//    (cudaMemcpyDefault: direction from the pointers); memcpyPeer. A copy between two GPUs
//    without peer access in either direction goes through the host: two copies, GPU -> pinned
//    host staging buffer -> GPU, recorded consecutively on one stream with one call site
//    (ComScribe case 1.3).
//  - Kernels issue device-initiated loads and stores per warp (address, bytes, source line).
//    Accesses to the issuing GPU's own memory are counted but not recorded (Snoopie's on-device
//    filtering); accesses to a peer GPU need peer access; accesses to pinned host memory are
//    zero-copy; managed memory migrates page by page to the toucher (first touch of an
//    unpopulated page places it there without a transfer).
//  - Sampling: a fraction of the remote device-initiated accesses is recorded, chosen by a
//    pseudo-random generator with a fixed seed (Snoopie samples after filtering, sec. 4.7).
//  - NCCL-like communicators (names follow mpisee's scheme so every rank agrees on them) and
//    collectives, recorded once per rank as the trace::Trace conventions say.
// Errors a real program would get (illegal address, access without peer access, a kind that does
// not match the pointers) raise InputError naming the kernel or call, object and site.
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "model/transfer.hpp"
#include "trace/trace.hpp"

namespace linkcast::synthetic {

/// An address in the backend's unified virtual address space (0 is never valid).
using Address = std::uint64_t;

/// Most operations a workload records: at most 1.4 GB of trace (up to 72 bytes each, with their
/// objects and source lines).
inline constexpr std::uint64_t kMaxWorkloadOps = 20'000'000;
/// Most steps a workload takes (device accesses its kernels issue, recorded or filtered, plus the
/// operations it records): about 10 to 15 s at the backend's 14 to 18 million accesses a second.
inline constexpr std::uint64_t kMaxWorkloadWork = 200'000'000;
/// Operations a workload may record where its trace is then simulated (simulate, report, sweep):
/// a simulation takes about 500 bytes and 6 us an operation (5.76 million: 2.9 GB, 36 s on the
/// 2-core development machine), so 2 million keep it near 1 GB and 15 s.
inline constexpr std::uint64_t kMaxSimulatedWorkloadOps = 2'000'000;

/// A workload past kMaxWorkloadOps or kMaxWorkloadWork (BackendOptions::max_ops, max_work), or
/// past a GPU's memory (BackendOptions::gpu_memory_bytes).
class WorkloadLimitError : public InputError {
 public:
  using InputError::InputError;
};

/// The most GPUs the synthetic runtime runs on: it keeps a managed page's device in a signed byte.
inline constexpr std::size_t kMaxBackendGpus = 127;

struct BackendOptions {
  /// Endpoint index of each visible device: device d is "gpu<gpu_ids[d]>" (CUDA_VISIBLE_DEVICES).
  /// Empty: gpu_count devices gpu0..gpu{gpu_count-1}.
  std::vector<int> gpu_ids;
  int gpu_count = 8;
  /// Host socket of each device, for host buffers a workload allocates next to it: "cpu<k>", or
  /// -1 for "host" (a host whose socket is not known; it resolves on the node simulated).
  std::vector<int> gpu_sockets;
  /// Memory of each device, bytes, as the node says (0 or none given: topology::
  /// kLargestGpuMemoryBytes): cudaMalloc past it fails as on a real GPU. `gpu_memory_source`
  /// names where the figure comes from, for the message.
  std::vector<std::uint64_t> gpu_memory_bytes;
  std::string gpu_memory_source;
  /// Fraction of remote device-initiated accesses recorded, (0, 1].
  double sample_rate = 1.0;
  std::uint64_t sample_seed = 1;
  /// Unified-memory migration granularity, bytes (a power of two).
  std::uint64_t page_bytes = 64 * 1024;
  /// Work limits: operations recorded, and steps (device accesses issued plus operations
  /// recorded). Past either, the call that crosses it throws InputError.
  std::uint64_t max_ops = kMaxWorkloadOps;
  std::uint64_t max_work = kMaxWorkloadWork;
  /// Called with (steps so far, max_work) every 2^22 steps, where set.
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

/// What the backend saw beyond what it recorded.
struct BackendStats {
  std::uint64_t device_accesses = 0;     // loads and stores issued by kernels
  std::uint64_t local_accesses = 0;      // to the issuing GPU's own memory: filtered
  std::uint64_t remote_accesses = 0;     // peer GPU or zero-copy host
  std::uint64_t recorded_accesses = 0;   // remote accesses kept by sampling
  std::uint64_t migrated_pages = 0;      // unified-memory migrations recorded
  std::uint64_t copies = 0;              // copy operations recorded (staged copies count two)
  std::uint64_t staged_copies = 0;       // GPU-to-GPU copies that went through the host
  std::uint64_t collectives = 0;         // collective calls (recorded once per rank)
  std::uint64_t accesses_after_free = 0;  // device accesses to freed objects (attributed anyway)
};

class Backend {
 public:
  enum class CopyKind : std::uint8_t {
    host_to_host,
    host_to_device,
    device_to_host,
    device_to_device,
    inferred,  // cudaMemcpyDefault: from the pointers
  };

  /// One allocation: where it lives and which data object it belongs to.
  struct Allocation {
    Address base = 0;
    std::uint64_t bytes = 0;
    model::MemKind kind = model::MemKind::device;  // device, pinned, pageable or managed
    int device = -1;                               // device ordinal; -1 for host and managed
    std::uint16_t endpoint = 0;                    // trace endpoint of host/device memory
    std::uint32_t object = 0;                      // trace::Trace::objects id
    bool freed = false;
    std::uint32_t first_page = 0;  // managed: index of its first page in the residency table
  };

  /// A communicator: its mpisee-style name, members (device ordinals in rank order).
  struct Communicator {
    std::string name;
    std::vector<int> devices;
    std::uint32_t comm = 0;   // trace::Trace::comms id
    std::uint32_t group = 0;  // trace::Trace group id
  };

  explicit Backend(BackendOptions options = {});

  int device_count() const { return static_cast<int>(device_endpoint_.size()); }
  /// "gpu3" for device 1 of gpu_ids {2, 3}.
  const std::string& device_name(int device) const;
  /// The host socket next to `device` (-1: unknown, "host").
  int device_socket(int device) const;

  // --- memory ----------------------------------------------------------------------------
  /// cudaMalloc on `device`. `name` (optional) is the variable name; `site` the call site.
  /// Throws InputError (cudaErrorMemoryAllocation) when the device's live allocations would
  /// pass its memory.
  Address malloc_device(int device, std::uint64_t bytes, std::string_view name, std::string_view site);
  /// cudaMallocHost (kind pinned; mapped for zero-copy) or malloc (pageable) on socket
  /// `socket` ("cpu<socket>"), -1: "host".
  Address malloc_host(std::uint64_t bytes, model::MemKind kind, std::string_view name, std::string_view site,
                      int socket = -1);
  /// cudaMallocManaged: pages start unpopulated.
  Address malloc_managed(std::uint64_t bytes, std::string_view name, std::string_view site);
  /// cudaFree / cudaFreeHost: the range stays attributable.
  void free(Address base);
  /// The allocation containing [address, address + bytes); throws InputError naming `context`
  /// when there is none or the range crosses its end.
  const Allocation& lookup(Address address, std::uint64_t bytes, std::string_view context) const {
    return lookup(address, bytes, [context] { return std::string(context); });
  }
  /// The same with the context made by `context()` only when the lookup fails: the calls of a
  /// run format no message they do not print.
  template <std::invocable Context>
  const Allocation& lookup(Address address, std::uint64_t bytes, const Context& context) const {
    const std::ptrdiff_t i = find(address);
    if (i >= 0) {
      const Allocation& a = allocations_[static_cast<std::size_t>(i)];
      if (address + bytes <= a.base + a.bytes) return a;
    }
    lookup_failed(address, bytes, i, context());
  }
  /// Index into allocations() of the allocation containing `address`, or -1.
  std::ptrdiff_t find(Address address) const;
  const std::vector<Allocation>& allocations() const { return allocations_; }

  // --- peer access -------------------------------------------------------------------------
  /// cudaSetDevice(device); cudaDeviceEnablePeerAccess(peer): kernels on `device` may access
  /// `peer`'s memory, and copies between them go direct.
  void enable_peer_access(int device, int peer);
  void disable_peer_access(int device, int peer);
  void enable_all_peer_access();
  bool peer_access(int device, int peer) const;

  // --- streams -----------------------------------------------------------------------------
  /// Stream ids are global in the trace; device d's default stream is d + 1.
  std::uint32_t default_stream(int device) const;
  std::uint32_t create_stream(int device);

  // --- copies ------------------------------------------------------------------------------
  /// cudaMemcpyAsync(dst, src, bytes, kind, stream). `stream` 0: the default stream of the
  /// device involved (the source's for device-to-device).
  void memcpy(Address dst, Address src, std::uint64_t bytes, CopyKind kind, std::string_view site,
              std::uint32_t stream = 0);
  /// cudaMemcpyPeerAsync: `dst` on `dst_device`, `src` on `src_device`.
  void memcpy_peer(Address dst, int dst_device, Address src, int src_device, std::uint64_t bytes,
                   std::string_view site, std::uint32_t stream = 0);
  /// cudaMemset on device memory (recorded on the device's diagonal).
  void memset(Address dst, std::uint64_t bytes, std::string_view site, std::uint32_t stream = 0);
  /// The host reads or writes managed memory: pages resident on a GPU migrate back.
  void host_access(Address address, std::uint64_t bytes, std::string_view site);

  // --- kernels -----------------------------------------------------------------------------
  class Kernel {
   public:
    /// Interns a source line ("stencil.cu:42") once; pass the id to load/store.
    std::uint32_t line(std::string_view file_line);
    /// One warp's coalesced load of `bytes` at `address`.
    void load(Address address, std::uint32_t bytes, std::uint32_t line) { access(address, bytes, line, false); }
    /// One warp's coalesced store.
    void store(Address address, std::uint32_t bytes, std::uint32_t line) { access(address, bytes, line, true); }
    /// Loads (or stores) [address, address + bytes) in warp-sized pieces of `warp_bytes`.
    void load_range(Address address, std::uint64_t bytes, std::uint32_t warp_bytes, std::uint32_t line);
    void store_range(Address address, std::uint64_t bytes, std::uint32_t warp_bytes, std::uint32_t line);
    int device() const { return device_; }

   private:
    friend class Backend;
    Kernel(Backend& backend, int device, std::string name, std::uint32_t stream, std::uint16_t endpoint)
        : backend_(&backend), device_(device), name_(std::move(name)), stream_(stream), endpoint_(endpoint) {}
    void access(Address address, std::uint32_t bytes, std::uint32_t line, bool store);

    Backend* backend_;
    int device_;
    std::string name_;
    std::uint32_t stream_;
    std::uint16_t endpoint_;
    // The allocation hit last: most warps of a kernel touch the same object.
    Address cached_begin_ = 0, cached_end_ = 0;
    std::size_t cached_index_ = 0;
  };
  /// Launches kernel `name` on `device`. Its accesses are recorded on `stream` (0: default).
  Kernel launch(int device, std::string_view name, std::uint32_t stream = 0);

  // --- NCCL-like communicators and collectives ---------------------------------------------
  /// ncclCommInitAll over `devices` (rank i = devices[i]); the first is named "W" (mpisee's
  /// world), later ones "W_i<k>" with k as for comm_split.
  Communicator comm_init_all(const std::vector<int>& devices);
  /// ncclCommSplit: ranks with the same non-negative color form one communicator, ordered by
  /// (key, parent rank); color -1 joins none. mpisee names: parent + "_s" + k + "." + lowest
  /// parent rank among the members, where k is the most communicators any member of the parent
  /// belongs to before the call (Vardas et al., sec. III-A).
  std::vector<Communicator> comm_split(const Communicator& parent, const std::vector<int>& color,
                                       const std::vector<int>& key = {});
  /// ncclCommDup-like: parent + "_d" + k.
  Communicator comm_dup(const Communicator& parent);

  /// One collective call: `send[i]`/`recv[i]` are rank i's buffers (on devices[i]); `bytes` as
  /// nccl-tests counts (nccl::CollectiveSpec::bytes). Checks that the buffers are on the right GPUs
  /// and large enough, then records one op per rank. `root` for broadcast and reduce.
  void collective(trace::OpKind kind, const Communicator& comm, const std::vector<Address>& send,
                  const std::vector<Address>& recv, std::uint64_t bytes, std::string_view site, int root = -1,
                  std::uint32_t stream = 0);

  // --- results -----------------------------------------------------------------------------
  const trace::Trace& trace() const { return trace_; }
  /// Moves the trace out; the backend must not be used afterwards.
  trace::Trace take_trace() { return std::move(trace_); }
  const BackendStats& stats() const { return stats_; }

 private:
  static constexpr std::int8_t kUnpopulated = -2;
  static constexpr std::int8_t kOnHost = -1;

  void check_device(int device, std::string_view context) const {
    check_device(device, [context] { return std::string(context); });
  }
  template <std::invocable Context>
  void check_device(int device, const Context& context) const {
    if (device < 0 || device >= device_count()) no_such_device(device, context());
  }
  [[noreturn]] void no_such_device(int device, const std::string& context) const;
  /// Counts `units` steps of work; past a limit, throws.
  void spend(std::uint64_t units) {
    work_ += units;
    if (work_ > options_.max_work) [[unlikely]] over_budget();
    if ((work_ & ((std::uint64_t{1} << 22) - 1)) == 0) [[unlikely]] tick();
  }
  /// One operation into the trace, within the limits.
  void record(const trace::Op& op) {
    if (trace_.size() >= options_.max_ops) [[unlikely]] over_budget();
    spend(1);
    trace_.push(op);
  }
  [[noreturn]] void over_budget() const;
  void tick() const;
  [[noreturn]] void lookup_failed(Address address, std::uint64_t bytes, std::ptrdiff_t index,
                                  const std::string& context) const;
  Address reserve(std::uint64_t bytes, std::string_view what);
  std::uint32_t object_id(std::string_view name, std::string_view site);
  std::uint16_t host_endpoint(int socket);
  std::uint16_t location_endpoint(const Allocation& a, Address address);
  std::uint32_t stream_for(int device, std::uint32_t stream) const;
  void push_copy(std::uint16_t src, std::uint16_t dst, model::MemKind src_mem, model::MemKind dst_mem,
                 std::uint64_t bytes, std::uint32_t stream, std::uint32_t object, std::uint32_t line);
  /// Migrates the managed pages of [address, address+bytes) to `to` (a device, or kOnHost).
  void touch_managed(const Allocation& a, Address address, std::uint64_t bytes, std::int8_t to,
                     std::uint32_t line, std::uint32_t stream);
  bool sample();
  std::string describe(const Allocation& a) const;

  BackendOptions options_;
  std::uint64_t work_ = 0;
  trace::Trace trace_;
  BackendStats stats_;
  std::vector<std::uint16_t> device_endpoint_;
  std::vector<std::string> device_names_;
  std::vector<std::uint64_t> device_memory_bytes_;  // what each device holds
  std::vector<std::uint64_t> device_live_bytes_;    // its live allocations
  std::vector<std::uint8_t> peer_;  // device x device
  std::vector<Allocation> allocations_;  // sorted by base (addresses only grow)
  std::vector<Address> bases_;           // allocations_[i].base, dense for the binary search
  // Memo of the last allocation found per 64 KiB granule of the address space (direct-mapped,
  // verified on use): turns most lookups that miss a kernel's one-entry cache into one load.
  static constexpr std::size_t kMemoSize = 16384;
  mutable std::vector<std::uint32_t> memo_ = std::vector<std::uint32_t>(kMemoSize, 0xFFFFFFFFu);
  std::vector<std::int8_t> page_location_;  // managed pages: device, kOnHost or kUnpopulated
  Address next_address_ = Address{1} << 40;
  std::uint32_t next_stream_ = 0;
  std::vector<int> comm_count_;  // per device: communicators it belongs to
  std::uint64_t rng_state_ = 0;
  std::uint64_t sample_threshold_ = 0;
};

std::string_view to_string(Backend::CopyKind kind);

}  // namespace linkcast::synthetic
