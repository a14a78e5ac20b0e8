#include "report/topology_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <numeric>

#include "core/units.hpp"
#include "report/charts.hpp"
#include "report/html.hpp"

namespace linkcast::report {

namespace {

using topology::EndpointKind;

double dbl(std::size_t v) {
  return static_cast<double>(v);
}
std::string px(double v) {
  return fmt::format("{:.1f}", v);
}

constexpr double kLayerGap = 118;
constexpr double kTop = 30;

/// How far an arc between two endpoints of one layer bulges out, px: arcs of different spans
/// apart enough that their labels and crossings read (a cube mesh's GPUs have 1 to 4 apart).
double arc_bulge(double dx) {
  return 18 + 0.3 * std::fabs(dx);
}

std::string_view kind_fill(EndpointKind k) {
  switch (k) {
    case EndpointKind::cpu:
      return "#dbe4f0";
    case EndpointKind::gpu:
      return "#dff0d8";
    case EndpointKind::pcie_switch:
      return "#eeeeee";
    case EndpointKind::nvswitch:
      return "#e8dcf0";
    case EndpointKind::nic:
      return "#f6e8d2";
  }
  return "#ffffff";
}

}  // namespace

NodeLayout layout_node(const topology::Node& node) {
  const std::size_t n = node.endpoints.size();
  NodeLayout lay;
  lay.at.resize(n);
  lay.layer.assign(n, -1);
  std::vector<std::vector<int>> adj(n);
  for (const auto& l : node.links) {
    adj[static_cast<std::size_t>(l.a)].push_back(l.b);
    adj[static_cast<std::size_t>(l.b)].push_back(l.a);
  }
  auto kind = [&](int e) { return node.endpoints[static_cast<std::size_t>(e)].kind; };
  // A NIC at the end of a PCIe branch (nothing behind it) sits in the GPUs' row beside the GPUs of
  // its switch: in a row of its own between them, the switch's lanes to its GPUs would cross its
  // box and the GPUs would look attached to the NIC.
  auto leaf_nic = [&](int e) {
    return kind(e) == EndpointKind::nic && adj[static_cast<std::size_t>(e)].size() <= 1;
  };
  // Sockets on top; PCIe switches and NICs by their hop distance from a socket.
  std::deque<int> queue;
  for (std::size_t e = 0; e < n; ++e)
    if (node.endpoints[e].kind == EndpointKind::cpu) {
      lay.layer[e] = 0;
      queue.push_back(static_cast<int>(e));
    }
  int deepest = 0;
  while (!queue.empty()) {
    const int e = queue.front();
    queue.pop_front();
    for (int m : adj[static_cast<std::size_t>(e)]) {
      const auto k = kind(m);
      if ((k != EndpointKind::pcie_switch && k != EndpointKind::nic) || leaf_nic(m) ||
          lay.layer[static_cast<std::size_t>(m)] >= 0)
        continue;
      lay.layer[static_cast<std::size_t>(m)] = lay.layer[static_cast<std::size_t>(e)] + 1;
      deepest = std::max(deepest, lay.layer[static_cast<std::size_t>(m)]);
      queue.push_back(m);
    }
  }
  const int gpu_layer = deepest + 1;
  for (std::size_t e = 0; e < n; ++e) {
    if (lay.layer[e] >= 0) continue;
    lay.layer[e] = node.endpoints[e].kind == EndpointKind::gpu || leaf_nic(static_cast<int>(e)) ? gpu_layer
                                                                                                   : gpu_layer + 1;
  }
  const int layers = *std::max_element(lay.layer.begin(), lay.layer.end()) + 1;

  // Order each layer by the mean position of its neighbours above.
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(layers));
  std::vector<double> rank(n, 0);  // position within the layer as a fraction in (0, 1)
  for (int L = 0; L < layers; ++L) {
    std::vector<std::pair<double, int>> keyed;
    for (std::size_t e = 0; e < n; ++e) {
      if (lay.layer[e] != L) continue;
      double sum = 0;
      int count = 0;
      for (int m : adj[e])
        if (lay.layer[static_cast<std::size_t>(m)] < L) {
          sum += rank[static_cast<std::size_t>(m)];
          ++count;
        }
      keyed.emplace_back(count ? sum / count : std::numeric_limits<double>::infinity(), static_cast<int>(e));
    }
    // Endpoints with nothing above keep file order after the others, unless none has anything. A
    // NIC beside the GPUs of its switch goes on the outer side (left of them in the left half),
    // so that the GPUs' links to a fabric below run away from its box.
    auto side = [&](const std::pair<double, int>& k) {
      return leaf_nic(k.second) ? (k.first < 0.5 ? -1 : 1) : 0;
    };
    std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : side(a) < side(b);
    });
    auto& row = rows[static_cast<std::size_t>(L)];
    for (std::size_t i = 0; i < keyed.size(); ++i) {
      row.push_back(keyed[i].second);
      rank[static_cast<std::size_t>(keyed[i].second)] = (dbl(i) + 0.5) / dbl(keyed.size());
    }
  }
  std::size_t widest = 1;
  for (const auto& r : rows) widest = std::max(widest, r.size());
  const double spacing = widest <= 10 ? 124 : widest <= 24 ? 92 : 64;
  lay.box_width = spacing - 16;
  lay.box_height = widest <= 24 ? 36 : 30;
  lay.width = std::max(760.0, spacing * dbl(widest) + 40);

  // Arcs between endpoints of one layer need room: above the sockets, below other layers.
  std::vector<double> below(static_cast<std::size_t>(layers), 0.0);
  double above = 0;
  auto x_of = [&](int e) {
    const auto& row = rows[static_cast<std::size_t>(lay.layer[static_cast<std::size_t>(e)])];
    const auto it = std::find(row.begin(), row.end(), e);
    const double i = dbl(static_cast<std::size_t>(it - row.begin()));
    return 20 + (lay.width - 40) * (i + 0.5) / dbl(row.size());
  };
  for (std::size_t e = 0; e < n; ++e) lay.at[e].x = x_of(static_cast<int>(e));
  for (const auto& l : node.links) {
    const auto a = static_cast<std::size_t>(l.a), b = static_cast<std::size_t>(l.b);
    if (lay.layer[a] != lay.layer[b]) continue;
    const double bulge = arc_bulge(lay.at[a].x - lay.at[b].x);
    if (lay.layer[a] == 0)
      above = std::max(above, bulge);
    else
      below[static_cast<std::size_t>(lay.layer[a])] = std::max(below[static_cast<std::size_t>(lay.layer[a])], bulge);
  }
  double y = kTop + above + lay.box_height / 2;
  std::vector<double> layer_y(static_cast<std::size_t>(layers));
  for (int L = 0; L < layers; ++L) {
    layer_y[static_cast<std::size_t>(L)] = y;
    y += kLayerGap + below[static_cast<std::size_t>(L)] * 0.8;
  }
  for (std::size_t e = 0; e < n; ++e) lay.at[e].y = layer_y[static_cast<std::size_t>(lay.layer[e])];
  lay.height = layer_y.back() + lay.box_height / 2 + below.back() + 46;
  return lay;
}

