// `linkcast report` pages opened in a real browser (headless Chromium): the page's inline script
// runs, adds up every chart's marks and writes the sums into the DOM, switches tabs and colours
// the topology; `--dump-dom` gives the DOM after that, which is checked against the numbers
// `linkcast matrix`, `simulate` and `project` print for the same input. Screenshots go to
// build/report-browser/ (docs/img/ with LINKCAST_UPDATE_SCREENSHOTS=1). A page for a trace of a
// million operations must stay small and lay out in under 3 s.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/units.hpp"
#include "test_util.hpp"

namespace linkcast {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

namespace fs = std::filesystem;
using test::run_linkcast;

/// $LINKCAST_CHROMIUM, else /usr/bin/chromium, else chromium or chromium-browser on the PATH;
/// "" when there is none.
std::string find_chromium() {
  if (const char* env = std::getenv("LINKCAST_CHROMIUM"); env && *env) return ::access(env, X_OK) == 0 ? env : "";
  if (::access("/usr/bin/chromium", X_OK) == 0) return "/usr/bin/chromium";
  const char* path = std::getenv("PATH");
  if (!path) return "";
  for (const auto& dir : [&] {
         std::vector<std::string> dirs;
         std::string p = path;
         for (std::size_t s = 0, e; s <= p.size(); s = e + 1) {
           e = p.find(':', s);
           if (e == std::string::npos) e = p.size();
           dirs.push_back(p.substr(s, e - s));
         }
         return dirs;
       }())
    for (const char* name : {"chromium", "chromium-browser"})
      if (::access((dir + "/" + name).c_str(), X_OK) == 0) return dir + "/" + name;
  return "";
}

/// Skips without Chromium; runs from the repository root so that the pages (and screenshots)
/// name configs/... and tests/data/... as a user would type them.
#define REQUIRE_CHROMIUM()                                                                                  \
  do {                                                                                                      \
    fs::current_path(LINKCAST_SOURCE_DIR);                                                                  \
    if (find_chromium().empty())                                                                            \
      GTEST_SKIP() << "Chromium is not installed (Debian: apt install chromium; setup.sh installs it), or " \
                      "set LINKCAST_CHROMIUM=/path/to/chromium: the report's browser test is skipped";      \
  } while (0)

fs::path out_dir() {
  const fs::path d = fs::path(LINKCAST_BUILD_DIR) / "report-browser";
  fs::create_directories(d);
  return d;
}

struct BrowserRun {
  std::string out;
  double seconds = 0;
  int status = -1;
};

/// Runs headless Chromium with the flags the issue names on `url`, plus `extra`. No host name
/// resolves, so a page that needed the network would not render.
BrowserRun chromium(const std::string& url, const std::string& extra) {
  char profile[] = "/tmp/linkcast-chromium-XXXXXX";
  const std::string dir = ::mkdtemp(profile) ? profile : "/tmp/linkcast-chromium";
  const std::string cmd =
      "timeout 120 " + find_chromium() +
      " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
      " --disable-component-update --disable-sync --host-resolver-rules='MAP * ~NOTFOUND'"
      " --user-data-dir=" +
      dir + " " + extra + " '" + url + "' 2>/dev/null";
  BrowserRun r;
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 65536> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  r.status = ::pclose(pipe);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::error_code ec;
  fs::remove_all(dir, ec);
  return r;
}

BrowserRun dump_dom(const fs::path& page) {
  return chromium("file://" + page.string(), "--dump-dom");
}

/// Width and height of a PNG (IHDR), {0, 0} if it is not one.
std::pair<std::uint32_t, std::uint32_t> png_size(const fs::path& png) {
  const std::string data = test::read_file(png.string());
  if (data.size() < 24 || data.compare(1, 3, "PNG") != 0) return {0, 0};
  auto be = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(data[at + i]);
    return v;
  };
  return {be(16), be(20)};
}

