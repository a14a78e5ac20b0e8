// The node as a Boost.Graph graph (one directed edge per link direction) and the routes between
// every pair of endpoints: lowest total latency, ties broken by the highest bottleneck bandwidth,
// forwarding only through CPUs and switches; explicit `routes:` in the YAML override it.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <vector>

#include "model/transfer.hpp"
#include "topology/node.hpp"

namespace linkcast::topology {

/// Properties of one directed edge: which link, in which direction, and its cost.
struct EdgeProps {
  int link = -1;
  bool forward = true;  // a -> b of the link
  double latency_ns = 0;
  double gbps = 0;
};

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                    EdgeProps>;

/// One vertex per endpoint (same index), one edge per direction of each link.
Graph build_graph(const Node& node);

struct DirectedLink {
  int link = -1;
  bool forward = true;
  bool operator==(const DirectedLink&) const = default;
};

struct Path {
  bool reachable = false;
  std::vector<DirectedLink> links;  // from source to destination
  std::vector<int> endpoints;       // source, intermediates..., destination
  int hops = 0;
  double bottleneck_gbps = 0;  // lowest per-direction link bandwidth on the path
  double latency_ns = 0;       // sum of the links' latencies
  bool overridden = false;     // from the node's explicit `routes:`
};

class Routes {
 public:
  enum class Compute : unsigned char {
    all,        // every ordered pair up front (thread-safe reads afterwards)
    on_demand,  // each source's routes when first asked for (not thread-safe; for one user)
  };
  /// Throws InputError for an explicit route that does not follow the node's links.
  explicit Routes(const Node& node, Compute compute = Compute::all);

  const Path& path(int src, int dst) const {
    const auto s = static_cast<std::size_t>(src);
    if (!computed_[s]) compute_source(s);
    return paths_[s][static_cast<std::size_t>(dst)];
  }
  /// Lets `src`'s routes go (computed again when next asked for): for walks over every pair of
  /// a large node, one source at a time.
  void release(int src) const {
    std::vector<Path>().swap(paths_[static_cast<std::size_t>(src)]);
    computed_[static_cast<std::size_t>(src)] = 0;
  }
  const Graph& graph() const { return graph_; }
  const Node& node() const { return *node_; }

 private:
  /// Dijkstra from `s` (lowest latency, then widest), then the explicit routes from `s`.
  void compute_source(std::size_t s) const;

  const Node* node_;
  std::size_t n_;
  Graph graph_;
  std::vector<char> forwards_;
  // One row per source, made when the source is first asked for (a simulation of a few copies on
  // a node of thousands of endpoints needs a few rows, not n x n paths).
  mutable std::vector<std::vector<Path>> paths_;
  mutable std::vector<char> computed_;
};

/// The class of a transfer between two endpoints (h2d, d2h, d2d, p2p, h2h). Throws InputError
/// when an end is not a cpu or gpu.
model::PathClass path_class(const Node& node, int src, int dst);

/// What a model needs to price transfers from `src` to `dst` on this node.
model::PathSpec make_path_spec(const Node& node, const Routes& routes, int src, int dst);

}  // namespace linkcast::topology
