#include "study/study.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <set>
#include <utility>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "core/yaml.hpp"
#include "topology/schema.hpp"
#include "model/models.hpp"
#include "topology/loader.hpp"
#include "synthetic/catalog.hpp"

namespace linkcast::study {

using projection::parse_endpoint_map;

namespace {

const std::vector<std::string> kTopKeys = {"study_version", "name", "description", "base", "axes",
                                           "traces", "workloads", "models", "sim_model",
                                           "target_host_rates"};
const std::vector<std::string> kAxisKeys = {"path", "values"};
const std::vector<std::string> kTraceKeys = {"name", "file", "from", "map"};
const std::vector<std::string> kWorkloadKeys = {"name", "spec"};

class StudyReader : public yaml::Reader {
 public:
  explicit StudyReader(std::string file) : yaml::Reader(file) { dir_ = std::filesystem::path(file).parent_path(); }

  /// The text of `map`'s required scalar `key`.
  [[nodiscard]] std::string scalar(const yaml::Map& map, std::string_view key, const std::string& what) const {
    return string(require(map, key, what), fmt::format("{}.{}", what, key));
  }

  /// A path written in the study, relative to the study file's folder.
  [[nodiscard]] std::string resolve(const std::string& p) const {
    const std::filesystem::path path(p);
    return path.is_absolute() || dir_.empty() ? p : (dir_ / path).lexically_normal().string();
  }

  /// Runs `check` (a loader, a parser, a lookup); an InputError it throws is reported at `node`
  /// of the study file, its message after `what`.
  template <class Check>
  void check_at(const YAML::Node& node, const std::string& what, Check&& check) const {
    try {
      std::forward<Check>(check)();
    } catch (const InputError& e) {
      fail(node, fmt::format("{}: {}", what, e.what()));
    }
  }

