// Max-min fair-sharing solvers, registered by name with a one-line description (as SimGrid's
// LMM solvers are). A solver reads the component of the network that changed and writes, for
// each route class of it, the data rate of its uncapped members and how many members (the
// lowest caps) are held at their own cap, and for each resource its consumption.
//
// Progressive filling ("water-filling"): raise every unfrozen flow's rate together; when a
// resource runs out (remaining capacity / unfrozen weight is the lowest), freeze every flow on
// it at that rate; when a flow reaches its own cap first, freeze it there; repeat.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/network.hpp"

namespace linkcast::sim {

class Solver {
 public:
  virtual ~Solver() = default;
  /// Solves FlowNetwork::comp_routes_ / comp_resources_ into new_level_, new_capped_ and
  /// new_wire_rate_.
  void solve(FlowNetwork& net) const { do_solve(net); }
  /// True when the solver needs every active route in the component (no incrementality).
  virtual bool whole_network() const { return false; }

 private:
  virtual void do_solve(FlowNetwork& net) const = 0;
};

/// The production solver: route classes, connected components, indexed heaps.
class IncrementalMaxMin final : public Solver {
 private:
  void do_solve(FlowNetwork& net) const override;
  /// Where every member of the component has a cap and all of them at their caps fit every
  /// resource (no contention: most components of a trace's replay), each runs at its cap, as
  /// progressive filling would find after a heap operation per route: sets the answer and
  /// returns true; else leaves it to progressive filling.
  static bool solve_if_fits_at_caps(FlowNetwork& net);
};

/// The textbook algorithm, flow by flow over the whole network on every change: slow, simple,
/// and the yardstick the incremental solver is tested against.
class ReferenceMaxMin final : public Solver {
 public:
  bool whole_network() const override { return true; }

 private:
  void do_solve(FlowNetwork& net) const override;
};

struct SolverInfo {
  std::string_view name;
  std::string_view description;  // one line
  std::unique_ptr<Solver> (*make)();
};

std::span<const SolverInfo> all_solvers();
std::vector<std::string> solver_names();
/// Throws InputError listing the valid names for an unknown one.
std::unique_ptr<Solver> make_solver(std::string_view name);

}  // namespace linkcast::sim