/// Screenshot of `page` (optionally `#only-<view>`) at width x height into build/report-browser/
/// or, with LINKCAST_UPDATE_SCREENSHOTS=1, into docs/img/.
fs::path screenshot(const fs::path& page, const std::string& name, const std::string& fragment, int width, int height) {
  const char* update = std::getenv("LINKCAST_UPDATE_SCREENSHOTS");
  const fs::path dir =
      update && std::string(update) == "1" ? fs::path(LINKCAST_SOURCE_DIR) / "docs" / "img" : out_dir();
  fs::create_directories(dir);
  const fs::path png = dir / (name + ".png");
  fs::remove(png);
  const BrowserRun r = chromium("file://" + page.string() + fragment, "--hide-scrollbars --screenshot=" + png.string() +
                                                                          " --window-size=" + std::to_string(width) +
                                                                          "," + std::to_string(height));
  EXPECT_EQ(r.status, 0) << name;
  return png;
}

bool updating_screenshots() {
  const char* update = std::getenv("LINKCAST_UPDATE_SCREENSHOTS");
  return update && std::string(update) == "1";
}

/// The opening tag of the element with id="id" ("" if absent) and its text up to the next tag.
struct Element {
  std::string tag, text;
  bool found = false;
  std::string attr(const std::string& name) const {
    const std::string key = " " + name + "=\"";
    const std::size_t at = tag.find(key);
    if (at == std::string::npos) return "";
    const std::size_t from = at + key.size();
    return tag.substr(from, tag.find('"', from) - from);
  }
};
Element element(const std::string& dom, const std::string& id) {
  Element e;
  const std::size_t at = dom.find(" id=\"" + id + "\"");
  if (at == std::string::npos) return e;
  const std::size_t open = dom.rfind('<', at), close = dom.find('>', at);
  e.tag = dom.substr(open, close - open + 1);
  e.text = dom.substr(close + 1, dom.find('<', close) - close - 1);
  e.found = true;
  return e;
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + needle.size())) ++n;
  return n;
}

/// What every page must show after its script ran; returns the number of checked sums.
std::size_t expect_rendered(const std::string& dom, bool projected) {
  EXPECT_THAT(dom, HasSubstr("<html lang=\"en\" data-colour-mode=\"avg\" data-rendered=\"ok\">"))
      << "the inline script did not finish, or a chart sum did not match its table";
  const Element status = element(dom, "script-status");
  EXPECT_THAT(status.text, StartsWith("Interactive: "));
  EXPECT_THAT(status.text, Not(HasSubstr("MISMATCHED")));
  // Every sum the script wrote equals what linkcast wrote beside it.
  const std::size_t outputs = count_of(dom, "<output ");
  EXPECT_EQ(count_of(dom, "data-ok=\"1\""), outputs);
  EXPECT_EQ(count_of(dom, "(script did not run)"), 0u);
  for (const char* view : {"topology", "system", "objects", "code", "devices", "communicators", "simulation", "checks"})
    EXPECT_THAT(dom, HasSubstr(std::string("<section id=\"view-") + view + "\" data-view=")) << view;
  if (projected)
    EXPECT_THAT(dom, HasSubstr("<section id=\"view-projection\""));
  else
    EXPECT_THAT(dom, Not(HasSubstr("<section id=\"view-projection\"")));
  // The legend's lane counts (written by the script) add up to every lane drawn.
  std::size_t lanes = 0;
  for (const char* band : {"idle", "low", "medium", "high", "critical"}) {
    const Element e = element(dom, std::string("band-count-") + band);
    EXPECT_TRUE(e.found) << band;
    EXPECT_EQ(std::to_string(count_of(dom, std::string("data-band-avg=\"") + band + "\"")), e.text) << band;
    lanes += static_cast<std::size_t>(std::atoi(e.text.c_str()));
  }
  EXPECT_EQ(lanes, count_of(dom, "class=\"lane\""));
  return outputs;
}

