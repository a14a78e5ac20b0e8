// Editing a loaded node in place, for what-if studies: an axis path names a set of values of the
// node file, and a value is written to all of them with the loader's own checks (the key table of
// topology/schema.hpp: its sweepable keys are the fields, its checks the rules).
//
//   endpoints[SELECTOR].FIELD     FIELD: memory.capacity_gib, memory.bandwidth_gbps,
//                                        memory.copy_bandwidth_gbps, copy_engines
//   links[SELECTOR].FIELD         FIELD: gen, lanes, mps, mrrs, rcb, addressing (PCIe);
//                                        version, count, per_link_gbps (NVLink);
//                                        bandwidth_gbps (generic links); latency_ns (any link)
//   (configs/SCHEMA.md lists them in its "sweep" column.)
//   SELECTOR: * or conditions joined by ',', each KEY=GLOB or KEY!=GLOB; endpoint keys id, kind;
//             link keys id, type, between (matched as "a-b" and "b-a"); GLOB may use * and ?.
//
// Examples: links[type=pcie].gen, links[type=nvlink,between=cpu*].count,
//           endpoints[kind=gpu].memory.bandwidth_gbps, endpoints[id=cpu0].memory.copy_bandwidth_gbps
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "topology/node.hpp"

namespace linkcast::topology {

struct AxisPath {
  enum class Section : unsigned char { endpoints, links };
  struct Condition {
    std::string key, glob;
    bool negate = false;
  };
  std::string text;
  Section section = Section::links;
  std::vector<Condition> conditions;  // all must hold; empty = every element
  std::string field;
};

/// Parses an axis path; throws InputError (without a location: the caller adds it) naming what is
/// wrong and the valid choices.
[[nodiscard]] AxisPath parse_axis_path(std::string_view text);

/// Indices of the endpoints or links the path selects on `node`.
[[nodiscard]] std::vector<int> select(const Node& node, const AxisPath& path);

/// Writes `value` (as written in a file) to every selected element. Throws InputError if the path
/// selects nothing, the field does not apply to a selected element, or the value is of the wrong
/// type or out of range (the loader's rules).
void apply(Node& node, const AxisPath& path, std::string_view value);

/// The number the loader reads from `value` (as written in a file) for the path's field: the value
/// apply() writes ("+4" and "4.0" are 4). Throws InputError where apply() would refuse it.
[[nodiscard]] double field_value(const AxisPath& path, std::string_view value);

/// The value currently at the path's first selected element, as text ("" if none).
[[nodiscard]] std::string current_value(const Node& node, const AxisPath& path);

}  // namespace linkcast::topology
