// linkcast hostprobe [--quick] [--csv FILE] [-o FILE]: the host memory rates that bound pageable
// copies, measured on the machine it runs on (no GPU), printed as the node-file keys they fill.
#include <unistd.h>

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <stdexcept>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/output.hpp"
#include "hostprobe/host_rates.hpp"

namespace linkcast::cli {

void add_hostprobe_command(CLI::App& app, Runner& run) {
  auto* cmd = app.add_subcommand(
      "hostprobe",
      "Measure this machine's host memory rates that bound pageable GPU copies (single-thread copy from DRAM "
      "and from the cache, copy into fresh pages), with no GPU; prints YAML for a cpu's memory: block");
  struct Options {
    bool quick = false;
    std::string csv, output = "-";
  };
  auto opt = std::make_shared<Options>();
  cmd->add_flag("--quick", opt->quick, "A few seconds (2 to about 17 s, by the machine) instead of 10-30 s: fewer repetitions, sizes up to 64 MiB");
  cmd->add_option("--csv", opt->csv,
                  "Also write every measurement here (measure,bytes,reps,median_gbps,min_gbps,max_gbps)")->check(non_empty());
  cmd->add_option("-o,--output", opt->output, "Write the YAML here instead of standard output")->check(non_empty());
  cmd->callback([opt, &run]() {
    run = [opt]() {
      hostprobe::ProbeOptions options =
          opt->quick ? hostprobe::ProbeOptions::quick() : hostprobe::ProbeOptions::thorough();
      const bool terminal = ::isatty(STDERR_FILENO) != 0;
      if (terminal) {
        options.progress = [](const std::string& what) {
          std::cerr << "\r\033[Klinkcast hostprobe: " << what << " ..." << std::flush;
        };
      }
      // Outputs first: an unwritable one fails before the measurement, and an interruption leaves
      // no temporary (core/output.hpp).
      std::optional<AtomicOutput> csv;
      if (!opt->csv.empty()) csv.emplace(opt->csv);
      AtomicOutput out(opt->output);
      hostprobe::HostRates rates;
      try {
        rates = hostprobe::measure_host_rates(options);
      } catch (const std::runtime_error& e) {
        if (terminal) std::cerr << "\r\033[K";
        throw InputError(e.what());
      }
      if (terminal) std::cerr << "\r\033[K";
      if (csv) {
        hostprobe::write_host_rates_csv(csv->stream(), rates);
        csv->commit();
      }
      char host[256] = {};
      const std::string name = ::gethostname(host, sizeof host - 1) == 0 ? std::string(host) : std::string("this host");
      out.stream() << fmt::format("# Measured by `linkcast hostprobe{}` on {}\n", opt->quick ? " --quick" : "", name);
      hostprobe::write_node_yaml(out.stream(), rates, "hostprobe");
      out.commit();
      return 0;
    };
  });
}

}  // namespace linkcast::cli
