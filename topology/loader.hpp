// Loading and validating a node description (configs/SCHEMA.md). Every problem raises
// InputError with "file:line:column: what is wrong and how to fix it".
#pragma once

#include <string>
#include <vector>

#include "topology/node.hpp"

namespace linkcast::topology {

inline constexpr int kSchemaVersion = 1;

/// A value still written as TODO (a `topo import` skeleton not yet filled in).
struct Todo {
  int line = 0, column = 0;
  std::string what;  // "endpoints[0] (cpu0) memory.capacity_gib"
  std::string hint;  // what fills it, from the schema
};

/// Every TODO value of a node document, in file order (empty for malformed YAML: loading says why).
[[nodiscard]] std::vector<Todo> find_todos(const std::string& yaml_text, const std::string& file);

/// Throws InputError where `path` is a directory (a node file was asked for).
void refuse_directory(const std::string& path);
/// Loads, validates (schema, values, references, reachability) and returns the node.
[[nodiscard]] Node load_node(const std::string& path);
/// The same from YAML text; `file` names it in messages. A document with TODO values is refused
/// with one message listing every one of them with what fills it.
[[nodiscard]] Node parse_node(const std::string& yaml_text, const std::string& file);

}  // namespace linkcast::topology
