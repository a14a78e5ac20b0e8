// The error measure of every comparison with a recording: weighted mean absolute percentage
// error, WMAPE = 100 * sum |A - P| / sum A over the compared operations (AHEAD, sec. VI-C). Big
// operations weigh more, and an operation that measured 0 cannot blow it up.
#pragma once

#include <cstddef>

namespace linkcast {

/// 100 * sum|A - P| / sum A; 0 when sum A is 0.
[[nodiscard]] inline double wmape_pct(double sum_abs_error, double sum_actual) {
  return sum_actual > 0 ? 100.0 * sum_abs_error / sum_actual : 0.0;
}

/// Accumulates WMAPE terms: actual (measured) against projected (or simulated) values.
struct ErrorSum {
  double abs_error = 0;
  double actual = 0;
  double projected = 0;
  std::size_t count = 0;
  void add(double a, double p) {
    abs_error += a > p ? a - p : p - a;
    actual += a;
    projected += p;
    ++count;
  }
  /// Adds another sum's operations (a part of the same set counted apart).
  void merge(const ErrorSum& o) {
    abs_error += o.abs_error;
    actual += o.actual;
    projected += o.projected;
    count += o.count;
  }
  [[nodiscard]] double wmape() const { return wmape_pct(abs_error, actual); }
  /// Whether WMAPE says anything: the compared operations measured some time (none matched, or
  /// all measured 0, leaves it undefined, not 0%: shown as "-" and null).
  [[nodiscard]] bool defined() const { return count > 0 && actual > 0; }
};

}  // namespace linkcast
