// The HTML report's building blocks (report/): INAM's utilisation bands, escaping and exact
// numbers, capped tables, the node layout, the timeline summary, and whole pages rendered in
// process: every view present, numbers that agree with the matrices and the simulation, nothing
// fetched, rows capped on large inputs.
#include "report/report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

#include "core/units.hpp"
#include "matrix/matrix.hpp"
#include "report/charts.hpp"
#include "report/html.hpp"
#include "report/topology_view.hpp"
#include "sim/simulate.hpp"
#include "test_util.hpp"
#include "topology/loader.hpp"
#include "synthetic/catalog.hpp"
#include "trace/ranks.hpp"
#include "trace/select.hpp"

namespace linkcast::report {
namespace {

using sim::SimulationSummary;
using sim::CategoryTimes;
using ::testing::HasSubstr;
using ::testing::Not;

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + needle.size())) ++n;
  return n;
}

/// The data-expect of the script-check output with this id.
std::string expected_sum(const std::string& html, const std::string& id) {
  const std::size_t at = html.find("<output id=\"" + id + "\" data-expect=\"");
  if (at == std::string::npos) return "(no check " + id + ")";
  const std::size_t from = html.find("data-expect=\"", at) + 13;
  return html.substr(from, html.find('"', from) - from);
}

struct Page {
  topology::Node node;
  trace::Trace trace;
  matrix::Report matrix;
  sim::SimResult sim;
  std::string html;
};

/// Builds a page the way `linkcast report` does, in process: the simulation (with what a
/// workload's spec says about its collectives), then the matrices of the calls as it ran them.
Page render(const std::string& node_file, const trace::Trace& trace, std::size_t max_rows = 25,
            const nccl::CollectiveConfig* workload_collectives = nullptr) {
  Page p;
  p.node = topology::load_node(test::config(node_file));
  p.trace = trace;
  sim::SimOptions so;
  so.bins = 8;
  if (workload_collectives) sim::apply_collective_config(*workload_collectives, so);
  p.sim = sim::simulate(p.node, p.trace, so);
  matrix::Options mo;
  mo.node = &p.node;
  if (workload_collectives) mo.collectives = *workload_collectives;
  mo.ran = calls_as_run(p.sim);
  p.matrix = matrix::build(p.trace, mo);
  Inputs in;
  in.node = &p.node;
  in.trace = &p.trace;
  in.matrix = &p.matrix;
  in.sim = &p.sim;
  Options opt;
  opt.max_rows = max_rows;
  std::ostringstream out;
  render_html(in, opt, out);
  p.html = out.str();
  return p;
}

/// Expects the page's matrices (all types) to hold what the simulation moved between each pair
/// of the node's endpoints (sim::SimResult::matrix: copies and collective steps alike, plus the
/// memsets a GPU writes into its own memory, which the matrices leave out), to 1e-9 of the larger
/// (the simulation sums bytes in doubles).
void expect_matrix_is_the_simulations(const Page& p) {
  std::map<std::string, double> memset_bytes;
  for (std::size_t r = 0; r < p.trace.size(); ++r) {
    const trace::Op op = p.trace.op(r);
    if (op.kind == trace::OpKind::memset) memset_bytes[p.trace.endpoint_name(op.src)] += static_cast<double>(op.bytes);
  }
  const auto& eps = p.sim.matrix_endpoints;
  for (std::size_t a = 0; a < eps.size(); ++a)
    for (std::size_t b = 0; b < eps.size(); ++b) {
      const std::string& from = p.node.endpoints[static_cast<std::size_t>(eps[a])].id;
      const std::string& to = p.node.endpoints[static_cast<std::size_t>(eps[b])].id;
      const auto i = std::find(p.matrix.endpoints.begin(), p.matrix.endpoints.end(), from);
      const auto j = std::find(p.matrix.endpoints.begin(), p.matrix.endpoints.end(), to);
      ASSERT_NE(i, p.matrix.endpoints.end()) << from;
      ASSERT_NE(j, p.matrix.endpoints.end()) << to;
      const double simulated = p.sim.matrix[a][b] - (a == b ? memset_bytes[from] : 0.0);
      const double shown = static_cast<double>(p.matrix.total.bytes_at(
          static_cast<std::size_t>(i - p.matrix.endpoints.begin()), static_cast<std::size_t>(j - p.matrix.endpoints.begin())));
      EXPECT_NEAR(shown, simulated, 1e-9 * std::max(shown, simulated)) << from << " -> " << to;
    }
}

