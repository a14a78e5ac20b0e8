// The views built from matrix::Report: Snoopie's system (with ComScribe's heatmaps), object,
// code and device views, and mpisee's communicator view.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

#include "core/strings.hpp"
#include "core/units.hpp"
#include "report/charts.hpp"
#include "report/html.hpp"
#include "report/views.hpp"
#include "topology/describe.hpp"

namespace linkcast::report {

namespace {

using matrix::CommType;
using matrix::kCommTypeCount;

double dbl(std::uint64_t v) {
  return static_cast<double>(v);
}
std::string count_text(double v) {
  return thousands(static_cast<std::uint64_t>(std::max(v, 0.0)));
}
std::string share(double part, double whole) {
  return whole > 0 ? percent(part / whole) : "-";
}

/// A full matrix table for a few endpoints; the busiest pairs for many.
std::string matrix_table(const Context& c, const std::vector<std::uint64_t>& values, bool bytes,
                         const std::string& id) {
  const auto& labels = c.m.endpoints;
  const std::size_t n = labels.size();
  auto cell = [&](double v) {
    if (v == 0) return Cell{"0", "0", ""};
    return bytes ? bytes_cell(v) : count_cell(static_cast<std::uint64_t>(v));
  };
  const double total = dbl(std::accumulate(values.begin(), values.end(), std::uint64_t{0}));
  if (n <= 16) {
    std::vector<HtmlTable::Column> cols{{bytes ? "bytes: from \\ to" : "transfers: from \\ to"}};
    for (const auto& l : labels) cols.push_back({l, true});
    cols.push_back({"sent", true});
    HtmlTable t(cols, id);
    std::vector<double> received(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<Cell> row{text_cell(labels[i])};
      double sent = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const double v = dbl(values[i * n + j]);
        row.push_back(cell(v));
        sent += v;
        received[j] += v;
      }
      row.push_back(cell(sent));
      t.add_row(std::move(row));
    }
    std::vector<Cell> foot{text_cell("received")};
    for (double v : received) foot.push_back(cell(v));
    foot.push_back(cell(total));
    t.set_footer(std::move(foot));
    return t.render();
  }
  std::vector<std::size_t> idx;
  for (std::size_t k = 0; k < values.size(); ++k)
    if (values[k] > 0) idx.push_back(k);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return values[a] > values[b]; });
  HtmlTable t({{"from"}, {"to"}, {bytes ? "bytes" : "transfers", true}, {"share", true}}, id);
  for (std::size_t r = 0; r < idx.size() && r < c.opt.max_rows; ++r) {
    const double v = dbl(values[idx[r]]);
    t.add_row({text_cell(labels[idx[r] / n]), text_cell(labels[idx[r] % n]), cell(v),
               number_cell(v / std::max(total, 1.0), share(v, total))});
  }
  if (idx.size() > c.opt.max_rows) {
    double rest = 0;
    for (std::size_t r = c.opt.max_rows; r < idx.size(); ++r) rest += dbl(values[idx[r]]);
    t.set_more(fmt::format("{} more pairs: {}", idx.size() - c.opt.max_rows,
                           bytes ? human_bytes(rest) : count_text(rest) + " transfers"));
  }
  t.set_footer({text_cell("all pairs"), text_cell(""), cell(total), text_cell("")});
  return t.render();
}

std::string heatmap_pair(const Context& c, const matrix::Matrix& mat, bool bytes, const std::string& key) {
  MatrixHeatmap h;
  h.id = fmt::format("heat-{}-{}", key, bytes ? "bytes" : "count");
  h.labels = c.m.endpoints;
  const auto& src = bytes ? mat.bytes : mat.count;
  h.values.resize(src.size());
  std::transform(src.begin(), src.end(), h.values.begin(), [](std::uint64_t v) { return dbl(v); });
  h.format = bytes ? Formatter(human_bytes) : Formatter(count_text);
  h.short_format = bytes ? Formatter(format_bytes_compact) : Formatter(short_count);
  h.unit = bytes ? "bytes" : "transfers";
  h.check = fmt::format("sum-{}-{}", key, bytes ? "bytes" : "count");
  const double total = dbl(bytes ? mat.total_bytes() : mat.total_count());
  return pair_block(matrix_heatmap_svg(h),
                    matrix_table(c, src, bytes, fmt::format("table-{}-{}", key, bytes ? "bytes" : "count"))) +
         check_line(h.check, total, fmt::format("{} in the cells of this heatmap:", bytes ? "bytes" : "transfers"));
}

