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
  double source_ns = 0;        // measured on the source node (ops with a duration)
  double model_source_ns = 0;  // the model's own figure on the source node, all ops
  double projected_ns = 0;     // projected on the target node, all ops
  ErrorSum error;              // matched ops only: actual vs projected
  /// Adds another cell's operations (a part of the trace summed apart).
  void merge(const Cell& o) {
    count += o.count;
    source_ns += o.source_ns;
    model_source_ns += o.model_source_ns;
    projected_ns += o.projected_ns;
    error.merge(o.error);
  }
};

/// Per operation, its time under each of `models` on the target and on the source node
/// (Projector::time_ns, source_time_ns), with the models that price every operation of a group
/// alike priced once per group where groups repeat.
class OpTimes {
 public:
  OpTimes(const Projector& projector, const std::vector<const model::Model*>& models);
  double target(std::size_t i, std::size_t m) const;
  double source(std::size_t i, std::size_t m) const;
  /// target(i, m) and source(i, m) for every model, into target[m] and source[m].
  void times(std::size_t i, double* target, double* source) const;

 private:
  static constexpr std::size_t kPerOp = static_cast<std::size_t>(-1);
  const Projector* projector_;
  const std::vector<const model::Model*>* models_;
  std::vector<std::size_t> column_;      // per model: its column in the tables, kPerOp (anchored or measured)
  std::size_t cached_ = 0;               // columns in the tables; 0: every time priced where read
  std::vector<double> target_, source_;  // per group x cached model
};

struct ProjectionSummary {
  std::string trace_file, trace_format, from_name, from_file, to_name, to_file, actual_file;
  std::vector<std::string> models;
  std::size_t ops = 0;
  std::size_t timed_ops = 0;  // operations with a recorded duration (the source sums hold only these)
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
/// One row per operation: measured on the source, the host regime the anchor chose (pageable
/// copies), actual (when matched), projected and signed error per model.
void render_ops_csv(const Projector& projector, const std::vector<const model::Model*>& models,
                    const trace::Trace* actual, const MatchResult* match, std::ostream& out);

}  // namespace linkcast::projection
