#include "report/charts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/units.hpp"
#include "report/html.hpp"

namespace linkcast::report {

namespace {

constexpr double kCharPx = 6.4;  // average width of a character at the charts' 11 px font

double dbl(std::size_t v) {
  return static_cast<double>(v);
}

std::string fmt_px(double v) {
  return fmt::format("{:.1f}", v);
}

/// Opening tag of a chart: fixed size that scales down with the page (CSS max-width).
std::string svg_open(const std::string& id, double w, double h, std::string_view label, const std::string& check) {
  std::string out = fmt::format(
      "<svg class=\"chart\" id=\"{}\" viewBox=\"0 0 {} {}\" width=\"{}\" "
      "height=\"{}\" role=\"img\" aria-label=\"{}\"",
      escape(id), fmt_px(w), fmt_px(h), fmt_px(w), fmt_px(h), escape(label));
  if (!check.empty()) out += fmt::format(" data-check=\"{}\"", escape(check));
  out += ">";
  return out;
}

std::string title_tag(std::string_view text) {
  return fmt::format("<title>{}</title>", escape(text));
}

struct Rgb {
  double r, g, b;
};
Rgb mix(Rgb a, Rgb b, double t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}
std::string hex(Rgb c) {
  auto ch = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 255.0))); };
  return fmt::format("#{:02x}{:02x}{:02x}", ch(c.r), ch(c.g), ch(c.b));
}

constexpr std::string_view kZeroFill = "#f4f6f8";

/// Log-scale position of v in [lo, hi] (both > 0), mapped into [0.18, 1] so that the smallest
/// non-zero value stays visible against the zero colour.
double log_position(double v, double lo, double hi) {
  if (v <= 0) return 0;
  if (hi <= lo) return 1;
  const double t = (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo));
  return 0.18 + 0.82 * std::clamp(t, 0.0, 1.0);
}

std::string text_colour_on(double t) {
  return t > 0.55 ? "#ffffff" : "#1b1f23";
}

// ramp_legend: "lo", a gap, the gradient bar, a gap, "hi (scale)".
constexpr double kRampGap = 6, kRampBar = 110;

/// How wide ramp_legend draws "lo [gradient] hi (scale)", px.
double ramp_legend_width(const std::string& lo, const std::string& hi, std::string_view scale) {
  return kCharPx * dbl(lo.size()) + kRampGap + kRampBar + kRampGap + kCharPx * dbl(hi.size() + scale.size() + 3);
}

/// A horizontal gradient legend starting at x: "lo [gradient] hi (scale)".
std::string ramp_legend(const std::string& id, double x, double y, const std::string& lo, const std::string& hi,
                        std::string_view scale) {
  std::string out = fmt::format("<defs><linearGradient id=\"{}-grad\">", escape(id));
  for (int s = 0; s <= 4; ++s) {
    const double t = 0.18 + 0.82 * s / 4.0;
    out += fmt::format("<stop offset=\"{}%\" stop-color=\"{}\"/>", s * 25, ramp_colour(t));
  }
  out += "</linearGradient></defs>";
  const double bar_x = x + kCharPx * dbl(lo.size()) + kRampGap;
  out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"lg\">{}</text>", fmt_px(x), fmt_px(y + 10), escape(lo));
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"12\" fill=\"url(#{}-grad)\"/>", fmt_px(bar_x),
                     fmt_px(y), fmt_px(kRampBar), escape(id));
  out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"lg\">{} ({})</text>", fmt_px(bar_x + kRampBar + kRampGap),
                     fmt_px(y + 10), escape(hi), scale);
  return out;
}

}  // namespace

Band utilisation_band(double utilisation) {
  if (!(utilisation > 0)) return Band::idle;
  if (utilisation <= 0.25) return Band::low;
  if (utilisation <= 0.5) return Band::medium;
  if (utilisation <= 0.75) return Band::high;
  return Band::critical;
}