/// Aggregated attribution: one key (object, line or device) with its totals and per-series
/// bytes. Strings are views into the matrix report's rows and static names, which outlive the
/// page; a trace may hold millions of rows, so nothing is copied per row.
struct Agg {
  std::string_view key;
  std::uint64_t bytes = 0, count = 0;
  std::vector<std::pair<std::string_view, std::uint64_t>> by_series;  // issuer or type -> bytes
  std::vector<std::string_view> issuers;                              // distinct
  void add_series(std::string_view name, std::uint64_t b) {
    for (auto& [k, v] : by_series)
      if (k == name) {
        v += b;
        return;
      }
    by_series.emplace_back(name, b);
  }
  void add_issuer(std::string_view name) {
    if (std::find(issuers.begin(), issuers.end(), name) == issuers.end()) issuers.push_back(name);
  }
};

/// Stacked bars of the top aggregates (series = the `series_cap` largest series overall, the
/// rest as "other"), with one more bar for everything below the cap, so that the bars add up
/// to the whole.
BarChart stacked_chart(const std::string& id, const std::vector<Agg>& aggs, std::size_t shown, std::string_view what,
                       const std::string& check) {
  std::unordered_map<std::string_view, std::uint64_t> series_total;
  for (const Agg& a : aggs)
    for (const auto& [name, b] : a.by_series) series_total[name] += b;
  std::vector<std::pair<std::string_view, std::uint64_t>> series(series_total.begin(), series_total.end());
  std::sort(series.begin(), series.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  constexpr std::size_t kSeriesCap = 8;
  const bool other = series.size() > kSeriesCap;
  if (other) series.resize(kSeriesCap);
  BarChart chart;
  chart.id = id;
  chart.check = check;
  chart.format = human_bytes;
  std::unordered_map<std::string_view, std::size_t> series_index;
  for (const auto& [name, b] : series) {
    series_index[name] = chart.series.size();
    chart.series.emplace_back(name);
  }
  if (other) chart.series.push_back("other");
  auto add = [&](BarRow& row, const Agg& a) {
    for (const auto& [name, b] : a.by_series) {
      const auto it = series_index.find(name);
      row.values[it == series_index.end() ? chart.series.size() - 1 : it->second] += dbl(b);
    }
  };
  for (std::size_t r = 0; r < aggs.size() && r < shown; ++r) {
    BarRow row{std::string(aggs[r].key), std::vector<double>(chart.series.size(), 0.0),
               fmt::format("{} in {} transfers", human_bytes(dbl(aggs[r].bytes)), thousands(aggs[r].count))};
    add(row, aggs[r]);
    chart.rows.push_back(std::move(row));
  }
  if (aggs.size() > shown) {
    BarRow row{fmt::format("{} more {}", aggs.size() - shown, what), std::vector<double>(chart.series.size(), 0.0), ""};
    for (std::size_t r = shown; r < aggs.size(); ++r) add(row, aggs[r]);
    chart.rows.push_back(std::move(row));
  }
  return chart;
}

void sort_aggs(std::vector<Agg>& aggs) {
  std::sort(aggs.begin(), aggs.end(),
            [](const Agg& a, const Agg& b) { return a.bytes != b.bytes ? a.bytes > b.bytes : a.key < b.key; });
}

/// "a, b, c" (sorted), or "a, b, c, +N more" beyond four.
std::string name_list(std::vector<std::string_view> names) {
  std::sort(names.begin(), names.end());
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i == 3 && names.size() > 4) return out + fmt::format(", +{} more", names.size() - 3);
    out += (out.empty() ? "" : ", ") + std::string(names[i]);
  }
  return out;
}

