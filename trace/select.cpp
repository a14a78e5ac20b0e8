#include "trace/select.hpp"

#include <algorithm>
#include <iterator>
#include <unordered_map>
#include <utility>
#include <vector>

namespace linkcast::trace {

void mark_transfers_beside_compute(Trace& trace) {
  if (!trace.has_application()) return;  // no kernels: nothing to look for (a 100 M-op CSV is one)
  // Per GPU endpoint: its kernels' (start, latest end of the kernels started so far), by start.
  std::unordered_map<std::uint16_t, std::vector<std::pair<std::int64_t, std::int64_t>>> by_gpu;
  for (std::size_t i = 0; i < trace.size(); ++i)
    if (trace.kinds()[i] == OpKind::kernel && trace.starts()[i] >= 0 && is_timed(trace.durations()[i]))
      by_gpu[trace.srcs()[i]].emplace_back(trace.starts()[i], recorded_end_ns(trace, i));
  if (by_gpu.empty()) return;
  for (auto& [gpu, spans] : by_gpu) {
    std::sort(spans.begin(), spans.end());
    for (std::size_t k = 1; k < spans.size(); ++k) spans[k].second = std::max(spans[k].second, spans[k - 1].second);
  }
  // Some kernel overlaps [s, e) where one starting before e ends after s.
  const auto overlaps = [&](std::uint16_t gpu, std::int64_t s, std::int64_t e) {
    const auto it = by_gpu.find(gpu);
    if (it == by_gpu.end()) return false;
    const auto& spans = it->second;
    const auto before = std::lower_bound(spans.begin(), spans.end(), e,
                                         [](const auto& span, std::int64_t x) { return span.first < x; });
    return before != spans.begin() && std::prev(before)->second > s;
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
