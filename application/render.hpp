// What `linkcast project` prints for a whole application: the span and every step on the source
// and projected on the target (with the target's recording, each one's error beside "nothing
// changes"), what the GPU ran by class, and where the target's critical path goes.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "application/app_projection.hpp"
#include "application/steps.hpp"
#include "topology/node.hpp"

namespace linkcast::application {

void render_table(const topology::Node& from, const topology::Node& to, const ApplicationProjection& p,
                  const StepTable& steps, std::ostream& out);
[[nodiscard]] nlohmann::json to_json(const topology::Node& from, const topology::Node& to, const ApplicationProjection& p,
                                     const StepTable& steps);

/// The application's span projected per transfer model (model name, projected ns; the first the
/// projection's own), beside the recorded span and the target's recording where given.
using SpanByModel = std::vector<std::pair<std::string, double>>;
/// "Span per transfer model (recorded 102 ms, actual 101 ms): default 104 ms (+1.5%) ...", where
/// there is more than one model; nothing otherwise.
void render_span_by_model(const StepTable& steps, const SpanByModel& spans, std::ostream& out);
/// {"source_s": recorded span, "actual_s": the target's recording (with --actual), "models":
/// {model: projected span}}, in seconds.
[[nodiscard]] nlohmann::json span_json(const StepTable& steps, const SpanByModel& spans);

}  // namespace linkcast::application
