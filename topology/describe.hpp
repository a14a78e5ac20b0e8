// `linkcast topo`: a node as a table (endpoints, links, an nvidia-smi-topo-like pair matrix),
// as JSON (every ordered endpoint pair with its route) or as Graphviz DOT.
#pragma once

#include <iosfwd>
#include <string>

#include "topology/routing.hpp"

namespace linkcast::topology {

/// nvidia-smi-topo-style class of a route: X (self), NV# (NVLink only, # = fewest links on the
/// path), PIX (through one PCIe switch), PXB (several PCIe switches), PHB (through a host bridge
/// / CPU, or one direct PCIe link), SYS (crosses an inter-socket link), C2C/XGMI/XBUS/UPI/QPI/
/// HT/LINK (links of that one kind only), none (no route).
std::string pair_class(const Node& node, const Path& path);

std::string describe_table(const Node& node, const Routes& routes);
std::string describe_json(const Node& node, const Routes& routes);
/// describe_json written to `out` as it is made (a large node's pairs are never held at once).
void write_json(const Node& node, const Routes& routes, std::ostream& out);
std::string describe_dot(const Node& node);

}  // namespace linkcast::topology
