#include "trace/select.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace linkcast::trace {

void mark_transfers_beside_compute(Trace& trace) {
  if (!trace.has_application()) return;  // no kernels: nothing to look for (a 100 M-op CSV is one)
  // Per GPU endpoint: its kernels' spans by start, with the latest end so far.
  struct Spans {
    std::vector<std::int64_t> starts, latest_end;
  };
  std::unordered_map<std::uint16_t, Spans> by_gpu;
  {
    std::unordered_map<std::uint16_t, std::vector<std::pair<std::int64_t, std::int64_t>>> kernels;
    for (std::size_t i = 0; i < trace.size(); ++i)
      if (trace.kinds()[i] == OpKind::kernel && trace.starts()[i] >= 0 && trace.durations()[i] > 0)
        kernels[trace.srcs()[i]].emplace_back(trace.starts()[i], recorded_end_ns(trace, i));
    for (auto& [gpu, spans] : kernels) {
      std::sort(spans.begin(), spans.end());
      Spans& out = by_gpu[gpu];
      std::int64_t latest = std::numeric_limits<std::int64_t>::min();
      for (const auto& [start, end] : spans) {
        latest = std::max(latest, end);
        out.starts.push_back(start);
        out.latest_end.push_back(latest);
      }
    }
  }
  if (by_gpu.empty()) return;
  // Some kernel overlaps [s, e) where one starting before e ends after s.
  const auto overlaps = [&](std::uint16_t gpu, std::int64_t s, std::int64_t e) {
    const auto it = by_gpu.find(gpu);
    if (it == by_gpu.end()) return false;
    const auto& starts = it->second.starts;
    const auto before = std::lower_bound(starts.begin(), starts.end(), e);
    return before != starts.begin() && it->second.latest_end[static_cast<std::size_t>(before - starts.begin()) - 1] > s;
  };
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const OpKind kind = trace.kinds()[i];
    const std::int64_t s = trace.starts()[i], d = trace.durations()[i];
    if (!moves_data(kind) || is_collective(kind) || s < 0 || d <= 0) continue;
    const std::int64_t e = recorded_end_ns(trace, i);
    if (overlaps(trace.srcs()[i], s, e) || overlaps(trace.dsts()[i], s, e)) trace.add_flags(i, kBesideCompute);
  }
}

Trace data_movement(Trace&& trace) {
  mark_transfers_beside_compute(trace);
  trace.drop_application();
  return std::move(trace);
}

Trace data_movement(const Trace& trace) { return data_movement(Trace(trace)); }

}  // namespace linkcast::trace
