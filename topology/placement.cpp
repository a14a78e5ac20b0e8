#include "topology/placement.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace linkcast::topology {

std::string host_placement_error(const Node& node) {
  return fmt::format("node '{}' ({}) has no CPU to place the trace's 'host' on; add a cpu endpoint to the node",
                     node.name, node.file);
}

int place_host(const Node& node, int other) {
  if (other >= 0) {
    const Endpoint& e = node.endpoints.at(static_cast<std::size_t>(other));
    if (e.kind == EndpointKind::gpu && e.host >= 0) return e.host;
  }
  for (std::size_t i = 0; i < node.endpoints.size(); ++i)
    if (node.endpoints[i].kind == EndpointKind::cpu) return static_cast<int>(i);
  throw InputError(host_placement_error(node));
}

}  // namespace linkcast::topology
