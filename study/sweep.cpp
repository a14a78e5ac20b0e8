#include "study/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <thread>

#include "core/json.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "core/strings.hpp"
#include "core/table.hpp"
#include "core/units.hpp"
#include "sim/simulate.hpp"
#include "sim/render.hpp"
#include "topology/loader.hpp"
#include "trace/ranks.hpp"
#include "trace/reader.hpp"
#include "trace/select.hpp"
#include "synthetic/catalog.hpp"

namespace linkcast::study {

using projection::EndpointMap;
using projection::Projector;

using trace::Category;
using trace::kCategoryCount;
using trace::TraceIndex;

/// A trace read once, with its index (whose groups are the distinct operations a point prices)
/// and its source node.
struct Sweep::PreparedTrace {
  trace::Trace trace;
  std::unique_ptr<TraceIndex> index;
  topology::Node from;
  EndpointMap map;
};

namespace {

std::string fmt_num(double v) { return fmt::format("{:.9g}", v); }

/// A result no output can hold (a time that overflowed to infinity or became NaN, from values of
/// the point such as a latency of 1e300 ns) fails its item with a message, instead of reaching the
/// CSV as "inf" or the JSON as null.
void require_finite(ItemResult& item, const char* figure) {
  bool finite = std::isfinite(item.figure_s) && std::isfinite(item.bound_share);
  for (double v : item.model_totals_s) finite = finite && std::isfinite(v);
  for (double v : item.by_kind_s) finite = finite && std::isfinite(v);
  if (finite) return;
  item.ok = false;
  item.error = fmt::format("the {} is not a finite number ({} s); a value of this point makes it overflow", figure,
                           item.figure_s);
}

}  // namespace

Sweep::Sweep(const Study& study) : study_(&study) {
  for (const std::string& m : study.models) models_.push_back(&model::find_model(m));
  default_model_ = &model::find_model("default");
  sim_model_ = &model::find_model(study.sim_model);
  for (const StudyTrace& t : study.traces) {
    auto p = std::make_unique<PreparedTrace>();
    p->trace = trace::data_movement(trace::read_traces({t.file}));  // a job's folder too, as every command
    p->index = std::make_unique<TraceIndex>(p->trace);
    p->from = t.from_file == study.base_file ? study.base : topology::load_node(t.from_file);
    p->map = t.map;
    // The base node must accept the trace; a point that does not is reported per point.
    (void)Projector(p->from, study.base, *p->index, p->map, host_rates(study.base));
    traces_.push_back(std::move(p));
  }
}

Sweep::~Sweep() = default;

std::vector<std::pair<std::size_t, std::size_t>> Sweep::trace_sizes() const {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (const auto& t : traces_) out.emplace_back(t->index->group_first.size(), t->trace.size());
  return out;
}

PointResult Sweep::evaluate(std::size_t point) const { return evaluate(point, {}); }

PointResult Sweep::evaluate(std::size_t point, const std::function<void(double)>& within) const {
  try {
    return evaluate_node(point, study_->node_at(point), within);
  } catch (const InputError& e) {
    PointResult r;
    r.point = point;
    r.items.resize(items());
    for (ItemResult& item : r.items) {
      item.ok = false;
      item.error = e.what();
    }
    return r;
  }
}

PointResult Sweep::evaluate_base() const { return evaluate_node(kBasePoint, study_->base); }

PointResult Sweep::evaluate_node(std::size_t point, const topology::Node& node,
                                 const std::function<void(double)>& within) const {
  PointResult r;
  r.point = point;
  r.node_name = node.name;
  const std::vector<const model::Model*>& models = models_;
  const double item_count = static_cast<double>(std::max<std::size_t>(1, items()));
  // Item k done to `share` (0 to 1): the point's share done.
  auto advance = [&](std::size_t k, double share) {
    if (within) within((static_cast<double>(k) + std::clamp(share, 0.0, 1.0)) / item_count);
  };
  // The node the point starts from, whose host rates its axes did not vary.
  const projection::HostRateChoice host = host_rates(point == kBasePoint ? study_->base : study_->start_at(point));
  for (const auto& t : traces_) {
    advance(r.items.size(), 0.0);
    ItemResult item;
    try {
      const Projector projector(t->from, node, *t->index, t->map, host);
      item.model_totals_s.assign(models.size(), 0.0);
      // Time per bound (few distinct ones: a linear search beats formatting names per group).
      std::vector<std::pair<Projector::Bound, double>> bounds;
      const TraceIndex& index = *t->index;
      const std::vector<double> times = projector.group_times(models);
      for (std::size_t g = 0; g < index.group_first.size(); ++g) {
        const std::size_t first = index.group_first[g];
        for (std::size_t m = 0; m < models.size(); ++m) {
          const double one = times[g * models.size() + m];
          const double ns = one * index.group_count[g];
          item.model_totals_s[m] += ns / 1e9;
          if (m == 0) {
            item.by_kind_s[static_cast<std::size_t>(projector.category(first))] += ns / 1e9;
            const double default_ns = models[m] == default_model_ ? one : -1.0;
            const Projector::Bound b = projector.bound(first, default_ns);
            auto at = std::find_if(bounds.begin(), bounds.end(), [&](const auto& e) { return e.first == b; });
            if (at == bounds.end()) bounds.emplace_back(b, ns);
            else at->second += ns;
          }
        }
      }
      item.figure_s = item.model_totals_s.front();
      std::map<std::string, double> bound;  // links of one class on different hops count together
      for (const auto& [b, ns] : bounds) bound[b.describe()] += ns;
      double total = 0;
      for (const auto& [name, ns] : bound) total += ns;
      const auto top = std::max_element(bound.begin(), bound.end(),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
      if (top != bound.end() && total > 0) {
        item.bound_by = top->first;
        item.bound_share = top->second / total;
      }
      require_finite(item, "projected time");
    } catch (const InputError& e) {
      item.ok = false;
      item.error = e.what();
    }
    r.items.push_back(std::move(item));
  }
  for (const StudyWorkload& w : study_->workloads) {
    ItemResult item;
    const std::size_t k = r.items.size();
    advance(k, 0.0);
    try {
      const synthetic::WorkloadRun run = synthetic::run_workload_full(w.spec, &node, synthetic::kMaxSimulatedWorkloadOps);
      sim::SimOptions options;
      options.model = sim_model_;
      // The simulation's events, of about as many as it has tasks.
      if (within)
        options.progress = [&](std::uint64_t done, std::uint64_t total) {
          advance(k, total > 0 ? 0.95 * static_cast<double>(done) / static_cast<double>(total) : 0.0);
        };
      sim::apply_collective_config(run.collectives, options);
      const sim::SimResult result = sim::simulate(node, run.trace, options);
      item.figure_s = result.makespan_ns / 1e9;
      const auto busiest = std::max_element(result.links.begin(), result.links.end(), [](const auto& a, const auto& b) {
        return a.utilisation < b.utilisation;
      });
      if (busiest != result.links.end()) {
        item.bound_by = node.links[static_cast<std::size_t>(busiest->link)].spec.describe() + " " +
                        sim::link_name(node, *busiest);
        item.bound_share = busiest->utilisation;
      }
      require_finite(item, "simulated makespan");
    } catch (const InputError& e) {
      item.ok = false;
      item.error = e.what();
    }
    r.items.push_back(std::move(item));
  }
  return r;
}

std::vector<PointResult> Sweep::run(const std::vector<std::size_t>& points, int threads,
                                    const std::function<void(double)>& progress) const {
  std::vector<PointResult> out(points.size());
  std::atomic<std::size_t> next{0}, done{0};
  const int n = std::max(1, std::min<int>(threads, static_cast<int>(points.size())));
  // Per worker, the share of its current point done: the points done plus these is the progress.
  std::vector<std::atomic<double>> running(static_cast<std::size_t>(n));
  for (auto& r : running) r.store(0.0);
  auto report = [&] {
    double f = static_cast<double>(done.load());
    for (const auto& r : running) f += r.load();
    progress(f);
  };
  auto worker = [&](std::size_t slot) {
    const SerialWorker serial;  // its projections stay on this thread: the sweep fills every core
    std::function<void(double)> within;
    if (progress)
      within = [&, slot](double share) {
        running[slot].store(share);
        report();
      };
    for (std::size_t k = next++; k < points.size(); k = next++) {
      out[k] = evaluate(points[k], within);
      running[slot].store(0.0);
      ++done;
      if (progress) report();
    }
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < n; ++i) pool.emplace_back(worker, static_cast<std::size_t>(i));
  worker(0);
  for (auto& t : pool) t.join();
  return out;
}

namespace {

struct Columns {
  std::vector<std::string> item_names, item_types;
  std::vector<Category> kinds;
};

Columns columns(const Sweep& sweep, const PointResult& base) {
  Columns c;
  for (const auto& t : sweep.study().traces) {
    c.item_names.push_back(t.name);
    c.item_types.push_back("trace");
  }
  for (const auto& w : sweep.study().workloads) {
    c.item_names.push_back(w.name);
    c.item_types.push_back("workload");
  }
  // Kinds: those with time on the base node (the same operations exist on every point).
  for (std::size_t k = 0; k < kCategoryCount; ++k)
    for (const ItemResult& item : base.items)
      if (item.ok && item.by_kind_s[k] > 0) {
        c.kinds.push_back(static_cast<Category>(k));
        break;
      }
  return c;
}

}  // namespace

void write_results_csv(const Sweep& sweep, const PointResult& base, const std::vector<PointResult>& rows,
                       std::ostream& out) {
  const Study& s = sweep.study();
  const Columns c = columns(sweep, base);
  // A node axis has no column of its own: the node column names each point's node.
  std::string header = "point";
  for (const StudyAxis& a : s.axes)
    if (!a.whole_node) header += "," + csv_field(a.name);
  header += ",node,item,type,status,figure_s,speedup";
  for (const std::string& m : s.models) header += ",total_" + m + "_s";
  for (Category k : c.kinds) header += fmt::format(",time_{}_s", to_string(k));
  header += ",bound_by,bound_share,error\n";
  out << header;
  auto write_row = [&](const PointResult& p, const std::string& point_label, const std::vector<std::string>& labels) {
    for (std::size_t i = 0; i < p.items.size(); ++i) {
      const ItemResult& item = p.items[i];
      std::string row = point_label;
      for (const std::string& l : labels) row += "," + csv_field(l);
      row += fmt::format(",{},{},{},{}", csv_field(p.node_name), csv_field(c.item_names[i]), c.item_types[i],
                         item.ok ? "ok" : "failed");
      const ItemResult& b = base.items[i];
      if (item.ok) {
        const double speedup = b.ok && item.figure_s > 0 ? b.figure_s / item.figure_s : 0.0;
        row += "," + fmt_num(item.figure_s) + "," + (speedup > 0 && std::isfinite(speedup) ? fmt_num(speedup) : "");
        for (std::size_t m = 0; m < s.models.size(); ++m)
          row += "," + (m < item.model_totals_s.size() ? fmt_num(item.model_totals_s[m]) : std::string());
        for (Category k : c.kinds)
          row += "," + (c.item_types[i] == "trace" ? fmt_num(item.by_kind_s[static_cast<std::size_t>(k)]) : std::string());
        row += "," + csv_field(item.bound_by) + "," + fmt_num(item.bound_share) + ",";
      } else {
        row += ",,";
        for (std::size_t m = 0; m < s.models.size() + c.kinds.size(); ++m) row += ",";
        row += ",," + csv_field(item.error);
      }
      out << row << "\n";
    }
  };
  std::vector<std::string> base_labels;
  for (const StudyAxis& a : s.axes)
    if (!a.whole_node) base_labels.emplace_back("base");
  write_row(base, "base", base_labels);
  for (const PointResult& p : rows) {
    std::vector<std::string> labels;
    const auto coords = s.coordinates(p.point);
    for (std::size_t k = 0; k < s.axes.size(); ++k)
      if (!s.axes[k].whole_node) labels.push_back(s.axes[k].labels[coords[k]]);
    write_row(p, std::to_string(p.point), labels);
  }
}

void write_results_json(const Sweep& sweep, const PointResult& base, const std::vector<PointResult>& rows,
                        std::ostream& out) {
  using nlohmann::json;
  const Study& s = sweep.study();
  const Columns c = columns(sweep, base);
  auto item_json = [&](const PointResult& p, std::size_t i) {
    const ItemResult& item = p.items[i];
    json j = {{"item", c.item_names[i]}, {"type", c.item_types[i]}, {"status", item.ok ? "ok" : "failed"}};
    if (!item.ok) {
      j["error"] = item.error;
      return j;
    }
    j["figure_s"] = item.figure_s;
    if (base.items[i].ok && item.figure_s > 0) j["speedup"] = base.items[i].figure_s / item.figure_s;
    if (c.item_types[i] == "trace") {
      for (std::size_t m = 0; m < s.models.size(); ++m) j["total_s"][s.models[m]] = item.model_totals_s[m];
      for (Category k : c.kinds) j["time_s"][std::string(to_string(k))] = item.by_kind_s[static_cast<std::size_t>(k)];
    }
    j["bound_by"] = item.bound_by;
    j["bound_share"] = item.bound_share;
    return j;
  };
  json j;
  j["study"] = s.name;
  j["base"] = {{"node", base.node_name}};
  for (std::size_t i = 0; i < base.items.size(); ++i) j["base"]["items"].push_back(item_json(base, i));
  j["axes"] = json::array();
  for (const StudyAxis& a : s.axes) j["axes"].push_back({{"path", a.name}, {"values", a.labels}});
  j["points"] = json::array();
  for (const PointResult& p : rows) {
    json jp = {{"point", p.point}, {"node", p.node_name}};
    const auto coords = s.coordinates(p.point);
    for (std::size_t k = 0; k < s.axes.size(); ++k) jp["values"][s.axes[k].name] = s.axes[k].labels[coords[k]];
    for (std::size_t i = 0; i < p.items.size(); ++i) jp["items"].push_back(item_json(p, i));
    j["points"].push_back(jp);
  }
  out << dump_json(j, 1, "sweep results") << "\n";
}

std::string summarize_sweep(const Sweep& sweep, const PointResult& base, const std::vector<PointResult>& rows) {
  const Study& s = sweep.study();
  const Columns c = columns(sweep, base);
  std::string out;
  std::size_t failed = 0;
  for (const PointResult& p : rows)
    for (const ItemResult& i : p.items) failed += i.ok ? 0 : 1;
  out += fmt::format("Study {}: {} points x {} traces/workloads; {} evaluations failed\n", s.name, rows.size(),
                     c.item_names.size(), failed);
  const auto first_failed = std::find_if(rows.begin(), rows.end(), [](const PointResult& p) {
    return std::any_of(p.items.begin(), p.items.end(), [](const ItemResult& i) { return !i.ok; });
  });
  if (first_failed != rows.end()) {
    for (std::size_t i = 0; i < first_failed->items.size(); ++i)
      if (!first_failed->items[i].ok) {
        out += fmt::format("  first failure: point {} ({}): {}\n", first_failed->point, c.item_names[i],
                           first_failed->items[i].error);
        break;
      }
  }
  auto describe_point = [&](const PointResult& p) {
    std::vector<std::string> parts;
    const auto coords = s.coordinates(p.point);
    for (std::size_t k = 0; k < s.axes.size(); ++k) parts.push_back(s.axes[k].name + "=" + s.axes[k].labels[coords[k]]);
    return join(parts, ", ");
  };

  out += "\nBest point per trace/workload (figure: projected transfer time, or simulated makespan)\n";
  TextTable best({"item", "base", "best", "speed-up", "point"},
                 {TextTable::Align::left, TextTable::Align::right, TextTable::Align::right, TextTable::Align::right,
                  TextTable::Align::left});
  for (std::size_t i = 0; i < c.item_names.size(); ++i) {
    const PointResult* b = nullptr;
    for (const PointResult& p : rows)
      if (p.items[i].ok && (!b || p.items[i].figure_s < b->items[i].figure_s)) b = &p;
    if (!b || !base.items[i].ok) continue;
    best.add_row({c.item_names[i], format_duration_ns(base.items[i].figure_s * 1e9),
                  format_duration_ns(b->items[i].figure_s * 1e9),
                  b->items[i].figure_s > 0 ? fmt::format("{:.2f}x", base.items[i].figure_s / b->items[i].figure_s) : "-",
                  fmt::format("{}: {}", b->point, describe_point(*b))});
  }
  out += best.render();

  // Sensitivity: along each ordered axis, the mean relative change of the figure per step, over
  // every setting of the other axes. A node axis is a list of files in no order: each node is
  // compared with the first one instead, and no "per step" is made of it.
  const bool any_node_axis =
      std::any_of(s.axes.begin(), s.axes.end(), [](const StudyAxis& a) { return a.whole_node && a.values.size() > 1; });
  out += "\nSensitivity: mean change of the figure per step along each axis (over all other settings)";
  out += any_node_axis ? ";\na node axis, a list in no order: each node against the first\n" : "\n";
  std::vector<std::string> header = {"axis", "step"};
  for (const auto& n : c.item_names) header.push_back(n);
  TextTable sens(header);
  // per_axis_mean[k][i]: an ordered axis' mean change per step; vs_first[k][v][i]: a node axis'
  // node v against its first (NaN where no pair was evaluated).
  std::vector<std::vector<double>> per_axis_mean(s.axes.size(), std::vector<double>(c.item_names.size(), 0.0));
  std::vector<std::vector<std::vector<double>>> vs_first(s.axes.size());
  std::map<std::size_t, const PointResult*> by_point;
  for (const PointResult& p : rows) by_point[p.point] = &p;
  std::size_t stride = 1;
  std::vector<std::size_t> strides(s.axes.size());
  for (std::size_t k = s.axes.size(); k-- > 0;) {
    strides[k] = stride;
    stride *= s.axes[k].values.size();
  }
  for (std::size_t k = 0; k < s.axes.size(); ++k) {
    const StudyAxis& a = s.axes[k];
    const std::size_t steps = a.values.size() - 1;
    // Ordered: each point adds its step v -> v + 1 to the sums of v. Node axis: each point with
    // node v > 0 adds its change against the same point with the first node to the sums of v - 1.
    std::vector<double> sums(steps * c.item_names.size(), 0.0);
    std::vector<std::size_t> counts(sums.size(), 0);
    for (const auto& [index, p] : by_point) {
      const std::size_t v = (index / strides[k]) % a.values.size();
      const PointResult* from = p;
      const PointResult* to = nullptr;
      std::size_t slot = v;
      if (a.whole_node) {
        if (v == 0) continue;
        const auto it = by_point.find(index - v * strides[k]);
        if (it == by_point.end()) continue;
        from = it->second;
        to = p;
        slot = v - 1;
      } else {
        if (v + 1 >= a.values.size()) continue;
        const auto it = by_point.find(index + strides[k]);
        if (it == by_point.end()) continue;
        to = it->second;
      }
      for (std::size_t i = 0; i < c.item_names.size(); ++i) {
        if (!from->items[i].ok || !to->items[i].ok || from->items[i].figure_s <= 0) continue;
        const double change = (to->items[i].figure_s - from->items[i].figure_s) / from->items[i].figure_s;
        if (!std::isfinite(change)) continue;  // a figure of 1e-300 s: no meaningful ratio
        sums[slot * c.item_names.size() + i] += change;
        ++counts[slot * c.item_names.size() + i];
      }
    }
    if (a.whole_node) vs_first[k].assign(steps, std::vector<double>(c.item_names.size(), std::nan("")));
    for (std::size_t v = 0; v < steps; ++v) {
      std::vector<std::string> row = {
          a.name, a.whole_node ? a.labels[v + 1] + " vs " + a.labels[0] : a.labels[v] + " -> " + a.labels[v + 1]};
      for (std::size_t i = 0; i < c.item_names.size(); ++i) {
        const std::size_t n = counts[v * c.item_names.size() + i];
        const double mean = n ? 100.0 * sums[v * c.item_names.size() + i] / static_cast<double>(n) : 0.0;
        if (a.whole_node) {
          if (n) vs_first[k][v][i] = mean;
        } else {
          per_axis_mean[k][i] += mean / static_cast<double>(steps);
        }
        row.push_back(n ? format_signed_pct(mean, 1) : "-");
      }
      sens.add_row(row);
    }
  }
  out += sens.render();

  out += "\nVerdict (base node): what bounds each trace/workload, and what each axis buys\n";
  for (std::size_t i = 0; i < c.item_names.size(); ++i) {
    const ItemResult& b = base.items[i];
    if (!b.ok) {
      out += fmt::format("  {}: failed on the base node: {}\n", c.item_names[i], b.error);
      continue;
    }
    out += fmt::format("  {}: bound by {} ({:.0f}% {})\n", c.item_names[i], b.bound_by.empty() ? "-" : b.bound_by,
                       100.0 * b.bound_share, c.item_types[i] == "trace" ? "of the projected time" : "utilisation");
    for (std::size_t k = 0; k < s.axes.size(); ++k) {
      const StudyAxis& a = s.axes[k];
      if (a.values.size() < 2) continue;
      if (a.whole_node) {
        // The fastest and the slowest node against the first (which is 0%).
        std::size_t fastest = 0, slowest = 0;
        double low = 0, high = 0;
        for (std::size_t v = 0; v + 1 < a.values.size(); ++v) {
          const double m = vs_first[k][v][i];
          if (std::isnan(m)) continue;
          if (m < low) low = m, fastest = v + 1;
          if (m > high) high = m, slowest = v + 1;
        }
        auto against = [&](std::size_t v, double m) {
          return v == 0 ? a.labels[0] : fmt::format("{} ({} against {})", a.labels[v], format_signed_pct(m, 1), a.labels[0]);
        };
        if (fastest == 0 && slowest == 0)
          out += fmt::format("    {}: no node differs from {}\n", a.name, a.labels[0]);
        else
          out += fmt::format("    {}: fastest {}, slowest {}\n", a.name, against(fastest, low), against(slowest, high));
        continue;
      }
      const double m = per_axis_mean[k][i];
      const char* verdict = std::fabs(m) >= 5.0  ? "under-provisioned: each step pays"
                            : std::fabs(m) < 1.0 ? "over-provisioned: a step buys nothing"
                                                 : "balanced: a step buys a little";
      out += fmt::format("    {}: {} per step -> {}\n", a.name, format_signed_pct(m, 1), verdict);
    }
  }
  return out;
}

}  // namespace linkcast::study