std::string_view band_colour(Band band) {
  constexpr auto kColours = std::to_array<std::string_view>({"#b0b0b0", "#9ccc65", "#2e7d32", "#fb8c00", "#e53935"});
  static_assert(kColours.size() == kBandCount);
  return kColours[static_cast<std::size_t>(band)];
}

std::string_view band_label(Band band) {
  constexpr auto kLabels = std::to_array<std::string_view>({"0%", "<=25%", "<=50%", "<=75%", "<=100%"});
  static_assert(kLabels.size() == kBandCount);
  return kLabels[static_cast<std::size_t>(band)];
}

std::string_view band_key(Band band) {
  constexpr auto kKeys = std::to_array<std::string_view>({"idle", "low", "medium", "high", "critical"});
  static_assert(kKeys.size() == kBandCount);
  return kKeys[static_cast<std::size_t>(band)];
}

std::string ramp_colour(double t) {
  const Rgb a{238, 244, 251}, m{107, 174, 214}, b{8, 48, 107};
  t = std::clamp(t, 0.0, 1.0);
  return hex(t < 0.5 ? mix(a, m, t / 0.5) : mix(m, b, (t - 0.5) / 0.5));
}

std::string_view series_colour(std::size_t i) {
  constexpr std::array<std::string_view, 10> kPalette = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                                         "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  return kPalette[i % kPalette.size()];
}

std::string short_count(double count) {
  if (count < 10000) return fmt::format("{:.0f}", count);
  if (count < 1e6) return fmt::format("{:.3g}k", count / 1e3);
  if (count < 1e9) return fmt::format("{:.3g}M", count / 1e6);
  return fmt::format("{:.3g}G", count / 1e9);
}

std::string truncate_label(std::string_view text, std::size_t max_chars) {
  if (text.size() <= max_chars || max_chars < 2) return std::string(text);
  return std::string(text.substr(0, max_chars - 1)) + "\u2026";
}