/// How the page's collectives were decomposed: as the simulation ran them ("ring, 12 channels"),
/// each distinct algorithm and channel count once.
std::string decomposition_text(const Context& c) {
  std::vector<std::pair<nccl::CollAlgo, int>> seen;  // in the order first met
  for (const sim::CollectiveResult& call : c.sim.collectives) {
    if (call.channels == 0) continue;  // nothing moved between ranks
    const std::pair<nccl::CollAlgo, int> way{call.algo, call.channels};
    if (std::find(seen.begin(), seen.end(), way) == seen.end()) seen.push_back(way);
  }
  std::vector<std::string> ways;
  for (const auto& [algo, channels] : seen)
    ways.push_back(fmt::format("{}, {} channel{}", nccl::to_string(algo), channels, channels == 1 ? "" : "s"));
  if (ways.empty()) return fmt::format("({})", nccl::to_string(c.m.collectives.algo));
  return "as the timeline simulated them (" + join(ways, "; ") + ")";
}

/// The members the collectives were taken to include without a record (matrix::Options::ran).
std::string unrecorded_ranks_note(const matrix::Report& m) {
  if (m.unrecorded_ranks.empty()) return "";
  return fmt::format(
      " The trace has no record of {} in {} collective calls: as in the simulation, {} part in them ({} sent, "
      "under the object and line of the call's first record), so that the matrices, the topology and the timeline "
      "show the same transfers; the communicator table and the checks say what was recorded.",
      join(m.unrecorded_ranks, ", "), thousands(m.unrecorded_calls),
      m.unrecorded_ranks.size() == 1 ? "it took" : "they took", human_bytes(dbl(m.unrecorded_bytes)));
}

}  // namespace

std::string system_section(const Context& c) {
  const matrix::Report& m = c.m;
  std::string out = section_open(
      "system", "System view",
      fmt::format("Who sent what to whom (Snoopie's system view, ComScribe's matrices): rows send, columns receive, "
                  "host first. {} in {} transfers between {} endpoints; collectives are decomposed into the peer "
                  "transfers NCCL makes {}.{} Cells are coloured on a log scale; hover for exact values.",
                  human_bytes(dbl(m.total.total_bytes())), thousands(m.total.total_count()), m.endpoints.size(),
                  decomposition_text(c), unrecorded_ranks_note(m)));
  out += fmt::format("<h3>All communication types: {} in {} transfers</h3>", human_bytes(dbl(m.total.total_bytes())),
                     thousands(m.total.total_count()));
  out += heatmap_pair(c, m.total, true, "system");
  out += heatmap_pair(c, m.total, false, "system");

  // The GPU graph: endpoints with traffic, edges with widths by bytes.
  const std::size_t n = m.endpoints.size();
  std::vector<std::size_t> shown;
  std::vector<std::size_t> graph_index(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    if (m.total.sent_bytes(i) + m.total.received_bytes(i) > 0) {
      graph_index[i] = shown.size();
      shown.push_back(i);
    }
  std::vector<GraphNode> nodes;
  for (std::size_t i : shown) {
    const double sent = dbl(m.total.sent_bytes(i)), received = dbl(m.total.received_bytes(i));
    const double within = dbl(m.total.bytes_at(i, i));
    nodes.push_back({m.endpoints[i], sent + received,
                     fmt::format("{}: sent {} ({} B), received {} ({} B){}", m.endpoints[i], human_bytes(sent),
                                 exact(sent), human_bytes(received), exact(received),
                                 within > 0 ? fmt::format(", of which {} within itself", human_bytes(within)) : "")});
  }
  auto route_text = [&](std::size_t i, std::size_t j) -> std::string {
    const int a = c.node.find(m.endpoints[i]), b = c.node.find(m.endpoints[j]);
    if (a < 0 || b < 0) return "-";
    const topology::Path& p = c.routes.path(a, b);
    if (i == j) return "within";
    return fmt::format("{}, {} hop{}", topology::pair_class(c.node, p), p.hops, p.hops == 1 ? "" : "s");
  };
  std::vector<GraphEdge> edges;
  struct PairRow {
    std::size_t i, j;
    std::uint64_t bytes, count;
  };
  std::vector<PairRow> pairs;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint64_t b = m.total.bytes_at(i, j);
      if (b == 0 && m.total.count_at(i, j) == 0) continue;
      pairs.push_back({i, j, b, m.total.count_at(i, j)});
      if (i == j || b == 0) continue;
      edges.push_back({graph_index[i], graph_index[j], dbl(b),
                       fmt::format("{} \u2192 {}: {} ({} B) in {} transfers; route {}", m.endpoints[i], m.endpoints[j],
                                   human_bytes(dbl(b)), b, thousands(m.total.count_at(i, j)), route_text(i, j))});
    }
  std::stable_sort(pairs.begin(), pairs.end(), [](const PairRow& a, const PairRow& b) { return a.bytes > b.bytes; });
  const double total = dbl(m.total.total_bytes());
  HtmlTable pt({{"from"}, {"to"}, {"bytes", true}, {"transfers", true}, {"share", true}, {"route on the node"}},
               "table-pairs");
  for (std::size_t r = 0; r < pairs.size() && r < c.opt.max_rows; ++r) {
    const PairRow& p = pairs[r];
    pt.add_row({text_cell(m.endpoints[p.i]), text_cell(m.endpoints[p.j]), bytes_cell(dbl(p.bytes)), count_cell(p.count),
                number_cell(dbl(p.bytes) / std::max(total, 1.0), share(dbl(p.bytes), total)),
                text_cell(route_text(p.i, p.j))});
  }
  if (pairs.size() > c.opt.max_rows) pt.set_more(fmt::format("{} more pairs", pairs.size() - c.opt.max_rows));
  out +=
      "<h3>Communication graph</h3><p class=\"note\">Each endpoint with traffic is a circle (area by bytes sent "
      "and received); each arrow a sender-receiver pair, its width by bytes. Routes are the node's "
      "(nvidia-smi topo classes).</p>";
  double graph_bytes = 0;
  for (const GraphEdge& e : edges) graph_bytes += e.value;
  out += pair_block(flow_graph_svg("graph-system", nodes, edges, "sum-graph-bytes"), pt.render());
  out += check_line("sum-graph-bytes", graph_bytes, "bytes on the arrows (between different endpoints):");

  // Per type.
  out += "<h3>Per communication type</h3>";
  std::size_t types = 0;
  for (std::size_t t = 0; t < kCommTypeCount; ++t) {
    const matrix::Matrix& mat = m.by_type[t];
    if (mat.total_count() == 0 && m.ops_by_type[t] == 0) continue;
    ++types;
    const auto type = static_cast<CommType>(t);
    out += fmt::format(
        "<div class=\"type\" data-type=\"{}\"><h4>{}: {} in {} transfers ({} trace records)</h4><p "
        "class=\"note\">{}</p>",
        escape(matrix::to_string(type)), escape(matrix::to_string(type)), human_bytes(dbl(mat.total_bytes())),
        thousands(mat.total_count()), thousands(m.ops_by_type[t]), escape(matrix::describe(type)));
    const std::string key = "type-" + std::string(matrix::to_string(type));
    out += heatmap_pair(c, mat, true, key);
    out += heatmap_pair(c, mat, false, key);
    out += "</div>";
  }
  if (types == 0) out += "<p class=\"note\">No transfers between endpoints.</p>";
  out += "</section>";
  return out;
}

