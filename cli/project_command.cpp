// linkcast project --from A.yaml --to B.yaml TRACE [--actual TRACE_B] [--model NAME]...
//                  [--map gpu0=gpu2,...] [--format table|json|csv] [-o FILE]
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "projection/summary.hpp"
#include "topology/loader.hpp"
#include "trace/reader.hpp"

namespace linkcast::cli {

void add_project_command(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand(
      "project",
      "Project every transfer of a trace recorded on one node onto another, and score it against a "
      "trace recorded there");
  struct Options {
    std::string from, to, trace, actual, map, format = "table", output = "-";
    std::vector<std::string> models;
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("--from", opt->from, "Node the trace was recorded on (YAML)")->required();
  cmd->add_option("--to", opt->to, "Node to project onto (YAML)")->required();
  cmd->add_option("trace", opt->trace, kTraceHelp)->required();
  cmd->add_option("--actual", opt->actual, "Trace recorded on the target node, to score the projection (WMAPE)");
  cmd->add_option("--model", opt->models,
                  "Model(s) to project with (repeatable; default: all, and `measured`: each operation keeps its "
                  "source time). `linkcast models` lists them");
  cmd->add_option("--map", opt->map, "Rename trace endpoints onto the target, e.g. gpu0=gpu2,gpu1=gpu3");
  cmd->add_option("--format", opt->format, "table | json | csv (csv: one row per operation)")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", opt->output, "Write here instead of standard output");
  cmd->callback([opt, &run]() {
    run = [opt]() {
      std::vector<const model::Model*> models;
      if (opt->models.empty()) models = projection::projection_models();
      for (const auto& name : opt->models) models.push_back(&projection::find_projection_model(name));
      const projection::EndpointMap map = projection::parse_endpoint_map(opt->map);
      const topology::Node from = topology::load_node(opt->from);
      const topology::Node to = topology::load_node(opt->to);
      const trace::Trace trace = trace::read_trace(opt->trace);
      std::optional<trace::Trace> actual;
      if (!opt->actual.empty()) actual = trace::read_trace(opt->actual);
      const projection::Projector projector(from, to, trace, map);
      std::optional<projection::MatchResult> match;
      if (actual) match = projection::match_ops(trace, projector.categories(), *actual);

      AtomicOutput out(opt->output);
      if (opt->format == "csv") {
        projection::render_ops_csv(projector, models, actual ? &*actual : nullptr, match ? &*match : nullptr,
                                   out.stream());
      } else {
        const auto summary =
            projection::summarize(projector, models, actual ? &*actual : nullptr, match ? &*match : nullptr);
        if (opt->format == "json") projection::render_json(summary, out.stream());
        else projection::render_table(summary, out.stream());
        for (const auto& w : summary.warnings) std::cerr << "linkcast: warning: " << w << "\n";
      }
      out.commit();
      return 0;
    };
  });
}

}  // namespace linkcast::cli
