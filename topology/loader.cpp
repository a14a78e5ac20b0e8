#include "topology/loader.hpp"

#include <fmt/format.h>

#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/strings.hpp"
#include "core/yaml.hpp"
#include "topology/routing.hpp"
#include "topology/schema.hpp"

namespace linkcast::topology {

namespace {

using schema::Key;
using schema::Section;

/// Reads a node document against the schema (topology/schema.hpp): the shared YAML checks plus
/// the values of the key table. Every problem is an InputError with the offending node's position.
class SchemaReader : public yaml::Reader {
 public:
  using yaml::Reader::Reader;

  /// The value of the number key `key` written at `value`; messages call it WHERE.KEY (KEY alone
  /// when `where` is empty).
  double number(const Key& key, const YAML::Node& value, std::string_view where) const {
    auto what = [&] { return where.empty() ? std::string(key.name) : fmt::format("{}.{}", where, key.name); };
    if (!value.IsScalar()) fail(value, fmt::format("{} must be a number", what()));
    const std::string& text = value.Scalar();
    const auto checked = schema::check(key, text);
    if (const auto* problem = std::get_if<schema::Problem>(&checked))
      fail(value, schema::loader_message(key, *problem, what(), text));
    return std::get<double>(checked);
  }

  /// A list key's value (`links`, `routes`, `sources`) must be a sequence; `message` says what of.
  void expect_list(const YAML::Node& value, const std::string& message) const {
    if (!value.IsSequence()) fail(value, message);
  }
};

bool id_has_prefix_number(std::string_view id, std::string_view prefix) {
  if (!id.starts_with(prefix) || id.size() == prefix.size()) return false;
  return std::all_of(id.begin() + static_cast<long>(prefix.size()), id.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

/// The largest index a cpu<N> or gpu<N> id may carry (a trace names GPUs gpu0 to gpu4095).
constexpr std::size_t kMaxEndpointIndex = 4095;

/// Whether `id` is `prefix` and an index as traces write it: no leading zero (gpu00 is gpu0 to a
/// trace, which put two GPUs' traffic on one), at most kMaxEndpointIndex.
bool id_is_prefix_index(std::string_view id, std::string_view prefix) {
  if (!id_has_prefix_number(id, prefix)) return false;
  const std::string_view digits = id.substr(prefix.size());
  if (digits.size() > 1 && digits.front() == '0') return false;
  return digits.size() <= 4 && std::stoul(std::string(digits)) <= kMaxEndpointIndex;
}

/// "cpu", "cpu and gpu": the kinds a key applies to.
std::string kinds_of(schema::Applies applies) {
  static const std::vector<std::string> names = endpoint_kind_names();
  std::vector<std::string> kinds;
  for (std::size_t k = 0; k < names.size(); ++k)
    if ((applies & schema::bit(static_cast<EndpointKind>(k))) != 0) kinds.push_back(names[k]);
  return join(kinds, " and ");
}

/// Reads the number keys among `keys` from `map` into `set(key, value)`; a required one that is
/// absent is an error naming `where`.
template <typename Set>
void read_numbers(const SchemaReader& r, const yaml::Map& map, const std::vector<const Key*>& keys,
                  const std::string& where, Set set) {
  for (const Key* key : keys) {
    if (!key->is_number()) continue;
    const YAML::Node* value = map.find(key->name);
    if (value == nullptr) {
      if (key->required) (void)r.require(map, key->name, where);
      continue;
    }
    set(*key, r.number(*key, *value, where));
  }
}

void read_endpoint(const SchemaReader& r, const YAML::Node& e, std::size_t index, Node& node,
                   std::vector<std::pair<int, YAML::Node>>& pending_hosts) {
  const std::string path = fmt::format("endpoints[{}]", index);
  const yaml::Map m = r.expect_map(e, path, schema::names(Section::endpoint));
  Endpoint ep;
  ep.line = yaml::line(e);
  ep.column = yaml::column(e);
  ep.id = r.string(r.require(m, "id", path), path + ".id");
  const YAML::Node& kind_node = r.require(m, "kind", path);
  const std::string kind = r.string(kind_node, path + ".kind");
  const std::string where = fmt::format("endpoint '{}'", ep.id);
  static const std::vector<std::string> kinds = endpoint_kind_names();
  const auto known = std::find(kinds.begin(), kinds.end(), kind);
  if (known == kinds.end()) {
    r.fail(kind_node, fmt::format("{}: unknown kind '{}'{}; valid kinds: {}", where, kind, did_you_mean(kind, kinds),
                                  join(kinds, ", ")));
  }
  ep.kind = static_cast<EndpointKind>(known - kinds.begin());
  const YAML::Node& id_node = *m.find("id");
  if (ep.kind == EndpointKind::cpu && !id_is_prefix_index(ep.id, "cpu"))
    r.fail(id_node, fmt::format("{}: a cpu's id must be cpu<N>, N from 0 to {} without leading zeros (e.g. cpu0)",
                                where, kMaxEndpointIndex));
  if (ep.kind == EndpointKind::gpu && !id_is_prefix_index(ep.id, "gpu"))
    r.fail(id_node, fmt::format("{}: a gpu's id must be gpu<N>, N from 0 to {} without leading zeros (e.g. gpu0)",
                                where, kMaxEndpointIndex));
  if (ep.kind != EndpointKind::cpu && id_has_prefix_number(ep.id, "cpu"))
    r.fail(id_node, fmt::format("{}: ids cpu<N> are reserved for kind cpu", where));
  if (ep.kind != EndpointKind::gpu && id_has_prefix_number(ep.id, "gpu"))
    r.fail(id_node, fmt::format("{}: ids gpu<N> are reserved for kind gpu", where));
  if (const int first = node.find(ep.id); first >= 0) {
    r.fail(id_node, fmt::format("duplicate endpoint id '{}' (first defined on line {}); give each endpoint a unique id",
                                ep.id, node.endpoints[static_cast<std::size_t>(first)].line));
  }
  if (const YAML::Node* model = m.find("model")) ep.model = r.string(*model, where + ".model");

  // The keys that hold a mapping (memory) or a value, as the schema has them for this kind.
  const Key& memory = *schema::find(Section::endpoint, "memory");
  if (memory.applies_to(ep.kind)) {
    const yaml::Map mem =
        r.expect_map(r.require(m, memory.name, where), where + ".memory", schema::names(Section::memory, ep.kind));
    read_numbers(r, mem, schema::keys_of(Section::memory, ep.kind), where + ".memory",
                 [&](const Key& key, double v) { key.field.endpoint_set(ep, v); });
  } else if (const YAML::Node* value = m.find(memory.name)) {
    r.fail(*value, fmt::format("{}: only {} endpoints have {}", where, kinds_of(memory.applies), memory.name));
  }
  for (const Key* key : schema::keys_of(Section::endpoint)) {
    const YAML::Node* value = m.find(key->name);
    if (value != nullptr && key->type != schema::Type::mapping && !key->applies_to(ep.kind)) {
      const bool one = (key->applies & (key->applies - 1)) == 0;
      r.fail(*value, fmt::format("{}: '{}' applies to kind{} {} only", where, key->name, one ? "" : "s",
                                 kinds_of(key->applies)));
    }
  }
  read_numbers(r, m, schema::keys_of(Section::endpoint, ep.kind), where, [&](const Key& key, double v) {
    if (key.field.endpoint_set != nullptr) key.field.endpoint_set(ep, v);  // informational keys are only checked
  });
  if (const YAML::Node* host = m.find("host")) pending_hosts.emplace_back(static_cast<int>(node.endpoints.size()), *host);
  node.endpoints.push_back(std::move(ep));
}

int endpoint_ref(const SchemaReader& r, const Node& node, const YAML::Node& value, const std::string& what) {
  const std::string id = r.string(value, what);
  const int index = node.find(id);
  if (index < 0) {
    r.fail(value, fmt::format("{} names unknown endpoint '{}'{}; define it under endpoints first", what, id,
                              did_you_mean(id, node.endpoint_ids())));
  }
  return index;
}

void read_link(const SchemaReader& r, const YAML::Node& l, std::size_t index, Node& node) {
  const std::string path = fmt::format("links[{}]", index);
  if (!l.IsMap()) r.fail(l, path + " must be a mapping");
  const YAML::Node type_node = r.require(l, "type", path);
  const std::string type_name = r.string(type_node, path + ".type");
  const auto type = model::parse_link_type(type_name);
  if (!type) {
    r.fail(type_node, fmt::format("{}: unknown link type '{}'{}; valid types: {}", path, type_name,
                                  did_you_mean(type_name, model::link_type_names()),
                                  join(model::link_type_names(), ", ")));
  }
  const yaml::Map m = r.expect_map(l, fmt::format("{} ({} link)", path, type_name), schema::names(Section::link, *type));

  Link link;
  link.line = yaml::line(l);
  const YAML::Node& between = r.require(m, "between", path);
  if (!between.IsSequence() || between.size() != 2)
    r.fail(between, fmt::format("{}.between must list two endpoint ids, e.g. [cpu0, gpu0]", path));
  link.a = endpoint_ref(r, node, between[0], path + ".between");
  link.b = endpoint_ref(r, node, between[1], path + ".between");
  const std::string& a = node.endpoints[static_cast<std::size_t>(link.a)].id;
  const std::string& b = node.endpoints[static_cast<std::size_t>(link.b)].id;
  if (link.a == link.b)
    r.fail(between, fmt::format("{}.between joins '{}' to itself; a link joins two endpoints", path, a));
  const std::string where = fmt::format("{} ({}-{})", path, a, b);
  model::LinkSpec& s = link.spec;
  s.type = *type;
  s.latency_ns = model::default_latency_ns(s.type);
  read_numbers(r, m, schema::keys_of(Section::link, *type), where,
               [&](const Key& key, double v) { key.field.link_set(s, v); });
  if (const YAML::Node* id = m.find("id")) {
    link.id = r.string(*id, where + ".id");
  } else {
    link.id = a + "-" + b;
    int k = 2;
    const std::string base = link.id;
    auto taken = [&](const std::string& candidate) {
      return std::any_of(node.links.begin(), node.links.end(), [&](const Link& o) { return o.id == candidate; });
    };
    while (taken(link.id)) link.id = fmt::format("{}#{}", base, k++);
  }
  for (const Link& other : node.links) {
    if (other.id == link.id)
      r.fail(l, fmt::format("duplicate link id '{}' (first defined on line {})", link.id, other.line));
    // A route takes one link between two endpoints (the better, where they are of two types: a
    // Grace GPU's NVLink-C2C beside its PCIe link), so a second of the same type would be listed
    // and never carry anything (a robustness hunt: two NVLink entries ran as one).
    if (((other.a == link.a && other.b == link.b) || (other.a == link.b && other.b == link.a)) &&
        other.spec.type == s.type)
      r.fail(between, fmt::format("{}: a second {} link between '{}' and '{}' (link '{}', line {}); a route takes one "
                                  "link between two endpoints: give one link, with `count:` for several NVLinks or "
                                  "its lanes or bandwidth together",
                                  path, type_name, a, b, other.id, other.line));
  }
  node.links.push_back(std::move(link));
}

void read_calibration(const SchemaReader& r, const YAML::Node& cal, Node& node) {
  const yaml::Map m = r.expect_map(cal, "calibration", schema::names(Section::calibration));
  for (const Key* key : schema::keys_of(Section::calibration)) {
    if (const YAML::Node* value = m.find(key->name)) {
      node.calibration.one_byte_ns[static_cast<std::size_t>(key->field.calibration_slot)] =
          r.number(*key, *value, "calibration");
    }
  }
}

void read_routes(const SchemaReader& r, const YAML::Node& routes, Node& node) {
  r.expect_list(routes, "routes must be a list");
  for (std::size_t i = 0; i < routes.size(); ++i) {
    const YAML::Node route = routes[i];
    const std::string path = fmt::format("routes[{}]", i);
    const yaml::Map m = r.expect_map(route, path, schema::names(Section::route));
    RouteOverride ro;
    ro.line = yaml::line(route);
    ro.column = yaml::column(route);
    ro.from = endpoint_ref(r, node, r.require(m, "from", path), path + ".from");
    ro.to = endpoint_ref(r, node, r.require(m, "to", path), path + ".to");
    const YAML::Node& via = r.require(m, "via", path);
    if (!via.IsSequence()) r.fail(via, path + ".via must be a list of endpoint ids");
    for (std::size_t k = 0; k < via.size(); ++k)
      ro.via.push_back(endpoint_ref(r, node, via[k], fmt::format("{}.via[{}]", path, k)));
    if (const YAML::Node* symmetric = m.find("symmetric")) ro.symmetric = r.boolean(*symmetric, path + ".symmetric");
    node.routes.push_back(std::move(ro));
  }
}

/// `sources:` names the documents the values come from; the values' comments cite them as [key]
/// (tests/topology_test.cpp checks the citations of the shipped nodes, which YAML parsers drop).
void read_sources(const SchemaReader& r, const YAML::Node& sources) {
  r.expect_list(sources, "sources must be a list of {key: ..., title: ..., url: ...}");
  std::vector<std::pair<std::string, int>> seen;  // key, line
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const YAML::Node source = sources[i];
    const std::string path = fmt::format("sources[{}]", i);
    const yaml::Map m = r.expect_map(source, path, schema::names(Section::source));
    const YAML::Node& key_node = r.require(m, "key", path);
    const std::string key = r.string(key_node, path + ".key");
    const bool valid = !key.empty() && std::isalnum(static_cast<unsigned char>(key.front())) &&
                       std::all_of(key.begin(), key.end(), [](char c) {
                         return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
                                c == '-' || c == '.';
                       });
    if (!valid) {
      r.fail(key_node, fmt::format("{}.key '{}' must be lower-case letters, digits, '-' and '.', starting with a letter "
                                   "or digit (comments cite it as [{}]), e.g. h200-datasheet",
                                   path, key, key));
    }
    for (const auto& [other, other_line] : seen) {
      if (other == key)
        r.fail(key_node, fmt::format("{}: duplicate source key '{}' (first defined on line {}); give each source its "
                                     "own key",
                                     path, key, other_line));
    }
    seen.emplace_back(key, yaml::line(key_node));
    if (r.string(r.require(m, "title", path), path + ".title").empty())
      r.fail(*m.find("title"), fmt::format("{}.title is empty; name the document", path));
    if (const YAML::Node* url = m.find("url")) {
      const std::string u = r.string(*url, path + ".url");
      if (!u.starts_with("https://") && !u.starts_with("http://"))
        r.fail(*url, fmt::format("{}.url must start with https:// or http://, got '{}'", path, u));
    }
    if (const YAML::Node* file = m.find("file")) (void)r.string(*file, path + ".file");
  }
}

/// For every endpoint, the CPU reached with the lowest total latency (-1 if none), ties going to
/// the lowest-numbered CPU: one Dijkstra from all CPUs at once, expanding only the vertices that
/// forward traffic (CPUs and switches), as routes do. Links are symmetric, so the distances from
/// the CPUs are the distances to them.
std::vector<int> nearest_cpu(const Node& node) {
  // The distance of a vertex: the latency to its nearest CPU and which CPU that is.
  struct Reach {
    double latency_ns;
    int cpu;
  };
  struct Less {
    bool operator()(const Reach& a, const Reach& b) const {
      return a.latency_ns < b.latency_ns || (a.latency_ns == b.latency_ns && a.cpu < b.cpu);
    }
  };
  struct Combine {
    Reach operator()(const Reach& d, const EdgeProps& e) const { return {d.latency_ns + e.latency_ns, d.cpu}; }
  };
  struct FromForwarding {
    const Node* node = nullptr;
    const Graph* graph = nullptr;
    bool operator()(const Graph::edge_descriptor& e) const {
      return node->endpoints[boost::source(e, *graph)].forwards();
    }
  };
  const Graph graph = build_graph(node);
  const boost::filtered_graph<Graph, FromForwarding> forwarding(graph, FromForwarding{&node, &graph});
  const std::size_t n = node.endpoints.size();
  constexpr double kUnreached = std::numeric_limits<double>::infinity();
  std::vector<Reach> reach(n, Reach{kUnreached, -1});
  const std::vector<int> cpus = node.cpus();
  for (int c : cpus) reach[static_cast<std::size_t>(c)] = {0.0, c};
  std::vector<std::size_t> predecessor(n);
  const auto index = boost::get(boost::vertex_index, graph);
  boost::dijkstra_shortest_paths_no_init(
      forwarding, cpus.begin(), cpus.end(), boost::make_iterator_property_map(predecessor.begin(), index),
      boost::make_iterator_property_map(reach.begin(), index), boost::get(boost::edge_bundle, graph), index, Less{},
      Combine{}, Reach{0.0, -1}, boost::default_dijkstra_visitor{});
  std::vector<int> nearest(n);
  for (std::size_t v = 0; v < n; ++v) nearest[v] = reach[v].cpu;
  return nearest;
}

/// Explicit routes follow links of the node (Routes checks it again when it computes them).
void check_routes_follow_links(const Node& node) {
  for (const RouteOverride& ro : node.routes) {
    std::vector<int> at = {ro.from};
    at.insert(at.end(), ro.via.begin(), ro.via.end());
    at.push_back(ro.to);
    const std::string where = location(node.file, ro.line, ro.column);
    const std::size_t index = static_cast<std::size_t>(&ro - node.routes.data());
    const auto id = [&](int e) { return node.endpoints[static_cast<std::size_t>(e)].id; };
    // A route passes each endpoint once: one that comes back (a loop, or from = to) has no rate
    // to give (the simulator cannot put one link on a path twice).
    for (std::size_t k = 0; k < at.size(); ++k)
      for (std::size_t j = k + 1; j < at.size(); ++j)
        if (at[k] == at[j])
          throw InputError(fmt::format("{}: routes[{}]: '{}' comes twice on the route from '{}' to '{}'; a route "
                                       "passes each endpoint once (remove the loop from 'via')",
                                       where, index, id(at[k]), id(ro.from), id(ro.to)));
    for (std::size_t k = 0; k < index; ++k) {
      const RouteOverride& other = node.routes[k];
      // The same direction given twice; or the other route's reverse, which a symmetric route also sets.
      if (other.from == ro.from && other.to == ro.to)
        throw InputError(fmt::format("{}: routes[{}]: a second route from '{}' to '{}' (routes[{}] gives one, line "
                                     "{}); give each pair one route",
                                     where, index, id(ro.from), id(ro.to), k, other.line));
      if (other.from == ro.to && other.to == ro.from && (other.symmetric || ro.symmetric)) {
        const bool this_one = ro.symmetric;  // this route sets the other's direction too
        const RouteOverride& sets = this_one ? ro : other;
        throw InputError(fmt::format(
            "{}: routes[{}]: routes[{}] (line {}) and routes[{}] (line {}) both route '{}' to '{}': routes[{}] is "
            "symmetric (the default) and so routes the way back too; give it `symmetric: false` for routes that "
            "differ each way",
            where, index, k, other.line, index, ro.line, id(sets.to), id(sets.from), this_one ? index : k));
      }
    }
    for (std::size_t k = 0; k + 1 < at.size(); ++k) {
      const bool joined = std::any_of(node.links.begin(), node.links.end(), [&](const Link& l) {
        return (l.a == at[k] && l.b == at[k + 1]) || (l.b == at[k] && l.a == at[k + 1]);
      });
      if (!joined) {
        throw InputError(fmt::format(
            "{}: routes[{}]: no link joins '{}' and '{}'; an explicit route must follow links of the node (add the "
            "link or fix 'via')",
            where, index, id(at[k]), id(at[k + 1])));
      }
    }
  }
}

/// Whether `from` reaches `to` over the node's links through endpoints that forward (CPUs and
/// switches); `adjacent` lists each endpoint's neighbours.
bool reaches(const Node& node, const std::vector<std::vector<int>>& adjacent, int from, int to) {
  std::vector<char> seen(node.endpoints.size(), 0);
  std::vector<int> queue = {from};
  seen[static_cast<std::size_t>(from)] = 1;
  while (!queue.empty()) {
    const int at = queue.back();
    queue.pop_back();
    for (const int next : adjacent[static_cast<std::size_t>(at)]) {
      if (next == to) return true;
      if (seen[static_cast<std::size_t>(next)] || !node.endpoints[static_cast<std::size_t>(next)].forwards()) continue;
      seen[static_cast<std::size_t>(next)] = 1;
      queue.push_back(next);
    }
  }
  return false;
}

/// Every GPU reaches a host; a GPU's default host is the nearest one.
void assign_hosts(Node& node) {
  const std::vector<int> nearest = nearest_cpu(node);
  // A host given by `host:` must be reachable: every copy between the GPU and "host" goes there
  // (a hunt's GPU hosted on a CPU it had no route to loaded, and every host copy then failed).
  std::vector<std::vector<int>> adjacent(node.endpoints.size());
  for (const Link& l : node.links) {
    adjacent[static_cast<std::size_t>(l.a)].push_back(l.b);
    adjacent[static_cast<std::size_t>(l.b)].push_back(l.a);
  }
  for (std::size_t i = 0; i < node.endpoints.size(); ++i) {
    const Endpoint& e = node.endpoints[i];
    if (e.kind != EndpointKind::gpu || e.host < 0 || reaches(node, adjacent, static_cast<int>(i), e.host)) continue;
    throw InputError(fmt::format("{}: gpu '{}' has host '{}', which no link path reaches from it (through CPUs and "
                                 "switches); link them, or give the host it is attached to",
                                 location(node.file, e.line, e.column), e.id,
                                 node.endpoints[static_cast<std::size_t>(e.host)].id));
  }
  for (std::size_t i = 0; i < node.endpoints.size(); ++i) {
    Endpoint& e = node.endpoints[i];
    if (e.kind != EndpointKind::gpu) continue;
    if (nearest[i] < 0) {
      throw InputError(fmt::format(
          "{}: gpu '{}' has no route to any cpu; add a link (e.g. PCIe or NVLink) from it, or "
          "from a switch it connects to, to a cpu",
          location(node.file, e.line, e.column), e.id));
    }
    if (e.host < 0) e.host = nearest[i];
  }
}

Node read_node(const SchemaReader& r, const YAML::Node& root, const std::string& file) {
  if (root.IsNull()) throw InputError(fmt::format("{}: the file is empty; see configs/SCHEMA.md", file));
  if (root.IsMap() && yaml::find(root, "study_version") && !yaml::find(root, "schema_version"))
    throw InputError(fmt::format("{}: a study file (study_version), not a node; a study goes to `linkcast sweep`, "
                                 "and a node (schema_version) where a node is asked for",
                                 file));
  const yaml::Map top = r.expect_map(root, "top level", schema::names(Section::top));

  const YAML::Node& version = r.require(top, "schema_version", "top level");
  const int v = static_cast<int>(r.number(*schema::find(Section::top, "schema_version"), version, ""));
  if (v != kSchemaVersion) {
    r.fail(version, fmt::format("schema_version {} is not supported; this linkcast reads version {}", v,
                                kSchemaVersion));
  }
  Node node;
  node.file = file;
  node.name = r.string(r.require(top, "name", "top level"), "name");
  if (const YAML::Node* description = top.find("description")) node.description = r.string(*description, "description");
  if (const YAML::Node* sources = top.find("sources")) read_sources(r, *sources);

  const YAML::Node& endpoints = r.require(top, "endpoints", "top level");
  if (!endpoints.IsSequence() || endpoints.size() == 0) r.fail(endpoints, "endpoints must be a non-empty list");
  node.endpoints.reserve(endpoints.size());
  std::vector<std::pair<int, YAML::Node>> pending_hosts;
  for (std::size_t i = 0; i < endpoints.size(); ++i) read_endpoint(r, endpoints[i], i, node, pending_hosts);
  for (const auto& [index, value] : pending_hosts) {
    Endpoint& gpu = node.endpoints[static_cast<std::size_t>(index)];
    gpu.host = endpoint_ref(r, node, value, fmt::format("endpoint '{}'.host", gpu.id));
    if (node.endpoints[static_cast<std::size_t>(gpu.host)].kind != EndpointKind::cpu)
      r.fail(value, fmt::format("endpoint '{}'.host must name a cpu", gpu.id));
  }

  if (const YAML::Node* links = top.find("links")) {
    r.expect_list(*links, "links must be a list");
    node.links.reserve(links->size());
    for (std::size_t i = 0; i < links->size(); ++i) read_link(r, (*links)[i], i, node);
  }
  if (const YAML::Node* calibration = top.find("calibration")) read_calibration(r, *calibration, node);
  if (const YAML::Node* routes = top.find("routes")) read_routes(r, *routes, node);

  for (const Endpoint& e : node.endpoints)
    if (const auto problem = schema::endpoint_values_problem(e))
      throw InputError(fmt::format("{}: {}", location(file, e.line, e.column), *problem));
  check_routes_follow_links(node);
  assign_hosts(node);
  return node;
}

/// Every value written as TODO, with the schema's hint for its key where the key is known.
std::vector<Todo> todos_in(const YAML::Node& root) {
  std::vector<Todo> out;
  if (!root.IsMap()) return out;
  auto is_todo = [](const YAML::Node& n) { return n.IsScalar() && n.Scalar() == "TODO"; };
  auto scalar = [](const YAML::Node& n) { return n.IsScalar() ? n.Scalar() : std::string(); };
  auto add = [&](const YAML::Node& n, std::string what, const Key* key) {
    std::string hint;
    if (key != nullptr) hint = std::string(key->todo.empty() ? key->doc : key->todo);
    out.push_back({yaml::line(n), yaml::column(n), std::move(what), std::move(hint)});
  };
  static const std::vector<std::string> kinds = endpoint_kind_names();
  for (auto top = root.begin(); top != root.end(); ++top) {
    // yaml-cpp's iterators hand out proxies: copy the nodes (handles) before keeping them.
    const YAML::Node key_node = top->first;
    const YAML::Node value = top->second;
    const std::string name = scalar(key_node);
    if (is_todo(value)) add(value, name, schema::find(Section::top, name));
    if (name == "endpoints" && value.IsSequence()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        const YAML::Node e = value[i];
        if (!e.IsMap()) continue;
        const std::string id = yaml::find(e, "id") ? scalar(*yaml::find(e, "id")) : "";
        const std::string kind_name = yaml::find(e, "kind") ? scalar(*yaml::find(e, "kind")) : "";
        const auto known = std::find(kinds.begin(), kinds.end(), kind_name);
        const bool has_kind = known != kinds.end();
        const EndpointKind kind = has_kind ? static_cast<EndpointKind>(known - kinds.begin()) : EndpointKind::cpu;
        const std::string at = id.empty() ? fmt::format("endpoints[{}]", i) : fmt::format("endpoints[{}] ({})", i, id);
        for (auto it = e.begin(); it != e.end(); ++it) {
          const YAML::Node k = it->first, v = it->second;
          const std::string key = scalar(k);
          if (is_todo(v))
            add(v, fmt::format("{} {}", at, key),
                has_kind ? schema::find(Section::endpoint, key, kind) : schema::find(Section::endpoint, key));
          if (key != "memory" || !v.IsMap()) continue;
          for (auto m = v.begin(); m != v.end(); ++m) {
            const YAML::Node mkey = m->first, mvalue = m->second;
            const std::string mk = scalar(mkey);
            if (is_todo(mvalue))
              add(mvalue, fmt::format("{} memory.{}", at, mk),
                  has_kind ? schema::find(Section::memory, mk, kind) : schema::find(Section::memory, mk));
          }
        }
      }
    } else if (name == "links" && value.IsSequence()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        const YAML::Node l = value[i];
        if (!l.IsMap()) continue;
        const std::optional<YAML::Node> between = yaml::find(l, "between");
        const std::string type_name = yaml::find(l, "type") ? scalar(*yaml::find(l, "type")) : "";
        const auto type = model::parse_link_type(type_name);
        std::string at = fmt::format("links[{}]", i);
        if (between && between->IsSequence() && between->size() == 2)
          at += fmt::format(" ({}-{}{})", scalar((*between)[0]), scalar((*between)[1]), type ? ", " + type_name : "");
        for (auto it = l.begin(); it != l.end(); ++it) {
          const YAML::Node k = it->first, v = it->second;
          const std::string key = scalar(k);
          if (is_todo(v))
            add(v, fmt::format("{} {}", at, key), type ? schema::find(Section::link, key, *type) : schema::find(Section::link, key));
        }
      }
    } else if (name == "calibration" && value.IsMap()) {
      for (auto it = value.begin(); it != value.end(); ++it) {
        const YAML::Node k = it->first, v = it->second;
        if (is_todo(v)) add(v, "calibration." + scalar(k), schema::find(Section::calibration, scalar(k)));
      }
    }
  }
  return out;
}

}  // namespace

