// The steps of a recorded application (PyTorch's `ProfilerStep#N` annotations) and the step times
// a projection predicts, scored against a recording on the target.
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
/// The trace's ProfilerStep#N annotations with their recorded durations, in trace order.
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
  std::optional<StepScore> score;  // with an actual recording that has matching steps
};

/// Each source step's projection: its recorded time scaled by how much longer or shorter the
/// target replay ran it than the source replay (so a replay's own error cancels, and the same node
/// gives back the recorded times); `actual` (may be null) adds the target's recorded steps.
[[nodiscard]] StepTable step_table(const ApplicationProjection& p, const trace::Trace* actual);

}  // namespace linkcast::application
