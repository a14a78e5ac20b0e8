// Scoring a projection against a trace recorded on the target node: operations are matched by
// kind, category (which carries the memory kinds), memory kinds and size, in order of
// occurrence, and scored with WMAPE (core/wmape.hpp) over the matched operations.
#pragma once

#include <cstdint>
#include <vector>

#include "core/wmape.hpp"
#include "trace/category.hpp"
#include "trace/trace.hpp"

namespace linkcast::projection {

struct MatchResult {
  std::vector<std::int64_t> actual_index;  // per source operation: index in the actual trace or -1
  std::size_t matched = 0;
  std::size_t unmatched_source = 0;
  std::size_t unmatched_actual = 0;
};

[[nodiscard]] MatchResult match_ops(const trace::Trace& source, const std::vector<trace::Category>& source_categories,
                      const trace::Trace& actual);

}  // namespace linkcast::projection
