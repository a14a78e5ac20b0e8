// What a transfer-time model is asked: how many bytes, over which path, between which kinds of
// memory. The projection and the simulator prepare a PathSpec once per (source, destination)
// pair of a node and then evaluate many transfers on it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/link.hpp"
#include "model/packet.hpp"

namespace linkcast::model {

/// Kinds of memory at either end of a transfer (CUPTI's CUpti_ActivityMemoryKind, renamed).
enum class MemKind : std::uint8_t { unknown, pageable, pinned, device, managed };
std::string_view to_string(MemKind kind);
[[nodiscard]] std::optional<MemKind> parse_mem_kind(std::string_view name);

/// The class of a transfer by where its ends live.
enum class PathClass : std::uint8_t {
  h2d,  // host memory -> GPU memory
  d2h,  // GPU memory -> host memory
  d2d,  // within one GPU's memory
  p2p,  // GPU -> another GPU
  h2h,  // host -> host
};
std::string_view to_string(PathClass cls);

/// The six path classes AHEAD and the projection report, plus host-to-host copies and memsets
/// (whose fixed cost is a kernel launch, not a copy's).
enum class CopyClass : unsigned char {
  h2d_pinned,
  h2d_pageable,
  d2h_pinned,
  d2h_pageable,
  d2d,
  p2p,
  h2h,
  memset,
};
inline constexpr std::size_t kCopyClassCount = 8;
static_assert(kCopyClassCount == static_cast<std::size_t>(CopyClass::memset) + 1, "kCopyClassCount counts every CopyClass");
std::string_view to_string(CopyClass c);
[[nodiscard]] std::optional<CopyClass> parse_copy_class(std::string_view name);
/// The copy class of a copy-engine copy over a path of class `cls`.
CopyClass copy_class(PathClass cls, bool pageable);

/// How the host end of a pageable copy behaves, which decides the rate the driver's staging runs
/// at (the CPU copies each chunk between the pageable buffer and a pinned one while the DMA engine
/// moves the previous chunk):
enum class HostRegime : std::uint8_t {
  staged,      // unknown: the host's measured staging rate for the direction, else its memcpy rate
  cold,        // host to device from a source that is not in the CPU caches (DRAM)
  warm,        // host to device from a source still in the CPU caches (a buffer just written or copied)
  used,        // device to host into pages that were used before (a reused buffer)
  fresh,       // device to host into fresh pages, faulted in and zeroed during the copy (a new tensor)
  direct,      // the link alone: small copies the driver moves without a host-side copy on the timeline
};
inline constexpr std::size_t kHostRegimeCount = 6;
static_assert(kHostRegimeCount == static_cast<std::size_t>(HostRegime::direct) + 1, "kHostRegimeCount counts every HostRegime");
std::string_view to_string(HostRegime r);

/// What streaming work (a triad kernel, a D2D copy, a memset) reaches in a memory, read + write
/// GB/s: its measured streaming rate where known (> 0), else its peak.
constexpr double streaming_or_peak_gbps(double measured_stream_gbps, double peak_gbps) {
  return measured_stream_gbps > 0 ? measured_stream_gbps : peak_gbps;
}

/// A host socket's memory rates that bound pageable copies, GB/s; 0 where the node does not say.
/// Node keys: cpu memory copy_bandwidth_gbps, warm_copy_gbps, first_touch_gbps, pageable_h2d_gbps,
/// pageable_d2h_gbps (configs/SCHEMA.md).
struct HostRates {
  double copy_gbps = 0;         // single-thread memcpy, DRAM to DRAM
  double warm_copy_gbps = 0;    // single-thread copy of a cache-resident source
  double first_touch_gbps = 0;  // single-thread copy into fresh pages (every page faults)
  double pageable_h2d_gbps = 0; // measured pageable host-to-device rate from a cold source
  double pageable_d2h_gbps = 0; // measured pageable device-to-host rate into used pages

  /// The rate the host side of a pageable copy in `regime` runs at, going `cls` (h2d or d2h); 0
  /// when the node gives neither that rate nor its fallback (the memcpy rate).
  double staging_gbps(PathClass cls, HostRegime regime) const;
};

/// Everything a model needs to know about the route a transfer takes. Pure data.
struct PathSpec {
  PathClass cls = PathClass::h2d;
  std::vector<LinkSpec> hops;     // links from source to destination (empty within one device)
  double latency_ns = 0;          // sum of the hops' one-way latencies
  double host_memory_gbps = 0;    // h2d/d2h/h2h: the host socket's peak memory bandwidth
  HostRates host;                 // h2d/d2h/h2h: the host socket's copy rates; 0 where unknown
  double src_memory_gbps = 0;     // the source device's memory bandwidth (GPU or host)
  double dst_memory_gbps = 0;     // the destination device's memory bandwidth
  double src_memory_stream_gbps = 0;  // the source device's measured streaming rate; 0 where unknown

  /// What streaming work reaches in the source device's memory (streaming_or_peak_gbps).
  double src_streaming_gbps() const { return streaming_or_peak_gbps(src_memory_stream_gbps, src_memory_gbps); }

  /// Lowest per-direction link bandwidth on the path (after line encoding); for transfers
  /// within one device, that device's memory bandwidth. GB/s.
  double peak_gbps() const;
};

/// One transfer to price.
struct Transfer {
  double bytes = 0;
  Access access = Access::write;  // how the initiator moves the data across the links
  bool pageable = false;          // the host end is pageable memory (staged by the driver)
  double request_bytes = 0;       // > 0: device-initiated accesses of this many bytes each
  double fixed_ns = 0;            // L + O: the measured 1-byte cost of this path class
  bool write_only = false;        // d2d: the operation only writes device memory (memset)
  HostRegime regime = HostRegime::staged;  // pageable: how its host end behaves
  /// Pageable, staged: bytes its time shows moving at the link's rate with no host copy beside them
  /// (the first staging chunk of a copy that a CUPTI trace times from its first DMA on, the CPU
  /// having staged that chunk before; trace::recorded_regime). 0: every byte staged.
  double unstaged_bytes = 0;
};

/// The copy class whose measured 1-byte cost (L + O) transfer `t` over a path of class `cls` pays:
/// memset for operations that only write (a memset is a kernel launch, not a copy), else
/// copy_class(cls, t.pageable).
CopyClass fixed_cost_class(PathClass cls, const Transfer& t);
/// The fixed cost `t` pays when its class's measured 1-byte cost is `class_ns`: copies and
/// memsets pay it whole. Device-initiated accesses (request_bytes > 0) are loads and stores that
/// running threads keep in flight by the thousands, a pipelined stream: no API call, no DMA set-up,
/// and each request's latency overlaps the others', so they pay none.
inline double charged_fixed_ns(const Transfer& t, double class_ns) { return t.request_bytes > 0 ? 0.0 : class_ns; }

/// The natural Access of a copy-engine copy of class `cls`: host-to-device copies are DMA reads
/// of host memory by the GPU; every other copy pushes data with writes.
constexpr Access copy_access(PathClass cls) { return cls == PathClass::h2d ? Access::read : Access::write; }

}  // namespace linkcast::model