double number(const std::string& text) {
  return std::strtod(text.c_str(), nullptr);
}

/// Sum of a `linkcast matrix --format json` byte matrix.
double matrix_total(const nlohmann::json& j) {
  double s = 0;
  for (const auto& row : j["bytes"])
    for (const auto& v : row) s += v.get<double>();
  return s;
}

double links_total(const nlohmann::json& sim) {
  double s = 0;
  for (const auto& l : sim["links"]) s += l["bytes"].get<double>();
  return s;
}

/// data-sort of the `column`-th cell of the row starting with `first` in table `id`.
double table_value(const std::string& dom, const std::string& id, const std::string& first, std::size_t column) {
  const std::size_t t = dom.find("id=\"" + id + "\"");
  if (t == std::string::npos) return std::nan("");
  const std::size_t row = dom.find("<tr><td>" + first + "</td>", t);
  if (row == std::string::npos) return std::nan("");
  std::size_t at = row;
  for (std::size_t c = 0; c <= column; ++c) at = dom.find("<td", at + 1);
  const Element cell{dom.substr(at, dom.find('>', at) - at + 1), "", true};
  return number(cell.attr("data-sort"));
}

/// The browser test's own probe, appended to a copy of a page after its script: it reads what
/// the reader would see (which check lines and status are shown), then shows every tab panel and
/// measures the laid-out geometry: every chart text against its chart's width, the log-scale
/// legends' low ends, and in the topology the link labels (overlaps, distance to their own lanes
/// and to other links) and the lanes against the endpoint boxes. Its findings go into
/// <pre id="probe"> as URI-encoded JSON.
constexpr const char* kGeometryProbe = R"JS(
(function () {
  var r = { visible_checks: 0, status_hidden: false, texts: 0, overflows: [], log_lows: [], labels: 0,
            label_overlaps: [], labels_off_own_lane: [], labels_on_other_links: [], lanes_through_boxes: [] };
  var all = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  r.visible_checks = all('p.check').filter(function (p) { return !p.hidden; }).length;
  r.status_hidden = document.getElementById('script-status').hidden;
  all('.tab-panel').forEach(function (p) { p.hidden = false; });
  all('svg.chart').forEach(function (svg) {
    var box = svg.getBoundingClientRect(), scale = svg.viewBox.baseVal.width / box.width;
    var lg = all('text.lg', svg);
    lg.forEach(function (t, i) {
      if (/\(log scale\)$/.test(t.textContent) && i > 0) r.log_lows.push(lg[i - 1].textContent);
    });
    all('text', svg).forEach(function (t) {
      var b = t.getBoundingClientRect();
      if (b.width === 0) return;
      r.texts++;
      var left = (b.left - box.left) * scale, right = (b.right - box.left) * scale;
      if (left < -0.5 || right > svg.viewBox.baseVal.width + 0.5)
        r.overflows.push(svg.id + ': "' + t.textContent + '" ' + left.toFixed(1) + '..' + right.toFixed(1) + ' of ' +
                         svg.viewBox.baseVal.width);
    });
  });
  var topo = document.getElementById('topology-svg');
  var boxes = all('g.ep', topo).map(function (g) {
    var b = g.querySelector('rect').getBBox();
    return { id: g.getAttribute('data-endpoint'), x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height };
  });
  var lanes = all('path.lane', topo).map(function (p) {
    var title = p.querySelector('title').textContent, n = p.getTotalLength(), pts = [];
    for (var k = 0; k <= 200; k++) pts.push(p.getPointAtLength(n * k / 200));
    return { link: p.parentNode.getAttribute('data-link'), from: title.split(' \u2192 ')[0],
             to: title.split(' \u2192 ')[1].split(' (')[0], pts: pts };
  });
  lanes.forEach(function (l) {
    boxes.forEach(function (b) {
      if (b.id === l.from || b.id === l.to) return;
      if (l.pts.some(function (p) { return p.x > b.x0 + 1 && p.x < b.x1 - 1 && p.y > b.y0 + 1 && p.y < b.y1 - 1; }))
        r.lanes_through_boxes.push(l.from + '->' + l.to + ' through ' + b.id);
    });
  });
  var labels = all('text.ll', topo).map(function (t) {
    var b = t.getBBox();
    return { link: t.querySelector('title').textContent.split(':')[0], x0: b.x, y0: b.y, x1: b.x + b.width,
             y1: b.y + b.height, cx: b.x + b.width / 2, cy: b.y + b.height / 2 };
  });
  r.labels = labels.length;
  var hit = function (a, b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; };
  labels.forEach(function (a, i) {
    labels.slice(i + 1).forEach(function (b) { if (hit(a, b)) r.label_overlaps.push(a.link + ' / ' + b.link); });
    boxes.forEach(function (b) { if (hit(a, b)) r.label_overlaps.push(a.link + ' / box ' + b.id); });
    var own = Infinity, others = {};
    lanes.forEach(function (l) {
      l.pts.forEach(function (p) {
        var d = Math.hypot(p.x - a.cx, p.y - a.cy);
        if (l.link === a.link) own = Math.min(own, d);
        else if (d < 6) others[l.link] = true;
      });
    });
    if (own > 5) r.labels_off_own_lane.push(a.link + ' ' + own.toFixed(1) + ' px');
    if (Object.keys(others).length) r.labels_on_other_links.push(a.link + ' on ' + Object.keys(others).join(','));
  });
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = encodeURIComponent(JSON.stringify(r));
  document.body.appendChild(pre);
})();
)JS";

