#include "topology/loader.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "core/yaml.hpp"
#include "topology/routing.hpp"

#include <queue>

namespace linkcast::topology {

namespace {

/// Reads a node document against the schema: the shared YAML checks plus the value kinds a node
/// file has. Every problem is an InputError with the position of the offending node.
class SchemaReader : public yaml::Reader {
 public:
  using yaml::Reader::Reader;

  double number(const yaml::Node& value, const std::string& what) const {
    if (!value.is_scalar()) fail(value, fmt::format("{} must be a number", what));
    const std::string& text = value.scalar();
    double out = 0;
    try {
      std::size_t used = 0;
      out = std::stod(text, &used);
      if (used != text.size()) throw std::invalid_argument(text);
    } catch (const std::exception&) {
      fail(value, fmt::format("{} must be a number, got '{}'", what, text));
    }
    if (!std::isfinite(out)) fail(value, fmt::format("{} must be finite, got '{}'", what, text));
    return out;
  }

  double positive(const yaml::Node& value, const std::string& what) const {
    const double v = number(value, what);
    if (v <= 0) {
      fail(value, fmt::format("{} must be > 0, got {}; give the real value from the datasheet", what,
                              value.scalar()));
    }
    return v;
  }

  int integer(const yaml::Node& value, const std::string& what) const {
    const double v = number(value, what);
    if (v != std::floor(v) || std::fabs(v) > 1e9)
      fail(value, fmt::format("{} must be a whole number, got {}", what, value.scalar()));
    return static_cast<int>(v);
  }

  int one_of(const yaml::Node& value, const std::string& what, const std::vector<int>& allowed) const {
    const int v = integer(value, what);
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
      std::vector<std::string> names;
      for (int a : allowed) names.push_back(std::to_string(a));
      fail(value, fmt::format("{} must be one of {}, got {}", what, join(names, ", "), v));
    }
    return v;
  }

  bool boolean(const yaml::Node& value, const std::string& what) const {
    if (!value.is_scalar()) fail(value, fmt::format("{} must be true or false", what));
    const std::string s = to_lower(value.scalar());
    if (s == "true" || s == "yes") return true;
    if (s == "false" || s == "no") return false;
    fail(value, fmt::format("{} must be true or false, got '{}'", what, value.scalar()));
  }
};

const std::vector<std::string> kTopKeys = {"schema_version", "name",  "description", "endpoints",
                                           "links",          "calibration", "routes"};
const std::vector<std::string> kEndpointKeys = {"id",   "kind",         "model",          "memory",
                                                "host", "copy_engines", "chips",          "trays",
                                                "bandwidth_gbps"};
const std::vector<std::string> kCpuMemoryKeys = {"capacity_gib", "bandwidth_gbps",
                                                 "copy_bandwidth_gbps"};
const std::vector<std::string> kGpuMemoryKeys = {"capacity_gib", "bandwidth_gbps"};
const std::vector<std::string> kPcieKeys = {"between", "type", "id", "latency_ns", "gen",
                                            "lanes",   "mps",  "mrrs", "rcb",      "addressing"};
const std::vector<std::string> kNvlinkKeys = {"between", "type",  "id",
                                              "latency_ns", "version", "count", "per_link_gbps"};
const std::vector<std::string> kGenericKeys = {"between", "type", "id", "latency_ns",
                                               "bandwidth_gbps"};
const std::vector<std::string> kRouteKeys = {"from", "to", "via", "symmetric"};

std::vector<std::string> calibration_keys() {
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < model::kCopyClassCount; ++i)
    keys.push_back(std::string(to_string(static_cast<model::CopyClass>(i))) + "_ns");
  return keys;
}