std::string matrix_heatmap_svg(const MatrixHeatmap& h) {
  const std::size_t n = h.labels.size();
  const double cell = n <= 10 ? 42 : n <= 20 ? 28 : n <= 40 ? 16 : 8;
  const Formatter& brief = h.short_format ? h.short_format : h.format;
  std::size_t longest = 1;
  for (const auto& l : h.labels) longest = std::max(longest, std::min<std::size_t>(l.size(), 16));
  const double left = 14 + kCharPx * dbl(longest);
  const bool rotate = cell < 40 && longest > 4;
  const double top = rotate ? 12 + kCharPx * dbl(longest) * 0.75 : 24;
  const double grid = cell * dbl(n);
  const bool annotate = cell >= 40;

  double lo = 0, hi = 0;
  for (double v : h.values)
    if (v > 0) {
      lo = lo == 0 ? v : std::min(lo, v);
      hi = std::max(hi, v);
    }
  // The scale spans at least two decades, so that values a few percent apart look alike, but not
  // below 1 where every value is at least 1 (bytes, counts): its legend never starts at "0".
  lo = lo >= 1 ? std::min(lo, std::max(hi / 100, 1.0)) : std::min(lo, hi / 100);

  // Wide enough for the grid and for its legend.
  const double width = std::max({left + grid + 10, 300.0, 8 + ramp_legend_width(brief(lo), brief(hi), "log scale")});
  const double height = top + grid + 40;
  std::string out = svg_open(h.id, width, height, "heatmap of " + h.unit, h.check);
  const int fs = cell >= 30 ? 11 : cell >= 15 ? 9 : 6;
  // Axis labels.
  for (std::size_t i = 0; i < n && cell >= 6; ++i) {
    const double c = top + cell * (dbl(i) + 0.5);
    out += fmt::format(
        "<text x=\"{}\" y=\"{}\" class=\"ax\" font-size=\"{}\" text-anchor=\"end\" "
        "dominant-baseline=\"middle\">{}</text>",
        fmt_px(left - 4), fmt_px(c), fs, escape(truncate_label(h.labels[i], 16)));
    const double x = left + cell * (dbl(i) + 0.5);
    if (rotate)
      out += fmt::format("<text class=\"ax\" font-size=\"{}\" transform=\"translate({},{}) rotate(-50)\">{}</text>", fs,
                         fmt_px(x + 3), fmt_px(top - 4), escape(truncate_label(h.labels[i], 16)));
    else
      out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"ax\" font-size=\"{}\" text-anchor=\"middle\">{}</text>",
                         fmt_px(x), fmt_px(top - 6), fs, escape(h.labels[i]));
  }
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#d0d7de\"/>",
                     fmt_px(left), fmt_px(top), fmt_px(grid), fmt_px(grid), kZeroFill);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const double v = h.values[i * n + j];
      if (v <= 0) continue;
      const double t = log_position(v, lo, hi);
      const double x = left + cell * dbl(j), y = top + cell * dbl(i);
      out += fmt::format("<g data-v=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>", exact(v),
                         fmt_px(x), fmt_px(y), fmt_px(cell), fmt_px(cell), ramp_colour(t));
      if (annotate)
        out += fmt::format(
            "<text x=\"{}\" y=\"{}\" class=\"cv\" fill=\"{}\" text-anchor=\"middle\" "
            "dominant-baseline=\"middle\">{}</text>",
            fmt_px(x + cell / 2), fmt_px(y + cell / 2), text_colour_on(t), escape(brief(v)));
      out +=
          title_tag(fmt::format("{} \u2192 {}: {} ({} {})", h.labels[i], h.labels[j], h.format(v), exact(v), h.unit));
      out += "</g>";
    }
  }
  // Faint grid lines between cells.
  if (cell >= 15) {
    std::string d;
    for (std::size_t k = 1; k < n; ++k) {
      d += fmt::format("M{} {}h{}M{} {}v{}", fmt_px(left), fmt_px(top + cell * dbl(k)), fmt_px(grid),
                       fmt_px(left + cell * dbl(k)), fmt_px(top), fmt_px(grid));
    }
    out += fmt::format("<path d=\"{}\" stroke=\"#ffffff\" stroke-width=\"1\" fill=\"none\"/>", d);
  }
  if (hi > 0)
    out += ramp_legend(h.id, 4, top + grid + 16, brief(lo), brief(hi), "log scale");
  else
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"lg\">no traffic</text>", fmt_px(left), fmt_px(top + grid + 26));
  out += "</svg>";
  return out;
}