std::string objects_section(const Context& c) {
  const matrix::Report& m = c.m;
  std::string out = section_open(
      "objects", "Object view",
      "Per endpoint, the data objects in its memory (allocation name and call site) and who moved them (Snoopie's "
      "object view): bars by issuing device, \"(host API)\" for copies the host asked for.");
  // Per owner (an endpoint of the report): its objects aggregated, and its rows (by bytes, as
  // m.objects). Owners are few: found by a linear search that remembers the last one.
  struct Owner {
    std::unordered_map<std::string_view, std::uint32_t> index;
    std::vector<Agg> aggs;
    std::vector<const matrix::AttributionRow*> rows;
  };
  std::vector<Owner> owners(m.endpoints.size());
  std::size_t last = 0;
  auto owner_of = [&](std::string_view name) {
    if (last < m.endpoints.size() && m.endpoints[last] == name) return last;
    for (std::size_t i = 0; i < m.endpoints.size(); ++i)
      if (m.endpoints[i] == name) return last = i;
    return m.endpoints.size();
  };
  bool any_named = false;
  for (const matrix::AttributionRow& r : m.objects) {
    const std::size_t o = owner_of(r.owner);
    if (o == owners.size()) continue;
    Owner& owner = owners[o];
    const auto [it, fresh] = owner.index.try_emplace(r.key, static_cast<std::uint32_t>(owner.aggs.size()));
    if (fresh) owner.aggs.push_back(Agg{r.key, 0, 0, {}, {}});
    Agg& a = owner.aggs[it->second];
    a.bytes += r.bytes;
    a.count += r.count;
    a.add_series(r.issuer, r.bytes);
    owner.rows.push_back(&r);
    any_named = any_named || r.key != "(unknown)";
  }
  if (m.objects.empty()) return out + "<p class=\"note\">No transfers to attribute.</p></section>";
  if (!any_named)
    out +=
        "<p class=\"note\">The trace names no data objects (no <code>object</code> column or allocation records): "
        "everything is under (unknown).</p>";
  std::vector<std::pair<std::string, std::string>> tabs;
  std::string panels;
  for (std::size_t o = 0; o < owners.size(); ++o) {
    const std::string& owner = m.endpoints[o];
    if (owners[o].rows.empty()) continue;
    std::vector<Agg>& aggs = owners[o].aggs;
    std::uint64_t owner_bytes = 0, owner_count = 0;
    for (const Agg& a : aggs) {
      owner_bytes += a.bytes;
      owner_count += a.count;
    }
    sort_aggs(aggs);
    const std::string panel = "objects-" + owner;
    tabs.emplace_back(panel, fmt::format("{} ({})", owner, human_bytes(dbl(owner_bytes))));
    const BarChart chart = stacked_chart("chart-" + panel, aggs, c.chart_rows(), "objects", "sum-" + panel);
    HtmlTable t(
        {{"object"}, {"issued by"}, {"type"}, {"bytes", true}, {"transfers", true}, {"share of its bytes", true}},
        "table-" + panel);
    std::size_t rows = 0, more_rows = 0;
    std::uint64_t more_bytes = 0, more_count = 0;
    for (const matrix::AttributionRow* row : owners[o].rows) {
      const matrix::AttributionRow& r = *row;
      if (rows < c.opt.max_rows) {
        t.add_row({text_cell(r.key), text_cell(r.issuer), text_cell(std::string(matrix::to_string(r.type))),
                   bytes_cell(dbl(r.bytes)), count_cell(r.count),
                   number_cell(dbl(r.bytes) / std::max(dbl(owner_bytes), 1.0), share(dbl(r.bytes), dbl(owner_bytes)))});
        ++rows;
      } else {
        ++more_rows;
        more_bytes += r.bytes;
        more_count += r.count;
      }
    }
    if (more_rows)
      t.set_more(fmt::format("{} more rows: {} in {} transfers", thousands(more_rows), human_bytes(dbl(more_bytes)),
                             thousands(more_count)));
    t.set_footer({text_cell(fmt::format("{} objects", thousands(aggs.size()))), text_cell(""), text_cell(""),
                  bytes_cell(dbl(owner_bytes)), count_cell(owner_count), text_cell("")});
    panels += fmt::format(
        "<div class=\"tab-panel\" id=\"{}\" data-owner=\"{}\"><h3>Objects in {}'s memory: {} in {} transfers</h3>",
        escape(panel), escape(owner), escape(owner), human_bytes(dbl(owner_bytes)), thousands(owner_count));
    panels += pair_block(bar_chart_svg(chart), t.render());
    panels += check_line("sum-" + panel, dbl(owner_bytes), "bytes in these bars:");
    panels += "</div>";
  }
  out += tab_bar(tabs) + panels + "</section>";
  return out;
}

