// Totals of a projection: per model, per category and per size bucket (AHEAD's Fig. 1a/1b
// count and time distributions), with WMAPE where an actual trace was given; and the three
// renderings `linkcast project` prints (table, JSON, per-operation CSV).
#pragma once

#include <array>
#include <iosfwd>
#include <string>
#include <vector>

#include "projection/compare.hpp"
#include "projection/projector.hpp"

namespace linkcast::projection {

struct Cell {
  std::size_t count = 0;
  double source_ns = 0;     // measured on the source node (ops with a duration)
  double projected_ns = 0;  // projected on the target node, all ops
  ErrorSum error;           // matched ops only: actual vs projected
};

struct ProjectionSummary {
  std::string trace_file, trace_format, from_name, from_file, to_name, to_file, actual_file;
  std::vector<std::string> models;
  std::size_t ops = 0;
  bool has_actual = false;
  std::size_t matched = 0, unmatched_source = 0, unmatched_actual = 0;
  std::vector<Cell> overall;                                  // per model
  std::vector<std::array<Cell, trace::kCategoryCount>> by_category;  // per model
  std::vector<std::array<Cell, trace::kSizeBucketCount>> by_bucket;  // per model
  std::array<FixedCost, model::kCopyClassCount> fixed;
  std::vector<std::string> warnings;
};

ProjectionSummary summarize(const Projector& projector, const std::vector<const model::Model*>& models,
                            const trace::Trace* actual, const MatchResult* match);

void render_table(const ProjectionSummary& s, std::ostream& out);
void render_json(const ProjectionSummary& s, std::ostream& out);
/// One row per operation: measured on the source, actual (when matched), projected and signed
/// error per model.
void render_ops_csv(const Projector& projector, const std::vector<const model::Model*>& models,
                    const trace::Trace* actual, const MatchResult* match, std::ostream& out);

}  // namespace linkcast::projection
