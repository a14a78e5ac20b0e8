// Internal to the report module: the page's sections, each a function of one shared context.
#pragma once

#include <string>
#include <vector>

#include "report/report.hpp"
#include "report/topology_view.hpp"
#include "topology/routing.hpp"

namespace linkcast::report {

struct Context {
  Context(const Inputs& inputs, const Options& options);

  const Inputs& in;
  const Options& opt;
  const topology::Node& node;
  const trace::Trace& trace;
  const matrix::Report& m;
  const sim::SimResult& sim;
  topology::Routes routes;
  sim::SimulationSummary summary;
  std::vector<std::array<LaneTraffic, 2>> traffic;
  std::vector<double> sent_bytes, received_bytes;  // per node endpoint, from the simulation
  /// Bars per chart: max_rows, at most 20 (a chart of more bars is no longer read).
  std::size_t chart_rows() const { return std::min<std::size_t>(opt.max_rows, 20); }
};

/// A chart with its table beside it (below on narrow windows).
std::string pair_block(const std::string& chart, const std::string& table, const std::string& caption = "");
/// "Script check: <what> <output id=... data-expect=...>", hidden (the browser test's; the script
/// shows it only where the sum differs): the inline script writes the sum of
/// the chart's data-v values into it and marks whether it equals `expect`.
std::string check_line(const std::string& id, double expect, const std::string& what);
/// <section id="view-<key>"> with a heading and an introduction.
std::string section_open(const std::string& key, const std::string& heading, const std::string& intro);
/// A tab bar over panels whose ids are given (the script shows one at a time).
std::string tab_bar(const std::vector<std::pair<std::string, std::string>>& ids_and_labels);

std::string topology_section(const Context& c);
std::string system_section(const Context& c);
std::string objects_section(const Context& c);
std::string code_section(const Context& c);
std::string devices_section(const Context& c);
std::string communicators_section(const Context& c);
std::string projection_section(const Context& c);
std::string simulation_section(const Context& c);

}  // namespace linkcast::report
