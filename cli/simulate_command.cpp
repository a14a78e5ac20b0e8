// linkcast simulate NODE.yaml (TRACE... | --workload SPEC) [--gpus LIST | --map A=B,...] [--model NAME]
//                  [--timeline FILE] [--format table|json] [-o FILE]
//                  [--algo ring|tree] [--proto LL|LL128|Simple] [--solver NAME] [--bins N]
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "application/app_projection.hpp"
#include "cli/commands.hpp"
#include "projection/projector.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "core/strings.hpp"
#include "core/units.hpp"
#include "projection/calibrate.hpp"
#include "sim/simulate.hpp"
#include "sim/render.hpp"
#include "sim/solver.hpp"
#include "topology/loader.hpp"
#include "trace/csv.hpp"
#include "trace/ranks.hpp"
#include "trace/reader.hpp"
#include "synthetic/catalog.hpp"

namespace linkcast::cli {

namespace {

constexpr std::string_view kNcclModel = "nccl-model";

std::vector<std::string> simulate_model_names() {
  std::vector<std::string> names = model::model_names();
  names.emplace_back(kNcclModel);
  return names;
}

/// "0-3", "0;2;5" or "0,2,5": GPU numbers of the node, at most as many as it has.
[[nodiscard]] std::vector<int> parse_gpus(std::string text, const topology::Node& node) {
  std::replace(text.begin(), text.end(), ',', ';');
  const auto gpus = static_cast<std::size_t>(std::count_if(
      node.endpoints.begin(), node.endpoints.end(), [](const auto& e) { return e.kind == topology::EndpointKind::gpu; }));
  return trace::parse_gpu_list(text, "--gpus", gpus, fmt::format("node '{}' has {} GPUs", node.name, gpus));
}

}  // namespace

void warn_if_huge_timeline(const std::string& path, const topology::Node& node, const trace::Trace& trace,
                           const sim::SimResult& result, std::size_t max_ops) {
  constexpr double kLimit = 100.0 * 1024 * 1024;
  const auto bytes = static_cast<double>(sim::estimate_timeline_bytes(node, trace, result, max_ops));
  if (bytes <= kLimit) return;
  const std::size_t ops = max_ops > 0 && max_ops < trace.size() ? max_ops : trace.size();
  // Two significant figures of the operations that fit in 100 MiB at this file's size per operation.
  double fit = std::floor(static_cast<double>(ops) * kLimit / bytes);
  const double scale = std::pow(10.0, std::max(0.0, std::floor(std::log10(std::max(fit, 1.0))) - 1));
  fit = std::max(1.0, std::floor(fit / scale) * scale);
  std::cerr << fmt::format(
      "linkcast: warning: --timeline {} will be about {} ({} operations{}); --timeline-ops {:.0f} keeps the "
      "first {} operations by start time, about 100 MiB\n",
      path, format_bytes_compact(bytes), format_count(ops),
      result.transfers.empty() ? "" : fmt::format(", {} collective transfers", format_count(result.transfers.size())),
      fit, format_count(static_cast<std::uint64_t>(fit)));
}

void add_simulate_command(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand(
      "simulate",
      "Replay a trace or a synthetic workload on a node with every transfer at once: links shared "
      "max-min fairly, streams in order, NCCL collectives step by step");
  struct Options {
    std::vector<std::string> traces;
    std::string node, workload, gpus, map, model = "default", timeline, format = "table", output = "-";
    std::string algo, proto, solver = "maxmin";
    int bins = 20;
    std::size_t timeline_ops = 0;
    bool as_recorded = false, cold_buffers = false;
  };
  cmd->footer(kSimulateGuide);
  auto opt = std::make_shared<Options>();
  cmd->add_option("node", opt->node, "Node description (YAML, configs/SCHEMA.md)")->check(non_empty())->required();
  add_trace_or_workload(*cmd, opt->traces, opt->workload,
                        "Synthetic workload NAME[:key=value,...] instead of a trace, e.g. nccl-allreduce:bytes=1GiB",
                        "simulate: give a trace file or --workload SPEC (exactly one of them)");
  cmd->add_option("--gpus", opt->gpus,
                  "Node GPUs to run on, e.g. 0-3 or 4;5;6;7: a trace's gpu0, gpu1, ... are placed on them in "
                  "order; a workload runs on them (its gpus= key wins)");
  cmd->add_option("--map", opt->map,
                  "Place a trace's endpoints on the node by name, e.g. gpu2=gpu0 (the same option as project's and "
                  "report's; instead of --gpus)")
      ->check(non_empty())
      ->multi_option_policy(CLI::MultiOptionPolicy::Join);  // repeated --map entries add up
  cmd->add_option("--model", opt->model,
                  "Transfer model for rates and L + O (`linkcast models`), or nccl-model: collectives take "
                  "NCCL's own predicted time instead of running step by step")
      ->capture_default_str();
  cmd->add_option("--timeline", opt->timeline,
                  "Write a Chrome trace-event timeline (open in ui.perfetto.dev); a warning comes first where it "
                  "would pass 100 MiB")->check(non_empty());
  cmd->add_option("--timeline-ops", opt->timeline_ops,
                  "Keep the first N operations by start time in the timeline (and the collective transfers and link "
                  "load up to the last one's end): a bound on its size");
  cmd->add_option("--format", opt->format, "table | json")->check(CLI::IsMember({"table", "json"}))->capture_default_str();
  cmd->add_option("-o,--output", opt->output, "Write here instead of standard output")->check(non_empty());
  cmd->add_option("--algo", opt->algo, "Collective algorithm: ring or tree (default: NCCL's choice by size)");
  cmd->add_option("--proto", opt->proto, "NCCL protocol: LL, LL128 or Simple (default: NCCL's choice by size)");
  cmd->add_option("--solver", opt->solver, "Bandwidth-sharing solver: " + join(sim::solver_names(), ", "))
      ->capture_default_str();
  cmd->add_flag("--as-recorded", opt->as_recorded,
               "Replay kernels, copies and memsets with their recorded durations (not re-priced; a collective "
               "runs step by step once its ranks have launched, as the replay places them): checks what the replay "
               "infers waited for what against the recording");
  cmd->add_flag("--cold-buffers", opt->cold_buffers,
               "Take every collective's buffers to come from the GPUs' memory, none from their L2 (by default "
               "buffers up to the GPUs' l2_resident_mib are in the L2, as in a loop of calls on the same buffers; "
               "NCCL's LL primitives load them faster there)");
  cmd->add_option("--bins", opt->bins, "Utilisation-over-time bins per link")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->callback([opt, &run]() {
    run = [opt]() {
      if (opt->workload == "help") {
        std::cout << synthetic::workload_help();
        return 0;
      }
      sim::SimOptions options;
      options.solver = opt->solver;
      (void)sim::make_solver(opt->solver);  // unknown names fail before any work
      if (opt->model == kNcclModel) {
        options.nccl_model_collectives = true;
      } else {
        const auto names = model::model_names();
        if (std::find(names.begin(), names.end(), opt->model) == names.end())
          throw InputError("--model: " + unknown_name("model", opt->model, simulate_model_names()));
        options.model = &model::find_model(opt->model);
      }
      if (!opt->algo.empty()) {
        options.algo = nccl::parse_coll_algo(to_lower(opt->algo));
        if (!options.algo) throw InputError(fmt::format("--algo: '{}' is not an algorithm; valid: ring, tree", opt->algo));
      }
      if (!opt->proto.empty()) {
        options.proto = nccl::parse_proto(opt->proto);
        if (!options.proto)
          throw InputError(fmt::format("--proto: '{}' is not a protocol; valid: {}", opt->proto,
                                       join(nccl::proto_names(), ", ")));
      }
      options.bins = opt->bins;
      options.cold_buffers = opt->cold_buffers;
      options.keep_transfers = !opt->timeline.empty();

      // Outputs first: an unwritable one fails before the work, and an interruption leaves no
      // temporary (core/output.hpp).
      {
        std::vector<std::string> inputs = opt->traces;
        inputs.push_back(opt->node);
        cli::refuse_outputs_over_inputs({opt->output, opt->timeline}, inputs);
      }
      AtomicOutput out(opt->output);
      std::optional<AtomicOutput> timeline;
      if (!opt->timeline.empty()) timeline.emplace(opt->timeline);
      const topology::Node node = cli::load_node(opt->node);
      std::vector<int> gpus;
      if (!opt->gpus.empty())
        for (int g : parse_gpus(opt->gpus, node)) gpus.push_back(node.require(fmt::format("gpu{}", g), "--gpus"));

      trace::Trace trace;
      if (!opt->workload.empty()) {
        std::string spec = opt->workload;
        if (!opt->gpus.empty() && spec.find("gpus=") == std::string::npos) {
          std::string list = opt->gpus;
          std::replace(list.begin(), list.end(), ',', ';');
          spec += (spec.find(':') == std::string::npos ? ":" : ",") + ("gpus=" + list);
        }
        synthetic::WorkloadRun w = synthetic::run_workload_full(spec, &node, synthetic::kMaxSimulatedWorkloadOps);
        trace = std::move(w.trace);
        sim::apply_collective_config(w.collectives, options);
      } else {
        trace = trace::read_traces(opt->traces);
        options.gpus = gpus;
        if (!opt->map.empty()) {
          if (!opt->gpus.empty()) throw InputError("simulate: give --gpus or --map, not both");
          for (const std::string& w : application::place(node, trace, projection::parse_endpoint_map(opt->map), options))
            std::cerr << "linkcast: warning: " << w << "\n";
        }
        // L + O measured by the trace's own small copies where it has them.
        options.fixed_ns = projection::fixed_costs_ns(projection::calibrate(trace));
        if (opt->as_recorded) options.durations_ns = sim::recorded_gpu_durations(trace);
      }
      for (const auto& w : trace.warnings) std::cerr << "linkcast: warning: " << w << "\n";

      const sim::SimResult result = sim::simulate(node, trace, options);

      if (opt->format == "json") sim::render_json(node, trace, result, out.stream());
      else sim::render_table(node, trace, result, out.stream());
      if (timeline) {
        warn_if_huge_timeline(opt->timeline, node, trace, result, opt->timeline_ops);
        sim::render_timeline(node, trace, result, timeline->stream(), opt->timeline_ops);
      }
      // Both files, or neither: a failure on -o leaves the --timeline file as it was.
      commit_all({&out, timeline ? &*timeline : nullptr});
      for (const auto& w : result.warnings) std::cerr << "linkcast: warning: " << w << "\n";
      return 0;
    };
  });
}

}  // namespace linkcast::cli
