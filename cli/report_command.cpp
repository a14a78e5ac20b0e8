// linkcast report (TRACE | --workload SPEC) --node NODE.yaml [--to TARGET.yaml] [--model NAME]
//                 [--map gpu0=gpu2,...] [--bins N] [--rows N] [--timings] -o report.html
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>

#include "application/app_projection.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "core/progress.hpp"
#include "core/strings.hpp"
#include "core/units.hpp"
#include "matrix/matrix.hpp"
#include "projection/calibrate.hpp"
#include "projection/summary.hpp"
#include "report/report.hpp"
#include "sim/simulate.hpp"
#include "topology/loader.hpp"
#include "trace/ranks.hpp"
#include "trace/reader.hpp"
#include "trace/select.hpp"
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

std::string shell_words(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + shell_word(w);
  return out;
}

struct ReportOptions {
  std::vector<std::string> traces;
  std::string workload, node, to, map, model, output;
  int bins = 40;
  int rows = 25;
  bool timings = false;
  bool target_host_rates = false;
};

/// The model --model names, or nullptr when none is given.
const model::Model* chosen_model(const std::string& name) {
  if (name.empty()) return nullptr;
  try {
    return &model::find_model(name);
  } catch (const InputError& e) {
    throw InputError(fmt::format("--model: {}", e.what()));
  }
}

/// Seconds per step, for --timings.
class StepTimes {
 public:
  void lap(std::string what) {
    const auto now = std::chrono::steady_clock::now();
    steps_.emplace_back(std::move(what), std::chrono::duration<double>(now - clock_).count());
    clock_ = now;
  }
  void print(std::ostream& out) const {
    double total = 0;
    for (const auto& [what, s] : steps_) {
      out << fmt::format("linkcast: report: {}: {:.2f} s\n", what, s);
      total += s;
    }
    out << fmt::format("linkcast: report: total {:.2f} s\n", total);
  }

 private:
  std::vector<std::pair<std::string, double>> steps_;
  std::chrono::steady_clock::time_point clock_ = std::chrono::steady_clock::now();
};

/// The operations the page is about, and how the matrices and the simulation read them.
struct Workload {
  trace::Trace trace;
  std::optional<trace::TraceIndex> index;  // built once, for both projections
  matrix::Options matrix_options;
  sim::SimOptions sim_options;
};

/// Reads the trace or runs the workload on `node` into `w`, with the options `linkcast matrix`
/// and `linkcast simulate` would use for it.
void load_workload(const ReportOptions& opt, const topology::Node& node, const model::Model* chosen, Workload& w) {
  w.matrix_options.node = &node;
  w.sim_options.model = chosen;
  w.sim_options.bins = opt.bins;
  if (!opt.workload.empty()) {
    synthetic::WorkloadRun run = synthetic::run_workload_full(opt.workload, &node, synthetic::kMaxSimulatedWorkloadOps);
    w.trace = std::move(run.trace);
    w.matrix_options.collectives = run.collectives;
    // As `linkcast simulate`: what the spec says about its collectives, else NCCL's choices.
    sim::apply_collective_config(run.collectives, w.sim_options);
  } else {
    w.trace = trace::data_movement(trace::read_traces(opt.traces));
    // As `linkcast simulate`: L + O measured by the trace's own small copies where it has them
    // (read from the trace itself: the index of distinct operations is built only to project).
    w.sim_options.fixed_ns = projection::fixed_costs_ns(projection::calibrate(w.trace));
  }
}

/// The trace projected onto the node it ran on and onto `target`, under the chosen model or
/// every model.
struct Projections {
  projection::ProjectionSummary on_source, on_target;
  std::vector<std::string> warnings;
  std::size_t models = 0;
};
Projections project(const topology::Node& node, const topology::Node& target, const projection::EndpointMap& map,
                    const projection::HostRateChoice& host, const model::Model* chosen, Workload& w) {
  std::vector<const model::Model*> models;
  if (chosen)
    models.push_back(chosen);
  else
    for (const auto& m : model::all_models()) models.push_back(&m);
  if (!w.index) w.index.emplace(w.trace);
  const projection::Projector self(node, node, *w.index);
  const projection::Projector onto(node, target, *w.index, map, host);
  return {projection::summarize(self, models, nullptr, nullptr), projection::summarize(onto, models, nullptr, nullptr),
          onto.warnings(), models.size()};
}

/// --map's entries as one comma-separated word (a repeated --map joins them with newlines).
std::string map_entries(std::string map) {
  std::replace(map.begin(), map.end(), '\n', ',');
  return map;
}

/// The command line as the page's header shows it.
std::string command_line(const ReportOptions& opt) {
  return "linkcast report " +
         (opt.workload.empty() ? shell_words(opt.traces) : "--workload " + shell_word(opt.workload)) + " --node " +
         shell_word(opt.node) + (opt.to.empty() ? "" : " --to " + shell_word(opt.to)) +
         (opt.map.empty() ? "" : " --map " + shell_word(map_entries(opt.map))) +
         (opt.model.empty() ? "" : " --model " + shell_word(opt.model)) + " -o " + shell_word(opt.output);
}