std::string code_section(const Context& c) {
  const matrix::Report& m = c.m;
  std::string out = section_open("code", "Code view",
                                 "Source lines and their share of the traffic (Snoopie's code view): bytes by "
                                 "communication type, and the share of bytes and of transfers.");
  if (m.lines.empty()) return out + "<p class=\"note\">No transfers to attribute.</p></section>";
  std::unordered_map<std::string_view, std::uint32_t> index;
  std::vector<Agg> aggs;
  std::uint64_t total_bytes = 0, total_count = 0;
  for (const matrix::AttributionRow& r : m.lines) {
    const auto [it, fresh] = index.try_emplace(r.key, static_cast<std::uint32_t>(aggs.size()));
    if (fresh) aggs.push_back(Agg{r.key, 0, 0, {}, {}});
    Agg& a = aggs[it->second];
    a.bytes += r.bytes;
    a.count += r.count;
    a.add_series(matrix::to_string(r.type), r.bytes);
    a.add_issuer(r.issuer);
    total_bytes += r.bytes;
    total_count += r.count;
  }
  sort_aggs(aggs);
  if (aggs.size() == 1 && aggs[0].key == "(unknown)")
    out +=
        "<p class=\"note\">The trace names no source lines (no <code>line</code> column): everything is under "
        "(unknown).</p>";
  const BarChart chart = stacked_chart("chart-code", aggs, c.chart_rows(), "lines", "sum-code-bytes");
  HtmlTable t({{"source line"},
               {"bytes", true},
               {"share of bytes", true},
               {"transfers", true},
               {"share of transfers", true},
               {"issued by"},
               {"types"}},
              "table-code");
  for (std::size_t r = 0; r < aggs.size() && r < c.opt.max_rows; ++r) {
    const Agg& a = aggs[r];
    std::vector<std::string_view> types;
    for (const auto& [name, b] : a.by_series) types.push_back(name);
    t.add_row({text_cell(std::string(a.key)), bytes_cell(dbl(a.bytes)),
               number_cell(dbl(a.bytes) / std::max(dbl(total_bytes), 1.0), share(dbl(a.bytes), dbl(total_bytes))),
               count_cell(a.count),
               number_cell(dbl(a.count) / std::max(dbl(total_count), 1.0), share(dbl(a.count), dbl(total_count))),
               text_cell(name_list(a.issuers)), text_cell(name_list(types))});
  }
  if (aggs.size() > c.opt.max_rows) {
    std::uint64_t b = 0, n = 0;
    for (std::size_t r = c.opt.max_rows; r < aggs.size(); ++r) {
      b += aggs[r].bytes;
      n += aggs[r].count;
    }
    t.set_more(fmt::format("{} more lines: {} ({}) in {} transfers", thousands(aggs.size() - c.opt.max_rows),
                           human_bytes(dbl(b)), share(dbl(b), dbl(total_bytes)), thousands(n)));
  }
  t.set_footer({text_cell(fmt::format("{} lines", thousands(aggs.size()))), bytes_cell(dbl(total_bytes)),
                text_cell("100%"), count_cell(total_count), text_cell("100%"), text_cell(""), text_cell("")});
  out += pair_block(bar_chart_svg(chart), t.render());
  out += check_line("sum-code-bytes", dbl(total_bytes), "bytes in these bars:");
  return out + "</section>";
}

