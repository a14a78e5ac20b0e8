#include "topology/describe.hpp"

#include <fmt/format.h>

#include <map>
#include <ostream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "core/json.hpp"
#include "core/table.hpp"
#include "core/units.hpp"
#include "topology/schema.hpp"

namespace linkcast::topology {

namespace {

const Endpoint& ep(const Node& node, int i) { return node.endpoints[static_cast<std::size_t>(i)]; }

std::string memory_text(const Endpoint& e) {
  if (e.kind != EndpointKind::cpu && e.kind != EndpointKind::gpu) {
    if (e.kind == EndpointKind::nic && e.nic_gbps > 0) return fmt::format("port {:g} GB/s", e.nic_gbps);
    if (e.kind == EndpointKind::nvswitch && e.chips > 0) return fmt::format("{} chips", e.chips);
    return "";
  }
  std::string s = fmt::format("{:g} GiB, {:g} GB/s", e.memory.capacity_gib, e.memory.bandwidth_gbps);
  if (e.memory.copy_bandwidth_gbps > 0) s += fmt::format(", 1-thread copy {:g} GB/s", e.memory.copy_bandwidth_gbps);
  return s;
}

/// A key's value as the schema says JSON shows it (integers as integers).
void add_value(nlohmann::json& j, const schema::Key& key, double value) {
  if (key.json == schema::Json::omit || (key.json == schema::Json::when_set && value <= 0)) return;
  if (key.type == schema::Type::integer) j[std::string(key.name)] = static_cast<int>(value);
  else j[std::string(key.name)] = value;
}

}  // namespace

std::string short_link_label(model::LinkType t) {
  switch (t) {
    case model::LinkType::pcie: return "PHB";
    case model::LinkType::nvlink: return "NV";
    case model::LinkType::xbus: return "XBUS";
    case model::LinkType::upi: return "UPI";
    case model::LinkType::qpi: return "QPI";
    case model::LinkType::infinity_fabric: return "XGMI";
    case model::LinkType::nvlink_c2c: return "C2C";
    case model::LinkType::hypertransport: return "HT";
    case model::LinkType::generic: return "LINK";
  }
  return "LINK";
}

std::string pair_class(const Node& node, const Path& path) {
  if (!path.reachable) return "none";
  if (path.links.empty()) return "X";
  bool all_nvlink = true, same_type = true, inter_socket = false, via_cpu = false;
  int min_count = 1 << 30, switches = 0;
  const model::LinkType first = node.links[static_cast<std::size_t>(path.links[0].link)].spec.type;
  for (const DirectedLink& dl : path.links) {
    const Link& l = node.links[static_cast<std::size_t>(dl.link)];
    if (l.spec.type == model::LinkType::nvlink) min_count = std::min(min_count, l.spec.nvlink.count);
    else all_nvlink = false;
    if (l.spec.type != first) same_type = false;
    if (ep(node, l.a).kind == EndpointKind::cpu && ep(node, l.b).kind == EndpointKind::cpu) inter_socket = true;
  }
  for (std::size_t k = 1; k + 1 < path.endpoints.size(); ++k) {
    const Endpoint& mid = ep(node, path.endpoints[k]);
    if (mid.kind == EndpointKind::cpu) via_cpu = true;
    if (mid.kind == EndpointKind::pcie_switch) ++switches;
  }
  if (inter_socket) return "SYS";
  if (all_nvlink) return fmt::format("NV{}", min_count);
  if (via_cpu) return "PHB";
  if (switches == 1) return "PIX";
  if (switches > 1) return "PXB";
  if (same_type) return short_link_label(first);
  return "PHB";
}

std::string describe_table(const Node& node, const Routes& routes) {
  std::string out = fmt::format("node {} ({})\n", node.name, node.file);
  if (!node.description.empty()) out += node.description + "\n";
  out += fmt::format("{} endpoints, {} links\n\nEndpoints\n", node.endpoints.size(), node.links.size());
  TextTable endpoints({"id", "kind", "model", "memory", "host"},
                      {TextTable::Align::left, TextTable::Align::left, TextTable::Align::left,
                       TextTable::Align::left, TextTable::Align::left});
  for (const Endpoint& e : node.endpoints)
    endpoints.add_row({e.id, std::string(to_string(e.kind)), e.model, memory_text(e),
                       e.host >= 0 ? ep(node, e.host).id : ""});
  out += endpoints.render();

  out += "\nLinks\n";
  TextTable links({"id", "between", "type", "GB/s per dir", "latency ns"},
                  {TextTable::Align::left, TextTable::Align::left, TextTable::Align::left,
                   TextTable::Align::right, TextTable::Align::right});
  for (const Link& l : node.links)
    links.add_row({l.id, ep(node, l.a).id + " <-> " + ep(node, l.b).id, l.spec.describe(),
                   fmt::format("{:.1f}", l.spec.gbps()), fmt::format("{:g}", l.spec.latency_ns)});
  out += links.render();

  // Pair matrix over CPUs and GPUs (and NICs), as nvidia-smi topo -m draws it.
  std::vector<int> shown;
  for (std::size_t i = 0; i < node.endpoints.size(); ++i) {
    const EndpointKind k = node.endpoints[i].kind;
    if (k == EndpointKind::cpu || k == EndpointKind::gpu || k == EndpointKind::nic) shown.push_back(static_cast<int>(i));
  }
  if (shown.size() <= 24) {
    out += "\nPairs (row -> column: class/hops/bottleneck GB/s)\n";
    std::vector<std::string> header = {""};
    for (int j : shown) header.push_back(ep(node, j).id);
    TextTable matrix(header);
    for (int i : shown) {
      std::vector<std::string> row = {ep(node, i).id};
      for (int j : shown) {
        const Path& p = routes.path(i, j);
        if (i == j) row.push_back("X");
        else if (!p.reachable) row.push_back("-");
        else row.push_back(fmt::format("{}/{}/{:.0f}", pair_class(node, p), p.hops, p.bottleneck_gbps));
      }
      matrix.add_row(row);
    }
    out += matrix.render();
  } else {
    std::map<std::string, std::pair<int, double>> classes;  // class -> count, min bottleneck
    for (int i : shown) {
      for (int j : shown) {
        if (i == j) continue;
        const Path& p = routes.path(i, j);
        auto& c = classes[fmt::format("{} {}-hop", pair_class(node, p), p.hops)];
        c.second = c.first == 0 ? p.bottleneck_gbps : std::min(c.second, p.bottleneck_gbps);
        ++c.first;
      }
      routes.release(i);
    }
    out += fmt::format("\nPairs: {} endpoints is too many for a matrix; pair classes "
                       "(use --format json for every pair)\n", shown.size());
    TextTable summary({"class", "pairs", "bottleneck GB/s"});
    for (const auto& [name, c] : classes) summary.add_row({name, std::to_string(c.first), fmt::format("{:.0f}", c.second)});
    out += summary.render();
  }
  out += "\nClasses: X self, NV# NVLink only (# = fewest links on the path), PIX one PCIe switch,\n"
         "PXB several PCIe switches, PHB through a CPU or a direct PCIe link, SYS across sockets,\n"
         "C2C/XGMI/XBUS/UPI/QPI/HT/LINK a direct link of that kind, none no route.\n";
  return out;
}

void write_json(const Node& node, const Routes& routes, std::ostream& out) {
  using nlohmann::json;
  json j;
  j["name"] = node.name;
  j["file"] = node.file;
  j["description"] = node.description;
  j["endpoints"] = json::array();
  for (const Endpoint& e : node.endpoints) {
    json je = {{"id", e.id}, {"kind", to_string(e.kind)}, {"model", e.model}};
    for (const schema::Key* k : schema::keys_of(schema::Section::endpoint, e.kind)) {
      if (k->type == schema::Type::mapping) {
        json held = json::object();
        for (const schema::Key* m : schema::keys_of(k->holds, e.kind))
          if (m->json != schema::Json::omit) add_value(held, *m, m->field.endpoint_get(e));
        je[std::string(k->name)] = held;
      } else if (k->is_number() && k->json != schema::Json::omit) {
        add_value(je, *k, k->field.endpoint_get(e));
      }
    }
    if (e.host >= 0) je["host"] = ep(node, e.host).id;
    j["endpoints"].push_back(je);
  }
  j["links"] = json::array();
  for (const Link& l : node.links) {
    json jl = {{"id", l.id},
               {"between", {ep(node, l.a).id, ep(node, l.b).id}},
               {"type", model::to_string(l.spec.type)},
               {"description", l.spec.describe()},
               {"bandwidth_gbps", l.spec.gbps()}};
    for (const schema::Key* k : schema::keys_of(schema::Section::link, l.spec.type))
      if (k->is_number() && k->json != schema::Json::omit) add_value(jl, *k, k->field.link_get(l.spec));
    j["links"].push_back(jl);
  }
  // Every ordered pair written as it is made, laid out as one document indented by 2 would lay it
  // out: n^2 pairs of a large node held as one JSON value (or one string) took gigabytes (1,000
  // endpoints: 2.1 GB), and each source's routes are let go once its pairs are written.
  std::string head = dump_json(j, 2, "topology JSON");
  head.resize(head.rfind('}'));
  while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
  out << head << ",\n  \"pairs\": [";
  bool first = true;
  for (std::size_t s = 0; s < node.endpoints.size(); ++s) {
    for (std::size_t t = 0; t < node.endpoints.size(); ++t) {
      if (s == t) continue;
      const Path& p = routes.path(static_cast<int>(s), static_cast<int>(t));
      json jp = {{"src", node.endpoints[s].id}, {"dst", node.endpoints[t].id}, {"reachable", p.reachable}};
      if (p.reachable) {
        jp["class"] = pair_class(node, p);
        jp["bandwidth_gbps"] = p.bottleneck_gbps;
        jp["latency_us"] = p.latency_ns / 1000.0;
        jp["hops"] = p.hops;
        json ids = json::array();
        for (const DirectedLink& dl : p.links) ids.push_back(node.links[static_cast<std::size_t>(dl.link)].id);
        jp["links"] = ids;
        jp["via"] = json::array();
        for (std::size_t k = 1; k + 1 < p.endpoints.size(); ++k) jp["via"].push_back(ep(node, p.endpoints[k]).id);
        if (p.overridden) jp["overridden"] = true;
      }
      std::string pair = dump_json(jp, 2, "topology JSON");
      for (std::size_t at = pair.find('\n'); at != std::string::npos; at = pair.find('\n', at + 5))
        pair.replace(at, 1, "\n    ");
      out << (first ? "\n    " : ",\n    ") << pair;
      first = false;
    }
    routes.release(static_cast<int>(s));
  }
  out << (first ? "]\n}\n" : "\n  ]\n}\n");
}

std::string describe_json(const Node& node, const Routes& routes) {
  std::ostringstream out;
  write_json(node, routes, out);
  return out.str();
}

namespace {

/// `text` as the inside of a DOT double-quoted string: a quote or backslash escaped, a line break
/// written as DOT's \n (a node file's names and models are the user's: unescaped, a quote in one
/// ended the string and let the rest of it set attributes, a robustness hunt found).
std::string dot_quoted(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') out += "\\n";
    else if (c == '\r') continue;
    else out += c;
  }
  return out;
}

}  // namespace