std::string strip_heatmap_svg(const StripHeatmap& h) {
  const std::size_t rows = h.rows.size();
  const std::size_t bins = rows ? h.values[0].size() : 0;
  std::size_t longest = 4;
  for (const auto& r : h.rows) longest = std::max(longest, std::min<std::size_t>(r.size(), 28));
  const double left = 10 + kCharPx * dbl(longest);
  const double bw = bins ? std::max(3.0, std::min(24.0, 760.0 / dbl(bins))) : 1;
  const double rh = 16;
  const double top = 8;
  const double plot_w = bw * dbl(bins);
  double hi = 0;
  for (const auto& r : h.values)
    for (double v : r) hi = std::max(hi, v);
  // Wide enough for the strips and for the legend below them.
  const Formatter& legend_format = h.short_format ? h.short_format : h.format;
  const double legend_w = h.bands   ? left + 70.0 * dbl(kBandCount)
                          : hi > 0 ? ramp_legend_width(legend_format(0), legend_format(hi), "linear")
                                   : 0.0;
  const double width = std::max(left + plot_w + 20, 8 + legend_w);
  const double height = top + rh * dbl(rows) + 52;

  std::string out = svg_open(h.id, width, height, "values over time", h.check);
  const double bin_ns = bins ? h.span_ns / dbl(bins) : 0;
  for (std::size_t r = 0; r < rows; ++r) {
    const double y = top + rh * dbl(r);
    out +=
        fmt::format("<text x=\"{}\" y=\"{}\" class=\"ax\" text-anchor=\"end\" dominant-baseline=\"middle\">{}</text>",
                    fmt_px(left - 4), fmt_px(y + rh / 2), escape(truncate_label(h.rows[r], 28)));
    for (std::size_t b = 0; b < bins; ++b) {
      const double v = h.values[r][b];
      std::string fill;
      if (h.bands)
        fill = std::string(band_colour(utilisation_band(v)));
      else
        fill = v > 0 && hi > 0 ? ramp_colour(0.18 + 0.82 * v / hi) : std::string(kZeroFill);
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" data-v=\"{}\">{}</rect>",
                         fmt_px(left + bw * dbl(b)), fmt_px(y + 1), fmt_px(bw), fmt_px(rh - 2), fill, exact(v),
                         title_tag(fmt::format("{}, {} \u2013 {}: {}", h.rows[r], format_duration_ns(bin_ns * dbl(b)),
                                               format_duration_ns(bin_ns * dbl(b + 1)), h.format(v))));
    }
  }
  // Time axis.
  const double axis_y = top + rh * dbl(rows) + 4;
  out += fmt::format("<path d=\"M{} {}h{}\" stroke=\"#57606a\"/>", fmt_px(left), fmt_px(axis_y), fmt_px(plot_w));
  for (int k = 0; k <= 4; ++k) {
    const double x = left + plot_w * k / 4.0;
    out += fmt::format(
        "<path d=\"M{} {}v4\" stroke=\"#57606a\"/><text x=\"{}\" y=\"{}\" class=\"ax\" text-anchor=\"{}\">{}</text>",
        fmt_px(x), fmt_px(axis_y), fmt_px(x), fmt_px(axis_y + 15),
        k == 0   ? "start"
        : k == 4 ? "end"
                 : "middle",
        format_duration_ns(h.span_ns * k / 4.0));
  }
  if (h.bands) {
    double x = left;
    for (std::size_t b = 0; b < kBandCount; ++b) {
      const Band band = static_cast<Band>(b);
      out += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"10\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" "
          "class=\"lg\">{}</text>",
          fmt_px(x), fmt_px(axis_y + 24), band_colour(band), fmt_px(x + 15), fmt_px(axis_y + 33),
          escape(band_label(band)));
      x += 70;
    }
  } else if (hi > 0) {
    const Formatter& brief = h.short_format ? h.short_format : h.format;
    out += ramp_legend(h.id, 4, axis_y + 24, brief(0), brief(hi), "linear");
  }
  out += "</svg>";
  return out;
}

