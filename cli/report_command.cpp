// linkcast report (TRACE | --workload SPEC) --node NODE.yaml [--to TARGET.yaml] [--model NAME]
//                 [--map gpu0=gpu2,...] [--bins N] [--rows N] [--timings] -o report.html
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <optional>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "core/strings.hpp"
#include "matrix/matrix.hpp"
#include "projection/calibrate.hpp"
#include "projection/summary.hpp"
#include "report/report.hpp"
#include "sim/simulate.hpp"
#include "topology/loader.hpp"
#include "trace/reader.hpp"
#include "synthetic/catalog.hpp"

namespace linkcast::cli {

namespace {

/// A shell word as the user would type it (quoted only when needed), for the page's header.
std::string shell_word(const std::string& s) {
  if (!s.empty() && s.find_first_of(" \t\"'\\$`;&|<>()*?[]{}") == std::string::npos) return s;
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace

void add_report_command(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand(
      "report",
      "Write one self-contained HTML page about a trace or workload on a node: topology coloured by simulated link "
      "utilisation (OSU INAM), system/object/code/device views with heatmaps (Snoopie, ComScribe), communicators "
      "(mpisee), the projection onto another node, and the simulated timeline");
  struct Options {
    std::string trace, workload, node, to, map, model, output;
    int bins = 40;
    int rows = 25;
    bool timings = false;
  };
  auto opt = std::make_shared<Options>();
  add_trace_or_workload(
      *cmd, opt->trace, opt->workload,
      "Run a synthetic workload instead: NAME[:key=value,...]; `linkcast report --workload help` lists them",
      "report: give a trace file or --workload SPEC (exactly one of them), e.g. `linkcast report --workload stencil2d "
      "--node configs/dgx1-v100.yaml -o report.html`");
  cmd->add_option("--node", opt->node, "Node the trace ran on (YAML): simulated, drawn, and the projection's source")
      ->required();
  cmd->add_option("--to", opt->to, "Also project the trace onto this node (YAML) and show the projection view");
  cmd->add_option("--map", opt->map,
                  "With --to: place trace endpoints on other endpoints of the target, e.g. gpu0=gpu2,gpu1=gpu3");
  cmd->add_option(
      "--model", opt->model,
      "Transfer model (`linkcast models`) for the simulation and the projection (default: 'default' for the "
      "simulation, every model for the projection)");
  cmd->add_option("--bins", opt->bins, "Time bins of the utilisation-over-time charts")
      ->check(CLI::Range(1, 400))
      ->capture_default_str();
  cmd->add_option("--rows", opt->rows, "Rows per table and bars per chart; the rest is summed up in one line")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  cmd->add_flag("--timings", opt->timings,
                "Print how long each step took (reading, matrices, simulation, projection, page) to standard error");
  cmd->add_option("-o,--output", opt->output, "The HTML file to write")->required();
  cmd->callback([opt, &run]() {
    run = [opt]() {
      if (opt->workload == "help") {
        std::cout << synthetic::workload_help();
        return 0;
      }
      const model::Model* chosen = nullptr;
      if (!opt->model.empty()) {
        const auto names = model::model_names();
        if (std::find(names.begin(), names.end(), opt->model) == names.end())
          throw InputError(fmt::format("--model: unknown model '{}'{}; valid models: {}", opt->model,
                                       did_you_mean(opt->model, names), join(names, ", ")));
        chosen = &model::find_model(opt->model);
      }
      const projection::EndpointMap map = projection::parse_endpoint_map(opt->map);
      if (!map.empty() && opt->to.empty())
        throw InputError("--map: give --to TARGET.yaml too; --map places trace endpoints on the target node");
      // Seconds per step, for --timings.
      std::vector<std::pair<std::string, double>> steps;
      auto clock = std::chrono::steady_clock::now();
      auto lap = [&](std::string what) {
        const auto now = std::chrono::steady_clock::now();
        steps.emplace_back(std::move(what), std::chrono::duration<double>(now - clock).count());
        clock = now;
      };
      // Fail on an unwritable output before the (possibly long) work; nothing is left behind
      // if anything below throws.
      AtomicOutput out(opt->output);
      const topology::Node node = topology::load_node(opt->node);
      std::optional<topology::Node> target;
      if (!opt->to.empty()) target = topology::load_node(opt->to);

      trace::Trace trace;
      std::optional<trace::TraceIndex> index;  // built once: calibration and both projections
      matrix::Options matrix_options;
      matrix_options.node = &node;
      sim::SimOptions sim_options;
      sim_options.model = chosen;
      sim_options.bins = opt->bins;
      if (!opt->workload.empty()) {
        synthetic::WorkloadRun w = synthetic::run_workload_full(opt->workload, &node);
        trace = std::move(w.trace);
        matrix_options.collectives = w.collectives;
        // As `linkcast simulate`: what the spec says about its collectives, else NCCL's choices.
        sim::apply_collective_config(w.collectives, sim_options);
      } else {
        trace = trace::read_trace(opt->trace);
        // As `linkcast simulate`: L + O measured by the trace's own small copies where it has them.
        index.emplace(trace);
        sim_options.fixed_ns = projection::fixed_costs_ns(projection::calibrate(*index));
      }

      lap(fmt::format("{} {} operations", opt->workload.empty() ? "read" : "ran", trace.size()));
      const matrix::Report matrix = matrix::build(trace, matrix_options);
      lap("matrices");
      const sim::SimResult result = sim::simulate(node, trace, sim_options);
      lap("simulation");

      report::Inputs inputs;
      inputs.node = &node;
      inputs.trace = &trace;
      inputs.matrix = &matrix;
      inputs.sim = &result;
      inputs.warnings = trace.warnings;
      inputs.warnings.insert(inputs.warnings.end(), result.warnings.begin(), result.warnings.end());
      std::optional<projection::ProjectionSummary> on_source, on_target;
      if (target) {
        std::vector<const model::Model*> models;
        if (chosen)
          models.push_back(chosen);
        else
          for (const auto& m : model::all_models()) models.push_back(&m);
        if (!index) index.emplace(trace);
        const projection::Projector self(node, node, *index);
        const projection::Projector onto(node, *target, *index, map);
        on_source = projection::summarize(self, models, nullptr, nullptr);
        on_target = projection::summarize(onto, models, nullptr, nullptr);
        inputs.on_source = &*on_source;
        inputs.on_target = &*on_target;
        for (const auto& w : onto.warnings()) inputs.warnings.push_back(w);
        lap(fmt::format("projection ({} models, on both nodes)", models.size()));
      }

      report::Options options;
      options.max_rows = static_cast<std::size_t>(opt->rows);
      options.command = "linkcast report " +
                        (opt->workload.empty() ? shell_word(opt->trace) : "--workload " + shell_word(opt->workload)) +
                        " --node " + shell_word(opt->node) + (opt->to.empty() ? "" : " --to " + shell_word(opt->to)) +
                        (opt->map.empty() ? "" : " --map " + shell_word(opt->map)) +
                        (opt->model.empty() ? "" : " --model " + shell_word(opt->model)) + " -o " +
                        shell_word(opt->output);
      report::render_html(inputs, options, out.stream());
      out.commit();
      lap("page");
      if (opt->timings) {
        double total = 0;
        for (const auto& [what, s] : steps) {
          std::cerr << fmt::format("linkcast: report: {}: {:.2f} s\n", what, s);
          total += s;
        }
        std::cerr << fmt::format("linkcast: report: total {:.2f} s\n", total);
      }
      for (const auto& w : inputs.warnings) std::cerr << "linkcast: warning: " << w << "\n";
      return 0;
    };
  });
}

}  // namespace linkcast::cli
