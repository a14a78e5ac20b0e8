// The views built from the simulation (topology in INAM's colours, timeline summary, link
// utilisation over time) and from the projection summaries.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "core/units.hpp"
#include "report/charts.hpp"
#include "report/html.hpp"
#include "report/views.hpp"
#include "sim/render.hpp"

namespace linkcast::report {

namespace {

double dbl(std::size_t v) {
  return static_cast<double>(v);
}
std::string time_text(double ns) {
  return format_duration_ns(ns);
}

/// One direction of one link, for tables and the over-time charts.
struct Lane {
  std::size_t link = 0;
  int dir = 0;
  std::string name;  // "gpu0 -> gpu1"
  const LaneTraffic* t = nullptr;
};

std::vector<Lane> all_lanes(const Context& c) {
  std::vector<Lane> lanes;
  for (std::size_t i = 0; i < c.node.links.size(); ++i) {
    const auto& l = c.node.links[i];
    const auto a = static_cast<std::size_t>(l.a), b = static_cast<std::size_t>(l.b);
    lanes.push_back({i, 0, c.node.endpoints[a].id + " \u2192 " + c.node.endpoints[b].id, &c.traffic[i][0]});
    lanes.push_back({i, 1, c.node.endpoints[b].id + " \u2192 " + c.node.endpoints[a].id, &c.traffic[i][1]});
  }
  std::stable_sort(lanes.begin(), lanes.end(), [](const Lane& x, const Lane& y) {
    if (x.t->utilisation != y.t->utilisation) return x.t->utilisation > y.t->utilisation;
    return x.t->data_bytes > y.t->data_bytes;
  });
  return lanes;
}

/// Every value of a strip chart as a table (rows as drawn, a column per bin), folded away.
std::string bins_table(const std::string& id, const StripHeatmap& h, const std::function<Cell(double)>& cell) {
  const std::size_t bins = h.values.empty() ? 0 : h.values.front().size();
  const double bin_ns = bins ? h.span_ns / dbl(bins) : 0;
  std::vector<HtmlTable::Column> cols{{"bin starts at"}};
  for (std::size_t b = 0; b < bins; ++b) cols.push_back({format_duration_ns(bin_ns * dbl(b)), true});
  HtmlTable t(cols, id);
  for (std::size_t r = 0; r < h.rows.size(); ++r) {
    std::vector<Cell> row{text_cell(h.rows[r])};
    for (double v : h.values[r]) row.push_back(cell(v));
    t.add_row(std::move(row));
  }
  return "<details class=\"bins\"><summary>Every bin of this chart as a table</summary><div class=\"tbl\">" +
         t.render() + "</div></details>";
}

std::string band_swatch(Band b) {
  return fmt::format("<i style=\"background:{}\"></i>", band_colour(b));
}

}  // namespace

std::string topology_section(const Context& c) {
  const auto lanes = all_lanes(c);
  std::array<std::size_t, kBandCount> avg_counts{};
  double carried = 0;
  std::size_t used = 0;
  for (const Lane& l : lanes) {
    ++avg_counts[static_cast<std::size_t>(utilisation_band(l.t->utilisation))];
    carried += l.t->data_bytes;
    if (l.t->data_bytes > 0) ++used;
  }
  std::string out = section_open(
      "topology", "Node topology: " + c.node.name,
      fmt::format("{}{}The node's {} endpoints and {} links as OSU INAM draws them: every link is two lanes, one per "
                  "direction (each keeps to the right of its direction of travel), coloured by the utilisation the "
                  "simulation gives that direction: grey 0%, light green up to 25%, dark green up to 50%, orange up to "
                  "75%, red up to 100% of its bandwidth. Labels are the bytes a link carried both ways; hover a lane "
                  "for its numbers. {} of {} lanes carried data.",
                  c.node.description,
                  c.node.description.empty()         ? ""
                  : c.node.description.back() == '.' ? " "
                                                     : ". ",
                  c.node.endpoints.size(), c.node.links.size(), used, lanes.size()));
  out += fmt::format(
      "<div class=\"toggle\" role=\"group\"><span>Colour by </span><button type=\"button\" data-colour-mode=\"avg\" "
      "class=\"on\">average utilisation over the makespan</button><button type=\"button\" "
      "data-colour-mode=\"peak\">peak "
      "utilisation (busiest of {} bins)</button></div>",
      c.sim.links.empty() ? 0 : c.sim.links.front().bins.size());
  out += "<p class=\"legend\" id=\"topology-legend\">";
  for (std::size_t b = 0; b < kBandCount; ++b) {
    const Band band = static_cast<Band>(b);
    out += fmt::format("<span data-band=\"{}\">{}{} <b id=\"band-count-{}\">{}</b> lanes</span>", band_key(band),
                       band_swatch(band), escape(band_label(band)), band_key(band), avg_counts[b]);
  }
  out += "</p>";
  const NodeLayout layout = layout_node(c.node);
  HtmlTable t({{"lane"},
               {"link"},
               {"type"},
               {"GB/s", true},
               {"data", true},
               {"average", true},
               {"peak", true},
               {"band (average)"}},
              "table-lanes");
  std::size_t idle_more = 0, more = 0;
  for (const Lane& l : lanes) {
    if (t.rows() >= c.opt.max_rows) {
      ++more;
      if (l.t->data_bytes <= 0) ++idle_more;
      continue;
    }
    const auto& link = c.node.links[l.link];
    const Band band = utilisation_band(l.t->utilisation);
    t.add_row(
        {text_cell(l.name), text_cell(link.id), text_cell(link.spec.describe()),
         number_cell(l.t->capacity_gbps, fmt::format("{:.1f}", l.t->capacity_gbps)), bytes_cell(l.t->data_bytes),
         percent_cell(l.t->utilisation), percent_cell(l.t->peak_utilisation), text_cell(std::string(band_label(band)))},
        "band-" + std::string(band_key(band)));
  }
  if (more) t.set_more(fmt::format("{} more lanes ({} of them idle)", more, idle_more));
  out += "<div class=\"pair\"><figure class=\"wide\">" +
         topology_svg(c.node, layout, c.traffic, c.sent_bytes, c.received_bytes, "sum-topology-bytes") +
         "</figure><div class=\"tbl\">" + t.render() + "</div></div>";
  out += check_line("sum-topology-bytes", carried, "bytes carried by the drawn lanes:");
  return out + "</section>";
}

namespace {

/// The section's opening and its cards: makespan, operations, calls, engine counts, WMAPE.
std::string simulation_cards(const Context& c) {
  const sim::SimResult& r = c.sim;
  std::size_t matched = 0;
  const double wmape = sim::wmape_vs_measured(c.trace, r, &matched);
  std::string out = section_open(
      "simulation", "Simulated timeline",
      fmt::format("Every operation replayed on {} at once (linkcast simulate): links shared max-min fairly, streams in "
                  "order, NCCL collectives step by step. Model {}, solver {}.",
                  c.node.name, r.model, r.solver));
  out += "<div class=\"cards\">";
  auto card = [&](const std::string& value, const std::string& label, const std::string& id = "") {
    out += fmt::format("<div class=\"card\"{}><b>{}</b><span>{}</span></div>", id.empty() ? "" : " id=\"" + id + "\"",
                       escape(value), escape(label));
  };
  card(time_text(r.makespan_ns), "makespan", "card-makespan");
  card(thousands(c.trace.size()), "operations");
  card(thousands(r.collectives.size()), "collective calls");
  card(fmt::format("{} / {} / {}", thousands(r.tasks), thousands(r.flows), thousands(r.events)),
       "tasks / flows / events");
  if (matched > 0) card(fmt::format("{:.1f}%", wmape), fmt::format("WMAPE vs measured ({} ops)", thousands(matched)));
  return out + "</div>";
}

/// Operations by kind: simulated (and measured) time per category.
std::string simulated_kinds(const Context& c) {
  const auto& cats = c.summary.by_category;
  bool any_measured = false;
  for (const auto& k : cats) any_measured = any_measured || k.measured_ops > 0;
  BarChart kinds;
  kinds.id = "chart-sim-kinds";
  kinds.series = {"simulated (sum)"};
  if (any_measured) kinds.series.push_back("measured (sum)");
  kinds.stacked = false;
  kinds.format = time_text;
  kinds.check = "sum-sim-kinds";
  HtmlTable kt({{"kind"},
                {"ops", true},
                {"bytes", true},
                {"simulated (sum)", true},
                {"measured (sum)", true},
                {"simulated / measured", true}},
               "table-sim-kinds");
  double kinds_sum = 0, sim_total = 0;
  for (std::size_t k = 0; k < cats.size(); ++k) {
    const sim::CategoryTimes& ct = cats[k];
    if (ct.ops == 0) continue;
    const std::string name(trace::to_string(static_cast<trace::Category>(k)));
    BarRow row{name, {ct.simulated_ns}, fmt::format("{} ops, {}", thousands(ct.ops), human_bytes(ct.bytes))};
    if (any_measured) row.values.push_back(ct.measured_ns);
    kinds_sum += ct.simulated_ns + (any_measured ? ct.measured_ns : 0);
    sim_total += ct.simulated_ns;
    kinds.rows.push_back(std::move(row));
    const bool m = ct.measured_ops > 0 && ct.measured_ns > 0;
    kt.add_row({text_cell(name), count_cell(ct.ops), bytes_cell(ct.bytes), time_cell(ct.simulated_ns),
                m ? time_cell(ct.measured_ns) : text_cell("-"),
                m ? number_cell(ct.simulated_of_measured_ns / ct.measured_ns,
                                fmt::format("{:.3f}", ct.simulated_of_measured_ns / ct.measured_ns))
                  : text_cell("-")});
  }
  kt.set_footer({text_cell("all"), count_cell(c.trace.size()), text_cell(""), time_cell(sim_total), text_cell(""),
                 text_cell("")});
  std::string out = "<h3>Operations by kind</h3>" + pair_block(bar_chart_svg(kinds), kt.render());
  out += check_line("sum-sim-kinds", kinds_sum, "nanoseconds in these bars:");
  return out;
}

/// Each issuing device's operations in flight over the makespan.
std::string device_activity(const Context& c) {
  const sim::SimResult& r = c.sim;
  std::string out;
  const sim::Activity& a = c.summary.activity;
  if (a.devices.empty()) return "";
  StripHeatmap h;
  h.id = "strip-activity";
  h.span_ns = r.makespan_ns;
  h.format = [](double v) { return fmt::format("{:.2f} operations in flight on average", v); };
  h.short_format = [](double v) { return fmt::format("{:.2f}", v); };
  HtmlTable at({{"device"},
                {"ops issued", true},
                {"busy (sum of durations)", true},
                {"mean in flight", true},
                {"busiest bin", true}},
               "table-activity");
  for (std::size_t d = 0; d < a.devices.size(); ++d) {
    const std::string& id = c.node.endpoints[static_cast<std::size_t>(a.devices[d])].id;
    h.rows.push_back(id);
    h.values.push_back(a.in_flight[d]);
    const double peak = a.in_flight[d].empty() ? 0 : *std::max_element(a.in_flight[d].begin(), a.in_flight[d].end());
    at.add_row({text_cell(id), count_cell(a.ops[d]), time_cell(a.busy_ns[d]),
                number_cell(r.makespan_ns > 0 ? a.busy_ns[d] / r.makespan_ns : 0,
                            fmt::format("{:.2f}", r.makespan_ns > 0 ? a.busy_ns[d] / r.makespan_ns : 0)),
                number_cell(peak, fmt::format("{:.2f}", peak))});
  }
  out +=
      "<h3>Activity per issuing device over time</h3><p class=\"note\">Mean number of the device's operations "
      "running in each of the makespan's bins (several streams and copy engines run at once).</p>";
  out += pair_block(strip_heatmap_svg(h), at.render());
  out += bins_table("table-activity-bins", h, [](double v) { return number_cell(v, fmt::format("{:.2f}", v)); });
  return out;
}

/// Collective calls: simulated against NCCL's model per kind, and the longest calls.
std::string simulated_collectives(const Context& c) {
  const sim::SimResult& r = c.sim;
  std::string out;
  if (r.collectives.empty()) return "";
  std::vector<std::size_t> idx(r.collectives.size());
  std::iota(idx.begin(), idx.end(), 0);
  const std::size_t shown = std::min(idx.size(), c.opt.max_rows);
  std::partial_sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(shown), idx.end(),
                    [&](std::size_t x, std::size_t y) {
                      return r.collectives[x].end_ns - r.collectives[x].start_ns >
                             r.collectives[y].end_ns - r.collectives[y].start_ns;
                    });
  HtmlTable ct({{"#", true},
                {"kind"},
                {"communicator"},
                {"GPUs", true},
                {"size", true},
                {"algo / proto"},
                {"channels", true},
                {"start", true},
                {"simulated", true},
                {"NCCL model", true},
                {"sim / NCCL", true}},
               "table-collectives");
  for (std::size_t k = 0; k < shown; ++k) {
    const sim::CollectiveResult& col = r.collectives[idx[k]];
    const double t = col.end_ns - col.start_ns;
    ct.add_row({count_cell(idx[k]), text_cell(std::string(trace::to_string(col.kind))), text_cell(col.comm),
                count_cell(col.gpus.size()), bytes_cell(static_cast<double>(col.bytes)),
                text_cell(fmt::format("{} / {}", nccl::to_string(col.algo), nccl::to_string(col.proto))),
                count_cell(static_cast<std::uint64_t>(std::max(col.channels, 0))), time_cell(col.start_ns),
                time_cell(t), time_cell(col.nccl_model.time_ns),
                col.nccl_model.time_ns > 0
                    ? number_cell(t / col.nccl_model.time_ns, fmt::format("{:.3f}", t / col.nccl_model.time_ns))
                    : text_cell("-")});
  }
  if (idx.size() > shown)
    ct.set_more(fmt::format("{} more calls (the longest are shown)", thousands(idx.size() - shown)));
  // Per kind: simulated vs NCCL's model, summed.
  std::array<std::pair<double, double>, trace::kOpKindCount> per_kind{};
  std::array<std::size_t, trace::kOpKindCount> calls{};
  for (const auto& col : r.collectives) {
    auto& p = per_kind[static_cast<std::size_t>(col.kind)];
    p.first += col.end_ns - col.start_ns;
    p.second += col.nccl_model.time_ns;
    ++calls[static_cast<std::size_t>(col.kind)];
  }
  BarChart cc;
  cc.id = "chart-collectives";
  cc.series = {"simulated (sum)", "NCCL model (sum)"};
  cc.stacked = false;
  cc.format = time_text;
  for (std::size_t k = 0; k < per_kind.size(); ++k)
    if (calls[k])
      cc.rows.push_back({std::string(trace::to_string(static_cast<trace::OpKind>(k))),
                         {per_kind[k].first, per_kind[k].second},
                         fmt::format("{} calls", calls[k])});
  out += fmt::format("<h3>Collectives: {} calls</h3>", thousands(r.collectives.size()));
  HtmlTable calls_table(
      {{"kind"}, {"calls", true}, {"simulated (sum)", true}, {"NCCL model (sum)", true}, {"sim / NCCL", true}},
      "table-collective-kinds");
  for (std::size_t k = 0; k < per_kind.size(); ++k)
    if (calls[k])
      calls_table.add_row({text_cell(std::string(trace::to_string(static_cast<trace::OpKind>(k)))),
                           count_cell(calls[k]), time_cell(per_kind[k].first), time_cell(per_kind[k].second),
                           per_kind[k].second > 0
                               ? number_cell(per_kind[k].first / per_kind[k].second,
                                             fmt::format("{:.3f}", per_kind[k].first / per_kind[k].second))
                               : text_cell("-")});
  out += pair_block(bar_chart_svg(cc), calls_table.render());
  out += "<h4>The longest calls</h4><div class=\"tbl\">" + ct.render() + "</div>";
  return out;
}

/// The busiest few lanes (by peak) as lines over time, with their bins.
std::string busiest_links(const Context& c, const std::vector<const sim::LinkResult*>& links) {
  const sim::SimResult& r = c.sim;
  std::vector<const sim::LinkResult*> by_peak = links;
  std::stable_sort(by_peak.begin(), by_peak.end(), [](const sim::LinkResult* x, const sim::LinkResult* y) {
    return x->peak_utilisation > y->peak_utilisation;
  });
  by_peak.resize(std::min<std::size_t>(by_peak.size(), 6));
  LineChart lc;
  lc.id = "line-links";
  lc.span_ns = r.makespan_ns;
  lc.band_background = true;
  double peak = 0;
  for (const auto* l : by_peak) {
    lc.series.push_back({sim::link_name(c.node, *l), l->bins});
    peak = std::max(peak, l->peak_utilisation);
  }
  lc.y_max = peak > 0.75 ? std::max(1.0, std::ceil(peak * 4) / 4) : std::max(0.25, std::ceil(peak * 20) / 20);
  lc.format_y = [](double v) { return percent(v, 0); };
  std::vector<HtmlTable::Column> cols{{"bin starts", true}};
  for (const auto* l : by_peak) cols.push_back({sim::link_name(c.node, *l), true});
  HtmlTable bt(cols, "table-link-bins");
  const std::size_t bins = by_peak.front()->bins.size();
  const double bin_ns = bins ? r.makespan_ns / dbl(bins) : 0;
  for (std::size_t b = 0; b < bins; ++b) {
    std::vector<Cell> row{time_cell(bin_ns * dbl(b))};
    for (const auto* l : by_peak) row.push_back(percent_cell(l->bins[b]));
    bt.add_row(std::move(row));
  }
  return "<h3>The lanes with the highest peaks, bin by bin</h3>" + pair_block(line_chart_svg(lc), bt.render());
}

/// The lanes that carried data, by average utilisation, bin by bin; then the highest peaks.
std::string link_utilisation(const Context& c) {
  const sim::SimResult& r = c.sim;
  std::vector<const sim::LinkResult*> links;
  for (const auto& l : r.links) links.push_back(&l);
  std::stable_sort(links.begin(), links.end(),
                   [](const sim::LinkResult* x, const sim::LinkResult* y) { return x->utilisation > y->utilisation; });
  std::string out = fmt::format("<h3>Link utilisation over time: {} of {} lanes carried data</h3>", links.size(),
                                2 * c.node.links.size());
  if (links.empty()) return out + "<p class=\"note\">No link carried data.</p>";
  const std::size_t strip_rows = std::min<std::size_t>(links.size(), std::max<std::size_t>(c.opt.max_rows, 1));
  StripHeatmap lh;
  lh.id = "strip-links";
  lh.span_ns = r.makespan_ns;
  lh.bands = true;
  lh.format = [](double v) { return percent(v) + " of the lane's bandwidth"; };
  for (std::size_t k = 0; k < strip_rows; ++k) {
    lh.rows.push_back(sim::link_name(c.node, *links[k]));
    lh.values.push_back(links[k]->bins);
  }
  HtmlTable lt({{"lane"},
                {"link"},
                {"GB/s", true},
                {"data", true},
                {"wire", true},
                {"average", true},
                {"peak", true},
                {"busiest bin starts", true}},
               "table-link-time");
  for (std::size_t k = 0; k < links.size() && k < c.opt.max_rows; ++k) {
    const sim::LinkResult& l = *links[k];
    const auto busiest =
        l.bins.empty() ? 0 : static_cast<std::size_t>(std::max_element(l.bins.begin(), l.bins.end()) - l.bins.begin());
    const double bin_ns = l.bins.empty() ? 0 : r.makespan_ns / dbl(l.bins.size());
    lt.add_row({text_cell(sim::link_name(c.node, l)), text_cell(c.node.links[static_cast<std::size_t>(l.link)].id),
                number_cell(l.capacity_gbps, fmt::format("{:.1f}", l.capacity_gbps)), bytes_cell(l.data_bytes),
                bytes_cell(l.wire_bytes), percent_cell(l.utilisation), percent_cell(l.peak_utilisation),
                time_cell(bin_ns * dbl(busiest))});
  }
  if (links.size() > c.opt.max_rows)
    lt.set_more(fmt::format("{} more lanes that carried data", links.size() - c.opt.max_rows));
  out +=
      "<p class=\"note\">Each row is one direction of a link; each cell one bin of the makespan, in INAM's "
      "colours.</p>";
  out += pair_block(strip_heatmap_svg(lh), lt.render());
  out += bins_table("table-link-time-bins", lh, [](double v) { return percent_cell(v); });
  if (links.size() > strip_rows)
    out += fmt::format("<p class=\"note\">{} more lanes not drawn.</p>", links.size() - strip_rows);
  return out + busiest_links(c, links);
}

}  // namespace

