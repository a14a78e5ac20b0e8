// The categories projections and matches are reported by: the six transfer classes AHEAD
// reports (H2D/D2H pinned and pageable, D2D, P2P), host-to-host copies, and the other operation
// kinds. A category depends only on the operation (kind, endpoint names, memory kinds), never
// on the node, so traces from two nodes can be matched by it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "trace/trace.hpp"

namespace linkcast::trace {

enum class Category : std::uint8_t {
  h2d_pinned,
  h2d_pageable,
  d2h_pinned,
  d2h_pageable,
  d2d,
  p2p,
  h2h,
  access,
  migrate,
  memset,
  allreduce,
  allgather,
  reducescatter,
  broadcast,
  reduce,
  alltoall,
  sendrecv,
  kernel,      // GPU compute (OpKind::kernel)
  runtime,     // CUDA runtime and driver calls on CPU threads
  annotation,  // user annotations on CPU threads
};
inline constexpr std::size_t kCategoryCount = 20;
static_assert(kCategoryCount == static_cast<std::size_t>(Category::annotation) + 1, "kCategoryCount counts every Category");
/// The categories of data movement (everything before `kernel`).
inline bool moves_data(Category c) { return c < Category::kernel; }
std::string_view to_string(Category c);

/// The category of operation i of the trace.
Category categorize(const trace::Trace& trace, std::size_t i);
/// The same with `host[e]` = whether endpoint id e names a host, computed once per trace
/// (host_flags) for loops over many operations.
Category categorize(const trace::Trace& trace, std::size_t i, const std::vector<char>& host);
std::vector<char> host_flags(const trace::Trace& trace);

/// The copy class whose 1-byte cost (L + O) prices this category, if any.
[[nodiscard]] inline std::optional<model::CopyClass> copy_class_of(Category c) {
  using model::CopyClass;
  switch (c) {
    case Category::h2d_pinned: return CopyClass::h2d_pinned;
    case Category::h2d_pageable: return CopyClass::h2d_pageable;
    case Category::d2h_pinned: return CopyClass::d2h_pinned;
    case Category::d2h_pageable: return CopyClass::d2h_pageable;
    case Category::d2d: return CopyClass::d2d;
    case Category::memset: return CopyClass::memset;
    case Category::h2h: return CopyClass::h2h;
    case Category::access:
    case Category::migrate: return std::nullopt;  // by direction: see the projector
    default: return CopyClass::p2p;  // peer copies, collectives' steps, send/recv
  }
}
/// A collective's category (allreduce to alltoall: trace::is_collective's kinds).
[[nodiscard]] constexpr bool is_collective(Category c) { return c >= Category::allreduce && c <= Category::alltoall; }
/// A copy between a GPU and pageable host memory (h2d_pageable, d2h_pageable).
[[nodiscard]] constexpr bool is_pageable(Category c) {
  return c == Category::h2d_pageable || c == Category::d2h_pageable;
}

/// AHEAD's Fig. 1 size buckets: <= 10 B, 10 B-1 KiB, 1-64 KiB, 64 KiB-1 MiB, 1-16 MiB,
/// 16-256 MiB, > 256 MiB.
inline constexpr std::size_t kSizeBucketCount = 7;
std::size_t size_bucket(std::uint64_t bytes);
std::string_view size_bucket_label(std::size_t bucket);

}  // namespace linkcast::trace
