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

/// Everything a model needs to know about the route a transfer takes. Pure data.
struct PathSpec {
  PathClass cls = PathClass::h2d;
  std::vector<LinkSpec> hops;     // links from source to destination (empty within one device)
  double latency_ns = 0;          // sum of the hops' one-way latencies
  double host_memory_gbps = 0;    // h2d/d2h/h2h: the host socket's peak memory bandwidth
  double host_copy_gbps = 0;      // h2d/d2h/h2h: single-thread memcpy rate; 0 when unknown
  double src_memory_gbps = 0;     // the source device's memory bandwidth (GPU or host)
  double dst_memory_gbps = 0;     // the destination device's memory bandwidth

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
};

/// The natural Access of a copy-engine copy of class `cls`: host-to-device copies are DMA reads
/// of host memory by the GPU; every other copy pushes data with writes.
Access copy_access(PathClass cls);

}  // namespace linkcast::model