std::string simulation_section(const Context& c) {
  return simulation_cards(c) + simulated_kinds(c) + device_activity(c) + simulated_collectives(c) +
         link_utilisation(c) + "</section>";
}

std::string projection_section(const Context& c) {
  const projection::ProjectionSummary& src = *c.in.on_source;
  const projection::ProjectionSummary& dst = *c.in.on_target;
  const std::size_t models = dst.models.size();
  bool measured = false;
  for (const auto& cell : dst.by_category[0]) measured = measured || cell.source_ns > 0;
  std::string out = section_open(
      "projection", "Projection onto " + dst.to_name,
      fmt::format("Every operation priced on the node it ran on, the source ({}, {}), and projected onto the target "
                  "{} ({}) by each transfer model (linkcast project). {}Modelled on source: the model's own time for "
                  "the operations on the source node; projected on target: its time on the target; speed-up: modelled "
                  "on source ÷ projected on target, above 1 where the target is faster.",
                  src.from_name, src.from_file, dst.to_name, dst.to_file,
                  measured ? "Measured on source: the durations the trace recorded. " : ""));
  // Totals per model.
  HtmlTable tt({{"model"},
                {"ops", true},
                {"measured on source", true},
                {"modelled on source", true},
                {"projected on target", true},
                {"speed-up", true}},
               "table-projection-totals");
  for (std::size_t mi = 0; mi < models; ++mi) {
    const auto& s = src.overall[mi];
    const auto& d = dst.overall[mi];
    tt.add_row({text_cell(dst.models[mi]), count_cell(d.count), measured ? time_cell(d.source_ns) : text_cell("-"),
                time_cell(s.projected_ns), time_cell(d.projected_ns),
                d.projected_ns > 0 ? number_cell(s.projected_ns / d.projected_ns,
                                                 fmt::format("{:.2f}x", s.projected_ns / d.projected_ns))
                                   : text_cell("-")},
               "");
  }
  out += "<h3>Totals per model</h3><div class=\"tbl\">" + tt.render() + "</div>";

  std::vector<std::pair<std::string, std::string>> tabs;
  std::string panels;
  for (std::size_t mi = 0; mi < models; ++mi) {
    const std::string& name = dst.models[mi];
    const std::string panel = "projection-" + name;
    tabs.emplace_back(panel, name);
    panels += fmt::format("<div class=\"tab-panel\" id=\"{}\" data-model=\"{}\">", escape(panel), escape(name));
    for (int view = 0; view < 2; ++view) {
      const bool by_kind = view == 0;
      const std::string key = fmt::format("{}-{}", panel, by_kind ? "kind" : "size");
      BarChart ch;
      ch.id = "chart-" + key;
      ch.stacked = false;
      ch.format = time_text;
      ch.check = "sum-" + key;
      if (measured) ch.series.push_back("measured on " + src.from_name);
      ch.series.push_back("modelled on " + src.from_name);
      ch.series.push_back("projected on " + dst.to_name);
      ch.colours = measured ? std::vector<std::string>{"#9c755f", "#4e79a7", "#f28e2b"}
                            : std::vector<std::string>{"#4e79a7", "#f28e2b"};
      HtmlTable t({{by_kind ? "kind" : "size"},
                   {"ops", true},
                   {"measured on source", true},
                   {"modelled on source", true},
                   {"projected on target", true},
                   {"speed-up", true}},
                  "table-" + key);
      const std::size_t rows = by_kind ? trace::kCategoryCount : trace::kSizeBucketCount;
      double sum = 0;
      for (std::size_t k = 0; k < rows; ++k) {
        const projection::Cell& s = by_kind ? src.by_category[mi][k] : src.by_bucket[mi][k];
        const projection::Cell& d = by_kind ? dst.by_category[mi][k] : dst.by_bucket[mi][k];
        if (d.count == 0) continue;
        const std::string label(by_kind ? trace::to_string(static_cast<trace::Category>(k))
                                        : trace::size_bucket_label(k));
        BarRow row{label, {}, fmt::format("{} ops", thousands(d.count))};
        if (measured) row.values.push_back(d.source_ns);
        row.values.push_back(s.projected_ns);
        row.values.push_back(d.projected_ns);
        for (double v : row.values) sum += v;
        ch.rows.push_back(std::move(row));
        t.add_row({text_cell(label), count_cell(d.count), measured ? time_cell(d.source_ns) : text_cell("-"),
                   time_cell(s.projected_ns), time_cell(d.projected_ns),
                   d.projected_ns > 0 ? number_cell(s.projected_ns / d.projected_ns,
                                                    fmt::format("{:.2f}x", s.projected_ns / d.projected_ns))
                                      : text_cell("-")});
      }
      panels += fmt::format("<h3>{}: per {}</h3>", escape(name), by_kind ? "kind" : "size bucket (AHEAD Fig. 1b)");
      panels += pair_block(bar_chart_svg(ch), t.render());
      panels += check_line("sum-" + key, sum, "nanoseconds in these bars:");
    }
    panels += "</div>";
  }
  out += "<h3>Per model</h3>" + tab_bar(tabs) + panels;

  // Where the target's 1-byte costs came from.
  HtmlTable ft({{"copy class"}, {"L + O on target", true}, {"from"}}, "table-projection-fixed");
  for (std::size_t k = 0; k < dst.fixed.size(); ++k)
    ft.add_row({text_cell(std::string(model::to_string(static_cast<model::CopyClass>(k)))),
                dst.fixed[k].known ? time_cell(dst.fixed[k].ns) : text_cell("-"), text_cell(dst.fixed[k].origin)});
  out += "<details><summary>1-byte transfer cost (L + O) per copy class on the target</summary><div class=\"tbl\">" +
         ft.render() + "</div></details>";
  return out + "</section>";
}

}  // namespace linkcast::report
