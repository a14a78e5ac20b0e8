// linkcast calibrate TRACE [-o FILE]: node properties measured from a trace recorded on it.
#include <iostream>

#include "cli/commands.hpp"
#include "core/output.hpp"
#include "projection/calibrate.hpp"
#include "trace/reader.hpp"
#include "trace/select.hpp"

namespace linkcast::cli {

void add_calibrate_command(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand(
      "calibrate",
      "Measure a node's 1-byte transfer costs and pageable staging rate from a trace recorded on "
      "it; prints YAML to paste into the node file");
  struct Options {
    std::string trace, output = "-";
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("trace", opt->trace, "Trace recorded on the node (any supported format)")->required();
  cmd->add_option("-o,--output", opt->output, "Write here instead of standard output");
  cmd->callback([opt, &run]() {
    run = [opt]() {
      const trace::Trace trace = trace::data_movement(trace::read_trace(opt->trace));
      for (const std::string& w : trace.warnings) std::cerr << "linkcast: warning: " << w << "\n";
      AtomicOutput out(opt->output);
      projection::render_calibration_yaml(projection::calibrate(trace), out.stream());
      out.commit();
      return 0;
    };
  });
}

}  // namespace linkcast::cli