std::string bar_chart_svg(const BarChart& c) {
  const std::size_t ns = c.series.size();
  std::size_t longest = 4;
  for (const auto& r : c.rows) longest = std::max(longest, std::min<std::size_t>(r.label.size(), 36));
  const double left = 10 + kCharPx * dbl(longest);
  const double plot_w = 440;
  const double bar_h = c.stacked ? 16 : std::max(5.0, 18.0 / dbl(std::max<std::size_t>(ns, 1)) + 3);
  const double row_h = c.stacked ? 22 : bar_h * dbl(ns) + 8;
  const double width = left + plot_w + 90;
  // The legend's entries in rows that fit the chart's width (a long series name starts a row).
  std::vector<std::pair<double, double>> legend_at;  // x, y of each entry
  double legend_h = 4;
  if (ns > 1) {
    double x = left, y = 4;
    for (std::size_t s = 0; s < ns; ++s) {
      const double w = 28 + kCharPx * dbl(c.series[s].size());
      if (x > left && x + w > width - 4) {
        x = 4;
        y += 18;
      }
      legend_at.emplace_back(x, y);
      x += w;
    }
    legend_h = y + 18;
  }
  const double top = legend_h + 4;
  const double height = top + row_h * dbl(c.rows.size()) + 24;
  auto colour = [&](std::size_t s) { return s < c.colours.size() ? c.colours[s] : std::string(series_colour(s)); };
  double max_v = 0;
  for (const auto& r : c.rows) {
    double total = 0;
    for (double v : r.values) {
      total += std::max(v, 0.0);
      if (!c.stacked) max_v = std::max(max_v, v);
    }
    if (c.stacked) max_v = std::max(max_v, total);
  }
  const double scale = max_v > 0 ? plot_w / max_v : 0;

  std::string out = svg_open(c.id, width, height, "bar chart", c.check);
  for (std::size_t s = 0; s < legend_at.size(); ++s) {
    const auto [x, y] = legend_at[s];
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" "
        "class=\"lg\">{}</text>",
        fmt_px(x), fmt_px(y), colour(s), fmt_px(x + 16), fmt_px(y + 10), escape(c.series[s]));
  }
  for (std::size_t r = 0; r < c.rows.size(); ++r) {
    const BarRow& row = c.rows[r];
    const double y = top + row_h * dbl(r);
    out +=
        fmt::format("<text x=\"{}\" y=\"{}\" class=\"ax\" text-anchor=\"end\" dominant-baseline=\"middle\">{}{}</text>",
                    fmt_px(left - 6), fmt_px(y + row_h / 2 - 1), escape(truncate_label(row.label, 36)),
                    title_tag(row.title.empty() ? row.label : row.label + ": " + row.title));
    double x = left, total = 0;
    for (std::size_t s = 0; s < row.values.size() && s < std::max<std::size_t>(ns, 1); ++s) {
      const double v = std::max(row.values[s], 0.0);
      const double w = v * scale;
      const double by = c.stacked ? y + (row_h - bar_h) / 2 - 1 : y + 4 + bar_h * dbl(s);
      const double bx = c.stacked ? x : left;
      const std::string name = ns > 0 ? c.series[s] : std::string();
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" data-v=\"{}\">{}</rect>",
                         fmt_px(bx), fmt_px(by), fmt_px(v > 0 ? std::max(w, 1.0) : 0.0),
                         fmt_px(c.stacked ? bar_h : bar_h - 1), colour(s), exact(v),
                         title_tag(fmt::format("{}{}{}: {} ({})", row.label, name.empty() ? "" : " \u00b7 ", name,
                                               c.format(v), exact(v))));
      if (!c.stacked)
        out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"bv\" dominant-baseline=\"middle\">{}</text>",
                           fmt_px(left + w + 4), fmt_px(by + bar_h / 2 - 0.5), escape(c.format(v)));
      if (c.stacked) x += w;
      total += v;
    }
    if (c.stacked)
      out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"bv\" dominant-baseline=\"middle\">{}</text>", fmt_px(x + 4),
                         fmt_px(y + row_h / 2 - 1), escape(c.format(total)));
  }
  const double axis_y = top + row_h * dbl(c.rows.size()) + 2;
  out += fmt::format("<path d=\"M{} {}h{}\" stroke=\"#57606a\"/>", fmt_px(left), fmt_px(axis_y), fmt_px(plot_w));
  out += fmt::format(
      "<text x=\"{}\" y=\"{}\" class=\"ax\">0</text><text x=\"{}\" y=\"{}\" class=\"ax\" text-anchor=\"end\">{}</text>",
      fmt_px(left), fmt_px(axis_y + 14), fmt_px(left + plot_w), fmt_px(axis_y + 14), escape(c.format(max_v)));
  out += "</svg>";
  return out;
}