std::vector<std::array<LaneTraffic, 2>> link_traffic(const topology::Node& node, const sim::SimResult& sim) {
  std::vector<std::array<LaneTraffic, 2>> t(node.links.size());
  for (std::size_t i = 0; i < node.links.size(); ++i)
    for (auto& lane : t[i]) lane.capacity_gbps = node.links[i].spec.gbps();
  for (const sim::LinkResult& l : sim.links) {
    if (l.link < 0 || static_cast<std::size_t>(l.link) >= t.size()) continue;
    LaneTraffic& lane = t[static_cast<std::size_t>(l.link)][l.forward ? 0 : 1];
    lane.capacity_gbps = l.capacity_gbps;
    lane.data_bytes = l.data_bytes;
    lane.wire_bytes = l.wire_bytes;
    lane.utilisation = l.utilisation;
    lane.peak_utilisation = l.peak_utilisation;
    lane.bins = &l.bins;
  }
  return t;
}

std::string topology_svg(const topology::Node& node, const NodeLayout& lay,
                         const std::vector<std::array<LaneTraffic, 2>>& traffic, const std::vector<double>& sent,
                         const std::vector<double>& received, const std::string& check) {
  std::string out = fmt::format(
      "<svg class=\"chart topo\" id=\"topology-svg\" viewBox=\"0 0 {} {}\" "
      "width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"node topology\" data-check=\"{}\">",
      px(lay.width), px(lay.height), px(lay.width), px(lay.height), escape(check));
  constexpr double kOffset = 2.6;
  std::string labels;
  // Each link's centre line: a quadratic from p through control c to q. Lanes leave and enter
  // their boxes at the edge that faces the other end (arcs within a layer: the edge they bulge
  // out of), so that none runs through a box beside its own; links within a layer are arcs
  // (upwards on the sockets' row), the others straight lines (c at the middle).
  struct Curve {
    Point p, c, q;
    Point at(double t) const {
      const double u = 1 - t;
      return {u * u * p.x + 2 * u * t * c.x + t * t * q.x, u * u * p.y + 2 * u * t * c.y + t * t * q.y};
    }
  };
  std::vector<Curve> curves;
  for (const auto& link : node.links) {
    const auto a = static_cast<std::size_t>(link.a), b = static_cast<std::size_t>(link.b);
    Point p = lay.at[a], q = lay.at[b];
    const double edge = lay.box_height / 2;
    const bool same_layer = lay.layer[a] == lay.layer[b];
    const double down = same_layer ? 0.0 : lay.layer[a] < lay.layer[b] ? 1.0 : -1.0;
    const double out_of = lay.layer[a] == 0 ? -1.0 : 1.0;
    p.y += same_layer ? out_of * edge : down * edge;
    q.y += same_layer ? out_of * edge : -down * edge;
    Point c{(p.x + q.x) / 2, (p.y + q.y) / 2};
    if (same_layer) c.y += out_of * arc_bulge(q.x - p.x) * 2;  // quadratic: apex at half
    curves.push_back({p, c, q});
  }
  // Labels go along their own link where they hide no box and no other label, and as few other
  // links as can be (on a cube mesh, arcs cross each other's middles, and a label on a crossing
  // could be either link's), the middle first.
  struct Box {
    double x0, y0, x1, y1;
    bool hits(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
    bool holds(const Point& v) const { return x0 <= v.x && v.x <= x1 && y0 <= v.y && v.y <= y1; }
  };
  std::vector<Box> taken;
  for (const Point& e : lay.at)
    taken.push_back({e.x - lay.box_width / 2, e.y - lay.box_height / 2, e.x + lay.box_width / 2, e.y + lay.box_height / 2});
  std::vector<std::vector<Point>> samples(curves.size());  // every 3 px or so of each link
  std::vector<Box> bounds(curves.size());                   // around each link's samples
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const Curve& k = curves[i];
    const double length = std::hypot(k.c.x - k.p.x, k.c.y - k.p.y) + std::hypot(k.q.x - k.c.x, k.q.y - k.c.y);
    const auto n = static_cast<std::size_t>(std::ceil(length / 3)) + 1;
    Box& bound = bounds[i];
    bound = {k.p.x, k.p.y, k.p.x, k.p.y};
    for (std::size_t s = 0; s <= n; ++s) {
      const Point v = k.at(dbl(s) / dbl(n));
      samples[i].push_back(v);
      bound = {std::min(bound.x0, v.x), std::min(bound.y0, v.y), std::max(bound.x1, v.x), std::max(bound.y1, v.y)};
    }
  }
  std::vector<double> positions;  // along a link, nearest the middle first
  for (int step = 0; step <= 28; ++step) positions.push_back(0.5 + (step % 2 ? 1 : -1) * 0.02 * ((step + 1) / 2));
  for (std::size_t i = 0; i < node.links.size(); ++i) {
    const auto& link = node.links[i];
    const auto a = static_cast<std::size_t>(link.a), b = static_cast<std::size_t>(link.b);
    const Curve& k = curves[i];
    const double dx = k.q.x - k.p.x, dy = k.q.y - k.p.y;
    const double len = std::max(std::hypot(dx, dy), 1e-9);
    const double nx = -dy / len, ny = dx / len;  // left normal of a -> b
    const std::string kind_text = link.spec.describe();
    out += fmt::format("<g class=\"link\" data-link=\"{}\">", escape(link.id));
    for (int dir = 0; dir < 2; ++dir) {
      const LaneTraffic& lane = traffic[i][static_cast<std::size_t>(dir)];
      const double o = dir == 0 ? kOffset : -kOffset;
      const Band avg = utilisation_band(lane.utilisation), peak = utilisation_band(lane.peak_utilisation);
      const std::string& from = node.endpoints[dir == 0 ? a : b].id;
      const std::string& to = node.endpoints[dir == 0 ? b : a].id;
      const std::string tip = fmt::format(
          "{} \u2192 {} ({}, {}): {} of data ({} B; {} B on the wire); utilisation average {}, peak {} of {:.1f} GB/s",
          from, to, link.id, kind_text, format_bytes_compact(tidy(lane.data_bytes)), exact(lane.data_bytes),
          exact(lane.wire_bytes), percent(lane.utilisation), percent(lane.peak_utilisation), lane.capacity_gbps);
      out += fmt::format(
          "<path class=\"lane\" d=\"M{} {}Q{} {} {} {}\" fill=\"none\" stroke=\"{}\" stroke-width=\"4.2\" "
          "data-v=\"{}\" data-util=\"{}\" data-peak=\"{}\" data-band-avg=\"{}\" data-band-peak=\"{}\" "
          "data-c-avg=\"{}\" data-c-peak=\"{}\"><title>{}</title></path>",
          px(k.p.x + nx * o), px(k.p.y + ny * o), px(k.c.x + nx * o), px(k.c.y + ny * o), px(k.q.x + nx * o),
          px(k.q.y + ny * o), band_colour(avg), exact(lane.data_bytes), exact(lane.utilisation),
          exact(lane.peak_utilisation), band_key(avg), band_key(peak), band_colour(avg), band_colour(peak), escape(tip));
    }
    out += "</g>";
    const double total = traffic[i][0].data_bytes + traffic[i][1].data_bytes;
    if (total > 0) {
      const std::string text = format_bytes_compact(tidy(total));
      const double half_w = 3.2 * dbl(text.size()) + 3, half_h = 7.5;  // the 10.5 px label font
      auto box_at = [&](double t) {
        const Point m = k.at(t);
        return Box{m.x - half_w, m.y - half_h, m.x + half_w, m.y + half_h};
      };
      auto hides_box_or_label = [&](const Box& box) {
        return std::any_of(taken.begin(), taken.end(), [&](const Box& o) { return box.hits(o); });
      };
      // How many other links' lanes (2.6 px either side of their centre line) pass within `r` px
      // of the label's middle.
      auto links_near = [&](const Point& m, double r) {
        const Box near{m.x - r, m.y - r, m.x + r, m.y + r};
        std::size_t n = 0;
        for (std::size_t j = 0; j < samples.size(); ++j)
          if (j != i && near.hits(bounds[j]) && std::any_of(samples[j].begin(), samples[j].end(), [&](const Point& v) {
                return (v.x - m.x) * (v.x - m.x) + (v.y - m.y) * (v.y - m.y) < r * r;
              }))
            ++n;
        return n;
      };
      // Fewest links through the label's middle, then fewest under the whole label.
      double t = 0.5;
      std::pair<std::size_t, std::size_t> fewest{std::numeric_limits<std::size_t>::max(), 0};
      for (const double at : positions) {
        if (hides_box_or_label(box_at(at))) continue;
        const Point m = k.at(at);
        const std::pair<std::size_t, std::size_t> under{links_near(m, 10), links_near(m, half_w + 4)};
        if (under < fewest) fewest = under, t = at;
        if (under.second == 0) break;
      }
      const Box box = box_at(t);
      taken.push_back(box);
      labels += fmt::format(
          "<text class=\"ll\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" dominant-baseline=\"middle\">{}<title>{}: {} B "
          "both ways</title></text>",
          px((box.x0 + box.x1) / 2), px((box.y0 + box.y1) / 2), escape(text), escape(link.id), exact(total));
    }
  }
  out += labels;
  for (std::size_t e = 0; e < node.endpoints.size(); ++e) {
    const auto& ep = node.endpoints[e];
    const Point p = lay.at[e];
    std::string tip = fmt::format("{} ({})", ep.id, topology::to_string(ep.kind));
    if (!ep.model.empty()) tip += ": " + ep.model;
    if (ep.memory.bandwidth_gbps > 0)
      tip += fmt::format("; memory {:g} GiB at {:g} GB/s", ep.memory.capacity_gib, ep.memory.bandwidth_gbps);
    if (e < sent.size())
      tip += fmt::format("; sent {} ({} B), received {} ({} B) in the simulation", format_bytes_compact(tidy(sent[e])),
                         exact(sent[e]), format_bytes_compact(tidy(received[e])), exact(received[e]));
    out += fmt::format(
        "<g class=\"ep\" data-endpoint=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"{}\" "
        "stroke=\"#57606a\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"nl\">{}</text>",
        escape(ep.id), px(p.x - lay.box_width / 2), px(p.y - lay.box_height / 2), px(lay.box_width), px(lay.box_height),
        kind_fill(ep.kind), px(p.x), px(p.y - (lay.box_height > 32 ? 2 : 0)), escape(ep.id));
    if (lay.box_height > 32 && !ep.model.empty())
      out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"nm\">{}</text>", px(p.x), px(p.y + 11),
                         escape(truncate_label(ep.model, static_cast<std::size_t>(lay.box_width / 5.2))));
    out += fmt::format("<title>{}</title></g>", escape(tip));
  }
  out += "</svg>";
  return out;
}

}  // namespace linkcast::report
