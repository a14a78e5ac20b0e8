// The page around the views: header, navigation, checks and warnings, the inline stylesheet
// and the inline script (tabs, colour toggle, sortable tables, the sums the browser test reads,
// and the render time).
#include <fmt/format.h>

#include <ostream>
#include <stdexcept>

#include "core/units.hpp"
#include "core/version.hpp"
#include "report/charts.hpp"
#include "report/html.hpp"
#include "report/views.hpp"

namespace linkcast::report {

namespace {

constexpr std::string_view kStyle = R"CSS(
:root{--fg:#1f2328;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;--accent:#0969da}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",Arial,sans-serif;color:var(--fg);margin:0;background:#fff}
header{padding:16px 28px 12px;border-bottom:1px solid var(--line);background:var(--panel)}
header h1{font-size:22px;margin:0 0 4px}
header p{margin:2px 0}
nav{margin-top:8px}nav a{margin-right:14px;color:var(--accent);text-decoration:none}
main{padding:4px 28px 36px}
section{margin:22px 0;border-top:1px solid var(--line);padding-top:6px}
h2{font-size:20px;margin:8px 0 4px}h3{font-size:15px;margin:18px 0 6px}h4{font-size:14px;margin:14px 0 2px}
p.intro{max-width:1100px;margin:4px 0 10px}
.note{color:var(--muted);max-width:1100px;margin:4px 0 8px}
.pair{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start;margin:6px 0}
figure{margin:0;max-width:100%;overflow-x:auto}
svg.chart{max-width:100%;height:auto;display:block}
.tbl{max-height:440px;overflow:auto;border:1px solid var(--line);border-radius:6px;max-width:100%;width:fit-content}
table.data{border-collapse:collapse;font-size:12.5px}
table.data caption{text-align:left;font-weight:600;padding:4px 8px}
table.data th,table.data td{padding:2px 6px;border-bottom:1px solid #eaeef2;white-space:nowrap;text-align:left}
table.data th{position:sticky;top:0;background:var(--panel);cursor:pointer;z-index:1}
table.data th[data-dir=asc]::after{content:" \25B2"}table.data th[data-dir=desc]::after{content:" \25BC"}
table.data .n{text-align:right;font-variant-numeric:tabular-nums}
tr.more td{color:var(--muted);font-style:italic}
tr.total td{font-weight:600;border-top:1px solid var(--line);background:#fbfcfd}
tr.fail-row td{color:#cf222e}
tr.band-low td:first-child{box-shadow:inset 4px 0 #9ccc65}tr.band-medium td:first-child{box-shadow:inset 4px 0 #2e7d32}
tr.band-high td:first-child{box-shadow:inset 4px 0 #fb8c00}tr.band-critical td:first-child{box-shadow:inset 4px 0 #e53935}
.ax{font-size:11px;fill:#57606a}.lg{font-size:11px;fill:#1f2328}.cv{font-size:9px}.bv{font-size:10.5px;fill:#1f2328}
.nl{font-size:12px;font-weight:600;fill:#1f2328}.nm{font-size:9.5px;fill:#57606a}
.ll{font-size:10.5px;fill:#1f2328;paint-order:stroke;stroke:#ffffff;stroke-width:3px;stroke-linejoin:round}
svg.topo .lane:hover{stroke-width:7}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:5px 12px;min-width:110px}
.card b{display:block;font-size:17px}.card span{color:var(--muted);font-size:12px}
.tabs{margin:6px 0}
.tabs button,.toggle button{font:inherit;font-size:12.5px;border:1px solid var(--line);background:#fff;border-radius:6px;padding:2px 10px;margin:0 4px 6px 0;cursor:pointer}
.tabs button.on,.toggle button.on{background:var(--accent);color:#fff;border-color:var(--accent)}
.legend span{margin-right:14px;white-space:nowrap}.legend i{display:inline-block;width:16px;height:10px;margin-right:5px;vertical-align:middle;border-radius:2px}
.check{color:var(--muted);font-size:12px;margin:2px 0 8px}
output.ok{color:#1a7f37;font-weight:600}output.bad{color:#cf222e;font-weight:700}
ul.checks li.ok::marker{color:#1a7f37}ul.checks li.fail{color:#cf222e}
.status{font-size:12px;color:var(--muted)}
footer{padding:10px 28px 24px;color:var(--muted);font-size:12px;border-top:1px solid var(--line)}
code{font-size:12.5px}
)CSS";

// The page's script. It only reads the page (no network, no storage) and keeps working
// without it: every value is also in a table.
constexpr std::string_view kScript = R"JS(
(function () {
  'use strict';
  var each = function (sel, f, root) { Array.prototype.forEach.call((root || document).querySelectorAll(sel), f); };
  var checked = 0, failed = 0;
  // Sums: each chart with data-check adds up its marks' data-v into the element of that id.
  each('[data-check]', function (chart) {
    var out = document.getElementById(chart.getAttribute('data-check'));
    if (!out) return;
    var sum = 0;
    each('[data-v]', function (mark) { sum += Number(mark.getAttribute('data-v')); }, chart);
    var text = Math.abs(sum - Math.round(sum)) <= 1e-6 * Math.max(1, Math.abs(sum)) ? String(Math.round(sum)) : sum.toPrecision(12);
    out.textContent = text;
    var expect = out.getAttribute('data-expect');
    if (expect !== null) {
      var e = Number(expect), good = Math.abs(e - sum) <= 1e-6 * Math.max(1, Math.abs(e));
      out.setAttribute('data-ok', good ? '1' : '0');
      out.className = good ? 'ok' : 'bad';
      if (good) checked++; else failed++;
    }
  });
  // Topology colours: average or peak utilisation; the legend counts lanes per band.
  var colour = function (mode) {
    var counts = { idle: 0, low: 0, medium: 0, high: 0, critical: 0 };
    each('#topology-svg .lane', function (lane) {
      lane.setAttribute('stroke', lane.getAttribute('data-c-' + mode));
      counts[lane.getAttribute('data-band-' + mode)]++;
    });
    Object.keys(counts).forEach(function (k) {
      var el = document.getElementById('band-count-' + k);
      if (el) el.textContent = String(counts[k]);
    });
    each('[data-colour-mode]', function (b) { b.classList.toggle('on', b.getAttribute('data-colour-mode') === mode); });
    document.documentElement.setAttribute('data-colour-mode', mode);
  };
  each('[data-colour-mode]', function (b) { b.addEventListener('click', function () { colour(b.getAttribute('data-colour-mode')); }); });
  colour('avg');
  // Tabs: one panel at a time.
  var tabs = 0;
  each('.tabs', function (bar) {
    var buttons = bar.querySelectorAll('button[data-tab]');
    var show = function (id) {
      Array.prototype.forEach.call(buttons, function (b) {
        var on = b.getAttribute('data-tab') === id, panel = document.getElementById(b.getAttribute('data-tab'));
        b.classList.toggle('on', on);
        if (panel) panel.hidden = !on;
      });
    };
    Array.prototype.forEach.call(buttons, function (b) { b.addEventListener('click', function () { show(b.getAttribute('data-tab')); }); });
    if (buttons.length) show(buttons[0].getAttribute('data-tab'));
    tabs++;
  });
  // Sortable tables: click a header; numbers sort by their exact value.
  each('table.sortable thead th', function (th) {
    th.addEventListener('click', function () {
      var table = th.closest('table'), body = table.tBodies[0];
      var col = Array.prototype.indexOf.call(th.parentNode.children, th);
      var asc = th.getAttribute('data-dir') !== 'asc';
      each('th', function (h) { h.removeAttribute('data-dir'); }, th.parentNode);
      th.setAttribute('data-dir', asc ? 'asc' : 'desc');
      var key = function (row) {
        var cell = row.cells[col];
        if (!cell) return '';
        var s = cell.getAttribute('data-sort');
        return s !== null ? Number(s) : cell.textContent;
      };
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var r = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
        return asc ? r : -r;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  // #only-<view> shows that view alone (for links and screenshots).
  var only = /^#only-([a-z,]+)$/.exec(location.hash);
  if (only) {
    var keep = only[1].split(',');
    each('main > section', function (s) { s.hidden = keep.indexOf(s.getAttribute('data-view')) < 0; });
  }
  // Render time: force style and layout, then read the clock (ms since navigation start).
  void document.body.offsetHeight;
  var ms = performance.now();
  var set = function (id, text) { var el = document.getElementById(id); if (el) el.textContent = text; };
  set('render-ms', ms.toFixed(0));
  set('dom-nodes', String(document.getElementsByTagName('*').length));
  set('script-status', 'Interactive: ' + checked + ' chart sums checked against the tables' +
      (failed ? ', ' + failed + ' MISMATCHED' : '') + '; ' + tabs + ' tab bar' + (tabs === 1 ? '' : 's') + '; laid out ' + ms.toFixed(0) + ' ms after the page was requested.');
  document.documentElement.setAttribute('data-rendered', failed ? 'mismatch' : 'ok');
})();
)JS";

}  // namespace

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
      "<p class=\"check\">Script check, {} <output id=\"{}\" data-expect=\"{}\">(script did not run)</output> "
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

void render_html(const Inputs& in, const Options& options, std::ostream& os) {
  if (!in.node || !in.trace || !in.matrix || !in.sim)
    throw std::invalid_argument("report::render_html: node, trace, matrix and simulation are required");
  if ((in.on_source == nullptr) != (in.on_target == nullptr))
    throw std::invalid_argument("report::render_html: give both projection summaries or neither");
  const Context c(in, options);
  const bool projected = in.on_target != nullptr;
  const std::string source = c.trace.source_file.empty() ? "(trace)" : c.trace.source_file;

  std::string body;
  body.reserve(1 << 20);
  body += topology_section(c);
  body += system_section(c);
  body += objects_section(c);
  body += code_section(c);
  body += devices_section(c);
  body += communicators_section(c);
  if (projected) body += projection_section(c);
  body += simulation_section(c);

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
      "{}</title><style>{}</style></head><body>",
      version(), escape(source), escape(c.node.name), kStyle);
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
      "<p class=\"status\" id=\"script-status\">Static page (the inline script did not run): every value is in the "
      "tables.</p>"
      "</header><main>";

  std::string foot = fmt::format(
      "</main><footer>Made by linkcast {}{}. One self-contained file: styles, script and SVG charts are inline and "
      "nothing is fetched. Rendered in <span id=\"render-ms\">?</span> ms, <span id=\"dom-nodes\">?</span> "
      "elements.</footer>"
      "<script>{}</script></body></html>\n",
      version(), options.command.empty() ? "" : fmt::format(": <code>{}</code>", escape(options.command)), kScript);

  os << head << body << checks << foot;
}

}  // namespace linkcast::report
