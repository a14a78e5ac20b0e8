// SVG charts the report draws, each a pure function of plain data: matrix heatmaps (ComScribe),
// rows-over-time strips (INAM's utilisation over time), horizontal bar charts, line charts and a
// directed flow graph (Snoopie's system view). Every mark carries an SVG <title> with its exact
// value and a data-v attribute; a chart given a `check` id lets the page's inline script add the
// data-v values up and write the sum into the element with that id (the browser test reads it).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace linkcast::report {

/// OSU INAM's link colours: grey at 0%, light green up to 25%, dark green up to 50%, orange up
/// to 75%, red up to 100% of the available bandwidth (Kousha et al., sec. IV).
enum class Band : std::uint8_t { idle, low, medium, high, critical };
inline constexpr std::size_t kBandCount = 5;
static_assert(kBandCount == static_cast<std::size_t>(Band::critical) + 1, "kBandCount counts every Band");
/// The band of a utilisation given as a fraction (0.3 = 30%): exactly 0 (or less) is idle,
/// (0, 0.25] low, (0.25, 0.5] medium, (0.5, 0.75] high, above 0.75 critical (also above 1).
Band utilisation_band(double utilisation);
std::string_view band_colour(Band band);  // "#b0b0b0", ...
std::string_view band_label(Band band);   // "0%", "<=25%", ...
std::string_view band_key(Band band);     // "idle", "low", "medium", "high", "critical"

/// A sequential colour (light to dark blue) for t in [0, 1].
std::string ramp_colour(double t);
/// The i-th colour of a categorical palette (Tableau 10), cycling.
std::string_view series_colour(std::size_t i);

using Formatter = std::function<std::string(double)>;

/// "gpu0 -> gpu3"-style square matrix, rows sending, columns receiving. Cells coloured on a log
/// scale from the smallest non-zero value (or a hundredth of the largest, if that is smaller, but
/// not below 1 where every value is at least 1: a legend of counts never starts at "0") to the
/// largest; zero cells are left pale. The chart is wide enough for its legend.
struct MatrixHeatmap {
  std::string id;
  std::vector<std::string> labels;  // rows and columns alike
  std::vector<double> values;       // labels.size()^2, row-major
  Formatter format;                 // text for titles
  Formatter short_format;           // cell text and legend (default: format)
  std::string unit;                 // "bytes", "transfers": in titles
  std::string check;                // element id the script writes the sum of the cells into
};
std::string matrix_heatmap_svg(const MatrixHeatmap& h);

/// Rows of values over equal time bins (a strip per row).
struct StripHeatmap {
  std::string id;
  std::vector<std::string> rows;
  std::vector<std::vector<double>> values;  // per row, per bin
  double span_ns = 0;                       // the time the bins cover
  bool bands = false;                       // values are utilisations (fractions): INAM colours
  Formatter format;                         // value text in titles
  Formatter short_format;                   // legend (default: format)
  std::string check;
};
std::string strip_heatmap_svg(const StripHeatmap& h);

struct BarRow {
  std::string label;
  std::vector<double> values;  // one per series
  std::string title;           // extra hover text for the row label
};
struct BarChart {
  std::string id;
  std::vector<std::string> series;  // names; colours series_colour(i) unless `colours` is given
  std::vector<std::string> colours;
  std::vector<BarRow> rows;
  bool stacked = true;  // false: one bar per series, side by side
  Formatter format;
  std::string check;
};
std::string bar_chart_svg(const BarChart& c);

struct LineSeries {
  std::string name;
  std::vector<double> y;  // one per bin
};
struct LineChart {
  std::string id;
  std::vector<LineSeries> series;
  double span_ns = 0;  // x axis: 0 .. span, bins of equal width
  double y_max = 1;
  bool band_background = false;  // INAM bands as horizontal stripes (y as a fraction)
  Formatter format_y;
};
std::string line_chart_svg(const LineChart& c);

struct GraphNode {
  std::string label;
  double size = 0;  // sets the radius (sqrt scale)
  std::string title;
};
struct GraphEdge {
  std::size_t from = 0, to = 0;
  double value = 0;  // sets the width (linear)
  std::string title;
};
/// Nodes on a circle, directed curved edges (i -> j and j -> i apart) with widths by value.
std::string flow_graph_svg(const std::string& id, const std::vector<GraphNode>& nodes,
                           const std::vector<GraphEdge>& edges, const std::string& check = "");

/// Compact counts for cells: "512", "12.3k", "4.5M" (bytes: format_bytes_compact).
std::string short_count(double count);

/// `text` cut to at most `max_chars` characters with an ellipsis.
std::string truncate_label(std::string_view text, std::size_t max_chars);

}  // namespace linkcast::report
