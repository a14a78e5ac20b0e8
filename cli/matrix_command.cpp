// linkcast matrix (TRACE | --workload SPEC) [--node NODE.yaml] [--by type|object|line|comm|device]
//                 [--metric bytes|count] [--format table|json|csv] [--algo ring|tree]
//                 [--channels N] [--chunk SIZE] [--save-trace FILE] [-o FILE]
#include <fmt/format.h>

#include <iostream>
#include <optional>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "core/units.hpp"
#include "matrix/matrix.hpp"
#include "topology/loader.hpp"
#include "trace/csv.hpp"
#include "trace/ranks.hpp"
#include "trace/reader.hpp"
#include "trace/select.hpp"
#include "synthetic/catalog.hpp"

namespace linkcast::cli {

void add_matrix_command(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand(
      "matrix",
      "Communication matrices of a trace or a synthetic workload: ComScribe's per-type matrices (host first), "
      "Snoopie's attribution to objects, lines and devices, mpisee's communicator table, with checks");
  struct Options {
    std::vector<std::string> traces;
    std::string workload, node, by = "type", metric = "bytes", format = "table", algo, chunk, save_trace;
    std::string output = "-";
    int channels = 0;
  };
  auto opt = std::make_shared<Options>();
  add_trace_or_workload(*cmd, opt->traces, opt->workload,
                        "Run a synthetic workload instead: NAME[:key=value,...]; `--workload help` lists them",
                        "matrix: give a trace file or --workload SPEC (one of them), e.g. `linkcast matrix --workload "
                        "stencil2d:periodic=1`");
  cmd->add_option("--node", opt->node,
                  "Node (YAML): lists all its CPUs and GPUs, places 'host' on each GPU's socket, sets workload GPUs")->check(non_empty());
  cmd->add_option("--by", opt->by, "type | object | line | comm | device")
      ->check(CLI::IsMember({"type", "object", "line", "comm", "device"}))
      ->capture_default_str();
  cmd->add_option("--metric", opt->metric, "bytes | count (table view of the matrices)")
      ->check(CLI::IsMember({"bytes", "count"}))
      ->capture_default_str();
  cmd->add_option("--format", opt->format, "table | json | csv")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  cmd->add_option("--algo", opt->algo,
                  "Decompose collectives with NCCL's ring or tree (default: the workload's, else ring)")
      ->check(CLI::IsMember({"ring", "tree"}));
  cmd->add_option("--channels", opt->channels, "NCCL channels for collectives (default: the workload's, else 2)")
      ->check(CLI::Range(1, nccl::kMaxChannels));
  cmd->add_option("--chunk", opt->chunk, "NCCL chunk bytes per rank and channel (default: NCCL's)")
      ->check(size_validator());
  cmd->add_option("--save-trace", opt->save_trace, "Also write the trace analysed as linkcast CSV")->check(non_empty());
  cmd->add_option("-o,--output", opt->output, "Write here instead of standard output")->check(non_empty());
  cmd->callback([opt, &run]() {
    run = [opt]() {
      if (opt->workload == "help") {
        std::cout << synthetic::workload_help();
        return 0;
      }
      // Outputs first: an unwritable one fails before the work, and an interruption leaves no
      // temporary (core/output.hpp).
      std::optional<AtomicOutput> saved;
      if (!opt->save_trace.empty()) saved.emplace(opt->save_trace);
      {
        std::vector<std::string> inputs = opt->traces;
        inputs.push_back(opt->node);
        cli::refuse_outputs_over_inputs({opt->output, opt->save_trace}, inputs);
      }
      AtomicOutput out(opt->output);
      std::optional<topology::Node> node;
      if (!opt->node.empty()) node = cli::load_node(opt->node);
      matrix::Options options;
      options.node = node ? &*node : nullptr;
      trace::Trace trace;
      if (!opt->workload.empty()) {
        synthetic::WorkloadRun w = synthetic::run_workload_full(opt->workload, options.node);
        trace = std::move(w.trace);
        options.collectives = w.collectives;
      } else {
        trace = trace::data_movement(trace::read_traces(opt->traces));
      }
      if (!opt->algo.empty()) {
        options.collectives.algo = *nccl::parse_coll_algo(opt->algo);
        options.collectives.algo_given = true;
      }
      if (opt->channels > 0) options.collectives.channels = opt->channels;
      if (!opt->chunk.empty()) options.collectives.chunk_bytes = parse_size_bytes(opt->chunk, "--chunk");
      const matrix::Report report = matrix::build(trace, options);

      if (saved) trace::write_csv_trace(trace, saved->stream());
      const matrix::View view = *matrix::parse_view(opt->by);
      if (opt->format == "json") matrix::render_json(report, out.stream());
      else if (opt->format == "csv") matrix::render_csv(report, view, out.stream());
      else matrix::render_table(report, view, *matrix::parse_metric(opt->metric), out.stream());
      // Both files, or neither: a failure on -o leaves the --save-trace file as it was.
      commit_all({&out, saved ? &*saved : nullptr});
      for (const std::string& w : trace.warnings) std::cerr << "linkcast: warning: " << w << "\n";
      if (opt->format != "table")
        for (const std::string& w : report.warnings) std::cerr << "linkcast: warning: " << w << "\n";
      return 0;
    };
  });
}

}  // namespace linkcast::cli
