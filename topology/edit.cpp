#include "topology/edit.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "core/units.hpp"

namespace linkcast::topology {

namespace {

const std::vector<std::string> kEndpointFields = {"memory.capacity_gib", "memory.bandwidth_gbps",
                                                  "memory.copy_bandwidth_gbps", "copy_engines"};
const std::vector<std::string> kLinkFields = {"gen", "lanes", "mps", "mrrs", "rcb", "addressing", "version",
                                              "count", "per_link_gbps", "bandwidth_gbps", "latency_ns"};
const std::vector<std::string> kEndpointKeys = {"id", "kind"};
const std::vector<std::string> kLinkKeys = {"id", "type", "between"};

bool glob_match(const std::string& glob, const std::string& text) {
  return ::fnmatch(glob.c_str(), text.c_str(), 0) == 0;
}

double positive_number(std::string_view value, const std::string& what) {
  const double v = parse_double(value, what);
  if (v <= 0) throw InputError(fmt::format("{}: {} must be > 0", what, value));
  return v;
}

int whole_number(std::string_view value, const std::string& what) {
  const double v = parse_double(value, what);
  if (v != std::floor(v) || std::fabs(v) > 1e9) throw InputError(fmt::format("{}: {} is not a whole number", what, value));
  return static_cast<int>(v);
}

int one_of(std::string_view value, const std::string& what, const std::vector<int>& allowed) {
  const int v = whole_number(value, what);
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    std::vector<std::string> names;
    for (int a : allowed) names.push_back(std::to_string(a));
    throw InputError(fmt::format("{}: {} is not one of {}", what, value, join(names, ", ")));
  }
  return v;
}

}  // namespace

AxisPath parse_axis_path(std::string_view text) {
  AxisPath p;
  p.text = std::string(trim(text));
  const std::string& t = p.text;
  const std::size_t open = t.find('['), close = t.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open || close + 1 >= t.size() ||
      t[close + 1] != '.') {
    throw InputError(fmt::format("axis path '{}' is not SECTION[SELECTOR].FIELD, e.g. links[type=pcie].gen or "
                                 "endpoints[kind=gpu].memory.bandwidth_gbps (or 'node' for whole node files)",
                                 t));
  }
  const std::string section = t.substr(0, open);
  if (section == "endpoints") p.section = AxisPath::Section::endpoints;
  else if (section == "links") p.section = AxisPath::Section::links;
  else
    throw InputError(fmt::format("axis path '{}': unknown section '{}'{}; use endpoints or links", t, section,
                                 did_you_mean(section, {"endpoints", "links"})));
  const auto& keys = p.section == AxisPath::Section::endpoints ? kEndpointKeys : kLinkKeys;
  const auto& fields = p.section == AxisPath::Section::endpoints ? kEndpointFields : kLinkFields;
  const std::string_view selector = trim(std::string_view(t).substr(open + 1, close - open - 1));
  if (selector != "*" && !selector.empty()) {
    for (std::string_view cond : split(selector, ',')) {
      cond = trim(cond);
      const std::size_t eq = cond.find('=');
      if (eq == std::string_view::npos || eq == 0)
        throw InputError(fmt::format("axis path '{}': condition '{}' is not KEY=VALUE", t, cond));
      AxisPath::Condition c;
      c.negate = cond[eq - 1] == '!';
      c.key = std::string(trim(cond.substr(0, c.negate ? eq - 1 : eq)));
      c.glob = std::string(trim(cond.substr(eq + 1)));
      if (std::find(keys.begin(), keys.end(), c.key) == keys.end())
        throw InputError(fmt::format("axis path '{}': unknown selector key '{}'{}; use {}", t, c.key,
                                     did_you_mean(c.key, keys), join_or(keys)));
      p.conditions.push_back(std::move(c));
    }
  }
  p.field = t.substr(close + 2);
  if (std::find(fields.begin(), fields.end(), p.field) == fields.end())
    throw InputError(fmt::format("axis path '{}': unknown field '{}'{}; {} fields are {}", t, p.field,
                                 did_you_mean(p.field, fields), section, join(fields, ", ")));
  return p;
}

std::vector<int> select(const Node& node, const AxisPath& path) {
  std::vector<int> out;
  auto holds = [&](const AxisPath::Condition& c, const std::vector<std::string>& values) {
    const bool any = std::any_of(values.begin(), values.end(), [&](const std::string& v) { return glob_match(c.glob, v); });
    return any != c.negate;
  };
  if (path.section == AxisPath::Section::endpoints) {
    for (std::size_t i = 0; i < node.endpoints.size(); ++i) {
      const Endpoint& e = node.endpoints[i];
      const bool ok = std::all_of(path.conditions.begin(), path.conditions.end(), [&](const auto& c) {
        return holds(c, {c.key == "id" ? e.id : std::string(to_string(e.kind))});
      });
      if (ok) out.push_back(static_cast<int>(i));
    }
  } else {
    for (std::size_t i = 0; i < node.links.size(); ++i) {
      const Link& l = node.links[i];
      const std::string& a = node.endpoints[static_cast<std::size_t>(l.a)].id;
      const std::string& b = node.endpoints[static_cast<std::size_t>(l.b)].id;
      const bool ok = std::all_of(path.conditions.begin(), path.conditions.end(), [&](const auto& c) {
        if (c.key == "id") return holds(c, {l.id});
        if (c.key == "type") return holds(c, {std::string(model::to_string(l.spec.type))});
        return holds(c, {a + "-" + b, b + "-" + a});
      });
      if (ok) out.push_back(static_cast<int>(i));
    }
  }
  return out;
}

