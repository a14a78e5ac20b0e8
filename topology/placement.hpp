// Where a trace's endpoints land on a node. A trace may name its host memory only as `host`
// (CUDA copies say "host", not which socket): the node decides which CPU that is. One rule for
// the projection, the simulator and the matrices.
#pragma once

#include <string>

#include "topology/node.hpp"

namespace linkcast::topology {

/// The CPU of `node` that holds a trace's unplaced `host` endpoint in an operation whose other
/// end is node endpoint `other` (-1 when that end is not on the node, or is itself `host`): the
/// socket of `other` when it is a GPU with a host CPU (its NUMA affinity), else the node's first
/// CPU. Throws InputError (host_placement_error) when the node has no CPU.
[[nodiscard]] int place_host(const Node& node, int other);

/// The one message for a node with nowhere to put `host`: "node 'N' (FILE) has no CPU to place
/// the trace's 'host' on; add a cpu endpoint to the node".
[[nodiscard]] std::string host_placement_error(const Node& node);

}  // namespace linkcast::topology
