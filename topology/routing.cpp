#include "topology/routing.hpp"

#include <fmt/format.h>

#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/dijkstra_shortest_paths_no_color_map.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <limits>

#include "core/error.hpp"

namespace linkcast::topology {

Graph build_graph(const Node& node) {
  Graph g(node.endpoints.size());
  for (std::size_t i = 0; i < node.links.size(); ++i) {
    const Link& l = node.links[i];
    const double gbps = l.spec.gbps();
    boost::add_edge(static_cast<std::size_t>(l.a), static_cast<std::size_t>(l.b),
                    EdgeProps{static_cast<int>(i), true, l.spec.latency_ns, gbps}, g);
    boost::add_edge(static_cast<std::size_t>(l.b), static_cast<std::size_t>(l.a),
                    EdgeProps{static_cast<int>(i), false, l.spec.latency_ns, gbps}, g);
  }
  return g;
}

namespace {

/// Lexicographic path cost: total latency first, then the bottleneck bandwidth (higher wins).
/// The combination is isotone (adding the same edge preserves the order), so Dijkstra is exact.
struct Cost {
  double latency_ns;
  double bottleneck_gbps;
};

constexpr double kLatencyTieNs = 1e-6;

struct CostLess {
  bool operator()(const Cost& a, const Cost& b) const {
    if (std::fabs(a.latency_ns - b.latency_ns) > kLatencyTieNs) return a.latency_ns < b.latency_ns;
    return a.bottleneck_gbps > b.bottleneck_gbps;
  }
  // Boost's negative-weight check compares an edge weight with the zero distance.
  bool operator()(const EdgeProps& e, const Cost& zero) const { return e.latency_ns < zero.latency_ns; }
};

struct CostCombine {
  Cost operator()(const Cost& d, const EdgeProps& e) const {
    return {d.latency_ns + e.latency_ns, std::min(d.bottleneck_gbps, e.gbps)};
  }
};

/// Only CPUs and switches forward: an edge may leave a vertex that does not forward only when
/// that vertex is the route's source.
struct ForwardingFilter {
  const std::vector<char>* forwards = nullptr;
  const Graph* g = nullptr;
  std::size_t source = 0;
  bool operator()(const Graph::edge_descriptor& e) const {
    const std::size_t from = boost::source(e, *g);
    return from == source || (*forwards)[from];
  }
};

/// The most links a route may take: the deepest real nodes route GPU to GPU across sockets in
/// about 8 (GPU, two PCIe switch levels, CPU, CPU, and back down); 64 leaves room, and bounds the
/// paths a node of thousands of endpoints holds (a chain of 1,000 switches took 4.7 GB).
constexpr std::size_t kMaxRouteLinks = 64;

Path make_path(const Node& node, int src, const std::vector<DirectedLink>& links) {
  Path p;
  p.reachable = true;
  p.links = links;
  p.hops = static_cast<int>(links.size());
  p.endpoints.push_back(src);
  p.bottleneck_gbps = std::numeric_limits<double>::infinity();
  int at = src;
  for (const DirectedLink& dl : links) {
    const Link& l = node.links[static_cast<std::size_t>(dl.link)];
    at = dl.forward ? l.b : l.a;
    p.endpoints.push_back(at);
    p.latency_ns += l.spec.latency_ns;
    p.bottleneck_gbps = std::min(p.bottleneck_gbps, l.spec.gbps());
  }
  if (links.empty()) p.bottleneck_gbps = 0;
  return p;
}

/// Best single link between two endpoints in the direction a -> b, by the same cost order.
std::optional<DirectedLink> best_link(const Node& node, int a, int b) {
  std::optional<DirectedLink> best;
  Cost best_cost{0, 0};
  for (std::size_t i = 0; i < node.links.size(); ++i) {
    const Link& l = node.links[i];
    const bool fwd = l.a == a && l.b == b;
    const bool rev = l.a == b && l.b == a;
    if (!fwd && !rev) continue;
    const Cost c{l.spec.latency_ns, l.spec.gbps()};
    if (!best || CostLess{}(c, best_cost)) {
      best = DirectedLink{static_cast<int>(i), fwd};
      best_cost = c;
    }
  }
  return best;
}

}  // namespace

Routes::Routes(const Node& node, Compute compute)
    : node_(&node), n_(node.endpoints.size()), graph_(build_graph(node)), forwards_(n_), paths_(n_),
      computed_(n_, 0) {
  for (std::size_t i = 0; i < n_; ++i) forwards_[i] = node.endpoints[i].forwards() ? 1 : 0;
  if (compute == Compute::all)
    for (std::size_t s = 0; s < n_; ++s) compute_source(s);
}

void Routes::compute_source(std::size_t s) const {
  const Node& node = *node_;
  std::vector<Cost> dist(n_);
  std::vector<Graph::edge_descriptor> pred_edge(n_);
  std::vector<char> has_pred(n_, 0);
  ForwardingFilter filter{&forwards_, &graph_, s};
  boost::filtered_graph<Graph, ForwardingFilter> fg(graph_, filter);
  struct Recorder : boost::default_dijkstra_visitor {
    std::vector<Graph::edge_descriptor>* pred;
    std::vector<char>* has;
    void edge_relaxed(Graph::edge_descriptor e, const boost::filtered_graph<Graph, ForwardingFilter>& g) {
      const std::size_t t = boost::target(e, g);
      (*pred)[t] = e;
      (*has)[t] = 1;
    }
  } recorder;
  recorder.pred = &pred_edge;
  recorder.has = &has_pred;
  boost::dijkstra_shortest_paths_no_color_map(
      fg, s,
      boost::weight_map(boost::get(boost::edge_bundle, graph_))
          .distance_map(boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, graph_)))
          .distance_compare(CostLess{})
          .distance_combine(CostCombine{})
          .distance_inf(Cost{std::numeric_limits<double>::infinity(), 0.0})
          .distance_zero(Cost{0.0, std::numeric_limits<double>::infinity()})
          .visitor(recorder));
  std::vector<Path>& row = paths_[s];
  row.assign(n_, Path{});
  for (std::size_t t = 0; t < n_; ++t) {
    Path& p = row[t];
    if (t == s) {
      p.reachable = true;
      p.endpoints = {static_cast<int>(s)};
      continue;
    }
    if (!has_pred[t]) continue;
    std::vector<DirectedLink> links;
    for (std::size_t v = t; v != s;) {
      const auto e = pred_edge[v];
      const EdgeProps& ep = graph_[e];
      links.push_back({ep.link, ep.forward});
      v = boost::source(e, graph_);
      if (links.size() > kMaxRouteLinks) {
        throw InputError(fmt::format(
            "{}: the route from '{}' to '{}' takes more than {} links; no node nests switches that deep (a chain "
            "of switches, or a node file generated wrong?): link its endpoints through fewer switches",
            node.file, node.endpoints[s].id, node.endpoints[t].id, kMaxRouteLinks));
      }
    }
    std::reverse(links.begin(), links.end());
    p = make_path(node, static_cast<int>(s), links);
  }

  // Explicit routes from this source, where the real node routes otherwise.
  for (std::size_t r = 0; r < node.routes.size(); ++r) {
    const RouteOverride& ro = node.routes[r];
    const bool forward = static_cast<std::size_t>(ro.from) == s;
    const bool backward = ro.symmetric && static_cast<std::size_t>(ro.to) == s;
    if (!forward && !backward) continue;
    std::vector<int> hops_at = {ro.from};
    hops_at.insert(hops_at.end(), ro.via.begin(), ro.via.end());
    hops_at.push_back(ro.to);
    std::vector<DirectedLink> links;
    for (std::size_t k = 0; k + 1 < hops_at.size(); ++k) {
      const auto dl = best_link(node, hops_at[k], hops_at[k + 1]);
      if (!dl) {
        throw InputError(fmt::format(
            "{}: routes[{}]: no link joins '{}' and '{}'; an explicit route must follow links "
            "of the node (add the link or fix 'via')",
            location(node.file, ro.line, ro.column), r, node.endpoints[static_cast<std::size_t>(hops_at[k])].id,
            node.endpoints[static_cast<std::size_t>(hops_at[k + 1])].id));
      }
      links.push_back(*dl);
    }
    if (forward) {
      Path p = make_path(node, ro.from, links);
      p.overridden = true;
      row[static_cast<std::size_t>(ro.to)] = p;
    }
    if (backward) {
      std::vector<DirectedLink> back(links.rbegin(), links.rend());
      for (DirectedLink& dl : back) dl.forward = !dl.forward;
      Path q = make_path(node, ro.to, back);
      q.overridden = true;
      row[static_cast<std::size_t>(ro.from)] = q;
    }
  }
  computed_[s] = 1;
}