void apply(Node& node, const AxisPath& path, std::string_view value) {
  const std::vector<int> selected = select(node, path);
  if (selected.empty())
    throw InputError(fmt::format("axis path '{}' selects nothing in node '{}' ({})", path.text, node.name, node.file));
  const std::string what = path.text;
  const std::string& f = path.field;
  for (int index : selected) {
    if (path.section == AxisPath::Section::endpoints) {
      Endpoint& e = node.endpoints[static_cast<std::size_t>(index)];
      const bool has_memory = e.kind == EndpointKind::cpu || e.kind == EndpointKind::gpu;
      if (starts_with(f, "memory.") && !has_memory)
        throw InputError(fmt::format("{}: endpoint '{}' is a {} and has no memory", what, e.id, to_string(e.kind)));
      if (f == "memory.capacity_gib") e.memory.capacity_gib = positive_number(value, what);
      else if (f == "memory.bandwidth_gbps") e.memory.bandwidth_gbps = positive_number(value, what);
      else if (f == "memory.copy_bandwidth_gbps") {
        if (e.kind != EndpointKind::cpu)
          throw InputError(fmt::format("{}: copy_bandwidth_gbps applies to cpus; '{}' is a {}", what, e.id, to_string(e.kind)));
        e.memory.copy_bandwidth_gbps = positive_number(value, what);
      } else if (f == "copy_engines") {
        if (e.kind != EndpointKind::gpu)
          throw InputError(fmt::format("{}: copy_engines applies to gpus; '{}' is a {}", what, e.id, to_string(e.kind)));
        e.copy_engines = whole_number(value, what);
        if (e.copy_engines < 1) throw InputError(fmt::format("{}: {} must be >= 1", what, value));
      }
      continue;
    }
    Link& l = node.links[static_cast<std::size_t>(index)];
    model::LinkSpec& s = l.spec;
    auto require_type = [&](bool ok, const char* type_name) {
      if (!ok)
        throw InputError(fmt::format("{}: field '{}' applies to {} links; link '{}' is {}", what, f, type_name, l.id,
                                     model::to_string(s.type)));
    };
    const std::vector<int> sizes = {128, 256, 512, 1024, 2048, 4096};
    if (f == "latency_ns") {
      const double v = parse_double(value, what);
      if (v < 0) throw InputError(fmt::format("{}: {} must be >= 0", what, value));
      s.latency_ns = v;
    } else if (f == "gen" || f == "lanes" || f == "mps" || f == "mrrs" || f == "rcb" || f == "addressing") {
      require_type(s.type == model::LinkType::pcie, "pcie");
      if (f == "gen") s.pcie.gen = one_of(value, what, {1, 2, 3, 4, 5, 6});
      else if (f == "lanes") s.pcie.lanes = one_of(value, what, {1, 2, 4, 8, 16, 32});
      else if (f == "mps") s.pcie.mps_bytes = one_of(value, what, sizes);
      else if (f == "mrrs") s.pcie.mrrs_bytes = one_of(value, what, sizes);
      else if (f == "rcb") s.pcie.rcb_bytes = one_of(value, what, {64, 128});
      else s.pcie.addressing_bits = one_of(value, what, {32, 64});
    } else if (f == "version" || f == "count" || f == "per_link_gbps") {
      require_type(s.type == model::LinkType::nvlink, "nvlink");
      if (f == "version") s.nvlink.version = one_of(value, what, {1, 2, 3, 4, 5});
      else if (f == "count") {
        s.nvlink.count = whole_number(value, what);
        if (s.nvlink.count < 1) throw InputError(fmt::format("{}: {} must be >= 1", what, value));
      } else s.nvlink.per_link_gbps = positive_number(value, what);
    } else if (f == "bandwidth_gbps") {
      require_type(model::is_generic(s.type), "generic (xbus, upi, qpi, infinity_fabric, nvlink_c2c, ...)");
      s.generic_gbps = positive_number(value, what);
    }
  }
}

std::string current_value(const Node& node, const AxisPath& path) {
  const std::vector<int> selected = select(node, path);
  if (selected.empty()) return "";
  const auto i = static_cast<std::size_t>(selected.front());
  const std::string& f = path.field;
  if (path.section == AxisPath::Section::endpoints) {
    const Endpoint& e = node.endpoints[i];
    if (f == "memory.capacity_gib") return fmt::format("{:g}", e.memory.capacity_gib);
    if (f == "memory.bandwidth_gbps") return fmt::format("{:g}", e.memory.bandwidth_gbps);
    if (f == "memory.copy_bandwidth_gbps") return fmt::format("{:g}", e.memory.copy_bandwidth_gbps);
    return std::to_string(e.copy_engines);
  }
  const model::LinkSpec& s = node.links[i].spec;
  if (f == "gen") return std::to_string(s.pcie.gen);
  if (f == "lanes") return std::to_string(s.pcie.lanes);
  if (f == "mps") return std::to_string(s.pcie.mps_bytes);
  if (f == "mrrs") return std::to_string(s.pcie.mrrs_bytes);
  if (f == "rcb") return std::to_string(s.pcie.rcb_bytes);
  if (f == "addressing") return std::to_string(s.pcie.addressing_bits);
  if (f == "version") return std::to_string(s.nvlink.version);
  if (f == "count") return std::to_string(s.nvlink.count);
  if (f == "per_link_gbps") return fmt::format("{:g}", s.nvlink.per_link_gbps);
  if (f == "bandwidth_gbps") return fmt::format("{:g}", s.generic_gbps);
  return fmt::format("{:g}", s.latency_ns);
}

}  // namespace linkcast::topology
