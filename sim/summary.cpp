#include <algorithm>
#include <cmath>

#include "sim/summary.hpp"

namespace linkcast::sim {

SimulationSummary summarize_simulation(const topology::Node& node, const trace::Trace& trace,
                                       const sim::SimResult& sim, std::size_t bins) {
  SimulationSummary s;
  const std::size_t n = std::min(trace.size(), sim.ops.size());
  const auto& bytes = trace.bytes();
  const auto& durations = trace.durations();

  // Which endpoints issued anything, in node order.
  std::vector<int> row_of(node.endpoints.size(), -1);
  std::vector<char> issues(node.endpoints.size(), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int e = sim.ops[i].issuer;
    if (e >= 0 && static_cast<std::size_t>(e) < issues.size()) issues[static_cast<std::size_t>(e)] = 1;
  }
  Activity& a = s.activity;
  for (std::size_t e = 0; e < issues.size(); ++e) {
    if (!issues[e]) continue;
    row_of[e] = static_cast<int>(a.devices.size());
    a.devices.push_back(static_cast<int>(e));
  }
  a.ops.assign(a.devices.size(), 0);
  a.busy_ns.assign(a.devices.size(), 0.0);
  a.in_flight.assign(a.devices.size(), std::vector<double>(bins, 0.0));
  a.bin_ns = bins > 0 ? sim.makespan_ns / static_cast<double>(bins) : 0.0;

  const std::vector<char> host = trace::host_flags(trace);
  for (std::size_t i = 0; i < n; ++i) {
    const sim::OpResult& o = sim.ops[i];
    const double duration = std::max(0.0, o.end_ns - o.start_ns);
    CategoryTimes& c = s.by_category[static_cast<std::size_t>(trace::categorize(trace, i, host))];
    ++c.ops;
    c.bytes += static_cast<double>(bytes[i]);
    c.simulated_ns += duration;
    if (trace::is_timed(durations[i])) {
      ++c.measured_ops;
      c.measured_ns += static_cast<double>(durations[i]);
      c.simulated_of_measured_ns += duration;
    }
    if (o.issuer < 0 || static_cast<std::size_t>(o.issuer) >= row_of.size()) continue;
    const auto row = static_cast<std::size_t>(row_of[static_cast<std::size_t>(o.issuer)]);
    ++a.ops[row];
    a.busy_ns[row] += duration;
    if (a.bin_ns <= 0 || duration <= 0) continue;
    // Spread the operation's time over the bins it overlaps: each bin gets overlap / bin width.
    const auto last = static_cast<double>(bins - 1);
    const auto first_bin = static_cast<std::size_t>(std::clamp(std::floor(o.start_ns / a.bin_ns), 0.0, last));
    const auto last_bin = static_cast<std::size_t>(std::clamp(std::floor(o.end_ns / a.bin_ns), 0.0, last));
    auto& row_bins = a.in_flight[row];
    for (std::size_t b = first_bin; b <= last_bin; ++b) {
      const double lo = std::max(o.start_ns, a.bin_ns * static_cast<double>(b));
      const double hi = b + 1 == bins ? o.end_ns : std::min(o.end_ns, a.bin_ns * static_cast<double>(b + 1));
      if (hi > lo) row_bins[b] += (hi - lo) / a.bin_ns;
    }
  }
  return s;
}

}  // namespace linkcast::sim