std::string line_chart_svg(const LineChart& c) {
  const std::size_t bins = c.series.empty() ? 0 : c.series[0].y.size();
  const double left = 56, top = 10, plot_w = 620, plot_h = 220;
  std::size_t longest = 4;
  for (const auto& s : c.series) longest = std::max(longest, std::min<std::size_t>(s.name.size(), 26));
  const double width = left + plot_w + 30 + kCharPx * dbl(longest) + 20;
  const double height = top + plot_h + 34;
  const double y_max = c.y_max > 0 ? c.y_max : 1;
  auto ypx = [&](double v) { return top + plot_h - plot_h * std::clamp(v / y_max, 0.0, 1.0); };
  auto xpx = [&](double b) { return left + (bins ? plot_w * b / dbl(bins) : 0); };

  std::string out = svg_open(c.id, width, height, "line chart", "");
  if (c.band_background) {
    for (std::size_t b = 1; b < kBandCount; ++b) {
      const double lo = 0.25 * dbl(b - 1), hi = 0.25 * dbl(b);
      if (lo >= y_max) break;
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" fill-opacity=\"0.12\"/>",
                         fmt_px(left), fmt_px(ypx(hi)), fmt_px(plot_w), fmt_px(ypx(lo) - ypx(hi)),
                         band_colour(static_cast<Band>(b)));
    }
  }
  // Axes and ticks.
  out += fmt::format("<path d=\"M{} {}v{}h{}\" stroke=\"#57606a\" fill=\"none\"/>", fmt_px(left), fmt_px(top),
                     fmt_px(plot_h), fmt_px(plot_w));
  for (int k = 0; k <= 4; ++k) {
    const double v = y_max * k / 4.0;
    out +=
        fmt::format("<text x=\"{}\" y=\"{}\" class=\"ax\" text-anchor=\"end\" dominant-baseline=\"middle\">{}</text>",
                    fmt_px(left - 4), fmt_px(ypx(v)), escape(c.format_y(v)));
    const double x = left + plot_w * k / 4.0;
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"ax\" text-anchor=\"{}\">{}</text>", fmt_px(x),
                       fmt_px(top + plot_h + 16),
                       k == 0   ? "start"
                       : k == 4 ? "end"
                                : "middle",
                       format_duration_ns(c.span_ns * k / 4.0));
  }
  const double bin_ns = bins ? c.span_ns / dbl(bins) : 0;
  for (std::size_t s = 0; s < c.series.size(); ++s) {
    const LineSeries& ls = c.series[s];
    std::string points;
    for (std::size_t b = 0; b < ls.y.size(); ++b)
      points += fmt::format("{}{},{}", b ? " " : "", fmt_px(xpx(dbl(b) + 0.5)), fmt_px(ypx(ls.y[b])));
    out += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.8\"/>", points,
                       series_colour(s));
    for (std::size_t b = 0; b < ls.y.size(); ++b)
      out += fmt::format(
          "<circle cx=\"{}\" cy=\"{}\" r=\"3.2\" fill=\"{}\" fill-opacity=\"0.001\" data-v=\"{}\">{}</circle>",
          fmt_px(xpx(dbl(b) + 0.5)), fmt_px(ypx(ls.y[b])), series_colour(s), exact(ls.y[b]),
          title_tag(fmt::format("{}, {} \u2013 {}: {}", ls.name, format_duration_ns(bin_ns * dbl(b)),
                                format_duration_ns(bin_ns * dbl(b + 1)), c.format_y(ls.y[b]))));
    const double ly = top + 8 + 16 * dbl(s);
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"3\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" class=\"lg\" "
        "dominant-baseline=\"middle\">{}</text>",
        fmt_px(left + plot_w + 14), fmt_px(ly - 1.5), series_colour(s), fmt_px(left + plot_w + 32), fmt_px(ly),
        escape(truncate_label(ls.name, 26)));
  }
  out += "</svg>";
  return out;
}