model::PathClass path_class(const Node& node, int src, int dst) {
  const Endpoint& a = node.endpoints[static_cast<std::size_t>(src)];
  const Endpoint& b = node.endpoints[static_cast<std::size_t>(dst)];
  const bool a_cpu = a.kind == EndpointKind::cpu, b_cpu = b.kind == EndpointKind::cpu;
  const bool a_gpu = a.kind == EndpointKind::gpu, b_gpu = b.kind == EndpointKind::gpu;
  if (a_cpu && b_gpu) return model::PathClass::h2d;
  if (a_gpu && b_cpu) return model::PathClass::d2h;
  if (a_gpu && b_gpu) return src == dst ? model::PathClass::d2d : model::PathClass::p2p;
  if (a_cpu && b_cpu) return model::PathClass::h2h;
  throw InputError(fmt::format(
      "transfers between '{}' ({}) and '{}' ({}) are not modelled; transfers go between cpu and "
      "gpu endpoints",
      a.id, to_string(a.kind), b.id, to_string(b.kind)));
}

model::PathSpec make_path_spec(const Node& node, const Routes& routes, int src, int dst) {
  model::PathSpec spec;
  spec.cls = path_class(node, src, dst);
  const Path& path = routes.path(src, dst);
  if (!path.reachable) {
    throw InputError(fmt::format("node '{}' ({}) has no route from '{}' to '{}'", node.name, node.file,
                                 node.endpoints[static_cast<std::size_t>(src)].id,
                                 node.endpoints[static_cast<std::size_t>(dst)].id));
  }
  for (const DirectedLink& dl : path.links) spec.hops.push_back(node.links[static_cast<std::size_t>(dl.link)].spec);
  spec.latency_ns = path.latency_ns;
  const Endpoint& a = node.endpoints[static_cast<std::size_t>(src)];
  const Endpoint& b = node.endpoints[static_cast<std::size_t>(dst)];
  spec.src_memory_gbps = a.memory.bandwidth_gbps;
  spec.dst_memory_gbps = b.memory.bandwidth_gbps;
  spec.src_memory_stream_gbps = a.memory.stream_gbps;
  const Endpoint* host = a.kind == EndpointKind::cpu ? &a : b.kind == EndpointKind::cpu ? &b : nullptr;
  if (host) {
    spec.host_memory_gbps = host->memory.bandwidth_gbps;
    spec.host = host->memory.host_rates();
  }
  return spec;
}

}  // namespace linkcast::topology
