// Scoring a projection against a trace recorded on the target node: operations are matched by
// kind, category (which carries the memory kinds), memory kinds and size, in order of
// occurrence; WMAPE = 100 * sum|A - P| / sum A over matched operations (AHEAD, sec. VI-C).
#pragma once

#include <cstdint>
#include <vector>

#include "trace/category.hpp"
#include "trace/trace.hpp"

namespace linkcast::projection {

struct MatchResult {
  std::vector<std::int64_t> actual_index;  // per source operation: index in the actual trace or -1
  std::size_t matched = 0;
  std::size_t unmatched_source = 0;
  std::size_t unmatched_actual = 0;
};

MatchResult match_ops(const trace::Trace& source, const std::vector<trace::Category>& source_categories,
                      const trace::Trace& actual);

/// 100 * sum|A - P| / sum A; 0 when sum A is 0.
double wmape_pct(double sum_abs_error, double sum_actual);

/// Accumulates WMAPE terms.
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
  double wmape() const { return wmape_pct(abs_error, actual); }
};

}  // namespace linkcast::projection
