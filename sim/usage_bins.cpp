#include "sim/usage_bins.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace linkcast::sim {

namespace {

/// Adds `amount`, spread evenly over [a, b), to `out`'s bins of `width` starting at 0.
void spread(std::vector<double>& out, double width, double a, double b, double amount) {
  const auto last = out.size() - 1;
  const auto bin_of = [&](double t) {
    return static_cast<std::size_t>(std::clamp(t / width, 0.0, static_cast<double>(last)));
  };
  if (!(b > a)) {
    out[bin_of(a)] += amount;
    return;
  }
  const double per_ns = amount / (b - a);
  for (auto k = bin_of(a); k <= last; ++k) {
    const double lo = std::max(a, width * static_cast<double>(k));
    const double hi = k == last ? b : std::min(b, width * static_cast<double>(k + 1));
    if (hi > lo) out[k] += per_ns * (hi - lo);
    if (hi >= b) break;
  }
}

}  // namespace

UsageBins::UsageBins(std::size_t fine_bins) : fine_(fine_bins), horizon_ns_(width_ns_ * static_cast<double>(fine_bins)) {
  if (fine_ < 2 || fine_ % 2 != 0) throw std::invalid_argument("UsageBins: the fine bins must be an even count >= 2");
}

void UsageBins::widen_to(double t_ns) {
  while (t_ns > width_ns_ * static_cast<double>(fine_)) {
    for (std::vector<double>& fine : by_resource_) {
      if (fine.empty()) continue;
      for (std::size_t j = 0; j < fine_ / 2; ++j) fine[j] = fine[2 * j] + fine[2 * j + 1];
      std::fill(fine.begin() + static_cast<std::ptrdiff_t>(fine_ / 2), fine.end(), 0.0);
    }
    width_ns_ *= 2;
    per_width_ /= 2;
  }
  horizon_ns_ = width_ns_ * static_cast<double>(fine_);
}

void UsageBins::add(std::size_t r, double t0_ns, double t1_ns, double rate) {
  if (!(rate > 0) || !(t1_ns > t0_ns) || !std::isfinite(t1_ns)) return;
  if (t1_ns > horizon_ns_) widen_to(t1_ns);
  if (by_resource_.size() <= r) by_resource_.resize(r + 1);
  std::vector<double>& fine = by_resource_[r];
  if (fine.empty()) fine.assign(fine_, 0.0);
  t0_ns = std::max(t0_ns, 0.0);
  // Most segments (between two solves) fall within one fine bin.
  const auto j = static_cast<std::size_t>(t0_ns * per_width_);
  if (j < fine_ && t1_ns <= width_ns_ * static_cast<double>(j + 1)) {
    fine[j] += rate * (t1_ns - t0_ns);
    return;
  }
  spread(fine, width_ns_, t0_ns, t1_ns, rate * (t1_ns - t0_ns));
}

std::vector<double> UsageBins::bins(std::size_t r, int n, double end_ns, double tail_from_ns, double tail_rate) const {
  std::vector<double> out(static_cast<std::size_t>(std::max(n, 1)), 0.0);
  if (!(end_ns > 0)) return out;
  const double width = end_ns / static_cast<double>(out.size());
  if (r < by_resource_.size())
    for (std::size_t j = 0; j < by_resource_[r].size(); ++j) {
      const double v = by_resource_[r][j];
      if (v == 0) continue;
      // Nothing was carried past end_ns: a fine bin that straddles it holds bytes of before it.
      const double a = width_ns_ * static_cast<double>(j);
      spread(out, width, a, std::min(a + width_ns_, end_ns), v);
    }
  if (tail_rate > 0 && end_ns > tail_from_ns)
    spread(out, width, tail_from_ns, end_ns, tail_rate * (end_ns - tail_from_ns));
  return out;
}

}  // namespace linkcast::sim