 private:
  std::filesystem::path dir_;
};

/// Entry `i` of the list `section` (axes, traces, workloads): its name in messages ("traces[2]")
/// and its keys, each one of `allowed`.
struct Entry {
  std::string what;
  yaml::Map map;
};
Entry read_entry(const StudyReader& r, const YAML::Node& node, std::string_view section, std::size_t i,
                 const std::vector<std::string>& allowed) {
  std::string what = fmt::format("{}[{}]", section, i);
  yaml::Map map = r.expect_map(node, what, allowed);
  return {std::move(what), std::move(map)};
}

/// `name` of the trace or workload `what` at `node`, which no other trace or workload of the
/// study may have (`item_names` holds those seen so far).
void claim_item_name(const StudyReader& r, const YAML::Node& node, const std::string& what, const std::string& name,
                     std::set<std::string>& item_names) {
  if (!item_names.insert(name).second)
    r.fail(node, fmt::format("{}: the name '{}' is used twice; give each trace and workload a distinct name", what, name));
}

/// The study file, parsed.
YAML::Node read_document(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: no such study file; examples are in configs/studies/", path));
  std::ostringstream text;
  text << in.rdbuf();
  YAML::Node root = yaml::parse(text.str(), path);
  if (root.IsNull()) throw InputError(fmt::format("{}: the study file is empty", path));
  return root;
}

/// study_version, name, description and the base node.
void read_header(const StudyReader& r, const yaml::Map& top, Study& s) {
  const std::string version = r.scalar(top, "study_version", "top level");
  if (version != "1")
    r.fail(*top.find("study_version"), fmt::format("study_version {} is not supported; this linkcast reads 1", version));
  s.name = r.scalar(top, "name", "top level");
  if (top.has("description")) s.description = r.scalar(top, "description", "top level");
  s.base_file = r.resolve(r.scalar(top, "base", "top level"));
  r.check_at(*top.find("base"), "base", [&] { s.base = topology::load_node(s.base_file); });
}

/// `models` (projection models, the first the figure of merit) and `sim_model`: each must name one;
/// `target_host_rates`: true or false.
void read_models(const StudyReader& r, const yaml::Map& top, Study& s) {
  if (const YAML::Node* m = top.find("models")) {
    if (!m->IsSequence() || m->size() == 0) r.fail(*m, "models must be a non-empty list, e.g. [default, ahead]");
    s.models.clear();
    for (std::size_t i = 0; i < m->size(); ++i) {
      const YAML::Node entry = (*m)[i];
      const std::string what = fmt::format("models[{}]", i);
      const std::string name = r.string(entry, what);
      r.check_at(entry, what, [&] { (void)model::find_model(name); });
      s.models.push_back(name);
    }
  }
  if (top.has("sim_model")) {
    s.sim_model = r.scalar(top, "sim_model", "top level");
    r.check_at(*top.find("sim_model"), "sim_model", [&] { (void)model::find_model(s.sim_model); });
  }
  if (const YAML::Node* h = top.find("target_host_rates")) s.target_host_rates = r.boolean(*h, "target_host_rates");
}

/// An axis' values are its steps, one to the next, in the order listed (the sensitivity's "per
/// step" and its verdict): a value listed twice is refused (a step of nothing, read as "buys
/// nothing"), and numbers that go up and down ([6, 4, 5] read +12% a step for what is -18% from
/// 4 to 6); they go one way (the verdict reads the size of a step, either way). Names and node
/// files keep the order given.
void check_value_order(const StudyReader& r, const YAML::Node& values, const StudyAxis& a, const std::string& where) {
  // Node files by path, other values as the loader reads them (apply() has accepted each).
  std::vector<double> number;
  for (const std::string& v : a.values) number.push_back(a.whole_node ? 0.0 : topology::field_value(a.path, v));
  for (std::size_t k = 1; k < a.values.size(); ++k)
    for (std::size_t j = 0; j < k; ++j)
      if (a.whole_node ? a.values[j] == a.values[k] : number[j] == number[k])
        r.fail(values[k], fmt::format("{}: values[{}] '{}' is values[{}] again; list each value once", where, k,
                                      a.labels[k], j));
  if (a.whole_node) return;
  for (std::size_t k = 2; k < number.size(); ++k)
    if ((number[k] > number[k - 1]) != (number[k - 1] > number[k - 2]))
      r.fail(values[k], fmt::format("{}: values[{}] {} turns back after {}: list an axis' numbers in increasing (or "
                                    "decreasing) order (the sensitivity takes each value to the next as a step)",
                                    where, k, a.values[k], number[k - 1]));
}

/// Axis `i`: its path (or `node`, whole node files) and values, each of which must apply to the
/// base node; `names` holds the paths seen so far.
StudyAxis read_axis(const StudyReader& r, const YAML::Node& axis, std::size_t i, const Study& s,
                    std::set<std::string>& names) {
  const auto [what, m] = read_entry(r, axis, "axes", i, kAxisKeys);
  StudyAxis a;
  a.line = yaml::line(axis);
  a.name = r.scalar(m, "path", what);
  const std::string where = fmt::format("{} ({})", what, a.name);
  if (!names.insert(a.name).second) r.fail(*m.find("path"), fmt::format("{}: the same path appears twice", where));
  a.whole_node = a.name == "node";
  if (!a.whole_node) {
    r.check_at(*m.find("path"), where, [&] {
      a.path = topology::parse_axis_path(a.name);
      std::vector<int> mine = topology::select(s.base, a.path);
      if (mine.empty())
        throw InputError(fmt::format("'{}' selects nothing in the base node '{}' ({})", a.name, s.base.name, s.base.file));
      // Two axes writing one value of one element: the later one's values would override the
      // earlier's at every point, and the earlier axis would read as changing nothing.
      std::sort(mine.begin(), mine.end());
      for (std::size_t j = 0; j < s.axes.size(); ++j) {
        const StudyAxis& o = s.axes[j];
        if (o.whole_node || o.path.section != a.path.section || o.path.field != a.path.field) continue;
        std::vector<int> theirs = topology::select(s.base, o.path);
        std::sort(theirs.begin(), theirs.end());
        std::vector<int> both;
        std::set_intersection(mine.begin(), mine.end(), theirs.begin(), theirs.end(), std::back_inserter(both));
        if (!both.empty())
          throw InputError(fmt::format("it sets '{}' of {} of the elements axes[{}] ({}) sets; two axes on one value "
                                       "override each other: give its values to one axis",
                                       a.path.field, both.size(), j, o.name));
      }
    });
  }
  const YAML::Node* values = m.find("values");
  if (values == nullptr) r.fail(axis, fmt::format("{}: missing required key 'values'", where));
  if (!values->IsSequence() || values->size() == 0) r.fail(*values, fmt::format("{}: values must be a non-empty list", where));
  for (std::size_t k = 0; k < values->size(); ++k) {
    const YAML::Node value = (*values)[k];
    if (!value.IsScalar()) r.fail(value, fmt::format("{}: values[{}] must be a single value", where, k));
    const std::string& v = value.Scalar();
    r.check_at(value, fmt::format("{}: values[{}]", where, k), [&] {
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
    });
  }
  check_value_order(r, *values, a, where);
  return a;
}

void read_axes(const StudyReader& r, const YAML::Node& axes, Study& s) {
  if (!axes.IsSequence()) r.fail(axes, "axes must be a list of {path: ..., values: [...]}");
  std::set<std::string> names;
  std::size_t points = 1;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    s.axes.push_back(read_axis(r, axes[i], i, s, names));
    points *= s.axes.back().values.size();  // at most kMaxStudyPoints x the YAML node limit: no overflow
    if (points > kMaxStudyPoints) {
      r.fail(axes[i], fmt::format("axes[{}]: the grid reaches {} points with this axis; a study has at most {} "
                                  "(split it into several studies, or take fewer values per axis)",
                                  i, points, kMaxStudyPoints));
    }
  }
}

/// Whether `file` exists; a path the system cannot look up (a name too long, a component that is
/// not a folder) fails at `at`.
bool file_exists(const StudyReader& r, const YAML::Node& at, const std::string& what, const std::string& file) {
  std::error_code ec;
  const bool exists = std::filesystem::exists(file, ec);
  if (ec) r.fail(at, fmt::format("{}: cannot look up '{}': {}", what, file, ec.message()));
  return exists;
}

/// Trace `i`: its file, the node it was recorded on, its endpoint map and a name unique among
/// `item_names` (traces and workloads).
StudyTrace read_trace(const StudyReader& r, const YAML::Node& trace, std::size_t i, std::set<std::string>& item_names) {
  const auto [what, m] = read_entry(r, trace, "traces", i, kTraceKeys);
  StudyTrace t;
  t.line = yaml::line(trace);
  t.file = r.resolve(r.scalar(m, "file", what));
  if (!file_exists(r, *m.find("file"), what, t.file))
    r.fail(*m.find("file"), fmt::format("{}: no such trace file '{}'", what, t.file));
  t.from_file = r.resolve(r.scalar(m, "from", what));
  if (!file_exists(r, *m.find("from"), what, t.from_file))
    r.fail(*m.find("from"), fmt::format("{}: no such node file '{}'", what, t.from_file));
  t.name = m.has("name") ? r.scalar(m, "name", what) : std::filesystem::path(t.file).filename().string();
  if (m.has("map")) {
    // Structured bindings are named once more for the lambda: clang before 16 cannot capture them.
    const std::string& entry = what;
    const auto& fields = m;
    r.check_at(*m.find("map"), what, [&] { t.map = parse_endpoint_map(r.scalar(fields, "map", entry)); });
  }
  claim_item_name(r, trace, what, t.name, item_names);
  return t;
}

/// Workload `i`: a synthetic workload spec and a name unique among `item_names`.
StudyWorkload read_workload(const StudyReader& r, const YAML::Node& workload, std::size_t i,
                            std::set<std::string>& item_names) {
  const auto [what, m] = read_entry(r, workload, "workloads", i, kWorkloadKeys);
  StudyWorkload w;
  w.line = yaml::line(workload);
  w.spec = r.scalar(m, "spec", what);
  r.check_at(*m.find("spec"), what, [&] { (void)synthetic::parse_workload_spec(w.spec); });
  w.name = m.has("name") ? r.scalar(m, "name", what) : w.spec;
  claim_item_name(r, workload, what, w.name, item_names);
  return w;
}

Study read_study(const StudyReader& r, const YAML::Node& root, const std::string& path) {
  const yaml::Map top = r.expect_map(root, "top level", kTopKeys);
  Study s;
  s.file = path;
  read_header(r, top, s);
  read_models(r, top, s);
  if (const YAML::Node* axes = top.find("axes")) read_axes(r, *axes, s);
  std::set<std::string> item_names;
  if (const YAML::Node* traces = top.find("traces")) {
    if (!traces->IsSequence()) r.fail(*traces, "traces must be a list of {file: ..., from: ...}");
    for (std::size_t i = 0; i < traces->size(); ++i) s.traces.push_back(read_trace(r, (*traces)[i], i, item_names));
  }
  if (const YAML::Node* workloads = top.find("workloads")) {
    if (!workloads->IsSequence()) r.fail(*workloads, "workloads must be a list of {spec: ...}");
    for (std::size_t i = 0; i < workloads->size(); ++i)
      s.workloads.push_back(read_workload(r, (*workloads)[i], i, item_names));
  }
  if (s.traces.empty() && s.workloads.empty())
    throw InputError(fmt::format("{}: the study has no traces and no workloads to evaluate", path));
  return s;
}

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

namespace {

/// Study::start_at of the point at coordinates `c`.
const topology::Node& start_of(const Study& s, const std::vector<std::size_t>& c) {
  const topology::Node* start = &s.base;
  for (std::size_t k = 0; k < s.axes.size(); ++k)
    if (s.axes[k].whole_node) start = &s.axes[k].nodes[c[k]];
  return *start;
}

/// A GPU memory whose peak a point changes, with no axis setting its measured streaming rate,
/// streams at the share of its new peak that the measured memory reached of its own: streaming
/// work (the replay's memory-bound kernels, D2D copies and memsets) reaches 85-93% of the peak on
/// every GPU measured or cited here (H100 86%, H200 85%, A100 88%, V100 93%: the nodes'
/// stream_gbps), so a faster memory of the same kind keeps that efficiency, not the old rate.
void carry_streaming_efficiency(const Study& s, const topology::Node& start, topology::Node& node) {
  std::vector<bool> stream_set(node.endpoints.size(), false);
  for (const StudyAxis& a : s.axes)
    if (!a.whole_node && a.path.field == "memory.stream_gbps")
      for (int e : topology::select(node, a.path)) stream_set[static_cast<std::size_t>(e)] = true;
  for (std::size_t e = 0; e < node.endpoints.size(); ++e) {
    topology::MemorySpec& m = node.endpoints[e].memory;
    const topology::MemorySpec& was = start.endpoints[e].memory;
    if (stream_set[e] || m.stream_gbps <= 0 || was.bandwidth_gbps <= 0 || m.bandwidth_gbps == was.bandwidth_gbps)
      continue;
    m.stream_gbps = was.stream_gbps * m.bandwidth_gbps / was.bandwidth_gbps;
  }
}

}  // namespace

const topology::Node& Study::start_at(std::size_t p) const { return start_of(*this, coordinates(p)); }

topology::Node Study::node_at(std::size_t p) const {
  const std::vector<std::size_t> c = coordinates(p);
  const topology::Node& start = start_of(*this, c);
  topology::Node node = start;
  for (std::size_t k = 0; k < axes.size(); ++k)
    if (!axes[k].whole_node) topology::apply(node, axes[k].path, axes[k].values[c[k]]);
  carry_streaming_efficiency(*this, start, node);
  // Values each within its range may still disagree once a point has set them all (a streaming
  // rate above the peak another axis gives): that point is refused, as a node file would be.
  for (const topology::Endpoint& e : node.endpoints)
    if (const auto problem = topology::schema::endpoint_values_problem(e))
      throw InputError(fmt::format("{}: point {}: {}", file, p, *problem));
  return node;
}

std::vector<std::string> input_files(const Study& study) {
  std::vector<std::string> files{study.file, study.base_file};
  for (const StudyAxis& axis : study.axes)
    if (axis.whole_node) files.insert(files.end(), axis.values.begin(), axis.values.end());
  for (const StudyTrace& t : study.traces) {
    files.push_back(t.file);
    files.push_back(t.from_file);
  }
  return files;
}

Study load_study(const std::string& path) {
  const StudyReader r(path);
  const YAML::Node root = read_document(path);
  try {
    return read_study(r, root, path);
  } catch (const YAML::Exception& e) {
    // The readers check a node's type before they use it; should one slip, it is still bad input.
    throw InputError(fmt::format("{}: {}", e.mark.is_null() ? path : location(path, e.mark.line + 1, e.mark.column + 1),
                                 e.msg));
  }
}

}  // namespace linkcast::study