TEST(ReportBands, FollowOsuInamThresholds) {
  // Kousha et al., sec. IV: grey 0%, light green up to 25%, dark green 25-50%, orange 50-75%,
  // red 75-100%. The upper edges belong to the lower band; anything above 100% stays red.
  EXPECT_EQ(utilisation_band(0.0), Band::idle);
  EXPECT_EQ(utilisation_band(-0.1), Band::idle);
  EXPECT_EQ(utilisation_band(std::nan("")), Band::idle);
  EXPECT_EQ(utilisation_band(1e-12), Band::low);
  EXPECT_EQ(utilisation_band(0.25), Band::low);
  EXPECT_EQ(utilisation_band(0.2501), Band::medium);
  EXPECT_EQ(utilisation_band(0.5), Band::medium);
  EXPECT_EQ(utilisation_band(0.75), Band::high);
  EXPECT_EQ(utilisation_band(0.7501), Band::critical);
  EXPECT_EQ(utilisation_band(1.0), Band::critical);
  EXPECT_EQ(utilisation_band(1.7), Band::critical);
  EXPECT_EQ(band_colour(Band::idle), "#b0b0b0");
  EXPECT_EQ(band_colour(Band::low), "#9ccc65");
  EXPECT_EQ(band_colour(Band::medium), "#2e7d32");
  EXPECT_EQ(band_colour(Band::high), "#fb8c00");
  EXPECT_EQ(band_colour(Band::critical), "#e53935");
  EXPECT_EQ(band_label(Band::high), "<=75%");
}

