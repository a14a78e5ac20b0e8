#include "topology/edit.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "topology/schema.hpp"

namespace linkcast::topology {

namespace {

using schema::Key;
using schema::Section;

constexpr std::string_view kMemoryPrefix = "memory.";

/// The fields an axis path may set: the schema's sweepable keys, those of an endpoint's memory
/// written memory.KEY.
const std::vector<std::string>& endpoint_fields() {
  static const std::vector<std::string> fields = [] {
    std::vector<std::string> out;
    auto add = [&](std::string name) {
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
    };
    for (const Key* k : schema::keys_of(Section::endpoint)) {
      if (k->type == schema::Type::mapping) {
        for (const Key* m : schema::keys_of(k->holds))
          if (m->sweepable) add(std::string(kMemoryPrefix) + std::string(m->name));
      } else if (k->sweepable) {
        add(std::string(k->name));
      }
    }
    return out;
  }();
  return fields;
}

const std::vector<std::string>& link_fields() {
  static const std::vector<std::string> fields = [] {
    std::vector<std::string> out;
    for (const Key* k : schema::keys_of(Section::link))
      if (k->sweepable && std::find(out.begin(), out.end(), k->name) == out.end()) out.emplace_back(k->name);
    return out;
  }();
  return fields;
}

const std::vector<std::string> kEndpointKeys = {"id", "kind"};
const std::vector<std::string> kLinkKeys = {"id", "type", "between"};

bool glob_match(const std::string& glob, const std::string& text) {
  return ::fnmatch(glob.c_str(), text.c_str(), 0) == 0;
}

/// `value` checked as the schema checks `key` in a node file; `what` names the axis in messages.
double checked(const Key& key, std::string_view value, const std::string& what) {
  const auto result = schema::check(key, trim(value));
  if (const auto* problem = std::get_if<schema::Problem>(&result))
    throw InputError(schema::editor_message(key, *problem, what, value));
  return std::get<double>(result);
}

/// The key an endpoint field names for endpoint `e`; an error when it does not apply to `e`.
const Key& endpoint_key(const AxisPath& path, const Endpoint& e) {
  const std::string& f = path.field;
  const bool memory = std::string_view(f).starts_with(kMemoryPrefix);
  const std::string name = memory ? f.substr(kMemoryPrefix.size()) : f;
  const Section section = memory ? Section::memory : Section::endpoint;
  if (memory && !schema::find(Section::endpoint, "memory")->applies_to(e.kind))
    throw InputError(fmt::format("{}: endpoint '{}' is a {} and has no memory", path.text, e.id, to_string(e.kind)));
  const Key* key = schema::find(section, name, e.kind);
  if (key == nullptr) {
    throw InputError(fmt::format("{}: {} applies to {}; '{}' is a {}", path.text, name,
                                 schema::endpoint_kinds_text(schema::find(section, name)->applies), e.id,
                                 to_string(e.kind)));
  }
  return *key;
}

/// The key a link field names for link `l`; an error when it does not apply to its type.
const Key& link_key(const AxisPath& path, const Link& l) {
  const Key* key = schema::find(Section::link, path.field, l.spec.type);
  if (key == nullptr) {
    throw InputError(fmt::format("{}: field '{}' applies to {} links; link '{}' is {}", path.text, path.field,
                                 schema::link_types_text(schema::find(Section::link, path.field)->applies), l.id,
                                 model::to_string(l.spec.type)));
  }
  return *key;
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
  const auto& fields = p.section == AxisPath::Section::endpoints ? endpoint_fields() : link_fields();
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
  for (int index : selected) {
    if (path.section == AxisPath::Section::endpoints) {
      Endpoint& e = node.endpoints[static_cast<std::size_t>(index)];
      const Key& key = endpoint_key(path, e);
      key.field.endpoint_set(e, checked(key, value, path.text));
    } else {
      Link& l = node.links[static_cast<std::size_t>(index)];
      const Key& key = link_key(path, l);
      key.field.link_set(l.spec, checked(key, value, path.text));
    }
  }
}

namespace {
/// The schema key of the path's field (parse_axis_path has checked that it names one).
const Key& field_key(const AxisPath& path) {
  const std::string& f = path.field;
  const bool memory = std::string_view(f).starts_with(kMemoryPrefix);
  return path.section == AxisPath::Section::links ? *schema::find(Section::link, f)
         : memory ? *schema::find(Section::memory, std::string_view(f).substr(kMemoryPrefix.size()))
                  : *schema::find(Section::endpoint, f);
}
}  // namespace

double field_value(const AxisPath& path, std::string_view value) {
  const auto result = schema::check(field_key(path), trim(value));
  if (const auto* v = std::get_if<double>(&result)) return *v;
  throw InputError(fmt::format("axis path '{}': '{}' is not a value of its field", path.text, value));
}

std::string current_value(const Node& node, const AxisPath& path) {
  const std::vector<int> selected = select(node, path);
  if (selected.empty()) return "";
  const auto i = static_cast<std::size_t>(selected.front());
  const Key& key = field_key(path);
  const double v = path.section == AxisPath::Section::links ? key.field.link_get(node.links[i].spec)
                                                            : key.field.endpoint_get(node.endpoints[i]);
  return key.type == schema::Type::integer ? std::to_string(static_cast<int>(v)) : fmt::format("{:g}", v);
}

}  // namespace linkcast::topology