std::vector<Todo> find_todos(const std::string& yaml_text, const std::string& file) {
  try {
    return todos_in(yaml::parse(yaml_text, file));
  } catch (const InputError&) {
    return {};
  }
}

Node parse_node(const std::string& yaml_text, const std::string& file) {
  const SchemaReader r(file);
  const YAML::Node root = yaml::parse(yaml_text, file);
  if (const std::vector<Todo> todos = todos_in(root); !todos.empty()) {
    std::string list;
    for (const Todo& t : todos)
      list += fmt::format("\n  {}: {}{}", location(file, t.line, t.column), t.what, t.hint.empty() ? "" : ": " + t.hint);
    throw InputError(fmt::format("{}: {} value{} still TODO; fill in every one (each line says what fills it, "
                                 "configs/SCHEMA.md has the keys), then load it again:{}",
                                 file, todos.size(), todos.size() == 1 ? " is" : "s are", list));
  }
  try {
    return read_node(r, root, file);
  } catch (const YAML::Exception& e) {
    // The readers check a node's type before they use it; should one slip, it is still bad input.
    throw InputError(fmt::format("{}: {}", e.mark.is_null() ? file : location(file, e.mark.line + 1, e.mark.column + 1),
                                 e.msg));
  }
}

void refuse_directory(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(fmt::format("{}: is a directory, not a node file; give one of its .yaml files (e.g. "
                                 "configs/summit.yaml)",
                                 path));
}

Node load_node(const std::string& path) {
  refuse_directory(path);
  refuse_pipe(path, "node file");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    const bool exists = std::filesystem::exists(path, ec);
    if (ec) throw InputError(fmt::format("{}: cannot be read: {}", path, ec.message()));
    throw InputError(fmt::format("{}: {}", path,
                                 exists ? "cannot be read (permissions?)"
                                        : "no such file; shipped nodes are in configs/ (e.g. "
                                          "configs/summit.yaml)"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_node(text.str(), path);
}

}  // namespace linkcast::topology
