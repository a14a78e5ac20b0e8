// linkcast_validate_real: `linkcast simulate` against GPU recordings (sim/validate.hpp says how),
// one or more machines, with geometric-mean errors per machine and over all of them.
//
// A MACHINE_DIR holds what tools/record/ writes (nccl_bench.csv, concurrency_trace.csv.gz, ...)
// and/or nccl-tests outputs listed in its nccl_tests.csv (sim/validate.hpp, validate_nccl_tests).
// Usage: linkcast_validate_real MACHINE_DIR NODE.yaml [MACHINE_DIR NODE.yaml ...]
//                               [--min-bytes SIZE] [--csv FILE]
// e.g.   linkcast_validate_real tests/data/real/h200-4gpu configs/testbed-h200-4gpu.yaml
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/units.hpp"
#include "sim/validate.hpp"
#include "topology/loader.hpp"

int main(int argc, char** argv) {
  using namespace linkcast;
  try {
    std::vector<std::pair<std::string, std::string>> machines;
    std::uint64_t min_bytes = 128ull << 20;
    std::string csv;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--min-bytes" && i + 1 < argc) min_bytes = parse_size_bytes(argv[++i], "--min-bytes");
      else if (a == "--csv" && i + 1 < argc) csv = argv[++i];
      else if (i + 1 < argc) {
        machines.emplace_back(a, argv[i + 1]);
        ++i;
      } else {
        throw InputError(fmt::format("'{}' has no node file after it", a));
      }
    }
    if (machines.empty()) {
      std::fprintf(stderr, "usage: %s MACHINE_DIR NODE.yaml [MACHINE_DIR NODE.yaml ...] [--min-bytes SIZE] [--csv FILE]\n",
                   argv[0]);
      return 2;
    }
    const std::string big = ">= " + format_bytes(min_bytes);
    std::map<std::string, std::vector<double>> sim_err, base_err;  // summary key -> errors
    // The CSV is written once every folder has been read and simulated: bad input leaves it as it was.
    std::string csv_rows = "machine,group,case,bytes,ops,measured_ns,simulated_ns,baseline_ns,note,issue_us,pace\n";
    for (const auto& [dir, node_file] : machines) {
      const topology::Node node = topology::load_node(node_file);
      double overhead = 0;
      std::vector<sim::ValidationCase> cases = sim::validate_copies(dir, node, &overhead);
      for (auto& c : sim::validate_collectives(dir, node)) cases.push_back(std::move(c));
      for (auto& c : sim::validate_pipeline(dir, node)) cases.push_back(std::move(c));
      std::vector<std::string> warnings;
      for (auto& c : sim::validate_nccl_tests(dir, node, {}, &warnings)) cases.push_back(std::move(c));
      for (const auto& w : warnings) std::fprintf(stderr, "%s: warning: %s\n", argv[0], w.c_str());
      std::printf("== %s on %s (recording overhead subtracted from copy makespans: %.1f us)\n", dir.c_str(),
                  node_file.c_str(), overhead / 1e3);
      if (const double floor_us = sim::collective_call_floor_us(dir); std::isfinite(floor_us))
        std::printf("   per-call floor of its collectives <= %s (a node's collective_call_us): %.1f us\n",
                    format_bytes(sim::kCallFloorMaxBytes).c_str(), floor_us);
      std::printf("%-14s %-16s %9s %4s %11s %11s %8s %11s %8s  %s\n", "group", "case", "size", "n", "measured",
                  "simulated", "error", "baseline", "error", "");
      for (const auto& c : cases) {
        std::printf("%-14s %-16s %9s %4d %11s %11s %+7.1f%% %11s %+7.1f%%  %s\n", c.group.c_str(), c.name.c_str(),
                    format_bytes(c.bytes).c_str(), c.ops, format_duration_ns(c.measured_ns).c_str(),
                    format_duration_ns(c.simulated_ns).c_str(), 100 * c.error(), format_duration_ns(c.baseline_ns).c_str(),
                    100 * c.baseline_error(), c.note.c_str());
        std::vector<std::string> keys;
        if (c.group == "copies") {
          keys = {dir + ": concurrent copies", "all machines: concurrent copies", "all machines: copies + NCCL " + big};
        } else if (c.group.starts_with("pipeline/")) {
          keys = {dir + ": " + c.group};
        } else if (c.group.starts_with("nccl-tests/")) {
          // Published or a user's own nccl-tests tables: per table (collective) and together.
          if (c.bytes >= min_bytes)
            keys = {fmt::format("{}: nccl-tests {} {}", dir, c.name, big), fmt::format("{}: nccl-tests {}", dir, big)};
        } else if (c.bytes >= min_bytes) {
          // CUDA graph replays (NCCL and the GPUs alone) apart from the calls issued from a process;
          // and every call, apart those whose host's pace the recording holds (graph replays wait for
          // no host; eager loops wait for their recorded issue_us or their own small calls' time)
          // from the eager loops timed at a pace not recorded (the node's collective_call_us stands in).
          const bool graph = c.group.ends_with(sim::kGraphSuffix);
          const std::string how = graph ? "NCCL graph" : "NCCL";
          // Replays whose launch held the host throughout (HostPace::launch_bound) are counted apart.
          keys = {fmt::format("{}: {} {}", dir, how, big), fmt::format("{} GPUs: {} {}", c.ops, how, big),
                  "all machines: every NCCL call " + big,
                  c.pace == sim::HostPace::node || c.pace == sim::HostPace::unpaced
                      ? "all machines: NCCL, issued at a pace not recorded " + big
                  : c.pace == sim::HostPace::launch_bound ? "all machines: NCCL graph, fed by the host's launch " + big
                                                          : "all machines: NCCL, the host's pace recorded or none " + big};
          if (!graph) keys.insert(keys.end(), {"all machines: NCCL " + big, "all machines: copies + NCCL " + big});
          if (c.group == "nccl/default" || c.group == std::string("nccl/default") + sim::kGraphSuffix) {
            keys.push_back(fmt::format("{} GPUs: {} default {}", c.ops, how, big));
            keys.push_back(fmt::format("{} GPUs: {} default {} {}", c.ops, how, big, c.name));
          }
        }
        for (const auto& k : keys) {
          sim_err[k].push_back(c.error());
          base_err[k].push_back(c.baseline_error());
        }
        if (!csv.empty())
          csv_rows += fmt::format("{},{},{},{},{},{:.0f},{:.0f},{:.0f},{},{},{}\n", dir, c.group, c.name, c.bytes,
                                 c.ops, c.measured_ns, c.simulated_ns, c.baseline_ns, c.note,
                                 c.issue_us > 0 ? fmt::format("{:.3f}", c.issue_us) : std::string(),
                                 sim::to_string(c.pace));
      }
      std::printf("\n");
    }
    if (!csv.empty()) {
      std::ofstream csv_out(csv, std::ios::binary);
      if (!(csv_out << csv_rows) || !csv_out.flush())
        throw InputError(fmt::format("{}: cannot write it; give a path in a folder that exists and is writable", csv));
    }
    std::printf("geometric mean |error| (baseline: no contention for copies, NCCL's own model for collectives)\n");
    for (const auto& [key, errs] : sim_err)
      std::printf("  %-58s %4zu cases: simulated %5.1f%% (max %4.0f%%, %4zu past 20%%)  baseline %5.1f%% (max %4.0f%%)\n",
                  key.c_str(), errs.size(), 100 * sim::geomean_abs(errs), 100 * sim::largest_abs(errs),
                  sim::count_past(errs, 0.2),
                  100 * sim::geomean_abs(base_err[key]), 100 * sim::largest_abs(base_err[key]));
    return 0;
  } catch (const InputError& e) {
    std::fprintf(stderr, "linkcast_validate_real: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "linkcast_validate_real: internal error (a bug; please report it with the input): %s\n",
                 e.what());
    return 1;
  }
}
