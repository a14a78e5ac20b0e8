// What `linkcast project` prints for a whole application: the span and every step on the source
// and projected on the target (with the target's recording, each one's error beside "nothing
// changes"), what the GPU ran by class, and where the target's critical path goes.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "application/app_projection.hpp"
#include "application/steps.hpp"
#include "topology/node.hpp"

namespace linkcast::application {

void render_table(const topology::Node& from, const topology::Node& to, const ApplicationProjection& p,
                  const StepTable& steps, std::ostream& out);
[[nodiscard]] nlohmann::json to_json(const topology::Node& from, const topology::Node& to, const ApplicationProjection& p,
                                     const StepTable& steps);

}  // namespace linkcast::application
