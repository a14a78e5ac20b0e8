#include "projection/calibrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <vector>

#include "trace/category.hpp"
#include "projection/projector.hpp"

namespace linkcast::projection {

using trace::Category;

Calibration calibrate(const trace::Trace& trace) { return calibrate(trace::TraceIndex(trace)); }

Calibration calibrate(const trace::TraceIndex& index) {
  const trace::Trace& trace = *index.trace;
  Calibration c;
  c.trace_file = trace.source_file;
  // The 1-byte costs: the same medians a projection takes from the trace.
  for (std::size_t k = 0; k < model::kCopyClassCount; ++k)
    if (index.small_count[k] > 0) c.one_byte_ns[k] = {index.small_count[k], index.small_median_ns[k]};
  struct Sum {
    double bytes = 0, ns = 0;
    std::size_t count = 0;
    void add(double b, double t) { bytes += b; ns += t; ++count; }
    Measured rate() const { return {count, ns > 0 ? bytes / ns : 0.0}; }
  } h2d_pageable, d2h_pageable, both, h2d_pinned, d2h_pinned;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const std::int64_t d = trace.durations()[i];
    const std::uint64_t bytes = trace.bytes()[i];
    if (trace.kinds()[i] != trace::OpKind::copy || d <= 0 || bytes < kStagingMinBytes) continue;
    const Category cat = index.categories[i];
    const auto b = static_cast<double>(bytes), t = static_cast<double>(d);
    switch (cat) {
      case Category::h2d_pageable: h2d_pageable.add(b, t); both.add(b, t); break;
      case Category::d2h_pageable: d2h_pageable.add(b, t); both.add(b, t); break;
      case Category::h2d_pinned: h2d_pinned.add(b, t); break;
      case Category::d2h_pinned: d2h_pinned.add(b, t); break;
      default: break;
    }
  }
  c.pageable_h2d_gbps = h2d_pageable.rate();
  c.pageable_d2h_gbps = d2h_pageable.rate();
  c.pageable_gbps = both.rate();
  c.pinned_h2d_gbps = h2d_pinned.rate();
  c.pinned_d2h_gbps = d2h_pinned.rate();
  return c;
}

std::array<double, model::kCopyClassCount> fixed_costs_ns(const Calibration& c) {
  std::array<double, model::kCopyClassCount> ns;
  for (std::size_t k = 0; k < model::kCopyClassCount; ++k)
    ns[k] = c.one_byte_ns[k].count > 0 ? c.one_byte_ns[k].value : std::nan("");
  return ns;
}

void render_calibration_yaml(const Calibration& c, std::ostream& out) {
  out << fmt::format("# Measured by `linkcast calibrate {}`\n", c.trace_file);
  bool any = false;
  for (std::size_t k = 0; k < c.one_byte_ns.size(); ++k) any |= c.one_byte_ns[k].count > 0;
  if (any) {
    out << "calibration:\n";
    for (std::size_t k = 0; k < c.one_byte_ns.size(); ++k) {
      const Measured& m = c.one_byte_ns[k];
      if (m.count == 0) continue;
      out << fmt::format("  {}_ns: {:.0f}  # median of {} copies <= 64 B in {}\n",
                         model::to_string(static_cast<model::CopyClass>(k)), m.value, m.count, c.trace_file);
    }
  } else {
    out << "# no copies <= 64 B: no 1-byte costs (calibration:) can be measured from this trace\n";
  }
  if (c.pageable_gbps.count > 0) {
    out << "# for each cpu's memory: block (the host's pageable staging rate):\n";
    out << fmt::format("      copy_bandwidth_gbps: {:.2f}  # pageable copies >= {} MiB in {}: {} ops, "
                       "h2d {:.2f} GB/s ({} ops), d2h {:.2f} GB/s ({} ops)\n",
                       c.pageable_gbps.value, kStagingMinBytes >> 20, c.trace_file, c.pageable_gbps.count,
                       c.pageable_h2d_gbps.value, c.pageable_h2d_gbps.count, c.pageable_d2h_gbps.value,
                       c.pageable_d2h_gbps.count);
    const double pinned = std::max(c.pinned_h2d_gbps.value, c.pinned_d2h_gbps.value);
    if (pinned > 0 && c.pageable_gbps.value > 0.8 * pinned)
      out << fmt::format("# note: pageable copies ran at {:.0f}% of the pinned rate ({:.2f} GB/s): the link, not the "
                         "CPU copy, may be the limit, so this is a lower bound on the staging rate\n",
                         100.0 * c.pageable_gbps.value / pinned, pinned);
  } else {
    out << fmt::format("# no pageable copies >= {} MiB: the staging rate cannot be measured from this trace\n",
                       kStagingMinBytes >> 20);
  }
}

}  // namespace linkcast::projection