bool id_has_prefix_number(const std::string& id, std::string_view prefix) {
  if (!starts_with(id, prefix) || id.size() == prefix.size()) return false;
  return std::all_of(id.begin() + static_cast<long>(prefix.size()), id.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

void read_endpoint(const SchemaReader& r, const yaml::Node& e, std::size_t index, Node& node,
                   std::vector<std::pair<int, const yaml::Node*>>& pending_hosts) {
  const std::string path = fmt::format("endpoints[{}]", index);
  r.expect_map(e, path, kEndpointKeys);
  Endpoint ep;
  ep.line = e.line();
  ep.column = e.column();
  ep.id = r.string(r.require(e, "id", path), path + ".id");
  const yaml::Node& kind_node = r.require(e, "kind", path);
  const std::string kind = r.string(kind_node, path + ".kind");
  const std::string where = fmt::format("endpoint '{}'", ep.id);
  if (kind == "cpu") ep.kind = EndpointKind::cpu;
  else if (kind == "gpu") ep.kind = EndpointKind::gpu;
  else if (kind == "pcie_switch") ep.kind = EndpointKind::pcie_switch;
  else if (kind == "nvswitch") ep.kind = EndpointKind::nvswitch;
  else if (kind == "nic") ep.kind = EndpointKind::nic;
  else {
    r.fail(kind_node, fmt::format("{}: unknown kind '{}'{}; valid kinds: {}", where, kind,
                                  did_you_mean(kind, endpoint_kind_names()),
                                  join(endpoint_kind_names(), ", ")));
  }
  if (ep.kind == EndpointKind::cpu && !id_has_prefix_number(ep.id, "cpu"))
    r.fail(e["id"], fmt::format("{}: a cpu's id must be cpu<N> (e.g. cpu0)", where));
  if (ep.kind == EndpointKind::gpu && !id_has_prefix_number(ep.id, "gpu"))
    r.fail(e["id"], fmt::format("{}: a gpu's id must be gpu<N> (e.g. gpu0)", where));
  if (ep.kind != EndpointKind::cpu && id_has_prefix_number(ep.id, "cpu"))
    r.fail(e["id"], fmt::format("{}: ids cpu<N> are reserved for kind cpu", where));
  if (ep.kind != EndpointKind::gpu && id_has_prefix_number(ep.id, "gpu"))
    r.fail(e["id"], fmt::format("{}: ids gpu<N> are reserved for kind gpu", where));
  if (node.find(ep.id) >= 0) {
    r.fail(e["id"], fmt::format("duplicate endpoint id '{}' (first defined on line {}); give each "
                                "endpoint a unique id",
                                ep.id, node.endpoints[static_cast<std::size_t>(node.find(ep.id))].line));
  }
  if (e["model"]) ep.model = r.string(e["model"], where + ".model");

  const bool has_memory = ep.kind == EndpointKind::cpu || ep.kind == EndpointKind::gpu;
  if (has_memory) {
    const yaml::Node& mem = r.require(e, "memory", where);
    const auto& keys = ep.kind == EndpointKind::cpu ? kCpuMemoryKeys : kGpuMemoryKeys;
    r.expect_map(mem, where + ".memory", keys);
    ep.memory.capacity_gib =
        r.positive(r.require(mem, "capacity_gib", where + ".memory"), where + ".memory.capacity_gib");
    ep.memory.bandwidth_gbps = r.positive(r.require(mem, "bandwidth_gbps", where + ".memory"),
                                          where + ".memory.bandwidth_gbps");
    if (mem["copy_bandwidth_gbps"])
      ep.memory.copy_bandwidth_gbps =
          r.positive(mem["copy_bandwidth_gbps"], where + ".memory.copy_bandwidth_gbps");
  } else if (e["memory"]) {
    r.fail(e["memory"], fmt::format("{}: only cpu and gpu endpoints have memory", where));
  }
  auto only_for = [&](const char* key, EndpointKind k) {
    if (e[key] && ep.kind != k)
      r.fail(e[key], fmt::format("{}: '{}' applies to kind {} only", where, key, to_string(k)));
  };
  only_for("host", EndpointKind::gpu);
  only_for("copy_engines", EndpointKind::gpu);
  only_for("chips", EndpointKind::nvswitch);
  only_for("trays", EndpointKind::nvswitch);
  only_for("bandwidth_gbps", EndpointKind::nic);
  if (e["copy_engines"]) {
    ep.copy_engines = r.integer(e["copy_engines"], where + ".copy_engines");
    if (ep.copy_engines < 1) r.fail(e["copy_engines"], where + ".copy_engines must be >= 1");
  }
  if (e["chips"]) ep.chips = r.integer(e["chips"], where + ".chips");
  if (e["trays"]) (void)r.integer(e["trays"], where + ".trays");
  if (e["bandwidth_gbps"]) ep.nic_gbps = r.positive(e["bandwidth_gbps"], where + ".bandwidth_gbps");
  if (e["host"]) pending_hosts.emplace_back(static_cast<int>(node.endpoints.size()), &e["host"]);
  node.endpoints.push_back(std::move(ep));
}

int endpoint_ref(const SchemaReader& r, const Node& node, const yaml::Node& value,
                 const std::string& what) {
  const std::string id = r.string(value, what);
  const int index = node.find(id);
  if (index < 0) {
    r.fail(value, fmt::format("{} names unknown endpoint '{}'{}; define it under endpoints first",
                              what, id, did_you_mean(id, node.endpoint_ids())));
  }
  return index;
}

void read_link(const SchemaReader& r, const yaml::Node& l, std::size_t index, Node& node) {
  const std::string path = fmt::format("links[{}]", index);
  if (!l.is_map()) r.fail(l, path + " must be a mapping");
  const yaml::Node& type_node = r.require(l, "type", path);
  const std::string type_name = r.string(type_node, path + ".type");
  const auto type = model::parse_link_type(type_name);
  if (!type) {
    r.fail(type_node, fmt::format("{}: unknown link type '{}'{}; valid types: {}", path, type_name,
                                  did_you_mean(type_name, model::link_type_names()),
                                  join(model::link_type_names(), ", ")));
  }
  const auto& keys = *type == model::LinkType::pcie     ? kPcieKeys
                     : *type == model::LinkType::nvlink ? kNvlinkKeys
                                                        : kGenericKeys;
  r.expect_map(l, fmt::format("{} ({} link)", path, type_name), keys);

  Link link;
  link.line = l.line();
  const yaml::Node& between = r.require(l, "between", path);
  if (!between.is_sequence() || between.size() != 2)
    r.fail(between, fmt::format("{}.between must list two endpoint ids, e.g. [cpu0, gpu0]", path));
  link.a = endpoint_ref(r, node, between[0], path + ".between");
  link.b = endpoint_ref(r, node, between[1], path + ".between");
  if (link.a == link.b)
    r.fail(between, fmt::format("{}.between joins '{}' to itself; a link joins two endpoints", path,
                                node.endpoints[static_cast<std::size_t>(link.a)].id));
  const std::string where = fmt::format("{} ({}-{})", path, node.endpoints[static_cast<std::size_t>(link.a)].id,
                                        node.endpoints[static_cast<std::size_t>(link.b)].id);
  model::LinkSpec& s = link.spec;
  s.type = *type;
  switch (*type) {
    case model::LinkType::pcie: {
      s.pcie.gen = r.one_of(r.require(l, "gen", where), where + ".gen", {1, 2, 3, 4, 5, 6});
      s.pcie.lanes = r.one_of(r.require(l, "lanes", where), where + ".lanes", {1, 2, 4, 8, 16, 32});
      const std::vector<int> sizes = {128, 256, 512, 1024, 2048, 4096};
      if (l["mps"]) s.pcie.mps_bytes = r.one_of(l["mps"], where + ".mps", sizes);
      if (l["mrrs"]) s.pcie.mrrs_bytes = r.one_of(l["mrrs"], where + ".mrrs", sizes);
      if (l["rcb"]) s.pcie.rcb_bytes = r.one_of(l["rcb"], where + ".rcb", {64, 128});
      if (l["addressing"]) s.pcie.addressing_bits = r.one_of(l["addressing"], where + ".addressing", {32, 64});
      break;
    }
    case model::LinkType::nvlink: {
      s.nvlink.version = r.one_of(r.require(l, "version", where), where + ".version", {1, 2, 3, 4, 5});
      s.nvlink.count = r.integer(r.require(l, "count", where), where + ".count");
      if (s.nvlink.count < 1)
        r.fail(l["count"], fmt::format("{}.count must be >= 1 (the number of NVLinks), got {}", where,
                                       s.nvlink.count));
      if (l["per_link_gbps"]) s.nvlink.per_link_gbps = r.positive(l["per_link_gbps"], where + ".per_link_gbps");
      break;
    }
    default:
      s.generic_gbps = r.positive(r.require(l, "bandwidth_gbps", where), where + ".bandwidth_gbps");
      break;
  }
  s.latency_ns = model::default_latency_ns(s.type);
  if (l["latency_ns"]) {
    s.latency_ns = r.number(l["latency_ns"], where + ".latency_ns");
    if (s.latency_ns < 0) r.fail(l["latency_ns"], where + ".latency_ns must be >= 0");
  }
  if (l["id"]) {
    link.id = r.string(l["id"], where + ".id");
  } else {
    link.id = node.endpoints[static_cast<std::size_t>(link.a)].id + "-" +
              node.endpoints[static_cast<std::size_t>(link.b)].id;
    int k = 2;
    const std::string base = link.id;
    auto taken = [&](const std::string& id) {
      return std::any_of(node.links.begin(), node.links.end(), [&](const Link& o) { return o.id == id; });
    };
    while (taken(link.id)) link.id = fmt::format("{}#{}", base, k++);
  }
  for (const Link& other : node.links) {
    if (other.id == link.id)
      r.fail(l, fmt::format("duplicate link id '{}' (first defined on line {})", link.id, other.line));
  }
  node.links.push_back(std::move(link));
}

/// For every endpoint, the CPU reached with the lowest total latency (-1 if none), found by one
/// Dijkstra from all CPUs at once over the reversed links, expanding only vertices that forward
/// traffic (CPUs and switches), as the routes do.
std::vector<int> nearest_cpu(const Node& node) {
  const std::size_t n = node.endpoints.size();
  std::vector<std::vector<std::pair<int, double>>> adjacent(n);
  for (const Link& l : node.links) {
    adjacent[static_cast<std::size_t>(l.a)].emplace_back(l.b, l.spec.latency_ns);
    adjacent[static_cast<std::size_t>(l.b)].emplace_back(l.a, l.spec.latency_ns);
  }
  std::vector<double> dist(n, std::numeric_limits<double>::infinity());
  std::vector<int> origin(n, -1);
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  for (int c : node.cpus()) {
    dist[static_cast<std::size_t>(c)] = 0;
    origin[static_cast<std::size_t>(c)] = c;
    queue.emplace(0.0, c);
  }
  while (!queue.empty()) {
    const auto [d, u] = queue.top();
    queue.pop();
    const auto uu = static_cast<std::size_t>(u);
    if (d > dist[uu] || !node.endpoints[uu].forwards()) continue;
    for (const auto& [v, latency] : adjacent[uu]) {
      const auto vv = static_cast<std::size_t>(v);
      if (d + latency < dist[vv]) {
        dist[vv] = d + latency;
        origin[vv] = origin[uu];
        queue.emplace(dist[vv], v);
      }
    }
  }
  return origin;
}

}  // namespace

Node parse_node(const std::string& yaml_text, const std::string& file) {
  SchemaReader r(file);
  const yaml::Node root = yaml::parse(yaml_text, file);
  if (root.is_null()) throw InputError(fmt::format("{}: the file is empty; see configs/SCHEMA.md", file));
  r.expect_map(root, "top level", kTopKeys);

  const yaml::Node& version = r.require(root, "schema_version", "top level");
  const int v = r.integer(version, "schema_version");
  if (v != kSchemaVersion) {
    r.fail(version, fmt::format("schema_version {} is not supported; this linkcast reads version {}",
                                v, kSchemaVersion));
  }
  Node node;
  node.file = file;
  node.name = r.string(r.require(root, "name", "top level"), "name");
  if (root["description"]) node.description = r.string(root["description"], "description");

  const yaml::Node& endpoints = r.require(root, "endpoints", "top level");
  if (!endpoints.is_sequence() || endpoints.size() == 0)
    r.fail(endpoints, "endpoints must be a non-empty list");
  std::vector<std::pair<int, const yaml::Node*>> pending_hosts;
  for (std::size_t i = 0; i < endpoints.size(); ++i) read_endpoint(r, endpoints[i], i, node, pending_hosts);
  for (const auto& [index, host] : pending_hosts) {
    const yaml::Node& value = *host;
    Endpoint& gpu = node.endpoints[static_cast<std::size_t>(index)];
    gpu.host = endpoint_ref(r, node, value, fmt::format("endpoint '{}'.host", gpu.id));
    if (node.endpoints[static_cast<std::size_t>(gpu.host)].kind != EndpointKind::cpu)
      r.fail(value, fmt::format("endpoint '{}'.host must name a cpu", gpu.id));
  }

  if (root["links"]) {
    const yaml::Node& links = root["links"];
    if (!links.is_sequence()) r.fail(links, "links must be a list");
    for (std::size_t i = 0; i < links.size(); ++i) read_link(r, links[i], i, node);
  }

  if (root["calibration"]) {
    const yaml::Node& cal = root["calibration"];
    const std::vector<std::string> keys = calibration_keys();
    r.expect_map(cal, "calibration", keys);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (cal[keys[i]]) node.calibration.one_byte_ns[i] = r.positive(cal[keys[i]], "calibration." + keys[i]);
    }
  }

  if (root["routes"]) {
    const yaml::Node& routes = root["routes"];
    if (!routes.is_sequence()) r.fail(routes, "routes must be a list");
    for (std::size_t i = 0; i < routes.size(); ++i) {
      const std::string path = fmt::format("routes[{}]", i);
      r.expect_map(routes[i], path, kRouteKeys);
      RouteOverride ro;
      ro.line = routes[i].line();
      ro.column = routes[i].column();
      ro.from = endpoint_ref(r, node, r.require(routes[i], "from", path), path + ".from");
      ro.to = endpoint_ref(r, node, r.require(routes[i], "to", path), path + ".to");
      const yaml::Node& via = r.require(routes[i], "via", path);
      if (!via.is_sequence()) r.fail(via, path + ".via must be a list of endpoint ids");
      for (std::size_t k = 0; k < via.size(); ++k)
        ro.via.push_back(endpoint_ref(r, node, via[k], fmt::format("{}.via[{}]", path, k)));
      if (routes[i]["symmetric"]) ro.symmetric = r.boolean(routes[i]["symmetric"], path + ".symmetric");
      node.routes.push_back(std::move(ro));
    }
  }

  // Semantic checks that need the whole graph: explicit routes follow links (checked when
  // routes are computed), and every GPU reaches a host; a GPU's default host is the nearest one.
  for (const RouteOverride& ro : node.routes) {
    std::vector<int> at = {ro.from};
    at.insert(at.end(), ro.via.begin(), ro.via.end());
    at.push_back(ro.to);
    for (std::size_t k = 0; k + 1 < at.size(); ++k) {
      const bool joined = std::any_of(node.links.begin(), node.links.end(), [&](const Link& l) {
        return (l.a == at[k] && l.b == at[k + 1]) || (l.b == at[k] && l.a == at[k + 1]);
      });
      if (!joined) {
        throw InputError(fmt::format(
            "{}: routes[{}]: no link joins '{}' and '{}'; an explicit route must follow links of the node (add the "
            "link or fix 'via')",
            location(file, ro.line, ro.column), &ro - node.routes.data(),
            node.endpoints[static_cast<std::size_t>(at[k])].id, node.endpoints[static_cast<std::size_t>(at[k + 1])].id));
      }
    }
  }
  const std::vector<int> nearest = nearest_cpu(node);
  for (std::size_t i = 0; i < node.endpoints.size(); ++i) {
    Endpoint& e = node.endpoints[i];
    if (e.kind != EndpointKind::gpu) continue;
    if (nearest[i] < 0) {
      throw InputError(fmt::format(
          "{}: gpu '{}' has no route to any cpu; add a link (e.g. PCIe or NVLink) from it, or "
          "from a switch it connects to, to a cpu",
          location(file, e.line, e.column), e.id));
    }
    if (e.host < 0) e.host = nearest[i];
  }
  return node;
}

Node load_node(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const bool exists = std::filesystem::exists(path);
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