/// `page` with kGeometryProbe appended, opened in Chromium: the probe's findings, or null when
/// the page did not give any.
nlohmann::json probe(const fs::path& page, const std::string& name) {
  std::string html = test::read_file(page.string());
  const std::size_t end = html.rfind("</body>");
  if (end == std::string::npos) return nullptr;
  html.insert(end, std::string("<script>") + kGeometryProbe + "</script>");
  const fs::path probed = out_dir() / (name + "-probed.html");
  std::ofstream(probed) << html;
  const BrowserRun dom = dump_dom(probed);
  EXPECT_EQ(dom.status, 0) << name;
  const Element pre = element(dom.out, "probe");
  if (!pre.found) return nullptr;
  std::string json;
  for (std::size_t i = 0; i < pre.text.size(); ++i) {
    if (pre.text[i] == '%' && i + 2 < pre.text.size()) {
      json += static_cast<char>(std::stoi(pre.text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      json += pre.text[i];
    }
  }
  return nlohmann::json::parse(json);
}

/// What every probed page must show: no check line and no script status shown (the sums all
/// matched), every chart text inside its chart, no log-scale legend starting at 0.
void expect_clean_page(const nlohmann::json& g, const std::string& name) {
  ASSERT_TRUE(g.is_object()) << name << ": the probe did not run";
  EXPECT_EQ(g["visible_checks"], 0) << name;
  EXPECT_TRUE(g["status_hidden"].get<bool>()) << name;
  EXPECT_GT(g["texts"].get<int>(), 100) << name;  // the probe measured the charts' texts
  EXPECT_EQ(g["overflows"], nlohmann::json::array()) << name;
  for (const auto& low : g["log_lows"]) {
    EXPECT_NE(low, "0") << name;
    EXPECT_NE(low, "0 B") << name;
  }
  EXPECT_EQ(g["lanes_through_boxes"], nlohmann::json::array()) << name;
  EXPECT_EQ(g["label_overlaps"], nlohmann::json::array()) << name;
  EXPECT_EQ(g["labels_off_own_lane"], nlohmann::json::array()) << name;
}

TEST(ReportBrowser, StencilOnDgx1ProjectedOntoHgxH100) {
  REQUIRE_CHROMIUM();
  const std::string spec = "stencil2d:iters=10,periodic=1";
  const std::string dgx1 = "configs/dgx1-v100.yaml", hgx = "configs/hgx-h100.yaml";
  const fs::path page = out_dir() / "stencil-dgx1-to-hgx-h100.html";
  const auto made =
      run_linkcast("report --workload " + spec + " --node " + dgx1 + " --to " + hgx + " -o " + page.string());
  ASSERT_EQ(made.exit_code, 0) << made.err;

  const BrowserRun dom = dump_dom(page);
  ASSERT_EQ(dom.status, 0);
  EXPECT_GE(expect_rendered(dom.out, true), 20u);

  // System view: the cells add up to what `linkcast matrix` prints (8 pairs each way, 40960 B).
  const fs::path saved = out_dir() / "stencil.csv";
  const auto m =
      run_linkcast("matrix --workload " + spec + " --node " + dgx1 + " --format json --save-trace " + saved.string());
  ASSERT_EQ(m.exit_code, 0) << m.err;
  const auto mj = nlohmann::json::parse(m.out);
  EXPECT_EQ(matrix_total(mj), 655360);
  EXPECT_EQ(element(dom.out, "sum-system-bytes").text, "655360");
  EXPECT_EQ(element(dom.out, "sum-system-count").text, "5120");
  // Topology: the lanes carry what `linkcast simulate` says the links carried.
  const auto s = run_linkcast("simulate " + dgx1 + " --workload " + spec + " --format json");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const auto sj = nlohmann::json::parse(s.out);
  EXPECT_NEAR(number(element(dom.out, "sum-topology-bytes").text), links_total(sj), 1e-6 * links_total(sj));
  EXPECT_EQ(element(dom.out, "card-sim-makespan").tag, "<div class=\"card\" id=\"card-sim-makespan\">");
  EXPECT_THAT(dom.out, HasSubstr("<b>" + format_duration_ns(sj["makespan_s"].get<double>() * 1e9) +
                                 "</b><span>simulated makespan"));
  // Projection: the default model's total is `linkcast project`'s for the same trace.
  const auto p = run_linkcast("project --from " + dgx1 + " --to " + hgx + " " + saved.string() + " --format json");
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const auto pj = nlohmann::json::parse(p.out);
  for (const char* model : {"default", "ahead", "peak", "envelope"}) {
    const double expected_ns = pj["models"][model]["projected_total_s"].get<double>() * 1e9;
    EXPECT_NEAR(table_value(dom.out, "table-projection-totals", model, 4), expected_ns, 1e-9 * expected_ns) << model;
  }
  // Tabs: the script shows the first GPU's objects and hides the others.
  EXPECT_TRUE(element(dom.out, "objects-gpu0").found);
  EXPECT_THAT(element(dom.out, "objects-gpu0").tag, Not(HasSubstr(" hidden")))
      << element(dom.out, "objects-gpu0").tag;
  EXPECT_THAT(element(dom.out, "objects-gpu1").tag, HasSubstr(" hidden=\"\""))
      << element(dom.out, "objects-gpu1").tag;
  // Hover texts are in the DOM: a heatmap cell and a lane.
  EXPECT_THAT(dom.out, HasSubstr("<title>gpu3 \u2192 gpu4: 40 KiB (40960 bytes)</title>"));
  EXPECT_THAT(dom.out, HasSubstr("<title>gpu0 \u2192 gpu1 (gpu0-gpu1, NV1 (NVLink2)): 40 KiB of data (40960 B;"));

  // What the reader sees, laid out: no check line and no script status (every sum matched),
  // every chart text inside its chart (the projection's legends name hgx-h100 and wrap).
  expect_clean_page(probe(page, "stencil"), "stencil");
  // A sum that does not match its table is shown, and so is the status: the system heatmap's
  // expected sum made one byte more than its cells (655360 B).
  std::string wrong = test::read_file(page.string());
  const std::string expect = "id=\"sum-system-bytes\" data-expect=\"655360\"";
  ASSERT_NE(wrong.find(expect), std::string::npos);
  wrong.replace(wrong.find(expect), expect.size(), "id=\"sum-system-bytes\" data-expect=\"655361\"");
  const fs::path mismatched = out_dir() / "stencil-mismatched.html";
  std::ofstream(mismatched) << wrong;
  const nlohmann::json shown = probe(mismatched, "stencil-mismatched");
  ASSERT_TRUE(shown.is_object());
  EXPECT_EQ(shown["visible_checks"], 1);
  EXPECT_FALSE(shown["status_hidden"].get<bool>());
  const BrowserRun bad = dump_dom(mismatched);
  EXPECT_THAT(bad.out, HasSubstr("data-rendered=\"mismatch\""));
  EXPECT_THAT(element(bad.out, "script-status").text, HasSubstr(", 1 MISMATCHED"));

  const fs::path png = screenshot(page, "report-stencil-dgx1", "", 1400, 3000);
  EXPECT_EQ(png_size(png), std::make_pair(1400u, 3000u));
  EXPECT_GT(fs::file_size(png), 20000u);
  if (updating_screenshots()) screenshot(page, "report-projection", "#only-projection", 1400, 1300);
}

TEST(ReportBrowser, DataParallelOnDgx1ShowsCollectivesAndCongestedLinks) {
  REQUIRE_CHROMIUM();
  // 4 steps: each GPU loads a 16 MiB batch over PCIe, gradients all-reduced on a tree (a chain).
  const std::string spec = "data-parallel:steps=4";
  const std::string dgx1 = "configs/dgx1-v100.yaml";
  const fs::path page = out_dir() / "data-parallel-dgx1.html";
  const auto made = run_linkcast("report --workload " + spec + " --node " + dgx1 + " -o " + page.string());
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const BrowserRun dom = dump_dom(page);
  ASSERT_EQ(dom.status, 0);
  expect_rendered(dom.out, false);
  const auto m = run_linkcast("matrix --workload " + spec + " --node " + dgx1 + " --format json");
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(number(element(dom.out, "sum-system-bytes").text), matrix_total(nlohmann::json::parse(m.out)));
  const auto s = run_linkcast("simulate " + dgx1 + " --workload " + spec + " --format json");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const auto sj = nlohmann::json::parse(s.out);
  EXPECT_NEAR(number(element(dom.out, "sum-topology-bytes").text), links_total(sj), 1e-6 * links_total(sj));
  // The host links are the busiest: every lane's band agrees with its utilisation in the JSON.
  for (const auto& l : sj["links"]) {
    const double u = l["utilisation"].get<double>();
    const std::string band = u <= 0      ? "idle"
                             : u <= 0.25 ? "low"
                             : u <= 0.5  ? "medium"
                             : u <= 0.75 ? "high"
                                         : "critical";
    const std::string title = "<title>" + l["from"].get<std::string>() + " \u2192 " + l["to"].get<std::string>() +
                              " (" + l["link"].get<std::string>() + ",";
    ASSERT_THAT(dom.out, HasSubstr(title));
    const std::size_t at = dom.out.find(title);
    const std::size_t tag = dom.out.rfind("<path class=\"lane\"", at);
    EXPECT_THAT(dom.out.substr(tag, at - tag), HasSubstr("data-band-avg=\"" + band + "\""))
        << title << " " << u;
  }
  EXPECT_THAT(dom.out, HasSubstr("<section id=\"view-communicators\""));
  EXPECT_TRUE(element(dom.out, "table-collectives").found);
  EXPECT_TRUE(element(dom.out, "sum-comms").found);
  // The topology's labels: one per link that carried data (16 NVLinks, 4 socket and 8 GPU PCIe
  // links), none over another or a box, each on its own lanes; the cube mesh's arcs cross, and
  // at most 2 labels (the one-apart arcs gpu2-gpu3 and gpu4-gpu5, whose every place is by a box
  // or another label) have another link within 6 px of their middle (6 did when every label sat
  // at its arc's middle). No lane runs through a box not its own (the NICs sit beside their
  // switch's GPUs).
  const nlohmann::json g = probe(page, "data-parallel");
  expect_clean_page(g, "data-parallel");
  EXPECT_EQ(g["labels"], 28);
  EXPECT_LE(g["labels_on_other_links"].size(), 2u) << g["labels_on_other_links"].dump();
  const fs::path png = screenshot(page, "report-data-parallel-dgx1", "", 1400, 3000);
  EXPECT_EQ(png_size(png), std::make_pair(1400u, 3000u));
  if (updating_screenshots()) {
    screenshot(page, "report-topology", "#only-topology", 1400, 1250);
    screenshot(page, "report-system", "#only-system", 1400, 2000);
    screenshot(page, "report-objects", "#only-objects", 1400, 800);
    screenshot(page, "report-code-devices", "#only-code,devices", 1400, 1500);
    screenshot(page, "report-communicators", "#only-communicators", 1400, 700);
    screenshot(page, "report-timeline", "#only-simulation", 1400, 2300);
  }
}

TEST(ReportBrowser, RecordedDdpTraceOnTheH200Machine) {
  REQUIRE_CHROMIUM();
  // PyTorch DDP rank 0 recorded on 2 x H200 (Kineto): copies, memsets and NCCL allreduces with
  // measured durations; projected onto an 8-GPU HGX H200.
  const std::string trace = "tests/data/real/h200-2gpu/torch_ddp_rank0.json.gz";
  const std::string node = "configs/testbed-h200-2gpu.yaml", hgx = "configs/hgx-h200.yaml";
  const fs::path page = out_dir() / "ddp-h200.html";
  const auto made = run_linkcast("report " + trace + " --node " + node + " --to " + hgx + " -o " + page.string());
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const BrowserRun dom = dump_dom(page);
  ASSERT_EQ(dom.status, 0);
  expect_rendered(dom.out, true);
  const auto m = run_linkcast("matrix " + trace + " --node " + node + " --format json");
  ASSERT_EQ(m.exit_code, 0);
  // `linkcast matrix` says what was recorded; the page adds gpu1's part of the 40 allreduces
  // (716549920 B), which the simulation and so the topology's lanes carry too.
  EXPECT_EQ(element(dom.out, "sum-system-bytes").text, "2432785760");  // 1716235840 + 716549920
  EXPECT_EQ(matrix_total(nlohmann::json::parse(m.out)), 1716235840);
  EXPECT_THAT(dom.out, HasSubstr("The trace has no record of gpu1 of pg:0 in 40 collective calls"));
  // Measured on the source: the trace's own durations, as `linkcast project` sums them.
  const auto p = run_linkcast("project --from " + node + " --to " + hgx + " " + trace + " --format json");
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const auto pj = nlohmann::json::parse(p.out);
  const double measured_ns = pj["source_total_s"].get<double>() * 1e9;
  EXPECT_NEAR(table_value(dom.out, "table-projection-totals", "default", 2), measured_ns, 1e-6 * measured_ns);
  const double projected_ns = pj["models"]["default"]["projected_total_s"].get<double>() * 1e9;
  EXPECT_NEAR(table_value(dom.out, "table-projection-totals", "default", 4), projected_ns, 1e-9 * projected_ns);
  // The simulation of the trace's data movement against the measured durations, as `linkcast
  // simulate` scores the same operations (matrix --save-trace writes them; a simulate of the
  // Kineto file itself replays the whole application, kernels and runtime calls too).
  const fs::path moved = out_dir() / "ddp-h200-data-movement.csv";
  ASSERT_EQ(run_linkcast("matrix " + trace + " --node " + node + " --save-trace " + moved.string()).exit_code, 0);
  const auto s = run_linkcast("simulate " + node + " " + moved.string() + " --format json");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const auto sj = nlohmann::json::parse(s.out);
  char wmape[32];
  std::snprintf(wmape, sizeof wmape, "%.1f%%", sj["stats"]["wmape_vs_measured_percent"].get<double>());
  EXPECT_THAT(dom.out, HasSubstr(std::string("<b>") + wmape + "</b><span>WMAPE vs measured (400 ops)"))
      << wmape;
  // Only rank 0 is in the file: the communicator view and the checks say so.
  EXPECT_THAT(dom.out, HasSubstr("no: a member missed calls"));
  EXPECT_THAT(dom.out, HasSubstr("<b>FAIL</b> collectives: every member recorded every call"));
  // The projection's legends ("measured on testbed-h200-2gpu", "projected on hgx-h200") and the
  // count heatmaps' log-scale legends (40 transfers at most per cell: from 1, not 0).
  expect_clean_page(probe(page, "ddp"), "ddp");
  const fs::path png = screenshot(page, "report-ddp-h200", "", 1400, 3000);
  EXPECT_EQ(png_size(png), std::make_pair(1400u, 3000u));
}

TEST(ReportBrowser, NicsBesideTheirSwitchesGpusOnDgxA100AndHgxH100) {
  REQUIRE_CHROMIUM();
  // The nodes whose PCIe switches each hold GPUs and NICs: no switch's lane to a GPU runs
  // through a NIC's box (nor any lane through a box not its own), no label over another.
  for (const std::string node : {"dgx-a100", "hgx-h100"}) {
    const fs::path page = out_dir() / ("data-parallel-" + node + ".html");
    const auto made = run_linkcast("report --workload data-parallel:steps=1 --node configs/" + node + ".yaml -o " +
                                   page.string());
    ASSERT_EQ(made.exit_code, 0) << made.err;
    const nlohmann::json g = probe(page, "data-parallel-" + node);
    expect_clean_page(g, node);
    EXPECT_GT(g["labels"].get<int>(), 16) << node;  // the GPUs' links carried data
  }
}

TEST(ReportBrowser, MillionOperationTraceStaysSmallAndFast) {
  REQUIRE_CHROMIUM();
  // 2232 iterations of the 8-GPU stencil: 999,936 device-initiated accesses. The page
  // aggregates (no element per operation), so it stays well under 20 MB and lays out in well
  // under 3 s. tests/browser/large_report.sh measures the same at 10 million operations.
  const fs::path page = out_dir() / "stencil-1M.html";
  const auto start = std::chrono::steady_clock::now();
  const auto made =
      run_linkcast("report --workload stencil2d:iters=2232 --node configs/dgx1-v100.yaml -o " + page.string());
  const double generate_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto bytes = fs::file_size(page);
  EXPECT_LT(bytes, 20u * 1000 * 1000);
  // The page's size does not grow with the operations (0.50 MB today): twice that is a regression.
  EXPECT_LT(bytes, 1000u * 1000);
  const BrowserRun dom = dump_dom(page);
  ASSERT_EQ(dom.status, 0);
  expect_rendered(dom.out, false);
  EXPECT_THAT(dom.out, HasSubstr("id=\"card-ops\"><b>999,936</b>"));
  const double render_ms = number(element(dom.out, "render-ms").text);
  EXPECT_GT(render_ms, 0);
  EXPECT_LT(render_ms, 3000);
  const double elements = number(element(dom.out, "dom-nodes").text);
  EXPECT_LT(elements, 30000);
  RecordProperty("report_bytes", std::to_string(bytes));
  RecordProperty("render_ms", std::to_string(render_ms));
  std::printf(
      "1M-op report: %.2f MB, generated in %.1f s, laid out %.0f ms after navigation (%.0f elements); chromium "
      "--dump-dom took %.1f s in all\n",
      static_cast<double>(bytes) / 1e6, generate_s, render_ms, elements, dom.seconds);
}

}  // namespace
}  // namespace linkcast
