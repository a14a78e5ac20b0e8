// Node properties measured from a trace recorded on that node: the 1-byte transfer cost (L + O)
// of each copy class (for a node's `calibration:`), and the pageable staging rate (for a cpu's
// `memory.copy_bandwidth_gbps`). `linkcast calibrate` prints them as YAML to paste into a node
// file, with the trace named as their source.
#pragma once

#include <array>
#include <iosfwd>
#include <string>

#include "model/transfer.hpp"
#include "trace/index.hpp"
#include "topology/node.hpp"
#include "trace/trace.hpp"

namespace linkcast::projection {

struct Measured {
  std::size_t count = 0;
  double value = 0;  // ns for 1-byte costs, GB/s for rates
};

struct Calibration {
  std::string trace_file;
  std::array<Measured, model::kCopyClassCount> one_byte_ns;  // median of copies <= 64 B
  Measured pageable_h2d_gbps;  // total bytes / total time of pageable copies >= 4 MiB
  Measured pageable_d2h_gbps;
  Measured pageable_gbps;      // both directions together
  Measured pinned_h2d_gbps;    // the same for pinned copies, to judge whether staging is the limit
  Measured pinned_d2h_gbps;
};

/// Pageable copies at least this large measure the staging rate: the pipeline's fill and the
/// fixed cost are under a few percent of their time.
inline constexpr std::uint64_t kStagingMinBytes = 4ull << 20;

Calibration calibrate(const trace::Trace& trace);
/// The same from a trace indexed beforehand (its categories and 1-byte medians).
Calibration calibrate(const trace::TraceIndex& index);
/// The measured 1-byte costs per copy class, ns, NaN for the classes the trace did not measure:
/// what the simulator takes as L + O (sim::SimOptions::fixed_ns).
std::array<double, model::kCopyClassCount> fixed_costs_ns(const Calibration& c);
void render_calibration_yaml(const Calibration& c, std::ostream& out);

}  // namespace linkcast::projection
