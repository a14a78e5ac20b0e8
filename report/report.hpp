// `linkcast report`: one self-contained HTML page about a trace (or synthetic workload) on a
// node, built from what the other commands compute and drawn as SVG by linkcast itself:
//  - the node topology with links coloured by simulated utilisation in OSU INAM's bands
//    (grey 0%, light green <= 25%, dark green <= 50%, orange <= 75%, red <= 100%) and labelled
//    with the bytes they carried;
//  - Snoopie's system view (ComScribe's bytes and count heatmaps per communication type, host
//    first, and a GPU graph with edge widths), object, code and device views, and mpisee's
//    communicator view (matrix/matrix.hpp);
//  - with a target node, the projection per kind and per size bucket, source vs projected time
//    per model (projection/summary.hpp);
//  - the simulated timeline summary and link utilisation over time (sim/simulate.hpp).
// Every chart has a table beside it and an exact value on hover (SVG <title>). Tables and
// charts are capped (Options::max_rows) with an "N more" line, so the page stays a few hundred
// kilobytes whatever the trace's size. No asset is fetched when the page opens: CSS, script
// and SVG are inline.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "matrix/matrix.hpp"
#include "trace/category.hpp"
#include "projection/summary.hpp"
#include "sim/simulate.hpp"
#include "sim/summary.hpp"
#include "topology/node.hpp"
#include "trace/trace.hpp"

namespace linkcast::report {

/// What the page is made of; the report only reads these.
struct Inputs {
  const topology::Node* node = nullptr;     // the node the trace ran on (required)
  const trace::Trace* trace = nullptr;  // required
  /// Required: matrix::build of the trace on the node, given the simulation's calls (calls_as_run)
  /// so that both show the same transfers.
  const matrix::Report* matrix = nullptr;
  const sim::SimResult* sim = nullptr;      // required: sim::simulate of the trace on the node
  /// Optional (both or neither): the trace modelled on its own node and projected onto the
  /// target node, with the same models in the same order.
  const projection::ProjectionSummary* on_source = nullptr;
  const projection::ProjectionSummary* on_target = nullptr;
  /// Shown in the checks section (reader, simulator and projection warnings).
  std::vector<std::string> warnings;
};

struct Options {
  /// Rows per table (and bars per chart); the rest is summarised in one "N more" line.
  std::size_t max_rows = 25;
  /// How the report was made, shown in the header and footer ("linkcast report ...").
  std::string command;
};

/// The simulation's collective calls as the matrices take them (matrix::Options::ran): views into
/// `sim`, which must outlive the matrices' build.
std::vector<matrix::RanCall> calls_as_run(const sim::SimResult& sim);

/// Writes the page. Throws std::invalid_argument when a required input is missing.
void render_html(const Inputs& inputs, const Options& options, std::ostream& out);

}  // namespace linkcast::report