int run_report(const ReportOptions& opt) {
  if (opt.workload == "help") {
    std::cout << synthetic::workload_help();
    return 0;
  }
  const model::Model* chosen = chosen_model(opt.model);
  const projection::EndpointMap map = projection::parse_endpoint_map(opt.map);
  if (!map.empty() && !opt.workload.empty() && opt.to.empty())
    throw InputError("--map: a workload runs on the GPUs its gpus= key names; --map places a trace's endpoints on "
                     "--node, or the endpoints of either on --to");
  StepTimes steps;
  // Fail on an unwritable output before the (possibly long) work; nothing is left behind if
  // anything below throws.
  {
    std::vector<std::string> inputs = opt.traces;
    inputs.push_back(opt.node);
    inputs.push_back(opt.to);
    cli::refuse_outputs_over_inputs({opt.output}, inputs);
  }
  AtomicOutput out(opt.output);
  const topology::Node node = cli::load_node(opt.node);
  std::optional<topology::Node> target;
  if (!opt.to.empty()) target = cli::load_node(opt.to);

  Workload w;
  load_workload(opt, node, chosen, w);
  // --map places the trace's endpoints that the node lacks on its own (as `simulate --map`), and
  // every mapped endpoint on the target.
  if (!map.empty() && opt.workload.empty()) {
    for (const std::string& warning :
         application::place(node, w.trace, projection::source_placement(node, map), w.sim_options))
      std::cerr << "linkcast: warning: " << warning << "\n";
    // An entry naming an endpoint --node has moves it only on --to's node.
    if (!target)
      for (const auto& [name, onto] : map)
        if (node.find(name) >= 0)
          std::cerr << fmt::format("linkcast: warning: --map {}={}: places nothing: node '{}' has {}, and an entry "
                                   "moves an endpoint the node has only on --to's node; give --to (or simulate "
                                   "--map, which places every entry)\n",
                                   name, onto, node.name, name);
  }
  steps.lap(fmt::format("{} {} operations", opt.workload.empty() ? "read" : "ran", w.trace.size()));
  // One view of the truth: the simulation runs first, and the matrices take each collective call
  // as it ran (its rings and their shares, and the ranks the trace lacks).
  const sim::SimResult result = sim::simulate(node, w.trace, w.sim_options);
  steps.lap("simulation");
  w.matrix_options.ran = report::calls_as_run(result);
  const matrix::Report matrix = matrix::build(w.trace, w.matrix_options);
  steps.lap("matrices");

  report::Inputs inputs;
  inputs.node = &node;
  inputs.trace = &w.trace;
  inputs.matrix = &matrix;
  inputs.sim = &result;
  inputs.warnings = w.trace.warnings;
  inputs.warnings.insert(inputs.warnings.end(), result.warnings.begin(), result.warnings.end());
  std::optional<Projections> projections;
  if (target) {
    ProgressLine phase("projection");
    projections = project(node, *target, map, {opt.target_host_rates}, chosen, w);
    inputs.on_source = &projections->on_source;
    inputs.on_target = &projections->on_target;
    inputs.warnings.insert(inputs.warnings.end(), projections->warnings.begin(), projections->warnings.end());
    steps.lap(fmt::format("projection ({} models, on both nodes)", projections->models));
  }

  report::Options options;
  options.max_rows = static_cast<std::size_t>(opt.rows);
  options.command = command_line(opt);
  report::render_html(inputs, options, out.stream());
  out.commit();
  steps.lap("page");
  if (opt.timings) steps.print(std::cerr);
  for (const auto& warning : inputs.warnings) std::cerr << "linkcast: warning: " << warning << "\n";
  // The page is the command's only output: say where it went (not for standard output or a device).
  std::error_code ec;
  if (std::filesystem::is_regular_file(out.path(), ec))
    std::cerr << fmt::format("linkcast: wrote {} ({}); open it in a browser\n", out.path(),
                             format_bytes(std::filesystem::file_size(out.path(), ec)));
  return 0;
}

}  // namespace

void add_report_command(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand(
      "report",
      "Write one self-contained HTML page about a trace or workload on a node: topology coloured by simulated link "
      "utilisation (OSU INAM), system/object/code/device views with heatmaps (Snoopie, ComScribe), communicators "
      "(mpisee), the projection onto another node, and the simulated timeline");
  auto opt = std::make_shared<ReportOptions>();
  add_trace_or_workload(
      *cmd, opt->traces, opt->workload,
      "Run a synthetic workload instead: NAME[:key=value,...]; `linkcast report --workload help` lists them",
      "report: give a trace file or --workload SPEC (exactly one of them), e.g. `linkcast report --workload stencil2d "
      "--node configs/dgx1-v100.yaml -o report.html`");
  cmd->add_option("--node", opt->node, "Node the trace ran on (YAML): simulated, drawn, and the projection's source")->check(non_empty())
      ->required();
  cmd->add_option("--to", opt->to, "Also project the trace onto this node (YAML) and show the projection view")->check(non_empty());
  cmd->add_option("--map", opt->map,
                  "Place trace endpoints on other endpoints, e.g. gpu2=gpu0: on --node where it lacks them (a trace "
                  "recorded on gpu2 of a larger machine), and on --to (the same option as simulate's and project's)")
      ->check(non_empty())
      ->multi_option_policy(CLI::MultiOptionPolicy::Join);  // repeated --map entries add up
  cmd->add_flag("--target-host-rates", opt->target_host_rates, kTargetHostRatesHelp);
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
  cmd->add_option("-o,--output", opt->output, "The HTML file to write")->check(non_empty())->required();
  cmd->callback([opt, &run]() {
    run = [opt]() { return run_report(*opt); };
  });
}

}  // namespace linkcast::cli