std::string flow_graph_svg(const std::string& id, const std::vector<GraphNode>& nodes,
                           const std::vector<GraphEdge>& edges, const std::string& check) {
  const std::size_t n = nodes.size();
  const double ring = std::max(130.0, 16.0 * dbl(n));
  const double margin = 56;
  const double size = 2 * (ring + margin);
  const double cx = size / 2, cy = size / 2;
  const double pi = std::acos(-1.0);
  double max_size = 0, max_edge = 0;
  for (const auto& v : nodes) max_size = std::max(max_size, v.size);
  for (const auto& e : edges) max_edge = std::max(max_edge, e.value);
  std::vector<double> x(n), y(n), rad(n);
  const double r_max = std::clamp(ring * pi / std::max<double>(dbl(n), 1.0) * 0.42, 9.0, 30.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = -pi / 2 + 2 * pi * dbl(i) / std::max<double>(dbl(n), 1.0);
    x[i] = cx + ring * std::cos(a);
    y[i] = cy + ring * std::sin(a);
    rad[i] = max_size > 0 ? r_max * (0.45 + 0.55 * std::sqrt(nodes[i].size / max_size)) : r_max * 0.45;
  }
  std::string out = svg_open(id, size, size, "communication graph", check);
  for (const GraphEdge& e : edges) {
    if (e.from == e.to || e.from >= n || e.to >= n || e.value <= 0) continue;
    const double dx = x[e.to] - x[e.from], dy = y[e.to] - y[e.from];
    const double len = std::hypot(dx, dy);
    if (len <= 0) continue;
    const double ux = dx / len, uy = dy / len;
    // Bend to the right of travel so the two directions of a pair stay apart.
    const double bend = 0.16 * len;
    const double mx = (x[e.from] + x[e.to]) / 2 - uy * bend, my = (y[e.from] + y[e.to]) / 2 + ux * bend;
    auto toward = [&](double px, double py, double qx, double qy, double d) {
      const double l = std::hypot(qx - px, qy - py);
      return std::pair{px + (qx - px) / l * d, py + (qy - py) / l * d};
    };
    const auto [sx, sy] = toward(x[e.from], y[e.from], mx, my, rad[e.from] + 2);
    const auto [tx, ty] = toward(x[e.to], y[e.to], mx, my, rad[e.to] + 4);
    const double w = 1.5 + 6.5 * (max_edge > 0 ? e.value / max_edge : 0);
    // Arrowhead along the curve's end tangent (end - control point); the line stops at its base.
    const double head = 6 + 1.6 * w, half = 3 + 0.9 * w;
    const double ex = tx - mx, ey = ty - my, el = std::max(std::hypot(ex, ey), 1e-9);
    const double dx2 = ex / el, dy2 = ey / el;
    const double bx = tx - dx2 * head, by = ty - dy2 * head;
    out += fmt::format(
        "<g data-v=\"{}\"><path d=\"M{} {}Q{} {} {} {}\" fill=\"none\" stroke=\"#4e79a7\" stroke-opacity=\"0.72\" "
        "stroke-width=\"{}\"/><path d=\"M{} {}L{} {}L{} {}z\" fill=\"#4e79a7\" fill-opacity=\"0.85\"/>{}</g>",
        exact(e.value), fmt_px(sx), fmt_px(sy), fmt_px(mx), fmt_px(my), fmt_px(bx + dx2 * 1.5), fmt_px(by + dy2 * 1.5),
        fmt_px(w), fmt_px(tx), fmt_px(ty), fmt_px(bx - dy2 * half), fmt_px(by + dx2 * half), fmt_px(bx + dy2 * half),
        fmt_px(by - dx2 * half), title_tag(e.title));
  }
  const int fs = n > 24 ? 8 : 11;
  for (std::size_t i = 0; i < n; ++i) {
    out += fmt::format(
        "<g><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#e8f0f8\" stroke=\"#4e79a7\" stroke-width=\"1.5\"/>"
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" dominant-baseline=\"middle\" "
        "class=\"nl\">{}</text>{}</g>",
        fmt_px(x[i]), fmt_px(y[i]), fmt_px(rad[i]), fmt_px(x[i]), fmt_px(y[i]), fs,
        escape(truncate_label(nodes[i].label, 8)), title_tag(nodes[i].title));
  }
  out += "</svg>";
  return out;
}

}  // namespace linkcast::report
