// Loading and validating a node description (configs/SCHEMA.md). Every problem raises
// InputError with "file:line:column: what is wrong and how to fix it".
#pragma once

#include <string>

#include "topology/node.hpp"

namespace linkcast::topology {

inline constexpr int kSchemaVersion = 1;

/// Loads, validates (schema, values, references, reachability) and returns the node.
[[nodiscard]] Node load_node(const std::string& path);
/// The same from YAML text; `file` names it in messages.
[[nodiscard]] Node parse_node(const std::string& yaml_text, const std::string& file);

}  // namespace linkcast::topology
