// What each resource of a FlowNetwork carried over time, in memory that does not grow with the
// run (issue 17: keeping every change of every resource's load cost 175 bytes per operation).
//
// Each resource that carries anything has kFineBins fine bins of one common width. The width
// starts at 1/1024 ns and doubles (neighbouring bins merged) whenever the clock passes the last
// bin's end, so a run of any length fills between half and all of them. A result bin (the run's
// length / n) is read from them; a fine bin that a result bin's edge cuts is split in proportion
// to time. That is exact wherever the load is constant within the cut fine bin, and otherwise off
// by at most that fine bin's bytes: with n = 20 and 4,096 fine bins, at most 1% of a result bin's
// width at capacity per edge.
#pragma once

#include <cstddef>
#include <vector>

namespace linkcast::sim {

class UsageBins {
 public:
  static constexpr std::size_t kFineBins = 4096;

  /// `fine_bins` (even, >= 2) bins per resource.
  explicit UsageBins(std::size_t fine_bins = kFineBins);

  /// Resource `r` carried `rate` units per ns from `t0_ns` to `t1_ns` (0 <= t0 <= t1).
  void add(std::size_t r, double t0_ns, double t1_ns, double rate);

  /// Units resource `r` carried in each of `n` equal bins of [0, `end_ns`), counting what add()
  /// was told and, beyond it, `tail_rate` from `tail_from_ns` to `end_ns`.
  [[nodiscard]] std::vector<double> bins(std::size_t r, int n, double end_ns, double tail_from_ns = 0,
                                         double tail_rate = 0) const;

  double fine_width_ns() const { return width_ns_; }

 private:
  /// Doubles the width until `t_ns` falls within the fine bins.
  void widen_to(double t_ns);

  std::size_t fine_;
  double width_ns_ = 1.0 / 1024;
  double per_width_ = 1024;  // 1 / width_ns_: exact, both powers of two
  double horizon_ns_;  // width_ns_ x fine_: where the fine bins end
  std::vector<std::vector<double>> by_resource_;  // empty until the resource carries something
};

}  // namespace linkcast::sim
