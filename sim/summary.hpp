// The simulated timeline summarised for people: per operation category, simulated against
// measured time, and per issuing device, how many operations were in flight over equal time
// bins of the makespan. The report's simulation view draws it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/simulate.hpp"
#include "topology/node.hpp"
#include "trace/category.hpp"
#include "trace/trace.hpp"

namespace linkcast::sim {

/// What the simulation did with one category of operations (trace::Category).
struct CategoryTimes {
  std::uint64_t ops = 0;
  double bytes = 0;
  double simulated_ns = 0;              // sum of simulated durations
  std::uint64_t measured_ops = 0;       // operations with a recorded duration
  double measured_ns = 0;               // sum of their recorded durations
  double simulated_of_measured_ns = 0;  // sum of the simulated durations of those operations
};

/// The simulated timeline, summarised per issuing device over equal time bins.
struct Activity {
  std::vector<int> devices;                    // node endpoints that issued operations, node order
  std::vector<std::uint64_t> ops;              // per device
  std::vector<double> busy_ns;                 // per device: sum of simulated durations
  std::vector<std::vector<double>> in_flight;  // per device, per bin: mean operations running
  double bin_ns = 0;
};

struct SimulationSummary {
  std::array<CategoryTimes, trace::kCategoryCount> by_category{};
  Activity activity;
};

/// One pass over the operations: per-category times and per-device activity in `bins` bins of
/// the makespan. Operations without an issuing device are counted per category only.
SimulationSummary summarize_simulation(const topology::Node& node, const trace::Trace& trace,
                                       const sim::SimResult& sim, std::size_t bins);

}  // namespace linkcast::sim