std::string devices_section(const Context& c) {
  const matrix::Report& m = c.m;
  std::string out = section_open("devices", "Device view",
                                 "What each device issued (Snoopie's device view): bytes by communication type, and "
                                 "the objects it moved. \"(host API)\" is the host's copy calls.");
  if (m.devices.empty()) return out + "<p class=\"note\">No transfers to attribute.</p></section>";
  std::vector<Agg> aggs;
  std::unordered_map<std::string_view, std::size_t> index;
  std::uint64_t total_bytes = 0;
  for (const matrix::DeviceRow& d : m.devices) {
    auto [it, fresh] = index.emplace(d.device, aggs.size());
    if (fresh) aggs.push_back(Agg{d.device, 0, 0, {}, {}});  // m.devices is in device order
    Agg& a = aggs[it->second];
    a.bytes += d.bytes;
    a.count += d.count;
    a.add_series(matrix::to_string(d.type), d.bytes);
    total_bytes += d.bytes;
  }
  const BarChart chart = stacked_chart("chart-devices", aggs, aggs.size(), "devices", "sum-device-bytes");
  HtmlTable t({{"device"}, {"type"}, {"bytes", true}, {"transfers", true}, {"share", true}}, "table-devices");
  std::size_t rows = 0;
  for (const matrix::DeviceRow& d : m.devices) {
    if (rows++ >= c.opt.max_rows) break;
    t.add_row({text_cell(d.device), text_cell(std::string(matrix::to_string(d.type))), bytes_cell(dbl(d.bytes)),
               count_cell(d.count),
               number_cell(dbl(d.bytes) / std::max(dbl(total_bytes), 1.0), share(dbl(d.bytes), dbl(total_bytes)))});
  }
  if (m.devices.size() > c.opt.max_rows) t.set_more(fmt::format("{} more rows", m.devices.size() - c.opt.max_rows));
  out += pair_block(bar_chart_svg(chart), t.render());
  out += check_line("sum-device-bytes", dbl(total_bytes), "bytes in these bars:");

  // The objects each device moved (the device view's object table), a few per device.
  constexpr std::size_t kPerDevice = 5;
  HtmlTable ot({{"device"}, {"object"}, {"memory on"}, {"type"}, {"bytes", true}, {"transfers", true}},
               "table-device-objects");
  // Grouped by device (in the device table's order), each device's largest objects first.
  std::vector<std::vector<const matrix::AttributionRow*>> per_device(aggs.size());
  std::size_t more = 0;
  for (const matrix::AttributionRow& r : m.objects) {  // sorted by bytes
    const auto it = index.find(r.issuer);
    if (it == index.end() || per_device[it->second].size() >= kPerDevice) {
      ++more;
      continue;
    }
    per_device[it->second].push_back(&r);
  }
  for (const auto& device_rows : per_device)
    for (const matrix::AttributionRow* r : device_rows) {
      if (ot.rows() >= 2 * c.opt.max_rows) {
        ++more;
        continue;
      }
      ot.add_row({text_cell(r->issuer), text_cell(r->key), text_cell(r->owner),
                  text_cell(std::string(matrix::to_string(r->type))), bytes_cell(dbl(r->bytes)), count_cell(r->count)});
    }
  if (more) ot.set_more(fmt::format("{} more rows (at most {} per device shown)", thousands(more), kPerDevice));
  out += "<h3>Objects each device moved</h3>" + std::string("<div class=\"tbl\">") + ot.render() + "</div>";
  return out + "</section>";
}

