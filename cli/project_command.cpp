// linkcast project --from A.yaml --to B.yaml TRACE [--actual TRACE_B] [--model NAME]...
//                  [--map gpu0=gpu2,...] [--format table|json|csv] [-o FILE] [--timeline FILE]
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "application/app_projection.hpp"
#include "application/render.hpp"
#include "application/steps.hpp"
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "core/progress.hpp"
#include "projection/summary.hpp"
#include "sim/render.hpp"
#include "topology/loader.hpp"
#include "trace/ranks.hpp"
#include "trace/reader.hpp"
#include "trace/select.hpp"

namespace linkcast::cli {

void add_project_command(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand(
      "project",
      "Project every transfer of a trace recorded on one node onto another, and score it against a "
      "trace recorded there");
  struct Options {
    std::vector<std::string> traces;
    std::string from, to, actual, map, format = "table", output = "-", timeline;
    std::vector<std::string> models;
    std::size_t timeline_ops = 0;
    bool target_host_rates = false;
  };
  cmd->footer(kProjectGuide);
  auto opt = std::make_shared<Options>();
  cmd->add_option("--from", opt->from, "Node the trace was recorded on (YAML)")->check(non_empty())->required();
  cmd->add_option("--to", opt->to, "Node to project onto (YAML)")->check(non_empty())->required();
  cmd->add_option("trace", opt->traces, kTraceHelp)->check(non_empty())->required();
  cmd->add_option("--actual", opt->actual, "Trace recorded on the target node (a folder: one per rank), to score the projection (WMAPE)")->check(non_empty());
  cmd->add_option("--model", opt->models,
                  "Model(s) to project with (repeatable; default: all, and `measured`: each operation keeps its "
                  "source time). `linkcast models` lists them");
  cmd->add_option("--map", opt->map, "Rename trace endpoints onto the target, e.g. gpu0=gpu2,gpu1=gpu3")
      ->check(non_empty())
      ->multi_option_policy(CLI::MultiOptionPolicy::Join);  // repeated --map entries add up
  cmd->add_flag("--target-host-rates", opt->target_host_rates, kTargetHostRatesHelp);
  cmd->add_option("--format", opt->format, "table | json | csv (csv: one row per operation)")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", opt->output, "Write here instead of standard output")->check(non_empty());
  cmd->add_option("--timeline", opt->timeline,
                  "A trace with kernels and runtime calls: write the target's replay here as a Chrome trace "
                  "(chrome://tracing, ui.perfetto.dev); a warning comes first where it would pass 100 MiB")->check(non_empty());
  cmd->add_option("--timeline-ops", opt->timeline_ops,
                  "Keep the first N operations by start time in the timeline: a bound on its size");
  cmd->callback([opt, &run]() {
    run = [opt]() {
      std::vector<const model::Model*> models;
      if (opt->models.empty()) models = projection::projection_models();
      for (const auto& name : opt->models) models.push_back(&projection::find_projection_model(name));
      const projection::EndpointMap map = projection::parse_endpoint_map(opt->map);
      // Outputs first: an unwritable one fails before the work, and an interruption leaves no
      // temporary (core/output.hpp).
      {
        std::vector<std::string> inputs = opt->traces;
        for (const std::string* p : {&opt->from, &opt->to, &opt->actual}) inputs.push_back(*p);
        cli::refuse_outputs_over_inputs({opt->output, opt->timeline}, inputs);
      }
      AtomicOutput out(opt->output);
      std::optional<AtomicOutput> timeline;
      if (!opt->timeline.empty()) timeline.emplace(opt->timeline);
      const topology::Node from = cli::load_node(opt->from);
      const topology::Node to = cli::load_node(opt->to);
      // The whole trace is kept beside its data movement only where it has an application.
      std::optional<trace::Trace> whole, actual_whole, actual;
      trace::Trace read = trace::read_traces(opt->traces);
      if (read.has_application()) whole = read;
      const trace::Trace trace = trace::data_movement(std::move(read));
      if (!opt->actual.empty()) {
        trace::Trace read_actual = trace::read_traces({opt->actual});
        if (whole) actual_whole = read_actual;  // the steps it recorded (application::step_table)
        actual = trace::data_movement(std::move(read_actual));
      }
      if (!opt->timeline.empty() && !whole)
        throw InputError(fmt::format("--timeline: {} has no kernels or runtime calls: only a whole application's "
                                     "projection is replayed (record it with the PyTorch profiler or nsys)",
                                     fmt::join(opt->traces, " ")));
      // "projection" on a terminal while it runs (the application's replays show their own lines).
      std::optional<ProgressLine> phase(std::in_place, "projection");
      const projection::Projector projector(from, to, trace, map, {opt->target_host_rates});
      // A whole application (kernels, runtime calls): its steps on the target, with the model
      // asked for (the first --model) or linkcast's default for the transfers.
      std::optional<application::ApplicationProjection> projected_app;
      std::optional<application::StepTable> steps;
      // The span per transfer model (`measured` left out: the application's "nothing changes" is
      // its recorded span), the first from the projection itself.
      application::SpanByModel span_by_model;
      if (whole) {
        const model::Model& m = opt->models.empty() ? model::find_model("default") : *models.front();
        projected_app = application::project_application(from, to, *whole, map, m, &projector, !opt->timeline.empty());
        steps = application::step_table(*projected_app, actual_whole ? &*actual_whole : nullptr);
        span_by_model.emplace_back(m.name, steps->projected_span_ns);
        for (const model::Model* other : models)
          if (other->name != m.name && other->name != "measured")
            span_by_model.emplace_back(other->name, application::projected_span_with(from, to, *whole, map, *other,
                                                                                     &projector, *projected_app));
      }
      std::optional<projection::MatchResult> match;
      if (actual) {
        match = projection::match_ops(trace, projector.categories(), *actual);
        const std::size_t ranks = trace::rank_files(trace), actual_ranks = trace::rank_files(*actual);
        if (ranks != actual_ranks && std::max(ranks, actual_ranks) > 1)
          std::cerr << fmt::format("linkcast: warning: --actual {}: {} file(s) against the trace's {}: operations are "
                                   "matched in order whatever rank recorded them; give --actual the same job's files "
                                   "(a folder of its ranks) to match each rank's own\n",
                                   opt->actual, actual_ranks, ranks);
        if (match->matched == 0)
          std::cerr << fmt::format("linkcast: warning: --actual {}: no operation of it matches one of the trace ({} "
                                   "of its operations, {} of the trace's): no score; give a recording of the same "
                                   "program (operations match by kind, memory kinds and size, in order)\n",
                                   opt->actual, actual->size(), trace.size());
      }

      if (opt->format == "csv") {
        projection::render_ops_csv(projector, models, actual ? &*actual : nullptr, match ? &*match : nullptr,
                                   out.stream());
      } else {
        const auto summary =
            projection::summarize(projector, models, actual ? &*actual : nullptr, match ? &*match : nullptr);
        if (opt->format == "json") {
          if (projected_app) {
            std::ostringstream transfers;
            projection::render_json(summary, transfers);
            nlohmann::json j = nlohmann::json::parse(transfers.str());
            j["application"] = application::to_json(from, to, *projected_app, *steps);
            j["span"] = application::span_json(*steps, span_by_model);
            out.stream() << j.dump(2) << "\n";
          } else {
            projection::render_json(summary, out.stream());
          }
        } else {
          projection::render_table(summary, out.stream());
          if (projected_app) {
            application::render_table(from, to, *projected_app, *steps, out.stream());
            application::render_span_by_model(*steps, span_by_model, out.stream());
          }
        }
        if (projected_app)
          for (const auto& w : projected_app->warnings) std::cerr << "linkcast: warning: " << w << "\n";
        for (const auto& w : summary.warnings) std::cerr << "linkcast: warning: " << w << "\n";
      }
      phase.reset();
      if (timeline && projected_app) {
        warn_if_huge_timeline(opt->timeline, to, *whole, projected_app->target, opt->timeline_ops);
        sim::render_timeline(to, *whole, projected_app->target, timeline->stream(), opt->timeline_ops);
      }
      if (timeline) timeline->commit();
      out.commit();
      return 0;
    };
  });
}

}  // namespace linkcast::cli
