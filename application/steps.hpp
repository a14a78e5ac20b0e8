// The steps of a recorded application (PyTorch's `ProfilerStep#N` annotations, else the trace's
// own step annotations: sim::step_prefix) and the step times a projection predicts, scored
// against a recording on the target. A job's step is its slowest rank's: several records of one
// step name (one per rank) count as their longest.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "application/app_projection.hpp"
#include "trace/trace.hpp"

namespace linkcast::application {

struct RecordedStep {
  std::string name;  // ProfilerStep#N
  double ns = 0;
};
/// The trace's step annotations with their recorded durations, one per name (the longest), in
/// order of first appearance.
[[nodiscard]] std::vector<RecordedStep> recorded_steps(const trace::Trace& trace);

struct StepRow {
  std::string name;
  double recorded_ns = 0;   // on the source
  double projected_ns = 0;  // recorded x target replay / source replay
  std::optional<double> actual_ns;  // recorded on the target, same step name
  sim::ApplicationResult::Breakdown target_breakdown;
};

struct StepScore {
  std::size_t steps = 0;          // steps matched by name
  double projected_error_pct = 0;  // sum of projected steps vs sum of actual steps, signed
  double measured_error_pct = 0;   // "nothing changes": recorded vs actual, signed
  double projected_wmape_pct = 0;  // per step: sum |projected - actual| / sum actual
  double measured_wmape_pct = 0;
};

struct StepTable {
  std::vector<StepRow> rows;
  /// The whole span the same way (recorded x target replay / source replay).
  double recorded_span_ns = 0, projected_span_ns = 0;
  std::optional<double> actual_span_ns;  // the target's recording's span
  std::optional<StepScore> score;  // with an actual recording that has matching steps
};

/// Each source step's projection: its recorded time scaled by how much longer or shorter the
/// target replay ran it than the source replay (so a replay's own error cancels, and the same node
/// gives back the recorded times); `actual` (may be null) adds the target's recorded steps.
[[nodiscard]] StepTable step_table(const ApplicationProjection& p, const trace::Trace* actual);

}  // namespace linkcast::application
