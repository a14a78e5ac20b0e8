// The node drawn as OSU INAM draws it: endpoints in layers (CPU sockets on top, then PCIe
// switches and NICs by their distance from a socket, then GPUs, then NVSwitch fabrics), every
// link as two lanes (one per direction) coloured by the simulated utilisation band of that
// direction and labelled with the bytes it carried.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "sim/simulate.hpp"
#include "topology/node.hpp"

namespace linkcast::report {

struct Point {
  double x = 0, y = 0;
};

struct NodeLayout {
  std::vector<Point> at;   // per endpoint: centre of its box
  std::vector<int> layer;  // per endpoint: 0 = CPU sockets, growing downwards
  double width = 0, height = 0;
  double box_width = 0, box_height = 0;
};

/// Places every endpoint of `node`. Within a layer, endpoints are ordered by the mean position
/// of the endpoints they link to in the layers above (ties: file order), and spread evenly.
NodeLayout layout_node(const topology::Node& node);

/// What the simulation says about one direction of one link.
struct LaneTraffic {
  double capacity_gbps = 0;
  double data_bytes = 0;
  double wire_bytes = 0;
  double utilisation = 0;                     // average over the makespan (fraction)
  double peak_utilisation = 0;                // highest bin
  const std::vector<double>* bins = nullptr;  // utilisation per time bin, when it carried data
};

/// Per link of the node: [0] the a -> b direction, [1] b -> a. Directions that carried nothing
/// keep zeros and the link's nominal per-direction bandwidth.
std::vector<std::array<LaneTraffic, 2>> link_traffic(const topology::Node& node, const sim::SimResult& sim);

/// The drawing. Each lane carries data-v (data bytes) and its band for average and peak
/// utilisation; `check` names the element the script writes the lanes' byte sum into.
std::string topology_svg(const topology::Node& node, const NodeLayout& layout,
                         const std::vector<std::array<LaneTraffic, 2>>& traffic,
                         const std::vector<double>& endpoint_sent_bytes,
                         const std::vector<double>& endpoint_received_bytes, const std::string& check);

}  // namespace linkcast::report
