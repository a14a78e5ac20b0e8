// Node properties measured from a trace recorded on that node: the 1-byte transfer cost (L + O)
// of each copy class (for a node's `calibration:`), and the rates pageable copies ran at by the
// state of their host end (for a cpu's `memory:`): from a cold source (`pageable_h2d_gbps`), from a
// cache-warm one (`warm_copy_gbps`), into used pages (`pageable_d2h_gbps`) and into fresh ones
// (`first_touch_gbps`). `linkcast calibrate` prints them as YAML to paste into a node file, with the
// trace named as their source.
//
// Pageable copies >= 4 MiB measure the rates. Their per-operation rates fall into two groups where
// the host end's state differs: host-to-device copies whose source is still in the CPU caches (a
// buffer copied again, a batch just written) run faster than those from DRAM; device-to-host copies
// into fresh pages (a new tensor, whose pages fault during the copy) several times slower than those
// into used ones. The split is the one that minimises the spread of log rates within each group
// (1-D two-means); it counts where the groups' rates differ by at least kWarmSplit (host to device)
// or kFreshSplit (device to host), else all the copies are of one regime (cold, used). Copies that
// ran beside a kernel on their GPU are left out of the rates, as the projection leaves them out of its
// check of the source node (Projector).
#pragma once

#include <array>
#include <iosfwd>
#include <string>
#include <vector>

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
  std::string trace_file;  // the traces' files, ", "-separated
  std::array<Measured, model::kCopyClassCount> one_byte_ns;  // median of copies <= 64 B
  Measured pageable_h2d_gbps;  // total bytes / total time of pageable copies >= 4 MiB (all of them)
  Measured pageable_d2h_gbps;
  Measured pageable_gbps;      // both directions together
  Measured pinned_h2d_gbps;    // the same for pinned copies, to judge whether staging is the limit
  Measured pinned_d2h_gbps;
  // By regime (see above); count 0 where the trace has none.
  Measured cold_h2d_gbps;      // -> pageable_h2d_gbps
  Measured warm_h2d_gbps;      // -> warm_copy_gbps
  Measured used_d2h_gbps;      // -> pageable_d2h_gbps
  Measured fresh_d2h_gbps;     // -> first_touch_gbps
  double h2d_split = 0;        // the two host-to-device groups' rate ratio (0: one group)
  double d2h_split = 0;
  /// Copies >= kStagingMinBytes that ran beside a kernel on their GPU (trace::kBesideCompute),
  /// left out of every rate: they tell of the competition, not of the node.
  std::size_t beside_compute = 0;
};

/// Host-to-device groups whose rates differ by less than this are one regime.
inline constexpr double kWarmSplit = 1.25;
/// Device-to-host groups whose rates differ by less than this are one regime: first touch runs at
/// a few GB/s, several times below a copy into used pages.
inline constexpr double kFreshSplit = 3.0;

/// Pageable copies at least this large measure the staging rate: the pipeline's fill and the
/// fixed cost are under a few percent of their time.
inline constexpr std::uint64_t kStagingMinBytes = 4ull << 20;

Calibration calibrate(const trace::Trace& trace);
/// The same from a trace indexed beforehand (its categories).
Calibration calibrate(const trace::TraceIndex& index);
/// From several traces recorded on the same node, measured together (their small copies' medians
/// and their pageable copies' rates pooled).
Calibration calibrate(const std::vector<const trace::TraceIndex*>& indexes);
/// The measured 1-byte costs per copy class, ns, NaN for the classes the trace did not measure:
/// what the simulator takes as L + O (sim::SimOptions::fixed_ns).
std::array<double, model::kCopyClassCount> fixed_costs_ns(const Calibration& c);
void render_calibration_yaml(const Calibration& c, std::ostream& out);

}  // namespace linkcast::projection
