// linkcast calibrate TRACE... [-o FILE]: node properties measured from traces recorded on it.
#include <iostream>

#include "cli/commands.hpp"
#include "core/output.hpp"
#include "projection/calibrate.hpp"
#include "trace/index.hpp"
#include "trace/reader.hpp"
#include "trace/select.hpp"

namespace linkcast::cli {

void add_calibrate_command(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand(
      "calibrate",
      "Measure a node's 1-byte transfer costs and the rates its pageable copies ran at (cold or cache-warm "
      "source, used or fresh destination pages) from traces recorded on it; prints YAML to paste into the "
      "node file");
  struct Options {
    std::vector<std::string> traces;
    std::string output = "-";
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("trace", opt->traces,
                  "Trace(s) recorded on the node (any supported format); several are measured together")->check(non_empty())
      ->required();
  cmd->add_option("-o,--output", opt->output, "Write here instead of standard output")->check(non_empty());
  cmd->callback([opt, &run]() {
    run = [opt]() {
      // Fail on an unwritable output before reading; an interruption leaves no temporary.
      cli::refuse_outputs_over_inputs({opt->output}, opt->traces);
      AtomicOutput out(opt->output);
      std::vector<trace::Trace> traces;
      for (const std::string& file : opt->traces) traces.push_back(trace::data_movement(trace::read_trace(file)));
      for (const trace::Trace& t : traces)
        for (const std::string& w : t.warnings) std::cerr << "linkcast: warning: " << w << "\n";
      std::vector<trace::TraceIndex> indexes;
      indexes.reserve(traces.size());
      for (const trace::Trace& t : traces) indexes.emplace_back(t);
      std::vector<const trace::TraceIndex*> pointers;
      for (const trace::TraceIndex& i : indexes) pointers.push_back(&i);
      projection::render_calibration_yaml(projection::calibrate(pointers), out.stream());
      out.commit();
      return 0;
    };
  });
}

}  // namespace linkcast::cli