TEST(ReportHtml, EscapesAndWritesExactNumbers) {
  EXPECT_EQ(escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
  EXPECT_EQ(exact(286720), "286720");
  EXPECT_EQ(exact(40960.00000003018), "40960");  // the simulator's floating-point noise
  EXPECT_EQ(exact(0.5), "0.5");
  EXPECT_EQ(exact(std::nan("")), "0");
  EXPECT_EQ(thousands(1234567), "1,234,567");
  EXPECT_EQ(thousands(999), "999");
  EXPECT_EQ(percent(0.123), "12.3%");
  EXPECT_EQ(format_bytes_compact(40960), "40 KiB");
  EXPECT_EQ(format_bytes_compact(716549920), "683 MiB");
  EXPECT_EQ(format_bytes_compact(512), "512 B");
  EXPECT_EQ(short_count(7200), "7200");
  EXPECT_EQ(short_count(12345), "12.3k");
  EXPECT_EQ(truncate_label("abcdefgh", 5), "abcd\u2026");
  const Cell b = bytes_cell(65536);
  EXPECT_EQ(b.text, "64 KiB");
  EXPECT_EQ(b.sort, "65536");
  EXPECT_EQ(b.title, "65536 B");
}

TEST(ReportHtml, TableWithFooterAndMoreLine) {
  HtmlTable t({{"object"}, {"bytes", true}}, "t1");
  t.add_row({text_cell("a<b"), bytes_cell(1024)});
  t.set_more("3 more objects");
  t.set_footer({text_cell("all"), bytes_cell(2048)});
  EXPECT_EQ(t.render(),
            "<table class=\"data sortable\" id=\"t1\"><thead><tr><th>object</th><th class=\"n\">bytes</th></tr></thead>"
            "<tbody><tr><td>a&lt;b</td><td class=\"n\" data-sort=\"1024\" title=\"1024 B\">1 KiB</td></tr></tbody>"
            "<tfoot><tr class=\"more\"><td colspan=\"2\">3 more objects</td></tr><tr class=\"total\"><td>all</td>"
            "<td class=\"n\" data-sort=\"2048\" title=\"2048 B\">2 KiB</td></tr></tfoot></table>");
}

TEST(ReportLayout, Dgx1InLayersSocketsOnTop) {
  // DGX-1: sockets (layer 0), PCIe switches one hop down (1), then the GPUs (2) with each
  // switch's NIC beside its GPUs (a NIC at the end of a branch: in a row of its own between the
  // switches and the GPUs, the switches' lanes to their GPUs ran through its box), on the outer
  // side (left of them in the left half). GPUs keep their order under their switches.
  const topology::Node node = topology::load_node(test::config("dgx1-v100.yaml"));
  const NodeLayout lay = layout_node(node);
  auto layer = [&](const char* id) { return lay.layer[static_cast<std::size_t>(node.find(id))]; };
  auto x = [&](const char* id) { return lay.at[static_cast<std::size_t>(node.find(id))].x; };
  EXPECT_EQ(layer("cpu0"), 0);
  EXPECT_EQ(layer("cpu1"), 0);
  EXPECT_EQ(layer("sw0"), 1);
  for (const char* nic : {"nic0", "nic1", "nic2", "nic3"}) EXPECT_EQ(layer(nic), 2) << nic;
  for (int g = 0; g < 8; ++g) EXPECT_EQ(layer(("gpu" + std::to_string(g)).c_str()), 2) << g;
  for (int g = 0; g + 1 < 8; ++g)
    EXPECT_LT(x(("gpu" + std::to_string(g)).c_str()), x(("gpu" + std::to_string(g + 1)).c_str())) << g;
  EXPECT_LT(x("nic0"), x("gpu0"));  // sw0: nic0, gpu0, gpu1
  EXPECT_LT(x("gpu1"), x("nic1"));
  EXPECT_LT(x("nic1"), x("gpu2"));  // sw1: nic1, gpu2, gpu3
  EXPECT_GT(x("nic2"), x("gpu5"));  // sw2 (right half): gpu4, gpu5, nic2
  EXPECT_LT(x("nic2"), x("gpu6"));
  EXPECT_GT(x("nic3"), x("gpu7"));  // sw3: gpu6, gpu7, nic3
  EXPECT_LT(x("cpu0"), x("cpu1"));
  EXPECT_LT(x("sw0"), x("sw3"));
  // Layers go down the page; no two boxes of a layer overlap.
  EXPECT_LT(lay.at[static_cast<std::size_t>(node.find("cpu0"))].y,
            lay.at[static_cast<std::size_t>(node.find("sw0"))].y);
  EXPECT_LT(lay.at[static_cast<std::size_t>(node.find("sw0"))].y,
            lay.at[static_cast<std::size_t>(node.find("gpu0"))].y);
  EXPECT_GE(x("gpu1") - x("gpu0"), lay.box_width);
  EXPECT_GE(x("gpu0") - x("nic0"), lay.box_width);
  EXPECT_GT(lay.height, lay.at[static_cast<std::size_t>(node.find("gpu0"))].y);
}

TEST(ReportLayout, NoLaneCrossesTheBoxOfAnEndpointNotItsOwn) {
  // Every shipped node drawn: each lane (a quadratic from one box's centre to the other's, as
  // the SVG says) sampled at 200 points must stay out of every box but its two endpoints' (boxes
  // shrunk by 1 px: a lane may graze an edge). On DGX-1, DGX A100 and HGX H100 the PCIe
  // switches' lanes to their GPUs ran through the NIC boxes between them when the NICs had a row
  // of their own.
  const std::regex link_re("<g class=\"link\" data-link=\"[^\"]*\">");
  const std::regex lane_re("<path class=\"lane\" d=\"M([-0-9.]+) ([-0-9.]+)Q([-0-9.]+) ([-0-9.]+) ([-0-9.]+) ([-0-9.]+)\"");
  std::size_t nodes = 0;
  for (const auto& file : std::filesystem::directory_iterator(test::source_dir() + "/configs")) {
    if (file.path().extension() != ".yaml") continue;
    ++nodes;
    const topology::Node node = topology::load_node(file.path().string());
    const NodeLayout lay = layout_node(node);
    const std::string svg = topology_svg(node, lay, link_traffic(node, sim::SimResult{}),
                                         std::vector<double>(node.endpoints.size(), 0.0),
                                         std::vector<double>(node.endpoints.size(), 0.0), "sum");
    std::size_t link = 0, lanes = 0;
    for (auto g = std::sregex_iterator(svg.begin(), svg.end(), link_re); g != std::sregex_iterator(); ++g, ++link) {
      ASSERT_LT(link, node.links.size());
      const auto a = static_cast<std::size_t>(node.links[link].a), b = static_cast<std::size_t>(node.links[link].b);
      const auto from = svg.begin() + g->position() + g->length();
      const auto to = svg.begin() + static_cast<std::ptrdiff_t>(svg.find("</g>", static_cast<std::size_t>(g->position())));
      for (auto m = std::sregex_iterator(from, to, lane_re); m != std::sregex_iterator(); ++m, ++lanes) {
        double v[6];
        for (int k = 0; k < 6; ++k) v[k] = std::stod((*m)[k + 1].str());
        std::string crossed;
        for (int step = 0; step <= 200 && crossed.empty(); ++step) {
          const double t = step / 200.0, u = 1 - t;
          const double x = u * u * v[0] + 2 * u * t * v[2] + t * t * v[4];
          const double y = u * u * v[1] + 2 * u * t * v[3] + t * t * v[5];
          for (std::size_t e = 0; e < node.endpoints.size() && crossed.empty(); ++e)
            if (e != a && e != b && std::fabs(x - lay.at[e].x) < lay.box_width / 2 - 1 &&
                std::fabs(y - lay.at[e].y) < lay.box_height / 2 - 1)
              crossed = node.endpoints[e].id;
        }
        EXPECT_EQ(crossed, "") << file.path().filename() << ": a lane of " << node.links[link].id
                               << " crosses the box of " << crossed;
      }
    }
    EXPECT_EQ(link, node.links.size()) << file.path().filename();
    EXPECT_EQ(lanes, 2 * node.links.size()) << file.path().filename();
  }
  EXPECT_EQ(nodes, 17u);
}

TEST(ReportLayout, NvswitchBelowTheGpusAndGb200Fits) {
  const topology::Node hgx = topology::load_node(test::config("hgx-h100.yaml"));
  const NodeLayout lay = layout_node(hgx);
  const int gpu = lay.layer[static_cast<std::size_t>(hgx.find("gpu0"))];
  for (std::size_t e = 0; e < hgx.endpoints.size(); ++e) {
    if (hgx.endpoints[e].kind == topology::EndpointKind::nvswitch) {
      EXPECT_EQ(lay.layer[e], gpu + 1) << hgx.endpoints[e].id;
    }
    if (hgx.endpoints[e].kind == topology::EndpointKind::cpu) {
      EXPECT_EQ(lay.layer[e], 0) << hgx.endpoints[e].id;
    }
  }
  // 72 GPUs in a row: narrower boxes, every one inside the drawing.
  const topology::Node gb = topology::load_node(test::config("gb200-nvl72.yaml"));
  const NodeLayout big = layout_node(gb);
  EXPECT_EQ(big.box_width, 48);
  for (const Point& p : big.at) {
    EXPECT_GT(p.x - big.box_width / 2, 0);
    EXPECT_LT(p.x + big.box_width / 2, big.width);
  }
}

TEST(ReportCharts, LogScaleLegendOfCountsStartsAtOne) {
  // Transfer counts 40 and 3 between two GPUs: the scale spans two decades below the largest
  // (40 / 100 = 0.4, which "40"'s format writes "0"), but never below 1 when every value is a
  // whole count of at least 1, so the legend reads "1 ... 40". Values below 1 (fractions) keep
  // the two decades: 0.5 and 2 give a scale from 0.02.
  MatrixHeatmap h;
  h.id = "hm";
  h.labels = {"gpu0", "gpu1"};
  h.values = {0, 40, 3, 0};
  h.format = [](double v) { return short_count(v); };
  h.unit = "transfers";
  std::string svg = matrix_heatmap_svg(h);
  EXPECT_THAT(svg, HasSubstr(">1</text>"));
  EXPECT_THAT(svg, HasSubstr(">40 (log scale)</text>"));
  EXPECT_THAT(svg, Not(HasSubstr(">0</text>")));
  h.values = {0, 2, 0.5, 0};
  h.format = [](double v) { return fmt::format("{:g}", v); };
  svg = matrix_heatmap_svg(h);
  EXPECT_THAT(svg, HasSubstr(">0.02</text>"));
  EXPECT_THAT(svg, HasSubstr(">2 (log scale)</text>"));
}

TEST(ReportSummary, SpreadsOperationsOverTimeBins) {
  // Makespan 100 ns in 4 bins of 25 ns. gpu0 runs A over [0, 50) and B over [10, 35): bin 0 gets
  // 25/25 + 15/25 = 1.6 operations in flight, bin 1 gets 25/25 + 10/25 = 1.4. gpu1 runs C over
  // [75, 100]: bin 3 gets 1.0. A and C are copies gpu0 -> gpu1 (p2p), B one gpu0 -> cpu0 (d2h).
  const topology::Node node = topology::load_node(test::config("summit.yaml"));
  trace::Trace t;
  auto push = [&](const char* src, const char* dst, std::uint64_t bytes, std::int64_t measured_ns) {
    trace::Op op;
    op.kind = trace::OpKind::copy;
    op.src = t.endpoint(src);
    op.dst = t.endpoint(dst);
    op.bytes = bytes;
    op.duration_ns = measured_ns;
    t.push(op);
  };
  push("gpu0", "gpu1", 1000, 40);
  push("gpu0", "cpu0", 2000, -1);
  push("gpu0", "gpu1", 3000, 20);
  sim::SimResult r;
  r.makespan_ns = 100;
  const int gpu0 = node.find("gpu0"), gpu1 = node.find("gpu1");
  r.ops = {{0, 50, gpu0, gpu1, gpu0, -1}, {10, 35, gpu0, node.find("cpu0"), gpu0, -1}, {75, 100, gpu0, gpu1, gpu1, -1}};
  const SimulationSummary s = sim::summarize_simulation(node, t, r, 4);
  ASSERT_EQ(s.activity.devices, (std::vector<int>{gpu0, gpu1}));
  EXPECT_DOUBLE_EQ(s.activity.bin_ns, 25);
  EXPECT_EQ(s.activity.ops, (std::vector<std::uint64_t>{2, 1}));
  EXPECT_DOUBLE_EQ(s.activity.busy_ns[0], 75);
  const auto& g0 = s.activity.in_flight[0];
  EXPECT_DOUBLE_EQ(g0[0], 1.6);
  EXPECT_DOUBLE_EQ(g0[1], 1.4);
  EXPECT_DOUBLE_EQ(g0[2], 0);
  EXPECT_DOUBLE_EQ(s.activity.in_flight[1][3], 1.0);
  const CategoryTimes& p2p = s.by_category[static_cast<std::size_t>(trace::Category::p2p)];
  EXPECT_EQ(p2p.ops, 2u);
  EXPECT_DOUBLE_EQ(p2p.bytes, 4000);
  EXPECT_DOUBLE_EQ(p2p.simulated_ns, 75);  // 50 + 25
  EXPECT_EQ(p2p.measured_ops, 2u);
  EXPECT_DOUBLE_EQ(p2p.measured_ns, 60);
  EXPECT_EQ(s.by_category[static_cast<std::size_t>(trace::Category::d2h_pinned)].ops, 1u);
}

TEST(ReportPage, StencilOnDgx1HasEveryViewAndAgreesWithTheMatrix) {
  // 8 GPUs, periodic, 10 iterations of 1024 x 4 B halos: each neighbour pair moves 40960 B per
  // direction, 655360 B in 5120 transfers in all (as `linkcast matrix` says, matrix_cli_test).
  const Page p = render("dgx1-v100.yaml", synthetic::run_workload("stencil2d:iters=10,periodic=1", nullptr));
  const std::string& h = p.html;
  for (const char* view : {"topology", "system", "objects", "code", "devices", "communicators", "simulation", "checks"})
    EXPECT_THAT(h, HasSubstr(std::string("<section id=\"view-") + view + "\"")) << view;
  EXPECT_THAT(h, Not(HasSubstr("view-projection")));  // no --to
  EXPECT_EQ(expected_sum(h, "sum-system-bytes"), "655360");
  EXPECT_EQ(expected_sum(h, "sum-system-count"), "5120");
  EXPECT_EQ(expected_sum(h, "sum-type-peer-access-bytes"), "655360");
  EXPECT_EQ(expected_sum(h, "sum-code-bytes"), "655360");
  EXPECT_EQ(expected_sum(h, "sum-device-bytes"), "655360");
  EXPECT_EQ(expected_sum(h, "sum-objects-gpu0"), "81920");  // a and a_new, read by gpu1 and gpu7
  EXPECT_THAT(h, HasSubstr("id=\"card-ops\"><b>5,120</b><span>operations</span>"));
  // Every link of the node is two lanes; gpu0 -> gpu1 is one NVLink2 brick carrying 40960 B.
  EXPECT_EQ(count_of(h, "class=\"lane\""), 2 * p.node.links.size());
  EXPECT_THAT(h, HasSubstr("<title>gpu0 \u2192 gpu1 (gpu0-gpu1, NV1 (NVLink2)): 40 KiB of data (40960 B;"));
  // The lanes' bytes add up to what the simulation says the links carried.
  double carried = 0;
  for (const auto& l : p.sim.links) carried += l.data_bytes;
  EXPECT_EQ(expected_sum(h, "sum-topology-bytes"), exact(carried));
  // A heatmap cell with its exact value on hover.
  EXPECT_THAT(h, HasSubstr("<title>gpu3 \u2192 gpu4: 40 KiB (40960 bytes)</title>"));
  // The route of the pair that crosses the sockets.
  EXPECT_THAT(h, HasSubstr("gpu3 \u2192 gpu4: 40 KiB (40960 B) in 320 transfers; route SYS, 5 hops"));
  // Self-contained: nothing to fetch.
  EXPECT_THAT(h, Not(HasSubstr("http://")));
  EXPECT_THAT(h, Not(HasSubstr("https://")));
  EXPECT_THAT(h, Not(HasSubstr("<link")));
  EXPECT_THAT(h, Not(HasSubstr(" src=")));
  EXPECT_THAT(h, Not(HasSubstr("url(http")));
  EXPECT_EQ(count_of(h, "<script>"), 1u);
}

TEST(ReportPage, RankZeroDdpTraceShowsTheRankTheSimulationAdds) {
  // PyTorch DDP rank 0 of 2 recorded on the 2 x H200 machine: 40 allreduces of 17,913,748 B on
  // 'pg:0' that only gpu0 recorded. The simulation runs every call with gpu1 too, so the
  // topology's lanes carry gpu1's part; the matrices take the calls as the simulation ran them:
  // on a 2-rank ring each rank sends 2 x 1/2 of the buffer to the other, so gpu1 sent
  // 40 x 17,913,748 B = 716,549,920 B, what its lane to the NVSwitch carried (exact: whole bytes).
  const Page p = render("testbed-h200-2gpu.yaml",
                        trace::data_movement(trace::read_traces(
                            {test::source_dir() + "/tests/data/real/h200-2gpu/torch_ddp_rank0.json.gz"})));
  const auto at = [&](const char* name) {
    return static_cast<std::size_t>(std::find(p.matrix.endpoints.begin(), p.matrix.endpoints.end(), name) -
                                    p.matrix.endpoints.begin());
  };
  EXPECT_EQ(p.matrix.total.sent_bytes(at("gpu1")), 716549920u);
  EXPECT_EQ(p.matrix.total.bytes_at(at("gpu1"), at("gpu0")), 716549920u);
  double lanes_from_gpu1 = 0;
  for (const auto& l : p.sim.links)
    if (l.from == p.node.find("gpu1")) lanes_from_gpu1 += l.data_bytes;
  EXPECT_NEAR(lanes_from_gpu1, 716549920.0, 1.0);  // summed in doubles
  expect_matrix_is_the_simulations(p);
  EXPECT_EQ(p.matrix.unrecorded_ranks, (std::vector<std::string>{"gpu1 of pg:0"}));
  EXPECT_THAT(p.html, HasSubstr("The trace has no record of gpu1 of pg:0 in 40 collective calls"));
  // What was recorded is still said: the check fails, the system view adds gpu1's part to the
  // 1,716,235,840 B `linkcast matrix` shows.
  EXPECT_THAT(p.html, HasSubstr("<b>FAIL</b> collectives: every member recorded every call"));
  EXPECT_EQ(expected_sum(p.html, "sum-system-bytes"), "2432785760");  // 1716235840 + 716549920
}

TEST(ReportPage, DataParallelSystemViewDecomposesAsTheTimelineRan) {
  // data-parallel on a DGX-1: 4 steps, each an allreduce of 64 MiB on the 8 GPUs. The spec says
  // tree (a chain) but leaves the choice to NCCL, which runs rings over the NVLink cube mesh
  // (12 channels on 4 distinct rings). The system view's collectives are the timeline's: every
  // pair carries what the simulation moved, and gpu3 -> gpu4 (no NVLink; the tree's chain and a
  // ring in rank order both use it) carries nothing.
  const topology::Node dgx1 = topology::load_node(test::config("dgx1-v100.yaml"));
  const synthetic::WorkloadRun run =
      synthetic::run_workload_full("data-parallel:steps=4", &dgx1, synthetic::kMaxSimulatedWorkloadOps);
  EXPECT_EQ(run.collectives.algo, nccl::CollAlgo::tree);
  EXPECT_FALSE(run.collectives.algo_given);
  const Page p = render("dgx1-v100.yaml", run.trace, 25, &run.collectives);
  ASSERT_EQ(p.sim.collectives.size(), 4u);
  for (const auto& c : p.sim.collectives) {
    EXPECT_EQ(c.algo, nccl::CollAlgo::ring);
    EXPECT_EQ(c.channels, 12);
  }
  expect_matrix_is_the_simulations(p);
  const auto& eps = p.matrix.endpoints;
  const auto at = [&](const char* name) {
    return static_cast<std::size_t>(std::find(eps.begin(), eps.end(), name) - eps.begin());
  };
  EXPECT_EQ(p.matrix.total.bytes_at(at("gpu3"), at("gpu4")), 0u);
  EXPECT_THAT(p.html, HasSubstr("decomposed into the peer transfers NCCL makes as the timeline simulated them "
                                "(ring, 12 channels)"));
  // The transfer count is the simulation's too: 1344 per call and 32 batch copies.
  EXPECT_EQ(p.matrix.total.total_count(), 4u * 1344 + 32);
}

TEST(ReportPage, CapsRowsAndEscapesNames) {
  // 60 objects on gpu0 read by gpu1, one of them named like markup; 10 rows per table. The
  // tables show 10 rows and say how many more; the bars still add up to everything.
  trace::Trace t;
  for (int k = 0; k < 60; ++k) {
    trace::Op op;
    op.kind = trace::OpKind::access;
    op.src = t.endpoint("gpu0");
    op.dst = t.endpoint("gpu1");
    op.issuer = op.dst;
    op.bytes = 1000 + static_cast<std::uint64_t>(k);
    op.object = t.objects.intern(k == 59 ? "<script>alert(1)</script>" : "buf" + std::to_string(k));
    op.line = t.lines.intern("k.cu:" + std::to_string(k));
    t.push(op);
  }
  const Page p = render("summit.yaml", t, 10);
  const std::string& h = p.html;
  EXPECT_THAT(h, HasSubstr("50 more rows: 50.02 KiB in 50 transfers"));  // 1000..1049
  EXPECT_THAT(h, HasSubstr("50 more objects"));
  EXPECT_THAT(h, HasSubstr("50 more lines: 50.02 KiB (82.9%) in 50 transfers"));
  EXPECT_EQ(expected_sum(h, "sum-objects-gpu0"), "61770");  // sum of 1000..1059
  EXPECT_EQ(expected_sum(h, "sum-code-bytes"), "61770");
  EXPECT_THAT(h, Not(HasSubstr("<script>alert")));
  EXPECT_THAT(h, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

TEST(ReportPage, ManyOperationsGiveASmallPage) {
  // 200,000 accesses over 8 GPUs with 50,000 distinct objects and 20,000 source lines: the page
  // aggregates and caps, so it stays far below a megabyte and no row exists per operation.
  trace::Trace t;
  t.reserve(200000);
  for (std::uint32_t i = 0; i < 200000; ++i) {
    trace::Op op;
    op.kind = trace::OpKind::access;
    op.src = t.endpoint("gpu" + std::to_string(i % 8));
    op.dst = t.endpoint("gpu" + std::to_string((i + 1) % 8));
    op.issuer = op.dst;
    op.bytes = 128;
    op.stream = i % 8;
    op.object = t.objects.intern("obj" + std::to_string(i % 50000));
    op.line = t.lines.intern("f.cu:" + std::to_string(i % 20000));
    t.push(op);
  }
  const auto start = std::chrono::steady_clock::now();
  const Page p = render("dgx1-v100.yaml", t);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(p.html.size(), 1'000'000u);
  EXPECT_EQ(expected_sum(p.html, "sum-system-bytes"), "25600000");
  EXPECT_THAT(p.html, HasSubstr("19,975 more lines"));
  EXPECT_LT(count_of(p.html, "<tr"), 1500u);
  EXPECT_LT(seconds, 30.0);  // matrices, simulation and page together; ~2 s in the -O2 build
}

}  // namespace
}  // namespace linkcast::report
