// The page around the views: header, navigation, checks and warnings, with the stylesheet and
// the script (report/assets/, embedded at build time) inline.
#include <fmt/format.h>

#include <ostream>
#include <stdexcept>

#include "core/progress.hpp"
#include "core/units.hpp"
#include "core/version.hpp"
#include "report/assets.hpp"
#include "report/charts.hpp"
#include "report/html.hpp"
#include "report/views.hpp"

namespace linkcast::report {

Context::Context(const Inputs& inputs, const Options& options)
    : in(inputs),
      opt(options),
      node(*inputs.node),
      trace(*inputs.trace),
      m(*inputs.matrix),
      sim(*inputs.sim),
      routes(*inputs.node),
      summary(sim::summarize_simulation(*inputs.node, *inputs.trace, *inputs.sim,
                                   inputs.sim->links.empty() ? 40 : inputs.sim->links.front().bins.size())),
      traffic(link_traffic(*inputs.node, *inputs.sim)) {
  sent_bytes.assign(node.endpoints.size(), 0.0);
  received_bytes.assign(node.endpoints.size(), 0.0);
  const auto& eps = sim.matrix_endpoints;
  for (std::size_t i = 0; i < eps.size() && i < sim.matrix.size(); ++i)
    for (std::size_t j = 0; j < eps.size() && j < sim.matrix[i].size(); ++j) {
      const double v = sim.matrix[i][j];
      if (eps[i] >= 0) sent_bytes[static_cast<std::size_t>(eps[i])] += v;
      if (eps[j] >= 0) received_bytes[static_cast<std::size_t>(eps[j])] += v;
    }
}

std::string pair_block(const std::string& chart, const std::string& table, const std::string& caption) {
  std::string out = "<div class=\"pair\"><figure>" + chart;
  if (!caption.empty()) out += "<figcaption class=\"note\">" + escape(caption) + "</figcaption>";
  out += "</figure><div class=\"tbl\">" + table + "</div></div>";
  return out;
}

std::string check_line(const std::string& id, double expect, const std::string& what) {
  return fmt::format(
      "<p class=\"check\" hidden>Script check, {} <output id=\"{}\" data-expect=\"{}\">(script did not run)</output> "
      "(tables: {})</p>",
      escape(what), escape(id), exact(expect), exact(expect));
}

std::string section_open(const std::string& key, const std::string& heading, const std::string& intro) {
  return fmt::format("<section id=\"view-{}\" data-view=\"{}\"><h2>{}</h2><p class=\"intro\">{}</p>", escape(key),
                     escape(key), escape(heading), escape(intro));
}

std::string tab_bar(const std::vector<std::pair<std::string, std::string>>& ids_and_labels) {
  std::string out = "<div class=\"tabs\" role=\"tablist\">";
  for (const auto& [id, label] : ids_and_labels)
    out += fmt::format("<button type=\"button\" role=\"tab\" data-tab=\"{}\">{}</button>", escape(id), escape(label));
  return out + "</div>";
}

std::vector<matrix::RanCall> calls_as_run(const sim::SimResult& sim) {
  std::vector<matrix::RanCall> calls;
  calls.reserve(sim.collectives.size());
  for (const sim::CollectiveResult& call : sim.collectives) calls.push_back({call.ops, call.parts});
  return calls;
}

void render_html(const Inputs& in, const Options& options, std::ostream& os) {
  if (!in.node || !in.trace || !in.matrix || !in.sim)
    throw std::invalid_argument("report::render_html: node, trace, matrix and simulation are required");
  if ((in.on_source == nullptr) != (in.on_target == nullptr))
    throw std::invalid_argument("report::render_html: give both projection summaries or neither");
  const bool projected = in.on_target != nullptr;
  // The page's parts: what every view shares, then the views.
  const std::uint64_t parts = projected ? 9 : 8;
  ProgressLine progress("page");
  const Context c(in, options);
  progress.update(1, parts, "parts");
  const std::string source = c.trace.source_file.empty() ? "(trace)" : c.trace.source_file;

  std::string body;
  body.reserve(1 << 20);
  std::uint64_t done = 1;
  auto add = [&](std::string section) {
    body += section;
    progress.update(++done, parts, "parts");
  };
  add(topology_section(c));
  add(system_section(c));
  add(objects_section(c));
  add(code_section(c));
  add(devices_section(c));
  add(communicators_section(c));
  if (projected) add(projection_section(c));
  add(simulation_section(c));

  // Checks and warnings.
  std::string checks =
      "<section id=\"view-checks\" data-view=\"checks\"><h2>Checks and warnings</h2><ul class=\"checks\">";
  for (const matrix::Check& k : c.m.checks)
    checks += fmt::format("<li class=\"{}\"><b>{}</b> {}: {}</li>", k.ok ? "ok" : "fail", k.ok ? "ok" : "FAIL",
                          escape(k.name), escape(k.detail));
  checks += "</ul>";
  std::vector<std::string> warnings = in.warnings;
  for (const auto& w : c.m.warnings) warnings.push_back(w);
  if (!warnings.empty()) {
    checks += "<h3>Warnings</h3><ul>";
    for (std::size_t i = 0; i < warnings.size() && i < options.max_rows * 2; ++i)
      checks += "<li>" + escape(warnings[i]) + "</li>";
    if (warnings.size() > options.max_rows * 2)
      checks += fmt::format("<li>{} more warnings</li>", warnings.size() - options.max_rows * 2);
    checks += "</ul>";
  }
  checks += "</section>";

  std::string head = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<meta name=\"generator\" content=\"linkcast {}\"><title>linkcast report: {} on "
      "{}</title><style>\n{}</style></head><body>",
      version(), escape(source), escape(c.node.name), assets::style_css());
  head += fmt::format("<header><h1>linkcast report: {} on {}{}</h1>", escape(source), escape(c.node.name),
                      projected ? " \u2192 " + escape(in.on_target->to_name) : "");
  head += fmt::format("<p>{} operations ({}) from <code>{}</code> on node <b>{}</b> (<code>{}</code>){}.</p>",
                      thousands(c.trace.size()), escape(c.trace.format), escape(source), escape(c.node.name),
                      escape(c.node.file),
                      projected ? fmt::format(", projected onto <b>{}</b> (<code>{}</code>)",
                                              escape(in.on_target->to_name), escape(in.on_target->to_file))
                                : "");
  head += "<div class=\"cards\">";
  auto card = [&](const std::string& value, const std::string& label, const std::string& id) {
    head +=
        fmt::format("<div class=\"card\" id=\"{}\"><b>{}</b><span>{}</span></div>", id, escape(value), escape(label));
  };
  card(thousands(c.trace.size()), "operations", "card-ops");
  card(human_bytes(static_cast<double>(c.m.total.total_bytes())), "moved between endpoints", "card-bytes");
  card(thousands(c.m.total.total_count()), "transfers", "card-transfers");
  card(format_duration_ns(c.sim.makespan_ns), "simulated makespan", "card-sim-makespan");
  std::size_t used = 0;
  double busiest = 0;
  for (const auto& l : c.sim.links) {
    if (l.data_bytes > 0) ++used;
    busiest = std::max(busiest, l.utilisation);
  }
  card(fmt::format("{} of {}", used, 2 * c.node.links.size()), "link lanes used", "card-lanes");
  card(percent(busiest), "busiest lane (average)", "card-busiest");
  if (projected && !in.on_target->overall.empty()) {
    card(format_duration_ns(in.on_target->overall[0].projected_ns),
         fmt::format("projected on {} ({})", in.on_target->to_name, in.on_target->models[0]), "card-projected");
  }
  head += "</div>";
  head +=
      "<nav><a href=\"#view-topology\">Topology</a><a href=\"#view-system\">System</a><a "
      "href=\"#view-objects\">Objects</a>"
      "<a href=\"#view-code\">Code</a><a href=\"#view-devices\">Devices</a><a "
      "href=\"#view-communicators\">Communicators</a>";
  if (projected) head += "<a href=\"#view-projection\">Projection</a>";
  head += "<a href=\"#view-simulation\">Timeline</a><a href=\"#view-checks\">Checks</a></nav>";
  head +=
      // The inline script's own check (the browser test's), shown only when a chart's sum differs
      // from its table.
      "<p class=\"status\" id=\"script-status\" hidden></p>"
      "</header><main>";

  std::string foot = fmt::format(
      "</main><footer>Made by linkcast {}{}. One self-contained file: styles, script and SVG charts are inline and "
      "nothing is fetched. Rendered in <span id=\"render-ms\">?</span> ms, <span id=\"dom-nodes\">?</span> "
      "elements.</footer>"
      "<script>\n{}</script></body></html>\n",
      version(), options.command.empty() ? "" : fmt::format(": <code>{}</code>", escape(options.command)),
      assets::report_js());

  os << head << body << checks << foot;
}

}  // namespace linkcast::report