std::string communicators_section(const Context& c) {
  const matrix::Report& m = c.m;
  std::string out = section_open(
      "communicators", "Communicator view",
      "Per communicator and operation (mpisee): calls, bytes as nccl-tests counts them, mpisee's lower bound on the "
      "volume, the part of it that must cross between ranks, and what the decomposition moved between ranks.");
  if (m.comms.empty()) return out + "<p class=\"note\">No collective or point-to-point records.</p></section>";
  BarChart chart;
  chart.id = "chart-comms";
  chart.series = {"moved between ranks", "inter-rank lower bound"};
  chart.stacked = false;
  chart.format = human_bytes;
  chart.check = "sum-comms";
  HtmlTable t({{"communicator"},
               {"members"},
               {"operation"},
               {"calls", true},
               {"bytes (nccl-tests)", true},
               {"lower bound", true},
               {"inter-rank bound", true},
               {"moved between ranks", true},
               {"moved / bound", true},
               {"complete"}},
              "table-comms");
  std::size_t rows = 0, more = 0;
  double chart_sum = 0;
  for (const matrix::CommRow& comm : m.comms) {
    std::string members;
    for (const auto& mb : comm.members) members += (members.empty() ? "" : " ") + mb;
    for (const matrix::CommOpRow& op : comm.ops) {
      if (rows >= c.opt.max_rows) {
        ++more;
        continue;
      }
      ++rows;
      const std::string op_name(trace::to_string(op.op));
      t.add_row({text_cell(comm.name), text_cell(members), text_cell(op_name), count_cell(op.calls),
                 bytes_cell(dbl(op.bytes)), bytes_cell(dbl(op.lower_bound_bytes)),
                 bytes_cell(dbl(op.inter_rank_bound_bytes)), bytes_cell(dbl(op.moved_bytes)),
                 number_cell(op.inter_rank_bound_bytes ? dbl(op.moved_bytes) / dbl(op.inter_rank_bound_bytes) : 0,
                             op.inter_rank_bound_bytes
                                 ? fmt::format("{:.2f}", dbl(op.moved_bytes) / dbl(op.inter_rank_bound_bytes))
                                 : "-"),
                 text_cell(op.complete ? "yes" : "no: a member missed calls")},
                op.complete ? "" : "fail-row");
      if (chart.rows.size() < c.chart_rows()) {
        chart.rows.push_back(
            {comm.name + " \u00b7 " + op_name, {dbl(op.moved_bytes), dbl(op.inter_rank_bound_bytes)}, members});
        chart_sum += dbl(op.moved_bytes) + dbl(op.inter_rank_bound_bytes);
      }
    }
  }
  if (more) t.set_more(fmt::format("{} more communicator operations", more));
  out += pair_block(bar_chart_svg(chart), t.render());
  out += check_line("sum-comms", chart_sum, "bytes in these bars:");
  return out + "</section>";
}

}  // namespace linkcast::report
