// What every consumer of a trace computes once per trace, independently of any node: each
// operation's category, the distinct (source, destination) pairs and collective groups with the
// first record using each, the trace's own 1-byte costs (median duration of its copies and
// memsets <= 64 B per copy class), and the groups of operations that any projection prices
// identically. A sweep projects one trace onto thousands of nodes from one index.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/transfer.hpp"
#include "trace/category.hpp"
#include "trace/limits.hpp"
#include "trace/trace.hpp"

namespace linkcast::trace {

/// Operations of at most this many bytes measure the 1-byte cost (L + O): below ~64 B the
/// bandwidth term is under 1% of the ~1-2 us fixed cost on every node we ship. Memsets are
/// kernels: their fixed cost is a launch, measured the same way on small memsets.
inline constexpr std::uint64_t kSmallTransferBytes = 64;

/// Whether an operation measures its class's 1-byte cost (L + O): a timed copy or memset of at
/// most kSmallTransferBytes, and not of 0 bytes, which are records without a size (Kineto events
/// with no "bytes" arg: a ROCm trace's two such copies had set a 22.4 us cost for every class).
inline bool measures_fixed_cost(OpKind kind, std::uint64_t bytes, std::int64_t duration_ns) {
  return (kind == OpKind::copy || kind == OpKind::memset) && bytes > 0 && bytes <= kSmallTransferBytes &&
         is_timed(duration_ns);
}

/// What a projection needs from a trace independently of the nodes, computed once per trace (a
/// sweep projects one trace onto thousands of nodes): each operation's category, the distinct
/// (source, destination) pairs and collective groups used with the first record using each, and
/// the trace's own 1-byte costs (median duration of its copies and memsets <= 64 B per class).
struct TraceIndex {
  static_assert(kMaxTraceOps <= UINT32_MAX);
  explicit TraceIndex(const Trace& trace);

  struct Use {
    std::uint16_t src = 0, dst = 0;  // endpoint ids
    std::size_t first_record = 0;
  };
  const Trace* trace;
  std::vector<Category> categories;
  std::vector<Use> pairs;                          // non-collective operations
  std::vector<std::pair<std::uint32_t, std::size_t>> groups;  // collective group id, first record
  std::vector<std::size_t> first_record;           // per endpoint id (SIZE_MAX when unused)
  std::array<std::size_t, model::kCopyClassCount> small_count{};
  std::array<double, model::kCopyClassCount> small_median_ns{};
  /// Operations that any projection prices identically (same kind, category, endpoints, memory
  /// kinds, size, issuer and group) form one group: each group is priced once.
  /// (32-bit: a trace holds at most kMaxTraceOps operations; where every operation has its own
  /// size these are as long as the trace.)
  std::vector<std::uint32_t> group_of;     // per operation
  std::vector<std::uint32_t> group_first;  // per group: its first operation
  std::vector<std::uint32_t> group_count;  // per group: how many operations
};

}  // namespace linkcast::trace