std::string describe_dot(const Node& node) {
  std::string out = fmt::format("graph \"{}\" {{\n  graph [overlap=false, splines=true, label=\"{}\"];\n",
                                dot_quoted(node.name), dot_quoted(node.name));
  for (const Endpoint& e : node.endpoints) {
    const char* shape = e.kind == EndpointKind::cpu   ? "box"
                        : e.kind == EndpointKind::gpu ? "box3d"
                        : e.kind == EndpointKind::nic ? "cds"
                                                      : "diamond";
    const char* color = e.kind == EndpointKind::cpu   ? "lightblue"
                        : e.kind == EndpointKind::gpu ? "palegreen"
                        : e.kind == EndpointKind::nic ? "khaki"
                                                      : "lightgrey";
    out += fmt::format("  \"{}\" [shape={}, style=filled, fillcolor={}, label=\"{}\\n{}\"];\n", dot_quoted(e.id),
                       shape, color, dot_quoted(e.id), dot_quoted(e.model));
  }
  for (const Link& l : node.links) {
    const char* style = l.spec.type == model::LinkType::nvlink ? "bold" : l.spec.type == model::LinkType::pcie ? "solid" : "dashed";
    out += fmt::format("  \"{}\" -- \"{}\" [label=\"{}\\n{:.0f} GB/s\", style={}];\n", dot_quoted(ep(node, l.a).id),
                       dot_quoted(ep(node, l.b).id), dot_quoted(l.spec.describe()), l.spec.gbps(), style);
  }
  out += "}\n";
  return out;
}

}  // namespace linkcast::topology
