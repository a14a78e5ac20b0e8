#include "study/study.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <set>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "core/yaml.hpp"
#include "model/models.hpp"
#include "topology/loader.hpp"
#include "synthetic/catalog.hpp"

namespace linkcast::study {

using projection::parse_endpoint_map;

namespace {

const std::vector<std::string> kTopKeys = {"study_version", "name", "description", "base", "axes",
                                           "traces", "workloads", "models", "sim_model"};
const std::vector<std::string> kAxisKeys = {"path", "values"};
const std::vector<std::string> kTraceKeys = {"name", "file", "from", "map"};
const std::vector<std::string> kWorkloadKeys = {"name", "spec"};

class StudyReader : public yaml::Reader {
 public:
  explicit StudyReader(std::string file) : yaml::Reader(file) { dir_ = std::filesystem::path(file).parent_path(); }

  /// The text of `map`'s required scalar `key`.
  std::string scalar(const yaml::Node& map, const std::string& key, const std::string& what) const {
    return string(require(map, key, what), what + "." + key);
  }

  /// A path written in the study, relative to the study file's folder.
  std::string resolve(const std::string& p) const {
    const std::filesystem::path path(p);
    return path.is_absolute() || dir_.empty() ? p : (dir_ / path).lexically_normal().string();
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace

std::size_t Study::points() const {
  std::size_t n = 1;
  for (const StudyAxis& a : axes) n *= a.values.size();
  return n;
}

std::vector<std::size_t> Study::coordinates(std::size_t p) const {
  std::vector<std::size_t> c(axes.size());
  for (std::size_t k = axes.size(); k-- > 0;) {
    c[k] = p % axes[k].values.size();
    p /= axes[k].values.size();
  }
  return c;
}

topology::Node Study::node_at(std::size_t p) const {
  const std::vector<std::size_t> c = coordinates(p);
  const topology::Node* start = &base;
  for (std::size_t k = 0; k < axes.size(); ++k)
    if (axes[k].whole_node) start = &axes[k].nodes[c[k]];
  topology::Node node = *start;
  for (std::size_t k = 0; k < axes.size(); ++k)
    if (!axes[k].whole_node) topology::apply(node, axes[k].path, axes[k].values[c[k]]);
  return node;
}

Study load_study(const std::string& path) {
  StudyReader r(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: no such study file; examples are in configs/studies/", path));
  std::ostringstream text;
  text << in.rdbuf();
  const yaml::Node root = yaml::parse(text.str(), path);
  if (root.is_null()) throw InputError(fmt::format("{}: the study file is empty", path));
  r.expect_map(root, "top level", kTopKeys);
  Study s;
  s.file = path;
  const std::string version = r.scalar(root, "study_version", "top level");
  if (version != "1") r.fail(root["study_version"], fmt::format("study_version {} is not supported; this linkcast reads 1", version));
  s.name = r.scalar(root, "name", "top level");
  if (root["description"]) s.description = r.scalar(root, "description", "top level");
  s.base_file = r.resolve(r.scalar(root, "base", "top level"));
  try {
    s.base = topology::load_node(s.base_file);
  } catch (const InputError& e) {
    r.fail(root["base"], fmt::format("base: {}", e.what()));
  }

  if (root["models"]) {
    const yaml::Node& m = root["models"];
    if (!m.is_sequence() || m.size() == 0) r.fail(m, "models must be a non-empty list, e.g. [default, ahead]");
    s.models.clear();
    for (std::size_t i = 0; i < m.size(); ++i) {
      const std::string name = r.string(m[i], fmt::format("models[{}]", i));
      try {
        (void)model::find_model(name);
      } catch (const InputError& e) {
        r.fail(m[i], fmt::format("models[{}]: {}", i, e.what()));
      }
      s.models.push_back(name);
    }
  }
  if (root["sim_model"]) {
    s.sim_model = r.scalar(root, "sim_model", "top level");
    try {
      (void)model::find_model(s.sim_model);
    } catch (const InputError& e) {
      r.fail(root["sim_model"], fmt::format("sim_model: {}", e.what()));
    }
  }

  if (root["axes"]) {
    const yaml::Node& axes = root["axes"];
    if (!axes.is_sequence()) r.fail(axes, "axes must be a list of {path: ..., values: [...]}");
    std::set<std::string> names;
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const std::string what = fmt::format("axes[{}]", i);
      r.expect_map(axes[i], what, kAxisKeys);
      StudyAxis a;
      a.line = axes[i].line();
      a.name = r.scalar(axes[i], "path", what);
      const std::string where = fmt::format("{} ({})", what, a.name);
      if (!names.insert(a.name).second) r.fail(axes[i]["path"], fmt::format("{}: the same path appears twice", where));
      a.whole_node = a.name == "node";
      if (!a.whole_node) {
        try {
          a.path = topology::parse_axis_path(a.name);
          if (topology::select(s.base, a.path).empty())
            throw InputError(fmt::format("'{}' selects nothing in the base node '{}' ({})", a.name, s.base.name,
                                         s.base.file));
        } catch (const InputError& e) {
          r.fail(axes[i]["path"], fmt::format("{}: {}", where, e.what()));
        }
      }
      const yaml::Node& values = axes[i]["values"];
      if (!values) r.fail(axes[i], fmt::format("{}: missing required key 'values'", where));
      if (!values.is_sequence() || values.size() == 0)
        r.fail(values, fmt::format("{}: values must be a non-empty list", where));
      for (std::size_t k = 0; k < values.size(); ++k) {
        if (!values[k].is_scalar()) r.fail(values[k], fmt::format("{}: values[{}] must be a single value", where, k));
        const std::string& v = values[k].scalar();
        try {
          if (a.whole_node) {
            a.values.push_back(r.resolve(v));
            a.nodes.push_back(topology::load_node(a.values.back()));
            a.labels.push_back(a.nodes.back().name);
          } else {
            topology::Node copy = s.base;
            topology::apply(copy, a.path, v);  // the loader's type and range rules
            a.values.push_back(v);
            a.labels.push_back(v);
          }
        } catch (const InputError& e) {
          r.fail(values[k], fmt::format("{}: values[{}]: {}", where, k, e.what()));
        }
      }
      s.axes.push_back(std::move(a));
    }
  }

  std::set<std::string> item_names;
  if (root["traces"]) {
    const yaml::Node& traces = root["traces"];
    if (!traces.is_sequence()) r.fail(traces, "traces must be a list of {file: ..., from: ...}");
    for (std::size_t i = 0; i < traces.size(); ++i) {
      const std::string what = fmt::format("traces[{}]", i);
      r.expect_map(traces[i], what, kTraceKeys);
      StudyTrace t;
      t.line = traces[i].line();
      t.file = r.resolve(r.scalar(traces[i], "file", what));
      if (!std::filesystem::exists(t.file)) r.fail(traces[i]["file"], fmt::format("{}: no such trace file '{}'", what, t.file));
      t.from_file = r.resolve(r.scalar(traces[i], "from", what));
      if (!std::filesystem::exists(t.from_file))
        r.fail(traces[i]["from"], fmt::format("{}: no such node file '{}'", what, t.from_file));
      t.name = traces[i]["name"] ? r.scalar(traces[i], "name", what) : std::filesystem::path(t.file).filename().string();
      if (traces[i]["map"]) {
        try {
          t.map = parse_endpoint_map(r.scalar(traces[i], "map", what));
        } catch (const InputError& e) {
          r.fail(traces[i]["map"], fmt::format("{}: {}", what, e.what()));
        }
      }
      if (!item_names.insert(t.name).second)
        r.fail(traces[i], fmt::format("{}: the name '{}' is used twice; give each trace and workload a distinct name", what, t.name));
      s.traces.push_back(std::move(t));
    }
  }
  if (root["workloads"]) {
    const yaml::Node& workloads = root["workloads"];
    if (!workloads.is_sequence()) r.fail(workloads, "workloads must be a list of {spec: ...}");
    for (std::size_t i = 0; i < workloads.size(); ++i) {
      const std::string what = fmt::format("workloads[{}]", i);
      r.expect_map(workloads[i], what, kWorkloadKeys);
      StudyWorkload w;
      w.line = workloads[i].line();
      w.spec = r.scalar(workloads[i], "spec", what);
      try {
        (void)synthetic::parse_workload_spec(w.spec);
      } catch (const InputError& e) {
        r.fail(workloads[i]["spec"], fmt::format("{}: {}", what, e.what()));
      }
      w.name = workloads[i]["name"] ? r.scalar(workloads[i], "name", what) : w.spec;
      if (!item_names.insert(w.name).second)
        r.fail(workloads[i], fmt::format("{}: the name '{}' is used twice; give each trace and workload a distinct name", what, w.name));
      s.workloads.push_back(std::move(w));
    }
  }
  if (s.traces.empty() && s.workloads.empty())
    throw InputError(fmt::format("{}: the study has no traces and no workloads to evaluate", path));
  return s;
}

}  // namespace linkcast::study
